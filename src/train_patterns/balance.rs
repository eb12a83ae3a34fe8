//! `tengen train-playouts`: simulation balancing (Silver & Tesauro 2009; Huang, Coulom & Lin
//! 2010) of the heavy playout policy's [`PlayoutWeights`].
//!
//! A playout policy is good for the search when its playouts' mean result from a position is
//! the position's value, not when its moves are strong. So the weights are fitted to values:
//! the positions after moves 8, 12, …, 40 of 9×9 game records, each valued for Black by a deep
//! search of the engine itself with the default policy, V*(s) (the search's win rate of its
//! best move, on one seeded thread: reproducible, and cached in a file since it is the costly
//! part). Each iteration takes a minibatch of training positions and, for each, measures the
//! policy's value V̄ by M playouts and the gradient of that value by N more,
//! g = mean((z − V̄)·ψ), where z is the playout's result for Black (its area count against the
//! komi, as the search counts a playout) and ψ the sum of ∇θ log π over the playout's random
//! decisions ([`Gradient`]); then θ += α (V* − V̄) g, averaged over the batch, which descends
//! the squared error (V* − V̄)². θ are the rules' logits (kept within ±[`MAX_LOGIT`], so that
//! every rule stays trainable) and the shapes' log-gammas.
//!
//! Games are split by game (one in `hold_out_every` held out, in file-name order), and the
//! mean squared error is reported on both sets, measured with the same seeds every time.
//! Everything is deterministic for a seed: every playout has its own seed, and the parallel
//! results are summed in order.

use super::corpus::{read_corpus, TrainingGame};
use crate::board::{Board, Color};
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::score::settled_area;
use crate::search::playout::play_out;
use crate::search::playout_weights::{Gradient, NoTrace, PlayoutWeights, Trace, RULES, RULE_NAMES};
use crate::search::policy::weighted_move;
use crate::search::shapes::{PATTERNS, SHAPES};
use crate::search::{Config, Player};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The largest rule logit while training: a probability of 0.9991 or 0.0009, so that no rule
/// becomes certain (its gradient would vanish) and the written weights stay within reach.
pub const MAX_LOGIT: f64 = 7.0;

/// The moves after which a game's positions are taken: the opening is left to the search's
/// own rules, the end to counting.
pub const POSITION_MOVES: std::ops::RangeInclusive<usize> = 8..=40;

/// Every this many moves within [`POSITION_MOVES`].
pub const POSITION_STRIDE: usize = 4;

/// `tengen train-playouts`: what to read, how to train, where to write.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    /// Directory of 9×9 SGF records.
    pub games: PathBuf,
    /// The cache of the search values: read when it holds values at `target_playouts`,
    /// completed and written back otherwise.
    pub targets: PathBuf,
    /// Playouts of the search that values a position.
    pub target_playouts: u64,
    /// Komi of the games (the records' own is not read: self-play games share one).
    pub komi: HalfPoints,
    /// One game in this many is held out.
    pub hold_out_every: usize,
    pub iterations: usize,
    /// Positions per iteration.
    pub batch: usize,
    /// M: playouts that measure V̄ of a position.
    pub value_playouts: usize,
    /// N: playouts that measure the gradient.
    pub gradient_playouts: usize,
    /// α.
    pub step: f64,
    /// Playouts per position when measuring the error.
    pub eval_playouts: usize,
    /// Training positions the error is measured on, at most (every held-out one is).
    pub eval_positions: usize,
    /// Measure the error every this many iterations.
    pub report_every: usize,
    pub seed: u64,
    /// Where to write the trained weights; `None` only reports.
    pub out: Option<PathBuf>,
}

impl BalanceConfig {
    /// The command line that reproduces this run, for the weights file's header.
    pub fn command_line(&self) -> String {
        let mut s = format!(
            "tengen train-playouts --games {} --targets {} --target-playouts {} --komi {} \
             --hold-out-every {} --iterations {} --batch {} --value-playouts {} \
             --gradient-playouts {} --step {} --eval-playouts {} --eval-positions {} \
             --report-every {} --seed {}",
            self.games.display(),
            self.targets.display(),
            self.target_playouts,
            self.komi.as_f64(),
            self.hold_out_every,
            self.iterations,
            self.batch,
            self.value_playouts,
            self.gradient_playouts,
            self.step,
            self.eval_playouts,
            self.eval_positions,
            self.report_every,
            self.seed
        );
        if let Some(out) = &self.out {
            s.push_str(&format!(" --out {}", out.display()));
        }
        s
    }
}

