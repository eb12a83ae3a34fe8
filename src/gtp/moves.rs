//! Moves: `play`, `undo`, and the moves the player chooses (`genmove`, `kgs-genmove_cleanup`,
//! `reg_genmove`).
//!
//! GTP lets either colour move at any time, several times in a row, and pass; the game checks
//! everything the ruleset forbids (occupied points, suicide, ko, superko, the pre-judgement
//! opening order) and refuses without changing anything, which becomes `? illegal move: reason`.
//!
//! Handicap sent as moves: controllers that do not use `set_free_handicap` (Sabaki without it,
//! OGS, GoGui's fallback) send the handicap as several `play B` in a row. When White is about to
//! make the first White move and the record so far is two or more Black stones on an empty
//! board, those stones are taken as handicap stones, so that counting, the search and the SGF
//! treat them as handicap (under area rules White is owed a point per stone).

use super::{Answer, Engine};
use crate::board::{Color, Move};
use crate::coords::{format_move, parse_color, parse_vertex, VertexError};
use crate::game::{Game, GameError};
use crate::search::{Decision, MoveFilter, Watch};

pub fn play(engine: &mut Engine, args: &[&str]) -> Answer {
    let (color, mv) = color_and_vertex(engine, args[0], args[1])?;
    play_move(engine, color, mv)?;
    Ok(String::new())
}

/// The colour and vertex of a move command (`play`, `tengen-play`); a vertex beyond the board is
/// an illegal move, as GTP has it, not a syntax error.
pub(super) fn color_and_vertex(
    engine: &Engine,
    color: &str,
    vertex: &str,
) -> Result<(Color, Move), String> {
    let color = parse_color(color).ok_or("syntax error: color must be b, w, black or white")?;
    match parse_vertex(vertex, engine.game().board()) {
        Ok(mv) => Ok((color, mv)),
        Err(VertexError::Malformed) => Err(format!("syntax error: bad vertex {}", vertex)),
        Err(VertexError::OffBoard) => Err("illegal move: off board".to_string()),
    }
}

/// Plays a move on the engine's game, reading a run of opening Black stones as handicap first
/// when this is White's first move.
pub(super) fn play_move(engine: &mut Engine, color: Color, mv: Move) -> Result<(), String> {
    let illegal = |e: GameError| format!("illegal move: {}", e);
    if color == Color::White && handicap_from_moves(engine.game(), color).is_some() {
        // Read as handicap only once the move is known to be legal: a refused move changes
        // nothing.
        let mut trial = engine.game().clone();
        trial.play(color, mv).map_err(illegal)?;
        engine.read_moves_as_handicap();
    }
    engine.play(color, mv).map_err(illegal)
}

/// A copy of the game with its opening run of Black stones read as handicap stones, when
/// `color` is White and [`Game::read_moves_as_handicap`] applies: what White's first move, or
/// an analysis for White, sees.
pub(super) fn handicap_from_moves(game: &Game, color: Color) -> Option<Game> {
    if color != Color::White {
        return None;
    }
    let mut copy = game.clone();
    copy.read_moves_as_handicap().then_some(copy)
}

pub fn undo(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.undo().map_err(|_| "cannot undo")?;
    Ok(String::new())
}

/// What the three move generators differ in.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Generate {
    /// `genmove`: play the move on the board.
    Play,
    /// `kgs-genmove_cleanup`: play it, capturing dead stones before passing, never resigning.
    Cleanup,
    /// `reg_genmove`: only say it.
    Report,
}

pub fn genmove(engine: &mut Engine, args: &[&str]) -> Answer {
    generate(engine, args, Generate::Play)
}

pub fn genmove_cleanup(engine: &mut Engine, args: &[&str]) -> Answer {
    generate(engine, args, Generate::Cleanup)
}

pub fn reg_genmove(engine: &mut Engine, args: &[&str]) -> Answer {
    generate(engine, args, Generate::Report)
}

fn generate(engine: &mut Engine, args: &[&str], how: Generate) -> Answer {
    let color = parse_color(args[0]).ok_or("syntax error: color must be b, w, black or white")?;
    check_generate(engine, color)?;
    with_interrupt(engine, |engine, watch| {
        generate_move(engine, color, how, &[], watch)
    })
}

/// Runs `f` with a watch that GoGui's `# interrupt` ends (after [`MIN_PLAYOUTS`]): how a move
/// search or a GoGui analysis stops early with the best it has.
pub(super) fn with_interrupt<R>(
    engine: &mut Engine,
    f: impl FnOnce(&mut Engine, &mut Watch) -> R,
) -> R {
    let input = engine.input.clone();
    let interrupted = || input.interrupted();
    let mut watch = Watch {
        interrupted: &interrupted,
        min_playouts: MIN_PLAYOUTS,
        progress: None,
        ownership_detail: false,
    };
    f(engine, &mut watch)
}

/// Playouts a move search runs before an interrupt may end it, so that the move is never a
/// blind guess.
pub(super) const MIN_PLAYOUTS: u64 = 100;

/// Refuses to generate a move for `color` where the rules say the other colour moves (the
/// pre-judgement opening fixes who places each stone; asking the other colour is as illegal as
/// playing for it).
pub(super) fn check_generate(engine: &Engine, color: Color) -> Result<(), String> {
    if let Some(expected) = engine.game().opening_color() {
        if expected != color {
            return Err(format!(
                "illegal move: {}",
                GameError::WrongColorInOpening { expected }
            ));
        }
    }
    Ok(())
}

/// Searches and, unless only reporting, plays the move; answers its vertex, `pass` or `resign`.
pub(super) fn generate_move(
    engine: &mut Engine,
    color: Color,
    how: Generate,
    filters: &[MoveFilter],
    watch: &mut Watch,
) -> Answer {
    if how != Generate::Report && color == Color::White {
        engine.read_moves_as_handicap();
    }
    let (player, game) = engine.player_and_game();
    let decision = player.genmove_watched(game, color, how == Generate::Cleanup, filters, watch);
    let mv = match decision {
        Decision::Resign => {
            if how != Generate::Report {
                engine.resigned = Some(color);
            }
            return Ok("resign".to_string());
        }
        Decision::Play(mv) => mv,
    };
    if how != Generate::Report {
        engine.play(color, mv).map_err(|e| {
            log::error!("the search chose an illegal move {:?}: {}", mv, e);
            format!("illegal move: {}", e)
        })?;
        engine.arm_ponder();
    }
    Ok(format_move(engine.game().board(), mv))
}
