//! One search: the workers, when they stop, and the tree kept for the next move.
//!
//! The [`Runner`] owns what outlives a search — the worker pool and the kept tree — and each
//! search returns one [`Outcome`]: the best move, the report, the analysis and the ownership.
//! Workers share one tree and the root; each runs simulations until the stop flag. Worker 0
//! also watches the clock and the early stop between its own playouts, so that a one-thread
//! search with a playout budget is reproducible; the calling thread watches the controller
//! (interrupts, progress reports). After the search the whole tree is kept, uncopied, so that
//! nothing is spent after the deadline; the next search takes the subtree of the moves actually
//! played since (up to two: ours and the reply, or the reply after pondering), moved within the
//! same arena so that the budget of `--max-memory` holds at every moment, within its own time.
//! The ownership of the search's playouts is kept with the tree: a search of the same position
//! goes on adding to it (one whose tree already has its visit limit may run no playout at all).

use super::analysis::{self, Analysis, MoveFilter, Watch};
use super::ownership::SharedOwnership;
use super::simulate::{run_one, Root, Scratch};
use super::tree::Tree;
use super::{Config, Limits, Report};
use crate::board::{Color, Move};
use crate::game::Game;
use crate::rules::HalfPoints;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The tree kept between searches, and the position it was built for.
pub(super) struct Kept {
    pub(super) tree: Tree,
    /// The root position's hash and side to move.
    hash: u64,
    pub(super) to_move: Color,
    /// What the values in the tree were searched under besides the position: the dynamic komi
    /// and the controller's move filters. A search under other terms starts afresh.
    extra_komi: HalfPoints,
    filters: Vec<MoveFilter>,
    /// The ownership of the playouts searched at this root, which a search of the same
    /// position goes on adding to (a search whose tree already has its visits may run none).
    ownership: Option<SharedOwnership>,
}

impl Kept {
    /// Whether a search with this dynamic komi and these filters may build on the tree: same
    /// filters, and the same komi or (in a handicap game) one a point or so away, as the
    /// dynamic komi shrinks by about that much a move.
    pub(super) fn serves(&self, extra_komi: HalfPoints, filters: &[MoveFilter]) -> bool {
        let zero = HalfPoints::ZERO;
        let komi_close = if self.extra_komi == zero || extra_komi == zero {
            self.extra_komi == extra_komi
        } else {
            (self.extra_komi - extra_komi).0.abs() <= 4
        };
        komi_close && self.filters == filters
    }
}

/// The fewest playouts behind the ownership (and mean margin) a search shows, however many
/// visits a kept tree brings.
const OWNERSHIP_FLOOR: u64 = 100;

/// What one search may spend.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Budget {
    pub(super) playouts: Option<u64>,
    /// Visits at the root, the kept tree's included.
    pub(super) visits: Option<u64>,
    /// The time to think when the best move is clear.
    pub(super) time: Option<Duration>,
    /// The most the search may take when, at `time`, the best move is still unclear.
    pub(super) extended: Option<Duration>,
    /// Whether the search stops as soon as the best move cannot change in the budget left.
    pub(super) early_stop: bool,
}

impl Budget {
    /// Exactly these limits (any may be absent), no early stop.
    pub(super) fn fixed(limits: Limits) -> Budget {
        Budget {
            playouts: limits.playouts,
            visits: limits.visits,
            time: limits.time,
            extended: None,
            early_stop: false,
        }
    }
}

/// What the workers of one search share: the tree, the root, the budget and the stop flag.
struct Run<'a> {
    tree: &'a Tree,
    root: &'a Root,
    stop: AtomicBool,
    /// Playouts finished (counted in batches when no playout budget asks for exactness).
    done: AtomicU64,
    ownership: SharedOwnership,
    max_playouts: Option<u64>,
    max_visits: Option<u64>,
    /// Playouts this search runs even when the root already has its visits: a kept subtree
    /// brings its visits but not the ownership of its position.
    ownership_floor: u64,
    max_time: Option<Duration>,
    extended: Option<Duration>,
    early_stop: bool,
    start: Instant,
    seed: u64,
}

