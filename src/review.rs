//! `tengen review`: a game record annotated move by move by the search, written back as SGF.
//!
//! Every position of the record's main line is searched once (one runner, so each search
//! starts from the subtree the previous one grew for the move actually played), for the side
//! that moves there, under the record's rules, komi and size, with the real komi (no dynamic
//! komi in handicap games). Move k is judged by two searches: the position before it (the
//! mover's best move, its win rate, its score lead and its principal variation) and the
//! position after it (what the move left). A move's loss is the mover's win rate with the best
//! move less the mover's win rate after the move played.
//!
//! Invariants: the record is read by [`crate::sgf`] (its main line for the positions, its whole
//! tree to write back), so a record `loadsgf` refuses is refused here with the same message and
//! nothing is written; everything the file held stays (other properties, variations, comments,
//! which the review's text follows); the review adds to the main line's nodes only `C` and `TR`
//! and, beside a move the search would not have played, one variation holding its line. Win
//! rates in the text are Black's throughout; score leads are the lead that makes the game even
//! by the playouts through the best move (their median final margin), komi included, as
//! `B+2.5` or `W+1.0`.

use crate::board::{Color, Move};
use crate::coords::format_move;
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::search::{Config, MoveInfo, Player, Watch};
use crate::sgf::{self, Property};
use std::time::Instant;

/// Moves of the principal variation written as a variation and in the comment.
pub const PV_MOVES: usize = 6;

/// Swings listed in the root comment and the summary.
pub const SWINGS: usize = 10;

/// How a review searches.
#[derive(Clone, Debug)]
pub struct ReviewConfig {
    /// The rules of a record without a ruleset tengen knows in `RU`.
    pub rules: Rules,
    /// The komi of a record without `KM` (else its rules' usual komi).
    pub komi: Option<HalfPoints>,
    /// The search of each position: threads, playouts or time, seed, memory.
    pub search: Config,
}

/// What the search said about one position: its side to move's best move and prospects.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub to_move: Color,
    pub best: Move,
    /// The side to move's win rate with the best move.
    pub winrate: f64,
    /// The side to move's lead, in points, through the best move ([`MoveInfo::score_lead`]).
    pub lead: f64,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    pub playouts: u64,
}

impl Verdict {
    fn from_search(to_move: Color, best: &MoveInfo, playouts: u64) -> Verdict {
        Verdict {
            to_move,
            best: best.mv,
            winrate: best.winrate,
            lead: best.score_lead,
            pv: best.pv.iter().copied().take(PV_MOVES).collect(),
            playouts,
        }
    }

    /// Black's win rate.
    fn black_winrate(&self) -> f64 {
        match self.to_move {
            Color::Black => self.winrate,
            Color::White => 1.0 - self.winrate,
        }
    }

    /// Black's lead in points.
    fn black_lead(&self) -> f64 {
        match self.to_move {
            Color::Black => self.lead,
            Color::White => -self.lead,
        }
    }

    /// `color`'s win rate.
    fn winrate_of(&self, color: Color) -> f64 {
        if color == self.to_move {
            self.winrate
        } else {
            1.0 - self.winrate
        }
    }
}

/// One move of the main line, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1-based, as the record counts its moves.
    pub number: usize,
    pub color: Color,
    pub played: Move,
    /// The position before the move, for the mover.
    pub before: Verdict,
    /// The position after it, for the side to move there.
    pub after: Verdict,
}

impl MoveReview {
    /// The mover's win rate lost against the best move (negative when the move did better than
    /// the search expected of its own choice).
    pub fn loss(&self) -> f64 {
        self.before.winrate - self.after.winrate_of(self.color)
    }
}

/// A finished review.
#[derive(Clone, Debug)]
pub struct Review {
    pub moves: Vec<MoveReview>,
    /// The annotated record.
    pub sgf: String,
    /// The moves that lost the mover the most win rate, largest first (indices into `moves`);
    /// only moves other than the search's own choice.
    pub swings: Vec<usize>,
    pub rules: Rules,
    pub komi: HalfPoints,
    pub size: usize,
    pub seconds: f64,
}

