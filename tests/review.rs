//! `tengen review` end to end: a short 9×9 handicap record with a variation and passes is
//! reviewed at a low playout budget through the release binary; the annotated record must read
//! back with tengen's own SGF reader as the same game, carry a comment with Black's win rate
//! and the best move on every move of the main line, list the swings in the root comment, and
//! keep the record's own properties and variation. A record with an illegal move is refused
//! with a message naming the move, and nothing is written.

#[cfg(target_os = "linux")]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
#[cfg(target_os = "linux")]
use std::time::Duration;
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

/// A record or output path that cannot be, handled before any search: the bound on each run,
/// far below what a search of the record at `--playouts 1000000` (minutes) would take.
#[cfg(target_os = "linux")]
const QUICK: Duration = Duration::from_secs(20);

/// The resident memory no refusal may need: the file-size cap and the node cap keep what is
/// read to tens of MB (the old reader took GBs of `/dev/zero` or of a record's variations).
#[cfg(target_os = "linux")]
const REFUSAL_MB: f64 = 150.0;

/// `tengen review INPUT --out OUT` with `args`, run to its end under a deadline and a memory
/// bound.
#[cfg(target_os = "linux")]
fn review_bounded(input: &Path, out: &Path, args: &[&str], deadline: Duration) -> common::Ended {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .arg("review")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--threads", "1", "--seed", "1"])
        .args(args);
    common::run_bounded(&mut command, deadline, 1024.0)
}

