//! A game record over the board: the configured rules, move history with unlimited undo, the
//! positions seen (for superko, positional or situational, and for reporting Japanese
//! repetitions), prisoners, consecutive passes, handicap and setup stones, and the pre-judgement opening.
//!
//! The opening placements (pre-judgement: W, B, W, B, no pass) belong to a game started on an
//! empty board. A record that starts from a set-up position (SGF setup stones: a problem, an
//! analysis position; see [`Game::start_from_position`]) has its opening behind it: no placement
//! order, passes allowed, the side to move as the record says. Stones placed with
//! [`Game::setup`] alone (diagrams, tests) only change the start board.
//!
//! The record is compact, a few dozen bytes per move: each move keeps what it changed besides the
//! stones (the board's ko and last moves, prisoners, passes, side to move), and a copy of the
//! board is kept at the start and then every [`STONES_PER_CHECKPOINT`] stones or
//! [`MOVES_PER_CHECKPOINT`] moves. Undo of a pass puts the saved marks back; undo of a stone
//! copies the last checkpoint and replays the stones since it (at most a few hundred), which gives
//! back the board exactly as it was, field for field.
//!
//! Invariants: `board` is the position after every move of `history`; `checkpoints[0]` is the
//! start position and each checkpoint is the board after its number of moves; `seen` counts each
//! position hash of `positions` (the start position and one per move), so undo is exact; a
//! failed operation changes nothing. A game holds at most [`MAX_MOVES`] moves.

use crate::board::{Board, BoardError, Color, Marks, Move, Outcome, Point, Removal};
use crate::rules::{HalfPoints, KoRule, Rules};
use std::collections::HashMap;

mod diagram;
mod error;

pub use diagram::DiagramError;
pub use error::GameError;

/// The most moves a game holds. Real games end within a thousand moves (19×19 professional games
/// within about 400; an engine's cap for a game between programs is a few times the board's
/// area), so this leaves a hundred times that; it bounds the record at a few megabytes and
/// keeps memory bounded under any stream of `play` commands or any SGF file.
pub const MAX_MOVES: usize = 100_000;

/// Stones played between two kept boards: undo replays at most this many.
pub const STONES_PER_CHECKPOINT: usize = 256;

/// Moves (passes included) between two kept boards, so that undo never walks a long run of
/// passes.
pub const MOVES_PER_CHECKPOINT: usize = 4096;

/// One move of the record with what undo needs to restore besides the stones.
#[derive(Copy, Clone)]
struct Record {
    color: Color,
    mv: Move,
    /// The mover's own stones were removed in a both-sides-without-liberties capture (a choice
    /// only the pre-judgement rules give): replay must remove the same side.
    removed_own: bool,
    /// The board's ko and last moves before the move.
    marks: Marks,
    prisoners: [u32; 2],
    passes: u8,
    to_move: Color,
}

/// A board kept for undo: the position after the first `moves` moves.
#[derive(Clone)]
struct Checkpoint {
    moves: usize,
    board: Board,
}

/// A move as played, for SGF output and the search.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    pub color: Color,
    pub mv: Move,
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    komi: HalfPoints,
    board: Board,
    to_move: Color,
    history: Vec<Record>,
    /// Boards to replay from on undo; the first is the start position.
    checkpoints: Vec<Checkpoint>,
    /// Stones played since the last checkpoint.
    stones_since_checkpoint: usize,
    /// Position hashes: the start, then one after each move (a pass repeats the previous one).
    positions: Vec<u64>,
    seen: HashMap<u64, u32>,
    /// Stones captured by each colour (index by `Color::index`).
    prisoners: [u32; 2],
    passes: u8,
    handicap: Vec<Point>,
    /// How many moves at the start of the record are the handicap stones: a controller that
    /// sends handicap stones as Black moves before White's first (see
    /// [`Game::read_moves_as_handicap`]); 0 when the handicap was placed as such.
    handicap_moves: usize,
    /// The record starts from a set-up position: the rules' opening placements, which build a
    /// position from an empty board, lie behind it.
    starts_from_position: bool,
}

