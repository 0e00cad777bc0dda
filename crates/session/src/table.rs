//! A hosted game without an engine: the referee that a server keeps for every live game.
//!
//! A [`Table`] holds one game of any ruleset behind an object-safe interface that speaks
//! data, not text: the legal moves with the cells a click picks ([`LegalMove`]), what each
//! viewer sees ([`Scene`]), the moves as each viewer may know them, the result, the records.
//! It owns no transposition table; [`Table::search_task`] hands a copy of the game to an
//! engine that lives only for one search, so a thousand stored games cost a thousand games.
//!
//! [`Hosted`] is that referee for one ruleset. A [`GameSession`](crate::GameSession) and the
//! terminal's `play` keep one too, with their engine beside it, so every rule of hosting a
//! game (reading moves, results, claims, actions, records) has one implementation.

use crate::{Finished, MAX_MOVES, MAX_TEXT, SessionError, read_move};
use chaturanga_engine::{Engine, Limits, Sampling};
use chaturanga_notation::occasion::{Occasion, TimeLimit};
use chaturanga_notation::{csa, kif, pgn, san};
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::{
    Game, Legend, OptionSpec, Outcome, Reason, RecordHeader, RuleOptions, Ruleset, Status,
};
use chaturanga_variants::{VariantInfo, Visitor, record_names, visit};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A legal move with its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move in the ruleset's coordinate notation (what [`Table::play`] takes).
    pub text: String,
    /// The cells and pieces a person picks for it.
    pub shape: MoveShape,
}

/// A played move as one viewer may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenMove {
    /// Its text, or `None` where the viewer is only told that a move was made.
    pub text: Option<String>,
    /// The player who made it.
    pub mover: usize,
    /// How people read it: SAN where the ruleset has it, else `text`; `None` with `text`.
    pub shown: Option<String>,
    /// The move in each of the ruleset's own notations ([`Table::notations`], in that
    /// order); empty where the viewer may not know the move.
    pub notations: Vec<String>,
}

/// A search prepared from a copy of the game: run it on any thread; set `stop` to end it.
pub struct SearchTask {
    /// Runs the search and returns the move in coordinate notation (`None`: no legal move).
    pub run: Box<dyn FnOnce() -> Option<String> + Send>,
    /// Set to stop the search early (it then answers with its best move so far).
    pub stop: Arc<AtomicBool>,
}

/// The record formats a game may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN (the ruleset's own move text where it has no SAN).
    Pgn,
    /// KIF, for rulesets with the KIF move notation (the shogi family).
    Kif,
    /// CSA, for rulesets with the CSA move notation.
    Csa,
    /// BPGN, the bughouse record.
    Bpgn,
}

impl RecordFormat {
    /// Every format, in the order of their names.
    pub const ALL: [RecordFormat; 4] = [
        RecordFormat::Pgn,
        RecordFormat::Kif,
        RecordFormat::Csa,
        RecordFormat::Bpgn,
    ];

    /// Reads `pgn`, `kif`, `csa` or `bpgn`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "pgn" => Some(RecordFormat::Pgn),
            "kif" => Some(RecordFormat::Kif),
            "csa" => Some(RecordFormat::Csa),
            "bpgn" => Some(RecordFormat::Bpgn),
            _ => None,
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::Kif => "kif",
            RecordFormat::Csa => "csa",
            RecordFormat::Bpgn => "bpgn",
        }
    }
}

