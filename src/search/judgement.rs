//! The judgement of a finished position: who owns each point, which stones are dead, which
//! live in seki, and the count — made once per position and reused until it changes.
//!
//! The ownership map comes from heavy playouts on the worker pool, reproducible for a seed and
//! thread count, with the kills that a one-thread search by the side to move finds among the
//! groups they are unsure of ([`estimate`]); the dead stones are [`dead::judge_reading`]'s,
//! with the capture races read on the same workers; seki and the count are the scorer's once
//! those are lifted. `final_score`, `final_status_list`, GoGui's marks, the player's pass and
//! dame decisions and the match tool's count all read one [`Judgement`].
//!
//! Bounded in time on any board and the same on any machine: the playouts, flat and searched,
//! are [`OWNERSHIP_PLAYOUTS`] each up to 19×19 and fewer in proportion to the area beyond (a
//! playout's length grows with the area), and at most [`MAX_RACES`] capture races are read,
//! the most doubtful first, each within the reader's node budget. A race left unread is not
//! lost, as one the reader cannot finish is not; no clock decides what is read, so a loaded
//! machine is slower, never different.

use super::ownership::FlatPlayouts;
use super::run::{Budget, Runner};
use super::simulate::Root;
use super::{Config, Limits, Player, Watch, OWNERSHIP_PLAYOUTS};
use crate::board::{Color, Point};
use crate::dead;
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::score::{self, Count};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// The capture races read at most, the most doubtful groups first ([`dead::race_targets`]'s
/// order): a race costs at most the reader's node budget (about a tenth of a second), so the
/// reading stays near a second on one thread, while finished games have a handful of races.
pub const MAX_RACES: usize = 12;

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
/// (mixed with the position's hash), by a judge that keeps nothing.
pub fn judge(game: &Game, pool: &rayon::ThreadPool, seed: u64) -> Judgement {
    Judge::default().judgement(game, pool, seed, None)
}

/// Judgements for a caller without a player (the match tool's counts): a pool of all cores,
/// built at the first judgement and kept with the judge's search for the next, as a player
/// keeps its own. Threads started afresh for every judgement would each leave the allocator an
/// arena of its own, and a long match's memory would creep up game by game.
#[derive(Default)]
pub struct StandaloneJudge {
    pool: Option<rayon::ThreadPool>,
    judge: Judge,
}

impl StandaloneJudge {
    /// The judgement of the game's position; fails only when no threads can be started.
    pub fn judgement(&mut self, game: &Game, seed: u64) -> Result<Judgement, String> {
        if self.pool.is_none() {
            let threads = super::Config::default().threads;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("no threads for the judgement: {e}"))?;
            self.pool = Some(pool);
        }
        let pool = self.pool.as_ref().expect("built just above");
        Ok(self.judge.judgement(game, pool, seed, None))
    }
}

/// Whether the deadline has passed.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The ownership estimate of the judgement: flat playouts from the position, and for the
/// stones they are unsure of (kept in less than 90% of them, [`dead::SURELY_DEAD`]), the
/// verdict of a search by the side to move ([`searched_ownership`]) where its playouts lose
/// them beyond [`dead::DEAD`]. Flat playouts leave a kill to chance: a group whose vital point
/// nobody happens to take looks alive, where the search plays the side to move's best attack
/// and the answers to it. The search alone is not the judgement: with a few thousand
/// playouts its deep lines follow the priors into a seki or a settled group, and in a lost
/// position it tries every desperate line. So it only adds dead stones, among the doubtful;
/// the rest of the map (how sure a living group is, the walls of [`dead::lost_by_force`]'s
/// reading) is the flat playouts'.
///
/// The search and the flat playouts' shares (one per worker, as in
/// [`FlatPlayouts::on`]) are jobs the pool's workers take in turn, the longest (the search)
/// first, so that no more threads are busy than the pool has. With a `deadline` every part
/// stops there; the second value says whether all of them ran to their count.
fn estimate(
    game: &Game,
    pool: &rayon::ThreadPool,
    runner: &Mutex<Runner>,
    seed: u64,
    deadline: Option<Instant>,
) -> (Vec<f32>, bool) {
    let board = game.board();
    let seed = seed ^ board.hash();
    let playouts = ownership_playouts(board.size());
    let flat = FlatPlayouts {
        board,
        color: game.to_move(),
        playouts,
        seed,
        parts: pool.current_num_threads(),
    };
    let next = AtomicUsize::new(0);
    let searched = Mutex::new(None);
    let shares = Mutex::new(Vec::with_capacity(flat.parts));
    pool.broadcast(|_| loop {
        match next.fetch_add(1, Relaxed) {
            0 => {
                // A search that fails (it panicked) adds no dead stones.
                let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut runner = runner.lock().unwrap_or_else(|e| e.into_inner());
                    searched_ownership(&mut runner, game, playouts, seed, deadline)
                }));
                *searched.lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
            }
            job if job <= flat.parts => {
                let share = flat.run(job - 1, deadline);
                shares.lock().unwrap_or_else(|e| e.into_inner()).push(share);
            }
            _ => break,
        }
    });
    let shares = shares.into_inner().unwrap_or_else(|e| e.into_inner());
    let (mut combined, flat_run) = flat.values(shares);
    let mut complete = flat_run == playouts;
    let searched = searched.into_inner().unwrap_or_else(|e| e.into_inner());
    let Some(Ok((searched, searched_run))) = searched else {
        return (combined, complete);
    };
    complete &= searched_run >= playouts;
    // A search cut short before its first playout knows nothing.
    if searched_run == 0 {
        return (combined, complete);
    }
    for ((p, own), searched) in board.points().zip(combined.iter_mut()).zip(searched) {
        let killed = match board.color(p) {
            Some(Color::Black) => searched < -dead::DEAD && *own < dead::SURELY_DEAD,
            Some(Color::White) => searched > dead::DEAD && *own > -dead::SURELY_DEAD,
            None => false,
        };
        if killed {
            *own = searched;
        }
    }
    (combined, complete)
}

