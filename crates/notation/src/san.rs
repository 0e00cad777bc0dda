//! Standard algebraic notation: `Nf3`, `exd5`, `e8=Q`, `O-O`, `Rad1+`, `Qh4#`.

use chaturanga_rules::position::excerpt;
use chaturanga_rules::{MoveDescription, MoveError, Position};

/// Splits a cell label into its letters (file) and the rest (rank): `a10` -> (`a`, `10`).
fn split_label(label: &str) -> (&str, &str) {
    let i = label
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(label.len());
    label.split_at(i)
}

fn describe<P: Position>(position: &P, mv: P::Move) -> Result<MoveDescription, MoveError> {
    position
        .describe(mv)
        .ok_or_else(|| MoveError::Malformed("this ruleset has no SAN".to_string()))
}

/// SAN of a legal move without the check mark.
fn san_body<P: Position>(
    position: &P,
    mv: P::Move,
    legal: &[P::Move],
) -> Result<String, MoveError> {
    let d = describe(position, mv)?;
    if d.from.is_none() {
        // A drop: `N@f3`, `P@e4` (the crazyhouse and bughouse form).
        return Ok(format!("{}@{}", d.piece, d.to));
    }
    if let Some(short) = d.castling {
        return Ok(if short { "O-O" } else { "O-O-O" }.to_string());
    }
    let mut out = String::new();
    let from = d.from.clone().unwrap_or_default();
    let (from_file, from_rank) = split_label(&from);
    if d.pawn {
        if d.capture {
            out.push_str(from_file);
        }
    } else {
        out.push_str(&d.piece);
        // Disambiguate among other pieces of the same kind that can go to the same cell.
        let rivals: Vec<MoveDescription> = legal
            .iter()
            .filter(|&&m| m != mv)
            .filter_map(|&m| position.describe(m))
            .filter(|o| {
                !o.pawn
                    && o.from.is_some()
                    && o.castling.is_none()
                    && o.piece == d.piece
                    && o.to == d.to
                    && o.from != d.from
            })
            .collect();
        if !rivals.is_empty() {
            let rival_from: Vec<String> = rivals.iter().filter_map(|o| o.from.clone()).collect();
            let same_file = rival_from.iter().any(|f| split_label(f).0 == from_file);
            let same_rank = rival_from.iter().any(|f| split_label(f).1 == from_rank);
            if !same_file {
                out.push_str(from_file);
            } else if !same_rank {
                out.push_str(from_rank);
            } else {
                out.push_str(&from);
            }
        }
    }
    if d.capture {
        out.push('x');
    }
    out.push_str(&d.to);
    if let Some(p) = &d.promotion {
        out.push('=');
        out.push_str(p);
    }
    Ok(out)
}

/// SAN of a legal move, with `+` for check and `#` for checkmate.
pub fn to_san<P: Position>(position: &P, mv: P::Move) -> Result<String, MoveError> {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    if !legal.contains(&mv) {
        return Err(MoveError::Illegal(position.move_text(mv)));
    }
    let mut out = san_body(position, mv, &legal)?;
    let mut next = position.clone();
    next.play_unchecked(mv);
    if next.is_check() {
        let mut replies = Vec::new();
        next.legal_moves(&mut replies);
        out.push(if replies.is_empty() { '#' } else { '+' });
    }
    Ok(out)
}

/// The parts of a SAN text.
#[derive(Debug, Default, PartialEq, Eq)]
struct SanParts {
    piece: Option<String>,
    from_file: Option<String>,
    from_rank: Option<String>,
    to: String,
    promotion: Option<String>,
    castling: Option<bool>,
}

