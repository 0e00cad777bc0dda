//! Avalanche Chess (`avalanche`): every turn is a chess move followed by a compulsory push of
//! an enemy pawn toward the mover; a push that exposes the pusher's own king loses at once; no
//! en passant. See `docs/rules/avalanche.md`.
//!
//! A turn has two parts, and the part to play is part of the position ([`TurnPart`]): a
//! [`AvalanchePart`] is one part, so search, undo, notation and the CLI handle the move and
//! the push as separate steps, while [`chaturanga_rules::perft_turns`] and
//! [`chaturanga_rules::legal_turns`] give the rules file's whole turns (`e2e4;d7d6`). Between
//! the parts the mover keeps the move on the underlying board. The rules file's FEN has no
//! field for that state; our FEN writes it as a seventh field `push` (see
//! `docs/rules/avalanche.md`, Decision 12), so every position, mid-turn ones included, reads back.

use crate::family;
use chaturanga_rules::geometry::Cell;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{
    MAX_FEN_LEN, Move, Rules, Setup, SetupError, SetupProblem, Spec, SpecError, StandardPosition,
    spec_for,
};
use chaturanga_rules::{
    DrawRules, FenError, Kind, MoveDescription, MoveError, MoveValue, OptionSpec, OptionValues,
    Outcome, Piece, Player, Position, Reason, RuleOptions, Ruleset,
};

/// The rules of the move part: chess without en passant.
#[derive(Clone, Copy, Default, Debug)]
pub struct AvalancheParts;

/// The board of an Avalanche game.
pub type AvalancheBoard = StandardPosition<1, 6, AvalancheParts>;

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The seventh FEN field of a position between the move and the push (our extension).
pub const PUSH_FIELD: &str = "push";

/// The seventh FEN field of a game lost by a self-checking push that the board does not
/// show (a pushed pawn promoted to a piece that does not attack the king; our extension).
/// Where the pusher's king stands attacked, the plain FEN already says it.
pub const SELF_CHECK_FIELD: &str = "self-check";

const PAWN: Kind = 0;
const KING: Kind = 5;
/// Promotion choices in the order the rules file lists them: Q, R, B, N.
const PROMOTIONS: [Kind; 4] = [4, 3, 2, 1];

const PUSH: OptionSpec = OptionSpec {
    name: "push",
    values: OptionValues::Choice(&["pawn-move", "single-step"]),
    default: "pawn-move",
    help: "pawn-move: a push is a regular pawn move (two cells from the start rank); single-step: always one cell",
    label: "Pushes",
    words: &[
        (
            "pawn-move",
            "A push is an ordinary pawn move, two cells from the start rank",
        ),
        ("single-step", "A push is always one cell"),
    ],
};

const SELF_CHECK_PUSH: OptionSpec = OptionSpec {
    name: "self-check-push",
    values: OptionValues::Choice(&["loses", "illegal"]),
    default: "loses",
    help: "loses: a push exposing one's own king is legal and loses at once; illegal: only while no safe push exists",
    label: "Pushes into check",
    words: &[
        (
            "loses",
            "A push that leaves one's own king in check is allowed and loses at once",
        ),
        (
            "illegal",
            "A push that leaves one's own king in check is allowed only when no safe push exists",
        ),
    ],
};

const BALANCED: OptionSpec =
    OptionSpec::switch("balanced", "off", "on: no push on White's first turn").explained(
        "Balanced start",
        &[
            ("on", "White makes no push on the first turn"),
            ("off", "White pushes from the first turn"),
        ],
    );

impl Rules<1, 6> for AvalancheParts {
    const ID: &'static str = "avalanche";

    fn option_specs() -> &'static [OptionSpec] {
        &[PUSH, SELF_CHECK_PUSH, BALANCED, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        // No en passant, whoever made the double step.
        pieces[PAWN as usize] = family::pawn("fmWfcFifmnD", &["Q", "R", "B", "N"])?;
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &AvalancheBoard) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &AvalancheBoard) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}

/// One part of an Avalanche turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AvalanchePart {
    /// The move part: a legal chess move of the player's own men.
    Move(Move),
    /// The push: the enemy pawn on `from` makes a non-capturing pawn move to `to`, becoming
    /// `promotion` (its owner's choice) on its last rank.
    Push {
        /// Where the pushed pawn stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
        /// What it becomes on its owner's last rank.
        promotion: Option<Kind>,
    },
}

