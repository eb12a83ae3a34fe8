//! tengen's perft against the independent reference rules of `tests/common/reference.rs`: empty
//! boards, positions reached by random play (kos, near-full boards, the pre-judgement opening)
//! and hand-built repetition cycles that separate basic ko from positional superko.

mod common;

use common::reference::{parse_diagram, RefGame, RefMove};
use common::{all_rules, check_perft, describe, play_both, setup_both, stone, tengen_stones};
use tengen::board::{BoardError, Color, Move, Removal};
use tengen::game::{Game, GameError};
use tengen::perft::perft;
use tengen::rules::{KoRule, Rules};

fn both_empty(n: usize, rules: Rules) -> (Game, RefGame) {
    (Game::new(n, rules).unwrap(), RefGame::new(n, rules))
}

#[test]
fn empty_2x2() {
    for rules in all_rules() {
        let (g, r) = both_empty(2, rules);
        let counts = check_perft(&g, &r, 10, &format!("2x2 {}", rules.name));
        println!("2x2 {}: {:?}", rules.name, counts);
    }
}

#[test]
fn empty_3x3() {
    for rules in all_rules() {
        let (g, r) = both_empty(3, rules);
        let counts = check_perft(&g, &r, 7, &format!("3x3 {}", rules.name));
        println!("3x3 {}: {:?}", rules.name, counts);
    }
}

#[test]
fn empty_4x4() {
    for rules in all_rules() {
        let (g, r) = both_empty(4, rules);
        let counts = check_perft(&g, &r, 5, &format!("4x4 {}", rules.name));
        println!("4x4 {}: {:?}", rules.name, counts);
    }
}

#[test]
fn empty_5x5() {
    for rules in all_rules() {
        let (g, r) = both_empty(5, rules);
        let counts = check_perft(&g, &r, 4, &format!("5x5 {}", rules.name));
        println!("5x5 {}: {:?}", rules.name, counts);
    }
}

#[test]
fn setup_positions() {
    // Random set-up positions (every group keeps a liberty), so the game starts with stones on
    // the board and the start position is the first one superko remembers.
    let mut cov = Coverage::default();
    for rules in all_rules() {
        for (n, count, depth) in [(3usize, 40u64, 4u32), (4, 30, 3), (5, 20, 3)] {
            for k in 0..count {
                let seed = 0x5e70_0000 + (n as u64) * 1000 + k;
                let mut rng = fastrand::Rng::with_seed(seed);
                let stones = random_arrangement(n, &mut rng);
                let (g, r) = setup_both(n, rules, &stones);
                cov.record(&r);
                let ctx = format!(
                    "{} {}x{} setup seed {:#x}\n{}",
                    rules.name,
                    n,
                    n,
                    seed,
                    r.diagram()
                );
                check_perft(&g, &r, depth, &ctx);
                // A second setup that clears some stones (SGF `AE`): the board is rebuilt and
                // the new arrangement becomes the start position.
                let mut g2 = g.clone();
                let mut cleared = stones.clone();
                let b = g.board();
                let mut edits = Vec::new();
                for (i, s) in stones.iter().enumerate() {
                    if s.is_some() && rng.f64() < 0.35 {
                        cleared[i] = None;
                        edits.push((b.point(i % n, i / n), None));
                    }
                }
                g2.setup(&edits)
                    .expect("clearing stones is always a valid setup");
                g2.board().verify().unwrap();
                assert_eq!(tengen_stones(g2.board()), cleared, "{}", ctx);
                let r2 = RefGame::from_stones(n, rules, cleared);
                check_perft(&g2, &r2, depth - 1, &format!("{} after clearing", ctx));
            }
        }
    }
    println!("{:?}", cov);
    assert!(cov.own_moves > 0 && cov.suicides > 0, "{:?}", cov);
}

/// A random stone arrangement in which every group has a liberty: points filled at random with
/// a random density, skipping any stone that would leave a group without liberties.
fn random_arrangement(n: usize, rng: &mut fastrand::Rng) -> Vec<Option<Color>> {
    use common::reference::group_and_liberties;
    let mut stones = vec![None; n * n];
    let fill = 0.4 + 0.5 * rng.f64();
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    for i in order {
        if rng.f64() > fill {
            continue;
        }
        stones[i] = Some(if rng.bool() {
            Color::Black
        } else {
            Color::White
        });
        let ok = (0..n * n)
            .all(|q| stones[q].is_none() || !group_and_liberties(&stones, n, q).1.is_empty());
        if !ok {
            stones[i] = None;
        }
    }
    stones
}

