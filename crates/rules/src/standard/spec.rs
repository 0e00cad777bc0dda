//! The compiled data of a ruleset played on a [`StandardPosition`](super::StandardPosition).

use crate::eval::{EvalPiece, EvalTables, phase_of};
use crate::legend::PieceStyle;
use crate::options::RuleOptions;
use crate::piece::{Kind, PieceType, Player};
use crate::position::DrawRules;
use crate::structure::StructureTables;
use crate::tables::{AttackTables, KindSource, MoveTables, TableError, build_tables};
use crate::weights::EvalWeights;
use crate::zobrist::{ZobristKeys, seed_for};
use chaturanga_geometry::{Cell, CellSet, Geometry, Vector};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Mutex;

/// A castling move: king and rook travel together.
#[derive(Clone, Debug)]
pub struct Castling<const W: usize> {
    /// Whose castling.
    pub player: Player,
    /// Letter in the FEN castling field (`K`, `Q`, `k`, `q`).
    pub symbol: char,
    /// King's start cell.
    pub king_from: Cell,
    /// King's destination.
    pub king_to: Cell,
    /// The cell the move is written to: the king's destination, or the rook's cell where
    /// castling is written as the king taking its own rook (Chess960, where the king's own
    /// step could be an ordinary move or no step at all).
    pub move_to: Cell,
    /// Rook's start cell.
    pub rook_from: Cell,
    /// Rook's destination.
    pub rook_to: Cell,
    /// Cells that must be empty (everything the two pieces pass or land on, but themselves).
    pub must_be_empty: CellSet<W>,
    /// Cells that must not be attacked: the king's start, the cells it crosses, its landing.
    pub king_path: CellSet<W>,
    /// The kinds of the king and the rook (the pieces that must be at home for the right).
    pub kinds: (Kind, Kind),
}

/// The castlings of a position: the ruleset's own ([`Spec::castlings`]) or, where castling
/// follows the men's start files ([`FreeCastling`]), those a FEN's castling field names.
/// It dereferences to the list, so a castling right is an index into it.
#[derive(Clone, Debug, Default)]
pub struct CastlingTable<const W: usize> {
    /// The castlings, in FEN order.
    pub list: Vec<Castling<W>>,
    /// Per cell, the castling rights lost when a move starts or ends there.
    pub loss: Vec<u16>,
    /// The hash key of each castling right.
    pub keys: Vec<u64>,
}

impl<const W: usize> Deref for CastlingTable<W> {
    type Target = [Castling<W>];

    fn deref(&self) -> &[Castling<W>] {
        &self.list
    }
}

impl<const W: usize> CastlingTable<W> {
    /// A table of `list` on a board of `cells` cells, with these keys.
    fn new(list: Vec<Castling<W>>, cells: usize, keys: Vec<u64>) -> Self {
        let mut loss = vec![0u16; cells];
        for (i, c) in list.iter().enumerate() {
            loss[c.king_from.index()] |= 1 << i;
            loss[c.rook_from.index()] |= 1 << i;
        }
        CastlingTable { list, loss, keys }
    }
}

/// Castling as Chess960 has it: a king castles with a rook of his back rank on either side
/// of him, from whatever files they start on, and the two land on fixed files (`g` and `f`
/// on the side of the higher files, `c` and `d` on the other). Which rooks may castle is
/// what a FEN's castling field names (`K`/`Q` for the outermost rook of a side, or the rook's
/// file, `HAha`), so a position builds its [`CastlingTable`] from its FEN
/// ([`Spec::free_castling_table`]). The move is written as the king taking its rook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeCastling {
    /// The king's destination file (0 = `a`) castling towards the higher files, then the
    /// lower.
    pub king_to: [i32; 2],
    /// The rook's destination file, likewise.
    pub rook_to: [i32; 2],
}

/// One castling right of a position under [`FreeCastling`]: whose, his king's cell, the rook's.
pub type FreeRight = (Player, Cell, Cell);

/// One compiled way to promote.
#[derive(Clone, Debug)]
pub struct PromotionZone<const W: usize> {
    /// A move ending here may promote.
    pub zone: CellSet<W>,
    /// A move starting in the zone may promote too.
    pub from_zone: bool,
    /// Kinds it may become.
    pub choices: Vec<Kind>,
    /// Choices are limited by the ruleset's piece counts.
    pub limited: bool,
}

/// The compiled promotion rules of one piece kind for one player.
#[derive(Clone, Debug)]
pub struct Promotion<const W: usize> {
    /// The ways to promote.
    pub zones: Vec<PromotionZone<W>>,
    /// A move ending here must promote.
    pub forced: CellSet<W>,
    /// Every move that may promote must.
    pub compulsory: bool,
}

/// How positions and moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// FEN with castling and en passant fields; moves `e7e8q`, drops `P@e4`.
    #[default]
    Chess,
    /// SFEN (side `b`/`w` for first/second player, hands after the side, a move number that
    /// counts plies); USI moves `8h2b+`, drops `P*5e`.
    Shogi,
}

