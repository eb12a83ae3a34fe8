//! The search: playout policies now; the tree, its workers and time control build on them.

pub mod playout;
