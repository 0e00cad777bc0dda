//! Fairy-Stockfish's UCI dialect for the rulesets we write in shogi notation.
//!
//! Our shogi family writes SFEN (`lnsgkgsnl/… b - 1`) and USI moves (`7g7f`, `P*5e`),
//! USI's own notation. Fairy-Stockfish's UCI writes the same games as it writes chess:
//! cells named by a file letter `a`, `b`, … from the first player's left and a rank number
//! from his side (`c3c4`, `b2h8+`, `P@e5`, `a12` on a twelve-rank board), and FENs with
//! the hands in brackets after the board, `w` for the first player, a castling and an en
//! passant field and the two clocks (`…/LNSGKGSNL[Pp] w - - 0 1`). The move translation
//! goes through the board's [`Geometry`], like [`crate::to_xboard`]; the FEN translation
//! through the fields, since the board field is the same in both.

use crate::coordinates::{frame, split_labels, square_labels};
use chaturanga_geometry::Geometry;

/// A move in our coordinate notation as Fairy-Stockfish's UCI writes it; unchanged where the
/// board is not a square board.
pub fn to_fairy(geometry: Option<&Geometry>, text: &str) -> String {
    let Some((geometry, (min_x, min_y, _))) = geometry.and_then(|g| frame(g).map(|f| (g, f)))
    else {
        return text.to_string();
    };
    split_labels(geometry, text)
        .into_iter()
        .map(|piece| match piece {
            Ok((x, y)) => format!("{}{}", char::from(b'a' + (x - min_x) as u8), y - min_y + 1),
            Err(plain) => plain.replace('*', "@"),
        })
        .collect()
}

/// A move as Fairy-Stockfish's UCI writes it, in our coordinate notation for a ruleset
/// written in shogi notation (drops `P*5e`; a trailing `=`, which Fairy-Stockfish reads as
/// "no promotion", dropped); unchanged where the board is not a square board.
pub fn from_fairy(geometry: Option<&Geometry>, text: &str) -> String {
    let Some((geometry, (min_x, min_y, height))) = geometry.and_then(|g| frame(g).map(|f| (g, f)))
    else {
        return text.to_string();
    };
    let text = text.strip_suffix('=').unwrap_or(text);
    // Two digits are one rank only where the board has that many ranks.
    let rank_digits = |digits: &str| {
        let two = digits
            .get(..2)
            .and_then(|d| d.parse::<i32>().ok())
            .is_some_and(|rank| (1..=height).contains(&rank));
        if two { 2 } else { 1 }
    };
    // Our labels never hold `@`: what is left of it marks a drop, ours `*`.
    square_labels(geometry, (min_x, min_y), text, 1, rank_digits).replace('@', "*")
}

/// The fields of an SFEN: board, first player to move, hand letters (each repeated as
/// often as held, the first player's first), move number.
struct Sfen<'t> {
    board: &'t str,
    first_to_move: bool,
    hand: String,
    move_number: u32,
}

fn read_sfen(sfen: &str) -> Option<Sfen<'_>> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let [board, side, hand, rest @ ..] = &fields[..] else {
        return None;
    };
    let (board, side, hand) = (*board, *side, *hand);
    let first_to_move = match side {
        "b" => true,
        "w" => false,
        _ => return None,
    };
    let move_number = rest.first().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut letters = String::new();
    if hand != "-" {
        let mut count = String::new();
        for c in hand.chars() {
            if c.is_ascii_digit() {
                count.push(c);
                continue;
            }
            let n: usize = count.parse().unwrap_or(1).min(100);
            count.clear();
            letters.extend(std::iter::repeat_n(c, n));
        }
    }
    // The first player's men (upper case) first, each player's in the SFEN's order.
    let (first, second): (String, String) = letters.chars().partition(char::is_ascii_uppercase);
    Some(Sfen {
        board,
        first_to_move,
        hand: first + &second,
        move_number,
    })
}

/// Fairy-Stockfish's full move number for an SFEN move number (which counts plies from 1).
fn fullmove(sfen: &Sfen) -> u32 {
    let ply = sfen.move_number.max(1) - 1;
    1 + (ply - u32::from(!sfen.first_to_move).min(ply)) / 2
}

/// Our SFEN as Fairy-Stockfish's UCI writes the position (`board[hand] w - - 0 1`), with
/// `quiet_plies` as the halfmove clock (SFEN has none). Text that is not an SFEN is
/// returned as it is.
pub fn fen_to_fairy(sfen: &str, quiet_plies: u32) -> String {
    let Some(s) = read_sfen(sfen) else {
        return sfen.to_string();
    };
    format!(
        "{}[{}] {} - - {quiet_plies} {}",
        s.board,
        s.hand,
        if s.first_to_move { 'w' } else { 'b' },
        fullmove(&s)
    )
}

/// A start position as Fairy-Stockfish's variant announcements write it (its variants'
/// definitions: `board[-] w 0 1`).
pub fn start_to_fairy(sfen: &str) -> String {
    let Some(s) = read_sfen(sfen) else {
        return sfen.to_string();
    };
    let hand = if s.hand.is_empty() { "-" } else { &s.hand };
    format!(
        "{}[{hand}] {} 0 {}",
        s.board,
        if s.first_to_move { 'w' } else { 'b' },
        fullmove(&s)
    )
}

/// The halfmove clock of a FEN in Fairy-Stockfish's UCI dialect (0 where it writes none),
/// which our SFEN cannot carry: the protocol keeps it beside the position.
pub fn fairy_halfmove_clock(fen: &str) -> u32 {
    let numbers: Vec<u32> = fen
        .split_whitespace()
        .skip(2)
        .filter_map(|w| w.parse().ok())
        .collect();
    match numbers[..] {
        [.., half, _] => half,
        _ => 0,
    }
}