/// Description of a castling for the builder, by cell labels.
#[derive(Clone, Debug)]
pub struct CastlingDef {
    /// Whose castling.
    pub player: Player,
    /// FEN letter.
    pub symbol: char,
    /// King from, king to, rook from, rook to (labels).
    pub cells: [String; 4],
    /// Every cell between king and rook must be unattacked too (Big Outer Chess's strict
    /// option), not only the king's path.
    pub safe_between: bool,
}

impl CastlingDef {
    /// A castling of `player` written `symbol`: king and rook from and to (labels).
    pub fn new(player: Player, symbol: char, cells: [&str; 4]) -> Self {
        CastlingDef {
            player,
            symbol,
            cells: cells.map(str::to_string),
            safe_between: false,
        }
    }
}

/// Problems in a ruleset definition (programming errors in a variant module, reported with
/// enough detail to fix them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The tables could not be built.
    Tables(TableError),
    /// A region the pieces refer to does not exist.
    MissingRegion(String),
    /// A cell label that is not on the board.
    UnknownCell(String),
    /// A promotion choice that is not a piece symbol.
    UnknownPiece(String),
    /// The position type was instantiated with the wrong number of kinds or cell words.
    Size(String),
    /// Rule options that do not go together (a user's error, not the module's).
    Options(String),
    /// The family's evaluation weights file does not read.
    Weights(crate::weights::WeightsError),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Tables(e) => write!(f, "{e}"),
            SpecError::MissingRegion(r) => write!(f, "missing region {r:?}"),
            SpecError::UnknownCell(c) => write!(f, "unknown cell {c:?}"),
            SpecError::UnknownPiece(p) => write!(f, "unknown piece {p:?}"),
            SpecError::Size(s) | SpecError::Options(s) => write!(f, "{s}"),
            SpecError::Weights(e) => write!(f, "evaluation {e}"),
        }
    }
}

impl std::error::Error for SpecError {}

impl From<TableError> for SpecError {
    fn from(e: TableError) -> Self {
        SpecError::Tables(e)
    }
}

/// Everything about a ruleset that does not change during a game, compiled for fast access.
#[derive(Debug)]
pub struct Spec<const W: usize> {
    /// Ruleset id (`chess`).
    pub id: &'static str,
    /// The board.
    pub geometry: Geometry,
    /// Piece types, indexed by kind.
    pub pieces: Vec<PieceType>,
    /// Every cell of the board.
    pub cells: CellSet<W>,
    /// Forward movement.
    pub moves: MoveTables<W>,
    /// Reverse movement (attacks).
    pub attacks: AttackTables<W>,
    /// Promotion per (player, kind), index `player * kinds + kind`.
    pub promotions: Vec<Option<Promotion<W>>>,
    /// The ruleset's castling moves, in FEN order (none where castling follows the start
    /// files, [`Spec::free_castling`]).
    pub castlings: CastlingTable<W>,
    /// Castling from the files the king and rooks start on (Chess960), if the ruleset has it.
    pub free_castling: Option<FreeCastling>,
    /// The castling tables built for positions under [`Spec::free_castling`], by their
    /// rights: one per array met, kept for the process.
    free_tables: Mutex<HashMap<Vec<FreeRight>, &'static CastlingTable<W>>>,
    /// The royal kinds (checkmating or capturing the player's one royal piece decides).
    pub royal_kinds: Vec<Kind>,
    /// Kinds that may capture en passant.
    pub en_passant_capturers: Vec<Kind>,
    /// Kinds (bit `k`) whose quiet advances may create en passant targets.
    pub en_passant_kinds: u64,
    /// Per (player, from cell): destinations of en-passant-creating advances and the cells
    /// they skip.
    pub double_steps: Vec<Vec<(Cell, CellSet<W>)>>,
    /// Per kind, the most pieces of it a player may have for limited promotions (`u8::MAX`:
    /// no limit).
    pub promotion_limits: Vec<u8>,
    /// Per (player, kind): where a piece in hand may be dropped (`None`: any empty cell).
    pub drop_zones: Vec<Option<CellSet<W>>>,
    /// Captures are compulsory (Losing chess).
    pub compulsory_capture: bool,
    /// FEN writes the hands (`[...]`) even when they are empty.
    pub hands_always_shown: bool,
    /// Whether a drop or a promotion resets the quiet-ply counter like a pawn move or capture
    /// (Fairy-Stockfish's FEN counts so in its drop games; elsewhere the fifty-move rule
    /// decides, and a piece's promotion that is not a pawn move does not reset it).
    pub drops_reset_quiet_plies: bool,
    /// Captured pieces go to the captor's hand (shogi).
    pub captures_to_hand: bool,
    /// Per kind, the kind it becomes in the captor's hand.
    pub demoted: Vec<Kind>,
    /// Order in which SFEN lists the kinds in hand.
    pub hand_order: Vec<Kind>,
    /// FEN and move notation style.
    pub notation: Notation,
    /// FEN has a castling field (between the side to move and the en passant field). Boards
    /// whose FEN defines none (Gliński's hexagonal chess) leave it out when reading and
    /// writing.
    pub castling_field: bool,
    /// Per (player, kind), index `player * kinds + kind`: the cells where whether the piece
    /// has moved matters (the initial region of kinds whose initial moves need the piece
    /// unmoved; empty for every other kind). Positions track moved pieces only there.
    pub unmoved_matters: Vec<CellSet<W>>,
    /// Per cell, the cells of its file (same lattice column).
    pub files: Vec<CellSet<W>>,
    /// Hash keys.
    pub zobrist: ZobristKeys,
    /// The start position's FEN.
    pub start_fen: String,
    /// Rule options in force.
    pub options: RuleOptions,
    /// Draw rules in force.
    pub draw_rules: DrawRules,
    /// Piece values and placement tables for the evaluation.
    pub eval: EvalTables,
    /// Passed pawns and confined pieces for the evaluation's structure terms.
    pub structure: StructureTables<W>,
    /// The family of piece pictures front ends draw the men with.
    pub style: PieceStyle,
}

