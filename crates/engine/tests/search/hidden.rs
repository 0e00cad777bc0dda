//! Search under hidden information (Dark Chess): the engine's move depends on the player's
//! view only, is legal, and takes what the view shows is there to take.

use crate::common;

use chaturanga_engine::{Engine, Limits, Sampling, Score};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::darkchess::DarkChessPosition;

type P = DarkChessPosition;

fn from_fen(fen: &str) -> P {
    P::from_fen_with(&RuleOptions::default(), fen).expect("test FEN")
}

/// A game of `plies` random moves from the start, or `None` if it ended before.
fn random_game(rng: &mut SplitMix64, plies: usize) -> Option<Game<P>> {
    let mut game = Game::new(from_fen(chaturanga_variants::darkchess::START_FEN));
    for _ in 0..plies {
        if !matches!(game.status(), Status::Ongoing { .. }) {
            return None;
        }
        let legal = game.legal_moves();
        let mv = legal[rng.below(legal.len() as u64) as usize];
        game.play(mv).expect("legal");
    }
    matches!(game.status(), Status::Ongoing { .. }).then_some(game)
}

/// The move (as text) and score the engine chooses in `game`, fresh engine, fixed seed.
fn choose(game: &Game<P>, nodes: u64) -> (String, Score, u64) {
    common::choose_through_view(game, nodes)
}

/// The board field of a FEN as 64 letters (`.` for empty), rank 8 first.
fn squares(fen: &str) -> Vec<char> {
    let mut out = Vec::new();
    for c in fen.split(' ').next().unwrap_or("").chars() {
        match c {
            '/' => {}
            d if d.is_ascii_digit() => {
                out.extend(std::iter::repeat_n('.', d.to_digit(10).unwrap() as usize))
            }
            _ => out.push(c),
        }
    }
    out
}

