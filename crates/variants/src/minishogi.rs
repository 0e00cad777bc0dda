//! Minishogi (`minishogi`), 5x5 shogi; see `docs/rules/minishogi.md`.

use crate::family;
use crate::shogi::nifu_problems;
use crate::shogi_family as sf;
use chaturanga_geometry::CellSet;
use chaturanga_rules::PieceStyle;
use chaturanga_rules::standard::{
    Move, Notation, Rules, Spec, SpecBuilder, SpecError, StandardPosition,
};
use chaturanga_rules::{
    Kind, MoveError, OptionSpec, OptionValues, Outcome, Position, Reason, RuleOptions, SetupProblem,
};

/// The minishogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Minishogi;

/// A minishogi position.
pub type MinishogiPosition = StandardPosition<1, 10, Minishogi>;

/// The start position (SFEN).
pub const START_SFEN: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

const REPETITION: OptionSpec = OptionSpec {
    name: "repetition",
    values: OptionValues::Choice(&["shogi", "sente-loses"]),
    default: "shogi",
    help: "shogi: fourfold repetition draws, perpetual check loses; sente-loses: a plain repetition loses for Black",
    label: "Repetition",
    words: &[
        ("shogi", "Fourfold repetition draws; perpetual check loses"),
        ("sente-loses", "A plain repetition loses for Black (sente)"),
    ],
};
const MAX_PLIES: OptionSpec = sf::max_plies("0");
const PAWN: Kind = 5;

impl Rules<1, 10> for Minishogi {
    const ID: &'static str = "minishogi";
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    fn option_specs() -> &'static [OptionSpec] {
        &[REPETITION, MAX_PLIES]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = sf::build_board(5, 5, 1)?;
        let p = family::piece;
        let pieces = vec![
            family::king()?,
            p("G", "gold general", "WfF")?,
            p("S", "silver general", "FfW")?.promotes_in_zone("zone", "+S"),
            p("B", "bishop", "B")?.promotes_in_zone("zone", "+B"),
            p("R", "rook", "R")?.promotes_in_zone("zone", "+R"),
            p("P", "pawn", "fW")?
                .promotes_in_zone("zone", "+P")
                .must_promote_in("last-rank"),
            p("+S", "promoted silver", "WfF")?.demotes_to("S"),
            p("+B", "horse", "BW")?.demotes_to("B"),
            p("+R", "dragon", "RF")?.demotes_to("R"),
            p("+P", "tokin", "WfF")?.demotes_to("P"),
        ];
        family::with(SpecBuilder::new(Self::ID, geometry), pieces, Vec::new())
            .style(PieceStyle::Shogi)
            .options(options.clone())
            .draw_rules(sf::draw_rules(options.number("max-plies").unwrap_or(0)))
            .captures_to_hand(&["R", "B", "G", "S", "P"])
            .drop_zone("P", "not-last")
            .notation(Notation::Shogi)
            .values(sf::MINISHOGI_VALUES)
            .weights(crate::weights::family("minishogi")?)
            .start(START_SFEN)
            .build()
            .map(sf::drops_reset_quiet_plies)
    }

    fn outcome_without_moves(position: &MinishogiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    fn drop_cells(position: &MinishogiPosition, kind: Kind, cells: CellSet<1>) -> CellSet<1> {
        if kind != PAWN {
            return cells;
        }
        let allowed = cells.without(sf::crowded_files(position, position.turn(), PAWN, 1));
        allowed.without(sf::drop_mates(position, PAWN, allowed))
    }

    fn validate(position: &MinishogiPosition) -> Vec<SetupProblem> {
        nifu_problems(position, PAWN, 1)
    }

    fn judge_repetition(cycle: &[MinishogiPosition], moves: &[Move]) -> Option<Outcome> {
        let plain = sf::plain_repetition(cycle[0].spec().options.get("repetition"));
        sf::judge_sennichite(cycle, moves, plain)
    }

    fn judge_repetition_in_search(
        position: &MinishogiPosition,
        perpetual: [bool; 2],
    ) -> Option<Outcome> {
        let plain = sf::plain_repetition(position.spec().options.get("repetition"));
        sf::sennichite_in_search(position, perpetual, plain)
    }

    fn notations() -> &'static [&'static str] {
        &[sf::WESTERN]
    }

    fn write_move(position: &MinishogiPosition, notation: &str, mv: Move) -> Option<String> {
        sf::write_western(position, notation, mv)
    }

    fn read_move(
        position: &MinishogiPosition,
        notation: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        sf::read_western(position, notation, text)
    }
}
