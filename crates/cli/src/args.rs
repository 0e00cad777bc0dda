//! Command-line parsing, by hand: a handful of subcommands with repeatable flags.

use chaturanga_session::RecordFormat;
use std::fmt;
use std::time::Duration;

/// Usage text.
pub const USAGE: &str = "\
usage: chaturanga <command> [arguments]

commands:
  variants [--all]                          list ruleset ids (--all: the whole catalogue with status)
  perft <variant> <depth> [position] [--divide] [--turns]
                                            count leaf nodes of the legal move tree
                                            (--turns: one ply = a whole compound turn)
  moves <variant> [position] [--san | --notation NAME]
                                            legal moves, one per line, sorted (NAME: san, or the
                                            ruleset's own notation: wxf for xiangqi, csa or kif
                                            for shogi)
  fen <variant> [position]                  the FEN after the moves
  status <variant> [position]               `ongoing`, or the result and reason
  view <variant> <player> [position]        what one player may know (hidden-information
                                            rulesets: darkchess); player white|black or 1..n
  pgn <variant> [position]                  the game as PGN
  record <variant> [position] [--format pgn|kif|csa|bpgn]
                                            the game as a record: PGN (the default), or KIF or
                                            CSA for rulesets with those move notations (shogi);
                                            bughouse games are always BPGN
  search <variant> [position] [limits]      the engine's best move, with its thinking
                                            as UCI-like `info` lines, then `bestmove`
  play <variant> [position] [limits] [--engine-plays SIDES]
                                            play against the engine in the terminal (SIDES:
                                            none, all, first, second, or player names such as
                                            white, black, red, sente, comma-separated; default:
                                            every player but the one to move). `help` inside
                                            lists the commands (undo, resign, draw, save FILE…)
  bench [--perft] [--search] [--depth N] [variant ...]
                                            perft speed from each start position and a
                                            fixed-depth search (both unless one is chosen)
  rules [variant]                           rule options of a ruleset
  match <variant> --first P --second P [--games N] [--tc TC] [--openings FILE]
        [--random-plies N] [--pgn FILE] [--max-plies N] [--sprt ELO0,ELO1[,A,B]]
        [--time-margin MS] [--seed N] [--option name=value]
                                            play two engines against each other (P:
                                            chaturanga[:hash=MB,depth=N,nodes=N], uci:CMD,
                                            usi:CMD, xboard:CMD or gnushogi:CMD, settings
                                            before the colon: uci,nodes=N:CMD,
                                            xboard,depth=N,option=NAME=VALUE:CMD; TC:
                                            BASE+INC seconds, MOVES/SECONDS or st=SECONDS per
                                            move); prints W-D-L, Elo ± 95 % and infractions
  uci | usi | xboard                        speak an engine protocol on standard input and
                                            output (UCI with UCI_Variant for every ruleset; USI
                                            for the shogi family; XBoard/CECP v2)
  serve [--listen ADDR] [--db PATH|URL]     the game server: people play every ruleset with
                                            each other and the engine over HTTP and websockets
                                            (default 127.0.0.1:8080 and chaturanga.db, created
                                            and migrated on first start; a postgres:// URL
                                            stores the games in PostgreSQL, which several
                                            nodes may share)
  help                                      this text

limits: [--time SECONDS] [--depth N] [--nodes N]   (default: --time 1 for search, 2 for play)

position: [--fen FEN] [--moves M ...] [--option name=value ...]
  moves may be coordinate notation (e2e4, e7e8q), SAN (Nf3, O-O) or the ruleset's own
  notation (xiangqi WXF: C2=5; shogi CSA: +7776FU, KIF: ７六歩(77))";

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `variants`.
    Variants {
        /// Show the whole catalogue.
        all: bool,
    },
    /// `perft`.
    Perft {
        /// Where.
        game: GameArgs,
        /// Depth.
        depth: u32,
        /// Split by root move.
        divide: bool,
        /// Count whole turns instead of single moves (compound turns).
        turns: bool,
    },
    /// `moves`.
    Moves {
        /// Where.
        game: GameArgs,
        /// Notation to list the moves in (`None`: coordinate notation).
        notation: Option<String>,
    },
    /// `fen`.
    Fen(GameArgs),
    /// `status`.
    Status(GameArgs),
    /// `view`.
    View {
        /// Where.
        game: GameArgs,
        /// Whose view (0 = the first player).
        player: usize,
    },
    /// `pgn`.
    Pgn(GameArgs),
    /// `record`.
    Record {
        /// Where.
        game: GameArgs,
        /// Which record format.
        format: RecordFormat,
    },
    /// `search`.
    Search {
        /// Where.
        game: GameArgs,
        /// How long.
        limits: SearchArgs,
    },
    /// `play`.
    Play {
        /// Where the game starts.
        game: GameArgs,
        /// How long the engine thinks per move.
        limits: SearchArgs,
        /// Which players the engine plays (`None`: every player but the one to move).
        engine_plays: Option<String>,
    },
    /// `serve`.
    Serve {
        /// Address to listen on.
        listen: std::net::SocketAddr,
        /// The database: an SQLite file, or a PostgreSQL URL.
        db: chaturanga_server::store::Database,
    },
    /// `bench`.
    Bench {
        /// Depth for every variant instead of its default.
        depth: Option<u32>,
        /// Which variants (all implemented when empty).
        variants: Vec<String>,
        /// Run the perft benchmark.
        perft: bool,
        /// Run the search benchmark.
        search: bool,
    },
    /// `rules`.
    Rules {
        /// Which variant (all when none).
        variant: Option<String>,
    },
    /// `match`: two engines play each other.
    Match(Box<crate::tournament::MatchSettings>),
    /// `uci`, `usi` or `xboard`: speak an engine protocol on standard input and output.
    Protocol(Protocol),
    /// `help`.
    Help,
}

