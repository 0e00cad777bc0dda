//! Iterative deepening principal-variation search with quiescence, over any position type.
//!
//! Every score is seen from the *team* of the player to move at that node: the root player is
//! one team, everyone else the other. With two players that is ordinary negamax; a player who
//! moves twice in a row (compound turns) stays on the same team, so the score is passed on
//! without a sign change; with three players the others are searched as one opponent
//! (paranoid search).

use crate::eval_cache::EvalCache;
use crate::limits::{Budget, Limits};
use crate::ordering::{HASH_MOVE, LOSING_TACTIC, Ordering};
use crate::score::{INFINITY, MATE, MATE_BOUND, QUARTER_POINT, Score, from_table, to_table};
use crate::tt::{Bound, TranspositionTable};
use chaturanga_rules::{Game, Outcome, Position, Status};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (extensions and quiescence included).
pub(crate) const MAX_PLY: usize = 96;
/// Deepest quiescence plies below the horizon.
pub(crate) const MAX_QUIESCENCE_PLY: usize = 16;
/// Nodes between checks of the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;
/// Depths at which a static evaluation far above beta returns at once.
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Margin per ply of that test.
const REVERSE_FUTILITY_MARGIN: i32 = 120;
/// Depths at which quiet moves that cannot lift a low static evaluation to alpha are skipped.
const FUTILITY_DEPTH: i32 = 2;
/// Margin per ply of that test.
const FUTILITY_MARGIN: i32 = 150;
/// Captures that cannot lift the score to alpha even with this much extra are skipped in
/// quiescence.
pub(crate) const DELTA_MARGIN: i32 = 200;
/// Least depth at which a null move is tried.
const NULL_MOVE_DEPTH: i32 = 3;
/// Moves searched at full depth before late quiet moves are reduced.
const FULL_DEPTH_MOVES: usize = 3;
/// Least depth at which late moves are reduced.
const REDUCTION_DEPTH: i32 = 3;
/// Greatest depth at which moves that lose the exchange are pruned.
const EXCHANGE_PRUNING_DEPTH: i32 = 5;
/// A quiet move losing more than this times depth² is pruned.
const EXCHANGE_QUIET_MARGIN: i32 = 40;
/// A capture losing more than this times the depth is pruned.
const EXCHANGE_CAPTURE_MARGIN: i32 = 100;
/// Least depth at which a node without a hash move is searched one ply shallower.
const IIR_DEPTH: i32 = 4;
/// History score (ordering key) worth one ply less (or more) of late-move reduction.
const HISTORY_PER_PLY: i32 = 1 << 18;
/// Greatest depth at which late quiet moves are pruned.
const LATE_MOVE_PRUNING_DEPTH: i32 = 6;
/// Least depth at which a hash move is tested for being singular (much better than every
/// other move) and then searched a ply deeper.
const SINGULAR_DEPTH: i32 = 7;
/// The other moves must stay this much per ply below the hash move's stored score.
const SINGULAR_MARGIN: i32 = 2;
/// How many plies shallower than the node the hash move's entry may be for that test.
const SINGULAR_ENTRY_SHORTFALL: i32 = 3;
/// Half-width of the first aspiration window around the previous score.
const ASPIRATION_WINDOW: i32 = 40;
/// Least depth searched with an aspiration window.
const ASPIRATION_DEPTH: u32 = 5;
/// A new iteration is not started after this share (in 1/16) of the planned time.
pub(crate) const ITERATION_START_SHARE: u32 = 9;
/// Most lines [`Engine::set_multi_pv`] accepts.
pub const MAX_MULTI_PV: usize = 64;

/// What the search reports after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Score for the player to move at the root.
    pub score: Score,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Best line found (with several lines: the line's own).
    pub pv: Vec<M>,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// Which line this is, from 1 (the best) to the number of lines searched
    /// ([`Engine::set_multi_pv`]); the score is that line's.
    pub multipv: usize,
}

impl<M> SearchInfo<M> {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<M>,
    /// Score for the player to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Best line found (starting with `best`).
    pub pv: Vec<M>,
}

/// A searcher for one position type, keeping its tables between moves of a game.
pub struct Engine<P: Position> {
    tt: TranspositionTable<P::Move>,
    eval_cache: EvalCache,
    ordering: Ordering<P::Move>,
    stop: Arc<AtomicBool>,
    multiplayer: Multiplayer,
    /// Lines searched and reported per iteration.
    multi_pv: usize,
}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The evaluation cache's size beside a transposition table of `hash_mb` MiB: a quarter
/// (16 MiB by default), measured in chu shogi and shogi: 4 MiB had gained 2 % of speed in a
/// ten-second search, 32 MiB 7-11 %.
fn eval_cache_mb(hash_mb: usize) -> usize {
    hash_mb.div_ceil(4)
}

