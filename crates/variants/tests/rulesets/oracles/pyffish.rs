//! Differential test against pyffish (Fairy-Stockfish 0.0.90, PyPI `pyffish`) on random
//! playouts: at every position the FEN, the sorted legal moves and, where pyffish finds no legal
//! move, the game's result must agree.
//!
//! `tests/oracles/pyffish_playouts.py <config> <seed> <games> <max plies>` plays the games; its
//! docstring lists the pyffish variant behind each config and the one normalisation applied to
//! pyffish's FEN (en passant targets only when a legal capture uses them). For the shogi family
//! the script converts pyffish's FEN and moves to our SFEN and USI, and removes the pawn /
//! swallow drops that give mate, which pyffish lists and our rules forbid (uchifuzume; not in
//! Yari shogi, where drop mates are legal). Each config below is one test: our ruleset id and
//! rule options for it.
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with `pyffish`; it fails, with
//! instructions, when they are missing: it never skips. Environment variables:
//! - `PYFFISH_CONFIGS=chess,grand`: run only these configs (default: all); the others pass
//!   without running, and say so on stderr.
//! - `PYFFISH_GAMES`, `PYFFISH_PLIES`, `PYFFISH_SEED`: override the number of games, the ply
//!   limit and the seed (for long soak runs). Each pyffish call costs about 3 ms (it sets the
//!   variant up again), about 6.5 ms per position, so the defaults are small: 12 games of at
//!   most 80 plies in debug builds, 20 of at most 100 in release builds, 5 to 13 s of Python
//!   per config (about 20 s for each shogi-family config, measured on a loaded machine; a
//!   drop-mate check adds two calls where a pawn or swallow drop in front of the enemy king
//!   is listed); the configs run in parallel.

use crate::common;

use chaturanga_rules::{Game, Position, Reason, Ruleset, Status};
use chaturanga_variants::{VariantInfo, Visitor, find, visit};
use common::oracle::python;
use common::{legal_texts, status_text};
use std::collections::BTreeSet;
use std::process::Command;

/// Config name (the script's argument), our ruleset id and our rule options.
const CONFIGS: &[(&str, &str, &[&str])] = &[
    ("grand", "grand", &[]),
    ("capablanca", "capablanca", &[]),
    ("capablanca-standard", "capablanca", &["setup=standard"]),
    ("speed", "speed", &[]),
    ("losing", "losing", &[]),
    (
        "losing-lichess",
        "losing",
        &["en-passant=on", "king-promotion=on"],
    ),
    ("maharajah", "maharajah", &[]),
    ("chess", "chess", &[]),
    ("xiangqi", "xiangqi", &[]),
    ("shogi", "shogi", &[]),
    ("minishogi", "minishogi", &[]),
    ("torishogi", "torishogi", &[]),
    ("torishogi-two", "torishogi", &["swallows-per-file=2"]),
    ("yarishogi", "yarishogi", &[]),
];