#[test]
fn known_small_counts() {
    // Both implementations agree on these; pinned so that a change to either shows.
    let pinned: [(Rules, &[u64]); 3] = [
        (
            Rules::japanese(),
            &[1, 5, 21, 68, 156, 316, 604, 1168, 2592, 5768, 12120],
        ),
        (
            Rules::chinese(),
            &[1, 5, 21, 68, 156, 316, 604, 1088, 2184, 4184, 8024],
        ),
        (
            Rules::prejudgement(),
            &[1, 4, 12, 24, 32, 96, 224, 416, 912, 2064, 4528],
        ),
    ];
    for (rules, counts) in pinned {
        let g = Game::new(2, rules).unwrap();
        for (d, &c) in counts.iter().enumerate() {
            assert_eq!(perft(&g, d as u32), c, "2x2 {} depth {}", rules.name, d);
        }
    }
    let g = Game::new(3, Rules::chinese()).unwrap();
    assert_eq!(perft(&g, 7), 842696);
    let g = Game::new(3, Rules::japanese()).unwrap();
    assert_eq!(perft(&g, 7), 842728);

    // Hand-checkable: 2x2 Chinese, four points and a pass.
    let (g, _) = both_empty(2, Rules::chinese());
    assert_eq!(perft(&g, 1), 5);
    // Pre-judgement: no pass in the opening, 4 then 3 placements.
    let (g, _) = both_empty(2, Rules::prejudgement());
    assert_eq!(perft(&g, 1), 4);
    assert_eq!(perft(&g, 2), 12);
    // After pass-pass the game is over: nothing further is counted.
    let mut g = Game::new(3, Rules::japanese()).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    assert_eq!(perft(&g, 0), 1);
    assert_eq!(perft(&g, 1), 0);
    assert_eq!(perft(&g, 3), 0);
}

#[test]
fn prejudgement_opening_can_run_out_of_moves_on_2x2() {
    // W (0,0), B (1,0), W (1,1) captures; Black's fourth placement has only one-stone suicides,
    // which recreate the position (superko), and no pass is allowed in the opening: no legal
    // move at all. RULES.md does not say what happens then; both implementations count none.
    let rules = Rules::prejudgement();
    let (mut g, mut r) = both_empty(2, rules);
    for (col, row) in [(0, 0), (1, 0), (1, 1)] {
        play_both(&mut g, &mut r, stone(col, row));
    }
    assert!(g.in_opening() && !g.is_over());
    assert!(tengen::perft::legal_moves(&g).is_empty());
    assert!(r.legal_moves().is_empty());
    assert_eq!(perft(&g, 1), 0);
}

/// Statistics of what the checked positions exercised, so a test can show it reached the rules it
/// is meant to check.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    /// Legal own-removal choices (mutual capture, pre-judgement).
    own_moves: usize,
    /// Legal suicides.
    suicides: usize,
    /// Stones that the ko or superko rule forbade.
    repetition_forbidden: usize,
    /// Legal moves that recreate an earlier position (basic-ko rules only).
    repeating_allowed: usize,
    /// Positions right after a pass (where a pass ends the game).
    after_pass: usize,
}

impl Coverage {
    fn record(&mut self, r: &RefGame) {
        use common::reference::placements;
        self.positions += 1;
        self.after_pass += (r.passes == 1) as usize;
        if r.passes >= 2 {
            return;
        }
        let color = r.mover();
        for row in 0..r.n {
            for col in 0..r.n {
                let all = placements(&r.rules, &r.stones, r.n, row * r.n + col, color);
                let legal = r.stone_options(color, col, row);
                self.repetition_forbidden += all.len() - legal.len();
                for (m, p) in &legal {
                    if matches!(m, RefMove::Play { own: true, .. }) {
                        self.own_moves += 1;
                    } else if p.lost > 0 {
                        self.suicides += 1;
                    }
                    if r.positions.contains(&p.result) {
                        self.repeating_allowed += 1;
                    }
                }
            }
        }
    }
}

