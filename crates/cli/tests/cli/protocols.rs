//! Scripted conformance tests of the engine protocols: the real binary is spawned, driven
//! through stdin, and its answers checked line by line.

use chaturanga_session::{GameSession, from_xboard, open};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any expected answer may take (generous: tests run in parallel on two cores).
const PATIENCE: Duration = Duration::from_secs(60);

/// The binary speaking a protocol.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start(protocol: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let input = child.stdin.take().expect("stdin");
        let output = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.input, "{text}").expect("the engine reads");
        self.input.flush().expect("flushed");
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "no expected answer; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// The first line starting with `prefix`.
    fn line_starting(&mut self, prefix: &str) -> String {
        self.until(|l| l.starts_with(prefix)).pop().expect("a line")
    }

    /// Sends `quit` and checks the process ends cleanly without an internal error.
    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("the engine ends");
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
        }
        assert!(status.success(), "exit {status:?}: {stderr}");
        assert!(!stderr.contains("internal error"), "{stderr}");
    }
}

/// A referee session of `variant` after `moves`.
fn referee(variant: &str, fen: Option<&str>, moves: &[&str]) -> Box<dyn GameSession> {
    let mut session = open(variant, 1).expect("ruleset");
    session.reset(fen).expect("position");
    for mv in moves {
        session.play(mv).expect("legal move");
    }
    session
}

fn best_move(line: &str) -> String {
    line.split_whitespace()
        .nth(1)
        .expect("a move after bestmove")
        .to_string()
}

#[test]
fn uci_handshake_lists_every_ruleset_and_the_options() {
    let mut e = Engine::start("uci");
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Chaturanga")));
    let variants = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("UCI_Variant");
    // The 29 rulesets and Fairy-Stockfish's names for rulesets under other options (those
    // that are also one of our ids once).
    let vars = variants.matches(" var ").count();
    let ids: Vec<&str> = chaturanga_variants::implemented()
        .map(|v| v.fairy_stockfish.unwrap_or(v.id))
        .collect();
    let new_names = chaturanga_variants::FAIRY_STOCKFISH_ALIASES
        .iter()
        .filter(|a| !ids.contains(&a.name))
        .count();
    assert_eq!(vars, 29 + new_names, "{variants}");
    for name in [
        "chess",
        "xiangqi",
        "shogi",
        "chushogi",
        "threeplayer",
        "gess",
    ] {
        assert!(variants.contains(&format!(" var {name}")), "{name}");
    }
    for option in [
        "Skill Level",
        "UCI_LimitStrength",
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}"
        );
    }
    e.send("isready");
    e.line_starting("readyok");
    e.quit();
}

#[test]
fn uci_searches_the_position_given_and_answers_a_legal_move() {
    let mut e = Engine::start("uci");
    e.send("uci");
    e.line_starting("uciok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 5");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")
            && l.contains(" score cp ")
            && l.contains(" pv ")),
        "{lines:?}"
    );
    let mv = best_move(lines.last().expect("bestmove"));
    let legal = referee("chess", None, &["e2e4", "e7e5", "g1f3"]).legal_moves();
    assert!(legal.contains(&mv), "{mv} is not legal");
    // A clock: the answer comes, and is legal.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go wtime 2000 btime 2000 winc 10 binc 10");
    let mv = best_move(&e.line_starting("bestmove"));
    assert_eq!(mv, "d1d8", "the back-rank mate");
    e.quit();
}

#[test]
fn uci_perft_matches_known_counts_in_two_rulesets() {
    let mut e = Engine::start("uci");
    e.send("go perft 3");
    assert_eq!(e.line_starting("Nodes searched"), "Nodes searched: 8902");
    // Xiangqi is one of XBoard's own variants, which Fairy-Stockfish does not announce.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos");
    e.send("go perft 2");
    assert_eq!(e.line_starting("Nodes searched"), "Nodes searched: 1920");
    // Our ids are accepted as well as Fairy-Stockfish's names.
    e.send("setoption name UCI_Variant value chushogi");
    assert!(
        e.line_starting("info string variant")
            .contains("files 12 ranks 12")
    );
    e.quit();
}

