//! Every scenario of `docs/rules/shogi.md`, in its order, as a named test; then rules the
//! text implies beyond the scenarios (captures to hand unpromoted, nifu, the game-length cap,
//! impasse actions). Expected results come from the rules file, not from the engine.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset};
use chaturanga_variants::shogi::ShogiPosition;
use common::{game_after, legal_texts, position};

type P = ShogiPosition;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn legal(sfen: &str) -> Vec<String> {
    legal_texts(&position::<P>(sfen))
}

fn is_legal(sfen: &str, mv: &str) -> bool {
    legal(sfen).iter().any(|m| m == mv)
}

/// The legal board moves that start on `cell`.
fn from_cell(sfen: &str, cell: &str) -> Vec<String> {
    legal(sfen)
        .into_iter()
        .filter(|m| m.starts_with(cell))
        .collect()
}

fn status(sfen: Option<&str>, opts: &[&str], moves: &[&str]) -> String {
    game_after::<P>(sfen, opts, moves).status().to_string()
}

/// A game at `sfen` under `opts`, with no move played.
fn game(sfen: &str, opts: &[&str]) -> Game<P> {
    game_after::<P>(Some(sfen), opts, &[])
}

#[test]
fn scenario_01_start_position_has_30_moves() {
    assert_eq!(legal(START).len(), 30);
}

#[test]
fn scenario_02_nifu() {
    let fen = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1";
    assert!(!is_legal(fen, "P*5e"), "own pawn on 5g");
    assert!(is_legal(fen, "P*4e"));
    let tokin = "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1";
    assert!(is_legal(tokin, "P*5e"), "a tokin does not count");
}

