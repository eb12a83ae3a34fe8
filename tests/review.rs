//! `tengen review` end to end: a short 9×9 handicap record with a variation and passes is
//! reviewed at a low playout budget through the release binary; the annotated record must read
//! back with tengen's own SGF reader as the same game, carry a comment with Black's win rate
//! and the best move on every move of the main line, list the swings in the root comment, and
//! keep the record's own properties and variation. A record with an illegal move is refused
//! with a message naming the move, and nothing is written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tengen::rules::Rules;
use tengen::sgf;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/review")
        .join(name)
}

fn review(input: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("review")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--threads", "1", "--seed", "1", "--playouts", "60"])
        .output()
        .expect("run tengen review")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_record_is_annotated_move_by_move() {
    let input = fixture("handicap9.sgf");
    let out = scratch("reviewed.sgf");
    let run = review(&input, &out);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{}", stderr);
    assert!(run.stdout.is_empty(), "stdout is not used");
    assert!(stderr.contains("Biggest swings"), "{}", stderr);

    let original = std::fs::read_to_string(&input).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    // Tengen's own reader reads it back as the same game.
    let a = sgf::load(&original, Rules::chinese(), None).unwrap();
    let b = sgf::load(&text, Rules::chinese(), None).unwrap();
    assert_eq!(a.board(), b.board());
    assert_eq!(a.move_number(), b.move_number());
    assert_eq!((b.handicap().len(), b.komi()), (2, a.komi()));

    let tree = sgf::tree(&text).unwrap();
    let root = &tree.nodes[0];
    for (id, value) in [("PB", "Black"), ("DT", "2026-12-01"), ("RU", "Japanese")] {
        assert_eq!(root.get(id).unwrap(), [value]);
    }
    let comment = &root.get("C").unwrap()[0];
    assert!(comment.starts_with("A short 9x9"), "{}", comment);
    assert!(comment.contains("Win rates are Black's"), "{}", comment);
    assert!(comment.contains("Biggest swings (win rate the mover lost):\n1. move "));
    let line = tree.main_line();
    assert_eq!(line.len(), 21);
    let win_rate = regex::Regex::new(r"Black's win rate \d+\.\d%, score [BW]\+\d+\.\d").unwrap();
    let best = regex::Regex::new(r"\nBest move: ([A-HJ]\d|pass)").unwrap();
    for (k, &n) in line[1..].iter().enumerate() {
        let node = &tree.nodes[n];
        let c = &node.get("C").unwrap()[0];
        assert!(c.contains(&format!("move {} (", k + 1)), "{}", c);
        assert!(win_rate.is_match(c) && best.is_match(c), "{}", c);
        // Where the search preferred another move, it is marked, and its line branches off
        // beside the move played.
        if !c.contains("(this move)") {
            let parent = line[k];
            assert!(tree.nodes[parent].children.len() >= 2, "{}", c);
        }
    }
    // The record's own variation stays, and the game's comment on its move.
    assert!(text.contains("C[Another idea]"));
    assert!(tree.nodes[line[11]].get("C").unwrap()[0].starts_with("The game.\n\ntengen"));
    let _ = std::fs::remove_file(&out);
}

#[test]
fn broken_records_are_refused() {
    let out = scratch("refused.sgf");
    let _ = std::fs::remove_file(&out);
    let run = review(&fixture("illegal.sgf"), &out);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{}", stderr);
    assert!(stderr.contains("move 3 (B ee) is illegal"), "{}", stderr);
    assert!(!out.exists());
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts/broken.sgf");
    let run = review(&broken, &out);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("tengen review: "));
    assert!(!out.exists());
}
