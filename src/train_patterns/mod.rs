//! `tengen train-patterns`: fitting the pattern gammas to game records, and measuring how well
//! they predict moves. An offline tool at the top of the crate, beside `bench` and `match_play`:
//! it reads SGF records (`sgf`) and the one-game-a-line files of the TYGEM 9-dan dataset,
//! describes moves with [`crate::patterns`]' features, and writes the weights file that
//! `patterns` embeds; nothing in the engine imports it.
//!
//! Every position of a training game is a competition among the legal moves (and pass) of the
//! player to move, won by the move played. Under the generalized Bradley–Terry model each
//! candidate's strength is the product of its features' gammas, and minorization–maximization
//! (Coulom 2007) raises the likelihood of the record at every step: for one feature group at a
//! time, each gamma becomes its wins divided by the sum, over the competitions it took part in,
//! of its teammates' strength over the total strength. A virtual win and a virtual loss against a
//! gamma of 1 keep rare features finite.
//!
//! The gammas are fitted on every `position_stride`-th position of each training game (starting
//! at a point set by the game's hash), so that a large corpus fits in memory and time:
//! neighbouring positions of one game teach nearly the same thing, and many games show more
//! openings and shapes than a few games' every move. The dictionaries (which 3×3 shapes and
//! which spatial patterns get a gamma of their own) are counted over the same positions, so that
//! every gamma rests on wins it is fitted on.
//!
//! Games are split by game, never by position, so a held-out figure measures games the weights
//! never saw. Everything is deterministic: the same records give the same weights file (the
//! parallel sums are taken over fixed chunks, added in order).
//!
//! The files, one job each: `corpus` reads the records and splits them, `dataset` puts the
//! candidates' features in training form, `fit` is the MM fit, `measure` the held-out figures;
//! this file holds the command itself. `balance` is another trainer on the same records:
//! `tengen train-playouts`, the heavy playout policy's weights by simulation balancing.

pub mod balance;
mod corpus;
mod dataset;
mod fit;
mod measure;

pub use corpus::{
    for_each_position, game_from_sgf, game_from_tygem_line, game_hash, read_corpus, read_tygem,
    split_by_hash, Corpus, TrainingGame,
};
pub use dataset::TrainConfig;
pub use fit::{train, TrainReport};
pub use measure::{evaluate, Evaluation};

use crate::patterns::features::MIN_SPATIAL_RADIUS;
use crate::patterns::Patterns;
use measure::evaluation_line;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Where Debian's `goban-original-games` puts its records.
pub const DEFAULT_DATA_DIR: &str = "/usr/share/goban";

/// The commit of <https://github.com/yenw/computer-go-dataset> whose TYGEM games built the
/// committed weights.
pub const TYGEM_COMMIT: &str = "d40334f8feba3115ef22817b981d40784a8c9758";

/// `tengen train-patterns`: what to read and where to write.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// SGF records: the training games when no TYGEM files are given, else a second held-out
    /// set (all of them).
    pub data_dir: PathBuf,
    /// TYGEM files or directories of them (unzipped): the training games when given.
    pub tygem: Vec<PathBuf>,
    /// The weights file to write; `None` only reports.
    pub out: Option<PathBuf>,
    /// Measure this weights file instead of training.
    pub weights: Option<PathBuf>,
    /// One game in `hold_out_every` is held out of training: by file-name order for SGF
    /// records, by the hash of the game id for TYGEM games.
    pub hold_out_every: usize,
    /// TYGEM games trained on, at most (the first by hash).
    pub train_games: usize,
    /// TYGEM games measured on, at most (the first held-out games by hash).
    pub held_out_games: usize,
    pub train: TrainConfig,
}

impl RunConfig {
    /// The command line that reproduces this run, for the weights file's header.
    fn command_line(&self) -> String {
        let mut s = String::from("tengen train-patterns");
        if self.tygem.is_empty() {
            s.push_str(&format!(" --data {}", self.data_dir.display()));
        } else {
            for p in &self.tygem {
                s.push_str(&format!(" --tygem {}", p.display()));
            }
            s.push_str(&format!(
                " --train-games {} --held-out-games {}",
                self.train_games, self.held_out_games
            ));
        }
        s.push_str(&format!(
            " --hold-out-every {} --position-stride {} --iterations {} --min-spatial-played {} \
             --max-spatials {}",
            self.hold_out_every,
            self.train.position_stride,
            self.train.iterations,
            self.train.min_spatial_played,
            self.train.max_spatials
        ));
        if let Some(out) = &self.out {
            s.push_str(&format!(" --out {}", out.display()));
        }
        s
    }
}

