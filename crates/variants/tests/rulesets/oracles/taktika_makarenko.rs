//! Differential tests against `tests/oracles/independent_taktika.py` and
//! `independent_makarenko.py`, second implementations written from the rules files alone (no
//! program knows these games): on seeded random games under every rule option, the FEN and
//! the sorted legal moves must agree at every position. The perft fixtures of both rulesets
//! were cross-checked with the same scripts.
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

use crate::common;

use common::oracle::{Playouts, compare as compare_with};

/// The oracle's random games.
const PLAYOUTS: Playouts = Playouts {
    debug: (4, 60),
    release: (16, 150),
};

/// Compares `variant` under `options` with `script`'s games from `seed`.
fn compare(variant: &str, script: &str, options: &[&str], seed: &str) {
    compare_with(variant, script, &[], options, seed, PLAYOUTS);
}

#[test]
fn taktika_agrees_with_the_independent_implementation() {
    compare("taktika", "independent_taktika.py", &[], "20261130");
}

#[test]
fn taktika_with_captures_agrees_with_the_independent_implementation() {
    compare(
        "taktika",
        "independent_taktika.py",
        &["captures=on"],
        "20261130",
    );
}

#[test]
fn makarenko_agrees_with_the_independent_implementation() {
    compare("makarenko", "independent_makarenko.py", &[], "20261130");
}

#[test]
fn makarenko_tall_king_agrees_with_the_independent_implementation() {
    compare(
        "makarenko",
        "independent_makarenko.py",
        &["tall=king"],
        "20261130",
    );
}

#[test]
fn makarenko_tall_discard_agrees_with_the_independent_implementation() {
    compare(
        "makarenko",
        "independent_makarenko.py",
        &["tall=discard"],
        "20261130",
    );
}

#[test]
fn makarenko_tall_reserve_agrees_with_the_independent_implementation() {
    compare(
        "makarenko",
        "independent_makarenko.py",
        &["tall=reserve"],
        "20261130",
    );
}