impl Game {
    /// A new game on an empty board of side `size` under `rules`, with the rules' default komi.
    pub fn new(size: usize, rules: Rules) -> Option<Game> {
        let board = Board::new(size)?;
        let mut g = Game {
            rules,
            komi: rules.default_komi,
            checkpoints: vec![Checkpoint {
                moves: 0,
                board: board.clone(),
            }],
            stones_since_checkpoint: 0,
            board,
            to_move: rules.first_player,
            history: Vec::new(),
            positions: Vec::new(),
            seen: HashMap::new(),
            prisoners: [0; 2],
            passes: 0,
            handicap: Vec::new(),
            handicap_moves: 0,
            starts_from_position: false,
        };
        g.record_position(g.board.hash());
        Some(g)
    }

    /// Clears the board, keeping size, rules and komi.
    pub fn clear(&mut self) {
        let komi = self.komi;
        *self = Game::new(self.board.size(), self.rules).expect("size already valid");
        self.komi = komi;
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the ruleset without touching the position. The side to move follows the new
    /// rules only on an empty record.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        if self.history.is_empty() && self.handicap.is_empty() {
            self.to_move = rules.first_player;
        }
    }

    pub fn komi(&self) -> HalfPoints {
        self.komi
    }

    pub fn set_komi(&mut self, komi: HalfPoints) {
        self.komi = komi;
    }

    /// The colour expected to move next (GTP still lets either colour play).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves played since the start (passes included; setup and handicap stones excluded,
    /// handicap stones sent as moves too).
    pub fn move_number(&self) -> usize {
        self.history.len() - self.handicap_moves
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = PlayedMove> + ExactSizeIterator + '_ {
        self.history.iter().map(|r| PlayedMove {
            color: r.color,
            mv: r.mv,
        })
    }

    /// The moves played, in order, each with the side its stone removed in a
    /// both-sides-without-liberties capture: [`Removal::Own`] only where the mover's own stones
    /// went (what a record must say to be replayed).
    pub fn moves_with_removal(&self) -> impl Iterator<Item = (PlayedMove, Removal)> + '_ {
        self.history.iter().map(|r| {
            let played = PlayedMove {
                color: r.color,
                mv: r.mv,
            };
            (played, removal_of(r.removed_own))
        })
    }

    /// The position before the first move: the empty board, or the setup or handicap stones.
    pub fn start_board(&self) -> &Board {
        &self.checkpoints[0].board
    }

    /// Stones captured by `c`.
    pub fn prisoners(&self, c: Color) -> u32 {
        self.prisoners[c.index()]
    }

    /// Passes in a row at the end of the record.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Whether the last two moves were passes: play has stopped.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// The handicap stones: placed at the start, or played as the record's first moves.
    pub fn handicap(&self) -> &[Point] {
        &self.handicap
    }

    /// How many of the record's first moves are its handicap stones (0 when they were placed).
    pub fn handicap_moves(&self) -> usize {
        self.handicap_moves
    }

    /// Reads a record that is only Black stones (two or more) played from an empty board,
    /// under rules where Black moves first without opening placements, as a handicap game:
    /// how controllers without a handicap command send the stones. The moves stay in the
    /// record, each undoable; undoing back to them (or past them) makes them plain moves again.
    /// Returns whether the record was read so.
    pub fn read_moves_as_handicap(&mut self) -> bool {
        let start = &self.checkpoints[0].board;
        if self.history.len() < 2
            || !self.handicap.is_empty()
            || self.rules.first_player != Color::Black
            || self.rules.opening_placements > 0
            || start.empty_points().len() != start.size() * start.size()
        {
            return false;
        }
        let mut points = Vec::with_capacity(self.history.len());
        for r in &self.history {
            match (r.color, r.mv) {
                (Color::Black, Move::Play(p)) => points.push(p),
                _ => return false,
            }
        }
        self.handicap = points;
        self.handicap_moves = self.history.len();
        true
    }

    /// The opening placements this record opens with: the rules' own, none when it starts from
    /// a set-up position.
    pub fn opening_placements(&self) -> u8 {
        if self.starts_from_position {
            0
        } else {
            self.rules.opening_placements
        }
    }

    /// The rules as they apply to this record: the configured ones without the opening
    /// placements when the record starts from a set-up position. What a search or move generator that
    /// counts moves from the record's start must ask ([`Rules::in_opening`],
    /// [`Rules::opening_color`], [`Rules::pass_allowed`]); `rules` stays the configured ruleset.
    pub fn record_rules(&self) -> Rules {
        Rules {
            opening_placements: self.opening_placements(),
            ..self.rules
        }
    }

    /// Whether the pre-judgement opening placements are still running.
    pub fn in_opening(&self) -> bool {
        self.record_rules().in_opening(self.history.len())
    }

    /// The colour that must place the next stone while the opening placements run.
    pub fn opening_color(&self) -> Option<Color> {
        self.record_rules().opening_color(self.history.len())
    }

    /// The side to move at the start of the record, before its first move.
    pub fn start_to_move(&self) -> Color {
        self.history.first().map_or(self.to_move, |r| r.to_move)
    }

    /// Sets the side to move (SGF `PL`; before the first move, the record's first mover). During
    /// the opening placements their order decides, and another colour is refused.
    pub fn set_to_move(&mut self, color: Color) -> Result<(), GameError> {
        match self.opening_color() {
            Some(expected) if expected != color => Err(GameError::WrongColorInOpening { expected }),
            _ => {
                self.to_move = color;
                Ok(())
            }
        }
    }

    /// Stones each side has put on the board by moves (setup and handicap stones excluded):
    /// what the Japanese area-to-territory correction needs.
    pub fn stones_played(&self, c: Color) -> u32 {
        self.history
            .iter()
            .filter(|r| r.color == c && r.mv != Move::Pass)
            .count() as u32
    }

    /// Whether the current whole-board position occurred earlier in the game. Under basic-ko
    /// rules this is how a cycle (triple ko, eternal life) is reported; superko rules never let
    /// a stone reach such a position.
    pub fn position_repeated(&self) -> bool {
        let last = *self.positions.last().expect("start position");
        // A pass keeps the position; only count repeats produced by a stone.
        matches!(self.history.last(), Some(r) if r.mv != Move::Pass) && self.seen[&last] > 1
    }

    /// The position hash `moves` moves ago (0: now), if the record goes back that far.
    pub fn hash_moves_ago(&self, moves: usize) -> Option<u64> {
        let n = self.positions.len();
        (moves < n).then(|| self.positions[n - 1 - moves])
    }

    /// How many times the position with this hash has occurred so far.
    pub fn times_seen(&self, hash: u64) -> u32 {
        self.seen.get(&hash).copied().unwrap_or(0)
    }

    /// Whether the rules' superko forbids reaching the position `hash` with `to_move` to move:
    /// any earlier occurrence (positional), or one with the same side to move (situational).
    pub fn repeats(&self, hash: u64, to_move: Color) -> bool {
        match self.rules.ko {
            KoRule::Basic => false,
            KoRule::PositionalSuperko => self.seen.contains_key(&hash),
            // Rare enough (a hash seen before) that a walk over the record costs nothing.
            KoRule::SituationalSuperko => {
                self.seen.contains_key(&hash)
                    && self.positions.iter().enumerate().any(|(i, &h)| {
                        h == hash
                            && self.history.get(i).map_or(self.to_move, |r| r.to_move) == to_move
                    })
            }
        }
    }

    fn record_position(&mut self, h: u64) {
        self.positions.push(h);
        *self.seen.entry(h).or_insert(0) += 1;
    }

    fn forget_position(&mut self) {
        let h = self.positions.pop().expect("a position to forget");
        let n = self.seen.get_mut(&h).expect("counted");
        *n -= 1;
        if *n == 0 {
            self.seen.remove(&h);
        }
    }

    /// Checks a move for `color` without playing it; returns the board it would produce.
    pub fn check(&self, color: Color, mv: Move, removal: Removal) -> Result<Board, GameError> {
        self.try_move(color, mv, removal).map(|(board, _)| board)
    }

    /// The board a legal move produces and what it removed.
    fn try_move(
        &self,
        color: Color,
        mv: Move,
        removal: Removal,
    ) -> Result<(Board, Outcome), GameError> {
        if let Some(expected) = self.opening_color() {
            if mv == Move::Pass {
                return Err(GameError::PassInOpening);
            }
            if color != expected {
                return Err(GameError::WrongColorInOpening { expected });
            }
        }
        let mut after = self.board.clone();
        let outcome = match mv {
            Move::Pass => {
                after.pass();
                Outcome::default()
            }
            Move::Play(p) => {
                let removal = if self.rules.mover_chooses_removal {
                    removal
                } else {
                    Removal::Opponent
                };
                let outcome = after.try_play(p, color, self.rules.suicide_legal, removal)?;
                // A stone that leaves the board as it was (a one-stone suicide) is a pass in
                // disguise: refused under every superko, the situational one included, as KataGo
                // allows suicide of several stones only.
                if self.repeats(after.hash(), color.opponent())
                    || (self.rules.superko() && after.hash() == self.board.hash())
                {
                    return Err(GameError::Superko);
                }
                outcome
            }
        };
        Ok((after, outcome))
    }

    /// Whether `color` may play `mv` now.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv, Removal::Opponent).is_ok()
    }

    /// Plays a move for `color` (either colour may move: GTP allows it), removing the opponent's
    /// stones in a both-sides-without-liberties case.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Outcome, GameError> {
        self.play_with(color, mv, Removal::Opponent)
    }

    /// Plays a move, with the mover's choice of removal where the rules give one.
    pub fn play_with(
        &mut self,
        color: Color,
        mv: Move,
        removal: Removal,
    ) -> Result<Outcome, GameError> {
        if self.history.len() >= MAX_MOVES {
            return Err(GameError::TooLong);
        }
        let (after, outcome) = self.try_move(color, mv, removal)?;
        let removed_own = match mv {
            Move::Play(p) => {
                self.rules.mover_chooses_removal
                    && removal == Removal::Own
                    && self.board.is_mutual_capture(p, color)
            }
            Move::Pass => false,
        };
        self.history.push(Record {
            color,
            mv,
            removed_own,
            marks: self.board.marks(),
            prisoners: self.prisoners,
            passes: self.passes,
            to_move: self.to_move,
        });
        self.board = after;
        self.prisoners[color.index()] += outcome.captured as u32;
        self.prisoners[color.opponent().index()] += outcome.lost as u32;
        self.passes = if mv == Move::Pass {
            self.passes.saturating_add(1)
        } else {
            0
        };
        self.to_move = color.opponent();
        self.record_position(self.board.hash());
        self.stones_since_checkpoint += (mv != Move::Pass) as usize;
        let last = self.checkpoints.last().expect("the start position");
        if self.stones_since_checkpoint >= STONES_PER_CHECKPOINT
            || self.history.len() - last.moves >= MOVES_PER_CHECKPOINT
        {
            self.checkpoints.push(Checkpoint {
                moves: self.history.len(),
                board: self.board.clone(),
            });
            self.stones_since_checkpoint = 0;
        }
        Ok(outcome)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), GameError> {
        let r = self.history.pop().ok_or(GameError::NothingToUndo)?;
        self.forget_position();
        let moves = self.history.len();
        if self.checkpoints.last().expect("the start position").moves > moves {
            self.checkpoints.pop();
            let from = self.checkpoints.last().expect("the start position").moves;
            self.stones_since_checkpoint = self.history[from..]
                .iter()
                .filter(|h| h.mv != Move::Pass)
                .count();
        } else if r.mv != Move::Pass {
            self.stones_since_checkpoint -= 1;
        }
        if r.mv != Move::Pass {
            // The stones as they were: the last checkpoint, then the stones played since.
            let last = self.checkpoints.last().expect("the start position");
            self.board.copy_from(&last.board);
            for h in &self.history[last.moves..] {
                if let Move::Play(p) = h.mv {
                    self.board.play_with(p, h.color, removal_of(h.removed_own));
                }
            }
        }
        self.board.restore_marks(r.marks);
        self.prisoners = r.prisoners;
        self.passes = r.passes;
        self.to_move = r.to_move;
        if self.history.len() <= self.handicap_moves {
            // Back before White's first move: the stones are plain moves again.
            self.handicap.clear();
            self.handicap_moves = 0;
        }
        Ok(())
    }

    /// Places setup stones (SGF `AB`/`AW`, or a controller's edits) before any move. Each entry
    /// puts a stone, or with `None` clears the point (`AE`). The whole list is applied or none.
    pub fn setup(&mut self, stones: &[(Point, Option<Color>)]) -> Result<(), GameError> {
        if !self.history.is_empty() {
            return Err(GameError::BoardNotEmpty);
        }
        // The position the list asks for (a later entry for a point overrides an earlier one),
        // then built once on an empty board: linear in the list, however many entries repeat.
        let mut target: Vec<Option<Color>> = vec![None; crate::board::CELLS];
        for p in self.board.points() {
            target[p.idx()] = self.board.color(p);
        }
        for &(p, c) in stones {
            if !self.board.on_board(p) {
                return Err(GameError::Board(BoardError::OffBoard));
            }
            target[p.idx()] = c;
        }
        // Stones already there first, then the list's in its order (the order the empty-point
        // list, and so a seeded search, depends on).
        let order = self
            .board
            .points()
            .filter(|&p| self.board.color(p).is_some())
            .chain(stones.iter().map(|&(p, _)| p));
        let mut placed = vec![false; crate::board::CELLS];
        let mut board = Board::new(self.board.size()).expect("size already valid");
        for p in order {
            if std::mem::replace(&mut placed[p.idx()], true) {
                continue;
            }
            if let Some(c) = target[p.idx()] {
                // Liberties only shrink as stones are added, so a stone that captures or is
                // captured here means a group without liberties in the asked-for position:
                // setup stones that capture or are captured are not a position.
                let out = board.set_stone(p, c);
                if out.captured > 0 || out.lost > 0 {
                    return Err(GameError::Board(BoardError::Suicide));
                }
            }
        }
        self.checkpoints[0].board.copy_from(&board);
        self.board = board;
        self.positions.clear();
        self.seen.clear();
        self.record_position(self.board.hash());
        Ok(())
    }

    /// Makes the start board, if it holds stones, a set-up position (SGF setup stones: a
    /// problem, an analysis position): the opening placements lie behind it, so either colour may
    /// move first and a pass is legal at once. Only before the first move.
    pub fn start_from_position(&mut self) -> Result<(), GameError> {
        if !self.history.is_empty() {
            return Err(GameError::BoardNotEmpty);
        }
        self.starts_from_position = self.board.empty_points().len() != self.board_area();
        Ok(())
    }

    /// Edits the position in the middle of the record (SGF setup stones after a move: a
    /// review's "what if"), each entry as in [`Game::setup`]. The record restarts from the
    /// edited position, a set-up position ([`Game::start_from_position`]) keeping the komi, the
    /// prisoners, the handicap and the side to move: the moves before the edit can no longer be
    /// undone, and their positions no longer count for superko. On a refused edit nothing
    /// changes.
    pub fn edit_position(&mut self, stones: &[(Point, Option<Color>)]) -> Result<(), GameError> {
        let mut edited = Game::new(self.board.size(), self.rules).expect("size already valid");
        let mut all: Vec<(Point, Option<Color>)> = self
            .board
            .points()
            .filter_map(|p| self.board.color(p).map(|c| (p, Some(c))))
            .collect();
        all.extend_from_slice(stones);
        edited.setup(&all)?;
        edited.starts_from_position = true;
        edited.komi = self.komi;
        edited.prisoners = self.prisoners;
        edited.handicap = self.handicap.clone();
        edited.to_move = self.to_move;
        *self = edited;
        Ok(())
    }

    /// Places handicap stones for Black on an empty board; White moves next.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), GameError> {
        if !self.history.is_empty() || self.board.empty_points().len() != self.board_area() {
            return Err(GameError::BoardNotEmpty);
        }
        let mut seen = points.to_vec();
        seen.sort();
        seen.dedup();
        if seen.len() != points.len() || points.iter().any(|&p| !self.board.on_board(p)) {
            return Err(GameError::Board(BoardError::Occupied));
        }
        let stones: Vec<_> = points.iter().map(|&p| (p, Some(Color::Black))).collect();
        self.setup(&stones)?;
        self.handicap = points.to_vec();
        self.to_move = Color::White;
        Ok(())
    }

    fn board_area(&self) -> usize {
        self.board.size() * self.board.size()
    }
}

