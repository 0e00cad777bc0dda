//! The interface every ruleset's position implements, games with history, and perft.

use crate::outcome::{Outcome, Reason};
use crate::zobrist::SplitMix64;
use std::fmt::{self, Debug};
use std::hash::Hash;

/// Automatic and claimable draw rules of a game: a threshold and the reason reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawRules {
    /// The game ends when a position occurs this often (drawn, unless the ruleset judges the
    /// repetition otherwise: see [`Position::judge_repetition`]).
    pub repetition: Option<(u32, Reason)>,
    /// The player to move may claim a draw when a position occurs this often.
    pub repetition_claim: Option<(u32, Reason)>,
    /// Drawn automatically after this many plies without progress (capture, pawn move, ...).
    pub quiet_plies: Option<(u32, Reason)>,
    /// Claimable after this many plies without progress.
    pub quiet_plies_claim: Option<(u32, Reason)>,
    /// Drawn when this many plies have been played and the player to move is not in check
    /// (shogi's game-length cap).
    pub ply_cap: Option<u32>,
}

impl DrawRules {
    /// FIDE's draw rules, automatic (`fide_claims == false`: threefold, fifty moves) or with
    /// claims (threefold and fifty moves claimable; fivefold and seventy-five automatic).
    pub fn chess(fide_claims: bool) -> Self {
        if fide_claims {
            DrawRules {
                repetition: Some((5, Reason::FivefoldRepetition)),
                repetition_claim: Some((3, Reason::ThreefoldRepetition)),
                quiet_plies: Some((150, Reason::SeventyFiveMoveRule)),
                quiet_plies_claim: Some((100, Reason::FiftyMoveRule)),
                ply_cap: None,
            }
        } else {
            DrawRules {
                repetition: Some((3, Reason::ThreefoldRepetition)),
                repetition_claim: None,
                quiet_plies: Some((100, Reason::FiftyMoveRule)),
                quiet_plies_claim: None,
                ply_cap: None,
            }
        }
    }
}

/// A plain-board ruleset's pieces and the moves that are not theirs alone, as data
/// ([`Position::board_pieces`]).
#[derive(Clone, Debug)]
pub struct BoardPieces {
    /// Piece types, indexed by kind.
    pub pieces: &'static [crate::piece::PieceType],
    /// The castlings: king from, king to, rook from, rook to.
    pub castlings: Vec<[chaturanga_geometry::Cell; 4]>,
    /// Captured men go to the captor's hand and may be dropped (the shogi family).
    pub drops: bool,
    /// A capture must be made when one is possible (Losing chess).
    pub compulsory_capture: bool,
    /// The men on the board of the position asked.
    pub men: Vec<(chaturanga_geometry::Cell, crate::piece::Piece)>,
}

/// Why a move text was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this ruleset's notation.
    Malformed(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
    /// The game is already over.
    GameOver(String),
    /// More than one legal move fits the text (SAN without enough disambiguation).
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => write!(f, "malformed move {m:?}"),
            MoveError::Illegal(m) => write!(f, "illegal move {m:?}"),
            MoveError::GameOver(r) => write!(f, "the game is over ({r})"),
            MoveError::Ambiguous(m) => write!(f, "ambiguous move {m:?}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why no position could be drawn from a player's view ([`Position::determinize`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewError {
    /// The ruleset hides nothing: search the position itself.
    NoHiddenInformation,
    /// The text is not a view of this ruleset.
    Malformed(String),
    /// No position of the rules agrees with the view (or none was found in the tries made).
    NoFit(String),
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::NoHiddenInformation => write!(f, "the ruleset has no hidden information"),
            ViewError::Malformed(m) => write!(f, "malformed view: {m}"),
            ViewError::NoFit(m) => write!(f, "no position fits the view: {m}"),
        }
    }
}

impl std::error::Error for ViewError {}

