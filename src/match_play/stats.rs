//! What a match reports: each game's result as one line, the totals from engine A's side, and
//! A's win rate with its 95% Wilson interval (draws count half).

use crate::board::Color;
use crate::prejudgement::Predictions;
use crate::rules::Margin;
use std::time::Duration;

/// Which engine of the match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// How one game ended.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub number: usize,
    /// Engine A's colour in this game.
    pub a_color: Color,
    /// The winning colour; `None` for a draw or a game without result.
    pub winner: Option<Color>,
    /// The SGF result: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, or `?` without a result.
    pub result: String,
    /// Why the game ended, in words.
    pub reason: String,
    pub moves: usize,
    /// tengen's count, for games counted on the board.
    pub tengen_score: Option<Margin>,
    /// The referee's `final_score`, or why it has none.
    pub referee_score: Option<Result<Margin, String>>,
    /// Pre-judgement games: the two predictions (the first mover's first).
    pub prejudgement: Option<Predictions>,
    /// Under a Fischer clock: the least time engines A and B had left after a move of theirs
    /// (before the increment); `None` for an engine that made no move.
    pub least_time_left: Option<[Option<Duration>; 2]>,
}

impl GameResult {
    /// The winner as an engine of the match.
    pub fn winner_side(&self) -> Option<Side> {
        self.winner
            .map(|c| if c == self.a_color { Side::A } else { Side::B })
    }

    /// A's half points from the game (2 a win, 1 a draw, 0 a loss); `None` without result.
    pub fn a_half_points(&self) -> Option<usize> {
        match (self.winner_side(), self.decided()) {
            (Some(Side::A), _) => Some(2),
            (Some(Side::B), _) => Some(0),
            (None, true) => Some(1),
            (None, false) => None,
        }
    }

    /// Whether the game has a result (a win or a draw), as opposed to an error.
    pub fn decided(&self) -> bool {
        self.result != "?"
    }
}

/// The match's totals from engine A's side.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// Games without a result (an engine refused a legal move, and the like).
    pub no_result: usize,
    pub black_wins: usize,
    /// Games in which tengen's count and the referee's differ.
    pub disagreements: usize,
    /// Under a Fischer clock: games lost on time by A and by B.
    pub time_losses: [usize; 2],
    /// Under a Fischer clock: the least time A and B had left after a move, over all games.
    pub least_time_left: [Option<Duration>; 2],
}

impl Summary {
    pub(super) fn add(&mut self, g: &GameResult) {
        match (g.winner_side(), g.decided()) {
            (Some(Side::A), _) => self.a_wins += 1,
            (Some(Side::B), _) => self.b_wins += 1,
            (None, true) => self.draws += 1,
            (None, false) => self.no_result += 1,
        }
        if g.winner == Some(Color::Black) {
            self.black_wins += 1;
        }
        if let (Some(t), Some(Ok(r))) = (g.tengen_score, &g.referee_score) {
            if t != *r {
                self.disagreements += 1;
            }
        }
        if g.result.ends_with("+T") {
            match g.winner_side() {
                Some(Side::A) => self.time_losses[1] += 1,
                Some(Side::B) => self.time_losses[0] += 1,
                None => {}
            }
        }
        if let Some(least) = g.least_time_left {
            for (kept, t) in self.least_time_left.iter_mut().zip(least) {
                *kept = match (*kept, t) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
    }

    /// Games with a result.
    pub fn decided(&self) -> usize {
        self.a_wins + self.b_wins + self.draws
    }

    /// A's score rate (draws half) and its 95% Wilson interval; `None` before any result.
    pub fn a_rate(&self) -> Option<(f64, f64, f64)> {
        let n = self.decided();
        (n > 0).then(|| {
            let p = (self.a_wins as f64 + 0.5 * self.draws as f64) / n as f64;
            let (lo, hi) = wilson(p, n as f64);
            (p, lo, hi)
        })
    }
}

/// The 95% Wilson score interval for a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One line per game, for the match log.
pub fn game_line(g: &GameResult) -> String {
    let winner = match (g.winner_side(), g.decided()) {
        (Some(Side::A), _) => "A wins",
        (Some(Side::B), _) => "B wins",
        (None, true) => "draw",
        (None, false) => "no result",
    };
    let mut line = format!(
        "game {}: A {} | {} {} ({}, {} move{})",
        g.number,
        if g.a_color == Color::Black {
            "black"
        } else {
            "white"
        },
        g.result,
        winner,
        g.reason,
        g.moves,
        if g.moves == 1 { "" } else { "s" }
    );
    if let Some(p) = g.prejudgement {
        line.push_str(&format!(
            "; predictions {} {}, threshold {}",
            p.first,
            p.second,
            p.threshold().margin
        ));
    }
    if let Some(least) = g.least_time_left {
        let show = |t: Option<Duration>| {
            t.map_or("-".to_string(), |t| format!("{:.2} s", t.as_secs_f64()))
        };
        line.push_str(&format!(
            "; least time left A {}, B {}",
            show(least[0]),
            show(least[1])
        ));
    }
    if let Some(t) = g.tengen_score {
        line.push_str(&format!("; tengen counts {}", t));
    }
    match &g.referee_score {
        Some(Ok(r)) => {
            line.push_str(&format!("; referee counts {}", r));
            if g.tengen_score.is_some_and(|t| t != *r) {
                line.push_str(" (DISAGREE)");
            }
        }
        Some(Err(e)) => line.push_str(&format!("; referee gave no count: {}", e)),
        None => {}
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{} {}",
            lo,
            hi
        );
        let (lo, hi) = wilson(1.0, 10.0);
        assert!(
            (hi - 1.0).abs() < 1e-9 && (lo - 0.7225).abs() < 1e-3,
            "{}",
            lo
        );
        let (lo, _) = wilson(0.0, 5.0);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn a_plays_black_in_odd_games() {
        let mut s = Summary::default();
        let g = |number, winner| GameResult {
            number,
            a_color: if number % 2 == 1 {
                Color::Black
            } else {
                Color::White
            },
            winner,
            result: "B+1".into(),
            reason: String::new(),
            moves: 0,
            tengen_score: None,
            referee_score: None,
            prejudgement: None,
            least_time_left: None,
        };
        s.add(&g(1, Some(Color::Black)));
        s.add(&g(2, Some(Color::Black)));
        s.add(&g(3, None));
        assert_eq!((s.a_wins, s.b_wins, s.draws, s.black_wins), (1, 1, 1, 2));
        assert_eq!(s.a_rate().unwrap().0, 0.5);
    }
}
