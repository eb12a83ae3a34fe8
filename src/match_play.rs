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
//! the predictions give the colours and the threshold (`rules::prejudgement_threshold`), both
//! engines are told (`tengen-prejudgement P1 P2`), White moves, and the count is against the
//! threshold (the game's komi), draws included. An engine without those commands cannot play.

use crate::board::Color;
use crate::coords::{format_move, parse_vertex};
use crate::dead;
use crate::game::Game;
use crate::gtp::client::{Client, ClientError, Response};
use crate::rules::{prejudgement_threshold, Margin, Rules};
use crate::score;
use crate::search::{self, ownership, OWNERSHIP_PLAYOUTS};
use crate::sgf;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Up once SIGINT or SIGTERM has arrived.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the match was asked to stop.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Makes SIGINT and SIGTERM raise [`STOP`] instead of ending the process, so the match can stop
/// its engines and report. std has no way to install a signal handler and the allowed crates
/// offer none, hence the C `signal` call: the one `unsafe` of the match tool.
#[cfg(unix)]
fn stop_on_signals() {
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;
    extern "C" fn raise_stop(_signal: i32) {
        // Only an atomic store: async-signal-safe.
        STOP.store(true, Ordering::Relaxed);
    }
    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }
    for signum in [SIGINT, SIGTERM] {
        // SAFETY: `signal` is the C library's; the handler only stores to an atomic, which is
        // async-signal-safe, and lives for the whole program.
        unsafe {
            signal(signum, raise_stop);
        }
    }
}

#[cfg(not(unix))]
fn stop_on_signals() {}

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

impl MatchConfig {
    fn move_timeout(&self) -> Duration {
        self.move_timeout.unwrap_or(match self.time {
            Some(t) => t * 3 + Duration::from_secs(5),
            None => Duration::from_secs(120),
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

/// Which engine of the match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// How one game ended.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub number: usize,
    /// Engine A's colour in this game.
    pub a_color: Color,
    /// The winning colour; `None` for a draw or a game without result.
    pub winner: Option<Color>,
    /// The SGF result: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, or `?` without a result.
    pub result: String,
    /// Why the game ended, in words.
    pub reason: String,
    pub moves: usize,
    /// tengen's count, for games counted on the board.
    pub tengen_score: Option<Margin>,
    /// The referee's `final_score`, or why it has none.
    pub referee_score: Option<Result<Margin, String>>,
    /// Pre-judgement games: the two predictions (the first mover's first) and the threshold.
    pub prejudgement: Option<(Margin, Margin, Margin)>,
}

impl GameResult {
    /// The winner as an engine of the match.
    pub fn winner_side(&self) -> Option<Side> {
        self.winner
            .map(|c| if c == self.a_color { Side::A } else { Side::B })
    }

    /// Whether the game has a result (a win or a draw), as opposed to an error.
    pub fn decided(&self) -> bool {
        self.result != "?"
    }
}

/// The match's totals from engine A's side.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// Games without a result (an engine refused a legal move, and the like).
    pub no_result: usize,
    pub black_wins: usize,
    /// Games in which tengen's count and the referee's differ.
    pub disagreements: usize,
}

impl Summary {
    fn add(&mut self, g: &GameResult) {
        match (g.winner_side(), g.decided()) {
            (Some(Side::A), _) => self.a_wins += 1,
            (Some(Side::B), _) => self.b_wins += 1,
            (None, true) => self.draws += 1,
            (None, false) => self.no_result += 1,
        }
        if g.winner == Some(Color::Black) {
            self.black_wins += 1;
        }
        if let (Some(t), Some(Ok(r))) = (g.tengen_score, &g.referee_score) {
            if t != *r {
                self.disagreements += 1;
            }
        }
    }

    /// Games with a result.
    pub fn decided(&self) -> usize {
        self.a_wins + self.b_wins + self.draws
    }

    /// A's score rate (draws half) and its 95% Wilson interval; `None` before any result.
    pub fn a_rate(&self) -> Option<(f64, f64, f64)> {
        let n = self.decided();
        (n > 0).then(|| {
            let p = (self.a_wins as f64 + 0.5 * self.draws as f64) / n as f64;
            let (lo, hi) = wilson(p, n as f64);
            (p, lo, hi)
        })
    }
}

/// The 95% Wilson score interval for a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A running engine of one game, with what it said about itself.
struct Seat {
    client: Client,
    /// `name version`, for records and messages.
    title: String,
    commands: Vec<String>,
}

impl Seat {
    fn lists(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }
}

/// How a seat failed during a game.
enum Failure {
    /// No answer in time, or the process ended: the engine loses.
    Lost(ClientError),
    /// An answer that makes the game impossible to continue (e.g. `boardsize` refused).
    Refused(String),
}

fn ask(seat: &mut Seat, command: &str, deadline: Duration) -> Result<String, Failure> {
    match seat.client.send(command, deadline) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(msg)) => Err(Failure::Refused(format!(
            "{} answered '{}' with '? {}'",
            seat.title, command, msg
        ))),
        Err(e) => Err(Failure::Lost(e)),
    }
}

