//! Live analysis as Leela Zero and KataGo defined it, for Sabaki and other analysis clients:
//! `lz-analyze`, `kata-analyze` and their `genmove_analyze` forms; and KataGo's `stop` and
//! `clear_cache`, which end and forget searches.
//!
//! Arguments: `[colour] [interval] [interval N] [minmoves N] [maxmoves N] [avoid|allow C v,v,…
//! N]`, plus `ownership`, `ownershipStdev`, `movesOwnership`, `rootInfo`, `pvVisits`,
//! `pvEdgeVisits` `true|false` for the `kata-` forms; the interval is in centiseconds.
//! Every argument is checked before the `=` line, so a bad one gets `? syntax error` naming it
//! and no analysis starts. Output: one line per interval of `info` blocks, one per root move,
//! best first, each `info move V visits N winrate W … order K pv V V …` with the PV last
//! (Sabaki reads a block as key/value pairs up to `pv`); values are the side to move's. `lz-`
//! win rates are integers 0–10000, `kata-` ones floats 0–1 that always have a decimal point.
//! No line is printed before some root move has a playout's result. `lz-analyze`/`kata-analyze`
//! run until any new input line arrives (or the input ends), or until the analysis limits
//! (`--analysis-visits`, `--analysis-seconds`) are reached, and then print one last line, so
//! even an analysis stopped at once shows one; stopped by its limits, the command stays open,
//! idle, until the next line, as the dialect's answers end only then. The `genmove_analyze`
//! forms search as `genmove` does, print a final `info` line (none when the move needed no
//! search: the only legal move, or accepting the opponent's pass) and then `play V`, and play
//! the move. A colour the rules do not let move now is refused, as `genmove` refuses it.

use super::moves::{self, Generate};
use super::{parse_uint, Answer, Engine, Stream};
use crate::board::{Board, Color, Move};
use crate::coords::{format_move, parse_color, parse_vertex};
use crate::search::{Analysis, MoveFilter, MoveInfo, Watch};
use std::time::Duration;

/// Which program's conventions a command follows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Dialect {
    /// Leela Zero: win rates, priors and bounds as integers in ten-thousandths.
    Lz,
    /// KataGo: floats, plus score leads and optional ownership.
    Kata,
}

/// A parsed analysis request.
#[derive(Clone, Debug, PartialEq)]
struct Request {
    color: Color,
    /// `None`: no reports while searching, only the final line.
    interval: Option<Duration>,
    minmoves: usize,
    maxmoves: Option<usize>,
    filters: Vec<MoveFilter>,
    ownership: bool,
    /// KataGo's `ownershipStdev`: each point's standard deviation of ownership, after it.
    ownership_stdev: bool,
    /// KataGo's `movesOwnership`: each move's own ownership, in its `info` block.
    moves_ownership: bool,
    /// KataGo's `rootInfo`: the search's visits, win rate and lead after the `info` blocks.
    root_info: bool,
    /// KataGo's `pvVisits` and `pvEdgeVisits`: the visits of each PV position, and along each
    /// PV move (the same in a tree).
    pv_visits: bool,
    pv_edge_visits: bool,
}

pub fn lz_analyze(engine: &mut Engine, args: &[&str], out: &mut Stream) -> Answer {
    analyze(engine, args, out, Dialect::Lz)
}

pub fn kata_analyze(engine: &mut Engine, args: &[&str], out: &mut Stream) -> Answer {
    analyze(engine, args, out, Dialect::Kata)
}

pub fn lz_genmove_analyze(engine: &mut Engine, args: &[&str], out: &mut Stream) -> Answer {
    genmove_analyze(engine, args, out, Dialect::Lz)
}

pub fn kata_genmove_analyze(engine: &mut Engine, args: &[&str], out: &mut Stream) -> Answer {
    genmove_analyze(engine, args, out, Dialect::Kata)
}

