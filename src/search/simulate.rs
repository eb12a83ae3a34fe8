//! One simulation: descend the tree from the root, expand a leaf, play the game out, count it
//! and back the value up.
//!
//! [`Root`] holds everything a worker needs to know about the search's position and terms,
//! read-only while the search runs; [`Scratch`] is one worker's own space. Values are Black's
//! until [`back_up`] turns them to each node's mover. All first plays of a simulation (tree and
//! playout) are noted per point for the AMAF statistics, each result weighted by how soon after
//! the node the move came ([`amaf_units`]); they in turn give the playout its pool of moves the
//! tree has found good ([`fill_pool`]).

use super::analysis::{Filters, MoveFilter};
use super::ownership::OwnershipSums;
use super::playout;
use super::policy::{self, MovePool, POOL_SIZE};
use super::prior;
use super::tree::{NewChild, Outcome, Tree, AMAF_UNIT};
use crate::board::{Board, Color, Move, Point, CELLS};
use crate::game::Game;
use crate::patterns::Patterns;
use crate::rules::{HalfPoints, Rules, Scoring};
use crate::score;

/// Everything a worker needs to know about the root, read-only during a search.
pub(super) struct Root {
    pub(super) board: Board,
    pub(super) color: Color,
    rules: Rules,
    /// Komi plus handicap compensation (and dynamic komi), added to White.
    compensation: HalfPoints,
    /// Territory rules: stones Black has played minus stones White has (setup and handicap
    /// included) at the root; the playout adds its own.
    stone_balance: i32,
    move_number: usize,
    passes: u8,
    expand_at: u32,
    equivalence: f64,
    /// The root's legal moves: its children.
    pub(super) root_moves: Vec<Move>,
    /// Stones counted as dead when a line ends with two passes in the tree: the colour of the
    /// dead stone on each point (so a stone played there later is not lifted); empty: all
    /// stones alive, the count as the board stands.
    dead: Vec<Option<Color>>,
    /// Whether the root is in the pre-judgement opening: colours are not assigned yet, so a
    /// placement is worth what it leaves for both, a close game (the predictions then set the
    /// threshold), not a lead for one colour.
    balance: bool,
    /// Dynamic komi the search plays by in a handicap game, included in `compensation`; taken
    /// out again of the scores it shows.
    pub(super) extra_komi: HalfPoints,
    /// Moves the controller asked the search to avoid or keep to near the root.
    pub(super) filters: Filters,
    /// The share of a value given by the margin (see [`Root::value_of_area`]).
    score_weight: f64,
    /// Whether two passes in the tree end a line with the count of the board as it stands
    /// (the game's rule); otherwise a playout takes it on, capturing what is dead.
    passes_end: bool,
    /// AMAF results weighted by how soon the move came ([`amaf_units`]); whole otherwise.
    amaf_weighted: bool,
}

