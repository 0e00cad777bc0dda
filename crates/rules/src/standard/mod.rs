//! The standard two-player position: one board, pieces compiled from Betza, optional royal
//! piece with check, castling, en passant and promotion as data.
//!
//! A ruleset using it supplies a [`Rules`] type: the compiled [`Spec`] and the few hooks
//! where it differs from the defaults (dead positions, extra FEN checks, the result when no
//! move is left). Everything else — move generation, legality, hashing, FEN — is shared.

mod diagram;
mod evaluation;
mod exchange;
mod fen;
mod movegen;
mod spec;

pub use diagram::{board_text, pieces_text, scene_men};
pub use evaluation::{EvalFeatures, board_evaluation, board_features};
pub use fen::{
    FenError, MAX_FEN_LEN, Setup, SetupError, SetupProblem, parse_board, parse_en_passant,
    write_board,
};
pub use spec::{
    Castling, CastlingDef, CastlingTable, FreeCastling, FreeRight, Notation, Promotion,
    PromotionZone, Spec, SpecBuilder, SpecError, TWO_PLAYER_ORIENTATIONS,
};

use crate::board::Board;
use crate::options::{OptionSpec, RuleOptions};
use crate::outcome::{Outcome, Reason};
use crate::piece::{Kind, Piece, Player};
use crate::position::{DrawRules, MoveError, Position, excerpt};
use chaturanga_geometry::{Cell, CellSet};
use std::fmt::Debug;
use std::marker::PhantomData;

/// What a ruleset on the standard position supplies.
pub trait Rules<const W: usize, const K: usize>:
    'static + Copy + Default + Send + Sync + Debug
{
    /// Ruleset id.
    const ID: &'static str;

    /// What the two players are called.
    const PLAYER_NAMES: [&'static str; 2] = ["white", "black"];

    /// Whether the search may prune with a pass ([`Position::null_move`]). True by default;
    /// a ruleset where self-play measured it as a loss turns it off.
    const NULL_MOVE_PRUNING: bool = true;

    /// The rule options the ruleset offers.
    fn option_specs() -> &'static [OptionSpec];

    /// Compiles the ruleset under these options.
    fn build(options: &RuleOptions) -> Result<Spec<W>, SpecError>;

    /// Whether no side can win any more (dead position by material). None by default.
    fn is_dead(_position: &StandardPosition<W, K, Self>) -> bool {
        false
    }

    /// Ruleset-specific problems of a position read from FEN. None by default.
    fn validate(_position: &StandardPosition<W, K, Self>) -> Vec<SetupProblem> {
        Vec::new()
    }

    /// The result when the player to move has no legal move: checkmate loses, stalemate draws.
    fn outcome_without_moves(position: &StandardPosition<W, K, Self>) -> Outcome {
        let mover = position.side_to_move();
        if position.is_check() {
            Outcome::loss(2, mover, Reason::Checkmate)
        } else if !position.spec().royal_kinds.is_empty() {
            Outcome::draw(2, Reason::Stalemate)
        } else {
            Outcome::draw(2, Reason::NoLegalMoves)
        }
    }

    /// Whether the turn passes after `mv` (it does by default; Maharajah's placement of the
    /// Maharajah before the first move does not).
    fn turn_passes(_position: &StandardPosition<W, K, Self>, _mv: &Move) -> bool {
        true
    }

    /// Judges a repetition that ends the game (a draw by default); see
    /// [`Position::judge_repetition`].
    fn judge_repetition(
        _cycle: &[StandardPosition<W, K, Self>],
        _moves: &[Move],
    ) -> Option<Outcome> {
        None
    }

    /// The search's verdict on a repetition in its tree; see
    /// [`Position::judge_repetition_in_search`].
    fn judge_repetition_in_search(
        _position: &StandardPosition<W, K, Self>,
        _perpetual: [bool; 2],
    ) -> Option<Outcome> {
        None
    }

    /// Actions the player to move may take instead of a move (shogi's impasse declaration).
    fn actions(_position: &StandardPosition<W, K, Self>) -> Vec<&'static str> {
        Vec::new()
    }

    /// The result of taking an action; an error if it is not available.
    fn perform(
        _position: &StandardPosition<W, K, Self>,
        action: &str,
    ) -> Result<Outcome, MoveError> {
        Err(MoveError::Illegal(excerpt(action)))
    }

    /// The ruleset's own move notations besides coordinate notation.
    fn notations() -> &'static [&'static str] {
        &[]
    }

    /// Writes a legal move in one of [`Rules::notations`].
    fn write_move(
        _position: &StandardPosition<W, K, Self>,
        _notation: &str,
        _mv: Move,
    ) -> Option<String> {
        None
    }

    /// Reads a move in one of [`Rules::notations`].
    fn read_move(
        _position: &StandardPosition<W, K, Self>,
        notation: &str,
        _text: &str,
    ) -> Result<Move, MoveError> {
        Err(MoveError::Malformed(format!(
            "no {} notation here",
            excerpt(notation)
        )))
    }

    /// Static evaluation from `player`'s point of view (the shared one by default; Losing
    /// chess inverts material). A ruleset that replaces it replaces
    /// [`Rules::eval_features`] too.
    fn evaluate(position: &StandardPosition<W, K, Self>, player: Player) -> i32 {
        position.standard_evaluation(player)
    }

    /// The features of [`Rules::evaluate`] for the tuner: the shared evaluation's by default,
    /// `None` where the ruleset evaluates otherwise.
    fn eval_features(position: &StandardPosition<W, K, Self>) -> Option<EvalFeatures> {
        Some(position.standard_features())
    }

    /// Narrows the cells where the player to move may drop `kind` (all of `cells` by default).
    fn drop_cells(
        _position: &StandardPosition<W, K, Self>,
        _kind: Kind,
        cells: CellSet<W>,
    ) -> CellSet<W> {
        cells
    }
}

