//! The players of a match: our engine in process, or an external engine speaking UCI, USI,
//! XBoard, or GNU Shogi's own line protocol.
//!
//! Every player answers one question, [`Player::choose`]: the move to play in the referee's
//! game with the clocks as they stand. External engines are kept in sync incrementally
//! where their protocol allows (XBoard, GNU Shogi) and sent the whole game where it is
//! stateless (UCI, USI).

use super::clock::{Clocks, gnushogi_level, xboard_level};
use chaturanga_engine::{Level, Limits};
use chaturanga_protocol::Protocol;
use chaturanga_protocol::fairy::Dialect;
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_session::{GameSession, SessionError, from_fairy, from_xboard, open, to_xboard};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to start up and answer its handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest line read from an engine.
const MAX_ENGINE_LINE: usize = 1 << 16;

/// Why a player gave no move, or could not play.
#[derive(Debug)]
pub enum PlayerError {
    /// The engine process ended: writing to it failed (`Some`), or its output closed.
    Crashed(Option<std::io::Error>),
    /// No move before the flag fell.
    Timeout,
    /// The engine said something the protocol does not allow (what it said).
    Protocol(String),
    /// The engine resigned.
    Resigned,
    /// The engine program could not be run.
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine cannot play this game (why).
    Start(String),
    /// Our engine's session refused the ruleset or its options.
    Open(SessionError),
    /// Our engine's session refused the referee's game.
    Replay(SessionError),
    /// The engine writes its moves in another notation than its protocol's here: its move
    /// is not legal as the protocol reads it, but is in the notation named.
    Notation {
        /// The move as the engine wrote it.
        said: String,
        /// The notation the runner reads the protocol in.
        expected: &'static str,
        /// The notation in which the move is legal.
        reads_as: &'static str,
    },
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Crashed(Some(e)) => write!(f, "crashed: {e}"),
            PlayerError::Crashed(None) => write!(f, "crashed: output closed"),
            PlayerError::Timeout => write!(f, "no move in time"),
            PlayerError::Protocol(e) => write!(f, "protocol error: {e}"),
            PlayerError::Resigned => write!(f, "resigned"),
            PlayerError::Spawn { program, source } => {
                write!(f, "cannot start: {program}: {source}")
            }
            PlayerError::Start(e) => write!(f, "cannot start: {e}"),
            PlayerError::Open(e) => write!(f, "cannot start: {e}"),
            PlayerError::Replay(e) => write!(f, "protocol error: {e}"),
            PlayerError::Notation {
                said,
                expected,
                reads_as,
            } => write!(
                f,
                "notation mismatch: its move {said:?} is not legal in {expected}, but is in \
                 {reads_as}; the engine speaks another dialect of its protocol"
            ),
        }
    }
}

impl std::error::Error for PlayerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayerError::Crashed(Some(e)) | PlayerError::Spawn { source: e, .. } => Some(e),
            PlayerError::Open(e) | PlayerError::Replay(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a player's description (`--first`, `--second`) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpecError(String);

impl fmt::Display for PlayerSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayerSpecError {}

/// A participant of a match.
pub trait Player {
    /// Name for the PGN.
    fn name(&self) -> String;
    /// A new game of `game`'s ruleset begins: from the ruleset's start position, or from
    /// `game`'s start FEN when `custom_start`; the opening's moves follow in `game`.
    fn start_game(
        &mut self,
        game: &dyn GameSession,
        tc: &TimeControl,
        custom_start: bool,
    ) -> Result<(), PlayerError>;
    /// The move to play now, in any notation the referee reads.
    fn choose(&mut self, game: &dyn GameSession, clocks: &Clocks) -> Result<String, PlayerError>;
    /// The game is over.
    fn game_over(&mut self, _result: &str) {}
}

/// How to make a player, from the command line's `--first`/`--second`.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Our engine, in process.
    Own {
        /// Transposition table in MiB.
        hash_mb: usize,
        /// Depth cap per move.
        depth: Option<u32>,
        /// Node cap per move.
        nodes: Option<u64>,
        /// Strength level (`chaturanga_engine::Level`), full strength when `None`.
        level: Option<Level>,
    },
    /// An external engine speaking one of the engine protocols.
    External {
        /// Its protocol.
        protocol: Protocol,
        /// The command line, split at whitespace.
        command: Vec<String>,
        /// Depth cap (XBoard's `sd`).
        depth: Option<u32>,
        /// Node budget per move instead of the clock (UCI and USI `go nodes`).
        nodes: Option<u64>,
        /// Engine options, `NAME=VALUE`.
        options: Vec<String>,
    },
    /// GNU Shogi in its own line protocol (moves in, `N. ... move` out), as Debian ships it.
    GnuShogi {
        /// The command line, split at whitespace.
        command: Vec<String>,
        /// Depth cap (its `depth` command).
        depth: Option<u32>,
    },
}

