//! The engine side of the Go Text Protocol, version 2.
//!
//! A reader thread takes raw lines from the controller and hands them over in order; the main
//! loop cleans each line (control characters dropped except HT and LF, `#` comments cut, HT made
//! a space, blank lines skipped), splits off the optional numeric id, runs the command and
//! writes one response — `=id text` or `?id text` ended by an empty line — and flushes it.
//!
//! Commands live in one table, [`COMMANDS`], which also answers `list_commands` and
//! `known_command`; each family of commands has its own file. Invariants: every handler either
//! succeeds or leaves the game exactly as it was, so any malformed, illegal or out-of-range
//! command is answered with `? message` and changes nothing; stdout carries responses only
//! (logging goes to stderr); a response never contains an empty line.
//!
//! Some commands answer while they run (live analysis): their `=` line goes out first, then a
//! line per report, and the closing empty line when they end. They check their arguments before
//! the `=` line, so a bad command still gets `? message`. While a command runs, the reader
//! thread counts the lines that arrive after it ([`Input`]): analysis ends at any new line,
//! `genmove` at GoGui's `# interrupt`, pondering at any line.

mod admin;
mod analyze;
pub mod client;
mod debug;
mod gogui;
mod moves;
mod prejudgement;
mod record;
mod scoring;
mod setup;
mod timing;

pub use setup::parse_komi;

use crate::board::{Board, Color, Move, Point, COLUMNS};
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::search::{self, Player};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc};

/// The longest input line kept; anything beyond is discarded and the command refused, so a
/// runaway controller cannot make the engine allocate without bound.
pub const MAX_LINE: usize = 64 * 1024;

/// What a command handler returns: the response text, or the error message.
pub type Reply = Result<String, String>;

/// A command handler: the engine and the arguments after the command name.
type Handler = fn(&mut Engine, &[&str]) -> Reply;

/// A handler that may answer while it runs, through the stream.
type StreamHandler = fn(&mut Engine, &[&str], &mut Stream) -> Reply;

#[derive(Copy, Clone)]
enum Run {
    Plain(Handler),
    Streaming(StreamHandler),
}

/// One line of the command table.
pub struct Command {
    pub name: &'static str,
    /// The arguments, for `syntax error` messages.
    pub usage: &'static str,
    run: Run,
}

const fn cmd(name: &'static str, usage: &'static str, run: Handler) -> Command {
    Command {
        name,
        usage,
        run: Run::Plain(run),
    }
}

const fn streaming(name: &'static str, usage: &'static str, run: StreamHandler) -> Command {
    Command {
        name,
        usage,
        run: Run::Streaming(run),
    }
}

/// The arguments of the analysis commands.
const ANALYZE_USAGE: &str =
    "[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] [avoid|allow COLOR V,V,... N]";
const KATA_ANALYZE_USAGE: &str = "[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] \
     [avoid|allow COLOR V,V,... N] [ownership true|false]";

