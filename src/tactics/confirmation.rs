//! Japanese rules' confirmation of life and death (1989 rules, 第7条): once the game has
//! stopped, a group is dead if the opponent, playing first, can capture it — in a play where a
//! ko lost may be retaken only after its loser has passed once (第7条-2). That ko rule is where
//! the status differs from what further play on the board would give: a bent four in the corner
//! is dead without being played out, since the attacker takes its ko first and the defender may
//! not take back before the attacker has passed — which the attacker never needs to do.
//!
//! This reads that play for a group shut in a small region in a corner: the points next to it
//! that are empty or the attacker's, walled by the group alone, at most [`MAX_REGION`] of them.
//! Both sides play only in the region, or pass; two passes in a row end the play with the group
//! alive. Like the other readers it is a proof: a line that runs past the depth or node budget
//! counts as a defence, so a group the reader cannot settle is never called dead.

use crate::board::{Board, Color, Point, CELLS};
use std::collections::HashMap;

/// Points a region may have to be read: the corner shapes (a bent four with the attacker's
/// stones inside it, and one point more).
pub const MAX_REGION: usize = 6;

/// Plies read at most in one line: enough for a region's fills, the capture, the throw-in and
/// the ko with its passes.
const MAX_DEPTH: u32 = 30;

/// Positions read at most for one group.
const NODE_BUDGET: u32 = 50_000;

/// An attacker's group next to the defender outside the region with fewer liberties than this
/// is a short wall: the defender may play on its liberties too (an eye of the wall's is
/// suicide, so such a wall holds), and a line where it is captured ends as a defence.
const WALL_LIBERTIES: usize = 3;

/// Whether the group on `target`, shut in a corner region of at most [`MAX_REGION`] points,
/// is captured by the opponent moving first in confirmation play. `false` for an empty point,
/// a group with a liberty outside such a region, and a region walled by more than this group.
pub fn captured_in_confirmation(board: &Board, target: Point) -> bool {
    let Some(owner) = board.color(target) else {
        return false;
    };
    let Some((region, walls)) = corner_region(board, target, owner) else {
        return false;
    };
    let mut search = Search {
        target,
        owner,
        region,
        walls,
        nodes: 0,
        table: HashMap::new(),
    };
    let start = Play {
        board: board.clone(),
        to_move: owner.opponent(),
        banned: None,
        passed: false,
    };
    search.captured(&start, 0)
}

/// The region of `owner`'s group on `target`: the points reachable from its liberties through
/// empty points and the opponent's stones. `None` unless the region holds every liberty of the
/// group, is walled by the group's stones alone (and the edge), touches a corner and has at most
/// [`MAX_REGION`] points. With it, a stone of each short wall: the attacker's groups next to the
/// group outside the region with fewer than [`WALL_LIBERTIES`] liberties.
fn corner_region(board: &Board, target: Point, owner: Color) -> Option<(Vec<Point>, Vec<Point>)> {
    let liberties = board.liberty_points(target);
    let first = *liberties.first()?;
    let mut in_group = [false; CELLS];
    for s in board.group_stones(target) {
        in_group[s.idx()] = true;
    }
    let mut seen = [false; CELLS];
    seen[first.idx()] = true;
    let mut region = vec![first];
    let mut i = 0;
    while i < region.len() {
        let p = region[i];
        i += 1;
        for n in board.neighbours(p) {
            if !board.on_board(n) || seen[n.idx()] {
                continue;
            }
            match board.color(n) {
                Some(c) if c == owner => {
                    if !in_group[n.idx()] {
                        return None;
                    }
                }
                _ => {
                    seen[n.idx()] = true;
                    region.push(n);
                    if region.len() > MAX_REGION {
                        return None;
                    }
                }
            }
        }
    }
    if liberties.iter().any(|l| !seen[l.idx()]) {
        return None;
    }
    let last = board.size() - 1;
    let corner = region.iter().any(|&p| {
        let (col, row) = board.coords(p);
        (col == 0 || col == last) && (row == 0 || row == last)
    });
    if !corner {
        return None;
    }
    let attacker = owner.opponent();
    let mut walls: Vec<Point> = Vec::new();
    for s in board.group_stones(target) {
        for n in board.neighbours(s) {
            if board.color(n) == Some(attacker)
                && !seen[n.idx()]
                && board.liberties(n) < WALL_LIBERTIES
                && !walls
                    .iter()
                    .any(|&w| board.group_of(w) == board.group_of(n))
            {
                walls.push(n);
            }
        }
    }
    Some((region, walls))
}

/// A position of the confirmation play: the board, who moves, the ko retake forbidden until
/// its loser passes (the point, and the side that may not take there), and whether the last
/// move was a pass.
#[derive(Clone)]
struct Play {
    board: Board,
    to_move: Color,
    banned: Option<(Point, Color)>,
    passed: bool,
}

impl Play {
    fn key(&self) -> u64 {
        let mut key = self.board.hash();
        if self.to_move == Color::White {
            key ^= 0x9E37_79B9_7F4A_7C15;
        }
        if self.passed {
            key ^= 0xD1B5_4A32_D192_ED03;
        }
        if let Some((p, c)) = self.banned {
            let side = if c == Color::White { 1 } else { 2 };
            key ^= (u64::from(p.0) * 4 + side).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        }
        key
    }

