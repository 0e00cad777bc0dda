//! Bughouse (`bughouse`): two linked chess boards, four seats in two teams; see
//! `docs/rules/bughouse.md`.
//!
//! Each board is a [`BoardPosition`]: chess with drops on the standard position, whose hands
//! are fed from outside (captures do not go to the captor's hand) and whose promoted pieces are
//! kinds of their own (`Q~`, `R~`, `B~`, `N~`) so that a captured one is passed on as a pawn.
//! [`BughousePosition`] links the two boards in the rules file's turn-based mode: the four
//! seats act in the fixed slot cycle A-White, B-White, A-Black, B-Black, slots that must pass
//! pass automatically, and the [`Position`] trait sees only the seats that must act.
//! Real-time play uses [`BughousePosition::play_on_board`] with a [`Clock`] per seat.
//!
//! Seats (player numbers of the trait) follow the slot order: 0 = A-White, 1 = B-White,
//! 2 = A-Black, 3 = B-Black. Team 1 = seats 0 and 3, team 2 = seats 1 and 2.
//! Move texts are the board's coordinate notation (`e2e4`, `e7e8q`, `N@e4`): the slot
//! decides the board. The game's record is BPGN ([`bpgn`]), which the ruleset offers
//! through [`Ruleset::own_record`].

pub mod bpgn;

use crate::family;
use chaturanga_rules::clock::{Clock, TimeControl};
use chaturanga_rules::outcome::{Outcome, Reason};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{Move, Rules, Spec, SpecError, StandardPosition, spec_for};
use chaturanga_rules::{
    DrawRules, FenError, MoveError, MoveValue, OptionSpec, OptionValues, OwnRecord, Piece,
    Position, RuleOptions, Ruleset, SetupError, SetupProblem,
};

/// The rules of one bughouse board.
#[derive(Clone, Copy, Default, Debug)]
pub struct BughouseBoard;

/// One bughouse board: chess with drops, pockets in the FEN's `[...]`.
pub type BoardPosition = StandardPosition<1, 10, BughouseBoard>;

/// The start FEN of each board.
pub const BOARD_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// Kind numbers of the board spec.
const PAWN: u8 = 0;
const KNIGHT: u8 = 1;
const FIRST_PROMOTED: u8 = 6;

impl Rules<1, 10> for BughouseBoard {
    const ID: &'static str = "bughouse";

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .region(
                "pawn-drop",
                family::mirrored_ranks(8, 8, &[1, 2, 3, 4, 5, 6]),
            )
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        pieces[PAWN as usize] = family::pawn("fmWfceFifmnD", &["Q~", "R~", "B~", "N~"])?;
        for (symbol, name, betza) in [
            ("Q~", "promoted queen", "Q"),
            ("R~", "promoted rook", "R"),
            ("B~", "promoted bishop", "B"),
            ("N~", "promoted knight", "N"),
        ] {
            pieces.push(family::piece(symbol, name, betza)?.demotes_to("P"));
        }
        let mut spec = family::with(
            family::builder(Self::ID, geometry, options)
                .draw_rules(DrawRules::default())
                .drop_zone("P", "pawn-drop"),
            pieces,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        .start(BOARD_START_FEN)
        .build()?;
        spec.hands_always_shown = true;
        spec.drops_reset_quiet_plies = true;
        Ok(spec)
    }

    fn validate(position: &BoardPosition) -> Vec<SetupProblem> {
        let mut problems = family::pawns_on_first_rank(position);
        for player in 0..2 {
            for kind in FIRST_PROMOTED..10 {
                if position.in_hand(player, kind) > 0 {
                    problems.push(SetupProblem::Other(
                        "a promoted piece cannot be in a pocket".into(),
                    ));
                }
            }
        }
        problems
    }

    /// Checkmate by the bughouse definition (see [`board_state`]); otherwise the player waits,
    /// which a lone board reports as no legal moves (the linked game never asks it then).
    fn outcome_without_moves(position: &BoardPosition) -> Outcome {
        if board_state(position) == BoardState::Mated {
            Outcome::loss(2, position.side_to_move(), Reason::Checkmate)
        } else {
            Outcome::draw(2, Reason::NoLegalMoves)
        }
    }
}

/// What the player to move on a board can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardState {
    /// Has a legal move or drop.
    Active,
    /// Checkmated: in check, no legal move or drop, and no drop of any piece on any empty cell
    /// would end the check.
    Mated,
    /// No legal move or drop, but not mated: waits for a piece from the partner.
    Waiting {
        /// Whether the waiting player is in check.
        in_check: bool,
    },
}

