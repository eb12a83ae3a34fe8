//! SGF (FF[4]) game records: reading the main line of a file into a [`Game`] and writing a game
//! out.
//!
//! The reader is tolerant where files in the wild differ — text before the first `(`, white
//! space anywhere between tokens, lower-case letters in property names (FF[3] style, ignored as
//! FF[4] asks), `tt` for a pass on boards up to 19×19, compressed point lists (`aa:cc`), several
//! games in a collection (the first is read) — and strict where the position would be wrong:
//! unknown board sizes, points off the board, moves the rules forbid. Only the main line is read:
//! at every branching the first variation. The parser keeps its own stack, so deep nesting cannot
//! exhaust the call stack.
//!
//! Loading either yields a complete new game or an error; the caller's game is never touched.

use crate::board::{Board, Color, Move, Point, Removal};
use crate::game::Game;
use crate::prejudgement::Predictions;
use crate::rules::{HalfPoints, Rules};
use std::collections::HashMap;
use std::fmt;

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

/// One node: its properties in file order, each with its values (escapes resolved).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub props: Vec<(String, Vec<String>)>,
}

impl Node {
    /// The values of property `id`, if present.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of property `id`.
    pub fn first(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|v| v.first()).map(|s| s.as_str())
    }
}

/// Whether the tree being read lies on the main line, and whether it has had a variation yet
/// (only the first one continues the main line).
struct Frame {
    main: bool,
    had_child: bool,
}

/// The most nodes a main line may have: the root, then for each move of the longest game a
/// [`Game`] holds its node and room for one node without a move. A longer record is refused
/// while it is read, before its nodes take hundreds of bytes each.
pub const MAX_MAIN_LINE_NODES: usize = 1 + 2 * crate::game::MAX_MOVES;

/// The main line of the first game in `text`: its nodes from the root on.
pub fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let chars: Vec<char> = text.chars().collect();
    let Some(start) = chars.iter().position(|&c| c == '(') else {
        return err("no game tree (no '(')");
    };
    let mut i = start;
    let mut stack: Vec<Frame> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' => {
                let main = match stack.last_mut() {
                    None => true,
                    Some(f) => {
                        let m = f.main && !f.had_child;
                        f.had_child = true;
                        m
                    }
                };
                stack.push(Frame {
                    main,
                    had_child: false,
                });
                i += 1;
            }
            ')' => {
                if stack.pop().is_none() {
                    return err("unbalanced ')'");
                }
                i += 1;
                if stack.is_empty() {
                    // The first game of the collection is complete; the rest is not read.
                    break;
                }
            }
            ';' => {
                let Some(frame) = stack.last() else {
                    return err("node outside a game tree");
                };
                if frame.had_child {
                    return err("node after variations");
                }
                let keep = frame.main;
                let (node, next) = read_node(&chars, i + 1)?;
                if keep {
                    if nodes.len() == MAX_MAIN_LINE_NODES {
                        return err(format!(
                            "more than {} nodes on the main line",
                            MAX_MAIN_LINE_NODES
                        ));
                    }
                    nodes.push(node);
                }
                i = next;
            }
            c if c.is_whitespace() => i += 1,
            _ if stack.is_empty() => i += 1,
            c => return err(format!("unexpected '{}' between nodes", c)),
        }
    }
    if !stack.is_empty() {
        return err("unbalanced '(' (file cut short?)");
    }
    if nodes.is_empty() {
        return err("empty game tree");
    }
    Ok(nodes)
}