/// One game of any ruleset, refereed, without an engine.
pub trait Table: Send + Sync {
    /// The ruleset.
    fn variant(&self) -> &'static VariantInfo;
    /// The rule options in force, as `name=value`, every option listed.
    fn options(&self) -> Vec<String>;
    /// Number of players (seats).
    fn players(&self) -> usize;
    /// The team a player plays for (bughouse partners share one).
    fn team(&self, player: usize) -> usize;
    /// A player's name (`white`, `black`, `A-white`).
    fn player_name(&self, player: usize) -> &'static str;
    /// The player to move.
    fn side_to_move(&self) -> usize;
    /// Moves (turn parts) played.
    fn ply(&self) -> usize;
    /// The position in the ruleset's FEN (the arbiter's: check [`Scene::complete`] before
    /// showing it to anyone).
    fn fen(&self) -> String;
    /// The start position's FEN.
    fn start_fen(&self) -> String;
    /// Plays a move in any notation the ruleset reads, or a whole turn `a;b`; returns it in
    /// coordinate notation (a turn's parts joined by `;`). A finished game takes no move.
    fn play(&mut self, text: &str) -> Result<String, SessionError>;
    /// Takes back the last move (part); `false` at the start.
    fn undo(&mut self) -> bool;
    /// The legal moves now, with their shapes (none once the game is over).
    fn legal(&self) -> Vec<LegalMove>;
    /// The players who may move now (none once the game is over): the player to move, or
    /// several at once where the ruleset says so (each board's in real-time bughouse).
    fn movers(&self) -> Vec<usize>;
    /// The legal moves of `player`, one of [`Table::movers`], with their shapes.
    fn legal_for(&self, player: usize) -> Vec<LegalMove>;
    /// Plays a move of `player`, one of [`Table::movers`], as [`Table::play`] does.
    fn play_for(&mut self, player: usize, text: &str) -> Result<String, SessionError>;
    /// A search for `player`, one of [`Table::movers`] (see [`Table::search_task`]).
    fn search_task_for(&self, player: usize, limits: Limits, hash_mb: usize) -> SearchTask;
    /// What `viewer` sees now.
    fn scene(&self, viewer: Viewer) -> Scene;
    /// The style the men are drawn in, and the name and movement of every symbol a scene of
    /// this game may show.
    fn legend(&self) -> Legend;
    /// The ruleset's own move notations besides coordinates and SAN (`western`, `kif`,
    /// `wxf`, `chinese`), as [`SeenMove::notations`] lists them; none where the ruleset
    /// hides men (a notation would tell captures and checks the viewer may not see).
    fn notations(&self) -> &'static [&'static str];
    /// The moves played, as `viewer` may know them.
    fn moves_seen(&self, viewer: Viewer) -> Vec<SeenMove>;
    /// The last move as `viewer` may know it.
    fn last_move_seen(&self, viewer: Viewer) -> Option<SeenMove>;
    /// Whether `viewer` may know the last move's text (not only that a move was made), without
    /// writing it as people read it; `true` at the start.
    fn last_move_known_to(&self, viewer: Viewer) -> bool;
    /// Every move played in coordinate notation, as the mover's view wrote it (what a host
    /// stores), without writing them as people read them.
    fn move_texts(&self) -> Vec<String>;
    /// The shape of the last move, where `viewer` may know it.
    fn last_move(&self, viewer: Viewer) -> Option<MoveShape>;
    /// The scene after the first `ply` moves and the shape of the move that led there, as
    /// `viewer` saw them then (for stepping through a game); `None` past the last move.
    fn scene_at(&self, ply: usize, viewer: Viewer) -> Option<(Scene, Option<MoveShape>)>;
    /// The result, once the game is over.
    fn finished(&self) -> Option<Finished>;
    /// Whether the player to move may claim a draw now.
    fn can_claim_draw(&self) -> bool;
    /// Claims a draw if one may be claimed now; returns whether the game ended.
    fn claim_draw(&mut self) -> bool;
    /// Ends the game: every player of `losing_team` scores 0 and the other teams share the
    /// point, each of their players scoring his team's share (`None`: a draw).
    fn end(&mut self, losing_team: Option<usize>, reason: Reason);
    /// Ends the game with a result read back from storage (each player's quarter points).
    fn restore_result(&mut self, quarters: &[u8], reason: Reason);
    /// The ruleset's own actions the player to move may take now (`win`, `resign-to-red`).
    fn actions(&self) -> Vec<&'static str>;
    /// Who must consent to `action` first, if anyone (three-player resignation).
    fn action_consent(&self, action: &str) -> Option<usize>;
    /// Takes one of [`Table::actions`], which ends the game.
    fn perform(&mut self, action: &str) -> Result<Finished, SessionError>;
    /// The record formats this ruleset has, the default first.
    fn record_formats(&self) -> Vec<RecordFormat>;
    /// The game written as `format`, with what the front end knows of it (the players'
    /// names by seat, each under the format's own tag for the seat; the event, site, start
    /// and clock; more tags), the rule options not at their defaults and every option in
    /// words (secret ones once the game is over).
    fn record(&self, format: RecordFormat, occasion: &Occasion) -> Result<String, SessionError>;
    /// A search of the current position on a copy of the game, through the player's view
    /// where the ruleset hides information.
    fn search_task(&self, limits: Limits, hash_mb: usize) -> SearchTask;
    /// The time control the ruleset prescribes under the game's options, if it does
    /// (bughouse's `clock` and `slot-deadline`; see `Ruleset::own_clock`).
    fn own_clock(&self) -> Option<TimeControl>;
    /// A copy of the game: a host tries a change on the copy and keeps it only once the
    /// change is stored.
    fn boxed_clone(&self) -> Box<dyn Table>;
}

