//! The commands, each generic over the ruleset's position type through the registry's visitor.

use crate::args::{CliError, Command, GameArgs, USAGE};
use chaturanga_notation::san;
use chaturanga_rules::{
    RuleOptions, Ruleset, legal_turn_texts, perft, perft_divide, perft_turns, perft_turns_divide,
};
use chaturanga_session::{Hosted, RecordFormat, Table};
use chaturanga_variants::{CATALOGUE, VariantInfo, Visitor, implemented, visit};
use std::io::Write;
use std::time::Instant;

fn input(e: impl std::fmt::Display) -> CliError {
    CliError::Input(e.to_string())
}

/// Runs a parsed command, writing its output to `out`.
pub fn run(command: Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Help => writeln!(out, "{USAGE}")?,
        Command::Protocol(protocol) => chaturanga_protocol::serve(protocol),
        Command::Serve { listen, db } => {
            let config = chaturanga_server::Config {
                listen,
                db,
                ..chaturanga_server::Config::default()
            };
            chaturanga_server::run(config).map_err(|e| CliError::Input(format!("serve: {e}")))?;
        }
        Command::Match(settings) => crate::tournament::run(&settings, out)?,
        Command::Variants { all } => {
            if all {
                for v in CATALOGUE {
                    let status = if v.implemented {
                        "implemented"
                    } else {
                        "not implemented"
                    };
                    writeln!(out, "{:<12} {:<28} {}", v.id, v.name, status)?;
                }
            } else {
                for v in implemented() {
                    writeln!(out, "{}", v.id)?;
                }
            }
        }
        Command::Bench {
            depth,
            variants,
            perft,
            search,
        } => {
            if perft {
                bench(depth, &variants, out)?;
            }
            if search {
                if perft {
                    writeln!(out)?;
                }
                search_bench(depth, &variants, out)?;
            }
        }
        Command::Search { game, limits } => crate::play::search(game, limits, out)?,
        Command::Play {
            game,
            limits,
            engine_plays,
        } => {
            let stdin = std::io::stdin();
            crate::play::play(game, limits, engine_plays, &mut stdin.lock(), out)?;
        }
        Command::Rules { variant } => {
            let ids: Vec<String> = match variant {
                Some(v) => vec![v],
                None => implemented().map(|v| v.id.to_string()).collect(),
            };
            for id in ids {
                let text = visit(&id, DescribeRules).map_err(input)?;
                write!(out, "{text}")?;
            }
        }
        Command::Perft {
            game,
            depth,
            divide,
            turns,
        } => {
            let variant = game.variant.clone();
            let text = visit(
                &variant,
                WithGame {
                    args: game,
                    action: Action::Perft {
                        depth,
                        divide,
                        turns,
                    },
                },
            )
            .map_err(input)??;
            write!(out, "{text}")?;
        }
        Command::Moves { game, notation } => run_game(game, Action::Moves { notation }, out)?,
        Command::Fen(game) => run_game(game, Action::Fen, out)?,
        Command::Status(game) => run_game(game, Action::Status, out)?,
        Command::View { game, player } => run_game(game, Action::View(player), out)?,
        Command::Pgn(game) => run_game(game, Action::Record(RecordFormat::Pgn), out)?,
        Command::Record { game, format } => run_game(game, Action::Record(format), out)?,
    }
    Ok(())
}

fn run_game(game: GameArgs, action: Action, out: &mut dyn Write) -> Result<(), CliError> {
    let variant = game.variant.clone();
    let text = visit(&variant, WithGame { args: game, action }).map_err(input)??;
    write!(out, "{text}")?;
    Ok(())
}

enum Action {
    Perft {
        depth: u32,
        divide: bool,
        turns: bool,
    },
    Moves {
        notation: Option<String>,
    },
    Fen,
    Status,
    /// A player's view (hidden information).
    View(usize),
    Record(RecordFormat),
}

struct WithGame {
    args: GameArgs,
    action: Action,
}

