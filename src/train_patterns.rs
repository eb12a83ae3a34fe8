//! `tengen train-patterns`: fitting the pattern gammas to game records, and measuring how well
//! they predict moves. An offline tool at the top of the crate, beside `bench` and `match_play`:
//! it reads SGF records (`sgf`) and the one-game-a-line files of the TYGEM 9-dan dataset,
//! describes moves with [`crate::patterns`]' features, and writes the weights file that
//! `patterns` embeds; nothing in the engine imports it.
//!
//! Every position of a training game is a competition among the legal moves (and pass) of the
//! player to move, won by the move played. Under the generalized Bradley–Terry model each
//! candidate's strength is the product of its features' gammas, and minorization–maximization
//! (Coulom 2007) raises the likelihood of the record at every step: for one feature group at a
//! time, each gamma becomes its wins divided by the sum, over the competitions it took part in,
//! of its teammates' strength over the total strength. A virtual win and a virtual loss against a
//! gamma of 1 keep rare features finite.
//!
//! The gammas are fitted on every `position_stride`-th position of each training game (starting
//! at a point set by the game's hash), so that a large corpus fits in memory and time:
//! neighbouring positions of one game teach nearly the same thing, and many games show more
//! openings and shapes than a few games' every move. The dictionaries (which 3×3 shapes and
//! which spatial patterns get a gamma of their own) are counted over the same positions, so that
//! every gamma rests on wins it is fitted on.
//!
//! Games are split by game, never by position, so a held-out figure measures games the weights
//! never saw. Everything is deterministic: the same records give the same weights file (the
//! parallel sums are taken over fixed chunks, added in order).

use crate::board::{Board, Color, Move, Point};
use crate::game::PlayedMove;
use crate::patterns::features::{
    self, MoveFeatures, GROUPS, GROUP_COUNT, MIN_SPATIAL_RADIUS, NONE, SPATIAL_RADII,
};
use crate::patterns::Patterns;
use crate::rules::Rules;
use crate::sgf;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where Debian's `goban-original-games` puts its records.
pub const DEFAULT_DATA_DIR: &str = "/usr/share/goban";

/// The commit of <https://github.com/yenw/computer-go-dataset> whose TYGEM games built the
/// committed weights.
pub const TYGEM_COMMIT: &str = "d40334f8feba3115ef22817b981d40784a8c9758";

/// A game record reduced to what training needs: the start position and the moves.
#[derive(Clone, Debug)]
pub struct TrainingGame {
    pub name: String,
    /// Board side, a valid one (the readers check it).
    pub size: usize,
    /// Handicap and setup stones of the start position.
    pub setup: Vec<(Point, Color)>,
    pub moves: Vec<PlayedMove>,
}

impl TrainingGame {
    /// The start position.
    pub fn start(&self) -> Board {
        let mut b = Board::new(self.size).unwrap_or_else(|| unreachable!("a checked size"));
        for &(p, c) in &self.setup {
            b.set_stone(p, c);
        }
        b
    }
}

