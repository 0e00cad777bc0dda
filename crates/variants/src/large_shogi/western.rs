//! Western (Hodges) notation for chu and dai shogi, as the Chu Shogi League and Hodges's
//! *Middle Shogi Manual* write it, extended to lion power:
//!
//! - the piece's abbreviation (`Ln`, `DK`, `+P`; the ruleset's [`LargeShogi::WESTERN`]
//!   table), then its start cell only where another piece of the same kind could make a move
//!   written the same (`DK5j-4j`);
//! - `-` for a move or `x` for a capture, and the destination (`P-7h`, `Rx3c`); cells are
//!   shogi's, the file counted from the first player's right, the rank lettered from the top;
//! - a move in two steps by lion power gives both: `Lnx4e-4f` (captures on 4e, ends on 4f),
//!   `Lnx4ex4d` (two captures); igui, a capture on the first step and back to the start, is
//!   `Lnx!4e`; a pass (out and back, or staying put) is `Ln-pass`, with the start cell
//!   where another piece of the kind could pass too (`+DH5f-pass`);
//! - `+` after a promoting move, `=` after one that could have promoted but does not.
//!
//! Readers also take lower case, spaces, the start cell where it is not needed, `-` and `x`
//! swapped, a declined promotion without its `=`, igui written as a capture and a step back
//! (`Lnx4e-5f`), and the other spellings of the table (`Ky`, `+DE`). The abbreviation is the
//! longest that the text starts with; no abbreviation followed by what may come after one (a
//! digit, `-`, `x`) spells another, which the tests check.

use super::{LargeMove, LargeShogi, LargeShogiPosition};
use crate::shogi_family::{read_western_cell, western_cell};
use chaturanga_geometry::Cell;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::SpecError;
use chaturanga_rules::tables::PieceBoard;
use chaturanga_rules::{Kind, MoveError, PieceType};

/// A piece's Western abbreviation: its symbol in the ruleset's piece table, the abbreviation
/// written (`("+O", "+Kr", &["+Ky"])`), and other spellings readers accept.
pub type Abbreviation = (&'static str, &'static str, &'static [&'static str]);

/// The longest move text read, once spaces are taken out (`+Kr12jx11kx10l=` is 15).
const MAX_TEXT: usize = 24;
/// The longest input looked at, spaces included.
const MAX_INPUT: usize = 64;

/// A ruleset's abbreviations resolved against its pieces.
#[derive(Debug)]
pub(super) struct Abbreviations {
    /// The written abbreviation by kind.
    written: Vec<&'static str>,
    /// Every spelling readers accept, in upper case, with its kind; longest first.
    readings: Vec<(String, Kind)>,
}

/// The abbreviation of every kind of `pieces` from `table`, and every spelling in upper case
/// with its kind. Every piece needs one, and no spelling may be given twice.
pub(super) fn abbreviations(
    pieces: &[PieceType],
    table: &'static [Abbreviation],
) -> Result<Abbreviations, SpecError> {
    let mut written = Vec::with_capacity(pieces.len());
    let mut readings: Vec<(String, Kind)> = Vec::new();
    for (kind, piece) in pieces.iter().enumerate() {
        let &(_, abbreviation, also) = table
            .iter()
            .find(|(symbol, ..)| *symbol == piece.symbol)
            .ok_or_else(|| {
                SpecError::Size(format!("{} has no Western abbreviation", piece.symbol))
            })?;
        written.push(abbreviation);
        for spelling in std::iter::once(abbreviation).chain(also.iter().copied()) {
            let upper = spelling.to_ascii_uppercase();
            if readings.iter().any(|(r, _)| *r == upper) {
                return Err(SpecError::Size(format!(
                    "the Western abbreviation {spelling} is given twice"
                )));
            }
            readings.push((upper, kind as Kind));
        }
    }
    if let Some((symbol, ..)) = table
        .iter()
        .find(|(symbol, ..)| !pieces.iter().any(|p| p.symbol == *symbol))
    {
        return Err(SpecError::UnknownPiece(symbol.to_string()));
    }
    readings.sort_by_key(|(r, _)| std::cmp::Reverse(r.len()));
    Ok(Abbreviations { written, readings })
}

