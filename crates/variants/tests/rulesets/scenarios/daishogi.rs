//! Every scenario of `docs/rules/daishogi.md`, in its order, as a named test; then rules the
//! text implies beyond the scenarios (no counter-strike by default, `lion-trading=on`,
//! promotion on leaving the zone, lone royals, bare king, perpetual check). Expected results
//! come from the rules file, not from the engine.

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::daishogi::DaiShogiPosition;
use common::{game_after, legal_texts, options};

type P = DaiShogiPosition;

const START: &str = "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/ppppppppppppppp/4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL b - 1";

/// A position under `opts`; panics if the engine rejects it.
fn pos(sfen: &str, opts: &[&str]) -> P {
    P::from_fen_with(&options::<P>(opts), sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(sfen: &str, opts: &[&str]) -> Vec<String> {
    legal_texts(&pos(sfen, opts))
}

/// Whether `mv` is legal. For a move that is not a pass, the generated move list and the
/// move parser must agree; a pass may be written through any empty neighbour, so only the
/// parser is asked.
fn is_legal_with(sfen: &str, opts: &[&str], mv: &str) -> bool {
    let position = pos(sfen, opts);
    let parsed = position.parse_move(mv).is_ok();
    let cells: Vec<&str> = mv
        .trim_end_matches('+')
        .split_inclusive(|c: char| c.is_ascii_lowercase())
        .collect();
    let pass = cells.len() == 3 && cells[0] == cells[2];
    if !pass {
        let listed = legal_texts(&position).iter().any(|m| m == mv);
        assert_eq!(listed, parsed, "{mv}: move list and parser disagree");
    }
    parsed
}

fn is_legal(sfen: &str, mv: &str) -> bool {
    is_legal_with(sfen, &[], mv)
}

/// The legal moves that start on `cell`.
fn from_cell(sfen: &str, cell: &str) -> Vec<String> {
    legal(sfen, &[])
        .into_iter()
        .filter(|m| {
            m.strip_prefix(cell)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect()
}

/// The SFEN after `moves` (each must be legal) under `opts`.
fn after(sfen: &str, opts: &[&str], moves: &[&str]) -> String {
    game_after::<P>(Some(sfen), opts, moves).position().fen()
}

fn status(sfen: &str, opts: &[&str], moves: &[&str]) -> String {
    game_after::<P>(Some(sfen), opts, moves)
        .status()
        .to_string()
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn scenario_01_start_position_lion_kirin_phoenix() {
    assert_eq!(pos(START, &[]).fen(), START);
    assert_eq!(from_cell(START, "8m"), sorted(&["8m10n", "8m6n"]));
    assert_eq!(from_cell(START, "9m"), sorted(&["9m10n", "9m11m"]));
    assert!(from_cell(START, "7m").is_empty(), "the phoenix has no move");
}

#[test]
fn scenario_02_violent_ox() {
    let fen = "3g3k7/15/15/15/15/15/7p7/7X'7/15/15/15/15/15/15/7K7 b - 1";
    assert_eq!(
        from_cell(fen, "8h"),
        sorted(&["8h8g", "8h8i", "8h8j", "8h9h", "8h10h", "8h7h", "8h6h"])
    );
    assert!(!is_legal(fen, "8h8f"), "8g is occupied");
    assert_eq!(
        after(fen, &[], &["8h8g"]),
        "3g3k7/15/15/15/15/15/7X'7/15/15/15/15/15/15/15/7K7 w - 2"
    );
}

#[test]
fn scenario_03_flying_dragon() {
    let fen = "3g3k7/15/15/15/15/15/6p1P6/7F'7/15/15/15/15/15/15/7K7 b - 1";
    assert_eq!(
        from_cell(fen, "8h"),
        sorted(&["8h9g", "8h9i", "8h10j", "8h7i", "8h6j"])
    );
    assert!(!is_legal(fen, "8h10f"), "it stops on the captured pawn");
    assert!(!is_legal(fen, "8h6f"), "it cannot pass its own pawn");
}

#[test]
fn scenario_04_evil_wolf() {
    let fen = "3g3k7/15/15/15/15/15/15/7W7/15/15/15/15/15/15/7K7 b - 1";
    assert_eq!(
        from_cell(fen, "8h"),
        sorted(&["8h9g", "8h8g", "8h7g", "8h9h", "8h7h"])
    );
}

#[test]
fn scenario_05_promotion_inside_the_zone_without_capture() {
    let fen = "3g3k7/15/15/15/11I3/7I7/15/15/15/15/15/15/15/15/7K7 b - 1";
    for mv in ["8f8e", "8f8e+", "4e4d", "4e4d+"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
    assert_eq!(
        after(fen, &[], &["4e4d+"]),
        "3g3k7/15/15/11+I3/15/7I7/15/15/15/15/15/15/15/15/7K7 w - 2"
    );
}

#[test]
fn scenario_06_compulsory_promotion() {
    let fen = "g4k9/8U3P1I/1I13/3N11/15/15/15/15/15/15/15/15/15/15/7K7 b - 1";
    assert_eq!(from_cell(fen, "7b"), sorted(&["7b8a+", "7b6a+"]));
    assert_eq!(from_cell(fen, "12d"), sorted(&["12d13b+", "12d11b+"]));
    assert_eq!(from_cell(fen, "3b"), ["3b3a+"]);
    assert_eq!(from_cell(fen, "1b"), sorted(&["1b1a+", "1b2a+"]));
    assert!(is_legal(fen, "14c14b"));
    assert!(is_legal(fen, "14c14b+"));
    for mv in ["7b8a", "7b6a", "12d13b", "12d11b", "3b3a", "1b1a", "1b2a"] {
        assert!(
            !is_legal(fen, mv),
            "{mv} would leave a piece that can never move"
        );
    }
}

#[test]
fn scenario_07_protected_lion_may_be_taken() {
    let fen = "7k7/15/15/15/7g7/7l!7/15/7L!7/15/15/15/15/15/15/7K7 b - 1";
    assert!(is_legal(fen, "8h8f"), "no lion-trading rules by default");
    assert_eq!(
        after(fen, &[], &["8h8f"]),
        "7k7/15/15/15/7g7/7L!7/15/15/15/15/15/15/15/15/7K7 w - 2"
    );
    assert!(is_legal_with(fen, &["lion-trading=off"], "8h8f"));
    assert!(!is_legal_with(fen, &["lion-trading=on"], "8h8f"));
}

#[test]
fn scenario_08_crown_prince_and_go_between() {
    let fen = "3g3k7/15/15/15/15/7E4P'2/15/15/15/15/15/15/15/15/7K7 b - 1";
    assert!(is_legal(fen, "8f8e+"));
    assert_eq!(
        after(fen, &[], &["8f8e+"]),
        "3g3k7/15/15/15/7+E7/12P'2/15/15/15/15/15/15/15/15/7K7 w - 2"
    );
    // Two royal pieces: with a White rook attacking the king on 8o, promoting to crown prince
    // is legal (the king may stay attacked) while the plain elephant move is not.
    let checked = "3g3k7/15/15/15/15/7E4P'2/15/15/15/15/15/15/15/15/r6K7 b - 1";
    assert!(pos(checked, &[]).is_check());
    assert!(is_legal(checked, "8f8e+"));
    assert!(!is_legal(checked, "8f8e"));
    assert!(!is_legal(checked, "3f3e+"));

    assert!(is_legal(fen, "3f3e+"));
    let game = game_after::<P>(Some(fen), &[], &["3f3e+", "12a12b"]);
    assert_eq!(
        game.position().fen(),
        "7k7/3g11/15/15/12+P'2/7E7/15/15/15/15/15/15/15/15/7K7 b - 3"
    );
    // The promoted go-between moves as a drunk elephant in the zone but never promotes.
    let moves: Vec<String> = legal_texts(game.position())
        .into_iter()
        .filter(|m| m.starts_with("3e"))
        .collect();
    assert!(moves.contains(&"3e3d".to_string()), "{moves:?}");
    assert!(moves.iter().all(|m| !m.ends_with('+')), "{moves:?}");
}

#[test]
fn scenario_09_repetition_draw() {
    let fen = "3g3k7/15/15/15/15/15/15/15/15/15/15/15/15/15/7K6G b - 1";
    let moves = ["8o7o", "8a7a", "7o8o", "7a8a"].repeat(3);
    assert_eq!(status(fen, &[], &moves[..11]), "ongoing");
    assert_eq!(status(fen, &[], &moves), "1/2-1/2 sennichite");
}

#[test]
fn scenario_10_lion_double_capture() {
    let fen = "3g3k7/15/15/15/15/15/7p7/7p7/7L!7/15/15/15/15/15/7K7 b - 1";
    for mv in ["8i8h8g", "8i8h8i", "8i8g", "8i9i8i"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
    assert_eq!(
        after(fen, &[], &["8i8h8g"]),
        "3g3k7/15/15/15/15/15/7L!7/15/15/15/15/15/15/15/7K7 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["8i8h8i"]),
        "3g3k7/15/15/15/15/15/7p7/15/7L!7/15/15/15/15/15/7K7 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["8i8g"]),
        "3g3k7/15/15/15/15/15/7L!7/7p7/15/15/15/15/15/15/7K7 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["8i9i8i"]),
        "3g3k7/15/15/15/15/15/7p7/7p7/7L!7/15/15/15/15/15/7K7 w - 2"
    );
}

// ---- Rules the text implies beyond the scenarios ----

#[test]
fn no_counter_strike_by_default_but_with_lion_trading_on() {
    // White's gold on 8g takes Black's lion on 8h; then Black's rook on 3c eyes White's lion.
    let fen = "7k4l!2/15/12R2/15/15/15/7g7/7L!7/15/15/15/15/15/15/7K7 w - 1";
    let game = game_after::<P>(Some(fen), &[], &["8g8h"]);
    assert_eq!(
        game.position().fen(),
        "7k4l!2/15/12R2/15/15/15/15/7g7/15/15/15/15/15/15/7K7 b - 2",
        "the counter-strike field stays '-' without lion-trading"
    );
    assert!(legal_texts(game.position()).contains(&"3c3a".to_string()));

    let on = ["lion-trading=on"];
    let game = game_after::<P>(Some(fen), &on, &["8g8h"]);
    assert_eq!(
        game.position().fen(),
        "7k4l!2/15/12R2/15/15/15/15/7g7/15/15/15/15/15/15/7K7 b 8h 2"
    );
    assert!(!legal_texts(game.position()).contains(&"3c3a".to_string()));
    let later = game_after::<P>(Some(fen), &on, &["8g8h", "8o9o"]);
    assert_eq!(
        later.position().fen(),
        "7k4l!2/15/12R2/15/15/15/15/7g7/15/15/15/15/15/15/6K8 w - 3"
    );
    // A counter-strike field in the SFEN is ignored without lion-trading.
    let read = pos(
        "7k4l!2/15/12R2/15/15/15/15/7g7/15/15/15/15/15/15/7K7 b 8h 2",
        &[],
    );
    assert!(read.fen().contains(" b - 2"));
}

#[test]
fn lion_trading_on_bridge_capture_in_dai() {
    // Lion on 8h, a victim on 8g, White's lion on 8f protected by the gold on 8e.
    let on = ["lion-trading=on"];
    let pawn = "7k7/15/15/15/7g7/7l!7/7p7/7L!7/15/15/15/15/15/15/7K7 b - 1";
    assert!(!is_legal_with(pawn, &on, "8h8g8f"));
    assert!(is_legal_with(pawn, &[], "8h8g8f"));
    let go_between = "7k7/15/15/15/7g7/7l!7/7p'7/7L!7/15/15/15/15/15/15/7K7 b - 1";
    assert!(!is_legal_with(go_between, &on, "8h8g8f"));
    let silver = "7k7/15/15/15/7g7/7l!7/7s7/7L!7/15/15/15/15/15/15/7K7 b - 1";
    assert!(is_legal_with(silver, &on, "8h8g8f"));
}

#[test]
fn dai_promotion_on_leaving_the_zone_only_near_it() {
    let fen = "3g3k7/15/15/15/7S7/15/5S9/15/15/15/15/15/15/15/7K7 b - 1";
    assert!(is_legal(fen, "8e9f+"), "leaving the zone");
    assert!(is_legal(fen, "8e9f"));
    assert!(is_legal(fen, "8e8d+"));
    assert!(is_legal(fen, "10g10f"));
    assert!(
        !is_legal(fen, "10g10f+"),
        "neither start nor end in the zone"
    );
}

#[test]
fn lone_royals_draw() {
    let fen = "7k7/15/15/15/15/15/15/15/15/15/15/15/15/7g7/7K7 b - 1";
    assert_eq!(status(fen, &[], &[]), "ongoing");
    assert_eq!(status(fen, &[], &["8o8n"]), "1/2-1/2 insufficient-material");
}

#[test]
fn bare_king_off_by_default_on_by_option() {
    let fen = "7k7/15/12G2/g14/15/15/15/R14/15/15/15/15/15/15/7K7 b - 1";
    assert_eq!(status(fen, &[], &["15h15d"]), "ongoing");
    assert_eq!(status(fen, &["bare-king=on"], &["15h15d"]), "1-0 bare-king");
}

#[test]
fn perpetual_check_loses() {
    let fen = "g6k7/15/15/15/8R6/15/15/15/15/15/15/15/15/15/7K7 b - 1";
    let moves = ["7e8e", "8a7a", "8e7e", "7a8a"].repeat(3);
    assert_eq!(status(fen, &[], &moves[..11]), "ongoing");
    assert_eq!(status(fen, &[], &moves), "0-1 perpetual-check");
}
