//! The rules of play as a Go player checks them, under each ruleset they concern: captures,
//! suicide, the pre-judgement choice of removal, ko and longer cycles, the pre-judgement
//! opening, and counting (the seeds' worked numbers included).
//!
//! Positions are drawn as rows of text (read by `Game::from_diagram`), top row first: `X` Black,
//! `O` White, `.` empty. Lowercase `x`/`o` are stones that the pre-judgement ruleset places as
//! its four opening moves (White, Black, White, Black in reading order), so that play can follow
//! the opening; the other rulesets get them as setup stones like the uppercase ones. Moves are
//! named as GTP names them ("C3").

use tengen::board::{Board, BoardError, Color, Move, Outcome, Point, Removal};
use tengen::game::{Game, GameError};
use tengen::prejudgement::Predictions;
use tengen::rules::{HalfPoints, Margin, Rules};
use tengen::score::{self, Count, Owner};

const B: Color = Color::Black;
const W: Color = Color::White;
const ALL: [Rules; 3] = [Rules::japanese(), Rules::chinese(), Rules::prejudgement()];
const NO_SUICIDE: [Rules; 2] = [Rules::japanese(), Rules::chinese()];

// --- helpers --------------------------------------------------------------------------------

// What each ruleset should do is decided here from its name, not from the fields under test.
fn is_japanese(rules: Rules) -> bool {
    rules.name == "japanese"
}

fn is_prejudgement(rules: Rules) -> bool {
    rules.name == "prejudgement"
}

/// GTP's column letters: `I` is skipped.
const GTP_COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Parses a GTP vertex ("C3", case-insensitive) on a board of side `size` into (column, row)
/// with row 0 at the top, as `Board::point` takes them. Rows are counted from the bottom.
fn vertex(size: usize, s: &str) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let col = GTP_COLUMNS.find(letter)?;
    let rest = chars.as_str();
    if rest.is_empty() || !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let number: usize = rest.parse().ok()?;
    (col < size && (1..=size).contains(&number)).then(|| (col, size - number))
}

/// The point a GTP vertex names on the game's board.
fn pt(g: &Game, s: &str) -> Point {
    let b = g.board();
    let (col, row) = vertex(b.size(), s).unwrap_or_else(|| panic!("bad vertex {s:?}"));
    b.point(col, row)
}

fn play(g: &mut Game, c: Color, s: &str) -> Result<Outcome, GameError> {
    let p = pt(g, s);
    g.play(c, Move::Play(p))
}

fn play_with(g: &mut Game, c: Color, s: &str, removal: Removal) -> Result<Outcome, GameError> {
    let p = pt(g, s);
    g.play_with(c, Move::Play(p), removal)
}

fn pass(g: &mut Game, c: Color) {
    g.play(c, Move::Pass).expect("a pass is legal here");
}

fn captures(n: u16) -> Result<Outcome, GameError> {
    Ok(Outcome {
        captured: n,
        lost: 0,
    })
}

