//! Search under hidden information by determinization: positions are drawn from the player's
//! view ([`Position::determinize`]), each is searched with a share of the budget by the
//! ordinary search, and the move most samples choose is played.
//!
//! The search of a view is a function of the view text, the limits, the seed and the engine's
//! tables only: it never holds the true position, so it cannot use what the player may not
//! know. Why a vote and not an average: the principal variation search gives an exact score
//! only for the best move of each sample (the others are bounds), so averages over samples
//! would mix exact scores with bounds; a vote needs only each sample's choice. Ties go to the
//! move with the larger sum of the scores of the samples that chose it, then to the move
//! chosen first.

use crate::limits::Limits;
use crate::score::{MATE, Score};
use crate::search::{Engine, SearchInfo, SearchResult};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position, ViewError};
use std::time::{Duration, Instant};

/// Time per sample when a search under hidden information is told to run until stopped.
const INFINITE_SAMPLE_TIME: Duration = Duration::from_secs(1);

/// How positions are drawn from a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Positions drawn and searched (at least one is).
    pub samples: usize,
    /// Seed of the draws; mixed with the view's text, so that every view gets its own draws
    /// and the same view and seed always the same.
    pub seed: u64,
}

/// Positions searched per move by default: enough for a vote to mean something, few enough
/// that each still gets an eighth of the budget.
pub const DEFAULT_SAMPLES: usize = 8;

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            samples: DEFAULT_SAMPLES,
            seed: 0x5EED_DA4C_0000_0001,
        }
    }
}

/// One candidate of the vote.
struct Ballot<M> {
    mv: M,
    votes: u32,
    /// Sum of the values (internal units) of the samples that chose it.
    sum: i64,
}

/// A score as a number that can be summed: forced results as their internal value.
fn value_of(score: Score) -> i64 {
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Win { plies } if plies >= 0 => i64::from(MATE - plies),
        Score::Win { plies } => -i64::from(MATE + plies),
    }
}

/// FNV-1a of the view, mixed into the seed.
fn text_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The limits of one of `samples` searches sharing `limits`.
fn share(limits: &Limits, samples: usize) -> Limits {
    let n = samples.max(1) as u32;
    let budget = limits.budget();
    let move_time = if limits.infinite {
        Some(INFINITE_SAMPLE_TIME)
    } else {
        budget.soft.map(|t| (t / n).max(Duration::from_millis(1)))
    };
    Limits {
        depth: limits.depth,
        nodes: limits.nodes.map(|nodes| (nodes / u64::from(n)).max(1)),
        move_time,
        clock: None,
        infinite: false,
        overhead: Duration::ZERO,
    }
}

impl<P: Position> Engine<P> {
    /// Searches the game's position as the player to move knows it. When the ruleset hides
    /// information ([`Position::player_view`] gives a view), this is [`Engine::search_view`]
    /// of his view, and the move is the true game's legal move of the same text; else the
    /// ordinary [`Engine::search`]. So front ends call this for every ruleset and never ask
    /// which one they play.
    ///
    /// The list of legal moves is the one thing taken from the true game: the rules offer a
    /// player exactly his legal moves. Should no position fit the view (the ruleset's own
    /// views always fit), the first legal move is returned unsearched. The line of a result
    /// under hidden information is its move alone: the rest would be moves in one sample.
    pub fn search_hidden(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
        sampling: &Sampling,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        let root = game.position();
        let Some(view) = root.player_view(root.side_to_move()) else {
            return self.search(game, limits, on_info);
        };
        let start = Instant::now();
        let legal = game.legal_moves_ignoring_result();
        let as_legal = |mv: P::Move| {
            legal.iter().copied().find(|&m| m == mv).or_else(|| {
                let text = root.move_text(mv);
                legal.iter().copied().find(|&m| root.move_text(m) == text)
            })
        };
        let mut result = match self.search_view(&view, limits, sampling, &mut |info| {
            let mut info = info.clone();
            info.pv = info
                .pv
                .first()
                .and_then(|&m| as_legal(m))
                .into_iter()
                .collect();
            on_info(&info);
        }) {
            Ok(result) => result,
            Err(_) => SearchResult {
                best: None,
                score: Score::Centipawns(0),
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            },
        };
        result.best = result
            .best
            .and_then(as_legal)
            .or_else(|| legal.first().copied());
        result.pv = result.best.into_iter().collect();
        result
    }

