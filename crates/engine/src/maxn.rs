//! Max^n search for games of more than two teams (three-player chess): every node holds one
//! value per player, each from that player's own evaluation, and the player to move picks
//! the child best for himself. Opponents are then expected to pursue their own ends rather
//! than to gang up on the root player as the paranoid search assumes; the price is that
//! alpha-beta does not apply, so the same nodes reach less deep. Which of the two plays
//! better was measured (`docs/performance.md`); the engine uses this search only when asked
//! ([`crate::Multiplayer::MaxN`]).
//!
//! Iterative deepening, the best move of each position from the last iteration tried first,
//! then captures by value; an immediate win for the mover ends the node's loop (the only
//! cut-off max^n allows without bounds on the sum of the values); a quiescence search in
//! which the mover may stand pat or take; check extension; repetitions and draw rules as in
//! the paranoid search.

use crate::limits::Limits;
use crate::score::{MATE, MATE_BOUND, QUARTER_POINT, Score};
use crate::search::{
    DELTA_MARGIN, ITERATION_START_SHARE, MAX_PLY, SearchInfo, SearchResult, Watch, drawn_by_rule,
    history_hashes, repeats, update_pv,
};
use chaturanga_rules::{Game, Outcome, Position, Status};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One value per player (more players than this are not searched by max^n).
type Values = [i32; MAX_PLAYERS];
const MAX_PLAYERS: usize = 4;
/// Quiescence plies from which only captures of a man worth at least the capturer are tried.
const EVEN_CAPTURES_FROM: usize = 1;
/// Deepest quiescence plies: without bounds every capture sequence of every player is
/// followed, so max^n's quiescence is kept short.
const MAXN_QUIESCENCE_PLY: usize = 4;
/// Entries of the best-move table before it is cleared (a memory bound).
const MAX_REMEMBERED: usize = 1 << 20;

struct MaxN<'a, P: Position> {
    players: usize,
    watch: Watch<'a>,
    seldepth: usize,
    path: Vec<u64>,
    /// Best move found for a position in earlier iterations, tried first.
    best_moves: HashMap<u64, P::Move>,
    pv: Vec<Vec<P::Move>>,
}

/// The values of a finished game, `ply` plies from the root.
fn outcome_values(outcome: &Outcome, players: usize, ply: usize) -> Values {
    let mut v = [0; MAX_PLAYERS];
    for (p, value) in v.iter_mut().enumerate().take(players) {
        *value = match outcome.quarters.get(p).copied().unwrap_or(2) {
            4 => MATE - ply as i32,
            0 => -(MATE - ply as i32),
            q => (q as i32 - 2) * QUARTER_POINT,
        };
    }
    v
}

/// Searches the game's position with max^n within `limits`.
pub(crate) fn search<P: Position>(
    game: &Game<P>,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
) -> SearchResult<P::Move> {
    let start = Instant::now();
    let root = game.position();
    let me = root.side_to_move();
    let players = root.players().min(MAX_PLAYERS);
    let mut moves: Vec<(P::Move, Option<Values>)> = game
        .legal_moves_ignoring_result()
        .into_iter()
        .map(|mv| {
            let forced = match game.status_after(mv) {
                Status::Over(o) => Some(outcome_values(&o, players, 1)),
                Status::Ongoing { .. } => None,
            };
            (mv, forced)
        })
        .collect();
    moves.sort_by_key(|(mv, _)| std::cmp::Reverse(root.move_value(*mv).gain));
    let mut result = SearchResult {
        best: moves.first().map(|m| m.0),
        score: Score::Centipawns(0),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: moves.first().map(|m| m.0).into_iter().collect(),
    };
    if moves.is_empty() {
        return result;
    }
    let budget = limits.budget();
    let mut s = MaxN {
        players,
        watch: Watch::new(stop, start, budget.hard, limits.nodes),
        seldepth: 0,
        path: history_hashes(game),
        best_moves: HashMap::new(),
        pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
    };
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 16).max(1);
    for depth in 1..=max_depth {
        s.seldepth = 0;
        let mut best: Option<(usize, Values)> = None;
        for (i, &(mv, forced)) in moves.iter().enumerate() {
            let v = match forced {
                Some(v) => v,
                None => {
                    let mut child = root.clone();
                    child.play_unchecked(mv);
                    s.node(&child, depth as i32 - 1, 1)
                }
            };
            if s.watch.stopped {
                break;
            }
            if best.is_none_or(|(_, b)| v[me] > b[me]) {
                best = Some((i, v));
                let mut line = vec![mv];
                line.extend_from_slice(&s.pv[1]);
                s.pv[0] = line;
            }
        }
        let Some((i, v)) = best else { break };
        if s.watch.stopped {
            // The previous iteration's best move is searched first, so a move that beat it
            // in an unfinished iteration beat it at the new depth.
            result.best = Some(moves[i].0);
            result.pv = s.pv[0].clone();
            break;
        }
        // The best move leads the next iteration; the others keep their order.
        moves[..=i].rotate_right(1);
        result.best = Some(moves[0].0);
        result.pv = s.pv[0].clone();
        result.score = Score::from_value(v[me]);
        result.depth = depth;
        result.elapsed = start.elapsed();
        on_info(&SearchInfo {
            depth,
            seldepth: s.seldepth as u32,
            score: result.score,
            nodes: s.watch.nodes,
            elapsed: result.elapsed,
            pv: result.pv.clone(),
            hashfull: 0,
            multipv: 1,
        });
        if limits.infinite {
            continue;
        }
        if v[me].abs() > MATE_BOUND && limits.depth.is_none() {
            let distance = (MATE - v[me].abs()) as u32;
            if depth > distance * 2 + 4 {
                break;
            }
        }
        if budget
            .soft
            .is_some_and(|soft| start.elapsed() >= soft * ITERATION_START_SHARE / 16)
        {
            break;
        }
    }
    result.nodes = s.watch.nodes;
    result.elapsed = start.elapsed();
    result
}

