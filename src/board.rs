//! The board: points, stones, groups, liberties and the Zobrist hash.
//!
//! This is the hot core that every playout runs on, so it is a plain `Clone` struct of fixed-size
//! arrays (no heap) and no move allocates. A search copies the board once per simulation:
//! [`Board::copy_from`] (also `clone_from`) copies only the part of the arrays the board's size
//! uses, into a board kept for the purpose. It knows only the physics of Go —
//! placing stones, capturing, simple ko — and nothing of rulesets, history or scoring.
//!
//! Layout: a padded one-dimensional array with row stride `size + 1`. Row 0 and row `size + 1` are
//! walls, and column 0 of every row is a wall shared by the row before it (KataGo's trick), so the
//! four neighbours of any on-board point are `p ± 1` and `p ± stride` and loops need no bounds
//! checks.
//!
//! Invariants, checked from scratch by [`Board::verify`]:
//! - every stone belongs to exactly one group, whose stones form a ring through `next`, and
//!   `group[s]` is the group's head for every stone `s` of it; `group` is 0 on empty points and
//!   walls (no head is 0), so "is a stone of group h" is one comparison;
//! - for a head `h`: `stones[h]` is the ring's length and `libs[h]` is the exact number of
//!   distinct empty points next to the group, `lib_sum[h]` their index sum and `lib_sq[h]` the sum
//!   of their squares (so a group in atari names its liberty in O(1), and one with two names both);
//! - no group on the board has zero liberties;
//! - `empties[..n_empty]` lists the empty points exactly once, `empty_pos` indexes it;
//! - `hash` is the XOR of the Zobrist keys of all stones;
//! - past the used part (`(size + 2) * (size + 1) + 1` cells, `size * size` empties) every array
//!   keeps the values `Board::new` gave it: walls and zeros.

use std::fmt;

/// Largest supported board side (GTP's limit).
pub const MAX_SIZE: usize = 25;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 2;
/// Cells in the padded array for the largest board, plus one spare.
pub const CELLS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// A player's colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The cell a stone of this colour occupies.
    #[inline]
    pub fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The single letter used by GTP and SGF.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// What occupies a cell of the padded array.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// An index into the padded array. Only meaningful together with the board it came from.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Point(pub u16);

impl Point {
    /// The "no point" marker; index 0 is always a wall cell.
    pub const NONE: Point = Point(0);

    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

/// Why the board refuses a stone.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BoardError {
    OffBoard,
    Occupied,
    /// The stone would leave its own group without liberties and capture nothing.
    Suicide,
    /// An immediate retake of a basic ko.
    Ko,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            BoardError::OffBoard => "off board",
            BoardError::Occupied => "occupied",
            BoardError::Suicide => "suicide",
            BoardError::Ko => "ko",
        })
    }
}

/// Which side's liberty-less stones a move removes when it leaves both sides without liberties.
/// Every ruleset removes the opponent's by default; pre-judgement lets the mover choose its own.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Removal {
    Opponent,
    Own,
}

/// What a stone placement removed from the board.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Outcome {
    /// Opponent stones captured.
    pub captured: u16,
    /// Own stones removed (suicide, or the mover's choice under [`Removal::Own`]).
    pub lost: u16,
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_zobrist() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][i] = k;
            i += 1;
        }
        c += 1;
    }
    keys
}

/// What a move changes on the board besides the stones: the basic-ko point and the last two
/// moves. A game saves it before each move so that undo puts it back exactly.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Marks {
    ko_point: Point,
    ko_color: Color,
    last_move: Move,
    last_move2: Move,
}

/// Zobrist keys per colour and cell; fixed, so hashes are reproducible across runs.
static ZOBRIST: [[u64; CELLS]; 2] = make_zobrist();