/// Opens a table for `id` with rule options and an optional start FEN.
pub fn open_table(
    id: &str,
    options: &[String],
    fen: Option<&str>,
) -> Result<Box<dyn Table>, SessionError> {
    visit(id, OpenTable { options, fen }).map_err(|e| SessionError::Variant(e.to_string()))?
}

/// The option specs of a ruleset.
pub fn option_specs(id: &str) -> Result<&'static [OptionSpec], SessionError> {
    struct Specs;
    impl Visitor for Specs {
        type Output = &'static [OptionSpec];
        fn visit<P: Ruleset>(self, _info: &'static VariantInfo) -> Self::Output {
            P::option_specs()
        }
    }
    visit(id, Specs).map_err(|e| SessionError::Variant(e.to_string()))
}

struct OpenTable<'a> {
    options: &'a [String],
    fen: Option<&'a str>,
}

impl Visitor for OpenTable<'_> {
    type Output = Result<Box<dyn Table>, SessionError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let options = RuleOptions::parse(P::option_specs(), self.options)
            .map_err(|e| SessionError::Setup(e.to_string()))?;
        Ok(Box::new(Hosted::<P>::new(info, &options, self.fen)?))
    }
}

/// The referee of one game of the ruleset `P`: the [`Table`] behind [`open_table`], and the
/// game a [`GameSession`](crate::GameSession) or a generic front end hosts beside its engine.
pub struct Hosted<P: Ruleset> {
    info: &'static VariantInfo,
    options: Vec<String>,
    rule_options: RuleOptions,
    game: Game<P>,
    /// Each move as people read it, computed once when first asked for (SAN needs the legal
    /// moves of the position before it), so that a referee nobody asks (a protocol's, which
    /// replays the whole game for every move) never pays for it.
    /// Shared by the copies of a game (`Table::boxed_clone`), copied when one of them changes
    /// it while another still holds it, so a copy costs no string.
    shown: Mutex<Arc<Vec<Written>>>,
}

/// A move as people read it: SAN (or the coordinates), then each of the ruleset's own
/// notations.
#[derive(Clone, Debug)]
struct Written {
    shown: String,
    notations: Vec<String>,
}

impl<P: Ruleset> Hosted<P> {
    /// A game of `info` under `options` from `fen`, or from the start position.
    pub fn new(
        info: &'static VariantInfo,
        options: &RuleOptions,
        fen: Option<&str>,
    ) -> Result<Self, SessionError> {
        let start = match fen {
            Some(fen) if fen.len() > MAX_TEXT => return Err(SessionError::TooLong("the FEN")),
            Some(fen) => P::from_fen_with(options, fen.trim()),
            None => P::start_position(options),
        }
        .map_err(|e| SessionError::Setup(e.to_string()))?;
        Ok(Hosted::from_game(info, options, Game::new(start)))
    }

    /// A game already under way (read from a record), under the `options` it is played by.
    pub fn from_game(info: &'static VariantInfo, options: &RuleOptions, game: Game<P>) -> Self {
        let listed = P::option_specs()
            .iter()
            .map(|spec| {
                format!(
                    "{}={}",
                    spec.name,
                    options.get(spec.name).unwrap_or(spec.default)
                )
            })
            .collect();
        Hosted {
            info,
            options: listed,
            rule_options: options.clone(),
            game,
            shown: Mutex::new(Arc::new(Vec::new())),
        }
    }