/// The state of the player to move on `board` under the rules file's mate definition.
pub fn board_state(board: &BoardPosition) -> BoardState {
    if board.count_legal_moves() > 0 {
        return BoardState::Active;
    }
    if !board.is_check() {
        return BoardState::Waiting { in_check: false };
    }
    let us = board.turn();
    let Some(king) = board.royal_cell(us) else {
        return BoardState::Waiting { in_check: true };
    };
    // Any piece blocks the same way; a knight may stand on every cell a pawn may.
    let blockable = board
        .spec()
        .cells
        .without(board.occupied())
        .into_iter()
        .any(|cell| {
            let mut probe = board.clone();
            probe.place_piece(cell, Piece::new(us, KNIGHT));
            !probe.attacked(king, 1 - us, probe.occupied())
        });
    if blockable {
        BoardState::Waiting { in_check: true }
    } else {
        BoardState::Mated
    }
}

/// The team of a seat: 0 (A-White, B-Black) or 1 (B-White, A-Black).
pub fn team(seat: usize) -> usize {
    if seat == 0 || seat == 3 { 0 } else { 1 }
}

/// The seat playing `colour` (0 White, 1 Black) on `board` (0 = A, 1 = B).
pub fn seat(board: usize, colour: usize) -> usize {
    colour * 2 + board
}

/// The outcome in which `team` (0 or 1) loses and the other team wins.
pub fn team_loss(losing_team: usize, reason: Reason) -> Outcome {
    let quarters = (0..4)
        .map(|s| if team(s) == losing_team { 0 } else { 4 })
        .collect();
    Outcome { quarters, reason }
}

/// Timing mode of a bughouse game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Four game clocks; either board moves whenever its side is to move.
    RealTime,
    /// The fixed four-slot cycle with automatic passes.
    TurnBased,
}

/// A move of the linked game: a move or drop on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BughouseMove {
    /// 0 = board A, 1 = board B.
    pub board: u8,
    /// The move on that board.
    pub mv: Move,
}

/// The whole bughouse game position: both boards with their pockets and, in turn-based mode,
/// the slot whose seat must act.
#[derive(Clone, Debug)]
pub struct BughousePosition {
    boards: [BoardPosition; 2],
    /// Seat whose slot it is (always one who must act while the game goes on).
    slot: usize,
    timing: Timing,
    plies: u32,
    outcome: Option<Outcome>,
}

const SLOT_KEYS: [u64; 4] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0x2545_f491_4f6c_dd1d,
];

const BOARD_NAMES: [&str; 2] = ["A", "B"];

impl BughousePosition {
    /// The two boards (A, B).
    pub fn boards(&self) -> &[BoardPosition; 2] {
        &self.boards
    }

