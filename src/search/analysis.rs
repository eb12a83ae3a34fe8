//! What a search shows while it runs: per-move statistics, principal variations and ownership,
//! in the side to move's terms, for live analysis (`kata-analyze` and friends) and GoGui's
//! analysis commands; and what a controller may ask of a search while it runs (stop now, report
//! every so often, keep away from some moves).
//!
//! Both front ends, GTP's `kata-analyze` family and the JSON analysis engine, format this one
//! snapshot: every figure they show is computed here once, and which moves a report shows
//! ([`Analysis::shown`]) is decided here too, so the two never disagree.
//!
//! A snapshot only reads the tree's atomics, so it may be taken while workers are still adding
//! playouts; its numbers are then a few playouts out of step with each other, never torn.

use super::tree::Tree;
use crate::board::{Color, Move, CELLS};
use crate::rules::HalfPoints;
use std::time::Duration;

/// A restriction on the moves one colour may consider near the root, as `lz-analyze`'s `avoid`
/// and `allow` give it: during the first `until` plies of every line, `color` never plays one of
/// `moves` (avoid) or plays only those (allow).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveFilter {
    pub color: Color,
    pub moves: Vec<Move>,
    pub allow: bool,
    pub until: usize,
}

/// Move filters compiled for fast lookup during the search, with the list they came from.
#[derive(Clone, Default)]
pub(super) struct Filters {
    given: Vec<MoveFilter>,
    /// (colour, per-cell membership, pass listed, allow, until)
    list: Vec<(Color, Vec<bool>, bool, bool, usize)>,
}

impl Filters {
    pub(super) fn new(filters: &[MoveFilter]) -> Filters {
        let list = filters
            .iter()
            .map(|f| {
                let mut cells = vec![false; CELLS];
                let mut pass = false;
                for &m in &f.moves {
                    match m {
                        Move::Play(p) => cells[p.idx()] = true,
                        Move::Pass => pass = true,
                    }
                }
                (f.color, cells, pass, f.allow, f.until)
            })
            .collect();
        Filters {
            given: filters.to_vec(),
            list,
        }
    }

    /// The filters as the controller gave them.
    pub(super) fn given(&self) -> &[MoveFilter] {
        &self.given
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether `color` may play `mv` at `depth` plies below the root.
    #[inline]
    pub(super) fn permits(&self, color: Color, mv: Move, depth: usize) -> bool {
        self.list.iter().all(|(c, cells, pass, allow, until)| {
            if *c != color || depth >= *until {
                return true;
            }
            let listed = match mv {
                Move::Play(p) => cells[p.idx()],
                Move::Pass => *pass,
            };
            listed == *allow
        })
    }
}

/// Receives a snapshot of a running search.
pub type Reporter<'a> = &'a mut dyn FnMut(&Analysis);

/// What a controller asks of a running search besides its budget.
pub struct Watch<'a> {
    /// Asked every couple of milliseconds; `true` ends the search with what it has.
    pub interrupted: &'a dyn Fn() -> bool,
    /// Playouts to run before an interrupt is honoured, so that there is always something to
    /// show.
    pub min_playouts: u64,
    /// Called with a snapshot every `interval` while the search runs.
    pub progress: Option<(Duration, Reporter<'a>)>,
    /// Whether the snapshots show the ownership's standard deviation and each root move's
    /// ownership (KataGo's `ownershipStdev`, `movesOwnership`). The search then starts from a
    /// fresh tree, since they cover its own playouts only.
    pub ownership_detail: bool,
}

impl Watch<'_> {
    /// No interrupts, no reports.
    pub fn none() -> Watch<'static> {
        Watch {
            interrupted: &|| false,
            min_playouts: 0,
            progress: None,
            ownership_detail: false,
        }
    }
}

