//! Scenarios of `docs/rules/bughouse.md`.

use chaturanga_rules::outcome::Reason;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::bughouse::{
    BoardState, BughousePosition, Timing, board_state, clocks, team, team_loss,
};
use std::time::Duration;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn game(a: &str, b: &str, timing: Timing) -> BughousePosition {
    BughousePosition::from_fen(&format!("A:{a} | B:{b}"), timing).expect("valid FEN")
}

fn texts(p: &BughousePosition) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut t: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
    t.sort();
    t
}

fn turn_based() -> RuleOptions {
    RuleOptions::parse(BughousePosition::option_specs(), &["timing=turn-based"]).unwrap()
}

#[test]
fn scenario_1_start() {
    let p = BughousePosition::start_position(&turn_based()).unwrap();
    assert_eq!(p.side_to_move(), 0, "A-White's slot first");
    assert_eq!(texts(&p).len(), 20);
    assert_eq!(p.fen(), format!("A:{START} | B:{START} | slot:1"));
    let rt = BughousePosition::start_position(&RuleOptions::default()).unwrap();
    assert_eq!(rt.fen(), format!("A:{START} | B:{START}"));
    let mut both = rt.clone();
    both.play_on_board(1, "e2e4").unwrap();
    both.play_on_board(0, "d2d4").unwrap();
}

#[test]
fn scenario_2_passing_a_capture() {
    let mut p = game(START, START, Timing::RealTime);
    for m in ["e2e4", "b8c6", "d2d4", "c6d4"] {
        p.play_on_board(0, m).unwrap();
    }
    assert!(p.boards()[1].fen().contains("[P]"), "{}", p.fen());
    p.play_on_board(0, "d1d4").unwrap();
    assert!(p.boards()[1].fen().contains("[Pn]"), "{}", p.fen());
    p.play_on_board(1, "P@e4").unwrap();
    p.play_on_board(1, "N@e5").unwrap();
}

#[test]
fn scenario_3_counterfeit_queen_returns_as_pawn() {
    let mut p = game(
        "4k3/8/8/8/8/8/3q~4/3QK3[] w - - 0 1",
        START,
        Timing::RealTime,
    );
    assert!(p.fen().contains("3q~4"), "{}", p.fen());
    p.play_on_board(0, "d1d2").unwrap();
    assert!(p.boards()[1].fen().contains("[p]"), "{}", p.fen());
    // A pawn promotes to a marked piece, written e7e8q.
    let mut q = game("8/4P3/8/8/8/8/8/k3K3[] w - - 0 1", START, Timing::RealTime);
    q.play_on_board(0, "e7e8q").unwrap();
    assert!(q.boards()[0].fen().starts_with("4Q~3/"), "{}", q.fen());
}

#[test]
fn scenario_4_pawn_drop_ranks_and_en_passant() {
    let mut p = game(
        "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1",
        START,
        Timing::TurnBased,
    );
    let t = texts(&p);
    assert!(!t.contains(&"P@a1".to_string()));
    assert!(!t.contains(&"P@a8".to_string()));
    assert!(t.contains(&"P@e2".to_string()));
    assert_eq!(t.iter().filter(|m| m.starts_with("P@")).count(), 6 * 8 - 1);
    p.play_on_board(0, "P@e2").unwrap();
    p.play_on_board(0, "e8e7").unwrap();
    p.play_on_board(0, "e2e4").unwrap();
    p.play_on_board(0, "d4e3").unwrap();
    assert!(p.boards()[1].fen().contains("[P]"), "{}", p.fen());
}

#[test]
fn scenario_5_dropped_rook_cannot_castle() {
    let mut p = game("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", START, Timing::RealTime);
    p.play_on_board(0, "R@h1").unwrap();
    p.play_on_board(0, "e8d8").unwrap();
    assert!(p.play_on_board(0, "e1g1").is_err());
}

const DISTANT: &str = "4k3/8/8/8/8/8/5PPP/r5K1[] w - - 0 1";

#[test]
fn scenario_6_distant_check_is_not_mate() {
    let p = game(DISTANT, START, Timing::RealTime);
    assert_eq!(
        board_state(&p.boards()[0]),
        BoardState::Waiting { in_check: true }
    );
    assert!(p.outcome().is_none());
    let with_n = game(
        "4k3/8/8/8/8/8/5PPP/r5K1[N] w - - 0 1",
        START,
        Timing::TurnBased,
    );
    assert_eq!(texts(&with_n), ["N@b1", "N@c1", "N@d1", "N@e1", "N@f1"]);
    let with_p = game(
        "4k3/8/8/8/8/8/5PPP/r5K1[P] w - - 0 1",
        START,
        Timing::TurnBased,
    );
    assert_eq!(
        board_state(&with_p.boards()[0]),
        BoardState::Waiting { in_check: true }
    );
}

