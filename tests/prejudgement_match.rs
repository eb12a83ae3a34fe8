//! `tengen match --rules prejudgement` end to end: two tengen engines on 5×5 play the opening
//! (first mover stones 1 and 4), state predictions, are told the threshold, and the game is
//! counted against it; an engine without the pre-judgement commands is refused.

use std::path::Path;
use tengen::rules::{HalfPoints, Margin, Rules};

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
        let game = tengen::sgf::load(&sgf, Rules::chinese(), HalfPoints(15), None).unwrap();
        assert_eq!(game.rules().name, "prejudgement");
        let (p1, p2) = tengen::sgf::predictions(&sgf).expect("predictions in the record");
        let (threshold, white) = tengen::rules::prejudgement_threshold(p1, p2);
        assert_eq!(game.komi(), threshold.0, "{}", sgf);
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
