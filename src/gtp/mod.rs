//! The engine side of the Go Text Protocol, version 2.
//!
//! The reader thread, the cleaning of each line and the framing of each response live in
//! [`wire`]; the engine's state and the running of one line in [`engine`]. The main loop here
//! takes a line at a time, splits off the optional numeric id, runs the command and writes one
//! response — `=id text` or `?id text` ended by an empty line — and flushes it.
//!
//! Commands live in one table, [`COMMANDS`], which also answers `list_commands` and
//! `known_command`, and says how many arguments each takes: a wrong count is refused with the
//! command's usage before its handler runs. Each family of commands has its own file.
//! Invariants: every handler either succeeds or leaves the game exactly as it was, so any
//! malformed, illegal or out-of-range command is answered with `? message` and changes nothing;
//! stdout carries responses only (logging goes to stderr); a response never contains an empty
//! line.
//!
//! Some commands answer while they run (live analysis): their `=` line goes out first, then a
//! line per report, and the closing empty line when they end. They check their arguments before
//! the `=` line, so a bad command still gets `? message`. While a command runs, the reader
//! thread counts the lines that arrive after it ([`Input`]): analysis ends at any new line,
//! `genmove` at GoGui's `# interrupt`, pondering at any line.

mod admin;
mod analyze;
mod debug;
mod engine;
mod gogui;
mod moves;
mod params;
mod prejudgement;
mod record;
mod scoring;
mod setup;
mod timing;
mod wire;

pub use engine::Engine;
pub use setup::parse_komi;
pub use wire::{frame, preprocess, Input, Stream, MAX_LINE};

use crate::rules::{HalfPoints, Rules};
use crate::search;
use std::io::{self, Read, Write};
use std::sync::Arc;

/// A response before framing: the text, or the error message.
pub type Reply = Result<String, String>;

/// Why a command was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The arguments do not have the command's shape: answered with its usage from the table.
    Usage,
    /// Any other refusal, with the message to answer.
    Message(String),
}

impl From<String> for Refusal {
    fn from(msg: String) -> Refusal {
        Refusal::Message(msg)
    }
}

impl From<&str> for Refusal {
    fn from(msg: &str) -> Refusal {
        Refusal::Message(msg.to_string())
    }
}

/// What a command handler returns: the response text, or why it refused.
pub type Answer = Result<String, Refusal>;

/// A command handler: the engine and the arguments after the command name, already of a count
/// the table admits.
type Handler = fn(&mut Engine, &[&str]) -> Answer;

/// A handler that may answer while it runs, through the stream.
type StreamHandler = fn(&mut Engine, &[&str], &mut Stream) -> Answer;

#[derive(Copy, Clone)]
enum Run {
    Plain(Handler),
    Streaming(StreamHandler),
}

/// How many arguments a command takes: from `min` to `max`, inclusive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: usize,
    pub max: usize,
}

impl Arity {
    pub fn admits(self, count: usize) -> bool {
        (self.min..=self.max).contains(&count)
    }
}

const fn between(min: usize, max: usize) -> Arity {
    Arity { min, max }
}

const fn exactly(n: usize) -> Arity {
    between(n, n)
}

const fn at_least(min: usize) -> Arity {
    between(min, usize::MAX)
}

const NONE: Arity = exactly(0);
const ONE: Arity = exactly(1);
const OPTIONAL: Arity = between(0, 1);
/// Commands that read their own arguments (the analysis commands' keywords).
const ANY: Arity = at_least(0);

/// One line of the command table.
pub struct Command {
    pub name: &'static str,
    /// The arguments, for `syntax error` messages.
    pub usage: &'static str,
    pub arity: Arity,
    run: Run,
}

impl Command {
    /// `syntax error` with the usage, for a wrong number or shape of arguments.
    fn usage_error(&self) -> String {
        if self.usage.is_empty() {
            format!("syntax error: {} takes no arguments", self.name)
        } else {
            format!("syntax error: usage: {} {}", self.name, self.usage)
        }
    }
}

const fn cmd(name: &'static str, usage: &'static str, arity: Arity, run: Handler) -> Command {
    Command {
        name,
        usage,
        arity,
        run: Run::Plain(run),
    }
}

const fn streaming(
    name: &'static str,
    usage: &'static str,
    arity: Arity,
    run: StreamHandler,
) -> Command {
    Command {
        name,
        usage,
        arity,
        run: Run::Streaming(run),
    }
}

/// The ruleset names `kata-set-rules` and `tengen-rules` take.
const RULES_USAGE: &str = "japanese|chinese|prejudgement|aga|new_zealand|tromp-taylor";

/// The arguments of the analysis commands.
const ANALYZE_USAGE: &str =
    "[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] [avoid|allow COLOR V,V,... N]";
const KATA_ANALYZE_USAGE: &str = "[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] \
     [avoid|allow COLOR V,V,... N] \
     [ownership|ownershipStdev|movesOwnership|rootInfo|pvVisits|pvEdgeVisits true|false]";

