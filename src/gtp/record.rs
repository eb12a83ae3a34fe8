//! Game records: `loadsgf` and `printsgf`.

use super::{parse_uint, prejudgement, Answer, Engine};
use crate::sgf;
use std::io::Read;

/// Files larger than this are not game records.
const MAX_SGF_BYTES: u64 = 16 * 1024 * 1024;

/// `loadsgf FILE [MOVE]`: the position of the file's main line before move number MOVE (or at
/// its end). The file's size, komi and ruleset (RU, when it names one tengen plays) replace the
/// current ones; on any problem the current game stays as it was. Answers the colour to move, as
/// GNU Go does.
pub fn loadsgf(engine: &mut Engine, args: &[&str]) -> Answer {
    let stop_before = match args.get(1) {
        None => None,
        Some(a) => Some(
            parse_uint(a, u64::MAX)
                .filter(|&k| k >= 1)
                .ok_or("syntax error: the move number must be 1 or more")?
                .min(usize::MAX as u64) as usize,
        ),
    };
    let text = read_record(args[0]).map_err(|e| format!("cannot load file: {}", e))?;
    let game = sgf::load(
        &text,
        *engine.game().rules(),
        engine.game().komi(),
        stop_before,
    )
    .map_err(|e| format!("cannot load file: {}", e))?;
    // Pre-judgement predictions come back only where they still set the komi (`KM` rules it)
    // after the opening they judged: not for a position inside the opening.
    let predictions = sgf::predictions(&text)
        .map(|(first, second)| prejudgement::Predictions::new(&game, first, second))
        .filter(|p| p.describe(&game));
    engine.replace_game(game);
    engine.predictions = predictions;
    engine.komi_chosen = true;
    Ok(engine.game().to_move().to_string())
}

/// The text of a record file. Only regular files are read (never a pipe or a device, which
/// could block or never end); bytes that are not UTF-8 are replaced, as only comments hold text.
fn read_record(path: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {}", path, e))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path));
    }
    if meta.len() > MAX_SGF_BYTES {
        return Err(format!("{}: larger than {} bytes", path, MAX_SGF_BYTES));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SGF_BYTES).read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {}", path, e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `printsgf [FILE]`: the game as SGF, written to FILE or given as the answer.
pub fn printsgf(engine: &mut Engine, args: &[&str]) -> Answer {
    let info = sgf::Info {
        result: engine.result(),
        predictions: prejudgement::current(engine).map(|p| (p.first, p.second)),
        ..sgf::Info::default()
    };
    let text = sgf::write(engine.game(), &info);
    match args.first() {
        None => Ok(text),
        Some(path) => {
            // Only a regular file, new or old: a device or pipe (say /dev/stdout, the protocol
            // stream itself) must never receive the record.
            if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
                return Err(format!("cannot write file: {}: not a regular file", path).into());
            }
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write file: {}: {}", path, e))?;
            Ok(String::new())
        }
    }
}
