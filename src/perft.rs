//! Perft: the number of legal move sequences of a given length from a position, as chess engines
//! count them. It exercises every rule at once (captures, suicide, ko, superko, passes, the
//! pre-judgement opening), so two independent implementations that agree on it agree on the rules.
//!
//! Counting conventions: a pass is a move, allowed except during the opening placements; two
//! passes in a row end the game, so no sequence continues past them; moves that repeat an earlier
//! position under superko rules are not counted; where the rules let the mover choose which side's
//! stones a both-sides-without-liberties move removes, each legal choice is a separate move.

use crate::board::{Board, Color, Move, Removal};
use crate::game::Game;
use crate::rules::{KoRule, Rules};

/// The number of legal move sequences of length `depth` from the game's current position, the
/// game's side to move moving first.
pub fn perft(game: &Game, depth: u32) -> u64 {
    perft_within(game, depth, u64::MAX).expect("an unlimited walk always finishes")
}

/// [`perft`], giving up (`None`) once more than `budget` moves have been tried: the work of the
/// walk, whatever the position, since every sequence counted is a move tried at its last ply.
pub fn perft_within(game: &Game, depth: u32, budget: u64) -> Option<u64> {
    let mut walk = Walk {
        game,
        rules: game.record_rules(),
        path: Vec::with_capacity(depth as usize),
        budget,
    };
    walk.count(
        game.board(),
        game.to_move(),
        game.move_number(),
        game.consecutive_passes(),
        depth,
    )
}

/// The most moves a perft asked for on the spot (`tengen-perft`, `tengen perft` by default)
/// tries: a second or so of counting (9×9 at depth 3, 19×19 at depth 2). Every sequence counted
/// is a move tried, so this also bounds the count.
pub const QUICK_LIMIT: u64 = 10_000_000;

/// A perft refused for its size: the depth, and the rough count of sequences (from the estimate)
/// or `None` when the walk itself ran past the limit of moves tried.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TooDeep {
    pub depth: u64,
    pub estimate: Option<f64>,
    pub limit: u64,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let limit = self.limit as f64;
        match self.estimate {
            Some(e) => write!(
                f,
                "depth {} is too deep here (about {:.0e} sequences; the limit is {:.0e})",
                self.depth, e, limit
            ),
            None => write!(
                f,
                "depth {} is too deep here (more than {:.0e} moves to try; the limit is {:.0e})",
                self.depth, limit, limit
            ),
        }
    }
}

/// [`perft`] within `limit` moves tried, refused once past it. Depths whose rough estimate (the
/// moves now legal, one fewer per ply as stones fill the board, but at least two) is already
/// past the limit are refused at once: this also bounds the walk's depth. The estimate alone is
/// not enough, as captures reopen points (3×3 at depth 10 counts 1.3e8 sequences where it
/// guesses 1.5e6).
pub fn perft_limited(game: &Game, depth: u64, limit: u64) -> Result<u64, TooDeep> {
    let width = legal_moves(game).len() as f64;
    let mut estimate = 1.0f64;
    for ply in 0..depth.min(1000) {
        estimate *= (width - ply as f64).max(2.0);
        if estimate > limit as f64 {
            return Err(TooDeep {
                depth,
                estimate: Some(estimate),
                limit,
            });
        }
    }
    // Past 1000 plies the estimate is at least 2^1000: any depth that gets here fits a u32.
    perft_within(game, depth as u32, limit).ok_or(TooDeep {
        depth,
        estimate: None,
        limit,
    })
}

/// The legal moves for `color` from a position of `game`'s record extended by `path`: the boards
/// they lead to, with the move. Shared by perft and by callers that need the full list.
struct Walk<'a> {
    game: &'a Game,
    rules: Rules,
    /// The positions along the current line, with their side to move.
    path: Vec<(u64, Color)>,
    /// Moves that may still be tried before the walk gives up.
    budget: u64,
}

