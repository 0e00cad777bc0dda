//! One game of any ruleset behind one object-safe interface.
//!
//! The protocol front ends (UCI, USI, XBoard) and the match runner switch rulesets at run
//! time (`setoption name UCI_Variant`, `variant xiangqi`). Rather than each of them being
//! generic over the position type, [`open`] builds a [`GameSession`] for a ruleset id once,
//! and everything after that speaks text: FENs, moves in the ruleset's coordinate notation,
//! results. The generic code is compiled once per ruleset here, not once per front end.
//!
//! A session is a referee, the [`Hosted`] game that a server's [`Table`] is too, with an
//! engine beside it: every rule of hosting lives in the referee, and only the engine's
//! transposition table stays with the session between moves.

mod coordinates;
mod fairy;
pub mod load;
pub mod table;

pub use chaturanga_notation::occasion::{Occasion, TimeLimit, UtcTime};
pub use coordinates::{from_xboard, to_xboard};
pub use fairy::{
    fairy_halfmove_clock, fen_from_fairy, fen_to_fairy, from_fairy, start_to_fairy, to_fairy,
};
pub use table::{
    Hosted, LegalMove, RecordFormat, SearchTask, SeenMove, Table, open_table, option_specs,
};

use chaturanga_engine::{Engine, Level, Limits, Sampling, Score, SearchInfo};
use chaturanga_geometry::Geometry;
use chaturanga_notation::san;
use chaturanga_rules::{
    BoardPieces, MoveError, OptionSpec, Outcome, Position, Reason, RuleOptions, Ruleset, Status,
    perft_divide,
};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Longest FEN or move text a session accepts.
pub const MAX_TEXT: usize = 4096;
/// Most moves a session keeps (a protocol's `position … moves` list included).
pub const MAX_MOVES: usize = 20_000;
/// Most parts of one compound turn the engine's answer is completed to.
const MAX_TURN_PARTS: usize = 16;

/// What went wrong with a request to a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// No such ruleset.
    Variant(String),
    /// A bad FEN or rule option.
    Setup(String),
    /// A move that is malformed or not legal here.
    Move(String),
    /// Too much input.
    TooLong(&'static str),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Variant(e) | SessionError::Setup(e) | SessionError::Move(e) => {
                write!(f, "{e}")
            }
            SessionError::TooLong(what) => write!(f, "{what} is too long"),
        }
    }
}

impl std::error::Error for SessionError {}

/// One iteration of the engine's thinking, with its line in coordinate notation.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the player to move.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// Best line (with several lines: this line's).
    pub pv: Vec<String>,
    /// Which line this is, from 1 (the best); see [`GameSession::set_multi_pv`].
    pub multipv: usize,
}

/// The engine's answer.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The move (a whole turn, parts joined by `;`, where the ruleset plays whole turns);
    /// `None` when there is no legal move.
    pub best: Option<String>,
    /// The reply the engine expects.
    pub ponder: Option<String>,
    /// Score for the player to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Each player's score in quarter points, first player first.
    pub quarters: Vec<u8>,
    /// The result as PGN writes it (`1-0`).
    pub result: String,
    /// Why the game ended.
    pub reason: Reason,
}

impl From<&Outcome> for Finished {
    fn from(outcome: &Outcome) -> Self {
        Finished {
            quarters: outcome.quarters.clone(),
            result: outcome.result(),
            reason: outcome.reason,
        }
    }
}

