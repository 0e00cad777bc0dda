//! Static evaluation building blocks shared by the position types: piece values (given per
//! ruleset or estimated from mobility) and per-cell placement tables, each with an opening and
//! an endgame weight that the evaluation blends by the material left on the board.
//!
//! Everything here is derived from the compiled move tables, so a new piece or board gets a
//! sensible evaluation without code; rulesets give literature values where they exist.

use crate::piece::{Kind, PieceType, Player};
use crate::tables::MoveTables;
use crate::weights::EvalWeights;
use chaturanga_geometry::{Cell, CellSet, Geometry};

/// Occupied share of the board assumed when computing average mobility.
const DENSITY: f64 = 0.35;
/// Value used for royal pieces where a value is needed (move ordering, material balance).
pub const ROYAL_VALUE: i32 = 2000;

/// An opening and an endgame score, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// Score while much material is on the board.
    pub opening: i32,
    /// Score when little is left.
    pub endgame: i32,
}

impl Tapered {
    /// Both phases the same.
    pub const fn flat(v: i32) -> Self {
        Tapered {
            opening: v,
            endgame: v,
        }
    }

    /// The blend for `phase` out of `full` (full: all material on the board).
    #[inline]
    pub fn blend(self, phase: i32, full: i32) -> i32 {
        let phase = phase.clamp(0, full.max(1));
        (self.opening * phase + self.endgame * (full.max(1) - phase)) / full.max(1)
    }
}

impl std::ops::AddAssign for Tapered {
    #[inline]
    fn add_assign(&mut self, o: Tapered) {
        self.opening += o.opening;
        self.endgame += o.endgame;
    }
}

impl std::ops::SubAssign for Tapered {
    #[inline]
    fn sub_assign(&mut self, o: Tapered) {
        self.opening -= o.opening;
        self.endgame -= o.endgame;
    }
}

/// Material and placement tables of one ruleset's pieces on its board.
#[derive(Clone, Debug, Default)]
pub struct EvalTables {
    kinds: usize,
    cells: usize,
    /// Material value per kind, in centipawns.
    pub values: Vec<i32>,
    /// Value of a piece of each kind in hand.
    pub hand_values: Vec<i32>,
    /// Per kind: weight in the game phase (non-pawn, non-royal material).
    pub phase_weights: Vec<i32>,
    /// Phase of the start position (the sum of `phase_weights` on a full board).
    pub full_phase: i32,
    /// Per (player, kind): average number of cells the piece reaches on a typical board, in
    /// 1/16 cell; live mobility is scored against it.
    pub average_mobility: Vec<i32>,
    /// Per (player, kind, cell): value plus placement of a piece standing there.
    squares: Vec<Tapered>,
    /// Per (player, kind, cell): expected mobility there, in 1/16 cell (the placement's
    /// source, kept for the tuner's features).
    mobility: Vec<i32>,
    /// Per (player, kind): the least of `mobility` over the board.
    least_mobility: Vec<i32>,
    /// Per (player, kind, cell): moves to the promotion zone (`u8::MAX`: none).
    promotion_distance: Vec<u8>,
    /// Per (player, kind): what promoting gains, in centipawns.
    promotion_gain: Vec<i32>,
    /// The weights the tables were built with, which the evaluation reads too.
    pub weights: EvalWeights,
}

/// Where one square's placement value comes from ([`EvalTables::placement_sources`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementSources {
    /// Expected mobility on the square, in 1/16 cell.
    pub mobility: i32,
    /// The least expected mobility of the piece over the board, in 1/16 cell.
    pub least_mobility: i32,
    /// Moves to the promotion zone, if the piece promotes and can get there.
    pub promotion_distance: Option<u32>,
    /// What promoting gains, in centipawns.
    pub promotion_gain: i32,
}

/// What the tables need to know about one piece kind beyond its moves.
pub struct EvalPiece<'a> {
    /// The piece type.
    pub piece: &'a PieceType,
    /// A value from the literature, or `None` to estimate from mobility.
    pub given_value: Option<i32>,
    /// Whether losing it loses the game (kings): valued for ordering, not for material.
    pub royal: bool,
    /// Per player: where it promotes, and the kinds it may become.
    pub promotion: Vec<Option<(Vec<Cell>, Vec<Kind>)>>,
}

