//! Shogi (`shogi`): drops, promotion zones, sennichite and the impasse rules; see
//! `shared/rules/shogi.md`.

use crate::family;
use crate::shogi_family::{self as sf, PlainRepetition};
use chaturanga_geometry::CellSet;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::{Move, Notation, Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{
    Kind, MoveError, OptionSpec, OptionValues, Outcome, Player, Position, Reason, RuleOptions,
    SetupProblem,
};

/// The shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Shogi;

/// A shogi position.
pub type ShogiPosition = StandardPosition<2, 14, Shogi>;

/// The start position (SFEN).
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

const IMPASSE: OptionSpec = OptionSpec {
    name: "impasse",
    values: OptionValues::Choice(&["count24", "declare27", "declare24"]),
    default: "count24",
    help: "count24: the seed's 24-point count when both kings have entered; declare27: the CSA/USI 27-point declaration; declare24: the JSA declaration",
};
const MAX_PLIES: OptionSpec = sf::max_plies("500");

/// Kind numbers in the order the pieces are added.
pub const KING: Kind = 0;
const ROOK: Kind = 1;
const BISHOP: Kind = 2;
const PAWN: Kind = 7;
const DRAGON: Kind = 8;
const HORSE: Kind = 9;

/// The shogi pieces in kind order K R B G S N L P +R +B +S +N +L +P.
pub fn shogi_pieces() -> Result<Vec<chaturanga_rules::PieceType>, SpecError> {
    let p = family::piece;
    Ok(vec![
        family::king()?,
        p("R", "rook", "R")?.promotes_in_zone("zone", "+R"),
        p("B", "bishop", "B")?.promotes_in_zone("zone", "+B"),
        p("G", "gold general", "WfF")?,
        p("S", "silver general", "FfW")?.promotes_in_zone("zone", "+S"),
        p("N", "knight", "ffN")?
            .promotes_in_zone("zone", "+N")
            .must_promote_in("last-two"),
        p("L", "lance", "fR")?
            .promotes_in_zone("zone", "+L")
            .must_promote_in("last-rank"),
        p("P", "pawn", "fW")?
            .promotes_in_zone("zone", "+P")
            .must_promote_in("last-rank"),
        p("+R", "dragon", "RF")?.demotes_to("R"),
        p("+B", "horse", "BW")?.demotes_to("B"),
        p("+S", "promoted silver", "WfF")?.demotes_to("S"),
        p("+N", "promoted knight", "WfF")?.demotes_to("N"),
        p("+L", "promoted lance", "WfF")?.demotes_to("L"),
        p("+P", "tokin", "WfF")?.demotes_to("P"),
    ])
}

impl Rules<2, 14> for Shogi {
    const ID: &'static str = "shogi";

    fn option_specs() -> &'static [OptionSpec] {
        &[IMPASSE, MAX_PLIES]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = sf::build_board(9, 9, 3)?;
        family::with(
            chaturanga_rules::standard::SpecBuilder::new(Self::ID, geometry),
            shogi_pieces()?,
            Vec::new(),
        )
        .options(options.clone())
        .draw_rules(sf::draw_rules(options.number("max-plies").unwrap_or(500)))
        .captures_to_hand(&["R", "B", "G", "S", "N", "L", "P"])
        .drop_zone("P", "not-last")
        .drop_zone("L", "not-last")
        .drop_zone("N", "not-last-two")
        .notation(Notation::Shogi)
        .start(START_SFEN)
        .build()
    }

    fn outcome_without_moves(position: &ShogiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    fn drop_cells(position: &ShogiPosition, kind: Kind, cells: CellSet<2>) -> CellSet<2> {
        if kind != PAWN {
            return cells;
        }
        let us = position.turn();
        let allowed = cells.without(sf::crowded_files(position, us, PAWN, 1));
        allowed.without(sf::drop_mates(position, PAWN, allowed))
    }

    fn validate(position: &ShogiPosition) -> Vec<SetupProblem> {
        nifu_problems(position, PAWN, 1)
    }

    fn judge_repetition(cycle: &[ShogiPosition], moves: &[Move]) -> Option<Outcome> {
        sf::judge_sennichite(cycle, moves, PlainRepetition::Draw)
    }

    fn actions(position: &ShogiPosition) -> Vec<&'static str> {
        match position.spec().options.get("impasse") {
            Some("declare27") | Some("declare24") => vec!["win"],
            _ if both_kings_entered(position) => vec!["count", "count-accepted"],
            _ => Vec::new(),
        }
    }

    fn perform(position: &ShogiPosition, action: &str) -> Result<Outcome, MoveError> {
        let mode = position.spec().options.get("impasse").unwrap_or("count24");
        match (mode, action) {
            ("count24", "count" | "count-accepted") => {
                count24(position, action == "count-accepted")
            }
            ("declare27", "win") => Ok(declare(position, Declaration::TwentySeven)),
            ("declare24", "win") => Ok(declare(position, Declaration::TwentyFour)),
            _ => Err(MoveError::Illegal(excerpt(action))),
        }
    }
}

