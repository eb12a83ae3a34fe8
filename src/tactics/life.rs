//! Life and death of a group shut in a small space, read out move by move for the judgement
//! of dead stones.
//!
//! The capture-race reader ([`super::semeai`]) tries only the liberties of groups short of
//! them, so a group with room around it — an eye space along the edge, loose stones inside the
//! opponent's area — is never read: its fate rests on the playouts, which keep such groups
//! alive whenever nobody happens to play the vital point. This reader asks instead whether
//! the group is captured by force (the opponent or its owner moving first) when both sides may
//! play anywhere in its space, the defender also on the liberties of the attacker's groups next
//! to it, and the attacker on the walled points next to the space: the empty points reachable from the group through empty points and its
//! owner's stones, not crossing the opponent's stones nor the points the caller walls off
//! (the judgement walls off what its playouts give surely to the opponent).
//!
//! Like the race reader it is a proof: a line that lets the space grow past [`MAX_SPACE`]
//! points, reaches a ko, or runs past the depth or node budget counts as a defence, and a
//! group with two eyes of its own is alive at once. So "dies" is a capture found against
//! every defence, and a group the reader cannot settle is never called dead.

use super::proof;
use crate::board::{Board, Color, Point, CELLS};

/// Empty points a space may have to be read: beyond that the group has room to live or run.
pub const MAX_SPACE: usize = 10;

/// The defender may attack the attacker's groups next to it with at most this many liberties.
const RACE_LIBERTIES: usize = 6;

/// Plies read at most in one line, deepened in steps so that a short proof comes first.
const DEPTHS: [u32; 4] = [8, 14, 20, 28];

/// Positions read at most for one group.
const NODE_BUDGET: u32 = 30_000;

/// Whether the group on `target` is captured by force in its space, `first` to move: with the
/// opponent first, the usual test of life and death (the owner answers every move, or passes);
/// with the owner first, whether it dies even so. `walled[p]` (indexed by `Point::idx`) marks
/// the empty points that do not belong to any space. `false` for an empty point, for a space of
/// more than [`MAX_SPACE`] points and for a group with two eyes.
pub fn dies_in_its_space(board: &Board, target: Point, first: Color, walled: &[bool]) -> bool {
    let Some(owner) = board.color(target) else {
        return false;
    };
    if space(board, target, owner, walled).is_none() {
        return false;
    }
    let fight = Space {
        target,
        owner,
        walled,
    };
    proof::captured_by_force(&fight, board, first, &DEPTHS, NODE_BUDGET)
}

/// The empty points of the space of `owner`'s group on `target`, in the order found, or `None`
/// when there are more than [`MAX_SPACE`].
fn space(board: &Board, target: Point, owner: Color, walled: &[bool]) -> Option<Vec<Point>> {
    let mut seen = [false; CELLS];
    let mut queue = vec![target];
    seen[target.idx()] = true;
    let mut empties = Vec::new();
    let mut i = 0;
    while i < queue.len() {
        let p = queue[i];
        i += 1;
        for n in board.neighbours(p) {
            if !board.on_board(n) || seen[n.idx()] {
                continue;
            }
            match board.color(n) {
                Some(c) if c == owner => {}
                Some(_) => continue,
                None if walled[n.idx()] => continue,
                None => {
                    empties.push(n);
                    if empties.len() > MAX_SPACE {
                        return None;
                    }
                }
            }
            seen[n.idx()] = true;
            queue.push(n);
        }
    }
    Some(empties)
}

/// Whether the group on `target` has two eyes of its own: two empty points whose neighbours
/// are all its stones. Neither can be filled while the other is open, so it lives.
fn has_two_eyes(board: &Board, target: Point) -> bool {
    let head = board.group_of(target);
    let mut eyes = 0;
    board.for_each_liberty(target, |l| {
        let own = board
            .neighbours(l)
            .iter()
            .all(|&n| !board.on_board(n) || (!board.is_empty(n) && board.group_of(n) == head));
        if own {
            eyes += 1;
        }
    });
    eyes >= 2
}

/// A group in its space, read by [`proof::captured_by_force`].
struct Space<'a> {
    target: Point,
    owner: Color,
    walled: &'a [bool],
}

