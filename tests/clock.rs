//! The game clock through the binary: tengen, told KataGo's Fischer time with
//! `kata-time_settings` and kept informed with `time_left` as a controller does, never takes
//! longer over a move than the main time it has left (the increment comes only after the move),
//! spends the increment it gets back, and keeps to the capped form's time per move.

use std::time::{Duration, Instant};
use tengen::match_play::client::Client;

fn engine(extra: &[&str]) -> Client {
    let mut args = vec!["--threads", "1", "--no-resign"];
    args.extend_from_slice(extra);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    Client::spawn_args(env!("CARGO_BIN_EXE_tengen"), &args, None, false).unwrap()
}

fn ok(e: &mut Client, command: &str) -> String {
    match e.send(command, Duration::from_secs(60)).unwrap() {
        Ok(text) => text,
        Err(msg) => panic!("{}: ? {}", command, msg),
    }
}

/// Plays `moves` moves on 9×9, both colours by `genmove`, each side with its own Fischer clock
/// kept here as the controller keeps it and reported with `time_left` before each move. Returns
/// each move's wall time with the main time it had before it.
fn fischer_game(e: &mut Client, main: f64, increment: f64, moves: usize) -> Vec<(f64, f64)> {
    ok(e, "boardsize 9");
    ok(e, "clear_board");
    ok(
        e,
        &format!("kata-time_settings fischer {} {}", main, increment),
    );
    let mut clocks = [main, main];
    let mut times = Vec::new();
    for i in 0..moves {
        let (color, side) = if i % 2 == 0 { ("b", 0) } else { ("w", 1) };
        ok(e, &format!("time_left {} {:.3} 0", color, clocks[side]));
        let start = Instant::now();
        let mv = ok(e, &format!("genmove {}", color));
        let used = start.elapsed().as_secs_f64();
        assert!(!mv.is_empty(), "no move");
        times.push((used, clocks[side]));
        clocks[side] = clocks[side] - used + increment;
    }
    times
}

#[test]
fn a_fischer_clock_is_never_overspent_and_its_increment_is_used() {
    let mut e = engine(&[]);
    assert!(ok(&mut e, "kata-list_time_settings")
        .split_whitespace()
        .any(|k| k == "fischer"));
    // 3 s of main time and 1 s a move: each move may use about the increment and a little of the
    // main time, never all of what is left.
    let times = fischer_game(&mut e, 3.0, 1.0, 16);
    for (i, &(used, main_before)) in times.iter().enumerate() {
        assert!(
            used < main_before,
            "move {}: {:.3} s with {:.3} s of main time left",
            i + 1,
            used,
            main_before
        );
    }
    // The increment is time to think with, not only to bank. How much of it a move uses depends
    // on the machine: a move whose best choice can no longer change (often because the tree
    // kept from the last move already holds its answer) stops early and banks the rest, and a
    // fast machine gets there sooner. So the bound is a third of the increments, which an engine
    // that only banks its increments, or stops at once, fails.
    let total: f64 = times.iter().map(|t| t.0).sum();
    assert!(total > times.len() as f64 / 3.0, "{:?}", times);
    e.quit(Duration::from_secs(3));
}

#[test]
fn a_short_main_time_keeps_the_lag_margin() {
    // Half a second of increment and a lag of 0.2 s: every move ends well within the main time.
    let mut e = engine(&["--lag", "0.2"]);
    let times = fischer_game(&mut e, 1.0, 0.5, 10);
    for (i, &(used, main_before)) in times.iter().enumerate() {
        assert!(
            used < main_before,
            "move {}: {:.3} s with {:.3} s left",
            i + 1,
            used,
            main_before
        );
    }
    e.quit(Duration::from_secs(3));
}

#[test]
fn the_capped_form_limits_each_move() {
    let mut e = engine(&[]);
    ok(&mut e, "boardsize 9");
    // Plenty of main time, but at most a second a move.
    ok(&mut e, "kata-time_settings fischer-capped 60 10 60 1");
    for color in ["b", "w", "b"] {
        let start = Instant::now();
        ok(&mut e, &format!("genmove {}", color));
        let used = start.elapsed().as_secs_f64();
        assert!(used < 1.0, "{:.3} s", used);
    }
    // A main time limit below the main time is refused and changes nothing.
    let r = e
        .send(
            "kata-time_settings fischer-capped 60 10 30 1",
            Duration::from_secs(5),
        )
        .unwrap();
    assert!(r.is_err(), "{:?}", r);
    let start = Instant::now();
    ok(&mut e, "genmove w");
    assert!(start.elapsed() < Duration::from_secs(1));
    e.quit(Duration::from_secs(3));
}
