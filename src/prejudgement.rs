//! Pre-judgement komi: after the opening placements each player predicts the board margin, and
//! the two predictions set the threshold (第五条) — the game's komi — and who takes White.
//!
//! This is the one home of those facts: the threshold and its komi come from one function
//! ([`Predictions::threshold`]), and a record's root comment states the predictions in one
//! format (`prejudgement predictions P1 P2 threshold T`, all GTP scores), written and read here
//! for the SGF writer, the engine and the match tool alike. The threshold lives in the game as
//! its komi, so the count, the search and the SGF `KM` see it without knowing about predictions;
//! the predictions themselves describe a game only while it still starts with the opening they
//! judged ([`Prejudgement`]).
//!
//! Sits just above `game` and `rules`: knows nothing of records, the protocol or the search.

use crate::game::{Game, PlayedMove};
use crate::rules::{HalfPoints, Margin};

/// The two stated predictions of the board margin (no komi) after the opening.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Predictions {
    /// From the player who placed the first stone.
    pub first: Margin,
    /// From the other player.
    pub second: Margin,
}

/// What two predictions settle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Threshold {
    /// The threshold as a margin: White wins by beating it on the board (`W+6.5`: by 7 or more).
    pub margin: Margin,
    /// The player who takes White: 1 (the one who placed the first stone) or 2.
    pub white: u8,
    /// The game's komi: the threshold is White's margin t and komi is added to White's margin,
    /// so the komi is −t, which is the threshold read as Black's margin.
    pub komi: HalfPoints,
}

/// How the root comment's line on the predictions starts.
const COMMENT_TAG: &str = "prejudgement predictions ";

impl Predictions {
    /// The threshold (第五条): the predictions' average as a margin, and White for the player
    /// whose prediction is more favourable to White, player 1 on a tie.
    pub fn threshold(self) -> Threshold {
        let sum = self.first.0 .0 + self.second.0 .0;
        // Predictions are whole or half numbers, so their average can be a quarter point. Board
        // margins are whole numbers, and a quarter threshold decides every one of them exactly
        // as the half point between the same two whole numbers does (neither can be met with
        // equality), so such an average is kept as that half point: exact for every outcome,
        // and printable by GTP.
        let mut halves = sum.div_euclid(2);
        if sum % 2 != 0 && halves % 2 == 0 {
            halves += 1;
        }
        let margin = Margin(HalfPoints(halves));
        Threshold {
            margin,
            white: if self.second.0 < self.first.0 { 2 } else { 1 },
            komi: margin.0,
        }
    }

    /// The root comment line that records them: `prejudgement predictions P1 P2 threshold T`.
    pub fn comment_line(self) -> String {
        format!(
            "{}{} {} threshold {}",
            COMMENT_TAG,
            self.first,
            self.second,
            self.threshold().margin
        )
    }

    /// The predictions a root comment states on one of its lines, if any. A line whose
    /// threshold does not follow from its predictions is not trusted and gives nothing.
    pub fn from_comment(comment: &str) -> Option<Predictions> {
        comment.lines().find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [tag1, tag2, p1, p2, "threshold", t] = words.as_slice() else {
                return None;
            };
            if format!("{} {} ", tag1, tag2) != COMMENT_TAG {
                return None;
            }
            let predictions = Predictions {
                first: Margin::parse(p1)?,
                second: Margin::parse(p2)?,
            };
            (predictions.threshold().margin == Margin::parse(t)?).then_some(predictions)
        })
    }
}

/// A game's predictions with the opening placements they were made after: if the record no
/// longer starts with them (undo into the opening, a new game), they no longer describe it.
#[derive(Clone, Debug)]
pub struct Prejudgement {
    pub predictions: Predictions,
    opening: Vec<PlayedMove>,
}

impl Prejudgement {
    pub fn new(game: &Game, predictions: Predictions) -> Prejudgement {
        Prejudgement {
            predictions,
            opening: opening_of(game),
        }
    }

    /// Whether these predictions still set the komi of `game`: pre-judgement rules, the opening
    /// over and the same one they were made after, and the komi still the threshold's.
    pub fn describe(&self, game: &Game) -> bool {
        game.rules().komi_from_predictions
            && !game.in_opening()
            && opening_of(game) == self.opening
            && game.komi() == self.predictions.threshold().komi
    }
}

/// The opening placements of the record.
fn opening_of(game: &Game) -> Vec<PlayedMove> {
    game.moves()
        .take(game.opening_placements() as usize)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Margin {
        Margin::parse(s).unwrap()
    }

    fn threshold(first: &str, second: &str) -> Threshold {
        Predictions {
            first: m(first),
            second: m(second),
        }
        .threshold()
    }

    #[test]
    fn seed_prejudgement_examples() {
        // W+7 and W+6: threshold W+6.5, White goes to the player who said W+7 (player 1).
        let t = threshold("W+7", "W+6");
        assert_eq!((t.margin, t.white), (m("W+6.5"), 1));
        // W+7 and B+6: threshold W+0.5.
        assert_eq!(threshold("W+7", "B+6").margin, m("W+0.5"));
        // Equal predictions: player 1 takes White.
        let t = threshold("W+7", "W+7");
        assert_eq!((t.margin, t.white), (m("W+7"), 1));
        assert_eq!(threshold("B+1", "W+2").white, 2);
        // Quarter averages become the half point that decides whole margins the same way.
        assert_eq!(threshold("W+7", "B+2.5").margin, m("W+2.5"));
        assert_eq!(threshold("W+3", "W+2.5").margin, m("W+2.5"));
        assert_eq!(threshold("B+3", "B+2.5").margin, m("B+2.5"));
    }

    #[test]
    fn the_komi_is_the_threshold_read_as_blacks_margin() {
        // W+6.5: White must win by 7 or more, so 6.5 is taken from White's count.
        assert_eq!(threshold("W+7", "W+6").komi, HalfPoints(-13));
        assert_eq!(threshold("B+3", "B+2.5").komi, HalfPoints(5));
        assert_eq!(threshold("W+7", "B+7").komi, HalfPoints::ZERO);
    }

    #[test]
    fn the_comment_line_reads_back_and_refuses_a_forged_threshold() {
        let p = Predictions {
            first: m("W+7"),
            second: m("W+6"),
        };
        let line = p.comment_line();
        assert_eq!(line, "prejudgement predictions W+7 W+6 threshold W+6.5");
        assert_eq!(Predictions::from_comment(&line), Some(p));
        let among = format!("game 1 of tengen match: two passes\n{}", line);
        assert_eq!(Predictions::from_comment(&among), Some(p));
        let forged = line.replace("threshold W+6.5", "threshold W+3");
        assert_eq!(Predictions::from_comment(&forged), None);
        assert_eq!(
            Predictions::from_comment("prejudgement predictions W+7"),
            None
        );
        assert_eq!(
            Predictions::from_comment("prejudgement guesses W+7 W+6 threshold W+6.5"),
            None
        );
    }
}
