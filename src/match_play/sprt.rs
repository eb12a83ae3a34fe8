//! Game pairs and the sequential probability ratio test on them, as chess engines' testing
//! frameworks (fishtest) run it: the two games of a pair share an opening with the colours
//! swapped, and engine A's points over the pair (0, ½, 1, 1½ or 2) fall into five classes, the
//! pentanomial model. Elo is logistic Elo throughout (a score `s` is `1 / (1 + 10^(−elo/400))`),
//! the model fishtest's `LLR_logistic` uses.
//!
//! The test weighs H0 (A is `elo0` stronger than B) against H1 (`elo1` stronger) by the
//! generalised log-likelihood ratio: for each hypothesis, the five-class distribution closest to
//! the observed one (maximum likelihood) among those whose mean score is the hypothesis's, and
//! the ratio of the observed pairs' likelihoods under the two. Classes never seen are given a
//! count of 10⁻³ first (fishtest's regularisation), so that the maximum exists. With
//! α = β = 0.05 the test stops for H1 when the ratio's logarithm reaches log((1−β)/α) ≈ 2.94,
//! for H0 when it falls to log(β/(1−α)) ≈ −2.94. The Elo estimate is the mean pair score's,
//! with the 95% interval of that mean (normal approximation over pairs) turned into Elo.

/// The test's error rates: a false H1 (α) and a false H0 (β).
pub const ALPHA: f64 = 0.05;
pub const BETA: f64 = 0.05;

/// The largest Elo bound `--sprt` takes: beyond it the logistic score is within 10⁻⁵ of 0 or 1.
pub const MAX_ELO: f64 = 2000.0;

/// The count given to a class of pair scores never seen (fishtest's `regularize`).
const UNSEEN: f64 = 1e-3;

/// The score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of a score, infinite at 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo difference as the match prints it: signed, one decimal, `+inf`/`-inf` past the ends.
pub fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns −0.0 into 0.0.
        format!("{:+.1}", elo + 0.0)
    }
}

/// A pair's score in each class, per game: 0, ¼, ½, ¾, 1 (A's points over the pair, halved).
const CLASS_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The test asked for: H0 `elo0`, H1 `elo1`, in logistic Elo of A over B.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
}

/// What the test decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    H0,
    H1,
}

impl Sprt {
    /// The test for `elo0` against `elo1`: both finite, within ±[`MAX_ELO`], `elo0` below.
    pub fn new(elo0: f64, elo1: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() || elo0.abs() > MAX_ELO || elo1.abs() > MAX_ELO {
            return Err(format!(
                "--sprt {} {}: the bounds must be Elo differences from -{} to {}",
                elo0, elo1, MAX_ELO, MAX_ELO
            ));
        }
        if elo0 >= elo1 {
            return Err(format!(
                "--sprt {} {}: ELO0 (the null hypothesis) must be below ELO1",
                elo0, elo1
            ));
        }
        Ok(Sprt { elo0, elo1 })
    }

    /// The log-likelihood ratio's bounds: (H0's, H1's).
    pub fn bounds() -> (f64, f64) {
        ((BETA / (1.0 - ALPHA)).ln(), ((1.0 - BETA) / ALPHA).ln())
    }

