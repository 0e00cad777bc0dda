//! Every scenario of `docs/rules/gess.md`, in its order, as a named test, followed by tests
//! of rules the text states without a numbered scenario (draws, no legal move, FEN).

use crate::common;

use chaturanga_rules::{Position, Ruleset, perft};
use chaturanga_variants::gess::{GessPosition, START_FEN};
use common::{game_after, legal_texts, options};

/// A Gess FEN from White's and Black's stone cells (`"d4 e4 f4"`) and the fields after the
/// board (`"w 1"`).
fn setup(white: &str, black: &str, tail: &str) -> String {
    let mut grid = [['.'; 20]; 20];
    for (stones, letter) in [(white, 'S'), (black, 's')] {
        for cell in stones.split_whitespace() {
            let file = (cell.as_bytes()[0] - b'a') as usize;
            let rank: usize = cell[1..].parse().unwrap();
            assert!(file < 20 && (1..=20).contains(&rank), "{cell}");
            assert_eq!(grid[rank - 1][file], '.', "{cell} used twice");
            grid[rank - 1][file] = letter;
        }
    }
    let rows: Vec<String> = (0..20)
        .rev()
        .map(|r| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in &grid[r] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {tail}", rows.join("/"))
}

const RING_E5: &str = "d4 e4 f4 d5 f5 d6 e6 f6";
const RING_O15: &str = "n14 o14 p14 n15 p15 n16 o16 p16";

fn position_with(opts: &[&str], fen: &str) -> GessPosition {
    game_after::<GessPosition>(Some(fen), opts, &[])
        .position()
        .clone()
}

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position_with(&[], fen))
}

