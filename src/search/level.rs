//! Strength levels: an opponent people can beat, then learn to beat.
//!
//! A level below [`FULL_STRENGTH`] weakens the player the way a weaker player is weaker, not by
//! random blunders: it reads less (a fixed playout budget per move that grows about 2.5× a level
//! on 9×9 and 2× on 19×19, always below what full strength reads, counted in playouts so that a
//! level is as strong on a fast machine as on a slow one)
//! and it does not always find the best of the moves it read — it picks among the plausible
//! ones, those the search visited often (visits follow the priors: patterns, captures, answers
//! to atari), by their visits raised to a power that grows with the level, and never one whose
//! value falls far below the best's. At [`FULL_STRENGTH`] nothing changes: the configured
//! playouts or time, and the most visited move.

use crate::board::Move;

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;

/// The full-strength level: the search as configured, unweakened.
pub const FULL_STRENGTH: u8 = 10;

/// Playouts per move on 9×9 at levels 1 to 9: about two and a half times more each level, from
/// little more than the priors' first choices at level 1.
const PLAYOUTS_9X9: [u64; 9] = [4, 10, 25, 60, 150, 400, 1000, 2500, 6000];

/// The playouts a level reads per move on a `size`×`size` board, `None` at full strength.
///
/// On a bigger board the 9×9 figures are multiplied by `s^e`, `s` the square root of the board's
/// area over 81 and `e` going from 1 at level 1 down to −1 at level 9 (0 at level 5, which reads
/// the same on every board). The weak levels read more, as a 19×19 move has more candidates to
/// look at; the strong ones fewer, as a playout costs about as many times more as the board has
/// points and full strength at its default two seconds reads that many fewer: with the 9×9 figures
/// unscaled, levels 8 and 9 on 19×19 would read about as much as full strength itself.
pub fn playouts(level: u8, size: usize) -> Option<u64> {
    if level >= FULL_STRENGTH {
        return None;
    }
    let i = usize::from(level.max(MIN_LEVEL) - 1);
    let s = ((size * size) as f64 / 81.0).sqrt().max(1.0);
    let e = 1.0 - i as f64 / 4.0;
    Some((PLAYOUTS_9X9[i] as f64 * s.powf(e)).round().max(1.0) as u64)
}

/// How a level picks among the moves it read.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Choice {
    /// Visits are raised to this power before sampling: 1 picks in proportion to visits, lower
    /// values spread the choice over the plausible moves (0, the beginner's, evenly: with a few
    /// playouts a move's visits say little more than that the priors liked it), higher ones
    /// favour the most visited.
    sharpness: f64,
    /// Candidates whose value is this much below the best move's are never picked.
    value_margin: f64,
    /// Candidates with fewer visits than this share of the best move's are never picked.
    min_visit_share: f64,
}

fn choice(level: u8) -> Choice {
    const SHARPNESS: [f64; 9] = [0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0];
    const VALUE_MARGIN: [f64; 9] = [0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.07, 0.05, 0.03];
    const MIN_VISIT_SHARE: [f64; 9] = [0.02, 0.03, 0.05, 0.07, 0.1, 0.12, 0.15, 0.18, 0.2];
    let i = usize::from(level.clamp(MIN_LEVEL, FULL_STRENGTH - 1) - 1);
    Choice {
        sharpness: SHARPNESS[i],
        value_margin: VALUE_MARGIN[i],
        min_visit_share: MIN_VISIT_SHARE[i],
    }
}

