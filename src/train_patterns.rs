//! `tengen train-patterns`: fitting the pattern gammas to game records, and measuring how well
//! they predict moves. An offline tool at the top of the crate, beside `bench` and `match_play`:
//! it reads SGF records (`sgf`) and describes moves with [`crate::patterns`]' features, and
//! writes the weights file that `patterns` embeds; nothing in the engine imports it.
//!
//! Every position of a training game is a competition among the legal moves (and pass) of the
//! player to move, won by the move played. Under the generalized Bradley–Terry model each
//! candidate's strength is the product of its features' gammas, and minorization–maximization
//! (Coulom 2007) raises the likelihood of the record at every step: for one feature group at a
//! time, each gamma becomes its wins divided by the sum, over the competitions it took part in,
//! of its teammates' strength over the total strength. A virtual win and a virtual loss against a
//! gamma of 1 keep rare features finite.
//!
//! Games are split by game, never by position, so a held-out figure measures games the weights
//! never saw. Everything is deterministic: the same records give the same weights file.

use crate::board::{Board, Color, Move};
use crate::game::PlayedMove;
use crate::patterns::features::{self, MoveFeatures, GROUPS, GROUP_COUNT, NONE};
use crate::patterns::Patterns;
use crate::rules::Rules;
use crate::sgf;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where Debian's `goban-original-games` puts its records.
pub const DEFAULT_DATA_DIR: &str = "/usr/share/goban";

/// A game record reduced to what training needs: the start position and the moves.
#[derive(Clone)]
pub struct TrainingGame {
    pub name: String,
    pub start: Board,
    pub moves: Vec<PlayedMove>,
}

/// The position before each move of `game`, with that move; stops at a move the board refuses.
pub fn for_each_position(game: &TrainingGame, mut f: impl FnMut(&Board, Color, Move)) {
    let mut board = game.start.clone();
    for m in &game.moves {
        match m.mv {
            Move::Pass => {
                f(&board, m.color, m.mv);
                board.pass();
            }
            Move::Play(p) => {
                if !board.is_legal(p, m.color) {
                    return;
                }
                f(&board, m.color, m.mv);
                board.play(p, m.color);
            }
        }
    }
}

/// Calls `f` with the features of each candidate of `color`: every legal stone, then the pass.
/// Returns the index of `played` among them, if it is one.
fn for_each_candidate(
    board: &Board,
    color: Color,
    played: Move,
    mut f: impl FnMut(MoveFeatures),
) -> Option<usize> {
    let mut index = None;
    let mut i = 0;
    for &p in board.empty_points() {
        if board.is_legal(p, color) {
            if played == Move::Play(p) {
                index = Some(i);
            }
            f(features::move_features(board, color, p));
            i += 1;
        }
    }
    if played == Move::Pass {
        index = Some(i);
    }
    f(features::pass_features(board));
    index
}

/// Reads one record: its start position (setup and handicap stones) and main-line moves.
pub fn game_from_sgf(name: &str, text: &str) -> Result<TrainingGame, sgf::SgfError> {
    let full = sgf::load(text, Rules::japanese(), None)?;
    let start = sgf::load(text, Rules::japanese(), Some(1))?;
    Ok(TrainingGame {
        name: name.to_string(),
        start: start.board().clone(),
        moves: full.moves().collect(),
    })
}

/// The records of a directory: files ending in `.sgf` or `.mgt`, in name order.
pub struct Corpus {
    pub games: Vec<TrainingGame>,
    /// Files the SGF reader refused, with its reason.
    pub skipped: Vec<(String, String)>,
}

pub fn read_corpus(dir: &Path) -> Result<Corpus, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {}", dir.display(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| x.eq_ignore_ascii_case("sgf") || x.eq_ignore_ascii_case("mgt"))
        })
        .collect();
    paths.sort();
    let mut corpus = Corpus {
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for path in paths {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                corpus.skipped.push((name, e.to_string()));
                continue;
            }
        };
        match game_from_sgf(&name, &text) {
            Ok(g) => corpus.games.push(g),
            Err(e) => corpus.skipped.push((name, e.0)),
        }
    }
    Ok(corpus)
}

/// How the fit runs.
#[derive(Copy, Clone, Debug)]
pub struct TrainConfig {
    /// Full MM sweeps over all feature groups.
    pub iterations: usize,
    /// A shape gets a weight of its own when it was played at least this often…
    pub min_shape_played: u32,
    /// …or offered as a candidate at least this often (so common bad shapes learn how bad they
    /// are); other shapes share the weight of rare shapes.
    pub min_shape_seen: u32,
    /// A diamond gets a weight when it was played at least this often.
    pub min_diamond_played: u32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            iterations: 20,
            min_shape_played: 3,
            min_shape_seen: 1000,
            min_diamond_played: 3,
        }
    }
}