/// A game of one ruleset with an engine attached, driven by text.
pub trait GameSession: Send {
    /// The ruleset.
    fn variant(&self) -> &'static VariantInfo;
    /// The ruleset's options.
    fn option_specs(&self) -> &'static [OptionSpec];
    /// Sets rule options (`name=value`) for the games that [`GameSession::reset`] starts.
    fn set_rule_options(&mut self, options: &[String]) -> Result<(), SessionError>;
    /// Starts a game from `fen`, or from the start position.
    fn reset(&mut self, fen: Option<&str>) -> Result<(), SessionError>;
    /// Plays a move (coordinate notation, SAN, the ruleset's own notations, or a whole turn
    /// `a;b`); returns it in coordinate notation.
    fn play(&mut self, text: &str) -> Result<String, SessionError>;
    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;
    /// The current position.
    fn fen(&self) -> String;
    /// The position the game started from.
    fn start_fen(&self) -> String;
    /// Number of players.
    fn players(&self) -> usize;
    /// The team `player` plays for: partners share a result (bughouse); every player is a
    /// team of his own in most rulesets.
    fn team(&self, player: usize) -> usize;
    /// The player to move (0 = first).
    fn side_to_move(&self) -> usize;
    /// Plies since the last capture or pawn move (the halfmove clock of a chess FEN, which
    /// an SFEN does not write).
    fn quiet_plies(&self) -> u32;
    /// A player's name (`white`, `sente`).
    fn player_name(&self, player: usize) -> &'static str;
    /// Moves played since the start.
    fn moves_played(&self) -> Vec<String>;
    /// Legal moves now, in coordinate notation.
    fn legal_moves(&self) -> Vec<String>;
    /// A legal move that leaves the board as it is and only passes the turn (chu shogi's
    /// lion pass), which XBoard writes as the null move `@@@@`.
    fn pass_move(&self) -> Option<String>;
    /// Whether the move played at `ply` (0 = the first) left the board as it was: a pass.
    fn is_pass(&self, ply: usize) -> bool;
    /// The result, once the game is over.
    fn finished(&self) -> Option<Finished>;
    /// Claims a draw if one may be claimed now; returns whether the game ended.
    fn claim_draw(&mut self) -> bool;
    /// Ends the game from outside (time forfeit, adjudication, resignation): `loser`'s team
    /// scores nothing and the other players share the point; `None` is a draw.
    fn end(&mut self, loser: Option<usize>, reason: Reason);
    /// Actions other than moves the player to move may take now (`win`: declare a shogi
    /// impasse win).
    fn actions(&self) -> Vec<&'static str>;
    /// What taking `action` now would end the game with, without taking it.
    fn action_outcome(&self, action: &str) -> Option<Finished>;
    /// Searches the current position.
    fn search(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&Thinking)) -> Decision;
    /// A flag that stops the running search when set.
    fn stop_flag(&self) -> Arc<AtomicBool>;
    /// Resizes the transposition table.
    fn set_hash(&mut self, mb: usize);
    /// How many lines searches find and report per iteration (UCI's MultiPV; 1 to
    /// [`chaturanga_engine::MAX_MULTI_PV`]); the move chosen is the first line's.
    fn set_multi_pv(&mut self, lines: usize);
    /// Plays at a strength level from now on ([`Level`]: its bounds on every search, and its
    /// choice among several lines), or at full strength (`None`, the default).
    fn set_level(&mut self, level: Option<Level>);
    /// Forgets what the engine learnt.
    fn new_game(&mut self);
    /// Perft split by root move, in coordinate notation.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The board drawn as text.
    fn diagram(&self) -> String;
    /// The board's geometry where the position is one plain board.
    fn geometry(&self) -> Option<&'static Geometry>;
    /// The pieces and castlings as data where they say everything about how men move on
    /// [`GameSession::geometry`] (see [`Position::board_pieces`]), with the men of the
    /// position the game started from.
    fn board_pieces(&self) -> Option<BoardPieces>;
    /// The game as PGN with extra tags.
    fn pgn(&self, tags: &[(String, String)]) -> Result<String, SessionError>;
}

/// Opens a session for the ruleset `id` with a transposition table of `hash_mb` MiB.
pub fn open(id: &str, hash_mb: usize) -> Result<Box<dyn GameSession>, SessionError> {
    visit(id, Open { hash_mb }).map_err(|e| SessionError::Variant(e.to_string()))?
}

struct Open {
    hash_mb: usize,
}

impl Visitor for Open {
    type Output = Result<Box<dyn GameSession>, SessionError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let options = RuleOptions::parse::<String>(P::option_specs(), &[])
            .map_err(|e| SessionError::Setup(e.to_string()))?;
        Ok(Box::new(Session::<P> {
            table: Hosted::new(info, &options, None)?,
            options,
            engine: Engine::new(self.hash_mb),
            level: None,
            searches: 0,
        }))
    }
}

struct Session<P: Ruleset> {
    /// The options the next [`GameSession::reset`] starts a game under.
    options: RuleOptions,
    table: Hosted<P>,
    engine: Engine<P>,
    /// The strength level searches play at (`None`: full strength).
    level: Option<Level>,
    /// Searches so far, which seed a level's choices.
    searches: u64,
}

