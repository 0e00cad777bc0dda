//! Static exchange evaluation on the standard position: batteries, the royal piece's
//! restriction, a cannon's screen, pieces going to hand. Expected values are written in the
//! ruleset's own piece values, so the tests check the exchange, not the numbers.

use crate::common::position;
use chaturanga_rules::Position;
use chaturanga_rules::standard::{Rules, StandardPosition};
use chaturanga_variants::chess::ChessPosition;
use chaturanga_variants::shogi::ShogiPosition;
use chaturanga_variants::xiangqi::XiangqiPosition;

/// The exchange value of `mv` in `fen`.
fn exchange<P: Position + chaturanga_rules::Ruleset>(fen: &str, mv: &str) -> i32 {
    let pos = position::<P>(fen);
    let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    pos.static_exchange(m)
}

/// The evaluation value of the piece `symbol` (upper case) in a standard ruleset.
fn value<const W: usize, const K: usize, R: Rules<W, K>>(
    pos: &StandardPosition<W, K, R>,
    symbol: &str,
) -> i32 {
    let spec = pos.spec();
    let kind = spec
        .pieces
        .iter()
        .position(|p| p.symbol == symbol)
        .unwrap_or_else(|| panic!("no piece {symbol}"));
    spec.eval.values[kind]
}

#[test]
fn chess_exchanges_follow_batteries_and_the_kings_restriction() {
    let start: ChessPosition = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let (p, n, r) = (value(&start, "P"), value(&start, "N"), value(&start, "R"));
    // An undefended pawn.
    assert_eq!(
        exchange::<ChessPosition>("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        p
    );
    // Defended by a rook: the rook is lost for a pawn.
    assert_eq!(
        exchange::<ChessPosition>("3rk3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        p - r
    );
    // A queen behind the rook recaptures: a pawn up.
    assert_eq!(
        exchange::<ChessPosition>("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"),
        p
    );
    // The king takes back when nothing else can; not when a rook stands behind.
    assert_eq!(
        exchange::<ChessPosition>("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        p - r
    );
    assert_eq!(
        exchange::<ChessPosition>("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
        p
    );
    // A knight takes a pawn defended by a pawn: it stops after the recapture.
    assert_eq!(
        exchange::<ChessPosition>("4k3/2p5/3p4/8/4N3/8/8/4K3 w - - 0 1", "e4d6"),
        p - n
    );
    // A quiet move onto a cell a pawn attacks loses the piece; onto a safe one, nothing.
    assert_eq!(
        exchange::<ChessPosition>("4k3/8/2p5/8/8/8/8/3NK3 w - - 0 1", "d1b2"),
        0
    );
    assert_eq!(
        exchange::<ChessPosition>("4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1", "e3d5"),
        -n
    );
    // En passant: the pawn taken is not on the destination.
    assert_eq!(
        exchange::<ChessPosition>("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
        p
    );
}

#[test]
fn xiangqi_cannon_needs_its_screen() {
    let start: XiangqiPosition = position("5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    let (p, r) = (value(&start, "P"), value(&start, "R"));
    // The cannon on e8 defends e5 over the horse on e7.
    assert_eq!(
        exchange::<XiangqiPosition>("5k3/4c4/4n4/9/4p4/9/9/9/4R4/4K4 w - - 0 1", "e2e6"),
        p - r
    );
    // The red general on the open file does not recapture: facing the enemy general along a
    // file is a rule about check, not a move it makes.
    // Without the horse the cannon does not defend.
    assert_eq!(
        exchange::<XiangqiPosition>("5k3/4c4/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1", "e2e6"),
        p
    );
}

#[test]
fn shogi_captures_count_the_piece_gained_in_hand() {
    let pos: ShogiPosition = position("4k4/9/9/9/4p4/9/9/4R4/4K4 b - 1");
    let m = pos.parse_move("5h5e").expect("the rook takes the pawn");
    let gain = pos.move_value(m).gain;
    // The pawn on the board and the pawn in hand, undefended: the immediate gain.
    assert_eq!(pos.static_exchange(m), gain);
    assert!(gain > value(&pos, "P"));
    // Defended by a gold: the rook is lost, and the gold gains it in hand.
    let defended: ShogiPosition = position("4k4/9/9/4g4/4p4/9/9/4R4/4K4 b - 1");
    let m = defended
        .parse_move("5h5e")
        .expect("the rook takes the pawn");
    assert!(defended.static_exchange(m) < -value(&defended, "R"));
}