    /// The timing mode.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// The seat whose slot it is (turn-based mode).
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// The game's result, once a decisive event or a turn-based ending rule has ended it.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Ends the game with `outcome` (resignation, flag, deadline, agreement).
    pub fn end(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// Builds a position from both boards, with `slot` the first candidate slot; passes
    /// automatic slots and applies the ending rules.
    pub fn from_boards(boards: [BoardPosition; 2], slot: usize, timing: Timing) -> Self {
        let mut p = BughousePosition {
            boards,
            slot: slot % 4,
            timing,
            plies: 0,
            outcome: None,
        };
        p.settle(p.slot);
        p
    }

    /// Checks for mate on either board, then (turn-based) finds the next seat that must act
    /// from `first` on, ending the game after a full cycle of passes.
    fn settle(&mut self, first: usize) {
        for b in 0..2 {
            if board_state(&self.boards[b]) == BoardState::Mated {
                let mated = seat(b, self.boards[b].turn() as usize);
                self.outcome = Some(team_loss(team(mated), Reason::Checkmate));
                return;
            }
        }
        for i in 0..4 {
            let s = (first + i) % 4;
            let board = &self.boards[s % 2];
            if board.turn() as usize == s / 2 && board.count_legal_moves() > 0 {
                self.slot = s;
                return;
            }
        }
        if self.timing == Timing::RealTime {
            // Real time: players wait for pieces while their clocks run.
            return;
        }
        let mut losing = [false; 2];
        for b in 0..2 {
            let board = &self.boards[b];
            if board.is_check() {
                losing[team(seat(b, board.turn() as usize))] = true;
            }
        }
        self.outcome = Some(match losing {
            [true, false] => team_loss(0, Reason::NoProgress),
            [false, true] => team_loss(1, Reason::NoProgress),
            _ => Outcome::draw(4, Reason::NoProgress),
        });
    }

    /// Plays `mv` on `board`, passing a captured piece to the capturer's partner.
    fn apply(&mut self, board: usize, mv: Move) {
        self.boards[board].play_unchecked(mv);
        if mv.captured.is_some() {
            let spec = self.boards[board].spec();
            let kind = spec.demoted[mv.captured.kind() as usize];
            let colour = mv.captured.player();
            let other = &mut self.boards[1 - board];
            let n = other.in_hand(colour, kind);
            other.set_in_hand(colour, kind, n.saturating_add(1).min(62));
        }
        self.plies += 1;
    }

    /// Real-time play: plays a move in coordinate notation on `board` (0 = A, 1 = B) for
    /// whoever is to move there, regardless of slots.
    pub fn play_on_board(&mut self, board: usize, text: &str) -> Result<Move, MoveError> {
        if let Some(o) = &self.outcome {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let b = self
            .boards
            .get(board)
            .ok_or_else(|| MoveError::Malformed(format!("board {board}")))?;
        let mv = b.parse_move(&promoted_text(text))?;
        self.apply(board, mv);
        let next = (self.slot + 1) % 4;
        self.settle(next);
        Ok(mv)
    }

    /// Real-time play of a move already read on `board`'s position (BPGN import, drivers):
    /// refused unless it is legal there and the game goes on.
    pub fn play_board_move(&mut self, board: usize, mv: Move) -> Result<(), MoveError> {
        if let Some(o) = &self.outcome {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let b = self
            .boards
            .get(board)
            .ok_or_else(|| MoveError::Malformed(format!("board {board}")))?;
        let mut legal = Vec::new();
        b.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            // Not `move_text`: a move built elsewhere may name cells this board lacks.
            return Err(MoveError::Illegal(excerpt(&format!("{mv:?}"))));
        }
        self.apply(board, mv);
        let next = (self.slot + 1) % 4;
        self.settle(next);
        Ok(())
    }

    /// Reads `A:<fen> | B:<fen>` with an optional ` | slot:<1-4>`.
    pub fn from_fen(fen: &str, timing: Timing) -> Result<Self, SetupError> {
        if fen.len() > 4096 {
            return Err(SetupError::Fen(FenError::TooLong(fen.len())));
        }
        let bad = |what: &str| SetupError::Fen(FenError::Turn(format!("{what}: {}", excerpt(fen))));
        let spec = spec_for::<1, 10, BughouseBoard>(&RuleOptions::default())
            .map_err(|e| SetupError::Spec(e.clone()))?;
        let parts: Vec<&str> = fen.split('|').map(str::trim).collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(bad("expected A:<fen> | B:<fen> [| slot:<n>]"));
        }
        let a = parts[0].strip_prefix("A:").ok_or_else(|| bad("board A"))?;
        let b = parts[1].strip_prefix("B:").ok_or_else(|| bad("board B"))?;
        let slot = match parts.get(2) {
            None => 0,
            Some(s) => match s.strip_prefix("slot:") {
                Some("1") => 0,
                Some("2") => 1,
                Some("3") => 2,
                Some("4") => 3,
                _ => return Err(bad("slot")),
            },
        };
        let a = BoardPosition::from_fen(spec, a.trim())?;
        let b = BoardPosition::from_fen(spec, b.trim())?;
        Ok(Self::from_boards([a, b], slot, timing))
    }
}

/// Maps chess promotion letters to this board's promoted kinds (`e7e8q` → `e7e8q~`).
fn promoted_text(text: &str) -> String {
    match text.chars().last() {
        Some('q' | 'r' | 'b' | 'n') if !text.contains('@') && text.len() >= 5 => {
            format!("{text}~")
        }
        _ => text.to_string(),
    }
}

impl Position for BughousePosition {
    type Move = BughouseMove;

    fn players(&self) -> usize {
        4
    }

    fn side_to_move(&self) -> usize {
        self.slot
    }

    fn movers(&self) -> Vec<usize> {
        match (self.timing, &self.outcome) {
            (_, Some(_)) => Vec::new(),
            (Timing::TurnBased, None) => vec![self.slot],
            // In real time each board's side to move may move, also while he waits for a piece.
            (Timing::RealTime, None) => {
                let mut seats: Vec<usize> = (0..2)
                    .map(|b| seat(b, self.boards[b].turn() as usize))
                    .collect();
                seats.sort_unstable();
                seats
            }
        }
    }

    fn as_mover(&self, player: usize) -> Option<Self> {
        if !self.movers().contains(&player) {
            return None;
        }
        let mut view = self.clone();
        view.slot = player;
        Some(view)
    }