impl Root {
    pub(super) fn new(
        game: &Game,
        color: Color,
        root_moves: Vec<Move>,
        dead: &[Point],
        extra_komi: HalfPoints,
        filters: &[MoveFilter],
    ) -> Root {
        // The record's rules: a pre-judgement position set up from stones has no opening left.
        let rules = game.record_rules();
        let filters = Filters::new(filters);
        // The root keeps to the filters too, unless they leave it nothing to play.
        let filtered: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|&mv| filters.permits(color, mv, 0))
            .collect();
        let root_moves = if filtered.is_empty() {
            root_moves
        } else {
            filtered
        };
        let compensation =
            game.komi() + extra_komi + rules.handicap_bonus.points(game.handicap().len());
        let stone_balance = if rules.scoring == Scoring::Territory {
            let on_board = |c| {
                game.board()
                    .points()
                    .filter(|&p| game.board().color(p) == Some(c))
                    .count() as i32
            };
            // Stones played = stones on the board + stones lost as prisoners.
            (on_board(Color::Black) + game.prisoners(Color::White) as i32)
                - (on_board(Color::White) + game.prisoners(Color::Black) as i32)
        } else {
            0
        };
        let size = game.board().size();
        Root {
            board: game.board().clone(),
            color,
            rules,
            compensation,
            stone_balance,
            move_number: game.move_number(),
            passes: game.consecutive_passes(),
            // At least 2: a node is expanded on its second visit at the earliest, so that one
            // descent expands one node. Expanding on the first would expand every node it
            // reaches, and on the smallest boards, where captures and passes under basic ko can
            // go round for ever, one simulation would fill the whole tree.
            expand_at: (1 + size as u32 / 4).max(2),
            // The visits at which a child's own value weighs as much as its AMAF value. On 9×9,
            // 6,000 beat 3,000 under the SPRT at 1,000 playouts a move and was level at 3,000
            // and 5,000 (tests/MEASUREMENTS.md, "The RAVE equivalence on 9×9" and below).
            equivalence: if size <= 9 { 6000.0 } else { 4000.0 },
            root_moves,
            balance: rules.komi_from_predictions && rules.in_opening(game.move_number()),
            extra_komi,
            filters,
            score_weight: super::DEFAULT_SCORE_WEIGHT,
            passes_end: true,
            amaf_weighted: true,
            dead: if dead.is_empty() {
                Vec::new()
            } else {
                let mut mask = vec![None; CELLS];
                for &p in dead {
                    mask[p.idx()] = game.board().color(p);
                }
                mask
            },
        }
    }

    /// The root with `weight` as the margin's share of every value (see
    /// [`Root::value_of_area`]).
    pub(super) fn with_score_weight(self, weight: f64) -> Root {
        Root {
            score_weight: weight.clamp(0.0, 1.0),
            ..self
        }
    }

    /// The root with lines that go on after two passes in the tree, by a playout: for the
    /// judgement of a finished position, whose dead stones the count as it stands would keep.
    pub(super) fn played_out_after_passes(self) -> Root {
        Root {
            passes_end: false,
            ..self
        }
    }

    /// The root with every AMAF result counted as one visit: the judgement's search, whose
    /// reading of dead stones the held-out counting corpus was checked against with it.
    pub(super) fn with_whole_amaf(self) -> Root {
        Root {
            amaf_weighted: false,
            ..self
        }
    }

    /// Black's value of a line that ended with two passes in the tree: the board as it stands,
    /// with the root's surely dead stones lifted.
    fn terminal_value(&self, board: &Board, stone_diff: i32, expected: f64) -> (f64, HalfPoints) {
        let area = score::area_margin_with_dead(board, &self.dead);
        self.value_of_area(board, area, stone_diff, expected)
    }

    /// Black's value of a finished line, and Black's margin, compensation included. The value
    /// is the win (½ for a draw) mixed with a share ([`Root::score_weight`]) of how the margin
    /// compares with `expected`, the mean margin of the search so far: `2/π · atan(Δ / size)`,
    /// which saturates a few board widths away. Centred on the expected margin rather than on
    /// zero, it keeps a slope when every line wins or every line loses by far more than the
    /// board's width (a search that sees every line lose by 150 points still tells giving a
    /// group away from saving it), and it never outweighs a change in who wins.
    #[inline]
    fn value_of_area(
        &self,
        board: &Board,
        area: i32,
        stone_diff: i32,
        expected: f64,
    ) -> (f64, HalfPoints) {
        let mut margin = HalfPoints::points(area) - self.compensation;
        if self.rules.scoring == Scoring::Territory {
            margin = margin - HalfPoints::points(self.stone_balance + stone_diff);
        }
        let win = match Outcome::of_margin(margin) {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
        };
        let points = score_utility(margin.as_f64() - expected, board.size());
        let w = self.score_weight;
        ((1.0 - w) * win + w * (0.5 + 0.5 * points), margin)
    }

    /// The children to create under a node where `color` moves with `board`, `depth` plies below
    /// the root, with their priors: the tactical reading of [`prior::PriorContext`] and the
    /// learned patterns' probability of each move.
    fn children(&self, board: &Board, color: Color, depth: usize, at_root: bool) -> Vec<NewChild> {
        let moves: Vec<Move> = if at_root {
            self.root_moves.clone()
        } else {
            let filtered = !self.filters.is_empty();
            let mut moves: Vec<Move> = board
                .empty_points()
                .iter()
                .copied()
                .filter(|&p| {
                    prior::worth_trying(board, p, color)
                        && (!filtered || self.filters.permits(color, Move::Play(p), depth))
                })
                .map(Move::Play)
                .collect();
            if self.rules.pass_allowed(self.move_number + depth)
                && (!filtered || self.filters.permits(color, Move::Pass, depth))
            {
                moves.push(Move::Pass);
            }
            moves
        };
        let context = prior::PriorContext::new(board, color);
        // The patterns learned from strong players' games know nothing of when a pass ends the
        // game here: only stones get their probability, among the stones.
        let mut gammas = vec![0f32; moves.len()];
        Patterns::load().gammas(board, color, &moves, &mut gammas);
        for (g, mv) in gammas.iter_mut().zip(&moves) {
            if *mv == Move::Pass {
                *g = 0.0;
            }
        }
        let total: f32 = gammas.iter().sum::<f32>().max(f32::MIN_POSITIVE);
        moves
            .iter()
            .zip(&gammas)
            .map(|(&mv, &gamma)| {
                let p = context.prior(board, mv);
                let p = match mv {
                    Move::Play(_) => p.with_pattern(gamma / total),
                    Move::Pass => p,
                };
                NewChild {
                    mv,
                    prior_visits: p.visits,
                    prior_value: p.value,
                }
            })
            .collect()
    }
}