/// The ownership of the playouts of a search of `playouts` by the side to move (ended at the
/// deadline if one comes first), and the playouts it ran; on one thread so that it is the same
/// for a seed on any machine. A line that reaches two passes in the tree goes on by a playout,
/// which takes the dead stones off the board, where the count of the board as it stands would
/// keep them. The `runner` (its one-thread pool) is the judge's, kept from one judgement to
/// the next; with a seed it keeps no tree.
fn searched_ownership(
    runner: &mut Runner,
    game: &Game,
    playouts: u64,
    seed: u64,
    deadline: Option<Instant>,
) -> (Vec<f32>, u64) {
    let color = game.to_move();
    let moves = Player::root_moves(game, color, true);
    let root = Root::new(game, color, moves, &[], HalfPoints::ZERO, &[])
        .played_out_after_passes()
        .with_whole_amaf();
    let config = Config {
        threads: 1,
        seed: Some(seed),
        ..Config::default()
    };
    let limits = Limits {
        playouts: Some(playouts),
        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..Limits::default()
    };
    let found = runner.search(
        &config,
        game,
        root,
        Budget::fixed(limits),
        &mut Watch::none(),
    );
    (found.ownership, found.report.playouts)
}

/// Dead stones, seki and the count, given the ownership map; with a `deadline`, the reading
/// and the second look stop there (the second value says whether nothing was cut short).
fn verdict(
    game: &Game,
    pool: &rayon::ThreadPool,
    ownership: Vec<f32>,
    deadline: Option<Instant>,
) -> (Judgement, bool) {
    let mut complete = true;
    let mut dead = dead::judge_reading(game, &ownership, |targets| {
        let (lost, read_all) = read_races(game, pool, &ownership, targets, MAX_RACES, deadline);
        complete &= read_all;
        lost
    });
    if !dead.is_empty() {
        // A second look with the dead stones off the board, for what they leave behind.
        let board = game.board();
        let lifted = score::lift(board, &dead);
        let flat = FlatPlayouts {
            board: &lifted,
            color: game.to_move(),
            playouts: ownership_playouts(board.size()),
            seed: board.hash() ^ lifted.hash(),
            parts: pool.current_num_threads(),
        };
        let (again, run) = flat.on(pool, deadline);
        complete &= run == flat.playouts;
        if run > 0 {
            dead.extend(dead::left_behind(&lifted, &again, &dead));
            dead.sort();
        }
    }
    let count = score::count(game, &dead);
    let judgement = Judgement {
        ownership,
        dead,
        count,
    };
    (judgement, complete)
}