impl std::str::FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        PlayerSpec::parse(text)
    }
}

impl PlayerSpec {
    /// Reads `chaturanga[:hash=64,depth=8,nodes=100000,level=1-8]` or `uci:CMD`, `usi:CMD`,
    /// `xboard:CMD`, `gnushogi:CMD`. External engines take settings before the colon:
    /// `xboard,depth=4,option=Allow repeats=1:CMD` (a depth cap for XBoard and GNU Shogi
    /// engines; a node budget per move, `nodes=N`, for UCI and USI engines; engine options,
    /// repeatable, for UCI, USI and XBoard engines).
    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
        PlayerSpec::read(text).map_err(PlayerSpecError)
    }

    fn read(text: &str) -> Result<PlayerSpec, String> {
        let (head, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut settings = head.split(',');
        let kind = settings.next().unwrap_or("");
        let mut depth = None;
        let mut nodes = None;
        let mut options = Vec::new();
        if !matches!(kind, "chaturanga" | "self") {
            for setting in settings {
                match setting.split_once('=') {
                    Some(("depth", d)) => {
                        depth = Some(
                            d.parse::<u32>()
                                .ok()
                                .filter(|d| (1..=64).contains(d))
                                .ok_or_else(|| format!("bad depth {d:?}"))?,
                        );
                    }
                    Some(("nodes", n)) => {
                        nodes = Some(
                            n.parse::<u64>()
                                .ok()
                                .filter(|&n| n > 0)
                                .ok_or_else(|| format!("bad node count {n:?}"))?,
                        );
                    }
                    Some(("option", option)) if option.contains('=') => {
                        options.push(option.to_string());
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine setting {:?} (depth=N, nodes=N, option=NAME=VALUE)",
                            excerpt(setting)
                        ));
                    }
                }
            }
        }
        if depth.is_some() && !matches!(kind, "xboard" | "gnushogi") {
            return Err(format!(
                "{kind}: a depth cap is for xboard and gnushogi engines"
            ));
        }
        if nodes.is_some() && !matches!(kind, "uci" | "usi") {
            return Err(format!("{kind}: a node budget is for uci and usi engines"));
        }
        if !options.is_empty() && kind == "gnushogi" {
            return Err("gnushogi: GNU Shogi has no options".to_string());
        }
        let protocol = match kind {
            "chaturanga" | "self" => return parse_own(rest),
            "gnushogi" => None,
            other => Some(
                Protocol::ALL
                    .into_iter()
                    .find(|p| p.name() == other)
                    .ok_or_else(|| {
                        format!(
                            "player must be chaturanga[:settings], uci:CMD, usi:CMD, xboard:CMD \
                             or gnushogi:CMD, not {:?}",
                            excerpt(other)
                        )
                    })?,
            ),
        };
        let command: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err(format!("{kind}: needs a command line"));
        }
        Ok(match protocol {
            Some(protocol) => PlayerSpec::External {
                protocol,
                command,
                depth,
                nodes,
                options,
            },
            None => PlayerSpec::GnuShogi { command, depth },
        })
    }

    /// Makes the player.
    pub fn build(
        &self,
        label: &str,
        rule_options: &[String],
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Own {
                hash_mb,
                depth,
                nodes,
                level,
            } => Box::new(OwnEngine {
                label: label.to_string(),
                rule_options: rule_options.to_vec(),
                session: None,
                hash_mb: *hash_mb,
                depth: *depth,
                nodes: *nodes,
                level: *level,
            }),
            PlayerSpec::External {
                protocol,
                command,
                depth,
                nodes,
                options,
            } => {
                let process = EngineProcess::spawn(command)?;
                match protocol {
                    Protocol::Uci | Protocol::Usi => {
                        let mut engine = UciEngine::new(process, *protocol, *nodes)?;
                        for option in options {
                            let (name, value) = option.split_once('=').unwrap_or((option, ""));
                            engine
                                .process
                                .send(&format!("setoption name {name} value {value}"))?;
                        }
                        Box::new(engine)
                    }
                    Protocol::XBoard => {
                        let mut engine = XBoardEngine::new(process, *depth)?;
                        for option in options {
                            engine.process.send(&format!("option {option}"))?;
                        }
                        Box::new(engine)
                    }
                }
            }
            PlayerSpec::GnuShogi { command, depth } => {
                Box::new(GnuShogi::new(EngineProcess::spawn(command)?, *depth))
            }
        })
    }
}