/// The board as rows of `X`, `O` and `.`, top row first.
fn diagram(b: &Board) -> Vec<String> {
    (0..b.size())
        .map(|row| {
            (0..b.size())
                .map(|col| match b.color(b.point(col, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

/// Asserts the stones on the board (lowercase opening stones read as uppercase) and the board's
/// internal consistency.
fn expect_board(g: &Game, rows: &[&str], ctx: &str) {
    let want: Vec<String> = rows.iter().map(|r| r.to_ascii_uppercase()).collect();
    assert_eq!(diagram(g.board()), want, "{ctx}:\n{}", g.board());
    g.board().verify().unwrap_or_else(|e| panic!("{ctx}: {e}"));
}

/// Who the count gives a point to.
fn owner(c: &Count, g: &Game, s: &str) -> Owner {
    let b = g.board();
    let (col, row) = b.coords(pt(g, s));
    c.owner[row * b.size() + col]
}

fn margin(s: &str) -> Margin {
    Margin::parse(s).unwrap_or_else(|| panic!("bad margin {s:?}"))
}

// --- the helpers themselves ------------------------------------------------------------------

#[test]
fn gtp_vertices_skip_i_and_count_rows_from_the_bottom() {
    assert_eq!(vertex(9, "A1"), Some((0, 8)));
    assert_eq!(vertex(9, "a9"), Some((0, 0)));
    assert_eq!(vertex(9, "J9"), Some((8, 0)), "J is the ninth column");
    assert_eq!(vertex(9, "H3"), Some((7, 6)));
    assert_eq!(vertex(19, "T19"), Some((18, 0)));
    assert_eq!(vertex(25, "Z1"), Some((24, 24)));
    assert_eq!(vertex(9, "I5"), None, "there is no column I");
    assert_eq!(vertex(9, "K5"), None, "off a 9x9 board");
    assert_eq!(vertex(9, "A0"), None);
    assert_eq!(vertex(9, "A10"), None);
    assert_eq!(vertex(9, "A+1"), None);

    // The text diagram and the vertex name agree with the engine's own display.
    let g = Game::from_diagram(
        &[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".........",
            "........O",
        ],
        Rules::japanese(),
    )
    .unwrap();
    assert_eq!(g.board().color(pt(&g, "C3")), Some(B));
    assert_eq!(g.board().color(pt(&g, "J1")), Some(W));
    let shown = g.board().to_string();
    let line = shown.lines().find(|l| l.starts_with(" 3")).unwrap();
    assert_eq!(line, " 3 . . X . . . . . . 3");
}

// --- captures --------------------------------------------------------------------------------

#[test]
fn single_capture() {
    let rows = [
        "o.....x", //
        ".......", //
        "...X...", //
        "..XOX..", //
        ".......", //
        ".......", //
        "x.....o",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(g.board().liberties(pt(&g, "D4")), 1, "{}", rules.name);
        assert_eq!(play(&mut g, B, "D3"), captures(1), "{}", rules.name);
        expect_board(
            &g,
            &[
                "o.....x", //
                ".......", //
                "...X...", //
                "..X.X..", //
                "...X...", //
                ".......", //
                "x.....o",
            ],
            rules.name,
        );
        assert_eq!((g.prisoners(B), g.prisoners(W)), (1, 0), "{}", rules.name);
    }
}

#[test]
fn multi_stone_capture() {
    let rows = [
        "o.....x", //
        "...XX..", //
        "..XOOX.", //
        "..XOX..", //
        ".......", //
        ".......", //
        "x.....o",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(play(&mut g, B, "D3"), captures(3), "{}", rules.name);
        expect_board(
            &g,
            &[
                "o.....x", //
                "...XX..", //
                "..X..X.", //
                "..X.X..", //
                "...X...", //
                ".......", //
                "x.....o",
            ],
            rules.name,
        );
        assert_eq!((g.prisoners(B), g.prisoners(W)), (3, 0), "{}", rules.name);
    }
}

#[test]
fn capture_of_two_groups_at_once() {
    let rows = [
        "o.....x", //
        "....X..", //
        "..XXOX.", //
        ".XO.OX.", //
        "..X.X..", //
        ".......", //
        "x.....o",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        // D4 is the last liberty of both the single stone C4 and the pair E4-E5.
        assert_eq!(play(&mut g, B, "D4"), captures(3), "{}", rules.name);
        expect_board(
            &g,
            &[
                "o.....x", //
                "....X..", //
                "..XX.X.", //
                ".X.X.X.", //
                "..X.X..", //
                ".......", //
                "x.....o",
            ],
            rules.name,
        );
        assert_eq!((g.prisoners(B), g.prisoners(W)), (3, 0), "{}", rules.name);
    }
}

#[test]
fn capture_on_the_edge_and_in_the_corner() {
    let rows = [
        ".XOOX..", //
        "..X....", //
        ".......", //
        "o.x.o.x", //
        ".......", //
        "X......", //
        "O..XOX.",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        // The corner stone has two liberties, the edge stone three, the edge pair three.
        assert_eq!(play(&mut g, B, "B1"), captures(1), "corner, {}", rules.name);
        pass(&mut g, W);
        assert_eq!(play(&mut g, B, "E2"), captures(1), "edge, {}", rules.name);
        pass(&mut g, W);
        assert_eq!(
            play(&mut g, B, "D6"),
            captures(2),
            "edge pair, {}",
            rules.name
        );
        expect_board(
            &g,
            &[
                ".X..X..", //
                "..XX...", //
                ".......", //
                "o.x.o.x", //
                ".......", //
                "X...X..", //
                ".X.X.X.",
            ],
            rules.name,
        );
        assert_eq!((g.prisoners(B), g.prisoners(W)), (4, 0), "{}", rules.name);
    }
}

/// White captures the thrown-in stone and Black at once recaptures seven: prisoners are kept per
/// colour, and undo gives them back.
#[test]
fn snapback_and_prisoners_per_colour() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        ".......", //
        ".......", //
        "XXXXXX.", //
        "XOOOOX.", //
        "XO..OX.",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(
            play(&mut g, B, "C1"),
            captures(0),
            "throw-in, {}",
            rules.name
        );
        assert_eq!(g.board().liberties(pt(&g, "B2")), 1, "White in atari");
        assert_eq!(play(&mut g, W, "D1"), captures(1), "{}", rules.name);
        assert_eq!((g.prisoners(B), g.prisoners(W)), (0, 1), "{}", rules.name);
        assert_eq!(
            play(&mut g, B, "C1"),
            captures(7),
            "snapback, {}",
            rules.name
        );
        expect_board(
            &g,
            &[
                "o.x.o.x", //
                ".......", //
                ".......", //
                ".......", //
                "XXXXXX.", //
                "X....X.", //
                "X.X..X.",
            ],
            rules.name,
        );
        assert_eq!((g.prisoners(B), g.prisoners(W)), (7, 1), "{}", rules.name);
        g.undo().unwrap();
        assert_eq!(
            (g.prisoners(B), g.prisoners(W)),
            (0, 1),
            "after undo, {}",
            rules.name
        );
    }
}

// --- suicide ---------------------------------------------------------------------------------

#[test]
fn single_stone_suicide_is_refused_by_every_ruleset() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        "...O...", //
        "..O.O..", //
        "...O...", //
        "O......", //
        ".O.....",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        let before = diagram(g.board());
        let moves = g.move_number();
        for v in ["D4", "A1"] {
            let r = play(&mut g, B, v);
            if is_prejudgement(rules) {
                // Legal as suicide, but it recreates the position it was played on.
                assert_eq!(r, Err(GameError::Superko), "{v}, {}", rules.name);
            } else {
                assert_eq!(
                    r,
                    Err(GameError::Board(BoardError::Suicide)),
                    "{v}, {}",
                    rules.name
                );
            }
            assert!(!g.is_legal(B, Move::Play(pt(&g, v))), "{v}, {}", rules.name);
        }
        assert_eq!(diagram(g.board()), before, "a refused move changes nothing");
        assert_eq!(g.move_number(), moves);
        assert_eq!((g.prisoners(B), g.prisoners(W)), (0, 0));
        // The point itself is playable by White.
        assert_eq!(play(&mut g, W, "D4"), captures(0), "{}", rules.name);
    }
}

#[test]
fn group_suicide_is_legal_only_under_prejudgement() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        "...O...", //
        "..OXO..", //
        "..O.O..", //
        "...O...", //
        ".......",
    ];
    for rules in NO_SUICIDE {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(
            play(&mut g, B, "D3"),
            Err(GameError::Board(BoardError::Suicide)),
            "{}",
            rules.name
        );
        expect_board(&g, &rows, rules.name);
        assert_eq!((g.prisoners(B), g.prisoners(W)), (0, 0));
    }
    let mut g = Game::from_diagram(&rows, Rules::prejudgement()).unwrap();
    assert_eq!(
        play(&mut g, B, "D3"),
        Ok(Outcome {
            captured: 0,
            lost: 2
        })
    );
    expect_board(
        &g,
        &[
            "o.x.o.x", //
            ".......", //
            "...O...", //
            "..O.O..", //
            "..O.O..", //
            "...O...", //
            ".......",
        ],
        "after the suicide",
    );
    assert_eq!(
        (g.prisoners(B), g.prisoners(W)),
        (0, 2),
        "White gets the two stones"
    );
    assert!(!g.position_repeated());
}

