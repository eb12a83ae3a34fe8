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

#[test]
fn a_queued_interrupt_cuts_only_the_command_running_when_it_arrives() {
    // Two genmoves and an interrupt in one write: the interrupt arrives while the first runs, so
    // it ends that one; the second, which had not started, runs its time.
    let mut e = Engine::start(SLOW);
    e.send("1 genmove b\n2 genmove w\n# interrupt\n");
    let r = e.response(Duration::from_secs(10), "genmove b after # interrupt");
    assert!(r[0].starts_with("=1 ") && r[0].len() > 3, "{:?}", r);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        e.0.quiet(),
        "the second genmove ended before its time: the interrupt was applied to it too"
    );
    e.send("# interrupt\n");
    let r = e.response(
        Duration::from_secs(10),
        "genmove w after its own # interrupt",
    );
    assert!(r[0].starts_with("=2 ") && r[0].len() > 3, "{:?}", r);
    e.quit(Duration::from_secs(3));
}

#[test]
fn a_closed_output_ends_the_analysis_and_the_engine() {
    // `tengen | head -c 3`: once the reader of the answers is gone, a report that cannot be
    // written ends the analysis, and the engine exits cleanly, its input still open.
    use std::io::{Read, Write};
    let mut child = common::spawn_tengen(&["--threads", "1", "--size", "9"], None);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdin.write_all(b"lz-analyze 1\n").unwrap();
    stdin.flush().unwrap();
    let mut head = [0u8; 3];
    stdout.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"= \n");
    drop(stdout);
    let closed = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if closed.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still analysing 10 s after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    println!("exited {:?} after the output closed", closed.elapsed());
    assert!(status.success(), "{:?}", status);
    drop(stdin);
}

/// The worker threads' peak resident memory (`VmHWM`), in MB.
fn peak_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid)).unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024.0
}

#[test]
fn a_thousand_threads_keep_to_the_clock() {
    // `--threads 1024` on a machine with a few cores: the workers are capped (with a warning on
    // stderr) and the clock holds, for genmove and for the end of an analysis. The bounds are
    // loose for a loaded two-core machine; uncapped, the two moves took 28 s and 12.6 s there,
    // and the analysis ended 3 to 5 s after the line that stops it.
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["--threads", "1024", "--time", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let warnings = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let (tx, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send((line, Instant::now())).is_err() {
                break;
            }
        }
    });
    let next = |what: &str| {
        lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("nothing in 60 s, waiting for {}", what))
    };
    let sent = Instant::now();
    stdin.write_all(b"1 genmove b\n2 genmove w\n").unwrap();
    stdin.flush().unwrap();
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let (l, at) = next("the genmove answers");
        if l.starts_with('=') {
            answered.push(at);
        }
    }
    let first = answered[0] - sent;
    let second = answered[1] - answered[0];
    println!("genmove b {:?}, genmove w {:?}", first, second);
    assert!(first < Duration::from_secs(6), "genmove b took {:?}", first);
    assert!(
        second < Duration::from_secs(6),
        "genmove w took {:?}",
        second
    );

    stdin.write_all(b"3 lz-analyze b 50\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let stop = Instant::now();
    stdin.write_all(b"4 name\n").unwrap();
    stdin.flush().unwrap();
    let ended = loop {
        let (l, at) = next("the name after the analysis");
        if l == "=4 tengen" {
            break at;
        }
    };
    println!(
        "analysis ended {:?} after the line that stops it",
        ended - stop
    );
    assert!(
        ended - stop < Duration::from_secs(3),
        "the analysis ended {:?} after the line that stops it",
        ended - stop
    );
    let peak = peak_mb(child.id());
    println!("peak resident memory {:.1} MB", peak);
    assert!(peak < 200.0, "{:.1} MB", peak);
    stdin.write_all(b"quit\n").unwrap();
    stdin.flush().unwrap();
    assert!(child.wait().unwrap().success());
    let warned = warnings.join().unwrap();
    assert!(
        warned.contains("threads"),
        "no warning on stderr: {:?}",
        warned
    );
}

/// The CPU time the process has used so far (user and system, all threads), from
/// `/proc/PID/stat`, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid)).unwrap();
    // The fields after the command name in parentheses; utime and stime are the 14th and 15th
    // of the line, the 12th and 13th after it.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // The kernel's USER_HZ is 100 on every Linux this runs on.
    ticks / 100.0
}

/// Whether the process uses `seconds` of CPU time within `within`: a busy thread does on a
/// loaded machine too, given time, and an idle engine never.
fn cpu_grows(pid: u32, seconds: f64, within: Duration) -> bool {
    let (start, before) = (Instant::now(), cpu_seconds(pid));
    while start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(50));
        if cpu_seconds(pid) - before >= seconds {
            return true;
        }
    }
    false
}

