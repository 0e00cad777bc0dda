//! Every scenario of `docs/rules/outer.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::outer::OuterPosition;
use common::{game_after, legal_texts, options};

/// A position under the given rule options.
fn position_with(opts: &[&str], fen: &str) -> OuterPosition {
    use chaturanga_rules::Ruleset;
    OuterPosition::from_fen_with(&options::<OuterPosition>(opts), fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position_with(&[], fen))
}

/// The cell a move text starts on: a letter and the digits after it (`c10c12m` -> `c10`).
fn from_cell(text: &str) -> &str {
    let end = 1 + text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len() - 1);
    &text[..end]
}

/// The sorted destination cells of the piece on `from`.
fn targets(fen: &str, from: &str) -> Vec<String> {
    let mut cells: Vec<String> = legal(fen)
        .into_iter()
        .filter(|m| from_cell(m) == from)
        .map(|m| m[from.len()..].to_string())
        .collect();
    cells.sort();
    cells
}

fn sorted(cells: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    v.sort();
    v
}

/// Kings out of the way for the "empty board" scenarios: White Kl7, Black Kh12.
fn alone(piece_row: &str, rank: u32) -> String {
    let mut rows = vec!["1************1".to_string()];
    for r in (1..=12).rev() {
        rows.push(match r {
            _ if r == rank => piece_row.to_string(),
            12 => "*7k4*".to_string(),
            7 => "*11K*".to_string(),
            _ => "*12*".to_string(),
        });
    }
    rows.push("1************1".to_string());
    format!("{} w - - 0 1", rows.join("/"))
}

#[test]
fn scenario_01_pawn_first_move_up_to_four_then_two() {
    // White Pe2, Kg1; Black Kg12.
    let fen = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*4P7*/*6K5*/1************1 w - - 0 1";
    let moves = legal(fen);
    assert!(moves.contains(&"e2e6".to_string()), "{moves:?}");
    assert!(!moves.contains(&"e2e7".to_string()), "{moves:?}");
    let game = game_after::<OuterPosition>(Some(fen), &[], &["e2e3", "g12f12"]);
    let moves = legal_texts(game.position());
    assert!(!moves.contains(&"e3e6".to_string()), "{moves:?}");
    assert!(moves.contains(&"e3e5".to_string()), "{moves:?}");
}

#[test]
fn scenario_02_last_rank_only_by_a_single_step() {
    // White Pg10 (g11, g12 empty), Ka1; Black Ka10.
    let fen = "1************1/*12*/*12*/*k5P5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*K11*/1************1 w - - 0 1";
    let moves = legal(fen);
    assert!(!moves.contains(&"g10g12".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("g10g12")), "{moves:?}");
    assert!(moves.contains(&"g10g11".to_string()), "{moves:?}");
    let game = game_after::<OuterPosition>(Some(fen), &[], &["g10g11", "a10a9"]);
    assert!(game.position().parse_move("g11g12").is_err());
    let promoted = game_after::<OuterPosition>(Some(fen), &[], &["g10g11", "a10a9", "g11g12m"]);
    assert_eq!(
        promoted.position().fen(),
        "1************1/*6M5*/*12*/*12*/*k11*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*K11*/1************1 b - - 0 2"
    );
}

