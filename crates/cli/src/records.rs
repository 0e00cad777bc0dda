//! Record files on the command line: `replay FILE` (every game of a record, checked move by
//! move), `--load FILE` (a game to go on with, for `play` and every command that takes a
//! game) and `play`'s `save FILE` (`.kif` in Shift_JIS, `.kifu` in UTF-8).

use crate::commands::record_text;
use crate::error::CliError;
use chaturanga_notation::files::{self, FileFormat, TextEncoding};
use chaturanga_notation::pgn::wrap_movetext;
use chaturanga_rules::Ruleset;
use chaturanga_rules::scene::Viewer;
use chaturanga_session::load::{self, LoadedGame};
use chaturanga_session::{Hosted, RecordFormat};
use chaturanga_variants::VariantInfo;
use std::io::{Read, Write};
use std::path::Path;

/// The bytes of a record file, at most one more than [`files::MAX_FILE_LEN`] (the reader
/// then says it is too large).
fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let error = |source| CliError::ReadFile {
        file: path.display().to_string(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(error)?
        .take(files::MAX_FILE_LEN as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(error)?;
    Ok(bytes)
}

fn file_name(path: &Path) -> Option<&str> {
    path.file_name().and_then(|n| n.to_str())
}

/// `replay FILE`: each game of the record with its ruleset, the rule options it records, its
/// start when that is not the start position, its moves, its result and its final FEN. A
/// game that does not replay fails the command, naming its first bad move.
pub fn replay(path: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let bytes = read_file(path)?;
    let games = load::read_games(file_name(path), &bytes).map_err(|source| CliError::Load {
        file: path.display().to_string(),
        source,
    })?;
    let several = games.len() > 1;
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", describe(game, several.then_some(i + 1)))?;
    }
    Ok(())
}

/// One game as `replay` prints it.
fn describe(loaded: &LoadedGame, number: Option<usize>) -> String {
    let table = &loaded.table;
    let info = table.variant();
    let mut text = String::new();
    if let Some(n) = number {
        text.push_str(&format!("game {n}\n"));
    }
    text.push_str(&format!(
        "variant: {} ({}), {}\n",
        info.id,
        info.name,
        loaded.format.name().to_uppercase()
    ));
    if !loaded.options.is_empty() {
        text.push_str(&format!("options: {}\n", loaded.options.join(" ")));
    }
    for (tag, value) in &loaded.tags {
        if ["White", "Black", "Event", "Date"].contains(&tag.as_str())
            && !value.is_empty()
            && !value.contains('?')
        {
            text.push_str(&format!("{}: {value}\n", tag.to_ascii_lowercase()));
        }
    }
    let start = table.start_fen();
    let fresh = chaturanga_session::open_table(info.id, &loaded.options, None)
        .map(|t| t.fen())
        .ok();
    if fresh.as_deref() != Some(start.as_str()) {
        text.push_str(&format!("start: {start}\n"));
    }
    // Numbered by the first player's turns, as PGN numbers moves.
    let mut tokens = Vec::new();
    let mut number = 1;
    let mut last_mover: Option<usize> = None;
    for seen in table.moves_seen(Viewer::Arbiter) {
        let shown = seen.shown.or(seen.text).unwrap_or_else(|| "?".to_string());
        let turn_starts = last_mover != Some(seen.mover);
        if seen.mover == 0 && turn_starts {
            if last_mover.is_some() {
                number += 1;
            }
            tokens.push(format!("{number}."));
        } else if last_mover.is_none() {
            tokens.push(format!("{number}..."));
        }
        tokens.push(shown);
        last_mover = Some(seen.mover);
    }
    if !tokens.is_empty() {
        let mut moves = String::new();
        wrap_movetext(&mut moves, tokens);
        text.push_str(&moves);
    }
    match table.finished() {
        Some(finished) => text.push_str(&format!(
            "result: {} ({})\n",
            finished.result,
            finished.reason.as_str()
        )),
        None => text.push_str("result: * (ongoing)\n"),
    }
    text.push_str(&format!("fen: {}\n", table.fen()));
    text
}

/// `--load FILE`: the record's first game, to go on with, as ruleset `P` (the record must be
/// of that ruleset), under the rule options it records.
pub fn load_game<P: Ruleset>(
    info: &'static VariantInfo,
    path: &Path,
) -> Result<Hosted<P>, CliError> {
    let bytes = read_file(path)?;
    let (hosted, _) =
        load::load::<P>(info, file_name(path), &bytes).map_err(|source| CliError::Load {
            file: path.display().to_string(),
            source,
        })?;
    Ok(hosted)
}

/// `play`'s `save FILE`: the game in the format the file's name asks for (KIF or CSA, else
/// PGN or the ruleset's own record), `.kif` in Shift_JIS and `.kifu` in UTF-8, with its
/// rule options (secret ones too: the person at the terminal chose them); the message to
/// show.
pub fn save<P: Ruleset>(table: &Hosted<P>, path: &str) -> String {
    if path.is_empty() {
        return "error: `save` needs a file name".to_string();
    }
    let (format, encoding) = match files::format_of_name(path) {
        Some((FileFormat::Kif, encoding)) => (RecordFormat::Kif, encoding),
        Some((FileFormat::Csa, _)) => (RecordFormat::Csa, TextEncoding::Utf8),
        _ => (RecordFormat::Pgn, TextEncoding::Utf8),
    };
    let (text, format) = match record_text(table, format) {
        Ok(written) => written,
        Err(e) => return format!("error: {e}"),
    };
    let (bytes, encoding) = match format {
        RecordFormat::Kif => match files::encode(&text, encoding) {
            Ok(bytes) => (bytes, encoding),
            Err(e) => return format!("error: {e}"),
        },
        _ => (text.into_bytes(), TextEncoding::Utf8),
    };
    let described = match encoding {
        TextEncoding::ShiftJis => format!("{}, Shift_JIS", format.extension()),
        TextEncoding::Utf8 => format.extension().to_string(),
    };
    match std::fs::write(path, bytes) {
        Ok(()) => format!("saved to {path} ({described})"),
        Err(e) => format!("error: cannot write {path}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_lists_moves_result_and_fen() {
        let mut table = chaturanga_session::open_table("chess", &[], None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            table.play(m).unwrap();
        }
        let text = table
            .record(RecordFormat::Pgn, &chaturanga_session::Occasion::default())
            .unwrap();
        let games = load::read_games(Some("g.pgn"), text.as_bytes()).unwrap();
        assert_eq!(
            describe(&games[0], None),
            "variant: chess (Chess), PGN\n1. f3 e5 2. g4 Qh4#\nresult: 0-1 (checkmate)\nfen: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n"
        );
    }
}
