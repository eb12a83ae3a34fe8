//! A deliberately simple, slow reference implementation of the Go rules, written only for tests.
//!
//! It shares nothing with tengen's board but the `Color` and `Rules` types: stones are a
//! `Vec<Option<Color>>` indexed by `row * n + col` (row 0 = top), liberties are found by flood
//! fill on every question, and repetition is found by comparing whole boards, as vectors, with
//! every earlier position of the game. Nothing is incremental, nothing is hashed.
//!
//! Rules, read from `/work/shared/RULES.md` and asked of tengen's `Rules` fields:
//! - a stone goes on an empty point; opponent groups left without liberties are removed; then
//!   its own group, if it has none, is removed (suicide), which is legal only if
//!   `suicide_legal`;
//! - "both sides without liberties" (the new stone's group has no liberties before captures and
//!   the stone captures something): the opponent's stones are removed, or, if
//!   `mover_chooses_removal`, the mover may instead remove its own group; each choice is a move;
//! - basic ko (`KoRule::Basic`): a move that captures exactly one stone and recreates the position
//!   that stood before the opponent's previous move is illegal;
//! - positional superko: a stone is illegal if the board it produces equals the board at any
//!   earlier point of the game (the start position included); situational superko: equals it
//!   with the same side to move, the basic ko retake forbidden as well;
//! - a pass is legal unless `pass_allowed` says otherwise; the n-th move (0-based) of the opening
//!   is placed by `opening_color(n)`; two passes in a row end the game.

use tengen::board::Color;
use tengen::rules::{KoRule, Rules};

/// A whole-board stone arrangement, `row * n + col`.
pub type Stones = Vec<Option<Color>>;

/// A move in the reference's own coordinates. `own` is true only for the mover's choice to
/// remove its own stones in a both-sides-without-liberties case.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum RefMove {
    Pass,
    Play { col: usize, row: usize, own: bool },
}

/// One way a stone can be put down, before any repetition rule is asked.
#[derive(Clone, Debug)]
pub struct Placement {
    pub own: bool,
    pub result: Stones,
    /// Opponent stones removed.
    pub captured: usize,
    /// Own stones removed (suicide or the mover's own-removal choice).
    pub lost: usize,
}

/// The orthogonal neighbours of point `i` on an `n`×`n` board.
pub fn neighbours(n: usize, i: usize) -> Vec<usize> {
    let (col, row) = (i % n, i / n);
    let mut v = Vec::with_capacity(4);
    if row > 0 {
        v.push(i - n);
    }
    if col > 0 {
        v.push(i - 1);
    }
    if col + 1 < n {
        v.push(i + 1);
    }
    if row + 1 < n {
        v.push(i + n);
    }
    v
}

/// The group that has a stone on `i` (flood fill) and its distinct liberties, both sorted.
pub fn group_and_liberties(
    stones: &[Option<Color>],
    n: usize,
    i: usize,
) -> (Vec<usize>, Vec<usize>) {
    let color = stones[i].expect("a stone");
    let mut in_group = vec![false; stones.len()];
    let mut is_lib = vec![false; stones.len()];
    let mut stack = vec![i];
    in_group[i] = true;
    while let Some(q) = stack.pop() {
        for nb in neighbours(n, q) {
            match stones[nb] {
                None => is_lib[nb] = true,
                Some(c) if c == color && !in_group[nb] => {
                    in_group[nb] = true;
                    stack.push(nb);
                }
                _ => {}
            }
        }
    }
    let group = (0..stones.len()).filter(|&q| in_group[q]).collect();
    let libs = (0..stones.len()).filter(|&q| is_lib[q]).collect();
    (group, libs)
}

