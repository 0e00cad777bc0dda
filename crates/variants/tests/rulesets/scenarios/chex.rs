//! Every scenario of `docs/rules/chex.md`, in its order, as a named test, followed by tests
//! of rules the text states without a numbered scenario (live draws, draw rules, FEN).

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset, SeedValue, perft};
use chaturanga_variants::chex::{ChexAction, ChexMove, ChexPosition, START_FEN};
use common::{game_after, legal_texts, options};

fn position(fen: &str) -> ChexPosition {
    game_after::<ChexPosition>(Some(fen), &[], &[])
        .position()
        .clone()
}

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position(fen))
}

fn moves(p: &ChexPosition) -> Vec<ChexMove> {
    let mut out = Vec::new();
    p.legal_moves(&mut out);
    out
}

/// The legal board move between two absolute cells.
fn board_move(p: &ChexPosition, from: (i32, i32), to: (i32, i32)) -> Option<ChexMove> {
    moves(p)
        .into_iter()
        .find(|m| m.action == ChexAction::Board && m.from == from && m.to == to)
}

/// Plays the board move between two absolute cells.
fn play_abs(game: &mut Game<ChexPosition>, from: (i32, i32), to: (i32, i32)) {
    let mv = board_move(game.position(), from, to)
        .unwrap_or_else(|| panic!("{from:?}-{to:?} in {}", game.position().fen()));
    game.play(mv).unwrap();
}

#[test]
fn scenario_01_the_first_placement() {
    assert_eq!(
        legal(START_FEN),
        ["B@b2", "K@b2", "N@b2", "P@b2", "Q@b2", "R@b2"]
    );
    let start = position(START_FEN);
    assert_eq!(perft(&start, 1), 6);
    // 8 cells for each of Black's 6 letters after each white man, less the black-king
    // placements on cells the white man attacks: K 8, Q 8, R 4, B 4, N 0, P 2.
    assert_eq!(perft(&start, 2), 6 * 48 - (8 + 8 + 4 + 4 + 2));
    let game = game_after::<ChexPosition>(None, &[], &["N@b2"]);
    assert_eq!(
        game.position().fen(),
        "3/1N1/3 [KQRRBBNPPPPPPPPkqrrbbnnpppppppp] b -1,-1 0 1"
    );
    assert_eq!(game.position().man_at((0, 0)).map(|p| p.kind()), Some(4));
}

#[test]
fn scenario_02_blacks_first_turn() {
    let game = game_after::<ChexPosition>(None, &[], &["N@b2"]);
    let list = moves(game.position());
    // Only placements, on the 8 neighbours of (0, 0): 6 letters x 8 cells.
    assert_eq!(list.len(), 48);
    for m in &list {
        assert!(matches!(m.action, ChexAction::Place(_)), "{m:?}");
        assert!(
            m.to.0.abs() <= 1 && m.to.1.abs() <= 1 && m.to != (0, 0),
            "{m:?}"
        );
    }
    assert!(!list.iter().any(|m| m.to == (2, 0)));
}

#[test]
fn scenario_03_connectivity_limits_the_moves() {
    let fen = "5/1NB2/1p1p1/5 [KQRRBNPPPPPPPPkqrrbbnnpppppp] w 0,0 0 10";
    let p = position(fen);
    let board: Vec<String> = legal(fen)
        .into_iter()
        .filter(|m| !m.contains('@'))
        .collect();
    // The bishop has none; the knight only a1, c1, d4 and the capture on d2.
    assert_eq!(board, ["b3a1", "b3c1", "b3d2", "b3d4"]);
    assert_eq!(p.man_at((1, 2)).map(|m| m.kind()), Some(4));
    // With Black to move, neither pawn may move: only placements.
    let black = legal(&fen.replace(" w ", " b "));
    assert!(!black.is_empty());
    assert!(black.iter().all(|m| m.contains('@')), "{black:?}");
}

#[test]
fn scenario_04_captures_and_connectivity() {
    let linked = "5/1Rbp1/1K3/5 [QRBBNNPPPPPPPPkqrrbnnppppppp] w -1,-2 0 10";
    assert!(legal(linked).iter().any(|m| m == "b3c3"));
    let row = "6/1NRbp1/6 [KQRBBNPPPPPPPPkqrrbnnppppppp] w -2,-1 0 10";
    let p = position(row);
    assert!(!legal(row).iter().any(|m| m == "c2d2"));
    assert!(p.parse_move("c2d2").is_err());
}