#[test]
fn scenario_7_contact_mate_ends_the_whole_game() {
    let p = game(
        "4k3/8/8/8/8/5bP1/5PqP/7K[QR] w - - 0 1",
        START,
        Timing::RealTime,
    );
    assert_eq!(board_state(&p.boards()[0]), BoardState::Mated);
    let o = p.outcome().unwrap();
    assert_eq!(o.reason, Reason::Checkmate);
    assert_eq!(
        o.quarters,
        vec![0, 4, 4, 0],
        "team 2 (B-White, A-Black) wins"
    );
    let mut stopped = p.clone();
    assert!(stopped.play_on_board(1, "e2e4").is_err(), "board B stops");
}

#[test]
fn scenario_8_knight_mate() {
    let p = game(
        "4k3/8/8/8/8/8/5nPP/6RK[NN] w - - 0 1",
        START,
        Timing::TurnBased,
    );
    assert_eq!(board_state(&p.boards()[0]), BoardState::Mated);
    assert_eq!(p.decided_outcome().unwrap().quarters, vec![0, 4, 4, 0]);
}

#[test]
fn scenario_9_stalemate_is_waiting() {
    let p = game("8/8/8/8/8/5k2/5q2/7K[] w - - 0 1", START, Timing::RealTime);
    assert_eq!(
        board_state(&p.boards()[0]),
        BoardState::Waiting { in_check: false }
    );
    assert!(p.outcome().is_none());
    let q = game(
        "8/8/8/8/8/5k2/5q2/7K[P] w - - 0 1",
        START,
        Timing::TurnBased,
    );
    assert_eq!(
        texts(&q).len(),
        6 * 8 - 2,
        "pawn drops on empty cells of ranks 2-7"
    );
}

#[test]
fn scenario_10_flag_loses_for_the_team() {
    // The rules' side of a flag: the clock, and the result for the flagged player's team. The
    // live side (board A playing on while B-White's clock runs out, both boards stopping) is
    // the game server's referee: `bughouse_scenario_10_a_flag_on_board_b_ends_both_boards`
    // in crates/server/src/referee/tests.rs.
    let options = RuleOptions::parse(BughousePosition::option_specs(), &["clock=3+0"]).unwrap();
    let clock = clocks(&options);
    let b_white = 1;
    assert!(!clock.flag_falls(b_white, Duration::from_millis(179_999)));
    assert!(clock.flag_falls(b_white, Duration::from_secs(180)));
    let o = team_loss(team(b_white), Reason::TimeForfeit);
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert_eq!(o.quarters, vec![4, 0, 0, 4]);
    let mut ended = BughousePosition::start_position(&options).unwrap();
    ended.end(o);
    assert!(ended.play_on_board(0, "g1f3").is_err(), "both boards stop");
    assert_eq!(
        BughousePosition::own_clock(&options),
        Some(chaturanga_rules::clock::TimeControl::fischer(
            Duration::from_secs(180),
            Duration::ZERO
        )),
        "the game server's clock for a game given none"
    );
}

#[test]
fn scenario_11_turn_based_cycle_with_waiting() {
    let mut g = Game::new(game(DISTANT, START, Timing::TurnBased));
    assert_eq!(g.position().side_to_move(), 1, "A-White's slot passes");
    g.play_text("e2e4").unwrap();
    assert_eq!(g.position().side_to_move(), 3, "A-Black's slot passes");
    g.play_text("d7d5").unwrap();
    assert_eq!(g.position().side_to_move(), 1);
    g.play_text("e4d5").unwrap();
    g.play_text("d8d5").unwrap();
    // B-White's capture fed A-Black, B-Black's fed A-White, who cannot drop a pawn on rank 1.
    assert!(
        g.position().boards()[0].fen().contains("[Pp]"),
        "{}",
        g.position().fen()
    );
    assert_eq!(g.position().side_to_move(), 1);
    g.play_text("b1c3").unwrap();
    g.play_text("d5a2").unwrap();
    g.play_text("a1a2").unwrap();
    g.play_text("a7a6").unwrap();
    assert_eq!(g.status(), Status::Ongoing { claimable: vec![] });
}

#[test]
fn scenario_11b_received_knight_is_dropped_in_the_next_slot() {
    let mut g = Game::new(game(
        DISTANT,
        "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR[] b KQkq - 0 1",
        Timing::TurnBased,
    ));
    assert_eq!(g.position().side_to_move(), 3, "only B-Black can act");
    g.play_text("e7e5").unwrap();
    g.play_text("c3d5").unwrap();
    g.play_text("b7b6").unwrap();
    g.play_text("d5c7").unwrap();
    g.play_text("d8c7").unwrap();
    assert_eq!(
        g.position().side_to_move(),
        0,
        "A-White drops in the next slot"
    );
    g.play_text("N@f1").unwrap();
}