/// The position before each move of `game`, with that move and its index; stops at a move the
/// board refuses.
pub fn for_each_position(game: &TrainingGame, mut f: impl FnMut(usize, &Board, Color, Move)) {
    let mut board = game.start();
    for (i, m) in game.moves.iter().enumerate() {
        match m.mv {
            Move::Pass => {
                f(i, &board, m.color, m.mv);
                board.pass();
            }
            Move::Play(p) => {
                if !board.is_legal(p, m.color) {
                    return;
                }
                f(i, &board, m.color, m.mv);
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
    let b = start.board();
    Ok(TrainingGame {
        name: name.to_string(),
        size: b.size(),
        setup: b
            .points()
            .filter_map(|p| b.color(p).map(|c| (p, c)))
            .collect(),
        moves: full.moves().collect(),
    })
}

/// A piece of a refused line, quoted printably for a message.
fn quoted(s: &str) -> String {
    format!("'{}'", crate::sgf::printable(s, 24))
}

/// Reads one line of the TYGEM 9-dan dataset (`TYGEM/Kifu/YYYY-MM` in the repository, unzipped):
/// the game's id (digits), a tab, then the moves as SGF nodes, `;B[pd];W[dp];…`, Black first and
/// alternating; `B[]` (or `B[tt]`) is a pass. The games are even 19×19 games between 9-dan
/// players with no setup, handicap, comments or result in the line (the dataset's index has
/// players and results). A line that is not such a game, or holds an illegal move, is refused
/// with the reason.
pub fn game_from_tygem_line(line: &str) -> Result<TrainingGame, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (id, record) = line
        .split_once('\t')
        .ok_or_else(|| "no tab between the game id and the moves".to_string())?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!("bad game id {}", quoted(id)));
    }
    let record = record.trim_end();
    let nodes = record
        .strip_prefix(';')
        .ok_or_else(|| format!("game {}: the moves do not start with ';'", id))?;
    if nodes.is_empty() {
        return Err(format!("game {}: no moves", id));
    }
    let mut board = Board::new(19).unwrap_or_else(|| unreachable!("19 is a board size"));
    let mut moves = Vec::new();
    let mut to_move = Color::Black;
    for (i, node) in nodes.split(';').enumerate() {
        let bad = |why: &str| format!("game {}: move {} {}: {}", id, i + 1, quoted(node), why);
        let color = match node.as_bytes().first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => return Err(bad("not B[..] or W[..]")),
        };
        if color != to_move {
            return Err(bad("out of turn"));
        }
        // The first byte is ASCII, so byte 1 starts a character.
        let coords = node[1..]
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .ok_or_else(|| bad("not B[..] or W[..]"))?;
        let mv = match coords.as_bytes() {
            [] | b"tt" => Move::Pass,
            &[x, y] if (b'a'..=b's').contains(&x) && (b'a'..=b's').contains(&y) => {
                Move::Play(board.point((x - b'a') as usize, (y - b'a') as usize))
            }
            _ => return Err(bad("not a point of the 19×19 board")),
        };
        match mv {
            Move::Play(p) => {
                if !board.is_legal(p, color) {
                    return Err(bad("illegal move"));
                }
                board.play(p, color);
            }
            Move::Pass => board.pass(),
        }
        moves.push(PlayedMove { color, mv });
        to_move = color.opponent();
    }
    Ok(TrainingGame {
        name: id.to_string(),
        size: 19,
        setup: Vec::new(),
        moves,
    })
}

