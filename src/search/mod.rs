//! The player: parallel Monte Carlo tree search over the board, asking the rules what is legal
//! and how a finished playout counts.
//!
//! One search: workers (rayon, `Config::threads`) share one [`tree::Tree`]; each repeatedly
//! descends from the root by MC-RAVE selection (node values blended with all-moves-as-first
//! statistics, priors as virtual experience), expands a leaf that has been visited enough,
//! finishes the game with the heavy [`policy`], counts it under the rules (area; for territory
//! rules the area margin corrected by the stones each side played, which equals the territory
//! margin), and backs the result up the path and into the AMAF statistics. Values mix the win
//! (1, ½ for a draw, 0) with a small share of the margin, so that a won game is still played for
//! points: no needless moves inside one's own territory, no pass while a point is open.
//!
//! Superko is checked at the root only (tree and playouts use the board's basic ko), as in
//! every fast engine; the root's candidate moves are exactly the game's legal moves.

pub mod analysis;
pub mod playout;
pub mod policy;
pub mod time;
pub mod tree;

use crate::board::{Board, Color, Move, Point, CELLS};
use crate::game::Game;
use crate::rules::{Rules, Scoring};
use crate::score;
use analysis::Filters;
pub use analysis::{Analysis, MoveFilter, MoveInfo, Watch};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use time::Clock;
use tree::{NewChild, Tree};

/// How the player searches.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads sharing the tree.
    pub threads: usize,
    /// Playouts per move (when set, and no clock says otherwise).
    pub playouts: Option<u64>,
    /// Thinking time per move (when set, and no clock says otherwise).
    pub time: Option<Duration>,
    /// Seed for reproducible searches (with one thread and a playout budget).
    pub seed: Option<u64>,
    /// Win rate below which the player resigns; `None` never resigns.
    pub resign: Option<f64>,
    /// Memory budget for the tree, in megabytes.
    pub max_memory_mb: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            playouts: None,
            time: None,
            seed: None,
            resign: Some(0.1),
            max_memory_mb: 1024,
        }
    }
}

/// Thinking time per move when neither the configuration nor a clock sets one (Sabaki sends no
/// time commands).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

/// Playouts to run for an ownership estimate (dead stones, seki, scoring).
pub const OWNERSHIP_PLAYOUTS: u64 = 2000;

/// What the player decides to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// A summary of the last search, for logs and analysis.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub playouts: u64,
    pub seconds: f64,
    /// Root moves by visits: (move, visits, mean value for the mover).
    pub moves: Vec<(Move, u32, f64)>,
    /// Win-rate estimate of the chosen move for the side that moved.
    pub value: f64,
    /// Black's mean margin over the playouts, in points, komi and handicap compensation
    /// included (territory rules: the territory margin).
    pub mean_margin: f64,
}

/// The tree kept between searches, and the position it was built for.
/// The whole tree is kept, uncopied, so that nothing is spent after the search's deadline;
/// the next search takes the subtree of the moves actually played since (up to two: ours and
/// the reply, or the reply after pondering) in one copy, within its own time.
struct Kept {
    tree: Tree,
    /// The root position's hash and side to move.
    hash: u64,
    to_move: Color,
    /// What the values in the tree were searched under besides the position: the dynamic komi
    /// and the controller's move filters. A search under other terms starts afresh.
    extra_komi2: i32,
    filters: Vec<MoveFilter>,
}

impl Kept {
    /// Whether a search with this dynamic komi and these filters may build on the tree: same
    /// filters, and the same komi or (in a handicap game) one a point or so away, as the
    /// dynamic komi shrinks by about that much a move.
    fn serves(&self, extra_komi2: i32, filters: &[MoveFilter]) -> bool {
        let komi_close = if self.extra_komi2 == 0 || extra_komi2 == 0 {
            self.extra_komi2 == extra_komi2
        } else {
            (self.extra_komi2 - extra_komi2).abs() <= 4
        };
        komi_close && self.filters == filters
    }
}

/// The engine's player: configuration, clock, and the tree kept for the next move.
pub struct Player {
    config: Config,
    clock: Clock,
    kept: Option<Kept>,
    /// Searches in a row, per colour, whose best value was below the resign threshold.
    low_value_streak: [u32; 2],
    report: Report,
    /// The last search's view for analysis.
    analysis: Analysis,
    /// Ownership from the last search or estimate: +1 Black, −1 White, per `Board::points`.
    ownership: Vec<f32>,
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// Everything a worker needs to know about the root, read-only during a search.
struct Root {
    board: Board,
    color: Color,
    rules: Rules,
    /// Komi plus handicap compensation, in half points, added to White.
    compensation2: i32,
    /// Territory rules: stones Black has played minus stones White has (setup and handicap
    /// included) at the root; the playout adds its own.
    stone_balance: i32,
    move_number: usize,
    passes: u8,
    expand_at: u32,
    equivalence: f64,
    /// The root's legal moves: its children.
    root_moves: Vec<Move>,
    /// Stones counted as dead when a line ends with two passes in the tree: the colour of the
    /// dead stone on each point (so a stone played there later is not lifted); empty: all
    /// stones alive, the count as the board stands.
    dead: Vec<Option<Color>>,
    /// Whether the root is in the pre-judgement opening: colours are not assigned yet, so a
    /// placement is worth what it leaves for both, a close game (the predictions then set the
    /// threshold), not a lead for one colour.
    balance: bool,
    /// Dynamic komi (half points to White) the search plays by in a handicap game, on top of
    /// `compensation2`; taken out again of the scores it shows.
    extra_komi2: i32,
    /// Moves the controller asked the search to avoid or keep to near the root.
    filters: Filters,
}

/// Scratch space of one worker.
struct Scratch {
    rng: fastrand::Rng,
    path: Vec<u32>,
    /// For AMAF: per point, the generation, colour and move index of the first play there.
    first_gen: Vec<u32>,
    first_color: Vec<u8>,
    first_index: Vec<u16>,
    generation: u32,
}

impl Scratch {
    fn new(seed: u64) -> Scratch {
        Scratch {
            rng: fastrand::Rng::with_seed(seed),
            path: Vec::with_capacity(64),
            first_gen: vec![0; CELLS],
            first_color: vec![0; CELLS],
            first_index: vec![0; CELLS],
            generation: 0,
        }
    }

