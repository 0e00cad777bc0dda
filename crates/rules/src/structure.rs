//! Cell sets behind the evaluation's structure terms, derived from the move tables so that a
//! hexagonal pawn's way or a ten-rank board's bishops come out of the same code as chess's:
//! which enemy pawns stop a pawn (passed pawns), and the regions a piece confined to part of
//! the board can reach (a pair of such pieces covering two regions, as bishops on both
//! colours, is worth more than two of one).

use crate::eval::{EvalPiece, promotion_distances};
use crate::piece::{Kind, Player};
use crate::tables::{AttackTables, MoveTables};
use chaturanga_geometry::{Cell, CellSet, Geometry};

/// The structure tables of one ruleset's pieces on its board.
#[derive(Clone, Debug)]
pub struct StructureTables<const W: usize> {
    kinds: usize,
    cells: usize,
    /// Per (player, kind): whether the kind is a pawn that can become passed (it promotes,
    /// and captured men do not come back as drops that could stop it anywhere).
    passable: Vec<bool>,
    /// Per (player, kind, cell): the cells where an enemy pawn stops the pawn (on its way to
    /// promotion, or able to capture it there or on its way).
    stoppers: Vec<CellSet<W>>,
    /// Per player: his pawn kinds, the possible stoppers of the other side's pawns.
    pawn_kinds: Vec<Vec<Kind>>,
    /// Per (player, kind, cell): the region of the board the piece can reach from the cell
    /// over any number of moves on an empty board (`u8::MAX` for pieces that are not
    /// confined: one region, a pawn, a royal piece).
    regions: Vec<u8>,
    /// Per (player, kind): whether the kind is confined to one of several regions.
    confined: Vec<bool>,
}

