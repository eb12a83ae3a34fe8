//! The openings of a match's game pairs: both games of pair k (games 2k − 1 and 2k) start with
//! opening k, the colours swapped between them, so that each pair differs from the others while
//! its two games differ only in who plays which side. The moves are tengen's record's first moves
//! and are sent to both engines and the referee as `play` commands before the first `genmove`.
//!
//! Openings come from `--openings PATH`: a text file with one opening a line (GTP vertices
//! separated by spaces, colours alternating from the side to move, `#` starting a comment), one
//! SGF file, or a directory whose `*.sgf` files (in name order) give one opening each (the main
//! line's moves, from the same start as the match's: an empty board or the same handicap). They
//! are used in order, round again when the pairs outnumber them, each cut to `--opening-moves`
//! when that is given. Without a file, the built-in generator plays that many moves (2 by
//! default) at random from the match's seed and the pair's number: each stone off the first two
//! lines (the first line on boards smaller than 7×7) and touching no stone. Every opening is
//! checked against tengen's rules before the first game; passes are refused.

use crate::board::{Color, Move};
use crate::coords::{format_move, parse_vertex};
use crate::game::{Game, PlayedMove};
use std::path::Path;

/// The most SGF files a directory of openings may hold.
const MAX_SGF_FILES: usize = 100_000;

/// The most bytes of a text file of openings.
const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;

/// Where the pairs' openings come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// A list read from a file or a directory, used in order and round again.
    Listed {
        from: String,
        list: Vec<Vec<PlayedMove>>,
    },
    /// `moves` moves generated from the seed for each pair.
    Generated { moves: usize, seed: u64 },
}

impl Openings {
    /// Reads the openings at `path` and checks each from `start` (the match's position before
    /// the first move: empty, or its handicap), cut to `cap` moves when given.
    pub fn load(path: &Path, start: &Game, cap: Option<usize>) -> Result<Openings, String> {
        let shown = path.display().to_string();
        let mut list = Vec::new();
        if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .map_err(|e| format!("--openings {}: {}", shown, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_sgf_name(p) && !p.is_dir())
                .collect();
            if files.len() > MAX_SGF_FILES {
                return Err(format!(
                    "--openings {}: more than {} SGF files",
                    shown, MAX_SGF_FILES
                ));
            }
            files.sort();
            for file in files {
                let text = crate::sgf::read_file(&file).map_err(|e| format!("--openings {}", e))?;
                list.push(
                    sgf_opening(&text, start, cap)
                        .map_err(|e| format!("--openings {}: {}", file.display(), e))?,
                );
            }
        } else {
            let text = String::from_utf8(crate::files::read(path, MAX_TEXT_BYTES)?)
                .map_err(|_| format!("--openings {}: not UTF-8 text", shown))?;
            if is_sgf_name(path) || text.trim_start().starts_with('(') {
                list.push(
                    sgf_opening(&text, start, cap)
                        .map_err(|e| format!("--openings {}: {}", shown, e))?,
                );
            } else {
                for (i, line) in text.lines().enumerate() {
                    let line = line.split('#').next().unwrap_or("").trim();
                    if line.is_empty() {
                        continue;
                    }
                    list.push(
                        line_opening(line, start, cap)
                            .map_err(|e| format!("--openings {} line {}: {}", shown, i + 1, e))?,
                    );
                }
            }
        }
        if list.is_empty() {
            return Err(format!("--openings {}: no openings there", shown));
        }
        Ok(Openings::Listed { from: shown, list })
    }

    /// The opening of pair `pair` (from 1), from `start`.
    pub fn for_pair(&self, pair: usize, start: &Game) -> Vec<PlayedMove> {
        match self {
            Openings::Listed { list, .. } => list[(pair.max(1) - 1) % list.len()].clone(),
            Openings::Generated { moves, seed } => generate(start, *moves, *seed, pair),
        }
    }

    /// For the match's header.
    pub fn describe(&self) -> String {
        match self {
            Openings::Listed { from, list } => format!(
                "{} opening{} from {}",
                list.len(),
                if list.len() == 1 { "" } else { "s" },
                from
            ),
            Openings::Generated { moves: 0, .. } => "no opening moves".to_string(),
            Openings::Generated { moves, seed } => format!(
                "openings of {} move{} generated from seed {}",
                moves,
                if *moves == 1 { "" } else { "s" },
                seed
            ),
        }
    }
}