/// Starts an engine and learns its name and commands.
fn start(command_line: &str, config: &MatchConfig) -> Result<Seat, String> {
    let show = log::log_enabled!(log::Level::Debug);
    let mut client =
        Client::spawn(command_line, show).map_err(|e| format!("{}: {}", command_line, e))?;
    client.stop_when(&STOP);
    let deadline = config.setup_timeout();
    let mut get = |cmd: &str| -> Result<Response, String> {
        client
            .send(cmd, deadline)
            .map_err(|e| format!("{}: {}: {}", command_line, cmd, e))
    };
    let name = get("name")?.unwrap_or_default();
    let version = get("version")?.unwrap_or_default();
    let commands: Vec<String> = get("list_commands")?
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    let title = match (name.trim(), version.trim()) {
        ("", _) => client.label.clone(),
        (n, "") => n.to_string(),
        (n, v) => format!("{} {}", n, v),
    };
    Ok(Seat {
        client,
        title,
        commands,
    })
}

/// Sets a seat up for a new game: board, komi, rules and time as far as it lists them.
fn prepare(seat: &mut Seat, config: &MatchConfig) -> Result<(), Failure> {
    let d = config.setup_timeout();
    ask(seat, &format!("boardsize {}", config.size), d)?;
    ask(seat, "clear_board", d)?;
    if seat.lists("komi") {
        ask(seat, &format!("komi {}", config.komi), d)?;
    }
    if seat.lists("tengen-rules") {
        ask(seat, &format!("tengen-rules {}", config.rules.name), d)?;
    } else if seat.lists("kgs-rules") {
        ask(seat, &format!("kgs-rules {}", config.rules.name), d)?;
    }
    if let Some(t) = config.time {
        if seat.lists("time_settings") {
            let secs = t.as_secs_f64().ceil().max(1.0) as u64;
            ask(seat, &format!("time_settings 0 {} 1", secs), d)?;
        }
    }
    Ok(())
}

/// The commands an engine needs for pre-judgement games.
const PREJUDGEMENT_COMMANDS: [&str; 2] = ["tengen-prejudge", "tengen-prejudgement"];

/// The colour whose seat has this index.
fn seat_color(index: usize) -> Color {
    if index == Color::Black.index() {
        Color::Black
    } else {
        Color::White
    }
}

/// The seat asked for the next move. Seats are indexed by colour, except in the pre-judgement
/// opening, where colours are not yet known: the first mover (in the first player's seat until
/// the predictions decide) places the first and last opening stones, the other engine those in
/// between, so each places stones of both colours.
fn mover_seat(game: &Game) -> usize {
    let rules = game.rules();
    if !game.in_opening() {
        return game.to_move().index();
    }
    let first = rules.first_player.index();
    let k = game.move_number();
    if k == 0 || k + 1 == rules.opening_placements as usize {
        first
    } else {
        1 - first
    }
}

/// The two predictions after the pre-judgement opening, first mover's first, each engine told
/// both. A seat that fails or answers something other than a score loses (`Err`).
fn settle_predictions(
    seats: &mut [Seat; 2],
    first: usize,
    deadline: Duration,
) -> Result<(Margin, Margin), End> {
    let loses = |seat: usize, why: String| End::Win(seat_color(1 - seat), "F", why);
    let mut predictions = [Margin::default(); 2];
    for (i, seat) in [first, 1 - first].into_iter().enumerate() {
        let text = ask(&mut seats[seat], "tengen-prejudge", deadline)
            .map_err(|e| loses(seat, failure_text(&e)))?;
        predictions[i] = Margin::parse(&text).ok_or_else(|| {
            loses(
                seat,
                format!(
                    "{} answered tengen-prejudge with '{}', not a score",
                    seats[seat].title,
                    text.trim()
                ),
            )
        })?;
    }
    let command = format!("tengen-prejudgement {} {}", predictions[0], predictions[1]);
    for seat in [first, 1 - first] {
        ask(&mut seats[seat], &command, deadline).map_err(|e| loses(seat, failure_text(&e)))?;
    }
    Ok((predictions[0], predictions[1]))
}

