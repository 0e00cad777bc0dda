//! Every scenario of `docs/rules/threeplayer.md`, in its order, as a named test, and the
//! rules around them (FEN fields, drawing).

use crate::common;

use chaturanga_rules::{Game, Position, Reason, Status};
use chaturanga_variants::threeplayer::{self, START_FEN, ThreePlayerPosition};
use common::legal_texts;

/// A FEN from men written as colour + piece + cell (`wKH1 rKL12 bKA8`), with the other fields.
fn fen_with(men: &str, side: &str, castling: &str, ep: &str, quiet: u32) -> String {
    let start = ThreePlayerPosition::from_fen(START_FEN).unwrap();
    let g = start.geometry();
    let placed: Vec<(&str, &str)> = men.split_whitespace().map(|m| (&m[..2], &m[2..])).collect();
    for (_, cell) in &placed {
        assert!(g.cell_by_label(cell).is_some(), "no cell {cell}");
    }
    let mut rows = Vec::new();
    for row in g.rows_from_top() {
        let (mut text, mut run) = (String::new(), 0);
        for cell in row.into_iter().flatten() {
            match placed.iter().find(|(_, l)| *l == g.label(cell)) {
                Some((man, _)) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push_str(man);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        rows.push(text);
    }
    format!("{} {side} {castling} {ep} {quiet} 1", rows.join("/"))
}

fn fen(men: &str, side: &str) -> String {
    fen_with(men, side, "-", "-", 0)
}

fn position(fen: &str) -> ThreePlayerPosition {
    ThreePlayerPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str, moves: &[&str]) -> Game<ThreePlayerPosition> {
    let mut game = Game::new(position(fen));
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

/// Destinations of the moves from `from`, sorted.
fn from_cell(p: &ThreePlayerPosition, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_texts(p)
        .iter()
        .filter_map(|m| m.strip_prefix(from))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

fn sorted(cells: &str) -> Vec<String> {
    let mut v: Vec<String> = cells.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

fn over(game: &Game<ThreePlayerPosition>) -> (Vec<u8>, Reason) {
    match game.status() {
        Status::Over(o) => (o.quarters, o.reason),
        other => panic!("not over: {other:?}"),
    }
}

#[test]
fn scenario_01_bishop_through_the_centre() {
    let p = position(&fen("wKH1 rKL12 bKA8 wBC3", "w"));
    assert_eq!(
        from_cell(&p, "C3"),
        sorted("A1 B2 B4 A5 D2 E1 D4 E9 F10 G11 H12 I5 J6 K7 L8")
    );
    assert!(!from_cell(&p, "C3").contains(&"I9".to_string()));
}

#[test]
fn scenario_02_knight_and_king_at_the_centre() {
    let knight = position(&fen("wKH1 rKL12 bKA8 wND4", "w"));
    assert_eq!(
        from_cell(&knight, "D4"),
        sorted("B3 B5 C2 C6 E2 F3 E10 F9 I6 J5 I9")
    );
    let king = position(&fen("wKD4 rKL12 bKA8", "w"));
    assert_eq!(from_cell(&king, "D4"), sorted("C3 C4 C5 D3 D5 E3 E4 E9 I5"));
}

#[test]
fn scenario_03_rook_lines_across_the_seams() {
    let p = position(&fen("wKG2 rKL10 bKK6 wRE1", "w"));
    let file_e: Vec<String> = from_cell(&p, "E1")
        .into_iter()
        .filter(|c| c.starts_with('E'))
        .collect();
    assert_eq!(file_e, sorted("E2 E3 E4 E9 E10 E11 E12"));
    let p = position(&fen("wKG2 rKL10 bKK6 wRD1", "w"));
    let file_d: Vec<String> = from_cell(&p, "D1")
        .into_iter()
        .filter(|c| c.starts_with('D'))
        .collect();
    assert_eq!(file_d, sorted("D2 D3 D4 D5 D6 D7 D8"));
    let p = position(&fen("wKG2 rKL10 bKK6 wRA4", "w"));
    assert_eq!(
        from_cell(&p, "A4"),
        sorted("A1 A2 A3 B4 C4 D4 E4 F4 G4 H4 A5 A6 A7 A8")
    );
}

#[test]
fn scenario_04_pawn_at_the_centre() {
    let p = position(&fen("wKH1 rKL12 bKL5 wPD4 bPC5 rNI5 bNE9", "w"));
    assert_eq!(from_cell(&p, "D4"), sorted("D5 C5 I5"));
    // Straight on to the end of the file line.
    let g = game(
        &fen("wKH1 rKL12 bKL5 wPD4", "w"),
        &["D4D5", "L12K12", "L5K5", "D5D6"],
    );
    let p = g.position();
    assert!(from_cell(p, "D6").is_empty(), "not White's turn");
    let g = game(
        &fen("wKH1 rKL12 bKL5 wPD6", "w"),
        &["D6D7", "L12K12", "L5K5"],
    );
    assert_eq!(from_cell(g.position(), "D7"), sorted("D8b D8n D8q D8r"));
    let p = position(&fen("wKH1 rKL12 bKL5 wPE4 rPF9 bPI9", "w"));
    assert_eq!(from_cell(&p, "E4"), sorted("E9 F9 I9"));
}

#[test]
fn scenario_05_promotion_on_either_opponents_back_rank() {
    let white = position(&fen("wKH1 rKL10 bKL5 wPA7 wPE11", "w"));
    assert_eq!(from_cell(&white, "A7"), sorted("A8b A8n A8q A8r"));
    assert_eq!(from_cell(&white, "E11"), sorted("E12b E12n E12q E12r"));
    let red = position(&fen("wKH3 rKL10 bKL5 rPE2", "r"));
    assert_eq!(from_cell(&red, "E2"), sorted("E1b E1n E1q E1r"));
    let black = position(&fen("wKH3 rKL10 bKL5 bPI11", "b"));
    assert_eq!(from_cell(&black, "I11"), sorted("I12b I12n I12q I12r"));
    // D4xI5, then towards Black's back rank: I6, I7, I7-I8 promotes.
    let g = game(
        &fen("wKH1 rKL10 bKL5 wPD4 bNI5", "w"),
        &[
            "D4I5", "L10K10", "L5K5", "I5I6", "K10L10", "K5L5", "I6I7", "L10K10", "L5K5",
        ],
    );
    assert_eq!(from_cell(g.position(), "I7"), sorted("I8b I8n I8q I8r"));
    // E4xI9, then I10, I11, promoting on I12.
    let g = game(
        &fen("wKH1 rKL10 bKL5 wPE4 rNI9", "w"),
        &[
            "E4I9", "L10K10", "L5K5", "I9I10", "K10L10", "K5L5", "I10I11", "L10K10", "L5K5",
        ],
    );
    assert_eq!(
        from_cell(g.position(), "I11"),
        sorted("I12b I12n I12q I12r")
    );
}

#[test]
fn scenario_06_en_passant_lasts_until_the_double_steppers_next_turn() {
    let start = fen("wKH1 wPE2 rKL12 rPF4 rPK11 bKL5 bPD4 bPA7", "w");
    let g = game(&start, &["E2E4"]);
    assert_eq!(g.position().fen().split(' ').nth(3), Some("E3w"));
    assert!(legal_texts(g.position()).contains(&"F4E3".to_string()));
    // Red takes en passant: the pawn on E4 goes.
    let taken = game(&start, &["E2E4", "F4E3"]);
    let p = taken.position();
    let at = |l: &str| p.man(p.geometry().cell_by_label(l).unwrap());
    assert!(at("E4").is_none() && at("F4").is_none());
    assert_eq!((at("E3").player(), at("E3").kind()), (1, 0));
    // The right is used up; Black's pawn may now only take the Red pawn on E3 normally.
    assert_eq!(p.fen().split(' ').nth(3), Some("-"));
    assert_eq!(from_cell(p, "D4"), sorted("D3 E3"));
    // Red plays something else: Black may take on E3, and the field still holds the right.
    let g = game(&start, &["E2E4", "K11K10"]);
    assert_eq!(g.position().fen().split(' ').nth(3), Some("E3w"));
    assert!(legal_texts(g.position()).contains(&"D4E3".to_string()));
    // Once White's next turn begins, the right is gone.
    let g = game(&start, &["E2E4", "K11K10", "A7A6"]);
    assert_eq!(g.position().fen().split(' ').nth(3), Some("-"));
    // Written even when no pawn could capture.
    let lonely = game(&fen("wKH1 wPE2 rKL12 bKL5", "w"), &["E2E4"]);
    assert_eq!(lonely.position().fen().split(' ').nth(3), Some("E3w"));
    // From the start: A2-A3, F11-F9, D7-D5.
    let g = game(START_FEN, &["A2A3", "F11F9", "D7D5"]);
    assert_eq!(g.position().fen().split(' ').nth(3), Some("F10r,D6b"));
}

#[test]
fn scenario_07_check_by_the_player_who_does_not_move_next() {
    let p = position(&fen("wKD2 bRA3 rKL12 bKL5", "w"));
    let moves = from_cell(&p, "D2");
    assert!(!moves.contains(&"D3".to_string()), "{moves:?}");
    assert!(moves.contains(&"D1".to_string()));
}

#[test]
fn scenario_08_mate_scoring_with_the_tie_break() {
    let both = game(&fen("wKA1 bRA8 rRH1 rBE9 rKL12 bKL5", "w"), &[]);
    assert!(both.position().is_check());
    assert!(legal_texts(both.position()).is_empty());
    assert_eq!(both.position().king_attackers(0), vec![1, 2]);
    assert_eq!(over(&both), (vec![0, 4, 2], Reason::Checkmate));
    assert_eq!(both.status().to_string(), "0-1-1/2 checkmate");
    let black = game(&fen("wKA1 bRA8 bQC2 rKL12 bKL5", "w"), &[]);
    assert_eq!(over(&black), (vec![0, 2, 4], Reason::Checkmate));
}

#[test]
fn scenario_09_capturable_king_ends_the_game() {
    let g = game(&fen("wKE1 bRE12 rNE10 rKL10 bKL5", "r"), &["E10G11"]);
    assert_eq!(over(&g), (vec![0, 2, 4], Reason::RoyalCaptured));
    assert!(
        legal_texts(g.position()).is_empty(),
        "no moves after the end"
    );
    assert_eq!(chaturanga_rules::perft(g.position(), 2), 0);
}

#[test]
fn scenario_10_stalemate() {
    let g = game(&fen("wKA1 bQC2 rKL12 bKL5", "w"), &[]);
    let p = g.position();
    assert!(!p.is_check());
    for cell in ["A2", "B1", "B2"] {
        assert!(
            p.attacked_by(p.geometry().cell_by_label(cell).unwrap(), 2),
            "{cell}"
        );
    }
    assert_eq!(over(&g), (vec![2, 2, 2], Reason::Stalemate));
}

#[test]
fn scenario_11_castling_against_both_opponents() {
    let short = fen_with("wKE1 wRH1 rKL10 bKL5", "w", "wK", "-", 0);
    assert!(legal_texts(&position(&short)).contains(&"E1G1".to_string()));
    let g = game(&short, &["E1G1"]);
    assert!(
        g.position().fen().contains("/5wRwK1 r - - 1 1"),
        "{}",
        g.position().fen()
    );
    // A Red rook on F10 (F2-F4, F9 empty) attacks F1: no castling.
    let attacked = fen_with("wKE1 wRH1 rKL10 rRF10 bKL5", "w", "wK", "-", 0);
    assert!(!legal_texts(&position(&attacked)).contains(&"E1G1".to_string()));
    // Black's long castling D8-J8 with the rook L8-I8; K8 may be attacked, not D8, I8, J8.
    let long = fen_with("wKH1 rKG12 bKD8 bRL8 wRK11", "b", "bQ", "-", 0);
    let p = position(&long);
    assert!(p.attacked_by(p.geometry().cell_by_label("K8").unwrap(), 0));
    assert!(legal_texts(&p).contains(&"D8J8".to_string()));
    let g = game(&long, &["D8J8"]);
    let p = g.position();
    let at = |l: &str| p.man(p.geometry().cell_by_label(l).unwrap());
    assert_eq!((at("J8").player(), at("J8").kind()), (2, 5));
    assert_eq!((at("I8").player(), at("I8").kind()), (2, 3));
    assert!(at("D8").is_none() && at("L8").is_none());
    let attacked_j8 = fen_with("wKH1 rKG12 bKD8 bRL8 wRJ11", "b", "bQ", "-", 0);
    assert!(!legal_texts(&position(&attacked_j8)).contains(&"D8J8".to_string()));
    // The castling field: White's king moved, Red's rook H12 moved, Black's men unmoved.
    let rights = fen_with(
        "wKF1 wRA1 wRH1 rKI12 rRL12 rRG12 bKD8 bRA8 bRL8",
        "w",
        "wKQ,rKQ,bKQ",
        "-",
        0,
    );
    assert_eq!(position(&rights).fen().split(' ').nth(2), Some("rK,bKQ"));
    let bare = rights.replace("wKQ,rKQ,bKQ", "w,rK,bKQ");
    assert_eq!(position(&bare).fen().split(' ').nth(2), Some("rK,bKQ"));
}

#[test]
fn scenario_12_resignation_in_favour_of_a_named_player() {
    let mut g = game(START_FEN, &["E2E4"]);
    let p = g.position().clone();
    assert_eq!(p.resignation(0, 1, false), Ok(None));
    assert!(matches!(g.status(), Status::Ongoing { .. }));
    let outcome = p.resignation(0, 1, true).unwrap().unwrap();
    g.end(outcome);
    assert_eq!(g.status().to_string(), "0-1-1/2 resignation");
    assert!(p.resignation(0, 0, true).is_err());
    assert!(p.resignation(3, 1, true).is_err());
}

#[test]
fn scenario_12_resignation_as_an_action_needs_the_third_players_consent() {
    // Red to move after E2E4: he may resign in favour of White or Black, and the other one
    // must confirm.
    let mut g = game(START_FEN, &["E2E4"]);
    let p = g.position().clone();
    assert_eq!(p.actions(), ["resign white", "resign black"]);
    assert_eq!(p.action_consent("resign white"), Some(2));
    assert_eq!(p.action_consent("resign black"), Some(0));
    assert_eq!(
        p.perform("resign black").unwrap().to_string(),
        "1/2-0-1 resignation"
    );
    // Not in his own favour, and nothing else.
    for bad in ["resign red", "resign", "resign blue", "", "win"] {
        assert!(p.perform(bad).is_err(), "{bad:?}");
        assert_eq!(p.action_consent(bad), None, "{bad:?}");
    }
    // Confirmed, it ends the game; then no action is possible.
    let outcome = g.perform("resign white").unwrap();
    assert_eq!(outcome.quarters, vec![4, 0, 2]);
    assert_eq!(g.status().to_string(), "1-0-1/2 resignation");
    assert!(g.perform("resign black").is_err());
    // White's scenario: White resigns in favour of Red, Black confirms.
    let white = game(START_FEN, &[]).position().clone();
    assert_eq!(white.action_consent("resign red"), Some(2));
    assert_eq!(
        white.perform("resign red").unwrap().to_string(),
        "0-1-1/2 resignation"
    );
}

#[test]
fn scenario_13_fifty_rounds_without_progress() {
    let quiet = fen_with("wKH1 wNB1 rKL12 bKL5", "w", "-", "-", 149);
    let g = game(&quiet, &["B1C3"]);
    assert_eq!(over(&g), (vec![2, 2, 2], Reason::FiftyMoveRule));
    let almost = fen_with("wKH1 wNB1 rKL12 bKL5", "w", "-", "-", 148);
    assert!(matches!(
        game(&almost, &["B1C3"]).status(),
        Status::Ongoing { .. }
    ));
}

#[test]
fn scenario_14_a_move_that_mates_two_players() {
    let before = fen("wKA1 rKH1 bRD2 bRC8 bKL5", "b");
    let g = game(&before, &["C8C1"]);
    let p = g.position();
    assert_eq!(p.side_to_move(), 0);
    assert_eq!(p.king_attackers(0), vec![2]);
    assert_eq!(p.king_attackers(1), vec![2]);
    assert_eq!(over(&g), (vec![0, 2, 4], Reason::Checkmate));
}

#[test]
fn scenario_15_threefold_repetition() {
    let cycle = ["B1C3", "K12L10", "B8A6", "C3B1", "L10K12", "A6B8"];
    let moves: Vec<&str> = cycle.iter().chain(&cycle).copied().collect();
    let g = game(START_FEN, &moves[..11]);
    assert!(matches!(g.status(), Status::Ongoing { .. }));
    let g = game(START_FEN, &moves);
    assert_eq!(over(&g), (vec![2, 2, 2], Reason::ThreefoldRepetition));
}

#[test]
fn three_bare_kings_are_dead() {
    let g = game(&fen("wKH1 rKL12 bKL5 rPE10", "w"), &[]);
    assert!(matches!(g.status(), Status::Ongoing { .. }));
    let g = game(&fen("wKD4 rKL12 bKL5 rNE4", "w"), &["D4E4"]);
    assert_eq!(over(&g), (vec![2, 2, 2], Reason::InsufficientMaterial));
}

#[test]
fn fen_reads_writes_and_rejects() {
    let start = position(START_FEN);
    assert_eq!(start.fen(), START_FEN);
    for bad in [
        "",
        "8/8 w - - 0 1",
        &START_FEN.replace("wKwB", "wXwB"),
        &START_FEN.replace(" w wKQ", " x wKQ"),
        &START_FEN.replace("wKQ,rKQ,bKQ", "wKZ"),
        &START_FEN.replace(" - 0 1", " Z9w 0 1"),
        &START_FEN.replace(" 0 1", " x 1"),
        &START_FEN.replace("wKwB", "wQwB"),
    ] {
        assert!(ThreePlayerPosition::from_fen(bad).is_err(), "{bad:?}");
    }
    // The player who moved last cannot be in check.
    assert!(ThreePlayerPosition::from_fen(&fen("wKA1 rKL12 bKA8 bRA4", "r")).is_err());
    assert!(ThreePlayerPosition::from_fen(&fen("wKA1 rKL12 bKA8 bRA4", "w")).is_ok());
}

#[test]
fn drawing_shows_every_man() {
    let text = threeplayer::drawing(&position(START_FEN));
    assert_eq!(text.matches("wP").count(), 8);
    assert_eq!(text.matches("rK").count(), 1);
    assert_eq!(text.lines().count(), 15);
    assert!(text.lines().last().unwrap().contains("A   B   C"));
}
