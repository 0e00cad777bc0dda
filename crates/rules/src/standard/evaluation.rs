//! The shared evaluation of standard positions: material and placement from the spec's
//! [`EvalTables`], pieces in hand, mobility against each piece's average, passed pawns,
//! pieces attacked by lesser ones, pairs of pieces confined to different regions (bishops),
//! and royal safety where the ruleset has a single royal piece to attack; its weights are
//! the tables' [`EvalWeights`](crate::weights::EvalWeights).
//!
//! One walk over the board ([`walk`]) feeds either the score or, for the tuner, the
//! evaluation's features: what each tuned weight is multiplied by ([`EvalFeatures`]).

use super::{Move, Rules, Spec, Special, StandardPosition};
use crate::eval::{EvalTables, MoveValue, Tapered};
use crate::piece::{Kind, Player};
use crate::tables::PieceBoard;
use crate::weights::{EvalWeights, TUNED};
use chaturanga_geometry::{Cell, CellSet};

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// The shared evaluation from `player`'s point of view, in centipawns.
    pub fn standard_evaluation(&self, player: Player) -> i32 {
        evaluate(self.spec(), self, player, self.turn(), |side, kind| {
            self.in_hand(side, kind)
        })
    }

    /// The shared evaluation's features (see [`EvalFeatures`]), for the tuner.
    pub fn standard_features(&self) -> EvalFeatures {
        features(self.spec(), self, self.turn(), |side, kind| {
            self.in_hand(side, kind)
        })
    }

    /// What `mv` wins at once (capture, promotion) and the value of the moving piece.
    pub fn standard_move_value(&self, mv: Move) -> MoveValue {
        let spec = self.spec();
        let values = &spec.eval.values;
        let mut gain = 0;
        if mv.captured.is_some() {
            let k = mv.captured.kind() as usize;
            gain += values[k];
            if spec.captures_to_hand {
                gain += spec.eval.hand_values[spec.demoted[k] as usize];
            }
        }
        if let Some(p) = mv.promotion
            && mv.special != Special::Drop
        {
            gain += (values[p as usize] - values[mv.kind as usize]).max(0);
        }
        MoveValue {
            gain,
            mover: values[mv.kind as usize],
        }
    }
}

/// The evaluation of a board that is not a [`StandardPosition`] but uses a [`Spec`]'s pieces
/// (own position types such as Congo's or the large shogi boards'), from `player`'s point of
/// view: the same terms as [`StandardPosition::standard_evaluation`] without hands.
pub fn board_evaluation<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    player: Player,
    to_move: Player,
) -> i32 {
    evaluate(spec, board, player, to_move, |_, _| 0)
}

/// The features of [`board_evaluation`] (see [`EvalFeatures`]), for the tuner.
pub fn board_features<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    to_move: Player,
) -> EvalFeatures {
    features(spec, board, to_move, |_, _| 0)
}

/// Material and placement, mobility against each piece's average, pieces in hand (`in_hand`
/// counts them), royal safety where a side has a single royal piece, and the tempo.
fn evaluate<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    player: Player,
    to_move: Player,
    in_hand: impl Fn(Player, Kind) -> u8,
) -> i32 {
    let tables = &spec.eval;
    let mut score = Score {
        tables,
        sides: [Tapered::default(); 2],
    };
    let phase = walk(spec, board, in_hand, &mut score);
    let mut total = score.sides[player as usize];
    total -= score.sides[1 - player as usize];
    let tempo = tables.weights.tempo;
    total.blend(phase, tables.full_phase) + if to_move == player { tempo } else { -tempo }
}

