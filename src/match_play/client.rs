//! The controller side of GTP: an engine run as a child process, spoken to one command at a
//! time, with a deadline on every answer.
//!
//! A reader thread turns the engine's stdout into responses (stray lines before a response are
//! skipped, as Sabaki does, and logged), so waiting for an answer is a channel receive with a
//! timeout: a hung engine costs at most the deadline, a crashed one is noticed when its output
//! closes. Commands carry increasing ids and a late answer to an earlier command is discarded,
//! so one slow answer cannot shift every later one. Dropping a client kills its process group:
//! an engine started through a wrapper script that does not `exec` leaves no grandchild behind.
//!
//! Memory is bounded whatever the engine prints: a line longer than [`MAX_LINE`] or more than
//! [`MAX_RESPONSE`] bytes before a response ends (stray lines included) is a flood, and the
//! engine is killed. A client may be given a stop flag (set by a signal handler): waiting for an
//! answer then ends early once the flag is up.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why a command got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The engine could not be started.
    Spawn(String),
    /// No answer within the deadline.
    Timeout(Duration),
    /// The engine's output closed (it exited or crashed); with its exit status when known.
    Exited(String),
    /// The engine printed past a cap (see [`MAX_LINE`], [`MAX_RESPONSE`]) and was killed.
    Flooded(String),
    /// The stop flag went up while waiting.
    Interrupted,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ClientError::Spawn(e) => write!(f, "could not start: {}", e),
            ClientError::Timeout(d) => write!(f, "no answer within {:.1} s", d.as_secs_f64()),
            ClientError::Exited(s) => write!(f, "exited ({})", s),
            ClientError::Flooded(s) => write!(f, "flooded its output ({}) and was killed", s),
            ClientError::Interrupted => write!(f, "was interrupted"),
        }
    }
}

/// A response: `Ok(text)` for `=`, `Err(message)` for `?`.
pub type Response = Result<String, String>;

/// The longest line an engine may print.
pub const MAX_LINE: usize = 1 << 20;
/// The most an engine may print from one response to the end of the next (stray lines count).
pub const MAX_RESPONSE: usize = 4 << 20;

/// One parsed response with its id, if the engine echoed one.
struct Answer {
    id: Option<u64>,
    response: Response,
}

/// Stray lines logged between two responses.
const MAX_STRAY_LOGGED: usize = 10;

/// The characters of a stray line the log shows: a line may be up to [`MAX_LINE`] long, and ten
/// of those in full would bury the log.
const STRAY_SHOWN: usize = 200;

/// A stray line as logged: whole when short, else its first [`STRAY_SHOWN`] characters and its
/// length in bytes; control characters escaped (an engine's escape sequence must not reach the
/// terminal).
fn stray_shown(line: &str, bytes: usize) -> String {
    let shown = crate::sgf::printable(line, STRAY_SHOWN);
    match line.chars().nth(STRAY_SHOWN) {
        None => shown,
        Some(_) => format!("{} ({} bytes in all)", shown, bytes),
    }
}

/// What the reader thread passes on: a response, or the flood that made it stop reading.
type Reading = Result<Answer, String>;

/// Reads one line (without its `\n`) into `line`, at most `cap` bytes of it. `Ok(false)` at
/// the end of the output (or a read error, which ends it too); `Err` for a line past the cap.
fn read_capped_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> Result<bool, String> {
    line.clear();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(false),
        };
        if buf.is_empty() {
            return Ok(!line.is_empty());
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if line.len() + take > cap {
            return Err(format!("a line longer than {} bytes", cap));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(done));
        if done {
            return Ok(true);
        }
    }
}

/// A running engine.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Reading>,
    next_id: u64,
    /// When set and up, waiting for an answer ends with [`ClientError::Interrupted`].
    stop: Option<&'static AtomicBool>,
    /// What to call the engine in messages.
    pub label: String,
    /// Set once the process group has been killed and the process reaped: the group's number
    /// may then be reused by the system, so it is never signalled again.
    ended: bool,
}

/// Splits a command line into words as a shell would for simple quoting: white space separates
/// words, `'…'` is literal, `"…"` allows `\"` and `\\`, and a backslash outside quotes escapes the
/// next character. No variables, globs or redirections.
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in: {}", line)),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in: {}", line)),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in: {}", line)),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing \\ in: {}", line)),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty command line".to_string());
    }
    Ok(words)
}

/// Parses the engine's output into answers until it closes or floods (see [`MAX_LINE`],
/// [`MAX_RESPONSE`]); a flood is the last thing sent.
fn read_answers(out: impl std::io::Read, label: String, tx: mpsc::Sender<Reading>) {
    read_answers_capped(out, label, tx, MAX_LINE, MAX_RESPONSE)
}

