//! The heavy playout policy's parameters, and the trace of its decisions that training needs.
//!
//! The policy ([`super::policy`]) is a list of rules tried in order; each rule that has a move
//! is played with its own probability (else the next rule is tried), and the shape reply picks
//! among its candidate points in proportion to a weight: the gamma of the best-weighted shape the
//! point matches times the gamma the move model learned for the point's 3×3 pattern.
//! [`PlayoutWeights`] holds those probabilities and the shapes' log-gammas. The engine's
//! weights are `playout_weights.txt`, embedded in the binary and parsed once; a test parses it,
//! so a malformed file fails the build's tests, never a user's run.
//!
//! A [`Trace`] sees every random decision that could change the move: the search's [`NoTrace`]
//! does nothing and is compiled away; [`Gradient`] sums ∇θ log π of the decisions (θ a rule's
//! logit or a shape's log-gamma), which simulation balancing needs
//! (`crate::train_patterns::balance`).
//!
//! Invariants: every rule probability is in [0, 1] (0 and 1 draw no random number: the rule is
//! never or always played), every log-gamma is finite and within ±[`MAX_LOG_GAMMA`].

use super::shapes::{PATTERNS, SHAPES};
use std::sync::OnceLock;

/// The rules of the policy that are played with a probability, in the order they are tried.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Capture the last move's group when it is in atari.
    Capture = 0,
    /// Capture a big group in atari next to the mover's previous move.
    BigCapture,
    /// Save an own group the last move put in atari.
    Save,
    /// Win a capture race a big group is in.
    BigRace,
    /// Read the two-liberty fights around the last move, and the races no big group is in: one
    /// draw per reply, shared by both, made before the reading (which it can skip).
    Fight,
    /// Play a two-liberty fight's move, once [`Rule::Fight`]'s draw allowed the reading.
    TwoLiberty,
    /// Take the vital point of an eye space the last move walled in.
    Nakade,
    /// Play a shape reply next to the last move or the mover's previous one.
    Shape,
}

/// How many rules there are.
pub const RULES: usize = 8;

/// The rules in order, with their names in the weights file.
pub const RULE_NAMES: [(Rule, &str); RULES] = [
    (Rule::Capture, "capture"),
    (Rule::BigCapture, "big_capture"),
    (Rule::Save, "save"),
    (Rule::BigRace, "big_race"),
    (Rule::Fight, "fight"),
    (Rule::TwoLiberty, "two_liberty"),
    (Rule::Nakade, "nakade"),
    (Rule::Shape, "shape"),
];

/// The largest log-gamma a shape may have: a shape e^20 times another is already certain to
/// be picked, and the sums of gammas stay far from overflow.
pub const MAX_LOG_GAMMA: f32 = 20.0;

/// The policy's parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayoutWeights {
    /// Each rule's probability of being played when it has a move (by [`Rule`] index).
    rules: [f32; RULES],
    /// Each shape's log-gamma (by [`PATTERNS`] index).
    log_gammas: [f32; SHAPES],
    /// Their exponentials.
    gammas: [f32; SHAPES],
    /// Whether every shape has the same gamma: a point's best shape is then its first.
    uniform: bool,
}

