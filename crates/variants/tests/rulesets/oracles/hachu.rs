//! Differential test of chu and dai shogi move generation against HaChu (H. G. Muller's XBoard
//! engine for the large shogi variants, Debian package `hachu` 0.21-29-gdf26f4a).
//!
//! Seeded random games are played with our engine (from the start position, and short ones
//! from the rules files' scenarios); at a sample of their positions (every few plies, and
//! every position in which chu's counter-strike rule is in force) HaChu is asked, through
//! `tests/oracles/hachu_check.py` (which speaks XBoard's protocol to it; its docstring has the
//! protocol details), about
//! (a) every move we generate: HaChu must accept it;
//! (b) every from-to pair of the side to move for single-step and jump moves that we do not
//!     generate: every cell of the 5×5 square around each piece (steps, jumps, knight moves,
//!     lion moves), as a plain move; the other promotion choice of each of our single-step
//!     moves (`+` where we generate only the plain move, none where we generate only the
//!     promotion); and the pass (`@@@@`) when we have none: HaChu must reject them;
//! (c) every further move of HaChu's own move list (two-step moves and long slides among
//!     them): HaChu accepts them, so each must be one of ours.
//!
//! HaChu's rules: chu with its default options (lion-trading rules on, "Promote on entry"),
//! dai with "Promote on entry" off (any move starting or ending in the zone may promote), as
//! our defaults. HaChu cannot read the counter-strike cell from a FEN; such positions are set
//! up as the previous position and the move that took the lion.
//!
//! Notation is translated in both directions: our cells (files 1.. from the right as Black sees
//! the board, ranks a.. from the top) to XBoard's (files a.. from Black's left, ranks 1.. from
//! Black's side: our 7j is f3 in chu), two-step moves `7j6i5h` to HaChu's `f3g4,g4h5`, igui
//! `6f6e6f` to `g7g8,g8g7`, every pass to `@@@@`, and HaChu's moves back. HaChu calls our
//! Black (upper case, sente) "white" and writes `w` when it is to move.
//!
//! Every difference is either filtered in [`explain`], with the rules file and HaChu behaviour
//! it comes from (all listed in `docs/decisions.md`, "HaChu differences (chu and dai shogi)"),
//! or fails the test with the position, the game leading to it, the move and the HaChu setup.
//! The largest filter: HaChu accepts moves that leave the mover's royal pieces capturable (it
//! tests no royal safety); each is filtered only if our engine generates it once the royal
//! pieces are out of danger (so it is one of our pseudo-legal moves) and HaChu itself, in the
//! position after it, accepts a move that takes the royal pieces.
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) and the `hachu` binary (on PATH, in
//! `/usr/games`, or `HACHU`); it fails, with instructions, when they are missing: it never
//! skips. `HACHU_GAMES`, `HACHU_PLIES`, `HACHU_EVERY`, `HACHU_SEED` override the number of
//! games from the start position, their length, the sampling interval and the seed;
//! `HACHU_QUERIES=<path>` saves the queries sent to hachu_check.py. A release run takes about
//! a minute and a half (HaChu answers a probe in a fraction of a millisecond, but a move it
//! accepts costs it a search of the position after it).

use crate::common;

use chaturanga_rules::{Position, RuleOptions, Ruleset, SetupError, SetupProblem};
use chaturanga_variants::chushogi::ChuShogiPosition;
use chaturanga_variants::daishogi::DaiShogiPosition;
use common::Rng;
use common::oracle::python;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::{Command, Stdio};

const INSTALL: &str = "install HaChu with `apt-get install -y hachu` (Debian/Ubuntu package `hachu`; CI does this in .ci/run), or set HACHU to the binary";

/// One variant's test setup.
struct Config {
    /// HaChu's variant name.
    hachu: &'static str,
    /// Board size.
    size: usize,
    /// Depth of the promotion zone.
    zone: usize,
    /// Our rule options (defaults).
    options: &'static [&'static str],
    /// HaChu's engine options, `;`-separated (`-` for none).
    hachu_options: &'static str,
    /// Symbols (upper case) of the lion-type pieces, the pawn and the go-between.
    lions: &'static [&'static str],
    pawn: &'static str,
    go_between: &'static str,
    /// Positions of the rules file's scenarios: one short game from each, starting with the
    /// given moves.
    scenarios: &'static [(&'static str, &'static [&'static str])],
    /// Games from the start position, their plies, and the sampling interval (debug, release).
    games: (u64, u64),
    plies: (u64, u64),
    every: (u64, u64),
    seed: u64,
}

const CHU: Config = Config {
    hachu: "chu",
    size: 12,
    zone: 4,
    options: &[],
    // HaChu's default, "Promote on entry" on: non-captures promote only on entering the zone,
    // which is chu's seed rule (chushogi.md, Promotion).
    hachu_options: "-",
    lions: &["N", "+O"],
    pawn: "P",
    go_between: "I",
    scenarios: &[
        ("g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1", &[]),
        ("6k5/12/6g5/6n5/12/6N5/12/12/12/12/12/5K6 b - 1", &[]),
        ("6k5/12/12/6n5/12/6N5/12/12/6r5/12/12/5K6 b - 1", &[]),
        ("6k5/12/6g5/6n5/6s5/6N5/12/12/12/12/12/5K6 b - 1", &[]),
        ("6k5/12/6g5/6n5/6p5/6N5/12/12/12/12/12/5K6 b - 1", &[]),
        ("k11/7N4/6p5/6n5/12/12/12/12/12/12/12/5K6 b - 1", &[]),
        // Counter-strike: the gold takes the lion first.
        (
            "6k2n2/12/9R2/12/12/12/6g5/6N5/12/12/12/5K6 w - 1",
            &["6g6h"],
        ),
        ("k10g/12/7p4/12/6S5/12/12/12/12/12/12/5K6 b - 1", &[]),
        ("k11/9P2/s5g5/6P4L/12/12/12/12/12/12/12/5K6 b - 1", &[]),
        ("6k5/5r6/12/12/12/12/12/12/12/12/12/S4K5+E b - 1", &[]),
        ("6k5/12/12/12/11R/12/12/12/12/12/5n6/5K+E5 b - 1", &[]),
        ("g5k5/12/12/6p5/6p5/6+H5/12/12/12/12/12/5K6 b - 1", &[]),
    ],
    games: (2, 4),
    plies: (60, 200),
    every: (20, 14),
    seed: 20_261_130,
};

