//! The commands, each generic over the ruleset's position type through the registry's visitor.

use crate::cli::{Command, GameArgs};
use crate::error::CliError;
use chaturanga_notation::san;
use chaturanga_protocol::Protocol;
use chaturanga_rules::{
    RuleOptions, Ruleset, legal_turn_texts, perft, perft_divide, perft_turns, perft_turns_divide,
};
use chaturanga_session::{Hosted, Occasion, RecordFormat, Table};
use chaturanga_variants::{CATALOGUE, VariantInfo, Visitor, implemented, visit};
use std::io::Write;
use std::time::Instant;

/// Runs a parsed command, writing its output to `out`.
pub fn run(command: Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Uci => chaturanga_protocol::serve(Protocol::Uci),
        Command::Usi => chaturanga_protocol::serve(Protocol::Usi),
        Command::Xboard => chaturanga_protocol::serve(Protocol::XBoard),
        Command::Serve {
            listen,
            db,
            engine_only_games,
            generous_limits,
            behind_proxy,
        } => {
            let mut limits = if generous_limits {
                chaturanga_server::quota::Limits::generous()
            } else {
                chaturanga_server::quota::Limits::default()
            };
            limits.engine_only_games = engine_only_games;
            let config = chaturanga_server::Config {
                listen,
                db,
                limits,
                peers: if behind_proxy {
                    chaturanga_server::connections::Peers::BehindProxy
                } else {
                    chaturanga_server::connections::Peers::Direct
                },
                ..chaturanga_server::Config::default()
            };
            chaturanga_server::run(config).map_err(CliError::Serve)?;
        }
        Command::Match(args) => chaturanga_arena::run(&args.settings(), out)?,
        Command::Tune(command) => crate::tune::run(command, out)?,
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
            // Both unless one is chosen.
            let (perft, search) = (perft || !search, search || !perft);
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
        Command::Search {
            variant,
            game,
            limits,
        } => crate::play::search(&variant, game, limits, out)?,
        Command::Play {
            variant,
            game,
            limits,
            engine_plays,
            flip,
        } => {
            let stdin = std::io::stdin();
            crate::play::play(
                &variant,
                game,
                limits,
                engine_plays,
                flip,
                &mut stdin.lock(),
                out,
            )?;
        }
        Command::Replay { file } => crate::records::replay(&file, out)?,
        Command::Rules { variant } => {
            let ids: Vec<String> = match variant {
                Some(v) => vec![v],
                None => implemented().map(|v| v.id.to_string()).collect(),
            };
            for id in ids {
                let text = visit(&id, DescribeRules)?;
                write!(out, "{text}")?;
            }
        }
        Command::Perft {
            variant,
            depth,
            game,
            divide,
            turns,
        } => run_game(
            &variant,
            game,
            Action::Perft {
                depth,
                divide,
                turns,
            },
            out,
        )?,
        Command::Moves {
            variant,
            game,
            san,
            notation,
        } => {
            let notation = if san {
                Some("san".to_string())
            } else {
                notation
            };
            run_game(&variant, game, Action::Moves { notation }, out)?
        }
        Command::Fen { variant, game } => run_game(&variant, game, Action::Fen, out)?,
        Command::Status { variant, game } => run_game(&variant, game, Action::Status, out)?,
        Command::View {
            variant,
            player,
            game,
        } => run_game(&variant, game, Action::View(player), out)?,
        Command::Pgn { variant, game } => {
            run_game(&variant, game, Action::Record(RecordFormat::Pgn), out)?
        }
        Command::Record {
            variant,
            game,
            format,
        } => run_game(&variant, game, Action::Record(format), out)?,
    }
    Ok(())
}

fn run_game(
    variant: &str,
    game: GameArgs,
    action: Action,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let text = visit(variant, WithGame { args: game, action })??;
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
    let mut table = match &args.load {
        Some(path) => crate::records::load_game::<P>(info, path)?,
        None => {
            let options = RuleOptions::parse(P::option_specs(), &args.options)?;
            Hosted::<P>::new(info, &options, args.fen.as_deref())?
        }
    };
    for (i, text) in args.moves.iter().enumerate() {
        table
            .play_through_draws(text)
            .map_err(|source| CliError::Move {
                index: i + 1,
                source,
            })?;
    }
    Ok(table)
}

/// The game written as `format`, and the format written: a ruleset with a record of its own
/// (bughouse's BPGN) writes that for PGN, the only record it has.
pub fn record_text<P: Ruleset>(
    table: &Hosted<P>,
    format: RecordFormat,
) -> Result<(String, RecordFormat), CliError> {
    let formats = table.record_formats();
    let format = match format {
        RecordFormat::Pgn if !formats.contains(&format) => formats[0],
        _ => format,
    };
    if !formats.contains(&format) {
        return Err(CliError::NoRecord {
            variant: table.variant().id,
            format,
            offered_by: rulesets_writing(format),
        });
    }
    // With every rule option: the person at the command line chose them.
    let text = table.record_with(format, &Occasion::default(), true)?;
    Ok((text, format))
}

/// The rulesets whose games can be written as `format`, for the hint of an error.
fn rulesets_writing(format: RecordFormat) -> Vec<&'static str> {
    struct Writes(RecordFormat);
    impl Visitor for Writes {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            match P::own_record() {
                Some(own) => RecordFormat::parse(own.format) == Some(self.0),
                // KIF and CSA come with the move notations of their names.
                None => RuleOptions::parse::<&str>(P::option_specs(), &[])
                    .ok()
                    .and_then(|options| P::start_position(&options).ok())
                    .is_some_and(|p| p.notations().contains(&self.0.extension())),
            }
        }
    }
    implemented()
        .filter(|v| visit(v.id, Writes(format)).unwrap_or(false))
        .map(|v| v.id)
        .collect()
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
                    return Err(CliError::WholeTurns(info.id));
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
                        Some("san") => san::to_san(position, m).map_err(CliError::San),
                        Some(other) => position.write_move(other, m).ok_or_else(|| {
                            let mut known = vec!["coordinate", "san"];
                            known.extend(position.notations());
                            CliError::UnknownNotation {
                                notation: other.to_string(),
                                variant: info.id,
                                known,
                            }
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
                    return Err(CliError::NoSuchPlayer {
                        variant: info.id,
                        players: position.players(),
                    });
                }
                let view = position
                    .player_view(player)
                    .ok_or(CliError::NoHiddenInformation(info.id))?;
                text.push_str(&view);
                text.push('\n');
            }
            Action::Status => {
                text.push_str(&game.status().to_string());
                text.push('\n');
            }
            Action::Record(format) => {
                text.push_str(&record_text(&table, format)?.0);
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
        let options = RuleOptions::parse::<&str>(P::option_specs(), &[])?;
        let start = P::start_position(&options)?;
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
        let (d, nodes, secs, best) = visit(&id, crate::play::SearchBench { depth })??;
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
        let (d, nodes, secs) = visit(&id, BenchOne { depth })??;
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
