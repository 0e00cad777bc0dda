//! Differential test against `tests/oracles/independent_chex.py`, a second implementation of
//! Chex written from the rules file (no program plays the seed's Chex): on seeded random games
//! from the empty board (placements of every letter, as from a FEN), the FEN and the sorted
//! legal moves must agree at every position. The perft fixtures were cross-checked with the
//! same script.
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

use crate::common;

use common::oracle::{Playouts, compare as compare_with};

/// The oracle's random games.
const PLAYOUTS: Playouts = Playouts {
    debug: (2, 40),
    release: (6, 120),
};

/// Compares `variant` under `options` with `script`'s games from `seed`.
fn compare(variant: &str, script: &str, options: &[&str], seed: &str) {
    compare_with(variant, script, &[], options, seed, PLAYOUTS);
}

#[test]
fn chex_agrees_with_the_independent_implementation() {
    compare("chex", "independent_chex.py", &[], "20261130");
}
