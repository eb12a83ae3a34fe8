//! Randomized invariants: thousands of random games on 5x5, 9x9 and 19x19 under the three
//! rulesets. After every move the board's incremental state must match a from-scratch
//! recomputation (`Board::verify`), every group's O(1) liberty answers (`atari_liberty`,
//! `two_liberties`) must match its listed liberties, and the reported capture outcome must match
//! the stone counts and prisoners. Every tenth game also runs the reference rules alongside and
//! compares legality, stones and prisoners move by move. At the end, undoing every move must give
//! back each earlier board in turn (stones, ko, last moves, the order of the empty-point list),
//! down to the empty board. A board copied into another with `copy_from` must be the same board
//! and go on the same way.
//!
//! Games are seeded (`seed = base + game`), and a failure names the test, seed and game number.

mod common;

use common::reference::RefGame;
use common::tengen_stones;
use std::panic::{catch_unwind, AssertUnwindSafe};
use tengen::board::{Board, Color, Move, Point, Removal};
use tengen::game::Game;
use tengen::rules::Rules;

/// What a batch of games did, to show the test reached the cases it is about.
#[derive(Default, Debug)]
struct Stats {
    games: u64,
    moves: u64,
    captures: u64,
    suicides: u64,
    own_removals: u64,
    ended_by_passes: u64,
    out_of_turn: u64,
    /// Pre-judgement openings left without a legal placement (2x2 only).
    stuck_openings: u64,
    reference_games: u64,
}

/// Every group (visited at its head stone; `verify` has checked that all its stones name that
/// head): liberties listed once each, all empty and touching the group, as many as counted, and
/// the O(1) answers agreeing with the list.
fn check_groups(b: &Board) -> Result<(), String> {
    for p in b.points() {
        if b.color(p).is_none() || b.group_of(p) != p {
            continue;
        }
        let at = b.coords(p);
        let mut libs = b.liberty_points(p);
        libs.sort();
        let n = libs.len();
        libs.dedup();
        if libs.len() != n {
            return Err(format!("group of {:?}: liberty listed twice", at));
        }
        if n != b.liberties(p) || n == 0 {
            return Err(format!(
                "group of {:?}: {} liberties listed, {} counted",
                at,
                n,
                b.liberties(p)
            ));
        }
        for &l in &libs {
            let touches = b
                .neighbours(l)
                .iter()
                .any(|&q| b.color(q).is_some() && b.group_of(q) == p);
            if !b.is_empty(l) || !touches {
                return Err(format!("group of {:?}: bad liberty {:?}", at, b.coords(l)));
            }
        }
        if b.group_stones(p).count() != b.group_size(p) {
            return Err(format!("group of {:?}: ring length != size", at));
        }
        let atari = (n == 1).then(|| libs[0]);
        if b.atari_liberty(p) != atari {
            return Err(format!(
                "group of {:?}: atari_liberty {:?}, liberties {:?}",
                at,
                b.atari_liberty(p),
                libs
            ));
        }
        let two = b
            .two_liberties(p)
            .map(|(x, y)| if x <= y { (x, y) } else { (y, x) });
        let expected = (n == 2).then(|| (libs[0], libs[1]));
        if two != expected {
            return Err(format!(
                "group of {:?}: two_liberties {:?}, liberties {:?}",
                at,
                b.two_liberties(p),
                libs
            ));
        }
    }
    if let Some((k, _)) = b.ko() {
        if !b.is_empty(k) {
            return Err(format!("ko point {:?} is not empty", b.coords(k)));
        }
    }
    Ok(())
}

/// Whether two boards are the same as far as anything can observe: stones, ko, hash, last
/// moves and the order of the empty-point list (which playouts draw from).
fn same_board(a: &Board, b: &Board) -> Result<(), String> {
    if a != b || a.hash() != b.hash() {
        return Err(format!("boards differ:\n{}\n{}", a, b));
    }
    if a.last_moves() != b.last_moves() {
        return Err(format!(
            "last moves {:?} vs {:?}",
            a.last_moves(),
            b.last_moves()
        ));
    }
    if a.empty_points() != b.empty_points() {
        return Err("the empty-point lists differ in order".into());
    }
    Ok(())
}

fn count(b: &Board, c: Color) -> usize {
    b.points().filter(|&p| b.color(p) == Some(c)).count()
}

