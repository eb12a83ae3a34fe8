//! The heavy playout policy: the move a playout plays, fast and a little random.
//!
//! Playout moves, in the MoGo tradition: capture the group the last move left in atari; save an
//! own group the last move put in atari (when the escape gains liberties); win the capture race
//! of an own group the last move took a liberty from, by taking the liberty of the opponent's
//! group that captures it ([`tactics::race_moves`]; never left to chance when a group of
//! [`BIG_GROUP`] stones is in it); attack or defend two liberties; take the vital point
//! of an eye space the last move walled in; play a good-shape 3×3 pattern reply next to the
//! last move; otherwise a uniformly random legal move that neither fills an own eye nor puts a
//! group of two or more stones in atari (unless it fills an eye space in a dead shape). Where a
//! rule has several points (saving moves, race liberties, two-liberty fights, shape replies),
//! each is drawn as often as strong players chose its 3×3 pattern. In the search's playouts
//! ([`pooled_move`]) half of those random moves are drawn instead from a pool of moves the tree
//! has found good ([`MovePool`], PoolRAVE). The reading is
//! [`crate::tactics`]'s; the 3×3 shapes are [`super::shapes`]', their learned gammas
//! [`crate::patterns`]'.
//!
//! How often each rule is played when it has a move, and how the shape reply weighs its
//! candidates, are [`PlayoutWeights`]; the search plays the embedded ones. One function,
//! [`weighted_move`], is both the search's policy and the trainer's: generic over a [`Trace`]
//! that sees its random decisions, compiled to nothing for the search's [`NoTrace`].
//!
//! Invariants: no move allocates (the shape table is built once), the board is only read, and
//! a move returned is legal for the player to move; the shape replies and the random move
//! never fill an own eye.

use super::playout_weights::{draw_by_weight, NoTrace, PlayoutWeights, Rule, Trace};
pub use super::shapes::matches_pattern;
use super::shapes::shape_set;
use crate::board::{Board, Color, Move, Point};
use crate::patterns::{features, Patterns};
use crate::tactics::{self, Candidates};

/// Groups of at least this many stones are big: their capture races are read in every
/// playout (after the saving moves, never left to [`Rule::Fight`]'s chance), since a big
/// group lost by chance in a playout misjudges the whole game.
const BIG_GROUP: usize = 5;

/// Own groups with more liberties than this are not looked at for a race: they are not short
/// of liberties.
const RACE_LIBERTIES: usize = 4;

