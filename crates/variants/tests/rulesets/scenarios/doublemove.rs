//! Every scenario of `docs/rules/doublemove.md`, in its order, as a named test; then perft
//! per part and per whole turn on small positions counted by hand, the repetition rule (turn
//! starts only) and the 100-single-move rule.

use crate::common;

use chaturanga_rules::{
    Position, Reason, Status, perft, perft_divide, perft_turns, perft_turns_divide,
};
use chaturanga_variants::doublemove::DoubleMovePosition;
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<DoubleMovePosition>(fen))
}

fn has(moves: &[String], text: &str) -> bool {
    moves.iter().any(|m| m == text)
}

#[test]
fn scenario_01_whites_first_turn_is_one_move() {
    let start = game_after::<DoubleMovePosition>(None, &[], &[]);
    assert_eq!(
        start.position().fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"
    );
    assert_eq!(start.position().parts_left(), 1);
    let game = game_after::<DoubleMovePosition>(None, &[], &["e2e4"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 2"
    );
    assert_eq!(game.position().side_to_move(), 1);
    // Black then makes two moves: the first leaves Black to move with one part left.
    let game = game_after::<DoubleMovePosition>(None, &[], &["e2e4", "e7e5"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 1"
    );
    let game = game_after::<DoubleMovePosition>(None, &[], &["e2e4", "e7e5", "d7d6"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 2"
    );
    // The FEN without the seventh field means a turn start: one part at White's first turn.
    let short =
        position::<DoubleMovePosition>("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(short.parts_left(), 1);
}

#[test]
fn scenario_02_king_capture_on_the_first_move_ends_the_game() {
    let fen = "4k3/8/8/7Q/8/8/8/4K3 w - - 0 10 2";
    assert!(has(&legal(fen), "h5e8"));
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["h5e8"]);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    // No second White move: the position after it has no moves at all, and Black is to move.
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.position().side_to_move(), 1);
    assert_eq!(game.position().fen(), "4Q3/8/8/8/8/8/8/4K3 b - - 0 10 2");
    // Per whole turn, h5e8 is one complete turn; per part, nothing lies below it.
    let p = position::<DoubleMovePosition>(fen);
    let turns = perft_turns_divide(&p, 1);
    let by_turn = turns
        .iter()
        .find(|(m, _)| p.move_text(*m) == "h5e8")
        .unwrap();
    assert_eq!(by_turn.1, 1);
    let parts = perft_divide(&p, 2);
    let by_part = parts
        .iter()
        .find(|(m, _)| p.move_text(*m) == "h5e8")
        .unwrap();
    assert_eq!(by_part.1, 0);
}

#[test]
fn scenario_03_two_moves_in_one_turn_take_the_king() {
    let game = game_after::<DoubleMovePosition>(None, &[], &["e2e4", "e7e5", "d7d6", "f1b5"]);
    // The bishop went f1-b5 through e2, d3, c4; White still has the second part.
    assert_eq!(game.position().side_to_move(), 0);
    assert_eq!(game.status().to_string(), "ongoing");
    assert!(has(&legal_texts(game.position()), "b5e8"));
    let game =
        game_after::<DoubleMovePosition>(None, &[], &["e2e4", "e7e5", "d7d6", "f1b5", "b5e8"]);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
}

#[test]
fn scenario_04_moving_into_attack_is_legal() {
    let moves = legal("4k3/8/8/8/8/8/4q3/4K3 w - - 0 5 2");
    assert_eq!(moves, ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
}

#[test]
fn scenario_05_castling_out_of_and_through_attack() {
    // The bishop on c4 attacks f1, which the king crosses.
    assert!(has(&legal("4k3/8/8/8/2b5/8/8/4K2R w K - 0 5 2"), "e1g1"));
    // With a rook on e5 the king itself is attacked down the e-file: still legal.
    let attacked = "4k3/8/8/4r3/2b5/8/8/4K2R w K - 0 5 2";
    assert!(has(&legal(attacked), "e1g1"));
    let game = game_after::<DoubleMovePosition>(Some(attacked), &[], &["e1g1"]);
    assert_eq!(
        game.position().fen(),
        "4k3/8/8/4r3/2b5/8/8/5RK1 w - - 1 5 1"
    );
    // Landing on an attacked cell too: a black rook on g8 attacks g1.
    assert!(has(&legal("4k1r1/8/8/8/8/8/8/4K2R w K - 0 5 2"), "e1g1"));
}

#[test]
fn scenario_06_castling_blocked_by_a_piece_until_it_leaves_in_the_same_turn() {
    let fen = "4k3/8/8/8/8/8/8/4K1NR w K - 0 5 2";
    assert!(!has(&legal(fen), "e1g1"));
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["g1f3"]);
    assert_eq!(game.position().side_to_move(), 0);
    assert!(has(&legal_texts(game.position()), "e1g1"));
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["g1f3", "e1g1"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/5N2/8/5RK1 b - - 2 5 2");
}

#[test]
fn scenario_07_no_en_passant() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 5 2";
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["d7d5"]);
    // The double step writes no en passant cell.
    assert_eq!(game.position().fen(), "4k3/8/8/3pP3/8/8/8/4K3 b - - 0 5 1");
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["d7d5", "e8f8"]);
    assert_eq!(game.position().fen(), "5k2/8/8/3pP3/8/8/8/4K3 w - - 1 6 2");
    let moves = legal_texts(game.position());
    assert!(!has(&moves, "e5d6"), "{moves:?}");
    assert_eq!(
        moves,
        ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e5e6"],
        "e5-e6 and the king moves"
    );
    // A FEN that names d6 anyway does not create the right either.
    let named = position::<DoubleMovePosition>("5k2/8/8/3pP3/8/8/8/4K3 w - d6 1 6 2");
    assert!(!has(&legal_texts(&named), "e5d6"));
    assert_eq!(named.fen(), "5k2/8/8/3pP3/8/8/8/4K3 w - - 1 6 2");
}

