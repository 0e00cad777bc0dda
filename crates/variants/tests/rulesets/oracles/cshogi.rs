//! Differential test against cshogi (PyPI `cshogi`, Apery / YaneuraOu move generation) on random
//! shogi playouts: at every position the SFEN, the sorted USI legal moves and, where cshogi finds
//! no legal move, the result must agree.
//!
//! `tests/oracles/cshogi_playouts.py <seed> <games> <max plies>` plays the games; its docstring
//! describes the output and cshogi's conventions. cshogi writes SFEN and USI as we do and, like
//! our rules, forbids pawn-drop mate (uchifuzume), so nothing is converted. Our replay plays
//! through repetition draws (cshogi's legal moves ignore sennichite).
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with `cshogi`; it fails, with instructions,
//! when they are missing: it never skips. `CSHOGI_GAMES`, `CSHOGI_PLIES`, `CSHOGI_SEED` override
//! the number of games, the ply limit and the seed (for long soak runs). cshogi is fast (about
//! 20,000 positions a second); the defaults are 30 games of at most 150 plies in debug builds
//! and 200 games of at most 300 plies in release builds.

use crate::common;

use chaturanga_rules::{Game, Position, Reason, Ruleset, Status};
use chaturanga_variants::shogi::ShogiPosition;
use common::oracle::python;
use common::{legal_texts, status_text};
use std::collections::BTreeSet;
use std::process::Command;

const SEED: &str = "20261130";
const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt` (cshogi is pinned there), or set CHATURANGA_PYTHON to a Python that has them";

fn env_or(name: &str, default: &str) -> String {
    match std::env::var(name) {
        Ok(v) => {
            assert!(
                v.parse::<u64>().is_ok(),
                "{name}={v:?} is not a non-negative number"
            );
            v
        }
        Err(_) => default.to_string(),
    }
}

/// Runs the playout script and returns its output.
fn playouts(seed: &str, games: &str, plies: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/cshogi_playouts.py"
    );
    let output = Command::new(python())
        .args([script, seed, games, plies])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 and {INSTALL}",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the cshogi oracle failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// The game so far, for messages: start SFEN and moves.
fn history(game: &Game<ShogiPosition>) -> String {
    let moves: Vec<String> = game
        .positions()
        .iter()
        .zip(game.moves())
        .map(|(p, &m)| p.move_text(m))
        .collect();
    let mut text = format!("--fen \"{}\"", game.start().fen());
    if !moves.is_empty() {
        text += &format!(" --moves {}", moves.join(" "));
    }
    text
}

#[test]
fn random_playouts_agree_with_cshogi() {
    let (games, plies) = if cfg!(debug_assertions) {
        ("30", "150")
    } else {
        ("200", "300")
    };
    let games = env_or("CSHOGI_GAMES", games);
    let plies = env_or("CSHOGI_PLIES", plies);
    let seed = env_or("CSHOGI_SEED", SEED);
    let text = playouts(&seed, &games, &plies);
    let options = common::options::<ShogiPosition>(&[]);
    let mut game: Option<Game<ShogiPosition>> = None;
    let (mut started, mut from_start, mut positions, mut finished) = (0, 0, 0, 0);
    for (n, line) in text.lines().enumerate() {
        let at = format!("cshogi output line {}", n + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        match (fields[0], fields.len()) {
            ("G", 3) => {
                let start = if fields[2] == "start" {
                    from_start += 1;
                    ShogiPosition::start_position(&options)
                } else {
                    ShogiPosition::from_fen_with(&options, fields[1])
                };
                let start =
                    start.unwrap_or_else(|e| panic!("{at}: cannot set up {}: {e}", fields[1]));
                game = Some(Game::new(start));
                started += 1;
            }
            ("P", 4) => {
                let g = game.as_ref().expect("a game has started");
                let p = g.position();
                let context = format!(
                    "{at}, reproduce with `cargo run -- moves shogi {}`",
                    history(g)
                );
                assert_eq!(p.fen(), fields[1], "SFEN differs from cshogi's; {context}");
                let ours = legal_texts(p);
                let theirs: Vec<String> =
                    fields[2].split_whitespace().map(str::to_string).collect();
                if ours != theirs {
                    let a: BTreeSet<&String> = ours.iter().collect();
                    let b: BTreeSet<&String> = theirs.iter().collect();
                    panic!(
                        "legal moves differ in {}: only ours {:?}, only cshogi's {:?}; {context}",
                        fields[1],
                        a.difference(&b).collect::<Vec<_>>(),
                        b.difference(&a).collect::<Vec<_>>()
                    );
                }
                if fields[3] == "ongoing" {
                    if let Status::Over(o) = g.status() {
                        assert!(
                            !matches!(
                                o.reason,
                                Reason::Checkmate | Reason::Stalemate | Reason::NoLegalMoves
                            ),
                            "we end the game ({o}) where cshogi plays on, in {}; {context}",
                            fields[1]
                        );
                    }
                } else {
                    assert_eq!(
                        status_text(g),
                        fields[3],
                        "result differs in {}; {context}",
                        fields[1]
                    );
                    finished += 1;
                }
                positions += 1;
            }
            ("M", 2) => {
                let g = game.as_mut().expect("a game has started");
                g.play_text_through_draws(fields[1])
                    .unwrap_or_else(|e| panic!("{at}: {}: {e}", fields[1]));
            }
            _ => panic!("{at}: unexpected oracle line {line:?}"),
        }
    }
    let wanted: usize = games.parse().expect("a number");
    assert_eq!(started, wanted, "games in the oracle output");
    if wanted >= 2 {
        assert!(from_start > 0, "no game from the start");
        assert!(positions > wanted, "only {positions} positions compared");
    }
    if wanted >= 4 {
        assert!(finished > 0, "no game reached an end");
    }
    eprintln!(
        "cshogi: {started} games ({from_start} from the start), {positions} positions, {finished} without legal moves"
    );
}
