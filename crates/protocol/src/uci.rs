//! `chaturanga uci`: the Universal Chess Interface, for every ruleset.
//!
//! UCI here is Fairy-Stockfish's dialect, so that clients written for that engine work
//! unchanged (`crate::fairy`): the ruleset is chosen with the `UCI_Variant` option
//! (Fairy-Stockfish's names and aliases where that engine has the game, our ids
//! otherwise), announced with its `info string variant … startpos …` line, and moves and
//! FENs are written as it writes them: our coordinate notation for the chess family
//! (`e2e4`, `e7e8q`, `a10a9` on ten-rank boards, `P@e4` drops), and its file-letter
//! coordinates and bracketed hands for the shogi family (`c3c4`, `P@e5`,
//! `…/LNSGKGSNL[Pp] w - - 0 1`) where USI writes `7g7f` and SFEN.
//!
//! The search runs on one thread: `Threads` is offered with a maximum of 1. `UCI_Chess960`
//! plays Chess960 where the ruleset has it (chess's `chess960=on`: any start array, FENs in
//! Shredder-FEN or X-FEN, castling as the king taking its rook); in the other rulesets with
//! castling it only writes castling that way.

use super::{
    DEFAULT_HASH_MB, Handler, Line, MAX_HASH_MB, Output, Protocol, Searcher, command_loop,
    info_line, number, position_words,
};
use crate::fairy::{Dialect, announcement};
use chaturanga_engine::{Clock, Level, Limits, MAX_MULTI_PV};
use chaturanga_rules::position::excerpt;
use chaturanga_session::{GameSession, open};
use chaturanga_variants::{FAIRY_STOCKFISH_ALIASES, VariantInfo, implemented};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Kept back from every time budget by default, in milliseconds.
const DEFAULT_OVERHEAD_MS: u64 = 30;
/// Largest `Move Overhead`.
const MAX_OVERHEAD_MS: u64 = 5000;
/// Deepest `go perft`.
const MAX_PERFT_DEPTH: u32 = 12;

/// The name a GUI uses for a ruleset.
pub fn uci_name(info: &VariantInfo) -> &'static str {
    info.fairy_stockfish.unwrap_or(info.id)
}

/// The ruleset a GUI's variant name means (its UCI name or our id).
pub fn variant_id(name: &str) -> Option<&'static str> {
    let name = name.trim().to_ascii_lowercase();
    implemented()
        .find(|v| v.id == name || uci_name(v) == name)
        .map(|v| v.id)
}

/// A session for a GUI's variant name, and the name as the GUI should see it: one of
/// Fairy-Stockfish's names for a ruleset under other rule options (`antichess`; these come
/// first, since they mean that engine's game), or one of [`variant_id`]'s.
pub fn open_variant(name: &str) -> Result<(Box<dyn GameSession>, &'static str), String> {
    let wanted = name.trim().to_ascii_lowercase();
    if let Some(alias) = FAIRY_STOCKFISH_ALIASES.iter().find(|a| a.name == wanted) {
        let mut session = open(alias.ruleset, DEFAULT_HASH_MB).map_err(|e| e.to_string())?;
        let options: Vec<String> = alias.options.iter().map(|o| o.to_string()).collect();
        session
            .set_rule_options(&options)
            .map_err(|e| e.to_string())?;
        session.reset(None).map_err(|e| e.to_string())?;
        return Ok((session, alias.name));
    }
    let id = variant_id(name).ok_or_else(|| format!("unknown variant {:?}", excerpt(name)))?;
    let session = open(id, DEFAULT_HASH_MB).map_err(|e| e.to_string())?;
    let shown = uci_name(session.variant());
    Ok((session, shown))
}

/// Sets the game to `fen` (or the start) and plays `moves`; on any error the previous game
/// stays as it was.
pub fn set_position(
    session: &mut dyn GameSession,
    fen: Option<&str>,
    moves: &[&str],
    translate: &dyn Fn(&mut dyn GameSession, &str) -> String,
) -> Result<(), String> {
    let old_start = session.start_fen();
    let old_moves = session.moves_played();
    let attempt = |session: &mut dyn GameSession| -> Result<(), String> {
        session.reset(fen).map_err(|e| e.to_string())?;
        for (i, mv) in moves.iter().enumerate() {
            let ours = translate(session, mv);
            session
                .play(&ours)
                .map_err(|e| format!("move {} ({}): {e}", i + 1, excerpt(mv)))?;
        }
        Ok(())
    };
    let result = attempt(session);
    if result.is_err() {
        // The old game was legal when it was set up, so it replays.
        let _ = session.reset(Some(&old_start));
        for mv in &old_moves {
            let _ = session.play(mv);
        }
    }
    result
}