const DAI: Config = Config {
    hachu: "dai",
    size: 15,
    zone: 5,
    options: &[],
    // Dai's rule (daishogi.md, Promotion): any move starting or ending in the zone may
    // promote. That is HaChu with "Promote on entry" off.
    hachu_options: "Promote on entry=0",
    lions: &["L!", "+O"],
    pawn: "P",
    go_between: "P'",
    scenarios: &[
        (
            "3g3k7/15/15/15/15/15/7p7/7X'7/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "3g3k7/15/15/15/15/15/6p1P6/7F'7/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "3g3k7/15/15/15/15/15/15/7W7/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "3g3k7/15/15/15/11I3/7I7/15/15/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "g4k9/8U3P1I/1I13/3N11/15/15/15/15/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "7k7/15/15/15/7g7/7l!7/15/7L!7/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "3g3k7/15/15/15/15/7E4P'2/15/15/15/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
        (
            "3g3k7/15/15/15/15/15/7p7/7p7/7L!7/15/15/15/15/15/7K7 b - 1",
            &[],
        ),
    ],
    games: (1, 3),
    plies: (60, 240),
    every: (20, 16),
    seed: 20_261_131,
};

fn env_or(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a non-negative number")),
        Err(_) => default,
    }
}

fn pick((debug, release): (u64, u64)) -> u64 {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

/// Fails, with the instruction, unless the HaChu binary is there.
fn require_hachu() {
    let mut candidates: Vec<std::path::PathBuf> = Vec::new();
    if let Ok(h) = std::env::var("HACHU") {
        candidates.push(h.into());
    }
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("hachu")));
    }
    candidates.push("/usr/games/hachu".into());
    assert!(
        candidates.iter().any(|c| c.is_file()),
        "the `hachu` binary is missing: {INSTALL}"
    );
}

// ---------------------------------------------------------------------------------------------
// Board and notation

/// A cell: row 0 is rank a (the top), column 0 the leftmost file (file `size`, XBoard's `a`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Sq {
    row: usize,
    col: usize,
}

/// A move read from our notation: cells and promotion.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Mv {
    from: Sq,
    via: Option<Sq>,
    to: Sq,
    promote: bool,
}

/// The board of a FEN as cell tokens (`P`, `+A'`, `l!`), row by row.
#[derive(Clone)]
struct Board {
    size: usize,
    cells: Vec<Option<String>>,
}

impl Board {
    fn parse(size: usize, text: &str) -> Board {
        let mut cells = Vec::with_capacity(size * size);
        for row in text.split('/') {
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0;
            let start = cells.len();
            while i < chars.len() {
                if chars[i].is_ascii_digit() {
                    let mut j = i;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    let n: usize = chars[i..j].iter().collect::<String>().parse().unwrap();
                    cells.extend(std::iter::repeat_n(None, n));
                    i = j;
                    continue;
                }
                let mut j = if chars[i] == '+' { i + 2 } else { i + 1 };
                while j < chars.len() && (chars[j] == '\'' || chars[j] == '!') {
                    j += 1;
                }
                cells.push(Some(chars[i..j].iter().collect()));
                i = j;
            }
            assert_eq!(cells.len() - start, size, "row {row:?} of {text:?}");
        }
        assert_eq!(cells.len(), size * size, "board {text:?}");
        Board { size, cells }
    }

    fn write(&self) -> String {
        let mut rows = Vec::new();
        for r in 0..self.size {
            let mut text = String::new();
            let mut empty = 0;
            for c in 0..self.size {
                match &self.cells[r * self.size + c] {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text += t;
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            rows.push(text);
        }
        rows.join("/")
    }

    fn at(&self, s: Sq) -> Option<&str> {
        self.cells[s.row * self.size + s.col].as_deref()
    }

    fn set(&mut self, s: Sq, piece: Option<String>) {
        self.cells[s.row * self.size + s.col] = piece;
    }

    /// Whether the cell holds a piece of `upper` (the upper-case side, our Black).
    fn owned_by(&self, s: Sq, upper: bool) -> bool {
        self.at(s).is_some_and(|t| is_upper(t) == upper)
    }

    fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        (0..self.size).flat_map(move |row| (0..self.size).map(move |col| Sq { row, col }))
    }

    fn offset(&self, s: Sq, dr: i64, dc: i64) -> Option<Sq> {
        let (r, c) = (s.row as i64 + dr, s.col as i64 + dc);
        let n = self.size as i64;
        (0..n)
            .contains(&r)
            .then_some(())
            .filter(|_| (0..n).contains(&c))
            .map(|_| Sq {
                row: r as usize,
                col: c as usize,
            })
    }
}

fn is_upper(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_uppercase())
}

/// The piece's symbol in upper case (`+a'` -> `+A'`).
fn symbol(token: &str) -> String {
    token.to_ascii_uppercase()
}

fn our_cell(size: usize, s: Sq) -> String {
    format!("{}{}", size - s.col, (b'a' + s.row as u8) as char)
}

