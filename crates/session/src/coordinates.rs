//! XBoard's cell coordinates for square boards.
//!
//! XBoard names files `a`, `b`, … from the first player's left and ranks from the first
//! player's side: `1`, `2`, … , except that boards of exactly ten ranks count from `0` so
//! every rank stays one digit (`a0`–`i9` in xiangqi). Our labels differ for shogi (`7g`,
//! files from the right, ranks lettered from the top) and on ten-rank boards (`a10`).
//! Drops are written `P@e4` there; shogi's `P*5e` becomes `P@…`. A move through a cell
//! (chu shogi's lion) is two legs in XBoard, `e5f6,f6e7`, and one text of three cells here.

use chaturanga_geometry::{Geometry, Lattice};

/// Lowest lattice coordinates and the rank count of a square board.
pub(crate) fn frame(geometry: &Geometry) -> Option<(i32, i32, i32)> {
    if geometry.lattice() != Lattice::Square {
        return None;
    }
    let min_x = geometry.cells().map(|c| geometry.coords(c).0).min()?;
    let min_y = geometry.cells().map(|c| geometry.coords(c).1).min()?;
    let (_, height) = geometry.bounding_box();
    Some((min_x, min_y, height))
}

/// Cuts a move text into cell labels and the text between them.
pub(crate) fn split_labels<'t>(
    geometry: &Geometry,
    text: &'t str,
) -> Vec<Result<(i32, i32), &'t str>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    let mut plain_start = 0;
    let mut offset = 0;
    while !rest.is_empty() {
        let longest = geometry
            .label_prefixes(rest)
            .into_iter()
            .min_by_key(|(_, after)| after.len());
        match longest {
            Some((cell, after)) => {
                if plain_start < offset {
                    pieces.push(Err(&text[plain_start..offset]));
                }
                pieces.push(Ok(geometry.coords(cell)));
                offset += rest.len() - after.len();
                plain_start = offset;
                rest = after;
            }
            None => {
                let step = rest.chars().next().map_or(1, char::len_utf8);
                offset += step;
                rest = &rest[step..];
            }
        }
    }
    if plain_start < text.len() {
        pieces.push(Err(&text[plain_start..]));
    }
    pieces
}

/// A move in our coordinate notation written in XBoard's coordinates; unchanged where the
/// board is not a square board.
pub fn to_xboard(geometry: Option<&Geometry>, text: &str) -> String {
    let Some((geometry, (min_x, min_y, height))) = geometry.and_then(|g| frame(g).map(|f| (g, f)))
    else {
        return text.to_string();
    };
    let first_rank = if height == 10 { 0 } else { 1 };
    let name = |(x, y): (i32, i32)| {
        format!(
            "{}{}",
            char::from(b'a' + (x - min_x) as u8),
            y - min_y + first_rank
        )
    };
    let pieces = split_labels(geometry, text);
    let cells: Vec<(i32, i32)> = pieces.iter().filter_map(|p| p.ok()).collect();
    if let [a, b, c] = cells[..]
        && pieces.len() <= 4
        && pieces[..3].iter().all(Result::is_ok)
    {
        let tail = match pieces.get(3) {
            Some(Err(suffix)) => *suffix,
            _ => "",
        };
        return format!("{}{},{}{}{tail}", name(a), name(b), name(b), name(c));
    }
    pieces
        .into_iter()
        .map(|piece| match piece {
            Ok(cell) => name(cell),
            Err(plain) => plain.replace('*', "@"),
        })
        .collect()
}

/// A move in XBoard's coordinates written in our coordinate notation (drops keep XBoard's
/// `@`; callers try `*` too); unchanged where the board is not a square board.
pub fn from_xboard(geometry: Option<&Geometry>, text: &str) -> String {
    let Some((geometry, (min_x, min_y, height))) = geometry.and_then(|g| frame(g).map(|f| (g, f)))
    else {
        return text.to_string();
    };
    let first_rank = if height == 10 { 0 } else { 1 };
    // One digit is a whole rank on boards of up to ten ranks; two are read only where the
    // board has that many (`a12` on chu shogi's board, but `a1` then `0` nowhere).
    let rank_digits = |digits: &str| if height > 10 { digits.len().min(2) } else { 1 };
    square_labels(
        geometry,
        (min_x, min_y),
        &join_legs(text),
        first_rank,
        rank_digits,
    )
}