/// Reads the records, trains on the training games (or reads `weights`), writes the weights and
/// reports the figures on every held-out set to `report`. Returns the first held-out set's.
pub fn run(config: &RunConfig, report: &mut impl Write) -> Result<Evaluation, String> {
    let started = Instant::now();
    let io = |e: std::io::Error| e.to_string();
    if config.hold_out_every < 2 {
        return Err("--hold-out-every must be at least 2".to_string());
    }
    if config.train.position_stride == 0 {
        return Err("--position-stride must be at least 1".to_string());
    }
    // Where the weights go is checked before the records are read and trained on.
    if let Some(out) = &config.out {
        crate::files::check_writable(out).map_err(|e| format!("cannot write {}", e))?;
    }
    // (name, games) of each held-out set, and the training games.
    let mut held_out_sets: Vec<(String, Vec<TrainingGame>)> = Vec::new();
    let training: Vec<TrainingGame>;
    let records: String;
    if config.tygem.is_empty() {
        let corpus = read_corpus(&config.data_dir)?;
        for (name, why) in &corpus.skipped {
            log::warn!("skipped {}: {}", name, why);
        }
        if corpus.games.is_empty() {
            return Err(format!(
                "no readable .sgf or .mgt records in {} (Debian: apt-get install \
                 goban-original-games)",
                config.data_dir.display()
            ));
        }
        records = format!(
            "records: {} read from {}, {} skipped",
            corpus.games.len(),
            config.data_dir.display(),
            corpus.skipped.len()
        );
        let (mut train_games, mut held_out) = (Vec::new(), Vec::new());
        for (i, g) in corpus.games.into_iter().enumerate() {
            if i % config.hold_out_every == config.hold_out_every - 1 {
                held_out.push(g);
            } else {
                train_games.push(g);
            }
        }
        training = train_games;
        held_out_sets.push(("held-out".to_string(), held_out));
    } else {
        let corpus = read_tygem(&config.tygem)?;
        for (name, why) in corpus.skipped.iter().take(20) {
            log::warn!("skipped {}: {}", name, why);
        }
        if corpus.games.is_empty() {
            return Err("no readable TYGEM games in the files given".to_string());
        }
        records = format!(
            "records: {} TYGEM games read, {} lines refused",
            corpus.games.len(),
            corpus.skipped.len()
        );
        let (t, h) = split_by_hash(
            corpus.games,
            config.hold_out_every,
            config.train_games,
            config.held_out_games,
        );
        training = t;
        held_out_sets.push(("held-out TYGEM".to_string(), h));
        match read_corpus(&config.data_dir) {
            Ok(c) if !c.games.is_empty() => {
                held_out_sets.push((
                    format!("held-out SGF records of {}", config.data_dir.display()),
                    c.games,
                ));
            }
            _ => log::warn!(
                "no records in {}: measuring on the TYGEM games only",
                config.data_dir.display()
            ),
        }
    }

    let (patterns, fit) = match &config.weights {
        Some(path) => {
            let bytes =
                crate::files::read(path, u64::MAX).map_err(|e| format!("cannot read {}", e))?;
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
            (Patterns::parse(&text)?, None)
        }
        None => {
            let (p, f) = train(&training, &config.train);
            // Measured as written: the file rounds every gamma to four digits.
            let written = Patterns::parse(&p.to_text(""))?;
            (written, Some(f))
        }
    };
    let trained_at = started.elapsed();
    let mut lines = vec![records];
    match (&fit, &config.weights) {
        (Some(fit), _) => lines.push(format!(
            "training: {} games, {} positions fitted (1 in {} of each game), {} distinct \
             candidates, {} 3×3 shapes with their own weight, \
             {} spatial patterns (radius {}..: {:?}), {} MM sweeps, log-likelihood {:.4}",
            fit.games,
            fit.positions,
            config.train.position_stride,
            fit.candidates,
            fit.shapes,
            fit.spatials.iter().sum::<usize>(),
            MIN_SPATIAL_RADIUS,
            fit.spatials,
            config.train.iterations,
            fit.log_likelihood.last().copied().unwrap_or(f64::NAN)
        )),
        (None, Some(path)) => lines.push(format!("weights measured: {}", path.display())),
        (None, None) => {}
    }
    let evaluating = Instant::now();
    let mut first = None;
    let mut positions = 0;
    for (name, games) in &held_out_sets {
        let e = evaluate(&patterns, games);
        positions += e.positions;
        lines.push(evaluation_line(name, games.len(), &e));
        first.get_or_insert(e);
    }
    let per_position = evaluating.elapsed().as_secs_f64() / positions.max(1) as f64;
    let summary = lines.join("\n");
    writeln!(report, "{}", summary).map_err(io)?;
    writeln!(
        report,
        "time: {:.1} s to read and train, {:.1} s in all; the held-out evaluation took {:.0} µs \
         per position (every legal move's features and gamma)",
        trained_at.as_secs_f64(),
        started.elapsed().as_secs_f64(),
        per_position * 1e6
    )
    .map_err(io)?;
    if let Some(out) = &config.out {
        let source = if config.tygem.is_empty() {
            "Debian's goban-original-games installed".to_string()
        } else {
            format!(
                "the TYGEM files of https://github.com/yenw/computer-go-dataset at commit\n{} \
                 unzipped (see README, Move patterns)",
                TYGEM_COMMIT
            )
        };
        let header = format!(
            "tengen move-pattern gammas (generalized Bradley-Terry model, fitted by \
             minorization-maximization).\n\
             Built from the repository root with {}:\n  {}\n\
             {}\n\
             Lines: GROUP VALUE GAMMA (see src/patterns/features.rs), shape DIGITS GAMMA with one\n\
             digit per neighbour (rows from the top, left to right, centre skipped): 0 empty,\n\
             1 edge, 2/3/4 own stone with 1/2/3+ liberties, 5/6/7 opponent stone with 1/2/3+\n\
             liberties; shape rare: shapes without a line of their own. spatial KEY GAMMA: the\n\
             hash of the stones within Manhattan distance r of the move (16 hex digits, the\n\
             first is r), see features::spatial_keys.",
            source,
            config.command_line(),
            summary
        );
        crate::files::write(out, patterns.to_text(&header).as_bytes())
            .map_err(|e| format!("cannot write {}", e))?;
        writeln!(report, "weights written to {}", out.display()).map_err(io)?;
    }
    Ok(first.unwrap_or_default())
}
