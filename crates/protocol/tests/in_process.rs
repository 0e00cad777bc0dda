//! The protocols driven in process through a pipe, the way the fuzzer drives them: hostile
//! lines get an error and the loop goes on, a command that cannot be answered during a
//! search says so instead of hanging, and end of input ends a running search.

use chaturanga_protocol::{MAX_LINE, Protocol, run};
use std::io::{BufReader, PipeWriter, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long any expected answer may take (generous: tests run in parallel on two cores).
const PATIENCE: Duration = Duration::from_secs(60);

/// A writer that hands every finished line to the test.
struct LineSink {
    pending: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            // The test may have stopped listening; the protocol must not care.
            let _ = self.lines.send(text);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A protocol running on a thread of its own, fed through a pipe.
struct Session {
    input: Option<PipeWriter>,
    lines: Receiver<String>,
    thread: Option<JoinHandle<()>>,
    transcript: Vec<String>,
}

impl Session {
    fn start(protocol: Protocol) -> Session {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        let (sender, lines) = mpsc::channel();
        let sink = LineSink {
            pending: Vec::new(),
            lines: sender,
        };
        let thread =
            std::thread::spawn(move || run(protocol, BufReader::new(reader), Box::new(sink)));
        Session {
            input: Some(writer),
            lines,
            thread: Some(thread),
            transcript: Vec::new(),
        }
    }

    /// XBoard after its handshake.
    fn xboard() -> Session {
        let mut xboard = Session::start(Protocol::XBoard);
        xboard.send("xboard");
        xboard.send("protover 2");
        xboard.expect(|l| l.contains("done=1"));
        xboard
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input open");
        input.write_all(bytes).expect("the protocol reads");
        input.flush().expect("flushed");
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    /// The first line that satisfies `wanted`, failing after [`PATIENCE`].
    fn expect(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no expected answer; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Every line up to the first that satisfies `wanted`, that one included.
    fn lines_until(&mut self, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let from = self.transcript.len();
        self.expect(wanted);
        self.transcript[from..].to_vec()
    }

    /// Closes the input and waits for the protocol to return.
    fn close(mut self) {
        drop(self.input.take());
        let thread = self.thread.take().expect("running");
        let deadline = Instant::now() + PATIENCE;
        while !thread.is_finished() {
            assert!(
                Instant::now() < deadline,
                "the protocol did not end at end of input"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        thread.join().expect("the protocol thread did not panic");
    }
}

#[test]
fn uci_display_during_an_infinite_search_answers_instead_of_waiting() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("uci");
    uci.expect(|l| l == "uciok");
    uci.send("position startpos moves e2e4");
    uci.send("go infinite");
    uci.expect(|l| l.starts_with("info depth"));
    uci.send("d");
    let answer = uci.expect(|l| l.starts_with("info string"));
    assert!(answer.contains("send stop first"), "{answer}");
    uci.send("isready");
    uci.expect(|l| l == "readyok");
    uci.send("stop");
    uci.expect(|l| l.starts_with("bestmove "));
    uci.send("d");
    let fen = uci.expect(|l| l.starts_with("Fen: "));
    assert!(fen.contains(" b "), "black to move after e2e4: {fen}");
    uci.close();
}

#[test]
fn end_of_input_ends_a_running_search() {
    for protocol in [Protocol::Uci, Protocol::Usi] {
        let mut session = Session::start(protocol);
        session.send("go infinite");
        session.expect(|l| l.starts_with("info depth"));
        session.close();
    }
    let mut xboard = Session::xboard();
    xboard.send("new");
    xboard.send("post");
    xboard.send("st 600");
    xboard.send("go");
    // Thinking output starts with the depth.
    xboard.expect(|l| l.starts_with(|c: char| c.is_ascii_digit()));
    xboard.close();
}

#[test]
fn an_overlong_line_is_refused_and_the_next_command_is_answered() {
    let long = vec![b'x'; MAX_LINE + 10];
    for (protocol, hello, answer, refusal) in [
        (
            Protocol::Uci,
            "isready",
            "readyok",
            "info string error: line too long",
        ),
        (
            Protocol::Usi,
            "isready",
            "readyok",
            "info string error: line too long",
        ),
        (
            Protocol::XBoard,
            "ping 7",
            "pong 7",
            "Error (line too long): line",
        ),
    ] {
        let mut session = Session::start(protocol);
        session.send_bytes(&long);
        session.send_bytes(b"\n");
        session.expect(|l| l == refusal);
        session.send(hello);
        session.expect(|l| l == answer);
        session.close();
    }
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_next_command_is_answered() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send_bytes(b"position \xff\xfe startpos\n");
    uci.expect(|l| l == "info string error: line is not UTF-8");
    uci.send("isready");
    uci.expect(|l| l == "readyok");
    uci.close();
}

#[test]
fn out_of_range_numbers_get_an_error() {
    let mut uci = Session::start(Protocol::Uci);
    for (command, complaint) in [
        ("setoption name Hash value 99999999999", "Hash must be"),
        ("setoption name MultiPV value 0", "MultiPV must be"),
        ("go perft 40", "perft depth must be at most"),
        ("go perft -1", "bad value for perft"),
    ] {
        uci.send(command);
        let answer = uci.expect(|l| l.starts_with("info string"));
        assert!(answer.contains(complaint), "{command}: {answer}");
    }
    // The session still plays after all that.
    uci.send("go depth 1");
    uci.expect(|l| l.starts_with("bestmove ") && l != "bestmove (none)");
    uci.close();
}

/// A legal move of the line's `bestmove` in the chess game after `moves`.
fn assert_legal_bestmove(line: &str, fen: Option<&str>, moves: &[&str]) {
    let mv = line
        .strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove: {line}"));
    let mut referee = chaturanga_session::open("chess", 1).expect("chess");
    referee.reset(fen).expect("the position");
    for m in moves {
        referee.play(m).expect("legal");
    }
    // The referee's own result does not matter: the GUI adjudicates.
    let legal = referee.legal_moves();
    assert!(
        legal.is_empty() || referee.play(mv).is_ok(),
        "{mv} is not legal"
    );
    assert_ne!(mv, "(none)");
}

#[test]
fn every_go_gets_a_bestmove_even_with_bad_words() {
    for (protocol, hello, ready) in [
        (Protocol::Uci, "uci", "uciok"),
        (Protocol::Usi, "usi", "usiok"),
    ] {
        let mut session = Session::start(protocol);
        session.send(hello);
        session.expect(|l| l == ready);
        for (command, complaint) in [
            ("go wtime -5 btime -5", None),
            ("go btime -100 wtime -100 byoyomi 0", None),
            ("go depth", Some("depth needs a value")),
            ("go depth x", Some("bad value for depth")),
            ("go movetime 50 sideways", Some("unknown go parameter")),
            (
                "go searchmoves e2e4 7g7f depth 2",
                Some("searchmoves is not supported"),
            ),
        ] {
            session.send(command);
            let lines = session.lines_until(|l| l.starts_with("bestmove "));
            let last = lines.last().unwrap();
            assert!(
                last != "bestmove (none)" && last != "bestmove resign",
                "{command}: {last}"
            );
            if let Some(complaint) = complaint {
                assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with("info string error") && l.contains(complaint)),
                    "{command}: {lines:?}"
                );
            }
        }
        session.close();
    }
}

#[test]
fn a_refused_position_is_never_searched_as_the_old_one() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("position startpos moves e2e4");
    uci.send("position startpos moves e2e4 e2e4");
    uci.expect(|l| l.starts_with("info string error"));
    uci.send("go depth 2");
    let lines = uci.lines_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("the last was refused")),
        "{lines:?}"
    );
    // A good position is searched again.
    uci.send("position startpos moves e2e4");
    uci.send("go depth 2");
    let answer = uci.expect(|l| l.starts_with("bestmove"));
    assert_legal_bestmove(&answer, None, &["e2e4"]);
    uci.close();
}

