//! The seed corpora: for every implemented ruleset its start position and the positions of
//! its perft fixtures (`crates/variants/tests/perft`), positions along seeded random games,
//! those games' moves in every notation, records of them in every format the ruleset has,
//! every rule option with each of its values, a game script in each engine protocol,
//! and a game played through the server's API.
//! Regenerated, never stored: they follow the rules as they are.

use crate::case;
use chaturanga_notation::{csa, kif, pgn, san};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{
    Game, OptionSpec, OptionValues, RecordHeader, RuleOptions, Ruleset, Status,
};
use chaturanga_variants::{VariantInfo, Visitor, implemented, visit};
use std::path::Path;

/// One seed: the target it is for, a file name, the input.
pub struct Seed {
    /// A name of [`crate::TARGETS`].
    pub target: &'static str,
    /// A file name, unique within the target.
    pub name: String,
    /// The input.
    pub data: Vec<u8>,
}

/// Random games per ruleset, and their longest length.
const GAMES: usize = 3;
const PLIES: usize = 60;

/// Every seed, with the perft fixtures read from `perft_dir`.
pub fn all(perft_dir: &Path) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for info in implemented() {
        let fixtures = std::fs::read_to_string(perft_dir.join(format!("{}.perft", info.id)))
            .map(|text| fixture_positions(&text))
            .unwrap_or_default();
        if let Ok(found) = visit(info.id, Seeds { fixtures }) {
            seeds.extend(found);
        }
    }
    let scripts = [
        ("protocol", crate::protocol::seeds()),
        ("server", crate::server::seeds()),
    ];
    for (target, found) in scripts {
        for (name, data) in found {
            seeds.push(Seed { target, name, data });
        }
    }
    seeds
}

/// The (options, FEN) pairs of a perft file (`id`, `epd`/`fen`/`sfen`, `options` lines).
pub fn fixture_positions(text: &str) -> Vec<(Vec<String>, String)> {
    let mut found: Vec<(Vec<String>, String)> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => found.push((Vec::new(), String::new())),
            "epd" | "fen" | "sfen" => {
                if let Some(last) = found.last_mut() {
                    last.1 = value.to_string();
                }
            }
            "options" => {
                if let Some(last) = found.last_mut() {
                    last.0 = value.split_whitespace().map(str::to_string).collect();
                }
            }
            _ => {}
        }
    }
    found.retain(|(_, fen)| !fen.is_empty());
    found
}

/// Bytes for a `rules` case: printable, so that a corpus file stays readable.
fn choices(rng: &mut SplitMix64, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'!' + (rng.next_u64() % 90) as u8))
        .collect()
}

/// A few values of an option for the seeds: every choice, a number range's ends.
fn sample_values(spec: &OptionSpec) -> Vec<String> {
    match spec.values {
        OptionValues::Choice(words) => words.iter().map(|w| w.to_string()).collect(),
        OptionValues::Number(lo, hi) => vec![lo.to_string(), hi.to_string()],
        // A number's ends, as games stored before keys have, and a key.
        OptionValues::Seed => vec!["0".into(), u32::MAX.to_string(), "c0de".repeat(16)],
        OptionValues::TimeControl => vec!["3+2".into()],
        OptionValues::Duration => vec!["30s".into()],
    }
}

/// The option `item` alone when the ruleset accepts it, else with the first value of another
/// option that makes it accepted (chess's `start-array` needs `chess960=on`); `None` when no
/// single companion does, so that the seed is written alone and the corpus test names it.
fn accepted_with<P: Ruleset>(item: &str) -> Option<Vec<String>> {
    let accepts = |items: &[String]| {
        RuleOptions::parse(P::option_specs(), items)
            .ok()
            .is_some_and(|options| P::start_position(&options).is_ok())
    };
    let alone = vec![item.to_string()];
    if accepts(&alone) {
        return Some(alone);
    }
    let name = item.split('=').next().unwrap_or_default();
    P::option_specs()
        .iter()
        .filter(|other| other.name != name)
        .flat_map(|other| {
            sample_values(other)
                .into_iter()
                .map(move |value| format!("{}={value}", other.name))
        })
        .map(|companion| vec![companion, item.to_string()])
        .find(|items| accepts(items))
}

struct Seeds {
    fixtures: Vec<(Vec<String>, String)>,
}

