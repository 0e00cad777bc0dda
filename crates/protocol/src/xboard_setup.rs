//! What an XBoard GUI is told about a ruleset it does not play itself: the CECP v2 `setup`
//! command (piece letters, board size, holdings, parent variant, start position) and one
//! `piece` command per piece whose moves XBoard does not know, in XBoard's Betza dialect.
//!
//! XBoard (4.9) reads Betza its own way, so the descriptions are written from the parsed
//! moves rather than copied from our Betza strings. The differences that matter:
//!
//! - Direction letters on `K` and `Q` name single directions there (`fK` is one step straight
//!   ahead), so king- and queen-like moves with directions are written as `W`+`F` or `R`+`B`.
//! - Letters must come in a fixed order: `i` first, then directions, then `m`/`c`, `e`,
//!   `p`/`g`, `n`, then the atom and its range; our parser takes any order.
//! - `L` and `J` are other leaps there than ours (`L` is XBoard's zebra); `C` (3,1) and `Z`
//!   (3,2) mean the same in both. A doubled atom is no rider there: `NN` is written `N0`.
//! - `n` tests only the one cell half way (rounded towards the start), so a lame leap is
//!   exact only for `D`, `N` and `A`, whose path is that cell here too.
//! - `i` allows a move while the piece stands where the start position has it (and, on the
//!   first and last rank, has not moved); ours allows it from the piece's initial region, so
//!   the two agree when that region is exactly where the piece starts.
//!
//! Oblique directions are written as two-letter pairs (`rf` = the narrow forward-right leap,
//! `fr` the wide one, `ff` both narrow forward leaps), which both dialects read alike, and
//! diagonal ones as a lone letter for a pair of diagonals or two letters for one. Everything
//! else (promotion, castling beyond the king's distance, drops) comes from the parent
//! variant's rules; where those differ from ours the description is not exact, and the
//! reasons are sent as comment lines (`# ...`), which XBoard only logs.

use chaturanga_rules::betza::{BetzaMove, Hop, Range};
use chaturanga_rules::geometry::{Cell, Geometry, Lattice};
use chaturanga_rules::{BoardPieces, PieceType};
use chaturanga_session::GameSession;
use std::collections::BTreeSet;

/// XBoard's own variants (4.9, `VARIANT_NAMES`): it knows their board, pieces and rules.
const XBOARD_VARIANTS: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
];

/// The start boards XBoard sets up for those of its variants whose names are also ours,
/// written with our piece letters (XBoard's `InitPosition`). Where our start differs the
/// ruleset is described like one XBoard does not know: XBoard takes the description when it
/// does not test legality, and keeps its own start otherwise.
const XBOARD_START_BOARDS: &[(&str, &str)] = &[
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    (
        "capablanca",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR",
    ),
    (
        "grand",
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R",
    ),
    (
        "xiangqi",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    ),
    (
        "shogi",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    ),
];

/// XBoard's board limits: 16 files including two holdings columns per side, and 15 ranks
/// (the top two of its 17 hold game state).
const MAX_FILES: i32 = 16;
const MAX_RANKS: i32 = 15;
/// Images XBoard has besides the king's, per side.
const IMAGES: usize = 65;
/// Image of the pawn; XBoard promotes pieces shown as a pawn (or as a lance) on the last rank.
const PAWN_IMAGE: usize = 0;
/// Image of the lance, which promotes like the pawn under the `fairy` parent.
const LANCE_IMAGE: usize = 18;
/// XBoard's letters of its images under the `fairy` parent (image `i` is the `i`-th letter),
/// used to show a piece as the image XBoard users know by its letter (`A` the archbishop).
const FAIRY_LETTERS: &str = "PNBRQFEACWMOHIJGDVLSU";
/// The same under the `shogi` parent: the lance on the queen's image, the silver on the
/// ferz's and the gold on the wazir's, as XBoard's shogi does.
const SHOGI_LETTERS: &str = "PNBRLS...G.";
/// Under the `shogi` parent, unpromoted pieces use the first 11 images and the promoted form
/// of image `i` is image `i + 11`; only images up to the alfil's (6) may promote.
const SHOGI_BASES: usize = 11;
const SHOGI_PROMOTING: usize = 7;
/// Suffixes XBoard allows after a piece letter (`SUFFIXES`).
const SUFFIXES: &str = "'!";

/// What is sent for a ruleset: the lines, and why XBoard's legality test will not be exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    /// `setup ...` and `piece ...` lines.
    pub lines: Vec<String>,
    /// Rules XBoard cannot be told (sent as `# ...` comments).
    pub inexact: Vec<String>,
}

impl Description {
    /// Every line to send: the commands, then the comments.
    pub fn output(&self) -> Vec<String> {
        let mut out = self.lines.clone();
        out.extend(self.inexact.iter().map(|why| format!("# {why}")));
        out
    }
}