    fn waits_without_moves(&self) -> bool {
        self.timing == Timing::RealTime && self.outcome.is_none()
    }

    fn legal_moves(&self, moves: &mut Vec<BughouseMove>) {
        if self.outcome.is_some() {
            return;
        }
        let board = self.slot % 2;
        let mut inner = Vec::new();
        self.boards[board].legal_moves(&mut inner);
        moves.extend(inner.into_iter().map(|mv| BughouseMove {
            board: board as u8,
            mv,
        }));
    }

    fn play_unchecked(&mut self, mv: BughouseMove) {
        self.apply(mv.board as usize, mv.mv);
        let next = (self.slot + 1) % 4;
        self.settle(next);
    }

    fn team(&self, player: usize) -> usize {
        team(player)
    }

    fn player_name(&self, player: usize) -> &'static str {
        ["A-white", "B-white", "A-black", "B-black"][player]
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for (b, board) in self.boards.iter().enumerate() {
            out.push_str(&format!("board {}\n{}", BOARD_NAMES[b], board.diagram()));
        }
        out.push_str(&format!(
            "{} to move\n",
            self.player_name(self.side_to_move())
        ));
        out
    }

    /// Both boards from the side of `player`'s team there (pockets included).
    fn evaluate(&self, player: usize) -> i32 {
        let us = team(player);
        (0..2)
            .map(|b| {
                let colour = (0..2).find(|&c| team(seat(b, c)) == us).unwrap_or(0);
                self.boards[b].evaluate(colour)
            })
            .sum()
    }

    fn move_value(&self, mv: BughouseMove) -> MoveValue {
        self.boards[mv.board as usize].move_value(mv.mv)
    }

    fn hash(&self) -> u64 {
        let boards = self.boards[0].hash() ^ self.boards[1].hash().rotate_left(17);
        // The slot is part of the position only in turn-based mode (its FEN says so); in
        // real time the position is the two boards, whoever the trait lets move next.
        match self.timing {
            Timing::TurnBased => boards ^ SLOT_KEYS[self.slot],
            _ => boards,
        }
    }

    fn is_check(&self) -> bool {
        self.boards[self.slot % 2].is_check()
    }

    fn outcome_without_moves(&self) -> Outcome {
        self.outcome
            .clone()
            .unwrap_or_else(|| Outcome::draw(4, Reason::NoLegalMoves))
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn quiet_plies(&self) -> u32 {
        // Pockets change with every capture and drop, so the whole game is one repetition
        // window.
        self.plies
    }

    fn draw_rules(&self) -> DrawRules {
        match self.timing {
            Timing::TurnBased => DrawRules {
                repetition: Some((3, Reason::ThreefoldRepetition)),
                ..DrawRules::default()
            },
            Timing::RealTime => DrawRules::default(),
        }
    }

    fn ply(&self) -> u32 {
        self.plies
    }

    fn fen(&self) -> String {
        let mut s = format!("A:{} | B:{}", self.boards[0].fen(), self.boards[1].fen());
        if self.timing == Timing::TurnBased {
            s.push_str(&format!(" | slot:{}", self.slot + 1));
        }
        s
    }

    /// Both boards; each man and pocket is owned by its seat (`A-white` = 0, `B-white` = 1,
    /// `A-black` = 2, `B-black` = 3).
    fn scene(&self, _viewer: Viewer) -> Scene {
        let boards = (0..2)
            .map(|b| {
                let mut board = self.boards[b].standard_scene();
                for man in &mut board.men {
                    man.owner = seat(b, man.owner);
                }
                for hand in &mut board.hands {
                    hand.owner = seat(b, hand.owner);
                }
                board
            })
            .collect();
        Scene {
            boards,
            complete: true,
            note: None,
        }
    }

    fn move_shape(&self, mv: BughouseMove) -> MoveShape {
        let board = mv.board as usize % 2;
        MoveShape {
            board,
            ..self.boards[board].standard_move_shape(mv.mv)
        }
    }

    /// Both boards have one piece table.
    fn legend(&self) -> chaturanga_rules::Legend {
        self.boards[0].legend()
    }

    fn move_text(&self, mv: BughouseMove) -> String {
        self.boards[mv.board as usize % 2]
            .move_text(mv.mv)
            .replace('~', "")
    }

    fn parse_move(&self, text: &str) -> Result<BughouseMove, MoveError> {
        if text.len() > 64 || text.is_empty() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        // An optional board prefix `A:`/`B:` must name the slot's board.
        let board = self.slot % 2;
        let text = match text.split_once(':') {
            Some((name, rest)) if name == BOARD_NAMES[board] => rest,
            Some(_) => return Err(MoveError::Illegal(excerpt(text))),
            None => text,
        };
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }

    /// `bpgn`: the SAN of the bughouse record (`Nf3`, `P@e4`, `e8=Q`, `#` for the bughouse
    /// mate), so that people and programs may write moves as the records do.
    fn notations(&self) -> &'static [&'static str] {
        &[BPGN_NOTATION]
    }

