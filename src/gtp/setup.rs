//! Setting up a game: board size, komi, ruleset and handicap stones.
//!
//! Komi is the controller's: it survives `boardsize` and `clear_board`, and a change of ruleset
//! replaces it with the new ruleset's usual komi only when nobody chose one. Handicap stones go
//! on an empty board only and are not moves (they cannot be undone).

use super::{parse_uint, Answer, Engine};
use crate::board::{Move, Point, MAX_SIZE, MIN_SIZE};
use crate::coords::{format_points, parse_vertex};
use crate::game::{Game, GameError};
use crate::rules::{HalfPoints, Rules};
use crate::search::handicap::{self, fixed_points, max_fixed};

pub fn boardsize(engine: &mut Engine, args: &[&str]) -> Answer {
    let size = parse_uint(args[0], u64::MAX).ok_or("syntax error: size must be a number")?;
    if !(MIN_SIZE as u64..=MAX_SIZE as u64).contains(&size) {
        return Err(format!(
            "unacceptable size: boards from {} to {} only",
            MIN_SIZE, MAX_SIZE
        )
        .into());
    }
    let mut game = Game::new(size as usize, *engine.game().rules()).ok_or("unacceptable size")?;
    game.set_komi(engine.game().komi());
    engine.replace_game(game);
    Ok(String::new())
}

pub fn clear_board(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.clear_game();
    Ok(String::new())
}

/// Any komi is accepted. One that is not a whole or half number decides every game exactly as
/// the half point between the same two whole numbers does (board margins are whole), so it is
/// kept as that half point.
pub fn komi(engine: &mut Engine, args: &[&str]) -> Answer {
    let k = parse_komi(args[0])?;
    engine.set_komi(k);
    engine.komi_chosen = true;
    Ok(String::new())
}

/// A komi as GTP sends it (a float), in half points. The rules keep exact half points, so a
/// komi between two (6.75) is refused rather than changed into one.
pub fn parse_komi(s: &str) -> Result<HalfPoints, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| "syntax error: komi must be a number".to_string())?;
    if !v.is_finite() || v.abs() > 1_000_000.0 {
        return Err("syntax error: komi out of range".to_string());
    }
    if (v * 2.0).fract() != 0.0 {
        return Err(format!("komi must be a whole or half number: {}", s));
    }
    Ok(HalfPoints((v * 2.0) as i32))
}

/// Handicap needs an empty board with no moves, and a ruleset whose opening is not its own.
fn check_handicap_allowed(engine: &Engine) -> Result<(), String> {
    let g = engine.game();
    let b = g.board();
    if g.move_number() > 0 || b.empty_points().len() != b.size() * b.size() {
        return Err("board not empty".to_string());
    }
    if g.rules().opening_placements > 0 {
        return Err(
            "invalid number of stones: no handicap under these rules (the opening placements replace it)"
                .to_string(),
        );
    }
    Ok(())
}

/// Places the handicap and answers with the vertex list.
fn place(engine: &mut Engine, points: &[Point]) -> Answer {
    let mut game = engine.game().clone();
    game.place_handicap(points).map_err(|e| match e {
        GameError::BoardNotEmpty => "board not empty".to_string(),
        e => format!("bad vertex list: {}", e),
    })?;
    engine.replace_game(game);
    Ok(format_points(engine.game().board(), points))
}

/// The number-of-stones argument: a syntax error if it is not a number.
fn stones_arg(args: &[&str]) -> Result<usize, String> {
    let n = parse_uint(args[0], u64::MAX).ok_or("syntax error: stones must be a number")?;
    Ok(n.min(usize::MAX as u64) as usize)
}

pub fn fixed_handicap(engine: &mut Engine, args: &[&str]) -> Answer {
    let n = stones_arg(args)?;
    check_handicap_allowed(engine)?;
    let size = engine.game().board().size();
    let points = fixed_points(engine.game().board(), n).ok_or_else(|| {
        format!(
            "invalid number of stones: {} allows {}",
            size,
            match max_fixed(size) {
                0 => "no fixed handicap".to_string(),
                m => format!("2 to {} stones", m),
            }
        )
    })?;
    place(engine, &points)
}

