//! Taktika (`taktika`): rooks, bishops and queens without kings or pawns; a man that lands
//! next to enemy men flips them between active and frozen, Othello-like, and a player left
//! without a legal move loses; see `docs/rules/taktika.md`.
//!
//! The state of a man is part of its kind: the spec has six piece types, the three active
//! men `R B Q` (Betza `mR mB mQ`, or `R B Q` under `captures=on`) and their frozen forms
//! `-R -B -Q`, which have no moves. A flip swaps the two kinds, so the Zobrist keys, the FEN
//! board (`-R` is a frozen white rook, `-q` a frozen black queen) and the move tables need
//! nothing beyond the shared core. There is no check, so every move the tables give an active
//! man is legal.
//!
//! Decisions where the rules file leaves a choice (the file's own decisions are followed as
//! written):
//! - The no-flip counter (FEN field 5) counts plies since the last move that flipped a man;
//!   under `captures=on` a capture without a flip does not reset it (the file's draw rule
//!   names flips only).
//! - The castling and en passant fields are always `-`; a reader refuses anything else.
//!   Missing trailing fields take the defaults `w - - 0 1`, as in the other rulesets.
//! - FEN reading accepts any men the board letters name (no count limits): the rules never
//!   create men, but composed positions are harmless, and a side with no active man simply
//!   loses when it is to move.
//! - Moves are coordinate moves (`c1c7`); under `captures=on` a capture is written the same
//!   way. The SAN facts give `Rc7`, `Qxa8` (no pawns, no promotion, no check).

use chaturanga_geometry::{Cell, CellSet, GeometryBuilder};
use chaturanga_rules::board::{Board, no_more_fields, read_counters, read_turn};
use chaturanga_rules::options::cached;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{
    FenError, MAX_FEN_LEN, SetupError, Spec, SpecBuilder, SpecError, parse_board, write_board,
};
use chaturanga_rules::standard::{pieces_text, scene_men};
use chaturanga_rules::{
    DrawRules, MoveDescription, MoveError, MoveValue, OptionSpec, Outcome, Piece, Player, Position,
    Reason, RuleOptions, Ruleset,
};

use crate::family;

/// Active kinds are `0..FROZEN` (rook, bishop, queen); kind `k + FROZEN` is the frozen form
/// of kind `k`.
const FROZEN: u8 = 3;
/// The three kinds of men, active and frozen.
const KINDS: usize = 2 * FROZEN as usize;

/// The start position.
pub const START_FEN: &str = "qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w - - 0 1";

const CAPTURES: OptionSpec = OptionSpec::switch(
    "captures",
    "off",
    "on: an active man may also capture an enemy man (active or frozen) as the chess piece does",
)
.explained(
    "Captures",
    &[
        (
            "on",
            "An active man may also capture an enemy man as the chess piece does",
        ),
        ("off", "Men never capture"),
    ],
);

/// The four orthogonal directions: the only lines along which men flip.
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn build_spec(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
    let geometry = GeometryBuilder::rectangle(8, 8)
        .build()
        .map_err(family::board_error)?;
    let captures = options.is_on("captures");
    // Active men move as the chess pieces do; without captures only onto empty cells.
    let (rook, bishop, queen) = if captures {
        ("R", "B", "Q")
    } else {
        ("mR", "mB", "mQ")
    };
    // The flips are code, so the legend says them in words.
    let landing = if captures {
        "moving or capturing; then the enemy men it encloses with a friend along a rank or file, or lands between, switch between active and frozen"
    } else {
        "to an empty cell; then the enemy men it encloses with a friend along a rank or file, or lands between, switch between active and frozen"
    };
    let frozen = "does not move until the opponent flips it back; blocks lines";
    let pieces = [
        family::piece("R", "rook", rook)?
            .in_words(&format!("any distance along a rank or file, {landing}")),
        family::piece("B", "bishop", bishop)?
            .in_words(&format!("any distance diagonally, {landing}")),
        family::piece("Q", "queen", queen)?.in_words(&format!(
            "any distance along a rank, file or diagonal, {landing}"
        )),
        // Frozen men occupy their cell and block lines but never move: no moves, no diagram.
        family::piece("-R", "frozen rook", "")?.in_words(frozen),
        family::piece("-B", "frozen bishop", "")?.in_words(frozen),
        family::piece("-Q", "frozen queen", "")?.in_words(frozen),
    ];
    let mut builder = SpecBuilder::new("taktika", geometry)
        .options(options.clone())
        .draw_rules(DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: Some((100, Reason::NoProgress)),
            quiet_plies_claim: None,
            ply_cap: None,
        })
        .start(START_FEN);
    for p in pieces {
        builder = builder.piece(p);
    }
    builder.build()
}

/// The compiled ruleset for an option set (built once per setting).
fn spec(options: &RuleOptions) -> Result<&'static Spec<1>, SetupError> {
    cached::<TaktikaPosition, Spec<1>, SpecError>(options, || build_spec(options))
        .map_err(|e| SetupError::Spec(e.clone()))
}

