//! One bughouse board against pyffish (Fairy-Stockfish 0.0.90, variant `bughouse`) on random
//! positions with pockets: at every position of random playouts the FEN and the sorted legal
//! moves must agree, and pieces sent by the partner between moves must land in the same
//! pocket. `tests/oracles/pyffish_bughouse.py` plays the games; its docstring says how the
//! positions are made and what is normalised. The linked game (waiting, passing captures,
//! slots, clocks) is outside Fairy-Stockfish and is tested by the scenario and driver tests.
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with `pyffish`; it fails, with
//! instructions, when they are missing: it never skips. `BUGHOUSE_GAMES`, `BUGHOUSE_PLIES` and
//! `BUGHOUSE_SEED` override the number of games, the ply limit and the seed.

use chaturanga_rules::{Piece, Position};
use chaturanga_variants::bughouse::{BOARD_START_FEN, BoardPosition, BughousePosition, Timing};
use std::collections::BTreeSet;
use std::process::Command;

const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt` (pyffish==0.0.90), or set CHATURANGA_PYTHON to a Python that has them";

fn env_or(name: &str, default: &str) -> String {
    let v = std::env::var(name).unwrap_or_else(|_| default.to_string());
    assert!(v.parse::<u64>().is_ok(), "{name}={v:?} is not a number");
    v
}

fn script(args: &[&str]) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/pyffish_bughouse.py"
    );
    let python = std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let output = Command::new(&python)
        .arg(path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; install Python 3 and {INSTALL}"));
    assert!(
        output.status.success(),
        "the pyffish bughouse oracle failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// Board A of a linked position whose board B is the start position.
fn board(fen: &str) -> BoardPosition {
    BughousePosition::from_fen(&format!("A:{fen} | B:{BOARD_START_FEN}"), Timing::RealTime)
        .unwrap_or_else(|e| panic!("cannot set up {fen}: {e}"))
        .boards()[0]
        .clone()
}

/// Our move texts as Fairy-Stockfish writes them (promotions without `~`), sorted.
fn texts(b: &BoardPosition) -> Vec<String> {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let mut t: Vec<String> = moves
        .iter()
        .map(|&m| b.move_text(m).replace('~', ""))
        .collect();
    t.sort();
    t
}

#[test]
fn single_board_moves_agree_with_pyffish_on_random_positions_with_pockets() {
    let (games, plies) = if cfg!(debug_assertions) {
        ("6", "30")
    } else {
        ("16", "40")
    };
    let seed = env_or("BUGHOUSE_SEED", "20261130");
    let games = env_or("BUGHOUSE_GAMES", games);
    let plies = env_or("BUGHOUSE_PLIES", plies);
    let text = script(&["playouts", &seed, &games, &plies]);
    let mut current: Option<BoardPosition> = None;
    let mut history = String::new();
    let (mut positions, mut drops, mut gifts, mut games_seen) = (0, 0, 0, 0);
    for (n, line) in text.lines().enumerate() {
        let at = format!("output line {}", n + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        match (fields[0], fields.len()) {
            ("G", 2) => {
                current = Some(board(fields[1]));
                history = format!("from {}", fields[1]);
                games_seen += 1;
            }
            ("P", 3) => {
                let b = current.as_ref().expect("a game has started");
                assert_eq!(b.fen(), fields[1], "FEN differs at {at} ({history})");
                let ours = texts(b);
                let theirs: Vec<String> =
                    fields[2].split_whitespace().map(str::to_string).collect();
                if ours != theirs {
                    let a: BTreeSet<&String> = ours.iter().collect();
                    let t: BTreeSet<&String> = theirs.iter().collect();
                    panic!(
                        "legal moves differ in {} at {at}: only ours {:?}, only pyffish's {:?} ({history})",
                        fields[1],
                        a.difference(&t).collect::<Vec<_>>(),
                        t.difference(&a).collect::<Vec<_>>()
                    );
                }
                drops += ours.iter().filter(|m| m.contains('@')).count();
                positions += 1;
            }
            ("M", 2) => {
                let b = current.as_mut().expect("a game has started");
                let mut moves = Vec::new();
                b.legal_moves(&mut moves);
                let mv = moves
                    .into_iter()
                    .find(|&m| b.move_text(m).replace('~', "") == fields[1])
                    .unwrap_or_else(|| panic!("{} is not ours at {at} ({history})", fields[1]));
                b.play_unchecked(mv);
                history.push(' ');
                history.push_str(fields[1]);
            }
            ("H", 3) => {
                let b = current.as_mut().expect("a game has started");
                let letter = fields[1].chars().next().expect("a letter");
                let player = u8::from(letter.is_ascii_lowercase());
                let symbol = letter.to_ascii_uppercase().to_string();
                let kind =
                    b.spec()
                        .pieces
                        .iter()
                        .position(|p| p.symbol == symbol)
                        .unwrap_or_else(|| panic!("no piece {symbol}")) as u8;
                let piece = Piece::new(player, kind);
                let n = b.in_hand(piece.player(), piece.kind());
                b.set_in_hand(piece.player(), piece.kind(), n + 1);
                assert_eq!(
                    b.fen(),
                    fields[2],
                    "pocket after a gift at {at} ({history})"
                );
                history = format!("from {}", fields[2]);
                gifts += 1;
            }
            _ => panic!("unexpected output line {}: {line:?}", n + 1),
        }
    }
    assert!(games_seen > 0 && positions > 0, "no output");
    assert!(
        drops > 0 && gifts > 0,
        "the playouts dropped and sent pieces"
    );
    eprintln!(
        "bughouse board: {games_seen} games, {positions} positions, {drops} drops listed, {gifts} pieces sent, all equal to pyffish"
    );
}