/// A group suicide that recreates an earlier position is refused even where suicide is legal:
/// Black plays D4 into atari, White passes, and Black's D3 would lift both stones and bring back
/// the position before D4. Had White played elsewhere instead, the same suicide is legal.
#[test]
fn group_suicide_that_repeats_a_position() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        "...O...", //
        "..O.O..", //
        "..O.O..", //
        "...O...", //
        ".......",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(play(&mut g, B, "D4"), captures(0), "{}", rules.name);
        assert_eq!(g.board().liberties(pt(&g, "D4")), 1);
        let mut elsewhere = g.clone();
        pass(&mut g, W);
        let r = play(&mut g, B, "D3");
        if is_prejudgement(rules) {
            assert_eq!(r, Err(GameError::Superko), "{}", rules.name);
        } else {
            assert_eq!(
                r,
                Err(GameError::Board(BoardError::Suicide)),
                "{}",
                rules.name
            );
        }
        assert_eq!(
            g.board().color(pt(&g, "D4")),
            Some(B),
            "a refused move changes nothing"
        );

        assert_eq!(play(&mut elsewhere, W, "G1"), captures(0));
        let r = play(&mut elsewhere, B, "D3");
        if is_prejudgement(rules) {
            assert_eq!(
                r,
                Ok(Outcome {
                    captured: 0,
                    lost: 2
                }),
                "{}",
                rules.name
            );
            assert_eq!(elsewhere.prisoners(W), 2);
        } else {
            assert_eq!(
                r,
                Err(GameError::Board(BoardError::Suicide)),
                "{}",
                rules.name
            );
        }
    }
}