/// The destinations of the piece centred on `centre`.
fn targets(moves: &[String], centre: &str) -> Vec<String> {
    let mut out: Vec<String> = moves
        .iter()
        .filter_map(|m| m.strip_prefix(centre))
        .filter(|rest| rest.as_bytes()[0].is_ascii_alphabetic())
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

/// The sorted cells holding `player`'s stones.
fn stones(p: &GessPosition, player: u8) -> Vec<String> {
    let mut out = Vec::new();
    for file in "abcdefghijklmnopqrst".chars() {
        for rank in 1..=20 {
            let label = format!("{file}{rank}");
            if p.stone_at(p.cell(&label).unwrap()) == Some(player) {
                out.push(label);
            }
        }
    }
    out.sort();
    out
}

fn sorted(cells: &str) -> Vec<String> {
    let mut v: Vec<String> = cells.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

fn status_after(fen: &str, moves: &[&str]) -> String {
    game_after::<GessPosition>(Some(fen), &[], moves)
        .status()
        .to_string()
}

#[test]
fn setup_helper_writes_the_start_position() {
    let white = "c2 e2 g2 h2 i2 j2 k2 l2 m2 n2 p2 r2 b3 c3 d3 f3 h3 i3 j3 k3 m3 o3 q3 r3 s3 \
                 c4 e4 g4 h4 i4 j4 k4 l4 m4 n4 p4 r4 c7 f7 i7 l7 o7 r7";
    let black = "c19 e19 g19 h19 i19 j19 k19 l19 m19 n19 p19 r19 b18 c18 d18 f18 h18 i18 j18 \
                 k18 m18 o18 q18 r18 s18 c17 e17 g17 h17 i17 j17 k17 l17 m17 n17 p17 r17 \
                 c14 f14 i14 l14 o14 r14";
    assert_eq!(setup(white, black, "b 1"), START_FEN);
}

#[test]
fn scenario_01_start_position() {
    let p = position_with(&[], START_FEN);
    assert_eq!(p.stone_count(0), 43);
    assert_eq!(p.stone_count(1), 43);
    assert_eq!(p.ring_centres(1), [p.cell("l3").unwrap()]);
    assert_eq!(p.ring_centres(0), [p.cell("l18").unwrap()]);
    assert_eq!(p.side_to_move(), 0, "Black moves first");
    // The rules file's count of distinct from-centre/to-centre pairs.
    let moves = legal_texts(&p);
    assert_eq!(moves.len(), 184);
    assert_eq!(perft(&p, 1), 184);
    let white = position_with(&[], &START_FEN.replace(" b 1", " w 1"));
    assert_eq!(legal_texts(&white).len(), 184);
}

#[test]
fn scenario_02_piece_shape() {
    let moves = legal(START_FEN);
    assert_eq!(targets(&moves, "c18"), ["b18", "c16", "c17", "c19", "d18"]);
    assert!(targets(&moves, "d18").is_empty());
    assert_eq!(targets(&moves, "l18"), ["l16", "l17", "l19"]);
}

#[test]
fn scenario_03_collision_rule() {
    let moves = legal(START_FEN);
    assert!(moves.iter().any(|m| m == "c18c16"));
    assert!(!moves.iter().any(|m| m == "c18c15"));
    let p = position_with(&[], START_FEN);
    assert!(p.parse_move("c18c15").is_err());
    assert!(p.parse_move("c18-c16").is_ok());
    // Under standard Gess the move is legal and removes Black's own c14.
    let standard = game_after::<GessPosition>(None, &["movement=standard"], &["c18c15"]);
    let p = standard.position();
    assert_eq!(
        p.stone_at(p.cell("c14").unwrap()),
        Some(0),
        "c17's stone lands there"
    );
    assert_eq!(p.stone_count(0), 42, "c14 was removed");
}

#[test]
fn scenario_04_merging() {
    let game = game_after::<GessPosition>(None, &[], &["c18d18"]);
    let p = game.position();
    for cell in ["c18", "d17", "d18", "d19", "e17", "e18", "e19", "f18"] {
        assert_eq!(p.stone_at(p.cell(cell).unwrap()), Some(0), "{cell}");
    }
    for cell in ["b18", "c17", "c19"] {
        assert_eq!(p.stone_at(p.cell(cell).unwrap()), None, "{cell}");
    }
    assert_eq!(p.stone_count(0), 43);
    // It stopped after one step: c18-e18 is no move.
    assert!(!legal(START_FEN).iter().any(|m| m == "c18e18"));
}

#[test]
fn scenario_05_capture() {
    let fen = setup(
        &format!("{RING_E5} h10 h11"),
        &format!("{RING_O15} i14"),
        "w 1",
    );
    assert_eq!(targets(&legal(&fen), "h10"), ["h11", "h12", "h13"]);
    let game = game_after::<GessPosition>(Some(&fen), &[], &["h10h13"]);
    let p = game.position();
    assert_eq!(stones(p, 0), sorted(RING_O15), "i14 removed");
    assert_eq!(stones(p, 1), sorted(&format!("{RING_E5} h13 h14")));
    assert!(position_with(&[], &fen).parse_move("h10h14").is_err());
}

#[test]
fn scenario_06_winning_by_breaking_the_enemy_ring() {
    let fen = setup(&format!("{RING_E5} o10 o11"), RING_O15, "w 1");
    assert!(legal(&fen).iter().any(|m| m == "o10o13"));
    let game = game_after::<GessPosition>(Some(&fen), &[], &["o10o13"]);
    let p = game.position();
    // n14, o14 and p14 are gone; the piece's stones stand on o13 and o14.
    assert_eq!(stones(p, 0), sorted("n15 p15 n16 o16 p16"));
    assert_eq!(stones(p, 1), sorted(&format!("{RING_E5} o13 o14")));
    assert_eq!(p.ring_count(0), 0);
    assert_eq!(game.status().to_string(), "0-1 royal-captured");
    assert!(legal_texts(p).is_empty());
}

#[test]
fn scenario_07_neither_player_has_a_ring() {
    let white = "n9 o9 p9 n10 p10 n11 o11 p11 o12";
    let fen = setup(white, RING_O15, "w 1");
    let p = position_with(&[], &fen);
    assert_eq!(p.ring_count(1), 1);
    assert!(legal(&fen).iter().any(|m| m == "o11o13"));
    let game = game_after::<GessPosition>(Some(&fen), &[], &["o11o13"]);
    assert_eq!(game.position().ring_count(0), 0);
    assert_eq!(game.position().ring_count(1), 0);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    // With the e5 ring as well, the same move wins.
    let fen = setup(&format!("{white} {RING_E5}"), RING_O15, "w 1");
    assert_eq!(status_after(&fen, &["o11o13"]), "0-1 royal-captured");
}

#[test]
fn scenario_08_breaking_your_own_last_ring() {
    let fen = setup(RING_E5, RING_O15, "w 1");
    assert!(legal(&fen).iter().any(|m| m == "f5f8"));
    let game = game_after::<GessPosition>(Some(&fen), &[], &["f5f8"]);
    assert_eq!(game.position().ring_count(1), 0);
    assert_eq!(game.position().ring_count(0), 1);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
}

#[test]
fn scenario_09_edge_rule_and_centre_limit() {
    let fen = setup(&format!("{RING_E5} b10 b11 c10 c11"), RING_O15, "w 1");
    let moves = legal(&fen);
    let c10 = targets(&moves, "c10");
    for to in ["b10", "b11", "c19"] {
        assert!(c10.iter().any(|t| t == to), "{to}: {c10:?}");
    }
    assert!(!c10.iter().any(|t| t.starts_with('a')), "{c10:?}");
    let p = position_with(&[], &fen);
    assert!(p.parse_move("c10a10").is_err());
    let west = game_after::<GessPosition>(Some(&fen), &[], &["c10b10"]);
    assert_eq!(
        stones(west.position(), 1),
        sorted(&format!("{RING_E5} b10 b11"))
    );
    let north = game_after::<GessPosition>(Some(&fen), &[], &["c10c19"]);
    assert_eq!(
        stones(north.position(), 1),
        sorted(&format!("{RING_E5} b19 c19"))
    );
}

#[test]
fn scenario_10_range_limit_with_an_empty_centre() {
    let fen = setup(&format!("{RING_E5} j10"), RING_O15, "w 1");
    let moves = legal(&fen);
    assert_eq!(targets(&moves, "j9"), ["j10", "j11", "j12"]);
    assert!(targets(&moves, "j10").is_empty());
    assert_eq!(targets(&moves, "k11"), ["h8", "i9", "j10"]);
}

#[test]
fn scenario_11_an_enemy_stone_spoils_a_footprint() {
    let fen = setup(
        &format!("{RING_E5} j10 j11"),
        &format!("{RING_O15} k12"),
        "w 1",
    );
    let moves = legal(&fen);
    assert!(targets(&moves, "j11").is_empty());
    assert_eq!(targets(&moves, "j10"), ["j11"]);
    let game = game_after::<GessPosition>(Some(&fen), &[], &["j10j11"]);
    assert_eq!(stones(game.position(), 0), sorted(RING_O15));
}

/// White's ring goes up and down columns e to k (a path of distinct centres) while Black's
/// ring steps o15-o16 and back; every position is new, so only the 100-move rule can end it.
fn snake(plies: usize) -> Vec<String> {
    let mut white = Vec::new();
    let mut at = (b'e', 5);
    for col in 0..7u8 {
        let ranks: Vec<i32> = if col % 2 == 0 {
            (6..=12).collect()
        } else {
            (4..=11).rev().collect()
        };
        for r in ranks {
            let next = (b'e' + col, r);
            white.push(format!(
                "{}{}{}{}",
                at.0 as char, at.1, next.0 as char, next.1
            ));
            at = next;
        }
        let next = (b'e' + col + 1, at.1);
        white.push(format!(
            "{}{}{}{}",
            at.0 as char, at.1, next.0 as char, next.1
        ));
        at = next;
    }
    let mut moves = Vec::new();
    for (i, w) in white.into_iter().enumerate() {
        moves.push(w);
        moves.push(if i % 2 == 0 { "o15o16" } else { "o16o15" }.to_string());
    }
    moves.truncate(plies);
    moves
}

#[test]
fn hundred_moves_without_a_stone_leaving_draw() {
    let fen = setup(RING_E5, RING_O15, "w 1");
    let moves = snake(100);
    assert_eq!(moves.len(), 100);
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    let game = game_after::<GessPosition>(Some(&fen), &[], &texts[..99]);
    assert_eq!(game.status().to_string(), "ongoing");
    assert_eq!(game.position().quiet_plies(), 99);
    let game = game_after::<GessPosition>(Some(&fen), &[], &texts);
    assert_eq!(game.status().to_string(), "1/2-1/2 no-progress");
    // A removal resets the count: scenario 5's capture.
    let capture = setup(
        &format!("{RING_E5} h10 h11"),
        &format!("{RING_O15} i14"),
        "w 1",
    );
    let game = game_after::<GessPosition>(Some(&capture), &[], &["h10h13"]);
    assert_eq!(game.position().quiet_plies(), 0);
}

#[test]
fn threefold_repetition() {
    let fen = setup(RING_E5, RING_O15, "w 1");
    let cycle = ["e5e6", "o15o16", "e6e5", "o16o15"];
    let once = game_after::<GessPosition>(Some(&fen), &[], &cycle);
    assert_eq!(once.status().to_string(), "ongoing");
    let twice: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let game = game_after::<GessPosition>(Some(&fen), &[], &twice);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
}

#[test]
fn no_legal_move_loses() {
    // Practically impossible on the board; the position reports the rule.
    let p = position_with(&[], &setup(RING_E5, RING_O15, "w 1"));
    assert_eq!(p.outcome_without_moves().to_string(), "1-0 no-legal-moves");
}

#[test]
fn move_numbers_grow_after_white() {
    let game = game_after::<GessPosition>(None, &[], &["c18c16"]);
    assert!(game.position().fen().ends_with(" w 1"));
    let game = game_after::<GessPosition>(None, &[], &["c18c16", "c3c5"]);
    assert!(game.position().fen().ends_with(" b 2"));
}

#[test]
fn fen_errors_are_typed() {
    let o = options::<GessPosition>(&[]);
    let on_border = setup(&format!("{RING_E5} a10"), RING_O15, "w 1");
    assert!(GessPosition::from_fen_with(&o, &on_border).is_err());
    for bad in [
        "",
        "20/20 b 1",
        &START_FEN.replace(" b 1", " x 1"),
        &START_FEN.replace(" b 1", " b -3"),
        &START_FEN.replace(" b 1", " b 1 0"),
        &START_FEN.replacen("20/", "21/", 1),
        &START_FEN.replacen("20/", "19x/", 1),
    ] {
        assert!(GessPosition::from_fen_with(&o, bad).is_err(), "{bad:?}");
    }
    assert!(GessPosition::from_fen_with(&o, &"20/".repeat(3000)).is_err());
    // Missing trailing fields: Black to move, move 1.
    let board = START_FEN.split(' ').next().unwrap();
    assert_eq!(
        GessPosition::from_fen_with(&o, board).unwrap().fen(),
        START_FEN
    );
    // A position without rings (read from a FEN) is over: no moves.
    let ringless = setup("c3 d4", "p16", "b 1");
    let p = GessPosition::from_fen_with(&o, &ringless).unwrap();
    assert!(legal_texts(&p).is_empty());
}
