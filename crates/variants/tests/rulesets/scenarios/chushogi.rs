//! Every scenario of `docs/rules/chushogi.md`, in its order, as a named test; then rules the
//! text implies beyond the scenarios (the counter-strike field, `lion-trading=off`, bridge
//! captures along a diagonal and by the horned falcon and soaring eagle, `promotion=lishogi`,
//! `repetition=attack`, the bare-king exceptions). Expected results come from the rules file,
//! not from the engine.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset};
use chaturanga_variants::chushogi::ChuShogiPosition;
use common::{game_after, legal_texts, options};

type P = ChuShogiPosition;

const START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

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
    assert_eq!(
        from_cell(START, "7j"),
        sorted(&["7j8h", "7j7h", "7j6h", "7j5h", "7j9k"]),
        "the lion has only its five jumps"
    );
    assert_eq!(from_cell(START, "7k"), ["7k9k"]);
    assert!(from_cell(START, "6k").is_empty(), "the phoenix has no move");
}

#[test]
fn scenario_02_igui_double_capture_jump_and_pass() {
    let fen = "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1";
    for mv in ["6f6e6f", "6f6e6d", "6f6d", "6f5f6f"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
    // Igui: the pawn on 6e is gone, the lion stays on 6f.
    assert_eq!(
        after(fen, &[], &["6f6e6f"]),
        "g5k5/12/12/6p5/12/6N5/12/12/12/12/12/5K6 w - 2"
    );
    // Double capture: both pawns gone, the lion on 6d.
    assert_eq!(
        after(fen, &[], &["6f6e6d"]),
        "g5k5/12/12/6N5/12/12/12/12/12/12/12/5K6 w - 2"
    );
    // Jump: only the pawn on 6d is taken.
    assert_eq!(
        after(fen, &[], &["6f6d"]),
        "g5k5/12/12/6N5/6p5/12/12/12/12/12/12/5K6 w - 2"
    );
    // Pass: board unchanged, White to move.
    assert_eq!(
        after(fen, &[], &["6f5f6f"]),
        "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 w - 2"
    );
    // The engine lists one pass for the lion.
    let passes: Vec<String> = from_cell(fen, "6f")
        .into_iter()
        .filter(|m| m.len() == 6 && m.ends_with("6f") && m != "6f6e6f")
        .collect();
    assert_eq!(passes.len(), 1, "{passes:?}");
}

#[test]
fn scenario_03_protected_distant_lion() {
    let protected = "6k5/12/6g5/6n5/12/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(
        !is_legal(protected, "6f6d"),
        "the gold on 6c would recapture"
    );
    let unprotected = "6k5/12/12/6n5/12/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(unprotected, "6f6d"));
    assert_eq!(
        after(unprotected, &[], &["6f6d"]),
        "6k5/12/12/6N5/12/12/12/12/12/12/12/5K6 w - 2"
    );
}

#[test]
fn scenario_04_adjacent_lion_may_always_be_taken() {
    let fen = "6k5/12/12/6g5/6n5/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(fen, "6f6e"));
    assert_eq!(
        after(fen, &[], &["6f6e"]),
        "6k5/12/12/6g5/6N5/12/12/12/12/12/12/5K6 w - 2"
    );
}

#[test]
fn scenario_05_hidden_protector() {
    let fen = "6k5/12/12/6n5/12/6N5/12/12/6r5/12/12/5K6 b - 1";
    assert!(
        !is_legal(fen, "6f6d"),
        "once the lion leaves 6f the rook on 6i sees 6d"
    );
}

#[test]
fn scenario_06_bridge_capture_exception() {
    let silver = "6k5/12/6g5/6n5/6s5/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(
        is_legal(silver, "6f6e6d"),
        "silver, then the protected lion"
    );
    assert_eq!(
        after(silver, &[], &["6f6e6d"]),
        "6k5/12/6g5/6N5/12/12/12/12/12/12/12/5K6 w - 2"
    );
    let pawn = "6k5/12/6g5/6n5/6p5/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(!is_legal(pawn, "6f6e6d"), "a pawn is not worth it");
}

