//! Every scenario of `docs/rules/omega.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::omega::OmegaPosition;
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<OmegaPosition>(fen))
}

/// The legal moves of the piece on `from` (every Omega cell name has two characters).
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    legal(fen)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

/// Destination cells of the moves in `moves`, all of which start on `from`.
fn targets(moves: &[String], from: &str) -> Vec<String> {
    moves.iter().map(|m| m[from.len()..].to_string()).collect()
}

#[test]
fn scenario_01_wizard_on_d4() {
    // White Wd4; the kings stand out of the way on j0 (White) and j9 (Black).
    let fen =
        "1**********1/*9k*/*10*/*10*/*10*/*10*/*3W6*/*10*/*10*/*10*/*9K*/1**********1 w - - 0 1";
    let moves = moves_from(fen, "d4");
    assert_eq!(
        targets(&moves, "d4"),
        [
            "a3", "a5", "c1", "c3", "c5", "c7", "e1", "e3", "e5", "e7", "g3", "g5"
        ]
    );
}

#[test]
fn scenario_02_champion_on_d4() {
    // White Cd4; the kings stand out of the way on j0 (White) and j9 (Black).
    let fen =
        "1**********1/*9k*/*10*/*10*/*10*/*10*/*3C6*/*10*/*10*/*10*/*9K*/1**********1 w - - 0 1";
    let moves = moves_from(fen, "d4");
    assert_eq!(
        targets(&moves, "d4"),
        [
            "b2", "b4", "b6", "c4", "d2", "d3", "d5", "d6", "e4", "f2", "f4", "f6"
        ]
    );
}

#[test]
fn scenario_03_initial_wizard_and_champion_jumps() {
    let game = game_after::<OmegaPosition>(None, &[], &[]);
    let moves = legal_texts(game.position());
    assert!(moves.contains(&"w1a2".to_string()), "{moves:?}");
    assert!(moves.contains(&"a0a2".to_string()), "{moves:?}");
    assert!(moves.contains(&"a0c2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a0a1".to_string()), "own pawn on a1");
    assert!(game.position().parse_move("a0a1").is_err());
}

#[test]
fn scenario_04_triple_step_and_en_passant_onto_either_skipped_cell() {
    // White Pc1, Kf0; Black pawns b3 and d4, Kf9.
    let both = "1**********1/*5k4*/*10*/*10*/*10*/*10*/*3p6*/*1p8*/*10*/*2P7*/*5K4*/1**********1 w - - 0 1";
    assert!(legal(both).contains(&"c1c4".to_string()));
    let game = game_after::<OmegaPosition>(Some(both), &[], &["c1c4"]);
    assert_eq!(
        game.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*2Pp6*/*1p8*/*10*/*10*/*5K4*/1**********1 b - c2c3 0 1"
    );
    let moves = legal_texts(game.position());
    assert!(moves.contains(&"b3c2".to_string()), "{moves:?}");
    assert!(moves.contains(&"d4c3".to_string()), "{moves:?}");
    let onto_c2 = game_after::<OmegaPosition>(Some(both), &[], &["c1c4", "b3c2"]);
    assert_eq!(
        onto_c2.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*3p6*/*10*/*2p7*/*10*/*5K4*/1**********1 w - - 0 2"
    );
    let onto_c3 = game_after::<OmegaPosition>(Some(both), &[], &["c1c4", "d4c3"]);
    assert_eq!(
        onto_c3.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*1pp7*/*10*/*10*/*5K4*/1**********1 w - - 0 2"
    );
    // Without the black pawns the field is `-`.
    let neither = game_after::<OmegaPosition>(
        Some(
            "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*2P7*/*5K4*/1**********1 w - - 0 1",
        ),
        &[],
        &["c1c4"],
    );
    assert_eq!(
        neither.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*2P7*/*10*/*10*/*10*/*5K4*/1**********1 b - - 0 1"
    );
    // One move later neither capture is possible.
    let later = game_after::<OmegaPosition>(Some(both), &[], &["c1c4", "f9e9", "f0e0"]);
    let moves = legal_texts(later.position());
    assert!(!moves.contains(&"b3c2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d4c3".to_string()), "{moves:?}");
}

#[test]
fn scenario_05_double_step_en_passant() {
    // White Pe1, Kh0; Black pawns d3 and f3, Kh9.
    let fen = "1**********1/*7k2*/*10*/*10*/*10*/*10*/*10*/*3p1p4*/*10*/*4P5*/*7K2*/1**********1 w - - 0 1";
    let game = game_after::<OmegaPosition>(Some(fen), &[], &["e1e3"]);
    assert_eq!(
        game.position().fen(),
        "1**********1/*7k2*/*10*/*10*/*10*/*10*/*10*/*3pPp4*/*10*/*10*/*7K2*/1**********1 b - e2 0 1"
    );
    let moves = legal_texts(game.position());
    assert!(moves.contains(&"d3e2".to_string()), "{moves:?}");
    assert!(moves.contains(&"f3e2".to_string()), "{moves:?}");
}

