//! Where handicap stones go: GTP's fixed placements, and the engine's own choice of free
//! placements.
//!
//! The free choice keeps the shape players use — the corners first (the second stone in the
//! corner opposite the first), then a pair of opposite sides or all four, the centre for an odd
//! count, as far as the board has such points — and lets the search decide within it: which
//! point of each corner (the 4-4 star point or a 3-4 point from 13×13; the 3-3 point on smaller
//! boards), which corners, which pair of sides. The 3-3 point is no candidate on the larger
//! boards: short searches rate it far above the star point (by 15 points and more on 19×19),
//! the playouts' known taste for low, secure corners, not what players give as handicap.
//! Each candidate is judged by
//! Black's mean margin over a short search of the position with it placed, White to move; a
//! point other than the star point must beat the star points by more than such searches differ
//! by chance ([`star_point_tolerance`]), so that the conventional shape stays unless the search
//! finds a clear reason. The first stone goes to the lower left corner (on the empty board the
//! four are the same). Stones past the
//! regions (more than the board's fixed placements allow) are spread: each as far as possible
//! from the nearest stone already chosen. Invariants: no stone next to another; no stone on
//! the first two lines where the board has room (9×9 and up); one search thread and a fixed
//! seed, so that the same board, rules, count and seed give the same stones.

use super::{Config, Player};
use crate::board::{Board, Color, Point};
use crate::game::Game;
use std::cmp::Reverse;

/// Margin, in points, by which another point of a corner must beat the star points in the
/// short search to be chosen instead: about two standard errors of the difference of two such
/// searches. Measured on 19×19 (two stones, 120 playouts, eight seeds): Black's mean margin
/// spreads with a standard deviation of about 5.5 points, so a difference needs about 15; in
/// proportion to the board's area on smaller boards.
fn star_point_tolerance(size: usize) -> f64 {
    15.0 * (size * size) as f64 / 361.0
}

/// The seed of the judging searches when the engine has none.
const DEFAULT_SEED: u64 = 0x4A4D;

/// The most fixed-handicap stones a board side allows (GoGui's and KataGo's table).
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        s if s % 2 == 1 && s >= 9 => 9,
        _ => 4,
    }
}

/// The line (from 0) of a board's corner star points: the 4th line from 13×13, else the 3rd.
fn star_line(size: usize) -> usize {
    if size >= 13 {
        3
    } else {
        2
    }
}

/// GTP's fixed placement for `n` stones, or `None` when the board does not allow that many:
/// corners on the 3rd line up to 12×12 and on the 4th from 13×13, side and centre points on the
/// middle lines, in the order D4 Q16 D16 Q4, K10 for odd counts, D10 Q10, K4 K16.
pub fn fixed_points(board: &Board, n: usize) -> Option<Vec<Point>> {
    let size = board.size();
    if n < 2 || n > max_fixed(size) {
        return None;
    }
    let edge = star_line(size);
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    // (column, row from the top); row `hi` from the top is the 4th line from the bottom.
    let at = |c: usize, r: usize| board.point(c, r);
    let (d4, q16, d16, q4) = (at(lo, hi), at(hi, lo), at(lo, lo), at(hi, hi));
    let (k10, d10, q10, k4, k16) = (
        at(mid, mid),
        at(lo, mid),
        at(hi, mid),
        at(mid, hi),
        at(mid, lo),
    );
    let mut v = vec![d4, q16];
    if n >= 3 {
        v.push(d16);
    }
    if n >= 4 {
        v.push(q4);
    }
    if n >= 6 {
        v.extend([d10, q10]);
    }
    if n >= 8 {
        v.extend([k4, k16]);
    }
    if n % 2 == 1 && n >= 5 {
        v.push(k10);
    }
    Some(v)
}

/// The candidate points of the four corners, in the order lower left, upper right, upper left,
/// lower right (so that corners `i` and `i ^ 1` are opposite): each corner's star point first.
fn corner_candidates(board: &Board) -> [Vec<Point>; 4] {
    let size = board.size();
    let line = star_line(size);
    // (along the column, along the row) distances from the corner.
    let shapes: &[(usize, usize)] = if size >= 13 {
        &[(3, 3), (2, 3), (3, 2)]
    } else {
        &[(2, 2)]
    };
    debug_assert_eq!(shapes[0], (line, line));
    let far = |d: usize| size - 1 - d;
    // Each corner maps the distances to (column, row from the top).
    let corner = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<Point> {
        shapes
            .iter()
            .map(|&(dc, dr)| {
                let (c, r) = f(dc, dr);
                board.point(c, r)
            })
            .collect()
    };
    [
        corner(&|dc, dr| (dc, far(dr))),
        corner(&|dc, dr| (far(dc), dr)),
        corner(&|dc, dr| (dc, dr)),
        corner(&|dc, dr| (far(dc), far(dr))),
    ]
}

/// Black's mean margin over a short search of the empty board with `stones` as handicap, White
/// to move.
fn judge(player: &mut Player, empty: &Game, stones: &[Point], playouts: u64) -> Option<f64> {
    let mut game = empty.clone();
    game.place_handicap(stones).ok()?;
    let margin = player
        .analyse(&game, Color::White, Some(playouts), None)
        .mean_margin;
    player.forget();
    Some(margin)
}

