//! Measurement: how well weights predict the played moves of some games (top-1, top-5, mean
//! log-likelihood against uniform), through the same lookup the search uses.

use super::corpus::{for_each_position, TrainingGame};
use super::dataset::for_each_candidate;
use crate::patterns::Patterns;
use rayon::prelude::*;

/// How well weights predict the moves of some games.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    pub positions: usize,
    /// Fraction of positions where the played move had the highest strength (ties shared).
    pub top1: f64,
    /// Fraction where it was among the five strongest (ties shared).
    pub top5: f64,
    /// Mean natural log of the probability given to the played move.
    pub log_likelihood: f64,
    /// The same with every legal move equally likely.
    pub uniform_log_likelihood: f64,
}

/// The credit for the played move being among the `k` strongest, when `better` candidates are
/// stronger and `ties` (itself included) as strong: ties are broken at random.
fn top_k_credit(better: usize, ties: usize, k: usize) -> f64 {
    if better >= k {
        0.0
    } else if better + ties <= k {
        1.0
    } else {
        (k - better) as f64 / ties as f64
    }
}

/// Measures `patterns` on every position of `games`, through the same lookup the search uses.
pub fn evaluate(patterns: &Patterns, games: &[TrainingGame]) -> Evaluation {
    // Per game: positions, top-1, top-5, log-likelihood, uniform log-likelihood; summed in order.
    let sums: Vec<(usize, f64, f64, f64, f64)> = games
        .par_iter()
        .map(|game| {
            let mut sum = (0usize, 0.0, 0.0, 0.0, 0.0);
            let mut strengths: Vec<f32> = Vec::new();
            for_each_position(game, |_, board, color, mv| {
                strengths.clear();
                let played = for_each_candidate(board, color, mv, |f| {
                    strengths.push(patterns.strength(&f));
                });
                let Some(played) = played else {
                    return;
                };
                let total: f64 = strengths.iter().map(|&s| s as f64).sum();
                let mine = strengths[played];
                let better = strengths.iter().filter(|&&s| s > mine).count();
                let ties = strengths.iter().filter(|&&s| s == mine).count();
                sum.0 += 1;
                sum.1 += top_k_credit(better, ties, 1);
                sum.2 += top_k_credit(better, ties, 5);
                sum.3 += (mine as f64 / total).ln();
                sum.4 -= (strengths.len() as f64).ln();
            });
            sum
        })
        .collect();
    let mut e = Evaluation::default();
    let (mut top1, mut top5, mut ll, mut uniform) = (0.0, 0.0, 0.0, 0.0);
    for (n, a, b, c, d) in sums {
        e.positions += n;
        top1 += a;
        top5 += b;
        ll += c;
        uniform += d;
    }
    let n = e.positions.max(1) as f64;
    e.top1 = top1 / n;
    e.top5 = top5 / n;
    e.log_likelihood = ll / n;
    e.uniform_log_likelihood = uniform / n;
    e
}

/// One line of figures on a held-out set.
pub(super) fn evaluation_line(what: &str, games: usize, e: &Evaluation) -> String {
    format!(
        "{}: {} games, {} positions, top-1 {:.1}%, top-5 {:.1}%, mean log-likelihood {:.4} \
         (uniform {:.4})",
        what,
        games,
        e.positions,
        100.0 * e.top1,
        100.0 * e.top5,
        e.log_likelihood,
        e.uniform_log_likelihood
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_credit_shares_ties() {
        assert_eq!(top_k_credit(0, 1, 1), 1.0);
        assert_eq!(top_k_credit(0, 4, 1), 0.25);
        assert_eq!(top_k_credit(1, 1, 1), 0.0);
        assert_eq!(top_k_credit(3, 4, 5), 0.5);
        assert_eq!(top_k_credit(4, 1, 5), 1.0);
        assert_eq!(top_k_credit(5, 1, 5), 0.0);
    }
}
