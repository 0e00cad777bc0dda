//! Every scenario of `docs/rules/darkchess.md`, in its order, as a named test; then the
//! views' promises (nothing outside a player's view in what he is given), FEN checks and the
//! draw rules. Views are checked against Fairy-Stockfish's `get_fog_fen` where the rules file
//! says so, in `oracle_compound.rs` against the independent implementation.

use crate::common;

use chaturanga_rules::geometry::CellSet;
use chaturanga_rules::{Game, Position, Ruleset, perft};
use chaturanga_variants::darkchess::{DarkChessPosition, START_FEN};
use common::{game_after, legal_texts, options, position};

type P = DarkChessPosition;

/// The labels of a set of cells, sorted.
fn labels(p: &P, cells: CellSet<1>) -> Vec<String> {
    let g = &p.board().spec().geometry;
    let mut v: Vec<String> = cells.iter().map(|c| g.label(c).to_string()).collect();
    v.sort();
    v
}

fn sorted(cells: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn scenario_01_whites_view_after_e4() {
    let game = game_after::<P>(None, &[], &["e2e4"]);
    let view = game.position().view(0);
    let mut expected: Vec<&str> = Vec::new();
    let ranks12 = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2",
        "h2",
    ];
    expected.extend(ranks12);
    expected.extend(["a3", "b3", "c3", "d3", "f3", "g3", "h3"]);
    expected.extend(["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"]);
    expected.extend(["b5", "e5", "h5", "a6"]);
    assert_eq!(expected.len(), 35);
    assert_eq!(labels(game.position(), view.visible), sorted(&expected));
    // The rules file's example (checked with Fairy-Stockfish's get_fog_fen).
    assert_eq!(
        view.fen,
        "********/********/1*******/*1**1**1/4P3/4*3/PPPP1PPP/RNBQKBNR b KQ - 0 1"
    );
    assert!(
        !view
            .visible
            .contains(game.position().board().spec().cell("e3").unwrap())
    );
}

#[test]
fn scenario_02_the_king_may_step_into_attack_and_be_taken() {
    let fen = "k3q3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert!(legal_texts(&position::<P>(fen)).contains(&"e1e2".to_string()));
    let game = game_after::<P>(Some(fen), &[], &["e1e2"]);
    assert_eq!(game.status().to_string(), "ongoing");
    let game = game_after::<P>(Some(fen), &[], &["e1e2", "e8e2"]);
    assert_eq!(game.status().to_string(), "0-1 royal-captured");
    assert!(legal_texts(game.position()).is_empty());
    // Both players are told.
    for player in 0..2 {
        let view = game.position().view(player);
        assert_eq!(view.outcome.unwrap().to_string(), "0-1 royal-captured");
    }
}

