//! Shared parts of the shogi family: USI boards, the shogi piece set, drop restrictions
//! (dead pieces, nifu, pawn-drop mate), sennichite with perpetual check, and the impasse
//! rules.

use crate::family;
use chaturanga_geometry::{Cell, CellSet, Geometry, GeometryBuilder};
use chaturanga_rules::standard::{Move, Rules, SpecError, Special, StandardPosition};
use chaturanga_rules::{
    DrawRules, Kind, OptionSpec, OptionValues, Outcome, Piece, Player, Position, Reason,
};

/// `max-plies` with the given default.
/// Shogi piece values in centipawns, as computer shogi uses them (pawn 90; promoted minor
/// pieces worth a gold).
pub const SHOGI_VALUES: &[(&str, i32)] = &[
    ("P", 90),
    ("L", 315),
    ("N", 405),
    ("S", 495),
    ("G", 540),
    ("B", 855),
    ("R", 990),
    ("+P", 540),
    ("+L", 540),
    ("+N", 540),
    ("+S", 540),
    ("+B", 945),
    ("+R", 1395),
];

/// The shogi values of the pieces minishogi keeps.
pub const MINISHOGI_VALUES: &[(&str, i32)] = &[
    ("P", 90),
    ("S", 495),
    ("G", 540),
    ("B", 855),
    ("R", 990),
    ("+P", 540),
    ("+S", 540),
    ("+B", 945),
    ("+R", 1395),
];

/// The move-count cap option of a shogi-family ruleset.
pub const fn max_plies(default: &'static str) -> OptionSpec {
    OptionSpec {
        name: "max-plies",
        values: OptionValues::Number(0, 100_000),
        default,
        help: "plies after which the game is drawn (once the player to move is not in check); 0 switches the cap off",
    }
}

/// Drops and promotions reset the quiet plies, the halfmove clock Fairy-Stockfish's FEN writes
/// (no rule of the family reads it; repetitions are looked for over the whole game, see
/// `Position::repetition_window`).
pub fn drops_reset_quiet_plies<const W: usize>(
    mut spec: chaturanga_rules::standard::Spec<W>,
) -> chaturanga_rules::standard::Spec<W> {
    spec.drops_reset_quiet_plies = true;
    spec
}

/// The sennichite draw rules: the fourth occurrence ends the game, and the game-length cap.
pub fn draw_rules(max_plies: u32) -> DrawRules {
    DrawRules {
        repetition: Some((4, Reason::Sennichite)),
        repetition_claim: None,
        quiet_plies: None,
        quiet_plies_claim: None,
        ply_cap: (max_plies > 0).then_some(max_plies),
    }
}

/// Lattice points of ranks `ys` (0-based from the first player's side).
fn ranks(files: i32, ys: impl IntoIterator<Item = i32>) -> Vec<(i32, i32)> {
    family::ranks(files, ys)
}

/// A `files` x `ranks_n` board with USI labels (file digit from the first player's right,
/// rank letter from the top) and the regions: `zone` (each player's last `zone_depth`
/// ranks), `last-rank`, `last-two`, `not-last` and `not-last-two` (for drop restrictions).
pub fn usi_board(files: i32, ranks_n: i32, zone_depth: i32) -> GeometryBuilder {
    let mirrored = |own: Vec<i32>| -> Vec<Vec<(i32, i32)>> {
        vec![
            ranks(files, own.iter().copied()),
            ranks(files, own.iter().map(|y| ranks_n - 1 - y)),
        ]
    };
    let top = ranks_n - 1;
    // The star points of boards from shogi's size up: on the corners where the promotion
    // zones' edge lines meet the files as far in from either side.
    let stars: Vec<(i32, i32)> = if files >= 9 && files == ranks_n {
        let near = zone_depth - 1;
        let far = files - zone_depth - 1;
        vec![(near, near), (far, near), (near, far), (far, far)]
    } else {
        Vec::new()
    };
    GeometryBuilder::rectangle(files, ranks_n)
        .stars(&stars)
        .labels(move |x, y| format!("{}{}", files - x, (b'a' + (top - y) as u8) as char))
        .region("zone", mirrored((ranks_n - zone_depth..ranks_n).collect()))
        .region("last-rank", mirrored(vec![top]))
        .region("last-two", mirrored(vec![top - 1, top]))
        .region("not-last", mirrored((0..top).collect()))
        .region("not-last-two", mirrored((0..top - 1).collect()))
}

/// Builds a USI board.
pub fn build_board(files: i32, ranks_n: i32, zone_depth: i32) -> Result<Geometry, SpecError> {
    usi_board(files, ranks_n, zone_depth)
        .build()
        .map_err(family::board_error)
}