/// A `go` command, read leniently: a GUI waits for its `bestmove`, so a bad word is
/// reported and skipped, never a reason to stay silent.
#[derive(Debug, Clone)]
pub struct Go {
    /// The search's limits.
    pub limits: Limits,
    /// `go ponder`: the search of the expected reply, answered only after `stop`, or given
    /// up for a search with `limits` at `ponderhit`.
    pub ponder: bool,
    /// What was wrong with the command, for `info string` lines.
    pub complaints: Vec<String>,
    /// `go mate N` (UCI): a mate in at most N moves is looked for; the search goes to the
    /// depth of such a mate (`2N - 1` plies) and stops once it has found one. USI's `go mate`
    /// takes a time instead and is read by the USI front end.
    pub mate: Option<u32>,
}

impl Go {
    /// The search to start and whether it holds its answer until `stop` (see
    /// [`crate::Searcher::start`]): `go ponder` searches without limit and leaves its own
    /// limits in `pondering` for `ponderhit`; `go infinite` holds too.
    pub fn plan(&self, pondering: &mut Option<Limits>) -> (Limits, bool) {
        if self.ponder {
            *pondering = Some(self.limits);
            let limits = Limits {
                infinite: true,
                ..self.limits
            };
            (limits, true)
        } else {
            (self.limits, self.limits.infinite)
        }
    }
}

/// How long a search runs whose `go` named a limit with an unreadable value and no other.
const FALLBACK_MOVE_TIME: Duration = Duration::from_secs(1);

/// The words of `go` (UCI's; USI's translated) that take a value.
const GO_VALUE_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "byoyomi",
    "depth",
    "nodes",
    "movetime",
    "mate",
];

/// Reads a `go` command (UCI and USI words) for the player to move. Times below zero are
/// zero (a GUI's clock can run past zero with lag; Fairy-Stockfish then moves at once).
pub fn read_go(words: &[&str], to_move: usize, overhead: Duration) -> Go {
    let mut go = Go {
        limits: Limits {
            overhead,
            ..Limits::default()
        },
        ponder: false,
        complaints: Vec::new(),
        mate: None,
    };
    let limits = &mut go.limits;
    let mut times = [None::<u64>; 2];
    let mut increments = [0u64; 2];
    let mut moves_to_go = None;
    let mut byoyomi = 0u64;
    let mut unreadable_limit = false;
    let mut i = 1;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if GO_VALUE_WORDS.contains(&word) {
            let Some(value) = words.get(i).and_then(|w| w.parse::<i64>().ok()) else {
                go.complaints.push(match words.get(i) {
                    Some(other) => format!("bad value for {word}: {:?}", excerpt(other)),
                    None => format!("{word} needs a value"),
                });
                unreadable_limit = true;
                continue;
            };
            i += 1;
            let n = value.max(0) as u64;
            let ms = Duration::from_millis(n);
            match word {
                "wtime" | "btime" => times[usize::from(word == "btime")] = Some(n),
                "winc" | "binc" => increments[usize::from(word == "binc")] = n,
                "movestogo" => moves_to_go = Some(n.clamp(1, 1000) as u32),
                "byoyomi" => byoyomi = n,
                "depth" => limits.depth = Some(n.clamp(1, 200) as u32),
                "nodes" => limits.nodes = Some(n.max(1)),
                "movetime" => limits.move_time = Some(ms),
                // Searching to the depth of a mate in that many moves.
                _ => {
                    let moves = n.clamp(1, 100) as u32;
                    go.mate = Some(moves);
                    limits.depth = Some(2 * moves - 1);
                }
            }
            continue;
        }
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < words.len() && !is_go_word(words[i]) {
                    i += 1;
                }
                go.complaints
                    .push("searchmoves is not supported: every move is searched".to_string());
            }
            other => go
                .complaints
                .push(format!("unknown go parameter {:?}", excerpt(other))),
        }
    }
    let side = to_move.min(1);
    if let Some(remaining) = times[side] {
        limits.clock = Some(Clock {
            remaining: Duration::from_millis(remaining),
            increment: Duration::from_millis(increments[side]),
            moves_to_go,
            byoyomi: Duration::from_millis(byoyomi),
        });
    } else if byoyomi > 0 {
        limits.move_time = Some(Duration::from_millis(byoyomi));
    }
    let unbounded = limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.move_time.is_none()
        && limits.clock.is_none()
        && !limits.infinite;
    if unreadable_limit && unbounded {
        limits.move_time = Some(FALLBACK_MOVE_TIME);
        go.complaints.push(format!(
            "searching {} ms instead",
            FALLBACK_MOVE_TIME.as_millis()
        ));
    }
    go
}

