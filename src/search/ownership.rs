//! Who owns each point at the end of the playouts: the ownership map that analysis shows and
//! that dead-stone judgement ([`crate::dead`]) reads.
//!
//! Values are in `Board::points` order, +1 Black's in every playout, −1 White's. During a
//! search each worker keeps its own sums (no shared cache lines on the hot path) and pours them
//! into the shared ones every few hundred playouts, so that a snapshot sees every worker's
//! share. A playout's end is scanned once: the same pass gives the area margin.
//!
//! On request (KataGo's `ownershipStdev` and `movesOwnership`) a search also keeps, per point,
//! the playouts in which somebody owned it (the sum of the squared owners, so that the standard
//! deviation follows from the two sums), and per root move the owners of the playouts through
//! it. Both cost a little per point of every playout, so a search keeps them only when asked
//! ([`Detail`]); the search path without them differs by one branch per playout.
//!
//! Margins are summed with their squares, over all playouts and per root move (a handful of
//! integers per playout, always kept), so that analysis can show the spread of the final score
//! (KataGo's `scoreStdev`) without a field in the tree's nodes, which stay one cache line.
//! During a search they are also counted by value, over all playouts and per root move, for
//! the lead that makes the game even (the margins' median, [`median_margin`]): a worker notes
//! its playouts' margins and adds each to the shared counts when it pours.

use super::playout;
use crate::board::{Board, Color, CELLS};
use crate::rules::HalfPoints;
use crate::score;
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Per-point ownership sums over playouts, and Black's margins.
#[derive(Clone)]
pub(super) struct OwnershipSums {
    sums: Vec<i32>,
    playouts: u64,
    /// Black's margins in half points, compensation included, summed over the playouts.
    margin_halves: i64,
    /// Their squares (in quarter points), summed.
    margin_squares: i64,
    /// Per root move (the root's children in the tree's order): playouts through it, their
    /// margins in half points and the margins' squares, summed; empty outside a search.
    move_margins: Vec<[i64; 3]>,
    /// This batch's margins in half points with their root move (`u32::MAX` for none), for
    /// the shared counts by value; kept only during a search.
    margin_log: Vec<(u32, i32)>,
    /// The detailed sums, when the search keeps them.
    detail: Option<Detail>,
}

/// The sums behind the ownership's standard deviation and each root move's ownership.
#[derive(Clone)]
pub(super) struct Detail {
    /// Per point: playouts in which somebody owned it (the sum of the squared owners).
    owned: Vec<i32>,
    /// Per root move (the root's children in the tree's order) and point: the owners summed
    /// over the playouts through the move, at `move * CELLS + point`.
    by_move: Vec<i32>,
    /// Per root move: the playouts through it.
    move_playouts: Vec<u32>,
}

impl Detail {
    fn new(root_moves: usize) -> Detail {
        Detail {
            owned: vec![0; CELLS],
            by_move: vec![0; root_moves * CELLS],
            move_playouts: vec![0; root_moves],
        }
    }
}

impl OwnershipSums {
    pub(super) fn new() -> OwnershipSums {
        OwnershipSums {
            sums: vec![0; CELLS],
            playouts: 0,
            margin_halves: 0,
            margin_squares: 0,
            move_margins: Vec::new(),
            margin_log: Vec::new(),
            detail: None,
        }
    }

    /// A search's sums for a root of `root_moves` children, keeping the detail if asked.
    pub(super) fn for_root(root_moves: usize, detailed: bool) -> OwnershipSums {
        OwnershipSums {
            move_margins: vec![[0; 3]; root_moves],
            margin_log: Vec::with_capacity(SharedOwnership::BATCH as usize),
            detail: detailed.then(|| Detail::new(root_moves)),
            ..OwnershipSums::new()
        }
    }

    /// [`OwnershipSums::add`] for a playout through root move number `root_move` (in the
    /// tree's order of the root's children): with the detail, its sums too.
    #[inline]
    pub(super) fn add_through(&mut self, board: &Board, root_move: Option<usize>) -> i32 {
        let Some(d) = self.detail.as_mut() else {
            return self.add(board);
        };
        self.playouts += 1;
        let sums = &mut self.sums;
        let row = root_move.filter(|&k| k < d.move_playouts.len()).map(|k| {
            d.move_playouts[k] += 1;
            k * CELLS
        });
        let (owned, by_move) = (&mut d.owned, &mut d.by_move);
        score::settled_area(board, |p, o| {
            let i = p.idx();
            sums[i] += o;
            owned[i] += o * o;
            if let Some(r) = row {
                by_move[r + i] += o;
            }
        })
    }