impl<const W: usize> Spec<W> {
    /// Number of piece kinds.
    pub fn kinds(&self) -> usize {
        self.pieces.len()
    }

    /// Whether `kind` is royal.
    #[inline(always)]
    pub fn is_royal(&self, kind: Kind) -> bool {
        self.royal_kinds.contains(&kind)
    }

    /// Where `player` may drop `kind`, if limited.
    #[inline(always)]
    pub fn drop_zone(&self, player: Player, kind: Kind) -> Option<CellSet<W>> {
        self.drop_zones[player as usize * self.pieces.len() + kind as usize]
    }

    /// The kind with this symbol (`P`, `+R`), case-insensitive on the letter.
    pub fn kind_by_symbol(&self, symbol: &str) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.symbol.eq_ignore_ascii_case(symbol))
            .map(|k| k as Kind)
    }

    /// The promotion rule of `player`'s `kind`.
    #[inline(always)]
    pub fn promotion(&self, player: Player, kind: Kind) -> Option<&Promotion<W>> {
        self.promotions[player as usize * self.pieces.len() + kind as usize].as_ref()
    }

    /// The cells skipped by the en-passant-creating advance `from` -> `to` of `player`
    /// (empty if the move creates no targets).
    #[inline]
    pub fn skipped_cells(&self, player: Player, from: Cell, to: Cell) -> CellSet<W> {
        self.double_steps[player as usize * self.geometry.len() + from.index()]
            .iter()
            .find(|(t, _)| *t == to)
            .map(|(_, s)| *s)
            .unwrap_or_default()
    }

    /// A cell by label, for variant modules.
    pub fn cell(&self, label: &str) -> Option<Cell> {
        self.geometry.cell_by_label(label)
    }

    /// The castling table of a position under [`Spec::free_castling`] whose rights are
    /// `rights` (at most one per player and side, the king and the rook on the player's
    /// back rank, which the FEN reader has checked), built the first time it is asked for.
    /// Castlings are listed as X-FEN writes them: the first player's, then the second's,
    /// each from the rook on the highest file down.
    pub fn free_castling_table(
        &'static self,
        rights: &[FreeRight],
    ) -> Result<&'static CastlingTable<W>, SpecError> {
        let Some(free) = self.free_castling else {
            return Ok(&self.castlings);
        };
        let mut rights = rights.to_vec();
        let file = |cell: Cell| self.geometry.coords(cell).0;
        rights.sort_by_key(|&(player, _, rook)| (player, std::cmp::Reverse(file(rook))));
        let mut tables = self.free_tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(table) = tables.get(&rights) {
            return Ok(table);
        }
        let kinds = (self.symbol_kind("K")?, self.symbol_kind("R")?);
        let mut list = Vec::new();
        let mut keys = Vec::new();
        for &(player, king_from, rook_from) in &rights {
            let side = usize::from(file(rook_from) < file(king_from));
            let rank = self.geometry.coords(king_from).1;
            let on_rank = |x: i32| {
                self.geometry
                    .at(x, rank)
                    .ok_or_else(|| SpecError::UnknownCell(format!("file {x} of rank {rank}")))
            };
            let (king_to, rook_to) = (on_rank(free.king_to[side])?, on_rank(free.rook_to[side])?);
            let symbol = match (player, side) {
                (0, 0) => 'K',
                (0, _) => 'Q',
                (_, 0) => 'k',
                _ => 'q',
            };
            let mut castling = compile_castling::<W>(
                &self.geometry,
                player,
                symbol,
                [king_from, king_to, rook_from, rook_to],
                false,
                kinds,
            )?;
            castling.move_to = rook_from;
            list.push(castling);
            // A key per (player, king cell, rook cell), so rights to different rooks hash
            // differently.
            let mut rng = crate::zobrist::SplitMix64::new(
                seed_for(self.id)
                    ^ ((player as u64) << 32)
                    ^ ((king_from.index() as u64) << 16)
                    ^ rook_from.index() as u64,
            );
            keys.push(rng.next_u64());
        }
        let table: &'static CastlingTable<W> = Box::leak(Box::new(CastlingTable::new(
            list,
            self.geometry.len(),
            keys,
        )));
        tables.insert(rights, table);
        Ok(table)
    }

    fn symbol_kind(&self, symbol: &str) -> Result<Kind, SpecError> {
        self.pieces
            .iter()
            .position(|p| p.symbol == symbol)
            .map(|k| k as Kind)
            .ok_or_else(|| SpecError::UnknownPiece(symbol.to_string()))
    }
}

