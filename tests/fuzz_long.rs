//! Long fuzz of the release binary: generated and mutated GTP lines, and mutated SGF files
//! loaded with `loadsgf`, pipelined in batches.
//!
//! Most lines carry a numbered id (`N command`), each number used once, so that every response
//! shows which line it answers: each line that GTP's preprocessing leaves something of must be
//! answered exactly once, in order, with its id (or none when it has none). A batch ends with a
//! `protocol_version` of its own, which also stops any live analysis the batch left running. No
//! answer may be an internal error (a caught panic) and the engine's stderr must show no panic;
//! its resident memory (`VmRSS`) is read after every few batches and must stay bounded. One line
//! in eight is put between snapshots of the game (`printsgf`, `showboard`): when it is refused,
//! or left without an answer, the snapshots must be equal.
//!
//! The lines mix: random bytes, random UTF-8 text and words; every listed command with good,
//! boundary and malformed arguments, whole or damaged; very long tokens and lines; vertices on
//! and off the board; board size changes; play/undo runs; `loadsgf` of the SGF files in
//! gtp-scripts/ and of the engine's own records, damaged (bytes flipped, cut short, nodes
//! repeated, brackets broken, values and properties replaced). Searching commands are kept rare
//! (the engine plays 50 playouts a move) so that a million lines take about a minute.
//!
//! Damaged records also go through `tengen review` (one playout a position), each run ending
//! with exit status 0 and a record that reads back as the same game, or exit status 1 with a
//! message and the output as it was (absent, an older file, the record itself, or a symbolic
//! link's target); never a panic, a signal, a run past its deadline or a temporary file left.
//!
//! `short_run` and `short_review` (CI, a few seconds each) and `million_lines` (ignored) run the
//! same code:
//!
//!     cargo test --release --test fuzz_long -- --ignored --nocapture
//!
//! `TENGEN_FUZZ_SEED` picks another seed for either. Linux only, like `/proc`.
#![cfg(target_os = "linux")]

mod common;