#[test]
fn a_position_the_rules_drew_still_gets_a_move() {
    let mut uci = Session::start(Protocol::Uci);
    let fifty = "8/8/8/4k3/8/8/4K3/R7 w - - 100 80";
    uci.send(&format!("position fen {fifty}"));
    uci.send("go depth 3");
    let answer = uci.expect(|l| l.starts_with("bestmove"));
    assert_legal_bestmove(&answer, Some(fifty), &[]);
    let threefold = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    uci.send(&format!("position startpos moves {}", threefold.join(" ")));
    uci.send("go depth 3");
    let answer = uci.expect(|l| l.starts_with("bestmove"));
    assert_legal_bestmove(&answer, None, &threefold);
    // A mate has no move to give.
    uci.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    uci.send("go depth 3");
    uci.expect(|l| l == "bestmove (none)");
    uci.close();
}

/// Waits a little, then checks that no `bestmove` came before `isready`'s answer.
fn assert_no_bestmove_yet(session: &mut Session) {
    std::thread::sleep(Duration::from_millis(300));
    session.send("isready");
    let early = session.lines_until(|l| l == "readyok");
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
}

#[test]
fn infinite_and_ponder_searches_answer_only_when_told() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("uci");
    let options = uci.lines_until(|l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Ponder type check"))
    );
    uci.send("setoption name Ponder value true");
    // King against king: drawn by the rules, searched to the end at once, yet no `bestmove`
    // before `stop`.
    uci.send("position fen 8/8/8/4k3/8/8/4K3/8 w - - 0 1");
    uci.send("go infinite");
    assert_no_bestmove_yet(&mut uci);
    uci.send("stop");
    uci.expect(|l| l.starts_with("bestmove "));
    // Pondering: nothing until `ponderhit`, then a move searched with the real limits.
    uci.send("position startpos moves e2e4 e7e5");
    uci.send("go ponder wtime 2000 btime 2000");
    assert_no_bestmove_yet(&mut uci);
    uci.send("ponderhit");
    let answer = uci.expect(|l| l.starts_with("bestmove"));
    assert_legal_bestmove(&answer, None, &["e2e4", "e7e5"]);
    // A ponder search that is stopped answers once, and a late ponderhit changes nothing.
    uci.send("go ponder wtime 2000 btime 2000");
    uci.send("stop");
    uci.expect(|l| l.starts_with("bestmove"));
    uci.send("ponderhit");
    uci.send("isready");
    let after = uci.lines_until(|l| l == "readyok");
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
    uci.close();
}

