//! Conformance of our UCI server with Fairy-Stockfish itself, in Fairy-Stockfish's dialect:
//! seeded random games in every ruleset both play, the same `position … moves …` sent to
//! both engines at every ply, and the legal moves (`go perft 1`) and the FEN (`d`) of the two
//! compared. Odd games go on from a FEN after a few plies (`position fen <Fairy-Stockfish's
//! FEN> moves …`), so that both read each other's FENs too.
//!
//! Fairy-Stockfish is not part of this project and not in Debian: the test needs a binary
//! built by hand (`make build largeboards=yes all=yes`, for Capablanca and Grand chess), named
//! by `CHATURANGA_FAIRY_STOCKFISH`. It is `#[ignore]`d, so `.ci/run` never depends on it; run
//! it with
//!
//! ```text
//! CHATURANGA_FAIRY_STOCKFISH=/path/to/stockfish cargo test --release -p chaturanga \
//!     --test cli fairy_stockfish -- --ignored --nocapture
//! ```
//!
//! Run without the variable, it fails saying so: it never passes without comparing. The
//! number of games, their length and the seed can be changed (`CHATURANGA_FSF_GAMES`,
//! `CHATURANGA_FSF_PLIES`, `CHATURANGA_FSF_SEED`). docs/protocols.md records a run.
//!
//! The shared rulesets are those with a Fairy-Stockfish name in the catalogue and
//! Fairy-Stockfish's names for our rulesets under other options
//! (`chaturanga_variants::FAIRY_STOCKFISH_ALIASES`). The differences that are not errors are
//! listed below with their reasons ([`NOT_COMPARED`], [`DROP_MATE_LISTED`], [`compare_fens`],
//! [`Fens::DeadEnPassant`]);
//! any other difference fails the test with both engines' answers.

use chaturanga_variants::{FAIRY_STOCKFISH_ALIASES, implemented};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const ENV: &str = "CHATURANGA_FAIRY_STOCKFISH";

/// How long one answer may take (`go perft 1` and `d` answer at once).
const PATIENCE: Duration = Duration::from_secs(60);

/// Rulesets with a Fairy-Stockfish name that are not compared, and why.
const NOT_COMPARED: &[(&str, &str)] = &[(
    "bughouse",
    "not the same game over UCI: Fairy-Stockfish's `bughouse` is one board whose pockets \
     are filled from outside (by its XBoard `holding` commands), our UCI bughouse is both \
     boards of the game in one position (FEN `A:… | B:…`), the boards moving in turn",
)];

/// Rulesets where a drop may not mate (uchifuzume), with the man it concerns. Fairy-Stockfish
/// lists such a drop among the legal moves and scores the position after it as lost for the
/// dropping side (`Position::checkmate_value`); the rules make the drop illegal and we do not
/// list it (docs/rules/shogi.md Decision 6, minishogi.md Decision 6, torishogi.md Decision 9:
/// "cross-checks against FSF must allow for this"). Such a move is accepted as Fairy-
/// Stockfish's extra only when it is that man's drop and Fairy-Stockfish itself then shows the
/// side to move in check without a legal move.
const DROP_MATE_LISTED: &[(&str, char)] = &[("shogi", 'P'), ("minishogi", 'P'), ("torishogi", 'S')];

fn number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// One engine speaking UCI.
struct Engine {
    name: &'static str,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// What an engine says of one position.
#[derive(Debug)]
struct Answer {
    /// `go perft 1`'s moves, sorted.
    moves: Vec<String>,
    /// `d`'s `Fen:` line.
    fen: String,
    /// `d`'s `Checkers:` line, where the engine writes one (Fairy-Stockfish).
    checkers: Option<String>,
}

impl Engine {
    fn start(name: &'static str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name} ({program}): {e}"));
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
        let mut engine = Engine {
            name,
            child,
            input,
            lines,
        };
        engine.send("uci");
        engine.until("uci", |l| l == "uciok");
        engine
    }