/// What a move does after leaving its start cell, as the notation tells moves apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Legs {
    /// One step, slide or leap to the cell.
    Step(Cell),
    /// Igui: a capture on the cell without moving.
    Igui(Cell),
    /// A capture on the first cell, then on to the second.
    Double(Cell, Cell),
    /// A pass.
    Pass,
}

/// [`Legs`] as read: cells that are not on the board are `None` (no legal move has them).
#[derive(Clone, Copy, Debug)]
enum ReadLegs {
    Step(Option<Cell>),
    Igui(Option<Cell>),
    Double(Option<Cell>, Option<Cell>),
    Pass,
}

/// Whether a written move gives its start cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    /// Where another piece of the kind could make a move written the same: the written form.
    WhereNeeded,
    /// Always; readers accept it.
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
}

/// How a move text ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ending {
    Plain,
    Promotes,
    Declines,
}

/// A move text taken apart.
#[derive(Clone, Copy, Debug)]
struct Reading {
    kind: Kind,
    from: Option<Option<Cell>>,
    legs: ReadLegs,
    ending: Ending,
}

impl<const W: usize, const K: usize, R: LargeShogi> LargeShogiPosition<W, K, R> {
    fn legs(&self, mv: &LargeMove) -> Legs {
        match mv.via() {
            None => Legs::Step(mv.to),
            Some(v) if mv.to == mv.from => {
                if self.piece_at(v).is_none() {
                    Legs::Pass
                } else {
                    Legs::Igui(v)
                }
            }
            Some(v) => Legs::Double(v, mv.to),
        }
    }

    /// The legal move `mv` in Western (Hodges) notation (see the module's description):
    /// `P-7h`, `DK5j-4j`, `Lnx4ex4d`, `Lnx!4e`, `Ln-pass`, `R-5d+`, `R-5d=`.
    pub fn to_western(&self, mv: LargeMove) -> String {
        let mut legal = Vec::new();
        chaturanga_rules::Position::legal_moves(self, &mut legal);
        self.western_among(mv, &legal, Origin::WhereNeeded)
    }

    /// [`Self::to_western`] with the legal moves listed, giving the start cell as `origin`
    /// says.
    fn western_among(&self, mv: LargeMove, legal: &[LargeMove], origin: Origin) -> String {
        let g = &self.spec().geometry;
        let kind = self.piece_at(mv.from).kind();
        let legs = self.legs(&mv);
        let mut text = self.data.western.written[kind as usize].to_string();
        let rival = || {
            legal.iter().any(|m| {
                m.from != mv.from && self.piece_at(m.from).kind() == kind && self.legs(m) == legs
            })
        };
        if origin == Origin::Always || rival() {
            text.push_str(&western_cell(g, mv.from));
        }
        let sign = |c: Cell| if self.piece_at(c).is_some() { 'x' } else { '-' };
        match legs {
            Legs::Step(to) => {
                text.push(sign(to));
                text.push_str(&western_cell(g, to));
            }
            Legs::Igui(v) => {
                text.push_str("x!");
                text.push_str(&western_cell(g, v));
            }
            Legs::Double(v, to) => {
                text.push(sign(v));
                text.push_str(&western_cell(g, v));
                text.push(sign(to));
                text.push_str(&western_cell(g, to));
            }
            Legs::Pass => text.push_str("-pass"),
        }
        if mv.promote {
            text.push('+');
        } else if legal.contains(&LargeMove {
            promote: true,
            ..mv
        }) {
            text.push('=');
        }
        text
    }

