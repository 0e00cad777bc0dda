//! Every scenario of `docs/rules/congo.md`, in its order, as a named test, followed by
//! tests of rules the text states without a numbered scenario.

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::congo::{CongoPosition, START_FEN};
use common::{game_after, legal_texts, options};

/// A Congo FEN from a piece list such as `"Lc1 le6 pa7"` (letter, upper case for White, then
/// the cell) and the fields after the board (`"w 0 1"`).
fn setup(pieces: &str, tail: &str) -> String {
    let mut grid = [['.'; 7]; 7];
    for item in pieces.split_whitespace() {
        let bytes = item.as_bytes();
        assert_eq!(bytes.len(), 3, "{item}");
        let file = (bytes[1] - b'a') as usize;
        let rank = (bytes[2] - b'1') as usize;
        assert!(file < 7 && rank < 7, "{item}");
        assert_eq!(grid[rank][file], '.', "{item}: cell used twice");
        grid[rank][file] = bytes[0] as char;
    }
    let ranks: Vec<String> = (0..7)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in &grid[rank] {
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
    format!("{} {tail}", ranks.join("/"))
}

/// The sorted legal moves of `fen` under `opts`.
fn legal_with(opts: &[&str], fen: &str) -> Vec<String> {
    legal_texts(game_after::<CongoPosition>(Some(fen), opts, &[]).position())
}

/// The sorted legal moves of `fen` under default options.
fn legal(fen: &str) -> Vec<String> {
    legal_with(&[], fen)
}

/// The legal moves (under `opts`) of the piece on `cell`.
fn moves_of_with(opts: &[&str], fen: &str, cell: &str) -> Vec<String> {
    legal_with(opts, fen)
        .into_iter()
        .filter(|m| m.starts_with(cell))
        .collect()
}

/// The legal moves (default options) of the piece on `cell`.
fn moves_of(fen: &str, cell: &str) -> Vec<String> {
    moves_of_with(&[], fen, cell)
}

/// The FEN after `moves` from `fen` (default options).
fn fen_after(fen: &str, moves: &[&str]) -> String {
    game_after::<CongoPosition>(Some(fen), &[], moves)
        .position()
        .fen()
}

/// The status after `moves` from `fen` (default options).
fn status_after(fen: &str, moves: &[&str]) -> String {
    game_after::<CongoPosition>(Some(fen), &[], moves)
        .status()
        .to_string()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

#[test]
fn setup_helper_writes_the_start_position() {
    let start = setup(
        "Ga1 Mb1 Ec1 Ld1 Ee1 Cf1 Ng1 Pa2 Pb2 Pc2 Pd2 Pe2 Pf2 Pg2 \
         ga7 mb7 ec7 ld7 ee7 cf7 ng7 pa6 pb6 pc6 pd6 pe6 pf6 pg6",
        "w 0 1",
    );
    assert_eq!(start, START_FEN);
    assert_eq!(
        game_after::<CongoPosition>(None, &[], &[]).position().fen(),
        START_FEN
    );
}

#[test]
fn scenario_01_start_position_has_24_moves() {
    let game = game_after::<CongoPosition>(None, &[], &[]);
    let moves = legal_texts(game.position());
    assert_eq!(moves.len(), 24, "{moves:?}");
    let of = |cell: &str| -> Vec<&str> {
        moves
            .iter()
            .filter(|m| m.starts_with(cell))
            .map(String::as_str)
            .collect()
    };
    // 19 pawn moves.
    let pawns: Vec<&str> = ["a2", "b2", "c2", "d2", "e2", "f2", "g2"]
        .iter()
        .flat_map(|c| of(c))
        .collect();
    assert_eq!(
        pawns,
        [
            "a2a3", "a2b3", "b2a3", "b2b3", "b2c3", "c2b3", "c2c3", "c2d3", "d2c3", "d2d3", "d2e3",
            "e2d3", "e2e3", "e2f3", "f2e3", "f2f3", "f2g3", "g2f3", "g2g3"
        ]
    );
    // Giraffe, elephants, zebra.
    assert_eq!(of("a1"), ["a1a3", "a1c3"]);
    assert_eq!(of("c1"), ["c1c3"]);
    assert_eq!(of("e1"), ["e1e3"]);
    assert_eq!(of("g1"), ["g1f3"]);
    // The monkey, lion and crocodile cannot move.
    for cell in ["b1", "d1", "f1"] {
        assert!(of(cell).is_empty(), "{cell}: {moves:?}");
    }
    // Black, were it to move, has the mirror-image 24 moves.
    let black = legal(&START_FEN.replace(" w ", " b "));
    assert_eq!(black.len(), 24, "{black:?}");
    assert!(has(&black, "a7a5") && has(&black, "g7f5") && has(&black, "e7e5"));
}

#[test]
fn scenario_02_lions_area() {
    // White Lc1, Black Le6, a black pawn on a7; White to move.
    let c1 = setup("Lc1 le6 pa7", "w 0 1");
    assert_eq!(legal(&c1), ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]);
    assert_eq!(
        legal_with(&["lion-castle=on"], &c1),
        ["c1c2", "c1d1", "c1d2"]
    );
    // A white lion on d3 (not facing the black lion on e6): never into the river.
    let d3 = setup("Ld3 le6 pa7", "w 0 1");
    for opts in [&[][..], &["lion-castle=on"][..]] {
        let moves = legal_with(opts, &d3);
        assert_eq!(moves, ["d3c2", "d3c3", "d3d2", "d3e2", "d3e3"], "{opts:?}");
        for river in ["d3c4", "d3d4", "d3e4"] {
            assert!(!has(&moves, river), "{opts:?}: {river}");
        }
    }
    // A white lion on a3, possible only by default.
    let a3 = setup("La3 le6 pa7", "w 0 1");
    let moves = legal(&a3);
    assert_eq!(moves, ["a3a2", "a3b2", "a3b3"]);
    assert!(!has(&moves, "a3a4") && !has(&moves, "a3b4"));
    assert!(
        CongoPosition::from_fen_with(&options::<CongoPosition>(&["lion-castle=on"]), &a3).is_err(),
        "a lion on a3 is outside the castle"
    );
}

#[test]
fn scenario_03_face_off() {
    // Along the d-file, d4 empty.
    let file = setup("Ld3 ld5 pa7", "w 0 1");
    assert!(has(&legal(&file), "d3d5"));
    let game = game_after::<CongoPosition>(Some(&file), &[], &["d3xd5"]);
    assert_eq!(game.position().fen(), setup("Ld5 pa7", "b 0 1"));
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    assert!(legal_texts(game.position()).is_empty());
    // A white crocodile on d4 blocks the line.
    let blocked = setup("Ld3 Cd4 ld5 pa7", "w 0 1");
    let moves = legal(&blocked);
    assert!(!has(&moves, "d3d5"), "{moves:?}");
    assert!(
        game_after::<CongoPosition>(Some(&blocked), &[], &[])
            .position()
            .parse_move("d3xd5")
            .is_err()
    );
    // Diagonal version.
    let diagonal = setup("Lc3 le5 pa7", "w 0 1");
    assert!(has(&legal(&diagonal), "c3e5"));
    let game = game_after::<CongoPosition>(Some(&diagonal), &[], &["c3xe5"]);
    assert_eq!(game.position().fen(), setup("Le5 pa7", "b 0 1"));
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
}

#[test]
fn scenario_04_two_lions_only() {
    // Facing on the open d-file: the player to move wins.
    assert_eq!(
        status_after(&setup("Ld2 ld6", "w 0 1"), &[]),
        "1-0 only-lions"
    );
    assert_eq!(
        status_after(&setup("Ld2 ld6", "b 0 1"), &[]),
        "0-1 only-lions"
    );
    // Not facing: a draw, whoever is to move.
    assert_eq!(
        status_after(&setup("Lc2 le6", "w 0 1"), &[]),
        "1/2-1/2 only-lions"
    );
    assert_eq!(
        status_after(&setup("Lc2 le6", "b 0 1"), &[]),
        "1/2-1/2 only-lions"
    );
}

#[test]
fn scenario_05_giraffe() {
    let fen = setup("Gc2 pc3 pc4 pd3 Ld1 ld7", "w 0 1");
    let moves = moves_of(&fen, "c2");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert_eq!(
        moves,
        [
            "c2a2", "c2a4", "c2b1", "c2b2", "c2b3", "c2c1", "c2c4", "c2d2", "c2e2", "c2e4"
        ]
    );
    // It can never capture c3 or d3 (adjacent).
    assert!(!has(&moves, "c2c3") && !has(&moves, "c2d3"));
    // c2xc4 captures the pawn on c4.
    assert_eq!(
        fen_after(&fen, &["c2xc4"]),
        setup("Gc4 pc3 pd3 Ld1 ld7", "b 0 1")
    );
}

#[test]
fn scenario_06_elephant() {
    let fen = setup("Eb2 Pb4 pb3 pd2 Ld1 ld7", "w 0 1");
    let moves = moves_of(&fen, "b2");
    assert_eq!(moves, ["b2a2", "b2b1", "b2b3", "b2c2", "b2d2"]);
    assert!(!has(&moves, "b2b4"));
    // xd2 jumps the empty c2 and captures; the white pawn on b4 (in the river at the start
    // of White's move, not moved) drowns at the end of it.
    assert_eq!(
        fen_after(&fen, &["b2xd2"]),
        setup("Ed2 pb3 Ld1 ld7", "b 0 1")
    );
}

#[test]
fn scenario_07_crocodile() {
    // On b2, alone except for the lions (g1 and e7, not facing each other).
    let b2 = setup("Cb2 Lg1 le7", "w 0 1");
    let moves = moves_of(&b2, "b2");
    assert_eq!(
        moves,
        [
            "b2a1", "b2a2", "b2a3", "b2b1", "b2b3", "b2b4", "b2c1", "b2c2", "b2c3"
        ]
    );
    assert!(!has(&moves, "b2b5"));
    // On b4, in the river, with a black pawn on f4.
    let b4 = setup("Cb4 pf4 Lg1 le7", "w 0 1");
    assert_eq!(
        moves_of(&b4, "b4"),
        [
            "b4a3", "b4a4", "b4a5", "b4b3", "b4b5", "b4c3", "b4c4", "b4c5", "b4d4", "b4e4", "b4f4"
        ]
    );
    assert_eq!(
        fen_after(&b4, &["b4xf4"]),
        setup("Cf4 Lg1 le7", "b 0 1"),
        "the crocodile captures on f4 and, being a crocodile, does not drown"
    );
    // On b6, beyond the river: back to b4 by sliding towards the river, not to b3.
    let b6 = setup("Cb6 Lg1 le7", "w 0 1");
    let moves = moves_of(&b6, "b6");
    assert_eq!(
        moves,
        [
            "b6a5", "b6a6", "b6a7", "b6b4", "b6b5", "b6b7", "b6c5", "b6c6", "b6c7"
        ]
    );
    assert!(!has(&moves, "b6b3"));
}

#[test]
fn scenario_08_monkey_chain() {
    let fen = setup("Mc3 pc4 pc6 Ld1 le6", "w 0 1");
    let moves = moves_of(&fen, "c3");
    assert_eq!(
        moves,
        [
            "c3b2", "c3b3", "c3b4", "c3c2", "c3c5", "c3c5c7", "c3d2", "c3d3", "c3d4"
        ]
    );
    // Stopping after the first jump is legal: only c4 is taken.
    assert_eq!(
        fen_after(&fen, &["c3xc5"]),
        setup("Mc5 pc6 Ld1 le6", "b 0 1")
    );
    // The chain takes both pawns.
    assert_eq!(
        fen_after(&fen, &["c3xc5xc7"]),
        setup("Mc7 Ld1 le6", "b 0 1")
    );
    assert_eq!(fen_after(&fen, &["c3c5c7"]), setup("Mc7 Ld1 le6", "b 0 1"));

    // Chains with the same effect are different moves.
    let same = setup("Mc3 Lf1 pc4 pd4 pd3 lg7", "w 0 1");
    let captures: Vec<String> = moves_of(&same, "c3")
        .into_iter()
        .filter(|m| {
            let p = game_after::<CongoPosition>(Some(&same), &[], &[m.as_str()]);
            // A capturing move removes at least one black pawn.
            p.position().fen().matches('p').count() < 3
        })
        .collect();
    assert_eq!(
        captures,
        [
            "c3c5", "c3c5e3", "c3c5e3c3", "c3e3", "c3e3c5", "c3e3c5c3", "c3e5"
        ]
    );
    let one = fen_after(&same, &["c3c5e3c3"]);
    let other = fen_after(&same, &["c3e3c5c3"]);
    assert_eq!(one, setup("Mc3 Lf1 lg7", "b 0 1"));
    assert_eq!(one, other, "the same three pawns taken, back on c3");
    let all = legal(&same);
    assert!(has(&all, "c3c5e3c3") && has(&all, "c3e3c5c3"));
}

#[test]
fn scenario_09_monkey_takes_the_lion() {
    let fen = setup("Me3 Lc1 pe4 pd6 le6", "w 0 1");
    let moves = legal(&fen);
    assert!(has(&moves, "e3e5e7"), "{moves:?}");
    assert!(has(&moves, "e3e5c7"), "{moves:?}");
    // No further jump after the lion (e7 over d6 to c5 would otherwise be possible).
    assert!(
        moves
            .iter()
            .all(|m| !m.starts_with("e3e5e7") || m == "e3e5e7"),
        "{moves:?}"
    );
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["e3xe5xe7"]);
    assert_eq!(game.position().fen(), setup("Me7 Lc1 pd6", "b 0 1"));
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    // e3xe5xc7 takes e4 and d6.
    assert_eq!(
        fen_after(&fen, &["e3xe5xc7"]),
        setup("Mc7 Lc1 le6", "b 0 1")
    );
}

