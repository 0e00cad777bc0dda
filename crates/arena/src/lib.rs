//! The match runner behind `chaturanga match`: two engines play each other in any ruleset
//! whose players are each a team of their own (two players, or three in three-player chess).
//!
//! A referee (a [`GameSession`] of the ruleset, its engine unused) checks every move and
//! ends the game by the rules: results, draws by rule (claimed for the players as soon as a
//! claim is possible), a ply cap, time forfeits, illegal moves, crashes and resignations.
//! In a two-player ruleset each opening is played twice with the colours swapped. With more
//! players, each engine sits alone at every side in turn while copies of the other hold the
//! rest ([`seatings`]), and every game is scored as pairs of seats: each seat of the first
//! engine against each seat of the second, the higher score winning the pair. Games are
//! played one after the other: the engines get a core of their own on a two-core machine.

mod clock;
mod players;
mod stats;

pub use clock::{TimeControlError, parse_time_control, time_control_text};
pub use players::{PlayerError, PlayerSpec, PlayerSpecError};
pub use stats::{MIN_SPRT_GAMES, Sprt, SprtError, Tally, Verdict};

use chaturanga_notation::pgn;
use chaturanga_rules::Reason;
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_session::{GameSession, SessionError, open};
use clock::Clocks;
use players::Player;
use stats::{fixed, signed};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Most games one match plays.
pub const MAX_GAMES: u32 = 100_000;
/// Largest opening file read.
const MAX_OPENINGS_BYTES: u64 = 16 << 20;
/// Largest random opening.
pub const MAX_RANDOM_PLIES: u32 = 40;
/// Largest margin beyond the clock, in milliseconds.
pub const MAX_TIME_MARGIN_MS: u64 = 60_000;
/// Largest ply cap.
pub const MAX_PLIES: u32 = 100_000;
/// Draws of a random opening before the least unbalanced is taken.
const RANDOM_OPENING_TRIES: u32 = 20;
/// A random opening whose shallow search score is within this many centipawns is balanced.
const BALANCED_CP: i32 = 120;
/// Width of the progress bar.
const BAR_WIDTH: usize = 30;

/// The settings of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// Ruleset id.
    pub variant: String,
    /// The two players.
    pub players: [PlayerSpec; 2],
    /// Games to play (at most; an SPRT may stop earlier).
    pub games: u32,
    /// Clocks.
    pub time_control: TimeControl,
    /// A player's own clock instead of [`MatchSettings::time_control`] (time odds, for
    /// measuring what a stronger opponent's time is worth); of the same kind.
    pub player_time_controls: [Option<TimeControl>; 2],
    /// Grace beyond the clock before a flag counts.
    pub time_margin: Duration,
    /// Openings file.
    pub openings: Option<PathBuf>,
    /// Random plies from the start for each pair of games (when there is no openings file).
    pub random_plies: u32,
    /// PGN file to write the games to.
    pub pgn: Option<PathBuf>,
    /// Plies after which a game is drawn by adjudication.
    pub max_plies: u32,
    /// Stop when the test decides.
    pub sprt: Option<Sprt>,
    /// Seed of random openings.
    pub seed: u64,
    /// Rule options of the ruleset.
    pub rule_options: Vec<String>,
}

impl MatchSettings {
    /// The clock match player `player` (0 or 1) plays under.
    pub fn control_of(&self, player: usize) -> TimeControl {
        self.player_time_controls[player.min(1)].unwrap_or(self.time_control)
    }

    /// The settings of a match of `variant` between `players` with the defaults: two games
    /// at 10 seconds plus 0.1 per move, a margin of half a second, no openings, a ply cap
    /// of 1000, seed 1.
    pub fn new(variant: &str, players: [PlayerSpec; 2]) -> Self {
        MatchSettings {
            variant: variant.to_string(),
            players,
            games: 2,
            time_control: TimeControl::fischer(Duration::from_secs(10), Duration::from_millis(100)),
            player_time_controls: [None, None],
            time_margin: Duration::from_millis(500),
            openings: None,
            random_plies: 0,
            pgn: None,
            max_plies: 1000,
            sprt: None,
            seed: 1,
            rule_options: Vec::new(),
        }
    }
}