/// The description of the session's ruleset for XBoard under its XBoard name `name`, or
/// `None` where XBoard plays the ruleset itself or its board cannot be described (not one
/// plain board of squares for two players with one move a turn, pieces without a data
/// description, more pieces or cells than XBoard has room for).
pub fn describe(name: &str, session: &dyn GameSession) -> Option<Description> {
    if plays_itself(name, &session.start_fen()) {
        return None;
    }
    let pieces = session.board_pieces()?;
    let geometry = session.geometry()?;
    if geometry.lattice() != Lattice::Square || session.players() != 2 {
        return None;
    }
    let parent = if pieces.drops { "shogi" } else { "fairy" };
    let table = Table::build(geometry, &pieces, parent)?;
    let (files, ranks) = geometry.bounding_box();
    let holdings = if pieces.drops { table.droppable } else { 0 };
    let holding_files = if holdings > 0 { 4 } else { 0 };
    // Holdings taller than the board get empty ranks above it in XBoard.
    if files + holding_files > MAX_FILES || ranks.max(holdings as i32) > MAX_RANKS {
        return None;
    }
    let fen = xboard_fen(&session.start_fen(), &pieces)?;
    let mut description = Description::default();
    description.lines.push(format!(
        "setup ({}) {files}x{ranks}+{holdings}_{parent} {fen}",
        table.text()
    ));
    let castling = castling_distance(geometry, &pieces);
    if castling.is_err() {
        description
            .inexact
            .push("castling: XBoard's castling moves the king to a rook on the edge".to_string());
    }
    for (kind, piece) in pieces.pieces.iter().enumerate() {
        let mut betza = match xboard_betza(piece) {
            Ok(betza) => betza,
            Err(why) => {
                description
                    .inexact
                    .push(format!("{} ({}): {why}", piece.symbol, piece.name));
                continue;
            }
        };
        if let Some(why) = initial_mismatch(geometry, &pieces, kind) {
            description
                .inexact
                .push(format!("{} ({}): {why}", piece.symbol, piece.name));
        }
        let castles = pieces.castlings.iter().any(|c| {
            pieces
                .men
                .iter()
                .any(|&(cell, man)| cell == c[0] && man.kind() as usize == kind)
        });
        if castles && let Ok(Some(n)) = castling {
            betza.push_str(&format!("O{n}"));
        }
        // XBoard (4.9, `ApplyMove`) plays any move of a piece on the king's image two or
        // more cells along its rank as a castling with the nearest man beyond, whatever the
        // piece's description, unless the description has `i` moves and no `O`: a virgin
        // copy of one of its own moves keeps such a king's moves what they are. A king that
        // castles and also goes far sideways cannot be told.
        if table.images[kind].contains(&Some(IMAGES)) && goes_far_sideways(piece) {
            if castles {
                return None;
            }
            betza = with_virgin_copy(&betza);
        }
        if table.known(kind, &betza, parent) {
            continue;
        }
        description.lines.extend(table.piece_lines(kind, &betza));
    }
    description
        .inexact
        .extend(promotion_mismatches(geometry, &pieces, &table, parent));
    if pieces.compulsory_capture {
        description
            .inexact
            .push("captures are compulsory, which XBoard's fairy rules do not know".to_string());
    }
    Some(description)
}

/// Whether the piece can move two or more cells along its rank (a leap or a ride).
fn goes_far_sideways(piece: &PieceType) -> bool {
    piece.moves.moves.iter().any(|family| {
        family.vectors.iter().any(|&(dx, dy)| {
            dy == 0
                && (dx.abs() >= 2
                    || !matches!(family.range, Range::Leap | Range::Ride { max: Some(1) }))
        })
    })
}

/// `betza` (XBoard's dialect) with its first move family repeated as an `i` move, which
/// XBoard then allows twice from the start cell and once elsewhere: the same moves. A
/// description that has an `i` move already is returned as it is.
fn with_virgin_copy(betza: &str) -> String {
    // Lower case letters are modifiers in XBoard's dialect.
    if betza.contains('i') {
        return betza.to_string();
    }
    let mut first = String::new();
    let mut chars = betza.chars().peekable();
    while let Some(&c) = chars.peek() {
        if !c.is_ascii_lowercase() {
            break;
        }
        first.push(c);
        chars.next();
    }
    if let Some(atom) = chars.next() {
        first.push(atom);
    }
    while let Some(&c) = chars.peek() {
        if !c.is_ascii_digit() {
            break;
        }
        first.push(c);
        chars.next();
    }
    format!("{betza}i{first}")
}

/// Whether XBoard plays `name` itself from our start position (`start_fen`): the name is one
/// of XBoard's own variants and XBoard's start for it is ours (or not in our table of
/// XBoard's starts).
pub fn plays_itself(name: &str, start_fen: &str) -> bool {
    if !XBOARD_VARIANTS.contains(&name) {
        return false;
    }
    let board = board_field(start_fen);
    XBOARD_START_BOARDS
        .iter()
        .find(|(variant, _)| *variant == name)
        .is_none_or(|(_, theirs)| *theirs == board)
}

/// The board part of a FEN, without hands in brackets.
fn board_field(fen: &str) -> &str {
    let first = fen.split_whitespace().next().unwrap_or("");
    first.split('[').next().unwrap_or(first)
}

