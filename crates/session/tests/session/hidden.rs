//! A session searches hidden-information games through the player's view, as `play` and
//! `search` do: live Chex games, whose draw order is hidden from both players.

use chaturanga_engine::Limits;
use chaturanga_session::{Decision, GameSession, open};
use chaturanga_variants::chex::ChexPosition;

/// A live Chex session with `seed` after `moves`.
fn chex(seed: u32, moves: &[&str]) -> Box<dyn GameSession> {
    let mut session = open("chex", 1).expect("chex");
    session
        .set_rule_options(&[format!("draw-seed={seed}")])
        .expect("the option");
    session.reset(None).expect("the start");
    for mv in moves {
        session.play(mv).expect("a legal move");
    }
    session
}

fn decide(session: &mut dyn GameSession) -> Decision {
    session.search(&Limits::nodes(3_000), &mut |_| {})
}

#[test]
fn a_live_chex_game_is_searched_through_the_view() {
    // Two seeds that deal White the same first man and then differ: the same view after
    // his draw, so the same decision, whatever the true order.
    let top = |seed| ChexPosition::live(seed).undrawn(0).unwrap();
    let (a, b) = (1..)
        .flat_map(|a| (a + 1..a + 50).map(move |b| (a, b)))
        .find(|&(a, b)| top(a)[..1] == top(b)[..1] && top(a) != top(b))
        .expect("two seeds");
    let mut first = chex(a, &["draw"]);
    let mut second = chex(b, &["draw"]);
    assert_eq!(first.fen(), second.fen());
    let (x, y) = (decide(first.as_mut()), decide(second.as_mut()));
    assert_eq!(
        (&x.best, x.score, x.nodes, x.depth),
        (&y.best, y.score, y.nodes, y.depth)
    );
    // The move is the drawn man's placement, legal in the true game.
    let best = x.best.expect("a move");
    assert!(first.legal_moves().contains(&best), "{best}");
    assert!(best.starts_with(&top(a)[..1]), "{best}");
    assert_eq!(
        x.ponder, None,
        "no line beyond the move under hidden information"
    );
}

#[test]
fn without_a_draw_seed_chex_hides_nothing() {
    // The FEN rule: a placement names its man, and the search sees the whole position.
    let mut session = open("chex", 1).expect("chex");
    let decision = decide(session.as_mut());
    let best = decision.best.expect("a move");
    assert!(best.ends_with("@b2"), "{best}");
}
