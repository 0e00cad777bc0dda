//! Differential test against `tests/oracles/independent_perft.py`, a second implementation of
//! Double Chess, Omega Chess, Big Outer Chess and Renaissance Chess written from the rules
//! files alone: on seeded random games, the FEN and the sorted legal moves must agree at every
//! position. (No library knows these rulesets; their perft fixtures come from the same script.)
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

use crate::common;

use common::oracle::{Playouts, compare as compare_in};

/// The oracle's random games.
const PLAYOUTS: Playouts = Playouts {
    debug: (6, 60),
    release: (30, 120),
};

fn compare(variant: &str) {
    compare_with(variant, "independent_perft.py", &[variant], &[]);
}

/// Runs `script` with `lead` arguments and `options`, and replays its games.
fn compare_with(variant: &str, script: &str, lead: &[&str], options: &[&str]) {
    compare_in(variant, script, lead, options, "20261130", PLAYOUTS);
}

#[test]
fn doublechess_agrees_with_the_independent_implementation() {
    compare("doublechess");
}

#[test]
fn omega_agrees_with_the_independent_implementation() {
    compare("omega");
}

#[test]
fn outer_agrees_with_the_independent_implementation() {
    compare("outer");
}

#[test]
fn renaissance_agrees_with_the_independent_implementation() {
    compare("renaissance");
}

#[test]
fn congo_agrees_with_the_independent_implementation() {
    compare_with("congo", "independent_congo.py", &[], &[]);
}

#[test]
fn congo_with_the_lion_castle_agrees_with_the_independent_implementation() {
    compare_with("congo", "independent_congo.py", &[], &["lion-castle=on"]);
}
