//! The player: parallel Monte Carlo tree search over the board, asking the rules what is legal
//! and how a finished playout counts.
//!
//! One search: workers (rayon, `Config::threads`) share one [`tree::Tree`]; each repeatedly
//! descends from the root by MC-RAVE selection (node values blended with all-moves-as-first
//! statistics, priors as virtual experience), expands a leaf that has been visited enough,
//! finishes the game with the heavy [`policy`], counts it under the rules (area; for territory
//! rules the area margin corrected by the stones each side played, which equals the territory
//! margin), and backs the result up the path and into the AMAF statistics. Values mix the win
//! (1, ½ for a draw, 0) with a small share of the margin, measured from the margin the search
//! expects and saturating: a won game is still played for points (no needless moves inside
//! one's own territory, no pass while a point is open), and a game that every line wins or
//! loses still has a slope (no groups given away once the result is decided).
//!
//! Superko is checked at the root only (tree and playouts use the board's basic ko), as in
//! every fast engine; the root's candidate moves are exactly the game's legal moves.
//!
//! Where each part lives, from the inside out:
//! - [`simulate`]: one simulation — the root's terms, descent, expansion with [`prior`]s, the
//!   [`playout`] to the end with the [`policy`], the value, and the back-up;
//! - [`run`]: one search — the workers, stopping (budget, clock, early stop, interrupt), and
//!   the tree kept for the next move;
//! - [`ownership`]: who owns each point at the end of the playouts;
//! - [`komi`]: dynamic komi in handicap games;
//! - [`level`]: strength levels below full strength;
//! - [`judgement`]: a finished position judged once — ownership, dead stones, seki, the count —
//!   bounded in time;
//! - [`player`]: the decisions around the search — pass, resign, cleanup, dame, analysis,
//!   pondering — and the judgement kept for the position;
//! - [`playout_weights`], [`shapes`]: the heavy policy's parameters and 3×3 shapes;
//! - [`time`], [`tree`], [`analysis`]: the clock, the shared tree, what analysis shows.

pub mod analysis;
pub mod handicap;
pub mod judgement;
pub mod komi;
pub mod level;
pub mod ownership;
pub mod player;
pub mod playout;
pub mod playout_weights;
pub mod policy;
pub mod prior;
mod run;
pub mod shapes;
mod simulate;
pub mod time;
pub mod tree;

use crate::board::Move;
pub use analysis::{Analysis, MoveFilter, MoveInfo, Watch};
pub use judgement::Judgement;
pub use player::Player;
use std::time::Duration;

/// How the player searches.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads sharing the tree.
    pub threads: usize,
    /// Playouts per move (when set, and no clock says otherwise).
    pub playouts: Option<u64>,
    /// Visits at the root per move, those of the tree kept from earlier searches included
    /// (when set, and no clock says otherwise).
    pub visits: Option<u64>,
    /// Thinking time per move (when set, and no clock says otherwise).
    pub time: Option<Duration>,
    /// Seed for reproducible searches (with one thread and a playout budget).
    pub seed: Option<u64>,
    /// Win rate below which the player resigns; `None` never resigns.
    pub resign: Option<f64>,
    /// Memory budget for the tree, in megabytes.
    pub max_memory_mb: usize,
    /// The share of a playout's value given by its final margin against the margin the search
    /// expects (see `simulate`), the rest by winning or losing: 0 values winning alone.
    pub score_weight: f64,
    /// Strength level, [`level::MIN_LEVEL`] to [`level::FULL_STRENGTH`] (see [`level`]).
    pub level: u8,
    /// Keep playing for points when far ahead: the search gives itself a komi against the side
    /// it plays while that side's win rate stays high ([`komi::margin_komi_step`]).
    pub maximize_score: bool,
    /// What live analysis (`lz-analyze`, `kata-analyze`) and pondering may spend before they
    /// stop by themselves; unlimited by default (they run until the controller's next line).
    pub analysis: Limits,
}

/// What one search may spend: this search's playouts, the root's visits (the kept tree's
/// included, as KataGo counts `maxVisits`), wall time. Whichever is reached first ends it; none
/// set means no limit.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub playouts: Option<u64>,
    pub visits: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    /// Whether nothing bounds the search.
    pub fn is_unlimited(&self) -> bool {
        self.playouts.is_none() && self.visits.is_none() && self.time.is_none()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            playouts: None,
            visits: None,
            time: None,
            seed: None,
            resign: Some(DEFAULT_RESIGN_BELOW),
            max_memory_mb: 1024,
            score_weight: DEFAULT_SCORE_WEIGHT,
            level: level::FULL_STRENGTH,
            maximize_score: false,
            analysis: Limits::default(),
        }
    }
}

/// The win rate below which the player resigns unless told otherwise (`--resign-below`).
pub const DEFAULT_RESIGN_BELOW: f64 = 0.1;

/// The share of a playout's value that its margin gives unless told otherwise
/// (`--score-weight`).
pub const DEFAULT_SCORE_WEIGHT: f64 = 0.1;

/// The most worker threads per core: past a few per core, workers only share the cores, each
/// running so rarely that the clock (watched between one worker's playouts) and every stop
/// come late, and their scratch memory adds up.
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads worth running on this machine: [`THREADS_PER_CORE`] per core.
pub fn max_threads() -> usize {
    THREADS_PER_CORE * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Thinking time per move when neither the configuration nor a clock sets one (Sabaki sends no
/// time commands).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

/// Playouts to run for the ownership estimate of a judgement (dead stones, seki, scoring) on
/// boards up to 19×19 (see [`judgement::ownership_playouts`]).
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
    /// Black's lead that makes the game even: the playouts' median margin, in points, as
    /// `mean_margin` includes komi and compensation (the mean before any playout).
    pub median_margin: f64,
}