impl proof::Fight for Space<'_> {
    fn target(&self) -> Point {
        self.target
    }

    fn owner(&self) -> Color {
        self.owner
    }

    fn defended(&self, board: &Board) -> bool {
        has_two_eyes(board, self.target)
    }

    /// The legal moves for `c`: the points of the space, the target's liberties (walled ones
    /// too: the attacker must be able to fill them) and the liberties of the attacker's groups
    /// in atari next to the target; for the attacker also the walled points next to the space;
    /// captures first, then the target's liberties, the space, the walled points. The attacker
    /// never fills its own eyes. `None` when the space is too big to read.
    fn moves(&self, board: &Board, c: Color) -> Option<Vec<Point>> {
        let space = space(board, self.target, self.owner, self.walled)?;
        let attacker = c != self.owner;
        let mut scored = proof::Urgencies::default();
        let mut add = |urgency: u32, p: Point| scored.add(urgency, p);
        // The attacker's groups next to the target: a capture first; for the defender every
        // liberty of those short of them, since a fight it can win by taking them is no death.
        for s in board.group_stones(self.target) {
            for n in board.neighbours(s) {
                if board.color(n) != Some(self.owner.opponent()) {
                    continue;
                }
                if let Some(l) = board.atari_liberty(n) {
                    add(30, l);
                } else if !attacker && board.liberties(n) <= RACE_LIBERTIES {
                    board.for_each_liberty(n, |l| add(5, l));
                }
            }
        }
        board.for_each_liberty(self.target, |l| add(10, l));
        for &p in &space {
            add(1, p);
        }
        // The attacker may approach from outside: the walled points next to the space shorten
        // the liberties the group could run to.
        if attacker {
            for &p in &space {
                for n in board.neighbours(p) {
                    if board.on_board(n) && board.is_empty(n) && self.walled[n.idx()] {
                        add(0, n);
                    }
                }
            }
        }
        Some(scored.moves(|urgency, p| {
            (board.is_legal(p, c) && !(attacker && board.is_eye(p, c))).then_some(urgency)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::*;

    fn open() -> Vec<bool> {
        vec![false; CELLS]
    }

    #[test]
    fn a_straight_three_dies_the_opponent_moving_first() {
        // White's eye space is the straight three B2 C2 D2; Black takes the vital point C2 and
        // White cannot make two eyes.
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "XXXXXX...",
            "OOOOOX...",
            "O...OX...",
            "OOOOOX...",
        ]);
        assert!(dies_in_its_space(&b, b.point(0, 6), Color::Black, &open()));
        // White first takes the vital point itself and lives.
        assert!(!dies_in_its_space(&b, b.point(0, 6), Color::White, &open()));
    }

    #[test]
    fn a_straight_four_lives() {
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "XXXXXXX..",
            "OOOOOOX..",
            "O....OX..",
            "OOOOOOX..",
        ]);
        assert!(!dies_in_its_space(&b, b.point(0, 6), Color::Black, &open()));
    }

    #[test]
    fn two_eyes_live_and_a_big_space_is_not_read() {
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "XXXXXX...",
            "OOOOOX...",
            "O.O.OX...",
            "OOOOOX...",
        ]);
        assert!(!dies_in_its_space(&b, b.point(0, 6), Color::Black, &open()));
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".O.......",
            ".........",
        ]);
        assert!(!dies_in_its_space(&b, b.point(1, 7), Color::Black, &open()));
    }

    #[test]
    fn a_lone_stone_walled_in_dies() {
        // White's lone stone on the edge under Black's wall; the edge is open to the right, so
        // the space runs out over the whole board unless the points beyond the wall are walled
        // off, as the judgement does with the points its playouts give surely to Black.
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "XXX......",
            ".O.......",
        ]);
        let mut walled = open();
        for p in b.points() {
            if b.coords(p).0 >= 3 {
                walled[p.idx()] = true;
            }
        }
        let stone = b.point(1, 8);
        assert!(dies_in_its_space(&b, stone, Color::Black, &walled));
        assert!(!dies_in_its_space(&b, stone, Color::Black, &open()));
    }
}
