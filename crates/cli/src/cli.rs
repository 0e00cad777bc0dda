//! The command line, declared with clap: its help is generated from these declarations.

use crate::error::CliError;
use chaturanga_arena::{
    MAX_GAMES, MAX_PLIES, MAX_RANDOM_PLIES, MAX_TIME_MARGIN_MS, MatchSettings, PlayerSpec, Sprt,
    parse_time_control,
};
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_server::store::Database;
use chaturanga_session::RecordFormat;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{ArgAction, Args, CommandFactory, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Longest time per move accepted, in seconds (a day).
const MAX_SECONDS: f64 = 86_400.0;
/// Deepest search or perft asked for on the command line.
const MAX_DEPTH: u32 = 30;

/// Tools for the catalogue's rulesets: perft, moves and records, the engine in the terminal,
/// engine protocols, matches between engines, and the game server.
#[derive(Debug, Parser)]
#[command(
    name = "chaturanga",
    version,
    after_help = "Run `chaturanga help <command>` for a command's arguments. Started with no \
                  arguments and standard input a pipe (by a GUI), the first line read (uci, usi \
                  or xboard) chooses the engine protocol."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// A command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List ruleset ids.
    Variants {
        /// The whole catalogue, with each ruleset's name and status.
        #[arg(long)]
        all: bool,
    },
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        /// Plies to count (0 counts the position itself).
        #[arg(
            value_name = "depth",
            allow_negative_numbers = true,
            value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_DEPTH))
        )]
        depth: u32,
        #[command(flatten)]
        game: GameArgs,
        /// One line per root move with its count.
        #[arg(long)]
        divide: bool,
        /// One ply is a whole compound turn (double-move and progressive chess).
        #[arg(long)]
        turns: bool,
    },
    /// Legal moves, one per line, sorted.
    Moves {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
        /// The moves in SAN (as `--notation san`).
        #[arg(long, conflicts_with = "notation")]
        san: bool,
        /// The moves in this notation: coordinate, san, or the ruleset's own (wxf for
        /// xiangqi; csa or kif for shogi).
        #[arg(long, value_name = "NAME")]
        notation: Option<String>,
    },
    /// The FEN after the moves.
    Fen {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
    },
    /// `ongoing`, or the result and its reason.
    Status {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
    },
    /// What one player may know (hidden-information rulesets: darkchess).
    View {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        /// Whose view: white, black, first, second, or a number from 1.
        #[arg(value_name = "player", value_parser = parse_player)]
        player: usize,
        #[command(flatten)]
        game: GameArgs,
    },
    /// The game as PGN (rulesets with a record of their own: that record, e.g. BPGN).
    Pgn {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
    },
    /// The game as a record: PGN, or KIF or CSA for rulesets with those move notations
    /// (shogi), or the ruleset's own (BPGN for bughouse, whose games are always written so).
    Record {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
        /// The record format.
        #[arg(
            long,
            value_name = "FORMAT",
            default_value = "pgn",
            value_parser = record_format_parser()
        )]
        format: RecordFormat,
    },
    /// The engine's best move, with its thinking as UCI-like `info` lines, then `bestmove`.
    Search {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        limits: SearchArgs,
    },
    /// Play against the engine in the terminal (`help` at the prompt lists the commands:
    /// undo, resign, draw, save FILE...).
    Play {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: String,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        limits: SearchArgs,
        /// Which players the engine plays: none, all, first, second, or player names such as
        /// white, black, red, sente, comma-separated [default: every player but the one to
        /// move].
        #[arg(long, value_name = "SIDES")]
        engine_plays: Option<String>,
        /// Turn the board half round: by default it faces the person playing (the second
        /// player's side at the bottom when he plays the second player).
        #[arg(long)]
        flip: bool,
    },
    /// Perft speed from each start position, and a fixed-depth search (both unless one is
    /// chosen).
    Bench {
        /// Only the perft benchmark.
        #[arg(long)]
        perft: bool,
        /// Only the search benchmark.
        #[arg(long)]
        search: bool,
        /// Depth for every ruleset instead of its own.
        #[arg(long, value_name = "N", value_parser = depth_parser())]
        depth: Option<u32>,
        /// Ruleset ids [default: every implemented ruleset].
        #[arg(value_name = "variant")]
        variants: Vec<String>,
    },
    /// Replay a record file (PGN, KIF, CSA or BPGN, by its name or its text): each game's
    /// ruleset, options, moves, result and final FEN; fails naming the first bad move.
    Replay {
        /// The record file (`.kif` is read as Shift_JIS, `.kifu` as UTF-8).
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Rule options of a ruleset (of every ruleset when none is given).
    Rules {
        /// Ruleset id.
        #[arg(value_name = "variant")]
        variant: Option<String>,
    },
    /// Play two engines against each other; prints W-D-L, Elo ± 95 % and infractions.
    #[command(args_override_self = true)]
    Match(Box<MatchArgs>),
    /// Tune the evaluation's weights from self-play games (see docs/tuning.md).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Speak UCI on standard input and output (UCI_Variant: every ruleset).
    Uci,
    /// Speak USI on standard input and output (USI_Variant: the shogi family first).
    Usi,
    /// Speak XBoard / CECP v2 on standard input and output.
    Xboard,
    /// The game server: people play every ruleset with each other and the engine over HTTP
    /// and websockets.
    Serve {
        /// Address to listen on.
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        /// The database: an SQLite file (created and migrated on first start), or a
        /// postgres:// URL, which several nodes may share.
        #[arg(
            long,
            value_name = "PATH|URL",
            default_value = "chaturanga.db",
            value_parser = |text: &str| Ok::<_, std::convert::Infallible>(Database::parse(text))
        )]
        db: Database,
        /// Games of engines only (every seat an engine) allowed to run at once; 0 refuses
        /// them.
        #[arg(long, value_name = "N", default_value_t = 0)]
        engine_only_games: usize,
        /// Rates and caps per client far beyond a person's (tests and private servers where
        /// every client comes from one address); the caps in total stay.
        #[arg(long)]
        generous_limits: bool,
        /// Clients come through a reverse proxy on this machine that appends their address
        /// to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for): the limits per client
        /// read it.
        #[arg(long)]
        behind_proxy: bool,
    },
}