/// Every command the engine answers, in the order `list_commands` prints them. Adding a command
/// is adding its line here.
pub const COMMANDS: &[Command] = &[
    cmd("protocol_version", "", admin::protocol_version),
    cmd("name", "", admin::name),
    cmd("version", "", admin::version),
    cmd("known_command", "COMMAND", admin::known_command),
    cmd("list_commands", "", admin::list_commands),
    cmd("quit", "", admin::quit),
    cmd("boardsize", "SIZE", setup::boardsize),
    cmd("clear_board", "", setup::clear_board),
    cmd("komi", "KOMI", setup::komi),
    cmd("play", "COLOR VERTEX", moves::play),
    cmd("genmove", "COLOR", moves::genmove),
    cmd("undo", "", moves::undo),
    cmd("showboard", "", debug::showboard),
    cmd("final_score", "", scoring::final_score),
    cmd(
        "final_status_list",
        "alive|dead|seki",
        scoring::final_status_list,
    ),
    cmd("fixed_handicap", "STONES", setup::fixed_handicap),
    cmd("place_free_handicap", "STONES", setup::place_free_handicap),
    cmd("set_free_handicap", "VERTEX...", setup::set_free_handicap),
    cmd(
        "time_settings",
        "MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
        timing::time_settings,
    ),
    cmd("time_left", "COLOR TIME STONES", timing::time_left),
    cmd(
        "kgs-time_settings",
        "none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES",
        timing::kgs_time_settings,
    ),
    cmd("kgs-genmove_cleanup", "COLOR", moves::genmove_cleanup),
    cmd("kgs-rules", "japanese|chinese", setup::kgs_rules),
    cmd(
        "kata-set-rules",
        "japanese|chinese|prejudgement",
        setup::kata_set_rules,
    ),
    cmd("kata-get-rules", "", setup::kata_get_rules),
    cmd(
        "tengen-rules",
        "[japanese|chinese|prejudgement]",
        setup::tengen_rules,
    ),
    cmd("loadsgf", "FILE [MOVE_NUMBER]", record::loadsgf),
    cmd("printsgf", "[FILE]", record::printsgf),
    cmd("reg_genmove", "COLOR", moves::reg_genmove),
    #[cfg(target_os = "linux")]
    cmd("cputime", "", timing::cputime),
    cmd("tengen-perft", "DEPTH", debug::perft),
    cmd("tengen-prejudge", "", prejudgement::prejudge),
    cmd(
        "tengen-prejudgement",
        "PREDICTION1 PREDICTION2",
        prejudgement::prejudgement,
    ),
    cmd(
        "tengen-play",
        "COLOR VERTEX self|opponent",
        prejudgement::play,
    ),
    streaming("lz-analyze", ANALYZE_USAGE, analyze::lz_analyze),
    streaming("kata-analyze", KATA_ANALYZE_USAGE, analyze::kata_analyze),
    streaming(
        "lz-genmove_analyze",
        ANALYZE_USAGE,
        analyze::lz_genmove_analyze,
    ),
    streaming(
        "kata-genmove_analyze",
        KATA_ANALYZE_USAGE,
        analyze::kata_genmove_analyze,
    ),
    cmd("gogui-analyze_commands", "", gogui::analyze_commands),
    cmd("gogui-interrupt", "", gogui::interrupt),
    cmd("tengen-ownership", "[COLOR]", gogui::ownership),
    cmd("tengen-pv", "[COLOR]", gogui::principal_variation),
    cmd("tengen-top_moves", "[COLOR]", gogui::top_moves),
    cmd("tengen-estimate", "", gogui::estimate),
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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rules: Rules::chinese(),
            komi: None,
            size: 19,
            search: search::Config::default(),
            ponder: false,
        }
    }
}

/// The engine's state between commands.
pub struct Engine {
    game: Game,
    player: Player,
    /// Whether the controller (or the command line, or an SGF file) chose the komi. A chosen
    /// komi survives a change of ruleset; otherwise the new ruleset's usual komi applies.
    komi_chosen: bool,
    /// A resignation answered by `genmove`, until the position changes: printed as the SGF result.
    resigned: Option<Color>,
    /// The pre-judgement predictions stated by `tengen-prejudgement` (or read from an SGF
    /// record), for the game record; they count only while they still describe the game.
    predictions: Option<prejudgement::Predictions>,
    quit: bool,
    /// What the reader thread says of the input that arrived during the running command.
    input: Arc<Input>,
    ponder: bool,
    /// Set when the player has made a move and may think on the opponent's time; cleared when
    /// the game is set up anew.
    ponder_armed: bool,
}

/// Lines that arrived while a command runs, counted by the reader thread: a line is counted
/// when it is read and uncounted when the main loop takes it, so the counts are exactly the
/// lines queued behind the running command.
#[derive(Default, Debug)]
pub struct Input {
    waiting: AtomicUsize,
    interrupts: AtomicUsize,
    /// The input has ended (the controller closed it or went away): nothing will stop an
    /// analysis any more, so it stops now.
    closed: AtomicBool,
}

impl Input {
    /// Whether any line — a command, an empty line, a comment — has arrived since the running
    /// command, or the input has ended: what ends live analysis and pondering.
    pub fn new_line(&self) -> bool {
        self.waiting.load(SeqCst) > 0 || self.closed.load(SeqCst)
    }

    /// Whether GoGui's `# interrupt` has arrived since the running command: what ends
    /// `genmove` and GoGui's analysis commands early, with the best move so far.
    pub fn interrupted(&self) -> bool {
        self.interrupts.load(SeqCst) > 0
    }
}

/// Whether a raw line is GoGui's interrupt: the comment `# interrupt`.
fn is_interrupt(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    text.trim()
        .strip_prefix('#')
        .is_some_and(|rest| rest.trim().eq_ignore_ascii_case("interrupt"))
}

/// The output of a command that answers while it runs: the `=` line when it starts, then one
/// line at a time; the closing empty line is written when the command returns.
pub struct Stream<'a> {
    id: Option<&'a str>,
    out: &'a mut dyn Write,
    started: bool,
    error: Option<io::Error>,
}

