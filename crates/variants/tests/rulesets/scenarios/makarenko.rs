//! Every scenario of `docs/rules/makarenko.md`, in its order, as a named test, followed by
//! tests of rules the text states without a numbered scenario (reserve placement, the
//! fifty-move counter, stalemate, notation and FEN details).

use crate::common;

use chaturanga_rules::{Position, Ruleset, perft};
use chaturanga_variants::makarenko::{MakarenkoPosition, START_FEN};
use common::{game_after, legal_texts, options};

/// A Makarenko FEN from a tower list such as `"Qd4 Ke1 P{2}e2 kh8"` (the FEN symbol, upper
/// case for White, then the cell) and the fields after the board.
fn setup(towers: &str, tail: &str) -> String {
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; 8]; 8];
    for item in towers.split_whitespace() {
        let (symbol, cell) = item.split_at(item.len() - 2);
        let bytes = cell.as_bytes();
        let file = (bytes[0] - b'a') as usize;
        let rank = (bytes[1] - b'1') as usize;
        assert!(file < 8 && rank < 8, "{item}");
        assert!(grid[rank][file].is_none(), "{item}: cell used twice");
        grid[rank][file] = Some(symbol.to_string());
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in &grid[rank] {
                match cell {
                    None => empty += 1,
                    Some(tower) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(tower);
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

fn position_with(opts: &[&str], fen: &str) -> MakarenkoPosition {
    game_after::<MakarenkoPosition>(Some(fen), opts, &[])
        .position()
        .clone()
}

fn legal_with(opts: &[&str], fen: &str) -> Vec<String> {
    legal_texts(&position_with(opts, fen))
}

fn legal(fen: &str) -> Vec<String> {
    legal_with(&[], fen)
}

fn from(moves: &[String], cell: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| m.starts_with(cell))
        .cloned()
        .collect()
}

fn fen_after_with(opts: &[&str], fen: &str, moves: &[&str]) -> String {
    game_after::<MakarenkoPosition>(Some(fen), opts, moves)
        .position()
        .fen()
}

fn fen_after(fen: &str, moves: &[&str]) -> String {
    fen_after_with(&[], fen, moves)
}

fn status_after(fen: &str, moves: &[&str]) -> String {
    game_after::<MakarenkoPosition>(Some(fen), &[], moves)
        .status()
        .to_string()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

#[test]
fn start_position_and_its_moves() {
    let start = game_after::<MakarenkoPosition>(None, &[], &[]);
    assert_eq!(start.position().fen(), START_FEN);
    for player in 0..2 {
        assert_eq!(start.position().disks(player), 47);
        assert_eq!(start.position().king_count(player), 1);
    }
    // Counted by hand (merges need the mover's capture pattern and at most 8 disks):
    // pawns 16; rooks a1/h1 4 each (whole onto the knight and the neighbouring pawn, 1 or 2
    // disks as a pawn onto the b2/g2 pawn); knights 10 each (whole: 2 empty cells and the d2/e2
    // pawn; 1-2 disks as a pawn onto 2 pawns: 4; 3 disks as a rook onto the rook, bishop and
    // pawn: 3); bishops 12 each (whole onto 2 pawns; 1-2 as a pawn: 4; 3 as a rook onto the
    // knight and the pawn, not the queen/king (10/11 disks); 4 as a knight: 4); queen 17
    // (whole onto c2 d2 e2; 1-2 as a pawn: 4; 3 as a rook onto c1 and d2; 4 as a knight: 4;
    // 5-6 as a bishop onto c2, e2: 4); the sole king none (no splits, every merge > 8).
    assert_eq!(legal_texts(start.position()).len(), 16 + 8 + 20 + 24 + 17);
}

#[test]
fn scenario_01_split_a_queen_into_knight_and_rook() {
    let fen = setup("Qd4 Ke1 kh8", "w - - 0 1");
    assert!(has(&legal(&fen), "d4f5/4"));
    assert_eq!(
        fen_after(&fen, &["d4f5/4"]),
        setup("Nf5 Rd4 Ke1 kh8", "b - - 1 1")
    );
}

#[test]
fn scenario_02_two_knights_make_a_second_king() {
    let fen = setup("Ng1 Ne2 Ke1 kh8", "w - - 0 1");
    let game = game_after::<MakarenkoPosition>(Some(&fen), &[], &["g1e2"]);
    assert_eq!(game.position().fen(), setup("Ke2 Ke1 kh8", "b - - 1 1"));
    assert_eq!(game.position().king_count(0), 2);
}

#[test]
fn scenario_03_pawn_merges_only_where_it_captures() {
    let fen = setup("Pe4 Bd5 Ke1 kh8", "w - - 0 1");
    assert_eq!(
        fen_after(&fen, &["e4d5"]),
        setup("B{6}d5 Ke1 kh8", "b - - 0 1")
    );
    let blocked = setup("Pe4 Re5 Ke1 kh8", "w - - 0 1");
    assert!(from(&legal(&blocked), "e4").is_empty());
    assert!(position_with(&[], &blocked).parse_move("e4e5").is_err());
}

#[test]
fn scenario_04_towers_over_eight_disks_under_each_option() {
    let fen = setup("Ra1 Qa4 Ke1 kh8", "w - - 0 1");
    assert!(!has(&legal(&fen), "a1a4"));
    assert_eq!(
        fen_after_with(&["tall=king"], &fen, &["a1a4"]),
        setup("K{10}a4 Ke1 kh8", "b - - 1 1")
    );
    let discard = game_after::<MakarenkoPosition>(Some(&fen), &["tall=discard"], &["a1a4"]);
    assert_eq!(discard.position().fen(), setup("Ka4 Ke1 kh8", "b - - 1 1"));
    assert_eq!(discard.position().disks(0), 16);
    let reserve_fen = fen.replacen(" w", "[W0B0] w", 1);
    let reserve = game_after::<MakarenkoPosition>(Some(&reserve_fen), &["tall=reserve"], &["a1a4"]);
    assert_eq!(
        reserve.position().fen(),
        setup("Ka4 Ke1 kh8", "b - - 1 1").replacen(" b", "[W2B0] b", 1)
    );
    assert_eq!(reserve.position().reserve(0), 2);
    assert_eq!(reserve.position().disks(0), 18);
}

#[test]
fn scenario_05_a_sole_king_never_splits() {
    let fen = setup("Ke1 Nd3 kh8", "w - - 0 1");
    let moves = legal(&fen);
    assert!(!has(&moves, "e1d3/4"));
    let splits: Vec<String> = from(&moves, "e1")
        .into_iter()
        .filter(|m| m.contains('/'))
        .collect();
    assert!(splits.is_empty(), "{splits:?}");
    // The whole king still moves.
    assert!(has(&moves, "e1d1") && has(&moves, "e1e2"));
}

#[test]
fn scenario_06_a_second_king_may_split() {
    let fen = setup("Ke1 Kh4 kh8", "w - - 0 1");
    let moves = legal(&fen);
    assert!(has(&moves, "h4g6/4"), "{moves:?}");
    assert_eq!(
        fen_after(&fen, &["h4g6/4"]),
        setup("Ke1 Nh4 Ng6 kh8", "b - - 1 1")
    );
    // Both kings may now split, so the e1 king may too.
    assert!(has(&moves, "e1e2/1"));
}

#[test]
fn scenario_07_after_losing_the_last_king_a_king_must_be_made() {
    let fen = setup("Ke1 Nc3 Ne4 rh1 kh8", "b - - 0 1");
    let game = game_after::<MakarenkoPosition>(Some(&fen), &[], &["h1e1"]);
    let p = game.position();
    assert_eq!(p.king_count(0), 0);
    assert_eq!(legal_texts(p), ["c3e4", "e4c3"]);
    assert_eq!(game.status().to_string(), "ongoing");
    let game = game_after::<MakarenkoPosition>(Some(&fen), &[], &["h1e1", "c3e4"]);
    assert_eq!(game.position().king_count(0), 1);
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn scenario_08_no_king_can_be_made_loses() {
    let fen = setup("Ke1 Ra1 Pa2 Pb2 re8 kh8", "b - - 0 1");
    assert_eq!(status_after(&fen, &["e8e1"]), "0-1 royal-captured");
    let p = game_after::<MakarenkoPosition>(Some(&fen), &[], &["e8e1"])
        .position()
        .clone();
    assert!(legal_texts(&p).is_empty());
    assert_eq!(perft(&p, 1), 0);
}

#[test]
fn scenario_09_a_two_disk_pawn_moves_whole_or_in_part() {
    let fen = setup("P{2}e2 Ke1 kh8", "w - - 0 1");
    assert_eq!(
        from(&legal(&fen), "e2"),
        ["e2e3", "e2e3/1", "e2e4", "e2e4/1"]
    );
    assert_eq!(
        fen_after(&fen, &["e2e3/1"]),
        setup("Pe3 Pe2 Ke1 kh8", "b - - 0 1")
    );
    assert_eq!(
        fen_after(&fen, &["e2e4"]),
        setup("P{2}e4 Ke1 kh8", "b - - 0 1")
    );
}

#[test]
fn scenario_10_a_six_disk_tower_is_a_bishop() {
    let fen = setup("B{6}c1 Ke1 kh8", "w - - 0 1");
    let moves = legal(&fen);
    assert!(has(&moves, "c1h6"));
    // Never as a rook or queen: no whole move along the rank.
    assert!(!has(&moves, "c1c2") && !has(&moves, "c1d1"));
}

#[test]
fn scenario_11_a_pawn_on_the_last_rank_is_stranded_but_can_be_built_on() {
    let fen = setup("Pa8 Ra1 Ke1 kh8", "w - - 0 1");
    let moves = legal(&fen);
    assert!(from(&moves, "a8").is_empty());
    assert!(has(&moves, "a1a8"));
    assert_eq!(
        fen_after(&fen, &["a1a8"]),
        setup("Na8 Ke1 kh8", "b - - 1 1")
    );
}

#[test]
fn scenario_12_castling_only_with_untouched_towers() {
    let fen = setup("Ke1 Rh1 Ng3 ke8", "w K - 0 1");
    assert!(has(&legal(&fen), "e1g1"));
    assert_eq!(
        fen_after(&fen, &["e1g1"]),
        setup("Kg1 Rf1 Ng3 ke8", "b - - 1 1")
    );
    // A knight merges onto h1 and splits off again: h1 holds a 3-disk rook once more, but
    // castling is gone for good.
    let game =
        game_after::<MakarenkoPosition>(Some(&fen), &[], &["g3h1", "e8d8", "h1g3/4", "d8e8"]);
    let p = game.position();
    assert_eq!(p.fen(), setup("Ke1 Rh1 Ng3 ke8", "w - - 4 3"));
    assert!(!has(&legal_texts(p), "e1g1"));
}

#[test]
fn scenario_13_check_is_only_announced() {
    let fen = setup("Ke1 Pa2 Pb2 re8 kh8", "w - - 0 1");
    let moves = legal(&fen);
    assert!(has(&moves, "e1e2"));
    let game = game_after::<MakarenkoPosition>(Some(&fen), &[], &["e1e2"]);
    let e2 = game.position().cell("e2").unwrap();
    assert!(game.position().attacked(e2, 1));
    assert!(has(&legal_texts(game.position()), "e8e2"));
    assert_eq!(status_after(&fen, &["e1e2", "e8e2"]), "0-1 royal-captured");
}

#[test]
fn scenario_14_en_passant_removes_the_whole_tower() {
    let fen = setup("Pe2 Ke1 pd4 kh8", "w - - 0 1");
    let game = game_after::<MakarenkoPosition>(Some(&fen), &[], &["e2e4"]);
    assert_eq!(
        game.position().fen(),
        setup("Pe4 Ke1 pd4 kh8", "b - e3 0 1")
    );
    assert!(has(&legal_texts(game.position()), "d4e3"));
    assert_eq!(
        fen_after(&fen, &["e2e4", "d4e3"]),
        setup("pe3 Ke1 kh8", "w - - 0 2")
    );
    // A two-disk tower that double-steps is removed whole; a part split off a black rook
    // beside it may take en passant too.
    let tall = setup("P{2}e2 Ke1 rd4 kh8", "w - - 0 1");
    let game = game_after::<MakarenkoPosition>(Some(&tall), &[], &["e2e4"]);
    let moves = legal_texts(game.position());
    assert!(has(&moves, "d4e3/1") && has(&moves, "d4e3/2"), "{moves:?}");
    assert_eq!(
        fen_after(&tall, &["e2e4", "d4e3/2"]),
        setup("p{2}e3 pd4 Ke1 kh8", "w - - 0 2")
    );
}

#[test]
fn scenario_15_a_split_attacks_for_castling() {
    let queen = "4k3/8/8/8/8/7q/5PPP/4K2R w K - 0 1";
    assert!(!has(&legal(queen), "e1g1"));
    let rook = "4k3/8/8/8/8/7r/5PPP/4K2R w K - 0 1";
    assert!(has(&legal(rook), "e1g1"));
}

#[test]
fn reserve_disks_are_placed_one_per_turn() {
    let fen = setup("Ke1 Qa4 Pc2 kh8", "w - - 0 1").replacen(" w", "[W1B0] w", 1);
    let moves = legal_with(&["tall=reserve"], &fen);
    // Every empty cell (64 - 4 towers) and every own tower of 7 disks or less (a4, c2).
    let drops: Vec<&String> = moves.iter().filter(|m| m.starts_with("D@")).collect();
    assert_eq!(drops.len(), 60 + 2, "{drops:?}");
    assert!(!has(&moves, "D@e1") && !has(&moves, "D@h8"));
    // Onto the queen: a second king. The counter is not reset.
    assert_eq!(
        fen_after_with(&["tall=reserve"], &fen, &["D@a4"]),
        setup("Ke1 Ka4 Pc2 kh8", "b - - 1 1").replacen(" b", "[W0B0] b", 1)
    );
    // Readers accept a space inside the brackets.
    let spaced = fen.replace("[W1B0]", "[W1 B0]");
    assert_eq!(position_with(&["tall=reserve"], &spaced).fen(), fen);
    // A reserve field is refused under the other options.
    assert!(MakarenkoPosition::from_fen_with(&options::<MakarenkoPosition>(&[]), &fen).is_err());
}

#[test]
fn a_kingless_player_may_rebuild_from_the_reserve() {
    let fen = setup("Ke1 Qa4 Pa2 re8 kh8", "b - - 0 1").replacen(" b", "[W1B0] b", 1);
    let game = game_after::<MakarenkoPosition>(Some(&fen), &["tall=reserve"], &["e8e1"]);
    // Placing the disk on the queen, or the queen merging onto the a2 pawn: both make 8.
    assert_eq!(legal_texts(game.position()), ["D@a4", "a4a2"]);
}

#[test]
fn fifty_moves_without_capture_or_pawn_movement() {
    let fen = setup("Ke1 Nb1 kh8 nb8", "w - - 99 60");
    assert_eq!(status_after(&fen, &["b1c3"]), "1/2-1/2 fifty-move-rule");
    let pawn = setup("Ke1 Nb1 Pa2 kh8 nb8", "w - - 99 60");
    assert_eq!(status_after(&pawn, &["a2a3"]), "ongoing");
    // A one-disk part moving as a pawn resets it too.
    let part = setup("Ke1 Nb1 Pa2 kh8 nb8", "w - - 99 60");
    assert_eq!(status_after(&part, &["b1a2/1"]), "ongoing");
    // A merge of a larger part does not.
    let merge = setup("Ke1 Rd2 Nb1 kh8 nb8", "w - - 99 60");
    assert_eq!(status_after(&merge, &["b1d2"]), "1/2-1/2 fifty-move-rule");
}

#[test]
fn no_move_is_a_loss_without_a_king_and_stalemate_with_one() {
    // A player who owns a king and has no move is stalemated. Such positions are hard to
    // build (a king captures any enemy beside it and own neighbours must be unmergeable), so
    // the rule is checked on the outcome the position reports for the empty-handed case.
    let with_king = position_with(&[], &setup("Ke1 kh8", "w - - 0 1"));
    assert_eq!(
        with_king.outcome_without_moves().to_string(),
        "1/2-1/2 stalemate"
    );
    let fen = setup("Ke1 Pa2 rh1 kh8", "b - - 0 1");
    let kingless = game_after::<MakarenkoPosition>(Some(&fen), &[], &["h1e1"]);
    assert_eq!(
        kingless.position().outcome_without_moves().to_string(),
        "0-1 royal-captured"
    );
    // The same position with White to move and Black kingless: 1-0.
    let fen = setup("Rh8 Ke1 ke8 pa7", "w - - 0 1");
    let kingless = game_after::<MakarenkoPosition>(Some(&fen), &[], &["h8e8"]);
    assert_eq!(kingless.status().to_string(), "1-0 royal-captured");
}

#[test]
fn split_notation() {
    let fen = setup("Qd4 Ke1 kh8", "w - - 0 1");
    let p = position_with(&[], &fen);
    // `/k` with k the whole height is refused; a whole move has no slash.
    assert!(p.parse_move("d4d8/7").is_err());
    assert!(p.parse_move("d4d8").is_ok());
    assert!(p.parse_move("d4f5/4").is_ok());
    for bad in ["d4f5/", "d4f5/x", "d4f5/123", "d4", "Z@e4", "d4f5/4/4", ""] {
        assert!(p.parse_move(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn fen_errors_are_typed() {
    let o = options::<MakarenkoPosition>(&[]);
    for bad in [
        // More than 47 white disks.
        "rnbqkbnr/pppppppp/8/8/8/QQQQ4/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // The player not to move has no king.
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        // Non-canonical spellings and heights above eight.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN{4} w Qkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK{9}BNR w kq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "",
    ] {
        assert!(
            MakarenkoPosition::from_fen_with(&o, bad).is_err(),
            "{bad:?}"
        );
    }
    // `K{9}` is a king under tall=king.
    let king = options::<MakarenkoPosition>(&["tall=king"]);
    let fen = "4k3/8/8/8/8/8/8/4K{9}3 w - - 0 1";
    assert_eq!(
        MakarenkoPosition::from_fen_with(&king, fen).unwrap().fen(),
        fen
    );
    // An unusable en passant target is dropped.
    let fen = "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1";
    assert_eq!(
        MakarenkoPosition::from_fen_with(&o, fen).unwrap().fen(),
        "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
    );
}