/// The tuner's two steps.
#[derive(Debug, Subcommand)]
pub enum TuneCommand {
    /// Play self-play games and write their positions with the results.
    Generate {
        /// Ruleset id (a two-player ruleset).
        #[arg(value_name = "variant")]
        variant: String,
        /// Games to play.
        #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        games: u32,
        /// Nodes searched per move.
        #[arg(long, value_name = "N", default_value_t = 5_000,
              value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        nodes: u64,
        /// Random plies at the start of each game.
        #[arg(long, value_name = "N", default_value_t = 8,
              value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_RANDOM_PLIES)))]
        random_plies: u32,
        /// Plies after which a game is a draw.
        #[arg(long, value_name = "N", default_value_t = 400,
              value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLIES)))]
        max_plies: u32,
        /// Seed of the random openings.
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// A rule option of the ruleset (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE", action = ArgAction::Append)]
        options: Vec<String>,
        /// Where to write the positions.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Fit the weights of the ruleset's family to the results of the positions in a file and
    /// print the family's new weights file (or write it with --out).
    Fit {
        /// Ruleset id of the positions.
        #[arg(value_name = "variant")]
        variant: String,
        /// The positions, as `tune generate` writes them.
        #[arg(value_name = "FILE")]
        positions: PathBuf,
        /// Passes of gradient descent.
        #[arg(long, value_name = "N", default_value_t = 2_000,
              value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        iterations: u32,
        /// A piece whose value stays as it is (repeatable), as the scale's anchor where a
        /// value and another weight say the same thing (chess's pawn and the advance shares).
        #[arg(long = "keep-value", value_name = "SYMBOL", action = ArgAction::Append)]
        keep_values: Vec<String>,
        /// A rule option of the ruleset (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE", action = ArgAction::Append)]
        options: Vec<String>,
        /// Write the weights file here.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// A ruleset's game: a start position and moves.
#[derive(Debug, Clone, Default, Args)]
pub struct GameArgs {
    /// Start position (one quoted argument) [default: the ruleset's start position]. It may
    /// begin with `-` (Chex's start: `- [KQRRBBNN...] w - 0 1`).
    #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Start from a record file's first game (PGN, KIF, CSA or BPGN) under the rule options
    /// it records; `--moves` go on from there.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "options"])]
    pub load: Option<PathBuf>,
    /// Moves to play first, up to the next flag: coordinate notation (e2e4, e7e8q), SAN
    /// (Nf3, O-O) or the ruleset's own notation (xiangqi WXF: C2=5; shogi CSA: +7776FU,
    /// KIF: ７六歩(77)); a compound turn's parts joined by `;`.
    #[arg(long, value_name = "M", num_args = 0.., action = ArgAction::Append)]
    pub moves: Vec<String>,
    /// Rule options (see `chaturanga rules <variant>`).
    #[arg(
        long = "option",
        value_name = "NAME=VALUE",
        num_args = 1..,
        action = ArgAction::Append
    )]
    pub options: Vec<String>,
}

