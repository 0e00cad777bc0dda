//! Shared parts of the shogi family: USI boards, the shogi piece set, drop restrictions
//! (dead pieces, nifu, pawn-drop mate), sennichite with perpetual check, the impasse
//! rules, and Western (Hodges) move notation.

use crate::family;
use chaturanga_geometry::{Cell, CellSet, Geometry, GeometryBuilder};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::{Move, Rules, SpecError, Special, StandardPosition};
use chaturanga_rules::{
    DrawRules, Kind, MoveError, OptionSpec, OptionValues, Outcome, Piece, Player, Position, Reason,
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
        label: "Move limit",
        words: &[
            ("0", "No move limit"),
            (
                "*",
                "Drawn after {} plies, once the player to move is not in check",
            ),
        ],
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

/// The name of Western shogi notation among a ruleset's notations.
pub const WESTERN: &str = "western";

/// A cell as Western notation names it: the file number counted from the first player's
/// right, then the rank letter counted from the top (`7f`). Worked out from the lattice
/// rather than taken from the cell's label, so that the notation stays Hodges's whatever
/// the labels become; every shogi board writes its cells so, chu's and dai's too.
pub(crate) fn western_cell(geometry: &Geometry, cell: Cell) -> String {
    let (files, ranks) = geometry.bounding_box();
    let (x, y) = geometry.coords(cell);
    let rank = char::from(b'a' + (ranks - 1 - y) as u8);
    format!("{}{rank}", files - x)
}

/// Reads a Western cell ([`western_cell`]) at the start of `text`: one or two digits and a
/// letter, in either case. `None` where the text does not start with that shape; otherwise
/// the cell (`None` when no cell of `geometry` has that name) and the rest of the text.
pub(crate) fn read_western_cell<'t>(
    geometry: &Geometry,
    text: &'t str,
) -> Option<(Option<Cell>, &'t str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let letter = *text.as_bytes().get(digits)?;
    if !(1..=2).contains(&digits) || !letter.is_ascii_alphabetic() {
        return None;
    }
    let file: i32 = text[..digits].parse().ok()?;
    let rank = i32::from(letter.to_ascii_lowercase() - b'a');
    let (files, ranks) = geometry.bounding_box();
    let cell = ((1..=files).contains(&file) && rank < ranks)
        .then(|| geometry.at(files - file, ranks - 1 - rank))
        .flatten();
    Some((cell, &text[digits + 1..]))
}

/// The legal move `mv` in Western (Hodges) notation, as English shogi books and lishogi's
/// "Western" setting write it: the piece (`P`, `+R`), its start cell only when another piece
/// of its kind can also go to the destination (`G6i-5h`), `-` for a move, `x` for a capture
/// or `*` for a drop, the destination (`7f`), then `+` for a promotion or `=` for a
/// promotion the move could have made but declines: `P-7f`, `Bx2b+`, `S-4h=`, `P*5e`.
/// Pieces are the ruleset's own symbols.
pub fn to_western<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    mv: Move,
) -> String {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    western_among(position, mv, &legal, Origin::WhereNeeded)
}

/// Whether a Western text gives a board move's start cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    /// Where another piece of the kind can go to the same cell: the written form.
    WhereNeeded,
    /// Always; readers accept it.
    Always,
    /// Never; readers recognise it, and call it ambiguous where it is.
    Never,
}

/// [`to_western`] with the legal moves listed, giving the start cell as `origin` says.
fn western_among<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    mv: Move,
    legal: &[Move],
    origin: Origin,
) -> String {
    let mut text = position.spec().pieces[mv.kind as usize].symbol.clone();
    if mv.special == Special::Drop {
        text.push('*');
        text.push_str(&western_cell(&position.spec().geometry, mv.to));
        return text;
    }
    // Drops never make a board move ambiguous: they are written with `*`.
    let rival = legal.iter().any(|m| {
        m.special != Special::Drop && m.kind == mv.kind && m.to == mv.to && m.from != mv.from
    });
    if origin == Origin::Always || (origin == Origin::WhereNeeded && rival) {
        text.push_str(&western_cell(&position.spec().geometry, mv.from));
    }
    text.push(if mv.is_capture() { 'x' } else { '-' });
    text.push_str(&western_cell(&position.spec().geometry, mv.to));
    if mv.promotion.is_some() {
        text.push('+');
    } else if legal
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m.promotion.is_some())
    {
        text.push('=');
    }
    text
}

