//! The files tengen is named on its command line or over GTP: read only when they are regular
//! files, and never more of them than a bound; written beside their name and renamed onto it.
//!
//! Invariants: a read judges the opened file itself (not the name, which may point elsewhere
//! by then) and reads at most the size it reported and at most the caller's bound, so a device,
//! a pipe, a growing file or a kernel pseudo-file can neither block nor flood the process. A
//! write never goes through what the name points to (a link, a device, a pipe and a directory
//! are refused), and a file it replaces is replaced whole or not at all: the text goes to a new
//! file beside it, synced, then renamed, so a full disk, a file-size limit or a crash leaves the
//! old file as it was. Every message starts with the path.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Linux on the architectures whose open flags and signal numbers are the generic ones (x86,
/// x86-64, ARM, AArch64, RISC-V); elsewhere the checks below stand without those two helps.
const LINUX_GENERIC: bool = cfg!(all(
    target_os = "linux",
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
));

/// `O_NONBLOCK`, so that a FIFO put in place of a file after it was checked cannot hold the
/// open (a regular file ignores the flag).
const OPEN_FLAGS: i32 = if LINUX_GENERIC { 0o4000 } else { 0 };

fn failure(path: &Path, e: &dyn std::fmt::Display) -> String {
    format!("{}: {}", path.display(), e)
}

/// The bytes of a regular file of a size above zero and at most `max_bytes`; no more than that
/// size is read, so a file that grows or lies about its size cannot flood the process. A size
/// of zero is refused: an empty file holds nothing to read, and the kernel's pseudo-files
/// (`/proc`, `/sys`) report zero although they have text, some never ending and some blocking
/// for ever (`/proc/kmsg`). Devices, pipes and directories are refused before they are opened,
/// as opening one may itself block.
pub fn read(path: &Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let fail = |e: &dyn std::fmt::Display| failure(path, e);
    let check = |meta: &std::fs::Metadata| -> Result<u64, String> {
        if !meta.is_file() {
            return Err(fail(&"not a regular file"));
        }
        match meta.len() {
            0 => Err(fail(&"empty, or a file that does not tell its size")),
            n if n > max_bytes => Err(fail(&format!("larger than {} bytes", max_bytes))),
            n => Ok(n),
        }
    };
    check(&std::fs::metadata(path).map_err(|e| fail(&e))?)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(OPEN_FLAGS)
        .open(path)
        .map_err(|e| fail(&e))?;
    let size = check(&file.metadata().map_err(|e| fail(&e))?)?;
    let mut bytes = Vec::new();
    file.take(size)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(&e))?;
    Ok(bytes)
}

/// What is at a name to be written: `Some` permissions of a regular file to replace, `None`
/// when there is nothing; anything else (a symbolic link, which `symlink_metadata` tells as
/// itself, a device, a pipe, a directory) is refused.
fn existing(path: &Path) -> Result<Option<std::fs::Permissions>, String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => Err(failure(path, &"not a regular file")),
        Ok(meta) => Ok(Some(meta.permissions())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failure(path, &e)),
    }
}

/// The temporary file beside `path` that a write fills before renaming it, created new (so
/// that nothing already there, a link included, receives the text).
fn create_beside(path: &Path) -> Result<(PathBuf, std::fs::File), String> {
    let name = path
        .file_name()
        .ok_or_else(|| failure(path, &"not a file name"))?
        .to_string_lossy();
    let temp = path.with_file_name(format!(".{}.{}.tmp", name, std::process::id()));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(|e| failure(path, &e))?;
    Ok((temp, file))
}

/// Whether [`write`] can write `path`, asked before long work whose result goes there: the
/// name holds a regular file or nothing, and a file can be created beside it (the directory
/// exists and takes new files). Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), String> {
    existing(path)?;
    let (temp, file) = create_beside(path)?;
    drop(file);
    std::fs::remove_file(&temp).map_err(|e| failure(&temp, &e))
}

/// Writes `bytes` as the file `path`: into a new file beside it, synced, then renamed onto the
/// name (keeping an old file's permissions). A failure at any step removes the new file and
/// leaves whatever was at `path` untouched.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fail_writes_past_the_size_limit();
    let old = existing(path)?;
    let (temp, mut file) = create_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| match &old {
            Some(permissions) => file.set_permissions(permissions.clone()),
            None => Ok(()),
        })
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        failure(path, &e)
    })
}

/// A write past the process's file-size limit (`ulimit -f`) raises SIGXFSZ, which by default
/// kills the process before it can remove its temporary file or say why. Caught (by a handler
/// that does nothing), the write fails with an error instead. std has no way to install a
/// signal handler and the allowed crates offer none, hence the C `signal` call (the same
/// declaration as the match tool's).
fn fail_writes_past_the_size_limit() {
    const SIGXFSZ: i32 = 25;
    extern "C" fn ignore(_signal: i32) {}
    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    if LINUX_GENERIC {
        // SAFETY: `signal` is the C library's; the handler does nothing, which is
        // async-signal-safe, and lives for the whole program.
        ONCE.call_once(|| unsafe {
            signal(SIGXFSZ, ignore);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tengen-files-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn reads_regular_files_within_the_bound_only() {
        let dir = scratch("read");
        let file = dir.join("a.txt");
        std::fs::write(&file, "12345").unwrap();
        assert_eq!(read(&file, 5).unwrap(), b"12345");
        assert!(read(&file, 4).unwrap_err().ends_with("larger than 4 bytes"));
        std::fs::write(&file, "").unwrap();
        assert!(read(&file, 5).unwrap_err().contains("empty"));
        assert!(read(&dir, 5).unwrap_err().ends_with("not a regular file"));
        assert!(read(Path::new("/dev/zero"), 5)
            .unwrap_err()
            .ends_with("not a regular file"));
        assert!(read(&dir.join("missing"), 5).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_beside_and_renames_never_through_a_link() {
        let dir = scratch("write");
        let target = dir.join("target.txt");
        let link = dir.join("link.txt");
        std::fs::write(&target, "keep me").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        for refused in [&link, &dir, &dir.join("missing/x.txt")] {
            assert!(check_writable(refused).is_err(), "{:?}", refused);
            assert!(write(refused, b"new").is_err(), "{:?}", refused);
        }
        assert!(check_writable(Path::new("/dev/full")).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        check_writable(&target).unwrap();
        check_writable(&dir.join("new.txt")).unwrap();
        assert_eq!(names(&dir), ["link.txt", "target.txt"]);
        write(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(names(&dir), ["link.txt", "target.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