#[test]
fn scenario_07_captured_pawn_still_protects() {
    let fen = "k11/7N4/6p5/6n5/12/12/12/12/12/12/12/5K6 b - 1";
    assert!(!is_legal(fen, "5b6c6d"));
    // Nothing attacks 6d once the pawn and the lion are gone: it is the pawn that forbids it.
    let without_pawn_after = pos("k11/12/12/6N5/12/12/12/12/12/12/12/5K6 w - 2", &[]);
    assert!(
        legal_texts(&without_pawn_after)
            .iter()
            .all(|m| !m.ends_with("6d"))
    );
}

#[test]
fn scenario_08_counter_strike() {
    let fen = "6k2n2/12/9R2/12/12/12/6g5/6N5/12/12/12/5K6 w - 1";
    let game = game_after::<P>(Some(fen), &[], &["6g6h"]);
    assert_eq!(
        game.position().fen(),
        "6k2n2/12/9R2/12/12/12/12/6g5/12/12/12/5K6 b 6h 2"
    );
    assert!(game.position().parse_move("3c3a").is_err());
    assert!(!legal_texts(game.position()).contains(&"3c3a".to_string()));
    let later = game_after::<P>(Some(fen), &[], &["6g6h", "7l7k", "6a7a"]);
    assert!(legal_texts(later.position()).contains(&"3c3a".to_string()));
    let taken = game_after::<P>(Some(fen), &[], &["6g6h", "7l7k", "6a7a", "3c3a"]);
    // The rook is not a lion, so now White is under counter-strike on 3a.
    assert_eq!(
        taken.position().fen(),
        "5k3R2/12/12/12/12/12/12/6g5/12/12/5K6/12 w 3a 5"
    );
}

#[test]
fn scenario_09_promotion_on_entry_and_by_capture() {
    let fen = "k10g/12/7p4/12/6S5/12/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(fen, "6e6d"));
    assert!(is_legal(fen, "6e6d+"));
    assert_eq!(
        after(fen, &[], &["6e6d+"]),
        "k10g/12/7p4/6+S5/12/12/12/12/12/12/12/5K6 w - 2"
    );
    let declined = after(fen, &[], &["6e6d", "12a12b"]);
    assert_eq!(declined, "11g/k11/7p4/6S5/12/12/12/12/12/12/12/5K6 b - 3");
    assert!(is_legal(&declined, "6d6c"));
    assert!(
        !is_legal(&declined, "6d6c+"),
        "no promotion inside the zone without a capture"
    );
    assert!(is_legal(&declined, "6d5c+"), "capturing the pawn");
    assert_eq!(
        after(&declined, &[], &["6d5c+"]),
        "11g/k11/7+S4/12/12/12/12/12/12/12/12/5K6 w - 4"
    );
}

#[test]
fn scenario_10_pawn_and_lance_on_the_last_rank() {
    let fen = "k11/9P2/s5g5/6P4L/12/12/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(fen, "6d6c"), "the pawn captures the gold");
    assert!(!is_legal(fen, "6d6c+"));
    assert!(is_legal(fen, "3b3a"));
    assert!(is_legal(fen, "3b3a+"));
    assert!(is_legal(fen, "1d1a"));
    assert!(
        !is_legal(fen, "1d1a+"),
        "the lance moves inside the zone without capturing"
    );
    assert!(is_legal(fen, "1d1b"));
    assert!(!is_legal(fen, "1d1b+"));
    // A pawn or lance left unpromoted on the last rank is allowed (dead piece).
    assert_eq!(
        after(fen, &[], &["3b3a"]),
        "k8P2/12/s5g5/6P4L/12/12/12/12/12/12/12/5K6 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["1d1a"]),
        "k10L/9P2/s5g5/6P5/12/12/12/12/12/12/12/5K6 w - 2"
    );
    let lishogi = ["promotion=lishogi"];
    assert!(is_legal_with(fen, &lishogi, "6d6c+"));
    assert!(is_legal_with(fen, &lishogi, "1d1a+"));
    assert_eq!(
        after(fen, &lishogi, &["6d6c+"]),
        "k11/9P2/s5+P5/11L/12/12/12/12/12/12/12/5K6 w - 2"
    );
    assert_eq!(
        after(fen, &lishogi, &["1d1a+"]),
        "k10+L/9P2/s5g5/6P5/12/12/12/12/12/12/12/5K6 w - 2"
    );
}

