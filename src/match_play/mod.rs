//! `tengen match`: engine-against-engine games over GTP, for strength measurements.
//!
//! Engine A is the `--black` command and moves first in odd-numbered games (Black; White under
//! pre-judgement rules), second in even ones, unless colours are fixed (A Black in every game).
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
//! Handicap games (`--handicap N`) start from GTP's fixed placement ([`crate::search::handicap`],
//! the crate's one table): tengen's record places it, and each engine and the referee is sent
//! `fixed_handicap N`, its answer checked against those stones; White moves first. Paired games
//! (`--sprt`, `--openings`, `--opening-moves`): games 2k − 1 and 2k share an opening, colours
//! swapped, and each finished pair is counted by A's points over it; with `--sprt` the match
//! stops as soon as the sequential test decides ([`sprt`]).
//!
//! Games side by side (`--concurrency N`): N workers, each with its own judge, play the games
//! whose numbers the match hands out, one after each result, so that with one worker the games
//! are played strictly in turn; the first N games check the configuration. Results are reported,
//! and pairs and the test counted, in the order games finish; once the match needs no more
//! games (the test decided, a game showed the configuration cannot be played), the games in
//! progress are stopped as a signal stops them, and not counted.
//!
//! One file per job: [`client`] (the controller side of GTP: an engine as a child process, with
//! a deadline on every answer), `seat` (an engine of one game: started, asked, set up), `game`
//! (one game: the turns, the pre-judgement opening), `count` (the count of a finished game:
//! tengen's, from the search's judgement as its `final_score` gives it, and the referee's),
//! `stats` (the results, the totals and the Wilson interval), `openings` (the pairs' openings),
//! `sprt` (pairs, the sequential test, the Elo estimate), `records` (the SGF directory) and
//! `signals` (SIGINT and SIGTERM).

pub mod client;
mod count;
mod game;
pub mod openings;
mod records;
mod seat;
mod signals;
pub mod sprt;
mod stats;

pub use game::{play_game, Played};
pub use openings::Openings;
pub use records::Records;
pub use signals::stop_requested;
pub use sprt::Sprt;
pub use stats::{game_line, wilson, GameResult, Side, Summary};