#[test]
fn uci_stop_ends_an_infinite_search_with_a_move() {
    let mut e = Engine::start("uci");
    e.send("position startpos");
    e.send("go infinite");
    e.line_starting("info depth 3");
    e.send("isready");
    e.line_starting("readyok");
    e.send("stop");
    let mv = best_move(&e.line_starting("bestmove"));
    assert!(referee("chess", None, &[]).legal_moves().contains(&mv));
    e.quit();
}

#[test]
fn uci_stop_right_after_go_is_not_lost() {
    let mut e = Engine::start("uci");
    // `stop` may arrive before the search has begun; it must still end the search.
    for _ in 0..20 {
        e.send("go infinite");
        e.send("stop");
        e.line_starting("bestmove");
    }
    e.quit();
}

#[test]
fn uci_reports_bad_input_and_keeps_the_last_good_position() {
    let mut e = Engine::start("uci");
    e.send("position startpos moves e2e4");
    for bad in [
        "position fen not a fen",
        "position startpos moves e2e4 e2e4",
        "position",
        "go depth x",
        "go wtime",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value nosuchgame",
        "setoption name Hash value 0",
        "setoption name Threads value 8",
        "flibbertigibbet",
    ] {
        e.send(bad);
        let error = e.line_starting("info string error");
        assert!(!error.is_empty());
    }
    e.send(&format!(
        "position startpos moves {}",
        "e2e4 ".repeat(300_000)
    ));
    e.line_starting("info string error");
    e.send("d");
    let fen = e.line_starting("Fen:");
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    e.send("isready");
    e.line_starting("readyok");
    e.quit();
}

#[test]
fn uci_reads_castling_written_as_the_king_taking_its_rook() {
    let mut e = Engine::start("uci");
    e.send("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 moves e1h1 e8a8");
    e.send("d");
    let fen = e.line_starting("Fen:");
    assert!(
        fen.starts_with("Fen: 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w"),
        "{fen}"
    );
    e.quit();
}

#[test]
fn usi_plays_shogi_in_sfen_and_resigns_when_mated() {
    let mut e = Engine::start("usi");
    e.send("usi");
    let lines = e.until(|l| l == "usiok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin"))
    );
    e.send("isready");
    e.line_starting("readyok");
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go btime 3000 wtime 3000 byoyomi 200");
    let mv = best_move(&e.line_starting("bestmove"));
    assert!(
        referee("shogi", None, &["7g7f", "3c3d"])
            .legal_moves()
            .contains(&mv)
    );
    // Gote's gold on 5h, guarded by the lance on 5g: sente is mated.
    let mated = "4k4/9/9/9/9/9/4l4/4g4/4K4 b - 1";
    assert!(referee("shogi", Some(mated), &[]).finished().is_some());
    e.send(&format!("position sfen {mated}"));
    e.send("go byoyomi 100");
    assert_eq!(e.line_starting("bestmove"), "bestmove resign");
    // Mated already: no mate to find.
    e.send("go mate 3");
    e.line_starting("checkmate nomate");
    e.send("position sfen garbage");
    e.line_starting("info string error");
    e.quit();
}

#[test]
fn usi_drops_are_written_with_a_star() {
    let mut e = Engine::start("usi");
    // Sente has only a gold in hand and mates with its drop.
    let fen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    e.send(&format!("position sfen {fen}"));
    e.send("go byoyomi 300");
    assert_eq!(best_move(&e.line_starting("bestmove")), "G*5b");
    e.quit();
}

