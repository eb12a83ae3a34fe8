//! The command line's flags and subcommands as clap reads them, with the checks of their values;
//! `main` runs what they ask for.

use clap::{Args, Parser, Subcommand};
use std::time::Duration;
use tengen::gtp::{self, Options};
use tengen::rules::{HalfPoints, Rules};
use tengen::search::{self, time::DEFAULT_LAG};

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A Monte Carlo Go engine (GTP) for Japanese, Chinese and pre-judgement komi rules",
    long_about = "A Monte Carlo Go engine for Japanese, Chinese and pre-judgement komi rules.\n\n\
        Without a subcommand it speaks GTP (version 2) on stdin and stdout, as GUIs (Sabaki, \
        GoGui), servers and match tools expect; logs go to stderr."
)]
pub struct Cli {
    /// More log output on stderr (repeat for more); RUST_LOG overrides it.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How the GTP engine plays.
#[derive(Args, Clone, Default)]
pub struct EngineArgs {
    /// Ruleset: japanese (territory counting, basic ko, komi 6.5), chinese (area counting,
    /// positional superko, komi 7.5), prejudgement (White first, four free opening stones,
    /// komi from the players' predictions), or aga, new_zealand, tromp-taylor as KataGo
    /// defines them [default: chinese]
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Komi: points added to White's count, any whole or half number (e.g. 7.5, 0, -3.5);
    /// default: the ruleset's usual komi. The controller's `komi` command overrides it.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_komi)]
    pub komi: Option<HalfPoints>,
    /// Board side at start-up, 2 to 25 (the controller's `boardsize` changes it) [default: 19]
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=25))]
    pub size: Option<u64>,
    /// Search threads, at most four per core (more are reduced to that, with a warning)
    /// [default: all cores]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Playouts (simulated games) per move; with a game clock set by the controller, the clock
    /// may stop a search earlier.
    #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Visits at the root per move, those of the tree kept from the last search included
    /// (KataGo's maxVisits; --playouts counts this search's playouts alone); with --playouts or
    /// --time, the first limit reached ends the search.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub visits: Option<u64>,
    /// Stop live analysis (lz-analyze, kata-analyze) and pondering once the root has this many
    /// visits, the kept tree's included; the analysis answer stays open, idle, until the next
    /// line [default: no limit]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub analysis_visits: Option<u64>,
    /// Stop live analysis and pondering after this many seconds [default: no limit]
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub analysis_seconds: Option<f64>,
    /// Seconds of thinking per move when the controller sets no clock [default: 2]
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Seconds kept back from every move's time under a game clock for the controller's and the
    /// network's delays, at most a fifth of a short allotment [default: 1]
    #[arg(long, value_name = "S", value_parser = parse_lag)]
    pub lag: Option<f64>,
    /// Strength level, 1 (beginner) to 10 (full strength): below 10, a fixed number of playouts
    /// per move that grows 2–2.5× a level (so a level is as strong on any machine), and a
    /// choice among the plausible moves rather than always the best; README's levels table says
    /// how the levels compare with each other and with GNU Go [default: 10]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// Seed for the random playouts; with one thread and --playouts, moves are reproducible.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Never resign: play every game to the end (by default tengen resigns a hopeless game).
    #[arg(long, conflicts_with = "resign_below")]
    pub no_resign: bool,
    /// Resign when the chosen move's win rate is below this fraction in two searches in a row
    /// [default: 0.1]
    #[arg(long, value_name = "P", value_parser = parse_fraction)]
    pub resign_below: Option<f64>,
    /// The share of a playout's value given by its margin against the margin the search
    /// expects, the rest by winning or losing; 0 plays for the win alone [default: 0.1]
    #[arg(long, value_name = "W", value_parser = parse_share)]
    pub score_weight: Option<f64>,
    /// Memory for the search tree, in megabytes [default: 1024]
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub max_memory: Option<u64>,
    /// Think on the opponent's time: after each move of its own, tengen searches the position
    /// until the next command arrives, and keeps what it found for its next move. Off by
    /// default; it takes the CPU while the opponent thinks. No effect with --seed.
    #[arg(long)]
    pub ponder: bool,
    /// Keep playing for points when far ahead (Pachi's maximize-score idea): while its win rate
    /// stays above 0.85 the search concedes itself two more points of komi each move, up to its
    /// expected lead, and takes them back below 0.7. Off by default.
    #[arg(long)]
    pub maximize_score: bool,
    /// Answer GTP `version` with this word instead of tengen's version, for GUIs that check it.
    /// Lizzie 0.7.4 analyses only with engines whose version reads as Leela Zero 0.15 or later:
    /// start tengen for it with `--override-version 0.17`.
    #[arg(long, value_name = "VERSION", value_parser = parse_identity)]
    pub override_version: Option<String>,
    /// Answer GTP `name` with this word instead of `tengen`. Lizzie 0.7.4 talks KataGo's dialect
    /// (`kata-analyze` with score and ownership) to an engine whose name starts with `KataGo`.
    #[arg(long, value_name = "NAME", value_parser = parse_identity)]
    pub override_name: Option<String>,
}