    /// The log-likelihood ratio of H1 against H0 after the pairs counted in `pairs`.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.counts.map(|n| if n == 0 { UNSEEN } else { n as f64 });
        llr(&counts, score_of_elo(self.elo0), score_of_elo(self.elo1))
    }

    /// The verdict once the ratio has crossed a bound.
    pub fn verdict(llr: f64) -> Option<Verdict> {
        let (lower, upper) = Sprt::bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The generalised log-likelihood ratio of mean score `s1` against `s0` (per game, strictly
/// between 0 and 1) for pairs counted by class in `counts` (¼-steps of score per game).
pub fn llr(counts: &[f64; 5], s0: f64, s1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return 0.0;
    }
    let observed = counts.map(|c| c / n);
    let (t0, t1) = (tilt(&observed, s0), tilt(&observed, s1));
    // The maximum-likelihood distribution of mean s is p̂ᵢ / (1 + θ(aᵢ − s)), so the ratio of
    // the two in class i is (1 + θ₀(aᵢ − s0)) / (1 + θ₁(aᵢ − s1)).
    let per_pair: f64 = (0..5)
        .filter(|&i| observed[i] > 0.0)
        .map(|i| {
            let a = CLASS_SCORE[i];
            observed[i] * ((1.0 + t0 * (a - s0)).ln() - (1.0 + t1 * (a - s1)).ln())
        })
        .sum();
    n * per_pair
}

/// The θ for which p̂ᵢ / (1 + θ(aᵢ − s)) is the distribution of mean `s` nearest to `observed`
/// (maximum likelihood): the root of Σ p̂ᵢ (aᵢ − s) / (1 + θ(aᵢ − s)), which falls as θ grows
/// within the range where every denominator is positive, found by bisection there.
fn tilt(observed: &[f64; 5], s: f64) -> f64 {
    let f = |theta: f64| -> f64 {
        (0..5)
            .filter(|&i| observed[i] > 0.0)
            .map(|i| {
                let d = CLASS_SCORE[i] - s;
                observed[i] * d / (1.0 + theta * d)
            })
            .sum()
    };
    // Denominators positive: θ(a − s) > −1 for the seen classes' largest and smallest a.
    let seen = |i: &usize| observed[*i] > 0.0;
    let top = (0..5).rev().find(seen).map_or(1.0, |i| CLASS_SCORE[i]) - s;
    let bottom = (0..5).find(seen).map_or(0.0, |i| CLASS_SCORE[i]) - s;
    // Just inside the open interval (−1/top, −1/bottom); without a class on one side of s the
    // mean cannot reach s, and the bound on that side stands for the limit.
    let shrink = 1.0 - 1e-12;
    let mut lo = if top > 0.0 { -shrink / top } else { -1e12 };
    let mut hi = if bottom < 0.0 { -shrink / bottom } else { 1e12 };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Pairs counted by A's points over the two games: index k for k/2 points (0, ½, 1, 1½, 2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [usize; 5],
}

impl Pentanomial {
    /// Counts a pair in which A won `half_points` half points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> usize {
        self.counts.iter().sum()
    }

    /// A's mean score per game and the variance of a pair's score (per game), over the pairs.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let weight = |i: usize| self.counts[i] as f64 / n;
        let mean: f64 = (0..5).map(|i| weight(i) * CLASS_SCORE[i]).sum();
        let var: f64 = (0..5)
            .map(|i| weight(i) * (CLASS_SCORE[i] - mean).powi(2))
            .sum();
        Some((mean, var))
    }

    /// A's Elo over B from the mean score, with the 95% interval of the mean turned into Elo;
    /// `None` before the first pair, and the interval `None` while every pair has scored the
    /// same (the spread is then unknown, not zero).
    pub fn elo(&self) -> Option<(f64, Option<(f64, f64)>)> {
        let (mean, var) = self.moments()?;
        if self.counts.iter().filter(|&&c| c > 0).count() < 2 {
            return Some((elo_of_score(mean), None));
        }
        let half = 1.959_963_984_540_054 * (var / self.pairs() as f64).sqrt();
        Some((
            elo_of_score(mean),
            Some((elo_of_score(mean - half), elo_of_score(mean + half))),
        ))
    }
}

/// The game pairs of a match as they finish: a pair is counted once its second game is, left
/// out when either game has no result.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    pub pentanomial: Pentanomial,
    /// Pairs left out: a game without result.
    pub left_out: usize,
    /// The pairs with one game finished: the pair's number, A's half points in that game
    /// (`None` for no result). Games played side by side may finish in any order.
    waiting: std::collections::BTreeMap<usize, Option<usize>>,
}

/// A finished pair: its number (from 1) and A's half points over it (`None`: left out).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub number: usize,
    pub half_points: Option<usize>,
}