    /// Adds a finished playout's owners and returns Black's area minus White's.
    #[inline]
    pub(super) fn add(&mut self, board: &Board) -> i32 {
        self.playouts += 1;
        let sums = &mut self.sums;
        score::settled_area(board, |p, o| sums[p.idx()] += o)
    }

    /// Adds a playout's margin for Black, through root move number `root_move` when known.
    #[inline]
    pub(super) fn add_margin(&mut self, margin: HalfPoints, root_move: Option<usize>) {
        let (m, square) = (margin.0 as i64, margin.0 as i64 * margin.0 as i64);
        self.margin_halves += m;
        self.margin_squares += square;
        if let Some(sums) = root_move.and_then(|k| self.move_margins.get_mut(k)) {
            sums[0] += 1;
            sums[1] += m;
            sums[2] += square;
        }
        if self.tracks_root_moves() {
            let k = root_move.map_or(u32::MAX, |k| k as u32);
            self.margin_log.push((k, margin.0));
        }
    }

    /// Whether these sums want to know each playout's root move.
    #[inline]
    pub(super) fn tracks_root_moves(&self) -> bool {
        !self.move_margins.is_empty()
    }

    fn merge(parts: Vec<OwnershipSums>) -> OwnershipSums {
        let mut total = OwnershipSums::new();
        for part in parts {
            for (t, v) in total.sums.iter_mut().zip(part.sums) {
                *t += v;
            }
            total.playouts += part.playouts;
            total.margin_halves += part.margin_halves;
        }
        total
    }

    fn values(&self, board: &Board) -> Vec<f32> {
        let n = self.playouts.max(1) as f32;
        board
            .points()
            .map(|p| self.sums[p.idx()] as f32 / n)
            .collect()
    }
}

/// The sum of all workers' ownership during one search.
pub(super) struct SharedOwnership {
    sums: Vec<AtomicI64>,
    playouts: AtomicU64,
    margin_halves: AtomicI64,
    margin_squares: AtomicI64,
    move_margins: Vec<[AtomicI64; 3]>,
    /// Black's margins counted by value: row 0 over all playouts, row `k + 1` over those
    /// through root move `k`; see [`MarginCounts`].
    margin_counts: MarginCounts,
    detail: Option<SharedDetail>,
}

/// Margins counted by value, rows of one bin per half point from −`reach` to +`reach` half
/// points (a margin beyond counts at the end: only the median is read, which they cannot
/// move past the end).
struct MarginCounts {
    reach: i32,
    counts: Vec<AtomicU32>,
}

