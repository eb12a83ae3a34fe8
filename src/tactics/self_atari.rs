//! Which self-ataris are worth playing. A group of two or more stones put in atari is a gift
//! to the opponent, except when it fills the opponent's eye space in a dead shape: once taken
//! it leaves one eye only. A lone stone in atari stays allowed (a throw-in, a nakade placement
//! or a ko capture is often the point of the move).
//!
//! Reads the board as it stands, one ply deep (liberties counted with captures), and never
//! changes it or allocates: the playouts ask this of most of their moves.

use super::eyes::{is_eye_once_captured, is_nakade_shape, NAKADE_MAX};
use super::groups_next_to;
use crate::board::{Board, Cell, Color, Point};

/// Whether playing `p` for `c` is a self-atari not worth playing: the new stone joins own
/// stones into a group left with one liberty (captures counted), which the opponent takes at
/// once. A lone stone in atari stays allowed: a throw-in, a nakade placement or a ko capture
/// is often the point of the move. So is a group that fills the opponent's eye space in a
/// dead shape ([`is_nakade_fill`]): once taken, it leaves an eye space with one eye.
#[inline]
pub fn is_bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    board.liberties_after(p, c) <= 1
        && board
            .neighbours(p)
            .iter()
            .any(|&n| board.color(n) == Some(c))
        && !is_nakade_fill(board, p, c)
}