impl Pairs {
    /// Adds game `number`'s result (A's half points: 2 a win, 1 a draw, 0 a loss; `None`
    /// without result); games 2k − 1 and 2k are pair k, which is returned once both are in,
    /// whichever finished first.
    pub fn add(&mut self, number: usize, a_half_points: Option<usize>) -> Option<Pair> {
        let pair = number.div_ceil(2);
        let Some(other) = self.waiting.remove(&pair) else {
            self.waiting.insert(pair, a_half_points);
            return None;
        };
        let half_points = other.zip(a_half_points).map(|(a, b)| a + b);
        match half_points {
            Some(h) => self.pentanomial.add(h),
            None => self.left_out += 1,
        }
        Some(Pair {
            number: pair,
            half_points,
        })
    }
}

/// A pair's line in the match log, with the test's ratio so far when there is a test.
pub fn pair_line(pair: Pair, llr: Option<f64>) -> String {
    let games = format!(
        "pair {} (games {}-{})",
        pair.number,
        2 * pair.number - 1,
        2 * pair.number
    );
    let Some(h) = pair.half_points else {
        return format!("{}: a game without result, left out", games);
    };
    let mut line = format!("{}: A {} of 2", games, half_text(h));
    if let Some(llr) = llr {
        let (lower, upper) = Sprt::bounds();
        line.push_str(&format!("; LLR {:.2} [{:.2}, {:.2}]", llr, lower, upper));
    }
    line
}

/// A number of half points as points: `1.5`, `2`.
fn half_text(h: usize) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

/// How a test ended, for the summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Decided(Verdict),
    /// The `--games` limit came first.
    Limit,
    /// A signal or a failure stopped the match first.
    Stopped,
}

