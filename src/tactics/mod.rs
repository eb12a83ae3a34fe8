//! Tactical reading: what a local fight comes to, read out move by move or from the shape of
//! the stones. The playouts, the priors, the move patterns and the judgement of dead stones
//! all ask it, so each Go fact of this kind has its home here, one file per job:
//! - [`ladder`]: the crate's one ladder reader (atari after atari, snapbacks pruned);
//! - [`liberties`]: saving a group in atari, two-liberty attack and defence;
//! - [`self_atari`]: which self-ataris are worth playing (throw-ins, nakade fills);
//! - [`eyes`]: nakade shapes, the vital point of an eye space, the false eye of a seki;
//! - [`semeai`]: capture races, read out for the judgement and one ply deep for the playouts;
//! - [`life`]: whether a group shut in a small space is killed, read out for the judgement;
//! - [`confirmation`]: Japanese rules' confirmation play in a corner (a ko retaken only after a
//!   pass), where a bent four in the corner is dead;
//! - `proof`: the AND-OR search with a node budget that `semeai` and `life` read with;
//! - [`benson`]: Benson's unconditional life.
//!
//! Invariants: every function reads the board it is given and leaves it as it was (reading
//! ahead works on copies); readings are bounded (ladders by the board's width, races by a
//! node budget), and a reading cut short never claims a capture it has not proved. This module
//! knows the board and the counting of regions only: it sits above `score` and below `dead`,
//! `patterns` and `search`.

pub mod benson;
pub mod confirmation;
pub mod eyes;
pub mod ladder;
pub mod liberties;
pub mod life;
mod proof;
pub mod self_atari;
pub mod semeai;

use crate::board::{Board, Color, Point};
pub use benson::unconditionally_alive;
pub use eyes::{breaks_false_eye_seki, nakade_vital_point};
pub use ladder::{atari_catches, extension_caught, ladder_attack_works, ladder_captured};
pub use liberties::{saving_moves, two_liberty_moves, two_liberty_moves_around};
pub use self_atari::{is_bad_self_atari, is_nakade_fill};
pub use semeai::{fills_race_liberty, race_moves};

/// Small list of candidate points without allocation.
#[derive(Clone, Copy)]
pub struct Candidates {
    points: [Point; 16],
    len: usize,
}

impl Default for Candidates {
    fn default() -> Candidates {
        Candidates {
            points: [Point::NONE; 16],
            len: 0,
        }
    }
}

impl Candidates {
    /// Adds `p` once (silently dropped when full).
    #[inline]
    pub fn push(&mut self, p: Point) {
        if self.len < self.points.len() && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[Point] {
        &self.points[..self.len]
    }

    /// A uniformly random candidate.
    #[inline]
    pub fn pick(&self, rng: &mut fastrand::Rng) -> Option<Point> {
        (self.len > 0).then(|| self.points[rng.usize(..self.len)])
    }
}

/// Calls `f` with one stone of each opponent group next to `stone`'s group (a group may be
/// named more than once).
#[inline]
fn for_each_adjacent_enemy(board: &Board, stone: Point, mut f: impl FnMut(Point)) {
    let Some(c) = board.color(stone) else { return };
    let enemy = Some(c.opponent());
    for s in board.group_stones(stone) {
        for n in board.neighbours(s) {
            if board.color(n) == enemy {
                f(n);
            }
        }
    }
}

/// The distinct groups of `color` (their heads) with a stone next to one of `points`, into
/// `out` (room for four per point); returns how many.
fn groups_next_to(board: &Board, points: &[Point], color: Color, out: &mut [Point]) -> usize {
    let mut n = 0;
    for &q in points {
        for m in board.neighbours(q) {
            if board.color(m) != Some(color) {
                continue;
            }
            let head = board.group_of(m);
            if !out[..n].contains(&head) {
                out[n] = head;
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::board::{Board, Color};

    /// A board from rows (`X` Black, `O` White), top row first.
    pub fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (r, line) in rows.iter().enumerate() {
            for (col, ch) in line.chars().enumerate() {
                match ch {
                    'X' => {
                        b.set_stone(b.point(col, r), Color::Black);
                    }
                    'O' => {
                        b.set_stone(b.point(col, r), Color::White);
                    }
                    _ => {}
                }
            }
        }
        b
    }

    /// White D4 in atari inside Black's net; extending at E4 leaves two liberties and the
    /// ladder runs up and to the right, toward the top-right corner.
    pub const LADDER: [&str; 7] = [
        ".......", //
        ".......", //
        "...X...", //
        "..XO...", //
        "...XX..", //
        ".......", //
        ".......",
    ];

    /// The upper left of a finished game against Pachi (game 18 of the 12d346b match): White's
    /// wall (C8 D9 ...) has C9 and A6, White B9 has A9 and C9, Black's corner A8 B8 A7 B7 has
    /// A9 and A6. White C9 would join B9 to the wall with A9 and A6 left, and Black's A6 then
    /// kills it as a nakade: a seki.
    pub const PACHI_SEKI: [&str; 9] = [
        ".O.OOOX..",
        "XXOOOX.X.",
        "XXOOXXX.X",
        ".OOXXX.X.",
        "OOOOXOXXX",
        "OXXOOOOXO",
        "XXXXOOOOO",
        "X.OXXOXXO",
        ".XXXXXXXO",
    ];
}
