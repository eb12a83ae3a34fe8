//! Helpers shared by the integration tests: the reference rules and the bridge between its
//! coordinates and tengen's, (in `gui`) what the replays of recorded GUI sessions share, and (in
//! `fuzz`) the generators of the fuzz tests, (in `engines`) the sh stand-ins for GTP engines.
#![allow(dead_code)]

pub mod engines;
pub mod fuzz;
pub mod gui;
pub mod reference;

use reference::{RefGame, RefMove, Stones};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use tengen::board::{Board, Move, Removal};
use tengen::game::Game;
use tengen::perft::{legal_moves, perft};
use tengen::rules::Rules;

/// The three presets.
pub fn all_rules() -> [Rules; 6] {
    [
        Rules::japanese(),
        Rules::chinese(),
        Rules::prejudgement(),
        Rules::aga(),
        Rules::new_zealand(),
        Rules::tromp_taylor(),
    ]
}

/// tengen's stones in the reference's layout.
pub fn tengen_stones(b: &Board) -> Stones {
    let n = b.size();
    let mut v = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            v.push(b.color(b.point(col, row)));
        }
    }
    v
}

/// A tengen move (with its removal choice, as `perft::legal_moves` lists it) in the reference's
/// terms.
pub fn to_ref(b: &Board, mv: Move, removal: Removal) -> RefMove {
    match mv {
        Move::Pass => RefMove::Pass,
        Move::Play(p) => {
            let (col, row) = b.coords(p);
            RefMove::Play {
                col,
                row,
                own: removal == Removal::Own,
            }
        }
    }
}

/// A stone on (`col`, `row`) with the default removal.
pub fn stone(col: usize, row: usize) -> RefMove {
    RefMove::Play {
        col,
        row,
        own: false,
    }
}

/// A reference move in tengen's terms.
pub fn to_tengen(b: &Board, mv: RefMove) -> (Move, Removal) {
    match mv {
        RefMove::Pass => (Move::Pass, Removal::Opponent),
        RefMove::Play { col, row, own } => (
            Move::Play(b.point(col, row)),
            if own { Removal::Own } else { Removal::Opponent },
        ),
    }
}

/// A tengen game and a reference game set up on the same position.
pub fn setup_both(n: usize, rules: Rules, stones: &Stones) -> (Game, RefGame) {
    let mut g = Game::new(n, rules).expect("valid size");
    let b = g.board().clone();
    let list: Vec<_> = (0..n * n)
        .filter_map(|i| stones[i].map(|c| (b.point(i % n, i / n), Some(c))))
        .collect();
    g.setup(&list).expect("a valid setup position");
    assert_eq!(
        tengen_stones(g.board()),
        *stones,
        "setup reproduces the diagram"
    );
    (g, RefGame::from_stones(n, rules, stones.clone()))
}

/// Plays a reference move in both games; panics if they disagree on its legality.
pub fn play_both(g: &mut Game, r: &mut RefGame, mv: RefMove) {
    let color = r.mover();
    let (tm, removal) = to_tengen(g.board(), mv);
    let t = g.play_with(color, tm, removal);
    let e = r.play(color, mv);
    assert_eq!(
        t.is_ok(),
        e.is_ok(),
        "legality of {:?} for {:?}: tengen {:?}, reference {:?}\n{}",
        mv,
        color,
        t,
        e,
        describe(r)
    );
    assert_eq!(tengen_stones(g.board()), r.stones, "boards after {:?}", mv);
}

/// The position and the record, for failure messages.
pub fn describe(r: &RefGame) -> String {
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|(c, m)| match m {
            RefMove::Pass => format!("{}:pass", c.letter()),
            RefMove::Play { col, row, own } => format!(
                "{}:({},{}){}",
                c.letter(),
                col,
                row,
                if *own { "own" } else { "" }
            ),
        })
        .collect();
    format!(
        "rules {} size {}, {} to move, passes {}\nstart position:\n{}moves (col,row; row 0 = top): [{}]\nposition:\n{}",
        r.rules.name,
        r.n,
        r.mover(),
        r.passes,
        reference::diagram(&r.positions[0], r.n),
        moves.join(" "),
        r.diagram()
    )
}

/// tengen's legal moves as a set of reference moves.
pub fn tengen_moves(g: &Game) -> BTreeSet<RefMove> {
    let b = g.board();
    legal_moves(g)
        .into_iter()
        .map(|(m, rm)| to_ref(b, m, rm))
        .collect()
}

/// Walks down from a position where tengen's and the reference's perft(`depth`) differ to the
/// first position where their legal move lists differ, and describes it.
pub fn find_divergence(g: &Game, r: &RefGame, depth: u32) -> String {
    let mut g = g.clone();
    let mut r = r.clone();
    let mut depth = depth;
    loop {
        let t_set = tengen_moves(&g);
        let r_list = r.legal_moves();
        let r_set: BTreeSet<RefMove> = r_list.iter().copied().collect();
        let t1 = perft(&g, 1);
        if t_set != r_set || t1 != r_list.len() as u64 {
            return format!(
                "legal moves differ\n{}\ntengen perft(1) = {}, legal_moves = {}, reference = {}\nonly tengen: {:?}\nonly reference: {:?}",
                describe(&r),
                t1,
                t_set.len(),
                r_list.len(),
                t_set.difference(&r_set).collect::<Vec<_>>(),
                r_set.difference(&t_set).collect::<Vec<_>>()
            );
        }
        if depth <= 1 {
            return format!("no divergence found at depth 1\n{}", describe(&r));
        }
        let mut next = None;
        for mv in r_list {
            let mut g2 = g.clone();
            let mut r2 = r.clone();
            play_both(&mut g2, &mut r2, mv);
            if perft(&g2, depth - 1) != r2.perft(depth - 1) {
                next = Some((g2, r2));
                break;
            }
        }
        match next {
            Some((g2, r2)) => {
                g = g2;
                r = r2;
                depth -= 1;
            }
            None => {
                return format!(
                    "totals differ at depth {} but no child differs\n{}",
                    depth,
                    describe(&r)
                )
            }
        }
    }
}