/// Every command the engine answers, in the order `list_commands` prints them. Adding a command
/// is adding its line here.
pub const COMMANDS: &[Command] = &[
    cmd("protocol_version", "", NONE, admin::protocol_version),
    cmd("name", "", NONE, admin::name),
    cmd("version", "", NONE, admin::version),
    cmd("known_command", "COMMAND", ONE, admin::known_command),
    cmd("list_commands", "", NONE, admin::list_commands),
    cmd("quit", "", NONE, admin::quit),
    cmd("boardsize", "SIZE", ONE, setup::boardsize),
    cmd("clear_board", "", NONE, setup::clear_board),
    cmd("komi", "KOMI", ONE, setup::komi),
    cmd("play", "COLOR VERTEX", exactly(2), moves::play),
    cmd("genmove", "COLOR", ONE, moves::genmove),
    cmd("undo", "", NONE, moves::undo),
    cmd("showboard", "", NONE, debug::showboard),
    cmd("final_score", "", NONE, scoring::final_score),
    cmd(
        "final_status_list",
        "alive|dead|seki",
        ONE,
        scoring::final_status_list,
    ),
    cmd("fixed_handicap", "STONES", ONE, setup::fixed_handicap),
    cmd(
        "place_free_handicap",
        "STONES",
        ONE,
        setup::place_free_handicap,
    ),
    cmd(
        "set_free_handicap",
        "VERTEX...",
        at_least(1),
        setup::set_free_handicap,
    ),
    cmd(
        "time_settings",
        "MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
        exactly(3),
        timing::time_settings,
    ),
    cmd(
        "time_left",
        "COLOR TIME STONES",
        exactly(3),
        timing::time_left,
    ),
    cmd(
        "kgs-time_settings",
        "none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES",
        between(1, 4),
        timing::kgs_time_settings,
    ),
    cmd(
        "kata-time_settings",
        "none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES | \
         fischer MAIN INCREMENT | fischer-capped MAIN INCREMENT MAIN_LIMIT MAX_PER_MOVE",
        between(1, 5),
        timing::kata_time_settings,
    ),
    cmd(
        "kata-list_time_settings",
        "",
        NONE,
        timing::kata_list_time_settings,
    ),
    cmd("kgs-genmove_cleanup", "COLOR", ONE, moves::genmove_cleanup),
    cmd(
        "kgs-rules",
        "japanese|chinese|aga|new_zealand",
        ONE,
        setup::kgs_rules,
    ),
    cmd("kata-set-rules", RULES_USAGE, ONE, setup::kata_set_rules),
    cmd("kata-get-rules", "", NONE, setup::kata_get_rules),
    cmd(
        "tengen-rules",
        "[japanese|chinese|prejudgement|aga|new_zealand|tromp-taylor]",
        OPTIONAL,
        setup::tengen_rules,
    ),
    cmd(
        "loadsgf",
        "FILE [MOVE_NUMBER]",
        between(1, 2),
        record::loadsgf,
    ),
    cmd("printsgf", "[FILE]", OPTIONAL, record::printsgf),
    cmd("reg_genmove", "COLOR", ONE, moves::reg_genmove),
    #[cfg(target_os = "linux")]
    cmd("cputime", "", NONE, timing::cputime),
    cmd("kata-list-params", "", NONE, params::kata_list_params),
    cmd("kata-get-param", "PARAM", ONE, params::kata_get_param),
    cmd(
        "kata-set-param",
        "PARAM VALUE",
        exactly(2),
        params::kata_set_param,
    ),
    cmd(
        "lz-setoption",
        "[name NAME value VALUE]",
        ANY,
        params::lz_setoption,
    ),
    cmd("tengen-perft", "DEPTH", ONE, debug::perft),
    cmd("tengen-prejudge", "", NONE, prejudgement::prejudge),
    cmd(
        "tengen-prejudgement",
        "PREDICTION1 PREDICTION2",
        exactly(2),
        prejudgement::prejudgement,
    ),
    cmd(
        "tengen-play",
        "COLOR VERTEX self|opponent",
        exactly(3),
        prejudgement::play,
    ),
    streaming("lz-analyze", ANALYZE_USAGE, ANY, analyze::lz_analyze),
    streaming(
        "kata-analyze",
        KATA_ANALYZE_USAGE,
        ANY,
        analyze::kata_analyze,
    ),
    streaming(
        "lz-genmove_analyze",
        ANALYZE_USAGE,
        ANY,
        analyze::lz_genmove_analyze,
    ),
    streaming(
        "kata-genmove_analyze",
        KATA_ANALYZE_USAGE,
        ANY,
        analyze::kata_genmove_analyze,
    ),
    cmd("stop", "", NONE, analyze::stop),
    cmd("clear_cache", "", NONE, analyze::clear_cache),
    cmd("gogui-analyze_commands", "", NONE, gogui::analyze_commands),
    cmd("gogui-interrupt", "", NONE, gogui::interrupt),
    cmd("tengen-ownership", "[COLOR]", OPTIONAL, gogui::ownership),
    cmd("tengen-pv", "[COLOR]", OPTIONAL, gogui::principal_variation),
    cmd("tengen-top_moves", "[COLOR]", OPTIONAL, gogui::top_moves),
    cmd("tengen-estimate", "[COLOR]", OPTIONAL, gogui::estimate),
];

