//! Looking inside: `showboard` and `tengen-perft`.

use super::{parse_uint, Answer, Engine};
use crate::board::Color;
use crate::perft;

/// The diagram (`X` Black, `O` White) and the state a human needs next to it. Starts on the
/// line after the `=`, as GNU Go does, so the columns line up.
pub fn showboard(engine: &mut Engine, _: &[&str]) -> Answer {
    let g = engine.game();
    let mut s = format!("\n{}\n", g.board());
    s.push_str(&format!(
        "rules {}, komi {}, handicap {}, move {}, {} to move\n",
        g.rules().name,
        g.komi(),
        g.handicap().len(),
        g.move_number(),
        g.to_move()
    ));
    s.push_str(&format!(
        "captured by black {}, by white {}",
        g.prisoners(Color::Black),
        g.prisoners(Color::White)
    ));
    Ok(s)
}

/// [`perft::perft_limited`] from the current position within [`perft::QUICK_LIMIT`] moves
/// tried, so that a controller waiting for the answer is not left hanging.
pub fn perft(engine: &mut Engine, args: &[&str]) -> Answer {
    let depth = parse_uint(args[0], u64::MAX).ok_or("syntax error: depth must be a number")?;
    perft::perft_limited(engine.game(), depth, perft::QUICK_LIMIT)
        .map(|count| count.to_string())
        .map_err(|e| e.to_string().into())
}