#[test]
fn scenario_03_en_passant_after_two_cell_advances_by_default() {
    // White Pc2, Kg1; Black pawns b5, d4, d5, Kg12.
    let three = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*1p1p8*/*3p8*/*12*/*2P9*/*6K5*/1************1 w - - 0 1";
    let after_c5 = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*1pPp8*/*3p8*/*12*/*12*/*6K5*/1************1 b";
    let captures = ["d4c3", "b5c4", "d5c4"];
    // Default: a three-cell advance cannot be taken.
    let game = game_after::<OuterPosition>(Some(three), &[], &["c2c5"]);
    assert_eq!(game.position().fen(), format!("{after_c5} - - 0 1"));
    let moves = legal_texts(game.position());
    for c in captures {
        assert!(!moves.contains(&c.to_string()), "{c}: {moves:?}");
    }
    // Blanchard: onto c3 from d4, onto c4 from b5 or d5, on the next move only.
    let any = ["en-passant=any-advance"];
    let game = game_after::<OuterPosition>(Some(three), &any, &["c2c5"]);
    assert_eq!(game.position().fen(), format!("{after_c5} - c3c4 0 1"));
    let moves = legal_texts(game.position());
    for c in captures {
        assert!(moves.contains(&c.to_string()), "{c}: {moves:?}");
    }
    let taken = game_after::<OuterPosition>(Some(three), &any, &["c2c5", "d4c3"]);
    assert_eq!(
        taken.position().fen(),
        "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*1p1p8*/*12*/*2p9*/*12*/*6K5*/1************1 w - - 0 2"
    );
    let later = game_after::<OuterPosition>(Some(three), &any, &["c2c5", "g12f12", "g1f1"]);
    let moves = legal_texts(later.position());
    for c in captures {
        assert!(!moves.contains(&c.to_string()), "{c}: {moves:?}");
    }
    // A two-cell first move c2-c4 can be taken on c3 from b4 or d4, in both settings.
    let two = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*1p1p8*/*12*/*2P9*/*6K5*/1************1 w - - 0 1";
    // A later two-cell move c4-c6 can be taken on c5 from b6 or d6.
    let later_two = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*1p1p8*/*12*/*2P9*/*12*/*12*/*6K5*/1************1 w - - 0 1";
    for opts in [&[][..], &any[..]] {
        for (fen, advance, ep, caps) in [
            (two, "c2c4", "c3", ["b4c3", "d4c3"]),
            (later_two, "c4c6", "c5", ["b6c5", "d6c5"]),
        ] {
            let game = game_after::<OuterPosition>(Some(fen), opts, &[advance]);
            let written = game.position().fen();
            assert_eq!(written.split(' ').nth(3), Some(ep), "{opts:?} {written}");
            let moves = legal_texts(game.position());
            for c in caps {
                assert!(moves.contains(&c.to_string()), "{opts:?} {c}: {moves:?}");
            }
            let later = game_after::<OuterPosition>(Some(fen), opts, &[advance, "g12f12", "g1f1"]);
            let moves = legal_texts(later.position());
            for c in caps {
                assert!(!moves.contains(&c.to_string()), "{opts:?} {c}: {moves:?}");
            }
        }
    }
}

#[test]
fn scenario_04_outer_knight_in_the_outer_zone() {
    let fen = alone("*1N10*", 2);
    assert_eq!(
        targets(&fen, "b2"),
        sorted(&["a6", "c6", "d5", "e4", "f1", "f3"])
    );
}