use crate::game::Game;
use crate::rules::Rules;
use crate::search::handicap::{fixed_points, max_fixed};
use crate::search::judgement::StandaloneJudge;
use signals::stop_on_signals;
use signals::{allow_games, games_stopped, stop_games};
use sprt::{pair_line, summary_lines, Ending, Pairs};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// The moves of the built-in openings when the pairs have no file of openings.
pub const DEFAULT_OPENING_MOVES: usize = 2;

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
    /// Seed of tengen's dead-stone judgement and of the built-in openings.
    pub seed: u64,
    /// Black's fixed handicap stones; 0 for none.
    pub handicap: usize,
    /// Engine A takes Black (the first move, or the handicap) in every game.
    pub fixed_colours: bool,
    /// The sequential probability ratio test on game pairs, stopping the match once decided.
    pub sprt: Option<Sprt>,
    /// A file or directory of openings for the game pairs.
    pub openings: Option<PathBuf>,
    /// The built-in openings' moves, or the most moves of each listed opening.
    pub opening_moves: Option<usize>,
    /// Games played at the same time, each with its own engines (1 or more).
    pub concurrency: usize,
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

    /// Whether game `number` is one of the first games, started together, any failure of which
    /// is the configuration's rather than the game's.
    fn checks_configuration(&self, number: usize) -> bool {
        number <= self.concurrency.max(1)
    }

    /// Whether engine A moves first (or takes the first player's seat) in game `number`.
    fn a_first(&self, number: usize) -> bool {
        self.fixed_colours || number % 2 == 1
    }

    /// Whether games come in pairs sharing an opening.
    pub fn paired(&self) -> bool {
        self.sprt.is_some() || self.openings.is_some() || self.opening_moves.is_some()
    }

    /// Refuses what cannot be played together, before any engine starts.
    pub fn check(&self) -> Result<(), String> {
        let placements = self.rules.opening_placements > 0;
        if placements && (self.handicap > 0 || self.openings.is_some()) {
            return Err(format!(
                "--{}: not under {} rules (the opening placements take their place)",
                if self.handicap > 0 {
                    "handicap"
                } else {
                    "openings"
                },
                self.rules.name
            ));
        }
        if placements && self.opening_moves.is_some_and(|n| n > 0) {
            return Err(format!(
                "--opening-moves: not under {} rules (the opening placements take their place)",
                self.rules.name
            ));
        }
        if self.handicap > 0 {
            let most = max_fixed(self.size);
            if most == 0 {
                return Err(format!(
                    "--handicap {}: a {}x{} board has no fixed handicap",
                    self.handicap, self.size, self.size
                ));
            }
            if !(2..=most).contains(&self.handicap) {
                return Err(format!(
                    "--handicap {}: a {}x{} board takes a fixed handicap of 2 to {} stones",
                    self.handicap, self.size, self.size, most
                ));
            }
        }
        if self.concurrency == 0 {
            return Err("--concurrency 0: at least one game at a time".to_string());
        }
        if self.sprt.is_some() && self.games % 2 == 1 {
            return Err(format!(
                "--games {}: the SPRT plays pairs of games, an even number",
                self.games
            ));
        }
        Ok(())
    }

    /// tengen's record of a game before its first move: the board, the komi, the handicap.
    fn start_game(&self) -> Result<Game, String> {
        let mut game = Game::new(self.size, self.rules)
            .ok_or_else(|| "board size must be 2 to 25".to_string())?;
        game.set_komi(self.komi);
        if self.handicap > 0 {
            let points = fixed_points(game.board(), self.handicap).ok_or_else(|| {
                format!(
                    "--handicap {}: no fixed placement on this board",
                    self.handicap
                )
            })?;
            game.place_handicap(&points)
                .map_err(|e| format!("--handicap {}: {}", self.handicap, e))?;
        }
        Ok(game)
    }

    /// The pairs' openings, when games are paired: the listed ones, else the built-in ones
    /// (none under rules with opening placements).
    fn openings(&self, start: &Game) -> Result<Option<Openings>, String> {
        if let Some(path) = &self.openings {
            return Openings::load(path, start, self.opening_moves).map(Some);
        }
        if !self.paired() {
            return Ok(None);
        }
        let moves = match self.rules.opening_placements {
            0 => self.opening_moves.unwrap_or(DEFAULT_OPENING_MOVES),
            _ => 0,
        };
        Ok(Some(Openings::Generated {
            moves,
            seed: self.seed,
        }))
    }
}