#[test]
fn scenario_11_two_royals() {
    let fen = "6k5/5r6/12/12/12/12/12/12/12/12/12/S4K5+E b - 1";
    assert!(pos(fen, &[]).is_check(), "the rook on 7b attacks the king");
    assert!(is_legal(fen, "1l2l"), "the crown prince keeps Black alive");
    let game = game_after::<P>(Some(fen), &[], &["1l2l", "7b7l"]);
    assert_eq!(
        game.position().fen(),
        "6k5/12/12/12/12/12/12/12/12/12/12/S4r4+E1 b - 3"
    );
    assert_eq!(game.status().to_string(), "ongoing");
    assert!(!legal_texts(game.position()).is_empty());

    let double = "6k5/12/12/12/11R/12/12/12/12/12/5n6/5K+E5 b - 1";
    assert!(
        !is_legal(double, "1e1d"),
        "the lion on 7k would take king and prince with 7k7l6l"
    );
    assert!(is_legal(double, "7l7k"), "the king takes the lion");
    // The threat itself: with White to move, Black's king and prince could both be taken
    // by 7k7l6l, so the engine refuses that position as one Black could not have left.
    assert!(
        P::from_fen_with(
            &options::<P>(&[]),
            "6k5/12/12/12/11R/12/12/12/12/12/5n6/5K+E5 w - 1"
        )
        .is_err()
    );
}

#[test]
fn scenario_12_bare_king() {
    let fen = "6k5/12/9G2/g11/12/12/12/R11/12/12/12/5K6 b - 1";
    assert_eq!(
        after(fen, &[], &["12h12d"]),
        "6k5/12/9G2/R11/12/12/12/12/12/12/12/5K6 w - 2"
    );
    assert_eq!(status(fen, &[], &["12h12d"]), "ongoing");
    assert_eq!(status(fen, &["bare-king=off"], &["12h12d"]), "ongoing");
    assert_eq!(status(fen, &["bare-king=on"], &["12h12d"]), "1-0 bare-king");

    let near = "12/12/1k10/g11/12/12/12/R11/12/12/12/5K6 b - 1";
    for opts in [&[][..], &["bare-king=on"][..]] {
        assert_eq!(
            status(near, opts, &["12h12d"]),
            "ongoing",
            "the rook stands next to White's king ({opts:?})"
        );
        assert_eq!(
            status(near, opts, &["12h12d", "11c12d"]),
            "1/2-1/2 insufficient-material",
            "{opts:?}"
        );
    }
    assert_eq!(
        after(near, &[], &["12h12d", "11c12d"]),
        "12/12/12/k11/12/12/12/12/12/12/12/5K6 b - 3"
    );
}

#[test]
fn scenario_13_repetition_draw() {
    let fen = "g5k5/12/12/12/12/12/12/12/12/12/12/5K5G b - 1";
    let moves = ["7l7k", "6a6b", "7k7l", "6b6a"].repeat(3);
    assert_eq!(status(fen, &[], &moves[..11]), "ongoing");
    let game = game_after::<P>(Some(fen), &[], &moves);
    assert_eq!(
        game.position().fen(),
        "g5k5/12/12/12/12/12/12/12/12/12/12/5K5G b - 13"
    );
    assert_eq!(game.status().to_string(), "1/2-1/2 sennichite");
    // No move attacks anything, so perpetual attack does not apply either.
    assert_eq!(
        status(fen, &["repetition=attack"], &moves),
        "1/2-1/2 sennichite"
    );
}

