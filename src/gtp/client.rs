//! The controller side of GTP: an engine run as a child process, spoken to one command at a
//! time, with a deadline on every answer.
//!
//! A reader thread turns the engine's stdout into responses (stray lines before a response are
//! skipped, as Sabaki does, and logged), so waiting for an answer is a channel receive with a
//! timeout: a hung engine costs at most the deadline, a crashed one is noticed when its output
//! closes. Commands carry increasing ids and a late answer to an earlier command is discarded,
//! so one slow answer cannot shift every later one. Dropping a client kills its process.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
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
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ClientError::Spawn(e) => write!(f, "could not start: {}", e),
            ClientError::Timeout(d) => write!(f, "no answer within {:.1} s", d.as_secs_f64()),
            ClientError::Exited(s) => write!(f, "exited ({})", s),
        }
    }
}

/// A response: `Ok(text)` for `=`, `Err(message)` for `?`.
pub type Response = Result<String, String>;

/// One parsed response with its id, if the engine echoed one.
struct Answer {
    id: Option<u64>,
    response: Response,
}

/// A running engine.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Answer>,
    next_id: u64,
    /// What to call the engine in messages.
    pub label: String,
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

/// Parses the engine's output into answers until it closes.
fn read_answers(out: impl std::io::Read, label: String, tx: mpsc::Sender<Answer>) {
    let reader = BufReader::new(out);
    let mut current: Option<(Option<u64>, bool, Vec<String>)> = None;
    for line in reader.split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line)
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
                        log::warn!("{}: stray output line: {}", label, line);
                        continue;
                    }
                };
                let rest = &line[1..];
                let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
                let id = rest[..digits].parse().ok();
                let text = rest[digits..].strip_prefix(' ').unwrap_or(&rest[digits..]);
                current = Some((id, ok, vec![text.to_string()]));
            }
            Some((id, ok, mut lines)) => {
                if line.trim().is_empty() {
                    let text = lines.join("\n").trim().to_string();
                    let response = if ok { Ok(text) } else { Err(text) };
                    if tx.send(Answer { id, response }).is_err() {
                        return;
                    }
                } else {
                    lines.push(line);
                    current = Some((id, ok, lines));
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
            label,
        })
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
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(left) {
                // A late answer to an earlier command that timed out: not this one.
                Ok(a) if a.id.is_some_and(|i| i < id) => continue,
                Ok(a) => return Ok(a.response),
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

    /// Sends `quit`, then ends the process if it has not ended within `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit", grace);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if self.has_exited() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if !self.has_exited() {
            self.kill();
        }
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
        let a: Vec<Answer> = rx.iter().collect();
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
}
