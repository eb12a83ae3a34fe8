//! GoGui's analysis menu and interrupt: `gogui-analyze_commands` lists what tengen can show
//! (each entry's command is one of ours, so GoGui keeps it), and `gogui-interrupt` tells GoGui
//! that a `# interrupt` line stops a running command, which then answers with what it has.
//!
//! The tengen-… commands behind the entries search the position for one move's budget (the
//! configured time or playouts, not the game clock) and answer in GoGui's formats: `gfx` draw
//! commands, a `var` move sequence, a `string`. The search keeps its tree, so asking again about
//! the same position goes on from where the last search stopped.

use super::moves::{check_generate, handicap_from_moves, with_interrupt};
use super::{Answer, Engine};
use crate::board::{Board, Color};
use crate::coords::{format_move, format_point, parse_color};
use crate::rules::{HalfPoints, Margin};
use crate::search::Analysis;
use std::time::{Duration, Instant};

/// The analysis menu: `type/label/command` per line (no `/` inside a field).
const ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Ownership and dead stones/tengen-ownership %m",
    "var/Principal variation/tengen-pv %m",
    "gfx/Top moves (win rate, visits)/tengen-top_moves %m",
    "string/Rules and score estimate/tengen-estimate",
    "plist/Dead stones/final_status_list dead",
];

pub fn analyze_commands(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(ANALYZE_COMMANDS.join("\n"))
}

/// Nothing to do now: listing it tells GoGui that `# interrupt` works.
pub fn interrupt(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(String::new())
}

/// Searches the position for the colour in `args` (the side to move without one) with one
/// move's budget, ending early at GoGui's interrupt.
fn look(engine: &mut Engine, args: &[&str]) -> Result<(Board, Color, Analysis), String> {
    let color = match args.first() {
        Some(a) => parse_color(a).ok_or("syntax error: color must be b, w, black or white")?,
        None => engine.game().to_move(),
    };
    check_generate(engine, color)?;
    // Black stones sent as moves count as handicap here as in analysis; the record stays.
    let converted = handicap_from_moves(engine.game(), color);
    let budget = engine.player.move_budget();
    let analysis = with_interrupt(engine, |engine, watch| {
        let (player, game) = engine.player_and_game();
        let game = converted.as_ref().unwrap_or(game);
        player
            .analyse_watched(game, color, budget, &[], watch)
            .clone()
    });
    Ok((engine.game().board().clone(), color, analysis))
}

/// The time an interrupted `tengen-ownership` leaves its judgement of the dead stones.
const INTERRUPTED_JUDGEMENT: Duration = Duration::from_millis(250);

/// `gfx`: every point's expected owner as INFLUENCE (positive Black, negative White) and the
/// stones judged dead marked, with the estimate as status text.
pub fn ownership(engine: &mut Engine, args: &[&str]) -> Answer {
    let (board, color, analysis) = look(engine, args)?;
    let black = engine.player.ownership().to_vec();
    if black.len() != board.size() * board.size() {
        return Ok(String::new());
    }
    let influence: Vec<String> = board
        .points()
        .zip(&black)
        .map(|(p, o)| format!("{} {:.2}", format_point(&board, p), o))
        .collect();
    // The marks are the judgement `final_status_list dead` and `final_score` use; after an
    // interrupt the controller wants the answer now, so the judgement stops soon too.
    let deadline = engine
        .input
        .interrupted()
        .then(|| Instant::now() + INTERRUPTED_JUDGEMENT);
    let (player, game) = engine.player_and_game();
    let dead = player.dead_stones_by(game, deadline);
    let mut out = format!("INFLUENCE {}", influence.join(" "));
    if !dead.is_empty() {
        let marks: Vec<String> = dead.iter().map(|&p| format_point(&board, p)).collect();
        out.push_str(&format!("\nMARK {}", marks.join(" ")));
    }
    out.push_str(&format!(
        "\nTEXT {}",
        estimate_text(engine, color, &analysis)
    ));
    Ok(out)
}

/// `var`: the most visited line, the colour asked for moving first.
pub fn principal_variation(engine: &mut Engine, args: &[&str]) -> Answer {
    let (board, _, analysis) = look(engine, args)?;
    Ok(analysis.moves.first().map_or(String::new(), |best| {
        best.pv
            .iter()
            .map(|&mv| format_move(&board, mv))
            .collect::<Vec<_>>()
            .join(" ")
    }))
}

/// `gfx`: the most visited moves labelled with their win rates, and a status line with this
/// search's playouts, the root's visits (a kept tree's included) and each move's visits.
pub fn top_moves(engine: &mut Engine, args: &[&str]) -> Answer {
    let (board, _, analysis) = look(engine, args)?;
    let top: Vec<_> = analysis
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(10)
        .collect();
    if top.is_empty() {
        return Ok(String::new());
    }
    let labels: Vec<String> = top
        .iter()
        .filter_map(|m| match m.mv {
            crate::board::Move::Play(p) => Some(format!(
                "{} {}%",
                format_point(&board, p),
                (m.winrate * 100.0).round()
            )),
            crate::board::Move::Pass => None,
        })
        .collect();
    let text: Vec<String> = top
        .iter()
        .take(5)
        .map(|m| {
            format!(
                "{} {:.1}% ({} visits)",
                format_move(&board, m.mv),
                m.winrate * 100.0,
                m.visits
            )
        })
        .collect();
    let mut out = String::new();
    if !labels.is_empty() {
        out.push_str(&format!("LABEL {}\n", labels.join(" ")));
    }
    out.push_str(&format!(
        "TEXT {} playouts, {} visits: {}",
        analysis.playouts,
        analysis.root_visits,
        text.join(", ")
    ));
    Ok(out)
}

/// `string`: the ruleset, the komi and the search's estimate of the result.
pub fn estimate(engine: &mut Engine, args: &[&str]) -> Answer {
    let (_, color, analysis) = look(engine, args)?;
    Ok(estimate_text(engine, color, &analysis))
}

/// "chinese rules, komi 7.5: B+3.5 by the median of 9000 playouts through D5 (mean B+5), Black
/// wins 62%": the lead that makes the game even (the root's, its best move's), then the mean
/// margin over all playouts.
fn estimate_text(engine: &Engine, color: Color, analysis: &Analysis) -> String {
    let rules = engine.game().rules().name;
    let komi = engine.game().komi();
    if analysis.moves.is_empty() {
        return format!("{} rules, komi {}: no estimate (no search)", rules, komi);
    }
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let shown = |lead: f64| Margin(HalfPoints((2.0 * sign * lead).round() as i32));
    let best = &analysis.moves[0];
    let black_wins = if color == Color::Black {
        best.winrate
    } else {
        1.0 - best.winrate
    };
    // An interrupted search may not have played through any move yet.
    let source = if best.visits > 0 {
        format!(
            "{} playouts through {}",
            best.visits,
            format_move(engine.game().board(), best.mv)
        )
    } else {
        format!("{} playouts", analysis.ownership_playouts)
    };
    format!(
        "{} rules, komi {}: {} by the median of {} (mean {}), Black wins {:.0}%",
        rules,
        komi,
        shown(analysis.root_score_lead),
        source,
        shown(analysis.score_mean),
        black_wins * 100.0
    )
}