#[test]
fn scenario_14_perpetual_check_loses() {
    let fen = "g5k5/12/12/12/7R4/12/12/12/12/12/12/5K6 b - 1";
    let moves = ["5e6e", "6a5a", "6e5e", "5a6a"].repeat(3);
    for opts in [
        &[][..],
        &["repetition=shogi"][..],
        &["repetition=attack"][..],
    ] {
        assert_eq!(status(fen, opts, &moves[..11]), "ongoing", "{opts:?}");
        assert_eq!(status(fen, opts, &moves), "0-1 perpetual-check", "{opts:?}");
    }
    // Every Black move gives check.
    let game = game_after::<P>(Some(fen), &[], &moves);
    for (i, p) in game.positions().iter().enumerate().skip(1).step_by(2) {
        assert!(p.is_check(), "after ply {i}");
    }

    let mut strict = Game::new(pos(fen, &["repetition=strict"]));
    for mv in &moves[..4] {
        strict.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // Ply 4 recreated the start position, allowed because White was in check.
    assert_eq!(
        strict.position().fen(),
        "g5k5/12/12/12/7R4/12/12/12/12/12/12/5K6 b - 5"
    );
    assert!(!strict.position().is_check());
    assert!(
        strict.play_text("5e6e").is_err(),
        "recreates the position after ply 1"
    );
    assert!(
        strict
            .play(strict.position().parse_move("5e6e").unwrap())
            .is_err()
    );
    assert_eq!(strict.moves().len(), 4);
}

#[test]
fn scenario_15_horned_falcon() {
    let fen = "g5k5/12/12/6p5/6p5/6+H5/12/12/12/12/12/5K6 b - 1";
    for mv in ["6f6e6f", "6f6e6d", "6f6d"] {
        assert!(is_legal(fen, mv), "{mv} must be legal");
    }
    assert_eq!(
        after(fen, &[], &["6f6e6f"]),
        "g5k5/12/12/6p5/12/6+H5/12/12/12/12/12/5K6 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["6f6e6d"]),
        "g5k5/12/12/6+H5/12/12/12/12/12/12/12/5K6 w - 2"
    );
    assert_eq!(
        after(fen, &[], &["6f6d"]),
        "g5k5/12/12/6+H5/6p5/12/12/12/12/12/12/5K6 w - 2"
    );
    let empty = "g5k5/12/12/12/12/6+H5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(empty, "6f6e"));
    assert!(is_legal(empty, "6f6d"));
    assert!(!is_legal(empty, "6f6c"), "its forward reach is two cells");
    assert!(!is_legal(empty, "6f6b"));
    assert!(is_legal(empty, "6f6e6f"), "a pass along its lion line");
}

// ---- Rules the text implies beyond the scenarios ----

#[test]
fn counter_strike_field_clears_after_the_next_move() {
    let fen = "6k2n2/12/9R2/12/12/12/6g5/6N5/12/12/12/5K6 w - 1";
    let game = game_after::<P>(Some(fen), &[], &["6g6h", "7l7k"]);
    assert_eq!(
        game.position().fen(),
        "6k2n2/12/9R2/12/12/12/12/6g5/12/12/5K6/12 w - 3"
    );
    // The field is read back and kept in the position key.
    let with = pos("6k2n2/12/9R2/12/12/12/12/6g5/12/12/12/5K6 b 6h 2", &[]);
    let without = pos("6k2n2/12/9R2/12/12/12/12/6g5/12/12/12/5K6 b - 2", &[]);
    assert_ne!(with.hash(), without.hash());
    assert!(with.parse_move("3c3a").is_err());
    assert!(without.parse_move("3c3a").is_ok());
}

#[test]
fn counter_strike_still_allows_a_capture_by_own_lion() {
    // Black also has a promoted kirin on 1c, two cells from White's unprotected lion on 3a.
    let fen = "6k2n2/12/9R1+O/12/12/12/6g5/6N5/12/12/12/5K6 w - 1";
    let game = game_after::<P>(Some(fen), &[], &["6g6h"]);
    assert_eq!(
        game.position().fen(),
        "6k2n2/12/9R1+O/12/12/12/12/6g5/12/12/12/5K6 b 6h 2"
    );
    let moves = legal_texts(game.position());
    assert!(
        !moves.contains(&"3c3a".to_string()),
        "the rook is not a lion"
    );
    assert!(
        moves.contains(&"1c3a".to_string()),
        "the lion may take the lion"
    );
    let taken = game_after::<P>(Some(fen), &[], &["6g6h", "1c3a"]);
    assert_eq!(
        taken.position().fen(),
        "6k2+O2/12/9R2/12/12/12/12/6g5/12/12/12/5K6 w - 3",
        "a lion taking a lion sets no counter-strike"
    );
    // Own-lion captures stay subject to rule 2: with a White gold on 4a protecting 3a, the
    // distant capture is illegal.
    let protected = "6k1gn2/12/9R1+O/12/12/12/6g5/6N5/12/12/12/5K6 w - 1";
    let game = game_after::<P>(Some(protected), &[], &["6g6h"]);
    let moves = legal_texts(game.position());
    assert!(
        !moves.contains(&"1c3a".to_string()),
        "3a is protected by the gold on 4a"
    );
    assert!(!moves.contains(&"3c3a".to_string()));
}

#[test]
fn lion_trading_off_allows_protected_distant_lions_and_no_counter_strike() {
    let off = ["lion-trading=off"];
    // Scenario 3: protected by the gold.
    assert!(is_legal_with(
        "6k5/12/6g5/6n5/12/6N5/12/12/12/12/12/5K6 b - 1",
        &off,
        "6f6d"
    ));
    // Scenario 5: hidden protector.
    assert!(is_legal_with(
        "6k5/12/12/6n5/12/6N5/12/12/6r5/12/12/5K6 b - 1",
        &off,
        "6f6d"
    ));
    // Scenario 6 with a pawn as the first victim.
    assert!(is_legal_with(
        "6k5/12/6g5/6n5/6p5/6N5/12/12/12/12/12/5K6 b - 1",
        &off,
        "6f6e6d"
    ));
    // Scenario 7: the captured pawn.
    assert!(is_legal_with(
        "k11/7N4/6p5/6n5/12/12/12/12/12/12/12/5K6 b - 1",
        &off,
        "5b6c6d"
    ));
    // Scenario 8: no counter-strike field, the rook may take the lion at once.
    let fen = "6k2n2/12/9R2/12/12/12/6g5/6N5/12/12/12/5K6 w - 1";
    let game = game_after::<P>(Some(fen), &off, &["6g6h"]);
    assert_eq!(
        game.position().fen(),
        "6k2n2/12/9R2/12/12/12/12/6g5/12/12/12/5K6 b - 2"
    );
    assert!(legal_texts(game.position()).contains(&"3c3a".to_string()));
}

#[test]
fn promoted_kirin_is_a_lion_for_lion_trading() {
    // Scenario 3 with a promoted kirin as attacker, then as victim.
    assert!(!is_legal(
        "6k5/12/6g5/6n5/12/6+O5/12/12/12/12/12/5K6 b - 1",
        "6f6d"
    ));
    assert!(!is_legal(
        "6k5/12/6g5/6+o5/12/6N5/12/12/12/12/12/5K6 b - 1",
        "6f6d"
    ));
    assert!(is_legal(
        "6k5/12/12/6+o5/12/6N5/12/12/12/12/12/5K6 b - 1",
        "6f6d"
    ));
}

#[test]
fn lion_bridge_capture_along_a_diagonal() {
    // Lion on 6f, a victim on 5e, White's lion on 4d protected by the gold on 4c.
    let pawn = "k11/12/8g3/8n3/7p4/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(
        !is_legal(pawn, "6f5e4d"),
        "pawn first: the lion is protected"
    );
    assert!(!is_legal(pawn, "6f4d"), "direct jump onto a protected lion");
    assert!(is_legal(pawn, "6f5e6f"), "igui on the pawn is fine");
    let go_between = "k11/12/8g3/8n3/7i4/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(
        !is_legal(go_between, "6f5e4d"),
        "a go-between is not worth it either"
    );
    let silver = "k11/12/8g3/8n3/7s4/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(silver, "6f5e4d"), "silver first: allowed");
    assert_eq!(
        after(silver, &[], &["6f5e4d"]),
        "k11/12/8g3/8N3/12/12/12/12/12/12/12/5K6 w - 2"
    );
    let promoted_pawn = "k11/12/8g3/8n3/7+p4/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(promoted_pawn, "6f5e4d"), "a tokin is not a pawn");
}