impl Walk<'_> {
    /// Whether superko forbids the position `hash` with `to_move` to move after `board`.
    fn repeats(&self, board: &Board, hash: u64, to_move: Color) -> bool {
        let situational = self.rules.ko == KoRule::SituationalSuperko;
        hash == board.hash()
            || self.game.repeats(hash, to_move)
            || self
                .path
                .iter()
                .any(|&(h, c)| h == hash && (!situational || c == to_move))
    }

    /// Takes one move from the budget; `None` when it is spent.
    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    fn count(
        &mut self,
        board: &Board,
        color: Color,
        index: usize,
        passes: u8,
        depth: u32,
    ) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if passes >= 2 {
            return Some(0);
        }
        let color = self.rules.opening_color(index).unwrap_or(color);
        let mut total = 0;
        if self.rules.pass_allowed(index) {
            self.spend()?;
            total += if depth == 1 {
                1
            } else {
                let mut next = board.clone();
                next.pass();
                self.path.push((next.hash(), color.opponent()));
                let n = self.count(&next, color.opponent(), index + 1, passes + 1, depth - 1);
                self.path.pop();
                n?
            };
        }
        let mut points = board.empty_points().to_vec();
        points.sort();
        for p in points {
            let own = self.rules.mover_chooses_removal && board.is_mutual_capture(p, color);
            let choices: &[Removal] = if own {
                &[Removal::Opponent, Removal::Own]
            } else {
                &[Removal::Opponent]
            };
            for &removal in choices {
                self.spend()?;
                let mut next = board.clone();
                if next
                    .try_play(p, color, self.rules.suicide_legal, removal)
                    .is_err()
                {
                    continue;
                }
                if self.rules.superko() && self.repeats(board, next.hash(), color.opponent()) {
                    continue;
                }
                total += if depth == 1 {
                    1
                } else {
                    self.path.push((next.hash(), color.opponent()));
                    let n = self.count(&next, color.opponent(), index + 1, 0, depth - 1);
                    self.path.pop();
                    n?
                };
            }
        }
        Some(total)
    }
}

/// Every legal move for the side to move in `game`, with its removal choice where the rules give
/// one (the same moves perft counts at depth 1).
pub fn legal_moves(game: &Game) -> Vec<(Move, Removal)> {
    let color = game.opening_color().unwrap_or(game.to_move());
    let mut moves = Vec::new();
    if game.consecutive_passes() >= 2 {
        return moves;
    }
    if game.is_legal(color, Move::Pass) {
        moves.push((Move::Pass, Removal::Opponent));
    }
    let mut points = game.board().empty_points().to_vec();
    points.sort();
    for p in points {
        let mv = Move::Play(p);
        if game.check(color, mv, Removal::Opponent).is_ok() {
            moves.push((mv, Removal::Opponent));
        }
        if game.rules().mover_chooses_removal
            && game.board().is_mutual_capture(p, color)
            && game.check(color, mv, Removal::Own).is_ok()
        {
            moves.push((mv, Removal::Own));
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn small_counts() {
        let g = Game::new(2, Rules::chinese()).unwrap();
        assert_eq!(perft(&g, 0), 1);
        // Four points and a pass.
        assert_eq!(perft(&g, 1), 5);
        let pj = Game::new(2, Rules::prejudgement()).unwrap();
        // No pass in the opening.
        assert_eq!(perft(&pj, 1), 4);
        assert_eq!(perft(&pj, 2), 12);
    }

    #[test]
    fn a_budget_stops_the_walk_only_when_exceeded() {
        let g = Game::new(2, Rules::chinese()).unwrap();
        // Depth 1 tries exactly the five moves.
        assert_eq!(perft_within(&g, 1, 5), Some(5));
        assert_eq!(perft_within(&g, 1, 4), None);
        assert_eq!(perft_within(&g, 3, 1_000_000), Some(perft(&g, 3)));
    }

    #[test]
    fn legal_moves_agree_with_perft_one() {
        for rules in [Rules::japanese(), Rules::chinese(), Rules::prejudgement()] {
            let g = Game::new(3, rules).unwrap();
            assert_eq!(legal_moves(&g).len() as u64, perft(&g, 1));
        }
    }
}
