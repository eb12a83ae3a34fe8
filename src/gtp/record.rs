//! Game records: `loadsgf` and `printsgf`.

use super::{parse_uint, prejudgement, Answer, Engine};
use crate::prejudgement::Prejudgement;
use crate::sgf;

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
    let text = sgf::read_file(std::path::Path::new(args[0]))
        .map_err(|e| format!("cannot load file: {}", e))?;
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
            crate::files::write(std::path::Path::new(path), text.as_bytes())
                .map_err(|e| format!("cannot write file: {}", e))?;
            Ok(String::new())
        }
    }
}
