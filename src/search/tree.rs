//! The search tree: nodes in an arena, addressed by index, with statistics that several workers
//! update at once through atomics.
//!
//! Invariants: a node's children are contiguous in the arena (`first_child .. first_child +
//! child_count`) and are published by storing `state = EXPANDED` after they are written, so a
//! reader that sees EXPANDED sees them whole. Statistics are sums of values in `[0, 1]` scaled by
//! [`SCALE`], always from the point of view of the player who made the node's move. The arena is
//! a fixed table of lazily allocated chunks: it never moves, so nodes can be shared by reference,
//! and once its budget is used up expansion simply stops and the search goes on from the leaves.

use crate::board::{Move, Point};
use crate::rules::HalfPoints;
use std::sync::atomic::{
    AtomicI64, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed,
};
use std::sync::OnceLock;

/// Fixed-point scale of node values: a win adds `SCALE`, a loss 0.
pub const SCALE: f64 = 65536.0;

/// AMAF words: visits above this bit (up to 2²⁸ units), values below (up to 2³⁶ / 256 wins).
const AMAF_VISIT_SHIFT: u32 = 36;
const AMAF_SCALE: f64 = 256.0;

/// The units of one AMAF visit of full weight: results are weighted in quarters
/// ([`Node::add_amaf`]).
pub const AMAF_UNIT: u64 = 4;

/// Outcome words: playouts counted above this bit, half wins below.
const OUTCOME_SHIFT: u32 = 32;

const CHUNK_BITS: usize = 14;
const CHUNK: usize = 1 << CHUNK_BITS;

const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// A node: the move that leads to it and what the search has learnt about it.
#[derive(Default)]
pub struct Node {
    /// The move as a point index; 0 means pass.
    mv: AtomicU32,
    state: AtomicU8,
    first_child: AtomicU32,
    child_count: AtomicU32,
    visits: AtomicU32,
    value: AtomicU64,
    /// AMAF statistics packed in one word: visits in the high [`AMAF_VISIT_SHIFT`]..64 bits,
    /// value (scaled by [`AMAF_SCALE`]) below.
    amaf: AtomicU64,
    /// Prior knowledge as virtual experience: visits and value sum, set before publication.
    prior_visits: AtomicU32,
    prior_value: AtomicU64,
    /// For analysis: the playouts through the node whose outcome has arrived (above
    /// [`OUTCOME_SHIFT`]) and the wins of the node's mover among them counted in halves (2 a
    /// win, 1 a draw; below), in one word so that one atomic add counts both; and the sum of
    /// Black's margins in half points. The value above mixes winning with a share of the
    /// margin, and `visits` counts playouts still in flight; these keep apart what is shown.
    outcomes: AtomicU64,
    margin_halves: AtomicI64,
}

/// A playout's result for one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// Black's outcome of a game that Black won by `margin` (negative: lost).
    pub fn of_margin(margin: HalfPoints) -> Outcome {
        match margin.0.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// The outcome nearest to a value in `[0, 1]` (a win 1, a draw ½).
    pub fn nearest(value: f64) -> Outcome {
        match (2.0 * value).round() as i32 {
            i32::MIN..=0 => Outcome::Loss,
            1 => Outcome::Draw,
            _ => Outcome::Win,
        }
    }

    /// The same game's outcome for the other player.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    fn halves(self) -> u32 {
        self as u32
    }
}

/// A snapshot of a node's statistics.
#[derive(Copy, Clone, Debug, Default)]
pub struct Stats {
    pub visits: u32,
    pub value: f64,
    /// AMAF visits, each counted with its weight.
    pub amaf_visits: f64,
    pub amaf_value: f64,
    pub prior_visits: u32,
    pub prior_value: f64,
    /// Playouts through the node whose outcome has arrived (`visits` also counts those in
    /// flight).
    pub outcomes: u32,
    /// Wins of the mover among them (a draw counts half).
    pub wins: f64,
    /// Black's margins in points, summed.
    pub margin_sum: f64,
}

impl Stats {
    /// Mean value of real playouts through the node, or `None` before any.
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.value / self.visits as f64)
    }
}

impl Node {
    pub fn mv(&self) -> Move {
        match self.mv.load(Relaxed) {
            0 => Move::Pass,
            p => Move::Play(Point(p as u16)),
        }
    }

