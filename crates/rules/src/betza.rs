//! Betza notation for piece movement.
//!
//! The parser reads Fairy-Stockfish's subset of (X)Betza and resolves every move into explicit
//! lattice vectors relative to the piece's owner (`dy > 0` is forward, `dx > 0` is the owner's
//! right). What a vector means on a concrete board is decided later, when the piece is compiled
//! against a [`Geometry`](chaturanga_geometry::Geometry).
//!
//! Supported: the atoms `W F D N A H C L Z J G` and the shortcuts `K R B Q`; doubled atoms and
//! numeric ranges for riders (`NN`, `W4`; `0` means unlimited); the modifiers `m c` (move only,
//! capture only), `f b l r v s h` (directions, with Fairy-Stockfish's pairing rules), `i`
//! (initial move only), `n` (lame: the path must be empty), `p`/`g` (cannon-like and
//! grasshopper hoppers on riders) and `e` (the capture may be en passant).
//!
//! Direction letters follow Fairy-Stockfish exactly, which differs from H. G. Muller's XBetza
//! in one place: a single letter on an oblique atom selects the narrow pair only, so `fN` is
//! the shogi knight (XBetza would write `ffN`; both spellings give the shogi knight here).

use std::fmt;

/// How far a move goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Range {
    /// One displacement (a leap or step).
    Leap,
    /// Repeated displacements along a line, at most `max` of them (`None`: unlimited).
    Ride {
        /// Largest number of steps.
        max: Option<u16>,
    },
}

/// What a move needs to jump over.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Hop {
    /// An ordinary move.
    None,
    /// Must pass exactly one piece (the screen) and may land anywhere beyond it (`p`).
    Cannon,
    /// Must land on the cell right behind the first piece met (`g`).
    Grasshopper,
}

/// One family of moves of a piece, resolved to explicit directions.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct BetzaMove {
    /// Displacements relative to the owner, one per direction the modifiers selected.
    pub vectors: Vec<(i16, i16)>,
    /// Leap or ride.
    pub range: Range,
    /// May move to an empty cell.
    pub quiet: bool,
    /// May capture an enemy piece.
    pub capture: bool,
    /// Only from the piece's initial cells (`i`).
    pub initial: bool,
    /// Lame: every cell on the way must be empty (`n`).
    pub lame: bool,
    /// Hopper kind.
    pub hop: Hop,
    /// The capture may be made en passant (`e`).
    pub en_passant: bool,
    /// A diagonal step that goes round its corner through the orthogonal neighbour ahead
    /// (rank step first), i.e. to the diagonal neighbour beside the cell straight ahead. The
    /// same cell as any diagonal step on lattice boards; where two ways round a corner part
    /// (three-player chess's centre) only this one counts: the pawn's capture there. No
    /// Betza letter; set by the rulesets that need it.
    pub beside_ahead: bool,
}

/// A parsed Betza description: the union of its moves.
#[derive(Clone, PartialEq, Eq, Debug, Hash, Default)]
pub struct Betza {
    /// The moves, in the order written.
    pub moves: Vec<BetzaMove>,
}

/// Why a Betza string could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BetzaError {
    /// A character that is neither an atom nor a supported modifier.
    UnknownCharacter {
        /// The character.
        ch: char,
        /// Byte offset in the string.
        at: usize,
    },
    /// Modifiers at the end with no atom to apply to.
    DanglingModifiers(String),
    /// A modifier combination that this parser does not give a meaning to.
    Unsupported {
        /// What was combined.
        what: String,
        /// Byte offset of the atom.
        at: usize,
    },
    /// A range number too large.
    RangeTooLarge(String),
    /// More than 256 characters.
    TooLong(usize),
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BetzaError::UnknownCharacter { ch, at } => {
                write!(f, "unknown Betza character {ch:?} at offset {at}")
            }
            BetzaError::DanglingModifiers(m) => write!(f, "modifiers {m:?} without an atom"),
            BetzaError::Unsupported { what, at } => {
                write!(f, "unsupported Betza combination {what:?} at offset {at}")
            }
            BetzaError::RangeTooLarge(n) => write!(f, "Betza range {n} is too large"),
            BetzaError::TooLong(n) => write!(f, "Betza string of {n} characters is too long"),
        }
    }
}

impl std::error::Error for BetzaError {}

