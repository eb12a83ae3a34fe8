//! Dead stones at the end of a game: which stones a count should lift.
//!
//! The judgement starts from an ownership map — for every point, how often Black (+1) or White
//! (−1) owned it at the end of playouts from the position, as the search estimates it — and
//! corrects it with the certainties that random playouts miss:
//! - Benson's unconditional life ([`crate::tactics::benson`]): a group alive whatever the
//!   opponent does is never dead;
//! - the capture-at-once rule: a group in atari that the opponent can capture at once, with a
//!   stone not itself left in atari (no ko, no snapback), is dead;
//! - capture races read out ([`crate::tactics::semeai`]): a group the playouts are unsure of
//!   that the side to move captures by force, as it would if play went on, is dead;
//! - under Japanese rules, confirmation play ([`crate::tactics::confirmation`]): a group in a
//!   corner whose ko the opponent takes first, such as a bent four in the corner, is dead.
//!
//! Everything here is a pure function of the position and the map (the races' reading may be
//! handed in, [`judge_reading`], so that the caller can spread it over threads and bound how many
//! are read), so that the engine's `final_score`, `final_status_list` and ownership display, and
//! the match tool's count of a finished game, come from one judgement: the search's
//! `judgement` makes it once per position. Lists of points are sorted and without repeats.

use crate::board::{Board, Color, Move, Point, CELLS};
use crate::game::Game;
use crate::score;
use crate::tactics::{confirmation, life, semeai, unconditionally_alive};

/// Ownership beyond which the opponent's stones count as dead: owned by the other side in more
/// than 70% of the playouts. The judgement of `final_score` and `final_status_list`.
pub const DEAD: f32 = 0.4;

/// Ownership beyond which stones are surely dead (90% of playouts): what the search may lift
/// when a line ends in two passes, and what it relies on to accept the opponent's pass.
pub const SURELY_DEAD: f32 = 0.8;

/// The dead stones of the game's position given its ownership map (`Board::points` order):
/// the groups the map gives to the opponent beyond [`DEAD`], and the groups the opponent can
/// capture at once.
pub fn judge(game: &Game, ownership: &[f32]) -> Vec<Point> {
    judge_reading(game, ownership, |targets| {
        targets
            .iter()
            .map(|&p| lost_by_force(game, ownership, p))
            .collect()
    })
}

/// Whether the group on `target` is lost by force, read out: captured in its capture race
/// ([`semeai::captured_by_force`]), or killed in its space ([`life::dies_in_its_space`]), with
/// the empty points the map gives surely to the opponent walled off (the group may not count
/// on room its playouts never gave it). The side to move moves first, except for a group the
/// map is sure of ([`SURELY_DEAD`] its owner's way), whose owner moves first.
pub fn lost_by_force(game: &Game, ownership: &[f32], target: Point) -> bool {
    let board = game.board();
    let Some(owner) = board.color(target) else {
        return false;
    };
    let map = by_point(board, ownership);
    // A group the playouts are sure of is lost only if it dies even with its owner to move:
    // one that lives by moving first is as unsettled as the playouts found it alive.
    let first = if for_owner(board, &map, target) >= SURELY_DEAD {
        owner
    } else {
        game.to_move()
    };
    if semeai::captured_by_force(board, target, first) {
        return true;
    }
    let toward_opponent = |p: Point| match owner {
        Color::Black => -map[p.idx()],
        Color::White => map[p.idx()],
    };
    let mut walled = vec![false; CELLS];
    for &p in board.empty_points() {
        walled[p.idx()] = toward_opponent(p) >= SURELY_DEAD;
    }
    life::dies_in_its_space(board, target, first, &walled)
}