    /// Searches the position described by `view` (what [`Position::player_view`] wrote for
    /// the player to move): draws `sampling.samples` positions from it
    /// ([`Position::determinize`]), searches each with an equal share of `limits` (nodes and
    /// time divided, depth as given), and returns the move most of them chose (see the module
    /// comment), with the average score of the samples that chose it. `on_info` is called
    /// after each sample with the leading move so far. A stop request ends the search after
    /// the sample being searched.
    ///
    /// Errors: the ruleset has no hidden information, the view is not one of its views, or no
    /// position fits it.
    pub fn search_view(
        &mut self,
        view: &str,
        limits: &Limits,
        sampling: &Sampling,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> Result<SearchResult<P::Move>, ViewError> {
        let start = Instant::now();
        self.clear_stop();
        let mut rng = SplitMix64::new(sampling.seed ^ text_hash(view));
        let per_sample = share(limits, sampling.samples);
        let mut ballots: Vec<Ballot<P::Move>> = Vec::new();
        let mut nodes = 0;
        let mut depth = 0;
        let mut failure = None;
        for _ in 0..sampling.samples.max(1) {
            let position = match P::determinize(view, &mut rng) {
                Ok(position) => position,
                Err(e @ ViewError::NoFit(_)) => {
                    // Another draw may fit; report only when none does.
                    failure = Some(e);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let game = Game::new(position);
            let sample = self.search_position(&game, &per_sample, 1, &mut |_| {});
            nodes += sample.nodes;
            depth = if ballots.is_empty() {
                sample.depth
            } else {
                depth.min(sample.depth)
            };
            if let Some(mv) = sample.best {
                let value = value_of(sample.score);
                match ballots.iter_mut().find(|b| b.mv == mv) {
                    Some(b) => {
                        b.votes += 1;
                        b.sum += value;
                    }
                    None => ballots.push(Ballot {
                        mv,
                        votes: 1,
                        sum: value,
                    }),
                }
            }
            if let Some(leader) = leader(&ballots) {
                on_info(&SearchInfo {
                    depth: sample.depth,
                    seldepth: sample.depth,
                    score: average(leader),
                    nodes,
                    elapsed: start.elapsed(),
                    pv: vec![leader.mv],
                    hashfull: self.hashfull(),
                    multipv: 1,
                });
            }
            if self.stopped() {
                break;
            }
        }
        let Some(leader) = leader(&ballots) else {
            return Err(failure.unwrap_or_else(|| ViewError::NoFit("no move".to_string())));
        };
        Ok(SearchResult {
            best: Some(leader.mv),
            score: average(leader),
            depth,
            nodes,
            elapsed: start.elapsed(),
            pv: vec![leader.mv],
        })
    }
}

/// The move with the most votes; ties to the larger score sum, then to the earlier.
fn leader<M>(ballots: &[Ballot<M>]) -> Option<&Ballot<M>> {
    let mut best: Option<&Ballot<M>> = None;
    for b in ballots {
        if best.is_none_or(|l| (b.votes, b.sum) > (l.votes, l.sum)) {
            best = Some(b);
        }
    }
    best
}

/// The average score of the samples that chose a move.
fn average<M>(ballot: &Ballot<M>) -> Score {
    let mean = ballot.sum / i64::from(ballot.votes.max(1));
    Score::from_value(mean.clamp(-i64::from(MATE), i64::from(MATE)) as i32)
}