impl Run<'_> {
    /// One worker: simulations until the stop flag.
    fn work(&self, index: usize) {
        // However this worker ends — a panic included — the others and the watching thread
        // stop too, so the search returns (and a panic reaches the caller) instead of hanging.
        struct StopOnExit<'a>(&'a AtomicBool);
        impl Drop for StopOnExit<'_> {
            fn drop(&mut self) {
                self.0.store(true, Relaxed);
            }
        }
        let _guard = StopOnExit(&self.stop);
        let mut s = Scratch::new(self.seed.wrapping_add(index as u64 * 7919), self.root);
        let mut ownership = self.ownership.local();
        let mut local = 0u64;
        let exact = self.max_playouts.is_some() || self.max_visits.is_some();
        while !self.stop.load(Relaxed) {
            // The root's visits count the kept tree's: a tree that already has them all needs
            // no playout, once the ownership has its own.
            if self
                .max_visits
                .is_some_and(|m| self.tree.root().visits() as u64 >= m)
                && self.done.load(Relaxed) >= self.ownership_floor
            {
                self.stop.store(true, Relaxed);
                break;
            }
            run_one(self.tree, self.root, &mut s, &mut ownership);
            local += 1;
            // Count every playout where a budget must be met exactly; otherwise publish the
            // count in batches, off the shared cache line's hot path.
            let total = if exact || local.is_multiple_of(32) {
                let batch = if exact { 1 } else { 32 };
                self.done.fetch_add(batch, Relaxed) + batch
            } else {
                0
            };
            if self.max_playouts.is_some_and(|m| total >= m) {
                self.stop.store(true, Relaxed);
            }
            if local.is_multiple_of(SharedOwnership::BATCH) {
                self.ownership.absorb(&mut ownership);
            }
            if local.is_multiple_of(32) && index == 0 {
                let elapsed = self.start.elapsed();
                let over = self.max_time.is_some_and(|t| elapsed >= t)
                    && !(self.extended.is_some_and(|x| elapsed < x) && unclear(self.tree));
                if over
                    || (self.early_stop
                        && decided(
                            self.tree,
                            total,
                            elapsed,
                            (self.max_playouts, self.max_visits),
                            self.max_time,
                        ))
                {
                    self.stop.store(true, Relaxed);
                }
            }
        }
        if !exact {
            self.done.fetch_add(local % 32, Relaxed);
        }
        self.ownership.absorb(&mut ownership);
    }

    /// A snapshot of the search so far.
    fn snapshot(&self) -> Analysis {
        let board = &self.root.board;
        analysis::snapshot(
            self.tree,
            board.size(),
            self.root.color,
            self.root.extra_komi,
            self.done.load(Relaxed),
            &analysis::OwnershipView {
                playouts: self.ownership.playouts(),
                black: self.ownership.values(board),
                stdev: self.ownership.stdev(board),
                by_move: self.ownership.by_move(board),
                score_stdev: self.ownership.margin_stdev(),
                move_score_stdevs: self.ownership.move_margin_stdevs(),
                score_median: self.ownership.median_margin(),
                move_score_medians: self.ownership.move_median_margins(),
            },
            self.ownership.mean_margin(),
        )
    }
}

/// What one search found.
pub(super) struct Outcome {
    /// The most visited root move (a pass when the root has none).
    pub(super) best: Move,
    pub(super) report: Report,
    pub(super) analysis: Analysis,
    /// Ownership at the end of the search's playouts (+1 Black, −1 White, `Board::points`
    /// order).
    pub(super) ownership: Vec<f32>,
}