/// Why a match could not be played to its end.
#[derive(Debug)]
pub enum ArenaError {
    /// The referee refused the ruleset, its options or the start position.
    Referee(SessionError),
    /// The ruleset's players play in teams (bughouse), which a match between two engines
    /// cannot seat.
    Teams {
        /// Ruleset id.
        variant: String,
        /// Its players.
        players: usize,
    },
    /// The openings file could not be read.
    Openings {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The openings file has no opening.
    NoOpenings(PathBuf),
    /// The PGN file could not be created.
    PgnFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An opening's position was refused.
    Opening(SessionError),
    /// An opening's move was refused.
    OpeningMove {
        /// The move.
        mv: String,
        /// Why.
        source: SessionError,
    },
    /// A player could not be made (`index` 0 is `--first`).
    Player {
        /// Which.
        index: usize,
        /// Why.
        source: PlayerError,
    },
    /// A player could not start a game.
    StartGame {
        /// The player's name.
        name: String,
        /// Why.
        source: PlayerError,
    },
    /// A player and the runner do not speak the same notation (a setup error: the player's
    /// protocol or dialect is not the one given); the match stops.
    Notation {
        /// The player's name.
        name: String,
        /// What was said ([`PlayerError::Notation`]).
        source: PlayerError,
    },
    /// The players' own clocks are of different kinds (a fixed time per move against a
    /// running clock), which no `go` command can tell an engine.
    MixedClocks,
    /// The referee's game did not end (a bug).
    Unfinished,
    /// Writing the report or the games failed.
    Io(std::io::Error),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Referee(e) => write!(f, "{e}"),
            ArenaError::Teams { variant, players } => write!(
                f,
                "a match needs a ruleset whose players are each a team of their own; \
                 {variant}'s {players} players play in teams"
            ),
            ArenaError::Openings { path, source } => write!(f, "{}: {source}", path.display()),
            ArenaError::NoOpenings(path) => {
                write!(f, "{}: no openings in the file", path.display())
            }
            ArenaError::PgnFile { path, source } => write!(f, "{}: {source}", path.display()),
            ArenaError::Opening(e) => write!(f, "opening: {e}"),
            ArenaError::OpeningMove { mv, source } => {
                write!(f, "opening move {}: {source}", excerpt(mv))
            }
            ArenaError::Player { index, source } => write!(f, "player {}: {source}", index + 1),
            ArenaError::StartGame { name, source } => write!(f, "{name}: {source}"),
            ArenaError::Notation { name, source } => write!(f, "setup error: {name}: {source}"),
            ArenaError::MixedClocks => write!(
                f,
                "the players' clocks must be of one kind (both a time per move, both \
                 sessions, or both base+increment)"
            ),
            ArenaError::Unfinished => write!(f, "the game did not end"),
            ArenaError::Io(e) => write!(f, "cannot write output: {e}"),
        }
    }
}

impl std::error::Error for ArenaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArenaError::Referee(e) | ArenaError::Opening(e) => Some(e),
            ArenaError::OpeningMove { source, .. } => Some(source),
            ArenaError::Openings { source, .. } | ArenaError::PgnFile { source, .. } => {
                Some(source)
            }
            ArenaError::Player { source, .. }
            | ArenaError::StartGame { source, .. }
            | ArenaError::Notation { source, .. } => Some(source),
            ArenaError::Io(e) => Some(e),
            ArenaError::Teams { .. }
            | ArenaError::NoOpenings(_)
            | ArenaError::MixedClocks
            | ArenaError::Unfinished => None,
        }
    }
}

