//! Move patterns learned from game records: how likely a strong player is to choose each legal
//! move, for the search's priors (and later its playouts).
//!
//! A candidate move is described by its [`features::MoveFeatures`] — a 3×3 shape with liberty
//! marks, the largest spatial pattern (radius 2 to 6) frequent enough to have a weight, capture,
//! atari and escape (with ladder status), self-atari, distances to the last two moves, line and
//! pass — and its strength is the product of one weight ("gamma") per feature value, as in the
//! generalized Bradley–Terry model of Coulom's "Computing Elo Ratings of Move Patterns in the Game
//! of Go" (2007). The probability of a move is its strength divided by the sum over all legal
//! moves. `tengen train-patterns` (the `train_patterns` tool) fits the gammas by
//! minorization–maximization; the result is the plain-text `weights.txt` next to this file,
//! embedded in the binary and parsed once by [`Patterns::load`]. How to rebuild it from the
//! TYGEM 9-dan games is in README "Move patterns" and `tengen train-patterns --help`.
//!
//! Invariants: every gamma is finite and positive; a shape not in the table (too rare in the
//! training data to earn a weight of its own) gets the shared weight of rare shapes.
//!
//! Sits below the search and holds only what the engine needs at run time (the features, the
//! weights, the gammas): reads `board` and `tactics` (ladders), never `search` or `gtp`; the
//! training, which reads game records, is a tool at the top.

pub mod features;

use crate::board::{Board, Color, Move, Point};
use features::{MoveFeatures, GROUPS, GROUP_COUNT, MAX_VALUES, NONE, SPATIAL_RADII};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The committed weights, built by `tengen train-patterns`.
const EMBEDDED_WEIGHTS: &str = include_str!("weights.txt");

/// A multiplicative hasher for shape codes: the keys are small integers, SipHash's protection
/// against chosen keys buys nothing here, and the lookup runs for every candidate move.
#[derive(Default)]
pub struct ShapeHasher(u64);

impl Hasher for ShapeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64 ^ (v >> 64) as u64 ^ ((v >> 120) as u64).rotate_left(32));
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (v ^ 0x5851_F42D_4C95_7F2D).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }

    fn write_u32(&mut self, v: u32) {
        self.0 = (v as u64 ^ 0x5851_F42D_4C95_7F2D).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }
}

type ShapeMap = HashMap<u32, f32, BuildHasherDefault<ShapeHasher>>;
type SpatialMap = HashMap<u64, f32, BuildHasherDefault<ShapeHasher>>;

/// The gammas of every feature value.
#[derive(Clone, Debug)]
pub struct Patterns {
    shapes: ShapeMap,
    rare_shape: f32,
    /// Spatial patterns frequent enough in the training games to have a weight; a candidate
    /// takes the largest of its patterns that has one (none: a factor of 1).
    spatials: SpatialMap,
    groups: [[f32; MAX_VALUES]; GROUP_COUNT],
}

impl Patterns {
    /// Every gamma 1: all legal moves equally likely (the trainer's starting point).
    pub fn uniform() -> Patterns {
        Patterns {
            shapes: ShapeMap::default(),
            rare_shape: 1.0,
            spatials: SpatialMap::default(),
            groups: [[1.0; MAX_VALUES]; GROUP_COUNT],
        }
    }

