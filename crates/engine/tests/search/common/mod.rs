//! Helpers shared by the engine's integration tests.

use chaturanga_engine::{Engine, Limits, Sampling, Score};
use chaturanga_rules::{Game, Position};

/// The move (as text), score and nodes a fresh engine chooses in `game` searching through
/// the view of the player to move, with a fixed sampling seed, as the front ends search.
/// Equal results for two positions with the same view mean nothing hidden was read.
pub fn choose_through_view<P: Position>(game: &Game<P>, nodes: u64) -> (String, Score, u64) {
    let mut engine = Engine::<P>::new(4);
    let sampling = Sampling {
        samples: 4,
        seed: 42,
    };
    let result = engine.search_hidden(game, &Limits::nodes(nodes), &sampling, &mut |_| {});
    let best = result.best.expect("a move while the game is on");
    (game.position().move_text(best), result.score, result.nodes)
}
