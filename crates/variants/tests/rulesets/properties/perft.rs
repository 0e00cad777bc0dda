//! Perft fixtures: every `tests/perft/<variant>.perft` file, every case, every depth.
//!
//! Debug builds skip cases above a node limit (and say how many); the README's test command
//! runs in release mode, where nothing is skipped.

use crate::common;

use chaturanga_rules::{Ruleset, perft, perft_turns};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use common::{PerftCase, read_perft_file};

const DEBUG_NODE_LIMIT: u64 = 3_000_000;

struct RunCases(Vec<PerftCase>);

impl Visitor for RunCases {
    type Output = (usize, usize);

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> (usize, usize) {
        let (mut run, mut skipped) = (0, 0);
        for case in self.0 {
            let opts: Vec<&str> = case.options.iter().map(String::as_str).collect();
            let options = common::options::<P>(&opts);
            let position = P::from_fen_with(&options, &case.fen)
                .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, case.id));
            for &(depth, nodes) in &case.expected {
                if cfg!(debug_assertions) && nodes > DEBUG_NODE_LIMIT {
                    skipped += 1;
                    continue;
                }
                // Rulesets whose `perft` counts whole turns (Avalanche) say so.
                let counted = if position.whole_turns() {
                    perft_turns(&position, depth)
                } else {
                    perft(&position, depth)
                };
                assert_eq!(
                    counted, nodes,
                    "{} {} perft {depth} ({})",
                    info.id, case.id, case.fen
                );
                run += 1;
            }
        }
        (run, skipped)
    }
}

fn run_file(variant: &str) {
    let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_perft_file(&text);
    assert!(!cases.is_empty(), "{path} has no cases");
    let (run, skipped) = visit(variant, RunCases(cases)).expect("variant is implemented");
    assert!(
        run > 0,
        "{variant}: every case was over the debug node limit"
    );
    if skipped > 0 {
        eprintln!(
            "{variant}: {run} perft counts checked, {skipped} skipped in this debug build (node limit {DEBUG_NODE_LIMIT}); run with --release for all"
        );
    }
}

#[test]
fn chess() {
    run_file("chess");
}

#[test]
fn capablanca() {
    run_file("capablanca");
}

#[test]
fn grand() {
    run_file("grand");
}

#[test]
fn speed() {
    run_file("speed");
}

#[test]
fn losing() {
    run_file("losing");
}

#[test]
fn maharajah() {
    run_file("maharajah");
}

#[test]
fn doublechess() {
    run_file("doublechess");
}

#[test]
fn omega() {
    run_file("omega");
}

#[test]
fn outer() {
    run_file("outer");
}

#[test]
fn renaissance() {
    run_file("renaissance");
}

#[test]
fn congo() {
    run_file("congo");
}

#[test]
fn xiangqi() {
    run_file("xiangqi");
}

#[test]
fn shogi() {
    run_file("shogi");
}

#[test]
fn minishogi() {
    run_file("minishogi");
}

#[test]
fn torishogi() {
    run_file("torishogi");
}

#[test]
fn yarishogi() {
    run_file("yarishogi");
}

#[test]
fn hexchess() {
    run_file("hexchess");
}

#[test]
fn threeplayer() {
    run_file("threeplayer");
}

#[test]
fn darkchess() {
    run_file("darkchess");
}

#[test]
fn avalanche() {
    run_file("avalanche");
}

#[test]
fn progressive() {
    run_file("progressive");
}

#[test]
fn taktika() {
    run_file("taktika");
}

#[test]
fn makarenko() {
    run_file("makarenko");
}

#[test]
fn gess() {
    run_file("gess");
}

#[test]
fn chex() {
    run_file("chex");
}

#[test]
fn bughouse() {
    run_file("bughouse");
}

/// One bughouse board (`bughouse::BoardPosition`, pockets fed from outside), whose counts come
/// from Fairy-Stockfish: `tests/perft/bughouse-board.perft`.
#[test]
fn bughouse_board() {
    use chaturanga_rules::Position;
    use chaturanga_variants::bughouse::{BOARD_START_FEN, BughousePosition, Timing};
    let path = format!(
        "{}/tests/perft/bughouse-board.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_perft_file(&text);
    assert!(!cases.is_empty(), "{path} has no cases");
    let mut run = 0;
    for case in cases {
        let linked = format!("A:{} | B:{BOARD_START_FEN}", case.fen);
        let board = BughousePosition::from_fen(&linked, Timing::RealTime)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id))
            .boards()[0]
            .clone();
        assert_eq!(board.fen(), case.fen, "{} reads back", case.id);
        for &(depth, nodes) in &case.expected {
            if cfg!(debug_assertions) && nodes > DEBUG_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&board, depth), nodes, "{} perft {depth}", case.id);
            run += 1;
        }
    }
    assert!(run > 0, "every case was over the debug node limit");
}
