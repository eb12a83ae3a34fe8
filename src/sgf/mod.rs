//! SGF (FF[4]) game records: reading the main line of a file into a [`Game`] and writing a game
//! out.
//!
//! The reader is tolerant where files in the wild differ — text before the first `(`, white
//! space anywhere between tokens, lower-case letters in property names (FF[3] style, ignored as
//! FF[4] asks), `tt` for a pass on boards up to 19×19, compressed point lists (`aa:cc`), several
//! games in a collection (the first is read), `PL[1]`/`PL[2]` (FF[1]'s colours), setup stones
//! in the middle of a game (an edit of the position), a node holding a move of each colour
//! (played in file order, as GNU Go does), nodes after a node's variations (not on the main
//! line), a file cut short (read up to its last complete node, with a warning) — and strict
//! where the position would be wrong: unknown board sizes, points off the board, moves the
//! rules forbid. Only the main line is read: at every branching the first variation. The parser
//! keeps its own stack, so deep nesting cannot exhaust the call stack.
//!
//! Memory stays in proportion to what the reader uses, whatever the file: only the properties it
//! reads are kept ([`USED`]), each of them once per node, the setup points of a record at most
//! [`MAX_SETUP_POINTS`]; any other property is skipped as it is read.
//!
//! Loading either yields a complete new game or an error; the caller's game is never touched.
//! The text's grammar and limits are `parse.rs`'s, the record written out `write.rs`'s; this
//! module turns the nodes into a game.

use crate::board::{Board, Color, Move, Point, Removal};
use crate::game::Game;
use crate::prejudgement::Predictions;
use crate::rules::{HalfPoints, Rules};
use std::fmt;

mod parse;
mod write;

pub use parse::{
    main_line, tree, MainLine, Node, Property, Tree, TreeNode, MAX_MAIN_LINE_NODES,
    MAX_SETUP_POINTS, MAX_TREE_ITEMS, MAX_TREE_NODES, USED,
};
pub use write::{escape, point_letters, write, Info};

/// Files larger than this are not game records.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The text of a record file (a regular file of at most [`MAX_FILE_BYTES`], see
/// [`crate::files::read`]); bytes that are not UTF-8 are replaced, as only comments hold text.
/// Every entry point that reads a record reads it through here.
pub fn read_file(path: &std::path::Path) -> Result<String, String> {
    let bytes = crate::files::read(path, MAX_FILE_BYTES)?;
    // Copied only when some bytes are not UTF-8.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, SgfError> {
    Err(SgfError(msg.into()))
}

/// A piece of the file quoted in a message: at most 32 characters, control characters escaped,
/// so that a message stays one short line of text whatever the file holds.
fn quoted(s: &str) -> String {
    printable(s, 32)
}

