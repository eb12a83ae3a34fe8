//! The prior knowledge given to new tree nodes: virtual experience (visits and a value sum)
//! that a move starts with before any playout through it.
//!
//! The priors reward the tactical signs the playouts follow — captures, saving a group in
//! atari, the two-liberty fights and the vital point around the last move, the hand-made 3×3
//! shapes — and punish wasted stones (runs into a ladder, bad self-ataris, the first line in
//! open areas), so the tree starts from sensible moves; the learned move patterns add their
//! probability on top ([`Prior::with_pattern`]). The position is read once per expansion
//! ([`PriorContext`]), not once per move.
//!
//! Invariants: priors only read the board; a stone's prior holds at least the neutral ten
//! visits at one half, a pass's those ten visits at a tenth.

use super::policy::matches_pattern;
use crate::board::{Board, Color, Move, Point};
use crate::tactics::{self, Candidates};

/// How much prior experience a new node gets, and at what value.
#[derive(Copy, Clone, Debug)]
pub struct Prior {
    pub visits: u32,
    pub value: f64,
}

/// Virtual wins a move's pattern probability `p` is worth: `PATTERN_WINS · √p`.
const PATTERN_WINS: f64 = 200.0;

impl Prior {
    /// Adds the learned patterns' probability `p` of the move (among the position's moves) as
    /// virtual wins, [`PATTERN_WINS`] · √p of them: the moves a strong player would consider
    /// start as if they had already won many playouts, so the search stays with them until
    /// real playouts refute them, while a move the patterns find unlikely gets few and is
    /// tried once its siblings' values fall. (Fixed-playout self-play preferred this to a
    /// fixed number of visits whose value grows with √p; see README "Strength".)
    pub fn with_pattern(self, p: f32) -> Prior {
        let wins = (PATTERN_WINS * (p as f64).sqrt()).round() as u32;
        Prior {
            visits: self.visits + wins,
            value: self.value + wins as f64,
        }
    }
}

/// What the priors of one node's children share: the tactical situation of the position, read
/// once per expansion rather than once per move.
pub struct PriorContext {
    color: Color,
    /// Per point: stones that a stone of `color` there captures.
    captures: Vec<u16>,
    /// Points that save an own group in atari (capturing an attacker, or running free).
    saves: Vec<Point>,
    /// Points where an own group in atari would run into a ladder: wasted stones.
    ladder_runs: Vec<Point>,
    /// Two-liberty attacks and defences around the last move.
    fights: Vec<Point>,
    /// Per point: whether a stone stands within three steps (Manhattan distance).
    near_stones: Vec<bool>,
    /// The vital point of an eye space the last move walled in.
    vital: Option<Point>,
}

impl PriorContext {
    /// Reads the position for `color` to move.
    pub fn new(board: &Board, color: Color) -> PriorContext {
        let mut captures = vec![0u16; crate::board::CELLS];
        let mut saves = Candidates::default();
        let mut ladder_runs = Vec::new();
        let mut seen = vec![false; crate::board::CELLS];
        for p in board.points() {
            let Some(owner) = board.color(p) else {
                continue;
            };
            let head = board.group_of(p);
            if seen[head.idx()] {
                continue;
            }
            seen[head.idx()] = true;
            let Some(lib) = board.atari_liberty(p) else {
                continue;
            };
            if owner == color {
                tactics::saving_moves(board, p, &mut saves);
                if board.liberties_after(lib, color) == 2 && !saves.as_slice().contains(&lib) {
                    ladder_runs.push(lib);
                }
            } else {
                captures[lib.idx()] += board.group_size(p) as u16;
            }
        }
        let mut fights = Candidates::default();
        let mut vital = None;
        if let (Move::Play(last), _) = board.last_moves() {
            vital = tactics::nakade_vital_point(board, last);
            if board.color(last).is_some() {
                tactics::two_liberty_moves_around(board, last, color, &mut fights);
            }
        }
        let mut near_stones = vec![false; crate::board::CELLS];
        let size = board.size() as isize;
        for p in board.points().filter(|&p| board.color(p).is_some()) {
            let (col, row) = board.coords(p);
            let (col, row) = (col as isize, row as isize);
            for dr in -3isize..=3 {
                let reach = 3 - dr.abs();
                for dc in -reach..=reach {
                    let (c2, r2) = (col + dc, row + dr);
                    if (0..size).contains(&c2) && (0..size).contains(&r2) {
                        near_stones[board.point(c2 as usize, r2 as usize).idx()] = true;
                    }
                }
            }
        }
        PriorContext {
            color,
            near_stones,
            vital,
            captures,
            saves: saves.as_slice().to_vec(),
            ladder_runs,
            fights: fights.as_slice().to_vec(),
        }
    }