#[test]
fn scenario_08_same_piece_twice_back_to_the_start() {
    let game = game_after::<DoubleMovePosition>(None, &[], &["e2e4", "g8f6", "f6g8"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2 2 2"
    );
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn scenario_09_no_legal_first_move_is_a_draw() {
    let fen = "kb6/prp5/PpP5/1Pp5/2P5/8/8/4K3 b - - 0 30 2";
    assert!(legal(fen).is_empty());
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &[]);
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
    assert_eq!(perft(game.position(), 1), 0);
    assert_eq!(perft_turns(game.position(), 1), 0);
}

#[test]
fn scenario_10_no_legal_second_move_is_a_draw() {
    let fen = "kb6/prp4p/PpP5/1Pp4P/2P5/8/8/4K3 b - - 0 30 2";
    assert_eq!(legal(fen), ["h7h6"]);
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["h7h6"]);
    assert_eq!(game.position().side_to_move(), 1, "still Black's turn");
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
    let p = position::<DoubleMovePosition>(fen);
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(perft(&p, 2), 0);
    assert_eq!(perft_turns(&p, 1), 1);
    assert_eq!(perft_turns(&p, 2), 0);
}

#[test]
fn scenario_11_promotion_and_king_capture_in_one_turn() {
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 5 2";
    let promotions: Vec<String> = legal(fen)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    // Promotion is compulsory: no plain b7b8.
    assert_eq!(promotions, ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]);
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["b7b8q"]);
    assert_eq!(game.position().side_to_move(), 0);
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["b7b8q", "b8e8"]);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
}

#[test]
fn scenario_12_fifty_move_rule_counts_single_moves() {
    // 96 quiet single moves so far; White's turn (two moves) and Black's first move make 99.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 96 60 2";
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["a1a2", "a2a3", "e8d8"]);
    assert_eq!(game.position().quiet_plies(), 99);
    assert_eq!(game.status().to_string(), "ongoing");
    // The hundredth single move (Black's second part) draws.
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["a1a2", "a2a3", "e8d8", "d8e8"]);
    assert_eq!(game.position().quiet_plies(), 100);
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
}

