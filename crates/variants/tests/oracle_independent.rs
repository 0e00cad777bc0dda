//! Differential test against `tests/oracles/independent_perft.py`, a second implementation of
//! Double Chess, Omega Chess, Big Outer Chess and Renaissance Chess written from the rules
//! files alone: on seeded random games, the FEN and the sorted legal moves must agree at every
//! position. (No library knows these rulesets; their perft fixtures come from the same script.)
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

mod common;

use chaturanga_rules::{Game, Ruleset};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use common::legal_texts;
use std::process::Command;

fn python() -> String {
    std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

struct Replay(String, Vec<String>);

impl Visitor for Replay {
    type Output = usize;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> usize {
        let mut game: Option<Game<P>> = None;
        let mut positions = 0;
        for line in self.0.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields[0] {
                "G" => {
                    let options: Vec<&str> = self.1.iter().map(String::as_str).collect();
                    let start = P::start_position(&common::options::<P>(&options)).unwrap();
                    assert_eq!(start.fen(), fields[1], "{} start position", info.id);
                    game = Some(Game::new(start));
                }
                "P" => {
                    let g = game.as_ref().expect("a game has started");
                    let p = g.position();
                    let moves: Vec<String> = g
                        .moves()
                        .iter()
                        .enumerate()
                        .map(|(i, &m)| g.positions()[i].move_text(m))
                        .collect();
                    assert_eq!(
                        p.fen(),
                        fields[1],
                        "{} FEN after {}",
                        info.id,
                        moves.join(" ")
                    );
                    let expected: Vec<String> = fields
                        .get(2)
                        .unwrap_or(&"")
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    assert_eq!(
                        legal_texts(p),
                        expected,
                        "{} legal moves in {}",
                        info.id,
                        fields[1]
                    );
                    positions += 1;
                }
                "M" => {
                    let g = game.as_mut().expect("a game has started");
                    g.play_text_through_draws(fields[1])
                        .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, fields[1]));
                }
                other => panic!("unexpected oracle line {other:?}"),
            }
        }
        positions
    }
}

fn compare(variant: &str) {
    compare_with(variant, "independent_perft.py", &[variant], &[]);
}

/// Runs `script` with `lead` arguments, then `0 --playouts ...` and `options` (as
/// `--option name=value`), and replays its games in our engine under the same options.
fn compare_with(variant: &str, script: &str, lead: &[&str], options: &[&str]) {
    let script = format!(
        "{}/../../tests/oracles/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let (games, plies) = if cfg!(debug_assertions) {
        ("6", "60")
    } else {
        ("30", "120")
    };
    let mut args: Vec<&str> = vec![&script];
    args.extend(lead);
    args.extend(["0", "--playouts", "20261130", games, plies]);
    for o in options {
        args.extend(["--option", o]);
    }
    let output = Command::new(python())
        .args(&args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 (or set CHATURANGA_PYTHON)",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the independent oracle failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("utf-8 output");
    let positions = visit(
        variant,
        Replay(text, options.iter().map(|o| o.to_string()).collect()),
    )
    .expect("implemented");
    assert!(
        positions > 100,
        "{variant}: only {positions} positions compared"
    );
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
