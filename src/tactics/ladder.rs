//! Ladders: whether a group short of liberties is captured by the attacker's ataris one after
//! the other, its owner extending each time.
//!
//! The crate's one ladder reader. It reads on boards kept per thread and reused ply by ply
//! (each copies only the used part of the board, and nothing is allocated after the first
//! read), never deeper than the board is wide twice, and only along the lines a ladder
//! follows: the defender extends at its one liberty, the attacker ataris on one of the two
//! liberties left. A defender next to an attacking group in atari escapes by capturing it, and
//! an atari whose stone the defender can capture at once (a snapback's shape, or a stone in
//! atari beside the group) does not hold the ladder. The board passed in is never changed.
//!
//! Most ataris of the playouts' two-liberty fights fail at once; those whose run is sure to
//! keep three liberties are refused before any board is copied, and each thread keeps its last
//! few answers, keyed by position, since the fights and races around one move ask alike.

use super::for_each_adjacent_enemy;
use crate::board::{Board, Color, Point};
use std::cell::RefCell;

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

/// Whether the opponent, to move against `stone`'s group with exactly two liberties, captures
/// it in a ladder: one of its ataris holds and the run from it fails.
pub fn ladder_attack_works(board: &Board, stone: Point) -> bool {
    with_reading_boards(board, |boards| {
        let depth = boards.len() - 1;
        attack_captures(boards, stone, depth)
    })
}

/// Whether `attacker`'s stone on `p` (legal) puts `stone`'s group in atari in a ladder it
/// cannot run out of: [`ladder_captured`] on the board after the move.
pub fn atari_catches(board: &Board, p: Point, attacker: Color, stone: Point) -> bool {
    with_reading_boards(board, |boards| {
        boards[0].play(p, attacker);
        let depth = boards.len() - 1;
        boards[0].liberties(stone) == 1 && captured_when_running(boards, stone, depth)
    })
}

/// Whether the owner's extension on `p` (legal, leaving its group with two liberties) runs
/// into a ladder: [`ladder_attack_works`] on the board after the move.
pub fn extension_caught(board: &Board, p: Point, owner: Color) -> bool {
    with_reading_boards(board, |boards| {
        boards[0].play(p, owner);
        let depth = boards.len() - 1;
        boards[0].liberties(p) == 2 && attack_captures(boards, p, depth)
    })
}

/// Whether `attacker`'s atari on `l` captures the two-liberty group at `stone`, whose other
/// liberty is `other`, in the two-liberty fights of the playouts: the run at `other` gains
/// nothing (two liberties or fewer after it), or it runs into a ladder. The atari on `l` is
/// legal and leaves its stone at least two liberties.
pub(super) fn atari_captures(
    board: &Board,
    l: Point,
    other: Point,
    attacker: Color,
    stone: Point,
) -> bool {
    let defender = attacker.opponent();
    // The defender's run at `other` counts `l` among its liberties now; after the atari at `l`
    // it has one fewer. Two or fewer now: the run gains nothing, no reading needed.
    if !board.is_legal(other, defender) || board.liberties_after(other, defender) <= 2 {
        return true;
    }
    if run_keeps_three(board, other, defender, l) {
        return false;
    }
    // The playouts' replies ask the same question more than once for one position (the
    // two-liberty fights and the races around the last move meet the same groups).
    let key = RecentKey {
        hash: board.hash(),
        ko: board.ko(),
        l,
        group: board.group_of(stone),
    };
    if let Some(known) = RECENT.with(|r| r.borrow().find(&key)) {
        return known;
    }
    let captured = with_reading_boards(board, |boards| {
        let after = &mut boards[0];
        after.play(l, attacker);
        if after.color(stone).is_none() {
            return false;
        }
        if !after.is_legal(other, defender) || after.liberties_after(other, defender) < 2 {
            return true;
        }
        let depth = boards.len() - 1;
        captured_when_running(boards, stone, depth)
    });
    RECENT.with(|r| r.borrow_mut().insert(key, captured));
    captured
}

/// What identifies one [`atari_captures`] question: the position (stones and ko point), the
/// atari's point and the group it is played against (the other liberty and the colours follow).
#[derive(Copy, Clone, PartialEq, Eq)]
struct RecentKey {
    hash: u64,
    ko: Option<(Point, Color)>,
    l: Point,
    group: Point,
}

/// The last few [`atari_captures`] answers of a thread, replaced in turn.
struct Recent {
    entries: [(RecentKey, bool); 4],
    next: usize,
}

impl Recent {
    fn find(&self, key: &RecentKey) -> Option<bool> {
        self.entries.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }

    fn insert(&mut self, key: RecentKey, value: bool) {
        self.entries[self.next] = (key, value);
        self.next = (self.next + 1) % self.entries.len();
    }
}

std::thread_local! {
    static RECENT: RefCell<Recent> = const {
        RefCell::new(Recent {
            entries: [(
                RecentKey { hash: 0, ko: None, l: Point::NONE, group: Point::NONE },
                false,
            ); 4],
            next: 0,
        })
    };
}