/// What the walk over a board reports, term by term, for each side.
trait Terms {
    /// Whether the walk must report terms whose weights are zero (the tuner fits them).
    const EVERY_TERM: bool;
    /// `count` pieces of `kind` in `side`'s hand.
    fn hand(&mut self, side: usize, kind: Kind, count: i32);
    /// A piece on a cell: its value and placement.
    fn piece(&mut self, side: usize, kind: Kind, cell: Cell);
    /// A piece reaching `above` sixteenths of a cell more than its average.
    fn mobility(&mut self, side: usize, above: i32);
    /// `count` own pieces next to `side`'s royal piece.
    fn shelter(&mut self, side: usize, count: i32);
    /// `side`'s royal piece faces `units` danger units.
    fn danger(&mut self, side: usize, units: usize);
    /// A passed pawn of `side`, `distance` moves from promotion.
    fn passed(&mut self, side: usize, distance: u32);
    /// `count` enemy pieces attacked by pieces of `side` worth less.
    fn threats(&mut self, side: usize, count: i32);
    /// `side` has confined pieces of one kind in two regions or more.
    fn pair(&mut self, side: usize);
}

/// The terms summed into each side's score.
struct Score<'t> {
    tables: &'t EvalTables,
    sides: [Tapered; 2],
}

impl Terms for Score<'_> {
    const EVERY_TERM: bool = false;

    #[inline(always)]
    fn hand(&mut self, side: usize, kind: Kind, count: i32) {
        self.sides[side] += Tapered::flat(count * self.tables.hand_values[kind as usize]);
    }

    #[inline(always)]
    fn piece(&mut self, side: usize, kind: Kind, cell: Cell) {
        self.sides[side] += self.tables.square(side as Player, kind, cell);
    }

    #[inline(always)]
    fn mobility(&mut self, side: usize, above: i32) {
        let w = &self.tables.weights;
        self.sides[side].opening += above * w.mobility_opening / 16;
        self.sides[side].endgame += above * w.mobility_endgame / 16;
    }

    #[inline(always)]
    fn shelter(&mut self, side: usize, count: i32) {
        self.sides[side].opening += count * self.tables.weights.shelter;
    }

    #[inline(always)]
    fn danger(&mut self, side: usize, units: usize) {
        let table = &self.tables.weights.royal_danger;
        self.sides[side].opening -= table[units.min(table.len() - 1)];
    }

    #[inline(always)]
    fn passed(&mut self, side: usize, distance: u32) {
        let table = &self.tables.weights.passed;
        let bonus = table[(distance as usize).min(table.len() - 1)];
        self.sides[side].opening += bonus * 3 / 8;
        self.sides[side].endgame += bonus;
    }

    #[inline(always)]
    fn threats(&mut self, side: usize, count: i32) {
        let w = &self.tables.weights;
        self.sides[side].opening += count * w.threat_opening;
        self.sides[side].endgame += count * w.threat_endgame;
    }

    #[inline(always)]
    fn pair(&mut self, side: usize) {
        let w = &self.tables.weights;
        self.sides[side].opening += w.pair_opening;
        self.sides[side].endgame += w.pair_endgame;
    }
}