fn read_answers_capped(
    out: impl std::io::Read,
    label: String,
    tx: mpsc::Sender<Reading>,
    max_line: usize,
    max_response: usize,
) {
    let mut reader = BufReader::new(out);
    // The response being read: its id, success, and text so far (one string, so that many
    // short lines cost their bytes only).
    let mut current: Option<(Option<u64>, bool, String)> = None;
    let mut raw = Vec::new();
    // Bytes and stray lines read since the last complete answer.
    let mut since_answer = 0usize;
    let mut stray = 0usize;
    loop {
        match read_capped_line(&mut reader, &mut raw, max_line) {
            Ok(true) => {}
            Ok(false) => break,
            Err(flood) => {
                let _ = tx.send(Err(flood));
                return;
            }
        }
        since_answer += raw.len() + 1;
        if since_answer > max_response {
            let _ = tx.send(Err(format!(
                "more than {} bytes for one response",
                max_response
            )));
            return;
        }
        let line = String::from_utf8_lossy(&raw)
            .replace('\r', "")
            .replace('\t', " ");
        match current.take() {
            None => {
                if line.trim().is_empty() {
                    continue;
                }
                let ok = match line.as_bytes()[0] {
                    b'=' => true,
                    b'?' => false,
                    _ => {
                        // A few are shown; a flood of them would only bury the log.
                        stray += 1;
                        if stray <= MAX_STRAY_LOGGED {
                            log::warn!(
                                "{}: stray output line: {}",
                                label,
                                stray_shown(&line, raw.len())
                            );
                        } else if stray == MAX_STRAY_LOGGED + 1 {
                            log::warn!("{}: more stray output lines, not shown", label);
                        }
                        continue;
                    }
                };
                let rest = &line[1..];
                let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
                let id = rest[..digits].parse().ok();
                let text = rest[digits..].strip_prefix(' ').unwrap_or(&rest[digits..]);
                current = Some((id, ok, text.to_string()));
            }
            Some((id, ok, mut text)) => {
                if line.trim().is_empty() {
                    let text = text.trim().to_string();
                    let response = if ok { Ok(text) } else { Err(text) };
                    since_answer = 0;
                    stray = 0;
                    if tx.send(Ok(Answer { id, response })).is_err() {
                        return;
                    }
                } else {
                    text.push('\n');
                    text.push_str(&line);
                    current = Some((id, ok, text));
                }
            }
        }
    }
}

impl Client {
    /// Starts an engine from a command line (see [`split_command_line`]). Its stderr is passed
    /// through when `show_stderr`, else discarded.
    pub fn spawn(command_line: &str, show_stderr: bool) -> Result<Client, ClientError> {
        let words = split_command_line(command_line).map_err(ClientError::Spawn)?;
        Client::spawn_args(&words[0], &words[1..], None, show_stderr)
    }

    /// Starts `program` with `args`, in directory `dir` when given.
    pub fn spawn_args(
        program: &str,
        args: &[String],
        dir: Option<&Path>,
        show_stderr: bool,
    ) -> Result<Client, ClientError> {
        let mut command = Command::new(program);
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        // A process group of its own: Ctrl-C at a terminal reaches the controller only, which
        // decides when the engine stops (and can count the game it was playing).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {}", program, e)))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, answers) = mpsc::channel();
        let label = std::path::Path::new(program)
            .file_name()
            .map_or(program.to_string(), |n| n.to_string_lossy().into_owned());
        let thread_label = label.clone();
        std::thread::Builder::new()
            .name(format!("gtp-client-{}", label))
            .spawn(move || read_answers(stdout, thread_label, tx))
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        Ok(Client {
            stdin: child.stdin.take(),
            child,
            answers,
            next_id: 1,
            stop: None,
            label,
            ended: false,
        })
    }

    /// Makes waiting for an answer end early once `stop` is up.
    pub fn stop_when(&mut self, stop: &'static AtomicBool) {
        self.stop = Some(stop);
    }

    /// Sends one command and waits at most `deadline` for its answer.
    pub fn send(&mut self, command: &str, deadline: Duration) -> Result<Response, ClientError> {
        self.send_then(command, &[], deadline)
    }