    /// The game written as `format` with what the front end knows of it (see
    /// [`Table::record`]), recording its rule options, by name and in words; secrets among
    /// them (Chex's draw seed) only with `reveal_secrets` ([`Table::record`] reveals them once
    /// the game is over).
    pub fn record_with(
        &self,
        format: RecordFormat,
        occasion: &Occasion,
        reveal_secrets: bool,
    ) -> Result<String, SessionError> {
        if !self.record_formats().contains(&format) {
            return Err(SessionError::Setup(format!(
                "{} games have no {} records",
                self.info.id,
                format.extension()
            )));
        }
        let specs = P::option_specs();
        let recorded = pgn::recorded_options(specs, &self.rule_options, reveal_secrets);
        let comments = pgn::options_in_words(specs, &self.rule_options, reveal_secrets);
        match format {
            RecordFormat::Bpgn => match P::own_record() {
                Some(own) => {
                    let header = RecordHeader {
                        options: &recorded,
                        tags: &own_record_tags(occasion),
                        players: &occasion.players,
                        comments: &comments,
                    };
                    (own.write)(&self.game, &header).map_err(|e| SessionError::Setup(e.to_string()))
                }
                None => Err(SessionError::Setup("no BPGN".to_string())),
            },
            RecordFormat::Kif => {
                let header = kif::header(occasion, &recorded);
                kif::write_with_comments(&self.game, &header, &comments).map_err(error)
            }
            RecordFormat::Csa => {
                let header = csa::header(occasion, &recorded);
                csa::write_with_comments(&self.game, &header, &comments).map_err(error)
            }
            RecordFormat::Pgn => {
                let variant = record_names::pgn_variant(self.info, &recorded);
                let setup = pgn::PgnSetup {
                    variant: &variant,
                    foreign_start: self.info.foreign_start,
                    options: &self.rule_options,
                    recorded: &recorded,
                };
                let tags = pgn::Tags::for_record(&setup, occasion, &self.game);
                pgn::write_with_comments(&self.game, &tags, &comments).map_err(error)
            }
        }
    }

    /// The game, for what only the position type can answer: searches, views, diagrams.
    pub fn game(&self) -> &Game<P> {
        &self.game
    }

    /// Plays like [`Table::play`], but also after a draw rule ended the game: a protocol's
    /// GUI or the player who set up a line adjudicates draws, not we.
    pub fn play_through_draws(&mut self, text: &str) -> Result<String, SessionError> {
        self.play_text(text, true)
    }

    /// Plays a move in any notation [`read_move`] takes, or a whole turn `a;b`; returns it in
    /// coordinate notation (a turn's parts joined by `;`). Without `through_draws` a
    /// finished game takes no move.
    fn play_text(&mut self, text: &str, through_draws: bool) -> Result<String, SessionError> {
        if text.len() > MAX_TEXT {
            return Err(SessionError::TooLong("the move"));
        }
        if self.game.moves().len() >= MAX_MOVES {
            return Err(SessionError::TooLong("the game"));
        }
        let game = &mut self.game;
        let before = game.moves().len();
        if text.contains(';') {
            let parts: Vec<&str> = text.split(';').collect();
            game.play_turn(&parts, through_draws).map_err(error)?;
        } else {
            let mv = read_move(game.position(), text).map_err(error)?;
            if through_draws {
                game.play_through_draws(mv);
            } else {
                game.play(mv).map_err(error)?;
            }
        }
        let texts: Vec<String> = game.positions()[before..]
            .iter()
            .zip(&game.moves()[before..])
            .map(|(p, &m)| p.move_text(m))
            .collect();
        Ok(texts.join(";"))
    }