#[test]
fn xboard_announces_features_and_plays_in_its_coordinates() {
    let mut e = Engine::start("xboard");
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(|l| l.contains("done=1")).join("\n");
    for needed in ["usermove=1", "setboard=1", "ping=1", "variants=\""] {
        assert!(features.contains(needed), "{needed}: {features}");
    }
    let offered: Vec<&str> = features
        .split("variants=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
        .split(',')
        .collect();
    for variant in [
        "normal",
        "xiangqi",
        "shogi",
        "chu",
        "capablanca",
        "seed-capablanca",
        "giveaway",
    ] {
        assert!(offered.contains(&variant), "{variant}: {offered:?}");
    }
    // Gess and hexagonal chess cannot be drawn by XBoard (it would show a chess board), so
    // they are not offered, though `variant` still takes their names.
    for variant in ["gess", "hexchess"] {
        assert!(!offered.contains(&variant), "{variant}: {offered:?}");
    }
    e.send("new");
    e.send("st 1");
    e.send("usermove e2e4");
    let reply = e.line_starting("move ");
    let mv = reply.trim_start_matches("move ").to_string();
    assert!(
        referee("chess", None, &["e2e4"])
            .legal_moves()
            .contains(&mv)
    );
    e.send("ping 42");
    e.line_starting("pong 42");
    // Xiangqi: ranks count from 0 in XBoard's coordinates.
    e.send("new");
    e.send("variant xiangqi");
    e.send("sd 3");
    e.send("usermove h2e2");
    let reply = e.line_starting("move ");
    let theirs = reply.trim_start_matches("move ");
    let game = referee("xiangqi", None, &["h3e3"]);
    let ours = from_xboard(game.geometry(), theirs);
    assert!(game.legal_moves().contains(&ours), "{theirs} → {ours}");
    e.quit();
}

/// Our XBoard server after `xboard`, `protover 2` and its `feature ... done=1`.
fn xboard_after_handshake() -> Engine {
    let mut e = Engine::start("xboard");
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e
}

#[test]
fn xboard_rejects_bad_moves_and_positions_and_reports_the_result() {
    let mut e = xboard_after_handshake();
    e.send("new");
    e.send("usermove z9z9");
    e.line_starting("Illegal move");
    e.send("setboard this is no position");
    e.line_starting("tellusererror");
    e.send("variant nosuchgame");
    e.line_starting("Error");
    // Fool's mate, the engine to find it as Black.
    e.send("new");
    e.send("force");
    for mv in ["f2f3", "e7e5", "g2g4"] {
        e.send(&format!("usermove {mv}"));
    }
    e.send("sd 2");
    e.send("go");
    assert_eq!(e.line_starting("move "), "move d8h4");
    assert_eq!(e.line_starting("0-1"), "0-1 {checkmate}");
    e.quit();
}

#[test]
fn xboard_follows_chu_shogi_lion_moves_in_two_legs() {
    let mut e = xboard_after_handshake();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    // Sente's lion, from 6f (XBoard g7): igui on 6e, then a pass.
    let fen = "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1";
    e.send(&format!("setboard {fen}"));
    e.send("usermove g7g8,g8g7");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
    e.quit();
}

#[test]
fn xboard_analyzes_and_offers_hash_and_rule_options() {
    let mut e = Engine::start("xboard");
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(|l| l.contains("done=1")).join("\n");
    assert!(features.contains("analyze=1"), "{features}");
    assert!(
        features.contains("feature option=\"Hash -spin "),
        "{features}"
    );
    // Analysis: thinking lines in XBoard's coordinates and `stat01` on `.`, never a move.
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("analyze");
    let thinking = e.line_starting("1 ");
    let first = thinking.split_whitespace().nth(4).expect("a line of play");
    assert!(
        referee("chess", None, &["e2e4"])
            .legal_moves()
            .contains(&first.to_string()),
        "{thinking}"
    );
    e.send(".");
    e.line_starting("stat01: ");
    // A move made during the analysis is analysed on.
    e.send("usermove e7e5");
    e.send("exit");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // A ruleset's rule options are announced once the GUI has chosen it, with their values.
    e.send("new");
    e.send("variant seed-capablanca");
    e.send("ping 2");
    let lines = e.until(|l| l == "pong 2");
    assert!(
        lines.contains(&"feature option=\"setup -combo *seed /// standard\"".to_string()),
        "{lines:?}"
    );
    // XBoard's `capablanca` is its array: the option that would change it is not offered,
    // and refused.
    e.send("new");
    e.send("variant capablanca");
    e.send("ping 3");
    let lines = e.until(|l| l == "pong 3");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("feature option=\"setup ")),
        "{lines:?}"
    );
    e.send("option setup=seed");
    e.line_starting("Error (option setup is fixed");
    // Choosing a rule option starts a new game under it: chess with FIDE's draw claims.
    e.send("new");
    e.send("option fide-claims=1");
    e.send("option Hash=8");
    e.send("ping 4");
    let lines = e.until(|l| l == "pong 4");
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    e.send("sd 1");
    e.send("usermove e2e4");
    e.line_starting("move ");
    e.quit();
}