/// Whether a stone of `c` on `p` makes a group of two to six stones in atari that fills the
/// opponent's eye space (the group and its last liberty walled in by opponent stones and the
/// edge) in a nakade shape: the opponent's capture leaves an eye space that the vital point
/// kills. Such self-ataris are how eye spaces are destroyed.
pub fn is_nakade_fill(board: &Board, p: Point, c: Color) -> bool {
    let mut stones = [Point::NONE; NAKADE_MAX];
    stones[0] = p;
    let mut len = 1;
    let mut liberty = None;
    let mut i = 0;
    while i < len {
        for n in board.neighbours(stones[i]) {
            if n == p || stones[..len].contains(&n) {
                continue;
            }
            match board.cell(n) {
                Cell::Wall => {}
                Cell::Empty => match liberty {
                    None => liberty = Some(n),
                    Some(l) if l == n => {}
                    Some(_) => return false,
                },
                cell if cell == c.cell() => {
                    if len == NAKADE_MAX {
                        return false;
                    }
                    stones[len] = n;
                    len += 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    // The eye space is the group and its liberty: walled in by the opponent alone.
    let Some(liberty) = liberty else {
        return false;
    };
    let enclosed = board.neighbours(liberty).iter().all(|&n| {
        stones[..len].contains(&n)
            || matches!(board.cell(n), Cell::Wall)
            || board.color(n) == Some(c.opponent())
    });
    len >= 2
        && enclosed
        && is_nakade_shape(board, &stones[..len])
        && !wall_has_another_eye(board, &stones[..len], liberty, c.opponent())
}

/// Whether a group of `owner`'s walling in the eye space `stones` + `liberty` has an eye
/// outside it, or a false eye that capturing `stones` makes real: one eye elsewhere and the one
/// the space leaves make two, so filling the space kills nothing (in a seki, where both sides'
/// stones share the space's liberty, it would throw the filler's stones away).
fn wall_has_another_eye(board: &Board, stones: &[Point], liberty: Point, owner: Color) -> bool {
    let mut space = [Point::NONE; NAKADE_MAX + 1];
    space[..stones.len()].copy_from_slice(stones);
    space[stones.len()] = liberty;
    let mut wall = [Point::NONE; 4 * (NAKADE_MAX + 1)];
    let n = groups_next_to(board, &space[..=stones.len()], owner, &mut wall);
    wall[..n].iter().any(|&g| {
        let mut eye = false;
        board.for_each_liberty(g, |l| {
            eye |= l != liberty && is_eye_once_captured(board, l, owner, stones)
        });
        eye
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{board, PACHI_SEKI};
    use super::*;

    #[test]
    fn self_atari_of_a_lone_throw_in_is_allowed_but_not_of_a_group() {
        let b = board(&[
            "O..X.", //
            "XXXX.", //
            ".....", //
            ".....", //
            ".....",
        ]);
        // White C5 alone, one liberty, beside Black's stones: a throw-in, allowed.
        assert!(!is_bad_self_atari(&b, b.point(2, 0), Color::White));
        // White B5 joins A5 into a two-stone group in atari inside Black's eye space A5-C5:
        // once taken, it leaves Black one eye there. Allowed.
        assert!(!is_bad_self_atari(&b, b.point(1, 0), Color::White));
        // Without Black D5 the last liberty C5 opens to the side: a wasted group, not allowed.
        let mut open = b.clone();
        open.clear_stone(open.point(3, 0));
        assert!(is_bad_self_atari(&open, open.point(1, 0), Color::White));
        // A move with liberties to spare is no self-atari.
        assert!(!is_bad_self_atari(&b, b.point(2, 3), Color::White));
    }

    #[test]
    fn filling_an_eye_space_in_a_dead_shape_is_no_bad_self_atari() {
        // Black's corner has the squared-four eye space A1 B1 A2 B2 (rows top first). White
        // already stands on A2 and B1; White B2 makes the bent three A2 B2 B1 in atari, which
        // Black takes, leaving an eye space whose vital point White then holds.
        let b = board(&[
            "......", //
            "......", //
            "......", //
            "XXXX..", //
            "O.XX..", //
            ".OXX..",
        ]);
        let b2 = b.point(1, 4);
        assert!(is_nakade_fill(&b, b2, Color::White));
        assert!(!is_bad_self_atari(&b, b2, Color::White));
        // A straight four of stones in atari would leave Black two eyes: still a bad self-atari.
        let s = board(&[
            "......", //
            "XXXXXX", //
            "O.OO.X", //
            "XXXXXX", //
            "......", //
            "......",
        ]);
        assert!(!is_nakade_fill(&s, s.point(1, 2), Color::White));
        assert!(is_bad_self_atari(&s, s.point(1, 2), Color::White));
        // Nor is a self-atari whose last liberty opens outside: no eye space is filled.
        let t = board(&[
            "O.....", //
            "XXXX..", //
            "......", //
            "......", //
            "......", //
            "......",
        ]);
        assert!(!is_nakade_fill(&t, t.point(1, 0), Color::White));
    }

    #[test]
    fn no_eye_space_is_filled_in_a_seki() {
        // In the seki of the Pachi game, Black may fill neither A6 nor A9: capturing the
        // corner would make C9 White's second eye.
        let b = board(&PACHI_SEKI);
        for p in [b.point(0, 3), b.point(0, 0)] {
            assert!(!is_nakade_fill(&b, p, Color::Black));
            assert!(is_bad_self_atari(&b, p, Color::Black));
        }
    }

    #[test]
    fn no_eye_space_is_filled_when_the_wall_has_another_eye() {
        // The lower left of a finished game against Pachi (tengen White, game 4 of the 8b20961
        // match): Black A2 and B1 share B2 with White's wall, which has its own eye at D1. A
        // seki: Black A1 or B2 would hand White a capture and a second eye, so neither is a
        // nakade fill. With D1 filled and an outside liberty at F2 instead of the eye, A1 is.
        let seki = [
            "......", //
            "XXXXXX", //
            "XXOXXX", //
            "OOOOXX", //
            "X.OOOX", //
            ".XO.OO",
        ];
        let b = board(&seki);
        for p in [b.point(0, 5), b.point(1, 4)] {
            assert!(!is_nakade_fill(&b, p, Color::Black));
            assert!(is_bad_self_atari(&b, p, Color::Black));
        }
        let mut no_eye = seki;
        no_eye[4] = "X.OOO.";
        no_eye[5] = ".XOOOO";
        let b = board(&no_eye);
        assert!(is_nakade_fill(&b, b.point(0, 5), Color::Black));
    }
}
