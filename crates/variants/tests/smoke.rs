use chaturanga_rules::{Position, RuleOptions, Ruleset, perft};
use chaturanga_variants::chess::ChessPosition;

#[test]
fn start_perft() {
    let opts = RuleOptions::parse(ChessPosition::option_specs(), &[] as &[&str]).unwrap();
    let p = ChessPosition::start_position(&opts).unwrap();
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (d, n) in [(1, 20), (2, 400), (3, 8902), (4, 197281)] {
        assert_eq!(perft(&p, d), n, "depth {d}");
    }
    let kiwi = ChessPosition::from_fen_with(&opts, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    for (d, n) in [(1, 48), (2, 2039), (3, 97862)] {
        assert_eq!(perft(&kiwi, d), n, "kiwi depth {d}");
    }
}