/// The `setup` and `piece` lines among `lines`.
fn descriptions(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("setup ") || l.starts_with("piece "))
        .collect()
}

#[test]
fn xboard_describes_the_rulesets_it_does_not_play_itself() {
    let mut e = xboard_after_handshake();
    // Chess (`new`) and XBoard's own xiangqi and shogi: nothing to describe.
    e.send("new");
    e.send("variant xiangqi");
    e.send("new");
    e.send("variant shogi");
    e.send("new");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
    assert!(descriptions(&lines).is_empty(), "{lines:?}");
    // Capablanca: XBoard keeps its own array for its `capablanca` while it tests legality
    // (it ignores `setup` for a variant it knows, backend.c), so that name is our
    // Capablanca under `setup=standard` and nothing is described; the game goes on there.
    e.send("new");
    e.send("variant capablanca");
    e.send("ping 2");
    let lines = e.until(|l| l == "pong 2");
    assert!(descriptions(&lines).is_empty(), "{lines:?}");
    let standard = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    e.send("sd 2");
    e.send("usermove c1d3");
    let reply = e.line_starting("move ");
    let mv = reply.trim_start_matches("move ");
    assert!(
        referee("capablanca", Some(standard), &["c1d3"])
            .legal_moves()
            .contains(&mv.to_string()),
        "{mv}"
    );
    // Our own array is an engine-defined variant, a name XBoard does not know, for which it
    // takes the board, the letters of the pieces and the moves it does not know (castling
    // three cells) even with legality testing on.
    e.send("new");
    e.send("variant seed-capablanca");
    e.send("ping 3");
    let lines = e.until(|l| l == "pong 3");
    let sent = descriptions(&lines);
    assert_eq!(
        sent.first().copied(),
        Some(
            "setup (PNBRQ..ACKpnbrq..ack) 10x8+0_fairy \
             rnbcqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKABNR w KQkq - 0 1"
        ),
        "{lines:?}"
    );
    let mut pieces: Vec<&str> = sent[1..].to_vec();
    pieces.sort_unstable();
    assert_eq!(
        pieces,
        [
            "piece A& BN",
            "piece C& RN",
            "piece K& KO3",
            "piece P& fmWfceFifmnD"
        ]
    );
    assert!(!lines.iter().any(|l| l.starts_with('#')), "{lines:?}");
    // The game goes on in our array: the archbishop's knight move is answered.
    e.send("sd 2");
    e.send("usermove g1h3");
    let reply = e.line_starting("move ");
    let mv = reply.trim_start_matches("move ");
    assert!(
        referee("capablanca", None, &["g1h3"])
            .legal_moves()
            .contains(&mv.to_string()),
        "{mv}"
    );
    // Maharajah: White's maharajah is shown as XBoard's king, which XBoard would castle on
    // any move two cells along a rank unless its description has an `i` move.
    e.send("new");
    e.send("variant maharajah");
    e.send("ping 4");
    let lines = e.until(|l| l == "pong 4");
    assert!(descriptions(&lines).contains(&"piece M QNiQ"), "{lines:?}");
    // Tori shogi: holdings for six kinds, promoted pieces paired with their base, a
    // shogi-style start with empty holdings and the first player (XBoard's white) to move,
    // and the rules XBoard's shogi cannot be told as comments.
    e.send("new");
    e.send("variant torishogi");
    e.send("ping 5");
    let lines = e.until(|l| l == "pong 5");
    let sent = descriptions(&lines);
    let setup = sent.first().expect("a setup line");
    assert!(
        setup.starts_with("setup (") && setup.contains(") 7x7+6_shogi "),
        "{setup}"
    );
    assert!(
        setup.ends_with(" rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w - - 0 1"),
        "{setup}"
    );
    for needed in ["piece +S& fAbD", "piece +F& KfBbRbB2", "piece P& fDbF"] {
        assert!(sent.contains(&needed), "{needed}: {sent:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# S (swallow): must promote")),
        "{lines:?}"
    );
    // Every letter named by a piece line is in the setup's table.
    let table = &setup["setup (".len()..setup.find(')').expect("table")];
    for line in &sent[1..] {
        let name = line.split_whitespace().nth(1).expect("a name");
        let letter = name.trim_start_matches('+').trim_end_matches('&');
        assert!(table.contains(letter), "{line} not in {table}");
    }
    // Boards XBoard cannot draw or pieces that are not data: no setup.
    for variant in [
        "hexchess",
        "threeplayer",
        "gess",
        "congo",
        "avalanche",
        "darkchess",
    ] {
        e.send("new");
        e.send(&format!("variant {variant}"));
    }
    e.send("ping 6");
    let lines = e.until(|l| l == "pong 6");
    assert!(descriptions(&lines).is_empty(), "{lines:?}");
    // `new` is standard chess again.
    e.send("new");
    e.send("usermove e2e4");
    let reply = e.line_starting("move ");
    let mv = reply.trim_start_matches("move ").to_string();
    assert!(
        referee("chess", None, &["e2e4"])
            .legal_moves()
            .contains(&mv),
        "{mv}"
    );
    e.quit();
}