/// Games read, and the records or lines refused with their reasons.
pub struct Corpus {
    pub games: Vec<TrainingGame>,
    /// Files (or `file:line`s) refused, with the reason.
    pub skipped: Vec<(String, String)>,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// The records of a directory: files ending in `.sgf` or `.mgt`, in name order.
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
        let name = file_name(&path);
        // As `loadsgf` reads a record: a regular file of a record's size.
        let text = match crate::sgf::read_file(&path) {
            Ok(text) => text,
            Err(e) => {
                corpus.skipped.push((name, e));
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

/// The TYGEM files named: each path a file, or a directory whose regular files (not hidden, not
/// `.zip`) are read in name order.
fn tygem_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
        let mut inside: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = file_name(p);
                p.is_file()
                    && !name.starts_with('.')
                    && !name.to_ascii_lowercase().ends_with(".zip")
            })
            .collect();
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// Reads TYGEM files (see [`game_from_tygem_line`]); empty lines are passed over.
pub fn read_tygem(paths: &[PathBuf]) -> Result<Corpus, String> {
    let files = tygem_files(paths)?;
    let parts: Vec<Result<Corpus, String>> = files
        .par_iter()
        .map(|path| {
            // Any size (a month of games is one file), but only a regular file: a pipe or a
            // device named here would block or never end.
            let bytes =
                crate::files::read(path, u64::MAX).map_err(|e| format!("cannot read {}", e))?;
            let text = String::from_utf8_lossy(&bytes);
            let mut part = Corpus {
                games: Vec::new(),
                skipped: Vec::new(),
            };
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match game_from_tygem_line(line) {
                    Ok(g) => part.games.push(g),
                    Err(e) => part
                        .skipped
                        .push((format!("{}:{}", path.display(), i + 1), e)),
                }
            }
            Ok(part)
        })
        .collect();
    let mut corpus = Corpus {
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for part in parts {
        let part = part?;
        corpus.games.extend(part.games);
        corpus.skipped.extend(part.skipped);
    }
    Ok(corpus)
}

/// A fixed hash of a game's name: which side of the split it falls on, and where its sampled
/// positions start.
pub fn game_hash(name: &str) -> u64 {
    // FNV-1a, then a SplitMix64 finaliser to spread the bits.
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Splits games by the hash of their names: a game is held out when its hash is a multiple of
/// `hold_out_every`. Each side is ordered by hash (a sample spread evenly over the files) and cut
/// to `max_training` and `max_held_out` games.
pub fn split_by_hash(
    games: Vec<TrainingGame>,
    hold_out_every: usize,
    max_training: usize,
    max_held_out: usize,
) -> (Vec<TrainingGame>, Vec<TrainingGame>) {
    let every = hold_out_every.max(1) as u64;
    let mut keyed: Vec<(u64, usize, TrainingGame)> = games
        .into_iter()
        .enumerate()
        .map(|(i, g)| (game_hash(&g.name), i, g))
        .collect();
    keyed.sort_by_key(|&(h, i, _)| (h, i));
    let (mut training, mut held_out) = (Vec::new(), Vec::new());
    for (h, _, g) in keyed {
        if h.is_multiple_of(every) {
            if held_out.len() < max_held_out {
                held_out.push(g);
            }
        } else if training.len() < max_training {
            training.push(g);
        }
    }
    (training, held_out)
}

/// How the fit runs.
#[derive(Copy, Clone, Debug)]
pub struct TrainConfig {
    /// Full MM sweeps over all feature groups.
    pub iterations: usize,
    /// A shape gets a weight of its own when it was played at least this often in the fitted
    /// positions…
    pub min_shape_played: u32,
    /// …or offered as a candidate at least this often in the fitted positions (so common bad
    /// shapes learn how bad they are); other shapes share the weight of rare shapes.
    pub min_shape_seen: u32,
    /// A spatial pattern gets a weight when it was played at least this often in the fitted
    /// positions…
    pub min_spatial_played: u32,
    /// …and is among this many most played (the weights file's size).
    pub max_spatials: usize,
    /// The gammas are fitted on every this-many-th position of each training game.
    pub position_stride: usize,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            iterations: 20,
            min_shape_played: 3,
            min_shape_seen: 1000,
            min_spatial_played: 3,
            max_spatials: 100_000,
            position_stride: 1,
        }
    }
}

/// A candidate in training form: the local index of its value in each group, the last index of
/// a group standing for "no value" (a gamma held at 1). Shapes: 0 the rare-shape bucket, then
/// the chosen shapes. Small and plain so that millions of them fit.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Team {
    spatial: u32,
    shape: u16,
    values: [u8; GROUP_COUNT],
}

/// Feature groups in training: the shape, the spatial pattern, then [`GROUPS`].
const TEAM: usize = GROUP_COUNT + 2;

impl Team {
    #[inline]
    fn index(&self, g: usize) -> usize {
        match g {
            0 => self.shape as usize,
            1 => self.spatial as usize,
            _ => self.values[g - 2] as usize,
        }
    }
}

/// The competitions: candidates with equal features merged, each with its multiplicity.
#[derive(Default)]
struct Dataset {
    teams: Vec<Team>,
    counts: Vec<u16>,
    /// `teams[starts[j]..starts[j + 1]]` are the candidates of position j.
    starts: Vec<u32>,
    winners: Vec<Team>,
}

impl Dataset {
    fn positions(&self) -> usize {
        self.winners.len()
    }

    fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.starts[j] as usize..self.starts[j + 1] as usize
    }
}

/// Table indices of the chosen shapes and spatial patterns.
struct Tables {
    shapes: HashMap<u32, u16>,
    spatials: HashMap<u64, u32>,
    /// The "no value" index of each training group.
    absent: [usize; TEAM],
}

