//! Capture races (semeai): read out move by move for the judgement of dead stones, and read
//! one ply deep for the playouts ([`race_moves`]).
//!
//! Random playouts decide a race between groups short of liberties by who happens to fill
//! first. A group that loses its race against any defence can look alive half the time — most
//! of all when the winner's liberties lie in an eye space holding the loser's stones, which
//! takes many moves in the right order to fill. The judgement asks this module instead whether
//! a group is captured by force, with its owner or the opponent moving first.
//!
//! The reading is local and bounded: only the liberties of the groups in the fight are tried
//! (the group, the opponent's groups next to it with few liberties, their neighbours with few
//! liberties in turn, see [`fight_groups`]), and the defender may pass as well; the attacker
//! never needs to. A line that reaches a ko, lets the group grow past [`ESCAPE`] liberties or
//! runs past the depth or node budget counts as a defence. So "captured" is a proof against
//! every local defence, and a fight the reader cannot finish is never called lost.
//!
//! The playouts cannot afford that reading at every move. [`race_moves`] reads the common
//! case in one ply and a ladder: a group of the side to move, short of liberties, next to an
//! opponent group with at most two liberties and no more than its own; taking the right
//! liberty of that group captures it whatever it does, unless it can run or take stones back.
//! Playouts that left such races to chance let a big group with one eye and one outside
//! liberty live against a group with three (issue 22).

use super::ladder::atari_captures;
use super::{for_each_adjacent_enemy, proof, Candidates};
use crate::board::{Board, Color, Point};

/// Groups with more liberties than this take no part in a fight: they are not short of them.
pub const MAX_LIBERTIES: usize = 6;

/// The defender's groups other than the target are extended only with at most this many
/// liberties: with more they are not the ones racing.
const HELPER_LIBERTIES: usize = 3;

/// A group with more liberties than this has escaped.
const ESCAPE: usize = 8;

/// Groups in one fight at most, the target's included.
const MAX_GROUPS: usize = 8;

/// Plies read at most in one line, deepened in steps so that a short proof is found before
/// the budget goes into long lines.
const DEPTHS: [u32; 5] = [6, 10, 14, 20, 30];

/// Positions read at most for one target.
const NODE_BUDGET: u32 = 50_000;

/// Whether the group with a stone on `target` is captured by force with `first` to move,
/// reading only the fight around it. With its owner first, whether it loses its race even
/// moving first; with the opponent first, the usual test of life and death (the owner answers
/// every move). `false` for an empty point, for a group with more than [`MAX_LIBERTIES`]
/// liberties and for a group that no opponent group short of liberties touches.
pub fn captured_by_force(board: &Board, target: Point, first: Color) -> bool {
    let Some(owner) = board.color(target) else {
        return false;
    };
    if board.liberties(target) > MAX_LIBERTIES || fight_groups(board, target).len() < 2 {
        return false;
    }
    let race = Race { target, owner };
    proof::captured_by_force(&race, board, first, &DEPTHS, NODE_BUDGET)
}

/// The moves by which the owner of `own`'s group (two liberties or more), to move, wins its
/// capture race against an opponent group next to it with at most two liberties and no more
/// than `own`'s: the capture of a group in atari; for a group with two liberties, the atari
/// that captures it by force — its stone keeps two liberties (so it is no self-atari and,
/// played on a liberty of `own`, leaves `own` two), the run at the other liberty gains nothing
/// or runs into a ladder ([`atari_captures`]), and no stone of the mover next to the group is
/// left in atari for it to take back. Adds them to `out` and returns the stones of the largest
/// group in a race won that way (0: none), own or opponent's, so that a caller can treat the
/// races of big groups as more urgent. A race that only a longer reading would win (or that is
/// lost: the opponent's group has more liberties, or the atari fails) adds nothing.
pub fn race_moves(board: &Board, own: Point, out: &mut Candidates) -> usize {
    let Some(c) = board.color(own) else { return 0 };
    let own_liberties = board.liberties(own);
    if own_liberties < 2 {
        return 0;
    }
    let own_stones = board.group_size(own);
    let mut seen = [Point::NONE; 8];
    let mut n_seen = 0;
    let mut largest = 0;
    for_each_adjacent_enemy(board, own, |e| {
        let head = board.group_of(e);
        if seen[..n_seen].contains(&head) {
            return;
        }
        if n_seen < seen.len() {
            seen[n_seen] = head;
            n_seen += 1;
        }
        let libs = board.liberties(e);
        if libs > 2 || libs > own_liberties {
            return;
        }
        let won = match (board.atari_liberty(e), board.two_liberties(e)) {
            (Some(l), _) => {
                let legal = board.is_legal(l, c);
                if legal {
                    out.push(l);
                }
                legal
            }
            (None, Some((l1, l2))) => {
                let mut any = false;
                for (l, other) in [(l1, l2), (l2, l1)] {
                    if atari_wins(board, e, l, other, c) {
                        out.push(l);
                        any = true;
                    }
                }
                any
            }
            _ => false,
        };
        if won {
            largest = largest.max(own_stones).max(board.group_size(e));
        }
    });
    largest
}