#[test]
fn horned_falcon_takes_a_protected_lion_only_counter_strike_applies() {
    // White's lion on 6d is protected by the gold on 6c; Black also has a lion on 2h
    // attacked by White's gold on 2g.
    let pawn = "6k5/12/6g5/6n5/6p5/6+H5/10g1/10N1/12/12/12/5K6 b - 1";
    assert!(
        is_legal(pawn, "6f6e6d"),
        "the falcon is no lion: rule 2 does not apply"
    );
    assert!(is_legal(pawn, "6f6d"));
    let game = game_after::<P>(Some(pawn), &[], &["6f6e6d"]);
    assert_eq!(
        game.position().fen(),
        "6k5/12/6g5/6+H5/12/12/10g1/10N1/12/12/12/5K6 w 6d 2"
    );
    assert!(
        !legal_texts(game.position()).contains(&"2g2h".to_string()),
        "counter-strike: White may not take a lion with the gold"
    );
    let jump = game_after::<P>(Some(pawn), &[], &["6f6d"]);
    assert_eq!(
        jump.position().fen(),
        "6k5/12/6g5/6+H5/6p5/12/10g1/10N1/12/12/12/5K6 w 6d 2"
    );

    let silver = "6k5/12/6g5/6n5/6s5/6+H5/10g1/10N1/12/12/12/5K6 b - 1";
    assert!(is_legal(silver, "6f6e6d"));
    let game = game_after::<P>(Some(silver), &[], &["6f6e6d"]);
    assert_eq!(
        game.position().fen(),
        "6k5/12/6g5/6+H5/12/12/10g1/10N1/12/12/12/5K6 w - 2",
        "the lion was the second victim after a silver: no counter-strike"
    );
    assert!(legal_texts(game.position()).contains(&"2g2h".to_string()));
}