/// D4 leaves both Black's C4-C5 and White's E4 without liberties.
#[test]
fn both_sides_without_liberties() {
    let rows = [
        "o.x.o.x", //
        "..O....", //
        ".OXOX..", //
        ".OX.OX.", //
        "..OOX..", //
        ".......", //
        ".......",
    ];
    let white_removed = [
        "o.x.o.x", //
        "..O....", //
        ".OXOX..", //
        ".OXX.X.", //
        "..OOX..", //
        ".......", //
        ".......",
    ];
    let black_removed = [
        "o.x.o.x", //
        "..O....", //
        ".O.OX..", //
        ".O..OX.", //
        "..OOX..", //
        ".......", //
        ".......",
    ];
    for rules in ALL {
        // The default removes the opponent's stones under every ruleset.
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        assert_eq!(play(&mut g, B, "D4"), captures(1), "{}", rules.name);
        expect_board(&g, &white_removed, rules.name);
        assert_eq!((g.prisoners(B), g.prisoners(W)), (1, 0), "{}", rules.name);

        let mut g = Game::from_diagram(&rows, rules).unwrap();
        let r = play_with(&mut g, B, "D4", Removal::Own);
        if is_prejudgement(rules) {
            assert_eq!(
                r,
                Ok(Outcome {
                    captured: 0,
                    lost: 3
                }),
                "{}",
                rules.name
            );
            expect_board(&g, &black_removed, rules.name);
            assert_eq!((g.prisoners(B), g.prisoners(W)), (0, 3), "{}", rules.name);
        } else {
            // Japanese and Chinese give no choice: the opponent's stones go.
            assert_eq!(r, captures(1), "{}", rules.name);
            expect_board(&g, &white_removed, rules.name);
            assert_eq!((g.prisoners(B), g.prisoners(W)), (1, 0), "{}", rules.name);
        }
    }
}

// --- ko and cycles ---------------------------------------------------------------------------

#[test]
fn basic_ko() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        "..XO...", //
        ".XO.O..", //
        "..XO...", //
        ".......", //
        ".......",
    ];
    let taken = [
        "o.x.o.x", //
        ".......", //
        "..XO...", //
        ".X.XO..", //
        "..XO...", //
        ".......", //
        ".......",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        // Removing its own stone instead would recreate the position: never legal.
        let mut own = g.clone();
        let r = play_with(&mut own, B, "D4", Removal::Own);
        if is_prejudgement(rules) {
            assert_eq!(r, Err(GameError::Superko), "{}", rules.name);
            expect_board(&own, &rows, rules.name);
        } else {
            assert_eq!(r, captures(1), "Own is ignored, {}", rules.name);
        }

        assert_eq!(play(&mut g, B, "D4"), captures(1), "{}", rules.name);
        expect_board(&g, &taken, rules.name);
        let retake = play(&mut g, W, "C4");
        if !is_japanese(rules) {
            assert!(
                matches!(
                    retake,
                    Err(GameError::Board(BoardError::Ko)) | Err(GameError::Superko)
                ),
                "{}: {retake:?}",
                rules.name
            );
        } else {
            assert_eq!(
                retake,
                Err(GameError::Board(BoardError::Ko)),
                "{}",
                rules.name
            );
        }
        expect_board(&g, &taken, "a refused retake changes nothing");
        assert_eq!(g.prisoners(W), 0);

        // A ko threat and its answer; then the retake is legal.
        assert_eq!(play(&mut g, W, "F2"), captures(0));
        assert_eq!(play(&mut g, B, "F3"), captures(0));
        assert_eq!(play(&mut g, W, "C4"), captures(1), "{}", rules.name);
        assert_eq!((g.prisoners(B), g.prisoners(W)), (1, 1), "{}", rules.name);
        // And now Black may not retake at once.
        assert!(!g.is_legal(B, Move::Play(pt(&g, "D4"))), "{}", rules.name);
        assert!(g.is_legal(B, Move::Play(pt(&g, "B2"))), "{}", rules.name);
    }
}