/// Plays one random game; `Err` describes the first broken invariant.
fn play_game(
    size: usize,
    rules: Rules,
    seed: u64,
    with_ref: bool,
    stats: &mut Stats,
) -> Result<(), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut g = Game::new(size, rules).expect("valid size");
    let empty = g.board().clone();
    // The board after each move (the empty board first), for undo to give back.
    let mut boards = vec![empty.clone()];
    let mut r = with_ref.then(|| RefGame::new(size, rules));
    let cap = 3 * size * size;
    let pass_prob = match size {
        0..=5 => 0.05,
        6..=9 => 0.02,
        _ => 0.01,
    };
    for k in 0..cap {
        if g.is_over() {
            stats.ended_by_passes += 1;
            break;
        }
        // GTP lets either colour move: now and then the side not to move plays (outside the
        // pre-judgement opening, whose colours are fixed).
        let natural = rules.opening_color(g.move_number()).unwrap_or(g.to_move());
        let out_of_turn = !g.in_opening() && rng.f64() < 0.02;
        let color = if out_of_turn {
            natural.opponent()
        } else {
            natural
        };
        stats.out_of_turn += out_of_turn as u64;
        let pass_ok = rules.pass_allowed(g.move_number());
        let before = g.board().clone();
        let prisoners = [g.prisoners(Color::Black), g.prisoners(Color::White)];
        let mut played = None;
        if !(pass_ok && rng.f64() < pass_prob) {
            let mut cands = before.empty_points().to_vec();
            while !cands.is_empty() {
                let p = cands.swap_remove(rng.usize(..cands.len()));
                // Ask for the own-removal choice now and then wherever both sides lose their
                // liberties (pre-judgement honours it, the other rules must ignore it), and
                // rarely where it does not apply at all (it must be ignored).
                let mutual = before.is_mutual_capture(p, color);
                let want_own = (mutual && rng.bool()) || rng.f64() < 0.01;
                let removal = if want_own {
                    Removal::Own
                } else {
                    Removal::Opponent
                };
                let t = g.play_with(color, Move::Play(p), removal);
                if let Some(r) = r.as_mut() {
                    let (col, row) = before.coords(p);
                    let e = r.play_stone(color, col, row, want_own);
                    if t.is_ok() != e.is_ok() {
                        return Err(format!(
                            "move {}: {:?} at {:?} (own {}): tengen {:?}, reference {:?}\n{}",
                            k,
                            color,
                            (col, row),
                            want_own,
                            t,
                            e,
                            common::describe(r)
                        ));
                    }
                }
                if let Ok(out) = t {
                    let honoured = want_own && rules.mover_chooses_removal && mutual;
                    let suicide = before.is_suicide(p, color);
                    if (out.lost != 0) != (honoured || suicide) {
                        return Err(format!(
                            "move {}: outcome {:?} (own asked {}, mutual {}, suicide {})",
                            k, out, want_own, mutual, suicide
                        ));
                    }
                    if g.to_move() != color.opponent() {
                        return Err(format!(
                            "move {}: {:?} moved, {:?} to move",
                            k,
                            color,
                            g.to_move()
                        ));
                    }
                    played = Some((p, out));
                    break;
                }
            }
        }
        match played {
            Some((p, out)) => {
                let b = g.board();
                let own = count(&before, color) + 1 - out.lost as usize;
                let opp = count(&before, color.opponent()) - out.captured as usize;
                if count(b, color) != own
                    || count(b, color.opponent()) != opp
                    || b.color(p).is_none() && out.lost == 0
                {
                    return Err(format!(
                        "move {}: outcome {:?} does not match the stones",
                        k, out
                    ));
                }
                let mut expect = prisoners;
                expect[color.index()] += out.captured as u32;
                expect[color.opponent().index()] += out.lost as u32;
                if [g.prisoners(Color::Black), g.prisoners(Color::White)] != expect {
                    return Err(format!(
                        "move {}: prisoners do not match outcome {:?}",
                        k, out
                    ));
                }
                stats.captures += (out.captured > 0) as u64;
                if out.lost > 0 {
                    if out.captured == 0 && before.is_mutual_capture(p, color) {
                        stats.own_removals += 1;
                    } else {
                        stats.suicides += 1;
                    }
                }
            }
            None if pass_ok => {
                g.play(color, Move::Pass)
                    .map_err(|e| format!("move {}: pass refused: {}", k, e))?;
                if let Some(r) = r.as_mut() {
                    r.play(color, common::reference::RefMove::Pass)?;
                }
                if tengen_stones(g.board()) != tengen_stones(&before)
                    || g.board().hash() != before.hash()
                    || g.board().ko().is_some()
                {
                    return Err(format!(
                        "move {}: a pass changed the stones or kept a ko",
                        k
                    ));
                }
            }
            None => {
                // Only on tiny boards: the pre-judgement opening can run out of legal
                // placements (the last empty point a superko-illegal suicide) and may not pass.
                // The rules do not say what happens then; the game simply stops here.
                if size > 3 || !tengen::perft::legal_moves(&g).is_empty() {
                    return Err(format!(
                        "move {}: no legal placement found in the opening",
                        k
                    ));
                }
                if let Some(r) = r.as_ref() {
                    if !r.legal_moves().is_empty() {
                        return Err(format!("move {}: the reference has opening moves", k));
                    }
                }
                stats.stuck_openings += 1;
                break;
            }
        }
        stats.moves += 1;
        boards.push(g.board().clone());
        let b = g.board();
        b.verify()
            .map_err(|e| format!("move {}: verify: {}\n{}", k, e, b))?;
        check_groups(b).map_err(|e| format!("move {}: {}\n{}", k, e, b))?;
        if let Some(r) = r.as_ref() {
            if tengen_stones(b) != r.stones {
                return Err(format!(
                    "move {}: boards differ\ntengen:\n{}\n{}",
                    k,
                    b,
                    common::describe(r)
                ));
            }
            if [g.prisoners(Color::Black), g.prisoners(Color::White)] != r.prisoners {
                return Err(format!("move {}: prisoners differ from the reference", k));
            }
        }
    }
    // Undo everything: back to the empty board.
    let moves = g.move_number();
    for i in 0..moves {
        g.undo().map_err(|e| format!("undo {}: {}", i, e))?;
        same_board(g.board(), &boards[moves - 1 - i]).map_err(|e| format!("undo {}: {}", i, e))?;
        if with_ref {
            g.board()
                .verify()
                .map_err(|e| format!("undo {}: verify: {}", i, e))?;
        }
    }
    if g.undo().is_ok() {
        return Err("undo past the start succeeded".into());
    }
    if g.board() != &empty || g.board().hash() != 0 || g.board().empty_points().len() != size * size
    {
        return Err(format!(
            "undo did not restore the empty board:\n{}",
            g.board()
        ));
    }
    if g.prisoners(Color::Black) != 0 || g.prisoners(Color::White) != 0 {
        return Err("undo did not restore the prisoners".into());
    }
    if g.move_number() != 0 || g.consecutive_passes() != 0 || g.to_move() != rules.first_player {
        return Err("undo did not restore the record".into());
    }
    stats.games += 1;
    stats.reference_games += with_ref as u64;
    Ok(())
}