/// A game's end before counting.
enum End {
    /// Two passes or the move limit: count the board.
    Count(String),
    /// A decided game: the winner, the SGF result letter after `+`, and why.
    Win(Color, &'static str, String),
    /// No result.
    NoResult(String),
    /// The match was stopped by a signal: no result, and the game is not counted.
    Interrupted,
}

/// Why a game was not played.
enum Unplayed {
    /// The match cannot be played as configured (found in its first game).
    Config(String),
    /// A game without moves: the winner (a forfeit), or none, and why.
    Void(Option<Color>, String),
}

/// Engine A's colour in game `number` (its seat's, under pre-judgement rules, until the
/// predictions settle it).
fn a_color_of(config: &MatchConfig, number: usize) -> Color {
    let first_player = config.rules.first_player;
    if number % 2 == 1 {
        first_player
    } else {
        first_player.opponent()
    }
}

/// One game in progress: the two engines, the referee, and tengen's authoritative record.
struct Table {
    number: usize,
    /// Seats by colour (`Color::index`); in the pre-judgement opening the first player's seat
    /// holds the first mover until the predictions give the colours.
    seats: [Seat; 2],
    referee: Option<Seat>,
    /// Why the referee stopped following the game, once it has.
    referee_error: Option<String>,
    game: Game,
    /// Engine A's colour (its seat's, until the pre-judgement predictions settle it).
    a_color: Color,
    /// Pre-judgement games: the two predictions once stated, the first mover's first.
    predictions: Option<(Margin, Margin)>,
}

/// The decision of a finished game, before it is written down.
struct Outcome {
    winner: Option<Color>,
    result: String,
    reason: String,
    tengen_score: Option<Margin>,
    referee_score: Option<Result<Margin, String>>,
}

/// A game as played: counted, or stopped by a signal (not counted).
pub enum Played {
    Counted(GameResult),
    Interrupted(GameResult),
}

/// Plays game `number` and reports it, writing its SGF into `records` if given (a record that
/// cannot be written is reported on stderr). `Err` when the match cannot be played as
/// configured.
pub fn play_game(
    config: &MatchConfig,
    number: usize,
    records: Option<&mut Records>,
) -> Result<Played, String> {
    let (mut table, setup_end) = match Table::set_up(config, number) {
        Ok(set) => set,
        Err(Unplayed::Config(e)) => return Err(e),
        Err(Unplayed::Void(winner, reason)) => {
            let result = winner.map_or("?".to_string(), |c| format!("{}+F", c.letter()));
            return Ok(Played::Counted(GameResult {
                number,
                a_color: a_color_of(config, number),
                winner,
                result,
                reason,
                moves: 0,
                tengen_score: None,
                referee_score: None,
                prejudgement: None,
            }));
        }
    };
    let mut end = match setup_end {
        Some(end) => end,
        None => loop {
            if stop_requested() {
                break End::Interrupted;
            }
            if let Err(end) = table.play_turn(config) {
                break end;
            }
        },
    };
    // An engine that died of the same signal (it shares the terminal) has not lost.
    if stop_requested() {
        end = End::Interrupted;
    }
    let interrupted = matches!(end, End::Interrupted);
    if interrupted {
        table.kill_all();
    }
    let outcome = table.count(config, end);
    if let Some(records) = records {
        if let Err(e) = table.write_record(records, &outcome) {
            log::warn!("game {}: the record was not written: {}", number, e);
        }
    }
    let result = table.finish(outcome);
    Ok(if interrupted {
        Played::Interrupted(result)
    } else {
        Played::Counted(result)
    })
}

/// The directory of a match's records: each game is written as `game-NNN.sgf`, numbered past
/// the highest number there when the match began, and never over an existing file.
pub struct Records {
    dir: PathBuf,
    /// The number of the match's game 1's file, less one.
    offset: usize,
}

impl Records {
    /// Creates the directory when needed and finds the numbers already taken.
    pub fn open(dir: &Path) -> Result<Records, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        let offset = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| record_number(&e.file_name().to_string_lossy()))
            .max()
            .unwrap_or(0);
        if offset > 0 {
            log::warn!(
                "{} holds records up to game-{:03}.sgf: this match's are numbered from {:03}",
                dir.display(),
                offset,
                offset + 1
            );
        }
        Ok(Records {
            dir: dir.to_path_buf(),
            offset,
        })
    }

    /// Writes `text` as game `number`'s record: into a temporary file of the same directory,
    /// then linked under the first free name from the game's number on (a link, unlike a
    /// rename, never replaces a file that appeared meanwhile). Returns the path written.
    pub fn write(&mut self, number: usize, text: &str) -> Result<PathBuf, String> {
        let temporary = self.dir.join(format!(
            ".game-{:03}.sgf.{}.tmp",
            number,
            std::process::id()
        ));
        let written = std::fs::File::create(&temporary).and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(format!("{}: {}", temporary.display(), e));
        }
        let mut n = self.offset + number;
        let linked = loop {
            let path = self.dir.join(format!("game-{:03}.sgf", n));
            match std::fs::hard_link(&temporary, &path) {
                Ok(()) => break Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // Another writer took the name since the match began: keep both files.
                    self.offset += 1;
                    n += 1;
                }
                Err(e) => break Err(format!("{}: {}", path.display(), e)),
            }
        };
        let _ = std::fs::remove_file(&temporary);
        linked
    }
}

