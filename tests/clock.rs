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

/// A clock as the controller keeps it: what it tells the engine, how long the next move may
/// take, and the time left after a move.
#[derive(Clone, Copy, Debug)]
enum Kept {
    /// Byo-yomi without main time: every move has the period.
    Byoyomi { period: f64 },
    /// Canadian overtime without main time: `stones` moves in `period`, then a new period.
    Canadian {
        period: f64,
        stones: u32,
        left: f64,
        stones_left: u32,
    },
    /// Fischer: the main time, the increment added after each move.
    Fischer { main: f64, increment: f64 },
}

impl Kept {
    fn settings(&self) -> String {
        match *self {
            Kept::Byoyomi { period } => format!("time_settings 0 {} 1", period),
            Kept::Canadian { period, stones, .. } => {
                format!("time_settings 0 {} {}", period, stones)
            }
            Kept::Fischer { main, increment } => {
                format!("kata-time_settings fischer {} {}", main, increment)
            }
        }
    }

    /// `time_left` for `color` before its move.
    fn time_left(&self, color: &str) -> String {
        match *self {
            Kept::Byoyomi { period } => format!("time_left {} {} 1", color, period),
            Kept::Canadian {
                left, stones_left, ..
            } => format!("time_left {} {:.3} {}", color, left, stones_left),
            Kept::Fischer { main, .. } => format!("time_left {} {:.3} 0", color, main),
        }
    }

    /// The most the next move may take.
    fn allowed(&self) -> f64 {
        match *self {
            Kept::Byoyomi { period } => period,
            Kept::Canadian { left, .. } => left,
            Kept::Fischer { main, .. } => main,
        }
    }

    fn record(&mut self, used: f64) {
        match self {
            Kept::Byoyomi { .. } => {}
            Kept::Canadian {
                period,
                stones,
                left,
                stones_left,
            } => {
                *left -= used;
                *stones_left -= 1;
                if *stones_left == 0 {
                    *left = *period;
                    *stones_left = *stones;
                }
            }
            Kept::Fischer { main, increment } => *main += *increment - used,
        }
    }
}

/// The three short clocks: a second a move, four moves in three seconds, three seconds and a
/// half-second increment.
fn short_clocks() -> [Kept; 3] {
    [
        Kept::Byoyomi { period: 1.0 },
        Kept::Canadian {
            period: 3.0,
            stones: 4,
            left: 3.0,
            stones_left: 4,
        },
        Kept::Fischer {
            main: 3.0,
            increment: 0.5,
        },
    ]
}

/// Plays up to `moves` moves (two passes end them) from the engine's position, `first` to move,
/// with `clock` kept for both sides: tengen moves for `engine_colors` by `command` (`genmove`
/// or `kgs-genmove_cleanup`), the controller passes for any other colour. Panics on a move
/// past its clock.
fn clocked_moves(
    e: &mut Client,
    first: &str,
    clock: Kept,
    command: &str,
    engine_colors: &[&str],
    moves: usize,
) {
    ok(e, &clock.settings());
    let mut clocks = [clock, clock];
    let mut color = first.to_string();
    let mut passes = 0;
    // The move that came closest to its clock, for the log.
    let mut closest: (f64, f64) = (0.0, 0.0);
    for i in 0..moves {
        let side = usize::from(color == "w");
        let mv = if engine_colors.contains(&color.as_str()) {
            ok(e, &clocks[side].time_left(&color));
            let start = Instant::now();
            let mv = ok(e, &format!("{} {}", command, color));
            let used = start.elapsed().as_secs_f64();
            assert!(
                used < clocks[side].allowed(),
                "{}: move {} ({} {}) took {:.3} s of {:.3} s",
                clock.settings(),
                i + 1,
                command,
                color,
                used,
                clocks[side].allowed()
            );
            if used / clocks[side].allowed() > closest.0 / closest.1.max(1e-9) {
                closest = (used, clocks[side].allowed());
            }
            clocks[side].record(used);
            mv
        } else {
            ok(e, &format!("play {} pass", color));
            "pass".to_string()
        };
        if mv.eq_ignore_ascii_case("resign") {
            break;
        }
        passes = if mv.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        if passes >= 2 {
            break;
        }
        color = if color == "b" { "w".into() } else { "b".into() };
    }
    eprintln!(
        "{}, {}: closest move {:.3} s of {:.3} s",
        clock.settings(),
        command,
        closest.0,
        closest.1
    );
}