/// How long the engine searches [default: --time 1 for search, 2 for play].
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct SearchArgs {
    /// Seconds per move.
    #[arg(long = "time", value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Deepest iteration.
    #[arg(long, value_name = "N", value_parser = depth_parser())]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
}

impl SearchArgs {
    /// Whether no bound was given (the command's default time applies).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.time.is_none() && self.nodes.is_none()
    }
}

/// `match`'s arguments.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Players: chaturanga[:hash=MB,depth=N,nodes=N] (our engine in process), or uci:CMD, usi:CMD, \
xboard:CMD or gnushogi:CMD (an engine program and its arguments), with settings before the \
colon: uci,nodes=N:CMD (a node budget per move, UCI and USI), xboard,depth=N:CMD (a depth \
cap, XBoard and GNU Shogi), option=NAME=VALUE (repeatable; UCI, USI and XBoard).

Time controls: BASE+INC in seconds (10+0.1), MOVES/SECONDS (40/60, repeating) or st=SECONDS \
per move.")]
pub struct MatchArgs {
    /// Ruleset id (two players, or three: each engine then sits alone at every side in turn).
    #[arg(value_name = "variant")]
    pub variant: String,
    /// The first player (see below).
    #[arg(long, value_name = "P")]
    pub first: PlayerSpec,
    /// The second player.
    #[arg(long, value_name = "P")]
    pub second: PlayerSpec,
    /// Games to play (each opening twice, colours swapped).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_GAMES))
    )]
    pub games: u32,
    /// Time control.
    #[arg(long = "tc", value_name = "TC", default_value = "10+0.1", value_parser = parse_time_control)]
    pub time_control: TimeControl,
    /// The first player's own time control (time odds), of the same kind as the other's.
    #[arg(long = "first-tc", value_name = "TC", value_parser = parse_time_control)]
    pub first_time_control: Option<TimeControl>,
    /// The second player's own time control.
    #[arg(long = "second-tc", value_name = "TC", value_parser = parse_time_control)]
    pub second_time_control: Option<TimeControl>,
    /// Openings file: one per line, a FEN (with `moves ...` after it if wished) or moves
    /// from the start.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random plies from the start for each pair of games (without an openings file).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_RANDOM_PLIES))
    )]
    pub random_plies: u32,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Plies after which a game is drawn by adjudication.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1000,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PLIES))
    )]
    pub max_plies: u32,
    /// Stop when the sequential probability ratio test decides (never before 30 games):
    /// ELO0,ELO1[,ALPHA,BETA].
    #[arg(long, value_name = "ELO0,ELO1[,A,B]")]
    pub sprt: Option<Sprt>,
    /// Grace beyond the clock before a flag counts, in milliseconds.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 500,
        value_parser = clap::value_parser!(u64).range(0..=MAX_TIME_MARGIN_MS)
    )]
    pub time_margin: u64,
    /// Seed of random openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// A rule option of the ruleset (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", action = ArgAction::Append)]
    pub options: Vec<String>,
}

impl MatchArgs {
    /// The match runner's settings.
    pub fn settings(self) -> MatchSettings {
        MatchSettings {
            games: self.games.max(1),
            time_control: self.time_control,
            player_time_controls: [self.first_time_control, self.second_time_control],
            time_margin: Duration::from_millis(self.time_margin),
            openings: self.openings,
            random_plies: self.random_plies,
            pgn: self.pgn,
            max_plies: self.max_plies.max(1),
            sprt: self.sprt,
            seed: self.seed,
            rule_options: self.options,
            ..MatchSettings::new(&self.variant, [self.first, self.second])
        }
    }
}