/// Plays one random legal move in both games (tengen chooses, the reference must agree), with a
/// pass with probability `pass_prob` where passing is allowed. Returns false if no move is legal.
fn random_move(g: &mut Game, r: &mut RefGame, rng: &mut fastrand::Rng, pass_prob: f64) -> bool {
    let rules = *g.rules();
    let color = rules.opening_color(g.move_number()).unwrap_or(g.to_move());
    assert_eq!(color, r.mover());
    let pass_ok = rules.pass_allowed(g.move_number());
    if pass_ok && rng.f64() < pass_prob {
        play_both(g, r, RefMove::Pass);
        return true;
    }
    let mut cands = g.board().empty_points().to_vec();
    cands.sort();
    while !cands.is_empty() {
        let p = cands.swap_remove(rng.usize(..cands.len()));
        let own =
            rules.mover_chooses_removal && g.board().is_mutual_capture(p, color) && rng.bool();
        let removal = if own { Removal::Own } else { Removal::Opponent };
        let (col, row) = g.board().coords(p);
        let t = g.play_with(color, Move::Play(p), removal);
        let e = r.play_stone(color, col, row, own);
        assert_eq!(
            t.is_ok(),
            e.is_ok(),
            "legality of ({},{}) own={} for {:?}: tengen {:?}, reference {:?}\n{}",
            col,
            row,
            own,
            color,
            t,
            e,
            describe(r)
        );
        if t.is_ok() {
            assert_eq!(tengen_stones(g.board()), r.stones, "{}", describe(r));
            return true;
        }
    }
    if pass_ok {
        play_both(g, r, RefMove::Pass);
        true
    } else {
        false
    }
}

#[test]
fn random_positions() {
    // Positions along random games, checked every few moves.
    let mut cov = Coverage::default();
    for rules in all_rules() {
        for (n, games, depth, every) in [
            (3usize, 20u64, 5u32, 2usize),
            (4, 16, 4, 3),
            (5, 10, 3, 5),
            (7, 4, 2, 10),
        ] {
            for game in 0..games {
                let seed = 0x9e37_0000 + (n as u64) * 1000 + game;
                let mut rng = fastrand::Rng::with_seed(seed);
                let (mut g, mut r) = both_empty(n, rules);
                for k in 1..=4 * n * n {
                    if g.is_over() || !random_move(&mut g, &mut r, &mut rng, 0.04) {
                        break;
                    }
                    if k.is_multiple_of(every) {
                        cov.record(&r);
                        let ctx = format!(
                            "{} {}x{} seed {:#x} after {} moves",
                            rules.name, n, n, seed, k
                        );
                        check_perft(&g, &r, depth, &ctx);
                    }
                }
            }
        }
    }
    println!("{:?}", cov);
    assert!(cov.positions > 300 && cov.after_pass > 0, "{:?}", cov);
}

#[test]
fn ko_positions() {
    // Right after a single-stone capture (a ko, or what looks like one), with the retake the
    // question at depth 1 and its consequences below.
    let mut cov = Coverage::default();
    for rules in all_rules() {
        let mut found = 0;
        'games: for game in 0..400u64 {
            for (n, depth) in [(4usize, 4u32), (5, 3)] {
                let seed = 0x6b6f_0000 + (n as u64) * 1000 + game;
                let mut rng = fastrand::Rng::with_seed(seed);
                let (mut g, mut r) = both_empty(n, rules);
                for k in 1..=3 * n * n {
                    let before = g.prisoners(Color::Black) + g.prisoners(Color::White);
                    if g.is_over() || !random_move(&mut g, &mut r, &mut rng, 0.02) {
                        break;
                    }
                    let after = g.prisoners(Color::Black) + g.prisoners(Color::White);
                    if after == before + 1 && g.board().ko().is_some() {
                        found += 1;
                        cov.record(&r);
                        let ctx = format!(
                            "{} {}x{} seed {:#x} ko after {} moves",
                            rules.name, n, n, seed, k
                        );
                        check_perft(&g, &r, depth, &ctx);
                        if found >= 60 {
                            break 'games;
                        }
                    }
                }
            }
        }
        assert!(found >= 60, "{}: only {} ko positions", rules.name, found);
    }
    println!("{:?}", cov);
    assert!(cov.repetition_forbidden > 0);
}