/// Reads a legal move in coordinate notation, the ruleset's own notations, or SAN.
pub fn read_move<P: Position>(position: &P, text: &str) -> Result<P::Move, MoveError> {
    if let Ok(mv) = position.parse_move(text) {
        return Ok(mv);
    }
    if let Some(mv) = position
        .notations()
        .iter()
        .find_map(|n| position.read_move(n, text).ok())
    {
        return Ok(mv);
    }
    match san::parse_san(position, text) {
        Ok(mv) => Ok(mv),
        Err(MoveError::Ambiguous(m)) => Err(MoveError::Ambiguous(m)),
        Err(_) => position.parse_move(text),
    }
}

/// The moves of a line from `position` in coordinate notation, as far as they are legal.
fn legal_line<P: Position>(position: &P, line: &[P::Move]) -> Vec<String> {
    let mut at = position.clone();
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    for &mv in line {
        moves.clear();
        at.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            break;
        }
        texts.push(at.move_text(mv));
        at.play_unchecked(mv);
    }
    texts
}

impl<P: Ruleset> Session<P> {
    /// Completes the turn the engine began with `first` where the ruleset plays whole turns
    /// (the position between parts has no FEN), following the line found or searching again.
    fn complete_turn(&mut self, first: P::Move, line: &[P::Move], limits: &Limits) -> String {
        let mover = self.table.side_to_move();
        let mut game = self.table.game().clone();
        let mut parts = vec![game.position().move_text(first)];
        game.play_through_draws(first);
        let mut rest = line.iter().skip(1).copied();
        while parts.len() < MAX_TURN_PARTS
            && game.position().side_to_move() == mover
            && matches!(game.status(), Status::Ongoing { .. })
        {
            let legal = game.legal_moves();
            let next = match rest.next().filter(|mv| legal.contains(mv)) {
                Some(mv) => mv,
                None => {
                    let quick = Limits {
                        depth: Some(limits.depth.unwrap_or(4).min(4)),
                        nodes: Some(50_000),
                        ..Limits::default()
                    };
                    match self.engine.search(&game, &quick, &mut |_| {}).best {
                        Some(mv) => mv,
                        None => break,
                    }
                }
            };
            parts.push(game.position().move_text(next));
            game.play_through_draws(next);
        }
        parts.join(";")
    }
}