/// A Taktika move: an active man goes from one cell to another (capturing there only under
/// `captures=on`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TaktikaMove {
    /// Start cell.
    pub from: Cell,
    /// Destination.
    pub to: Cell,
}

/// A Taktika position.
#[derive(Clone, Debug)]
pub struct TaktikaPosition {
    spec: &'static Spec<1>,
    /// The men; its quiet plies count the plies since the last move that flipped a man.
    board: Board<1, 2, KINDS>,
}

impl TaktikaPosition {
    /// The man on `cell` ([`Piece::NONE`] if empty).
    pub fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    /// Whether the man on `cell` is frozen (false for an empty cell).
    pub fn is_frozen(&self, cell: Cell) -> bool {
        let p = self.piece_at(cell);
        p.is_some() && p.kind() >= FROZEN
    }

    /// A cell by label (`d5`).
    pub fn cell(&self, label: &str) -> Option<Cell> {
        self.spec.cell(label)
    }

    fn occupied(&self) -> CellSet<1> {
        self.board.occupied()
    }

    fn put(&mut self, cell: Cell, piece: Piece) {
        self.board.put(&self.spec.zobrist, cell, piece);
    }

    fn take(&mut self, cell: Cell) -> Piece {
        self.board.take(&self.spec.zobrist, cell)
    }

    /// The enemy men that flip when a man of the player to move has just landed on `to`
    /// (computed on the position after the move, as the rules prescribe).
    fn flips(&self, to: Cell) -> CellSet<1> {
        let g = &self.spec.geometry;
        let us = self.board.turn();
        let friends = self.board.of_player(us);
        let enemies = self.board.of_player(1 - us);
        let (x, y) = g.coords(to);
        let mut flips = CellSet::EMPTY;
        // Enclosure: an unbroken run of enemy men next to the landing cell, closed by a
        // friendly man of either state.
        for (dx, dy) in ORTHOGONAL {
            let mut run = CellSet::EMPTY;
            let mut step = 1;
            while let Some(c) = g.at(x + dx * step, y + dy * step) {
                if enemies.contains(c) {
                    run.insert(c);
                    step += 1;
                    continue;
                }
                if friends.contains(c) {
                    flips |= run;
                }
                break;
            }
        }
        // Intrusion: landing between two enemy men on opposite sides flips both.
        for (dx, dy) in [(1, 0), (0, 1)] {
            if let (Some(a), Some(b)) = (g.at(x - dx, y - dy), g.at(x + dx, y + dy))
                && enemies.contains(a)
                && enemies.contains(b)
            {
                flips.insert(a);
                flips.insert(b);
            }
        }
        // A set, so a man caught by several directions or both rules flips once.
        flips
    }

    fn generate(&self, moves: &mut Vec<TaktikaMove>) {
        let us = self.board.turn();
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let enemy = self.board.of_player(1 - us);
        for from in self.board.of_player(us) {
            let kind = self.piece_at(from).kind();
            if kind >= FROZEN {
                continue;
            }
            let (quiet, captures) = self
                .spec
                .moves
                .reach(us, kind, from, occupied, empty, enemy);
            for to in quiet | captures {
                moves.push(TaktikaMove { from, to });
            }
        }
    }

    /// Reads a Taktika FEN: board (`-` before a frozen man's letter), side to move, `-`, `-`,
    /// the no-flip counter in plies, the move number. Missing trailing fields take their
    /// defaults.
    pub fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let spec = spec(options)?;
        let mut fields = fen.split_whitespace();
        let pieces = parse_board(spec, fields.next().ok_or(FenError::Empty)?)?;
        let turn = read_turn(fields.next(), "w", "b")?;
        match fields.next() {
            None | Some("-") => {}
            Some(c) => return Err(FenError::Castling(excerpt(c)).into()),
        }
        match fields.next() {
            None | Some("-") => {}
            Some(e) => return Err(FenError::EnPassant(excerpt(e)).into()),
        }
        let (quiet_plies, fullmove) = read_counters(&mut fields)?;
        no_more_fields(fields)?;
        let mut position = TaktikaPosition {
            spec,
            board: Board::empty(spec.zobrist.turn[0]),
        };
        for (cell, piece) in pieces {
            position.put(cell, piece);
        }
        position.board.set_turn(&spec.zobrist, turn);
        position.board.quiet_plies = quiet_plies;
        position.board.fullmove = fullmove;
        Ok(position)
    }
}

/// Worth of an active man: the game is won by freezing or blocking every enemy man.
const ACTIVE_VALUE: i32 = 150;
/// Worth of a frozen man (it still blocks lines and may be freed by the opponent's flips).
const FROZEN_VALUE: i32 = 20;
/// Worth of each cell an active man can move to: leaving the opponent no move is the goal.
const MOBILITY_VALUE: i32 = 6;
/// Bonus for having the move.
const TEMPO: i32 = 10;