fn team_of(f: &MoveFeatures, tables: &Tables) -> Team {
    let mut t = Team {
        spatial: tables.absent[1] as u32,
        shape: tables.absent[0] as u16,
        values: [0; GROUP_COUNT],
    };
    if let Some(s) = f.shape {
        t.shape = tables.shapes.get(&s).copied().unwrap_or(0);
        if let Some(&d) = f.spatials.iter().rev().find_map(|k| tables.spatials.get(k)) {
            t.spatial = d;
        }
    }
    for (g, &v) in f.values.iter().enumerate() {
        t.values[g] = if v == NONE {
            tables.absent[g + 2] as u8
        } else {
            v
        };
    }
    t
}

/// Whether position `index` of a game with hash `hash` is one the gammas are fitted on.
fn sampled(index: usize, hash: u64, stride: usize) -> bool {
    let stride = stride.max(1);
    (index + (hash >> 32) as usize % stride).is_multiple_of(stride)
}

/// The shapes and spatial patterns that earn a weight of their own, each in key order.
fn choose_tables(games: &[TrainingGame], config: &TrainConfig) -> (Vec<u32>, Vec<u64>) {
    let mut shape_counts: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut spatial_counts: HashMap<u64, u32> = HashMap::new();
    for game in games {
        let hash = game_hash(&game.name);
        for_each_position(game, |i, board, color, mv| {
            if !sampled(i, hash, config.position_stride) {
                return;
            }
            for &p in board.empty_points() {
                if board.is_legal(p, color) {
                    shape_counts
                        .entry(features::shape_code(board, color, p))
                        .or_default()
                        .1 += 1;
                }
            }
            if let Move::Play(p) = mv {
                shape_counts
                    .entry(features::shape_code(board, color, p))
                    .or_default()
                    .0 += 1;
                for key in features::spatial_keys(board, color, p) {
                    *spatial_counts.entry(key).or_default() += 1;
                }
            }
        });
    }
    let mut shapes: Vec<(u32, u32)> = shape_counts
        .into_iter()
        .filter(|&(_, (played, seen))| {
            played >= config.min_shape_played || seen >= config.min_shape_seen
        })
        .map(|(s, (played, _))| (s, played))
        .collect();
    // Local indices are u16 with the rare bucket and "no value" reserved: keep the most played.
    shapes.sort_unstable_by_key(|&(s, played)| (std::cmp::Reverse(played), s));
    shapes.truncate(u16::MAX as usize - 2);
    let mut shapes: Vec<u32> = shapes.into_iter().map(|(s, _)| s).collect();
    shapes.sort_unstable();

    let mut spatials: Vec<(u64, u32)> = spatial_counts
        .into_iter()
        .filter(|&(_, played)| played >= config.min_spatial_played)
        .collect();
    spatials.sort_unstable_by_key(|&(k, played)| (std::cmp::Reverse(played), k));
    spatials.truncate(config.max_spatials);
    let mut spatials: Vec<u64> = spatials.into_iter().map(|(k, _)| k).collect();
    spatials.sort_unstable();
    (shapes, spatials)
}