    /// The committed weights, parsed on first use.
    pub fn load() -> &'static Patterns {
        static LOADED: OnceLock<Patterns> = OnceLock::new();
        LOADED.get_or_init(|| {
            // The file is part of the source tree and a unit test parses it, so a failure here
            // is a build defect, not bad input.
            Patterns::parse(EMBEDDED_WEIGHTS).expect("embedded pattern weights parse")
        })
    }

    /// Shapes with a weight of their own.
    pub fn shape_count(&self) -> usize {
        self.shapes.len()
    }

    /// Spatial patterns with a weight.
    pub fn spatial_count(&self) -> usize {
        self.spatials.len()
    }

    /// The gamma of the largest of `keys` (smallest radius first) that has one, or 1.
    #[inline]
    pub fn spatial_gamma(&self, keys: &[u64; SPATIAL_RADII]) -> f32 {
        keys.iter()
            .rev()
            .find_map(|k| self.spatials.get(k).copied())
            .unwrap_or(1.0)
    }

    /// Sets the gamma of a spatial pattern key.
    pub fn set_spatial_gamma(&mut self, key: u64, gamma: f32) {
        self.spatials.insert(key, gamma);
    }

    /// The gamma of a canonical shape code.
    #[inline]
    pub fn shape_gamma(&self, shape: u32) -> f32 {
        self.shapes.get(&shape).copied().unwrap_or(self.rare_shape)
    }

    /// The gamma of value `value` of feature group `group` (an index into [`features::GROUPS`]).
    pub fn group_gamma(&self, group: usize, value: u8) -> f32 {
        self.groups[group][value as usize]
    }

    /// The strength of a described candidate: the product of its features' gammas.
    #[inline]
    pub fn strength(&self, f: &MoveFeatures) -> f32 {
        self.strength_with_spatial(f, self.spatial_gamma(&f.spatials))
    }

    /// [`Patterns::strength`] with the spatial pattern's gamma already looked up.
    #[inline]
    fn strength_with_spatial(&self, f: &MoveFeatures, spatial: f32) -> f32 {
        let mut s = match f.shape {
            Some(shape) => self.shape_gamma(shape) * spatial,
            None => 1.0,
        };
        for (g, &v) in f.values.iter().enumerate() {
            if v != NONE {
                s *= self.groups[g][v as usize];
            }
        }
        s
    }

    /// The strength of a stone of `color` on `p`, a legal move, in the context of the board's
    /// last two moves.
    #[inline]
    pub fn gamma(&self, board: &Board, color: Color, p: Point) -> f32 {
        // The dictionary is closed under taking smaller radii (a pattern's smaller patterns
        // were played at least as often, and the trainer keeps the most played), so the
        // largest match is the last of the first run of hits: the larger rings of a candidate
        // whose pattern is already unknown are not read.
        let mut spatial = 1.0;
        let f = features::move_features_while(board, color, p, |key| {
            self.spatials.get(&key).map(|&g| spatial = g).is_some()
        });
        self.strength_with_spatial(&f, spatial)
    }

    /// The strength of `mv` (a legal move or a pass) for `color`.
    pub fn move_gamma(&self, board: &Board, color: Color, mv: Move) -> f32 {
        match mv {
            Move::Pass => self.strength(&features::pass_features(board)),
            Move::Play(p) => self.gamma(board, color, p),
        }
    }

    /// The strengths of `moves` (legal moves or passes) for `color`, into `out` (same length);
    /// dividing each by their sum gives the model's move probabilities.
    pub fn gammas(&self, board: &Board, color: Color, moves: &[Move], out: &mut [f32]) {
        debug_assert_eq!(moves.len(), out.len());
        for (o, &mv) in out.iter_mut().zip(moves) {
            *o = self.move_gamma(board, color, mv);
        }
    }

    /// Sets the gamma of a shape (`None`: the shared weight of rare shapes).
    pub fn set_shape_gamma(&mut self, shape: Option<u32>, gamma: f32) {
        match shape {
            Some(s) => {
                self.shapes.insert(s, gamma);
            }
            None => self.rare_shape = gamma,
        }
    }

    /// Sets the gamma of value `value` of group `group`.
    pub fn set_group_gamma(&mut self, group: usize, value: u8, gamma: f32) {
        self.groups[group][value as usize] = gamma;
    }

    /// The weights file: `header` as comment lines, then one `GROUP VALUE GAMMA`,
    /// `shape DIGITS GAMMA`, `shape rare GAMMA` or `spatial KEY GAMMA` line per weight (KEY in
    /// 16 hex digits, the first its radius).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for (g, &(name, n)) in GROUPS.iter().enumerate() {
            for v in 0..n {
                out.push_str(&format!("{} {} {:.4e}\n", name, v, self.groups[g][v]));
            }
        }
        out.push_str(&format!("shape rare {:.4e}\n", self.rare_shape));
        let mut shapes: Vec<(u32, f32)> = self.shapes.iter().map(|(&k, &v)| (k, v)).collect();
        shapes.sort_by_key(|&(k, _)| k);
        for (code, gamma) in shapes {
            out.push_str(&format!("shape {} {:.4e}\n", shape_digits(code), gamma));
        }
        let mut spatials: Vec<(u64, f32)> = self.spatials.iter().map(|(&k, &v)| (k, v)).collect();
        spatials.sort_by_key(|&(k, _)| k);
        for (key, gamma) in spatials {
            out.push_str(&format!("spatial {:016x} {:.3e}\n", key, gamma));
        }
        out
    }

    /// Reads a weights file written by [`Patterns::to_text`]; values not listed stay 1. Also
    /// reads the earlier files' `diamond DIGITS GAMMA` lines (patterns of radius 2 to 4 spelled
    /// out, see [`features::spatial_key_of_digits`]), so that their predictions can be measured
    /// against new weights.
    pub fn parse(text: &str) -> Result<Patterns, String> {
        let mut p = Patterns::uniform();
        // Most lines are spatial patterns: room for them all at once, not by doubling.
        p.spatials.reserve(text.len() / 32);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_ascii();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: &str| format!("weights line {}: {}: '{}'", i + 1, what, line);
            let mut fields = line.split_ascii_whitespace();
            let (Some(name), Some(key), Some(gamma), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(bad("expected three fields"));
            };
            let gamma: f32 = match gamma.parse() {
                Ok(g) if g > 0.0 && f32::is_finite(g) => g,
                _ => return Err(bad("gamma is not a positive number")),
            };
            if name == "shape" {
                if key == "rare" {
                    p.rare_shape = gamma;
                } else {
                    let code = parse_shape_digits(key).ok_or_else(|| bad("bad shape digits"))?;
                    if features::canonical_shape(code) != code {
                        return Err(bad("shape is not in canonical form"));
                    }
                    p.shapes.insert(code, gamma);
                }
                continue;
            }
            if name == "spatial" {
                let key = parse_spatial_key(key).ok_or_else(|| bad("bad spatial key"))?;
                p.spatials.insert(key, gamma);
                continue;
            }
            if name == "diamond" {
                let key = features::spatial_key_of_digits(key)
                    .ok_or_else(|| bad("bad diamond digits"))?;
                p.spatials.insert(key, gamma);
                continue;
            }
            let Some(g) = GROUPS.iter().position(|&(n, _)| n == name) else {
                return Err(bad("unknown feature group"));
            };
            match key.parse::<usize>() {
                Ok(v) if v < GROUPS[g].1 => p.groups[g][v] = gamma,
                _ => return Err(bad("value out of range")),
            }
        }
        Ok(p)
    }
}