#[test]
fn near_full_boards() {
    // Long random games without voluntary passes fill small boards; positions with few empty
    // points are where suicide, mutual capture and superko decide most moves.
    let mut cov = Coverage::default();
    for rules in all_rules() {
        for (n, games, depth, max_empty) in [
            (2usize, 30u64, 6u32, 2usize),
            (3, 30, 5, 3),
            (4, 16, 4, 4),
            (5, 6, 3, 5),
        ] {
            for game in 0..games {
                let seed = 0xf011_0000 + (n as u64) * 1000 + game;
                let mut rng = fastrand::Rng::with_seed(seed);
                let (mut g, mut r) = both_empty(n, rules);
                let mut checked = 0;
                for k in 1..=6 * n * n {
                    if g.is_over() || !random_move(&mut g, &mut r, &mut rng, 0.0) {
                        break;
                    }
                    if g.board().empty_points().len() <= max_empty
                        && checked < 4
                        && k.is_multiple_of(3)
                    {
                        checked += 1;
                        cov.record(&r);
                        let ctx = format!(
                            "{} {}x{} seed {:#x} near full after {} moves",
                            rules.name, n, n, seed, k
                        );
                        check_perft(&g, &r, depth, &ctx);
                    }
                }
            }
        }
    }
    println!("{:?}", cov);
    assert!(
        cov.own_moves > 0,
        "no mutual-capture choice was exercised: {:?}",
        cov
    );
    assert!(
        cov.suicides > 0,
        "no legal suicide was exercised: {:?}",
        cov
    );
    assert!(cov.repetition_forbidden > 0, "{:?}", cov);
    assert!(
        cov.repeating_allowed > 0,
        "no basic-ko cycle move was exercised: {:?}",
        cov
    );
}

#[test]
fn prejudgement_mid_opening() {
    let rules = Rules::prejudgement();
    let mut cov = Coverage::default();
    for (n, games, depth) in [(2usize, 8u64, 6u32), (3, 8, 4), (4, 6, 3), (5, 4, 3)] {
        for game in 0..games {
            for placed in 1..=3usize {
                let seed = 0x0be0_0000 + (n as u64) * 1000 + game;
                let mut rng = fastrand::Rng::with_seed(seed);
                let (mut g, mut r) = both_empty(n, rules);
                for _ in 0..placed {
                    assert!(random_move(&mut g, &mut r, &mut rng, 0.5));
                }
                assert!(g.in_opening());
                assert!(!g.is_legal(g.to_move(), Move::Pass));
                cov.record(&r);
                let ctx = format!(
                    "prejudgement {}x{} seed {:#x} after {} placements",
                    n, n, seed, placed
                );
                check_perft(&g, &r, depth, &ctx);
            }
        }
    }
    println!("{:?}", cov);
}

/// A custom ruleset: pre-judgement with only basic ko, to isolate what superko forbids.
fn prejudgement_basic_ko() -> Rules {
    Rules {
        ko: KoRule::Basic,
        ..Rules::prejudgement()
    }
}

/// Both games set up from a diagram drawn for Black (`X`) moving first, colour-swapped where
/// the rules' first player is White (pre-judgement): tengen's through `Game::from_diagram`, the
/// reference's through its own parser.
fn both_from_diagram(rules: Rules, rows: &[&str]) -> (Game, RefGame) {
    let swap = rules.first_player == Color::White;
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'X' if swap => 'O',
                    'O' if swap => 'X',
                    c => c,
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let g = Game::from_diagram(&rows, rules).expect("a valid diagram");
    let (n, stones) = parse_diagram(&rows);
    assert_eq!(
        tengen_stones(g.board()),
        stones,
        "both read the diagram alike"
    );
    (g, RefGame::from_stones(n, rules, stones))
}