#[test]
fn scenario_12_turn_based_dead_end() {
    let p = game(
        DISTANT,
        "8/8/8/8/8/5k2/5q2/7K[] w - - 0 1",
        Timing::TurnBased,
    );
    let o = p.decided_outcome().unwrap();
    assert_eq!(o.reason, Reason::NoProgress);
    assert_eq!(o.quarters, vec![0, 4, 4, 0], "team 1 loses");
}

#[test]
fn scenario_13_turn_based_repetition() {
    let mut g = Game::new(BughousePosition::start_position(&turn_based()).unwrap());
    for _ in 0..2 {
        for m in [
            "g1f3", "g1f3", "g8f6", "g8f6", "f3g1", "f3g1", "f6g8", "f6g8",
        ] {
            g.play_text(m).unwrap();
        }
    }
    match g.status() {
        Status::Over(o) => {
            assert_eq!(o.reason, Reason::ThreefoldRepetition);
            assert_eq!(o.quarters, vec![2; 4]);
        }
        s => panic!("{s:?}"),
    }
}

#[test]
fn scenario_14_checking_drop() {
    let mut p = game("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", START, Timing::RealTime);
    p.play_on_board(0, "Q@e7").unwrap();
    assert!(p.boards()[0].is_check());
    assert!(p.outcome().is_none());
    p.play_on_board(0, "e8e7").unwrap();
}

#[test]
fn bad_input_is_a_typed_error() {
    for fen in [
        "",
        "A:x | B:y",
        &format!("A:{START}"),
        &format!("A:{START} | B:{START} | slot:5"),
        &format!("B:{START} | A:{START}"),
        &format!("A:{START} | B:{START} | slot:1 | x"),
        "A:4k3/8/8/8/8/8/8/4K3[Q~] w - - 0 1 | B:4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
    ] {
        assert!(
            BughousePosition::from_fen(fen, Timing::TurnBased).is_err(),
            "{fen}"
        );
    }
    let mut p = game(START, START, Timing::RealTime);
    assert!(p.play_on_board(5, "e2e4").is_err());
    assert!(p.play_on_board(0, "zz").is_err());
    let q = game(START, START, Timing::TurnBased);
    assert!(q.parse_move("B:e2e4").is_err());
    assert!(q.parse_move("A:e2e4").is_ok());
}

#[test]
fn real_time_both_boards_move_at_once_through_the_game() {
    // Scenario 1 through `Game`, as hosts play it: A-White and B-White may both move now,
    // each only on his own board, and a board that moved hands its move to its other side.
    let mut g = Game::new(BughousePosition::start_position(&RuleOptions::default()).unwrap());
    assert_eq!(g.position().movers(), vec![0, 1]);
    assert!(
        g.position().as_mover(2).is_none(),
        "A-Black waits for A-White"
    );
    let b_white = g.position().as_mover(1).unwrap();
    assert_eq!(b_white.side_to_move(), 1);
    let e4 = b_white.parse_move("e2e4").unwrap();
    assert_eq!(e4.board, 1, "B-White's move is on board B");
    g.play_as(1, e4).unwrap();
    assert_eq!(g.position().movers(), vec![0, 3]);
    assert!(g.play_as(1, e4).is_err(), "B-White's turn is over");
    let d4 = g
        .position()
        .as_mover(0)
        .unwrap()
        .parse_move("d2d4")
        .unwrap();
    g.play_as(0, d4).unwrap();
    assert_eq!(g.position().movers(), vec![2, 3]);
    // Scenario 9 in real time: with both players to move waiting for pieces, the game goes
    // on (their clocks run) instead of ending for want of legal moves.
    let waiting = "8/8/8/8/8/5k2/5q2/7K[] w - - 0 1";
    let g = Game::new(game(waiting, waiting, Timing::RealTime));
    assert_eq!(g.position().movers(), vec![0, 1]);
    assert!(
        matches!(g.status(), Status::Ongoing { .. }),
        "{:?}",
        g.status()
    );
    let turn_based = Game::new(game(waiting, waiting, Timing::TurnBased));
    assert!(matches!(turn_based.status(), Status::Over(_)));
}

#[test]
fn a_real_time_move_is_recorded_as_its_movers() {
    let mut g = Game::new(BughousePosition::start_position(&RuleOptions::default()).unwrap());
    let e4 = g
        .position()
        .as_mover(1)
        .unwrap()
        .parse_move("e2e4")
        .unwrap();
    g.play_as(1, e4).unwrap();
    assert_eq!(
        g.positions()[0].side_to_move(),
        1,
        "B-White made the first move"
    );
    assert!(g.undo());
    assert_eq!(g.position().movers(), vec![0, 1]);
}