impl<'a> Stream<'a> {
    fn new(id: Option<&'a str>, out: &'a mut dyn Write) -> Stream<'a> {
        Stream {
            id,
            out,
            started: false,
            error: None,
        }
    }

    /// Writes the `=` line, once: from here on the command has succeeded.
    pub fn start(&mut self) {
        if !self.started {
            self.started = true;
            let head = format!("={} \n", self.id.unwrap_or(""));
            self.write(&head);
        }
    }

    /// Writes one line of the answer (empty lines are dropped: they would end it).
    pub fn line(&mut self, text: &str) {
        self.start();
        let text = text.trim_end();
        if !text.trim().is_empty() {
            self.write(&format!("{}\n", text));
        }
    }

    fn write(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self
                .out
                .write_all(text.as_bytes())
                .and_then(|_| self.out.flush())
            {
                self.error = Some(e);
            }
        }
    }

    /// Ends the answer: the whole framed reply if nothing was written yet, else the reply's
    /// text as the last lines and the closing empty line. An error after the `=` line cannot
    /// be answered as one any more; it goes to the log.
    fn finish(mut self, reply: &Reply) -> io::Result<()> {
        if !self.started {
            let framed = frame(self.id, reply);
            self.write(&framed);
        } else {
            match reply {
                Ok(text) => {
                    for l in text.lines() {
                        self.line(l);
                    }
                }
                Err(msg) => log::error!("after the answer had begun: {}", msg),
            }
            self.write("\n");
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Engine {
    /// An engine with an empty board as the options say. Fails only on a board size outside
    /// 2–25.
    pub fn new(options: &Options) -> Option<Engine> {
        let mut game = Game::new(options.size, options.rules)?;
        if let Some(k) = options.komi {
            game.set_komi(k);
        }
        Some(Engine {
            game,
            player: Player::new(options.search.clone()),
            komi_chosen: options.komi.is_some(),
            resigned: None,
            predictions: None,
            quit: false,
            input: Arc::new(Input::default()),
            ponder: options.ponder,
            ponder_armed: false,
        })
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether `quit` has been answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Replaces the game after a successful change, forgetting what referred to the old one
    /// (the player's kept tree included: the new game did not grow from its moves).
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.player.forget();
        self.ponder_armed = false;
        self.position_changed();
    }

    /// Called whenever the record changes, so nothing derived from the old position lingers.
    fn position_changed(&mut self) {
        self.resigned = None;
    }

    /// The result for an SGF `RE`, when known: a resignation answered by `genmove`, or the
    /// count once two passes have stopped play.
    fn result(&mut self) -> Option<String> {
        if let Some(c) = self.resigned {
            return Some(format!("{}+R", c.opponent().letter()));
        }
        self.game
            .is_over()
            .then(|| scoring::margin(self).to_string())
    }

    /// Runs one raw input line: `None` when the cleaned line is empty (no response is due),
    /// otherwise the complete response, framing included. There is no controller behind it to
    /// stop a live analysis, so the line runs as if another were already queued: an analysis
    /// answers with one line.
    pub fn execute(&mut self, raw: &[u8]) -> Option<String> {
        let mut out = Vec::new();
        self.input.waiting.fetch_add(1, SeqCst);
        let written = self.respond(raw, &mut out);
        self.input.waiting.fetch_sub(1, SeqCst);
        written.expect("writing to memory cannot fail");
        (!out.is_empty()).then(|| String::from_utf8_lossy(&out).into_owned())
    }

    /// Runs one raw input line and writes its response to `out` (nothing for an empty line);
    /// a command that answers while it runs writes as it goes.
    pub fn respond(&mut self, raw: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let line = preprocess(raw);
        let mut words = line.split(' ').filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            return Ok(());
        };
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (Some(first), words.next())
        } else {
            (None, Some(first))
        };
        let args: Vec<&str> = words.collect();
        let mut stream = Stream::new(id, out);
        let reply = match name {
            None => Err("syntax error: missing command after the id".to_string()),
            Some(name) => self.run(name, &args, &mut stream),
        };
        stream.finish(&reply)
    }

    /// Runs a command by name. A panic inside a command (a bug, never input) is contained: the
    /// controller gets an error and the session goes on, with the player's kept tree dropped in
    /// case the search left it half-built. The game changes only after a command's checks
    /// succeed, so it stays consistent.
    fn run(&mut self, name: &str, args: &[&str], stream: &mut Stream) -> Reply {
        let Some(c) = find(name) else {
            return Err("unknown command".to_string());
        };
        let call = std::panic::AssertUnwindSafe(|| match c.run {
            Run::Plain(f) => f(self, args),
            Run::Streaming(f) => f(self, args, stream),
        });
        match std::panic::catch_unwind(call) {
            Ok(reply) => reply,
            Err(_) => {
                log::error!("internal error in '{} {}'", name, args.join(" "));
                self.player.forget();
                Err(format!(
                    "internal error in {} (see the log on stderr)",
                    name
                ))
            }
        }
    }
}

