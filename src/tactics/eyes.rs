//! Eye spaces: the nakade shapes (an eye space that makes one eye only once the opponent holds
//! its vital point), the vital point of a small walled-in space, and the false eye whose
//! filling breaks a seki.
//!
//! Shapes are read from adjacencies alone (how many neighbouring pairs a set of points has,
//! and the most neighbours one of them has), so they hold in every orientation and on the
//! edge. Nothing here changes the board or allocates; a shape has at most six (`NAKADE_MAX`)
//! points.

use super::groups_next_to;
use crate::board::{Board, Cell, Color, Point};

/// The most points a nakade shape has (the rabbity six).
pub(super) const NAKADE_MAX: usize = 6;

/// Whether `points` (connected, distinct) form an eye space that one eye is all it makes when
/// the opponent holds its vital point: any three points, the square and the T of four, the
/// bulky and the crossed five, the rabbity six. Read from the shape's adjacencies: `edges`
/// pairs of neighbours and the highest number of neighbours one point has in the shape.
pub(super) fn is_nakade_shape(board: &Board, points: &[Point]) -> bool {
    let (edges, top) = adjacencies(board, points);
    match points.len() {
        1..=3 => true,
        4 => top == 3 || edges == 4,
        5 => top == 4 || edges == 5,
        6 => top == 4 && edges == 6,
        _ => false,
    }
}

/// How many of `p`'s neighbours are among `points`.
fn degree(board: &Board, points: &[Point], p: Point) -> usize {
    board
        .neighbours(p)
        .iter()
        .filter(|n| points.contains(n))
        .count()
}

/// The number of neighbouring pairs among `points`, and the most neighbours in `points` that
/// one of them has.
fn adjacencies(board: &Board, points: &[Point]) -> (usize, usize) {
    let degrees = points.iter().map(|&p| degree(board, points, p));
    (
        degrees.clone().sum::<usize>() / 2,
        degrees.max().unwrap_or(0),
    )
}

/// The vital point of a nakade shape: the one point with the most neighbours inside it (the
/// square four has none and needs none).
fn vital_point(board: &Board, points: &[Point]) -> Option<Point> {
    let (_, top) = adjacencies(board, points);
    let mut at_top = points
        .iter()
        .copied()
        .filter(|&p| degree(board, points, p) == top);
    let v = at_top.next()?;
    at_top.next().is_none().then_some(v)
}

/// The vital point of an eye space next to `last` (the last move played): a region of three
/// to six empty points, walled in by `last`'s colour alone, in a nakade shape. Whoever moves
/// there first decides whether the space holds two eyes, so it is the move to play: the
/// owner makes life with it, the opponent kills. Typically found right after a capture.
pub fn nakade_vital_point(board: &Board, last: Point) -> Option<Point> {
    let owner = board.color(last)?.cell();
    let mut region = [Point::NONE; NAKADE_MAX];
    'next: for start in board.neighbours(last) {
        if !board.is_empty(start) || region.contains(&start) {
            continue;
        }
        // A point of a small walled-in space next to the last stone touches the wall twice
        // (only a vital point touched by the last stone alone is missed); in open areas it
        // touches it once, and this spares the fill there.
        let walls = board
            .neighbours(start)
            .iter()
            .filter(|&&n| matches!(board.cell(n), Cell::Wall) || board.cell(n) == owner)
            .count();
        if walls < 2 {
            continue;
        }
        region[0] = start;
        let mut len = 1;
        let mut i = 0;
        while i < len {
            for n in board.neighbours(region[i]) {
                match board.cell(n) {
                    Cell::Wall => {}
                    Cell::Empty => {
                        if !region[..len].contains(&n) {
                            if len == NAKADE_MAX {
                                continue 'next;
                            }
                            region[len] = n;
                            len += 1;
                        }
                    }
                    cell if cell == owner => {}
                    _ => continue 'next,
                }
            }
            i += 1;
        }
        if len >= 3 && is_nakade_shape(board, &region[..len]) {
            if let Some(v) = vital_point(board, &region[..len]) {
                return Some(v);
            }
        }
    }
    None
}

