//! Shared pieces of the orthodox chess family: boards with promotion and pawn-start regions,
//! the orthodox army, castling on the back rank and the dead-position material test.

use chaturanga_geometry::{Geometry, GeometryBuilder, GeometryError};
use chaturanga_rules::standard::{CastlingDef, Rules, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, PieceType, SetupProblem};

/// The `fide-claims` option every chess-based ruleset offers.
pub const FIDE_CLAIMS: OptionSpec = OptionSpec::switch(
    "fide-claims",
    "off",
    "on: threefold repetition and the fifty-move rule are claims; fivefold and 75 moves end the game",
);

/// Which orthodox army.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceSet {
    /// P N B R Q K, pawns with double step and en passant.
    Chess,
}

/// A rectangle of `files` x `ranks` with the regions the orthodox pieces use: `promotion`
/// (each player's last `promotion_ranks` ranks) and `pawn-start` (each player's
/// `pawn_rank`-th rank, counted from 0 at his back rank).
pub fn rectangle(
    files: i32,
    ranks: i32,
    pawn_rank: i32,
    promotion_ranks: i32,
) -> Result<Geometry, GeometryError> {
    let rank = |y: i32| (0..files).map(move |x| (x, y)).collect::<Vec<_>>();
    let ranks_of = |ys: Vec<i32>| ys.into_iter().flat_map(rank).collect::<Vec<_>>();
    GeometryBuilder::rectangle(files, ranks)
        .region(
            "promotion",
            vec![
                ranks_of((ranks - promotion_ranks..ranks).collect()),
                ranks_of((0..promotion_ranks).collect()),
            ],
        )
        .region(
            "pawn-start",
            vec![rank(pawn_rank - 1), rank(ranks - pawn_rank)],
        )
        .region("back-rank", vec![rank(0), rank(ranks - 1)])
        .build()
}

/// The orthodox pieces in kind order P N B R Q K.
pub fn orthodox_pieces(set: PieceSet) -> Result<Vec<PieceType>, SpecError> {
    let bad = |e: chaturanga_rules::betza::BetzaError| SpecError::UnknownPiece(e.to_string());
    match set {
        PieceSet::Chess => Ok(vec![
            PieceType::new("P", "pawn", "fmWfceFifmnD")
                .map_err(bad)?
                .pawn()
                .initial("pawn-start")
                .promotes("promotion", Some("promotion"), &["Q", "R", "B", "N"]),
            PieceType::new("N", "knight", "N").map_err(bad)?,
            PieceType::new("B", "bishop", "B").map_err(bad)?,
            PieceType::new("R", "rook", "R").map_err(bad)?,
            PieceType::new("Q", "queen", "Q").map_err(bad)?,
            PieceType::new("K", "king", "K").map_err(bad)?.royal(),
        ]),
    }
}

/// The four castlings of a rectangular board with rooks in the corners: the king starts on
/// `king_file` and lands on `short_file` (towards the last file) or `long_file`; the rook lands
/// on the cell the king crossed next to it.
pub fn orthodox_castlings(
    files: i32,
    ranks: i32,
    king_file: char,
    short_file: char,
    long_file: char,
) -> Vec<CastlingDef> {
    let last = (b'a' + files as u8 - 1) as char;
    let step = |f: char, d: i8| ((f as u8 as i8) + d) as u8 as char;
    let label = |f: char, r: i32| format!("{f}{r}");
    let mut out = Vec::new();
    for (player, rank, short, long) in [(0u8, 1, 'K', 'Q'), (1, ranks, 'k', 'q')] {
        out.push(CastlingDef {
            player,
            symbol: short,
            cells: [
                label(king_file, rank),
                label(short_file, rank),
                label(last, rank),
                label(step(short_file, -1), rank),
            ],
        });
        out.push(CastlingDef {
            player,
            symbol: long,
            cells: [
                label(king_file, rank),
                label(long_file, rank),
                label('a', rank),
                label(step(long_file, 1), rank),
            ],
        });
    }
    out
}

/// FIDE's material cases of a dead position: besides the kings, nothing, one knight, or only
/// bishops all on cells of one colour. Assumes kinds in the order P N B R Q K.
pub fn only_minor_material_is_dead<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
) -> bool {
    let spec = position.spec();
    let (knight, bishop) = (1, 2);
    let royal = spec.royal;
    let mut knights = 0;
    let mut bishop_colours = [false; 2];
    for cell in position.occupied() {
        let kind = position.piece_at(cell).kind();
        if Some(kind) == royal {
            continue;
        }
        if kind == knight {
            knights += 1;
        } else if kind == bishop {
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
