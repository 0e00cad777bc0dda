//! FEN for [`StandardPosition`]: reading (with typed errors) and writing as Fairy-Stockfish
//! writes it.

use super::{Notation, Rules, Spec, SpecError, StandardPosition};
use crate::board::{MAX_FULLMOVE, no_more_fields, read_counter, read_counters, read_turn};
use crate::piece::{Piece, Player};
use crate::position::{Position, excerpt};
use chaturanga_geometry::{Cell, CellSet};
use std::fmt;

/// Longest FEN accepted.
pub const MAX_FEN_LEN: usize = 4096;

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No text.
    Empty,
    /// Longer than [`MAX_FEN_LEN`].
    TooLong(usize),
    /// The board has the wrong number of rows.
    RowCount {
        /// Rows the board has.
        expected: usize,
        /// Rows given.
        found: usize,
    },
    /// A row describes more or fewer cells than the board has there.
    RowLength {
        /// Row number from the top, 1-based.
        row: usize,
        /// Lattice points in the row.
        expected: usize,
        /// Points described.
        found: usize,
    },
    /// A `*` where there is a cell, or a cell or digit where there is none.
    Wall {
        /// Row number from the top, 1-based.
        row: usize,
    },
    /// A letter that is no piece of this ruleset.
    UnknownPiece(String),
    /// The side-to-move field.
    Turn(String),
    /// The castling field.
    Castling(String),
    /// The en passant field.
    EnPassant(String),
    /// A move counter.
    Counter(String),
    /// Extra fields after the move number.
    TrailingFields(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooLong(n) => write!(f, "FEN of {n} bytes is too long (max {MAX_FEN_LEN})"),
            FenError::RowCount { expected, found } => {
                write!(f, "FEN board has {found} rows, expected {expected}")
            }
            FenError::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "FEN row {row} describes {found} cells, expected {expected}"
            ),
            FenError::Wall { row } => {
                write!(
                    f,
                    "FEN row {row} does not match the board's missing cells ('*')"
                )
            }
            FenError::UnknownPiece(p) => write!(f, "unknown piece {p:?} in FEN"),
            FenError::Turn(t) => write!(f, "bad side to move {t:?} in FEN"),
            FenError::Castling(c) => write!(f, "bad castling field {c:?} in FEN"),
            FenError::EnPassant(e) => write!(f, "bad en passant field {e:?} in FEN"),
            FenError::Counter(c) => write!(f, "bad move counter {c:?} in FEN"),
            FenError::TrailingFields(t) => write!(f, "unexpected text {t:?} after the FEN"),
        }
    }
}

/// A problem that makes a well-formed FEN an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// A player lacks the royal piece.
    MissingRoyal(Player),
    /// A player has more than one royal piece.
    TooManyRoyals(Player),
    /// The player who just moved is in check.
    OpponentInCheck,
    /// A piece stands where it would have had to promote.
    UnpromotedPiece(String),
    /// A ruleset-specific problem.
    Other(String),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::MissingRoyal(p) => write!(f, "player {} has no king", p + 1),
            SetupProblem::TooManyRoyals(p) => write!(f, "player {} has more than one king", p + 1),
            SetupProblem::OpponentInCheck => write!(f, "the side not to move is in check"),
            SetupProblem::UnpromotedPiece(c) => write!(f, "unpromoted piece on {c}"),
            SetupProblem::Other(s) => write!(f, "{s}"),
        }
    }
}

/// Why a position could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN text is malformed.
    Fen(FenError),
    /// The FEN is well-formed but the position is impossible; every problem found.
    Invalid(Vec<SetupProblem>),
    /// The ruleset could not be built under the options given: options that do not go
    /// together ([`SpecError::Options`], a user's error), or a bug in a variant module.
    Spec(SpecError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "{e}"),
            SetupError::Invalid(problems) => {
                let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                write!(f, "invalid position: {}", list.join("; "))
            }
            SetupError::Spec(SpecError::Options(e)) => write!(f, "{e}"),
            SetupError::Spec(e) => write!(f, "ruleset definition error: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Fen(e) => Some(e),
            SetupError::Spec(e) => Some(e),
            SetupError::Invalid(_) => None,
        }
    }
}

impl From<SpecError> for SetupError {
    fn from(e: SpecError) -> Self {
        SetupError::Spec(e)
    }
}

impl From<FenError> for SetupError {
    fn from(e: FenError) -> Self {
        SetupError::Fen(e)
    }
}