/// Plays `games` games, seeds `base..base + games`, the reference alongside every tenth.
fn run(name: &str, size: usize, rules: Rules, games: u64, base: u64) {
    run_with(name, size, rules, games, base, 10);
}

/// As [`run`], with the reference alongside every `ref_every`-th game.
fn run_with(name: &str, size: usize, rules: Rules, games: u64, base: u64, ref_every: u64) {
    let start = std::time::Instant::now();
    let mut stats = Stats::default();
    for game in 0..games {
        let seed = base + game;
        let with_ref = game.is_multiple_of(ref_every);
        let result = catch_unwind(AssertUnwindSafe(|| {
            play_game(size, rules, seed, with_ref, &mut stats)
        }));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!(
                "{}: game {} (seed {:#x}, {}x{} {}, reference {}): {}",
                name, game, seed, size, size, rules.name, with_ref, e
            ),
            Err(_) => panic!(
                "{}: game {} (seed {:#x}, {}x{} {}, reference {}) panicked (message above)",
                name, game, seed, size, size, rules.name, with_ref
            ),
        }
    }
    println!("{}: {:?} in {:.2?}", name, stats, start.elapsed());
    assert!(stats.captures > 0);
    if rules.mover_chooses_removal {
        assert!(stats.own_removals > 0, "{}: no own removal exercised", name);
    }
    if rules.suicide_legal {
        // (On 2x2 every suicide is of one stone, which superko forbids.)
        assert!(
            stats.suicides > 0 || size == 2,
            "{}: no suicide exercised",
            name
        );
    } else {
        assert_eq!(stats.suicides, 0, "{}: suicide under {}", name, rules.name);
    }
}

// 6000 games on 5x5, 3000 on 9x9, 1000 on 19x19, split evenly across the rulesets; one test
// per pair so the harness runs them in parallel.

#[test]
fn random_5x5_japanese() {
    run("5x5 japanese", 5, Rules::japanese(), 2000, 0x0505_0100_0000);
}