/// [`judge`], with the groups' fights read by `read`: given the groups to read out (a stone of
/// each, see [`race_targets`]), it answers for each whether the group is lost by force
/// ([`lost_by_force`]). A group it answers `false` for — read or not — is
/// not lost, as a fight the reader cannot finish is not; so a reading cut short only
/// leaves groups alive.
pub fn judge_reading(
    game: &Game,
    ownership: &[f32],
    read: impl FnOnce(&[Point]) -> Vec<bool>,
) -> Vec<Point> {
    let board = game.board();
    let mut dead = from_ownership(board, ownership, DEAD);
    dead.extend(capturable_at_once(game, &dead));
    let targets = race_targets(game, ownership, &dead);
    for (&p, lost) in targets.iter().zip(read(&targets)) {
        if lost {
            dead.extend(board.group_stones(p));
        }
    }
    if game.rules().confirmation_ko {
        dead.extend(dead_in_confirmation(board, &dead));
    }
    revive_inside_dead(board, &mut dead);
    revive_ko_stones(board, &mut dead);
    dead.sort();
    dead.dedup();
    dead
}

/// The groups, not among `dead`, that the opponent captures in Japanese rules' confirmation
/// play ([`confirmation::captured_in_confirmation`]): shut in a corner region whose ko the
/// opponent takes first, such as a bent four in the corner. Random playouts and the other
/// readers leave such a group standing in seki, as further play could (the ko may be won).
fn dead_in_confirmation(board: &Board, dead: &[Point]) -> Vec<Point> {
    let mut found = Vec::new();
    for_each_group_except(board, dead, |p, stones| {
        if confirmation::captured_in_confirmation(board, p) {
            found.extend(stones);
        }
    });
    found
}

/// Calls `f` once for each group on the board with a stone of it and its stones, skipping the
/// groups of the stones in `except`.
fn for_each_group_except(board: &Board, except: &[Point], mut f: impl FnMut(Point, Vec<Point>)) {
    let mut seen = vec![false; CELLS];
    for &p in except {
        seen[p.idx()] = true;
    }
    for p in board.points() {
        if board.color(p).is_none() || seen[p.idx()] {
            continue;
        }
        let stones: Vec<Point> = board.group_stones(p).collect();
        for &s in &stones {
            seen[s.idx()] = true;
        }
        f(p, stones);
    }
}

/// Takes off the `dead` list the lone stones in atari whose capture is a ko: the capturing
/// stone would have no liberty but the captured stone's point, among the owner's living stones.
/// The playouts take such a stone whenever the capture comes up; the referees leave it on the
/// board, since taking it starts a ko its owner may win.
fn revive_ko_stones(board: &Board, dead: &mut Vec<Point>) {
    let mut is_dead = vec![false; CELLS];
    for &p in dead.iter() {
        is_dead[p.idx()] = true;
    }
    let ko = |p: Point| -> bool {
        let Some(c) = board.color(p) else {
            return false;
        };
        if board.group_size(p) != 1 {
            return false;
        }
        let Some(l) = board.atari_liberty(p) else {
            return false;
        };
        board.neighbours(l).iter().all(|&n| {
            !board.on_board(n) || n == p || (board.color(n) == Some(c) && !is_dead[n.idx()])
        })
    };
    dead.retain(|&p| !ko(p));
}

/// Takes off the `dead` list the groups that were dead only as stones inside dead groups: a
/// group whose neighbouring opponent stones (one at least) are all dead, in groups of more
/// stones than it has. Inside a dead group's eye space the opponent's stones were never in
/// danger; the playouts, and a group the reading has just killed, may have left them dead.
fn revive_inside_dead(board: &Board, dead: &mut Vec<Point>) {
    let mut is_dead = vec![false; CELLS];
    for &p in dead.iter() {
        is_dead[p.idx()] = true;
    }
    let mut revived = vec![false; CELLS];
    let mut seen = vec![false; CELLS];
    for &p in dead.iter() {
        if seen[p.idx()] {
            continue;
        }
        let Some(c) = board.color(p) else { continue };
        let stones: Vec<Point> = board.group_stones(p).collect();
        for &s in &stones {
            seen[s.idx()] = true;
        }
        let mut around: Vec<Point> = Vec::new();
        let mut all_dead = true;
        for &s in &stones {
            for n in board.neighbours(s) {
                if board.color(n) != Some(c.opponent()) {
                    continue;
                }
                all_dead &= is_dead[n.idx()];
                let head = board.group_of(n);
                if !around.contains(&head) {
                    around.push(head);
                }
            }
        }
        let bigger: usize = around.iter().map(|&h| board.group_size(h)).sum();
        if all_dead && !around.is_empty() && bigger > stones.len() {
            for s in stones {
                revived[s.idx()] = true;
            }
        }
    }
    dead.retain(|p| !revived[p.idx()]);
}