impl MarginCounts {
    /// Rows enough for `rows`, of margins on a board of `area` points: the area margin's
    /// bound and 200 points of komi, compensation and captures beyond it.
    fn new(rows: usize, area: usize) -> MarginCounts {
        let reach = 2 * (area as i32 + 200);
        let bins = 2 * reach as usize + 1;
        MarginCounts {
            reach,
            counts: (0..rows * bins).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    fn bins(&self) -> usize {
        2 * self.reach as usize + 1
    }

    fn add(&self, row: usize, margin_halves: i32) {
        let bin = (margin_halves.clamp(-self.reach, self.reach) + self.reach) as usize;
        if let Some(c) = self.counts.get(row * self.bins() + bin) {
            c.fetch_add(1, Relaxed);
        }
    }

    /// The median of row `row` in points; `None` for an empty row.
    fn median(&self, row: usize) -> Option<f64> {
        let bins = self.bins();
        let counts = self.counts.get(row * bins..(row + 1) * bins)?;
        median_margin(
            counts
                .iter()
                .enumerate()
                .map(|(i, c)| ((i as i32 - self.reach) as f64 / 2.0, c.load(Relaxed) as u64)),
        )
    }
}

/// The lead that makes the game even: the margin that as many playouts beat as fall short
/// of, from `(margin in points, playouts)` in increasing order of margin. Margins come in
/// steps (area counts keep their parity), so the median is read off the counts' mid-ranks
/// (each value at the middle of its own playouts) joined by straight lines: it moves
/// smoothly as the counts shift from one value to the next. `None` without playouts.
pub(super) fn median_margin(counts: impl Iterator<Item = (f64, u64)>) -> Option<f64> {
    let occupied: Vec<(f64, u64)> = counts.filter(|&(_, n)| n > 0).collect();
    let total: u64 = occupied.iter().map(|&(_, n)| n).sum();
    if total == 0 {
        return None;
    }
    let half = total as f64 / 2.0;
    let (mut below, mut last) = (0u64, None::<(f64, f64)>);
    for &(value, n) in &occupied {
        let rank = below as f64 + n as f64 / 2.0;
        if rank >= half {
            return Some(match last {
                Some((v, r)) if rank > r => v + (half - r) / (rank - r) * (value - v),
                _ => value,
            });
        }
        last = Some((value, rank));
        below += n;
    }
    last.map(|(v, _)| v)
}

/// All workers' [`Detail`].
struct SharedDetail {
    owned: Vec<AtomicI64>,
    by_move: Vec<AtomicI64>,
    move_playouts: Vec<AtomicU64>,
}

/// Adds a worker's sums into the shared ones and empties them.
fn pour(shared: &[AtomicI64], local: &mut [i32]) {
    for (s, v) in shared.iter().zip(local.iter_mut()) {
        if *v != 0 {
            s.fetch_add(*v as i64, Relaxed);
            *v = 0;
        }
    }
}

impl SharedOwnership {
    /// Playouts a worker keeps to itself before pouring them in.
    pub(super) const BATCH: u64 = 256;

    /// Shared sums for a root of `root_moves` children on a board of `area` points; with
    /// `detailed`, the detail too.
    pub(super) fn new(root_moves: usize, detailed: bool, area: usize) -> SharedOwnership {
        let zeros = |n: usize| (0..n).map(|_| AtomicI64::new(0)).collect::<Vec<_>>();
        SharedOwnership {
            sums: zeros(CELLS),
            playouts: AtomicU64::new(0),
            margin_halves: AtomicI64::new(0),
            margin_squares: AtomicI64::new(0),
            move_margins: (0..root_moves)
                .map(|_| std::array::from_fn(|_| AtomicI64::new(0)))
                .collect(),
            margin_counts: MarginCounts::new(root_moves + 1, area),
            detail: detailed.then(|| SharedDetail {
                owned: zeros(CELLS),
                by_move: zeros(root_moves * CELLS),
                move_playouts: (0..root_moves).map(|_| AtomicU64::new(0)).collect(),
            }),
        }
    }

    /// Whether these sums keep the detail.
    pub(super) fn is_detailed(&self) -> bool {
        self.detail.is_some()
    }

    /// A worker's empty sums, keeping the detail if this search does.
    pub(super) fn local(&self) -> OwnershipSums {
        OwnershipSums::for_root(self.move_margins.len(), self.detail.is_some())
    }

    /// Moves a worker's sums in, leaving them empty.
    pub(super) fn absorb(&self, local: &mut OwnershipSums) {
        pour(&self.sums, &mut local.sums);
        if let (Some(shared), Some(d)) = (&self.detail, local.detail.as_mut()) {
            pour(&shared.owned, &mut d.owned);
            pour(&shared.by_move, &mut d.by_move);
            for (s, v) in shared.move_playouts.iter().zip(d.move_playouts.iter_mut()) {
                s.fetch_add(*v as u64, Relaxed);
                *v = 0;
            }
        }
        self.playouts.fetch_add(local.playouts, Relaxed);
        self.margin_halves.fetch_add(local.margin_halves, Relaxed);
        self.margin_squares.fetch_add(local.margin_squares, Relaxed);
        for (shared, sums) in self.move_margins.iter().zip(local.move_margins.iter_mut()) {
            for (s, v) in shared.iter().zip(sums.iter_mut()) {
                s.fetch_add(*v, Relaxed);
                *v = 0;
            }
        }
        for (k, m) in local.margin_log.drain(..) {
            self.margin_counts.add(0, m);
            if k != u32::MAX {
                self.margin_counts.add(k as usize + 1, m);
            }
        }
        local.playouts = 0;
        local.margin_halves = 0;
        local.margin_squares = 0;
    }

    pub(super) fn values(&self, board: &Board) -> Vec<f32> {
        let n = self.playouts.load(Relaxed).max(1) as f32;
        board
            .points()
            .map(|p| self.sums[p.idx()].load(Relaxed) as f32 / n)
            .collect()
    }

    /// The standard deviation of each point's owner over the playouts, in `Board::points`
    /// order, in [0, 1]; empty unless the search keeps the detail.
    pub(super) fn stdev(&self, board: &Board) -> Vec<f32> {
        let Some(d) = &self.detail else {
            return Vec::new();
        };
        let n = self.playouts.load(Relaxed).max(1) as f64;
        board
            .points()
            .map(|p| {
                let mean = self.sums[p.idx()].load(Relaxed) as f64 / n;
                let square = d.owned[p.idx()].load(Relaxed) as f64 / n;
                (square - mean * mean).max(0.0).sqrt().min(1.0) as f32
            })
            .collect()
    }

    /// Black's ownership over the playouts through each root move (in the tree's order of the
    /// root's children), in `Board::points` order; empty for a move without any, and no moves
    /// unless the search keeps the detail.
    pub(super) fn by_move(&self, board: &Board) -> Vec<Vec<f32>> {
        let Some(d) = &self.detail else {
            return Vec::new();
        };
        d.move_playouts
            .iter()
            .enumerate()
            .map(|(k, n)| match n.load(Relaxed) {
                0 => Vec::new(),
                n => board
                    .points()
                    .map(|p| d.by_move[k * CELLS + p.idx()].load(Relaxed) as f32 / n as f32)
                    .collect(),
            })
            .collect()
    }

    /// The playouts summed.
    pub(super) fn playouts(&self) -> u64 {
        self.playouts.load(Relaxed)
    }

    /// The standard deviation of the final margin over the playouts, in points.
    pub(super) fn margin_stdev(&self) -> f64 {
        let n = self.playouts.load(Relaxed).max(1) as f64;
        stdev_in_points(
            n,
            self.margin_halves.load(Relaxed) as f64,
            self.margin_squares.load(Relaxed) as f64,
        )
    }

    /// The same over the playouts through each root move (in the tree's order of the root's
    /// children); `None` for a move without any.
    pub(super) fn move_margin_stdevs(&self) -> Vec<Option<f64>> {
        self.move_margins
            .iter()
            .map(|[n, sum, squares]| match n.load(Relaxed) {
                0 => None,
                n => Some(stdev_in_points(
                    n as f64,
                    sum.load(Relaxed) as f64,
                    squares.load(Relaxed) as f64,
                )),
            })
            .collect()
    }

    /// Black's median margin in points over all playouts ([`median_margin`]), the search's
    /// own komi included; `None` before any.
    pub(super) fn median_margin(&self) -> Option<f64> {
        self.margin_counts.median(0)
    }

    /// The same over the playouts through each root move, in the tree's order of the root's
    /// children.
    pub(super) fn move_median_margins(&self) -> Vec<Option<f64>> {
        (0..self.move_margins.len())
            .map(|k| match self.move_margins[k][0].load(Relaxed) {
                0 => None,
                _ => self.margin_counts.median(k + 1),
            })
            .collect()
    }

    /// Black's mean margin in points, the search's own komi included.
    pub(super) fn mean_margin(&self) -> f64 {
        self.margin_halves.load(Relaxed) as f64 / 2.0 / self.playouts.load(Relaxed).max(1) as f64
    }
}

/// The standard deviation in points of `n` margins given in half points by their sum and the
/// sum of their squares.
fn stdev_in_points(n: f64, sum: f64, squares: f64) -> f64 {
    let mean = sum / n;
    (squares / n - mean * mean).max(0.0).sqrt() / 2.0
}

/// Flat heavy playouts from `board` with `color` to move, `playouts` of them split into `parts`
/// shares that are the same whoever runs them: share `index` has its own seed and its own count.
/// A share stops early at `deadline`; the sums say how many playouts it ran.
#[derive(Clone, Copy)]
pub(super) struct FlatPlayouts<'a> {
    pub(super) board: &'a Board,
    pub(super) color: Color,
    pub(super) playouts: u64,
    pub(super) seed: u64,
    pub(super) parts: usize,
}

impl FlatPlayouts<'_> {
    /// The playouts of share `index` (of [`FlatPlayouts::parts`]).
    pub(super) fn share(&self, index: usize) -> u64 {
        let (parts, index) = (self.parts.max(1) as u64, index as u64);
        self.playouts / parts + u64::from(index < self.playouts % parts)
    }