/// The compiled spec of ruleset `R` under `options`, built once and kept for the process.
pub fn spec_for<const W: usize, const K: usize, R: Rules<W, K>>(
    options: &RuleOptions,
) -> Result<&'static Spec<W>, SpecError> {
    crate::options::cached::<R, Spec<W>, SpecError>(options, || {
        let spec = R::build(options)?;
        if spec.kinds() != K {
            return Err(SpecError::Size(format!(
                "{} defines {} piece kinds but is instantiated with {}",
                R::ID,
                spec.kinds(),
                K
            )));
        }
        Ok(spec)
    })
}

/// What a move does besides moving one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Special {
    /// Nothing special.
    Normal,
    /// Captures en passant: the captured piece is not on the destination.
    EnPassant,
    /// Puts a piece from the mover's hand on `to` (`from` is meaningless).
    Drop,
    /// Castling number `n` of the ruleset's list.
    Castle(u8),
}

/// A move on a [`StandardPosition`], with what notation and undo need.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Start cell (the king's, for castling).
    pub from: Cell,
    /// Destination (the king's, for castling).
    pub to: Cell,
    /// Kind of the moving piece.
    pub kind: Kind,
    /// Kind it promotes to, if it does.
    pub promotion: Option<Kind>,
    /// The captured piece, or [`Piece::NONE`].
    pub captured: Piece,
    /// Castling, en passant, double step.
    pub special: Special,
}

impl Move {
    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured.is_some()
    }
}

