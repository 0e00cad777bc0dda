//! Progressive Chess (`progressive`): series of growing length (White 1, Black 2, White 3,
//! ...), a check ends the series, en passant only as the first move of a series; see
//! `docs/rules/progressive.md`.
//!
//! As in double-move chess, a series is a sequence of parts, each an ordinary chess move on
//! the underlying [`StandardPosition`]; the position records the series number and the moves
//! made in it and hands the move back to the same player until the series ends. So `moves`,
//! perft and the engine work per single move, and [`chaturanga_rules::perft_turns`] counts
//! whole series.
//!
//! En passant follows the rules file, not the board: the board's pawns have no en passant
//! move at all, and this type keeps its own field (the cells a series-starting player may
//! capture onto, or in the middle of a series the mover's own double steps) and plays the
//! capture itself with the board's `remove_piece`/`place_piece` primitives.

use crate::family;
use chaturanga_rules::geometry::{Cell, CellSet};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{
    MAX_FEN_LEN, Move, Rules, SetupError, Spec, SpecError, Special, StandardPosition,
    parse_en_passant,
};
use chaturanga_rules::{
    DrawRules, FenError, Game, Kind, MoveDescription, MoveError, MoveValue, OptionSpec,
    OptionValues, Outcome, Piece, Player, Position, Reason, RuleOptions, Ruleset, SetupProblem,
};

/// The rules of one single move: chess without en passant (handled by
/// [`ProgressivePosition`]).
#[derive(Clone, Copy, Default, Debug)]
pub struct ProgressiveParts;

/// The board of a progressive game.
pub type ProgressiveBoard = StandardPosition<1, 6, ProgressiveParts>;

/// The start position: series 1, no move made yet.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0";

const PAWN: Kind = 0;

/// Completed quiet series that draw (the progressive counterpart of the fifty-move rule).
pub const QUIET_SERIES_LIMIT: u32 = 10;

/// Most captures a series is credited with in the evaluation (longer series rarely find more
/// undefended targets, and the count keeps the evaluation's cost bounded).
const SERIES_REACH_CAP: u32 = 6;
/// Share of the mover's reachable material the evaluation credits, in 1/16.
const SERIES_REACH_SHARE: i32 = 8;
/// Share of the opponent's next-series reach the evaluation debits, in 1/16.
const NEXT_SERIES_SHARE: i32 = 4;

/// Largest series number a FEN may give; far beyond any game, small enough that counting
/// moves in a series can never overflow.
const MAX_SERIES: u32 = 1_000_000;

const CHECK: OptionSpec = OptionSpec {
    name: "check",
    values: OptionValues::Choice(&["scottish", "italian"]),
    default: "scottish",
    help: "scottish: a check ends the series at once; italian: check only with the last move of a full series (progressive checkmate)",
    label: "Check",
    words: &[
        ("scottish", "A check ends the series at once (Scottish)"),
        (
            "italian",
            "Only the last move of a full series may give check (Italian)",
        ),
    ],
};

/// The draw rules: the ten-series rule only (no repetition rule, since the growing series make
/// every state new). [`Position::quiet_plies`] counts completed quiet series.
const DRAW_RULES: DrawRules = DrawRules {
    repetition: None,
    repetition_claim: None,
    quiet_plies: Some((QUIET_SERIES_LIMIT, Reason::NoProgress)),
    quiet_plies_claim: None,
    ply_cap: None,
};

impl Rules<1, 6> for ProgressiveParts {
    const ID: &'static str = "progressive";

    fn option_specs() -> &'static [OptionSpec] {
        &[CHECK]
    }

    fn build(options: &RuleOptions) -> Result<Spec<1>, SpecError> {
        let geometry = family::chess_board(8, 8)
            .build()
            .map_err(family::board_error)?;
        let mut pieces = family::orthodox_pieces()?;
        // The board's pawns never capture en passant: progressive chess allows it only as the
        // first move of a series, against the previous series' double steps, which the board's
        // one-ply en passant cannot express.
        pieces[PAWN as usize] = family::pawn("fmWfcFifmnD", &["Q", "R", "B", "N"])?;
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            family::corner_castlings(8, 8, 'e', 'g', 'c'),
        )
        .draw_rules(DRAW_RULES)
        .start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .build()
    }

    fn is_dead(position: &ProgressiveBoard) -> bool {
        family::minor_material_is_dead(position)
    }

    fn validate(position: &ProgressiveBoard) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}