/// Plays `moves` (col,row) from a set-up position in both games, then checks that the next
/// stone `cycle` recreates an earlier position: legal under basic ko, a superko violation
/// otherwise. Returns perft(1) for the rules.
fn cycle_case(
    rules: Rules,
    rows: &[&str],
    moves: &[(usize, usize)],
    cycle: (usize, usize),
    depth: u32,
) -> u64 {
    let (mut g, mut r) = both_from_diagram(rules, rows);
    for &(col, row) in moves {
        play_both(&mut g, &mut r, stone(col, row));
    }
    let color = r.mover();
    let p = g.board().point(cycle.0, cycle.1);
    let check = g.check(color, Move::Play(p), Removal::Opponent);
    let ctx = format!("cycle case {}\n{}", rules.name, describe(&r));
    if rules.superko() {
        assert_eq!(check.err(), Some(GameError::Superko), "{}", ctx);
    } else {
        assert!(check.is_ok(), "{}: {:?}", ctx, check.err());
    }
    let counts = if rules == prejudgement_basic_ko() {
        // Not a preset: tengen's board also refuses the own-removal choice (a one-stone
        // "suicide" that changes nothing) on a basic-ko point, which the reference allows; under
        // the presets superko forbids that move anyway. Count with tengen alone.
        (0..=depth).map(|d| perft(&g, d)).collect()
    } else {
        check_perft(&g, &r, depth, &ctx)
    };
    if !rules.superko() {
        // Play the repetition and see it reported.
        play_both(&mut g, &mut r, stone(cycle.0, cycle.1));
        assert!(g.position_repeated(), "{}", ctx);
        assert_eq!(tengen_stones(g.board()), r.positions[0], "{}", ctx);
    }
    counts[1]
}

/// Send two, return one: Black throws in a second stone, White takes both, Black takes the
/// capturing stone back and the start position recurs (with the other side to move). The
/// retake captures one stone but is no basic ko (White's capture took two).
const SEND_TWO: [&str; 4] = [". X . O", "X O O .", ". . . .", ". . . ."];
const SEND_TWO_MOVES: [(usize, usize); 2] = [(2, 0), (0, 0)];
const SEND_TWO_CYCLE: (usize, usize) = (1, 0);

#[test]
fn send_two_return_one() {
    let j = cycle_case(
        Rules::japanese(),
        &SEND_TWO,
        &SEND_TWO_MOVES,
        SEND_TWO_CYCLE,
        4,
    );
    let c = cycle_case(
        Rules::chinese(),
        &SEND_TWO,
        &SEND_TWO_MOVES,
        SEND_TWO_CYCLE,
        4,
    );
    // The same everywhere else: Japanese has exactly one more move.
    assert_eq!(j, c + 1, "japanese {} chinese {}", j, c);
    let p = cycle_case(
        Rules::prejudgement(),
        &SEND_TWO,
        &SEND_TWO_MOVES,
        SEND_TWO_CYCLE,
        4,
    );
    let pb = cycle_case(
        prejudgement_basic_ko(),
        &SEND_TWO,
        &SEND_TWO_MOVES,
        SEND_TWO_CYCLE,
        4,
    );
    // Superko also forbids the one-stone suicides that basic ko allows, so at least one more.
    assert!(pb > p, "basic {} superko {}", pb, p);
}

/// Send two, return one brings back the start with White to move where Black moved: situational
/// superko (AGA, New Zealand) allows the return; triple ko brings it back with the same side to
/// move, which it refuses.
#[test]
fn situational_superko_allows_a_return_with_the_other_side_to_move() {
    for rules in [Rules::aga(), Rules::new_zealand()] {
        let (mut g, mut r) = both_from_diagram(rules, &SEND_TWO);
        for &(col, row) in &SEND_TWO_MOVES {
            play_both(&mut g, &mut r, stone(col, row));
        }
        let ctx = format!("send two, {}\n{}", rules.name, describe(&r));
        check_perft(&g, &r, 4, &ctx);
        play_both(&mut g, &mut r, stone(SEND_TWO_CYCLE.0, SEND_TWO_CYCLE.1));
        assert_eq!(tengen_stones(g.board()), r.positions[0], "{}", ctx);
        check_perft(&g, &r, 4, &ctx);
        cycle_case(rules, &TRIPLE_KO, &TRIPLE_KO_MOVES, TRIPLE_KO_CYCLE, 2);
    }
}