#[cfg(target_os = "linux")]
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-review-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(target_os = "linux")]
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A FIFO (which no writer opens: reading it would block for ever), `/dev/zero` (endless), a
/// file over the 16 MiB cap and a record of a million variations (8 MB: over the node cap)
/// are refused at once, in bounded memory, and nothing is written.
#[cfg(target_os = "linux")]
#[test]
fn records_that_cannot_be_read_are_refused_at_once() {
    let dir = fresh_dir("inputs");
    let out = dir.join("out.sgf");
    let fifo = dir.join("fifo.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let big = dir.join("big.sgf");
    let mut text = String::from("(;SZ[9]C[");
    text.push_str(&"x".repeat(17 * 1024 * 1024));
    text.push_str("])");
    std::fs::write(&big, text).unwrap();
    let wide = dir.join("wide.sgf");
    let mut text = String::from("(;SZ[9]");
    text.push_str(&"(;B[aa])".repeat(1_000_000));
    text.push(')');
    std::fs::write(&wide, text).unwrap();
    for (input, message) in [
        (fifo.as_path(), "not a regular file"),
        (Path::new("/dev/zero"), "not a regular file"),
        (big.as_path(), "larger than 16777216 bytes"),
        (
            wide.as_path(),
            "more than 200001 nodes (variations included)",
        ),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
        command
            .arg("review")
            .arg(input)
            .arg("--out")
            .arg(&out)
            .args(["--threads", "1", "--playouts", "1"]);
        let run = common::run_bounded(&mut command, QUICK, REFUSAL_MB);
        assert_eq!(run.code, Some(1), "{:?}: {}", input, run.stderr);
        assert!(run.stderr.contains(message), "{:?}: {}", input, run.stderr);
        assert!(
            run.peak_mb < REFUSAL_MB,
            "{:?}: {:.0} MB",
            input,
            run.peak_mb
        );
        assert!(!out.exists(), "{:?}", input);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output that cannot be written is refused before the first search, at a budget that would
/// take minutes to search: a symbolic link (its target stays as it was), a directory, a file
/// in a missing directory, a device.
#[cfg(target_os = "linux")]
#[test]
fn an_output_that_cannot_be_written_is_refused_before_searching() {
    let dir = fresh_dir("outputs");
    let target = dir.join("target.sgf");
    std::fs::write(&target, "keep me").unwrap();
    let link = dir.join("link.sgf");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let missing = dir.join("missing/out.sgf");
    for out in [&link, &dir, &missing, Path::new("/dev/full")] {
        let run = review_bounded(
            &fixture("handicap9.sgf"),
            out,
            &["--playouts", "1000000"],
            QUICK,
        );
        assert_eq!(run.code, Some(1), "{:?}: {}", out, run.stderr);
        assert!(
            run.stderr.contains("tengen review: cannot write"),
            "{:?}: {}",
            out,
            run.stderr
        );
        assert!(!run.stderr.contains("review: position"), "{}", run.stderr);
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(names_in(&dir), ["link.sgf", "target.sgf"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The record itself as the output: replaced whole by the reviewed record, not rewritten in
/// place (a reader that opened it before still reads the original), no temporary file left.
#[cfg(target_os = "linux")]
#[test]
fn the_record_itself_is_replaced_whole() {
    use std::io::Read;
    let dir = fresh_dir("same");
    let record = dir.join("game.sgf");
    let original = std::fs::read(fixture("handicap9.sgf")).unwrap();
    std::fs::write(&record, &original).unwrap();
    let mut opened = std::fs::File::open(&record).unwrap();
    let run = review_bounded(
        &record,
        &record,
        &["--playouts", "20"],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("tengen: move 20 ("), "{}", text);
    let a = sgf::load(&String::from_utf8_lossy(&original), Rules::chinese(), None).unwrap();
    let b = sgf::load(&text, Rules::chinese(), None).unwrap();
    assert_eq!((a.board(), a.move_number()), (b.board(), b.move_number()));
    let mut before = Vec::new();
    opened.read_to_end(&mut before).unwrap();
    assert_eq!(before, original, "the record was rewritten in place");
    assert_eq!(names_in(&dir), ["game.sgf"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A write that fails half-way (here the file-size limit of `ulimit -f 1`, under which a write
/// past 512 bytes fails, as on a full disk) loses nothing: exit status 1 with a message, the
/// record the review was to replace byte for byte as it was, no temporary file left.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_leaves_the_record_as_it_was() {
    let dir = fresh_dir("full");
    let record = dir.join("game.sgf");
    let original = std::fs::read(fixture("handicap9.sgf")).unwrap();
    std::fs::write(&record, &original).unwrap();
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -f 1; exec \"$0\" review \"$1\" --out \"$1\" --playouts 1 --threads 1")
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .arg(&record);
    let run = common::run_bounded(&mut command, Duration::from_secs(120), 1024.0);
    assert_eq!((run.code, run.signal), (Some(1), None), "{}", run.stderr);
    assert!(
        run.stderr.contains("tengen review: cannot write"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&record).unwrap(), original);
    assert_eq!(names_in(&dir), ["game.sgf"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The work of a review grows in proportion to the record: each position is reached by one
/// more move, not by replaying the record from its start (which made 4,000 passes take some 3.7
/// times the CPU time of 2,000). Checked as a ratio of CPU times, which the machine's load
/// moves far less than it moves either time.
#[cfg(target_os = "linux")]
#[test]
fn the_work_is_linear_in_the_record() {
    let dir = fresh_dir("linear");
    let cpu = |passes: usize| {
        let record = dir.join(format!("passes-{}.sgf", passes));
        let mut text = String::from("(;GM[1]SZ[9]KM[7]");
        for i in 0..passes {
            text.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
        }
        text.push(')');
        std::fs::write(&record, text).unwrap();
        let out = dir.join("out.sgf");
        let run = review_bounded(
            &record,
            &out,
            &["--playouts", "1"],
            Duration::from_secs(600),
        );
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run.cpu_seconds
    };
    let (short, long) = (cpu(2_000), cpu(4_000));
    println!(
        "CPU time: {:.2} s for 2,000 passes, {:.2} s for 4,000",
        short, long
    );
    assert!(
        long < 2.8 * short,
        "twice the record took {:.1} times the CPU time ({:.2} s, {:.2} s)",
        long / short,
        short,
        long
    );
    let _ = std::fs::remove_dir_all(&dir);
}
