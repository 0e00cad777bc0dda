//! Differential test against `tests/oracles/independent_chex.py`, a second implementation of
//! Chex written from the rules file (no program plays the seed's Chex): on seeded random games
//! from the empty board (placements of every letter, as from a FEN), the FEN and the sorted
//! legal moves must agree at every position. The perft fixtures were cross-checked with the
//! same script.
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
                    assert_eq!(legal_texts(p), expected, "legal moves of {here}");
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

/// Runs `script` for seeded random games under `options` and replays them in the engine.
fn compare(variant: &str, script: &str, options: &[&str], seed: &str) {
    let script = format!(
        "{}/../../tests/oracles/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let (games, plies) = if cfg!(debug_assertions) {
        ("2", "40")
    } else {
        ("6", "120")
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
                "cannot run {}: {e}; install Python 3 (or set CHATURANGA_PYTHON)",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the independent oracle failed:\n{}",
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
fn chex_agrees_with_the_independent_implementation() {
    compare("chex", "independent_chex.py", &[], "20261130");
}