/// A shape code as eight state digits in [`features::NEIGHBOUR_OFFSETS`] order: 0 empty, 1 edge,
/// 2/3/4 own stone with 1/2/3+ liberties, 5/6/7 opponent stone with 1/2/3+ liberties.
pub fn shape_digits(code: u32) -> String {
    (0..8)
        .map(|k| char::from(b'0' + ((code >> (3 * k)) & 7) as u8))
        .collect()
}

/// A spatial key: 16 hex digits, the first a radius of the model.
fn parse_spatial_key(s: &str) -> Option<u64> {
    if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let key = u64::from_str_radix(s, 16).ok()?;
    let r = features::spatial_radius(key);
    (features::MIN_SPATIAL_RADIUS..=features::MAX_SPATIAL_RADIUS)
        .contains(&r)
        .then_some(key)
}

fn parse_shape_digits(s: &str) -> Option<u32> {
    if s.len() != 8 {
        return None;
    }
    let mut code = 0;
    for (k, ch) in s.bytes().enumerate() {
        if !(b'0'..=b'7').contains(&ch) {
            return None;
        }
        code |= ((ch - b'0') as u32) << (3 * k);
    }
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::features::{move_features, shape_code, CAPTURE, LAST};
    use super::*;

    fn board_with(size: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let mut b = Board::new(size).unwrap();
        for &(x, y) in black {
            b.set_stone(b.point(x, y), Color::Black);
        }
        for &(x, y) in white {
            b.set_stone(b.point(x, y), Color::White);
        }
        b
    }

    #[test]
    fn symmetric_shapes_get_the_same_id() {
        // Around (2,2): own stone up-left, opponent stone right. Around (6,6) the same turned a
        // quarter: own stone up-right, opponent stone below. Around (2,6) the colours swapped,
        // for White to move. Around (6,2) the mirror image.
        let b = board_with(
            9,
            &[(1, 1), (7, 5), (3, 6), (7, 1)],
            &[(3, 2), (6, 7), (1, 5), (5, 2)],
        );
        let id = shape_code(&b, Color::Black, b.point(2, 2));
        assert_eq!(shape_code(&b, Color::Black, b.point(6, 6)), id);
        assert_eq!(shape_code(&b, Color::White, b.point(2, 6)), id);
        assert_eq!(shape_code(&b, Color::Black, b.point(6, 2)), id);
        // The same stones seen by the other player are a different shape.
        assert_ne!(shape_code(&b, Color::White, b.point(2, 2)), id);

        // An edge seen from the left side and from the top.
        let e = board_with(9, &[(1, 4), (4, 1)], &[]);
        assert_eq!(
            shape_code(&e, Color::Black, e.point(0, 4)),
            shape_code(&e, Color::Black, e.point(4, 0))
        );
        // A corner is not an edge.
        assert_ne!(
            shape_code(&e, Color::Black, e.point(0, 0)),
            shape_code(&e, Color::Black, e.point(0, 4))
        );
    }

    /// A map of (column, row) on a 19×19 board.
    type BoardMap = fn((usize, usize)) -> (usize, usize);

    /// The 8 symmetries of a 19×19 board.
    fn board_symmetries() -> [BoardMap; 8] {
        [
            |(x, y)| (x, y),
            |(x, y)| (18 - x, y),
            |(x, y)| (x, 18 - y),
            |(x, y)| (18 - x, 18 - y),
            |(x, y)| (y, x),
            |(x, y)| (18 - y, x),
            |(x, y)| (y, 18 - x),
            |(x, y)| (18 - y, 18 - x),
        ]
    }

    #[test]
    fn spatial_keys_are_the_same_under_all_symmetries_and_colour_swap() {
        use features::spatial_keys;
        // Around (4,3), near a corner so that the edge is part of every radius from 4 on: stones
        // at distances 1 to 6, of both colours.
        let black = [(5, 3), (4, 5), (1, 2), (8, 4), (4, 9)];
        let white = [(3, 2), (6, 5), (2, 0), (9, 3), (0, 5)];
        let centre = (4, 3);
        let a = board_with(19, &black, &white);
        let keys = spatial_keys(&a, Color::Black, a.point(centre.0, centre.1));
        // Every radius has its own key, its radius in the first hex digit.
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(
                features::spatial_radius(k),
                features::MIN_SPATIAL_RADIUS + i
            );
        }
        for t in board_symmetries() {
            let map = |v: &[(usize, usize)]| v.iter().map(|&q| t(q)).collect::<Vec<_>>();
            let (c, (bx, by)) = (map(&[centre]), t(centre));
            assert_eq!(c[0], (bx, by));
            let turned = board_with(19, &map(&black), &map(&white));
            assert_eq!(
                spatial_keys(&turned, Color::Black, turned.point(bx, by)),
                keys
            );
            // The colours swapped, with White to move: the same pattern.
            let swapped = board_with(19, &map(&white), &map(&black));
            assert_eq!(
                spatial_keys(&swapped, Color::White, swapped.point(bx, by)),
                keys
            );
            // The same stones seen by the other player are other patterns, at every radius.
            let other = spatial_keys(&turned, Color::White, turned.point(bx, by));
            assert!(other.iter().zip(&keys).all(|(o, k)| o != k));
        }
    }

    #[test]
    fn spatial_keys_nest_by_radius_and_match_their_digits() {
        use features::{spatial_key_of_digits, spatial_keys};
        // Own stone right of the centre, opponent stone up-left. Digits by distance, then row,
        // then column: distance 1 is up, left, right, down; distance 2 is (0,-2), (-1,-1),
        // (1,-1), (-2,0), (2,0), (-1,1), (1,1), (0,2).
        let b = board_with(19, &[(10, 9)], &[(8, 8)]);
        let keys = spatial_keys(&b, Color::Black, b.point(9, 9));
        assert_eq!(spatial_key_of_digits("002003000000"), Some(keys[0]));
        // Radius 3 adds twelve empty points.
        let r3 = format!("002003000000{}", "0".repeat(12));
        assert_eq!(spatial_key_of_digits(&r3), Some(keys[1]));
        // Any of the 8 images of the digits gives the same key: the mirror image left to right.
        assert_eq!(spatial_key_of_digits("020000300000"), Some(keys[0]));
        assert_eq!(spatial_key_of_digits("0020030000"), None);
        assert_eq!(spatial_key_of_digits("002003000004"), None);

        // A stone at distance 5 changes the patterns of radius 5 and 6 only; one at distance 2
        // changes them all.
        let far = board_with(19, &[(10, 9), (12, 7)], &[(8, 8)]);
        let far_keys = spatial_keys(&far, Color::Black, far.point(9, 9));
        assert_eq!(far_keys[..3], keys[..3]);
        assert!(far_keys[3..].iter().zip(&keys[3..]).all(|(f, k)| f != k));
        let near = board_with(19, &[(10, 9), (9, 11)], &[(8, 8)]);
        let near_keys = spatial_keys(&near, Color::Black, near.point(9, 9));
        assert!(near_keys.iter().zip(&keys).all(|(n, k)| n != k));
        // The empty pattern of each radius is its radius alone.
        let empty = Board::new(19).unwrap();
        let empty_keys = spatial_keys(&empty, Color::Black, empty.point(9, 9));
        for (i, &k) in empty_keys.iter().enumerate() {
            assert_eq!(k, ((features::MIN_SPATIAL_RADIUS + i) as u64) << 60);
        }
    }

    #[test]
    fn the_gamma_that_stops_at_the_first_unknown_radius_is_the_full_one() {
        // `gamma` reads a candidate's rings only while the dictionary knows its pattern: on the
        // committed weights it must give the strength of every radius read. Sparse positions of
        // random games, where the larger patterns still match, on three board sizes.
        let p = Patterns::load();
        let mut rng = fastrand::Rng::with_seed(7);
        let mut larger = 0;
        for size in [9, 13, 19] {
            let mut b = Board::new(size).unwrap();
            let mut color = Color::Black;
            for ply in 0..40 {
                if ply % 4 == 0 {
                    for &q in b.empty_points() {
                        if !b.is_legal(q, color) {
                            continue;
                        }
                        let f = move_features(&b, color, q);
                        assert_eq!(p.gamma(&b, color, q), p.strength(&f), "{size} {ply} {q:?}");
                        larger += usize::from(p.spatials.contains_key(&f.spatials[2]));
                    }
                }
                let legal: Vec<Point> = b
                    .empty_points()
                    .iter()
                    .copied()
                    .filter(|&q| b.is_legal(q, color))
                    .collect();
                b.play(legal[rng.usize(..legal.len())], color);
                color = color.opponent();
            }
        }
        // The comparison saw matches beyond the smallest radii.
        assert!(larger > 100, "{larger}");
    }

    #[test]
    fn committed_weights_know_the_opening_points() {
        // The 4-4 and 3-4 points of the empty board are played in most games: their radius-6
        // patterns (the corner in view) are in the dictionary, whatever orientation.
        let p = Patterns::load();
        let b = Board::new(19).unwrap();
        for (x, y) in [(3, 3), (15, 3), (2, 3), (3, 16), (16, 15)] {
            let keys = features::spatial_keys(&b, Color::Black, b.point(x, y));
            assert!(p.spatials.contains_key(&keys[4]), "({}, {})", x, y);
        }
    }

    #[test]
    fn liberty_marks_tell_shapes_apart() {
        // The same stone next to the point, once with 3+ liberties and once in atari.
        let free = board_with(9, &[], &[(4, 4)]);
        let atari = board_with(9, &[(3, 4), (4, 3), (4, 5)], &[(4, 4)]);
        let free_id = shape_code(&free, Color::Black, free.point(5, 4));
        let atari_id = shape_code(&atari, Color::Black, atari.point(5, 4));
        assert_ne!(free_id, atari_id);
        // 3+ liberties is digit 7 for an opponent stone, atari digit 5 (one of the digits).
        assert!(shape_digits(free_id).contains('7'));
        assert!(shape_digits(atari_id).contains('5'));
    }

    #[test]
    fn a_capture_gets_the_capture_feature() {
        // White (4,4) in atari: Black (4,5) captures one stone, not next to a last move.
        let b = board_with(9, &[(3, 4), (5, 4), (4, 3)], &[(4, 4)]);
        let f = move_features(&b, Color::Black, b.point(4, 5));
        assert_eq!(f.values[CAPTURE], 1);
        let elsewhere = move_features(&b, Color::Black, b.point(1, 1));
        assert_eq!(elsewhere.values[CAPTURE], features::NONE);

        // The same capture right after White's stone was played: the captured stone is the last
        // move, and the distance to it is counted.
        let mut b = board_with(9, &[(3, 4), (5, 4), (4, 3)], &[]);
        b.play(b.point(4, 4), Color::White);
        let f = move_features(&b, Color::Black, b.point(4, 5));
        assert_eq!(f.values[CAPTURE], 2);
        assert_eq!(f.values[LAST], 0);

        // Taking a ko: the capturing stone has no liberty but the captured point.
        let ko = board_with(
            9,
            &[(3, 4), (4, 3), (4, 5)],
            &[(5, 3), (6, 4), (5, 5), (4, 4)],
        );
        let f = move_features(&ko, Color::Black, ko.point(5, 4));
        assert_eq!(f.values[CAPTURE], 0);
    }

    #[test]
    fn ladders_are_read_for_atari_and_escape() {
        use super::features::{ATARI, ESCAPE};
        use crate::tactics::ladder_captured;
        // White (4,4) with liberties (5,4) and (4,5); Black's atari at (4,5) starts a ladder that
        // runs up and to the right to the edge, unless a White stone on its path breaks it.
        let black = [(4, 3), (3, 4), (5, 5)];
        let open = board_with(19, &black, &[(4, 4)]);
        let broken = board_with(19, &black, &[(4, 4), (7, 1)]);
        for (b, ladder) in [(&open, true), (&broken, false)] {
            let f = move_features(b, Color::Black, b.point(4, 5));
            assert_eq!(f.values[ATARI], if ladder { 3 } else { 1 });
            let mut after = b.clone();
            after.play(b.point(4, 5), Color::Black);
            assert_eq!(ladder_captured(&after, after.point(4, 4)), ladder);
            // White's extension to two liberties: an escape that fails or works.
            let f = move_features(&after, Color::White, after.point(5, 4));
            assert_eq!(f.values[ESCAPE], if ladder { 0 } else { 1 });
        }
        // Extending to three liberties is the third escape value.
        let free = board_with(19, &[(4, 3), (3, 4), (4, 5)], &[(4, 4)]);
        let f = move_features(&free, Color::White, free.point(5, 4));
        assert_eq!(f.values[ESCAPE], 2);
    }

    #[test]
    fn loaded_weights_prefer_capturing_a_big_group_to_a_first_line_move() {
        let p = Patterns::load();
        assert!(p.shape_count() > 100, "the committed weights are trained");
        assert!(p.spatial_count() > 100);
        // An opening with a fight in the centre: White has just extended a group of four stones
        // into atari at (12,9); Black captures at (13,9).
        let mut b = board_with(
            19,
            &[
                (8, 9),
                (9, 8),
                (10, 8),
                (11, 8),
                (12, 8),
                (9, 10),
                (10, 10),
                (11, 10),
                (12, 10),
                (3, 3),
                (15, 15),
            ],
            &[(9, 9), (10, 9), (11, 9), (15, 3), (3, 15)],
        );
        b.play(b.point(12, 9), Color::White);
        let capture = p.gamma(&b, Color::Black, b.point(13, 9));
        let first_line = p.gamma(&b, Color::Black, b.point(0, 6));
        assert!(capture > 10.0 * first_line, "{} vs {}", capture, first_line);
        // Among all legal moves it is one of the few the model likes best.
        let moves: Vec<Move> = b
            .empty_points()
            .iter()
            .filter(|&&q| b.is_legal(q, Color::Black))
            .map(|&q| Move::Play(q))
            .chain(std::iter::once(Move::Pass))
            .collect();
        let mut out = vec![0.0; moves.len()];
        p.gammas(&b, Color::Black, &moves, &mut out);
        let better = out.iter().filter(|&&g| g > capture).count();
        assert!(better < 10, "{} moves rank above the capture", better);
        let total: f32 = out.iter().sum();
        assert!(capture / total > 0.02);
    }

    #[test]
    fn weights_text_round_trips_and_bad_lines_are_refused() {
        let mut p = Patterns::uniform();
        let b = board_with(9, &[(1, 1)], &[(3, 2)]);
        let shape = shape_code(&b, Color::Black, b.point(2, 2));
        p.set_shape_gamma(Some(shape), 2.5);
        p.set_shape_gamma(None, 0.75);
        p.set_group_gamma(CAPTURE, 3, 12.0);
        let spatial = features::spatial_keys(&b, Color::Black, b.point(2, 2));
        p.set_spatial_gamma(spatial[4], 7.5);
        let q = Patterns::parse(&p.to_text("a header\nof two lines")).unwrap();
        assert_eq!(q.spatial_gamma(&spatial), 7.5);
        assert_eq!(q.spatial_count(), 1);
        assert_eq!(q.shape_gamma(shape), 2.5);
        assert_eq!(q.shape_gamma(shape ^ 1), 0.75);
        assert_eq!(q.group_gamma(CAPTURE, 3), 12.0);
        assert_eq!(q.group_gamma(CAPTURE, 4), 1.0);
        for bad in [
            "capture 13 1.0",
            "capture 1 -1",
            "capture 1 nan",
            "ladder 0 1.0",
            "shape 0000000 1.0",
            "shape 00000008 1.0",
            "shape 00000001 1.0",
            "capture 1",
            "spatial 0123456789abcdef 1.0",
            "spatial 7123456789abcdef 1.0",
            "spatial 2123456789abcde 1.0",
            "spatial 2123456789abcdeg 1.0",
            "spatial +123456789abcdef 1.0",
            "diamond 0020030000 1.0",
        ] {
            assert!(Patterns::parse(bad).is_err(), "{}", bad);
        }
    }
}
