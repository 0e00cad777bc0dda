//! Every scenario of `docs/rules/capablanca.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::capablanca::{self, CapablancaPosition};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<CapablancaPosition>(fen))
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn from_cell(moves: &[String], cell: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| {
            m.starts_with(cell) && !m[cell.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .cloned()
        .collect()
}

/// White's 28 moves in either start array: 20 pawn moves, then the pieces' moves given.
fn start_moves(pieces: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for file in "abcdefghij".chars() {
        v.push(format!("{file}2{file}3"));
        v.push(format!("{file}2{file}4"));
    }
    v.extend(pieces.iter().map(|m| m.to_string()));
    v.sort();
    v
}

#[test]
fn scenario_01_start_position_has_28_moves() {
    let game = game_after::<CapablancaPosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), capablanca::SEED_START);
    let moves = legal_texts(game.position());
    let expected = start_moves(&[
        "b1a3", "b1c3", "i1h3", "i1j3", "d1c3", "d1e3", "g1f3", "g1h3",
    ]);
    assert_eq!(expected.len(), 28);
    assert_eq!(moves, expected);
}

#[test]
fn scenario_02_chancellor_and_archbishop_moves() {
    let chancellor = from_cell(&legal("9k/10/10/10/3C6/10/10/K9 w - - 0 1"), "d4");
    let expected = sorted(&[
        // d-file
        "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8", // 4th rank
        "d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4i4", "d4j4",
        // knight squares
        "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5",
    ]);
    assert_eq!(expected.len(), 24);
    assert_eq!(chancellor, expected);

    let archbishop = from_cell(&legal("9k/10/10/10/3A6/10/10/K9 w - - 0 1"), "d4");
    let expected = sorted(&[
        // bishop moves (a1 holds White's own king)
        "d4b2", "d4c3", "d4e5", "d4f6", "d4g7", "d4h8", "d4c5", "d4b6", "d4a7", "d4e3", "d4f2",
        "d4g1", // knight squares
        "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5",
    ]);
    assert_eq!(expected.len(), 20);
    assert_eq!(archbishop, expected);
}

#[test]
fn scenario_03_archbishop_checkmate() {
    let game =
        game_after::<CapablancaPosition>(Some("k9/2A7/1K8/10/10/10/10/10 b - - 0 1"), &[], &[]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_04_kingside_castling() {
    let fen = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1";
    assert!(legal(fen).contains(&"f1i1".to_string()));
    let game = game_after::<CapablancaPosition>(Some(fen), &[], &["f1i1"]);
    // King on i1, rook on h1.
    assert_eq!(
        game.position().fen(),
        "r4k3r/10/10/10/10/10/10/R6RK1 b kq - 1 1"
    );
}

#[test]
fn scenario_05_queenside_castling() {
    let fen = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1";
    assert!(legal(fen).contains(&"f1c1".to_string()));
    let game = game_after::<CapablancaPosition>(Some(fen), &[], &["f1c1"]);
    // King on c1, rook on d1.
    assert_eq!(
        game.position().fen(),
        "r4k3r/10/10/10/10/10/10/2KR5R b kq - 1 1"
    );
}

#[test]
fn scenario_06_no_castling_through_an_attacked_square() {
    let moves = legal("5kr3/10/10/10/10/10/10/R4K3R w KQ - 0 1");
    assert!(
        !moves.contains(&"f1i1".to_string()),
        "g1 is attacked by the rook on g8"
    );
    assert!(moves.contains(&"f1c1".to_string()));
}

#[test]
fn scenario_07_castling_with_b1_attacked() {
    let fen = "1r3k4/10/10/10/10/10/10/R4K3R w KQ - 0 1";
    assert!(legal(fen).contains(&"f1c1".to_string()));
    let game = game_after::<CapablancaPosition>(Some(fen), &[], &["f1c1"]);
    assert_eq!(
        game.position().fen(),
        "1r3k4/10/10/10/10/10/10/2KR5R b - - 1 1"
    );
}

#[test]
fn scenario_08_promotion_choices() {
    // The scenario's FEN, `5k4/4P5/10/10/10/10/10/K9 w - - 0 1`, puts the black king on f8,
    // in check from the e7 pawn with White to move: not a legal position, and the engine
    // refuses it. The same claim on a legal board: the black king moved to j8 and a black
    // rook put on f8, so that the pawn may promote on e8 or capture on f8.
    assert!(
        CapablancaPosition::from_fen_with(
            &common::options::<CapablancaPosition>(&[]),
            "5k4/4P5/10/10/10/10/10/K9 w - - 0 1"
        )
        .is_err()
    );
    let fen = "5r3k/4P5/10/10/10/10/10/K9 w - - 0 1";
    let moves = from_cell(&legal(fen), "e7");
    let expected = sorted(&[
        "e7e8q", "e7e8c", "e7e8a", "e7e8r", "e7e8b", "e7e8n", "e7f8q", "e7f8c", "e7f8a", "e7f8r",
        "e7f8b", "e7f8n",
    ]);
    assert_eq!(moves, expected);
    let p = position::<CapablancaPosition>(fen);
    assert!(p.parse_move("e7e8").is_err(), "promotion is compulsory");
    assert!(p.parse_move("e7e8k").is_err());
    let game = game_after::<CapablancaPosition>(Some(fen), &[], &["e7e8c"]);
    assert_eq!(
        game.position().fen(),
        "4Cr3k/10/10/10/10/10/10/K9 b - - 0 1"
    );
}

#[test]
fn scenario_09_en_passant_on_the_next_move_only() {
    let fen = "5k4/6p3/10/5P4/10/10/10/K9 b - - 0 1";
    let game = game_after::<CapablancaPosition>(Some(fen), &[], &["g7g5"]);
    assert_eq!(
        game.position().fen(),
        "5k4/10/10/5Pp3/10/10/10/K9 w - g6 0 2"
    );
    assert!(legal_texts(game.position()).contains(&"f5g6".to_string()));
    let taken = game_after::<CapablancaPosition>(Some(fen), &[], &["g7g5", "f5g6"]);
    assert_eq!(
        taken.position().fen(),
        "5k4/10/6P3/10/10/10/10/K9 b - - 0 2"
    );
    let later = game_after::<CapablancaPosition>(Some(fen), &[], &["g7g5", "a1a2", "f8e8"]);
    assert!(!legal_texts(later.position()).contains(&"f5g6".to_string()));
}

#[test]
fn scenario_10_stalemate() {
    let game =
        game_after::<CapablancaPosition>(Some("k9/2Q7/10/10/10/10/10/9K b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}

#[test]
fn scenario_11_standard_arrangement() {
    let game = game_after::<CapablancaPosition>(None, &["setup=standard"], &[]);
    assert_eq!(game.position().fen(), capablanca::STANDARD_START);
    assert_eq!(
        game.position().fen(),
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    );
    let moves = legal_texts(game.position());
    // Knights b1a3, b1c3, i1h3, i1j3; archbishop c1 to b3 and d3; chancellor h1 to g3 and i3.
    let expected = start_moves(&[
        "b1a3", "b1c3", "i1h3", "i1j3", "c1b3", "c1d3", "h1g3", "h1i3",
    ]);
    assert_eq!(moves.len(), 28);
    assert_eq!(moves, expected);
}