    /// The position after `mv` (a point of the region, or a pass), if it is legal.
    fn after(&self, mv: Option<Point>) -> Option<Play> {
        let c = self.to_move;
        let mut next = self.clone();
        next.to_move = c.opponent();
        match mv {
            None => {
                next.board.pass();
                next.passed = true;
                // Passing is what lifts a side's own ban on retaking the ko.
                if matches!(self.banned, Some((_, b)) if b == c) {
                    next.banned = None;
                }
            }
            Some(p) => {
                if !self.board.is_legal(p, c) || self.banned == Some((p, c)) {
                    return None;
                }
                next.board.play(p, c);
                next.passed = false;
                // A ko taken: its loser may not take back until it has passed. A ban on the
                // other point lapses once the point is filled.
                next.banned = next.board.ko().or(match self.banned {
                    Some((q, b)) if next.board.is_empty(q) => Some((q, b)),
                    _ => None,
                });
            }
        }
        Some(next)
    }
}

/// One group's reading: the positions read (captured or not, with the plies that were left to
/// read them) and the budget spent.
struct Search {
    target: Point,
    owner: Color,
    region: Vec<Point>,
    walls: Vec<Point>,
    nodes: u32,
    table: HashMap<u64, (bool, u32)>,
}

impl Search {
    /// Whether the target is captured by force from `play`, `depth` plies in.
    fn captured(&mut self, play: &Play, depth: u32) -> bool {
        if play.board.color(self.target) != Some(self.owner) {
            return true;
        }
        let attacker = self.owner.opponent();
        if depth >= MAX_DEPTH
            || self.nodes >= NODE_BUDGET
            || self
                .walls
                .iter()
                .any(|&w| play.board.color(w) != Some(attacker))
        {
            return false;
        }
        let key = play.key();
        // A capture proved is proved with any plies left; a defence found with fewer plies left
        // than now may have been a cut-off, so it is read again.
        let left = MAX_DEPTH - depth;
        if let Some(&(known, known_left)) = self.table.get(&key) {
            if known || known_left >= left {
                return known;
            }
        }
        self.nodes += 1;
        let mut moves: Vec<Option<Point>> = self.region.iter().map(|&p| Some(p)).collect();
        for &w in &self.walls {
            play.board.for_each_liberty(w, |l| {
                if !moves.contains(&Some(l)) {
                    moves.push(Some(l));
                }
            });
        }
        // A pass after a pass ends the play: the group stands.
        if !play.passed {
            moves.push(None);
        }
        let attacking = play.to_move != self.owner;
        let mut result = !attacking;
        for mv in moves {
            let Some(next) = play.after(mv) else {
                continue;
            };
            let captured = self.captured(&next, depth + 1);
            if attacking && captured {
                result = true;
                break;
            }
            if !attacking && !captured {
                result = false;
                break;
            }
        }
        // After a pass the defender may always end the play by passing a second time; the
        // attacker's second pass would end it too, so it needs a move that captures.
        if play.passed && !attacking {
            result = false;
        }
        self.table.insert(key, (result, left));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::*;

    /// The top-left corner of a finished 19×19 game under Japanese rules, which GNU Go and
    /// KataGo both count with White dead: White's wall holds Black's B7 and A6, and its only
    /// liberties are A7, C7 and A5, each shared with them. Black connects at A7 and fills a
    /// shared liberty; White's capture leaves a bent four in the corner, whose ko Black takes
    /// first.
    const BENT_FOUR: [&str; 7] = [
        ".X.OXX.", //
        "XOOOOX.", //
        ".OOOXX.", //
        "OOXXX..", //
        "XXX....", //
        ".......", //
        ".......",
    ];

    #[test]
    fn bent_four_in_the_corner_is_dead() {
        let b = board(&BENT_FOUR);
        let white = b.point(1, 1);
        assert_eq!(b.liberties(white), 2);
        assert!(captured_in_confirmation(&b, white));
        // Black's stones inside are not read: their region runs through White's wall.
        assert!(!captured_in_confirmation(&b, b.point(1, 0)));
    }

    #[test]
    fn a_wall_short_of_liberties_holds_with_eyes() {
        // Black's wall has two liberties left, G7 and D1, both its eyes: White cannot take them.
        let rows = [
            ".X.OXX.", //
            "XOOOOXX", //
            ".OOOXXX", //
            "OOXXXXX", //
            "XXXXXXX", //
            "XXXXXXX", //
            "XXX.XXX",
        ];
        let b = board(&rows);
        assert_eq!(b.liberties(b.point(4, 0)), 2);
        assert!(captured_in_confirmation(&b, b.point(1, 1)));
    }

    #[test]
    fn straight_four_in_the_corner_lives_and_straight_three_dies() {
        let four = [
            "....OX.", //
            "OOOOOX.", //
            "XXXXXX.", //
            ".......", //
            ".......", //
            ".......", //
            ".......",
        ];
        let b = board(&four);
        assert!(!captured_in_confirmation(&b, b.point(0, 1)));
        let three = [
            "...OX..", //
            "OOOOX..", //
            "XXXXX..", //
            ".......", //
            ".......", //
            ".......", //
            ".......",
        ];
        let b = board(&three);
        assert!(captured_in_confirmation(&b, b.point(0, 1)));
    }

    #[test]
    fn a_group_with_a_liberty_outside_the_corner_is_not_read() {
        let mut rows = BENT_FOUR;
        rows[4] = ".XX...."; // White's A4 gets the liberty A3
        let b = board(&rows);
        assert!(!captured_in_confirmation(&b, b.point(1, 1)));
    }
}