/// The tactical reply to the last move, if any: capture it, save what it put in atari (by
/// capturing an attacker or by running, unless the run ends in a ladder), win the capture
/// race of an own group it took a liberty from (first of all when a big group is in it), the
/// two-liberty fights around it, the vital point of an eye space it walled in, or a shape reply
/// next to it or next to the move before. Each rule that has a move is played with its
/// probability in `w`, else the next is tried.
#[inline]
fn reply_to_last<T: Trace>(
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
    w: &PlayoutWeights,
    trace: &mut T,
) -> Option<Point> {
    let (last, before) = board.last_moves();
    let Move::Play(last) = last else {
        return None;
    };
    if board.color(last) != Some(c.opponent()) {
        return None;
    }
    if let Some(l) = board.atari_liberty(last) {
        if board.is_legal(l, c) && w.fires(Rule::Capture, rng, trace) {
            return Some(l);
        }
    }
    // A big group left in atari next to the mover's previous move (the atari of a race it
    // won) is taken now, whatever the last move did elsewhere.
    if let Some(l) = big_group_in_atari(board, before, c) {
        if w.fires(Rule::BigCapture, rng, trace) {
            return Some(l);
        }
    }
    let mut saves = Candidates::default();
    for n in board.neighbours(last) {
        if board.color(n) == Some(c) && board.liberties(n) == 1 {
            tactics::saving_moves(board, n, &mut saves);
        }
    }
    // Drawn before the reading, which it skips when it says no (unless a trace must know
    // whether the draw mattered).
    let fight = w.draw(Rule::Fight, rng);
    if !saves.as_slice().is_empty() && w.fires(Rule::Save, rng, trace) {
        return pick_by_learned_shape(&saves, board, c, rng);
    }
    // The race of a group the last move took a liberty from, read whenever a big group may be
    // in it (the group itself, or an opponent group next to one with two liberties); a rule of
    // its own then, and like the two-liberty fights otherwise.
    let mut races = Candidates::default();
    let mut big_race = false;
    for n in board.neighbours(last) {
        if board.color(n) != Some(c) {
            continue;
        }
        let libs = board.liberties(n);
        if libs == 2 || (2..=RACE_LIBERTIES).contains(&libs) && board.group_size(n) >= BIG_GROUP {
            big_race |= tactics::race_moves(board, n, &mut races) >= BIG_GROUP;
        }
    }
    if big_race && w.fires(Rule::BigRace, rng, trace) {
        return pick_by_learned_shape(&races, board, c, rng);
    }
    let small_race = !big_race && !races.as_slice().is_empty();
    // The two-liberty fights are read only where they can be played (a won small race comes
    // first), or where a trace must see them.
    let mut fights = Candidates::default();
    if T::ACTIVE || (fight && !small_race) {
        tactics::two_liberty_moves_around(board, last, c, &mut fights);
    }
    if T::ACTIVE && (small_race || !fights.as_slice().is_empty()) {
        trace.rule(Rule::Fight, fight, w.probability(Rule::Fight));
    }
    if fight {
        if small_race {
            return pick_by_learned_shape(&races, board, c, rng);
        }
        if !fights.as_slice().is_empty() && w.fires(Rule::TwoLiberty, rng, trace) {
            return pick_by_learned_shape(&fights, board, c, rng);
        }
    }
    // Drawn before the reading too.
    let nakade = w.draw(Rule::Nakade, rng);
    if nakade || T::ACTIVE {
        if let Some(v) = tactics::nakade_vital_point(board, last) {
            if board.is_legal(v, c) {
                if T::ACTIVE {
                    trace.rule(Rule::Nakade, nakade, w.probability(Rule::Nakade));
                }
                if nakade {
                    return Some(v);
                }
            }
        }
    }
    shape_reply(board, c, last, before, rng, w, trace)
}

/// The liberty of a big opponent group in atari next to `before`, when that was `c`'s move.
#[inline]
fn big_group_in_atari(board: &Board, before: Move, c: Color) -> Option<Point> {
    let Move::Play(b) = before else {
        return None;
    };
    if board.color(b) != Some(c) {
        return None;
    }
    board.neighbours(b).into_iter().find_map(|n| {
        if board.color(n) == Some(c.opponent()) && board.group_size(n) >= BIG_GROUP {
            board.atari_liberty(n).filter(|&l| board.is_legal(l, c))
        } else {
            None
        }
    })
}

/// A shape reply next to `last` or next to `before` (when that was `c`'s move), or `None`. Each
/// candidate is weighted by its best shape's gamma times its 3×3 pattern's learned gamma: the
/// hand-made shapes say which points are worth a reply, the move model which of them strong
/// players choose (tests/MEASUREMENTS.md, "The shape reply weighted by the move patterns' 3×3
/// shapes").
#[inline]
fn shape_reply<T: Trace>(
    board: &Board,
    c: Color,
    last: Point,
    before: Move,
    rng: &mut fastrand::Rng,
    w: &PlayoutWeights,
    trace: &mut T,
) -> Option<Point> {
    // As many as `Candidates` holds: two 3×3 neighbourhoods' points.
    let mut points = [Point::NONE; 16];
    let mut best = [0u8; 16];
    let mut n = 0;
    let around_before = match before {
        Move::Play(b) if board.color(b) == Some(c) => Some(b),
        _ => None,
    };
    for centre in std::iter::once(last).chain(around_before) {
        for q in board.neighbourhood(centre) {
            if n == points.len() || !board.is_empty(q) || points[..n].contains(&q) {
                continue;
            }
            let set = shape_set(board, q);
            if set != 0
                && board.is_legal(q, c)
                && !tactics::is_bad_self_atari(board, q, c)
                && !board.is_eye(q, c)
                && !tactics::breaks_false_eye_seki(board, q, c)
            {
                points[n] = q;
                best[n] = w.best_shape(set);
                n += 1;
            }
        }
    }
    if n == 0 || !w.fires(Rule::Shape, rng, trace) {
        return None;
    }
    // Looked up only when a reply is played.
    let mut learned = [0f32; 16];
    learned_shape_gammas(board, c, &points[..n], &mut learned);
    Some(points[w.pick_shape(&best[..n], &learned[..n], rng, trace)])
}