/// The spellings of a move that [`parse_western`] recognises, compared in upper case: with
/// and without the start cell (the written form is one of them), with `-` and `x` swapped,
/// and without a closing `=` (a move without `+` does not promote).
fn western_spellings<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    mv: Move,
    legal: &[Move],
) -> Vec<String> {
    // The separator is the first `-` or `x` after the piece symbol (cells hold neither).
    let symbol = position.spec().pieces[mv.kind as usize].symbol.len();
    let mut spellings = Vec::new();
    for origin in [Origin::Always, Origin::Never] {
        let written = western_among(position, mv, legal, origin).to_ascii_uppercase();
        let (piece, rest) = written.split_at(symbol);
        let swapped = if mv.is_capture() {
            format!("{piece}{}", rest.replacen('X', "-", 1))
        } else {
            format!("{piece}{}", rest.replacen('-', "X", 1))
        };
        for text in [written, swapped] {
            if let Some(bare) = text.strip_suffix('=') {
                spellings.push(bare.to_string());
            }
            spellings.push(text);
        }
    }
    spellings
}

/// Whether `text` has the shape of a Western move of this ruleset: one of its piece symbols,
/// an optional start cell, `-`, `x` or `*`, a destination, an optional `+` or `=`.
fn western_shaped<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    text: &str,
) -> bool {
    let upper = text.to_ascii_uppercase();
    let cell_at = |s: &str| -> Option<usize> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let letter = s.as_bytes().get(digits)?;
        ((1..=2).contains(&digits) && letter.is_ascii_alphabetic()).then_some(digits + 1)
    };
    position.spec().pieces.iter().any(|piece| {
        let Some(rest) = upper.strip_prefix(piece.symbol.as_str()) else {
            return false;
        };
        let rest = cell_at(rest).map_or(rest, |n| &rest[n..]);
        let Some(rest) = rest.strip_prefix(['-', 'X', '*']) else {
            return false;
        };
        let Some(n) = cell_at(rest) else {
            return false;
        };
        matches!(&rest[n..], "" | "+" | "=")
    })
}

/// Reads a move in Western notation ([`to_western`]); also in lower case, with the start
/// cell where it is not needed, `-` for a capture, `x` for a move, and without the `=` of a
/// declined promotion. Without the start cell where two pieces fit, the move is ambiguous.
pub fn parse_western<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    text: &str,
) -> Result<Move, MoveError> {
    let text: String = text.split_whitespace().collect();
    if text.is_empty() || text.len() > 16 || !western_shaped(position, &text) {
        return Err(MoveError::Malformed(excerpt(&text)));
    }
    let wanted = text.to_ascii_uppercase();
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    let mut fits = legal
        .iter()
        .copied()
        .filter(|&m| western_spellings(position, m, &legal).contains(&wanted));
    match (fits.next(), fits.next()) {
        (Some(mv), None) => Ok(mv),
        (Some(_), Some(_)) => Err(MoveError::Ambiguous(excerpt(&text))),
        (None, _) => Err(MoveError::Illegal(excerpt(&text))),
    }
}

/// [`Rules::write_move`] for a ruleset whose only notation is Western.
pub fn write_western<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    notation: &str,
    mv: Move,
) -> Option<String> {
    (notation == WESTERN).then(|| to_western(position, mv))
}