impl PlayoutWeights {
    /// Weights from rule probabilities and shape log-gammas, or why they are not valid.
    pub fn new(rules: [f32; RULES], log_gammas: [f32; SHAPES]) -> Result<PlayoutWeights, String> {
        for (i, &p) in rules.iter().enumerate() {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!(
                    "{}: probability {} is not in [0, 1]",
                    RULE_NAMES[i].1, p
                ));
            }
        }
        for (i, &g) in log_gammas.iter().enumerate() {
            if g.is_nan() || g.abs() > MAX_LOG_GAMMA {
                return Err(format!(
                    "shape.{}: log-gamma {} is not within ±{}",
                    PATTERNS[i].1, g, MAX_LOG_GAMMA
                ));
            }
        }
        Ok(PlayoutWeights {
            rules,
            log_gammas,
            gammas: log_gammas.map(f32::exp),
            uniform: log_gammas.iter().all(|&g| g == log_gammas[0]),
        })
    }

    /// The weights built into the engine (`playout_weights.txt`).
    pub fn embedded() -> &'static PlayoutWeights {
        static WEIGHTS: OnceLock<PlayoutWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            // The file is part of the source; `embedded_weights_parse` checks it.
            PlayoutWeights::parse(include_str!("playout_weights.txt"))
                .unwrap_or_else(|e| unreachable!("src/search/playout_weights.txt: {}", e))
        })
    }

    /// Reads a weights file: one `NAME VALUE` a line, every rule and `shape.NAME` once; blank
    /// lines and `#` comments are passed over.
    pub fn parse(text: &str) -> Result<PlayoutWeights, String> {
        let mut rules = [None; RULES];
        let mut shapes = [None; SHAPES];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fail = |why: &str| format!("line {}: {}", n + 1, why);
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(fail("expected NAME VALUE"));
            };
            let value: f32 = value
                .parse()
                .map_err(|_| fail("the value is not a number"))?;
            let slot = if let Some(shape) = name.strip_prefix("shape.") {
                let i = PATTERNS.iter().position(|&(_, s)| s == shape);
                i.map(|i| &mut shapes[i])
            } else {
                let i = RULE_NAMES.iter().position(|&(_, r)| r == name);
                i.map(|i| &mut rules[i])
            };
            let slot = slot.ok_or_else(|| fail(&format!("unknown name '{}'", name)))?;
            if slot.replace(value).is_some() {
                return Err(fail(&format!("'{}' given twice", name)));
            }
        }
        let missing = |what: &str| format!("no line for '{}'", what);
        let mut r = [0.0; RULES];
        for (i, v) in rules.iter().enumerate() {
            r[i] = v.ok_or_else(|| missing(RULE_NAMES[i].1))?;
        }
        let mut s = [0.0; SHAPES];
        for (i, v) in shapes.iter().enumerate() {
            s[i] = v.ok_or_else(|| missing(&format!("shape.{}", PATTERNS[i].1)))?;
        }
        PlayoutWeights::new(r, s)
    }

    /// The weights as a file [`PlayoutWeights::parse`] reads, after `header` as `#` comments.
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            s.push_str(&format!("# {}\n", line).replace("# \n", "#\n"));
        }
        s.push_str("# Rules: the probability of playing the rule's move when it has one.\n");
        for (i, (_, name)) in RULE_NAMES.iter().enumerate() {
            s.push_str(&format!("{} {}\n", name, self.rules[i]));
        }
        s.push_str("# Shape replies: each shape's log-gamma (see src/search/shapes.rs).\n");
        for (i, (_, name)) in PATTERNS.iter().enumerate() {
            s.push_str(&format!("shape.{} {}\n", name, self.log_gammas[i]));
        }
        s
    }

    /// The rule probabilities, by [`Rule`] index.
    pub fn rule_probabilities(&self) -> [f32; RULES] {
        self.rules
    }

    /// The shapes' log-gammas, by [`PATTERNS`] index.
    pub fn log_gammas(&self) -> [f32; SHAPES] {
        self.log_gammas
    }

    /// `rule`'s probability.
    #[inline]
    pub fn probability(&self, rule: Rule) -> f32 {
        self.rules[rule as usize]
    }

    /// Draws whether `rule` is played: no random number when its probability is 0 or 1.
    #[inline]
    pub fn draw(&self, rule: Rule, rng: &mut fastrand::Rng) -> bool {
        let p = self.rules[rule as usize];
        if p >= 1.0 {
            true
        } else if p <= 0.0 {
            false
        } else {
            rng.f32() < p
        }
    }

    /// Draws whether `rule`, which has a move, is played, and tells `trace`.
    #[inline]
    pub fn fires<T: Trace>(&self, rule: Rule, rng: &mut fastrand::Rng, trace: &mut T) -> bool {
        let fired = self.draw(rule, rng);
        if T::ACTIVE {
            trace.rule(rule, fired, self.probability(rule));
        }
        fired
    }

    /// The best-weighted shape of a non-empty set (ties to the first).
    #[inline]
    pub fn best_shape(&self, set: u16) -> u8 {
        let first = set.trailing_zeros() as u8;
        if self.uniform {
            return first;
        }
        let mut best = first;
        let mut rest = set & (set - 1);
        while rest != 0 {
            let i = rest.trailing_zeros() as u8;
            if self.log_gammas[i as usize] > self.log_gammas[best as usize] {
                best = i;
            }
            rest &= rest - 1;
        }
        best
    }

    /// Picks one of `best.len()` (at least one, at most 16) candidates, candidate `j` weighted
    /// by the gamma of its best shape `best[j]` times `learned[j]` (its 3×3 pattern's gamma in
    /// the move model, [`crate::patterns::Patterns::shape_gamma`]), and tells `trace`; returns
    /// its index.
    #[inline]
    pub fn pick_shape<T: Trace>(
        &self,
        best: &[u8],
        learned: &[f32],
        rng: &mut fastrand::Rng,
        trace: &mut T,
    ) -> usize {
        debug_assert_eq!(best.len(), learned.len());
        // As many as the shape reply's candidates.
        let mut weights = [0f32; 16];
        let weights = &mut weights[..best.len()];
        let mut total = 0.0;
        for ((w, &b), &l) in weights.iter_mut().zip(best).zip(learned) {
            *w = self.gammas[b as usize] * l;
            total += *w;
        }
        let chosen = draw_by_weight(weights, total, rng);
        if T::ACTIVE {
            trace.shape_pick(best, weights, chosen);
        }
        chosen
    }
}