impl EngineArgs {
    /// These flags, each filled from `outer` where not given here.
    pub fn or(self, outer: EngineArgs) -> EngineArgs {
        EngineArgs {
            rules: self.rules.or(outer.rules),
            komi: self.komi.or(outer.komi),
            size: self.size.or(outer.size),
            threads: self.threads.or(outer.threads),
            playouts: self.playouts.or(outer.playouts),
            visits: self.visits.or(outer.visits),
            analysis_visits: self.analysis_visits.or(outer.analysis_visits),
            analysis_seconds: self.analysis_seconds.or(outer.analysis_seconds),
            time: self.time.or(outer.time),
            lag: self.lag.or(outer.lag),
            level: self.level.or(outer.level),
            seed: self.seed.or(outer.seed),
            no_resign: self.no_resign || outer.no_resign,
            resign_below: self.resign_below.or(outer.resign_below),
            score_weight: self.score_weight.or(outer.score_weight),
            max_memory: self.max_memory.or(outer.max_memory),
            ponder: self.ponder || outer.ponder,
            maximize_score: self.maximize_score || outer.maximize_score,
            override_version: self.override_version.or(outer.override_version),
            override_name: self.override_name.or(outer.override_name),
        }
    }

    pub fn options(&self) -> Result<Options, String> {
        if self.playouts.is_some() && self.time.is_some() {
            return Err("--playouts and --time exclude each other".to_string());
        }
        let mut config = search::Config::default();
        if let Some(t) = self.threads {
            config.threads = t as usize;
            let cap = search::max_threads();
            if config.threads > cap {
                log::warn!(
                    "--threads {}: using {} threads ({} per core): more workers than that share \
                     the cores without searching faster, and delay the clock and every stop",
                    t,
                    cap,
                    search::THREADS_PER_CORE
                );
                config.threads = cap;
            }
        }
        config.playouts = self.playouts;
        config.visits = self.visits;
        config.analysis = search::Limits {
            playouts: None,
            visits: self.analysis_visits,
            time: self.analysis_seconds.map(Duration::from_secs_f64),
        };
        config.time = self.time.map(Duration::from_secs_f64);
        config.seed = self.seed;
        if let Some(level) = self.level {
            config.level = level;
        }
        if let Some(p) = self.resign_below {
            config.resign = Some(p);
        }
        if self.no_resign {
            config.resign = None;
        }
        if let Some(w) = self.score_weight {
            config.score_weight = w;
        }
        if let Some(mb) = self.max_memory {
            config.max_memory_mb = mb as usize;
        }
        config.maximize_score = self.maximize_score;
        Ok(Options {
            rules: self.rules.unwrap_or(Rules::chinese()),
            komi: self.komi,
            size: self.size.unwrap_or(19) as usize,
            search: config,
            ponder: self.ponder,
            override_name: self.override_name.clone(),
            lag: self.lag.map_or(DEFAULT_LAG, Duration::from_secs_f64),
            override_version: self.override_version.clone(),
        })
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// Speak GTP on stdin/stdout (the default when no subcommand is given).
    Gtp(EngineArgs),
    /// Play engine-against-engine games over GTP and report the results with a confidence
    /// interval.
    Match(MatchArgs),
    /// Count the legal move sequences of a given length from the empty board (a pass is a move;
    /// two passes end the game; superko-illegal moves are not counted) and print the number.
    Perft {
        /// Board side, 2 to 25.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Sequence length in moves.
        #[arg(long)]
        depth: u32,
        /// Ruleset: japanese, chinese or prejudgement.
        #[arg(long, default_value = "chinese", value_parser = parse_rules)]
        rules: Rules,
        /// Moves to try before giving up (about ten million a second); a depth past it is
        /// refused.
        #[arg(long, default_value_t = tengen::perft::QUICK_LIMIT)]
        limit: u64,
    },
    /// Measure playout speed from the empty board, light playouts and full search: one line per
    /// board size and thread count.
    Bench {
        /// Board sides to measure.
        #[arg(long, value_delimiter = ',', default_values_t = [9, 19])]
        sizes: Vec<usize>,
        /// Worker counts to measure (default: 1 and all cores).
        #[arg(long, value_delimiter = ',')]
        threads: Vec<usize>,
        /// Wall seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Seed for the playouts' random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Learn the move-pattern weights from game records (TYGEM's one-game-a-line files, or SGF,
    /// also named .mgt) and report the top-1 and top-5 prediction rates and mean log-likelihood
    /// on held-out games.
    TrainPatterns(TrainPatternsArgs),
    /// Learn the heavy playout policy's weights by simulation balancing: make the playouts' mean
    /// result from positions of 9×9 game records match the search's value of them, and report
    /// the mean squared error on training and held-out games.
    TrainPlayouts(TrainPlayoutsArgs),
    /// Review a game record: search every position of its main line and write the record with
    /// each move's win rate (Black's), score lead, best move and variation, and the biggest
    /// swings in the root comment. Progress and the swings go to stderr; stdout stays unused.
    Review(ReviewArgs),
    /// Speak KataGo's JSON analysis-engine protocol on stdin/stdout (KaTrain's custom engine,
    /// batch-review tools): one query a line, one result a line per analysed turn, several
    /// positions searched at once.
    Analysis(AnalysisArgs),
}

/// `tengen analysis`: how many positions at once, and the engine's flags (--threads is each
/// position's search threads, --visits the maxVisits of a query that gives none).
#[derive(Args)]
pub struct AnalysisArgs {
    /// Positions searched at once (KataGo's numAnalysisThreads) [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub analysis_threads: Option<u64>,
    /// Whose view win rates, score leads and ownership are reported in unless a query's
    /// overrideSettings say otherwise: black, white or sidetomove [default: black]
    #[arg(long, value_name = "VIEW", value_parser = parse_perspective)]
    pub report_winrates_as: Option<tengen::analysis_engine::query::Perspective>,
    /// When the input ends, stop the running searches (each answers with what it has) and drop
    /// the queued ones, instead of finishing them.
    #[arg(long)]
    pub quit_without_waiting: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_perspective(s: &str) -> Result<tengen::analysis_engine::query::Perspective, String> {
    tengen::analysis_engine::query::Perspective::parse(s)
        .ok_or_else(|| format!("'{}': use black, white or sidetomove", s))
}

/// `tengen review`: the record, where the annotated copy goes, and the engine's flags (the
/// record's own size, rules and komi win over --size, --rules and --komi).
#[derive(Args)]
pub struct ReviewArgs {
    /// The game record (SGF) to review.
    pub file: std::path::PathBuf,
    /// Where to write the annotated record: replaced whole if it exists (written beside it,
    /// then renamed), never through a symbolic link; it may be the record itself.
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// How the committed weights were built (`tengen train-patterns --help`; README, Move patterns).
const TRAIN_PATTERNS_HELP: &str = "\
The committed src/patterns/weights.txt is rebuilt from the repository root with the TYGEM games
of github.com/yenw/computer-go-dataset at commit d40334f8feba3115ef22817b981d40784a8c9758
(the 23 months 2009-01 to 2010-12 less 2010-08, which the snapshot used lacked: 215,220 games,
the 193,691 not held out all trained on; Debian's goban-original-games installed as a second
held-out set; about 35 minutes and 12 GB of memory):

  git clone https://github.com/yenw/computer-go-dataset /tmp/cgd
  git -C /tmp/cgd checkout d40334f8feba3115ef22817b981d40784a8c9758
  mkdir -p /tmp/tygem && for f in /tmp/cgd/TYGEM/Kifu/2009-*.zip /tmp/cgd/TYGEM/Kifu/2010-*.zip; do
    [ \"$f\" = /tmp/cgd/TYGEM/Kifu/2010-08.zip ] || unzip -o -q \"$f\" -d /tmp/tygem; done
  cargo run --release -- train-patterns --tygem /tmp/tygem --train-games 194000 --position-stride 20 \\
    --iterations 12 --max-spatials 300000 --out src/patterns/weights.txt";

/// `tengen train-patterns`: the records, the split and the output.
#[derive(Args)]
#[command(after_help = TRAIN_PATTERNS_HELP)]
pub struct TrainPatternsArgs {
    /// Directory of SGF game records (Debian's goban-original-games installs them here): the
    /// training games without --tygem, else a second held-out set, all of it.
    #[arg(long, value_name = "DIR", default_value = tengen::train_patterns::DEFAULT_DATA_DIR)]
    pub data: std::path::PathBuf,
    /// TYGEM 9-dan games, one a line (the unzipped TYGEM/Kifu/YYYY-MM files of
    /// github.com/yenw/computer-go-dataset): a file, or a directory of them; repeatable. When
    /// given, the weights are trained on these.
    #[arg(long, value_name = "PATH")]
    pub tygem: Vec<std::path::PathBuf>,
    /// Weights file to write (src/patterns/weights.txt is the one built into tengen); without
    /// it, only the figures are printed.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Measure this weights file on the held-out games instead of training.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub weights: Option<std::path::PathBuf>,
    /// Hold out one game in N from training, to measure on: every N-th SGF record in file-name
    /// order, or the TYGEM games whose id hash is a multiple of N.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub hold_out_every: usize,
    /// TYGEM games to train on, at most (the first by id hash, spread over the files).
    #[arg(long, value_name = "N", default_value_t = 40_000)]
    pub train_games: usize,
    /// Held-out TYGEM games to measure on, at most (the first by id hash).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    pub held_out_games: usize,
    /// Fit the gammas (and count the dictionaries of shapes and spatial patterns) on every N-th
    /// position of each training game.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub position_stride: usize,
    /// Minorization-maximization sweeps over all feature groups.
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// A spatial pattern needs this many plays in the fitted positions to get a weight.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub min_spatial_played: u32,
    /// At most this many spatial patterns get a weight (the most played).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_spatials: usize,
}

/// How playout weights are trained (`tengen train-playouts --help`).
const TRAIN_PLAYOUTS_HELP: &str = "\
The games are self-play records of the engine, written by the match tool, e.g.

  tengen match --black \"tengen --threads 1 --playouts 1000\" --white \"tengen --threads 1 \\
    --playouts 1000\" --size 9 --komi 7.5 --rules chinese --games 240 --opening-moves 4 \\
    --sgf-dir /tmp/g9

(the measured run, tests/MEASUREMENTS.md, took the first 89 such games). Training starts from
the hand-set weights; from the repository root,

  cargo run --release -- train-playouts --games /tmp/g9 --targets /tmp/g9-targets.txt \\
    --out src/search/playout_weights.txt

rebuilds a weights file with the measured run's settings (the defaults). The search values of
the positions, the costly part, are cached in --targets and reused by later runs.";

/// `tengen train-playouts`: the records, the values, the training and the output.
#[derive(Args)]
#[command(after_help = TRAIN_PLAYOUTS_HELP)]
pub struct TrainPlayoutsArgs {
    /// Directory of 9×9 SGF game records (self-play of the engine).
    #[arg(long, value_name = "DIR")]
    pub games: std::path::PathBuf,
    /// Cache of the search's values of the positions: read if it holds values of a search of
    /// --target-playouts, else written (completed when games were added).
    #[arg(long, value_name = "FILE")]
    pub targets: std::path::PathBuf,
    /// Playouts of the one-thread search that values each position.
    #[arg(long, value_name = "N", default_value_t = 4000)]
    pub target_playouts: u64,
    /// Komi of the games (Chinese rules).
    #[arg(long, default_value = "7.5", allow_hyphen_values = true, value_parser = parse_komi)]
    pub komi: HalfPoints,
    /// Hold out every N-th game (in file-name order) from training, to measure on.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub hold_out_every: usize,
    /// Gradient steps.
    #[arg(long, default_value_t = 150)]
    pub iterations: usize,
    /// Training positions per step.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub batch: usize,
    /// Playouts that measure a position's value in a step (M).
    #[arg(long, value_name = "M", default_value_t = 32)]
    pub value_playouts: usize,
    /// Playouts that measure the gradient of a position's value in a step (N).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub gradient_playouts: usize,
    /// Step size α.
    #[arg(long, default_value_t = 40.0)]
    pub step: f64,
    /// Playouts per position when measuring the mean squared error.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub eval_playouts: usize,
    /// Training positions the error is measured on, at most (all held-out ones are).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub eval_positions: usize,
    /// Measure the error every N steps.
    #[arg(long, value_name = "N", default_value_t = 25)]
    pub report_every: usize,
    /// Seed of the batches and playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights file to write (src/search/playout_weights.txt is the one built into tengen);
    /// without it, only the figures are printed.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

/// `tengen match`: two engines (any GTP programs) play a series of games.
#[derive(Args)]
pub struct MatchArgs {
    /// Command line of engine A, Black in the odd-numbered games (quote it: "prog --flag x").
    #[arg(long)]
    pub black: String,
    /// Command line of engine B, White in the odd-numbered games; colours alternate each game
    /// (see --fixed-colours).
    #[arg(long)]
    pub white: String,
    /// Number of games; under --sprt the most it plays, an even number
    /// [default: 2; 1000 under --sprt]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: Option<u64>,
    /// Board side, 2 to 25.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u64).range(2..=25))]
    pub size: u64,
    /// Komi (points added to White); default: the ruleset's usual komi, 0.5 with --handicap.
    /// Under prejudgement the threshold from the engines' predictions replaces it.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_komi)]
    pub komi: Option<HalfPoints>,
    /// Ruleset the games are played and counted under: japanese, chinese or prejudgement (sent to
    /// engines that list tengen-rules or kgs-rules; others must be started with matching rules).
    /// Prejudgement needs engines that list tengen-prejudge and tengen-prejudgement.
    #[arg(long, default_value = "chinese", value_parser = parse_rules)]
    pub rules: Rules,
    /// Seconds per move, sent to the engines as byo-yomi (`time_settings 0 S 1`).
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// A Fischer clock instead: MAIN seconds to start and INCREMENT seconds back after each
    /// move (0: sudden death), kept by the match for each engine (told with kata-time_settings
    /// and time_left where the engine lists them); a move longer than the time left loses on time.
    #[arg(long, num_args = 2, value_names = ["MAIN", "INCREMENT"], conflicts_with = "time", value_parser = parse_clock_seconds)]
    pub fischer: Option<Vec<f64>>,
    /// Seconds an engine may take to answer any command before it loses on time
    /// [default: 3 × --time + 5; MAIN + INCREMENT + 5 under --fischer; else 120]
    #[arg(long, value_parser = parse_seconds)]
    pub move_timeout: Option<f64>,
    /// Moves after which a game is stopped and counted as it stands, 1 or more
    /// [default: 3 × size²]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_moves: Option<u64>,
    /// Directory for one SGF record per game (created if missing).
    #[arg(long, value_name = "DIR")]
    pub sgf_dir: Option<std::path::PathBuf>,
    /// Command line of a GTP engine that replays every game and gives its `final_score`;
    /// disagreements with tengen's own count are reported.
    #[arg(long, value_name = "CMD")]
    pub referee: Option<String>,
    /// Seed for tengen's own dead-stone judgement at the end of each game, and for the built-in
    /// openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fixed handicap of N stones for Black (GTP's placement: 2 to 9 on odd boards from 9x9, 2
    /// to 4 on the others from 7x7), sent to both engines and the referee as `fixed_handicap N`
    /// (an engine placing other stones is refused); White moves first. Colours still alternate:
    /// to find the handicap at which A wins half, add --fixed-colours so A takes the stones in
    /// every game.
    #[arg(long, value_name = "N", value_parser = parse_handicap)]
    pub handicap: Option<usize>,
    /// Engine A takes Black (the first move, or the handicap) in every game instead of
    /// alternating.
    #[arg(long)]
    pub fixed_colours: bool,
    /// Sequential probability ratio test, alpha = beta = 0.05: H0 "A is ELO0 stronger than B"
    /// against H1 "ELO1 stronger" (logistic Elo, ELO0 < ELO1), on pairs of games sharing an
    /// opening with colours swapped (pentanomial); the match stops once the log-likelihood
    /// ratio leaves [-2.94, 2.94] and prints it with A's Elo and its 95% interval.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true, value_parser = parse_elo)]
    pub sprt: Option<Vec<f64>>,
    /// Openings for the game pairs (implies pairs): a text file with one opening a line (GTP
    /// vertices, colours alternating from the side to move, '#' comments), an SGF file, or a
    /// directory of SGF files (each record's main line), used in order and round again. Without
    /// it, pairs play built-in openings generated from --seed.
    #[arg(long, value_name = "PATH")]
    pub openings: Option<std::path::PathBuf>,
    /// Moves of the built-in openings [default: 2] (implies pairs), or the most moves kept of
    /// each --openings opening.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub opening_moves: Option<u64>,
    /// Games played at the same time, each with its own engines (1 to 64). The two engines of
    /// a game take turns, so N games keep about N cores busy: give each engine one thread
    /// and at most one game per core for fair timed games. Results are reported, and pairs
    /// and the SPRT counted, as games finish; once the SPRT decides, the games still in
    /// progress are stopped and not counted.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub concurrency: u64,
}

/// A fixed handicap: 2 stones or more (the board's limit is checked with the board size).
fn parse_handicap(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 2 => Ok(n),
        Ok(n) => Err(format!(
            "{} stone{} is no fixed handicap: 2 or more (play without --handicap for none)",
            n,
            if n == 1 { "" } else { "s" }
        )),
        Err(_) => Err(format!("'{}' is not a number of stones", s)),
    }
}

/// An Elo difference for --sprt.
fn parse_elo(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{}' is not an Elo difference", s)),
    }
}

fn parse_komi(s: &str) -> Result<HalfPoints, String> {
    gtp::parse_komi(s).map_err(|e| e.trim_start_matches("syntax error: ").to_string())
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!("'{}' is not a positive number of seconds", s)),
    }
}

/// A Fischer clock's number of seconds, 0 allowed: an increment of 0 is a sudden-death clock.
/// A main time of 0 is refused in `main` (clap parses both values alike).
fn parse_clock_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0e6).contains(&v) => Ok(v),
        _ => Err(format!(
            "'{}' is not a number of seconds from 0 to 1000000",
            s
        )),
    }
}

/// A lag margin: a number of seconds from 0 to an hour.
fn parse_lag(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=3600.0).contains(&v) => Ok(v),
        _ => Err(format!("'{}' is not a number of seconds from 0 to 3600", s)),
    }
}

/// A win-rate threshold: a number from 0 to 1.
fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{}' is not a win rate between 0 and 1", s)),
    }
}

/// A share of the value: a number from 0 to 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("'{}' is not a share between 0 and 1", s)),
    }
}

/// A word for GTP `name` or `version` to answer.
fn parse_identity(s: &str) -> Result<String, String> {
    if gtp::is_identity_word(s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "'{}' is not one word of printable ASCII (at most 64 characters)",
            s
        ))
    }
}

fn parse_rules(s: &str) -> Result<Rules, String> {
    Rules::by_name(s)
        .ok_or_else(|| format!("unknown rules '{}' (use {})", s, Rules::NAMES.join(", ")))
}
