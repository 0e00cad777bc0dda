//! Differential test against python-chess (PyPI `chess`) on random playouts: FEN, the sorted
//! legal moves and the game status must agree at every position.
//!
//! This test needs `python3` with the `chess` package (`.ci/run` installs it). It fails, with
//! instructions, when they are missing: it never skips.

use crate::common;

use chaturanga_rules::{Game, Position};
use chaturanga_variants::chess::ChessPosition;
use common::oracle::python;
use common::{legal_texts, status_text};
use std::process::Command;

#[test]
fn random_playouts_agree_with_python_chess() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/python_chess_playouts.py"
    );
    let (games, plies) = if cfg!(debug_assertions) {
        ("60", "200")
    } else {
        ("400", "400")
    };
    let output = Command::new(python())
        .args([script, "20261130", games, plies])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 (or set CHATURANGA_PYTHON)",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the python-chess oracle failed (install it with `python3 -m pip install chess==1.11.2`):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("utf-8 output");
    let mut game: Option<Game<ChessPosition>> = None;
    let (mut positions, mut finished) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "G" => game = Some(Game::new(common::position::<ChessPosition>(fields[1]))),
            "P" => {
                let g = game.as_ref().expect("a game has started");
                let p = g.position();
                let context = format!("after {} plies from {}", g.moves().len(), g.start().fen());
                assert_eq!(p.fen(), fields[1], "FEN {context}");
                let expected: Vec<String> =
                    fields[2].split_whitespace().map(str::to_string).collect();
                assert_eq!(legal_texts(p), expected, "legal moves in {}", fields[1]);
                assert_eq!(status_text(g), fields[3], "status in {}", fields[1]);
                positions += 1;
                if fields[3] != "ongoing" {
                    finished += 1;
                }
            }
            "M" => {
                let g = game.as_mut().expect("a game has started");
                g.play_text(fields[1])
                    .unwrap_or_else(|e| panic!("{}: {e}", fields[1]));
            }
            other => panic!("unexpected oracle line {other:?}"),
        }
    }
    assert!(positions > 1000, "only {positions} positions compared");
    assert!(finished > 10, "only {finished} games reached an end");
}