fn analyze(engine: &mut Engine, args: &[&str], out: &mut Stream, dialect: Dialect) -> Answer {
    let request = parse_request(
        engine.game().board(),
        engine.game().to_move(),
        args,
        dialect,
    )?;
    // A colour the rules do not let move now (the pre-judgement opening) has nothing to show.
    moves::check_generate(engine, request.color)?;
    // Black stones sent as moves before White's first are analysed as handicap stones, as
    // they will be at White's first move; the record itself stays as it is (analysis only
    // looks, and the controller may still undo those moves).
    let converted = moves::handicap_from_moves(engine.game(), request.color);
    out.start();
    let board = engine.game().board().clone();
    let input = engine.input.clone();
    let stop = || input.new_line();
    let limits = engine.player.config().analysis;
    let last = {
        let mut report = |a: &Analysis| {
            if a.has_results() {
                out.line(&info_line(&board, a, &request, dialect));
            }
        };
        let mut watch = Watch {
            interrupted: &stop,
            min_playouts: moves::MIN_PLAYOUTS,
            progress: request
                .interval
                .map(|i| (i, &mut report as &mut dyn FnMut(&Analysis))),
            ownership_detail: request.ownership_stdev || request.moves_ownership,
        };
        let (player, game) = engine.player_and_game();
        player
            .analyse_watched(
                converted.as_ref().unwrap_or(game),
                request.color,
                limits,
                &request.filters,
                &mut watch,
            )
            .clone()
    };
    if last.has_results() {
        out.line(&info_line(&board, &last, &request, dialect));
    }
    // The search has ended by its limits (or a full tree's); the answer still ends only when
    // the controller sends something, and waiting costs nothing.
    while !stop() {
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(String::new())
}

fn genmove_analyze(
    engine: &mut Engine,
    args: &[&str],
    out: &mut Stream,
    dialect: Dialect,
) -> Answer {
    let request = parse_request(
        engine.game().board(),
        engine.game().to_move(),
        args,
        dialect,
    )?;
    moves::check_generate(engine, request.color)?;
    out.start();
    let input = engine.input.clone();
    // Like genmove, only GoGui's interrupt cuts it short: Sabaki's next command waits for it.
    let interrupted = || input.interrupted();
    let board = engine.game().board().clone();
    let answer = {
        let mut report = |a: &Analysis| {
            if a.has_results() {
                out.line(&info_line(&board, a, &request, dialect));
            }
        };
        let mut watch = Watch {
            interrupted: &interrupted,
            min_playouts: moves::MIN_PLAYOUTS,
            progress: request
                .interval
                .map(|i| (i, &mut report as &mut dyn FnMut(&Analysis))),
            ownership_detail: request.ownership_stdev || request.moves_ownership,
        };
        moves::generate_move(
            engine,
            request.color,
            Generate::Play,
            &request.filters,
            &mut watch,
        )?
    };
    let last = engine.player.analysis();
    if last.has_results() {
        out.line(&info_line(&board, last, &request, dialect));
    }
    Ok(format!("play {}", answer))
}

/// KataGo's `stop`: halts any pondering or analysis. Any line ends a running one before this
/// command runs, so what is left to halt is pondering that would start again after the answer:
/// it waits until the player has moved again.
pub fn stop(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.disarm_ponder();
    Ok(String::new())
}

/// KataGo's `clear_cache`: forgets the kept search tree and the kept judgement, so that the
/// next search starts afresh.
pub fn clear_cache(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.player.clear_cache();
    Ok(String::new())
}

/// Reads the arguments: an optional colour, an optional bare interval, then key/value pairs.
fn parse_request(
    board: &Board,
    to_move: Color,
    args: &[&str],
    dialect: Dialect,
) -> Result<Request, String> {
    let mut request = Request {
        color: to_move,
        interval: None,
        minmoves: 0,
        maxmoves: None,
        filters: Vec::new(),
        ownership: false,
        ownership_stdev: false,
        moves_ownership: false,
        root_info: false,
        pv_visits: false,
        pv_edge_visits: false,
    };
    let mut rest = args;
    if let Some(c) = rest.first().and_then(|a| parse_color(a)) {
        request.color = c;
        rest = &rest[1..];
    }
    if let Some(first) = rest.first() {
        if first.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            request.interval = interval(first)?;
            rest = &rest[1..];
        }
    }
    while let Some((&key, tail)) = rest.split_first() {
        let value = |i: usize| {
            tail.get(i)
                .copied()
                .ok_or_else(|| format!("syntax error: {} needs a value", key))
        };
        let count = |s: &str| {
            parse_uint(s, 100_000)
                .map(|n| n as usize)
                .ok_or_else(|| format!("syntax error: bad number '{}' after {}", s, key))
        };
        match key {
            "interval" => {
                request.interval = interval(value(0)?)?;
                rest = &tail[1..];
            }
            "minmoves" => {
                request.minmoves = count(value(0)?)?;
                rest = &tail[1..];
            }
            "maxmoves" => {
                let n = count(value(0)?)?;
                if n == 0 {
                    return Err("syntax error: maxmoves must be at least 1".to_string());
                }
                request.maxmoves = Some(n);
                rest = &tail[1..];
            }
            "avoid" | "allow" => {
                let color = parse_color(value(0)?).ok_or_else(|| {
                    format!("syntax error: bad color '{}' after {}", tail[0], key)
                })?;
                let moves = vertex_list(board, value(1)?, key)?;
                let until = count(value(2)?)?;
                if until == 0 {
                    return Err(format!("syntax error: {} needs a depth of at least 1", key));
                }
                let allow = key == "allow";
                if allow && request.filters.iter().any(|f| f.color == color && f.allow) {
                    return Err(format!(
                        "syntax error: allow given twice for {}",
                        if color == Color::Black {
                            "black"
                        } else {
                            "white"
                        }
                    ));
                }
                if request
                    .filters
                    .iter()
                    .any(|f| f.color == color && f.allow != allow)
                {
                    return Err(format!(
                        "syntax error: avoid and allow together for {}",
                        if color == Color::Black {
                            "black"
                        } else {
                            "white"
                        }
                    ));
                }
                request.filters.push(MoveFilter {
                    color,
                    moves,
                    allow,
                    until,
                });
                rest = &tail[3..];
            }
            "ownership" | "ownershipStdev" | "movesOwnership" | "rootInfo" | "pvVisits"
            | "pvEdgeVisits"
                if dialect == Dialect::Kata =>
            {
                // KataGo reads these flags case-insensitively.
                let on = match value(0)?.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "syntax error: {} must be true or false, not '{}'",
                            key, tail[0]
                        ))
                    }
                };
                *match key {
                    "ownership" => &mut request.ownership,
                    "ownershipStdev" => &mut request.ownership_stdev,
                    "movesOwnership" => &mut request.moves_ownership,
                    "rootInfo" => &mut request.root_info,
                    "pvVisits" => &mut request.pv_visits,
                    _ => &mut request.pv_edge_visits,
                } = on;
                rest = &tail[1..];
            }
            other => return Err(format!("syntax error: unexpected '{}'", other)),
        }
    }
    Ok(request)
}