#[test]
fn xboard_reads_equals_as_a_declined_promotion() {
    let mut xboard = Session::xboard();
    xboard.send("variant shogi");
    xboard.send("force");
    // XBoard's shogi coordinates: files a-i from Sente's left, ranks 1-9 from Sente's side.
    // The bishop goes into the zone unpromoted: USI 7g7f 3c3d 8h3c.
    for mv in ["c3c4", "g7g6", "b2g7="] {
        xboard.send(&format!("usermove {mv}"));
    }
    xboard.send("ping 1");
    let lines = xboard.lines_until(|l| l == "pong 1");
    assert!(!lines.iter().any(|l| l.contains("Illegal")), "{lines:?}");
    xboard.close();
}

#[test]
fn xboard_plays_a_user_move_and_answers_with_a_legal_reply() {
    let mut xboard = Session::xboard();
    xboard.send("new");
    xboard.send("sd 1");
    xboard.send("usermove e2e4");
    let reply = xboard.expect(|l| l.starts_with("move "));
    let mut referee = chaturanga_session::open("chess", 1).expect("chess");
    referee.play("e2e4").expect("legal");
    let mv = reply.trim_start_matches("move ");
    referee
        .play(mv)
        .unwrap_or_else(|e| panic!("{mv} is not legal: {e}"));
    xboard.close();
}