/// Compiles one castling: king and rook from and to.
fn compile_castling<const W: usize>(
    geometry: &Geometry,
    player: Player,
    symbol: char,
    [king_from, king_to, rook_from, rook_to]: [Cell; 4],
    safe_between: bool,
    kinds: (Kind, Kind),
) -> Result<Castling<W>, SpecError> {
    let between = |a: Cell, b: Cell| -> Result<CellSet<W>, SpecError> {
        if a == b {
            return Ok(CellSet::EMPTY);
        }
        geometry
            .between(a, b)
            .map(CellSet::from_cells)
            .ok_or_else(|| {
                SpecError::UnknownCell(format!(
                    "{} is not on a line with {}",
                    geometry.label(a),
                    geometry.label(b)
                ))
            })
    };
    // Every cell a man passes or lands on, the last included.
    let span = |a: Cell, b: Cell| -> Result<CellSet<W>, SpecError> {
        let mut s = between(a, b)?;
        s.insert(b);
        Ok(s)
    };
    let mut must_be_empty = span(king_from, king_to)? | span(rook_from, rook_to)?;
    must_be_empty |= between(king_from, rook_from).unwrap_or_default();
    must_be_empty.remove(king_from);
    must_be_empty.remove(rook_from);
    let mut king_path = span(king_from, king_to)?;
    king_path.insert(king_from);
    if safe_between {
        king_path |= between(king_from, rook_from).unwrap_or_default();
        king_path.remove(rook_from);
    }
    Ok(Castling {
        kinds,
        player,
        symbol,
        king_from,
        king_to,
        move_to: king_to,
        rook_from,
        rook_to,
        must_be_empty,
        king_path,
    })
}

/// The orientation of each player in a two-player game on a lattice: the second player sits
/// opposite, so his forward and his left are the first player's backward and right.
pub const TWO_PLAYER_ORIENTATIONS: [fn(Vector) -> Vector; 2] = [|v| v, Vector::reversed];

/// Builds a [`Spec`].
pub struct SpecBuilder {
    id: &'static str,
    geometry: Geometry,
    pieces: Vec<PieceType>,
    castlings: Vec<CastlingDef>,
    free_castling: Option<FreeCastling>,
    start_fen: String,
    options: RuleOptions,
    draw_rules: DrawRules,
    limits: Vec<(String, u8)>,
    drop_zones: Vec<(String, String)>,
    compulsory_capture: bool,
    captures_to_hand: bool,
    hand_order: Vec<String>,
    notation: Notation,
    values: Vec<(String, i32)>,
    weights: EvalWeights,
    castling_field: bool,
    style: PieceStyle,
}

impl SpecBuilder {
    /// Starts a ruleset on a board.
    pub fn new(id: &'static str, geometry: Geometry) -> Self {
        SpecBuilder {
            id,
            geometry,
            pieces: Vec::new(),
            castlings: Vec::new(),
            free_castling: None,
            start_fen: String::new(),
            options: RuleOptions::default(),
            draw_rules: DrawRules::default(),
            limits: Vec::new(),
            drop_zones: Vec::new(),
            compulsory_capture: false,
            captures_to_hand: false,
            hand_order: Vec::new(),
            notation: Notation::Chess,
            values: Vec::new(),
            weights: EvalWeights::default(),
            castling_field: true,
            style: PieceStyle::Western,
        }
    }

    /// The FEN has no castling field: side to move, en passant, clocks (rulesets without
    /// castling whose rules file defines the FEN so).
    pub fn without_castling_field(mut self) -> Self {
        self.castling_field = false;
        self
    }

    /// The family of piece pictures (chess men, [`PieceStyle::Western`], unless set).
    pub fn style(mut self, style: PieceStyle) -> Self {
        self.style = style;
        self
    }

    /// The ruleset id being built.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Piece values for the evaluation, in centipawns, by symbol; pieces not listed are
    /// valued by their mobility.
    pub fn values(mut self, values: &[(&str, i32)]) -> Self {
        self.values = values.iter().map(|&(s, v)| (s.to_string(), v)).collect();
        self
    }

    /// The evaluation's weights (the defaults unless the ruleset's family has tuned ones).
    pub fn weights(mut self, weights: EvalWeights) -> Self {
        self.weights = weights;
        self
    }