/// Reads the properties of a node starting after its `;`; returns the node and where it ends.
fn read_node(chars: &[char], mut i: usize) -> Result<(Node, usize), SgfError> {
    let mut node = Node::default();
    // Where each property name stands in `node.props`: a node may hold very many.
    let mut index: HashMap<String, usize> = HashMap::new();
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() || matches!(chars[i], ';' | '(' | ')') {
            return Ok((node, i));
        }
        // Property identifier: upper-case letters count, lower-case ones are ignored (FF[3]).
        let mut id = String::new();
        while i < chars.len() && chars[i].is_ascii_alphabetic() {
            if chars[i].is_ascii_uppercase() {
                id.push(chars[i]);
            }
            i += 1;
        }
        if id.is_empty() {
            return err(format!(
                "expected a property name, found '{}'",
                chars.get(i).copied().unwrap_or(' ')
            ));
        }
        let mut values = Vec::new();
        loop {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            if i >= chars.len() || chars[i] != '[' {
                break;
            }
            let (v, next) = read_value(chars, i + 1)?;
            values.push(v);
            i = next;
        }
        if values.is_empty() {
            return err(format!("property {} has no value", id));
        }
        match index.get(&id) {
            // A repeated property (seen in some files) adds to the first.
            Some(&k) => node.props[k].1.extend(values),
            None => {
                index.insert(id.clone(), node.props.len());
                node.props.push((id, values));
            }
        }
    }
}

/// Reads a value after its `[` up to the closing `]`, resolving `\` escapes and dropping soft
/// line breaks (`\` before a newline).
fn read_value(chars: &[char], mut i: usize) -> Result<(String, usize), SgfError> {
    let mut v = String::new();
    while i < chars.len() {
        match chars[i] {
            ']' => return Ok((v, i + 1)),
            '\\' => {
                i += 1;
                match chars.get(i) {
                    Some('\n') => {
                        if chars.get(i + 1) == Some(&'\r') {
                            i += 1;
                        }
                    }
                    Some('\r') => {
                        if chars.get(i + 1) == Some(&'\n') {
                            i += 1;
                        }
                    }
                    Some(&c) => v.push(c),
                    None => break,
                }
                i += 1;
            }
            c => {
                v.push(c);
                i += 1;
            }
        }
    }
    err("property value without its ']'")
}

