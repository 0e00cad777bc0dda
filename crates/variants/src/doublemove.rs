//! Double-move chess (`doublemove`): two moves per turn (White's first turn one), no check,
//! capturing the king wins; see `docs/rules/doublemove.md`.
//!
//! A turn is a sequence of parts, each an ordinary move; the position records how many parts
//! the player to move still has (the FEN's seventh field), and the side to move changes only
//! when the turn ends. So `moves`, perft and the engine work per part, and
//! [`chaturanga_rules::perft_turns`] counts whole turns.

use crate::family;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{Move, Rules, SetupError, Spec, SpecError, StandardPosition};
use chaturanga_rules::{
    DrawRules, FenError, MoveDescription, MoveError, MoveValue, OptionSpec, Outcome, Position,
    Reason, RuleOptions, Ruleset,
};

/// The rules of one part: chess moves without check, en passant or a royal king.
#[derive(Clone, Copy, Default, Debug)]
pub struct DoubleMoveParts;

/// The board of a double-move game.
pub type DoubleMoveBoard = StandardPosition<1, 6, DoubleMoveParts>;

const KING: u8 = 5;

/// The start position: White's first turn is a single move.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1";

impl Rules<1, 6> for DoubleMoveParts {
    const ID: &'static str = "doublemove";

    fn option_specs() -> &'static [OptionSpec] {
        &[family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        // No en passant; the king is an ordinary piece as far as moves go (no check).
        pieces[0] = family::pawn("fmWfcFifmnD", &["Q", "R", "B", "N"])?;
        pieces[KING as usize] = family::piece("K", "king", "K")?;
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        .draw_rules(DrawRules::chess(options.is_on("fide-claims")))
        .values(family::ORTHODOX_VALUES)
        .start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .build()
    }
}

/// A double-move chess position: the board and the parts left in the current turn.
#[derive(Clone, Debug)]
pub struct DoubleMovePosition {
    board: DoubleMoveBoard,
    parts_left: u8,
    turn_start: bool,
}

/// Key that tells a position in the middle of a turn from the same placement at its start.
const MID_TURN_KEY: u64 = 0x6A09_E667_F3BC_C908;

impl DoubleMovePosition {
    /// The board.
    pub fn board(&self) -> &DoubleMoveBoard {
        &self.board
    }

    /// Parts the player to move still has in this turn (1 or 2).
    pub fn parts_left(&self) -> u8 {
        self.parts_left
    }

    fn has_king(&self, player: u8) -> bool {
        (self.board.pieces_of_kind(KING) & self.board.pieces_of(player)).any()
    }

    fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (board_fen, parts) = if fields.len() == 7 {
            let parts = match fields[6] {
                "1" => 1,
                "2" => 2,
                other => return Err(FenError::Counter(excerpt(other)).into()),
            };
            (fields[..6].join(" "), Some(parts))
        } else {
            (fen.to_string(), None)
        };
        let board = DoubleMoveBoard::from_fen_with(options, &board_fen)?;
        // Without the field: White's very first turn has one part, every other turn two.
        let first_turn = board.side_to_move() == 0 && board.fullmove() == 1;
        let parts_left = parts.unwrap_or(if first_turn { 1 } else { 2 });
        Ok(DoubleMovePosition {
            board,
            parts_left,
            turn_start: parts_left == 2 || first_turn,
        })
    }
}

impl Position for DoubleMovePosition {
    type Move = Move;

    fn side_to_move(&self) -> usize {
        self.board.side_to_move()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.has_king(0) && self.has_king(1) {
            self.board.legal_moves(moves);
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.has_king(0) && self.has_king(1) {
            self.board.count_legal_moves()
        } else {
            0
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let us = self.board.turn();
        let fullmove = self.board.fullmove();
        self.board.play_unchecked(mv);
        let king_taken = !self.has_king(1 - us);
        if self.parts_left == 2 && !king_taken {
            // The turn goes on: hand the move back to the same player, same move number.
            self.board.set_side_to_move(us);
            self.board.set_fullmove(fullmove);
            self.parts_left = 1;
            self.turn_start = false;
        } else {
            self.parts_left = 2;
            self.turn_start = true;
        }
    }

    fn player_name(&self, player: usize) -> &'static str {
        self.board.player_name(player)
    }

    fn diagram(&self) -> String {
        let parts = if self.parts_left == 1 {
            "1 move"
        } else {
            "2 moves"
        };
        let board = self.board.diagram();
        format!("{}({parts} left in this turn)\n", board)
    }

    fn evaluate(&self, player: usize) -> i32 {
        self.board.evaluate(player)
    }

    fn move_value(&self, mv: Move) -> MoveValue {
        self.board.move_value(mv)
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ if self.turn_start { 0 } else { MID_TURN_KEY }
    }

    fn is_check(&self) -> bool {
        false
    }

    /// A king taken ends the game at once, even in the middle of a turn: a search must not
    /// go on (or stand pat in quiescence) in a position without one.
    fn decided_outcome(&self) -> Option<Outcome> {
        (!self.has_king(0) || !self.has_king(1)).then(|| self.outcome_without_moves())
    }

    fn outcome_without_moves(&self) -> Outcome {
        let mover = self.side_to_move();
        if !self.has_king(mover as u8) {
            Outcome::loss(2, mover, Reason::RoyalCaptured)
        } else if !self.has_king(1 - mover as u8) {
            Outcome::win(2, mover, Reason::RoyalCaptured)
        } else {
            Outcome::draw(2, Reason::Stalemate)
        }
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies()
    }

    fn draw_rules(&self) -> DrawRules {
        self.board.draw_rules()
    }

    fn repetition_point(&self) -> bool {
        self.turn_start
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove()
    }

    fn fen(&self) -> String {
        format!("{} {}", self.board.fen(), self.parts_left)
    }

    fn scene(&self, _viewer: Viewer) -> Scene {
        Scene::single(self.board.standard_scene())
    }

    fn move_shape(&self, mv: Move) -> MoveShape {
        self.board.standard_move_shape(mv)
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        self.board.legend()
    }

    fn move_text(&self, mv: Move) -> String {
        self.board.move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if !(self.has_king(0) && self.has_king(1)) {
            return Err(MoveError::Illegal(excerpt(text)));
        }
        self.board.parse_move(text)
    }

    fn describe(&self, mv: Move) -> Option<MoveDescription> {
        self.board.describe(mv)
    }
}

impl Ruleset for DoubleMovePosition {
    const ID: &'static str = "doublemove";

    fn option_specs() -> &'static [OptionSpec] {
        DoubleMoveParts::option_specs()
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