#[test]
fn soaring_eagle_takes_a_protected_lion_only_counter_strike_applies() {
    // Eagle on 6f, a victim on 5e, White's lion on 4d protected by the gold on 4c.
    let pawn = "k11/12/8g3/8n3/7p4/6+D5/10g1/10N1/12/12/12/5K6 b - 1";
    assert!(
        is_legal(pawn, "6f5e4d"),
        "the eagle is no lion: rule 2 does not apply"
    );
    assert!(is_legal(pawn, "6f5e6f"), "igui along the lion line");
    let game = game_after::<P>(Some(pawn), &[], &["6f5e4d"]);
    assert_eq!(
        game.position().fen(),
        "k11/12/8g3/8+D3/12/12/10g1/10N1/12/12/12/5K6 w 4d 2"
    );
    assert!(!legal_texts(game.position()).contains(&"2g2h".to_string()));

    let silver = "k11/12/8g3/8n3/7s4/6+D5/10g1/10N1/12/12/12/5K6 b - 1";
    assert!(is_legal(silver, "6f5e4d"));
    let game = game_after::<P>(Some(silver), &[], &["6f5e4d"]);
    assert_eq!(
        game.position().fen(),
        "k11/12/8g3/8+D3/12/12/10g1/10N1/12/12/12/5K6 w - 2"
    );
    assert!(legal_texts(game.position()).contains(&"2g2h".to_string()));
    // The eagle has no lion power backwards or orthogonally, and reaches only two cells
    // along a forward diagonal.
    let empty = "k11/12/12/12/12/6+D5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(empty, "6f4d"));
    assert!(!is_legal(empty, "6f3c"));
    assert!(is_legal(empty, "6f6a"), "ranges straight forward");
    assert!(is_legal(empty, "6f3i"), "ranges diagonally backward");
}

#[test]
fn promotion_lishogi_option() {
    let fen = "k11/12/12/5P6/6P5/12/12/12/12/12/12/5K6 b - 1";
    for opts in [&[][..], &["promotion=lishogi"][..]] {
        assert!(
            is_legal_with(fen, opts, "6e6d+"),
            "a pawn entering ({opts:?})"
        );
        assert!(is_legal_with(fen, opts, "7d7c"), "{opts:?}");
        assert!(
            !is_legal_with(fen, opts, "7d7c+"),
            "no capture, not the last rank ({opts:?})"
        );
    }
    let lance = "k11/12/12/11L/12/12/12/12/12/12/12/5K6 b - 1";
    assert!(!is_legal(lance, "1d1a+"));
    assert!(is_legal_with(lance, &["promotion=lishogi"], "1d1a+"));
    assert!(!is_legal_with(lance, &["promotion=lishogi"], "1d1b+"));
    // A lance capturing from inside the zone may promote under both rules.
    let capture = "k11/11g/12/11L/12/12/12/12/12/12/12/5K6 b - 1";
    for opts in [&[][..], &["promotion=lishogi"][..]] {
        assert!(is_legal_with(capture, opts, "1d1b+"), "{opts:?}");
    }
}

