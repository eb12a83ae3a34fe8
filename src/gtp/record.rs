//! Game records: `loadsgf` and `printsgf`.

use super::{parse_uint, prejudgement, Answer, Engine};
use crate::prejudgement::Prejudgement;
use crate::sgf;
use std::io::Read;

/// Files larger than this are not game records.
const MAX_SGF_BYTES: u64 = 16 * 1024 * 1024;

/// `loadsgf FILE [MOVE]`: the position of the file's main line before move number MOVE (or at
/// its end). The file's size, komi and ruleset (RU, when it names one tengen plays) replace the
/// current ones, a record without komi taking the rules' usual one (GNU Go likewise sets its
/// own default); on any problem the current game stays as it was. Answers the colour to move,
/// as GNU Go does.
pub fn loadsgf(engine: &mut Engine, args: &[&str]) -> Answer {
    let stop_before = match args.get(1) {
        None => None,
        Some(a) if !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()) => {
            let k = parse_uint(a, u64::MAX).ok_or("syntax error: the move number is too large")?;
            if k == 0 {
                return Err("syntax error: the move number must be 1 or more".into());
            }
            Some(k.min(usize::MAX as u64) as usize)
        }
        Some(_) => return Err("syntax error: the move number must be 1 or more".into()),
    };
    let text = read_record(args[0]).map_err(|e| format!("cannot load file: {}", e))?;
    let loaded = sgf::read(&text, *engine.game().rules(), stop_before)
        .map_err(|e| format!("cannot load file: {}", e))?;
    // Pre-judgement predictions come back only where they still set the komi (`KM` rules it)
    // after the opening they judged: not for a position inside the opening.
    let game = loaded.game;
    let predictions = loaded
        .predictions
        .map(|p| Prejudgement::new(&game, p))
        .filter(|p| p.describe(&game));
    engine.replace_game(game);
    engine.predictions = predictions;
    // A record without `KM` has the rules' usual komi, which follows the rules as that of a
    // new game does.
    engine.komi_chosen = loaded.komi_given;
    Ok(engine.game().to_move().to_string())
}

/// Opening flags for a record file: `O_NONBLOCK`, so that a FIFO put in place of a file after it
/// was checked cannot hold the open (a regular file ignores the flag). The value is the Linux
/// generic one, shared by x86, x86-64, ARM, AArch64 and RISC-V; elsewhere no flag is added and
/// the check before opening stands alone.
const OPEN_FLAGS: i32 = if cfg!(all(
    target_os = "linux",
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
)) {
    0o4000
} else {
    0
};

/// The text of a record file; bytes that are not UTF-8 are replaced, as only comments hold text.
///
/// What is read is judged from the opened file itself (not from the name, which may point
/// elsewhere by then): a regular file, of a size above zero and at most [`MAX_SGF_BYTES`], and
/// no more than that size is read, so a file that grows or lies about its size cannot flood the
/// engine. A size of zero is refused: an empty file holds no record, and the kernel's
/// pseudo-files (`/proc`, `/sys`) report zero although they have text, some never ending and
/// some blocking for ever (`/proc/kmsg`). Devices, pipes and directories are refused before
/// they are opened, as opening one may itself block.
fn read_record(path: &str) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let fail = |e: &dyn std::fmt::Display| format!("{}: {}", path, e);
    let check = |meta: &std::fs::Metadata| -> Result<u64, String> {
        if !meta.is_file() {
            return Err(fail(&"not a regular file"));
        }
        match meta.len() {
            0 => Err(fail(&"empty, or a file that does not tell its size")),
            n if n > MAX_SGF_BYTES => Err(fail(&format!("larger than {} bytes", MAX_SGF_BYTES))),
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
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Writes a record to `path` without ever writing through what the name points to: the text
/// goes to a new file beside it, which then replaces the name. A symbolic link, a device, a pipe
/// or a directory at `path` is refused; a file that cannot be created in the directory (as in
/// `/proc`) makes the write fail; an old record is replaced whole or not at all, keeping its
/// permissions.
fn write_record(path: &str, text: &str) -> Result<(), String> {
    use std::io::Write;
    let fail = |e: &dyn std::fmt::Display| format!("{}: {}", path, e);
    let target = std::path::Path::new(path);
    let old = match std::fs::symlink_metadata(target) {
        // `symlink_metadata` tells a link as a link, which is not a regular file.
        Ok(meta) if !meta.is_file() => return Err(fail(&"not a regular file")),
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(&e)),
    };
    let name = target
        .file_name()
        .ok_or_else(|| fail(&"not a file name"))?
        .to_string_lossy();
    let temp = target.with_file_name(format!(".{}.{}.tmp", name, std::process::id()));
    // `create_new` refuses anything already there, a link included, so the text lands in a
    // file of its own.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            if let Some(meta) = &old {
                f.set_permissions(meta.permissions())?;
            }
            f.sync_all()
        })
        .and_then(|_| std::fs::rename(&temp, target));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        fail(&e)
    })
}

/// `printsgf [FILE]`: the game as SGF, written to FILE or given as the answer.
pub fn printsgf(engine: &mut Engine, args: &[&str]) -> Answer {
    let info = sgf::Info {
        result: engine.result(),
        predictions: prejudgement::current(engine).map(|p| p.predictions),
        ..sgf::Info::default()
    };
    let text = sgf::write(engine.game(), &info);
    match args.first() {
        None => Ok(text),
        Some(path) => {
            // Only a regular file, new or old: a device or pipe (say /dev/stdout, the protocol
            // stream itself) must never receive the record, nor what a link points to.
            write_record(path, &text).map_err(|e| format!("cannot write file: {}", e))?;
            Ok(String::new())
        }
    }
}