use common::fuzz::{
    expectation, fuzz_commands, id_and_command, is_quit, long_line, mutated, random_bytes,
    random_command, writing_only, ARGS,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tengen::gtp::MAX_LINE;

/// The longest any one response may take: the slowest commands judge dead stones on 25×25.
const DEADLINE: Duration = Duration::from_secs(120);
/// Lines written at once before their answers are read.
const BATCH: usize = 64;
/// Distinct names the mutated SGF files are written under, reused in turn (far more than a batch
/// can load, so no file is replaced before the engine has read it).
const SGF_NAMES: usize = 256;
/// The engine's search-tree budget, MB, and the bound on its resident memory.
const MAX_MEMORY_MB: u64 = 256;
const RSS_BOUND_MB: u64 = 640;

/// Commands that judge dead stones or count move trees: up to a second or two each.
const HEAVY: &[&str] = &[
    "final_score",
    "final_status_list",
    "tengen-ownership",
    "kgs-genmove_cleanup",
    "tengen-perft",
];
/// Commands that search (50 playouts): tens of milliseconds each.
const SEARCHING: &[&str] = &[
    "genmove",
    "reg_genmove",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "tengen-pv",
    "tengen-top_moves",
    "tengen-estimate",
    "tengen-prejudge",
];

const COLORS: &[&str] = &["b", "w", "B", "W", "black", "white", "x", "", "bw", "WHITE"];

/// The most time one review of a damaged record may take (thousands of positions at one
/// playout each), and the most memory.
const REVIEW_DEADLINE: Duration = Duration::from_secs(120);
const REVIEW_BOUND_MB: f64 = 512.0;
/// Reviews run at once: a review of one playout a position mostly waits on its search's clock.
const REVIEW_WORKERS: usize = 2;

/// What the run did, for the report.
#[derive(Default, Debug)]
struct Figures {
    lines: usize,
    answered: usize,
    sgfs: usize,
    sgfs_loaded: usize,
    /// Refused (or unanswered) lines between snapshots, checked to change nothing.
    refusals_guarded: usize,
    searching: usize,
    heavy: usize,
    /// The engine's largest `VmRSS` read, and its `VmHWM` (the kernel's own peak) at the end, kB.
    peak_rss_kb: u64,
    hwm_kb: u64,
    /// `VmRSS` read in the first tenth of the run at its largest, and at the end, kB.
    early_rss_kb: u64,
    last_rss_kb: u64,
    elapsed: Duration,
}

/// A deterministic source of fuzz lines and SGF files.
struct Generator {
    rng: fastrand::Rng,
    commands: Vec<String>,
    /// The board size the generator last set, for moves mostly on the board.
    size: usize,
    /// SGF texts to damage: the repository's files, then the engine's own records as they come.
    corpus: Vec<Vec<u8>>,
    next_id: u64,
}

impl Generator {
    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.rng.usize(..list.len())]
    }

    fn color(&mut self) -> &'static str {
        if self.rng.u8(..10) == 0 {
            self.pick(COLORS)
        } else if self.rng.bool() {
            "b"
        } else {
            "w"
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// A vertex: mostly on the current board, else off it or malformed.
    fn vertex(&mut self) -> String {
        const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let n = self.size;
        match self.rng.u8(..20) {
            0 => self
                .pick(&[
                    "pass",
                    "PASS",
                    "resign",
                    "I5",
                    "i1",
                    "A0",
                    "A-1",
                    "A01",
                    "AA1",
                    "Z26",
                    "a",
                    "1",
                    "",
                    "A1A",
                    "T19T",
                    "天元",
                    "A 1",
                    "%",
                    "A99999999999999999999",
                ])
                .to_string(),
            1 => {
                // Just off the board: one column or one row too far.
                let col = COLUMNS[n.min(COLUMNS.len() - 1)] as char;
                format!("{}{}", col, self.rng.usize(1..=n + 1))
            }
            2 => format!("A{}", n + 1 + self.rng.usize(..30)),
            _ => {
                let col = COLUMNS[self.rng.usize(..n)] as char;
                let v = format!("{}{}", col, self.rng.usize(1..=n));
                if self.rng.bool() {
                    v.to_lowercase()
                } else {
                    v
                }
            }
        }
    }

    fn number(&mut self) -> String {
        self.pick(&[
            "0",
            "1",
            "2",
            "-1",
            "5",
            "30",
            "300",
            "1.5",
            "-0",
            "1e9",
            "1e308",
            "nan",
            "inf",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999",
            "0x10",
            "+3",
            "",
            "x",
        ])
        .to_string()
    }

    fn analysis_args(&mut self) -> String {
        let mut words = Vec::new();
        for _ in 0..self.rng.usize(0..6) {
            let w = match self.rng.u8(..9) {
                0 => self.color().to_string(),
                1 => self.number(),
                2 => format!("interval {}", self.number()),
                3 => format!("minmoves {}", self.number()),
                4 => format!("maxmoves {}", self.number()),
                5 | 6 => {
                    let vs: Vec<String> =
                        (0..self.rng.usize(0..5)).map(|_| self.vertex()).collect();
                    format!(
                        "{} {} {} {}",
                        self.pick(&["avoid", "allow", "AVOID", "avoid_"]),
                        self.color(),
                        vs.join(","),
                        self.number()
                    )
                }
                7 => format!(
                    "ownership {}",
                    self.pick(&["true", "false", "TRUE", "1", ""])
                ),
                _ => self.pick(ARGS).to_string(),
            };
            words.push(w);
        }
        words.join(" ")
    }

    /// One command with arguments chosen for it: good, boundary or malformed.
    fn targeted(&mut self) -> String {
        match self.rng.u8(..24) {
            0 => format!("komi {}", self.number()),
            1 => format!(
                "komi {}",
                self.pick(&["7.5", "-7.5", "0.5", "6,5", "7.5.5", "0.25", "1000000.5"])
            ),
            2 => format!("fixed_handicap {}", self.rng.usize(..12)),
            3 => format!("place_free_handicap {}", self.number()),
            4 => {
                let vs: Vec<String> = (0..self.rng.usize(1..30)).map(|_| self.vertex()).collect();
                format!("set_free_handicap {}", vs.join(" "))
            }
            5 => format!(
                "time_settings {} {} {}",
                self.number(),
                self.number(),
                self.number()
            ),
            6 => format!(
                "time_left {} {} {}",
                self.color(),
                self.number(),
                self.number()
            ),
            7 => {
                let kind = self.pick(&["none", "absolute", "byoyomi", "canadian", "x"]);
                let args: Vec<String> = (0..self.rng.usize(0..4)).map(|_| self.number()).collect();
                format!("kgs-time_settings {} {}", kind, args.join(" "))
            }
            8 => format!(
                "{} {}",
                self.pick(&["kgs-rules", "kata-set-rules", "tengen-rules"]),
                self.pick(&[
                    "japanese",
                    "chinese",
                    "prejudgement",
                    "JAPANESE",
                    "aga",
                    "",
                    "tromp-taylor"
                ])
            ),
            9 => {
                let name = if self.rng.bool() {
                    self.commands[self.rng.usize(..self.commands.len())].clone()
                } else {
                    self.pick(ARGS).to_string()
                };
                format!("known_command {}", name)
            }
            10 => format!(
                "final_status_list {}",
                self.pick(&["alive", "dead", "seki", "x", ""])
            ),
            11 => format!(
                "tengen-perft {}",
                self.pick(&["0", "1", "2", "3", "4", "x"])
            ),
            12 => format!(
                "tengen-prejudgement {} {}",
                self.pick(&["7.5", "-3", "0", "1e9", "x", "B+3", "W+0.5"]),
                self.pick(&["7.5", "-3", "0", "1e9", "x", "B+3", "W+0.5"])
            ),
            13 | 14 => format!(
                "tengen-play {} {} {}",
                self.color(),
                self.vertex(),
                self.pick(&["self", "opponent", "own", ""])
            ),
            15 => format!(
                "{} {}",
                self.pick(&["lz-analyze", "kata-analyze"]),
                self.analysis_args()
            ),
            16 => format!(
                "{} {}",
                self.pick(&["lz-genmove_analyze", "kata-genmove_analyze"]),
                self.analysis_args()
            ),
            17 => format!(
                "{} {}",
                self.pick(&["genmove", "reg_genmove", "kgs-genmove_cleanup"]),
                self.color()
            ),
            18 => format!(
                "{} {}",
                self.pick(&[
                    "tengen-ownership",
                    "tengen-pv",
                    "tengen-top_moves",
                    "tengen-estimate"
                ]),
                self.color()
            ),
            19 => format!(
                "loadsgf {} {}",
                self.pick(&[
                    "/dev/null",
                    "/dev/zero",
                    "/dev/stdin",
                    "/proc/self/status",
                    ".",
                    "/",
                    "missing.sgf",
                    "sgf-0.sgf",
                    "out-0.sgf",
                ]),
                self.number()
            ),
            20 => self
                .pick(&[
                    "showboard",
                    "clear_board",
                    "kata-get-rules",
                    "tengen-rules",
                    "gogui-analyze_commands",
                    "gogui-interrupt",
                    "cputime",
                    "version",
                    "printsgf",
                ])
                .to_string(),
            21 => "undo".to_string(),
            _ => format!("play {} {}", self.color(), self.vertex()),
        }
    }

    /// Text of random characters: ASCII, Latin, CJK, combining marks, controls, emoji.
    fn random_text(&mut self) -> Vec<u8> {
        let n = self.rng.usize(0..40);
        let mut s = String::new();
        for _ in 0..n {
            let c = match self.rng.u8(..6) {
                0 => self.rng.char(' '..='~'),
                1 => self.rng.char('\u{80}'..='\u{7ff}'),
                2 => self.rng.char('\u{800}'..='\u{ffff}'),
                3 => self.rng.char('\u{10000}'..='\u{10ffff}'),
                4 => self
                    .pick(&["\u{301}", "\u{200b}", "\u{feff}", "\u{2028}", "\t"])
                    .chars()
                    .next()
                    .unwrap(),
                _ => self.rng.char('\u{0}'..='\u{1f}'),
            };
            s.push(c);
        }
        s.into_bytes()
    }

    /// A command with one very long token.
    fn long_token(&mut self) -> Vec<u8> {
        let len = *[
            100,
            1_000,
            10_000,
            MAX_LINE - 20,
            MAX_LINE + 1,
            3 * MAX_LINE / 2,
        ]
        .get(self.rng.usize(..6))
        .unwrap();
        let token = match self.rng.u8(..4) {
            0 => "9".repeat(len),
            1 => "A".repeat(len),
            2 => "天".repeat(len / 3 + 1),
            _ => (0..len).map(|_| self.rng.alphanumeric()).collect(),
        };
        let command = self.pick(&[
            "play b",
            "komi",
            "boardsize",
            "known_command",
            "loadsgf",
            "set_free_handicap",
            "tengen-perft",
            "kata-analyze",
            "",
        ]);
        format!("{} {}", command, token).into_bytes()
    }

    fn boardsize(&mut self) -> String {
        match self.rng.u8(..10) {
            0..=3 => {
                self.size = *[9, 13, 19].get(self.rng.usize(..3)).unwrap();
                format!("boardsize {}", self.size)
            }
            4..=6 => {
                self.size = self.rng.usize(2..=25);
                format!("boardsize {}", self.size)
            }
            7 => "clear_board".to_string(),
            _ => format!(
                "boardsize {}",
                self.pick(&[
                    "0",
                    "1",
                    "26",
                    "-9",
                    "9.0",
                    "nine",
                    "",
                    "4294967305",
                    "19 19"
                ])
            ),
        }
    }

    /// A fuzz line of any kind, before the id.
    fn any_line(&mut self) -> Vec<u8> {
        let kind = self.rng.u16(..1000);
        match kind {
            0..=79 => random_bytes(&mut self.rng, 120),
            80..=119 => self.random_text(),
            120..=159 => {
                let words: Vec<String> = (0..self.rng.usize(0..6))
                    .map(|_| {
                        (0..self.rng.usize(1..10))
                            .map(|_| self.rng.alphanumeric())
                            .collect()
                    })
                    .collect();
                words.join(" ").into_bytes()
            }
            160..=399 => random_command(&mut self.rng, &self.commands),
            400..=549 => mutated(&mut self.rng, &self.commands),
            550..=749 => {
                if self.rng.u8(..3) == 0 {
                    "undo".into()
                } else {
                    let (c, v) = (self.color(), self.vertex());
                    format!("play {} {}", c, v).into_bytes()
                }
            }
            750..=779 => self.boardsize().into_bytes(),
            780..=939 => self.targeted().into_bytes(),
            940..=944 => self.long_token(),
            945..=947 => long_line(&mut self.rng, &self.commands),
            _ => self
                .pick(&[
                    "showboard",
                    "name",
                    "list_commands",
                    "kata-get-rules",
                    "printsgf",
                ])
                .into(),
        }
    }

    /// The next fuzz line, searching commands made rare; with an id most of the time.
    fn line(&mut self) -> (Vec<u8>, Cost) {
        loop {
            let mut line = self.any_line();
            let (_, command) = id_and_command(&line);
            let cost = match command.as_deref() {
                Some(c) if HEAVY.contains(&c) => Cost::Heavy,
                Some(c) if SEARCHING.contains(&c) => Cost::Searching,
                _ => Cost::Light,
            };
            let keep = match cost {
                Cost::Heavy => self.rng.u16(..400) == 0,
                Cost::Searching => self.rng.u16(..40) == 0,
                Cost::Light => true,
            };
            if !keep {
                continue;
            }
            line.retain(|&b| b != b'\n');
            if self.rng.u8(..10) != 0 {
                let mut numbered = format!("{} ", self.id()).into_bytes();
                numbered.append(&mut line);
                line = numbered;
            }
            let out = format!("out-{}.sgf", self.rng.u8(..4));
            let line = writing_only(line, &out);
            if is_quit(&line) {
                continue;
            }
            return (line, cost);
        }
    }

    /// A damaged copy of an SGF from the corpus.
    fn sgf(&mut self) -> Vec<u8> {
        let mut text = self.corpus[self.rng.usize(..self.corpus.len())].clone();
        if self.rng.u8(..8) == 0 {
            // Two records spliced.
            let other = &self.corpus[self.rng.usize(..self.corpus.len())];
            let (a, b) = (
                self.rng.usize(..=text.len()),
                self.rng.usize(..=other.len()),
            );
            text.truncate(a);
            text.extend_from_slice(&other[b..]);
        }
        // Mostly one or two kinds of damage, so that many files still load and play on.
        for _ in 0..[1, 1, 1, 2, 2, 3, 4][self.rng.usize(..7)] {
            self.damage(&mut text);
        }
        text
    }

    fn damage(&mut self, text: &mut Vec<u8>) {
        let len = text.len();
        let at = self.rng.usize(..=len);
        match self.rng.u8(..9) {
            0 if len > 0 => {
                let i = self.rng.usize(..len);
                text[i] ^= 1 << self.rng.u8(..8);
            }
            1 => text.truncate(at),
            2 => {
                // A node repeated: a few times, or thousands.
                let starts: Vec<usize> = (0..len).filter(|&i| text[i] == b';').collect();
                if let Some(&s) = starts.get(self.rng.usize(..starts.len().max(1))) {
                    let end = (s + 1..len)
                        .find(|&i| matches!(text[i], b';' | b'(' | b')'))
                        .unwrap_or(len);
                    let node = text[s..end].to_vec();
                    let times = if self.rng.u8(..10) == 0 {
                        self.rng.usize(100..3000)
                    } else {
                        self.rng.usize(1..4)
                    };
                    let copies: Vec<u8> = node
                        .iter()
                        .copied()
                        .cycle()
                        .take(node.len() * times)
                        .collect();
                    text.splice(end..end, copies);
                }
            }
            3 => {
                // A bracket or parenthesis removed, or one added.
                let marks: Vec<usize> = (0..len)
                    .filter(|&i| matches!(text[i], b'[' | b']' | b'(' | b')' | b'\\'))
                    .collect();
                if self.rng.bool() && !marks.is_empty() {
                    text.remove(marks[self.rng.usize(..marks.len())]);
                } else {
                    text.insert(at, *b"[]()\\;".get(self.rng.usize(..6)).unwrap());
                }
            }
            4 => {
                for _ in 0..self.rng.usize(1..8) {
                    let b = self.rng.u8(..);
                    let at = self.rng.usize(..=text.len());
                    text.insert(at, b);
                }
            }
            5 if len > 0 => {
                // A stretch copied elsewhere.
                let a = self.rng.usize(..len);
                let b = (a + self.rng.usize(1..200)).min(len);
                let piece = text[a..b].to_vec();
                let at = self.rng.usize(..=text.len());
                text.splice(at..at, piece);
            }
            6 => {
                // A property value replaced.
                let opens: Vec<usize> = (0..len).filter(|&i| text[i] == b'[').collect();
                if !opens.is_empty() {
                    let s = opens[self.rng.usize(..opens.len())] + 1;
                    let e = (s..len).find(|&i| text[i] == b']').unwrap_or(len);
                    let value = self.pick(&[
                        "", "zz", "tt", "aa:ss", "ss:aa", "99", "0", "-5", "26", "52", "1:1", "a",
                        "ZZ", "é", "\\", "30:30", "1e999", "2:3", "aa:zz", "25",
                    ]);
                    text.splice(s..e, value.bytes());
                }
            }
            7 => {
                // A property put into a node.
                let starts: Vec<usize> = (0..len).filter(|&i| text[i] == b';').collect();
                let at = starts
                    .get(self.rng.usize(..starts.len().max(1)))
                    .map_or(at, |&s| s + 1);
                let property = self.pick(&[
                    "SZ[xx]",
                    "SZ[1]",
                    "SZ[26]",
                    "SZ[25]",
                    "SZ[2]",
                    "SZ[9:13]",
                    "AB[aa:zz]",
                    "AW[aa:ss]",
                    "AE[]",
                    "AE[aa:ss]",
                    "KM[1e999]",
                    "KM[-0]",
                    "RU[x]",
                    "RU[Prejudgement]",
                    "PL[X]",
                    "PL[W]",
                    "HA[400]",
                    "B[]",
                    "W[tt]",
                    "B[zz]",
                    "MN[-1]",
                    "FF[99]",
                    "GM[2]",
                    "CA[latin1]",
                    "C[\\]",
                    "AB[aa][aa][aa]",
                    "TW[aa:ss]",
                    "B[aa]B[bb]",
                    "XX[]",
                ]);
                text.splice(at..at, property.bytes());
            }
            _ => {
                // Nested variations opened and never closed, or closed too often.
                let piece = if self.rng.bool() { "(;" } else { ")" };
                let times = self.rng.usize(1..50);
                let at = self.rng.usize(..=text.len());
                text.splice(at..at, piece.repeat(times).bytes());
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cost {
    Light,
    Searching,
    Heavy,
}

/// What a line sent is due: a response with this id (empty for none), or nothing.
struct Due {
    id: Option<String>,
    role: Role,
    shown: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A fuzz line (`sgf`: the `loadsgf` of a mutated file), `guarded` when snapshots of the game
    /// surround it.
    Line {
        sgf: bool,
        guarded: bool,
    },
    /// `printsgf` or `showboard` just before a guarded line, or just after it.
    Before,
    After,
    /// The batch's closing `protocol_version`.
    Closing,
}

/// The snapshot commands around a guarded line: the whole record (moves, setup, size, komi,
/// rules) and the position with the move number, side to move and prisoners.
const SNAPSHOT: [&str; 2] = ["printsgf", "showboard"];

/// Sends the snapshot commands, before or after a guarded line.
fn snapshot(g: &mut Generator, batch: &mut Vec<u8>, due: &mut Vec<Due>, role: Role, shown: &str) {
    for command in SNAPSHOT {
        let id = g.id();
        batch.extend_from_slice(format!("{} {}\n", id, command).as_bytes());
        due.push(Due {
            id: Some(id.to_string()),
            role,
            shown: shown.to_string(),
        });
    }
}

/// A response without its `=id ` head, for comparing snapshots taken under different ids.
fn strip_id(response: &str) -> String {
    response
        .split_once(' ')
        .map_or(response, |(_, rest)| rest)
        .to_string()
}

/// The repository's SGF files: gtp-scripts/ and any under tests/.
fn seed_corpus() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![root.join("gtp-scripts"), root.join("tests")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() && !p.ends_with("node_modules") {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "sgf") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "SGF files to start from: {:?}", files);
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Reads one response and checks it is the one due; returns whether it was a success, and the
/// response.
fn check(
    responses: &Receiver<String>,
    due: &Due,
    child: &mut std::process::Child,
) -> (bool, String) {
    let r = responses.recv_timeout(DEADLINE).unwrap_or_else(|_| {
        panic!(
            "no answer within {:?} to {:?} (engine status {:?})",
            DEADLINE,
            due.shown,
            child.try_wait()
        )
    });
    let ok = match r.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => panic!("stray output {:?} answering {:?}", r, due.shown),
    };
    let digits = r[1..].bytes().take_while(|b| b.is_ascii_digit()).count();
    let id = &r[1..1 + digits];
    assert_eq!(
        Some(id),
        due.id.as_deref(),
        "answer {:?} to {:?}",
        r.chars().take(200).collect::<String>(),
        due.shown
    );
    assert!(
        !r.contains("internal error"),
        "{:?} answered {:?}",
        due.shown,
        r
    );
    (ok, r)
}

fn fuzz(lines: usize, sgfs: usize) -> Figures {
    let seed = std::env::var("TENGEN_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_201u64);
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("tengen-fuzz-long-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let stderr_path = dir.join("stderr.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "--threads",
            "1",
            "--seed",
            "7",
            "--playouts",
            "50",
            "--size",
            "9",
        ])
        .args(["--max-memory", &MAX_MEMORY_MB.to_string()])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("start tengen");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let responses = common::gtp_responses(child.stdout.take().unwrap());

    writeln!(stdin, "1 list_commands").unwrap();
    stdin.flush().unwrap();
    let listed = responses.recv_timeout(DEADLINE).expect("list_commands");
    let listed: Vec<String> = listed
        .strip_prefix("=1 ")
        .expect("list_commands answered")
        .lines()
        .map(str::to_string)
        .collect();
    let mut g = Generator {
        rng: fastrand::Rng::with_seed(seed),
        commands: fuzz_commands(&listed),
        size: 9,
        corpus: seed_corpus(),
        next_id: 1,
    };

    let mut f = Figures::default();
    let sgf_every = (lines / sgfs.max(1)).max(1);
    let mut batch = Vec::new();
    let mut due: Vec<Due> = Vec::new();
    let mut batches = 0usize;
    let mut n = 0usize;
    while n < lines || f.sgfs < sgfs {
        batch.clear();
        due.clear();
        while due.len() < BATCH && (n < lines || f.sgfs < sgfs) {
            let (line, sgf) = if (n.is_multiple_of(sgf_every) || n >= lines) && f.sgfs < sgfs {
                let name = format!("sgf-{}.sgf", f.sgfs % SGF_NAMES);
                std::fs::write(dir.join(&name), g.sgf()).unwrap();
                f.sgfs += 1;
                let stop = match g.rng.u8(..8) {
                    0 => format!(" {}", g.rng.usize(1..40)),
                    1 => format!(" {}", g.number()),
                    _ => String::new(),
                };
                let id = g.id();
                (
                    format!("{} loadsgf {}{}", id, name, stop).into_bytes(),
                    true,
                )
            } else {
                let (line, cost) = g.line();
                match cost {
                    Cost::Heavy => f.heavy += 1,
                    Cost::Searching => f.searching += 1,
                    Cost::Light => {}
                }
                (line, false)
            };
            n += 1;
            f.lines += 1;
            let shown = String::from_utf8_lossy(&line[..line.len().min(160)]).into_owned();
            // One line in eight between snapshots of the game: refused, it must change nothing.
            let guarded = g.rng.u8(..8) == 0;
            if guarded {
                snapshot(&mut g, &mut batch, &mut due, Role::Before, &shown);
            }
            batch.extend_from_slice(&line);
            batch.push(b'\n');
            if let Some(id) = expectation(&line) {
                due.push(Due {
                    id: Some(id.unwrap_or_default()),
                    role: Role::Line { sgf, guarded },
                    shown: shown.clone(),
                });
            }
            if guarded {
                snapshot(&mut g, &mut batch, &mut due, Role::After, &shown);
            }
        }
        // The batch's own closing command: it stops an analysis left running at the end.
        let id = g.id();
        batch.extend_from_slice(format!("{} protocol_version\n", id).as_bytes());
        due.push(Due {
            id: Some(id.to_string()),
            role: Role::Closing,
            shown: "the batch's protocol_version".to_string(),
        });
        stdin.write_all(&batch).unwrap();
        stdin.flush().unwrap();
        // The snapshots around the guarded line being checked, and its answer's success (none
        // when it has no answer).
        let (mut before, mut after, mut guarded_ok) = (Vec::new(), Vec::new(), None);
        for d in &due {
            let (ok, text) = check(&responses, d, &mut child);
            f.answered += 1;
            match d.role {
                Role::Line { sgf, guarded } => {
                    if sgf && ok {
                        f.sgfs_loaded += 1;
                    }
                    if guarded {
                        guarded_ok = Some(ok);
                    }
                }
                Role::Before => before.push(strip_id(&text)),
                Role::After => {
                    after.push(strip_id(&text));
                    if after.len() == SNAPSHOT.len() {
                        if guarded_ok != Some(true) {
                            f.refusals_guarded += 1;
                            assert!(
                                before == after,
                                "{:?}, answered {}, changed the game:\nbefore:\n{}\nafter:\n{}",
                                d.shown,
                                if guarded_ok.is_some() {
                                    "with an error"
                                } else {
                                    "nothing"
                                },
                                before.join("\n"),
                                after.join("\n")
                            );
                        }
                        (before, after, guarded_ok) = (Vec::new(), Vec::new(), None);
                    }
                }
                Role::Closing => {}
            }
        }
        // The engine's own records join the corpus (the first few, then now and then one).
        if g.corpus.len() < 64 || g.rng.u8(..32) == 0 {
            let out = dir.join(format!("out-{}.sgf", g.rng.u8(..4)));
            if let Ok(text) = std::fs::read(&out) {
                if g.corpus.len() < 64 {
                    g.corpus.push(text);
                } else {
                    let i = g.rng.usize(..g.corpus.len());
                    g.corpus[i] = text;
                }
            }
        }
        batches += 1;
        if batches.is_multiple_of(16) || batches == 1 {
            let kb = common::resident_kb(pid).expect("the engine is running");
            f.peak_rss_kb = f.peak_rss_kb.max(kb);
            if n <= lines / 10 || batches == 1 {
                f.early_rss_kb = f.early_rss_kb.max(kb);
            }
        }
        if batches.is_multiple_of(2000) {
            eprintln!(
                "{} lines, {} SGFs, {:.0} s, RSS {:.1} MB",
                n,
                f.sgfs,
                started.elapsed().as_secs_f64(),
                f.peak_rss_kb as f64 / 1024.0
            );
        }
    }
    f.last_rss_kb = common::resident_kb(pid).expect("the engine is running");
    f.peak_rss_kb = f.peak_rss_kb.max(f.last_rss_kb);
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid)).unwrap();
    f.hwm_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a VmHWM figure");

    writeln!(stdin, "7 quit").unwrap();
    stdin.flush().unwrap();
    assert_eq!(responses.recv_timeout(DEADLINE).unwrap(), "=7 \n");
    let exit = child.wait().unwrap();
    assert!(exit.success(), "exit status {:?}", exit);
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "the engine's stderr:\n{}",
        stderr
    );
    f.elapsed = started.elapsed();
    let _ = std::fs::remove_dir_all(&dir);

    let mb = |kb: u64| kb as f64 / 1024.0;
    println!(
        "seed {}: {} lines ({} searching, {} judging or counting), {} answers checked, \
         {} mutated SGF files ({} loaded), {} refusals checked to change nothing, in {:.0} s; engine RSS peak {:.1} MB \
         (VmHWM {:.1} MB), {:.1} MB in the first tenth at most, {:.1} MB at the end",
        seed,
        f.lines,
        f.searching,
        f.heavy,
        f.answered,
        f.sgfs,
        f.sgfs_loaded,
        f.refusals_guarded,
        f.elapsed.as_secs_f64(),
        mb(f.peak_rss_kb),
        mb(f.hwm_kb),
        mb(f.early_rss_kb),
        mb(f.last_rss_kb)
    );
    assert!(
        f.hwm_kb < RSS_BOUND_MB * 1024,
        "the engine's peak resident memory {:.1} MB",
        mb(f.hwm_kb)
    );
    assert!(
        f.last_rss_kb <= 2 * f.early_rss_kb + 64 * 1024,
        "resident memory grew from {:.1} MB to {:.1} MB",
        mb(f.early_rss_kb),
        mb(f.last_rss_kb)
    );
    f
}