impl<P: Position> Default for Engine<P> {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl<P: Position> Engine<P> {
    /// An engine with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            eval_cache: EvalCache::new(eval_cache_mb(hash_mb)),
            ordering: Ordering::new(MAX_PLY),
            stop: Arc::new(AtomicBool::new(false)),
            multiplayer: Multiplayer::default(),
            multi_pv: 1,
        }
    }

    /// How many lines [`Engine::search`] finds and reports per iteration (UCI's MultiPV),
    /// clamped to `1..=MAX_MULTI_PV`: the best line, then the best with its first move
    /// excluded, and so on. The move played is always the first line's. Max^n and searches
    /// through a player's view report one line.
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.multi_pv = lines.clamp(1, MAX_MULTI_PV);
    }

    /// Lines searched per iteration.
    pub fn multi_pv(&self) -> usize {
        self.multi_pv
    }

    /// How games of more than two teams are searched from now on.
    pub fn set_multiplayer(&mut self, mode: Multiplayer) {
        self.multiplayer = mode;
    }

    /// How games of more than two teams are searched.
    pub fn multiplayer(&self) -> Multiplayer {
        self.multiplayer
    }

    /// Resizes (and clears) the transposition table and the evaluation cache beside it.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
        self.eval_cache = EvalCache::new(eval_cache_mb(hash_mb));
    }

    /// Forgets everything learnt (a new game, or a reproducible benchmark).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.eval_cache.clear();
        self.ordering.clear();
    }

    /// A flag that stops the running search when set (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Searches the game's current position within `limits`, calling `on_info` after each
    /// completed iteration. Returns the best move found (always a legal move when one
    /// exists, even if stopped at once). A game the rules have drawn is searched as if it
    /// went on ([`Game::legal_moves_ignoring_result`]): whoever asks decides the result.
    pub fn search(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        self.stop.store(false, AtomicOrdering::Relaxed);
        self.search_position(game, limits, self.multi_pv, on_info)
    }

    /// Whether the stop flag is set.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(AtomicOrdering::Relaxed)
    }

    /// Lowers the stop flag (at the start of a search made of several).
    pub(crate) fn clear_stop(&self) {
        self.stop.store(false, AtomicOrdering::Relaxed);
    }

    /// Transposition table use in permille.
    pub(crate) fn hashfull(&self) -> u32 {
        self.tt.permille_used()
    }

    /// [`Engine::search`] without lowering the stop flag first, so that a search made of
    /// several (one per sampled position) can be stopped as a whole.
    pub(crate) fn search_position(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
        multi_pv: usize,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        let start = Instant::now();
        let root = game.position();
        if self.multiplayer == Multiplayer::MaxN && team_count(root) > 2 {
            return crate::maxn::search(game, limits, &self.stop, on_info);
        }
        self.tt.new_search();
        self.ordering.new_search();
        let root_player = root.side_to_move();
        let mut root_moves: Vec<RootMove<P::Move>> = game
            .legal_moves_ignoring_result()
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                forced: match game.status_after(mv) {
                    Status::Over(o) => Some(outcome_for_root(&o, root_player, 1)),
                    Status::Ongoing { .. } => None,
                },
                pv: Vec::new(),
            })
            .collect();
        let mut result = SearchResult {
            best: root_moves.first().map(|r| r.mv),
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: root_moves.first().map(|r| r.mv).into_iter().collect(),
        };
        if root_moves.is_empty() {
            return result;
        }
        let budget = limits.budget();
        let mut searcher = Searcher {
            tt: &mut self.tt,
            eval_cache: &mut self.eval_cache,
            ordering: &mut self.ordering,
            watch: Watch::new(&self.stop, start, budget.hard, limits.nodes),
            root_player,
            root_team: root.team(root_player),
            teams: (0..root.players()).map(|p| root.team(p)).collect(),
            seldepth: 0,
            path: history_hashes(game),
            checked: game
                .positions()
                .iter()
                .map(|p| p.must_answer_check())
                .collect(),
            moves: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scored: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tried: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            null_at: vec![false; MAX_PLY + 1],
            evals: vec![None; MAX_PLY + 1],
        };
        searcher.order_root(root, &mut root_moves);
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 16).max(1);
        let lines = multi_pv.clamp(1, root_moves.len());
        let mut previous = 0;
        for depth in 1..=max_depth {
            searcher.seldepth = 0;
            let mut value = searcher.aspiration(root, &mut root_moves, depth, previous, 0);
            let mut completed = !searcher.watch.stopped;
            if completed || root_moves[0].score > -INFINITY {
                result.best = Some(root_moves[0].mv);
                result.pv = searcher.root_pv(&root_moves[0]);
            }
            // Further lines: the best move among those not yet on a line of this iteration.
            // The score last found at the line's place centres its aspiration window: the
            // line there before, or a move close to it in score.
            if lines > 1 {
                root_moves[0].pv = result.pv.clone();
            }
            for line in 1..lines {
                if !completed {
                    break;
                }
                let centre = root_moves[line].score;
                let centre = if centre > -INFINITY { centre } else { value };
                searcher.aspiration(root, &mut root_moves[line..], depth, centre, line);
                completed = !searcher.watch.stopped;
                if completed {
                    root_moves[line].pv = searcher.root_pv(&root_moves[line]);
                }
            }
            if !completed {
                break;
            }
            if lines > 1 {
                // A later line may score better than an earlier one (the search is not exact):
                // the lines are reported best first, and the first is played.
                root_moves[..lines].sort_by_key(|r| std::cmp::Reverse(r.score));
                value = root_moves[0].score;
                result.best = Some(root_moves[0].mv);
                result.pv = root_moves[0].pv.clone();
            }
            previous = value;
            result.score = Score::from_value(value);
            result.depth = depth;
            result.nodes = searcher.watch.nodes;
            result.elapsed = start.elapsed();
            for (line, root_move) in root_moves[..lines].iter().enumerate() {
                on_info(&SearchInfo {
                    depth,
                    seldepth: searcher.seldepth as u32,
                    score: if line == 0 {
                        result.score
                    } else {
                        Score::from_value(root_move.score)
                    },
                    nodes: searcher.watch.nodes,
                    elapsed: result.elapsed,
                    pv: if line == 0 {
                        result.pv.clone()
                    } else {
                        root_move.pv.clone()
                    },
                    hashfull: searcher.tt.permille_used(),
                    multipv: line + 1,
                });
            }
            if searcher.should_end_after_iteration(&budget, limits, depth, value, root_moves.len())
            {
                break;
            }
        }
        result.nodes = searcher.watch.nodes;
        result.elapsed = start.elapsed();
        result
    }
}