impl From<std::io::Error> for ArenaError {
    fn from(e: std::io::Error) -> Self {
        ArenaError::Io(e)
    }
}

/// Where a game starts: a FEN (or the start position) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Opening {
    fen: Option<String>,
    moves: Vec<String>,
}

/// Reads an openings file: one opening per line, a FEN (with `moves …` after it if
/// wished) or a list of moves from the start; `#` starts a comment line.
fn read_openings(path: &PathBuf) -> Result<Vec<Opening>, ArenaError> {
    let unreadable = |source| ArenaError::Openings {
        path: path.clone(),
        source,
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(file, MAX_OPENINGS_BYTES),
        &mut text,
    )
    .map_err(unreadable)?;
    let mut openings = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (setup, moves) = match line.split_once(" moves ") {
            Some((setup, moves)) => (setup.trim(), moves),
            None if line.contains('/') => (line, ""),
            None => ("", line),
        };
        let setup = setup.strip_prefix("fen ").unwrap_or(setup).trim();
        openings.push(Opening {
            fen: (!setup.is_empty()).then(|| setup.to_string()),
            moves: moves.split_whitespace().map(str::to_string).collect(),
        });
    }
    if openings.is_empty() {
        return Err(ArenaError::NoOpenings(path.clone()));
    }
    Ok(openings)
}

/// A small random number generator for random openings (reproducible from the seed).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n.max(1) as u64) as usize
    }
}

/// A random opening of `plies` moves that a shallow search of our engine finds balanced.
fn random_opening(session: &mut dyn GameSession, plies: u32, random: &mut Random) -> Opening {
    let mut best: Option<(i32, Vec<String>)> = None;
    for _ in 0..RANDOM_OPENING_TRIES {
        if session.reset(None).is_err() {
            break;
        }
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = session.legal_moves();
            if legal.is_empty() || session.finished().is_some() {
                break;
            }
            let mv = legal[random.below(legal.len())].clone();
            if session.play(&mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        if session.finished().is_some() || session.legal_moves().is_empty() {
            continue;
        }
        let limits = chaturanga_engine::Limits {
            depth: Some(4),
            nodes: Some(200_000),
            ..Default::default()
        };
        let balance = match session.search(&limits, &mut |_| {}).score {
            chaturanga_engine::Score::Centipawns(cp) => cp.abs(),
            chaturanga_engine::Score::Win { .. } => i32::MAX,
        };
        if best.as_ref().is_none_or(|(b, _)| balance < *b) {
            best = Some((balance, moves));
        }
        if balance <= BALANCED_CP {
            break;
        }
    }
    Opening {
        fen: None,
        moves: best.map(|(_, m)| m).unwrap_or_default(),
    }
}

/// How one game ended, beyond the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Infraction {
    IllegalMove,
    Crash,
    TimeForfeit,
}

/// One finished game.
struct GameRecord {
    /// The pairs of seats the match's first player won, drew and lost ([`pair_results`]).
    pairs: Tally,
    result: String,
    termination: String,
    /// The side whose player committed an infraction, and which.
    infraction: Option<(usize, Infraction)>,
    pgn: Option<String>,
}

