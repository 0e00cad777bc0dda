//! Yari shogi (`yarishogi`), 7x9 with the lance-like yari pieces; see
//! `docs/rules/yarishogi.md`.

use crate::family;
use crate::shogi::nifu_problems;
use crate::shogi_family::{self as sf, PlainRepetition};
use chaturanga_geometry::CellSet;
use chaturanga_rules::PieceStyle;
use chaturanga_rules::standard::{
    Move, Notation, Rules, Spec, SpecBuilder, SpecError, StandardPosition,
};
use chaturanga_rules::{
    Kind, MoveError, OptionSpec, Outcome, Position, Reason, RuleOptions, SetupProblem,
};

/// The Yari shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct YariShogi;

/// A Yari shogi position.
pub type YariShogiPosition = StandardPosition<1, 9, YariShogi>;

/// The start position (SFEN style).
pub const START_SFEN: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";

const MAX_PLIES: OptionSpec = sf::max_plies("0");
const PAWN: Kind = 4;

impl Rules<1, 9> for YariShogi {
    const ID: &'static str = "yarishogi";
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    fn option_specs() -> &'static [OptionSpec] {
        &[MAX_PLIES]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = sf::build_board(7, 9, 3)?;
        let p = family::piece;
        let pieces = vec![
            family::king()?,
            p("R", "yari rook", "fsR")?.promotes_in_zone("zone", "+R"),
            p("B", "yari bishop", "fRfF")?
                .promotes_in_zone("zone", "+B")
                .must_promote_in("last-rank"),
            p("N", "yari knight", "fRffN")?
                .promotes_in_zone("zone", "+N")
                .must_promote_in("last-rank"),
            p("P", "pawn", "fW")?
                .promotes_in_zone("zone", "+P")
                .must_promote_in("last-rank"),
            p("+R", "rook", "R")?.demotes_to("R"),
            p("+B", "yari gold", "WfFbR")?.demotes_to("B"),
            p("+N", "yari gold", "WfFbR")?.demotes_to("N"),
            p("+P", "yari silver", "fWfFbR")?.demotes_to("P"),
        ];
        family::with(SpecBuilder::new(Self::ID, geometry), pieces, Vec::new())
            .style(PieceStyle::Shogi)
            .options(options.clone())
            .draw_rules(sf::draw_rules(options.number("max-plies").unwrap_or(0)))
            .captures_to_hand(&["R", "B", "N", "P"])
            .drop_zone("P", "not-last")
            .drop_zone("B", "not-last")
            .drop_zone("N", "not-last")
            .notation(Notation::Shogi)
            .start(START_SFEN)
            .build()
            .map(sf::drops_reset_quiet_plies)
    }

    fn outcome_without_moves(position: &YariShogiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    /// Nifu applies; a pawn drop may give mate here.
    fn drop_cells(position: &YariShogiPosition, kind: Kind, cells: CellSet<1>) -> CellSet<1> {
        if kind != PAWN {
            return cells;
        }
        cells.without(sf::crowded_files(position, position.turn(), PAWN, 1))
    }

    fn validate(position: &YariShogiPosition) -> Vec<SetupProblem> {
        nifu_problems(position, PAWN, 1)
    }

    fn judge_repetition(cycle: &[YariShogiPosition], moves: &[Move]) -> Option<Outcome> {
        sf::judge_sennichite(cycle, moves, PlainRepetition::Draw)
    }

    fn judge_repetition_in_search(
        position: &YariShogiPosition,
        perpetual: [bool; 2],
    ) -> Option<Outcome> {
        sf::sennichite_in_search(position, perpetual, PlainRepetition::Draw)
    }

    fn notations() -> &'static [&'static str] {
        &[sf::WESTERN]
    }

    fn write_move(position: &YariShogiPosition, notation: &str, mv: Move) -> Option<String> {
        sf::write_western(position, notation, mv)
    }

    fn read_move(
        position: &YariShogiPosition,
        notation: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        sf::read_western(position, notation, text)
    }
}