#[test]
fn repetition_attack_loses_for_perpetual_attack_without_check() {
    // Black's rook chases White's gold between 12b and 12c, never giving check.
    let fen = "6k5/g11/10R1/12/12/12/12/12/12/12/12/5K6 b - 1";
    let moves = ["2c2b", "12b12c", "2b2c", "12c12b"].repeat(3);
    let game = game_after::<P>(Some(fen), &[], &moves);
    for (i, p) in game.positions().iter().enumerate() {
        assert!(!p.is_check(), "no check after ply {i}");
    }
    assert_eq!(status(fen, &[], &moves[..11]), "ongoing");
    assert_eq!(status(fen, &[], &moves), "1/2-1/2 sennichite");
    assert_eq!(status(fen, &["repetition=attack"], &moves[..11]), "ongoing");
    assert_eq!(
        status(fen, &["repetition=attack"], &moves),
        "0-1 perpetual-check"
    );
}

#[test]
fn bare_king_exception_when_the_bared_royal_attacks_a_royal() {
    // Black (king, crown prince, rook, gold) takes White's last piece with the king, which
    // lands next to White's king: the bared king attacks a royal, so no bare-king win. The
    // king may stand attacked because the crown prince is a second royal piece.
    let fen = "12/12/7k4/6g5/5K6/12/12/1R10/12/12/12/G10+E b - 1";
    assert!(is_legal_with(fen, &["bare-king=on"], "7e6d"));
    assert_eq!(status(fen, &["bare-king=on"], &["7e6d"]), "ongoing");
    // The same capture with White's king far away wins at once (only under the option).
    let far = "k11/12/12/6g5/5K6/12/12/1R10/12/12/12/G10+E b - 1";
    assert_eq!(status(far, &["bare-king=on"], &["7e6d"]), "1-0 bare-king");
    assert_eq!(status(far, &[], &["7e6d"]), "ongoing");
}

#[test]
fn adjacent_protected_lion_may_be_taken_by_igui() {
    let fen = "6k5/12/12/6g5/6n5/6N5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(fen, "6f6e6f"));
    assert_eq!(
        after(fen, &[], &["6f6e6f"]),
        "6k5/12/12/6g5/12/6N5/12/12/12/12/12/5K6 w - 2"
    );
}

#[test]
fn pinned_protector_still_protects_a_distant_lion() {
    // White's gold on 7c protects 6d but is pinned to its king on 7a by Black's rook on 7h.
    let fen = "5k6/12/5g6/6n5/12/6N5/12/5R6/12/12/12/5K6 b - 1";
    assert!(!is_legal(fen, "6f6d"));
    assert!(is_legal_with(fen, &["lion-trading=off"], "6f6d"));
}

#[test]
fn chu_promotion_by_capture_from_the_zone_ending_outside() {
    let fen = "k11/12/12/6S5/7g4/12/12/12/12/12/12/5K6 b - 1";
    assert!(
        is_legal(fen, "6d5e+"),
        "a capture by a move starting in the zone"
    );
    assert!(is_legal(fen, "6d5e"));
    assert!(is_legal(fen, "6d7e"));
    assert!(
        !is_legal(fen, "6d7e+"),
        "leaving the zone without a capture"
    );
}

#[test]
fn drunk_elephant_becomes_crown_prince_but_promoted_go_between_never() {
    let fen = "k11/12/12/12/6+IE4/12/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(fen, "5e5d+"));
    assert!(!is_legal(fen, "6e6d+"), "+I does not promote further");
    assert!(is_legal(fen, "6e6d"));
    assert_eq!(
        after(fen, &[], &["5e5d+"]),
        "k11/12/12/7+E4/6+I5/12/12/12/12/12/12/5K6 w - 2"
    );
}

#[test]
fn no_legal_move_loses() {
    let stalemate = "k11/2S9/1G10/12/12/12/12/12/12/12/12/5K6 w - 1";
    assert!(legal(stalemate, &[]).is_empty());
    assert!(!pos(stalemate, &[]).is_check());
    assert_eq!(status(stalemate, &[], &[]), "1-0 stalemate");
    let mate = "k11/2S8R/1G10/12/12/12/12/12/12/12/12/5K6 b - 1";
    assert_eq!(status(mate, &[], &["1b1a"]), "1-0 checkmate");
}