    pub fn stats(&self) -> Stats {
        let (amaf_visits, amaf_value) = self.amaf();
        let outcomes = self.outcomes.load(Relaxed);
        Stats {
            visits: self.visits.load(Relaxed),
            value: self.value.load(Relaxed) as f64 / SCALE,
            amaf_visits,
            amaf_value,
            prior_visits: self.prior_visits.load(Relaxed),
            prior_value: self.prior_value.load(Relaxed) as f64 / SCALE,
            outcomes: (outcomes >> OUTCOME_SHIFT) as u32,
            wins: (outcomes & u32::MAX as u64) as f64 / 2.0,
            margin_sum: self.margin_halves.load(Relaxed) as f64 / 2.0,
        }
    }

    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// The AMAF visits and value sum alone, weighted (as in [`Node::stats`]).
    #[inline]
    pub fn amaf(&self) -> (f64, f64) {
        let amaf = self.amaf.load(Relaxed);
        let unit = AMAF_UNIT as f64;
        (
            (amaf >> AMAF_VISIT_SHIFT) as f64 / unit,
            (amaf & ((1 << AMAF_VISIT_SHIFT) - 1)) as f64 / (AMAF_SCALE * unit),
        )
    }

    /// Black's mean margin in points over the playouts through the node, or `None` before any
    /// (visits under way count as finished: a small bias while workers are out).
    #[inline]
    pub fn mean_margin(&self) -> Option<f64> {
        let visits = self.visits.load(Relaxed);
        (visits > 0).then(|| self.margin_halves.load(Relaxed) as f64 / 2.0 / visits as f64)
    }

    pub fn is_expanded(&self) -> bool {
        self.state.load(std::sync::atomic::Ordering::Acquire) == EXPANDED
    }

    /// Counts a visit before the playout's result is known: the virtual loss that keeps other
    /// workers off a line already being explored.
    #[inline]
    pub fn add_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }

    /// Adds a playout's value (in `[0, 1]`, for this node's mover).
    #[inline]
    pub fn add_value(&self, v: f64) {
        self.value.fetch_add((v * SCALE) as u64, Relaxed);
    }

    /// Adds a playout's outcome for analysis: the mover's result and Black's margin.
    #[inline]
    pub fn add_outcome(&self, mover: Outcome, black_margin: HalfPoints) {
        self.outcomes
            .fetch_add((1 << OUTCOME_SHIFT) + mover.halves() as u64, Relaxed);
        self.margin_halves.fetch_add(black_margin.0 as i64, Relaxed);
    }

    /// Adds an AMAF result of one whole visit, its value rounded as before AMAF results had
    /// weights (so that a search with whole results only is the same as then).
    #[inline]
    pub fn add_whole_amaf(&self, v: f64) {
        self.add_to_amaf((AMAF_UNIT << AMAF_VISIT_SHIFT) + AMAF_UNIT * (v * AMAF_SCALE) as u64);
    }

    /// Adds an AMAF result of weight `units` / [`AMAF_UNIT`].
    #[inline]
    pub fn add_amaf(&self, v: f64, units: u64) {
        self.add_to_amaf((units << AMAF_VISIT_SHIFT) + (v * AMAF_SCALE * units as f64) as u64);
    }

    /// A plain load and store, not a locked read-modify-write: AMAF updates are the bulk of a
    /// simulation's writes to shared nodes, and an update lost to a race now and then costs
    /// nothing measurable, while locked updates on lines that the other workers keep writing
    /// cost parallel speed.
    #[inline]
    fn add_to_amaf(&self, add: u64) {
        self.amaf
            .store(self.amaf.load(Relaxed).wrapping_add(add), Relaxed);
    }

    fn reset(&self, mv: Move, prior_visits: u32, prior_value: f64) {
        self.mv.store(move_code(mv), Relaxed);
        self.state.store(UNEXPANDED, Relaxed);
        self.first_child.store(0, Relaxed);
        self.child_count.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.value.store(0, Relaxed);
        self.amaf.store(0, Relaxed);
        self.prior_visits.store(prior_visits, Relaxed);
        self.prior_value
            .store((prior_value * SCALE) as u64, Relaxed);
        self.outcomes.store(0, Relaxed);
        self.margin_halves.store(0, Relaxed);
    }

    fn copy_stats_from(&self, other: &Node) {
        self.visits.store(other.visits.load(Relaxed), Relaxed);
        self.value.store(other.value.load(Relaxed), Relaxed);
        self.amaf.store(other.amaf.load(Relaxed), Relaxed);
        self.prior_visits
            .store(other.prior_visits.load(Relaxed), Relaxed);
        self.prior_value
            .store(other.prior_value.load(Relaxed), Relaxed);
        self.outcomes.store(other.outcomes.load(Relaxed), Relaxed);
        self.margin_halves
            .store(other.margin_halves.load(Relaxed), Relaxed);
    }
}

fn move_code(mv: Move) -> u32 {
    match mv {
        Move::Pass => 0,
        Move::Play(p) => p.0 as u32,
    }
}

/// A child to create at expansion: its move and prior experience.
#[derive(Copy, Clone, Debug)]
pub struct NewChild {
    pub mv: Move,
    pub prior_visits: u32,
    pub prior_value: f64,
}

