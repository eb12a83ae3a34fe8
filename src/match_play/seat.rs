//! A running engine of one game: started, asked with a deadline, and set up for the game
//! (board, komi, rules, time, then the record's handicap and opening), and how an engine's text
//! is quoted in messages and records.

use super::client::{Client, ClientError, Response};
use super::signals::STOP;
use super::MatchConfig;
use crate::board::{Move, Point};
use crate::coords::{format_move, format_points, parse_vertex};
use crate::game::Game;
use crate::sgf;
use std::time::Duration;

/// The most characters of an engine's or referee's own text (its name and version, an answer,
/// an error message) that a message or record quotes: a name of a megabyte must not go into
/// every record and game line.
const SHOWN: usize = 100;

/// An engine's or referee's text as a message or record quotes it: bounded (see [`SHOWN`]), and
/// with its control characters escaped, so that a NUL or a terminal escape sequence it sends is
/// shown, never acted on or written raw into a record.
pub(super) fn shown(text: &str) -> String {
    sgf::printable(text, SHOWN)
}

/// A running engine of one game, with what it said about itself.
pub(super) struct Seat {
    pub(super) client: Client,
    /// `name version`, for records and messages.
    pub(super) title: String,
    commands: Vec<String>,
}

impl Seat {
    pub(super) fn lists(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }
}

/// How a seat failed during a game.
pub(super) enum Failure {
    /// No answer in time, or the process ended: the engine loses.
    Lost(ClientError),
    /// An answer that makes the game impossible to continue (e.g. `boardsize` refused).
    Refused(String),
}

pub(super) fn ask(seat: &mut Seat, command: &str, deadline: Duration) -> Result<String, Failure> {
    match seat.client.send(command, deadline) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(msg)) => Err(Failure::Refused(format!(
            "{} answered '{}' with '? {}'",
            seat.title,
            command,
            shown(&msg)
        ))),
        Err(e) => Err(Failure::Lost(e)),
    }
}

/// Starts an engine and learns its name and commands.
pub(super) fn start(command_line: &str, config: &MatchConfig) -> Result<Seat, String> {
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
    // Quoted in every message and record: escaped and bounded once, here.
    let title = match (name.trim(), version.trim()) {
        ("", _) => client.label.clone(),
        (n, "") => shown(n),
        (n, v) => format!("{} {}", shown(n), shown(v)),
    };
    Ok(Seat {
        client,
        title,
        commands,
    })
}

/// Sets a seat up for a new game: board, komi, rules and time as far as it lists them, then
/// the position of tengen's record `start`: its handicap (`fixed_handicap`, the answer checked
/// against the record's stones) and its moves so far (the pair's opening, as `play`).
pub(super) fn prepare(seat: &mut Seat, config: &MatchConfig, start: &Game) -> Result<(), Failure> {
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
    if let Some(f) = config.fischer {
        if seat.lists("kata-time_settings") {
            let command = format!(
                "kata-time_settings fischer {} {}",
                f.main.as_secs_f64(),
                f.increment.as_secs_f64()
            );
            ask(seat, &command, d)?;
        } else {
            log::warn!(
                "{} does not list kata-time_settings: it is not told its Fischer clock",
                seat.title
            );
        }
    }
    let handicap = start.handicap();
    if !handicap.is_empty() {
        let command = format!("fixed_handicap {}", handicap.len());
        let answer = ask(seat, &command, d)?;
        let placed: Option<Vec<Point>> = answer
            .split_whitespace()
            .map(|v| match parse_vertex(v, start.board()) {
                Ok(Move::Play(p)) => Some(p),
                _ => None,
            })
            .collect();
        let mut expected = handicap.to_vec();
        expected.sort();
        if placed.map(|mut p| {
            p.sort();
            p
        }) != Some(expected)
        {
            return Err(Failure::Refused(format!(
                "{} answered '{}' with '{}', not the fixed placement {}",
                seat.title,
                command,
                shown(answer.trim()),
                format_points(start.board(), handicap)
            )));
        }
    }
    for m in start.moves() {
        let letter = m.color.letter().to_ascii_lowercase();
        let command = format!("play {} {}", letter, format_move(start.board(), m.mv));
        ask(seat, &command, d)?;
    }
    Ok(())
}

pub(super) fn failure_text(f: &Failure) -> String {
    match f {
        Failure::Lost(e) => e.to_string(),
        Failure::Refused(msg) => msg.clone(),
    }
}