/// The ways `color` can put a stone on empty point `i` of `stones`, by the physics of the rules
/// (suicide, mutual capture) but before basic ko or superko. Empty if the point is occupied or
/// the stone is an illegal suicide.
pub fn placements(
    rules: &Rules,
    stones: &[Option<Color>],
    n: usize,
    i: usize,
    color: Color,
) -> Vec<Placement> {
    if stones[i].is_some() {
        return Vec::new();
    }
    let mut placed = stones.to_vec();
    placed[i] = Some(color);
    // Opponent groups next to the stone that have no liberty left.
    let mut dead_opp: Vec<usize> = Vec::new();
    for nb in neighbours(n, i) {
        if placed[nb] == Some(color.opponent()) && !dead_opp.contains(&nb) {
            let (group, libs) = group_and_liberties(&placed, n, nb);
            if libs.is_empty() {
                for q in group {
                    if !dead_opp.contains(&q) {
                        dead_opp.push(q);
                    }
                }
            }
        }
    }
    let (own_group, own_libs) = group_and_liberties(&placed, n, i);
    let own_dead = own_libs.is_empty();

    let remove = |set: &[usize]| {
        let mut r = placed.clone();
        for &q in set {
            r[q] = None;
        }
        r
    };
    let mut out = Vec::new();
    if !dead_opp.is_empty() {
        out.push(Placement {
            own: false,
            result: remove(&dead_opp),
            captured: dead_opp.len(),
            lost: 0,
        });
        if own_dead && rules.mover_chooses_removal {
            out.push(Placement {
                own: true,
                result: remove(&own_group),
                captured: 0,
                lost: own_group.len(),
            });
        }
    } else if own_dead {
        if rules.suicide_legal {
            out.push(Placement {
                own: false,
                result: remove(&own_group),
                captured: 0,
                lost: own_group.len(),
            });
        }
    } else {
        out.push(Placement {
            own: false,
            result: placed,
            captured: 0,
            lost: 0,
        });
    }
    out
}

/// A game under the reference rules.
#[derive(Clone)]
pub struct RefGame {
    pub rules: Rules,
    pub n: usize,
    pub stones: Stones,
    /// The colour expected to move next outside the opening.
    pub to_move: Color,
    /// Passes in a row at the end of the record.
    pub passes: u32,
    /// `positions[k]`: the board after `k` moves (`positions[0]`: the start, setup included).
    pub positions: Vec<Stones>,
    /// The moves played and who played them.
    pub moves: Vec<(Color, RefMove)>,
    /// Stones captured by Black, by White.
    pub prisoners: [u32; 2],
    saved: Vec<(Color, u32, [u32; 2])>,
}

impl RefGame {
    /// An empty board of side `n`.
    pub fn new(n: usize, rules: Rules) -> RefGame {
        RefGame::from_stones(n, rules, vec![None; n * n])
    }

    /// A game that starts from a set-up position; the rules' first player moves first.
    pub fn from_stones(n: usize, rules: Rules, stones: Stones) -> RefGame {
        assert_eq!(stones.len(), n * n);
        RefGame {
            rules,
            n,
            stones: stones.clone(),
            to_move: rules.first_player,
            passes: 0,
            positions: vec![stones],
            moves: Vec::new(),
            prisoners: [0; 2],
            saved: Vec::new(),
        }
    }

    /// The stone on (`col`, `row`).
    pub fn at(&self, col: usize, row: usize) -> Option<Color> {
        self.stones[row * self.n + col]
    }

    /// The colour that moves next: the opening's colour, else `to_move`.
    pub fn mover(&self) -> Color {
        self.rules
            .opening_color(self.moves.len())
            .unwrap_or(self.to_move)
    }

    /// Whether a placement by `color` is forbidden by the ko or superko rule.
    fn repeats(&self, color: Color, p: &Placement) -> bool {
        match self.rules.ko {
            KoRule::PositionalSuperko => self.positions.contains(&p.result),
            // The board with the same side to move: each position's is the opponent of the
            // colour that made it, the rules' first player at the start. A stone that leaves
            // the board as it was (one-stone suicide) is refused too, as KataGo does, and so is
            // the basic ko retake (which, with the colours alternating, repeats the position
            // with the same side to move anyway; GTP lets a colour move twice in a row).
            KoRule::SituationalSuperko => {
                let m = self.moves.len();
                let basic_ko = m >= 1
                    && p.captured == 1
                    && self.moves[m - 1].0 == color.opponent()
                    && self.positions[m - 1] == p.result;
                basic_ko
                    || p.result == self.stones
                    || self.positions.iter().enumerate().any(|(i, s)| {
                        let to_move = match i {
                            0 => self.rules.first_player,
                            _ => self.moves[i - 1].0.opponent(),
                        };
                        *s == p.result && to_move == color.opponent()
                    })
            }
            KoRule::Basic => {
                let m = self.moves.len();
                m >= 1
                    && p.captured == 1
                    && self.moves[m - 1].0 == color.opponent()
                    && self.positions[m - 1] == p.result
            }
        }
    }

    /// The legal stone moves of `color` on (`col`, `row`) now, with the boards they produce
    /// (ignoring the opening's colour order: see [`RefGame::legal_moves`]).
    pub fn stone_options(&self, color: Color, col: usize, row: usize) -> Vec<(RefMove, Placement)> {
        placements(&self.rules, &self.stones, self.n, row * self.n + col, color)
            .into_iter()
            .filter(|p| !self.repeats(color, p))
            .map(|p| {
                (
                    RefMove::Play {
                        col,
                        row,
                        own: p.own,
                    },
                    p,
                )
            })
            .collect()
    }

