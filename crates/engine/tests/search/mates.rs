//! The search finds forced wins in known positions of several rulesets.

use chaturanga_engine::{Engine, Limits, Score};
use chaturanga_rules::{Game, Position, Reason, RuleOptions, Ruleset, Status};
use chaturanga_variants::{
    chess::ChessPosition, doublemove::DoubleMovePosition, makarenko::MakarenkoPosition,
    minishogi::MinishogiPosition, shogi::ShogiPosition, torishogi::ToriShogiPosition,
    xiangqi::XiangqiPosition,
};

fn game<P: Ruleset>(fen: &str) -> Game<P> {
    Game::new(P::from_fen_with(&RuleOptions::default(), fen).expect("test FEN"))
}

/// Searches to `depth` and returns the best move in coordinate notation and the score.
fn solve<P: Ruleset>(fen: &str, depth: u32) -> (String, Score) {
    let g = game::<P>(fen);
    let mut engine = Engine::<P>::new(16);
    let result = engine.search(&g, &Limits::depth(depth), &mut |_| {});
    let best = result.best.expect("a move");
    (g.position().move_text(best), result.score)
}

#[test]
fn chess_mate_in_one() {
    let (mv, score) = solve::<ChessPosition>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Score::Win { plies: 1 });
}

#[test]
fn chess_mate_in_two_by_a_sacrifice() {
    // 1. Ra6 bxa6 2. b7#.
    let (mv, score) = solve::<ChessPosition>("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 5);
    assert_eq!(mv, "a1a6");
    assert_eq!(score, Score::Win { plies: 3 });
}

#[test]
fn chess_mate_in_three_with_a_rook_lift() {
    // 1. Ra6 f6 2. Bxf6+ Rg7 3. Ra8#; the only mate in three (Stockfish 15.1, MultiPV 3).
    let (mv, score) = solve::<ChessPosition>("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 7);
    assert_eq!(mv, "f6a6");
    assert_eq!(score, Score::Win { plies: 5 });
}

#[test]
fn chess_mate_in_three_for_black_with_a_queen() {
    // 1... Qg6+ 2. Kg4 Qf5+ 3. Kh5 Qh3#; the only mate in three (Stockfish 15.1, MultiPV 3).
    let fen = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1";
    let (mv, score) = solve::<ChessPosition>(fen, 7);
    assert_eq!(mv, "b1g6");
    assert_eq!(score, Score::Win { plies: 5 });
}

#[test]
fn chess_mated_side_sees_its_loss() {
    // Black to move (Ka7 or Kb8) is mated next move (checked with python-chess).
    let (_, score) = solve::<ChessPosition>("k7/8/1K6/8/8/8/8/7R b - - 0 1", 4);
    assert_eq!(score, Score::Win { plies: -2 });
}

#[test]
fn shogi_tsume_by_drop() {
    // G*1b mates the king on 1a (the pawn on 1c guards the gold); G*3b leaves it no move,
    // which loses in shogi too.
    let fen = "8k/9/8P/9/9/9/9/9/4K4 b G 1";
    let (mv, score) = solve::<ShogiPosition>(fen, 3);
    assert!(mv == "G*1b" || mv == "G*3b", "{mv}");
    assert_eq!(score, Score::Win { plies: 1 });
    let mut g = game::<ShogiPosition>(fen);
    g.play_text(&mv).unwrap();
    assert!(matches!(g.status(), Status::Over(o) if o.quarters == vec![4, 0]));
}

#[test]
fn xiangqi_mate_with_two_chariots() {
    let (_, score) = solve::<XiangqiPosition>("3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1", 5);
    assert!(
        matches!(score, Score::Win { plies } if plies > 0 && plies <= 5),
        "{score:?}"
    );
}

#[test]
fn the_best_move_of_a_won_position_is_legal_and_wins() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let mut g = game::<ChessPosition>(fen);
    let mut engine = Engine::<ChessPosition>::new(16);
    let best = engine
        .search(&g, &Limits::depth(2), &mut |_| {})
        .best
        .unwrap();
    g.play(best).unwrap();
    assert!(matches!(g.status(), Status::Over(_)));
}

fn play<P: Ruleset>(g: &mut Game<P>, moves: &[&str]) {
    for text in moves {
        let mv = g.position().parse_move(text).expect("a legal move");
        g.play(mv).expect("a legal move");
    }
}

#[test]
fn makarenko_never_walks_its_last_king_into_capture() {
    // From a game against the build before issue 23's work (session 14): after 40. Rxg3
    // Rxg3/3 White's last king stepped to f2, where the tower took it. Quiescence stood pat
    // in the position without a king (where White must make a king, and cannot), and a line
    // losing the king scored +11 pawns.
    let mut g = game::<MakarenkoPosition>("1p6/kp4b1/3R1p2/2p5/P2RR3/P5rR/8/4R1K1 w - - 0 40");
    play(&mut g, &["h3g3", "g7g3/3"]);
    for depth in 1..=4 {
        let mut engine = Engine::<MakarenkoPosition>::new(16);
        let result = engine.search(&g, &Limits::depth(depth), &mut |_| {});
        let best = g.position().move_text(result.best.expect("a move"));
        assert_ne!(best, "g1f2", "depth {depth}");
    }
    play(&mut g, &["g1f2", "g3f2/1"]);
    assert!(g.position().must_answer_check(), "a king must be made");
    match g.status() {
        Status::Over(outcome) => {
            assert_eq!(outcome.reason, Reason::RoyalCaptured);
            assert_eq!(outcome.quarters, vec![0, 4]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn makarenko_values_a_king_tower_above_the_men_it_splits_into() {
    // When the evaluation counted a king tower 500, splitting seven disks off a spare king (a
    // queen and a pawn) looked like a gain of five pawns and merging a queen and a pawn into a
    // spare king like a loss: the engine broke up its kings and never made new ones, and lost
    // to the build before issue 23's work by 215 Elo (session 15).
    let cases = [
        (
            "4k3/pppppppp/8/8/8/8/8/K3K3 w - - 0 1",
            "e1e2/7",
            "a split off a spare king",
        ),
        (
            "4k3/pppppppp/8/8/8/5Q2/4P3/4K3 w - - 0 1",
            "e2f3",
            "a merge into a spare king",
        ),
    ];
    for (fen, mv, what) in cases {
        let mut g = game::<MakarenkoPosition>(fen);
        let before = g.position().evaluate(0);
        play(&mut g, &[mv]);
        let after = g.position().evaluate(0);
        let gain = after - before;
        // Beyond the tempo and placement terms that also change.
        if what.starts_with("a split") {
            assert!(gain < -100, "{what}: {before} before, {after} after");
        } else {
            assert!(gain > 100, "{what}: {before} before, {after} after");
        }
    }
}

#[test]
fn xiangqi_perpetual_check_is_the_checkers_loss_in_the_search() {
    // Red, a chariot down, has checked from e5 and d5 while the general stepped between e10
    // and d10. Checking from e5 again repeats a position by perpetual check, which xiangqi
    // makes Red's loss: the search must not take it for a draw (as it did until session 15).
    let mut g = game::<XiangqiPosition>("4k4/9/r7r/9/9/4R4/9/9/9/5K3 b - - 0 1");
    play(&mut g, &["e10d10", "e5d5", "d10e10"]);
    for depth in 1..=5 {
        let mut engine = Engine::<XiangqiPosition>::new(16);
        let result = engine.search(&g, &Limits::depth(depth), &mut |_| {});
        let best = g.position().move_text(result.best.expect("a move"));
        assert_ne!(best, "d5e5", "depth {depth}: {:?}", result.score);
        assert_ne!(result.score, Score::Centipawns(0), "depth {depth}: {best}");
    }
}

/// The start position under rule options `items`.
fn start_with<P: Ruleset>(items: &[&str]) -> P {
    let options = RuleOptions::parse(P::option_specs(), items).expect("rule options");
    P::start_position(&options).expect("a start position")
}

#[test]
fn the_shogi_family_judges_repetitions_in_the_search() {
    // The search asks with who checked throughout the cycle (the first player to move here,
    // so the second made the repeating move); the default hook would call each a draw.
    let loser = |outcome: Option<chaturanga_rules::Outcome>| {
        outcome.map(|o| (o.reason, o.quarters.iter().position(|&q| q == 0)))
    };
    let shogi = start_with::<ShogiPosition>(&[]);
    assert_eq!(
        loser(shogi.judge_repetition_in_search([true, false])),
        Some((Reason::PerpetualCheck, Some(0)))
    );
    assert_eq!(
        loser(shogi.judge_repetition_in_search([false, false])),
        None
    );
    let minishogi = start_with::<MinishogiPosition>(&["repetition=sente-loses"]);
    assert_eq!(
        loser(minishogi.judge_repetition_in_search([false, false])),
        Some((Reason::Sennichite, Some(0)))
    );
    let tori = start_with::<ToriShogiPosition>(&["repetition=repeater-loses"]);
    assert_eq!(
        loser(tori.judge_repetition_in_search([false, false])),
        Some((Reason::Sennichite, Some(1)))
    );
    assert_eq!(
        loser(tori.judge_repetition_in_search([false, true])),
        Some((Reason::PerpetualCheck, Some(1)))
    );
}

#[test]
fn double_move_chess_ends_when_a_king_is_taken_mid_turn() {
    // White's first part takes the king: the game is over before the second part, and a
    // search from there must not stand pat.
    let mut g = game::<DoubleMovePosition>("4k3/8/8/8/8/8/8/4RK2 w - - 0 1");
    play(&mut g, &["e1e8"]);
    let outcome = g.position().decided_outcome().expect("the game is over");
    assert_eq!(outcome.reason, Reason::RoyalCaptured);
    assert_eq!(outcome.quarters, vec![4, 0]);
}