/// Cells of the files (lattice columns) in which `player` has at least `limit` pieces of
/// `kind`.
pub fn crowded_files<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    player: Player,
    kind: Kind,
    limit: u32,
) -> CellSet<W> {
    let files = &position.spec().files;
    let mut mine = position.pieces_of_kind(kind) & position.pieces_of(player);
    let mut crowded = CellSet::EMPTY;
    while let Some(c) = mine.first() {
        let file = files[c.index()];
        if (mine & file).count() >= limit {
            crowded |= file;
        }
        mine = mine.without(file);
    }
    crowded
}

/// The cells of `cells` where dropping `kind` would checkmate the opponent (the pawn-drop
/// mate that shogi forbids). `kind` must capture by plain leaps, as pawns and swallows do.
pub fn drop_mates<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    kind: Kind,
    cells: CellSet<W>,
) -> CellSet<W> {
    let us = position.turn();
    let Some(king) = position.royal_cell(1 - us) else {
        return CellSet::EMPTY;
    };
    let mut mates = CellSet::EMPTY;
    // Only a drop that attacks the king can mate: the cells from which the piece would
    // capture on the king's cell.
    for cell in cells & position.spec().attacks.leaps(us, kind, king) {
        let mut after = position.clone();
        after.play_unchecked(Move {
            from: cell,
            to: cell,
            kind,
            promotion: None,
            captured: Piece::NONE,
            special: Special::Drop,
        });
        if after.is_check() && after.count_legal_moves() == 0 {
            mates.insert(cell);
        }
    }
    mates
}

/// What a repetition without perpetual check means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainRepetition {
    /// A draw (the seed's sennichite).
    Draw,
    /// A loss for the first player (modern minishogi).
    FirstPlayerLoses,
    /// A loss for the player whose move produced the repetition (standard Tori shogi).
    RepeaterLoses,
}

/// Judges the fourth occurrence of a position: the one player who checked with every move
/// since the first occurrence loses; otherwise `plain` decides.
pub fn judge_sennichite<P: Position>(
    cycle: &[P],
    moves: &[P::Move],
    plain: PlainRepetition,
) -> Option<Outcome> {
    let mut checking = [true, true];
    let mut moved = [false, false];
    for i in 0..moves.len() {
        let player = cycle[i].side_to_move();
        moved[player] = true;
        if !cycle[i + 1].is_check() {
            checking[player] = false;
        }
    }
    let perpetual = [checking[0] && moved[0], checking[1] && moved[1]];
    let repeater = cycle[cycle.len() - 2].side_to_move();
    sennichite(perpetual, repeater, plain)
}

/// The verdict on a repetition in which `perpetual[p]` says whether player `p` checked with
/// every move and `repeater` made the repeating move: a lone perpetual checker loses;
/// otherwise `plain` decides. The game's judgement ([`judge_sennichite`]) and the search's
/// (`Position::judge_repetition_in_search`) both end here.
pub fn sennichite(
    perpetual: [bool; 2],
    repeater: usize,
    plain: PlainRepetition,
) -> Option<Outcome> {
    match perpetual {
        [true, false] => Some(Outcome::loss(2, 0, Reason::PerpetualCheck)),
        [false, true] => Some(Outcome::loss(2, 1, Reason::PerpetualCheck)),
        [true, true] => None,
        [false, false] => match plain {
            PlainRepetition::Draw => None,
            PlainRepetition::FirstPlayerLoses => Some(Outcome::loss(2, 0, Reason::Sennichite)),
            PlainRepetition::RepeaterLoses => Some(Outcome::loss(2, repeater, Reason::Sennichite)),
        },
    }
}

/// The search's verdict on a repetition of `position` (see
/// `Position::judge_repetition_in_search`): the repeating move was the other player's.
pub fn sennichite_in_search<P: Position>(
    position: &P,
    perpetual: [bool; 2],
    plain: PlainRepetition,
) -> Option<Outcome> {
    sennichite(perpetual, 1 - position.side_to_move(), plain)
}

/// The `repetition` option of the small shogi variants.
pub fn plain_repetition(value: Option<&str>) -> PlainRepetition {
    match value {
        Some("sente-loses") => PlainRepetition::FirstPlayerLoses,
        Some("repeater-loses") => PlainRepetition::RepeaterLoses,
        _ => PlainRepetition::Draw,
    }
}

/// `player`'s cells of region `name`.
pub fn region<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    name: &str,
    player: Player,
) -> CellSet<W> {
    position
        .spec()
        .geometry
        .region(name)
        .map(|r| CellSet::from_cells(r.cells[player as usize].iter().copied()))
        .unwrap_or_default()
}

/// Checks that a cell set lies in a region (helper for impasse conditions).
pub fn inside<const W: usize>(set: CellSet<W>, region: CellSet<W>) -> bool {
    set.without(region).is_empty()
}

/// Cell of a player's king, if any.
pub fn king<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    player: Player,
) -> Option<Cell> {
    position.royal_cell(player)
}