/// Cuts untrusted text for an error message.
pub fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A position of some ruleset: what perft, the engine, games and front ends need.
///
/// Implementations decide everything about their ruleset; users of this trait never ask which
/// ruleset they hold.
pub trait Position: Clone + Send + Sync + 'static {
    /// A move (or one part of a compound turn) of this ruleset.
    type Move: Copy + Eq + Hash + Debug + Send + Sync;

    /// Number of players: two, unless the ruleset says otherwise.
    fn players(&self) -> usize {
        2
    }
    /// The player to move (0 moves first).
    fn side_to_move(&self) -> usize;
    /// Appends every legal move to `moves` (which the caller clears).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);
    /// Number of legal moves (perft's last ply), without necessarily listing them.
    fn count_legal_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }
    /// A slow, straightforward generator that tests compare [`Position::legal_moves`] with:
    /// rulesets whose fast generator takes shortcuts (pins, bulk targets) implement it by trying
    /// every candidate on a copy. Same as `legal_moves` by default.
    fn reference_legal_moves(&self, moves: &mut Vec<Self::Move>) {
        self.legal_moves(moves)
    }
    /// Moves that may still be illegal, for a search that tests each with
    /// [`Position::is_legal`] just before playing it: where the legality test is costly, the
    /// moves a cut-off makes unnecessary are never tested. Every legal move is among them.
    /// The legal moves by default.
    fn candidate_moves(&self, moves: &mut Vec<Self::Move>) {
        self.legal_moves(moves)
    }
    /// Candidate moves that may capture or promote, for the search's quiescence (which keeps
    /// only moves whose [`Position::move_value`] gains): every such legal move is among them,
    /// and an empty list does not mean that no move is left. All candidates by default;
    /// position types that can skip quiet moves cheaply list fewer.
    fn tactical_candidates(&self, moves: &mut Vec<Self::Move>) {
        self.candidate_moves(moves)
    }
    /// Whether a move of [`Position::candidate_moves`] is legal (true by default, where the
    /// candidates are the legal moves).
    fn is_legal(&self, _mv: Self::Move) -> bool {
        true
    }
    /// The position after the player to move passes, for the search's null-move pruning
    /// (a side that is still winning after giving the opponent a free move needs no full
    /// search). `None` in check, and always (the default) where that test would mislead:
    /// rulesets where having to move is often a disadvantage (zugzwang), several players,
    /// compound turns.
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Whether a legal capture likely loses material: the capturing piece is worth more than
    /// what it takes and the opponent can take it back. The search leaves such moves out of
    /// its quiescence and tries them late. False by default.
    fn exchange_loses(&self, _mv: Self::Move) -> bool {
        false
    }
    /// What a legal move wins (negative: loses) in centipawns once the exchange of captures
    /// on its destination has run its course, for ordering and pruning. By default the
    /// immediate gain of [`Position::move_value`], less the mover where
    /// [`Position::exchange_loses`] says the capture loses.
    fn static_exchange(&self, mv: Self::Move) -> i32 {
        let value = self.move_value(mv);
        if self.exchange_loses(mv) {
            value.gain - value.mover
        } else {
            value.gain
        }
    }
    /// Plays a move known to be legal here.
    fn play_unchecked(&mut self, mv: Self::Move);
    /// Plays `mv` if it is legal here.
    fn play(&mut self, mv: Self::Move) -> Result<(), MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(MoveError::Illegal(self.move_text(mv)))
        }
    }
    /// Zobrist hash of everything that makes positions the same for repetition.
    fn hash(&self) -> u64;
    /// Whether the player to move is in check (false in rulesets without check).
    fn is_check(&self) -> bool;
    /// Whether the side to move must answer a check: the search then extends, and its
    /// quiescence neither stands pat nor keeps to captures. The same as
    /// [`Position::is_check`] by default; where an attacked king may be left attacked and
    /// losing it does not end the game (Makarenko's spare kings), the check is only announced.
    fn must_answer_check(&self) -> bool {
        self.is_check()
    }
    /// The result when the player to move has no legal move.
    fn outcome_without_moves(&self) -> Outcome;
    /// A result decided by the position itself even though moves remain (none by default).
    fn decided_outcome(&self) -> Option<Outcome> {
        None
    }
    /// The players who may move now: the player to move, or, in a game where several move
    /// at once (bughouse in real time, one per board), each of them.
    fn movers(&self) -> Vec<usize> {
        vec![self.side_to_move()]
    }
    /// This position as `player` sees it when moving, `None` when that player may not move
    /// now: its player to move is `player`, and its legal moves, move texts and searches are
    /// that player's. The position itself by default, where only one player moves at a time.
    fn as_mover(&self, player: usize) -> Option<Self> {
        (player == self.side_to_move()).then(|| self.clone())
    }
    /// Whether the game goes on when the player to move has no legal move: players wait, as
    /// bughouse players in real time wait for a piece from their partners while their clocks
    /// run. False by default: the position's [`Position::outcome_without_moves`] ends it.
    fn waits_without_moves(&self) -> bool {
        false
    }
    /// Whether no player can win any more (dead position by material).
    fn is_dead(&self) -> bool {
        false
    }
    /// The result of a repetition that ends the game: `cycle` holds the positions from the
    /// first occurrence of the repeated position to now, `moves` the moves between them.
    /// `None` (the default) means the draw rule's draw; xiangqi punishes perpetual check and
    /// chase here.
    fn judge_repetition(_cycle: &[Self], _moves: &[Self::Move]) -> Option<Outcome>
    where
        Self: Sized,
    {
        None
    }
    /// The result a search gives a repetition inside its tree, where it knows only the
    /// repeated position (`self`) and who checked with every move of the cycle
    /// (`perpetual[p]`: each move of player `p` since the first occurrence gave check):
    /// [`Position::judge_repetition`]'s verdict wherever that depends on no more (perpetual
    /// check in xiangqi and the shogi family, the loser of a plain sennichite in modern
    /// minishogi and Tori shogi). `None`, a draw, by default; two-player rulesets only.
    fn judge_repetition_in_search(&self, _perpetual: [bool; 2]) -> Option<Outcome> {
        None
    }
    /// Plies since the last irreversible move (capture, pawn move).
    fn quiet_plies(&self) -> u32;
    /// How many plies back an earlier occurrence of this position may lie: by default the
    /// quiet plies, since no earlier position can come back across an irreversible move.
    /// Rulesets where captured men return to play (drops) search further.
    fn repetition_window(&self) -> u32 {
        self.quiet_plies()
    }
    /// The draw rules in force.
    fn draw_rules(&self) -> DrawRules;
    /// Plies played since the start of the game, as far as the position knows (from its move
    /// number); the game-length cap uses it.
    fn ply(&self) -> u32 {
        0
    }
    /// Whether positions are compared for repetition here: true at the start of a turn (the
    /// default, where every move is a turn); false between the parts of a compound turn.
    fn repetition_point(&self) -> bool {
        true
    }
    /// Whether a move that recreates an earlier position (same side to move) is illegal unless
    /// the mover is in check (chu shogi's `repetition=strict`); [`Game`] enforces it.
    fn forbids_repeating(&self) -> bool {
        false
    }
    /// Actions the player to move may take instead of a move (`win`: shogi's impasse
    /// declaration; `count`: the impasse count). Empty by default.
    fn actions(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The result of taking `action` now; an error if it is not available. For an action
    /// that needs another player's consent ([`Position::action_consent`]), the result once
    /// he has given it.
    fn perform(&self, action: &str) -> Result<Outcome, MoveError> {
        Err(MoveError::Illegal(excerpt(action)))
    }
    /// The player whose consent `action` needs before it takes effect (three-player chess: a
    /// resignation in favour of one opponent needs the other's confirmation; refused, it has
    /// no effect). `None`, the default, where the player to move decides alone.
    fn action_consent(&self, _action: &str) -> Option<usize> {
        None
    }
    /// The move number as FEN counts it (starts at 1, grows after the last player's move).
    fn move_number(&self) -> u32 {
        1
    }
    /// The position in the ruleset's FEN.
    fn fen(&self) -> String;
    /// A move in the ruleset's coordinate notation.
    fn move_text(&self, mv: Self::Move) -> String;
    /// The board's geometry, where one board of lattice cells holds the whole position (the
    /// chess and shogi families, xiangqi). Front ends use it to translate cell labels into
    /// other protocols' coordinates (XBoard's `a0`-based files and ranks); `None` where the
    /// position is not one plain board.
    fn board_geometry(&self) -> Option<&'static chaturanga_geometry::Geometry> {
        None
    }
    /// What `viewer` sees of the position, as data for drawing it: the boards with their
    /// men, hands and fog (see [`crate::scene`]). Hidden-information rulesets show a player
    /// only his view and a spectator of a game in progress none of the hidden men.
    fn scene(&self, viewer: crate::scene::Viewer) -> crate::scene::Scene;
    /// The cells and pieces a person picks to make the legal move `mv`.
    fn move_shape(&self, mv: Self::Move) -> crate::scene::MoveShape;
    /// The pictures and names of the ruleset's men: the style they are drawn in and an entry
    /// for every symbol a [`Position::scene`] of this ruleset (under its rule options) may
    /// show, with the piece's name and how it moves (see [`crate::legend`]).
    fn legend(&self) -> crate::legend::Legend;
    /// The text of the legal move `mv` as `viewer` may know it, or `None` where he is only
    /// told that a move was made (Dark Chess: the opponent's moves).
    fn move_seen_by(&self, mv: Self::Move, _viewer: crate::scene::Viewer) -> Option<String> {
        Some(self.move_text(mv))
    }
    /// The ruleset's pieces as data, where they and the castlings say everything about how
    /// men move on [`Position::board_geometry`] (the standard position). Front ends describe
    /// them to other programs (XBoard's `setup` and `piece` commands); `None` where some
    /// movement is code rather than data (lions' double moves, towers, linked boards) or the
    /// position is not one plain board.
    fn board_pieces(&self) -> Option<BoardPieces> {
        None
    }
    /// Names of the ruleset's own move notations besides coordinate notation (`wxf`).
    fn notations(&self) -> &'static [&'static str] {
        &[]
    }
    /// A legal move in one of [`Position::notations`]; `None` for an unknown notation.
    fn write_move(&self, _notation: &str, _mv: Self::Move) -> Option<String> {
        None
    }
    /// Reads a move in one of [`Position::notations`].
    fn read_move(&self, notation: &str, _text: &str) -> Result<Self::Move, MoveError> {
        Err(MoveError::Malformed(format!(
            "no {} notation here",
            excerpt(notation)
        )))
    }
    /// Facts about a legal move for SAN-like notations; `None` where the ruleset has none.
    fn describe(&self, _mv: Self::Move) -> Option<MoveDescription> {
        None
    }
    /// What `player` is called (`white`, `black`; `red` in xiangqi; shogi's first player is
    /// `black`, as shogi literature calls sente).
    fn player_name(&self, player: usize) -> &'static str {
        ["white", "black", "red"]
            .get(player)
            .copied()
            .unwrap_or("player")
    }
    /// A picture of the position for a terminal: the board, pieces in hand, who moves. The
    /// FEN by default.
    fn diagram(&self) -> String {
        format!("{}\n", self.fen())
    }
    /// The team `player` plays for: players of one team share their result (bughouse
    /// partners). Each player is a team of his own by default.
    fn team(&self, player: usize) -> usize {
        player
    }
    /// Static evaluation in centipawns from `player`'s point of view: positive is good for
    /// `player`. Required, like [`Position::move_value`]: a position type that wraps another
    /// must say what it adds to the inner evaluation, so no wrapper can lose it silently.
    fn evaluate(&self, player: usize) -> i32;
    /// What a legal move wins at once and what it risks, for move ordering and quiescence.
    fn move_value(&self, mv: Self::Move) -> crate::eval::MoveValue;
    /// The evaluation as features of its tunable weights ([`crate::EvalFeatures`]), where
    /// [`Position::evaluate`] is the shared weighted evaluation; `None` (the default) where it
    /// is another, which the tuner then cannot fit.
    fn eval_features(&self) -> Option<crate::EvalFeatures> {
        None
    }
    /// What `player` may know of the position, for rulesets with hidden information (Dark
    /// Chess): lines of text, the first a FEN with unseen cells `*`, then what he has been
    /// told. `None` (the default) where every player sees everything.
    fn player_view(&self, _player: usize) -> Option<String> {
        None
    }
    /// For rulesets with hidden information: a complete position drawn at random among those
    /// that agree with `view`, the text [`Position::player_view`] wrote for the player to move
    /// (everything he may know), so that a search can play out guesses of what he cannot see.
    /// It is a function of the view and the random numbers only: no true position is at hand,
    /// so nothing hidden can leak into what is searched. Rulesets without hidden information
    /// keep the default, [`ViewError::NoHiddenInformation`].
    fn determinize(_view: &str, _rng: &mut SplitMix64) -> Result<Self, ViewError>
    where
        Self: Sized,
    {
        Err(ViewError::NoHiddenInformation)
    }
    /// Whether `moves` and `perft` work on whole turns by default (Avalanche, whose FEN
    /// cannot describe a position between the parts of a turn); false by default, where they
    /// work on single moves (parts) and whole turns are asked for explicitly.
    fn whole_turns(&self) -> bool {
        false
    }
    /// A whole turn written from the coordinate texts of its parts, in order (see
    /// [`legal_turns`]): joined by spaces by default; rulesets with a turn notation of their
    /// own override it (Avalanche's `e2e4;d7d6`).
    fn turn_text(&self, parts: &[String]) -> String {
        parts.join(" ")
    }
    /// Reads a move in coordinate notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        if text.len() > 64 || text.is_empty() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counted at the last ply).
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_with(position, depth, &mut buffers)
}