/// The command-line choices the engine starts from.
#[derive(Clone, Debug)]
pub struct Options {
    pub rules: Rules,
    /// The komi to start with; `None` takes the ruleset's usual komi.
    pub komi: Option<HalfPoints>,
    pub size: usize,
    /// How the player searches (threads, playouts or time, seed, resigning, memory).
    pub search: search::Config,
    /// Whether to search on the opponent's time, after each move of ours, until a command
    /// arrives.
    pub ponder: bool,
    /// What `name` and `version` answer instead of tengen's own. Some GUIs pick their protocol
    /// by these answers (Lizzie 0.7.4 wants a Leela Zero version of 0.15 or later before it
    /// analyses, and talks KataGo's dialect to a name starting with `KataGo`), so the user may
    /// choose them; each is one word of printable ASCII ([`is_identity_word`]).
    pub override_name: Option<String>,
    pub override_version: Option<String>,
    /// Kept back from every move's time under a game clock (`--lag`).
    pub lag: std::time::Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rules: Rules::chinese(),
            komi: None,
            size: 19,
            search: search::Config::default(),
            ponder: false,
            override_name: None,
            override_version: None,
            lag: search::time::DEFAULT_LAG,
        }
    }
}

/// Whether `s` can stand as the answer to `name` or `version`: one word of printable ASCII, so
/// that the answer stays one line and clients that split it on spaces read all of it.
pub fn is_identity_word(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_graphic())
}

/// The table line of a command.
fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Serves GTP until `quit` or the end of input. Input is read on its own thread so that the
/// controller can pipeline commands (they queue and are answered strictly in order).
pub fn serve<R, W>(mut engine: Engine, input: R, mut output: W) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let counts = Arc::new(Input::default());
    engine.input = counts.clone();
    let lines = wire::spawn_reader(input, counts)?;
    loop {
        engine.ponder_if_due();
        let Ok(line) = lines.recv() else { break };
        engine.input.take();
        if line.truncated {
            output.write_all(wire::refuse_long_line(&line.bytes).as_bytes())?;
            output.flush()?;
        } else {
            engine.respond(&line.bytes, &mut output)?;
        }
        engine.input.finish();
        if engine.has_quit() {
            break;
        }
    }
    Ok(())
}

// --- Argument parsing shared by the command families -------------------------------------

/// An unsigned integer argument no larger than `max`; `None` when it is not one.
fn parse_uint(s: &str, max: u64) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok().filter(|&v| v <= max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine with the default options, for the protocol's unit tests.
    pub(super) fn engine() -> Engine {
        Engine::new(&Options::default()).unwrap()
    }

    /// The engine's full answer to one line.
    pub(super) fn ask(e: &mut Engine, line: &str) -> String {
        e.execute(line.as_bytes()).unwrap()
    }

    #[test]
    fn framing_and_ids() {
        let mut e = engine();
        assert_eq!(ask(&mut e, "protocol_version"), "= 2\n\n");
        assert_eq!(ask(&mut e, "12 protocol_version"), "=12 2\n\n");
        assert_eq!(ask(&mut e, "7 foo"), "?7 unknown command\n\n");
        assert_eq!(ask(&mut e, "clear_board"), "= \n\n");
        assert_eq!(e.execute(b"   # just a comment"), None);
        assert_eq!(e.execute(b"\r\n"), None);
        assert_eq!(ask(&mut e, "3\tname\r"), "=3 tengen\n\n");
        assert_eq!(ask(&mut e, "na\x01me # comment"), "= tengen\n\n");
        assert!(ask(&mut e, "42").starts_with("?42 syntax error"));
    }

    #[test]
    fn an_analysis_run_in_process_answers_one_line() {
        let mut e = engine();
        ask(&mut e, "boardsize 9");
        // An interval longer than the search: only the final line comes.
        let r = ask(&mut e, "5 kata-analyze b 500");
        assert!(r.starts_with("=5 \ninfo move "), "{}", r);
        assert!(r.ends_with("\n\n") && r.matches('\n').count() == 3, "{}", r);
        assert!(ask(&mut e, "6 lz-analyze b 1 bogus").starts_with("?6 syntax error"));
    }

    #[test]
    fn long_lines_are_cut_and_refused() {
        let mut long = b"5 play b ".to_vec();
        long.extend(std::iter::repeat_n(b'x', MAX_LINE * 2));
        long.extend_from_slice(b"\n1 name\n");
        let mut out = Vec::new();
        serve(engine(), std::io::Cursor::new(long), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("?5 syntax error: line longer"), "{}", out);
        assert!(out.ends_with("=1 tengen\n\n"), "{}", out);
    }
}