/// A word's value in an `info` line (`depth 3` → `3`).
fn info_field<'l>(line: &'l str, name: &str) -> Option<&'l str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == name)?;
    words.get(at + 1).copied()
}

/// A UCI score in centipawns, with mates far outside any evaluation.
fn info_score(line: &str) -> i64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    let n: i64 = words[at + 2].parse().expect("a number");
    match words[at + 1] {
        "cp" => n,
        "mate" if n > 0 => 1_000_000 - n,
        "mate" => -1_000_000 - n,
        other => panic!("score {other}"),
    }
}

#[test]
fn uci_multipv_reports_distinct_lines_best_first() {
    let mut e = Engine::start("uci");
    e.send("uci");
    let options = e.until(|l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 64"),
        "{options:?}"
    );
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info ") && info_field(l, "depth") == Some("3"))
        .collect();
    let numbers: Vec<&str> = last
        .iter()
        .filter_map(|l| info_field(l, "multipv"))
        .collect();
    assert_eq!(numbers, ["1", "2", "3"], "{lines:?}");
    let firsts: Vec<&str> = last
        .iter()
        .map(|l| info_field(l, "pv").expect("a line"))
        .collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let legal = referee("chess", None, &["e2e4", "e7e5"]).legal_moves();
    for mv in &firsts {
        assert!(legal.contains(&mv.to_string()), "{mv}");
    }
    let scores: Vec<i64> = last.iter().map(|l| info_score(l)).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(best_move(lines.last().expect("bestmove")), firsts[0]);
    // Out of range: an error.
    e.send("setoption name MultiPV value 0");
    e.line_starting("info string error");
    // Back to one line: one report per depth.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 2");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let depth_two = lines
        .iter()
        .filter(|l| l.starts_with("info ") && info_field(l, "depth") == Some("2"))
        .count();
    assert_eq!(depth_two, 1, "{lines:?}");
    e.quit();
}