/// The summary's lines on the pairs: their scores, A's Elo with its interval, and the test.
pub fn summary_lines(pairs: &Pairs, test: Option<(Sprt, Ending)>) -> Vec<String> {
    let p = &pairs.pentanomial;
    let mut lines = vec![format!(
        "pairs: {} counted, A scoring 0/0.5/1/1.5/2 in {}{}",
        p.pairs(),
        p.counts.map(|c| c.to_string()).join("/"),
        match pairs.left_out {
            0 => String::new(),
            n => format!(", {} left out (a game without result)", n),
        }
    )];
    if let Some((elo, interval)) = p.elo() {
        lines.push(format!(
            "Elo of A over B {} ({}, logistic, {} pair{})",
            elo_text(elo),
            match interval {
                Some((lo, hi)) => format!("95% CI {} to {}", elo_text(lo), elo_text(hi)),
                None => "no interval while every pair scores the same".to_string(),
            },
            p.pairs(),
            if p.pairs() == 1 { "" } else { "s" }
        ));
    }
    if let Some((sprt, ending)) = test {
        let (lower, upper) = Sprt::bounds();
        let verdict = match ending {
            Ending::Decided(Verdict::H1) => {
                format!("H1 accepted (Elo {} rather than {})", sprt.elo1, sprt.elo0)
            }
            Ending::Decided(Verdict::H0) => {
                format!("H0 accepted (Elo {} rather than {})", sprt.elo0, sprt.elo1)
            }
            Ending::Limit => "inconclusive at the --games limit".to_string(),
            Ending::Stopped => "inconclusive, the match stopped".to_string(),
        };
        lines.push(format!(
            "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.2} [{:.2}, {:.2}], {}",
            sprt.elo0,
            sprt.elo1,
            ALPHA,
            BETA,
            sprt.llr(p),
            lower,
            upper,
            verdict
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn logistic_elo_and_score() {
        assert!(close(score_of_elo(0.0), 0.5, 1e-12));
        // 400 Elo: ten to one.
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        assert!(close(elo_of_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_of_score(0.75), 190.848_501_887_864_98, 1e-9));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_text(f64::NEG_INFINITY), "-inf");
        assert_eq!(elo_text(12.345), "+12.3");
        assert_eq!(elo_text(elo_of_score(0.5)), "+0.0");
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let (lower, upper) = Sprt::bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!(close(lower, -2.944_438_979_166_44, 1e-12));
        assert!(close(upper, 2.944_438_979_166_44, 1e-12));
        assert_eq!(Sprt::verdict(2.95), Some(Verdict::H1));
        assert_eq!(Sprt::verdict(-2.95), Some(Verdict::H0));
        assert_eq!(Sprt::verdict(2.9), None);
    }

    #[test]
    fn only_losses_and_wins_give_the_binomial_ratio() {
        // Pairs scoring 0 or 2 only: the nearest distribution of mean s puts s on the wins, so
        // the ratio is the binomial one: 6 ln(s1/s0) + 4 ln((1 − s1)/(1 − s0)).
        let (s0, s1) = (0.5, 0.6);
        let expected = 6.0 * (0.6f64 / 0.5).ln() + 4.0 * (0.4f64 / 0.5).ln();
        assert!(close(expected, 0.201_355_1, 1e-6), "{}", expected);
        let got = llr(&[4.0, 0.0, 0.0, 0.0, 6.0], s0, s1);
        assert!(close(got, expected, 1e-9), "{} {}", got, expected);
    }

    #[test]
    fn two_classes_by_hand() {
        // 100 pairs, half scoring ½ and half 1½ (¼ and ¾ a game): a distribution on those two
        // classes with mean s puts (s − ¼)/½ on ¾. H0 s = 0.5: ½ and ½; H1 s = 0.55: 0.4, 0.6.
        // LLR = 100 (½ ln(0.6/0.5) + ½ ln(0.4/0.5)) = 50 ln 0.96.
        let got = llr(&[0.0, 50.0, 0.0, 50.0, 0.0], 0.5, 0.55);
        assert!(close(got, 50.0 * 0.96f64.ln(), 1e-9), "{}", got);
        assert!(close(got, -2.041_099_6, 1e-6), "{}", got);
        // The observed mean as H0: the ratio is at most 0, and 0 for H1 = H0.
        assert!(close(
            llr(&[3.0, 5.0, 9.0, 4.0, 2.0], 0.47, 0.47),
            0.0,
            1e-9
        ));
    }

    #[test]
    fn three_classes_by_hand() {
        // Pairs 1:2:1 over 0, ½, 1 a game (mean ½). For mean s = 0.6 the tilt θ solves
        // ¼(−0.6)/(1 − 0.6θ) + ½(−0.1)/(1 − 0.1θ) + ¼(0.4)/(1 + 0.4θ) = 0, which with the
        // denominators cleared is 0.48θ² − 2.1θ − 2 = 0: θ = (2.1 − √8.25)/0.96 = −0.804 460
        // (the other root makes a denominator negative). Then p = (0.168 614, 0.462 772,
        // 0.368 614), and with H1 the observed mean (θ = 0, p = p̂) the ratio is
        // N Σ p̂ ln(p̂/p) = 40 × 0.040 076 74.
        let counts = [10.0, 0.0, 20.0, 0.0, 10.0];
        let observed = counts.map(|c| c / 40.0);
        let t = tilt(&observed, 0.6);
        assert!(close(t, (2.1 - 8.25f64.sqrt()) / 0.96, 1e-9), "{}", t);
        let p = [0.0, 0.5, 1.0].map(|a| 1.0 / (1.0 + t * (a - 0.6)));
        assert!(close(0.25 * p[0], 0.168_614, 1e-6) && close(0.5 * p[1], 0.462_772, 1e-6));
        let got = llr(&counts, 0.6, 0.5);
        assert!(close(got, 40.0 * 0.040_076_74, 1e-6), "{}", got);
    }

    #[test]
    fn the_ratio_agrees_with_the_normal_approximation_for_small_differences() {
        // LLR ≈ (s1 − s0)(2x̄ − s0 − s1) / (2σ²/N) for N pairs of mean x̄ and variance σ².
        let counts = [30.0, 120.0, 200.0, 140.0, 40.0];
        let pairs = Pentanomial {
            counts: counts.map(|c| c as usize),
        };
        let (mean, var) = pairs.moments().unwrap();
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let approx = (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / 530.0);
        let got = llr(&counts, s0, s1);
        assert!(
            close(got, approx, 0.02 * approx.abs()),
            "{} {}",
            got,
            approx
        );
        let sprt = Sprt::new(0.0, 10.0).unwrap();
        assert!(close(sprt.llr(&pairs), got, 1e-9));
    }

    #[test]
    fn unseen_classes_are_regularised() {
        // Every pair won by A: the ratio stays finite, ln(s1/s0) a pair once the unseen
        // classes' 10⁻³ hold the mass that lowers the mean.
        let sprt = Sprt::new(0.0, 200.0).unwrap();
        let pairs = Pentanomial {
            counts: [0, 0, 0, 0, 8],
        };
        let llr = sprt.llr(&pairs);
        let expected = 8.0 * (score_of_elo(200.0) / 0.5).ln();
        assert!(close(llr, expected, 0.01), "{} {}", llr, expected);
        assert_eq!(Sprt::verdict(llr), Some(Verdict::H1));
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn bad_bounds_are_refused() {
        assert!(Sprt::new(5.0, 0.0).unwrap_err().contains("must be below"));
        assert!(Sprt::new(3.0, 3.0).is_err());
        assert!(Sprt::new(0.0, f64::NAN).is_err());
        assert!(Sprt::new(0.0, 5000.0).is_err());
        assert!(Sprt::new(-5.0, 0.0).is_ok());
    }

    #[test]
    fn elo_interval() {
        // 4 pairs of 1½ and 4 of ½: mean ½, σ² = 1/16, half width 1.96 × √(1/128).
        let pairs = Pentanomial {
            counts: [0, 4, 0, 4, 0],
        };
        let (elo, interval) = pairs.elo().unwrap();
        let (lo, hi) = interval.unwrap();
        let half = 1.959_963_984_540_054 * (1.0f64 / 128.0).sqrt();
        assert!(close(elo, 0.0, 1e-9));
        assert!(close(hi, elo_of_score(0.5 + half), 1e-9) && close(lo, -hi, 1e-9));
        assert!(Pentanomial::default().elo().is_none());
        let same = Pentanomial {
            counts: [0, 0, 3, 0, 0],
        };
        assert_eq!(same.elo(), Some((0.0, None)));
    }

    #[test]
    fn pairs_are_counted_once_complete() {
        let mut pairs = Pairs::default();
        assert_eq!(pairs.add(1, Some(2)), None);
        assert_eq!(
            pairs.add(2, Some(1)),
            Some(Pair {
                number: 1,
                half_points: Some(3)
            })
        );
        pairs.add(3, None);
        assert_eq!(pairs.add(4, Some(2)).unwrap().half_points, None);
        assert_eq!(pairs.pentanomial.counts, [0, 0, 0, 1, 0]);
        assert_eq!(pairs.left_out, 1);
        // Games played side by side: the second game of a pair may finish first.
        assert_eq!(pairs.add(6, Some(0)), None);
        assert_eq!(pairs.add(8, Some(2)), None);
        assert_eq!(
            pairs.add(5, Some(1)),
            Some(Pair {
                number: 3,
                half_points: Some(1)
            })
        );
        assert_eq!(pairs.pentanomial.counts, [0, 1, 0, 1, 0]);
        let lines = summary_lines(&pairs, Some((Sprt::new(0.0, 5.0).unwrap(), Ending::Limit)));
        assert_eq!(
            lines[0],
            "pairs: 2 counted, A scoring 0/0.5/1/1.5/2 in 0/1/0/1/0, 1 left out (a game without result)"
        );
        assert!(
            lines[2].ends_with("inconclusive at the --games limit"),
            "{:?}",
            lines
        );
        let pair = Pair {
            number: 2,
            half_points: Some(3),
        };
        assert_eq!(
            pair_line(pair, Some(0.4)),
            "pair 2 (games 3-4): A 1.5 of 2; LLR 0.40 [-2.94, 2.94]"
        );
    }
}
