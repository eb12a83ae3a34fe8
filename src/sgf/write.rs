//! Writing a game as an FF[4] record: the root's properties (size, komi, rules, handicap and the
//! starting stones, the players, the result, the pre-judgement predictions), then one node a
//! move. Escapes every value, so any name or comment round-trips through [`super::main_line`].

use super::rules_name;
use crate::board::{Board, Color, Move, Point, Removal};
use crate::game::Game;
use crate::prejudgement::Predictions;

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

/// A property value with `]` and `\` escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A point as SGF writes it: column then row, `a` first, `A` from the 27th line.
pub fn point_letters(board: &Board, p: Point) -> String {
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
