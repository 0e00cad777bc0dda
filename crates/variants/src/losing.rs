//! Losing chess (`losing`): captures compulsory, the king an ordinary piece, losing every
//! piece wins; see `docs/rules/losing.md`.

use crate::family;
use chaturanga_rules::standard::{Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, Outcome, Position, Reason, RuleOptions, SetupProblem};

/// The Losing chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Losing;

/// A Losing chess position.
pub type LosingPosition = StandardPosition<1, 6, Losing>;

/// The start position (no castling rights, ever).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// Piece values for move ordering (the king is an ordinary piece here); the evaluation counts
/// them against their owner.
const LOSING_VALUES: &[(&str, i32)] = &[
    ("P", 100),
    ("N", 300),
    ("B", 300),
    ("R", 500),
    ("Q", 900),
    ("K", 300),
];

const EN_PASSANT: OptionSpec = OptionSpec::switch(
    "en-passant",
    "off",
    "on: en passant exists and, being a capture, is compulsory (lichess)",
)
.explained(
    "En passant",
    &[
        (
            "on",
            "En passant exists and, being a capture, is compulsory (lichess)",
        ),
        ("off", "No en passant"),
    ],
);
const KING_PROMOTION: OptionSpec = OptionSpec::switch(
    "king-promotion",
    "off",
    "on: a pawn may also promote to a king (lichess, Fairy-Stockfish)",
)
.explained(
    "Promotion to king",
    &[
        (
            "on",
            "A pawn may also promote to a king (lichess, Fairy-Stockfish)",
        ),
        ("off", "A pawn may not promote to a king"),
    ],
);

impl Rules<1, 6> for Losing {
    const ID: &'static str = "losing";

    fn option_specs() -> &'static [OptionSpec] {
        &[EN_PASSANT, KING_PROMOTION, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let betza = if options.is_on("en-passant") {
            "fmWfceFifmnD"
        } else {
            "fmWfcFifmnD"
        };
        let choices: &[&str] = if options.is_on("king-promotion") {
            &["Q", "R", "B", "N", "K"]
        } else {
            &["Q", "R", "B", "N"]
        };
        let mut pieces = family::orthodox_pieces()?;
        pieces[0] = family::pawn(betza, choices)?;
        // The king is an ordinary piece here.
        pieces[5] = family::piece("K", "king", "K")?;
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            Vec::new(),
        )
        .compulsory_capture()
        .values(LOSING_VALUES)
        .start(START_FEN)
        .build()
    }

    /// The player to move wins when he has no move: he has lost every piece, or is stalemated.
    fn outcome_without_moves(position: &LosingPosition) -> Outcome {
        let mover = position.side_to_move();
        let reason = if position.pieces_of(mover as u8).is_empty() {
            Reason::AllPiecesLost
        } else {
            Reason::NoLegalMoves
        };
        Outcome::win(2, mover, reason)
    }

    fn is_dead(position: &LosingPosition) -> bool {
        locked_bishops(position)
    }

    /// Its own evaluation: the shared weights do not describe it.
    fn eval_features(_position: &LosingPosition) -> Option<chaturanga_rules::EvalFeatures> {
        None
    }

    /// Material counts against its owner: the side with less is nearer its goal.
    fn evaluate(position: &LosingPosition, player: u8) -> i32 {
        let values = &position.spec().eval.values;
        let material = |p: u8| -> i32 {
            position
                .pieces_of(p)
                .iter()
                .map(|c| values[position.piece_at(c).kind() as usize])
                .sum()
        };
        material(1 - player) - material(player)
    }

    fn validate(position: &LosingPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}

/// The locked-bishops draw: only bishops and pawns; each side has bishops, all of one colour,
/// the two sides' colours differ; every pawn is blocked head-on by a pawn and stands on the
/// colour the enemy bishops do not use. Nobody can ever be forced to capture.
fn locked_bishops(position: &LosingPosition) -> bool {
    let spec = position.spec();
    let (pawn, bishop) = (0, 2);
    let occupied = position.occupied();
    if occupied != position.pieces_of_kind(pawn) | position.pieces_of_kind(bishop) {
        return false;
    }
    let g = &spec.geometry;
    let mut bishop_colour = [None, None];
    for player in 0..2u8 {
        for cell in position.pieces_of_kind(bishop) & position.pieces_of(player) {
            let colour = g.colour(cell);
            match bishop_colour[player as usize] {
                None => bishop_colour[player as usize] = Some(colour),
                Some(c) if c == colour => {}
                Some(_) => return false,
            }
        }
    }
    let (Some(white), Some(black)) = (bishop_colour[0], bishop_colour[1]) else {
        return false;
    };
    if white == black {
        return false;
    }
    for cell in position.pieces_of_kind(pawn) {
        let player = position.piece_at(cell).player();
        let (x, y) = g.coords(cell);
        let ahead = g.at(x, if player == 0 { y + 1 } else { y - 1 });
        let blocked = ahead.is_some_and(|c| position.pieces_of_kind(pawn).contains(c));
        let enemy_bishops = bishop_colour[1 - player as usize];
        if !blocked || Some(g.colour(cell)) == enemy_bishops {
            return false;
        }
    }
    true
}
