//! MultiPV: several best lines per iteration, each with a different first move, reported
//! best first, the move played being the first line's.

use chaturanga_engine::{Engine, Limits, Score, SearchInfo};
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset};
use chaturanga_variants::chess::ChessPosition;
use chaturanga_variants::xiangqi::XiangqiPosition;

/// Centipawns, with wins far outside any evaluation.
fn value(score: Score) -> i64 {
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Win { plies } if plies >= 0 => 1_000_000 - i64::from(plies),
        Score::Win { plies } => -1_000_000 - i64::from(plies),
    }
}

/// The position of `fen` under the ruleset's default options.
fn position<P: Ruleset>(fen: &str) -> P {
    let options = RuleOptions::parse::<&str>(P::option_specs(), &[]).expect("default options");
    P::from_fen_with(&options, fen).expect("FEN")
}

/// Searches `fen` to `depth` with `lines` lines; returns the result and the reports of the
/// last iteration.
fn search<P: Ruleset>(
    fen: &str,
    depth: u32,
    lines: usize,
) -> (
    chaturanga_engine::SearchResult<P::Move>,
    Vec<SearchInfo<P::Move>>,
) {
    let game = Game::new(position::<P>(fen));
    let mut engine = Engine::<P>::new(16);
    engine.set_multi_pv(lines);
    let mut reports = Vec::new();
    let result = engine.search(&game, &Limits::depth(depth), &mut |info| {
        reports.push(info.clone())
    });
    let last: Vec<_> = reports
        .into_iter()
        .filter(|info| info.depth == result.depth)
        .collect();
    (result, last)
}

fn check_lines<P: Ruleset>(fen: &str, depth: u32, lines: usize) {
    let (result, last) = search::<P>(fen, depth, lines);
    assert_eq!(result.depth, depth);
    let numbers: Vec<usize> = last.iter().map(|info| info.multipv).collect();
    assert_eq!(numbers, (1..=lines).collect::<Vec<_>>(), "{fen}");
    // Distinct first moves, each legal, best first.
    let mut legal = Vec::new();
    position::<P>(fen).legal_moves(&mut legal);
    let firsts: Vec<P::Move> = last.iter().map(|info| info.pv[0]).collect();
    for (i, mv) in firsts.iter().enumerate() {
        assert!(legal.contains(mv), "{fen}: line {} is not legal", i + 1);
        assert!(
            !firsts[..i].contains(mv),
            "{fen}: line {} repeats a move",
            i + 1
        );
    }
    for pair in last.windows(2) {
        assert!(
            value(pair[0].score) >= value(pair[1].score),
            "{fen}: {:?} before {:?}",
            pair[0].score,
            pair[1].score
        );
    }
    // The move played is the first line's, with its score.
    assert_eq!(result.best, Some(firsts[0]));
    assert_eq!(result.score, last[0].score);
    // A search of one line finds one of these moves. Its score need not equal the first
    // line's: pruning depends on the window, and the searches of the other lines leave other
    // tables behind, so the two are different trees. A forced win is exact in both.
    let (single, _) = search::<P>(fen, depth, 1);
    let best = single.best.expect("a move");
    assert!(
        firsts.contains(&best),
        "{fen}: {best:?} not among the lines"
    );
    if matches!(single.score, Score::Win { .. }) {
        assert_eq!(single.score, last[0].score, "{fen}");
    }
}

#[test]
fn three_lines_are_distinct_sorted_and_led_by_the_best_move() {
    let chess = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        // A queen to take and a mate in one among the lines.
        "6k1/5ppp/8/8/8/8/3q1PPP/R5K1 w - - 0 1",
    ];
    for fen in chess {
        check_lines::<ChessPosition>(fen, 4, 3);
    }
    check_lines::<XiangqiPosition>(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        3,
        3,
    );
}

#[test]
fn more_lines_than_moves_gives_every_move_once() {
    // The king in the corner, checked by an unprotected rook: three ways out.
    let fen = "7k/8/8/8/8/8/8/K6r w - - 0 1";
    let mut legal = Vec::new();
    position::<ChessPosition>(fen).legal_moves(&mut legal);
    assert!(legal.len() < 10);
    let (result, last) = search::<ChessPosition>(fen, 3, 10);
    assert_eq!(last.len(), legal.len());
    assert_eq!(result.best, Some(last[0].pv[0]));
}