pub use chaturanga_protocol::Protocol;

/// A variant, a start position and moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameArgs {
    /// Ruleset id.
    pub variant: String,
    /// Start FEN (the ruleset's start position when absent).
    pub fen: Option<String>,
    /// Moves to play first.
    pub moves: Vec<String>,
    /// Rule options.
    pub options: Vec<String>,
}

/// Bounds of an engine search given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchArgs {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Nodes per move.
    pub nodes: Option<u64>,
}

impl SearchArgs {
    /// Whether no bound was given (the command's default time applies).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.time.is_none() && self.nodes.is_none()
    }
}

/// Errors of the command line and of the commands.
#[derive(Debug)]
pub enum CliError {
    /// Bad command line.
    Usage(String),
    /// Bad input data (variant, FEN, move, option).
    Input(String),
    /// Writing output failed.
    Io(std::io::Error),
}

impl CliError {
    /// Process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Input(_) => 1,
            CliError::Io(_) => 74,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "{m} (run `chaturanga help` for usage)"),
            CliError::Input(m) => write!(f, "{m}"),
            CliError::Io(e) => write!(f, "cannot write output: {e}"),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parses the arguments after the program name.
pub fn parse(argv: &[String]) -> Result<Command, CliError> {
    let Some((command, rest)) = argv.split_first() else {
        return Err(usage("no command given"));
    };
    match command.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "match" => Ok(Command::Match(Box::new(
            crate::tournament::MatchSettings::parse(rest)?,
        ))),
        "uci" | "usi" | "xboard" => {
            Flags::parse(rest, &[], &[])?.no_positionals()?;
            Ok(Command::Protocol(match command.as_str() {
                "uci" => Protocol::Uci,
                "usi" => Protocol::Usi,
                _ => Protocol::XBoard,
            }))
        }
        "variants" => {
            let flags = Flags::parse(rest, &["--all"], &[])?;
            flags.no_positionals()?;
            Ok(Command::Variants {
                all: flags.has("--all"),
            })
        }
        "perft" => {
            let flags = Flags::parse(rest, &["--divide", "--turns"], GAME_FLAGS)?;
            let [variant, depth] = flags.positionals::<2>("perft <variant> <depth>")?;
            let depth = depth
                .parse::<u32>()
                .ok()
                .filter(|&d| d <= 30)
                .ok_or_else(|| {
                    usage(format!(
                        "depth must be a number from 0 to 30, not {:?}",
                        cut(&depth)
                    ))
                })?;
            Ok(Command::Perft {
                game: flags.game(variant)?,
                depth,
                divide: flags.has("--divide"),
                turns: flags.has("--turns"),
            })
        }
        "moves" => {
            let mut valued = GAME_FLAGS.to_vec();
            valued.push("--notation");
            let flags = Flags::parse(rest, &["--san"], &valued)?;
            let [variant] = flags.positionals::<1>("moves <variant>")?;
            let mut notation = flags.values("--notation").into_iter().next();
            if flags.has("--san") {
                if notation.is_some() {
                    return Err(usage("give either --san or --notation"));
                }
                notation = Some("san".to_string());
            }
            Ok(Command::Moves {
                game: flags.game(variant)?,
                notation,
            })
        }
        "fen" | "status" | "pgn" => {
            let flags = Flags::parse(rest, &[], GAME_FLAGS)?;
            let [variant] = flags.positionals::<1>(&format!("{command} <variant>"))?;
            let game = flags.game(variant)?;
            Ok(match command.as_str() {
                "fen" => Command::Fen(game),
                "status" => Command::Status(game),
                _ => Command::Pgn(game),
            })
        }
        "view" => {
            let flags = Flags::parse(rest, &[], GAME_FLAGS)?;
            let [variant, player] = flags.positionals::<2>("view <variant> <player>")?;
            let player = match player.as_str() {
                "white" | "first" => 0,
                "black" | "second" => 1,
                n => match n.parse::<usize>() {
                    Ok(k) if (1..=8).contains(&k) => k - 1,
                    _ => {
                        return Err(usage(format!(
                            "player must be white, black or a number from 1, not {:?}",
                            cut(n)
                        )));
                    }
                },
            };
            Ok(Command::View {
                game: flags.game(variant)?,
                player,
            })
        }
        "record" => {
            let mut valued = GAME_FLAGS.to_vec();
            valued.push("--format");
            let flags = Flags::parse(rest, &[], &valued)?;
            let [variant] = flags.positionals::<1>("record <variant>")?;
            let format = match flags.values("--format").first() {
                None => RecordFormat::Pgn,
                Some(name) => RecordFormat::parse(name).ok_or_else(|| {
                    usage(format!(
                        "--format must be pgn, kif, csa or bpgn, not {:?}",
                        cut(name)
                    ))
                })?,
            };
            Ok(Command::Record {
                game: flags.game(variant)?,
                format,
            })
        }
        "bench" => {
            let flags = Flags::parse(rest, &["--perft", "--search"], &["--depth"])?;
            let depth = flags.depth()?;
            let (perft, search) = (flags.has("--perft"), flags.has("--search"));
            Ok(Command::Bench {
                depth,
                variants: flags.positionals.clone(),
                perft: perft || !search,
                search: search || !perft,
            })
        }
        "search" => {
            let mut valued = GAME_FLAGS.to_vec();
            valued.extend(SEARCH_FLAGS);
            let flags = Flags::parse(rest, &[], &valued)?;
            let [variant] = flags.positionals::<1>("search <variant>")?;
            Ok(Command::Search {
                game: flags.game(variant)?,
                limits: flags.search_limits()?,
            })
        }
        "play" => {
            let mut valued = GAME_FLAGS.to_vec();
            valued.extend(SEARCH_FLAGS);
            valued.push("--engine-plays");
            let flags = Flags::parse(rest, &[], &valued)?;
            let [variant] = flags.positionals::<1>("play <variant>")?;
            Ok(Command::Play {
                game: flags.game(variant)?,
                limits: flags.search_limits()?,
                engine_plays: flags.values("--engine-plays").into_iter().next(),
            })
        }
        "serve" => {
            let flags = Flags::parse(rest, &[], &["--listen", "--db"])?;
            flags.no_positionals()?;
            let listen = match flags.values("--listen").first() {
                Some(text) => text.parse().map_err(|_| {
                    usage(format!(
                        "--listen needs HOST:PORT such as 127.0.0.1:8080, not {:?}",
                        cut(text)
                    ))
                })?,
                None => std::net::SocketAddr::from(([127, 0, 0, 1], 8080)),
            };
            let db = flags.values("--db").first().map_or(
                chaturanga_server::store::Database::Sqlite("chaturanga.db".into()),
                |text| chaturanga_server::store::Database::parse(text),
            );
            Ok(Command::Serve { listen, db })
        }
        "rules" => {
            let flags = Flags::parse(rest, &[], &[])?;
            if flags.positionals.len() > 1 {
                return Err(usage("rules takes at most one variant"));
            }
            Ok(Command::Rules {
                variant: flags.positionals.first().cloned(),
            })
        }
        other => Err(usage(format!("unknown command {:?}", cut(other)))),
    }
}