/// A candidate in training form: per group the local index of its value, or `ABSENT`. Group 0 is
/// the 3×3 shape (index 0 the rare-shape bucket), group 1 the diamond, then [`GROUPS`].
type Team = [u16; TEAM];
const TEAM: usize = GROUP_COUNT + 2;
const ABSENT: u16 = u16::MAX;

/// The competitions: candidates with equal features merged, each with its multiplicity.
struct Dataset {
    teams: Vec<Team>,
    counts: Vec<u32>,
    /// `teams[ranges[j].0..ranges[j].1]` are the candidates of position j.
    ranges: Vec<(u32, u32)>,
    winners: Vec<Team>,
}

/// Table indices of the chosen shapes and diamonds.
struct Tables {
    shapes: HashMap<u32, u16>,
    diamonds: HashMap<u128, u16>,
}

fn team_of(f: &MoveFeatures, tables: &Tables) -> Team {
    let mut t = [ABSENT; TEAM];
    if let Some(s) = f.shape {
        t[0] = tables.shapes.get(&s).copied().unwrap_or(0);
        if let Some(&d) = f.diamonds.iter().rev().find_map(|k| tables.diamonds.get(k)) {
            t[1] = d;
        }
    }
    for (g, &v) in f.values.iter().enumerate() {
        if v != NONE {
            t[g + 2] = v as u16;
        }
    }
    t
}

/// The shapes that earn a weight of their own, in code order (index i + 1; 0 is the rare
/// bucket).
fn choose_shapes(games: &[TrainingGame], config: &TrainConfig) -> (Vec<u32>, Vec<u128>) {
    let mut counts: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut diamond_counts: HashMap<u128, u32> = HashMap::new();
    for game in games {
        for_each_position(game, |board, color, mv| {
            for_each_candidate(board, color, mv, |f| {
                if let Some(s) = f.shape {
                    counts.entry(s).or_default().1 += 1;
                }
            });
            if let Move::Play(p) = mv {
                counts
                    .entry(features::shape_code(board, color, p))
                    .or_default()
                    .0 += 1;
                for key in features::diamond_keys(board, color, p) {
                    *diamond_counts.entry(key).or_default() += 1;
                }
            }
        });
    }
    let mut kept: Vec<u32> = counts
        .into_iter()
        .filter(|&(_, (played, seen))| {
            played >= config.min_shape_played || seen >= config.min_shape_seen
        })
        .map(|(s, _)| s)
        .collect();
    kept.sort_unstable();
    // Local indices are u16 with one value reserved; keep the tables within that.
    kept.truncate(u16::MAX as usize - 2);
    let mut diamonds: Vec<u128> = diamond_counts
        .into_iter()
        .filter(|&(_, played)| played >= config.min_diamond_played)
        .map(|(k, _)| k)
        .collect();
    diamonds.sort_unstable();
    diamonds.truncate(u16::MAX as usize - 2);
    (kept, diamonds)
}

fn build_dataset(games: &[TrainingGame], tables: &Tables) -> Dataset {
    let mut data = Dataset {
        teams: Vec::new(),
        counts: Vec::new(),
        ranges: Vec::new(),
        winners: Vec::new(),
    };
    let mut scratch: Vec<Team> = Vec::new();
    for game in games {
        for_each_position(game, |board, color, mv| {
            scratch.clear();
            let played =
                for_each_candidate(board, color, mv, |f| scratch.push(team_of(&f, tables)));
            let Some(played) = played else {
                return;
            };
            data.winners.push(scratch[played]);
            scratch.sort_unstable();
            let start = data.teams.len() as u32;
            for t in &scratch {
                if data.teams.len() > start as usize && data.teams.last() == Some(t) {
                    *data.counts.last_mut().expect("a count per team") += 1;
                } else {
                    data.teams.push(*t);
                    data.counts.push(1);
                }
            }
            data.ranges.push((start, data.teams.len() as u32));
        });
    }
    data
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub positions: usize,
    pub shapes: usize,
    pub diamonds: usize,
    /// Mean log-likelihood of the training positions after each sweep.
    pub log_likelihood: Vec<f64>,
}