fn parse_own(settings: &str) -> Result<PlayerSpec, String> {
    let mut hash_mb = 64;
    let mut depth = None;
    let mut nodes = None;
    let mut level = None;
    for setting in settings.split(',').filter(|s| !s.is_empty()) {
        let (key, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("setting {setting:?} needs key=value"))?;
        let bad = || format!("bad value for {key}: {value:?}");
        match key {
            "hash" => {
                hash_mb = value
                    .parse()
                    .ok()
                    .filter(|mb| (1..=4096).contains(mb))
                    .ok_or_else(bad)?
            }
            "depth" => {
                depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|d| (1..=64).contains(d))
                        .ok_or_else(bad)?,
                )
            }
            "nodes" => nodes = Some(value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?),
            "level" => {
                level = Some(Level::new(
                    value
                        .parse()
                        .ok()
                        .filter(|l| (Level::MIN.number()..=Level::MAX.number()).contains(l))
                        .ok_or_else(bad)?,
                ))
            }
            other => {
                return Err(format!(
                    "unknown setting {other:?} (hash, depth, nodes, level)"
                ));
            }
        }
    }
    Ok(PlayerSpec::Own {
        hash_mb,
        depth,
        nodes,
        level,
    })
}

/// Our engine, searching a copy of the referee's game.
struct OwnEngine {
    label: String,
    rule_options: Vec<String>,
    session: Option<Box<dyn GameSession>>,
    hash_mb: usize,
    depth: Option<u32>,
    nodes: Option<u64>,
    level: Option<Level>,
}

impl Player for OwnEngine {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn start_game(
        &mut self,
        game: &dyn GameSession,
        _tc: &TimeControl,
        _custom_start: bool,
    ) -> Result<(), PlayerError> {
        let reuse = self
            .session
            .as_ref()
            .is_some_and(|s| s.variant().id == game.variant().id);
        if !reuse {
            self.session = Some(open(game.variant().id, self.hash_mb).map_err(PlayerError::Open)?);
        }
        if let Some(session) = self.session.as_mut() {
            session
                .set_rule_options(&self.rule_options)
                .map_err(PlayerError::Open)?;
            session.set_level(self.level);
            session.new_game();
        }
        Ok(())
    }

    fn choose(&mut self, game: &dyn GameSession, clocks: &Clocks) -> Result<String, PlayerError> {
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("no game started".to_string()))?;
        // The referee's options and moves, replayed (cheap next to a search).
        session
            .reset(Some(&game.start_fen()))
            .map_err(PlayerError::Replay)?;
        for mv in game.moves_played() {
            session.play(&mv).map_err(PlayerError::Replay)?;
        }
        let mut limits: Limits = clocks.limits_for(game.side_to_move());
        limits.depth = self.depth;
        limits.nodes = self.nodes;
        let decision = session.search(&limits, &mut |_| {});
        decision.best.ok_or(PlayerError::Resigned)
    }
}