/// The basic displacement(s) of an atom letter as (long, short) pairs, and whether the letter
/// is a rider by itself (`R B Q`).
fn atom(ch: char) -> Option<(&'static [(i16, i16)], bool)> {
    Some(match ch {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' | 'L' => (&[(3, 1)], false),
        'Z' | 'J' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// The eight images of atom `(a, b)` as `(dx, dy)` with the direction tokens that select each.
///
/// `a` is the component along the owner's forward axis in the first image. A token is two
/// letters (`ff`, `fs`, `rf`, ...); a lone letter `x` is read as `xx`.
fn images(a: i16, b: i16) -> [((i16, i16), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// Parses a Betza string.
pub fn parse(text: &str) -> Result<Betza, BetzaError> {
    if text.len() > 256 {
        return Err(BetzaError::TooLong(text.len()));
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut moves = Vec::new();
    let mut pending = String::new();
    let mut quiet = false;
    let mut capture = false;
    let mut initial = false;
    let mut lame = false;
    let mut hop = Hop::None;
    let mut en_passant = false;
    let mut tokens: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'i' => initial = true,
            'n' => lame = true,
            'e' => en_passant = true,
            'p' => hop = Hop::Cannon,
            'g' => hop = Hop::Grasshopper,
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                let next = chars.get(i + 1).map(|&(_, c2)| c2);
                let pairs = |c2: char| {
                    c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                };
                match next {
                    Some(c2) if pairs(c2) => {
                        tokens.push(format!("{c}{c2}"));
                        i += 1;
                    }
                    _ => tokens.push(format!("{c}{c}")),
                }
            }
            _ => {
                let explicit: [(i16, i16); 1];
                let (atoms, mut rider): (&[(i16, i16)], bool) = if c == '(' {
                    // An explicit leap `(a,b)`.
                    let close = chars[i..]
                        .iter()
                        .position(|&(_, ch)| ch == ')')
                        .map(|p| p + i)
                        .ok_or(BetzaError::UnknownCharacter { ch: c, at })?;
                    let inner: String = chars[i + 1..close].iter().map(|&(_, ch)| ch).collect();
                    let parsed: Option<(i16, i16)> = inner
                        .split_once(',')
                        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
                    let Some((a, b)) = parsed.filter(|&(a, b)| {
                        (0..=32).contains(&a) && (0..=32).contains(&b) && a + b > 0
                    }) else {
                        return Err(BetzaError::Unsupported {
                            what: format!("leap ({inner})"),
                            at,
                        });
                    };
                    explicit = [(a.max(b), a.min(b))];
                    i = close;
                    (&explicit, false)
                } else {
                    atom(c).ok_or(BetzaError::UnknownCharacter { ch: c, at })?
                };
                let mut max: Option<u16> = None;
                // A doubled atom or a number makes a rider (`NN`, `W4`).
                if chars.get(i + 1).map(|&(_, c2)| c2) == Some(c) {
                    rider = true;
                    i += 1;
                } else if chars.get(i + 1).is_some_and(|&(_, c2)| c2.is_ascii_digit()) {
                    let start = i + 1;
                    let mut end = start;
                    while end < chars.len() && chars[end].1.is_ascii_digit() {
                        end += 1;
                    }
                    let digits: String = chars[start..end].iter().map(|&(_, d)| d).collect();
                    let n: u16 = digits
                        .parse()
                        .ok()
                        .filter(|&n| n <= 1000)
                        .ok_or_else(|| BetzaError::RangeTooLarge(digits.clone()))?;
                    rider = true;
                    max = if n == 0 { None } else { Some(n) };
                    i = end - 1;
                }
                if hop != Hop::None && !rider {
                    return Err(BetzaError::Unsupported {
                        what: format!("hopper on leaper {c}"),
                        at,
                    });
                }
                if lame && rider {
                    return Err(BetzaError::Unsupported {
                        what: format!("lame rider {c}"),
                        at,
                    });
                }
                let (q, cap) = if quiet || capture {
                    (quiet, capture)
                } else {
                    (true, true)
                };
                let mut vectors = Vec::new();
                for &(a, b) in atoms {
                    // An orthogonal atom has no move that is, say, forward and sideways at once,
                    // so a mixed token such as `fs` means both directions (the xiangqi soldier
                    // `fsW`).
                    let mut toks: Vec<String> = Vec::new();
                    for t in &tokens {
                        let (t0, t1) = (t.as_bytes()[0] as char, t.as_bytes()[1] as char);
                        if atoms.len() == 1 && b == 0 && t0 != t1 {
                            toks.push(format!("{t0}{t0}"));
                            toks.push(format!("{t1}{t1}"));
                        } else {
                            toks.push(t.clone());
                        }
                    }
                    for (v, selectors) in images(a, b) {
                        let selected = toks.is_empty()
                            || selectors.iter().any(|s| toks.iter().any(|t| t == s));
                        if selected && !vectors.contains(&v) {
                            vectors.push(v);
                        }
                    }
                }
                moves.push(BetzaMove {
                    vectors,
                    range: if rider {
                        Range::Ride { max }
                    } else {
                        Range::Leap
                    },
                    quiet: q,
                    capture: cap,
                    initial,
                    lame,
                    hop,
                    en_passant,
                    beside_ahead: false,
                });
                pending.clear();
                quiet = false;
                capture = false;
                initial = false;
                lame = false;
                hop = Hop::None;
                en_passant = false;
                tokens.clear();
                i += 1;
                continue;
            }
        }
        pending.push(c);
        i += 1;
    }
    if !pending.is_empty() {
        return Err(BetzaError::DanglingModifiers(pending));
    }
    Ok(Betza { moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(s: &str) -> Vec<(i16, i16)> {
        let mut v: Vec<_> = parse(s)
            .unwrap()
            .moves
            .into_iter()
            .flat_map(|m| m.vectors)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn atoms_and_directions() {
        assert_eq!(dirs("W").len(), 4);
        assert_eq!(dirs("N").len(), 8);
        assert_eq!(dirs("K").len(), 8);
        assert_eq!(dirs("fW"), vec![(0, 1)]);
        assert_eq!(dirs("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(dirs("bF"), vec![(-1, -1), (1, -1)]);
        // Shogi knight, written either way.
        assert_eq!(dirs("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(dirs("fN"), vec![(-1, 2), (1, 2)]);
        // Wide forward knight moves.
        assert_eq!(dirs("fsN"), vec![(-2, 1), (2, 1)]);
        // Xiangqi soldier beyond the river: forward and sideways.
        assert_eq!(dirs("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(dirs("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(dirs("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(dirs("lW"), vec![(-1, 0)]);
        assert_eq!(dirs("rbB"), vec![(1, -1)]);
        assert_eq!(dirs("lfF"), vec![(-1, 1)]);
    }

    #[test]
    fn ranges_modalities_and_flags() {
        let p = parse("fmWfceF").unwrap();
        assert_eq!(p.moves.len(), 2);
        assert!(p.moves[0].quiet && !p.moves[0].capture);
        assert!(!p.moves[1].quiet && p.moves[1].capture && p.moves[1].en_passant);
        let d = parse("ifmnD").unwrap().moves.remove(0);
        assert!(d.initial && d.lame && d.quiet && !d.capture);
        assert_eq!(d.vectors, vec![(0, 2)]);
        assert_eq!(
            parse("W4").unwrap().moves[0].range,
            Range::Ride { max: Some(4) }
        );
        assert_eq!(
            parse("NN").unwrap().moves[0].range,
            Range::Ride { max: None }
        );
        assert_eq!(
            parse("R").unwrap().moves[0].range,
            Range::Ride { max: None }
        );
        assert_eq!(
            parse("W0").unwrap().moves[0].range,
            Range::Ride { max: None }
        );
        assert_eq!(
            parse("R12").unwrap().moves[0].range,
            Range::Ride { max: Some(12) }
        );
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.moves[1].hop, Hop::Cannon);
        assert!(cannon.moves[1].capture && !cannon.moves[1].quiet);
        assert_eq!(parse("gQ").unwrap().moves[0].hop, Hop::Grasshopper);
        // Explicit leaps: the (4,1) giraffe and (3,2) = Z.
        assert_eq!(dirs("(4,1)").len(), 8);
        assert_eq!(dirs("(1,4)"), dirs("(4,1)"));
        assert_eq!(dirs("(3,2)"), dirs("Z"));
        assert_eq!(dirs("(2,2)").len(), 4);
        assert_eq!(parse("(4,1)Z").unwrap().moves.len(), 2);
    }

    #[test]
    fn errors_are_typed() {
        assert!(matches!(
            parse("X"),
            Err(BetzaError::UnknownCharacter { ch: 'X', at: 0 })
        ));
        assert!(matches!(parse("Wf"), Err(BetzaError::DanglingModifiers(_))));
        assert!(matches!(parse("pN"), Err(BetzaError::Unsupported { .. })));
        assert!(matches!(parse("nR"), Err(BetzaError::Unsupported { .. })));
        assert!(matches!(parse("W99999"), Err(BetzaError::RangeTooLarge(_))));
        assert!(matches!(
            parse(&"W".repeat(300)),
            Err(BetzaError::TooLong(300))
        ));
        assert!(parse("").unwrap().moves.is_empty());
        assert!(parse("(4,1").is_err());
        assert!(parse("(x,1)").is_err());
        assert!(parse("(0,0)").is_err());
    }
}