    #[inline]
    fn note_first(&mut self, p: Point, c: Color, index: usize) {
        let i = p.idx();
        if self.first_gen[i] != self.generation {
            self.first_gen[i] = self.generation;
            self.first_color[i] = c as u8;
            self.first_index[i] = index.min(u16::MAX as usize) as u16;
        }
    }
}

/// Per-point ownership sums over playouts. Each worker keeps its own (no shared cache lines on
/// the hot path); they are added up when the search ends.
#[derive(Clone)]
struct OwnershipSums {
    sums: Vec<i32>,
    playouts: u64,
    /// Black's margins in half points, compensation included, summed over the playouts.
    margin2_sum: i64,
}

impl OwnershipSums {
    fn new() -> OwnershipSums {
        OwnershipSums {
            sums: vec![0; CELLS],
            playouts: 0,
            margin2_sum: 0,
        }
    }

    #[inline]
    /// Adds a finished board's owners and returns their sum: Black's area minus White's, the
    /// same count as `playout::area_margin`, so a playout's end is scanned once.
    fn add(&mut self, board: &Board) -> i32 {
        let mut area = 0;
        for p in board.points() {
            let o = owner_of(board, p);
            self.sums[p.idx()] += o;
            area += o;
        }
        self.playouts += 1;
        area
    }

    fn merge(parts: Vec<OwnershipSums>) -> OwnershipSums {
        let mut total = OwnershipSums::new();
        for part in parts {
            for (t, v) in total.sums.iter_mut().zip(part.sums) {
                *t += v;
            }
            total.playouts += part.playouts;
            total.margin2_sum += part.margin2_sum;
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

/// The sum of all workers' ownership, which each pours its own into every few hundred playouts,
/// so that a snapshot taken during the search sees every worker's share.
struct SharedOwnership {
    sums: Vec<AtomicI64>,
    playouts: AtomicU64,
    margin2_sum: AtomicI64,
}

impl SharedOwnership {
    /// Playouts a worker keeps to itself before pouring them in.
    const BATCH: u64 = 256;

    fn new() -> SharedOwnership {
        SharedOwnership {
            sums: (0..CELLS).map(|_| AtomicI64::new(0)).collect(),
            playouts: AtomicU64::new(0),
            margin2_sum: AtomicI64::new(0),
        }
    }

    /// Moves a worker's sums in, leaving them empty.
    fn absorb(&self, local: &mut OwnershipSums) {
        for (shared, v) in self.sums.iter().zip(local.sums.iter_mut()) {
            if *v != 0 {
                shared.fetch_add(*v as i64, Relaxed);
                *v = 0;
            }
        }
        self.playouts.fetch_add(local.playouts, Relaxed);
        self.margin2_sum.fetch_add(local.margin2_sum, Relaxed);
        local.playouts = 0;
        local.margin2_sum = 0;
    }

    fn values(&self, board: &Board) -> Vec<f32> {
        let n = self.playouts.load(Relaxed).max(1) as f32;
        board
            .points()
            .map(|p| self.sums[p.idx()].load(Relaxed) as f32 / n)
            .collect()
    }

    /// Black's mean margin in half points, the search's own komi included.
    fn mean_margin2(&self) -> f64 {
        self.margin2_sum.load(Relaxed) as f64 / self.playouts.load(Relaxed).max(1) as f64
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
    max_time: Option<Duration>,
    early_stop: bool,
    start: Instant,
    seed: u64,
}

impl Run<'_> {
    /// One worker: simulations until the stop flag. Worker 0 also watches the clock and the
    /// early stop, between its own playouts, so that a one-thread search with a playout budget
    /// is reproducible.
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
        let mut s = Scratch::new(self.seed.wrapping_add(index as u64 * 7919));
        let mut ownership = OwnershipSums::new();
        let mut local = 0u64;
        while !self.stop.load(Relaxed) {
            run_one(self.tree, self.root, &mut s, &mut ownership);
            local += 1;
            // Count every playout where a budget must be met exactly; otherwise publish the
            // count in batches, off the shared cache line's hot path.
            let total = if self.max_playouts.is_some() || local.is_multiple_of(32) {
                let batch = if self.max_playouts.is_some() { 1 } else { 32 };
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
                if self.max_time.is_some_and(|t| elapsed >= t)
                    || (self.early_stop
                        && decided(self.tree, total, elapsed, self.max_playouts, self.max_time))
                {
                    self.stop.store(true, Relaxed);
                }
            }
        }
        if self.max_playouts.is_none() {
            self.done.fetch_add(local % 32, Relaxed);
        }
        self.ownership.absorb(&mut ownership);
    }

    /// A snapshot of the search so far.
    fn snapshot(&self) -> Analysis {
        analysis::snapshot(
            self.tree,
            self.root.color,
            self.root.extra_komi2 as i64,
            self.done.load(Relaxed),
            &self.ownership.values(&self.root.board),
            self.ownership.mean_margin2(),
        )
    }
}

/// Dynamic komi for a handicap game: half points the search gives White on top of the real
/// komi, about the handicap's worth at first and shrinking linearly to nothing by move 200 on
/// 19×19 (45 on 9×9). Without it, the side giving the handicap sees every move lose at first
/// and plays (or resigns) at random, and the side receiving it sees every move win and plays
/// slack; with it, both play for a margin that they can still change.
pub fn handicap_komi2(game: &Game) -> i32 {
    let stones = game.handicap().len() as f64;
    if stones == 0.0 {
        return 0;
    }
    let size = game.board().size() as f64;
    let per_stone = 7.0 * size / 19.0;
    let horizon = 0.55 * size * size;
    let left = 1.0 - game.move_number() as f64 / horizon;
    if left <= 0.0 {
        return 0;
    }
    (2.0 * per_stone * stones * left).round() as i32
}

/// +1 if `p` is Black's at the end of a playout, −1 if White's, 0 otherwise.
#[inline]
fn owner_of(board: &Board, p: Point) -> i32 {
    match board.color(p) {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => {
            let (mut b, mut w) = (false, false);
            for n in board.neighbours(p) {
                match board.color(n) {
                    Some(Color::Black) => b = true,
                    Some(Color::White) => w = true,
                    None => {}
                }
            }
            b as i32 - w as i32
        }
    }
}

impl Root {
    fn new(
        game: &Game,
        color: Color,
        root_moves: Vec<Move>,
        dead: &[Point],
        extra_komi2: i32,
        filters: &[MoveFilter],
    ) -> Root {
        let rules = *game.rules();
        let filters = Filters::new(filters);
        // The root keeps to the filters too, unless they leave it nothing to play.
        let filtered: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|&mv| filters.permits(color, mv, 0))
            .collect();
        let root_moves = if filtered.is_empty() {
            root_moves
        } else {
            filtered
        };
        let mut compensation2 = game.komi().0 + extra_komi2;
        if rules.handicap_compensation {
            compensation2 += 2 * game.handicap().len() as i32;
        }
        let stone_balance = if rules.scoring == Scoring::Territory {
            let on_board = |c| {
                game.board()
                    .points()
                    .filter(|&p| game.board().color(p) == Some(c))
                    .count() as i32
            };
            // Stones played = stones on the board + stones lost as prisoners.
            (on_board(Color::Black) + game.prisoners(Color::White) as i32)
                - (on_board(Color::White) + game.prisoners(Color::Black) as i32)
        } else {
            0
        };
        let size = game.board().size();
        Root {
            board: game.board().clone(),
            color,
            rules,
            compensation2,
            stone_balance,
            move_number: game.move_number(),
            passes: game.consecutive_passes(),
            expand_at: 1 + size as u32 / 4,
            equivalence: if size <= 9 { 3000.0 } else { 4000.0 },
            root_moves,
            balance: rules.komi_from_predictions && rules.in_opening(game.move_number()),
            extra_komi2,
            filters,
            dead: if dead.is_empty() {
                Vec::new()
            } else {
                let mut mask = vec![None; CELLS];
                for &p in dead {
                    mask[p.idx()] = game.board().color(p);
                }
                mask
            },
        }
    }

    /// Black's value of a line that ended with two passes in the tree: the board as it stands,
    /// with the root's surely dead stones lifted.
    fn terminal_value(&self, board: &Board, stone_diff: i32) -> (f64, i32) {
        let area = score::area_margin_with_dead(board, &self.dead);
        self.value_of_area(board, area, stone_diff)
    }

    /// Black's value of a finished line — the win (½ for a draw) and a small share of the
    /// margin — and Black's margin in half points, compensation included.
    #[inline]
    fn value_of_area(&self, board: &Board, area: i32, stone_diff: i32) -> (f64, i32) {
        let mut margin2 = 2 * area - self.compensation2;
        if self.rules.scoring == Scoring::Territory {
            margin2 -= 2 * (self.stone_balance + stone_diff);
        }
        let win = match margin2.signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        };
        let scale = 4.0 * board.size() as f64;
        let points = (margin2 as f64 / scale).clamp(-1.0, 1.0);
        (0.9 * win + 0.1 * (0.5 + 0.5 * points), margin2)
    }