    fn send(&mut self, text: &str) {
        writeln!(self.input, "{text}")
            .and_then(|()| self.input.flush())
            .unwrap_or_else(|e| panic!("{} no longer reads ({e}) after {text:?}", self.name));
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&mut self, asked: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                Err(e) => panic!(
                    "{} gave no full answer to {asked:?} ({e}); it said:\n{}",
                    self.name,
                    got.join("\n")
                ),
            }
        }
    }

    fn variant(&mut self, name: &str) {
        self.send(&format!("setoption name UCI_Variant value {name}"));
        self.send("ucinewgame");
        let said = {
            self.send("isready");
            self.until("setoption", |l| l == "readyok")
        };
        let errors: Vec<&String> = said.iter().filter(|l| l.contains("error")).collect();
        assert!(
            errors.is_empty(),
            "{} refused {name}: {errors:?}",
            self.name
        );
    }

    /// The legal moves and the FEN of the position `position` sets.
    fn ask(&mut self, position: &str) -> Answer {
        self.send(position);
        self.send("go perft 1");
        let perft = self.until(position, |l| l.starts_with("Nodes searched:"));
        let mut moves = Vec::new();
        for line in &perft {
            if let Some((mv, count)) = line.split_once(": ")
                && !mv.contains(' ')
                && count.parse::<u64>().is_ok()
            {
                assert_eq!(count, "1", "{}: perft 1 of {mv} in {position}", self.name);
                moves.push(mv.to_string());
            }
        }
        let total = perft.last().expect("the nodes line");
        assert_eq!(
            total,
            &format!("Nodes searched: {}", moves.len()),
            "{}: the moves and the total of `go perft 1` disagree after {position}:\n{}",
            self.name,
            perft.join("\n")
        );
        let errors: Vec<&String> = perft.iter().filter(|l| l.contains("error")).collect();
        assert!(
            errors.is_empty(),
            "{} refused {position}: {errors:?}",
            self.name
        );
        moves.sort();
        self.send("d");
        self.send("isready");
        let shown = self.until("d", |l| l == "readyok");
        let fens: Vec<&String> = shown.iter().filter(|l| l.starts_with("Fen: ")).collect();
        assert_eq!(
            fens.len(),
            1,
            "{}: `d` said\n{}",
            self.name,
            shown.join("\n")
        );
        Answer {
            moves,
            fen: fens[0]["Fen: ".len()..].to_string(),
            checkers: shown
                .iter()
                .find_map(|l| l.strip_prefix("Checkers:"))
                .map(|c| c.trim().to_string()),
        }
    }
}