/// Which part of his turn the player to move plays next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TurnPart {
    /// The move (the start of a turn).
    Move,
    /// The compulsory push, after the move.
    Push,
}

/// An Avalanche position: the board, the part of the turn to play, the turn-counting
/// halfmove clock, and whether a self-checking push has ended the game.
#[derive(Clone, Debug)]
pub struct AvalanchePosition {
    board: AvalancheBoard,
    part: TurnPart,
    /// Turns without capture, own pawn move or push (the FEN's halfmove clock).
    clock: u32,
    /// The player whose push exposed his own king: he has lost.
    loser: Option<Player>,
    single_step: bool,
    illegal_self_check: bool,
    balanced: bool,
}

/// Keys for the state the board does not hash.
const PUSH_PART_KEY: u64 = 0xBB67_AE85_84CA_A73B;
const LOST_KEY: u64 = 0x3C6E_F372_FE94_F82B;

fn forward(player: Player) -> i32 {
    if player == 0 { 1 } else { -1 }
}

impl AvalanchePosition {
    /// The board (with the mover to move between the parts of a turn).
    pub fn board(&self) -> &AvalancheBoard {
        &self.board
    }

    /// The part of the turn the player to move plays next.
    pub fn turn_part(&self) -> TurnPart {
        self.part
    }

    /// The player who lost by a self-checking push, if one did.
    pub fn loser(&self) -> Option<Player> {
        self.loser
    }

