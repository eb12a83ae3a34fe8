//! tengen: a Go engine that speaks GTP and plays by Monte Carlo tree search under Japanese,
//! Chinese or pre-judgement komi rules.
//!
//! Modules follow the data's path, lower layers never knowing about higher ones (from the
//! bottom; rooms joined by `·` share a layer and do not import each other; `tests/layers.rs`
//! checks every `crate::` path against this order):
//! `board` (stones, groups, liberties, hashes) · `files` (files read within bounds, written
//! beside and renamed) → `coords` (vertices and colours as text) · `rules` (what each ruleset
//! permits and how it counts) → `game` (history, undo, superko, prisoners, phase) → `prejudgement` (pre-judgement komi: the predictions, their threshold and
//! its komi, the record's line) → `perft` (move-tree counting for verification) · `score` (area
//! and territory counting, seki) → `tactics` (ladders, liberty fights, self-atari, eye shapes,
//! capture races, unconditional life) → `dead` (which stones are dead at the end, from an
//! ownership map) · `patterns` (move weights learned from game records, as the engine reads
//! them) → `search` (the player) → `sgf` (game records) → the tools at the top: `gtp` (the
//! protocol, engine side) · `analysis_engine` (KataGo's JSON analysis protocol over the same
//! search) · `match_play` (engine-against-engine games, with the controller side
//! of GTP) · `review` (a game record annotated by the search) · `train_patterns` (fitting the
//! pattern weights to game records) · `bench` (playout and search speed).

pub mod analysis_engine;
pub mod bench;
pub mod board;
pub mod coords;
pub mod dead;
pub mod files;
pub mod game;
pub mod gtp;
pub mod match_play;
pub mod patterns;
pub mod perft;
pub mod prejudgement;
pub mod review;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
pub mod train_patterns;