/// Whether `word` is one of `go`'s own words.
fn is_go_word(word: &str) -> bool {
    GO_VALUE_WORDS.contains(&word) || ["infinite", "ponder", "searchmoves"].contains(&word)
}

struct Uci {
    searcher: Searcher,
    out: Output,
    overhead: Duration,
    /// The ruleset's name as the GUI chose it (`antichess` for losing chess under options).
    variant_name: &'static str,
    /// How moves and positions are written.
    dialect: Dialect,
    /// Lines searched and reported (MultiPV), kept when `UCI_Variant` opens another ruleset.
    multi_pv: usize,
    /// The limits of the search to run at `ponderhit`, while pondering.
    pondering: Option<Limits>,
    /// Why the last `position` was refused, until one is accepted: a `go` then must not
    /// search the game that was there before.
    refused_position: Option<String>,
    /// The strength options.
    strength: Strength,
    /// `UCI_Chess960`.
    chess960: bool,
    /// The rule options the GUI chose (`RuleOptions`, or those a variant name implies),
    /// which `UCI_Chess960` completes.
    rule_options: Vec<String>,
}

/// UCI's strength options, as Stockfish has them: `Skill Level` 0-20 (20: full strength),
/// or with `UCI_LimitStrength` an Elo, both mapped onto the engine's levels
/// ([`Level::from_skill`], [`Level::from_elo`]). USI has the same as `Skill_Level`,
/// `USI_LimitStrength` and `USI_Elo`, as Fairy-Stockfish's USI does.
#[derive(Clone, Copy, Debug)]
pub struct Strength {
    /// `Skill Level`.
    pub skill: i32,
    /// `UCI_LimitStrength`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: u32,
}

/// Highest `Skill Level`: full strength.
pub const MAX_SKILL: i32 = 20;

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill: MAX_SKILL,
            limit: false,
            elo: Level::MAX.elo(),
        }
    }
}

impl Strength {
    /// The level the options ask for (`None`: full strength).
    pub fn level(&self) -> Option<Level> {
        if self.limit {
            Some(Level::from_elo(self.elo))
        } else {
            Level::from_skill(self.skill)
        }
    }

    /// The options' declarations, with `prefix` (`UCI_` or `USI_`) and a space or `_` in
    /// `Skill Level`.
    pub fn declarations(prefix: &str, space: &str) -> Vec<String> {
        vec![
            format!(
                "option name Skill{space}Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"
            ),
            format!("option name {prefix}LimitStrength type check default false"),
            format!(
                "option name {prefix}Elo type spin default {} min {} max {}",
                Level::MAX.elo(),
                Level::MIN.elo(),
                Level::MAX.elo()
            ),
        ]
    }

    /// Sets the option `name` (lower case, words joined by one space or `_`, the `UCI_` or
    /// `USI_` prefix dropped) to `value`; `Ok(false)` when `name` is none of them.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "skill level" | "skill_level" => {
                self.skill = value
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|s| (-20..=MAX_SKILL).contains(s))
                    .ok_or_else(|| format!("Skill Level must be 0 to {MAX_SKILL}"))?;
            }
            "limitstrength" => self.limit = parse_check(value)?,
            "elo" => {
                self.elo = value
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|e| (Level::MIN.elo()..=Level::MAX.elo()).contains(e))
                    .ok_or_else(|| {
                        format!("Elo must be {} to {}", Level::MIN.elo(), Level::MAX.elo())
                    })?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Runs the UCI loop until `quit` or end of input.
