//! Playout policies: finishing a game fast and at random from a position, then counting it.
//!
//! The light policy plays uniformly random legal moves that do not fill the mover's own eye,
//! passing only when no such move exists; two passes in a row end the playout, and a length cap
//! stops the cycles that a basic-ko board could otherwise repeat forever. It runs on the bare
//! [`Board`] (simple ko only, no history): superko is the tree's and the root's business.

use crate::board::{Board, Cell, Color, Point};

/// How a playout ended.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Moves played, passes included.
    pub moves: u32,
    /// Black's area minus White's (stones plus single-colour empty points), no komi.
    pub area_margin: i32,
}

/// The move cap for a board of side `size`: long enough for any real game to end by passes.
pub fn move_cap(size: usize) -> u32 {
    (3 * size * size) as u32
}

/// The capture balance (stones one side captured minus the other's) at which a search
/// playout stops: a third of the board.
pub fn mercy_margin(size: usize) -> i32 {
    (size * size / 3) as i32
}

/// Picks a uniformly random legal move for `color` that does not fill its own eye, or `None`.
#[inline]
pub fn random_move(board: &Board, color: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.usize(..n);
    let acceptable = |p: Point| !board.is_eye(p, color) && board.is_legal(p, color);
    empties[start..]
        .iter()
        .chain(empties[..start].iter())
        .copied()
        .find(|&p| acceptable(p))
}

/// Plays a light playout on `board` with `color` to move, until two passes or the cap.
pub fn light_playout(board: &mut Board, color: Color, rng: &mut fastrand::Rng) -> Playout {
    play_out(board, color, rng, random_move)
}

/// Plays a heavy-policy playout (see [`super::policy`]) on `board` with `color` to move, until
/// two passes or the cap.
pub fn heavy_playout(board: &mut Board, color: Color, rng: &mut fastrand::Rng) -> Playout {
    play_out(board, color, rng, super::policy::playout_move)
}

/// Plays `policy`'s moves (a pass when it has none) until two passes or the cap.
#[inline]
fn play_out(
    board: &mut Board,
    mut color: Color,
    rng: &mut fastrand::Rng,
    policy: impl Fn(&Board, Color, &mut fastrand::Rng) -> Option<Point>,
) -> Playout {
    let cap = move_cap(board.size());
    let mut moves = 0;
    let mut passes = 0;
    while passes < 2 && moves < cap {
        match policy(board, color, rng) {
            Some(p) => {
                board.play(p, color);
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
        area_margin: area_margin(board),
    }
}

/// Black's area minus White's on a finished playout board: stones, plus empty points whose
/// neighbours are all one colour. (Playouts end with every region filled down to eyes, so
/// this is the area count without a flood fill.)
#[inline]
pub fn area_margin(board: &Board) -> i32 {
    let mut margin = 0;
    for p in board.points() {
        match board.cell(p) {
            Cell::Black => margin += 1,
            Cell::White => margin -= 1,
            _ => {
                let (mut b, mut w) = (false, false);
                for n in board.neighbours(p) {
                    match board.cell(n) {
                        Cell::Black => b = true,
                        Cell::White => w = true,
                        _ => {}
                    }
                }
                margin += b as i32 - w as i32;
            }
        }
    }
    margin
}

#[cfg(test)]
mod tests {
    use super::*;

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
                        assert!(random_move(&b, c, &mut rng).is_none());
                    }
                }
                assert!(r.area_margin.unsigned_abs() as usize <= size * size);
            }
        }
    }
}
