//! `tengen bench`: playout speed, measured the way scripts can read it.
//!
//! Light playouts: uniformly random playouts from the empty board for a fixed wall time on a
//! given number of rayon workers, one line each:
//! `bench size=9 threads=1 playouts_per_s=… moves_per_s=… mean_moves=…`.
//! Full search: the player's tree search with heavy playouts from the empty board, one line each:
//! `bench search size=9 threads=1 playouts_per_s=…`.

use crate::board::{Board, Color};
use crate::game::Game;
use crate::rules::Rules;
use crate::search::playout::light_playout;
use crate::search::{Config, Player};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One measurement's totals.
#[derive(Copy, Clone, Debug, Default)]
pub struct Rate {
    pub playouts: u64,
    pub moves: u64,
    pub seconds: f64,
}

impl Rate {
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }
    pub fn moves_per_s(&self) -> f64 {
        self.moves as f64 / self.seconds
    }
    pub fn mean_moves(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }
}

/// Runs light playouts from the empty `size` board on `threads` workers for `duration`.
pub fn light_rate(size: usize, threads: usize, duration: Duration, seed: u64) -> Rate {
    let empty = Board::new(size).expect("valid size");
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let start = Instant::now();
    // One loop per worker thread, all running at once; each stops when the clock runs out.
    let totals: Vec<(u64, u64)> = pool.broadcast(|ctx| {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_add(ctx.index() as u64));
        let (mut playouts, mut moves) = (0u64, 0u64);
        let mut b = empty.clone();
        while !stop.load(Ordering::Relaxed) {
            // Read the clock every few playouts only.
            for _ in 0..16 {
                b.copy_from(&empty);
                let r = light_playout(&mut b, Color::Black, &mut rng);
                playouts += 1;
                moves += r.moves as u64;
            }
            if start.elapsed() >= duration {
                stop.store(true, Ordering::Relaxed);
            }
        }
        (playouts, moves)
    });
    let seconds = start.elapsed().as_secs_f64();
    Rate {
        playouts: totals.iter().map(|t| t.0).sum(),
        moves: totals.iter().map(|t| t.1).sum(),
        seconds,
    }
}

/// The line `tengen bench` prints for a light-playout measurement.
pub fn light_line(size: usize, threads: usize, r: &Rate) -> String {
    format!(
        "bench size={} threads={} playouts_per_s={:.0} moves_per_s={:.0} mean_moves={:.1}",
        size,
        threads,
        r.playouts_per_s(),
        r.moves_per_s(),
        r.mean_moves()
    )
}

/// Runs the full search (tree and heavy playouts) from the empty `size` board on `threads`
/// workers for `duration`.
pub fn search_rate(size: usize, threads: usize, duration: Duration, seed: u64) -> Rate {
    let game = Game::new(size, Rules::chinese()).expect("valid size");
    let mut player = Player::new(Config {
        threads,
        seed: Some(seed),
        ..Config::default()
    });
    let r = player.analyse(&game, Color::Black, None, Some(duration));
    Rate {
        playouts: r.playouts,
        moves: 0,
        seconds: r.seconds,
    }
}

/// The line `tengen bench` prints for a full-search measurement.
pub fn search_line(size: usize, threads: usize, r: &Rate) -> String {
    format!(
        "bench search size={} threads={} playouts_per_s={:.0}",
        size,
        threads,
        r.playouts_per_s()
    )
}