/// Sets up the game the arguments describe, its moves played on through draws (the person
/// who wrote the line adjudicates them).
pub fn setup<P: Ruleset>(
    info: &'static VariantInfo,
    args: &GameArgs,
) -> Result<Hosted<P>, CliError> {
    let options = RuleOptions::parse(P::option_specs(), &args.options).map_err(input)?;
    let mut table = Hosted::<P>::new(info, &options, args.fen.as_deref()).map_err(input)?;
    for (i, text) in args.moves.iter().enumerate() {
        table
            .play_through_draws(text)
            .map_err(|e| input(format!("move {}: {e}", i + 1)))?;
    }
    Ok(table)
}

/// The game written as `format`, and the format written: a bughouse game's PGN is its BPGN,
/// the only record it has.
pub fn record_text<P: Ruleset>(
    table: &Hosted<P>,
    format: RecordFormat,
) -> Result<(String, RecordFormat), String> {
    let formats = table.record_formats();
    let format = match format {
        RecordFormat::Pgn if !formats.contains(&format) => formats[0],
        _ => format,
    };
    if !formats.contains(&format) {
        let id = table.variant().id;
        return Err(match format {
            RecordFormat::Bpgn => format!("{id} has no BPGN records (bughouse has)"),
            _ => {
                let notation = format.extension();
                format!(
                    "{id} has no {} records (they need the {notation} move notation, which shogi has)",
                    notation.to_uppercase()
                )
            }
        });
    }
    let text = table.record(format, &[]).map_err(|e| e.to_string())?;
    Ok((text, format))
}

impl Visitor for WithGame {
    type Output = Result<String, CliError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let table = setup::<P>(info, &self.args)?;
        let game = table.game();
        let position = game.position();
        let mut text = String::new();
        match self.action {
            Action::Perft {
                depth,
                divide,
                turns,
            } => {
                // Rulesets whose FEN cannot describe a position inside a turn count whole
                // turns by default.
                let turns = turns || position.whole_turns();
                if divide {
                    let split = if turns {
                        perft_turns_divide(position, depth)
                    } else {
                        perft_divide(position, depth)
                    };
                    let mut lines: Vec<(String, u64)> = split
                        .into_iter()
                        .map(|(m, n)| (position.move_text(m), n))
                        .collect();
                    lines.sort();
                    let mut total = 0;
                    for (m, n) in lines {
                        text.push_str(&format!("{m} {n}\n"));
                        total += n;
                    }
                    // Depth 0 counts the position itself.
                    if depth == 0 {
                        total = 1;
                    }
                    text.push_str(&format!("nodes {total}\n"));
                } else {
                    let nodes = if turns {
                        perft_turns(position, depth)
                    } else {
                        perft(position, depth)
                    };
                    text.push_str(&format!("nodes {nodes}\n"));
                }
            }
            Action::Moves { notation } if position.whole_turns() => {
                // Whole turns in the ruleset's turn notation (`e2e4;d7d6`).
                if notation.as_deref().is_some_and(|n| n != "coordinate") {
                    return Err(input(format!(
                        "{} lists whole turns in coordinate notation only",
                        info.id
                    )));
                }
                for line in legal_turn_texts(position) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            Action::Moves { notation } => {
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                let mut lines: Vec<String> = moves
                    .into_iter()
                    .map(|m| match notation.as_deref() {
                        None | Some("coordinate") => Ok(position.move_text(m)),
                        Some("san") => san::to_san(position, m).map_err(input),
                        Some(other) => position.write_move(other, m).ok_or_else(|| {
                            let mut known = vec!["coordinate", "san"];
                            known.extend(position.notations());
                            input(format!(
                                "unknown notation {:?} for {} (known: {})",
                                other.chars().take(20).collect::<String>(),
                                info.id,
                                known.join(", ")
                            ))
                        }),
                    })
                    .collect::<Result<_, _>>()?;
                lines.sort();
                for l in lines {
                    text.push_str(&l);
                    text.push('\n');
                }
            }
            Action::Fen => {
                text.push_str(&position.fen());
                text.push('\n');
            }
            Action::View(player) => {
                if player >= position.players() {
                    return Err(input(format!(
                        "{} has {} players",
                        info.id,
                        position.players()
                    )));
                }
                let view = position.player_view(player).ok_or_else(|| {
                    input(format!(
                        "{} has no hidden information: every player sees the whole position (fen)",
                        info.id
                    ))
                })?;
                text.push_str(&view);
                text.push('\n');
            }
            Action::Status => {
                text.push_str(&game.status().to_string());
                text.push('\n');
            }
            Action::Record(format) => {
                text.push_str(&record_text(&table, format).map_err(input)?.0);
            }
        }
        Ok(text)
    }
}

