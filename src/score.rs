//! Counting a final position: area (Chinese, pre-judgement) or territory (Japanese), given which
//! stones are dead.
//!
//! The count works on a copy of the board with the dead stones lifted. Empty regions that reach
//! only one colour belong to it; regions that reach both are neutral (dame, or the shared
//! liberties of a seki) and count for nobody. Seki is found by play, not by pattern: every neutral
//! point that one side can fill without putting its own group in atari is filled (that is what
//! "dame are filled before the end" means); the neutral points left are liberties that neither
//! side can fill, and the groups beside them live only by sharing them: they are in seki. Under
//! territory counting the regions touching a seki group are not territory (Japanese 第8条).
//!
//! Margins are `Black − White`, komi included, in half points; see [`crate::rules::Margin`].

use crate::board::{Board, Color, Point};
use crate::game::Game;
use crate::rules::{HalfPoints, Margin, Rules, Scoring};

/// Who a point counts for at the end.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Owner {
    Black,
    White,
    /// Dame or a seki's shared liberty, or a seki eye under territory counting.
    Nobody,
}

/// The result of counting a position.
#[derive(Clone, Debug)]
pub struct Count {
    /// Black's points: area (stones + territory) or territory + prisoners.
    pub black: i32,
    /// White's points, before komi and handicap compensation.
    pub white: i32,
    /// Komi plus handicap compensation, added to White.
    pub compensation: HalfPoints,
    /// `black − white − compensation`.
    pub margin: Margin,
    /// Who each on-board point counts for, row by row from the top (as `Board::points`).
    pub owner: Vec<Owner>,
    /// Stones that live in seki.
    pub seki: Vec<Point>,
    /// Neutral points (dame and seki liberties).
    pub dame: u32,
}

/// Counts the game's current position with `dead` stones lifted (points without a stone are
/// ignored), under the game's rules and komi.
pub fn count(game: &Game, dead: &[Point]) -> Count {
    let prisoners = [game.prisoners(Color::Black), game.prisoners(Color::White)];
    count_board(
        game.board(),
        game.rules(),
        game.komi(),
        prisoners,
        game.handicap().len() as u32,
        dead,
    )
}

/// Counts a position given everything the count depends on. `prisoners[c]` are the stones `c`
/// captured during play. Rules that lift no dead stones (Tromp–Taylor) count the board as it
/// stands, whatever `dead` says.
pub fn count_board(
    board: &Board,
    rules: &Rules,
    komi: HalfPoints,
    prisoners: [u32; 2],
    handicap: u32,
    dead: &[Point],
) -> Count {
    let dead = if rules.dead_stones_lifted { dead } else { &[] };
    let clean = lift(board, dead);
    // Each lifted stone's owner loses it: the other side gains a prisoner.
    let mut lifted = [0u32; 2];
    for p in board.points() {
        if let (Some(c), None) = (board.color(p), clean.color(p)) {
            lifted[c.opponent().index()] += 1;
        }
    }
    let seki = seki_stones(&clean);
    let mut in_seki = vec![false; crate::board::CELLS];
    for &s in &seki {
        in_seki[s.idx()] = true;
    }

    let territory = rules.scoring == Scoring::Territory;
    let mut owner_at = vec![Owner::Nobody; crate::board::CELLS];
    let mut dame = 0;
    for region in regions(&clean, |p| clean.is_empty(p)) {
        let o = match region.owner() {
            Some(Color::Black) => Owner::Black,
            Some(Color::White) => Owner::White,
            None => Owner::Nobody,
        };
        let o = if territory && o != Owner::Nobody && region.border.iter().any(|b| in_seki[b.idx()])
        {
            Owner::Nobody
        } else {
            o
        };
        if region.touches_black && region.touches_white {
            dame += region.points.len() as u32;
        }
        for &p in &region.points {
            owner_at[p.idx()] = o;
        }
    }
    let mut black = 0i32;
    let mut white = 0i32;
    let mut owner = Vec::with_capacity(board.size() * board.size());
    for p in board.points() {
        let o = match clean.color(p) {
            Some(Color::Black) => Owner::Black,
            Some(Color::White) => Owner::White,
            None => owner_at[p.idx()],
        };
        let counts = clean.color(p).is_none() || !territory;
        if counts {
            match o {
                Owner::Black => black += 1,
                Owner::White => white += 1,
                Owner::Nobody => {}
            }
        }
        owner.push(o);
    }
    if territory {
        black += (prisoners[0] + lifted[0]) as i32;
        white += (prisoners[1] + lifted[1]) as i32;
    }
    let compensation = komi + rules.handicap_bonus.points(handicap as usize);
    let margin = Margin(HalfPoints::points(black - white) - compensation);
    Count {
        black,
        white,
        compensation,
        margin,
        owner,
        seki,
        dame,
    }
}

