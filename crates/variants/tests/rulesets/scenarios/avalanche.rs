//! Every scenario of `docs/rules/avalanche.md`, in its order, as a named test; then the
//! model of a turn in two parts (FEN between the parts, undo, notation), FEN checks and the
//! rule options. Whole turns are written `move;push` as in the rules file.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset, legal_turn_texts, perft, perft_turns};
use chaturanga_variants::avalanche::{AvalanchePosition, START_FEN, TurnPart, turn_parts};
use common::{legal_texts, options, position};

type P = AvalanchePosition;

/// A game from `fen` (or the start) under `opts` after whole turns, each of which must be
/// legal.
fn after(fen: Option<&str>, opts: &[&str], turns: &[&str]) -> Game<P> {
    let o = options::<P>(opts);
    let start = match fen {
        Some(f) => P::from_fen_with(&o, f).unwrap(),
        None => P::start_position(&o).unwrap(),
    };
    let mut game = Game::new(start);
    for t in turns {
        game.play_turn(&turn_parts(t), true)
            .unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    game
}

/// Whether the whole turn `turn` is legal: it plays, and it is in the list of whole turns.
fn turn_legal(fen: Option<&str>, opts: &[&str], turn: &str) -> bool {
    let game = after(fen, opts, &[]);
    let listed = legal_turn_texts(game.position()).iter().any(|t| t == turn);
    let mut g = game.clone();
    let played = g.play_turn(&turn_parts(turn), false).is_ok();
    assert_eq!(listed, played, "{turn}: listed {listed}, played {played}");
    played
}

fn status(game: &Game<P>) -> String {
    game.status().to_string()
}

#[test]
fn scenario_01_a_move_then_a_compulsory_push() {
    assert!(turn_legal(None, &[], "e2e4;d7d6"));
    assert!(turn_legal(None, &[], "e2e4;d7d5"));
    // Ending the turn without a push is illegal: after the move White still has the move,
    // and only pushes are legal.
    assert!(!turn_legal(None, &[], "e2e4;-"));
    let mut game = after(None, &[], &[]);
    game.play_text("e2e4").unwrap();
    assert_eq!(game.position().side_to_move(), 0);
    assert_eq!(game.position().turn_part(), TurnPart::Push);
    let pushes = legal_texts(game.position());
    assert_eq!(pushes.len(), 16, "{pushes:?}");
    assert!(pushes.iter().all(|p| p.ends_with('6') || p.ends_with('5')));
    assert!(game.play_text("g1f3").is_err());
    game.play_text("d7d5").unwrap();
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // push=single-step: never two cells.
    let single = ["push=single-step"];
    assert!(turn_legal(None, &single, "e2e4;d7d6"));
    assert!(!turn_legal(None, &single, "e2e4;d7d5"));
}

#[test]
fn scenario_02_no_pawn_can_be_pushed_so_the_turn_is_the_move_alone() {
    let fen = "4k3/8/8/8/8/3p4/3N4/4K3 w - - 0 1";
    let turns = legal_turn_texts(&position::<P>(fen));
    // With the knight still on d2 the pawn cannot move (a push never captures on c2 or e2).
    for king in ["e1d1", "e1f1", "e1f2"] {
        assert!(turns.contains(&format!("{king};-")), "{king}: {turns:?}");
    }
    let game = after(Some(fen), &[], &["e1f1;-"]);
    assert_eq!(game.position().side_to_move(), 1);
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/3p4/3N4/5K2 b - - 1 1");
    // Once the knight has left d2, d3-d2 is the push.
    assert!(turns.contains(&"d2b3;d3d2".to_string()), "{turns:?}");
    assert!(!turns.contains(&"d2b3;-".to_string()));
}

#[test]
fn scenario_03_a_self_checking_push_loses_or_is_illegal() {
    let fen = "1k6/p7/8/4p3/8/5K2/8/7R w - - 0 1";
    assert!(turn_legal(Some(fen), &[], "h1g1;e5e4"));
    let game = after(Some(fen), &[], &["h1g1;e5e4"]);
    assert_eq!(status(&game), "0-1 self-check");
    assert_eq!(legal_texts(game.position()), Vec::<String>::new());
    for safe in ["h1g1;a7a6", "h1g1;a7a5"] {
        let game = after(Some(fen), &[], &[safe]);
        assert_eq!(status(&game), "ongoing", "{safe}");
    }
    let illegal = ["self-check-push=illegal"];
    assert!(!turn_legal(Some(fen), &illegal, "h1g1;e5e4"));
    assert!(turn_legal(Some(fen), &illegal, "h1g1;a7a6"));
    assert!(turn_legal(Some(fen), &illegal, "h1g1;a7a5"));
}

#[test]
fn scenario_04_mate_by_the_move_then_a_forced_self_checking_push() {
    let fen = "7k/6pp/6PP/4p3/8/5K2/8/R7 w - - 0 1";
    for opts in [&[][..], &["self-check-push=illegal"][..]] {
        let mut game = after(Some(fen), opts, &[]);
        game.play_text("a1a8").unwrap();
        // The mate stands on the board, but the turn is not over: the push is compulsory.
        assert_eq!(legal_texts(game.position()), ["e5e4"], "{opts:?}");
        assert_eq!(status(&game), "ongoing");
        game.play_text("e5e4").unwrap();
        assert_eq!(status(&game), "0-1 self-check", "{opts:?}");
    }
}

#[test]
fn scenario_05_promotion_by_a_push() {
    // King on g4: no piece on b1 attacks it, so every choice is a safe push.
    let fen = "4k3/7p/8/8/6K1/8/1p6/7N w - - 0 1";
    let turns = legal_turn_texts(&position::<P>(fen));
    for choice in ["q", "r", "b", "n"] {
        assert!(turns.contains(&format!("h1g3;b2b1{choice}")), "{turns:?}");
    }
    let game = after(Some(fen), &[], &["h1g3;b2b1q"]);
    assert_eq!(status(&game), "ongoing");
    assert_eq!(game.position().fen(), "4k3/7p/8/8/6K1/6N1/8/1q6 b - - 0 1");
    // The owner's new queen moves in his next turn.
    assert!(legal_texts(game.position()).contains(&"b1b8".to_string()));
    // h7-h5 would attack g4: self-checking.
    assert_eq!(
        status(&after(Some(fen), &[], &["h1g3;h7h5"])),
        "0-1 self-check"
    );
    // King on b4 with the b-file open: a queen or rook on b1 would attack it, so every choice
    // of b2-b1 is self-checking, the knight included.
    let fen = "4k3/7p/8/8/1K6/8/1p6/7N w - - 0 1";
    for choice in ["q", "r", "b", "n"] {
        let turn = format!("h1g3;b2b1{choice}");
        assert!(turn_legal(Some(fen), &[], &turn));
        assert_eq!(status(&after(Some(fen), &[], &[&turn])), "0-1 self-check");
        assert!(!turn_legal(Some(fen), &["self-check-push=illegal"], &turn));
    }
    let illegal = ["self-check-push=illegal"];
    assert!(turn_legal(Some(fen), &illegal, "h1g3;h7h6"));
    assert!(turn_legal(Some(fen), &illegal, "h1g3;h7h5"));
}

#[test]
fn scenario_06_a_push_can_give_check() {
    let fen = "4k3/3p4/8/1B6/8/8/8/4K3 w - - 0 1";
    for turn in ["e1e2;d7d6", "e1e2;d7d5"] {
        let game = after(Some(fen), &[], &[turn]);
        assert!(game.position().is_check(), "{turn}");
        // The move part must remove the check: only king moves off the diagonal do.
        assert_eq!(
            legal_texts(game.position()),
            ["e8d8", "e8e7", "e8f7", "e8f8"],
            "{turn}"
        );
    }
}

#[test]
fn scenario_07_the_move_part_alone_must_answer_a_check() {
    let fen = "4k3/8/8/8/1b6/3p4/P7/4K3 w - - 0 1";
    let p = position::<P>(fen);
    assert!(p.is_check());
    let moves = legal_texts(&p);
    assert!(!moves.contains(&"a2a3".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1f1".to_string()));
    assert!(
        legal_turn_texts(&p).iter().all(|t| !t.starts_with("a2a3")),
        "no turn starts with a2a3"
    );
    assert!(!turn_legal(Some(fen), &[], "a2a3;d3d2"));
}

#[test]
fn scenario_08_no_en_passant() {
    // Black's own double step beside the white pawn.
    let game = after(
        Some("4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 1"),
        &[],
        &["d7d5;h2h3"],
    );
    assert!(game.position().fen().contains(" w - - "));
    assert!(!legal_texts(game.position()).contains(&"e5d6".to_string()));
    // White pushes the black pawn two cells himself.
    let game = after(
        Some("4k3/3p4/8/4P3/8/8/7P/4K3 w - - 0 1"),
        &[],
        &["e1e2;d7d5", "e8f7;h2h3"],
    );
    assert_eq!(game.position().side_to_move(), 0);
    assert!(!legal_texts(game.position()).contains(&"e5d6".to_string()));
    // Neither may Black's pawns take a white pawn pushed two cells.
    let game = after(
        Some("4k3/7p/8/8/3p4/8/4P3/4K3 b - - 0 1"),
        &[],
        &["e8f8;e2e4", "e1f1;h7h6"],
    );
    assert_eq!(game.position().side_to_move(), 1);
    assert!(!legal_texts(game.position()).contains(&"d4e3".to_string()));
}

#[test]
fn scenario_09_stalemate() {
    let game = after(Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert_eq!(status(&game), "1/2-1/2 stalemate");
}

#[test]
fn scenario_10_a_push_resets_the_halfmove_clock() {
    let game = after(
        Some("4k3/7p/8/8/8/8/8/4K1N1 w - - 30 20"),
        &[],
        &["g1f3;h7h6"],
    );
    assert_eq!(game.position().fen(), "4k3/8/7p/8/8/5N2/8/4K3 b - - 0 20");
    assert_eq!(game.position().quiet_plies(), 0);
    // A turn without capture, own pawn move or push counts one.
    let game = after(
        Some("4k3/8/8/8/8/8/8/R3K1N1 w - - 30 20"),
        &[],
        &["g1f3;-", "e8d7;-"],
    );
    assert_eq!(game.position().fen(), "8/3k4/8/8/8/5N2/8/R3K3 w - - 32 21");
    // A capture or an own pawn move resets it too.
    let game = after(Some("4k3/8/8/8/8/8/r7/R3K3 w - - 30 20"), &[], &["a1a2;-"]);
    assert_eq!(game.position().quiet_plies(), 0);
}

#[test]
fn scenario_11_castling_conditions_at_the_move_part() {
    let fen = "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1";
    let p = position::<P>(fen);
    assert!(!legal_texts(&p).contains(&"e1g1".to_string()));
    assert!(legal_turn_texts(&p).iter().all(|t| !t.starts_with("e1g1")));
    // Without the bishop's attack, castling is a move part like any other.
    let free = position::<P>("4k3/7p/8/8/8/8/8/4K2R w K - 0 1");
    assert!(legal_turn_texts(&free).contains(&"e1g1;h7h6".to_string()));
}

// The turn as two parts.

#[test]
fn the_position_between_the_parts_has_a_fen_and_undoes() {
    let mut game = after(None, &[], &[]);
    game.play_text("e2e4").unwrap();
    let mid = game.position().fen();
    assert_eq!(
        mid,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 push"
    );
    let reread = position::<P>(&mid);
    assert_eq!(reread.fen(), mid);
    assert_eq!(reread.hash(), game.position().hash());
    assert_eq!(reread.turn_part(), TurnPart::Push);
    // Same placement at a turn start hashes differently.
    let start_like = position::<P>("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    assert_ne!(start_like.hash(), reread.hash());
    // Undo takes back one part.
    game.play_text("d7d6").unwrap();
    assert!(game.undo());
    assert_eq!(game.position().fen(), mid);
    assert!(game.undo());
    assert_eq!(game.position().fen(), START_FEN);
    // Positions are compared for repetition only at turn starts.
    assert!(start_like.repetition_point());
    assert!(!reread.repetition_point());
}

#[test]
fn a_whole_turn_plays_atomically() {
    let mut game = after(None, &[], &[]);
    // An illegal push after a legal move: nothing is played.
    assert!(game.play_turn(&turn_parts("e2e4;d7d4"), false).is_err());
    assert_eq!(game.moves().len(), 0);
    // Missing push.
    assert!(game.play_turn(&["e2e4"], false).is_err());
    assert!(game.play_turn(&turn_parts("e2e4;-"), false).is_err());
    assert_eq!(game.moves().len(), 0);
    // A push where none is possible.
    let mut bare = after(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &[], &[]);
    assert!(bare.play_turn(&turn_parts("a1a2;a7a6"), false).is_err());
    assert!(bare.play_turn(&turn_parts("a1a2;-"), false).is_ok());
    assert_eq!(bare.position().side_to_move(), 1);
}

#[test]
fn notation_of_parts_and_turns() {
    let p = position::<P>(START_FEN);
    let turns = legal_turn_texts(&p);
    assert_eq!(turns.len(), 320);
    assert!(turns.contains(&"g1f3;h7h5".to_string()));
    // A SAN-like description of a push: a pawn move.
    let mut mid = p.clone();
    mid.play_unchecked(mid.parse_move("e2e4").unwrap());
    let push = mid.parse_move("d7d5").unwrap();
    let d = mid.describe(push).unwrap();
    assert!(d.pawn && !d.capture && d.to == "d5");
    assert_eq!(chaturanga_notation::san::to_san(&mid, push).unwrap(), "d5");
}

// FEN.

#[test]
fn fen_reading_and_its_checks() {
    let o = options::<P>(&[]);
    // The side not to move in check: he has lost by a self-checking push.
    let lost = "1k6/p7/8/8/4p3/5K2/8/6R1 b - - 0 1";
    let p = P::from_fen_with(&o, lost).unwrap();
    assert_eq!(p.loser(), Some(0));
    assert_eq!(p.fen(), lost);
    assert_eq!(legal_texts(&p), Vec::<String>::new());
    assert_eq!(Game::new(p).status().to_string(), "0-1 self-check");
    let bad = [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 pull",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 push x",
        // A push is to be made but Black has no pawn that can move.
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 push",
        // Three kings.
        "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
        // A pawn on its own first rank.
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
    ];
    for fen in bad {
        assert!(P::from_fen_with(&o, fen).is_err(), "{fen:?}");
    }
    // balanced=on: White's first turn has no push, so no position waits for one.
    let balanced = options::<P>(&["balanced=on"]);
    assert!(
        P::from_fen_with(
            &balanced,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 push"
        )
        .is_err()
    );
    // An en passant field is read and dropped: there is no en passant.
    assert_eq!(
        position::<P>("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").fen(),
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn balanced_option_skips_whites_first_push_only() {
    let opts = ["balanced=on"];
    assert!(turn_legal(None, &opts, "e2e4;-"));
    assert!(!turn_legal(None, &opts, "e2e4;d7d6"));
    let game = after(None, &opts, &["e2e4;-"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // Black's first turn has its push.
    assert!(
        turn_legal(None, &opts, "e2e4;-") && {
            let g = after(None, &opts, &["e2e4;-"]);
            legal_turn_texts(g.position()).contains(&"e7e5;d2d4".to_string())
        }
    );
    assert_eq!(
        legal_turn_texts(after(None, &opts, &[]).position()).len(),
        20
    );
}

#[test]
fn rule_options() {
    let specs = P::option_specs();
    for good in [
        "push=single-step",
        "push=pawn-move",
        "self-check-push=illegal",
        "balanced=on",
        "fide-claims=on",
    ] {
        assert!(
            chaturanga_rules::RuleOptions::parse(specs, &[good]).is_ok(),
            "{good}"
        );
    }
    for bad in [
        "push=two",
        "self-check-push=wins",
        "balanced=yes",
        "check=italian",
    ] {
        assert!(
            chaturanga_rules::RuleOptions::parse(specs, &[bad]).is_err(),
            "{bad}"
        );
    }
    // fide-claims: threefold repetition becomes a claim.
    let claims = after(None, &["fide-claims=on"], &[]);
    assert!(claims.position().draw_rules().repetition_claim.is_some());
}

#[test]
fn threefold_repetition_at_turn_starts() {
    // No pawns: every turn is a move alone, and rook shuffles repeat the position.
    let mut game = after(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &[], &[]);
    for t in [
        "a1a2;-", "e8d8;-", "a2a1;-", "d8e8;-", "a1a2;-", "e8d8;-", "a2a1;-", "d8e8;-",
    ] {
        assert_eq!(status(&game), "ongoing", "{t}");
        game.play_turn(&turn_parts(t), false).unwrap();
    }
    assert_eq!(status(&game), "1/2-1/2 threefold-repetition");
}

#[test]
fn per_part_and_whole_turn_counts() {
    let p = position::<P>(START_FEN);
    // Per part: 20 moves, then 16 pushes after each.
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 320);
    // Whole turns (the rules file's perft).
    assert_eq!(perft_turns(&p, 1), 320);
    assert!(p.whole_turns());
}

#[test]
fn between_the_parts_the_opponent_may_be_in_check() {
    // Black's move part gives check; his push is still to come.
    let mut game = after(Some("4k3/3p4/8/8/8/8/q3P3/4K3 b - - 0 5"), &[], &[]);
    let mut mid = game.clone();
    mid.play_text("a2a5").unwrap();
    let fen = mid.position().fen();
    assert_eq!(fen, "4k3/3p4/8/q7/8/8/4P3/4K3 b - - 0 5 push");
    assert_eq!(position::<P>(&fen).fen(), fen);
    // The mover himself in check between the parts is impossible.
    assert!(P::from_fen_with(&options::<P>(&[]), "4k3/8/8/8/8/8/4P3/4K2r w - - 0 5 push").is_err());
    game.play_turn(&turn_parts("a2a5;e2e3"), false).unwrap();
    assert!(game.position().is_check());
}

#[test]
fn a_loss_the_board_does_not_show_has_its_own_fen_field() {
    // b2-b1=N does not attack b4, but a queen there would: the push lost all the same.
    let fen = "4k3/7p/8/8/1K6/8/1p6/7N w - - 0 3";
    let game = after(Some(fen), &[], &["h1g3;b2b1n"]);
    let written = game.position().fen();
    assert_eq!(written, "4k3/7p/8/8/1K6/6N1/8/1n6 b - - 0 3 self-check");
    let reread = position::<P>(&written);
    assert_eq!(reread.loser(), Some(0));
    assert_eq!(reread.hash(), game.position().hash());
    assert_eq!(Game::new(reread).status().to_string(), "0-1 self-check");
    // With a queen the plain FEN shows it (the white king stands attacked).
    let game = after(Some(fen), &[], &["h1g3;b2b1q"]);
    assert_eq!(game.position().fen(), "4k3/7p/8/8/1K6/6N1/8/1q6 b - - 0 3");
}

#[test]
fn a_lost_game_where_the_winner_stands_in_check_reads_back() {
    // Black's move part checked White (Ne5 attacks d3), then his push exposed his own king
    // to the queen on h8: Black has lost, with both kings attacked.
    let fen = "4k2Q/8/8/4n3/8/3K4/8/8 w - - 0 20";
    let p = position::<P>(fen);
    assert_eq!(p.loser(), Some(1));
    assert_eq!(p.fen(), fen);
    assert_eq!(Game::new(p).status().to_string(), "1-0 self-check");
}