    /// Captured pieces go to the captor's hand, listed in SFEN in `hand_order` (symbols).
    pub fn captures_to_hand(mut self, hand_order: &[&str]) -> Self {
        self.captures_to_hand = true;
        self.hand_order = hand_order.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Sets the FEN and move notation style.
    pub fn notation(mut self, notation: Notation) -> Self {
        self.notation = notation;
        self
    }

    /// Sets the piece-count limits of limited promotions, by symbol.
    pub fn promotion_limits(mut self, limits: &[(&str, u8)]) -> Self {
        self.limits = limits.iter().map(|&(s, n)| (s.to_string(), n)).collect();
        self
    }

    /// Restricts where pieces of `symbol` may be dropped from hand to a region.
    pub fn drop_zone(mut self, symbol: &str, region: &str) -> Self {
        self.drop_zones
            .push((symbol.to_string(), region.to_string()));
        self
    }

    /// Makes captures compulsory.
    pub fn compulsory_capture(mut self) -> Self {
        self.compulsory_capture = true;
        self
    }

    /// Adds a piece type; kinds are numbered in the order added.
    pub fn piece(mut self, piece: PieceType) -> Self {
        self.pieces.push(piece);
        self
    }

    /// Adds a castling move.
    pub fn castling(mut self, def: CastlingDef) -> Self {
        self.castlings.push(def);
        self
    }

    /// Castling from the files the king and rooks start on, as Chess960 has it, instead of
    /// the castlings given with [`SpecBuilder::castling`]: king and rook land on files
    /// `king_to` and `rook_to` (letters, the side of the higher files first).
    pub fn free_castling(mut self, king_to: [char; 2], rook_to: [char; 2]) -> Self {
        let file = |c: char| c as i32 - 'a' as i32;
        self.free_castling = Some(FreeCastling {
            king_to: king_to.map(file),
            rook_to: rook_to.map(file),
        });
        self
    }

    /// Sets the start position.
    pub fn start(mut self, fen: &str) -> Self {
        self.start_fen = fen.to_string();
        self
    }

    /// Records the rule options in force.
    pub fn options(mut self, options: RuleOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets the draw rules.
    pub fn draw_rules(mut self, rules: DrawRules) -> Self {
        self.draw_rules = rules;
        self
    }

    fn region_cells(&self, name: &str) -> Result<Vec<Vec<Cell>>, SpecError> {
        self.geometry
            .region(name)
            .map(|r| r.cells.clone())
            .ok_or_else(|| SpecError::MissingRegion(name.to_string()))
    }

    /// Compiles everything.
    pub fn build<const W: usize>(self) -> Result<Spec<W>, SpecError> {
        let cells_n = self.geometry.len();
        if cells_n > CellSet::<W>::CAPACITY {
            return Err(SpecError::Size(format!(
                "{} cells do not fit {} words",
                cells_n, W
            )));
        }
        let players = 2usize;
        let kinds = self.pieces.len();
        let mut sources = Vec::new();
        for p in &self.pieces {
            let initial_cells = match &p.initial_region {
                Some(r) => self.region_cells(r)?,
                None => vec![Vec::new(); players],
            };
            let mut zone_moves = Vec::new();
            for (region, betza) in &p.zone_moves {
                zone_moves.push((self.region_cells(region)?, betza));
            }
            let confine = match &p.confined_to {
                Some(r) => Some(self.region_cells(r)?),
                None => None,
            };
            sources.push(KindSource {
                moves: &p.moves,
                zone_moves,
                bent: &p.bent,
                initial_cells,
                confine,
                check_only: p.check_only.as_ref(),
                initial_only_unmoved: p.initial_only_unmoved,
            });
        }
        let (moves, attacks) =
            build_tables::<W>(&self.geometry, &sources, &TWO_PLAYER_ORIENTATIONS)?;

        let symbol_kind = |sym: &str| {
            self.pieces
                .iter()
                .position(|q| q.symbol == sym)
                .map(|k| k as Kind)
                .ok_or_else(|| SpecError::UnknownPiece(sym.to_string()))
        };
        let mut promotions = Vec::with_capacity(players * kinds);
        for player in 0..players {
            for p in &self.pieces {
                if p.promotions.is_empty() && p.must_promote_in.is_none() {
                    promotions.push(None);
                    continue;
                }
                let mut zones = Vec::new();
                for rule in &p.promotions {
                    let zone = &self.region_cells(&rule.zone)?[player];
                    let choices = rule
                        .choices
                        .iter()
                        .map(|sym| symbol_kind(sym))
                        .collect::<Result<Vec<_>, _>>()?;
                    zones.push(PromotionZone {
                        zone: CellSet::from_cells(zone.iter().copied()),
                        from_zone: rule.from_zone,
                        choices,
                        limited: rule.limited,
                    });
                }
                let forced = match &p.must_promote_in {
                    Some(r) => CellSet::from_cells(self.region_cells(r)?[player].iter().copied()),
                    None => CellSet::EMPTY,
                };
                promotions.push(Some(Promotion {
                    zones,
                    forced,
                    compulsory: p.promotion_compulsory,
                }));
            }
        }
        let mut unmoved_matters = vec![CellSet::EMPTY; players * kinds];
        for (k, p) in self.pieces.iter().enumerate() {
            if !p.initial_only_unmoved {
                continue;
            }
            let Some(region) = &p.initial_region else {
                continue;
            };
            for (player, cells) in self.region_cells(region)?.iter().enumerate().take(players) {
                unmoved_matters[player * kinds + k] = CellSet::from_cells(cells.iter().copied());
            }
        }
        let mut promotion_limits = vec![u8::MAX; kinds];
        for (sym, n) in &self.limits {
            promotion_limits[symbol_kind(sym)? as usize] = *n;
        }
        let mut drop_zones = vec![None; players * kinds];
        for (sym, region) in &self.drop_zones {
            let k = symbol_kind(sym)? as usize;
            let cells = self.region_cells(region)?;
            for (player, list) in cells.iter().enumerate().take(players) {
                drop_zones[player * kinds + k] = Some(CellSet::from_cells(list.iter().copied()));
            }
        }

        let cell = |label: &str| {
            self.geometry
                .cell_by_label(label)
                .ok_or_else(|| SpecError::UnknownCell(label.to_string()))
        };
        let mut castlings = Vec::new();
        if self.free_castling.is_none() {
            for def in &self.castlings {
                let [kf, kt, rf, rt] = &def.cells;
                castlings.push(compile_castling::<W>(
                    &self.geometry,
                    def.player,
                    def.symbol,
                    [cell(kf)?, cell(kt)?, cell(rf)?, cell(rt)?],
                    def.safe_between,
                    (symbol_kind("K")?, symbol_kind("R")?),
                )?);
            }
        }

        // En passant: quiet straight advances of pieces with `e` captures whose length is in
        // the piece's range record the cells they skip.
        let mut double_steps = vec![Vec::new(); players * cells_n];
        let mut en_passant_kinds = 0u64;
        for (k, piece) in self.pieces.iter().enumerate() {
            if !piece.captures_en_passant() {
                continue;
            }
            en_passant_kinds |= 1 << k;
            let (min, max) = piece.en_passant_advances;
            let qualifies = |skipped: CellSet<W>| {
                let length = skipped.count() + 1;
                skipped.any() && length >= min as u32 && length <= max as u32
            };
            for player in 0..players as u8 {
                for from in self.geometry.cells() {
                    let list = &mut double_steps[player as usize * cells_n + from.index()];
                    let m = moves.get(player, k as Kind, from);
                    for l in &moves.lame[m.lame.range()] {
                        if l.quiet && !l.capture && qualifies(l.path) {
                            list.push((l.to, l.path));
                        }
                    }
                    for r in &moves.rays[m.rays.range()] {
                        if r.quiet && !r.capture {
                            for to in r.ray.cells {
                                let skipped = r.ray.up_to(to).without(CellSet::from_cell(to));
                                if qualifies(skipped) {
                                    list.push((to, skipped));
                                }
                            }
                        }
                    }
                }
            }
        }

        let royal_kinds = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .map(|(k, _)| k as Kind)
            .collect();
        let en_passant_capturers = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.captures_en_passant())
            .map(|(k, _)| k as Kind)
            .collect();
        let demoted = self
            .pieces
            .iter()
            .enumerate()
            .map(|(k, p)| match &p.demotes_to {
                Some(sym) => symbol_kind(sym),
                None => Ok(k as Kind),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let hand_order = self
            .hand_order
            .iter()
            .map(|sym| symbol_kind(sym))
            .collect::<Result<Vec<_>, _>>()?;
        let files = self
            .geometry
            .cells()
            .map(|c| {
                let x = self.geometry.coords(c).0;
                self.geometry
                    .cells()
                    .filter(|&o| self.geometry.coords(o).0 == x)
                    .collect()
            })
            .collect();
        let zobrist = ZobristKeys::new(seed_for(self.id), players, kinds, cells_n, castlings.len());
        let castlings = CastlingTable::new(castlings, cells_n, zobrist.castling.clone());
        let (eval, structure) = self.eval_tables(&moves, &attacks, &promotions, players)?;
        Ok(Spec {
            id: self.id,
            cells: CellSet::from_cells(self.geometry.cells()),
            geometry: self.geometry,
            pieces: self.pieces,
            moves,
            attacks,
            promotions,
            castlings,
            free_castling: self.free_castling,
            free_tables: Mutex::default(),
            royal_kinds,
            en_passant_capturers,
            en_passant_kinds,
            double_steps,
            promotion_limits,
            drop_zones,
            compulsory_capture: self.compulsory_capture,
            hands_always_shown: false,
            drops_reset_quiet_plies: false,
            captures_to_hand: self.captures_to_hand,
            demoted,
            hand_order,
            notation: self.notation,
            castling_field: self.castling_field,
            unmoved_matters,
            files,
            zobrist,
            start_fen: self.start_fen,
            options: self.options,
            draw_rules: self.draw_rules,
            eval,
            structure,
            style: self.style,
        })
    }

    /// Evaluation tables: given values, mobility estimates for the rest, and the phase of the
    /// start position.
    fn eval_tables<const W: usize>(
        &self,
        moves: &MoveTables<W>,
        attacks: &AttackTables<W>,
        promotions: &[Option<Promotion<W>>],
        players: usize,
    ) -> Result<(EvalTables, StructureTables<W>), SpecError> {
        let kinds = self.pieces.len();
        let mut given = vec![None; kinds];
        let kind_of = |sym: &String| {
            self.pieces
                .iter()
                .position(|p| p.symbol == *sym)
                .ok_or_else(|| SpecError::UnknownPiece(sym.clone()))
        };
        for (sym, v) in &self.values {
            given[kind_of(sym)?] = Some(*v);
        }
        // The family's fitted values replace the ruleset's; a royal piece keeps its own.
        for (sym, v) in &self.weights.values {
            let k = kind_of(sym)?;
            if !self.pieces[k].royal {
                given[k] = Some(*v);
            }
        }
        let pieces: Vec<EvalPiece<'_>> = self
            .pieces
            .iter()
            .enumerate()
            .map(|(k, p)| EvalPiece {
                piece: p,
                given_value: given[k],
                royal: p.royal,
                promotion: (0..players)
                    .map(|pl| {
                        promotions[pl * kinds + k].as_ref().and_then(|pr| {
                            let mut zone: CellSet<W> = pr.forced;
                            let mut choices = Vec::new();
                            for z in &pr.zones {
                                zone |= z.zone;
                                choices.extend(z.choices.iter().copied());
                            }
                            (!choices.is_empty()).then(|| (zone.iter().collect(), choices))
                        })
                    })
                    .collect(),
            })
            .collect();
        let tables = EvalTables::build(&self.geometry, moves, &pieces, players, &self.weights);
        let structure = StructureTables::build(
            &self.geometry,
            moves,
            attacks,
            &pieces,
            players,
            self.captures_to_hand,
        );
        let board = self.start_fen.split(' ').next().unwrap_or("");
        let full = phase_of(&tables, start_kinds(board, &self.pieces));
        Ok((tables.with_full_phase(full), structure))
    }
}

/// The kinds of the pieces on the board part of a FEN (`+` prefixes and `'`/`!` suffixes
/// included in the symbol).
fn start_kinds<'a>(board: &'a str, pieces: &'a [PieceType]) -> impl Iterator<Item = Kind> + 'a {
    let chars: Vec<char> = board.chars().collect();
    let mut symbols = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut sym = String::new();
        if chars[i] == '+' {
            sym.push('+');
            i += 1;
        }
        if i < chars.len() && chars[i].is_ascii_alphabetic() {
            sym.push(chars[i].to_ascii_uppercase());
            i += 1;
            if i < chars.len() && (chars[i] == '\'' || chars[i] == '!') {
                sym.push(chars[i]);
                i += 1;
            }
            symbols.push(sym);
        } else if sym.is_empty() {
            i += 1;
        }
    }
    symbols.into_iter().filter_map(move |sym| {
        pieces
            .iter()
            .position(|p| p.symbol.eq_ignore_ascii_case(&sym))
            .map(|k| k as Kind)
    })
}

/// Small rulesets for the unit tests of the standard position (FEN, move generation).
#[cfg(test)]
pub(super) mod fixtures {
    use super::{CastlingDef, Spec, SpecBuilder, SpecError};
    use crate::options::{OptionSpec, RuleOptions};
    use crate::piece::PieceType;
    use crate::position::Position;
    use crate::standard::{Rules, StandardPosition, spec_for};
    use chaturanga_geometry::GeometryBuilder;

    /// A region of whole ranks `own` (0-based, counted from each player's side).
    fn mirrored(files: i32, height: i32, own: &[i32]) -> Vec<Vec<(i32, i32)>> {
        let ranks = |ys: Vec<i32>| {
            ys.into_iter()
                .flat_map(|y| (0..files).map(move |x| (x, y)))
                .collect()
        };
        vec![
            ranks(own.to_vec()),
            ranks(own.iter().map(|y| height - 1 - y).collect()),
        ]
    }

    fn piece(symbol: &str, name: &str, betza: &str) -> PieceType {
        PieceType::new(symbol, name, betza).unwrap()
    }

    /// A test ruleset `$name` with `$kinds` piece kinds on a board of one cell word, built by
    /// `$build`, and its position type.
    macro_rules! unit_rules {
        ($(#[$doc:meta])* $name:ident, $position:ident, $kinds:literal, $build:expr) => {
            $(#[$doc])*
            #[derive(Clone, Copy, Default, Debug)]
            pub struct $name;

            /// A position of the ruleset.
            pub type $position = StandardPosition<1, $kinds, $name>;

            impl Rules<1, $kinds> for $name {
                const ID: &'static str = stringify!($name);

                fn option_specs() -> &'static [OptionSpec] {
                    &[]
                }

                fn build(_: &RuleOptions) -> Result<Spec<1>, SpecError> {
                    $build
                }
            }
        };
    }

    unit_rules!(
        /// Chess whose captured men go to the captor's hand, as in crazyhouse: P N B R Q K,
        /// castling, en passant, promotion, drops, pawns dropped on ranks 2-7 only.
        House,
        HousePosition,
        6,
        {
            let geometry = GeometryBuilder::rectangle(8, 8)
                .region("last-rank", mirrored(8, 8, &[7]))
                .region("pawn-start", mirrored(8, 8, &[1]))
                .region("pawn-drop", mirrored(8, 8, &[1, 2, 3, 4, 5, 6]))
                .build()
                .map_err(|e| SpecError::Size(e.to_string()))?;
            let pawn = piece("P", "pawn", "fmWfceFifmnD")
                .pawn()
                .initial("pawn-start")
                .promotes("last-rank", &["Q", "R", "B", "N"])
                .must_promote_in("last-rank");
            let mut builder = SpecBuilder::new(Self::ID, geometry)
                .piece(pawn)
                .piece(piece("N", "knight", "N"))
                .piece(piece("B", "bishop", "B"))
                .piece(piece("R", "rook", "R"))
                .piece(piece("Q", "queen", "Q"))
                .piece(piece("K", "king", "K").royal())
                .captures_to_hand(&["P", "N", "B", "R", "Q"])
                .drop_zone("P", "pawn-drop")
                .start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
            for (player, rank, short, long) in [(0, 1, 'K', 'Q'), (1, 8, 'k', 'q')] {
                let c = |file: char| format!("{file}{rank}");
                builder = builder
                    .castling(CastlingDef::new(player, short, [&c('e'), &c('g'), &c('h'), &c('f')]))
                    .castling(CastlingDef::new(player, long, [&c('e'), &c('c'), &c('a'), &c('d')]));
            }
            builder.build()
        }
    );

    unit_rules!(
        /// A 5x5 board with king, rook, knight, xiangqi's lame horse (`H`) and cannon (`C`):
        /// attacks that lines and leaps cannot describe, so legality needs the slow tests.
        Tiny,
        TinyPosition,
        5,
        SpecBuilder::new(Self::ID, GeometryBuilder::rectangle(5, 5).build().unwrap())
            .piece(piece("K", "king", "K").royal())
            .piece(piece("R", "rook", "R"))
            .piece(piece("N", "knight", "N"))
            .piece(piece("H", "horse", "nN"))
            .piece(piece("C", "cannon", "mRcpR"))
            .start("rchnk/5/5/5/RCHNK w - - 0 1")
            .build()
    );

    unit_rules!(
        /// A 5x5 board without a royal piece (the `K` is an ordinary man) where captures are
        /// compulsory, as in losing chess.
        Giveaway,
        GiveawayPosition,
        3,
        SpecBuilder::new(Self::ID, GeometryBuilder::rectangle(5, 5).build().unwrap())
            .piece(piece("K", "king", "K"))
            .piece(piece("R", "rook", "R"))
            .piece(piece("N", "knight", "N"))
            .compulsory_capture()
            .start("rnk2/5/5/5/2KNR w - - 0 1")
            .build()
    );

    /// The position of ruleset `R` a FEN describes (default options); panics if invalid.
    pub fn position<const K: usize, R: Rules<1, K>>(fen: &str) -> StandardPosition<1, K, R> {
        let spec = spec_for::<1, K, R>(&RuleOptions::default()).unwrap();
        StandardPosition::from_fen(spec, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The texts of the legal moves, sorted.
    pub fn legal<P: Position>(position: &P) -> Vec<String> {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| position.move_text(m)).collect();
        texts.sort();
        texts
    }
}

#[cfg(test)]
mod tests {
    use super::SpecBuilder;
    use crate::piece::PieceType;
    use crate::weights::EvalWeights;
    use chaturanga_geometry::GeometryBuilder;

    /// A family's weights file may set piece values (the tuner fits them): they replace the
    /// ruleset's, and a royal piece keeps its own.
    #[test]
    fn a_familys_values_replace_the_rulesets_but_a_royal_piece_keeps_its_own() {
        let build = |values: &[(&str, i32)]| {
            let piece = |s: &str, n: &str, b: &str| PieceType::new(s, n, b).unwrap();
            SpecBuilder::new(
                "unit-values",
                GeometryBuilder::rectangle(5, 5).build().unwrap(),
            )
            .piece(piece("K", "king", "K").royal())
            .piece(piece("R", "rook", "R"))
            .piece(piece("N", "knight", "N"))
            .values(&[("R", 500), ("N", 300)])
            .weights(EvalWeights {
                values: values.iter().map(|&(s, v)| (s.to_string(), v)).collect(),
                ..EvalWeights::default()
            })
            .start("rnk2/5/5/5/2KNR w - - 0 1")
            .build::<1>()
        };
        let own = build(&[]).unwrap().eval.values;
        assert_eq!(own[1..], [500, 300]);
        let fitted = build(&[("N", 340), ("K", 7)]).unwrap().eval.values;
        assert_eq!(fitted, [own[0], 500, 340]);
        assert!(build(&[("Q", 900)]).is_err());
    }
}