/// Playouts of each judging search: about the same time on every board.
fn judging_playouts(size: usize) -> u64 {
    match size {
        0..=9 => 300,
        10..=13 => 200,
        _ => 120,
    }
}

/// Of `options` (each a set of stones to add to `chosen`), the one the search rates best for
/// Black, with its margin; options that crowd a chosen stone are left out.
fn best_option(
    player: &mut Player,
    empty: &Game,
    chosen: &[Point],
    options: &[Vec<Point>],
) -> Option<(f64, Vec<Point>)> {
    let board = empty.board();
    let mut best: Option<(f64, &Vec<Point>)> = None;
    for option in options {
        if option.iter().any(|&p| crowds(board, chosen, p)) {
            continue;
        }
        let mut stones = chosen.to_vec();
        stones.extend_from_slice(option);
        let Some(margin) = judge(player, empty, &stones, judging_playouts(board.size())) else {
            continue;
        };
        if best.is_none_or(|(b, _)| margin > b) {
            best = Some((margin, option));
        }
    }
    best.map(|(m, o)| (m, o.clone()))
}

/// Whether `p` is taken or next to a stone of `chosen`.
fn crowds(board: &Board, chosen: &[Point], p: Point) -> bool {
    let (c, r) = board.coords(p);
    chosen.iter().any(|&q| {
        let (qc, qr) = board.coords(q);
        qc.abs_diff(c) + qr.abs_diff(r) <= 1
    })
}

/// The engine's own `n` handicap stones on `empty`'s board (its rules and komi), judged by
/// searches seeded with `seed` (see the module's comment). Fewer than `n` come back only once
/// every free point would touch a chosen stone, which GTP allows.
pub fn free_points(empty: &Game, n: usize, seed: Option<u64>) -> Vec<Point> {
    let board = empty.board().clone();
    let size = board.size();
    let mut player = Player::new(Config {
        threads: 1,
        seed: Some(seed.unwrap_or(DEFAULT_SEED)),
        resign: None,
        max_memory_mb: 64,
        ..Config::default()
    });
    let regions = n.min(max_fixed(size));
    let mut chosen: Vec<Point> = Vec::new();
    if regions >= 2 {
        let corners = corner_candidates(&board);
        let mut used = [false; 4];
        for k in 0..regions.min(4) {
            // The second stone goes opposite the first; the others to any corner left.
            let open: Vec<usize> = match k {
                0 => vec![0],
                1 => vec![used.iter().position(|&u| u).unwrap_or(0) ^ 1],
                _ => (0..4).filter(|&c| !used[c]).collect(),
            };
            let stars: Vec<Vec<Point>> = open.iter().map(|&c| vec![corners[c][0]]).collect();
            let others: Vec<Vec<Point>> = open
                .iter()
                .flat_map(|&c| corners[c][1..].iter().map(|&p| vec![p]))
                .collect();
            let star = best_option(&mut player, empty, &chosen, &stars);
            let other = best_option(&mut player, empty, &chosen, &others);
            let pick = match (star, other) {
                (Some(s), Some(o)) if o.0 > s.0 + star_point_tolerance(size) => o.1,
                (Some(s), _) => s.1,
                (None, Some(o)) => o.1,
                (None, None) => break,
            };
            if let Some(c) = open
                .iter()
                .copied()
                .find(|&c| corners[c].contains(&pick[0]))
            {
                used[c] = true;
            }
            chosen.extend(pick);
        }
        let line = star_line(size);
        let (mid, far) = (size / 2, size - 1 - line);
        if regions >= 6 {
            let left_right = vec![board.point(line, mid), board.point(far, mid)];
            let top_bottom = vec![board.point(mid, line), board.point(mid, far)];
            if regions >= 8 {
                chosen.extend(left_right.into_iter().chain(top_bottom));
            } else if let Some((_, pair)) =
                best_option(&mut player, empty, &chosen, &[left_right, top_bottom])
            {
                chosen.extend(pair);
            }
        }
        if regions % 2 == 1 && regions >= 5 {
            chosen.push(board.point(mid, mid));
        }
    }
    spread(&board, chosen, n)
}

