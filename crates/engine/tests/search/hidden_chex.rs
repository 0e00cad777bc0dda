//! Search of live Chex games, whose draw order is hidden from both players: the engine's
//! move depends on the public position and the drawn man only, never on the order of the
//! tiles still to be drawn.

use crate::common;

use chaturanga_engine::{Engine, Limits, Sampling, Score};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position, Status};
use chaturanga_variants::chex::ChexPosition;

type P = ChexPosition;

/// A live game of `plies` random moves, or `None` if it ended before.
fn random_game(seed: u32, rng: &mut SplitMix64, plies: usize) -> Option<P> {
    let mut game = Game::new(P::live(seed));
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        game.play(legal[rng.below(legal.len() as u64) as usize])
            .expect("legal");
    }
    matches!(game.status(), Status::Ongoing { .. }).then(|| game.position().clone())
}

/// The move (as text), score and nodes of a fresh engine with a fixed sampling seed, as the
/// front ends search.
fn choose(position: &P, nodes: u64) -> (String, Score, u64) {
    common::choose_through_view(&Game::new(position.clone()), nodes)
}

/// The same with the ordinary search of the true position, which reads the order.
fn choose_seeing(position: &P, nodes: u64) -> (String, Score, u64) {
    let game = Game::new(position.clone());
    let mut engine = Engine::<P>::new(4);
    let result = engine.search(&game, &Limits::nodes(nodes), &mut |_| {});
    let best = result.best.expect("a move while the game is on");
    (position.move_text(best), result.score, result.nodes)
}

#[test]
fn the_move_depends_on_the_view_only() {
    // Pairs of live positions that differ only in the order of the undrawn tiles (the same
    // board, stacks and drawn man, so the same view): the engine must choose the same move
    // with the same score after the same work. The ordinary search of the true positions
    // tells the pairs apart, so a search that read the order would too.
    let mut rng = SplitMix64::new(17);
    let mut pairs = 0;
    let mut told_apart = 0;
    for round in 0..40u32 {
        let plies = 1 + (round as usize % 12) * 3;
        let Some(a) = random_game(round + 1, &mut rng, plies) else {
            continue;
        };
        let b = a.clone().with_draw_order(1_000 + round);
        let mover = a.side_to_move() as u8;
        if a.undrawn(mover) == b.undrawn(mover) {
            continue;
        }
        assert_eq!(a.player_view(0), b.player_view(0));
        pairs += 1;
        let (choice_a, choice_b) = (choose(&a, 3_000), choose(&b, 3_000));
        assert_eq!(
            choice_a,
            choice_b,
            "same view, different choices:\n{}\n{:?} / {:?}",
            a.player_view(0).unwrap_or_default(),
            a.undrawn(mover),
            b.undrawn(mover)
        );
        if choose_seeing(&a, 3_000) != choose_seeing(&b, 3_000) {
            told_apart += 1;
        }
    }
    assert!(pairs >= 25, "only {pairs} pairs");
    assert!(
        told_apart >= pairs / 2,
        "the true order changes the ordinary search in only {told_apart} of {pairs} pairs"
    );
}

#[test]
fn every_move_is_legal_in_the_true_game() {
    let mut rng = SplitMix64::new(23);
    let mut searched = 0;
    for round in 0..20u32 {
        let Some(position) = random_game(round + 50, &mut rng, 2 + round as usize * 4) else {
            continue;
        };
        let game = Game::new(position);
        let mut engine = Engine::<P>::new(4);
        let result = engine.search_hidden(
            &game,
            &Limits::nodes(2_000),
            &Sampling::default(),
            &mut |_| {},
        );
        let best = result.best.expect("a move");
        assert!(game.legal_moves().contains(&best));
        assert_eq!(result.pv, vec![best], "the line is the move alone");
        searched += 1;
    }
    assert!(searched >= 10);
}