    fn spec(&self) -> &'static Spec<1> {
        self.board.spec()
    }

    /// Whether `cell` is on `player`'s region `name`.
    fn in_region(&self, name: &str, player: Player, cell: Cell) -> bool {
        self.spec()
            .geometry
            .region(name)
            .is_some_and(|r| r.cells[player as usize].contains(&cell))
    }

    /// Whether the loser's king stands attacked on the board (what a plain FEN shows).
    fn loss_visible(&self) -> bool {
        self.loser.is_some_and(|loser| {
            self.board
                .royal_cell(loser)
                .is_some_and(|k| self.board.attacked(k, 1 - loser, self.board.occupied()))
        })
    }

    /// Every push `pusher` could make now, each with whether it exposes his king.
    fn pushes(&self, pusher: Player) -> Vec<(AvalanchePart, bool)> {
        let owner = 1 - pusher;
        let g = &self.spec().geometry;
        let mut out = Vec::new();
        let pawns = self.board.pieces_of(owner) & self.board.pieces_of_kind(PAWN);
        for from in pawns {
            let (x, y) = g.coords(from);
            let Some(one) = g
                .at(x, y + forward(owner))
                .filter(|&c| self.board.piece_at(c).is_none())
            else {
                continue;
            };
            let mut targets = vec![one];
            if !self.single_step
                && self.in_region("pawn-start", owner, from)
                && let Some(two) = g
                    .at(x, y + 2 * forward(owner))
                    .filter(|&c| self.board.piece_at(c).is_none())
            {
                targets.push(two);
            }
            for to in targets {
                let self_check = self.push_exposes(pusher, from, to);
                if self.in_region("last-rank", owner, to) {
                    for k in PROMOTIONS {
                        let promotion = Some(k);
                        out.push((
                            AvalanchePart::Push {
                                from,
                                to,
                                promotion,
                            },
                            self_check,
                        ));
                    }
                } else {
                    let promotion = None;
                    out.push((
                        AvalanchePart::Push {
                            from,
                            to,
                            promotion,
                        },
                        self_check,
                    ));
                }
            }
        }
        out
    }

    /// Whether pushing the pawn from `from` to `to` leaves `pusher`'s king attacked: by the
    /// pawn, through the line it opens, or (on its last rank) by any piece its owner could
    /// choose, since he would choose that one.
    fn push_exposes(&self, pusher: Player, from: Cell, to: Cell) -> bool {
        let owner = 1 - pusher;
        let Some(king) = self.board.royal_cell(pusher) else {
            return false;
        };
        let mut board = self.board.clone();
        board.remove_piece(from);
        let kinds: &[Kind] = if self.in_region("last-rank", owner, to) {
            &PROMOTIONS
        } else {
            &[PAWN]
        };
        kinds.iter().any(|&k| {
            board.place_piece(to, Piece::new(owner, k));
            board.attacked(king, owner, board.occupied())
        })
    }

    /// The pushes allowed now (under `self-check-push=illegal`, the safe ones if any).
    fn allowed_pushes(&self) -> Vec<AvalanchePart> {
        let all = self.pushes(self.board.turn());
        let any_safe = all.iter().any(|&(_, exposes)| !exposes);
        all.into_iter()
            .filter(|&(_, exposes)| !(self.illegal_self_check && any_safe && exposes))
            .map(|(p, _)| p)
            .collect()
    }

    /// Whether the turn of `mover`, numbered `fullmove`, has a push part at all.
    fn push_follows(&self, mover: Player, fullmove: u32) -> bool {
        let first_turn_exempt = self.balanced && mover == 0 && fullmove == 1;
        !first_turn_exempt && !self.pushes(mover).is_empty()
    }

    fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() > 7 {
            return Err(FenError::TrailingFields(excerpt(fields[7])).into());
        }
        let (mid_turn, declared_loss) = match fields.get(6) {
            None => (false, false),
            Some(&PUSH_FIELD) => (true, false),
            Some(&SELF_CHECK_FIELD) => (false, true),
            Some(other) => return Err(FenError::TrailingFields(excerpt(other)).into()),
        };
        let board_fen = fields[..fields.len().min(6)].join(" ");
        let flipped_fen = |fields: &[&str]| {
            let mut flipped = fields[..fields.len().min(6)].to_vec();
            if let Some(side) = flipped.get_mut(1) {
                *side = if *side == "w" { "b" } else { "w" };
            }
            flipped.join(" ")
        };
        let (board, loser) = match AvalancheBoard::from_fen_with(options, &board_fen) {
            // Between the parts the opponent may be in check from the move part, while the
            // mover may not be (his move was legal): read the board with the opponent to
            // move, which checks exactly that, then hand the move back.
            _ if mid_turn => {
                if !matches!(fields.get(1), Some(&"w") | Some(&"b")) {
                    return Err(FenError::Turn(excerpt(fields.get(1).unwrap_or(&""))).into());
                }
                let mut board = AvalancheBoard::from_fen_with(options, &flipped_fen(&fields))?;
                board.set_side_to_move(1 - board.turn());
                (board, None)
            }
            Ok(board) => {
                let loser = declared_loss.then(|| 1 - board.turn());
                (board, loser)
            }
            // The side not to move in check: only a self-checking push can leave a king
            // attacked (the move part must be safe), so that side has lost. Read the board
            // with him to move, then hand the move back.
            Err(SetupError::Invalid(problems)) if problems == [SetupProblem::OpponentInCheck] => {
                let mut board = read_lost_board(options, &flipped_fen(&fields))?;
                let loser = board.turn();
                board.set_side_to_move(1 - loser);
                (board, Some(loser))
            }
            Err(e) => return Err(e),
        };
        let mut position = AvalanchePosition {
            clock: board.quiet_plies(),
            board,
            part: if mid_turn {
                TurnPart::Push
            } else {
                TurnPart::Move
            },
            loser,
            single_step: options.get("push") == Some("single-step"),
            illegal_self_check: options.get("self-check-push") == Some("illegal"),
            balanced: options.is_on("balanced"),
        };
        if mid_turn {
            let mover = position.board.turn();
            if !position.push_follows(mover, position.board.fullmove()) {
                return Err(SetupError::Invalid(vec![SetupProblem::Other(
                    "a push is to be made but none is possible".into(),
                )]));
            }
        }
        position.board.set_quiet_plies(position.clock);
        Ok(position)
    }
}

/// Reads the board of a game lost by a self-checking push, with the loser to move. The
/// winner may stand in check too (from the loser's move part), which the board's own reader
/// refuses for the side not to move; so the loser's men other than his king and castling
/// rooks are left out while the board is checked and put back afterwards.
fn read_lost_board(options: &RuleOptions, fen: &str) -> Result<AvalancheBoard, SetupError> {
    let spec =
        spec_for::<1, 6, AvalancheParts>(options).map_err(|e| SetupError::Spec(e.clone()))?;
    let setup = Setup::parse(spec, fen)?;
    let first = match AvalancheBoard::from_setup(spec, &setup) {
        Ok(board) => return Ok(board),
        Err(e) => e,
    };
    if !matches!(&first, SetupError::Invalid(p) if p == &[SetupProblem::OpponentInCheck]) {
        return Err(first);
    }
    let loser = setup.turn;
    let rook_homes: Vec<Cell> = spec
        .castlings
        .iter()
        .filter(|c| c.player == loser)
        .map(|c| c.rook_from)
        .collect();
    for keep_rooks in [true, false] {
        let (kept, held): (Vec<_>, Vec<_>) = setup.pieces.iter().partition(|(cell, piece)| {
            piece.player() != loser
                || piece.kind() == KING
                || (keep_rooks && rook_homes.contains(cell))
        });
        let reduced = Setup {
            pieces: kept,
            ..setup.clone()
        };
        if let Ok(mut board) = AvalancheBoard::from_setup(spec, &reduced) {
            for (cell, piece) in held {
                board.place_piece(cell, piece);
            }
            let problems = AvalancheParts::validate(&board);
            if !problems.is_empty() {
                return Err(SetupError::Invalid(problems));
            }
            return Ok(board);
        }
    }
    Err(first)
}