    /// Prior knowledge for playing `mv` on `board` (equivalent experience: virtual visits and
    /// their value sum). Moves that fill an own eye are not offered at all; see
    /// [`worth_trying`].
    pub fn prior(&self, board: &Board, mv: Move) -> Prior {
        let c = self.color;
        let base = 10u32;
        let (mut visits, mut wins) = (base, base as f64 * 0.5);
        let mut add = |n: u32, w: f64| {
            visits += n;
            wins += w;
        };
        let p = match mv {
            Move::Pass => {
                // Passing is worth little until the search shows otherwise.
                return Prior {
                    visits: base,
                    value: base as f64 * 0.1,
                };
            }
            Move::Play(p) => p,
        };
        let size = board.size();
        let (col, row) = board.coords(p);
        let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
        let captured = self.captures[p.idx()] as u32;
        let saves = self.saves.contains(&p);
        let tactical = captured > 0 || saves;
        if captured > 0 {
            let n = 16 + 4 * captured.min(10);
            add(n, n as f64);
        }
        if saves {
            add(20, 20.0);
        } else if self.ladder_runs.contains(&p) {
            add(20, 0.0);
        }
        if self.fights.contains(&p) || self.vital == Some(p) {
            add(15, 15.0);
        }
        if tactics::is_bad_self_atari(board, p, c)
            || (board.liberties_after(p, c) == 1 && !tactical)
        {
            add(20, 0.0);
        }
        if matches_pattern(board, p) {
            add(10, 10.0);
        }
        if let (Move::Play(last), _) = board.last_moves() {
            let (lc, lr) = board.coords(last);
            let d = lc.abs_diff(col) + lr.abs_diff(row);
            if d <= 2 {
                add(10, 7.0);
            }
        }
        if size >= 9 && !tactical {
            let open = !self.near_stones[p.idx()];
            match line {
                0 => add(20, 0.0),
                // In open areas of a big board the second line is too low and the third and
                // fourth lines are where play starts (corners first, then sides).
                1 if open && size >= 13 => add(15, 0.0),
                2 | 3 if open && size >= 13 => add(15, 14.0),
                // Open space is claimed from the third and fourth lines, not from the centre.
                _ if open && size >= 13 && line >= 4 => add(10, 2.0),
                2 if size >= 13 => add(10, 8.0),
                _ => {}
            }
        }
        Prior {
            visits,
            value: wins,
        }
    }
}

/// Whether the tree should consider `p` for `c` at all: legal on the board and not the filling
/// of an own eye.
#[inline]
pub fn worth_trying(board: &Board, p: Point, c: Color) -> bool {
    !board.is_eye(p, c) && board.is_legal(p, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priors_prefer_captures_over_self_atari() {
        let mut b = Board::new(9).unwrap();
        b.play(b.point(4, 3), Color::Black);
        b.play(b.point(3, 4), Color::Black);
        b.play(b.point(5, 4), Color::Black);
        b.play(b.point(4, 4), Color::White);
        let context = PriorContext::new(&b, Color::Black);
        let capture = context.prior(&b, Move::Play(b.point(4, 5)));
        let quiet = context.prior(&b, Move::Play(b.point(1, 7)));
        assert!(capture.value / capture.visits as f64 > quiet.value / quiet.visits as f64);
    }

    #[test]
    fn the_pattern_prior_favours_likely_moves_in_weight_and_value() {
        let base = Prior {
            visits: 10,
            value: 5.0,
        };
        let likely = base.with_pattern(0.25);
        let unlikely = base.with_pattern(0.0025);
        let never = base.with_pattern(0.0);
        assert_eq!((never.visits, never.value), (10, 5.0));
        assert_eq!(likely.visits, 10 + 100);
        assert_eq!(unlikely.visits, 10 + 10);
        let mean = |p: Prior| p.value / p.visits as f64;
        assert!(mean(likely) > mean(unlikely) && mean(unlikely) > mean(never));
    }
}