/// Whether a stone of `c` on `p` only fills a liberty of its own group in a capture race: a
/// group of `c` next to `p` with at most three liberties is left with fewer (the stone brings
/// none of its own), and an opponent group next to it, which the stone does not touch, has no
/// more liberties than it then keeps. The opponent, to move, is then ahead in the race: such a fill loses it by a tempo
/// where [`race_moves`] or a wait would not.
pub fn fills_race_liberty(board: &Board, p: Point, c: Color) -> bool {
    let mut short = Point::NONE;
    let mut most = 0;
    for n in board.neighbours(p) {
        match board.color(n) {
            Some(o) if o == c => {
                let libs = board.liberties(n);
                if libs > most {
                    most = libs;
                    short = n;
                }
            }
            // A capture is no mere fill.
            Some(_) if board.liberties(n) == 1 => return false,
            _ => {}
        }
    }
    if !(2..=3).contains(&most) {
        return false;
    }
    // The liberties of the group the stone makes, counted exactly up to `most`: those of the
    // own groups it joins and its own empty neighbours, less `p`.
    let mut libs = [Point::NONE; 4];
    let mut left = 0;
    let mut add = |l: Point| {
        if l != p && left < libs.len() && !libs[..left].contains(&l) {
            libs[left] = l;
            left += 1;
        }
    };
    for n in board.neighbours(p) {
        match board.color(n) {
            None if board.is_empty(n) => add(n),
            Some(o) if o == c => {
                if board.liberties(n) > 3 {
                    return false;
                }
                board.for_each_liberty(n, &mut add);
            }
            _ => {}
        }
    }
    if left >= most {
        return false;
    }
    // An opponent group that the stone touches loses a liberty too: that is an attack.
    let touched = |e: Point| {
        let head = board.group_of(e);
        board
            .neighbours(p)
            .iter()
            .any(|&n| board.color(n) == Some(c.opponent()) && board.group_of(n) == head)
    };
    let mut behind = false;
    for_each_adjacent_enemy(board, short, |e| {
        if !behind && board.liberties(e) <= left && !touched(e) {
            behind = true;
        }
    });
    behind
}

/// Whether `c`'s atari on `l` captures the group at `enemy` (two liberties, `l` and `other`)
/// whatever it does: see [`race_moves`].
fn atari_wins(board: &Board, enemy: Point, l: Point, other: Point, c: Color) -> bool {
    if !board.is_legal(l, c) || board.liberties_after(l, c) < 2 {
        return false;
    }
    // A stone of `c` next to the group in atari elsewhere than on `l` is taken back at once,
    // and the group is out.
    let mut takes_back = false;
    for_each_adjacent_enemy(board, enemy, |s| {
        if board.atari_liberty(s).is_some_and(|x| x != l) {
            takes_back = true;
        }
    });
    !takes_back && atari_captures(board, l, other, c, enemy)
}

/// The heads of the groups in the fight around the group on `target`: that group first, then
/// in turn the groups of the other colour next to a group already in that have at most
/// [`MAX_LIBERTIES`] liberties. For the target alone, a group next to one of its liberties
/// counts as next to it: a stone inside the opponent's eye space touches only empty points.
fn fight_groups(board: &Board, target: Point) -> Vec<Point> {
    let mut heads = vec![board.group_of(target)];
    let add = |heads: &mut Vec<Point>, n: Point, enemy: Color| {
        if board.color(n) != Some(enemy) {
            return;
        }
        let h = board.group_of(n);
        if heads.len() < MAX_GROUPS && !heads.contains(&h) && board.liberties(h) <= MAX_LIBERTIES {
            heads.push(h);
        }
    };
    let mut i = 0;
    while i < heads.len() {
        let g = heads[i];
        let Some(c) = board.color(g) else { break };
        for s in board.group_stones(g) {
            for n in board.neighbours(s) {
                add(&mut heads, n, c.opponent());
                if i == 0 && board.is_empty(n) {
                    for m in board.neighbours(n) {
                        add(&mut heads, m, c.opponent());
                    }
                }
            }
        }
        i += 1;
    }
    heads
}

/// The capture race around one group, read by [`proof::captured_by_force`].
struct Race {
    target: Point,
    owner: Color,
}

