//! Records as files: which format a file holds, by its name or else by its text, and the
//! bytes of its text. KIF has two names: `.kif` files are Shift_JIS (code page 932, as
//! Kifu for Windows writes them and cshogi reads them), `.kifu` files UTF-8. Reading takes
//! UTF-8 wherever it is valid (and always after a byte order mark), so files we wrote in
//! UTF-8 under either name still read; otherwise a `.kif` or `.csa` file is Shift_JIS and a
//! PGN file ISO 8859-1, as the PGN standard says.

use encoding_rs::{Encoding, SHIFT_JIS, WINDOWS_1252};
use std::fmt;

/// Largest record file read.
pub const MAX_FILE_LEN: usize = crate::record::MAX_RECORD_LEN;

/// A record format, as [`sniff`] and [`format_of_name`] tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// PGN.
    Pgn,
    /// BPGN, PGN's bughouse form (a ruleset's own record, `Ruleset::own_record`).
    Bpgn,
    /// KIF.
    Kif,
    /// CSA.
    Csa,
}

impl FileFormat {
    /// The format's name, as record formats are named elsewhere (`pgn`, `bpgn`, `kif`, `csa`).
    pub fn name(self) -> &'static str {
        match self {
            FileFormat::Pgn => "pgn",
            FileFormat::Bpgn => "bpgn",
            FileFormat::Kif => "kif",
            FileFormat::Csa => "csa",
        }
    }

    /// The encoding of a file in this format that is not UTF-8.
    fn legacy(self) -> &'static Encoding {
        match self {
            FileFormat::Kif | FileFormat::Csa => SHIFT_JIS,
            FileFormat::Pgn | FileFormat::Bpgn => WINDOWS_1252,
        }
    }
}

/// How a file's text is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (code page 932).
    ShiftJis,
}