/// Three kos (two on the top edge, one on the bottom): each side always has a ko to take, and
/// after six captures the start position recurs.
const TRIPLE_KO: [&str; 9] = [
    "O . O X . O . O X",
    ". O X . . . O X .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". O X . . . . . .",
    "O X . X . . . . .",
];
const TRIPLE_KO_MOVES: [(usize, usize); 5] = [(1, 0), (2, 8), (6, 0), (2, 0), (1, 8)];
const TRIPLE_KO_CYCLE: (usize, usize) = (7, 0);

#[test]
fn triple_ko() {
    let j = cycle_case(
        Rules::japanese(),
        &TRIPLE_KO,
        &TRIPLE_KO_MOVES,
        TRIPLE_KO_CYCLE,
        2,
    );
    let c = cycle_case(
        Rules::chinese(),
        &TRIPLE_KO,
        &TRIPLE_KO_MOVES,
        TRIPLE_KO_CYCLE,
        2,
    );
    assert_eq!(j, c + 1, "japanese {} chinese {}", j, c);
    let p = cycle_case(
        Rules::prejudgement(),
        &TRIPLE_KO,
        &TRIPLE_KO_MOVES,
        TRIPLE_KO_CYCLE,
        2,
    );
    let pb = cycle_case(
        prejudgement_basic_ko(),
        &TRIPLE_KO,
        &TRIPLE_KO_MOVES,
        TRIPLE_KO_CYCLE,
        2,
    );
    assert!(pb > p, "basic {} superko {}", pb, p);
}

#[test]
fn simple_ko() {
    // White's (1,1) is in atari; the first mover takes it at (2,1) and the one-stone retake at
    // (1,1) is illegal at once under every ruleset, legal again after an exchange elsewhere.
    let rows = [". X O .", "X O . O", ". X O .", ". . . ."];
    for rules in all_rules() {
        let (mut g, mut r) = both_from_diagram(rules, &rows);
        let first = r.mover();
        play_both(&mut g, &mut r, stone(2, 1));
        assert_eq!(g.prisoners(first), 1);
        assert!(g.board().ko().is_some());
        let retake = Move::Play(g.board().point(1, 1));
        let err = g.check(first.opponent(), retake, Removal::Opponent).err();
        assert_eq!(
            err,
            Some(GameError::Board(BoardError::Ko)),
            "{}",
            rules.name
        );
        check_perft(&g, &r, 3, &format!("ko taken, {}", rules.name));
        // A threat and its answer: the retake no longer repeats anything.
        play_both(&mut g, &mut r, stone(3, 3));
        play_both(&mut g, &mut r, stone(0, 3));
        assert!(
            g.check(first.opponent(), retake, Removal::Opponent).is_ok(),
            "{}",
            rules.name
        );
        check_perft(&g, &r, 3, &format!("ko after exchange, {}", rules.name));
        play_both(&mut g, &mut r, stone(1, 1));
    }
}

#[test]
#[ignore = "tengen quirk outside the presets: Board::check refuses every stone of the ko colour on a basic-ko point, also the own-removal choice, which retakes nothing (see the report)"]
fn own_removal_on_a_basic_ko_point() {
    // Only reachable with a ruleset that no preset is: the mover chooses removal (pre-judgement)
    // but only basic ko applies. White takes the ko at (2,1); Black's stone on the ko point
    // (1,1) leaves both sides without liberties, and with Removal::Own it removes itself and
    // captures nothing: no single stone is retaken, so basic ko (RULES.md, 第6条) does not forbid
    // it. tengen answers Board(Ko).
    let rules = prejudgement_basic_ko();
    let rows = [". X O .", "X O . O", ". X O .", ". . . ."];
    let (mut g, mut r) = both_from_diagram(rules, &rows);
    play_both(&mut g, &mut r, stone(2, 1));
    let own = RefMove::Play {
        col: 1,
        row: 1,
        own: true,
    };
    assert!(r.legal_moves().contains(&own));
    let p = g.board().point(1, 1);
    assert!(g.board().is_mutual_capture(p, Color::Black));
    let t = g.check(Color::Black, Move::Play(p), Removal::Own);
    assert!(t.is_ok(), "tengen: {:?}", t.err());
}