/// Runs searches: the worker pool, built once per thread count, and the tree kept from the
/// last search for the next.
#[derive(Default)]
pub(super) struct Runner {
    pub(super) kept: Option<Kept>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Runner {
    /// Forgets the kept tree (new game, or a position set up from outside).
    pub(super) fn forget(&mut self) {
        self.kept = None;
    }

    /// Fits the kept tree into `capacity` nodes at once, so that a smaller memory budget holds
    /// from the moment it is set, not from the next search.
    pub(super) fn fit_kept(&mut self, capacity: usize) {
        if let Some(kept) = self.kept.take() {
            self.kept = Some(Kept {
                tree: kept.tree.with_capacity(capacity),
                ..kept
            });
        }
    }

    /// The worker pool of `threads` workers (at least one), built once per thread count.
    pub(super) fn pool(&mut self, threads: usize) -> Arc<rayon::ThreadPool> {
        let threads = threads.max(1);
        match &self.pool {
            Some(p) if p.current_num_threads() == threads => p.clone(),
            _ => {
                let p = Arc::new(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .expect("thread pool"),
                );
                self.pool = Some(p.clone());
                p
            }
        }
    }

    /// Runs a search from `root` (the game's position) under `config`. The calling thread
    /// watches the controller while the pool's workers search.
    pub(super) fn search(
        &mut self,
        config: &Config,
        game: &Game,
        root: Root,
        budget: Budget,
        watch: &mut Watch,
    ) -> Outcome {
        let (max_playouts, max_time) = (budget.playouts, budget.time);
        let start = Instant::now();
        let root = root.with_score_weight(config.score_weight);
        let capacity = Tree::capacity_for(config.max_memory_mb);
        // A tree kept at this very position brings the ownership of its playouts along.
        let mut carried = match &mut self.kept {
            Some(k)
                if !watch.ownership_detail
                    && k.serves(root.extra_komi, root.filters.given())
                    && k.extra_komi == root.extra_komi
                    && k.to_move == root.color
                    && game.hash_moves_ago(0) == Some(k.hash) =>
            {
                // Sums kept with the detail would make every later search pay for it.
                k.ownership.take().filter(|o| !o.is_detailed())
            }
            _ => None,
        };
        let tree = match &self.kept {
            // The detailed ownership is over this search's playouts, each root move's through
            // that move: the visits a kept tree already has would show without it.
            Some(_) if watch.ownership_detail => {
                self.kept = None;
                Tree::new(capacity)
            }
            Some(k) if !k.serves(root.extra_komi, root.filters.given()) => {
                self.kept = None;
                Tree::new(capacity)
            }
            _ => self.reuse_tree(game, root.color, capacity),
        };
        // The root's children must be exactly this move's legal moves: rebuild them if the kept
        // tree's differ (e.g. cleanup excludes passing).
        let tree = if tree.root().is_expanded() && !same_moves(&tree, &root.root_moves) {
            // The old tree goes before the new one takes memory.
            drop(tree);
            carried = None;
            Tree::new(capacity)
        } else {
            tree
        };
        let seed = config
            .seed
            .unwrap_or_else(|| fastrand::u64(..))
            .wrapping_add(game.move_number() as u64 * 0x9E37_79B9);
        let ownership = carried.unwrap_or_else(|| {
            SharedOwnership::new(
                root.root_moves.len(),
                watch.ownership_detail,
                root.board.size() * root.board.size(),
            )
        });
        let ownership_floor = budget
            .visits
            .map_or(0, |m| m.min(OWNERSHIP_FLOOR))
            .saturating_sub(ownership.playouts());
        let run = Run {
            tree: &tree,
            root: &root,
            stop: AtomicBool::new(false),
            done: AtomicU64::new(0),
            ownership,
            ownership_floor,
            max_playouts,
            max_visits: budget.visits,
            max_time,
            extended: budget.extended,
            early_stop: budget.early_stop,
            start,
            seed,
        };
        let pool = self.pool(config.threads);
        pool.in_place_scope(|scope| {
            for index in 0..pool.current_num_threads() {
                let run = &run;
                scope.spawn(move |_| run.work(index));
            }
            let mut next_report = watch.progress.as_ref().map(|(every, _)| start + *every);
            while !run.stop.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
                let interrupted =
                    run.done.load(Relaxed) >= watch.min_playouts && (watch.interrupted)();
                // A search without a budget (analysis, pondering) ends when told to: once its
                // tree can grow no more, simulations go on from the leaves.
                if interrupted {
                    run.stop.store(true, Relaxed);
                    break;
                }
                if let (Some(at), Some((every, report))) = (next_report, watch.progress.as_mut()) {
                    let now = Instant::now();
                    if now >= at {
                        report(&run.snapshot());
                        next_report = Some((at + *every).max(now));
                    }
                }
            }
        });
        let playouts = run.done.load(Relaxed);
        let analysis = run.snapshot();
        let mut ranked: Vec<(Move, u32, f64)> = tree
            .children(Tree::ROOT)
            .map(|c| {
                let n = tree.node(c);
                let s = n.stats();
                (
                    n.mv(),
                    s.visits,
                    s.mean()
                        .unwrap_or(s.prior_value / s.prior_visits.max(1) as f64),
                )
            })
            .collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        let best = ranked.first().map_or(Move::Pass, |r| r.0);
        let report = Report {
            playouts,
            seconds: start.elapsed().as_secs_f64(),
            value: ranked.first().map_or(0.5, |r| r.2),
            moves: ranked,
            mean_margin: run.ownership.mean_margin() + root.extra_komi.as_f64(),
            median_margin: run
                .ownership
                .median_margin()
                .unwrap_or_else(|| run.ownership.mean_margin())
                + root.extra_komi.as_f64(),
        };
        let ownership = run.ownership.values(&root.board);
        let shared_ownership = run.ownership;
        log::info!(
            "{} playouts in {:.2}s ({:.0}/s), {} nodes, best {:?} value {:.3}",
            playouts,
            report.seconds,
            playouts as f64 / report.seconds.max(1e-9),
            tree.nodes(),
            best,
            report.value
        );
        // Keep the tree for the next search (not in reproducible mode, where the same position
        // must give the same move whatever came before).
        self.kept = config.seed.is_none().then(|| Kept {
            tree,
            hash: root.board.hash(),
            to_move: root.color,
            extra_komi: root.extra_komi,
            filters: root.filters.given().to_vec(),
            ownership: Some(shared_ownership),
        });
        Outcome {
            best,
            report,
            analysis,
            ownership,
        }
    }

