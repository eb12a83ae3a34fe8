//! The player's decisions around the search: which moves the root may consider (the game's
//! legality, no own eye fills, no repetition under basic ko), when to pass (the opponent passed
//! and the position as it stands wins, dame filled first under territory counting), when to
//! resign, cleanup (KGS's `kgs-genmove_cleanup`), analysis and pondering on request, and the
//! judgement of a finished game (dead stones, seki, the count), kept until the position changes.

use super::analysis::Filters;
use super::judgement::{Judge, Judgement};
use super::komi::{dynamic_komi, margin_komi_step};
use super::level;
use super::run::{Budget, Runner};
use super::simulate::Root;
use super::time::{self, Clock};
use super::tree::Tree;
use super::{Analysis, Config, Decision, Limits, MoveFilter, Report, Watch, DEFAULT_MOVE_TIME};
use crate::board::{Color, Move, Point};
use crate::dead::{self, DEAD, SURELY_DEAD};
use crate::game::Game;
use crate::rules::{HalfPoints, Scoring};
use crate::score;
use std::time::{Duration, Instant};

/// The share of a move's time kept for the judgement after the search where a pass is likely
/// and one must be judged (dead stones to capture first, dame to fill).
const JUDGEMENT_SHARE: f64 = 0.4;

/// The engine's player: configuration, clock, the search runner (which keeps the tree for the
/// next move) and what the last search found.
pub struct Player {
    config: Config,
    clock: Clock,
    runner: Runner,
    /// Searches in a row, per colour, whose best value was below the resign threshold.
    low_value_streak: [u32; 2],
    /// With `maximize_score`, the komi each colour's searches concede (see
    /// [`super::komi::margin_komi_step`]).
    conceded: [HalfPoints; 2],
    report: Report,
    /// The last search's view for analysis.
    analysis: Analysis,
    /// Ownership from the last search or judgement: +1 Black, −1 White, per `Board::points`.
    ownership: Vec<f32>,
    judge: Judge,
}