/// The table line of a command.
fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// A line as GTP asks the engine to read it: control characters other than HT and LF dropped,
/// everything from `#` on cut, HT turned into a space. Bytes outside ASCII are kept (as the
/// replacement character when they are not UTF-8) so that they make a command fail visibly.
pub fn preprocess(raw: &[u8]) -> String {
    let mut kept = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => kept.push(b' '),
            b'\n' => {}
            0..=31 | 127 => {}
            _ => kept.push(b),
        }
    }
    // Only GTP's white space (the space, HT having become one) separates or surrounds words.
    String::from_utf8_lossy(&kept).trim_matches(' ').to_string()
}

/// A response with its framing: `=id text` or `?id text`, always a space after the marker (GoGui
/// reads the text after the first space), no empty line inside, and the closing empty line.
pub fn frame(id: Option<&str>, reply: &Reply) -> String {
    let (mark, text) = match reply {
        Ok(t) => ('=', t.as_str()),
        Err(t) => ('?', t.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    if let Some(id) = id {
        out.push_str(id);
    }
    out.push(' ');
    let mut first = true;
    for line in text.trim_end().split('\n') {
        let line = line.trim_end_matches('\r');
        // An empty line would end the response early; the leading one of a multi-line
        // answer (`= ` then the diagram) is the only one allowed, as it follows the marker.
        if line.trim().is_empty() && !first {
            continue;
        }
        if !first {
            out.push('\n');
        }
        out.push_str(line);
        first = false;
    }
    out.push_str("\n\n");
    out
}

/// One line from the reader thread: the bytes (newline excluded) and whether it was cut short.
struct Line {
    bytes: Vec<u8>,
    truncated: bool,
}

impl Engine {
    /// Thinks on the opponent's time when pondering is on and the player has moved, until a
    /// line arrives.
    fn ponder_if_due(&mut self) {
        if !(self.ponder && self.ponder_armed) || self.game.is_over() || self.input.new_line() {
            return;
        }
        let input = self.input.clone();
        log::debug!("pondering");
        self.player.ponder(&self.game, &|| input.new_line());
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes, discarding the rest of a longer one. `None` at
/// the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut truncated = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(Line { bytes, truncated }));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(bytes.len());
        if chunk.len() > room {
            truncated = true;
        }
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(Line { bytes, truncated }));
        }
    }
}

/// Serves GTP until `quit` or the end of input. Input is read on its own thread so that the
/// controller can pipeline commands (they queue and are answered strictly in order).
pub fn serve<R, W>(mut engine: Engine, input: R, mut output: W) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel::<Line>();
    let counts = Arc::new(Input::default());
    engine.input = counts.clone();
    std::thread::Builder::new()
        .name("gtp-input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            loop {
                match read_line(&mut reader) {
                    Ok(Some(line)) => {
                        // Counted before it is queued, so a running command sees it at once.
                        if is_interrupt(&line.bytes) {
                            counts.interrupts.fetch_add(1, SeqCst);
                        }
                        counts.waiting.fetch_add(1, SeqCst);
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        log::error!("reading GTP input: {}", e);
                        break;
                    }
                }
            }
            counts.closed.store(true, SeqCst);
        })?;
    loop {
        engine.ponder_if_due();
        let Ok(line) = rx.recv() else { break };
        engine.input.waiting.fetch_sub(1, SeqCst);
        if is_interrupt(&line.bytes) {
            engine.input.interrupts.fetch_sub(1, SeqCst);
        }
        if line.truncated {
            // Answer with the id if it survived the cut, so the controller stays in step.
            let text = preprocess(&line.bytes);
            let id = text
                .split(' ')
                .next()
                .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
            let r = frame(
                id,
                &Err(format!("syntax error: line longer than {} bytes", MAX_LINE)),
            );
            output.write_all(r.as_bytes())?;
            output.flush()?;
        } else {
            engine.respond(&line.bytes, &mut output)?;
        }
        if engine.has_quit() {
            break;
        }
    }
    Ok(())
}