    fn write_move(&self, notation: &str, mv: BughouseMove) -> Option<String> {
        (notation == BPGN_NOTATION)
            .then(|| bpgn::board_san(&self.boards[mv.board as usize % 2], mv.mv).ok())
            .flatten()
    }

    /// Reads the record's SAN on the board of the player to move (with the record's
    /// leniency: check marks, `x` and `=` may be left out).
    fn read_move(&self, notation: &str, text: &str) -> Result<BughouseMove, MoveError> {
        if notation != BPGN_NOTATION {
            return Err(MoveError::Malformed(format!(
                "no {} notation here",
                excerpt(notation)
            )));
        }
        if self.outcome.is_some() {
            return Err(MoveError::Illegal(excerpt(text)));
        }
        let board = self.slot % 2;
        bpgn::find_move(&self.boards[board], text).map(|mv| BughouseMove {
            board: board as u8,
            mv,
        })
    }
}

/// The name of the bughouse record's SAN among the position's notations.
const BPGN_NOTATION: &str = "bpgn";

/// The rule options of bughouse.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "timing",
        values: OptionValues::Choice(&["realtime", "turn-based"]),
        default: "realtime",
        help: "real-time clocks, or the fixed four-slot cycle with automatic passes",
        label: "Timing",
        words: &[
            ("realtime", "Every player has a real-time clock"),
            (
                "turn-based",
                "Turns come in a fixed cycle of four slots, with automatic passes",
            ),
        ],
    },
    OptionSpec {
        name: "clock",
        values: OptionValues::TimeControl,
        default: "3+0",
        help: "real-time control per player: minutes + increment seconds",
        label: "Clock",
        words: &[("*", "Each player has {} (minutes + seconds added a move)")],
    },
    OptionSpec {
        name: "slot-deadline",
        values: OptionValues::Duration,
        default: "24h",
        help: "turn-based mode: time to act in a slot before the team loses",
        label: "Slot deadline",
        words: &[(
            "*",
            "In turn-based play, a team that does not act within {} of its slot loses",
        )],
    },
];

/// The timing mode chosen by `options`.
pub fn timing(options: &RuleOptions) -> Timing {
    match options.get("timing") {
        Some("turn-based") => Timing::TurnBased,
        _ => Timing::RealTime,
    }
}

/// The time control of a real-time game under `options` (`clock=M+S`; 3+0 by default).
pub fn time_control(options: &RuleOptions) -> TimeControl {
    options
        .get("clock")
        .and_then(|c| TimeControl::parse(c).ok())
        .unwrap_or(TimeControl::fischer(
            std::time::Duration::from_secs(180),
            std::time::Duration::ZERO,
        ))
}

/// The four game clocks (one per seat) of a real-time game under `options`.
pub fn clocks(options: &RuleOptions) -> Clock {
    Clock::new(time_control(options), 4)
}

/// The per-slot deadline of a turn-based game under `options` (`slot-deadline`; 24 hours by
/// default).
pub fn slot_deadline(options: &RuleOptions) -> std::time::Duration {
    options
        .get("slot-deadline")
        .and_then(|d| chaturanga_rules::clock::parse_duration(d).ok())
        .unwrap_or(std::time::Duration::from_secs(24 * 3600))
}

impl Ruleset for BughousePosition {
    const ID: &'static str = "bughouse";

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start_position(options: &RuleOptions) -> Result<Self, SetupError> {
        let fen = format!("A:{BOARD_START_FEN} | B:{BOARD_START_FEN}");
        Self::from_fen(&fen, timing(options))
    }

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(fen, timing(options))
    }

    fn own_clock(options: &RuleOptions) -> Option<TimeControl> {
        Some(match timing(options) {
            Timing::RealTime => time_control(options),
            Timing::TurnBased => TimeControl::per_move(slot_deadline(options)),
        })
    }

    fn own_record() -> Option<OwnRecord<Self>> {
        Some(OwnRecord {
            format: "bpgn",
            write: |game, header| Ok(bpgn::write_recorded(game, header)?),
            read: |text| Ok(bpgn::read_games(text)?),
        })
    }
}