#[test]
fn scenario_10_monkey_drowning_seed_rule() {
    let fen = setup("Mc2 Ld1 pc3 pd4 ld7", "w 0 1");
    // Landing in the river once: the monkey does not drown yet.
    assert_eq!(
        fen_after(&fen, &["c2xc4"]),
        setup("Mc4 Ld1 pd4 ld7", "b 0 1")
    );
    // Two consecutive river stops (c4, e4): it drowns, and both pawns are captured.
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["c2xc4xe4"]);
    assert_eq!(game.position().fen(), setup("Ld1 ld7", "b 0 1"));
    // Only the two lions remain, facing on the open d-file: Black, to move, wins.
    assert_eq!(game.status().to_string(), "0-1 only-lions");
}

#[test]
fn scenario_11_monkey_leaving_and_reentering_the_river() {
    let fen = setup("Mc4 Ld1 pc5 pd5 lg7", "w 0 1");
    // River, land, river: no two consecutive river stops, so no drowning now.
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["c4xc6xe4"]);
    assert_eq!(game.position().fen(), setup("Me4 Ld1 lg7", "b 0 1"));
    // It must leave on White's next move: if it stays, it drowns.
    assert_eq!(
        fen_after(&fen, &["c4xc6xe4", "g7f7", "d1d2"]),
        setup("Ld2 lf7", "b 0 2")
    );
    // Leaving the river saves it.
    assert_eq!(
        fen_after(&fen, &["c4xc6xe4", "g7f7", "e4e3"]),
        setup("Me3 Ld1 lf7", "b 2 2")
    );
    // c4xc6 and c4xe6 take it out of the river.
    assert_eq!(
        fen_after(&fen, &["c4xc6"]),
        setup("Mc6 Ld1 pd5 lg7", "b 0 1")
    );
    assert_eq!(
        fen_after(&fen, &["c4xe6"]),
        setup("Me6 Ld1 pc5 lg7", "b 0 1")
    );
    // And it then stays on land after White's next move.
    assert_eq!(
        fen_after(&fen, &["c4xc6", "g7g6", "d1d2"]),
        setup("Mc6 Ld2 pd5 lg6", "b 2 2")
    );
}