const GAME_FLAGS: &[&str] = &["--fen", "--moves", "--option"];
const SEARCH_FLAGS: [&str; 3] = ["--depth", "--time", "--nodes"];
/// Longest time per move accepted (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// Flags and positionals of one command line.
struct Flags {
    switches: Vec<String>,
    values: Vec<(String, String)>,
    positionals: Vec<String>,
}

impl Flags {
    /// `switches` take no value; `valued` flags take values up to the next flag (`--moves`
    /// and `--option` take several, `--fen` and `--depth` exactly one).
    fn parse(args: &[String], switches: &[&str], valued: &[&str]) -> Result<Flags, CliError> {
        let mut flags = Flags {
            switches: Vec::new(),
            values: Vec::new(),
            positionals: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if let Some(&s) = switches.iter().find(|&&s| s == a) {
                flags.switches.push(s.to_string());
                i += 1;
            } else if let Some(&flag) = valued.iter().find(|&&s| s == a) {
                i += 1;
                let many = matches!(flag, "--moves" | "--option");
                let mut taken = 0;
                // Values run to the next known flag (a WXF move such as `--=4` is a value).
                let is_flag = |a: &str| switches.contains(&a) || valued.contains(&a);
                while i < args.len() && !is_flag(&args[i]) {
                    flags.values.push((flag.to_string(), args[i].clone()));
                    taken += 1;
                    i += 1;
                    if !many {
                        break;
                    }
                }
                if taken == 0 && flag != "--moves" {
                    return Err(usage(format!("{flag} needs a value")));
                }
                if !many && flags.values.iter().filter(|(f, _)| f == flag).count() > 1 {
                    return Err(usage(format!("{flag} given twice")));
                }
            } else if a.starts_with("--") {
                return Err(usage(format!("unknown flag {:?}", cut(a))));
            } else {
                flags.positionals.push(a.clone());
                i += 1;
            }
        }
        Ok(flags)
    }