/// Walks `board`, reporting every term to `terms`; returns the game phase.
///
/// Pieces in hand count towards the game phase: in drop games material never leaves the
/// game, so the king must not walk out as if the board were emptying.
#[inline(always)]
fn walk<const W: usize, B: PieceBoard<W>, T: Terms>(
    spec: &Spec<W>,
    board: &B,
    in_hand: impl Fn(Player, Kind) -> u8,
    terms: &mut T,
) -> i32 {
    let tables = &spec.eval;
    let weights = &tables.weights;
    let occupied = board.cells_of_player(0) | board.cells_of_player(1);
    let empty = spec.cells.without(occupied);
    let mut phase = 0;
    let mut danger_units = [0usize; 2];
    let zones = [royal_zone(spec, board, 0), royal_zone(spec, board, 1)];
    let board_units = weights.board_attacker_units.max(0) as usize;
    let hand_units = weights.hand_attacker_units.max(0) as usize;
    let structure = &spec.structure;
    let scores_passed = T::EVERY_TERM || weights.passed.iter().any(|&b| b != 0);
    let scores_threats =
        T::EVERY_TERM || weights.threat_opening != 0 || weights.threat_endgame != 0;
    let scores_pairs = T::EVERY_TERM || weights.pair_opening != 0 || weights.pair_endgame != 0;
    let values = &tables.values;
    let pawns: [CellSet<W>; 2] = if scores_passed || scores_threats {
        [0, 1].map(|player: Player| {
            structure
                .pawn_kinds(player)
                .iter()
                .fold(CellSet::EMPTY, |set, &k| set | board.cells_of_kind(k))
                & board.cells_of_player(player)
        })
    } else {
        [CellSet::EMPTY; 2]
    };
    for side in 0..2u8 {
        let s = side as usize;
        let enemy = board.cells_of_player(1 - side);
        let enemy_pawns = pawns[1 - s];
        let mut threats = 0;
        if scores_threats {
            // Enemy pieces our pawns attack: worth more than a pawn, or they would be pawns.
            let own_pawns = pawns[s];
            if !own_pawns.is_empty() {
                for cell in enemy.without(enemy_pawns) {
                    let victim = board.piece_at(cell).kind();
                    if spec.is_royal(victim) {
                        continue;
                    }
                    let attacked = structure.pawn_kinds(side).iter().any(|&k| {
                        values[k as usize] < values[victim as usize]
                            && spec.attacks.leaps(side, k, cell).intersects(own_pawns)
                    });
                    threats += i32::from(attacked);
                }
            }
        }
        for kind in 0..spec.pieces.len() {
            let k = kind as Kind;
            let pawn = spec.pieces[kind].pawn;
            let hand = in_hand(side, k) as i32;
            if hand > 0 {
                terms.hand(s, k, hand);
                phase += hand * tables.phase_weights[kind];
                if !pawn {
                    danger_units[s] += hand as usize * hand_units;
                }
            }
            let pieces = board.cells_of_kind(k) & board.cells_of_player(side);
            if pieces.is_empty() {
                continue;
            }
            let movable = !pawn && !spec.is_royal(k);
            let average = tables.average_mobility(side, k);
            let passable = scores_passed && pawn && structure.passable(side, k);
            let mut regions = 0u64;
            for cell in pieces {
                terms.piece(s, k, cell);
                phase += tables.phase_weights[kind];
                if passable
                    && structure.passed(side, k, cell, enemy_pawns)
                    && let Some(d) = tables.promotion_distance(side, k, cell)
                    && d > 0
                {
                    terms.passed(s, d);
                }
                if movable {
                    let (quiet, captures) = spec.moves.reach(side, k, cell, occupied, empty, enemy);
                    let reach = quiet | captures;
                    terms.mobility(s, reach.count() as i32 * 16 - average);
                    if let Some(zone) = zones[1 - s]
                        && reach.intersects(zone)
                    {
                        danger_units[s] += board_units;
                    }
                    if scores_threats {
                        for victim_cell in captures {
                            let victim = board.piece_at(victim_cell).kind();
                            if !spec.is_royal(victim) && values[victim as usize] > values[kind] {
                                threats += 1;
                            }
                        }
                    }
                    if scores_pairs && structure.confined(side, k) {
                        regions |= 1 << (structure.region(side, k, cell) % 64);
                    }
                }
            }
            if regions.count_ones() >= 2 {
                terms.pair(s);
            }
        }
        if scores_threats && threats != 0 {
            terms.threats(s, threats);
        }
        if let Some(zone) = zones[s] {
            terms.shelter(s, (zone & board.cells_of_player(side)).count() as i32);
        }
    }
    for s in 0..2 {
        // Pieces in hand threaten only a royal piece there is to attack.
        if zones[1 - s].is_some() {
            terms.danger(1 - s, danger_units[s]);
        }
    }
    phase
}

/// The evaluation of a position as a sum of tuned weights times their coefficients, plus
/// what no tuned weight changes, for fitting the weights to game results. From the first
/// player's point of view (the tempo's term is +1 when the first player is to move, else -1).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalFeatures {
    /// The game phase of the position (the material left, pieces in hand included).
    pub phase: i32,
    /// The phase of a full board.
    pub full_phase: i32,
    /// What no tuned weight changes: the royal pieces' material (first player's minus
    /// second's).
    pub fixed: Tapered,
    /// Per weight of [`TUNED`] and then per piece of [`EvalFeatures::pieces`] (its value), its
    /// opening and endgame coefficients (first player's minus second's): the weight times
    /// each, blended by the phase, is its share of the score.
    pub terms: Vec<(f64, f64)>,
    /// The pieces whose values are fitted (every kind but the royal ones): symbol and the
    /// value the position is evaluated with. A piece's term counts it on the board; in hand
    /// it is `hand_factor`'s (its value there taken as it is).
    pub pieces: Vec<(String, i32)>,
    /// The weights the position is evaluated with.
    pub weights: EvalWeights,
}

