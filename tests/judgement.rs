//! One judgement of the dead stones: for every finished game the suite keeps, what
//! `final_status_list dead` lists, what GoGui's ownership display (`tengen-ownership`) marks,
//! and what `final_score` counts are the same stones, through the release binary.

use std::io::Write;
use std::process::{Command, Stdio};
use tengen::coords::parse_vertex;
use tengen::rules::Rules;
use tengen::{score, sgf};

/// The finished games kept under gtp-scripts/ (played to two passes or set up as final).
const FINISHED: [&str; 14] = [
    "game_dead_stone.sgf",
    "game_dead_stones.sgf",
    "atari_not_seki.sgf",
    "seki.sgf",
    "end_nakade_1.sgf",
    "end_nakade_2.sgf",
    "end_nakade_3.sgf",
    "end_nakade_4.sgf",
    "shared_liberties_dead.sgf",
    "seki_corner_eye.sgf",
    "seki_false_eye.sgf",
    "semeai_nakade.sgf",
    "split_dead.sgf",
    "race_crowded.sgf",
];

/// The answers (without `= `) to `commands`, one per command, from a fresh engine.
fn answers(commands: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["--threads", "1", "--seed", "1", "--playouts", "300"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tengen");
    let mut input = child.stdin.take().unwrap();
    for c in commands {
        writeln!(input, "{}", c).unwrap();
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            assert!(r.starts_with('='), "refused: {}", r);
            r[1..].trim().to_string()
        })
        .collect()
}

fn sorted(words: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = words.collect();
    v.sort();
    v
}

#[test]
fn dead_stones_are_judged_once_for_the_list_the_marks_and_the_count() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-scripts/");
    for name in FINISHED {
        let path = format!("{}{}", dir, name);
        let a = answers(&[
            format!("loadsgf {}", path),
            "final_status_list dead".to_string(),
            "tengen-ownership".to_string(),
            "final_score".to_string(),
        ]);
        assert_eq!(a.len(), 5, "{}: {:?}", name, a);
        let listed = sorted(a[1].split_whitespace().map(str::to_uppercase));
        let marked = sorted(
            a[2].lines()
                .find_map(|l| l.strip_prefix("MARK "))
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_uppercase),
        );
        assert_eq!(listed, marked, "{}: listed and marked", name);
        // The count with exactly the listed stones lifted is the score the engine gives.
        let text = std::fs::read_to_string(&path).unwrap();
        let game = sgf::load(&text, Rules::chinese(), None).unwrap();
        let dead: Vec<_> = listed
            .iter()
            .map(|v| match parse_vertex(v, game.board()) {
                Ok(tengen::board::Move::Play(p)) => p,
                other => panic!("{}: vertex {} read as {:?}", name, v, other),
            })
            .collect();
        let count = score::count(&game, &dead).margin.to_string();
        assert_eq!(
            a[3], count,
            "{}: final_score and the count of the listed stones",
            name
        );
    }
}