/// Three kos: K1 (B8/C8) and K3 (B4/C4) held by White, K2 (G8/H8) held by Black. Black takes
/// one, White another, and after six captures the whole board is back where it started.
#[test]
fn triple_ko() {
    let rows = [
        ".XO...XO.", //
        "XO.O.X.XO", //
        ".XO...XO.", //
        ".........", //
        ".XO......", //
        "XO.O.....", //
        ".XO......", //
        ".........", //
        "x.o...x.o",
    ];
    let cycle = [
        (B, "C8"),
        (W, "G8"),
        (B, "C4"),
        (W, "B8"),
        (B, "H8"),
        (W, "B4"),
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        let start = g.board().hash();
        for &(c, v) in &cycle[..5] {
            assert_eq!(play(&mut g, c, v), captures(1), "{c} {v}, {}", rules.name);
            assert!(!g.position_repeated(), "{c} {v}, {}", rules.name);
        }
        assert_eq!((g.prisoners(B), g.prisoners(W)), (3, 2), "{}", rules.name);
        let (c, v) = cycle[5];
        let moves = g.move_number();
        let r = play(&mut g, c, v);
        if !is_japanese(rules) {
            assert_eq!(r, Err(GameError::Superko), "{}", rules.name);
            assert_eq!(g.move_number(), moves, "a refused move is not recorded");
            assert!(!g.is_legal(c, Move::Play(pt(&g, v))), "{}", rules.name);
            // Undo forgets exactly the positions it takes back: the cycle replays the same way.
            for _ in 0..5 {
                g.undo().unwrap();
            }
            assert_eq!(g.board().hash(), start);
            for &(c, v) in &cycle[..5] {
                assert_eq!(
                    play(&mut g, c, v),
                    captures(1),
                    "replay {c} {v}, {}",
                    rules.name
                );
            }
            assert_eq!(
                play(&mut g, c, v),
                Err(GameError::Superko),
                "{}",
                rules.name
            );
        } else {
            assert_eq!(r, captures(1), "{}", rules.name);
            expect_board(&g, &rows, "the cycle is complete");
            assert_eq!(g.board().hash(), start);
            assert!(g.position_repeated());
            assert_eq!(g.times_seen(start), 2);
            assert_eq!((g.prisoners(B), g.prisoners(W)), (3, 3));
            g.undo().unwrap();
            assert!(!g.position_repeated(), "undo forgets the repetition");
            assert_eq!(g.times_seen(start), 1);
            assert_eq!(play(&mut g, c, v), captures(1));
            assert!(g.position_repeated());
            // The cycle can go round again; each step repeats a position.
            assert_eq!(play(&mut g, B, "C8"), captures(1));
            assert!(g.position_repeated());
        }
    }
}

