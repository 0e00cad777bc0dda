//! Every scenario of `docs/rules/taktika.md`, in its order, as a named test, followed by
//! tests of rules the text states without a numbered scenario (the no-flip draw, the FEN).

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::taktika::{START_FEN, TaktikaPosition};
use common::{game_after, legal_texts, options};

/// A Taktika FEN from a man list such as `"Rd1 -re5 Qg5"` (optional `-` for a frozen man, the
/// letter, upper case for White, then the cell) and the fields after the board.
fn setup(men: &str, tail: &str) -> String {
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; 8]; 8];
    for item in men.split_whitespace() {
        let (frozen, rest) = match item.strip_prefix('-') {
            Some(rest) => ("-", rest),
            None => ("", item),
        };
        let bytes = rest.as_bytes();
        assert_eq!(bytes.len(), 3, "{item}");
        let file = (bytes[1] - b'a') as usize;
        let rank = (bytes[2] - b'1') as usize;
        assert!(file < 8 && rank < 8, "{item}");
        assert!(grid[rank][file].is_none(), "{item}: cell used twice");
        grid[rank][file] = Some(format!("{frozen}{}", bytes[0] as char));
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in &grid[rank] {
                match cell {
                    None => empty += 1,
                    Some(man) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(man);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {tail}", ranks.join("/"))
}

fn legal_with(opts: &[&str], fen: &str) -> Vec<String> {
    legal_texts(game_after::<TaktikaPosition>(Some(fen), opts, &[]).position())
}

fn legal(fen: &str) -> Vec<String> {
    legal_with(&[], fen)
}

fn fen_after(fen: &str, moves: &[&str]) -> String {
    game_after::<TaktikaPosition>(Some(fen), &[], moves)
        .position()
        .fen()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

#[test]
fn setup_helper_writes_the_start_position() {
    let start = setup(
        "Qa1 Bb1 Rc1 Rd1 Re1 Rf1 Bg1 Qh1 qa8 bb8 rc8 rd8 re8 rf8 bg8 qh8",
        "w - - 0 1",
    );
    assert_eq!(start, START_FEN);
    assert_eq!(
        game_after::<TaktikaPosition>(None, &[], &[])
            .position()
            .fen(),
        START_FEN
    );
}

#[test]
fn scenario_01_initial_moves() {
    let moves = legal(START_FEN);
    for m in ["c1c7", "a1a7", "b1h7", "d1d3"] {
        assert!(has(&moves, m), "{m}: {moves:?}");
    }
    // c8 holds a black rook and there are no captures.
    assert!(!has(&moves, "c1c8"));
    let position = game_after::<TaktikaPosition>(None, &[], &[]);
    assert!(position.position().parse_move("c1c8").is_err());
    // Rd1-d3 flips nothing: no man is written frozen, and the no-flip counter goes up.
    assert_eq!(
        fen_after(START_FEN, &["d1d3"]),
        "qbrrrrbq/8/8/8/8/3R4/8/QBR1RRBQ b - - 1 1"
    );
    // Counted by hand: queen a1 6 up the file (a8 is taken) + 6 on the long diagonal (h8 is
    // taken), bishop b1 7 (a2, c2..h7), rooks c1-f1 6 each up their files, bishop g1 7 (h2,
    // f2..a7), queen h1 6 + 6.
    assert_eq!(moves.len(), 12 + 7 + 4 * 6 + 7 + 12, "{moves:?}");
}

#[test]
fn scenario_02_enclosure_along_a_rank() {
    let fen = setup("Rd1 Qg5 re5 bf5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 Qg5 -re5 -bf5", "b - - 0 1")
    );
}

#[test]
fn scenario_03_intrusion() {
    let fen = setup("Ba2 rc5 re5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["a2d5"]),
        setup("Bd5 -rc5 -re5", "b - - 0 1")
    );
}

#[test]
fn scenario_04_diagonals_never_flip() {
    let fen = setup("Qd1 re5 Rf6", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d4"]),
        setup("Qd4 re5 Rf6", "b - - 1 1")
    );
}

#[test]
fn scenario_05_a_gap_breaks_the_enclosure() {
    let fen = setup("Rd1 re5 Rg5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 re5 Rg5", "b - - 1 1")
    );
}

#[test]
fn scenario_06_a_frozen_man_flips_back() {
    let fen = setup("Rd1 -re5 Rf5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 re5 Rf5", "b - - 0 1")
    );
}

#[test]
fn scenario_07_several_directions_at_once() {
    let fen = setup("Rd1 re5 Rf5 rd6 rd7 Rd8", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 -re5 Rf5 -rd6 -rd7 Rd8", "b - - 0 1")
    );
}

#[test]
fn scenario_08_caught_twice_flips_once() {
    let fen = setup("Rd1 rc5 re5 Rf5", "w - - 0 1");
    // c5 by intrusion; e5 by intrusion and enclosure, once: both end frozen.
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 -rc5 -re5 Rf5", "b - - 0 1")
    );
}

#[test]
fn scenario_09_the_run_must_start_next_to_the_landing_cell() {
    let fen = setup("Rd1 Re5 rf5 Rg5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 Re5 rf5 Rg5", "b - - 1 1")
    );
}