/// A Go board of any size from 2×2 to 25×25.
pub struct Board {
    size: u8,
    stride: u16,
    cells: [Cell; CELLS],
    group: [u16; CELLS],
    next: [u16; CELLS],
    stones: [u16; CELLS],
    libs: [u16; CELLS],
    lib_sum: [u32; CELLS],
    lib_sq: [u32; CELLS],
    empties: [Point; MAX_SIZE * MAX_SIZE],
    empty_pos: [u16; CELLS],
    n_empty: u16,
    hash: u64,
    /// The point where `ko_color` may not play at once (a basic ko), or `Point::NONE`.
    ko_point: Point,
    ko_color: Color,
    last_move: Move,
    last_move2: Move,
}

impl Board {
    /// An empty board of side `size`. Returns `None` outside 2..=25.
    pub fn new(size: usize) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let stride = size + 1;
        let mut b = Board {
            size: size as u8,
            stride: stride as u16,
            cells: [Cell::Wall; CELLS],
            group: [0; CELLS],
            next: [0; CELLS],
            stones: [0; CELLS],
            libs: [0; CELLS],
            lib_sum: [0; CELLS],
            lib_sq: [0; CELLS],
            empties: [Point::NONE; MAX_SIZE * MAX_SIZE],
            empty_pos: [0; CELLS],
            n_empty: 0,
            hash: 0,
            ko_point: Point::NONE,
            ko_color: Color::Black,
            last_move: Move::Pass,
            last_move2: Move::Pass,
        };
        for row in 0..size {
            for col in 0..size {
                let p = b.point(col, row);
                b.cells[p.idx()] = Cell::Empty;
                b.add_empty(p);
            }
        }
        Some(b)
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The point at column `col` (0 = left) and row `row` (0 = top), both below `size`.
    #[inline]
    pub fn point(&self, col: usize, row: usize) -> Point {
        debug_assert!(col < self.size() && row < self.size());
        Point(((row + 1) * self.stride as usize + col + 1) as u16)
    }

    /// The point at (`col`, `row`), or `None` when off the board.
    pub fn point_checked(&self, col: usize, row: usize) -> Option<Point> {
        (col < self.size() && row < self.size()).then(|| self.point(col, row))
    }

    /// Column and row (0 = top) of an on-board point.
    #[inline]
    pub fn coords(&self, p: Point) -> (usize, usize) {
        let stride = self.stride as usize;
        (p.idx() % stride - 1, p.idx() / stride - 1)
    }

