//! XBoard's cell coordinates for square boards.
//!
//! XBoard names files `a`, `b`, … from the first player's left and ranks from the first
//! player's side: `1`, `2`, … , except that boards of exactly ten ranks count from `0` so
//! every rank stays one digit (`a0`–`i9` in xiangqi). Our labels differ for shogi (`7g`,
//! files from the right, ranks lettered from the top) and on ten-rank boards (`a10`).
//! Drops are written `P@e4` there; shogi's `P*5e` becomes `P@…`.

use chaturanga_geometry::{Geometry, Lattice};

/// Lowest lattice coordinates and the rank count of a square board.
fn frame(geometry: &Geometry) -> Option<(i32, i32, i32)> {
    if geometry.lattice() != Lattice::Square {
        return None;
    }
    let min_x = geometry.cells().map(|c| geometry.coords(c).0).min()?;
    let min_y = geometry.cells().map(|c| geometry.coords(c).1).min()?;
    let (_, height) = geometry.bounding_box();
    Some((min_x, min_y, height))
}

/// Cuts a move text into cell labels and the text between them.
fn split_labels<'t>(geometry: &Geometry, text: &'t str) -> Vec<Result<(i32, i32), &'t str>> {
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
    split_labels(geometry, text)
        .into_iter()
        .map(|piece| match piece {
            Ok((x, y)) => format!(
                "{}{}",
                char::from(b'a' + (x - min_x) as u8),
                y - min_y + first_rank
            ),
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
            // One digit is a whole rank on boards of up to ten ranks; two are read only where
            // the board has that many (`a12` on chu shogi's board, but `a1` then `0` nowhere).
            let take = if height > 10 { digits.min(2) } else { 1 };
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