fn depth_parser() -> impl TypedValueParser<Value = u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH))
}

fn record_format_parser() -> impl TypedValueParser<Value = RecordFormat> {
    PossibleValuesParser::new(RecordFormat::ALL.map(RecordFormat::extension))
        .map(|name| RecordFormat::parse(&name).expect("one of the possible values"))
}

/// Seconds above 0 and at most a day.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|&s| s > 0.0 && s <= MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("must be seconds above 0 and at most {MAX_SECONDS}"))
}

/// A player: white or first (0), black or second (1), or a number from 1.
fn parse_player(text: &str) -> Result<usize, String> {
    match text {
        "white" | "first" => Ok(0),
        "black" | "second" => Ok(1),
        n => match n.parse::<usize>() {
            Ok(k) if (1..=8).contains(&k) => Ok(k - 1),
            _ => Err("must be white, black or a number from 1".to_string()),
        },
    }
}

/// Parses the arguments after the program name. `Ok(None)`: help or the version was asked
/// for and has been printed.
pub fn parse(argv: &[String]) -> Result<Option<Command>, CliError> {
    let argv = hyphen_moves(argv);
    let words = std::iter::once("chaturanga".to_string()).chain(argv);
    match Cli::try_parse_from(words) {
        Ok(Cli {
            command: Some(command),
        }) => Ok(Some(command)),
        Ok(Cli { command: None }) => Err(CliError::Usage(
            "no command given (run `chaturanga help` for the commands)".to_string(),
        )),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.print()?;
            Ok(None)
        }
        Err(e) => Err(CliError::Usage(one_line(&e))),
    }
}

/// Moves that begin with `-` (WXF's `--=4`, `-R+1`) follow `--moves` like any other: each
/// is passed as `--moves=TEXT`, the form clap reads as a value whatever it looks like. A
/// move run ends at the first of the command's own flags.
fn hyphen_moves(argv: &[String]) -> Vec<String> {
    let Some(sub) = argv
        .first()
        .and_then(|name| Cli::command().find_subcommand(name).cloned())
    else {
        return argv.to_vec();
    };
    let is_flag = |word: &str| {
        let name = word
            .strip_prefix("--")
            .map(|w| w.split('=').next().unwrap_or(w));
        word == "-h"
            || name == Some("help")
            || sub
                .get_arguments()
                .any(|a| a.get_long().is_some() && a.get_long() == name)
    };
    let mut out = Vec::with_capacity(argv.len());
    let mut in_moves = false;
    for word in argv {
        if is_flag(word) {
            in_moves = word == "--moves";
            out.push(word.clone());
        } else if in_moves && word.starts_with('-') {
            out.push(format!("--moves={word}"));
            out.push("--moves".to_string());
        } else {
            out.push(word.clone());
        }
    }
    out
}

/// Clap's error as one line: its message and notes, without the usage block; a missing
/// argument also names the command's form (`expected \`perft <variant> <depth>\``).
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() || line.starts_with("tip: to pass") {
            continue;
        }
        parts.push(line.strip_prefix("error: ").unwrap_or(line).to_string());
    }
    let mut message = parts.join(" ");
    match e.kind() {
        ErrorKind::InvalidSubcommand => {
            if let Some(clap::error::ContextValue::String(name)) =
                e.get(clap::error::ContextKind::InvalidSubcommand)
            {
                message = format!("unknown command {:?}", excerpt(name));
            }
            message.push_str(" (run `chaturanga help` for the commands)");
        }
        ErrorKind::MissingRequiredArgument | ErrorKind::WrongNumberOfValues
            if command_form(&text).is_some() =>
        {
            if let Some(form) = command_form(&text) {
                message.push_str(&format!(" (expected `{form}`)"));
            }
        }
        _ => message.push_str(" (run `chaturanga help` for usage)"),
    }
    message
}

