//! The engine's integration tests, one binary: searches in every ruleset, mates, hidden
//! information, several players, several principal variations.

mod common;
mod every_ruleset;
mod hidden;
mod hidden_chex;
mod mates;
mod multiplayer;
mod multipv;
