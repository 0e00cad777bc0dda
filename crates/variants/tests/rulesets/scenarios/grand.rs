//! Every scenario of `docs/rules/grand.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::grand::{self, GrandPosition};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<GrandPosition>(fen))
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The moves starting on `cell` (`g1` does not match `g10`).
fn from_cell(moves: &[String], cell: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| {
            m.starts_with(cell) && !m[cell.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .cloned()
        .collect()
}

#[test]
fn scenario_01_start_position_has_65_moves() {
    let game = game_after::<GrandPosition>(None, &[], &[]);
    assert_eq!(game.position().fen(), grand::START_FEN);
    assert_eq!(
        position::<GrandPosition>(
            "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
        )
        .fen(),
        grand::START_FEN
    );
    let moves = legal_texts(game.position());
    let mut expected: Vec<String> = Vec::new();
    for file in "abcdefghij".chars() {
        expected.push(format!("{file}3{file}4"));
        expected.push(format!("{file}3{file}5"));
    }
    for file in "bcdefghi".chars() {
        expected.push(format!("a1{file}1"));
        expected.push(format!("j1{file}1"));
    }
    expected.extend(
        [
            "a1a2", "j1j2", // rooks
            "b2a4", "b2c4", "b2d1", "i2h4", "i2j4", "i2g1", // knights
            "c2b1", "c2d1", "h2g1", "h2i1", // bishops
            "d2c1", "d2d1", "d2e1", // queen
            "e2d1", "e2e1", "e2f1", // king
            "f2f1", "f2d1", "f2h1", "f2e4", "f2g4", // marshal
            "g2f1", "g2h1", "g2e1", "g2i1", "g2f4", "g2h4", // cardinal
        ]
        .iter()
        .map(|m| m.to_string()),
    );
    expected.sort();
    assert_eq!(expected.len(), 65);
    assert_eq!(moves, expected);
    let count = |cell: &str| from_cell(&moves, cell).len();
    let pawns: usize = "abcdefghij".chars().map(|f| count(&format!("{f}3"))).sum();
    assert_eq!(pawns, 20);
    assert_eq!((count("b2"), count("i2")), (3, 3));
    assert_eq!((count("a1"), count("j1")), (9, 9));
    assert_eq!((count("c2"), count("h2")), (2, 2));
    assert_eq!(
        (count("d2"), count("e2"), count("f2"), count("g2")),
        (3, 3, 5, 6)
    );
}

#[test]
fn scenario_02_double_step_and_en_passant() {
    let start = game_after::<GrandPosition>(None, &[], &[]);
    assert!(legal_texts(start.position()).contains(&"e3e5".to_string()));

    let fen = "4k5/10/3p6/10/4P5/10/10/10/10/4K5 b - - 0 1";
    let game = game_after::<GrandPosition>(Some(fen), &[], &["d8d6"]);
    assert_eq!(
        game.position().fen(),
        "4k5/10/10/10/3pP5/10/10/10/10/4K5 w - d7 0 2"
    );
    assert!(legal_texts(game.position()).contains(&"e6d7".to_string()));
    let taken = game_after::<GrandPosition>(Some(fen), &[], &["d8d6", "e6d7"]);
    // The pawn on d6 is gone.
    assert_eq!(
        taken.position().fen(),
        "4k5/10/10/3P6/10/10/10/10/10/4K5 b - - 0 2"
    );
    let later = game_after::<GrandPosition>(Some(fen), &[], &["d8d6", "e1f1", "e10f10"]);
    assert!(!legal_texts(later.position()).contains(&"e6d7".to_string()));
}

#[test]
fn scenario_03_optional_promotion_on_rank_8() {
    let moves = legal("r8r/1nb1kcabn1/10/2P7/10/10/10/10/1NB1KCABN1/R8R w - - 0 1");
    assert!(moves.contains(&"c7c8".to_string()));
    assert!(moves.contains(&"c7c8q".to_string()));
}

#[test]
fn scenario_04_promotion_only_to_captured_types() {
    let moves = legal("r3k4r/6P3/10/10/10/10/10/10/1NBQKCAB2/R9 w - - 0 1");
    assert_eq!(from_cell(&moves, "g9"), ["g9g10n", "g9g10r"]);
}

#[test]
fn scenario_05_promotions_restore_the_limit() {
    // After the rook promotion of scenario 4, only a knight is left to promote to.
    let game = game_after::<GrandPosition>(
        Some("r3k4r/6P3/10/10/10/10/10/10/1NBQKCAB2/R9 w - - 0 1"),
        &[],
        &["g9g10r"],
    );
    assert_eq!(
        game.position().fen(),
        "r3k1R2r/10/10/10/10/10/10/10/1NBQKCAB2/R9 b - - 0 1"
    );
    let moves = legal("r3k4r/6P3/10/10/10/10/10/10/1NBQKCAB2/R5R3 w - - 0 1");
    assert_eq!(from_cell(&moves, "g9"), ["g9g10n"]);
}

#[test]
fn scenario_06_no_piece_available() {
    // The scenario's FEN, `r4n1b1r/6P3/10/10/10/10/4k5/10/1NBQKCABN1/R8R w - - 0 1`, has the
    // black king on e4, in check from the cardinal on g2 (diagonal g2-f3-e4) and the marshal
    // on f2 (knight leap) with White to move: not a legal position, and the engine refuses
    // it. The same claim with the black king on e6, where nothing attacks it.
    assert!(
        GrandPosition::from_fen_with(
            &common::options::<GrandPosition>(&[]),
            "r4n1b1r/6P3/10/10/10/10/4k5/10/1NBQKCABN1/R8R w - - 0 1"
        )
        .is_err()
    );
    let fen = "r4n1b1r/6P3/10/10/4k5/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    let moves = legal(fen);
    assert!(from_cell(&moves, "g9").is_empty(), "{moves:?}");
    for m in ["g9g10", "g9f10", "g9h10", "g9g10q", "g9f10q", "g9h10q"] {
        assert!(!moves.contains(&m.to_string()), "{m}");
    }
    // The pawn stays on g9 and the game goes on with other moves.
    let game = game_after::<GrandPosition>(Some(fen), &[], &[]);
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn scenario_07_a_blocked_pawn_still_gives_check() {
    let fen = "r6k1r/6P3/10/10/10/10/10/10/1NBQKCABN1/R8R b - - 0 1";
    let p = position::<GrandPosition>(fen);
    assert!(p.is_check());
    let moves = legal_texts(&p);
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|m| m.starts_with("h10")),
        "only king moves: {moves:?}"
    );
}

#[test]
fn scenario_08_compulsory_promotion_on_the_last_rank() {
    let moves = legal("4k5/9P/10/10/10/10/10/10/1NBQKC1BN1/R8R w - - 0 1");
    assert_eq!(from_cell(&moves, "j9"), ["j9j10a"]);
}

#[test]
fn scenario_09_no_castling() {
    let moves = legal("4k5/10/10/10/10/10/10/10/4K5/9R w - - 0 1");
    assert_eq!(
        from_cell(&moves, "e2"),
        sorted(&[
            "e2d1", "e2e1", "e2f1", "e2d2", "e2f2", "e2d3", "e2e3", "e2f3"
        ])
    );
}

#[test]
fn scenario_10_marshal_moves() {
    let moves = from_cell(&legal("9k/10/10/10/10/5C4/10/10/10/K9 w - - 0 1"), "f5");
    let expected = sorted(&[
        // f-file
        "f5f1", "f5f2", "f5f3", "f5f4", "f5f6", "f5f7", "f5f8", "f5f9", "f5f10",
        // rank 5
        "f5a5", "f5b5", "f5c5", "f5d5", "f5e5", "f5g5", "f5h5", "f5i5", "f5j5",
        // knight moves
        "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6",
    ]);
    assert_eq!(expected.len(), 26);
    assert_eq!(moves, expected);
}

#[test]
fn scenario_11_stalemate() {
    let game =
        game_after::<GrandPosition>(Some("k9/10/1Q8/10/10/10/10/10/10/9K b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}