/// One root move as analysis shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    /// Playouts through the move whose outcome has arrived.
    pub visits: u32,
    /// The side to move's chance of winning the game after this move: the playouts' share of
    /// wins read as a real game's chance ([`calibrated_winrate`]); before any playout, the
    /// prior's estimate read the same way.
    pub winrate: f64,
    /// The playouts' own share of wins through the move (a draw counts half), as the search
    /// weighs it: what the engine's own decisions read.
    pub playout_winrate: f64,
    /// A lower confidence bound of the win rate (about two standard errors of the playouts'
    /// share below it, read as `winrate` is).
    pub lcb: f64,
    /// The move's share of the prior knowledge the search started with at the root.
    pub prior: f64,
    /// The side to move's lead in points after the move: the komi that would make the game
    /// even by the playouts through it, i.e. their final margins' median (KataGo's
    /// `scoreLead`), under the game's counting, komi and compensation included. Before any
    /// playout, as `score_mean`.
    pub score_lead: f64,
    /// The side to move's mean final margin over those playouts (KataGo's `scoreMean`); before
    /// any, the position's over all playouts.
    pub score_mean: f64,
    /// The standard deviation of the final margin over those playouts, in points (before
    /// any, the position's over all playouts).
    pub score_stdev: f64,
    /// The search's own value of the move for the side to move, in [−1, 1]: the win blended
    /// with a share of the margin as the search weighs them (`2·value − 1`; KataGo's
    /// `utility`). Before any playout, the prior's win rate on that scale.
    pub utility: f64,
    /// The most visited line from this move on, the move first.
    pub pv: Vec<Move>,
    /// The playouts through the position after each move of `pv` (a tree, so also the
    /// playouts along each move).
    pub pv_visits: Vec<u32>,
    /// Ownership over this search's playouts through the move, as [`Analysis::ownership`];
    /// empty unless the watch asked for the detail. A move without such playouts shows the
    /// position's, as its win rate shows the prior's.
    pub ownership: Vec<f32>,
}

/// A view of a search: the root moves best first and the board's expected owners.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub playouts: u64,
    /// Root moves, most visited first (then by prior).
    pub moves: Vec<MoveInfo>,
    /// Playouts in the tree below the root (this search's and those kept from earlier ones).
    pub root_visits: u64,
    /// The side to move's chance of winning over those playouts, as [`MoveInfo::winrate`].
    pub root_winrate: f64,
    /// The side to move's lead in the position: the most visited move's
    /// [`MoveInfo::score_lead`] once it has a playout's result, else the median over all
    /// playouts. Not the root's own median: that mixes in the moves the side would not play
    /// (about a point low on 9×9), and at a few dozen playouts it strays tens of points from
    /// every move's, so that a client reading `pointsLost` as root minus move (KaTrain) finds
    /// every move a blunder. On searches of thousands both agree with KataGo's lead alike
    /// (tests/MEASUREMENTS.md, "Score leads: estimates made of several root moves").
    pub root_score_lead: f64,
    /// The side to move's mean final margin over the playouts below the root.
    pub root_score_mean: f64,
    /// A lower confidence bound of `root_winrate`, as [`MoveInfo::lcb`].
    pub root_lcb: f64,
    /// The search's value over those playouts, as [`MoveInfo::utility`].
    pub root_utility: f64,
    /// The standard deviation of the final margin over all playouts, in points.
    pub score_stdev: f64,
    /// The side to move's mean final margin over all playouts, in points.
    pub score_mean: f64,
    /// The playouts behind `score_mean`, `root_score_lead` and `ownership`: this search's, and
    /// the earlier searches' of the same position when its tree was kept.
    pub ownership_playouts: u64,
    /// Ownership per point in `Board::points` order (top row first): +1 the side to move's,
    /// −1 the opponent's.
    pub ownership: Vec<f32>,
    /// The standard deviation of each point's owner over the playouts, in [0, 1], same order;
    /// empty unless the watch asked for the detail.
    pub ownership_stdev: Vec<f32>,
}

impl Analysis {
    /// Whether any root move has a playout's result to show.
    pub fn has_results(&self) -> bool {
        self.moves.iter().any(|m| m.visits > 0)
    }

    /// The moves a report shows: the visited ones best first (at most `maxmoves`), then
    /// unvisited ones by prior up to `minmoves`; at least the best move when there is one.
    pub fn shown(&self, minmoves: usize, maxmoves: Option<usize>) -> Vec<&MoveInfo> {
        let cap = maxmoves.unwrap_or(usize::MAX);
        let mut shown: Vec<&MoveInfo> = self
            .moves
            .iter()
            .filter(|m| m.visits > 0)
            .take(cap)
            .collect();
        let want = minmoves.min(cap).max(1);
        for m in self.moves.iter().filter(|m| m.visits == 0) {
            if shown.len() >= want {
                break;
            }
            shown.push(m);
        }
        shown
    }
}