/// The start position as XBoard reads it: the board (`*` for lattice points that are not
/// cells, runs of empty cells of any length), holdings in brackets where pieces are dropped,
/// the first player (XBoard's white) to move, castling rights, no en passant, fresh counters.
/// `None` where the start has men in hand.
fn xboard_fen(start_fen: &str, pieces: &BoardPieces) -> Option<String> {
    let fields: Vec<&str> = start_fen.split_whitespace().collect();
    let first = fields.first()?;
    let hands = first
        .split_once('[')
        .map(|(_, rest)| rest.trim_end_matches(']'));
    // Shogi-style FENs give the hands as the third field.
    let sfen_hands = if pieces.drops {
        fields.get(2).copied()
    } else {
        None
    };
    if hands.is_some_and(|h| !h.is_empty() && h != "-") || sfen_hands.is_some_and(|h| h != "-") {
        return None;
    }
    let board = board_field(start_fen);
    let holdings = if pieces.drops { "[-]" } else { "" };
    let castling = match fields.get(2) {
        Some(rights) if !pieces.castlings.is_empty() => rights,
        _ => "-",
    };
    Some(format!("{board}{holdings} w {castling} - 0 1"))
}

/// Our readings of a FEN XBoard sent (`setboard`), best first: where XBoard writes holdings
/// in brackets after the board (`…/LNSGKGSNL[Pg] w 0 1`) and our FEN for the ruleset is
/// shogi's (`shogi_style`: hands as the third field, `b` for the first player), that form
/// (`…/LNSGKGSNL b Pg 1`); then the FEN as sent; then, for XBoard's castling field, which
/// it writes as `KQkq` where it can hold only the outermost rooks, the same with the castling
/// field of our start position (`start_fen`), whose rights our reader keeps only where king
/// and rook still stand on their cells.
pub fn read_xboard_fen(fen: &str, shogi_style: bool, start_fen: &str) -> Vec<String> {
    let fen = fen.trim();
    let mut readings = Vec::new();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(first) = fields.first() else {
        return vec![fen.to_string()];
    };
    if shogi_style && let Some((board, rest)) = first.split_once('[') {
        let held = rest.trim_end_matches(']');
        let mut hand = String::new();
        let mut counted: Vec<(char, usize)> = Vec::new();
        for c in held.chars().filter(|c| c.is_ascii_alphabetic()) {
            match counted.iter_mut().find(|(k, _)| *k == c) {
                Some((_, n)) => *n += 1,
                None => counted.push((c, 1)),
            }
        }
        for (c, n) in counted {
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            hand.push(c);
        }
        if hand.is_empty() {
            hand.push('-');
        }
        let side = match fields.get(1) {
            Some(&"b") => "w",
            _ => "b",
        };
        // XBoard counts whole moves; a shogi FEN counts plies from 1.
        let full: u32 = fields
            .last()
            .and_then(|n| n.parse().ok())
            .filter(|_| fields.len() >= 3)
            .unwrap_or(1)
            .max(1);
        let ply = 2 * (full - 1) + if side == "w" { 2 } else { 1 };
        readings.push(format!("{board} {side} {hand} {ply}"));
    }
    readings.push(fen.to_string());
    let start: Vec<&str> = start_fen.split_whitespace().collect();
    if fields.len() >= 4
        && start.len() >= 4
        && !fields[0].contains('[')
        && fields[2] != start[2]
        && start[2] != "-"
    {
        let mut fixed = fields.clone();
        fixed[2] = start[2];
        readings.push(fixed.join(" "));
    }
    readings
}

/// Which XBoard image shows each kind, for each side.
struct Table {
    /// Per kind: the image for the first and the second player (`None`: that player never
    /// has the piece); `IMAGES` is the king's image.
    images: Vec<[Option<usize>; 2]>,
    /// Per kind: its entry in the table (letter and suffix, `+` for a promoted piece).
    entries: Vec<String>,
    /// Per kind: its name in `piece` commands (`A`, `+S`).
    names: Vec<String>,
    /// Kinds that may be held in hand, on the first images.
    droppable: usize,
}