    fn has(&self, switch: &str) -> bool {
        self.switches.iter().any(|s| s == switch)
    }

    fn values(&self, flag: &str) -> Vec<String> {
        self.values
            .iter()
            .filter(|(f, _)| f == flag)
            .map(|(_, v)| v.clone())
            .collect()
    }

    fn no_positionals(&self) -> Result<(), CliError> {
        match self.positionals.first() {
            Some(p) => Err(usage(format!("unexpected argument {:?}", cut(p)))),
            None => Ok(()),
        }
    }

    fn positionals<const N: usize>(&self, form: &str) -> Result<[String; N], CliError> {
        if self.positionals.len() != N {
            return Err(usage(format!("expected `{form}`")));
        }
        Ok(std::array::from_fn(|i| self.positionals[i].clone()))
    }

    fn depth(&self) -> Result<Option<u32>, CliError> {
        self.values("--depth")
            .first()
            .map(|d| {
                d.parse::<u32>()
                    .ok()
                    .filter(|&d| (1..=30).contains(&d))
                    .ok_or_else(|| usage(format!("--depth must be 1 to 30, not {:?}", cut(d))))
            })
            .transpose()
    }

    fn search_limits(&self) -> Result<SearchArgs, CliError> {
        let time = self
            .values("--time")
            .first()
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|&s| s > 0.0 && s <= MAX_SECONDS)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        usage(format!(
                            "--time must be seconds above 0 and at most {MAX_SECONDS}, not {:?}",
                            cut(t)
                        ))
                    })
            })
            .transpose()?;
        let nodes = self
            .values("--nodes")
            .first()
            .map(|n| {
                n.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    usage(format!(
                        "--nodes must be a positive number, not {:?}",
                        cut(n)
                    ))
                })
            })
            .transpose()?;
        Ok(SearchArgs {
            depth: self.depth()?,
            time,
            nodes,
        })
    }

    fn game(&self, variant: String) -> Result<GameArgs, CliError> {
        Ok(GameArgs {
            variant,
            fen: self.values("--fen").into_iter().next(),
            moves: self.values("--moves"),
            options: self.values("--option"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn perft_line() {
        let c = parse(&args(
            "perft chess 3 --moves e2e4 e7e5 --divide --option fide-claims=on",
        ))
        .unwrap();
        assert_eq!(
            c,
            Command::Perft {
                game: GameArgs {
                    variant: "chess".into(),
                    fen: None,
                    moves: vec!["e2e4".into(), "e7e5".into()],
                    options: vec!["fide-claims=on".into()],
                },
                depth: 3,
                divide: true,
                turns: false,
            }
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(parse(&args("")), Err(CliError::Usage(_))));
        assert!(matches!(
            parse(&args("frobnicate")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("perft chess x")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("perft chess 99")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("perft chess")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("moves chess --fen")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("moves chess --bogus")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("fen chess --fen a --fen b")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("record shogi --format kifu")),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(
            parse(&args("record shogi --format")),
            Err(CliError::Usage(_))
        ));
    }

    #[test]
    fn record_line() {
        let c = parse(&args("record shogi --moves 7g7f --format csa")).unwrap();
        assert_eq!(
            c,
            Command::Record {
                game: GameArgs {
                    variant: "shogi".into(),
                    fen: None,
                    moves: vec!["7g7f".into()],
                    options: vec![],
                },
                format: RecordFormat::Csa,
            }
        );
        let c = parse(&args("record chess")).unwrap();
        assert!(matches!(
            c,
            Command::Record {
                format: RecordFormat::Pgn,
                ..
            }
        ));
    }
}