/// Asserts that tengen's and the reference's perft agree for every depth up to `depth`;
/// returns the counts.
pub fn check_perft(g: &Game, r: &RefGame, depth: u32, ctx: &str) -> Vec<u64> {
    let mut r = r.clone();
    // The move lists themselves first: tengen's `legal_moves` against the reference's.
    let t_set = tengen_moves(g);
    let r_set: BTreeSet<RefMove> = r.legal_moves().into_iter().collect();
    if t_set != r_set || legal_moves(g).len() != t_set.len() {
        panic!("{}: {}", ctx, find_divergence(g, &r, 1));
    }
    let mut counts = Vec::new();
    for d in 0..=depth {
        let t = perft(g, d);
        let e = r.perft(d);
        if t != e {
            panic!(
                "{}: perft({}) tengen {} != reference {}\n{}",
                ctx,
                d,
                t,
                e,
                find_divergence(g, &r, d)
            );
        }
        counts.push(t);
    }
    counts
}

/// The responses on a GTP engine's standard output, one complete response (its closing empty
/// line left out) at a time, read on a thread of their own so that the pipe never fills.
pub fn gtp_responses(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, responses) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut r = std::io::BufReader::new(stdout);
        let mut response = String::new();
        loop {
            let mut line = String::new();
            match r.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) if line == "\n" => {
                    if tx.send(std::mem::take(&mut response)).is_err() {
                        break;
                    }
                }
                Ok(_) => response.push_str(&line),
            }
        }
    });
    responses
}

/// A process's resident memory in kB (`VmRSS` in `/proc/<pid>/status`); `None` once it is gone.
/// Linux only, like `/proc`.
pub fn resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid)).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The processes whose parent is `pid`, from each process's `stat` line in `/proc`.
pub fn child_processes(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            // The parent is the second field after the command name, which is in parentheses
            // and may itself hold spaces or parentheses.
            std::fs::read_to_string(format!("/proc/{}/stat", p))
                .ok()
                .and_then(|s| {
                    let after = &s[s.rfind(')')? + 1..];
                    after.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

/// The release binary with `args`, its input and output on pipes and its stderr dropped, run in
/// `dir` when one is given.
pub fn spawn_tengen(args: &[&str], dir: Option<&Path>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.spawn().expect("start tengen")
}

/// How a process run by [`run_bounded`] ended.
#[derive(Debug)]
pub struct Ended {
    /// The exit status, or `None` when a signal ended it.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stderr: String,
    /// Its peak resident memory (the kernel's `ru_maxrss`), MB.
    pub peak_mb: f64,
    /// Its user and system CPU time, seconds.
    pub cpu_seconds: f64,
}

/// `struct rusage` of Linux: two `timeval`s, then fourteen `long`s, `ru_maxrss` (kB) first.
#[repr(C)]
struct Rusage {
    times: [std::os::raw::c_long; 4],
    maxrss: std::os::raw::c_long,
    rest: [std::os::raw::c_long; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// Runs `command` (its stdout discarded, its stderr kept) to its end, which must come within
/// `deadline` and without its resident memory (`VmRSS`, polled) passing `max_mb`: otherwise it
/// is killed and the test fails. The process is reaped with `wait4`, which gives its own peak
/// memory and CPU time (std's `wait` gives neither).
// Reaped by `wait4`, which clippy does not know of.
#[allow(clippy::zombie_processes)]
pub fn run_bounded(command: &mut Command, deadline: std::time::Duration, max_mb: f64) -> Ended {
    use std::io::Read;
    let start = std::time::Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the process");
    let pid = child.id();
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = pipe.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let mut status = 0i32;
    let mut usage = Rusage {
        times: [0; 4],
        maxrss: 0,
        rest: [0; 13],
    };
    const WNOHANG: i32 = 1;
    loop {
        // SAFETY: `wait4` writes only into the two values passed, which outlive the call; the
        // child is std's, whose `Child` is not waited on after this.
        let reaped = unsafe { wait4(pid as i32, &mut status, WNOHANG, &mut usage) };
        assert!(reaped >= 0, "wait4 failed");
        if reaped == pid as i32 {
            break;
        }
        let rss_mb = resident_kb(pid).unwrap_or(0) as f64 / 1024.0;
        let over = if rss_mb > max_mb {
            Some(format!(
                "resident memory {:.0} MB, over {:.0} MB",
                rss_mb, max_mb
            ))
        } else if start.elapsed() > deadline {
            Some(format!("still running after {:?}", deadline))
        } else {
            None
        };
        if let Some(why) = over {
            let _ = child.kill();
            // SAFETY: as above.
            unsafe { wait4(pid as i32, &mut status, 0, &mut usage) };
            panic!("{:?}: {}", command, why);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // The process is reaped: `child` is not waited on again (dropping it waits for nothing).
    let seconds =
        |sec: std::os::raw::c_long, usec: std::os::raw::c_long| sec as f64 + usec as f64 / 1e6;
    let (signal, code) = (status & 0x7f, (status >> 8) & 0xff);
    Ended {
        code: (signal == 0).then_some(code),
        signal: (signal != 0).then_some(signal),
        stderr: reader.join().unwrap(),
        peak_mb: usage.maxrss as f64 / 1024.0,
        cpu_seconds: seconds(usage.times[0], usage.times[1])
            + seconds(usage.times[2], usage.times[3]),
    }
}