const SEED: &str = "20261130";
const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt` (pyffish==0.0.90), or set CHATURANGA_PYTHON to a Python that has them";

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

/// Whether `config` is selected by `PYFFISH_CONFIGS` (all when unset); unknown names fail.
fn selected(config: &str) -> bool {
    let Ok(list) = std::env::var("PYFFISH_CONFIGS") else {
        return true;
    };
    let names: Vec<&str> = list
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    for name in &names {
        assert!(
            CONFIGS.iter().any(|(c, _, _)| c == name),
            "PYFFISH_CONFIGS names unknown config {name:?}; known: {}",
            CONFIGS
                .iter()
                .map(|(c, _, _)| *c)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    names.contains(&config)
}

/// Runs the playout script for `config` and returns its output.
fn playouts(config: &str, games: &str, plies: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/pyffish_playouts.py"
    );
    let seed = env_or("PYFFISH_SEED", SEED);
    let output = Command::new(python())
        .args([script, config, &seed, games, plies])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 and {INSTALL}",
                python()
            )
        });
    assert!(
        output.status.success(),
        "the pyffish oracle failed for {config} ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// What a replay compared.
#[derive(Debug, Default)]
struct Counts {
    games: usize,
    from_start: usize,
    positions: usize,
    finished: usize,
}

/// Replays the script's games in ruleset `P` and compares every position.
struct Replay {
    config: &'static str,
    options: &'static [&'static str],
    text: String,
}

/// The game so far, for messages: start FEN and moves.
fn history<P: Position>(game: &Game<P>) -> String {
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

impl Visitor for Replay {
    type Output = Counts;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Counts {
        let options = common::options::<P>(self.options);
        let option_args: String = self
            .options
            .iter()
            .map(|o| format!(" --option {o}"))
            .collect();
        let mut game: Option<Game<P>> = None;
        let mut counts = Counts::default();
        for (n, line) in self.text.lines().enumerate() {
            let at = format!("{} (output line {})", self.config, n + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            match (fields[0], fields.len()) {
                ("G", 3) => {
                    let start = if fields[2] == "start" {
                        counts.from_start += 1;
                        P::start_position(&options)
                    } else {
                        P::from_fen_with(&options, fields[1])
                    };
                    let start =
                        start.unwrap_or_else(|e| panic!("{at}: cannot set up {}: {e}", fields[1]));
                    game = Some(Game::new(start));
                    counts.games += 1;
                }
                ("P", 4) => {
                    let g = game.as_ref().expect("a game has started");
                    let p = g.position();
                    let context = format!(
                        "{at}, reproduce with `cargo run -- moves {}{option_args} {}`",
                        info.id,
                        history(g)
                    );
                    assert_eq!(p.fen(), fields[1], "FEN differs from pyffish's; {context}");
                    let ours = legal_texts(p);
                    let theirs: Vec<String> =
                        fields[2].split_whitespace().map(str::to_string).collect();
                    if ours != theirs {
                        let a: BTreeSet<&String> = ours.iter().collect();
                        let b: BTreeSet<&String> = theirs.iter().collect();
                        panic!(
                            "legal moves differ in {}: only ours {:?}, only pyffish's {:?}; {context}",
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
                                    Reason::Checkmate
                                        | Reason::Stalemate
                                        | Reason::NoLegalMoves
                                        | Reason::AllPiecesLost
                                ),
                                "we end the game ({o}) where pyffish plays on, in {}; {context}",
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
                        counts.finished += 1;
                    }
                    counts.positions += 1;
                }
                ("M", 2) => {
                    let g = game.as_mut().expect("a game has started");
                    g.play_text_through_draws(fields[1])
                        .unwrap_or_else(|e| panic!("{at}: {}: {e}", fields[1]));
                }
                _ => panic!("{at}: unexpected oracle line {line:?}"),
            }
        }
        counts
    }
}

fn run(config: &'static str) {
    if !selected(config) {
        eprintln!("{config}: not in PYFFISH_CONFIGS, not run");
        return;
    }
    let &(_, id, options) = CONFIGS
        .iter()
        .find(|(c, _, _)| *c == config)
        .expect("a known config");
    if let Err(e) = find(id) {
        panic!(
            "{config}: {e}; run only the implemented configs with PYFFISH_CONFIGS (e.g. PYFFISH_CONFIGS=chess)"
        );
    }
    let (games, plies) = if cfg!(debug_assertions) {
        ("12", "80")
    } else {
        ("20", "100")
    };
    let games = env_or("PYFFISH_GAMES", games);
    let plies = env_or("PYFFISH_PLIES", plies);
    let text = playouts(config, &games, &plies);
    let counts = visit(
        id,
        Replay {
            config,
            options,
            text,
        },
    )
    .unwrap_or_else(|e| panic!("{config}: {e}"));
    let wanted: usize = games.parse().expect("a number");
    assert_eq!(counts.games, wanted, "{config}: games in the oracle output");
    if wanted >= 2 {
        assert!(counts.from_start > 0, "{config}: no game from the start");
        assert!(
            counts.positions > wanted,
            "{config}: only {} positions compared",
            counts.positions
        );
    }
    if wanted >= 4 {
        assert!(counts.finished > 0, "{config}: no game reached an end");
    }
    eprintln!("{config}: {counts:?}");
}

#[test]
fn grand() {
    run("grand");
}

#[test]
fn capablanca() {
    run("capablanca");
}

#[test]
fn capablanca_standard() {
    run("capablanca-standard");
}

#[test]
fn speed() {
    run("speed");
}

#[test]
fn losing() {
    run("losing");
}

#[test]
fn losing_lichess() {
    run("losing-lichess");
}

#[test]
fn maharajah() {
    run("maharajah");
}

#[test]
fn chess() {
    run("chess");
}

#[test]
fn xiangqi() {
    run("xiangqi");
}

#[test]
fn shogi() {
    run("shogi");
}

#[test]
fn minishogi() {
    run("minishogi");
}

#[test]
fn torishogi() {
    run("torishogi");
}

#[test]
fn torishogi_two() {
    run("torishogi-two");
}

#[test]
fn yarishogi() {
    run("yarishogi");
}