/// A running engine process and the lines it writes.
struct EngineProcess {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    name: String,
    /// Where to copy the conversation (`CHATURANGA_ENGINE_LOG`), for debugging engines.
    log: Option<std::sync::Arc<std::sync::Mutex<std::fs::File>>>,
}

/// Appends a line to the engine log, if there is one.
fn log_line(
    log: &Option<std::sync::Arc<std::sync::Mutex<std::fs::File>>>,
    name: &str,
    arrow: &str,
    line: &str,
) {
    if let Some(file) = log
        && let Ok(mut file) = file.lock()
    {
        let _ = writeln!(file, "{name} {arrow} {line}");
    }
}

impl EngineProcess {
    fn spawn(command: &[String]) -> Result<EngineProcess, PlayerError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| PlayerError::Start("empty command".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| PlayerError::Spawn {
                program: program.clone(),
                source,
            })?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| PlayerError::Start("no stdin".to_string()))?;
        let output = child
            .stdout
            .take()
            .ok_or_else(|| PlayerError::Start("no stdout".to_string()))?;
        let log = std::env::var_os("CHATURANGA_ENGINE_LOG")
            .and_then(|path| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .ok()
            })
            .map(|file| std::sync::Arc::new(std::sync::Mutex::new(file)));
        let name = std::path::Path::new(program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        let reader_log = log.clone();
        let reader_name = name.clone();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let mut bytes = Vec::new();
                match std::io::Read::take(&mut reader, MAX_ENGINE_LINE as u64)
                    .read_until(b'\n', &mut bytes)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
                log_line(&reader_log, &reader_name, "<", &line);
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            input,
            lines,
            name,
            log,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        log_line(&self.log, &self.name, ">", line);
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| PlayerError::Crashed(Some(e)))
    }

    /// The next line, waiting until `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, PlayerError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(PlayerError::Crashed(None)),
        }
    }

    /// Reads lines until one satisfies `want`, returning what it extracts.
    fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut want: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, PlayerError> {
        loop {
            let line = self.next_line(deadline)?;
            if let Some(found) = want(&line) {
                return Ok(found);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A UCI or USI engine: stateless, sent the whole game before every move. UCI is spoken in
/// Fairy-Stockfish's dialect (its coordinates and FENs in the shogi family), USI in USI's.
struct UciEngine {
    process: EngineProcess,
    protocol: Protocol,
    name: String,
    /// Searches this many nodes per move instead of following the clock.
    nodes: Option<u64>,
    /// How moves and positions are written for the game being played.
    dialect: Dialect,
}

impl UciEngine {
    fn new(
        mut process: EngineProcess,
        protocol: Protocol,
        nodes: Option<u64>,
    ) -> Result<UciEngine, PlayerError> {
        let (hello, done) = match protocol {
            Protocol::Usi => ("usi", "usiok"),
            _ => ("uci", "uciok"),
        };
        process.send(hello)?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut name = process.name.clone();
        process.wait_for(deadline, |line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = n.trim().to_string();
            }
            (line.trim() == done).then_some(())
        })?;
        Ok(UciEngine {
            process,
            protocol,
            name,
            nodes,
            dialect: Dialect::ours(),
        })
    }

    fn ready(&mut self) -> Result<(), PlayerError> {
        self.process.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process
            .wait_for(deadline, |line| (line.trim() == "readyok").then_some(()))
    }
}

impl Player for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn start_game(
        &mut self,
        game: &dyn GameSession,
        _tc: &TimeControl,
        _custom_start: bool,
    ) -> Result<(), PlayerError> {
        let info = game.variant();
        let name = info.fairy_stockfish.unwrap_or(info.id);
        self.dialect = match self.protocol {
            Protocol::Uci => Dialect::uci(game),
            _ => Dialect::ours(),
        };
        // An engine plays its protocol's default ruleset until told otherwise.
        if info.id != self.protocol.default_variant() {
            let option = if self.protocol == Protocol::Usi {
                "USI_Variant"
            } else {
                "UCI_Variant"
            };
            self.process
                .send(&format!("setoption name {option} value {name}"))?;
        }
        self.process.send(if self.protocol == Protocol::Usi {
            "usinewgame"
        } else {
            "ucinewgame"
        })?;
        self.ready()
    }

    fn choose(&mut self, game: &dyn GameSession, clocks: &Clocks) -> Result<String, PlayerError> {
        let moves = game.moves_played();
        let fen_word = if self.protocol == Protocol::Usi {
            "sfen"
        } else {
            "fen"
        };
        let dialect = self.dialect;
        // The start position is given as a FEN (our start may not be the engine's, as in
        // Capablanca chess); an SFEN start has no halfmove clock, so it is 0.
        let mut position = format!(
            "position {fen_word} {}",
            dialect.fen_text(&game.start_fen(), 0)
        );
        if !moves.is_empty() {
            position.push_str(" moves ");
            let moves: Vec<String> = moves.iter().map(|m| dialect.move_out(m)).collect();
            position.push_str(&moves.join(" "));
        }
        self.process.send(&position)?;
        let go = match self.nodes {
            Some(nodes) => format!("go nodes {nodes}"),
            None => clocks.go_command(game.side_to_move(), self.protocol == Protocol::Usi),
        };
        self.process.send(&go)?;
        let deadline = clocks.deadline(game.side_to_move());
        let answer = self.process.wait_for(deadline, |line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("").to_string())
        });
        match answer {
            Ok(mv) if mv == "resign" || mv == "(none)" || mv == "0000" || mv.is_empty() => {
                Err(PlayerError::Resigned)
            }
            Ok(mv) => {
                let ours = dialect.move_in(&mv);
                let expected = match (self.protocol, dialect.translates()) {
                    (Protocol::Usi, _) => "USI's notation",
                    (_, true) => "Fairy-Stockfish's UCI notation",
                    _ => "UCI's notation",
                };
                match other_reading(game, &mv, &ours) {
                    Some(reads_as) => Err(PlayerError::Notation {
                        said: mv,
                        expected,
                        reads_as,
                    }),
                    None => Ok(ours),
                }
            }
            Err(PlayerError::Timeout) => {
                // Collect the late answer so the next position starts clean.
                let _ = self.process.send("stop");
                let _ = self
                    .process
                    .wait_for(Instant::now() + HANDSHAKE_TIMEOUT, |line| {
                        line.starts_with("bestmove").then_some(())
                    });
                Err(PlayerError::Timeout)
            }
            Err(e) => Err(e),
        }
    }
}