/// Plays the whole match, printing one line per game and the summary to `out`.
///
/// The summary is printed however the match ends: after every game, after a signal (SIGINT or
/// SIGTERM, the game in progress not counted), or when the first game shows the configuration
/// cannot be played (then `Err` after the summary).
pub fn run(config: &MatchConfig, out: &mut impl Write) -> Result<Summary, String> {
    config.check()?;
    let start = config.start_game()?;
    let openings = config.openings(&start)?;
    let records = match &config.sgf_dir {
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
        "match: {}{} games, {}x{}{}, komi {}, {} rules{}{}",
        if config.sprt.is_some() {
            "at most "
        } else {
            ""
        },
        config.games,
        config.size,
        config.size,
        match config.handicap {
            0 => String::new(),
            n => format!(", handicap {}", n),
        },
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
        },
        if config.fixed_colours {
            ", A Black in every game"
        } else {
            ""
        }
    )
    .map_err(io)?;
    writeln!(out, "A: {}\nB: {}", config.black, config.white).map_err(io)?;
    if let Some(o) = &openings {
        let colours = if config.fixed_colours {
            "A Black in both"
        } else {
            "colours swapped"
        };
        writeln!(out, "pairs of games, {}, {}", colours, o.describe()).map_err(io)?;
    }
    if let Some(t) = config.sprt {
        let (lower, upper) = Sprt::bounds();
        writeln!(
            out,
            "SPRT elo0 {} elo1 {} (logistic Elo of A over B, pentanomial, alpha {}, beta {}): \
             stops when the LLR leaves [{:.2}, {:.2}]",
            t.elo0,
            t.elo1,
            sprt::ALPHA,
            sprt::BETA,
            lower,
            upper
        )
        .map_err(io)?;
    }
    out.flush().map_err(io)?;
    let mut summary = Summary::default();
    let mut pairs = Pairs::default();
    let mut decided = None;
    let mut failure = None;
    let records = records.map(Mutex::new);
    // The match hands out game numbers one at a time, after each result: with one worker the
    // games are played strictly in turn, and no game starts after the test decides.
    let (jobs, job_queue) = mpsc::channel::<usize>();
    let job_queue = Mutex::new(job_queue);
    allow_games();
    std::thread::scope(|scope| -> Result<(), String> {
        let (sender, results) = mpsc::channel();
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (openings, start, records, job_queue) = (&openings, &start, &records, &job_queue);
            scope.spawn(move || {
                // One judge, with its threads, counts every game this worker plays.
                let mut judge = StandaloneJudge::default();
                loop {
                    let next = job_queue.lock().map(|q| q.recv());
                    let Ok(Ok(number)) = next else {
                        break;
                    };
                    if games_stopped() {
                        break;
                    }
                    let opening = openings
                        .as_ref()
                        .map(|o| o.for_pair(number.div_ceil(2), start))
                        .unwrap_or_default();
                    let played = play_game(config, number, &opening, records.as_ref(), &mut judge);
                    if sender.send(played).is_err() {
                        break;
                    }
                }
            });
        }
        let mut jobs = Some(jobs);
        let mut next_game = 1;
        let mut hand_out = |jobs: &mut Option<mpsc::Sender<usize>>| {
            if next_game > config.games || games_stopped() {
                // No more games: idle workers end.
                *jobs = None;
            } else if let Some(j) = jobs {
                let _ = j.send(next_game);
                next_game += 1;
            }
        };
        for _ in 0..config.concurrency.max(1) {
            hand_out(&mut jobs);
        }
        drop(sender);
        // The games' results in the order they finish. The workers stop once the match needs
        // no more games; so they do when this report fails (the output is gone).
        let mut report = |played: Result<Played, String>| -> Result<(), String> {
            match played {
                Ok(Played::Counted(g)) => {
                    summary.add(&g);
                    writeln!(out, "{}", game_line(&g)).map_err(io)?;
                    if openings.is_some() && decided.is_none() {
                        if let Some(pair) = pairs.add(g.number, g.a_half_points()) {
                            let llr = config.sprt.map(|t| t.llr(&pairs.pentanomial));
                            writeln!(out, "{}", pair_line(pair, llr)).map_err(io)?;
                            decided = llr.and_then(Sprt::verdict);
                            if decided.is_some() {
                                writeln!(
                                    out,
                                    "match stopped by the SPRT after {} games",
                                    summary.decided() + summary.no_result
                                )
                                .map_err(io)?;
                                stop_games();
                            }
                        }
                    }
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
                    if failure.is_none() {
                        failure = Some(e);
                    }
                    stop_games();
                }
            }
            out.flush().map_err(io)
        };
        for played in results {
            report(played).inspect_err(|_| stop_games())?;
            hand_out(&mut jobs);
        }
        Ok(())
    })?;
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
    if openings.is_some() {
        let test = config.sprt.map(|t| {
            let ending = match decided {
                Some(v) => Ending::Decided(v),
                None if stop_requested() || failure.is_some() => Ending::Stopped,
                None => Ending::Limit,
            };
            (t, ending)
        });
        for line in summary_lines(&pairs, test) {
            writeln!(out, "{}", line).map_err(io)?;
        }
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