fn is_sgf_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// Plays `moves` on a copy of `start`: the opening, or why tengen's rules refuse it.
fn checked(start: &Game, moves: Vec<PlayedMove>) -> Result<Vec<PlayedMove>, String> {
    let mut game = start.clone();
    for (i, m) in moves.iter().enumerate() {
        let vertex = format_move(game.board(), m.mv);
        if m.mv == Move::Pass {
            return Err(format!("move {} is a pass, no opening move", i + 1));
        }
        game.play(m.color, m.mv)
            .map_err(|e| format!("move {} ({} {}) is illegal: {}", i + 1, m.color, vertex, e))?;
    }
    Ok(moves)
}

/// An opening as a line of GTP vertices, colours alternating from the side to move.
fn line_opening(line: &str, start: &Game, cap: Option<usize>) -> Result<Vec<PlayedMove>, String> {
    let mut color = start.to_move();
    let mut moves = Vec::new();
    for word in line.split_whitespace().take(cap.unwrap_or(usize::MAX)) {
        let mv = parse_vertex(word, start.board()).map_err(|_| {
            format!(
                "'{}' is not a vertex of a {}x{} board",
                crate::sgf::printable(word, 20),
                start.board().size(),
                start.board().size()
            )
        })?;
        moves.push(PlayedMove { color, mv });
        color = color.opponent();
    }
    checked(start, moves)
}

/// An opening as an SGF record's main line, which must start where the match does.
fn sgf_opening(text: &str, start: &Game, cap: Option<usize>) -> Result<Vec<PlayedMove>, String> {
    let game = crate::sgf::load(text, *start.rules(), None).map_err(|e| e.to_string())?;
    let (ours, theirs) = (start.start_board(), game.start_board());
    if theirs.size() != ours.size() {
        return Err(format!(
            "a {}x{} record for a {}x{} match",
            theirs.size(),
            theirs.size(),
            ours.size(),
            ours.size()
        ));
    }
    if ours.points().any(|p| ours.color(p) != theirs.color(p)) {
        return Err(
            "the record's setup or handicap stones are not the match's starting position"
                .to_string(),
        );
    }
    let moves = game
        .moves()
        .take(cap.unwrap_or(usize::MAX))
        .collect::<Vec<_>>();
    checked(start, moves)
}