/// Runs a match, reporting progress and the result to `out`.
pub fn run(settings: &MatchSettings, out: &mut dyn Write) -> Result<(), ArenaError> {
    if !clock::same_kind(&settings.control_of(0), &settings.control_of(1)) {
        return Err(ArenaError::MixedClocks);
    }
    let mut referee = open(&settings.variant, 1).map_err(ArenaError::Referee)?;
    let sides = referee.players();
    if (0..sides).any(|p| referee.team(p) != p) {
        return Err(ArenaError::Teams {
            variant: settings.variant.clone(),
            players: sides,
        });
    }
    referee
        .set_rule_options(&settings.rule_options)
        .map_err(ArenaError::Referee)?;
    referee.reset(None).map_err(ArenaError::Referee)?;
    let openings = match &settings.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let mut pgn_file = match &settings.pgn {
        Some(path) => Some(
            std::fs::File::create(path).map_err(|source| ArenaError::PgnFile {
                path: path.clone(),
                source,
            })?,
        ),
        None => None,
    };
    // players[p][copy]: match player `p` may hold every side but one, each by a process (or
    // in-process engine) of its own, so no copy learns from another's searches.
    let mut players: Vec<Vec<Box<dyn Player>>> = Vec::new();
    for (i, spec) in settings.players.iter().enumerate() {
        let mut copies = Vec::new();
        for _ in 1..sides {
            copies.push(build(spec, i, settings)?);
        }
        players.push(copies);
    }
    let mut names: Vec<String> = players.iter().map(|copies| copies[0].name()).collect();
    // Two builds of one engine name themselves alike: the second is then `(2)` in progress
    // lines and records, as the in-process engines are (`build`).
    if names[0] == names[1] {
        names[1].push_str(" (2)");
    }
    let seatings = seatings(sides);
    writeln!(
        out,
        "match: {} vs {} in {}, {} games, time control {}",
        names[0],
        names[1],
        settings.variant,
        settings.games,
        if settings.control_of(0) == settings.control_of(1) {
            time_control_text(&settings.time_control)
        } else {
            format!(
                "{} for {}, {} for {}",
                time_control_text(&settings.control_of(0)),
                names[0],
                time_control_text(&settings.control_of(1)),
                names[1]
            )
        }
    )?;
    let mut random = Random(settings.seed);
    let mut tally = Tally::default();
    let mut infractions = [[0u32; 3]; 2];
    let mut opening = Opening {
        fen: None,
        moves: Vec::new(),
    };
    for game_index in 0..settings.games {
        // A new opening for every round of seatings.
        let seating = &seatings[game_index as usize % seatings.len()];
        if (game_index as usize).is_multiple_of(seatings.len()) {
            opening = if !openings.is_empty() {
                openings[game_index as usize / seatings.len() % openings.len()].clone()
            } else if settings.random_plies > 0 {
                random_opening(referee.as_mut(), settings.random_plies, &mut random)
            } else {
                Opening {
                    fen: None,
                    moves: Vec::new(),
                }
            };
        }
        let record = play_game(
            referee.as_mut(),
            &mut players,
            &names,
            &opening,
            seating,
            game_index + 1,
            settings,
        )?;
        tally.wins += record.pairs.wins;
        tally.draws += record.pairs.draws;
        tally.losses += record.pairs.losses;
        if let Some((side, what)) = record.infraction {
            let (who, copy) = instance(seating, side);
            infractions[who][what as usize] += 1;
            if what == Infraction::Crash {
                players[who][copy] = build(&settings.players[who], who, settings)?;
            }
        }
        if let (Some(file), Some(pgn)) = (pgn_file.as_mut(), &record.pgn) {
            writeln!(file, "{pgn}")?;
        }
        let done = game_index + 1;
        let filled = (done as usize * BAR_WIDTH) / settings.games as usize;
        writeln!(
            out,
            "[{}{}] {done}/{}  game {done}: {} {} ({})  W-D-L {}-{}-{}",
            "#".repeat(filled),
            "-".repeat(BAR_WIDTH - filled),
            settings.games,
            seating
                .iter()
                .map(|&p| names[p].as_str())
                .collect::<Vec<_>>()
                .join("-"),
            record.result,
            record.termination,
            tally.wins,
            tally.draws,
            tally.losses
        )?;
        out.flush()?;
        if let Some(sprt) = &settings.sprt
            && sprt.verdict(&tally) != Verdict::Continue
        {
            break;
        }
    }
    summary(out, settings, &names, sides, &tally, &infractions)?;
    Ok(())
}