/// `text` with every square-board coordinate in it (a file letter `a`.. from the frame's
/// `min_x`, then rank digits numbered from `first_rank` at `min_y`) written as our cell label;
/// `rank_digits` says how many of the digits after a file letter are its rank. Everything else
/// is kept as it is.
pub(crate) fn square_labels(
    geometry: &Geometry,
    (min_x, min_y): (i32, i32),
    text: &str,
    first_rank: i32,
    rank_digits: impl Fn(&str) -> usize,
) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if c.is_ascii_lowercase() && digits > 0 {
            let take = rank_digits(&text[i + 1..i + 1 + digits]).clamp(1, digits);
            let rank: i32 = text[i + 1..i + 1 + take].parse().unwrap_or(-1);
            let cell = geometry.at(i32::from(c - b'a') + min_x, rank - first_rank + min_y);
            if let Some(cell) = cell {
                out.push_str(geometry.label(cell));
                i += 1 + take;
                continue;
            }
        }
        out.push(char::from(c));
        i += 1;
    }
    out
}

/// XBoard's two legs `e5f6,f6e7` as one move through the middle cell, `e5f6e7`; a
/// trailing comma (HaChu ends some moves with one) is dropped.
fn join_legs(text: &str) -> String {
    let text = text.strip_suffix(',').unwrap_or(text);
    let Some((first, second)) = text.split_once(',') else {
        return text.to_string();
    };
    // The second leg starts where the first ended: keep that cell once.
    let cell_end = |s: &str| {
        let letters = s.chars().take_while(|c| c.is_ascii_lowercase()).count();
        let digits = s[letters..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .count();
        letters + digits
    };
    let first_from = cell_end(first);
    let middle = &first[first_from..];
    match second.strip_prefix(middle) {
        Some(rest) if !middle.is_empty() => format!("{first}{rest}"),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_geometry::GeometryBuilder;

    /// A square board labelled like ours: chess labels, or shogi labels (files from the
    /// right, ranks lettered from the top).
    fn board(files: i32, ranks: i32, shogi: bool) -> Geometry {
        GeometryBuilder::rectangle(files, ranks)
            .labels(move |x, y| {
                if shogi {
                    format!("{}{}", files - x, char::from(b'a' + (ranks - 1 - y) as u8))
                } else {
                    format!("{}{}", char::from(b'a' + x as u8), y + 1)
                }
            })
            .build()
            .expect("a square board")
    }

    #[test]
    fn chess_moves_pass_unchanged() {
        let g = board(8, 8, false);
        for mv in ["e2e4", "e7e8q", "P@e4", "e1g1"] {
            assert_eq!(to_xboard(Some(&g), mv), mv);
            assert_eq!(from_xboard(Some(&g), mv), mv);
        }
    }

    #[test]
    fn ten_ranks_count_from_zero() {
        let g = board(9, 10, false);
        assert_eq!(to_xboard(Some(&g), "a1a10"), "a0a9");
        assert_eq!(to_xboard(Some(&g), "h3e3"), "h2e2");
        assert_eq!(from_xboard(Some(&g), "a0a9"), "a1a10");
        assert_eq!(from_xboard(Some(&g), "h2e2"), "h3e3");
    }

    #[test]
    fn shogi_labels_become_files_and_ranks() {
        let g = board(9, 9, true);
        assert_eq!(to_xboard(Some(&g), "7g7f"), "c3c4");
        assert_eq!(to_xboard(Some(&g), "8h2b+"), "b2h8+");
        assert_eq!(to_xboard(Some(&g), "P*5e"), "P@e5");
        assert_eq!(from_xboard(Some(&g), "c3c4"), "7g7f");
        assert_eq!(from_xboard(Some(&g), "P@e5"), "P@5e");
    }

    #[test]
    fn twelve_ranks_and_lion_legs() {
        let g = board(12, 12, true);
        assert_eq!(to_xboard(Some(&g), "10i10h"), "c4c5");
        assert_eq!(from_xboard(Some(&g), "c4c5"), "10i10h");
        assert_eq!(from_xboard(Some(&g), "l12l11"), "1a1b");
        // A lion's two steps, and HaChu's trailing comma.
        assert_eq!(to_xboard(Some(&g), "5e4f3g"), "h8i7,i7j6");
        assert_eq!(from_xboard(Some(&g), "h8i7,i7j6"), "5e4f3g");
        assert_eq!(from_xboard(Some(&g), "h8i7,i7h8"), "5e4f5e");
        assert_eq!(from_xboard(Some(&g), "c4c5,"), "10i10h");
    }

    #[test]
    fn hostile_text_does_not_panic() {
        let g = board(12, 12, true);
        for text in [
            "",
            ",",
            ",,",
            "a",
            "a99999999999",
            "é1é2",
            "z0z0",
            "a1,",
            ",a1",
        ] {
            let _ = from_xboard(Some(&g), text);
            let _ = to_xboard(Some(&g), text);
        }
        assert_eq!(to_xboard(None, "xyz"), "xyz");
    }
}