#[test]
fn scenario_03_dead_piece_drops() {
    let fen = "4k4/9/9/9/9/9/9/9/4K4 b NLP 1";
    for mv in ["N*1a", "N*1b", "L*1a", "P*1a"] {
        assert!(!is_legal(fen, mv), "{mv} must be illegal");
    }
    for mv in ["N*1c", "L*1b", "P*1b"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
}

#[test]
fn scenario_04_compulsory_promotion() {
    let fen = "4k4/6P2/9/7N1/9/9/9/9/4K4 b - 1";
    assert!(!is_legal(fen, "3b3a"));
    assert!(is_legal(fen, "3b3a+"));
    assert_eq!(from_cell(fen, "2d"), ["2d1b+"]);
    assert!(!is_legal(fen, "2d1b"));
}

#[test]
fn scenario_05_optional_promotion_when_leaving_the_zone() {
    let fen = "4k4/9/5S3/9/9/9/9/9/4K4 b - 1";
    for mv in ["4c5d", "4c5d+", "4c4b", "4c4b+"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
}

#[test]
fn scenario_06_drop_in_the_zone_does_not_promote() {
    let game = game_after::<P>(Some("4k4/9/9/9/9/9/9/9/4K4 b S 1"), &[], &["S*2b", "5a6a"]);
    // The silver on 2b is unpromoted (an `S`, not `+S`).
    assert_eq!(game.position().fen(), "3k5/7S1/9/9/9/9/9/9/4K4 b - 3");
    let moves = legal_texts(game.position());
    for mv in ["2b1a+", "2b2a+", "2b3c+"] {
        assert!(moves.contains(&mv.to_string()), "{mv} must be legal");
    }
}

#[test]
fn scenario_07_uchifuzume() {
    let fen = "7nk/9/7G1/9/9/9/9/9/K8 b P 1";
    assert!(!is_legal(fen, "P*1b"));
    // The drop would give check with no legal reply.
    let after = game_after::<P>(Some("7nk/8P/7G1/9/9/9/9/9/K8 w - 2"), &[], &[]);
    assert!(after.position().is_check());
    assert!(legal_texts(after.position()).is_empty());
}

#[test]
fn scenario_08_other_drop_mates_are_legal() {
    let game = game_after::<P>(Some("7nk/9/7G1/9/9/9/9/9/K8 b G 1"), &[], &["G*1b"]);
    assert!(game.position().is_check());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_09_pawn_push_mate_is_legal() {
    let fen = "7nk/9/7GP/9/9/9/9/9/K8 b - 1";
    for mv in ["1c1b", "1c1b+"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
        assert_eq!(status(Some(fen), &[], &[mv]), "1-0 checkmate", "{mv}");
    }
}

#[test]
fn scenario_10_pawn_drop_check_that_is_not_mate_is_legal() {
    let fen = "7nk/9/9/9/9/9/9/9/K8 b P 1";
    assert!(is_legal(fen, "P*1b"));
    let game = game_after::<P>(Some(fen), &[], &["P*1b"]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).contains(&"1a1b".to_string()));
}

#[test]
fn scenario_11_stalemate_loses() {
    let game = game_after::<P>(Some("8k/6+R2/9/9/9/9/9/9/K8 w - 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 stalemate");
}

#[test]
fn scenario_12_sennichite_draw() {
    let moves = ["5i4h", "5a6b", "4h5i", "6b5a"].repeat(3);
    assert_eq!(status(None, &[], &moves[..11]), "ongoing");
    let game = game_after::<P>(None, &[], &moves);
    assert_eq!(game.position().fen(), START.replace(" 1", " 13"));
    assert_eq!(game.repetitions(), 4);
    assert!(game.positions().iter().all(|p| !p.is_check()));
    assert_eq!(game.status().to_string(), "1/2-1/2 sennichite");
}

#[test]
fn scenario_13_perpetual_check_loses() {
    let fen = "5k3/9/9/9/4R4/9/9/9/K8 b - 1";
    let moves = ["5e4e", "4a5a", "4e5e", "5a4a"].repeat(3);
    let game = game_after::<P>(Some(fen), &[], &moves);
    // Every Black move gave check.
    for (i, p) in game.positions().iter().enumerate().skip(1) {
        if i % 2 == 1 {
            assert!(p.is_check(), "ply {i}");
        }
    }
    assert_eq!(status(Some(fen), &[], &moves[..11]), "ongoing");
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.status().to_string(), "0-1 perpetual-check");
}

#[test]
fn scenario_14_count24_default() {
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2RB2G2S2N2L7Pb2g2s2n2l11p 1";
    let mut g = game(fen, &[]);
    assert_eq!(g.position().actions(), ["count", "count-accepted"]);
    // Black forces the count: Black 30, White 24: draw.
    let outcome = g.perform("count").expect("Black may force the count");
    assert_eq!(outcome.to_string(), "1/2-1/2 impasse");
    assert_eq!(g.status().to_string(), "1/2-1/2 impasse");
    // One pawn moved from White's hand to Black's: Black 31, White 23: White loses.
    let mut g = game("9/4K4/9/9/9/9/9/4k4/9 b 2RB2G2S2N2L8Pb2g2s2n2l10p 1", &[]);
    assert_eq!(g.perform("count").unwrap().to_string(), "1-0 impasse");
    assert_eq!(g.status().to_string(), "1-0 impasse");
    // Under declare27 a Black declaration in the first position loses.
    let mut g = game(fen, &["impasse=declare27"]);
    assert_eq!(g.perform("win").unwrap().to_string(), "0-1 declaration");
    assert_eq!(g.status().to_string(), "0-1 declaration");
}

#[test]
fn scenario_15_declare27() {
    let fen = "RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b 2P2g2s2n4l16p 1";
    let mut g = game(fen, &["impasse=declare27"]);
    assert!(!g.position().is_check());
    assert_eq!(g.position().actions(), ["win"]);
    assert_eq!(g.perform("win").unwrap().to_string(), "1-0 declaration");
    assert_eq!(g.status().to_string(), "1-0 declaration");
    // 27 points are not enough for Black.
    let short = "RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b P2g2s2n4l17p 1";
    let mut g = game(short, &["impasse=declare27"]);
    assert_eq!(g.perform("win").unwrap().to_string(), "0-1 declaration");
    // declare24: 28 points are a draw.
    let mut g = game(fen, &["impasse=declare24"]);
    assert_eq!(g.position().actions(), ["win"]);
    assert_eq!(g.perform("win").unwrap().to_string(), "1/2-1/2 declaration");
    // count24: no declaration, but Black may force a count: 28 against 26, draw.
    let mut g = game(fen, &[]);
    assert!(!g.position().actions().contains(&"win"));
    assert!(g.perform("win").is_err());
    assert_eq!(g.position().actions(), ["count", "count-accepted"]);
    assert_eq!(g.perform("count").unwrap().to_string(), "1/2-1/2 impasse");
}

// ---- Rules the text implies beyond the scenarios ----

#[test]
fn captured_promoted_pieces_go_to_the_hand_unpromoted() {
    // White's gold takes Black's dragon: White holds a rook.
    let game = game_after::<P>(Some("4k4/9/9/4g4/4+R4/9/9/9/4K4 w - 1"), &[], &["5d5e"]);
    assert_eq!(game.position().fen(), "4k4/9/9/9/4g4/9/9/9/4K4 b r 2");
    // Black takes a horse, then a tokin: Black holds a bishop and a pawn.
    let game = game_after::<P>(
        Some("4k4/9/9/4+p4/4+b4/4G4/9/9/4K4 b - 1"),
        &[],
        &["5f5e", "5a4a", "5e5d"],
    );
    assert_eq!(game.position().fen(), "5k3/9/9/4G4/9/9/9/9/4K4 w BP 4");
}

#[test]
fn hands_list_pieces_in_sfen_order_with_counts() {
    // Black captures White's pawn and adds it to two pawns in hand: `S3P`, order R B G S N L P.
    let game = game_after::<P>(Some("4k4/9/9/9/4p4/4P4/9/9/4K4 b S2Pl 1"), &[], &["5f5e"]);
    assert_eq!(game.position().fen(), "4k4/9/9/9/4P4/9/9/9/4K4 w S3Pl 2");
}

#[test]
fn nifu_counts_only_own_unpromoted_pawns() {
    // An enemy pawn on the file does not count.
    assert!(is_legal("4k4/9/4p4/9/9/9/9/9/4K4 b P 1", "P*5e"));
    // The same rule for White: its own pawn forbids, Black's pawn and White's tokin do not.
    let white = legal("4k4/9/4p4/9/9/9/9/9/4K4 w p 2");
    assert!(!white.iter().any(|m| m.ends_with("*5e")), "{white:?}");
    assert!(white.iter().any(|m| m.ends_with("*4e")), "{white:?}");
    let tokin = legal("4k4/9/4+p4/9/9/9/4P4/9/4K4 w p 2");
    assert!(tokin.iter().any(|m| m.ends_with("*5e")), "{tokin:?}");
    // A pawn may still be dropped on a file with the own tokin and the enemy pawn together.
    assert!(is_legal("4k4/9/4p4/9/9/9/4+P4/9/4K4 b P 1", "P*5e"));
}

#[test]
fn game_length_cap_default_500_plies() {
    // 499 plies played; the 500th is a quiet move: draw.
    let fen = "4k4/9/9/9/9/9/9/9/R3K4 b - 500";
    assert_eq!(status(Some(fen), &[], &[]), "ongoing");
    assert_eq!(status(Some(fen), &[], &["9i8i"]), "1/2-1/2 move-limit");
    // max-plies=0 switches the cap off.
    assert_eq!(status(Some(fen), &["max-plies=0"], &["9i8i"]), "ongoing");
}

#[test]
fn game_length_cap_waits_for_a_move_that_does_not_check() {
    let fen = "4k4/9/9/9/9/9/9/9/R3K4 b - 10";
    let opts = ["max-plies=10"];
    // The 10th ply gives check: play continues.
    assert_eq!(status(Some(fen), &opts, &["9i9a"]), "ongoing");
    // White's reply does not check: draw.
    assert_eq!(
        status(Some(fen), &opts, &["9i9a", "5a4b"]),
        "1/2-1/2 move-limit"
    );
    // A further check keeps the game going; the next quiet move draws.
    assert_eq!(
        status(Some(fen), &opts, &["9i9a", "5a5b", "9a9b"]),
        "ongoing"
    );
    assert_eq!(
        status(Some(fen), &opts, &["9i9a", "5a5b", "9a9b", "5b5c"]),
        "1/2-1/2 move-limit"
    );
    // A quiet 10th ply draws at once.
    assert_eq!(status(Some(fen), &opts, &["9i8i"]), "1/2-1/2 move-limit");
}

#[test]
fn count_requests_need_both_kings_entered_and_a_forced_or_accepted_count() {
    // Start position: no impasse action.
    assert!(position::<P>(START).actions().is_empty());
    // Actions are not moves.
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2RB2G2S2N2L7Pb2g2s2n2l11p 1";
    let moves = legal(fen);
    assert!(!moves.iter().any(|m| m == "count" || m == "win"));
    // A Black pawn outside the zone: the count cannot be forced; the request costs nothing.
    let outside = "9/4K4/9/9/9/9/P8/4k4/9 b 2RB2G2S2N2L6Pb2g2s2n2l11p 1";
    let mut g = game(outside, &[]);
    assert_eq!(g.position().actions(), ["count", "count-accepted"]);
    assert!(g.perform("count").is_err());
    assert_eq!(g.status().to_string(), "ongoing");
    g.play_text("9g9f").expect("Black then moves normally");
    // If White accepts, the count takes place: 30 against 24, draw.
    let mut g = game(outside, &[]);
    assert_eq!(
        g.perform("count-accepted").unwrap().to_string(),
        "1/2-1/2 impasse"
    );
    // White may force a count too when all its board pieces are in its zone.
    let mut g = game("9/4K4/9/9/9/9/9/4k4/9 w 2RB2G2S2N2L7Pb2g2s2n2l11p 1", &[]);
    assert_eq!(g.perform("count").unwrap().to_string(), "1/2-1/2 impasse");
}

/// Only what a capture can give is ever in hand: SFEN has no letter for a king or a promoted
/// man there, so a reader that took them would write a different position back (found by
/// the `fen` fuzz target).
#[test]
fn an_sfen_with_a_king_or_a_promoted_man_in_hand_is_refused() {
    for hand in ["k1P", "K", "+P", "2g1k"] {
        let sfen = format!("7n1/9/7G1/9/9/9/9/9/K7k b {hand} 1");
        let refused = P::from_fen_with(&common::options::<P>(&[]), &sfen);
        assert!(refused.is_err(), "{sfen} was accepted");
    }
    let fine = "7n1/9/7G1/9/9/9/9/9/K7k b 2Pg 1";
    assert_eq!(position::<P>(fine).fen(), fine);
}

/// Captured men go back into play, so a position may come back after captures and drops: the
/// repetition is counted over the whole game, not only since the last capture or drop.
#[test]
fn sennichite_counts_positions_across_captures_and_drops() {
    let fen = "8k/9/4g4/9/9/9/4G4/9/K8 b Pp 1";
    let cycle = [
        "P*5d", "5c5d", "9i9h", "5d5c", "9h9i", "P*5f", "5g5f", "1a1b", "5f5g", "1b1a",
    ];
    let moves = cycle.repeat(3);
    assert_eq!(status(Some(fen), &[], &moves[..29]), "ongoing");
    let game = game_after::<P>(Some(fen), &[], &moves);
    assert_eq!(game.position().fen(), fen.replace(" 1", " 31"));
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.status().to_string(), "1/2-1/2 sennichite");
}