/// The learned move patterns' probabilities for `color` to move in the game's position, in
/// `Board::points` order (top row first) then the pass: the model's share of each legal move
/// (superko included), −1 for an illegal one (KataGo's `policy` layout).
pub fn pattern_policy(game: &crate::game::Game, color: Color) -> Vec<f64> {
    let board = game.board();
    let mut candidates: Vec<Move> = board.points().map(Move::Play).collect();
    candidates.push(Move::Pass);
    let legal: Vec<bool> = candidates
        .iter()
        .map(|&mv| game.is_legal(color, mv))
        .collect();
    let moves: Vec<Move> = candidates
        .iter()
        .zip(&legal)
        .filter(|(_, &ok)| ok)
        .map(|(&mv, _)| mv)
        .collect();
    let mut gammas = vec![0.0f32; moves.len()];
    crate::patterns::Patterns::load().gammas(board, color, &moves, &mut gammas);
    let total: f64 = gammas.iter().map(|&g| g as f64).sum::<f64>().max(1e-30);
    let mut next = gammas.iter();
    legal
        .iter()
        .map(|&ok| {
            if ok {
                next.next().map_or(-1.0, |&g| g as f64 / total)
            } else {
                -1.0
            }
        })
        .collect()
}

/// The ownership a snapshot shows, Black's, in `Board::points` order: over all playouts, its
/// standard deviation, and per root move in the tree's order of the root's children (the last
/// two empty unless the search keeps them).
pub(super) struct OwnershipView {
    /// The playouts behind it.
    pub(super) playouts: u64,
    pub(super) black: Vec<f32>,
    pub(super) stdev: Vec<f32>,
    pub(super) by_move: Vec<Vec<f32>>,
    /// The final margin's standard deviation in points, over all playouts and per root move
    /// (same order; `None` for a move without playouts).
    pub(super) score_stdev: f64,
    pub(super) move_score_stdevs: Vec<Option<f64>>,
    /// Black's median margin in points, over all playouts and per root move (same order;
    /// `None` for a move without playouts, or outside a search).
    pub(super) score_median: Option<f64>,
    pub(super) move_score_medians: Vec<Option<f64>>,
}

/// The longest principal variation shown.
const PV_LENGTH: usize = 24;