/// Which match player (0 or 1) holds each side, for the games of one opening. Two players
/// play it twice with the colours swapped; with more sides each match player sits alone at
/// every side in turn while the other holds the rest, so both meet every seating.
fn seatings(sides: usize) -> Vec<Vec<usize>> {
    if sides <= 2 {
        return vec![vec![0, 1], vec![1, 0]];
    }
    let mut seatings = Vec::new();
    for alone in 0..2 {
        for side in 0..sides {
            seatings.push(
                (0..sides)
                    .map(|s| if s == side { alone } else { 1 - alone })
                    .collect(),
            );
        }
    }
    seatings
}

/// The match player holding `side` and which of its copies plays there (the copies are
/// used in side order).
fn instance(seating: &[usize], side: usize) -> (usize, usize) {
    let who = seating[side];
    (who, seating[..side].iter().filter(|&&p| p == who).count())
}

/// A game's result for the match's first player as pairs of seats: each of its sides
/// against each side of the second player. In a two-player game that is the one game (a
/// win only with the whole point, as a Gliński stalemate's 3/4 is no win); with more sides a
/// pair goes to the side that scored more (three-player chess's 1, 1/2 and 0 are places).
fn pair_results(seating: &[usize], quarters: &[u8]) -> Tally {
    let score = |side: usize| quarters.get(side).copied().unwrap_or(2);
    let mut pairs = Tally::default();
    for first in (0..seating.len()).filter(|&s| seating[s] == 0) {
        for second in (0..seating.len()).filter(|&s| seating[s] == 1) {
            let (mine, theirs) = (score(first), score(second));
            let (won, lost) = if seating.len() == 2 {
                (mine == 4, mine == 0)
            } else {
                (mine > theirs, mine < theirs)
            };
            match (won, lost) {
                (true, _) => pairs.wins += 1,
                (_, true) => pairs.losses += 1,
                _ => pairs.draws += 1,
            }
        }
    }
    pairs
}

fn build(
    spec: &PlayerSpec,
    index: usize,
    settings: &MatchSettings,
) -> Result<Box<dyn Player>, ArenaError> {
    let label = if matches!(spec, PlayerSpec::Own { .. }) {
        format!("Chaturanga{}", if index == 0 { "" } else { " (2)" })
    } else {
        String::new()
    };
    spec.build(&label, &settings.rule_options)
        .map_err(|source| ArenaError::Player { index, source })
}

fn summary(
    out: &mut dyn Write,
    settings: &MatchSettings,
    names: &[String],
    sides: usize,
    tally: &Tally,
    infractions: &[[u32; 3]; 2],
) -> Result<(), ArenaError> {
    writeln!(out)?;
    if sides == 2 {
        writeln!(
            out,
            "result: {} vs {} in {}: {} games",
            names[0],
            names[1],
            settings.variant,
            tally.games()
        )?;
    } else {
        writeln!(
            out,
            "result: {} vs {} in {}: {} pairs of seats ({} per game; the interval takes \
             them as independent, which the pairs of one game are not)",
            names[0],
            names[1],
            settings.variant,
            tally.games(),
            sides - 1
        )?;
    }
    writeln!(
        out,
        "W-D-L {}-{}-{} for {}, score {:.1} % ({:.1} of {})",
        tally.wins,
        tally.draws,
        tally.losses,
        names[0],
        tally.score() * 100.0,
        f64::from(tally.wins) + 0.5 * f64::from(tally.draws),
        tally.games()
    )?;
    match tally.elo() {
        _ if tally.games() > 0
            && (tally.wins == tally.games() || tally.losses == tally.games()) =>
        {
            writeln!(
                out,
                "Elo difference: unbounded (every game won by one side; no finite estimate)"
            )?
        }
        _ => match (tally.elo(), tally.elo_interval()) {
            (Some((elo, error)), Some((_, low, high))) if low.is_finite() && high.is_finite() => {
                writeln!(
                    out,
                    "Elo difference: {} ± {error:.1} (95 %: {} to {})",
                    signed(elo, 1),
                    signed(low, 0),
                    signed(high, 0)
                )?
            }
            (_, Some((elo, low, high))) => writeln!(
                out,
                "Elo difference: {} (95 %: {} to {})",
                signed(elo, 1),
                signed(low, 0),
                signed(high, 0)
            )?,
            _ => writeln!(out, "Elo difference: too few games")?,
        },
    }
    if let Some(sprt) = &settings.sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match sprt.verdict(tally) {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "undecided",
        };
        writeln!(
            out,
            "SPRT [{}, {}]: LLR {} ({}, {}) {verdict}",
            sprt.elo0,
            sprt.elo1,
            fixed(tally.llr(sprt.elo0, sprt.elo1), 2),
            fixed(lower, 2),
            fixed(upper, 2)
        )?;
    }
    for (i, name) in names.iter().enumerate() {
        let [illegal, crashes, forfeits] = infractions[i];
        writeln!(
            out,
            "{name}: illegal moves {illegal}, crashes {crashes}, time forfeits {forfeits}"
        )?;
    }
    Ok(())
}