/// An index into `weights` (not empty; `total` their sum), drawn in proportion to its weight;
/// the last one when rounding leaves the draw at the very end.
#[inline]
pub fn draw_by_weight(weights: &[f32], total: f32, rng: &mut fastrand::Rng) -> usize {
    let mut r = rng.f32() * total;
    for (j, &w) in weights.iter().enumerate() {
        r -= w;
        if r < 0.0 {
            return j;
        }
    }
    weights.len() - 1
}

impl Default for PlayoutWeights {
    /// The hand-set rates: tactics always, the fights and the vital points nine times in ten,
    /// every shape alike.
    fn default() -> PlayoutWeights {
        let mut rules = [1.0; RULES];
        rules[Rule::Fight as usize] = 0.9;
        rules[Rule::Nakade as usize] = 0.9;
        PlayoutWeights::new(rules, [0.0; SHAPES])
            .unwrap_or_else(|e| unreachable!("default weights: {}", e))
    }
}

/// What sees the policy's random decisions.
pub trait Trace {
    /// Whether the trace looks at anything: when not, the policy skips the reading it would do
    /// only to tell it.
    const ACTIVE: bool;
    /// `rule`, which could change the move, was played (`fired`) or not, with probability `p`.
    fn rule(&mut self, rule: Rule, fired: bool, p: f32);
    /// The shape reply picked candidate `chosen`; candidate `i`'s best shape is `best[i]`, its
    /// whole weight `weights[i]` (the shape's gamma times the learned pattern's).
    fn shape_pick(&mut self, best: &[u8], weights: &[f32], chosen: usize);
}

/// The search's trace: nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn rule(&mut self, _: Rule, _: bool, _: f32) {}
    #[inline(always)]
    fn shape_pick(&mut self, _: &[u8], _: &[f32], _: usize) {}
}

/// The sum of ∇θ log π over the decisions seen: by rule logit (a rule played with probability
/// p = σ(θ) adds 1 − p when played, −p when not) and by shape log-gamma (the chosen candidate's
/// shape gets 1, every candidate's shape loses the candidate's share of the total weight).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gradient {
    pub rules: [f64; RULES],
    pub shapes: [f64; SHAPES],
}

impl Gradient {
    /// Adds `scale` times `other`.
    pub fn add_scaled(&mut self, other: &Gradient, scale: f64) {
        for (a, b) in self.rules.iter_mut().zip(&other.rules) {
            *a += scale * b;
        }
        for (a, b) in self.shapes.iter_mut().zip(&other.shapes) {
            *a += scale * b;
        }
    }
}