#[test]
fn scenario_05_outer_knight_in_the_middle_and_inner_zones() {
    assert_eq!(
        targets(&alone("*2N9*", 3), "c3"),
        sorted(&["a1", "a5", "b6", "d6", "e1", "e5", "f2", "f4"])
    );
    assert_eq!(
        targets(&alone("*4N7*", 5), "e5"),
        sorted(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    );
}

#[test]
fn scenario_06_outer_knight_on_z1() {
    // White Nz1; White Kl7, Black Kh12.
    let fen = "1************1/*7k4*/*12*/*12*/*12*/*12*/*11K*/*12*/*12*/*12*/*12*/*12*/*12*/N************1 w - - 0 1";
    assert_eq!(targets(fen, "z1"), sorted(&["a4", "b3", "c2", "d1"]));
}

#[test]
fn scenario_07_matriarch_range_by_zone() {
    let middle = targets(&alone("*2M9*", 3), "c3");
    assert!(middle.contains(&"i9".to_string()), "{middle:?}");
    assert!(!middle.contains(&"j10".to_string()), "{middle:?}");
    assert!(middle.contains(&"z1".to_string()), "{middle:?}");
    let inner = targets(&alone("*4M7*", 5), "e5");
    assert!(inner.contains(&"h8".to_string()), "{inner:?}");
    assert!(inner.contains(&"b2".to_string()), "{inner:?}");
    assert!(!inner.contains(&"a1".to_string()), "{inner:?}");
}

#[test]
fn scenario_08_jumper_by_zone() {
    assert_eq!(
        targets(&alone("*J11*", 1), "a1"),
        sorted(&["a2", "b1", "b2", "z1", "a4", "d1", "d4"])
    );
    assert_eq!(
        targets(&alone("*2J9*", 3), "c3"),
        sorted(&[
            "b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4", "a1", "a3", "a5", "c1", "c5", "e1",
            "e3", "e5",
        ])
    );
    assert_eq!(
        targets(&alone("*4J7*", 5), "e5"),
        sorted(&["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"])
    );
}

#[test]
fn scenario_09_guard_on_d1() {
    assert_eq!(
        targets(&alone("*3W8*", 1), "d1"),
        sorted(&["a2", "c2", "c4", "e2", "e4", "g2"])
    );
}

#[test]
fn scenario_10_castling_three_cells_and_its_safety() {
    // White Rb1, Kg1, Rk1 with both rights; Black Kg12.
    let fen = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1";
    let moves = legal(fen);
    assert!(moves.contains(&"g1j1".to_string()), "{moves:?}");
    assert!(moves.contains(&"g1d1".to_string()), "{moves:?}");
    let short = game_after::<OuterPosition>(Some(fen), &[], &["g1j1"]);
    assert_eq!(
        short.position().fen(),
        "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*1R6RK2*/1************1 b - - 1 1"
    );
    let long = game_after::<OuterPosition>(Some(fen), &[], &["g1d1"]);
    assert_eq!(
        long.position().fen(),
        "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*3KR5R1*/1************1 b - - 1 1"
    );
    // A black rook attacking g1 (from g6), f1, e1 or d1 (from f8, e8, d8) forbids O-O-O.
    for (attacker, fen) in [
        (
            "g6",
            "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*6r5*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1",
        ),
        (
            "f8",
            "1************1/*6k5*/*12*/*12*/*12*/*5r6*/*12*/*12*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1",
        ),
        (
            "e8",
            "1************1/*6k5*/*12*/*12*/*12*/*4r7*/*12*/*12*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1",
        ),
        (
            "d8",
            "1************1/*6k5*/*12*/*12*/*12*/*3r8*/*12*/*12*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1",
        ),
    ] {
        for opts in [&[][..], &["castling-safety=strict"][..]] {
            let moves = legal_texts(&position_with(opts, fen));
            assert!(
                !moves.contains(&"g1d1".to_string()),
                "rook on {attacker} {opts:?}"
            );
        }
    }
    // A black rook on c8 attacks only c1: legal by default, illegal under strict safety.
    let c1 = "1************1/*6k5*/*12*/*12*/*12*/*2r9*/*12*/*12*/*12*/*12*/*12*/*12*/*1R4K3R1*/1************1 w KQ - 0 1";
    assert!(legal(c1).contains(&"g1d1".to_string()));
    let strict = legal_texts(&position_with(&["castling-safety=strict"], c1));
    assert!(!strict.contains(&"g1d1".to_string()), "{strict:?}");
}

#[test]
fn scenario_11_rooks_never_reach_corner_cells_bishops_do() {
    // White rooks on a1, l1, a12, l12; White Ke5, Black Kg8.
    let rooks = legal(
        "1************1/*R10R*/*12*/*12*/*12*/*6k5*/*12*/*12*/*4K7*/*12*/*12*/*12*/*R10R*/1************1 w - - 0 1",
    );
    let rook_moves: Vec<&String> = rooks
        .iter()
        .filter(|m| ["a1", "l1", "a12", "l12"].contains(&from_cell(m)))
        .collect();
    assert!(!rook_moves.is_empty());
    for m in rook_moves {
        assert!(!m.contains('z'), "{m}");
    }
    // White Bd4 with c3, b2, a1 empty, Kg1; Black Kg12.
    let fen = "1************1/*6k5*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*3B8*/*12*/*12*/*6K5*/1************1 w - - 0 1";
    assert!(legal(fen).contains(&"d4z1".to_string()));
}

#[test]
fn scenario_12_promotion_choices() {
    // White Pl11 (l12 empty), Ka1; Black Ka10.
    let fen = "1************1/*12*/*11P*/*k11*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*K11*/1************1 w - - 0 1";
    let p = position_with(&[], fen);
    assert!(p.parse_move("l11l12k").is_err());
    assert!(p.parse_move("l11l12p").is_err());
    assert!(p.parse_move("l11l12j").is_ok());
    assert!(p.parse_move("l11l12w").is_ok());
}