/// The margin's part of a value, in (−1, 1): `2/π · atan(delta / size)` for a margin `delta`
/// points above the expected one on a board of side `size`.
#[inline]
fn score_utility(delta: f64, size: usize) -> f64 {
    std::f64::consts::FRAC_2_PI * (delta / size as f64).atan()
}

/// For AMAF: per point, the generation, colour and move index of the simulation's first play
/// there. A point's entry counts only when its generation is the current simulation's.
struct FirstPlays {
    generation: Vec<u32>,
    color: Vec<u8>,
    index: Vec<u16>,
    current: u32,
}

impl FirstPlays {
    fn new() -> FirstPlays {
        FirstPlays {
            generation: vec![0; CELLS],
            color: vec![0; CELLS],
            index: vec![0; CELLS],
            current: 0,
        }
    }

    /// Starts a new simulation: every earlier note is forgotten.
    fn next(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.generation.iter_mut().for_each(|g| *g = 0);
            self.current = 1;
        }
    }

    #[inline]
    fn note(&mut self, p: Point, c: Color, index: usize) {
        let i = p.idx();
        if self.generation[i] != self.current {
            self.generation[i] = self.current;
            self.color[i] = c as u8;
            self.index[i] = index.min(u16::MAX as usize) as u16;
        }
    }

    /// The move index of `c`'s first play at `p` in this simulation, if at `from` or later.
    #[inline]
    fn first_play(&self, p: Point, c: Color, from: usize) -> Option<usize> {
        let i = p.idx();
        (self.generation[i] == self.current
            && self.color[i] == c as u8
            && self.index[i] as usize >= from)
            .then_some(self.index[i] as usize)
    }
}

/// The weight, in [`AMAF_UNIT`]s, of an AMAF result for a move played `after` moves after the
/// node's own, in a simulation that went on for `span` moves after it: twice a full visit for
/// the move right after, down to a quarter at the end (Pachi's distance-weighted AMAF). A move
/// played soon after the node is more nearly the move the node's child plays; one near the
/// end of the playout was played on a board that has little in common with the node's.
#[inline]
fn amaf_units(after: usize, span: usize) -> u64 {
    let t = (after as f64 / span.max(1) as f64).min(1.0);
    2 * AMAF_UNIT - (7.0 * t) as u64
}

/// Scratch space of one worker.
pub(super) struct Scratch {
    rng: fastrand::Rng,
    path: Vec<u32>,
    first: FirstPlays,
    /// The simulation's board, copied from the root's at the start of each.
    board: Board,
    /// The simulation's pool of good moves for the playout.
    pool: MovePool,
    /// The simulation's length: the moves of its path and of its playout.
    length: usize,
}

impl Scratch {
    pub(super) fn new(seed: u64, root: &Root) -> Scratch {
        Scratch {
            rng: fastrand::Rng::with_seed(seed),
            path: Vec::with_capacity(64),
            first: FirstPlays::new(),
            board: root.board.clone(),
            pool: MovePool::default(),
            length: 0,
        }
    }
}

/// MC-RAVE selection: the child with the best blend of its value and its AMAF value.
#[inline]
fn select(tree: &Tree, node: u32, equivalence: f64) -> Option<u32> {
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for c in tree.children(node) {
        let s = tree.node(c).stats();
        let n = s.visits as f64 + s.prior_visits as f64;
        let w = s.value + s.prior_value;
        let q = if n > 0.0 { w / n } else { 1.0 };
        let score = if s.amaf_visits > 0.0 {
            let an = s.amaf_visits;
            let qa = s.amaf_value / an;
            let beta = an / (an + n + n * an / equivalence);
            (1.0 - beta) * q + beta * qa
        } else {
            q
        };
        if score > best_score {
            best_score = score;
            best = Some(c);
        }
    }
    best
}

