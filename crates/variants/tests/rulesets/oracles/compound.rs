//! Differential tests against second implementations written from the rules files alone (no
//! other program plays these games): `tests/oracles/independent_progressive.py` and
//! `independent_avalanche.py` (both on python-chess's move generator; Avalanche compared by
//! whole turns, `e2e4;d7d6`, as its rules file lists them), and `independent_darkchess.py`
//! (the true position and both players' views; two views are also checked against
//! Fairy-Stockfish's `get_fog_fen`, as the rules file's scenarios were). On seeded random games under every rule option, the FEN
//! and the sorted legal moves must agree at every position. The perft fixtures of these
//! rulesets were computed with the same scripts (`--turns` for whole turns).
//!
//! Needs `python3` with python-chess (`tests/oracles/requirements.txt`); fails with
//! instructions when it is missing.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset};
use common::legal_texts;
use common::oracle::{Playouts, compare as compare_with, run_script};

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

/// Dark Chess: at every position of the oracle's games, the true FEN, the sorted moves and
/// both players' views (fog FENs) must agree.
#[test]
fn darkchess_and_its_views_agree_with_the_independent_implementation() {
    use chaturanga_variants::darkchess::DarkChessPosition;
    let (games, plies) = if cfg!(debug_assertions) {
        PLAYOUTS.debug
    } else {
        PLAYOUTS.release
    };
    let (games, plies) = (games.to_string(), plies.to_string());
    let text = run_script(
        "independent_darkchess.py",
        &["0", "--playouts", "20261130", &games, &plies],
    );
    let options = common::options::<DarkChessPosition>(&[]);
    let mut game: Option<Game<DarkChessPosition>> = None;
    let (mut positions, mut seen_fog) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "G" => {
                let start = DarkChessPosition::start_position(&options).unwrap();
                assert_eq!(start.fen(), fields[1]);
                game = Some(Game::new(start));
            }
            "P" => {
                let p = game.as_ref().expect("a game has started").position();
                assert_eq!(p.fen(), fields[1]);
                let expected: Vec<&str> = fields[2].split_whitespace().collect();
                assert_eq!(legal_texts(p), expected, "moves in {}", fields[1]);
                assert_eq!(p.view(0).fen, fields[3], "White's view of {}", fields[1]);
                assert_eq!(p.view(1).fen, fields[4], "Black's view of {}", fields[1]);
                seen_fog += usize::from(fields[3].contains('*'));
                positions += 1;
            }
            "M" => {
                let g = game.as_mut().expect("a game has started");
                g.play_text_through_draws(fields[1])
                    .unwrap_or_else(|e| panic!("{}: {e}", fields[1]));
            }
            other => panic!("unexpected oracle line {other:?}"),
        }
    }
    assert!(positions > 100, "only {positions} positions compared");
    assert!(seen_fog > 100);
}

/// The two scenario views the rules file marks "checked with Fairy-Stockfish": its
/// `get_fog_fen` (the view of the side to move) gives the same cells.
#[test]
fn darkchess_views_agree_with_fairy_stockfish_where_the_rules_file_says_so() {
    use chaturanga_variants::darkchess::DarkChessPosition;
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/4n3/4P3/8/8/K7 w - - 0 1",
    ];
    let program =
        format!("import pyffish as sf\nfor f in {fens:?}:\n    print(sf.get_fog_fen(f, 'chess'))");
    let output = std::process::Command::new(common::oracle::python())
        .args(["-c", &program])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", common::oracle::python()));
    assert!(
        output.status.success(),
        "pyffish failed (install tests/oracles/requirements.txt):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("utf-8 output");
    let theirs: Vec<&str> = text.lines().collect();
    assert_eq!(theirs.len(), fens.len());
    for (fen, fog) in fens.iter().zip(theirs) {
        // The board field: Fairy-Stockfish writes every castling right, where the rules
        // file shows a player only his own.
        let p = common::position::<DarkChessPosition>(fen);
        let ours = p.view(0).fen;
        assert_eq!(ours.split(' ').next(), fog.split(' ').next(), "{fen}");
    }
}