pub fn run(lines: Receiver<Line>, out: Output) {
    let session = match open(Protocol::Uci.default_variant(), DEFAULT_HASH_MB) {
        Ok(session) => session,
        Err(e) => {
            out.line(&format!("info string error: {e}"));
            return;
        }
    };
    let dialect = Dialect::uci(session.as_ref());
    let variant_name = uci_name(session.variant());
    let mut uci = Uci {
        searcher: Searcher::new(session),
        out,
        overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
        variant_name,
        dialect,
        multi_pv: 1,
        pondering: None,
        refused_position: None,
        strength: Strength::default(),
        chess960: false,
        rule_options: Vec::new(),
    };
    command_loop(&mut uci, lines);
}

impl Handler for Uci {
    fn command(&mut self, text: &str) -> bool {
        self.handle(text)
    }

    fn output(&self) -> &Output {
        &self.out
    }

    fn searcher(&mut self) -> &mut Searcher {
        &mut self.searcher
    }
}

impl Uci {
    /// Handles one command; `false` on `quit`.
    fn handle(&mut self, text: &str) -> bool {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        let result = match first {
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                self.out.line("readyok");
                Ok(())
            }
            "debug" | "register" => Ok(()),
            "ponderhit" => {
                if let Some(limits) = self.pondering.take() {
                    self.searcher.abandon();
                    self.search(limits, false, None);
                }
                Ok(())
            }
            "setoption" => self.set_option(text),
            "ucinewgame" => {
                self.searcher.session(true).new_game();
                Ok(())
            }
            "position" => {
                let result = self.position(&words);
                self.refused_position = result.as_ref().err().cloned();
                result
            }
            "go" => self.go(&words),
            "stop" => {
                self.pondering = None;
                self.searcher.session(true);
                Ok(())
            }
            // `d` waits for nothing: under `go infinite` the search would never give the
            // session back.
            "d" if self.searcher.is_searching() => {
                Err("d shows the position between searches; send stop first".to_string())
            }
            "d" => {
                let dialect = self.dialect;
                let session = self.searcher.session(false);
                let mut text = format!(
                    "{}Fen: {}",
                    session.diagram(),
                    dialect.fen_out(session.as_ref())
                );
                // Fairy-Stockfish shows a shogi-family position as SFEN too.
                if dialect.translates() {
                    text.push_str(&format!("\nSfen: {}", session.fen()));
                }
                for line in text.lines() {
                    self.out.line(line);
                }
                Ok(())
            }
            "quit" => return false,
            other => Err(format!("unknown command {:?}", excerpt(other))),
        };
        if let Err(e) = result {
            self.out.line(&format!("info string error: {e}"));
        }
        true
    }

    fn identify(&mut self) {
        self.out
            .line(&format!("id name Chaturanga {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Chaturanga developers");
        let current = self.variant_name;
        let mut names: Vec<&str> = implemented()
            .map(uci_name)
            .chain(FAIRY_STOCKFISH_ALIASES.iter().map(|a| a.name))
            .collect();
        // An alias may share our id's name (it then means Fairy-Stockfish's game).
        let mut seen = std::collections::HashSet::new();
        names.retain(|n| seen.insert(*n));
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        self.out.line(&format!(
            "option name UCI_Variant type combo default {current}{vars}"
        ));
        self.out
            .line("option name UCI_Chess960 type check default false");
        self.out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.out
            .line("option name Threads type spin default 1 min 1 max 1");
        self.out.line("option name Ponder type check default false");
        self.out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
        ));
        self.out.line(&format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        for declaration in Strength::declarations("UCI_", " ") {
            self.out.line(&declaration);
        }
        self.out
            .line("option name RuleOptions type string default <empty>");
        self.out.line("uciok");
    }

    fn set_option(&mut self, text: &str) -> Result<(), String> {
        let (name, value) = option_name_value(text)?;
        let lower = name.to_ascii_lowercase();
        let session = self.searcher.session(true);
        if self
            .strength
            .set(lower.strip_prefix("uci_").unwrap_or(&lower), &value)?
        {
            session.set_level(self.strength.level());
            return Ok(());
        }
        match lower.as_str() {
            "uci_variant" => {
                let (opened, name) = open_variant(&value)?;
                *session = opened;
                session.set_multi_pv(self.multi_pv);
                session.set_level(self.strength.level());
                self.refused_position = None;
                self.variant_name = name;
                self.dialect = Dialect::uci(session.as_ref());
                self.rule_options.clear();
                if self.chess960 && has_chess960(session.as_ref()) {
                    self.apply_rule_options()?;
                }
                let session = self.searcher.session(true);
                if let Some(line) = announcement(session.as_ref(), name, &self.dialect) {
                    self.out.line(&line);
                }
            }
            "uci_chess960" => {
                let on = parse_check(&value)?;
                if on != self.chess960 {
                    self.chess960 = on;
                    if has_chess960(session.as_ref()) {
                        self.apply_rule_options()?;
                    }
                }
            }
            "hash" => {
                let mb = value
                    .parse::<usize>()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| format!("Hash must be 1 to {MAX_HASH_MB}"))?;
                session.set_hash(mb);
            }
            // The engine ponders whenever the GUI says `go ponder`; the option only tells
            // the GUI that it may.
            "ponder" => {
                parse_check(&value)?;
            }
            "threads" => {
                if value.trim() != "1" {
                    return Err(format!("{name} can only be 1"));
                }
            }
            "multipv" => {
                let lines = value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_MULTI_PV).contains(n))
                    .ok_or_else(|| format!("MultiPV must be 1 to {MAX_MULTI_PV}"))?;
                self.multi_pv = lines;
                session.set_multi_pv(lines);
            }
            "move overhead" => {
                let ms = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&ms| ms <= MAX_OVERHEAD_MS)
                    .ok_or_else(|| format!("Move Overhead must be 0 to {MAX_OVERHEAD_MS}"))?;
                self.overhead = Duration::from_millis(ms);
            }
            "ruleoptions" => {
                self.rule_options = value
                    .split_whitespace()
                    .filter(|w| *w != "<empty>")
                    .map(str::to_string)
                    .collect();
                self.apply_rule_options()?;
            }
            _ => return Err(format!("unknown option {:?}", excerpt(&name))),
        }
        Ok(())
    }

    /// Sets the GUI's rule options, with `chess960=on` where `UCI_Chess960` asks for it and
    /// the ruleset has that option, and starts a game under them.
    fn apply_rule_options(&mut self) -> Result<(), String> {
        let session = self.searcher.session(true);
        let mut options = self.rule_options.clone();
        if self.chess960 && has_chess960(session.as_ref()) {
            options.retain(|o| !o.starts_with("chess960="));
            options.push("chess960=on".to_string());
        }
        session
            .set_rule_options(&options)
            .map_err(|e| e.to_string())?;
        session.reset(None).map_err(|e| e.to_string())
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let (fen, moves) = position_words(words, "fen")?;
        let fen = self.dialect.fen_in(fen.as_deref())?;
        let dialect = self.dialect;
        let session = self.searcher.session(true);
        // Castling written as the king taking its rook (`e1h1`) is read too, as
        // Fairy-Stockfish does where the king's own move would be ambiguous.
        let translate = move |session: &mut dyn GameSession, mv: &str| {
            castling::from_king_takes_rook(session, &dialect.move_in(mv))
        };
        set_position(session.as_mut(), fen.as_deref(), moves, &translate)
    }

    /// Starts the search a `go` asks for. Every `go` but `go perft` gets a `bestmove`, even
    /// one with bad words or after a refused `position` (then `bestmove (none)`).
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        if words.get(1) == Some(&"perft") {
            return self.perft(words);
        }
        let overhead = self.overhead;
        let session = self.searcher.session(true);
        let go = read_go(words, session.side_to_move(), overhead);
        for complaint in &go.complaints {
            self.out.line(&format!("info string error: {complaint}"));
        }
        if let Some(why) = &self.refused_position {
            self.out.line(&format!(
                "info string error: no position to search (the last was refused: {why})"
            ));
            self.out.line("bestmove (none)");
            return Ok(());
        }
        // A mate search is the full engine's; the strength options apply to every other.
        let level = go.mate.map_or(self.strength.level(), |_| None);
        self.searcher.session(true).set_level(level);
        let (limits, holds) = go.plan(&mut self.pondering);
        self.search(limits, holds, go.mate);
        Ok(())
    }

    /// Searches the position; the decision is the `bestmove` line (after `stop` if the
    /// search `holds`). With `mate`, the search stops once it has found a mate in at most
    /// that many moves.
    fn search(&mut self, limits: Limits, holds: bool, mate: Option<u32>) {
        let dialect = self.dialect;
        // Where the ruleset has no Chess960 of its own, UCI_Chess960 only writes castling
        // as the king taking its rook.
        let king_takes_rook = self.chess960 && !has_chess960(self.searcher.session(true).as_ref());
        let out = self.out.clone();
        let done_out = self.out.clone();
        let stop = self.searcher.session(true).stop_flag();
        self.searcher.start(
            limits,
            holds,
            move |thinking| {
                let pv: Vec<String> = thinking.pv.iter().map(|m| dialect.move_out(m)).collect();
                out.line(&info_line(thinking, &pv));
                if let (Some(wanted), Some(found)) = (mate, thinking.score.mate_in_moves())
                    && thinking.multipv == 1
                    && (1..=wanted as i32).contains(&found)
                {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            },
            move |session, decision| {
                let mut shown = |text: &str| {
                    let text = dialect.move_out(text);
                    if king_takes_rook {
                        castling::to_king_takes_rook(session, &text)
                    } else {
                        text
                    }
                };
                let line = match (&decision.best, &decision.ponder) {
                    // The ponder move would be written in the position after the best one.
                    (Some(best), Some(ponder)) if !king_takes_rook => {
                        format!("bestmove {} ponder {}", shown(best), shown(ponder))
                    }
                    (Some(best), _) => format!("bestmove {}", shown(best)),
                    (None, _) => {
                        done_out.line("info string the game is over");
                        "bestmove (none)".to_string()
                    }
                };
                done_out.line(&line);
            },
        );
    }

    fn perft(&mut self, words: &[&str]) -> Result<(), String> {
        let depth: u32 = number(words, 2, "perft")?;
        if depth > MAX_PERFT_DEPTH {
            return Err(format!("perft depth must be at most {MAX_PERFT_DEPTH}"));
        }
        let start = Instant::now();
        let dialect = self.dialect;
        let session = self.searcher.session(true);
        let mut split: Vec<(String, u64)> = session
            .perft_divide(depth.max(1))
            .into_iter()
            .map(|(mv, n)| (dialect.move_out(&mv), n))
            .collect();
        split.sort();
        let mut total = 0;
        for (mv, n) in &split {
            let n = if depth == 0 { 1 } else { *n };
            self.out.line(&format!("{mv}: {n}"));
            total += n;
        }
        let total = if depth == 0 { 1 } else { total };
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
        let ms = start.elapsed().as_millis().max(1);
        self.out.line(&format!(
            "info string perft {total} nodes in {ms} ms ({} nodes/s)",
            total as u128 * 1000 / ms
        ));
        Ok(())
    }
}