/// One simulation: descend, expand, play out, back up.
pub(super) fn run_one(tree: &Tree, root: &Root, s: &mut Scratch, ownership: &mut OwnershipSums) {
    s.first.next();
    let board = &mut s.board;
    board.copy_from(&root.board);
    let mut color = root.color;
    let mut node = Tree::ROOT;
    s.path.clear();
    s.path.push(node);
    tree.node(node).add_visit();
    let mut depth = 0usize;
    let mut passes = root.passes;
    let mut stone_diff = 0i32;
    loop {
        let n = tree.node(node);
        if !n.is_expanded() {
            let ready = node == Tree::ROOT || n.visits() >= root.expand_at;
            if !(ready && !tree.is_full() && tree.try_begin_expand(node)) {
                break;
            }
            let kids = root.children(board, color, depth, node == Tree::ROOT);
            if kids.is_empty() || !tree.finish_expand(node, &kids) {
                break;
            }
        }
        let Some(child) = select(tree, node, root.equivalence) else {
            break;
        };
        tree.node(child).add_visit();
        s.path.push(child);
        match tree.node(child).mv() {
            Move::Pass => {
                board.pass();
                passes += 1;
            }
            Move::Play(p) => {
                s.first.note(p, color, depth);
                board.play(p, color);
                stone_diff += if color == Color::Black { 1 } else { -1 };
                passes = 0;
            }
        }
        color = color.opponent();
        node = child;
        depth += 1;
        if passes >= 2 && root.passes_end {
            break;
        }
    }
    // The margin the search expects so far: Black's mean over the root's playouts.
    let expected = tree.root().mean_margin().unwrap_or(0.0);
    // The root move this simulation went through, for the per-move margins and detail.
    let root_move = if ownership.tracks_root_moves() {
        let first = tree.children(Tree::ROOT).start;
        s.path.get(1).map(|&c| (c - first) as usize)
    } else {
        None
    };
    let mut length = depth;
    let (black, margin) = if passes >= 2 && root.passes_end {
        ownership.add_through(board, root_move);
        root.terminal_value(board, stone_diff, expected)
    } else {
        fill_pool(tree, root.color, &s.path, &mut s.pool);
        let pool = &s.pool;
        // The playout's first plays are noted too, for AMAF.
        let first = &mut s.first;
        let out = playout::play_out(
            board,
            color,
            &mut s.rng,
            |b, c, rng| policy::pooled_move(b, c, rng, pool),
            true,
            |p, c, i| first.note(p, c, depth + i as usize),
        );
        length += out.moves as usize;
        let area = ownership.add_through(board, root_move);
        root.value_of_area(board, area, stone_diff + out.stone_balance, expected)
    };
    s.length = length;
    ownership.add_margin(margin, root_move);
    if root.balance {
        // Both sides value the same thing: how close the game is.
        let scale = (root.board.size() * root.board.size()) as f64 / 4.0;
        let balance = 1.0 - (margin.as_f64().abs() / scale).min(1.0);
        back_up(tree, root, s, balance, true, margin);
    } else {
        back_up(tree, root, s, black, false, margin);
    }
}

/// The visits a node needs before its children's AMAF values are trusted for the pool.
const POOL_NODE_VISITS: u32 = 50;

/// The AMAF visits (weighted) a child needs to enter the pool.
const POOL_MOVE_AMAF: f64 = 10.0;