impl EvalTables {
    /// Builds the tables for `pieces` (indexed by kind) moving by `moves` on `geometry`,
    /// under `weights`.
    pub fn build<const W: usize>(
        geometry: &Geometry,
        moves: &MoveTables<W>,
        pieces: &[EvalPiece<'_>],
        players: usize,
        weights: &EvalWeights,
    ) -> EvalTables {
        let kinds = pieces.len();
        let cells = geometry.len();
        // Mobility per (player, kind, cell), in 1/16 cell.
        let mut mobility = vec![0i32; players * kinds * cells];
        for player in 0..players {
            for kind in 0..kinds {
                for cell in geometry.cells() {
                    let m = expected_mobility(moves, player as Player, kind as Kind, cell);
                    mobility[(player * kinds + kind) * cells + cell.index()] = (m * 16.0) as i32;
                }
            }
        }
        let average_mobility: Vec<i32> = (0..players * kinds)
            .map(|pk| {
                let row = &mobility[pk * cells..(pk + 1) * cells];
                row.iter().sum::<i32>() / cells.max(1) as i32
            })
            .collect();
        let values: Vec<i32> = pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                if p.royal {
                    // A royal piece that also fights (the Maharajah) is worth that on top.
                    ROYAL_VALUE + p.given_value.unwrap_or(0)
                } else {
                    p.given_value.unwrap_or_else(|| {
                        let avg = (0..players)
                            .map(|pl| average_mobility[pl * kinds + k])
                            .sum::<i32>()
                            / players.max(1) as i32;
                        (avg * weights.value_per_mobility / 16).max(50)
                    })
                }
            })
            .collect();
        let phase_weights: Vec<i32> = pieces
            .iter()
            .zip(&values)
            .map(|(p, &v)| if p.royal || p.piece.pawn { 0 } else { v })
            .collect();
        let mut squares = vec![Tapered::default(); players * kinds * cells];
        let mut least_mobility = vec![0; players * kinds];
        let mut promotion_distance = vec![u8::MAX; players * kinds * cells];
        let mut promotion_gain = vec![0; players * kinds];
        for player in 0..players {
            for (kind, piece) in pieces.iter().enumerate() {
                let pk = player * kinds + kind;
                let row = &mobility[pk * cells..(pk + 1) * cells];
                let least = geometry.cells().map(|c| row[c.index()]).min().unwrap_or(0);
                least_mobility[pk] = least;
                let distances = promotion_distances(geometry, moves, player, kind, piece);
                let gain = piece.promotion[player]
                    .as_ref()
                    .map(|(_, choices)| {
                        choices
                            .iter()
                            .map(|&c| values[c as usize] - values[kind])
                            .max()
                            .unwrap_or(0)
                            .max(0)
                    })
                    .unwrap_or(0);
                promotion_gain[pk] = gain;
                for cell in geometry.cells() {
                    let m = row[cell.index()];
                    let mut t = Tapered::flat(values[kind]);
                    if piece.royal {
                        t.opening -= (m - least) * weights.royal_exposure_opening / 256;
                        t.endgame += (m - least) * weights.royal_centrality_endgame / 256;
                    } else {
                        let above = m - average_mobility[pk];
                        t.opening += above * weights.centrality_opening / 256;
                        t.endgame += above * weights.centrality_endgame / 256;
                    }
                    if let Some(d) = distances[cell.index()] {
                        promotion_distance[pk * cells + cell.index()] = d.min(254) as u8;
                        let share = weights.advance_share.get(d as usize).copied().unwrap_or(0);
                        t.opening += gain * share / 1024;
                        t.endgame += gain * share * 2 / 1024;
                    }
                    squares[pk * cells + cell.index()] = t;
                }
            }
        }
        let hand_values = values
            .iter()
            .map(|v| v * weights.hand_factor / 16)
            .collect();
        EvalTables {
            kinds,
            cells,
            values,
            hand_values,
            phase_weights,
            full_phase: 0,
            average_mobility,
            squares,
            mobility,
            least_mobility,
            promotion_distance,
            promotion_gain,
            weights: weights.clone(),
        }
    }

    /// Sets the phase of a full board from the start position's pieces.
    pub fn with_full_phase(mut self, full_phase: i32) -> Self {
        self.full_phase = full_phase.max(1);
        self
    }

    /// Value plus placement of `player`'s `kind` on `cell`.
    #[inline(always)]
    pub fn square(&self, player: Player, kind: Kind, cell: Cell) -> Tapered {
        self.squares[(player as usize * self.kinds + kind as usize) * self.cells + cell.index()]
    }

    /// Where the placement of `player`'s `kind` on `cell` comes from: the expected mobility
    /// there and its least over the board (1/16 cell), the moves to the promotion zone and
    /// what promoting gains.
    pub fn placement_sources(&self, player: Player, kind: Kind, cell: Cell) -> PlacementSources {
        let pk = player as usize * self.kinds + kind as usize;
        let at = pk * self.cells + cell.index();
        PlacementSources {
            mobility: self.mobility[at],
            least_mobility: self.least_mobility[pk],
            promotion_distance: (self.promotion_distance[at] != u8::MAX)
                .then_some(u32::from(self.promotion_distance[at])),
            promotion_gain: self.promotion_gain[pk],
        }
    }

    /// Moves from `cell` to the promotion zone of `player`'s `kind`, if it promotes and can
    /// get there.
    #[inline(always)]
    pub fn promotion_distance(&self, player: Player, kind: Kind, cell: Cell) -> Option<u32> {
        let d = self.promotion_distance
            [(player as usize * self.kinds + kind as usize) * self.cells + cell.index()];
        (d != u8::MAX).then_some(u32::from(d))
    }

    /// Average mobility of `player`'s `kind`, in 1/16 cell.
    #[inline(always)]
    pub fn average_mobility(&self, player: Player, kind: Kind) -> i32 {
        self.average_mobility[player as usize * self.kinds + kind as usize]
    }
}

