//! The heavy playout policy and the prior knowledge given to new tree nodes.
//!
//! Playout moves, in the MoGo tradition: capture the group the last move left in atari; save an
//! own group the last move put in atari (when the escape gains liberties); take the vital point
//! of an eye space the last move walled in; play a good-shape 3×3 pattern reply next to the
//! last move; otherwise a uniformly random legal move that neither fills an own eye nor puts a
//! group of two or more stones in atari (unless it fills an eye space in a dead shape). Priors
//! reward the same tactical signs on expansion, so the tree starts from sensible moves.

use super::tactics::{self, Candidates};
use crate::board::{Board, Cell, Color, Move, Point};
use std::sync::OnceLock;

/// 3×3 shapes around an empty centre, from the mover's side: `X` mover, `O` opponent, `.`
/// empty, `#` off board, `?` anything, `x` not the mover's stone (empty or opponent), `o` not the
/// opponent's. Rows top to bottom. Each is matched in all 8 orientations and for either colour.
const PATTERNS: [&str; 13] = [
    "XOX...???", // hane that encloses
    "XO....?.?", // hane that leaves no cut
    "XO?X..x.?", // bending hane (magari)
    ".O.X.....", // attachment on the diagonal
    "XO?O.o?o?", // cut that cannot be prevented
    "XO?O.X???", // cut after a peep
    "?X?O.Oooo", // pushing through (de)
    "OX?o.O???", // cutting a knight's move
    "X.?O.?###", // chasing along the edge
    "OX?X.O###", // blocking a cut on the edge
    "?X?x.O###", // blocking a connection on the edge
    "?XOx.x###", // drop to the edge (sagari)
    "?OXX.O###", // cut on the edge
];

/// Which of the 65 536 neighbourhood codes match a pattern.
fn pattern_table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(build_pattern_table)
}

/// Neighbourhood order used in codes: NW, N, NE, W, E, SW, S, SE (2 bits each, `Cell` values).
fn build_pattern_table() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    // Pattern string positions (row-major 3×3, centre 4) of each code slot.
    const SLOTS: [usize; 8] = [0, 1, 2, 3, 5, 6, 7, 8];
    for pat in PATTERNS {
        let grid: Vec<char> = pat.chars().collect();
        for sym in 0..8 {
            let g = transform(&grid, sym);
            for mover in [Cell::Black, Cell::White] {
                let opp = if mover == Cell::Black {
                    Cell::White
                } else {
                    Cell::Black
                };
                let options: Vec<Vec<u8>> = SLOTS
                    .iter()
                    .map(|&s| match g[s] {
                        'X' => vec![mover as u8],
                        'O' => vec![opp as u8],
                        '.' => vec![Cell::Empty as u8],
                        '#' => vec![Cell::Wall as u8],
                        'x' => vec![Cell::Empty as u8, opp as u8],
                        'o' => vec![Cell::Empty as u8, mover as u8],
                        _ => vec![0, 1, 2, 3],
                    })
                    .collect();
                expand(&options, 0, 0, &mut table);
            }
        }
    }
    table
}

fn expand(options: &[Vec<u8>], slot: usize, code: usize, table: &mut [bool]) {
    if slot == options.len() {
        table[code] = true;
        return;
    }
    for &v in &options[slot] {
        expand(options, slot + 1, code | (v as usize) << (2 * slot), table);
    }
}

/// One of the 8 symmetries of a 3×3 grid.
fn transform(g: &[char], sym: usize) -> Vec<char> {
    let mut out = vec!['?'; 9];
    for r in 0..3 {
        for c in 0..3 {
            let (mut rr, mut cc) = (r, c);
            if sym & 1 != 0 {
                cc = 2 - cc;
            }
            if sym & 2 != 0 {
                rr = 2 - rr;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut rr, &mut cc);
            }
            out[rr * 3 + cc] = g[r * 3 + c];
        }
    }
    out
}

/// The neighbourhood code of `p` (see [`build_pattern_table`]).
#[inline]
fn code(board: &Board, p: Point) -> usize {
    let [nw, ne, sw, se] = board.diagonals(p);
    let [n, w, e, s] = board.neighbours(p);
    let mut code = 0usize;
    for (i, q) in [nw, n, ne, w, e, sw, s, se].into_iter().enumerate() {
        code |= (board.cell(q) as usize) << (2 * i);
    }
    code
}

/// Whether empty `p` is a good-shape 3×3 reply point.
#[inline]
pub fn matches_pattern(board: &Board, p: Point) -> bool {
    pattern_table()[code(board, p)]
}

/// How often a playout answers the two-liberty fights around the last move (attack the
/// group just played, or defend an own group it left with two liberties). Stochastic rather
/// than always: a deterministic rule makes the playouts' errors systematic.
const TWO_LIBERTY_RATE: f32 = 0.9;