fn xb_cell(size: usize, s: Sq) -> String {
    format!("{}{}", (b'a' + s.col as u8) as char, size - s.row)
}

/// Reads the cells of our notation (`7j6i5h+`).
fn parse_ours(size: usize, text: &str) -> Mv {
    let promote = text.ends_with('+');
    let body = text.trim_end_matches('+');
    let mut cells = Vec::new();
    let mut digits = String::new();
    for ch in body.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
        } else {
            let file: usize = digits.parse().unwrap_or_else(|_| panic!("move {text:?}"));
            digits.clear();
            cells.push(Sq {
                row: (ch as u8 - b'a') as usize,
                col: size - file,
            });
        }
    }
    match cells.as_slice() {
        [a, b] => Mv {
            from: *a,
            via: None,
            to: *b,
            promote,
        },
        [a, v, b] => Mv {
            from: *a,
            via: Some(*v),
            to: *b,
            promote,
        },
        _ => panic!("cannot read move {text:?}"),
    }
}

fn write_ours(size: usize, mv: &Mv) -> String {
    let mut s = our_cell(size, mv.from);
    if let Some(v) = mv.via {
        s += &our_cell(size, v);
    }
    s += &our_cell(size, mv.to);
    if mv.promote {
        s.push('+');
    }
    s
}

/// Reads an XBoard square (`g10`).
fn parse_xb_cell(size: usize, text: &str) -> Sq {
    let col = (text.as_bytes()[0] - b'a') as usize;
    let rank: usize = text[1..]
        .parse()
        .unwrap_or_else(|_| panic!("square {text:?}"));
    assert!(col < size && (1..=size).contains(&rank), "square {text:?}");
    Sq {
        row: size - rank,
        col,
    }
}

/// Splits `g7g10+` into its squares and the suffix.
fn xb_squares(size: usize, text: &str) -> (Vec<Sq>, String) {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_lowercase() {
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j == i + 1 {
            break;
        }
        out.push(parse_xb_cell(size, &text[i..j]));
        i = j;
    }
    (out, text[i..].to_string())
}

/// A move of ours (its key, see [`key`]) in XBoard notation: `f3g4`, `f3g4,g4h5+`, `@@@@`.
fn to_xboard(size: usize, key: &str) -> String {
    if key == PASS {
        return "@@@@".to_string();
    }
    let mv = parse_ours(size, key);
    let plus = if mv.promote { "+" } else { "" };
    match mv.via {
        None => format!("{}{}{plus}", xb_cell(size, mv.from), xb_cell(size, mv.to)),
        Some(v) => format!(
            "{}{},{}{}{plus}",
            xb_cell(size, mv.from),
            xb_cell(size, v),
            xb_cell(size, v),
            xb_cell(size, mv.to)
        ),
    }
}

/// An XBoard move back in our notation (a key).
fn from_xboard(size: usize, text: &str) -> String {
    if text.starts_with('@') {
        return PASS.to_string();
    }
    let legs: Vec<&str> = text.split(',').collect();
    let mv = match legs.as_slice() {
        [one] => {
            let (sq, rest) = xb_squares(size, one);
            assert_eq!(sq.len(), 2, "HaChu move {text:?}");
            Mv {
                from: sq[0],
                via: None,
                to: sq[1],
                promote: !rest.is_empty(),
            }
        }
        [first, second] => {
            let (a, _) = xb_squares(size, first);
            let (b, rest) = xb_squares(size, second);
            assert!(
                a.len() == 2 && b.len() == 2 && a[1] == b[0],
                "HaChu move {text:?}"
            );
            Mv {
                from: a[0],
                via: Some(a[1]),
                to: b[1],
                promote: !rest.is_empty(),
            }
        }
        _ => panic!("HaChu move {text:?}"),
    };
    write_ours(size, &mv)
}

/// Every pass is the same move (the board does not change), and HaChu writes them all `@@@@`.
const PASS: &str = "pass";

