//! The count of a game that ends on the board: tengen's own (its scorer with its dead-stone
//! judgement) and the referee's `final_score`, the referee's deciding when it gives one; and the
//! result of a game decided otherwise (resignation, forfeit, time, no result).

use super::game::{End, Outcome, Table};
use super::seat::{ask, failure_text, shown};
use super::MatchConfig;
use crate::board::Color;
use crate::rules::Margin;
use crate::score;
use crate::search::judgement::StandaloneJudge;

impl Table {
    /// The result of a finished game: for a game that ends on the board, tengen's count with
    /// its dead-stone judgement and the referee's `final_score`, the referee's deciding when it
    /// has one.
    pub(super) fn count(
        &mut self,
        config: &MatchConfig,
        judge: &mut StandaloneJudge,
        end: End,
    ) -> Outcome {
        let mut tengen_score = None;
        let mut referee_score = None;
        let (winner, result, reason) = match end {
            End::Count(why) => {
                // The engine's own judgement of the position (what its `final_score` answers);
                // with no threads for it, every stone counts alive.
                let ours = match judge.judgement(&self.game, config.seed) {
                    Ok(j) => j.count.margin,
                    Err(e) => {
                        log::warn!("{e}; counting every stone alive");
                        score::count(&self.game, &[]).margin
                    }
                };
                tengen_score = Some(ours);
                if let (None, Some(e)) = (&self.referee, &self.referee_error) {
                    referee_score = Some(Err(e.clone()));
                }
                if let Some(r) = self.referee.as_mut() {
                    referee_score = Some(match &self.referee_error {
                        Some(e) => Err(e.clone()),
                        None => match ask(r, "final_score", config.setup_timeout()) {
                            Ok(text) => Margin::parse(&text)
                                .ok_or_else(|| format!("final_score answered '{}'", shown(&text))),
                            Err(e) => Err(failure_text(&e)),
                        },
                    });
                }
                let decisive = match &referee_score {
                    Some(Ok(m)) => *m,
                    _ => ours,
                };
                let winner = match decisive.0 .0 {
                    x if x > 0 => Some(Color::Black),
                    x if x < 0 => Some(Color::White),
                    _ => None,
                };
                (winner, decisive.to_string(), why)
            }
            End::Win(c, how, why) => (Some(c), format!("{}+{}", c.letter(), how), why),
            End::NoResult(why) => (None, "?".to_string(), why),
            End::Interrupted => (None, "?".to_string(), "interrupted".to_string()),
        };
        Outcome {
            winner,
            result,
            reason,
            tengen_score,
            referee_score,
        }
    }
}
