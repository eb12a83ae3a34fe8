//! Who owns each point at the end of the playouts: the ownership map that analysis shows and
//! that dead-stone judgement ([`crate::dead`]) reads.
//!
//! Values are in `Board::points` order, +1 Black's in every playout, −1 White's. During a
//! search each worker keeps its own sums (no shared cache lines on the hot path) and pours them
//! into the shared ones every few hundred playouts, so that a snapshot sees every worker's
//! share. A playout's end is scanned once: the same pass gives the area margin.

use super::playout;
use crate::board::{Board, Color, CELLS};
use crate::rules::HalfPoints;
use crate::score;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

/// Per-point ownership sums over playouts, and Black's margins.
#[derive(Clone)]
pub(super) struct OwnershipSums {
    sums: Vec<i32>,
    playouts: u64,
    /// Black's margins in half points, compensation included, summed over the playouts.
    margin_halves: i64,
}

impl OwnershipSums {
    pub(super) fn new() -> OwnershipSums {
        OwnershipSums {
            sums: vec![0; CELLS],
            playouts: 0,
            margin_halves: 0,
        }
    }

    /// Adds a finished playout's owners and returns Black's area minus White's.
    #[inline]
    pub(super) fn add(&mut self, board: &Board) -> i32 {
        self.playouts += 1;
        let sums = &mut self.sums;
        score::settled_area(board, |p, o| sums[p.idx()] += o)
    }

    /// Adds a playout's margin for Black.
    #[inline]
    pub(super) fn add_margin(&mut self, margin: HalfPoints) {
        self.margin_halves += margin.0 as i64;
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
}

impl SharedOwnership {
    /// Playouts a worker keeps to itself before pouring them in.
    pub(super) const BATCH: u64 = 256;

    pub(super) fn new() -> SharedOwnership {
        SharedOwnership {
            sums: (0..CELLS).map(|_| AtomicI64::new(0)).collect(),
            playouts: AtomicU64::new(0),
            margin_halves: AtomicI64::new(0),
        }
    }

    /// Moves a worker's sums in, leaving them empty.
    pub(super) fn absorb(&self, local: &mut OwnershipSums) {
        for (shared, v) in self.sums.iter().zip(local.sums.iter_mut()) {
            if *v != 0 {
                shared.fetch_add(*v as i64, Relaxed);
                *v = 0;
            }
        }
        self.playouts.fetch_add(local.playouts, Relaxed);
        self.margin_halves.fetch_add(local.margin_halves, Relaxed);
        local.playouts = 0;
        local.margin_halves = 0;
    }

    pub(super) fn values(&self, board: &Board) -> Vec<f32> {
        let n = self.playouts.load(Relaxed).max(1) as f32;
        board
            .points()
            .map(|p| self.sums[p.idx()].load(Relaxed) as f32 / n)
            .collect()
    }

    /// Black's mean margin in points, the search's own komi included.
    pub(super) fn mean_margin(&self) -> f64 {
        self.margin_halves.load(Relaxed) as f64 / 2.0 / self.playouts.load(Relaxed).max(1) as f64
    }
}

/// Ownership of every point of `board` from `playouts` heavy playouts with `color` to move,
/// shared among the `pool`'s workers. Each worker runs its own share from its own seed, so the
/// estimate is reproducible for a given seed and thread count.
pub fn estimate(
    pool: &rayon::ThreadPool,
    board: &Board,
    color: Color,
    playouts: u64,
    seed: u64,
) -> Vec<f32> {
    let threads = pool.current_num_threads() as u64;
    let parts = pool.broadcast(|ctx| {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_add(ctx.index() as u64));
        let mut sums = OwnershipSums::new();
        let mut b = board.clone();
        let share = playouts / threads + u64::from((ctx.index() as u64) < playouts % threads);
        for _ in 0..share {
            b.copy_from(board);
            playout::heavy_playout(&mut b, color, &mut rng);
            sums.add(&b);
        }
        sums
    });
    OwnershipSums::merge(parts).values(board)
}