#[test]
fn scenario_03_castling_through_attack() {
    let fen = "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1";
    assert!(legal_texts(&position::<P>(fen)).contains(&"e1g1".to_string()));
    let game = game_after::<P>(Some(fen), &[], &["e1g1"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/2b5/8/8/5RK1 b - - 1 1");
    // Even out of attack and onto an attacked cell.
    let fen = "4k3/8/8/8/8/8/6r1/4K2R w K - 0 1";
    assert!(legal_texts(&position::<P>(fen)).contains(&"e1g1".to_string()));
    // The other conditions remain: the cells between must be empty.
    let blocked = "4k3/8/8/8/8/8/8/4KB1R w K - 0 1";
    assert!(!legal_texts(&position::<P>(blocked)).contains(&"e1g1".to_string()));
}

#[test]
fn scenario_04_en_passant_seen_and_then_gone() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    let game = game_after::<P>(Some(fen), &[], &["d7d5"]);
    let p = game.position();
    let view = p.view(0);
    let spec = p.board().spec();
    for cell in ["d5", "d6"] {
        assert!(view.visible.contains(spec.cell(cell).unwrap()), "{cell}");
    }
    assert!(view.fen.contains(" w - d6 "), "{}", view.fen);
    assert!(legal_texts(p).contains(&"e5d6".to_string()));
    let taken = game_after::<P>(Some(fen), &[], &["d7d5", "e5d6"]);
    assert_eq!(taken.position().fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    // Something else: the right disappears.
    let game = game_after::<P>(Some(fen), &[], &["d7d5", "e1d1", "e8d8"]);
    assert!(!legal_texts(game.position()).contains(&"e5d6".to_string()));
    let view = game.position().view(0);
    assert!(!view.visible.contains(spec.cell("d6").unwrap()));
    assert!(!view.visible.contains(spec.cell("d5").unwrap()));
}

#[test]
fn scenario_05_told_only_that_the_opponent_moved() {
    // Black's bishop takes the white knight on b5 from far away.
    let fen = "4k3/8/8/1N6/8/8/6b1/4K3 b - - 0 1";
    let quiet = game_after::<P>(Some(fen), &[], &["e8d8"]);
    let view = quiet.position().view(0);
    assert!(view.opponent_moved);
    assert_eq!(view.lost, None);
    let capture = game_after::<P>(Some("4k3/8/2b5/1N6/8/8/8/4K3 b - - 0 1"), &[], &["c6b5"]);
    let view = capture.position().view(0);
    assert!(view.opponent_moved);
    assert_eq!(view.lost, Some(("b5".to_string(), "N".to_string())));
    // The knight is missing from White's own men; where the bishop went is seen only if a
    // white man can move there (here none can: the white king is far away).
    let spec = capture.position().board().spec();
    assert!(!view.visible.contains(spec.cell("b5").unwrap()));
    assert!(!view.fen.contains('N'));
    // Black's view says nothing of White's loss: it was his own move.
    let black = capture.position().view(1);
    assert!(!black.opponent_moved);
    assert_eq!(black.lost, None);
}

#[test]
fn scenario_06_a_blocking_knight_stays_dark() {
    let fen = "4k3/8/8/4n3/4P3/8/8/K7 w - - 0 1";
    let p = position::<P>(fen);
    let view = p.view(0);
    let spec = p.board().spec();
    assert!(!view.visible.contains(spec.cell("e5").unwrap()));
    assert_eq!(
        view.fen,
        "********/********/********/********/****P***/********/2******/K1****** w - - 0 1"
    );
}

#[test]
fn scenario_07_an_unseen_promotion_changes_nothing_in_whites_view() {
    let fen = "4k3/8/8/8/8/8/1p6/7K b - - 0 1";
    let before = position::<P>(fen).view(0);
    let game = game_after::<P>(Some(fen), &[], &["b2b1q"]);
    let after = game.position().view(0);
    assert_eq!(after.visible, before.visible);
    assert!(!after.fen.contains('q'));
    // The board part of the view is the same; only the side to move changed.
    assert_eq!(after.fen.split(' ').next(), before.fen.split(' ').next());
    // A white man that can move to b1 sees it.
    let seen = game_after::<P>(Some("4k3/8/8/8/8/8/1p6/R6K b - - 0 1"), &[], &["b2b1q"]);
    assert!(seen.position().view(0).fen.contains('q'));
}

#[test]
fn scenario_08_taking_the_king_wins_even_with_ones_own_king_attacked() {
    // White's king stands attacked by the black queen; White's rook takes the black king.
    let game = game_after::<P>(Some("4k2R/8/8/8/8/8/3q4/4K3 w - - 0 1"), &[], &["h8e8"]);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    assert!(legal_texts(game.position()).is_empty());
}

#[test]
fn scenario_09_threefold_repetition_by_the_arbiter() {
    let moves = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let game = game_after::<P>(None, &[], &moves[..7]);
    assert_eq!(game.status().to_string(), "ongoing");
    let game = game_after::<P>(None, &[], &moves);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    // The fifty-move rule too, automatically.
    let game = game_after::<P>(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), &[], &["a1a2"]);
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
}

// What a view gives, and what it does not.

#[test]
fn views_depend_only_on_what_the_player_may_know() {
    // Two positions that differ only in Black's men that White cannot see give White the
    // same view.
    let a = position::<P>("r3k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 10");
    let b = position::<P>("4k2r/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 10");
    assert_eq!(a.view(0), b.view(0));
    assert_ne!(a.view(1), b.view(1));
    // The halfmove clock in a view counts only what the player knows: Black's knight move is
    // not a capture of White's man, so White counts on; Black's pawn move is unknown to
    // White, so White's clock does not reset while the true one does.
    let game = game_after::<P>(None, &[], &["g1f3", "e7e5"]);
    assert_eq!(game.position().quiet_plies(), 0);
    assert!(
        game.position().view(0).fen.ends_with(" 2 2"),
        "{}",
        game.position().view(0).fen
    );
    assert!(game.position().view(1).fen.ends_with(" 0 2"));
    // Castling rights: only one's own.
    let start = position::<P>(START_FEN);
    assert!(start.view(0).fen.contains(" w KQ - "));
    assert!(start.view(1).fen.contains(" w kq - "));
}

#[test]
fn no_check_and_no_dead_position() {
    // A king may stay attacked; the opponent need not answer a "check".
    let p = position::<P>("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    assert!(!p.is_check());
    assert!(legal_texts(&p).contains(&"e8d7".to_string()));
    // Kings alone are not dead: a king can still be taken.
    let game = game_after::<P>(Some("8/8/8/8/8/3k4/8/3K4 w - - 0 1"), &[], &[]);
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn stalemate_when_no_man_can_move() {
    // Every white man is blocked: the king by his own men, the bishop by its pawns, the rook
    // boxed in, the pawns by the black pawns straight ahead with nothing to take diagonally.
    let game = game_after::<P>(Some("7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1"), &[], &[]);
    assert_eq!(legal_texts(game.position()), Vec::<String>::new());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}

#[test]
fn fen_checks() {
    let o = options::<P>(&[]);
    // After a king capture the side to move has no king: a finished game reads back.
    let over = "4R3/8/8/8/8/8/3q4/4K3 b - - 0 1";
    let p = P::from_fen_with(&o, over).unwrap();
    assert_eq!(p.fen(), over);
    assert_eq!(Game::new(p).status().to_string(), "1-0 royal-captured");
    for bad in [
        "",
        // The side not to move without king.
        "8/8/8/8/8/8/3q4/4K3 w - - 0 1",
        // Two kings.
        "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
        // A pawn on its first rank.
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
    ] {
        assert!(P::from_fen_with(&o, bad).is_err(), "{bad:?}");
    }
    // The side not to move may stand "in check": there is no check.
    assert!(P::from_fen_with(&o, "4k3/8/8/8/8/8/8/R3K2r b - - 0 1").is_ok());
    assert!(P::option_specs().is_empty());
}

#[test]
fn perft_start() {
    let p = position::<P>(START_FEN);
    assert_eq!(perft(&p, 3), 8902);
    // Ply 4 differs from chess's 197281: no move is illegal for leaving the king attacked.
    assert_eq!(perft(&p, 4), 197742);
}

#[test]
fn a_view_accounts_for_the_opponents_men_less_those_taken() {
    // From a FEN both players know every man; a capture takes one off the taker's account
    // only (the loser sees his man go, but not where the taker went).
    let fen = "4k3/8/2b5/1N6/8/8/8/4K3 w - - 0 1";
    let start = position::<P>(fen);
    assert_eq!(start.view(0).enemy_men, "kb");
    assert_eq!(start.view(1).enemy_men, "KN");
    let game = game_after::<P>(Some(fen), &[], &["b5a3", "c6a4", "a3c4", "a4d1"]);
    assert_eq!(game.position().view(0).enemy_men, "kb");
    let taken = game_after::<P>(Some(fen), &[], &["e1d1", "c6b5"]);
    assert_eq!(taken.position().view(0).enemy_men, "kb");
    assert_eq!(taken.position().view(1).enemy_men, "K");
    let text = taken.position().player_view(1).unwrap();
    assert!(text.contains("\nenemy-men K\n"), "{text}");
    // A man of a kind he accounts for none of was a pawn promoted unseen.
    let promoted = "4k3/8/8/8/8/8/8/R3K2q w - - 0 1";
    let p = position::<P>(promoted);
    assert_eq!(p.view(0).enemy_men, "kq");
}

#[test]
fn positions_drawn_from_a_view_give_the_same_view() {
    use chaturanga_rules::zobrist::SplitMix64;
    let game = game_after::<P>(None, &[], &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5"]);
    let view = game.position().player_view(1).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut boards = std::collections::HashSet::new();
    for _ in 0..20 {
        let drawn = P::determinize(&view, &mut rng).expect("a position fits");
        assert_eq!(drawn.view_fen(1), game.position().view_fen(1));
        // Black has taken nothing: all 16 white men are there; Black's own 15 as they are.
        assert_eq!(drawn.board().pieces_of(0).count(), 16);
        assert_eq!(
            drawn.board().pieces_of(1),
            game.position().board().pieces_of(1)
        );
        boards.insert(drawn.fen());
    }
    assert!(boards.len() > 10, "the unseen men are placed at random");
    // Malformed views are errors.
    for bad in ["", "rnbqkbnr w", "8/8/8/8/8/8/8/8 w - - 0 1\nenemy-men z"] {
        assert!(P::determinize(bad, &mut rng).is_err());
    }
}