    /// Every on-board point, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size();
        (0..n).flat_map(move |row| (0..n).map(move |col| self.point(col, row)))
    }

    /// Whether `p` is an on-board point of this board.
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        p.idx() < CELLS && self.cells[p.idx()] != Cell::Wall
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.idx()]
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub fn color(&self, p: Point) -> Option<Color> {
        self.cells[p.idx()].color()
    }

    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.idx()] == Cell::Empty
    }

    /// The four orthogonal neighbours (some may be walls).
    #[inline]
    pub fn neighbours(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s),
            Point(p.0 - 1),
            Point(p.0 + 1),
            Point(p.0 + s),
        ]
    }

    /// The four diagonal neighbours (some may be walls or, beyond a corner, outside the array's
    /// meaningful range but still within it).
    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s - 1),
            Point(p.0 - s + 1),
            Point(p.0 + s - 1),
            Point(p.0 + s + 1),
        ]
    }

    /// The 8 points around `p` (orthogonal, then diagonal): the neighbourhood of a last move that
    /// playout policies look at.
    #[inline]
    pub fn neighbourhood(&self, p: Point) -> [Point; 8] {
        let [a, b, c, d] = self.neighbours(p);
        let [e, f, g, h] = self.diagonals(p);
        [a, b, c, d, e, f, g, h]
    }

    /// The Zobrist hash of the stone arrangement (not of the side to move or the ko point).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The basic-ko point and the colour that may not retake there, if a ko was just taken.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko_point != Point::NONE).then_some((self.ko_point, self.ko_color))
    }

    /// The last two moves played on this board (most recent first).
    #[inline]
    pub fn last_moves(&self) -> (Move, Move) {
        (self.last_move, self.last_move2)
    }

    /// The ko and last moves, to put back with [`Board::restore_marks`].
    #[inline]
    pub fn marks(&self) -> Marks {
        Marks {
            ko_point: self.ko_point,
            ko_color: self.ko_color,
            last_move: self.last_move,
            last_move2: self.last_move2,
        }
    }

    /// Puts back the ko and last moves saved by [`Board::marks`]: with the stones as they were,
    /// the board is then the one it was, field for field.
    #[inline]
    pub fn restore_marks(&mut self, m: Marks) {
        self.ko_point = m.ko_point;
        self.ko_color = m.ko_color;
        self.last_move = m.last_move;
        self.last_move2 = m.last_move2;
    }

    /// Cells of the padded array a board of this size uses: the rows of points with their walls,
    /// and the wall rows above and below (diagonals of corners included).
    #[inline]
    fn used_cells(&self) -> usize {
        (self.size() + 2) * (self.size() + 1) + 1
    }

    /// Makes `self` the same board as `other`, field for field, copying only the part of each
    /// array that `other`'s size uses: a 9×9 copy moves about 2 KB instead of the 14 KB of a
    /// 25×25-capacity clone. Meant for the per-simulation copy of a search, into a board kept
    /// for it. Sound because nothing writes past the used part, which keeps the values
    /// [`Board::new`] gave it, the same for every board of one size; boards of different sizes
    /// get a full copy.
    #[inline]
    pub fn copy_from(&mut self, other: &Board) {
        if self.size != other.size {
            *self = other.clone();
            return;
        }
        let used = other.used_cells();
        let area = other.size() * other.size();
        self.cells[..used].copy_from_slice(&other.cells[..used]);
        self.group[..used].copy_from_slice(&other.group[..used]);
        self.next[..used].copy_from_slice(&other.next[..used]);
        self.stones[..used].copy_from_slice(&other.stones[..used]);
        self.libs[..used].copy_from_slice(&other.libs[..used]);
        self.lib_sum[..used].copy_from_slice(&other.lib_sum[..used]);
        self.lib_sq[..used].copy_from_slice(&other.lib_sq[..used]);
        self.empty_pos[..used].copy_from_slice(&other.empty_pos[..used]);
        self.empties[..area].copy_from_slice(&other.empties[..area]);
        self.stride = other.stride;
        self.n_empty = other.n_empty;
        self.hash = other.hash;
        self.restore_marks(other.marks());
    }

    /// Empty on-board points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..self.n_empty as usize]
    }

    /// The head point of the group whose stone is on `p`.
    #[inline]
    pub fn group_of(&self, p: Point) -> Point {
        debug_assert!(self.color(p).is_some());
        Point(self.group[p.idx()])
    }

    /// The exact number of liberties of the group that has a stone on `p`.
    #[inline]
    pub fn liberties(&self, p: Point) -> usize {
        self.libs[self.group[p.idx()] as usize] as usize
    }

    /// The number of stones in the group that has a stone on `p`.
    #[inline]
    pub fn group_size(&self, p: Point) -> usize {
        self.stones[self.group[p.idx()] as usize] as usize
    }

    /// The stones of the group that has a stone on `p`.
    pub fn group_stones(&self, p: Point) -> GroupStones<'_> {
        let head = self.group[p.idx()];
        GroupStones {
            board: self,
            head,
            cur: head,
            done: false,
        }
    }

    /// The single liberty of a group in atari (the group that has a stone on `p`).
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let h = self.group[p.idx()] as usize;
        (self.libs[h] == 1).then(|| Point(self.lib_sum[h] as u16))
    }

    /// Both liberties of a group with exactly two, solved from their sum and sum of squares.
    pub fn two_liberties(&self, p: Point) -> Option<(Point, Point)> {
        let h = self.group[p.idx()] as usize;
        if self.libs[h] != 2 {
            return None;
        }
        let s = self.lib_sum[h] as i64;
        let q = self.lib_sq[h] as i64;
        // a + b = s, a² + b² = q  =>  (a - b)² = 2q - s²
        let d2 = 2 * q - s * s;
        let d = (d2 as f64).sqrt().round() as i64;
        debug_assert_eq!(d * d, d2);
        let a = (s + d) / 2;
        Some((Point((s - a) as u16), Point(a as u16)))
    }

    /// Calls `f` once for each liberty of the group that has a stone on `p`.
    pub fn for_each_liberty(&self, p: Point, mut f: impl FnMut(Point)) {
        let head = self.group[p.idx()];
        for s in self.group_stones(p) {
            for n in self.neighbours(s) {
                if self.is_empty(n) && self.first_adjacent_of(n, head) == s {
                    f(n);
                }
            }
        }
    }

    /// The liberties of the group that has a stone on `p`, collected (allocates: not for playouts).
    pub fn liberty_points(&self, p: Point) -> Vec<Point> {
        let mut v = Vec::with_capacity(self.liberties(p));
        self.for_each_liberty(p, |l| v.push(l));
        v
    }

    /// The heads of `c`'s groups that are in atari (allocates: for callers outside playouts;
    /// playouts use [`Board::atari_liberty`] on the points they look at).
    pub fn groups_in_atari(&self, c: Color) -> Vec<Point> {
        let mut v: Vec<Point> = self
            .points()
            .filter(|&p| self.color(p) == Some(c) && self.group[p.idx()] == p.0)
            .filter(|&p| self.libs[p.idx()] == 1)
            .collect();
        v.sort();
        v
    }

    /// Whether `p` is an eye of colour `c`: empty, every neighbour `c` or wall, and not falsified
    /// by opponent stones on the diagonals (one is tolerated in the centre, none on the edge).
    #[inline]
    pub fn is_eye(&self, p: Point, c: Color) -> bool {
        if !self.is_eyeish(p, c) {
            return false;
        }
        let opp = c.opponent().cell();
        let mut bad = 0;
        let mut edge = false;
        for d in self.diagonals(p) {
            match self.cells[d.idx()] {
                x if x == opp => bad += 1,
                Cell::Wall => edge = true,
                _ => {}
            }
        }
        if edge {
            bad == 0
        } else {
            bad < 2
        }
    }

    /// Whether every orthogonal neighbour of empty `p` is `c` or wall.
    #[inline]
    pub fn is_eyeish(&self, p: Point, c: Color) -> bool {
        if !self.is_empty(p) {
            return false;
        }
        let own = c.cell();
        self.neighbours(p)
            .iter()
            .all(|&n| matches!(self.cells[n.idx()], x if x == own || x == Cell::Wall))
    }

    /// Whether a stone of `c` on empty `p` would be suicide: no liberty and no capture.
    #[inline]
    pub fn is_suicide(&self, p: Point, c: Color) -> bool {
        let own = c.cell();
        for n in self.neighbours(p) {
            let cell = self.cells[n.idx()];
            if cell == Cell::Empty {
                return false;
            }
            if cell == Cell::Wall {
                continue;
            }
            let libs = self.libs[self.group[n.idx()] as usize];
            if (cell == own) == (libs > 1) {
                // an own group with a spare liberty, or an enemy group we capture
                return false;
            }
        }
        true
    }

    /// Whether a stone of `c` on empty `p` captures something and yet, before the captures, would
    /// leave its own group without liberties: the "both sides without liberties" case.
    pub fn is_mutual_capture(&self, p: Point, c: Color) -> bool {
        let own = c.cell();
        let mut captures = false;
        for n in self.neighbours(p) {
            match self.cells[n.idx()] {
                Cell::Empty => return false,
                Cell::Wall => {}
                cell => {
                    let libs = self.libs[self.group[n.idx()] as usize];
                    if cell == own {
                        if libs > 1 {
                            return false;
                        }
                    } else if libs == 1 {
                        captures = true;
                    }
                }
            }
        }
        captures
    }

    /// The liberties the group of a new stone of `c` on empty `p` would have, counted up to 3 (a
    /// result of 3 means "3 or more"), captures included. Lets policies spot self-atari and
    /// escapes without copying the board.
    pub fn liberties_after(&self, p: Point, c: Color) -> usize {
        let mut libs = [Point::NONE; 3];
        let mut n = 0;
        let add = |l: Point, libs: &mut [Point; 3], n: &mut usize| {
            if l != p && !libs[..*n].contains(&l) {
                libs[*n] = l;
                *n += 1;
            }
            *n >= 3
        };
        let own = c.cell();
        for q in self.neighbours(p) {
            match self.cells[q.idx()] {
                Cell::Empty => {
                    if add(q, &mut libs, &mut n) {
                        return 3;
                    }
                }
                Cell::Wall => {}
                cell => {
                    let h = self.group[q.idx()] as usize;
                    if cell == own {
                        match self.libs[h] {
                            1 => {}
                            2 => {
                                let (a, b) = self.two_liberties(q).expect("two liberties");
                                if add(a, &mut libs, &mut n) || add(b, &mut libs, &mut n) {
                                    return 3;
                                }
                            }
                            _ => return 3,
                        }
                    } else if self.libs[h] == 1 {
                        // A capture frees at least the captured stone next to p.
                        if self.stones[h] > 1 {
                            return 3;
                        }
                        if add(q, &mut libs, &mut n) {
                            return 3;
                        }
                    }
                }
            }
        }
        n
    }

    /// Checks a stone for the board's physics: on board, empty, not a basic-ko retake, and (unless
    /// `allow_suicide`) not suicide.
    pub fn check(&self, p: Point, c: Color, allow_suicide: bool) -> Result<(), BoardError> {
        if !self.on_board(p) {
            return Err(BoardError::OffBoard);
        }
        if !self.is_empty(p) {
            return Err(BoardError::Occupied);
        }
        if p == self.ko_point && c == self.ko_color {
            return Err(BoardError::Ko);
        }
        if !allow_suicide && self.is_suicide(p, c) {
            return Err(BoardError::Suicide);
        }
        Ok(())
    }

    /// The fast legality test for playouts: empty, not a ko retake, not suicide.
    #[inline]
    pub fn is_legal(&self, p: Point, c: Color) -> bool {
        self.is_empty(p) && !(p == self.ko_point && c == self.ko_color) && !self.is_suicide(p, c)
    }

    /// Plays a pass: it clears the ko.
    pub fn pass(&mut self) {
        self.ko_point = Point::NONE;
        self.last_move2 = self.last_move;
        self.last_move = Move::Pass;
    }

    /// Places a stone of `c` on `p`, removing the opponent's liberty-less stones (and then its own,
    /// if still liberty-less: suicide). The caller has checked legality; debug builds assert it.
    #[inline]
    pub fn play(&mut self, p: Point, c: Color) -> Outcome {
        self.play_with(p, c, Removal::Opponent)
    }

    /// Places a stone as [`Board::play`] does, but in the both-sides-without-liberties case removes
    /// the side that `removal` names.
    pub fn play_with(&mut self, p: Point, c: Color, removal: Removal) -> Outcome {
        debug_assert!(self.on_board(p) && self.is_empty(p));
        let own_first = removal == Removal::Own && self.is_mutual_capture(p, c);
        self.place_stone(p, c);
        let mut out = Outcome::default();
        let mut captured_at = Point::NONE;
        if !own_first {
            let opp = c.opponent().cell();
            for n in self.neighbours(p) {
                if self.cells[n.idx()] == opp && self.libs[self.group[n.idx()] as usize] == 0 {
                    captured_at = n;
                    out.captured += self.remove_group(n);
                }
            }
        }
        if self.libs[self.group[p.idx()] as usize] == 0 {
            out.lost = self.remove_group(p);
        }
        self.ko_point = Point::NONE;
        if out.captured == 1
            && out.lost == 0
            && self.stones[self.group[p.idx()] as usize] == 1
            && self.libs[p.idx()] == 1
        {
            self.ko_point = captured_at;
            self.ko_color = c.opponent();
        }
        self.last_move2 = self.last_move;
        self.last_move = Move::Play(p);
        out
    }

    /// Checks and plays in one step; on error the board is unchanged.
    pub fn try_play(
        &mut self,
        p: Point,
        c: Color,
        allow_suicide: bool,
        removal: Removal,
    ) -> Result<Outcome, BoardError> {
        self.check(p, c, allow_suicide)?;
        Ok(self.play_with(p, c, removal))
    }

    /// Puts a stone on an empty point with no captures and no ko: setup stones (handicap, SGF
    /// `AB`/`AW`). Any group left without liberties is removed, so the invariants hold.
    pub fn set_stone(&mut self, p: Point, c: Color) -> Outcome {
        let ko = (self.ko_point, self.ko_color);
        let last = (self.last_move, self.last_move2);
        let out = self.play(p, c);
        (self.ko_point, self.ko_color) = ko;
        (self.last_move, self.last_move2) = last;
        out
    }

    /// Removes the stone on `p` (SGF `AE`), restoring the liberties around it.
    pub fn clear_stone(&mut self, p: Point) {
        if self.color(p).is_none() {
            return;
        }
        // Rebuild the neighbouring groups: a removal can split a group, which incremental
        // bookkeeping cannot express cheaply, and setup edits are rare.
        let stones: Vec<(Point, Color)> = self
            .points()
            .filter_map(|q| self.color(q).map(|col| (q, col)))
            .filter(|&(q, _)| q != p)
            .collect();
        let mut fresh = Board::new(self.size()).expect("size already valid");
        for (q, col) in stones {
            fresh.place_stone(q, col);
        }
        fresh.ko_point = Point::NONE;
        fresh.last_move = self.last_move;
        fresh.last_move2 = self.last_move2;
        *self = fresh;
    }

    // --- incremental machinery -------------------------------------------------------------

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_pos[p.idx()] = self.n_empty;
        self.empties[self.n_empty as usize] = p;
        self.n_empty += 1;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p.idx()] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[i] = last;
        self.empty_pos[last.idx()] = i as u16;
    }

    #[inline]
    fn add_liberty(&mut self, head: u16, l: Point) {
        let h = head as usize;
        self.libs[h] += 1;
        self.lib_sum[h] += l.0 as u32;
        self.lib_sq[h] += (l.0 as u32) * (l.0 as u32);
    }

    #[inline]
    fn remove_liberty(&mut self, head: u16, l: Point) {
        let h = head as usize;
        self.libs[h] -= 1;
        self.lib_sum[h] -= l.0 as u32;
        self.lib_sq[h] -= (l.0 as u32) * (l.0 as u32);
    }

    /// The first neighbour of `e` (in `neighbours` order) whose stone belongs to group `head`, or
    /// `Point::NONE`. Used to count a liberty once even when several stones of a group touch it.
    #[inline]
    fn first_adjacent_of(&self, e: Point, head: u16) -> Point {
        for n in self.neighbours(e) {
            if self.group[n.idx()] == head {
                return n;
            }
        }
        Point::NONE
    }

    /// Puts a stone down and merges it with its friends; captures are the caller's business.
    fn place_stone(&mut self, p: Point, c: Color) {
        let pi = p.idx();
        self.remove_empty(p);
        self.cells[pi] = c.cell();
        self.hash ^= ZOBRIST[c.index()][pi];
        self.group[pi] = p.0;
        self.next[pi] = p.0;
        self.stones[pi] = 1;
        self.libs[pi] = 0;
        self.lib_sum[pi] = 0;
        self.lib_sq[pi] = 0;

        let nbrs = self.neighbours(p);
        // p is no longer a liberty of any adjacent group (each counted once).
        let mut seen = [0u16; 4];
        for (i, n) in nbrs.iter().enumerate() {
            let h = self.group[n.idx()];
            if h != 0 && h != p.0 && !seen[..i].contains(&h) {
                self.remove_liberty(h, p);
            }
            seen[i] = h;
        }
        for n in nbrs {
            if self.cells[n.idx()] == Cell::Empty {
                self.add_liberty(p.0, n);
            }
        }
        let own = c.cell();
        for n in nbrs {
            if self.cells[n.idx()] == own {
                let a = self.group[pi];
                let b = self.group[n.idx()];
                if a != b {
                    self.merge(a, b);
                }
            }
        }
    }

    /// Merges the smaller of two groups of one colour into the larger.
    fn merge(&mut self, a: u16, b: u16) {
        let (keep, gone) = if self.stones[a as usize] >= self.stones[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        // Liberties of `gone` that `keep` does not already have.
        let mut s = gone;
        loop {
            for e in self.neighbours(Point(s)) {
                if self.cells[e.idx()] == Cell::Empty
                    && self.first_adjacent_of(e, gone).0 == s
                    && self.first_adjacent_of(e, keep) == Point::NONE
                {
                    self.add_liberty(keep, e);
                }
            }
            s = self.next[s as usize];
            if s == gone {
                break;
            }
        }
        // Relabel and splice the rings.
        let mut s = gone;
        loop {
            self.group[s as usize] = keep;
            s = self.next[s as usize];
            if s == gone {
                break;
            }
        }
        let (k, g) = (keep as usize, gone as usize);
        self.next.swap(k, g);
        self.stones[k] += self.stones[g];
    }

    /// Lifts the group that has a stone on `p`; returns how many stones it had.
    fn remove_group(&mut self, p: Point) -> u16 {
        let head = self.group[p.idx()];
        let color = self.cells[p.idx()].color().expect("a stone");
        let zob = &ZOBRIST[color.index()];
        let mut s = head;
        loop {
            let si = s as usize;
            self.cells[si] = Cell::Empty;
            self.group[si] = 0;
            self.hash ^= zob[si];
            self.add_empty(Point(s));
            s = self.next[si];
            if s == head {
                break;
            }
        }
        // Each freed point becomes a liberty of every distinct group beside it.
        let mut s = head;
        loop {
            let nbrs = self.neighbours(Point(s));
            let mut seen = [0u16; 4];
            for (i, n) in nbrs.iter().enumerate() {
                let h = self.group[n.idx()];
                if h != 0 && !seen[..i].contains(&h) {
                    self.add_liberty(h, Point(s));
                }
                seen[i] = h;
            }
            s = self.next[s as usize];
            if s == head {
                break;
            }
        }
        self.stones[head as usize]
    }

    // --- checking ---------------------------------------------------------------------------

    /// Recomputes groups, liberties, the empty list and the hash from the stones alone and
    /// compares them with the incremental state. For tests and debugging; allocates.
    pub fn verify(&self) -> Result<(), String> {
        let mut hash = 0u64;
        let mut visited = vec![false; CELLS];
        let mut empties = 0usize;
        for p in self.points() {
            match self.color(p) {
                None => {
                    empties += 1;
                    if self.group[p.idx()] != 0 {
                        return Err(format!("empty {:?} keeps a group label", p));
                    }
                    let i = self.empty_pos[p.idx()] as usize;
                    if i >= self.n_empty as usize || self.empties[i] != p {
                        return Err(format!("empty list misses {:?}", p));
                    }
                }
                Some(c) => hash ^= ZOBRIST[c.index()][p.idx()],
            }
        }
        if empties != self.n_empty as usize {
            return Err(format!("empty count {} != {}", self.n_empty, empties));
        }
        // What `copy_from` relies on: past the used part, the arrays are as `new` left them.
        let used = self.used_cells();
        let untouched = (used..CELLS).all(|i| {
            self.cells[i] == Cell::Wall
                && self.group[i] == 0
                && self.next[i] == 0
                && self.stones[i] == 0
                && self.libs[i] == 0
                && self.lib_sum[i] == 0
                && self.lib_sq[i] == 0
                && self.empty_pos[i] == 0
        }) && self.empties[self.size() * self.size()..]
            .iter()
            .all(|&p| p == Point::NONE);
        if !untouched {
            return Err("arrays written past the part the size uses".into());
        }
        if hash != self.hash {
            return Err("hash mismatch".into());
        }
        for p in self.points() {
            let Some(c) = self.color(p) else { continue };
            if visited[p.idx()] {
                continue;
            }
            // Flood fill the group.
            let mut stack = vec![p];
            let mut members = vec![];
            visited[p.idx()] = true;
            let mut libs = std::collections::BTreeSet::new();
            while let Some(q) = stack.pop() {
                members.push(q);
                for n in self.neighbours(q) {
                    match self.cells[n.idx()] {
                        Cell::Empty => {
                            libs.insert(n.0);
                        }
                        x if x.color() == Some(c) && !visited[n.idx()] => {
                            visited[n.idx()] = true;
                            stack.push(n);
                        }
                        _ => {}
                    }
                }
            }
            let head = self.group[p.idx()];
            if members.iter().any(|m| self.group[m.idx()] != head) {
                return Err(format!("group of {:?} has mixed heads", p));
            }
            let ring: Vec<Point> = self.group_stones(p).collect();
            if ring.len() != members.len() || self.stones[head as usize] as usize != members.len() {
                return Err(format!("group of {:?}: ring/stone count mismatch", p));
            }
            let h = head as usize;
            let sum: u32 = libs.iter().map(|&l| l as u32).sum();
            let sq: u32 = libs.iter().map(|&l| (l as u32) * (l as u32)).sum();
            if libs.is_empty()
                || self.libs[h] as usize != libs.len()
                || self.lib_sum[h] != sum
                || self.lib_sq[h] != sq
            {
                return Err(format!(
                    "group of {:?}: liberties {} (incremental) vs {} (recomputed)",
                    p,
                    self.libs[h],
                    libs.len()
                ));
            }
        }
        Ok(())
    }
}

