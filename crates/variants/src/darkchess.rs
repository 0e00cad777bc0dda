//! Dark Chess (`darkchess`): chess with hidden information. There is no check; capturing the
//! king wins; each player sees only his own men and the cells his men could move to. See
//! `docs/rules/darkchess.md`.
//!
//! [`DarkChessPosition`] is the arbiter's true position: [`Position`] on it (moves, FEN,
//! perft, draw rules) is the arbiter's interface and sees everything. What a player may know
//! comes only through [`DarkChessPosition::view`]: the cells he sees, the view as a fog FEN
//! (unseen cells `*`), that the opponent has moved, which of his own men the opponent's last
//! move took, and the result once the game is over. A view is computed from the player's own
//! moves in the true position and from what he has been told, never from anything else, so
//! nothing outside it can leak through it.
//!
//! The engine searches a player's view through [`Position::determinize`] (`sampling`):
//! positions drawn from the view's text alone.

use crate::family;
use chaturanga_rules::eval::MoveValue;
use chaturanga_rules::geometry::{Cell, CellSet};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, SceneBoard, Viewer};
use chaturanga_rules::standard::{
    Move, Rules, SetupError, SetupProblem, Spec, SpecError, Special, StandardPosition,
};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{
    DrawRules, Kind, MoveDescription, MoveError, OptionSpec, Outcome, Piece, Player, Position,
    Reason, RuleOptions, Ruleset, ViewError,
};

mod sampling;

/// The rules of the board: chess moves without check; the king is an ordinary piece for move
/// generation (it may move into attack, and castling ignores attacks).
#[derive(Clone, Copy, Default, Debug)]
pub struct DarkChessParts;

/// The true board of a Dark Chess game.
pub type DarkChessBoard = StandardPosition<1, 6, DarkChessParts>;

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const PAWN: Kind = 0;
const KING: Kind = 5;
/// Number of piece kinds (pawn, knight, bishop, rook, queen, king).
const KINDS: usize = 6;

impl Rules<1, 6> for DarkChessParts {
    const ID: &'static str = "darkchess";

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        // Not royal: no check, so the king may stand in attack and castle through it.
        pieces[KING as usize] = family::piece("K", "king", "K")?;
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        // The arbiter applies threefold repetition and fifty moves automatically.
        .draw_rules(DrawRules::chess(false))
        .start(START_FEN)
        .build()
    }

    fn validate(position: &DarkChessBoard) -> Vec<SetupProblem> {
        let mut problems = family::pawns_on_first_rank(position);
        let kings = |p: Player| (position.pieces_of_kind(KING) & position.pieces_of(p)).count();
        for p in 0..2u8 {
            if kings(p) > 1 {
                problems.push(SetupProblem::TooManyRoyals(p));
            }
        }
        // A king can only be missing because the opponent has just taken it, so the side to
        // move is the one without.
        let mover = position.turn();
        if kings(1 - mover) == 0 {
            problems.push(SetupProblem::MissingRoyal(1 - mover));
        }
        problems
    }
}

/// What one player may know: his view of the true position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Whose view.
    pub player: Player,
    /// The cells he sees: his men's cells and the destinations of his men's legal moves (and
    /// the pawn he could take en passant).
    pub visible: CellSet<1>,
    /// The view as a fog FEN: unseen cells `*`, only his own castling and en passant rights,
    /// the halfmove clock as far as he can know it (see `docs/rules/darkchess.md`, Decision 8).
    pub fen: String,
    /// The opponent's men as he can account for them, as letters (`kqrrbbnnpppppppp`): those
    /// of the position he started from (a FEN is known to both), less the men he has taken.
    /// Promotions he did not see are not in it: an unseen promoted man is still a pawn here.
    pub enemy_men: String,
    /// Whether the last move was the opponent's (all he is told about it).
    pub opponent_moved: bool,
    /// His man that the opponent's last move took, if any: the cell it stood on and its
    /// letter (he sees it disappear).
    pub lost: Option<(String, String)>,
    /// The result, once the game is over (both players are told).
    pub outcome: Option<Outcome>,
}

/// A Dark Chess position as the arbiter keeps it: the true board, and for each player what
/// he has been told (the halfmove clock as he can count it, the last move's capture).
#[derive(Clone, Debug)]
pub struct DarkChessPosition {
    board: DarkChessBoard,
    /// Per player: plies since the last capture or pawn move he knows of (his own moves, and
    /// captures of his men).
    known_quiet: [u32; 2],
    /// Who made the last move (none in a position read from FEN).
    last_mover: Option<Player>,
    /// The man the last move captured and the cell it stood on.
    last_capture: Option<(Cell, Piece)>,
    /// Per player, the opponent's men by kind as he can account for them (see
    /// [`View::enemy_men`]).
    accounted: [[u8; KINDS]; 2],
}

impl DarkChessPosition {
    /// The true board (the arbiter's; never shown to a player).
    pub fn board(&self) -> &DarkChessBoard {
        &self.board
    }