/// PoolRAVE (Rimmel, Teytaud, Lee, Yen, Wang and Tsai, 2010): fills `pool`, for each colour,
/// with the [`POOL_SIZE`] moves of best AMAF value among the children of the deepest node of
/// `path` where that colour moves and which has [`POOL_NODE_VISITS`] visits. The tree's
/// knowledge of which moves are good somewhere in the line thus reaches the playout, where it
/// goes on beyond the tree. A colour with no such node gets an empty pool.
fn fill_pool(tree: &Tree, root_color: Color, path: &[u32], pool: &mut MovePool) {
    for color in [Color::Black, Color::White] {
        pool.clear(color);
        // The root's children are the root colour's moves: its nodes are at even depths.
        let first = usize::from(color != root_color);
        let Some(&node) = path
            .iter()
            .skip(first)
            .step_by(2)
            .rev()
            .find(|&&i| tree.node(i).visits() >= POOL_NODE_VISITS)
        else {
            continue;
        };
        // The best moves so far, by AMAF mean, best first.
        let mut best = [(0f64, Point::NONE); POOL_SIZE];
        let mut n = 0;
        for c in tree.children(node) {
            let child = tree.node(c);
            let Move::Play(p) = child.mv() else {
                continue;
            };
            let (visits, value) = child.amaf();
            if visits < POOL_MOVE_AMAF {
                continue;
            }
            let mean = value / visits;
            if n == POOL_SIZE && mean <= best[n - 1].0 {
                continue;
            }
            let mut k = n.min(POOL_SIZE - 1);
            while k > 0 && best[k - 1].0 < mean {
                best[k] = best[k - 1];
                k -= 1;
            }
            best[k] = (mean, p);
            n = (n + 1).min(POOL_SIZE);
        }
        for &(_, p) in &best[..n] {
            pool.push(color, p);
        }
    }
}