/// A FEN in Fairy-Stockfish's UCI dialect (`board[hand] w - - 0 1`, or its variants'
/// `board[-] w 0 1`) as our SFEN; the halfmove clock is not kept (SFEN has none: see
/// [`fairy_halfmove_clock`]).
pub fn fen_from_fairy(fen: &str) -> Result<String, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [placement, side, rest @ ..] = &fields[..] else {
        return Err("a FEN needs a board and the side to move".to_string());
    };
    let (placement, side) = (*placement, *side);
    let (board, hand) = match placement.split_once('[') {
        Some((board, hand)) => {
            let hand = hand
                .strip_suffix(']')
                .ok_or_else(|| format!("unclosed hand in {placement:?}"))?;
            (board, hand.trim_matches('-'))
        }
        None => (placement, ""),
    };
    let first_to_move = match side {
        "w" => true,
        "b" => false,
        other => return Err(format!("bad side to move {other:?}")),
    };
    // The clocks are the last two numbers (the castling and en passant fields, `-`, are
    // before them where written).
    let numbers: Vec<u32> = rest.iter().filter_map(|w| w.parse().ok()).collect();
    let fullmove = match numbers[..] {
        [.., _, full] => full.max(1),
        _ => 1,
    };
    if hand.chars().any(|c| !c.is_ascii_alphabetic()) {
        return Err(format!("bad hand {hand:?}"));
    }
    let mut counted = String::new();
    let mut seen: Vec<char> = Vec::new();
    for c in hand
        .chars()
        .filter(char::is_ascii_uppercase)
        .chain(hand.chars().filter(char::is_ascii_lowercase))
    {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    for c in seen {
        let n = hand.chars().filter(|&h| h == c).count();
        if n > 1 {
            counted.push_str(&n.to_string());
        }
        counted.push(c);
    }
    if counted.is_empty() {
        counted.push('-');
    }
    let ply = 2 * (fullmove - 1) + u32::from(!first_to_move);
    Ok(format!(
        "{board} {} {counted} {}",
        if first_to_move { 'b' } else { 'w' },
        ply + 1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_geometry::GeometryBuilder;

    /// A board labelled like our shogi family: files from the right, ranks lettered from the
    /// top.
    fn shogi_board(files: i32, ranks: i32) -> Geometry {
        GeometryBuilder::rectangle(files, ranks)
            .labels(move |x, y| {
                format!("{}{}", files - x, char::from(b'a' + (ranks - 1 - y) as u8))
            })
            .build()
            .expect("a square board")
    }

    #[test]
    fn shogi_moves_as_fairy_stockfish_writes_them() {
        let g = shogi_board(9, 9);
        for (ours, theirs) in [
            ("7g7f", "c3c4"),
            ("3c3d", "g7g6"),
            ("8h2b+", "b2h8+"),
            ("P*5e", "P@e5"),
            ("1a1b", "i9i8"),
        ] {
            assert_eq!(to_fairy(Some(&g), ours), theirs);
            assert_eq!(from_fairy(Some(&g), theirs), ours);
        }
        // A declined promotion written with `=`.
        assert_eq!(from_fairy(Some(&g), "b2h8="), "8h2b");
    }

    #[test]
    fn twelve_ranks_take_two_digits() {
        let g = shogi_board(12, 12);
        assert_eq!(to_fairy(Some(&g), "12a12b"), "a12a11");
        assert_eq!(from_fairy(Some(&g), "a12a11"), "12a12b");
        assert_eq!(from_fairy(Some(&g), "a1a2"), "12l12k");
        assert_eq!(to_fairy(Some(&g), "5e4f3g"), "h8i7j6");
        assert_eq!(from_fairy(Some(&g), "h8i7j6"), "5e4f3g");
    }

    #[test]
    fn fens_both_ways() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let theirs = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";
        assert_eq!(fen_to_fairy(start, 0), theirs);
        assert_eq!(fairy_halfmove_clock(theirs), 0);
        assert_eq!(
            fairy_halfmove_clock("9/9/9/9/4k4/9/9/9/4K4[] b - - 17 40"),
            17
        );
        assert_eq!(fairy_halfmove_clock("9/9/9/9/4k4/9/9/9/4K4[-] w 3 1"), 3);
        assert_eq!(fairy_halfmove_clock("9/9/9/9/4k4/9/9/9/4K4[] w"), 0);
        assert_eq!(fen_from_fairy(theirs).unwrap(), start);
        assert_eq!(
            start_to_fairy(start),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"
        );
        assert_eq!(
            fen_from_fairy("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
                .unwrap(),
            start
        );
        // Hands, the second player to move, move numbers.
        let sfen = "4k4/9/9/9/9/9/9/9/4K4 w 2PBp 6";
        let fen = fen_to_fairy(sfen, 3);
        assert_eq!(fen, "4k4/9/9/9/9/9/9/9/4K4[PPBp] b - - 3 3");
        assert_eq!(
            fen_from_fairy(&fen).unwrap(),
            "4k4/9/9/9/9/9/9/9/4K4 w 2PBp 6"
        );
        assert_eq!(
            fen_from_fairy("4k4/9/9/9/9/9/9/9/4K4[pP] b - - 0 1").unwrap(),
            "4k4/9/9/9/9/9/9/9/4K4 w Pp 2"
        );
        assert!(fen_from_fairy("4k4/9 x - - 0 1").is_err());
        assert!(fen_from_fairy("4k4/9[P w").is_err());
    }
}
