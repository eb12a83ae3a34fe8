//! Why a game operation was refused, in words a GTP client can show.

use super::MAX_MOVES;
use crate::board::{BoardError, Color};
use std::fmt;

/// Why a game operation was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The board refuses the stone (off board, occupied, suicide, basic ko).
    Board(BoardError),
    /// The move would recreate an earlier whole-board position.
    Superko,
    /// A pass during the pre-judgement opening.
    PassInOpening,
    /// The wrong colour for this opening placement.
    WrongColorInOpening { expected: Color },
    /// Setup or handicap stones once moves have been played, or on occupied points.
    BoardNotEmpty,
    /// Nothing to undo.
    NothingToUndo,
    /// The record already holds [`MAX_MOVES`] moves.
    TooLong,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GameError::Board(e) => write!(f, "{}", e),
            GameError::Superko => f.write_str("superko (repeats an earlier position)"),
            GameError::PassInOpening => f.write_str("no pass during the opening placements"),
            GameError::WrongColorInOpening { expected } => {
                write!(f, "opening placement is {}'s", expected)
            }
            GameError::BoardNotEmpty => f.write_str("board not empty"),
            GameError::NothingToUndo => f.write_str("nothing to undo"),
            GameError::TooLong => write!(f, "the game has reached {} moves", MAX_MOVES),
        }
    }
}

impl From<BoardError> for GameError {
    fn from(e: BoardError) -> GameError {
        GameError::Board(e)
    }
}
