//! The `protocol` target: a GUI's script of command lines, fed to UCI, USI or XBoard in
//! process.
//!
//! ```text
//! uci                      <- the protocol: uci, usi or xboard
//! uci                      <- the rest: lines as a GUI writes them, any bytes
//! position startpos moves e2e4
//! go depth 3
//! ```
//!
//! What must hold: no panic on either thread, the run ends when the input does (a running
//! search is stopped), the output is whole lines of printable text that stay bounded, and
//! every handshake and ping gets exactly one answer.

use crate::case::MAX_INPUT;
use chaturanga_protocol::{FAILED_SEARCH, Protocol, fairy::Dialect, uci::uci_name};
use chaturanga_session::to_xboard;
use chaturanga_variants::implemented;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

/// Output a run may write per input line: a `uci` handshake, a diagram or a perft split
/// stay far below; more means the protocol loops.
const OUTPUT_PER_LINE: usize = 64 * 1024;
/// Deepest perft a fuzz input may ask for: deeper ones are slow on purpose, not wrong.
const MAX_PERFT: u32 = 2;
/// Largest hash table a fuzz input may ask for, in MiB (larger ones only cost memory).
const MAX_HASH_MB: usize = 256;

/// A writer that keeps everything, up to a cap; past it, the rest is counted only.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<(Vec<u8>, usize)>>);

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut kept = match self.0.lock() {
            Ok(kept) => kept,
            Err(poisoned) => poisoned.into_inner(),
        };
        kept.1 += bytes.len();
        if kept.0.len() < 16 << 20 {
            kept.0.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the script; `false` for input that names no protocol or is expensive on purpose.
pub fn protocol(data: &[u8]) -> bool {
    if data.len() > MAX_INPUT {
        return false;
    }
    let (first, script) = match data.iter().position(|&b| b == b'\n') {
        Some(end) => (&data[..end], &data[end + 1..]),
        None => (data, &[][..]),
    };
    let protocol = match first.trim_ascii() {
        b"uci" => Protocol::Uci,
        b"usi" => Protocol::Usi,
        b"xboard" => Protocol::XBoard,
        _ => return false,
    };
    // The commands as the protocol sees them: a line that is not UTF-8 is refused unread.
    let commands: Vec<Vec<&str>> = script
        .split(|&b| b == b'\n')
        .filter_map(|line| std::str::from_utf8(line).ok())
        .map(|line| {
            line.trim_end_matches(['\n', '\r'])
                .split_whitespace()
                .collect()
        })
        .collect();
    if commands.iter().any(|words| costly(words)) {
        return false;
    }
    let capture = Capture::default();
    chaturanga_protocol::run(
        protocol,
        Cursor::new(script.to_vec()),
        Box::new(capture.clone()),
    );
    let (text, total) = std::mem::take(
        &mut *capture
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    let lines = commands.len() + 1;
    assert!(
        total <= OUTPUT_PER_LINE * lines,
        "{total} bytes of output for {lines} lines"
    );
    let text = String::from_utf8(text).expect("the output is UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the output ends inside a line"
    );
    for line in text.lines() {
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "a control character in an output line (a GUI could read it as two lines): {line:?}"
        );
        assert!(!line.contains(FAILED_SEARCH), "a search thread panicked");
    }
    let answers = |prefix: &str| {
        text.lines()
            .filter(|l| l.split_whitespace().next() == Some(prefix))
            .count()
    };
    // Everything up to `quit` is read; nothing after it.
    let read = commands
        .iter()
        .position(|words| words.first() == Some(&"quit"))
        .map_or(&commands[..], |end| &commands[..end]);
    let asked = |command: &str| read.iter().filter(|w| w.first() == Some(&command)).count();
    let pairs: &[(&str, &str)] = match protocol {
        Protocol::Uci => &[("uci", "uciok"), ("isready", "readyok")],
        Protocol::Usi => &[("usi", "usiok"), ("isready", "readyok")],
        Protocol::XBoard => &[("ping", "pong")],
    };
    for (command, answer) in pairs {
        assert_eq!(
            asked(command),
            answers(answer),
            "every {command} gets one {answer}"
        );
    }
    true
}

/// Whether a command is slow or large on purpose: a deep perft, a huge hash table.
fn costly(words: &[&str]) -> bool {
    let deep_perft = words
        .iter()
        .position(|&w| w == "perft")
        .and_then(|i| words.get(i + 1))
        .and_then(|depth| depth.parse::<u32>().ok())
        .is_some_and(|depth| depth > MAX_PERFT);
    let big_table = matches!(words.first(), Some(&("setoption" | "memory")))
        && words
            .iter()
            .any(|w| w.parse::<usize>().is_ok_and(|mb| mb > MAX_HASH_MB));
    deep_perft || big_table
}

/// Seeds: for every ruleset a UCI, a USI and an XBoard game script.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for info in implemented() {
        // The game UCI's name for the ruleset means (Fairy-Stockfish's, where its game is
        // ours under other options).
        let Ok((mut session, _)) = chaturanga_protocol::uci::open_variant(uci_name(info)) else {
            continue;
        };
        let start = session.fen();
        let moves = crate::seeds::first_moves(session.as_mut(), 2);
        let after = session.fen();
        let name = uci_name(info);
        // UCI speaks Fairy-Stockfish's dialect (its coordinates and FENs in the shogi
        // family), USI our notation.
        let engine_script = |hello: &str, fen_word: &str, dialect: &Dialect| {
            let played: Vec<String> = moves.iter().map(|m| dialect.move_out(m)).collect();
            let played = played.join(" ");
            let after = dialect.fen_text(&after, 0);
            let start = dialect.fen_text(&start, 0);
            format!(
                "{hello}\nsetoption name UCI_Variant value {name}\nisready\n\
                 position startpos moves {played}\ngo depth 2\nd\nisready\ngo infinite\nstop\n\
                 go perft 1\nposition {fen_word} {after}\ngo depth 1\nposition {fen_word} \
                 {start}\ngo depth 1\nquit\n"
            )
        };
        let uci = Dialect::uci(session.as_ref());
        seeds.push((
            format!("{}-uci", info.id),
            format!("uci\n{}", engine_script("uci", "fen", &uci)).into_bytes(),
        ));
        seeds.push((
            format!("{}-usi", info.id),
            format!("usi\n{}", engine_script("usi", "sfen", &Dialect::ours())).into_bytes(),
        ));
        let geometry = session.geometry();
        let xboard_moves: Vec<String> = moves
            .iter()
            .map(|mv| format!("usermove {}", to_xboard(geometry, mv)))
            .collect();
        seeds.push((
            format!("{}-xboard", info.id),
            format!(
                "xboard\nxboard\nprotover 2\nvariant {}\nnew\nping 1\nforce\n{}\npost\nsd 2\n\
                 go\nping 2\nundo\nsetboard {after}\nping 3\n?\nquit\n",
                info.xboard_name(),
                xboard_moves.join("\n")
            )
            .into_bytes(),
        ));
    }
    seeds
}