impl<P: Ruleset> GameSession for Session<P> {
    fn variant(&self) -> &'static VariantInfo {
        self.table.variant()
    }

    fn option_specs(&self) -> &'static [OptionSpec] {
        P::option_specs()
    }

    fn set_rule_options(&mut self, options: &[String]) -> Result<(), SessionError> {
        self.options = RuleOptions::parse(P::option_specs(), options)
            .map_err(|e| SessionError::Setup(e.to_string()))?;
        Ok(())
    }

    fn reset(&mut self, fen: Option<&str>) -> Result<(), SessionError> {
        self.table = Hosted::new(self.table.variant(), &self.options, fen)?;
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<String, SessionError> {
        // A protocol's GUI or the match runner's referee judges the draws.
        self.table.play_through_draws(text)
    }

    fn undo(&mut self) -> bool {
        self.table.undo()
    }

    fn fen(&self) -> String {
        self.table.fen()
    }

    fn start_fen(&self) -> String {
        self.table.start_fen()
    }

    fn players(&self) -> usize {
        self.table.players()
    }

    fn team(&self, player: usize) -> usize {
        self.table.team(player)
    }

    fn side_to_move(&self) -> usize {
        self.table.side_to_move()
    }

    fn quiet_plies(&self) -> u32 {
        self.table.game().position().quiet_plies()
    }

    fn player_name(&self, player: usize) -> &'static str {
        self.table.player_name(player)
    }

    fn moves_played(&self) -> Vec<String> {
        self.table.moves_played()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.table.legal_moves()
    }

    fn pass_move(&self) -> Option<String> {
        let game = self.table.game();
        let position = game.position();
        let board = |fen: &str| fen.split_whitespace().next().unwrap_or("").to_string();
        let before = board(&position.fen());
        game.legal_moves().into_iter().find_map(|mv| {
            let mut after = position.clone();
            after.play_unchecked(mv);
            (board(&after.fen()) == before && after.side_to_move() != position.side_to_move())
                .then(|| position.move_text(mv))
        })
    }

    fn is_pass(&self, ply: usize) -> bool {
        let positions = self.table.game().positions();
        let board = |p: &P| p.fen().split_whitespace().next().unwrap_or("").to_string();
        match (positions.get(ply), positions.get(ply + 1)) {
            (Some(before), Some(after)) => board(before) == board(after),
            _ => false,
        }
    }

    fn finished(&self) -> Option<Finished> {
        self.table.finished()
    }

    fn claim_draw(&mut self) -> bool {
        self.table.claim_draw()
    }

    fn end(&mut self, loser: Option<usize>, reason: Reason) {
        let team = loser
            .filter(|&p| p < self.table.players())
            .map(|p| self.table.team(p));
        self.table.end(team, reason);
    }

    fn actions(&self) -> Vec<&'static str> {
        self.table.actions()
    }

    fn action_outcome(&self, action: &str) -> Option<Finished> {
        self.table.action_outcome(action)
    }

    fn search(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&Thinking)) -> Decision {
        let root = self.table.game().position().clone();
        let mut report = |info: &SearchInfo<P::Move>| {
            // Only the legal start of the line is shown: a line completed from the
            // transposition table may hold a move of another position.
            let pv = legal_line(&root, &info.pv);
            on_info(&Thinking {
                depth: info.depth,
                seldepth: info.seldepth,
                score: info.score,
                nodes: info.nodes,
                nps: info.nodes_per_second(),
                elapsed: info.elapsed,
                hashfull: info.hashfull,
                pv,
                multipv: info.multipv,
            });
        };
        // Through the player's view where the ruleset hides information: the engine never
        // reads what the player to move cannot see.
        let sampling = Sampling::default();
        let result = match self.level {
            Some(level) => {
                // A level's choices differ from search to search and game to game, and a
                // match replays the same way.
                self.searches += 1;
                let seed = root.hash() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                self.engine.search_at_level(
                    self.table.game(),
                    level,
                    limits,
                    &sampling,
                    seed,
                    &mut report,
                )
            }
            None => self
                .engine
                .search_hidden(self.table.game(), limits, &sampling, &mut report),
        };
        let line = legal_line(&root, &result.pv);
        let best = result.best.map(|mv| {
            if root.whole_turns() {
                self.complete_turn(mv, &result.pv, limits)
            } else {
                root.move_text(mv)
            }
        });
        let ponder = if root.whole_turns() {
            None
        } else {
            line.get(1).cloned()
        };
        Decision {
            best,
            ponder,
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
        }
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        self.engine.stop_flag()
    }

    fn set_hash(&mut self, mb: usize) {
        self.engine.set_hash_size(mb);
    }

    fn set_multi_pv(&mut self, lines: usize) {
        self.engine.set_multi_pv(lines);
    }

    fn set_level(&mut self, level: Option<Level>) {
        self.level = level;
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        let position = self.table.game().position();
        perft_divide(position, depth)
            .into_iter()
            .map(|(m, n)| (position.move_text(m), n))
            .collect()
    }

    fn diagram(&self) -> String {
        self.table.game().position().diagram()
    }

    fn geometry(&self) -> Option<&'static Geometry> {
        self.table.game().position().board_geometry()
    }

    fn board_pieces(&self) -> Option<BoardPieces> {
        self.table.game().start().board_pieces()
    }

    fn pgn(&self, tags: &[(String, String)]) -> Result<String, SessionError> {
        let occasion = Occasion {
            tags: tags.to_vec(),
            ..Occasion::default()
        };
        self.table.record(RecordFormat::Pgn, &occasion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lion_pass_is_found_and_recognised() {
        // The chu shogi rules file's scenario: 6f5f6f passes, 6f6e6f captures and returns.
        let fen = "g5k5/12/12/6p5/6p5/6N5/12/12/12/12/12/5K6 b - 1";
        let mut session = open("chushogi", 1).expect("chu shogi");
        session.reset(Some(fen)).expect("position");
        let pass = session.pass_move().expect("a pass");
        assert_eq!(&pass[..2], "6f");
        assert!(pass.ends_with("6f") && pass.len() == 6, "{pass}");
        session.play("6f6e6f").expect("igui");
        assert!(!session.is_pass(0));
        session.reset(Some(fen)).expect("position");
        session.play(&pass).expect("the pass");
        assert!(session.is_pass(0));
        assert!(!session.is_pass(1));
        // Chess has no pass.
        let chess = open("chess", 1).expect("chess");
        assert_eq!(chess.pass_move(), None);
    }
}