#[test]
fn scenario_12_general_drowning() {
    let fen = setup("Ec3 Ld1 Pa2 ld7", "w 0 1");
    let entered = fen_after(&fen, &["c3c4"]);
    assert_eq!(entered, setup("Ec4 Ld1 Pa2 ld7", "b 1 1"));
    // Black moves its lion off the open d-file; White plays a2-a3 and the elephant drowns.
    assert_eq!(
        fen_after(&fen, &["c3c4", "d7e7", "a2a3"]),
        setup("Ld1 Pa3 le7", "b 0 2")
    );
    // Moving the elephant within the river, capturing a black crocodile on e4: the capture
    // stands and the elephant still drowns.
    let croc = setup("Ec3 Ld1 Pa2 ce4 ld7", "w 0 1");
    assert_eq!(
        fen_after(&croc, &["c3c4", "d7e7", "c4xe4"]),
        setup("Ld1 Pa2 le7", "b 0 2")
    );
}

#[test]
fn scenario_13_pawn_backward_moves() {
    let open = setup("Pe5 Ld1 lg7", "w 0 1");
    assert_eq!(
        moves_of(&open, "e5"),
        ["e5d6", "e5e3", "e5e4", "e5e6", "e5f6"]
    );
    // A black piece (a crocodile) on e4: no backward capture, no jump.
    let blocked = setup("Pe5 ce4 Ld1 lg7", "w 0 1");
    assert_eq!(moves_of(&blocked, "e5"), ["e5d6", "e5e6", "e5f6"]);
    // A pawn in the river has only its forward moves.
    let river = setup("Pe4 Ld1 lg7", "w 0 1");
    assert_eq!(moves_of(&river, "e4"), ["e4d5", "e4e5", "e4f5"]);
}

