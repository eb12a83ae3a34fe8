//! The heavy playout policy: the move a playout plays, fast and a little random.
//!
//! Playout moves, in the MoGo tradition: capture the group the last move left in atari; save an
//! own group the last move put in atari (when the escape gains liberties); win the capture race
//! of an own group the last move took a liberty from, by taking the liberty of the opponent's
//! group that captures it ([`tactics::race_moves`]; never left to chance when a group of
//! [`BIG_GROUP`] stones is in it); attack or defend two liberties; take the vital point
//! of an eye space the last move walled in; play a good-shape 3×3 pattern reply next to the
//! last move; otherwise a uniformly random legal move that neither fills an own eye nor puts a
//! group of two or more stones in atari (unless it fills an eye space in a dead shape). The
//! reading is [`crate::tactics`]'s; the hand-made 3×3 shapes are this file's own, shared with
//! the [`prior`](super::prior)s.
//!
//! Invariants: no move allocates (the shape table is built once), the board is only read, and
//! a move returned is legal for the player to move; the shape replies and the random move
//! never fill an own eye.

use crate::board::{Board, Cell, Color, Move, Point};
use crate::tactics::{self, Candidates};
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

/// Groups of at least this many stones are big: their capture races are read in every
/// playout (after the saving moves, never left to [`TWO_LIBERTY_RATE`]'s chance), since a big
/// group lost by chance in a playout misjudges the whole game.
const BIG_GROUP: usize = 5;

/// Own groups with more liberties than this are not looked at for a race: they are not short
/// of liberties.
const RACE_LIBERTIES: usize = 4;

/// How often a playout takes the vital point of an eye space the last move walled in (see
/// [`tactics::nakade_vital_point`]).
const NAKADE_RATE: f32 = 0.9;

/// The tactical reply to the last move, if any: capture it, save what it put in atari (by
/// capturing an attacker or by running, unless the run ends in a ladder), win the capture
/// race of an own group it took a liberty from (first of all when a big group is in it), the
/// two-liberty fights around it, the vital point of an eye space it walled in, or a pattern reply next to
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
    // A big group left in atari next to the mover's previous move (the atari of a race it
    // won) is taken now, whatever the last move did elsewhere.
    if let Move::Play(b) = before {
        if board.color(b) == Some(c) {
            for n in board.neighbours(b) {
                if board.color(n) == Some(c.opponent()) && board.group_size(n) >= BIG_GROUP {
                    if let Some(l) = board.atari_liberty(n) {
                        if board.is_legal(l, c) {
                            return Some(l);
                        }
                    }
                }
            }
        }
    }
    let mut saves = Candidates::default();
    let mut fights = Candidates::default();
    let mut races = Candidates::default();
    let mut big_race = false;
    let fight = rng.f32() < TWO_LIBERTY_RATE;
    if fight && board.liberties(last) == 2 {
        tactics::two_liberty_moves(board, last, c, &mut fights);
    }
    for n in board.neighbours(last) {
        if board.color(n) != Some(c) {
            continue;
        }
        let libs = board.liberties(n);
        if libs == 1 {
            tactics::saving_moves(board, n, &mut saves);
            continue;
        }
        if libs == 2 && fight {
            tactics::two_liberty_moves(board, n, c, &mut fights);
        }
        // The race of a group the last move took a liberty from, read whenever a big group
        // may be in it (the group itself, or an opponent group next to one with two
        // liberties); played always then, and like the other two-liberty fights otherwise.
        if libs == 2 || (libs <= RACE_LIBERTIES && board.group_size(n) >= BIG_GROUP) {
            big_race |= tactics::race_moves(board, n, &mut races) >= BIG_GROUP;
        }
    }
    let race = if big_race || fight {
        races.pick(rng)
    } else {
        None
    };
    if let Some(p) = saves.pick(rng).or(race).or_else(|| fights.pick(rng)) {
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
            !tactics::is_bad_self_atari(board, p, c)
                && !tactics::breaks_false_eye_seki(board, p, c)
                && !tactics::fills_race_liberty(board, p, c)
        })
    })
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

    /// A race that decides a 9×9 game: White's top-left group of seven stones (A8 … D9) has
    /// one eye, A9, and one outside liberty, E9, where a Black stone is safe; Black's four
    /// stones A7 … D7 below it have three liberties, A6 B6 C6, which White can fill from its
    /// wall. Black wins the race whoever moves first: White's group is dead.
    pub(crate) const BIG_RACE: [&str; 9] = [
        ".OOO.X...",
        "OOOOXX...",
        "XXXXOX...",
        "...OOX...",
        "OOOOOX...",
        "....OX...",
        "....OX...",
        "....OX...",
        "....OX...",
    ];

    #[test]
    fn playouts_win_the_race_of_a_big_group_with_one_eye() {
        let rows: Vec<String> = BIG_RACE.iter().map(|r| r.to_string()).collect();
        let start = crate::game::Game::from_diagram(&rows, crate::rules::Rules::chinese())
            .unwrap()
            .board()
            .clone();
        let mut rng = fastrand::Rng::with_seed(5);
        let b8 = start.point(1, 1);
        let runs = 400;
        let mut captured = 0;
        for _ in 0..runs {
            let mut b = start.clone();
            crate::search::playout::heavy_playout(&mut b, Color::White, &mut rng);
            if b.color(b8) != Some(Color::White) {
                captured += 1;
            }
        }
        // Left to chance, White's group lived in about two playouts of three.
        assert!(
            captured * 100 >= 90 * runs,
            "captured in {captured} of {runs}"
        );
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
}
