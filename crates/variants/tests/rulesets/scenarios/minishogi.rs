//! Every scenario of `docs/rules/minishogi.md`, in its order, as a named test; then rules the
//! text implies beyond the scenarios (captures to hand unpromoted, the optional game-length
//! cap). Expected results come from the rules file, not from the engine.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::minishogi::MinishogiPosition;
use common::{game_after, legal_texts, position};

type P = MinishogiPosition;

const START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

fn legal(sfen: &str) -> Vec<String> {
    legal_texts(&position::<P>(sfen))
}

fn is_legal(sfen: &str, mv: &str) -> bool {
    legal(sfen).iter().any(|m| m == mv)
}

fn status(sfen: Option<&str>, opts: &[&str], moves: &[&str]) -> String {
    game_after::<P>(sfen, opts, moves).status().to_string()
}

#[test]
fn scenario_01_start_position_has_14_moves() {
    assert_eq!(legal(START).len(), 14);
}

#[test]
fn scenario_02_zone_is_one_rank() {
    let fen = "k4/5/2S2/5/4K b - 1";
    for mv in ["3c3b", "3c2b"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
    for mv in ["3c3b+", "3c2b+"] {
        assert!(!is_legal(fen, mv), "{mv}: rank b is outside the zone");
    }
}

#[test]
fn scenario_03_optional_promotion_into_and_out_of_the_zone() {
    let fen = "k4/2S2/5/5/4K b - 1";
    assert!(is_legal(fen, "3b3a"));
    assert!(is_legal(fen, "3b3a+"));
    assert!(!is_legal(fen, "3b4c+"));
    let leaving = "2S1k/5/5/5/K4 b - 1";
    assert!(is_legal(leaving, "3a4b"));
    assert!(is_legal(leaving, "3a4b+"));
}

#[test]
fn scenario_04_pawn_must_promote_and_pawn_drops() {
    let fen = "k4/2P2/5/5/4K b P 1";
    assert!(is_legal(fen, "3b3a+"));
    assert!(!is_legal(fen, "3b3a"));
    assert!(!is_legal(fen, "P*4a"), "last rank");
    assert!(!is_legal(fen, "P*3d"), "nifu: pawn on 3b");
    assert!(is_legal(fen, "P*4b"));
}

#[test]
fn scenario_05_uchifuzume() {
    let fen = "3rk/5/3G1/5/K4 b P 1";
    assert!(!is_legal(fen, "P*1b"));
    // The drop would leave White in check with no legal move.
    let after = position::<P>("3rk/4P/3G1/5/K4 w - 2");
    assert!(after.is_check());
    assert!(legal_texts(&after).is_empty());
}

#[test]
fn scenario_06_pawn_drop_check_is_fine() {
    let fen = "3gk/5/3G1/5/K4 b P 1";
    assert!(is_legal(fen, "P*1b"));
    let game = game_after::<P>(Some(fen), &[], &["P*1b"]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).contains(&"2a1b".to_string()));
}

#[test]
fn scenario_07_repetition_is_a_draw_by_default() {
    let moves = ["5e4d", "1a2b", "4d5e", "2b1a"].repeat(3);
    assert_eq!(status(None, &[], &moves[..11]), "ongoing");
    let game = game_after::<P>(None, &[], &moves);
    assert_eq!(game.position().fen(), "rbsgk/4p/5/P4/KGSBR b - 13");
    assert_eq!(game.repetitions(), 4);
    assert!(game.positions().iter().all(|p| !p.is_check()));
    assert_eq!(game.status().to_string(), "1/2-1/2 sennichite");
    assert_eq!(
        status(None, &["repetition=sente-loses"], &moves[..11]),
        "ongoing"
    );
    assert_eq!(
        status(None, &["repetition=sente-loses"], &moves),
        "0-1 sennichite"
    );
}

#[test]
fn scenario_08_perpetual_check_by_white_loses_under_both_options() {
    let fen = "4k/2r2/5/5/1K3 w - 1";
    let moves = ["3b4b", "4e3e", "4b3b", "3e4e"].repeat(3);
    for opts in [&[][..], &["repetition=sente-loses"][..]] {
        let game = game_after::<P>(Some(fen), opts, &moves);
        for (i, p) in game.positions().iter().enumerate().skip(1) {
            if i % 2 == 1 {
                assert!(p.is_check(), "ply {i}: every White move checks");
            }
        }
        assert_eq!(status(Some(fen), opts, &moves[..11]), "ongoing");
        assert_eq!(game.repetitions(), 4);
        assert_eq!(game.status().to_string(), "1-0 perpetual-check", "{opts:?}");
    }
}

#[test]
fn scenario_09_captured_promoted_piece_reverts() {
    let fen = "4k/2p2/2+B2/5/K4 w - 1";
    assert!(position::<P>(fen).is_check());
    let game = game_after::<P>(Some(fen), &[], &["3b3c"]);
    assert_eq!(game.position().fen(), "4k/5/2p2/5/K4 b b 2");
}

#[test]
fn scenario_10_checkmate_by_drop() {
    let fen = "3rk/5/3G1/5/K4 b G 1";
    assert!(is_legal(fen, "G*1b"));
    assert_eq!(status(Some(fen), &[], &["G*1b"]), "1-0 checkmate");
}

// ---- Rules the text implies beyond the scenarios ----

#[test]
fn captured_pieces_go_to_the_captor_hand_unpromoted() {
    // Black's gold takes White's dragon, then White's tokin: Black holds a rook and a pawn.
    let game = game_after::<P>(
        Some("4k/5/2+p2/2+r2/K1G2 b - 1"),
        &[],
        &["3e3d", "1a2a", "3d3c"],
    );
    assert_eq!(game.position().fen(), "3k1/5/2G2/5/K4 w RP 4");
    // White's silver takes Black's promoted silver: White holds a silver.
    let game = game_after::<P>(Some("4k/2s2/2+S2/5/K4 w - 1"), &[], &["3b3c"]);
    assert_eq!(game.position().fen(), "4k/5/2s2/5/K4 b s 2");
}

#[test]
fn no_game_length_cap_by_default() {
    let fen = "4k/5/5/5/R3K b - 1000";
    assert_eq!(status(Some(fen), &[], &["5e5d"]), "ongoing");
}

#[test]
fn game_length_cap_draws_only_when_the_player_to_move_is_not_in_check() {
    let fen = "4k/5/5/5/R3K b - 10";
    let opts = ["max-plies=10"];
    assert_eq!(status(Some(fen), &opts, &[]), "ongoing");
    // A quiet 10th ply draws.
    assert_eq!(status(Some(fen), &opts, &["5e5d"]), "1/2-1/2 move-limit");
    // A checking 10th ply: play continues until a move that does not give check.
    assert_eq!(status(Some(fen), &opts, &["5e5a"]), "ongoing");
    assert_eq!(
        status(Some(fen), &opts, &["5e5a", "1a1b"]),
        "1/2-1/2 move-limit"
    );
    assert_eq!(
        status(Some(fen), &opts, &["5e5a", "1a2b", "5a5b"]),
        "ongoing"
    );
    assert_eq!(
        status(Some(fen), &opts, &["5e5a", "1a2b", "5a5b", "2b2c"]),
        "1/2-1/2 move-limit"
    );
}
