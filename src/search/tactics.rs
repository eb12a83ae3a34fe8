//! Tactical reading for the playouts and the priors: ladders, saving a group in atari,
//! two-liberty attack and defence, and which self-ataris are worth playing.
//!
//! Every function reads the board as it stands and changes nothing; reading ahead (ladders)
//! works on copies. A ladder is read only where a group would be left with exactly two
//! liberties, and never deeper than the board is wide twice, so the cost stays bounded.

use crate::board::{Board, Cell, Color, Point};
use std::cell::RefCell;

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

std::thread_local! {
    /// Boards for reading ahead, one per ply of a ladder, kept per thread so that reading
    /// copies only the used part of a board ([`Board::copy_from`]) and never allocates after
    /// the first read.
    static READING: RefCell<Vec<Board>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with at least `2 × size + 2` reading boards, the first a copy of `board`.
fn with_reading_boards<T>(board: &Board, f: impl FnOnce(&mut [Board]) -> T) -> T {
    READING.with(|cell| {
        let mut boards = cell.borrow_mut();
        let needed = 2 * board.size() + 2;
        while boards.len() < needed {
            boards.push(board.clone());
        }
        boards[0].copy_from(board);
        f(&mut boards[..])
    })
}

/// Whether the group at `stone` (in atari, its owner to move) dies in a ladder: its owner
/// extends at the liberty, and the opponent keeps putting it back in atari until it is
/// captured. A capture of an adjacent attacking group in atari counts as an escape.
pub fn ladder_captured(board: &Board, stone: Point) -> bool {
    with_reading_boards(board, |boards| {
        let depth = boards.len() - 1;
        captured_when_running(boards, stone, depth)
    })
}

/// The ladder read on `boards[0]` (which it changes; the rest are scratch for deeper plies):
/// `stone`'s group is in atari and its owner to move. `depth` is less than `boards.len()`.
fn captured_when_running(boards: &mut [Board], stone: Point, depth: usize) -> bool {
    let (b, deeper) = boards.split_first_mut().expect("a board to read on");
    let Some(defender) = b.color(stone) else {
        return true;
    };
    let attacker = defender.opponent();
    if depth == 0 || can_capture_neighbour(b, stone) {
        return false;
    }
    let Some(lib) = b.atari_liberty(stone) else {
        return false;
    };
    if !b.is_legal(lib, defender) {
        return true;
    }
    b.play(lib, defender);
    match b.liberties(stone) {
        0 | 1 => return true,
        2 => {}
        _ => return false,
    }
    let (l1, l2) = b.two_liberties(stone).expect("two liberties");
    for (atari, other) in [(l1, l2), (l2, l1)] {
        if !b.is_legal(atari, attacker) {
            continue;
        }
        // An atari whose stone the defender could capture at once, or that leaves the
        // defender three liberties by extending, does not hold the ladder.
        if b.liberties_after(atari, attacker) < 2 {
            continue;
        }
        let next = &mut deeper[0];
        next.copy_from(b);
        next.play(atari, attacker);
        if next.liberties(stone) != 1 || next.liberties_after(other, defender) >= 3 {
            continue;
        }
        if captured_when_running(deeper, stone, depth - 1) {
            return true;
        }
    }
    false
}

/// Whether some opponent group next to `stone`'s group is in atari: its owner can capture it
/// and gain liberties.
fn can_capture_neighbour(board: &Board, stone: Point) -> bool {
    let mut found = false;
    for_each_adjacent_enemy(board, stone, |e| {
        if board.liberties(e) == 1 {
            found = true;
        }
    });
    found
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

/// The moves that save `stone`'s group, in atari, for its owner: capturing an adjacent
/// attacker in atari, or extending at the liberty when that gains liberties without running
/// into a ladder. Adds them to `out`.
pub fn saving_moves(board: &Board, stone: Point, out: &mut Candidates) {
    let Some(c) = board.color(stone) else { return };
    for_each_adjacent_enemy(board, stone, |e| {
        if let Some(l) = board.atari_liberty(e) {
            if board.is_legal(l, c) {
                out.push(l);
            }
        }
    });
    if let Some(l) = board.atari_liberty(stone) {
        if board.is_legal(l, c) {
            match board.liberties_after(l, c) {
                0 | 1 => {}
                2 => {
                    if !ladder_captured(board, stone) {
                        out.push(l);
                    }
                }
                _ => out.push(l),
            }
        }
    }
}

/// Two-liberty tactics around `stone`'s group (exactly two liberties), for `c` to move: if the
/// group is `c`'s, the liberties that take it to three or more; if it is the opponent's, the
/// ataris that capture it (the escape runs into a ladder or gains nothing), without playing a
/// stone the opponent could take at once.
pub fn two_liberty_moves(board: &Board, stone: Point, c: Color, out: &mut Candidates) {
    let Some((l1, l2)) = board.two_liberties(stone) else {
        return;
    };
    let own = board.color(stone) == Some(c);
    for (l, other) in [(l1, l2), (l2, l1)] {
        if !board.is_legal(l, c) {
            continue;
        }
        if own {
            if board.liberties_after(l, c) >= 3 {
                out.push(l);
            }
        } else if board.liberties_after(l, c) >= 2 {
            // The defender's run at `other` counts `l` among its liberties now; after the atari
            // at `l` it has one fewer. Two or fewer now: the run gains nothing, no reading needed.
            let defender = c.opponent();
            if !board.is_legal(other, defender) || board.liberties_after(other, defender) <= 2 {
                out.push(l);
                continue;
            }
            let captures = with_reading_boards(board, |boards| {
                let after = &mut boards[0];
                after.play(l, c);
                if after.color(stone).is_none() {
                    return false;
                }
                if !after.is_legal(other, defender) || after.liberties_after(other, defender) < 2 {
                    return true;
                }
                let depth = boards.len() - 1;
                captured_when_running(boards, stone, depth)
            });
            if captures {
                out.push(l);
            }
        }
    }
}

/// Whether playing `p` for `c` is a self-atari not worth playing: the new stone joins own
/// stones into a group left with one liberty (captures counted), which the opponent takes at
/// once. A lone stone in atari stays allowed: a throw-in, a nakade placement or a ko capture
/// is often the point of the move. So is a group that fills the opponent's eye space in a
/// dead shape ([`is_nakade_fill`]): once taken, it leaves an eye space with one eye.
#[inline]
pub fn is_bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    board.liberties_after(p, c) <= 1
        && board
            .neighbours(p)
            .iter()
            .any(|&n| board.color(n) == Some(c))
        && !is_nakade_fill(board, p, c)
}

/// Whether a stone of `c` on `p` fills its own false eye in a seki: `p` is walled in by two of
/// `c`'s groups with two liberties each, and their other liberties are the two liberties of one
/// opponent group between them. As things stand nobody can approach (whoever fills a shared
/// liberty is captured); once `p` is filled the two groups are one with only the shared
/// liberties left, and the opponent's filling of one of them becomes a nakade: the seki is
/// broken to the filler's cost. (`p` is no eye to [`Board::is_eye`]: an opponent stone falsifies
/// it, but the capture that false eye waits for never comes.)
pub fn breaks_false_eye_seki(board: &Board, p: Point, c: Color) -> bool {
    if !board.is_eyeish(p, c) {
        return false;
    }
    // Exactly two own groups around `p`, each with two liberties; their others than `p`.
    let mut groups = [Point::NONE; 4];
    if groups_next_to(board, &[p], c, &mut groups) != 2 {
        return false;
    }
    let mut others = [Point::NONE; 2];
    for (other, &g) in others.iter_mut().zip(&groups) {
        let Some((a, b)) = board.two_liberties(g) else {
            return false;
        };
        *other = if a == p { b } else { a };
    }
    // One opponent group with exactly those two liberties.
    let [l1, l2] = others;
    board.neighbours(l1).iter().any(|&q| {
        board.color(q) == Some(c.opponent())
            && board
                .two_liberties(q)
                .is_some_and(|(a, b)| (a, b) == (l1, l2) || (a, b) == (l2, l1))
    })
}

/// Whether `p` is an eye of `owner` now, or becomes one when the opponent's `stones` are
/// captured: a point that only those stones falsify (a false eye waiting for that capture).
fn is_eye_once_captured(board: &Board, p: Point, owner: Color, stones: &[Point]) -> bool {
    board.is_eye(p, owner)
        || (board.is_eyeish(p, owner)
            && board
                .diagonals(p)
                .iter()
                .all(|d| board.color(*d) != Some(owner.opponent()) || stones.contains(d)))
}

/// The most points a nakade shape has (the rabbity six).
const NAKADE_MAX: usize = 6;

/// Whether `points` (connected, distinct) form an eye space that one eye is all it makes when
/// the opponent holds its vital point: any three points, the square and the T of four, the
/// bulky and the crossed five, the rabbity six. Read from the shape's adjacencies: `edges`
/// pairs of neighbours and the highest number of neighbours one point has in the shape.
fn is_nakade_shape(board: &Board, points: &[Point]) -> bool {
    let (edges, top) = adjacencies(board, points);
    match points.len() {
        1..=3 => true,
        4 => top == 3 || edges == 4,
        5 => top == 4 || edges == 5,
        6 => top == 4 && edges == 6,
        _ => false,
    }
}

/// How many of `p`'s neighbours are among `points`.
fn degree(board: &Board, points: &[Point], p: Point) -> usize {
    board
        .neighbours(p)
        .iter()
        .filter(|n| points.contains(n))
        .count()
}

/// The number of neighbouring pairs among `points`, and the most neighbours in `points` that
/// one of them has.
fn adjacencies(board: &Board, points: &[Point]) -> (usize, usize) {
    let degrees = points.iter().map(|&p| degree(board, points, p));
    (
        degrees.clone().sum::<usize>() / 2,
        degrees.max().unwrap_or(0),
    )
}

/// The vital point of a nakade shape: the one point with the most neighbours inside it (the
/// square four has none and needs none).
fn vital_point(board: &Board, points: &[Point]) -> Option<Point> {
    let (_, top) = adjacencies(board, points);
    let mut at_top = points
        .iter()
        .copied()
        .filter(|&p| degree(board, points, p) == top);
    let v = at_top.next()?;
    at_top.next().is_none().then_some(v)
}

/// Whether a stone of `c` on `p` makes a group of two to six stones in atari that fills the
/// opponent's eye space (the group and its last liberty walled in by opponent stones and the
/// edge) in a nakade shape: the opponent's capture leaves an eye space that the vital point
/// kills. Such self-ataris are how eye spaces are destroyed.
pub fn is_nakade_fill(board: &Board, p: Point, c: Color) -> bool {
    let mut stones = [Point::NONE; NAKADE_MAX];
    stones[0] = p;
    let mut len = 1;
    let mut liberty = None;
    let mut i = 0;
    while i < len {
        for n in board.neighbours(stones[i]) {
            if n == p || stones[..len].contains(&n) {
                continue;
            }
            match board.cell(n) {
                Cell::Wall => {}
                Cell::Empty => match liberty {
                    None => liberty = Some(n),
                    Some(l) if l == n => {}
                    Some(_) => return false,
                },
                cell if cell == c.cell() => {
                    if len == NAKADE_MAX {
                        return false;
                    }
                    stones[len] = n;
                    len += 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    // The eye space is the group and its liberty: walled in by the opponent alone.
    let Some(liberty) = liberty else {
        return false;
    };
    let enclosed = board.neighbours(liberty).iter().all(|&n| {
        stones[..len].contains(&n)
            || matches!(board.cell(n), Cell::Wall)
            || board.color(n) == Some(c.opponent())
    });
    len >= 2
        && enclosed
        && is_nakade_shape(board, &stones[..len])
        && !wall_has_another_eye(board, &stones[..len], liberty, c.opponent())
}

/// Whether a group of `owner`'s walling in the eye space `stones` + `liberty` has an eye
/// outside it, or a false eye that capturing `stones` makes real: one eye elsewhere and the one
/// the space leaves make two, so filling the space kills nothing (in a seki, where both sides'
/// stones share the space's liberty, it would throw the filler's stones away).
fn wall_has_another_eye(board: &Board, stones: &[Point], liberty: Point, owner: Color) -> bool {
    let mut space = [Point::NONE; NAKADE_MAX + 1];
    space[..stones.len()].copy_from_slice(stones);
    space[stones.len()] = liberty;
    let mut wall = [Point::NONE; 4 * (NAKADE_MAX + 1)];
    let n = groups_next_to(board, &space[..=stones.len()], owner, &mut wall);
    wall[..n].iter().any(|&g| {
        let mut eye = false;
        board.for_each_liberty(g, |l| {
            eye |= l != liberty && is_eye_once_captured(board, l, owner, stones)
        });
        eye
    })
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

/// The vital point of an eye space next to `last` (the last move played): a region of three
/// to six empty points, walled in by `last`'s colour alone, in a nakade shape. Whoever moves
/// there first decides whether the space holds two eyes, so it is the move to play: the
/// owner makes life with it, the opponent kills. Typically found right after a capture.
pub fn nakade_vital_point(board: &Board, last: Point) -> Option<Point> {
    let owner = board.color(last)?.cell();
    let mut region = [Point::NONE; NAKADE_MAX];
    'next: for start in board.neighbours(last) {
        if !board.is_empty(start) || region.contains(&start) {
            continue;
        }
        // A point of a small walled-in space next to the last stone touches the wall twice
        // (only a vital point touched by the last stone alone is missed); in open areas it
        // touches it once, and this spares the fill there.
        let walls = board
            .neighbours(start)
            .iter()
            .filter(|&&n| matches!(board.cell(n), Cell::Wall) || board.cell(n) == owner)
            .count();
        if walls < 2 {
            continue;
        }
        region[0] = start;
        let mut len = 1;
        let mut i = 0;
        while i < len {
            for n in board.neighbours(region[i]) {
                match board.cell(n) {
                    Cell::Wall => {}
                    Cell::Empty => {
                        if !region[..len].contains(&n) {
                            if len == NAKADE_MAX {
                                continue 'next;
                            }
                            region[len] = n;
                            len += 1;
                        }
                    }
                    cell if cell == owner => {}
                    _ => continue 'next,
                }
            }
            i += 1;
        }
        if len >= 3 && is_nakade_shape(board, &region[..len]) {
            if let Some(v) = vital_point(board, &region[..len]) {
                return Some(v);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from rows (`X` Black, `O` White), top row first.
    fn board(rows: &[&str]) -> Board {
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
    const LADDER: [&str; 7] = [
        ".......", //
        ".......", //
        "...X...", //
        "..XO...", //
        "...XX..", //
        ".......", //
        ".......",
    ];

    #[test]
    fn a_ladder_without_breaker_captures() {
        let b = board(&LADDER);
        let w = b.point(3, 3);
        assert_eq!(b.atari_liberty(w), Some(b.point(4, 3)));
        assert!(ladder_captured(&b, w));
        // Running is no way to save it.
        let mut out = Candidates::default();
        saving_moves(&b, w, &mut out);
        assert!(out.as_slice().is_empty());
    }

    #[test]
    fn a_ladder_breaker_saves_the_stone() {
        let mut rows = LADDER;
        rows[1] = ".....O.";
        let b = board(&rows);
        let w = b.point(3, 3);
        assert!(!ladder_captured(&b, w));
        let mut out = Candidates::default();
        saving_moves(&b, w, &mut out);
        assert_eq!(out.as_slice(), &[b.point(4, 3)]);
    }

    #[test]
    fn counter_capture_saves_a_group() {
        // White C3 and Black D3 are both in atari; White saves C3 by taking D3 at D2.
        let b = board(&[
            ".....", //
            "..XO.", //
            ".XOXO", //
            ".....", //
            ".....",
        ]);
        let w = b.point(2, 2);
        assert_eq!(b.liberties(w), 1);
        let mut out = Candidates::default();
        saving_moves(&b, w, &mut out);
        assert!(out.as_slice().contains(&b.point(3, 3)));
    }

    #[test]
    fn two_liberties_are_attacked_and_defended() {
        // A lone Black stone in the corner of an empty board: White's atari on either side
        // drives it along a ladder to its death; Black extends to three liberties.
        let mut b = Board::new(5).unwrap();
        let a5 = b.point(0, 0);
        b.set_stone(a5, Color::Black);
        let mut attack = Candidates::default();
        two_liberty_moves(&b, a5, Color::White, &mut attack);
        assert_eq!(attack.as_slice().len(), 2);
        let mut defence = Candidates::default();
        two_liberty_moves(&b, a5, Color::Black, &mut defence);
        assert_eq!(defence.as_slice().len(), 2);
        // A stone with a friend nearby is no ladder: White's atari at B5 lets Black run to A4
        // and connect out to B3's stone, so only ataris that still work are offered.
        b.set_stone(b.point(1, 2), Color::Black);
        let mut attack = Candidates::default();
        two_liberty_moves(&b, a5, Color::White, &mut attack);
        assert!(attack.as_slice().len() < 2);
    }

    #[test]
    fn self_atari_of_a_lone_throw_in_is_allowed_but_not_of_a_group() {
        let b = board(&[
            "O..X.", //
            "XXXX.", //
            ".....", //
            ".....", //
            ".....",
        ]);
        // White C5 alone, one liberty, beside Black's stones: a throw-in, allowed.
        assert!(!is_bad_self_atari(&b, b.point(2, 0), Color::White));
        // White B5 joins A5 into a two-stone group in atari inside Black's eye space A5-C5:
        // once taken, it leaves Black one eye there. Allowed.
        assert!(!is_bad_self_atari(&b, b.point(1, 0), Color::White));
        // Without Black D5 the last liberty C5 opens to the side: a wasted group, not allowed.
        let mut open = b.clone();
        open.clear_stone(open.point(3, 0));
        assert!(is_bad_self_atari(&open, open.point(1, 0), Color::White));
        // A move with liberties to spare is no self-atari.
        assert!(!is_bad_self_atari(&b, b.point(2, 3), Color::White));
    }

    #[test]
    fn filling_an_eye_space_in_a_dead_shape_is_no_bad_self_atari() {
        // Black's corner has the squared-four eye space A1 B1 A2 B2 (rows top first). White
        // already stands on A2 and B1; White B2 makes the bent three A2 B2 B1 in atari, which
        // Black takes, leaving an eye space whose vital point White then holds.
        let b = board(&[
            "......", //
            "......", //
            "......", //
            "XXXX..", //
            "O.XX..", //
            ".OXX..",
        ]);
        let b2 = b.point(1, 4);
        assert!(is_nakade_fill(&b, b2, Color::White));
        assert!(!is_bad_self_atari(&b, b2, Color::White));
        // A straight four of stones in atari would leave Black two eyes: still a bad self-atari.
        let s = board(&[
            "......", //
            "XXXXXX", //
            "O.OO.X", //
            "XXXXXX", //
            "......", //
            "......",
        ]);
        assert!(!is_nakade_fill(&s, s.point(1, 2), Color::White));
        assert!(is_bad_self_atari(&s, s.point(1, 2), Color::White));
        // Nor is a self-atari whose last liberty opens outside: no eye space is filled.
        let t = board(&[
            "O.....", //
            "XXXX..", //
            "......", //
            "......", //
            "......", //
            "......",
        ]);
        assert!(!is_nakade_fill(&t, t.point(1, 0), Color::White));
    }

    #[test]
    fn filling_a_false_eye_in_a_seki_is_refused() {
        // The upper left of a finished game against Pachi (game 18 of the 12d346b match): White's
        // wall (C8 D9 ...) has C9 and A6, White B9 has A9 and C9, Black's corner A8 B8 A7 B7 has
        // A9 and A6. White C9 would join B9 to the wall with A9 and A6 left, and Black's A6
        // then kills it as a nakade.
        let seki = [
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
        let b = board(&seki);
        assert!(breaks_false_eye_seki(&b, b.point(2, 0), Color::White));
        // Nor may Black fill A6 or A9: capturing the corner would make C9 White's second eye.
        for p in [b.point(0, 3), b.point(0, 0)] {
            assert!(!is_nakade_fill(&b, p, Color::Black));
            assert!(is_bad_self_atari(&b, p, Color::Black));
        }
        // Nothing to break when Black's corner has a third liberty (B8 empty).
        let mut freed = seki;
        freed[1] = "X.OOOX.X.";
        let open = board(&freed);
        assert!(!breaks_false_eye_seki(
            &open,
            open.point(2, 0),
            Color::White
        ));
        // An ordinary point is no false eye.
        assert!(!breaks_false_eye_seki(&b, b.point(6, 1), Color::Black));
    }

    #[test]
    fn no_eye_space_is_filled_when_the_wall_has_another_eye() {
        // The lower left of a finished game against Pachi (tengen White, game 4 of the 8b20961
        // match): Black A2 and B1 share B2 with White's wall, which has its own eye at D1. A
        // seki: Black A1 or B2 would hand White a capture and a second eye, so neither is a
        // nakade fill. With D1 filled and an outside liberty at F2 instead of the eye, A1 is.
        let seki = [
            "......", //
            "XXXXXX", //
            "XXOXXX", //
            "OOOOXX", //
            "X.OOOX", //
            ".XO.OO",
        ];
        let b = board(&seki);
        for p in [b.point(0, 5), b.point(1, 4)] {
            assert!(!is_nakade_fill(&b, p, Color::Black));
            assert!(is_bad_self_atari(&b, p, Color::Black));
        }
        let mut no_eye = seki;
        no_eye[4] = "X.OOO.";
        no_eye[5] = ".XOOOO";
        let b = board(&no_eye);
        assert!(is_nakade_fill(&b, b.point(0, 5), Color::Black));
    }

    #[test]
    fn the_vital_point_of_a_walled_in_eye_space_is_found() {
        // Black just captured: the bent three A1 A2 B1 in the corner, Black all around it.
        let b = board(&[
            ".....", //
            ".....", //
            "XX...", //
            ".X...", //
            "..X..",
        ]);
        let (a1, a2, b1) = (b.point(0, 4), b.point(0, 3), b.point(1, 4));
        assert!([a1, a2, b1].iter().all(|&p| b.is_empty(p)));
        assert_eq!(nakade_vital_point(&b, b.point(1, 3)), Some(a1));
        // A straight four walled in makes two eyes whoever plays: no vital point.
        let s = board(&[
            "XXXXXX", //
            "X....X", //
            "XXXXXX", //
            "......", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&s, s.point(0, 1)), None);
        // The pyramid four's vital point is its centre; a region open to White is no eye space.
        let t = board(&[
            "XXXXX.", //
            "X...X.", //
            "XX.XX.", //
            ".XXX..", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&t, t.point(0, 1)), Some(t.point(2, 1)));
        let u = board(&[
            "XXXXX.", //
            "X...X.", //
            "XX.XX.", //
            ".XOX..", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&u, u.point(0, 1)), None);
    }
}