impl<const W: usize> StructureTables<W> {
    /// The tables for `pieces` (indexed by kind) on `geometry`. Passed pawns are left out
    /// where captured men go to hand (a pawn in hand may be dropped in front of any pawn) and
    /// in games of more than two players.
    pub fn build(
        geometry: &Geometry,
        moves: &MoveTables<W>,
        attacks: &AttackTables<W>,
        pieces: &[EvalPiece<'_>],
        players: usize,
        captures_to_hand: bool,
    ) -> Self {
        let kinds = pieces.len();
        let cells = geometry.len();
        let pawn_kinds: Vec<Vec<Kind>> = (0..players)
            .map(|_| {
                (0..kinds)
                    .filter(|&k| pieces[k].piece.pawn)
                    .map(|k| k as Kind)
                    .collect()
            })
            .collect();
        let mut tables = StructureTables {
            kinds,
            cells,
            passable: vec![false; players * kinds],
            stoppers: vec![CellSet::EMPTY; players * kinds * cells],
            pawn_kinds,
            regions: vec![u8::MAX; players * kinds * cells],
            confined: vec![false; players * kinds],
        };
        let all: CellSet<W> = geometry.cells().collect();
        for player in 0..players {
            for (kind, piece) in pieces.iter().enumerate() {
                let pk = player * kinds + kind;
                if !piece.piece.pawn && !piece.royal {
                    tables.mark_regions(geometry, moves, player, kind, all);
                }
                if captures_to_hand
                    || players != 2
                    || !piece.piece.pawn
                    || piece.promotion[player].is_none()
                {
                    continue;
                }
                tables.passable[pk] = true;
                let distances = promotion_distances(geometry, moves, player, kind, piece);
                let enemy = (1 - player) as Player;
                for cell in geometry.cells() {
                    if distances[cell.index()].is_none() {
                        continue;
                    }
                    // The way: the cells single quiet steps reach, none farther from the
                    // zone than the one before, up to the zone (a double step skips a cell
                    // the single steps still pass).
                    let mut way = CellSet::<W>::EMPTY;
                    let mut front: Vec<Cell> = vec![cell];
                    while let Some(c) = front.pop() {
                        let Some(dc) = distances[c.index()].filter(|&dc| dc > 0) else {
                            continue;
                        };
                        let m = moves.get(player as Player, kind as Kind, c);
                        for next in m.leap_quiet | m.leap_both {
                            let nearer = distances[next.index()].is_some_and(|dn| dn <= dc);
                            if nearer && next != cell && !way.contains(next) {
                                way.insert(next);
                                front.push(next);
                            }
                        }
                    }
                    // An enemy pawn that can capture the pawn where it stands or on its way
                    // stops it too (the classic front span on the neighbouring files).
                    let mut stoppers = way;
                    let mut here = way;
                    here.insert(cell);
                    for c in here {
                        for &k in &tables.pawn_kinds[enemy as usize] {
                            stoppers |= attacks.leaps(enemy, k, c);
                        }
                    }
                    tables.stoppers[pk * cells + cell.index()] = stoppers;
                }
            }
        }
        tables
    }

    /// Labels the regions `player`'s `kind` moves within (connected cells of its moves on an
    /// empty board, in either direction); a kind with one region is not confined.
    fn mark_regions(
        &mut self,
        geometry: &Geometry,
        moves: &MoveTables<W>,
        player: usize,
        kind: usize,
        all: CellSet<W>,
    ) {
        let cells = self.cells;
        let reach: Vec<CellSet<W>> = geometry
            .cells()
            .map(|c| {
                let (q, x) =
                    moves.reach(player as Player, kind as Kind, c, CellSet::EMPTY, all, all);
                q | x
            })
            .collect();
        // Undirected: a cell is joined to the cells it reaches and to those reaching it.
        let mut neighbours = reach.clone();
        for c in geometry.cells() {
            for t in reach[c.index()] {
                neighbours[t.index()].insert(c);
            }
        }
        let mut region = vec![u8::MAX; cells];
        let mut count = 0u8;
        for start in geometry.cells() {
            if region[start.index()] != u8::MAX || neighbours[start.index()].is_empty() {
                continue;
            }
            if count == u8::MAX - 1 {
                return;
            }
            region[start.index()] = count;
            let mut front = vec![start];
            while let Some(c) = front.pop() {
                for n in neighbours[c.index()] {
                    if region[n.index()] == u8::MAX {
                        region[n.index()] = count;
                        front.push(n);
                    }
                }
            }
            count += 1;
        }
        if count > 1 {
            let pk = player * self.kinds + kind;
            self.confined[pk] = true;
            self.regions[pk * cells..(pk + 1) * cells].copy_from_slice(&region);
        }
    }

    /// Whether `player`'s `kind` can be a passed pawn.
    #[inline(always)]
    pub fn passable(&self, player: Player, kind: Kind) -> bool {
        self.passable
            .get(player as usize * self.kinds + kind as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Whether `player`'s pawn of `kind` on `cell` is passed: no enemy pawn
    /// (`enemy_pawns`) stands where it could stop it.
    #[inline(always)]
    pub fn passed(&self, player: Player, kind: Kind, cell: Cell, enemy_pawns: CellSet<W>) -> bool {
        let i = (player as usize * self.kinds + kind as usize) * self.cells + cell.index();
        !self.stoppers[i].intersects(enemy_pawns)
    }

    /// `player`'s pawn kinds.
    pub fn pawn_kinds(&self, player: Player) -> &[Kind] {
        self.pawn_kinds
            .get(player as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether `player`'s `kind` is confined to one of several regions of the board.
    #[inline(always)]
    pub fn confined(&self, player: Player, kind: Kind) -> bool {
        self.confined
            .get(player as usize * self.kinds + kind as usize)
            .copied()
            .unwrap_or(false)
    }

    /// The region `player`'s confined `kind` on `cell` moves within.
    #[inline(always)]
    pub fn region(&self, player: Player, kind: Kind, cell: Cell) -> u8 {
        self.regions[(player as usize * self.kinds + kind as usize) * self.cells + cell.index()]
    }
}