#[test]
fn the_first_line_chooses_the_protocol() {
    for (input, answers) in [
        ("usi\nisready\nquit\n", &["usiok", "readyok"][..]),
        ("\n  \nuci\nisready\nquit\n", &["uciok", "readyok"]),
        (
            "xboard\nprotover 2\nping 3\nquit\n",
            &["feature done=1", "pong 3"],
        ),
        ("isready\nquit\n", &["readyok"]),
        ("usi", &["usiok"]),
    ] {
        let (sender, lines) = mpsc::channel();
        let sink = LineSink {
            pending: Vec::new(),
            lines: sender,
        };
        let reader = std::io::Cursor::new(input.as_bytes().to_vec());
        assert!(chaturanga_protocol::run_detected(reader, Box::new(sink)));
        let said: Vec<String> = lines.try_iter().collect();
        let mut at = 0;
        for answer in answers {
            let found = said[at..].iter().position(|l| l == answer);
            at += found.unwrap_or_else(|| panic!("{input:?}: no {answer} in {said:?}")) + 1;
        }
    }
    let (sender, _lines) = mpsc::channel();
    let sink = LineSink {
        pending: Vec::new(),
        lines: sender,
    };
    let empty = std::io::Cursor::new(b"\n\n".to_vec());
    assert!(!chaturanga_protocol::run_detected(empty, Box::new(sink)));
}

#[test]
fn fairy_stockfish_antichess_is_losing_chess_with_its_options() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("uci");
    let options = uci.lines_until(|l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var antichess")),
        "{options:?}"
    );
    uci.send("setoption name UCI_Variant value antichess");
    // Capture is compulsory: after e3 b5 the bishop must take.
    uci.send("position startpos moves e2e3 b7b5");
    uci.send("go perft 1");
    assert_eq!(
        uci.expect(|l| l.starts_with("Nodes searched")),
        "Nodes searched: 1"
    );
    // Fairy-Stockfish's antichess promotes to a king too (our default does not).
    uci.send("position fen 8/P7/8/8/8/8/8/k7 w - - 0 1");
    uci.send("go perft 1");
    assert_eq!(
        uci.expect(|l| l.starts_with("Nodes searched")),
        "Nodes searched: 5"
    );
    uci.send("setoption name UCI_Variant value losing");
    uci.send("position fen 8/P7/8/8/8/8/8/k7 w - - 0 1");
    uci.send("go perft 1");
    assert_eq!(
        uci.expect(|l| l.starts_with("Nodes searched")),
        "Nodes searched: 4"
    );
    uci.close();
}

#[test]
fn uci_speaks_fairy_stockfish_coordinates_and_fens_in_the_shogi_family() {
    let mut uci = Session::start(Protocol::Uci);
    // Shogi is one of XBoard's own variants: Fairy-Stockfish does not announce it.
    uci.send("setoption name UCI_Variant value shogi");
    uci.send("isready");
    let lines = uci.lines_until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string variant")),
        "{lines:?}"
    );
    uci.send("position startpos moves c3c4 g7g6 b2g7+ h8g7");
    uci.send("d");
    let fen = uci.expect(|l| l.starts_with("Fen: "));
    assert_eq!(
        fen,
        "Fen: lnsgkgsnl/1r7/ppppppbpp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[b] w - - 0 3"
    );
    let sfen = uci.expect(|l| l.starts_with("Sfen: "));
    assert_eq!(
        sfen,
        "Sfen: lnsgkgsnl/1r7/ppppppbpp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b b 5"
    );
    uci.send("go perft 1");
    let split = uci.lines_until(|l| l.starts_with("Nodes searched"));
    assert!(split.iter().any(|l| l == "h2c2: 1"), "{split:?}");
    assert!(!split.iter().any(|l| l.starts_with("2h")), "{split:?}");
    // Its FENs are read, in both of its forms, and its drops and promotions.
    uci.send("position fen 4k4/9/9/9/9/9/9/9/4K4[Pb] w - - 0 1 moves P@e5 B@e4");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: 4k4/9/9/9/4P4/4b4/9/9/4K4[] w - - 0 2"
    );
    // The FEN's halfmove clock counts on (SFEN has none), until a promotion restarts it as
    // in Fairy-Stockfish.
    uci.send("position fen 4k4/9/9/2S6/9/9/9/9/4K4[] w - - 17 30 moves e1d1 e9d9");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: 3k5/9/9/2S6/9/9/9/9/3K5[] w - - 19 31"
    );
    uci.send("position fen 4k4/9/9/2S6/9/9/9/9/4K4[] w - - 17 30 moves e1d1 e9d9 c6c7+");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: 3k5/9/2+S6/9/9/9/9/9/3K5[] b - - 0 31"
    );
    uci.send("position fen 4k4/9/9/9/9/9/9/9/4K4[-] w 0 1 moves e1d2");
    uci.send("go depth 3");
    let best = uci.expect(|l| l.starts_with("bestmove "));
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        mv.len() >= 4 && mv.as_bytes()[0].is_ascii_lowercase(),
        "not in Fairy-Stockfish's coordinates: {best}"
    );
    uci.send("setoption name UCI_Variant value minishogi");
    assert_eq!(
        uci.expect(|l| l.starts_with("info string variant")),
        "info string variant minishogi files 5 ranks 5 pocket 5 template shogi startpos \
         rbsgk/4p/5/P4/KGSBR[-] w 0 1"
    );
    uci.close();
}