    /// Takes an upper-case text apart; `None` where it is not shaped like a move here.
    fn western_reading(&self, text: &str) -> Option<Reading> {
        let g = &self.spec().geometry;
        let cell = |s| read_western_cell(g, s);
        let (reading, kind) = self
            .data
            .western
            .readings
            .iter()
            .find(|(r, _)| text.starts_with(r.as_str()))?;
        let rest = &text[reading.len()..];
        let (from, rest) = match cell(rest) {
            Some((c, rest)) => (Some(c), rest),
            None => (None, rest),
        };
        let rest = rest.strip_prefix(['-', 'X'])?;
        let (legs, rest) = if let Some(rest) = rest.strip_prefix("PASS") {
            (ReadLegs::Pass, rest)
        } else if let Some(rest) = rest.strip_prefix('!') {
            let (v, rest) = cell(rest)?;
            (ReadLegs::Igui(v), rest)
        } else {
            let (a, rest) = cell(rest)?;
            match rest.strip_prefix(['-', 'X']) {
                Some(rest) => {
                    let (b, rest) = cell(rest)?;
                    (ReadLegs::Double(a, b), rest)
                }
                None => (ReadLegs::Step(a), rest),
            }
        };
        let ending = match rest {
            "" => Ending::Plain,
            "+" => Ending::Promotes,
            "=" => Ending::Declines,
            _ => return None,
        };
        Some(Reading {
            kind: *kind,
            from,
            legs,
            ending,
        })
    }

    /// Whether the legal move `mv` fits what was read.
    fn fits(&self, mv: &LargeMove, reading: &Reading, legal: &[LargeMove]) -> bool {
        let placed = |read: Option<Cell>, cell: Cell| read == Some(cell);
        self.piece_at(mv.from).kind() == reading.kind
            && reading.from.is_none_or(|c| placed(c, mv.from))
            && mv.promote == (reading.ending == Ending::Promotes)
            && (reading.ending != Ending::Declines
                || legal.contains(&LargeMove {
                    promote: true,
                    ..*mv
                }))
            && match (reading.legs, self.legs(mv)) {
                (ReadLegs::Step(t), Legs::Step(to)) => placed(t, to),
                (ReadLegs::Igui(v), Legs::Igui(via)) => placed(v, via),
                (ReadLegs::Double(v, t), Legs::Double(via, to)) => placed(v, via) && placed(t, to),
                // Igui as a capture and a step back to the start.
                (ReadLegs::Double(v, t), Legs::Igui(via)) => placed(v, via) && placed(t, mv.from),
                (ReadLegs::Pass, Legs::Pass) => true,
                _ => false,
            }
    }

