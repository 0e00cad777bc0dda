//! `chaturanga xboard`: the Chess Engine Communication Protocol (version 2).
//!
//! Moves travel in XBoard's coordinates (files `a`… and ranks from `1`, or from `0` on
//! ten-rank boards; drops `P@e4`), translated to and from ours through the board's
//! geometry. Variant names are XBoard's where it has the game (`normal`, `xiangqi`, `chu`,
//! `5x5+5_shogi`, and [`XBOARD_ALIASES`] for its games that are ours under other rule
//! options), our ids otherwise; after `variant` a ruleset XBoard does not play itself is
//! described to it with `setup` and `piece` ([`super::xboard_setup`]), which XBoard 4.9 takes
//! for a name it does not know (an engine-defined variant).
//!
//! Besides playing: `analyze` mode (`.`, `exit`), and `feature option`s for the hash size
//! and the rule options of the game's ruleset, announced again whenever the game's variant
//! changes; `option NAME=VALUE` for a rule option starts a new game under it.

use super::xboard_setup::{describe, plays_itself, read_xboard_fen};
use super::{
    DEFAULT_HASH_MB, Handler, Line, MAX_HASH_MB, Output, Protocol, Searcher, command_loop,
};
use chaturanga_engine::{Clock, Limits, Score};
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{OptionSpec, OptionValues, Reason};
use chaturanga_session::{Finished, GameSession, Thinking, from_xboard, open, to_xboard};
use chaturanga_variants::{Alias, implemented};
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Kept back from every time budget, in milliseconds.
const OVERHEAD_MS: u64 = 50;

/// XBoard's names for our rulesets under rule options other than the defaults, and a name
/// of our own for a ruleset whose XBoard name XBoard plays under other options:
///
/// - `capablanca`: XBoard sets up Capablanca's standard array and keeps it while it tests
///   legality (it ignores `setup` for a variant it knows), so its `capablanca` is ours under
///   `setup=standard`.
/// - `seed-capablanca`: our default array, an engine-defined variant for XBoard (a name it
///   does not read as one of its own: not `capablanca…` followed by a non-letter), which it
///   sets up from our `setup` line with legality testing on.
/// - `giveaway`: XBoard's giveaway (ICC's) makes captures compulsory, has no check, allows
///   en passant and promotion to a king, and gives the win to a player without a move, as
///   our losing chess under `en-passant=on` and `king-promotion=on` does; it also lets a
///   king castle, which we never do. Its `suicide` (FICS's) scores a player without a move by
///   counting men, and its `losers` keeps check: neither is ours.
pub const XBOARD_ALIASES: &[Alias] = &[
    Alias {
        name: "capablanca",
        ruleset: "capablanca",
        options: &["setup=standard"],
    },
    Alias {
        name: "seed-capablanca",
        ruleset: "capablanca",
        options: &[],
    },
    Alias {
        name: "giveaway",
        ruleset: "losing",
        options: &["en-passant=on", "king-promotion=on"],
    },
];

/// The ruleset of an XBoard variant name: XBoard's name for it
/// ([`chaturanga_variants::VariantInfo::xboard_name`]), our id, or an [`XBOARD_ALIASES`] name.
pub fn ruleset_of(name: &str) -> Option<&'static str> {
    resolve(name).map(|(id, _)| id)
}

/// The ruleset and rule options of an XBoard variant name: an [`XBOARD_ALIASES`] name first,
/// then XBoard's name for a ruleset or our id (default options).
pub fn resolve(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    if let Some(alias) = XBOARD_ALIASES.iter().find(|a| a.name == name) {
        return Some((alias.ruleset, alias.options));
    }
    implemented()
        .find(|v| v.id == name || v.xboard_name() == name)
        .map(|v| (v.id, &[][..]))
}

