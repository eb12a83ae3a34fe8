//! Vertices and colours as GTP and the game records between engines write them: `D4`, `j11`,
//! `pass`, `b`, `White`.
//!
//! Columns are lettered from the left skipping I, rows numbered from the bottom, and case does not
//! matter on input; output is upper case. This module sits just above `board` and imports nothing
//! else, so the protocol, the match tool and the tests share one reading of a vertex without
//! depending on each other.

use crate::board::{Board, Color, Move, Point, COLUMNS};

/// A colour as GTP writes it: `b`, `black`, `w`, `white`, in any case.
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Why a vertex was not accepted.
#[derive(Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not a vertex at all (`syntax error`).
    Malformed,
    /// A well-formed vertex beyond this board's edge.
    OffBoard,
}

/// A vertex (`D4`, `j11`, `pass`) on `board`: column letters skip I, rows count from the
/// bottom, case does not matter.
pub fn parse_vertex(s: &str, board: &Board) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return Err(VertexError::Malformed);
    }
    let letter = bytes[0].to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&c| c == letter)
        .ok_or(VertexError::Malformed)?;
    let digits = &s[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return Err(VertexError::Malformed);
    }
    let row: usize = digits.parse().map_err(|_| VertexError::Malformed)?;
    let n = board.size();
    if col >= n || row == 0 || row > n {
        return Err(VertexError::OffBoard);
    }
    Ok(Move::Play(board.point(col, n - row)))
}

/// A point as GTP writes it, upper case: `D4`.
pub fn format_point(board: &Board, p: Point) -> String {
    let (col, row) = board.coords(p);
    format!("{}{}", COLUMNS[col] as char, board.size() - row)
}

/// A move as GTP writes it: a vertex or `pass`.
pub fn format_move(board: &Board, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => format_point(board, p),
    }
}

/// Points as a vertex list, in board order (top row first) so answers are reproducible.
pub fn format_points(board: &Board, points: &[Point]) -> String {
    let mut sorted = points.to_vec();
    sorted.sort();
    sorted
        .iter()
        .map(|&p| format_point(board, p))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices() {
        let b = Board::new(19).unwrap();
        assert_eq!(parse_vertex("pass", &b), Ok(Move::Pass));
        assert_eq!(parse_vertex("PaSs", &b), Ok(Move::Pass));
        assert_eq!(parse_vertex("a1", &b), Ok(Move::Play(b.point(0, 18))));
        assert_eq!(parse_vertex("T19", &b), Ok(Move::Play(b.point(18, 0))));
        assert_eq!(parse_vertex("j10", &b), Ok(Move::Play(b.point(8, 9))));
        assert_eq!(parse_vertex("i5", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("U1", &b), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("A20", &b), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("A0", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A05", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A", &b), Err(VertexError::Malformed));
        assert_eq!(parse_vertex("A+1", &b), Err(VertexError::Malformed));
        assert_eq!(format_move(&b, Move::Play(b.point(8, 9))), "J10");
    }
}
