//! Reading the records: a game reduced to its start position and moves, from an SGF record or
//! a line of the TYGEM dataset; a directory of records or TYGEM files read into a corpus; the
//! fixed hash of a game's name, which splits games into training and held-out sets.

use crate::board::{Board, Color, Move, Point};
use crate::game::PlayedMove;
use crate::rules::Rules;
use crate::sgf;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// A game record reduced to what training needs: the start position and the moves.
#[derive(Clone, Debug)]
pub struct TrainingGame {
    pub name: String,
    /// Board side, a valid one (the readers check it).
    pub size: usize,
    /// Handicap and setup stones of the start position.
    pub setup: Vec<(Point, Color)>,
    pub moves: Vec<PlayedMove>,
}

impl TrainingGame {
    /// The start position.
    pub fn start(&self) -> Board {
        let mut b = Board::new(self.size).unwrap_or_else(|| unreachable!("a checked size"));
        for &(p, c) in &self.setup {
            b.set_stone(p, c);
        }
        b
    }
}

/// The position before each move of `game`, with that move and its index; stops at a move the
/// board refuses.
pub fn for_each_position(game: &TrainingGame, mut f: impl FnMut(usize, &Board, Color, Move)) {
    let mut board = game.start();
    for (i, m) in game.moves.iter().enumerate() {
        match m.mv {
            Move::Pass => {
                f(i, &board, m.color, m.mv);
                board.pass();
            }
            Move::Play(p) => {
                if !board.is_legal(p, m.color) {
                    return;
                }
                f(i, &board, m.color, m.mv);
                board.play(p, m.color);
            }
        }
    }
}

/// Reads one record: its start position (setup and handicap stones) and main-line moves.
pub fn game_from_sgf(name: &str, text: &str) -> Result<TrainingGame, sgf::SgfError> {
    let full = sgf::load(text, Rules::japanese(), None)?;
    let start = sgf::load(text, Rules::japanese(), Some(1))?;
    let b = start.board();
    Ok(TrainingGame {
        name: name.to_string(),
        size: b.size(),
        setup: b
            .points()
            .filter_map(|p| b.color(p).map(|c| (p, c)))
            .collect(),
        moves: full.moves().collect(),
    })
}

/// A piece of a refused line, quoted printably for a message.
fn quoted(s: &str) -> String {
    format!("'{}'", crate::sgf::printable(s, 24))
}

/// Reads one line of the TYGEM 9-dan dataset (`TYGEM/Kifu/YYYY-MM` in the repository, unzipped):
/// the game's id (digits), a tab, then the moves as SGF nodes, `;B[pd];W[dp];…`, Black first and
/// alternating; `B[]` (or `B[tt]`) is a pass. The games are even 19×19 games between 9-dan
/// players with no setup, handicap, comments or result in the line (the dataset's index has
/// players and results). A line that is not such a game, or holds an illegal move, is refused
/// with the reason.
pub fn game_from_tygem_line(line: &str) -> Result<TrainingGame, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (id, record) = line
        .split_once('\t')
        .ok_or_else(|| "no tab between the game id and the moves".to_string())?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!("bad game id {}", quoted(id)));
    }
    let record = record.trim_end();
    let nodes = record
        .strip_prefix(';')
        .ok_or_else(|| format!("game {}: the moves do not start with ';'", id))?;
    if nodes.is_empty() {
        return Err(format!("game {}: no moves", id));
    }
    let mut board = Board::new(19).unwrap_or_else(|| unreachable!("19 is a board size"));
    let mut moves = Vec::new();
    let mut to_move = Color::Black;
    for (i, node) in nodes.split(';').enumerate() {
        let bad = |why: &str| format!("game {}: move {} {}: {}", id, i + 1, quoted(node), why);
        let color = match node.as_bytes().first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => return Err(bad("not B[..] or W[..]")),
        };
        if color != to_move {
            return Err(bad("out of turn"));
        }
        // The first byte is ASCII, so byte 1 starts a character.
        let coords = node[1..]
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .ok_or_else(|| bad("not B[..] or W[..]"))?;
        let mv = match coords.as_bytes() {
            [] | b"tt" => Move::Pass,
            &[x, y] if (b'a'..=b's').contains(&x) && (b'a'..=b's').contains(&y) => {
                Move::Play(board.point((x - b'a') as usize, (y - b'a') as usize))
            }
            _ => return Err(bad("not a point of the 19×19 board")),
        };
        match mv {
            Move::Play(p) => {
                if !board.is_legal(p, color) {
                    return Err(bad("illegal move"));
                }
                board.play(p, color);
            }
            Move::Pass => board.pass(),
        }
        moves.push(PlayedMove { color, mv });
        to_move = color.opponent();
    }
    Ok(TrainingGame {
        name: id.to_string(),
        size: 19,
        setup: Vec::new(),
        moves,
    })
}

