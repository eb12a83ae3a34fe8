//! What a candidate move looks like to the pattern model: its 3×3 shape with liberty marks and a
//! handful of tactical and positional facts, each a value of one feature group.
//!
//! Everything here reads the board and never changes it, and nothing allocates: the search may
//! call it for every legal move at node expansion, and playouts may call [`shape_code`] (O(1):
//! eight cells, eight liberty counts, eight symmetries) on the points near the last move.
//!
//! Larger shapes, the nested spatial patterns of radius 2 to 6 without liberty marks
//! ([`spatial_keys`]: 84 points read, eight hashes updated per stone), serve the priors, not the
//! playouts.
//!
//! Colours are relative to the player to move ("own" and "opponent"), so a shape and its colour
//! swap with the other player to move are the same shape.

use crate::board::{Board, Cell, Color, Move, Point};
use crate::tactics::ladder;

/// States of one neighbour cell in a shape code (three bits each).
pub const EMPTY: u32 = 0;
pub const EDGE: u32 = 1;
/// Own stone whose group has 1, 2, or 3+ liberties: `OWN_1 + min(libs, 3) - 1`.
pub const OWN_1: u32 = 2;
/// Opponent stone whose group has 1, 2, or 3+ liberties: `OPP_1 + min(libs, 3) - 1`.
pub const OPP_1: u32 = 5;

/// The eight neighbours of a point as (dx, dy) offsets, in the order of the three-bit digits of a
/// shape code (digit k is bits 3k..3k+3).
pub const NEIGHBOUR_OFFSETS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Where digit k goes under each of the 8 symmetries of the square.
const SYMMETRY_PERMUTATIONS: [[u8; 8]; 8] = make_permutations();

const fn offset_index(dx: i32, dy: i32) -> u8 {
    let mut k = 0;
    while k < 8 {
        if NEIGHBOUR_OFFSETS[k].0 == dx && NEIGHBOUR_OFFSETS[k].1 == dy {
            return k as u8;
        }
        k += 1;
    }
    panic!("not a neighbour offset")
}

/// The offset `(x, y)` under symmetry `s` of the square's eight: bit 2 swaps the axes, then
/// bit 0 mirrors x and bit 1 mirrors y.
const fn symmetry(s: usize, x: i32, y: i32) -> (i32, i32) {
    let (mut a, mut b) = if s & 4 != 0 { (y, x) } else { (x, y) };
    if s & 1 != 0 {
        a = -a;
    }
    if s & 2 != 0 {
        b = -b;
    }
    (a, b)
}