/// Where a fuzzed review writes, and what must be there if it refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Out {
    /// A new file: none may be left on a refusal.
    New,
    /// An older file, replaced on success, kept on a refusal.
    Older,
    /// The record itself.
    Input,
    /// A symbolic link to a file: always refused, the file kept.
    Link,
}

/// What the review runs did, for the report.
#[derive(Default, Debug)]
struct ReviewFigures {
    runs: usize,
    reviewed: usize,
    refused: usize,
    positions: usize,
    elapsed: Duration,
}

/// One review of the damaged record `text` in `dir` (a directory of its own), checked.
fn review_one(dir: &Path, text: &[u8], out: Out, figures: &mut ReviewFigures) {
    let input = dir.join("game.sgf");
    std::fs::write(&input, text).unwrap();
    let older = b"(;SZ[9]C[an older file])".to_vec();
    let kept = dir.join("kept.sgf");
    let target = match out {
        Out::New => dir.join("out.sgf"),
        Out::Older => {
            std::fs::write(dir.join("out.sgf"), &older).unwrap();
            dir.join("out.sgf")
        }
        Out::Input => input.clone(),
        Out::Link => {
            std::fs::write(&kept, &older).unwrap();
            std::os::unix::fs::symlink(&kept, dir.join("out.sgf")).unwrap();
            dir.join("out.sgf")
        }
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_tengen"));
    command
        .arg("review")
        .arg(&input)
        .arg("--out")
        .arg(&target)
        .args(["--playouts", "1", "--threads", "1", "--seed", "1"])
        .args(["--max-memory", "64"]);
    let run = common::run_bounded(&mut command, REVIEW_DEADLINE, REVIEW_BOUND_MB);
    let shown = || String::from_utf8_lossy(&text[..text.len().min(300)]).into_owned();
    assert!(
        !run.stderr.contains("panicked"),
        "{:?} ({:?}): {}",
        shown(),
        out,
        run.stderr
    );
    let rules = tengen::rules::Rules::chinese();
    match run.code {
        Some(0) => {
            assert_ne!(out, Out::Link, "written through a link");
            figures.reviewed += 1;
            let written = std::fs::read(&target).unwrap();
            let written = String::from_utf8_lossy(&written);
            let reviewed = tengen::sgf::load(&written, rules, None)
                .unwrap_or_else(|e| panic!("{:?}: the review does not read back: {}", shown(), e));
            let original = tengen::sgf::load(&String::from_utf8_lossy(text), rules, None)
                .unwrap_or_else(|e| {
                    panic!("{:?}: reviewed, yet refused by loadsgf: {}", shown(), e)
                });
            assert_eq!(
                (reviewed.board(), reviewed.move_number()),
                (original.board(), original.move_number()),
                "{:?}: the review holds another game",
                shown()
            );
            figures.positions += original.move_number() + 1;
        }
        Some(1) => {
            figures.refused += 1;
            assert!(
                run.stderr.contains("tengen review: "),
                "{:?}: {}",
                shown(),
                run.stderr
            );
            match out {
                Out::New => assert!(!target.exists(), "{:?}: written", shown()),
                Out::Older => assert_eq!(std::fs::read(&target).unwrap(), older),
                Out::Input => assert_eq!(std::fs::read(&target).unwrap(), text),
                Out::Link => {
                    assert_eq!(std::fs::read(&kept).unwrap(), older);
                    assert!(std::fs::symlink_metadata(&target)
                        .unwrap()
                        .file_type()
                        .is_symlink());
                }
            }
        }
        _ => panic!(
            "{:?} ({:?}) ended with {:?}: {}",
            shown(),
            out,
            run,
            run.stderr
        ),
    }
    // Nothing but the files put there and the output.
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            ["game.sgf", "out.sgf", "kept.sgf"].contains(&name.as_str()),
            "{:?}: {} left behind",
            shown(),
            name
        );
        std::fs::remove_file(dir.join(&name)).unwrap();
    }
    figures.runs += 1;
}