/// Fits gammas to `games`.
pub fn train(games: &[TrainingGame], config: &TrainConfig) -> (Patterns, TrainReport) {
    let (shapes, diamonds) = choose_shapes(games, config);
    let tables = Tables {
        shapes: shapes
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, (i + 1) as u16))
            .collect(),
        diamonds: diamonds
            .iter()
            .enumerate()
            .map(|(i, &d)| (d, i as u16))
            .collect(),
    };
    let data = build_dataset(games, &tables);
    log::info!(
        "pattern training: {} positions, {} distinct candidates, {} shapes, {} diamonds",
        data.ranges.len(),
        data.teams.len(),
        shapes.len(),
        diamonds.len()
    );

    let sizes: Vec<usize> = [shapes.len() + 1, diamonds.len()]
        .into_iter()
        .chain(GROUPS.iter().map(|&(_, n)| n))
        .collect();
    let mut gammas: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
    let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    for w in &data.winners {
        for (g, &v) in w.iter().enumerate() {
            if v != ABSENT {
                wins[g][v as usize] += 1.0;
            }
        }
    }

    let mut strengths: Vec<f64> = Vec::new();
    let mut report = TrainReport {
        positions: data.ranges.len(),
        shapes: shapes.len(),
        diamonds: diamonds.len(),
        log_likelihood: Vec::new(),
    };
    for sweep in 0..config.iterations {
        let mut ll = 0.0;
        for g in 0..TEAM {
            let mut denominators = vec![0.0f64; sizes[g]];
            ll = 0.0;
            for (j, &(a, b)) in data.ranges.iter().enumerate() {
                let (a, b) = (a as usize, b as usize);
                strengths.clear();
                let mut total = 0.0;
                for (t, &n) in data.teams[a..b].iter().zip(&data.counts[a..b]) {
                    let s = team_strength(t, &gammas);
                    strengths.push(s);
                    total += n as f64 * s;
                }
                ll += (team_strength(&data.winners[j], &gammas) / total).ln();
                for ((t, &n), &s) in data.teams[a..b]
                    .iter()
                    .zip(&data.counts[a..b])
                    .zip(&strengths)
                {
                    let v = t[g];
                    if v != ABSENT {
                        denominators[v as usize] += n as f64 * s / gammas[g][v as usize] / total;
                    }
                }
            }
            for (v, gamma) in gammas[g].iter_mut().enumerate() {
                // One virtual win and one virtual loss against a gamma of 1.
                *gamma = (wins[g][v] + 1.0) / (denominators[v] + 2.0 / (*gamma + 1.0));
            }
        }
        let mean = ll / data.ranges.len().max(1) as f64;
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
    for (i, &d) in diamonds.iter().enumerate() {
        patterns.set_diamond_gamma(d, gammas[1][i] as f32);
    }
    for g in 0..GROUP_COUNT {
        for (v, &gamma) in gammas[g + 2].iter().enumerate() {
            patterns.set_group_gamma(g, v as u8, gamma as f32);
        }
    }
    (patterns, report)
}

#[inline]
fn team_strength(t: &Team, gammas: &[Vec<f64>]) -> f64 {
    let mut s = 1.0;
    for (g, &v) in t.iter().enumerate() {
        if v != ABSENT {
            s *= gammas[g][v as usize];
        }
    }
    s
}

/// How well weights predict the moves of some games.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    pub positions: usize,
    /// Fraction of positions where the played move had the highest strength (ties shared).
    pub top1: f64,
    /// Mean natural log of the probability given to the played move.
    pub log_likelihood: f64,
    /// The same with every legal move equally likely.
    pub uniform_log_likelihood: f64,
}

/// Measures `patterns` on every position of `games`, through the same lookup the search uses.
pub fn evaluate(patterns: &Patterns, games: &[TrainingGame]) -> Evaluation {
    let mut e = Evaluation::default();
    let (mut top1, mut ll, mut uniform) = (0.0, 0.0, 0.0);
    let mut strengths: Vec<f32> = Vec::new();
    for game in games {
        for_each_position(game, |board, color, mv| {
            strengths.clear();
            let played =
                for_each_candidate(board, color, mv, |f| strengths.push(patterns.strength(&f)));
            let Some(played) = played else {
                return;
            };
            let total: f64 = strengths.iter().map(|&s| s as f64).sum();
            let best = strengths.iter().copied().fold(0.0f32, f32::max);
            let mine = strengths[played];
            if mine == best {
                let ties = strengths.iter().filter(|&&s| s == best).count();
                top1 += 1.0 / ties as f64;
            }
            ll += (mine as f64 / total).ln();
            uniform -= (strengths.len() as f64).ln();
            e.positions += 1;
        });
    }
    let n = e.positions.max(1) as f64;
    e.top1 = top1 / n;
    e.log_likelihood = ll / n;
    e.uniform_log_likelihood = uniform / n;
    e
}