/// `setoption name <name words> [value <value words>]`.
pub fn option_name_value(text: &str) -> Result<(String, String), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.get(1) != Some(&"name") {
        return Err("setoption needs `name`".to_string());
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name = words[2..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
    if name.is_empty() {
        return Err("setoption needs an option name".to_string());
    }
    Ok((name, value))
}

/// A move as the GUI wrote it.
pub fn as_given(_session: &mut dyn GameSession, text: &str) -> String {
    text.to_string()
}

/// Whether the ruleset plays Chess960 under a rule option (`chess960`).
fn has_chess960(session: &dyn GameSession) -> bool {
    session.option_specs().iter().any(|s| s.name == "chess960")
}

/// Reads a UCI check option's value.
pub fn parse_check(value: &str) -> Result<bool, String> {
    match value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("expected true or false, not {:?}", excerpt(other))),
    }
}

/// Castling as Chess960 GUIs write it: the king "takes" its own rook (`e1h1` for `O-O`).
mod castling {
    use chaturanga_session::GameSession;

    /// Expands a FEN's board field into rows of cells (`None` = empty), top row first.
    fn rows(fen: &str) -> Vec<Vec<Option<char>>> {
        let board = fen.split_whitespace().next().unwrap_or("");
        board
            .split('/')
            .map(|row| {
                let mut cells = Vec::new();
                let mut digits = String::new();
                for c in row.chars() {
                    if c.is_ascii_digit() {
                        digits.push(c);
                        continue;
                    }
                    if let Ok(n) = digits.parse::<usize>() {
                        cells.extend(std::iter::repeat_n(None, n.min(64)));
                    }
                    digits.clear();
                    cells.push(Some(c));
                }
                if let Ok(n) = digits.parse::<usize>() {
                    cells.extend(std::iter::repeat_n(None, n.min(64)));
                }
                cells
            })
            .collect()
    }