#[test]
fn scenario_14_promotion() {
    let fen = setup("Pc6 pb7 Ld1 le5", "w 5 1");
    let moves = moves_of(&fen, "c6");
    assert_eq!(moves, ["c6b7", "c6c4", "c6c5", "c6c7", "c6d7"]);
    // Reaching the last rank, by a step or a capture, makes a superpawn at once.
    assert_eq!(
        fen_after(&fen, &["c6-c7"]),
        setup("Sc7 pb7 Ld1 le5", "b 0 1")
    );
    assert_eq!(
        fen_after(&fen, &["c6-d7"]),
        setup("Sd7 pb7 Ld1 le5", "b 0 1")
    );
    assert_eq!(fen_after(&fen, &["c6xb7"]), setup("Sb7 Ld1 le5", "b 0 1"));
    // Backward moves keep it a pawn.
    assert_eq!(
        fen_after(&fen, &["c6-c5"]),
        setup("Pc5 pb7 Ld1 le5", "b 6 1")
    );
    assert_eq!(
        fen_after(&fen, &["c6-c4"]),
        setup("Pc4 pb7 Ld1 le5", "b 6 1")
    );
}

#[test]
fn scenario_15_superpawn() {
    let fen = setup("Sd5 pc6 pd6 pe4 Ld1 ld7", "w 0 1");
    let moves = moves_of(&fen, "d5");
    assert_eq!(
        moves,
        [
            "d5b3", "d5c4", "d5c5", "d5c6", "d5d3", "d5d4", "d5d6", "d5e5", "d5e6"
        ]
    );
    // No backward capture of e4, and f3 is blocked by e4.
    assert!(!has(&moves, "d5e4") && !has(&moves, "d5f3"));
    assert_eq!(
        fen_after(&fen, &["d5xc6"]),
        setup("Sc6 pd6 pe4 Ld1 ld7", "b 0 1")
    );
}