/// A point in SGF letters (`a` = first column or the top row), `None` for a pass (`""`, or
/// `tt` on boards up to 19×19).
fn parse_point(s: &str, board: &Board) -> Result<Option<Point>, SgfError> {
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

/// How `RU` writes a ruleset.
fn rules_name(rules: &Rules) -> String {
    let mut name = rules.name.to_string();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    name
}

/// Builds the game of an SGF text: size `SZ` (19 when absent), komi `KM` (else `komi`), rules
/// `RU` when it names a tengen ruleset (else `rules`), setup stones `AB`/`AW`/`AE` before the
/// first move (the root's `AB` alone with `HA` are handicap stones), the side to move `PL` before
/// the first move, then the moves of the main line. A record that starts from setup stones has
/// no opening placements (see [`Game::opening_placements`]): its first move may be either
/// colour's, and without `PL` the side to move is the first move's colour, else the rules'. With `stop_before = Some(k)`, the position before move number `k` (1-based); a `k`
/// beyond the last move reads the whole game.
pub fn load(
    text: &str,
    rules: Rules,
    komi: HalfPoints,
    stop_before: Option<usize>,
) -> Result<Game, SgfError> {
    let nodes = main_line(text)?;
    let root = &nodes[0];
    if let Some(gm) = root.first("GM") {
        if gm.trim() != "1" {
            return err(format!("GM[{}] is not a game of Go", gm));
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
                _ => return err(format!("SZ[{}] is not a board size", s)),
            }
        }
    };
    let rules = root.first("RU").and_then(rules_from_name).unwrap_or(rules);
    let Some(mut game) = Game::new(size, rules) else {
        return err(format!("board size {} is not supported (2 to 25)", size));
    };
    let komi = match root.first("KM") {
        None => komi,
        Some(k) => match k.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v.abs() <= 10_000.0 => HalfPoints::round_from(v),
            _ => return err(format!("KM[{}] is not a komi", k)),
        },
    };
    game.set_komi(komi);
    let handicap = match root.first("HA") {
        None => 0,
        Some(h) => match h.trim().parse::<usize>() {
            Ok(h) => h,
            Err(_) => return err(format!("HA[{}] is not a number", h)),
        },
    };

    let mut number = 0usize;
    let mut pl_seen = false;
    for (index, node) in nodes.iter().enumerate() {
        let board = game.board().clone();
        let ab = parse_point_list(node.get("AB").unwrap_or(&[]), &board)?;
        let aw = parse_point_list(node.get("AW").unwrap_or(&[]), &board)?;
        let ae = parse_point_list(node.get("AE").unwrap_or(&[]), &board)?;
        if !(ab.is_empty() && aw.is_empty() && ae.is_empty()) {
            if game.move_number() > 0 {
                return err("setup stones after the first move are not supported");
            }
            let as_handicap = index == 0 && handicap > 0 && aw.is_empty() && ae.is_empty();
            let placed = if as_handicap {
                game.place_handicap(&ab)
            } else {
                let mut stones: Vec<(Point, Option<Color>)> =
                    ae.iter().map(|&p| (p, None)).collect();
                stones.extend(ab.iter().map(|&p| (p, Some(Color::Black))));
                stones.extend(aw.iter().map(|&p| (p, Some(Color::White))));
                // A record set up from stones is a position: its opening lies behind it.
                game.setup(&stones)
                    .and_then(|()| game.start_from_position())
            };
            if let Err(e) = placed {
                return err(format!("setup stones refused: {}", e));
            }
        }
        if let Some(pl) = node.first("PL") {
            let Some(color) = crate::coords::parse_color(pl.trim()) else {
                return err(format!("PL[{}] is not a colour", pl));
            };
            // After the first move the moves' own colours say who moves: `PL` there is
            // ignored.
            pl_seen |= game.set_start_to_move(color).is_ok();
        }
        let b = node.get("B");
        let w = node.get("W");
        let (color, values) = match (b, w) {
            (None, None) => continue,
            (Some(_), Some(_)) => return err("a node with both a Black and a White move"),
            (Some(v), None) => (Color::Black, v),
            (None, Some(v)) => (Color::White, v),
        };
        number += 1;
        if stop_before.is_some_and(|k| number >= k) {
            // Stopped before the first move: that move's colour is the side to move, unless
            // `PL` said it.
            if game.moves().next().is_none() && !pl_seen {
                let _ = game.set_start_to_move(color);
            }
            break;
        }
        let value = values[0].as_str();
        let mv = match parse_point(value, &board) {
            Ok(Some(p)) => Move::Play(p),
            Ok(None) => Move::Pass,
            Err(e) => return err(format!("move {}: {}", number, e)),
        };
        // `RM[own]`: the mover removed its own stones in a mutual capture (pre-judgement rules;
        // the game ignores the choice under rules that do not give it).
        let removal = match node.first("RM") {
            Some(r) if r.trim().eq_ignore_ascii_case("own") => Removal::Own,
            _ => Removal::Opponent,
        };
        if let Err(e) = game.play_with(color, mv, removal) {
            return err(format!(
                "move {} ({} {}) is illegal: {}",
                number,
                color.letter(),
                if value.is_empty() { "pass" } else { value },
                e
            ));
        }
    }
    Ok(game)
}

/// What a written record says besides the game itself.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub black: Option<String>,
    pub white: Option<String>,
    /// `RE`: `B+3.5`, `W+R`, `0`, …
    pub result: Option<String>,
    /// A comment on the root node.
    pub comment: Option<String>,
    /// The pre-judgement predictions, written as the first line of the root comment with the
    /// threshold they set.
    pub predictions: Option<Predictions>,
}

/// The pre-judgement predictions a record states in its root comment, if any (see
/// [`Predictions::from_comment`]).
pub fn predictions(text: &str) -> Option<Predictions> {
    let nodes = main_line(text).ok()?;
    Predictions::from_comment(nodes[0].first("C")?)
}

/// A property value with `]` and `\` escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn point_letters(board: &Board, p: Point) -> String {
    let (c, r) = board.coords(p);
    let letter = |i: usize| {
        (if i < 26 {
            b'a' + i as u8
        } else {
            b'A' + (i - 26) as u8
        }) as char
    };
    format!("{}{}", letter(c), letter(r))
}