    /// The castling move `ours` (king two steps) as king-takes-rook, else `ours` itself.
    pub fn to_king_takes_rook(session: &mut dyn GameSession, ours: &str) -> String {
        let before = rows(&session.fen());
        if session.play(ours).is_err() {
            return ours.to_string();
        }
        let after = rows(&session.fen());
        session.undo();
        let bytes = ours.as_bytes();
        if bytes.len() != 4 || before.len() != after.len() {
            return ours.to_string();
        }
        let (from_file, to_file) = (bytes[0], bytes[2]);
        // A rook that left its cell on the king's rank, in the direction the king went two
        // steps, marks castling.
        if bytes[1] != bytes[3] || from_file.abs_diff(to_file) < 2 || !bytes[1].is_ascii_digit() {
            return ours.to_string();
        }
        let Some(rank_row) = before.len().checked_sub(usize::from(bytes[1] - b'0')) else {
            return ours.to_string();
        };
        let (Some(row_before), Some(row_after)) = (before.get(rank_row), after.get(rank_row))
        else {
            return ours.to_string();
        };
        let towards_higher = to_file > from_file;
        let vacated = (0..row_before.len()).find(|&x| {
            let file = b'a' + x as u8;
            let beyond = if towards_higher {
                file > to_file
            } else {
                file < to_file
            };
            beyond
                && row_before[x].is_some_and(|c| c.eq_ignore_ascii_case(&'r'))
                && row_after.get(x).copied().flatten().is_none()
        });
        match vacated {
            Some(x) => format!(
                "{}{}{}",
                &ours[..2],
                char::from(b'a' + x as u8),
                &ours[3..4]
            ),
            None => ours.to_string(),
        }
    }