/// Reads the parts of a SAN text; `is_cell` tells which strings are cell labels, to find where
/// the destination starts (`Rhd8` is a rook from the h-file to d8, not to a cell `hd8`).
fn parse_parts(text: &str, is_cell: impl Fn(&str) -> bool) -> Option<SanParts> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" => {
            return Some(SanParts {
                castling: Some(true),
                ..Default::default()
            });
        }
        "O-O-O" | "0-0-0" => {
            return Some(SanParts {
                castling: Some(false),
                ..Default::default()
            });
        }
        _ => {}
    }
    let mut rest = t;
    let mut parts = SanParts::default();
    // Promotion at the end: "=Q" or a trailing capital letter.
    if let Some((body, promo)) = rest.rsplit_once('=') {
        if promo.is_empty() || !promo.chars().all(|c| c.is_ascii_alphabetic() || c == '+') {
            return None;
        }
        parts.promotion = Some(promo.to_ascii_uppercase());
        rest = body;
    } else if rest.len() > 2 && rest.ends_with(|c: char| c.is_ascii_uppercase()) {
        let (body, promo) = rest.split_at(rest.len() - 1);
        parts.promotion = Some(promo.to_string());
        rest = body;
    }
    if rest.starts_with(|c: char| c.is_ascii_uppercase()) {
        parts.piece = Some(rest[..1].to_string());
        rest = &rest[1..];
    }
    // Destination: the trailing letters+digits label.
    let digits_start = rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits_start == rest.len() {
        return None;
    }
    let letters_from = rest[..digits_start]
        .trim_end_matches(|c: char| c.is_ascii_lowercase())
        .len();
    let letters_start = (letters_from..digits_start)
        .rev()
        .find(|&i| is_cell(&rest[i..]))
        .unwrap_or(letters_from);
    if letters_start == digits_start {
        return None;
    }
    parts.to = rest[letters_start..].to_string();
    let mut head = &rest[..letters_start];
    head = head.strip_suffix('x').unwrap_or(head);
    head = head.strip_suffix('-').unwrap_or(head);
    if !head.is_empty() {
        let (file, rank) = split_label(head);
        if !file.chars().all(|c| c.is_ascii_lowercase())
            || !rank.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        if !file.is_empty() {
            parts.from_file = Some(file.to_string());
        }
        if !rank.is_empty() {
            parts.from_rank = Some(rank.to_string());
        }
    }
    Some(parts)
}

/// Reads SAN (lenient about `x`, `=`, check marks and over-disambiguation) into a legal move.
/// Where the text does not parse as chess SAN, it is matched against the SAN [`to_san`] writes
/// for each legal move, so that every record this module writes reads back (shogi's `P7f`,
/// whose cells are a number and a letter).
pub fn parse_san<P: Position>(position: &P, text: &str) -> Result<P::Move, MoveError> {
    parse_by_parts(position, text).or_else(|error| written_as(position, text).ok_or(error))
}

/// The legal move whose SAN, as written here, is `text` (with or without its check mark).
fn written_as<P: Position>(position: &P, text: &str) -> Option<P::Move> {
    if text.is_empty() || text.len() > 32 {
        return None;
    }
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    let mut marked = None;
    for &mv in &legal {
        let Ok(body) = san_body(position, mv, &legal) else {
            return None;
        };
        if body == text {
            return Some(mv);
        }
        if marked.is_none() && text.strip_suffix(['+', '#']) == Some(body.as_str()) {
            marked = Some(mv);
        }
    }
    marked
}

