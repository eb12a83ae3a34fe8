//! GTP's text on the wire: reading lines from the controller, cleaning them, and framing the
//! responses.
//!
//! A reader thread takes raw lines (at most [`MAX_LINE`] bytes kept) and hands them over in
//! order; it also counts the lines queued behind the running command ([`Input`]), which is what
//! ends live analysis, pondering and, for GoGui's `# interrupt`, the command running when it
//! arrives. Each line is cleaned as GTP asks ([`preprocess`]); each response is framed as `=id
//! text` or `?id text` ended by an empty line ([`frame`]), or written a line at a time by a
//! command that answers while it runs ([`Stream`]). A response never contains an empty line nor
//! any control character but the newlines that end its lines: text quoted from a file (an escape
//! sequence, the NULs of a UTF-16 file) is shown escaped ([`printable`]). A write that fails (the
//! controller closed its end) ends the running command's search and, through the error
//! returned, the session.

use super::Reply;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc};

/// The longest input line kept; anything beyond is discarded and the command refused, so a
/// runaway controller cannot make the engine allocate without bound.
pub const MAX_LINE: usize = 64 * 1024;

/// The most lines queued behind the running command before the reader thread stops reading (and
/// the controller's writes block): at most this many times [`MAX_LINE`] bytes held, however much a
/// controller sends while a long command runs.
pub const MAX_QUEUED_LINES: usize = 64;

/// Lines that arrived while a command runs, counted by the reader thread: a line is counted
/// when it is read and uncounted when the main loop takes it, so the counts are exactly the
/// lines queued behind the running command (at most [`MAX_QUEUED_LINES`] plus the one the
/// reader waits to queue; a line the controller has written beyond them is not seen until the
/// queue drains).
///
/// GoGui's `# interrupt` is meant for the command it was sent during: it is tied to the first
/// line not yet finished when it is read (the running command, or the one about to start when
/// it arrives between two), so that commands queued behind that one run their full time.
#[derive(Default, Debug)]
pub struct Input {
    waiting: AtomicUsize,
    /// Lines the main loop has taken, and lines it has finished: the running line is number
    /// `taken` (counting from 1) while `finished < taken`.
    taken: AtomicUsize,
    finished: AtomicUsize,
    /// The number of the line the last `# interrupt` is meant for (0: none yet).
    interrupt_for: AtomicUsize,
    /// The input has ended (the controller closed it or went away): nothing will stop an
    /// analysis any more, so it stops now.
    closed: AtomicBool,
    /// A response could not be written (the controller closed its end): nobody reads what a
    /// search would show, so it stops now.
    output_failed: AtomicBool,
}

impl Input {
    /// Whether any line — a command, an empty line, a comment — has arrived since the running
    /// command, or the input has ended, or the output failed: what ends live analysis and
    /// pondering.
    pub fn new_line(&self) -> bool {
        self.waiting.load(SeqCst) > 0 || self.closed.load(SeqCst) || self.output_failed.load(SeqCst)
    }

    /// Whether GoGui's `# interrupt` arrived during the running command (or the output failed):
    /// what ends `genmove` and GoGui's analysis commands early, with the best move so far. Between
    /// two commands nothing runs, so nothing is interrupted (an interrupt read then, when the
    /// reader lags behind the main loop, may be tied to its own line).
    pub fn interrupted(&self) -> bool {
        let running = self.taken.load(SeqCst);
        let is_running = running > 0 && self.finished.load(SeqCst) < running;
        (is_running && self.interrupt_for.load(SeqCst) == running)
            || self.output_failed.load(SeqCst)
    }

    /// Counts a line as queued behind the running command; an interrupt is tied to the first
    /// line not yet finished.
    pub(super) fn queue(&self, raw: &[u8]) {
        if is_interrupt(raw) {
            let target = self.finished.load(SeqCst) + 1;
            self.interrupt_for.store(target, SeqCst);
        }
        self.waiting.fetch_add(1, SeqCst);
    }