/// Text from a file or another program as it may be shown or recorded: at most `max_chars`
/// characters (then `…`), every control character (C0, DEL, C1: a newline, a NUL, the start of
/// a terminal escape sequence) written as its Rust escape (`\n`, `\u{0}`, `\u{1b}`), so that it
/// stays one line of text and cannot act on a terminal.
pub fn printable(s: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A point in SGF letters (`a` = first column or the top row), `None` for a pass (`""`, or
/// `tt` on boards up to 19×19).
pub fn parse_point(s: &str, board: &Board) -> Result<Option<Point>, SgfError> {
    let n = board.size();
    let s = s.trim();
    if s.is_empty() || (s == "tt" && n <= 19) {
        return Ok(None);
    }
    let b = s.as_bytes();
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    };
    if b.len() != 2 {
        return err(format!("'{}' is not a point", s));
    }
    match (coord(b[0]), coord(b[1])) {
        (Some(c), Some(r)) if c < n && r < n => Ok(Some(board.point(c, r))),
        (Some(_), Some(_)) => err(format!("point '{}' is off the {}x{} board", s, n, n)),
        _ => err(format!("'{}' is not a point", s)),
    }
}

/// The points of a point list, expanding `aa:cc` rectangles; each point once, however often
/// the list names it.
fn parse_point_list(values: &[String], board: &Board) -> Result<Vec<Point>, SgfError> {
    let mut out = Vec::new();
    let mut listed = vec![false; crate::board::CELLS];
    let mut add = |p: Point, out: &mut Vec<Point>| {
        if !std::mem::replace(&mut listed[p.idx()], true) {
            out.push(p);
        }
    };
    for v in values {
        if let Some((a, b)) = v.split_once(':') {
            let (Some(p), Some(q)) = (parse_point(a, board)?, parse_point(b, board)?) else {
                return err(format!("'{}' is not a point rectangle", v));
            };
            let (c1, r1) = board.coords(p);
            let (c2, r2) = board.coords(q);
            for r in r1.min(r2)..=r1.max(r2) {
                for c in c1.min(c2)..=c1.max(c2) {
                    add(board.point(c, r), &mut out);
                }
            }
        } else {
            match parse_point(v, board)? {
                Some(p) => add(p, &mut out),
                None => return err("a pass in a list of setup points"),
            }
        }
    }
    Ok(out)
}

/// A ruleset named by `RU`, when it is one tengen plays.
pub fn rules_from_name(ru: &str) -> Option<Rules> {
    Rules::by_name(ru.trim())
}

/// How `RU` writes a ruleset: FF[4]'s names where it has one (`AGA`, `NZ`, `Japanese`),
/// KataGo's `TrompTaylor` and `Chinese`, else tengen's name capitalised (`Prejudgement`). Each
/// reads back as the same ruleset ([`rules_from_name`]).
fn rules_name(rules: &Rules) -> String {
    match rules.name {
        "aga" => "AGA".to_string(),
        "new_zealand" => "NZ".to_string(),
        "tromp-taylor" => "TrompTaylor".to_string(),
        name => {
            let mut name = name.to_string();
            if let Some(first) = name.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            name
        }
    }
}

/// A record read into a game, with what the caller needs to know besides the game.
#[derive(Clone)]
pub struct Loaded {
    pub game: Game,
    /// Whether the record gave its komi (`KM`); without it the game has the rules' usual komi.
    pub komi_given: bool,
    /// The pre-judgement predictions the root comment states ([`predictions`]).
    pub predictions: Option<Predictions>,
}

/// A colour as `PL` writes it: `B`/`W` (any case, or the whole word), or FF[1]'s `1`/`2`.
fn pl_color(value: &str) -> Option<Color> {
    match value.trim() {
        "1" => Some(Color::Black),
        "2" => Some(Color::White),
        v => crate::coords::parse_color(v),
    }
}

/// The game of an SGF text: [`read`] without the extras.
pub fn load(text: &str, rules: Rules, stop_before: Option<usize>) -> Result<Game, SgfError> {
    read(text, rules, stop_before).map(|l| l.game)
}

/// Builds the game of an SGF text: size `SZ` (19 when absent), rules `RU` when it names a
/// tengen ruleset (else `rules`), komi `KM` (else the rules' usual komi), setup stones
/// `AB`/`AW`/`AE` (the root's `AB` alone with `HA` are handicap stones), then the moves of the
/// main line, a node's moves in file order. A record that starts from setup stones has no
/// opening placements (see [`Game::opening_placements`]): its first move may be either colour's,
/// and without `PL` the side to move is the first move's colour, else the rules'. Setup stones
/// after the first move edit the position: the game restarts from the edited position
/// ([`Game::edit_position`]). `PL` sets the side to move after its node's moves (a move of the
/// other colour still follows). With `stop_before = Some(k)`, the position before move number
/// `k` (1-based), that move's colour to move; a `k` beyond the last move reads the whole game. A
/// file cut short is read up to its last complete node, with a warning in the log.
pub fn read(text: &str, rules: Rules, stop_before: Option<usize>) -> Result<Loaded, SgfError> {
    let line = main_line(text)?;
    if line.cut_short {
        log::warn!(
            "the record is cut short: read up to its last complete node ({} nodes)",
            line.nodes.len()
        );
    }
    read_main_line(&line, rules, stop_before)
}

/// [`read`] from a main line already read.
pub fn read_main_line(
    line: &MainLine,
    rules: Rules,
    stop_before: Option<usize>,
) -> Result<Loaded, SgfError> {
    replay(line, rules, stop_before, &mut |_, _| {})
}

/// [`read_main_line`] of the whole line, calling `before_move(game, color)` with the position
/// before every move, as `stop_before` at that move would give it (`color` to move, unless `PL`
/// said who moves first). The moves are played once each, so a caller visiting every position
/// works in proportion to the record, not to its square. `before_move` may change the komi; the
/// replay goes on from the position it was handed.
pub fn replay_main_line(
    line: &MainLine,
    rules: Rules,
    before_move: &mut dyn FnMut(&mut Game, Color),
) -> Result<Loaded, SgfError> {
    replay(line, rules, None, before_move)
}

fn replay(
    line: &MainLine,
    rules: Rules,
    stop_before: Option<usize>,
    before_move: &mut dyn FnMut(&mut Game, Color),
) -> Result<Loaded, SgfError> {
    let nodes = &line.nodes;
    let root = &nodes[0];
    if let Some(gm) = root.first("GM") {
        if gm.trim() != "1" {
            return err(format!("GM[{}] is not a game of Go", quoted(gm)));
        }
    }
    let size = match root.first("SZ") {
        None => 19,
        Some(s) => {
            let s = s.trim();
            let (a, b) = s.split_once(':').unwrap_or((s, s));
            match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                (Ok(a), Ok(b)) if a == b => a,
                (Ok(_), Ok(_)) => return err("rectangular boards are not supported"),
                _ => return err(format!("SZ[{}] is not a board size", quoted(s))),
            }
        }
    };
    let rules = root.first("RU").and_then(rules_from_name).unwrap_or(rules);
    let Some(mut game) = Game::new(size, rules) else {
        return err(format!("board size {} is not supported (2 to 25)", size));
    };
    let komi = match root.first("KM") {
        None => rules.default_komi,
        Some(k) => match k.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v.abs() <= 10_000.0 => HalfPoints::round_from(v),
            _ => return err(format!("KM[{}] is not a komi", quoted(k))),
        },
    };
    game.set_komi(komi);
    let handicap = match root.first("HA") {
        None => 0,
        Some(h) => match h.trim().parse::<usize>() {
            Ok(h) => h,
            Err(_) => return err(format!("HA[{}] is not a number", quoted(h))),
        },
    };

    let mut number = 0usize;
    let mut pl_seen = false;
    'nodes: for (index, node) in nodes.iter().enumerate() {
        let board = game.board().clone();
        let ab = parse_point_list(node.get("AB").unwrap_or(&[]), &board)?;
        let aw = parse_point_list(node.get("AW").unwrap_or(&[]), &board)?;
        let ae = parse_point_list(node.get("AE").unwrap_or(&[]), &board)?;
        if !(ab.is_empty() && aw.is_empty() && ae.is_empty()) {
            let as_handicap = index == 0 && handicap > 0 && aw.is_empty() && ae.is_empty();
            let mut stones: Vec<(Point, Option<Color>)> = ae.iter().map(|&p| (p, None)).collect();
            stones.extend(ab.iter().map(|&p| (p, Some(Color::Black))));
            stones.extend(aw.iter().map(|&p| (p, Some(Color::White))));
            let placed = if as_handicap {
                game.place_handicap(&ab)
            } else if game.moves().next().is_some() {
                game.edit_position(&stones)
            } else {
                // A record set up from stones is a position: its opening lies behind it.
                game.setup(&stones)
                    .and_then(|()| game.start_from_position())
            };
            if let Err(e) = placed {
                return err(format!("setup stones refused: {}", e));
            }
        }
        let pl = match node.first("PL") {
            None => None,
            Some(v) => match pl_color(v) {
                Some(c) => Some(c),
                None => return err(format!("PL[{}] is not a colour", quoted(v))),
            },
        };
        // The node's moves in file order (a node may hold one of each colour).
        for &(id, ref values) in &node.props {
            let color = match id {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            number += 1;
            // Before this move its colour moves, unless `PL` said who moves first.
            let mover_moves = !(game.moves().next().is_none() && pl_seen);
            if stop_before.is_some_and(|k| number >= k) {
                if mover_moves {
                    let _ = game.set_to_move(color);
                }
                break 'nodes;
            }
            let to_move = game.to_move();
            let shown = mover_moves && game.set_to_move(color).is_ok();
            before_move(&mut game, color);
            if shown {
                let _ = game.set_to_move(to_move);
            }
            let value = values.first().map_or("", |v| v.as_str());
            let mv = match parse_point(value, &board) {
                Ok(Some(p)) => Move::Play(p),
                Ok(None) => Move::Pass,
                Err(e) => return err(format!("move {}: {}", number, e)),
            };
            // `RM[own]`: the mover removed its own stones in a mutual capture (pre-judgement
            // rules; the game ignores the choice under rules that do not give it).
            let removal = match node.first("RM") {
                Some(r) if r.trim().eq_ignore_ascii_case("own") => Removal::Own,
                _ => Removal::Opponent,
            };
            if let Err(e) = game.play_with(color, mv, removal) {
                return err(format!(
                    "move {} ({} {}) is illegal: {}",
                    number,
                    color.letter(),
                    if value.is_empty() {
                        "pass".to_string()
                    } else {
                        quoted(value)
                    },
                    e
                ));
            }
        }
        // After the node's moves, `PL` says who moves next (before the first move: who moves
        // first). During the pre-judgement opening its order rules, and `PL` is ignored.
        if let Some(c) = pl {
            let first = game.moves().next().is_none();
            pl_seen |= game.set_to_move(c).is_ok() && first;
        }
    }
    let predictions = predictions_of(nodes);
    Ok(Loaded {
        game,
        komi_given: root.get("KM").is_some(),
        predictions,
    })
}

