//! `tengen match` with pairs, the sequential test and handicap, with real tengen engines on
//! small boards: the SPRT stops early for H1 between a searching engine and one of a single
//! playout, and for H0 the other way round; both games of a pair open alike with the colours
//! swapped (built-in openings, and a file of openings used in order); a handicap game records
//! `HA`/`AB` and White moves first, colours alternating or A always Black; an engine placing
//! other handicap stones, or refusing them, stops the match at its first game; games played side
//! by side (`--concurrency`) are paired as they finish, and an engine that cannot start in the
//! first of them stops the match; bad flags are refused with a message before any game.

mod common;

use common::engines::{script_engine, temp_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tengen(playouts: u32) -> String {
    format!(
        "{} --threads 1 --playouts {}",
        env!("CARGO_BIN_EXE_tengen"),
        playouts
    )
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("match")
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The moves of a record as `B[xy]`/`W[xy]`, in order.
fn moves(sgf: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in sgf.split(';').skip(2) {
        let part = part.trim_start();
        if part.starts_with("B[") || part.starts_with("W[") {
            out.push(part[..part.find(']').unwrap() + 1].to_string());
        }
    }
    out
}

fn record(dir: &Path, n: usize) -> String {
    std::fs::read_to_string(dir.join(format!("game-{:03}.sgf", n))).unwrap()
}

/// The opening stated in a record's comment: `opening B E4, W D5`.
fn opening_of(sgf: &str) -> String {
    let start = sgf.find(", opening ").expect("an opening in the comment") + 10;
    sgf[start..start + sgf[start..].find(':').unwrap()].to_string()
}

/// A searching engine against one of a single playout on 7×7 under `--sprt 0 400`, with
/// `extra` flags, records in `DIR/records`: the test's directory, the records' and the output.
fn strong_against_weak(name: &str, extra: &[&str]) -> (PathBuf, PathBuf, Output) {
    let dir = temp_dir(name);
    let records = dir.join("records");
    let (strong, weak) = (tengen(200), tengen(1));
    let flags = [
        "--black",
        &strong,
        "--white",
        &weak,
        "--size",
        "7",
        "--sprt",
        "0",
        "400",
        "--sgf-dir",
        records.to_str().unwrap(),
    ];
    let out = run(&[&flags[..], extra].concat());
    (dir, records, out)
}

#[test]
fn the_sprt_accepts_h1_early_with_pairs_of_swapped_colours() {
    let (dir, records, out) = strong_against_weak("sprt-h1", &["--games", "30"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(
        stdout.contains("openings of 2 moves generated from seed 1"),
        "{}",
        stdout
    );
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    // Five pairs of wins reach the bound; a loss or two may cost a few more.
    assert!(games.len() >= 10 && games.len() < 30, "{}", stdout);
    assert!(games.len().is_multiple_of(2), "{}", stdout);
    assert!(stdout.contains(&format!(
        "match stopped by the SPRT after {} games",
        games.len()
    )));
    assert!(
        stdout.contains("H1 accepted (Elo 400 rather than 0)"),
        "{}",
        stdout
    );
    let pairs: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pair ")).collect();
    assert_eq!(pairs.len(), games.len() / 2, "{}", stdout);
    assert!(pairs[0].starts_with("pair 1 (games 1-2): A "), "{}", stdout);
    assert!(pairs[0].contains("; LLR "), "{}", stdout);
    assert!(stdout.contains("Elo of A over B "), "{}", stdout);
    let mut openings = Vec::new();
    for k in 0..games.len() / 2 {
        let (first, second) = (record(&records, 2 * k + 1), record(&records, 2 * k + 2));
        // Same opening, A's colour swapped.
        let opening = opening_of(&first);
        assert_eq!(opening, opening_of(&second));
        assert_eq!(
            moves(&first)[..2],
            moves(&second)[..2],
            "{}\n{}",
            first,
            second
        );
        assert!(games[2 * k].contains("A black") && games[2 * k + 1].contains("A white"));
        openings.push(opening);
    }
    openings.dedup();
    assert!(
        openings.len() > 1,
        "every pair opened alike: {:?}",
        openings
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_accepts_h0_with_openings_from_a_file() {
    let dir = temp_dir("sprt-h0");
    let book = dir.join("openings.txt");
    std::fs::write(&book, "# 7x7 openings\nD4 C5\nC3 E5 E3\n").unwrap();
    let records = dir.join("records");
    let out = run(&[
        "--black",
        &tengen(1),
        "--white",
        &tengen(200),
        "--size",
        "7",
        "--sprt",
        "0",
        "400",
        "--games",
        "20",
        "--openings",
        book.to_str().unwrap(),
        "--sgf-dir",
        records.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(stdout.contains("2 openings from"), "{}", stdout);
    assert!(
        stdout.contains("H0 accepted (Elo 0 rather than 400)"),
        "{}",
        stdout
    );
    let games = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert!((4..20).contains(&games), "{}", stdout);
    // Pairs take the file's openings in order, round again.
    let expected = ["B D4, W C5", "B C3, W E5, B E3"];
    for n in 1..=games {
        let sgf = record(&records, n);
        assert_eq!(opening_of(&sgf), expected[(n - 1) / 2 % 2], "{}", sgf);
    }
    let first = moves(&record(&records, 1));
    assert_eq!(first[..2], ["B[dd]", "W[cc]"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_played_side_by_side_are_paired_as_they_finish() {
    let (dir, records, out) =
        strong_against_weak("sprt-concurrency", &["--games", "40", "--concurrency", "3"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(
        stdout.contains("H1 accepted (Elo 400 rather than 0)"),
        "{}",
        stdout
    );
    // Finished games, by number, in the order they finished; the games the decision stopped
    // are reported as not counted.
    let counted: Vec<usize> = stdout
        .lines()
        .filter(|l| l.starts_with("game ") && l.contains(": A "))
        .map(|l| l[5..l.find(':').unwrap()].parse().unwrap())
        .collect();
    assert!(counted.len() >= 10 && counted.len() < 40, "{}", stdout);
    for line in stdout.lines().filter(|l| l.starts_with("game ")) {
        assert!(
            line.contains(": A ") || line.ends_with("not counted"),
            "{}",
            stdout
        );
    }
    // Every pair line comes after both its games, whatever order they finished in.
    let pairs: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pair ")).collect();
    assert!(pairs.len() >= 5, "{}", stdout);
    for pair in &pairs {
        // "pair K (games …": K.
        let k: usize = pair.split(' ').nth(1).unwrap().parse().unwrap();
        let at = stdout.find(pair).unwrap();
        for n in [2 * k - 1, 2 * k] {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("game {}: A ", n)))
                .unwrap_or_else(|| panic!("game {} of {} not counted: {}", n, pair, stdout));
            assert!(stdout.find(line).unwrap() < at, "{}", stdout);
        }
        // Both games open alike, colours swapped.
        let (first, second) = (record(&records, 2 * k - 1), record(&records, 2 * k));
        assert_eq!(opening_of(&first), opening_of(&second));
    }
    let summary = format!("pairs: {} counted", pairs.len());
    assert!(stdout.contains(&summary), "{}", stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_in_the_first_games_stops_the_match() {
    // Games 1 and 2 start together: either failing is the configuration's.
    let out = run(&[
        "--black",
        &tengen(1),
        "--white",
        "/nonexistent/engine",
        "--size",
        "5",
        "--games",
        "4",
        "--concurrency",
        "2",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{}", stdout);
    assert!(stderr.contains("/nonexistent/engine"), "{}", stderr);
    assert!(!stdout.contains("\ngame "), "{}", stdout);
}

#[test]
fn handicap_games_record_the_stones_and_white_moves_first() {
    let dir = temp_dir("handicap");
    for (fixed, colours) in [
        (false, ["A black", "A white"]),
        (true, ["A black", "A black"]),
    ] {
        let records = dir.join(format!("records-{}", fixed));
        let mut args = vec![
            "--black".to_string(),
            tengen(30),
            "--white".to_string(),
            tengen(30),
            "--referee".to_string(),
            tengen(1),
        ];
        for a in [
            "--size",
            "9",
            "--handicap",
            "4",
            "--games",
            "2",
            "--max-moves",
            "6",
            "--sgf-dir",
            records.to_str().unwrap(),
        ] {
            args.push(a.to_string());
        }
        if fixed {
            args.push("--fixed-colours".to_string());
        }
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let out = run(&args);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{}\n{}", stdout, stderr);
        assert!(stdout.contains("handicap 4, komi 0.5"), "{}", stdout);
        let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{}", stdout);
        for (n, line) in games.iter().enumerate() {
            assert!(line.contains(colours[n]), "{}", stdout);
            assert!(line.contains("referee counts"), "{}", stdout);
            let sgf = record(&records, n + 1);
            assert!(sgf.contains("HA[4]"), "{}", sgf);
            // GTP's fixed placement on 9x9: C3 G7 C7 G3.
            let root = &sgf[..sgf.find(";W").unwrap()];
            assert!(root.contains("AB["), "{}", sgf);
            for p in ["[cg]", "[gc]", "[cc]", "[gg]"] {
                assert!(root.contains(p), "{} in {}", p, sgf);
            }
            assert!(moves(&sgf)[0].starts_with("W["), "{}", sgf);
            assert!(sgf.contains("KM[0.5]"), "{}", sgf);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sh engine answering every command with an empty success, `fixed_handicap` with `answer`
/// and `genmove` with a pass.
fn fake_engine(dir: &Path, name: &str, answer: &str) -> String {
    let cases = format!(
        "fixed_handicap) printf '{}\\n\\n' \"$id\";;\n    genmove) printf '=%s pass\\n\\n' \"$id\";;",
        answer
    );
    script_engine(dir, name, "", &cases)
}

#[test]
fn an_engine_placing_other_handicap_stones_is_refused() {
    if !Path::new("/bin/sh").exists() {
        eprintln!("skipped: no /bin/sh for the fake engines");
        return;
    }
    let dir = temp_dir("handicap-refused");
    let elsewhere = fake_engine(&dir, "elsewhere", "=%s A1 B2");
    let refusing = fake_engine(&dir, "refusing", "?%s unknown command");
    for (engine, message) in [
        (
            &elsewhere,
            "answered 'fixed_handicap 2' with 'A1 B2', not the fixed placement G7 C3",
        ),
        (
            &refusing,
            "answered 'fixed_handicap 2' with '? unknown command'",
        ),
    ] {
        let out = run(&[
            "--black",
            &tengen(10),
            "--white",
            engine,
            "--size",
            "9",
            "--handicap",
            "2",
            "--games",
            "2",
        ]);
        let (stdout, stderr) = text(&out);
        assert!(!out.status.success(), "{}", stdout);
        assert!(stderr.contains(message), "{}\n{}", stdout, stderr);
        assert!(!stdout.contains("game 1:"), "{}", stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_are_refused_before_any_game() {
    let a = tengen(1);
    let base = ["--black", a.as_str(), "--white", a.as_str()];
    for (args, message) in [
        (
            &["--sprt", "5", "0"][..],
            "ELO0 (the null hypothesis) must be below ELO1",
        ),
        (
            &["--sprt", "0", "5000"],
            "must be Elo differences from -2000 to 2000",
        ),
        (&["--sprt", "0", "x"], "'x' is not an Elo difference"),
        (
            &["--sprt", "0", "5", "--games", "3"],
            "--games 3: the SPRT plays pairs",
        ),
        (&["--handicap", "1"], "1 stone is no fixed handicap"),
        (
            &["--handicap", "10", "--size", "9"],
            "--handicap 10: a 9x9 board takes a fixed handicap of 2 to 9 stones",
        ),
        (
            &["--handicap", "5", "--size", "8"],
            "a 8x8 board takes a fixed handicap of 2 to 4 stones",
        ),
        (
            &["--handicap", "2", "--size", "5"],
            "a 5x5 board has no fixed handicap",
        ),
        (
            &["--handicap", "2", "--rules", "prejudgement"],
            "--handicap: not under prejudgement rules",
        ),
        (
            &["--openings", "/nonexistent/openings.txt"],
            "/nonexistent/openings.txt",
        ),
        (
            &["--opening-moves", "2", "--rules", "prejudgement"],
            "--opening-moves: not under",
        ),
        (&["--concurrency", "0"], "--concurrency"),
    ] {
        let out = run(&[&base[..], args].concat());
        let (stdout, stderr) = text(&out);
        assert!(!out.status.success(), "{:?}: {}", args, stdout);
        assert!(stderr.contains(message), "{:?}: {}", args, stderr);
        assert!(!stdout.contains("game 1:"), "{:?}: {}", args, stdout);
    }
}

#[test]
fn a_negative_elo0_is_a_value() {
    // `--sprt -3 3` reads -3 as ELO0, not as a flag; one pair at --games 2, then inconclusive.
    let out = run(&[
        "--black",
        &tengen(1),
        "--white",
        &tengen(1),
        "--size",
        "5",
        "--sprt",
        "-3",
        "3",
        "--games",
        "2",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{}\n{}", stdout, stderr);
    assert!(stdout.contains("SPRT elo0 -3 elo1 3"), "{}", stdout);
    assert!(
        stdout.contains("inconclusive at the --games limit"),
        "{}",
        stdout
    );
}