/// Where an engine's move `said`, read as `ours` by its protocol's dialect, is not legal
/// but is legal read in another dialect (our coordinate notation, which is USI's in the
/// shogi family; Fairy-Stockfish's UCI; XBoard's), that dialect's name: the engine and the
/// runner disagree on notation, which is a setup error, not the engine's rules infraction.
fn other_reading(game: &dyn GameSession, said: &str, ours: &str) -> Option<&'static str> {
    let legal = game.legal_moves();
    if legal.iter().any(|m| m == ours) {
        return None;
    }
    let geometry = game.geometry();
    let plain = if game.variant().usi {
        "USI's notation"
    } else {
        "our coordinate notation"
    };
    [
        (plain, said.to_string()),
        ("Fairy-Stockfish's UCI notation", from_fairy(geometry, said)),
        ("XBoard's notation", from_xboard(geometry, said)),
    ]
    .into_iter()
    .find(|(_, reading)| reading != ours && legal.contains(reading))
    .map(|(name, _)| name)
}

/// An XBoard engine, kept in step move by move.
struct XBoardEngine {
    process: EngineProcess,
    depth: Option<u32>,
    name: String,
    usermove: bool,
    setboard: bool,
    /// Moves of the game the engine knows.
    synced: usize,
    /// Whether the engine is in force mode (not playing a side).
    forced: bool,
}