/// [`Rules::read_move`] for a ruleset whose only notation is Western.
pub fn read_western<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    notation: &str,
    text: &str,
) -> Result<Move, MoveError> {
    if notation != WESTERN {
        return Err(MoveError::Malformed(format!(
            "no {} notation here",
            excerpt(notation)
        )));
    }
    parse_western(position, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minishogi::MinishogiPosition;
    use crate::shogi::ShogiPosition;
    use crate::torishogi::ToriShogiPosition;
    use crate::yarishogi::YariShogiPosition;
    use chaturanga_rules::{RuleOptions, Ruleset};
    use std::collections::BTreeSet;

    fn at<P: Ruleset>(sfen: &str) -> P {
        let o = RuleOptions::parse::<&str>(P::option_specs(), &[]).unwrap();
        P::from_fen_with(&o, sfen).unwrap()
    }

    fn shogi(sfen: &str) -> ShogiPosition {
        at::<ShogiPosition>(sfen)
    }

    /// The Western text of the move given in USI.
    fn western<const W: usize, const K: usize, R: Rules<W, K>>(
        p: &StandardPosition<W, K, R>,
        usi: &str,
    ) -> String {
        to_western(p, p.parse_move(usi).unwrap())
    }

    /// The USI text of the move read from Western notation.
    fn read<const W: usize, const K: usize, R: Rules<W, K>>(
        p: &StandardPosition<W, K, R>,
        text: &str,
    ) -> String {
        p.move_text(parse_western(p, text).unwrap())
    }

    #[test]
    fn opening_moves_and_disambiguation() {
        let p = shogi(crate::shogi::START_SFEN);
        assert_eq!(western(&p, "7g7f"), "P-7f");
        assert_eq!(western(&p, "2h5h"), "R-5h");
        assert_eq!(western(&p, "5i4h"), "K-4h");
        assert_eq!(western(&p, "1i1h"), "L-1h");
        // Both golds reach 5h: the start cell follows the letter. The silver on 3i is alone
        // in reaching 4h, though the gold and the king go there too.
        assert_eq!(western(&p, "6i5h"), "G6i-5h");
        assert_eq!(western(&p, "4i5h"), "G4i-5h");
        assert_eq!(western(&p, "3i4h"), "S-4h");
        assert_eq!(western(&p, "4i4h"), "G-4h");
        assert_eq!(read(&p, "G6i-5h"), "6i5h");
        assert_eq!(read(&p, "g4i-5h"), "4i5h");
        // Over-disambiguated, lower case, spaced, or with `x` for `-`: still read.
        assert_eq!(read(&p, "P7g-7f"), "7g7f");
        assert_eq!(read(&p, "p-7f"), "7g7f");
        assert_eq!(read(&p, " P - 7f "), "7g7f");
        assert_eq!(read(&p, "Px7f"), "7g7f");
        assert!(matches!(
            parse_western(&p, "G-5h"),
            Err(MoveError::Ambiguous(_))
        ));
        assert!(matches!(
            parse_western(&p, "P-7e"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_western(&p, "P*7e"),
            Err(MoveError::Illegal(_))
        ));
        for text in ["7g7f", "Q-5e", "P-7", "P-7f++", "P--7f", ""] {
            assert!(
                matches!(parse_western(&p, text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn captures_promotions_and_drops() {
        // Black's bishop can take on 2b, promoting or not.
        let p = shogi("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        assert_eq!(western(&p, "8h2b+"), "Bx2b+");
        assert_eq!(western(&p, "8h2b"), "Bx2b=");
        assert_eq!(read(&p, "Bx2b+"), "8h2b+");
        assert_eq!(read(&p, "Bx2b="), "8h2b");
        assert_eq!(read(&p, "Bx2b"), "8h2b");
        let mut after = p.clone();
        after.play_unchecked(p.parse_move("8h2b+").unwrap());
        // White takes back on his own side of the board: no promotion to decline.
        assert_eq!(western(&after, "3a2b"), "Sx2b");
        // White's silver inside his zone may promote on 4h or not.
        let w = shogi("4k4/9/9/9/9/9/5s3/9/4K4 w - 1");
        assert_eq!(western(&w, "4g4h"), "S-4h=");
        assert_eq!(western(&w, "4g4h+"), "S-4h+");
        // Leaving the zone: promotion is optional too.
        let s = shogi("4k4/9/5S3/9/9/9/9/9/4K4 b - 1");
        assert_eq!(western(&s, "4c5d"), "S-5d=");
        assert_eq!(western(&s, "4c5d+"), "S-5d+");
        // A compulsory promotion has no declined form to tell it from.
        let k = shogi("4k4/6P2/9/7N1/9/9/9/9/4K4 b - 1");
        assert_eq!(western(&k, "3b3a+"), "P-3a+");
        assert_eq!(western(&k, "2d1b+"), "N-1b+");
        // Drops, and a drop beside a board move of the same piece to the same cell.
        let d = shogi("lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL b BSp 11");
        assert_eq!(western(&d, "S*5e"), "S*5e");
        assert_eq!(western(&d, "S*4h"), "S*4h");
        assert_eq!(western(&d, "3i4h"), "S-4h");
        assert_eq!(western(&d, "3b4a"), "+S-4a");
        assert_eq!(read(&d, "S*4h"), "S*4h");
        assert_eq!(read(&d, "S-4h"), "3i4h");
        assert_eq!(read(&d, "+s-4a"), "3b4a");
        let w = shogi("lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BSp 10");
        assert_eq!(western(&w, "P*8e"), "P*8e");
        assert_eq!(western(&w, "2h2i"), "+Rx2i");
        // Two dragons can take on 3c.
        let r = shogi("4k4/9/2+R3p2/9/9/9/9/9/4K1+R2 b - 1");
        assert_eq!(western(&r, "3i3c"), "+R3ix3c");
        assert_eq!(western(&r, "7c3c"), "+R7cx3c");
        assert_eq!(western(&r, "3i3d"), "+R-3d");
        assert_eq!(read(&r, "+R7c-3c"), "7c3c");
        assert!(matches!(
            parse_western(&r, "+Rx3c"),
            Err(MoveError::Ambiguous(_))
        ));
    }

    #[test]
    fn rulesets_offer_western() {
        let p = shogi(crate::shogi::START_SFEN);
        assert_eq!(p.notations(), ["csa", "kif", WESTERN]);
        let m = p.parse_move("7g7f").unwrap();
        assert_eq!(p.write_move(WESTERN, m).as_deref(), Some("P-7f"));
        assert_eq!(p.read_move(WESTERN, "P-7f"), Ok(m));
        let mini = at::<MinishogiPosition>(crate::minishogi::START_SFEN);
        assert_eq!(mini.notations(), [WESTERN]);
        assert_eq!(western(&mini, "5d5c"), "P-5c");
        assert_eq!(western(&mini, "4e4d"), "G-4d");
        assert_eq!(western(&mini, "2e3d"), "B-3d");
        assert_eq!(
            mini.write_move("kif", mini.parse_move("5d5c").unwrap()),
            None
        );
        assert!(matches!(
            mini.read_move("kif", "５三歩(54)"),
            Err(MoveError::Malformed(_))
        ));
        let tori = at::<ToriShogiPosition>(crate::torishogi::START_SFEN);
        assert_eq!(tori.notations(), [WESTERN]);
        assert_eq!(western(&tori, "4f5f"), "F-5f");
        assert_eq!(western(&tori, "4e4d"), "S-4d");
        assert_eq!(western(&tori, "3d3c"), "Sx3c");
        let yari = at::<YariShogiPosition>(crate::yarishogi::START_SFEN);
        assert_eq!(yari.notations(), [WESTERN]);
        assert_eq!(western(&yari, "1i1h"), "R-1h");
    }

    /// Western cells are USI's labels on every board that offers the notation.
    #[test]
    fn western_cells_are_the_usi_labels() {
        fn check<const W: usize, const K: usize, R: Rules<W, K>>(
            p: &StandardPosition<W, K, R>,
        ) -> usize {
            let g = &p.spec().geometry;
            for cell in g.cells() {
                assert_eq!(western_cell(g, cell), g.label(cell));
                assert_eq!(
                    read_western_cell(g, &western_cell(g, cell).to_uppercase()),
                    Some((Some(cell), ""))
                );
            }
            g.len()
        }
        assert_eq!(check(&shogi(crate::shogi::START_SFEN)), 81);
        assert_eq!(
            check(&at::<MinishogiPosition>(crate::minishogi::START_SFEN)),
            25
        );
        assert_eq!(
            check(&at::<ToriShogiPosition>(crate::torishogi::START_SFEN)),
            49
        );
        assert_eq!(
            check(&at::<YariShogiPosition>(crate::yarishogi::START_SFEN)),
            63
        );
    }

    /// Every legal move of `p` and of the positions a fixed walk of `plies` reaches from it
    /// has a Western text of its own, which reads back to the move (also in lower case and
    /// with its start cell); returns the number of moves checked.
    fn round_trip<const W: usize, const K: usize, R: Rules<W, K>>(
        mut p: StandardPosition<W, K, R>,
        plies: usize,
    ) -> usize {
        let mut checked = 0;
        for ply in 0..plies {
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let mut seen = BTreeSet::new();
            for &m in &legal {
                let text = to_western(&p, m);
                let here = format!("{} {}: {text}", p.fen(), p.move_text(m));
                assert!(seen.insert(text.clone()), "{here} is written twice");
                assert_eq!(parse_western(&p, &text), Ok(m), "{here}");
                assert_eq!(p.write_move(WESTERN, m).as_deref(), Some(&*text), "{here}");
                assert_eq!(p.read_move(WESTERN, &text.to_lowercase()), Ok(m), "{here}");
                let full = western_among(&p, m, &legal, Origin::Always);
                assert_eq!(parse_western(&p, &full), Ok(m), "{here} as {full}");
                checked += 1;
            }
            p.play_unchecked(legal[(ply * 7 + 3) % legal.len()]);
        }
        checked
    }

    #[test]
    fn every_move_reads_back() {
        let checked = [
            crate::shogi::START_SFEN,
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BSp 10",
            "4k4/9/2+R3p2/9/9/9/9/9/4K1+R2 b GSNLP2g 1",
        ]
        .into_iter()
        .map(|sfen| round_trip(shogi(sfen), 40))
        .sum::<usize>()
            + round_trip(at::<MinishogiPosition>(crate::minishogi::START_SFEN), 40)
            + round_trip(at::<ToriShogiPosition>(crate::torishogi::START_SFEN), 40)
            + round_trip(at::<YariShogiPosition>(crate::yarishogi::START_SFEN), 40);
        assert!(checked > 10_000, "only {checked} moves checked");
    }
}
