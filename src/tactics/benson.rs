//! Benson's unconditional life: the groups that live whatever the opponent does, even if
//! their owner always passes.
//!
//! A certainty for judgements that come from random playouts, which sometimes give away a
//! group that cannot die. A pure function of the stones on the board: no reading, no
//! ownership map. A block (a group) is alive when it has two vital regions that stay vital
//! once every block without two of them is dropped, together with every region touching a
//! dropped block.

use crate::board::{Board, Color, Point};
use crate::score;
use std::collections::BTreeSet;

/// The stones that are alive whatever the opponent does, even if their owner always passes
/// (Benson's algorithm): a certainty check for dead-stone judgements that come from playouts.
pub fn unconditionally_alive(board: &Board) -> Vec<Point> {
    let mut alive = Vec::new();
    for c in [Color::Black, Color::White] {
        alive.extend(benson(board, c));
    }
    alive.sort();
    alive
}

/// Benson's algorithm for colour `c`: repeatedly drop the blocks with fewer than two vital
/// regions and the regions that touch a dropped block.
fn benson(board: &Board, c: Color) -> Vec<Point> {
    // Blocks of `c`, by head.
    let mut blocks: BTreeSet<Point> = board
        .points()
        .filter(|&p| board.color(p) == Some(c))
        .map(|p| board.group_of(p))
        .collect();
    // Regions: connected sets of points without a `c` stone, and the blocks around each.
    let regions = score::regions(board, |p| board.color(p) != Some(c));
    let border: Vec<BTreeSet<Point>> = regions
        .iter()
        .map(|r| r.border.iter().map(|&s| board.group_of(s)).collect())
        .collect();
    // The blocks for which a region is vital: every empty point of it is a liberty of the block.
    let vital_to: Vec<BTreeSet<Point>> = regions
        .iter()
        .zip(&border)
        .map(|(r, around)| {
            around
                .iter()
                .copied()
                .filter(|&b| {
                    r.points.iter().filter(|&&p| board.is_empty(p)).all(|&p| {
                        board
                            .neighbours(p)
                            .iter()
                            .any(|&n| board.color(n) == Some(c) && board.group_of(n) == b)
                    })
                })
                .collect()
        })
        .collect();
    let mut live_regions: BTreeSet<usize> = (0..regions.len()).collect();
    loop {
        let before = (blocks.len(), live_regions.len());
        blocks.retain(|&b| {
            live_regions
                .iter()
                .filter(|&&r| vital_to[r].contains(&b))
                .count()
                >= 2
        });
        live_regions.retain(|&r| border[r].iter().all(|b| blocks.contains(b)));
        if (blocks.len(), live_regions.len()) == before {
            break;
        }
    }
    blocks
        .iter()
        .flat_map(|&b| board.group_stones(b).collect::<Vec<_>>())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;

    fn position(rows: &[&str]) -> Game {
        Game::from_diagram(rows, Rules::chinese()).unwrap()
    }

    #[test]
    fn two_eyes_are_unconditional_life_and_one_is_not() {
        let g = position(&[".X.X.", "XXXXX", ".....", ".....", "....."]);
        assert_eq!(unconditionally_alive(g.board()).len(), 7);
        let g = position(&[".X...", "XX...", ".....", ".....", "....."]);
        assert!(unconditionally_alive(g.board()).is_empty());
        // An opponent stone inside one of the eyes does not spoil it: the region is still
        // all liberties of the group.
        let g = position(&[".O.X.", "XXXXX", ".....", ".....", "....."]);
        assert_eq!(unconditionally_alive(g.board()).len(), 6);
    }
}
