//! Every scenario of `docs/rules/renaissance.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::renaissance::{RenaissancePosition, START_FEN};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<RenaissancePosition>(fen))
}

/// The cell a move text starts on: a letter and the digits after it (`c10d10u` -> `c10`).
fn from_cell(text: &str) -> &str {
    let end = 1 + text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len() - 1);
    &text[..end]
}

/// The sorted legal move texts of the piece on `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    legal(fen)
        .into_iter()
        .filter(|m| from_cell(m) == from)
        .collect()
}

/// The sorted destination cells of the piece on `from`.
fn targets(fen: &str, from: &str) -> Vec<String> {
    let mut cells: Vec<String> = moves_from(fen, from)
        .into_iter()
        .map(|m| m[from.len()..].to_string())
        .collect();
    cells.sort();
    cells
}

fn sorted(cells: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    v.sort();
    v
}

#[test]
fn scenario_01_duke_on_e4() {
    // White De4; White Kl4 and Black Ke10 stand off every duke line.
    let fen = "4k7/12/12/12/12/12/4D6K/12/12/12 w - - 0 1";
    let cells = targets(fen, "e4");
    assert_eq!(
        cells,
        sorted(&[
            "a1", "a7", "a9", "b2", "b6", "b8", "c1", "c3", "c5", "c7", "d2", "d6", "f2", "f6",
            "g1", "g3", "g5", "g7", "h2", "h6", "h8", "i1", "i7", "i9", "j8", "j10", "k9", "l10",
        ])
    );
    assert_eq!(cells.len(), 28);
    for not in ["e5", "f5", "e6"] {
        assert!(!cells.contains(&not.to_string()), "{not}");
    }
}

#[test]
fn scenario_02_duke_to_g7_by_either_path() {
    // Duke e4 as in scenario 1, with white pawns as blockers.
    let e5 = "4k7/12/12/12/12/4P7/4D6K/12/12/12 w - - 0 1";
    assert!(legal(e5).contains(&"e4g7".to_string()), "via f5, g6");
    let g6 = "4k7/12/12/12/6P5/12/4D6K/12/12/12 w - - 0 1";
    assert!(legal(g6).contains(&"e4g7".to_string()), "via e5, f6");
    let both = "4k7/12/12/12/6P5/4P7/4D6K/12/12/12 w - - 0 1";
    assert!(!legal(both).contains(&"e4g7".to_string()));
}

#[test]
fn scenario_03_cavalier_on_e4() {
    // White Ve4; White Ka1 and Black Kl10 stand off every cavalier line.
    let fen = "11k/12/12/12/12/12/4V7/12/12/K11 w - - 0 1";
    let cells = targets(fen, "e4");
    assert_eq!(
        cells,
        sorted(&[
            "a3", "a5", "b3", "b5", "c3", "c5", "d1", "d2", "d6", "d7", "d8", "d9", "d10", "f1",
            "f2", "f6", "f7", "f8", "f9", "f10", "g3", "g5", "h3", "h5", "i3", "i5", "j3", "j5",
            "k3", "k5", "l3", "l5",
        ])
    );
    assert_eq!(cells.len(), 32);
    for not in ["d3", "d5", "f3", "f5", "e5"] {
        assert!(!cells.contains(&not.to_string()), "{not}");
    }
}

#[test]
fn scenario_04_cavalier_to_f7_by_either_path() {
    // Cavalier e4 as in scenario 3, with white pawns as blockers.
    let f5 = "11k/12/12/12/12/5P6/4V7/12/12/K11 w - - 0 1";
    assert!(legal(f5).contains(&"e4f7".to_string()), "via e5, e6");
    let both = "11k/12/12/12/12/4PP6/4V7/12/12/K11 w - - 0 1";
    assert!(!legal(both).contains(&"e4f7".to_string()));
}

#[test]
fn scenario_05_initial_jumps_and_no_castling() {
    let game = game_after::<RenaissancePosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), START_FEN);
    let moves = legal_texts(game.position());
    assert!(moves.contains(&"f1d1".to_string()), "{moves:?}");
    assert!(moves.contains(&"c2c4".to_string()), "{moves:?}");
    assert!(moves.contains(&"b2c4".to_string()), "{moves:?}");
    // No castling: the start FEN has no rights, and the king (g2) has no move at all.
    assert_eq!(START_FEN.split(' ').nth(2), Some("-"));
    assert!(moves.iter().all(|m| from_cell(m) != "g2"), "{moves:?}");
}

