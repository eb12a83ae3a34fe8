//! Games written as text diagrams, the way tests and tools write positions.

use super::{Game, GameError};
use crate::board::{Color, Move, Point};
use crate::rules::Rules;
use std::fmt;

/// Why a diagram is not a position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DiagramError {
    /// As many rows as this: not a supported board side.
    Size(usize),
    /// A row (0 = top) with another number of points than there are rows.
    Width { row: usize },
    /// A character that is neither a stone nor an empty point.
    Character { row: usize, ch: char },
    /// Lowercase stones that do not make the rules' opening placements.
    Opening,
    /// The stones are not a position (a group without liberties), or a placement is illegal.
    Game(GameError),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DiagramError::Size(n) => write!(f, "{} rows: not a board size (2 to 25)", n),
            DiagramError::Width { row } => write!(f, "row {} is not as wide as the board", row),
            DiagramError::Character { row, ch } => write!(f, "row {}: unexpected {:?}", row, ch),
            DiagramError::Opening => {
                f.write_str("lowercase stones are not the rules' opening placements")
            }
            DiagramError::Game(e) => write!(f, "not a position: {}", e),
        }
    }
}

impl Game {
    /// A game set up from a diagram: one row of text per board row, top row first, `X` a Black
    /// stone, `O` a White stone, `.` an empty point; white space between points is ignored, and
    /// the board's side is the number of rows. Lowercase `x` and `o` are stones placed by moves
    /// where the rules open with placements (pre-judgement: White, Black, White, Black), each
    /// colour's in reading order, so that play continues after the opening; under other rules
    /// they are set-up stones like the uppercase ones. How tests and tools write positions.
    pub fn from_diagram<S: AsRef<str>>(rows: &[S], rules: Rules) -> Result<Game, DiagramError> {
        let size = rows.len();
        let mut g = Game::new(size, rules).ok_or(DiagramError::Size(size))?;
        let mut stones = Vec::new();
        // Stones for the opening placements by colour index, in reading order.
        let mut placements: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        for (row, line) in rows.iter().enumerate() {
            let points: Vec<char> = line
                .as_ref()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if points.len() != size {
                return Err(DiagramError::Width { row });
            }
            for (col, ch) in points.into_iter().enumerate() {
                let p = g.board.point(col, row);
                match ch {
                    'X' => stones.push((p, Some(Color::Black))),
                    'O' => stones.push((p, Some(Color::White))),
                    'x' => placements[Color::Black.index()].push(p),
                    'o' => placements[Color::White.index()].push(p),
                    '.' => {}
                    ch => return Err(DiagramError::Character { row, ch }),
                }
            }
        }
        let placed = placements[0].len() + placements[1].len();
        let play_placements = rules.opening_placements > 0 && placed > 0;
        if !play_placements {
            for c in [Color::Black, Color::White] {
                stones.extend(placements[c.index()].iter().map(|&p| (p, Some(c))));
            }
        }
        g.setup(&stones).map_err(DiagramError::Game)?;
        if play_placements {
            if placed != rules.opening_placements as usize {
                return Err(DiagramError::Opening);
            }
            let mut next = [placements[0].iter(), placements[1].iter()];
            while let Some(c) = rules.opening_color(g.move_number()) {
                let &p = next[c.index()].next().ok_or(DiagramError::Opening)?;
                g.play(c, Move::Play(p)).map_err(DiagramError::Game)?;
            }
        }
        Ok(g)
    }
}