impl XBoardEngine {
    fn new(mut process: EngineProcess, depth: Option<u32>) -> Result<XBoardEngine, PlayerError> {
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut name = process.name.clone();
        let mut usermove = false;
        let mut setboard = false;
        // Version 1 engines never send `feature done=1`: a short wait then goes on.
        let deadline = Instant::now() + Duration::from_secs(2);
        let _ = process.wait_for(deadline, |line| {
            let features = line.strip_prefix("feature ")?;
            if let Some(start) = features.find("myname=\"") {
                let rest = &features[start + 8..];
                if let Some(end) = rest.find('"') {
                    name = rest[..end].to_string();
                }
            }
            usermove |= features.contains("usermove=1");
            setboard |= features.contains("setboard=1");
            features.contains("done=1").then_some(())
        });
        Ok(XBoardEngine {
            process,
            depth,
            name,
            usermove,
            setboard,
            synced: 0,
            forced: true,
        })
    }

    fn send_move(&mut self, mv: &str) -> Result<(), PlayerError> {
        if self.usermove {
            self.process.send(&format!("usermove {mv}"))
        } else {
            self.process.send(mv)
        }
    }
}

/// XBoard's null move: a pass.
const XBOARD_NULL_MOVE: &str = "@@@@";

impl Player for XBoardEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn start_game(
        &mut self,
        game: &dyn GameSession,
        tc: &TimeControl,
        custom_start: bool,
    ) -> Result<(), PlayerError> {
        self.process.send("new")?;
        let variant = game.variant().xboard_name();
        if variant != "normal" {
            self.process.send(&format!("variant {variant}"))?;
        }
        self.process.send("memory 64")?;
        self.process.send("post")?;
        self.process.send(&xboard_level(tc))?;
        self.process.send("force")?;
        self.forced = true;
        self.synced = 0;
        if let Some(depth) = self.depth {
            self.process.send(&format!("sd {depth}"))?;
        }
        if custom_start {
            if !self.setboard {
                return Err(PlayerError::Start(
                    "the engine cannot set up a position (no setboard)".to_string(),
                ));
            }
            self.process
                .send(&format!("setboard {}", game.start_fen()))?;
        }
        self.process.send("ping 1")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process
            .wait_for(deadline, |line| (line.trim() == "pong 1").then_some(()))
    }

    fn choose(&mut self, game: &dyn GameSession, clocks: &Clocks) -> Result<String, PlayerError> {
        let geometry = game.geometry();
        let moves = game.moves_played();
        let mover = game.side_to_move();
        if let Some(time) = clocks.xboard_time(mover) {
            self.process.send(&time)?;
        }
        let first_pending = self.synced.min(moves.len());
        let pending: Vec<String> = moves[first_pending..]
            .iter()
            .enumerate()
            .map(|(i, m)| {
                // A pass is XBoard's null move (HaChu refuses it written as two legs).
                if game.is_pass(first_pending + i) {
                    XBOARD_NULL_MOVE.to_string()
                } else {
                    to_xboard(geometry, m)
                }
            })
            .collect();
        if self.forced || pending.len() != 1 {
            if !self.forced {
                self.process.send("force")?;
            }
            for mv in &pending {
                self.send_move(mv)?;
            }
            self.process.send("go")?;
            self.forced = false;
        } else {
            self.send_move(&pending[0])?;
        }
        self.synced = moves.len();
        let deadline = clocks.deadline(mover);
        let answer = self.process.wait_for(deadline, |line| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("move") => Some(Ok(words.next().unwrap_or("").to_string())),
                Some("resign") => Some(Err(PlayerError::Resigned)),
                Some(w) if w.starts_with("Illegal") || w.starts_with("Error") => {
                    Some(Err(PlayerError::Protocol(line.chars().take(80).collect())))
                }
                Some("1-0" | "0-1" | "1/2-1/2") => Some(Err(PlayerError::Protocol(format!(
                    "claimed {}",
                    line.chars().take(80).collect::<String>()
                )))),
                _ => None,
            }
        })?;
        let mut theirs = answer?;
        // HaChu sends a move of two legs as two `move` lines, the first ending in a comma.
        while theirs.ends_with(',') && theirs.len() < 64 {
            let next = self.process.wait_for(deadline, |line| {
                line.strip_prefix("move ").map(|m| m.trim().to_string())
            })?;
            theirs.push_str(&next);
        }
        self.synced += 1;
        if theirs == XBOARD_NULL_MOVE {
            return game
                .pass_move()
                .ok_or_else(|| PlayerError::Protocol("a null move with no pass".to_string()));
        }
        let ours = from_xboard(geometry, &theirs);
        match other_reading(game, &theirs, &ours) {
            Some(reads_as) => Err(PlayerError::Notation {
                said: theirs,
                expected: "XBoard's notation",
                reads_as,
            }),
            None => Ok(ours),
        }
    }

    fn game_over(&mut self, result: &str) {
        let _ = self.process.send(&format!("result {result} {{match}}"));
        let _ = self.process.send("force");
        self.forced = true;
    }
}

