//! The hand-made 3×3 shapes of the heavy playouts and the priors: which of them an empty point's
//! neighbourhood matches.
//!
//! Each shape is matched in all 8 orientations and for either colour. A neighbourhood code (the
//! 8 surrounding cells, 2 bits each) maps to the set of shapes it matches, as a bitmask over
//! [`PATTERNS`]. The table is built once and stays as small as a table of yes/no answers: one
//! byte per code naming one of the few distinct sets, so the playouts' lookups keep to the
//! cache they had.

use crate::board::{Board, Cell, Point};
use std::sync::OnceLock;

/// 3×3 shapes around an empty centre, from the mover's side: `X` mover, `O` opponent, `.`
/// empty, `#` off board, `?` anything, `x` not the mover's stone (empty or opponent), `o` not the
/// opponent's. Rows top to bottom. With their names in the playout weights file.
pub const PATTERNS: [(&str, &str); 13] = [
    ("XOX...???", "hane_enclosing"),
    ("XO....?.?", "hane_no_cut"),
    ("XO?X..x.?", "bending_hane"),
    (".O.X.....", "diagonal_attachment"),
    ("XO?O.o?o?", "unpreventable_cut"),
    ("XO?O.X???", "cut_after_peep"),
    ("?X?O.Oooo", "push_through"),
    ("OX?o.O???", "knights_move_cut"),
    ("X.?O.?###", "edge_chase"),
    ("OX?X.O###", "edge_cut_block"),
    ("?X?x.O###", "edge_connection_block"),
    ("?XOx.x###", "edge_drop"),
    ("?OXX.O###", "edge_cut"),
];

/// How many shapes there are.
pub const SHAPES: usize = PATTERNS.len();

/// Neighbourhood codes to sets of shapes: `index[code]` names `sets[index]`, a bitmask over
/// [`PATTERNS`] (set 0 is the empty set).
struct Table {
    index: Vec<u8>,
    sets: Vec<u16>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Neighbourhood order used in codes: NW, N, NE, W, E, SW, S, SE (2 bits each, `Cell` values).
fn build_table() -> Table {
    let mut masks = vec![0u16; 1 << 16];
    // Pattern string positions (row-major 3×3, centre 4) of each code slot.
    const SLOTS: [usize; 8] = [0, 1, 2, 3, 5, 6, 7, 8];
    for (i, (pat, _)) in PATTERNS.iter().enumerate() {
        let grid: Vec<char> = pat.chars().collect();
        for sym in 0..8 {
            let g = transform(&grid, sym);
            for mover in [Cell::Black, Cell::White] {
                let opp = if mover == Cell::Black {
                    Cell::White
                } else {
                    Cell::Black
                };
                let options: Vec<Vec<u8>> = SLOTS
                    .iter()
                    .map(|&s| match g[s] {
                        'X' => vec![mover as u8],
                        'O' => vec![opp as u8],
                        '.' => vec![Cell::Empty as u8],
                        '#' => vec![Cell::Wall as u8],
                        'x' => vec![Cell::Empty as u8, opp as u8],
                        'o' => vec![Cell::Empty as u8, mover as u8],
                        _ => vec![0, 1, 2, 3],
                    })
                    .collect();
                expand(&options, 0, 0, 1 << i, &mut masks);
            }
        }
    }
    let mut sets = vec![0u16];
    let index = masks
        .iter()
        .map(|&m| {
            let i = sets.iter().position(|&s| s == m).unwrap_or_else(|| {
                sets.push(m);
                sets.len() - 1
            });
            // The shapes are this file's constants: a test checks that their sets fit a byte.
            u8::try_from(i).unwrap_or_else(|_| unreachable!("more than 256 sets of shapes"))
        })
        .collect();
    Table { index, sets }
}

fn expand(options: &[Vec<u8>], slot: usize, code: usize, bit: u16, masks: &mut [u16]) {
    if slot == options.len() {
        masks[code] |= bit;
        return;
    }
    for &v in &options[slot] {
        expand(
            options,
            slot + 1,
            code | (v as usize) << (2 * slot),
            bit,
            masks,
        );
    }
}

/// One of the 8 symmetries of a 3×3 grid.
fn transform(g: &[char], sym: usize) -> Vec<char> {
    let mut out = vec!['?'; 9];
    for r in 0..3 {
        for c in 0..3 {
            let (mut rr, mut cc) = (r, c);
            if sym & 1 != 0 {
                cc = 2 - cc;
            }
            if sym & 2 != 0 {
                rr = 2 - rr;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut rr, &mut cc);
            }
            out[rr * 3 + cc] = g[r * 3 + c];
        }
    }
    out
}

/// The neighbourhood code of `p` (see [`build_table`]).
#[inline]
fn code(board: &Board, p: Point) -> usize {
    let [nw, ne, sw, se] = board.diagonals(p);
    let [n, w, e, s] = board.neighbours(p);
    let mut code = 0usize;
    for (i, q) in [nw, n, ne, w, e, sw, s, se].into_iter().enumerate() {
        code |= (board.cell(q) as usize) << (2 * i);
    }
    code
}

/// The shapes empty `p`'s neighbourhood matches, a bitmask over [`PATTERNS`] (0: none).
#[inline]
pub fn shape_set(board: &Board, p: Point) -> u16 {
    let t = table();
    t.sets[t.index[code(board, p)] as usize]
}

/// Whether empty `p` is a good-shape 3×3 reply point.
#[inline]
pub fn matches_pattern(board: &Board, p: Point) -> bool {
    table().index[code(board, p)] != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    #[test]
    fn patterns_match_in_every_orientation_and_colour() {
        // A hane that encloses: Black X on both sides of White O, centre below O.
        let mut b = Board::new(9).unwrap();
        b.play(b.point(3, 3), Color::Black);
        b.play(b.point(4, 3), Color::White);
        b.play(b.point(5, 3), Color::Black);
        assert!(matches_pattern(&b, b.point(4, 4)));
        assert_eq!(shape_set(&b, b.point(4, 4)) & 1, 1);
        // The same shape rotated and with colours swapped.
        let mut r = Board::new(9).unwrap();
        r.play(r.point(3, 3), Color::White);
        r.play(r.point(3, 4), Color::Black);
        r.play(r.point(3, 5), Color::White);
        assert!(matches_pattern(&r, r.point(4, 4)));
        // An empty neighbourhood is no pattern.
        let e = Board::new(9).unwrap();
        assert!(!matches_pattern(&e, e.point(4, 4)));
        assert_eq!(shape_set(&e, e.point(4, 4)), 0);
    }

    #[test]
    fn the_sets_of_shapes_fit_a_byte_and_every_shape_is_reachable() {
        let t = build_table();
        assert!(t.sets.len() <= 256, "{} sets", t.sets.len());
        let all = t.sets.iter().fold(0, |a, &s| a | s);
        assert_eq!(all, (1 << SHAPES) - 1);
    }
}