/// Positions with more unpromoted pawns of one player on a file than allowed.
pub fn nifu_problems<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    pawn: Kind,
    per_file: u32,
) -> Vec<SetupProblem> {
    (0..2)
        .filter(|&p| {
            sf::crowded_files(position, p, pawn, per_file + 1).intersects(position.pieces_of(p))
        })
        .map(|p| {
            SetupProblem::Other(format!(
                "player {} has too many unpromoted pawns on a file",
                p + 1
            ))
        })
        .collect()
}

/// Impasse points: rook and bishop (promoted or not) 5, every other piece 1, the king 0.
fn points(kind: Kind) -> u32 {
    match kind {
        KING => 0,
        ROOK | BISHOP | DRAGON | HORSE => 5,
        _ => 1,
    }
}

fn hand_points(position: &ShogiPosition, player: Player) -> u32 {
    (0..14u8)
        .map(|k| position.in_hand(player, k) as u32 * points(k))
        .sum()
}

fn board_points(position: &ShogiPosition, player: Player, within: CellSet<2>) -> u32 {
    (position.pieces_of(player) & within)
        .iter()
        .map(|c| points(position.piece_at(c).kind()))
        .sum()
}

fn both_kings_entered(position: &ShogiPosition) -> bool {
    (0..2u8)
        .all(|p| sf::king(position, p).is_some_and(|k| sf::region(position, "zone", p).contains(k)))
}

/// The seed's count: both kings entered; forced when all the requester's men are in his zone
/// (or accepted by the opponent); both at 24 or more: draw, otherwise the one below loses.
fn count24(position: &ShogiPosition, accepted: bool) -> Result<Outcome, MoveError> {
    let us = position.turn();
    if !both_kings_entered(position) {
        return Err(MoveError::Illegal(
            "count: both kings must be in their zones".into(),
        ));
    }
    let forced = sf::inside(position.pieces_of(us), sf::region(position, "zone", us));
    if !forced && !accepted {
        return Err(MoveError::Illegal(
            "count: not all your pieces are in your zone, so the opponent must accept (count-accepted)".into(),
        ));
    }
    let total =
        |p: Player| board_points(position, p, position.spec().cells) + hand_points(position, p);
    let (black, white) = (total(0), total(1));
    Ok(if black >= 24 && white >= 24 {
        Outcome::draw(2, Reason::Impasse)
    } else if black < 24 {
        Outcome::loss(2, 0, Reason::Impasse)
    } else {
        Outcome::loss(2, 1, Reason::Impasse)
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Declaration {
    TwentySeven,
    TwentyFour,
}

/// An impasse declaration by the player to move, judged on the position.
fn declare(position: &ShogiPosition, rule: Declaration) -> Outcome {
    let us = position.turn();
    let zone = sf::region(position, "zone", us);
    let king_in = sf::king(position, us).is_some_and(|k| zone.contains(k));
    let others_in = (position.pieces_of(us) & zone).count() - u32::from(king_in);
    let conditions = king_in && others_in >= 10 && !position.is_check();
    let points = board_points(position, us, zone) + hand_points(position, us);
    let lose = Outcome::loss(2, us as usize, Reason::Declaration);
    let win = Outcome::win(2, us as usize, Reason::Declaration);
    if !conditions {
        return lose;
    }
    match rule {
        Declaration::TwentySeven => {
            let needed = if us == 0 { 28 } else { 27 };
            if points >= needed { win } else { lose }
        }
        Declaration::TwentyFour => match points {
            31.. => win,
            24..=30 => Outcome::draw(2, Reason::Declaration),
            _ => lose,
        },
    }
}
