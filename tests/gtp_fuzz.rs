//! Bad input: thousands of random and mutated GTP lines into the release binary.
//!
//! Every line must get exactly one well-formed response (`=` or `?`, the line's id echoed, a
//! space, no empty line inside, an empty line after) — or none when GTP's preprocessing leaves
//! nothing of it — and the engine must keep running until `quit`. After each fuzz line a sentinel
//! command (`protocol_version` with a reserved id) is sent, so that a missing or extra response
//! shows at the line that caused it. The lines come from fixed seeds: random bytes; random words;
//! every listed command with missing, extra and malformed arguments; mutations of valid
//! commands (bytes flipped, inserted or dropped, control characters, comments, huge ids); very
//! long lines. A final phase pipelines a batch of commands at once and checks the answers come
//! back complete and in order.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use tengen::gtp::MAX_LINE;

const SENTINEL_ID: &str = "987654321";
/// The longest a single response may take (the slowest commands count dead stones).
const DEADLINE: Duration = Duration::from_secs(30);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Vec<u8>>,
}

impl Engine {
    fn start(dir: &std::path::Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args([
                "--threads",
                "1",
                "--seed",
                "7",
                "--playouts",
                "30",
                "--size",
                "9",
            ])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tengen");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match r.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next_line(&mut self, context: &str) -> Vec<u8> {
        match self.lines.recv_timeout(DEADLINE) {
            Ok(l) => l,
            Err(_) => {
                let status = self.child.try_wait().ok().flatten();
                panic!(
                    "no output within {:?} after {} (engine status: {:?})",
                    DEADLINE, context, status
                )
            }
        }
    }

    /// Reads one response and checks its form; returns (ok, id, text).
    fn response(&mut self, context: &str) -> (bool, String, String) {
        let first = self.next_line(context);
        let first = String::from_utf8(first)
            .unwrap_or_else(|e| panic!("non-UTF-8 output after {}: {:?}", context, e));
        assert!(
            first.ends_with('\n') && !first.contains('\r'),
            "bad line ending after {}: {:?}",
            context,
            first
        );
        let first = &first[..first.len() - 1];
        let ok = match first.as_bytes().first() {
            Some(b'=') => true,
            Some(b'?') => false,
            _ => panic!("stray output after {}: {:?}", context, first),
        };
        let rest = &first[1..];
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        let id = rest[..digits].to_string();
        let text = rest[digits..]
            .strip_prefix(' ')
            .unwrap_or_else(|| panic!("no space after the marker after {}: {:?}", context, first));
        let mut text = text.to_string();
        loop {
            let line = self.next_line(context);
            assert!(
                line.ends_with(b"\n") && !line.contains(&b'\r'),
                "bad line after {}: {:?}",
                context,
                String::from_utf8_lossy(&line)
            );
            if line == b"\n" {
                break;
            }
            text.push('\n');
            text.push_str(std::str::from_utf8(&line[..line.len() - 1]).unwrap());
        }
        (ok, id, text)
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// What GTP's preprocessing leaves of a line: whether a response is due, and the id if any.
fn expectation(line: &[u8]) -> Option<Option<String>> {
    if line.len() > MAX_LINE {
        // Refused whole; the id is echoed when it survives.
        let kept = clean(line);
        return Some(first_word_id(&kept));
    }
    let kept = clean(line);
    if kept.iter().all(|&b| b == b' ') {
        return None;
    }
    Some(first_word_id(&kept))
}

fn clean(line: &[u8]) -> Vec<u8> {
    let mut kept = Vec::new();
    for &b in line {
        match b {
            b'#' => break,
            b'\t' => kept.push(b' '),
            0..=31 | 127 => {}
            _ => kept.push(b),
        }
    }
    kept
}

fn first_word_id(kept: &[u8]) -> Option<String> {
    let word: Vec<u8> = kept
        .iter()
        .copied()
        .skip_while(|&b| b == b' ')
        .take_while(|&b| b != b' ')
        .collect();
    (!word.is_empty() && word.iter().all(|b| b.is_ascii_digit()))
        .then(|| String::from_utf8(word).unwrap())
}

/// Whether the line would be a `quit` (never sent: the engine must stay up).
fn is_quit(line: &[u8]) -> bool {
    let kept = String::from_utf8_lossy(&clean(line)).into_owned();
    let mut words = kept.split(' ').filter(|w| !w.is_empty());
    match words.next() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next() == Some("quit"),
        Some(w) => w == "quit",
        None => false,
    }
}

/// Argument values, good and bad, for every command.
const ARGS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "5",
    "9",
    "13",
    "19",
    "25",
    "26",
    "-1",
    "-3.5",
    "6.5",
    "7",
    "1e400",
    "nan",
    "inf",
    "-0",
    "99999999999999999999999",
    "4294967296",
    "b",
    "w",
    "B",
    "White",
    "black",
    "x",
    "pass",
    "PASS",
    "resign",
    "a1",
    "A1",
    "e5",
    "E5",
    "j9",
    "T19",
    "Z25",
    "z26",
    "i5",
    "A0",
    "a-1",
    "c3",
    "d4",
    "Q16",
    "alive",
    "dead",
    "seki",
    "japanese",
    "chinese",
    "prejudgement",
    "aga",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "/",
    ".",
    "..",
    "/dev/null",
    "/dev/zero",
    "no-such.sgf",
    "out.sgf",
    "/etc/hostname",
    "天元",
    "\u{00a0}",
    "\u{0085}",
    "%s%n",
    "{}",
    "\\",
];

