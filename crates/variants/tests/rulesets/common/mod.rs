//! Helpers shared by the integration tests.

pub mod oracle;

use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};

/// One position of a perft file with its expected counts.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    pub options: Vec<String>,
    pub expected: Vec<(u32, u64)>,
}

/// Reads the `id` / `epd` / `options` / `perft` line format; `#` starts a comment. `sfen` is a
/// synonym of `epd` (the shogi family's fixtures); `fsf-fen` lines, Fairy-Stockfish's FEN of the
/// same position kept for reference, are ignored.
pub fn read_perft_file(text: &str) -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(PerftCase {
                id: value.to_string(),
                fen: String::new(),
                options: Vec::new(),
                expected: Vec::new(),
            }),
            "epd" | "fen" | "sfen" => {
                cases.last_mut().expect("epd after id").fen = value.to_string()
            }
            "fsf-fen" => {}
            "options" => {
                cases.last_mut().expect("options after id").options =
                    value.split_whitespace().map(str::to_string).collect()
            }
            "perft" => {
                let (d, nodes) = value.split_once(' ').expect("perft <depth> <nodes>");
                cases
                    .last_mut()
                    .expect("perft after id")
                    .expected
                    .push((d.parse().unwrap(), nodes.trim().parse().unwrap()));
            }
            other => panic!("line {}: unknown key {other:?}", n + 1),
        }
    }
    cases
}

/// The options of ruleset `P` from `name=value` items.
pub fn options<P: Ruleset>(items: &[&str]) -> RuleOptions {
    RuleOptions::parse(P::option_specs(), items).expect("valid options")
}

/// A position of `P` from FEN under default options.
pub fn position<P: Ruleset>(fen: &str) -> P {
    P::from_fen_with(&options::<P>(&[]), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A game from `fen` (or the start) after coordinate moves, each of which must be legal.
pub fn game_after<P: Ruleset>(fen: Option<&str>, opts: &[&str], moves: &[&str]) -> Game<P> {
    let o = options::<P>(opts);
    let start = match fen {
        Some(f) => P::from_fen_with(&o, f).unwrap(),
        None => P::start_position(&o).unwrap(),
    };
    let mut game = Game::new(start);
    for m in moves {
        game.play_text_through_draws(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

/// Sorted coordinate texts of the legal moves.
pub fn legal_texts<P: Position>(position: &P) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.into_iter().map(|m| position.move_text(m)).collect();
    texts.sort();
    texts
}

/// The moves played so far in coordinate notation, space-separated (for failure messages).
pub fn played_text<P: Position>(game: &Game<P>) -> String {
    game.moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| game.positions()[i].move_text(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The status line as the CLI prints it.
pub fn status_text<P: Position>(game: &Game<P>) -> String {
    match game.status() {
        s @ Status::Ongoing { .. } => s.to_string(),
        s => s.to_string(),
    }
}

/// A small deterministic random number generator for playouts.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
