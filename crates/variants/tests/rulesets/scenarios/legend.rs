//! Position types that wrap standard boards take their legend from the board's piece table,
//! and the legends of positions whose movement is code say it in words.

use chaturanga_rules::standard::{Rules, StandardPosition};
use chaturanga_rules::{Legend, Position, RuleOptions, Ruleset};
use chaturanga_variants::avalanche::AvalanchePosition;
use chaturanga_variants::bughouse::BughousePosition;
use chaturanga_variants::chushogi::ChuShogiPosition;
use chaturanga_variants::congo::CongoPosition;
use chaturanga_variants::daishogi::DaiShogiPosition;
use chaturanga_variants::darkchess::DarkChessPosition;
use chaturanga_variants::doublemove::DoubleMovePosition;
use chaturanga_variants::gess::GessPosition;
use chaturanga_variants::progressive::ProgressivePosition;
use chaturanga_variants::taktika::TaktikaPosition;

fn start<P: Ruleset>() -> P {
    P::start_position(&RuleOptions::default()).unwrap()
}

/// The legend a standard board's own piece table gives.
fn table_legend<const W: usize, const K: usize, R: Rules<W, K>>(
    board: &StandardPosition<W, K, R>,
) -> Legend {
    Legend::of_pieces(board.spec().style, &board.spec().pieces)
}

#[test]
fn wrappers_show_their_boards_pieces() {
    let doublemove = start::<DoubleMovePosition>();
    assert_eq!(doublemove.legend(), table_legend(doublemove.board()));
    let progressive = start::<ProgressivePosition>();
    assert_eq!(progressive.legend(), table_legend(progressive.board()));
    let avalanche = start::<AvalanchePosition>();
    assert_eq!(avalanche.legend(), table_legend(avalanche.board()));
    let dark = start::<DarkChessPosition>();
    assert_eq!(dark.legend(), table_legend(dark.board()));
    let bughouse = start::<BughousePosition>();
    for board in bughouse.boards() {
        assert_eq!(bughouse.legend(), table_legend(board));
    }
    assert!(bughouse.legend().get("Q~").is_some());
}

#[test]
fn movement_that_is_code_is_told_in_words() {
    let chu = start::<ChuShogiPosition>().legend();
    let dai = start::<DaiShogiPosition>().legend();
    for (legend, lions) in [(&chu, ["N", "+O"]), (&dai, ["L!", "+O"])] {
        for lion in lions {
            assert!(
                legend.get(lion).unwrap().moves.starts_with("lion:"),
                "{lion}"
            );
        }
        for piece in ["+H", "+D"] {
            assert!(legend.get(piece).unwrap().moves.contains("lion power"));
        }
        // Pieces without lion power keep their Betza.
        assert_eq!(legend.get("G").unwrap().moves, "WfF");
    }
    let congo = start::<CongoPosition>().legend();
    assert!(congo.get("M").unwrap().moves.contains("chain"));
    assert!(congo.get("L").unwrap().moves.contains("face-off"));
    let taktika = start::<TaktikaPosition>().legend();
    assert!(taktika.get("R").unwrap().moves.contains("frozen"));
    let gess = start::<GessPosition>().legend();
    assert!(gess.get("S").unwrap().moves.contains("footprint"));
}