fn perft_with<P: Position>(position: &P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves(),
        _ => {
            let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
            moves.clear();
            position.legal_moves(moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let mut child = position.clone();
                child.play_unchecked(mv);
                nodes += perft_with(&child, depth - 1, rest);
            }
            nodes
        }
    }
}

/// Perft counting whole turns: a move that leaves the same player to move continues the turn
/// at the same depth, so one ply is one player's complete turn (double-move and progressive
/// chess). A turn cut short by the end of the game counts as complete.
pub fn perft_turns<P: Position>(position: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut nodes = 0;
    for mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let turn_goes_on =
            child.side_to_move() == position.side_to_move() && child.count_legal_moves() > 0;
        nodes += if turn_goes_on {
            perft_turns(&child, depth)
        } else {
            perft_turns(&child, depth - 1)
        };
    }
    nodes
}

/// Every legal whole turn from `position`: the sequences of parts that one player plays
/// before the move passes (or the game ends), as [`perft_turns`] counts them, each with the
/// position after it. A position where the game is over has none.
pub fn legal_turns<P: Position>(position: &P) -> Vec<(Vec<P::Move>, P)> {
    let mut turns = Vec::new();
    let mut prefix = Vec::new();
    collect_turns(position, position.side_to_move(), &mut prefix, &mut turns);
    turns
}