/// A training position: the game it comes from, the moves played, whose turn, and Black's
/// value by the search.
#[derive(Clone, Debug)]
pub struct Position {
    pub game: String,
    pub moves: usize,
    pub board: Board,
    pub to_move: Color,
    pub target: f64,
}

/// The positions of one game (target not yet known: 0), as a [`Game`] for the search too.
fn game_positions(g: &TrainingGame, komi: HalfPoints) -> Vec<(Position, Game)> {
    let mut out = Vec::new();
    // Self-play games start from an empty board; a record with setup stones is not one.
    if g.size != 9 || !g.setup.is_empty() {
        return out;
    }
    let Some(mut game) = Game::new(9, Rules::chinese()) else {
        return out;
    };
    game.set_komi(komi);
    for (i, m) in g.moves.iter().enumerate() {
        if game.play(m.color, m.mv).is_err() {
            break;
        }
        let moves = i + 1;
        if POSITION_MOVES.contains(&moves) && moves % POSITION_STRIDE == 0 {
            out.push((
                Position {
                    game: g.name.clone(),
                    moves,
                    board: game.board().clone(),
                    to_move: game.to_move(),
                    target: 0.0,
                },
                game.clone(),
            ));
        }
    }
    out
}

/// A seed from several numbers (SplitMix64 steps).
fn mix(parts: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &p in parts {
        h = (h ^ p).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
    }
    h
}

/// Black's result of one playout from `p` with `w` (1 a win, ½ a draw, 0 a loss), counted as
/// the search counts a playout under area scoring; `trace` sees the decisions.
pub fn playout_result<T: Trace>(
    p: &Position,
    w: &PlayoutWeights,
    komi: HalfPoints,
    seed: u64,
    trace: &mut T,
) -> f64 {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut board = p.board.clone();
    play_out(
        &mut board,
        p.to_move,
        &mut rng,
        |b, c, r| weighted_move(b, c, r, w, trace),
        true,
        |_, _, _| {},
    );
    let margin = HalfPoints::points(settled_area(&board, |_, _| {})) - komi;
    match margin.0.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// V̄: Black's mean result over `playouts` playouts, seeded from `seed`.
pub fn mean_result(
    p: &Position,
    w: &PlayoutWeights,
    komi: HalfPoints,
    playouts: usize,
    seed: u64,
) -> f64 {
    let sum: f64 = (0..playouts)
        .map(|i| playout_result(p, w, komi, mix(&[seed, i as u64]), &mut NoTrace))
        .sum();
    sum / playouts.max(1) as f64
}

/// One position's V̄ (from `m` playouts) and g = mean((z − V̄)·ψ) (from `n` more).
pub fn value_and_gradient(
    p: &Position,
    w: &PlayoutWeights,
    komi: HalfPoints,
    m: usize,
    n: usize,
    seed: u64,
) -> (f64, Gradient) {
    let v = mean_result(p, w, komi, m, mix(&[seed, 0]));
    let mut g = Gradient::default();
    for i in 0..n {
        let mut psi = Gradient::default();
        let z = playout_result(p, w, komi, mix(&[seed, 1, i as u64]), &mut psi);
        g.add_scaled(&psi, (z - v) / n.max(1) as f64);
    }
    (v, g)
}

/// The trainable parameters: rule logits and shape log-gammas.
#[derive(Clone, Debug, PartialEq)]
pub struct Theta {
    pub logits: [f64; RULES],
    pub log_gammas: [f64; SHAPES],
}

impl Theta {
    /// The parameters of `w`, the logits brought within ±[`MAX_LOGIT`].
    pub fn of(w: &PlayoutWeights) -> Theta {
        Theta {
            logits: w.rule_probabilities().map(|p| {
                let p = f64::from(p);
                (p / (1.0 - p)).ln().clamp(-MAX_LOGIT, MAX_LOGIT)
            }),
            log_gammas: w.log_gammas().map(f64::from),
        }
    }

    /// The weights these parameters give.
    pub fn weights(&self) -> PlayoutWeights {
        let rules = self.logits.map(|t| (1.0 / (1.0 + (-t).exp())) as f32);
        PlayoutWeights::new(rules, self.log_gammas.map(|g| g as f32))
            .unwrap_or_else(|e| unreachable!("clamped parameters: {}", e))
    }

    /// θ += scale·g, kept within bounds.
    pub fn step(&mut self, g: &Gradient, scale: f64) {
        for (t, d) in self.logits.iter_mut().zip(&g.rules) {
            *t = (*t + scale * d).clamp(-MAX_LOGIT, MAX_LOGIT);
        }
        let bound = f64::from(crate::search::playout_weights::MAX_LOG_GAMMA);
        for (t, d) in self.log_gammas.iter_mut().zip(&g.shapes) {
            *t = (*t + scale * d).clamp(-bound, bound);
        }
    }
}

/// One iteration of simulation balancing on `batch` (indices into `positions`): the new
/// parameters.
pub fn balance_step(
    theta: &Theta,
    positions: &[Position],
    batch: &[usize],
    config: &BalanceConfig,
    seed: u64,
) -> Theta {
    let w = theta.weights();
    // Seeded by the batch slot too: a position drawn twice is measured twice.
    let results: Vec<(f64, Gradient)> = batch
        .par_iter()
        .enumerate()
        .map(|(slot, &i)| {
            value_and_gradient(
                &positions[i],
                &w,
                config.komi,
                config.value_playouts,
                config.gradient_playouts,
                mix(&[seed, slot as u64, i as u64]),
            )
        })
        .collect();
    let mut total = Gradient::default();
    for (&i, (v, g)) in batch.iter().zip(&results) {
        total.add_scaled(g, positions[i].target - v);
    }
    let mut next = theta.clone();
    next.step(&total, config.step / batch.len().max(1) as f64);
    next
}

/// The mean squared error (V* − V̄)² over `positions` with `w`, V̄ from `playouts` playouts
/// seeded by the position (the same seeds at every measurement).
pub fn mean_squared_error(
    positions: &[Position],
    w: &PlayoutWeights,
    komi: HalfPoints,
    playouts: usize,
    seed: u64,
) -> f64 {
    let errors: Vec<f64> = positions
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let v = mean_result(p, w, komi, playouts, mix(&[seed, 7, i as u64]));
            (p.target - v).powi(2)
        })
        .collect();
    errors.iter().sum::<f64>() / positions.len().max(1) as f64
}