    /// The children to create under a node where `color` moves with `board`, `depth` plies below
    /// the root.
    fn children(&self, board: &Board, color: Color, depth: usize, at_root: bool) -> Vec<NewChild> {
        let mut kids = Vec::new();
        let mk = |mv: Move| {
            let p = policy::prior(board, color, mv);
            NewChild {
                mv,
                prior_visits: p.visits,
                prior_value: p.value,
            }
        };
        if at_root {
            kids.extend(self.root_moves.iter().map(|&mv| mk(mv)));
            return kids;
        }
        let filtered = !self.filters.is_empty();
        for &p in board.empty_points() {
            if policy::worth_trying(board, p, color)
                && (!filtered || self.filters.permits(color, Move::Play(p), depth))
            {
                kids.push(mk(Move::Play(p)));
            }
        }
        if self.rules.pass_allowed(self.move_number + depth)
            && (!filtered || self.filters.permits(color, Move::Pass, depth))
        {
            kids.push(mk(Move::Pass));
        }
        kids
    }
}

/// MC-RAVE selection: the child with the best blend of its value and its AMAF value.
#[inline]
fn select(tree: &Tree, node: u32, equivalence: f64) -> Option<u32> {
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for c in tree.children(node) {
        let s = tree.node(c).stats();
        let n = s.visits as f64 + s.prior_visits as f64;
        let w = s.value + s.prior_value;
        let q = if n > 0.0 { w / n } else { 1.0 };
        let score = if s.amaf_visits > 0 {
            let an = s.amaf_visits as f64;
            let qa = s.amaf_value / an;
            let beta = an / (an + n + n * an / equivalence);
            (1.0 - beta) * q + beta * qa
        } else {
            q
        };
        if score > best_score {
            best_score = score;
            best = Some(c);
        }
    }
    best
}

impl Player {
    pub fn new(config: Config) -> Player {
        Player {
            config,
            clock: Clock::default(),
            kept: None,
            low_value_streak: [0; 2],
            report: Report::default(),
            analysis: Analysis::default(),
            ownership: Vec::new(),
            pool: None,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The last search's summary.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The last search's view for analysis (empty when the last move was decided without one).
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// Ownership from the last search or estimate (+1 Black, −1 White), in `Board::points` order;
    /// empty before any.
    pub fn ownership(&self) -> &[f32] {
        &self.ownership
    }

    /// Forgets the kept tree (new game, or a position set up from outside).
    pub fn forget(&mut self) {
        self.kept = None;
        self.low_value_streak = [0; 2];
    }

    /// The worker pool, built once per thread count.
    fn pool(&mut self) -> std::sync::Arc<rayon::ThreadPool> {
        let threads = self.config.threads.max(1);
        match &self.pool {
            Some(p) if p.current_num_threads() == threads => p.clone(),
            _ => {
                let p = std::sync::Arc::new(
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

    /// The legal root moves for `color`: the game's own legality (superko included), minus own
    /// eye fills.
    fn root_moves(game: &Game, color: Color, allow_pass: bool) -> Vec<Move> {
        let board = game.board();
        let mut moves: Vec<Move> = board
            .empty_points()
            .iter()
            .map(|&p| Move::Play(p))
            .filter(|&mv| game.is_legal(color, mv))
            .collect();
        moves.sort_by_key(|m| match m {
            Move::Play(p) => p.0,
            Move::Pass => 0,
        });
        // Under basic-ko rules a stone may legally recreate an earlier position (a cycle the
        // players may call no result); tengen never starts one while it has another move, a
        // pass included.
        if !game.rules().superko() {
            let fresh: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    game.check(color, mv, crate::board::Removal::Opponent)
                        .is_ok_and(|after| game.times_seen(after.hash()) == 0)
                })
                .collect();
            if !fresh.is_empty() || (allow_pass && game.is_legal(color, Move::Pass)) {
                moves = fresh;
            }
        }
        let no_eyes: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| !matches!(mv, Move::Play(p) if board.is_eye(p, color)))
            .collect();
        let pass = allow_pass && game.is_legal(color, Move::Pass);
        // Filling an own eye is never better than passing; only where passing is not allowed
        // (the pre-judgement opening) may it be the least bad move.
        let mut moves = if no_eyes.is_empty() && !pass {
            moves
        } else {
            no_eyes
        };
        if pass {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Chooses a move for `color` and reports it; the caller plays it. With `cleanup` (KGS's
    /// `kgs-genmove_cleanup`), dead opponent stones are captured before passing and the player
    /// never resigns.
    pub fn genmove(&mut self, game: &Game, color: Color, cleanup: bool) -> Decision {
        self.genmove_watched(game, color, cleanup, &[], &mut Watch::none())
    }

    /// [`Player::genmove`], with a controller watching: an interrupt ends the search with the
    /// best move so far, and progress reports show the search as it goes; `filters` keep the
    /// search away from (or to) some moves near the root.
    pub fn genmove_watched(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        filters: &[MoveFilter],
        watch: &mut Watch,
    ) -> Decision {
        let start = Instant::now();
        self.analysis = Analysis::default();
        let limit = self.limits(game, color);
        let board = game.board();
        let opponent_passed =
            matches!(game.moves().last(), Some(m) if m.mv == Move::Pass && m.color != color);
        let mut allow_pass = true;
        // Stones counted dead where a line ends with two passes in the tree: none in cleanup
        // (the point is to capture them), and only sure ones otherwise.
        let mut sure_dead = Vec::new();
        if cleanup {
            let dead = self.dead_stones(game);
            allow_pass = !dead
                .iter()
                .any(|&p| board.color(p) == Some(color.opponent()));
        } else if opponent_passed && game.is_legal(color, Move::Pass) {
            // The opponent offers to end the game: accept if the position as it stands wins
            // with only the surely dead stones lifted (a disputed group is settled by play, not
            // by hope), once the dame that territory counting wants filled are filled.
            let own = self.estimate_ownership(game, OWNERSHIP_PLAYOUTS);
            sure_dead = dead_from_ownership(board, &own, SURELY_DEAD);
            let margin = score::count(game, &sure_dead).margin.0 .0;
            let wins = match color {
                Color::Black => margin > 0,
                Color::White => margin < 0,
            };
            if wins {
                let dead = dead_from_ownership(board, &own, DEAD);
                let dame = Self::dame_to_fill(game, color, &dead);
                self.finish_clock(color, start);
                return Decision::Play(dame.first().map_or(Move::Pass, |&p| Move::Play(p)));
            }
        } else if self.ownership.len() == board.size() * board.size() {
            // The last search's ownership is close enough to this position to say which
            // stones are surely dead.
            sure_dead = dead_from_ownership(board, &self.ownership, SURELY_DEAD);
        }
        let moves = Self::root_moves(game, color, allow_pass);
        let decision = match moves.as_slice() {
            [] => Decision::Play(Move::Pass),
            [only] => Decision::Play(*only),
            _ => {
                // The move's time counts from the start of genmove: what the ownership estimate
                // above took is no longer the search's.
                let (playouts, time) = limit;
                let time = time.map(|t| t.saturating_sub(start.elapsed()));
                let extra_komi2 = if cleanup { 0 } else { handicap_komi2(game) };
                let root = Root::new(game, color, moves, &sure_dead, extra_komi2, filters);
                let mut best = self.search(game, root, (playouts, time), true, watch);
                if best == Move::Pass && !cleanup && game.rules().scoring == Scoring::Territory {
                    // Under territory counting, dame are filled before passing (第9条).
                    let dead = self.dead_stones(game);
                    if let Some(&p) = Self::dame_to_fill(game, color, &dead).first() {
                        best = Move::Play(p);
                    }
                }
                let value = self.report.value;
                // Opening placements are valued by balance, not by winning: never resign there.
                // Nor while dynamic komi shapes the values of a handicap game: they are not the
                // real winning chances.
                let resign = !cleanup
                    && !game.in_opening()
                    && extra_komi2 == 0
                    && self.config.resign.is_some_and(|t| value < t);
                let streak = &mut self.low_value_streak[color.index()];
                *streak = if resign { *streak + 1 } else { 0 };
                if resign && *streak >= 2 && self.report.playouts >= 200 {
                    Decision::Resign
                } else {
                    Decision::Play(best)
                }
            }
        };
        self.finish_clock(color, start);
        decision
    }

    /// The dame `color` should fill before passing: none under area counting (they are worth
    /// nothing to wait for, and the search fills them for their point); under territory
    /// counting, the neutral points it can fill safely and legally, dead stones lifted.
    fn dame_to_fill(game: &Game, color: Color, dead: &[Point]) -> Vec<Point> {
        if game.rules().scoring != Scoring::Territory {
            return Vec::new();
        }
        let mut clean = game.board().clone();
        for &p in dead {
            clean.clear_stone(p);
        }
        score::fillable_dame(&clean, color)
            .into_iter()
            .filter(|&p| game.is_legal(color, Move::Play(p)))
            .collect()
    }

    fn finish_clock(&mut self, color: Color, start: Instant) {
        self.clock.record_move(color, start.elapsed());
    }

    /// The playout and time budget for this move.
    fn limits(&self, game: &Game, color: Color) -> (Option<u64>, Option<Duration>) {
        let moves_left = time::expected_moves_left(game.board().size(), game.move_number());
        match self.clock.allotment(color, moves_left) {
            Some(t) => (self.config.playouts, Some(t)),
            None => self.move_budget(),
        }
    }

    /// The configured budget of one move, without the clock: what an analysis on request
    /// (GoGui's analysis commands) spends.
    pub fn move_budget(&self) -> (Option<u64>, Option<Duration>) {
        match (self.config.playouts, self.config.time) {
            (None, None) => (None, Some(DEFAULT_MOVE_TIME)),
            other => other,
        }
    }

    /// Runs a search from `root` (the game's position); returns the most visited move. The
    /// calling thread watches the controller while the pool's workers search.
    fn search(
        &mut self,
        game: &Game,
        root: Root,
        (max_playouts, max_time): (Option<u64>, Option<Duration>),
        early_stop: bool,
        watch: &mut Watch,
    ) -> Move {
        let start = Instant::now();
        let capacity = Tree::capacity_for(self.config.max_memory_mb);
        let tree = match &self.kept {
            Some(k) if !k.serves(root.extra_komi2, root.filters.given()) => {
                self.kept = None;
                Tree::new(capacity)
            }
            _ => self.reuse_tree(game, root.color, capacity),
        };
        // The root's children must be exactly this move's legal moves: rebuild them if the kept
        // tree's differ (e.g. cleanup excludes passing).
        let tree = if tree.root().is_expanded() && !same_moves(&tree, &root.root_moves) {
            Tree::new(capacity)
        } else {
            tree
        };
        let seed = self
            .config
            .seed
            .unwrap_or_else(|| fastrand::u64(..))
            .wrapping_add(game.move_number() as u64 * 0x9E37_79B9);
        let run = Run {
            tree: &tree,
            root: &root,
            stop: AtomicBool::new(false),
            done: AtomicU64::new(0),
            ownership: SharedOwnership::new(),
            max_playouts,
            max_time,
            early_stop,
            start,
            seed,
        };
        let pool = self.pool();
        let unbounded = max_playouts.is_none() && max_time.is_none();
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
                // A search without a budget (analysis, pondering) ends when told to, or when
                // its tree can grow no more.
                if interrupted || (unbounded && tree.is_full()) {
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
        self.report = Report {
            playouts,
            seconds: start.elapsed().as_secs_f64(),
            value: ranked.first().map_or(0.5, |r| r.2),
            moves: ranked,
            mean_margin: (run.ownership.mean_margin2() + root.extra_komi2 as f64) / 2.0,
        };
        self.ownership = run.ownership.values(&root.board);
        self.analysis = analysis;
        log::info!(
            "{} playouts in {:.2}s ({:.0}/s), {} nodes, best {:?} value {:.3}",
            playouts,
            self.report.seconds,
            playouts as f64 / self.report.seconds.max(1e-9),
            tree.nodes(),
            best,
            self.report.value
        );
        // Keep the tree for the next search (not in reproducible mode, where the same position
        // must give the same move whatever came before).
        self.kept = self.config.seed.is_none().then(|| Kept {
            tree,
            hash: root.board.hash(),
            to_move: root.color,
            extra_komi2: root.extra_komi2,
            filters: root.filters.given().to_vec(),
        });
        best
    }

    /// Searches the position for `color` with the given budget and nothing else (no pass or
    /// resign shortcuts, no early stop, no clock): for analysis and benchmarks. Returns the
    /// search's report.
    pub fn analyse(
        &mut self,
        game: &Game,
        color: Color,
        playouts: Option<u64>,
        time: Option<Duration>,
    ) -> &Report {
        self.analyse_watched(game, color, (playouts, time), &[], &mut Watch::none());
        &self.report
    }

    /// Live analysis: searches the position for `color` (real komi, no shortcuts) until the
    /// budget is spent or the watch interrupts it — with neither budget, until interrupted or
    /// the tree is full — keeping to `filters`. Returns the final view.
    pub fn analyse_watched(
        &mut self,
        game: &Game,
        color: Color,
        limits: (Option<u64>, Option<Duration>),
        filters: &[MoveFilter],
        watch: &mut Watch,
    ) -> &Analysis {
        self.analysis = Analysis::default();
        let moves = Self::root_moves(game, color, true);
        if !moves.is_empty() {
            let root = Root::new(game, color, moves, &[], 0, filters);
            self.search(game, root, limits, false, watch);
        }
        &self.analysis
    }

    /// Pondering: searches the game's position, the opponent to move, on the opponent's time
    /// until `interrupted` says a command has come (or the tree is full), keeping the tree for
    /// the next `genmove`. The clock is not touched: this time is not ours.
    pub fn ponder(&mut self, game: &Game, interrupted: &dyn Fn() -> bool) {
        let color = game.to_move();
        let moves = Self::root_moves(game, color, true);
        if moves.len() < 2 || self.config.seed.is_some() {
            return;
        }
        let root = Root::new(game, color, moves, &[], handicap_komi2(game), &[]);
        let mut watch = Watch {
            interrupted,
            min_playouts: 0,
            progress: None,
        };
        self.search(game, root, (None, None), false, &mut watch);
    }

    /// The kept tree's subtree for this position, if the game went on from the kept root by at
    /// most two moves that the tree has explored (or stands at the kept root), else a new tree.
    fn reuse_tree(&mut self, game: &Game, color: Color, capacity: usize) -> Tree {
        let Some(kept) = self.kept.take() else {
            return Tree::new(capacity);
        };
        let moves: Vec<_> = game.moves().collect();
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
                return kept.tree;
            }
            let mut node = Some(Tree::ROOT);
            for m in since {
                node = node.and_then(|n| kept.tree.child_by_move(n, m.mv));
            }
            if let Some(n) = node {
                return kept.tree.subtree(n, capacity);
            }
        }
        Tree::new(capacity)
    }

    /// Ownership of every point from `playouts` heavy playouts of the position (`Board::points`
    /// order, +1 Black, −1 White); kept as the player's current ownership.
    pub fn estimate_ownership(&mut self, game: &Game, playouts: u64) -> Vec<f32> {
        let board = game.board().clone();
        let color = game.to_move();
        let seed = self.config.seed.unwrap_or(0x5EED) ^ board.hash();
        let threads = self.config.threads.max(1) as u64;
        let parts = self.pool().broadcast(|ctx| {
            let mut rng = fastrand::Rng::with_seed(seed.wrapping_add(ctx.index() as u64));
            let mut sums = OwnershipSums::new();
            // Each worker runs its own share, so the estimate is reproducible per thread count.
            let share = playouts / threads + u64::from((ctx.index() as u64) < playouts % threads);
            for _ in 0..share {
                let mut b = board.clone();
                playout::heavy_playout(&mut b, color, &mut rng);
                sums.add(&b);
            }
            sums
        });
        let sums = OwnershipSums::merge(parts);
        self.ownership = sums.values(&board);
        self.ownership.clone()
    }

    /// The stones the player judges dead in the game's position: whole groups whose points the
    /// opponent owns in most playouts.
    pub fn dead_stones(&mut self, game: &Game) -> Vec<Point> {
        let own = self.estimate_ownership(game, OWNERSHIP_PLAYOUTS);
        let mut dead = dead_from_ownership(game.board(), &own, DEAD);
        dead.extend(capturable_at_once(game, &dead));
        dead.sort();
        dead.dedup();
        dead
    }

    /// The stones the player judges to be in seki (after lifting the dead ones).
    pub fn seki_stones(&mut self, game: &Game) -> Vec<Point> {
        let dead = self.dead_stones(game);
        let mut b = game.board().clone();
        for &p in &dead {
            b.clear_stone(p);
        }
        score::seki_stones(&b)
    }
}

/// Ownership beyond which the opponent's stones count as dead: owned by the other side in more
/// than 70% of the playouts. The judgement of `final_score` and `final_status_list`.
pub const DEAD: f32 = 0.4;

/// Ownership beyond which stones are surely dead (90% of playouts): what the search may lift
/// when a line ends in two passes, and what it relies on to accept the opponent's pass.
pub const SURELY_DEAD: f32 = 0.8;

/// Dead stones from an ownership map: a group is dead when its stones' mean ownership is beyond
/// `threshold` toward the opponent, unless Benson's algorithm proves it alive.
pub fn dead_from_ownership(board: &Board, ownership: &[f32], threshold: f32) -> Vec<Point> {
    let index: std::collections::HashMap<Point, usize> =
        board.points().enumerate().map(|(i, p)| (p, i)).collect();
    let mut seen = vec![false; CELLS];
    // Groups alive whatever happens are never dead, whatever the playouts said.
    for p in score::unconditionally_alive(board) {
        seen[p.idx()] = true;
    }
    let mut dead = Vec::new();
    for p in board.points() {
        let Some(c) = board.color(p) else { continue };
        if seen[p.idx()] {
            continue;
        }
        let stones: Vec<Point> = board.group_stones(p).collect();
        let mean: f32 =
            stones.iter().map(|s| ownership[index[s]]).sum::<f32>() / stones.len() as f32;
        let for_owner = if c == Color::Black { mean } else { -mean };
        for &s in &stones {
            seen[s.idx()] = true;
        }
        if for_owner < -threshold {
            dead.extend(stones);
        }
    }
    dead.sort();
    dead
}

/// Groups in atari (not among `dead`) that the opponent can capture at once with a stone that
/// is not itself left in atari (no ko, no snapback). At the end of a game such a group is dead
/// whatever random playouts say: they leave the capture to chance when both sides have other
/// moves, and a group whose fate hangs on it then looks alive, even in "seki" with its
/// captor.
fn capturable_at_once(game: &Game, dead: &[Point]) -> Vec<Point> {
    let board = game.board();
    let mut found = Vec::new();
    let mut seen = vec![false; CELLS];
    for p in board.points() {
        let Some(c) = board.color(p) else { continue };
        let head = board.group_of(p);
        if seen[head.idx()] || dead.contains(&p) {
            continue;
        }
        seen[head.idx()] = true;
        let Some(lib) = board.atari_liberty(p) else {
            continue;
        };
        let captor = c.opponent();
        if !game.is_legal(captor, Move::Play(lib)) {
            continue;
        }
        let mut after = board.clone();
        after.play(lib, captor);
        if after.liberties(lib) >= 2 {
            found.extend(board.group_stones(p));
        }
    }
    found
}

fn same_moves(tree: &Tree, moves: &[Move]) -> bool {
    let kids: Vec<Move> = tree
        .children(Tree::ROOT)
        .map(|c| tree.node(c).mv())
        .collect();
    kids.len() == moves.len() && moves.iter().all(|m| kids.contains(m))
}

/// Whether the best root move can no longer be overtaken in the budget left.
fn decided(
    tree: &Tree,
    done: u64,
    elapsed: Duration,
    max_playouts: Option<u64>,
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
    if let Some(t) = max_time {
        left = left.min((t.as_secs_f64() - elapsed.as_secs_f64()).max(0.0) * rate);
    }
    lead > left
}

/// One simulation: descend, expand, play out, back up.
fn run_one(tree: &Tree, root: &Root, s: &mut Scratch, ownership: &mut OwnershipSums) {
    s.generation = s.generation.wrapping_add(1);
    if s.generation == 0 {
        s.first_gen.iter_mut().for_each(|g| *g = 0);
        s.generation = 1;
    }
    let mut board = root.board.clone();
    let mut color = root.color;
    let mut node = Tree::ROOT;
    s.path.clear();
    s.path.push(node);
    tree.node(node).add_visit();
    let mut depth = 0usize;
    let mut passes = root.passes;
    let mut stone_diff = 0i32;
    loop {
        let n = tree.node(node);
        if !n.is_expanded() {
            let ready = node == Tree::ROOT || n.visits() >= root.expand_at;
            if !(ready && !tree.is_full() && tree.try_begin_expand(node)) {
                break;
            }
            let kids = root.children(&board, color, depth, node == Tree::ROOT);
            if kids.is_empty() || !tree.finish_expand(node, &kids) {
                break;
            }
        }
        let Some(child) = select(tree, node, root.equivalence) else {
            break;
        };
        tree.node(child).add_visit();
        s.path.push(child);
        match tree.node(child).mv() {
            Move::Pass => {
                board.pass();
                passes += 1;
            }
            Move::Play(p) => {
                s.note_first(p, color, depth);
                board.play(p, color);
                stone_diff += if color == Color::Black { 1 } else { -1 };
                passes = 0;
            }
        }
        color = color.opponent();
        node = child;
        depth += 1;
        if passes >= 2 {
            break;
        }
    }
    let (black, margin2) = if passes >= 2 {
        ownership.add(&board);
        root.terminal_value(&board, stone_diff)
    } else {
        let stone_diff = playout_to_end(&mut board, color, depth, stone_diff, s);
        let area = ownership.add(&board);
        root.value_of_area(&board, area, stone_diff)
    };
    ownership.margin2_sum += margin2 as i64;
    if root.balance {
        // Both sides value the same thing: how close the game is.
        let scale = (root.board.size() * root.board.size()) as f64 / 2.0;
        let balance = 1.0 - (margin2.abs() as f64 / scale).min(1.0);
        back_up(tree, root, s, balance, true, margin2);
    } else {
        back_up(tree, root, s, black, false, margin2);
    }
}

/// Finishes the game with the heavy policy, noting first plays for AMAF; returns the stone
/// balance (stones Black played minus White's) including the playout's. A
/// playout in which one side has captured far more than the other stops there (mercy rule):
/// its outcome is no longer in doubt, and the rest would be wasted time.
fn playout_to_end(
    board: &mut Board,
    mut color: Color,
    depth: usize,
    mut stone_diff: i32,
    s: &mut Scratch,
) -> i32 {
    let mut index = depth;
    let cap = playout::move_cap(board.size());
    let mercy = playout::mercy_margin(board.size());
    let mut capture_balance = 0i32;
    let mut moves = 0;
    let mut playout_passes = 0;
    while playout_passes < 2 && moves < cap && capture_balance.abs() < mercy {
        match policy::playout_move(board, color, &mut s.rng) {
            Some(p) => {
                s.note_first(p, color, index);
                let out = board.play(p, color);
                let sign = if color == Color::Black { 1 } else { -1 };
                stone_diff += sign;
                capture_balance += sign * (out.captured as i32 - out.lost as i32);
                playout_passes = 0;
            }
            None => {
                board.pass();
                playout_passes += 1;
            }
        }
        moves += 1;
        index += 1;
        color = color.opponent();
    }
    stone_diff
}

/// Adds a simulation's value to the nodes of its path and to the AMAF statistics of their
/// children.
/// With `shared`, `black` is a value both sides hold (the opening's balance) rather than
/// Black's.
fn back_up(tree: &Tree, root: &Root, s: &Scratch, black: f64, shared: bool, margin2: i32) {
    // Black's win in halves, for analysis: the sign of the margin (in the opening, where
    // nobody has a colour yet, the shared balance stands in for it).
    let black_wins2 = if shared {
        (2.0 * black).round() as u32
    } else {
        (margin2.signum() + 1) as u32
    };
    // A node's value is for the player who made its move.
    for (d, &i) in s.path.iter().enumerate() {
        let mover = if d % 2 == 1 {
            root.color
        } else {
            root.color.opponent()
        };
        let v = if mover == Color::Black || shared {
            black
        } else {
            1.0 - black
        };
        tree.node(i).add_value(v);
        let wins2 = if mover == Color::Black || shared {
            black_wins2
        } else {
            2 - black_wins2
        };
        tree.node(i).add_outcome(wins2, margin2);
        // AMAF: children of this node whose move the child's mover played first, later on.
        let child_mover = mover.opponent();
        let cv = if shared { v } else { 1.0 - v };
        for c in tree.children(i) {
            if let Move::Play(p) = tree.node(c).mv() {
                let k = p.idx();
                if s.first_gen[k] == s.generation
                    && s.first_color[k] == child_mover as u8
                    && s.first_index[k] as usize >= d
                {
                    tree.node(c).add_amaf(cv);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_is_kept_across_our_move_and_the_reply() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            playouts: Some(3000),
            ..Config::default()
        });
        let Decision::Play(ours) = p.genmove(&g, Color::Black, false) else {
            panic!("no move");
        };
        g.play(Color::Black, ours).unwrap();
        // The reply the tree explored most.
        let kept = p.kept.as_ref().unwrap();
        let c = kept.tree.child_by_move(Tree::ROOT, ours).unwrap();
        let reply = kept
            .tree
            .children(c)
            .max_by_key(|&r| kept.tree.node(r).visits())
            .map(|r| kept.tree.node(r).mv())
            .unwrap();
        let expected = kept
            .tree
            .node(kept.tree.child_by_move(c, reply).unwrap())
            .visits();
        assert!(expected > 0);
        g.play(Color::White, reply).unwrap();
        let capacity = Tree::capacity_for(64);
        let t = p.reuse_tree(&g, Color::Black, capacity);
        assert_eq!(t.root().visits(), expected);
    }

    #[test]
    fn pondering_grows_the_tree_the_next_move_starts_from() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let e5 = Move::Play(g.board().point(4, 4));
        g.play(Color::Black, e5).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            playouts: Some(500),
            ..Config::default()
        });
        let until = Instant::now() + Duration::from_millis(300);
        p.ponder(&g, &|| Instant::now() >= until);
        let kept = p.kept.as_ref().expect("pondering keeps its tree");
        assert_eq!(kept.to_move, Color::White);
        assert!(kept.tree.root().visits() > 500, "pondered too little");
        // White answers with the reply pondering explored most: Black's search starts from
        // that subtree.
        let reply = kept
            .tree
            .children(Tree::ROOT)
            .max_by_key(|&c| kept.tree.node(c).visits())
            .unwrap();
        let (mv, visits) = (kept.tree.node(reply).mv(), kept.tree.node(reply).visits());
        g.play(Color::White, mv).unwrap();
        let t = p.reuse_tree(&g, Color::Black, Tree::capacity_for(64));
        assert_eq!(t.root().visits(), visits);
        assert!(visits > 0);
        // Its children are the root moves the next search wants, so it is not thrown away.
        assert!(same_moves(&t, &Player::root_moves(&g, Color::Black, true)));
    }

    #[test]
    fn a_tree_searched_under_other_terms_is_not_reused() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            ..Config::default()
        });
        let e5 = Move::Play(g.board().point(4, 4));
        let only_e5 = [MoveFilter {
            color: Color::White,
            moves: vec![e5],
            allow: true,
            until: 2,
        }];
        let mut none = Watch::none();
        p.analyse_watched(&g, Color::Black, (Some(1000), None), &only_e5, &mut none);
        assert_eq!(p.kept.as_ref().unwrap().tree.root().visits(), 1000);
        // The same filters build on it; none (or other ones) start afresh.
        p.analyse_watched(&g, Color::Black, (Some(300), None), &only_e5, &mut none);
        assert_eq!(p.kept.as_ref().unwrap().tree.root().visits(), 1300);
        p.analyse_watched(&g, Color::Black, (Some(300), None), &[], &mut none);
        assert_eq!(p.kept.as_ref().unwrap().tree.root().visits(), 300);
        // Dynamic komi: only a close one serves.
        let k = p.kept.as_ref().unwrap();
        assert!(k.serves(0, &[]) && !k.serves(20, &[]) && !k.serves(0, &only_e5));
    }

