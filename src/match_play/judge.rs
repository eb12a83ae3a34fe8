//! tengen's own dead-stone judgement of a finished game, for the match's own count.

use crate::dead;
use crate::game::Game;
use crate::search::{self, ownership, OWNERSHIP_PLAYOUTS};

/// tengen's own judgement of the dead stones of a finished game: an ownership estimate on all
/// cores from `seed`, then [`dead::judge`] — what the engine's `final_score` does.
pub(super) fn judge_dead(game: &Game, seed: u64) -> Vec<crate::board::Point> {
    let board = game.board();
    let threads = search::Config::default().threads;
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            log::warn!("no threads for the dead-stone estimate ({e}); counting every stone alive");
            return Vec::new();
        }
    };
    let own = ownership::estimate(
        &pool,
        board,
        game.to_move(),
        OWNERSHIP_PLAYOUTS,
        seed ^ board.hash(),
    );
    dead::judge(game, &own)
}
