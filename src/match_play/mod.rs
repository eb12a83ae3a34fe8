//! `tengen match`: engine-against-engine games over GTP, for strength measurements.
//!
//! Engine A is the `--black` command and moves first in odd-numbered games (Black; White under
//! pre-judgement rules), second in even ones.
//! Every game starts fresh processes (so one game's crash or hang cannot leak into the next),
//! sets them up with the standard commands they list, and asks the side to move for `genmove`
//! under a deadline. tengen keeps the authoritative record: a move its rules refuse, a crash, an
//! error answer or a missed deadline loses the game for that engine. A finished game (two passes,
//! or the move limit) is counted by tengen's scorer with a tengen player's dead-stone judgement,
//! and by the referee's `final_score` when one is given; the referee's count decides when both
//! exist, and a disagreement is reported. Each game is written as SGF when asked, and the
//! summary gives A's win rate (draws count half) with its 95% Wilson interval.
//!
//! One failure does not end the match: an engine that cannot start (after the first game, which
//! checks the configuration) or floods its output forfeits, a record that cannot be written is
//! reported and the game still counts. Records never replace files: they are numbered past the
//! highest `game-NNN.sgf` already in the directory and each is written under a temporary name,
//! then linked into place. SIGINT or SIGTERM stops the engines, writes the game in progress
//! without a result, and the summary of the finished games is printed.
//!
//! Pre-judgement rules (RULES.md): the engine moving first places opening stones 1 and 4 (White,
//! then Black), the other stones 2 and 3; then each states its prediction (`tengen-prejudge`),
//! the predictions give the colours and the threshold ([`crate::prejudgement`]), both
//! engines are told (`tengen-prejudgement P1 P2`), White moves, and the count is against the
//! threshold (the game's komi), draws included. An engine without those commands cannot play.
//!
//! One file per job: [`client`] (the controller side of GTP: an engine as a child process, with
//! a deadline on every answer), `game` (one game: the engines set up, the turns, the
//! pre-judgement opening), `count` (the count of a finished game: tengen's, from the search's
//! judgement as its `final_score` gives it, and the referee's), `stats` (the results, the totals and
//! the Wilson interval), `records` (the SGF directory) and `signals` (SIGINT and SIGTERM).

pub mod client;
mod count;
mod game;
mod records;
mod signals;
mod stats;

pub use game::{play_game, Played};
pub use records::Records;
pub use signals::stop_requested;
pub use stats::{game_line, wilson, GameResult, Side, Summary};

use crate::rules::Rules;
use crate::search::judgement::StandaloneJudge;
use signals::stop_on_signals;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// What `tengen match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A's command line.
    pub black: String,
    /// Engine B's command line.
    pub white: String,
    pub games: usize,
    pub size: usize,
    pub komi: crate::rules::HalfPoints,
    pub rules: Rules,
    /// Seconds per move given to the engines as byo-yomi.
    pub time: Option<Duration>,
    /// A Fischer clock the match keeps for each engine (instead of `time`).
    pub fischer: Option<Fischer>,
    /// How long any answer may take; derived from `time` when not given.
    pub move_timeout: Option<Duration>,
    /// Moves after which a game is stopped and counted.
    pub max_moves: Option<usize>,
    pub sgf_dir: Option<PathBuf>,
    /// A GTP engine that replays the games and counts them.
    pub referee: Option<String>,
    /// Seed of tengen's dead-stone judgement.
    pub seed: u64,
}

/// KataGo's Fischer time as the match keeps it: each engine starts with `main` and gets
/// `increment` back after each of its moves; a move that takes longer than the time left loses
/// on time. Engines that list `kata-time_settings` are told (`fischer MAIN INCREMENT`), and
/// before each move, if they list `time_left`, how much they have; others play on their own
/// settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fischer {
    pub main: Duration,
    pub increment: Duration,
}

impl MatchConfig {
    fn move_timeout(&self) -> Duration {
        self.move_timeout
            .unwrap_or(match (self.time, self.fischer) {
                (Some(t), _) => t * 3 + Duration::from_secs(5),
                // No move can take longer than the whole clock; the rest is a margin to see the
                // overstep reported rather than a hang.
                (None, Some(f)) => f.main + f.increment + Duration::from_secs(5),
                (None, None) => Duration::from_secs(120),
            })
    }