impl Table {
    /// Assigns images: each player's royal piece the king's, a pawn the pawn's, pieces in
    /// hand the first ones (XBoard's holdings hold the first images in use), the rest by
    /// letter where XBoard's image of that letter is free and forces no other promotion than
    /// ours (under `shogi` the pawn's, lance's and knight's images force one), promoted shogi
    /// pieces the image paired with their unpromoted form's. `None` where a symbol has no XBoard form, a
    /// player has two royal kinds, or the images run out.
    fn build(geometry: &Geometry, pieces: &BoardPieces, parent: &str) -> Option<Table> {
        let types = pieces.pieces;
        let shogi = parent == "shogi";
        let mut names = Vec::with_capacity(types.len());
        for piece in types {
            names.push(xboard_symbol(&piece.symbol, shogi)?);
        }
        let entries: Vec<String> = names
            .iter()
            .map(|n| {
                if n.starts_with('+') {
                    "+".to_string()
                } else {
                    n.clone()
                }
            })
            .collect();
        let mut images: Vec<[Option<usize>; 2]> = vec![[None; 2]; types.len()];
        for player in 0..2u8 {
            let royals: BTreeSet<usize> = pieces
                .men
                .iter()
                .filter(|(_, man)| man.player() == player && types[man.kind() as usize].royal)
                .map(|(_, man)| man.kind() as usize)
                .collect();
            match royals.len() {
                0 => {}
                1 => images[*royals.first()?][player as usize] = Some(IMAGES),
                _ => return None,
            }
        }
        if (0..types.len()).any(|k| types[k].royal && images[k] == [None; 2]) {
            // A royal kind nobody starts with could not be shown as a king.
            return None;
        }
        let promoted = |k: usize| names[k].starts_with('+');
        let droppable = |k: usize| pieces.drops && !types[k].royal && !promoted(k);
        let promotes = |k: usize| !types[k].promotions.is_empty();
        let mut used = [false; IMAGES];
        // A pawn takes the pawn's image, which alone makes en passant targets in XBoard (and
        // promotes on the last rank under `fairy`); one that promotes first.
        let pawns = (0..types.len()).filter(|&k| types[k].pawn && images[k] == [None; 2]);
        let pawn = pawns
            .clone()
            .find(|&k| promotes(k) && !promoted(k))
            .or_else(|| pawns.clone().find(|&k| !promoted(k)));
        if let Some(kind) = pawn {
            used[PAWN_IMAGE] = true;
            images[kind] = [Some(PAWN_IMAGE); 2];
        }
        let letters = if shogi { SHOGI_LETTERS } else { FAIRY_LETTERS };
        let limit = if shogi { SHOGI_BASES } else { IMAGES };
        // How badly showing `kind` as `image` misleads XBoard about forced promotions: not at
        // all, by not forcing one we force (XBoard then accepts a move we refuse), or by
        // forcing one we do not (XBoard would refuse a legal move).
        let must_promote = |kind: usize| {
            types[kind]
                .must_promote_in
                .as_deref()
                .and_then(|name| geometry.region(name))
                .and_then(|region| region.cells.first())
                .map(|cells| cells.iter().copied().collect::<BTreeSet<Cell>>())
        };
        let cost = |kind: usize, image: usize| {
            let theirs = if shogi {
                shogi_forced(geometry, image)
            } else {
                None
            };
            match (must_promote(kind), theirs) {
                (ours, theirs) if ours == theirs => 0,
                (_, None) => 1,
                _ => 2,
            }
        };
        // Pieces in hand first, so that they hold the first images in use; within each
        // group, those whose letter's image fits take it before the others choose.
        let unplaced: Vec<usize> = (0..types.len())
            .filter(|&k| images[k] == [None; 2] && !promoted(k))
            .collect();
        let mut after = 0;
        for in_hand in [true, false] {
            let group: Vec<usize> = unplaced
                .iter()
                .copied()
                .filter(|&k| droppable(k) == in_hand)
                .collect();
            let allowed = |kind: usize, image: usize, used: &[bool; IMAGES]| {
                (shogi || (image != PAWN_IMAGE && image != LANCE_IMAGE))
                    && image < limit
                    && image >= after
                    && !used[image]
                    && (!shogi || !promotes(kind) || image < SHOGI_PROMOTING)
            };
            let preferred = |kind: usize| {
                names[kind]
                    .chars()
                    .next()
                    .and_then(|letter| letters.find(letter))
            };
            let mut rest = Vec::new();
            for &kind in &group {
                match preferred(kind) {
                    Some(image) if allowed(kind, image, &used) && cost(kind, image) == 0 => {
                        used[image] = true;
                        images[kind] = [Some(image); 2];
                    }
                    _ => rest.push(kind),
                }
            }
            for kind in rest {
                let image = (0..limit)
                    .filter(|&image| allowed(kind, image, &used))
                    .min_by_key(|&image| {
                        (cost(kind, image), Some(image) != preferred(kind), image)
                    })?;
                used[image] = true;
                images[kind] = [Some(image); 2];
            }
            // Pieces not in hand must come after every piece in hand.
            after = group
                .iter()
                .filter_map(|&k| images[k][0])
                .map(|image| image + 1)
                .max()
                .unwrap_or(after);
        }
        for kind in (0..types.len()).filter(|&k| promoted(k)) {
            let base = types
                .iter()
                .position(|p| p.symbol == types[kind].symbol[1..])?;
            let image = images[base][0].filter(|&i| i < SHOGI_BASES)? + SHOGI_BASES;
            if used[image] {
                return None;
            }
            used[image] = true;
            images[kind] = [Some(image); 2];
        }
        let droppable = (0..types.len()).filter(|&k| droppable(k)).count();
        Some(Table {
            images,
            entries,
            names,
            droppable,
        })
    }

    /// The piece-to-letter table: one entry per image up to the last in use, then the king,
    /// for the first player (upper case) and the second (lower case), at least six entries
    /// each (XBoard wants 12 or more); `.` for images not in use.
    fn text(&self) -> String {
        let mut out = String::new();
        for player in 0..2 {
            let entry = |image: usize| {
                (0..self.images.len())
                    .find(|&k| self.images[k][player] == Some(image))
                    .map(|k| {
                        if player == 0 {
                            self.entries[k].clone()
                        } else {
                            self.entries[k].to_ascii_lowercase()
                        }
                    })
                    .unwrap_or_else(|| ".".to_string())
            };
            let last = self
                .images
                .iter()
                .filter_map(|sides| sides[player])
                .filter(|&i| i < IMAGES)
                .max()
                .map_or(0, |i| i + 1);
            for image in 0..last.max(5) {
                out.push_str(&entry(image));
            }
            out.push_str(&entry(IMAGES));
        }
        out
    }