const fn make_permutations() -> [[u8; 8]; 8] {
    let mut out = [[0u8; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < 8 {
            let (x, y) = NEIGHBOUR_OFFSETS[k];
            let (a, b) = symmetry(s, x, y);
            out[s][k] = offset_index(a, b);
            k += 1;
        }
        s += 1;
    }
    out
}

/// The state digit of cell `q` seen by `color`.
#[inline]
fn cell_state(board: &Board, color: Color, q: Point) -> u32 {
    match board.cell(q) {
        Cell::Empty => EMPTY,
        Cell::Wall => EDGE,
        cell => {
            let libs = board.liberties(q).min(3) as u32;
            if cell.color() == Some(color) {
                OWN_1 + libs - 1
            } else {
                OPP_1 + libs - 1
            }
        }
    }
}

/// The raw 3×3 code around `p` for `color` to move: eight three-bit digits in
/// [`NEIGHBOUR_OFFSETS`] order. Not yet reduced by symmetry.
#[inline]
pub fn raw_shape_code(board: &Board, color: Color, p: Point) -> u32 {
    let [up, left, right, down] = board.neighbours(p);
    let [ul, ur, dl, dr] = board.diagonals(p);
    let cells = [ul, up, ur, left, right, dl, down, dr];
    let mut code = 0;
    for (k, &q) in cells.iter().enumerate() {
        code |= cell_state(board, color, q) << (3 * k);
    }
    code
}

/// The smallest code among the 8 symmetric images of `code`: one id per shape.
#[inline]
pub fn canonical_shape(code: u32) -> u32 {
    let mut best = u32::MAX;
    for perm in &SYMMETRY_PERMUTATIONS {
        let mut c = 0;
        for (k, &to) in perm.iter().enumerate() {
            c |= ((code >> (3 * k)) & 7) << (3 * to as u32);
        }
        best = best.min(c);
    }
    best
}

/// The canonical 3×3 shape id of a stone of `color` on `p`, in O(1).
#[inline]
pub fn shape_code(board: &Board, color: Color, p: Point) -> u32 {
    canonical_shape(raw_shape_code(board, color, p))
}

/// The feature groups besides the shape, with their number of values. A candidate has at most
/// one value in each group; a group it has no value in contributes a factor of 1.
pub const GROUPS: [(&str, usize); GROUP_COUNT] = [
    ("capture", CAPTURE_VALUES),
    ("escape", 3),
    ("atari", 4),
    ("self_atari", 3),
    ("last", DISTANCE_VALUES),
    ("last2", DISTANCE_VALUES),
    ("line", LINE_VALUES),
    ("pass", 2),
];
pub const GROUP_COUNT: usize = 8;
/// Largest number of values in a group.
pub const MAX_VALUES: usize = 16;

pub const CAPTURE: usize = 0;
pub const ESCAPE: usize = 1;
pub const ATARI: usize = 2;
pub const SELF_ATARI: usize = 3;
pub const LAST: usize = 4;
pub const LAST2: usize = 5;
pub const LINE: usize = 6;
pub const PASS: usize = 7;

/// Escape values (extending an own group out of atari, no capture): 0 to two liberties and
/// caught in a ladder, 1 to two liberties and not, 2 to three or more. Ladders are read by
/// [`crate::tactics::ladder`].
/// Atari values (an opponent group from two liberties to one): 0 while a ko is on the board,
/// 3 the group cannot escape the ladder, else 1 a single stone, 2 a larger group.
/// Capture values: 0 takes a ko; then 1 + 3 × size bucket + context, with size buckets 1, 2–3,
/// 4–6, 7+ stones and contexts: 0 other, 1 the captured group touches (or is) the last move,
/// 2 the captured group touches an own group in atari (it saves that group).
const CAPTURE_VALUES: usize = 13;
/// Distance values: Coulom's d = dx + dy + max(dx, dy), 2..=16 as 0..=14, and 17+ as 15.
const DISTANCE_VALUES: usize = 16;
/// Line values: first to fourth line as 0..=3, fifth line and beyond as 4.
const LINE_VALUES: usize = 5;

/// The value a candidate has in no group.
pub const NONE: u8 = u8::MAX;

/// One candidate move as the model sees it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct MoveFeatures {
    /// Canonical 3×3 shape, or `None` for a pass.
    pub shape: Option<u32>,
    /// Spatial pattern keys of radius 2 to 6 ([`spatial_keys`]); zero for a pass.
    pub spatials: [u64; SPATIAL_RADII],
    /// The value in each of [`GROUPS`], or [`NONE`].
    pub values: [u8; GROUP_COUNT],
}

/// Coulom's move distance, bucketed into a distance value.
fn distance_value(board: &Board, p: Point, other: Move) -> u8 {
    let Move::Play(q) = other else {
        return NONE;
    };
    let (x1, y1) = board.coords(p);
    let (x2, y2) = board.coords(q);
    let dx = x1.abs_diff(x2);
    let dy = y1.abs_diff(y2);
    let d = dx + dy + dx.max(dy);
    (d.clamp(2, 17) - 2) as u8
}

/// Whether the group `head` (a group head) has a stone on or next to `q`.
fn group_touches(board: &Board, head: Point, q: Point) -> bool {
    if board.color(q).is_some() && board.group_of(q) == head {
        return true;
    }
    board
        .neighbours(q)
        .iter()
        .any(|&n| board.color(n).is_some() && board.group_of(n) == head)
}

