//! Passed pawns: the cells where an enemy pawn stops a pawn, derived from the move tables.

use crate::common::position;
use chaturanga_rules::geometry::CellSet;
use chaturanga_variants::chess::ChessPosition;
use chaturanga_variants::shogi::ShogiPosition;

/// Whether White's pawn on `pawn` is passed when Black's pawns stand on `enemy`.
fn chess_pawn_passed(pawn: &str, enemy: &[&str]) -> bool {
    let pos: ChessPosition = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let spec = pos.spec();
    let cell = |label: &str| spec.geometry.cell_by_label(label).expect("a cell");
    let kind = spec.pieces.iter().position(|p| p.symbol == "P").unwrap() as u8;
    let mut stoppers = CellSet::EMPTY;
    for &label in enemy {
        stoppers.insert(cell(label));
    }
    spec.passed_pawns
        .bonus(0, kind, cell(pawn), stoppers)
        .is_some()
}

#[test]
fn a_chess_pawn_is_passed_when_no_enemy_pawn_can_stop_it() {
    assert!(chess_pawn_passed("d5", &[]));
    // Beside or behind it, or two files away: still passed.
    assert!(chess_pawn_passed("d5", &["e5", "c4", "f7", "b6"]));
    // In front of it on its file, or able to take it on its way.
    assert!(!chess_pawn_passed("d5", &["d7"]));
    assert!(!chess_pawn_passed("d5", &["e7"]));
    assert!(!chess_pawn_passed("d5", &["c6"]));
    // From its start cell the way begins with the cell a double step skips.
    assert!(!chess_pawn_passed("d2", &["d3"]));
    assert!(!chess_pawn_passed("d2", &["c4"]));
    // Nearer the last rank, a bigger bonus.
    let pos: ChessPosition = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let spec = pos.spec();
    let kind = spec.pieces.iter().position(|p| p.symbol == "P").unwrap() as u8;
    let bonus = |label: &str| {
        let cell = spec.geometry.cell_by_label(label).unwrap();
        let empty = CellSet::EMPTY;
        spec.passed_pawns
            .bonus(0, kind, cell, empty)
            .unwrap()
            .endgame
    };
    assert!(bonus("d7") > bonus("d6") && bonus("d6") > bonus("d4"));
}

#[test]
fn pawns_that_go_to_hand_are_never_passed() {
    let pos: ShogiPosition = position("4k4/9/9/9/4p4/9/9/4R4/4K4 b - 1");
    let spec = pos.spec();
    let kind = spec.pieces.iter().position(|p| p.symbol == "P").unwrap() as u8;
    assert!(!spec.passed_pawns.scores(0, kind));
}
