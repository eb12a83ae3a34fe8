//! The player in positions whose right move a Go player knows: captures and escapes that decide
//! the game, eyes it must not fill, the vital point of an eye shape, passing at the end under
//! each ruleset, and reproducible searches.

use tengen::board::{Color, Move, Point};
use tengen::game::Game;
use tengen::rules::{HalfPoints, Rules};
use tengen::search::{Config, Decision, Player};

fn player(playouts: u64, seed: u64) -> Player {
    Player::new(Config {
        threads: 1,
        playouts: Some(playouts),
        seed: Some(seed),
        resign: None,
        max_memory_mb: 256,
        ..Config::default()
    })
}

fn at(g: &Game, col: usize, row: usize) -> Move {
    Move::Play(g.board().point(col, row))
}

#[test]
fn captures_the_group_in_atari_that_decides_the_game() {
    // White's wall on the third line: if the five stones in atari run out at B6 they can
    // reach it down the B column and take Black's centre; captured, they leave Black the top
    // and the centre. Without the wall Black wins either way, and the choice between the
    // capture and a move elsewhere rests on margins alone (captured at 44 of seeds 1–60 before
    // the playouts' shape replies were weighted by the learned 3×3 shapes, at 18 after).
    let rows = [
        ".........",
        ".........",
        "..XXXXX..",
        "..OOOOOX.",
        "..XXXXX..",
        ".........",
        "OOOOOOOOO",
        ".........",
        ".........",
    ];
    // Area counting only: under territory counting the five stones are worth the same ten
    // points whether captured now or lifted as dead at the end. Judged over seeds, not by one:
    // a seeded search follows the playouts' random numbers, and one search may prefer A5
    // (seeds 1, 4, 9, 19 of 1–20; the capture at 34 of seeds 1–40).
    let g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
    let captures = (1..=20)
        .filter(|&seed| {
            player(3000, seed).genmove(&g, Color::Black, false) == Decision::Play(at(&g, 1, 3))
        })
        .count();
    assert!(captures >= 15, "captured in {} of 20 searches", captures);
}

#[test]
fn saves_its_own_big_group_in_atari() {
    let rows = [
        ".........",
        ".........",
        ".........",
        ".......X.",
        "..OOOO...",
        ".OXXXX...",
        "..OOOO...",
        ".......X.",
        ".........",
    ];
    for rules in [Rules::chinese(), Rules::japanese()] {
        let g = Game::from_diagram(&rows, rules).unwrap();
        let d = player(3000, 2).genmove(&g, Color::Black, false);
        assert_eq!(d, Decision::Play(at(&g, 6, 5)), "{}", rules.name);
    }
}

#[test]
fn plays_the_vital_point_of_a_straight_three() {
    // Black's group lives only with the middle point of its straight three; White's group
    // around it has many eyes; with komi -50 Black's life decides the game.
    let rows = [
        ".O.O.O.O.",
        "OOOOOOOOO",
        "O.O.O.O.O",
        "OOOOOOOOO",
        ".O.O.O.O.",
        "OOOOOO.O.",
        "XXXXXOOOO",
        "X...XO.O.",
        "XXXXXOO.O",
    ];
    let mut g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
    g.set_komi(HalfPoints::points(-50));
    let d = player(5000, 3).genmove(&g, Color::Black, false);
    assert_eq!(d, Decision::Play(at(&g, 2, 7)));
    // And White, to move, kills it on the same point.
    let d = player(5000, 4).genmove(&g, Color::White, false);
    assert_eq!(d, Decision::Play(at(&g, 2, 7)));
}

#[test]
fn never_fills_its_own_eye() {
    // Black owns the whole board but for two eyes: the only moves are eye fills, so it passes.
    let rows = [".XXXX", "XXXXX", "XXXXX", "XXXXX", "XXXX."];
    let g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
    let d = player(500, 5).genmove(&g, Color::Black, false);
    assert_eq!(d, Decision::Play(Move::Pass));
}

/// A finished 9×9 game: Black walls off columns A–E, White F–J, no dame.
const FINISHED: [&str; 9] = [
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XO...",
];

#[test]
fn passes_at_the_end_of_a_finished_game_under_each_ruleset() {
    for rules in [Rules::chinese(), Rules::japanese()] {
        let mut g = Game::from_diagram(&FINISHED, rules).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        let d = player(2000, 6).genmove(&g, Color::Black, false);
        assert_eq!(d, Decision::Play(Move::Pass), "{}", rules.name);
    }
    // Pre-judgement: the opening's four stones are part of the walls; then White passes.
    let mut rows = FINISHED;
    rows[0] = ".........";
    rows[1] = ".........";
    let mut g = Game::from_diagram(&rows, Rules::prejudgement()).unwrap();
    for (c, col, row) in [
        (Color::White, 5, 0),
        (Color::Black, 4, 0),
        (Color::White, 5, 1),
        (Color::Black, 4, 1),
    ] {
        let mv = at(&g, col, row);
        g.play(c, mv).unwrap();
    }
    g.play(Color::White, Move::Pass).unwrap();
    let d = player(2000, 7).genmove(&g, Color::Black, false);
    assert_eq!(d, Decision::Play(Move::Pass), "prejudgement");
}