impl TaktikaPosition {
    /// Men and mobility of `player`: what the evaluation counts.
    fn strength(&self, player: Player) -> i32 {
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let enemy = self.board.of_player(1 - player);
        let mut total = 0;
        for cell in self.board.of_player(player) {
            let kind = self.piece_at(cell).kind();
            if kind >= FROZEN {
                total += FROZEN_VALUE;
                continue;
            }
            let (quiet, captures) = self
                .spec
                .moves
                .reach(player, kind, cell, occupied, empty, enemy);
            total += ACTIVE_VALUE + MOBILITY_VALUE * (quiet | captures).count() as i32;
        }
        total
    }

    /// The men of `player` as the evaluation values them, without mobility.
    fn men_value(&self, player: Player) -> i32 {
        self.board
            .of_player(player)
            .iter()
            .map(|c| {
                if self.is_frozen(c) {
                    FROZEN_VALUE
                } else {
                    ACTIVE_VALUE
                }
            })
            .sum()
    }
}

impl Position for TaktikaPosition {
    type Move = TaktikaMove;

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<TaktikaMove>) {
        self.generate(moves);
    }

    fn count_legal_moves(&self) -> u64 {
        let us = self.board.turn();
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let enemy = self.board.of_player(1 - us);
        let mut n = 0;
        for from in self.board.of_player(us) {
            let kind = self.piece_at(from).kind();
            if kind < FROZEN {
                let (quiet, captures) = self
                    .spec
                    .moves
                    .reach(us, kind, from, occupied, empty, enemy);
                n += (quiet | captures).count() as u64;
            }
        }
        n
    }

    fn play_unchecked(&mut self, mv: TaktikaMove) {
        let us = self.board.turn();
        if self.piece_at(mv.to).is_some() {
            self.take(mv.to);
        }
        let man = self.take(mv.from);
        self.put(mv.to, man);
        let flips = self.flips(mv.to);
        for cell in flips {
            let p = self.take(cell);
            let kind = p.kind();
            let flipped = if kind >= FROZEN {
                kind - FROZEN
            } else {
                kind + FROZEN
            };
            self.put(cell, Piece::new(p.player(), flipped));
        }
        self.board.quiet_plies = if flips.any() {
            0
        } else {
            self.board.quiet_plies + 1
        };
        if us == 1 {
            self.board.fullmove += 1;
        }
        self.board.set_turn(&self.spec.zobrist, 1 - us);
    }

    /// Frozen men are kinds of their own, written `-R`.
    fn scene(&self, _viewer: Viewer) -> Scene {
        Scene::single(scene_men(self.spec, |cell| self.piece_at(cell)))
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        chaturanga_rules::Legend::of_pieces(self.spec.style, &self.spec.pieces)
    }

    fn move_shape(&self, mv: TaktikaMove) -> MoveShape {
        let g = &self.spec.geometry;
        MoveShape {
            from: Some(g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            ..MoveShape::default()
        }
    }

    fn diagram(&self) -> String {
        let board = pieces_text(self.spec, |cell| self.piece_at(cell));
        let name = self.player_name(self.board.turn() as usize);
        format!("{board}(-: frozen) {name} to move\n")
    }

    fn evaluate(&self, player: usize) -> i32 {
        let us = player as Player;
        let tempo = if self.board.turn() == us {
            TEMPO
        } else {
            -TEMPO
        };
        self.strength(us) - self.strength(1 - us) + tempo
    }

    fn move_value(&self, mv: TaktikaMove) -> MoveValue {
        let them = 1 - self.board.turn();
        let mut next = self.clone();
        next.play_unchecked(mv);
        MoveValue {
            gain: self.men_value(them) - next.men_value(them),
            mover: ACTIVE_VALUE,
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_without_moves(&self) -> Outcome {
        Outcome::loss(2, self.board.turn() as usize, Reason::NoLegalMoves)
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    fn draw_rules(&self) -> DrawRules {
        self.spec.draw_rules
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            write_board(self.spec, |c| self.piece_at(c)),
            if self.board.turn() == 0 { 'w' } else { 'b' },
            self.board.quiet_plies,
            self.board.fullmove
        )
    }

    fn move_text(&self, mv: TaktikaMove) -> String {
        let g = &self.spec.geometry;
        format!("{}{}", g.label(mv.from), g.label(mv.to))
    }

    fn parse_move(&self, text: &str) -> Result<TaktikaMove, MoveError> {
        if text.is_empty() || text.len() > 8 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let Some((from, to)) = self.spec.geometry.cell_pair(text) else {
            return Err(MoveError::Malformed(excerpt(text)));
        };
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .into_iter()
            .find(|m| m.from == from && m.to == to)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }

    fn describe(&self, mv: TaktikaMove) -> Option<MoveDescription> {
        let g = &self.spec.geometry;
        let kind = self.piece_at(mv.from).kind();
        Some(MoveDescription {
            piece: self.spec.pieces[kind as usize].symbol.clone(),
            pawn: false,
            from: Some(g.label(mv.from).to_string()),
            to: g.label(mv.to).to_string(),
            capture: self.piece_at(mv.to).is_some(),
            promotion: None,
            castling: None,
        })
    }
}

impl Ruleset for TaktikaPosition {
    const ID: &'static str = "taktika";

    fn option_specs() -> &'static [OptionSpec] {
        &[CAPTURES]
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