#[test]
fn scenario_06_castling_both_ways() {
    // White Rb0, Kf0, Ri0 with both rights; Black Kf9.
    let fen = "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*1R3K2R1*/1**********1 w KQ - 0 1";
    let moves = legal(fen);
    assert!(moves.contains(&"f0h0".to_string()), "{moves:?}");
    assert!(moves.contains(&"f0d0".to_string()), "{moves:?}");
    let short = game_after::<OmegaPosition>(Some(fen), &[], &["f0h0"]);
    assert_eq!(
        short.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*1R4RK2*/1**********1 b - - 1 1"
    );
    let long = game_after::<OmegaPosition>(Some(fen), &[], &["f0d0"]);
    assert_eq!(
        long.position().fen(),
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*3KR3R1*/1**********1 b - - 1 1"
    );
    // A black rook on d5 attacks d0; one on e5 attacks e0.
    let d0 = legal(
        "1**********1/*5k4*/*10*/*10*/*10*/*3r6*/*10*/*10*/*10*/*10*/*1R3K2R1*/1**********1 w KQ - 0 1",
    );
    assert!(!d0.contains(&"f0d0".to_string()), "{d0:?}");
    let e0 = legal(
        "1**********1/*5k4*/*10*/*10*/*10*/*4r5*/*10*/*10*/*10*/*10*/*1R3K2R1*/1**********1 w KQ - 0 1",
    );
    assert!(!e0.contains(&"f0d0".to_string()), "{e0:?}");
}

#[test]
fn scenario_07_rooks_never_reach_wizard_cells_bishops_do() {
    // White rooks on all four corners a0, j0, a9, j9; White Ke4, Black Kg6.
    let rooks = legal(
        "1**********1/*R8R*/*10*/*10*/*6k3*/*10*/*4K5*/*10*/*10*/*10*/*R8R*/1**********1 w - - 0 1",
    );
    let rook_moves: Vec<&String> = rooks
        .iter()
        .filter(|m| ["a0", "j0", "a9", "j9"].iter().any(|c| m.starts_with(c)))
        .collect();
    assert!(!rook_moves.is_empty());
    for m in rook_moves {
        assert!(!m.contains('w'), "{m}");
    }
    // White Bc2 with b1 and a0 empty, Kf0; Black Kf9.
    let bishop = legal(
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*2B7*/*10*/*5K4*/1**********1 w - - 0 1",
    );
    assert!(bishop.contains(&"c2w1".to_string()), "{bishop:?}");
}

#[test]
fn scenario_08_mate_of_a_king_on_a_wizard_cell() {
    let game = game_after::<OmegaPosition>(
        Some(
            "1**********1/*10*/*10*/*10*/*10*/*4K5*/*10*/*10*/*2B7*/*10*/*10*/k**********1 b - - 0 1",
        ),
        &[],
        &[],
    );
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_09_knight_on_w1() {
    // White Nw1, Kf0; Black Kf9.
    let fen =
        "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*5K4*/N**********1 w - - 0 1";
    assert_eq!(moves_from(fen, "w1"), ["w1a1", "w1b0"]);
}

#[test]
fn scenario_10_promotion_to_a_wizard_not_a_king() {
    // White Pg8 (g9 empty), Kf0; Black Kb9.
    let fen =
        "1**********1/*1k8*/*6P3*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*5K4*/1**********1 w - - 0 1";
    let moves = moves_from(fen, "g8");
    assert!(moves.contains(&"g8g9w".to_string()), "{moves:?}");
    let game = game_after::<OmegaPosition>(Some(fen), &[], &["g8g9w"]);
    assert_eq!(
        game.position().fen(),
        "1**********1/*1k4W3*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*5K4*/1**********1 b - - 0 1"
    );
    let p = position::<OmegaPosition>(fen);
    assert!(p.parse_move("g8g9k").is_err());
}

#[test]
fn scenario_11_king_and_bishop_against_king_is_not_drawn() {
    // White Kf0 and Bc2; Black Kf9 alone.
    let game = game_after::<OmegaPosition>(
        Some(
            "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*10*/*2B7*/*10*/*5K4*/1**********1 w - - 0 1",
        ),
        &[],
        &[],
    );
    assert_eq!(game.status().to_string(), "ongoing");
}