impl Drop for Engine {
    /// `quit`, then the end of its input; an engine that has not ended a few seconds later
    /// (a wrapper script, a hung engine) is killed, so that a failure is reported, not hung.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How two FENs compare.
#[derive(Debug, PartialEq)]
enum Fens {
    Same,
    /// Only the en passant field differs: ours is `-`, Fairy-Stockfish's names a cell that no
    /// legal move captures onto. The rules' overview (docs/rules/README.md, "Positions, perft
    /// and results" 1) writes a target only when the player to move has a legal en passant
    /// capture onto it; Fairy-Stockfish writes it whenever one of that player's pawns
    /// attacks the cell, even a pinned one (`Position::do_move`). Seen in Capablanca chess.
    DeadEnPassant,
    Different,
}

/// Compares two FENs, up to one difference of writing that is not one of rules: the order of
/// the men in hand (`[…]`). A FEN's hand is a multiset, which both engines read in any order
/// (odd games send Fairy-Stockfish's FEN to both); Fairy-Stockfish writes it in its piece
/// types' order, we in SFEN's (R B G S N L P, `chaturanga_session::fen_to_fairy`). Everything
/// else, the halfmove clock and move number included, must be the same text.
fn compare_fens(ours: &str, theirs: &str, legal: &[String]) -> Fens {
    fn canonical(fen: &str) -> String {
        match (fen.find('['), fen.find(']')) {
            (Some(open), Some(close)) if open < close => {
                let mut hand: Vec<char> = fen[open + 1..close].chars().collect();
                hand.sort_unstable();
                let hand: String = hand.into_iter().collect();
                format!("{}[{hand}]{}", &fen[..open], &fen[close + 1..])
            }
            _ => fen.to_string(),
        }
    }
    let (ours, theirs) = (canonical(ours), canonical(theirs));
    if ours == theirs {
        return Fens::Same;
    }
    let fields = |fen: &str| -> Vec<String> { fen.split(' ').map(str::to_string).collect() };
    let (mut a, b) = (fields(&ours), fields(&theirs));
    if a.len() != 6 || b.len() != 6 {
        return Fens::Different;
    }
    if a[3] == "-" && b[3] != "-" && no_capture_onto(&b[3], &b[1], legal) {
        a[3] = b[3].clone();
        if a == b {
            return Fens::DeadEnPassant;
        }
    }
    Fens::Different
}

/// Whether no move of `legal` goes onto `cell` (`f6`, `e10`) from a cell diagonally behind it
/// for the side to move (`w` or `b`): then no en passant capture onto it is legal. (A move of
/// another man from such a cell counts too, so the answer errs towards "a capture exists",
/// which fails the comparison rather than excusing it.)
fn no_capture_onto(cell: &str, side: &str, legal: &[String]) -> bool {
    let Some(file) = cell.chars().next().filter(char::is_ascii_lowercase) else {
        return false;
    };
    let Ok(rank) = cell[1..].parse::<i32>() else {
        return false;
    };
    let from_rank = if side == "w" { rank - 1 } else { rank + 1 };
    let neighbours = [file as u8 as i32 - 1, file as u8 as i32 + 1];
    !neighbours.iter().any(|&f| {
        (i32::from(b'a')..=i32::from(b'z')).contains(&f) && {
            let from = format!("{}{from_rank}", f as u8 as char);
            legal
                .iter()
                .any(|m| m.starts_with(&format!("{from}{cell}")))
        }
    })
}

fn position(base: &Option<String>, moves: &[String]) -> String {
    let mut text = match base {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        text.push_str(" moves ");
        text.push_str(&moves.join(" "));
    }
    text
}

/// The Fairy-Stockfish names to compare under: the catalogue's and the aliases, once each,
/// without [`NOT_COMPARED`].
fn shared_variants() -> Vec<&'static str> {
    let mut names: Vec<&str> = implemented()
        .filter_map(|v| v.fairy_stockfish)
        .chain(FAIRY_STOCKFISH_ALIASES.iter().map(|a| a.name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names.retain(|n| NOT_COMPARED.iter().all(|(skip, _)| skip != n));
    names
}

/// What one ruleset's games compared.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    moves: usize,
    drop_mates: usize,
    dead_en_passant: usize,
}

#[test]
#[ignore = "needs Fairy-Stockfish: set CHATURANGA_FAIRY_STOCKFISH=path; see docs/protocols.md"]
fn fairy_stockfish_agrees_on_moves_and_fens_at_every_ply() {
    let program = std::env::var(ENV).unwrap_or_else(|_| {
        panic!(
            "{ENV} is not set: this test compares our UCI server with a Fairy-Stockfish binary \
             built by hand (`make build largeboards=yes all=yes` in its src/); it did not run. \
             See docs/protocols.md."
        )
    });
    let games = number("CHATURANGA_FSF_GAMES", 10) as usize;
    let max_plies = number("CHATURANGA_FSF_PLIES", 300) as usize;
    let mut rng = Rng(number("CHATURANGA_FSF_SEED", 20_261_204));
    let mut fsf = Engine::start("Fairy-Stockfish", &program, &[]);
    let mut us = Engine::start("chaturanga", env!("CARGO_BIN_EXE_chaturanga"), &["uci"]);
    let variants = shared_variants();
    assert!(variants.len() >= 9, "shared rulesets: {variants:?}");
    let mut report = Vec::new();
    for &variant in &variants {
        fsf.variant(variant);
        us.variant(variant);
        let drop_mate_man = DROP_MATE_LISTED
            .iter()
            .find(|(v, _)| *v == variant)
            .map(|&(_, man)| man);
        let mut tally = Tally::default();
        for game in 0..games {
            tally.games += 1;
            let mut base: Option<String> = None;
            let mut moves: Vec<String> = Vec::new();
            // Odd games are set up from Fairy-Stockfish's FEN after a few plies.
            let restart_at = if game % 2 == 1 { 4 + rng.below(12) } else { 0 };
            for ply in 0..max_plies {
                let asked = position(&base, &moves);
                let theirs = fsf.ask(&asked);
                let ours = us.ask(&asked);
                tally.plies += 1;
                let context = format!(
                    "{variant}, game {game}, ply {ply}: {asked}\n\
                     Fairy-Stockfish: {}\n  moves {:?}\nchaturanga:      {}\n  moves {:?}",
                    theirs.fen, theirs.moves, ours.fen, ours.moves
                );
                match compare_fens(&ours.fen, &theirs.fen, &ours.moves) {
                    Fens::Same => {}
                    Fens::DeadEnPassant => tally.dead_en_passant += 1,
                    _ => panic!("FENs differ: {context}"),
                }
                let our_set: BTreeSet<&String> = ours.moves.iter().collect();
                let their_set: BTreeSet<&String> = theirs.moves.iter().collect();
                let only_ours: Vec<&&String> = our_set.difference(&their_set).collect();
                assert!(only_ours.is_empty(), "moves only we list: {context}");
                let only_theirs: Vec<String> = their_set
                    .difference(&our_set)
                    .map(|m| m.to_string())
                    .collect();
                for extra in &only_theirs {
                    let man = drop_mate_man
                        .unwrap_or_else(|| panic!("moves only Fairy-Stockfish lists: {context}"));
                    assert!(
                        extra.starts_with(&format!("{man}@")),
                        "Fairy-Stockfish lists {extra}, which is no drop of {man}: {context}"
                    );
                    let mut after = moves.clone();
                    after.push(extra.clone());
                    let mated = fsf.ask(&position(&base, &after));
                    assert!(
                        mated.moves.is_empty()
                            && mated.checkers.as_deref().is_some_and(|c| !c.is_empty()),
                        "Fairy-Stockfish lists {extra}, which is not a drop mate \
                         (after it: {mated:?}): {context}"
                    );
                    tally.drop_mates += 1;
                }
                tally.moves += ours.moves.len();
                if ours.moves.is_empty() {
                    break;
                }
                if game % 2 == 1 && ply + 1 == restart_at {
                    // Fairy-Stockfish's FEN of the position after the next move.
                    moves.push(ours.moves[rng.below(ours.moves.len())].clone());
                    base = Some(fsf.ask(&position(&base, &moves)).fen);
                    moves.clear();
                } else {
                    moves.push(ours.moves[rng.below(ours.moves.len())].clone());
                }
            }
        }
        let line = format!(
            "{variant}: {} games, {} plies compared ({} legal moves); Fairy-Stockfish's extra \
             drop mates: {}; plies whose FENs differ only in an en passant cell no capture can \
             use: {}",
            tally.games, tally.plies, tally.moves, tally.drop_mates, tally.dead_en_passant
        );
        println!("{line}");
        report.push(line);
    }
    for (variant, why) in NOT_COMPARED {
        println!("{variant}: not compared: {why}");
    }
    assert_eq!(report.len(), variants.len());
}
