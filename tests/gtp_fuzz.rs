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

mod common;

use common::fuzz::{
    expectation, fuzz_commands, is_quit, long_line, mutated, random_bytes, random_command,
    writing_only,
};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

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
        let mut child = common::spawn_tengen(
            &[
                "--threads",
                "1",
                "--seed",
                "7",
                "--playouts",
                "30",
                "--size",
                "9",
            ],
            Some(dir),
        );
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
        let line = writing_only(line, "out.sgf");
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
