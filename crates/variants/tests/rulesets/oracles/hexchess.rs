//! Differential test against `tests/oracles/independent_hexchess.py`, a second implementation
//! of Gliński's hexagonal chess written from `docs/rules/hexchess.md` alone (its own cell
//! formula, steps and king-safety test): on seeded random games, under both `double-step`
//! settings, the FEN and the sorted legal moves must agree at every position. No engine or
//! library plays this ruleset, so this and hand-checked counts are the outside checks; the
//! perft fixtures' deeper counts come from the same script.
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

use crate::common;

use chaturanga_rules::geometry::Vector;
use chaturanga_rules::{Game, Position};
use chaturanga_variants::hexchess::HexChessPosition;
use common::oracle::run_script;
use common::{legal_texts, options};

/// Runs the oracle's playouts under `option` (if any) and replays them here; returns the
/// number of positions compared and of those where a pawn that had moved stood on a starting
/// cell of its side with the way ahead free (the case the two settings treat differently).
fn compare(option: Option<&str>, seed: &str) -> (usize, usize) {
    let (games, plies) = if cfg!(debug_assertions) {
        ("8", "80")
    } else {
        ("40", "160")
    };
    let mut args = vec!["0", "--playouts", seed, games, plies];
    if let Some(o) = option {
        args.extend(["--option", o]);
    }
    let text = run_script("independent_hexchess.py", &args);
    let opts: Vec<&str> = option.into_iter().collect();
    let rule_options = options::<HexChessPosition>(&opts);
    let mut game: Option<Game<HexChessPosition>> = None;
    let (mut positions, mut moved_on_start) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "G" => {
                let start = HexChessPosition::start(&rule_options).unwrap();
                assert_eq!(start.fen(), fields[1], "start position");
                game = Some(Game::new(start));
            }
            "P" => {
                let g = game.as_ref().expect("a game has started");
                let p = g.position();
                let played = common::played_text(g);
                assert_eq!(p.fen(), fields[1], "FEN after {}", played);
                let expected: Vec<String> = fields
                    .get(2)
                    .unwrap_or(&"")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                assert_eq!(
                    legal_texts(p),
                    expected,
                    "legal moves in {} after {}",
                    fields[1],
                    played
                );
                // A pawn that moved onto a starting cell with both cells ahead empty: it
                // would have a double step under `any-start-cell` but has none here.
                let g = &p.spec().geometry;
                let start_cells = g.region("pawn-start").unwrap();
                if p.moved().iter().any(|c| {
                    let player = p.piece_at(c).player();
                    let ahead = if player == 0 {
                        Vector::new(0, 2)
                    } else {
                        Vector::new(0, -2)
                    };
                    let path = g.rays(c, ahead, Some(2)).remove(0);
                    start_cells.cells[player as usize].contains(&c)
                        && path.len() == 2
                        && path.iter().all(|&cell| p.piece_at(cell).is_none())
                }) {
                    moved_on_start += 1;
                }
                positions += 1;
            }
            "M" => {
                let g = game.as_mut().expect("a game has started");
                g.play_text_through_draws(fields[1])
                    .unwrap_or_else(|e| panic!("{}: {e}", fields[1]));
            }
            other => panic!("unexpected oracle line {other:?}"),
        }
    }
    (positions, moved_on_start)
}

#[test]
fn hexchess_agrees_with_the_independent_implementation() {
    let (positions, moved_on_start) = compare(None, "20261130");
    assert!(positions > 400, "only {positions} positions compared");
    // Random games do capture onto starting cells; those positions were compared too.
    eprintln!("{positions} positions, {moved_on_start} with a moved pawn free to advance two");
    assert!(moved_on_start > 0, "no pawn reached another starting cell");
}

#[test]
fn hexchess_any_start_cell_agrees_with_the_independent_implementation() {
    let (positions, _) = compare(Some("double-step=any-start-cell"), "424242");
    assert!(positions > 400, "only {positions} positions compared");
}
