//! The directory of a match's SGF records: files are numbered past the highest `game-NNN.sgf`
//! already there, and each is written under a temporary name, then linked into place, so a
//! record never replaces a file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The directory of a match's records: each game is written as `game-NNN.sgf`, numbered past
/// the highest number there when the match began, and never over an existing file.
pub struct Records {
    dir: PathBuf,
    /// The number of the match's game 1's file, less one.
    offset: usize,
}

impl Records {
    /// Creates the directory when needed and finds the numbers already taken.
    pub fn open(dir: &Path) -> Result<Records, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        let offset = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| record_number(&e.file_name().to_string_lossy()))
            .max()
            .unwrap_or(0);
        if offset > 0 {
            log::warn!(
                "{} holds records up to game-{:03}.sgf: this match's are numbered from {:03}",
                dir.display(),
                offset,
                offset + 1
            );
        }
        Ok(Records {
            dir: dir.to_path_buf(),
            offset,
        })
    }

    /// Writes `text` as game `number`'s record: into a temporary file of the same directory,
    /// then linked under the first free name from the game's number on (a link, unlike a
    /// rename, never replaces a file that appeared meanwhile). Returns the path written.
    pub fn write(&mut self, number: usize, text: &str) -> Result<PathBuf, String> {
        let temporary = self.dir.join(format!(
            ".game-{:03}.sgf.{}.tmp",
            number,
            std::process::id()
        ));
        // A file of its own: whatever has the name (a stale temporary, a link planted there) is
        // removed, never written through, and `create_new` refuses anything that appears since.
        let _ = std::fs::remove_file(&temporary);
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_all()
            });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(format!("{}: {}", temporary.display(), e));
        }
        let mut n = self.offset + number;
        let linked = loop {
            let path = self.dir.join(format!("game-{:03}.sgf", n));
            match std::fs::hard_link(&temporary, &path) {
                Ok(()) => break Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // Another writer took the name since the match began: keep both files.
                    self.offset += 1;
                    n += 1;
                }
                Err(e) => break Err(format!("{}: {}", path.display(), e)),
            }
        };
        let _ = std::fs::remove_file(&temporary);
        linked
    }
}

/// `N` for a file named `game-N.sgf`.
fn record_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("game-")?.strip_suffix(".sgf")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_at_the_temporary_name_is_not_written_through() {
        let dir = std::env::temp_dir().join(format!("tengen-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.txt");
        std::fs::write(&target, "keep me").unwrap();
        let temporary = dir.join(format!(".game-001.sgf.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&target, &temporary).unwrap();
        let mut records = Records::open(&dir).unwrap();
        let path = records.write(1, "(;GM[1])").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "(;GM[1])");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        assert!(!temporary.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