/// A snapshot of the tree rooted at a position of a `size`×`size` board where `color` moves.
/// `score_offset` is added to Black's margins before they are shown: it takes out a komi that
/// only the search uses (dynamic komi). `mean_margin_black` is Black's mean margin in points
/// over all playouts.
pub(super) fn snapshot(
    tree: &Tree,
    size: usize,
    color: Color,
    score_offset: HalfPoints,
    playouts: u64,
    owners: &OwnershipView,
    mean_margin_black: f64,
) -> Analysis {
    // The side to move's view of Black's ownership.
    let own = |black: &[f32]| -> Vec<f32> {
        black
            .iter()
            .map(|&o| if color == Color::Black { o } else { -o })
            .collect()
    };
    let ownership = own(&owners.black);
    let offset = score_offset.as_f64();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let kids: Vec<u32> = tree.children(Tree::ROOT).collect();
    let prior_total: f64 = kids
        .iter()
        .map(|&c| tree.node(c).stats().prior_value)
        .sum::<f64>()
        .max(1e-9);
    let mut moves: Vec<MoveInfo> = kids
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let s = tree.node(c).stats();
            // Virtual losses in flight count a visit before its result: show the playouts whose
            // outcome has arrived.
            let n = s.outcomes;
            let (winrate, lcb, mean) = if n > 0 {
                let p = (s.wins / n as f64).clamp(0.0, 1.0);
                let mean = s.margin_sum / n as f64 + offset;
                (p, lower_bound(p, n as u64), sign * mean)
            } else {
                let p = s.prior_value / s.prior_visits.max(1) as f64;
                (p, 0.0, sign * (mean_margin_black + offset))
            };
            let lead = match owners.move_score_medians.get(k).copied().flatten() {
                Some(median) if n > 0 => sign * (median + offset),
                _ => mean,
            };
            let value = s.mean().unwrap_or(winrate).clamp(0.0, 1.0);
            let shown = |p: f64| calibrated_winrate(p, size);
            let score_stdev = owners
                .move_score_stdevs
                .get(k)
                .copied()
                .flatten()
                .unwrap_or(owners.score_stdev);
            let (pv, pv_visits) = principal_variation(tree, c);
            let move_ownership = match owners.by_move.get(k) {
                Some(black) if !black.is_empty() => own(black),
                Some(_) => ownership.clone(),
                None => Vec::new(),
            };
            MoveInfo {
                mv: tree.node(c).mv(),
                visits: n,
                winrate: shown(winrate),
                playout_winrate: winrate,
                lcb: shown(lcb),
                prior: s.prior_value / prior_total,
                score_lead: lead,
                score_mean: mean,
                score_stdev,
                utility: 2.0 * value - 1.0,
                pv,
                pv_visits,
                ownership: move_ownership,
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
            .then(b.prior.total_cmp(&a.prior))
    });
    // The root's figures over every playout below it, from the children's own sums.
    let (mut visits, mut wins, mut margins) = (0u64, 0.0, 0.0);
    let (mut valued, mut values) = (0u64, 0.0);
    for &c in &kids {
        let s = tree.node(c).stats();
        visits += s.outcomes as u64;
        wins += s.wins;
        margins += s.margin_sum;
        valued += s.visits as u64;
        values += s.value;
    }
    let (root_winrate, root_score_mean) = if visits > 0 {
        let n = visits as f64;
        ((wins / n).clamp(0.0, 1.0), sign * (margins / n + offset))
    } else {
        (0.5, sign * (mean_margin_black + offset))
    };
    let root_value = if valued > 0 {
        (values / valued as f64).clamp(0.0, 1.0)
    } else {
        root_winrate
    };
    let root_score_lead = match moves.first() {
        Some(best) if best.visits > 0 => best.score_lead,
        _ => owners
            .score_median
            .map_or(root_score_mean, |median| sign * (median + offset)),
    };
    Analysis {
        playouts,
        moves,
        root_visits: visits,
        root_winrate: calibrated_winrate(root_winrate, size),
        root_score_lead,
        root_score_mean,
        root_lcb: if visits > 0 {
            calibrated_winrate(lower_bound(root_winrate, visits), size)
        } else {
            0.0
        },
        root_utility: 2.0 * root_value - 1.0,
        score_stdev: owners.score_stdev,
        score_mean: sign * (mean_margin_black + offset),
        ownership,
        ownership_playouts: owners.playouts,
        ownership_stdev: owners.stdev.clone(),
    }
}

/// How much more decided a real game is than the playouts' share of wins says, by board size:
/// the share `p` is shown as `σ(k·logit p)`. The playouts' random moves blur every advantage, so
/// their share stays near one half where the game is already leaning. `tests/winrates.py` fits k
/// by least Brier score on the winners of real games, tengen at 2,000 visits
/// (tests/MEASUREMENTS.md, "Win rates against real outcomes"; the script's factor, run again,
/// multiplies these): on 19×19, 412 positions after 50, 100 and 150 moves of Debian's
/// goban-original-games professional records (2.33 on all, 2.09 and 2.60 on either half of the
/// records); on 9×9, 560 positions after 10 to 40 moves of 156 games of tengen's self-play at
/// 1,000 playouts a move (2.42; 2.21 and 2.70 on either half); on 13×13, 440 positions after 20
/// to 100 moves of 66 such games and of 40 between tengen and Pachi (2.82; 1.99 and 3.00). One
/// factor for both colours: the self-play games' winners also lean to Black (59–61% at komi
/// 7.5, where the network gives White the edge), a lean of the players or of their openings
/// (other self-play openings gave Black 46%), not of the position.
const WINRATE_SHARPNESS: [(usize, f64); 3] = [(9, 2.4), (13, 2.8), (19, 2.3)];

/// The factor k of [`WINRATE_SHARPNESS`] for a board side: measured on 9×9, 13×13 and 19×19,
/// read along straight lines between them and held at the ends beyond.
fn winrate_sharpness(size: usize) -> f64 {
    let table = &WINRATE_SHARPNESS;
    let (first, last) = (table[0], table[table.len() - 1]);
    if size <= first.0 {
        return first.1;
    }
    if size >= last.0 {
        return last.1;
    }
    let upper = table
        .iter()
        .position(|&(s, _)| s >= size)
        .unwrap_or(table.len() - 1);
    let (s0, k0) = table[upper - 1];
    let (s1, k1) = table[upper];
    k0 + (k1 - k0) * (size - s0) as f64 / (s1 - s0) as f64
}