/// The comparison key of one of our moves: its text, or [`PASS`].
fn key(board: &Board, text: &str) -> String {
    let mv = parse_ours(board.size, text);
    match mv.via {
        Some(v) if mv.from == mv.to && board.at(v).is_none() => PASS.to_string(),
        _ => text.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Positions

/// A sampled position: our FEN, what HaChu is set up with, and the candidate moves.
struct Sample {
    fen: String,
    /// The game that led here, for messages.
    history: String,
    /// XBoard FEN and setup moves for HaChu.
    hachu_fen: String,
    setup: Vec<String>,
    /// Candidate keys: ours (expected accepted) and not ours (expected rejected).
    ours: BTreeSet<String>,
    probes: Vec<String>,
}

/// XBoard's FEN of one of ours: the board, and `w` when our Black (upper case) is to move.
fn xboard_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{board} {side}")
}

/// The cells of the 5×5 square around `from`: the from-to pairs of steps and jumps (every
/// piece's single-step and jump moves, knight and lion moves included) probed as plain moves.
/// Longer moves along lines need no probe of their own: HaChu accepts only the moves of its
/// own list (and declined promotions of them), which are probed as the extra moves.
fn targets(board: &Board, from: Sq) -> Vec<Sq> {
    let mut out = Vec::new();
    for dr in -2..=2 {
        for dc in -2..=2 {
            if (dr, dc) != (0, 0)
                && let Some(s) = board.offset(from, dr, dc)
            {
                out.push(s);
            }
        }
    }
    out
}

fn sample<P: Position>(
    cfg: &Config,
    p: &P,
    history: String,
    parent: Option<(&P, String)>,
) -> Sample {
    let fen = p.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = Board::parse(cfg.size, fields[0]);
    let upper = fields[1] == "b";
    let ours: BTreeSet<String> = common::legal_texts(p)
        .iter()
        .map(|t| key(&board, t))
        .collect();
    let mut probes: Vec<String> = ours.iter().cloned().collect();
    let mut toggled = BTreeSet::new();
    // The other promotion choice of each single-step move of ours.
    for k in &ours {
        if k == PASS || parse_ours(cfg.size, k).via.is_some() {
            continue;
        }
        let plain = k.trim_end_matches('+').to_string();
        let promoted = format!("{plain}+");
        for other in [plain, promoted] {
            if !ours.contains(&other) && toggled.insert(other.clone()) {
                probes.push(other);
            }
        }
    }
    // The from-to pairs of steps and jumps that we do not generate at all.
    for from in board.squares().filter(|&s| board.owned_by(s, upper)) {
        for to in targets(&board, from) {
            let plain = write_ours(
                cfg.size,
                &Mv {
                    from,
                    via: None,
                    to,
                    promote: false,
                },
            );
            if !ours.contains(&plain) && !ours.contains(&format!("{plain}+")) {
                probes.push(plain);
            }
        }
    }
    if !ours.contains(PASS) {
        probes.push(PASS.to_string());
    }
    // HaChu cannot be told about the counter-strike rule in a FEN: give it the previous
    // position and the move that took the lion.
    let (hachu_fen, setup) = match parent {
        Some((q, mv)) if fields[2] != "-" => {
            let qb = Board::parse(cfg.size, q.fen().split_whitespace().next().unwrap());
            (
                xboard_fen(&q.fen()),
                vec![to_xboard(cfg.size, &key(&qb, &mv))],
            )
        }
        _ => (xboard_fen(&fen), Vec::new()),
    };
    Sample {
        fen,
        history,
        hachu_fen,
        setup,
        ours,
        probes,
    }
}

/// Random games; the positions sampled from them.
fn play<P: Position + Ruleset>(cfg: &Config, options: &RuleOptions) -> Vec<Sample> {
    let seed = env_or("HACHU_SEED", cfg.seed);
    let games = env_or("HACHU_GAMES", pick(cfg.games));
    let plies = env_or("HACHU_PLIES", pick(cfg.plies));
    let every = env_or("HACHU_EVERY", pick(cfg.every)).max(1);
    let mut starts: Vec<(P, u64, &[&str])> = Vec::new();
    for _ in 0..games {
        starts.push((
            P::start_position(options).expect("start position"),
            plies,
            &[],
        ));
    }
    for (fen, opening) in cfg.scenarios {
        let p = P::from_fen_with(options, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        starts.push((p, plies.min(40), opening));
    }
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for (n, (start, plies, opening)) in starts.into_iter().enumerate() {
        let offset = rng.below(every as usize) as u64;
        let mut p = start.clone();
        let mut parent: Option<(P, String)> = None;
        let mut texts: Vec<String> = Vec::new();
        for ply in 0..=plies {
            moves.clear();
            p.legal_moves(&mut moves);
            if moves.is_empty() || p.decided_outcome().is_some() {
                break;
            }
            // Every scenario's first position, every `every` plies, and every position in
            // which the counter-strike rule is in force.
            let counter_strike = p.fen().split_whitespace().nth(2) != Some("-");
            if ply % every == offset || (ply == 0 && n >= games as usize) || counter_strike {
                let history = format!(
                    "game {n} from `{}`, moves: {}",
                    start.fen(),
                    if texts.is_empty() {
                        "(none)".to_string()
                    } else {
                        texts.join(" ")
                    }
                );
                out.push(sample(
                    cfg,
                    &p,
                    history,
                    parent.as_ref().map(|(q, m)| (q, m.clone())),
                ));
            }
            let mv = match opening.get(ply as usize) {
                Some(text) => p
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen())),
                None => moves[rng.below(moves.len())],
            };
            let text = p.move_text(mv);
            let before = p.clone();
            p.play_unchecked(mv);
            parent = Some((before, text.clone()));
            texts.push(text);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// HaChu

/// One question to HaChu (all in XBoard notation): the position (XBoard FEN and moves to play
/// from it), the moves to ask about, and whether to add HaChu's own further moves.
struct Query {
    fen: String,
    setup: Vec<String>,
    probes: Vec<String>,
    extra: bool,
}

/// HaChu's answer: a verdict per probe, the further moves it accepts, and the moves after
/// which it crashed (accepted; see hachu_check.py).
struct Reply {
    verdicts: Vec<bool>,
    extra: Vec<String>,
    crashes: Vec<String>,
}

/// Runs `tests/oracles/hachu_check.py` on the queries. `what` names them in messages.
fn hachu(cfg: &Config, queries: &[Query], what: &[String]) -> Vec<Reply> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/hachu_check.py"
    );
    let mut input = String::new();
    for (i, q) in queries.iter().enumerate() {
        input += &format!(
            "{i}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            cfg.hachu,
            cfg.hachu_options,
            if q.extra { "extra" } else { "-" },
            q.fen,
            q.setup.join(" "),
            q.probes.join(" ")
        );
    }
    if let Ok(path) = std::env::var("HACHU_QUERIES") {
        let path = format!("{path}.{}.{}", cfg.hachu, queries.len());
        std::fs::write(path, &input).expect("writing HACHU_QUERIES");
    }
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} {script}: {e}; install Python 3 (or set CHATURANGA_PYTHON) and {INSTALL}",
                python()
            )
        });
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("hachu_check.py output");
    writer
        .join()
        .expect("writer thread")
        .expect("writing the queries");
    assert!(
        output.status.success(),
        "hachu_check.py failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), queries.len(), "answers from hachu_check.py");
    let mut replies = Vec::new();
    for (i, (line, q)) in lines.iter().zip(queries).enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[0], i.to_string(), "answer order");
        assert!(
            fields.len() == 5 && fields[1] == "ok",
            "HaChu could not answer for {} (set up with `setboard {}` and moves {:?}): {}",
            what[i],
            q.fen,
            q.setup,
            fields[1..].join(" ")
        );
        assert_eq!(fields[2].len(), q.probes.len(), "verdicts for query {i}");
        let crashes = fields[4].rsplit("crashes=").next().unwrap_or("-");
        replies.push(Reply {
            verdicts: fields[2].bytes().map(|v| v == b'1').collect(),
            extra: fields[3].split_whitespace().map(str::to_string).collect(),
            crashes: crashes
                .split(',')
                .filter(|c| *c != "-")
                .map(str::to_string)
                .collect(),
        });
    }
    replies
}

