//! Every scenario of `docs/rules/losing.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::losing::{self, LosingPosition};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<LosingPosition>(fen))
}

/// The texts of the capturing legal moves, sorted.
fn captures(p: &LosingPosition) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves
        .into_iter()
        .filter(|&m| p.describe(m).expect("described").capture)
        .map(|m| p.move_text(m))
        .collect();
    texts.sort();
    texts
}

#[test]
fn scenario_01_start_position() {
    let game = game_after::<LosingPosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), losing::START_FEN);
    assert_eq!(legal_texts(game.position()).len(), 20);
    assert!(captures(game.position()).is_empty());
}

#[test]
fn scenario_02_forced_capture() {
    let game = game_after::<LosingPosition>(None, &[], &["e2e3", "b7b5"]);
    assert_eq!(legal_texts(game.position()), ["f1b5"]);
}

#[test]
fn scenario_03_free_choice_among_captures() {
    let game = game_after::<LosingPosition>(None, &[], &["e2e4", "d7d5"]);
    assert_eq!(legal_texts(game.position()), ["e4d5"]);
    let game = game_after::<LosingPosition>(None, &[], &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]);
    let moves = legal_texts(game.position());
    assert_eq!(moves, ["d5a2", "d5d2", "d5g2"]);
    assert_eq!(captures(game.position()), moves);
    // Any of the three may be chosen.
    for m in ["d5a2", "d5d2", "d5g2"] {
        game_after::<LosingPosition>(None, &[], &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", m]);
    }
}

#[test]
fn scenario_04_no_en_passant() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    let game = game_after::<LosingPosition>(Some(fen), &[], &["d7d5"]);
    assert!(captures(game.position()).is_empty());
    assert!(game.position().parse_move("e5d6").is_err());
    assert_eq!(
        legal_texts(game.position()),
        ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e5e6"]
    );
    assert_eq!(game.position().fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
    let lichess = game_after::<LosingPosition>(Some(fen), &["en-passant=on"], &["d7d5"]);
    assert_eq!(legal_texts(lichess.position()), ["e5d6"]);
}

#[test]
fn scenario_05_king_capture() {
    let fen = "8/8/8/8/8/8/3k4/4K3 w - - 0 1";
    assert_eq!(legal(fen), ["e1d2"]);
    let game = game_after::<LosingPosition>(Some(fen), &[], &["e1d2"]);
    assert_eq!(game.position().fen(), "8/8/8/8/8/8/3K4/8 b - - 0 1");
    assert_eq!(game.status().to_string(), "0-1 all-pieces-lost");
}

#[test]
fn scenario_06_the_king_can_walk_into_attack() {
    let moves = legal("8/8/8/8/8/8/8/K5r1 w - - 0 1");
    assert_eq!(moves, ["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn scenario_07_no_castling() {
    let p = position::<LosingPosition>("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert!(p.parse_move("e1g1").is_err());
    assert!(!legal_texts(&p).contains(&"e1g1".to_string()));
}

#[test]
fn scenario_08_promotion_choices() {
    let fen = "8/1P6/8/8/8/8/8/k7 w - - 0 1";
    let from_b7: Vec<String> = legal(fen)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(from_b7, ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]);
    assert!(position::<LosingPosition>(fen).parse_move("b7b8k").is_err());
    let king = game_after::<LosingPosition>(Some(fen), &["king-promotion=on"], &[]);
    assert!(legal_texts(king.position()).contains(&"b7b8k".to_string()));
    let promoted = game_after::<LosingPosition>(Some(fen), &["king-promotion=on"], &["b7b8k"]);
    assert_eq!(promoted.position().fen(), "1K6/8/8/8/8/8/8/k7 b - - 0 1");
}

#[test]
fn scenario_09_stalemate_wins() {
    let game = game_after::<LosingPosition>(Some("8/8/8/p7/P7/8/8/8 w - - 0 1"), &[], &[]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 no-legal-moves");
}

#[test]
fn scenario_10_locked_bishops_draw() {
    let game = game_after::<LosingPosition>(Some("2b5/8/8/8/8/8/8/2B5 w - - 0 1"), &[], &[]);
    assert_eq!(game.status().to_string(), "1/2-1/2 insufficient-material");
}

#[test]
fn scenario_11_no_locked_bishops_draw_with_same_coloured_bishops() {
    let game = game_after::<LosingPosition>(Some("3b4/8/8/8/8/8/8/2B5 w - - 0 1"), &[], &[]);
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn scenario_12_repetition() {
    // Knights out and back twice: the start position occurs for the third time.
    let moves = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let game = game_after::<LosingPosition>(None, &[], &moves);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    let before = game_after::<LosingPosition>(None, &[], &moves[..7]);
    assert_eq!(before.status().to_string(), "ongoing");
}