impl proof::Fight for Race {
    fn target(&self) -> Point {
        self.target
    }

    fn owner(&self) -> Color {
        self.owner
    }

    /// A group with more than [`ESCAPE`] liberties has escaped.
    fn defended(&self, board: &Board) -> bool {
        board.liberties(self.target) > ESCAPE
    }

    fn moves(&self, board: &Board, c: Color) -> Option<Vec<Point>> {
        Some(self.fight_moves(board, c))
    }
}

impl Race {
    /// The legal moves of the fight for `c`, most urgent first: captures; saving an own group
    /// in atari; for the attacker, the target's liberties; the liberties of the opponent's
    /// other groups, those with fewest first; the defender's own liberties (the target's, and
    /// those of its other groups short of them, at most [`HELPER_LIBERTIES`]), the attacker's
    /// on its groups of two liberties (a stone short of the race connects out first); last,
    /// the self-ataris that capture nothing. The attacker never fills its own eyes and plays
    /// on its own groups' liberties only for those: only the defender must be given every
    /// chance.
    fn fight_moves(&self, board: &Board, c: Color) -> Vec<Point> {
        let target = board.group_of(self.target);
        let attacker = c != self.owner;
        let mut scored = proof::Urgencies::default();
        for h in fight_groups(board, self.target) {
            let libs = board.liberties(h) as u32;
            let urgency = match (board.color(h) == Some(c), libs) {
                (false, 1) => 30,
                (true, 1) => 25,
                (false, _) if h == target => 20,
                (false, _) => 10 - libs.min(9),
                (true, _) if !attacker && (h == target || libs as usize <= HELPER_LIBERTIES) => 2,
                (true, 2) => 2,
                (true, _) => continue,
            };
            board.for_each_liberty(h, |l| scored.add(urgency, l));
        }
        scored.moves(|urgency, p| {
            if !board.is_legal(p, c) || (attacker && board.is_eye(p, c)) {
                None
            } else if urgency < 30 && board.liberties_after(p, c) == 1 {
                Some(1)
            } else {
                Some(urgency)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;
    use Color::{Black, White};

    fn board(rows: &[&str]) -> Board {
        Game::from_diagram(rows, Rules::chinese())
            .unwrap()
            .board()
            .clone()
    }

    /// A finished 9×9 game (GNU Go Black, tengen White): Black's centre group (E5 … F1) has
    /// three liberties, F4 G2 G1; White's lower-left group has three too, A1 B2 C1, around
    /// Black's B1. White wins the race by one move even when Black moves first: the pyramid
    /// four A1 B1 C1 B2 takes Black many moves to fill.
    const NAKADE_RACE: [&str; 9] = [
        "..XXO....",
        "..XOO....",
        ".XXO..O..",
        ".XXOOO...",
        "X.XOXO...",
        "XXOXX.OO.",
        "OOOOXXXO.",
        "O.OOOX.O.",
        ".X.OXX...",
    ];

    #[test]
    fn a_race_against_an_eye_space_with_own_stones_inside_is_lost() {
        let b = board(&NAKADE_RACE);
        // E5, Black's centre group, and B1, Black's stone inside White's eye space.
        assert!(captured_by_force(&b, b.point(4, 4), Black));
        assert!(captured_by_force(&b, b.point(1, 8), Black));
        // White's lower-left group (C3) wins the race when Black moves first as well.
        assert!(!captured_by_force(&b, b.point(2, 6), Black));
    }

    /// White's W (C6 D6 E6) over Black's B (C5 D5 E5), each shut in by a wall of the other
    /// colour with many liberties, W's liberties two holes in Black's wall (C7 E7), B's
    /// liberties holes in White's (C4 E4, and D4 with `gap`).
    fn race(gap: bool) -> Board {
        board(&[
            ".........",
            ".XXXXX...",
            ".X.X.X...",
            ".XOOOX...",
            ".OXXXO...",
            if gap { ".O...O..." } else { ".O.O.O..." },
            ".OOOOO...",
            ".........",
            ".........",
        ])
    }

    #[test]
    fn whoever_moves_first_wins_an_even_race() {
        let b = race(false);
        // Black's C5 and White's C6 each live moving first and die when the other does.
        assert!(!captured_by_force(&b, b.point(2, 4), Black));
        assert!(!captured_by_force(&b, b.point(2, 3), White));
        assert!(captured_by_force(&b, b.point(2, 4), White));
        assert!(captured_by_force(&b, b.point(2, 3), Black));
    }

    #[test]
    fn a_race_one_liberty_short_is_lost_even_moving_first() {
        let b = race(true);
        assert_eq!(b.liberties(b.point(2, 3)), 2);
        assert_eq!(b.liberties(b.point(2, 4)), 3);
        assert!(!captured_by_force(&b, b.point(2, 4), Black));
        assert!(captured_by_force(&b, b.point(2, 3), White));
    }

    fn race_moves_of(b: &Board, own: Point) -> Vec<Point> {
        let mut out = Candidates::default();
        race_moves(b, own, &mut out);
        out.as_slice().to_vec()
    }

    #[test]
    fn the_race_is_won_by_taking_the_short_group_s_liberty() {
        // Two liberties each: the side to move takes one of the other's and wins.
        let b = race(false);
        let (c7, e7, c4, e4) = (b.point(2, 2), b.point(4, 2), b.point(2, 5), b.point(4, 5));
        let mut black = race_moves_of(&b, b.point(2, 4));
        black.sort();
        let mut expected = vec![c7, e7];
        expected.sort();
        assert_eq!(black, expected);
        let mut white = race_moves_of(&b, b.point(2, 3));
        white.sort();
        let mut expected = vec![c4, e4];
        expected.sort();
        assert_eq!(white, expected);
        // Black with three liberties still wins by taking White's; White, one short, has no
        // winning move, and none is offered.
        let b = race(true);
        assert_eq!(race_moves_of(&b, b.point(2, 4)).len(), 2);
        assert!(race_moves_of(&b, b.point(2, 3)).is_empty());
    }

    #[test]
    fn a_lost_race_offers_no_self_atari() {
        // White's corner group (A8 B8 B9) has an eye at A9 and shares A7 with Black's group
        // (B7 C7 C8 C9), whose other liberty is C6: one eye against none, Black loses. Taking
        // A7 would leave Black one liberty (a self-atari White takes at C6); A9 is suicide.
        let b = board(&[
            ".OXO...", //
            "OOXO...", //
            ".XXO...", //
            "OO.O...", //
            ".OOO...", //
            ".......", //
            ".......",
        ]);
        let black = b.point(2, 1);
        assert_eq!(b.liberties(black), 2);
        assert_eq!(b.liberties(b.point(0, 1)), 2);
        assert!(race_moves_of(&b, black).is_empty());
    }

    #[test]
    fn filling_an_own_liberty_in_a_race_is_told_apart() {
        // Black, three liberties against White's two, wins the race; filling its own D4 or C4
        // leaves it two against two with White to move, and loses it. Taking White's C7 is no
        // fill, nor is a stone for White's wall outside the race.
        let b = race(true);
        assert!(fills_race_liberty(&b, b.point(3, 5), Black));
        assert!(fills_race_liberty(&b, b.point(2, 5), Black));
        assert!(!fills_race_liberty(&b, b.point(2, 2), Black));
        assert!(!fills_race_liberty(&b, b.point(6, 6), White));
    }

    #[test]
    fn an_atari_that_starts_a_ladder_wins_the_race_unless_the_ladder_is_broken() {
        // White (4,4) has two liberties, (5,4) and (4,5), next to Black's (4,3) with three;
        // Black's atari at (4,5) drives White along a ladder to the edge.
        let mut b = Board::new(19).unwrap();
        for (x, y) in [(4, 3), (3, 4), (5, 5)] {
            b.set_stone(b.point(x, y), Black);
        }
        b.set_stone(b.point(4, 4), White);
        let own = b.point(4, 3);
        assert!(race_moves_of(&b, own).contains(&b.point(4, 5)));
        // White stones on both of the ladder's paths break it: no atari wins.
        b.set_stone(b.point(7, 1), White);
        b.set_stone(b.point(1, 7), White);
        assert!(race_moves_of(&b, own).is_empty());
    }

    #[test]
    fn the_playouts_race_size_is_the_largest_group_in_it() {
        // In the even race, both groups have three stones.
        let b = race(false);
        let mut out = Candidates::default();
        assert_eq!(race_moves(&b, b.point(2, 4), &mut out), 3);
        // A race not won reports no size.
        let b = race(true);
        let mut out = Candidates::default();
        assert_eq!(race_moves(&b, b.point(2, 3), &mut out), 0);
    }

    #[test]
    fn a_seki_is_not_a_lost_race() {
        // White's C6 D6 E6 and Black's D5 E5 F5 share their only liberties, C5 and F6: whoever
        // fills one is captured, so nobody loses the race.
        let b = board(&[
            ".........",
            ".........",
            ".XXXXXX..",
            ".XOOO.X..",
            ".O.XXXO..",
            ".OOOOOO..",
            ".........",
            ".........",
            ".........",
        ]);
        for first in [Black, White] {
            assert!(!captured_by_force(&b, b.point(2, 3), first));
            assert!(!captured_by_force(&b, b.point(3, 4), first));
        }
    }
}