fn parse_by_parts<P: Position>(position: &P, text: &str) -> Result<P::Move, MoveError> {
    if text.is_empty() || text.len() > 32 || !text.is_ascii() {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    if let Some((piece, to)) = text.trim_end_matches(['+', '#', '!', '?']).split_once('@') {
        // A drop names its piece and cell and nothing else.
        let found: Vec<P::Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                position.describe(m).is_some_and(|d| {
                    d.from.is_none() && d.piece.eq_ignore_ascii_case(piece) && d.to == to
                })
            })
            .collect();
        return match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal(excerpt(text))),
            _ => Err(MoveError::Ambiguous(excerpt(text))),
        };
    }
    let destinations: Vec<String> = legal
        .iter()
        .filter_map(|&m| position.describe(m).map(|d| d.to))
        .collect();
    let parts = parse_parts(text, |s| destinations.iter().any(|d| d == s))
        .ok_or_else(|| MoveError::Malformed(excerpt(text)))?;
    let mut found = Vec::new();
    for &mv in &legal {
        let Some(d) = position.describe(mv) else {
            return Err(MoveError::Malformed("this ruleset has no SAN".to_string()));
        };
        let fits = if let Some(short) = parts.castling {
            d.castling == Some(short)
        } else {
            let from = d.from.clone().unwrap_or_default();
            let (file, rank) = split_label(&from);
            d.castling.is_none()
                && d.from.is_some()
                && d.to == parts.to
                && match &parts.piece {
                    None => d.pawn,
                    Some(p) => !d.pawn && &d.piece == p,
                }
                && parts.from_file.as_deref().is_none_or(|f| f == file)
                && parts.from_rank.as_deref().is_none_or(|r| r == rank)
                && parts.promotion == d.promotion
        };
        if fits {
            found.push(mv);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(MoveError::Illegal(excerpt(text))),
        _ => Err(MoveError::Ambiguous(excerpt(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_rules::{RuleOptions, Ruleset};
    use chaturanga_variants::chess::ChessPosition;

    fn pos(fen: &str) -> ChessPosition {
        let o = RuleOptions::parse::<&str>(ChessPosition::option_specs(), &[]).unwrap();
        ChessPosition::from_fen_with(&o, fen).unwrap()
    }

    fn san(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        let mv = p.parse_move(uci).unwrap();
        to_san(&p, mv).unwrap()
    }

    #[test]
    fn writes_san() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        // Disambiguation by file, by rank, and by both.
        assert_eq!(san("R6R/4k3/8/8/8/8/8/4K3 w - - 0 1", "a8d8"), "Rad8");
        assert_eq!(san("R7/7k/8/8/8/8/8/R3K3 w - - 0 1", "a1a4"), "R1a4");
        assert_eq!(san("7k/8/Q7/8/Q1Q5/8/8/4K3 w - - 0 1", "a4b5"), "Qa4b5");
        assert_eq!(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
        assert_eq!(san("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q"), "a8=Q");
        assert_eq!(san("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O");
        assert_eq!(san("r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8"), "O-O-O+");
        // Scenario 8's mate.
        assert_eq!(
            san(
                "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
                "d8h4"
            ),
            "Qh4#"
        );
    }

    #[test]
    fn reads_san() {
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(p.move_text(parse_san(&p, "Nf3").unwrap()), "g1f3");
        assert_eq!(p.move_text(parse_san(&p, "e4").unwrap()), "e2e4");
        assert_eq!(p.move_text(parse_san(&p, "Ng1f3").unwrap()), "g1f3");
        assert!(matches!(parse_san(&p, "Nf4"), Err(MoveError::Illegal(_))));
        assert!(matches!(
            parse_san(&p, "Zz9"),
            Err(MoveError::Malformed(_)) | Err(MoveError::Illegal(_))
        ));
        assert!(matches!(parse_san(&p, "!!"), Err(MoveError::Malformed(_))));
        let r = pos("R6R/4k3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(matches!(parse_san(&r, "Rd8"), Err(MoveError::Ambiguous(_))));
        assert_eq!(r.move_text(parse_san(&r, "Rhd8").unwrap()), "h8d8");
        let q = pos("8/P6k/8/8/8/8/8/K7 w - - 0 1");
        assert_eq!(q.move_text(parse_san(&q, "a8=N").unwrap()), "a7a8n");
        assert_eq!(q.move_text(parse_san(&q, "a8Q").unwrap()), "a7a8q");
        let c = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(c.move_text(parse_san(&c, "0-0").unwrap()), "e1g1");
        assert_eq!(c.move_text(parse_san(&c, "O-O+").unwrap()), "e1g1");
    }

    #[test]
    fn drops_are_written_with_at_and_never_disambiguate_moves() {
        use chaturanga_variants::bughouse::{BughousePosition, Timing};
        let linked = BughousePosition::from_fen(
            "A:4k3/8/8/8/8/8/8/4K1N1[NP] w - - 0 1 | B:4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
            Timing::RealTime,
        )
        .unwrap();
        let board = &linked.boards()[0];
        let write = |text: &str| to_san(board, board.parse_move(text).unwrap()).unwrap();
        assert_eq!(write("g1f3"), "Nf3");
        assert_eq!(write("N@f3"), "N@f3");
        assert_eq!(write("P@e4"), "P@e4");
        assert_eq!(write("N@d6"), "N@d6+");
        let read = |text: &str| board.move_text(parse_san(board, text).unwrap());
        assert_eq!(read("Nf3"), "g1f3");
        assert_eq!(read("N@f3"), "N@f3");
        assert_eq!(read("P@e4"), "P@e4");
        assert!(
            matches!(parse_san(board, "e4"), Err(MoveError::Illegal(_))),
            "a pawn drop is not a pawn move"
        );
        assert!(matches!(
            parse_san(board, "Q@e4"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_san(board, "P@e8"),
            Err(MoveError::Illegal(_))
        ));
    }
}