/// Whether `p` is an eye of `owner` now, or becomes one when the opponent's `stones` are
/// captured: a point that only those stones falsify (a false eye waiting for that capture).
pub(super) fn is_eye_once_captured(
    board: &Board,
    p: Point,
    owner: Color,
    stones: &[Point],
) -> bool {
    board.is_eye(p, owner)
        || (board.is_eyeish(p, owner)
            && board
                .diagonals(p)
                .iter()
                .all(|d| board.color(*d) != Some(owner.opponent()) || stones.contains(d)))
}

/// Whether a stone of `c` on `p` fills its own false eye in a seki: `p` is walled in by two of
/// `c`'s groups with two liberties each, and their other liberties are the two liberties of one
/// opponent group between them. As things stand nobody can approach (whoever fills a shared
/// liberty is captured); once `p` is filled the two groups are one with only the shared
/// liberties left, and the opponent's filling of one of them becomes a nakade: the seki is
/// broken to the filler's cost. (`p` is no eye to [`Board::is_eye`]: an opponent stone falsifies
/// it, but the capture that false eye waits for never comes.)
pub fn breaks_false_eye_seki(board: &Board, p: Point, c: Color) -> bool {
    if !board.is_eyeish(p, c) {
        return false;
    }
    // Exactly two own groups around `p`, each with two liberties; their others than `p`.
    let mut groups = [Point::NONE; 4];
    if groups_next_to(board, &[p], c, &mut groups) != 2 {
        return false;
    }
    let mut others = [Point::NONE; 2];
    for (other, &g) in others.iter_mut().zip(&groups) {
        let Some((a, b)) = board.two_liberties(g) else {
            return false;
        };
        *other = if a == p { b } else { a };
    }
    // One opponent group with exactly those two liberties.
    let [l1, l2] = others;
    board.neighbours(l1).iter().any(|&q| {
        board.color(q) == Some(c.opponent())
            && board
                .two_liberties(q)
                .is_some_and(|(a, b)| (a, b) == (l1, l2) || (a, b) == (l2, l1))
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{board, PACHI_SEKI};
    use super::*;

    #[test]
    fn the_vital_point_of_a_walled_in_eye_space_is_found() {
        // Black just captured: the bent three A1 A2 B1 in the corner, Black all around it.
        let b = board(&[
            ".....", //
            ".....", //
            "XX...", //
            ".X...", //
            "..X..",
        ]);
        let (a1, a2, b1) = (b.point(0, 4), b.point(0, 3), b.point(1, 4));
        assert!([a1, a2, b1].iter().all(|&p| b.is_empty(p)));
        assert_eq!(nakade_vital_point(&b, b.point(1, 3)), Some(a1));
        // A straight four walled in makes two eyes whoever plays: no vital point.
        let s = board(&[
            "XXXXXX", //
            "X....X", //
            "XXXXXX", //
            "......", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&s, s.point(0, 1)), None);
        // The pyramid four's vital point is its centre; a region open to White is no eye space.
        let t = board(&[
            "XXXXX.", //
            "X...X.", //
            "XX.XX.", //
            ".XXX..", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&t, t.point(0, 1)), Some(t.point(2, 1)));
        let u = board(&[
            "XXXXX.", //
            "X...X.", //
            "XX.XX.", //
            ".XOX..", //
            "......", //
            "......",
        ]);
        assert_eq!(nakade_vital_point(&u, u.point(0, 1)), None);
    }

    #[test]
    fn filling_a_false_eye_in_a_seki_is_refused() {
        let b = board(&PACHI_SEKI);
        assert!(breaks_false_eye_seki(&b, b.point(2, 0), Color::White));
        // Nothing to break when Black's corner has a third liberty (B8 empty).
        let mut freed = PACHI_SEKI;
        freed[1] = "X.OOOX.X.";
        let open = board(&freed);
        assert!(!breaks_false_eye_seki(
            &open,
            open.point(2, 0),
            Color::White
        ));
        // An ordinary point is no false eye.
        assert!(!breaks_false_eye_seki(&b, b.point(6, 1), Color::Black));
    }
}