/// The engine's choice ([`handicap::free_points`]): corners, sides and centre as players place
/// them, the points judged by short searches seeded with the engine's seed, then more stones
/// spread as far from the others as possible. Fewer stones than asked come back only once every
/// remaining point would touch a handicap stone, which GTP allows ("fewer already guarantee a
/// win").
pub fn place_free_handicap(engine: &mut Engine, args: &[&str]) -> Answer {
    let n = stones_arg(args)?;
    check_handicap_allowed(engine)?;
    let board = engine.game().board();
    let area = board.size() * board.size();
    if n < 2 || n >= area {
        return Err(format!("invalid number of stones: 2 to {} on this board", area - 1).into());
    }
    let (player, game) = engine.player_and_game();
    let points = handicap::free_points(game, n, player.config().seed);
    place(engine, &points)
}

pub fn set_free_handicap(engine: &mut Engine, args: &[&str]) -> Answer {
    check_handicap_allowed(engine)?;
    let board = engine.game().board();
    let area = board.size() * board.size();
    if args.len() < 2 || args.len() >= area {
        return Err(format!("bad vertex list: 2 to {} stones on this board", area - 1).into());
    }
    let mut points = Vec::with_capacity(args.len());
    for a in args {
        match parse_vertex(a, board) {
            Ok(Move::Play(p)) if !points.contains(&p) => points.push(p),
            Ok(Move::Play(_)) => return Err(format!("bad vertex list: {} twice", a).into()),
            Ok(Move::Pass) => return Err("bad vertex list: pass is not a stone".into()),
            Err(_) => return Err(format!("bad vertex list: {} is not a vertex here", a).into()),
        }
    }
    place(engine, &points)?;
    Ok(String::new())
}

/// KGS's names for its rulesets (`japanese`, `chinese`, `aga`, `new_zealand`), all of which
/// tengen plays.
pub fn kgs_rules(engine: &mut Engine, args: &[&str]) -> Answer {
    let rules = match args[0].to_ascii_lowercase().as_str() {
        "japanese" => Rules::japanese(),
        "chinese" => Rules::chinese(),
        "aga" => Rules::aga(),
        "new_zealand" => Rules::new_zealand(),
        other => {
            return Err(format!(
                "unsupported rules '{}' (supported: japanese, chinese, aga, new_zealand)",
                other
            )
            .into())
        }
    };
    engine.set_rules(rules);
    Ok(String::new())
}

/// KataGo's `kata-set-rules`, for tengen's rulesets by name (KataGo's spellings); anything else,
/// JSON included, is refused with the supported names.
pub fn kata_set_rules(engine: &mut Engine, args: &[&str]) -> Answer {
    let rules = Rules::by_name(args[0]).ok_or_else(|| {
        format!(
            "unsupported rules '{}' (supported: {})",
            args[0],
            Rules::NAMES.join(", ")
        )
    })?;
    engine.set_rules(rules);
    Ok(String::new())
}

/// KataGo's `kata-get-rules`: the ruleset as KataGo's JSON object (keys in KataGo's order,
/// alphabetical), each field read off the rules. Pre-judgement's own features (White first, the
/// free placements, the predicted komi) have no KataGo field; `tengen-rules` names the ruleset.
pub fn kata_get_rules(engine: &mut Engine, _: &[&str]) -> Answer {
    let k = engine.game().rules().katago();
    Ok(format!(
        "{{\"friendlyPassOk\":{},\"hasButton\":false,\"ko\":\"{}\",\"scoring\":\"{}\",\
         \"suicide\":{},\"tax\":\"{}\",\"whiteHandicapBonus\":\"{}\"}}",
        k.friendly_pass_ok, k.ko, k.scoring, k.suicide, k.tax, k.white_handicap_bonus
    ))
}

/// Without an argument, the current ruleset's name; with one, switches to that ruleset.
pub fn tengen_rules(engine: &mut Engine, args: &[&str]) -> Answer {
    let Some(name) = args.first() else {
        return Ok(engine.game().rules().name.to_string());
    };
    let rules = Rules::by_name(name).ok_or_else(|| {
        format!(
            "unknown rules '{}' (supported: {})",
            name,
            Rules::NAMES.join(", ")
        )
    })?;
    engine.set_rules(rules);
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_forms() {
        assert_eq!(parse_komi("7"), Ok(HalfPoints(14)));
        assert_eq!(parse_komi("-3.5"), Ok(HalfPoints(-7)));
        assert_eq!(parse_komi("6.50"), Ok(HalfPoints(13)));
        assert_eq!(parse_komi("-0"), Ok(HalfPoints(0)));
        for between in ["6.75", "6.4", "-0.2", "0.25"] {
            assert_eq!(
                parse_komi(between),
                Err(format!("komi must be a whole or half number: {}", between))
            );
        }
        assert!(parse_komi("nan").is_err() && parse_komi("1e300").is_err());
    }
}