/// Why a record file could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Longer than [`MAX_FILE_LEN`].
    TooLarge(usize),
    /// Neither UTF-8 nor the format's other encoding.
    Encoding(&'static str),
    /// The text is no record we read.
    UnknownFormat,
    /// A character Shift_JIS cannot write (the file can be saved as `.kifu`, UTF-8).
    NotShiftJis(char),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::TooLarge(n) => write!(f, "a record file of {n} bytes is too large"),
            FileError::Encoding(what) => write!(f, "the file is neither UTF-8 nor {what}"),
            FileError::UnknownFormat => {
                write!(f, "the file is not a PGN, BPGN, KIF or CSA record")
            }
            FileError::NotShiftJis(c) => write!(
                f,
                "{c:?} cannot be written in Shift_JIS (save the KIF as .kifu, in UTF-8)"
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// The format and encoding a file name asks for when a game is saved or read: `.pgn`,
/// `.bpgn`, `.kif` (Shift_JIS), `.kifu` (UTF-8 KIF) and `.csa`, in any case.
pub fn format_of_name(name: &str) -> Option<(FileFormat, TextEncoding)> {
    let (_, extension) = name.rsplit_once('.')?;
    Some(match extension.to_ascii_lowercase().as_str() {
        "pgn" => (FileFormat::Pgn, TextEncoding::Utf8),
        "bpgn" => (FileFormat::Bpgn, TextEncoding::Utf8),
        "kif" => (FileFormat::Kif, TextEncoding::ShiftJis),
        "kifu" => (FileFormat::Kif, TextEncoding::Utf8),
        "csa" => (FileFormat::Csa, TextEncoding::Utf8),
        _ => return None,
    })
}

/// Reads a record file: its format (by its name where that says, BPGN also in a `.pgn`
/// file, else by its text) and its text.
pub fn read(name: Option<&str>, bytes: &[u8]) -> Result<(FileFormat, String), FileError> {
    if bytes.len() > MAX_FILE_LEN {
        return Err(FileError::TooLarge(bytes.len()));
    }
    let named = name.and_then(format_of_name).map(|(format, _)| format);
    let text = match (std::str::from_utf8(bytes), named) {
        (Ok(text), _) => text.to_string(),
        (Err(_), Some(format)) => decode(bytes, format.legacy())?,
        // Unnamed and not UTF-8: Shift_JIS if that makes it a shogi record, else Latin-1.
        (Err(_), None) => match decode(bytes, SHIFT_JIS) {
            Ok(text) if matches!(sniff(&text), Some(FileFormat::Kif | FileFormat::Csa)) => text,
            _ => decode(bytes, WINDOWS_1252)?,
        },
    };
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    let format = match named {
        // A bughouse game saved under a PGN name is BPGN.
        Some(FileFormat::Pgn) if sniff(&text) == Some(FileFormat::Bpgn) => FileFormat::Bpgn,
        Some(format) => format,
        None => sniff(&text).ok_or(FileError::UnknownFormat)?,
    };
    Ok((format, text))
}

fn decode(bytes: &[u8], encoding: &'static Encoding) -> Result<String, FileError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|text| text.into_owned())
        .ok_or(FileError::Encoding(encoding.name()))
}

/// The bytes of a record's text in `encoding`.
pub fn encode(text: &str, encoding: TextEncoding) -> Result<Vec<u8>, FileError> {
    match encoding {
        TextEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        TextEncoding::ShiftJis => {
            let (bytes, _, unmappable) = SHIFT_JIS.encode(text);
            if !unmappable {
                return Ok(bytes.into_owned());
            }
            let mut buffer = [0u8; 4];
            let bad = text
                .chars()
                .find(|c| SHIFT_JIS.encode(c.encode_utf8(&mut buffer)).2)
                .unwrap_or('\u{fffd}');
            Err(FileError::NotShiftJis(bad))
        }
    }
}

/// The format a record's text is in, from its first lines: PGN's tags or movetext (BPGN
/// when it names four players or numbers moves by board, `12B.`), KIF's header items
/// (`先手：`) and move header, CSA's version, names, items, position and move lines.
pub fn sniff(text: &str) -> Option<FileFormat> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = || {
        text.lines()
            .take(200)
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
    };
    let first = lines().next()?;
    if first.starts_with('[') || first.starts_with(|c: char| c.is_ascii_digit()) {
        let bughouse = lines().any(|line| {
            ["[WhiteA ", "[BlackA ", "[WhiteB ", "[BlackB "]
                .iter()
                .any(|tag| line.starts_with(tag))
                || line.split_whitespace().any(|token| {
                    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                    digits > 0
                        && token[digits..].len() >= 2
                        && token[digits..].starts_with(['A', 'a', 'B', 'b'])
                        && token[digits + 1..].starts_with('.')
                })
        });
        // KIF's numbered moves start with digits too.
        if !first.starts_with('[') && lines().any(|l| l.contains('：') || !l.is_ascii()) {
            return Some(FileFormat::Kif);
        }
        return Some(if bughouse {
            FileFormat::Bpgn
        } else {
            FileFormat::Pgn
        });
    }
    if lines().any(|l| l.contains('：') || l.starts_with("手数----")) {
        return Some(FileFormat::Kif);
    }
    let csa_move = |l: &str| {
        let b = l.as_bytes();
        b.len() >= 7
            && (b[0] == b'+' || b[0] == b'-')
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5..7].iter().all(u8::is_ascii_uppercase)
    };
    let csa = |l: &str| {
        ["V1", "V2", "V3", "N+", "N-", "PI", "P1", "$", "'"]
            .iter()
            .any(|start| l.starts_with(start))
            || l == "+"
            || l == "-"
            || csa_move(l)
    };
    csa(first).then_some(FileFormat::Csa)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_the_format_and_encoding() {
        assert_eq!(
            format_of_name("game.KIF"),
            Some((FileFormat::Kif, TextEncoding::ShiftJis))
        );
        assert_eq!(
            format_of_name("a/b.c/game.kifu"),
            Some((FileFormat::Kif, TextEncoding::Utf8))
        );
        assert_eq!(
            format_of_name("x.bpgn"),
            Some((FileFormat::Bpgn, TextEncoding::Utf8))
        );
        assert_eq!(format_of_name("x.txt"), None);
        assert_eq!(format_of_name("pgn"), None);
    }

    #[test]
    fn shift_jis_both_ways() {
        let text = "先手：羽生善治\n手合割：平手\n   1 ７六歩(77)\n   2 同　歩(23)\n";
        let bytes = encode(text, TextEncoding::ShiftJis).unwrap();
        assert!(std::str::from_utf8(&bytes).is_err());
        // 先 is 0x90 0xE6 in Shift_JIS.
        assert_eq!(&bytes[..2], [0x90, 0xE6]);
        assert_eq!(
            read(Some("g.kif"), &bytes).unwrap(),
            (FileFormat::Kif, text.to_string())
        );
        // Unnamed: found by its text in either encoding.
        assert_eq!(read(None, &bytes).unwrap(), (FileFormat::Kif, text.into()));
        assert_eq!(
            read(None, text.as_bytes()).unwrap(),
            (FileFormat::Kif, text.into())
        );
        // A UTF-8 `.kif` (as we wrote them before) and a byte order mark.
        let bom = [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat();
        assert_eq!(read(Some("g.kif"), &bom).unwrap().1, text);
        assert_eq!(
            encode("先手：😀", TextEncoding::ShiftJis),
            Err(FileError::NotShiftJis('😀'))
        );
        assert!(matches!(
            read(Some("g.kif"), &[0x82, 0xff, 0xff]),
            Err(FileError::Encoding(_))
        ));
    }

    #[test]
    fn formats_by_their_text() {
        for (text, format) in [
            ("[Event \"x\"]\n\n1. e4 e5 *\n", Some(FileFormat::Pgn)),
            ("1. e4 e5 *\n", Some(FileFormat::Pgn)),
            ("[Event \"x\"]\n[WhiteA \"a\"]\n", Some(FileFormat::Bpgn)),
            ("[Event \"x\"]\n\n1A. e4 1B. d4 *\n", Some(FileFormat::Bpgn)),
            ("V2.2\nN+a\nPI\n+\n+7776FU\n", Some(FileFormat::Csa)),
            ("'comment\nPI\n+\n", Some(FileFormat::Csa)),
            ("開始日時：2024/01/01\n先手：A\n", Some(FileFormat::Kif)),
            ("   1 ７六歩(77)\n", Some(FileFormat::Kif)),
            ("+7776FU\n", Some(FileFormat::Csa)),
            (
                "# KIF\n手合割：平手\n   1 ７六歩(77)\n",
                Some(FileFormat::Kif),
            ),
            ("後手の持駒：なし\n", Some(FileFormat::Kif)),
            ("hello\n", None),
            ("", None),
        ] {
            assert_eq!(sniff(text), format, "{text:?}");
        }
        // Latin-1 PGN.
        let latin = b"[White \"M\xfcller\"]\n\n1. e4 *\n";
        let (format, text) = read(Some("g.pgn"), latin).unwrap();
        assert_eq!(format, FileFormat::Pgn);
        assert!(text.contains("Müller"));
        assert_eq!(read(None, latin).unwrap().0, FileFormat::Pgn);
        assert_eq!(read(None, b"nothing"), Err(FileError::UnknownFormat));
        assert_eq!(
            read(Some("g.pgn"), b"[WhiteA \"a\"]\n\n1A. e4 *\n")
                .unwrap()
                .0,
            FileFormat::Bpgn
        );
        assert!(matches!(
            read(None, &vec![b' '; MAX_FILE_LEN + 1]),
            Err(FileError::TooLarge(_))
        ));
    }
}
