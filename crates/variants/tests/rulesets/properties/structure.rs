//! The evaluation's structure terms: passed pawns, threats by lesser pieces and pairs of
//! confined pieces, derived from the move tables.

use crate::common::position;
use chaturanga_rules::geometry::CellSet;
use chaturanga_rules::weights::TUNED;
use chaturanga_variants::chess::ChessPosition;
use chaturanga_variants::shogi::ShogiPosition;
use chaturanga_variants::xiangqi::XiangqiPosition;

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
    assert!(spec.structure.passable(0, kind));
    spec.structure.passed(0, kind, cell(pawn), stoppers)
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
}

#[test]
fn pawns_that_go_to_hand_are_never_passed() {
    let pos: ShogiPosition = position("4k4/9/9/9/4p4/9/9/4R4/4K4 b - 1");
    let spec = pos.spec();
    let kind = spec.pieces.iter().position(|p| p.symbol == "P").unwrap() as u8;
    assert!(!spec.structure.passable(0, kind));
}

#[test]
fn bishops_are_confined_to_their_colour_and_knights_are_not() {
    let pos: ChessPosition = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let spec = pos.spec();
    let kind = |s: &str| spec.pieces.iter().position(|p| p.symbol == s).unwrap() as u8;
    let cell = |label: &str| spec.geometry.cell_by_label(label).expect("a cell");
    let (bishop, knight, rook) = (kind("B"), kind("N"), kind("R"));
    assert!(spec.structure.confined(0, bishop));
    assert!(!spec.structure.confined(0, knight) && !spec.structure.confined(0, rook));
    let region = |c: &str| spec.structure.region(0, bishop, cell(c));
    assert_eq!(region("c1"), region("h6"));
    assert_ne!(region("c1"), region("f1"));
    // Xiangqi's elephants keep to a lattice of their half: both start in one region, so
    // they never make a pair.
    let pos: XiangqiPosition =
        position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let spec = pos.spec();
    let cell = |label: &str| spec.geometry.cell_by_label(label).expect("a cell");
    let elephant = spec.pieces.iter().position(|p| p.symbol == "B").unwrap() as u8;
    let region = |c: &str| spec.structure.region(0, elephant, cell(c));
    assert_eq!(region("c1"), region("g1"));
    assert_eq!(region("c1"), region("e3"));
}

/// The coefficient of tuned weight `name` in a chess position's features.
fn feature(fen: &str, name: &str) -> (f64, f64) {
    let pos: ChessPosition = position(fen);
    let i = TUNED.iter().position(|t| *t == name).unwrap();
    pos.standard_features().terms[i]
}

#[test]
fn the_structure_terms_count_what_they_name() {
    // The bishop pair: both sides' bishops on both colours, then Black's two on one colour.
    assert_eq!(
        feature("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair_opening"),
        (0.0, 0.0)
    );
    assert_eq!(
        feature("1b2kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair_opening"),
        (1.0, 0.0)
    );
    // A pawn forking a knight and a rook (two threats), against Black's none.
    assert_eq!(
        feature("4k3/8/8/2n1r3/3P4/8/8/4K3 w - - 0 1", "threat_endgame"),
        (0.0, 2.0)
    );
    // A knight attacking a rook is a threat, a rook attacking a knight is not.
    assert_eq!(
        feature("4k3/8/8/4r3/8/5N2/8/4K3 w - - 0 1", "threat_opening"),
        (1.0, 0.0)
    );
    assert_eq!(
        feature("4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1", "threat_opening"),
        (0.0, 0.0)
    );
    // White's passed pawn two moves from promotion, Black's one move away: each counts at
    // its distance.
    assert_eq!(
        feature("4k3/8/3P4/8/8/8/p7/4K3 w - - 0 1", "passed[2]"),
        (3.0 / 8.0, 1.0)
    );
    assert_eq!(
        feature("4k3/8/3P4/8/8/8/p7/4K3 w - - 0 1", "passed"),
        (-3.0 / 8.0, -1.0)
    );
    // A pawn with an enemy pawn in front of it is not passed.
    assert_eq!(
        feature("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1", "passed[3]"),
        (0.0, 0.0)
    );
}