#[test]
fn scenario_05_capturing_the_king_wins() {
    // White king c3 attacked by the black rook d3; the white queen c2 takes the king d2.
    let fen = "4/1Kr1/1Qk1/4 [RRBBNNPPPPPPPPqrbbnnpppppppp] w 1,0 0 10";
    let game = game_after::<ChexPosition>(Some(fen), &[], &["b2c2"]);
    assert_eq!(game.status().to_string(), "1-0 royal-captured");
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(perft(game.position(), 1), 0);
}

#[test]
fn scenario_06_an_unplaceable_king() {
    // A white queen alone attacks all 8 cells next to it: no K@ placement, no node for it.
    let fen = "3/1Q1/3 [KRRBBNNPPPPPPPPkqrrbbnnpppppppp] b -1,-1 0 1";
    let list = legal(fen);
    assert_eq!(list.len(), 5 * 8);
    assert!(!list.iter().any(|m| m.starts_with("K@")));
    // In a live game the drawn king ends the game in a draw: find a seed whose first white
    // tile is the queen and first black tile the king.
    let mut found = false;
    for seed in 0..20_000u32 {
        let mut game = Game::new(ChexPosition::live(seed));
        game.play_text("draw").unwrap();
        if game.position().drawn() != Some('Q') {
            continue;
        }
        game.play_text("Q@b2").unwrap();
        game.play_text("draw").unwrap();
        if game.position().drawn() != Some('K') {
            continue;
        }
        assert_eq!(game.status().to_string(), "1/2-1/2 no-legal-moves");
        assert!(legal_texts(game.position()).is_empty());
        found = true;
        break;
    }
    assert!(found, "no seed gives Q then K");
}

#[test]
fn scenario_07_no_legal_turn_is_a_draw() {
    // White: only its king, between two black men it would lose contact with, stack empty.
    let fen = "5/3p1/2K2/1k3/5 [qrrbbnnppppppp] w -2,-2 0 30";
    let game = game_after::<ChexPosition>(Some(fen), &[], &[]);
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1/2-1/2 no-legal-moves");
}

#[test]
fn scenario_08_pawns_step_forward_only() {
    // White pawn (3, 5), white king (4, 5), black king (5, 5).
    let fen = "5/1PKk1/5 [QRRBBNNPPPPPPPqrrbbnnpppppppp] w 2,4 0 10";
    let p = position(fen);
    assert_eq!(p.man_at((3, 5)).map(|m| m.kind()), Some(5));
    let pawn: Vec<ChexMove> = moves(&p)
        .into_iter()
        .filter(|m| m.action == ChexAction::Board && m.from == (3, 5))
        .collect();
    assert_eq!(pawn.len(), 1);
    assert_eq!(pawn[0].to, (3, 6));
    // Far to the north it is still a pawn, moving on.
    let far = "5/1PKk1/5 [QRRBBNNPPPPPPPqrrbbnnpppppppp] w 2,9999 0 10";
    let mut game = game_after::<ChexPosition>(Some(far), &[], &[]);
    play_abs(&mut game, (3, 10000), (3, 10001));
    assert_eq!(
        game.position().man_at((3, 10001)).map(|m| m.kind()),
        Some(5)
    );
}

#[test]
fn scenario_09_placing_instead_of_moving() {
    let fen = "4/1Kk1/4 [QRRBBNNPPPPPPPPqrrbbnnpppppppp] w -1,-1 0 5";
    let list = legal(fen);
    assert!(list.iter().any(|m| !m.contains('@')), "board moves exist");
    let place = list.iter().find(|m| m.starts_with("Q@")).unwrap().clone();
    let game = game_after::<ChexPosition>(Some(fen), &[], &[&place]);
    assert_eq!(game.position().stack(0)[1], 0);
}