/// `runs` damaged records through `tengen review`, on [`REVIEW_WORKERS`] threads.
fn fuzz_review(runs: usize) -> ReviewFigures {
    let seed = std::env::var("TENGEN_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_201u64);
    let started = Instant::now();
    let root = std::env::temp_dir().join(format!("tengen-fuzz-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut g = Generator {
        rng: fastrand::Rng::with_seed(seed),
        commands: Vec::new(),
        size: 9,
        corpus: seed_corpus(),
        next_id: 1,
    };
    let jobs: Vec<(Vec<u8>, Out)> = (0..runs)
        .map(|_| {
            let out = match g.rng.u8(..16) {
                0..=8 => Out::New,
                9..=11 => Out::Older,
                12..=14 => Out::Input,
                _ => Out::Link,
            };
            (g.sgf(), out)
        })
        .collect();
    let parts: Vec<ReviewFigures> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..REVIEW_WORKERS)
            .map(|w| {
                let (jobs, root) = (&jobs, &root);
                scope.spawn(move || {
                    let dir = root.join(format!("worker-{}", w));
                    std::fs::create_dir_all(&dir).unwrap();
                    let mut f = ReviewFigures::default();
                    for (text, out) in jobs.iter().skip(w).step_by(REVIEW_WORKERS) {
                        review_one(&dir, text, *out, &mut f);
                    }
                    f
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut f = ReviewFigures::default();
    for p in parts {
        f.runs += p.runs;
        f.reviewed += p.reviewed;
        f.refused += p.refused;
        f.positions += p.positions;
    }
    f.elapsed = started.elapsed();
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "seed {}: {} damaged records through tengen review: {} reviewed ({} positions), {} \
         refused, in {:.0} s",
        seed,
        f.runs,
        f.reviewed,
        f.positions,
        f.refused,
        f.elapsed.as_secs_f64()
    );
    assert_eq!(f.runs, runs);
    f
}

#[test]
fn short_review() {
    let f = fuzz_review(32);
    assert!(f.reviewed > 0 && f.refused > 0, "{:?}", f);
}

#[test]
fn short_run() {
    let f = fuzz(30_000, 300);
    assert!(f.answered > f.lines / 2);
    assert!(f.sgfs_loaded > 0, "no mutated SGF loaded at all");
}

#[test]
#[ignore = "a few minutes: a million lines, ten thousand SGF files, a thousand reviews"]
fn million_lines() {
    let f = fuzz(1_000_000, 10_000);
    assert!(f.sgfs_loaded > 0, "no mutated SGF loaded at all");
    let f = fuzz_review(1_000);
    assert!(f.reviewed > 0 && f.refused > 0, "{:?}", f);
}