// Perft per part and per whole turn, counted by hand.

/// White: Kh1, Nb6; Black: Ka8; White to move with two parts. The knight on b6 can take the
/// king on a8 at once.
const KNIGHT_FEN: &str = "k7/8/1N6/8/8/8/8/7K w - - 0 20 2";

#[test]
fn perft_per_part_and_per_turn_differ_by_shortened_turns() {
    let p = position::<DoubleMovePosition>(KNIGHT_FEN);
    // Depth 1 (per part): knight b6 -> a8 (takes the king), c8, d7, d5, c4, a4 = 6; king h1 ->
    // g1, g2, h2 = 3. Total 9.
    assert_eq!(perft(&p, 1), 9);
    // Depth 2 (per part): after Nxa8 the game is over (0). After the 8 other first parts White
    // moves again; knight moves + king moves (no check in this game, so all of them):
    //   Nc8: c8 -> a7 b6 d6 e7 = 4, + Kh1 3 = 7
    //   Nd7: d7 -> b8 b6 c5 e5 f6 f8 = 6, + 3 = 9
    //   Nd5: d5 -> b6 b4 c3 e3 f4 f6 e7 c7 = 8, + 3 = 11
    //   Nc4: c4 -> a5 a3 b2 d2 e3 e5 d6 b6 = 8, + 3 = 11
    //   Na4: a4 -> b6 c5 c3 b2 = 4, + 3 = 7
    //   Kg1: knight 6 + king g1 -> f1 f2 g2 h2 h1 = 5 -> 11
    //   Kg2: knight 6 + king g2 -> f1 g1 h1 f2 h2 f3 g3 h3 = 8 -> 14
    //   Kh2: knight 6 + king h2 -> g1 h1 g2 g3 h3 = 5 -> 11
    // 7 + 9 + 11 + 11 + 7 + 11 + 14 + 11 = 81.
    assert_eq!(perft(&p, 2), 81);
    // Per whole turn, depth 1: the 81 two-part turns plus Nxa8, a turn that ends after its
    // first part because it takes the king: 82.
    assert_eq!(perft_turns(&p, 1), 82);
    // Depth 3 (per part): of the 81 two-part turns, 3 take the king with their second part
    // (Kg1/Kg2/Kh2 then Nxa8; no other first part leaves the knight a move to a8), leaving 78
    // positions where Black's king on a8 has a7, b7, b8 (a white knight there is captured):
    // 78 * 3 = 234.
    assert_eq!(perft(&p, 3), 234);
    // Depth 4 (per part) = depth 2 (per turn): Black's two-part turn from a8 is, whatever the
    // knight does (no check; a white piece next to the king can be captured), Ka7 then 5
    // (a8 b8 b7 a6 b6), Kb8 then 5 (a8 c8 a7 b7 c7), Kb7 then 8: 18 turns. White's king
    // stays out of reach. 78 * 18 = 1404, both ways.
    assert_eq!(perft(&p, 4), 1404);
    assert_eq!(perft_turns(&p, 2), 1404);
}

#[test]
fn perft_bare_kings_every_turn_has_two_parts() {
    // Kh1 against Ka8: per part 3, then 18 (Kg1 5, Kg2 8, Kh2 5), then Black's 3 after each
    // of them: 54; per turn 18, then 18 * 18 = 324 (Black's turn counted as for KNIGHT_FEN).
    let p = position::<DoubleMovePosition>("k7/8/8/8/8/8/8/7K w - - 0 20 2");
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 18);
    assert_eq!(perft(&p, 3), 54);
    assert_eq!(perft(&p, 4), 324);
    assert_eq!(perft_turns(&p, 1), 18);
    assert_eq!(perft_turns(&p, 2), 324);
}