/// Reads a FEN board field (rows from the top, `*` for points that are not cells, empty runs
/// of any length, `+` before promoted pieces) into (cell, piece) pairs. Rulesets with their
/// own position type and FEN use it for the board part.
///
/// A piece token is an optional `+` or `-` prefix, one letter, an optional `'` or `!`, and an
/// optional count in braces (`{12}`, at most three digits); the whole token, letter upper-cased,
/// must be the symbol of one of the spec's piece types. Rulesets whose men carry a state or a
/// count give each value its own piece type (`-R` a frozen rook, `P{2}` a two-disk tower), so
/// hashing, tables and [`write_board`] need nothing more.
pub fn parse_board<const W: usize>(
    spec: &Spec<W>,
    text: &str,
) -> Result<Vec<(Cell, Piece)>, FenError> {
    let rows = spec.geometry.rows_from_top();
    let given: Vec<&str> = text.split('/').collect();
    if given.len() != rows.len() {
        return Err(FenError::RowCount {
            expected: rows.len(),
            found: given.len(),
        });
    }
    let mut pieces = Vec::new();
    for (r, (row, shape)) in given.iter().zip(&rows).enumerate() {
        let mut i = 0usize;
        let bytes = row.as_bytes();
        let mut pos = 0;
        let length_error = |found| FenError::RowLength {
            row: r + 1,
            expected: shape.len(),
            found,
        };
        while pos < bytes.len() {
            let c = bytes[pos] as char;
            if c.is_ascii_digit() {
                let start = pos;
                while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                    pos += 1;
                }
                let n: usize = row[start..pos]
                    .parse()
                    .ok()
                    .filter(|&n| n > 0 && n <= shape.len())
                    .ok_or_else(|| length_error(shape.len() + 1))?;
                for _ in 0..n {
                    match shape.get(i) {
                        Some(Some(_)) => i += 1,
                        Some(None) => return Err(FenError::Wall { row: r + 1 }),
                        None => return Err(length_error(i + n)),
                    }
                }
                continue;
            }
            if c == '*' {
                match shape.get(i) {
                    Some(None) => i += 1,
                    Some(Some(_)) => return Err(FenError::Wall { row: r + 1 }),
                    None => return Err(length_error(i + 1)),
                }
                pos += 1;
                continue;
            }
            // A piece: optional '+' (promoted) or '-' (a state, Taktika's frozen men), one
            // letter, optional `'` or `!` (dai shogi's codes) or `~` (bughouse's promoted pieces), optional `{n}` (a count,
            // Makarenko's tower heights). The whole token is the symbol looked up.
            let start = pos;
            if c == '+' || c == '-' {
                pos += 1;
            }
            let Some(&letter) = bytes.get(pos) else {
                return Err(FenError::UnknownPiece(excerpt(&row[start..])));
            };
            pos += 1;
            if !letter.is_ascii_alphabetic() {
                return Err(FenError::UnknownPiece(excerpt(&String::from_utf8_lossy(
                    &bytes[start..pos],
                ))));
            }
            if matches!(bytes.get(pos), Some(b'\'' | b'!' | b'~')) {
                pos += 1;
            }
            if bytes.get(pos) == Some(&b'{') {
                // At most three digits: no ruleset counts higher, and a long run is hostile.
                let digits = bytes[pos + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if digits == 0 || digits > 3 || bytes.get(pos + 1 + digits) != Some(&b'}') {
                    return Err(FenError::UnknownPiece(excerpt(&String::from_utf8_lossy(
                        &bytes[start..(pos + 1 + digits).min(bytes.len())],
                    ))));
                }
                pos += digits + 2;
            }
            let symbol = &row[start..pos];
            let player: Player = if letter.is_ascii_uppercase() { 0 } else { 1 };
            let kind = spec
                .pieces
                .iter()
                .position(|p| p.symbol == symbol.to_ascii_uppercase())
                .ok_or_else(|| FenError::UnknownPiece(excerpt(symbol)))?;
            match shape.get(i) {
                Some(Some(cell)) => pieces.push((*cell, Piece::new(player, kind as u8))),
                Some(None) => return Err(FenError::Wall { row: r + 1 }),
                None => return Err(length_error(i + 1)),
            }
            i += 1;
        }
        if i != shape.len() {
            return Err(length_error(i));
        }
    }
    Ok(pieces)
}

/// Reads the men in hand: piece letters, each optionally preceded by a count (`[MPPp]`,
/// `[2Pp]`).
fn parse_hand<const W: usize>(spec: &Spec<W>, text: &str) -> Result<Vec<Piece>, FenError> {
    let mut out = Vec::new();
    let mut count = String::new();
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            count.push(ch);
            continue;
        }
        let kind = spec
            .pieces
            .iter()
            .position(|p| p.symbol.len() == 1 && p.symbol.starts_with(ch.to_ascii_uppercase()))
            .ok_or_else(|| FenError::UnknownPiece(excerpt(text)))?;
        let player = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let n: usize = if count.is_empty() {
            1
        } else {
            count
                .parse()
                .ok()
                .filter(|&n| n > 0 && n < 64)
                .ok_or_else(|| FenError::UnknownPiece(excerpt(text)))?
        };
        count.clear();
        if out.len() + n > 512 {
            return Err(FenError::UnknownPiece(excerpt(text)));
        }
        out.extend(std::iter::repeat_n(Piece::new(player, kind as u8), n));
    }
    if !count.is_empty() {
        return Err(FenError::UnknownPiece(excerpt(text)));
    }
    Ok(out)
}