/// The competitions of the sampled positions of `games`.
fn build_dataset(games: &[TrainingGame], tables: &Tables, stride: usize) -> Dataset {
    let parts: Vec<Dataset> = games
        .par_chunks(64)
        .map(|chunk| {
            let mut data = Dataset::default();
            let mut scratch: Vec<Team> = Vec::new();
            for game in chunk {
                let hash = game_hash(&game.name);
                for_each_position(game, |i, board, color, mv| {
                    if !sampled(i, hash, stride) {
                        return;
                    }
                    scratch.clear();
                    let played = for_each_candidate(board, color, mv, |f| {
                        scratch.push(team_of(&f, tables));
                    });
                    let Some(played) = played else {
                        return;
                    };
                    data.winners.push(scratch[played]);
                    scratch.sort_unstable();
                    let start = data.teams.len();
                    data.starts.push(start as u32);
                    for t in &scratch {
                        if data.teams.len() > start && data.teams.last() == Some(t) {
                            *data.counts.last_mut().expect("a count per team") += 1;
                        } else {
                            data.teams.push(*t);
                            data.counts.push(1);
                        }
                    }
                });
            }
            data
        })
        .collect();
    let mut data = Dataset::default();
    for part in parts {
        let offset = data.teams.len() as u32;
        data.starts.extend(part.starts.iter().map(|&s| s + offset));
        data.teams.extend(part.teams);
        data.counts.extend(part.counts);
        data.winners.extend(part.winners);
    }
    data.starts.push(data.teams.len() as u32);
    data
}

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
fn evaluation_line(what: &str, games: usize, e: &Evaluation) -> String {
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

/// `tengen train-patterns`: what to read and where to write.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// SGF records: the training games when no TYGEM files are given, else a second held-out
    /// set (all of them).
    pub data_dir: PathBuf,
    /// TYGEM files or directories of them (unzipped): the training games when given.
    pub tygem: Vec<PathBuf>,
    /// The weights file to write; `None` only reports.
    pub out: Option<PathBuf>,
    /// Measure this weights file instead of training.
    pub weights: Option<PathBuf>,
    /// One game in `hold_out_every` is held out of training: by file-name order for SGF
    /// records, by the hash of the game id for TYGEM games.
    pub hold_out_every: usize,
    /// TYGEM games trained on, at most (the first by hash).
    pub train_games: usize,
    /// TYGEM games measured on, at most (the first held-out games by hash).
    pub held_out_games: usize,
    pub train: TrainConfig,
}

impl RunConfig {
    /// The command line that reproduces this run, for the weights file's header.
    fn command_line(&self) -> String {
        let mut s = String::from("tengen train-patterns");
        if self.tygem.is_empty() {
            s.push_str(&format!(" --data {}", self.data_dir.display()));
        } else {
            for p in &self.tygem {
                s.push_str(&format!(" --tygem {}", p.display()));
            }
            s.push_str(&format!(
                " --train-games {} --held-out-games {}",
                self.train_games, self.held_out_games
            ));
        }
        s.push_str(&format!(
            " --hold-out-every {} --position-stride {} --iterations {} --min-spatial-played {} \
             --max-spatials {}",
            self.hold_out_every,
            self.train.position_stride,
            self.train.iterations,
            self.train.min_spatial_played,
            self.train.max_spatials
        ));
        if let Some(out) = &self.out {
            s.push_str(&format!(" --out {}", out.display()));
        }
        s
    }
}

