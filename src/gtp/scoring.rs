//! The end of the game: `final_score` and `final_status_list`.
//!
//! Both read the player's judgement of the position (made once, whichever asks first): which
//! stones are dead, which live in seki once those are lifted, and the scorer's count under the
//! game's rules and komi, so the margin printed is exactly `B+x`, `W+x` or `0`.

use super::{Answer, Engine};
use crate::board::Point;
use crate::coords::format_point;
use crate::rules::Margin;

/// The count of the current position with the stones the player judges dead lifted.
pub(super) fn margin(engine: &mut Engine) -> Margin {
    let (player, game) = engine.player_and_game();
    player.judgement(game).count.margin
}

pub fn final_score(engine: &mut Engine, _: &[&str]) -> Answer {
    Ok(margin(engine).to_string())
}

/// The stones with the asked status, one group per line (GNU Go's layout; GoGui reads any).
/// Alive stones are those neither dead nor in seki.
pub fn final_status_list(engine: &mut Engine, args: &[&str]) -> Answer {
    let status = args[0].to_ascii_lowercase();
    let board = engine.game().board().clone();
    let (player, game) = engine.player_and_game();
    if !matches!(status.as_str(), "alive" | "dead" | "seki") {
        return Err("syntax error: status must be alive, dead or seki".into());
    }
    let judgement = player.judgement(game);
    // Rules that count the board as it stands (Tromp–Taylor) have no dead stones at the end.
    let lifted = game.rules().dead_stones_lifted;
    let dead: &[Point] = if lifted { &judgement.dead } else { &[] };
    let seki = &judgement.count.seki;
    let stones: Vec<Point> = match status.as_str() {
        "dead" => dead.to_vec(),
        "seki" => seki.clone(),
        _ => board
            .points()
            .filter(|&p| board.color(p).is_some() && !dead.contains(&p) && !seki.contains(&p))
            .collect(),
    };
    // Group the listed stones by the group they belong to, groups in board order.
    let mut groups: Vec<(Point, Vec<Point>)> = Vec::new();
    let mut sorted = stones;
    sorted.sort();
    sorted.dedup();
    for p in sorted {
        if board.color(p).is_none() {
            continue;
        }
        let head = board.group_of(p);
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, v)) => v.push(p),
            None => groups.push((head, vec![p])),
        }
    }
    Ok(groups
        .iter()
        .map(|(_, v)| {
            v.iter()
                .map(|&p| format_point(&board, p))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n"))
}
