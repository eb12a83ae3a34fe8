//! Fights over liberties next to the last move: saving a group in atari, and attacking or
//! defending a group with two liberties.
//!
//! Each function reads the board as it stands and adds candidate points to a [`Candidates`]
//! list; none changes the board. A move is offered only when it is legal and does what it says
//! at one ply's reading (liberties counted with captures), or, where a group would be left
//! with two liberties, when the [`ladder`](super::ladder) reader agrees.

use super::ladder::{atari_captures, ladder_captured};
use super::{for_each_adjacent_enemy, Candidates};
use crate::board::{Board, Color, Point};

/// The moves that save `stone`'s group, in atari, for its owner: capturing an adjacent
/// attacker in atari, or extending at the liberty when that gains liberties without running
/// into a ladder. Adds them to `out`.
pub fn saving_moves(board: &Board, stone: Point, out: &mut Candidates) {
    let Some(c) = board.color(stone) else { return };
    for_each_adjacent_enemy(board, stone, |e| {
        if let Some(l) = board.atari_liberty(e) {
            if board.is_legal(l, c) {
                out.push(l);
            }
        }
    });
    if let Some(l) = board.atari_liberty(stone) {
        if board.is_legal(l, c) {
            match board.liberties_after(l, c) {
                0 | 1 => {}
                2 => {
                    if !ladder_captured(board, stone) {
                        out.push(l);
                    }
                }
                _ => out.push(l),
            }
        }
    }
}

/// Two-liberty tactics around `stone`'s group (exactly two liberties), for `c` to move: if the
/// group is `c`'s, the liberties that take it to three or more; if it is the opponent's, the
/// ataris that capture it (the escape runs into a ladder or gains nothing), without playing a
/// stone the opponent could take at once.
pub fn two_liberty_moves(board: &Board, stone: Point, c: Color, out: &mut Candidates) {
    let Some((l1, l2)) = board.two_liberties(stone) else {
        return;
    };
    let own = board.color(stone) == Some(c);
    for (l, other) in [(l1, l2), (l2, l1)] {
        if !board.is_legal(l, c) {
            continue;
        }
        if own {
            if board.liberties_after(l, c) >= 3 {
                out.push(l);
            }
        } else if board.liberties_after(l, c) >= 2 && atari_captures(board, l, other, c, stone) {
            out.push(l);
        }
    }
}

/// The two-liberty tactics around `last` (a stone, the last move) for `c` to move: those of
/// `last`'s group and of `c`'s groups next to it ([`two_liberty_moves`]), `last`'s first.
pub fn two_liberty_moves_around(board: &Board, last: Point, c: Color, out: &mut Candidates) {
    if board.liberties(last) == 2 {
        two_liberty_moves(board, last, c, out);
    }
    for n in board.neighbours(last) {
        if board.color(n) == Some(c) && board.liberties(n) == 2 {
            two_liberty_moves(board, n, c, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{board, LADDER};
    use super::*;

    #[test]
    fn running_into_a_ladder_saves_nothing() {
        let b = board(&LADDER);
        let mut out = Candidates::default();
        saving_moves(&b, b.point(3, 3), &mut out);
        assert!(out.as_slice().is_empty());
        // With a ladder breaker the extension is the saving move.
        let mut rows = LADDER;
        rows[1] = ".....O.";
        let b = board(&rows);
        let mut out = Candidates::default();
        saving_moves(&b, b.point(3, 3), &mut out);
        assert_eq!(out.as_slice(), &[b.point(4, 3)]);
    }

    #[test]
    fn counter_capture_saves_a_group() {
        // White C3 and Black D3 are both in atari; White saves C3 by taking D3 at D2.
        let b = board(&[
            ".....", //
            "..XO.", //
            ".XOXO", //
            ".....", //
            ".....",
        ]);
        let w = b.point(2, 2);
        assert_eq!(b.liberties(w), 1);
        let mut out = Candidates::default();
        saving_moves(&b, w, &mut out);
        assert!(out.as_slice().contains(&b.point(3, 3)));
    }

    #[test]
    fn two_liberties_are_attacked_and_defended() {
        // A lone Black stone in the corner of an empty board: White's atari on either side
        // drives it along a ladder to its death; Black extends to three liberties.
        let mut b = Board::new(5).unwrap();
        let a5 = b.point(0, 0);
        b.set_stone(a5, Color::Black);
        let mut attack = Candidates::default();
        two_liberty_moves(&b, a5, Color::White, &mut attack);
        assert_eq!(attack.as_slice().len(), 2);
        let mut defence = Candidates::default();
        two_liberty_moves(&b, a5, Color::Black, &mut defence);
        assert_eq!(defence.as_slice().len(), 2);
        // A stone with a friend nearby is no ladder: White's atari at B5 lets Black run to A4
        // and connect out to B3's stone, so only ataris that still work are offered.
        b.set_stone(b.point(1, 2), Color::Black);
        let mut attack = Candidates::default();
        two_liberty_moves(&b, a5, Color::White, &mut attack);
        assert!(attack.as_slice().len() < 2);
    }
}