/// Every rules name tengen takes.
const RULES: [&str; 6] = [
    "japanese",
    "chinese",
    "aga",
    "new_zealand",
    "tromp-taylor",
    "prejudgement",
];

#[test]
fn every_move_keeps_to_a_short_clock_at_the_end_of_a_game_under_every_rules_name() {
    // The end of a finished 19×19 game, both sides by tengen: passes, dame, dead stones to
    // capture first (Tromp–Taylor, cleanup), each judged within the move's clock.
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-scripts/race_crowded.sgf");
    let clocks = short_clocks();
    for (k, rules) in RULES.iter().enumerate() {
        let mut e = engine(&[]);
        let first = ok(&mut e, &format!("loadsgf {} 250", record));
        ok(&mut e, &format!("kata-set-rules {}", rules));
        clocked_moves(
            &mut e,
            &first[..1],
            clocks[k % 3],
            "genmove",
            &["b", "w"],
            12,
        );
        e.quit(Duration::from_secs(3));
    }
    let mut e = engine(&[]);
    let first = ok(&mut e, &format!("loadsgf {} 250", record));
    clocked_moves(
        &mut e,
        &first[..1],
        clocks[0],
        "kgs-genmove_cleanup",
        &["b", "w"],
        12,
    );
    e.quit(Duration::from_secs(3));
}

#[test]
fn every_move_answering_a_pass_keeps_to_a_short_clock_on_the_largest_board() {
    // 25×25, the controller passing at every turn: each of tengen's moves must judge whether
    // the position as it stands wins, on a board where nothing is settled.
    let clocks = short_clocks();
    for (k, rules) in RULES.iter().enumerate() {
        let mut e = engine(&[]);
        ok(&mut e, "boardsize 25");
        ok(&mut e, "clear_board");
        ok(&mut e, &format!("kata-set-rules {}", rules));
        // Pre-judgement opens with four placements, White first, no pass: tengen makes them.
        let (first, colors): (&str, &[&str]) = if *rules == "prejudgement" {
            ("w", &["w", "b"])
        } else {
            ("b", &["b"])
        };
        clocked_moves(&mut e, first, clocks[(k + 1) % 3], "genmove", colors, 6);
        e.quit(Duration::from_secs(3));
    }
}

/// Whole games of tengen against itself on `size`, one under each rules name, the short clocks
/// taken in turn from `first_clock` on: every move within its clock.
fn whole_games(size: usize, first_clock: usize) {
    let clocks = short_clocks();
    for (k, rules) in RULES.iter().enumerate() {
        let mut e = engine(&[]);
        ok(&mut e, &format!("boardsize {}", size));
        ok(&mut e, "clear_board");
        ok(&mut e, &format!("kata-set-rules {}", rules));
        let first = if *rules == "prejudgement" { "w" } else { "b" };
        let clock = clocks[(first_clock + k) % 3];
        let start = Instant::now();
        clocked_moves(
            &mut e,
            first,
            clock,
            "genmove",
            &["b", "w"],
            3 * size * size,
        );
        let moves = ok(&mut e, "printsgf").matches(";B[").count();
        eprintln!(
            "{}×{} {} {}: {} Black moves in {:.0} s, {}",
            size,
            size,
            rules,
            clock.settings(),
            moves,
            start.elapsed().as_secs_f64(),
            ok(&mut e, "final_score")
        );
        e.quit(Duration::from_secs(3));
    }
}

#[test]
#[ignore = "about half an hour: run by hand (tests/README.md)"]
fn whole_19x19_games_under_every_rules_name_keep_to_short_clocks() {
    whole_games(19, 0);
}

#[test]
#[ignore = "about forty minutes: run by hand (tests/README.md)"]
fn whole_25x25_games_under_every_rules_name_keep_to_short_clocks() {
    whole_games(25, 1);
}