    /// The kept tree's subtree for this position, if the game went on from the kept root by at
    /// most two moves that the tree has explored (or stands at the kept root), else a new tree.
    pub(super) fn reuse_tree(&mut self, game: &Game, color: Color, capacity: usize) -> Tree {
        let Some(kept) = self.kept.take() else {
            return Tree::new(capacity);
        };

        // The last two moves only: a copy of the whole record at every search would make a
        // review of a long record quadratic.
        let mut moves: Vec<_> = game.moves().rev().take(2).collect();
        moves.reverse();
        for k in 0..=2usize.min(moves.len()) {
            if game.hash_moves_ago(k) != Some(kept.hash) {
                continue;
            }
            let since = &moves[moves.len() - k..];
            // The moves since must alternate from the kept root's side to move, and leave
            // `color` to move.
            let mut side = kept.to_move;
            if since.iter().any(|m| {
                let ok = m.color == side;
                side = side.opponent();
                !ok
            }) || side != color
            {
                continue;
            }
            if k == 0 {
                return kept.tree.with_capacity(capacity);
            }
            let mut node = Some(Tree::ROOT);
            for m in since {
                node = node.and_then(|n| kept.tree.child_by_move(n, m.mv));
            }
            if let Some(n) = node {
                return kept.tree.into_subtree(n, capacity);
            }
        }
        drop(kept);
        Tree::new(capacity)
    }
}

/// Whether the tree's root children are exactly `moves`.
pub(super) fn same_moves(tree: &Tree, moves: &[Move]) -> bool {
    let kids: Vec<Move> = tree
        .children(Tree::ROOT)
        .map(|c| tree.node(c).mv())
        .collect();
    kids.len() == moves.len() && moves.iter().all(|m| kids.contains(m))
}

/// Whether the search has not settled on a move: the runner-up has more than half the visits of
/// the most visited root move, or a better value with at least a fifth of its visits.
fn unclear(tree: &Tree) -> bool {
    let mut best: Option<(u32, f64)> = None;
    let mut second: Option<(u32, f64)> = None;
    for c in tree.children(Tree::ROOT) {
        let s = tree.node(c).stats();
        let entry = (s.visits, s.mean().unwrap_or(0.0));
        if best.is_none_or(|b| entry.0 > b.0) {
            second = best;
            best = Some(entry);
        } else if second.is_none_or(|b| entry.0 > b.0) {
            second = Some(entry);
        }
    }
    match (best, second) {
        (Some(b), Some(s)) => 2 * s.0 > b.0 || (5 * s.0 >= b.0 && s.1 > b.1),
        _ => false,
    }
}

/// Whether the best root move can no longer be overtaken in the budget left.
fn decided(
    tree: &Tree,
    done: u64,
    elapsed: Duration,
    (max_playouts, max_visits): (Option<u64>, Option<u64>),
    max_time: Option<Duration>,
) -> bool {
    if done < 500 {
        return false;
    }
    let mut visits: Vec<u32> = tree
        .children(Tree::ROOT)
        .map(|c| tree.node(c).visits())
        .collect();
    if visits.len() < 2 {
        return true;
    }
    visits.sort_unstable_by(|a, b| b.cmp(a));
    let lead = (visits[0] - visits[1]) as f64;
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-6);
    let mut left = f64::INFINITY;
    if let Some(m) = max_playouts {
        left = left.min(m.saturating_sub(done) as f64);
    }
    if let Some(m) = max_visits {
        left = left.min(m.saturating_sub(tree.root().visits() as u64) as f64);
    }
    if let Some(t) = max_time {
        left = left.min((t.as_secs_f64() - elapsed.as_secs_f64()).max(0.0) * rate);
    }
    lead > left
}