fn collect_turns<P: Position>(
    position: &P,
    mover: usize,
    prefix: &mut Vec<P::Move>,
    turns: &mut Vec<(Vec<P::Move>, P)>,
) {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    for mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        prefix.push(mv);
        if child.side_to_move() == mover && child.count_legal_moves() > 0 {
            collect_turns(&child, mover, prefix, turns);
        } else {
            turns.push((prefix.clone(), child));
        }
        prefix.pop();
    }
}

/// The texts of every legal whole turn from `position` (see [`legal_turns`] and
/// [`Position::turn_text`]), sorted.
pub fn legal_turn_texts<P: Position>(position: &P) -> Vec<String> {
    let mut texts: Vec<String> = legal_turns(position)
        .into_iter()
        .map(|(parts, _)| {
            let mut at = position.clone();
            let mut words = Vec::with_capacity(parts.len());
            for mv in parts {
                words.push(at.move_text(mv));
                at.play_unchecked(mv);
            }
            position.turn_text(&words)
        })
        .collect();
    texts.sort();
    texts
}

/// [`perft_turns`] split by root move (a root part that leaves the turn going on counts the
/// rest of the turn at the same depth).
pub fn perft_turns_divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let turn_goes_on =
                child.side_to_move() == position.side_to_move() && child.count_legal_moves() > 0;
            let below = if turn_goes_on {
                depth
            } else {
                depth.saturating_sub(1)
            };
            (mv, perft_turns(&child, below))
        })
        .collect()
}

