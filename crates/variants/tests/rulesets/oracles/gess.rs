//! Differential test against `tests/oracles/independent_gess.py`, a second implementation of
//! Gess written from the rules file (no program knows the seed's rules): on seeded random games
//! (the script prefers moves after which the game goes on, or random Gess ends within a few
//! plies) under both `movement` settings, the FEN and the sorted legal moves must agree at
//! every position. The perft fixtures were cross-checked with the same script.
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
fn gess_agrees_with_the_independent_implementation() {
    compare("gess", "independent_gess.py", &[], "20261130");
}

#[test]
fn standard_gess_agrees_with_the_independent_implementation() {
    compare(
        "gess",
        "independent_gess.py",
        &["movement=standard"],
        "20261130",
    );
}