/// Commands not sent with random arguments: `quit` ends the session.
fn fuzz_commands(listed: &[String]) -> Vec<String> {
    listed.iter().filter(|c| *c != "quit").cloned().collect()
}

fn random_bytes(rng: &mut fastrand::Rng, max: usize) -> Vec<u8> {
    let n = rng.usize(0..max);
    (0..n).map(|_| rng.u8(..)).filter(|&b| b != b'\n').collect()
}

fn random_command(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut words: Vec<String> = Vec::new();
    if rng.u8(..4) == 0 {
        words.push(rng.u64(..1_000_000).to_string());
    }
    words.push(commands[rng.usize(..commands.len())].clone());
    let n = rng.usize(0..5);
    for _ in 0..n {
        words.push(ARGS[rng.usize(..ARGS.len())].to_string());
    }
    words.join(" ").into_bytes()
}

/// A valid-looking command line, then damaged.
fn mutated(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut line = random_command(rng, commands);
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(..=line.len());
        match rng.u8(..8) {
            0 if !line.is_empty() => {
                let i = rng.usize(..line.len());
                line[i] ^= 1 << rng.u8(..8);
            }
            1 if !line.is_empty() => {
                line.remove(rng.usize(..line.len()));
            }
            2 => line.insert(at, rng.u8(..)),
            3 => line.insert(at, b'#'),
            4 => line.insert(at, b'\t'),
            5 => line.insert(at, b'\r'),
            6 => {
                let id = "9".repeat(rng.usize(1..40));
                line.splice(0..0, format!("{} ", id).into_bytes());
            }
            _ => line.insert(at, [0u8, 27, 127, 8][rng.usize(..4)]),
        }
    }
    line.retain(|&b| b != b'\n');
    line
}

fn long_line(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut line = random_command(rng, commands);
    let target = if rng.bool() {
        MAX_LINE * 2
    } else {
        MAX_LINE - 10
    };
    while line.len() < target {
        line.push(b' ');
        line.extend_from_slice(ARGS[rng.usize(..ARGS.len())].as_bytes());
    }
    line.truncate(target);
    line
}

#[test]
fn random_and_malformed_lines_each_get_one_well_formed_answer() {
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("tengen-gtp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut engine = Engine::start(&dir);

    engine.send(b"list_commands");
    let (ok, _, text) = engine.response("list_commands");
    assert!(ok);
    let listed: Vec<String> = text.lines().map(|s| s.to_string()).collect();
    let commands = fuzz_commands(&listed);

    let mut rng = fastrand::Rng::with_seed(20_240_601);
    let total = 5000;
    let mut answered = 0;
    for n in 0..total {
        let line = match n % 10 {
            0 | 1 => random_bytes(&mut rng, 120),
            2 => {
                let words: Vec<String> = (0..rng.usize(0..6))
                    .map(|_| (0..rng.usize(1..10)).map(|_| rng.alphanumeric()).collect())
                    .collect();
                words.join(" ").into_bytes()
            }
            3..=6 => random_command(&mut rng, &commands),
            7 | 8 => mutated(&mut rng, &commands),
            _ if n % 100 == 9 => long_line(&mut rng, &commands),
            _ => {
                // A legal-looking move now and then, so positions grow and undo has work.
                let c = if rng.bool() { "b" } else { "w" };
                let col = b"ABCDEFGHJ"[rng.usize(..9)] as char;
                format!("play {} {}{}", c, col, rng.usize(1..10)).into_bytes()
            }
        };
        if is_quit(&line) {
            continue;
        }
        let shown = String::from_utf8_lossy(&line[..line.len().min(120)]).into_owned();
        let context = format!("line {} {:?}", n, shown);
        engine.send(&line);
        engine.send(format!("{} protocol_version", SENTINEL_ID).as_bytes());
        if let Some(id) = expectation(&line) {
            let (_, got_id, _) = engine.response(&context);
            assert_eq!(
                got_id,
                id.unwrap_or_default(),
                "wrong id echoed for {}",
                context
            );
            answered += 1;
        }
        let (ok, id, text) = engine.response(&context);
        assert!(
            ok && id == SENTINEL_ID && text == "2",
            "expected the sentinel's answer after {}, got {} {:?} {:?}",
            context,
            ok,
            id,
            text
        );
        assert!(engine.alive(), "the engine exited after {}", context);
    }
    assert!(answered > total / 2, "only {} lines answered", answered);

    // Pipelining: a batch written at once comes back complete and in order.
    let mut batch = Vec::new();
    for i in 1..=200 {
        let cmd = match i % 4 {
            0 => "name",
            1 => "boardsize 9",
            2 => "play b e5",
            _ => "undo",
        };
        batch.extend_from_slice(format!("{} {}\n", i, cmd).as_bytes());
    }
    engine.stdin.write_all(&batch).unwrap();
    engine.stdin.flush().unwrap();
    for i in 1..=200 {
        let (_, id, _) = engine.response("the pipelined batch");
        assert_eq!(id, i.to_string());
    }

    engine.send(b"77 quit");
    let (ok, id, text) = engine.response("quit");
    assert!(ok && id == "77" && text.is_empty());
    let end = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Ok(Some(s)) = engine.child.try_wait() {
            break s;
        }
        assert!(Instant::now() < end, "the engine did not exit after quit");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "exit status {:?}", status);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{} lines, {} answered, in {:.1} s",
        total,
        answered,
        started.elapsed().as_secs_f64()
    );
}