/// A Progressive Chess position: the board, the series number and the moves made in it, the
/// rules file's own en passant field and the quiet-series counter.
#[derive(Clone, Debug)]
pub struct ProgressivePosition {
    board: ProgressiveBoard,
    /// `check=italian`: check only with the last move of a series.
    italian: bool,
    /// Series number n (series n has n moves; odd: White, even: Black).
    series: u32,
    /// Moves already made in the current series.
    played: u32,
    /// At a series start: cells onto which the player to move has a legal en passant capture.
    /// In the middle of a series: cells skipped by the mover's own double steps in this
    /// series whose pawns have not moved since.
    en_passant: CellSet<1>,
    /// Completed series in a row without capture or pawn move.
    quiet_series: u32,
    /// Whether the series in progress has had a capture or pawn move. The FEN does not record
    /// it; a position read in the middle of a series has it only when the en passant field
    /// lists a double step of this series.
    progress: bool,
}

/// Hash keys for the state the board does not hash (SplitMix64 finaliser).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SERIES_KEY: u64 = 0x7072_6F67_7265_7373;
const EN_PASSANT_KEY: u64 = 0x656E_7061_7373_616E;

/// The forward rank step of `player`'s pawns.
fn forward(player: Player) -> i32 {
    if player == 0 { 1 } else { -1 }
}

impl ProgressivePosition {
    /// The board.
    pub fn board(&self) -> &ProgressiveBoard {
        &self.board
    }

    /// The series number (series n has n moves; odd series are White's).
    pub fn series(&self) -> u32 {
        self.series
    }

    /// Moves already made in the current series.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// Moves the player to move may still make in this series (unless a check ends it).
    pub fn moves_left(&self) -> u32 {
        self.series - self.played
    }

    /// The en passant field: see [`ProgressivePosition`]'s FEN in the rules file.
    pub fn en_passant_cells(&self) -> CellSet<1> {
        self.en_passant
    }