#[test]
fn bare_king_ignores_dead_pawns_and_needs_a_real_piece() {
    let on = ["bare-king=on"];
    // White's pawn on 1l, its own last rank, is dead: taking the gold bares White.
    let dead = "6k5/12/9G2/g11/12/12/12/R11/12/12/12/5K5p b - 1";
    assert_eq!(status(dead, &on, &["12h12d"]), "1-0 bare-king");
    assert_eq!(status(dead, &[], &["12h12d"]), "ongoing");
    // On 1k the pawn can still move: no bare king.
    let alive = "6k5/12/9G2/g11/12/12/12/R11/12/12/11p/5K6 b - 1";
    assert_eq!(status(alive, &on, &["12h12d"]), "ongoing");
    // Black keeps only a pawn besides the king: no win.
    let weak = "6k5/12/12/12/12/12/12/12/11P/12/5g6/5K6 b - 1";
    assert_eq!(status(weak, &on, &["7l7k"]), "ongoing");
}

#[test]
fn falcon_and_eagle_jump_over_the_first_cell() {
    // An own pawn on the first cell of the lion line does not stop the jump to the second.
    let falcon = "g5k5/12/12/12/6P5/6+H5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(falcon, "6f6d"));
    let eagle = "k10g/12/12/12/7P4/6+D5/12/12/12/12/12/5K6 b - 1";
    assert!(is_legal(eagle, "6f4d"));
    assert!(!is_legal(eagle, "6f3c"));
}

#[test]
fn falcon_or_eagle_threatening_both_royals() {
    // White's horned falcon on 7j could take the king on 7k and the prince on 7l in one move.
    let falcon = "6k5/12/12/12/11R/12/12/12/12/5+h6/5K6/5+E6 b - 1";
    assert!(!is_legal(falcon, "1e1d"));
    assert!(is_legal(falcon, "7k6k"));
    assert!(is_legal(falcon, "7k7j"), "the king takes the falcon");
    // White's soaring eagle on 7j could take the king on 6k and the prince on 5l.
    let eagle = "6k5/12/12/12/11R/12/12/12/12/5+d6/6K5/7+E4 b - 1";
    assert!(!is_legal(eagle, "1e1d"));
    assert!(is_legal(eagle, "6k5k"));
}

#[test]
fn a_lion_move_may_be_clicked_as_two_steps_through_an_empty_cell() {
    let fen = "g5k5/12/12/12/6p5/6N5/12/12/12/12/12/5K6 b - 1";
    let position = pos(fen, &[]);
    let routes = |text: &str| -> Vec<String> {
        let mv = position.parse_move(text).unwrap();
        let mut routes: Vec<String> = position
            .move_shape(mv)
            .routes
            .into_iter()
            .map(|route| route.join(","))
            .collect();
        routes.sort();
        routes
    };
    // A leap two away: through each empty neighbour next to its end; not through the pawn
    // on 6e, where two steps are another move (igui's capture on the way).
    assert_eq!(routes("6f4d"), ["5e"]);
    assert_eq!(routes("6f8f"), ["7e", "7f", "7g"]);
    // A step: through the empty cells next to both.
    assert_eq!(routes("6f7f"), ["6g", "7e", "7g"]);
    // The pass: out through any empty neighbour and back.
    let pass = from_cell(fen, "6f")
        .into_iter()
        .find(|m| m.len() == 6 && m.ends_with("6f") && m != "6f6e6f")
        .expect("a pass");
    assert_eq!(
        routes(&pass).len(),
        6,
        "{pass}: seven empty neighbours, one its own way"
    );
    // Through a man there is no other way: igui and the double capture are their own moves.
    assert!(routes("6f6e6f").is_empty());
    assert!(routes("6f6e6d").is_empty());
    // Lion power along a line: the falcon's leap over the empty first cell.
    let falcon = "g5k5/12/12/12/12/6+H5/12/12/12/12/12/5K6 b - 1";
    let position = pos(falcon, &[]);
    let mv = position.parse_move("6f6d").unwrap();
    assert_eq!(position.move_shape(mv).routes, [vec!["6e".to_string()]]);
}