impl Trace for Gradient {
    const ACTIVE: bool = true;
    fn rule(&mut self, rule: Rule, fired: bool, p: f32) {
        self.rules[rule as usize] += f64::from(u8::from(fired)) - f64::from(p);
    }
    fn shape_pick(&mut self, best: &[u8], weights: &[f32], chosen: usize) {
        // A candidate's weight is exp(θ of its best shape) times a constant (the learned
        // pattern's gamma), so ∂ log π / ∂θ is still 1 for the chosen shape less each
        // candidate's share of the total weight on its own shape.
        let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
        self.shapes[best[chosen] as usize] += 1.0;
        for (&b, &w) in best.iter().zip(weights) {
            self.shapes[b as usize] -= f64::from(w) / total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_weights_parse() {
        let text = include_str!("playout_weights.txt");
        let w = PlayoutWeights::parse(text).unwrap();
        assert_eq!(&w, PlayoutWeights::embedded());
        // Written and read back, the weights are the same.
        assert_eq!(PlayoutWeights::parse(&w.to_text("a\n\nb")).unwrap(), w);
    }

    #[test]
    fn defaults_are_the_hand_set_rates() {
        let w = PlayoutWeights::default();
        assert_eq!(
            w.rule_probabilities(),
            [1.0, 1.0, 1.0, 1.0, 0.9, 1.0, 0.9, 1.0]
        );
        assert_eq!(w.log_gammas(), [0.0; SHAPES]);
        assert!(w.uniform);
        // Rules played always or never draw no random number.
        let mut rng = fastrand::Rng::with_seed(3);
        let before = rng.clone().u64(..);
        assert!(w.draw(Rule::Capture, &mut rng));
        assert_eq!(rng.u64(..), before);
    }

    #[test]
    fn malformed_files_are_refused() {
        let good = PlayoutWeights::default().to_text("");
        assert!(PlayoutWeights::parse(&good).is_ok());
        for bad in [
            good.replace("fight 0.9", "fight 1.5"),
            good.replace("fight 0.9", "fight x"),
            good.replace("fight 0.9", "fight 0.9 2"),
            good.replace("fight 0.9", ""),
            good.replace("fight 0.9", "fight 0.9\nfight 0.8"),
            good.replace("fight 0.9", "fight 0.9\nladder 1"),
            good.replace("shape.edge_cut 0", "shape.edge_cut NaN"),
        ] {
            assert!(PlayoutWeights::parse(&bad).is_err(), "{}", bad);
        }
    }

    #[test]
    fn shapes_are_picked_in_proportion_to_their_gammas() {
        let mut log_gammas = [0.0; SHAPES];
        log_gammas[2] = 3f32.ln();
        let w = PlayoutWeights::new([1.0; RULES], log_gammas).unwrap();
        // A point matching shapes 0 and 2 weighs as shape 2.
        assert_eq!(w.best_shape(0b101), 2);
        let best = [2, 0, 0];
        // The learned patterns' gammas multiply: weights 3·1, 1·2 and 1·1.
        let learned = [1.0, 2.0, 1.0];
        let mut rng = fastrand::Rng::with_seed(9);
        let runs = 30_000;
        let mut picks = [0usize; 3];
        for _ in 0..runs {
            picks[w.pick_shape(&best, &learned, &mut rng, &mut NoTrace)] += 1;
        }
        for (p, expected) in picks.iter().zip([0.5, 1.0 / 3.0, 1.0 / 6.0]) {
            let share = *p as f64 / runs as f64;
            assert!((share - expected).abs() < 0.02, "{picks:?}");
        }
        // The gradient of picking the first: 1 − 3/6 on shape 2; shape 0 loses 2/6 + 1/6.
        let mut g = Gradient::default();
        g.shape_pick(&best, &[3.0, 2.0, 1.0], 0);
        assert!((g.shapes[2] - 0.5).abs() < 1e-6 && (g.shapes[0] + 0.5).abs() < 1e-6);
        // The pick tells the trace the whole weights.
        let mut traced = Gradient::default();
        let mut rng = fastrand::Rng::with_seed(4);
        let chosen = w.pick_shape(&best, &learned, &mut rng, &mut traced);
        let mut expected = Gradient::default();
        expected.shape_pick(&best, &[3.0, 2.0, 1.0], chosen);
        assert_eq!(traced, expected);
    }

    #[test]
    fn the_gradient_of_a_pick_matches_its_probability() {
        // ∂ log π / ∂θ by finite differences, θ the log-gamma of shape 1.
        let learned = [0.5, 4.0, 1.5];
        let best = [1u8, 0, 1];
        let probability = |theta: f32| {
            let mut log_gammas = [0.0; SHAPES];
            log_gammas[1] = theta;
            let w = PlayoutWeights::new([1.0; RULES], log_gammas).unwrap();
            let weights: Vec<f32> = best
                .iter()
                .zip(learned)
                .map(|(&b, l)| w.gammas[b as usize] * l)
                .collect();
            (
                f64::from(weights[2]) / weights.iter().map(|&x| f64::from(x)).sum::<f64>(),
                weights,
            )
        };
        let (_, weights) = probability(0.3);
        let mut g = Gradient::default();
        g.shape_pick(&best, &weights, 2);
        let h = 1e-3;
        let numeric =
            ((probability(0.3 + h).0).ln() - (probability(0.3 - h).0).ln()) / f64::from(2.0 * h);
        assert!(
            (g.shapes[1] - numeric).abs() < 1e-3,
            "{} {}",
            g.shapes[1],
            numeric
        );
    }
}