/// How games of more than two teams are searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Multiplayer {
    /// The root player's team against all the others as one (alpha-beta applies). The
    /// default: it won the measured match against max^n (`docs/performance.md`).
    #[default]
    Paranoid,
    /// Max^n: every player picks the move best for himself by his own evaluation
    /// (`crate::maxn`).
    MaxN,
}

/// Number of different teams among the position's players.
fn team_count<P: Position>(position: &P) -> usize {
    let mut teams: Vec<usize> = (0..position.players()).map(|p| position.team(p)).collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len()
}

/// A root move with its latest score.
struct RootMove<M> {
    mv: M,
    score: i32,
    /// The value when the move ends the game by the game's history (a repetition judged,
    /// a draw rule), from the root player's view.
    forced: Option<i32>,
    /// The line it led in the latest iteration that searched it as a line of its own.
    pv: Vec<M>,
}

/// A move with its ordering key and its immediate gain.
#[derive(Clone, Copy)]
struct Scored<M> {
    key: i32,
    mv: M,
    gain: i32,
    /// The exchange on the move's cell ([`Position::static_exchange`]) where it was computed
    /// (captures that may lose), else 0.
    exchange: i32,
}

impl<M> Scored<M> {
    /// A capture that loses material once the exchange on its cell is over.
    fn losing(&self) -> bool {
        self.exchange < 0
    }
}

/// The hashes of the game's positions at repetition points (0 elsewhere), oldest first.
pub(crate) fn history_hashes<P: Position>(game: &Game<P>) -> Vec<u64> {
    game.positions()
        .iter()
        .map(|p| if p.repetition_point() { p.hash() } else { 0 })
        .collect()
}

/// Whether a draw rule (moves without progress, the game-length cap) ends the game here.
pub(crate) fn drawn_by_rule<P: Position>(pos: &P) -> bool {
    let rules = pos.draw_rules();
    rules
        .quiet_plies
        .is_some_and(|(n, _)| pos.quiet_plies() >= n)
        || rules
            .ply_cap
            .is_some_and(|cap| pos.ply() >= cap && !pos.is_check())
        || pos.is_dead()
}

/// The value of a finished game for the root player, `ply` plies from the root.
pub(crate) fn outcome_for_root(outcome: &Outcome, root_player: usize, ply: usize) -> i32 {
    match outcome.quarters.get(root_player).copied().unwrap_or(2) {
        4 => MATE - ply as i32,
        0 => -(MATE - ply as i32),
        q => (q as i32 - 2) * QUARTER_POINT,
    }
}

