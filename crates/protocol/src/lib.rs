//! The engine protocols UCI, USI and XBoard (CECP v2), over any pair of streams: standard
//! input and output for `chaturanga uci`, a pipe or a buffer for tests and the fuzzer.
//!
//! All three share the same machinery: a thread that reads lines (capped in length, so a
//! hostile GUI cannot exhaust memory), a writer that keeps lines whole when the search
//! thread and the command loop both print, and a [`Searcher`] that lends the game session
//! to a search thread and takes it back when the search ends or is stopped.

pub mod fairy;
pub mod uci;
pub mod usi;
pub mod xboard;
pub mod xboard_setup;

use chaturanga_engine::{Limits, Score};
use chaturanga_rules::position::excerpt;
use chaturanga_session::{Decision, GameSession, Thinking};
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Longest command line read; longer lines are answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;
/// Largest transposition table a GUI may ask for, in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// Transposition table size at start, in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The engine protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface.
    Uci,
    /// Universal Shogi Interface.
    Usi,
    /// XBoard / WinBoard (CECP version 2).
    XBoard,
}

impl Protocol {
    /// Every protocol, in the order of its names in [`Protocol::name`].
    pub const ALL: [Protocol; 3] = [Protocol::Uci, Protocol::Usi, Protocol::XBoard];

    /// The protocol's command word (`uci`, `usi`, `xboard`), which also starts it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
            Protocol::XBoard => "xboard",
        }
    }

    /// The ruleset a session of the protocol plays until told otherwise: chess for UCI and
    /// XBoard (CECP's `new`), shogi for USI. The protocols' own default, not a ruleset fact.
    pub fn default_variant(self) -> &'static str {
        match self {
            Protocol::Uci | Protocol::XBoard => "chess",
            Protocol::Usi => "shogi",
        }
    }
}

/// Speaks `protocol` on standard input and output until `quit` or end of input.
pub fn serve(protocol: Protocol) {
    run(
        protocol,
        std::io::BufReader::new(std::io::stdin()),
        Box::new(std::io::stdout()),
    );
}

/// Speaks the protocol the GUI's first line names (`uci`, `usi` or `xboard`; UCI for anything
/// else, as Fairy-Stockfish does) on standard input and output, so that a GUI given only the
/// executable can start it. `false` when the input ended before any command.
pub fn serve_detected() -> bool {
    run_detected(
        std::io::BufReader::new(std::io::stdin()),
        Box::new(std::io::stdout()),
    )
}

/// [`serve_detected`] over any pair of streams: the first line is read, decides the
/// protocol, and is then handled as that protocol's first command.
pub fn run_detected(
    mut input: impl BufRead + Send + 'static,
    output: Box<dyn Write + Send>,
) -> bool {
    let mut first = Vec::new();
    // Blank lines before the first command say nothing.
    while first.iter().all(u8::is_ascii_whitespace) {
        first.clear();
        let mut limited = std::io::Read::take(&mut input, MAX_LINE as u64 + 1);
        match limited.read_until(b'\n', &mut first) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
    }
    let word = first
        .split(|b| b.is_ascii_whitespace())
        .find(|w| !w.is_empty())
        .unwrap_or_default();
    let protocol = match word {
        b"usi" => Protocol::Usi,
        b"xboard" => Protocol::XBoard,
        _ => Protocol::Uci,
    };
    // A first line cut at end of input still ends; one cut at the length cap is left to
    // run on, so that the protocol refuses it whole.
    if !first.ends_with(b"\n") && first.len() <= MAX_LINE {
        first.push(b'\n');
    }
    run(protocol, std::io::Cursor::new(first).chain(input), output);
    true
}

/// Speaks `protocol` with a GUI that writes to `input` and reads `output`, until `quit` or
/// end of input; a running search is stopped before it returns.
pub fn run(
    protocol: Protocol,
    input: impl BufRead + Send + 'static,
    output: Box<dyn Write + Send>,
) {
    let lines = read_lines(input);
    let out = Output::new(output);
    match protocol {
        Protocol::Uci => uci::run(lines, out),
        Protocol::Usi => usi::run(lines, out),
        Protocol::XBoard => xboard::run(lines, out),
    }
}