/// Adds a simulation's value to the nodes of its path and to the AMAF statistics of their
/// children. With `shared`, `black` is a value both sides hold (the opening's balance) rather
/// than Black's.
fn back_up(tree: &Tree, root: &Root, s: &Scratch, black: f64, shared: bool, margin: HalfPoints) {
    // Black's result, for analysis: by the margin (in the opening, where nobody has a colour
    // yet, the shared balance stands in for it).
    let black_outcome = if shared {
        Outcome::nearest(black)
    } else {
        Outcome::of_margin(margin)
    };
    // A node's value is for the player who made its move.
    for (d, &i) in s.path.iter().enumerate() {
        let mover = if d % 2 == 1 {
            root.color
        } else {
            root.color.opponent()
        };
        let for_black = mover == Color::Black || shared;
        let v = if for_black { black } else { 1.0 - black };
        tree.node(i).add_value(v);
        let outcome = if for_black {
            black_outcome
        } else {
            black_outcome.reversed()
        };
        tree.node(i).add_outcome(outcome, margin);
        // AMAF: children of this node whose move the child's mover played first, later on,
        // weighted by how soon.
        let child_mover = mover.opponent();
        let cv = if shared { v } else { 1.0 - v };
        let span = s.length.saturating_sub(d);
        for c in tree.children(i) {
            if let Move::Play(p) = tree.node(c).mv() {
                if let Some(k) = s.first.first_play(p, child_mover, d) {
                    if root.amaf_weighted {
                        tree.node(c).add_amaf(cv, amaf_units(k - d, span));
                    } else {
                        tree.node(c).add_whole_amaf(cv);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn root(size: usize) -> (Root, Board) {
        let g = Game::new(size, Rules::chinese()).unwrap();
        let root = Root::new(
            &g,
            Color::Black,
            vec![Move::Pass],
            &[],
            HalfPoints::ZERO,
            &[],
        );
        (root, g.board().clone())
    }

    /// A root with children on `points`, each with `amaf` AMAF visits of value `means[i]`.
    fn tree_with_amaf(b: &Board, points: &[(usize, usize)], means: &[f64], amaf: u32) -> Tree {
        let tree = Tree::new(1024);
        let kids: Vec<NewChild> = points
            .iter()
            .map(|&(x, y)| NewChild {
                mv: Move::Play(b.point(x, y)),
                prior_visits: 0,
                prior_value: 0.0,
            })
            .chain(std::iter::once(NewChild {
                mv: Move::Pass,
                prior_visits: 0,
                prior_value: 0.0,
            }))
            .collect();
        assert!(tree.try_begin_expand(Tree::ROOT));
        assert!(tree.finish_expand(Tree::ROOT, &kids));
        for (c, &m) in tree.children(Tree::ROOT).zip(means) {
            for k in 0..amaf {
                // Wins in the share `m`.
                let won = (k as f64 + 0.5) / amaf as f64 <= m;
                tree.node(c)
                    .add_amaf(if won { 1.0 } else { 0.0 }, AMAF_UNIT);
            }
        }
        tree
    }

    #[test]
    fn amaf_results_weigh_less_the_later_the_move() {
        // Twice a full visit right after the node, a quarter at the end, never rising.
        assert_eq!(amaf_units(0, 40), 2 * AMAF_UNIT);
        assert_eq!(amaf_units(40, 40), AMAF_UNIT / 4);
        assert_eq!(amaf_units(60, 40), AMAF_UNIT / 4);
        assert_eq!(amaf_units(20, 40), AMAF_UNIT / 4 * 5);
        assert!((1..=40).all(|k| amaf_units(k, 40) <= amaf_units(k - 1, 40)));
        // A simulation that ended at the node itself.
        assert_eq!(amaf_units(0, 0), 2 * AMAF_UNIT);
    }

    #[test]
    fn the_pool_holds_the_best_amaf_moves_of_a_well_visited_node() {
        let (_, b) = root(9);
        let points: Vec<(usize, usize)> = (0..12).map(|i| (i % 9, i / 9)).collect();
        let means: Vec<f64> = (0..12).map(|i| i as f64 / 12.0).collect();
        let tree = tree_with_amaf(&b, &points, &means, 24);
        let mut pool = MovePool::default();
        // Too few visits at the root: no pool for anyone.
        fill_pool(&tree, Color::Black, &[Tree::ROOT], &mut pool);
        assert!(pool.moves(Color::Black).is_empty() && pool.moves(Color::White).is_empty());
        for _ in 0..POOL_NODE_VISITS {
            tree.root().add_visit();
        }
        fill_pool(&tree, Color::Black, &[Tree::ROOT], &mut pool);
        // The ten best of twelve, best first; the root's children are Black's moves.
        let expected: Vec<Point> = (2..12)
            .rev()
            .map(|i| b.point(points[i].0, points[i].1))
            .collect();
        assert_eq!(pool.moves(Color::Black), &expected[..]);
        assert!(pool.moves(Color::White).is_empty());
        // With White to move at the root, the same moves are White's.
        fill_pool(&tree, Color::White, &[Tree::ROOT], &mut pool);
        assert_eq!(pool.moves(Color::White), &expected[..]);
        assert!(pool.moves(Color::Black).is_empty());
    }

    #[test]
    fn moves_seen_too_rarely_stay_out_of_the_pool() {
        let (_, b) = root(9);
        let tree = tree_with_amaf(
            &b,
            &[(4, 4), (2, 2)],
            &[0.9, 0.1],
            POOL_MOVE_AMAF as u32 - 1,
        );
        for _ in 0..POOL_NODE_VISITS {
            tree.root().add_visit();
        }
        let mut pool = MovePool::default();
        fill_pool(&tree, Color::Black, &[Tree::ROOT], &mut pool);
        assert!(pool.moves(Color::Black).is_empty());
    }

    #[test]
    fn a_decided_game_keeps_a_slope() {
        // Every line loses by about 150 points on 19×19 (komi 7.5): losing by 100 must still
        // be worth more than losing by 200, or the search gives groups away.
        let (root, b) = root(19);
        let expected = -157.5;
        let (less, margin) = root.value_of_area(&b, -100, 0, expected);
        assert_eq!(margin, HalfPoints::points(-100) - HalfPoints(15));
        let (more, _) = root.value_of_area(&b, -200, 0, expected);
        assert!(less - more > 0.05, "{less} against {more}");
        assert!(less < 0.1);
        // The same when every line wins by far.
        let (far, _) = root.value_of_area(&b, 208, 0, 150.5);
        let (near, _) = root.value_of_area(&b, 108, 0, 150.5);
        assert!(far - near > 0.05 && near > 0.9);
    }

    #[test]
    fn winning_outweighs_any_margin() {
        let (root, b) = root(9);
        // A win by half a point where 50 were expected, a loss by half a point where 50 were
        // expected to be lost.
        let (win, _) = root.value_of_area(&b, 8, 0, 50.0);
        let (loss, _) = root.value_of_area(&b, 7, 0, -50.0);
        assert!(win > 0.85 && loss < 0.15, "{win} {loss}");
        // With no weight on the margin only winning counts.
        let root = root.with_score_weight(0.0);
        assert_eq!(root.value_of_area(&b, 8, 0, 50.0).0, 1.0);
        assert_eq!(root.value_of_area(&b, -40, 0, -50.0).0, 0.0);
    }

    #[test]
    fn the_score_utility_rises_and_saturates() {
        assert_eq!(score_utility(0.0, 9), 0.0);
        assert!(score_utility(9.0, 9) > 0.49 && score_utility(9.0, 9) < 0.51);
        assert!(score_utility(-1000.0, 19) > -1.0 && score_utility(-1000.0, 19) < -0.98);
        assert!(score_utility(3.0, 19) > score_utility(2.0, 19));
    }
}