/// The pre-judgement predictions a record states in its root comment, if any (see
/// [`Predictions::from_comment`]).
pub fn predictions(text: &str) -> Option<Predictions> {
    predictions_of(&main_line(text).ok()?.nodes)
}

/// [`predictions`] from the record's nodes.
fn predictions_of(nodes: &[Node]) -> Option<Predictions> {
    Predictions::from_comment(nodes.first()?.first("C")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Margin;

    #[test]
    fn main_line_takes_first_variations() {
        let t = "junk (;GM[1]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))(;B[zz])";
        let nodes = main_line(t).unwrap().nodes;
        let moves: Vec<_> = nodes
            .iter()
            .filter_map(|n| n.first("B").or(n.first("W")))
            .collect();
        assert_eq!(moves, ["aa", "bb", "cc", "dd"]);
    }

    #[test]
    fn trees_keep_every_property_and_variation() {
        let t = "junk (;GM[1]SZ[9]PB[Someone]C[a\\]b];B[aa]LB[bb:x]AB[cc][dd]\
                 (;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))(;B[zz])";
        let tree = tree(t).unwrap();
        let main: Vec<&str> = tree
            .main_line()
            .iter()
            .filter_map(|&i| {
                let n = &tree.nodes[i];
                n.get("B").or(n.get("W")).map(|v| v[0].as_str())
            })
            .collect();
        assert_eq!(main, ["aa", "bb", "cc", "dd"]);
        assert_eq!(tree.nodes.len(), 7);
        assert_eq!(tree.nodes[0].get("PB").unwrap(), ["Someone"]);
        assert_eq!(tree.nodes[0].get("C").unwrap(), ["a]b"]);
        // Written and read again, the tree is the same, and its main line the one `main_line`
        // reads.
        let text = tree.write();
        assert!(!text.contains("\n\n"));
        assert_eq!(super::tree(&text).unwrap(), tree);
        assert_eq!(
            main_line(&text).unwrap().nodes.len(),
            tree.main_line().len()
        );
        // A node after a node's variations becomes one more variation there.
        let odd = super::tree("(;B[aa](;W[bb]);W[cc])").unwrap();
        assert_eq!(odd.nodes[0].children.len(), 2);
        assert_eq!(odd.main_line().len(), 2);
        for bad in ["", "(;B)", "(;B[aa];W)X", "((;B[aa])(;B[bb]))"] {
            assert!(super::tree(bad).is_err(), "{:?}", bad);
        }
        // Deep nesting reads, writes and drops without recursion.
        let mut deep = "(;SZ[9]".to_string();
        for _ in 0..100_000 {
            deep.push_str("(;B[aa]");
        }
        deep.push_str(&")".repeat(100_001));
        let deep_tree = super::tree(&deep).unwrap();
        assert_eq!(deep_tree.main_line().len(), 100_001);
        assert_eq!(
            super::tree(&deep_tree.write()).unwrap().nodes.len(),
            100_001
        );
    }

    #[test]
    fn printable_text_escapes_control_characters_and_is_bounded() {
        assert_eq!(printable("B+3.5 é", 100), "B+3.5 é");
        assert_eq!(
            printable("W+\u{1b}[2J\u{1b}]0;owned\u{7} 7.5", 100),
            "W+\\u{1b}[2J\\u{1b}]0;owned\\u{7} 7.5"
        );
        assert_eq!(
            printable("a\0b\nc\td\u{9b}", 100),
            "a\\u{0}b\\nc\\td\\u{9b}"
        );
        assert_eq!(printable(&"é".repeat(1 << 20), 5), "ééééé…");
        assert_eq!(printable("abcde", 5), "abcde");
        // An escape counts as one character of the bound.
        assert_eq!(printable("\u{1b}\u{1b}\u{1b}", 2), "\\u{1b}\\u{1b}…");
    }

    #[test]
    fn escapes_and_lower_case_names() {
        let nodes = main_line("(;C[a\\]b\\\\c\\\nd] AddBlack[aa][bb])")
            .unwrap()
            .nodes;
        assert_eq!(nodes[0].first("C"), Some("a]b\\cd"));
        assert_eq!(nodes[0].get("AB").unwrap().len(), 2);
    }

    #[test]
    fn malformed_texts_fail() {
        for t in [
            "",
            "(;",
            "(;B)",
            "(;[aa])",
            "(;B[aa];W)X",
            "(;SZ[9]\u{1b}[2J;B[ee])",
        ] {
            assert!(main_line(t).is_err(), "{:?}", t);
        }
    }

    #[test]
    fn a_file_cut_short_gives_its_complete_nodes() {
        for (t, moves) in [
            ("(;SZ[9];B[aa];W[bb]", 2),
            ("(;SZ[9];B[aa];W[bb];B[c", 2),
            ("(;SZ[9];B[aa];W[bb];B[cc]C[a comment\\", 2),
            ("(;SZ[9];B[aa];W[bb];B[cc]AB", 2),
            ("(;SZ[9];B[aa];W[bb](;B[cc]", 3),
            ("(;SZ[9];B[aa];W[bb];B[cc] ", 3),
        ] {
            let line = main_line(t).unwrap();
            assert!(line.cut_short, "{:?}", t);
            assert_eq!(line.nodes.len(), 1 + moves, "{:?}", t);
        }
        assert!(!main_line("(;SZ[9];B[aa])").unwrap().cut_short);
        assert!(main_line("(;SZ[9").is_err());
    }

    #[test]
    fn nodes_after_variations_are_left_out() {
        let line = main_line("(;B[aa](;W[bb]);W[cc])").unwrap();
        let moves: Vec<_> = line.nodes.iter().filter_map(|n| n.first("W")).collect();
        assert_eq!(moves, ["bb"]);
    }

    #[test]
    fn the_main_line_and_the_tree_readers_agree() {
        let moves_of = |props: Vec<Option<&str>>| -> Vec<String> {
            props.into_iter().flatten().map(str::to_string).collect()
        };
        for t in [
            "junk (;SZ[9];B[aa](;W[bb];B[cc])(;W[dd]))(;B[zz])",
            "(;B[aa](;W[bb]);W[cc])",
            "(;SZ[9];B[aa];W[bb](;B[cc]",
            "(;SZ[9];B[aa];W[bb];B[c",
            "(;SZ[9];B[aa])) trailing junk",
            "(;SZ[9]\u{1b}[2J;B[ee])",
            "(;B[aa];W)X",
            ")(;B[aa])",
            "no tree",
        ] {
            let line = main_line(t);
            let whole = tree(t);
            assert_eq!(line.is_ok(), whole.is_ok(), "{:?}", t);
            if let (Ok(line), Ok(whole)) = (line, whole) {
                let from_line = moves_of(
                    line.nodes
                        .iter()
                        .map(|n| n.first("B").or(n.first("W")))
                        .collect(),
                );
                let from_tree = moves_of(
                    whole
                        .main_line()
                        .iter()
                        .map(|&i| {
                            let n = &whole.nodes[i];
                            n.get("B").or(n.get("W")).map(|v| v[0].as_str())
                        })
                        .collect(),
                );
                assert_eq!(from_line, from_tree, "{:?}", t);
            }
        }
    }

    #[test]
    fn text_after_the_first_game_is_ignored() {
        assert!(main_line("(;B[aa])) trailing junk").is_ok());
        assert!(main_line("(;B[aa])\u{a0}(;W[é \u{3000}").is_ok());
    }

    #[test]
    fn point_lists_name_each_point_once() {
        let b = Board::new(9).unwrap();
        let values: Vec<String> = ["aa:bb", "bb", "ab:ba", "aa:bb"]
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert_eq!(parse_point_list(&values, &b).unwrap().len(), 4);
        // A record that names a whole board's rectangle a thousand times loads as one set of
        // stones (the last row left open, so the group has liberties).
        let text = format!("(;SZ[9]AB{})", "[aa:ih]".repeat(1000));
        let g = load(&text, Rules::chinese(), None).unwrap();
        assert_eq!(g.board().empty_points().len(), 9);
    }

    #[test]
    fn only_the_properties_read_are_kept() {
        let names: Vec<String> = (0..5000)
            .map(|i| {
                let l = |k: usize| (b'A' + (i / k % 26) as u8) as char;
                format!("{}{}{}[x]", l(676), l(26), l(1))
            })
            .collect();
        let text = format!(
            "(;SZ[9]{}AB[aa]AB[bb]PB[someone]C[one][two]VERYLONGNAME[x]CA[UTF-8])",
            names.concat()
        );
        let nodes = main_line(&text).unwrap().nodes;
        let ids: Vec<&str> = nodes[0].props.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, ["SZ", "AB", "C"]);
        assert_eq!(
            nodes[0].get("AB").unwrap(),
            &["aa".to_string(), "bb".to_string()]
        );
        assert_eq!(nodes[0].get("C").unwrap(), &["one".to_string()]);
        // Setup points are kept up to a bound, past which the record is refused.
        let many = format!("(;SZ[9]AB{})", "[aa]".repeat(MAX_SETUP_POINTS + 1));
        let e = main_line(&many).unwrap_err();
        assert!(e.0.contains("setup points"), "{}", e);
    }

    #[test]
    fn messages_quote_the_file_briefly_and_printably() {
        let t = format!("(;KM[\u{1b}[2J{}])", "x".repeat(10_000));
        let Err(e) = load(&t, Rules::chinese(), None) else {
            panic!("loaded");
        };
        assert_eq!(
            e.0,
            format!("KM[\\u{{1b}}[2J{}…] is not a komi", "x".repeat(28))
        );
        let e = main_line("(;SZ[9]\u{0};B[ee])").unwrap_err();
        assert_eq!(e.0, "expected a property name, found '\\u{0}'");
    }

    #[test]
    fn real_records_load_as_gnu_go_loads_them() {
        let r = Rules::chinese();
        let at = |g: &Game, s: &str| {
            let b = s.as_bytes();
            let p = g
                .board()
                .point((b[0] - b'a') as usize, (b[1] - b'a') as usize);
            g.board().color(p)
        };
        // Setup stones after moves edit the position, AE included.
        let g = load("(;SZ[9];B[ee];W[cc];AE[ee]AB[gg]AW[gc];B[cg])", r, None).unwrap();
        assert_eq!(at(&g, "ee"), None);
        assert_eq!(at(&g, "gg"), Some(Color::Black));
        assert_eq!(at(&g, "gc"), Some(Color::White));
        assert_eq!(at(&g, "cg"), Some(Color::Black));
        assert_eq!((g.to_move(), g.move_number()), (Color::White, 1));
        // Stopped before the move after the edit: the edit is made.
        let g = load("(;SZ[9];B[ee];W[cc];AB[gg];B[cg])", r, Some(3)).unwrap();
        assert_eq!((at(&g, "gg"), at(&g, "cg")), (Some(Color::Black), None));
        // An edit that leaves a group without liberties is no position.
        assert!(load("(;SZ[9];B[aa];W[ee];AW[ab][ba])", r, None).is_err());
        // PL[1] and PL[2].
        let g = load("(;SZ[9]AB[ee]PL[2])", r, None).unwrap();
        assert_eq!(g.to_move(), Color::White);
        let g = load("(;SZ[9]AW[ee]PL[1])", r, None).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        assert!(load("(;SZ[9]AB[ee]PL[3])", r, None).is_err());
        // A node with a move of each colour plays them in file order (GNU Go: the second
        // captures the first here, whichever colour comes first).
        let g = load("(;SZ[9]AB[ab];W[aa]B[ba])", r, None).unwrap();
        assert_eq!((at(&g, "aa"), g.prisoners(Color::Black)), (None, 1));
        assert_eq!((g.to_move(), g.move_number()), (Color::White, 2));
        let g = load("(;SZ[9]AW[ab];B[aa]W[ba])", r, None).unwrap();
        assert_eq!((at(&g, "aa"), g.prisoners(Color::White)), (None, 1));
        assert_eq!(g.to_move(), Color::Black);
        // Before the second move of such a node: the first is played.
        let g = load("(;SZ[9];B[ee]W[cc];B[gg])", r, Some(2)).unwrap();
        assert_eq!((g.move_number(), g.to_move()), (1, Color::White));
        // PL in a move node or in the last node sets the side to move.
        let g = load("(;SZ[9];B[ee];W[cc]PL[W])", r, None).unwrap();
        assert_eq!(g.to_move(), Color::White);
        let g = load("(;SZ[9];B[ee];W[cc];B[gc];PL[B])", r, None).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        // A file cut short: its complete nodes.
        let g = load("(;SZ[9];B[ee];W[cc];B[gg];W[g", r, None).unwrap();
        assert_eq!((g.move_number(), g.to_move()), (3, Color::White));
    }

    #[test]
    fn a_record_without_komi_has_its_rules_usual_komi() {
        let g = load("(;SZ[9]RU[Japanese];B[ee])", Rules::chinese(), None).unwrap();
        assert_eq!(g.komi(), Rules::japanese().default_komi);
        let l = read("(;SZ[9];B[ee])", Rules::chinese(), None).unwrap();
        assert_eq!(l.game.komi(), Rules::chinese().default_komi);
        assert!(!l.komi_given);
        assert!(
            read("(;SZ[9]KM[0];B[ee])", Rules::chinese(), None)
                .unwrap()
                .komi_given
        );
    }

    #[test]
    fn deep_nesting_is_fine() {
        let mut t = "(;SZ[9]".to_string();
        for _ in 0..200_000 {
            t.push_str("(;B[aa]");
        }
        assert!(main_line(&t).unwrap().cut_short);
        for _ in 0..200_001 {
            t.push(')');
        }
        assert!(!main_line(&t).unwrap().cut_short);
    }

    #[test]
    fn load_setup_moves_and_stop() {
        let t = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]AB[aa:ab]AW[cc];B[dd];W[ee];B[];W[tt])";
        let g = load(t, Rules::chinese(), None).unwrap();
        assert_eq!(g.rules().name, "japanese");
        assert_eq!(g.komi(), HalfPoints(13));
        assert_eq!(g.move_number(), 4);
        assert!(g.is_over());
        let g = load(t, Rules::chinese(), Some(2)).unwrap();
        assert_eq!(g.move_number(), 1);
        let b = g.board();
        assert_eq!(b.color(b.point(0, 1)), Some(Color::Black));
        assert_eq!(b.color(b.point(2, 2)), Some(Color::White));
    }

    #[test]
    fn set_up_prejudgement_positions_have_no_opening() {
        // Set-up stones and Black's move first: no placement order applies.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd];B[bb];W[];B[])";
        let g = load(t, Rules::japanese(), None).unwrap();
        assert_eq!(
            (g.move_number(), g.in_opening(), g.opening_color()),
            (3, false, None)
        );
        // Stopped before the first move, the side to move is that move's colour…
        let g = load(t, Rules::japanese(), Some(1)).unwrap();
        assert_eq!((g.move_number(), g.to_move()), (0, Color::Black));
        assert_eq!(g.opening_placements(), 0);
        // …unless PL says otherwise; without either it is the rules' first player.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd]PL[W];B[bb])";
        let g = load(t, Rules::japanese(), Some(1)).unwrap();
        assert_eq!(g.to_move(), Color::White);
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd])";
        assert_eq!(
            load(t, Rules::japanese(), None).unwrap().to_move(),
            Color::White
        );
        assert!(load("(;SZ[5]AB[cc]PL[x])", Rules::japanese(), None).is_err());
        // PL round-trips through the written record.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd]PL[B])";
        let g = load(t, Rules::japanese(), None).unwrap();
        let back = load(&write(&g, &Info::default()), Rules::japanese(), None).unwrap();
        assert_eq!((back.to_move(), back.board()), (Color::Black, g.board()));
        // An empty board keeps the placements: Black may not open.
        let t = "(;SZ[5]RU[prejudgement];B[bb])";
        assert!(load(t, Rules::japanese(), None).is_err());
    }

    #[test]
    fn load_refuses_bad_positions() {
        let r = Rules::chinese();
        assert!(load("(;SZ[9];B[jj])", r, None).is_err());
        assert!(load("(;SZ[9];B[aa];W[aa])", r, None).is_err());
        assert!(load("(;SZ[30])", r, None).is_err());
        assert!(load("(;SZ[9:7])", r, None).is_err());
        assert!(load("(;GM[2])", r, None).is_err());
        assert!(load("(;SZ[9];B[aa];AW[ab][ba])", r, None).is_err());
        assert!(load("(;SZ[9];B[aa]W[aa])", r, None).is_err());
    }

    #[test]
    fn prejudgement_records_keep_predictions_and_removals() {
        let mut g = Game::new(5, Rules::prejudgement()).unwrap();
        let b = g.board().clone();
        let at = |c, r| Move::Play(b.point(c, r));
        // White A1 and Black A3 (joined by A2) both lose their last liberty at A2.
        for (c, m) in [
            (Color::White, at(0, 4)),
            (Color::Black, at(1, 4)),
            (Color::White, at(1, 3)),
            (Color::Black, at(0, 2)),
            (Color::White, at(1, 2)),
            (Color::White, at(0, 1)),
        ] {
            g.play(c, m).unwrap();
        }
        g.play_with(Color::Black, at(0, 3), Removal::Own).unwrap();
        let m = |s| Margin::parse(s).unwrap();
        let stated = Predictions {
            first: m("W+7"),
            second: m("W+6"),
        };
        g.set_komi(HalfPoints(-13));
        let info = Info {
            predictions: Some(stated),
            comment: Some("second line".into()),
            ..Info::default()
        };
        let text = write(&g, &info);
        assert!(text.contains("C[prejudgement predictions W+7 W+6 threshold W+6.5\nsecond line]"));
        assert!(text.contains(";B[ad]RM[own]"));
        assert_eq!(predictions(&text), Some(stated));
        let back = load(&text, Rules::chinese(), None).unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.komi(), HalfPoints(-13));
        assert_eq!(back.rules().name, "prejudgement");
        // A threshold that does not follow from the predictions is not trusted.
        let forged = text.replace("threshold W+6.5", "threshold W+3");
        assert_eq!(predictions(&forged), None);
        assert_eq!(predictions("(;C[prejudgement predictions W+7])"), None);
    }

    #[test]
    fn write_then_load_round_trips() {
        let mut g = Game::new(9, Rules::japanese()).unwrap();
        g.set_komi(HalfPoints(-7));
        let b = g.board().clone();
        g.place_handicap(&[b.point(2, 6), b.point(6, 2)]).unwrap();
        g.play(Color::White, Move::Play(b.point(4, 4))).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        let info = Info {
            result: Some("W+R".into()),
            comment: Some("a ] b".into()),
            ..Info::default()
        };
        let text = write(&g, &info);
        assert!(!text.contains("\n\n"));
        let back = load(&text, Rules::chinese(), None).unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.handicap().len(), 2);
        assert_eq!(back.komi(), HalfPoints(-7));
        assert_eq!(back.rules().name, "japanese");
        assert_eq!(back.move_number(), 2);
        assert_eq!(main_line(&text).unwrap().nodes[0].first("C"), Some("a ] b"));
    }

    #[test]
    fn every_ruleset_is_written_by_its_usual_name_and_read_back() {
        for (rules, ru) in [
            (Rules::japanese(), "Japanese"),
            (Rules::chinese(), "Chinese"),
            (Rules::prejudgement(), "Prejudgement"),
            (Rules::aga(), "AGA"),
            (Rules::new_zealand(), "NZ"),
            (Rules::tromp_taylor(), "TrompTaylor"),
        ] {
            let g = Game::new(9, rules).unwrap();
            let text = write(&g, &Info::default());
            assert!(text.contains(&format!("RU[{}]", ru)), "{}", text);
            let other = if rules == Rules::chinese() {
                Rules::japanese()
            } else {
                Rules::chinese()
            };
            assert_eq!(*load(&text, other, None).unwrap().rules(), rules, "{}", ru);
        }
        // Other programs' spellings of the same rulesets.
        for (ru, name) in [
            ("NewZealand", "new_zealand"),
            ("New Zealand", "new_zealand"),
            ("Tromp-Taylor", "tromp-taylor"),
            ("Tromp Taylor", "tromp-taylor"),
            ("aga", "aga"),
        ] {
            assert_eq!(rules_from_name(ru).map(|r| r.name), Some(name), "{}", ru);
        }
    }
}