/// GNU Shogi 1.4 in its default (xshogi) mode: moves in USI-like text, the engine answers
/// `N. ... move clock`.
/// The move in GNU Shogi's answer `N. ... MOVE`. The answer may follow a prompt on the same
/// line (`depth = 1. ... 7g7f`: GNU Shogi's depth prompt ends without a newline).
fn gnushogi_move(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(3).find_map(|w| {
        let number = w[0].strip_suffix('.')?;
        (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && w[1] == "...")
            .then_some(w[2])
    })
}

/// The one game GNU Shogi plays, by the name XBoard gives it (GNU Shogi is XShogi's engine).
const GNU_SHOGI_GAME: &str = "shogi";

struct GnuShogi {
    process: EngineProcess,
    synced: usize,
    depth: Option<u32>,
}

impl GnuShogi {
    fn new(process: EngineProcess, depth: Option<u32>) -> GnuShogi {
        GnuShogi {
            process,
            synced: 0,
            depth,
        }
    }
}

impl Player for GnuShogi {
    fn name(&self) -> String {
        "GNU Shogi".to_string()
    }

    fn start_game(
        &mut self,
        game: &dyn GameSession,
        tc: &TimeControl,
        custom_start: bool,
    ) -> Result<(), PlayerError> {
        if game.variant().xboard_name() != GNU_SHOGI_GAME {
            return Err(PlayerError::Start(format!(
                "GNU Shogi plays only {GNU_SHOGI_GAME}"
            )));
        }
        if custom_start {
            return Err(PlayerError::Start(
                "GNU Shogi starts from the start position only".to_string(),
            ));
        }
        self.process.send("new")?;
        self.process.send(&gnushogi_level(tc))?;
        if let Some(depth) = self.depth {
            // GNU Shogi asks for the depth on a line of its own.
            self.process.send("depth")?;
            self.process.send(&depth.to_string())?;
        }
        // A move still being thought about in the last game may arrive late: wait for the
        // engine to settle and drop what it says.
        std::thread::sleep(Duration::from_millis(300));
        while self.process.lines.try_recv().is_ok() {}
        self.synced = 0;
        // GNU Shogi answers every move it is given with one of its own, so it cannot be
        // walked through an opening line.
        if !game.moves_played().is_empty() {
            return Err(PlayerError::Start(
                "GNU Shogi cannot follow opening moves".to_string(),
            ));
        }
        Ok(())
    }