/// Reads the cached values: `(game, moves) → value` when the file is one of `playouts`.
fn read_targets(config: &BalanceConfig) -> Result<Vec<(String, usize, f64)>, String> {
    let path = &config.targets;
    let bytes = match crate::files::read(path, 1 << 26) {
        Ok(b) => b,
        Err(_) if !path.exists() => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}", e)),
    };
    let text = String::from_utf8(bytes).map_err(|e| format!("{}: {}", path.display(), e))?;
    let mut out = Vec::new();
    let mut playouts = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = || {
            format!(
                "{} line {}: expected GAME MOVES VALUE",
                path.display(),
                n + 1
            )
        };
        if let Some(p) = line.strip_prefix("playouts ") {
            playouts = Some(p.trim().parse::<u64>().map_err(|_| fail())?);
            continue;
        }
        // The game's name may hold spaces: the last two words are the numbers.
        let mut words = line.rsplitn(3, char::is_whitespace);
        let (Some(value), Some(moves), Some(game)) = (words.next(), words.next(), words.next())
        else {
            return Err(fail());
        };
        let value: f64 = value.parse().map_err(|_| fail())?;
        let moves: usize = moves.parse().map_err(|_| fail())?;
        if !(0.0..=1.0).contains(&value) {
            return Err(fail());
        }
        out.push((game.trim_end().to_string(), moves, value));
    }
    // Values of another search strength are not these targets.
    Ok(if playouts == Some(config.target_playouts) {
        out
    } else {
        Vec::new()
    })
}

/// Values every position by the search (from the cache where it has them) and writes the
/// cache back when any was missing.
fn value_positions(
    found: Vec<(Position, Game)>,
    config: &BalanceConfig,
    report: &mut impl Write,
) -> Result<Vec<Position>, String> {
    let cached = read_targets(config)?;
    let lookup = |p: &Position| {
        cached
            .iter()
            .find(|(g, m, _)| *g == p.game && *m == p.moves)
            .map(|&(_, _, v)| v)
    };
    let missing = found.iter().filter(|(p, _)| lookup(p).is_none()).count();
    if missing > 0 {
        writeln!(
            report,
            "valuing {} positions by a search of {} playouts each",
            missing, config.target_playouts
        )
        .map_err(|e| e.to_string())?;
    }
    let search = Config {
        threads: 1,
        playouts: Some(config.target_playouts),
        resign: None,
        max_memory_mb: 256,
        score_weight: 0.0,
        ..Config::default()
    };
    let positions: Vec<Position> = found
        .into_par_iter()
        .map_init(
            || Player::new(search.clone()),
            |player, (mut p, game)| {
                p.target = lookup(&p).unwrap_or_else(|| {
                    player.forget();
                    player.config_mut().seed =
                        Some(mix(&[super::corpus::game_hash(&p.game), p.moves as u64]));
                    let v = player
                        .analyse(&game, p.to_move, Some(config.target_playouts), None)
                        .value;
                    let black = if p.to_move == Color::Black {
                        v
                    } else {
                        1.0 - v
                    };
                    (black * 1e4).round() / 1e4
                });
                p
            },
        )
        .collect();
    if missing > 0 {
        let mut text = format!(
            "# tengen train-playouts: Black's value of each position (GAME MOVES VALUE), the \
             win rate of a\n# one-thread seeded search with the default playout weights.\n\
             playouts {}\n",
            config.target_playouts
        );
        for p in &positions {
            text.push_str(&format!("{} {} {}\n", p.game, p.moves, p.target));
        }
        crate::files::write(&config.targets, text.as_bytes())
            .map_err(|e| format!("cannot write {}", e))?;
    }
    Ok(positions)
}

