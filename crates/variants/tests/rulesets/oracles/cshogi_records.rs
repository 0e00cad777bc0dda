//! Differential test of the KIF and CSA game records (`chaturanga_notation::{kif, csa}`) against
//! cshogi (PyPI `cshogi` 1.1.0), both ways:
//!
//! - we write, cshogi reads: seeded random shogi games played by our engine (half from the
//!   start, half from positions reached by random moves, with pieces in hand and either player
//!   to move), plus a checkmate, a sennichite, a perpetual check and a declaration, are written
//!   as KIF and CSA; `cshogi.KIF.Parser` / `cshogi.CSA.Parser` read them, and the start SFEN,
//!   the moves (USI), the SFEN after the last move and the winner cshogi reports must be ours.
//!   cshogi's KIF parser reads no board diagram (only `手合割`), so KIF goes through it only
//!   for games from the start; our diagrams are compared with `cshogi.KIF.board_to_bod`
//!   instead. It also does not know `不成`, which the script removes (see its docstring).
//! - cshogi writes, we read: the script plays seeded random games with cshogi and writes them
//!   with `cshogi.KIF.Exporter` (`手合割：平手` or a board diagram) and `cshogi.CSA.Exporter`;
//!   we read them and must get cshogi's start SFEN, moves, final SFEN and resignation.
//!
//! `tests/oracles/cshogi_records.py` drives cshogi. The test needs `python3` (or
//! `CHATURANGA_PYTHON`) with cshogi; it fails, with instructions, when they are missing: it
//! never skips. `CSHOGI_SEED` overrides the seed.

use chaturanga_notation::record::Tags;
use chaturanga_notation::{csa, kif};
use chaturanga_rules::standard::Move;
use chaturanga_rules::{Game, Outcome, Position, Reason, RuleOptions, Ruleset, Status};
use chaturanga_variants::shogi::ShogiPosition;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};

