//! The MM fit: minorization–maximization sweeps over the feature groups raise the likelihood
//! of the played moves, then the gammas are copied into a [`Patterns`].

use super::corpus::TrainingGame;
use super::dataset::{build_dataset, choose_tables, Tables, Team, TrainConfig, TEAM};
use crate::patterns::features::{self, GROUPS, GROUP_COUNT, MIN_SPATIAL_RADIUS, SPATIAL_RADII};
use crate::patterns::Patterns;
use rayon::prelude::*;

/// What a fit did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub games: usize,
    pub positions: usize,
    pub candidates: usize,
    pub shapes: usize,
    /// Spatial patterns with a weight, by radius from [`MIN_SPATIAL_RADIUS`].
    pub spatials: [usize; SPATIAL_RADII],
    /// Mean log-likelihood of the training positions after each sweep.
    pub log_likelihood: Vec<f64>,
}

#[inline]
fn team_strength(t: &Team, gammas: &[Vec<f64>]) -> f64 {
    let mut s = gammas[0][t.shape as usize] * gammas[1][t.spatial as usize];
    for (g, &v) in t.values.iter().enumerate() {
        s *= gammas[g + 2][v as usize];
    }
    s
}

/// Fits gammas to `games`.
pub fn train(games: &[TrainingGame], config: &TrainConfig) -> (Patterns, TrainReport) {
    let (shapes, spatials) = choose_tables(games, config);
    // Sizes of the training groups, each with its "no value" slot last.
    let sizes: Vec<usize> = [shapes.len() + 2, spatials.len() + 1]
        .into_iter()
        .chain(GROUPS.iter().map(|&(_, n)| n + 1))
        .collect();
    let mut absent = [0usize; TEAM];
    for (a, &n) in absent.iter_mut().zip(&sizes) {
        *a = n - 1;
    }
    let tables = Tables {
        shapes: shapes
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, (i + 1) as u16))
            .collect(),
        spatials: spatials
            .iter()
            .enumerate()
            .map(|(i, &d)| (d, i as u32))
            .collect(),
        absent,
    };
    let data = build_dataset(games, &tables, config.position_stride);
    log::info!(
        "pattern training: {} positions, {} distinct candidates, {} shapes, {} spatial patterns",
        data.positions(),
        data.teams.len(),
        shapes.len(),
        spatials.len()
    );

    let mut gammas: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
    let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    for w in &data.winners {
        for (g, win) in wins.iter_mut().enumerate() {
            win[w.index(g)] += 1.0;
        }
    }

    let mut spatial_radii = [0usize; SPATIAL_RADII];
    for &k in &spatials {
        spatial_radii[features::spatial_radius(k) - MIN_SPATIAL_RADIUS] += 1;
    }
    let mut report = TrainReport {
        games: games.len(),
        positions: data.positions(),
        candidates: data.teams.len(),
        shapes: shapes.len(),
        spatials: spatial_radii,
        log_likelihood: Vec::new(),
    };
    // Fixed chunks of positions, summed in order: the same result on any number of threads.
    let n = data.positions();
    let chunk = n.div_ceil(64).max(1);
    let chunks: Vec<(usize, usize)> = (0..n)
        .step_by(chunk)
        .map(|a| (a, (a + chunk).min(n)))
        .collect();
    for sweep in 0..config.iterations {
        let mut ll = 0.0;
        for g in 0..TEAM {
            let parts: Vec<(Vec<f64>, f64)> = chunks
                .par_iter()
                .map(|&(lo, hi)| {
                    let mut denominators = vec![0.0f64; sizes[g]];
                    let mut ll = 0.0;
                    let mut strengths: Vec<f64> = Vec::new();
                    for j in lo..hi {
                        let range = data.range(j);
                        strengths.clear();
                        let mut total = 0.0;
                        for (t, &c) in data.teams[range.clone()]
                            .iter()
                            .zip(&data.counts[range.clone()])
                        {
                            let s = team_strength(t, &gammas);
                            strengths.push(s);
                            total += c as f64 * s;
                        }
                        ll += (team_strength(&data.winners[j], &gammas) / total).ln();
                        for ((t, &c), &s) in data.teams[range.clone()]
                            .iter()
                            .zip(&data.counts[range])
                            .zip(&strengths)
                        {
                            let v = t.index(g);
                            denominators[v] += c as f64 * s / gammas[g][v] / total;
                        }
                    }
                    (denominators, ll)
                })
                .collect();
            let mut denominators = vec![0.0f64; sizes[g]];
            ll = 0.0;
            for (d, l) in parts {
                for (a, b) in denominators.iter_mut().zip(d) {
                    *a += b;
                }
                ll += l;
            }
            // The "no value" slot stays 1.
            for (v, gamma) in gammas[g][..sizes[g] - 1].iter_mut().enumerate() {
                // One virtual win and one virtual loss against a gamma of 1.
                *gamma = (wins[g][v] + 1.0) / (denominators[v] + 2.0 / (*gamma + 1.0));
            }
        }
        let mean = ll / n.max(1) as f64;
        log::info!(
            "pattern training: sweep {} log-likelihood {:.4}",
            sweep + 1,
            mean
        );
        report.log_likelihood.push(mean);
    }

    let mut patterns = Patterns::uniform();
    patterns.set_shape_gamma(None, gammas[0][0] as f32);
    for (i, &s) in shapes.iter().enumerate() {
        patterns.set_shape_gamma(Some(s), gammas[0][i + 1] as f32);
    }
    for (i, &d) in spatials.iter().enumerate() {
        patterns.set_spatial_gamma(d, gammas[1][i] as f32);
    }
    for g in 0..GROUP_COUNT {
        for (v, &gamma) in gammas[g + 2][..sizes[g + 2] - 1].iter().enumerate() {
            patterns.set_group_gamma(g, v as u8, gamma as f32);
        }
    }
    (patterns, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color, Move, Point};
    use crate::game::PlayedMove;
    use crate::patterns::features::LAST;
    use crate::train_patterns::evaluate;

    /// Games on 9×9 whose moves follow a hidden rule: a point next to the last move is 30 times
    /// as likely as any other legal point.
    fn synthetic_games(n: usize, seed: u64) -> Vec<TrainingGame> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..n)
            .map(|i| {
                let mut b = Board::new(9).unwrap();
                let mut moves = Vec::new();
                let mut color = Color::Black;
                for _ in 0..50 {
                    let last = match b.last_moves().0 {
                        Move::Play(l) => Some(l),
                        Move::Pass => None,
                    };
                    let legal: Vec<Point> = b
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&q| b.is_legal(q, color))
                        .collect();
                    let weight = |q: Point| match last {
                        Some(l) if b.neighbours(l).contains(&q) => 30.0,
                        _ => 1.0,
                    };
                    let total: f64 = legal.iter().map(|&q| weight(q)).sum();
                    let mut r = rng.f64() * total;
                    let mut chosen = legal[legal.len() - 1];
                    for &q in &legal {
                        r -= weight(q);
                        if r <= 0.0 {
                            chosen = q;
                            break;
                        }
                    }
                    b.play(chosen, color);
                    moves.push(PlayedMove {
                        color,
                        mv: Move::Play(chosen),
                    });
                    color = color.opponent();
                }
                TrainingGame {
                    name: format!("synthetic {}", i),
                    size: 9,
                    setup: Vec::new(),
                    moves,
                }
            })
            .collect()
    }

    #[test]
    fn training_beats_uniform_on_held_out_synthetic_games() {
        let training = synthetic_games(40, 1);
        let held_out = synthetic_games(10, 2);
        let config = TrainConfig {
            iterations: 8,
            ..TrainConfig::default()
        };
        let (p, report) = train(&training, &config);
        assert!(report.positions > 1900);
        // Each sweep raises the training likelihood (MM never lowers it).
        for w in report.log_likelihood.windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "{:?}", report.log_likelihood);
        }
        let untrained = evaluate(&Patterns::uniform(), &held_out);
        let e = evaluate(&p, &held_out);
        assert!((untrained.log_likelihood - untrained.uniform_log_likelihood).abs() < 1e-9);
        assert!(e.log_likelihood > e.uniform_log_likelihood + 0.5, "{:?}", e);
        // The rule was learned: next to the last move beats far from it.
        assert!(p.group_gamma(LAST, 0) > 5.0 * p.group_gamma(LAST, 10));
    }
}