/// A copy of `board` with the stones on the `dead` points lifted (points without a stone are
/// ignored).
pub fn lift(board: &Board, dead: &[Point]) -> Board {
    let mut clean = board.clone();
    for &p in dead {
        if clean.color(p).is_some() {
            clean.clear_stone(p);
        }
    }
    clean
}

/// A connected set of points (of one kind, chosen by the caller) and the stones around it.
#[derive(Clone, Debug)]
pub struct Region {
    pub points: Vec<Point>,
    /// The stones next to the region, once per adjacency (a stone may appear more than once).
    pub border: Vec<Point>,
    pub touches_black: bool,
    pub touches_white: bool,
}

impl Region {
    /// The colour whose area the region is: the one colour it reaches, if only one.
    pub fn owner(&self) -> Option<Color> {
        match (self.touches_black, self.touches_white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}

/// The regions of `board`: maximal connected sets of on-board points for which `inside` holds,
/// each with the stones that border it (every neighbour not inside is a stone or off the
/// board, when `inside` holds for every empty point). The one flood fill of the crate: the area
/// count (inside = empty), the count with dead stones standing in their regions (inside = not a
/// living stone) and Benson's vital regions (inside = not a stone of the colour) all use it.
pub fn regions(board: &Board, inside: impl Fn(Point) -> bool) -> Vec<Region> {
    let mut seen = vec![false; crate::board::CELLS];
    let mut list = Vec::new();
    let mut stack = Vec::new();
    for start in board.points() {
        if seen[start.idx()] || !inside(start) {
            continue;
        }
        let mut region = Region {
            points: Vec::new(),
            border: Vec::new(),
            touches_black: false,
            touches_white: false,
        };
        seen[start.idx()] = true;
        stack.push(start);
        while let Some(p) = stack.pop() {
            region.points.push(p);
            for n in board.neighbours(p) {
                if !board.on_board(n) || seen[n.idx()] {
                    continue;
                }
                if inside(n) {
                    seen[n.idx()] = true;
                    stack.push(n);
                } else if let Some(c) = board.color(n) {
                    region.border.push(n);
                    match c {
                        Color::Black => region.touches_black = true,
                        Color::White => region.touches_white = true,
                    }
                }
            }
        }
        list.push(region);
    }
    list
}

/// Black's area minus White's on `board` with dead stones lifted — `dead` gives, per point, the
/// colour of the dead stone there (a stone of another colour on that point stays; an empty mask
/// lifts nothing) — counting stones plus empty regions that reach only one colour.
pub fn area_margin_with_dead(board: &Board, dead: &[Option<Color>]) -> i32 {
    let alive = |p: Point| {
        let c = board.color(p)?;
        (dead.get(p.idx()).copied().flatten() != Some(c)).then_some(c)
    };
    let stones: i32 = board
        .points()
        .map(|p| match alive(p) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        })
        .sum();
    let regions: i32 = regions(board, |p| alive(p).is_none())
        .iter()
        .map(|r| match r.owner() {
            Some(Color::Black) => r.points.len() as i32,
            Some(Color::White) => -(r.points.len() as i32),
            None => 0,
        })
        .sum();
    stones + regions
}

/// Who owns `p` on a settled board — one whose empty points are single eyes or dame, as a
/// playout leaves it: +1 Black (stone, or empty with only Black neighbours), −1 White, 0 dame.
#[inline]
pub fn settled_owner(board: &Board, p: Point) -> i32 {
    match board.color(p) {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => {
            let (mut b, mut w) = (false, false);
            for n in board.neighbours(p) {
                match board.color(n) {
                    Some(Color::Black) => b = true,
                    Some(Color::White) => w = true,
                    None => {}
                }
            }
            b as i32 - w as i32
        }
    }
}

/// Black's area minus White's on a settled board (see [`settled_owner`]), without a flood fill;
/// `each` sees every point's owner on the way.
#[inline]
pub fn settled_area(board: &Board, mut each: impl FnMut(Point, i32)) -> i32 {
    let mut area = 0;
    for p in board.points() {
        let o = settled_owner(board, p);
        each(p, o);
        area += o;
    }
    area
}

/// Whether `p` is next to stones of both colours (a candidate dame or seki liberty).
fn touches_both(board: &Board, p: Point) -> bool {
    let mut b = false;
    let mut w = false;
    for n in board.neighbours(p) {
        match board.color(n) {
            Some(Color::Black) => b = true,
            Some(Color::White) => w = true,
            None => {}
        }
    }
    b && w
}

/// Whether `c` can fill empty `p` safely: legal, capturing nothing, and leaving its group with
/// at least two liberties.
fn safe_fill(board: &Board, p: Point, c: Color) -> bool {
    if board.is_suicide(p, c) {
        return false;
    }
    let mut after = board.clone();
    let out = after.play(p, c);
    out.captured == 0 && out.lost == 0 && after.liberties(p) >= 2
}

/// The neutral points (next to stones of both colours) that `c` can fill safely on a board whose
/// dead stones are lifted: the dame a player fills before passing under territory counting.
pub fn fillable_dame(board: &Board, c: Color) -> Vec<Point> {
    let mut dame: Vec<Point> = board
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| touches_both(board, p) && safe_fill(board, p, c))
        .collect();
    dame.sort();
    dame
}

