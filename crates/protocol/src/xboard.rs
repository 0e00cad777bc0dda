//! `chaturanga xboard`: the Chess Engine Communication Protocol (version 2).
//!
//! Moves travel in XBoard's coordinates (files `a`… and ranks from `1`, or from `0` on
//! ten-rank boards; drops `P@e4`), translated to and from ours through the board's
//! geometry. Variant names are XBoard's where it has the game (`normal`, `xiangqi`, `chu`,
//! `5x5+5_shogi`), our ids otherwise; after `variant` a ruleset XBoard does not play itself
//! is described to it with `setup` and `piece` ([`super::xboard_setup`]).

use super::xboard_setup::describe;
use super::{
    DEFAULT_HASH_MB, Handler, Line, MAX_HASH_MB, Output, Protocol, Searcher, command_loop, cut,
};
use chaturanga_engine::{Clock, Limits, Score};
use chaturanga_rules::Reason;
use chaturanga_rules::clock::TimeControl;
use chaturanga_session::{Finished, GameSession, from_xboard, open, to_xboard};
use chaturanga_variants::implemented;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Kept back from every time budget, in milliseconds.
const OVERHEAD_MS: u64 = 50;
/// The ruleset of an XBoard variant name: XBoard's name for it
/// ([`chaturanga_variants::VariantInfo::xboard_name`]) or our id.
pub fn ruleset_of(name: &str) -> Option<&'static str> {
    implemented()
        .find(|v| v.id == name || v.xboard_name() == name)
        .map(|v| v.id)
}

/// XBoard's name of standard chess, which `new` starts (CECP).
const STANDARD_CHESS: &str = "normal";

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

struct XBoard {
    searcher: Searcher,
    out: Output,
    /// The player the engine plays; `None` in force mode.
    engine_side: Option<usize>,
    time: EngineTime,
    post: bool,
    /// Transposition table size, kept when `new` or `variant` opens another ruleset.
    hash_mb: usize,
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

/// `level 40 5 0`, `level 0 2:30 3`: moves per session, base `minutes[:seconds]`, increment.
fn parse_level(words: &[&str]) -> Result<TimeControl, String> {
    let [_, mps, base, inc] = words else {
        return Err("level needs three values".to_string());
    };
    let mps: u32 = mps
        .parse()
        .map_err(|_| format!("bad moves per session {:?}", cut(mps)))?;
    let base_seconds = match base.split_once(':') {
        Some((m, s)) => m
            .parse::<u64>()
            .ok()
            .zip(s.parse::<u64>().ok())
            .map(|(m, s)| m * 60 + s),
        None => base.parse::<u64>().ok().map(|m| m * 60),
    }
    .ok_or_else(|| format!("bad base time {:?}", cut(base)))?;
    let inc: f64 = inc
        .parse()
        .ok()
        .filter(|i: &f64| i.is_finite() && *i >= 0.0 && *i < 1e6)
        .ok_or_else(|| format!("bad increment {:?}", cut(inc)))?;
    let base = Duration::from_secs(base_seconds.min(1_000_000));
    Ok(TimeControl {
        moves_per_session: (mps > 0).then_some(mps),
        ..TimeControl::fischer(base, Duration::from_secs_f64(inc))
    })
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
        let result = match first {
            "xboard" | "random" | "computer" | "hard" | "easy" | "accepted" | "rejected"
            | "name" | "rating" | "ics" | "cores" | "white" | "black" | "draw" | "hint" | "bk"
            | "." | "exit" | "analyze" | "otim" => Ok(()),
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
                self.hash_mb = mb.clamp(1, MAX_HASH_MB);
                self.searcher.session(true).set_hash(self.hash_mb);
            }),
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
                self.out.line(&format!("pong {}", cut(n)));
                Ok(())
            }
            "?" => {
                // Move now: the stopped search still reports its move.
                if self.searcher.is_searching() {
                    self.searcher.session(true);
                }
                Ok(())
            }
            "result" => {
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
                Ok(())
            }
            "remove" => {
                let session = self.searcher.session(true);
                session.undo();
                session.undo();
                Ok(())
            }
            "quit" => return false,
            // Protocol version 1 GUIs send bare moves.
            other if other.len() <= 12 && other.chars().any(|c| c.is_ascii_digit()) => {
                self.user_move(other)
            }
            other => {
                self.out
                    .line(&format!("Error (unknown command): {}", cut(other)));
                Ok(())
            }
        };
        if let Err(e) = result {
            self.out.line(&format!("Error ({e}): {}", cut(text)));
        }
        true
    }

    fn features(&mut self) {
        let variants: Vec<&str> = implemented().map(|v| v.xboard_name()).collect();
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature myname=\"Chaturanga {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
        self.out.line(
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 \
             reuse=1 analyze=0 memory=1 draw=0 name=0 playother=1",
        );
        self.out.line("feature done=1");
    }

    /// `new` (standard chess, as CECP prescribes) or `variant NAME`: a fresh game, and for a
    /// ruleset XBoard does not play itself, its description (`setup`, `piece`).
    fn new_game(&mut self, variant: Option<&str>) -> Result<(), String> {
        let name = variant.unwrap_or(STANDARD_CHESS);
        let id = ruleset_of(name).ok_or_else(|| format!("unknown variant {}", cut(name)))?;
        let hash_mb = self.hash_mb;
        let session = self.searcher.session(true);
        if session.variant().id != id {
            *session = open(id, hash_mb).map_err(|e| e.to_string())?;
        }
        session.reset(None).map_err(|e| e.to_string())?;
        session.new_game();
        if let Some(description) = describe(session.variant().xboard_name(), session.as_ref()) {
            for line in description.output() {
                self.out.line(&line);
            }
        }
        self.engine_side = Some(1);
        self.time.depth = None;
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
        if let Err(e) = session.reset(Some(fen)) {
            let _ = session.reset(Some(&old));
            self.out.line("tellusererror Illegal position");
            return Err(e.to_string());
        }
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
            self.out.line(&format!("Illegal move: {}", cut(text)));
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
                    out.line(&format!(
                        "{} {} {} {} {}",
                        thinking.depth,
                        xboard_score(thinking.score),
                        thinking.elapsed.as_millis() / 10,
                        thinking.nodes,
                        pv.join(" ")
                    ));
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