impl Position for AvalanchePosition {
    type Move = AvalanchePart;

    fn side_to_move(&self) -> usize {
        self.board.side_to_move()
    }

    fn legal_moves(&self, moves: &mut Vec<AvalanchePart>) {
        if self.loser.is_some() {
            return;
        }
        match self.part {
            TurnPart::Move => {
                let mut board_moves = Vec::new();
                self.board.legal_moves(&mut board_moves);
                moves.extend(board_moves.into_iter().map(AvalanchePart::Move));
            }
            TurnPart::Push => moves.extend(self.allowed_pushes()),
        }
    }

    fn reference_legal_moves(&self, moves: &mut Vec<AvalanchePart>) {
        if self.loser.is_some() {
            return;
        }
        match self.part {
            TurnPart::Move => {
                let mut board_moves = Vec::new();
                self.board.reference_legal_moves(&mut board_moves);
                moves.extend(board_moves.into_iter().map(AvalanchePart::Move));
            }
            TurnPart::Push => moves.extend(self.allowed_pushes()),
        }
    }

    fn count_legal_moves(&self) -> u64 {
        match (self.loser, self.part) {
            (Some(_), _) => 0,
            (None, TurnPart::Move) => self.board.count_legal_moves(),
            (None, TurnPart::Push) => self.allowed_pushes().len() as u64,
        }
    }

    fn play_unchecked(&mut self, part: AvalanchePart) {
        let us = self.board.turn();
        match part {
            AvalanchePart::Move(mv) => {
                let fullmove = self.board.fullmove();
                let progress = mv.kind == PAWN || mv.is_capture();
                self.board.play_unchecked(mv);
                if self.push_follows(us, fullmove) {
                    // The turn goes on: the mover keeps the move for his push.
                    self.board.set_side_to_move(us);
                    self.board.set_fullmove(fullmove);
                    self.part = TurnPart::Push;
                } else {
                    self.clock = if progress { 0 } else { self.clock + 1 };
                }
            }
            AvalanchePart::Push {
                from,
                to,
                promotion,
            } => {
                let exposes = self.push_exposes(us, from, to);
                let pawn = self.board.remove_piece(from);
                self.board
                    .place_piece(to, promotion.map_or(pawn, |k| Piece::new(1 - us, k)));
                self.board.set_side_to_move(1 - us);
                if us == 1 {
                    self.board.set_fullmove(self.board.fullmove() + 1);
                }
                // A push is a pawn move.
                self.clock = 0;
                self.part = TurnPart::Move;
                if exposes {
                    self.loser = Some(us);
                }
            }
        }
        self.board.set_quiet_plies(self.clock);
    }

    fn hash(&self) -> u64 {
        let mut h = self.board.hash();
        if self.part == TurnPart::Push {
            h ^= PUSH_PART_KEY;
        }
        if self.loser.is_some() {
            h ^= LOST_KEY;
        }
        h
    }

    fn is_check(&self) -> bool {
        self.board.is_check()
    }

    fn outcome_without_moves(&self) -> Outcome {
        if let Some(loser) = self.loser {
            Outcome::loss(2, loser as usize, Reason::SelfCheck)
        } else {
            self.board.outcome_without_moves()
        }
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        self.loser
            .map(|loser| Outcome::loss(2, loser as usize, Reason::SelfCheck))
    }

    fn is_dead(&self) -> bool {
        self.loser.is_none() && self.board.is_dead()
    }

    /// The board's chess evaluation. Between the parts the board still gives the mover the
    /// move, so its tempo goes to the player who is about to push, as it should.
    fn evaluate(&self, player: usize) -> i32 {
        self.board.evaluate(player)
    }