impl Visitor for Seeds {
    type Output = Vec<Seed>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Vec<Seed> {
        let id = info.id;
        let mut seeds = Vec::new();
        let mut push = |target: &'static str, name: String, data: String| {
            seeds.push(Seed {
                target,
                name: format!("{id}-{name}"),
                data: data.into_bytes(),
            });
        };
        let mut rng = SplitMix64::new(0x5EED ^ id.len() as u64);
        for (i, (options, fen)) in self.fixtures.iter().enumerate() {
            push(
                "fen",
                format!("perft-{i}"),
                case::write(id, options, Some(fen), ""),
            );
            push(
                "rules",
                format!("perft-{i}"),
                case::write(id, options, Some(fen), &choices(&mut rng, 24)),
            );
        }
        push("fen", "start".into(), case::write(id, &[], None, ""));
        push(
            "rules",
            "start".into(),
            case::write(id, &[], None, &choices(&mut rng, 48)),
        );
        for spec in P::option_specs() {
            for value in sample_values(spec) {
                let item = format!("{}={value}", spec.name);
                let items = accepted_with::<P>(&item).unwrap_or_else(|| vec![item]);
                push(
                    "options",
                    format!("{}-{value}", spec.name),
                    case::write(id, &items, None, ""),
                );
            }
        }
        let start = RuleOptions::parse::<&str>(P::option_specs(), &[])
            .ok()
            .and_then(|options| P::start_position(&options).ok());
        for g in 0..GAMES {
            let Some(start) = &start else { break };
            let mut game = Game::new(start.clone());
            let mut lines = Vec::new();
            for ply in 0..PLIES {
                let position = game.position().clone();
                let legal = game.legal_moves();
                if legal.is_empty() || matches!(game.status(), Status::Over(_)) {
                    break;
                }
                let mv = legal[(rng.next_u64() % legal.len() as u64) as usize];
                lines.push(position.move_text(mv));
                if let Ok(text) = san::to_san(&position, mv) {
                    lines.push(text);
                }
                for &notation in position.notations() {
                    if let Some(text) = position.write_move(notation, mv) {
                        lines.push(text);
                    }
                }
                if ply % 15 == 14 {
                    push(
                        "fen",
                        format!("game{g}-{ply}"),
                        case::write(id, &[], Some(&position.fen()), ""),
                    );
                }
                if game.play(mv).is_err() {
                    break;
                }
            }
            push(
                "moves",
                format!("game{g}"),
                case::write(id, &[], None, &lines.join("\n")),
            );
            if let Ok(text) = pgn::write(&game, &pgn::Tags::for_game(id, &game)) {
                push(
                    "records",
                    format!("game{g}.pgn"),
                    format!("pgn {id}\n{text}"),
                );
            }
            if let Ok(text) = kif::write(&game, &Default::default()) {
                push(
                    "records",
                    format!("game{g}.kif"),
                    format!("kif {id}\n{text}"),
                );
            }
            if let Ok(text) = csa::write(&game, &Default::default()) {
                push(
                    "records",
                    format!("game{g}.csa"),
                    format!("csa {id}\n{text}"),
                );
            }
            // The ruleset's own record (BPGN), named by its format as the target reads it.
            if let Some(own) = P::own_record()
                && let Ok(text) = (own.write)(&game, &RecordHeader::default())
            {
                let format = own.format;
                push(
                    "records",
                    format!("game{g}.{format}"),
                    format!("{format}\n{text}"),
                );
            }
        }
        seeds
    }
}

/// Plays up to `n` moves of `session`, each its first legal one; the moves played.
pub(crate) fn first_moves(
    session: &mut dyn chaturanga_session::GameSession,
    n: usize,
) -> Vec<String> {
    let mut moves = Vec::new();
    for _ in 0..n {
        let Some(mv) = session.legal_moves().into_iter().next() else {
            break;
        };
        if session.play(&mv).is_err() {
            break;
        }
        moves.push(mv);
    }
    moves
}

/// Writes [`all`] under `dir`, one folder per target; answers how many were written.
pub fn write_all(perft_dir: &Path, dir: &Path) -> std::io::Result<usize> {
    let seeds = all(perft_dir);
    for seed in &seeds {
        let folder = dir.join(seed.target);
        std::fs::create_dir_all(&folder)?;
        std::fs::write(folder.join(&seed.name), &seed.data)?;
    }
    Ok(seeds.len())
}
