//! The crate's layers as README's map ("How it works") and `src/lib.rs` document them: every
//! `crate::…` path in `src/**/*.rs` (comments aside) must name a room in a lower layer than the
//! file's own room, never one in the same layer or above. A room is a top-level module: a file
//! `src/x.rs` or a folder `src/x/`. Every room of the crate must have a place in the order.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; rooms of one layer do not import each other. `tactics` (the
/// local reading: ladders, capture races, unconditional life) sits between the counting and the
/// judgement, patterns and search that read it.
const LAYERS: &[&[&str]] = &[
    &["board", "files"],
    &["coords", "rules"],
    &["game"],
    &["prejudgement"],
    &["perft", "score"],
    &["tactics"],
    &["dead", "patterns"],
    &["search"],
    &["sgf"],
    &[
        "analysis_engine",
        "bench",
        "gtp",
        "match_play",
        "review",
        "train_patterns",
    ],
];

/// The layer of a room, if it has one.
fn layer(room: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&room))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The room a file of `src/` belongs to; `None` for the library's root (`lib.rs`) and the
/// binary's files (`bin/`), which stand above every room and name them as `tengen::`.
fn room_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next()?.as_os_str().to_string_lossy();
    if first == "bin" {
        return None;
    }
    match first.strip_suffix(".rs") {
        Some("lib") => None,
        Some(stem) => Some(stem.to_string()),
        None => Some(first.into_owned()),
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The rooms that `crate::` paths in `text` name, with their line numbers: `crate::x::…` names
/// `x`, `crate::{x, y::z}` names `x` and `y`. Line comments (doc comments included) are skipped.
fn rooms_named(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect();
    // Joined again so that a brace group spread over lines reads as one.
    let joined = code.join("\n");
    let line_of = |at: usize| joined[..at].matches('\n').count() + 1;
    let mut from = 0;
    while let Some(i) = joined[from..].find("crate::") {
        let at = from + i;
        from = at + "crate::".len();
        if joined[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &joined[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: the first word of each.
            let mut depth = 0;
            let mut item_start = true;
            let mut word = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && is_ident(c) => word.push(c),
                    _ if item_start && !word.is_empty() => {
                        found.push((line_of(at), std::mem::take(&mut word)));
                        item_start = false;
                    }
                    _ => {}
                }
            }
            if !word.is_empty() {
                found.push((line_of(at), word));
            }
        } else {
            let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !word.is_empty() {
                found.push((line_of(at), word));
            }
        }
    }
    found
}

/// Every import of `text`, a file of `room`, that breaks the order.
fn violations(room: &str, text: &str) -> Vec<String> {
    let Some(own) = layer(room) else {
        return vec![format!("room {} has no place in the layers", room)];
    };
    rooms_named(text)
        .into_iter()
        .filter(|(_, named)| named != room)
        .filter_map(|(line, named)| match layer(&named) {
            Some(l) if l < own => None,
            Some(_) => Some(format!(
                "line {}: imports {}, not below {}",
                line, named, room
            )),
            None => Some(format!(
                "line {}: names {}, which has no layer",
                line, named
            )),
        })
        .collect()
}

#[test]
fn modules_import_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut rooms = BTreeSet::new();
    let mut problems = Vec::new();
    for file in &files {
        let Some(room) = room_of(&src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for v in violations(&room, &text) {
            problems.push(format!("{}: {}", file.display(), v));
        }
        rooms.insert(room);
    }
    // The check saw the crate: its bottom, its top and the rooms between.
    for room in [
        "board",
        "game",
        "search",
        "gtp",
        "match_play",
        "prejudgement",
    ] {
        assert!(rooms.contains(room), "no room {} under src/", room);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_reads_paths_and_groups_and_skips_comments() {
    let text = "use crate::board::{Board, Color};\n\
                use crate::{game::Game, rules};\n\
                // crate::gtp in a comment\n\
                /// [`crate::search`] in a doc comment\n\
                fn f() { crate::score::count(); }\n";
    let named: Vec<String> = rooms_named(text).into_iter().map(|(_, r)| r).collect();
    assert_eq!(named, ["board", "game", "rules", "score"]);
    assert!(violations("dead", text).is_empty());
    let upward = violations(
        "score",
        "use crate::search::Player;\nuse crate::score::x;\n",
    );
    assert_eq!(upward, ["line 1: imports search, not below score"]);
    // Rooms of one layer are siblings: neither imports the other.
    assert_eq!(
        violations("perft", "fn f() { crate::score::count(); }"),
        ["line 1: imports score, not below perft"]
    );
    assert_eq!(
        violations("gtp", "use crate::nowhere;"),
        ["line 1: names nowhere, which has no layer"]
    );
    assert_eq!(
        violations("nowhere", ""),
        ["room nowhere has no place in the layers"]
    );
}