    /// A move part is valued as on the board; a push never wins anything for the pusher (it
    /// only advances the opponent's pawn), so quiescence leaves pushes to the full search.
    fn move_value(&self, part: AvalanchePart) -> MoveValue {
        match part {
            AvalanchePart::Move(mv) => self.board.move_value(mv),
            AvalanchePart::Push { .. } => MoveValue {
                gain: 0,
                mover: self.spec().eval.values[PAWN as usize],
            },
        }
    }

    fn quiet_plies(&self) -> u32 {
        self.clock
    }

    fn draw_rules(&self) -> DrawRules {
        self.board.draw_rules()
    }

    fn repetition_point(&self) -> bool {
        self.part == TurnPart::Move
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove()
    }

    fn fen(&self) -> String {
        match self.part {
            TurnPart::Push => format!("{} {PUSH_FIELD}", self.board.fen()),
            // Lost by a promotion push whose chosen piece does not attack the king (any
            // choice that would counts, Decision 3): the board alone does not show it.
            TurnPart::Move if self.loser.is_some() && !self.loss_visible() => {
                format!("{} {SELF_CHECK_FIELD}", self.board.fen())
            }
            TurnPart::Move => self.board.fen(),
        }
    }

    fn scene(&self, _viewer: Viewer) -> Scene {
        Scene::single(self.board.standard_scene())
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        self.board.legend()
    }

    fn move_shape(&self, part: AvalanchePart) -> MoveShape {
        match part {
            AvalanchePart::Move(mv) => MoveShape {
                part: Some("move"),
                ..self.board.standard_move_shape(mv)
            },
            AvalanchePart::Push {
                from,
                to,
                promotion,
            } => {
                let spec = self.board.spec();
                MoveShape {
                    from: Some(spec.geometry.label(from).to_string()),
                    to: Some(spec.geometry.label(to).to_string()),
                    promotion: promotion.map(|k| spec.pieces[k as usize].symbol.clone()),
                    part: Some("push"),
                    ..MoveShape::default()
                }
            }
        }
    }

    fn move_text(&self, part: AvalanchePart) -> String {
        match part {
            AvalanchePart::Move(mv) => self.board.move_text(mv),
            AvalanchePart::Push {
                from,
                to,
                promotion,
            } => {
                let g = &self.spec().geometry;
                let mut text = format!("{}{}", g.label(from), g.label(to));
                if let Some(k) = promotion {
                    text.push_str(&self.spec().pieces[k as usize].symbol.to_lowercase());
                }
                text
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<AvalanchePart, MoveError> {
        if text.is_empty() || text.len() > 16 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if let Some(&mv) = moves.iter().find(|&&m| self.move_text(m) == text) {
            return Ok(mv);
        }
        match self.board.parse_move(text) {
            Err(MoveError::Malformed(m)) => Err(MoveError::Malformed(m)),
            _ => Err(MoveError::Illegal(excerpt(text))),
        }
    }

    fn describe(&self, part: AvalanchePart) -> Option<MoveDescription> {
        match part {
            AvalanchePart::Move(mv) => self.board.describe(mv),
            AvalanchePart::Push {
                from,
                to,
                promotion,
            } => {
                let g = &self.spec().geometry;
                Some(MoveDescription {
                    piece: "P".into(),
                    pawn: true,
                    from: Some(g.label(from).to_string()),
                    to: g.label(to).to_string(),
                    capture: false,
                    promotion: promotion.map(|k| self.spec().pieces[k as usize].symbol.clone()),
                    castling: None,
                })
            }
        }
    }

    fn whole_turns(&self) -> bool {
        true
    }

    /// `move;push`, or `move;-` for a turn without a push.
    fn turn_text(&self, parts: &[String]) -> String {
        match parts {
            [only] if self.part == TurnPart::Move => format!("{only};-"),
            _ => parts.join(";"),
        }
    }
}

impl Ruleset for AvalanchePosition {
    const ID: &'static str = "avalanche";

    fn option_specs() -> &'static [OptionSpec] {
        AvalancheParts::option_specs()
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}

/// Splits a whole turn written `move;push` (`e2e4;d7d6`, `e2e4;-`) into its parts' texts;
/// `-` (no push possible) gives no second part. Text without `;` is one part.
pub fn turn_parts(text: &str) -> Vec<&str> {
    text.split(';').filter(|p| *p != "-").collect()
}
