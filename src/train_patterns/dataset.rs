//! The candidates' features in training form: each candidate of a position becomes a `Team` of
//! local indices into tables of the chosen shapes and spatial patterns, equal candidates merged,
//! so that the competitions of a large corpus fit in memory. [`TrainConfig`] says which shapes
//! and patterns are chosen and which positions are read; the fit takes it from here.

use super::corpus::{for_each_position, game_hash, TrainingGame};
use crate::board::{Board, Color, Move};
use crate::patterns::features::{self, MoveFeatures, GROUP_COUNT, NONE};
use rayon::prelude::*;
use std::collections::HashMap;

/// How the fit runs: which shapes and spatial patterns earn a weight, which positions are
/// fitted, and how many sweeps.
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

/// Calls `f` with the features of each candidate of `color`: every legal stone, then the pass.
/// Returns the index of `played` among them, if it is one.
pub(super) fn for_each_candidate(
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

/// A candidate in training form: the local index of its value in each group, the last index of
/// a group standing for "no value" (a gamma held at 1). Shapes: 0 the rare-shape bucket, then
/// the chosen shapes. Small and plain so that millions of them fit.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(super) struct Team {
    pub(super) spatial: u32,
    pub(super) shape: u16,
    pub(super) values: [u8; GROUP_COUNT],
}

/// Feature groups in training: the shape, the spatial pattern, then [`GROUPS`](features::GROUPS).
pub(super) const TEAM: usize = GROUP_COUNT + 2;

impl Team {
    #[inline]
    pub(super) fn index(&self, g: usize) -> usize {
        match g {
            0 => self.shape as usize,
            1 => self.spatial as usize,
            _ => self.values[g - 2] as usize,
        }
    }
}

/// The competitions: candidates with equal features merged, each with its multiplicity.
#[derive(Default)]
pub(super) struct Dataset {
    pub(super) teams: Vec<Team>,
    pub(super) counts: Vec<u16>,
    /// `teams[starts[j]..starts[j + 1]]` are the candidates of position j.
    starts: Vec<u32>,
    pub(super) winners: Vec<Team>,
}

impl Dataset {
    pub(super) fn positions(&self) -> usize {
        self.winners.len()
    }

    pub(super) fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.starts[j] as usize..self.starts[j + 1] as usize
    }
}

/// Table indices of the chosen shapes and spatial patterns.
pub(super) struct Tables {
    pub(super) shapes: HashMap<u32, u16>,
    pub(super) spatials: HashMap<u64, u32>,
    /// The "no value" index of each training group.
    pub(super) absent: [usize; TEAM],
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
pub(super) fn choose_tables(games: &[TrainingGame], config: &TrainConfig) -> (Vec<u32>, Vec<u64>) {
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
    // Equal counts in key order, which is radius order: a kept pattern's smaller patterns,
    // played at least as often, are kept too (`Patterns::gamma` stops at the first miss).
    spatials.sort_unstable_by_key(|&(k, played)| (std::cmp::Reverse(played), k));
    spatials.truncate(config.max_spatials);
    let mut spatials: Vec<u64> = spatials.into_iter().map(|(k, _)| k).collect();
    spatials.sort_unstable();
    (shapes, spatials)
}

/// The competitions of the sampled positions of `games`.
pub(super) fn build_dataset(games: &[TrainingGame], tables: &Tables, stride: usize) -> Dataset {
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
