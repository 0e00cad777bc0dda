//! Every scenario of `docs/rules/doublechess.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::doublechess::{DoubleChessPosition, START_FEN};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<DoubleChessPosition>(fen))
}

/// The legal moves of the piece on `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    legal(fen)
        .into_iter()
        .filter(|m| {
            m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// Scenario 2's position: rooks a1 e1 l1 p1 and Ki1 with all four rights, Black Ki8.
const INNER: &str = "8k7/16/16/16/16/16/16/R3R3K2R3R w AELP - 0 1";

#[test]
fn scenario_01_start_position_forty_moves_and_knight_squares() {
    let start = position::<DoubleChessPosition>(START_FEN);
    assert_eq!(start.fen(), START_FEN);
    let game = game_after::<DoubleChessPosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), START_FEN);
    assert_eq!(legal(START_FEN).len(), 40);
    assert_eq!(moves_from(START_FEN, "b1"), ["b1a3", "b1c3"]);
    assert_eq!(moves_from(START_FEN, "f1"), ["f1e3", "f1g3"]);
    assert_eq!(moves_from(START_FEN, "k1"), ["k1j3", "k1l3"]);
    assert_eq!(moves_from(START_FEN, "o1"), ["o1n3", "o1p3"]);
}

#[test]
fn scenario_02_inner_castling_on_both_sides() {
    let moves = legal(INNER);
    assert!(moves.contains(&"i1k1".to_string()), "{moves:?}");
    assert!(moves.contains(&"i1g1".to_string()), "{moves:?}");
    assert!(
        !moves.contains(&"i1m1".to_string()),
        "the rook on l1 stands between the king and p1"
    );
    assert!(!moves.contains(&"i1e1".to_string()), "e1 is occupied");
    let kingside = game_after::<DoubleChessPosition>(Some(INNER), &[], &["i1k1"]);
    assert_eq!(
        kingside.position().fen(),
        "8k7/16/16/16/16/16/16/R3R4RK4R b - - 1 1"
    );
    let queenside = game_after::<DoubleChessPosition>(Some(INNER), &[], &["i1g1"]);
    assert_eq!(
        queenside.position().fen(),
        "8k7/16/16/16/16/16/16/R5KR3R3R b - - 1 1"
    );
}

#[test]
fn scenario_03_outer_castling() {
    let fen = "8k7/16/16/16/16/16/16/R7K6R w AP - 0 1";
    let moves = legal(fen);
    assert!(moves.contains(&"i1m1".to_string()), "{moves:?}");
    assert!(moves.contains(&"i1e1".to_string()), "{moves:?}");
    let kingside = game_after::<DoubleChessPosition>(Some(fen), &[], &["i1m1"]);
    assert_eq!(
        kingside.position().fen(),
        "8k7/16/16/16/16/16/16/R10RK3 b - - 1 1"
    );
    let queenside = game_after::<DoubleChessPosition>(Some(fen), &[], &["i1e1"]);
    assert_eq!(
        queenside.position().fen(),
        "8k7/16/16/16/16/16/16/4KR9R b - - 1 1"
    );
}

#[test]
fn scenario_04_outer_castling_through_an_attacked_square() {
    // Scenario 3 plus a black rook on k8; the k-file is empty.
    let moves = legal("8k1r5/16/16/16/16/16/16/R7K6R w AP - 0 1");
    assert!(!moves.contains(&"i1m1".to_string()), "the king crosses k1");
    assert!(moves.contains(&"i1e1".to_string()), "{moves:?}");
}

#[test]
fn scenario_05_inner_castling_with_an_attacked_rook_square() {
    // Scenario 2 plus a black rook on f8; the f-file is open.
    let moves = legal("5r2k7/16/16/16/16/16/16/R3R3K2R3R w AELP - 0 1");
    assert!(
        moves.contains(&"i1g1".to_string()),
        "only the rook crosses f1: {moves:?}"
    );
    assert!(moves.contains(&"i1k1".to_string()), "{moves:?}");
}

#[test]
fn scenario_06_losing_one_right() {
    let game =
        game_after::<DoubleChessPosition>(Some(INNER), &[], &["l1l2", "i8h8", "l2l1", "h8i8"]);
    assert_eq!(
        game.position().fen(),
        "8k7/16/16/16/16/16/16/R3R3K2R3R w AEP - 4 3"
    );
    let moves = legal_texts(game.position());
    assert!(!moves.contains(&"i1k1".to_string()), "{moves:?}");
    assert!(moves.contains(&"i1g1".to_string()), "{moves:?}");
}

#[test]
fn scenario_07_no_castling_out_of_check() {
    // Scenario 2 plus a black queen on i5; the i-file is empty.
    let game = game_after::<DoubleChessPosition>(
        Some("8k7/16/16/8q7/16/16/16/R3R3K2R3R w AELP - 0 1"),
        &[],
        &[],
    );
    assert!(game.position().is_check());
    let moves = legal_texts(game.position());
    for castling in ["i1k1", "i1g1", "i1m1", "i1e1"] {
        assert!(!moves.contains(&castling.to_string()), "{castling}");
    }
}

#[test]
fn scenario_08_en_passant_only_on_the_very_next_move() {
    // White Pn5 and Ki1, Black Po7 and Ki8, Black to move.
    let fen = "8k7/14p1/16/13P2/16/16/16/8K7 b - - 0 1";
    let game = game_after::<DoubleChessPosition>(Some(fen), &[], &["o7o5"]);
    assert_eq!(
        game.position().fen(),
        "8k7/16/16/13Pp1/16/16/16/8K7 w - o6 0 2"
    );
    assert!(legal_texts(game.position()).contains(&"n5o6".to_string()));
    let taken = game_after::<DoubleChessPosition>(Some(fen), &[], &["o7o5", "n5o6"]);
    assert_eq!(
        taken.position().fen(),
        "8k7/16/14P1/16/16/16/16/8K7 b - - 0 2"
    );
    let later = game_after::<DoubleChessPosition>(Some(fen), &[], &["o7o5", "i1h1", "i8h8"]);
    assert!(!legal_texts(later.position()).contains(&"n5o6".to_string()));
}

#[test]
fn scenario_09_promotion_to_q_r_b_or_n_only() {
    // White Pp7 (p8 empty) and Ki1, Black Ki8.
    let fen = "8k7/15P/16/16/16/16/16/8K7 w - - 0 1";
    assert_eq!(moves_from(fen, "p7"), ["p7p8b", "p7p8n", "p7p8q", "p7p8r"]);
    let p = position::<DoubleChessPosition>(fen);
    assert!(p.parse_move("p7p8").is_err());
    assert!(p.parse_move("p7p8k").is_err());
}

#[test]
fn scenario_10_checkmate_by_two_queens() {
    let game =
        game_after::<DoubleChessPosition>(Some("8k7/7Q1Q6/16/16/16/16/16/8K7 b - - 0 1"), &[], &[]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_11_stalemate() {
    let game =
        game_after::<DoubleChessPosition>(Some("k15/16/1Q14/16/16/16/16/8K7 b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}
