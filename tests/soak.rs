//! Soak: many fast games through `tengen match` — self-play and against GNU Go, 9×9 mostly, some
//! 13×13 and 19×19, under Chinese and Japanese rules — checking that every game ends with a
//! result on the board (no crash or forfeit `+F`, no loss on time `+T`, no illegal move), that
//! each match prints its summary and exits cleanly, and that resident memory stays flat: the
//! match process lives for a whole phase, so its `VmRSS` after the first game and after the last
//! must be alike; the engines are started afresh for every game, so their peak in the last games
//! must be like their peak in the first ones.
//!
//! `a_few_games_of_each_kind` (CI) plays a handful; `thousand_games` (ignored; about fifty
//! minutes on two busy cores) is the soak itself:
//!
//!     cargo test --release --test soak -- --ignored --nocapture
//!
//! (`SOAK_FROM=N` in the environment resumes it at its phase N.)
//!
//! Linux only, like `/proc`. The phases against GNU Go are skipped, with a message, when
//! `/usr/games/gnugo` is not installed.
#![cfg(target_os = "linux")]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GNUGO: &str = "/usr/games/gnugo";
const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// Who plays White in the odd-numbered games (tengen is always engine A).
#[derive(Clone, Copy)]
enum Opponent {
    Tengen,
    GnuGo { level: u32 },
}

/// One `tengen match` run.
struct Phase {
    games: usize,
    size: usize,
    rules: &'static str,
    opponent: Opponent,
    /// Whether tengen may resign; without it games go on to two passes and the count.
    resign: bool,
}

impl Phase {
    fn tengen(&self) -> String {
        // One search thread each: the machine running the soak may be busy with other work.
        format!(
            "{} --threads 1 --playouts 200{}",
            TENGEN,
            if self.resign { "" } else { " --no-resign" }
        )
    }

    fn opponent(&self) -> String {
        match self.opponent {
            Opponent::Tengen => self.tengen(),
            Opponent::GnuGo { level } => format!(
                "{} --mode gtp --level {}{}",
                GNUGO,
                level,
                if self.rules == "chinese" {
                    " --chinese-rules"
                } else {
                    ""
                }
            ),
        }
    }

    fn title(&self) -> String {
        let against = match self.opponent {
            Opponent::Tengen => "self-play".to_string(),
            Opponent::GnuGo { level } => format!("GNU Go level {}", level),
        };
        format!(
            "{} games {}x{} {} {}{}",
            self.games,
            self.size,
            self.size,
            self.rules,
            against,
            if self.resign { "" } else { " no-resign" }
        )
    }
}

/// Resident memory sampled while one game was being played.
#[derive(Clone, Copy, Default, Debug)]
struct GameMemory {
    /// The match process's largest `VmRSS` during the game, kB.
    match_kb: u64,
    /// The largest `VmRSS` of any one tengen engine during the game, kB.
    engine_kb: u64,
    /// The same for GNU Go, for comparison.
    gnugo_kb: u64,
}

struct Report {
    games: usize,
    a_wins: usize,
    b_wins: usize,
    draws: usize,
    elapsed: Duration,
    memory: Vec<GameMemory>,
    /// The first game (from 0) that ended on the board and was counted by tengen's judge.
    first_count: Option<usize>,
}

impl Report {
    /// The game (from 0) from which the match process's memory must stay flat: a quarter of
    /// the way, and not before the game after the first count (the judge's threads start
    /// there, once for the match).
    fn settled(&self) -> usize {
        let after_count = self.first_count.map_or(0, |g| g + 1);
        (self.games / 4).max(after_count).min(self.games - 1)
    }

    fn peak(&self, f: impl Fn(&GameMemory) -> u64) -> u64 {
        self.memory.iter().map(f).max().unwrap_or(0)
    }

    /// The mean over the first or last tenth of the games (at least one game).
    fn mean(&self, last: bool, f: impl Fn(&GameMemory) -> u64) -> f64 {
        let k = (self.memory.len() / 10).max(1);
        let part = if last {
            &self.memory[self.memory.len() - k..]
        } else {
            &self.memory[..k]
        };
        part.iter().map(f).sum::<u64>() as f64 / k as f64
    }
}

fn mb(kb: impl Into<f64>) -> f64 {
    kb.into() / 1024.0
}