    /// Reads a move in Western notation ([`Self::to_western`]), with the liberties the
    /// module's description lists. Without the start cell where two pieces fit, the move is
    /// ambiguous.
    pub fn parse_western(&self, text: &str) -> Result<LargeMove, MoveError> {
        if text.len() > MAX_INPUT || !text.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let text: String = text.split_whitespace().collect();
        if text.is_empty() || text.len() > MAX_TEXT {
            return Err(MoveError::Malformed(excerpt(&text)));
        }
        let reading = self
            .western_reading(&text.to_ascii_uppercase())
            .ok_or_else(|| MoveError::Malformed(excerpt(&text)))?;
        let mut legal = Vec::new();
        chaturanga_rules::Position::legal_moves(self, &mut legal);
        let mut fits = legal
            .iter()
            .copied()
            .filter(|m| self.fits(m, &reading, &legal));
        match (fits.next(), fits.next()) {
            (Some(mv), None) => Ok(mv),
            (Some(_), Some(_)) => Err(MoveError::Ambiguous(excerpt(&text))),
            (None, _) => Err(MoveError::Illegal(excerpt(&text))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chushogi::ChuShogiPosition;
    use crate::daishogi::DaiShogiPosition;
    use crate::shogi_family::WESTERN;
    use chaturanga_rules::{Position, RuleOptions, Ruleset};
    use std::collections::BTreeSet;

    fn at<P: Ruleset>(fen: &str) -> P {
        let o = RuleOptions::parse::<&str>(P::option_specs(), &[]).unwrap();
        P::from_fen_with(&o, fen).unwrap()
    }

    fn start<P: Ruleset>() -> P {
        let o = RuleOptions::parse::<&str>(P::option_specs(), &[]).unwrap();
        P::start_position(&o).unwrap()
    }

    fn chu(fen: &str) -> ChuShogiPosition {
        at(fen)
    }

    /// The Western text of the move given in coordinates.
    fn western<const W: usize, const K: usize, R: LargeShogi>(
        p: &LargeShogiPosition<W, K, R>,
        coordinates: &str,
    ) -> String {
        p.to_western(p.parse_move(coordinates).unwrap())
    }

    /// The coordinate text of the move read from Western notation.
    fn read<const W: usize, const K: usize, R: LargeShogi>(
        p: &LargeShogiPosition<W, K, R>,
        text: &str,
    ) -> String {
        p.move_text(
            p.parse_western(text)
                .unwrap_or_else(|e| panic!("{text}: {e:?}")),
        )
    }

    /// Every abbreviation table covers its pieces once, with spellings unique in any case,
    /// and no spelling followed by what may come after an abbreviation (a digit, `-`, `x`)
    /// spells another: the longest match is the only reading.
    #[test]
    fn abbreviations_are_unique_and_never_prefix_a_reading() {
        fn check<const W: usize, const K: usize, R: LargeShogi>(p: &LargeShogiPosition<W, K, R>) {
            let pieces = &p.spec().pieces;
            assert_eq!(R::WESTERN.len(), pieces.len(), "{}", R::ID);
            let readings = &p.data.western.readings;
            for (a, _) in readings {
                for (b, _) in readings {
                    if let Some(rest) = b.strip_prefix(a.as_str())
                        && !rest.is_empty()
                    {
                        assert!(
                            !rest.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == 'X'),
                            "{}: {a} then {rest}",
                            R::ID
                        );
                    }
                }
            }
            // A promoted piece is `+` and its unpromoted piece's abbreviation, except the
            // crown prince (CP, also read +DE).
            for (k, piece) in pieces.iter().enumerate() {
                for rule in &piece.promotions {
                    let promoted = pieces
                        .iter()
                        .position(|q| q.symbol == rule.choices[0])
                        .unwrap();
                    let written = p.data.western.written[promoted];
                    let expected = format!("+{}", p.data.western.written[k]);
                    let also = R::WESTERN
                        .iter()
                        .find(|(s, ..)| *s == rule.choices[0])
                        .unwrap()
                        .2;
                    assert!(
                        written == expected || also.contains(&expected.as_str()),
                        "{}: {} written {written}",
                        R::ID,
                        piece.symbol
                    );
                }
            }
        }
        check(&start::<ChuShogiPosition>());
        check(&start::<DaiShogiPosition>());
    }

    #[test]
    fn chu_opening_moves() {
        let p = start::<ChuShogiPosition>();
        assert_eq!(western(&p, "7i7h"), "P-7h");
        assert_eq!(western(&p, "9h9g"), "GB-9g");
        assert_eq!(western(&p, "7j7h"), "Ln-7h");
        assert_eq!(western(&p, "7k9k"), "Kr-9k");
        assert_eq!(read(&p, "p-7h"), "7i7h");
        assert_eq!(read(&p, "P7i-7h"), "7i7h");
        assert_eq!(read(&p, " P - 7h "), "7i7h");
        assert_eq!(read(&p, "Px7h"), "7i7h");
        assert_eq!(read(&p, "Ky-9k"), "7k9k");
        assert_eq!(read(&p, "KY-9K"), "7k9k");
        assert!(matches!(
            p.parse_western("P-7g"),
            Err(MoveError::Illegal(_))
        ));
        // A cell the board does not have: shaped like a move, and illegal.
        assert!(matches!(
            p.parse_western("P-13h"),
            Err(MoveError::Illegal(_))
        ));
        for text in [
            "7i7h",
            "Q-5e",
            "P-7",
            "P-7h++",
            "P--7h",
            "P-7hx",
            "Ln-pas",
            "",
            "P-7h\u{e9}",
            &"P".repeat(100),
        ] {
            assert!(
                matches!(p.parse_western(text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
        assert_eq!(p.notations(), [WESTERN]);
        let m = p.parse_move("7i7h").unwrap();
        assert_eq!(p.write_move(WESTERN, m).as_deref(), Some("P-7h"));
        assert_eq!(p.read_move(WESTERN, "P-7h"), Ok(m));
        assert_eq!(p.write_move("kif", m), None);
        assert!(matches!(
            p.read_move("kif", "P-7h"),
            Err(MoveError::Malformed(_))
        ));
    }

    #[test]
    fn chu_lion_moves() {
        // The rules file's scenario: a black lion on 6f, white pawns on 6e and 6d.
        let p = chu("g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1");
        assert_eq!(western(&p, "6f6e"), "Lnx6e");
        assert_eq!(western(&p, "6f6d"), "Lnx6d");
        assert_eq!(western(&p, "6f6e6d"), "Lnx6ex6d");
        assert_eq!(western(&p, "6f6e5d"), "Lnx6e-5d");
        assert_eq!(western(&p, "6f6e6f"), "Lnx!6e");
        assert_eq!(western(&p, "6f5e"), "Ln-5e");
        let pass = p.to_western(p.parse_move("6f5f6f").unwrap());
        assert_eq!(pass, "Ln-pass");
        assert_eq!(read(&p, "Lnx6ex6d"), "6f6e6d");
        assert_eq!(read(&p, "lnx6e-6d"), "6f6e6d");
        assert_eq!(read(&p, "Ln6fx!6e"), "6f6e6f");
        assert_eq!(read(&p, "Lnx6e-6f"), "6f6e6f");
        assert!(read(&p, "LN-PASS").starts_with("6f"));
        assert!(read(&p, "Ln6f-pass").ends_with("6f"));
        assert!(matches!(
            p.parse_western("Lnx!5e"),
            Err(MoveError::Illegal(_))
        ));
        // Two dragon kings reach 4j; the lion-powered soaring eagle and horned falcon.
        let d = chu("6k5/12/12/12/6p5/5+D6/4+H7/12/12/7D1D2/12/6K5 b - 1");
        assert_eq!(western(&d, "5j4j"), "DK5j-4j");
        assert_eq!(western(&d, "3j4j"), "DK3j-4j");
        assert_eq!(western(&d, "5j5i"), "DK-5i");
        assert_eq!(read(&d, "DK3j-4j"), "3j4j");
        assert!(matches!(
            d.parse_western("DK-4j"),
            Err(MoveError::Ambiguous(_))
        ));
        // The eagle on 7f takes the pawn on 6e igui; the falcon on 8g passes.
        assert_eq!(western(&d, "7f6e7f"), "+DKx!6e");
        assert_eq!(western(&d, "7f6e"), "+DKx6e");
        assert_eq!(western(&d, "7f6e5d"), "+DKx6e-5d");
        assert_eq!(western(&d, "8g8f8g"), "+DH-pass");
        assert_eq!(read(&d, "+dk7fx!6e"), "7f6e7f");
        // Two horned falcons may pass: the start cell tells which.
        let f = chu("6k5/12/12/12/12/12/12/12/12/3+H4+H3/12/6K5 b - 1");
        assert_eq!(f.to_western(f.parse_move("9j9i9j").unwrap()), "+DH9j-pass");
        assert_eq!(f.to_western(f.parse_move("4j4i4j").unwrap()), "+DH4j-pass");
        assert_eq!(read(&f, "+DH4j-pass"), "4j4i4j");
        assert!(matches!(
            f.parse_western("+DH-pass"),
            Err(MoveError::Ambiguous(_))
        ));
    }

    #[test]
    fn chu_promotions() {
        // A black rook enters the zone: promotion is optional.
        let p = chu("6k5/12/12/12/12/12/12/12/12/8R3/12/6K5 b - 1");
        assert_eq!(western(&p, "4j4d+"), "R-4d+");
        assert_eq!(western(&p, "4j4d"), "R-4d=");
        assert_eq!(western(&p, "4j4e"), "R-4e");
        assert_eq!(read(&p, "R-4d"), "4j4d");
        assert_eq!(read(&p, "R-4d="), "4j4d");
        assert_eq!(read(&p, "R-4d+"), "4j4d+");
        // No promotion to decline outside the zone.
        assert!(matches!(
            p.parse_western("R-4e="),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.parse_western("R-4e+"),
            Err(MoveError::Illegal(_))
        ));
        // A promoted piece and the crown prince.
        let q = chu("6k5/12/12/12/12/12/12/12/12/8+R3/3+E8/6K5 b - 1");
        assert_eq!(western(&q, "4j4a"), "+R-4a");
        assert_eq!(western(&q, "9k9j"), "CP-9j");
        assert_eq!(read(&q, "+de-9j"), "9k9j");
        assert_eq!(read(&q, "cp-9j"), "9k9j");
    }

    #[test]
    fn dai_moves() {
        let p = start::<DaiShogiPosition>();
        assert_eq!(western(&p, "7k7j"), "P-7j");
        assert_eq!(western(&p, "11j11i"), "GB-11i");
        assert_eq!(read(&p, "p-7j"), "7k7j");
        // The angry boar and the evil wolf both reach 11m: different kinds need no start
        // cell.
        assert_eq!(western(&p, "12m11m"), "AB-11m");
        assert_eq!(western(&p, "10m11m"), "EW-11m");
        assert_eq!(western(&p, "14m15m"), "VO-15m");
        assert_eq!(western(&p, "13o12n"), "St-12n");
        assert_eq!(western(&p, "12o12n"), "I-12n");
        assert_eq!(read(&p, "st-12n"), "13o12n");
        assert_eq!(p.notations(), [WESTERN]);
    }

    /// Every legal move of `p` and of the positions a seeded random walk of `plies` reaches
    /// from it has a Western text of its own, which reads back to the move (also in lower
    /// case and with its start cell); returns the number of moves checked.
    fn round_trip<const W: usize, const K: usize, R: LargeShogi>(
        mut p: LargeShogiPosition<W, K, R>,
        plies: usize,
        every: usize,
        mut seed: u64,
    ) -> usize {
        let mut checked = 0;
        for ply in 0..plies {
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            if ply % every == 0 {
                let mut seen = BTreeSet::new();
                for &m in &legal {
                    let text = p.western_among(m, &legal, Origin::WhereNeeded);
                    let here = format!("{} {}: {text}", p.fen(), p.move_text(m));
                    assert!(seen.insert(text.clone()), "{here} is written twice");
                    assert_eq!(p.parse_western(&text), Ok(m), "{here}");
                    assert_eq!(p.write_move(WESTERN, m).as_deref(), Some(&*text), "{here}");
                    assert_eq!(p.read_move(WESTERN, &text.to_lowercase()), Ok(m), "{here}");
                    let full = p.western_among(m, &legal, Origin::Always);
                    assert_eq!(p.parse_western(&full), Ok(m), "{here} as {full}");
                    checked += 1;
                }
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p.play_unchecked(legal[(seed % legal.len() as u64) as usize]);
        }
        checked
    }

    #[test]
    fn every_chu_move_reads_back() {
        let checked = round_trip(start::<ChuShogiPosition>(), 160, 3, 0x9e37_79b9)
            + round_trip(start::<ChuShogiPosition>(), 160, 3, 0x2545_f491)
            + round_trip(
                chu("g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1"),
                8,
                1,
                7,
            )
            + round_trip(
                chu("6k5/12/12/12/6p5/5+D6/4+H7/12/12/7D1D2/12/6K5 b - 1"),
                8,
                1,
                11,
            );
        assert!(checked > 3_000, "only {checked} moves checked");
    }

    #[test]
    fn every_dai_move_reads_back() {
        let checked = round_trip(start::<DaiShogiPosition>(), 160, 3, 0x9e37_79b9)
            + round_trip(start::<DaiShogiPosition>(), 160, 3, 0x2545_f491);
        assert!(checked > 3_000, "only {checked} moves checked");
    }

    /// Western cells are the coordinate labels on both boards.
    #[test]
    fn western_cells_are_the_labels() {
        fn check<const W: usize, const K: usize, R: LargeShogi>(p: &LargeShogiPosition<W, K, R>) {
            let g = &p.spec().geometry;
            for cell in g.cells() {
                assert_eq!(western_cell(g, cell), g.label(cell));
            }
        }
        check(&start::<ChuShogiPosition>());
        check(&start::<DaiShogiPosition>());
    }
}