    fn spec(&self) -> &'static Spec<1> {
        self.board.spec()
    }

    /// The pawn standing one step beyond `skipped` in `owner`'s forward direction: where the
    /// pawn that double-stepped over `skipped` stands.
    fn beyond(&self, skipped: Cell, owner: Player) -> Option<Cell> {
        let g = &self.spec().geometry;
        let (x, y) = g.coords(skipped);
        g.at(x, y + forward(owner))
    }

    /// Whether `skipped` is a cell a double step of `owner`'s pawns passes over (the cell in
    /// front of his pawn-start rank).
    fn is_skip_cell(&self, skipped: Cell, owner: Player) -> bool {
        let g = &self.spec().geometry;
        let (x, y) = g.coords(skipped);
        let Some(start) = g.at(x, y - forward(owner)) else {
            return false;
        };
        g.region("pawn-start")
            .is_some_and(|r| r.cells[owner as usize].contains(&start))
    }

    /// The cell a pawn double step of `player` from `from` to `to` skips, if the move is one.
    fn double_step(&self, player: Player, mv: &Move) -> Option<Cell> {
        if mv.kind != PAWN || mv.captured.is_some() || mv.special != Special::Normal {
            return None;
        }
        let g = &self.spec().geometry;
        let (fx, fy) = g.coords(mv.from);
        let (tx, ty) = g.coords(mv.to);
        (fx == tx && ty - fy == 2 * forward(player))
            .then(|| g.at(fx, fy + forward(player)))
            .flatten()
    }

    /// The board after an en passant capture `mv` (the turn unchanged).
    fn board_after_en_passant(&self, mv: &Move) -> ProgressiveBoard {
        let mut board = self.board.clone();
        let us = board.turn();
        if let Some(victim) = self.beyond(mv.to, 1 - us) {
            board.remove_piece(victim);
        }
        let pawn = board.remove_piece(mv.from);
        board.place_piece(mv.to, pawn);
        board
    }

    /// The board after `mv`, with the opponent to move (as after an ordinary chess move).
    fn board_after(&self, mv: &Move) -> ProgressiveBoard {
        if mv.special == Special::EnPassant {
            let mut board = self.board_after_en_passant(mv);
            board.set_side_to_move(1 - self.board.turn());
            board
        } else {
            let mut board = self.board.clone();
            board.play_unchecked(*mv);
            board
        }
    }

    /// Whether `mv` (legal on the board) gives check.
    fn gives_check(&self, mv: &Move) -> bool {
        self.board_after(mv).is_check()
    }

    /// The en passant captures the player to move could make onto `targets` if it were the
    /// first move of his series: his pawn beside an enemy pawn that stands just beyond the
    /// (empty) skipped cell, not leaving his king attacked.
    fn en_passant_captures(&self, targets: CellSet<1>, out: &mut Vec<Move>) {
        let us = self.board.turn();
        let them = 1 - us;
        let g = &self.spec().geometry;
        for to in targets {
            let Some(victim) = self.beyond(to, them) else {
                continue;
            };
            if self.board.piece_at(to).is_some()
                || self.board.piece_at(victim) != Piece::new(them, PAWN)
            {
                continue;
            }
            let (vx, vy) = g.coords(victim);
            for dx in [-1, 1] {
                let Some(from) = g.at(vx + dx, vy) else {
                    continue;
                };
                if self.board.piece_at(from) != Piece::new(us, PAWN) {
                    continue;
                }
                let mv = Move {
                    from,
                    to,
                    kind: PAWN,
                    promotion: None,
                    captured: Piece::new(them, PAWN),
                    special: Special::EnPassant,
                };
                let after = self.board_after_en_passant(&mv);
                let safe = after
                    .royal_cell(us)
                    .is_none_or(|k| !after.attacked(k, them, after.occupied()));
                if safe {
                    out.push(mv);
                }
            }
        }
    }

    /// The cells of `targets` onto which the player to move has a legal en passant capture.
    fn usable(&self, targets: CellSet<1>) -> CellSet<1> {
        let mut captures = Vec::new();
        self.en_passant_captures(targets, &mut captures);
        CellSet::from_cells(captures.iter().map(|m| m.to))
    }

    /// Whether the next move is the last of the series.
    fn last_move_of_series(&self) -> bool {
        self.played + 1 >= self.series
    }

    /// Legal moves from the board's generator (`reference`: its slow one), plus en passant
    /// at a series start, less early checks under `check=italian`.
    fn generate(&self, moves: &mut Vec<Move>, reference: bool) {
        let start = moves.len();
        if reference {
            self.board.reference_legal_moves(moves);
        } else {
            self.board.legal_moves(moves);
        }
        if self.played == 0 && self.en_passant.any() {
            self.en_passant_captures(self.en_passant, moves);
        }
        if self.italian && !self.last_move_of_series() {
            let kept: Vec<Move> = moves
                .drain(start..)
                .filter(|m| !self.gives_check(m))
                .collect();
            moves.extend(kept);
        }
    }

    /// The material `player` could take in a series of `moves` moves from here, counted as
    /// the `moves` most valuable enemy men he attacks now (kings excluded: taking them is not
    /// how the game ends). A long series takes men that stand defended, because the reply
    /// comes only after the whole series, so a series is worth far more than its first move.
    fn series_reach(&self, player: Player, moves: u32) -> i32 {
        let mut board = self.board.clone();
        board.set_side_to_move(player);
        let mut captures = Vec::new();
        board.legal_moves(&mut captures);
        let values = &self.spec().eval.values;
        let mut targets: Vec<(Cell, i32)> = Vec::new();
        for mv in captures.iter().filter(|m| m.captured.is_some()) {
            if self.spec().is_royal(mv.captured.kind()) || targets.iter().any(|t| t.0 == mv.to) {
                continue;
            }
            targets.push((mv.to, values[mv.captured.kind() as usize]));
        }
        targets.sort_unstable_by_key(|t| std::cmp::Reverse(t.1));
        targets
            .iter()
            .take(moves.min(SERIES_REACH_CAP) as usize)
            .map(|t| t.1)
            .sum()
    }

    /// Ends the series after the last move played: the opponent (already to move on the
    /// board) starts series n+1.
    fn end_series(&mut self, own_double_steps: CellSet<1>) {
        self.quiet_series = if self.progress {
            0
        } else {
            self.quiet_series.saturating_add(1)
        };
        self.progress = false;
        self.series = self.series.saturating_add(1);
        self.played = 0;
        self.board.set_fullmove(self.series);
        self.en_passant = self.usable(own_double_steps);
    }

    fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty.into());
        }
        if fields.len() > 7 {
            return Err(FenError::TrailingFields(excerpt(fields[7])).into());
        }
        let number = |i: usize, max: u32| -> Result<Option<u32>, FenError> {
            fields
                .get(i)
                .map(|t| {
                    t.parse::<u32>()
                        .ok()
                        .filter(|&n| n <= max)
                        .ok_or_else(|| FenError::Counter(excerpt(t)))
                })
                .transpose()
        };
        let quiet_series = number(4, 100_000)?.unwrap_or(0);
        let series = number(5, MAX_SERIES)?;
        let played = number(6, MAX_SERIES)?.unwrap_or(0);
        if series == Some(0) {
            return Err(FenError::Counter("0".into()).into());
        }
        // The board's own en passant field stays empty: this type keeps its own.
        let board_fen = format!(
            "{} {} {} - 0 {}",
            fields[0],
            fields.get(1).unwrap_or(&"w"),
            fields.get(2).unwrap_or(&"-"),
            series.unwrap_or(1)
        );
        let mut board = ProgressiveBoard::from_fen_with(options, &board_fen)?;
        let mover = board.turn();
        let series = series.unwrap_or(if mover == 0 { 1 } else { 2 });
        board.set_fullmove(series);
        let mut problems = Vec::new();
        if (series % 2 == 1) != (mover == 0) {
            problems.push(SetupProblem::Other(format!(
                "series {series} belongs to {}",
                if series % 2 == 1 { "White" } else { "Black" }
            )));
        }
        if played >= series {
            problems.push(SetupProblem::Other(format!(
                "{played} moves played in series {series}, which has only {series}"
            )));
        }
        if played > 0 && board.is_check() {
            // Every move of a series is legal and the opponent does not move in between.
            problems.push(SetupProblem::Other(
                "the player to move is in check in the middle of his series".into(),
            ));
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        let mut position = ProgressivePosition {
            board,
            italian: options.get("check") == Some("italian"),
            series,
            played,
            en_passant: CellSet::EMPTY,
            quiet_series,
            progress: false,
        };
        let cells = parse_en_passant(position.spec(), fields.get(3).copied().unwrap_or("-"))?;
        // Cells nobody could use are dropped, as the overview prescribes for en passant fields.
        position.en_passant = if played == 0 {
            let candidates = CellSet::from_cells(
                cells
                    .iter()
                    .copied()
                    .filter(|&c| position.is_skip_cell(c, 1 - mover)),
            );
            position.usable(candidates)
        } else {
            CellSet::from_cells(cells.iter().copied().filter(|&c| {
                position.is_skip_cell(c, mover)
                    && position
                        .beyond(c, mover)
                        .is_some_and(|p| position.board.piece_at(p) == Piece::new(mover, PAWN))
            }))
        };
        // A double step listed in the middle of a series was made in this series: a pawn move,
        // so the series in progress already resets the quiet-series counter when it ends.
        position.progress = played > 0 && position.en_passant.any();
        Ok(position)
    }
}

