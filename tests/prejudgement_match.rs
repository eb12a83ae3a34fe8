//! `tengen match --rules prejudgement` end to end: two tengen engines on 5×5 play the opening
//! (first mover stones 1 and 4), state predictions, are told the threshold, and the game is
//! counted against it; an engine without the pre-judgement commands is refused.

use std::path::Path;
use tengen::rules::{Margin, Rules};

fn tengen(seed: u32) -> String {
    format!(
        "{} --threads 1 --playouts 60 --seed {}",
        env!("CARGO_BIN_EXE_tengen"),
        seed
    )
}

#[test]
fn two_tengen_engines_play_a_prejudgement_game() {
    let dir =
        std::env::temp_dir().join(format!("tengen-prejudgement-match-{}", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", &tengen(1), "--white", &tengen(2)])
        .args(["--games", "2", "--size", "5", "--rules", "prejudgement"])
        .arg("--sgf-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{}", stdout);
    for (n, line) in games.iter().enumerate() {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{:03}.sgf", n + 1))).unwrap();
        let game = tengen::sgf::load(&sgf, Rules::chinese(), None).unwrap();
        assert_eq!(game.rules().name, "prejudgement");
        let predictions = tengen::sgf::predictions(&sgf).expect("predictions in the record");
        let threshold = predictions.threshold();
        let white = threshold.white;
        assert_eq!(game.komi(), threshold.komi, "{}", sgf);
        // The first mover (A in odd games) placed stones 1 and 4; colours follow the predictions.
        let a_first = n % 2 == 0;
        let a_white = a_first == (white == 1);
        let a = if a_white { "A white" } else { "A black" };
        assert!(line.contains(a), "{} in {}", a, line);
        if line.contains("two passes") {
            let re = sgf.split("RE[").nth(1).unwrap().split(']').next().unwrap();
            assert!(Margin::parse(re).is_some(), "{}", sgf);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_without_the_prejudgement_commands_is_refused() {
    if !Path::new("/bin/sh").exists() {
        eprintln!("skipped: no /bin/sh for the fake engine");
        return;
    }
    // Answers every command with an empty success: it lists no commands.
    let fake = "sh -c 'while read -r id cmd rest; do printf \"=%s\\n\\n\" \"$id\"; done'";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", fake, "--white", &tengen(1)])
        .args(["--games", "1", "--size", "5", "--rules", "prejudgement"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("does not list tengen-prejudge: it cannot play pre-judgement games"),
        "{}",
        stderr
    );
}

/// A pre-judgement match's game lines and records (SGF text without the engines' names and the
/// game's number, which differ between seats).
fn seated_match(a: &str, b: &str, name: &str) -> (Vec<String>, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("tengen-seats-{}-{}", name, std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["match", "--black", a, "--white", b])
        .args(["--games", "2", "--size", "7", "--rules", "prejudgement"])
        .arg("--sgf-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", stdout);
    let lines: Vec<String> = stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(String::from)
        .collect();
    let records = (1..=2)
        .map(|n| {
            let sgf = std::fs::read_to_string(dir.join(format!("game-{:03}.sgf", n))).unwrap();
            let game = tengen::sgf::load(&sgf, Rules::chinese(), None).unwrap();
            let moves: Vec<String> = game.moves().map(|m| format!("{:?}", m)).collect();
            format!("{} {}", moves.join(" "), game.komi())
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (lines, records)
}

/// Which engine the line credits: "A wins", "B wins" or a draw.
fn credited(line: &str) -> &str {
    ["A wins", "B wins", "draw"]
        .into_iter()
        .find(|w| line.contains(w))
        .unwrap_or_else(|| panic!("no result in {}", line))
}

#[test]
fn the_seats_of_a_prejudgement_match_favour_neither_engine() {
    // Engines that play the same moves in the same role: the seat an engine starts in (A or B)
    // must change nothing but which game number it moves first in.
    let engine = |seed: u32| {
        format!(
            "{} --threads 1 --playouts 100 --seed {} --no-resign",
            env!("CARGO_BIN_EXE_tengen"),
            seed
        )
    };
    // Identical engines: game 2 is game 1 with the seats swapped, so the match is even.
    let (lines, records) = seated_match(&engine(5), &engine(5), "same");
    assert_eq!(records[0], records[1], "{:?}", lines);
    let (one, two) = (credited(&lines[0]), credited(&lines[1]));
    assert!(
        (one, two) == ("A wins", "B wins")
            || (one, two) == ("B wins", "A wins")
            || one == two && one == "draw",
        "{:?}",
        lines
    );
    // Different engines, whose predictions differ (so that the seats are swapped when the first
    // mover takes Black): X moving first in A's seat and in B's seat plays the same game, and
    // the same engine is credited with it.
    // A first mover must take Black (A moving first in game 1) for the seats to be swapped:
    // the first of the seeds below that gives such a game (which one depends on the search).
    let x = engine(5);
    let (y, xy_lines, xy) = (6..30)
        .map(|seed| {
            let y = engine(seed);
            let (lines, records) = seated_match(&x, &y, "xy");
            (y, lines, records)
        })
        .find(|(_, lines, _)| lines[0].contains("A black"))
        .expect("a seed whose first mover takes Black");
    let (yx_lines, yx) = seated_match(&y, &x, "yx");
    assert_eq!(xy[0], yx[1], "{:?} {:?}", xy_lines, yx_lines);
    assert_eq!(xy[1], yx[0], "{:?} {:?}", xy_lines, yx_lines);
    let swap = |w: &str| {
        match w {
            "A wins" => "B wins",
            "B wins" => "A wins",
            other => other,
        }
        .to_string()
    };
    assert_eq!(swap(credited(&xy_lines[0])), credited(&yx_lines[1]));
    assert_eq!(swap(credited(&xy_lines[1])), credited(&yx_lines[0]));
}