#[test]
fn scenario_10_the_frame_grows() {
    // White king (0, 0), black king (1, 0), white knight (2, 1); frame x -1..3, y -1..2.
    let fen = "5/3N1/1Kk2/5 [QRRBBNPPPPPPPPqrrbbnnpppppppp] w -1,-1 0 5";
    let p = position(fen);
    let f = p.frame().unwrap();
    assert_eq!((f.x0, f.y0, f.width, f.height), (-1, -1, 5, 4));
    // (3, 2) is e4 in the frame before the placement.
    let game = game_after::<ChexPosition>(Some(fen), &[], &["Q@e4"]);
    let p = game.position();
    assert_eq!(p.man_at((3, 2)).map(|m| m.kind()), Some(1));
    let f = p.frame().unwrap();
    assert_eq!((f.x0, f.y0, f.width, f.height), (-1, -1, 6, 5));
    assert_eq!(
        p.fen(),
        "6/4Q1/3N2/1Kk3/6 [RRBBNPPPPPPPPqrrbbnnpppppppp] b -1,-1 0 5"
    );
    // Growing to the west renames every file: a black placement at (-1, 0) moves a1 to (-2, -1).
    let list = moves(p);
    let west = list
        .iter()
        .find(|m| m.action == ChexAction::Place(1) && m.to == (-1, 0))
        .copied()
        .unwrap();
    assert_eq!(p.move_text(west), "Q@a2");
    let mut game = game;
    game.play(west).unwrap();
    let f = game.position().frame().unwrap();
    assert_eq!((f.x0, f.y0, f.width, f.height), (-2, -1, 7, 5));
    assert_eq!(f.label((0, 0)), "c2");
}

#[test]
fn live_games_draw_from_a_seeded_stack() {
    let a = ChexPosition::live(7);
    let b = ChexPosition::live(7);
    assert_eq!(a.draw_seed(), Some(SeedValue::Number(7)));
    let mut ga = Game::new(a);
    let mut gb = Game::new(b);
    for _ in 0..6 {
        for g in [&mut ga, &mut gb] {
            g.play_text("draw").unwrap();
            // After the draw only that man may be placed, by the same player.
            let drawn = g.position().drawn().unwrap();
            let list = legal_texts(g.position());
            assert!(
                list.iter().all(|m| m.starts_with(&format!("{drawn}@"))),
                "{list:?}"
            );
            let first = list[0].clone();
            g.play_text(&first).unwrap();
        }
        assert_eq!(ga.position().fen(), gb.position().fen());
    }
    // The FEN shows the stacks as a multiset only.
    assert!(ga.position().fen().contains('['));
}

#[test]
fn repetition_and_fifty_moves() {
    let fen = "4/1Kk1/4 [QRRBBNNPPPPPPPPqrrbbnnpppppppp] w -1,-1 0 5";
    let mut game = game_after::<ChexPosition>(Some(fen), &[], &[]);
    for _ in 0..2 {
        play_abs(&mut game, (0, 0), (0, 1));
        play_abs(&mut game, (1, 0), (1, 1));
        play_abs(&mut game, (0, 1), (0, 0));
        play_abs(&mut game, (1, 1), (1, 0));
    }
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    let quiet = "4/1Kk1/4 [QRRBBNNPPPPPPPPqrrbbnnpppppppp] w -1,-1 99 60";
    let mut game = game_after::<ChexPosition>(Some(quiet), &[], &[]);
    play_abs(&mut game, (0, 0), (0, 1));
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
    // A placement is progress.
    let game = game_after::<ChexPosition>(Some(quiet), &[], &["Q@a1"]);
    assert_eq!(game.status().to_string(), "ongoing");
}

#[test]
fn fen_reading() {
    let o = options::<ChexPosition>(&[]);
    // Any frame that holds the men is read; the writer gives the minimal one.
    let wide = "6/6/2N3/6 [KQRRBBNPPPPPPPPkqrrbbnnpppppppp] b -3,-2 0 1";
    assert_eq!(
        ChexPosition::from_fen_with(&o, wide).unwrap().fen(),
        "3/1N1/3 [KQRRBBNPPPPPPPPkqrrbbnnpppppppp] b -2,-2 0 1"
    );
    for bad in [
        "",
        "-",
        "- [KK] w - 0 1",
        "3/1N1/3 [KQ] w - 0 1",
        "- [K] w 0,0 0 1",
        "3/1N1/4 [K] w 0,0 0 1",
        "5/1N1N1/5 [K] w 0,0 0 1",
        "3/1X1/3 [K] w 0,0 0 1",
        "3/1N1/3 [K] x 0,0 0 1",
        "3/1N1/3 [K] w 0,9999999 0 1",
        "3/1N1/3 [K] w 0,0 0 1 extra",
        "999/1N1/3 [K] w 0,0 0 1",
    ] {
        assert!(ChexPosition::from_fen_with(&o, bad).is_err(), "{bad:?}");
    }
    assert!(ChexPosition::from_fen_with(&o, &"1/".repeat(2000)).is_err());
}