    fn spec(&self) -> &'static Spec<1> {
        self.board.spec()
    }

    fn has_king(&self, player: Player) -> bool {
        (self.board.pieces_of_kind(KING) & self.board.pieces_of(player)).any()
    }

    fn game_on(&self) -> bool {
        self.has_king(0) && self.has_king(1)
    }

    /// The cell of the pawn an en passant capture `mv` takes.
    fn en_passant_victim(&self, mv: &Move) -> Option<Cell> {
        let g = &self.spec().geometry;
        let (tx, _) = g.coords(mv.to);
        let (_, fy) = g.coords(mv.from);
        g.at(tx, fy)
    }

    /// The cells `player` sees: his men's cells and every destination of his men's legal
    /// moves in the true position (with the pawn an en passant capture would take). When he
    /// is not to move his moves are generated as if he were, without en passant (a right
    /// only the player to move has).
    pub fn visible_cells(&self, player: Player) -> CellSet<1> {
        let mut visible = self.board.pieces_of(player);
        let mut board = self.board.clone();
        if board.turn() != player {
            board.clear_en_passant();
            board.set_side_to_move(player);
        }
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        for mv in &moves {
            visible.insert(mv.to);
            if mv.special == Special::EnPassant
                && let Some(victim) = self.en_passant_victim(mv)
            {
                visible.insert(victim);
            }
        }
        visible
    }

    /// `player`'s view as a fog FEN (Fairy-Stockfish's `get_fog_fen` form): unseen cells
    /// `*`, never merged into digit runs; his own castling rights only; the en passant
    /// target only when he is to move and can capture onto it; the halfmove clock as far as
    /// he can know it; the move number.
    pub fn view_fen(&self, player: Player) -> String {
        self.fog_fen(player, self.visible_cells(player))
    }

    fn fog_fen(&self, player: Player, visible: CellSet<1>) -> String {
        let spec = self.spec();
        let g = &spec.geometry;
        let mut out = String::new();
        for (r, row) in g.rows_from_top().iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut run = 0;
            for point in row {
                let shown = point.filter(|c| visible.contains(*c));
                match shown {
                    Some(cell) if self.board.piece_at(cell).is_none() => run += 1,
                    _ => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        match shown {
                            None => out.push('*'),
                            Some(cell) => out.push_str(&self.letter(self.board.piece_at(cell))),
                        }
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
        }
        let fen = self.board.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let side = fields.get(1).copied().unwrap_or("w");
        let castling: String = fields
            .get(2)
            .unwrap_or(&"-")
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == (player == 0))
            .collect();
        let en_passant = if self.board.turn() == player {
            fields.get(3).copied().unwrap_or("-")
        } else {
            "-"
        };
        format!(
            "{out} {side} {} {en_passant} {} {}",
            if castling.is_empty() { "-" } else { &castling },
            self.known_quiet[player as usize],
            self.board.fullmove()
        )
    }

    fn letter(&self, piece: Piece) -> String {
        let symbol = &self.spec().pieces[piece.kind() as usize].symbol;
        if piece.player() == 0 {
            symbol.clone()
        } else {
            symbol.to_ascii_lowercase()
        }
    }

    /// Everything `player` may know now (see [`View`]).
    pub fn view(&self, player: Player) -> View {
        let visible = self.visible_cells(player);
        let opponent_moved = self.last_mover == Some(1 - player);
        let lost = match self.last_capture {
            Some((cell, piece)) if opponent_moved && piece.player() == player => Some((
                self.spec().geometry.label(cell).to_string(),
                self.letter(piece),
            )),
            _ => None,
        };
        View {
            player,
            fen: self.fog_fen(player, visible),
            visible,
            enemy_men: self.enemy_men(player),
            opponent_moved,
            lost,
            outcome: (!self.game_on()).then(|| self.outcome_without_moves()),
        }
    }

    /// The opponent's men as `player` accounts for them, as letters in the opponent's case,
    /// from the king down to the pawns.
    fn enemy_men(&self, player: Player) -> String {
        let enemy = 1 - player;
        let mut letters = String::new();
        for kind in (0..KINDS as Kind).rev() {
            let letter = self.letter(Piece::new(enemy, kind));
            for _ in 0..self.accounted[player as usize][kind as usize] {
                letters.push_str(&letter);
            }
        }
        letters
    }

    fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        let board = DarkChessBoard::from_fen_with(options, fen)?;
        // A position set up from FEN is known to both players, its clock and men included.
        let quiet = board.quiet_plies();
        let mut accounted = [[0u8; KINDS]; 2];
        for cell in board.occupied() {
            let piece = board.piece_at(cell);
            let count = &mut accounted[1 - piece.player() as usize][piece.kind() as usize];
            *count = count.saturating_add(1);
        }
        Ok(DarkChessPosition {
            board,
            known_quiet: [quiet; 2],
            last_mover: None,
            last_capture: None,
            accounted,
        })
    }
}

impl Position for DarkChessPosition {
    type Move = Move;

    fn side_to_move(&self) -> usize {
        self.board.side_to_move()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.game_on() {
            self.board.legal_moves(moves);
        }
    }

