//! Every scenario of `docs/rules/progressive.md`, in its order, as a named test; then the
//! per-whole-series perft counts of `tests/perft/progressive.perft`, FEN reading and writing,
//! the numbered-series notation and the draw rules.

use crate::common;

use chaturanga_rules::{Game, Position, Reason, Ruleset, Status, perft, perft_turns};
use chaturanga_variants::progressive::{ProgressivePosition, START_FEN, play_series, write_series};
use common::{game_after, legal_texts, options, position, read_perft_file};

type P = ProgressivePosition;

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<P>(fen))
}

fn has(moves: &[String], text: &str) -> bool {
    moves.iter().any(|m| m == text)
}

fn fen_after(fen: Option<&str>, opts: &[&str], moves: &[&str]) -> String {
    game_after::<P>(fen, opts, moves).position().fen()
}

#[test]
fn scenario_01_series_of_one_two_three_moves() {
    let start = game_after::<P>(None, &[], &[]);
    assert_eq!(start.position().fen(), START_FEN);
    assert_eq!(legal_texts(start.position()).len(), 20);
    // 1. e4: White's series has one move.
    assert_eq!(
        fen_after(None, &[], &["e2e4"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 0"
    );
    // 2. e5 Nf6: Black keeps the move after e5 (the field lists his own double step).
    assert_eq!(
        fen_after(None, &[], &["e2e4", "e7e5"]),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 2 1"
    );
    let mut game = game_after::<P>(None, &[], &["e2e4", "e7e5", "g8f6"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 0"
    );
    // A third Black move in series 2 is illegal: White is to move.
    assert_eq!(game.position().side_to_move(), 0);
    assert!(game.play_text("b8c6").is_err());
    // 3. d4 Bc4 Qh5: three White moves, then Black's series 4.
    for (i, mv) in ["d2d4", "f1c4", "d1h5"].into_iter().enumerate() {
        assert_eq!(game.position().side_to_move(), 0, "White's move {}", i + 1);
        game.play_text(mv).unwrap();
    }
    assert_eq!(
        game.position().fen(),
        "rnbqkb1r/pppp1ppp/5n2/4p2Q/2BPP3/8/PPP2PPP/RNB1K1NR b KQkq - 0 4 0"
    );
    assert_eq!(game.position().moves_left(), 4);
}

#[test]
fn scenario_02_a_check_ends_the_series() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0";
    let game = game_after::<P>(Some(fen), &[], &["e1e2"]);
    assert_eq!(game.position().side_to_move(), 0);
    // The second move gives check: moves 3-5 are forfeited.
    let mut game = game_after::<P>(Some(fen), &[], &["e1e2", "a1a8"]);
    assert_eq!(game.position().fen(), "R3k3/8/8/8/8/8/4K3/8 b - - 1 6 0");
    assert!(game.position().is_check());
    // Black plays series 6 with six moves.
    let black = ["e8e7", "e7e6", "e6f5", "f5g4", "g4h3", "h3h2"];
    for (i, mv) in black.into_iter().enumerate() {
        assert_eq!(game.position().side_to_move(), 1, "Black's move {}", i + 1);
        assert_eq!(game.position().series(), 6);
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.position().fen(), "R7/8/8/8/8/8/4K2k/8 w - - 2 7 0");
}

#[test]
fn scenario_03_no_temporary_exposure_of_the_own_king() {
    let fen = "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 5 0";
    let moves = legal(fen);
    assert!(moves.iter().all(|m| !m.starts_with("e2")), "{moves:?}");
    assert!(position::<P>(fen).parse_move("e2d3").is_err());
}

#[test]
fn scenario_04_check_at_the_start_of_a_series_must_be_removed_or_it_is_mate() {
    // White's third move of series 5 gives check; Black's series 6 must start by evading.
    let game = game_after::<P>(Some("4k3/8/8/8/8/8/8/R6K w - - 0 5 2"), &[], &["a1e1"]);
    assert_eq!(game.position().series(), 6);
    assert!(game.position().is_check());
    assert_eq!(
        legal_texts(game.position()),
        ["e8d7", "e8d8", "e8f7", "e8f8"]
    );
    // No evasion: checkmate.
    let game = game_after::<P>(Some("7k/6pp/8/8/8/8/8/R6K w - - 0 5 3"), &[], &["a1a8"]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_05_en_passant_only_as_the_first_move_of_the_next_series() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 4 0";
    let black = ["d7d5", "e8e7", "e7f7", "f7g7"];
    for n in 1..4 {
        let after = fen_after(Some(fen), &[], &black[..n]);
        assert!(
            after.contains(" d6 "),
            "the field is d6 for the rest of the series: {after}"
        );
    }
    let game = game_after::<P>(Some(fen), &[], &black);
    assert_eq!(game.position().fen(), "8/6k1/8/3pP3/8/8/8/4K3 w - d6 0 5 0");
    assert!(has(&legal_texts(game.position()), "e5d6"));
    let mut moves = black.to_vec();
    moves.push("e5d6");
    assert_eq!(
        fen_after(Some(fen), &[], &moves),
        "8/6k1/3P4/8/8/8/8/4K3 w - - 0 5 1"
    );
    // As the second move of the series the same capture is illegal.
    let mut later = black.to_vec();
    later.push("e1e2");
    let game = game_after::<P>(Some(fen), &[], &later);
    assert!(!has(&legal_texts(game.position()), "e5d6"));
    // A capture that would expose the king is not legal, so the field stays empty.
    let pinned = game_after::<P>(
        Some("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 4 0"),
        &[],
        &["d7d5", "e8e7", "e7f7", "f7e7"],
    );
    assert_eq!(
        pinned.position().fen(),
        "8/4k3/8/K2pP2r/8/8/8/8 w - - 0 5 0"
    );
    assert!(!has(&legal_texts(pinned.position()), "e5d6"));
}

#[test]
fn scenario_06_a_double_step_followed_by_another_step_gives_no_en_passant() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 4 0";
    assert!(fen_after(Some(fen), &[], &["d7d5"]).contains(" d6 "));
    assert_eq!(
        fen_after(Some(fen), &[], &["d7d5", "d5d4"]),
        "4k3/8/8/4P3/3p4/8/8/4K3 b - - 0 4 2"
    );
    let game = game_after::<P>(Some(fen), &[], &["d7d5", "d5d4", "e8e7", "e7f7"]);
    assert_eq!(game.position().fen(), "8/5k2/8/4P3/3p4/8/8/4K3 w - - 0 5 0");
    assert!(!has(&legal_texts(game.position()), "e5d6"));
}

#[test]
fn scenario_07_two_en_passant_rights_but_only_one_capture() {
    let fen = "4k3/1p3p2/8/2P1P3/8/8/8/4K3 b - - 0 4 0";
    let game = game_after::<P>(Some(fen), &[], &["b7b5", "f7f5", "e8d8", "d8e8"]);
    assert_eq!(
        game.position().fen(),
        "4k3/8/8/1pP1Pp2/8/8/8/4K3 w - b6f6 0 5 0"
    );
    let moves = legal_texts(game.position());
    assert!(has(&moves, "c5b6") && has(&moves, "e5f6"), "{moves:?}");
    for (first, other) in [("c5b6", "e5f6"), ("e5f6", "c5b6")] {
        let mut after = game.clone();
        after.play_text(first).unwrap();
        assert_eq!(after.position().side_to_move(), 0);
        assert!(!has(&legal_texts(after.position()), other));
    }
    let taken = game_after::<P>(
        Some("4k3/8/8/1pP1Pp2/8/8/8/4K3 w - b6f6 0 5 0"),
        &[],
        &["c5b6"],
    );
    assert_eq!(
        taken.position().fen(),
        "4k3/8/1P6/4Pp2/8/8/8/4K3 w - - 0 5 1"
    );
}

#[test]
fn scenario_08_no_legal_move_in_the_middle_of_a_series_is_a_draw() {
    let fen = "4k1r1/1p6/8/1P6/8/7p/7P/7K w - - 0 7 3";
    assert_eq!(legal(fen), ["b5b6"]);
    let game = game_after::<P>(Some(fen), &[], &["b5b6"]);
    let after = game.position();
    assert_eq!(
        (after.series(), after.played(), after.side_to_move()),
        (7, 4, 0)
    );
    assert!(!after.is_check());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
    // Per whole series, the series ended by the stalemate is one complete series.
    let p = position::<P>(fen);
    assert_eq!(perft(&p, 2), 0);
    assert_eq!(perft_turns(&p, 1), 1);
    assert_eq!(perft_turns(&p, 2), 0);
}

/// The first legal knight move (in text order) that neither captures nor gives check.
fn quiet_knight_move(position: &P) -> String {
    legal_texts(position)
        .into_iter()
        .find(|m| {
            let mv = position.parse_move(m).unwrap();
            let mut child = position.clone();
            child.play_unchecked(mv);
            mv.kind == 1 && !mv.is_capture() && !child.is_check()
        })
        .expect("a quiet knight move")
}

#[test]
fn scenario_09_ten_quiet_series_draw() {
    // From the start, knights only: series 1 to 10 (55 moves) without capture or pawn move.
    let mut game = Game::new(P::start_position(&options::<P>(&[])).unwrap());
    while game.position().series() <= 10 {
        assert_eq!(
            game.status().to_string(),
            "ongoing",
            "{}",
            game.position().fen()
        );
        let before = game.position().quiet_plies();
        let mv = quiet_knight_move(game.position());
        game.play_text(&mv).unwrap();
        // The counter moves only when a series is completed.
        if game.position().played() > 0 {
            assert_eq!(game.position().quiet_plies(), before);
        }
    }
    assert_eq!(game.position().quiet_plies(), 10);
    assert_eq!(game.status().to_string(), "1/2-1/2 no-progress");
    // Nine completed quiet series and a tenth in progress: not yet.
    let nine = "4k3/p7/8/8/8/8/7P/R3K3 w - - 9 3 0";
    let game = game_after::<P>(Some(nine), &[], &["a1a2", "a2a3"]);
    assert_eq!(game.position().quiet_plies(), 9);
    assert_eq!(game.status().to_string(), "ongoing");
    // The tenth quiet series is complete: drawn.
    let game = game_after::<P>(Some(nine), &[], &["a1a2", "a2a3", "a3a4"]);
    assert_eq!(game.position().quiet_plies(), 10);
    assert_eq!(game.status().to_string(), "1/2-1/2 no-progress");
    // A pawn move or a capture anywhere in the series resets the count when it ends.
    for moves in [["a1a2", "h2h3", "a2a3"], ["a1a7", "a7a6", "a6a5"]] {
        let game = game_after::<P>(Some(nine), &[], &moves);
        assert_eq!(game.position().quiet_plies(), 0, "{moves:?}");
        assert_eq!(game.status().to_string(), "ongoing");
    }
}

#[test]
fn scenario_10_castling_in_the_middle_of_a_series() {
    let fen = "4k3/8/8/8/8/8/8/4KBNR w K - 0 5 0";
    assert!(!has(&legal(fen), "e1g1"));
    let game = game_after::<P>(Some(fen), &[], &["f1d3", "g1f3"]);
    assert!(has(&legal_texts(game.position()), "e1g1"));
    assert_eq!(
        fen_after(Some(fen), &[], &["f1d3", "g1f3", "e1g1"]),
        "4k3/8/8/8/8/3B1N2/8/5RK1 w - - 0 5 3"
    );
    // Not when a cell the king crosses or lands on is attacked at that moment.
    let g1 = game_after::<P>(
        Some("4k1r1/8/8/8/8/8/8/4KBNR w K - 0 5 0"),
        &[],
        &["f1d3", "g1f3"],
    );
    assert!(!has(&legal_texts(g1.position()), "e1g1"));
    let f1 = game_after::<P>(
        Some("4k3/8/b7/8/8/8/8/4KBNR w K - 0 5 0"),
        &[],
        &["f1h3", "g1f3"],
    );
    assert!(!has(&legal_texts(f1.position()), "e1g1"));
}

#[test]
fn scenario_11_italian_check_only_with_the_last_move() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0";
    let italian = ["check=italian"];
    // First move: checks are illegal under check=italian, legal by default.
    assert!(!has(
        &legal_texts(game_after::<P>(Some(fen), &italian, &[]).position()),
        "a1a8"
    ));
    assert!(has(&legal(fen), "a1a8"));
    // Third move.
    let third = game_after::<P>(Some(fen), &italian, &["e1d2", "d2c3"]);
    let moves = legal_texts(third.position());
    assert!(!has(&moves, "a1a8") && !has(&moves, "a1e1"), "{moves:?}");
    let scottish = game_after::<P>(Some(fen), &[], &["e1d2", "d2c3", "a1a8"]);
    assert_eq!(
        scottish.position().series(),
        6,
        "the check ended the series"
    );
    // Fifth move: legal, and the series ends as it would anyway.
    let fifth = game_after::<P>(Some(fen), &italian, &["e1d2", "d2c3", "c3b3", "b3c3"]);
    assert!(has(&legal_texts(fifth.position()), "a1a8"));
    let game = game_after::<P>(
        Some(fen),
        &italian,
        &["e1d2", "d2c3", "c3b3", "b3c3", "a1a8"],
    );
    assert_eq!(game.position().fen(), "R3k3/8/8/8/8/2K5/8/8 b - - 1 6 0");
    assert!(game.position().is_check());
}

#[test]
fn scenario_12_the_only_parry_gives_check() {
    let fen = "7k/2K3pp/3n4/8/8/8/8/4R3 w - - 0 9 8";
    // Re8+ is the last move of series 9 (legal under both rules).
    let game = game_after::<P>(Some(fen), &[], &["e1e8"]);
    assert_eq!(game.position().series(), 10);
    assert!(game.position().is_check());
    assert_eq!(legal_texts(game.position()), ["d6e8"]);
    // Default rules: Black plays it, the check ends his series, White plays series 11.
    let game = game_after::<P>(Some(fen), &[], &["e1e8", "d6e8"]);
    assert_eq!(game.position().fen(), "4n2k/2K3pp/8/8/8/8/8/8 w - - 0 11 0");
    assert!(game.position().is_check());
    assert_eq!(game.position().moves_left(), 11);
    assert_eq!(game.status().to_string(), "ongoing");
    // check=italian: the parry gives check before the last move of series 10, so it is
    // illegal, and Black is checkmated.
    let game = game_after::<P>(Some(fen), &["check=italian"], &["e1e8"]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

// Per-whole-series perft: the `# turns <depth> <nodes>` lines of progressive.perft.

const DEBUG_NODE_LIMIT: u64 = 3_000_000;

#[test]
fn perft_by_whole_series_from_the_fixture_file() {
    let path = format!(
        "{}/tests/perft/progressive.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let cases = read_perft_file(&text);
    // The `# turns` lines belong to the case whose `id` precedes them.
    let mut turns: Vec<Vec<(u32, u64)>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("id ") {
            turns.push(Vec::new());
        } else if let Some(rest) = line.strip_prefix("# turns ") {
            let mut words = rest.split_whitespace();
            let depth = words.next().unwrap().parse().unwrap();
            let nodes = words.next().unwrap().parse().unwrap();
            turns
                .last_mut()
                .expect("turns after id")
                .push((depth, nodes));
        }
    }
    assert_eq!(turns.len(), cases.len());
    let mut checked = 0;
    for (case, expected) in cases.iter().zip(&turns) {
        let opts: Vec<&str> = case.options.iter().map(String::as_str).collect();
        let p = P::from_fen_with(&options::<P>(&opts), &case.fen).unwrap();
        for &(depth, nodes) in expected {
            if cfg!(debug_assertions) && nodes > DEBUG_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft_turns(&p, depth), nodes, "{} turns {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} whole-series counts checked");
}

// FEN.

#[test]
fn fen_fields_and_their_checks() {
    // Without the last fields: quiet 0, the series of the side to move, nothing played.
    assert_eq!(
        position::<P>("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").fen(),
        START_FEN
    );
    assert_eq!(
        position::<P>("4k3/8/8/8/8/8/8/R3K3 b").fen(),
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 2 0"
    );
    let o = options::<P>(&[]);
    let bad = [
        // Series 4 is Black's.
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 4 0",
        // Series 3 has three moves.
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 3 3",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 0 0",
        "4k3/8/8/8/8/8/8/R3K3 w - - x 3 0",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 3 -1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 3 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - e9 0 3 0",
        // In check in the middle of his own series.
        "4k3/8/8/8/8/8/8/r3K3 w - - 0 3 1",
        // The side not to move in check (his own series could not have ended so).
        "4k3/8/8/8/8/8/8/4K2r b - - 0 4 0",
        "R3k3/8/8/8/8/8/8/4K3 w - - 0 3 0",
        "",
    ];
    for fen in bad {
        assert!(P::from_fen_with(&o, fen).is_err(), "{fen:?}");
    }
}

#[test]
fn en_passant_field_at_a_series_start_and_in_the_middle() {
    // At a series start: the cells the mover can capture onto, in file order, read also
    // unordered or with commas; cells nobody can use are dropped.
    for field in ["b6f6", "f6b6", "b6,f6", "b6f6c6"] {
        let fen = format!("4k3/8/8/1pP1Pp2/8/8/8/4K3 w - {field} 0 5 0");
        assert_eq!(
            position::<P>(&fen).fen(),
            "4k3/8/8/1pP1Pp2/8/8/8/4K3 w - b6f6 0 5 0"
        );
    }
    assert_eq!(
        position::<P>("4k3/8/8/1pP1Pp2/8/8/8/4K3 w - c6 0 5 0").fen(),
        "4k3/8/8/1pP1Pp2/8/8/8/4K3 w - - 0 5 0"
    );
    // In the middle of a series: the mover's own double steps whose pawns stand beyond them.
    let mid = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 2 1";
    assert_eq!(position::<P>(mid).fen(), mid);
    assert_eq!(
        position::<P>("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2 1").fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 1"
    );
    // Read from the middle of Black's series, the double step still gives White his capture.
    let game = game_after::<P>(
        Some("4k3/8/8/2P1Pp2/8/8/8/4K3 b - f6 0 4 2"),
        &[],
        &["e8d8", "d8e8"],
    );
    assert_eq!(
        game.position().fen(),
        "4k3/8/8/2P1Pp2/8/8/8/4K3 w - f6 0 5 0"
    );
    assert!(has(&legal_texts(game.position()), "e5f6"));
    // The double-stepped pawn keeps the right as long as the skipped cell is empty at the end
    // of the series (a piece moving in behind it changes nothing) ...
    let behind = game_after::<P>(
        Some("4k3/5p2/8/4P3/8/8/8/4K3 b - - 0 4 2"),
        &[],
        &["f7f5", "e8f7"],
    );
    assert_eq!(
        behind.position().fen(),
        "8/5k2/8/4Pp2/8/8/8/4K3 w - f6 0 5 0"
    );
    // ... and loses it when a piece of his stands on the skipped cell then.
    let occupied = game_after::<P>(
        Some("4k1n1/5p2/8/4P3/8/8/8/4K3 b - - 0 4 2"),
        &[],
        &["f7f5", "g8f6"],
    );
    assert!(
        occupied.position().fen().contains(" w - - "),
        "{}",
        occupied.position().fen()
    );
}

#[test]
fn same_placement_different_state_hashes_differently() {
    let fens = [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 7 0",
    ];
    let hashes: Vec<u64> = fens.iter().map(|f| position::<P>(f).hash()).collect();
    assert_ne!(hashes[0], hashes[1]);
    assert_ne!(hashes[0], hashes[2]);
    assert_ne!(hashes[1], hashes[2]);
}

// Draw rules.

#[test]
fn no_repetition_rule() {
    // The locked position: only the kings move, White's on a1-b1-c1 and Black's on f8-g8-h8.
    // Taking the last legal move in text order shuttles them b1-c1 and h8-g8, so the start
    // placement (same side to move) comes back again and again; since the series number
    // grows, no position repeats and the game goes on.
    let fen = "4b2k/3p1p1p/3P1PpP/6P1/1p6/pPp1p3/P1P1P3/1K1B4 w - - 0 5 2";
    let mut game = game_after::<P>(Some(fen), &[], &[]);
    let start = game.position().board().hash();
    let mut seen = 0;
    while game.position().series() < 9 {
        let mv = legal_texts(game.position())
            .pop()
            .expect("the kings always have a move");
        game.play_text(&mv).unwrap();
        if game.position().board().hash() == start {
            seen += 1;
        }
        assert_eq!(game.status().to_string(), "ongoing");
        assert_eq!(game.repetitions(), 1, "{}", game.position().fen());
    }
    assert!(seen >= 3, "the start placement came back {seen} times");
    assert!(game.position().draw_rules().repetition.is_none());
}

#[test]
fn dead_positions_are_drawn() {
    for fen in [
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 5 0",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 6 3",
        "4k3/8/8/2b5/8/8/8/2B1K3 w - - 0 5 0",
    ] {
        let game = game_after::<P>(Some(fen), &[], &[]);
        assert_eq!(
            game.status().to_string(),
            "1/2-1/2 insufficient-material",
            "{fen}"
        );
    }
    let alive = game_after::<P>(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0"), &[], &[]);
    assert_eq!(alive.status().to_string(), "ongoing");
}

#[test]
fn rule_options() {
    assert!(chaturanga_rules::RuleOptions::parse(P::option_specs(), &["check=italian"]).is_ok());
    assert!(chaturanga_rules::RuleOptions::parse(P::option_specs(), &["check=french"]).is_err());
    assert!(chaturanga_rules::RuleOptions::parse(P::option_specs(), &["fide-claims=on"]).is_err());
}

// Notation.

#[test]
fn numbered_series_notation_round_trip() {
    let text = "1. e2e4 2. e7e5 g8f6 3. d2d4 f1c4 d1h5";
    let mut game = Game::new(P::start_position(&options::<P>(&[])).unwrap());
    play_series(&mut game, text).unwrap();
    assert_eq!(game.moves().len(), 6);
    assert_eq!(write_series(&game), text);
    // A check ends a series early; the next number follows at once.
    let mut short = game_after::<P>(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0"), &[], &[]);
    play_series(&mut short, "5. e1e2 a1a8 6. e8d7").unwrap();
    assert_eq!(write_series(&short), "5. e1e2 a1a8 6. e8d7");
    // From the middle of a series.
    let mut mid = game_after::<P>(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 3"), &[], &[]);
    play_series(&mut mid, "5. ... e1e2 e2e3 6. e8d8").unwrap();
    assert_eq!(write_series(&mid), "5. ... e1e2 e2e3 6. e8d8");
    // Errors: a wrong or missing series number, an illegal move, a malformed number.
    for bad in [
        "1. e2e4 e7e5",
        "2. e2e4",
        "1. e2e4 2. e7e5 g8f6 b8c6",
        "x. e2e4",
        "1. e2e5",
    ] {
        let mut g = Game::new(P::start_position(&options::<P>(&[])).unwrap());
        assert!(play_series(&mut g, bad).is_err(), "{bad}");
    }
}

#[test]
fn san_marks_the_check_that_ends_a_series() {
    let p = position::<P>("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 0");
    let mv = p.parse_move("a1a8").unwrap();
    assert_eq!(chaturanga_notation_san(&p, mv), "Ra8+");
}

fn chaturanga_notation_san(p: &P, mv: <P as Position>::Move) -> String {
    let d = p.describe(mv).unwrap();
    let mut child = p.clone();
    child.play_unchecked(mv);
    format!(
        "{}{}{}",
        d.piece,
        d.to,
        if child.is_check() { "+" } else { "" }
    )
}

#[test]
fn draws_and_results_are_reported_with_their_reasons() {
    let game = game_after::<P>(Some("7k/6pp/8/8/8/8/8/R6K w - - 0 5 3"), &[], &["a1a8"]);
    assert_eq!(
        game.status(),
        Status::Over(chaturanga_rules::Outcome::win(2, 0, Reason::Checkmate))
    );
}
