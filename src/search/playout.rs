//! Playouts: finishing a game fast and at random from a position.
//!
//! One loop serves every playout: a policy (a function from the position to a move, `None` for
//! a pass) plays both sides until two passes in a row, a length cap (which stops the cycles a
//! basic-ko board could otherwise repeat forever), or — where the caller asks for it — the
//! mercy rule. It runs on the bare [`Board`] (simple ko only, no history): superko is the
//! tree's and the root's business. The light policy plays uniformly random legal moves that do
//! not fill the mover's own eye; the heavy one is [`super::policy::playout_move`] (the search
//! adds its pool of good moves: [`super::policy::pooled_move`]). A playout ends with every
//! region filled down to eyes, so [`crate::score::settled_area`] counts it.

use super::policy;
use crate::board::{Board, Color, Point};

/// How a playout ended.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Moves played, passes included.
    pub moves: u32,
    /// Stones Black played minus stones White played during the playout (territory counting
    /// needs it: the area margin minus the stone balance is the territory margin).
    pub stone_balance: i32,
}

/// The move cap for a board of side `size`: long enough for any real game to end by passes.
pub fn move_cap(size: usize) -> u32 {
    (3 * size * size) as u32
}

/// The capture balance (stones one side captured minus the other's) at which a search
/// playout stops: a third of the board. Its outcome is no longer in doubt, and the rest would
/// be wasted time.
pub fn mercy_margin(size: usize) -> i32 {
    (size * size / 3) as i32
}

/// The light policy: a uniformly random legal move that does not fill the mover's own eye.
#[inline]
pub fn light_move(board: &Board, color: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    policy::random_move(board, color, rng, |_| true)
}

/// Plays a light playout on `board` with `color` to move, until two passes or the cap.
pub fn light_playout(board: &mut Board, color: Color, rng: &mut fastrand::Rng) -> Playout {
    play_out(board, color, rng, light_move, false, |_, _, _| {})
}

/// Plays a heavy-policy playout on `board` with `color` to move, until two passes or the cap.
pub fn heavy_playout(board: &mut Board, color: Color, rng: &mut fastrand::Rng) -> Playout {
    play_out(board, color, rng, policy::playout_move, false, |_, _, _| {})
}

/// Plays `policy`'s moves for both sides (a pass when it has none), `color` first, until two
/// passes, the cap, or (with `mercy`) the mercy rule. `on_play` sees each stone played with its
/// colour and its index among the playout's moves (passes counted).
#[inline]
pub fn play_out(
    board: &mut Board,
    mut color: Color,
    rng: &mut fastrand::Rng,
    mut policy: impl FnMut(&Board, Color, &mut fastrand::Rng) -> Option<Point>,
    mercy: bool,
    mut on_play: impl FnMut(Point, Color, u32),
) -> Playout {
    let cap = move_cap(board.size());
    let mercy = if mercy {
        mercy_margin(board.size())
    } else {
        i32::MAX
    };
    let mut moves = 0;
    let mut passes = 0;
    let mut stone_balance = 0;
    let mut capture_balance = 0i32;
    while passes < 2 && moves < cap && capture_balance.abs() < mercy {
        match policy(board, color, rng) {
            Some(p) => {
                on_play(p, color, moves);
                let out = board.play(p, color);
                let sign = if color == Color::Black { 1 } else { -1 };
                stone_balance += sign;
                capture_balance += sign * (out.captured as i32 - out.lost as i32);
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        color = color.opponent();
    }
    Playout {
        moves,
        stone_balance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::settled_area;

    #[test]
    fn playouts_end_with_a_full_board_of_eyes() {
        let mut rng = fastrand::Rng::with_seed(7);
        for size in [2, 5, 9, 19] {
            for _ in 0..20 {
                let mut b = Board::new(size).unwrap();
                let r = light_playout(&mut b, Color::Black, &mut rng);
                assert!(r.moves >= 2 && r.moves <= move_cap(size));
                b.verify().unwrap();
                if r.moves < move_cap(size) {
                    // Ended by passes: no legal non-eye move for either side.
                    for c in [Color::Black, Color::White] {
                        assert!(light_move(&b, c, &mut rng).is_none());
                    }
                }
                let area = settled_area(&b, |_, _| {});
                assert!(area.unsigned_abs() as usize <= size * size);
            }
        }
    }

    #[test]
    fn every_stone_played_is_reported_in_order() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut b = Board::new(9).unwrap();
        let mut seen = Vec::new();
        let r = play_out(
            &mut b,
            Color::White,
            &mut rng,
            light_move,
            true,
            |p, c, i| seen.push((p, c, i)),
        );
        let balance: i32 = seen
            .iter()
            .map(|&(_, c, _)| if c == Color::Black { 1 } else { -1 })
            .sum();
        assert_eq!(r.stone_balance, balance);
        assert!(seen.windows(2).all(|w| w[0].2 < w[1].2));
        // White moved first: even indices are White's.
        assert!(seen
            .iter()
            .all(|&(_, c, i)| (c == Color::White) == (i % 2 == 0)));
        // With the mercy rule the playout may stop early, never late.
        assert!(r.moves <= move_cap(9));
    }
}
