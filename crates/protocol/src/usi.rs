//! `chaturanga usi`: the Universal Shogi Interface, for the shogi family.
//!
//! Our shogi FEN is SFEN (`lnsgkgsnl/… b - 1`) and our shogi move text is USI's (`7g7f`,
//! `P*5e`, `8h2b+`), so positions and moves pass through unchanged. Sente is the first
//! player, so `btime`/`binc` are the first player's clock (UCI's `wtime`). The ruleset is
//! chosen with `USI_Variant` (shogi by default; every ruleset is accepted, as
//! Fairy-Stockfish does), and its strength with `Skill_Level`, `USI_LimitStrength` and
//! `USI_Elo` as in Fairy-Stockfish's USI (the engine's levels, [`crate::uci::Strength`]).
//!
//! `go mate TIME` (or `infinite`) looks for a mate with the full engine's search within the
//! time, and answers as USI says: `checkmate` and the mating line, `checkmate timeout` when
//! none was found in time, `checkmate nomate` when the player to move has no move at all.
//! The search is the ordinary one, so a mate it finds need not check at every move as a
//! tsume's does. Tsume positions, where the attacker has no king, are refused: the rules
//! require each player's king (`docs/protocols.md`).

use super::fairy::{Dialect, announcement};
use super::uci::{
    Strength, as_given, open_variant, option_name_value, read_go, set_position, uci_name,
};
use super::{
    DEFAULT_HASH_MB, Handler, Line, MAX_HASH_MB, Output, Protocol, Searcher, command_loop,
    info_line, position_words,
};
use chaturanga_engine::{Limits, Score};
use chaturanga_rules::position::excerpt;
use chaturanga_session::open;
use chaturanga_variants::implemented;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Kept back from every time budget, in milliseconds (USI has no standard option for it).
const OVERHEAD_MS: u64 = 50;
struct Usi {
    searcher: Searcher,
    out: Output,
    /// The limits of the search to run at `ponderhit`, while pondering.
    pondering: Option<Limits>,
    /// Why the last `position` was refused, until one is accepted.
    refused_position: Option<String>,
    /// The strength options.
    strength: Strength,
}

/// Runs the USI loop until `quit` or end of input.
pub fn run(lines: Receiver<Line>, out: Output) {
    let session = match open(Protocol::Usi.default_variant(), DEFAULT_HASH_MB) {
        Ok(session) => session,
        Err(e) => {
            out.line(&format!("info string error: {e}"));
            return;
        }
    };
    let mut usi = Usi {
        searcher: Searcher::new(session),
        out,
        pondering: None,
        refused_position: None,
        strength: Strength::default(),
    };
    command_loop(&mut usi, lines);
}

/// USI clock words as the shared `go` parser reads them (sente = the first player).
fn as_uci_word(word: &str) -> &str {
    match word {
        "btime" => "wtime",
        "wtime" => "btime",
        "binc" => "winc",
        "winc" => "binc",
        other => other,
    }
}