/// The learned 3×3 shape gamma of a stone of `c` on each of `points` (at most 16), into `out`:
/// how often strong players chose the point's 3×3 pattern with liberty marks.
#[inline]
fn learned_shape_gammas(board: &Board, c: Color, points: &[Point], out: &mut [f32; 16]) {
    let patterns = Patterns::load();
    for (g, &q) in out.iter_mut().zip(points) {
        *g = patterns.shape_gamma(features::shape_code(board, c, q));
    }
}

/// One of a tactical rule's candidates (saving moves, race liberties, two-liberty fights),
/// drawn in proportion to its learned 3×3 shape gamma: which liberty to take or where to run
/// is often a choice of shape, and strong players' choices price it. The weights are the move
/// model's, not [`PlayoutWeights`]', so the trainer's gradient does not see this draw.
#[inline]
fn pick_by_learned_shape(
    cands: &Candidates,
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
) -> Option<Point> {
    let points = cands.as_slice();
    if points.len() < 2 {
        return cands.pick(rng);
    }
    let mut gammas = [0f32; 16];
    learned_shape_gammas(board, c, points, &mut gammas);
    let gammas = &gammas[..points.len()];
    Some(points[draw_by_weight(gammas, gammas.iter().sum(), rng)])
}

/// A uniformly random legal move for `c` that fills no own eye and that `acceptable` allows,
/// or `None`: the scan starts at a random empty point and takes the first that fits.
#[inline]
pub fn random_move(
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
    acceptable: impl Fn(Point) -> bool,
) -> Option<Point> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.usize(..n);
    empties[start..]
        .iter()
        .chain(empties[..start].iter())
        .copied()
        .find(|&p| !board.is_eye(p, c) && board.is_legal(p, c) && acceptable(p))
}

/// The heavy policy's move for `c` with the embedded weights, or `None` (pass).
#[inline]
pub fn playout_move(board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    weighted_move(board, c, rng, PlayoutWeights::embedded(), &mut NoTrace)
}

/// How many moves a [`MovePool`] holds for each colour.
pub const POOL_SIZE: usize = 10;

/// How often a playout move with no tactical or shape reply is drawn from the pool instead of
/// at random, when the mover has a pool.
const POOL_RATE: f32 = 0.5;

/// Moves the search's tree has found good for each colour (PoolRAVE: the best AMAF moves of
/// the deepest well-visited node of the simulation's path), which the playout plays in place
/// of some of its random moves. A point in it may since have been played or become illegal:
/// [`pooled_move`] checks.
#[derive(Copy, Clone, Debug)]
pub struct MovePool {
    moves: [[Point; POOL_SIZE]; 2],
    len: [u8; 2],
}

impl Default for MovePool {
    fn default() -> MovePool {
        MovePool {
            moves: [[Point::NONE; POOL_SIZE]; 2],
            len: [0; 2],
        }
    }
}

impl MovePool {
    /// Empties `c`'s pool.
    pub fn clear(&mut self, c: Color) {
        self.len[c as usize] = 0;
    }

