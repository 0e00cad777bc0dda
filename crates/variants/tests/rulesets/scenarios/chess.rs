//! Every scenario of `docs/rules/chess.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::{Position, Reason, Ruleset, Status};
use chaturanga_variants::chess::ChessPosition;
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<ChessPosition>(fen))
}

#[test]
fn scenario_01_kingside_castling_moves_king_and_rook() {
    let fen = "4k3/8/8/8/8/8/P6P/R3K2R w KQ - 0 1";
    assert!(legal(fen).contains(&"e1g1".to_string()));
    let game = game_after::<ChessPosition>(Some(fen), &[], &["e1g1"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/P6P/R4RK1 b - - 1 1");
}

#[test]
fn scenario_02_no_castling_through_an_attacked_cell() {
    let moves = legal("4k3/8/8/8/2b5/8/P6P/R3K2R w KQ - 0 1");
    assert!(
        !moves.contains(&"e1g1".to_string()),
        "f1 is attacked by the bishop"
    );
    assert!(moves.contains(&"e1c1".to_string()));
    let game =
        game_after::<ChessPosition>(Some("4k3/8/8/8/2b5/8/P6P/R3K2R w KQ - 0 1"), &[], &["e1c1"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/2b5/8/P6P/2KR3R b - - 1 1");
}

#[test]
fn scenario_03_rook_may_cross_an_attacked_cell() {
    assert!(legal("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1").contains(&"e1c1".to_string()));
}

#[test]
fn scenario_04_castling_right_lost_for_good_when_the_rook_moved() {
    let game = game_after::<ChessPosition>(
        Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        &[],
        &["h1h2", "e8d8", "h2h1", "d8e8"],
    );
    assert!(!legal_texts(game.position()).contains(&"e1g1".to_string()));
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/8/4K2R w - - 4 3");
}

#[test]
fn scenario_05_en_passant_only_on_the_very_next_move() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    let game = game_after::<ChessPosition>(Some(fen), &[], &["d7d5"]);
    assert_eq!(game.position().fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert!(legal_texts(game.position()).contains(&"e5d6".to_string()));
    let taken = game_after::<ChessPosition>(Some(fen), &[], &["d7d5", "e5d6"]);
    assert_eq!(taken.position().fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    let later = game_after::<ChessPosition>(Some(fen), &[], &["d7d5", "e1d1", "e8d8"]);
    assert!(!legal_texts(later.position()).contains(&"e5d6".to_string()));
}

#[test]
fn scenario_06_en_passant_exposing_the_king_is_illegal() {
    let game = game_after::<ChessPosition>(Some("7k/2p5/8/KP5r/8/8/8/8 b - - 0 1"), &[], &["c7c5"]);
    assert!(!legal_texts(game.position()).contains(&"b5c6".to_string()));
    // The en passant right that cannot be used is not written either.
    assert_eq!(game.position().fen(), "7k/8/8/KPp4r/8/8/8/8 w - - 0 2");
}

#[test]
fn scenario_07_promotion_to_any_of_four_pieces() {
    let moves: Vec<String> = legal("8/P7/8/8/8/8/8/k6K w - - 0 1")
        .into_iter()
        .filter(|m| m.starts_with("a7"))
        .collect();
    assert_eq!(moves, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
    let game = game_after::<ChessPosition>(Some("8/P7/8/8/8/8/8/k6K w - - 0 1"), &[], &["a7a8n"]);
    assert_eq!(game.position().fen(), "N7/8/8/8/8/8/8/k6K b - - 0 1");
    assert!(game.position().parse_move("a7a8").is_err());
}

#[test]
fn scenario_08_fools_mate() {
    let game = game_after::<ChessPosition>(None, &[], &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(game.position().is_check());
    assert_eq!(game.status().to_string(), "0-1 checkmate");
}

#[test]
fn scenario_09_stalemate() {
    let game = game_after::<ChessPosition>(Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}

#[test]
fn scenario_10_dead_position_by_default_and_under_claims() {
    for opts in [&[][..], &["fide-claims=on"][..]] {
        let game = game_after::<ChessPosition>(Some("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), opts, &[]);
        assert_eq!(game.status().to_string(), "1/2-1/2 insufficient-material");
    }
    // Bishops all on one colour, both sides: dead. On both colours: not dead.
    let same = game_after::<ChessPosition>(Some("4k3/8/8/2b5/8/8/8/2B1K3 w - - 0 1"), &[], &[]);
    assert_eq!(same.status().to_string(), "1/2-1/2 insufficient-material");
    let both = game_after::<ChessPosition>(Some("4k3/8/8/3b4/8/8/8/2B1K3 w - - 0 1"), &[], &[]);
    assert_eq!(both.status().to_string(), "ongoing");
    let knights = game_after::<ChessPosition>(Some("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"), &[], &[]);
    assert_eq!(knights.status().to_string(), "ongoing");
    let pawn = game_after::<ChessPosition>(Some("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), &[], &[]);
    assert_eq!(pawn.status().to_string(), "ongoing");
}

#[test]
fn scenario_11_threefold_repetition_is_automatic() {
    let moves = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let game = game_after::<ChessPosition>(None, &[], &moves);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    // One ply earlier the start position had occurred only twice.
    let before = game_after::<ChessPosition>(None, &[], &moves[..7]);
    assert_eq!(before.status().to_string(), "ongoing");
    // Under fide-claims the third occurrence is a claim, the fifth ends the game.
    let mut claimed = game_after::<ChessPosition>(None, &["fide-claims=on"], &moves);
    assert_eq!(
        claimed.status(),
        Status::Ongoing {
            claimable: vec![Reason::ThreefoldRepetition]
        }
    );
    assert!(claimed.claim_draw(Reason::ThreefoldRepetition));
    assert_eq!(claimed.status().to_string(), "1/2-1/2 threefold-repetition");
    let five: Vec<&str> = moves.iter().chain(moves.iter()).copied().collect();
    let game = game_after::<ChessPosition>(None, &["fide-claims=on"], &five);
    assert_eq!(game.status().to_string(), "1/2-1/2 fivefold-repetition");
}

#[test]
fn scenario_12_fifty_move_rule_and_mate_on_the_hundredth_ply() {
    let game =
        game_after::<ChessPosition>(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), &[], &["a1a2"]);
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
    // A mate on the hundredth ply stands.
    let mate =
        game_after::<ChessPosition>(Some("4k3/R7/4K3/8/8/8/8/8 w - - 99 80"), &[], &["a7a8"]);
    assert_eq!(mate.status().to_string(), "1-0 checkmate");
    // Under fide-claims, 100 plies are a claim and 150 end the game.
    let claim = game_after::<ChessPosition>(
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"),
        &["fide-claims=on"],
        &["a1a2"],
    );
    assert_eq!(
        claim.status(),
        Status::Ongoing {
            claimable: vec![Reason::FiftyMoveRule]
        }
    );
    let auto = game_after::<ChessPosition>(
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 149 80"),
        &["fide-claims=on"],
        &["a1a2"],
    );
    assert_eq!(auto.status().to_string(), "1/2-1/2 seventy-five-move-rule");
}

#[test]
fn scenario_13_pinned_knight_and_check_evasions() {
    let pinned = legal("4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1");
    assert!(pinned.iter().all(|m| !m.starts_with("d2")), "{pinned:?}");
    let evasions = legal("4r2k/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(evasions, ["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn setup_round_trip_and_problems_listed() {
    use chaturanga_rules::standard::Setup;
    use chaturanga_rules::{SetupError, SetupProblem};
    let p = position::<ChessPosition>("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 7");
    let setup = p.to_setup();
    assert_eq!(setup.castling, ['K', 'q']);
    assert_eq!(
        ChessPosition::from_setup(p.spec(), &setup).unwrap().fen(),
        p.fen()
    );
    // Every problem is listed, not only the first.
    let spec = p.spec();
    let bad = Setup::parse(spec, "8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
    match ChessPosition::from_setup(spec, &bad) {
        Err(SetupError::Invalid(problems)) => assert_eq!(
            problems,
            [SetupProblem::MissingRoyal(0), SetupProblem::MissingRoyal(1)]
        ),
        other => panic!("{other:?}"),
    }
    let pawns = Setup::parse(spec, "P3k3/8/8/8/8/8/8/4K2p w - - 0 1").unwrap();
    match ChessPosition::from_setup(spec, &pawns) {
        Err(SetupError::Invalid(problems)) => assert_eq!(problems.len(), 2, "{problems:?}"),
        other => panic!("{other:?}"),
    }
    // The side not to move may not be in check.
    assert!(ChessPosition::from_fen(spec, "4k3/8/8/8/8/8/8/4RK2 w - - 0 1").is_err());
    // Rights without king or rook at home, and unusable en passant targets, are dropped.
    let dropped = position::<ChessPosition>("4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1");
    assert_eq!(dropped.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

/// Chess960 GUIs (python-chess, cutechess) write castling rights by the rook's file:
/// Shredder-FEN `HAha`, X-FEN mixing the two. They are read as the standard rights, and a
/// file with no castling rook there is refused.
#[test]
fn shredder_and_x_fen_castling_fields_name_the_same_rights() {
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for field in ["HAha", "AHah", "KAhq", "HQha"] {
        let fen = standard.replace("KQkq", field);
        let read = position::<ChessPosition>(&fen);
        assert_eq!(read.fen(), standard, "{field}");
    }
    for bad in ["FDfd", "HH", "Hh1"] {
        let fen = standard.replace("KQkq", bad);
        let refused = ChessPosition::from_fen_with(&common::options::<ChessPosition>(&[]), &fen);
        assert!(refused.is_err(), "{bad} was accepted");
    }
}

fn chess960(fen: &str) -> ChessPosition {
    ChessPosition::from_fen_with(&common::options::<ChessPosition>(&["chess960=on"]), fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn chess960_after(fen: &str, moves: &[&str]) -> String {
    game_after::<ChessPosition>(Some(fen), &["chess960=on"], moves)
        .position()
        .fen()
}

#[test]
fn scenario_14_chess960_castling_is_the_king_taking_its_rook() {
    let fen = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";
    let position = chess960(fen);
    let moves = legal_texts(&position);
    for mv in ["b1a1", "b1c1", "b1h1"] {
        assert!(moves.contains(&mv.to_string()), "{mv}: {moves:?}");
    }
    assert_eq!(
        chess960_after(fen, &["b1a1"]),
        "4k3/8/8/8/8/8/8/2KR3R b - - 1 1"
    );
    assert_eq!(
        chess960_after(fen, &["b1h1"]),
        "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"
    );
    let san = |text: &str| {
        let mv = position.parse_move(text).unwrap();
        chaturanga_notation::san::to_san(&position, mv).unwrap()
    };
    assert_eq!(san("b1a1"), "O-O-O");
    assert_eq!(san("b1h1"), "O-O");
}

#[test]
fn scenario_15_chess960_castling_where_the_king_stays() {
    let fen = "4k3/8/8/8/8/8/8/6KR w H - 0 1";
    assert!(legal_texts(&chess960(fen)).contains(&"g1h1".to_string()));
    assert_eq!(
        chess960_after(fen, &["g1h1"]),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
}

#[test]
fn scenario_16_chess960_attacked_cells_on_the_kings_path_only() {
    let f1 = legal_texts(&chess960("4k3/8/8/8/8/8/5r2/RK5R w HA - 0 1"));
    assert!(!f1.contains(&"b1h1".to_string()), "{f1:?}");
    assert!(f1.contains(&"b1a1".to_string()), "{f1:?}");
    let d1 = legal_texts(&chess960("3rk3/8/8/8/8/8/8/RK5R w HA - 0 1"));
    assert!(!d1.contains(&"b1h1".to_string()), "{d1:?}");
    assert!(d1.contains(&"b1a1".to_string()), "{d1:?}");
}

#[test]
fn scenario_17_chess960_a_man_on_the_way_stops_castling() {
    let moves = legal_texts(&chess960("4k3/8/8/8/8/8/8/RKN4R w HA - 0 1"));
    assert!(!moves.contains(&"b1a1".to_string()), "{moves:?}");
    assert!(!moves.contains(&"b1h1".to_string()), "{moves:?}");
}

#[test]
fn scenario_18_chess960_x_fen_and_shredder_fen_name_the_same_rooks() {
    let x_fen = "rr2k3/8/8/8/8/8/8/RR2K1R1 w KBb - 0 1";
    for field in ["KBb", "GBb"] {
        let read = chess960(&x_fen.replace("KBb", field));
        assert_eq!(read.fen(), x_fen, "{field}");
    }
    // The b1 rook castles long: king c1, rook d1.
    assert_eq!(
        chess960_after(x_fen, &["e1b1"]),
        "rr2k3/8/8/8/8/8/8/R1KR2R1 b b - 1 1"
    );
}
