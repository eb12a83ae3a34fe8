//! Tactical reading for the playouts and the priors: ladders, saving a group in atari,
//! two-liberty attack and defence, and which self-ataris are worth playing.
//!
//! Every function reads the board as it stands and changes nothing; reading ahead (ladders)
//! works on copies. A ladder is read only where a group would be left with exactly two
//! liberties, and never deeper than the board is wide twice, so the cost stays bounded.

use crate::board::{Board, Color, Point};
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
/// is often the point of the move.
#[inline]
pub fn is_bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    board.liberties_after(p, c) <= 1
        && board
            .neighbours(p)
            .iter()
            .any(|&n| board.color(n) == Some(c))
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
        // White B5 joins A5 into a two-stone group with one liberty: not allowed.
        assert!(is_bad_self_atari(&b, b.point(1, 0), Color::White));
        // A move with liberties to spare is no self-atari.
        assert!(!is_bad_self_atari(&b, b.point(2, 3), Color::White));
    }
}