    /// The moves played, in coordinate notation.
    pub fn moves_played(&self) -> Vec<String> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| p.move_text(m))
            .collect()
    }

    /// The legal moves now in coordinate notation, without the shapes of [`Table::legal`]
    /// (none once the game is over).
    pub fn legal_moves(&self) -> Vec<String> {
        let position = self.game.position();
        self.game
            .legal_moves()
            .into_iter()
            .map(|mv| position.move_text(mv))
            .collect()
    }

    /// What taking `action` now would end the game with, without taking it.
    pub fn action_outcome(&self, action: &str) -> Option<Finished> {
        self.game
            .position()
            .perform(action)
            .ok()
            .map(|outcome| Finished::from(&outcome))
    }

    /// Drops the texts of moves taken back from `shown`; `Hosted::shown` adds the new ones.
    fn sync_shown(&mut self) {
        let moves = self.game.moves().len();
        let shown = self.shown.get_mut().unwrap_or_else(PoisonError::into_inner);
        if shown.len() > moves {
            Arc::make_mut(shown).truncate(moves);
        }
    }

    /// Each move as people read it, brought level with the moves. Rulesets that hide men get
    /// the coordinate text: SAN's capture and check marks would tell what the viewer may not
    /// see.
    fn shown(&self) -> MutexGuard<'_, Arc<Vec<Written>>> {
        // A panic while filling leaves whole texts only: the rest is added again.
        let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
        let moves = self.game.moves();
        let from = shown.len();
        if from < moves.len() {
            let hides = self.hides_men();
            let names = self.notations();
            let texts = Arc::make_mut(&mut shown);
            for (before, &mv) in self.game.positions()[from..].iter().zip(&moves[from..]) {
                let shown = if hides {
                    before.move_text(mv)
                } else {
                    san::to_san(before, mv).unwrap_or_else(|_| before.move_text(mv))
                };
                let notations = names
                    .iter()
                    .map(|name| {
                        before
                            .write_move(name, mv)
                            .unwrap_or_else(|| before.move_text(mv))
                    })
                    .collect();
                texts.push(Written { shown, notations });
            }
        }
        shown
    }

    /// Whether the ruleset hides men from the players (Dark Chess).
    fn hides_men(&self) -> bool {
        self.game.start().player_view(0).is_some()
    }
}

fn error(e: impl std::fmt::Display) -> SessionError {
    SessionError::Move(e.to_string())
}