/// Whether each target is lost by force ([`dead::lost_by_force`]), read on the pool's workers;
/// only the first `limit` targets are read, and none started after the deadline: the rest
/// answer `false`. The second value says whether the deadline left every race within the
/// limit read.
fn read_races(
    game: &Game,
    pool: &rayon::ThreadPool,
    ownership: &[f32],
    targets: &[Point],
    limit: usize,
    deadline: Option<Instant>,
) -> (Vec<bool>, bool) {
    let start = Instant::now();
    let read = targets.len().min(limit);
    let next = AtomicUsize::new(0);
    let skipped = AtomicBool::new(false);
    let lost: Vec<AtomicBool> = targets.iter().map(|_| AtomicBool::new(false)).collect();
    pool.broadcast(|_| loop {
        let i = next.fetch_add(1, Relaxed);
        if i >= read {
            break;
        }
        if past(deadline) {
            skipped.store(true, Relaxed);
            break;
        }
        let captured = dead::lost_by_force(game, ownership, targets[i]);
        log::debug!(
            "judgement: the group at {} {}",
            crate::coords::format_point(game.board(), targets[i]),
            if captured {
                "is lost by force"
            } else {
                "holds"
            }
        );
        lost[i].store(captured, Relaxed);
    });
    log::debug!(
        "judgement: {} capture races read in {:?}",
        read,
        start.elapsed()
    );
    if read < targets.len() {
        log::info!(
            "judgement: {} of {} capture races read, the rest left alive",
            read,
            targets.len()
        );
    }
    let lost = lost.into_iter().map(AtomicBool::into_inner).collect();
    (lost, !skipped.into_inner())
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
///
/// A judgement asked for by a deadline (a move's, which must keep to its clock) stops there;
/// one that finished anyway is the judgement of any deadline and is kept, one cut short is
/// used once and forgotten.
#[derive(Default)]
pub(super) struct Judge {
    last: Option<Last>,
    /// The search of [`estimate`], kept with its thread for every judgement.
    runner: Mutex<Runner>,
}

impl Judge {
    /// Forgets the kept judgement; the search's thread stays.
    pub(super) fn forget(&mut self) {
        self.last = None;
    }

    /// The ownership map of the game's position (the judgement's, without reading the races).
    pub(super) fn ownership(
        &mut self,
        game: &Game,
        pool: &rayon::ThreadPool,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Vec<f32> {
        match self.entry(game, pool, seed, deadline) {
            Ok(last) => last.ownership.clone(),
            Err(cut_short) => cut_short,
        }
    }

    /// The judgement of the game's position.
    pub(super) fn judgement(
        &mut self,
        game: &Game,
        pool: &rayon::ThreadPool,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Judgement {
        match self.entry(game, pool, seed, deadline) {
            Ok(last) => match &last.judgement {
                Some(kept) => kept.clone(),
                None => {
                    let (judgement, complete) =
                        verdict(game, pool, last.ownership.clone(), deadline);
                    if complete {
                        last.judgement = Some(judgement.clone());
                    }
                    judgement
                }
            },
            Err(cut_short) => verdict(game, pool, cut_short, deadline).0,
        }
    }

    /// The kept entry if it was made for this position, else a fresh one, kept if the deadline
    /// let it finish: otherwise the ownership map as far as it got.
    fn entry(
        &mut self,
        game: &Game,
        pool: &rayon::ThreadPool,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<&mut Last, Vec<f32>> {
        let key = Key::of(game, seed, pool.current_num_threads());
        if !self.last.as_ref().is_some_and(|last| last.key == key) {
            let (ownership, complete) = estimate(game, pool, &self.runner, seed, deadline);
            if !complete {
                return Err(ownership);
            }
            self.last = Some(Last {
                key,
                ownership,
                judgement: None,
            });
        }
        Ok(self.last.as_mut().expect("kept just above"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    /// White's C6 D6 E6 and Black's C5 D5 E5 racing with three liberties each: whoever moves
    /// first captures (see `dead`'s tests).
    fn race() -> Game {
        let rows = [
            ".........",
            ".XXXXX...",
            ".X.X.X...",
            ".XOOOX...",
            ".OXXXO...",
            ".O.O.O...",
            ".OOOOO...",
            ".........",
            ".........",
        ];
        Game::from_diagram(&rows, Rules::chinese()).unwrap()
    }

    fn one_thread() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
    }

    #[test]
    fn races_read_are_the_pure_judgement_and_unread_ones_live() {
        let g = race();
        let pool = one_thread();
        let own = estimate(&g, &pool, &Mutex::default(), 7, None).0;
        let read = dead::judge_reading(&g, &own, |t| {
            read_races(&g, &pool, &own, t, MAX_RACES, None).0
        });
        assert_eq!(read, dead::judge(&g, &own));
        assert!(read.contains(&g.board().point(2, 3)));
        let unread = dead::judge_reading(&g, &own, |t| read_races(&g, &pool, &own, t, 0, None).0);
        assert!(!unread.contains(&g.board().point(2, 3)));
    }

    #[test]
    fn a_judgement_is_kept_until_the_position_changes() {
        let mut g = race();
        let pool = one_thread();
        let mut cache = Judge::default();
        let mut seen = Vec::new();
        // Black to move, White to move after a pass, Black again after the undo, and with
        // another komi: each kept judgement is the one made afresh for that position.
        for step in 0..4 {
            match step {
                1 => g.play(Color::Black, Move::Pass).map(|_| ()).unwrap(),
                2 => g.undo().unwrap(),
                3 => g.set_komi(HalfPoints(1)),
                _ => {}
            }
            let kept = cache.judgement(&g, &pool, 7, None);
            let fresh = judge(&g, &pool, 7);
            assert_eq!(kept.dead, fresh.dead, "step {}", step);
            assert_eq!(kept.count.margin, fresh.count.margin, "step {}", step);
            seen.push(kept.count.margin);
        }
        // The race goes to the side to move, and komi moves the count.
        assert_ne!(seen[0], seen[1]);
        assert_eq!(seen[0], seen[2]);
        assert_ne!(seen[2], seen[3]);
        // The same position asked again is the kept judgement; a new position is not.
        let key = Key::of(&g, 7, 1);
        assert!(cache.last.as_ref().is_some_and(|l| l.key == key));
        assert_ne!(key, Key::of(&g, 8, 1));
    }
}