const SEED: u64 = 20_261_130;
const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt` (cshogi==1.1.0), or set CHATURANGA_PYTHON to a Python that has them";

fn python() -> String {
    std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn seed() -> u64 {
    match std::env::var("CSHOGI_SEED") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("CSHOGI_SEED={v:?} is not a number")),
        Err(_) => SEED,
    }
}

/// Runs the oracle script with `args`, feeding it `input`; returns its output.
fn oracle(args: &[&str], input: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/cshogi_records.py"
    );
    let mut child = Command::new(python())
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; install Python 3 and {INSTALL}",
                python()
            )
        });
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the oracle runs");
    let written = writer.join().expect("the writer thread");
    // A failed oracle may not read its input: report its error first.
    assert!(
        output.status.success(),
        "the cshogi oracle failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    written.expect("the oracle reads its input");
    String::from_utf8(output.stdout).expect("utf-8 output")
}

fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> String {
    let bytes: Vec<u8> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex from the oracle"))
        .collect();
    String::from_utf8(bytes).expect("utf-8 record")
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

fn options(items: &[&str]) -> RuleOptions {
    RuleOptions::parse(ShogiPosition::option_specs(), items).expect("valid options")
}

fn start(sfen: Option<&str>, opts: &RuleOptions) -> ShogiPosition {
    match sfen {
        Some(s) => ShogiPosition::from_fen_with(opts, s).unwrap_or_else(|e| panic!("{s}: {e}")),
        None => ShogiPosition::start_position(opts).expect("the start position"),
    }
}

/// Random legal moves until the game ends or `plies` are played.
fn random_game(rng: &mut Rng, sfen: Option<&str>, plies: usize) -> Game<ShogiPosition> {
    let mut game = Game::new(start(sfen, &options(&[])));
    let mut moves = Vec::new();
    for _ in 0..plies {
        if let Status::Over(_) = game.status() {
            break;
        }
        moves.clear();
        game.position().legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        game.play(mv).expect("a legal move");
    }
    game
}

/// A position reached by random moves from the start, with move number 1.
fn random_start(rng: &mut Rng) -> String {
    loop {
        let plies = 20 + rng.below(50);
        let game = random_game(rng, None, plies);
        if let Status::Ongoing { .. } = game.status() {
            let fen = game.position().fen();
            let (rest, _) = fen.rsplit_once(' ').expect("an SFEN move number");
            return format!("{rest} 1");
        }
    }
}

fn usi(game: &Game<ShogiPosition>) -> String {
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(p, &m)| p.move_text(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Moves that decline a possible promotion (written with `不成` in KIF).
fn declined_promotions(game: &Game<ShogiPosition>) -> usize {
    let mut legal: Vec<Move> = Vec::new();
    game.positions()
        .iter()
        .zip(game.moves())
        .filter(|&(p, m)| {
            legal.clear();
            p.legal_moves(&mut legal);
            m.promotion.is_none()
                && legal
                    .iter()
                    .any(|o| o.from == m.from && o.to == m.to && o.promotion.is_some())
        })
        .count()
}

fn player(index: usize) -> &'static str {
    if index == 0 { "black" } else { "white" }
}

fn winner(outcome: &Outcome) -> Option<usize> {
    outcome.quarters.iter().position(|&q| q == 4)
}

/// The winner cshogi should report for our record of `game` in `format`.
fn expected_winner(format: &str, game: &Game<ShogiPosition>) -> &'static str {
    match (game.status(), format) {
        // cshogi 1.1.0's CSA parser scores %TSUMI as nothing, and nothing as 0 (= DRAW).
        (Status::Over(o), "csa") if o.reason == Reason::Checkmate => "draw",
        (Status::Over(o), _) => winner(&o).map_or("draw", player),
        (Status::Ongoing { .. }, "csa") => "draw",
        (Status::Ongoing { .. }, _) => "none",
    }
}

/// One record we wrote, and the game behind it.
struct Written {
    id: String,
    format: &'static str,
    text: String,
    game: Game<ShogiPosition>,
}

/// The games we write: random ones and a few with each kind of ending.
fn our_games(rng: &mut Rng) -> Vec<(String, Game<ShogiPosition>)> {
    let games_n = if cfg!(debug_assertions) { 24 } else { 40 };
    let mut games = Vec::new();
    for i in 0..games_n {
        let sfen = (i % 2 == 1).then(|| random_start(rng));
        let plies = 60 + rng.below(200);
        let mut game = random_game(rng, sfen.as_deref(), plies);
        if i % 3 == 0 && matches!(game.status(), Status::Ongoing { .. }) {
            let loser = game.position().side_to_move();
            game.end(Outcome::loss(2, loser, Reason::Resignation));
        }
        games.push((format!("random{i}"), game));
    }
    let after = |sfen: Option<&str>, opts: &[&str], moves: &[&str]| {
        let mut game = Game::new(start(sfen, &options(opts)));
        for m in moves {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        game
    };
    games.push((
        "mate".into(),
        after(Some("7nk/9/7G1/9/9/9/9/9/K8 b G 1"), &[], &["G*1b"]),
    ));
    let cycle = ["5i4h", "5a6b", "4h5i", "6b5a"];
    let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    games.push(("sennichite".into(), after(None, &[], &twelve)));
    let cycle = ["5e4e", "4a5a", "4e5e", "5a4a"];
    let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    games.push((
        "perpetual".into(),
        after(Some("5k3/9/9/9/4R4/9/9/9/K8 b - 1"), &[], &twelve),
    ));
    let mut declared = after(
        Some("RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b 2P2g2s2n4l16p 1"),
        &["impasse=declare27"],
        &[],
    );
    declared.perform("win").expect("a valid declaration");
    games.push(("declared".into(), declared));
    games
}

#[test]
fn we_write_cshogi_reads() {
    let mut rng = Rng(seed());
    let games = our_games(&mut rng);
    let mut tags = Tags::default();
    tags.set("Black", "Sente");
    tags.set("White", "Gote");
    let mut written: Vec<Written> = Vec::new();
    let mut diagrams: Vec<(String, String, String)> = Vec::new();
    for (id, game) in games {
        let from_start = game.start().fen() == chaturanga_variants::shogi::START_SFEN;
        let kif_text = kif::write(&game, &tags).expect("a KIF record");
        let csa_text = csa::write(&game, &tags).expect("a CSA record");
        // Every declined promotion is written with 不成 (the script removes them for cshogi).
        assert_eq!(
            kif_text.matches("不成").count(),
            declined_promotions(&game),
            "{id}: 不成 in\n{kif_text}"
        );
        if from_start {
            written.push(Written {
                id: format!("{id}-kif"),
                format: "kif",
                text: kif_text,
                game: game.clone(),
            });
        } else {
            let start = kif_text
                .find("後手の持駒：")
                .expect("a board diagram for a set-up position");
            // The players' names follow the diagram.
            let end = kif_text.find("先手：Sente").expect("the players");
            diagrams.push((
                format!("{id}-bod"),
                game.start().fen(),
                kif_text[start..end].to_string(),
            ));
        }
        written.push(Written {
            id: format!("{id}-csa"),
            format: "csa",
            text: csa_text,
            game,
        });
    }
    let mut input = String::new();
    for w in &written {
        input.push_str(&format!("{}\t{}\t{}\n", w.id, w.format, hex(&w.text)));
    }
    for (id, sfen, _) in &diagrams {
        input.push_str(&format!("{id}\tbod\t{}\n", hex(sfen)));
    }
    let output = oracle(&["read"], &input);
    let lines: HashMap<&str, Vec<&str>> = output
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            (fields[0], fields)
        })
        .collect();
    let (mut finished, mut declined, mut drops) = (0, 0, 0);
    for w in &written {
        let f = lines
            .get(w.id.as_str())
            .unwrap_or_else(|| panic!("{}: no answer from the oracle", w.id));
        let context = format!("{}: our record\n{}", w.id, w.text);
        assert_eq!(f.len(), 6, "{context}");
        assert_eq!(f[1], w.game.start().fen(), "start SFEN; {context}");
        assert_eq!(f[2], usi(&w.game), "moves; {context}");
        assert_eq!(f[3], w.game.position().fen(), "final SFEN; {context}");
        assert_eq!(
            f[4],
            expected_winner(w.format, &w.game),
            "winner; {context}"
        );
        if let Some(ending) = w.text.lines().last().filter(|l| l.starts_with('%')) {
            assert_eq!(f[5], ending, "ending; {context}");
        }
        if matches!(w.game.status(), Status::Over(_)) {
            finished += 1;
        }
        declined += declined_promotions(&w.game);
        drops += usi(&w.game).matches('*').count();
    }
    for (id, _, ours) in &diagrams {
        let f = &lines[id.as_str()];
        let theirs = unhex(f[1]);
        // cshogi writes the player to move only when it is White (後手番).
        let ours: String = ours
            .lines()
            .filter(|l| *l != "先手番")
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(ours, format!("{theirs}\n"), "{id}: board diagram");
    }
    assert!(
        written.len() > 40,
        "only {} records compared",
        written.len()
    );
    assert!(finished >= 8, "only {finished} finished games");
    assert!(
        declined > 0 && drops > 0,
        "no declined promotion or no drop"
    );
    assert!(!diagrams.is_empty());
    eprintln!(
        "cshogi read {} records ({finished} finished games, {declined} declined promotions, {drops} drops) and {} diagrams",
        written.len(),
        diagrams.len()
    );
}

#[test]
fn cshogi_writes_we_read() {
    let games = if cfg!(debug_assertions) { "16" } else { "30" };
    let seed = seed().to_string();
    let output = oracle(&["write", &seed, games, "150"], "");
    let opts = options(&[]);
    let (mut records, mut diagrams, mut resigned) = (0, 0, 0);
    for line in output.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "oracle line {line:?}");
        let (id, format, start, moves, last, ending) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let text = unhex(f[6]);
        let context = format!("{id} ({format}): cshogi's record\n{text}");
        let parsed = match format {
            "kif" => kif::parse(&text),
            _ => csa::parse(&text),
        }
        .unwrap_or_else(|e| panic!("{e}; {context}"));
        assert_eq!(parsed.len(), 1, "{context}");
        let game: Game<ShogiPosition> = match format {
            "kif" => kif::replay(&parsed[0], &opts),
            _ => csa::replay(&parsed[0], &opts),
        }
        .unwrap_or_else(|e| panic!("{e}; {context}"));
        assert_eq!(game.start().fen(), start, "start SFEN; {context}");
        assert_eq!(usi(&game), moves, "moves; {context}");
        assert_eq!(game.position().fen(), last, "final SFEN; {context}");
        if ending == "resign" {
            let Status::Over(o) = game.status() else {
                panic!("the resignation is lost; {context}");
            };
            assert_eq!(
                winner(&o),
                Some(1 - game.position().side_to_move()),
                "{context}"
            );
            resigned += 1;
        } else {
            assert!(
                !matches!(game.status(), Status::Over(o) if o.reason == Reason::Resignation),
                "{context}"
            );
        }
        if format == "kif" && text.contains("後手の持駒") {
            diagrams += 1;
        }
        records += 1;
    }
    assert!(records >= 32, "only {records} records read");
    assert!(diagrams > 0 && resigned > 0);
    eprintln!(
        "read {records} cshogi records ({diagrams} with a board diagram, {resigned} resigned)"
    );
}