/// One line from the GUI, or the news that it was too long or not text.
pub enum Line {
    /// A command.
    Text(String),
    /// A line over [`MAX_LINE`] bytes or not UTF-8, skipped.
    Rejected(&'static str),
}

/// Reads lines from `input` on a thread of their own, so a running search can be stopped.
pub fn read_lines(input: impl BufRead + Send + 'static) -> Receiver<Line> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut bytes = Vec::new();
            let mut limited = std::io::Read::take(&mut input, MAX_LINE as u64 + 1);
            match limited.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = if bytes.len() > MAX_LINE {
                // Skip the rest of the long line.
                let mut sink = Vec::new();
                if !bytes.ends_with(b"\n") && input.read_until(b'\n', &mut sink).is_err() {
                    break;
                }
                Line::Rejected("line too long")
            } else {
                match String::from_utf8(bytes) {
                    Ok(text) => Line::Text(text.trim_end_matches(['\n', '\r']).to_string()),
                    Err(_) => Line::Rejected("line is not UTF-8"),
                }
            };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Standard output shared by the command loop and the search thread, a line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Self {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line and flushes it (a GUI waits for whole lines). Control characters,
    /// which can only come from echoed input, are written escaped: a `\r` or `\n` from the
    /// GUI's own line must not make the engine appear to say two things.
    pub fn line(&self, text: &str) {
        let unsafe_char = |c: char| c.is_control() && c != '\t';
        let mut escaped = String::new();
        let text = if text.chars().any(unsafe_char) {
            for c in text.chars() {
                if unsafe_char(c) {
                    escaped.extend(c.escape_default());
                } else {
                    escaped.push(c);
                }
            }
            &escaped
        } else {
            text
        };
        let mut out = match self.0.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A GUI that closed its end cannot be told anything; the loop ends on end of input.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// A running search: the thread that gives the session back, its stop flag, and the flag
/// that drops its answer.
type RunningSearch = (
    JoinHandle<Box<dyn GameSession>>,
    Arc<AtomicBool>,
    Arc<AtomicBool>,
);

/// Lends the game session to a search thread.
pub struct Searcher {
    session: Option<Box<dyn GameSession>>,
    running: Option<RunningSearch>,
    /// A search thread panicked since the last [`Searcher::take_failure`].
    failed: bool,
}

impl Searcher {
    /// A searcher holding `session`.
    pub fn new(session: Box<dyn GameSession>) -> Self {
        Searcher {
            session: Some(session),
            running: None,
            failed: false,
        }
    }

    /// Whether a search runs.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|(handle, _, _)| !handle.is_finished())
    }

    /// The session, after waiting for a running search to end (stopping it first when
    /// `stop`).
    pub fn session(&mut self, stop: bool) -> &mut Box<dyn GameSession> {
        if let Some((handle, flag, _)) = self.running.take() {
            if stop {
                // The search clears its flag when it starts: a stop that arrives before
                // then is repeated until the thread ends.
                while !handle.is_finished() {
                    flag.store(true, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            match handle.join() {
                Ok(session) => self.session = Some(session),
                // The search thread panicked: its session is gone; a fresh chess game stands
                // in so the protocol keeps answering.
                Err(_) => {
                    self.failed = true;
                    self.session =
                        chaturanga_session::open(Protocol::Uci.default_variant(), DEFAULT_HASH_MB)
                            .ok();
                }
            }
        }
        self.session
            .as_mut()
            .expect("the session is here whenever no search runs")
    }

    /// Whether a search thread panicked since the last call: the GUI must be told that its
    /// game was lost, and the fuzzer that something broke.
    pub fn take_failure(&mut self) -> bool {
        std::mem::take(&mut self.failed)
    }

    /// Stops the running search and drops its answer (UCI's `ponderhit`: the search of
    /// the expected move gives way to the real one).
    pub fn abandon(&mut self) {
        if let Some((_, _, dropped)) = &self.running {
            dropped.store(true, Ordering::Relaxed);
        }
        self.session(true);
    }

    /// Starts a search; `report` gets every iteration and `done` the decision, both on the
    /// search thread. A search that `holds` (UCI's `go infinite` and `go ponder`) keeps its
    /// decision until it is stopped, even when it ends by itself: the protocol forbids a
    /// `bestmove` before the GUI's `stop`.
    pub fn start(
        &mut self,
        limits: Limits,
        holds: bool,
        mut report: impl FnMut(&Thinking) + Send + 'static,
        done: impl FnOnce(&mut dyn GameSession, Decision) + Send + 'static,
    ) {
        let mut session = match self.session.take() {
            Some(session) => session,
            None => {
                self.session(true);
                match self.session.take() {
                    Some(session) => session,
                    None => return,
                }
            }
        };
        let flag = session.stop_flag();
        flag.store(false, Ordering::Relaxed);
        let dropped = Arc::new(AtomicBool::new(false));
        let drop_answer = dropped.clone();
        let handle = std::thread::spawn(move || {
            let decision = session.search(&limits, &mut |thinking| report(thinking));
            if holds {
                let stop = session.stop_flag();
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            }
            if !drop_answer.load(Ordering::Relaxed) {
                done(session.as_mut(), decision);
            }
            session
        });
        self.running = Some((handle, flag, dropped));
    }
}

/// One protocol's handling of commands, for [`command_loop`].
pub trait Handler {
    /// Handles one command; `false` on `quit`.
    fn command(&mut self, text: &str) -> bool;
    /// How the protocol reports an error that belongs to no command (a line refused unread,
    /// a failed search): an `info string` by default, as UCI and USI have no error message.
    fn error_line(&self, why: &str) -> String {
        format!("info string error: {why}")
    }
    /// The shared output.
    fn output(&self) -> &Output;
    /// The searcher holding the game.
    fn searcher(&mut self) -> &mut Searcher;
}

/// Feeds `lines` to `handler` until `quit` or end of input, then stops any search.
pub fn command_loop(handler: &mut impl Handler, lines: Receiver<Line>) {
    for line in lines {
        let go_on = match line {
            Line::Rejected(why) => {
                let report = handler.error_line(why);
                handler.output().line(&report);
                true
            }
            Line::Text(text) => handler.command(&text),
        };
        report_failure(handler);
        if !go_on {
            break;
        }
    }
    handler.searcher().session(true);
    report_failure(handler);
}

/// Tells the GUI when a search thread panicked (its game is gone).
fn report_failure(handler: &mut impl Handler) {
    if handler.searcher().take_failure() {
        let report = handler.error_line(FAILED_SEARCH);
        handler.output().line(&report);
    }
}

/// What the GUI is told after a search thread panicked.
pub const FAILED_SEARCH: &str = "internal error in the search; the game is reset to chess";

/// The setup of a `position` command (`startpos` or `<fen_word> FEN…`) and its moves.
pub fn position_words<'w>(
    words: &'w [&'w str],
    fen_word: &str,
) -> Result<(Option<String>, &'w [&'w str]), String> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let setup = &words[1.min(words.len())..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or(&[][..], |i| &words[i + 1..]);
    match setup {
        ["startpos"] => Ok((None, moves)),
        [word, fields @ ..] if *word == fen_word && !fields.is_empty() => {
            Ok((Some(fields.join(" ")), moves))
        }
        _ => Err(format!("position needs startpos or {fen_word} …")),
    }
}

/// A score as UCI and USI write it (`cp 35`, `mate 3`, `mate -2`).
pub fn score_text(score: Score) -> String {
    match (score, score.mate_in_moves()) {
        (_, Some(moves)) => format!("mate {moves}"),
        (Score::Centipawns(cp), None) => format!("cp {cp}"),
        (Score::Win { plies }, None) => format!("mate {plies}"),
    }
}

/// The `info` line of one iteration, or of one of its lines (UCI and USI share it).
pub fn info_line(thinking: &Thinking, pv: &[String]) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        thinking.depth,
        thinking.seldepth,
        thinking.multipv,
        score_text(thinking.score),
        thinking.nodes,
        thinking.nps,
        thinking.elapsed.as_millis(),
        thinking.hashfull,
        pv.join(" ")
    )
}

/// Reads a number argument of a command, with a clear error.
pub fn number<T: std::str::FromStr>(words: &[&str], i: usize, name: &str) -> Result<T, String> {
    words
        .get(i)
        .ok_or_else(|| format!("{name} needs a value"))?
        .parse()
        .map_err(|_| format!("bad value for {name}: {:?}", excerpt(words[i])))
}