/// An interval in centiseconds; 0 means no reports until the end.
fn interval(s: &str) -> Result<Option<Duration>, String> {
    let cs = parse_uint(s, 8_640_000)
        .ok_or_else(|| format!("syntax error: bad interval '{}' (centiseconds)", s))?;
    Ok((cs > 0).then(|| Duration::from_millis(cs * 10)))
}

/// A comma-separated vertex list (`pass` allowed), as `avoid`/`allow` take it.
fn vertex_list(board: &Board, s: &str, key: &str) -> Result<Vec<Move>, String> {
    s.split(',')
        .map(|v| {
            parse_vertex(v, board)
                .map_err(|_| format!("syntax error: bad vertex '{}' in {} list", v, key))
        })
        .collect()
}

/// One report line: an `info` block per shown move, then the ownership if asked.
fn info_line(board: &Board, a: &Analysis, request: &Request, dialect: Dialect) -> String {
    let shown = a.shown(request.minmoves, request.maxmoves);
    let mut line = String::new();
    for (order, m) in shown.iter().enumerate() {
        if order > 0 {
            line.push(' ');
        }
        line.push_str(&info_block(board, m, order, dialect));
        if dialect == Dialect::Kata {
            let visits: Vec<String> = m.pv_visits.iter().map(|v| v.to_string()).collect();
            for (asked, key) in [
                (request.pv_visits, "pvVisits"),
                (request.pv_edge_visits, "pvEdgeVisits"),
            ] {
                if asked {
                    line.push_str(&format!(" {} {}", key, visits.join(" ")));
                }
            }
            if request.moves_ownership {
                push_values(&mut line, "movesOwnership", &m.ownership);
            }
        }
    }
    if request.root_info && dialect == Dialect::Kata {
        line.push_str(&format!(
            " rootInfo visits {} winrate {:.6} scoreMean {:.3} scoreLead {:.3}",
            a.root_visits, a.root_winrate, a.root_score_mean, a.root_score_lead
        ));
    }
    if dialect == Dialect::Kata {
        if request.ownership {
            push_values(&mut line, "ownership", &a.ownership);
        }
        if request.ownership_stdev {
            push_values(&mut line, "ownershipStdev", &a.ownership_stdev);
        }
    }
    line
}

/// ` key v v v …`, one value per point (nothing when there are none).
fn push_values(line: &mut String, key: &str, values: &[f32]) {
    if values.is_empty() {
        return;
    }
    line.push(' ');
    line.push_str(key);
    for v in values {
        line.push_str(&format!(" {:.4}", v));
    }
}

