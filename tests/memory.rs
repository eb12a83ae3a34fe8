//! Memory per move, through the release binary: a long game of passes played with `play` and
//! written with `printsgf`, a long record read with `loadsgf`, and a record longer than a game
//! may be, refused with the game left as it was. The engine's peak resident memory (`VmHWM` in
//! `/proc/<pid>/status`, so Linux only) must stay within a bound that a record keeping a board
//! per move (about 14 KB each) exceeds many times over.
#![cfg(target_os = "linux")]

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// The longest any one response may take here.
const DEADLINE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    responses: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = common::spawn_tengen(&["--threads", "1", "--size", "9"], None);
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        // Responses are read as they come, so that a long batch of commands never fills the pipe.
        let responses = common::gtp_responses(stdout);
        Engine {
            child,
            stdin,
            responses,
        }
    }

    /// Sends the commands in one write and returns their responses.
    fn send(&mut self, commands: &[String]) -> Vec<String> {
        let mut text = commands.join("\n");
        text.push('\n');
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        (0..commands.len())
            .map(|i| {
                self.responses
                    .recv_timeout(DEADLINE)
                    .unwrap_or_else(|_| panic!("no response to {:?} (engine gone?)", commands[i]))
            })
            .collect()
    }

    fn one(&mut self, command: &str) -> String {
        self.send(&[command.to_string()]).remove(0)
    }

    /// The engine's peak resident memory so far, in MB.
    fn peak_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the engine is running");
        let kb: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("a VmHWM line");
        kb / 1024.0
    }

    fn quit(mut self) {
        assert_eq!(self.one("quit"), "= \n");
        self.child.wait().unwrap();
    }
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn ten_thousand_passes_and_printsgf_stay_small() {
    let mut e = Engine::start();
    let passes: Vec<String> = (0..10_000)
        .map(|i| format!("play {} pass", if i % 2 == 0 { "b" } else { "w" }))
        .collect();
    let answers = e.send(&passes);
    assert!(answers.iter().all(|a| a == "= \n"), "a pass refused");
    let sgf = e.one("printsgf");
    assert_eq!(
        sgf.matches(";B[]").count() + sgf.matches(";W[]").count(),
        10_000
    );
    assert_eq!(e.one("undo"), "= \n");
    let peak = e.peak_mb();
    println!("peak resident memory: {:.1} MB", peak);
    assert!(peak < 50.0, "{:.1} MB for a game of 10,000 passes", peak);
    e.quit();
}

#[test]
fn long_records_load_with_bounded_memory() {
    // 99,999 moves: the longest record here that a game may hold (within `MAX_MOVES`).
    let long = format!("(;SZ[19]{};B[dd])", ";B[];W[]".repeat(49_999));
    let long = temp_file("long.sgf", &long);
    // A million passes, the size of an attack: refused while it is read.
    let huge = format!("(;SZ[9]{})", ";B[]".repeat(1_000_000));
    let huge = temp_file("huge.sgf", &huge);

    let mut e = Engine::start();
    assert_eq!(e.one(&format!("loadsgf {}", long.display())), "= white\n");
    // Undo through the stone and on into the passes.
    assert_eq!(e.one("undo"), "= \n");
    assert_eq!(e.one("undo"), "= \n");
    let after_undo = e.peak_mb();
    println!("peak after the 99,999-move record: {:.1} MB", after_undo);
    assert!(after_undo < 100.0, "{:.1} MB", after_undo);

    assert_eq!(e.one("clear_board"), "= \n");
    assert_eq!(e.one("play b e5"), "= \n");
    let before = e.one("printsgf");
    let refused = e.one(&format!("loadsgf {}", huge.display()));
    assert!(refused.starts_with("? cannot load file"), "{}", refused);
    assert_eq!(e.one("printsgf"), before, "the game changed");
    let peak = e.peak_mb();
    println!("peak after the million-pass record: {:.1} MB", peak);
    assert!(peak < 200.0, "{:.1} MB", peak);
    e.quit();
    let _ = std::fs::remove_dir_all(long.parent().unwrap());
}

#[test]
fn many_distinct_property_names_load_with_bounded_memory() {
    // Two million distinct five-letter names with empty values (14 MB, under the 16 MB cap on
    // a record), then a move: once 677 MB and 10.7 s.
    let mut text = String::from("(;GM[1]SZ[19]");
    for i in 0..2_000_000usize {
        let mut name = [b'A'; 5];
        let mut k = i;
        for c in name.iter_mut().rev() {
            *c = b'A' + (k % 26) as u8;
            k /= 26;
        }
        text.push_str(std::str::from_utf8(&name).unwrap());
        text.push_str("[]");
    }
    text.push_str(";B[dd])");
    assert!(text.len() < 16 * 1024 * 1024);
    // A file of its own: the other tests remove their directory when they end.
    let path = std::env::temp_dir().join(format!("tengen-memory-names-{}.sgf", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    drop(text);
    let mut e = Engine::start();
    let start = std::time::Instant::now();
    assert_eq!(e.one(&format!("loadsgf {}", path.display())), "= white\n");
    let peak = e.peak_mb();
    println!(
        "two million property names: {:.1} MB peak, {:.1} s",
        peak,
        start.elapsed().as_secs_f64()
    );
    assert!(peak < 120.0, "{:.1} MB", peak);
    e.quit();
    let _ = std::fs::remove_file(&path);
}
