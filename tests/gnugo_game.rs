//! End-to-end games against GNU Go, over GTP.
//!
//! `complete_game_against_gnugo`: tengen (Black, small playout budget) and GNU Go play a 9×9
//! game under Chinese rules to two passes; then both capture what they think is dead with
//! `kgs-genmove_cleanup` until two more passes; then tengen's `final_score` must agree with GNU
//! Go's and with a plain area count of the board (every stone counts, empty regions count for the
//! only colour they touch), since after cleanup no dead stones are left.
//!
//! `match_tool_with_two_gnugo_engines`: `tengen match` runs GNU Go against itself with a GNU Go
//! referee, writing SGF records, and reports a result for every game.
//!
//! Both skip, with a message, when GNU Go is not installed (CI installs it).

use std::path::Path;
use std::time::Duration;
use tengen::board::{Board, Color, Move};
use tengen::coords::{format_move, parse_vertex};
use tengen::game::{Game, GameError};
use tengen::match_play::client::Client;
use tengen::rules::{HalfPoints, Margin, Rules};

const GNUGO: &str = "/usr/games/gnugo";
const DEADLINE: Duration = Duration::from_secs(60);

fn gnugo_missing() -> bool {
    if Path::new(GNUGO).exists() {
        return false;
    }
    eprintln!("skipped: {} is not installed", GNUGO);
    true
}

fn ok(engine: &mut Client, command: &str) -> String {
    match engine.send(command, DEADLINE) {
        Ok(Ok(text)) => text,
        Ok(Err(msg)) => panic!("{}: '{}' failed: {}", engine.label, command, msg),
        Err(e) => panic!("{}: '{}': {}", engine.label, command, e),
    }
}

/// Black minus White on the board as it stands, komi included: stones plus the empty regions
/// that touch one colour only.
fn plain_area_count(board: &Board, komi: HalfPoints) -> Margin {
    let n = board.size();
    let mut seen = vec![false; n * n];
    let mut black = 0i32;
    let mut white = 0i32;
    for row in 0..n {
        for col in 0..n {
            match board.color(board.point(col, row)) {
                Some(Color::Black) => black += 1,
                Some(Color::White) => white += 1,
                None if !seen[row * n + col] => {
                    let (mut size, mut touches_b, mut touches_w) = (0, false, false);
                    let mut stack = vec![(col, row)];
                    seen[row * n + col] = true;
                    while let Some((c, r)) = stack.pop() {
                        size += 1;
                        let mut next = Vec::new();
                        if c > 0 {
                            next.push((c - 1, r));
                        }
                        if c + 1 < n {
                            next.push((c + 1, r));
                        }
                        if r > 0 {
                            next.push((c, r - 1));
                        }
                        if r + 1 < n {
                            next.push((c, r + 1));
                        }
                        for (c2, r2) in next {
                            match board.color(board.point(c2, r2)) {
                                Some(Color::Black) => touches_b = true,
                                Some(Color::White) => touches_w = true,
                                None if !seen[r2 * n + c2] => {
                                    seen[r2 * n + c2] = true;
                                    stack.push((c2, r2));
                                }
                                None => {}
                            }
                        }
                    }
                    match (touches_b, touches_w) {
                        (true, false) => black += size,
                        (false, true) => white += size,
                        _ => {}
                    }
                }
                None => {}
            }
        }
    }
    Margin(HalfPoints::points(black - white) - komi)
}

/// Plays moves with `command` (genmove or kgs-genmove_cleanup) until two passes in a row.
fn play_until_two_passes(
    game: &mut Game,
    engines: &mut [Client; 2],
    command: &str,
    max_moves: usize,
) {
    let mut passes = 0;
    for _ in 0..max_moves {
        let color = game.to_move();
        let letter = if color == Color::Black { "b" } else { "w" };
        let answer = ok(
            &mut engines[color.index()],
            &format!("{} {}", command, letter),
        );
        assert!(
            !answer.eq_ignore_ascii_case("resign"),
            "{} resigned (both run with resigning off)",
            engines[color.index()].label
        );
        let mut mv = parse_vertex(&answer, game.board())
            .unwrap_or_else(|_| panic!("{} answered '{}'", engines[color.index()].label, answer));
        match game.play(color, mv) {
            Ok(_) => {}
            // GNU Go (White) knows only the simple ko: a move of its that repeats an earlier
            // position, which Chinese rules forbid, is taken back on its board and played as
            // a pass. tengen must never play one.
            Err(GameError::Superko) if color == Color::White => {
                ok(&mut engines[color.index()], "undo");
                ok(&mut engines[color.index()], "play w pass");
                mv = Move::Pass;
                game.play(color, mv).expect("a pass is always legal");
            }
            Err(e) => panic!("{} played {}: {}", color, answer, e),
        }
        ok(
            &mut engines[color.opponent().index()],
            &format!("play {} {}", letter, format_move(game.board(), mv)),
        );
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        if passes == 2 {
            return;
        }
    }
    panic!(
        "no two passes in a row within {} moves of {}",
        max_moves, command
    );
}