#[test]
fn fairy_stockfish_names_mean_its_games() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("uci");
    let options = uci.lines_until(|l| l == "uciok");
    let variants = options
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .unwrap();
    assert_eq!(variants.matches(" var capablanca").count(), 1, "{variants}");
    assert!(
        options
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false")
    );
    // Capablanca's final array, not the catalogue's.
    uci.send("setoption name UCI_Variant value capablanca");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    );
    uci.send("setoption name UCI_Variant value chess");
    assert_eq!(
        uci.expect(|l| l.starts_with("info string variant")),
        "info string variant chess files 8 ranks 8 pocket 0 template fairy startpos \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    // Chess960 is chess under `chess960=on`; its castling fields and moves are read.
    uci.send("setoption name UCI_Chess960 value true");
    uci.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    uci.send("setoption name UCI_Chess960 value false");
    uci.send("isready");
    let lines = uci.lines_until(|l| l == "readyok");
    assert_eq!(lines.len(), 1, "{lines:?}");
    uci.close();
}

#[test]
fn uci_go_mate_finds_the_mate_and_stops() {
    let mut uci = Session::start(Protocol::Uci);
    // The back-rank mate in one.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    uci.send(&format!("position fen {fen}"));
    uci.send("go mate 1");
    let lines = uci.lines_until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    // The search went no deeper than a mate in one needs.
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    // A mate in two: the queen's sacrifice on b8, then the rook takes back with mate.
    let two = "r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1";
    uci.send(&format!("position fen {two}"));
    uci.send("go mate 2");
    let lines = uci.lines_until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains(" score mate 2 ")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove b2b8 ponder a8b8");
    uci.close();
}

#[test]
fn strength_options_are_offered_and_play_legal_moves() {
    for (protocol, hello, ready, skill, limit, elo) in [
        (
            Protocol::Uci,
            "uci",
            "uciok",
            "Skill Level",
            "UCI_LimitStrength",
            "UCI_Elo",
        ),
        (
            Protocol::Usi,
            "usi",
            "usiok",
            "Skill_Level",
            "USI_LimitStrength",
            "USI_Elo",
        ),
    ] {
        let mut session = Session::start(protocol);
        session.send(hello);
        let options = session.lines_until(|l| l == ready);
        for name in [skill, limit, elo] {
            assert!(
                options
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {name} type"))),
                "{name}: {options:?}"
            );
        }
        for setting in [
            format!("setoption name {skill} value 0"),
            format!("setoption name {skill} value 20"),
            format!("setoption name {limit} value true"),
            format!("setoption name {elo} value 900"),
        ] {
            session.send(&setting);
            session.send("go depth 4");
            let lines = session.lines_until(|l| l.starts_with("bestmove "));
            let last = lines.last().unwrap();
            assert!(
                last != "bestmove (none)" && last != "bestmove resign",
                "{setting}: {lines:?}"
            );
            assert!(
                !lines.iter().any(|l| l.contains("error")),
                "{setting}: {lines:?}"
            );
        }
        session.send(&format!("setoption name {skill} value 21"));
        session.expect(|l| l.starts_with("info string error") && l.contains("Skill Level"));
        session.close();
    }
    // Level 1 (Skill Level 0) does not always play the best move: over a few searches of a
    // quiet position it answers with more than one move.
    let mut uci = Session::start(Protocol::Uci);
    uci.send("setoption name Skill Level value 0");
    let mut answers = std::collections::HashSet::new();
    for _ in 0..12 {
        uci.send("position startpos moves e2e4 e7e5");
        uci.send("go depth 1");
        answers.insert(uci.expect(|l| l.starts_with("bestmove ")));
    }
    assert!(answers.len() > 1, "{answers:?}");
    uci.close();
}

