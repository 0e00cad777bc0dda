//! Differential tests against second implementations written from the rules files alone (no
//! other program plays these games): `tests/oracles/independent_progressive.py` and
//! `independent_avalanche.py` (both on python-chess's move generator; Avalanche compared by
//! whole turns, `e2e4;d7d6`, as its rules file lists them). On seeded random games under every rule option, the FEN
//! and the sorted legal moves must agree at every position. The perft fixtures of these
//! rulesets were computed with the same scripts (`--turns` for whole turns).
//!
//! Needs `python3` with python-chess (`tests/oracles/requirements.txt`); fails with
//! instructions when it is missing.

mod common;

use chaturanga_rules::{Game, Position, Ruleset, legal_turn_texts};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use common::legal_texts;
use std::process::Command;

fn python() -> String {
    std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Replays the oracle's games (`G`/`P`/`M` lines) under the given options.
struct Replay {
    lines: String,
    options: Vec<String>,
}

impl Visitor for Replay {
    type Output = usize;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> usize {
        let options: Vec<&str> = self.options.iter().map(String::as_str).collect();
        let options = common::options::<P>(&options);
        let mut game: Option<Game<P>> = None;
        let mut positions = 0;
        for line in self.lines.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields[0] {
                "G" => {
                    let start = P::start_position(&options).unwrap();
                    assert_eq!(start.fen(), fields[1], "{} start position", info.id);
                    game = Some(Game::new(start));
                }
                "P" => {
                    let g = game.as_ref().expect("a game has started");
                    let p = g.position();
                    let played: Vec<String> = g
                        .moves()
                        .iter()
                        .enumerate()
                        .map(|(i, &m)| g.positions()[i].move_text(m))
                        .collect();
                    let here = format!("{} after {}", info.id, played.join(" "));
                    assert_eq!(p.fen(), fields[1], "FEN of {here}");
                    let expected: Vec<String> = fields
                        .get(2)
                        .unwrap_or(&"")
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    // Rulesets that list whole turns (Avalanche) are compared turn by turn.
                    let listed = if p.whole_turns() {
                        legal_turn_texts(p)
                    } else {
                        legal_texts(p)
                    };
                    assert_eq!(listed, expected, "legal moves of {here}");
                    positions += 1;
                }
                "M" => {
                    let g = game.as_mut().expect("a game has started");
                    if g.position().whole_turns() {
                        let parts: Vec<&str> = fields[1].split(';').collect();
                        g.play_turn(&parts, true)
                    } else {
                        g.play_text_through_draws(fields[1]).map(|_| ())
                    }
                    .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, fields[1]));
                }
                other => panic!("unexpected oracle line {other:?}"),
            }
        }
        positions
    }
}

/// Runs `script` for seeded random games under `options` and replays them in the engine.
fn compare(variant: &str, script: &str, options: &[&str], seed: &str) {
    let script = format!(
        "{}/../../tests/oracles/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let (games, plies) = if cfg!(debug_assertions) {
        ("4", "60")
    } else {
        ("16", "150")
    };
    let mut args: Vec<&str> = vec![&script, "0", "--playouts", seed, games, plies];
    for o in options {
        args.extend(["--option", o]);
    }
    let output = Command::new(python())
        .args(&args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 and tests/oracles/requirements.txt (or set CHATURANGA_PYTHON)",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the independent oracle failed (is python-chess installed?):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = String::from_utf8(output.stdout).expect("utf-8 output");
    let replay = Replay {
        lines,
        options: options.iter().map(|o| o.to_string()).collect(),
    };
    let positions = visit(variant, replay).expect("implemented");
    assert!(
        positions > 100,
        "{variant} {options:?}: only {positions} positions compared"
    );
}

#[test]
fn progressive_agrees_with_the_independent_implementation() {
    compare("progressive", "independent_progressive.py", &[], "20261130");
}

#[test]
fn progressive_italian_agrees_with_the_independent_implementation() {
    compare(
        "progressive",
        "independent_progressive.py",
        &["check=italian"],
        "20261201",
    );
}

#[test]
fn avalanche_agrees_with_the_independent_implementation() {
    compare("avalanche", "independent_avalanche.py", &[], "20261130");
}

#[test]
fn avalanche_single_step_agrees_with_the_independent_implementation() {
    compare(
        "avalanche",
        "independent_avalanche.py",
        &["push=single-step"],
        "20261202",
    );
}

#[test]
fn avalanche_self_check_illegal_agrees_with_the_independent_implementation() {
    compare(
        "avalanche",
        "independent_avalanche.py",
        &["self-check-push=illegal"],
        "20261203",
    );
}

#[test]
fn avalanche_balanced_agrees_with_the_independent_implementation() {
    compare(
        "avalanche",
        "independent_avalanche.py",
        &["balanced=on"],
        "20261204",
    );
}