/// `N` for a file named `game-N.sgf`.
fn record_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("game-")?.strip_suffix(".sgf")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl Table {
    /// Starts the engines (and the referee) and sets them up for game `number`. In the first
    /// game, any failure is the configuration's (`Unplayed::Config`); later, an engine that
    /// cannot start forfeits and a refused setup leaves the game without result. An engine
    /// lost during the setup ends the game at once (`Some` end).
    fn set_up(config: &MatchConfig, number: usize) -> Result<(Table, Option<End>), Unplayed> {
        let a_color = a_color_of(config, number);
        let (black_cmd, white_cmd) = if a_color == Color::Black {
            (&config.black, &config.white)
        } else {
            (&config.white, &config.black)
        };
        let unplayable = |winner: Option<Color>, why: String| {
            if number == 1 {
                Unplayed::Config(why)
            } else {
                Unplayed::Void(winner, why)
            }
        };
        let (black, white) = (start(black_cmd, config), start(white_cmd, config));
        let mut seats = match (black, white) {
            (Ok(b), Ok(w)) => [b, w],
            (Err(e), Ok(_)) => {
                return Err(unplayable(Some(Color::White), format!("black {}", e)));
            }
            (Ok(_), Err(e)) => {
                return Err(unplayable(Some(Color::Black), format!("white {}", e)));
            }
            (Err(b), Err(w)) => {
                return Err(unplayable(None, format!("black {}; white {}", b, w)));
            }
        };
        let mut referee_error: Option<String> = None;
        let mut referee = match &config.referee {
            Some(cmd) => match start(cmd, config) {
                Ok(r) => Some(r),
                Err(e) if number == 1 => return Err(Unplayed::Config(e)),
                Err(e) => {
                    referee_error = Some(format!("the referee {}", e));
                    None
                }
            },
            None => None,
        };
        if config.rules.komi_from_predictions {
            for seat in &seats {
                if let Some(missing) = PREJUDGEMENT_COMMANDS.iter().find(|c| !seat.lists(c)) {
                    return Err(unplayable(
                        None,
                        format!(
                            "{} does not list {}: it cannot play pre-judgement games",
                            seat.title, missing
                        ),
                    ));
                }
            }
        }

        let Some(mut game) = Game::new(config.size, config.rules) else {
            return Err(Unplayed::Config("board size must be 2 to 25".to_string()));
        };
        game.set_komi(config.komi);

        let mut end = None;
        for color in [Color::Black, Color::White] {
            match prepare(&mut seats[color.index()], config) {
                Ok(()) => {}
                Err(Failure::Refused(msg)) if number == 1 => return Err(Unplayed::Config(msg)),
                Err(Failure::Refused(msg)) => {
                    end = Some(End::NoResult(msg));
                    break;
                }
                Err(Failure::Lost(e)) => {
                    end = Some(End::Win(
                        color.opponent(),
                        "F",
                        format!("{} {} during setup", color, e),
                    ));
                    break;
                }
            }
        }
        if let Some(r) = referee.as_mut() {
            if let Err(e) = prepare(r, config) {
                referee_error = Some(failure_text(&e));
            }
        }
        let table = Table {
            number,
            seats,
            referee,
            referee_error,
            game,
            a_color,
            predictions: None,
        };
        Ok((table, end))
    }

    /// Sends `command` to the referee while it still follows the game; a failure stops it
    /// following.
    fn tell_referee(&mut self, command: &str, deadline: Duration) {
        if let (Some(r), None) = (self.referee.as_mut(), &self.referee_error) {
            if let Err(e) = ask(r, command, deadline) {
                self.referee_error = Some(failure_text(&e));
            }
        }
    }

    /// One turn: the pre-judgement predictions when the opening has just ended, then the
    /// mover's `genmove`, checked against tengen's record and passed on to the other engine and
    /// the referee. `Err` is how the game ends: two passes or the move limit (to be counted), a
    /// loss, or no result.
    fn play_turn(&mut self, config: &MatchConfig) -> Result<(), End> {
        let move_deadline = config.move_timeout();
        let prejudgement = config.rules.komi_from_predictions;
        if prejudgement && self.predictions.is_none() && !self.game.in_opening() {
            self.settle(config)?;
        }
        if self.game.is_over() {
            return Err(End::Count("two passes".to_string()));
        }
        if self.game.move_number() >= config.max_moves() {
            return Err(End::Count(format!("move limit of {}", config.max_moves())));
        }
        let color = self.game.to_move();
        let letter = color.letter().to_ascii_lowercase();
        // The mover's seat; its colour is `color` except in the pre-judgement opening, where
        // the seat's colour stands for the engine in a result.
        let seat = mover_seat(&self.game);
        let loser = seat_color(seat);
        let mover = &mut self.seats[seat];
        let answer = match mover
            .client
            .send(&format!("genmove {}", letter), move_deadline)
        {
            Ok(Ok(text)) => text,
            Ok(Err(msg)) => {
                return Err(End::Win(
                    loser.opponent(),
                    "F",
                    format!("{}'s genmove failed: {}", color, msg),
                ));
            }
            Err(ClientError::Timeout(d)) => {
                // A hung engine will not answer `quit` either.
                mover.client.kill();
                return Err(End::Win(
                    loser.opponent(),
                    "T",
                    format!("{} gave no move within {:.1} s", color, d.as_secs_f64()),
                ));
            }
            Err(e) => {
                return Err(End::Win(loser.opponent(), "F", format!("{} {}", color, e)));
            }
        };
        let answer = answer.trim().to_string();
        if answer.eq_ignore_ascii_case("resign") {
            return Err(End::Win(
                loser.opponent(),
                "R",
                format!("{} resigned", color),
            ));
        }
        let mv = parse_vertex(&answer, self.game.board()).map_err(|_| {
            End::Win(
                loser.opponent(),
                "F",
                format!("{} answered genmove with '{}', not a move", color, answer),
            )
        })?;
        if let Err(e) = self.game.play(color, mv) {
            return Err(End::Win(
                loser.opponent(),
                "F",
                format!("{} played an illegal move {}: {}", color, answer, e),
            ));
        }
        let vertex = format_move(self.game.board(), mv);
        let play = format!("play {} {}", letter, vertex);
        let other = &mut self.seats[1 - seat];
        let told = match other.client.send(&play, move_deadline) {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(msg)) => Err(End::NoResult(format!(
                "{} refused {}'s legal move {}: {}",
                color.opponent(),
                color,
                vertex,
                msg
            ))),
            Err(e) => {
                other.client.kill();
                Err(End::Win(loser, "F", format!("{} {}", color.opponent(), e)))
            }
        };
        // The referee follows the record even when the other engine failed to.
        self.tell_referee(&play, move_deadline);
        log::debug!("game {}: {} {}", self.number, color, vertex);
        told
    }

    /// After the pre-judgement opening: the predictions, and from them the colours and the
    /// threshold (the game's komi), which the referee is told too.
    fn settle(&mut self, config: &MatchConfig) -> Result<(), End> {
        let first_player = config.rules.first_player;
        let move_deadline = config.move_timeout();
        let (p1, p2) = settle_predictions(&mut self.seats, first_player.index(), move_deadline)?;
        let (threshold, white) = prejudgement_threshold(p1, p2);
        // The first mover sits in the first player's (White's) seat so far.
        let first_is_white = white == 1;
        if first_is_white != (first_player == Color::White) {
            self.seats.swap(0, 1);
        }
        let a_first = self.number % 2 == 1;
        self.a_color = if a_first == first_is_white {
            Color::White
        } else {
            Color::Black
        };
        // The threshold t (White's margin) is a komi of -t.
        self.game.set_komi(threshold.0);
        if let (Some(r), None) = (self.referee.as_ref(), &self.referee_error) {
            let command = if r.lists("tengen-prejudgement") {
                format!("tengen-prejudgement {} {}", p1, p2)
            } else {
                format!("komi {}", threshold.0)
            };
            self.tell_referee(&command, move_deadline);
        }
        log::info!(
            "game {}: predictions {} and {}, threshold {}, player {} takes White",
            self.number,
            p1,
            p2,
            threshold,
            white
        );
        self.predictions = Some((p1, p2));
        Ok(())
    }

    /// The result of a finished game: for a game that ends on the board, tengen's count with
    /// its dead-stone judgement and the referee's `final_score`, the referee's deciding when it
    /// has one.
    fn count(&mut self, config: &MatchConfig, end: End) -> Outcome {
        let mut tengen_score = None;
        let mut referee_score = None;
        let (winner, result, reason) = match end {
            End::Count(why) => {
                let dead = judge_dead(&self.game, config.seed);
                let ours = score::count(&self.game, &dead).margin;
                tengen_score = Some(ours);
                if let (None, Some(e)) = (&self.referee, &self.referee_error) {
                    referee_score = Some(Err(e.clone()));
                }
                if let Some(r) = self.referee.as_mut() {
                    referee_score = Some(match &self.referee_error {
                        Some(e) => Err(e.clone()),
                        None => match ask(r, "final_score", config.setup_timeout()) {
                            Ok(text) => Margin::parse(&text)
                                .ok_or_else(|| format!("final_score answered '{}'", text)),
                            Err(e) => Err(failure_text(&e)),
                        },
                    });
                }
                let decisive = match &referee_score {
                    Some(Ok(m)) => *m,
                    _ => ours,
                };
                let winner = match decisive.0 .0 {
                    x if x > 0 => Some(Color::Black),
                    x if x < 0 => Some(Color::White),
                    _ => None,
                };
                (winner, decisive.to_string(), why)
            }
            End::Win(c, how, why) => (Some(c), format!("{}+{}", c.letter(), how), why),
            End::NoResult(why) => (None, "?".to_string(), why),
            End::Interrupted => (None, "?".to_string(), "interrupted".to_string()),
        };
        Outcome {
            winner,
            result,
            reason,
            tengen_score,
            referee_score,
        }
    }

    /// Writes the game as SGF into the match's records.
    fn write_record(&self, records: &mut Records, outcome: &Outcome) -> Result<PathBuf, String> {
        let info = sgf::Info {
            black: Some(self.seats[0].title.clone()),
            white: Some(self.seats[1].title.clone()),
            result: (outcome.result != "?").then(|| outcome.result.clone()),
            comment: Some(format!(
                "game {} of tengen match: {}",
                self.number, outcome.reason
            )),
            predictions: self.predictions,
        };
        records.write(self.number, &sgf::write(&self.game, &info))
    }

    /// Ends every process of the game at once (after a signal: no time for `quit`).
    fn kill_all(&mut self) {
        for seat in self.seats.iter_mut().chain(self.referee.as_mut()) {
            seat.client.kill();
        }
    }

    /// Lets the engines go and reports the game.
    fn finish(self, outcome: Outcome) -> GameResult {
        let grace = Duration::from_secs(2);
        let [black, white] = self.seats;
        for seat in [Some(black), Some(white), self.referee]
            .into_iter()
            .flatten()
        {
            seat.client.quit(grace);
        }
        GameResult {
            number: self.number,
            a_color: self.a_color,
            winner: outcome.winner,
            result: outcome.result,
            reason: outcome.reason,
            moves: self.game.move_number(),
            tengen_score: outcome.tengen_score,
            referee_score: outcome.referee_score,
            prejudgement: self
                .predictions
                .map(|(p1, p2)| (p1, p2, prejudgement_threshold(p1, p2).0)),
        }
    }
}