#[test]
fn scenario_10_frozen_men_anchor() {
    let fen = setup("Rd1 re5 -Qf5", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["d1d5"]),
        setup("Rd5 -re5 -Qf5", "b - - 0 1")
    );
}

#[test]
fn scenario_11_frozen_men_do_not_move_and_frozen_enemies_block() {
    // A frozen rook on a1 with a2 empty has no move at all.
    let frozen = setup("-Ra1 qh8", "w - - 0 1");
    assert!(legal(&frozen).is_empty());
    // An active rook on a1, b1 occupied, a frozen black man on a4: a2 and a3 only.
    let active = setup("Ra1 Bb1 -ra4 qh8", "w - - 0 1");
    let rook: Vec<String> = legal(&active)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(rook, ["a1a2", "a1a3"]);
}

#[test]
fn scenario_12_a_player_without_a_move_loses() {
    let fen = setup("Qa1 Rd4 -qh8 -rc6 -bb2", "b - - 0 1");
    let game = game_after::<TaktikaPosition>(Some(&fen), &[], &[]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 no-legal-moves");
    // Perft has nothing below a lost position.
    assert_eq!(chaturanga_rules::perft(game.position(), 1), 0);
    assert_eq!(chaturanga_rules::perft(game.position(), 2), 0);
}

#[test]
fn scenario_13_threefold_repetition() {
    // The queens shuffle a1-a2-a1 and h8-h7-h8 far from everything: no flips.
    let fen = setup("Qa1 Re4 qh8 re6", "w - - 0 1");
    let shuffle = ["a1a2", "h8h7", "a2a1", "h7h8"];
    let once: Vec<&str> = shuffle.to_vec();
    let game = game_after::<TaktikaPosition>(Some(&fen), &[], &once);
    assert_eq!(game.status().to_string(), "ongoing");
    let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let game = game_after::<TaktikaPosition>(Some(&fen), &[], &twice);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    // States count: the same men in another state are another position.
    assert_ne!(
        game_after::<TaktikaPosition>(Some(&setup("Qa1 -Re4 qh8 re6", "w - - 0 1")), &[], &[])
            .position()
            .hash(),
        game_after::<TaktikaPosition>(Some(&fen), &[], &[])
            .position()
            .hash()
    );
}

#[test]
fn scenario_14_captures_only_under_the_option() {
    let fen = setup("Qd1 rd5 qh8", "w - - 0 1");
    assert!(!has(&legal(&fen), "d1d5"));
    let with = legal_with(&["captures=on"], &fen);
    assert!(has(&with, "d1d5"), "{with:?}");
    // A frozen enemy can be taken too, but never past the first man on the line.
    let frozen = setup("Qd1 -rd5 rd7 qh8", "w - - 0 1");
    let with = legal_with(&["captures=on"], &frozen);
    assert!(has(&with, "d1d5") && !has(&with, "d1d7"), "{with:?}");
    // Flips are computed after the capture: Qxd5 with e5 black and f5 white freezes e5.
    let flip = setup("Qd1 rd5 re5 Rf5 qh8", "w - - 0 1");
    let game = game_after::<TaktikaPosition>(Some(&flip), &["captures=on"], &["d1d5"]);
    assert_eq!(
        game.position().fen(),
        setup("Qd5 -re5 Rf5 qh8", "b - - 0 1")
    );
    // Frozen men capture nothing even under the option.
    let stuck = setup("-Qd1 rd5 qh8", "w - - 0 1");
    assert!(legal_with(&["captures=on"], &stuck).is_empty());
}

#[test]
fn hundred_plies_without_a_flip_draw() {
    let fen = setup("Qa1 Re4 qh8 re6", "w - - 99 50");
    let game = game_after::<TaktikaPosition>(Some(&fen), &[], &[]);
    assert_eq!(game.status().to_string(), "ongoing");
    let game = game_after::<TaktikaPosition>(Some(&fen), &[], &["a1a2"]);
    assert_eq!(game.status().to_string(), "1/2-1/2 no-progress");
    // A flipping move resets the counter.
    let flip = setup("Rd1 re5 Rf5 qh8", "w - - 99 50");
    let game = game_after::<TaktikaPosition>(Some(&flip), &[], &["d1d5"]);
    assert!(game.position().fen().ends_with(" b - - 0 50"));
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn fen_errors_are_typed() {
    let o = options::<TaktikaPosition>(&[]);
    for bad in [
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w KQ - 0 1",
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w - e3 0 1",
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ x - - 0 1",
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRBK w - - 0 1",
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRB--Q w - - 0 1",
        "qbrrrrbq/8/8/8/8/8/8 w - - 0 1",
        "qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w - - 0 1 extra",
        "",
    ] {
        assert!(TaktikaPosition::from_fen_with(&o, bad).is_err(), "{bad:?}");
    }
    let long = "8/".repeat(5000);
    assert!(TaktikaPosition::from_fen_with(&o, &long).is_err());
    // Frozen men round-trip.
    let fen = setup("-Qa1 Rd4 -qh8 rc6", "b - - 7 12");
    assert_eq!(TaktikaPosition::from_fen_with(&o, &fen).unwrap().fen(), fen);
}

#[test]
fn no_check_in_taktika() {
    let game = game_after::<TaktikaPosition>(None, &[], &["d1d3"]);
    assert!(!game.position().is_check());
}