/// The men `player` has still to draw, sorted (the order forgotten).
fn undrawn_men(position: &ChexPosition, player: u8) -> Vec<char> {
    let mut men: Vec<char> = position
        .undrawn(player)
        .expect("a live game")
        .chars()
        .collect();
    men.sort_unstable();
    men
}

#[test]
fn a_live_view_is_public_and_hides_only_the_order() {
    // Without a draw order nothing is hidden.
    assert_eq!(position(START_FEN).player_view(0), None);
    let mut game = Game::new(ChexPosition::live(5));
    let view = game
        .position()
        .player_view(0)
        .expect("a live game has a view");
    assert_eq!(view, format!("{START_FEN}\ndrawn -"));
    game.play_text("draw").unwrap();
    let drawn = game.position().drawn().unwrap();
    // The drawn man is face up: both players see him; the FEN alone does not show him.
    let view = game.position().player_view(0).unwrap();
    assert_eq!(view, format!("{START_FEN}\ndrawn {drawn}"));
    assert_eq!(game.position().player_view(1), Some(view));
    assert_eq!(game.position().player_view(2), None);
}

#[test]
fn positions_drawn_from_a_view_keep_everything_but_the_order() {
    use chaturanga_rules::zobrist::SplitMix64;
    let mut rng = SplitMix64::new(3);
    let mut compared = 0;
    let mut reordered = 0;
    for seed in 1..25u32 {
        let mut game = Game::new(ChexPosition::live(seed));
        // A random game of a few turns, stopping sometimes after a draw.
        for _ in 0..(seed % 13) * 2 + 1 {
            let list = game.legal_moves();
            if list.is_empty() {
                break;
            }
            game.play(list[rng.below(list.len() as u64) as usize])
                .unwrap();
        }
        let truth = game.position();
        let view = truth.player_view(truth.side_to_move()).unwrap();
        for draw in 0..4u64 {
            let sample = ChexPosition::determinize(&view, &mut SplitMix64::new(draw))
                .unwrap_or_else(|e| panic!("{e}: {view}"));
            assert_eq!(
                sample.player_view(truth.side_to_move()).as_ref(),
                Some(&view)
            );
            assert_eq!(sample.fen(), truth.fen());
            assert_eq!(sample.drawn(), truth.drawn());
            assert_eq!(sample.hash(), truth.hash());
            assert_eq!(legal_texts(&sample), legal_texts(truth));
            for player in 0..2 {
                if sample.undrawn(player) != truth.undrawn(player) {
                    reordered += 1;
                }
                assert_eq!(
                    undrawn_men(&sample, player),
                    undrawn_men(truth, player),
                    "the same men are left, {view}"
                );
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 96);
    assert!(reordered > 100, "only {reordered} orders differ");
}

#[test]
fn bad_views_are_errors() {
    use chaturanga_rules::ViewError;
    use chaturanga_rules::zobrist::SplitMix64;
    let start = format!("{START_FEN}\ndrawn -");
    assert!(ChexPosition::determinize(&start, &mut SplitMix64::new(1)).is_ok());
    for bad in [
        String::new(),
        START_FEN.to_string(),
        format!("{START_FEN}\ndrawn"),
        format!("{START_FEN}\ndrawn X"),
        format!("{START_FEN}\ndrawn KQ"),
        format!("{START_FEN}\ndrawn k"),
        format!("{START_FEN}\ndrawn -\nmore"),
        "3/1X1/3 [K] w 0,0 0 1\ndrawn -".to_string(),
        format!("{}\ndrawn -", "1/".repeat(3000)),
    ] {
        assert!(
            matches!(
                ChexPosition::determinize(&bad, &mut SplitMix64::new(1)),
                Err(ViewError::Malformed(_))
            ),
            "{bad:?}"
        );
    }
    // A drawn man the stack does not hold fits no position.
    let no_queen = "3/1Q1/3 [KRRBBNNPPPPPPPPkqrrbbnnpppppppp] w -1,-1 0 2\ndrawn Q";
    assert!(matches!(
        ChexPosition::determinize(no_queen, &mut SplitMix64::new(1)),
        Err(ViewError::NoFit(_))
    ));
}

#[test]
fn the_draw_seed_option_starts_a_live_game() {
    let seeded = options::<ChexPosition>(&["draw-seed=7"]);
    let mut a = Game::new(ChexPosition::start_position(&seeded).unwrap());
    let mut b = Game::new(ChexPosition::live(7));
    assert_eq!(a.position().draw_seed(), Some(SeedValue::Number(7)));
    for _ in 0..4 {
        for g in [&mut a, &mut b] {
            g.play_text("draw").unwrap();
            let first = legal_texts(g.position())[0].clone();
            g.play_text(&first).unwrap();
        }
        assert_eq!(a.position().fen(), b.position().fen());
    }
    // From a FEN the men its stacks hold are shuffled.
    let fen = "4/1Kk1/4 [QRRBBNNPPPPPPPPqrrbbnnpppppppp] w -1,-1 0 5";
    let live = ChexPosition::from_fen_with(&seeded, fen).unwrap();
    assert!(legal_texts(&live).contains(&"draw".to_string()));
    assert!(!legal_texts(&live).iter().any(|m| m.contains('@')));
    let mut white: Vec<char> = "QRRBBNNPPPPPPPP".chars().collect();
    white.sort_unstable();
    assert_eq!(undrawn_men(&live, 0), white);
    assert_eq!(live.undrawn(1).unwrap().len(), 15);
    // The default keeps the FEN's rule: a placement names its man.
    let plain = ChexPosition::start_position(&options::<ChexPosition>(&[])).unwrap();
    assert_eq!(plain.draw_seed(), None);
    assert_eq!(legal_texts(&plain).len(), 6);
    assert!(ChexPosition::option_specs()[0].values.accepts("4294967295"));
}

/// SplitMix64 as published (Steele, Lea and Flood 2014; Vigna's `splitmix64.c`), written out
/// again here so that the pins below do not lean on the code they check.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ChaCha20 block function of RFC 8439 (section 2.3), written out again for the same
/// reason: the sixteen words of block `counter` under `key` with a zero nonce.
fn chacha20_block(key: &[u8; 32], counter: u32) -> [u32; 16] {
    let mut start = [0u32; 16];
    start[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for (word, bytes) in start[4..12].iter_mut().zip(key.chunks(4)) {
        *word = u32::from_le_bytes(bytes.try_into().unwrap());
    }
    start[12] = counter;
    let mut x = start;
    let mut quarter = |a: usize, b: usize, c: usize, d: usize| {
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(16);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(12);
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(8);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(7);
    };
    for _ in 0..10 {
        quarter(0, 4, 8, 12);
        quarter(1, 5, 9, 13);
        quarter(2, 6, 10, 14);
        quarter(3, 7, 11, 15);
        quarter(0, 5, 10, 15);
        quarter(1, 6, 11, 12);
        quarter(2, 7, 8, 13);
        quarter(3, 4, 9, 14);
    }
    std::array::from_fn(|i| x[i].wrapping_add(start[i]))
}

/// The 64-bit numbers of ChaCha20's key stream under `key`: two words each, the first low.
fn chacha20_numbers(key: [u8; 32]) -> impl FnMut() -> u64 {
    let mut words = (0u32..).flat_map(move |block| chacha20_block(&key, block));
    move || {
        let lo = u64::from(words.next().unwrap());
        lo | u64::from(words.next().unwrap()) << 32
    }
}

/// Both stacks' draw orders as `docs/rules/chex.md` (decision 14) describes them: each side's
/// sixteen men laid out K Q R R B B N N P P P P P P P P, then, for i from 15 down to 1, the man
/// at i swapped with the man at j = `below(i + 1)`; White's stack first, then Black's, from
/// one generator; the man at 0 is drawn first.
fn documented_orders(mut below: impl FnMut(u64) -> u64) -> [String; 2] {
    std::array::from_fn(|_| {
        let mut men: Vec<char> = "KQRRBBNNPPPPPPPP".chars().collect();
        for i in (1..men.len()).rev() {
            men.swap(i, below(i as u64 + 1) as usize);
        }
        men.into_iter().collect()
    })
}

/// The orders of a number seed: j is the top half of x(i + 1), x SplitMix64's next number
/// from the seed.
fn number_orders(seed: u32) -> [String; 2] {
    let mut state = u64::from(seed);
    documented_orders(|n| ((u128::from(splitmix64(&mut state)) * u128::from(n)) >> 64) as u64)
}

/// The orders of a key: j is the top half of x(i + 1), x ChaCha20's next number under the key
/// (nonce 0, block counter from 0), drawn again while the low half is below 2^64 mod (i + 1).
fn key_orders(key: [u8; 32]) -> [String; 2] {
    let mut next = chacha20_numbers(key);
    documented_orders(|n| {
        loop {
            let product = u128::from(next()) * u128::from(n);
            if (product as u64) >= n.wrapping_neg() % n {
                break (product >> 64) as u64;
            }
        }
    })
}

/// The stacks' orders are `orders`, and the draws of a game from `position` follow them.
fn assert_draws(position: ChexPosition, orders: &[String; 2], context: &str) {
    let undrawn = [0, 1].map(|p| position.undrawn(p).unwrap());
    assert_eq!(&undrawn, orders, "{context}");
    let mut game = Game::new(position);
    for turn in 0..12 {
        game.play_text("draw").unwrap();
        let expected = orders[turn % 2].chars().nth(turn / 2);
        assert_eq!(game.position().drawn(), expected, "{context}: turn {turn}");
        let first = legal_texts(game.position())[0].clone();
        game.play_text(&first).unwrap();
    }
}

#[test]
fn a_number_seed_draws_as_it_always_has() {
    // The generator and the shuffle are what the module has used since live games came:
    // stored games of every number must replay their draws.
    for seed in [1, 7, 11, 12_345, u32::MAX] {
        let orders = number_orders(seed);
        let context = format!("draw-seed={seed}");
        let option = ChexPosition::start_position(&options::<ChexPosition>(&[&context])).unwrap();
        assert_eq!(option.draw_seed(), Some(SeedValue::Number(seed)));
        assert_draws(option, &orders, &context);
        assert_draws(ChexPosition::live(seed), &orders, &context);
    }
    // The orders the code printed for seed 7 before keys came (commit c3d7153, `undrawn` of
    // `ChexPosition::live(7)`), which the computation above must give too.
    assert_eq!(
        number_orders(7),
        ["PPPRPPPQPBRBNPKN", "PPRPKBNPRQNPPBPP"].map(String::from)
    );
}

#[test]
fn a_key_draws_from_chacha20() {
    // The generator is ChaCha20 itself: RFC 8439's test vector 1 of appendix A.1 (key and
    // nonce zero, block 0).
    let block: Vec<u8> = chacha20_block(&[0; 32], 0)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let expected = "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
                    da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586";
    let hex: String = block.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, expected);

    let counting: [u8; 32] = std::array::from_fn(|i| i as u8);
    let mut one_bit = counting;
    one_bit[31] ^= 0x80;
    let keys = [[0; 32], counting, one_bit, [0xff; 32]];
    let mut seen = Vec::new();
    for key in keys {
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        let orders = key_orders(key);
        let context = format!("draw-seed={hex}");
        let option = ChexPosition::start_position(&options::<ChexPosition>(&[&context])).unwrap();
        assert_eq!(option.draw_seed(), Some(SeedValue::Key(key)));
        assert_draws(option, &orders, &context);
        // The same key, again and in capitals, gives the same draws.
        let upper = format!("draw-seed={}", hex.to_uppercase());
        let again = ChexPosition::start_position(&options::<ChexPosition>(&[&upper])).unwrap();
        assert_draws(again, &orders, &upper);
        assert_draws(ChexPosition::live(key), &orders, &context);
        seen.push(orders);
    }
    // Different keys, one bit apart among them, give different orders.
    for (i, a) in seen.iter().enumerate() {
        for b in &seen[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // A key of all decimal digits is a key, not the number it spells.
    let digits = format!("{}7", "0".repeat(63));
    let p =
        ChexPosition::start_position(&options::<ChexPosition>(&[&format!("draw-seed={digits}")]))
            .unwrap();
    assert!(matches!(p.draw_seed(), Some(SeedValue::Key(_))));
    assert_ne!(p.undrawn(0), ChexPosition::live(7).undrawn(0));
}

#[test]
fn a_drawn_man_is_part_of_the_hash() {
    let mut game = Game::new(ChexPosition::live(11));
    let before = game.position().hash();
    game.play_text("draw").unwrap();
    assert_ne!(game.position().hash(), before);
    let first = legal_texts(game.position())[0].clone();
    game.play_text(&first).unwrap();
    // After the placement the hash is the one of the same position read from its FEN.
    assert_eq!(
        game.position().hash(),
        position(&game.position().fen()).hash()
    );
}