impl Handler for Usi {
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

impl Usi {
    fn handle(&mut self, text: &str) -> bool {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        let result = match first {
            "usi" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                self.out.line("readyok");
                Ok(())
            }
            "usinewgame" => {
                self.searcher.session(true).new_game();
                Ok(())
            }
            "setoption" => self.set_option(text),
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
            "ponderhit" => {
                if let Some(limits) = self.pondering.take() {
                    self.searcher.abandon();
                    self.search(limits, false);
                }
                Ok(())
            }
            "gameover" | "debug" => Ok(()),
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
        let current = uci_name(self.searcher.session(true).variant());
        // The shogi family first, then every other ruleset.
        let vars: String = implemented()
            .filter(|v| v.usi)
            .chain(implemented().filter(|v| !v.usi))
            .map(|v| format!(" var {}", uci_name(v)))
            .collect();
        self.out.line(&format!(
            "option name USI_Variant type combo default {current}{vars}"
        ));
        self.out.line(&format!(
            "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.out
            .line("option name USI_Ponder type check default false");
        for declaration in Strength::declarations("USI_", "_") {
            self.out.line(&declaration);
        }
        self.out.line("usiok");
    }

    fn set_option(&mut self, text: &str) -> Result<(), String> {
        let (name, value) = option_name_value(text)?;
        let session = self.searcher.session(true);
        let lower = name.to_ascii_lowercase();
        if self
            .strength
            .set(lower.strip_prefix("usi_").unwrap_or(&lower), &value)?
        {
            return Ok(());
        }
        match name.as_str() {
            "USI_Variant" | "UCI_Variant" => {
                let (opened, name) = open_variant(&value)?;
                *session = opened;
                self.refused_position = None;
                // Fairy-Stockfish announces a variant over USI too, in its UCI FEN.
                let dialect = Dialect::uci(session.as_ref());
                if let Some(line) = announcement(session.as_ref(), name, &dialect) {
                    self.out.line(&line);
                }
            }
            "USI_Hash" | "Hash" => {
                let mb = value
                    .parse::<usize>()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| format!("USI_Hash must be 1 to {MAX_HASH_MB}"))?;
                session.set_hash(mb);
            }
            "USI_Ponder" => {}
            _ => return Err(format!("unknown option {:?}", excerpt(&name))),
        }
        Ok(())
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let (fen, moves) = position_words(words, "sfen")?;
        let session = self.searcher.session(true);
        set_position(session.as_mut(), fen.as_deref(), moves, &as_given)
    }

    /// Starts the search a `go` asks for; every `go` gets a `bestmove`.
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        if words.get(1) == Some(&"mate") {
            return self.mate(words);
        }
        let level = self.strength.level();
        let session = self.searcher.session(true);
        session.set_level(level);
        let uci_words: Vec<&str> = words.iter().map(|w| as_uci_word(w)).collect();
        let go = read_go(
            &uci_words,
            session.side_to_move(),
            Duration::from_millis(OVERHEAD_MS),
        );
        for complaint in &go.complaints {
            self.out.line(&format!("info string error: {complaint}"));
        }
        if let Some(why) = &self.refused_position {
            self.out.line(&format!(
                "info string error: no position to search (the last was refused: {why})"
            ));
            self.out.line("bestmove resign");
            return Ok(());
        }
        let mover = session.side_to_move();
        let declares = session.actions().contains(&"win")
            && session
                .action_outcome("win")
                .is_some_and(|f| f.quarters.get(mover) == Some(&4));
        if declares && !go.ponder {
            self.out.line("bestmove win");
            return Ok(());
        }
        let (limits, holds) = go.plan(&mut self.pondering);
        self.search(limits, holds);
        Ok(())
    }

    /// `go mate TIME` or `go mate infinite`: the full engine's search until it finds a mate
    /// for the player to move, the time is up or `stop`; answered with `checkmate …`.
    fn mate(&mut self, words: &[&str]) -> Result<(), String> {
        let limits = match words.get(2).copied() {
            None | Some("infinite") => Limits {
                infinite: true,
                ..Limits::default()
            },
            Some(ms) => match ms.parse::<u64>() {
                Ok(ms) => Limits::move_time(Duration::from_millis(ms.max(1))),
                Err(_) => {
                    self.out.line(&format!(
                        "info string error: bad time for go mate: {:?}",
                        excerpt(ms)
                    ));
                    self.out.line("checkmate timeout");
                    return Ok(());
                }
            },
        };
        if let Some(why) = &self.refused_position {
            self.out.line(&format!(
                "info string error: no position to search (the last was refused: {why})"
            ));
            self.out.line("checkmate nomate");
            return Ok(());
        }
        let session = self.searcher.session(true);
        session.set_level(None);
        if session.legal_moves().is_empty() {
            self.out.line("checkmate nomate");
            return Ok(());
        }
        let stop = session.stop_flag();
        let out = self.out.clone();
        let done_out = self.out.clone();
        let found = std::sync::Arc::new(std::sync::Mutex::new(None::<Vec<String>>));
        let line = found.clone();
        self.searcher.start(
            limits,
            false,
            move |thinking| {
                out.line(&info_line(thinking, &thinking.pv));
                if thinking.multipv == 1
                    && matches!(thinking.score, Score::Win { plies } if plies > 0)
                    && !thinking.pv.is_empty()
                {
                    if let Ok(mut line) = line.lock() {
                        *line = Some(thinking.pv.clone());
                    }
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            },
            move |_, _| {
                let mate = found.lock().ok().and_then(|mut line| line.take());
                done_out.line(&match mate {
                    Some(moves) => format!("checkmate {}", moves.join(" ")),
                    None => "checkmate timeout".to_string(),
                });
            },
        );
        Ok(())
    }

    /// Searches the position; the decision is the `bestmove` line (after `stop` if the
    /// search `holds`).
    fn search(&mut self, limits: Limits, holds: bool) {
        let out = self.out.clone();
        let done_out = self.out.clone();
        self.searcher.start(
            limits,
            holds,
            move |thinking| out.line(&info_line(thinking, &thinking.pv)),
            move |_, decision| {
                let line = match (&decision.best, &decision.ponder) {
                    (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
                    (Some(best), None) => format!("bestmove {best}"),
                    (None, _) => "bestmove resign".to_string(),
                };
                done_out.line(&line);
            },
        );
    }
}