/// Reads an analysis's lines until none has come for `quiet`; returns them with the time each
/// arrived. Panics if lines keep coming for `within`.
fn lines_until_quiet(e: &mut Engine, quiet: Duration, within: Duration) -> Vec<(String, Instant)> {
    let start = Instant::now();
    let mut lines = Vec::new();
    loop {
        assert!(
            start.elapsed() < within,
            "lines still coming after {:?}",
            within
        );
        match e.0.line_within(quiet) {
            Some(l) => lines.push((l, Instant::now())),
            None => return lines,
        }
    }
}

/// The `rootInfo visits` of an info line.
fn root_visits(line: &str) -> u64 {
    let at = line.find("rootInfo visits ").expect("rootInfo") + "rootInfo visits ".len();
    line[at..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn an_analysis_with_a_visit_limit_stops_searching_and_waits_for_the_next_line() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9", "--analysis-visits", "200"]);
    let pid = e.0.pid();
    e.send("1 kata-analyze b interval 1 rootInfo true\n");
    assert_eq!(e.line(Duration::from_secs(10), "the = line"), "=1 ");
    let lines = lines_until_quiet(&mut e, Duration::from_millis(1500), Duration::from_secs(30));
    assert!(!lines.is_empty(), "no analysis line");
    for (l, _) in &lines {
        assert!(l.starts_with("info move "), "{}", l);
        assert!(root_visits(l) <= 200, "{}", l);
    }
    // One thread: the root stops at exactly the limit.
    assert_eq!(root_visits(&lines.last().unwrap().0), 200);
    // The command is still open, but idle: no CPU time goes to it.
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_millis(1500));
    let used = cpu_seconds(pid) - before;
    assert!(used < 0.2, "{:.2} s of CPU in 1.5 s after the limit", used);
    assert!(e.0.quiet(), "a line after the limit");
    // The next line ends the answer; the engine goes on.
    e.send("2 name\n");
    assert_eq!(
        e.line(Duration::from_secs(5), "the end of the analysis"),
        ""
    );
    assert_eq!(e.response(Duration::from_secs(5), "name"), ["=2 tengen"]);
    // The same position again: the kept tree already has its 200 visits.
    e.send("3 kata-analyze b interval 1 rootInfo true\n");
    assert_eq!(e.line(Duration::from_secs(10), "the = line"), "=3 ");
    let lines = lines_until_quiet(&mut e, Duration::from_millis(1000), Duration::from_secs(30));
    assert_eq!(root_visits(&lines.last().unwrap().0), 200);
    e.send("\n");
    assert_eq!(
        e.line(Duration::from_secs(5), "the end of the analysis"),
        ""
    );
    e.quit(Duration::from_secs(3));
}

#[test]
fn an_analysis_with_a_time_limit_stops_after_it() {
    let mut e = Engine::start(&["--threads", "1", "--size", "9", "--analysis-seconds", "1"]);
    let pid = e.0.pid();
    e.send("1 lz-analyze b 10\n");
    assert_eq!(e.line(Duration::from_secs(10), "the = line"), "=1 ");
    let start = Instant::now();
    let lines = lines_until_quiet(&mut e, Duration::from_millis(1500), Duration::from_secs(30));
    let last = lines.last().expect("no analysis line").1 - start;
    // Reports every 0.1 s for a second: the last one about a second in (a loaded machine may
    // be late), none after.
    assert!(lines.len() >= 3, "{} lines", lines.len());
    assert!(
        last > Duration::from_millis(700) && last < Duration::from_millis(2500),
        "the last line came {:?} after the start",
        last
    );
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_millis(1000));
    let used = cpu_seconds(pid) - before;
    assert!(used < 0.15, "{:.2} s of CPU in 1 s after the limit", used);
    e.send("\n2 kata-get-param maxTimePondering\n");
    assert_eq!(
        e.line(Duration::from_secs(5), "the end of the analysis"),
        ""
    );
    assert_eq!(
        e.response(Duration::from_secs(5), "kata-get-param"),
        ["=2 1.0"]
    );
    e.quit(Duration::from_secs(3));
}

#[test]
fn the_first_analysis_line_comes_with_real_results() {
    // Black wins every playout by a komi of −400 on 19×19: any move with a result has win rate
    // 1. A line shown before any result came back (a visit still in flight counted as a loss,
    // or a prior standing in) would show less.
    let mut e = Engine::start(&["--threads", "2"]);
    e.send("komi -400\n");
    e.response(Duration::from_secs(5), "komi");
    for (command, won) in [
        ("kata-analyze b interval 1", "winrate 1.000000"),
        ("lz-analyze b 1", "winrate 10000"),
    ] {
        e.send(&format!("{}\n", command));
        e.line(Duration::from_secs(10), "the = line");
        let mut seen = 0;
        while seen < 5 {
            let l = e.line(Duration::from_secs(10), "an info line");
            for block in l.split("info move ").skip(1) {
                let visits: u32 = block.split(' ').nth(2).unwrap().parse().unwrap();
                assert!(visits > 0, "a move without results: {}", l);
                assert!(block.contains(won), "{}: {}", command, block);
            }
            seen += 1;
        }
        e.send("\n");
        while !e.line(Duration::from_secs(5), "the end").is_empty() {}
    }
    e.quit(Duration::from_secs(3));
}

