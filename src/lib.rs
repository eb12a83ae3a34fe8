//! tengen: a Go engine that speaks GTP and plays by Monte Carlo tree search under Japanese,
//! Chinese or pre-judgement komi rules.
//!
//! Modules follow the data's path, lower layers never knowing about higher ones:
//! `board` (stones, groups, liberties, hashes) → `coords` (vertices and colours as text) →
//! `rules` (what each ruleset permits and how it counts) → `game` (history, undo, superko,
//! prisoners, phase) → `score` (area and territory counting, seki) → `tactics` (ladders,
//! liberty fights, self-atari, eye shapes, capture races, unconditional life) → `dead` (which
//! stones are dead at the end, from an ownership map) → `patterns` (move weights learned from
//! game records) → `perft` (move-tree counting for verification) → `search` (the player) →
//! `sgf` (game records) → `gtp` (the protocol, and its controller side) → `match_play`
//! (engine-against-engine games).

pub mod bench;
pub mod board;
pub mod coords;
pub mod dead;
pub mod game;
pub mod gtp;
pub mod match_play;
pub mod patterns;
pub mod perft;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