impl Player {
    pub fn new(config: Config) -> Player {
        Player {
            config,
            clock: Clock::default(),
            runner: Runner::default(),
            low_value_streak: [0; 2],
            conceded: [HalfPoints::ZERO; 2],
            report: Report::default(),
            analysis: Analysis::default(),
            ownership: Vec::new(),
            judge: Judge::default(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The komi `color`'s searches concede with `maximize_score` (zero without it).
    pub fn conceded_komi(&self, color: Color) -> HalfPoints {
        self.conceded[color.index()]
    }

    /// The last search's summary.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The last search's view for analysis (empty when the last move was decided without one).
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// Ownership from the last search or judgement (+1 Black, −1 White), in `Board::points` order;
    /// empty before any.
    pub fn ownership(&self) -> &[f32] {
        &self.ownership
    }

    /// Sets the memory for the search tree, the kept tree fitted to it at once.
    pub fn set_max_memory(&mut self, megabytes: usize) {
        self.config.max_memory_mb = megabytes;
        self.runner.fit_kept(Tree::capacity_for(megabytes));
    }

    /// Forgets the kept tree (new game, or a position set up from outside).
    pub fn forget(&mut self) {
        self.runner.forget();
        self.low_value_streak = [0; 2];
        self.conceded = [HalfPoints::ZERO; 2];
    }

    /// Forgets everything searched or judged so far — the kept tree, the kept judgement, the
    /// last ownership map — so that the next search and judgement of any position start afresh
    /// (KataGo's `clear_cache`).
    pub fn clear_cache(&mut self) {
        self.forget();
        self.judge.forget();
        self.ownership.clear();
    }

    /// Runs one search and keeps what it found; returns the most visited move.
    fn search(&mut self, game: &Game, root: Root, budget: Budget, watch: &mut Watch) -> Move {
        let found = self.runner.search(&self.config, game, root, budget, watch);
        self.report = found.report;
        self.analysis = found.analysis;
        self.ownership = found.ownership;
        found.best
    }

    /// The legal root moves for `color`: the game's own legality (superko included), minus own
    /// eye fills.
    pub(super) fn root_moves(game: &Game, color: Color, allow_pass: bool) -> Vec<Move> {
        let board = game.board();
        let mut moves: Vec<Move> = board
            .empty_points()
            .iter()
            .map(|&p| Move::Play(p))
            .filter(|&mv| game.is_legal(color, mv))
            .collect();
        moves.sort_by_key(|m| match m {
            Move::Play(p) => p.0,
            Move::Pass => 0,
        });
        // Under basic-ko rules a stone may legally recreate an earlier position (a cycle the
        // players may call no result); tengen never starts one while it has another move, a
        // pass included.
        if !game.rules().superko() {
            let fresh: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    game.check(color, mv, crate::board::Removal::Opponent)
                        .is_ok_and(|after| game.times_seen(after.hash()) == 0)
                })
                .collect();
            if !fresh.is_empty() || (allow_pass && game.is_legal(color, Move::Pass)) {
                moves = fresh;
            }
        }
        let no_eyes: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| !matches!(mv, Move::Play(p) if board.is_eye(p, color)))
            .collect();
        let pass = allow_pass && game.is_legal(color, Move::Pass);
        // Filling an own eye is never better than passing; only where passing is not allowed
        // (the pre-judgement opening) may it be the least bad move.
        let mut moves = if no_eyes.is_empty() && !pass {
            moves
        } else {
            no_eyes
        };
        if pass {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Chooses a move for `color` and reports it; the caller plays it. With `cleanup` (KGS's
    /// `kgs-genmove_cleanup`), dead opponent stones are captured before passing and the player
    /// never resigns.
    pub fn genmove(&mut self, game: &Game, color: Color, cleanup: bool) -> Decision {
        self.genmove_watched(game, color, cleanup, &[], &mut Watch::none())
    }

    /// [`Player::genmove`], with a controller watching: an interrupt ends the search with the
    /// best move so far, and progress reports show the search as it goes; `filters` keep the
    /// search away from (or to) some moves near the root.
    pub fn genmove_watched(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        filters: &[MoveFilter],
        watch: &mut Watch,
    ) -> Decision {
        let start = Instant::now();
        self.analysis = Analysis::default();
        let budget = self.budget(game, color);
        // Whatever the move judges is charged to its time: the judgement stops a little before
        // the moment the move must be made by, as a race being read and the count finish
        // after it (no clock and no time: the full judgement).
        let deadline = budget
            .extended
            .or(budget.time)
            .map(|t| start + t.mul_f64(0.9));
        let permitted = Filters::new(filters);
        let permits = |mv: Move| permitted.permits(color, mv, 0);
        let board = game.board();
        let opponent_passed =
            matches!(game.moves().next_back(), Some(m) if m.mv == Move::Pass && m.color != color);
        let may_pass = game.is_legal(color, Move::Pass) && permits(Move::Pass);
        // Rules that lift no dead stones (Tromp–Taylor) count them as alive: capture them
        // before passing, as cleanup does.
        let capture_first = cleanup || !game.rules().dead_stones_lifted;
        let territory = game.rules().scoring == Scoring::Territory;
        // Stones counted dead where a line ends with two passes in the tree: none when they
        // must be captured, and only sure ones otherwise.
        let mut sure_dead = Vec::new();
        if !capture_first && opponent_passed && may_pass {
            // The opponent offers to end the game: accept if the position as it stands wins
            // with only the surely dead stones lifted (a disputed group is settled by play, not
            // by hope), once the dame that territory counting wants filled are filled. The
            // estimate may take half the move's time; the search has the rest.
            let half = budget.time.map(|t| start + t / 2);
            let own = self.judged_ownership(game, half);
            sure_dead = dead::from_ownership(board, &own, SURELY_DEAD);
            let margin = score::count(game, &sure_dead).margin.0 .0;
            let wins = match color {
                Color::Black => margin > 0,
                Color::White => margin < 0,
            };
            if wins {
                let dead = dead::from_ownership(board, &own, DEAD);
                let mut dame = Self::dame_to_fill(game, color, &dead);
                dame.retain(|&p| permits(Move::Play(p)));
                self.finish_clock(color, start);
                return Decision::Play(dame.first().map_or(Move::Pass, |&p| Move::Play(p)));
            }
        } else if !capture_first && self.ownership.len() == board.size() * board.size() {
            // The last search's ownership is close enough to this position to say which
            // stones are surely dead.
            sure_dead = dead::from_ownership(board, &self.ownership, SURELY_DEAD);
        }
        let moves = Self::root_moves(game, color, true);
        let decision = match moves.as_slice() {
            [] => Decision::Play(Move::Pass),
            [only] => Decision::Play(*only),
            _ => {
                // The move's time counts from the start of genmove: what the ownership estimate
                // above took is no longer the search's, nor what the judgement after it may
                // need where passing is likely.
                let judging_after = may_pass && (capture_first || territory);
                let reserved = if judging_after && self.pass_likely(opponent_passed) {
                    budget
                        .time
                        .map_or(Duration::ZERO, |t| t.mul_f64(JUDGEMENT_SHARE))
                } else {
                    Duration::ZERO
                };
                let spent = start.elapsed() + reserved;
                let budget = Budget {
                    time: budget.time.map(|t| t.saturating_sub(spent)),
                    extended: budget.extended.map(|t| t.saturating_sub(spent)),
                    ..budget
                };
                let for_margin = self.config.maximize_score && !cleanup && !game.in_opening();
                let conceded = if for_margin {
                    self.conceded[color.index()]
                } else {
                    HalfPoints::ZERO
                };
                // Komi is White's: Black concedes by adding to it, White by taking from it.
                let against = match color {
                    Color::Black => conceded,
                    Color::White => HalfPoints::ZERO - conceded,
                };
                let dynamic = if cleanup {
                    HalfPoints::ZERO
                } else {
                    dynamic_komi(game)
                };
                let root = Root::new(game, color, moves, &sure_dead, dynamic + against, filters);
                let mut best = self.search(game, root, budget, watch);
                if for_margin {
                    // The playouts' own figures, the mean margin among them: the steps were
                    // set by games on those (tests/MEASUREMENTS.md).
                    if let Some(m) = self.analysis.moves.first() {
                        let next = margin_komi_step(conceded, m.playout_winrate, m.score_mean);
                        if next != conceded {
                            log::info!(
                                "maximize score: {} concedes {} komi (win rate {:.2}, lead {:.1})",
                                color.letter(),
                                next,
                                m.playout_winrate,
                                m.score_mean
                            );
                        }
                        self.conceded[color.index()] = next;
                    }
                }
                if !cleanup {
                    best = self.level_choice(game, best);
                }
                if best == Move::Pass && capture_first {
                    // No pass while the opponent has dead stones on the board.
                    let dead = self.judgement_by(game, deadline).dead;
                    let opponent = color.opponent();
                    let theirs: Vec<Point> = dead
                        .into_iter()
                        .filter(|&p| board.color(p) == Some(opponent))
                        .collect();
                    if !theirs.is_empty() {
                        best = self.capture_move(game, color, &theirs, &permits);
                    }
                } else if best == Move::Pass && territory {
                    // Under territory counting, dame are filled before passing (第9条).
                    let dead = self.judgement_by(game, deadline).dead;
                    if let Some(&p) = Self::dame_to_fill(game, color, &dead)
                        .iter()
                        .find(|&&p| permits(Move::Play(p)))
                    {
                        best = Move::Play(p);
                    }
                }
                let value = self.report.value;
                // Opening placements are valued by balance, not by winning: never resign there.
                // Nor while dynamic komi shapes the values of a handicap game, or a conceded
                // komi those of a game far ahead: they are not the real winning chances.
                let resign = !cleanup
                    && !game.in_opening()
                    && dynamic == HalfPoints::ZERO
                    && conceded == HalfPoints::ZERO
                    && self.config.resign.is_some_and(|t| value < t);
                let streak = &mut self.low_value_streak[color.index()];
                *streak = if resign { *streak + 1 } else { 0 };
                if resign && *streak >= 2 && self.report.playouts >= 200 {
                    Decision::Resign
                } else {
                    Decision::Play(best)
                }
            }
        };
        self.finish_clock(color, start);
        decision
    }

    /// Whether the search about to run is likely to choose a pass, so that the judgement that
    /// must follow one needs its share of the move's time: the opponent has just passed, or the
    /// last search found passing nearly as good as its best move.
    fn pass_likely(&self, opponent_passed: bool) -> bool {
        let most = self.report.moves.first().map_or(0, |m| m.1);
        opponent_passed
            || self
                .report
                .moves
                .iter()
                .any(|m| m.0 == Move::Pass && m.1 > 0 && m.1 >= most / 4)
    }

    /// A move instead of the pass the search chose while the opponent has `dead` stones on the
    /// board: the search's most visited other move, else a liberty of the dead stone with the
    /// fewest (a dead group is captured by filling its liberties), else still a pass.
    fn capture_move(
        &self,
        game: &Game,
        color: Color,
        dead: &[Point],
        permits: &dyn Fn(Move) -> bool,
    ) -> Move {
        if let Some(m) = self
            .report
            .moves
            .iter()
            .find(|m| m.0 != Move::Pass && m.1 > 0 && permits(m.0))
        {
            return m.0;
        }
        let board = game.board();
        let mut targets: Vec<Point> = dead.to_vec();
        targets.sort_by_key(|&p| board.liberties(p));
        targets
            .iter()
            .flat_map(|&p| board.liberty_points(p))
            .map(Move::Play)
            .find(|&mv| {
                permits(mv)
                    && game.is_legal(color, mv)
                    && !matches!(mv, Move::Play(p) if board.is_eye(p, color))
            })
            .unwrap_or(Move::Pass)
    }

    /// The move the configured strength level plays from the last search: the best one at full
    /// strength, else one of the plausible ones (see [`level::choose`]); reproducible with a
    /// seed.
    fn level_choice(&mut self, game: &Game, best: Move) -> Move {
        let level = self.config.level;
        if level >= level::FULL_STRENGTH {
            return best;
        }
        let unit = match self.config.seed {
            Some(seed) => {
                fastrand::Rng::with_seed(seed ^ (game.move_number() as u64).rotate_left(32)).f64()
            }
            None => fastrand::f64(),
        };
        let chosen = level::choose(level, &self.report.moves, unit).unwrap_or(best);
        if let Some(&(_, _, value)) = self.report.moves.iter().find(|m| m.0 == chosen) {
            self.report.value = value;
        }
        chosen
    }

    /// The dame `color` should fill before passing: none under area counting (they are worth
    /// nothing to wait for, and the search fills them for their point); under territory
    /// counting, the neutral points it can fill safely and legally, dead stones lifted.
    fn dame_to_fill(game: &Game, color: Color, dead: &[Point]) -> Vec<Point> {
        if game.rules().scoring != Scoring::Territory {
            return Vec::new();
        }
        score::fillable_dame(&score::lift(game.board(), dead), color)
            .into_iter()
            .filter(|&p| game.is_legal(color, Move::Play(p)))
            .collect()
    }

    fn finish_clock(&mut self, color: Color, start: Instant) {
        self.clock.record_move(color, start.elapsed());
    }

    /// The playout and time budget for this move: the clock's, or without one the configured
    /// budget (a fixed time per move is a promise: no stretching it).
    fn budget(&self, game: &Game, color: Color) -> Budget {
        let moves_left = time::expected_moves_left(game.board().size(), game.move_number());
        match self.clock.move_time(color, moves_left) {
            Some(t) => Budget {
                playouts: self.level_playouts(game),
                visits: self.config.visits,
                time: Some(t.target),
                extended: Some(t.max),
                early_stop: t.early_stop,
            },
            None => {
                let limits = match self.level_playouts(game) {
                    Some(p) => Limits {
                        playouts: Some(p),
                        visits: self.config.visits,
                        time: self.config.time,
                    },
                    None => self.move_budget(),
                };
                Budget {
                    early_stop: true,
                    ..Budget::fixed(limits)
                }
            }
        }
    }

    /// The playouts a move may take: the configured ones, capped by the strength level's.
    fn level_playouts(&self, game: &Game) -> Option<u64> {
        match level::playouts(self.config.level, game.board().size()) {
            Some(cap) => Some(self.config.playouts.map_or(cap, |p| p.min(cap))),
            None => self.config.playouts,
        }
    }

    /// The configured budget of one move, without the clock: what an analysis on request
    /// (GoGui's analysis commands) spends.
    pub fn move_budget(&self) -> Limits {
        let limits = Limits {
            playouts: self.config.playouts,
            visits: self.config.visits,
            time: self.config.time,
        };
        if limits.is_unlimited() {
            Limits {
                time: Some(DEFAULT_MOVE_TIME),
                ..limits
            }
        } else {
            limits
        }
    }

    /// Searches the position for `color` with the given budget and nothing else (no pass or
    /// resign shortcuts, no early stop, no clock): for analysis and benchmarks. Returns the
    /// search's report.
    pub fn analyse(
        &mut self,
        game: &Game,
        color: Color,
        playouts: Option<u64>,
        time: Option<Duration>,
    ) -> &Report {
        let limits = Limits {
            playouts,
            visits: None,
            time,
        };
        self.analyse_watched(game, color, limits, &[], &mut Watch::none());
        &self.report
    }

    /// Live analysis: searches the position for `color` (real komi, no shortcuts) until the
    /// limits are reached or the watch interrupts it — without limits, until interrupted (a
    /// full tree stops growing, the simulations go on from its leaves) — keeping to `filters`.
    /// Returns the final view.
    pub fn analyse_watched(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        filters: &[MoveFilter],
        watch: &mut Watch,
    ) -> &Analysis {
        self.analysis = Analysis::default();
        let moves = Self::root_moves(game, color, true);
        if !moves.is_empty() {
            let root = Root::new(game, color, moves, &[], HalfPoints::ZERO, filters);
            self.search(game, root, Budget::fixed(limits), watch);
        }
        &self.analysis
    }

    /// Pondering: searches the game's position, the opponent to move, on the opponent's time
    /// until `interrupted` says a command has come or the analysis limits are reached, keeping
    /// the tree for the next `genmove`. The clock is not touched: this time is not ours.
    pub fn ponder(&mut self, game: &Game, interrupted: &dyn Fn() -> bool) {
        let color = game.to_move();
        let moves = Self::root_moves(game, color, true);
        if moves.len() < 2 || self.config.seed.is_some() {
            return;
        }
        let root = Root::new(game, color, moves, &[], dynamic_komi(game), &[]);
        let mut watch = Watch {
            interrupted,
            min_playouts: 0,
            progress: None,
            ownership_detail: false,
        };
        self.search(game, root, Budget::fixed(self.config.analysis), &mut watch);
    }

    /// The seed of the judgement's playouts.
    fn judgement_seed(&self) -> u64 {
        self.config.seed.unwrap_or(0x5EED)
    }

    /// The judgement's ownership map of the game's position (without reading its races), made
    /// by `deadline` when one is given, kept as the player's current ownership.
    fn judged_ownership(&mut self, game: &Game, deadline: Option<Instant>) -> Vec<f32> {
        let (pool, seed) = (self.runner.pool(self.config.threads), self.judgement_seed());
        self.ownership = self.judge.ownership(game, &pool, seed, deadline);
        self.ownership.clone()
    }

    /// The judgement of the game's position (see [`super::judgement`]): made once per position,
    /// its ownership kept as the player's current ownership.
    pub fn judgement(&mut self, game: &Game) -> Judgement {
        self.judgement_by(game, None)
    }

    /// [`Player::judgement`] made by `deadline` when one is given (cut short, it is not kept).
    fn judgement_by(&mut self, game: &Game, deadline: Option<Instant>) -> Judgement {
        let (pool, seed) = (self.runner.pool(self.config.threads), self.judgement_seed());
        let judgement = self.judge.judgement(game, &pool, seed, deadline);
        self.ownership.clone_from(&judgement.ownership);
        judgement
    }

    /// The stones the player judges dead in the game's position.
    pub fn dead_stones(&mut self, game: &Game) -> Vec<Point> {
        self.judgement(game).dead
    }

    /// [`Player::dead_stones`] judged by `deadline` when one is given (a judgement cut short
    /// is not kept): for a command the controller has interrupted.
    pub fn dead_stones_by(&mut self, game: &Game, deadline: Option<Instant>) -> Vec<Point> {
        self.judgement_by(game, deadline).dead
    }

    /// The stones the player judges to be in seki (after lifting the dead ones).
    pub fn seki_stones(&mut self, game: &Game) -> Vec<Point> {
        self.judgement(game).count.seki
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::same_moves;
    use super::super::tree::Tree;
    use super::*;
    use crate::rules::Rules;
    use crate::search::{MoveFilter, Watch};

    #[test]
    fn a_level_reads_its_own_playouts_and_plays_a_plausible_move() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut full = Player::new(Config {
            threads: 1,
            playouts: Some(400),
            seed: Some(3),
            ..Config::default()
        });
        full.genmove(&g, Color::Black, false);
        assert!(full.report().playouts >= 400);
        let mut weak = Player::new(Config {
            level: 2,
            ..full.config().clone()
        });
        let mut seen = Vec::new();
        for seed in 0..8 {
            weak.config_mut().seed = Some(seed);
            weak.forget();
            let Decision::Play(mv) = weak.genmove(&g, Color::Black, false) else {
                panic!("resigned on the empty board");
            };
            // Level 2 reads 10 playouts on 9×9 whatever the configured budget.
            assert_eq!(weak.report().playouts, 10);
            // The move is one the search visited, never a pass on the empty board.
            assert!(weak.report().moves.iter().any(|m| m.0 == mv && m.1 > 0));
            assert_ne!(mv, Move::Pass);
            seen.push(mv);
        }
        seen.dedup();
        assert!(seen.len() > 1, "always {:?}", seen);
    }

    #[test]
    fn the_tree_is_kept_across_our_move_and_the_reply() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            playouts: Some(3000),
            ..Config::default()
        });
        let Decision::Play(ours) = p.genmove(&g, Color::Black, false) else {
            panic!("no move");
        };
        g.play(Color::Black, ours).unwrap();
        // The reply the tree explored most.
        let kept = p.runner.kept.as_ref().unwrap();
        let c = kept.tree.child_by_move(Tree::ROOT, ours).unwrap();
        let reply = kept
            .tree
            .children(c)
            .max_by_key(|&r| kept.tree.node(r).visits())
            .map(|r| kept.tree.node(r).mv())
            .unwrap();
        let expected = kept
            .tree
            .node(kept.tree.child_by_move(c, reply).unwrap())
            .visits();
        assert!(expected > 0);
        g.play(Color::White, reply).unwrap();
        let capacity = Tree::capacity_for(64);
        let t = p.runner.reuse_tree(&g, Color::Black, capacity);
        assert_eq!(t.root().visits(), expected);
    }