/// `tengen train-patterns`: what to read and where to write.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub data_dir: PathBuf,
    /// The weights file to write; `None` only reports.
    pub out: Option<PathBuf>,
    /// Every `hold_out_every`-th game (in file-name order) is held out of training.
    pub hold_out_every: usize,
    pub train: TrainConfig,
}

/// Reads the records, trains on the training games, writes the weights and reports held-out
/// figures to `report`.
pub fn run(config: &RunConfig, report: &mut impl Write) -> Result<Evaluation, String> {
    let started = Instant::now();
    if config.hold_out_every < 2 {
        return Err("--hold-out-every must be at least 2".to_string());
    }
    let corpus = read_corpus(&config.data_dir)?;
    for (name, why) in &corpus.skipped {
        log::warn!("skipped {}: {}", name, why);
    }
    if corpus.games.is_empty() {
        return Err(format!(
            "no readable .sgf or .mgt records in {} (Debian: apt-get install goban-original-games)",
            config.data_dir.display()
        ));
    }
    let (mut training, mut held_out) = (Vec::new(), Vec::new());
    for (i, g) in corpus.games.into_iter().enumerate() {
        if i % config.hold_out_every == config.hold_out_every - 1 {
            held_out.push(g);
        } else {
            training.push(g);
        }
    }
    let (patterns, fit) = train(&training, &config.train);
    let trained_at = started.elapsed();
    let evaluating = Instant::now();
    let eval = evaluate(&patterns, &held_out);
    let per_position = evaluating.elapsed().as_secs_f64() / eval.positions.max(1) as f64;
    let train_eval_ll = fit.log_likelihood.last().copied().unwrap_or(f64::NAN);

    let io = |e: std::io::Error| e.to_string();
    let summary = format!(
        "records: {} read from {}, {} skipped; training games {}, held-out games {} (1 in {})\n\
         training: {} positions, {} 3×3 shapes with their own weight, {} diamonds, \
         {} MM sweeps, log-likelihood {:.4}\n\
         held-out: {} positions, top-1 {:.1}%, mean log-likelihood {:.4} (uniform {:.4})",
        training.len() + held_out.len(),
        config.data_dir.display(),
        corpus.skipped.len(),
        training.len(),
        held_out.len(),
        config.hold_out_every,
        fit.positions,
        fit.shapes,
        fit.diamonds,
        config.train.iterations,
        train_eval_ll,
        eval.positions,
        100.0 * eval.top1,
        eval.log_likelihood,
        eval.uniform_log_likelihood,
    );
    writeln!(report, "{}", summary).map_err(io)?;
    writeln!(
        report,
        "time: {:.1} s to read and train, {:.1} s in all; the held-out evaluation took {:.0} µs \
         per position (every legal move's features and gamma)",
        trained_at.as_secs_f64(),
        started.elapsed().as_secs_f64(),
        per_position * 1e6
    )
    .map_err(io)?;
    if let Some(out) = &config.out {
        let header = format!(
            "tengen move-pattern gammas (generalized Bradley-Terry model, fitted by \
             minorization-maximization).\n\
             Rebuild from the repository root:\n  \
             cargo run --release -- train-patterns --out src/patterns/weights.txt\n\
             with Debian's goban-original-games installed.\n\
             {}\n\
             Lines: GROUP VALUE GAMMA (see src/patterns/features.rs), shape DIGITS GAMMA with one\n\
             digit per neighbour (rows from the top, left to right, centre skipped): 0 empty,\n\
             1 edge, 2/3/4 own stone with 1/2/3+ liberties, 5/6/7 opponent stone with 1/2/3+\n\
             liberties; shape rare: shapes without a line of their own. diamond DIGITS GAMMA:\n\
             the points within distance 2, 3 or 4 (12, 24 or 40 digits) ordered by distance, then\n\
             row, then column: 0 empty, 1 edge, 2 own stone, 3 opponent stone.",
            summary
        );
        std::fs::write(out, patterns.to_text(&header))
            .map_err(|e| format!("cannot write {}: {}", out.display(), e))?;
        writeln!(report, "weights written to {}", out.display()).map_err(io)?;
    }
    Ok(eval)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;
    use crate::patterns::features::LAST;

    /// Games on 9×9 whose moves follow a hidden rule: a point next to the last move is 30 times
    /// as likely as any other legal point.
    fn synthetic_games(n: usize, seed: u64) -> Vec<TrainingGame> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..n)
            .map(|i| {
                let start = Board::new(9).unwrap();
                let mut b = start.clone();
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
                    start,
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