#[test]
fn does_not_pass_while_losing_and_moves_remain() {
    // White passed, but Black is behind on the board (komi 20): Black plays on rather than
    // accept a lost count.
    let mut g = Game::from_diagram(&FINISHED, Rules::chinese()).unwrap();
    g.set_komi(HalfPoints::points(20));
    let rows_open = g.board().empty_points().len();
    assert!(rows_open > 0);
    g.play(Color::White, Move::Pass).unwrap();
    let d = player(1000, 8).genmove(&g, Color::Black, false);
    assert_ne!(d, Decision::Play(Move::Pass));
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let g = Game::new(9, Rules::chinese()).unwrap();
    let a = player(1500, 42).genmove(&g, Color::Black, false);
    let mut p = player(1500, 42);
    let b = p.genmove(&g, Color::Black, false);
    let c = p.genmove(&g, Color::Black, false);
    assert_eq!(a, b);
    assert_eq!(b, c);
}

#[test]
fn tiny_budgets_still_give_legal_moves() {
    let g = Game::new(19, Rules::japanese()).unwrap();
    for playouts in [0, 1, 10] {
        let mut p = Player::new(Config {
            threads: 2,
            playouts: Some(playouts),
            max_memory_mb: 1,
            ..Config::default()
        });
        match p.genmove(&g, Color::Black, false) {
            Decision::Play(mv) => assert!(g.is_legal(Color::Black, mv)),
            Decision::Resign => panic!("resigned on an empty board"),
        }
    }
}

#[test]
fn dead_stones_are_judged_from_ownership() {
    // A lone White stone inside Black's small finished area is dead; the walls are alive.
    let rows = [
        "..XO.....",
        "..XO.....",
        "..XO.....",
        "..XO.....",
        "O.XO.....",
        "..XO.....",
        "..XO.....",
        "..XO.....",
        "..XO.....",
    ];
    let g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
    let mut p = player(0, 9);
    let dead = p.dead_stones(&g);
    let lone: Point = g.board().point(0, 4);
    assert_eq!(dead, vec![lone], "ownership {:?}", p.ownership());
}

#[test]
fn fills_the_dame_before_passing_under_japanese_rules() {
    let mut rows = FINISHED;
    rows[4] = "....X.O..";
    let mut g = Game::from_diagram(&rows, Rules::japanese()).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    let d = player(2000, 10).genmove(&g, Color::Black, false);
    assert_eq!(d, Decision::Play(at(&g, 5, 4)));
    // With the dame filled, passing is right.
    g.play(Color::Black, at(&g, 5, 4)).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    let d = player(2000, 11).genmove(&g, Color::Black, false);
    assert_eq!(d, Decision::Play(Move::Pass));
}

#[test]
fn mean_margin_follows_the_count_and_the_komi() {
    // Black 45 points, White 36: with komi 7.5 the count is B+1.5; playouts wander in the big
    // open areas (invasions live now and then, more often in the bigger area, and the tree
    // tries the invasions the learned patterns like), so the mean is near it, and moving the
    // komi moves the mean by about as much (the search itself changes a little with the komi,
    // and with it the pool of the tree's best moves that the playouts draw on: 19.0 points
    // here). A komi counted with the wrong sign or twice would move it by 0 or 35.
    let mut g = Game::from_diagram(&FINISHED, Rules::chinese()).unwrap();
    let r = player(2000, 12)
        .analyse(&g, Color::Black, Some(2000), None)
        .mean_margin;
    assert!((r - 1.5).abs() < 5.0, "mean margin {}", r);
    g.set_komi(HalfPoints::points(-10));
    let shifted = player(2000, 12)
        .analyse(&g, Color::Black, Some(2000), None)
        .mean_margin;
    assert!((shifted - r - 17.5).abs() < 2.5, "{} then {}", r, shifted);
}

#[test]
fn prejudgement_placements_keep_the_game_close() {
    // In the opening nobody has a colour yet: the player places its stones for balance. On 7×7,
    // all four placements are legal stones in the order W, B, W, B, and the position they leave
    // is close by the player's own estimate.
    let mut g = Game::new(7, Rules::prejudgement()).unwrap();
    let mut p = Player::new(Config {
        threads: 1,
        playouts: Some(3000),
        seed: Some(13),
        ..Config::default()
    });
    for expected in [Color::White, Color::Black, Color::White, Color::Black] {
        assert!(g.in_opening());
        match p.genmove(&g, expected, false) {
            Decision::Play(mv) => {
                assert_ne!(mv, Move::Pass);
                g.play(expected, mv).unwrap();
            }
            Decision::Resign => panic!("resigned in the opening"),
        }
    }
    assert!(!g.in_opening());
    let r = p.analyse(&g, Color::White, Some(3000), None);
    assert!(r.mean_margin.abs() < 10.0, "mean margin {}", r.mean_margin);
}