/// The groups left behind by dead stones: on `lifted` (the position with the `dead` stones
/// taken off), the groups that `ownership` (a map made on `lifted`) gives to the opponent beyond
/// [`DEAD`] and whose empty surroundings reach a point a dead stone stood on. A loose stone
/// next to a dead group looks alive to the playouts while the group still stands on the board
/// (half its neighbours are friends); once the group is gone it is alone in the opponent's
/// area, as the referees see it after they take the dead stones off.
pub fn left_behind(lifted: &Board, ownership: &[f32], dead: &[Point]) -> Vec<Point> {
    let mut was_dead = vec![false; CELLS];
    for &p in dead {
        was_dead[p.idx()] = true;
    }
    let mut found = Vec::new();
    for p in from_ownership(lifted, ownership, DEAD) {
        if was_dead[p.idx()] || found.contains(&p) {
            continue;
        }
        let group: Vec<Point> = lifted.group_stones(p).collect();
        if near_lifted(lifted, &group, &was_dead) {
            found.extend(group);
        }
    }
    found.sort();
    found
}

/// How far through empty points [`left_behind`] looks from a group for a lifted stone's point.
const LEFT_BEHIND_REACH: usize = 24;

/// Whether the empty points around `group` (at most [`LEFT_BEHIND_REACH`] of them, nearest
/// first) include a point in `was_dead`.
fn near_lifted(board: &Board, group: &[Point], was_dead: &[bool]) -> bool {
    let mut seen = vec![false; CELLS];
    let mut queue: Vec<Point> = Vec::new();
    for &s in group {
        seen[s.idx()] = true;
    }
    for &s in group {
        for n in board.neighbours(s) {
            if board.on_board(n) && board.is_empty(n) && !seen[n.idx()] {
                seen[n.idx()] = true;
                queue.push(n);
            }
        }
    }
    let mut i = 0;
    while i < queue.len() && i < LEFT_BEHIND_REACH {
        let p = queue[i];
        i += 1;
        if was_dead[p.idx()] {
            return true;
        }
        for n in board.neighbours(p) {
            if board.on_board(n) && board.is_empty(n) && !seen[n.idx()] {
                seen[n.idx()] = true;
                queue.push(n);
            }
        }
    }
    false
}

/// The stones in seki once the `dead` stones are lifted.
pub fn seki(board: &Board, dead: &[Point]) -> Vec<Point> {
    score::seki_stones(&score::lift(board, dead))
}

/// Dead stones from an ownership map: a group is dead when its stones' mean ownership is beyond
/// `threshold` toward the opponent, unless Benson's algorithm proves it alive.
pub fn from_ownership(board: &Board, ownership: &[f32], threshold: f32) -> Vec<Point> {
    let owner = by_point(board, ownership);
    let mut dead = Vec::new();
    // Groups alive whatever happens are never dead, whatever the playouts said.
    for_each_group_except(board, &unconditionally_alive(board), |p, stones| {
        if for_owner(board, &owner, p) < -threshold {
            dead.extend(stones);
        }
    });
    dead.sort();
    dead
}

/// An ownership map (in `Board::points` order) by point index.
fn by_point(board: &Board, ownership: &[f32]) -> Vec<f32> {
    let mut owner = vec![0f32; CELLS];
    for (p, &o) in board.points().zip(ownership) {
        owner[p.idx()] = o;
    }
    owner
}

/// The mean ownership of the group on `p` (a stone) for the group's owner: +1 kept in every
/// playout, −1 lost in every one.
fn for_owner(board: &Board, owner: &[f32], p: Point) -> f32 {
    let (sum, n) = board
        .group_stones(p)
        .fold((0f32, 0usize), |(sum, n), s| (sum + owner[s.idx()], n + 1));
    let mean = sum / n as f32;
    match board.color(p) {
        Some(Color::White) => -mean,
        _ => mean,
    }
}

/// Groups with at most this many liberties are read out whatever the map says (unless dead
/// stones are among their attackers): the playouts
/// can leave a short race alone and keep its loser (in a finished 9×9 game, a two-liberty group
/// that dies to either side's first move survived 99% of them). Reading one is cheap.
const SHORT_LIBERTIES: usize = 2;