/// The removal a record's flag stands for.
fn removal_of(removed_own: bool) -> Removal {
    if removed_own {
        Removal::Own
    } else {
        Removal::Opponent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(g: &Game, s: &str) -> Point {
        // "C3"-style coordinates for tests: column letter (no I), row from the bottom.
        let b = g.board();
        let col = crate::board::COLUMNS
            .iter()
            .position(|&c| c == s.as_bytes()[0])
            .unwrap();
        let row: usize = s[1..].parse().unwrap();
        b.point(col, b.size() - row)
    }

    #[test]
    fn situational_superko_looks_at_the_side_to_move() {
        // Black walls off A1 and B1; White to move at the start. White A1, Black passes, White B1
        // is a suicide of both stones that recreates the start position with Black to move:
        // a position seen before (positional superko refuses it) but not with Black to move
        // (situational superko allows it).
        for (rules, legal) in [(Rules::new_zealand(), true), (Rules::tromp_taylor(), false)] {
            let mut g = Game::new(5, rules).unwrap();
            let stones: Vec<_> = ["A2", "B2", "C1"]
                .iter()
                .map(|s| (pt(&g, s), Some(Color::Black)))
                .collect();
            g.setup(&stones).unwrap();
            g.set_to_move(Color::White).unwrap();
            let (a1, b1) = (pt(&g, "A1"), pt(&g, "B1"));
            g.play(Color::White, Move::Play(a1)).unwrap();
            g.play(Color::Black, Move::Pass).unwrap();
            assert_eq!(
                g.is_legal(Color::White, Move::Play(b1)),
                legal,
                "{}",
                rules.name
            );
            if legal {
                g.play(Color::White, Move::Play(b1)).unwrap();
                // White A1 again would make the position after White's first A1, Black to
                // move, once more.
                g.play(Color::Black, Move::Pass).unwrap();
                assert_eq!(
                    g.check(Color::White, Move::Play(a1), Removal::Opponent)
                        .err(),
                    Some(GameError::Superko)
                );
            }
            // A one-stone suicide is refused under both.
            let mut h = Game::new(5, rules).unwrap();
            h.setup(&[
                (pt(&h, "A2"), Some(Color::Black)),
                (pt(&h, "B1"), Some(Color::Black)),
            ])
            .unwrap();
            assert!(!h.is_legal(Color::White, Move::Play(a1)));
        }
    }

    #[test]
    fn undo_restores_everything() {
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        let start = g.board().clone();
        for (c, m) in [
            (Color::Black, "B2"),
            (Color::White, "A2"),
            (Color::Black, "A3"),
            (Color::White, "B1"),
            (Color::Black, "A1"),
        ] {
            let p = pt(&g, m);
            g.play(c, Move::Play(p)).unwrap();
        }
        // A1 captures nothing: White's B1 has C1; A2 is captured by A1? A2 has libs A1 only.
        assert_eq!(g.prisoners(Color::Black), 1);
        while g.undo().is_ok() {}
        assert_eq!(g.board(), &start);
        assert_eq!(g.prisoners(Color::Black), 0);
        assert_eq!(g.undo(), Err(GameError::NothingToUndo));
    }

    /// Everything observable of a board: stones, ko, last moves, the empty list's order.
    fn snapshot(b: &Board) -> (Board, (Move, Move), Vec<Point>) {
        (b.clone(), b.last_moves(), b.empty_points().to_vec())
    }

    #[test]
    fn a_move_costs_bytes_not_a_board() {
        // What the record keeps per move, and the kept boards a long run of passes adds.
        assert!(
            std::mem::size_of::<Record>() <= 32,
            "{}",
            std::mem::size_of::<Record>()
        );
        let mut g = Game::new(19, Rules::japanese()).unwrap();
        for i in 0..10_000 {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            g.play(c, Move::Pass).unwrap();
        }
        assert_eq!(g.checkpoints.len(), 1 + 10_000 / MOVES_PER_CHECKPOINT);
    }

    #[test]
    fn undo_across_kept_boards_is_exact() {
        // A long random game on 5x5 (thousands of stones, captures, passes, ko) crosses many
        // kept boards; undo must give back every earlier board exactly, and the prisoners,
        // passes and side to move with it.
        for rules in [Rules::japanese(), Rules::chinese(), Rules::prejudgement()] {
            let mut rng = fastrand::Rng::with_seed(0x0c0de);
            let mut g = Game::new(5, rules).unwrap();
            let mut states = vec![(snapshot(g.board()), g.prisoners, g.passes, g.to_move)];
            while g.move_number() < 4000 {
                let color = rules.opening_color(g.move_number()).unwrap_or(g.to_move());
                let mut cands = g.board().empty_points().to_vec();
                let mut played = false;
                while !cands.is_empty() && (g.in_opening() || rng.f64() > 0.03) {
                    let p = cands.swap_remove(rng.usize(..cands.len()));
                    let removal = if rng.bool() {
                        Removal::Own
                    } else {
                        Removal::Opponent
                    };
                    if g.play_with(color, Move::Play(p), removal).is_ok() {
                        played = true;
                        break;
                    }
                }
                if !played && g.play(color, Move::Pass).is_err() {
                    break;
                }
                states.push((snapshot(g.board()), g.prisoners, g.passes, g.to_move));
            }
            assert!(g.checkpoints.len() > 3, "{}", g.checkpoints.len());
            states.pop();
            while let Some(want) = states.pop() {
                g.undo().unwrap();
                assert_eq!(
                    (snapshot(g.board()), g.prisoners, g.passes, g.to_move),
                    want,
                    "{} after undo to move {}",
                    rules.name,
                    g.move_number()
                );
                g.board().verify().unwrap();
            }
            assert_eq!(g.checkpoints.len(), 1);
            assert_eq!(g.undo(), Err(GameError::NothingToUndo));
        }
    }

    #[test]
    fn a_full_record_refuses_more_moves() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        for i in 0..MAX_MOVES {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            g.play(c, Move::Pass).unwrap();
        }
        let p = pt(&g, "E5");
        let before = snapshot(g.board());
        assert_eq!(g.play(Color::Black, Move::Play(p)), Err(GameError::TooLong));
        assert_eq!(g.play(Color::Black, Move::Pass), Err(GameError::TooLong));
        assert_eq!(snapshot(g.board()), before);
        assert_eq!((g.move_number(), g.to_move()), (MAX_MOVES, Color::Black));
        g.undo().unwrap();
        g.play(Color::White, Move::Play(p)).unwrap();
    }

    #[test]
    fn diagrams_set_up_positions() {
        let g = Game::from_diagram(&["X O .", ". X .", ". . ."], Rules::japanese()).unwrap();
        let b = g.board();
        assert_eq!(b.color(pt(&g, "A3")), Some(Color::Black));
        assert_eq!(b.color(pt(&g, "B3")), Some(Color::White));
        assert_eq!(b.color(pt(&g, "B2")), Some(Color::Black));
        assert_eq!(b.empty_points().len(), 6);
        assert_eq!((g.move_number(), g.start_board()), (0, b));

        // Lowercase stones: the opening placements where the rules have them, else setup.
        let rows = ["o....", ".....", "..X..", ".....", "x...o"];
        let pj = Game::from_diagram(&rows, Rules::prejudgement());
        assert_eq!(pj.err(), Some(DiagramError::Opening), "three placements");
        let rows = ["o...x", ".....", "..X..", ".....", "x...o"];
        let pj = Game::from_diagram(&rows, Rules::prejudgement()).unwrap();
        let order: Vec<_> = pj.moves().map(|m| (m.color, m.mv)).collect();
        let at = |s| Move::Play(pt(&pj, s));
        let w = Color::White;
        let want = [
            (w, at("A5")),
            (Color::Black, at("E5")),
            (w, at("E1")),
            (Color::Black, at("A1")),
        ];
        assert_eq!(order, want);
        assert!(!pj.in_opening());
        let jp = Game::from_diagram(&rows, Rules::japanese()).unwrap();
        assert_eq!(jp.move_number(), 0);
        assert_eq!(jp.board(), pj.board());

        let err = |rows: &[&str]| Game::from_diagram(rows, Rules::chinese()).err();
        assert_eq!(err(&["X"]), Some(DiagramError::Size(1)));
        assert_eq!(err(&["X.", "..."]), Some(DiagramError::Width { row: 1 }));
        assert_eq!(
            err(&["X.", ".#"]),
            Some(DiagramError::Character { row: 1, ch: '#' })
        );
        assert_eq!(
            err(&["XO", "O."]),
            Some(DiagramError::Game(GameError::Board(BoardError::Suicide)))
        );
    }

    #[test]
    fn opening_enforces_colours_and_no_pass() {
        let mut g = Game::new(9, Rules::prejudgement()).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(
            g.play(Color::White, Move::Pass),
            Err(GameError::PassInOpening)
        );
        let p = pt(&g, "E5");
        assert_eq!(
            g.play(Color::Black, Move::Play(p)),
            Err(GameError::WrongColorInOpening {
                expected: Color::White
            })
        );
        g.play(Color::White, Move::Play(p)).unwrap();
        assert!(g.in_opening());
        for (c, m) in [
            (Color::Black, "C3"),
            (Color::White, "G7"),
            (Color::Black, "C7"),
        ] {
            let p = pt(&g, m);
            g.play(c, Move::Play(p)).unwrap();
        }
        assert!(!g.in_opening());
        assert_eq!(g.to_move(), Color::White);
        g.play(Color::White, Move::Pass).unwrap();
        g.undo().unwrap();
        g.undo().unwrap();
        assert!(g.in_opening());
    }
}