    /// Every legal move of the side to move, pass first, then stones row by row.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.passes >= 2 {
            return Vec::new();
        }
        let color = self.mover();
        let mut v = Vec::new();
        if self.rules.pass_allowed(self.moves.len()) {
            v.push(RefMove::Pass);
        }
        for row in 0..self.n {
            for col in 0..self.n {
                v.extend(
                    self.stone_options(color, col, row)
                        .into_iter()
                        .map(|(m, _)| m),
                );
            }
        }
        v
    }

    /// Plays `mv` for `color`, checking every rule (the opening's colour and no-pass rule
    /// included). A `Play` with `own: true` is the own-removal choice and is legal only where
    /// that choice exists. On error nothing changes.
    pub fn play(&mut self, color: Color, mv: RefMove) -> Result<(), String> {
        let m = self.moves.len();
        if let Some(expected) = self.rules.opening_color(m) {
            if mv == RefMove::Pass {
                return Err("pass in the opening".into());
            }
            if color != expected {
                return Err(format!("opening placement {} is {:?}'s", m, expected));
            }
        }
        let (result, captured, lost) = match mv {
            RefMove::Pass => (self.stones.clone(), 0, 0),
            RefMove::Play { col, row, own } => {
                if col >= self.n || row >= self.n {
                    return Err("off board".into());
                }
                if self.at(col, row).is_some() {
                    return Err("occupied".into());
                }
                let all = placements(&self.rules, &self.stones, self.n, row * self.n + col, color);
                let Some(p) = all.into_iter().find(|p| p.own == own) else {
                    return Err("suicide (or no such removal choice)".into());
                };
                if self.repeats(color, &p) {
                    return Err("ko / superko".into());
                }
                (p.result, p.captured, p.lost)
            }
        };
        self.saved.push((self.to_move, self.passes, self.prisoners));
        self.prisoners[color.index()] += captured as u32;
        self.prisoners[color.opponent().index()] += lost as u32;
        self.passes = if mv == RefMove::Pass {
            self.passes + 1
        } else {
            0
        };
        self.to_move = color.opponent();
        self.stones = result.clone();
        self.positions.push(result);
        self.moves.push((color, mv));
        Ok(())
    }

    /// Plays a stone for `color`, taking the own-removal choice if `want_own` and the rules offer
    /// it for this stone, the default removal otherwise (as tengen's `Game::play_with` does).
    pub fn play_stone(
        &mut self,
        color: Color,
        col: usize,
        row: usize,
        want_own: bool,
    ) -> Result<(), String> {
        let own = want_own
            && col < self.n
            && row < self.n
            && placements(&self.rules, &self.stones, self.n, row * self.n + col, color)
                .iter()
                .any(|p| p.own);
        self.play(color, RefMove::Play { col, row, own })
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let (to_move, passes, prisoners) = self.saved.pop().expect("a move to undo");
        self.moves.pop();
        self.positions.pop();
        self.stones = self.positions.last().expect("start").clone();
        self.to_move = to_move;
        self.passes = passes;
        self.prisoners = prisoners;
    }

    /// The number of legal move sequences of length `depth` (tengen's perft conventions).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.passes >= 2 {
            return 0;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let color = self.mover();
        let mut total = 0;
        for mv in moves {
            self.play(color, mv).expect("a legal move plays");
            total += self.perft(depth - 1);
            self.undo();
        }
        total
    }

    /// A diagram: `X` Black, `O` White, `.` empty, row 0 at the top.
    pub fn diagram(&self) -> String {
        diagram(&self.stones, self.n)
    }
}

/// A diagram of a stone arrangement.
pub fn diagram(stones: &[Option<Color>], n: usize) -> String {
    let mut s = String::new();
    for row in 0..n {
        for col in 0..n {
            s.push(match stones[row * n + col] {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        s.push('\n');
    }
    s
}

/// Parses a diagram of `X`, `O` and `.` rows (whitespace between characters ignored).
pub fn parse_diagram(rows: &[&str]) -> (usize, Stones) {
    let n = rows.len();
    let mut stones = Vec::with_capacity(n * n);
    for r in rows {
        let cells: Vec<char> = r.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), n, "row {:?} is not {} wide", r, n);
        for c in cells {
            stones.push(match c {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                '.' => None,
                _ => panic!("bad diagram char {:?}", c),
            });
        }
    }
    (n, stones)
}