    /// Whether XBoard already moves `kind` as `betza` under `parent`: the orthodox pieces on
    /// their own images under `fairy`, the king only without castling (with castling its
    /// line says how far the king goes, which XBoard would guess from the board's width).
    fn known(&self, kind: usize, betza: &str, parent: &str) -> bool {
        if parent != "fairy" {
            return false;
        }
        let symbol = self.names[kind].as_str();
        match self.images[kind] {
            [Some(IMAGES), Some(IMAGES)] => symbol == "K" && betza == "K",
            [Some(image), Some(_)] => {
                FAIRY_LETTERS[..5].find(symbol) == Some(image)
                    && image != PAWN_IMAGE
                    && betza == symbol
            }
            _ => false,
        }
    }

    /// `piece` lines for `kind`: one for both sides (`X&`) where both show it alike, else one
    /// per side that has it.
    fn piece_lines(&self, kind: usize, betza: &str) -> Vec<String> {
        let name = &self.names[kind];
        match self.images[kind] {
            [Some(a), Some(b)] if a == b => vec![format!("piece {name}& {betza}")],
            [white, black] => {
                let mut lines = Vec::new();
                if white.is_some() {
                    lines.push(format!("piece {name} {betza}"));
                }
                if black.is_some() {
                    lines.push(format!("piece {} {betza}", name.to_ascii_lowercase()));
                }
                lines
            }
        }
    }
}

/// A symbol as XBoard names pieces: one upper-case letter with an optional suffix (`'`,
/// `!`), and `+` before it for a promoted shogi piece (only under the `shogi` parent).
fn xboard_symbol(symbol: &str, shogi: bool) -> Option<String> {
    let base = match symbol.strip_prefix('+') {
        Some(base) if shogi => base,
        Some(_) => return None,
        None => symbol,
    };
    let mut chars = base.chars();
    chars.next().filter(char::is_ascii_uppercase)?;
    let suffix: Vec<char> = chars.collect();
    if suffix.len() > 1 || !suffix.iter().all(|&c| SUFFIXES.contains(c)) {
        return None;
    }
    Some(symbol.to_string())
}

/// The king's castling distance for XBoard's `O` atom: every castling moves the king the same
/// number of cells (two or more) along its rank towards a rook at the end of the rank (the
/// edge, or next to a lattice point that is not a cell), and the rook lands on the cell the
/// king crossed last. `Ok(None)` without castling, `Err` where castling is otherwise.
fn castling_distance(geometry: &Geometry, pieces: &BoardPieces) -> Result<Option<i32>, ()> {
    let mut distance = None;
    for &[king_from, king_to, rook_from, rook_to] in &pieces.castlings {
        let (kx, ky) = geometry.coords(king_from);
        let (tx, ty) = geometry.coords(king_to);
        let (rx, ry) = geometry.coords(rook_from);
        let (ux, uy) = geometry.coords(rook_to);
        let step = (rx - kx).signum();
        let n = (tx - kx) * step;
        let on_rank = ky == ty && ky == ry && ky == uy;
        let toward = step != 0 && (tx - kx).signum() == step && (rx - tx) * step > 0;
        let at_end = geometry.at(rx + step, ry).is_none();
        if !on_rank || !toward || !at_end || n < 2 || ux != tx - step {
            return Err(());
        }
        if distance.is_some_and(|d| d != n) {
            return Err(());
        }
        distance = Some(n);
    }
    Ok(distance)
}

/// Why `i` means something else in XBoard for `kind`: its initial region is not exactly the
/// cells where each player's men of that kind start.
fn initial_mismatch(geometry: &Geometry, pieces: &BoardPieces, kind: usize) -> Option<String> {
    let piece = &pieces.pieces[kind];
    let region_name = piece.initial_region.as_ref()?;
    if !piece.moves.moves.iter().any(|m| m.initial) {
        return None;
    }
    if piece.initial_only_unmoved {
        return Some("initial moves need the piece unmoved".to_string());
    }
    let region = geometry.region(region_name)?;
    for player in 0..2u8 {
        let starts: BTreeSet<Cell> = pieces
            .men
            .iter()
            .filter(|(_, man)| man.player() == player && man.kind() as usize == kind)
            .map(|&(cell, _)| cell)
            .collect();
        let zone: BTreeSet<Cell> = region
            .cells
            .get(player as usize)
            .into_iter()
            .flatten()
            .copied()
            .collect();
        // Left out: a player without such men at the start (he could only get one by
        // promotion or a drop, which no ruleset here follows with an initial move).
        if !starts.is_empty() && starts != zone {
            return Some(format!(
                "initial moves from the region {region_name:?}, not only from start cells"
            ));
        }
    }
    None
}

/// The cells of the `depth` farthest rows of the board's bounding box for `player`: the top
/// rows for the first player, the bottom ones for the second.
fn far_rows(geometry: &Geometry, player: usize, depth: i32) -> BTreeSet<Cell> {
    let (_, ranks) = geometry.bounding_box();
    let min_y = geometry
        .cells()
        .map(|c| geometry.coords(c).1)
        .min()
        .unwrap_or(0);
    geometry
        .cells()
        .filter(|&c| {
            let y = geometry.coords(c).1;
            if player == 0 {
                y >= min_y + ranks - depth
            } else {
                y < min_y + depth
            }
        })
        .collect()
}