/// The playouts' share of wins `share` on a `size`×`size` board read as the chance of winning
/// the game: a monotone map that keeps one half, a sure win and a sure loss where they are.
pub fn calibrated_winrate(share: f64, size: usize) -> f64 {
    let k = winrate_sharpness(size);
    if share <= 0.0 || share >= 1.0 {
        return share.clamp(0.0, 1.0);
    }
    let logit = (share / (1.0 - share)).ln();
    1.0 / (1.0 + (-k * logit).exp())
}

/// A win rate's lower confidence bound after `n` playouts: two standard errors and a
/// playout's worth below it, never below 0.
fn lower_bound(p: f64, n: u64) -> f64 {
    let se = (p * (1.0 - p) / n as f64).sqrt();
    (p - 2.0 * se - 1.0 / n as f64).max(0.0)
}

/// The line from node `start` (its move first) following the most visited child, with each
/// node's visits.
fn principal_variation(tree: &Tree, start: u32) -> (Vec<Move>, Vec<u32>) {
    let mut pv = vec![tree.node(start).mv()];
    let mut visits = vec![tree.node(start).visits()];
    let mut node = start;
    while pv.len() < PV_LENGTH {
        let Some(next) = tree
            .children(node)
            .filter(|&c| tree.node(c).visits() > 0)
            .max_by_key(|&c| tree.node(c).visits())
        else {
            break;
        };
        pv.push(tree.node(next).mv());
        visits.push(tree.node(next).visits());
        node = next;
    }
    (pv, visits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn filters_apply_to_their_colour_and_depth() {
        let b = Board::new(9).unwrap();
        let (d4, e5) = (Move::Play(b.point(3, 5)), Move::Play(b.point(4, 4)));
        let avoid = Filters::new(&[MoveFilter {
            color: Color::Black,
            moves: vec![d4],
            allow: false,
            until: 1,
        }]);
        assert!(!avoid.permits(Color::Black, d4, 0));
        assert!(avoid.permits(Color::Black, d4, 1));
        assert!(avoid.permits(Color::White, d4, 0));
        assert!(avoid.permits(Color::Black, e5, 0));
        let allow = Filters::new(&[MoveFilter {
            color: Color::White,
            moves: vec![e5],
            allow: true,
            until: 3,
        }]);
        assert!(allow.permits(Color::White, e5, 2));
        assert!(!allow.permits(Color::White, d4, 2));
        assert!(!allow.permits(Color::White, Move::Pass, 0));
        assert!(allow.permits(Color::White, d4, 3));
    }

    #[test]
    fn calibrated_win_rates_sharpen_by_board_size_keep_the_ends_and_the_middle() {
        // 19×19: a 60% share of the playouts is a 72% game (σ(2.3·logit 0.6)).
        let p = calibrated_winrate(0.6, 19);
        assert!((p - 0.7176).abs() < 1e-3, "{p}");
        assert!((calibrated_winrate(0.4, 19) - (1.0 - p)).abs() < 1e-12);
        assert_eq!(calibrated_winrate(0.5, 19), 0.5);
        assert_eq!(calibrated_winrate(0.0, 19), 0.0);
        assert_eq!(calibrated_winrate(1.0, 19), 1.0);
        let mut last = 0.0;
        for k in 1..100 {
            let q = calibrated_winrate(k as f64 / 100.0, 19);
            assert!(q > last);
            last = q;
        }
        // Each measured size has its own factor; sizes between are read between them and
        // sizes beyond the table take its nearest end.
        let at = |size| calibrated_winrate(0.6, size);
        assert!((at(9) - 0.7257).abs() < 1e-3, "{}", at(9));
        assert!((at(13) - 0.7568).abs() < 1e-3, "{}", at(13));
        assert_eq!(at(5), at(9));
        assert_eq!(at(25), at(19));
        let (k9, k13) = (winrate_sharpness(9), winrate_sharpness(13));
        assert!((winrate_sharpness(11) - (k9 + k13) / 2.0).abs() < 1e-12);
    }
}
