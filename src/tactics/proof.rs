//! The search both move-by-move readers share: [`super::semeai`]'s capture races and
//! [`super::life`]'s life in a small space. A fight names its target group and the moves worth
//! trying; the search is AND-OR over them (the attacker needs one move after which the target
//! is captured by force; the defender fails only when every move and a pass fail), deepened in
//! steps so that a short proof is found before the budget goes into long lines, with a table of
//! the positions read. A ko, the fight's own defences, the depth and the node budget all end a
//! line as a defence, so that "captured" is a proof; a table entry made under a cut-off may hide
//! a proof found elsewhere, never make one.

use crate::board::{Board, Color, Point};
use std::collections::HashMap;

/// Told apart from the stone arrangement's hash in the table: White to move.
const WHITE_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

/// A local fight around one group.
pub(super) trait Fight {
    /// A stone of the group read.
    fn target(&self) -> Point;
    /// The group's colour: the defender.
    fn owner(&self) -> Color;
    /// Whether the line ends here as a defence, a ko aside (which always does).
    fn defended(&self, board: &Board) -> bool;
    /// The moves for `c`, most promising first, or `None` when the position is past reading
    /// (a defence).
    fn moves(&self, board: &Board, c: Color) -> Option<Vec<Point>>;
}

/// A fight's candidate moves with their urgencies, as a fight's `moves` gathers them: a point
/// added twice keeps its higher urgency.
#[derive(Default)]
pub(super) struct Urgencies(Vec<(u32, Point)>);

impl Urgencies {
    pub(super) fn add(&mut self, urgency: u32, p: Point) {
        match self.0.iter_mut().find(|(_, q)| *q == p) {
            Some(entry) => entry.0 = entry.0.max(urgency),
            None => self.0.push((urgency, p)),
        }
    }

    /// The moves, most urgent first, each given its final urgency by `fin` (`None` drops it).
    /// Equal urgencies keep the order they were added in, so the reading is deterministic.
    pub(super) fn moves(self, fin: impl Fn(u32, Point) -> Option<u32>) -> Vec<Point> {
        let mut kept: Vec<(u32, Point)> = self
            .0
            .into_iter()
            .filter_map(|(u, p)| fin(u, p).map(|u| (u, p)))
            .collect();
        kept.sort_by_key(|&(urgency, _)| std::cmp::Reverse(urgency));
        kept.into_iter().map(|(_, p)| p).collect()
    }
}

/// Whether `fight`'s target is captured by force from `board`, `first` to move, reading at most
/// `budget` positions over the deepening steps `depths`.
pub(super) fn captured_by_force(
    fight: &impl Fight,
    board: &Board,
    first: Color,
    depths: &[u32],
    budget: u32,
) -> bool {
    let mut search = Search {
        fight,
        budget,
        nodes: 0,
        max_depth: 0,
        table: HashMap::new(),
    };
    // Once the budget is spent, every deeper pass answers at once.
    depths.iter().any(|&max_depth| {
        search.max_depth = max_depth;
        search.table.clear();
        search.captured(board, first, 0)
    })
}

/// One fight's search: the positions already read (captured or not, with the side to move and
/// the plies that were left to read them) and the budget spent.
struct Search<'a, F> {
    fight: &'a F,
    budget: u32,
    nodes: u32,
    max_depth: u32,
    table: HashMap<u64, (bool, u32)>,
}

impl<F: Fight> Search<'_, F> {
    /// Whether the target is captured by force from `board` with `to_move` to play, `depth`
    /// plies in.
    fn captured(&mut self, board: &Board, to_move: Color, depth: u32) -> bool {
        let owner = self.fight.owner();
        if board.color(self.fight.target()) != Some(owner) {
            return true;
        }
        if board.ko().is_some()
            || depth >= self.max_depth
            || self.nodes >= self.budget
            || self.fight.defended(board)
        {
            return false;
        }
        let key = board.hash()
            ^ match to_move {
                Color::Black => 0,
                Color::White => WHITE_TO_MOVE,
            };
        // A capture proved is proved at any depth; a defence found with fewer plies left than
        // now may have been a cut-off, so it is read again.
        let left = self.max_depth - depth;
        if let Some(&(known, known_left)) = self.table.get(&key) {
            if known || known_left >= left {
                return known;
            }
        }
        self.nodes += 1;
        let Some(moves) = self.fight.moves(board, to_move) else {
            self.table.insert(key, (false, u32::MAX));
            return false;
        };
        let after = |p: Option<Point>, search: &mut Self| {
            let mut b = board.clone();
            match p {
                Some(p) => {
                    b.play(p, to_move);
                }
                None => b.pass(),
            }
            search.captured(&b, to_move.opponent(), depth + 1)
        };
        let result = if to_move == owner {
            // Every local move fails, and so does playing elsewhere.
            moves.iter().all(|&p| after(Some(p), self)) && after(None, self)
        } else {
            moves.iter().any(|&p| after(Some(p), self))
        };
        self.table.insert(key, (result, left));
        result
    }
}