fn info_block(board: &Board, m: &MoveInfo, order: usize, dialect: Dialect) -> String {
    let pv: Vec<String> = m.pv.iter().map(|&mv| format_move(board, mv)).collect();
    let mv = format_move(board, m.mv);
    match dialect {
        Dialect::Lz => {
            let int = |x: f64| (x.clamp(0.0, 1.0) * 10000.0).round() as u32;
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                mv,
                m.visits,
                int(m.winrate),
                int(m.prior),
                int(m.lcb),
                order,
                pv.join(" ")
            )
        }
        Dialect::Kata => format!(
            "info move {} visits {} winrate {:.6} scoreMean {:.3} scoreLead {:.3} prior {:.6} \
             lcb {:.6} order {} pv {}",
            mv,
            m.visits,
            m.winrate,
            m.score_mean,
            m.score_lead,
            m.prior,
            m.lcb,
            order,
            pv.join(" ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str, dialect: Dialect) -> Result<Request, String> {
        let b = Board::new(19).unwrap();
        let words: Vec<&str> = args.split_whitespace().collect();
        parse_request(&b, Color::Black, &words, dialect)
    }

    #[test]
    fn arguments_in_every_form() {
        let r = parse("", Dialect::Lz).unwrap();
        assert_eq!((r.color, r.interval), (Color::Black, None));
        let r = parse("W 50", Dialect::Lz).unwrap();
        assert_eq!(
            (r.color, r.interval),
            (Color::White, Some(Duration::from_millis(500)))
        );
        let r = parse("25", Dialect::Lz).unwrap();
        assert_eq!(r.interval, Some(Duration::from_millis(250)));
        let r = parse(
            "b interval 10 minmoves 3 maxmoves 5 avoid w d4,q16,pass 2 allow b k10 1",
            Dialect::Kata,
        )
        .unwrap();
        assert_eq!((r.minmoves, r.maxmoves), (3, Some(5)));
        assert_eq!(r.filters.len(), 2);
        assert_eq!(r.filters[0].moves.len(), 3);
        assert!(!r.filters[0].allow && r.filters[1].allow);
        assert!(
            parse("b 10 ownership true", Dialect::Kata)
                .unwrap()
                .ownership
        );
    }

    #[test]
    fn bad_arguments_name_the_token() {
        let err = |a: &str, d| parse(a, d).unwrap_err();
        assert!(err("b 10 frobnicate", Dialect::Kata).contains("'frobnicate'"));
        assert!(err("b 10 ownership true", Dialect::Lz).contains("'ownership'"));
        assert!(err("b -5", Dialect::Lz).contains("'-5'"));
        assert!(err("b 1x", Dialect::Lz).contains("'1x'"));
        assert!(err("b minmoves", Dialect::Lz).contains("minmoves"));
        assert!(err("avoid b d4,z99 3", Dialect::Lz).contains("'z99'"));
        assert!(err("avoid x d4 3", Dialect::Lz).contains("'x'"));
        assert!(err("avoid b d4 0", Dialect::Lz).contains("depth"));
        assert!(err("avoid b d4 1 allow b q16 1", Dialect::Lz).contains("together"));
        assert!(err("allow w a1 2 allow w b2 2", Dialect::Kata).contains("twice"));
        assert!(parse("avoid w a1 2 avoid w b2 3", Dialect::Kata).is_ok());
        assert!(err("b 10 ownership maybe", Dialect::Kata).contains("'maybe'"));
        assert!(err("b 10 rootInfo true", Dialect::Lz).contains("'rootInfo'"));
        assert!(err("b 10 pvVisits yes", Dialect::Kata).contains("'yes'"));
        assert!(err("b 10 movesOwnership true", Dialect::Lz).contains("'movesOwnership'"));
        let r = parse("ownershipStdev true movesOwnership True", Dialect::Kata).unwrap();
        assert!(r.ownership_stdev && r.moves_ownership && !r.ownership);
        let r = parse(
            "rootInfo TRUE pvVisits true pvEdgeVisits false",
            Dialect::Kata,
        )
        .unwrap();
        assert!(r.root_info && r.pv_visits && !r.pv_edge_visits);
        assert!(err("b w", Dialect::Lz).contains("'w'"));
    }

    #[test]
    fn clear_cache_makes_the_next_search_start_afresh() {
        use crate::gtp::tests::ask;
        use crate::gtp::Options;
        let mut e = Engine::new(&Options {
            size: 9,
            search: crate::search::Config {
                threads: 1,
                visits: Some(300),
                ..crate::search::Config::default()
            },
            ..Options::default()
        })
        .unwrap();
        let text = |e: &mut Engine| {
            let r = ask(e, "tengen-top_moves");
            r[r.find("TEXT ").unwrap()..]
                .split(':')
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(text(&mut e), "TEXT 300 playouts, 300 visits");
        // The kept tree has the visits already.
        assert_eq!(text(&mut e), "TEXT 0 playouts, 300 visits");
        assert_eq!(ask(&mut e, "clear_cache"), "= \n\n");
        assert_eq!(text(&mut e), "TEXT 300 playouts, 300 visits");
    }

    #[test]
    fn info_lines_in_both_dialects() {
        let b = Board::new(9).unwrap();
        let (d4, e5) = (b.point(3, 5), b.point(4, 4));
        let a = Analysis {
            playouts: 30,
            moves: vec![
                MoveInfo {
                    mv: Move::Play(d4),
                    visits: 20,
                    winrate: 0.625,
                    playout_winrate: 0.6,
                    lcb: 0.5,
                    prior: 0.25,
                    score_lead: 2.5,
                    score_mean: 2.25,
                    score_stdev: 10.0,
                    utility: 0.3,
                    pv: vec![Move::Play(d4), Move::Play(e5)],
                    pv_visits: vec![20, 12],
                    ownership: vec![0.25; 81],
                },
                MoveInfo {
                    mv: Move::Play(e5),
                    visits: 0,
                    winrate: 1.0,
                    playout_winrate: 1.0,
                    lcb: 0.0,
                    prior: 0.5,
                    score_lead: 0.0,
                    score_mean: 0.0,
                    score_stdev: 10.0,
                    utility: 1.0,
                    pv: vec![Move::Play(e5)],
                    pv_visits: vec![0],
                    ownership: vec![-0.75; 81],
                },
            ],
            root_visits: 20,
            root_winrate: 0.625,
            root_score_lead: 2.5,
            root_score_mean: 3.0,
            root_lcb: 0.4,
            root_utility: 0.3,
            score_stdev: 10.0,
            score_mean: 2.0,
            ownership_playouts: 30,
            ownership: vec![0.5; 81],
            ownership_stdev: vec![0.125; 81],
        };
        let mut r = parse("", Dialect::Lz).unwrap();
        assert_eq!(
            info_line(&b, &a, &r, Dialect::Lz),
            "info move D4 visits 20 winrate 6250 prior 2500 lcb 5000 order 0 pv D4 E5"
        );
        r.minmoves = 2;
        r.ownership = true;
        let kata = info_line(&b, &a, &r, Dialect::Kata);
        assert!(kata.starts_with(
            "info move D4 visits 20 winrate 0.625000 scoreMean 2.250 scoreLead 2.500 \
             prior 0.250000 lcb 0.500000 order 0 pv D4 E5 info move E5 visits 0 winrate 1.000000"
        ));
        assert!(kata.contains("order 1 pv E5 ownership 0.5000 "));
        let owners = kata.split(" ownership ").nth(1).unwrap();
        assert_eq!(owners.split(' ').filter(|v| *v == "0.5000").count(), 81);
        r.ownership = false;
        r.root_info = true;
        r.pv_visits = true;
        r.pv_edge_visits = true;
        let kata = info_line(&b, &a, &r, Dialect::Kata);
        assert!(kata.contains("order 0 pv D4 E5 pvVisits 20 12 pvEdgeVisits 20 12 info move E5"));
        assert!(kata.ends_with(
            "pv E5 pvVisits 0 pvEdgeVisits 0 \
             rootInfo visits 20 winrate 0.625000 scoreMean 3.000 scoreLead 2.500"
        ));
        // Leela Zero's dialect has none of them.
        assert!(!info_line(&b, &a, &r, Dialect::Lz).contains("pvVisits"));
        // Each move's ownership after its pv and pv visits; the spread after the ownership.
        r.moves_ownership = true;
        r.ownership_stdev = true;
        r.ownership = true;
        let kata = info_line(&b, &a, &r, Dialect::Kata);
        let d4_owners = format!(" movesOwnership{} info move E5", " 0.2500".repeat(81));
        assert!(
            kata.contains(&format!("pvEdgeVisits 20 12{}", d4_owners)),
            "{}",
            kata
        );
        let e5_owners = format!(
            "pvEdgeVisits 0 movesOwnership{} rootInfo",
            " -0.7500".repeat(81)
        );
        assert!(kata.contains(&e5_owners), "{}", kata);
        assert!(kata.ends_with(&format!(
            "ownership{} ownershipStdev{}",
            " 0.5000".repeat(81),
            " 0.1250".repeat(81)
        )));
        assert!(!info_line(&b, &a, &r, Dialect::Lz).contains("wnership"));
    }
}
