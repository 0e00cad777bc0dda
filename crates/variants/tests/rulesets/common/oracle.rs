//! The differential harness of the `oracle_*` tests: an independent implementation (a Python
//! script of `tests/oracles/`) plays seeded random games and prints them as `G` (start FEN),
//! `P` (FEN and sorted legal moves) and `M` (move) lines; the engine replays them under the
//! same rule options and must agree at every position.

use super::legal_texts;
use chaturanga_rules::{Game, Ruleset, legal_turn_texts};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use std::process::Command;

/// The Python interpreter: `CHATURANGA_PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Runs `tests/oracles/<script>` with `args` and returns its output; fails the test with
/// what to install when Python or the script fails.
pub fn run_script(script: &str, args: &[&str]) -> String {
    let path = format!(
        "{}/../../tests/oracles/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = Command::new(python())
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 and tests/oracles/requirements.txt \
                 (or set CHATURANGA_PYTHON)",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the independent oracle {script} failed (are tests/oracles/requirements.txt \
         installed?):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// How many random games of how many plies the oracle plays.
#[derive(Clone, Copy)]
pub struct Playouts {
    /// Games and plies in a debug build (the quick run).
    pub debug: (u32, u32),
    /// Games and plies in a release build (the test suite's run).
    pub release: (u32, u32),
}

/// Runs `script` with `lead` arguments, then `0 --playouts SEED GAMES PLIES` and `options`
/// (as `--option name=value`), replays its games under the same options, and asks for more
/// than 100 positions compared.
pub fn compare(
    variant: &str,
    script: &str,
    lead: &[&str],
    options: &[&str],
    seed: &str,
    playouts: Playouts,
) {
    let (games, plies) = if cfg!(debug_assertions) {
        playouts.debug
    } else {
        playouts.release
    };
    let (games, plies) = (games.to_string(), plies.to_string());
    let mut args: Vec<&str> = lead.to_vec();
    args.extend(["0", "--playouts", seed, &games, &plies]);
    for o in options {
        args.extend(["--option", o]);
    }
    let lines = run_script(script, &args);
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

/// Replays the oracle's games under the given options.
struct Replay {
    lines: String,
    options: Vec<String>,
}

impl Visitor for Replay {
    type Output = usize;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> usize {
        let options: Vec<&str> = self.options.iter().map(String::as_str).collect();
        let options = super::options::<P>(&options);
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
                    let played = super::played_text(g);
                    let here = format!("{} after {}", info.id, played);
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