// Rules stated in the text without a numbered scenario.

#[test]
fn lion_taken_by_an_ordinary_capture_ends_the_game() {
    // The white elephant on e5 jumps e6 and takes the black lion on e7.
    let fen = setup("Ee5 Ld1 le7 pa6", "w 0 1");
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["e5e7"]);
    assert_eq!(game.position().fen(), setup("Ee7 Ld1 pa6", "b 0 1"));
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    // And the other way round: a black zebra takes the white lion.
    let fen = setup("Ld1 Pa2 ne3 lg7", "b 0 1");
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["e3d1"]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "0-1 royal-captured");
}

#[test]
fn player_with_pieces_but_no_legal_move_loses() {
    // The white lion on a1 is boxed in by its own monkeys on a2, b1 and b2; every square
    // next to the monkeys is occupied and every cell beyond a black neighbour is occupied,
    // so none of them can step or jump.
    let fen = setup(
        "La1 Ma2 Mb1 Mb2 ec1 ed1 ec2 ed2 ea3 eb3 ec3 ed3 ea4 eb4 ec4 ed4 lf7",
        "w 0 1",
    );
    let game = game_after::<CongoPosition>(Some(&fen), &[], &[]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "0-1 no-legal-moves");
}

#[test]
fn no_progress_after_100_plies() {
    let fen = setup("Ld1 Pa2 pb6 le7", "w 99 40");
    assert_eq!(status_after(&fen, &[]), "ongoing");
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["d1d2"]);
    assert_eq!(game.position().fen(), setup("Ld2 Pa2 pb6 le7", "b 100 40"));
    assert_eq!(game.status().to_string(), "1/2-1/2 no-progress");
}