/// How often a playout takes the vital point of an eye space the last move walled in (see
/// [`tactics::nakade_vital_point`]).
const NAKADE_RATE: f32 = 0.9;

/// The tactical reply to the last move, if any: capture it, save what it put in atari (by
/// capturing an attacker or by running, unless the run ends in a ladder), the two-liberty
/// fights around it, the vital point of an eye space it walled in, or a pattern reply next to
/// it or next to the move before.
#[inline]
fn reply_to_last(board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    let (last, before) = board.last_moves();
    let Move::Play(last) = last else {
        return None;
    };
    if board.color(last) != Some(c.opponent()) {
        return None;
    }
    if let Some(l) = board.atari_liberty(last) {
        if board.is_legal(l, c) {
            return Some(l);
        }
    }
    let mut saves = Candidates::default();
    let mut fights = Candidates::default();
    let fight = rng.f32() < TWO_LIBERTY_RATE;
    if fight && board.liberties(last) == 2 {
        tactics::two_liberty_moves(board, last, c, &mut fights);
    }
    for n in board.neighbours(last) {
        if board.color(n) == Some(c) {
            match board.liberties(n) {
                1 => tactics::saving_moves(board, n, &mut saves),
                2 if fight => tactics::two_liberty_moves(board, n, c, &mut fights),
                _ => {}
            }
        }
    }
    if let Some(p) = saves.pick(rng).or_else(|| fights.pick(rng)) {
        return Some(p);
    }
    if rng.f32() < NAKADE_RATE {
        if let Some(v) = tactics::nakade_vital_point(board, last) {
            if board.is_legal(v, c) {
                return Some(v);
            }
        }
    }
    let mut shapes = Candidates::default();
    let around_before = match before {
        Move::Play(b) if board.color(b) == Some(c) => Some(b),
        _ => None,
    };
    for centre in std::iter::once(last).chain(around_before) {
        for q in board.neighbourhood(centre) {
            if board.is_empty(q)
                && matches_pattern(board, q)
                && board.is_legal(q, c)
                && !tactics::is_bad_self_atari(board, q, c)
                && !board.is_eye(q, c)
                && !tactics::breaks_false_eye_seki(board, q, c)
            {
                shapes.push(q);
            }
        }
    }
    shapes.pick(rng)
}

/// A uniformly random legal move for `c` that fills no own eye and that `acceptable` allows,
/// or `None`: the scan starts at a random empty point and takes the first that fits.
#[inline]
pub fn random_move(
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
    acceptable: impl Fn(Point) -> bool,
) -> Option<Point> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.usize(..n);
    empties[start..]
        .iter()
        .chain(empties[..start].iter())
        .copied()
        .find(|&p| !board.is_eye(p, c) && board.is_legal(p, c) && acceptable(p))
}

/// The heavy policy's move for `c`, or `None` (pass).
#[inline]
pub fn playout_move(board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    reply_to_last(board, c, rng).or_else(|| {
        random_move(board, c, rng, |p| {
            !tactics::is_bad_self_atari(board, p, c) && !tactics::breaks_false_eye_seki(board, p, c)
        })
    })
}

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
                let mut around = vec![last];
                around.extend(board.neighbours(last));
                for q in around {
                    if board.color(q).is_some() && board.liberties(q) == 2 {
                        tactics::two_liberty_moves(board, q, color, &mut fights);
                    }
                }
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
    fn patterns_match_in_every_orientation_and_colour() {
        // A hane that encloses: Black X on both sides of White O, centre below O.
        let mut b = Board::new(9).unwrap();
        b.play(b.point(3, 3), Color::Black);
        b.play(b.point(4, 3), Color::White);
        b.play(b.point(5, 3), Color::Black);
        assert!(matches_pattern(&b, b.point(4, 4)));
        // The same shape rotated and with colours swapped.
        let mut r = Board::new(9).unwrap();
        r.play(r.point(3, 3), Color::White);
        r.play(r.point(3, 4), Color::Black);
        r.play(r.point(3, 5), Color::White);
        assert!(matches_pattern(&r, r.point(4, 4)));
        // An empty neighbourhood is no pattern.
        let e = Board::new(9).unwrap();
        assert!(!matches_pattern(&e, e.point(4, 4)));
    }

    #[test]
    fn reply_captures_a_stone_in_atari() {
        let mut b = Board::new(9).unwrap();
        b.play(b.point(4, 3), Color::Black);
        b.play(b.point(3, 4), Color::Black);
        b.play(b.point(5, 4), Color::Black);
        b.play(b.point(4, 4), Color::White);
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(
            reply_to_last(&b, Color::Black, &mut rng),
            Some(b.point(4, 5))
        );
    }

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