/// White's first two decisions in a five-stone handicap game on 9×9 (komi 0.5), resigning
/// below a 30% win rate.
fn white_decisions(handicap: bool) -> Vec<Decision> {
    let mut g = Game::new(9, Rules::chinese()).unwrap();
    g.set_komi(HalfPoints(1));
    let b = g.board().clone();
    let stones = [
        b.point(2, 6),
        b.point(6, 2),
        b.point(2, 2),
        b.point(6, 6),
        b.point(4, 4),
    ];
    if handicap {
        g.place_handicap(&stones).unwrap();
    } else {
        // The same stones set up as a position: no handicap, so no dynamic komi.
        let setup: Vec<_> = stones.iter().map(|&p| (p, Some(Color::Black))).collect();
        g.setup(&setup).unwrap();
    }
    let mut p = Player::new(Config {
        threads: 1,
        playouts: Some(3000),
        seed: Some(5),
        resign: Some(0.3),
        max_memory_mb: 256,
        ..Config::default()
    });
    let mut decisions = Vec::new();
    for _ in 0..2 {
        let d = p.genmove(&g, Color::White, false);
        decisions.push(d);
        let Decision::Play(mv) = d else { break };
        g.play(Color::White, mv).unwrap();
        let Decision::Play(reply) = p.genmove(&g, Color::Black, false) else {
            break;
        };
        g.play(Color::Black, reply).unwrap();
    }
    decisions
}

#[test]
fn gives_a_handicap_without_resigning_at_once() {
    // Five stones on 9×9 are a lost game for White by any honest count: with the same stones
    // as a plain position, White's win rate is near 10% and it resigns at its second search.
    // As handicap, dynamic komi keeps White playing for what it can still change.
    let plain = white_decisions(false);
    assert_eq!(plain.last(), Some(&Decision::Resign), "{:?}", plain);
    let handicap = white_decisions(true);
    assert_eq!(handicap.len(), 2);
    assert!(
        handicap.iter().all(|d| matches!(d, Decision::Play(_))),
        "{:?}",
        handicap
    );
}

#[test]
fn opens_on_the_third_and_fourth_lines_of_a_big_board() {
    // The first moves of both colours on an empty 19×19 board, over several seeds: never on the
    // first line, nearly always on the third or fourth, where play starts, and at most one on the
    // second. At 5,000 playouts the values of the opening moves differ by less than their noise
    // (a second-line move is about one in a hundred over sixty seeds), so "never" would hold by
    // the seeds' luck.
    let mut lines = Vec::new();
    for seed in 1..=6 {
        let mut g = Game::new(19, Rules::chinese()).unwrap();
        let mut color = Color::Black;
        for _ in 0..4 {
            let Decision::Play(mv) = player(5000, seed).genmove(&g, color, false) else {
                panic!("resigned on an empty board");
            };
            let Move::Play(p) = mv else {
                panic!("passed in the opening");
            };
            let (col, row) = g.board().coords(p);
            lines.push(1 + col.min(row).min(18 - col).min(18 - row));
            g.play(color, mv).unwrap();
            color = color.opponent();
        }
    }
    assert!(lines.iter().all(|&l| l >= 2), "lines {:?}", lines);
    let second = lines.iter().filter(|&&l| l == 2).count();
    assert!(second <= 1, "lines {:?}", lines);
    let third_or_fourth = lines.iter().filter(|&&l| l == 3 || l == 4).count();
    assert!(third_or_fourth * 10 >= lines.len() * 8, "lines {:?}", lines);
}

#[test]
fn reads_the_race_of_a_big_group_with_one_eye() {
    // White's top-left group of seven stones (A8 … D9) has one eye, A9, and one outside
    // liberty, E9, where a Black stone is safe; Black's four stones A7 … D7 below it have three
    // liberties that White can fill from its wall. Black wins the race whoever moves first,
    // and the game with it (about B+13 by area). Playouts that left the race to chance let
    // White's group live in two of three and gave White the game (White's value 0.67 at
    // 5,000 playouts before the race reading).
    let rows = [
        ".OOO.X...",
        "OOOOXX...",
        "XXXXOX...",
        "...OOX...",
        "OOOOOX...",
        "....OX...",
        "....OX...",
        "....OX...",
        "....OX...",
    ];
    let g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
    let mut p = player(3000, 1);
    let value = p.analyse(&g, Color::White, Some(3000), None).value;
    assert!(value < 0.4, "White's value {value}");
    // The search's playouts give White's group to Black.
    let b8 = g
        .board()
        .points()
        .position(|q| q == g.board().point(1, 1))
        .unwrap();
    assert!(p.ownership()[b8] > 0.4, "B8 owned {}", p.ownership()[b8]);
}
