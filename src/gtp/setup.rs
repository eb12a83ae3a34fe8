//! Setting up a game: board size, komi, ruleset and handicap stones.
//!
//! Komi is the controller's: it survives `boardsize` and `clear_board`, and a change of ruleset
//! replaces it with the new ruleset's usual komi only when nobody chose one. Handicap stones go
//! on an empty board only and are not moves (they cannot be undone).

use super::{parse_uint, Answer, Engine};
use crate::board::{Board, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::coords::{format_points, parse_vertex};
use crate::game::{Game, GameError};
use crate::rules::{HalfPoints, HandicapBonus, KoRule, Rules, Scoring};
use std::cmp::Reverse;

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

/// The engine's choice: the fixed pattern while it has enough points, then more stones spread as
/// far from the others as possible. Fewer stones than asked come back only once every remaining
/// point would touch a handicap stone, which GTP allows ("fewer already guarantee a win").
pub fn place_free_handicap(engine: &mut Engine, args: &[&str]) -> Answer {
    let n = stones_arg(args)?;
    check_handicap_allowed(engine)?;
    let board = engine.game().board();
    let area = board.size() * board.size();
    if n < 2 || n >= area {
        return Err(format!("invalid number of stones: 2 to {} on this board", area - 1).into());
    }
    let points = free_points(board, n);
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

/// The most fixed-handicap stones a board side allows (GoGui's and KataGo's table).
fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        s if s % 2 == 1 && s >= 9 => 9,
        _ => 4,
    }
}

/// GTP's fixed placement for `n` stones, or `None` when the board does not allow that many:
/// corners on the 3rd line up to 12×12 and on the 4th from 13×13, side and centre points on the
/// middle lines, in the order D4 Q16 D16 Q4, K10 for odd counts, D10 Q10, K4 K16.
fn fixed_points(board: &Board, n: usize) -> Option<Vec<Point>> {
    let size = board.size();
    if n < 2 || n > max_fixed(size) {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, size - 1 - edge, size / 2);
    // (column, row from the top); row `hi` from the top is the 4th line from the bottom.
    let at = |c: usize, r: usize| board.point(c, r);
    let (d4, q16, d16, q4) = (at(lo, hi), at(hi, lo), at(lo, lo), at(hi, hi));
    let (k10, d10, q10, k4, k16) = (
        at(mid, mid),
        at(lo, mid),
        at(hi, mid),
        at(mid, hi),
        at(mid, lo),
    );
    let mut v = vec![d4, q16];
    if n >= 3 {
        v.push(d16);
    }
    if n >= 4 {
        v.push(q4);
    }
    if n >= 6 {
        v.extend([d10, q10]);
    }
    if n >= 8 {
        v.extend([k4, k16]);
    }
    if n % 2 == 1 && n >= 5 {
        v.push(k10);
    }
    Some(v)
}

/// `n` well-spread points: the fixed pattern for as many stones as it has, then greedily the
/// point farthest (in steps along the lines) from the nearest stone already chosen, away from the edge
/// where the board is large enough; never a point next to a chosen one.
fn free_points(board: &Board, n: usize) -> Vec<Point> {
    let size = board.size();
    let mut chosen = fixed_points(board, n.min(max_fixed(size))).unwrap_or_default();
    let margin = match size {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    };
    let candidates: Vec<(usize, usize)> = (margin..size - margin)
        .flat_map(|r| (margin..size - margin).map(move |c| (c, r)))
        .collect();
    while chosen.len() < n {
        let best = candidates
            .iter()
            .map(|&(c, r)| {
                let distances = chosen.iter().map(|&p| {
                    let (pc, pr) = board.coords(p);
                    pc.abs_diff(c) + pr.abs_diff(r)
                });
                let nearest = distances.clone().min().unwrap_or(usize::MAX);
                (nearest, distances.sum::<usize>(), c, r)
            })
            // Farthest from the nearest stone, then from all of them (so new stones balance
            // the board); among equals the first in board order, so the answer is fixed.
            .min_by_key(|&(d, total, c, r)| (Reverse(d), Reverse(total), r, c));
        match best {
            Some((d, _, c, r)) if d >= 2 => chosen.push(board.point(c, r)),
            _ => break,
        }
    }
    chosen
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
    let r = engine.game().rules();
    let ko = match r.ko {
        KoRule::Basic => "SIMPLE",
        KoRule::PositionalSuperko => "POSITIONAL",
        KoRule::SituationalSuperko => "SITUATIONAL",
    };
    let (scoring, tax) = match r.scoring {
        Scoring::Area => ("AREA", "NONE"),
        // Territory counting gives the eyes of groups in seki to nobody.
        Scoring::Territory => ("TERRITORY", "SEKI"),
    };
    let bonus = match r.handicap_bonus {
        HandicapBonus::None => "0",
        HandicapBonus::PerStone => "N",
        HandicapBonus::PerStoneAfterFirst => "N-1",
    };
    Ok(format!(
        "{{\"friendlyPassOk\":{},\"hasButton\":false,\"ko\":\"{}\",\"scoring\":\"{}\",\
         \"suicide\":{},\"tax\":\"{}\",\"whiteHandicapBonus\":\"{}\"}}",
        r.dead_stones_lifted, ko, scoring, r.suicide_legal, tax, bonus
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
    use crate::coords::format_point;

    fn names(board: &Board, v: &[Point]) -> Vec<String> {
        v.iter().map(|&p| format_point(board, p)).collect()
    }

    #[test]
    fn fixed_patterns() {
        let b19 = Board::new(19).unwrap();
        assert_eq!(names(&b19, &fixed_points(&b19, 2).unwrap()), ["D4", "Q16"]);
        assert_eq!(
            names(&b19, &fixed_points(&b19, 9).unwrap()),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(
            names(&b19, &fixed_points(&b19, 5).unwrap()),
            ["D4", "Q16", "D16", "Q4", "K10"]
        );
        let b9 = Board::new(9).unwrap();
        assert_eq!(
            names(&b9, &fixed_points(&b9, 4).unwrap()),
            ["C3", "G7", "C7", "G3"]
        );
        let b13 = Board::new(13).unwrap();
        assert_eq!(names(&b13, &fixed_points(&b13, 2).unwrap()), ["D4", "K10"]);
        let b7 = Board::new(7).unwrap();
        assert!(fixed_points(&b7, 4).is_some() && fixed_points(&b7, 5).is_none());
        let b10 = Board::new(10).unwrap();
        assert!(fixed_points(&b10, 5).is_none());
        assert!(fixed_points(&Board::new(6).unwrap(), 2).is_none());
    }

    #[test]
    fn free_points_spread_and_stop() {
        let b = Board::new(19).unwrap();
        let v = free_points(&b, 12);
        assert_eq!(v.len(), 12);
        let mut s = v.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 12);
        let b2 = Board::new(2).unwrap();
        assert_eq!(free_points(&b2, 3).len(), 2);
    }

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
