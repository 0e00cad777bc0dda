//! Shared pieces of the chess family: boards with their usual regions, piece and castling
//! constructors, and dead-position tests. Variant modules combine these; nothing here knows
//! which ruleset it serves.

use chaturanga_geometry::{GeometryBuilder, GeometryError};
use chaturanga_rules::betza::BetzaError;
use chaturanga_rules::legend::{DiagramLattice, Mark, MoveDiagram};
use chaturanga_rules::standard::{CastlingDef, Rules, SpecBuilder, SpecError, StandardPosition};
use chaturanga_rules::{DrawRules, Kind, OptionSpec, PieceType, RuleOptions, SetupProblem};

/// The `fide-claims` option every chess-based ruleset offers.
pub const FIDE_CLAIMS: OptionSpec = OptionSpec::switch(
    "fide-claims",
    "off",
    "on: threefold repetition and the fifty-move rule are claims; fivefold and 75 moves end the game",
).explained("Draw claims", &[("on", "Threefold repetition and the fifty-move rule are draws a player claims; fivefold repetition and 75 moves end the game"), ("off", "Draws by threefold repetition and the fifty-move rule are automatic")]);

/// Lattice points of whole ranks `ys` (0-based from the first player's side) of a board
/// `files` wide.
pub fn ranks(files: i32, ys: impl IntoIterator<Item = i32>) -> Vec<(i32, i32)> {
    ys.into_iter()
        .flat_map(|y| (0..files).map(move |x| (x, y)))
        .collect()
}

/// A region of whole ranks: `own` (0-based, counted from each player's own side) for both
/// players of a board `files` x `ranks_n`.
pub fn mirrored_ranks(files: i32, ranks_n: i32, own: &[i32]) -> Vec<Vec<(i32, i32)>> {
    vec![
        ranks(files, own.iter().copied()),
        ranks(files, own.iter().map(|y| ranks_n - 1 - y)),
    ]
}

/// A `files` x `ranks_n` board with the orthodox regions: `promotion` and `last-rank` (each
/// player's last rank), `pawn-start` (each player's second rank) and `back-rank`.
pub fn chess_board(files: i32, ranks_n: i32) -> GeometryBuilder {
    GeometryBuilder::rectangle(files, ranks_n)
        .region("promotion", mirrored_ranks(files, ranks_n, &[ranks_n - 1]))
        .region("last-rank", mirrored_ranks(files, ranks_n, &[ranks_n - 1]))
        .region("pawn-start", mirrored_ranks(files, ranks_n, &[1]))
        .region("back-rank", mirrored_ranks(files, ranks_n, &[0]))
}

/// A board-building error as a spec error.
pub fn board_error(e: GeometryError) -> SpecError {
    SpecError::Size(e.to_string())
}

/// A piece's Betza that does not read, as a ruleset definition error.
pub fn betza_error(e: BetzaError) -> SpecError {
    SpecError::UnknownPiece(e.to_string())
}

/// A piece type from symbol, name and Betza.
pub fn piece(symbol: &str, name: &str, betza: &str) -> Result<PieceType, SpecError> {
    PieceType::new(symbol, name, betza).map_err(betza_error)
}

/// A hand-made move diagram on the square lattice: the one `betza` draws, with `marks` added
/// (the moves of a piece that its table Betza does not hold, being code).
pub fn diagram(
    betza: &str,
    marks: impl IntoIterator<Item = Mark>,
) -> Result<MoveDiagram, SpecError> {
    let drawn = MoveDiagram::of_betza(betza).map_err(betza_error)?;
    Ok(drawn
        .unwrap_or_else(|| MoveDiagram::new(DiagramLattice::Square))
        .with_marks(marks))
}

/// A piece type whose moves change with the zone it starts from: `zones` are (region, Betza)
/// pairs checked in order, `betza` applies elsewhere.
pub fn zoned_piece(
    symbol: &str,
    name: &str,
    betza: &str,
    zones: &[(&str, &str)],
) -> Result<PieceType, SpecError> {
    let mut p = piece(symbol, name, betza)?;
    for (region, moves) in zones {
        p = p.in_zone(region, moves).map_err(betza_error)?;
    }
    Ok(p)
}

/// A chess pawn with `betza` moves (initial moves from `pawn-start`) that must promote on its
/// last rank to one of `choices`.
pub fn pawn(betza: &str, choices: &[&str]) -> Result<PieceType, SpecError> {
    Ok(piece("P", "pawn", betza)?
        .pawn()
        .initial("pawn-start")
        .promotes("last-rank", choices)
        .must_promote_in("last-rank"))
}

/// The king.
pub fn king() -> Result<PieceType, SpecError> {
    Ok(piece("K", "king", "K")?.royal())
}