/// The state of one search.
struct Searcher<'e, P: Position> {
    tt: &'e mut TranspositionTable<P::Move>,
    eval_cache: &'e mut EvalCache,
    ordering: &'e mut Ordering<P::Move>,
    watch: Watch<'e>,
    root_player: usize,
    /// The root player's team, and every player's: partners are searched as one side.
    root_team: usize,
    teams: Vec<usize>,
    seldepth: usize,
    /// Hashes of the game's positions and of the search path (0 where positions are not
    /// compared for repetition).
    path: Vec<u64>,
    /// Whether the player to move had to answer a check in each position of `path`, to
    /// judge a repetition by its checks ([`Position::judge_repetition_in_search`]; the
    /// rulesets that do are those where every check must be answered).
    checked: Vec<bool>,
    moves: Vec<Vec<P::Move>>,
    scored: Vec<Vec<Scored<P::Move>>>,
    tried: Vec<Vec<P::Move>>,
    pv: Vec<Vec<P::Move>>,
    /// Plies at which the search passed (null-move pruning).
    null_at: Vec<bool>,
    /// Per ply, the mover and his static evaluation (`None` in check).
    evals: Vec<Option<(usize, i32)>>,
}

impl<P: Position> Searcher<'_, P> {
    /// Whether `player` is on the root player's team.
    fn on_root_team(&self, player: usize) -> bool {
        self.teams.get(player).copied() == Some(self.root_team)
    }

    /// A root-view value seen by `mover`'s team.
    fn for_mover(&self, root_value: i32, mover: usize) -> i32 {
        if self.on_root_team(mover) {
            root_value
        } else {
            -root_value
        }
    }

    fn static_eval(&mut self, pos: &P) -> i32 {
        let hash = pos.hash();
        let v = match self.eval_cache.get(hash, self.root_player) {
            Some(v) => v,
            None => {
                let v = pos
                    .evaluate(self.root_player)
                    .clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
                self.eval_cache.put(hash, self.root_player, v);
                v
            }
        };
        self.for_mover(v, pos.side_to_move())
    }

    fn outcome_value(&self, outcome: &Outcome, mover: usize, ply: usize) -> i32 {
        self.for_mover(outcome_for_root(outcome, self.root_player, ply), mover)
    }

    /// The value of `pos` for its mover if it repeats a position of the game or the search
    /// path: a draw, unless the ruleset judges the repetition by its checks.
    fn repetition_value(&self, pos: &P, hash: u64, ply: usize) -> Option<i32> {
        let earlier = repetition_at(&self.path, pos, hash)?;
        if pos.players() != 2 {
            return Some(0);
        }
        // The cycle's positions after the earlier occurrence, `pos` last: a player checked
        // with every move if his opponent was in check in each position where it was the
        // opponent's turn.
        let now = self.path.len();
        let mover = pos.side_to_move();
        let mut perpetual = [true, true];
        for (at, &checked) in self.checked.iter().enumerate().skip(earlier + 1) {
            let to_move = if (now - at).is_multiple_of(2) {
                mover
            } else {
                1 - mover
            };
            perpetual[1 - to_move] &= checked;
        }
        perpetual[1 - mover] &= pos.must_answer_check();
        Some(
            pos.judge_repetition_in_search(perpetual)
                .map_or(0, |o| self.outcome_value(&o, mover, ply)),
        )
    }

    /// Enters a node of the search path: its key and whether its mover is in check.
    fn enter(&mut self, hash: u64, in_check: bool) {
        self.path.push(hash);
        self.checked.push(in_check);
    }

    fn leave(&mut self) {
        self.path.pop();
        self.checked.pop();
    }

    fn drawn_by_rule(pos: &P) -> bool {
        drawn_by_rule(pos)
    }

    fn should_end_after_iteration(
        &self,
        budget: &Budget,
        limits: &Limits,
        depth: u32,
        value: i32,
        root_moves: usize,
    ) -> bool {
        if limits.infinite {
            return false;
        }
        let timed = budget.soft.is_some();
        if timed && root_moves == 1 {
            return true;
        }
        // A forced result found with room to spare will not change.
        if value.abs() > MATE_BOUND && limits.depth.is_none() {
            let distance = (MATE - value.abs()) as u32;
            if depth > distance * 2 + 4 {
                return true;
            }
        }
        // A fixed time per move is the user's to spend: the hard limit ends the last
        // iteration, whose best move so far is kept.
        if limits.move_time.is_some() {
            return false;
        }
        match budget.soft {
            Some(soft) => self.watch.start.elapsed() >= soft * ITERATION_START_SHARE / 16,
            None => false,
        }
    }

    /// Orders the root moves for the first iteration.
    fn order_root(&mut self, root: &P, root_moves: &mut [RootMove<P::Move>]) {
        let mover = root.side_to_move();
        let mut keys: Vec<i32> = root_moves
            .iter()
            .map(|r| {
                let v = root.move_value(r.mv);
                self.ordering.key(mover, 0, &r.mv, v.gain, v.mover)
            })
            .collect();
        if let Some(e) = self.tt.probe(root.hash())
            && let Some(best) = e.best
            && let Some(i) = root_moves.iter().position(|r| r.mv == best)
        {
            keys[i] = HASH_MOVE;
        }
        let mut order: Vec<usize> = (0..root_moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        let mut sorted: Vec<Option<RootMove<P::Move>>> = Vec::new();
        sorted.resize_with(root_moves.len(), || None);
        for (slot, &i) in sorted.iter_mut().zip(&order) {
            *slot = Some(RootMove {
                mv: root_moves[i].mv,
                score: root_moves[i].score,
                forced: root_moves[i].forced,
                pv: std::mem::take(&mut root_moves[i].pv),
            });
        }
        for (r, s) in root_moves.iter_mut().zip(sorted) {
            *r = s.expect("every slot is filled");
        }
    }

    /// The best line starting with `best`.
    fn root_pv(&self, best: &RootMove<P::Move>) -> Vec<P::Move> {
        let mut pv = vec![best.mv];
        if self.pv[0].first() == Some(&best.mv) {
            pv.extend_from_slice(&self.pv[0][1..]);
        }
        pv
    }

    /// One iteration of line `line` (0: the best line) over `root_moves`, the moves not on
    /// an earlier line, with a narrow window around the previous score first.
    fn aspiration(
        &mut self,
        root: &P,
        root_moves: &mut [RootMove<P::Move>],
        depth: u32,
        previous: i32,
        line: usize,
    ) -> i32 {
        if depth < ASPIRATION_DEPTH || previous.abs() > MATE_BOUND {
            return self.search_root(root, root_moves, depth as i32, -INFINITY, INFINITY, line);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let v = self.search_root(root, root_moves, depth as i32, alpha, beta, line);
            if self.watch.stopped {
                return v;
            }
            if v <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if v >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return v;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Searches `root_moves` (for line `line`, the moves not on an earlier line) and puts
    /// the best first.
    fn search_root(
        &mut self,
        root: &P,
        root_moves: &mut [RootMove<P::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        line: usize,
    ) -> i32 {
        self.watch.nodes += 1;
        self.pv[0].clear();
        let mut best = -INFINITY;
        for i in 0..root_moves.len() {
            let mv = root_moves[i].mv;
            let value = match root_moves[i].forced {
                Some(v) => v,
                None => {
                    let mut child = root.clone();
                    child.play_unchecked(mv);
                    if i == 0 {
                        self.child(&child, true, depth - 1, 0, alpha, beta, true)
                    } else {
                        let mut v = self.child(&child, true, depth - 1, 0, alpha, alpha + 1, false);
                        if v > alpha && v < beta && !self.watch.stopped {
                            v = self.child(&child, true, depth - 1, 0, alpha, beta, true);
                        }
                        v
                    }
                }
            };
            if self.watch.stopped {
                break;
            }
            root_moves[i].score = value;
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    let mut line = vec![mv];
                    line.extend_from_slice(&self.pv[1]);
                    self.pv[0] = line;
                    // The best move so far leads the list, the rest keep their order.
                    root_moves[..=i].rotate_right(1);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        // A later line's best excludes better moves: not the root's value to remember.
        if !self.watch.stopped && line == 0 {
            let stored = root_moves[0].mv;
            let bound = if best >= beta {
                Bound::Lower
            } else if self.pv[0].first() == Some(&stored) {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                root.hash(),
                Some(stored),
                to_table(best, 0),
                depth as i16,
                bound,
                self.root_player as u8,
            );
        }
        best
    }

    /// Searches `child`, a position after a move by a player of team `mover_team`, and
    /// returns its value seen by that team.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        child: &P,
        mover_team: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        if self.on_root_team(child.side_to_move()) == mover_team {
            self.negamax(child, depth, ply + 1, alpha, beta, pv_node)
        } else {
            -self.negamax(child, depth, ply + 1, -beta, -alpha, pv_node)
        }
    }

    fn quiescence_child(
        &mut self,
        child: &P,
        mover_team: bool,
        ply: usize,
        qply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.on_root_team(child.side_to_move()) == mover_team {
            self.quiescence(child, ply + 1, qply + 1, alpha, beta)
        } else {
            -self.quiescence(child, ply + 1, qply + 1, -beta, -alpha)
        }
    }

    /// Fills the ply's scored list from its move list: hash move first, then by key.
    fn score_moves(
        &mut self,
        pos: &P,
        ply: usize,
        hash_move: Option<P::Move>,
        only_tactical: bool,
    ) {
        let mover = pos.side_to_move();
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for &mv in &self.moves[ply] {
            let v = pos.move_value(mv);
            if only_tactical && !v.is_tactical() {
                continue;
            }
            // Only a capture by a piece worth more than its victim can lose the exchange.
            let exchange = if v.is_tactical() && v.gain < v.mover {
                pos.static_exchange(mv)
            } else {
                0
            };
            let losing = exchange < 0;
            let key = if Some(mv) == hash_move {
                HASH_MOVE
            } else if losing {
                LOSING_TACTIC + exchange
            } else {
                self.ordering.key(mover, ply, &mv, v.gain, v.mover)
            };
            scored.push(Scored {
                key,
                mv,
                gain: v.gain,
                exchange,
            });
        }
        self.scored[ply] = scored;
    }

    /// Takes the best remaining move of the ply's list (selection sort: cut-offs come early).
    fn next_move(&mut self, ply: usize, from: usize) -> Option<Scored<P::Move>> {
        let list = &mut self.scored[ply];
        if from >= list.len() {
            return None;
        }
        let mut best = from;
        for i in from + 1..list.len() {
            if list[i].key > list[best].key {
                best = i;
            }
        }
        list.swap(from, best);
        Some(list[from])
    }

    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        update_pv(&mut self.pv, ply, mv);
    }

    fn negamax(
        &mut self,
        pos: &P,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.watch.out_of_budget() {
            return 0;
        }
        self.watch.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let mover = pos.side_to_move();
        if let Some(o) = pos.decided_outcome() {
            return self.outcome_value(&o, mover, ply);
        }
        let hash = pos.hash();
        if let Some(value) = self.repetition_value(pos, hash, ply) {
            return value;
        }
        if Self::drawn_by_rule(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        // A win found nearer the root makes longer ones irrelevant.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = pos.must_answer_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, 0, alpha, beta);
        }
        let mut hash_move = None;
        let mut singular_candidate = None;
        if let Some(e) = self.tt.probe(hash).copied() {
            hash_move = e.best;
            let comparable = pos.players() == 2 || e.root as usize == self.root_player;
            let stored = from_table(e.score, ply);
            if comparable && !pv_node && e.depth as i32 >= depth {
                match e.bound {
                    Bound::Exact => return stored,
                    Bound::Lower if stored >= beta => return stored,
                    Bound::Upper if stored <= alpha => return stored,
                    _ => {}
                }
            }
            if comparable
                && depth >= SINGULAR_DEPTH
                && e.bound != Bound::Upper
                && e.depth as i32 >= depth - SINGULAR_ENTRY_SHORTFALL
                && stored.abs() < MATE_BOUND
            {
                singular_candidate = e.best.map(|mv| (mv, stored));
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos)
        };
        // Whether the mover's position got better since his previous move: pruning may
        // then be bolder where it fails high, and more careful where it fails low.
        self.evals[ply] = (!in_check).then_some((mover, static_eval));
        let improving = match (ply.checked_sub(2).and_then(|p| self.evals[p]), in_check) {
            (Some((before_mover, before)), false) => before_mover == mover && static_eval > before,
            _ => false,
        };
        if !pv_node
            && !in_check
            && depth <= REVERSE_FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return static_eval;
        }

        let team = self.on_root_team(mover);
        if !pv_node
            && !in_check
            && depth >= NULL_MOVE_DEPTH
            && static_eval >= beta
            && beta.abs() < MATE_BOUND
            && !self.after_null(ply)
            && let Some(passed) = pos.null_move()
        {
            let reduction = 2 + depth / 4;
            self.null_at[ply] = true;
            self.enter(hash, false);
            let value = self.child(
                &passed,
                team,
                depth - 1 - reduction,
                ply,
                beta - 1,
                beta,
                false,
            );
            self.leave();
            self.null_at[ply] = false;
            if self.watch.stopped {
                return 0;
            }
            if value >= beta {
                return if value >= MATE_BOUND { beta } else { value };
            }
        }

        // Internal iterative reduction: with no move from an earlier search to try first,
        // the ordering is poor and a full-depth search of this node is worth less.
        if hash_move.is_none() && depth >= IIR_DEPTH {
            depth -= 1;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.candidate_moves(&mut moves);
        self.moves[ply] = moves;
        if self.moves[ply].is_empty() {
            return self.outcome_value(&pos.outcome_without_moves(), mover, ply);
        }
        self.score_moves(pos, ply, hash_move, false);
        self.tried[ply].clear();

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        self.enter(hash, in_check);
        let mut index = 0;
        let mut legal = 0usize;
        while let Some(Scored {
            mv,
            gain,
            key,
            exchange,
        }) = self.next_move(ply, index)
        {
            index += 1;
            if !pos.is_legal(mv) {
                continue;
            }
            legal += 1;
            let tactical = gain > 0;
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let gives_check = child.must_answer_check();
            let quiet = !tactical && !in_check && !gives_check;
            // Singular extension: a hash move that no other move comes near, searched a ply
            // deeper; where even the others reach beta, the node is cut at once.
            let mut extension = 0;
            if searched == 0
                && let Some((singular_move, stored)) = singular_candidate
                && singular_move == mv
            {
                let singular_beta = stored - SINGULAR_MARGIN * depth;
                match self.singular_test(pos, team, depth, ply, mv, singular_beta) {
                    None => {
                        self.leave();
                        return 0;
                    }
                    Some(true) => extension = 1,
                    Some(false) if singular_beta >= beta => {
                        self.leave();
                        return singular_beta;
                    }
                    Some(false) => {}
                }
            }
            if quiet && !pv_node && searched > 0 && best > -MATE_BOUND {
                if depth <= FUTILITY_DEPTH && static_eval + FUTILITY_MARGIN * depth <= alpha {
                    continue;
                }
                // Late-move pruning: in a node expected to fail low, quiet moves this far
                // down the ordered list almost never raise alpha.
                if depth <= LATE_MOVE_PRUNING_DEPTH && searched >= late_move_count(depth, improving)
                {
                    continue;
                }
                // A quiet move that hands the opponent material for nothing, near the leaves.
                if depth <= EXCHANGE_PRUNING_DEPTH
                    && pos.static_exchange(mv) < -EXCHANGE_QUIET_MARGIN * depth * depth
                {
                    continue;
                }
            }
            // A capture that loses more than a margin in the exchange, near the leaves.
            if exchange < -EXCHANGE_CAPTURE_MARGIN * depth
                && !pv_node
                && !in_check
                && searched > 0
                && best > -MATE_BOUND
                && depth <= EXCHANGE_PRUNING_DEPTH
            {
                continue;
            }
            let value = if searched == 0 {
                self.child(
                    &child,
                    team,
                    depth - 1 + extension,
                    ply,
                    alpha,
                    beta,
                    pv_node,
                )
            } else {
                let reduction = if quiet && depth >= REDUCTION_DEPTH && searched >= FULL_DEPTH_MOVES
                {
                    // Quiet moves that caused cut-offs elsewhere (killers, good history) are
                    // reduced less, and all are reduced more where the mover is not improving.
                    let adjust = i32::from(!improving) - (key / HISTORY_PER_PLY).clamp(-2, 2);
                    (late_move_reduction(depth, searched, pv_node) + adjust).clamp(0, depth - 2)
                } else {
                    0
                };
                let mut v = self.child(
                    &child,
                    team,
                    depth - 1 - reduction,
                    ply,
                    alpha,
                    alpha + 1,
                    false,
                );
                if v > alpha && reduction > 0 && !self.watch.stopped {
                    v = self.child(&child, team, depth - 1, ply, alpha, alpha + 1, false);
                }
                if v > alpha && v < beta && pv_node && !self.watch.stopped {
                    v = self.child(&child, team, depth - 1, ply, alpha, beta, true);
                }
                v
            };
            searched += 1;
            if self.watch.stopped {
                self.leave();
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        if !tactical {
                            let tried = std::mem::take(&mut self.tried[ply]);
                            self.ordering.reward(mover, ply, mv, depth, &tried);
                            self.tried[ply] = tried;
                        }
                        break;
                    }
                }
            }
            if !tactical {
                self.tried[ply].push(mv);
            }
        }
        self.leave();
        if legal == 0 {
            return self.outcome_value(&pos.outcome_without_moves(), mover, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            hash,
            best_move,
            to_table(best, ply),
            depth as i16,
            bound,
            self.root_player as u8,
        );
        best
    }

    /// Whether every move but `hash_move` stays below `singular_beta` at half the depth
    /// (`None` when the search was stopped).
    fn singular_test(
        &mut self,
        pos: &P,
        team: bool,
        depth: i32,
        ply: usize,
        hash_move: P::Move,
        singular_beta: i32,
    ) -> Option<bool> {
        let mut others: Vec<Scored<P::Move>> = self.scored[ply]
            .iter()
            .filter(|s| s.mv != hash_move)
            .copied()
            .collect();
        others.sort_unstable_by_key(|s| std::cmp::Reverse(s.key));
        for other in others {
            if !pos.is_legal(other.mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(other.mv);
            let value = self.child(
                &child,
                team,
                (depth - 1) / 2,
                ply,
                singular_beta - 1,
                singular_beta,
                false,
            );
            if self.watch.stopped {
                return None;
            }
            if value >= singular_beta {
                return Some(false);
            }
        }
        Some(true)
    }

    fn quiescence(&mut self, pos: &P, ply: usize, qply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.watch.out_of_budget() {
            return 0;
        }
        self.watch.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let mover = pos.side_to_move();
        if let Some(o) = pos.decided_outcome() {
            return self.outcome_value(&o, mover, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        let in_check = pos.must_answer_check();
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        if in_check {
            pos.candidate_moves(&mut moves);
        } else {
            pos.tactical_candidates(&mut moves);
        }
        self.moves[ply] = moves;
        if in_check && self.moves[ply].is_empty() {
            return self.outcome_value(&pos.outcome_without_moves(), mover, ply);
        }
        // Out of check, no capture left is not the end of the game: a stalemate below the
        // horizon is left to the full-width search.
        let stand = if in_check {
            -MATE + ply as i32
        } else {
            self.static_eval(pos)
        };
        if !in_check {
            if stand >= beta || qply >= MAX_QUIESCENCE_PLY {
                return stand;
            }
            alpha = alpha.max(stand);
        } else if qply >= MAX_QUIESCENCE_PLY {
            return self.static_eval(pos);
        }
        self.score_moves(pos, ply, None, !in_check);
        let team = self.on_root_team(mover);
        let mut best = stand;
        let mut index = 0;
        let mut legal = 0usize;
        while let Some(scored) = self.next_move(ply, index) {
            let Scored { mv, gain, .. } = scored;
            index += 1;
            if !in_check && stand + gain + DELTA_MARGIN <= alpha {
                continue;
            }
            if !pos.is_legal(mv) {
                continue;
            }
            legal += 1;
            if !in_check && scored.losing() {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let value = self.quiescence_child(&child, team, ply, qply, alpha, beta);
            if self.watch.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            // Every candidate evasion was illegal.
            return self.outcome_value(&pos.outcome_without_moves(), mover, ply);
        }
        best
    }

    /// Whether the move into this ply was a null move (two in a row prove nothing).
    fn after_null(&self, ply: usize) -> bool {
        ply > 0 && self.null_at[ply - 1]
    }
}

/// The node count and the limits a search checks as it goes (shared by the alpha-beta and
/// the max^n search).
pub(crate) struct Watch<'e> {
    stop: &'e AtomicBool,
    pub(crate) start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    pub(crate) nodes: u64,
    pub(crate) stopped: bool,
}

impl<'e> Watch<'e> {
    pub(crate) fn new(
        stop: &'e AtomicBool,
        start: Instant,
        hard: Option<Duration>,
        node_limit: Option<u64>,
    ) -> Self {
        Watch {
            stop,
            start,
            hard,
            node_limit,
            nodes: 0,
            stopped: false,
        }
    }

    /// Checks the limits every few nodes; true once the search must stop.
    pub(crate) fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.node_limit.is_some_and(|limit| self.nodes >= limit)
            || (self.nodes.is_multiple_of(CHECK_INTERVAL)
                && (self.stop.load(AtomicOrdering::Relaxed)
                    || self.hard.is_some_and(|h| self.start.elapsed() >= h)))
        {
            self.stopped = true;
        }
        self.stopped
    }
}

/// Whether `pos` (whose key is `hash`) repeats a position of `path`, the game's and the
/// search path's keys, since the last irreversible move.
pub(crate) fn repeats<P: Position>(path: &[u64], pos: &P, hash: u64) -> bool {
    repetition_at(path, pos, hash).is_some()
}

/// Where in `path` the latest earlier occurrence of `pos` (key `hash`) is, since the last
/// irreversible move.
fn repetition_at<P: Position>(path: &[u64], pos: &P, hash: u64) -> Option<usize> {
    if !pos.repetition_point() {
        return None;
    }
    let start = path.len().saturating_sub(pos.repetition_window() as usize);
    path[start..]
        .iter()
        .rposition(|&h| h == hash)
        .map(|i| start + i)
}

/// Makes `mv` and the line below it the principal line at `ply`.
pub(crate) fn update_pv<M: Copy>(pv: &mut [Vec<M>], ply: usize, mv: M) {
    let (head, tail) = pv.split_at_mut(ply + 1);
    let line = &mut head[ply];
    line.clear();
    line.push(mv);
    line.extend_from_slice(&tail[0]);
}

/// Plies to take off a late quiet move's search: growing with the logarithms of the depth
/// and of the move's place in the list (the later and deeper, the less likely it matters),
/// one less at principal-variation nodes, and never so much that less than one ply is left.
fn late_move_reduction(depth: i32, searched: usize, pv_node: bool) -> i32 {
    let depth_log = f64::from(depth.max(1)).ln();
    let place_log = (searched.max(1) as f64).ln();
    let r = (0.75 + depth_log * place_log / 2.25) as i32 - i32::from(pv_node);
    r.min(depth - 2).max(0)
}

/// Quiet moves searched at a non-PV node of `depth` before the rest are pruned (half as many
/// where the mover's position is not improving).
fn late_move_count(depth: i32, improving: bool) -> usize {
    let count = 3 + depth * depth;
    (if improving { count } else { count / 2 }) as usize
}