/// The variant names offered in `feature variants`: every name of [`resolve`] under which
/// XBoard can show the game, two players on one board that XBoard either plays itself from
/// our start or is told with `setup` (rulesets whose moves are partly code, hexagonal boards
/// and four-player games are left out: XBoard would show them as chess).
pub fn offered_variants() -> &'static [String] {
    static OFFERED: OnceLock<Vec<String>> = OnceLock::new();
    OFFERED.get_or_init(|| {
        let names = XBOARD_ALIASES.iter().map(|a| a.name).chain(
            implemented()
                .map(|v| v.xboard_name())
                .filter(|name| XBOARD_ALIASES.iter().all(|a| a.name != *name)),
        );
        names
            .filter(|name| {
                open_variant(name, &[], 1).is_ok_and(|session| {
                    session.players() == 2
                        && (plays_itself(name, &session.start_fen())
                            || describe(name, session.as_ref()).is_some())
                })
            })
            .map(str::to_string)
            .collect()
    })
}

/// A session of an XBoard variant name at its start, under the name's rule options
/// overridden by `chosen` (`name=value` items).
fn open_variant(
    name: &str,
    chosen: &[String],
    hash_mb: usize,
) -> Result<Box<dyn GameSession>, String> {
    let (id, base) = resolve(name).ok_or_else(|| format!("unknown variant {}", excerpt(name)))?;
    let mut session = open(id, hash_mb).map_err(|e| e.to_string())?;
    let options = merged(base, chosen);
    if !options.is_empty() {
        session
            .set_rule_options(&options)
            .map_err(|e| e.to_string())?;
    }
    session.reset(None).map_err(|e| e.to_string())?;
    Ok(session)
}

/// The rule options an XBoard variant name fixes ([`XBOARD_ALIASES`]), which are not
/// offered as `feature option`s: XBoard plays the game of the name itself (its Capablanca
/// array, its giveaway rules), so another value would make it judge a game we do not play.
fn pinned_options(name: &str) -> Vec<&'static str> {
    resolve(name).map_or_else(Vec::new, |(_, options)| {
        options
            .iter()
            .filter_map(|item| item.split_once('=').map(|(n, _)| n))
            .collect()
    })
}

/// `base` options with `chosen` ones replacing those of the same name.
fn merged(base: &[&str], chosen: &[String]) -> Vec<String> {
    let name = |item: &str| item.split_once('=').map_or("", |(n, _)| n).to_string();
    let mut out: Vec<String> = base
        .iter()
        .filter(|b| chosen.iter().all(|c| name(c) != name(b)))
        .map(|b| b.to_string())
        .collect();
    out.extend(chosen.iter().cloned());
    out
}

/// XBoard's name of standard chess, which `new` starts (CECP).
const STANDARD_CHESS: &str = "normal";

/// Commands that need no answer and change nothing here.
const IGNORED: &[&str] = &[
    "xboard", "random", "computer", "hard", "easy", "accepted", "rejected", "name", "rating",
    "ics", "cores", "white", "black", "draw", "hint", "bk", "otim",
];

/// The hash size option's name.
const HASH_OPTION: &str = "Hash";

/// How the engine's clock runs: the control of `level` or `st`, the time `time` last
/// reported, and `sd`.
#[derive(Clone, Copy, Default)]
struct EngineTime {
    /// `level MPS BASE INC` (moves per session, base, increment) or `st` (a fixed time per
    /// move).
    control: Option<TimeControl>,
    /// The engine's clock as last reported by `time`.
    remaining: Option<Duration>,
    depth: Option<u32>,
}

/// What the running analysis has done, for `.`.
#[derive(Clone, Copy, Default)]
struct Progress {
    depth: u32,
    nodes: u64,
    elapsed: Duration,
    /// Legal moves of the analysed position.
    moves: usize,
}

struct XBoard {
    searcher: Searcher,
    out: Output,
    /// The player the engine plays; `None` in force mode.
    engine_side: Option<usize>,
    time: EngineTime,
    post: bool,
    /// Transposition table size, kept when `new` or `variant` opens another ruleset.
    hash_mb: usize,
    /// The XBoard name of the game's variant.
    variant: String,
    /// Rule options set with `option`, per XBoard variant name (`name=value`).
    chosen: HashMap<String, Vec<String>>,
    /// The variant whose options XBoard was last told (`feature option`).
    announced: Option<String>,
    /// In analyze mode: the progress of the analysis.
    analysis: Option<Arc<Mutex<Progress>>>,
}