/// The move a level plays from the root's moves `(move, visits, value for the mover)`, most
/// visited first; `unit` is a uniform draw in [0, 1). At full strength, or with fewer than two
/// candidates, the most visited move. A pass is only played when it is the most visited move:
/// passing is how a game ends, not a plausible alternative.
pub fn choose(level: u8, moves: &[(Move, u32, f64)], unit: f64) -> Option<Move> {
    let &(best, best_visits, best_value) = moves.first()?;
    if level >= FULL_STRENGTH || best == Move::Pass {
        return Some(best);
    }
    let c = choice(level);
    let min_visits = (f64::from(best_visits) * c.min_visit_share).max(1.0);
    let candidates: Vec<(Move, f64)> = moves
        .iter()
        .filter(|&&(mv, visits, value)| {
            mv != Move::Pass
                && f64::from(visits) >= min_visits
                && value >= best_value - c.value_margin
        })
        .map(|&(mv, visits, _)| (mv, f64::from(visits).powf(c.sharpness)))
        .collect();
    let total: f64 = candidates.iter().map(|&(_, w)| w).sum();
    let mut draw = unit.clamp(0.0, 1.0) * total;
    for &(mv, weight) in &candidates {
        if draw < weight {
            return Some(mv);
        }
        draw -= weight;
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;

    fn play(p: u16) -> Move {
        Move::Play(Point(p))
    }

    #[test]
    fn playouts_grow_with_each_level_and_with_the_board() {
        assert_eq!(playouts(1, 9), Some(4));
        assert_eq!(playouts(2, 9), Some(10));
        assert_eq!(playouts(9, 9), Some(6000));
        assert_eq!(playouts(1, 19), Some(8));
        assert_eq!(playouts(5, 19), Some(150));
        assert_eq!(playouts(9, 19), Some(2842));
        assert_eq!(playouts(1, 7), Some(4));
        assert_eq!(playouts(FULL_STRENGTH, 9), None);
        for size in [9, 13, 19, 25] {
            for level in MIN_LEVEL..FULL_STRENGTH - 1 {
                let (this, next) = (playouts(level, size), playouts(level + 1, size));
                assert!(
                    next.unwrap() as f64 >= 1.8 * this.unwrap() as f64,
                    "{size} {level}"
                );
            }
        }
    }

    #[test]
    fn full_strength_plays_the_most_visited_move() {
        let moves = [(play(10), 50, 0.6), (play(11), 49, 0.6)];
        for unit in [0.0, 0.5, 0.99] {
            assert_eq!(choose(FULL_STRENGTH, &moves, unit), Some(play(10)));
        }
    }

    #[test]
    fn a_weak_level_picks_among_plausible_moves_by_visits() {
        let moves = [
            (play(10), 60, 0.6),
            (play(11), 40, 0.58),
            (play(12), 1, 0.9),
        ];
        let picks = |level| -> Vec<Move> {
            (0..100)
                .map(|i| choose(level, &moves, f64::from(i) / 100.0).unwrap())
                .collect()
        };
        let second = |picked: &[Move]| picked.iter().filter(|&&m| m == play(11)).count();
        assert_eq!(second(&picks(2)), 40);
        // The beginner picks evenly among the plausible moves.
        assert_eq!(second(&picks(1)), 50);
        // One visit in a hundred is not a move the search found plausible.
        assert!(!picks(1).contains(&play(12)) && !picks(2).contains(&play(12)));
    }

    #[test]
    fn a_move_far_worse_than_the_best_is_never_picked() {
        let moves = [(play(10), 60, 0.7), (play(11), 55, 0.3)];
        for i in 0..100 {
            assert_eq!(choose(1, &moves, f64::from(i) / 100.0), Some(play(10)));
        }
    }

    #[test]
    fn higher_levels_favour_the_best_move_more() {
        let moves = [(play(10), 60, 0.6), (play(11), 40, 0.6)];
        let best_share = |level| {
            (0..1000)
                .filter(|&i| choose(level, &moves, f64::from(i) / 1000.0) == Some(play(10)))
                .count()
        };
        assert!(best_share(1) < best_share(5));
        assert!(best_share(5) < best_share(9));
    }

    #[test]
    fn a_pass_is_played_only_as_the_most_visited_move() {
        let moves = [(play(10), 50, 0.5), (Move::Pass, 50, 0.5)];
        for i in 0..100 {
            assert_eq!(choose(1, &moves, f64::from(i) / 100.0), Some(play(10)));
        }
        let passing = [(Move::Pass, 50, 0.5), (play(10), 50, 0.5)];
        assert_eq!(choose(1, &passing, 0.9), Some(Move::Pass));
        assert_eq!(choose(1, &[], 0.5), None);
    }
}
