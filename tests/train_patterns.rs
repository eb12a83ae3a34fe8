//! `tengen train-patterns` as a user runs it: on a directory of records (the SGF fixtures of
//! gtp-scripts/, some of which the reader refuses), it reports held-out figures and writes a
//! weights file that tengen can read back; on TYGEM lines it trains, measures the TYGEM and the
//! SGF held-out sets, and measures a given weights file; a missing directory is an error
//! message, not a panic; a FIFO given as a TYGEM file and a link as `--out` are refused.

#[cfg(target_os = "linux")]
mod common;

use std::process::Command;
use tengen::board::{Board, Color};
use tengen::patterns::Patterns;

#[test]
fn trains_on_a_directory_and_writes_readable_weights() {
    let out = std::env::temp_dir().join(format!("tengen-weights-{}.txt", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "train-patterns",
            "--data",
            "gtp-scripts",
            "--hold-out-every",
            "2",
        ])
        .args(["--iterations", "3", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // chess.sgf (not Go), broken.sgf, occupied.sgf, offboard.sgf and big_board.sgf are refused
    // and counted.
    let records = stdout.lines().find(|l| l.starts_with("records:")).unwrap();
    let words: Vec<&str> = records.split_whitespace().collect();
    let at = words.iter().position(|w| w.starts_with("skipped")).unwrap();
    let skipped: usize = words[at - 1].parse().unwrap();
    assert!(skipped >= 4, "{}", records);
    let held_out = stdout.lines().find(|l| l.starts_with("held-out:")).unwrap();
    assert!(held_out.contains("top-1"), "{}", held_out);
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).ok();
    assert!(text.starts_with("# tengen move-pattern gammas"));
    let p = Patterns::parse(&text).unwrap();
    assert!(p.shape_count() > 0);
}

#[test]
fn a_missing_directory_is_reported() {
    let run = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["train-patterns", "--data", "no/such/directory"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(run.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("cannot read no/such/directory"),
        "{}",
        stderr
    );
}

/// `n` games of random legal moves on 19×19 as TYGEM lines (`ID<TAB>;B[pd];W[dp]…`).
fn random_tygem_lines(n: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut text = String::new();
    for g in 0..n {
        let mut b = Board::new(19).unwrap();
        let mut color = Color::Black;
        text.push_str(&format!("{}\t", 90_000_000 + g));
        for _ in 0..60 {
            let legal: Vec<_> = b
                .empty_points()
                .iter()
                .copied()
                .filter(|&p| b.is_legal(p, color))
                .collect();
            let p = legal[rng.usize(..legal.len())];
            let (x, y) = b.coords(p);
            let letter = |v: usize| char::from(b'a' + v as u8);
            let c = if color == Color::Black { 'B' } else { 'W' };
            text.push_str(&format!(";{}[{}{}]", c, letter(x), letter(y)));
            b.play(p, color);
            color = color.opponent();
        }
        text.push('\n');
    }
    text
}

#[test]
fn trains_on_tygem_lines_and_measures_both_held_out_sets() {
    let dir = std::env::temp_dir().join(format!("tengen-tygem-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("2009-01"), random_tygem_lines(30)).unwrap();
    let out = dir.join("weights.txt");
    let run = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["train-patterns", "--tygem"])
        .arg(&dir)
        .args(["--data", "gtp-scripts", "--hold-out-every", "3"])
        .args(["--position-stride", "2", "--iterations", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("records: 30 TYGEM games read, 0 lines refused"),
        "{}",
        stdout
    );
    let tygem = stdout
        .lines()
        .find(|l| l.starts_with("held-out TYGEM:"))
        .unwrap();
    assert!(tygem.contains("top-5"), "{}", tygem);
    assert!(stdout
        .lines()
        .any(|l| l.starts_with("held-out SGF records of gtp-scripts:")));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("--tygem"), "the header names the command");
    assert!(Patterns::parse(&text).is_ok());

    // The weights just written, measured on the same held-out sets: the same figures.
    let measured = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["train-patterns", "--tygem"])
        .arg(&dir)
        .args([
            "--data",
            "gtp-scripts",
            "--hold-out-every",
            "3",
            "--weights",
        ])
        .arg(&out)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let again = String::from_utf8_lossy(&measured.stdout);
    assert!(measured.status.success());
    assert!(again.contains("weights measured"), "{}", again);
    let figures = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("held-out"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(figures(&stdout), figures(&again));
}

/// A TYGEM "file" that is a FIFO (no writer: reading it would block for ever) is refused, and
/// a `--out` that is a symbolic link is refused before any training, its target kept.
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_and_a_link_are_refused() {
    let dir = std::env::temp_dir().join(format!("tengen-train-refusals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("2009-01");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let target = dir.join("weights.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let deadline = std::time::Duration::from_secs(20);

    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .args(["train-patterns", "--data", "gtp-scripts", "--tygem"])
        .arg(&fifo);
    let run = common::run_bounded(&mut command, deadline, 512.0);
    assert!(run.code.is_some_and(|c| c != 0), "{:?}", run);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);

    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .args(["train-patterns", "--data", "gtp-scripts", "--out"])
        .arg(&link);
    let run = common::run_bounded(&mut command, deadline, 512.0);
    assert!(run.code.is_some_and(|c| c != 0), "{:?}", run);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    let _ = std::fs::remove_dir_all(&dir);
}