    /// Sends one command, then the raw lines `after` right behind it without waiting (an empty
    /// line ends live analysis, `# interrupt` cuts a search short), and waits at most
    /// `deadline` for the command's answer.
    pub fn send_then(
        &mut self,
        command: &str,
        after: &[String],
        deadline: Duration,
    ) -> Result<Response, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut line = format!("{} {}\n", id, command.trim());
        for extra in after {
            line.push_str(extra);
            line.push('\n');
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(line.as_bytes()).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("input closed")),
        };
        if written.is_err() {
            return Err(self.exit_status());
        }
        let end = Instant::now() + deadline;
        // With a stop flag, wait in short slices so that a signal is noticed soon.
        let slice = match self.stop {
            Some(_) => Duration::from_millis(50),
            None => deadline,
        };
        loop {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(ClientError::Interrupted);
            }
            let left = end.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(left.min(slice)) {
                // A late answer to an earlier command that timed out: not this one.
                Ok(Ok(a)) if a.id.is_some_and(|i| i < id) => continue,
                Ok(Ok(a)) => return Ok(a.response),
                Ok(Err(flood)) => {
                    self.kill();
                    return Err(ClientError::Flooded(flood));
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < end => continue,
                Err(RecvTimeoutError::Timeout) => return Err(ClientError::Timeout(deadline)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exit_status()),
            }
        }
    }

    /// The exit status once the output has closed (waiting a moment for the process to end).
    fn exit_status(&mut self) -> ClientError {
        let end = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return ClientError::Exited(status.to_string()),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(10)),
                _ => return ClientError::Exited("output closed".to_string()),
            }
        }
    }

    /// Whether the process has ended.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `quit` and gives the process `grace` to end, then kills what is left of its group
    /// (a wrapper's child that outlives it, a hung engine).
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit", grace);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end && !self.has_exited() {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Ends the engine at once: its whole process group (see [`Client::spawn_args`]), then the
    /// process itself if it left the group, and reaps it.
    pub fn kill(&mut self) {
        if self.ended {
            return;
        }
        #[cfg(unix)]
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.ended = true;
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends SIGKILL to process group `pgid`. An engine's group is its own (`process_group(0)` at
/// its start, so the group's number is its process id), and killing the group is the only way
/// to reach what a wrapper script started without `exec`: std kills a child only. std has no
/// `kill(2)` and the allowed crates offer none, hence the C call.
///
/// The number stays the group's while any member lives or the leader is not reaped; once both
/// are gone it could in principle be reused, but process ids are handed out cyclically, so not
/// in the moment between the reap and this call.
#[cfg(unix)]
fn kill_group(pgid: u32) {
    const SIGKILL: i32 = 9;
    extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }
    // 0 would be the match's own group and -1 every process it may signal.
    let Ok(pgid) = i32::try_from(pgid) else {
        return;
    };
    if pgid <= 1 {
        return;
    }
    // SAFETY: `kill` is the C library's; it takes two integers and touches no memory of ours.
    unsafe {
        kill(-pgid, SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line("/usr/games/gnugo --mode gtp --level 1").unwrap(),
            ["/usr/games/gnugo", "--mode", "gtp", "--level", "1"]
        );
        assert_eq!(
            split_command_line(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("   ").is_err());
    }

    #[test]
    fn answers_are_parsed_with_ids_and_stray_lines_skipped() {
        let out = "hello\n=1 a\nb\n\n?2 bad\n\n= \n\n";
        let (tx, rx) = mpsc::channel();
        read_answers(out.as_bytes(), "t".into(), tx);
        let a: Vec<Answer> = rx.iter().map(|r| r.unwrap()).collect();
        assert_eq!(a.len(), 3);
        assert_eq!(
            (a[0].id, a[0].response.clone()),
            (Some(1), Ok("a\nb".into()))
        );
        assert_eq!(
            (a[1].id, a[1].response.clone()),
            (Some(2), Err("bad".into()))
        );
        assert_eq!((a[2].id, a[2].response.clone()), (None, Ok(String::new())));
    }

    #[test]
    fn a_stray_line_is_shown_escaped_and_a_long_one_as_a_prefix() {
        assert_eq!(stray_shown("hello", 5), "hello");
        assert_eq!(stray_shown("a\u{1b}[2J\0", 6), "a\\u{1b}[2J\\u{0}");
        let exact = "y".repeat(STRAY_SHOWN);
        assert_eq!(stray_shown(&exact, exact.len()), exact);
        let long = "é".repeat(100_000);
        let shown = stray_shown(&long, long.len());
        assert_eq!(
            shown,
            format!("{}… (200000 bytes in all)", "é".repeat(STRAY_SHOWN))
        );
    }

    #[test]
    fn a_flood_ends_the_reading() {
        let (tx, rx) = mpsc::channel();
        let long_line = format!("=1 ok\n\n={}\n\n", "x".repeat(100));
        read_answers_capped(long_line.as_bytes(), "t".into(), tx, 64, 1000);
        let a: Vec<Reading> = rx.iter().collect();
        assert_eq!(a.len(), 2);
        assert!(a[0].as_ref().is_ok_and(|a| a.response == Ok("ok".into())));
        assert!(a[1].as_ref().is_err_and(|e| e.contains("line longer")));
        let (tx, rx) = mpsc::channel();
        let many_lines = format!("=1 ok\n\n=2\n{}\n", "y\n".repeat(600));
        read_answers_capped(many_lines.as_bytes(), "t".into(), tx, 64, 1000);
        let a: Vec<Reading> = rx.iter().collect();
        assert_eq!(a.len(), 2);
        assert!(a[1].as_ref().is_err_and(|e| e.contains("one response")));
    }
}
