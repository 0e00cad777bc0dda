//! Every scenario of `docs/rules/speed.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::speed::{self, SpeedPosition};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<SpeedPosition>(fen))
}

fn from_cell(moves: &[String], cell: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| m.starts_with(cell))
        .cloned()
        .collect()
}

#[test]
fn scenario_01_start_position_has_6_moves_each() {
    let game = game_after::<SpeedPosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), speed::START_FEN);
    assert_eq!(
        legal_texts(game.position()),
        ["a1b3", "a2a3", "b2b3", "c2c3", "d2d3", "e2e3"]
    );
    // Black, if it were to move.
    assert_eq!(
        legal("nqkbr/ppppp/5/PPPPP/NQKBR b - - 0 1"),
        ["a4a3", "a5b3", "b4b3", "c4c3", "d4d3", "e4e3"]
    );
}

#[test]
fn scenario_02_no_double_step() {
    let start = game_after::<SpeedPosition>(None, &[], &[]);
    assert!(start.position().parse_move("a2a4").is_err());
    // With a4 empty (the black a-pawn removed) it is still illegal.
    let p = position::<SpeedPosition>("nqkbr/1pppp/5/PPPPP/NQKBR w - - 0 1");
    assert!(p.parse_move("a2a4").is_err());
    assert_eq!(from_cell(&legal_texts(&p), "a2"), ["a2a3"]);
    // The same on Miccio's 5x6 board, where a3 and a4 are both empty at the start.
    let miccio = game_after::<SpeedPosition>(None, &["board=5x6"], &[]);
    assert_eq!(miccio.position().fen(), speed::START_FEN_5X6);
    assert!(miccio.position().parse_move("a2a4").is_err());
}

#[test]
fn scenario_03_early_pawn_contact() {
    let game = game_after::<SpeedPosition>(None, &[], &["b2b3"]);
    let moves = legal_texts(game.position());
    for m in ["a4b3", "c4b3", "a5b3"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    let onto_b3: Vec<&String> = moves.iter().filter(|m| m.ends_with("b3")).collect();
    assert_eq!(onto_b3, ["a4b3", "a5b3", "c4b3"]);
}

#[test]
fn scenario_04_no_castling() {
    // The start position with the white bishop gone: d1 is empty, the rook on e1 unmoved.
    let fen = "nqkbr/ppppp/5/PPPPP/NQK1R w - - 0 1";
    let moves = legal(fen);
    assert_eq!(from_cell(&moves, "c1"), ["c1d1"]);
    let p = position::<SpeedPosition>(fen);
    for m in ["c1e1", "c1d1e1", "e1c1"] {
        assert!(p.parse_move(m).is_err(), "{m}");
    }
}

#[test]
fn scenario_05_promotion_blocked() {
    let fen = "k4/2P2/5/5/NQKBR w - - 0 1";
    let moves = legal(fen);
    assert!(from_cell(&moves, "c4").is_empty(), "{moves:?}");
    let p = position::<SpeedPosition>(fen);
    for m in ["c4c5", "c4c5q", "c4c5r", "c4c5b", "c4c5n"] {
        assert!(p.parse_move(m).is_err(), "{m}");
    }
    // Captures onto b5 or d5 (black rooks there) are just as illegal.
    let captures = legal("kr1r1/2P2/5/5/NQKBR w - - 0 1");
    assert!(from_cell(&captures, "c4").is_empty(), "{captures:?}");
    // The pawn still attacks b5 and d5: a black king there is in check.
    assert!(position::<SpeedPosition>("1k3/2P2/5/5/NQKBR b - - 0 1").is_check());
    assert!(position::<SpeedPosition>("3k1/2P2/5/5/NQKBR b - - 0 1").is_check());
}

#[test]
fn scenario_06_promotion_to_a_captured_piece() {
    let moves = legal("k4/2P2/5/5/N1KBR w - - 0 1");
    assert_eq!(from_cell(&moves, "c4"), ["c4c5q"]);
}

#[test]
fn scenario_07_the_limit_applies_again() {
    let game = game_after::<SpeedPosition>(Some("k4/2P2/5/5/N1KBR w - - 0 1"), &[], &["c4c5q"]);
    assert_eq!(game.position().fen(), "k1Q2/5/5/5/N1KBR b - - 0 1");
    // A second pawn: White Na1 Rb1 Bb2 Ke1, pawns c4 and d4, the queen captured; Black Ke3
    // and Ra5. Once c4c5q has put a queen back, the d4 pawn may not reach rank 5 until a
    // white piece falls.
    let fen = "r4/2PP1/4k/1B3/NR2K w - - 0 1";
    assert_eq!(from_cell(&legal(fen), "d4"), ["d4d5q"]);
    let quiet = game_after::<SpeedPosition>(Some(fen), &[], &["c4c5q", "e3e4"]);
    assert!(from_cell(&legal_texts(quiet.position()), "d4").is_empty());
    // Black takes the knight on a1: now the pawn may promote, to a knight only.
    let taken = game_after::<SpeedPosition>(Some(fen), &[], &["c4c5q", "a5a1"]);
    assert_eq!(from_cell(&legal_texts(taken.position()), "d4"), ["d4d5n"]);
}

#[test]
fn scenario_08_promotion_by_capture() {
    let moves = legal("k3b/3P1/5/5/NQKB1 w - - 0 1");
    assert_eq!(from_cell(&moves, "d4"), ["d4d5r", "d4e5r"]);
}

#[test]
fn scenario_09_checkmate() {
    let game = game_after::<SpeedPosition>(Some("2k2/2Q2/2K2/5/5 b - - 0 1"), &[], &[]);
    assert!(game.position().is_check());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_10_stalemate() {
    let game = game_after::<SpeedPosition>(Some("k4/2Q2/5/5/4K b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}