/// Whether some stone of the group on `g` touches a stone of `own` whose group is in atari.
fn touches_own_atari(board: &Board, g: Point, own: Color) -> bool {
    board.group_stones(g).any(|s| {
        board
            .neighbours(s)
            .iter()
            .any(|&n| board.color(n) == Some(own) && board.liberties(n) == 1)
    })
}

/// The features of a pass by the player to move.
pub fn pass_features(board: &Board) -> MoveFeatures {
    let mut values = [NONE; GROUP_COUNT];
    values[PASS] = u8::from(board.last_moves().0 != Move::Pass);
    MoveFeatures {
        shape: None,
        spatials: [0; SPATIAL_RADII],
        values,
    }
}

/// The features of a stone of `color` on `p`, which must be a legal move (empty, no ko retake, no
/// suicide).
pub fn move_features(board: &Board, color: Color, p: Point) -> MoveFeatures {
    move_features_while(board, color, p, |_| true)
}

/// [`move_features`] with the spatial keys computed only while `wanted` says yes to each, radius
/// [`MIN_SPATIAL_RADIUS`] first; the keys after the first refused one are left zero (no
/// pattern's key). A dictionary whose every pattern's smaller patterns have weights too (the
/// trainer's: a smaller pattern was played at least as often) loses no match by stopping at
/// its first miss, and a candidate's larger rings are not read at all.
pub fn move_features_while(
    board: &Board,
    color: Color,
    p: Point,
    wanted: impl FnMut(u64) -> bool,
) -> MoveFeatures {
    debug_assert!(board.is_empty(p));
    let mut values = [NONE; GROUP_COUNT];
    let (last, last2) = board.last_moves();

    // Adjacent groups, each once.
    let mut heads = [Point::NONE; 4];
    let mut n_heads = 0;
    let mut captured = 0usize;
    let mut capture_context = 0u8;
    let mut own_in_atari = false;
    let mut own_size = 0usize;
    let mut empty_neighbour = false;
    let mut atari_value = NONE;
    for n in board.neighbours(p) {
        let Some(c) = board.color(n) else {
            empty_neighbour |= board.is_empty(n);
            continue;
        };
        let head = board.group_of(n);
        if heads[..n_heads].contains(&head) {
            continue;
        }
        heads[n_heads] = head;
        n_heads += 1;
        let libs = board.liberties(n);
        if c == color {
            own_size += board.group_size(n);
            own_in_atari |= libs == 1;
        } else if libs == 1 {
            captured += board.group_size(n);
            let context = if touches_own_atari(board, n, color) {
                2
            } else if matches!(last, Move::Play(l) if group_touches(board, head, l)) {
                1
            } else {
                0
            };
            capture_context = capture_context.max(context);
        } else if libs == 2 {
            let v = if board.ko().is_some() {
                0
            } else if ladder::atari_catches(board, p, color, n) {
                3
            } else if board.group_size(n) == 1 {
                1
            } else {
                2
            };
            atari_value = if atari_value == NONE {
                v
            } else {
                atari_value.max(v)
            };
        }
    }

    if captured > 0 {
        let ko = captured == 1 && !empty_neighbour && own_size == 0;
        values[CAPTURE] = if ko {
            0
        } else {
            let bucket = match captured {
                1 => 0,
                2..=3 => 1,
                4..=6 => 2,
                _ => 3,
            };
            1 + 3 * bucket + capture_context
        };
    }
    values[ATARI] = atari_value;
    let libs_after = board.liberties_after(p, color);
    if own_in_atari && captured == 0 && libs_after >= 2 {
        values[ESCAPE] = if libs_after >= 3 {
            2
        } else if ladder::extension_caught(board, p, color) {
            0
        } else {
            1
        };
    }
    if libs_after == 1 && captured == 0 {
        values[SELF_ATARI] = match own_size + 1 {
            1 => 0,
            2..=5 => 1,
            _ => 2,
        };
    }
    values[LAST] = distance_value(board, p, last);
    values[LAST2] = distance_value(board, p, last2);
    let (x, y) = board.coords(p);
    let n = board.size();
    let line = x.min(y).min(n - 1 - x).min(n - 1 - y);
    values[LINE] = line.min(LINE_VALUES - 1) as u8;

    MoveFeatures {
        shape: Some(shape_code(board, color, p)),
        spatials: spatial_keys_while(board, color, p, wanted),
        values,
    }
}