    fn reference_legal_moves(&self, moves: &mut Vec<Move>) {
        if self.game_on() {
            self.board.reference_legal_moves(moves);
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.game_on() {
            self.board.count_legal_moves()
        } else {
            0
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let us = self.board.turn();
        let captured = if mv.special == Special::EnPassant {
            self.en_passant_victim(&mv)
                .map(|c| (c, self.board.piece_at(c)))
        } else {
            mv.captured.is_some().then_some((mv.to, mv.captured))
        };
        self.board.play_unchecked(mv);
        let own_progress = mv.kind == PAWN || captured.is_some();
        let q = &mut self.known_quiet[us as usize];
        *q = if own_progress { 0 } else { q.saturating_add(1) };
        // The opponent knows of the move's capture only (his man disappears).
        let q = &mut self.known_quiet[1 - us as usize];
        *q = if captured.is_some() {
            0
        } else {
            q.saturating_add(1)
        };
        if let Some((_, piece)) = captured {
            // A man of a kind he has none left of was a pawn promoted out of his sight.
            let counts = &mut self.accounted[us as usize];
            let kind = if counts[piece.kind() as usize] > 0 {
                piece.kind()
            } else {
                PAWN
            };
            counts[kind as usize] = counts[kind as usize].saturating_sub(1);
        }
        self.last_mover = Some(us);
        self.last_capture = captured;
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_without_moves(&self) -> Outcome {
        let mover = self.side_to_move();
        if !self.has_king(mover as u8) {
            Outcome::loss(2, mover, Reason::RoyalCaptured)
        } else {
            Outcome::draw(2, Reason::Stalemate)
        }
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        (!self.game_on()).then(|| self.outcome_without_moves())
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies()
    }

    fn draw_rules(&self) -> DrawRules {
        self.board.draw_rules()
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove()
    }

    fn fen(&self) -> String {
        self.board.fen()
    }

    /// A player sees his men and the cells his men reach; a spectator of a game in progress
    /// sees no man at all; the arbiter (and everyone once the game is over) sees the board.
    fn scene(&self, viewer: Viewer) -> Scene {
        let full = self.board.standard_scene();
        let seen = match viewer {
            Viewer::Arbiter => return Scene::single(full),
            Viewer::Player(p) if p < 2 => self.visible_cells(p as Player),
            _ => CellSet::EMPTY,
        };
        let g = &self.spec().geometry;
        let mut board = SceneBoard::new(full.shape.clone());
        board.men = full
            .men
            .into_iter()
            .filter(|m| g.cell_by_label(&m.cell).is_some_and(|c| seen.contains(c)))
            .collect();
        board.fog = g
            .cells()
            .filter(|&c| !seen.contains(c))
            .map(|c| g.label(c).to_string())
            .collect();
        Scene {
            boards: vec![board],
            complete: false,
            note: None,
        }
    }

    fn move_shape(&self, mv: Move) -> MoveShape {
        self.board.standard_move_shape(mv)
    }

    /// Every man may be seen, so the legend is the board's whole piece table.
    fn legend(&self) -> chaturanga_rules::Legend {
        self.board.legend()
    }

    /// A player is told his own moves, and only that the opponent moved.
    fn move_seen_by(&self, mv: Move, viewer: Viewer) -> Option<String> {
        match viewer {
            Viewer::Arbiter => Some(self.move_text(mv)),
            Viewer::Player(p) if p == self.side_to_move() => Some(self.move_text(mv)),
            _ => None,
        }
    }

    fn move_text(&self, mv: Move) -> String {
        self.board.move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if !self.game_on() {
            return Err(MoveError::Illegal(excerpt(text)));
        }
        self.board.parse_move(text)
    }

    fn describe(&self, mv: Move) -> Option<MoveDescription> {
        self.board.describe(mv)
    }

    /// The view's fog FEN, then `enemy-men <letters>` (or `enemy-men -`), `opponent-moved
    /// yes|no`, `lost <cell> <letter>` or `lost -`, and `result ...` once the game is over:
    /// nothing else.
    fn player_view(&self, player: usize) -> Option<String> {
        let player = u8::try_from(player).ok().filter(|&p| p < 2)?;
        let view = self.view(player);
        let mut text = format!(
            "{}\nenemy-men {}\nopponent-moved {}\nlost {}",
            view.fen,
            if view.enemy_men.is_empty() {
                "-"
            } else {
                &view.enemy_men
            },
            if view.opponent_moved { "yes" } else { "no" },
            view.lost
                .map_or("-".to_string(), |(cell, letter)| format!("{cell} {letter}"))
        );
        if let Some(outcome) = view.outcome {
            text.push_str(&format!("\nresult {outcome}"));
        }
        Some(text)
    }

    fn determinize(view: &str, rng: &mut SplitMix64) -> Result<Self, ViewError> {
        sampling::determinize(view, rng)
    }

    fn evaluate(&self, player: usize) -> i32 {
        self.board.evaluate(player)
    }

    fn move_value(&self, mv: Move) -> MoveValue {
        self.board.move_value(mv)
    }
}

impl Ruleset for DarkChessPosition {
    const ID: &'static str = "darkchess";

    fn option_specs() -> &'static [OptionSpec] {
        DarkChessParts::option_specs()
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