/// Black ataris White's four stones with C1; White must take the two Black stones at A1, and
/// Black takes one back at B1: the position repeats after three moves.
#[test]
fn send_two_return_one() {
    let rows = [
        "o.x.o.x", //
        ".......", //
        ".......", //
        ".......", //
        "XXXXX..", //
        "XOOOX..", //
        ".X.O...",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        let start = g.board().hash();
        assert_eq!(play(&mut g, B, "C1"), captures(0), "send, {}", rules.name);
        assert_eq!(g.board().liberties(pt(&g, "D1")), 1, "White in atari");
        assert_eq!(
            play(&mut g, W, "A1"),
            captures(2),
            "take two, {}",
            rules.name
        );
        assert_eq!(g.board().liberties(pt(&g, "A1")), 1, "White's A1 in atari");
        assert!(!g.position_repeated());
        let r = play(&mut g, B, "B1");
        if !is_japanese(rules) {
            assert_eq!(r, Err(GameError::Superko), "{}", rules.name);
            assert_eq!(g.board().color(pt(&g, "A1")), Some(W));
            assert_eq!((g.prisoners(B), g.prisoners(W)), (0, 2));
        } else {
            assert_eq!(r, captures(1), "return one, {}", rules.name);
            expect_board(&g, &rows, "back to the start");
            assert_eq!(g.board().hash(), start);
            assert!(g.position_repeated());
            assert_eq!((g.prisoners(B), g.prisoners(W)), (1, 2));
        }
    }
}

// --- the pre-judgement opening ---------------------------------------------------------------

#[test]
fn prejudgement_opening() {
    let mut g = Game::new(9, Rules::prejudgement()).unwrap();
    assert_eq!(g.to_move(), W);
    assert!(g.in_opening());
    let expect_white = Err(GameError::WrongColorInOpening { expected: W });
    let expect_black = Err(GameError::WrongColorInOpening { expected: B });

    assert_eq!(g.play(W, Move::Pass), Err(GameError::PassInOpening));
    assert_eq!(play(&mut g, B, "E5"), expect_white);
    assert_eq!(g.move_number(), 0);
    assert_eq!(play(&mut g, W, "E5"), captures(0));
    assert_eq!(play(&mut g, W, "D4"), expect_black);
    assert_eq!(g.play(B, Move::Pass), Err(GameError::PassInOpening));
    // Placements are free: next to the opponent's stone is fine.
    assert_eq!(play(&mut g, B, "E4"), captures(0));
    assert_eq!(play(&mut g, B, "C3"), expect_white);
    assert_eq!(play(&mut g, W, "C3"), captures(0));
    assert!(g.in_opening());
    assert_eq!(g.play(B, Move::Pass), Err(GameError::PassInOpening));
    assert_eq!(play(&mut g, W, "G7"), expect_black);
    assert_eq!(play(&mut g, B, "G7"), captures(0));
    assert_eq!(g.move_number(), 4);
    assert!(!g.in_opening());
    assert_eq!(g.to_move(), W, "White moves after the opening");
    let stones = |g: &Game, c| {
        g.board()
            .points()
            .filter(|&p| g.board().color(p) == Some(c))
            .count()
    };
    assert_eq!((stones(&g, B), stones(&g, W)), (2, 2));

    // Now passing is allowed, and two passes end the game.
    assert!(g.is_legal(W, Move::Pass));
    pass(&mut g, W);
    pass(&mut g, B);
    assert!(g.is_over());

    // Undo back into the opening: its rules apply again.
    g.undo().unwrap();
    g.undo().unwrap();
    assert!(!g.in_opening());
    g.undo().unwrap();
    assert!(g.in_opening());
    assert_eq!(g.to_move(), B);
    assert_eq!(g.play(B, Move::Pass), Err(GameError::PassInOpening));
    assert_eq!(play(&mut g, W, "C7"), expect_black);
    assert_eq!(play(&mut g, B, "C7"), captures(0));
    assert!(!g.in_opening());
    assert_eq!(g.to_move(), W);

    // The other rulesets have no opening: Black moves first and may pass at once.
    for rules in NO_SUICIDE {
        let mut g = Game::new(9, rules).unwrap();
        assert!(!g.in_opening());
        assert_eq!(g.to_move(), B);
        pass(&mut g, B);
        assert_eq!(g.to_move(), W);
    }
}

// --- counting --------------------------------------------------------------------------------