impl<P: Ruleset> Table for Hosted<P> {
    fn variant(&self) -> &'static VariantInfo {
        self.info
    }

    fn options(&self) -> Vec<String> {
        self.options.clone()
    }

    fn players(&self) -> usize {
        self.game.position().players()
    }

    fn team(&self, player: usize) -> usize {
        self.game.position().team(player)
    }

    fn player_name(&self, player: usize) -> &'static str {
        self.game.position().player_name(player)
    }

    fn side_to_move(&self) -> usize {
        self.game.position().side_to_move()
    }

    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    fn fen(&self) -> String {
        self.game.position().fen()
    }

    fn start_fen(&self) -> String {
        self.game.start().fen()
    }

    fn play(&mut self, text: &str) -> Result<String, SessionError> {
        self.play_text(text.trim(), false)
    }

    fn undo(&mut self) -> bool {
        let undone = self.game.undo();
        self.sync_shown();
        undone
    }

    fn legal(&self) -> Vec<LegalMove> {
        if self.finished().is_some() {
            return Vec::new();
        }
        let position = self.game.position();
        self.game
            .legal_moves()
            .into_iter()
            .map(|mv| LegalMove {
                text: position.move_text(mv),
                shape: position.move_shape(mv),
            })
            .collect()
    }

    fn movers(&self) -> Vec<usize> {
        if self.finished().is_some() {
            return Vec::new();
        }
        self.game.position().movers()
    }

    fn legal_for(&self, player: usize) -> Vec<LegalMove> {
        if player == self.side_to_move() {
            return self.legal();
        }
        let Some(view) = self.game.position().as_mover(player) else {
            return Vec::new();
        };
        if self.finished().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        view.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| LegalMove {
                text: view.move_text(mv),
                shape: view.move_shape(mv),
            })
            .collect()
    }

    fn play_for(&mut self, player: usize, text: &str) -> Result<String, SessionError> {
        if player == self.side_to_move() {
            return self.play(text);
        }
        let text = text.trim();
        if text.len() > MAX_TEXT {
            return Err(SessionError::TooLong("the move"));
        }
        if self.game.moves().len() >= MAX_MOVES {
            return Err(SessionError::TooLong("the game"));
        }
        let view = self.game.position().as_mover(player).ok_or_else(|| {
            SessionError::Move(format!(
                "{} may not move now",
                self.game.position().player_name(player)
            ))
        })?;
        let mv = read_move(&view, text).map_err(error)?;
        self.game.play_as(player, mv).map_err(error)?;
        self.sync_shown();
        Ok(view.move_text(mv))
    }

    fn search_task_for(&self, player: usize, limits: Limits, hash_mb: usize) -> SearchTask {
        match self.game.position().as_mover(player) {
            // Another board's mover searches his own view; games whose players move at once
            // keep no history a search needs.
            Some(view) if player != self.side_to_move() => {
                search_of(Game::new(view), limits, hash_mb)
            }
            _ => self.search_task(limits, hash_mb),
        }
    }

    fn scene(&self, viewer: Viewer) -> Scene {
        self.game.position().scene(viewer)
    }

    fn legend(&self) -> Legend {
        self.game.position().legend()
    }

    fn notations(&self) -> &'static [&'static str] {
        if self.hides_men() {
            &[]
        } else {
            self.game.start().notations()
        }
    }

    fn moves_seen(&self, viewer: Viewer) -> Vec<SeenMove> {
        let shown = self.shown();
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .zip(shown.iter())
            .map(|((p, &m), shown)| {
                let text = p.move_seen_by(m, viewer);
                SeenMove {
                    shown: text.as_ref().map(|_| shown.shown.clone()),
                    notations: match text {
                        Some(_) => shown.notations.clone(),
                        None => Vec::new(),
                    },
                    text,
                    mover: p.side_to_move(),
                }
            })
            .collect()
    }

    fn last_move_seen(&self, viewer: Viewer) -> Option<SeenMove> {
        let ply = self.game.moves().len().checked_sub(1)?;
        let before = &self.game.positions()[ply];
        let text = before.move_seen_by(self.game.moves()[ply], viewer);
        let written = text.as_ref().and(self.shown().get(ply).cloned());
        Some(SeenMove {
            shown: written.as_ref().map(|w| w.shown.clone()),
            notations: written.map(|w| w.notations).unwrap_or_default(),
            text,
            mover: before.side_to_move(),
        })
    }

    fn move_texts(&self) -> Vec<String> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(before, &mv)| before.move_text(mv))
            .collect()
    }

    fn last_move_known_to(&self, viewer: Viewer) -> bool {
        let Some(ply) = self.game.moves().len().checked_sub(1) else {
            return true;
        };
        self.game.positions()[ply]
            .move_seen_by(self.game.moves()[ply], viewer)
            .is_some()
    }

    fn last_move(&self, viewer: Viewer) -> Option<MoveShape> {
        let ply = self.game.moves().len().checked_sub(1)?;
        let before = &self.game.positions()[ply];
        let mv = self.game.moves()[ply];
        before
            .move_seen_by(mv, viewer)
            .map(|_| before.move_shape(mv))
    }

    fn scene_at(&self, ply: usize, viewer: Viewer) -> Option<(Scene, Option<MoveShape>)> {
        let position = self.game.positions().get(ply)?;
        let last = ply.checked_sub(1).and_then(|before| {
            let mv = self.game.moves()[before];
            let from = &self.game.positions()[before];
            from.move_seen_by(mv, viewer).map(|_| from.move_shape(mv))
        });
        Some((position.scene(viewer), last))
    }

    fn finished(&self) -> Option<Finished> {
        match self.game.status() {
            Status::Over(outcome) => Some(Finished::from(&outcome)),
            Status::Ongoing { .. } => None,
        }
    }

    fn can_claim_draw(&self) -> bool {
        matches!(self.game.status(), Status::Ongoing { claimable } if !claimable.is_empty())
    }

    fn claim_draw(&mut self) -> bool {
        match self.game.status() {
            Status::Ongoing { claimable } => claimable
                .first()
                .is_some_and(|&reason| self.game.claim_draw(reason)),
            Status::Over(_) => false,
        }
    }

    fn end(&mut self, losing_team: Option<usize>, reason: Reason) {
        let players = self.players();
        let outcome = match losing_team {
            None => Outcome::draw(players, reason),
            Some(team) => {
                // The other teams share the point, and every player of a team scores his
                // team's share: three-player chess's two others half a point each, both
                // bughouse partners a whole point.
                let position = self.game.position();
                let winning_teams = (0..players)
                    .map(|p| position.team(p))
                    .filter(|&t| t != team)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                let share = if winning_teams == 0 {
                    0
                } else {
                    4 / winning_teams as u8
                };
                Outcome {
                    quarters: (0..players)
                        .map(|p| if position.team(p) == team { 0 } else { share })
                        .collect(),
                    reason,
                }
            }
        };
        self.game.end(outcome);
    }

    fn restore_result(&mut self, quarters: &[u8], reason: Reason) {
        if quarters.len() == self.players() {
            self.game.end(Outcome {
                quarters: quarters.to_vec(),
                reason,
            });
        }
    }

    fn actions(&self) -> Vec<&'static str> {
        if self.finished().is_some() {
            return Vec::new();
        }
        self.game.position().actions()
    }

    fn action_consent(&self, action: &str) -> Option<usize> {
        self.game.position().action_consent(action)
    }

    fn perform(&mut self, action: &str) -> Result<Finished, SessionError> {
        self.game
            .perform(action)
            .map(|outcome| Finished::from(&outcome))
            .map_err(error)
    }

    fn record_formats(&self) -> Vec<RecordFormat> {
        // A ruleset with a record of its own is written in it alone.
        if let Some(own) = P::own_record() {
            return RecordFormat::parse(own.format).into_iter().collect();
        }
        let notations = self.game.position().notations();
        let mut formats = Vec::new();
        if notations.contains(&"kif") {
            formats.push(RecordFormat::Kif);
        }
        if notations.contains(&"csa") {
            formats.push(RecordFormat::Csa);
        }
        formats.push(RecordFormat::Pgn);
        formats
    }

    fn record(&self, format: RecordFormat, occasion: &Occasion) -> Result<String, SessionError> {
        // A secret option (Chex's draw seed) tells what is hidden: not while the game goes on.
        let over = matches!(self.game.status(), Status::Over(_));
        self.record_with(format, occasion, over)
    }

    fn search_task(&self, limits: Limits, hash_mb: usize) -> SearchTask {
        search_of(self.game.clone(), limits, hash_mb)
    }

    fn own_clock(&self) -> Option<TimeControl> {
        P::own_clock(&self.rule_options)
    }

    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
}