impl EvalFeatures {
    /// The values of [`EvalFeatures::terms`]' weights in `weights`: the tuned weights, then
    /// the pieces' values (their own where `weights` gives none).
    pub fn tuned_of(&self, weights: &EvalWeights) -> Vec<f64> {
        let mut tuned = weights.tuned();
        tuned.extend(self.pieces.iter().map(|(symbol, own)| {
            let value = weights.values.iter().find(|(s, _)| s == symbol);
            f64::from(value.map_or(*own, |(_, v)| *v))
        }));
        tuned
    }

    /// The weights these fitted values make (in [`EvalFeatures::terms`]' order, rounded): the
    /// position's weights with the tuned ones and every fitted piece's value set.
    pub fn weights_of(&self, tuned: &[f64]) -> EvalWeights {
        let (weights, values) = tuned.split_at(TUNED.len().min(tuned.len()));
        let mut w = self.weights.with_tuned(weights);
        w.values = self
            .pieces
            .iter()
            .zip(values)
            .map(|((symbol, _), v)| (symbol.clone(), v.round().max(0.0) as i32))
            .collect();
        w
    }

    /// The score with the weights the position is evaluated with: the evaluation itself up
    /// to the rounding of its tables.
    pub fn own_score(&self) -> f64 {
        self.score(&self.tuned_of(&self.weights))
    }

    /// The score this makes with tuned values `tuned` (in [`EvalFeatures::terms`]' order),
    /// first player's point of view, in centipawns.
    pub fn score(&self, tuned: &[f64]) -> f64 {
        let full = f64::from(self.full_phase.max(1));
        let phase = f64::from(self.phase.clamp(0, self.full_phase.max(1)));
        let mut opening = f64::from(self.fixed.opening);
        let mut endgame = f64::from(self.fixed.endgame);
        for (&(o, e), &w) in self.terms.iter().zip(tuned) {
            opening += o * w;
            endgame += e * w;
        }
        (opening * phase + endgame * (full - phase)) / full
    }
}

/// The coefficients of each tuned weight, per side, gathered by the walk.
struct Features<'t, const W: usize> {
    spec: &'t Spec<W>,
    fixed: [Tapered; 2],
    terms: [Vec<(f64, f64)>; 2],
    /// Per kind, the index of its value's term (none for royal kinds).
    value_term: Vec<Option<usize>>,
}

/// Where each tuned weight sits in [`TUNED`].
fn term(name: &str) -> usize {
    TUNED
        .iter()
        .position(|t| *t == name)
        .unwrap_or_else(|| unreachable!("{name} is a tuned weight"))
}

impl<const W: usize> Features<'_, W> {
    fn add(&mut self, side: usize, name: &str, opening: f64, endgame: f64) {
        let t = &mut self.terms[side][term(name)];
        t.0 += opening;
        t.1 += endgame;
    }
}