/// Runs the XBoard loop until `quit` or end of input.
pub fn run(lines: Receiver<Line>, out: Output) {
    let session = match open(Protocol::XBoard.default_variant(), DEFAULT_HASH_MB) {
        Ok(session) => session,
        Err(e) => {
            out.line(&format!("tellusererror {e}"));
            return;
        }
    };
    let mut xboard = XBoard {
        searcher: Searcher::new(session),
        out,
        engine_side: Some(1),
        time: EngineTime::default(),
        post: false,
        hash_mb: DEFAULT_HASH_MB,
        variant: STANDARD_CHESS.to_string(),
        chosen: HashMap::new(),
        announced: None,
        analysis: None,
    };
    command_loop(&mut xboard, lines);
}

/// The result line of a finished game (`1-0 {checkmate}`); only two-player results have a
/// CECP form, others are written as our result text.
fn result_line(finished: &Finished) -> String {
    let result = match finished.quarters.as_slice() {
        [4, 0] => "1-0".to_string(),
        [0, 4] => "0-1".to_string(),
        [2, 2] => "1/2-1/2".to_string(),
        _ => finished.result.clone(),
    };
    format!("{result} {{{}}}", finished.reason.as_str())
}

/// Centipawns as XBoard's thinking output writes scores (mates as ±100000 - plies).
fn xboard_score(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Win { plies } if plies >= 0 => 100_000 - plies,
        Score::Win { plies } => -100_000 - plies,
    }
}

/// One line of thinking output: depth, score, time in centiseconds, nodes, the line.
fn thinking_line(thinking: &Thinking, pv: &[String]) -> String {
    format!(
        "{} {} {} {} {}",
        thinking.depth,
        xboard_score(thinking.score),
        thinking.elapsed.as_millis() / 10,
        thinking.nodes,
        pv.join(" ")
    )
}

/// `level 40 5 0`, `level 0 2:30 3`: moves per session, base `minutes[:seconds]`, increment.
fn parse_level(words: &[&str]) -> Result<TimeControl, String> {
    let [_, mps, base, inc] = words else {
        return Err("level needs three values".to_string());
    };
    let mps: u32 = mps
        .parse()
        .map_err(|_| format!("bad moves per session {:?}", excerpt(mps)))?;
    let base_seconds = match base.split_once(':') {
        Some((m, s)) => m
            .parse::<u64>()
            .ok()
            .zip(s.parse::<u64>().ok())
            .map(|(m, s)| m * 60 + s),
        None => base.parse::<u64>().ok().map(|m| m * 60),
    }
    .ok_or_else(|| format!("bad base time {:?}", excerpt(base)))?;
    let inc: f64 = inc
        .parse()
        .ok()
        .filter(|i: &f64| i.is_finite() && *i >= 0.0 && *i < 1e6)
        .ok_or_else(|| format!("bad increment {:?}", excerpt(inc)))?;
    let base = Duration::from_secs(base_seconds.min(1_000_000));
    Ok(TimeControl {
        moves_per_session: (mps > 0).then_some(mps),
        ..TimeControl::fischer(base, Duration::from_secs_f64(inc))
    })
}

/// The value of each of the session's rule options in a game of the XBoard variant
/// `variant`: chosen with `option`, else given by the variant's name, else the default.
fn rule_options(
    variant: &str,
    chosen: &HashMap<String, Vec<String>>,
    session: &dyn GameSession,
) -> Vec<String> {
    let base = resolve(variant).map_or(&[][..], |(_, options)| options);
    let items = merged(base, chosen.get(variant).map_or(&[][..], Vec::as_slice));
    session
        .option_specs()
        .iter()
        .map(|spec| {
            items
                .iter()
                .find_map(|item| {
                    item.split_once('=')
                        .filter(|(n, _)| *n == spec.name)
                        .map(|(_, v)| v.to_string())
                })
                .unwrap_or_else(|| spec.default.to_string())
        })
        .collect()
}