impl Position for ProgressivePosition {
    type Move = Move;

    fn side_to_move(&self) -> usize {
        self.board.side_to_move()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    fn reference_legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, true);
    }

    fn count_legal_moves(&self) -> u64 {
        if self.italian && !self.last_move_of_series() {
            let mut moves = Vec::new();
            self.generate(&mut moves, false);
            return moves.len() as u64;
        }
        let mut count = self.board.count_legal_moves();
        if self.played == 0 && self.en_passant.any() {
            let mut captures = Vec::new();
            self.en_passant_captures(self.en_passant, &mut captures);
            count += captures.len() as u64;
        }
        count
    }

    fn play_unchecked(&mut self, mv: Move) {
        let us = self.board.turn();
        let series = self.series;
        // The opponent's double steps could be taken only by this series' first move; from
        // now on the field holds this series' own double steps.
        let mut own = if self.played == 0 {
            CellSet::EMPTY
        } else {
            self.en_passant
        };
        for skipped in own {
            if self.beyond(skipped, us) == Some(mv.from) {
                own.remove(skipped);
            }
        }
        if let Some(skipped) = self.double_step(us, &mv) {
            own.insert(skipped);
        }
        self.board = self.board_after(&mv);
        self.progress |= mv.kind == PAWN || mv.captured.is_some();
        self.played += 1;
        if self.board.is_check() || self.played >= series {
            self.end_series(own);
        } else {
            // The series goes on: the move comes back to the same player.
            self.board.set_side_to_move(us);
            self.board.set_fullmove(series);
            self.en_passant = own;
        }
    }

    fn hash(&self) -> u64 {
        let mut h =
            self.board.hash() ^ mix(SERIES_KEY ^ ((self.series as u64) << 32 | self.played as u64));
        for c in self.en_passant {
            h ^= mix(EN_PASSANT_KEY ^ c.index() as u64);
        }
        h
    }

    fn is_check(&self) -> bool {
        self.board.is_check()
    }

    fn outcome_without_moves(&self) -> Outcome {
        // In check at a series start with no (allowed) evasion: checkmate, progressive
        // checkmate under check=italian included. Otherwise, at the start or in the middle of
        // a series: progressive stalemate.
        if self.board.is_check() {
            Outcome::loss(2, self.side_to_move(), Reason::Checkmate)
        } else {
            Outcome::draw(2, Reason::Stalemate)
        }
    }

    fn is_dead(&self) -> bool {
        self.board.is_dead()
    }

    /// The board's chess evaluation plus what the series can still take: the mover's
    /// remaining moves against the men he attacks, and the opponent's whole next series
    /// against the mover's (discounted: the mover still has moves to take them out of reach).
    fn evaluate(&self, player: usize) -> i32 {
        let mover = self.board.turn();
        let own = self.series_reach(mover, self.moves_left()) * SERIES_REACH_SHARE / 16;
        let next = self.series.saturating_add(1);
        let theirs = self.series_reach(1 - mover, next) * NEXT_SERIES_SHARE / 16;
        let reach = own - theirs;
        let board = self.board.evaluate(player);
        if player == mover as usize {
            board + reach
        } else {
            board - reach
        }
    }

    fn move_value(&self, mv: Move) -> MoveValue {
        self.board.move_value(mv)
    }

    fn quiet_plies(&self) -> u32 {
        self.quiet_series
    }

    fn draw_rules(&self) -> DrawRules {
        DRAW_RULES
    }

    fn repetition_point(&self) -> bool {
        self.played == 0
    }

    fn move_number(&self) -> u32 {
        self.series
    }

    fn fen(&self) -> String {
        let board = self.board.fen();
        let mut fields = board.split(' ');
        let (placement, side, castling) = (
            fields.next().unwrap_or("8/8/8/8/8/8/8/8"),
            fields.next().unwrap_or("w"),
            fields.next().unwrap_or("-"),
        );
        let en_passant = if self.en_passant.any() {
            let g = &self.spec().geometry;
            self.en_passant.iter().map(|c| g.label(c)).collect()
        } else {
            "-".to_string()
        };
        format!(
            "{placement} {side} {castling} {en_passant} {} {} {}",
            self.quiet_series, self.series, self.played
        )
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
        if text.is_empty() || text.len() > 16 || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if let Some(&mv) = moves.iter().find(|&&m| self.move_text(m) == text) {
            return Ok(mv);
        }
        // Well-formed or not, as the board reads it.
        match self.board.parse_move(text) {
            Err(MoveError::Malformed(m)) => Err(MoveError::Malformed(m)),
            _ => Err(MoveError::Illegal(excerpt(text))),
        }
    }

    fn describe(&self, mv: Move) -> Option<MoveDescription> {
        self.board.describe(mv)
    }
}