#[test]
fn drowning_resets_the_no_progress_counter() {
    // The elephant on c4 entered the river on White's previous move and drowns now.
    let fen = setup("Ld1 Ec4 pb6 le7", "w 99 40");
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["d1d2"]);
    assert_eq!(game.position().fen(), setup("Ld2 pb6 le7", "b 0 40"));
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn captures_reset_the_no_progress_counter() {
    let fen = setup("Ld1 Ec4 pc6 pb6 le7", "w 99 40");
    let game = game_after::<CongoPosition>(Some(&fen), &[], &["c4c6"]);
    assert_eq!(game.position().fen(), setup("Ld1 Ec6 pb6 le7", "b 0 40"));
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn monkey_stepping_within_the_river_drowns() {
    // The monkey on c4 entered the river on White's last move; a quiet step to d4 keeps it
    // in the river, so it drowns (general rule).
    let fen = setup("Mc4 Ld1 pa6 lg7", "w 3 5");
    assert!(has(&legal(&fen), "c4d4"));
    assert_eq!(fen_after(&fen, &["c4d4"]), setup("Ld1 pa6 lg7", "b 0 5"));
    // A quiet step out of the river saves it.
    assert_eq!(
        fen_after(&fen, &["c4c5"]),
        setup("Mc5 Ld1 pa6 lg7", "b 4 5")
    );
    // Leaving it standing while another piece moves drowns it too.
    assert_eq!(fen_after(&fen, &["d1d2"]), setup("Ld2 pa6 lg7", "b 0 5"));
}

#[test]
fn monkey_starting_in_the_river_and_landing_in_it_drowns() {
    // Start c4 and first landing e4 are consecutive river stops: the capture stands.
    let fen = setup("Mc4 pd4 Ld1 pa6 lg7", "w 0 1");
    assert_eq!(fen_after(&fen, &["c4xe4"]), setup("Ld1 pa6 lg7", "b 0 1"));
}

#[test]
fn other_pieces_in_the_river_drown_when_the_monkey_captures() {
    // The white elephant on a4 is in the river; the monkey captures e2 on land.
    let fen = setup("Ea4 Me1 pe2 Ld1 pa6 lg7", "w 0 1");
    assert_eq!(
        fen_after(&fen, &["e1xe3"]),
        setup("Me3 Ld1 pa6 lg7", "b 0 1")
    );
}

#[test]
fn crocodile_never_drowns() {
    let fen = setup("Cb4 Ld1 pa6 lg7", "w 0 1");
    assert_eq!(
        fen_after(
            &fen,
            &["d1d2", "g7f7", "b4c4", "f7g7", "c4c3", "g7f7", "c3c4"]
        ),
        setup("Cc4 Ld2 pa6 lf7", "b 7 4")
    );
}

#[test]
fn face_off_also_under_lion_castle() {
    for (fen, mv) in [
        (setup("Ld3 ld5 pa7", "w 0 1"), "d3d5"),
        (setup("Lc3 le5 pa7", "w 0 1"), "c3e5"),
        (setup("Le3 lc5 pa7", "w 0 1"), "e3c5"),
    ] {
        let game = game_after::<CongoPosition>(Some(&fen), &["lion-castle=on"], &[mv]);
        assert_eq!(game.status().to_string(), "1-0 royal-captured", "{fen}");
    }
}

#[test]
fn threefold_repetition_is_a_draw() {
    let fen = setup("Lb1 Pa2 pg6 lf7", "w 0 1");
    let moves = [
        "b1c1", "f7e7", "c1b1", "e7f7", "b1c1", "f7e7", "c1b1", "e7f7",
    ];
    assert_eq!(status_after(&fen, &moves[..7]), "ongoing");
    assert_eq!(status_after(&fen, &moves), "1/2-1/2 threefold-repetition");
}

#[test]
fn black_pieces_mirror_the_rules() {
    // A black pawn on c3 is beyond the river for Black: forward to rank 2, back to c4, c5.
    let fen = setup("pc3 Lg1 ld7", "b 0 1");
    assert_eq!(
        moves_of(&fen, "c3"),
        ["c3b2", "c3c2", "c3c4", "c3c5", "c3d2"]
    );
    // A black pawn on c2 promotes on rank 1.
    let fen = setup("pc2 Lg1 ld7", "b 0 1");
    assert_eq!(fen_after(&fen, &["c2c1"]), setup("sc1 Lg1 ld7", "w 0 2"));
    // A black crocodile on b7 slides towards the river (down the file) as far as b4.
    let fen = setup("cb7 Lg1 le7", "b 0 1");
    assert_eq!(
        moves_of(&fen, "b7"),
        ["b7a6", "b7a7", "b7b4", "b7b5", "b7b6", "b7c6", "b7c7"]
    );
    // The black lion stays on ranks 5-7.
    let fen = setup("le5 Lg1 pa2", "b 0 1");
    assert_eq!(
        moves_of(&fen, "e5"),
        ["e5d5", "e5d6", "e5e6", "e5f5", "e5f6"]
    );
}

#[test]
fn no_check_lion_may_move_into_attack_and_stay_attacked() {
    // The black elephant on c3 attacks c1 (jump) and c2, b3, d3 (step); the white lion on
    // c1 may step to the attacked c2, and White may ignore the attack with a pawn move.
    let fen = setup("Lc1 Pg2 ec3 ld7", "w 0 1");
    assert_eq!(
        moves_of(&fen, "c1"),
        ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]
    );
    assert!(has(&legal(&fen), "g2g3"));
    // And Black then captures the lion and wins.
    assert_eq!(status_after(&fen, &["g2g3", "c3c1"]), "0-1 royal-captured");
}

#[test]
fn lion_may_not_capture_into_the_river() {
    // A black crocodile on c4 next to the white lion on c3 cannot be taken by the lion.
    let fen = setup("Lc3 cc4 ld7 pa6", "w 0 1");
    let moves = moves_of(&fen, "c3");
    assert!(!has(&moves, "c3c4"), "{moves:?}");
    assert_eq!(moves, ["c3b2", "c3b3", "c3c2", "c3d2", "c3d3"]);
}