/// Where XBoard's shogi makes the first player's piece shown as `image` promote: the pawn
/// and the lance (the queen's image) on the last rank, the knight on the last two.
fn shogi_forced(geometry: &Geometry, image: usize) -> Option<BTreeSet<Cell>> {
    match image {
        0 | 4 => Some(far_rows(geometry, 0, 1)),
        1 => Some(far_rows(geometry, 0, 2)),
        _ => None,
    }
}

/// How the ruleset's promotions differ from what XBoard does under `parent`: under `fairy`
/// the piece shown as a pawn must promote on reaching the last rank and nothing else
/// promotes; under `shogi` pieces may promote to their `+` form on moves into, within or out
/// of the last third of the ranks, pawns and lances must on the last rank and knights on the
/// last two.
fn promotion_mismatches(
    geometry: &Geometry,
    pieces: &BoardPieces,
    table: &Table,
    parent: &str,
) -> Vec<String> {
    let (_, ranks) = geometry.bounding_box();
    let rows = |depth: i32| [far_rows(geometry, 0, depth), far_rows(geometry, 1, depth)];
    let region = |name: &str| -> [BTreeSet<Cell>; 2] {
        let cells = |p: usize| {
            geometry
                .region(name)
                .and_then(|r| r.cells.get(p))
                .into_iter()
                .flatten()
                .copied()
                .collect()
        };
        [cells(0), cells(1)]
    };
    let mut out = Vec::new();
    for (kind, piece) in pieces.pieces.iter().enumerate() {
        let image = table.images[kind][0].or(table.images[kind][1]);
        let must = piece.must_promote_in.as_deref().map(region);
        let why = if parent == "fairy" {
            let pawn_like = matches!(image, Some(PAWN_IMAGE | LANCE_IMAGE));
            match piece.promotions.as_slice() {
                [] if pawn_like => Some("does not promote, but is shown as a pawn"),
                [] => None,
                [rule]
                    if pawn_like
                        && !rule.from_zone
                        && !rule.limited
                        && region(&rule.zone) == rows(1)
                        && must == Some(rows(1)) =>
                {
                    None
                }
                _ if piece.promotions.iter().any(|r| r.limited) => {
                    Some("promotes only to pieces it has lost")
                }
                _ => Some("promotes elsewhere than on reaching the last rank"),
            }
        } else {
            let zone = rows(ranks / 3 + i32::from(ranks == 8));
            let forced = match image {
                Some(0 | 4) => Some(rows(1)),
                Some(1) => Some(rows(2)),
                _ => None,
            };
            match piece.promotions.as_slice() {
                _ if must != forced => Some("must promote elsewhere than XBoard's shogi piece"),
                [] => None,
                _ if piece.promotion_compulsory => Some("must promote wherever it may"),
                [rule]
                    if rule.from_zone
                        && !rule.limited
                        && rule.choices == [format!("+{}", piece.symbol)]
                        && region(&rule.zone) == zone =>
                {
                    None
                }
                _ => Some("promotes otherwise than shogi pieces"),
            }
        };
        if let Some(why) = why {
            out.push(format!("{} ({}): {why}", piece.symbol, piece.name));
        }
    }
    out
}

/// A piece's moves in XBoard's Betza dialect, or why they cannot be written there.
pub fn xboard_betza(piece: &PieceType) -> Result<String, String> {
    if !piece.bent.is_empty() {
        return Err("bent rider".to_string());
    }
    if !piece.zone_moves.is_empty() {
        return Err("moves differently in some zones".to_string());
    }
    if piece.confined_to.is_some() {
        return Err("confined to a region".to_string());
    }
    if piece.check_only.is_some() {
        return Err("gives check by moves it never plays".to_string());
    }
    if piece.moves.moves.is_empty() {
        return Err("no moves".to_string());
    }
    let mut out = String::new();
    for family in &piece.moves.moves {
        out.push_str(&write_move(family)?);
    }
    Ok(out)
}

/// A displacement (file, rank) relative to the piece's owner, or an atom's (long, short).
type Step = (i16, i16);

/// One move family: its vectors grouped by atom, each written as modifiers, atom and range.
fn write_move(family: &BetzaMove) -> Result<String, String> {
    // Vectors by atom shape (long, short).
    let mut atoms: Vec<(Step, Vec<Step>)> = Vec::new();
    for &(dx, dy) in &family.vectors {
        let shape = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
        match atoms.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, vectors)) => vectors.push((dx, dy)),
            None => atoms.push((shape, vec![(dx, dy)])),
        }
    }
    // All eight king steps (or queen lines) alike: `K` (`Q`), which takes no directions.
    let full = |shape: (i16, i16)| {
        atoms.iter().any(|(s, vectors)| {
            *s == shape && directions(shape, vectors).is_some_and(|d| d.is_empty())
        })
    };
    if atoms.len() == 2 && full((1, 0)) && full((1, 1)) {
        let letter = match family.range {
            Range::Leap => "K",
            Range::Ride { .. } => "Q",
        };
        return write_atom(family, (1, 0), letter, "");
    }
    let mut out = String::new();
    for (shape, vectors) in &atoms {
        let letter = match shape {
            (1, 0) => "W",
            (1, 1) => "F",
            (2, 0) => "D",
            (2, 1) => "N",
            (2, 2) => "A",
            (3, 0) => "H",
            (3, 1) => "C",
            (3, 2) => "Z",
            (3, 3) => "G",
            (a, b) => return Err(format!("the ({a},{b}) leap has no XBoard letter")),
        };
        let dirs = directions(*shape, vectors)
            .ok_or_else(|| format!("directions of {letter} XBoard cannot name"))?;
        out.push_str(&write_atom(family, *shape, letter, &dirs)?);
    }
    Ok(out)
}