    #[test]
    fn an_interrupt_ends_a_search_after_its_minimum() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 2,
            ..Config::default()
        });
        let start = Instant::now();
        let mut watch = Watch {
            interrupted: &|| true,
            min_playouts: 200,
            progress: None,
        };
        let a = p
            .analyse_watched(
                &g,
                Color::Black,
                (None, Some(Duration::from_secs(60))),
                &[],
                &mut watch,
            )
            .clone();
        assert!(start.elapsed() < Duration::from_secs(30));
        assert!(a.playouts >= 200);
        assert!(a.moves[0].visits > 0 && !a.moves[0].pv.is_empty());
    }

    #[test]
    fn progress_reports_come_at_the_interval() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            ..Config::default()
        });
        let mut seen = Vec::new();
        let mut report = |a: &Analysis| seen.push(a.playouts);
        let mut watch = Watch {
            interrupted: &|| false,
            min_playouts: 0,
            progress: Some((Duration::from_millis(20), &mut report)),
        };
        p.analyse_watched(
            &g,
            Color::Black,
            (None, Some(Duration::from_millis(300))),
            &[],
            &mut watch,
        );
        assert!(seen.len() >= 3, "{:?}", seen);
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{:?}", seen);
    }

    #[test]
    fn handicap_komi_shrinks_to_nothing() {
        let mut g = Game::new(19, Rules::chinese()).unwrap();
        assert_eq!(handicap_komi2(&g), 0);
        let b = g.board().clone();
        g.place_handicap(&[
            b.point(3, 15),
            b.point(15, 3),
            b.point(3, 3),
            b.point(15, 15),
        ])
        .unwrap();
        // Four stones at 7 points each.
        assert_eq!(handicap_komi2(&g), 56);
        let mut last = 56;
        let mut color = Color::White;
        while g.move_number() < 199 {
            let moves = Player::root_moves(&g, color, false);
            g.play(color, moves.first().copied().unwrap_or(Move::Pass))
                .unwrap();
            color = color.opponent();
            let now = handicap_komi2(&g);
            assert!(now <= last);
            last = now;
        }
        assert_eq!(last, 0);
    }

    #[test]
    fn root_moves_never_repeat_a_position_under_basic_ko() {
        // Send two, return one on 7×7: after Black C1 and White's capture of two at A1, Black's
        // recapture at B1 recreates the start. Japanese rules allow it; tengen does not offer it.
        let rows = [
            ".......", ".......", ".......", ".......", "XXXXX..", "XOOOX..", ".X.O...",
        ];
        let mut g = Game::new(7, Rules::japanese()).unwrap();
        let b = g.board().clone();
        let mut stones = Vec::new();
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    'X' => stones.push((b.point(c, r), Some(Color::Black))),
                    'O' => stones.push((b.point(c, r), Some(Color::White))),
                    _ => {}
                }
            }
        }
        g.setup(&stones).unwrap();
        g.play(Color::Black, Move::Play(b.point(2, 6))).unwrap();
        g.play(Color::White, Move::Play(b.point(0, 6))).unwrap();
        let repeat = Move::Play(b.point(1, 6));
        assert!(g.is_legal(Color::Black, repeat));
        let moves = Player::root_moves(&g, Color::Black, true);
        assert!(!moves.contains(&repeat));
        assert!(moves.contains(&Move::Pass));
        assert!(moves.len() > 10);
    }
}