impl<P: Position> MaxN<'_, P> {
    fn evaluate(&self, pos: &P) -> Values {
        let mut v = [0; MAX_PLAYERS];
        for (p, value) in v.iter_mut().enumerate().take(self.players) {
            *value = pos.evaluate(p).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        v
    }

    /// The legal moves, the remembered best first, then by what they win. `captures`: only
    /// moves that win material, and from `qply` [`EVEN_CAPTURES_FROM`] on only those that win
    /// at least what the mover is worth (without a bound to cut with, max^n's quiescence
    /// would otherwise follow every exchange to its end).
    fn ordered_moves(&self, pos: &P, hash: u64, captures: Option<usize>) -> Vec<(P::Move, i32)> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let remembered = self.best_moves.get(&hash).copied();
        let mut scored: Vec<(P::Move, i32, i32)> = moves
            .into_iter()
            .filter_map(|mv| {
                let value = pos.move_value(mv);
                let gain = value.gain;
                if let Some(qply) = captures
                    && (gain <= 0 || (qply >= EVEN_CAPTURES_FROM && gain < value.mover))
                {
                    return None;
                }
                let key = if Some(mv) == remembered {
                    i32::MAX
                } else {
                    gain
                };
                Some((mv, gain, key))
            })
            .collect();
        scored.sort_by_key(|&(_, _, key)| std::cmp::Reverse(key));
        scored.into_iter().map(|(mv, gain, _)| (mv, gain)).collect()
    }

    fn node(&mut self, pos: &P, mut depth: i32, ply: usize) -> Values {
        self.pv[ply].clear();
        if self.watch.out_of_budget() {
            return [0; MAX_PLAYERS];
        }
        self.watch.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = pos.decided_outcome() {
            return outcome_values(&o, self.players, ply);
        }
        let hash = pos.hash();
        if repeats(&self.path, pos, hash) || drawn_by_rule(pos) {
            return [0; MAX_PLAYERS];
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        if pos.must_answer_check() {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, 0);
        }
        let moves = self.ordered_moves(pos, hash, None);
        if moves.is_empty() {
            return outcome_values(&pos.outcome_without_moves(), self.players, ply);
        }
        let mover = pos.side_to_move().min(MAX_PLAYERS - 1);
        let win_now = MATE - (ply as i32 + 1);
        let mut best: Option<(Values, P::Move)> = None;
        self.path.push(hash);
        for (mv, _) in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let v = self.node(&child, depth - 1, ply + 1);
            if self.watch.stopped {
                self.path.pop();
                return [0; MAX_PLAYERS];
            }
            if best.is_none_or(|(b, _)| v[mover] > b[mover]) {
                best = Some((v, mv));
                update_pv(&mut self.pv, ply, mv);
                if v[mover] >= win_now {
                    break;
                }
            }
        }
        self.path.pop();
        let (v, mv) = best.expect("a move was searched");
        if self.best_moves.len() >= MAX_REMEMBERED {
            self.best_moves.clear();
        }
        self.best_moves.insert(hash, mv);
        v
    }

    fn quiescence(&mut self, pos: &P, ply: usize, qply: usize) -> Values {
        self.pv[ply].clear();
        if self.watch.out_of_budget() {
            return [0; MAX_PLAYERS];
        }
        self.watch.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = pos.decided_outcome() {
            return outcome_values(&o, self.players, ply);
        }
        // Only where the search runs into quiescence in check are evasions searched (a
        // mate on the horizon); deeper, checks are left to the static evaluation, as every
        // evasion of every player would be followed to the end.
        let in_check = qply == 0 && pos.must_answer_check();
        let hash = pos.hash();
        let moves = self.ordered_moves(pos, hash, (!in_check).then_some(qply));
        if in_check && moves.is_empty() {
            return outcome_values(&pos.outcome_without_moves(), self.players, ply);
        }
        let stand = self.evaluate(pos);
        if qply >= MAXN_QUIESCENCE_PLY || ply >= MAX_PLY - 1 || moves.is_empty() {
            return stand;
        }
        let mover = pos.side_to_move().min(MAX_PLAYERS - 1);
        // In check every move is searched and standing pat is no choice.
        let mut best: Option<Values> = (!in_check).then_some(stand);
        for (mv, gain) in moves {
            if let Some(b) = best
                && !in_check
                && stand[mover] + gain + DELTA_MARGIN <= b[mover]
            {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let v = self.quiescence(&child, ply + 1, qply + 1);
            if self.watch.stopped {
                return [0; MAX_PLAYERS];
            }
            if best.is_none_or(|b| v[mover] > b[mover]) {
                best = Some(v);
                update_pv(&mut self.pv, ply, mv);
            }
        }
        best.unwrap_or(stand)
    }
}