/// The form of the subcommand an error's usage line names: its name and positionals
/// (`perft <variant> <depth>`).
fn command_form(rendered: &str) -> Option<String> {
    let usage = rendered
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: chaturanga "))?;
    let name = usage.split_whitespace().next()?;
    let command = Cli::command();
    let sub = command.find_subcommand(name)?;
    let mut form = name.to_string();
    for arg in sub.get_positionals() {
        let value = arg
            .get_value_names()
            .and_then(|v| v.first())
            .map_or_else(|| arg.get_id().to_string(), |v| v.to_string());
        if arg.is_required_set() {
            form.push_str(&format!(" <{value}>"));
        } else {
            form.push_str(&format!(" [{value}]"));
        }
    }
    Some(form)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn usage_error(line: &str) -> String {
        match parse(&args(line)) {
            Err(CliError::Usage(m)) => m,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn the_declarations_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn perft_line() {
        let Ok(Some(Command::Perft {
            variant,
            depth,
            game,
            divide,
            turns,
        })) = parse(&args(
            "perft chess 3 --moves e2e4 e7e5 --divide --option fide-claims=on",
        ))
        else {
            panic!("not perft");
        };
        assert_eq!(
            (variant.as_str(), depth, divide, turns),
            ("chess", 3, true, false)
        );
        assert_eq!(game.moves, ["e2e4", "e7e5"]);
        assert_eq!(game.options, ["fide-claims=on"]);
        assert_eq!(game.fen, None);
    }

    #[test]
    fn moves_may_begin_with_a_hyphen() {
        let Ok(Some(Command::Fen { game, .. })) = parse(&args(
            "fen xiangqi --moves C2=5 --=4 -R+1 h10g8 --option a=b",
        )) else {
            panic!("not fen");
        };
        assert_eq!(game.moves, ["C2=5", "--=4", "-R+1", "h10g8"]);
        assert_eq!(game.options, ["a=b"]);
        assert!(usage_error("fen chess --bogus").contains("--bogus"));
    }

    #[test]
    fn a_fen_may_begin_with_a_hyphen() {
        let mut line = args("fen chex --fen");
        line.push("- [KQRRBBNNPPPPPPPP] w - 0 1".to_string());
        let Ok(Some(Command::Fen { game, .. })) = parse(&line) else {
            panic!("not fen");
        };
        assert_eq!(game.fen.as_deref(), Some("- [KQRRBBNNPPPPPPPP] w - 0 1"));
    }

    #[test]
    fn errors_are_one_line() {
        for (line, wanted) in [
            ("frobnicate", "unknown command"),
            ("perft chess x", "depth"),
            ("perft chess 99", "depth"),
            ("perft chess -1", "depth"),
            ("perft chess", "perft <variant> <depth>"),
            ("view darkchess", "view <variant> <player>"),
            ("moves chess --fen", "--fen"),
            ("moves chess --bogus", "--bogus"),
            ("moves chess --san --notation wxf", "--notation"),
            ("fen chess --fen a --fen b", "--fen"),
            ("record shogi --format kifu", "bpgn"),
            ("record shogi --format", "--format"),
            ("search chess --time 0", "--time"),
            ("search chess --nodes -5", "-5"),
            ("match chess --first chaturanga", "--second"),
            ("match chess --first x --second chaturanga", "--first"),
        ] {
            let message = usage_error(line);
            assert!(message.contains(wanted), "{line:?}: {message:?}");
            assert_eq!(message.lines().count(), 1, "{line:?}: {message:?}");
        }
        assert!(matches!(parse(&[]), Err(CliError::Usage(m)) if m.contains("no command")));
    }

    #[test]
    fn record_line() {
        let Ok(Some(Command::Record { game, format, .. })) =
            parse(&args("record shogi --moves 7g7f --format csa"))
        else {
            panic!("not record");
        };
        assert_eq!(
            (game.moves.as_slice(), format),
            (&["7g7f".to_string()][..], RecordFormat::Csa)
        );
        assert!(matches!(
            parse(&args("record chess")),
            Ok(Some(Command::Record {
                format: RecordFormat::Pgn,
                ..
            }))
        ));
    }

    #[test]
    fn a_match_takes_the_last_of_a_repeated_setting() {
        let Ok(Some(Command::Match(m))) = parse(&args(
            "match chess --first chaturanga --second chaturanga --max-plies 40 --max-plies 6 \
             --tc st=0.1 --games 0",
        )) else {
            panic!("not match");
        };
        let settings = m.settings();
        assert_eq!((settings.max_plies, settings.games), (6, 1));
        assert_eq!(
            settings.time_control,
            TimeControl::per_move(Duration::from_millis(100))
        );
    }
}