/// A seki in the lower right: Black's nine stones (eye C1) and White's three (eye G1) share the
/// liberty E1, inside White's living wall. Whoever fills E1 is captured.
#[test]
fn seki_eyes_count_under_area_but_not_territory() {
    let rows = [
        ".......", //
        ".......", //
        ".......", //
        "...OOOO", //
        "OOOOXXX", //
        "OXXXXOO", //
        "OX.X.O.",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        g.set_komi(HalfPoints::ZERO);
        let c = score::count(&g, &[]);
        assert_eq!(c.seki.len(), 9 + 3, "{}", rules.name);
        assert!(c.seki.contains(&pt(&g, "D1")) && c.seki.contains(&pt(&g, "F1")));
        assert!(
            !c.seki.contains(&pt(&g, "A1")),
            "White's outer wall lives on its own"
        );
        assert_eq!(c.dame, 1, "{}", rules.name);
        assert_eq!(owner(&c, &g, "E1"), Owner::Nobody, "{}", rules.name);
        assert_eq!(owner(&c, &g, "A7"), Owner::White, "{}", rules.name);
        if !is_japanese(rules) {
            assert_eq!(owner(&c, &g, "C1"), Owner::Black, "{}", rules.name);
            assert_eq!(owner(&c, &g, "G1"), Owner::White, "{}", rules.name);
            // Black: 9 stones + eye; White: 3 + eye + 10 wall + 24 territory.
            assert_eq!((c.black, c.white), (10, 38), "{}", rules.name);
            assert_eq!(c.margin.to_string(), "W+28", "{}", rules.name);
        } else {
            assert_eq!(owner(&c, &g, "C1"), Owner::Nobody, "{}", rules.name);
            assert_eq!(owner(&c, &g, "G1"), Owner::Nobody, "{}", rules.name);
            assert_eq!((c.black, c.white), (0, 24), "{}", rules.name);
            assert_eq!(c.margin.to_string(), "W+24", "{}", rules.name);
        }
    }
    // It is a seki: filling the shared liberty loses the group.
    for rules in NO_SUICIDE {
        let g = Game::from_diagram(&rows, rules).unwrap();
        let mut b = g.clone();
        assert_eq!(play(&mut b, B, "E1"), captures(0));
        assert_eq!(play(&mut b, W, "C1"), captures(10), "{}", rules.name);
        let mut w = g.clone();
        pass(&mut w, B);
        assert_eq!(play(&mut w, W, "E1"), captures(0));
        assert_eq!(play(&mut w, B, "G1"), captures(4), "{}", rules.name);
    }
}

#[test]
fn dame_count_for_nobody() {
    let rows = [".X.O..."; 7];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        g.set_komi(HalfPoints::ZERO);
        let c = score::count(&g, &[]);
        assert_eq!(c.dame, 7, "{}", rules.name);
        assert!(c.seki.is_empty(), "open dame are no seki, {}", rules.name);
        for v in ["C1", "C4", "C7"] {
            assert_eq!(owner(&c, &g, v), Owner::Nobody, "{v}, {}", rules.name);
        }
        assert_eq!(owner(&c, &g, "A4"), Owner::Black);
        assert_eq!(owner(&c, &g, "F4"), Owner::White);
        if !is_japanese(rules) {
            assert_eq!((c.black, c.white), (14, 28), "{}", rules.name);
        } else {
            assert_eq!((c.black, c.white), (7, 21), "{}", rules.name);
        }
        assert_eq!(c.margin.to_string(), "W+14", "{}", rules.name);
    }
}

/// Black takes A1 inside its area, White takes G1 inside its own: the prisoners count under
/// territory counting, and both counts give the same margin.
#[test]
fn prisoners_count_under_territory() {
    let rows = [
        "..XO...", //
        "..XO...", //
        "..XO...", //
        "..XO...", //
        "..XO...", //
        "X.XO..O", //
        "O.XO..X",
    ];
    for rules in NO_SUICIDE {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        g.set_komi(HalfPoints::ZERO);
        assert_eq!(play(&mut g, B, "B1"), captures(1));
        assert_eq!(play(&mut g, W, "F1"), captures(1));
        let c = score::count(&g, &[]);
        if !is_japanese(rules) {
            // Area: 14 + 7 for Black, 21 + 7 for White; prisoners do not count.
            assert_eq!((c.black, c.white), (21, 28), "{}", rules.name);
        } else {
            // Territory: 12 empty points + 1 prisoner; 19 + 1.
            assert_eq!((c.black, c.white), (13, 20), "{}", rules.name);
        }
        assert_eq!(c.margin.to_string(), "W+7", "{}", rules.name);
    }
}