/// Reads the records, trains on the training games (or reads `weights`), writes the weights and
/// reports the figures on every held-out set to `report`. Returns the first held-out set's.
pub fn run(config: &RunConfig, report: &mut impl Write) -> Result<Evaluation, String> {
    let started = Instant::now();
    let io = |e: std::io::Error| e.to_string();
    if config.hold_out_every < 2 {
        return Err("--hold-out-every must be at least 2".to_string());
    }
    if config.train.position_stride == 0 {
        return Err("--position-stride must be at least 1".to_string());
    }
    // Where the weights go is checked before the records are read and trained on.
    if let Some(out) = &config.out {
        crate::files::check_writable(out).map_err(|e| format!("cannot write {}", e))?;
    }
    // (name, games) of each held-out set, and the training games.
    let mut held_out_sets: Vec<(String, Vec<TrainingGame>)> = Vec::new();
    let training: Vec<TrainingGame>;
    let records: String;
    if config.tygem.is_empty() {
        let corpus = read_corpus(&config.data_dir)?;
        for (name, why) in &corpus.skipped {
            log::warn!("skipped {}: {}", name, why);
        }
        if corpus.games.is_empty() {
            return Err(format!(
                "no readable .sgf or .mgt records in {} (Debian: apt-get install \
                 goban-original-games)",
                config.data_dir.display()
            ));
        }
        records = format!(
            "records: {} read from {}, {} skipped",
            corpus.games.len(),
            config.data_dir.display(),
            corpus.skipped.len()
        );
        let (mut train_games, mut held_out) = (Vec::new(), Vec::new());
        for (i, g) in corpus.games.into_iter().enumerate() {
            if i % config.hold_out_every == config.hold_out_every - 1 {
                held_out.push(g);
            } else {
                train_games.push(g);
            }
        }
        training = train_games;
        held_out_sets.push(("held-out".to_string(), held_out));
    } else {
        let corpus = read_tygem(&config.tygem)?;
        for (name, why) in corpus.skipped.iter().take(20) {
            log::warn!("skipped {}: {}", name, why);
        }
        if corpus.games.is_empty() {
            return Err("no readable TYGEM games in the files given".to_string());
        }
        records = format!(
            "records: {} TYGEM games read, {} lines refused",
            corpus.games.len(),
            corpus.skipped.len()
        );
        let (t, h) = split_by_hash(
            corpus.games,
            config.hold_out_every,
            config.train_games,
            config.held_out_games,
        );
        training = t;
        held_out_sets.push(("held-out TYGEM".to_string(), h));
        match read_corpus(&config.data_dir) {
            Ok(c) if !c.games.is_empty() => {
                held_out_sets.push((
                    format!("held-out SGF records of {}", config.data_dir.display()),
                    c.games,
                ));
            }
            _ => log::warn!(
                "no records in {}: measuring on the TYGEM games only",
                config.data_dir.display()
            ),
        }
    }

    let (patterns, fit) = match &config.weights {
        Some(path) => {
            let bytes =
                crate::files::read(path, u64::MAX).map_err(|e| format!("cannot read {}", e))?;
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
            (Patterns::parse(&text)?, None)
        }
        None => {
            let (p, f) = train(&training, &config.train);
            // Measured as written: the file rounds every gamma to four digits.
            let written = Patterns::parse(&p.to_text(""))?;
            (written, Some(f))
        }
    };
    let trained_at = started.elapsed();
    let mut lines = vec![records];
    match (&fit, &config.weights) {
        (Some(fit), _) => lines.push(format!(
            "training: {} games, {} positions fitted (1 in {} of each game), {} distinct \
             candidates, {} 3×3 shapes with their own weight, \
             {} spatial patterns (radius {}..: {:?}), {} MM sweeps, log-likelihood {:.4}",
            fit.games,
            fit.positions,
            config.train.position_stride,
            fit.candidates,
            fit.shapes,
            fit.spatials.iter().sum::<usize>(),
            MIN_SPATIAL_RADIUS,
            fit.spatials,
            config.train.iterations,
            fit.log_likelihood.last().copied().unwrap_or(f64::NAN)
        )),
        (None, Some(path)) => lines.push(format!("weights measured: {}", path.display())),
        (None, None) => {}
    }
    let evaluating = Instant::now();
    let mut first = None;
    let mut positions = 0;
    for (name, games) in &held_out_sets {
        let e = evaluate(&patterns, games);
        positions += e.positions;
        lines.push(evaluation_line(name, games.len(), &e));
        first.get_or_insert(e);
    }
    let per_position = evaluating.elapsed().as_secs_f64() / positions.max(1) as f64;
    let summary = lines.join("\n");
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
        let source = if config.tygem.is_empty() {
            "Debian's goban-original-games installed".to_string()
        } else {
            format!(
                "the TYGEM files of https://github.com/yenw/computer-go-dataset at commit\n{} \
                 unzipped (see README, Move patterns)",
                TYGEM_COMMIT
            )
        };
        let header = format!(
            "tengen move-pattern gammas (generalized Bradley-Terry model, fitted by \
             minorization-maximization).\n\
             Built from the repository root with {}:\n  {}\n\
             {}\n\
             Lines: GROUP VALUE GAMMA (see src/patterns/features.rs), shape DIGITS GAMMA with one\n\
             digit per neighbour (rows from the top, left to right, centre skipped): 0 empty,\n\
             1 edge, 2/3/4 own stone with 1/2/3+ liberties, 5/6/7 opponent stone with 1/2/3+\n\
             liberties; shape rare: shapes without a line of their own. spatial KEY GAMMA: the\n\
             hash of the stones within Manhattan distance r of the move (16 hex digits, the\n\
             first is r), see features::spatial_keys.",
            source,
            config.command_line(),
            summary
        );
        crate::files::write(out, patterns.to_text(&header).as_bytes())
            .map_err(|e| format!("cannot write {}", e))?;
        writeln!(report, "weights written to {}", out.display()).map_err(io)?;
    }
    Ok(first.unwrap_or_default())
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

    /// Three real lines of the TYGEM dataset (2009-01, cut after their first moves), one with
    /// a pass.
    const TYGEM_LINES: &str = "85301567\t;B[qd];W[dd];B[pq];W[dq];B[fc];W[cf];B[jd]\n\
        85301571\t;B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[dr]\r\n\
        82295089\t;B[pd];W[dp];B[pq];W[dc];B[de];W[];B[cf]\n";

    #[test]
    fn tygem_lines_are_read_as_games() {
        let games: Vec<TrainingGame> = TYGEM_LINES
            .lines()
            .map(|l| game_from_tygem_line(l).unwrap())
            .collect();
        assert_eq!(games[0].name, "85301567");
        assert_eq!(games[1].name, "85301571");
        assert_eq!(games[0].size, 19);
        assert!(games[0].setup.is_empty());
        assert_eq!(games[0].moves.len(), 7);
        let b = games[0].start();
        // qd: column q (16), row d (3); Black first, then alternating.
        assert_eq!(
            games[0].moves[0],
            PlayedMove {
                color: Color::Black,
                mv: Move::Play(b.point(16, 3))
            }
        );
        assert_eq!(games[0].moves[1].color, Color::White);
        assert_eq!(games[2].moves[5].mv, Move::Pass);
        assert_eq!(games[2].moves[6].color, Color::Black);
        // Every move replays as a position.
        let mut n = 0;
        for_each_position(&games[2], |_, _, _, _| n += 1);
        assert_eq!(n, 7);
        // The split is by the id's hash, the same whatever the order read.
        let (t, h) = split_by_hash(games.clone(), 2, 10, 10);
        let mut reversed = games;
        reversed.reverse();
        let (t2, h2) = split_by_hash(reversed, 2, 10, 10);
        let names = |v: &[TrainingGame]| v.iter().map(|g| g.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&t), names(&t2));
        assert_eq!(names(&h), names(&h2));
        assert_eq!(t.len() + h.len(), 3);
    }

    #[test]
    fn malformed_tygem_lines_are_refused_with_a_reason() {
        for (line, reason) in [
            ("", "no tab"),
            ("85301567 ;B[qd];W[dd]", "no tab"),
            ("\t;B[qd];W[dd]", "bad game id"),
            ("85 301567\t;B[qd]", "bad game id"),
            ("85301567\tB[qd];W[dd]", "do not start"),
            ("85301567\t;", "no moves"),
            ("85301567\t;W[qd];B[dd]", "out of turn"),
            ("85301567\t;B[qd];B[dd]", "out of turn"),
            ("85301567\t;B[qd];W[zz]", "not a point"),
            ("85301567\t;B[qd];W[q]", "not a point"),
            ("85301567\t;B[qd];W[dd", "not B[..] or W[..]"),
            ("85301567\t;B[qd];;W[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];W[qd]", "illegal move"),
            ("85301567\t;B[qd];AB[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];Wé[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];é", "not B[..] or W[..]"),
            ("\u{1b}[31m\t;B[qd]", "bad game id"),
        ] {
            let e = game_from_tygem_line(line).unwrap_err();
            assert!(e.contains(reason), "{:?}: {}", line, e);
        }
        // A refused line inside a file is counted, not fatal.
        let dir = std::env::temp_dir().join(format!("tengen-tygem-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("2009-01"),
            format!("{}garbage\n\n85301999\t;B[qd];W[qd]\n", TYGEM_LINES),
        )
        .unwrap();
        std::fs::write(dir.join("2009-01.zip"), "not read").unwrap();
        let corpus = read_tygem(std::slice::from_ref(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(corpus.games.len(), 3);
        assert_eq!(corpus.skipped.len(), 2);
        assert!(
            corpus.skipped[0].0.ends_with("2009-01:4"),
            "{:?}",
            corpus.skipped
        );
    }

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
