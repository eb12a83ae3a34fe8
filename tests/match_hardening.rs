//! `tengen match` under failing engines and a hostile environment: an engine that floods its
//! output forfeits with bounded memory; an engine that cannot start in a later game forfeits
//! and a record that cannot be written is reported, the match going on to its summary; records
//! already in `--sgf-dir` are never replaced; SIGINT stops a hung engine, keeps the finished
//! games and prints the summary; a move limit of zero is refused before any game; a flood of
//! long stray lines is logged as bounded prefixes; a move longer than the time left on a
//! Fischer clock loses on time, and an increment of 0 is a sudden-death clock; control bytes an
//! engine or a referee sends are escaped wherever the match shows or records them; no process
//! an engine started (behind a wrapper script, or left behind its `quit`) outlives its game.
//! The engines are small sh scripts written to a temporary directory.

mod common;

use common::engines::{script_engine, temp_dir};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tengen::rules::Rules;

/// An sh engine: `prelude` runs at start-up, then every command gets an empty success except
/// `genmove`, which runs `genmove` (with `$id` set).
fn engine(dir: &Path, name: &str, prelude: &str, genmove: &str) -> String {
    script_engine(dir, name, prelude, &format!("genmove) {};;", genmove))
}

const PASS: &str = "printf '=%s pass\\n\\n' \"$id\"";

fn no_sh() -> bool {
    if Path::new("/bin/sh").exists() {
        return false;
    }
    eprintln!("skipped: no /bin/sh for the fake engines");
    true
}

/// Sends SIGINT to a running match (once its hung engine's exec has had time to finish) and
/// waits up to 30 s for it to end (killed after that): whether it ended, and its output.
fn interrupt(mut child: std::process::Child) -> (bool, Output) {
    std::thread::sleep(Duration::from_millis(300));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let finished = child.try_wait().unwrap().is_some();
    if !finished {
        let _ = child.kill();
    }
    (finished, child.wait_with_output().unwrap())
}

fn run_match(black: &str, white: &str, games: usize, sgf_dir: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .args(["match", "--black", black, "--white", white])
        .args(["--games", &games.to_string(), "--size", "5"])
        .args(["--move-timeout", "20"]);
    if let Some(dir) = sgf_dir {
        command.arg("--sgf-dir").arg(dir);
    }
    command.output().unwrap()
}

fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game ")).collect()
}