/// Radii of the nested spatial patterns: the pattern of radius r is every point within Manhattan
/// distance r of the move (the move itself excepted), each empty, off the board, an own stone or
/// an opponent stone. A candidate's spatial feature is the largest radius whose pattern has a
/// weight.
pub const MIN_SPATIAL_RADIUS: usize = 2;
pub const MAX_SPATIAL_RADIUS: usize = 6;
/// Number of radii, [`MIN_SPATIAL_RADIUS`] to [`MAX_SPATIAL_RADIUS`].
pub const SPATIAL_RADII: usize = MAX_SPATIAL_RADIUS - MIN_SPATIAL_RADIUS + 1;
/// Points within the largest radius: 2r(r + 1).
const SPATIAL_CELLS: usize = cells_within(MAX_SPATIAL_RADIUS);

/// Points within Manhattan distance `r` of a point, the point excepted.
pub const fn cells_within(r: usize) -> usize {
    2 * r * (r + 1)
}

/// The pattern's (dx, dy) offsets ordered by distance, then row, then column, so that the points
/// within radius r are the first [`cells_within`]`(r)`.
const SPATIAL_OFFSETS: [(i32, i32); SPATIAL_CELLS] = make_spatial_offsets();

/// Per point of the pattern, per state (edge, own, opponent), per symmetry: the random key that
/// the state on that point adds to that symmetric image of the pattern. A pattern's image under
/// symmetry s is the XOR of its non-empty points' keys, so the 8 images are hashed in one pass.
static SPATIAL_KEYS: [[[u64; 8]; 3]; SPATIAL_CELLS] = make_spatial_keys();