/// The weights on one line: each rule's probability, each shape's log-gamma.
fn weights_line(w: &PlayoutWeights) -> String {
    let rules = RULE_NAMES
        .iter()
        .zip(w.rule_probabilities())
        .map(|((_, name), p)| format!("{} {:.3}", name, p));
    let shapes = PATTERNS
        .iter()
        .zip(w.log_gammas())
        .map(|((_, name), g)| format!("shape.{} {:.2}", name, g));
    rules.chain(shapes).collect::<Vec<_>>().join(", ")
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct BalanceReport {
    /// (training, held-out) mean squared error of the starting weights.
    pub before: (f64, f64),
    /// The same for the trained weights.
    pub after: (f64, f64),
}

/// Reads the games, values their positions, trains from `start` and writes the weights; the
/// figures go to `report`.
pub fn run_balance(
    config: &BalanceConfig,
    start: &PlayoutWeights,
    report: &mut impl Write,
) -> Result<BalanceReport, String> {
    let started = Instant::now();
    let io = |e: std::io::Error| e.to_string();
    if config.hold_out_every < 2 {
        return Err("--hold-out-every must be at least 2".to_string());
    }
    if config.batch == 0 || config.value_playouts == 0 || config.eval_playouts == 0 {
        return Err("--batch, --value-playouts and --eval-playouts must be at least 1".into());
    }
    if let Some(out) = &config.out {
        crate::files::check_writable(out).map_err(|e| format!("cannot write {}", e))?;
    }
    let corpus = read_corpus(&config.games)?;
    for (name, why) in &corpus.skipped {
        log::warn!("skipped {}: {}", name, why);
    }
    let mut training = Vec::new();
    let mut held_out = Vec::new();
    for (i, g) in corpus.games.iter().enumerate() {
        let found = game_positions(g, config.komi);
        if i % config.hold_out_every == config.hold_out_every - 1 {
            held_out.extend(found);
        } else {
            training.extend(found);
        }
    }
    if training.is_empty() || held_out.is_empty() {
        return Err(format!(
            "too few 9×9 games of at least {} moves in {} to train and hold out",
            POSITION_MOVES.start(),
            config.games.display()
        ));
    }
    let (n_train, n_held) = (training.len(), held_out.len());
    training.extend(held_out);
    let mut positions = value_positions(training, config, report)?;
    let held_out = positions.split_off(n_train);
    let training = positions;
    // The training positions the error is measured on: evenly spread.
    let every = training.len().div_ceil(config.eval_positions.max(1));
    let eval: Vec<Position> = training.iter().step_by(every).cloned().collect();
    writeln!(
        report,
        "games: {} read from {} ({} skipped); positions: {} training, {} held out; values \
         ready after {:.0} s",
        corpus.games.len(),
        config.games.display(),
        corpus.skipped.len(),
        n_train,
        n_held,
        started.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    let measure = |w: &PlayoutWeights| {
        let m = |set: &[Position]| {
            mean_squared_error(set, w, config.komi, config.eval_playouts, config.seed)
        };
        (m(&eval), m(&held_out))
    };
    let before = measure(start);
    writeln!(
        report,
        "start: MSE {:.4} on {} training positions, {:.4} held out ({} playouts each)",
        before.0,
        eval.len(),
        before.1,
        config.eval_playouts
    )
    .map_err(io)?;
    let mut theta = Theta::of(start);
    let mut rng = fastrand::Rng::with_seed(config.seed);
    let mut after = before;
    for it in 1..=config.iterations {
        let batch: Vec<usize> = (0..config.batch)
            .map(|_| rng.usize(..training.len()))
            .collect();
        theta = balance_step(
            &theta,
            &training,
            &batch,
            config,
            mix(&[config.seed, it as u64]),
        );
        if it % config.report_every.max(1) == 0 || it == config.iterations {
            after = measure(&theta.weights());
            writeln!(
                report,
                "iteration {}: MSE {:.4} training, {:.4} held out ({:.0} s)",
                it,
                after.0,
                after.1,
                started.elapsed().as_secs_f64()
            )
            .map_err(io)?;
        }
    }
    let trained = theta.weights();
    let summary = format!(
        "MSE (V* − V̄)², training / held out: {:.4} / {:.4} with the starting weights, \
         {:.4} / {:.4} trained",
        before.0, before.1, after.0, after.1
    );
    writeln!(report, "{}", summary).map_err(io)?;
    writeln!(report, "trained: {}", weights_line(&trained)).map_err(io)?;
    if let Some(out) = &config.out {
        let header = format!(
            "tengen's heavy playout weights, trained by simulation balancing from the positions\n\
             after moves 8, 12, ..., 40 of the games in {}, built from the repository root with\n  \
             {}\n{}\n{} training positions, {} held out.",
            config.games.display(),
            config.command_line(),
            summary,
            n_train,
            n_held
        );
        crate::files::write(out, trained.to_text(&header).as_bytes())
            .map_err(|e| format!("cannot write {}", e))?;
        writeln!(report, "weights written to {}", out.display()).map_err(io)?;
    }
    Ok(BalanceReport { before, after })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::playout_weights::Rule;

    fn config() -> BalanceConfig {
        BalanceConfig {
            games: PathBuf::new(),
            targets: PathBuf::new(),
            target_playouts: 0,
            komi: HalfPoints(15),
            hold_out_every: 5,
            iterations: 0,
            batch: 16,
            value_playouts: 32,
            gradient_playouts: 32,
            step: 2.0,
            eval_playouts: 200,
            eval_positions: 1,
            report_every: 1,
            seed: 3,
            out: None,
        }
    }

    /// White to move in the big race of [`crate::search::policy::tests::BIG_RACE`], which
    /// decides who wins: the race rule's firing decides the playouts' result.
    fn big_race() -> Position {
        let game =
            Game::from_diagram(&crate::search::policy::tests::BIG_RACE, Rules::chinese()).unwrap();
        Position {
            game: "big race".to_string(),
            moves: 0,
            board: game.board().clone(),
            to_move: Color::White,
            target: 0.0,
        }
    }

    #[test]
    fn balancing_moves_a_rule_towards_the_value_it_decides() {
        let c = config();
        let mut p = big_race();
        let defaults = PlayoutWeights::default();
        // The race left to a coin's toss.
        let mut theta = Theta::of(&defaults);
        theta.logits[Rule::BigRace as usize] = 0.0;
        let v_default = mean_result(&p, &defaults, c.komi, 400, 1);
        let v_coin = mean_result(&p, &theta.weights(), c.komi, 400, 1);
        assert!((v_default - v_coin).abs() > 0.1, "{v_default} {v_coin}");
        // The target is the value of the rule played always: the steps must raise its logit
        // and bring the playouts' value nearer.
        p.target = v_default;
        let positions = vec![p];
        let error = |t: &Theta| mean_squared_error(&positions, &t.weights(), c.komi, 400, 5);
        let before = error(&theta);
        for it in 0..10 {
            theta = balance_step(&theta, &positions, &[0; 16], &c, it);
        }
        let logit = theta.logits[Rule::BigRace as usize];
        assert!(logit > 0.2, "big race logit {logit}");
        let after = error(&theta);
        assert!(after < before, "MSE {before} -> {after}");
    }

    #[test]
    fn parameters_survive_the_round_trip_through_weights() {
        let w = PlayoutWeights::default();
        let t = Theta::of(&w);
        let back = t.weights();
        assert_eq!(back.probability(Rule::Fight), 0.9);
        assert_eq!(back.log_gammas(), w.log_gammas());
        // Certain rules are brought within reach of training.
        assert_eq!(t.logits[Rule::Capture as usize], MAX_LOGIT);
        assert!(back.probability(Rule::Capture) < 1.0);
    }

    #[test]
    fn a_run_is_deterministic_for_a_seed() {
        let c = config();
        let mut p = big_race();
        p.target = 0.5;
        let positions = vec![p.clone(), p];
        let theta = Theta::of(&PlayoutWeights::default());
        let a = balance_step(&theta, &positions, &[0, 1, 1], &c, 9);
        let b = balance_step(&theta, &positions, &[0, 1, 1], &c, 9);
        assert_eq!(a, b);
    }
}
