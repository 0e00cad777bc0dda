//! Tori shogi (`torishogi`), the bird game on 7x7; see `docs/rules/torishogi.md`.

use crate::family;
use crate::shogi_family as sf;
use chaturanga_geometry::CellSet;
use chaturanga_rules::PieceStyle;
use chaturanga_rules::standard::{
    Move, Notation, Rules, Spec, SpecBuilder, SpecError, StandardPosition,
};
use chaturanga_rules::{
    Kind, MoveError, OptionSpec, OptionValues, Outcome, Position, Reason, RuleOptions,
};

/// The Tori shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct ToriShogi;

/// A Tori shogi position.
pub type ToriShogiPosition = StandardPosition<1, 9, ToriShogi>;

/// The start position (SFEN style).
pub const START_SFEN: &str = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1";

const SWALLOWS_PER_FILE: OptionSpec = OptionSpec {
    name: "swallows-per-file",
    values: OptionValues::Number(1, 2),
    default: "1",
    help: "unpromoted own swallows a file may hold before a swallow drop there is forbidden",
    label: "Swallows per file",
    words: &[(
        "*",
        "A swallow may not be dropped on a file already holding {} unpromoted swallows of its side",
    )],
};
const REPETITION: OptionSpec = OptionSpec {
    name: "repetition",
    values: OptionValues::Choice(&["shogi", "repeater-loses"]),
    default: "shogi",
    help: "shogi: fourfold repetition draws, perpetual check loses; repeater-loses: the player completing the repetition loses",
    label: "Repetition",
    words: &[
        ("shogi", "Fourfold repetition draws; perpetual check loses"),
        ("repeater-loses", "The player completing a repetition loses"),
    ],
};
const MAX_PLIES: OptionSpec = sf::max_plies("0");
const SWALLOW: Kind = 6;

impl Rules<1, 9> for ToriShogi {
    const ID: &'static str = "torishogi";
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    fn option_specs() -> &'static [OptionSpec] {
        &[SWALLOWS_PER_FILE, REPETITION, MAX_PLIES]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = sf::build_board(7, 7, 2)?;
        let p = family::piece;
        let pieces = vec![
            family::king()?,
            p("F", "falcon", "FsfW")?
                .promotes_in_zone("zone", "+F")
                .promotion_compulsory(),
            p("C", "crane", "FvW")?,
            p("P", "pheasant", "fDbF")?,
            p("L", "left quail", "fRrbBlbF")?,
            p("R", "right quail", "fRlbBrbF")?,
            p("S", "swallow", "fW")?
                .promotes_in_zone("zone", "+S")
                .promotion_compulsory(),
            p("+S", "goose", "fAbD")?.demotes_to("S"),
            p("+F", "eagle", "KfBbRbF2")?.demotes_to("F"),
        ];
        family::with(SpecBuilder::new(Self::ID, geometry), pieces, Vec::new())
            .style(PieceStyle::Shogi)
            .options(options.clone())
            .draw_rules(sf::draw_rules(options.number("max-plies").unwrap_or(0)))
            .captures_to_hand(&["F", "C", "P", "L", "R", "S"])
            .drop_zone("S", "not-last")
            .notation(Notation::Shogi)
            .start(START_SFEN)
            .build()
            .map(sf::drops_reset_quiet_plies)
    }

    fn outcome_without_moves(position: &ToriShogiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    fn drop_cells(position: &ToriShogiPosition, kind: Kind, cells: CellSet<1>) -> CellSet<1> {
        if kind != SWALLOW {
            return cells;
        }
        let limit = position
            .spec()
            .options
            .number("swallows-per-file")
            .unwrap_or(1);
        let allowed = cells.without(sf::crowded_files(position, position.turn(), SWALLOW, limit));
        allowed.without(sf::drop_mates(position, SWALLOW, allowed))
    }

    fn judge_repetition(cycle: &[ToriShogiPosition], moves: &[Move]) -> Option<Outcome> {
        let plain = sf::plain_repetition(cycle[0].spec().options.get("repetition"));
        sf::judge_sennichite(cycle, moves, plain)
    }

    fn judge_repetition_in_search(
        position: &ToriShogiPosition,
        perpetual: [bool; 2],
    ) -> Option<Outcome> {
        let plain = sf::plain_repetition(position.spec().options.get("repetition"));
        sf::sennichite_in_search(position, perpetual, plain)
    }

    fn notations() -> &'static [&'static str] {
        &[sf::WESTERN]
    }

    fn write_move(position: &ToriShogiPosition, notation: &str, mv: Move) -> Option<String> {
        sf::write_western(position, notation, mv)
    }

    fn read_move(
        position: &ToriShogiPosition,
        notation: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        sf::read_western(position, notation, text)
    }
}