/// Games read, and the records or lines refused with their reasons.
pub struct Corpus {
    pub games: Vec<TrainingGame>,
    /// Files (or `file:line`s) refused, with the reason.
    pub skipped: Vec<(String, String)>,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// The records of a directory: files ending in `.sgf` or `.mgt`, in name order.
pub fn read_corpus(dir: &Path) -> Result<Corpus, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {}", dir.display(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| x.eq_ignore_ascii_case("sgf") || x.eq_ignore_ascii_case("mgt"))
        })
        .collect();
    paths.sort();
    let mut corpus = Corpus {
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for path in paths {
        let name = file_name(&path);
        // As `loadsgf` reads a record: a regular file of a record's size.
        let text = match crate::sgf::read_file(&path) {
            Ok(text) => text,
            Err(e) => {
                corpus.skipped.push((name, e));
                continue;
            }
        };
        match game_from_sgf(&name, &text) {
            Ok(g) => corpus.games.push(g),
            Err(e) => corpus.skipped.push((name, e.0)),
        }
    }
    Ok(corpus)
}

/// The TYGEM files named: each path a file, or a directory whose regular files (not hidden, not
/// `.zip`) are read in name order.
fn tygem_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
        let mut inside: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = file_name(p);
                p.is_file()
                    && !name.starts_with('.')
                    && !name.to_ascii_lowercase().ends_with(".zip")
            })
            .collect();
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// Reads TYGEM files (see [`game_from_tygem_line`]); empty lines are passed over.
pub fn read_tygem(paths: &[PathBuf]) -> Result<Corpus, String> {
    let files = tygem_files(paths)?;
    let parts: Vec<Result<Corpus, String>> = files
        .par_iter()
        .map(|path| {
            // Any size (a month of games is one file), but only a regular file: a pipe or a
            // device named here would block or never end.
            let bytes =
                crate::files::read(path, u64::MAX).map_err(|e| format!("cannot read {}", e))?;
            let text = String::from_utf8_lossy(&bytes);
            let mut part = Corpus {
                games: Vec::new(),
                skipped: Vec::new(),
            };
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match game_from_tygem_line(line) {
                    Ok(g) => part.games.push(g),
                    Err(e) => part
                        .skipped
                        .push((format!("{}:{}", path.display(), i + 1), e)),
                }
            }
            Ok(part)
        })
        .collect();
    let mut corpus = Corpus {
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for part in parts {
        let part = part?;
        corpus.games.extend(part.games);
        corpus.skipped.extend(part.skipped);
    }
    Ok(corpus)
}