    /// Start-up and setup commands may take longer than a move (engines load networks, books),
    /// unless the user set the deadline.
    fn setup_timeout(&self) -> Duration {
        match self.move_timeout {
            Some(t) => t,
            None => self.move_timeout().max(Duration::from_secs(60)),
        }
    }

    fn max_moves(&self) -> usize {
        self.max_moves.unwrap_or(3 * self.size * self.size)
    }
}

/// Plays the whole match, printing one line per game and the summary to `out`.
///
/// The summary is printed however the match ends: after every game, after a signal (SIGINT or
/// SIGTERM, the game in progress not counted), or when the first game shows the configuration
/// cannot be played (then `Err` after the summary).
pub fn run(config: &MatchConfig, out: &mut impl Write) -> Result<Summary, String> {
    let mut records = match &config.sgf_dir {
        Some(dir) => Some(Records::open(dir)?),
        None => None,
    };
    stop_on_signals();
    // The count of a finished game searches, and the search's priors read the pattern weights:
    // loaded once here, before the first game, so that the match's memory is its own from then.
    crate::patterns::Patterns::load();
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "match: {} games, {}x{}, komi {}, {} rules{}",
        config.games,
        config.size,
        config.size,
        if config.rules.komi_from_predictions {
            "from the predictions".to_string()
        } else {
            config.komi.to_string()
        },
        config.rules.name,
        match (config.time, config.fischer) {
            (Some(t), _) => format!(", {} s per move", t.as_secs_f64()),
            (None, Some(f)) => format!(
                ", Fischer clock of {} s and {} s a move",
                f.main.as_secs_f64(),
                f.increment.as_secs_f64()
            ),
            (None, None) => String::new(),
        }
    )
    .map_err(io)?;
    writeln!(out, "A: {}\nB: {}", config.black, config.white).map_err(io)?;
    out.flush().map_err(io)?;
    let mut summary = Summary::default();
    let mut failure = None;
    // One judge, with its threads, counts every game of the match.
    let mut judge = StandaloneJudge::default();
    for number in 1..=config.games {
        if stop_requested() {
            break;
        }
        match play_game(config, number, records.as_mut(), &mut judge) {
            Ok(Played::Counted(g)) => {
                summary.add(&g);
                writeln!(out, "{}", game_line(&g)).map_err(io)?;
            }
            Ok(Played::Interrupted(g)) => {
                writeln!(
                    out,
                    "game {}: interrupted after {} move{}, not counted",
                    g.number,
                    g.moves,
                    if g.moves == 1 { "" } else { "s" }
                )
                .map_err(io)?;
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        out.flush().map_err(io)?;
    }
    if stop_requested() {
        writeln!(out, "match stopped by a signal").map_err(io)?;
    }
    writeln!(
        out,
        "summary: A {} wins, B {} wins, {} draws, {} without result; Black won {} of {}",
        summary.a_wins,
        summary.b_wins,
        summary.draws,
        summary.no_result,
        summary.black_wins,
        summary.decided()
    )
    .map_err(io)?;
    if let Some((p, lo, hi)) = summary.a_rate() {
        writeln!(
            out,
            "A's win rate {:.1}% (95% CI {:.1}%-{:.1}%, Wilson, draws count half, {} game{})",
            100.0 * p,
            100.0 * lo,
            100.0 * hi,
            summary.decided(),
            if summary.decided() == 1 { "" } else { "s" }
        )
        .map_err(io)?;
    }
    if config.fischer.is_some() {
        let least = |t: Option<Duration>| {
            t.map_or("no move".to_string(), |t| {
                format!("{:.3} s", t.as_secs_f64())
            })
        };
        writeln!(
            out,
            "Fischer clock: losses on time A {}, B {}; least time left after a move A {}, B {}",
            summary.time_losses[0],
            summary.time_losses[1],
            least(summary.least_time_left[0]),
            least(summary.least_time_left[1])
        )
        .map_err(io)?;
    }
    if config.referee.is_some() {
        writeln!(
            out,
            "tengen's count and the referee's disagreed in {} games",
            summary.disagreements
        )
        .map_err(io)?;
    }
    out.flush().map_err(io)?;
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}