/// The orthodox army in kind order P N B R Q K.
pub fn orthodox_pieces() -> Result<Vec<PieceType>, SpecError> {
    Ok(vec![
        pawn("fmWfceFifmnD", &["Q", "R", "B", "N"])?,
        piece("N", "knight", "N")?,
        piece("B", "bishop", "B")?,
        piece("R", "rook", "R")?,
        piece("Q", "queen", "Q")?,
        king()?,
    ])
}

/// The two castlings of each player on a rectangle `ranks_n` high with the king on
/// `king_file`, landing on `short_file`/`long_file`, the rooks on the corner files landing next
/// to the king on the side of the centre (`K`/`Q`, `k`/`q`).
pub fn corner_castlings(
    files: i32,
    ranks_n: i32,
    king_file: char,
    short_file: char,
    long_file: char,
) -> Vec<CastlingDef> {
    let last = (b'a' + files as u8 - 1) as char;
    let shift = |f: char, d: i8| ((f as u8 as i8) + d) as u8 as char;
    let mut out = Vec::new();
    for (player, rank, short, long) in [(0u8, 1, 'K', 'Q'), (1, ranks_n, 'k', 'q')] {
        let cell = |f: char| format!("{f}{rank}");
        out.push(CastlingDef::new(
            player,
            short,
            [
                &cell(king_file),
                &cell(short_file),
                &cell(last),
                &cell(shift(short_file, -1)),
            ],
        ));
        out.push(CastlingDef::new(
            player,
            long,
            [
                &cell(king_file),
                &cell(long_file),
                &cell('a'),
                &cell(shift(long_file, 1)),
            ],
        ));
    }
    out
}

/// A spec builder with the chess draw rules under `options` (`fide-claims`).
pub fn builder(
    id: &'static str,
    geometry: chaturanga_geometry::Geometry,
    options: &RuleOptions,
) -> SpecBuilder {
    SpecBuilder::new(id, geometry)
        .options(options.clone())
        .draw_rules(DrawRules::chess(options.is_on("fide-claims")))
}

/// Values of the orthodox pieces in centipawns (Kaufman's, rounded; the king is royal).
pub const ORTHODOX_VALUES: &[(&str, i32)] =
    &[("P", 100), ("N", 320), ("B", 330), ("R", 500), ("Q", 950)];

/// Orthodox values plus the archbishop (`A`, bishop-knight) and chancellor (`C`, rook-knight,
/// Grand chess's marshal and cardinal), after H. G. Muller's computer studies.
pub const CAPABLANCA_VALUES: &[(&str, i32)] = &[
    ("P", 100),
    ("N", 320),
    ("B", 330),
    ("R", 500),
    ("Q", 950),
    ("A", 875),
    ("C", 900),
];

/// Adds pieces and castlings to a builder.
pub fn with(
    mut builder: SpecBuilder,
    pieces: Vec<PieceType>,
    castlings: Vec<CastlingDef>,
) -> SpecBuilder {
    for p in pieces {
        builder = builder.piece(p);
    }
    for c in castlings {
        builder = builder.castling(c);
    }
    builder
}

fn kind_of<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    symbol: &str,
) -> Option<Kind> {
    position.spec().kind_by_symbol(symbol)
}

/// FIDE's material cases of a dead position: besides the royal pieces, nothing, one knight,
/// or only bishops all on cells of one colour (any other piece keeps the game alive).
pub fn minor_material_is_dead<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
) -> bool {
    let spec = position.spec();
    let knight = kind_of(position, "N");
    let bishop = kind_of(position, "B");
    let mut knights = 0;
    let mut bishop_colours = [false; 2];
    for cell in position.occupied() {
        let kind = position.piece_at(cell).kind();
        if spec.is_royal(kind) {
            continue;
        }
        if Some(kind) == knight {
            knights += 1;
        } else if Some(kind) == bishop {
            bishop_colours[spec.geometry.colour(cell) as usize & 1] = true;
        } else {
            return false;
        }
    }
    let bishops_one_colour = !(bishop_colours[0] && bishop_colours[1]);
    let any_bishop = bishop_colours[0] || bishop_colours[1];
    match knights {
        0 => bishops_one_colour,
        1 => !any_bishop,
        _ => false,
    }
}

/// Only royal pieces are left on the board.
pub fn bare_royals_are_dead<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
) -> bool {
    position.occupied() == (position.royals(0) | position.royals(1))
}

/// Pawns standing on their own back rank, which no game can reach.
pub fn pawns_on_first_rank<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
) -> Vec<SetupProblem> {
    let spec = position.spec();
    let Some(back) = spec.geometry.region("back-rank") else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for cell in position.occupied() {
        let piece = position.piece_at(cell);
        if spec.pieces[piece.kind() as usize].pawn
            && back.cells[piece.player() as usize].contains(&cell)
        {
            problems.push(SetupProblem::Other(format!(
                "pawn on its own first rank at {}",
                spec.geometry.label(cell)
            )));
        }
    }
    problems
}

/// The eight steps of a king, as (file, rank) offsets, row by row from the lower left
/// (Gess's 3x3 windows number their outer cells in this order).
pub const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
