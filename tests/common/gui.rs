//! What the tests that replay recorded GUI sessions share: the release binary on raw pipes (the
//! GUIs' exact bytes go in, every output line comes back with a deadline), GTP answers split the
//! way a GUI splits them, and GTP vertices.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// One answer: its status, number when the command had one, the text after the status and
/// number on the first line, and the lines after the first.
#[derive(Debug)]
pub struct Answer {
    pub ok: bool,
    pub id: Option<u32>,
    pub text: String,
    pub more: Vec<String>,
}

/// The lines a GUI sent, from a recorded session file: the file's opening comment block (what
/// was done in the GUI) is left out; every later line is sent as it stands, comments such as
/// GoGui's `# interrupt` included.
pub fn session_lines(dir: &str, file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir)
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{:?}: {}", path, e));
    text.lines()
        .skip_while(|l| l.starts_with('#'))
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The release binary with its input and output on pipes; stderr is dropped.
pub struct RawEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl RawEngine {
    pub fn spawn(args: &[&str]) -> RawEngine {
        let mut child = super::spawn_tengen(args, None);
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        RawEngine {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line as it stands.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{}", line).expect("write to tengen");
        stdin.flush().unwrap();
    }

    /// Whether no output line is waiting to be read (a waiting line is consumed).
    pub fn quiet(&mut self) -> bool {
        self.lines.try_recv().is_err()
    }

    /// Closes the engine's input, as a GUI that ends the engine by closing its pipe.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line; `None` when the output has ended. Panics past `deadline`.
    pub fn line(&mut self, deadline: Instant) -> Option<String> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("tengen printed nothing more in time");
            }
        }
    }

    /// The next output line if one comes within `wait`; `None` when none does (or the output
    /// has ended).
    pub fn line_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Every line until the output ends, then the exit status's success.
    pub fn rest(&mut self, within: Duration) -> (Vec<String>, bool) {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        while let Some(line) = self.line(deadline) {
            lines.push(line);
        }
        (lines, self.child.wait().unwrap().success())
    }

    /// The next answer (blank lines before it skipped); panics on a line that is not part of one
    /// or when none is complete by `deadline`.
    pub fn answer(&mut self, deadline: Instant) -> Answer {
        loop {
            let line = self
                .line(deadline)
                .expect("the output ended before an answer");
            if line.is_empty() {
                continue;
            }
            let mut answer = start_of_answer(&line);
            loop {
                let next = self
                    .line(deadline)
                    .expect("the output ended inside an answer");
                if next.is_empty() {
                    return answer;
                }
                answer.more.push(next);
            }
        }
    }
}

impl Drop for RawEngine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first line of an answer: `=` or `?`, an optional number, then the text.
fn start_of_answer(line: &str) -> Answer {
    let ok = match line.as_bytes()[0] {
        b'=' => true,
        b'?' => false,
        _ => panic!("a line outside any answer: {:?}", line),
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    Answer {
        ok,
        id: rest[..digits].parse().ok(),
        text: rest[digits..].trim().to_string(),
        more: Vec::new(),
    }
}

/// Splits a whole output into answers, as a GUI reading the stream does; panics on a line
/// outside any answer, since the GUI would read it as one.
pub fn split_answers(lines: &[String]) -> Vec<Answer> {
    let mut out: Vec<Answer> = Vec::new();
    let mut open = false;
    for line in lines {
        if open {
            if line.is_empty() {
                open = false;
            } else {
                out.last_mut().unwrap().more.push(line.clone());
            }
        } else if !line.is_empty() {
            out.push(start_of_answer(line));
            open = true;
        }
    }
    out
}

/// Whether `v` is a point of a `size`×`size` board in GTP's letters (no I), or a pass.
pub fn is_vertex(v: &str, size: usize) -> bool {
    if v.eq_ignore_ascii_case("pass") {
        return true;
    }
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .get(..size.min(25))
        .unwrap_or("");
    let mut chars = v.chars();
    let Some(col) = chars.next() else {
        return false;
    };
    let row: String = chars.collect();
    letters.contains(col.to_ascii_uppercase())
        && row.parse::<usize>().is_ok_and(|r| (1..=size).contains(&r))
}
