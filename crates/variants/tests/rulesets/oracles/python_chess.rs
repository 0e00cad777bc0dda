//! Differential test against python-chess (PyPI `chess`) on random playouts: FEN, the sorted
//! legal moves and the game status must agree at every position; in chess and in Chess960
//! (`chess960=on` against python-chess's chess960 mode), where perft is compared too.
//!
//! This test needs `python3` with the `chess` package (`.ci/run` installs it). It fails, with
//! instructions, when they are missing: it never skips.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset, perft};
use chaturanga_variants::chess::ChessPosition;
use common::oracle::{python, run_script};
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
    let (positions, finished) = replay(&text, &[]);
    assert!(positions > 1000, "only {positions} positions compared");
    assert!(finished > 10, "only {finished} games reached an end");
}

/// Replays the oracle's games under rule options `items`, comparing every position; returns
/// how many positions were compared and how many games ended.
fn replay(text: &str, items: &[&str]) -> (usize, usize) {
    let options = common::options::<ChessPosition>(items);
    let mut game: Option<Game<ChessPosition>> = None;
    let (mut positions, mut finished) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "G" => {
                let start = ChessPosition::from_fen_with(&options, fields[1])
                    .unwrap_or_else(|e| panic!("{}: {e}", fields[1]));
                game = Some(Game::new(start));
            }
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
    (positions, finished)
}

/// Chess960 games from random arrays of the 960 and from positions whose castling needs
/// care (king or rook already on its castled file, two rooks on one wing, Shredder-FEN
/// rights): FENs in X-FEN, castling as the king taking its rook.
#[test]
fn chess960_playouts_agree_with_python_chess() {
    let (games, plies) = if cfg!(debug_assertions) {
        ("45", "150")
    } else {
        ("360", "400")
    };
    let text = run_script(
        "python_chess_playouts.py",
        &["20261204", games, plies, "chess960"],
    );
    let (positions, finished) = replay(&text, &["chess960=on"]);
    assert!(positions > 1000, "only {positions} positions compared");
    assert!(finished > 10, "only {finished} games reached an end");
    // Castling was played: a king's move onto its own rook.
    let mut castlings = 0;
    let mut board = "";
    for line in text.lines() {
        if let Some(fields) = line.strip_prefix("P\t") {
            board = fields.split(' ').next().unwrap_or("");
        } else if let Some(mv) = line.strip_prefix("M\t") {
            let piece_on = |cell: &[u8]| -> Option<char> {
                let row = board
                    .split('/')
                    .nth(usize::from(b'8'.checked_sub(cell[1])?))?;
                let mut x = 0;
                for c in row.chars() {
                    match c.to_digit(10) {
                        Some(n) => x += n as u8,
                        None if x == cell[0] - b'a' => return Some(c),
                        None => x += 1,
                    }
                }
                None
            };
            let cells = mv.as_bytes();
            if cells.len() == 4 {
                let (from, to) = (piece_on(&cells[..2]), piece_on(&cells[2..]));
                if matches!((from, to), (Some('K'), Some('R')) | (Some('k'), Some('r'))) {
                    castlings += 1;
                }
            }
        }
    }
    assert!(castlings > 20, "only {castlings} castlings played");
}

/// Perft of Chess960 positions against python-chess's: the positions of the playouts whose
/// castling needs care and seeded random start arrays, to depth 3 (4 for the first few).
#[test]
fn chess960_perft_agrees_with_python_chess() {
    let options = common::options::<ChessPosition>(&["chess960=on"]);
    let fens = [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
        "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
        "1r2kr2/8/8/8/8/8/8/1R2KR2 w FBfb - 0 1",
        "rr2k3/8/8/8/8/8/8/RR2K1R1 w GBb - 0 1",
        "1k6/8/8/8/8/8/8/RK4r1 w A - 0 1",
        "4k3/8/8/8/8/8/8/rR2K2R w KQ - 0 1",
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    ];
    let mut compared = 0;
    for (depth, args) in [("4", &fens[..4]), ("3", &fens[4..])] {
        let mut arguments = vec![depth, "--random", "960", "6"];
        arguments.extend(args.iter().copied());
        let text = run_script("python_chess_perft.py", &arguments);
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, depth, nodes] = fields[..] else {
                panic!("unexpected oracle line {line:?}");
            };
            let position = ChessPosition::from_fen_with(&options, fen)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            let depth: u32 = depth.parse().unwrap();
            assert_eq!(
                perft(&position, depth).to_string(),
                nodes,
                "perft {depth} of {fen}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} counts compared");
}