/// Whether an option of only `on` and `off` is shown as a check box.
fn is_switch(spec: &OptionSpec) -> bool {
    matches!(spec.values, OptionValues::Choice(words) if words.len() == 2
        && words.contains(&"on") && words.contains(&"off"))
}

/// The `feature option="..."` text of a rule option whose value is `value`: a check box for
/// `on`/`off`, a combo box for other choices, a spin box for numbers, text otherwise.
fn option_feature(spec: &OptionSpec, value: &str) -> String {
    let name = spec.name;
    let body = match &spec.values {
        OptionValues::Choice(_) if is_switch(spec) => {
            format!("{name} -check {}", u8::from(value == "on"))
        }
        OptionValues::Choice(words) => {
            let choices: Vec<String> = words
                .iter()
                .map(|w| {
                    if *w == value {
                        format!("*{w}")
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        OptionValues::Number(lo, hi) if *hi <= i32::MAX as u32 => {
            format!("{name} -spin {value} {lo} {hi}")
        }
        _ => format!("{name} -string {value}"),
    };
    format!("feature option=\"{body}\"")
}

/// A value XBoard sent for a rule option in our terms (`1` → `on` for a check box).
fn option_value(spec: &OptionSpec, value: &str) -> String {
    if is_switch(spec) {
        match value {
            "1" | "true" => return "on".to_string(),
            "0" | "false" => return "off".to_string(),
            _ => {}
        }
    }
    value.to_string()
}

impl Handler for XBoard {
    fn command(&mut self, text: &str) -> bool {
        self.handle(text)
    }

    fn error_line(&self, why: &str) -> String {
        format!("Error ({why}): line")
    }

    fn output(&self) -> &Output {
        &self.out
    }

    fn searcher(&mut self) -> &mut Searcher {
        &mut self.searcher
    }
}

impl XBoard {
    fn handle(&mut self, text: &str) -> bool {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        // The options of a new variant are announced once the GUI has chosen it: `new` is
        // chess, often followed by `random` and another `variant`.
        if !matches!(first, "new" | "variant" | "protover" | "quit" | "memory")
            && !IGNORED.contains(&first)
            && self.announced.is_some()
            && self.announced.as_deref() != Some(self.variant.as_str())
        {
            self.announce_options(true);
        }
        let result = match first {
            ignored if IGNORED.contains(&ignored) => Ok(()),
            "protover" => {
                self.features();
                Ok(())
            }
            "new" => self.new_game(None),
            "variant" => match words.get(1) {
                Some(name) => self.new_game(Some(name)),
                None => Err("variant needs a name".to_string()),
            },
            "force" => {
                self.searcher.session(true);
                self.engine_side = None;
                Ok(())
            }
            "go" => {
                self.stop_analysis();
                let side = self.searcher.session(true).side_to_move();
                self.engine_side = Some(side);
                self.think();
                Ok(())
            }
            "playother" => {
                let session = self.searcher.session(true);
                let players = session.players();
                self.engine_side = Some((session.side_to_move() + 1) % players);
                Ok(())
            }
            "analyze" => {
                self.engine_side = None;
                self.analysis = Some(Arc::default());
                self.analyze();
                Ok(())
            }
            "exit" => {
                self.stop_analysis();
                Ok(())
            }
            "." => {
                self.status();
                Ok(())
            }
            "level" => parse_level(&words).map(|control| {
                self.time.remaining = Some(control.base);
                self.time.control = Some(control);
            }),
            "st" => super::number::<f64>(&words, 1, "st").and_then(|s| {
                if s.is_finite() && s > 0.0 && s < 1e6 {
                    self.time.control = Some(TimeControl::per_move(Duration::from_secs_f64(s)));
                    Ok(())
                } else {
                    Err("st must be positive".to_string())
                }
            }),
            "sd" => super::number::<u32>(&words, 1, "sd").map(|d| {
                self.time.depth = Some(d.clamp(1, 200));
            }),
            "time" => super::number::<u64>(&words, 1, "time").map(|cs| {
                self.time.remaining = Some(Duration::from_millis(cs.min(1 << 40) * 10));
            }),
            "memory" => super::number::<usize>(&words, 1, "memory").map(|mb| {
                self.set_hash(mb);
            }),
            "option" => self.set_option(text),
            "post" => {
                self.post = true;
                Ok(())
            }
            "nopost" => {
                self.post = false;
                Ok(())
            }
            "ping" => {
                let n = words.get(1).copied().unwrap_or("");
                self.out.line(&format!("pong {}", excerpt(n)));
                Ok(())
            }
            "?" => {
                // Move now: the stopped search still reports its move.
                if self.searcher.is_searching() && self.analysis.is_none() {
                    self.searcher.session(true);
                }
                Ok(())
            }
            "result" => {
                self.stop_analysis();
                self.searcher.session(true);
                self.engine_side = None;
                Ok(())
            }
            "setboard" => self.set_board(text),
            "usermove" => match words.get(1) {
                Some(mv) => self.user_move(mv),
                None => Err("usermove needs a move".to_string()),
            },
            "undo" => {
                self.searcher.session(true).undo();
                self.analyze();
                Ok(())
            }
            "remove" => {
                let session = self.searcher.session(true);
                session.undo();
                session.undo();
                self.analyze();
                Ok(())
            }
            "quit" => return false,
            // Protocol version 1 GUIs send bare moves.
            other if other.len() <= 12 && other.chars().any(|c| c.is_ascii_digit()) => {
                self.user_move(other)
            }
            other => {
                self.out
                    .line(&format!("Error (unknown command): {}", excerpt(other)));
                Ok(())
            }
        };
        if let Err(e) = result {
            self.out.line(&format!("Error ({e}): {}", excerpt(text)));
        }
        true
    }

    fn features(&mut self) {
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature myname=\"Chaturanga {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            offered_variants().join(",")
        ));
        self.out.line(
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 \
             reuse=1 analyze=1 memory=1 draw=0 name=0 playother=1",
        );
        self.announce_options(false);
        self.out.line("feature done=1");
    }

    /// `feature option` for the hash size and the rule options of the game's ruleset, each
    /// with its value now; `again` when XBoard already has a list, which `feature done=0`
    /// clears (XBoard 4.9 drops an engine's options on a `done=0` after its start).
    fn announce_options(&mut self, again: bool) {
        if again {
            self.out.line("feature done=0");
        }
        self.out.line(&format!(
            "feature option=\"{HASH_OPTION} -spin {} 1 {MAX_HASH_MB}\"",
            self.hash_mb
        ));
        let session = self.searcher.session(true);
        let values = rule_options(&self.variant, &self.chosen, session.as_ref());
        let pinned = pinned_options(&self.variant);
        for (spec, value) in session.option_specs().iter().zip(values) {
            if !pinned.contains(&spec.name) {
                self.out.line(&option_feature(spec, &value));
            }
        }
        if again {
            self.out.line("feature done=1");
        }
        self.announced = Some(self.variant.clone());
    }

    fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb.clamp(1, MAX_HASH_MB);
        self.stop_analysis();
        self.searcher.session(true).set_hash(self.hash_mb);
    }

    /// `option NAME=VALUE`: the hash size, or a rule option of the game's ruleset, which
    /// starts a new game under it when it changes.
    fn set_option(&mut self, text: &str) -> Result<(), String> {
        let rest = text
            .trim_start()
            .strip_prefix("option")
            .unwrap_or("")
            .trim();
        let (name, value) = rest
            .split_once('=')
            .map(|(n, v)| (n.trim(), v.trim()))
            .ok_or_else(|| "option needs NAME=VALUE".to_string())?;
        if name == HASH_OPTION {
            let mb: usize = value
                .parse()
                .map_err(|_| format!("bad hash size {:?}", excerpt(value)))?;
            self.set_hash(mb);
            return Ok(());
        }
        self.stop_analysis();
        let session = self.searcher.session(true);
        let spec = session
            .option_specs()
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("unknown option {:?}", excerpt(name)))?;
        if pinned_options(&self.variant).contains(&spec.name) {
            return Err(format!(
                "option {} is fixed by the variant {}",
                spec.name,
                excerpt(&self.variant)
            ));
        }
        let value = option_value(spec, value);
        if !spec.values.accepts(&value) {
            return Err(format!(
                "option {} takes {}, not {:?}",
                spec.name,
                spec.values.describe("|"),
                excerpt(&value)
            ));
        }
        let current = rule_options(&self.variant, &self.chosen, session.as_ref());
        let index = session
            .option_specs()
            .iter()
            .position(|s| s.name == spec.name)
            .unwrap_or(0);
        if current.get(index) == Some(&value) {
            return Ok(());
        }
        let item = format!("{}={value}", spec.name);
        let chosen = self.chosen.entry(self.variant.clone()).or_default();
        chosen.retain(|c| c.split_once('=').map(|(n, _)| n) != Some(spec.name));
        chosen.push(item);
        let variant = self.variant.clone();
        let side = self.engine_side;
        self.new_game(Some(&variant))?;
        self.engine_side = side;
        Ok(())
    }

    /// `new` (standard chess, as CECP prescribes) or `variant NAME`: a fresh game under the
    /// name's rule options and those chosen with `option`, and for a ruleset XBoard does not
    /// play itself, its description (`setup`, `piece`).
    fn new_game(&mut self, variant: Option<&str>) -> Result<(), String> {
        let name = variant.unwrap_or(STANDARD_CHESS);
        let chosen = self.chosen.get(name).cloned().unwrap_or_default();
        let fresh = open_variant(name, &chosen, self.hash_mb)?;
        let session = self.searcher.session(true);
        *session = fresh;
        session.new_game();
        if let Some(description) = describe(name, session.as_ref()) {
            for line in description.output() {
                self.out.line(&line);
            }
        }
        self.variant = name.to_string();
        self.engine_side = Some(1);
        self.time.depth = None;
        self.analyze();
        Ok(())
    }

    fn set_board(&mut self, text: &str) -> Result<(), String> {
        let fen = text
            .trim_start()
            .strip_prefix("setboard")
            .unwrap_or("")
            .trim();
        let session = self.searcher.session(true);
        let old = session.fen();
        let readings = read_xboard_fen(fen, session.variant().usi, &session.start_fen());
        let mut error = None;
        for reading in &readings {
            match session.reset(Some(reading)) {
                Ok(()) => {
                    error = None;
                    break;
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = error {
            let _ = session.reset(Some(&old));
            self.out.line("tellusererror Illegal position");
            self.analyze();
            return Err(e.to_string());
        }
        self.analyze();
        Ok(())
    }

    fn user_move(&mut self, text: &str) -> Result<(), String> {
        let session = self.searcher.session(true);
        let ours = if text == "@@@@" {
            session.pass_move().unwrap_or_else(|| text.to_string())
        } else {
            from_xboard(session.geometry(), text)
        };
        // XBoard writes `=` for a promotion declined (`h2h7=` in shogi); our texts say it by
        // having no suffix.
        let ours = match ours.strip_suffix('=') {
            Some(plain) if !plain.is_empty() => plain.to_string(),
            _ => ours,
        };
        let played = session
            .play(&ours)
            .or_else(|_| session.play(&ours.replace('@', "*")));
        if played.is_err() {
            self.out.line(&format!("Illegal move: {}", excerpt(text)));
            return Ok(());
        }
        if self.analysis.is_some() {
            self.analyze();
            return Ok(());
        }
        if let Some(finished) = session.finished() {
            self.out.line(&result_line(&finished));
            return Ok(());
        }
        if self.engine_side == Some(session.side_to_move()) {
            self.think();
        }
        Ok(())
    }

    /// In analyze mode, (re)starts the analysis of the current position: a search until the
    /// next command, its thinking always shown, no move played. Nothing in a finished game.
    fn analyze(&mut self) {
        let Some(progress) = self.analysis.clone() else {
            return;
        };
        let session = self.searcher.session(true);
        if session.finished().is_some() {
            return;
        }
        let moves = session.legal_moves().len();
        if let Ok(mut p) = progress.lock() {
            *p = Progress {
                moves,
                ..Progress::default()
            };
        }
        let geometry = session.geometry();
        let out = self.out.clone();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.searcher.start(
            limits,
            true,
            move |thinking| {
                if let Ok(mut p) = progress.lock() {
                    p.depth = thinking.depth;
                    p.nodes = thinking.nodes;
                    p.elapsed = thinking.elapsed;
                }
                let pv: Vec<String> = thinking.pv.iter().map(|m| to_xboard(geometry, m)).collect();
                out.line(&thinking_line(thinking, &pv));
            },
            |_, _| {},
        );
    }

    /// Leaves analyze mode, stopping the analysis.
    fn stop_analysis(&mut self) {
        if self.analysis.take().is_some() {
            self.searcher.session(true);
        }
    }

    /// `.` in analyze mode: `stat01: TIME NODES DEPTH MOVES-LEFT MOVES`.
    fn status(&self) {
        let Some(progress) = &self.analysis else {
            return;
        };
        let p = progress.lock().map(|p| *p).unwrap_or_default();
        self.out.line(&format!(
            "stat01: {} {} {} 0 {}",
            p.elapsed.as_millis() / 10,
            p.nodes,
            p.depth,
            p.moves
        ));
    }

    /// Starts thinking on the engine's move; the search thread plays and announces it.
    fn think(&mut self) {
        let session = self.searcher.session(true);
        if let Some(finished) = session.finished() {
            self.out.line(&result_line(&finished));
            return;
        }
        let limits = limits(&self.time, session.as_ref());
        let geometry = session.geometry();
        let out = self.out.clone();
        let done_out = self.out.clone();
        let post = self.post;
        self.searcher.start(
            limits,
            false,
            move |thinking| {
                if post {
                    let pv: Vec<String> =
                        thinking.pv.iter().map(|m| to_xboard(geometry, m)).collect();
                    out.line(&thinking_line(thinking, &pv));
                }
            },
            move |session, decision| {
                let Some(best) = decision.best else {
                    let finished = session.finished().unwrap_or_else(|| {
                        // No move but no result: the rules leave the player without a move.
                        session.end(None, Reason::NoLegalMoves);
                        session.finished().unwrap_or(Finished {
                            quarters: vec![2; session.players()],
                            result: "1/2-1/2".to_string(),
                            reason: Reason::NoLegalMoves,
                        })
                    });
                    done_out.line(&result_line(&finished));
                    return;
                };
                let shown = to_xboard(geometry, &best);
                if session.play(&best).is_err() {
                    done_out.line(&format!("tellusererror internal error: move {best}"));
                    return;
                }
                done_out.line(&format!("move {shown}"));
                if let Some(finished) = session.finished() {
                    done_out.line(&result_line(&finished));
                }
            },
        );
    }
}

/// The limits of the engine's next move.
fn limits(time: &EngineTime, session: &dyn GameSession) -> Limits {
    let mut limits = Limits {
        depth: time.depth,
        overhead: Duration::from_millis(OVERHEAD_MS),
        ..Limits::default()
    };
    let control = time.control;
    if let Some(t) = control.and_then(|c| c.fixed_per_move()) {
        limits.move_time = Some(t);
    } else if let Some(remaining) = time.remaining {
        let own_moves = (session.moves_played().len() / session.players().max(1)) as u32;
        limits.clock = Some(Clock {
            remaining,
            increment: control.map_or(Duration::ZERO, |c| c.increment),
            moves_to_go: control
                .and_then(|c| c.moves_per_session)
                .map(|mps| mps - own_moves % mps),
            byoyomi: Duration::ZERO,
        });
    } else if time.depth.is_none() {
        limits.move_time = Some(Duration::from_secs(5));
    }
    limits
}