/// HaChu's verdicts for one sample, as keys of our notation.
struct Answer {
    accepted: BTreeSet<String>,
    rejected: BTreeSet<String>,
    extra: BTreeSet<String>,
    crashes: Vec<String>,
}

fn ask_about_samples(cfg: &Config, samples: &[Sample]) -> Vec<Answer> {
    let queries: Vec<Query> = samples
        .iter()
        .map(|s| {
            // Several keys can have the same XBoard text (all passes): ask once.
            let mut seen = BTreeSet::new();
            Query {
                fen: s.hachu_fen.clone(),
                setup: s.setup.clone(),
                probes: s
                    .probes
                    .iter()
                    .map(|k| to_xboard(cfg.size, k))
                    .filter(|x| seen.insert(x.clone()))
                    .collect(),
                extra: true,
            }
        })
        .collect();
    let what: Vec<String> = samples.iter().map(|s| s.fen.clone()).collect();
    let replies = hachu(cfg, &queries, &what);
    let keys = |list: &[String]| -> Vec<String> {
        list.iter().map(|x| from_xboard(cfg.size, x)).collect()
    };
    queries
        .iter()
        .zip(replies)
        .map(|(q, r)| {
            let mut answer = Answer {
                accepted: BTreeSet::new(),
                rejected: BTreeSet::new(),
                extra: keys(&r.extra).into_iter().collect(),
                crashes: keys(&r.crashes),
            };
            for (xb, ok) in q.probes.iter().zip(r.verdicts) {
                let k = from_xboard(cfg.size, xb);
                if ok {
                    answer.accepted.insert(k);
                } else {
                    answer.rejected.insert(k);
                }
            }
            answer
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Classification of the differences

/// What a difference is.
enum Verdict {
    /// A documented rule difference or HaChu behaviour (the reason).
    Filtered(&'static str),
    /// A move that HaChu accepts and that is one of our pseudo-legal moves but leaves the
    /// mover's royal pieces capturable by our reckoning; HaChu is asked to confirm (see
    /// [`royal_captures`]).
    RoyalSafety,
    /// Neither: a bug (or an unknown difference).
    Unexplained,
}

/// Why a difference is not a bug of ours.
fn explain<P: Position + Ruleset>(
    cfg: &Config,
    options: &RuleOptions,
    s: &Sample,
    k: &str,
    hachu_accepts: bool,
) -> Verdict {
    let fields: Vec<&str> = s.fen.split_whitespace().collect();
    let board = Board::parse(cfg.size, fields[0]);
    let upper = fields[1] == "b";
    if k == PASS {
        // A pass leaves the board as it is: illegal for us when the side to move is in check.
        let board_fen = format!("{} {} - 1", fields[0], if upper { "w" } else { "b" });
        let in_check = matches!(P::from_fen_with(options, &board_fen), Err(SetupError::Invalid(problems)) if problems.contains(&SetupProblem::OpponentInCheck));
        if hachu_accepts
            && in_check
            && legal_with_extra_royal::<P>(options, &board, &fields, None, k)
        {
            return Verdict::RoyalSafety;
        }
        return Verdict::Unexplained;
    }
    let mv = parse_ours(cfg.size, k);
    let Some(piece) = board.at(mv.from).map(symbol) else {
        return Verdict::Unexplained;
    };
    let captures =
        board.owned_by(mv.to, !upper) || mv.via.is_some_and(|v| board.owned_by(v, !upper));
    let in_zone = |sq: Sq| {
        if upper {
            sq.row < cfg.zone
        } else {
            sq.row >= cfg.size - cfg.zone
        }
    };
    let last_ranks = |sq: Sq, n: usize| {
        if upper {
            sq.row < n
        } else {
            sq.row >= cfg.size - n
        }
    };
    let plain = k.trim_end_matches('+').to_string();
    if hachu_accepts {
        // chushogi.md / daishogi.md, "Royal pieces and check": a move may not leave all the
        // mover's royal pieces capturable in one move. HaChu tests no royal safety in user
        // moves (hachu.c ParseMove only looks the move up in its pseudo-legal root list; the
        // engine plays by capturing the king), so it accepts such moves. Confirmed per move
        // with HaChu itself in `run`.
        if exposes_royals::<P>(options, &board, fields[1], &mv)
            && legal_with_extra_royal::<P>(options, &board, &fields, Some(&mv), k)
        {
            return Verdict::RoyalSafety;
        }
        // chushogi.md, Promotion: a pawn may not promote by a capture made from inside the
        // zone (only on entering it or on the last rank; `promotion=lishogi` allows it). HaChu
        // lets every capture that starts or ends in the zone promote (hachu.c NewCapture).
        if cfg.hachu == "chu"
            && mv.promote
            && piece == cfg.pawn
            && captures
            && in_zone(mv.from)
            && s.ours.contains(&plain)
        {
            return Verdict::Filtered(PAWN_CAPTURE);
        }
        // chushogi.md, Lion-trading rules 2 and Decision 5: a pawn or go-between captured on
        // the lion's first step still counts as a protector of the enemy lion taken on the
        // second. HaChu judges protection on the board after the move only (hachu.c Search,
        // the "Ln x Ln" test), where that piece is gone.
        if cfg.hachu == "chu"
            && captured_protector_rule::<P>(cfg, options, &board, &fields, &mv, upper)
        {
            return Verdict::Filtered(PROTECTOR);
        }
        // daishogi.md, Promotion: a pawn, lance, iron or stone general ending on the last
        // rank, or a knight ending on the last two, must promote. HaChu accepts the move
        // written without `+` and plays it as the promotion (hachu.c ParseMove turns a
        // declined promotion into the promotion where deferring is impossible).
        if cfg.hachu == "dai"
            && !mv.promote
            && s.ours.contains(&format!("{k}+"))
            && ((["P", "L", "I", "U"].contains(&piece.as_str()) && last_ranks(mv.to, 1))
                || (piece == "N" && last_ranks(mv.to, 2)))
        {
            return Verdict::Filtered(DECLINED_FORCED);
        }
    } else {
        // chushogi.md, Promotion, case 3: a pawn ending on the last rank may promote, with or
        // without a capture. HaChu (option "Promote on entry", its default, which is chu's
        // seed rule for the other pieces) lets a non-capture promote only on entering the
        // zone, so a pawn stepping from inside the zone onto the last rank stays a pawn
        // (hachu.c NewNonCapture).
        if cfg.hachu == "chu"
            && mv.promote
            && piece == cfg.pawn
            && !captures
            && in_zone(mv.from)
            && last_ranks(mv.to, 1)
        {
            return Verdict::Filtered(PAWN_LAST_RANK);
        }
    }
    Verdict::Unexplained
}

const ROYAL_SAFETY: &str = "HaChu accepts moves that leave the royal pieces capturable";
const PAWN_CAPTURE: &str = "HaChu lets a pawn promote by a capture inside the zone (chu)";
const PROTECTOR: &str =
    "HaChu does not count a captured pawn or go-between as a lion's protector (chu)";
const DECLINED_FORCED: &str = "HaChu reads a declined compulsory promotion as the promotion (dai)";
const PAWN_LAST_RANK: &str =
    "HaChu does not let a pawn promote by a non-capture onto the last rank (chu)";

/// A question that confirms with HaChu that `k` (our key) leaves the mover's royal pieces
/// capturable: the position after `k` with the opponent to move (XBoard FEN), and the moves
/// (XBoard) that would take the royal pieces: with one royal piece every enemy piece's move
/// onto it (with and without `+`), with two every two-step move taking both. HaChu accepting
/// one of them confirms it.
///
/// HaChu lists no moves in a position where the side to move can take the opponent's only
/// royal piece (hachu.c Search returns at once, "KING CAPTURE", and ListMoves keeps a stale
/// list), so when the mover has one royal piece it gets a crown prince on a cell off the lines
/// through its king and more than two cells from it, in its own half, where it changes nothing.
/// The mover's drunk elephants become golds (see below).
fn royal_captures(cfg: &Config, s: &Sample, k: &str) -> (String, Vec<String>) {
    let fields: Vec<&str> = s.fen.split_whitespace().collect();
    let board = Board::parse(cfg.size, fields[0]);
    let upper = fields[1] == "b";
    let mut after = if k == PASS {
        board
    } else {
        apply(&board, &parse_ours(cfg.size, k))
    };
    let royals: Vec<Sq> = after
        .squares()
        .filter(|&q| {
            after
                .at(q)
                .is_some_and(|t| is_upper(t) == upper && ["K", "+E"].contains(&symbol(t).as_str()))
        })
        .collect();
    // HaChu takes the piece after the king in its piece list for the crown prince; a drunk
    // elephant brings its promoted form, an absent crown prince, into the list, which can
    // take that place. So the mover's drunk elephants become golds (same cells, same lines).
    let all: Vec<Sq> = after.squares().collect();
    for q in all {
        if after.at(q) == Some(if upper { "E" } else { "e" }) {
            after.set(q, Some(if upper { "G" } else { "g" }.to_string()));
        }
    }
    if let [r] = royals.as_slice() {
        let far = |q: Sq| {
            let dr = (q.row as i64 - r.row as i64).abs();
            let dc = (q.col as i64 - r.col as i64).abs();
            dr.max(dc) > 2 && dr != 0 && dc != 0 && dr != dc
        };
        let mut cells: Vec<Sq> = after
            .squares()
            .filter(|&q| after.at(q).is_none() && far(q))
            .collect();
        if upper {
            cells.reverse();
        }
        if let Some(&c) = cells.first() {
            after.set(c, Some(if upper { "+E" } else { "+e" }.to_string()));
        }
    }
    let x = |q: Sq| xb_cell(cfg.size, q);
    let mut probes = Vec::new();
    for from in after.squares().filter(|&q| after.owned_by(q, !upper)) {
        match royals.as_slice() {
            [r] => {
                probes.push(format!("{}{}", x(from), x(*r)));
                probes.push(format!("{}{}+", x(from), x(*r)));
            }
            [a, b] => {
                for (r1, r2) in [(a, b), (b, a)] {
                    probes.push(format!("{}{},{}{}", x(from), x(*r1), x(*r1), x(*r2)));
                }
            }
            _ => {}
        }
    }
    // XBoard's side letter: `w` when the upper-case side (here the opponent) is to move.
    let fen = format!("{} {}", after.write(), if upper { "b" } else { "w" });
    (fen, probes)
}

/// Whether playing `mv` leaves the mover's royal pieces capturable (our FEN reader rejects the
/// resulting position with the opponent to move: `SetupProblem::OpponentInCheck`).
fn exposes_royals<P: Ruleset>(options: &RuleOptions, board: &Board, side: &str, mv: &Mv) -> bool {
    let after = apply(board, mv);
    let other = if side == "b" { "w" } else { "b" };
    let fen = format!("{} {other} - 1", after.write());
    matches!(P::from_fen_with(options, &fen), Err(SetupError::Invalid(problems)) if problems.contains(&SetupProblem::OpponentInCheck))
}

/// The board after `mv` (captures on the first step and on the destination, promotion).
fn apply(board: &Board, mv: &Mv) -> Board {
    let mut b = board.clone();
    let piece = b.at(mv.from).expect("a piece to move").to_string();
    if let Some(v) = mv.via
        && v != mv.from
    {
        b.set(v, None);
    }
    b.set(mv.from, None);
    let piece = if mv.promote {
        format!("+{piece}")
    } else {
        piece
    };
    b.set(mv.to, Some(piece));
    b
}

/// Whether the move with key `k` becomes legal for us once the mover's royal pieces are out of
/// danger: every royal piece of the mover that does not make the move becomes a gold general
/// (same cell, so no line opens or closes), and a crown prince is added on an empty cell far
/// from the move (off its lines and more than two cells away). If the move is then legal, it
/// is one of our pseudo-legal moves and only royal safety forbade it.
fn legal_with_extra_royal<P: Position + Ruleset>(
    options: &RuleOptions,
    board: &Board,
    fields: &[&str],
    mv: Option<&Mv>,
    k: &str,
) -> bool {
    let upper = fields[1] == "b";
    let anchors: Vec<Sq> = mv
        .map(|mv| [Some(mv.from), mv.via, Some(mv.to)])
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    let mut base = board.clone();
    for s in board.squares() {
        let royal = board
            .at(s)
            .is_some_and(|t| is_upper(t) == upper && ["K", "+E"].contains(&symbol(t).as_str()));
        if royal && mv.is_none_or(|mv| mv.from != s) {
            base.set(s, Some(if upper { "G" } else { "g" }.to_string()));
        }
    }
    let far = |s: Sq| {
        anchors.iter().all(|a| {
            let dr = (s.row as i64 - a.row as i64).abs();
            let dc = (s.col as i64 - a.col as i64).abs();
            dr.max(dc) > 2 && dr != 0 && dc != 0 && dr != dc
        })
    };
    // The mover's own half first, where the prince is least likely to be attacked.
    let mut cells: Vec<Sq> = board
        .squares()
        .filter(|&s| board.at(s).is_none() && far(s))
        .collect();
    if upper {
        cells.reverse();
    }
    let mut tries = 0;
    for s in cells {
        let mut b = base.clone();
        b.set(s, Some(if upper { "+E" } else { "+e" }.to_string()));
        let fen = format!("{} {} {} {}", b.write(), fields[1], fields[2], fields[3]);
        let Ok(p) = P::from_fen_with(options, &fen) else {
            continue;
        };
        if common::legal_texts(&p).iter().any(|t| key(&b, t) == k) {
            return true;
        }
        tries += 1;
        if tries == 40 {
            break;
        }
    }
    false
}

/// Chu's lion-trading rule about a captured pawn or go-between (chushogi.md, Lion-trading
/// rules 2, last item): `mv` is a lion's double capture of a pawn or go-between and then of a
/// distant enemy lion that the pawn or go-between protected, and without that first victim
/// the lion could take the enemy lion by a jump (so nothing else protects it).
fn captured_protector_rule<P: Position + Ruleset>(
    cfg: &Config,
    options: &RuleOptions,
    board: &Board,
    fields: &[&str],
    mv: &Mv,
    upper: bool,
) -> bool {
    let Some(via) = mv.via else { return false };
    let mover = symbol(board.at(mv.from).unwrap_or(""));
    let first = board.at(via).map(symbol).unwrap_or_default();
    let second = board.at(mv.to).map(symbol).unwrap_or_default();
    if !cfg.lions.contains(&mover.as_str())
        || !cfg.lions.contains(&second.as_str())
        || !(first == cfg.pawn || first == cfg.go_between)
        || !board.owned_by(via, !upper)
        || !board.owned_by(mv.to, !upper)
    {
        return false;
    }
    let adjacent = (mv.from.row as i64 - mv.to.row as i64).abs() <= 1
        && (mv.from.col as i64 - mv.to.col as i64).abs() <= 1;
    if adjacent {
        return false;
    }
    // The enemy moves down the board (row + 1) when it is the lower-case side.
    let forward: i64 = if upper { 1 } else { -1 };
    let protects = if first == cfg.pawn {
        board.offset(via, forward, 0) == Some(mv.to)
    } else {
        board.offset(via, 1, 0) == Some(mv.to) || board.offset(via, -1, 0) == Some(mv.to)
    };
    if !protects {
        return false;
    }
    let mut b = board.clone();
    b.set(via, None);
    let fen = format!("{} {} {} {}", b.write(), fields[1], fields[2], fields[3]);
    let Ok(p) = P::from_fen_with(options, &fen) else {
        return false;
    };
    let jump = write_ours(
        cfg.size,
        &Mv {
            from: mv.from,
            via: None,
            to: mv.to,
            promote: false,
        },
    );
    common::legal_texts(&p).contains(&jump)
}

// ---------------------------------------------------------------------------------------------
// The test

fn run<P: Position + Ruleset>(cfg: &Config, name: &str) {
    require_hachu();
    let options = common::options::<P>(cfg.options);
    let started = std::time::Instant::now();
    let samples = play::<P>(cfg, &options);
    let answers = ask_about_samples(cfg, &samples);
    let mut filtered: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
    let mut note = |why: &'static str, s: &Sample, k: &str| {
        let e = filtered.entry(why).or_insert((0, String::new()));
        e.0 += 1;
        if e.1.is_empty() {
            e.1 = format!("`{k}` in {}", s.fen);
        }
    };
    let failure = |s: &Sample, k: &str, hachu_accepts: bool, extra: &str| {
        format!(
            "{}: `{k}` ({}) in {}{extra}\n    {}\n    HaChu set up with `setboard {}`{}",
            if hachu_accepts {
                "HaChu accepts a move we do not generate"
            } else {
                "HaChu rejects a move we generate"
            },
            to_xboard(cfg.size, k),
            s.fen,
            s.history,
            s.hachu_fen,
            if s.setup.is_empty() {
                String::new()
            } else {
                format!(" and `usermove {}`", s.setup.join(" "))
            }
        )
    };
    let mut failures = Vec::new();
    let mut royal_safety: Vec<(&Sample, String)> = Vec::new();
    let (mut probed, mut ours_total, mut counter_strike) = (0, 0, 0);
    let mut crashes = Vec::new();
    for (s, a) in samples.iter().zip(&answers) {
        probed += s.probes.len();
        ours_total += s.ours.len();
        counter_strike += usize::from(!s.setup.is_empty());
        crashes.extend(a.crashes.iter().map(|m| format!("`{m}` in {}", s.fen)));
        let mut differences: Vec<(&String, bool)> = Vec::new();
        for k in &s.ours {
            if a.rejected.contains(k) {
                differences.push((k, false));
            } else {
                assert!(a.accepted.contains(k), "no verdict for `{k}` in {}", s.fen);
            }
        }
        for k in a.accepted.iter().chain(&a.extra) {
            if !s.ours.contains(k) {
                differences.push((k, true));
            }
        }
        for (k, hachu_accepts) in differences {
            match explain::<P>(cfg, &options, s, k, hachu_accepts) {
                Verdict::Filtered(why) => note(why, s, k),
                Verdict::RoyalSafety => royal_safety.push((s, k.clone())),
                Verdict::Unexplained => failures.push(failure(s, k, hachu_accepts, "")),
            }
        }
    }
    // HaChu confirms that each move of `royal_safety` leaves the royal pieces capturable: in
    // the position after it, HaChu accepts a move that takes them (see `royal_captures`).
    if !royal_safety.is_empty() {
        let queries: Vec<Query> = royal_safety
            .iter()
            .map(|(s, k)| {
                let (fen, probes) = royal_captures(cfg, s, k);
                Query {
                    fen,
                    setup: Vec::new(),
                    probes,
                    extra: false,
                }
            })
            .collect();
        let what: Vec<String> = royal_safety
            .iter()
            .map(|(s, k)| format!("`{k}` in {}", s.fen))
            .collect();
        for ((s, k), r) in royal_safety.iter().zip(hachu(cfg, &queries, &what)) {
            if r.verdicts.contains(&true) {
                note(ROYAL_SAFETY, s, k);
            } else {
                failures.push(failure(
                    s,
                    k,
                    true,
                    " (we find it leaves the royal pieces capturable; HaChu does not)",
                ));
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    eprintln!(
        "HaChu {name}: {} positions ({counter_strike} with the counter-strike rule in force), {ours_total} of our moves, {probed} probes, {elapsed:.1} s",
        samples.len()
    );
    if !crashes.is_empty() {
        eprintln!(
            "  HaChu crashed after accepting {} move(s) (counted as accepted): {}",
            crashes.len(),
            crashes.join("; ")
        );
    }
    for (why, (n, example)) in &filtered {
        eprintln!("  filtered ({n}): {why}; e.g. {example}");
    }
    assert!(
        samples.len() >= 10,
        "only {} positions compared",
        samples.len()
    );
    assert!(
        cfg.hachu != "chu" || counter_strike > 0,
        "no position with the counter-strike rule in force"
    );
    assert!(
        failures.is_empty(),
        "{} difference(s) with HaChu in {name}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chushogi_agrees_with_hachu() {
    run::<ChuShogiPosition>(&CHU, "chushogi");
}

#[test]
fn daishogi_agrees_with_hachu() {
    run::<DaiShogiPosition>(&DAI, "daishogi");
}

#[test]
fn notation_round_trips() {
    // Our 7j is XBoard's f3 in chu; 15a is a15 in dai; two-step moves and promotion.
    assert_eq!(to_xboard(12, "7j6i5h"), "f3g4,g4h5");
    assert_eq!(to_xboard(12, "6f6e6f"), "g7g8,g8g7");
    assert_eq!(to_xboard(12, "12a1l+"), "a12l1+");
    assert_eq!(to_xboard(15, "15a8o"), "a15h1");
    assert_eq!(to_xboard(12, PASS), "@@@@");
    for (size, text) in [
        (12, "7j6i5h"),
        (12, "6e6d+"),
        (15, "14c13a+"),
        (15, "8h8g8h"),
    ] {
        assert_eq!(from_xboard(size, &to_xboard(size, text)), text);
    }
    assert_eq!(from_xboard(12, "@@@@"), PASS);
    let board = Board::parse(12, "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6");
    assert_eq!(key(&board, "6f5f6f"), PASS);
    assert_eq!(key(&board, "6f6e6f"), "6f6e6f");
    assert_eq!(board.write(), "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6");
    assert_eq!(
        xboard_fen("lfcsgekgscfl/12/12/12/12/12/12/12/12/12/12/LFCSGKEGSCFL w - 3"),
        "lfcsgekgscfl/12/12/12/12/12/12/12/12/12/12/LFCSGKEGSCFL b"
    );
}
