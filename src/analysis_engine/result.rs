//! The JSON lines the analysis engine writes: a position's result from the search's snapshot
//! ([`crate::search::Analysis`], the one `kata-analyze` formats too), the answer to a position
//! whose search was stopped before any result, and errors and warnings.
//!
//! Every number shown is computed in the snapshot; this file only lays the fields out as
//! KataGo's analysis protocol names them and turns them to the view the query asked for
//! (`reportAnalysisWinratesAs`). Floats are always finite, so every line is valid JSON.

use super::query::{Perspective, Problem, Query};
use crate::board::{Board, Color};
use crate::coords::format_move;
use crate::search::Analysis;
use serde_json::{json, Map, Value};

/// Mixed into `thisHash` when White is to move.
const WHITE_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

/// A float for JSON: finite (a NaN would print as `null`), rounded to what is meaningful.
fn num(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        json!(0.0)
    }
}

/// Values per point, rounded to four places.
fn points(values: &[f32], sign: f32) -> Value {
    Value::Array(
        values
            .iter()
            .map(|&v| json!(((v * sign) as f64 * 1e4).round() / 1e4))
            .collect(),
    )
}

/// A position's result: `moveInfos` (the visited moves, best first), `rootInfo`, and what
/// else the query asked for.
pub fn position(
    query: &Query,
    turn: usize,
    board: &Board,
    to_move: Color,
    a: &Analysis,
    during_search: bool,
    policy: Option<&[f64]>,
) -> Value {
    // Values in the snapshot are the side to move's; flip them for the other view.
    let flip = match query.perspective {
        Perspective::SideToMove => false,
        Perspective::Black => to_move == Color::White,
        Perspective::White => to_move == Color::Black,
    };
    let rate = |w: f64| if flip { 1.0 - w } else { w };
    let signed = |x: f64| if flip { -x } else { x };
    let sign = if flip { -1.0 } else { 1.0 };
    let pv_cap = query.pv_len.map_or(usize::MAX, |n| n + 1);
    let infos: Vec<Value> = a
        .shown(0, None)
        .into_iter()
        .enumerate()
        .map(|(order, m)| {
            let pv: Vec<String> =
                m.pv.iter()
                    .take(pv_cap)
                    .map(|&mv| format_move(board, mv))
                    .collect();
            let mut info = json!({
                "move": format_move(board, m.mv),
                "visits": m.visits,
                "edgeVisits": m.visits,
                "winrate": num(rate(m.winrate)),
                "scoreMean": num(signed(m.score_mean)),
                "scoreLead": num(signed(m.score_lead)),
                "scoreSelfplay": num(signed(m.score_mean)),
                "scoreStdev": num(m.score_stdev),
                "utility": num(signed(m.utility)),
                "lcb": num(rate(m.lcb)),
                "prior": num(m.prior),
                "order": order,
                "pv": pv,
            });
            if query.pv_visits {
                let visits: Vec<u32> = m.pv_visits.iter().take(pv_cap).copied().collect();
                info["pvVisits"] = json!(visits);
                info["pvEdgeVisits"] = json!(visits);
            }
            if query.moves_ownership {
                info["ownership"] = points(&m.ownership, sign);
            }
            info
        })
        .collect();
    let mut result = json!({
        "id": query.id,
        "turnNumber": turn,
        "isDuringSearch": during_search,
        "moveInfos": infos,
        "rootInfo": {
            "currentPlayer": if to_move == Color::Black { "B" } else { "W" },
            "visits": a.root_visits,
            "winrate": num(rate(a.root_winrate)),
            "scoreLead": num(signed(a.root_score_lead)),
            "scoreSelfplay": num(signed(a.root_score_mean)),
            "scoreStdev": num(a.score_stdev),
            "utility": num(signed(a.root_utility)),
            "lcb": num(rate(a.root_lcb)),
            // The position's hash, told apart by the side to move.
            "thisHash": format!(
                "{:016X}",
                board.hash() ^ if to_move == Color::White { WHITE_TO_MOVE } else { 0 }
            ),
        },
    });
    if query.ownership {
        result["ownership"] = points(&a.ownership, sign);
    }
    if query.ownership_stdev {
        result["ownershipStdev"] = points(&a.ownership_stdev, 1.0);
    }
    if let Some(p) = policy {
        result["policy"] = Value::Array(p.iter().map(|&x| num(x)).collect());
    }
    result
}

/// The answer for a position whose search was stopped before it had any result.
pub fn no_results(id: &str, turn: usize) -> Value {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true})
}

/// An error (`warning` false) or warning line.
pub fn problem(p: &Problem, warning: bool) -> Value {
    let mut line = Map::new();
    line.insert(
        if warning { "warning" } else { "error" }.to_string(),
        json!(p.message),
    );
    if let Some(field) = &p.field {
        line.insert("field".to_string(), json!(field));
    }
    if let Some(id) = &p.id {
        line.insert("id".to_string(), json!(id));
    }
    Value::Object(line)
}