impl Ruleset for ProgressivePosition {
    const ID: &'static str = "progressive";

    fn option_specs() -> &'static [OptionSpec] {
        ProgressiveParts::option_specs()
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}

/// The moves of `game` in the rules file's numbered-series notation: each series prefixed by
/// its number, its moves in coordinate notation separated by spaces
/// (`1. e2e4 2. e7e5 g8f6 3. d2d4 f1c4 d1h5`). A game that starts in the middle of a series
/// writes `n. ...` before the rest of that series.
pub fn write_series(game: &Game<ProgressivePosition>) -> String {
    let mut out = String::new();
    for (i, &mv) in game.moves().iter().enumerate() {
        let before = &game.positions()[i];
        if before.played == 0 || i == 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("{}.", before.series));
            if before.played > 0 {
                out.push_str(" ...");
            }
        }
        out.push(' ');
        out.push_str(&before.move_text(mv));
    }
    out
}

/// Plays moves written in numbered-series notation (as [`write_series`] writes them) on
/// `game`. Every series must start with its number (`n.`, optionally followed by `...` when
/// the game stands in the middle of series n); the moves are coordinate moves. Stops at the
/// first error, with the moves before it played.
pub fn play_series(game: &mut Game<ProgressivePosition>, text: &str) -> Result<(), MoveError> {
    // The series whose number has been read and which has not ended since.
    let mut numbered: Option<u32> = None;
    for token in text.split_whitespace() {
        let position = game.position();
        if token == "..." {
            continue;
        }
        if let Some(number) = token.strip_suffix('.') {
            let n: u32 = number
                .parse()
                .map_err(|_| MoveError::Malformed(excerpt(token)))?;
            if n != position.series {
                return Err(MoveError::Illegal(format!(
                    "series {n} given where series {} is to be played",
                    position.series
                )));
            }
            numbered = Some(n);
            continue;
        }
        if numbered != Some(position.series) {
            return Err(MoveError::Malformed(format!(
                "series number {} missing before {}",
                position.series,
                excerpt(token)
            )));
        }
        game.play_text(token)?;
    }
    Ok(())
}