#[test]
fn an_engine_flooding_its_output_forfeits() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-flood");
    // A 3 MiB line (past the 1 MiB line cap), then 8 MiB of short lines (past the response cap).
    let long_line = engine(
        &dir,
        "long-line",
        "",
        "printf '=%s ' \"$id\"; head -c 3145728 /dev/zero | tr '\\000' a; printf '\\n\\n'",
    );
    let many_lines = engine(
        &dir,
        "many-lines",
        "",
        "printf '=%s pass\\n' \"$id\"; yes a | head -c 8388608; printf '\\n'",
    );
    let out = run_match(&long_line, &many_lines, 2, None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let games = game_lines(&stdout);
    assert_eq!(games.len(), 2, "{}", stdout);
    assert!(
        games[0].contains("W+F B wins (black flooded its output (a line longer than"),
        "{}",
        games[0]
    );
    assert!(
        games[1].contains("W+F A wins (black flooded its output (more than"),
        "{}",
        games[1]
    );
    assert!(stdout.contains("summary: A 1 wins, B 1 wins"), "{}", stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_start_or_an_unwritable_record_does_not_end_the_match() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-failures");
    let sgf_dir = dir.join("records");
    // A runs once, then is gone: games 2 and 3 cannot start it.
    let vanishing = engine(&dir, "vanishing", "rm -f \"$0\"", PASS);
    // B's first move replaces the record directory with a file: game 1 cannot be written.
    let spoiler = engine(
        &dir,
        "spoiler",
        "",
        &format!(
            "rm -rf '{0}'; : > '{0}'; {1}",
            sgf_dir.to_string_lossy(),
            PASS
        ),
    );
    let out = run_match(&vanishing, &spoiler, 3, Some(&sgf_dir));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    let games = game_lines(&stdout);
    assert_eq!(games.len(), 3, "{}\n{}", stdout, stderr);
    assert!(games[0].contains("two passes"), "{}", games[0]);
    assert!(
        games[1].contains("B+F B wins (white") && games[1].contains("could not start"),
        "{}",
        games[1]
    );
    assert!(
        games[2].contains("W+F B wins (black") && games[2].contains("could not start"),
        "{}",
        games[2]
    );
    assert!(
        stderr.contains("game 1: the record was not written"),
        "{}",
        stderr
    );
    assert!(stdout.contains("summary: A 0 wins, B 3 wins"), "{}", stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_already_in_the_directory_are_never_replaced() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-records");
    let sgf_dir = dir.join("records");
    std::fs::create_dir_all(&sgf_dir).unwrap();
    std::fs::write(sgf_dir.join("game-001.sgf"), "old").unwrap();
    std::fs::write(sgf_dir.join("game-002.sgf"), "older").unwrap();
    let passer = engine(&dir, "passer", "", PASS);
    let out = run_match(&passer, &passer, 2, Some(&sgf_dir));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |n: usize| std::fs::read_to_string(sgf_dir.join(format!("game-{:03}.sgf", n)));
    assert_eq!(read(1).unwrap(), "old");
    assert_eq!(read(2).unwrap(), "older");
    for n in [3, 4] {
        let sgf = read(n).unwrap();
        let game = tengen::sgf::load(&sgf, Rules::chinese(), None).unwrap();
        assert!(game.is_over(), "{}", sgf);
        assert!(sgf.contains("RE["), "{}", sgf);
    }
    let mut names: Vec<String> = std::fs::read_dir(&sgf_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // No temporary file is left behind.
    assert_eq!(
        names,
        [
            "game-001.sgf",
            "game-002.sgf",
            "game-003.sgf",
            "game-004.sgf"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigint_stops_a_hung_engine_and_prints_the_summary() {
    if no_sh() || !Path::new("/proc/self").exists() {
        return;
    }
    let dir = temp_dir("match-sigint");
    let sgf_dir = dir.join("records");
    let pid_file = dir.join("hung.pid");
    // A plays its first game, then hangs in genmove from its second start on.
    let hanging = engine(
        &dir,
        "hanging",
        &format!(
            "starts=\"$(cat '{0}/starts' 2>/dev/null || echo 0)\"; starts=$((starts + 1)); \
             echo \"$starts\" > '{0}/starts'",
            dir.to_string_lossy()
        ),
        &format!(
            "if [ \"$starts\" -ge 2 ]; then echo $$ > '{}'; exec sleep 600; fi; {}",
            pid_file.to_string_lossy(),
            PASS
        ),
    );
    let passer = engine(&dir, "passer", "", PASS);
    let child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &hanging, "--white", &passer])
        .args(["--games", "3", "--size", "5", "--move-timeout", "300"])
        .arg("--sgf-dir")
        .arg(&sgf_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hung_pid = {
        let start = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(&pid_file) {
                if let Ok(pid) = text.trim().parse::<u32>() {
                    break pid;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the engine never hung"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let (finished, out) = interrupt(child);
    let hung_alive = Path::new(&format!("/proc/{}", hung_pid)).exists();
    if hung_alive {
        let _ = Command::new("kill")
            .args(["-KILL", &hung_pid.to_string()])
            .status();
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(finished, "the match did not stop\n{}\n{}", stdout, stderr);
    assert_eq!(out.status.code(), Some(130), "{}\n{}", stdout, stderr);
    assert!(!hung_alive, "the hung engine was left running");
    let games = game_lines(&stdout);
    assert_eq!(games.len(), 2, "{}", stdout);
    assert!(games[0].contains("two passes"), "{}", games[0]);
    assert!(
        games[1].starts_with("game 2: interrupted after 1 move, not counted"),
        "{}",
        games[1]
    );
    assert!(stdout.contains("summary: A 0 wins, B 1 wins"), "{}", stdout);
    let first = std::fs::read_to_string(sgf_dir.join("game-001.sgf")).unwrap();
    assert!(first.contains("RE["), "{}", first);
    let second = std::fs::read_to_string(sgf_dir.join("game-002.sgf")).unwrap();
    assert!(
        !second.contains("RE[") && second.contains("interrupted"),
        "{}",
        second
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_limit_of_zero_is_refused() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-max-moves");
    let passer = engine(&dir, "passer", "", PASS);
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &passer, "--white", &passer])
        .args(["--games", "1", "--size", "5", "--max-moves", "0"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Refused before any game: a limit of no moves would count every game from the empty board.
    assert!(!out.status.success(), "{}\n{}", stdout, stderr);
    assert!(game_lines(&stdout).is_empty(), "{}", stdout);
    assert!(stderr.contains("--max-moves"), "{}", stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fischer_clock_overspent_loses_on_time() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-fischer");
    // Black answers at once down the A file; White takes half a second a move down the E file.
    let quick = engine(
        &dir,
        "quick",
        "n=0",
        "n=$((n+1)); printf '=%s A%s\\n\\n' \"$id\" \"$n\"",
    );
    let slow = engine(
        &dir,
        "slow",
        "n=0",
        "sleep 0.5; n=$((n+1)); printf '=%s E%s\\n\\n' \"$id\" \"$n\"",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &quick, "--white", &slow])
        .args(["--games", "1", "--size", "5", "--fischer", "1", "0.1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    // White's clock: 1 s, then 0.5 + 0.1 = 0.6 s, then 0.2 s: its third move oversteps it.
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), 1, "{}", stdout);
    assert!(lines[0].contains("B+T A wins"), "{}", stdout);
    assert!(lines[0].contains("5 moves"), "{}", stdout);
    assert!(
        stdout.contains("Fischer clock: losses on time A 0, B 1"),
        "{}",
        stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stray_lines_are_logged_as_a_bounded_prefix() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-stray");
    // Ten stray lines of 100,000 bytes at start-up (below the 1 MiB line cap), then a passer.
    let chatty = engine(
        &dir,
        "chatty",
        "for i in 1 2 3 4 5 6 7 8 9 10; do head -c 100000 /dev/zero | tr '\\000' x; echo; done",
        PASS,
    );
    let passer = engine(&dir, "passer", "", PASS);
    let out = run_match(&chatty, &passer, 1, None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(game_lines(&stdout)[0].contains("two passes"), "{}", stdout);
    let stray: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("stray output line"))
        .collect();
    assert_eq!(stray.len(), 10, "{}", &stderr[..stderr.len().min(2000)]);
    for line in &stray {
        assert!(
            line.len() < 400,
            "a stray line logged in full: {} bytes",
            line.len()
        );
        assert!(line.contains("100000 bytes"), "{}", line);
        assert!(line.contains(&"x".repeat(200)), "{}", line);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The control characters in `bytes` (read as UTF-8) other than the newline and the tab that
/// a log or a record may hold: a NUL, an escape sequence's ESC, a BEL, a C1 control.
fn raw_controls(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect()
}

#[test]
fn control_bytes_from_engines_and_referees_are_shown_escaped() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-control-bytes");
    let sgf_dir = dir.join("records");
    // A stray line at start-up, a name of 200,000 bytes behind a colour escape, a NUL and a BEL,
    // a version that retitles a terminal; it passes as Black and answers with a vertex followed
    // by a screen-clearing sequence and a NUL as White.
    let hostile = dir.join("hostile");
    std::fs::write(
        &hostile,
        "#!/bin/sh\n\
         printf 'stray \\033[2J\\000 line\\n'\n\
         while read -r id cmd rest; do\n  case \"$cmd\" in\n    \
         name) printf '=%s evil\\033[31m\\000\\007' \"$id\"; \
         head -c 200000 /dev/zero | tr '\\000' x; printf '\\n\\n';;\n    \
         version) printf '=%s 1\\033]0;owned\\007\\n\\n' \"$id\";;\n    \
         genmove) if [ \"$rest\" = b ]; then printf '=%s pass\\n\\n' \"$id\"; \
         else printf '=%s D4\\033[2J\\000\\n\\n' \"$id\"; fi;;\n    \
         quit) printf '=%s\\n\\n' \"$id\"; exit 0;;\n    \
         *) printf '=%s\\n\\n' \"$id\";;\n  esac\ndone\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&hostile)
        .status()
        .unwrap();
    let hostile = hostile.to_string_lossy().into_owned();
    let passer = engine(&dir, "passer", "", PASS);
    // A referee whose count clears the screen and retitles the terminal.
    let referee = dir.join("referee");
    std::fs::write(
        &referee,
        "#!/bin/sh\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    \
         final_score) printf '=%s W+\\033[2J\\033]0;owned\\007 7.5\\n\\n' \"$id\";;\n    \
         quit) printf '=%s\\n\\n' \"$id\"; exit 0;;\n    \
         *) printf '=%s\\n\\n' \"$id\";;\n  esac\ndone\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&referee)
        .status()
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &hostile, "--white", &passer])
        .args(["--games", "2", "--size", "5", "--move-timeout", "20"])
        .arg("--referee")
        .arg(&referee)
        .arg("--sgf-dir")
        .arg(&sgf_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{:?}", stdout, stderr);
    assert_eq!(raw_controls(&out.stdout), [], "{:?}", stdout);
    assert_eq!(raw_controls(&out.stderr), [], "{:?}", stderr);
    let games = game_lines(&stdout);
    assert_eq!(games.len(), 2, "{:?}", stdout);
    // Game 1: two passes, the referee's count refused and quoted escaped.
    assert!(
        games[0].contains(r"final_score answered 'W+\u{1b}[2J\u{1b}]0;owned\u{7} 7.5'"),
        "{}",
        games[0]
    );
    // Game 2: the answer is not a move, and the forfeit quotes it escaped.
    assert!(
        games[1]
            .contains(r"B+F B wins (white answered genmove with 'D4\u{1b}[2J\u{0}', not a move"),
        "{}",
        games[1]
    );
    assert!(
        stderr.contains(r"stray output line: stray \u{1b}[2J\u{0} line"),
        "{}",
        stderr
    );
    for n in [1, 2] {
        let sgf = std::fs::read(sgf_dir.join(format!("game-{:03}.sgf", n))).unwrap();
        let text = String::from_utf8_lossy(&sgf);
        assert_eq!(raw_controls(&sgf), [], "{:?}", text);
        // The name is quoted as a bounded prefix, not 200,000 bytes in every record.
        assert!(sgf.len() < 4000, "a record of {} bytes", sgf.len());
        // SGF doubles the backslash of the escapes.
        assert!(text.contains(r"evil\\u{1b}[31m\\u{0}\\u{7}xxx"), "{}", text);
        assert!(text.contains(r"1\\u{1b}\]0;owned\\u{7}"), "{}", text);
        if n == 2 {
            assert!(text.contains(r"D4\\u{1b}[2J\\u{0}"), "{}", text);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` is still running (a zombie, killed and awaiting its reaper, is not).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid)) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rfind(')')
            .is_some_and(|i| !stat[i + 1..].trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits a moment (the kill and the reaping) for every process of `pids` to end; kills those
/// left and returns them.
fn left_running(pids: &[u32]) -> Vec<u32> {
    let start = Instant::now();
    while pids.iter().any(|&p| running(p)) && start.elapsed() < Duration::from_millis(500) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| running(p)).collect();
    for p in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &p.to_string()])
            .status();
    }
    left
}

/// The process id a fake engine wrote to `path`, waiting up to 60 s for it.
fn read_pid(path: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Ok(pid) = std::fs::read_to_string(path)
            .unwrap_or_default()
            .trim()
            .parse()
        {
            return pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An engine behind a wrapper script that runs it without `exec` (and records both process
/// ids): the engine hangs in `genmove`, writing its id to `hung.pid` first.
fn wrapped_hanging_engine(dir: &Path) -> String {
    let hung = dir.join("hung.pid");
    let real = engine(
        dir,
        "real-engine",
        "",
        &format!("echo $$ > '{}'; exec sleep 600", hung.to_string_lossy()),
    );
    let wrapper = dir.join("wrapper");
    // The command after the engine keeps the shell from replacing itself with it.
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho $$ > '{}'\n'{}'\nexit $?\n",
            dir.join("wrapper.pid").to_string_lossy(),
            real
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&wrapper)
        .status()
        .unwrap();
    wrapper.to_string_lossy().into_owned()
}

#[test]
fn a_forfeit_and_a_quit_leave_no_process_of_the_engines_behind() {
    if no_sh() || !Path::new("/proc/self").exists() {
        return;
    }
    let dir = temp_dir("match-process-group");
    let wrapper = wrapped_hanging_engine(&dir);
    // White answers `quit` cleanly but leaves a child behind it.
    let spawner = engine(
        &dir,
        "spawner",
        &format!(
            "sleep 600 & echo $! > '{}'",
            dir.join("background.pid").to_string_lossy()
        ),
        PASS,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &wrapper, "--white", &spawner])
        .args(["--games", "1", "--size", "5", "--move-timeout", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let wrapper_pid = read_pid(&dir.join("wrapper.pid"));
    let hung_pid = read_pid(&dir.join("hung.pid"));
    let background_pid = read_pid(&dir.join("background.pid"));
    let left = left_running(&[wrapper_pid, hung_pid, background_pid]);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert_ne!(wrapper_pid, hung_pid, "the wrapper replaced itself");
    assert!(
        game_lines(&stdout)[0].contains("W+T B wins (black gave no move within 2.0 s"),
        "{}",
        stdout
    );
    assert_eq!(
        left, [0u32; 0],
        "left running (wrapper {}, hung engine {}, white's child {})",
        wrapper_pid, hung_pid, background_pid
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigint_leaves_no_process_of_a_wrapped_engine_behind() {
    if no_sh() || !Path::new("/proc/self").exists() {
        return;
    }
    let dir = temp_dir("match-sigint-wrapper");
    let wrapper = wrapped_hanging_engine(&dir);
    let passer = engine(&dir, "passer", "", PASS);
    let child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &wrapper, "--white", &passer])
        .args(["--games", "1", "--size", "5", "--move-timeout", "300"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hung_pid = read_pid(&dir.join("hung.pid"));
    let wrapper_pid = read_pid(&dir.join("wrapper.pid"));
    let (finished, out) = interrupt(child);
    let left = left_running(&[wrapper_pid, hung_pid]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(finished, "the match did not stop\n{}", stdout);
    assert_eq!(out.status.code(), Some(130), "{}", stdout);
    assert_ne!(wrapper_pid, hung_pid, "the wrapper replaced itself");
    assert_eq!(
        left, [0u32; 0],
        "left running (wrapper {}, hung engine {})",
        wrapper_pid, hung_pid
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fischer_increment_of_zero_is_a_sudden_death_clock() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("match-sudden-death");
    let passer = engine(&dir, "passer", "", PASS);
    let run = |main: &str, increment: &str| {
        Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["match", "--black", &passer, "--white", &passer])
            .args(["--games", "1", "--size", "5"])
            .args(["--fischer", main, increment])
            .output()
            .unwrap()
    };
    let out = run("5", "0");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(
        stdout.contains("Fischer clock of 5 s and 0 s a move"),
        "{}",
        stdout
    );
    assert!(game_lines(&stdout)[0].contains("two passes"), "{}", stdout);
    assert!(
        stdout.contains("Fischer clock: losses on time A 0, B 0"),
        "{}",
        stdout
    );
    // No main time at all would lose every first move on time: refused before any game.
    let out = run("0", "5");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}\n{}", stdout, stderr);
    assert!(game_lines(&stdout).is_empty(), "{}", stdout);
    assert!(stderr.contains("--fischer"), "{}", stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