/// The tags of a ruleset's own record (BPGN, PGN's kin) for what the front end knows: the
/// roster's event, site and date, `Round` `-`, the start in UTC, the clock where the format's
/// `TimeControl` can say it (base and increment in whole seconds: BPGN's reader takes no
/// other), then the occasion's own tags.
fn own_record_tags(occasion: &Occasion) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let mut tag = |name: &str, value: String| tags.push((name.to_string(), value));
    if let Some(event) = &occasion.event {
        tag("Event", event.clone());
    }
    if let Some(site) = &occasion.site {
        tag("Site", site.clone());
    }
    if let Some(started) = occasion.started {
        tag("Date", started.pgn_date());
    }
    tag("Round", "-".to_string());
    if let Some(started) = occasion.started {
        tag("UTCDate", started.pgn_date());
        tag("UTCTime", started.time_of_day());
    }
    match occasion.clock {
        TimeLimit::Limited(control)
            if control.byo_yomi.is_none()
                && control.moves_per_session.is_none()
                && control.base.subsec_nanos() == 0
                && control.increment.subsec_nanos() == 0 =>
        {
            tag("TimeControl", pgn::time_control_text(&control));
        }
        TimeLimit::Unlimited => tag("TimeControl", "-".to_string()),
        _ => {}
    }
    tags.extend(occasion.tags.iter().cloned());
    tags
}

impl<P: Ruleset> Clone for Hosted<P> {
    fn clone(&self) -> Self {
        Hosted {
            info: self.info,
            options: self.options.clone(),
            rule_options: self.rule_options.clone(),
            game: self.game.clone(),
            // What is computed so far, shared, not more: `shown` fills itself when asked.
            shown: Mutex::new(
                self.shown
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            ),
        }
    }
}