/// `chosen` completed to `n` stones, each new one the point farthest (in steps along the lines)
/// from the nearest stone already there, away from the edge where the board is large enough;
/// never a point next to a chosen one.
fn spread(board: &Board, mut chosen: Vec<Point>, n: usize) -> Vec<Point> {
    let size = board.size();
    let margin = match size {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    };
    let candidates: Vec<(usize, usize)> = (margin..size - margin)
        .flat_map(|r| (margin..size - margin).map(move |c| (c, r)))
        .collect();
    while chosen.len() < n {
        let best = candidates
            .iter()
            .map(|&(c, r)| {
                let distances = chosen.iter().map(|&p| {
                    let (pc, pr) = board.coords(p);
                    pc.abs_diff(c) + pr.abs_diff(r)
                });
                let nearest = distances.clone().min().unwrap_or(usize::MAX);
                (nearest, distances.sum::<usize>(), c, r)
            })
            // Farthest from the nearest stone, then from all of them (so new stones balance
            // the board); among equals the first in board order, so the answer is fixed.
            .min_by_key(|&(d, total, c, r)| (Reverse(d), Reverse(total), r, c));
        match best {
            Some((d, _, c, r)) if d >= 2 => chosen.push(board.point(c, r)),
            _ => break,
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coords::format_point;
    use crate::rules::Rules;

    fn names(board: &Board, v: &[Point]) -> Vec<String> {
        v.iter().map(|&p| format_point(board, p)).collect()
    }

    #[test]
    fn fixed_patterns() {
        let b19 = Board::new(19).unwrap();
        assert_eq!(names(&b19, &fixed_points(&b19, 2).unwrap()), ["D4", "Q16"]);
        assert_eq!(
            names(&b19, &fixed_points(&b19, 9).unwrap()),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(
            names(&b19, &fixed_points(&b19, 5).unwrap()),
            ["D4", "Q16", "D16", "Q4", "K10"]
        );
        let b9 = Board::new(9).unwrap();
        assert_eq!(
            names(&b9, &fixed_points(&b9, 4).unwrap()),
            ["C3", "G7", "C7", "G3"]
        );
        let b13 = Board::new(13).unwrap();
        assert_eq!(names(&b13, &fixed_points(&b13, 2).unwrap()), ["D4", "K10"]);
        let b7 = Board::new(7).unwrap();
        assert!(fixed_points(&b7, 4).is_some() && fixed_points(&b7, 5).is_none());
        let b10 = Board::new(10).unwrap();
        assert!(fixed_points(&b10, 5).is_none());
        assert!(fixed_points(&Board::new(6).unwrap(), 2).is_none());
    }

    /// The corner a point lies in (0–3), or `None` on the middle lines.
    fn quadrant(board: &Board, p: Point) -> Option<usize> {
        let (c, r) = board.coords(p);
        let mid = board.size() / 2;
        if board.size() % 2 == 1 && (c == mid || r == mid) {
            return None;
        }
        Some(usize::from(c > mid) + 2 * usize::from(r > mid))
    }

    #[test]
    fn free_placements_keep_good_shape() {
        // Every count on 9×9; on the larger boards (seconds each) the counts that add a
        // region.
        for (size, counts) in [
            (9, &[2, 3, 4, 5, 6, 7, 8, 9][..]),
            (13, &[3, 6][..]),
            (19, &[2, 4, 5, 8][..]),
        ] {
            let empty = Game::new(size, Rules::chinese()).unwrap();
            let board = empty.board().clone();
            for &n in counts {
                let v = free_points(&empty, n, Some(7));
                let shown = names(&board, &v).join(" ");
                assert_eq!(v.len(), n, "{}x{} {}: {}", size, size, n, shown);
                for (i, &p) in v.iter().enumerate() {
                    let (c, r) = board.coords(p);
                    // Never on the first or second line.
                    let line = c.min(r).min(size - 1 - c).min(size - 1 - r);
                    assert!(line >= 2, "{}x{} {}: {}", size, size, n, shown);
                    // Never next to (or on) another stone.
                    for &q in &v[..i] {
                        let (qc, qr) = board.coords(q);
                        assert!(
                            qc.abs_diff(c) + qr.abs_diff(r) >= 2,
                            "{}x{} {}: {}",
                            size,
                            size,
                            n,
                            shown
                        );
                    }
                }
                // Up to four stones, one per corner; two stones in opposite corners.
                if n <= 4 {
                    let mut corners: Vec<_> = v.iter().map(|&p| quadrant(&board, p)).collect();
                    assert!(corners.iter().all(|q| q.is_some()), "{}", shown);
                    if n == 2 {
                        assert_eq!(corners[0].unwrap() ^ corners[1].unwrap(), 3, "{}", shown);
                    }
                    corners.sort();
                    corners.dedup();
                    assert_eq!(corners.len(), n, "{}x{} {}: {}", size, size, n, shown);
                }
                // Odd counts from five hold the centre.
                if n % 2 == 1 && n >= 5 {
                    assert!(v.contains(&board.point(size / 2, size / 2)), "{}", shown);
                }
            }
        }
    }

    #[test]
    fn free_placements_are_reproducible_and_fall_back_on_other_boards() {
        let empty = Game::new(13, Rules::japanese()).unwrap();
        assert_eq!(
            free_points(&empty, 6, Some(3)),
            free_points(&empty, 6, Some(3))
        );
        // Boards without a fixed table for the count: spread stones, none touching.
        for (size, n) in [(10, 6), (19, 12), (7, 4), (5, 3)] {
            let empty = Game::new(size, Rules::chinese()).unwrap();
            let v = free_points(&empty, n, None);
            assert_eq!(v.len(), n, "{} {}", size, n);
            let mut s = v.clone();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), n);
        }
        // A tiny board gives fewer than asked once every point would touch a stone.
        let empty = Game::new(2, Rules::chinese()).unwrap();
        assert_eq!(free_points(&empty, 3, None).len(), 2);
    }
}