/// Reads an en passant field: `-`, concatenated labels, or comma-separated labels (the
/// own position types with en passant read theirs with it too).
pub fn parse_en_passant<const W: usize>(spec: &Spec<W>, text: &str) -> Result<Vec<Cell>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut cells = Vec::new();
    for part in text.split(',') {
        // Concatenated labels: try each way of splitting (labels like a1 and a10 overlap).
        fn split<const W: usize>(spec: &Spec<W>, rest: &str, acc: &mut Vec<Cell>) -> bool {
            if rest.is_empty() {
                return true;
            }
            for (cell, tail) in spec.geometry.label_prefixes(rest) {
                acc.push(cell);
                if split(spec, tail, acc) {
                    return true;
                }
                acc.pop();
            }
            false
        }
        if part.is_empty() || part.len() > 64 || !split(spec, part, &mut cells) {
            return Err(FenError::EnPassant(excerpt(text)));
        }
    }
    Ok(cells)
}

/// What a FEN says, read but not yet checked against the rules: the Setup side of the
/// Setup/Position split. Turning it into a position ([`StandardPosition::from_setup`]) checks
/// it and lists every problem.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// The men on the board.
    pub pieces: Vec<(Cell, Piece)>,
    /// The men in hand (one entry per man).
    pub hand: Vec<Piece>,
    /// The player to move.
    pub turn: Player,
    /// Castling-field letters, as given.
    pub castling: Vec<char>,
    /// En passant target cells, as given.
    pub en_passant: Vec<Cell>,
    /// Plies since the last capture or pawn move.
    pub quiet_plies: u32,
    /// Move number.
    pub fullmove: u32,
}

