//! Properties of the shared evaluation that rulesets rely on, asserted through positions
//! rather than numbers: what the evaluation prefers, not by how much.

mod common;

use chaturanga_rules::Position;
use chaturanga_variants::shogi::ShogiPosition;
use common::position;

/// In a drop game material never leaves the game: with every man in hand the king must still
/// prefer its home rank to the centre, where drops reach it from every side. (An evaluation
/// that measured the phase from the board alone would call this an endgame and centralise.)
#[test]
fn shogi_king_stays_home_when_the_men_are_in_hand() {
    let hands = "RB2G2S2N2L9Prb2g2s2n2l9p";
    let home = position::<ShogiPosition>(&format!("4k4/9/9/9/9/9/9/9/4K4 b {hands} 1"));
    let centre = position::<ShogiPosition>(&format!("4k4/9/9/9/4K4/9/9/9/9 b {hands} 1"));
    assert!(
        home.evaluate(0) > centre.evaluate(0),
        "home {} centre {}",
        home.evaluate(0),
        centre.evaluate(0)
    );
}