/// Plays one game; `seating[side]` is the match player holding `side`.
fn play_game(
    referee: &mut dyn GameSession,
    players: &mut [Vec<Box<dyn Player>>],
    names: &[String],
    opening: &Opening,
    seating: &[usize],
    round: u32,
    settings: &MatchSettings,
) -> Result<GameRecord, ArenaError> {
    referee
        .reset(opening.fen.as_deref())
        .map_err(ArenaError::Opening)?;
    for mv in &opening.moves {
        referee.play(mv).map_err(|source| ArenaError::OpeningMove {
            mv: mv.clone(),
            source,
        })?;
    }
    let opening_plies = referee.moves_played().len();
    let mut infraction = None;
    for side in 0..seating.len() {
        let (p, copy) = instance(seating, side);
        players[p][copy]
            .start_game(referee, &settings.control_of(p), opening.fen.is_some())
            .map_err(|source| ArenaError::StartGame {
                name: names[p].clone(),
                source,
            })?;
    }
    let controls: Vec<TimeControl> = seating.iter().map(|&p| settings.control_of(p)).collect();
    let mut clocks = Clocks::with_odds(&controls, settings.time_margin);
    let mut termination = String::from("normal");
    loop {
        if referee.finished().is_some() {
            break;
        }
        if referee.claim_draw() {
            break;
        }
        if referee.moves_played().len() - opening_plies >= settings.max_plies as usize {
            referee.end(None, Reason::MoveLimit);
            termination = "adjudication".to_string();
            break;
        }
        let side = referee.side_to_move().min(seating.len() - 1);
        let (player, copy) = instance(seating, side);
        clocks.start();
        let answer = players[player][copy].choose(referee, &clocks);
        let in_time = clocks.stop(side);
        let loser = Some(side);
        match answer {
            Ok(_) if !in_time => {
                referee.end(loser, Reason::TimeForfeit);
                termination = "time forfeit".to_string();
                infraction = Some((side, Infraction::TimeForfeit));
            }
            Ok(mv) => {
                if let Err(e) = referee.play(&mv) {
                    referee.end(loser, Reason::Resignation);
                    termination = format!("rules infraction: {} ({e})", excerpt(&mv));
                    infraction = Some((side, Infraction::IllegalMove));
                }
            }
            Err(e @ PlayerError::Notation { .. }) => {
                return Err(ArenaError::Notation {
                    name: names[player].clone(),
                    source: e,
                });
            }
            Err(PlayerError::Timeout) => {
                referee.end(loser, Reason::TimeForfeit);
                termination = "time forfeit".to_string();
                infraction = Some((side, Infraction::TimeForfeit));
            }
            Err(PlayerError::Resigned) => {
                referee.end(loser, Reason::Resignation);
            }
            Err(PlayerError::Protocol(e)) => {
                referee.end(loser, Reason::Resignation);
                termination = format!("rules infraction: {e}");
                infraction = Some((side, Infraction::IllegalMove));
            }
            Err(PlayerError::Replay(e)) => {
                referee.end(loser, Reason::Resignation);
                termination = format!("rules infraction: {e}");
                infraction = Some((side, Infraction::IllegalMove));
            }
            // The rest: it crashed or could not start.
            Err(e) => {
                referee.end(loser, Reason::Resignation);
                termination = format!("abandoned: {e}");
                infraction = Some((side, Infraction::Crash));
            }
        }
    }
    let finished = referee.finished().ok_or(ArenaError::Unfinished)?;
    if termination == "normal" {
        termination = finished.reason.as_str().to_string();
    }
    for p in players.iter_mut().flatten() {
        p.game_over(&finished.result);
    }
    let player_tag =
        |p: usize| pgn::player_tag(referee.player_name(p), p, seating.len()).into_owned();
    let mut tags = vec![
        ("Event".to_string(), "chaturanga match".to_string()),
        ("Round".to_string(), round.to_string()),
    ];
    for (side, &p) in seating.iter().enumerate() {
        tags.push((player_tag(side), names[p].clone()));
    }
    if controls.iter().all(|c| *c == controls[0]) {
        tags.push(("TimeControl".to_string(), time_control_text(&controls[0])));
    } else {
        // Time odds, tagged as cutechess-cli does.
        for (side, control) in controls.iter().enumerate() {
            tags.push((
                format!("{}TimeControl", player_tag(side)),
                time_control_text(control),
            ));
        }
    }
    tags.push(("Termination".to_string(), termination.clone()));
    let pgn = referee.pgn(&tags).ok();
    Ok(GameRecord {
        pairs: pair_results(seating, &finished.quarters),
        result: finished.result,
        termination,
        infraction,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_sits_alone_at_every_side() {
        assert_eq!(seatings(2), [vec![0, 1], vec![1, 0]]);
        let three = seatings(3);
        assert_eq!(three.len(), 6);
        for alone in 0..2 {
            for side in 0..3 {
                let seating = &three[alone * 3 + side];
                assert_eq!(seating[side], alone);
                assert_eq!(seating.iter().filter(|&&p| p == alone).count(), 1);
            }
        }
        // The second engine's copies at White and Black are its first and second.
        assert_eq!(instance(&[1, 0, 1], 0), (1, 0));
        assert_eq!(instance(&[1, 0, 1], 1), (0, 0));
        assert_eq!(instance(&[1, 0, 1], 2), (1, 1));
    }

    #[test]
    fn games_are_scored_as_pairs_of_seats() {
        let tally = |seating: &[usize], quarters: &[u8]| {
            let t = pair_results(seating, quarters);
            (t.wins, t.draws, t.losses)
        };
        // Two players: the whole point wins; a Glinski stalemate's 3/4 is no win.
        assert_eq!(tally(&[0, 1], &[4, 0]), (1, 0, 0));
        assert_eq!(tally(&[1, 0], &[4, 0]), (0, 0, 1));
        assert_eq!(tally(&[0, 1], &[3, 1]), (0, 1, 0));
        assert_eq!(tally(&[1, 0], &[2, 2]), (0, 1, 0));
        // Three players: places. Alone at Red with 1/2 between a winner and a loser.
        assert_eq!(tally(&[1, 0, 1], &[4, 2, 0]), (1, 0, 1));
        // Alone and mated: both pairs lost; the second engine alone and winning.
        assert_eq!(tally(&[0, 1, 1], &[0, 4, 2]), (0, 0, 2));
        assert_eq!(tally(&[0, 1, 0], &[2, 4, 0]), (0, 0, 2));
        // A draw draws every pair.
        assert_eq!(tally(&[0, 0, 1], &[2, 2, 2]), (0, 2, 0));
    }
}