fn failure_text(f: &Failure) -> String {
    match f {
        Failure::Lost(e) => e.to_string(),
        Failure::Refused(msg) => msg.clone(),
    }
}

/// One line per game, for the match log.
pub fn game_line(g: &GameResult) -> String {
    let winner = match (g.winner_side(), g.decided()) {
        (Some(Side::A), _) => "A wins",
        (Some(Side::B), _) => "B wins",
        (None, true) => "draw",
        (None, false) => "no result",
    };
    let mut line = format!(
        "game {}: A {} | {} {} ({}, {} move{})",
        g.number,
        if g.a_color == Color::Black {
            "black"
        } else {
            "white"
        },
        g.result,
        winner,
        g.reason,
        g.moves,
        if g.moves == 1 { "" } else { "s" }
    );
    if let Some((p1, p2, t)) = g.prejudgement {
        line.push_str(&format!("; predictions {} {}, threshold {}", p1, p2, t));
    }
    if let Some(t) = g.tengen_score {
        line.push_str(&format!("; tengen counts {}", t));
    }
    match &g.referee_score {
        Some(Ok(r)) => {
            line.push_str(&format!("; referee counts {}", r));
            if g.tengen_score.is_some_and(|t| t != *r) {
                line.push_str(" (DISAGREE)");
            }
        }
        Some(Err(e)) => line.push_str(&format!("; referee gave no count: {}", e)),
        None => {}
    }
    line
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
        config.time.map_or(String::new(), |t| format!(
            ", {} s per move",
            t.as_secs_f64()
        ))
    )
    .map_err(io)?;
    writeln!(out, "A: {}\nB: {}", config.black, config.white).map_err(io)?;
    out.flush().map_err(io)?;
    let mut summary = Summary::default();
    let mut failure = None;
    for number in 1..=config.games {
        if stop_requested() {
            break;
        }
        match play_game(config, number, records.as_mut()) {
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

/// tengen's own judgement of the dead stones of a finished game: an ownership estimate on all
/// cores from `seed`, then [`dead::judge`] — what the engine's `final_score` does.
fn judge_dead(game: &Game, seed: u64) -> Vec<crate::board::Point> {
    let board = game.board();
    let threads = search::Config::default().threads;
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            log::warn!("no threads for the dead-stone estimate ({e}); counting every stone alive");
            return Vec::new();
        }
    };
    let own = ownership::estimate(
        &pool,
        board,
        game.to_move(),
        OWNERSHIP_PLAYOUTS,
        seed ^ board.hash(),
    );
    dead::judge(game, &own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{} {}",
            lo,
            hi
        );
        let (lo, hi) = wilson(1.0, 10.0);
        assert!(
            (hi - 1.0).abs() < 1e-9 && (lo - 0.7225).abs() < 1e-3,
            "{}",
            lo
        );
        let (lo, _) = wilson(0.0, 5.0);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn a_plays_black_in_odd_games() {
        let mut s = Summary::default();
        let g = |number, winner| GameResult {
            number,
            a_color: if number % 2 == 1 {
                Color::Black
            } else {
                Color::White
            },
            winner,
            result: "B+1".into(),
            reason: String::new(),
            moves: 0,
            tengen_score: None,
            referee_score: None,
            prejudgement: None,
        };
        s.add(&g(1, Some(Color::Black)));
        s.add(&g(2, Some(Color::Black)));
        s.add(&g(3, None));
        assert_eq!((s.a_wins, s.b_wins, s.draws, s.black_wins), (1, 1, 1, 2));
        assert_eq!(s.a_rate().unwrap().0, 0.5);
    }

    #[test]
    fn the_first_mover_places_stones_one_and_four() {
        let mut game = Game::new(9, Rules::prejudgement()).unwrap();
        let (w, b) = (Color::White.index(), Color::Black.index());
        let mut seats = Vec::new();
        let mut k = 0;
        while game.in_opening() {
            seats.push(mover_seat(&game));
            let p = game.board().point(k, 0);
            game.play(game.to_move(), crate::board::Move::Play(p))
                .unwrap();
            k += 1;
        }
        assert_eq!(seats, [w, b, b, w]);
        assert_eq!(mover_seat(&game), w);
        let mut chinese = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(mover_seat(&chinese), b);
        chinese
            .play(Color::Black, crate::board::Move::Pass)
            .unwrap();
        assert_eq!(mover_seat(&chinese), w);
    }
}