#[test]
fn usi_go_mate_answers_checkmate_timeout_or_nomate() {
    let mut usi = Session::start(Protocol::Usi);
    usi.send("usi");
    usi.expect(|l| l == "usiok");
    // Black mates at once with the gold drop G*5b, protected by the pawn on 5c.
    usi.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    usi.send("go mate 10000");
    let answer = usi.expect(|l| l.starts_with("checkmate"));
    assert_eq!(answer, "checkmate G*5b");
    // No move at all: no mate.
    usi.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2");
    usi.send("go mate 1000");
    usi.expect(|l| l == "checkmate nomate");
    // A quiet position: no mate within the time.
    usi.send("position startpos");
    usi.send("go mate 300");
    usi.expect(|l| l == "checkmate timeout");
    // `go mate infinite` ends at `stop`.
    usi.send("go mate infinite");
    usi.expect(|l| l.starts_with("info depth"));
    usi.send("stop");
    usi.expect(|l| l == "checkmate timeout");
    usi.close();
}

#[test]
fn uci_chess960_reads_shredder_and_x_fen_and_castles_king_takes_rook() {
    let mut uci = Session::start(Protocol::Uci);
    uci.send("setoption name UCI_Chess960 value true");
    // Array 0 (BBQNNRKR) after its knights left and the f-rook went to d1: White may
    // castle short with the king staying on g1 (king takes rook, `g1h1`); `g1f1` is the
    // king's step.
    let fen = "bbqnnrkr/pppppp1p/6p1/8/8/3N1N2/PPPPPPPP/BBQR2KR w Hhf - 0 3";
    uci.send(&format!("position fen {fen}"));
    uci.send("go perft 1");
    let split = uci.lines_until(|l| l.starts_with("Nodes searched"));
    assert!(split.iter().any(|l| l == "g1h1: 1"), "{split:?}");
    assert!(split.iter().any(|l| l == "g1f1: 1"), "{split:?}");
    uci.send(&format!("position fen {fen} moves g1h1"));
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: bbqnnrkr/pppppp1p/6p1/8/8/3N1N2/PPPPPPPP/BBQR1RK1 b kq - 1 3"
    );
    // X-FEN: a file letter where two rooks stand on one wing.
    uci.send("position fen rr2k3/8/8/8/8/8/8/RR2K1R1 w GBb - 0 1 moves g1f1");
    uci.send("d");
    assert_eq!(
        uci.expect(|l| l.starts_with("Fen: ")),
        "Fen: rr2k3/8/8/8/8/8/8/RR2KR2 b Bb - 1 1"
    );
    // A real array searches and answers a legal move.
    uci.send("position fen nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w HBhb - 0 1");
    uci.send("go depth 3");
    let best = uci.expect(|l| l.starts_with("bestmove "));
    assert!(!best.contains("(none)"), "{best}");
    // Without the option the same array has no castling to read.
    uci.send("setoption name UCI_Chess960 value false");
    uci.send("position fen nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w HBhb - 0 1");
    uci.expect(|l| l.starts_with("info string error") && l.contains("castling"));
    uci.close();
}