/// Modifiers, atom and range of one atom of a move family.
fn write_atom(
    family: &BetzaMove,
    shape: (i16, i16),
    letter: &str,
    dirs: &str,
) -> Result<String, String> {
    let mut out = String::new();
    if family.initial {
        out.push('i');
    }
    out.push_str(dirs);
    match (family.quiet, family.capture) {
        (true, false) => out.push('m'),
        (false, true) => out.push('c'),
        _ => {}
    }
    if family.en_passant && family.capture {
        out.push('e');
    }
    let slide = matches!(family.range, Range::Ride { .. });
    match family.hop {
        Hop::None => {}
        Hop::Cannon if family.range == (Range::Ride { max: None }) => out.push('p'),
        Hop::Grasshopper if family.range == (Range::Ride { max: None }) => out.push('g'),
        _ => return Err("hops on a limited ride".to_string()),
    }
    // A one-step leap has no path; XBoard's `n` would test the start cell itself.
    if family.lame && !slide && shape.0 > 1 {
        match shape {
            (2, 0) | (2, 1) | (2, 2) => out.push('n'),
            _ => return Err(format!("lame {letter}: XBoard tests only the middle cell")),
        }
    }
    match family.range {
        Range::Leap => out.push_str(letter),
        Range::Ride { max } => {
            let rider = match letter {
                "W" => "R",
                "F" => "B",
                "K" | "Q" => "Q",
                other => other,
            };
            out.push_str(rider);
            match max {
                None if rider.len() == 1 && "RBQ".contains(rider) => {}
                None => out.push('0'),
                Some(n) if n <= 99 => out.push_str(&n.to_string()),
                Some(n) => return Err(format!("rides {n} cells, more than XBoard counts")),
            }
        }
    }
    Ok(out)
}