impl<const W: usize> Terms for Features<'_, W> {
    const EVERY_TERM: bool = true;

    fn hand(&mut self, side: usize, kind: Kind, count: i32) {
        let value = f64::from(count * self.spec.eval.values[kind as usize]) / 16.0;
        self.add(side, "hand_factor", value, value);
    }

    fn piece(&mut self, side: usize, kind: Kind, cell: Cell) {
        let tables = &self.spec.eval;
        match self.value_term[kind as usize] {
            Some(t) => {
                self.terms[side][t].0 += 1.0;
                self.terms[side][t].1 += 1.0;
            }
            None => self.fixed[side] += Tapered::flat(tables.values[kind as usize]),
        }
        let at = tables.placement_sources(side as Player, kind, cell);
        if self.spec.is_royal(kind) {
            let above = f64::from(at.mobility - at.least_mobility) / 256.0;
            self.add(side, "royal_exposure_opening", -above, 0.0);
            self.add(side, "royal_centrality_endgame", 0.0, above);
        } else {
            let above =
                f64::from(at.mobility - tables.average_mobility(side as Player, kind)) / 256.0;
            self.add(side, "centrality_opening", above, 0.0);
            self.add(side, "centrality_endgame", 0.0, above);
        }
        if let Some(d) = at.promotion_distance
            && (1..=5).contains(&d)
        {
            let gain = f64::from(at.promotion_gain) / 1024.0;
            let t = &mut self.terms[side][term("advance_share") + d as usize - 1];
            t.0 += gain;
            t.1 += 2.0 * gain;
        }
    }

    fn mobility(&mut self, side: usize, above: i32) {
        let cells = f64::from(above) / 16.0;
        self.add(side, "mobility_opening", cells, 0.0);
        self.add(side, "mobility_endgame", 0.0, cells);
    }

    fn shelter(&mut self, side: usize, count: i32) {
        self.add(side, "shelter", f64::from(count), 0.0);
    }

    fn danger(&mut self, side: usize, units: usize) {
        let table = &self.spec.eval.weights.royal_danger;
        let penalty = f64::from(table[units.min(table.len() - 1)]) / 100.0;
        self.add(side, "royal_danger", -penalty, 0.0);
    }

    fn passed(&mut self, side: usize, distance: u32) {
        let d = (distance as usize).clamp(1, 6);
        let t = &mut self.terms[side][term("passed") + d - 1];
        t.0 += 3.0 / 8.0;
        t.1 += 1.0;
    }

    fn threats(&mut self, side: usize, count: i32) {
        let count = f64::from(count);
        self.add(side, "threat_opening", count, 0.0);
        self.add(side, "threat_endgame", 0.0, count);
    }

    fn pair(&mut self, side: usize) {
        self.add(side, "pair_opening", 1.0, 0.0);
        self.add(side, "pair_endgame", 0.0, 1.0);
    }
}

/// The features of a board under `spec` (see [`EvalFeatures`]).
fn features<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    to_move: Player,
    in_hand: impl Fn(Player, Kind) -> u8,
) -> EvalFeatures {
    let mut pieces = Vec::new();
    let mut value_term = Vec::new();
    for kind in 0..spec.kinds() {
        if spec.is_royal(kind as Kind) {
            value_term.push(None);
        } else {
            value_term.push(Some(TUNED.len() + pieces.len()));
            pieces.push((spec.pieces[kind].symbol.clone(), spec.eval.values[kind]));
        }
    }
    let count = TUNED.len() + pieces.len();
    let mut features = Features {
        spec,
        fixed: [Tapered::default(); 2],
        terms: [vec![(0.0, 0.0); count], vec![(0.0, 0.0); count]],
        value_term,
    };
    let phase = walk(spec, board, in_hand, &mut features);
    let mut fixed = features.fixed[0];
    fixed -= features.fixed[1];
    let mut terms = features.terms[0].clone();
    for (t, o) in terms.iter_mut().zip(&features.terms[1]) {
        t.0 -= o.0;
        t.1 -= o.1;
    }
    // The tempo: +1 for the first player when it moves.
    let tempo = if to_move == 0 { 1.0 } else { -1.0 };
    terms[term("tempo")] = (tempo, tempo);
    EvalFeatures {
        phase,
        full_phase: spec.eval.full_phase,
        fixed,
        terms,
        pieces,
        weights: spec.eval.weights.clone(),
    }
}

/// The cells next to `player`'s royal piece, when it has exactly one.
fn royal_zone<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    player: Player,
) -> Option<CellSet<W>> {
    let mut royals = CellSet::EMPTY;
    for &k in &spec.royal_kinds {
        royals |= board.cells_of_kind(k);
    }
    royals &= board.cells_of_player(player);
    if royals.is_empty() || royals.more_than_one() {
        return None;
    }
    let cell = royals.first()?;
    let kind = board.piece_at(cell).kind();
    let m = spec.moves.get(player, kind, cell);
    Some(m.leap_both | m.leap_quiet | m.leap_capture)
}