    /// A king-takes-rook move as our castling move, else the move itself.
    pub fn from_king_takes_rook(session: &mut dyn GameSession, theirs: &str) -> String {
        let legal = session.legal_moves();
        if legal.iter().any(|m| m == theirs) || theirs.len() != 4 {
            return theirs.to_string();
        }
        // The king's move along its rank that is written this way.
        let candidates: Vec<String> = legal
            .into_iter()
            .filter(|m| m.len() == 4 && m[..2] == theirs[..2] && m[3..] == theirs[3..])
            .collect();
        candidates
            .into_iter()
            .find(|m| to_king_takes_rook(session, m) == theirs)
            .unwrap_or_else(|| theirs.to_string())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn castling_both_ways_in_both_directions() {
            let mut session = chaturanga_session::open("chess", 1).expect("chess");
            session
                .reset(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
                .expect("position");
            assert_eq!(to_king_takes_rook(session.as_mut(), "e1g1"), "e1h1");
            assert_eq!(to_king_takes_rook(session.as_mut(), "e1c1"), "e1a1");
            assert_eq!(to_king_takes_rook(session.as_mut(), "e1f1"), "e1f1");
            assert_eq!(from_king_takes_rook(session.as_mut(), "e1h1"), "e1g1");
            assert_eq!(from_king_takes_rook(session.as_mut(), "e1a1"), "e1c1");
            // A real move that looks like neither stays as it is.
            assert_eq!(from_king_takes_rook(session.as_mut(), "a1a8"), "a1a8");
            // Nothing was played on the way.
            assert_eq!(session.moves_played().len(), 0);
            // Capablanca's king castles three files: towards the rook on j1.
            let mut capa = chaturanga_session::open("capablanca", 1).expect("capablanca");
            capa.reset(Some("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1"))
                .expect("position");
            let castle = capa
                .legal_moves()
                .into_iter()
                .find(|m| m.starts_with("f1") && m.len() == 4 && m.as_bytes()[2] > b'h')
                .expect("castling towards j1");
            assert_eq!(to_king_takes_rook(capa.as_mut(), &castle), "f1j1");
            assert_eq!(from_king_takes_rook(capa.as_mut(), "f1j1"), castle);
        }
    }
}