/// A position of a two-player ruleset on one board.
#[derive(Clone, Debug)]
pub struct StandardPosition<const W: usize, const K: usize, R> {
    spec: &'static Spec<W>,
    board: Board<W, 2, K>,
    hands: [[u8; K]; 2],
    castling: u16,
    /// What the castling rights are rights to: the ruleset's castlings, or those of the
    /// array the position was set up from (Chess960).
    castlings: &'static CastlingTable<W>,
    ep_targets: CellSet<W>,
    ep_victim: Cell,
    /// Cells of pieces that have moved in this game, kept only where it matters
    /// ([`Spec::unmoved_matters`]: Gliński's pawns on starting cells). A FEN cannot record it,
    /// so a position read from one has every piece unmoved. Not part of the hash: within a
    /// repetition window (no pawn move, no capture) it cannot change, so it never separates
    /// two occurrences of a position, and keeping it out lets a FEN read back hash the same.
    moved: CellSet<W>,
    rules: PhantomData<R>,
}

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// An empty board with the first player to move (for building positions).
    fn empty(spec: &'static Spec<W>) -> Self {
        StandardPosition {
            spec,
            board: Board::empty(spec.zobrist.turn[0]),
            hands: [[0; K]; 2],
            castling: 0,
            castlings: &spec.castlings,
            ep_targets: CellSet::EMPTY,
            ep_victim: Cell(0),
            moved: CellSet::EMPTY,
            rules: PhantomData,
        }
    }

    /// The start position under `options`.
    pub fn start(options: &RuleOptions) -> Result<Self, SetupError> {
        let spec = spec_for::<W, K, R>(options).map_err(|e| SetupError::Spec(e.clone()))?;
        Self::from_fen(spec, &spec.start_fen)
    }

    /// The compiled ruleset.
    #[inline(always)]
    pub fn spec(&self) -> &'static Spec<W> {
        self.spec
    }

    /// The piece on `cell`.
    #[inline(always)]
    pub fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    /// How many pieces of `kind` `player` holds in hand.
    #[inline(always)]
    pub fn in_hand(&self, player: Player, kind: Kind) -> u8 {
        self.hands[player as usize][kind as usize]
    }

    fn set_hand(&mut self, player: Player, kind: Kind, count: u8) {
        let old = self.hands[player as usize][kind as usize];
        let keys = &self.spec.zobrist;
        if old > 0 {
            self.board
                .toggle_hash(keys.hand(player, kind, old as usize));
        }
        if count > 0 {
            self.board
                .toggle_hash(keys.hand(player, kind, count as usize));
        }
        self.hands[player as usize][kind as usize] = count;
    }

    /// Cells of `player`'s pieces.
    #[inline(always)]
    pub fn pieces_of(&self, player: Player) -> CellSet<W> {
        self.board.of_player(player)
    }

    /// Cells of pieces of `kind` (both players).
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: Kind) -> CellSet<W> {
        self.board.of_kind(kind)
    }

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> CellSet<W> {
        self.board.occupied()
    }

    /// The player to move.
    #[inline(always)]
    pub fn turn(&self) -> Player {
        self.board.turn()
    }

    /// Castling rights as a bit per entry of [`StandardPosition::castlings`].
    pub fn castling_rights(&self) -> u16 {
        self.castling
    }

    /// The castlings the rights are rights to: the spec's, or under
    /// [`Spec::free_castling`] those of the position's array.
    #[inline(always)]
    pub fn castlings(&self) -> &'static CastlingTable<W> {
        self.castlings
    }

    /// Cells onto which the player to move can capture en passant now.
    pub fn en_passant_targets(&self) -> CellSet<W> {
        self.ep_targets
    }

    /// The move number (starts at 1, grows after the second player's move).
    pub fn fullmove(&self) -> u32 {
        self.board.fullmove
    }

    /// Cells of pieces known to have moved in this game, where that matters for their initial
    /// moves ([`Spec::unmoved_matters`]); empty for most rulesets and after reading a FEN.
    pub fn moved(&self) -> CellSet<W> {
        self.moved
    }

    /// Updates [`StandardPosition::moved`] after `mv`, already placed on the board, by
    /// `player`: the cells it vacated or captured on are forgotten, and the mover's new cell
    /// is remembered where its kind cares.
    fn track_moved(&mut self, mv: Move, player: Player) {
        let mut moved = self.moved;
        moved.remove(mv.from);
        moved.remove(mv.to);
        let mut landed = [Some(mv.to), None];
        match mv.special {
            Special::EnPassant => moved.remove(self.ep_victim),
            Special::Castle(i) => {
                let c = &self.castlings[i as usize];
                for cell in [c.king_from, c.rook_from, c.king_to, c.rook_to] {
                    moved.remove(cell);
                }
                landed[1] = Some(c.rook_to);
            }
            Special::Drop => landed[0] = None,
            Special::Normal => {}
        }
        for cell in landed.into_iter().flatten() {
            let piece = self.piece_at(cell);
            if piece.is_some()
                && self.spec.unmoved_matters[player as usize * K + piece.kind() as usize]
                    .contains(cell)
            {
                moved.insert(cell);
            }
        }
        self.moved = moved;
    }

    #[inline(always)]
    fn put(&mut self, cell: Cell, piece: Piece) {
        self.board.put(&self.spec.zobrist, cell, piece);
    }

    #[inline(always)]
    fn take(&mut self, cell: Cell) -> Piece {
        self.board.take(&self.spec.zobrist, cell)
    }

    fn set_castling(&mut self, rights: u16) {
        let mut changed = self.castling ^ rights;
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            self.board.toggle_hash(self.castlings.keys[i]);
            changed &= changed - 1;
        }
        self.castling = rights;
    }

    fn set_ep_targets(&mut self, targets: CellSet<W>) {
        for c in self.ep_targets ^ targets {
            self.board
                .toggle_hash(self.spec.zobrist.en_passant[c.index()]);
        }
        self.ep_targets = targets;
    }

    fn set_turn(&mut self, turn: Player) {
        self.board.set_turn(&self.spec.zobrist, turn);
    }

    /// The cells of `player`'s royal pieces.
    #[inline(always)]
    pub fn royals(&self, player: Player) -> CellSet<W> {
        let mut royals = CellSet::EMPTY;
        for &k in &self.spec.royal_kinds {
            royals |= self.board.of_kind(k);
        }
        royals & self.board.of_player(player)
    }

    /// Hands the move to `player` without a move (for position types whose turns have several
    /// parts, built on this one); the hash follows.
    pub fn set_side_to_move(&mut self, player: Player) {
        if player != self.board.turn() {
            self.set_turn(player);
        }
    }

    /// Sets the move number (for position types that count turns their own way).
    pub fn set_fullmove(&mut self, fullmove: u32) {
        self.board.fullmove = fullmove;
    }

    /// Sets the plies-without-progress counter.
    pub fn set_quiet_plies(&mut self, plies: u32) {
        self.board.quiet_plies = plies;
    }

    /// Removes the piece on `cell` (hash updated) and returns it: for rules that take pieces
    /// outside ordinary captures (progressive chess's en passant, drowning).
    pub fn remove_piece(&mut self, cell: Cell) -> Piece {
        if self.piece_at(cell).is_none() {
            return Piece::NONE;
        }
        self.moved.remove(cell);
        self.take(cell)
    }

    /// Puts `piece` on the empty `cell` (hash updated); it counts as unmoved.
    pub fn place_piece(&mut self, cell: Cell, piece: Piece) {
        if self.piece_at(cell).is_some() {
            self.take(cell);
        }
        self.moved.remove(cell);
        self.put(cell, piece);
    }

    /// Forgets any en passant targets.
    pub fn clear_en_passant(&mut self) {
        self.set_ep_targets(CellSet::EMPTY);
    }

    /// Sets `player`'s count of `kind` in hand (hash updated).
    pub fn set_in_hand(&mut self, player: Player, kind: Kind, count: u8) {
        self.set_hand(player, kind, count);
    }

    /// The cell of `player`'s royal piece if he has exactly one.
    #[inline(always)]
    pub fn royal_cell(&self, player: Player) -> Option<Cell> {
        let royals = self.royals(player);
        if royals.more_than_one() {
            return None;
        }
        royals.first()
    }

    /// Moves the pieces of `mv` on the board only: no rights, clocks or turn.
    #[inline(always)]
    fn apply_placement(&mut self, mv: Move) {
        match mv.special {
            Special::Castle(i) => {
                let c = &self.castlings[i as usize];
                let king = self.take(c.king_from);
                let rook = self.take(c.rook_from);
                self.put(c.king_to, king);
                self.put(c.rook_to, rook);
            }
            Special::EnPassant => {
                self.take(self.ep_victim);
                let piece = self.take(mv.from);
                self.put(mv.to, piece);
            }
            Special::Drop => {
                let us = self.board.turn();
                let left = self.in_hand(us, mv.kind) - 1;
                self.set_hand(us, mv.kind, left);
                self.put(mv.to, Piece::new(us, mv.kind));
            }
            _ => {
                if mv.captured.is_some() {
                    let captured = self.take(mv.to);
                    if self.spec.captures_to_hand {
                        let kind = self.spec.demoted[captured.kind() as usize];
                        let n = self.in_hand(self.board.turn(), kind);
                        self.set_hand(self.board.turn(), kind, n.saturating_add(1).min(62));
                    }
                }
                let piece = self.take(mv.from);
                let piece = match mv.promotion {
                    Some(k) => Piece::new(piece.player(), k),
                    None => piece,
                };
                self.put(mv.to, piece);
            }
        }
    }

    /// Whether `player`'s royal piece would be safe after `mv` (full test on a copy).
    fn royal_safe_after(&self, mv: Move) -> bool {
        let mut next = self.clone();
        next.apply_placement(mv);
        match next.royal_cell(self.board.turn()) {
            Some(k) => !next.attacked(k, 1 - self.board.turn(), next.occupied()),
            None => true,
        }
    }

    /// Keeps only the en passant targets onto which the player to move has a legal capture.
    fn usable_ep_targets(&self, candidates: CellSet<W>, victim: Cell) -> CellSet<W> {
        let us = self.board.turn();
        let mut usable = CellSet::EMPTY;
        for &k in &self.spec.en_passant_capturers {
            for from in self.board.of_kind(k) & self.board.of_player(us) {
                let reach = self.spec.moves.get(us, k, from).ep_capture & candidates;
                for to in reach {
                    if self.piece_at(to).is_some() || usable.contains(to) {
                        continue;
                    }
                    let mv = Move {
                        from,
                        to,
                        kind: k,
                        promotion: None,
                        captured: self.piece_at(victim),
                        special: Special::EnPassant,
                    };
                    let mut probe = self.clone();
                    probe.ep_victim = victim;
                    if probe.royal_safe_after(mv) {
                        usable.insert(to);
                    }
                }
            }
        }
        usable
    }

    /// Whether `cell` is attacked by `by` with the given occupancy.
    #[inline]
    pub fn attacked(&self, cell: Cell, by: Player, occupied: CellSet<W>) -> bool {
        crate::tables::attacked(
            &self.spec.moves,
            &self.spec.attacks,
            self,
            cell,
            by,
            occupied,
        )
    }

    /// Every cell `by` attacks with the given occupancy.
    pub fn attack_map(&self, by: Player, occupied: CellSet<W>) -> CellSet<W> {
        let mut map = CellSet::EMPTY;
        for from in self.board.of_player(by) & occupied {
            let k = self.piece_at(from).kind();
            map |= self.spec.moves.capture_reach(by, k, from, occupied);
        }
        map
    }

    /// Pieces of `by` attacking `cell` (current occupancy).
    pub fn attackers(&self, cell: Cell, by: Player) -> CellSet<W> {
        let occupied = self.occupied();
        let mut found = CellSet::EMPTY;
        for from in self.board.of_player(by) {
            let k = self.piece_at(from).kind();
            if self
                .spec
                .moves
                .capture_reach(by, k, from, occupied)
                .contains(cell)
            {
                found.insert(from);
            }
        }
        found
    }
}