/// A lead as a score: `B+2.5`, `W+1.0`.
fn lead_text(black_lead: f64) -> String {
    if black_lead >= 0.0 {
        format!("B+{:.1}", black_lead)
    } else {
        format!("W+{:.1}", -black_lead)
    }
}

fn percent(p: f64) -> String {
    format!("{:.1}%", 100.0 * p)
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Reviews the record `text`: searches every position of its main line and returns the
/// annotated record with the figures. `progress(done, total)` is called after each search. A
/// record that cannot be read, or whose main line holds an illegal move, is refused with the
/// reader's message.
pub fn review(
    text: &str,
    config: &ReviewConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, String> {
    let start = Instant::now();
    // The main line first: the reader `loadsgf` uses, with its messages; then the whole tree.
    let line = sgf::main_line(text).map_err(|e| e.to_string())?;
    let mut tree = sgf::tree(text).map_err(|e| e.to_string())?;
    let nodes = tree.main_line();
    if nodes.len() != line.nodes.len() {
        return Err("the record's main line could not be read consistently".to_string());
    }
    // `--komi` only where the record has none.
    let komi = config.komi.filter(|_| line.nodes[0].get("KM").is_none());
    // The whole line is read once before any search, so that a record with an illegal move is
    // refused at once.
    let mut whole = sgf::read_main_line(&line, config.rules, None)
        .map_err(|e| e.to_string())?
        .game;
    if let Some(k) = komi {
        whole.set_komi(k);
    }
    // The moves in record order, each with its main-line node (a node may hold two).
    let board = whole.board().clone();
    let mut played: Vec<(usize, Color, Move)> = Vec::new();
    for (k, &node) in nodes.iter().enumerate() {
        for (id, values) in &line.nodes[k].props {
            let color = match *id {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let value = values.first().map_or("", |v| v.as_str());
            let mv = sgf::parse_point(value, &board)
                .map_err(|e| e.to_string())?
                .map_or(Move::Pass, Move::Play);
            played.push((node, color, mv));
        }
    }

    // Every position searched in one replay of the line: the position before each move, then
    // the last one.
    let mut player = Player::new(config.search.clone());
    let limits = player.move_budget();
    let total = played.len() + 1;
    let mut verdicts: Vec<Option<Verdict>> = Vec::with_capacity(total);
    let mut judge = |game: &Game, to_move: Color| {
        let analysis = player.analyse_watched(game, to_move, limits, &[], &mut Watch::none());
        verdicts.push(
            analysis
                .moves
                .first()
                .map(|best| Verdict::from_search(to_move, best, analysis.playouts)),
        );
        progress(verdicts.len(), total);
    };
    sgf::replay_main_line(&line, config.rules, &mut |game, to_move| {
        if let Some(k) = komi {
            game.set_komi(k);
        }
        judge(game, to_move);
    })
    .map_err(|e| e.to_string())?;
    judge(&whole, whole.to_move());
    if verdicts.len() != total {
        return Err("the record's moves could not be replayed consistently".to_string());
    }

    let mut moves = Vec::new();
    for (k, &(_, color, mv)) in played.iter().enumerate() {
        if let (Some(before), Some(after)) = (&verdicts[k], &verdicts[k + 1]) {
            moves.push(MoveReview {
                number: k + 1,
                color,
                played: mv,
                before: before.clone(),
                after: after.clone(),
            });
        }
    }
    // A move the search would have played itself is no swing by its judgement, whatever the
    // noise between the two searches says.
    let mut swings: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].loss() > 0.0 && moves[i].played != moves[i].before.best)
        .collect();
    swings.sort_by(|&a, &b| moves[b].loss().total_cmp(&moves[a].loss()).then(a.cmp(&b)));
    swings.truncate(SWINGS);

    // The comments, marks and variations, node by node. Per tree node: how many moves it
    // holds, and its main-line predecessor.
    let mut moves_in = vec![0usize; tree.nodes.len()];
    for p in &played {
        moves_in[p.0] += 1;
    }
    let mut parent_of = vec![None; tree.nodes.len()];
    for pair in nodes.windows(2) {
        parent_of[pair[1]] = Some(pair[0]);
    }
    for m in &moves {
        let node = played[m.number - 1].0;
        let shared = moves_in[node] > 1;
        let text = move_comment(&board, m);
        append_comment(&mut tree.nodes[node], &text);
        if m.before.best != m.played {
            if let Move::Play(p) = m.before.best {
                let mut marks = tree.nodes[node].get("TR").unwrap_or(&[]).to_vec();
                let at = sgf::point_letters(&board, p);
                if !marks.contains(&at) {
                    marks.push(at);
                }
                tree.nodes[node].set("TR", marks);
            }
            // The variation branches where the move was chosen: beside the move's node, from
            // its parent (a node holding two moves gets none: it has no position between them).
            if let (Some(parent), false) = (parent_of[node], shared) {
                add_variation(&mut tree, parent, &board, m);
            }
        }
    }
    let (rules, komi, size) = (*whole.rules(), whole.komi(), board.size());
    let summary = summary(&board, &moves, &swings, rules, komi, &config.search);
    append_comment(&mut tree.nodes[0], &summary);
    Ok(Review {
        moves,
        sgf: tree.write(),
        swings,
        rules,
        komi,
        size,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Adds `text` to a node's comment, after what it held.
fn append_comment(node: &mut sgf::TreeNode, text: &str) {
    let comment = match node.get("C").and_then(|v| v.first()) {
        Some(old) if !old.trim().is_empty() => format!("{}\n\n{}", old.trim_end(), text),
        _ => text.to_string(),
    };
    node.set("C", vec![comment]);
}

/// A move's comment: Black's win rate and the lead after it, the best move with its figures,
/// the mover's loss and the variation.
fn move_comment(board: &crate::board::Board, m: &MoveReview) -> String {
    let mv = |x: Move| format_move(board, x);
    let mut text = format!(
        "tengen: move {} ({} {}): Black's win rate {}, score {}",
        m.number,
        m.color.letter(),
        mv(m.played),
        percent(m.after.black_winrate()),
        lead_text(m.after.black_lead())
    );
    if m.before.best == m.played {
        text.push_str(&format!("\nBest move: {} (this move)", mv(m.played)));
    } else {
        text.push_str(&format!(
            "\nBest move: {} (Black's win rate {}, score {}); {} lost {} of win rate",
            mv(m.before.best),
            percent(m.before.black_winrate()),
            lead_text(m.before.black_lead()),
            color_name(m.color),
            percent(m.loss().max(0.0))
        ));
    }
    let pv: Vec<String> = m.before.pv.iter().map(|&x| mv(x)).collect();
    text.push_str(&format!("\nVariation: {}", pv.join(" ")));
    text
}

/// The best move's line as a variation beside the move played, starting from `parent`.
fn add_variation(tree: &mut sgf::Tree, parent: usize, board: &crate::board::Board, m: &MoveReview) {
    let mut at = parent;
    let mut color = m.color;
    for (i, &x) in m.before.pv.iter().enumerate() {
        let value = match x {
            Move::Pass => String::new(),
            Move::Play(p) => sgf::point_letters(board, p),
        };
        let mut props = vec![Property {
            id: color.letter().to_string(),
            values: vec![value],
        }];
        if i == 0 {
            props.push(Property {
                id: "C".to_string(),
                values: vec![format!(
                    "tengen's variation for move {}: Black's win rate {}, score {}",
                    m.number,
                    percent(m.before.black_winrate()),
                    lead_text(m.before.black_lead())
                )],
            });
        }
        at = tree.add_child(at, props);
        color = color.opponent();
    }
}

/// The root comment: what was searched, how to read the figures, and the biggest swings.
fn summary(
    board: &crate::board::Board,
    moves: &[MoveReview],
    swings: &[usize],
    rules: Rules,
    komi: HalfPoints,
    search: &Config,
) -> String {
    let budget = match (search.playouts, search.visits, search.time) {
        (Some(n), _, _) => format!("{} playouts", n),
        (None, Some(n), _) => format!("{} visits", n),
        (None, None, Some(t)) => format!("{} s", t.as_secs_f64()),
        (None, None, None) => format!("{} s", crate::search::DEFAULT_MOVE_TIME.as_secs_f64()),
    };
    let mut text = format!(
        "tengen {} review: {} moves, {} a position, {} rules, komi {}.\n\
         Win rates are Black's; a score is the median final margin of the search's playouts \
         (komi included): the komi that would make the game even.",
        env!("CARGO_PKG_VERSION"),
        moves.len(),
        budget,
        rules.name,
        komi
    );
    text.push_str(&format!("\n{}", swings_text(board, moves, swings)));
    text
}

/// The biggest swings as lines of text, the heading first.
pub fn swings_text(board: &crate::board::Board, moves: &[MoveReview], swings: &[usize]) -> String {
    if swings.is_empty() {
        return "Biggest swings: none (no move lost win rate)".to_string();
    }
    let mut text = "Biggest swings (win rate the mover lost):".to_string();
    for (rank, &i) in swings.iter().enumerate() {
        let m = &moves[i];
        text.push_str(&format!(
            "\n{}. move {} ({} {}): {} lost {} (best {})",
            rank + 1,
            m.number,
            m.color.letter(),
            format_move(board, m.played),
            color_name(m.color),
            percent(m.loss()),
            format_move(board, m.before.best)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ReviewConfig {
        ReviewConfig {
            rules: Rules::chinese(),
            komi: None,
            search: Config {
                threads: 1,
                playouts: Some(40),
                seed: Some(3),
                max_memory_mb: 16,
                ..Config::default()
            },
        }
    }

    #[test]
    fn every_move_is_judged_and_the_record_kept() {
        let text = "(;GM[1]SZ[9]KM[7]RU[Japanese]PB[x]AB[cc]AW[gg]C[old]\
                    ;B[ee];W[ce](;B[dc];W[];B[ec])(;B[aa]))";
        let mut calls = 0;
        let r = review(text, &config(), &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        })
        .unwrap();
        assert_eq!((calls, r.moves.len()), (6, 5));
        assert_eq!(
            (r.rules.name, r.komi, r.size),
            ("japanese", HalfPoints(14), 9)
        );
        let tree = sgf::tree(&r.sgf).unwrap();
        let root = &tree.nodes[0];
        assert_eq!(root.get("PB").unwrap(), ["x"]);
        let comment = &root.get("C").unwrap()[0];
        assert!(comment.starts_with("old\n\ntengen"), "{}", comment);
        assert!(comment.contains("Biggest swings"), "{}", comment);
        let line = tree.main_line();
        assert_eq!(line.len(), 6);
        for &n in &line[1..] {
            let c = &tree.nodes[n].get("C").unwrap()[0];
            assert!(
                c.contains("Black's win rate") && c.contains("Best move"),
                "{}",
                c
            );
        }
        // The record's own variation is still there, after the main line.
        assert!(tree
            .nodes
            .iter()
            .any(|n| n.get("B").is_some_and(|v| v[0] == "aa")));
        // The reviewed record loads as the original's game.
        let a = sgf::load(text, Rules::chinese(), None).unwrap();
        let b = sgf::load(&r.sgf, Rules::chinese(), None).unwrap();
        assert_eq!(a.board(), b.board());
    }

    #[test]
    fn broken_records_are_refused() {
        for bad in [
            "",
            "(;SZ[9];B[ee];W[ee])",
            "(;SZ[30])",
            "(;SZ[9];B[zz])",
            "(;GM[2])",
        ] {
            assert!(review(bad, &config(), &mut |_, _| {}).is_err(), "{:?}", bad);
        }
    }
}