#[test]
fn stop_ends_pondering_until_the_next_move() {
    let mut e = Engine::start(&["--threads", "1", "--time", "0.3", "--size", "9", "--ponder"]);
    let pid = e.0.pid();
    e.send("1 genmove b\n");
    e.response(Duration::from_secs(10), "genmove");
    // Pondering on White's time takes the CPU: on a loaded machine only a share of a core, but
    // far more than the few milliseconds an idle engine takes.
    assert!(
        cpu_grows(pid, 0.2, Duration::from_secs(10)),
        "not pondering"
    );
    e.send("2 stop\n");
    assert_eq!(e.response(Duration::from_secs(5), "stop"), ["=2 "]);
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_millis(1000));
    let used = cpu_seconds(pid) - before;
    assert!(used < 0.03, "{:.2} s of CPU in 1 s after stop", used);
    // Other commands do not start it again; the next move of its own does.
    e.send("3 name\n");
    assert_eq!(e.response(Duration::from_secs(5), "name"), ["=3 tengen"]);
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        cpu_seconds(pid) - before < 0.03,
        "pondering again after name"
    );
    e.send("4 play w c3\n5 genmove b\n");
    e.response(Duration::from_secs(5), "play");
    e.response(Duration::from_secs(10), "genmove");
    assert!(
        cpu_grows(pid, 0.2, Duration::from_secs(10)),
        "not pondering after the move"
    );
    // With nothing running, stop is a plain success.
    e.send("6 stop\n7 stop\n");
    assert_eq!(e.response(Duration::from_secs(5), "stop"), ["=6 "]);
    assert_eq!(e.response(Duration::from_secs(5), "stop"), ["=7 "]);
    e.quit(Duration::from_secs(3));
}

/// How many of the process's threads are running or ready to run (state `R` in
/// `/proc/PID/task/*/stat`): on a loaded machine a busy thread waiting for a core counts too.
fn busy_threads(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", pid)) else {
        return 0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            stat.rfind(')')
                .is_some_and(|k| stat[k + 2..].starts_with('R'))
        })
        .count()
}

#[test]
fn one_thread_judges_a_finished_game_on_one_thread() {
    // `--threads 1` is one busy thread in the judgement too (its search and its flat playouts
    // take turns): sampled through a 19×19 count, two of the process's threads are busy at once
    // in 2–3% of the samples (a waking watcher caught), a search beside the playouts in 24%.
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-scripts/race_crowded.sgf");
    let mut e = Engine::start(&["--threads", "1"]);
    e.send(&format!("loadsgf {}\n", record));
    e.response(Duration::from_secs(10), "loadsgf");
    let pid = e.0.pid();
    e.send("final_score\n");
    let (mut samples, mut crowded) = (0, 0);
    let score = loop {
        if let Some(line) = e.0.line_within(Duration::from_millis(5)) {
            break line;
        }
        samples += 1;
        if busy_threads(pid) >= 2 {
            crowded += 1;
        }
    };
    assert!(score.starts_with("= "), "{}", score);
    assert!(samples >= 20, "the count took only {} samples", samples);
    assert!(
        crowded * 10 < samples,
        "two threads busy in {} of {} samples",
        crowded,
        samples
    );
    e.quit(Duration::from_secs(5));
}

#[test]
fn the_prediction_keeps_to_max_time_and_ends_at_an_interrupt() {
    // Pre-judgement on 19×19 after the four placements: 200,000 playouts would take half a
    // minute or more, but maxTime bounds the prediction as it bounds a move.
    let mut e = Engine::start(&["--threads", "1", "--rules", "prejudgement"]);
    e.send("play w q16\nplay b d4\nplay w q4\nplay b d16\n");
    e.send("kata-set-param maxPlayouts 200000\nkata-set-param maxTime 0.5\n");
    for what in ["w q16", "b d4", "w q4", "b d16", "maxPlayouts", "maxTime"] {
        assert_eq!(e.response(Duration::from_secs(5), what), ["= "]);
    }
    let start = Instant::now();
    e.send("1 tengen-prejudge\n");
    let r = e.response(Duration::from_secs(30), "tengen-prejudge");
    assert!(r[0].starts_with("=1 "), "{:?}", r);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // With a minute to think, GoGui's interrupt ends it with the mean so far.
    e.send("kata-set-param maxTime 60\n");
    assert_eq!(e.response(Duration::from_secs(5), "maxTime 60"), ["= "]);
    e.send("2 tengen-prejudge\n");
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    e.send("# interrupt\n");
    let r = e.response(Duration::from_secs(30), "tengen-prejudge after # interrupt");
    assert!(r[0].starts_with("=2 "), "{:?}", r);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    e.quit(Duration::from_secs(3));
}