/// A search of `game`'s position by an engine of its own, with `hash_mb` MiB of table.
fn search_of<P: Ruleset>(game: Game<P>, limits: Limits, hash_mb: usize) -> SearchTask {
    let mut engine = Engine::<P>::new(hash_mb);
    let stop = engine.stop_flag();
    SearchTask {
        run: Box::new(move || {
            let root = game.position().clone();
            let result = engine.search_hidden(&game, &limits, &Sampling::default(), &mut |_| {});
            result.best.map(|mv| root.move_text(mv))
        }),
        stop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_variants::CATALOGUE;

    /// Every rule option of every ruleset has a name for players and says in words what each
    /// of its values means: the lobby, the game page and the records show them.
    #[test]
    fn every_option_value_is_explained_in_words() {
        use chaturanga_rules::OptionValues;
        let mut missing = Vec::new();
        for info in CATALOGUE.iter().filter(|v| v.implemented) {
            for spec in option_specs(info.id).unwrap() {
                if spec.label.is_empty() {
                    missing.push(format!("{}: {} has no label", info.id, spec.name));
                }
                let values: Vec<&str> = match spec.values {
                    OptionValues::Choice(words) => words.to_vec(),
                    _ => vec![spec.default],
                };
                for value in values {
                    match spec.explain(value) {
                        Some(words) if !words.contains("{}") && words.len() > 10 => {}
                        _ => {
                            missing.push(format!("{}: {}={value} unexplained", info.id, spec.name))
                        }
                    }
                }
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }

    /// Every legal move's shape names cells its text names, in every ruleset, along random
    /// games; every scene names each cell at most once and only cells of its board.
    #[test]
    fn shapes_and_scenes_agree_with_the_move_texts_in_every_ruleset() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for info in CATALOGUE.iter().filter(|v| v.implemented) {
            let secret: Vec<String> = option_specs(info.id)
                .unwrap()
                .iter()
                .filter(|s| matches!(s.values, chaturanga_rules::OptionValues::Seed))
                .map(|s| format!("{}=7", s.name))
                .collect();
            let mut table = open_table(info.id, &secret, None).unwrap();
            let mut shapes = 0;
            for _ in 0..40 {
                let scene = table.scene(Viewer::Arbiter);
                for board in &scene.boards {
                    let g = board.shape.geometry();
                    let mut cells: Vec<&str> = board.men.iter().map(|m| m.cell.as_str()).collect();
                    for cell in &cells {
                        assert!(
                            g.cell_by_label(cell).is_some(),
                            "{}: {cell} off the board",
                            info.id
                        );
                    }
                    cells.sort();
                    let before = cells.len();
                    cells.dedup();
                    assert_eq!(before, cells.len(), "{}: two men on a cell", info.id);
                }
                let legal = table.legal();
                if legal.is_empty() {
                    break;
                }
                for m in &legal {
                    let s = &m.shape;
                    for label in s.from.iter().chain(&s.to).chain(&s.via) {
                        assert!(
                            m.text.contains(label.as_str()),
                            "{}: {} has no {label}",
                            info.id,
                            m.text
                        );
                    }
                    if let Some(piece) = &s.drop {
                        assert!(
                            s.from.is_none(),
                            "{}: a drop from a cell: {}",
                            info.id,
                            m.text
                        );
                        assert!(
                            m.text.to_uppercase().contains(&piece.to_uppercase()),
                            "{}: {} drops no {piece}",
                            info.id,
                            m.text
                        );
                    }
                    assert!(
                        s.to.is_some() || s.part.is_some(),
                        "{}: {} picks nothing",
                        info.id,
                        m.text
                    );
                    shapes += 1;
                }
                // Two legal moves never share a shape: a click sequence picks one move.
                let mut keys: Vec<String> =
                    legal.iter().map(|m| format!("{:?}", m.shape)).collect();
                keys.sort();
                let n = keys.len();
                keys.dedup();
                assert_eq!(n, keys.len(), "{}: two moves with one shape", info.id);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = &legal[(seed % legal.len() as u64) as usize].text;
                table.play(pick).unwrap();
            }
            assert!(shapes > 0, "{}", info.id);
        }
    }
}