/// The expected number of cells a piece reaches from `cell` on a board where each other
/// cell is occupied with probability [`DENSITY`], by either side alike: computed exactly from
/// the move tables, so both players' tables agree by symmetry.
fn expected_mobility<const W: usize>(
    moves: &MoveTables<W>,
    player: Player,
    kind: Kind,
    cell: Cell,
) -> f64 {
    let empty = 1.0 - DENSITY;
    let enemy = DENSITY / 2.0;
    let value = |quiet: bool, capture: bool| {
        (if quiet { empty } else { 0.0 }) + (if capture { enemy } else { 0.0 })
    };
    let m = moves.get(player, kind, cell);
    let mut total = m.leap_both.count() as f64 * (empty + enemy)
        + m.leap_quiet.count() as f64 * empty
        + m.leap_capture.count() as f64 * enemy;
    let in_order = |cells: CellSet<W>, ascending: bool| -> Vec<Cell> {
        let mut v: Vec<Cell> = cells.iter().collect();
        if !ascending {
            v.reverse();
        }
        v
    };
    for r in &moves.rays[m.rays.range()] {
        if r.attack_only {
            continue;
        }
        let per_cell = value(r.quiet, r.capture);
        for (i, _) in in_order(r.ray.cells, r.ray.ascending).iter().enumerate() {
            total += empty.powi(i as i32) * per_cell;
        }
    }
    for l in &moves.lame[m.lame.range()] {
        total += empty.powi(l.path.count() as i32) * value(l.quiet, l.capture);
    }
    for b in &moves.bent[m.bent.range()] {
        let open = |p: CellSet<W>| empty.powi(p.count() as i32);
        let either = if b.paths[0] == b.paths[1] {
            open(b.paths[0])
        } else {
            1.0 - (1.0 - open(b.paths[0])) * (1.0 - open(b.paths[1]))
        };
        total += either * value(b.quiet, b.capture);
    }
    for h in &moves.hops[m.hops.range()] {
        let per_cell = value(h.quiet, h.capture);
        let n = h.ray.cells.count() as i32;
        for i in 1..n {
            // Cell i (0-based) beyond the origin: a grasshopper needs the hurdle right before
            // it, a cannon exactly one piece among the cells before it.
            let p = if h.grasshopper {
                empty.powi(i - 1) * DENSITY
            } else {
                i as f64 * DENSITY * empty.powi(i - 1)
            };
            total += p * per_cell;
        }
    }
    total
}

/// Per cell: the fewest moves on an empty board from it into `player`'s promotion zone of
/// `kind` (`None`: no promotion, or out of reach; 0 inside the zone).
pub(crate) fn promotion_distances<const W: usize>(
    geometry: &Geometry,
    moves: &MoveTables<W>,
    player: usize,
    kind: usize,
    piece: &EvalPiece<'_>,
) -> Vec<Option<u32>> {
    let cells = geometry.len();
    let mut dist = vec![None; cells];
    let Some((zone, _)) = &piece.promotion[player] else {
        return dist;
    };
    for &c in zone {
        dist[c.index()] = Some(0u32);
    }
    let all: CellSet<W> = geometry.cells().collect();
    let targets: Vec<CellSet<W>> = geometry
        .cells()
        .map(|c| {
            let (q, x) = moves.reach(player as Player, kind as Kind, c, CellSet::EMPTY, all, all);
            q | x
        })
        .collect();
    // Relax until nothing changes; boards are small and distances short.
    for _ in 0..cells {
        let mut changed = false;
        for c in geometry.cells() {
            let best = targets[c.index()]
                .iter()
                .filter_map(|t| dist[t.index()])
                .min()
                .map(|d| d + 1);
            if let Some(b) = best
                && dist[c.index()].is_none_or(|d| b < d)
            {
                dist[c.index()] = Some(b);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

/// The share of the full-board phase a set of kind counts represents: helper for position
/// types computing their start phase.
pub fn phase_of(tables: &EvalTables, kinds: impl IntoIterator<Item = Kind>) -> i32 {
    kinds
        .into_iter()
        .map(|k| tables.phase_weights[k as usize])
        .sum()
}

/// Facts about a move for move ordering and quiescence: the material it wins at once and the
/// value of the piece that moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveValue {
    /// Material won outright: value of what is captured plus the gain of promoting.
    pub gain: i32,
    /// Value of the moving piece (the piece risked).
    pub mover: i32,
}

impl MoveValue {
    /// Whether quiescence search should look at the move (it wins material at once).
    pub fn is_tactical(self) -> bool {
        self.gain > 0
    }
}