/// Plays one phase, checks every game line and the summary, and samples memory four times a
/// second.
fn play(phase: &Phase, records: &Path) -> Report {
    let started = Instant::now();
    let log = records.with_extension("log");
    let mut child = Command::new(TENGEN)
        .arg("match")
        .args(["--black", &phase.tengen(), "--white", &phase.opponent()])
        .args(["--games", &phase.games.to_string()])
        .args(["--size", &phase.size.to_string(), "--rules", phase.rules])
        .args(["--time", "1", "--sgf-dir"])
        .arg(records)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start tengen match");
    let pid = child.id();
    let finished = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let memory = Arc::new(Mutex::new(vec![GameMemory::default(); phase.games + 1]));
    let sampler = {
        let (finished, done, memory) = (finished.clone(), done.clone(), memory.clone());
        std::thread::spawn(move || {
            while !done.load(SeqCst) {
                let game = finished.load(SeqCst);
                let match_kb = common::resident_kb(pid).unwrap_or(0);
                let (mut engine_kb, mut gnugo_kb) = (0, 0);
                for engine in common::child_processes(pid) {
                    let name = std::fs::read_to_string(format!("/proc/{}/comm", engine));
                    let kb = common::resident_kb(engine).unwrap_or(0);
                    if name.is_ok_and(|n| n.starts_with("gnugo")) {
                        gnugo_kb = gnugo_kb.max(kb);
                    } else {
                        engine_kb = engine_kb.max(kb);
                    }
                }
                let mut m = memory.lock().unwrap();
                let last = m.len() - 1;
                let slot = &mut m[game.min(last)];
                slot.match_kb = slot.match_kb.max(match_kb);
                slot.engine_kb = slot.engine_kb.max(engine_kb);
                slot.gnugo_kb = slot.gnugo_kb.max(gnugo_kb);
                drop(m);
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };

    let (mut a_wins, mut b_wins, mut draws, mut summary) = (0, 0, 0, false);
    let mut first_count = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("game ") {
            let n = finished.load(SeqCst) + 1;
            assert!(
                rest.starts_with(&format!("{}: ", n)),
                "game {} expected: {}",
                n,
                line
            );
            let result = line
                .split(" | ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .unwrap_or_else(|| panic!("no result in {:?}", line));
            assert!(
                result == "0"
                    || ((result.starts_with("B+") || result.starts_with("W+"))
                        && !result.ends_with("+T")
                        && !result.ends_with("+F")),
                "{}: {}",
                phase.title(),
                line
            );
            assert!(!line.contains("illegal"), "{}: {}", phase.title(), line);
            if line.contains("tengen counts") && first_count.is_none() {
                first_count = Some(n - 1);
            }
            if line.contains("A wins") {
                a_wins += 1;
            } else if line.contains("B wins") {
                b_wins += 1;
            } else {
                assert!(line.contains("draw"), "{}", line);
                draws += 1;
            }
            finished.fetch_add(1, SeqCst);
        } else if line.starts_with("summary:") {
            summary = true;
        }
    }
    let status = child.wait().unwrap();
    done.store(true, SeqCst);
    sampler.join().unwrap();
    let stderr = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status.success() && summary && !stderr.contains("panicked"),
        "{}: status {:?}, summary printed {}, stderr:\n{}",
        phase.title(),
        status,
        summary,
        stderr
    );
    let games = finished.load(SeqCst);
    assert_eq!(games, phase.games, "{}: games reported", phase.title());
    let written = std::fs::read_dir(records).unwrap().count();
    assert_eq!(written, phase.games, "{}: records written", phase.title());
    let mut memory = memory.lock().unwrap().clone();
    // The last slot holds what was sampled after the last game line.
    memory.truncate(phase.games);
    Report {
        games,
        a_wins,
        b_wins,
        draws,
        elapsed: started.elapsed(),
        memory,
        first_count,
    }
}

/// Plays every phase and checks that memory stayed flat in each; prints the figures.
fn soak(phases: &[Phase]) {
    let dir = std::env::temp_dir().join(format!("tengen-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let gnugo = Path::new(GNUGO).exists();
    if !gnugo {
        eprintln!(
            "{} is not installed: the games against it are skipped",
            GNUGO
        );
    }
    // SOAK_FROM=N resumes a soak at its phase N (counted from 1), after a failure there.
    let from = std::env::var("SOAK_FROM")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    if from > 1 {
        eprintln!("SOAK_FROM={}: phases 1 to {} skipped", from, from - 1);
    }
    let started = Instant::now();
    let mut total = 0;
    for (i, phase) in phases.iter().enumerate() {
        if i + 1 < from || matches!(phase.opponent, Opponent::GnuGo { .. }) && !gnugo {
            continue;
        }
        let r = play(phase, &dir.join(format!("phase-{}", i + 1)));
        total += r.games;
        let match_first = r.memory[0].match_kb;
        let match_last = r.memory[r.games - 1].match_kb;
        let engine_first = r.mean(false, |m| m.engine_kb);
        let engine_last = r.mean(true, |m| m.engine_kb);
        println!(
            "{}: A {} B {} draws {}, {:.0} s; match RSS {} MB (games 1, ¼, ½, ¾, last), peak {:.1} MB; \
             tengen engines' peak RSS {:.1} MB, per game {:.1} MB in the first tenth, {:.1} MB in the last{}",
            phase.title(),
            r.a_wins,
            r.b_wins,
            r.draws,
            r.elapsed.as_secs_f64(),
            [0, r.games / 4, r.games / 2, 3 * r.games / 4, r.games - 1]
                .map(|g| format!("{:.1}", mb(r.memory[g.min(r.games - 1)].match_kb as f64)))
                .join("/"),
            mb(r.peak(|m| m.match_kb) as f64),
            mb(r.peak(|m| m.engine_kb) as f64),
            mb(engine_first),
            mb(engine_last),
            match phase.opponent {
                Opponent::GnuGo { .. } =>
                    format!("; GNU Go peak {:.1} MB", mb(r.peak(|m| m.gnugo_kb) as f64)),
                Opponent::Tengen => String::new(),
            }
        );
        // The match process's heap settles over its first games: one judge, with threads of
        // its own started at the first count and kept for the whole match, counts every game,
        // and the allocator's per-thread arenas keep what those threads freed (30 13×13
        // Japanese games against GNU Go: 23.3 MB after game 1, 25.3 MB after game 30; with
        // threads started for every count it went on growing, 18.3 MB to 28.8 MB; 10 19×19
        // games against GNU Go, the first counted after a few resignations: 14.8 MB, then
        // 23.1 MB from game 5 on). A match that kept something per game (records, engines'
        // output, processes) would go on growing: from a quarter of the games on, and after
        // the first count, it may grow by 4 MB at most, and it never passes 48 MB.
        let match_settled = r.memory[r.settled()].match_kb;
        assert!(
            match_last <= match_settled + 4 * 1024 && r.peak(|m| m.match_kb) <= 48 * 1024,
            "{}: the match process grew from {} kB (game 1) and {} kB (game {}) to {} kB, peak {} kB",
            phase.title(),
            match_first,
            match_settled,
            r.settled() + 1,
            match_last,
            r.peak(|m| m.match_kb)
        );
        assert!(
            engine_last <= engine_first * 1.5 + 16.0 * 1024.0,
            "{}: the engines' peak grew from {:.0} kB to {:.0} kB",
            phase.title(),
            engine_first,
            engine_last
        );
    }
    println!(
        "{} games in {:.0} s",
        total,
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_few_games_of_each_kind() {
    soak(&[
        Phase {
            games: 2,
            size: 9,
            rules: "chinese",
            opponent: Opponent::Tengen,
            resign: false,
        },
        Phase {
            games: 2,
            size: 9,
            rules: "japanese",
            opponent: Opponent::GnuGo { level: 0 },
            resign: true,
        },
    ]);
}

#[test]
#[ignore = "about fifty minutes: the soak"]
fn thousand_games() {
    let phase = |games, size, rules, opponent, resign| Phase {
        games,
        size,
        rules,
        opponent,
        resign,
    };
    let (gnugo0, gnugo1) = (Opponent::GnuGo { level: 0 }, Opponent::GnuGo { level: 1 });
    soak(&[
        phase(450, 9, "chinese", Opponent::Tengen, true),
        phase(100, 9, "japanese", Opponent::Tengen, false),
        phase(280, 9, "chinese", gnugo1, true),
        phase(50, 9, "japanese", gnugo0, false),
        phase(60, 13, "chinese", Opponent::Tengen, true),
        phase(30, 13, "japanese", gnugo0, true),
        phase(20, 19, "chinese", Opponent::Tengen, true),
        phase(10, 19, "chinese", gnugo0, true),
    ]);
}