    fn choose(&mut self, game: &dyn GameSession, clocks: &Clocks) -> Result<String, PlayerError> {
        let moves = game.moves_played();
        let pending = &moves[self.synced.min(moves.len())..];
        match pending {
            [] => self.process.send("go")?,
            [last] => self.process.send(last)?,
            _ => {
                return Err(PlayerError::Protocol(
                    "GNU Shogi can only follow the game move by move".to_string(),
                ));
            }
        }
        self.synced = moves.len();
        let deadline = clocks.deadline(game.side_to_move());
        let answer = self.process.wait_for(deadline, |line| {
            if line.contains("Illegal") {
                return Some(Err(PlayerError::Protocol(line.chars().take(80).collect())));
            }
            if line.contains("resign") || line.contains("mates") {
                return Some(Err(PlayerError::Resigned));
            }
            gnushogi_move(line).map(|mv| Ok(mv.to_string()))
        })?;
        let mv = answer?;
        self.synced += 1;
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_settings_are_read_before_the_colon() {
        match PlayerSpec::parse("uci,nodes=5000:/bin/engine uci").unwrap() {
            PlayerSpec::External {
                protocol,
                command,
                nodes,
                depth,
                ..
            } => {
                assert_eq!(protocol, Protocol::Uci);
                assert_eq!(command, ["/bin/engine", "uci"]);
                assert_eq!(nodes, Some(5000));
                assert_eq!(depth, None);
            }
            other => panic!("not an external engine: {other:?}"),
        }
    }

    #[test]
    fn gnushogi_moves_are_found_after_a_prompt() {
        assert_eq!(gnushogi_move("1. ... 7g7f 1000"), Some("7g7f"));
        assert_eq!(gnushogi_move("depth = 1. ... 7g7f 1000"), Some("7g7f"));
        assert_eq!(gnushogi_move("12. ... P*5e"), Some("P*5e"));
        assert_eq!(gnushogi_move("1. 7g7f"), None);
        assert_eq!(gnushogi_move("Clocks: 1000 1000"), None);
        assert_eq!(gnushogi_move("x. ... 7g7f"), None);
    }

    #[test]
    fn a_move_in_another_dialect_is_a_notation_mismatch() {
        let shogi = open("shogi", 1).unwrap();
        let uci = Dialect::uci(shogi.as_ref());
        // USI's 7g7f sent over UCI, where Fairy-Stockfish's dialect writes c3c4.
        let ours = uci.move_in("7g7f");
        assert_eq!(
            other_reading(shogi.as_ref(), "7g7f", &ours),
            Some("USI's notation")
        );
        assert_eq!(
            other_reading(shogi.as_ref(), "c3c4", &uci.move_in("c3c4")),
            None
        );
        // An illegal move in every dialect is the engine's own infraction.
        assert_eq!(
            other_reading(shogi.as_ref(), "c3c5", &uci.move_in("c3c5")),
            None
        );
        // Fairy-Stockfish's coordinates sent over USI.
        assert_eq!(
            other_reading(shogi.as_ref(), "c3c4", "c3c4"),
            Some("Fairy-Stockfish's UCI notation")
        );
        // Chess: the dialects agree.
        let chess = open("chess", 1).unwrap();
        assert_eq!(other_reading(chess.as_ref(), "e2e4", "e2e4"), None);
    }

    #[test]
    fn a_level_is_read_for_our_engine() {
        match PlayerSpec::parse("chaturanga:level=3,hash=8").unwrap() {
            PlayerSpec::Own { level, hash_mb, .. } => {
                assert_eq!(level, Some(Level::new(3)));
                assert_eq!(hash_mb, 8);
            }
            other => panic!("not our engine: {other:?}"),
        }
        assert!(PlayerSpec::parse("chaturanga:level=0").is_err());
        assert!(PlayerSpec::parse("chaturanga:level=9").is_err());
    }

    #[test]
    fn settings_a_protocol_cannot_honour_are_refused() {
        assert!(PlayerSpec::parse("xboard,nodes=5000:fairymax").is_err());
        assert!(PlayerSpec::parse("uci,depth=3:stockfish").is_err());
        assert!(PlayerSpec::parse("usi,nodes=0:engine").is_err());
        assert!(PlayerSpec::parse("gnushogi,option=a=b:gnushogi").is_err());
        assert!(PlayerSpec::parse("chaturanga:nodes=x").is_err());
    }
}