/// The groups whose capture race the judgement reads out, a stone of each: those with at most
/// [`SHORT_LIBERTIES`] liberties, and those that the map leaves alive without being sure of them (their owner keeps them in fewer than 90% of the
/// playouts), short of liberties, neither among `dead` nor unconditionally alive. Random
/// playouts decide such a fight by who happens to play the key point first, most of all when
/// the winner's liberties are an eye space with the loser's stones in it, or when a group
/// without room for two eyes dies only to the one move that splits it; reading it out settles
/// it. The groups the playouts think worst of come first (then board order), so that a reading
/// bounded in how many it reads spends it where the count most likely changes.
pub fn race_targets(game: &Game, ownership: &[f32], dead: &[Point]) -> Vec<Point> {
    let board = game.board();
    let owner = by_point(board, ownership);
    let mut seen = vec![false; CELLS];
    let mut is_dead = vec![false; CELLS];
    for &p in dead {
        is_dead[p.idx()] = true;
    }
    for &p in dead.iter().chain(&unconditionally_alive(board)) {
        seen[p.idx()] = true;
    }
    let mut targets = Vec::new();
    for p in board.points() {
        if board.color(p).is_none() || seen[p.idx()] {
            continue;
        }
        for s in board.group_stones(p) {
            seen[s.idx()] = true;
        }
        let kept = for_owner(board, &owner, p);
        let libs = board.liberties(p);
        let short = libs <= SHORT_LIBERTIES && !next_to_dead(board, p, &is_dead);
        if short || (libs <= semeai::MAX_LIBERTIES && kept < SURELY_DEAD) {
            targets.push((kept, p));
        }
    }
    // Stable: equal ownership keeps board order.
    targets.sort_by(|a, b| a.0.total_cmp(&b.0));
    targets.into_iter().map(|(_, p)| p).collect()
}

/// Whether an opponent stone next to the group on `p` is among the dead (`is_dead` by point
/// index): such a group's short liberties are the dead stones' doing, and reading it on the
/// board, where those stones still fight, would take it for lost.
fn next_to_dead(board: &Board, p: Point, is_dead: &[bool]) -> bool {
    let Some(c) = board.color(p) else {
        return false;
    };
    board.group_stones(p).any(|s| {
        board
            .neighbours(s)
            .iter()
            .any(|&n| board.color(n) == Some(c.opponent()) && is_dead[n.idx()])
    })
}