    /// Runs share `index`, until its count or `deadline`.
    pub(super) fn run(&self, index: usize, deadline: Option<Instant>) -> OwnershipSums {
        let mut rng = fastrand::Rng::with_seed(self.seed.wrapping_add(index as u64));
        let mut sums = OwnershipSums::new();
        let mut b = self.board.clone();
        for _ in 0..self.share(index) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            b.copy_from(self.board);
            playout::heavy_playout(&mut b, self.color, &mut rng);
            sums.add(&b);
        }
        sums
    }

    /// All the shares on the `pool`'s workers, one each: the ownership and the playouts run.
    pub(super) fn on(
        &self,
        pool: &rayon::ThreadPool,
        deadline: Option<Instant>,
    ) -> (Vec<f32>, u64) {
        self.values(pool.broadcast(|ctx| self.run(ctx.index(), deadline)))
    }

    /// The ownership of the shares' sums, and the playouts they ran.
    pub(super) fn values(&self, shares: Vec<OwnershipSums>) -> (Vec<f32>, u64) {
        let total = OwnershipSums::merge(shares);
        (total.values(self.board), total.playouts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn median(counts: &[(f64, u64)]) -> Option<f64> {
        median_margin(counts.iter().copied())
    }

    #[test]
    fn the_median_is_the_lead_that_splits_the_playouts_in_half() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[(-3.5, 0), (2.5, 0)]), None);
        assert_eq!(median(&[(4.5, 7)]), Some(4.5));
        // Even counts either side of zero: zero, wherever the values lie.
        assert_eq!(median(&[(-1.5, 5), (1.5, 5)]), Some(0.0));
        assert_eq!(median(&[(-30.5, 5), (1.5, 5)]), Some(-14.5));
        // A few big wins do not carry it, as they carry the mean (32): six playouts at 0, one
        // at 2, three at 100; mid-ranks 3 and 6.5 around the half, 5.
        let m = median(&[(0.0, 6), (2.0, 1), (100.0, 3)]).unwrap();
        assert!((m - 2.0 * 2.0 / 3.5).abs() < 1e-12, "{}", m);
    }

    #[test]
    fn the_median_moves_smoothly_as_playouts_shift_between_values() {
        // Area margins keep their parity: the values are two points apart. Moving one playout
        // of a hundred from one value to the next moves the median a little, not two points.
        let mut last = median(&[(-0.5, 50), (1.5, 50)]).unwrap();
        for k in 1..=40u64 {
            let m = median(&[(-0.5, 50 - k), (1.5, 50 + k)]).unwrap();
            assert!(m > last && m - last < 0.1, "{} after {}", m, last);
            last = m;
        }
    }

    #[test]
    fn shared_counts_keep_each_root_move_and_the_whole() {
        let shared = SharedOwnership::new(2, false, 81);
        let mut local = shared.local();
        for (margin, k) in [(3, Some(0)), (5, Some(0)), (-9, Some(1)), (-11, None)] {
            local.add_margin(HalfPoints(margin), k);
        }
        shared.absorb(&mut local);
        // Half points: the whole is -11, -9, 3, 5; move 0's 3 and 5; move 1's -9.
        assert_eq!(shared.move_median_margins(), vec![Some(2.0), Some(-4.5)]);
        assert_eq!(shared.median_margin(), Some(-1.5));
        // A margin beyond the counts' reach counts at the end: the area's bound and 200.
        let far = SharedOwnership::new(1, false, 81);
        let mut local = far.local();
        local.add_margin(HalfPoints(-100_000), Some(0));
        far.absorb(&mut local);
        assert_eq!(far.median_margin(), Some(-281.0));
    }
}