#[test]
fn complete_game_against_gnugo() {
    if gnugo_missing() {
        return;
    }
    let args: Vec<String> = [
        "--rules",
        "chinese",
        "--size",
        "9",
        "--threads",
        "1",
        "--seed",
        "11",
        "--playouts",
        "800",
        "--no-resign",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let tengen = Client::spawn_args(env!("CARGO_BIN_EXE_tengen"), &args, None, false).unwrap();
    let gnugo = Client::spawn(
        &format!(
            "{} --mode gtp --level 1 --chinese-rules --never-resign",
            GNUGO
        ),
        false,
    )
    .unwrap();
    let mut engines = [tengen, gnugo];
    for e in engines.iter_mut() {
        ok(e, "boardsize 9");
        ok(e, "clear_board");
        ok(e, "komi 7.5");
    }
    let mut game = Game::new(9, Rules::chinese()).unwrap();
    game.set_komi(HalfPoints(15));

    play_until_two_passes(&mut game, &mut engines, "genmove", 250);
    let after_play = game.move_number();
    play_until_two_passes(&mut game, &mut engines, "kgs-genmove_cleanup", 250);
    eprintln!(
        "{} moves of play, {} of cleanup\n{}",
        after_play,
        game.move_number() - after_play,
        game.board()
    );

    let plain = plain_area_count(game.board(), game.komi());
    let ours = ok(&mut engines[0], "final_score");
    let theirs = ok(&mut engines[1], "final_score");
    eprintln!("tengen {}, GNU Go {}, plain count {}", ours, theirs, plain);
    assert_eq!(
        Margin::parse(&ours),
        Some(plain),
        "tengen's final_score {} against the plain area count {}",
        ours,
        plain
    );
    assert_eq!(
        Margin::parse(&theirs),
        Some(plain),
        "GNU Go's final_score {} against the plain area count {}",
        theirs,
        plain
    );
    let [tengen, gnugo] = engines;
    tengen.quit(Duration::from_secs(3));
    gnugo.quit(Duration::from_secs(3));
}

#[test]
fn match_tool_with_two_gnugo_engines() {
    if gnugo_missing() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("tengen-match-{}", std::process::id()));
    let gnugo = format!("{} --mode gtp --level 0 --chinese-rules", GNUGO);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "match", "--black", &gnugo, "--white", &gnugo, "--games", "2",
        ])
        .args(["--size", "9", "--referee", &gnugo])
        .arg("--sgf-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{}", stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{}", stdout);
    assert!(games[0].contains("A black") && games[1].contains("A white"));
    for g in &games {
        assert!(g.contains("two passes"), "{}", g);
        assert!(g.contains("referee counts"), "{}", g);
    }
    assert!(stdout.contains("95% CI"), "{}", stdout);
    for n in 1..=2 {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{:03}.sgf", n))).unwrap();
        let game = tengen::sgf::load(&sgf, Rules::chinese(), None).unwrap();
        assert!(game.is_over());
        assert!(sgf.contains("RE["));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake GTP engine in sh that answers every command with success and `genmove` as given.
fn fake_engine(genmove: &str) -> String {
    format!(
        "sh -c 'while read -r id cmd rest; do case \"$cmd\" in genmove) {};; \
         *) printf \"=%s\\n\\n\" \"$id\";; esac; done'",
        genmove
    )
}

#[test]
fn match_tool_detects_bad_engines() {
    if !Path::new("/bin/sh").exists() {
        eprintln!("skipped: no /bin/sh for the fake engines");
        return;
    }
    let good = format!(
        "{} --playouts 20 --threads 1 --seed 1",
        env!("CARGO_BIN_EXE_tengen")
    );
    let cases = [
        (
            fake_engine("printf \"=%s A1\\n\\n\" \"$id\""),
            "W+F B wins (black played an illegal move A1: occupied",
        ),
        (
            fake_engine("exit 3"),
            "W+F B wins (black exited (exit status: 3)",
        ),
        (
            fake_engine("sleep 5"),
            "W+T B wins (black gave no move within 1.0 s",
        ),
        (
            fake_engine("printf \"=%s hello\\n\\n\" \"$id\""),
            "W+F B wins (black answered genmove with 'hello', not a move",
        ),
        (
            fake_engine("printf \"? not today\\n\\n\""),
            "W+F B wins (black's genmove failed: not today",
        ),
    ];
    for (bad, expected) in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["match", "--black", &bad, "--white", &good, "--games", "1"])
            .args(["--size", "5", "--move-timeout", "1"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = stdout
            .lines()
            .find(|l| l.starts_with("game 1"))
            .unwrap_or("");
        assert!(
            line.contains(expected),
            "expected '{}' in:\n{}",
            expected,
            stdout
        );
    }
}