#[test]
fn scenario_06_general_mate_in_three() {
    let game =
        game_after::<RenaissancePosition>(None, &[], &["l1k4", "a8a7", "k4h5", "l8l7", "h5e6"]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_07_fox_and_guard_promotions() {
    // White Pc8 (c9 empty), Ka1; Black Kl8: it may stay a pawn or become a fox on c9.
    let c8 = "12/12/2P8k/12/12/12/12/12/12/K11 w - - 0 1";
    assert_eq!(moves_from(c8, "c8"), ["c8c9", "c8c9f"]);
    // White Pc9 (c10 empty): one of the fifteen pieces, the fox included.
    let c9 = "12/2P9/11k/12/12/12/12/12/12/K11 w - - 0 1";
    assert_eq!(
        moves_from(c9, "c9"),
        [
            "c9c10a", "c9c10b", "c9c10c", "c9c10d", "c9c10e", "c9c10f", "c9c10g", "c9c10m",
            "c9c10n", "c9c10q", "c9c10r", "c9c10s", "c9c10t", "c9c10u", "c9c10v",
        ]
    );
    let p = position::<RenaissancePosition>(c9);
    assert!(p.parse_move("c9c10k").is_err());
    assert!(p.parse_move("c9c10").is_err());
    assert!(p.parse_move("c9c10p").is_err());
    // White foxes c9 and c2: c9-c10 may become a guard; c2-c1 may not.
    let foxes = "12/2F9/11k/12/12/12/12/12/2F9/K11 w - - 0 1";
    let moves = legal(foxes);
    assert!(moves.contains(&"c9c10u".to_string()), "{moves:?}");
    assert!(moves.contains(&"c9c10".to_string()), "{moves:?}");
    assert!(moves.contains(&"c2c1".to_string()), "{moves:?}");
    assert!(!moves.contains(&"c2c1u".to_string()), "{moves:?}");
    assert!(
        position::<RenaissancePosition>(foxes)
            .parse_move("c2c1u")
            .is_err()
    );
    // A white fox moving along rank 10 may become a guard or stay a fox.
    let along = "2F9/12/11k/12/12/12/12/12/12/K11 w - - 0 1";
    let moves = legal(along);
    assert!(moves.contains(&"c10d10u".to_string()), "{moves:?}");
    assert!(moves.contains(&"c10d10".to_string()), "{moves:?}");
    let game = game_after::<RenaissancePosition>(Some(along), &[], &["c10d10u"]);
    assert_eq!(
        game.position().fen(),
        "3U8/12/11k/12/12/12/12/12/12/K11 b - - 1 1"
    );
}

#[test]
fn scenario_08_en_passant_only_on_the_very_next_move() {
    // White Pc3, Kl1; Black pawns b5 and d5, Kl10.
    let fen = "11k/12/12/12/12/1p1p8/12/2P9/12/11K w - - 0 1";
    let game = game_after::<RenaissancePosition>(Some(fen), &[], &["c3c5"]);
    assert_eq!(
        game.position().fen(),
        "11k/12/12/12/12/1pPp8/12/12/12/11K b - c4 0 1"
    );
    let moves = legal_texts(game.position());
    assert!(moves.contains(&"b5c4".to_string()), "{moves:?}");
    assert!(moves.contains(&"d5c4".to_string()), "{moves:?}");
    let taken = game_after::<RenaissancePosition>(Some(fen), &[], &["c3c5", "b5c4"]);
    assert_eq!(
        taken.position().fen(),
        "11k/12/12/12/12/3p8/2p9/12/12/11K w - - 0 2"
    );
    let later = game_after::<RenaissancePosition>(Some(fen), &[], &["c3c5", "l10k10", "l1k1"]);
    let moves = legal_texts(later.position());
    assert!(!moves.contains(&"b5c4".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d5c4".to_string()), "{moves:?}");
}

#[test]
fn scenario_09_page_on_e5() {
    // White Ee5; White Ka1, Black Kl10.
    let fen = "11k/12/12/12/12/4E7/12/12/12/K11 w - - 0 1";
    assert_eq!(
        targets(fen, "e5"),
        sorted(&[
            "d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6", "c4", "c6", "d3", "d7", "f3", "f7",
            "g4", "g6",
        ])
    );
}

#[test]
fn scenario_10_prince_moves_as_queen_or_horse() {
    // White Mc1 (c2, b3 empty); White Kl5 and Black Ka10 stand off its lines.
    let fen = "k11/12/12/12/12/11K/12/12/12/2M9 w - - 0 1";
    let cells = targets(fen, "c1");
    assert_eq!(
        cells,
        sorted(&[
            // queen: rank 1, file c, both diagonals
            "a1", "b1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1", "l1", "c2", "c3", "c4",
            "c5", "c6", "c7", "c8", "c9", "c10", "d2", "e3", "f4", "g5", "h6", "i7", "j8", "k9",
            "l10", "b2", "a3", // horse
            "a2", "b3", "d3", "e2",
        ])
    );
}