/// The game as an FF[4] record: root properties (size, komi, rules, handicap, the starting
/// stones), then one node per move. No line is empty, so the text can be a GTP response.
pub fn write(game: &Game, info: &Info) -> String {
    let board = game.start_board();
    let mut root = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[tengen:{}]SZ[{}]KM[{}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        board.size(),
        game.komi(),
        rules_name(game.rules())
    );
    let comment = match (info.predictions, &info.comment) {
        (None, c) => c.clone(),
        (Some(p), None) => Some(p.comment_line()),
        (Some(p), Some(c)) => Some(format!("{}\n{}", p.comment_line(), c)),
    };
    for (id, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
        ("C", &comment),
    ] {
        if let Some(v) = value {
            root.push_str(&format!("{}[{}]", id, escape(v)));
        }
    }
    let handicap = game.handicap();
    if !handicap.is_empty() {
        root.push_str(&format!("HA[{}]", handicap.len()));
    }
    // Handicap stones a controller sent as moves are written as what they are: the root's
    // handicap stones, not moves.
    let skip = game.handicap_moves();
    for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let mut stones: Vec<Point> = board
            .points()
            .filter(|&p| board.color(p) == Some(color))
            .collect();
        if color == Color::Black && skip > 0 {
            stones.extend_from_slice(handicap);
        }
        stones.sort();
        if !stones.is_empty() {
            root.push_str(id);
            for p in stones {
                root.push_str(&format!("[{}]", point_letters(board, p)));
            }
        }
    }
    // A set-up position whose first mover is not the rules' says who moves first.
    let start = game.start_to_move();
    if handicap.is_empty() && game.opening_placements() == 0 && start != game.rules().first_player {
        root.push_str(&format!("PL[{}]", start.letter()));
    }
    let mut out = root;
    for (i, (m, removal)) in game.moves_with_removal().skip(skip).enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        let v = match m.mv {
            Move::Pass => String::new(),
            Move::Play(p) => point_letters(board, p),
        };
        out.push_str(&format!(";{}[{}]", m.color.letter(), v));
        // A move that removed the mover's own stones says so: replayed the default way it
        // would give another position.
        if removal == Removal::Own {
            out.push_str("RM[own]");
        }
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Margin;

    #[test]
    fn main_line_takes_first_variations() {
        let t = "junk (;GM[1]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))(;B[zz])";
        let nodes = main_line(t).unwrap();
        let moves: Vec<_> = nodes
            .iter()
            .filter_map(|n| n.first("B").or(n.first("W")))
            .collect();
        assert_eq!(moves, ["aa", "bb", "cc", "dd"]);
    }

    #[test]
    fn escapes_and_lower_case_names() {
        let nodes = main_line("(;C[a\\]b\\\\c\\\nd] AddBlack[aa][bb])").unwrap();
        assert_eq!(nodes[0].first("C"), Some("a]b\\cd"));
        assert_eq!(nodes[0].get("AB").unwrap().len(), 2);
    }

    #[test]
    fn malformed_texts_fail() {
        for t in [
            "",
            "(;",
            "(;B[aa]",
            "(;B)",
            "(;[aa])",
            "(;B[aa](;W[bb]);W[cc])",
        ] {
            assert!(main_line(t).is_err(), "{:?}", t);
        }
    }

    #[test]
    fn text_after_the_first_game_is_ignored() {
        assert!(main_line("(;B[aa])) trailing junk").is_ok());
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
        let g = load(&text, Rules::chinese(), HalfPoints(15), None).unwrap();
        assert_eq!(g.board().empty_points().len(), 9);
    }

    #[test]
    fn many_property_names_in_one_node_are_all_kept() {
        let names: Vec<String> = (0..5000)
            .map(|i| {
                let l = |k: usize| (b'A' + (i / k % 26) as u8) as char;
                format!("{}{}{}[x]", l(676), l(26), l(1))
            })
            .collect();
        let text = format!("(;SZ[9]{}AB[aa]AB[bb])", names.concat());
        let nodes = main_line(&text).unwrap();
        assert_eq!(nodes[0].props.len(), 5002);
        assert_eq!(
            nodes[0].get("AB").unwrap(),
            &["aa".to_string(), "bb".to_string()]
        );
    }

    #[test]
    fn deep_nesting_is_fine() {
        let mut t = "(;SZ[9]".to_string();
        for _ in 0..200_000 {
            t.push_str("(;B[aa]");
        }
        assert!(main_line(&t).is_err());
        for _ in 0..200_001 {
            t.push(')');
        }
        assert!(main_line(&t).is_ok());
    }

    #[test]
    fn load_setup_moves_and_stop() {
        let t = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]AB[aa:ab]AW[cc];B[dd];W[ee];B[];W[tt])";
        let g = load(t, Rules::chinese(), HalfPoints(15), None).unwrap();
        assert_eq!(g.rules().name, "japanese");
        assert_eq!(g.komi(), HalfPoints(13));
        assert_eq!(g.move_number(), 4);
        assert!(g.is_over());
        let g = load(t, Rules::chinese(), HalfPoints(15), Some(2)).unwrap();
        assert_eq!(g.move_number(), 1);
        let b = g.board();
        assert_eq!(b.color(b.point(0, 1)), Some(Color::Black));
        assert_eq!(b.color(b.point(2, 2)), Some(Color::White));
    }

    #[test]
    fn set_up_prejudgement_positions_have_no_opening() {
        // Set-up stones and Black's move first: no placement order applies.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd];B[bb];W[];B[])";
        let k = HalfPoints(0);
        let g = load(t, Rules::japanese(), k, None).unwrap();
        assert_eq!(
            (g.move_number(), g.in_opening(), g.opening_color()),
            (3, false, None)
        );
        // Stopped before the first move, the side to move is that move's colour…
        let g = load(t, Rules::japanese(), k, Some(1)).unwrap();
        assert_eq!((g.move_number(), g.to_move()), (0, Color::Black));
        assert_eq!(g.opening_placements(), 0);
        // …unless PL says otherwise; without either it is the rules' first player.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd]PL[W];B[bb])";
        let g = load(t, Rules::japanese(), k, Some(1)).unwrap();
        assert_eq!(g.to_move(), Color::White);
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd])";
        assert_eq!(
            load(t, Rules::japanese(), k, None).unwrap().to_move(),
            Color::White
        );
        assert!(load("(;SZ[5]AB[cc]PL[x])", Rules::japanese(), k, None).is_err());
        // PL round-trips through the written record.
        let t = "(;SZ[5]RU[prejudgement]AB[cc]AW[dd]PL[B])";
        let g = load(t, Rules::japanese(), k, None).unwrap();
        let back = load(&write(&g, &Info::default()), Rules::japanese(), k, None).unwrap();
        assert_eq!((back.to_move(), back.board()), (Color::Black, g.board()));
        // An empty board keeps the placements: Black may not open.
        let t = "(;SZ[5]RU[prejudgement];B[bb])";
        assert!(load(t, Rules::japanese(), k, None).is_err());
    }

    #[test]
    fn load_refuses_bad_positions() {
        let r = Rules::chinese();
        let k = HalfPoints(15);
        assert!(load("(;SZ[9];B[jj])", r, k, None).is_err());
        assert!(load("(;SZ[9];B[aa];W[aa])", r, k, None).is_err());
        assert!(load("(;SZ[30])", r, k, None).is_err());
        assert!(load("(;SZ[9:7])", r, k, None).is_err());
        assert!(load("(;GM[2])", r, k, None).is_err());
        assert!(load("(;SZ[9];B[aa];AW[bb])", r, k, None).is_err());
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
        let back = load(&text, Rules::chinese(), HalfPoints(0), None).unwrap();
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
        let back = load(&text, Rules::chinese(), HalfPoints(0), None).unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.handicap().len(), 2);
        assert_eq!(back.komi(), HalfPoints(-7));
        assert_eq!(back.rules().name, "japanese");
        assert_eq!(back.move_number(), 2);
        assert_eq!(main_line(&text).unwrap()[0].first("C"), Some("a ] b"));
    }
}