fn board_field(squares: &[char]) -> String {
    let mut out = String::new();
    for (r, row) in squares.chunks(8).enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for &c in row {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(c);
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

/// Another true position with the same view for the player to move: the opponent's unseen
/// men shuffled among the dark cells (pawns kept off the first and last ranks). `None` when
/// the shuffle changed the view (a man left a cell the view needs filled) or is no position.
fn shuffle_hidden(position: &P, rng: &mut SplitMix64) -> Option<P> {
    let player = position.side_to_move() as u8;
    let view = position.view(player);
    let g = &position.board().spec().geometry;
    let fen = position.fen();
    let mut board = squares(&fen);
    // Index in `board` of each cell: rank 8 first.
    let index = |cell| {
        let label = g.label(cell);
        let file = label.as_bytes()[0] - b'a';
        let rank = label[1..].parse::<usize>().ok()?;
        Some((8 - rank) * 8 + file as usize)
    };
    let dark: Vec<usize> = g
        .cells()
        .filter(|&c| !view.visible.contains(c))
        .filter_map(index)
        .collect();
    let mut men: Vec<char> = dark
        .iter()
        .map(|&i| board[i])
        .filter(|&c| c != '.')
        .collect();
    for &i in &dark {
        board[i] = '.';
    }
    for i in (1..men.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        men.swap(i, j);
    }
    for man in men {
        let free: Vec<usize> = dark
            .iter()
            .copied()
            .filter(|&i| board[i] == '.')
            .filter(|&i| !man.eq_ignore_ascii_case(&'p') || (8..56).contains(&i))
            .collect();
        if free.is_empty() {
            return None;
        }
        board[free[rng.below(free.len() as u64) as usize]] = man;
    }
    let rest: Vec<&str> = fen.split(' ').skip(1).collect();
    let other = P::from_fen_with(
        &RuleOptions::default(),
        &format!("{} {}", board_field(&board), rest.join(" ")),
    )
    .ok()?;
    (other.player_view(player as usize) == position.player_view(player as usize)).then_some(other)
}

#[test]
fn the_move_depends_on_the_view_only() {
    // Pairs of true positions with one view for the player to move (the second made by
    // moving the opponent's unseen men about): the engine, with a fixed seed, must choose the
    // same move with the same score after the same work. Were anything hidden read, the
    // different hidden men would show in the search.
    let mut rng = SplitMix64::new(7);
    let mut pairs = 0;
    let mut differing = 0;
    for round in 0..60 {
        let plies = 4 + (round % 10) * 3;
        let Some(game) = random_game(&mut rng, plies) else {
            continue;
        };
        // Rebuilt from its FEN so that both positions carry the same history (none).
        let a = from_fen(&game.position().fen());
        // A shuffle that moves a man off a cell the view needs filled changes the view.
        let Some(b) = (0..8).find_map(|_| shuffle_hidden(&a, &mut rng)) else {
            continue;
        };
        pairs += 1;
        if a.fen() != b.fen() {
            differing += 1;
        }
        let choice_a = choose(&Game::new(a.clone()), 3_000);
        let choice_b = choose(&Game::new(b.clone()), 3_000);
        assert_eq!(
            choice_a,
            choice_b,
            "same view, different choices:\n{}\n{}",
            a.fen(),
            b.fen()
        );
    }
    assert!(pairs >= 15, "only {pairs} pairs");
    assert!(differing >= 10, "only {differing} pairs really differ");
}

#[test]
fn views_of_played_games_are_always_sampled_and_moves_are_legal() {
    // Views from random games (captures, promotions, castling, en passant among them):
    // every draw fits the view exactly, and the engine's move is legal in the true game.
    let mut rng = SplitMix64::new(11);
    let mut searched = 0;
    for round in 0..60 {
        let Some(game) = random_game(&mut rng, 2 + round * 3) else {
            continue;
        };
        let position = game.position();
        let player = position.side_to_move();
        let view = position.player_view(player).expect("a view");
        let mut draws = SplitMix64::new(round as u64);
        for _ in 0..5 {
            let drawn = P::determinize(&view, &mut draws)
                .unwrap_or_else(|e| panic!("{e} for view\n{view}\nof {}", position.fen()));
            assert_eq!(
                drawn.view_fen(player as u8),
                position.view_fen(player as u8),
                "{}",
                position.fen()
            );
            let mut mine = Vec::new();
            drawn.legal_moves(&mut mine);
            let mut true_moves = Vec::new();
            position.legal_moves(&mut true_moves);
            assert_eq!(mine.len(), true_moves.len(), "{}", position.fen());
        }
        if round % 3 == 0 {
            let mut engine = Engine::<P>::new(4);
            let result = engine.search_hidden(
                &game,
                &Limits::nodes(2_000),
                &Sampling::default(),
                &mut |_| {},
            );
            let best = result.best.expect("a move");
            assert!(game.legal_moves().contains(&best), "{}", position.fen());
            searched += 1;
        }
    }
    assert!(searched >= 10);
}

#[test]
fn takes_a_king_it_sees() {
    // The rook sees up the e-file to the black king.
    let game = Game::new(from_fen("4k3/pppp1ppp/8/8/8/8/8/4RK2 w - - 0 1"));
    let (mv, score, _) = choose(&game, 4_000);
    assert_eq!(mv, "e1e8");
    assert_eq!(score, Score::Win { plies: 1 });
}

#[test]
fn wins_material_it_sees() {
    // The knight sees the black queen on d4; what else Black has is unseen.
    let game = Game::new(from_fen("r3k2r/pppppppp/8/8/3q4/8/4N3/4K3 w kq - 0 1"));
    let (mv, _, _) = choose(&game, 20_000);
    assert_eq!(mv, "e2d4");
}

#[test]
fn searching_a_view_of_a_ruleset_without_hidden_information_is_an_error() {
    use chaturanga_variants::chess::ChessPosition;
    let mut engine = Engine::<ChessPosition>::new(4);
    let result = engine.search_view(
        "whatever",
        &Limits::nodes(100),
        &Sampling::default(),
        &mut |_| {},
    );
    assert!(result.is_err());
    // And malformed views of Dark Chess are errors, not panics.
    let mut engine = Engine::<P>::new(4);
    for view in [
        "",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1\nenemy-men k",
        "9/8/8/8/8/8/8/8 w - - 0 1\nenemy-men k",
        "********/********/********/********/********/********/********/4K3 w - - 0 1\nenemy-men kqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
        "xyz w - - 0 1\nenemy-men k",
        "8/8/8/8/8/8/8/4K3 w - - 99999999999999999 1\nenemy-men k",
    ] {
        let result =
            engine.search_view(view, &Limits::nodes(100), &Sampling::default(), &mut |_| {});
        assert!(result.is_err(), "{view:?}");
    }
    // A bare king against a hidden king: fits.
    let view =
        "********/********/********/********/********/********/********/4K3 w - - 0 1\nenemy-men k";
    let result = engine.search_view(view, &Limits::nodes(500), &Sampling::default(), &mut |_| {});
    assert!(
        result.is_err(),
        "e1's neighbours must be seen: the view is inconsistent"
    );
}

#[test]
fn beats_a_random_mover_through_its_view() {
    // As `every_ruleset.rs` asks of every ruleset (2,000 nodes per move, each side in turn),
    // but searching only what the engine's player sees.
    let mut rng = SplitMix64::new(0xC0FFEE);
    let mut engine = Engine::<P>::new(4);
    let mut lost = Vec::new();
    for g in 0..20 {
        let mut game = Game::new(from_fen(chaturanga_variants::darkchess::START_FEN));
        let seat = g % 2;
        engine.new_game();
        while matches!(game.status(), Status::Ongoing { .. }) && game.moves().len() < 1_000 {
            let mv = if game.position().side_to_move() == seat {
                engine
                    .search_hidden(
                        &game,
                        &Limits::nodes(2_000),
                        &Sampling::default(),
                        &mut |_| {},
                    )
                    .best
                    .expect("a move")
            } else {
                let legal = game.legal_moves();
                legal[rng.below(legal.len() as u64) as usize]
            };
            game.play(mv).expect("legal");
        }
        let won = matches!(game.status(), Status::Over(o) if o.quarters[seat] == 4);
        if !won {
            lost.push(format!(
                "game {g}: {} after {} plies",
                game.status(),
                game.moves().len()
            ));
        }
    }
    assert!(lost.is_empty(), "not won: {lost:?}");
}

/// The engine through its view against the engine that sees the true position (which the
/// rules forbid; a yardstick only): `docs/performance.md`. `MATCH_GAMES` (20), `MATCH_NODES`
/// (8,000).
#[test]
#[ignore = "a measurement; run with --ignored --nocapture"]
fn match_view_against_true_position() {
    let games = std::env::var("MATCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20u64);
    let nodes = std::env::var("MATCH_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8_000u64);
    let mut points = [0u32; 2];
    let mut rng = SplitMix64::new(99);
    for g in 0..games {
        let mut game = Game::new(from_fen(chaturanga_variants::darkchess::START_FEN));
        // Two random plies so that the games differ.
        for _ in 0..2 {
            let legal = game.legal_moves();
            game.play(legal[rng.below(legal.len() as u64) as usize])
                .expect("legal");
        }
        let fair_seat = (g % 2) as usize;
        let mut fair = Engine::<P>::new(16);
        let mut seeing = Engine::<P>::new(16);
        while matches!(game.status(), Status::Ongoing { .. }) && game.moves().len() < 400 {
            let limits = Limits::nodes(nodes);
            let result = if game.position().side_to_move() == fair_seat {
                fair.search_hidden(&game, &limits, &Sampling::default(), &mut |_| {})
            } else {
                seeing.search(&game, &limits, &mut |_| {})
            };
            game.play(result.best.expect("a move")).expect("legal");
        }
        let quarters = match game.status() {
            Status::Over(o) => o.quarters,
            Status::Ongoing { .. } => vec![2, 2],
        };
        points[0] += u32::from(quarters[fair_seat]);
        points[1] += u32::from(quarters[1 - fair_seat]);
        println!(
            "game {g}: view-only engine as {} scores {}/4 after {} plies",
            if fair_seat == 0 { "white" } else { "black" },
            quarters[fair_seat],
            game.moves().len()
        );
    }
    println!(
        "view-only engine {:.1}, true-position engine {:.1} of {games}",
        f64::from(points[0]) / 4.0,
        f64::from(points[1]) / 4.0
    );
}

/// Sample counts against each other, both through their views, 8,000 nodes per move, 40
/// games per pairing (two random plies each, colours alternating): `docs/performance.md`.
#[test]
#[ignore = "a measurement; run with --ignored --nocapture"]
fn match_sample_counts() {
    for (a, b) in [(8usize, 1usize), (8, 32), (8, 3)] {
        let mut points = [0u32; 2];
        let mut rng = SplitMix64::new(99);
        let games = 40;
        for g in 0..games {
            let mut game = Game::new(from_fen(chaturanga_variants::darkchess::START_FEN));
            for _ in 0..2 {
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len() as u64) as usize])
                    .expect("legal");
            }
            let seat_a = g % 2;
            let mut engine_a = Engine::<P>::new(16);
            let mut engine_b = Engine::<P>::new(16);
            while matches!(game.status(), Status::Ongoing { .. }) && game.moves().len() < 400 {
                let limits = Limits::nodes(8_000);
                let result = if game.position().side_to_move() == seat_a {
                    let sampling = Sampling {
                        samples: a,
                        seed: g as u64,
                    };
                    engine_a.search_hidden(&game, &limits, &sampling, &mut |_| {})
                } else {
                    let sampling = Sampling {
                        samples: b,
                        seed: g as u64 + 1_000,
                    };
                    engine_b.search_hidden(&game, &limits, &sampling, &mut |_| {})
                };
                game.play(result.best.expect("a move")).expect("legal");
            }
            let quarters = match game.status() {
                Status::Over(o) => o.quarters,
                Status::Ongoing { .. } => vec![2, 2],
            };
            points[0] += u32::from(quarters[seat_a]);
            points[1] += u32::from(quarters[1 - seat_a]);
        }
        println!(
            "{a} samples {:.1} - {b} samples {:.1} of {games}",
            f64::from(points[0]) / 4.0,
            f64::from(points[1]) / 4.0
        );
    }
}