/// The built-in opening of pair `pair`: `moves` moves from `start`, each a random point (from
/// the seed and the pair's number) off the edge lines and touching no stone, while there is one.
fn generate(start: &Game, moves: usize, seed: u64, pair: usize) -> Vec<PlayedMove> {
    let mut rng =
        fastrand::Rng::with_seed(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = start.clone();
    let size = game.board().size();
    let margin = match size {
        7.. => 2,
        4..=6 => 1,
        _ => 0,
    };
    let mut opening = Vec::new();
    for _ in 0..moves {
        let color = game.to_move();
        let board = game.board();
        let candidates: Vec<Move> = board
            .points()
            .filter(|&p| {
                let (col, row) = board.coords(p);
                let inside = |x: usize| x >= margin && x + margin < size;
                inside(col)
                    && inside(row)
                    && board.is_empty(p)
                    && board
                        .neighbours(p)
                        .iter()
                        .all(|&q| board.color(q).is_none())
            })
            .map(Move::Play)
            .filter(|&mv| game.is_legal(color, mv))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let mv = candidates[rng.usize(..candidates.len())];
        if game.play(color, mv).is_err() {
            break;
        }
        opening.push(PlayedMove { color, mv });
    }
    opening
}

/// An opening as GTP vertices with colours, for messages and logs: `B D4, W F6`.
pub fn opening_text(start: &Game, opening: &[PlayedMove]) -> String {
    if opening.is_empty() {
        return "none".to_string();
    }
    opening
        .iter()
        .map(|m| {
            let letter = if m.color == Color::Black { "B" } else { "W" };
            format!("{} {}", letter, format_move(start.board(), m.mv))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::search::handicap::fixed_points;

    fn empty(size: usize) -> Game {
        Game::new(size, Rules::chinese()).unwrap()
    }

    #[test]
    fn generated_openings_are_deterministic_and_sensible() {
        let start = empty(9);
        let openings = Openings::Generated { moves: 4, seed: 7 };
        let a = openings.for_pair(1, &start);
        assert_eq!(a, openings.for_pair(1, &start));
        assert_eq!(a.len(), 4);
        let differ = (2..10).any(|k| openings.for_pair(k, &start) != a);
        assert!(differ, "every pair got the same opening");
        let mut game = start.clone();
        for m in &a {
            let Move::Play(p) = m.mv else {
                panic!("a pass in {:?}", a)
            };
            let (c, r) = game.board().coords(p);
            assert!((2..7).contains(&c) && (2..7).contains(&r), "{:?}", a);
            assert!(game
                .board()
                .neighbours(p)
                .iter()
                .all(|&q| game.board().color(q).is_none()));
            assert_eq!(m.color, game.to_move());
            game.play(m.color, m.mv).unwrap();
        }
    }

    #[test]
    fn generated_openings_follow_the_handicap() {
        let mut start = empty(9);
        let points = fixed_points(start.board(), 4).unwrap();
        start.place_handicap(&points).unwrap();
        let opening = Openings::Generated { moves: 3, seed: 1 }.for_pair(2, &start);
        let colors: Vec<Color> = opening.iter().map(|m| m.color).collect();
        assert_eq!(colors, [Color::White, Color::Black, Color::White]);
        // A 2x2 board runs out of points touching no stone after two: a shorter opening.
        let short = Openings::Generated { moves: 10, seed: 1 }.for_pair(1, &empty(2));
        assert_eq!(short.len(), 2);
    }

    #[test]
    fn lines_of_vertices() {
        let start = empty(9);
        let dir = std::env::temp_dir().join(format!("tengen-openings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("book.txt");
        std::fs::write(&file, "# two openings\nE5 C3 g7\n\nd4 f6   # the second\n").unwrap();
        let openings = Openings::load(&file, &start, None).unwrap();
        assert!(openings.describe().starts_with("2 openings from"));
        assert_eq!(
            opening_text(&start, &openings.for_pair(1, &start)),
            "B E5, W C3, B G7"
        );
        assert_eq!(openings.for_pair(2, &start).len(), 2);
        assert_eq!(openings.for_pair(3, &start), openings.for_pair(1, &start));
        let cut = Openings::load(&file, &start, Some(1)).unwrap();
        assert_eq!(cut.for_pair(1, &start).len(), 1);

        for (text, message) in [
            ("E5 E5\n", "line 1: move 2 (white E5) is illegal"),
            ("D4\nE5 Z9\n", "line 2: 'Z9' is not a vertex of a 9x9 board"),
            ("E5 pass\n", "move 2 is a pass"),
            ("# nothing\n", "no openings"),
        ] {
            std::fs::write(&file, text).unwrap();
            let e = Openings::load(&file, &start, None).unwrap_err();
            assert!(e.contains(message), "{}: {}", text, e);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_of_records() {
        let start = empty(9);
        let dir = std::env::temp_dir().join(format!("tengen-openings-sgf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("b.sgf"), "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
        std::fs::write(dir.join("a.sgf"), "(;GM[1]SZ[9];B[dd])").unwrap();
        std::fs::write(dir.join("notes.txt"), "not an opening").unwrap();
        let openings = Openings::load(&dir, &start, None).unwrap();
        assert_eq!(opening_text(&start, &openings.for_pair(1, &start)), "B D6");
        assert_eq!(
            opening_text(&start, &openings.for_pair(2, &start)),
            "B E5, W C7"
        );
        std::fs::write(dir.join("c.sgf"), "(;GM[1]SZ[13];B[dd])").unwrap();
        let e = Openings::load(&dir, &start, None).unwrap_err();
        assert!(e.contains("c.sgf: a 13x13 record for a 9x9 match"), "{}", e);
        std::fs::write(dir.join("c.sgf"), "(;GM[1]SZ[9]HA[2]AB[cg][gc];W[ee])").unwrap();
        let e = Openings::load(&dir, &start, None).unwrap_err();
        assert!(e.contains("not the match's starting position"), "{}", e);
        // The same record opens a match with that handicap.
        std::fs::remove_file(dir.join("a.sgf")).unwrap();
        std::fs::remove_file(dir.join("b.sgf")).unwrap();
        let mut handicap = empty(9);
        handicap
            .place_handicap(&fixed_points(handicap.board(), 2).unwrap())
            .unwrap();
        let openings = Openings::load(&dir, &handicap, None).unwrap();
        assert_eq!(
            opening_text(&handicap, &openings.for_pair(1, &handicap)),
            "W E5"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