// --- Argument parsing shared by the command families -------------------------------------

/// `syntax error` with the command's usage, for a wrong number or shape of arguments.
fn usage_error(name: &str) -> String {
    match find(name) {
        Some(c) if c.usage.is_empty() => format!("syntax error: {} takes no arguments", name),
        Some(c) => format!("syntax error: usage: {} {}", name, c.usage),
        None => "syntax error".to_string(),
    }
}

/// Checks the argument count of `name`: between `min` and `max` inclusive.
fn arity(name: &str, args: &[&str], min: usize, max: usize) -> Result<(), String> {
    if args.len() < min || args.len() > max {
        Err(usage_error(name))
    } else {
        Ok(())
    }
}

/// A colour as GTP writes it: `b`, `black`, `w`, `white`, in any case.
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Why a vertex was not accepted.
#[derive(Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not a vertex at all (`syntax error`).
    Malformed,
    /// A well-formed vertex beyond this board's edge.
    OffBoard,
}

/// A vertex (`D4`, `j11`, `pass`) on `board`: column letters skip I, rows count from the
/// bottom, case does not matter.
pub fn parse_vertex(s: &str, board: &Board) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return Err(VertexError::Malformed);
    }
    let letter = bytes[0].to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&c| c == letter)
        .ok_or(VertexError::Malformed)?;
    let digits = &s[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return Err(VertexError::Malformed);
    }
    let row: usize = digits.parse().map_err(|_| VertexError::Malformed)?;
    let n = board.size();
    if col >= n || row == 0 || row > n {
        return Err(VertexError::OffBoard);
    }
    Ok(Move::Play(board.point(col, n - row)))
}

/// A point as GTP writes it, upper case: `D4`.
pub fn format_point(board: &Board, p: Point) -> String {
    let (col, row) = board.coords(p);
    format!("{}{}", COLUMNS[col] as char, board.size() - row)
}

/// A move as GTP writes it: a vertex or `pass`.
pub fn format_move(board: &Board, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => format_point(board, p),
    }
}

/// Points as a GTP vertex list, in board order (top row first) so answers are reproducible.
fn format_points(board: &Board, points: &[Point]) -> String {
    let mut sorted = points.to_vec();
    sorted.sort();
    sorted
        .iter()
        .map(|&p| format_point(board, p))
        .collect::<Vec<_>>()
        .join(" ")
}

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

    fn engine() -> Engine {
        Engine::new(&Options::default()).unwrap()
    }

    fn ask(e: &mut Engine, line: &str) -> String {
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
    fn a_resignation_is_the_result_until_the_position_changes() {
        let mut e = engine();
        assert_eq!(e.result(), None);
        e.resigned = Some(Color::Black);
        assert_eq!(e.result().as_deref(), Some("W+R"));
        ask(&mut e, "play w d4");
        assert_eq!(e.result(), None);
        e.resigned = Some(Color::White);
        ask(&mut e, "undo");
        assert_eq!(e.result(), None);
    }

    #[test]
    fn an_analysis_run_in_process_answers_one_line() {
        let mut e = engine();
        ask(&mut e, "boardsize 9");
        let r = ask(&mut e, "5 kata-analyze b 1");
        assert!(r.starts_with("=5 \ninfo move "), "{}", r);
        assert!(r.ends_with("\n\n") && r.matches('\n').count() == 3, "{}", r);
        assert!(ask(&mut e, "6 lz-analyze b 1 bogus").starts_with("?6 syntax error"));
    }

    #[test]
    fn frames_never_hold_an_empty_line() {
        let r = frame(Some("5"), &Ok("\nline one\n\n\nline two\n\n".to_string()));
        assert_eq!(r, "=5 \nline one\nline two\n\n");
    }

    #[test]
    fn vertices() {
        let b = Board::new(19).unwrap();
        assert_eq!(parse_vertex("pass", &b), Ok(Move::Pass));
        assert_eq!(parse_vertex("PaSs", &b), Ok(Move::Pass));
        assert_eq!(parse_vertex("a1", &b), Ok(Move::Play(b.point(0, 18))));
        assert_eq!(parse_vertex("T19", &b), Ok(Move::Play(b.point(18, 0))));
        assert_eq!(parse_vertex("j10", &b), Ok(Move::Play(b.point(8, 9))));
        assert_eq!(parse_vertex("i5", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("U1", &b), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("A20", &b), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("A0", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A05", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A+1", &b), Err(VertexError::Malformed));
        assert_eq!(format_move(&b, Move::Play(b.point(8, 9))), "J10");
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
