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

/// The most moves `tengen-perft` will try: a second or so of counting, so that a controller
/// waiting for the answer is not left hanging (9×9 at depth 3, 19×19 at depth 2). Every sequence
/// counted is a move tried, so this also bounds the count.
const PERFT_LIMIT: f64 = 1.0e7;

/// `perft::perft` from the current position, walked within [`PERFT_LIMIT`] moves tried and
/// refused once past it. Depths whose rough estimate (the moves now legal, one fewer per ply as
/// stones fill the board, but at least two) is already past the limit are refused at once: this
/// also bounds the walk's depth. The estimate alone is not enough, as captures reopen points
/// (3×3 at depth 10 counts 1.3e8 sequences where it guesses 1.5e6).
pub fn perft(engine: &mut Engine, args: &[&str]) -> Answer {
    let depth = parse_uint(args[0], u64::MAX).ok_or("syntax error: depth must be a number")?;
    let width = perft::legal_moves(engine.game()).len() as f64;
    let mut estimate = 1.0f64;
    for ply in 0..depth.min(1000) {
        estimate *= (width - ply as f64).max(2.0);
        if estimate > PERFT_LIMIT {
            return Err(format!(
                "depth {} is too deep here (about {:.0e} sequences; the limit is {:.0e})",
                depth, estimate, PERFT_LIMIT
            )
            .into());
        }
    }
    // The estimate stops before 2^24 > PERFT_LIMIT, so the depth fits.
    let depth = depth as u32;
    match perft::perft_within(engine.game(), depth, PERFT_LIMIT as u64) {
        Some(count) => Ok(count.to_string()),
        None => Err(format!(
            "depth {} is too deep here (more than {:.0e} moves to try; the limit is {:.0e})",
            depth, PERFT_LIMIT, PERFT_LIMIT
        )
        .into()),
    }
}
