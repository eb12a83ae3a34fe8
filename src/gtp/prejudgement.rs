//! The pre-judgement commands (RULES.md, "Pre-judgement komi in an engine"): the engine's own
//! prediction (`tengen-prejudge`), the threshold from the two stated predictions
//! (`tengen-prejudgement`), and moves with the mover's choice of removal in a mutual capture
//! (`tengen-play`).
//!
//! The threshold and its komi are [`crate::prejudgement`]'s; the engine keeps the predictions
//! next to the game only for the record (SGF root comment), and only while the game still starts
//! with the opening they were made for.

use super::{moves, Answer, Engine};
use crate::board::{Move, Removal};
use crate::game::{Game, GameError};
use crate::prejudgement::{Predictions, Prejudgement};
use crate::rules::{HalfPoints, Margin};
use crate::search::Limits;

/// Playouts for the engine's prediction when no playout budget is set: enough for
/// a stable mean margin on 19×19 in a couple of seconds, far more than enough on small boards.
pub const PREDICTION_PLAYOUTS: u64 = 3000;

/// The predictions of the engine's game, when they still describe it.
pub fn current(engine: &Engine) -> Option<&Prejudgement> {
    engine
        .predictions
        .as_ref()
        .filter(|p| p.describe(engine.game()))
}

/// Refuses unless the game is under pre-judgement rules with the opening placements done.
fn check_after_opening(game: &Game) -> Result<(), String> {
    if !game.rules().komi_from_predictions {
        return Err(format!(
            "not under pre-judgement rules (rules are {}; use tengen-rules prejudgement)",
            game.rules().name
        ));
    }
    if game.in_opening() {
        return Err(format!(
            "the opening is not complete ({} of {} placements made)",
            game.move_number(),
            game.rules().opening_placements
        ));
    }
    Ok(())
}

/// A prediction as GTP writes a score: `W+7`, `B+2.5`, `0`.
fn parse_prediction(s: &str) -> Result<Margin, String> {
    Margin::parse(s).ok_or_else(|| {
        format!(
            "syntax error: prediction '{}' is not a score like W+7, B+2.5 or 0",
            s
        )
    })
}

/// `tengen-prejudge`: the engine's prediction of the final board margin (no komi) after the
/// opening: the lead that makes the position even (the median margin of the playouts through
/// the best move) by a search of it. The threshold is the komi, so the prediction that serves a player best is the komi at
/// which it would take either side. The side to move after the
/// opening is White, and that is the side searched; later in a game it is whoever is to move.
pub fn prejudge(engine: &mut Engine, _: &[&str]) -> Answer {
    check_after_opening(engine.game())?;
    // The prediction is of the board alone: with the threshold not yet known, any komi set now
    // would bias it.
    let mut game = engine.game().clone();
    game.set_komi(HalfPoints::ZERO);
    // The configured limits of a move bound it (time, visits), playouts or not; GoGui's
    // interrupt ends it with the lead so far.
    let config = engine.player.config();
    let limits = Limits {
        playouts: Some(config.playouts.unwrap_or(PREDICTION_PLAYOUTS)),
        visits: config.visits,
        time: config.time,
    };
    let lead = moves::with_interrupt(engine, |engine, watch| {
        engine.lead_aside(&game, limits, watch)
    });
    Ok(Margin(HalfPoints::round_from(lead)).to_string())
}

/// `tengen-prejudgement P1 P2`: sets the threshold from the two predictions (P1 from the player
/// who placed the first stone) as the komi, and answers `T N`: the threshold as a score and the
/// player (1 or 2) who takes White.
pub fn prejudgement(engine: &mut Engine, args: &[&str]) -> Answer {
    let predictions = Predictions {
        first: parse_prediction(args[0])?,
        second: parse_prediction(args[1])?,
    };
    check_after_opening(engine.game())?;
    let threshold = predictions.threshold();
    engine.set_komi(threshold.komi);
    engine.komi_chosen = true;
    engine.predictions = Some(Prejudgement::new(engine.game(), predictions));
    Ok(format!("{} {}", threshold.margin, threshold.white))
}

/// `tengen-play COLOR VERTEX self|opponent`: `play`, with the mover's choice of whose stones go
/// when the move leaves both sides without liberties. `opponent` is plain `play` under any
/// rules; `self` is refused under rules that do not give the mover that choice, since the game
/// would silently play something else than asked.
pub fn play(engine: &mut Engine, args: &[&str]) -> Answer {
    let (color, mv) = moves::color_and_vertex(engine, args[0], args[1])?;
    let removal = match args[2].to_ascii_lowercase().as_str() {
        "self" => Removal::Own,
        "opponent" => Removal::Opponent,
        _ => return Err("syntax error: removal must be self or opponent".into()),
    };
    if removal == Removal::Own && !engine.game().rules().mover_chooses_removal {
        return Err(format!(
            "illegal move: under {} rules a mutual capture always removes the opponent's stones",
            engine.game().rules().name
        )
        .into());
    }
    // A pass removes nothing, and the opponent's stones are what plain `play` removes.
    if removal == Removal::Opponent || mv == Move::Pass {
        moves::play_move(engine, color, mv)?;
        return Ok(String::new());
    }
    engine
        .play_with(color, mv, removal)
        .map_err(|e: GameError| format!("illegal move: {}", e))?;
    Ok(String::new())
}