/// Perft split by root move: each legal move with the leaf count below it.
pub fn perft_divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// Whether the game is still on, and what may be claimed; or how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; the player to move may claim a draw for these reasons.
    Ongoing {
        /// Draw claims available now.
        claimable: Vec<Reason>,
    },
    /// The game is over.
    Over(Outcome),
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing { .. } => write!(f, "ongoing"),
            Status::Over(o) => write!(f, "{o}"),
        }
    }
}

/// A game: a start position and the moves played, with everything the draw rules need.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
    hashes: Vec<u64>,
    ended: Option<Outcome>,
    /// The status, once computed: it takes the legal moves, and a host asks for it many times
    /// between two moves. Cleared by every change.
    status: std::sync::OnceLock<Status>,
}

impl<P: Position> Game<P> {
    /// A game starting at `start`.
    pub fn new(start: P) -> Self {
        let hash = start.hash();
        Game {
            positions: vec![start],
            moves: Vec::new(),
            hashes: vec![hash],
            ended: None,
            status: std::sync::OnceLock::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &P {
        self.positions.last().expect("a game has a start position")
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Positions from the start to now (one more than moves).
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Plays a legal move; refuses illegal moves and moves after the end.
    pub fn play(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if let Status::Over(o) = self.status() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mut next = self.position().clone();
        next.play(mv)?;
        self.check_history(&next)?;
        self.push(mv, next);
        Ok(())
    }

    /// Plays a legal move of `player`, who may be one of several players to move at once
    /// ([`Position::movers`]): the move is read and judged in the position as `player` moves
    /// in it ([`Position::as_mover`]). Refuses moves of players who may not move now.
    pub fn play_as(&mut self, player: usize, mv: P::Move) -> Result<(), MoveError> {
        if let Status::Over(o) = self.status() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let view = self
            .position()
            .as_mover(player)
            .ok_or_else(|| MoveError::Illegal(format!("player {} may not move now", player + 1)))?;
        let mut next = view.clone();
        next.play(mv)?;
        self.check_history(&next)?;
        // The position the move was made in is the mover's view: its player to move says
        // who made the move, for records, notation and takebacks.
        let last = self.positions.len() - 1;
        self.hashes[last] = view.hash();
        self.positions[last] = view;
        self.push(mv, next);
        Ok(())
    }

    /// Reads and plays a move in coordinate notation.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if let Status::Over(o) = self.status() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mv = self.position().parse_move(text)?;
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.check_history(&next)?;
        self.push(mv, next);
        Ok(mv)
    }

    /// Plays a move given in coordinate notation if it is legal in the position, even after a
    /// draw rule has ended the game: for tools (perft, move lists) that continue through
    /// draw adjudications as the overview prescribes. Players use [`Game::play_text`].
    pub fn play_text_through_draws(&mut self, text: &str) -> Result<P::Move, MoveError> {
        let mv = self.position().parse_move(text)?;
        self.play_through_draws(mv);
        Ok(mv)
    }

    /// Plays one whole turn given as the coordinate texts of its parts, in order (Avalanche's
    /// `e2e4;d7d6` split at `;`); a part `-` says that no further part is possible. The turn
    /// must be complete at the end: the move has passed to another player or the game has no
    /// move left. On any error nothing is played. `through_draws` plays on after a draw
    /// adjudication, as [`Game::play_text_through_draws`] does.
    pub fn play_turn(&mut self, parts: &[&str], through_draws: bool) -> Result<(), MoveError> {
        let before = self.moves.len();
        let mover = self.position().side_to_move();
        let result = self.play_parts(parts, mover, through_draws);
        if result.is_err() {
            while self.moves.len() > before {
                self.undo();
            }
        }
        result
    }

    fn play_parts(
        &mut self,
        parts: &[&str],
        mover: usize,
        through_draws: bool,
    ) -> Result<(), MoveError> {
        let passed = |game: &Self| {
            game.position().side_to_move() != mover || game.position().count_legal_moves() == 0
        };
        if parts.is_empty() {
            return Err(MoveError::Malformed(String::new()));
        }
        for (i, &part) in parts.iter().enumerate() {
            if part == "-" {
                if i == 0 || i + 1 != parts.len() || !passed(self) {
                    return Err(MoveError::Illegal(format!(
                        "{}: a further part of the turn is compulsory",
                        excerpt(&parts.join(";"))
                    )));
                }
                return Ok(());
            }
            if i > 0 && passed(self) {
                return Err(MoveError::Illegal(format!(
                    "{}: the turn is already over",
                    excerpt(part)
                )));
            }
            if through_draws {
                self.play_text_through_draws(part)?;
            } else {
                self.play_text(part)?;
            }
        }
        if passed(self) {
            Ok(())
        } else {
            Err(MoveError::Illegal(format!(
                "{}: the turn is not complete",
                excerpt(&parts.join(";"))
            )))
        }
    }

    /// Plays a move known to be legal in the position, even after a draw rule ended the game.
    pub fn play_through_draws(&mut self, mv: P::Move) {
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.push(mv, next);
    }

    /// Refuses a move that history makes illegal (see [`Position::forbids_repeating`]).
    fn check_history(&self, next: &P) -> Result<(), MoveError> {
        let now = self.position();
        if now.forbids_repeating() && !now.is_check() && self.hashes.contains(&next.hash()) {
            return Err(MoveError::Illegal(
                "the move recreates an earlier position (repetition=strict)".to_string(),
            ));
        }
        Ok(())
    }

    fn push(&mut self, mv: P::Move, next: P) {
        self.status = std::sync::OnceLock::new();
        self.hashes.push(next.hash());
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.moves.pop();
        self.positions.pop();
        self.hashes.pop();
        self.ended = None;
        self.status = std::sync::OnceLock::new();
        true
    }

    /// Takes one of the position's actions (see [`Position::actions`]), which ends the game.
    pub fn perform(&mut self, action: &str) -> Result<Outcome, MoveError> {
        if let Status::Over(o) = self.status() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let outcome = self.position().perform(action)?;
        self.ended = Some(outcome.clone());
        self.status = std::sync::OnceLock::new();
        Ok(outcome)
    }

    /// Ends the game by resignation, agreement or an accepted claim.
    pub fn end(&mut self, outcome: Outcome) {
        self.ended = Some(outcome);
        self.status = std::sync::OnceLock::new();
    }

    /// How often the current position has occurred (counting now).
    pub fn repetitions(&self) -> u32 {
        self.history(None).repetitions()
    }

    /// The game's status now, applying the ruleset's decisive rules first, then the draw
    /// rules (a checkmate on the ply that completes fifty moves stands).
    pub fn status(&self) -> Status {
        if let Some(o) = &self.ended {
            return Status::Over(o.clone());
        }
        self.status
            .get_or_init(|| self.history(None).status())
            .clone()
    }

    /// The status the game would have after the legal move `mv`, without playing it (what an
    /// engine needs to see a repetition or a draw rule its move would trigger).
    pub fn status_after(&self, mv: P::Move) -> Status {
        if let Some(o) = &self.ended {
            return Status::Over(o.clone());
        }
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        let hash = next.hash();
        self.history(Some((mv, &next, hash))).status()
    }

    /// The legal moves the game allows now: the position's legal moves less those the
    /// history forbids (see [`Position::forbids_repeating`]); none once the game is over.
    pub fn legal_moves(&self) -> Vec<P::Move> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        self.legal_moves_ignoring_result()
    }

    /// The moves [`Game::legal_moves`] would allow if the game went on past a result the
    /// rules gave it: a GUI that adjudicates for itself (a UCI GUI at the fifty-move rule or
    /// a threefold repetition) still asks the engine for a move. Empty after a mate or a
    /// stalemate, where the position has no moves.
    pub fn legal_moves_ignoring_result(&self) -> Vec<P::Move> {
        let mut moves = Vec::new();
        self.position().legal_moves(&mut moves);
        if self.position().forbids_repeating() && !self.position().is_check() {
            moves.retain(|&mv| {
                let mut next = self.position().clone();
                next.play_unchecked(mv);
                self.check_history(&next).is_ok()
            });
        }
        moves
    }

    /// The game's history, optionally followed by one more move.
    fn history<'g>(&'g self, next: Option<(P::Move, &'g P, u64)>) -> History<'g, P> {
        History { game: self, next }
    }

    /// Claims a draw for `reason` if the draw rules allow it now; returns whether it ended
    /// the game.
    pub fn claim_draw(&mut self, reason: Reason) -> bool {
        match self.status() {
            Status::Ongoing { claimable } if claimable.contains(&reason) => {
                self.ended = Some(Outcome::draw(self.position().players(), reason));
                self.status = std::sync::OnceLock::new();
                true
            }
            _ => false,
        }
    }
}

/// A game's positions, possibly followed by one position more, for status computations.
struct History<'g, P: Position> {
    game: &'g Game<P>,
    next: Option<(P::Move, &'g P, u64)>,
}

impl<P: Position> History<'_, P> {
    fn len(&self) -> usize {
        self.game.hashes.len() + usize::from(self.next.is_some())
    }

    fn hash(&self, i: usize) -> u64 {
        match self.next {
            Some((_, _, h)) if i == self.game.hashes.len() => h,
            _ => self.game.hashes[i],
        }
    }

    fn position(&self) -> &P {
        match self.next {
            Some((_, p, _)) => p,
            None => self.game.position(),
        }
    }

    /// How often the last position has occurred, within the window since the last
    /// irreversible move.
    fn repetitions(&self) -> u32 {
        let now = self.len() - 1;
        let window = self.position().repetition_window() as usize;
        let target = self.hash(now);
        (now.saturating_sub(window)..=now)
            .filter(|&i| self.hash(i) == target)
            .count() as u32
    }

    /// Index of the first occurrence of the last position within the window.
    fn first_occurrence(&self) -> usize {
        let now = self.len() - 1;
        let window = self.position().repetition_window() as usize;
        (now.saturating_sub(window)..=now)
            .find(|&i| self.hash(i) == self.hash(now))
            .unwrap_or(now)
    }

    /// The ruleset's verdict on the repetition that ends at the last position.
    fn judge(&self) -> Option<Outcome> {
        let first = self.first_occurrence();
        let game = self.game;
        match self.next {
            None => {
                let now = game.positions.len() - 1;
                P::judge_repetition(&game.positions[first..=now], &game.moves[first..now])
            }
            Some((mv, next, _)) => {
                let mut cycle = game.positions[first..].to_vec();
                cycle.push(next.clone());
                let mut moves = game.moves[first..].to_vec();
                moves.push(mv);
                P::judge_repetition(&cycle, &moves)
            }
        }
    }

    /// The status at the last position (the game not ended by hand).
    fn status(&self) -> Status {
        let position = self.position();
        if let Some(o) = position.decided_outcome() {
            return Status::Over(o);
        }
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() && !position.waits_without_moves() {
            return Status::Over(position.outcome_without_moves());
        }
        let players = position.players();
        if position.is_dead() {
            return Status::Over(Outcome::draw(players, Reason::InsufficientMaterial));
        }
        let rules = position.draw_rules();
        let reps = self.repetitions();
        let quiet = position.quiet_plies();
        if let Some((n, reason)) = rules.repetition
            && reps >= n
            && position.repetition_point()
        {
            let judged = self.judge();
            return Status::Over(judged.unwrap_or_else(|| Outcome::draw(players, reason)));
        }
        if let Some((n, reason)) = rules.quiet_plies
            && quiet >= n
        {
            return Status::Over(Outcome::draw(players, reason));
        }
        if let Some(cap) = rules.ply_cap
            && position.ply() >= cap
            && !position.is_check()
        {
            return Status::Over(Outcome::draw(players, Reason::MoveLimit));
        }
        let mut claimable = Vec::new();
        if let Some((n, reason)) = rules.repetition_claim
            && reps >= n
        {
            claimable.push(reason);
        }
        if let Some((n, reason)) = rules.quiet_plies_claim
            && quiet >= n
        {
            claimable.push(reason);
        }
        Status::Ongoing { claimable }
    }
}

/// A position type that can be set up by rule options and FEN: what the registry hands out.
pub trait Ruleset: Position {
    /// Ruleset id.
    const ID: &'static str;
    /// The rule options offered.
    fn option_specs() -> &'static [crate::OptionSpec];
    /// The start position's FEN, where it is the same under every option: then
    /// [`Ruleset::start_position`] need not be written.
    const START_FEN: Option<&'static str> = None;
    /// The start position under `options`; by default [`Ruleset::START_FEN`] read under them.
    fn start_position(options: &crate::RuleOptions) -> Result<Self, crate::SetupError> {
        match Self::START_FEN {
            Some(fen) => Self::from_fen_with(options, fen),
            None => Err(crate::SetupError::Spec(crate::standard::SpecError::Size(
                format!(
                    "{} names neither a start FEN nor a start position",
                    Self::ID
                ),
            ))),
        }
    }
    /// A position from FEN under `options`.
    fn from_fen_with(options: &crate::RuleOptions, fen: &str) -> Result<Self, crate::SetupError>;
    /// The ruleset's own record format, where PGN cannot hold its games (bughouse's BPGN,
    /// whose moves name their board). `None`, the default, where PGN can: games are then
    /// written as PGN, and as KIF and CSA where the ruleset has those move notations.
    fn own_record() -> Option<OwnRecord<Self>> {
        None
    }
    /// The time control the ruleset itself prescribes under `options` (bughouse's `clock`, or
    /// its turn-based `slot-deadline` as a fixed time per move), for a host that is given no
    /// clock of its own. `None`, the default: the rules leave the clock to the players.
    fn own_clock(options: &crate::RuleOptions) -> Option<crate::clock::TimeControl> {
        let _ = options;
        None
    }
}

/// Why a game could not be written in a ruleset's own record format.
pub type RecordError = Box<dyn std::error::Error + Send + Sync>;

/// A record format of a ruleset's own (see [`Ruleset::own_record`]): front ends write and
/// read games through it without knowing the ruleset.
pub struct OwnRecord<P: Position> {
    /// The format's name, which is also its file extension (`bpgn`).
    pub format: &'static str,
    /// Writes a game in the format, with what its header records besides the game.
    pub write: fn(&Game<P>, &RecordHeader) -> Result<String, RecordError>,
    /// Reads every game of a text in the format, each replayed under the rule options it
    /// records.
    pub read: fn(&str) -> Result<Vec<OwnGame<P>>, RecordError>,
}

/// What a record holds besides the game: what the front end knows of the occasion.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordHeader<'a> {
    /// The rule options to record (`name=value`: those not at their defaults, less any
    /// secret the game may not show yet).
    pub options: &'a [String],
    /// Tags to add (`Site` ...), as name and value; a format without tags leaves them out.
    pub tags: &'a [(String, String)],
    /// The players' names by seat (the ruleset's player order), or none where unknown; each
    /// format puts them under its own tags.
    pub players: &'a [String],
    /// Comments for the person who reads the record (the rule options in words), written
    /// where the format's readers skip comments; a format without comments leaves them out.
    pub comments: &'a [String],
}

/// A game read from a ruleset's own record format.
pub struct OwnGame<P: Position> {
    /// The game, replayed.
    pub game: Game<P>,
    /// The rule options the record gives (`name=value`), under which it was replayed.
    pub options: Vec<String>,
    /// The record's tags (PGN-like formats), in order.
    pub tags: Vec<(String, String)>,
}

/// What notation needs to know about a move to write it in SAN-like forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDescription {
    /// Symbol of the moving piece (upper case).
    pub piece: String,
    /// Whether the moving piece is a pawn (SAN omits its letter).
    pub pawn: bool,
    /// Start cell label (`None` for drops).
    pub from: Option<String>,
    /// Destination label.
    pub to: String,
    /// Whether it captures.
    pub capture: bool,
    /// Symbol of the promoted piece.
    pub promotion: Option<String>,
    /// `Some(true)` for castling towards higher files (O-O), `Some(false)` the other way.
    pub castling: Option<bool>,
}