    /// Adds `p` to `c`'s pool, if it is not full.
    pub fn push(&mut self, c: Color, p: Point) {
        let n = self.len[c as usize] as usize;
        if n < POOL_SIZE {
            self.moves[c as usize][n] = p;
            self.len[c as usize] += 1;
        }
    }

    /// `c`'s pool.
    pub fn moves(&self, c: Color) -> &[Point] {
        &self.moves[c as usize][..self.len[c as usize] as usize]
    }
}

/// The heavy policy's move for `c` with the embedded weights, where a move from `pool` takes
/// the random move's place half the time, or `None` (pass).
#[inline]
pub fn pooled_move(
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
    pool: &MovePool,
) -> Option<Point> {
    reply_to_last(board, c, rng, PlayoutWeights::embedded(), &mut NoTrace)
        .or_else(|| pool_move(board, c, rng, pool))
        .or_else(|| random_move_for(board, c, rng))
}

/// With probability [`POOL_RATE`], one of `c`'s pool moves drawn at random, if it is legal
/// (so on an empty point), fills no own eye and is no bad self-atari; otherwise `None`.
#[inline]
fn pool_move(board: &Board, c: Color, rng: &mut fastrand::Rng, pool: &MovePool) -> Option<Point> {
    let moves = pool.moves(c);
    if moves.is_empty() || rng.f32() >= POOL_RATE {
        return None;
    }
    let p = moves[rng.usize(..moves.len())];
    (!board.is_eye(p, c) && board.is_legal(p, c) && !tactics::is_bad_self_atari(board, p, c))
        .then_some(p)
}

/// The heavy policy's move for `c` with weights `w`, or `None` (pass); `trace` sees the random
/// decisions that could change it.
#[inline]
pub fn weighted_move<T: Trace>(
    board: &Board,
    c: Color,
    rng: &mut fastrand::Rng,
    w: &PlayoutWeights,
    trace: &mut T,
) -> Option<Point> {
    reply_to_last(board, c, rng, w, trace).or_else(|| random_move_for(board, c, rng))
}