/// The direction letters selecting exactly `vectors` of an atom of `shape`, in a form both
/// dialects read alike; empty for all directions, `None` if there is no such form.
fn directions(shape: (i16, i16), vectors: &[(i16, i16)]) -> Option<String> {
    let set: BTreeSet<(i16, i16)> = vectors
        .iter()
        .map(|&(x, y)| (x.signum(), y.signum()))
        .collect();
    let all = match shape {
        (_, 0) => 4,
        (a, b) if a == b => 4,
        _ => 8,
    };
    let exact: BTreeSet<(i16, i16)> = vectors.iter().copied().collect();
    if exact.len() == all {
        return Some(String::new());
    }
    let vertical = |dy: i16| if dy > 0 { 'f' } else { 'b' };
    let horizontal = |dx: i16| if dx > 0 { 'r' } else { 'l' };
    let mut out = String::new();
    match shape {
        (_, 0) => {
            // Lone letters add up on orthogonal atoms in both dialects.
            for (v, letter) in [((0, 1), 'f'), ((0, -1), 'b'), ((-1, 0), 'l'), ((1, 0), 'r')] {
                if set.contains(&v) {
                    out.push(letter);
                }
            }
        }
        (a, b) if a == b => {
            let pairs = [
                ('f', [(-1, 1), (1, 1)]),
                ('b', [(-1, -1), (1, -1)]),
                ('l', [(-1, -1), (-1, 1)]),
                ('r', [(1, -1), (1, 1)]),
            ];
            if let Some((letter, _)) = pairs
                .iter()
                .find(|(_, pair)| set.len() == 2 && pair.iter().all(|v| set.contains(v)))
            {
                out.push(*letter);
            } else {
                for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    if set.contains(&(dx, dy)) {
                        out.push(vertical(dy));
                        out.push(horizontal(dx));
                    }
                }
            }
        }
        _ => {
            // Narrow pairs (`ff`: both leaps longest forward) doubled, single leaps as
            // (wide side, narrow side): `rf` is (1,2), `fr` is (2,1).
            let narrow = |v: &(i16, i16)| -> char {
                if v.1.abs() > v.0.abs() {
                    vertical(v.1)
                } else {
                    horizontal(v.0)
                }
            };
            for letter in ['f', 'b', 'l', 'r'] {
                let group: Vec<&(i16, i16)> =
                    exact.iter().filter(|v| narrow(v) == letter).collect();
                match group.as_slice() {
                    [] => {}
                    [_, _] => {
                        out.push(letter);
                        out.push(letter);
                    }
                    vs => {
                        for &&(dx, dy) in vs {
                            if dy.abs() > dx.abs() {
                                out.push(horizontal(dx));
                                out.push(vertical(dy));
                            } else {
                                out.push(vertical(dy));
                                out.push(horizontal(dx));
                            }
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_rules::betza;

    fn xb(betza: &str) -> String {
        xboard_betza(&PieceType::new("X", "test", betza).expect("betza")).expect("writable")
    }

    /// One destination of a move family: vector, quiet, capture, initial, and the rest.
    type MoveKey = ((i16, i16), bool, bool, bool, String);

    /// Every destination of parsed moves with how it is reached.
    fn move_set(parsed: &betza::Betza) -> BTreeSet<MoveKey> {
        parsed
            .moves
            .iter()
            .flat_map(|m| {
                m.vectors.iter().map(move |&v| {
                    (
                        v,
                        m.quiet,
                        m.capture,
                        m.initial,
                        format!("{:?}{:?}{}{}", m.range, m.hop, m.lame, m.en_passant),
                    )
                })
            })
            .collect()
    }

    /// The moves of a Betza string, as our parser reads it.
    fn moves(text: &str) -> BTreeSet<MoveKey> {
        move_set(&betza::parse(text).expect("parses"))
    }

    #[test]
    fn orthodox_and_fairy_pieces_in_xboard_betza() {
        assert_eq!(xb("fmWfceFifmnD"), "fmWfceFifmnD");
        assert_eq!(xb("K"), "K");
        assert_eq!(xb("Q"), "Q");
        assert_eq!(xb("RN"), "RN");
        assert_eq!(xb("BN"), "BN");
        assert_eq!(xb("mRcpR"), "mRcpR");
        // The shogi knight, written with a doubled letter as XBoard's own tables do.
        assert_eq!(xb("fN"), "ffN");
        assert_eq!(xb("ffN"), "ffN");
        // Gold: XBoard's `fK` is a single step, so forward diagonals are written apart.
        assert_eq!(xb("WfF"), "WfF");
        // Our `L` is the camel, XBoard's the zebra; doubled atoms are riders only here.
        assert_eq!(xb("L"), "C");
        assert_eq!(xb("J"), "Z");
        assert_eq!(xb("NN"), "N0");
        assert_eq!(xb("fmWfceFifmR3"), "fmWfceFifmR3");
        assert_eq!(xb("nN"), "nN");
        assert_eq!(xb("fsW"), "flrW");
        assert_eq!(xb("fRrbBlbF"), "fRbrBblF");
        assert_eq!(xb("KfBbRbF2"), "KfBbRbB2");
        assert_eq!(xb("gQ"), "gQ");
        assert_eq!(xb("rfN"), "rfN");
        assert_eq!(xb("fsN"), "flfrN");
    }

    #[test]
    fn pieces_xboard_cannot_describe_are_refused() {
        let piece = |b: &str| PieceType::new("X", "test", b).expect("betza");
        assert!(xboard_betza(&piece("(4,1)")).is_err());
        assert!(xboard_betza(&piece("nH")).is_err());
        assert!(xboard_betza(&piece("")).is_err());
        assert!(xboard_betza(&piece("W").with_bent('W', 'F')).is_err());
        assert!(xboard_betza(&piece("F").confined("palace")).is_err());
    }

    /// What XBoard is sent reads back, with our parser, as the same moves: the forms
    /// written are the ones both dialects read alike.
    #[test]
    fn written_descriptions_mean_the_same_moves() {
        for text in [
            "fmWfceFifmnD",
            "K",
            "WfF",
            "FfW",
            "fN",
            "ffN",
            "fsN",
            "rfN",
            "lbNfrN",
            "fRrbBlbF",
            "fDbF",
            "FsfW",
            "fAbD",
            "KfBbRbF2",
            "WfFbR",
            "fRffN",
            "fsR",
            "lfF",
            "frFblF",
            "CF",
            "WAD",
            "NAD",
            "KAD",
            "mRcpR",
            "vRsW",
            "bsW",
        ] {
            let written = xb(text);
            assert_eq!(moves(&written), moves(text), "{text} -> {written}");
        }
    }

    /// Every piece of every ruleset that XBoard is sent reads back as the piece's own moves.
    #[test]
    fn every_ruleset_piece_written_means_its_moves() {
        let mut written = 0;
        for variant in chaturanga_variants::implemented() {
            let session = chaturanga_session::open(variant.id, 1).expect("opens");
            let Some(pieces) = session.board_pieces() else {
                continue;
            };
            for piece in pieces.pieces {
                if let Ok(text) = xboard_betza(piece) {
                    let back = betza::parse(&text).expect("our parser reads it");
                    assert_eq!(
                        move_set(&back),
                        move_set(&piece.moves),
                        "{}: {text}",
                        piece.name
                    );
                    written += 1;
                }
            }
        }
        assert!(written > 50, "{written}");
    }

    #[test]
    fn chess_is_left_to_xboard_and_capablanca_is_described() {
        let chess = chaturanga_session::open("chess", 1).expect("chess");
        assert_eq!(describe("normal", chess.as_ref()), None);
        let capablanca = chaturanga_session::open("capablanca", 1).expect("capablanca");
        let d = describe("capablanca", capablanca.as_ref()).expect("described");
        assert_eq!(
            d.lines[0],
            "setup (PNBRQ..ACKpnbrq..ack) 10x8+0_fairy \
             rnbcqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKABNR w KQkq - 0 1"
        );
        assert!(d.lines.contains(&"piece K& KO3".to_string()), "{d:?}");
        assert!(d.inexact.is_empty(), "{d:?}");
    }
}