/// A fixed hash of a game's name: which side of the split it falls on, and where its sampled
/// positions start.
pub fn game_hash(name: &str) -> u64 {
    // FNV-1a, then a SplitMix64 finaliser to spread the bits.
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Splits games by the hash of their names: a game is held out when its hash is a multiple of
/// `hold_out_every`. Each side is ordered by hash (a sample spread evenly over the files) and cut
/// to `max_training` and `max_held_out` games.
pub fn split_by_hash(
    games: Vec<TrainingGame>,
    hold_out_every: usize,
    max_training: usize,
    max_held_out: usize,
) -> (Vec<TrainingGame>, Vec<TrainingGame>) {
    let every = hold_out_every.max(1) as u64;
    let mut keyed: Vec<(u64, usize, TrainingGame)> = games
        .into_iter()
        .enumerate()
        .map(|(i, g)| (game_hash(&g.name), i, g))
        .collect();
    keyed.sort_by_key(|&(h, i, _)| (h, i));
    let (mut training, mut held_out) = (Vec::new(), Vec::new());
    for (h, _, g) in keyed {
        if h.is_multiple_of(every) {
            if held_out.len() < max_held_out {
                held_out.push(g);
            }
        } else if training.len() < max_training {
            training.push(g);
        }
    }
    (training, held_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three real lines of the TYGEM dataset (2009-01, cut after their first moves), one with
    /// a pass.
    const TYGEM_LINES: &str = "85301567\t;B[qd];W[dd];B[pq];W[dq];B[fc];W[cf];B[jd]\n\
        85301571\t;B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[dr]\r\n\
        82295089\t;B[pd];W[dp];B[pq];W[dc];B[de];W[];B[cf]\n";

    #[test]
    fn tygem_lines_are_read_as_games() {
        let games: Vec<TrainingGame> = TYGEM_LINES
            .lines()
            .map(|l| game_from_tygem_line(l).unwrap())
            .collect();
        assert_eq!(games[0].name, "85301567");
        assert_eq!(games[1].name, "85301571");
        assert_eq!(games[0].size, 19);
        assert!(games[0].setup.is_empty());
        assert_eq!(games[0].moves.len(), 7);
        let b = games[0].start();
        // qd: column q (16), row d (3); Black first, then alternating.
        assert_eq!(
            games[0].moves[0],
            PlayedMove {
                color: Color::Black,
                mv: Move::Play(b.point(16, 3))
            }
        );
        assert_eq!(games[0].moves[1].color, Color::White);
        assert_eq!(games[2].moves[5].mv, Move::Pass);
        assert_eq!(games[2].moves[6].color, Color::Black);
        // Every move replays as a position.
        let mut n = 0;
        for_each_position(&games[2], |_, _, _, _| n += 1);
        assert_eq!(n, 7);
        // The split is by the id's hash, the same whatever the order read.
        let (t, h) = split_by_hash(games.clone(), 2, 10, 10);
        let mut reversed = games;
        reversed.reverse();
        let (t2, h2) = split_by_hash(reversed, 2, 10, 10);
        let names = |v: &[TrainingGame]| v.iter().map(|g| g.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&t), names(&t2));
        assert_eq!(names(&h), names(&h2));
        assert_eq!(t.len() + h.len(), 3);
    }

    #[test]
    fn malformed_tygem_lines_are_refused_with_a_reason() {
        for (line, reason) in [
            ("", "no tab"),
            ("85301567 ;B[qd];W[dd]", "no tab"),
            ("\t;B[qd];W[dd]", "bad game id"),
            ("85 301567\t;B[qd]", "bad game id"),
            ("85301567\tB[qd];W[dd]", "do not start"),
            ("85301567\t;", "no moves"),
            ("85301567\t;W[qd];B[dd]", "out of turn"),
            ("85301567\t;B[qd];B[dd]", "out of turn"),
            ("85301567\t;B[qd];W[zz]", "not a point"),
            ("85301567\t;B[qd];W[q]", "not a point"),
            ("85301567\t;B[qd];W[dd", "not B[..] or W[..]"),
            ("85301567\t;B[qd];;W[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];W[qd]", "illegal move"),
            ("85301567\t;B[qd];AB[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];Wé[dd]", "not B[..] or W[..]"),
            ("85301567\t;B[qd];é", "not B[..] or W[..]"),
            ("\u{1b}[31m\t;B[qd]", "bad game id"),
        ] {
            let e = game_from_tygem_line(line).unwrap_err();
            assert!(e.contains(reason), "{:?}: {}", line, e);
        }
        // A refused line inside a file is counted, not fatal.
        let dir = std::env::temp_dir().join(format!("tengen-tygem-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("2009-01"),
            format!("{}garbage\n\n85301999\t;B[qd];W[qd]\n", TYGEM_LINES),
        )
        .unwrap();
        std::fs::write(dir.join("2009-01.zip"), "not read").unwrap();
        let corpus = read_tygem(std::slice::from_ref(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(corpus.games.len(), 3);
        assert_eq!(corpus.skipped.len(), 2);
        assert!(
            corpus.skipped[0].0.ends_with("2009-01:4"),
            "{:?}",
            corpus.skipped
        );
    }
}