#[test]
fn random_5x5_chinese() {
    run("5x5 chinese", 5, Rules::chinese(), 2000, 0x0505_0200_0000);
}

#[test]
fn random_5x5_prejudgement() {
    run(
        "5x5 prejudgement",
        5,
        Rules::prejudgement(),
        2000,
        0x0505_0300_0000,
    );
}

#[test]
fn random_9x9_japanese() {
    run("9x9 japanese", 9, Rules::japanese(), 1000, 0x0909_0100_0000);
}

#[test]
fn random_9x9_chinese() {
    run("9x9 chinese", 9, Rules::chinese(), 1000, 0x0909_0200_0000);
}

#[test]
fn random_9x9_prejudgement() {
    run(
        "9x9 prejudgement",
        9,
        Rules::prejudgement(),
        1000,
        0x0909_0300_0000,
    );
}

#[test]
fn random_19x19_japanese() {
    run(
        "19x19 japanese",
        19,
        Rules::japanese(),
        333,
        0x1919_0100_0000,
    );
}

#[test]
fn random_19x19_chinese() {
    run("19x19 chinese", 19, Rules::chinese(), 333, 0x1919_0200_0000);
}

#[test]
fn random_19x19_prejudgement() {
    run(
        "19x19 prejudgement",
        19,
        Rules::prejudgement(),
        334,
        0x1919_0300_0000,
    );
}

#[test]
fn random_other_sizes() {
    // The smallest boards (where nearly every move is a capture, suicide or repetition), an even
    // size, and the largest (the padded layout's far corner), all with the reference alongside
    // at least every other game.
    for (i, rules) in common::all_rules().into_iter().enumerate() {
        let base = 0x0e0e_0000_0000 + ((i as u64) << 24);
        for (size, games, ref_every) in [
            (2usize, 300u64, 1u64),
            (3, 300, 1),
            (4, 200, 1),
            (6, 60, 2),
            (13, 12, 2),
            (25, 4, 2),
        ] {
            let name = format!("{}x{} {}", size, size, rules.name);
            run_with(
                &name,
                size,
                rules,
                games,
                base + ((size as u64) << 16),
                ref_every,
            );
        }
    }
}

/// A random legal move for `c` on `b`, if any.
fn random_legal(b: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    let mut cands = b.empty_points().to_vec();
    while !cands.is_empty() {
        let p = cands.swap_remove(rng.usize(..cands.len()));
        if b.is_legal(p, c) {
            return Some(p);
        }
    }
    None
}

#[test]
fn copy_from_gives_the_same_board() {
    // Random games on the board alone. After every move the position is copied into a board of
    // the same size that has gone its own way, and into one of another size; each copy must be
    // the board itself, pass `verify`, and stay the same board when the game goes on from it.
    let sizes = [2usize, 5, 9, 13, 19, 25];
    let mut copies = 0;
    for (i, &size) in sizes.iter().enumerate() {
        let other_size = sizes[(i + 1) % sizes.len()];
        let mut rng = fastrand::Rng::with_seed(0xc0b1 + size as u64);
        let mut b = Board::new(size).unwrap();
        let mut same = Board::new(size).unwrap();
        let mut other = Board::new(other_size).unwrap();
        let mut color = Color::Black;
        for k in 0..3 * size * size {
            // The kept board diverges: a random move of its own, then the copy.
            if let Some(p) = random_legal(&same, color.opponent(), &mut rng) {
                same.play(p, color.opponent());
            }
            same.copy_from(&b);
            other.copy_from(&b);
            for copy in [&same, &other] {
                same_board(copy, &b)
                    .unwrap_or_else(|e| panic!("{}x{} move {}: {}", size, size, k, e));
                copy.verify()
                    .unwrap_or_else(|e| panic!("{}x{} move {}: {}", size, size, k, e));
            }
            copies += 2;
            let mv = if rng.f64() < 0.05 {
                None
            } else {
                random_legal(&b, color, &mut rng)
            };
            for copy in [&mut same, &mut other] {
                match mv {
                    Some(p) => assert_eq!(copy.play(p, color), b.clone().play(p, color)),
                    None => copy.pass(),
                }
            }
            match mv {
                Some(p) => {
                    b.play(p, color);
                }
                None => b.pass(),
            }
            for copy in [&same, &other] {
                same_board(copy, &b)
                    .unwrap_or_else(|e| panic!("{}x{} after move {}: {}", size, size, k, e));
                copy.verify().unwrap();
            }
            other = Board::new(other_size).unwrap();
            color = color.opponent();
        }
    }
    assert!(copies > 1000);
}
