//! The judgement of a finished position: who owns each point, which stones are dead, which
//! live in seki, and the count — made once per position and reused until it changes.
//!
//! The ownership map comes from heavy playouts on the worker pool, reproducible for a seed and
//! thread count; the dead stones are [`dead::judge_reading`]'s, with the capture races read on
//! the same workers; seki and the count are the scorer's once those are lifted. `final_score`,
//! `final_status_list`, GoGui's marks, the player's pass and dame decisions and the match tool's
//! count all read one [`Judgement`].
//!
//! Bounded in time on any board: the playouts are [`OWNERSHIP_PLAYOUTS`] up to 19×19 and fewer
//! in proportion to the area beyond (a playout's length grows with the area), and no race is
//! started after [`READING_TIME`] (one already started ends within the reader's node budget).
//! A race left unread is not lost, as one the reader cannot finish is not; so only a reading cut
//! short by a slow machine can make the same position count differently.

use super::ownership;
use super::OWNERSHIP_PLAYOUTS;
use crate::board::{Color, Point};
use crate::dead;
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::score::{self, Count};
use crate::semeai;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How long the capture races may be read: no race starts later than this after the first.
pub const READING_TIME: Duration = Duration::from_secs(1);

/// A finished position judged.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// Who owns each point at the end of the playouts: +1 Black, −1 White, `Board::points`
    /// order.
    pub ownership: Vec<f32>,
    /// The dead stones, sorted.
    pub dead: Vec<Point>,
    /// The count with the dead stones lifted; its `seki` are the stones living in seki.
    pub count: Count,
}

/// Ownership playouts for a board of side `size`: [`OWNERSHIP_PLAYOUTS`] up to 19×19, beyond
/// that fewer in proportion to the area, so that the estimate takes about as long as on 19×19.
pub fn ownership_playouts(size: usize) -> u64 {
    const AREA_19: u64 = 19 * 19;
    let area = (size * size) as u64;
    if area <= AREA_19 {
        OWNERSHIP_PLAYOUTS
    } else {
        OWNERSHIP_PLAYOUTS * AREA_19 / area
    }
}

/// The judgement of the game's position on the `pool`'s workers, the playouts drawn from `seed`
/// (mixed with the position's hash).
pub fn judge(game: &Game, pool: &rayon::ThreadPool, seed: u64) -> Judgement {
    let ownership = estimate(game, pool, seed);
    verdict(game, pool, ownership)
}

/// [`judge`] on a pool of all cores built for the purpose: the count of a finished game for a
/// caller without a player (the match tool). Fails only when no threads can be started.
pub fn judge_on_all_cores(game: &Game, seed: u64) -> Result<Judgement, String> {
    let threads = super::Config::default().threads;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("no threads for the judgement: {e}"))?;
    Ok(judge(game, &pool, seed))
}

/// The ownership estimate of the judgement.
fn estimate(game: &Game, pool: &rayon::ThreadPool, seed: u64) -> Vec<f32> {
    let board = game.board();
    let playouts = ownership_playouts(board.size());
    ownership::estimate(pool, board, game.to_move(), playouts, seed ^ board.hash())
}

/// Dead stones, seki and the count, given the ownership map.
fn verdict(game: &Game, pool: &rayon::ThreadPool, ownership: Vec<f32>) -> Judgement {
    let dead = dead::judge_reading(game, &ownership, |targets| {
        read_races(game, pool, targets, READING_TIME)
    });
    let count = score::count(game, &dead);
    Judgement {
        ownership,
        dead,
        count,
    }
}

/// Whether the side to move captures each target by force, read on the pool's workers in the
/// targets' order; none is started after `time`, and those left unread are `false`.
fn read_races(
    game: &Game,
    pool: &rayon::ThreadPool,
    targets: &[Point],
    time: Duration,
) -> Vec<bool> {
    let deadline = Instant::now() + time;
    let next = AtomicUsize::new(0);
    let read = AtomicUsize::new(0);
    let lost: Vec<AtomicBool> = targets.iter().map(|_| AtomicBool::new(false)).collect();
    pool.broadcast(|_| loop {
        let i = next.fetch_add(1, Relaxed);
        if i >= targets.len() || Instant::now() >= deadline {
            break;
        }
        if semeai::captured_by_force(game.board(), targets[i], game.to_move()) {
            lost[i].store(true, Relaxed);
        }
        read.fetch_add(1, Relaxed);
    });
    let read = read.load(Relaxed);
    if read < targets.len() {
        log::info!(
            "judgement: {} of {} capture races read in {:?}, the rest left alive",
            read,
            targets.len(),
            time
        );
    }
    lost.into_iter().map(AtomicBool::into_inner).collect()
}

/// Everything a judgement depends on: the positions since the start (the stones now, and which
/// captures superko forbids), the side to move, the rules, komi, prisoners and handicap (the
/// count), and the seed and workers the playouts are drawn with.
#[derive(Clone, PartialEq, Debug)]
struct Key {
    positions: Vec<u64>,
    size: usize,
    to_move: Color,
    rules: Rules,
    komi: HalfPoints,
    prisoners: [u32; 2],
    handicap: usize,
    seed: u64,
    threads: usize,
}

impl Key {
    fn of(game: &Game, seed: u64, threads: usize) -> Key {
        Key {
            positions: (0..).map_while(|k| game.hash_moves_ago(k)).collect(),
            size: game.board().size(),
            to_move: game.to_move(),
            rules: *game.rules(),
            komi: game.komi(),
            prisoners: [game.prisoners(Color::Black), game.prisoners(Color::White)],
            handicap: game.handicap().len(),
            seed,
            threads,
        }
    }
}

/// The last position judged: its ownership map at once, the rest when first asked for.
struct Last {
    key: Key,
    ownership: Vec<f32>,
    judgement: Option<Judgement>,
}

/// The player's judgements: the last one kept until the position changes.
#[derive(Default)]
pub(super) struct Judge {
    last: Option<Last>,
}

impl Judge {
    /// The ownership map of the game's position (the judgement's, without reading the races).
    pub(super) fn ownership(&mut self, game: &Game, pool: &rayon::ThreadPool, seed: u64) -> &[f32] {
        &self.entry(game, pool, seed).ownership
    }

    /// The judgement of the game's position.
    pub(super) fn judgement(
        &mut self,
        game: &Game,
        pool: &rayon::ThreadPool,
        seed: u64,
    ) -> &Judgement {
        let last = self.entry(game, pool, seed);
        let ownership = &last.ownership;
        last.judgement
            .get_or_insert_with(|| verdict(game, pool, ownership.clone()))
    }

    /// The kept entry if it was made for this position, else a fresh one.
    fn entry(&mut self, game: &Game, pool: &rayon::ThreadPool, seed: u64) -> &mut Last {
        let key = Key::of(game, seed, pool.current_num_threads());
        let last = match self.last.take() {
            Some(last) if last.key == key => last,
            _ => Last {
                key,
                ownership: estimate(game, pool, seed),
                judgement: None,
            },
        };
        self.last.insert(last)
    }
}