/// Writes a FEN board field from the piece on each cell.
pub fn write_board<const W: usize>(spec: &Spec<W>, piece_at: impl Fn(Cell) -> Piece) -> String {
    let mut out = String::new();
    for (r, row) in spec.geometry.rows_from_top().iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for point in row {
            match point {
                Some(cell) if piece_at(*cell).is_none() => run += 1,
                _ => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    match point {
                        None => out.push('*'),
                        Some(cell) => {
                            let piece = piece_at(*cell);
                            let symbol = &spec.pieces[piece.kind() as usize].symbol;
                            if piece.player() == 0 {
                                out.push_str(symbol);
                            } else {
                                out.push_str(&symbol.to_ascii_lowercase());
                            }
                        }
                    }
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

impl Setup {
    /// The castling symbol a letter of a FEN's castling field names: our own letter, or in
    /// Shredder-FEN and X-FEN (`HAha`, as Chess960 GUIs write even the standard start) the
    /// castling whose rook stands on that file.
    fn castling_symbol<const W: usize>(spec: &Spec<W>, ch: char) -> Option<char> {
        let names_rook_file = |player: Player, rook_from: Cell| {
            let file = spec.geometry.label(rook_from).chars().next();
            let file = if player == 0 {
                file.map(|f| f.to_ascii_uppercase())
            } else {
                file
            };
            file == Some(ch)
        };
        spec.castlings
            .iter()
            .find(|c| c.symbol == ch)
            .or_else(|| {
                spec.castlings
                    .iter()
                    .find(|c| names_rook_file(c.player, c.rook_from))
            })
            .map(|c| c.symbol)
    }

    /// Reads an SFEN: board, side (`b` first player, `w` second), hands (`-` or counts and
    /// letters, `S2Pp`), move number (counting plies).
    fn parse_sfen<const W: usize>(spec: &Spec<W>, fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let pieces = parse_board(spec, board)?;
        let turn = read_turn(fields.next(), "b", "w")?;
        let hand = match fields.next() {
            None | Some("-") => Vec::new(),
            Some(h) => parse_hand(spec, h)?,
        };
        let fullmove = read_counter(fields.next(), 1, MAX_FULLMOVE)?.max(1);
        no_more_fields(fields)?;
        Ok(Setup {
            pieces,
            hand,
            turn,
            castling: Vec::new(),
            en_passant: Vec::new(),
            quiet_plies: 0,
            fullmove,
        })
    }

    /// Reads a FEN (missing trailing fields take their defaults: `w - - 0 1`, or `w - 0 1` on
    /// boards without a castling field), or an SFEN for rulesets written in shogi notation.
    pub fn parse<const W: usize>(spec: &Spec<W>, fen: &str) -> Result<Setup, FenError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()));
        }
        if spec.notation == Notation::Shogi {
            return Self::parse_sfen(spec, fen);
        }
        let mut fields = fen.split_whitespace();
        let field = fields.next().ok_or(FenError::Empty)?;
        let (board, hand) = match field.split_once('[') {
            Some((board, rest)) => {
                let hand = rest
                    .strip_suffix(']')
                    .ok_or_else(|| FenError::UnknownPiece(excerpt(rest)))?;
                (board, parse_hand(spec, hand)?)
            }
            None => (field, Vec::new()),
        };
        let pieces = parse_board(spec, board)?;
        let turn = read_turn(fields.next(), "w", "b")?;
        let mut castling = Vec::new();
        let castling_field = if spec.castling_field {
            fields.next()
        } else {
            None
        };
        if let Some(field) = castling_field
            && field != "-"
        {
            if field.len() > 32 {
                return Err(FenError::Castling(excerpt(field)));
            }
            for ch in field.chars() {
                let known = match spec.free_castling {
                    // Under free castling a letter is read against the board once the men
                    // stand on it (`StandardPosition::from_setup`): `KQkq` or a rook's file.
                    Some(_) => {
                        let file = ch.to_ascii_lowercase() as i32 - 'a' as i32;
                        let files = spec.geometry.bounding_box().0;
                        ((ch.is_ascii_alphabetic() && (0..files).contains(&file))
                            || "KQkq".contains(ch))
                        .then_some(ch)
                    }
                    None => Self::castling_symbol(spec, ch),
                };
                match known {
                    Some(symbol) if !castling.contains(&symbol) => castling.push(symbol),
                    _ => return Err(FenError::Castling(excerpt(field))),
                }
            }
        }
        let en_passant = match fields.next() {
            Some(field) => parse_en_passant(spec, field)?,
            None => Vec::new(),
        };
        let (quiet_plies, fullmove) = read_counters(&mut fields)?;
        no_more_fields(fields)?;
        Ok(Setup {
            pieces,
            hand,
            turn,
            castling,
            en_passant,
            quiet_plies,
            fullmove,
        })
    }
}

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// Reads a FEN under the spec (rule options) given.
    pub fn from_fen(spec: &'static Spec<W>, fen: &str) -> Result<Self, SetupError> {
        Self::from_setup(spec, &Setup::parse(spec, fen)?)
    }

    /// What this position's FEN says.
    pub fn to_setup(&self) -> Setup {
        let mut hand = Vec::new();
        for player in 0..2u8 {
            for kind in 0..K as u8 {
                for _ in 0..self.in_hand(player, kind) {
                    hand.push(Piece::new(player, kind));
                }
            }
        }
        Setup {
            hand,
            pieces: self
                .occupied()
                .iter()
                .map(|c| (c, self.piece_at(c)))
                .collect(),
            turn: self.board.turn(),
            castling: (0..self.castlings.len())
                .filter(|i| self.castling & (1 << i) != 0)
                .map(|i| self.castling_letter(i))
                .collect(),
            en_passant: self.ep_targets.iter().collect(),
            quiet_plies: self.board.quiet_plies,
            fullmove: self.board.fullmove,
        }
    }

    /// Checks a setup against the rules and builds the position, or lists every problem.
    ///
    /// As the overview prescribes, castling rights whose king or rook is not at home and en
    /// passant targets nobody can capture onto are dropped rather than reported.
    pub fn from_setup(spec: &'static Spec<W>, setup: &Setup) -> Result<Self, SetupError> {
        let mut position = Self::empty(spec);
        let mut problems = Vec::new();
        for &(cell, piece) in &setup.pieces {
            if cell.index() >= spec.geometry.len()
                || piece.is_none()
                || piece.player() > 1
                || piece.kind() as usize >= K
            {
                problems.push(SetupProblem::Other(format!("bad piece at cell {}", cell.0)));
            } else if position.piece_at(cell).is_some() {
                problems.push(SetupProblem::Other(format!(
                    "two pieces on {}",
                    spec.geometry.label(cell)
                )));
            } else {
                position.put(cell, piece);
            }
        }
        for &piece in &setup.hand {
            if piece.is_none() || piece.player() > 1 || piece.kind() as usize >= K {
                problems.push(SetupProblem::Other("bad piece in hand".into()));
                continue;
            }
            // Where captures go to hand, only the kinds a capture can give are ever there (no
            // king, no promoted man): SFEN has no letter for the others.
            if spec.captures_to_hand && !spec.hand_order.contains(&piece.kind()) {
                problems.push(SetupProblem::Other(format!(
                    "no {} can be in hand",
                    spec.pieces[piece.kind() as usize].symbol
                )));
                continue;
            }
            let n = position.in_hand(piece.player(), piece.kind());
            if n >= 63 {
                problems.push(SetupProblem::Other("too many pieces in hand".into()));
                continue;
            }
            position.set_hand(piece.player(), piece.kind(), n + 1);
        }
        if setup.turn > 1 {
            problems.push(SetupProblem::Other("bad side to move".into()));
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        position.set_turn(setup.turn);
        let rights = match spec.free_castling {
            Some(_) => {
                let table = spec
                    .free_castling_table(&position.free_rights(&setup.castling))
                    .map_err(|e| SetupError::Spec(e.clone()))?;
                position.castlings = table;
                (1u16 << table.len()) - 1
            }
            None => {
                let mut rights = 0u16;
                for &ch in &setup.castling {
                    let Some(i) = spec.castlings.iter().position(|c| c.symbol == ch) else {
                        continue;
                    };
                    let c = &spec.castlings[i];
                    let king = position.piece_at(c.king_from);
                    let rook = position.piece_at(c.rook_from);
                    let home = king == Piece::new(c.player, c.kinds.0)
                        && rook == Piece::new(c.player, c.kinds.1);
                    if home {
                        rights |= 1 << i;
                    }
                }
                rights
            }
        };
        position.set_castling(rights);
        position.board.quiet_plies = setup.quiet_plies;
        position.board.fullmove = setup.fullmove.max(1);
        let ep_cells = &setup.en_passant;

        let mut problems = Vec::new();
        if !spec.royal_kinds.is_empty() {
            for p in 0..2u8 {
                let in_hand: u32 = spec
                    .royal_kinds
                    .iter()
                    .map(|&k| position.in_hand(p, k) as u32)
                    .sum();
                let n = position.royals(p).count() + in_hand;
                if n == 0 {
                    problems.push(SetupProblem::MissingRoyal(p));
                } else if n > 1 {
                    problems.push(SetupProblem::TooManyRoyals(p));
                }
            }
        }
        for cell in position.occupied() {
            let piece = position.piece_at(cell);
            if let Some(promo) = spec.promotion(piece.player(), piece.kind())
                && promo.forced.contains(cell)
                && !promo.zones.is_empty()
            {
                problems.push(SetupProblem::UnpromotedPiece(
                    spec.geometry.label(cell).to_string(),
                ));
            }
        }
        if problems.is_empty() {
            let them = 1 - position.board.turn();
            if let Some(k) = position.royal_cell(them)
                && position.attacked(k, position.board.turn(), position.occupied())
            {
                problems.push(SetupProblem::OpponentInCheck);
            }
        }
        problems.extend(R::validate(&position));
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }

        // En passant targets that cannot be used are dropped, as the overview prescribes.
        if !ep_cells.is_empty() {
            let them = 1 - position.board.turn();
            let candidates = CellSet::from_cells(
                ep_cells
                    .iter()
                    .copied()
                    .filter(|c| c.index() < spec.geometry.len()),
            );
            'search: for from in spec.geometry.cells() {
                for &(to, skipped) in
                    &spec.double_steps[them as usize * spec.geometry.len() + from.index()]
                {
                    let victim = position.piece_at(to);
                    let plausible = victim.is_some()
                        && victim.player() == them
                        && skipped.intersects(candidates)
                        && position.piece_at(from).is_none()
                        && !skipped.intersects(position.occupied());
                    if plausible {
                        let usable = position.usable_ep_targets(skipped & candidates, to);
                        if usable.any() {
                            position.ep_victim = to;
                            position.set_ep_targets(usable);
                            break 'search;
                        }
                    }
                }
            }
        }
        Ok(position)
    }

    /// The letter of castling right `i` in the FEN's castling field: the castling's symbol,
    /// or under free castling X-FEN's: `K`/`Q` (`k`/`q`) where the rook is the outermost of
    /// the player's rooks on that side of his back rank, else the rook's file.
    fn castling_letter(&self, i: usize) -> char {
        let c = &self.castlings[i];
        if self.spec.free_castling.is_none() {
            return c.symbol;
        }
        let g = &self.spec.geometry;
        let (rook_x, rank) = g.coords(c.rook_from);
        let short = rook_x > g.coords(c.king_from).0;
        let rook = Piece::new(c.player, c.kinds.1);
        let outer = (0..g.bounding_box().0)
            .filter(|&x| if short { x > rook_x } else { x < rook_x })
            .any(|x| {
                g.at(x, rank)
                    .is_some_and(|cell| self.piece_at(cell) == rook)
            });
        if !outer {
            return c.symbol;
        }
        let file = (b'a' + rook_x as u8) as char;
        if c.player == 0 {
            file.to_ascii_uppercase()
        } else {
            file
        }
    }

    /// Reads the letters of a FEN's castling field under free castling against the men on
    /// the board: for each, the player, his king's cell and the rook's. `K`/`Q` name the
    /// outermost rook of the player's back rank on the side of the higher or lower files,
    /// a file letter the rook on that file. As for fixed castlings, a right whose king or
    /// rook is not on the back rank is dropped, and of two rights on one side only the
    /// outermost rook's is kept (as python-chess does).
    fn free_rights(&self, letters: &[char]) -> Vec<super::FreeRight> {
        let spec = self.spec;
        let g = &spec.geometry;
        let (Some(king_kind), Some(rook_kind)) =
            (spec.kind_by_symbol("K"), spec.kind_by_symbol("R"))
        else {
            return Vec::new();
        };
        let Some(back) = g.region("back-rank") else {
            return Vec::new();
        };
        let mut rights: Vec<super::FreeRight> = Vec::new();
        for &ch in letters {
            let player: Player = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let rank: Vec<Cell> = back.cells[player as usize].clone();
            let Some(king) = rank
                .iter()
                .copied()
                .find(|&c| self.piece_at(c) == Piece::new(player, king_kind))
            else {
                continue;
            };
            let king_x = g.coords(king).0;
            let rooks = rank
                .iter()
                .copied()
                .filter(|&c| self.piece_at(c) == Piece::new(player, rook_kind));
            let rook = match ch.to_ascii_lowercase() {
                'k' => rooks
                    .filter(|&c| g.coords(c).0 > king_x)
                    .max_by_key(|&c| g.coords(c).0),
                'q' => rooks
                    .filter(|&c| g.coords(c).0 < king_x)
                    .min_by_key(|&c| g.coords(c).0),
                file => rooks
                    .filter(|&c| g.coords(c).0 == file as i32 - 'a' as i32)
                    .find(|&c| g.coords(c).0 != king_x),
            };
            let Some(rook) = rook else { continue };
            let short = g.coords(rook).0 > king_x;
            let same_side = rights.iter().position(|&(p, k, r)| {
                p == player && k == king && (g.coords(r).0 > king_x) == short
            });
            match same_side {
                Some(i) => {
                    let outer = |r: Cell| (g.coords(r).0 - king_x).abs();
                    if outer(rook) > outer(rights[i].2) {
                        rights[i].2 = rook;
                    }
                }
                None => rights.push((player, king, rook)),
            }
        }
        rights
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let spec = self.spec();
        let mut out = write_board(spec, |c| self.piece_at(c));
        if spec.notation == Notation::Shogi {
            let mut hand = String::new();
            for player in 0..2u8 {
                for &kind in &spec.hand_order {
                    let n = self.in_hand(player, kind);
                    if n == 0 {
                        continue;
                    }
                    if n > 1 {
                        hand.push_str(&n.to_string());
                    }
                    let symbol = &spec.pieces[kind as usize].symbol;
                    hand.push_str(&if player == 0 {
                        symbol.clone()
                    } else {
                        symbol.to_ascii_lowercase()
                    });
                }
            }
            let side = if self.side_to_move() == 0 { 'b' } else { 'w' };
            let hand = if hand.is_empty() {
                "-".to_string()
            } else {
                hand
            };
            return format!("{out} {side} {hand} {}", self.board.fullmove);
        }
        let hand: String = (0..2u8)
            .flat_map(|player| (0..K as u8).rev().map(move |kind| (player, kind)))
            .flat_map(|(player, kind)| {
                let symbol = &spec.pieces[kind as usize].symbol;
                let letter = if player == 0 {
                    symbol.clone()
                } else {
                    symbol.to_ascii_lowercase()
                };
                std::iter::repeat_n(letter, self.in_hand(player, kind) as usize)
            })
            .collect();
        if !hand.is_empty() || spec.hands_always_shown {
            out.push('[');
            out.push_str(&hand);
            out.push(']');
        }
        out.push(' ');
        out.push(if self.side_to_move() == 0 { 'w' } else { 'b' });
        out.push(' ');
        if spec.castling_field {
            if self.castling_rights() == 0 {
                out.push('-');
            } else {
                for i in 0..self.castlings.len() {
                    if self.castling_rights() & (1 << i) != 0 {
                        out.push(self.castling_letter(i));
                    }
                }
            }
            out.push(' ');
        }
        if self.en_passant_targets().is_empty() {
            out.push('-');
        } else {
            for c in self.en_passant_targets() {
                out.push_str(spec.geometry.label(c));
            }
        }
        out.push_str(&format!(
            " {} {}",
            self.board.quiet_plies, self.board.fullmove
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::fixtures::{House, HousePosition, position};
    use super::*;
    use crate::options::RuleOptions;
    use crate::piece::PieceType;
    use crate::standard::{SpecBuilder, spec_for};
    use chaturanga_geometry::{Geometry, GeometryBuilder};

    fn house() -> &'static Spec<1> {
        spec_for::<1, 6, House>(&RuleOptions::default()).unwrap()
    }

    /// A spec on `geometry` with a royal `K` and men of the symbols given, moving as kings.
    fn spec(geometry: Geometry, symbols: &[&str]) -> Spec<1> {
        let king = PieceType::new("K", "king", "K").unwrap().royal();
        let mut builder = SpecBuilder::new("unit-fen", geometry).piece(king);
        for symbol in symbols {
            builder = builder.piece(PieceType::new(symbol, "man", "K").unwrap());
        }
        builder.build().unwrap()
    }

    /// A board field read and written back.
    fn again(spec: &Spec<1>, text: &str) -> Result<String, FenError> {
        let men = parse_board(spec, text)?;
        Ok(write_board(spec, |cell| {
            men.iter()
                .find(|(c, _)| *c == cell)
                .map_or(Piece::NONE, |&(_, p)| p)
        }))
    }

    /// The position a FEN describes.
    fn at(fen: &str) -> HousePosition {
        position(fen)
    }

    fn setup_error(fen: &str) -> SetupError {
        HousePosition::from_fen(house(), fen).unwrap_err()
    }

    #[test]
    fn empty_runs_of_ten_and_more_cells() {
        let wide = spec(GeometryBuilder::rectangle(12, 2).build().unwrap(), &[]);
        let men = parse_board(&wide, "12/K10k").unwrap();
        let g = &wide.geometry;
        let placed: Vec<(&str, Piece)> = men.iter().map(|&(c, p)| (g.label(c), p)).collect();
        assert_eq!(placed, [("a1", Piece::new(0, 0)), ("l1", Piece::new(1, 0))]);
        assert_eq!(again(&wide, "12/K10k").unwrap(), "12/K10k");
        assert_eq!(again(&wide, "1K10/12").unwrap(), "1K10/12");
        let too_long = |found| {
            Err(FenError::RowLength {
                row: 2,
                expected: 12,
                found,
            })
        };
        assert_eq!(parse_board(&wide, "12/K11k"), too_long(13));
        assert_eq!(parse_board(&wide, "12/K55k"), too_long(13));
        assert_eq!(parse_board(&wide, "12/0K11"), too_long(13));
        assert_eq!(parse_board(&wide, "12/K9k"), too_long(11));
    }

    #[test]
    fn walls_stand_exactly_where_the_board_has_no_cell() {
        // A 4x3 rectangle without its lower corners: its bottom row is `*2*`.
        let g = GeometryBuilder::rectangle(4, 3)
            .without(&[(0, 0), (3, 0)])
            .build()
            .unwrap();
        let walled = spec(g, &[]);
        assert_eq!(again(&walled, "4/4/*2*").unwrap(), "4/4/*2*");
        assert_eq!(again(&walled, "K3/4/*1k*").unwrap(), "K3/4/*1k*");
        assert_eq!(
            parse_board(&walled, "4/4/4"),
            Err(FenError::Wall { row: 3 })
        );
        assert_eq!(
            parse_board(&walled, "4/4/K3"),
            Err(FenError::Wall { row: 3 })
        );
        assert_eq!(
            parse_board(&walled, "*3/4/*2*"),
            Err(FenError::Wall { row: 1 })
        );
        assert_eq!(
            parse_board(&walled, "4/4/*2"),
            Err(FenError::RowLength {
                row: 3,
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            parse_board(&walled, "4/4"),
            Err(FenError::RowCount {
                expected: 3,
                found: 2
            })
        );
    }

    #[test]
    fn a_man_s_marks_and_count_belong_to_its_symbol() {
        let row = GeometryBuilder::rectangle(5, 1).build().unwrap();
        let marked = spec(row, &["+P", "-R", "P{2}", "D'"]);
        let men = parse_board(&marked, "K-r+pP{2}d'").unwrap();
        let kinds: Vec<(Player, u8)> = men.iter().map(|(_, p)| (p.player(), p.kind())).collect();
        assert_eq!(kinds, [(0, 0), (1, 2), (1, 1), (0, 3), (1, 4)]);
        assert_eq!(again(&marked, "K-r+pP{2}d'").unwrap(), "K-r+pP{2}d'");
        for bad in [
            "X4",
            "K+",
            "K+14",
            "KP{}3",
            "KP{2",
            "KP{1234}3",
            "KP{3}3",
            "K-k3",
        ] {
            assert!(
                matches!(parse_board(&marked, bad), Err(FenError::UnknownPiece(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn hands_are_read_with_counts_and_capped() {
        let setup = Setup::parse(house(), "4k3/8/8/8/8/8/8/4K3[QR2Pn] w - - 0 1").unwrap();
        let hand: Vec<(Player, u8)> = setup.hand.iter().map(|p| (p.player(), p.kind())).collect();
        assert_eq!(hand, [(0, 4), (0, 3), (0, 0), (0, 0), (1, 1)]);
        let many = format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "63P".repeat(9));
        for bad in ["[X]", "[2]", "[0P]", "[64P]", "[P"] {
            let fen = format!("4k3/8/8/8/8/8/8/4K3{bad} w - - 0 1");
            assert!(
                matches!(Setup::parse(house(), &fen), Err(FenError::UnknownPiece(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            Setup::parse(house(), &many),
            Err(FenError::UnknownPiece(_))
        ));
        // A position holds at most 63 men of a kind in hand, and no king.
        let full = at("4k3/8/8/8/8/8/8/4K3[63P] w - - 0 1");
        assert_eq!(full.in_hand(0, 0), 63);
        let other = |text: &str| SetupError::Invalid(vec![SetupProblem::Other(text.into())]);
        assert_eq!(
            setup_error("4k3/8/8/8/8/8/8/4K3[63PP] w - - 0 1"),
            other("too many pieces in hand")
        );
        assert_eq!(
            setup_error("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1"),
            other("no K can be in hand")
        );
        // Written back in one order: White's men first, the higher kinds first.
        let p = at("4k3/8/8/8/8/8/8/4K3[nPQ] w - - 0 1");
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3[QPn] w - - 0 1");
    }

    #[test]
    fn each_bad_field_has_its_error() {
        let parse = |fen: &str| Setup::parse(house(), fen);
        let board = "4k3/8/8/8/8/8/8/4K3";
        assert_eq!(parse(""), Err(FenError::Empty));
        assert_eq!(parse("   "), Err(FenError::Empty));
        let long = format!("{board} w - - 0 1{}", " ".repeat(MAX_FEN_LEN));
        assert_eq!(parse(&long), Err(FenError::TooLong(long.len())));
        assert_eq!(
            parse("8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::RowCount {
                expected: 8,
                found: 7
            })
        );
        let field = |rest: &str| parse(&format!("{board} {rest}"));
        assert_eq!(field("x - - 0 1"), Err(FenError::Turn("x".into())));
        assert_eq!(field("w KX - 0 1"), Err(FenError::Castling("KX".into())));
        assert_eq!(field("w KK - 0 1"), Err(FenError::Castling("KK".into())));
        assert_eq!(field("w - z9 0 1"), Err(FenError::EnPassant("z9".into())));
        assert_eq!(field("w - - -1 1"), Err(FenError::Counter("-1".into())));
        assert_eq!(
            field("w - - 100001 1"),
            Err(FenError::Counter("100001".into()))
        );
        assert_eq!(
            field("w - - 0 1000001"),
            Err(FenError::Counter("1000001".into()))
        );
        assert_eq!(
            field("w - - 0 1 extra"),
            Err(FenError::TrailingFields("extra".into()))
        );
        // What may be left out, and what is read leniently.
        let short = parse(board).unwrap();
        assert_eq!((short.turn, short.quiet_plies, short.fullmove), (0, 0, 1));
        assert_eq!(field("b - - 7 0").unwrap().fullmove, 1);
        let e3e6 = field("w - e3e6 0 1").unwrap().en_passant;
        let g = &house().geometry;
        assert_eq!(
            e3e6,
            [
                g.cell_by_label("e3").unwrap(),
                g.cell_by_label("e6").unwrap()
            ]
        );
        // Shredder-FEN names the rights by the rooks' files.
        let p = at("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    }

    #[test]
    fn impossible_positions_list_their_problems() {
        let invalid = |problem| SetupError::Invalid(vec![problem]);
        assert_eq!(
            setup_error("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            invalid(SetupProblem::MissingRoyal(1))
        );
        assert_eq!(
            setup_error("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
            invalid(SetupProblem::TooManyRoyals(0))
        );
        assert_eq!(
            setup_error("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            invalid(SetupProblem::OpponentInCheck)
        );
        assert_eq!(
            setup_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            invalid(SetupProblem::UnpromotedPiece("a8".into()))
        );
        assert!(matches!(
            setup_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 2"),
            SetupError::Fen(FenError::TrailingFields(_))
        ));
    }

    #[test]
    fn rights_and_targets_nobody_can_use_are_dropped() {
        let fen = |text: &str| at(text).to_fen();
        // No rook at home: no right.
        assert_eq!(
            fen("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"),
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
        );
        // No pawn can take en passant: no target; with one, the target stays.
        assert_eq!(
            fen("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 2"),
            "4k3/8/8/4p3/8/8/8/4K3 w - - 0 2"
        );
        assert_eq!(
            fen("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2"),
            "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2"
        );
    }
}
