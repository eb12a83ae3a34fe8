//! `tengen train-patterns` as a user runs it: on a directory of records (the SGF fixtures of
//! gtp-scripts/, some of which the reader refuses), it reports held-out figures and writes a
//! weights file that tengen can read back; a missing directory is an error message, not a panic.

use std::process::Command;
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
