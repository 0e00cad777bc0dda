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

/// The quiescence search leaves out captures that lose material: a rook taking a pawn a gold
/// defends does, the same rook taking an undefended pawn does not, nor does a pawn taking a
/// defended rook.
#[test]
fn chu_exchange_test_sees_defenders() {
    use chaturanga_variants::chushogi::ChuShogiPosition;
    let pos = position::<ChuShogiPosition>("k11/12/12/12/5g6/p4p6/12/R4R6/12/12/12/11K b - 1");
    let defended = pos.parse_move("7h7f").unwrap();
    let undefended = pos.parse_move("12h12f").unwrap();
    assert!(pos.exchange_loses(defended));
    assert!(!pos.exchange_loses(undefended));
    let reversed = position::<ChuShogiPosition>("k11/12/12/12/5g6/p4r6/5P6/12/12/12/12/11K b - 1");
    assert!(!reversed.exchange_loses(reversed.parse_move("7g7f").unwrap()));
    // A quiet move is never a losing exchange.
    assert!(!pos.exchange_loses(pos.parse_move("7h7g").unwrap()));
}