impl Clone for Board {
    /// A full copy of every array (what a new board value needs).
    fn clone(&self) -> Board {
        Board {
            size: self.size,
            stride: self.stride,
            cells: self.cells,
            group: self.group,
            next: self.next,
            stones: self.stones,
            libs: self.libs,
            lib_sum: self.lib_sum,
            lib_sq: self.lib_sq,
            empties: self.empties,
            empty_pos: self.empty_pos,
            n_empty: self.n_empty,
            hash: self.hash,
            ko_point: self.ko_point,
            ko_color: self.ko_color,
            last_move: self.last_move,
            last_move2: self.last_move2,
        }
    }

    /// Copies into an existing board only the part its size uses: see [`Board::copy_from`].
    fn clone_from(&mut self, source: &Board) {
        self.copy_from(source);
    }
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones on the same size and the same ko.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self.ko() == other.ko()
            && self
                .points()
                .all(|p| self.cells[p.idx()] == other.cells[p.idx()])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self)
    }
}

/// Column letters as GTP writes them (no `I`).
pub const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl fmt::Display for Board {
    /// A plain diagram: `X` Black, `O` White, `.` empty, with GTP coordinates.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let n = self.size();
        let header: String = COLUMNS[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        writeln!(f, "  {}", header)?;
        for row in 0..n {
            write!(f, "{:2}", n - row)?;
            for col in 0..n {
                let ch = match self.cell(self.point(col, row)) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                write!(f, " {}", ch)?;
            }
            writeln!(f, " {}", n - row)?;
        }
        write!(f, "  {}", header)
    }
}

/// Iterator over a group's stones, following the ring.
pub struct GroupStones<'a> {
    board: &'a Board,
    head: u16,
    cur: u16,
    done: bool,
}

impl Iterator for GroupStones<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.done {
            return None;
        }
        let p = self.cur;
        self.cur = self.board.next[p as usize];
        self.done = self.cur == self.head;
        Some(Point(p))
    }
}