const fn make_spatial_offsets() -> [(i32, i32); SPATIAL_CELLS] {
    let mut out = [(0, 0); SPATIAL_CELLS];
    let r = MAX_SPATIAL_RADIUS as i32;
    let mut n = 0;
    let mut d = 1;
    while d <= r {
        let mut dy = -r;
        while dy <= r {
            let mut dx = -r;
            while dx <= r {
                if dx.abs() + dy.abs() == d {
                    out[n] = (dx, dy);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    out
}

/// SplitMix64: the fixed random keys of the spatial hash (changing them changes every key in the
/// weights file).
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn make_spatial_keys() -> [[[u64; 8]; 3]; SPATIAL_CELLS] {
    // The key of state t on pattern point j, before any symmetry.
    let mut base = [[0u64; 3]; SPATIAL_CELLS];
    let mut j = 0;
    while j < SPATIAL_CELLS {
        let mut t = 0;
        while t < 3 {
            base[j][t] = splitmix(0x7465_6E67_656E_0000 + (3 * j + t) as u64);
            t += 1;
        }
        j += 1;
    }
    let mut out = [[[0u64; 8]; 3]; SPATIAL_CELLS];
    let mut i = 0;
    while i < SPATIAL_CELLS {
        let mut s = 0;
        while s < 8 {
            // Point i lands on point j under symmetry s.
            let (x, y) = SPATIAL_OFFSETS[i];
            let (a, b) = symmetry(s, x, y);
            let mut j = 0;
            while j < SPATIAL_CELLS {
                if SPATIAL_OFFSETS[j].0 == a && SPATIAL_OFFSETS[j].1 == b {
                    let mut t = 0;
                    while t < 3 {
                        out[i][t][s] = base[j][t];
                        t += 1;
                    }
                }
                j += 1;
            }
            s += 1;
        }
        i += 1;
    }
    out
}

/// Folds state `state` (1 edge, 2 own, 3 opponent; 0 empty adds nothing) of pattern point `i`
/// into the 8 images.
#[inline(always)]
fn fold_point(images: &mut [u64; 8], i: usize, state: usize) {
    if state != 0 {
        let keys = &SPATIAL_KEYS[i][state - 1];
        for (image, key) in images.iter_mut().zip(keys) {
            *image ^= key;
        }
    }
}

/// The key of radius `r` given the 8 images of the pattern within it: the smallest image (the
/// same for all 8 symmetric patterns), with the radius in the top four bits so that radii never
/// collide and the key's first hex digit names it.
#[inline(always)]
fn radius_key(images: &[u64; 8], r: usize) -> u64 {
    let smallest = images.iter().copied().min().unwrap_or(0);
    ((r as u64) << 60) | (smallest >> 4)
}

/// The spatial pattern keys around `p` for `color` to move, radius [`MIN_SPATIAL_RADIUS`] first:
/// each the same under the 8 symmetries of the square, and under swapping the stones' colours
/// together with the player to move (colours are own and opponent). Keys are hashes (64 bits,
/// 60 of them random), not codes: two patterns colliding is as likely as for the board's own
/// position hashes.
pub fn spatial_keys(board: &Board, color: Color, p: Point) -> [u64; SPATIAL_RADII] {
    spatial_keys_while(board, color, p, |_| true)
}

/// [`spatial_keys`] up to the first key `wanted` refuses (included); the larger radii's keys
/// are left zero and their points unread.
#[inline]
fn spatial_keys_while(
    board: &Board,
    color: Color,
    p: Point,
    mut wanted: impl FnMut(u64) -> bool,
) -> [u64; SPATIAL_RADII] {
    let (x, y) = board.coords(p);
    let n = board.size() as i32;
    let (x, y) = (x as i32, y as i32);
    let mut images = [0u64; 8];
    let mut keys = [0u64; SPATIAL_RADII];
    let mut r = MIN_SPATIAL_RADIUS;
    let mut end = cells_within(r);
    for (i, &(dx, dy)) in SPATIAL_OFFSETS.iter().enumerate() {
        let (cx, cy) = (x + dx, y + dy);
        let state = if cx < 0 || cy < 0 || cx >= n || cy >= n {
            1
        } else {
            match board.color(board.point(cx as usize, cy as usize)) {
                None => 0,
                Some(c) if c == color => 2,
                Some(_) => 3,
            }
        };
        fold_point(&mut images, i, state);
        if i + 1 == end {
            let key = radius_key(&images, r);
            keys[r - MIN_SPATIAL_RADIUS] = key;
            if !wanted(key) {
                break;
            }
            r += 1;
            end = cells_within(r.min(MAX_SPATIAL_RADIUS));
        }
    }
    keys
}

/// The radius of a spatial key.
pub fn spatial_radius(key: u64) -> usize {
    (key >> 60) as usize
}

/// The key of a pattern written as digits (0 empty, 1 edge, 2 own stone, 3 opponent stone), one
/// per point in order of distance, then row, then column; its length, [`cells_within`] of a
/// radius, gives the radius. The weights files before the hashed keys listed their diamonds of
/// radius 2 to 4 this way.
pub fn spatial_key_of_digits(digits: &str) -> Option<u64> {
    let r = (MIN_SPATIAL_RADIUS..=MAX_SPATIAL_RADIUS).find(|&r| cells_within(r) == digits.len())?;
    let mut images = [0u64; 8];
    for (i, ch) in digits.bytes().enumerate() {
        if !(b'0'..=b'3').contains(&ch) {
            return None;
        }
        fold_point(&mut images, i, (ch - b'0') as usize);
    }
    Some(radius_key(&images, r))
}
