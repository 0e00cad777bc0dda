//! Differential test against `tests/oracles/independent_threeplayer.py`, a second
//! implementation of three-player chess written from `docs/rules/threeplayer.md` alone (lines
//! from the file's lists, diagonal neighbours from its half-boards, strips and centre pairs,
//! its knight and pawn definitions, king safety by trying each move): on seeded random games,
//! the FEN and the sorted legal moves must agree at every position. No engine or library plays
//! this ruleset, so this and hand-checked counts are the outside checks; the perft fixtures'
//! deeper counts come from the same script.
//!
//! Needs `python3` (standard library only); fails with instructions when it is missing.

use crate::common;

use chaturanga_rules::{Game, Position, RuleOptions, Ruleset};
use chaturanga_variants::threeplayer::ThreePlayerPosition;
use common::legal_texts;
use common::oracle::run_script;

/// Runs the oracle's playouts and replays them here; returns the number of positions
/// compared, of positions with an en passant right, with a player in check, and of games
/// that ended with no legal move.
fn compare(seed: &str, games: &str, plies: &str) -> (usize, usize, usize, usize) {
    let text = run_script(
        "independent_threeplayer.py",
        &["0", "--playouts", seed, games, plies],
    );
    let mut game: Option<Game<ThreePlayerPosition>> = None;
    let (mut positions, mut en_passant, mut checks, mut ended) = (0, 0, 0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "G" => {
                let start = ThreePlayerPosition::start_position(&RuleOptions::default()).unwrap();
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
                positions += 1;
                if fields[1].split(' ').nth(3).is_some_and(|f| f != "-") {
                    en_passant += 1;
                }
                if p.is_check() {
                    checks += 1;
                }
                if expected.is_empty() {
                    ended += 1;
                }
            }
            "M" => {
                let g = game.as_mut().expect("a game has started");
                g.play_text_through_draws(fields[1])
                    .unwrap_or_else(|e| panic!("{}: {e}", fields[1]));
            }
            other => panic!("unexpected oracle line {other:?}"),
        }
    }
    (positions, en_passant, checks, ended)
}

#[test]
fn threeplayer_agrees_with_the_independent_implementation() {
    let (games, plies) = if cfg!(debug_assertions) {
        ("4", "60")
    } else {
        ("24", "240")
    };
    let (positions, en_passant, checks, ended) = compare("20261130", games, plies);
    eprintln!(
        "{positions} positions, {en_passant} with en passant rights, {checks} in check, {ended} ended"
    );
    assert!(positions > 200, "only {positions} positions compared");
    assert!(
        en_passant > 0 && checks > 0,
        "the games met no en passant right or no check"
    );
}