    #[test]
    fn pondering_grows_the_tree_the_next_move_starts_from() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let e5 = Move::Play(g.board().point(4, 4));
        g.play(Color::Black, e5).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            playouts: Some(500),
            ..Config::default()
        });
        // Two seconds reach far past the move's budget of 500 playouts even on a loaded machine
        // (about 30,000 playouts at full speed).
        let until = Instant::now() + Duration::from_secs(2);
        p.ponder(&g, &|| Instant::now() >= until);
        let kept = p.runner.kept.as_ref().expect("pondering keeps its tree");
        assert_eq!(kept.to_move, Color::White);
        assert!(kept.tree.root().visits() > 500, "pondered too little");
        // White answers with the reply pondering explored most: Black's search starts from
        // that subtree.
        let reply = kept
            .tree
            .children(Tree::ROOT)
            .max_by_key(|&c| kept.tree.node(c).visits())
            .unwrap();
        let (mv, visits) = (kept.tree.node(reply).mv(), kept.tree.node(reply).visits());
        g.play(Color::White, mv).unwrap();
        let t = p
            .runner
            .reuse_tree(&g, Color::Black, Tree::capacity_for(64));
        assert_eq!(t.root().visits(), visits);
        assert!(visits > 0);
        // Its children are the root moves the next search wants, so it is not thrown away.
        assert!(same_moves(&t, &Player::root_moves(&g, Color::Black, true)));
    }

    #[test]
    fn a_tree_searched_under_other_terms_is_not_reused() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            ..Config::default()
        });
        let e5 = Move::Play(g.board().point(4, 4));
        let only_e5 = [MoveFilter {
            color: Color::White,
            moves: vec![e5],
            allow: true,
            until: 2,
        }];
        let mut none = Watch::none();
        let playouts = |n| Limits {
            playouts: Some(n),
            ..Limits::default()
        };
        p.analyse_watched(&g, Color::Black, playouts(1000), &only_e5, &mut none);
        assert_eq!(p.runner.kept.as_ref().unwrap().tree.root().visits(), 1000);
        // The same filters build on it; none (or other ones) start afresh.
        p.analyse_watched(&g, Color::Black, playouts(300), &only_e5, &mut none);
        assert_eq!(p.runner.kept.as_ref().unwrap().tree.root().visits(), 1300);
        p.analyse_watched(&g, Color::Black, playouts(300), &[], &mut none);
        assert_eq!(p.runner.kept.as_ref().unwrap().tree.root().visits(), 300);
        // Dynamic komi: only a close one serves.
        let k = p.runner.kept.as_ref().unwrap();
        assert!(
            k.serves(HalfPoints::ZERO, &[])
                && !k.serves(HalfPoints(20), &[])
                && !k.serves(HalfPoints::ZERO, &only_e5)
        );
    }

    #[test]
    fn a_visit_limit_counts_the_visits_of_the_kept_tree() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            ..Config::default()
        });
        let visits = |n| Limits {
            visits: Some(n),
            ..Limits::default()
        };
        let mut none = Watch::none();
        let a = p
            .analyse_watched(&g, Color::Black, visits(500), &[], &mut none)
            .clone();
        assert_eq!((a.playouts, a.root_visits), (500, 500));
        // The same position again: the kept tree's 500 count, 300 more reach 800.
        let a = p
            .analyse_watched(&g, Color::Black, visits(800), &[], &mut none)
            .clone();
        assert_eq!((a.playouts, a.root_visits), (300, 800));
        // A tree that has them all needs no playout.
        let a = p
            .analyse_watched(&g, Color::Black, visits(600), &[], &mut none)
            .clone();
        assert_eq!((a.playouts, a.root_visits), (0, 800));
        // After clear_cache, the search starts afresh.
        p.clear_cache();
        let a = p
            .analyse_watched(&g, Color::Black, visits(600), &[], &mut none)
            .clone();
        assert_eq!((a.playouts, a.root_visits), (600, 600));
        // A playout limit counts this search's playouts alone; the first limit reached ends it.
        let both = Limits {
            playouts: Some(100),
            visits: Some(10_000),
            time: None,
        };
        let a = p
            .analyse_watched(&g, Color::Black, both, &[], &mut none)
            .clone();
        assert_eq!((a.playouts, a.root_visits), (100, 700));
        // After Black's most visited move, White's search starts from its subtree, which has
        // more than 50 visits but no ownership of its own: it runs 50 playouts for that.
        let mut g = g;
        let best = a.moves[0].clone();
        assert!(best.visits > 50, "{:?}", best);
        g.play(Color::Black, best.mv).unwrap();
        let a = p
            .analyse_watched(&g, Color::White, visits(50), &[], &mut none)
            .clone();
        assert_eq!(a.playouts, 50);
        assert!(a.root_visits > 50, "{}", a.root_visits);
        assert_eq!(a.ownership_playouts, 50);
    }

    #[test]
    fn the_detailed_ownership_sees_a_dead_stone_and_keeps_its_spread_in_range() {
        // White's wall on the sixth line, Black's on the fifth; a White stone at C2 inside
        // Black's area, in atari among Black stones, is dead.
        let rows = [
            ".........",
            ".........",
            ".........",
            "OOOOOOOOO",
            "XXXXXXXXX",
            ".........",
            "..X......",
            ".XOX.....",
            ".........",
        ];
        let g = Game::from_diagram(&rows, Rules::chinese()).unwrap();
        let b = g.board().clone();
        let index = |col, row| b.points().position(|p| p == b.point(col, row)).unwrap();
        let (dead, wall) = (index(2, 7), index(4, 4));
        let mut p = Player::new(Config {
            threads: 1,
            seed: Some(7),
            ..Config::default()
        });
        let mut watch = Watch {
            ownership_detail: true,
            ..Watch::none()
        };
        let limits = Limits {
            playouts: Some(2000),
            ..Limits::default()
        };
        let a = p
            .analyse_watched(&g, Color::Black, limits, &[], &mut watch)
            .clone();
        // Black to move: +1 is Black's. The dead White stone's point is Black's, and so is
        // Black's wall, with little spread.
        assert!(a.ownership[dead] > 0.6, "{}", a.ownership[dead]);
        assert!(a.ownership[wall] > 0.9, "{}", a.ownership[wall]);
        assert_eq!(a.ownership_stdev.len(), 81);
        for (o, sd) in a.ownership.iter().zip(&a.ownership_stdev) {
            // With owners in {-1, 0, 1}: variance = E[o²] − E[o]² ≤ 1 − E[o]².
            assert!((0.0..=1.0).contains(sd), "{}", sd);
            assert!(sd * sd + o * o <= 1.0 + 1e-4, "{} {}", sd, o);
        }
        assert!(a.ownership_stdev[wall] < 0.4, "{}", a.ownership_stdev[wall]);
        // Every move with playouts has its own map; the best one agrees on the dead stone, and
        // the maps of all moves, weighted by their playouts, make the root's.
        let mut weighted = vec![0.0f64; 81];
        let mut total = 0u32;
        for m in &a.moves {
            assert_eq!(m.ownership.len(), 81, "{:?}", m.mv);
            if m.visits > 0 {
                total += m.visits;
                for (w, o) in weighted.iter_mut().zip(&m.ownership) {
                    *w += m.visits as f64 * *o as f64;
                }
            }
        }
        assert!(a.moves[0].ownership[dead] > 0.6, "{:?}", a.moves[0]);
        assert_eq!(total, 2000);
        for (w, o) in weighted.iter().zip(&a.ownership) {
            assert!((w / total as f64 - *o as f64).abs() < 1e-3, "{} {}", w, o);
        }
        // Without the detail: none of it.
        let a = p
            .analyse_watched(&g, Color::Black, limits, &[], &mut Watch::none())
            .clone();
        assert!(a.ownership_stdev.is_empty() && a.moves.iter().all(|m| m.ownership.is_empty()));
    }

    #[test]
    fn an_interrupt_ends_a_search_after_its_minimum() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 2,
            ..Config::default()
        });
        let start = Instant::now();
        let mut watch = Watch {
            interrupted: &|| true,
            min_playouts: 200,
            progress: None,
            ownership_detail: false,
        };
        let a = p
            .analyse_watched(
                &g,
                Color::Black,
                Limits {
                    time: Some(Duration::from_secs(60)),
                    ..Limits::default()
                },
                &[],
                &mut watch,
            )
            .clone();
        assert!(start.elapsed() < Duration::from_secs(30));
        assert!(a.playouts >= 200);
        assert!(a.moves[0].visits > 0 && !a.moves[0].pv.is_empty());
    }

    #[test]
    fn progress_reports_come_at_the_interval() {
        let g = Game::new(9, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            ..Config::default()
        });
        let mut seen = Vec::new();
        let mut report = |a: &Analysis| seen.push(a.playouts);
        let mut watch = Watch {
            interrupted: &|| false,
            min_playouts: 0,
            progress: Some((Duration::from_millis(20), &mut report)),
            ownership_detail: false,
        };
        p.analyse_watched(
            &g,
            Color::Black,
            Limits {
                time: Some(Duration::from_millis(300)),
                ..Limits::default()
            },
            &[],
            &mut watch,
        );
        assert!(seen.len() >= 3, "{:?}", seen);
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{:?}", seen);
    }

    #[test]
    fn far_ahead_the_player_concedes_komi_only_when_maximizing_score() {
        // Komi -40 on 9x9: Black wins every line.
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        g.set_komi(HalfPoints(-80));
        for maximize_score in [false, true] {
            let mut p = Player::new(Config {
                threads: 1,
                playouts: Some(300),
                seed: Some(5),
                max_memory_mb: 16,
                resign: None,
                maximize_score,
                ..Config::default()
            });
            let mut game = g.clone();
            for _ in 0..3 {
                for color in [Color::Black, Color::White] {
                    if let Decision::Play(mv) = p.genmove(&game, color, false) {
                        game.play(color, mv).unwrap();
                    }
                }
            }
            let conceded = p.conceded_komi(Color::Black);
            if maximize_score {
                // Two points a search, three searches (fewer if one was skipped for a pass).
                assert!(conceded > HalfPoints::ZERO && conceded <= HalfPoints(12));
                assert_eq!(conceded.0 % 4, 0);
            } else {
                assert_eq!(conceded, HalfPoints::ZERO);
            }
            assert_eq!(p.conceded_komi(Color::White), HalfPoints::ZERO);
        }
    }

    /// The 2×2 position of issue 13: Black a1 and a2, White b2, Black to move.
    fn tiny_game() -> Game {
        let mut g = Game::new(2, Rules::chinese()).unwrap();
        let at = |g: &Game, c, r| Move::Play(g.board().point(c, r));
        for (color, (c, r)) in [
            (Color::Black, (0, 0)),
            (Color::White, (1, 1)),
            (Color::Black, (0, 1)),
        ] {
            let mv = at(&g, c, r);
            g.play(color, mv).unwrap();
        }
        g
    }

    #[test]
    fn a_simulation_on_a_tiny_board_expands_one_node() {
        let g = tiny_game();
        let mut p = Player::new(Config {
            threads: 1,
            max_memory_mb: 64,
            ..Config::default()
        });
        p.analyse(&g, Color::White, Some(200), None);
        let tree = &p.runner.kept.as_ref().unwrap().tree;
        assert_eq!(tree.root().visits(), 200);
        // At most one expansion (a handful of children) per simulation.
        assert!(tree.nodes() < 200 * 6, "{} nodes", tree.nodes());
        let shown: u32 = p.analysis().moves.iter().map(|m| m.visits).sum();
        assert!(shown >= 190, "analysis shows {shown} visits");
    }

    /// A one-thread player whose tree may take one megabyte.
    fn one_megabyte_player() -> Player {
        Player::new(Config {
            threads: 1,
            max_memory_mb: 1,
            ..Config::default()
        })
    }

    /// An analysis of `g` for Black with no budget, interrupted once `playouts` are done.
    fn analyse_until(p: &mut Player, g: &Game, playouts: u64) -> Analysis {
        let mut watch = Watch {
            interrupted: &|| true,
            min_playouts: playouts,
            progress: None,
            ownership_detail: false,
        };
        p.analyse_watched(g, Color::Black, Limits::default(), &[], &mut watch)
            .clone()
    }

    #[test]
    fn a_full_tree_goes_on_from_its_leaves() {
        let g = Game::new(5, Rules::chinese()).unwrap();
        let mut p = one_megabyte_player();
        // No budget: only the interrupt, honoured after 20,000 playouts, ends it.
        let a = analyse_until(&mut p, &g, 20_000);
        assert!(a.playouts >= 20_000, "stopped after {}", a.playouts);
        let tree = &p.runner.kept.as_ref().unwrap().tree;
        assert!(tree.is_full());
        assert!(tree.root().visits() >= 20_000);
    }

    #[test]
    fn a_smaller_memory_budget_fits_the_kept_tree_at_once() {
        let g = Game::new(5, Rules::chinese()).unwrap();
        let mut p = Player::new(Config {
            threads: 1,
            max_memory_mb: 64,
            ..Config::default()
        });
        analyse_until(&mut p, &g, 20_000);
        let before = p.runner.kept.as_ref().unwrap().tree.allocated_nodes();
        assert!(before > 2 * Tree::capacity_for(1), "{} nodes", before);
        p.set_max_memory(1);
        let tree = &p.runner.kept.as_ref().unwrap().tree;
        assert_eq!(tree.capacity(), Tree::capacity_for(1));
        assert!(
            tree.allocated_nodes() < before / 2,
            "{} nodes",
            tree.allocated_nodes()
        );
        assert!(tree.root().visits() >= 20_000);
    }

    #[test]
    fn the_kept_subtree_stays_in_the_kept_trees_memory() {
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        let mut p = one_megabyte_player();
        analyse_until(&mut p, &g, 5_000);
        let kept = &p.runner.kept.as_ref().unwrap().tree;
        assert!(kept.is_full());
        let (arena, allocated) = (kept.root() as *const _, kept.allocated_nodes());
        // Black's and White's most visited moves are played: the next search starts from there.
        let mut node = Tree::ROOT;
        for color in [Color::Black, Color::White] {
            node = kept
                .children(node)
                .max_by_key(|&c| kept.node(c).visits())
                .unwrap();
            g.play(color, kept.node(node).mv()).unwrap();
        }
        let visits = kept.node(node).visits();
        let grandchildren: Vec<(Move, u32)> = kept
            .children(node)
            .map(|c| (kept.node(c).mv(), kept.node(c).visits()))
            .collect();
        let t = p.runner.reuse_tree(&g, Color::Black, Tree::capacity_for(1));
        // No second tree was allocated beside the kept one: the subtree was moved within it,
        // and what it does not use is freed.
        assert!(std::ptr::eq(arena, t.root()));
        assert!(t.allocated_nodes() <= allocated);
        assert!(!t.is_full());
        assert_eq!(t.root().visits(), visits);
        let moved: Vec<(Move, u32)> = t
            .children(Tree::ROOT)
            .map(|c| (t.node(c).mv(), t.node(c).visits()))
            .collect();
        assert_eq!(moved, grandchildren);
    }

    #[test]
    fn root_moves_never_repeat_a_position_under_basic_ko() {
        // Send two, return one on 7×7: after Black C1 and White's capture of two at A1, Black's
        // recapture at B1 recreates the start. Japanese rules allow it; tengen does not offer it.
        let rows = [
            ".......", ".......", ".......", ".......", "XXXXX..", "XOOOX..", ".X.O...",
        ];
        let mut g = Game::from_diagram(&rows, Rules::japanese()).unwrap();
        let b = g.board().clone();
        g.play(Color::Black, Move::Play(b.point(2, 6))).unwrap();
        g.play(Color::White, Move::Play(b.point(0, 6))).unwrap();
        let repeat = Move::Play(b.point(1, 6));
        assert!(g.is_legal(Color::Black, repeat));
        let moves = Player::root_moves(&g, Color::Black, true);
        assert!(!moves.contains(&repeat));
        assert!(moves.contains(&Move::Pass));
        assert!(moves.len() > 10);
    }
}