/// The arena. Node 0 is the root.
pub struct Tree {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    capacity: usize,
    used: AtomicUsize,
}

impl Tree {
    /// A tree with room for `capacity` nodes (at least a root and one full expansion).
    pub fn new(capacity: usize) -> Tree {
        let capacity = capacity.max(1024);
        let n_chunks = capacity.div_ceil(CHUNK);
        let chunks = (0..n_chunks).map(|_| OnceLock::new()).collect();
        let t = Tree {
            chunks,
            capacity,
            used: AtomicUsize::new(1),
        };
        t.node(0).reset(Move::Pass, 0, 0.0);
        t
    }

    /// Room for this many nodes.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The same tree with room for `capacity` nodes (see [`Tree::into_subtree`]): a smaller
    /// budget frees what the tree no longer may hold.
    pub fn with_capacity(self, capacity: usize) -> Tree {
        if self.capacity == capacity.max(1024) {
            self
        } else {
            self.into_subtree(Tree::ROOT, capacity)
        }
    }

    /// How many nodes fit in `megabytes` of memory.
    pub fn capacity_for(megabytes: usize) -> usize {
        megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Node>()
    }

    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        let i = i as usize;
        let chunk = self.chunks[i >> CHUNK_BITS]
            .get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect());
        &chunk[i & (CHUNK - 1)]
    }

    pub const ROOT: u32 = 0;

    pub fn root(&self) -> &Node {
        self.node(Self::ROOT)
    }

    /// Nodes in use.
    pub fn nodes(&self) -> usize {
        self.used.load(Relaxed).min(self.capacity)
    }

    /// Whether the memory budget is used up.
    pub fn is_full(&self) -> bool {
        self.used.load(Relaxed) >= self.capacity
    }

    /// The children of an expanded node, as a range of indices.
    #[inline]
    pub fn children(&self, i: u32) -> std::ops::Range<u32> {
        let n = self.node(i);
        if !n.is_expanded() {
            return 0..0;
        }
        let first = n.first_child.load(Relaxed);
        first..first + n.child_count.load(Relaxed)
    }

    /// Claims the right to expand node `i`; only one worker wins.
    pub fn try_begin_expand(&self, i: u32) -> bool {
        self.node(i)
            .state
            .compare_exchange(
                UNEXPANDED,
                EXPANDING,
                std::sync::atomic::Ordering::Acquire,
                Relaxed,
            )
            .is_ok()
    }

    /// Writes the children of node `i` (whose expansion this worker claimed) and publishes them.
    /// Returns false, leaving the node a leaf for good, when the budget is used up.
    pub fn finish_expand(&self, i: u32, children: &[NewChild]) -> bool {
        let n = children.len();
        let first = self.used.fetch_add(n, Relaxed);
        if first + n > self.capacity || first + n > u32::MAX as usize {
            // Leave it EXPANDING: nobody will try again, and the node stays a leaf.
            return false;
        }
        for (k, c) in children.iter().enumerate() {
            self.node((first + k) as u32)
                .reset(c.mv, c.prior_visits, c.prior_value);
        }
        let node = self.node(i);
        node.first_child.store(first as u32, Relaxed);
        node.child_count.store(n as u32, Relaxed);
        node.state
            .store(EXPANDED, std::sync::atomic::Ordering::Release);
        true
    }

    /// The child of node `i` reached by `mv`, if expanded.
    pub fn child_by_move(&self, i: u32, mv: Move) -> Option<u32> {
        self.children(i).find(|&c| self.node(c).mv() == mv)
    }

    /// Nodes whose memory is allocated (the arena grows by whole chunks).
    pub fn allocated_nodes(&self) -> usize {
        self.chunks.iter().filter(|c| c.get().is_some()).count() * CHUNK
    }

    /// The same tree holding only the subtree under node `i`, which becomes the root: the tree
    /// kept for the next move, moved within its own arena so that no second tree is ever
    /// allocated beside it (the memory budget holds for both at once). The chunks left unused are
    /// freed. The tree takes the new `capacity`: nodes beyond it are dropped (their parents
    /// become leaves).
    ///
    /// Why moving in place is safe: a node's children are always allocated after the node itself,
    /// so along any line the children's blocks lie at ever higher indices. Blocks are moved in the
    /// order of their old index (the lowest discovered first, which is the lowest of all not yet
    /// moved, since every undiscovered block lies above its discovered ancestor), each to just
    /// after the ones moved before it: a block never moves up, and never onto a node not yet
    /// moved.
    pub fn into_subtree(mut self, i: u32, capacity: usize) -> Tree {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let root = self.node(Tree::ROOT);
        let src = self.node(i);
        root.copy_stats_from(src);
        root.mv.store(src.mv.load(Relaxed), Relaxed);
        root.first_child
            .store(src.first_child.load(Relaxed), Relaxed);
        root.child_count
            .store(src.child_count.load(Relaxed), Relaxed);
        let state = if src.is_expanded() {
            EXPANDED
        } else {
            UNEXPANDED
        };
        root.state.store(state, Relaxed);
        // Pending blocks: (old first child, new index of their parent).
        let mut pending = BinaryHeap::new();
        if state == EXPANDED {
            pending.push(Reverse((root.first_child.load(Relaxed), Tree::ROOT)));
        }
        let mut next = 1u32;
        while let Some(Reverse((old_first, parent))) = pending.pop() {
            let count = self.node(parent).child_count.load(Relaxed);
            debug_assert!(next <= old_first);
            for k in 0..count {
                let (from, to) = (self.node(old_first + k), self.node(next + k));
                let expanded = from.is_expanded();
                if next != old_first {
                    to.copy_stats_from(from);
                    to.mv.store(from.mv.load(Relaxed), Relaxed);
                    to.first_child
                        .store(from.first_child.load(Relaxed), Relaxed);
                    to.child_count
                        .store(from.child_count.load(Relaxed), Relaxed);
                }
                // A node whose expansion found the arena full may be expanded now.
                to.state
                    .store(if expanded { EXPANDED } else { UNEXPANDED }, Relaxed);
                if expanded {
                    pending.push(Reverse((to.first_child.load(Relaxed), next + k)));
                }
            }
            self.node(parent).first_child.store(next, Relaxed);
            next += count;
        }
        // A smaller budget: blocks that do not fit are cut off, their parents left leaves. A
        // node's ancestors lie below it, so every node kept is still reached from the root.
        let capacity = capacity.max(1024);
        let mut used = next as usize;
        if used > capacity {
            for k in 0..capacity as u32 {
                let n = self.node(k);
                let end =
                    n.first_child.load(Relaxed) as usize + n.child_count.load(Relaxed) as usize;
                if n.is_expanded() && end > capacity {
                    n.child_count.store(0, Relaxed);
                    n.state.store(UNEXPANDED, Relaxed);
                }
            }
            used = capacity;
        }
        let in_use = used.div_ceil(CHUNK);
        for chunk in self.chunks.iter_mut().skip(in_use) {
            chunk.take();
        }
        let mut chunks: Vec<_> = std::mem::take(&mut self.chunks).into_vec();
        chunks.resize_with(capacity.div_ceil(CHUNK), OnceLock::new);
        Tree {
            chunks: chunks.into_boxed_slice(),
            capacity,
            used: AtomicUsize::new(used),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amaf_results_count_by_weight() {
        let t = Tree::new(1024);
        let n = t.node(Tree::ROOT);
        // Whole results: one visit each, values rounded to 1/256 as before weights.
        n.add_whole_amaf(1.0);
        n.add_whole_amaf(0.3);
        assert_eq!(
            n.amaf(),
            (2.0, 1.0 + (0.3 * AMAF_SCALE).floor() / AMAF_SCALE)
        );
        // Weighted ones: twice a visit and a quarter.
        n.add_amaf(1.0, 2 * AMAF_UNIT);
        n.add_amaf(0.0, AMAF_UNIT / 4);
        let (visits, value) = n.amaf();
        assert_eq!(visits, 4.25);
        assert!((value - (3.0 + (0.3 * AMAF_SCALE).floor() / AMAF_SCALE)).abs() < 1e-9);
    }

    #[test]
    fn expansion_is_claimed_once_and_published() {
        let t = Tree::new(2048);
        assert!(t.try_begin_expand(Tree::ROOT));
        assert!(!t.try_begin_expand(Tree::ROOT));
        let kids: Vec<NewChild> = (1..=3)
            .map(|p| NewChild {
                mv: Move::Play(Point(p)),
                prior_visits: 10,
                prior_value: 5.0,
            })
            .collect();
        assert!(t.finish_expand(Tree::ROOT, &kids));
        assert_eq!(t.children(Tree::ROOT).len(), 3);
        let c = t.child_by_move(Tree::ROOT, Move::Play(Point(2))).unwrap();
        t.node(c).add_visit();
        t.node(c).add_value(1.0);
        let sub = t.into_subtree(c, 2048);
        assert_eq!(sub.root().stats().visits, 1);
        assert_eq!(sub.root().stats().prior_visits, 10);
    }

    #[test]
    fn a_full_arena_stops_growing() {
        let t = Tree::new(1024);
        let kids: Vec<NewChild> = (0..2000)
            .map(|p| NewChild {
                mv: Move::Play(Point(p as u16 + 1)),
                prior_visits: 0,
                prior_value: 0.0,
            })
            .collect();
        assert!(t.try_begin_expand(Tree::ROOT));
        assert!(!t.finish_expand(Tree::ROOT, &kids));
        assert!(t.children(Tree::ROOT).is_empty());
    }
}