impl<const W: usize, const K: usize, R: Rules<W, K>> crate::tables::PieceBoard<W>
    for StandardPosition<W, K, R>
{
    #[inline(always)]
    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    #[inline(always)]
    fn cells_of_kind(&self, kind: Kind) -> CellSet<W> {
        self.board.of_kind(kind)
    }

    #[inline(always)]
    fn cells_of_player(&self, player: Player) -> CellSet<W> {
        self.board.of_player(player)
    }
}

impl<const W: usize, const K: usize, R: Rules<W, K>> Position for StandardPosition<W, K, R> {
    type Move = Move;

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(&mut movegen::ListSink(moves));
    }

    fn tactical_candidates(&self, moves: &mut Vec<Move>) {
        self.generate(&mut movegen::TacticalSink(moves));
    }

    fn reference_legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate_by_probing(&mut movegen::ListSink(moves));
    }

    fn count_legal_moves(&self) -> u64 {
        let mut sink = movegen::CountSink(0);
        self.generate(&mut sink);
        sink.0
    }

    fn play_unchecked(&mut self, mv: Move) {
        let us = self.board.turn();
        let them = 1 - us;
        self.apply_placement(mv);
        if self.spec.moves.tracks_unmoved() {
            self.track_moved(mv, us);
        }
        if !R::turn_passes(self, &mv) {
            return;
        }
        if mv.special != Special::Drop {
            let rights = self.castling
                & !(self.castlings.loss[mv.from.index()] | self.castlings.loss[mv.to.index()]);
            if rights != self.castling {
                self.set_castling(rights);
            }
        }
        if self.spec.pieces[mv.kind as usize].pawn
            || mv.captured.is_some()
            || (self.spec.drops_reset_quiet_plies
                && (mv.special == Special::Drop || mv.promotion.is_some()))
        {
            self.board.quiet_plies = 0;
        } else {
            self.board.quiet_plies += 1;
        }
        if us == 1 || self.spec.notation == Notation::Shogi {
            self.board.fullmove += 1;
        }
        self.set_turn(them);
        let mut targets = CellSet::EMPTY;
        let may_create_ep = self.spec.en_passant_kinds & (1 << mv.kind) != 0
            && mv.captured.is_none()
            && mv.special == Special::Normal;
        if may_create_ep {
            let skipped = self.spec.skipped_cells(us, mv.from, mv.to);
            if skipped.any() {
                targets = self.usable_ep_targets(skipped, mv.to);
                self.ep_victim = mv.to;
            }
        }
        if self.ep_targets.any() || targets.any() {
            self.set_ep_targets(targets);
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        match self.royal_cell(self.board.turn()) {
            Some(k) => self.attacked(k, 1 - self.board.turn(), self.occupied()),
            None => false,
        }
    }

    fn outcome_without_moves(&self) -> Outcome {
        R::outcome_without_moves(self)
    }

    fn is_dead(&self) -> bool {
        R::is_dead(self)
    }

    fn judge_repetition(cycle: &[Self], moves: &[Move]) -> Option<Outcome> {
        R::judge_repetition(cycle, moves)
    }

    fn judge_repetition_in_search(&self, perpetual: [bool; 2]) -> Option<Outcome> {
        R::judge_repetition_in_search(self, perpetual)
    }

    fn notations(&self) -> &'static [&'static str] {
        R::notations()
    }

    fn write_move(&self, notation: &str, mv: Move) -> Option<String> {
        R::write_move(self, notation, mv)
    }

    fn read_move(&self, notation: &str, text: &str) -> Result<Move, MoveError> {
        R::read_move(self, notation, text)
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    fn repetition_window(&self) -> u32 {
        // Where captured men go to hand, a capture, a drop or a promotion (the promoted man
        // may be captured and dropped again) does not stop the game from coming back to a
        // position: the whole game is searched, as Fairy-Stockfish does.
        if self.spec.captures_to_hand {
            u32::MAX
        } else {
            self.board.quiet_plies
        }
    }

    fn draw_rules(&self) -> DrawRules {
        self.spec.draw_rules
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_text(&self, mv: Move) -> String {
        let g = &self.spec.geometry;
        let shogi = self.spec.notation == Notation::Shogi;
        if mv.special == Special::Drop {
            let separator = if shogi { '*' } else { '@' };
            let symbol = &self.spec.pieces[mv.kind as usize].symbol;
            return format!("{symbol}{separator}{}", g.label(mv.to));
        }
        let mut s = format!("{}{}", g.label(mv.from), g.label(mv.to));
        if let Some(k) = mv.promotion {
            if shogi {
                s.push('+');
            } else {
                s.push_str(&self.spec.pieces[k as usize].symbol.to_ascii_lowercase());
            }
        }
        s
    }

    fn ply(&self) -> u32 {
        match self.spec.notation {
            Notation::Shogi => self.board.fullmove.saturating_sub(1),
            Notation::Chess => self.board.fullmove.saturating_sub(1) * 2 + self.board.turn() as u32,
        }
    }

    fn actions(&self) -> Vec<&'static str> {
        R::actions(self)
    }

    fn perform(&self, action: &str) -> Result<Outcome, MoveError> {
        R::perform(self, action)
    }

    fn evaluate(&self, player: usize) -> i32 {
        R::evaluate(self, player as Player)
    }

    fn eval_features(&self) -> Option<EvalFeatures> {
        R::eval_features(self)
    }

    fn diagram(&self) -> String {
        self.standard_diagram()
    }

    fn board_geometry(&self) -> Option<&'static chaturanga_geometry::Geometry> {
        Some(&self.spec.geometry)
    }

    fn scene(&self, _viewer: crate::scene::Viewer) -> crate::scene::Scene {
        crate::scene::Scene::single(self.standard_scene())
    }

    fn move_shape(&self, mv: Move) -> crate::scene::MoveShape {
        self.standard_move_shape(mv)
    }

    fn legend(&self) -> crate::legend::Legend {
        crate::legend::Legend::of_pieces(self.spec.style, &self.spec.pieces)
    }

    fn board_pieces(&self) -> Option<crate::position::BoardPieces> {
        let spec: &'static Spec<W> = self.spec;
        Some(crate::position::BoardPieces {
            pieces: &spec.pieces,
            castlings: self
                .castlings
                .iter()
                .map(|c| [c.king_from, c.king_to, c.rook_from, c.rook_to])
                .collect(),
            drops: spec.captures_to_hand,
            compulsory_capture: spec.compulsory_capture,
            men: spec
                .cells
                .iter()
                .map(|cell| (cell, self.piece_at(cell)))
                .filter(|(_, piece)| piece.is_some())
                .collect(),
        })
    }

    fn player_name(&self, player: usize) -> &'static str {
        R::PLAYER_NAMES.get(player).copied().unwrap_or("player")
    }

    fn move_value(&self, mv: Move) -> crate::eval::MoveValue {
        self.standard_move_value(mv)
    }

    /// A pass for the search's null-move pruning, except in check, where captures are
    /// compulsory (a pass would skip a forced capture), and for a side with nothing but pawns
    /// and royal pieces on the board and in hand (the endings where having to move loses).
    /// The pass counts as irreversible, so that no repetition is seen across it.
    fn null_move(&self) -> Option<Self> {
        let us = self.board.turn();
        let spec = self.spec;
        let has_piece = (0..K).any(|k| {
            let piece = &spec.pieces[k];
            !piece.pawn
                && !spec.is_royal(k as Kind)
                && (self
                    .board
                    .of_kind(k as Kind)
                    .intersects(self.board.of_player(us))
                    || self.hands[us as usize][k] > 0)
        });
        if !R::NULL_MOVE_PRUNING || spec.compulsory_capture || !has_piece || self.is_check() {
            return None;
        }
        let mut next = self.clone();
        next.set_ep_targets(CellSet::EMPTY);
        next.board.quiet_plies = 0;
        next.set_turn(1 - us);
        Some(next)
    }

    fn static_exchange(&self, mv: Move) -> i32 {
        StandardPosition::static_exchange(self, mv)
    }

    fn describe(&self, mv: Move) -> Option<crate::position::MoveDescription> {
        let spec = self.spec();
        let g = &spec.geometry;
        // O-O / O-O-O only where they are unambiguous; Double Chess's four castlings are
        // written as king moves (`Kk1`).
        let side = |c: &Castling<W>| g.coords(c.rook_from).0 > g.coords(c.king_from).0;
        let castling = match mv.special {
            Special::Castle(i) => {
                let c = &self.castlings[i as usize];
                let same_side = self
                    .castlings
                    .iter()
                    .filter(|o| o.player == c.player && side(o) == side(c))
                    .count();
                (same_side == 1).then(|| side(c))
            }
            _ => None,
        };
        Some(crate::position::MoveDescription {
            piece: spec.pieces[mv.kind as usize].symbol.clone(),
            pawn: spec.pieces[mv.kind as usize].pawn,
            from: (mv.special != Special::Drop).then(|| g.label(mv.from).to_string()),
            to: g.label(mv.to).to_string(),
            capture: mv.captured.is_some(),
            promotion: mv.promotion.map(|k| spec.pieces[k as usize].symbol.clone()),
            castling,
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if text.is_empty() || text.len() > 16 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let g = &self.spec.geometry;
        let drop = text.split_once(['@', '*']).is_some_and(|(piece, cell)| {
            self.spec.kind_by_symbol(piece).is_some() && g.cell_by_label(cell).is_some()
        });
        let well_formed = drop
            || g.label_prefixes(text).into_iter().any(|(_, rest)| {
                g.label_prefixes(rest).into_iter().any(|(_, promo)| {
                    promo.is_empty() || promo == "+" || self.spec.kind_by_symbol(promo).is_some()
                })
            });
        if !well_formed {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }
}

impl<const W: usize, const K: usize, R: Rules<W, K>> crate::position::Ruleset
    for StandardPosition<W, K, R>
{
    const ID: &'static str = R::ID;

    fn option_specs() -> &'static [OptionSpec] {
        R::option_specs()
    }

    fn start_position(options: &RuleOptions) -> Result<Self, SetupError> {
        Self::start(options)
    }

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        let spec = spec_for::<W, K, R>(options).map_err(|e| SetupError::Spec(e.clone()))?;
        Self::from_fen(spec, fen)
    }
}