/// Groups in atari (not among `dead`) that the opponent can capture at once with a stone that
/// is not itself left in atari (no ko, no snapback), and whose attackers are alive. At the end
/// of a game such a group is dead whatever random playouts say: they leave the capture to
/// chance when both sides have other moves, and a group whose fate hangs on it then looks
/// alive, even in "seki" with its captor. A group whose surrounding stones are themselves dead
/// is another matter: taking it would not save them, and the count lifts them instead.
fn capturable_at_once(game: &Game, dead: &[Point]) -> Vec<Point> {
    let board = game.board();
    let mut is_dead = vec![false; CELLS];
    for &p in dead {
        is_dead[p.idx()] = true;
    }
    let mut found = Vec::new();
    let mut seen = vec![false; CELLS];
    for p in board.points() {
        let Some(c) = board.color(p) else { continue };
        let head = board.group_of(p);
        if seen[head.idx()] || is_dead[p.idx()] {
            continue;
        }
        seen[head.idx()] = true;
        let attackers_dead = board.group_stones(p).any(|s| {
            board
                .neighbours(s)
                .iter()
                .any(|&n| board.color(n) == Some(c.opponent()) && is_dead[n.idx()])
        });
        if attackers_dead {
            continue;
        }
        let Some(lib) = board.atari_liberty(p) else {
            continue;
        };
        let captor = c.opponent();
        if !game.is_legal(captor, Move::Play(lib)) {
            continue;
        }
        let mut after = board.clone();
        after.play(lib, captor);
        if after.liberties(lib) >= 2 {
            found.extend(board.group_stones(p));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn position(rows: &[&str]) -> Game {
        Game::from_diagram(rows, Rules::chinese()).unwrap()
    }

    #[test]
    fn ownership_kills_groups_but_not_unconditional_life() {
        // Black's two-eyed group and a lone White stone; a map that gives everything to White.
        let g = position(&[".X.X.", "XXXXX", ".....", "..O..", "....."]);
        let all_white = vec![-1.0f32; 25];
        assert!(from_ownership(g.board(), &all_white, DEAD).is_empty());
        let all_black = vec![1.0f32; 25];
        let b = g.board();
        assert_eq!(from_ownership(b, &all_black, DEAD), vec![b.point(2, 3)]);
    }

    #[test]
    fn a_stone_in_atari_among_dead_attackers_is_not_taken() {
        // Black's living wall holds the board; White's three stones at the top are dead (the
        // map gives everything to Black), and Black's C4 in atari among them is not dead for
        // that, although White could take it at C3 with a stone of three liberties.
        let g = position(&["..O..", ".OXO.", ".....", "XXXXX", "X.X.X"]);
        let b = g.board();
        assert_eq!(b.atari_liberty(b.point(2, 1)), Some(b.point(2, 2)));
        let dead = judge(&g, &[1.0f32; 25]);
        assert_eq!(dead, vec![b.point(2, 0), b.point(1, 1), b.point(3, 1)]);
    }

    #[test]
    fn a_race_left_unsettled_goes_to_the_side_to_move() {
        // White's C6 D6 E6 and Black's C5 D5 E5, three liberties each inside the other's wall:
        // whoever moves first captures. A map that knows nothing leaves both to the reading.
        let mut g = position(&[
            ".........",
            ".XXXXX...",
            ".X.X.X...",
            ".XOOOX...",
            ".OXXXO...",
            ".O.O.O...",
            ".OOOOO...",
            ".........",
            ".........",
        ]);
        let even = vec![0.0f32; 81];
        let b = g.board().clone();
        let stones = |p: Point| -> Vec<Point> {
            let mut v: Vec<Point> = b.group_stones(p).collect();
            v.sort();
            v
        };
        assert_eq!(judge(&g, &even), stones(b.point(2, 3)));
        g.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(judge(&g, &even), stones(b.point(2, 4)));
    }

    #[test]
    fn stones_inside_a_dead_group_come_back_to_life() {
        // White's C4 D4 C3 group next to Black's D3, and White's lone A1: with all of them
        // listed dead, D3 was only inside White's dead group and lives; A1 touches no Black
        // stone and stays dead.
        let g = position(&[".....", "..OO.", "..OX.", ".....", "O...."]);
        let b = g.board();
        let (c4, d4, c3, d3, a1) = (
            b.point(2, 1),
            b.point(3, 1),
            b.point(2, 2),
            b.point(3, 2),
            b.point(0, 4),
        );
        let mut dead = vec![c4, d4, c3, d3, a1];
        revive_inside_dead(b, &mut dead);
        assert_eq!(dead, vec![c4, d4, c3, a1]);
        // Alone on the list, D3 touches living White stones: it stays dead.
        let mut dead = vec![d3];
        revive_inside_dead(b, &mut dead);
        assert_eq!(dead, vec![d3]);
    }

    #[test]
    fn a_stone_whose_capture_is_a_ko_is_not_dead() {
        // White's E1 is in atari on D1, and Black's stone there would have E1's point as its
        // only liberty among White's C1 D2: a ko, so E1 stays. White's A5 in atari in Black's
        // corner is taken cleanly and stays dead.
        let g = position(&["OX...", ".....", "...XX", "...OX", "..O.O"]);
        let b = g.board();
        let (e1, a5) = (b.point(4, 4), b.point(0, 0));
        let mut dead = vec![a5, e1];
        revive_ko_stones(b, &mut dead);
        assert_eq!(dead, vec![a5]);
    }

    #[test]
    fn a_group_in_atari_that_can_be_taken_at_once_is_dead() {
        // White's A5 stone is in atari inside Black's corner: dead whatever the map says.
        let g = position(&["OX...", ".....", ".....", ".....", "....."]);
        let even = vec![0.0f32; 25];
        assert_eq!(judge(&g, &even), vec![g.board().point(0, 0)]);
    }
}