    /// Uncounts a line the main loop has taken to run: it is the running line now.
    pub(super) fn take(&self) {
        self.waiting.fetch_sub(1, SeqCst);
        self.taken.fetch_add(1, SeqCst);
    }

    /// Marks the running line as finished.
    pub(super) fn finish(&self) {
        self.finished.store(self.taken.load(SeqCst), SeqCst);
    }

    /// Records that a response could not be written.
    fn output_failed(&self) {
        self.output_failed.store(true, SeqCst);
    }
}

/// Whether a raw line is GoGui's interrupt: the comment `# interrupt`.
fn is_interrupt(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    text.trim()
        .strip_prefix('#')
        .is_some_and(|rest| rest.trim().eq_ignore_ascii_case("interrupt"))
}

/// One line from the reader thread: the bytes (newline excluded) and whether it was cut short.
pub(super) struct Line {
    pub bytes: Vec<u8>,
    pub truncated: bool,
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

/// Starts the reader thread on `input`: lines arrive on the returned channel, in order, each
/// counted in `counts` before it is queued (so a running command sees it at once); the channel
/// closes, and `counts` says so, when the input ends. The channel holds at most
/// [`MAX_QUEUED_LINES`]; past that the reader waits, and so does the controller.
pub(super) fn spawn_reader<R>(input: R, counts: Arc<Input>) -> io::Result<mpsc::Receiver<Line>>
where
    R: Read + Send + 'static,
{
    let (tx, rx) = mpsc::sync_channel::<Line>(MAX_QUEUED_LINES);
    std::thread::Builder::new()
        .name("gtp-input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            loop {
                match read_line(&mut reader) {
                    Ok(Some(line)) => {
                        counts.queue(&line.bytes);
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
    Ok(rx)
}

/// The answer to a line cut at [`MAX_LINE`]: refused, with the id if it survived the cut, so
/// the controller stays in step.
pub(super) fn refuse_long_line(raw: &[u8]) -> String {
    let text = preprocess(raw);
    let id = text
        .split(' ')
        .next()
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    frame(
        id,
        &Err(format!("syntax error: line longer than {} bytes", MAX_LINE)),
    )
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
        out.push_str(&printable(line));
        first = false;
    }
    out.push_str("\n\n");
    out
}

/// One line of a response as printable text: every control character (C0, DEL, C1 — an escape
/// sequence from a file, a NUL, a carriage return inside the line) written as its Rust escape
/// (`\u{1b}`, `\u{0}`, `\r`), everything else as it is.
pub fn printable(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.chars().any(char::is_control) {
        return line.into();
    }
    crate::sgf::printable(line, usize::MAX).into()
}

/// The output of a command that answers while it runs: the `=` line when it starts, then one
/// line at a time; the closing empty line is written when the command returns.
pub struct Stream<'a> {
    id: Option<&'a str>,
    out: &'a mut dyn Write,
    /// Told when a write fails, so that the running search stops.
    input: &'a Input,
    started: bool,
    error: Option<io::Error>,
}

impl<'a> Stream<'a> {
    pub(super) fn new(id: Option<&'a str>, out: &'a mut dyn Write, input: &'a Input) -> Stream<'a> {
        Stream {
            id,
            out,
            input,
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
        for line in text.trim_end().split('\n') {
            let line = line.trim_end();
            if !line.trim().is_empty() {
                self.write(&format!("{}\n", printable(line)));
            }
        }
    }

    fn write(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self
                .out
                .write_all(text.as_bytes())
                .and_then(|_| self.out.flush())
            {
                self.input.output_failed();
                self.error = Some(e);
            }
        }
    }

    /// Ends the answer: the whole framed reply if nothing was written yet, else the reply's
    /// text as the last lines and the closing empty line. An error after the `=` line cannot
    /// be answered as one any more; it goes to the log.
    pub(super) fn finish(mut self, reply: &Reply) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_never_hold_an_empty_line() {
        let r = frame(Some("5"), &Ok("\nline one\n\n\nline two\n\n".to_string()));
        assert_eq!(r, "=5 \nline one\nline two\n\n");
    }

    #[test]
    fn the_reader_stops_at_a_full_queue_and_counts_what_it_holds() {
        let counts = Arc::new(Input::default());
        let text = "\n".repeat(10_000) + "# interrupt\n";
        let lines = spawn_reader(io::Cursor::new(text.into_bytes()), counts.clone()).unwrap();
        // The queue fills and the reader waits with one more line in hand.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while counts.waiting.load(SeqCst) < MAX_QUEUED_LINES + 1 {
            assert!(
                std::time::Instant::now() < deadline,
                "the queue never filled"
            );
            std::thread::yield_now();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(counts.waiting.load(SeqCst), MAX_QUEUED_LINES + 1);
        assert!(counts.new_line() && !counts.interrupted());
        // Taking every line leaves the counts at zero, the interrupt seen on the way.
        // The interrupt, read once the queue had room, belongs to at most one line, the one
        // unfinished when it was read.
        let mut taken = 0;
        let mut interrupted = 0;
        for line in lines.iter() {
            counts.take();
            taken += 1;
            interrupted += counts.interrupted() as usize;
            assert_eq!(is_interrupt(&line.bytes), taken == 10_001);
            counts.finish();
        }
        assert_eq!(taken, 10_001);
        assert!(interrupted <= 1);
        assert_eq!(counts.waiting.load(SeqCst), 0);
        assert!(!counts.interrupted() && counts.closed.load(SeqCst));
    }

    #[test]
    fn an_interrupt_belongs_to_the_command_running_when_it_arrives() {
        let counts = Input::default();
        // `1 genmove b`, `2 genmove w` and `# interrupt` arrive together while the first runs.
        counts.queue(b"1 genmove b");
        counts.take();
        counts.queue(b"2 genmove w");
        counts.queue(b"# interrupt");
        assert!(counts.interrupted() && counts.new_line());
        counts.finish();
        counts.take();
        assert!(!counts.interrupted(), "the second genmove had not started");
        counts.finish();
        counts.take();
        counts.finish();
        // Sent before the main loop took its command, it is still that command's.
        counts.queue(b"3 genmove b");
        counts.queue(b"  #Interrupt ");
        counts.take();
        assert!(counts.interrupted());
        counts.finish();
        counts.take();
        assert!(!counts.interrupted() && !counts.new_line());
        counts.finish();
        // Read while nothing runs, it is tied to its own line; once that is done, nothing is
        // interrupted (the main loop may drain the queue faster than the reader fills it).
        counts.queue(b"# interrupt");
        counts.take();
        counts.finish();
        assert!(!counts.interrupted() && !counts.new_line());
    }

    #[test]
    fn a_failed_write_stops_what_the_command_runs() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let counts = Input::default();
        let mut out = Closed;
        let mut stream = Stream::new(None, &mut out, &counts);
        assert!(!counts.new_line() && !counts.interrupted());
        stream.line("info move D4");
        assert!(counts.new_line() && counts.interrupted());
        assert!(stream.finish(&Ok(String::new())).is_err());
    }

    #[test]
    fn answers_show_control_characters_escaped() {
        let r = frame(None, &Err("found '\u{1b}[2J' and '\0'\r".to_string()));
        assert_eq!(r, "? found '\\u{1b}[2J' and '\\u{0}'\n\n");
        let r = frame(
            Some("3"),
            &Ok("a\tb\u{9b}c\rd\u{7f}\nno\u{e9}l".to_string()),
        );
        assert_eq!(r, "=3 a\\tb\\u{9b}c\\rd\\u{7f}\nno\u{e9}l\n\n");
        let counts = Input::default();
        let mut out = Vec::new();
        let mut stream = Stream::new(Some("4"), &mut out, &counts);
        stream.line("x\u{1b}y\n\nz");
        stream.finish(&Ok(String::new())).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "=4 \nx\\u{1b}y\nz\n\n");
    }
}