/// The heavy policy's random move: one that puts no group of two or more in atari (unless it
/// fills an eye space in a dead shape), breaks no seki and fills no liberty of a race `c`
/// must win.
#[inline]
fn random_move_for(board: &Board, c: Color, rng: &mut fastrand::Rng) -> Option<Point> {
    random_move(board, c, rng, |p| {
        !tactics::is_bad_self_atari(board, p, c)
            && !tactics::breaks_false_eye_seki(board, p, c)
            && !tactics::fills_race_liberty(board, p, c)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A race that decides a 9×9 game: White's top-left group of seven stones (A8 … D9) has
    /// one eye, A9, and one outside liberty, E9, where a Black stone is safe; Black's four
    /// stones A7 … D7 below it have three liberties, A6 B6 C6, which White can fill from its
    /// wall. Black wins the race whoever moves first: White's group is dead.
    pub(crate) const BIG_RACE: [&str; 9] = [
        ".OOO.X...",
        "OOOOXX...",
        "XXXXOX...",
        "...OOX...",
        "OOOOOX...",
        "....OX...",
        "....OX...",
        "....OX...",
        "....OX...",
    ];

    #[test]
    fn playouts_win_the_race_of_a_big_group_with_one_eye() {
        let rows: Vec<String> = BIG_RACE.iter().map(|r| r.to_string()).collect();
        let start = crate::game::Game::from_diagram(&rows, crate::rules::Rules::chinese())
            .unwrap()
            .board()
            .clone();
        let mut rng = fastrand::Rng::with_seed(5);
        let b8 = start.point(1, 1);
        let runs = 400;
        let mut captured = 0;
        for _ in 0..runs {
            let mut b = start.clone();
            crate::search::playout::heavy_playout(&mut b, Color::White, &mut rng);
            if b.color(b8) != Some(Color::White) {
                captured += 1;
            }
        }
        // Left to chance, White's group lived in about two playouts of three.
        assert!(
            captured * 100 >= 90 * runs,
            "captured in {captured} of {runs}"
        );
    }

    /// ∇θ P(m) two ways at one position where rules and shape picks both decide the move: the
    /// trace's E[1{m}·ψ] (ψ = ∇θ log π) and finite differences of P(m) over θ ± ε.
    #[test]
    fn the_trace_is_the_gradient_of_the_move_probabilities() {
        use crate::search::playout_weights::{Gradient, RULES};
        use crate::search::shapes::SHAPES;
        let logit = |p: f64| (p / (1.0 - p)).ln();
        let sigmoid = |t: f64| (1.0 / (1.0 + (-t).exp())) as f32;
        let weights = |rules: [f64; RULES], shapes: [f64; SHAPES]| {
            PlayoutWeights::new(rules.map(sigmoid), shapes.map(|g| g as f32)).unwrap()
        };
        let rules = [logit(0.7); RULES];
        let shapes: [f64; SHAPES] = std::array::from_fn(|i| (i as f64 - 6.0) * 0.3);
        let w = weights(rules, shapes);
        let sample = |w: &PlayoutWeights, b: &Board, c: Color, seed: u64, n: usize| {
            let mut rng = fastrand::Rng::with_seed(seed);
            (0..n)
                .map(|_| {
                    let mut g = Gradient::default();
                    (weighted_move(b, c, &mut rng, w, &mut g), g)
                })
                .collect::<Vec<_>>()
        };
        // The first position of a light game where a rule and a shape pick are both traced.
        let mut rng = fastrand::Rng::with_seed(11);
        let mut b = Board::new(9).unwrap();
        let mut c = Color::Black;
        loop {
            let some = sample(&w, &b, c, 1, 200);
            let traced = |f: &dyn Fn(&Gradient) -> bool| some.iter().any(|(_, g)| f(g));
            if traced(&|g| g.rules.iter().any(|&x| x != 0.0))
                && traced(&|g| g.shapes.iter().any(|&x| x != 0.0))
            {
                break;
            }
            match crate::search::playout::light_move(&b, c, &mut rng) {
                Some(p) => {
                    b.play(p, c);
                }
                None => panic!("no position with both decisions"),
            }
            c = c.opponent();
        }
        let n = 40_000;
        let at = sample(&w, &b, c, 2, n);
        // The most frequent move.
        let mut counts: Vec<(Option<Point>, usize)> = Vec::new();
        for (m, _) in &at {
            match counts.iter_mut().find(|(x, _)| x == m) {
                Some((_, k)) => *k += 1,
                None => counts.push((*m, 1)),
            }
        }
        let m = counts.iter().max_by_key(|(_, k)| *k).unwrap().0;
        let share = |s: &[(Option<Point>, Gradient)]| {
            s.iter().filter(|(x, _)| *x == m).count() as f64 / s.len() as f64
        };
        let eps = 0.25;
        let mut checked = [0, 0];
        for j in 0..RULES + SHAPES {
            let psi = |g: &Gradient| {
                if j < RULES {
                    g.rules[j]
                } else {
                    g.shapes[j - RULES]
                }
            };
            let score: f64 = at
                .iter()
                .filter(|(x, _)| *x == m)
                .map(|(_, g)| psi(g))
                .sum::<f64>()
                / n as f64;
            // Both decisions' expected score is zero.
            let mean: f64 = at.iter().map(|(_, g)| psi(g)).sum::<f64>() / n as f64;
            assert!(mean.abs() < 0.02, "E[ψ_{j}] = {mean}");
            if score.abs() < 0.02 {
                continue;
            }
            let moved = |d: f64| {
                let (mut r, mut s) = (rules, shapes);
                if j < RULES {
                    r[j] += d;
                } else {
                    s[j - RULES] += d;
                }
                share(&sample(&weights(r, s), &b, c, 3 + j as u64, n))
            };
            let finite = (moved(eps) - moved(-eps)) / (2.0 * eps);
            assert!(
                (finite - score).abs() < 0.03,
                "parameter {j}: finite differences {finite}, trace {score}"
            );
            checked[usize::from(j >= RULES)] += 1;
        }
        assert!(checked[0] > 0 && checked[1] > 0, "{checked:?}");
    }

    #[test]
    fn tactical_candidates_are_drawn_by_their_learned_shapes() {
        // A black stone on E5 with White's on E4: the hane at D4 and the first-line point A1
        // have very different 3×3 shapes.
        let mut b = Board::new(9).unwrap();
        b.play(b.point(4, 4), Color::Black);
        b.play(b.point(4, 5), Color::White);
        let (hane, edge) = (b.point(3, 5), b.point(0, 8));
        let mut cands = Candidates::default();
        cands.push(hane);
        cands.push(edge);
        let mut gammas = [0f32; 16];
        learned_shape_gammas(&b, Color::Black, &[hane, edge], &mut gammas);
        let exact = f64::from(gammas[0] / (gammas[0] + gammas[1]));
        assert!(
            (exact - 0.5).abs() > 0.2,
            "a uniform draw would pass: {exact}"
        );
        let mut rng = fastrand::Rng::with_seed(9);
        let runs = 20_000;
        let hanes = (0..runs)
            .filter(|_| pick_by_learned_shape(&cands, &b, Color::Black, &mut rng) == Some(hane))
            .count();
        let share = hanes as f64 / runs as f64;
        assert!(
            (share - exact).abs() < 0.015,
            "hane {share:.4}, exact {exact:.4}"
        );
    }

    #[test]
    fn half_the_random_moves_come_from_the_pool() {
        // An empty board: no reply to anything, every move is the random move's.
        let b = Board::new(9).unwrap();
        let mut pool = MovePool::default();
        let tengen = b.point(4, 4);
        pool.push(Color::Black, tengen);
        let mut rng = fastrand::Rng::with_seed(9);
        let n = 4000;
        let count = |c: Color, rng: &mut fastrand::Rng| {
            (0..n)
                .filter(|_| pooled_move(&b, c, rng, &pool) == Some(tengen))
                .count()
        };
        // A half from the pool, and 1/81 of the other half at random.
        let black = count(Color::Black, &mut rng);
        assert!((1900..2300).contains(&black), "{black} of {n}");
        // White's pool is empty: tengen only at random.
        let white = count(Color::White, &mut rng);
        assert!(white < 120, "{white} of {n}");
    }

    #[test]
    fn a_pool_move_no_longer_playable_is_not_played() {
        let mut b = Board::new(9).unwrap();
        let taken = b.point(4, 4);
        b.play(taken, Color::White);
        b.pass();
        // A1 walled in by Black: Black's own eye.
        let eye = b.point(0, 0);
        b.play(b.point(1, 0), Color::Black);
        b.pass();
        b.play(b.point(0, 1), Color::Black);
        b.pass();
        let mut pool = MovePool::default();
        pool.push(Color::Black, taken);
        pool.push(Color::Black, eye);
        let mut rng = fastrand::Rng::with_seed(4);
        for _ in 0..2000 {
            let p = pooled_move(&b, Color::Black, &mut rng, &pool);
            assert!(p != Some(taken) && p != Some(eye), "{p:?}");
        }
    }

    #[test]
    fn reply_captures_a_stone_in_atari() {
        let mut b = Board::new(9).unwrap();
        b.play(b.point(4, 3), Color::Black);
        b.play(b.point(3, 4), Color::Black);
        b.play(b.point(5, 4), Color::Black);
        b.play(b.point(4, 4), Color::White);
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(
            reply_to_last(
                &b,
                Color::Black,
                &mut rng,
                &PlayoutWeights::default(),
                &mut NoTrace
            ),
            Some(b.point(4, 5))
        );
    }
}