#[test]
fn dead_stones_are_prisoners_under_territory_only() {
    let rows = [
        ".X.O...", //
        ".X.O...", //
        ".X.O...", //
        ".X.O.X.", //
        ".X.O...", //
        ".X.O...", //
        ".X.O...",
    ];
    for rules in ALL {
        let mut g = Game::from_diagram(&rows, rules).unwrap();
        g.set_komi(HalfPoints::ZERO);
        let dead = pt(&g, "F4");
        let c = score::count(&g, &[dead]);
        assert_eq!(owner(&c, &g, "F4"), Owner::White, "{}", rules.name);
        let alive = score::count(&g, &[]);
        if !is_japanese(rules) {
            // The lifted stone's point is White's area; the stone itself is not counted.
            assert_eq!((c.black, c.white), (14, 28), "{}", rules.name);
            assert_eq!(c.margin.to_string(), "W+14");
            // Not lifted, it keeps White's area neutral and counts for Black.
            assert_eq!((alive.black, alive.white), (15, 7), "{}", rules.name);
        } else {
            // 21 points of territory + the lifted stone as a prisoner.
            assert_eq!((c.black, c.white), (7, 22), "{}", rules.name);
            assert_eq!(c.margin.to_string(), "W+15");
            assert_eq!((alive.black, alive.white), (7, 0), "{}", rules.name);
        }
        // Counting does not touch the game.
        assert_eq!(g.board().color(dead), Some(B));
        assert_eq!(g.prisoners(W), 0);
    }
}

/// A 19×19 board split by two adjacent walls so that Black's area is `black_area`: Black owns
/// columns A–J (index 0–9) in the top `black_area − 171` rows and A–H below.
fn split_board(black_area: usize) -> Vec<String> {
    let step = black_area - 9 * 19;
    assert!(step <= 19);
    (0..19)
        .map(|row| {
            let wall = if row < step { 9 } else { 8 };
            (0..19)
                .map(|col| match col {
                    c if c == wall => 'X',
                    c if c == wall + 1 => 'O',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

/// 001: komi 3¾ stones; Black 185 stones wins by ¾ stone, 184 loses by ¼ stone.
#[test]
fn seed_chinese_count() {
    for (area, want) in [(185, "B+1.5"), (184, "W+0.5")] {
        let mut g = Game::from_diagram(&split_board(area), Rules::chinese()).unwrap();
        g.set_komi(HalfPoints::parse("7.5").unwrap());
        let c = score::count(&g, &[]);
        assert_eq!((c.black, c.white), (area as i32, 361 - area as i32));
        assert_eq!(c.dame, 0);
        assert_eq!(c.margin.to_string(), want, "Black area {area}");
    }
}

/// 002 第五条: predictions W+7 and W+6 give a threshold of W+6.5, and a count of W+7 is reported
/// as W+0.5; W+7 and B+6 give W+0.5; W+7 and W+7 give W+7, and a count of W+7 is a draw.
#[test]
fn seed_prejudgement_thresholds() {
    let w7 = Margin(HalfPoints::points(-7));
    let w6 = Margin(HalfPoints::points(-6));
    let b6 = Margin(HalfPoints::points(6));

    let threshold = |first, second| Predictions { first, second }.threshold();
    let t = threshold(w7, w6);
    assert_eq!(t.margin.to_string(), "W+6.5");
    assert_eq!(t.margin, margin("W+6.5"));
    assert_eq!(
        t.white, 1,
        "the W+7 predictor rates White higher and takes White"
    );
    assert_eq!(threshold(w7, b6).margin.to_string(), "W+0.5");
    let t7 = threshold(w7, w7);
    assert_eq!(t7.margin.to_string(), "W+7");
    assert_eq!(
        t7.white, 1,
        "equal predictions: the first mover takes White"
    );

    // White's area 184, Black's 177: the board says W+7.
    let board = split_board(177);
    let mut g = Game::from_diagram(&board, Rules::prejudgement()).unwrap();
    g.set_komi(HalfPoints::ZERO);
    let raw = score::count(&g, &[]);
    assert_eq!((raw.black, raw.white), (177, 184));
    assert_eq!(raw.margin, w7);

    for (t, want) in [(t, "W+0.5"), (threshold(w7, b6), "W+6.5"), (t7, "0")] {
        g.set_komi(t.komi);
        let c = score::count(&g, &[]);
        assert_eq!(c.margin.to_string(), want, "threshold {}", t.margin);
    }
}