#[test]
fn perft_from_the_start_whites_first_turn_is_one_part() {
    let p = position::<DoubleMovePosition>(chaturanga_variants::doublemove::START_FEN);
    // White's first turn: the 20 chess moves, one part, so one whole turn each.
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft_turns(&p, 1), 20);
    // Black's first part: the 20 chess replies after each (no check, no en passant, and at
    // this depth neither matters): 400.
    assert_eq!(perft(&p, 2), 400);
}

// Repetition: only positions at the start of a turn count.

#[test]
fn repetition_is_counted_only_at_turn_starts() {
    // W: Nf3 / Nc3; B: Nf6 / Ng8; W: Nb1 / Ng1; B: Nf6 / Ng8; W: Nf3 ...
    // The position after White's Ng1-f3 with the b1 knight at home (a mid-turn position)
    // occurs for the third time below, while no turn-start position has yet occurred three
    // times: the game goes on.
    let cycle = [
        "g1f3", "b1c3", "g8f6", "f6g8", "c3b1", "f3g1", "g8f6", "f6g8",
    ];
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2 2";
    let mut moves: Vec<&str> = cycle.to_vec();
    moves.push("g1f3");
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &moves);
    assert!(!game.position().repetition_point());
    assert_eq!(game.repetitions(), 3, "the mid-turn position, three times");
    assert_eq!(game.status().to_string(), "ongoing");
    // Completing a second cycle brings the start position (a turn start) back a third time.
    let twice: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let before = game_after::<DoubleMovePosition>(Some(fen), &[], &twice[..15]);
    assert_eq!(before.status().to_string(), "ongoing");
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &twice);
    assert!(game.position().repetition_point());
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    // Under fide-claims the third occurrence is a claim.
    let claim = game_after::<DoubleMovePosition>(Some(fen), &["fide-claims=on"], &twice);
    assert_eq!(
        claim.status(),
        Status::Ongoing {
            claimable: vec![Reason::ThreefoldRepetition]
        }
    );
}

#[test]
fn a_mid_turn_position_is_not_the_same_as_a_turn_start() {
    // The same placement with White to move, once with two parts (a turn start) and once with
    // one part left (mid-turn), hashes differently.
    let start = position::<DoubleMovePosition>("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 2");
    let mid = position::<DoubleMovePosition>("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1");
    assert!(start.repetition_point());
    assert!(!mid.repetition_point());
    assert_ne!(start.hash(), mid.hash());
}

// The 100-single-move rule.

#[test]
fn hundred_single_moves_draw_and_progress_resets_the_count() {
    let fen = "4k3/p7/8/8/8/8/8/R3K3 w - - 98 60 2";
    // Two quiet single moves by White make 100: drawn at once.
    let game = game_after::<DoubleMovePosition>(Some(fen), &[], &["a1b1", "b1c1"]);
    assert_eq!(game.position().quiet_plies(), 100);
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
    // A capture as the second single move: the count starts again.
    let capture = game_after::<DoubleMovePosition>(Some(fen), &[], &["e1d1", "a1a7"]);
    assert_eq!(capture.position().quiet_plies(), 0);
    assert_eq!(capture.status().to_string(), "ongoing");
    // A pawn move resets it too.
    let pawn = game_after::<DoubleMovePosition>(
        Some("4k3/p7/8/8/8/8/8/R3K3 b - - 98 60 2"),
        &[],
        &["e8d8", "a7a6"],
    );
    assert_eq!(pawn.position().quiet_plies(), 0);
    assert_eq!(pawn.status().to_string(), "ongoing");
    // Under fide-claims, 100 single moves are a claim and 150 end the game.
    let claim = game_after::<DoubleMovePosition>(Some(fen), &["fide-claims=on"], &["a1b1", "b1c1"]);
    assert_eq!(
        claim.status(),
        Status::Ongoing {
            claimable: vec![Reason::FiftyMoveRule]
        }
    );
    let auto = game_after::<DoubleMovePosition>(
        Some("4k3/p7/8/8/8/8/8/R3K3 w - - 148 90 2"),
        &["fide-claims=on"],
        &["a1b1", "b1c1"],
    );
    assert_eq!(auto.status().to_string(), "1/2-1/2 seventy-five-move-rule");
}