/// The stones in seki on a board whose dead stones are already lifted: fill every neutral point
/// one side can fill safely, then the groups beside the neutral points left live only by
/// sharing them.
pub fn seki_stones(board: &Board) -> Vec<Point> {
    let mut filled = board.clone();
    loop {
        let mut progress = false;
        let mut candidates: Vec<Point> = filled
            .empty_points()
            .iter()
            .copied()
            .filter(|&p| touches_both(&filled, p))
            .collect();
        candidates.sort();
        for p in candidates {
            if !filled.is_empty(p) || !touches_both(&filled, p) {
                continue;
            }
            for c in [Color::Black, Color::White] {
                if safe_fill(&filled, p, c) {
                    filled.play(p, c);
                    progress = true;
                    break;
                }
            }
        }
        if !progress {
            break;
        }
    }
    let mut in_seki = vec![false; crate::board::CELLS];
    let mut seki = Vec::new();
    let shared: Vec<Point> = filled
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| touches_both(&filled, p))
        .collect();
    for p in shared {
        for n in filled.neighbours(p) {
            if filled.color(n).is_none() || in_seki[n.idx()] {
                continue;
            }
            for s in filled.group_stones(n) {
                in_seki[s.idx()] = true;
                // Only the original stones are reported; fills were hypothetical.
                if board.color(s).is_some() {
                    seki.push(s);
                }
            }
        }
    }
    seki.sort();
    seki
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn position(rows: &[&str], rules: Rules) -> Game {
        Game::from_diagram(rows, rules).unwrap()
    }

    /// The seed's example: 19×19, komi 3¾ stones (7.5 points); Black 185 wins by 1.5, 184 loses by
    /// 0.5. Black owns columns A–J down to a step in column K (index 9).
    fn area_position(black_area: usize) -> Game {
        let mut g = Game::new(19, Rules::chinese()).unwrap();
        let b = g.board().clone();
        let step = black_area - 171; // rows of column 9 that are Black's
        let mut stones = Vec::new();
        for row in 0..19 {
            if row < step {
                stones.push((b.point(9, row), Some(Color::Black)));
                stones.push((b.point(10, row), Some(Color::White)));
            } else {
                stones.push((b.point(8, row), Some(Color::Black)));
                stones.push((b.point(9, row), Some(Color::White)));
            }
        }
        g.setup(&stones).unwrap();
        g
    }

    #[test]
    fn area_with_dead_stones_lifted() {
        let rows = [
            ".X.O.", //
            ".X.O.", //
            "OX.O.", //
            "XX.O.", //
            "...O.",
        ];
        let g = position(&rows, Rules::chinese());
        let b = g.board();
        // As the board stands: Black 5 stones, White 5 + 1 stones and 5 points; the rest dame.
        assert_eq!(area_margin_with_dead(b, &[]), 5 - 11);
        let mut dead = vec![None; crate::board::CELLS];
        dead[b.point(0, 2).idx()] = Some(Color::White);
        // Lifting A3 gives Black the three points of the left edge.
        assert_eq!(area_margin_with_dead(b, &dead), 8 - 10);
        // A mask for the other colour lifts nothing there.
        dead[b.point(0, 2).idx()] = Some(Color::Black);
        assert_eq!(area_margin_with_dead(b, &dead), 5 - 11);
    }

    #[test]
    fn seed_area_examples() {
        let g = area_position(185);
        let c = count(&g, &[]);
        assert_eq!((c.black, c.white), (185, 176));
        assert_eq!(c.margin.to_string(), "B+1.5");
        let g = area_position(184);
        assert_eq!(count(&g, &[]).margin.to_string(), "W+0.5");
    }

    #[test]
    fn dame_count_for_nobody() {
        let rows = [
            "..XO.", //
            "..XO.", //
            "..X.O", //
            "..XO.", //
            "..XO.",
        ];
        for rules in [Rules::chinese(), Rules::japanese()] {
            let g = position(&rows, rules);
            let c = count(&g, &[]);
            assert_eq!(c.dame, 1);
            assert!(c.seki.is_empty());
            if rules.scoring == Scoring::Area {
                assert_eq!((c.black, c.white), (15, 9));
            } else {
                assert_eq!((c.black, c.white), (10, 4));
            }
        }
    }

    #[test]
    fn dead_stones_are_prisoners_under_territory_only() {
        let rows = [
            ".X.O.", //
            ".X.O.", //
            "OX.O.", //
            "XX.O.", //
            "...O.",
        ];
        let mut j = position(&rows, Rules::japanese());
        j.set_komi(HalfPoints::ZERO);
        let dead = j.board().point(0, 2);
        let c = count(&j, &[dead]);
        // Black: 2 empty points + the lifted point (now empty, Black's) + 1 prisoner.
        assert_eq!((c.black, c.white), (3 + 1, 5));
        let mut ch = position(&rows, Rules::chinese());
        ch.set_komi(HalfPoints::ZERO);
        let c = count(&ch, &[dead]);
        // Black: 5 stones + the 3 points of the left edge; column C and A1-B1 are dame.
        assert_eq!((c.black, c.white, c.dame), (5 + 3, 5 + 5, 7));
    }

    /// A seki with one eye each: Black's corner group (eye A7) and White's group (eye E7) share
    /// the single liberty C7; whoever fills it puts itself in atari.
    #[test]
    fn seki_eyes_are_not_territory_under_japanese_rules() {
        let rows = [
            ".X.O.OX", //
            "XXOOOOX", //
            "OOOXXXX", //
            "XXXX...", //
            ".......", //
            ".......", //
            ".......",
        ];
        let g = position(&rows, Rules::chinese());
        let b = g.board();
        let seki = seki_stones(b);
        assert_eq!(seki.len(), 3 + 9);
        assert!(seki.contains(&b.point(1, 0)) && seki.contains(&b.point(5, 0)));
        assert!(
            !seki.contains(&b.point(6, 0)),
            "the outer wall is not in seki"
        );
        let c = count(&g, &[]);
        let j = position(&rows, Rules::japanese());
        let cj = count(&j, &[]);
        let (a7, c7, e7) = (0, 2, 4);
        assert_eq!((c.owner[a7], c.owner[e7]), (Owner::Black, Owner::White));
        assert_eq!((cj.owner[a7], cj.owner[e7]), (Owner::Nobody, Owner::Nobody));
        assert_eq!((c.owner[c7], cj.owner[c7]), (Owner::Nobody, Owner::Nobody));
        // Area: Black 13 stones + A7 + 24 open points; White 9 stones + E7.
        assert_eq!((c.black, c.white), (13 + 1 + 24, 10));
        // Territory: only the open points, which reach the outer wall alone.
        assert_eq!((cj.black, cj.white), (24, 0));
    }

    #[test]
    fn fillable_dame_exclude_seki_liberties() {
        let rows = [
            "..XO..", //
            "..XO..", //
            "..X.O.", //
            "..XO..", //
            "..XO..", //
            "..XO..",
        ];
        let g = position(&rows, Rules::japanese());
        let d = g.board().point(3, 2);
        assert_eq!(fillable_dame(g.board(), Color::Black), vec![d]);
        assert_eq!(fillable_dame(g.board(), Color::White), vec![d]);
        let seki = [
            ".X.O.OX", //
            "XXOOOOX", //
            "OOOXXXX", //
            "XXXX...", //
            ".......", //
            ".......", //
            ".......",
        ];
        let g = position(&seki, Rules::japanese());
        assert!(fillable_dame(g.board(), Color::Black).is_empty());
    }

    #[test]
    fn open_dame_do_not_make_seki() {
        // A dame between two living walls: fillable, so no seki, and territory counts.
        let rows = [
            "..XO..", //
            "..XO..", //
            "..X.O.", //
            "..XO..", //
            "..XO..", //
            "..XO..",
        ];
        let g = position(&rows, Rules::japanese());
        assert!(seki_stones(g.board()).is_empty());
        let c = count(&g, &[]);
        assert_eq!(c.black, 12);
    }

    #[test]
    fn prisoners_from_play_count_under_territory() {
        let mut g = Game::new(5, Rules::japanese()).unwrap();
        g.set_komi(HalfPoints::ZERO);
        let b = g.board().clone();
        let p = |c, r| Move::Play(b.point(c, r));
        // White's stone at A5 (0,0) is captured by Black A4 and B5.
        g.play(Color::Black, p(1, 0)).unwrap();
        g.play(Color::White, p(0, 0)).unwrap();
        g.play(Color::Black, p(0, 1)).unwrap();
        assert_eq!(g.prisoners(Color::Black), 1);
        let c = count(&g, &[]);
        // The whole board reaches only Black: 23 empty points of territory + 1 prisoner.
        assert_eq!(c.black, 23 + 1);
        assert_eq!(c.margin.to_string(), "B+24");
    }

    #[test]
    fn chinese_handicap_compensation() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        g.set_komi(HalfPoints(1));
        let b = g.board().clone();
        g.place_handicap(&[b.point(2, 2), b.point(6, 6)]).unwrap();
        let c = count(&g, &[]);
        assert_eq!(c.compensation, HalfPoints(5));
        assert_eq!(c.margin.to_string(), "B+78.5");
        let mut j = g.clone();
        j.set_rules(Rules::japanese());
        assert_eq!(count(&j, &[]).compensation, HalfPoints(1));
        // AGA: one point for each stone after the first.
        j.set_rules(Rules::aga());
        assert_eq!(count(&j, &[]).compensation, HalfPoints(3));
    }
}