/// The ladder read on `boards[0]` (which it changes; the rest are scratch for deeper plies):
/// `stone`'s group is in atari and its owner to move. `depth` is less than `boards.len()`.
fn captured_when_running(boards: &mut [Board], stone: Point, depth: usize) -> bool {
    let b = &mut boards[0];
    let Some(defender) = b.color(stone) else {
        return true;
    };
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
        0 | 1 => true,
        2 => attack_captures(boards, stone, depth),
        _ => false,
    }
}

/// The attacker's turn of the ladder on `boards[0]` (unchanged; the rest are scratch):
/// `stone`'s group has two liberties. `depth` is less than `boards.len()` and above zero.
fn attack_captures(boards: &mut [Board], stone: Point, depth: usize) -> bool {
    let (b, deeper) = boards.split_first_mut().expect("a board to read on");
    let Some(defender) = b.color(stone) else {
        return true;
    };
    let attacker = defender.opponent();
    let Some((l1, l2)) = b.two_liberties(stone) else {
        return false;
    };
    for (atari, other) in [(l1, l2), (l2, l1)] {
        if !b.is_legal(atari, attacker) {
            continue;
        }
        // An atari whose stone the defender could capture at once, or that leaves the
        // defender three liberties by extending, does not hold the ladder.
        if b.liberties_after(atari, attacker) < 2 || run_keeps_three(b, other, defender, atari) {
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

/// Whether `defender`'s run on `p` is sure to leave its group three liberties or more after
/// the attacker's stone on `l` (another liberty of the group), read on the board before that
/// stone: its empty neighbours and the liberties of the own groups it joins, less `p` and `l`.
/// Captures are left out and a stone on `l` takes no other liberty, so this is a lower bound
/// that spares the copy of a board for most ataris, which fail at once.
fn run_keeps_three(board: &Board, p: Point, defender: Color, l: Point) -> bool {
    let mut libs = [Point::NONE; 3];
    let mut n = 0;
    let mut add = |q: Point| {
        if q != p && q != l && !libs[..n].contains(&q) {
            libs[n] = q;
            n += 1;
        }
        n == 3
    };
    for q in board.neighbours(p) {
        if board.is_empty(q) {
            if add(q) {
                return true;
            }
        } else if board.color(q) == Some(defender) {
            match board.liberties(q) {
                0 | 1 => {}
                2 => {
                    let (a, b) = board.two_liberties(q).expect("two liberties");
                    if add(a) || add(b) {
                        return true;
                    }
                }
                // Its liberties other than `p` and `l` alone make three.
                k if k >= 5 => return true,
                _ => {
                    let mut enough = false;
                    board.for_each_liberty(q, |r| enough = enough || add(r));
                    if enough {
                        return true;
                    }
                }
            }
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

#[cfg(test)]
mod tests {
    use super::super::tests::{board, LADDER};
    use super::*;

    #[test]
    fn a_ladder_without_breaker_captures() {
        let b = board(&LADDER);
        let w = b.point(3, 3);
        assert_eq!(b.atari_liberty(w), Some(b.point(4, 3)));
        assert!(ladder_captured(&b, w));
        // After the extension, the attack on two liberties works as well.
        assert!(extension_caught(&b, b.point(4, 3), Color::White));
    }

    #[test]
    fn a_ladder_breaker_saves_the_stone() {
        let mut rows = LADDER;
        rows[1] = ".....O.";
        let b = board(&rows);
        let w = b.point(3, 3);
        assert!(!ladder_captured(&b, w));
        assert!(!extension_caught(&b, b.point(4, 3), Color::White));
    }

    #[test]
    fn the_atari_that_starts_a_ladder_is_read_on_a_19_board() {
        // White (4,4) with liberties (5,4) and (4,5); Black's atari at (4,5) starts a ladder
        // that runs to the far edge, unless a White stone on its path breaks it.
        let mut b = Board::new(19).unwrap();
        for (x, y) in [(4, 3), (3, 4), (5, 5)] {
            b.set_stone(b.point(x, y), Color::Black);
        }
        let w = b.point(4, 4);
        b.set_stone(w, Color::White);
        assert!(atari_catches(&b, b.point(4, 5), Color::Black, w));
        assert!(ladder_attack_works(&b, w));
        // A breaker on its path saves White from that atari; the other atari, at (5,4),
        // drives White the other way, where nothing breaks the ladder.
        b.set_stone(b.point(7, 1), Color::White);
        assert!(!atari_catches(&b, b.point(4, 5), Color::Black, w));
        assert!(atari_catches(&b, b.point(5, 4), Color::Black, w));
        assert!(ladder_attack_works(&b, w));
        // With a breaker on that path too, no atari works.
        b.set_stone(b.point(1, 7), Color::White);
        assert!(!ladder_attack_works(&b, w));
    }

    #[test]
    fn an_atari_the_defender_takes_at_once_does_not_hold_the_ladder() {
        // White C3 has two liberties, B3 and C4. Black's atari at B3 stands in atari itself
        // between White's A3 and B4: White takes it at B2 and is out.
        let b = board(&[
            ".....", //
            ".O...", //
            "O.OX.", //
            "..X..", //
            ".....",
        ]);
        let w = b.point(2, 2);
        assert_eq!(b.liberties(w), 2);
        assert_eq!(b.liberties_after(b.point(1, 2), Color::Black), 1);
        assert!(!atari_catches(&b, b.point(1, 2), Color::Black, w));
    }
}
