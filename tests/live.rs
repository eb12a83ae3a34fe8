//! The engine as a GUI sees it while it thinks: live analysis that streams until the next
//! command, GoGui's `# interrupt` ending a long `genmove` at once, and pondering that stops the
//! moment a command arrives. Each test drives the release binary through its pipes and reads
//! its output as it comes, line by line.
//!
//! The thinking times given to the engine (a minute a move) are far longer than any deadline
//! here, so a missing interrupt shows as a timeout, not as a slow pass.

mod common;

use common::gui::RawEngine;
use std::time::{Duration, Instant};

/// A running engine: its input, and its output lines as they arrive.
struct Engine(RawEngine);

impl Engine {
    fn start(args: &[&str]) -> Engine {
        Engine(RawEngine::spawn(args))
    }

    /// Writes `text`: one or more lines, each ended by a newline.
    fn send(&mut self, text: &str) {
        for line in text.split_inclusive('\n') {
            self.0.send(line.strip_suffix('\n').unwrap_or(line));
        }
    }

    /// The next output line, or a failure naming `what` after `within`.
    fn line(&mut self, within: Duration, what: &str) -> String {
        self.0
            .line(Instant::now() + within)
            .unwrap_or_else(|| panic!("the output ended, waiting for {}", what))
    }

    /// Reads a whole response (up to its empty line): its lines, the `=` line first.
    fn response(&mut self, within: Duration, what: &str) -> Vec<String> {
        let end = Instant::now() + within;
        let mut lines = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let l = self.line(left, what);
            if l.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                return lines;
            }
            lines.push(l);
        }
    }

    /// Sends `quit` and waits for the process to end.
    fn quit(mut self, within: Duration) {
        self.0.send("quit");
        // Panics when the output has not ended by then.
        self.0.rest(within);
    }
}

const SLOW: &[&str] = &["--threads", "2", "--time", "60", "--size", "9"];

#[test]
fn analysis_streams_until_the_next_command() {
    let mut e = Engine::start(SLOW);
    e.send("play b e5\nplay w c3\n");
    e.response(Duration::from_secs(10), "play");
    e.response(Duration::from_secs(10), "play");
    e.send("7 kata-analyze b 10\n");
    assert_eq!(e.line(Duration::from_secs(10), "the = line"), "=7 ");
    // Reports keep coming, a line every tenth of a second, with nothing sent.
    let start = Instant::now();
    let mut infos = 0;
    while start.elapsed() < Duration::from_millis(1500) {
        let l = e.line(Duration::from_secs(10), "an info line");
        assert!(l.starts_with("info move "), "{}", l);
        infos += 1;
    }
    assert!(infos >= 3, "only {} reports in 1.5 s", infos);
    // Sabaki's stop: another command. The analysis ends with its empty line, then the answer.
    e.send("8 protocol_version\n");
    let stopped = Instant::now();
    loop {
        let l = e.line(Duration::from_secs(5), "the end of the analysis");
        if l.is_empty() {
            break;
        }
        assert!(l.starts_with("info move "), "{}", l);
    }
    assert_eq!(e.line(Duration::from_secs(5), "protocol_version"), "=8 2");
    assert!(stopped.elapsed() < Duration::from_secs(5));
    e.quit(Duration::from_secs(3));
}

#[test]
fn an_empty_line_ends_an_analysis_with_one_full_line() {
    let mut e = Engine::start(SLOW);
    e.send("lz-analyze w 100\n\n");
    let r = e.response(Duration::from_secs(10), "lz-analyze");
    assert_eq!(r[0], "= ");
    assert_eq!(r.len(), 2, "{:?}", r);
    assert!(
        r[1].starts_with("info move ") && r[1].contains(" pv "),
        "{:?}",
        r
    );
    e.quit(Duration::from_secs(3));
}

#[test]
fn gogui_interrupt_ends_genmove_with_a_move() {
    let mut e = Engine::start(SLOW);
    e.send("1 genmove b\n");
    std::thread::sleep(Duration::from_millis(300));
    e.send("# interrupt\n2 name\n");
    let r = e.response(Duration::from_secs(10), "genmove after # interrupt");
    assert!(r[0].starts_with("=1 ") && r[0].len() > 3, "{:?}", r);
    assert_eq!(e.response(Duration::from_secs(5), "name"), ["=2 tengen"]);
    // A command queued behind genmove (Sabaki's pipelining) is not an interrupt: the next
    // genmove runs its time; the interrupt after it cuts that short too.
    e.send("3 genmove w\n4 protocol_version\n");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        e.0.quiet(),
        "genmove ended before its time without an interrupt"
    );
    e.send("# interrupt\n");
    let r = e.response(Duration::from_secs(10), "genmove w after # interrupt");
    assert!(r[0].starts_with("=3 "), "{:?}", r);
    assert_eq!(
        e.response(Duration::from_secs(5), "protocol_version"),
        ["=4 2"]
    );
    e.quit(Duration::from_secs(3));
}

#[test]
fn pondering_stops_the_moment_a_command_arrives() {
    let mut e = Engine::start(&["--threads", "2", "--time", "0.3", "--size", "9", "--ponder"]);
    e.send("1 genmove b\n");
    e.response(Duration::from_secs(10), "genmove");
    // Now it ponders on White's time, for as long as White takes.
    std::thread::sleep(Duration::from_millis(800));
    let asked = Instant::now();
    e.send("2 name\n");
    assert_eq!(
        e.response(Duration::from_secs(2), "name while pondering"),
        ["=2 tengen"]
    );
    assert!(asked.elapsed() < Duration::from_secs(2));
    // The game goes on normally; quit ends the process even while it ponders.
    e.send("3 play w c3\n4 genmove b\n");
    e.response(Duration::from_secs(5), "play");
    let r = e.response(Duration::from_secs(10), "genmove after pondering");
    assert!(r[0].starts_with("=4 "), "{:?}", r);
    std::thread::sleep(Duration::from_millis(300));
    e.quit(Duration::from_secs(3));
}

#[test]
fn the_end_of_input_ends_an_analysis_and_pondering() {
    // A controller that goes away without `quit` (a crash, a closed pipe) must not leave the
    // engine analysing or pondering for ever.
    for (args, input) in [
        (SLOW, "boardsize 9\nkata-analyze b 50\n"),
        (
            &["--threads", "2", "--time", "0.3", "--size", "9", "--ponder"][..],
            "genmove b\n",
        ),
    ] {
        let mut e = Engine::start(args);
        e.send(input);
        std::thread::sleep(Duration::from_millis(700));
        // The output must end (the process with it) within 5 s of the input closing.
        e.0.close_input();
        e.0.rest(Duration::from_secs(5));
    }
}