struct DescribeRules;

impl Visitor for DescribeRules {
    type Output = String;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> String {
        let mut text = format!("{} ({})\n", info.id, info.name);
        let specs = P::option_specs();
        if specs.is_empty() {
            text.push_str("  no rule options\n");
        }
        for o in specs {
            let values = o.values.describe("|");
            text.push_str(&format!(
                "  {}={} (default {}): {}\n",
                o.name, values, o.default, o.help
            ));
        }
        text
    }
}

struct BenchOne {
    depth: Option<u32>,
}

impl Visitor for BenchOne {
    type Output = Result<(u32, u64, f64), CliError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let options = RuleOptions::parse::<&str>(P::option_specs(), &[]).map_err(input)?;
        let start = P::start_position(&options).map_err(input)?;
        let depth = self.depth.unwrap_or(info.bench_perft_depth);
        let t = Instant::now();
        let nodes = perft(&start, depth);
        Ok((depth, nodes, t.elapsed().as_secs_f64()))
    }
}

fn bench_ids(variants: &[String]) -> Vec<String> {
    if variants.is_empty() {
        implemented().map(|v| v.id.to_string()).collect()
    } else {
        variants.to_vec()
    }
}

/// The search benchmark: a fixed-depth search from each start position with a fresh engine,
/// so the node counts change only when the search or evaluation changes.
fn search_bench(
    depth: Option<u32>,
    variants: &[String],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    writeln!(
        out,
        "{:<12} {:>5} {:>12} {:>9} {:>10}  best move",
        "search", "depth", "nodes", "seconds", "nodes/s"
    )?;
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for id in bench_ids(variants) {
        let (d, nodes, secs, best) =
            visit(&id, crate::play::SearchBench { depth }).map_err(input)??;
        total_nodes += nodes;
        total_secs += secs;
        writeln!(
            out,
            "{:<12} {:>5} {:>12} {:>9.3} {:>10.0}  {best}",
            id,
            d,
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9)
        )?;
    }
    writeln!(
        out,
        "{:<12} {:>5} {:>12} {:>9.3} {:>10.0}",
        "total",
        "",
        total_nodes,
        total_secs,
        total_nodes as f64 / total_secs.max(1e-9)
    )?;
    Ok(())
}

fn bench(depth: Option<u32>, variants: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let ids = bench_ids(variants);
    writeln!(
        out,
        "{:<12} {:>5} {:>14} {:>9} {:>12}",
        "perft", "depth", "nodes", "seconds", "nodes/s"
    )?;
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for id in ids {
        let (d, nodes, secs) = visit(&id, BenchOne { depth }).map_err(input)??;
        total_nodes += nodes;
        total_secs += secs;
        writeln!(
            out,
            "{:<12} {:>5} {:>14} {:>9.3} {:>12.0}",
            id,
            d,
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9)
        )?;
    }
    writeln!(
        out,
        "{:<12} {:>5} {:>14} {:>9.3} {:>12.0}",
        "total",
        "",
        total_nodes,
        total_secs,
        total_nodes as f64 / total_secs.max(1e-9)
    )?;
    Ok(())
}
