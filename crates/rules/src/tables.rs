//! Piece movement compiled into per-cell tables of cell sets.
//!
//! [`MoveTables`] answer "where can this piece go from here" and [`AttackTables`] the reverse
//! question "which pieces could capture on this cell". Both are built once per variant (and
//! rule options) from the Betza descriptions and then only read on the hot path.

use crate::betza::Hop;
use crate::piece::{BentRider, CompiledMove, Kind, Piece, Player, Reach, compile_at, compile_bent};
use chaturanga_geometry::{Cell, CellSet, Geometry, Vector};
use std::fmt;

/// A straight line of cells from (not including) an origin, with the direction of increasing
/// distance in index order, so the nearest blocker is one bit scan away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ray<const W: usize> {
    /// The cells of the line.
    pub cells: CellSet<W>,
    /// Whether cell indices grow with distance from the origin.
    pub ascending: bool,
}

impl<const W: usize> Ray<W> {
    /// Builds a ray from cells listed nearest first; `None` if their indices are not monotone.
    pub fn from_cells(cells: &[Cell]) -> Option<Ray<W>> {
        let ascending = cells.windows(2).all(|w| w[0] < w[1]);
        let descending = cells.windows(2).all(|w| w[0] > w[1]);
        if !ascending && !descending {
            return None;
        }
        Some(Ray {
            cells: CellSet::from_cells(cells.iter().copied()),
            ascending: cells.len() < 2 || cells[0] < cells[1],
        })
    }

    /// The nearest cell of `set` (which must lie on the ray).
    #[inline(always)]
    pub fn nearest(&self, set: CellSet<W>) -> Option<Cell> {
        if self.ascending {
            set.first()
        } else {
            set.last()
        }
    }

    /// The ray's cells from the origin up to and including `cell`.
    #[inline(always)]
    pub fn up_to(&self, cell: Cell) -> CellSet<W> {
        if self.ascending {
            self.cells & CellSet::up_to(cell)
        } else {
            self.cells & CellSet::from(cell)
        }
    }

    /// The ray's cells strictly beyond `cell`.
    #[inline(always)]
    pub fn beyond(&self, cell: Cell) -> CellSet<W> {
        self.cells.without(self.up_to(cell))
    }

    /// Cells a rider along this ray reaches: up to and including the first occupied cell.
    #[inline(always)]
    pub fn attacks(&self, occupied: CellSet<W>) -> CellSet<W> {
        match self.nearest(self.cells & occupied) {
            None => self.cells,
            Some(b) => self.up_to(b),
        }
    }
}

/// A ride of a piece from one cell.
#[derive(Clone, Copy, Debug)]
pub struct MoveRay<const W: usize> {
    /// The line.
    pub ray: Ray<W>,
    /// May stop on empty cells.
    pub quiet: bool,
    /// May capture the first piece met.
    pub capture: bool,
    /// Only attacks (gives check); never a move.
    pub attack_only: bool,
}

/// A lame leap (or initial multi-step) of a piece from one cell.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap<const W: usize> {
    /// Cells that must be empty.
    pub path: CellSet<W>,
    /// Destination.
    pub to: Cell,
    /// May go to an empty destination.
    pub quiet: bool,
    /// May capture on the destination.
    pub capture: bool,
}

/// A bent rider's destination from one cell, reachable when either path is empty.
#[derive(Clone, Copy, Debug)]
pub struct BentLeap<const W: usize> {
    /// The two paths (the same one twice when only one exists on the board).
    pub paths: [CellSet<W>; 2],
    /// Destination.
    pub to: Cell,
    /// May go to an empty destination.
    pub quiet: bool,
    /// May capture on the destination.
    pub capture: bool,
}

impl<const W: usize> BentLeap<W> {
    /// Whether a path is clear.
    #[inline(always)]
    pub fn open(&self, occupied: CellSet<W>) -> bool {
        !self.paths[0].intersects(occupied) || !self.paths[1].intersects(occupied)
    }
}

/// A hopping ride of a piece from one cell.
#[derive(Clone, Copy, Debug)]
pub struct HopRay<const W: usize> {
    /// The line.
    pub ray: Ray<W>,
    /// May land on empty cells.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Grasshopper (lands right behind the hurdle) rather than cannon.
    pub grasshopper: bool,
}

impl<const W: usize> HopRay<W> {
    /// Empty cells it may land on and cells it may capture on, given the occupancy.
    #[inline]
    pub fn targets(&self, occupied: CellSet<W>) -> (CellSet<W>, CellSet<W>) {
        let blockers = self.ray.cells & occupied;
        let Some(screen) = self.ray.nearest(blockers) else {
            return (CellSet::EMPTY, CellSet::EMPTY);
        };
        let beyond = self.ray.beyond(screen);
        if self.grasshopper {
            let Some(landing) = self.ray.nearest(beyond) else {
                return (CellSet::EMPTY, CellSet::EMPTY);
            };
            let l = CellSet::from_cell(landing);
            return if occupied.contains(landing) {
                (CellSet::EMPTY, l)
            } else {
                (l, CellSet::EMPTY)
            };
        }
        match self.ray.nearest(beyond & occupied) {
            None => (beyond, CellSet::EMPTY),
            Some(target) => {
                let target_set = CellSet::from_cell(target);
                (
                    (beyond & self.ray.up_to(target)).without(target_set),
                    target_set,
                )
            }
        }
    }
}

/// Index range into one of the flat lists of [`MoveTables`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    /// First index.
    pub start: u32,
    /// Number of entries.
    pub len: u32,
}

impl Span {
    /// The range as `usize` bounds.
    #[inline(always)]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Everything one piece (player, kind) can do from one cell.
#[derive(Clone, Copy, Debug, Default)]
pub struct CellMoves<const W: usize> {
    /// Plain leaps that may move or capture.
    pub leap_both: CellSet<W>,
    /// Plain leaps that only move.
    pub leap_quiet: CellSet<W>,
    /// Plain leaps that only capture.
    pub leap_capture: CellSet<W>,
    /// Leap captures that may also be made en passant.
    pub ep_capture: CellSet<W>,
    /// Rides, in [`MoveTables::rays`].
    pub rays: Span,
    /// Lame leaps, in [`MoveTables::lame`].
    pub lame: Span,
    /// Hops, in [`MoveTables::hops`].
    pub hops: Span,
    /// Bent rides, in [`MoveTables::bent`].
    pub bent: Span,
}

/// Problems compiling pieces against a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A line whose cell indices are not monotone (a board numbering the tables cannot use).
    NonMonotoneRay {
        /// Label of the origin cell.
        from: String,
    },
    /// More piece kinds than a kind mask holds.
    TooManyKinds(usize),
    /// A piece whose initial moves depend on its history has an initial capture, which the
    /// attack tables (built without history) could not follow.
    UnmovedInitialCapture {
        /// Label of the cell the capture was compiled on.
        from: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NonMonotoneRay { from } => {
                write!(f, "a line from {from} is not monotone in cell order")
            }
            TableError::TooManyKinds(n) => write!(f, "{n} piece kinds, at most 62 supported"),
            TableError::UnmovedInitialCapture { from } => write!(
                f,
                "an initial capture from {from} of a piece whose initial moves need it unmoved"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// The inputs of table compilation for one piece kind.
pub struct KindSource<'a> {
    /// The piece's moves.
    pub moves: &'a crate::betza::Betza,
    /// Moves replacing `moves` on some cells: for each entry, the cells per player.
    pub zone_moves: Vec<(Vec<Vec<Cell>>, &'a crate::betza::Betza)>,
    /// Bent riders.
    pub bent: &'a [BentRider],
    /// For each player, the cells where its initial (`i`) moves are allowed.
    pub initial_cells: Vec<Vec<Cell>>,
    /// For each player, the cells the piece may never leave.
    pub confine: Option<Vec<Vec<Cell>>>,
    /// Moves that attack but are never played.
    pub check_only: Option<&'a crate::betza::Betza>,
    /// The initial moves need the piece not to have moved in the game.
    pub initial_only_unmoved: bool,
}

/// Forward movement tables for every (player, kind, cell).
#[derive(Clone, Debug)]
pub struct MoveTables<const W: usize> {
    cells: usize,
    kinds: usize,
    entries: Vec<CellMoves<W>>,
    /// The same without the initial moves of kinds whose initial moves need them unmoved
    /// (empty when no kind has such moves). Initial moves are compiled last in each cell's
    /// lists, so these entries are the full ones with their spans cut short.
    moved_entries: Vec<CellMoves<W>>,
    /// Ride lists referenced by [`CellMoves::rays`].
    pub rays: Vec<MoveRay<W>>,
    /// Lame leap lists referenced by [`CellMoves::lame`].
    pub lame: Vec<LameLeap<W>>,
    /// Hop lists referenced by [`CellMoves::hops`].
    pub hops: Vec<HopRay<W>>,
    /// Bent-ride lists referenced by [`CellMoves::bent`].
    pub bent: Vec<BentLeap<W>>,
}

impl<const W: usize> MoveTables<W> {
    /// The moves of `player`'s `kind` from `cell`.
    #[inline(always)]
    pub fn get(&self, player: Player, kind: Kind, cell: Cell) -> &CellMoves<W> {
        &self.entries[(player as usize * self.kinds + kind as usize) * self.cells + cell.index()]
    }

    /// The moves of `player`'s `kind` from `cell` for a piece that has already moved: without
    /// the initial moves that need it unmoved ([`KindSource::initial_only_unmoved`]).
    #[inline(always)]
    pub fn get_moved(&self, player: Player, kind: Kind, cell: Cell) -> &CellMoves<W> {
        let index = (player as usize * self.kinds + kind as usize) * self.cells + cell.index();
        self.moved_entries
            .get(index)
            .unwrap_or(&self.entries[index])
    }

    /// Whether some kind's initial moves need the piece unmoved, so positions must track
    /// which pieces have moved.
    pub fn tracks_unmoved(&self) -> bool {
        !self.moved_entries.is_empty()
    }

    /// Where the piece may go from `from`: (empty cells it may move to, cells of `enemy` it may
    /// capture on), given the occupancy; legality is the caller's business.
    #[inline(always)]
    pub fn reach(
        &self,
        player: Player,
        kind: Kind,
        from: Cell,
        occupied: CellSet<W>,
        empty: CellSet<W>,
        enemy: CellSet<W>,
    ) -> (CellSet<W>, CellSet<W>) {
        self.reach_of(self.get(player, kind, from), occupied, empty, enemy)
    }

    /// [`MoveTables::reach`] for a piece that has moved (see [`MoveTables::get_moved`]).
    #[inline(always)]
    pub fn reach_moved(
        &self,
        player: Player,
        kind: Kind,
        from: Cell,
        occupied: CellSet<W>,
        empty: CellSet<W>,
        enemy: CellSet<W>,
    ) -> (CellSet<W>, CellSet<W>) {
        self.reach_of(self.get_moved(player, kind, from), occupied, empty, enemy)
    }

    #[inline(always)]
    fn reach_of(
        &self,
        m: &CellMoves<W>,
        occupied: CellSet<W>,
        empty: CellSet<W>,
        enemy: CellSet<W>,
    ) -> (CellSet<W>, CellSet<W>) {
        let mut quiet = (m.leap_both | m.leap_quiet) & empty;
        let mut captures = (m.leap_both | m.leap_capture) & enemy;
        for r in &self.rays[m.rays.range()] {
            if r.attack_only {
                continue;
            }
            let reach = r.ray.attacks(occupied);
            if r.quiet {
                quiet |= reach & empty;
            }
            if r.capture {
                captures |= reach & enemy;
            }
        }
        if m.lame.len != 0 {
            for l in &self.lame[m.lame.range()] {
                if l.path.intersects(occupied) {
                    continue;
                }
                if l.quiet && empty.contains(l.to) {
                    quiet.insert(l.to);
                }
                if l.capture && enemy.contains(l.to) {
                    captures.insert(l.to);
                }
            }
        }
        if m.hops.len != 0 {
            for h in &self.hops[m.hops.range()] {
                let (q, c) = h.targets(occupied);
                if h.quiet {
                    quiet |= q & empty;
                }
                if h.capture {
                    captures |= c & enemy;
                }
            }
        }
        if m.bent.len != 0 {
            for b in &self.bent[m.bent.range()] {
                if !b.open(occupied) {
                    continue;
                }
                if b.quiet && empty.contains(b.to) {
                    quiet.insert(b.to);
                }
                if b.capture && enemy.contains(b.to) {
                    captures.insert(b.to);
                }
            }
        }
        (quiet, captures)
    }

    /// Every cell this piece attacks (could capture on) from `cell` with the given occupancy.
    #[inline]
    pub fn capture_reach(
        &self,
        player: Player,
        kind: Kind,
        cell: Cell,
        occupied: CellSet<W>,
    ) -> CellSet<W> {
        let m = self.get(player, kind, cell);
        let mut reach = m.leap_both | m.leap_capture;
        for r in &self.rays[m.rays.range()] {
            if r.capture {
                reach |= r.ray.attacks(occupied);
            }
        }
        for l in &self.lame[m.lame.range()] {
            if l.capture && !l.path.intersects(occupied) {
                reach.insert(l.to);
            }
        }
        for h in &self.hops[m.hops.range()] {
            if h.capture {
                let (q, c) = h.targets(occupied);
                // A hopper threatens the landing cells whether or not they are occupied.
                reach |= c | q;
            }
        }
        for b in &self.bent[m.bent.range()] {
            if b.capture && b.open(occupied) {
                reach.insert(b.to);
            }
        }
        reach
    }
}

/// A line from a target cell back towards the pieces that could capture on it along it.
#[derive(Clone, Copy, Debug)]
pub struct ReverseRay<const W: usize> {
    /// The line, nearest to the target first.
    pub ray: Ray<W>,
    /// Kinds (bit `k`) that capture along it.
    pub kinds: u64,
    /// Cells of the line from which such a piece really reaches the target (all of them for
    /// pieces whose moves do not depend on where they stand).
    pub origins: CellSet<W>,
}

/// Reverse tables: who attacks a cell.
#[derive(Clone, Debug)]
pub struct AttackTables<const W: usize> {
    cells: usize,
    kinds: usize,
    reverse_rays: Vec<ReverseRay<W>>,
    reverse_ray_spans: Vec<Span>,
    reverse_leaps: Vec<CellSet<W>>,
    /// Per (player, target), the union of `reverse_leaps` over kinds: where any leaper of the
    /// player could stand to capture on the target.
    leap_origins: Vec<CellSet<W>>,
    /// Per player, the kinds with plain leap captures.
    pub leap_kinds: Vec<Vec<Kind>>,
    /// Per player, the kinds whose captures need the slow forward test (lame leaps, hops).
    pub slow_kinds: Vec<Vec<Kind>>,
}

impl<const W: usize> AttackTables<W> {
    /// The reverse rays of `player`'s riders through `cell`.
    #[inline(always)]
    pub fn rays(&self, player: Player, cell: Cell) -> &[ReverseRay<W>] {
        let span = self.reverse_ray_spans[player as usize * self.cells + cell.index()];
        &self.reverse_rays[span.range()]
    }

    /// Cells from which `player`'s `kind` captures on `cell` by a plain leap.
    #[inline(always)]
    pub fn leaps(&self, player: Player, kind: Kind, cell: Cell) -> CellSet<W> {
        self.reverse_leaps
            [(player as usize * self.kinds + kind as usize) * self.cells + cell.index()]
    }

    /// `leaps`, for any kind a board shows: none for kinds outside the tables (an attack
    /// view may show men that cannot capture as a kind no piece has, as Makarenko's does).
    #[inline(always)]
    pub fn leaps_of(&self, player: Player, kind: Kind, cell: Cell) -> CellSet<W> {
        if (kind as usize) < self.kinds {
            self.leaps(player, kind, cell)
        } else {
            CellSet::EMPTY
        }
    }

    /// Cells from which some kind of `player`'s captures on `cell` by a plain leap.
    #[inline(always)]
    pub fn leap_origins(&self, player: Player, cell: Cell) -> CellSet<W> {
        self.leap_origins[player as usize * self.cells + cell.index()]
    }

    /// Whether every capture of `player`'s pieces is a plain leap or a ride, so that pins and
    /// checks along lines describe all attacks exactly.
    pub fn all_lines_and_leaps(&self, player: Player) -> bool {
        self.slow_kinds[player as usize].is_empty()
    }
}

/// Drops the moves of `compiled` that would leave `region`; rides stop at its edge.
fn confine(compiled: Vec<CompiledMove>, region: &[Cell]) -> Vec<CompiledMove> {
    compiled
        .into_iter()
        .filter_map(|mut m| {
            match &mut m.reach {
                Reach::Leap { to, .. } | Reach::Bent { to, .. } => {
                    if !region.contains(to) {
                        return None;
                    }
                }
                Reach::Ride { ray } | Reach::Hop { ray, .. } => {
                    let inside = ray.iter().take_while(|c| region.contains(c)).count();
                    ray.truncate(inside);
                    if ray.is_empty() {
                        return None;
                    }
                }
            }
            Some(m)
        })
        .collect()
}

/// Compiles forward and reverse tables for `kinds` (in kind order) for each player, turning
/// directions per player with `orientations`.
pub fn build_tables<const W: usize>(
    geometry: &Geometry,
    kinds: &[KindSource<'_>],
    orientations: &[fn(Vector) -> Vector],
) -> Result<(MoveTables<W>, AttackTables<W>), TableError> {
    build_tables_oriented(geometry, kinds, orientations.len(), &|p, _, v| {
        orientations[p](v)
    })
}

/// Longest start of `cells` (listed nearest first) whose indices are monotone.
fn monotone_start(cells: &[Cell]) -> usize {
    if cells.len() < 3 {
        return cells.len();
    }
    let ascending = cells[0] < cells[1];
    1 + cells
        .windows(2)
        .take_while(|w| (w[0] < w[1]) == ascending)
        .count()
}

/// [`build_tables`] for `players` players whose directions depend on the cell as well:
/// `orient(player, cell, v)` is the vector the geometry reads at `cell` for the owner's `v`
/// (three-player chess: a pawn's forward depends on the half-board it stands in).
///
/// A ride along a line whose cell indices are not monotone (three-player chess: some lines
/// through the centre) keeps its monotone start as a ray and becomes lame leaps beyond it,
/// each needing the cells before it empty; captures along it are then tested the slow way
/// (see [`AttackTables::slow_kinds`]), so every line keeps its one-bit-scan form where the
/// numbering allows.
pub fn build_tables_oriented<const W: usize>(
    geometry: &Geometry,
    kinds: &[KindSource<'_>],
    players: usize,
    orient: &dyn Fn(usize, Cell, Vector) -> Vector,
) -> Result<(MoveTables<W>, AttackTables<W>), TableError> {
    if kinds.len() > 62 {
        return Err(TableError::TooManyKinds(kinds.len()));
    }
    let cells = geometry.len();
    let tracks_unmoved = kinds.iter().any(|k| k.initial_only_unmoved);
    let mut moves = MoveTables {
        cells,
        kinds: kinds.len(),
        entries: Vec::with_capacity(players * kinds.len() * cells),
        moved_entries: Vec::new(),
        rays: Vec::new(),
        lame: Vec::new(),
        hops: Vec::new(),
        bent: Vec::new(),
    };
    let mut reverse_leaps = vec![CellSet::<W>::EMPTY; players * kinds.len() * cells];
    let mut leap_kinds = vec![Vec::new(); players];
    let mut slow_kinds = vec![Vec::new(); players];
    // (player, target) -> (kind, reverse path nearest-first, origin)
    let mut reverse_paths: Vec<Vec<(Kind, Vec<Cell>)>> = vec![Vec::new(); players * cells];
    let non_monotone = |c: Cell| TableError::NonMonotoneRay {
        from: geometry.label(c).to_string(),
    };

    for p in 0..players {
        for (k, source) in kinds.iter().enumerate() {
            let mut has_leap_capture = false;
            let mut slow = false;
            for from in geometry.cells() {
                let initial_ok = source
                    .initial_cells
                    .get(p)
                    .is_some_and(|v| v.contains(&from));
                let mut entry = CellMoves::<W> {
                    rays: Span {
                        start: moves.rays.len() as u32,
                        len: 0,
                    },
                    lame: Span {
                        start: moves.lame.len() as u32,
                        len: 0,
                    },
                    hops: Span {
                        start: moves.hops.len() as u32,
                        len: 0,
                    },
                    bent: Span {
                        start: moves.bent.len() as u32,
                        len: 0,
                    },
                    ..Default::default()
                };
                let betza = source
                    .zone_moves
                    .iter()
                    .find(|(cells, _)| cells.get(p).is_some_and(|c| c.contains(&from)))
                    .map_or(source.moves, |(_, b)| *b);
                let orient = |v| orient(p, from, v);
                let mut compiled = compile_at(geometry, betza, from, orient);
                compiled.extend(compile_bent(geometry, source.bent, from, orient));
                if let Some(region) = source.confine.as_ref().and_then(|c| c.get(p)) {
                    compiled = confine(compiled, region);
                }
                // Order: ordinary moves, attack-only moves, initial moves. With the initial
                // moves last, the entry of a piece that has moved is this one cut short.
                let (ordinary, initial_moves): (Vec<_>, Vec<_>) =
                    compiled.into_iter().partition(|m| !m.initial);
                let normal = ordinary.len();
                let mut compiled = ordinary;
                if let Some(b) = source.check_only {
                    compiled.extend(compile_at(geometry, b, from, orient));
                }
                let first_initial = compiled.len();
                if source.initial_only_unmoved
                    && initial_ok
                    && initial_moves.iter().any(|m| m.capture)
                {
                    return Err(TableError::UnmovedInitialCapture {
                        from: geometry.label(from).to_string(),
                    });
                }
                compiled.extend(initial_moves);
                let mut moved_entry = None;
                for (index, compiled_move) in compiled.into_iter().enumerate() {
                    if index == first_initial {
                        moved_entry = Some(entry);
                    }
                    let CompiledMove {
                        reach,
                        quiet,
                        capture,
                        initial,
                        en_passant,
                    } = compiled_move;
                    let attack_only = index >= normal && index < first_initial;
                    if attack_only {
                        // Attack-only moves are rides (the flying general); they enter the
                        // attack tables and never the move lists.
                        if let Reach::Ride { ray } = reach {
                            let r = Ray::from_cells(&ray).ok_or_else(|| non_monotone(from))?;
                            for i in 0..ray.len() {
                                let mut back: Vec<Cell> = ray[..i].iter().rev().copied().collect();
                                back.push(from);
                                reverse_paths[p * cells + ray[i].index()].push((k as Kind, back));
                            }
                            moves.rays.push(MoveRay {
                                ray: r,
                                quiet: false,
                                capture: true,
                                attack_only: true,
                            });
                            entry.rays.len += 1;
                        }
                        continue;
                    }
                    if initial && !initial_ok {
                        continue;
                    }
                    match reach {
                        Reach::Leap { to, path } if path.is_empty() => {
                            match (quiet, capture) {
                                (true, true) => entry.leap_both.insert(to),
                                (true, false) => entry.leap_quiet.insert(to),
                                (false, true) => entry.leap_capture.insert(to),
                                (false, false) => {}
                            }
                            if capture {
                                has_leap_capture = true;
                                reverse_leaps[(p * kinds.len() + k) * cells + to.index()]
                                    .insert(from);
                                if en_passant {
                                    entry.ep_capture.insert(to);
                                }
                            }
                        }
                        Reach::Leap { to, path } => {
                            if capture {
                                slow = true;
                            }
                            moves.lame.push(LameLeap {
                                path: CellSet::from_cells(path),
                                to,
                                quiet,
                                capture,
                            });
                            entry.lame.len += 1;
                        }
                        Reach::Ride { ray } => {
                            // The origin counts: reverse rays run back to it.
                            let mut line = vec![from];
                            line.extend_from_slice(&ray);
                            let straight = monotone_start(&line) - 1;
                            for (i, &to) in ray.iter().enumerate().skip(straight) {
                                if capture {
                                    slow = true;
                                }
                                moves.lame.push(LameLeap {
                                    path: CellSet::from_cells(ray[..i].iter().copied()),
                                    to,
                                    quiet,
                                    capture,
                                });
                                entry.lame.len += 1;
                            }
                            let ray = &ray[..straight];
                            let r = Ray::from_cells(ray).ok_or_else(|| non_monotone(from))?;
                            if capture {
                                for i in 0..ray.len() {
                                    let mut back: Vec<Cell> =
                                        ray[..i].iter().rev().copied().collect();
                                    back.push(from);
                                    reverse_paths[p * cells + ray[i].index()]
                                        .push((k as Kind, back));
                                }
                            }
                            moves.rays.push(MoveRay {
                                ray: r,
                                quiet,
                                capture,
                                attack_only: false,
                            });
                            entry.rays.len += 1;
                        }
                        Reach::Hop { ray, hop } => {
                            let r = Ray::from_cells(&ray).ok_or_else(|| non_monotone(from))?;
                            if capture {
                                slow = true;
                            }
                            moves.hops.push(HopRay {
                                ray: r,
                                quiet,
                                capture,
                                grasshopper: hop == Hop::Grasshopper,
                            });
                            entry.hops.len += 1;
                        }
                        Reach::Bent { to, paths } => {
                            if capture {
                                slow = true;
                            }
                            let first = CellSet::from_cells(paths[0].iter().copied());
                            let second = paths
                                .get(1)
                                .map_or(first, |p| CellSet::from_cells(p.iter().copied()));
                            moves.bent.push(BentLeap {
                                paths: [first, second],
                                to,
                                quiet,
                                capture,
                            });
                            entry.bent.len += 1;
                        }
                    }
                }
                moves.entries.push(entry);
                if tracks_unmoved {
                    let moved = match moved_entry {
                        Some(cut) if source.initial_only_unmoved => cut,
                        _ => entry,
                    };
                    moves.moved_entries.push(moved);
                }
            }
            if has_leap_capture {
                leap_kinds[p].push(k as Kind);
            }
            if slow {
                slow_kinds[p].push(k as Kind);
            }
        }
    }

    // Reverse rays: per (player, target), the maximal back-paths per kind, each with the cells
    // from which that kind really reaches the target; identical ones merge across kinds.
    let mut reverse_rays = Vec::new();
    let mut reverse_ray_spans = Vec::with_capacity(players * cells);
    for (index, mut paths) in reverse_paths.into_iter().enumerate() {
        let target = Cell((index % cells) as u16);
        paths.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.len().cmp(&a.1.len())));
        // (kind, maximal path, origins)
        let mut maximal: Vec<(Kind, Vec<Cell>, Vec<Cell>)> = Vec::new();
        for (kind, path) in paths {
            let origin = *path.last().expect("a reverse path ends at its origin");
            match maximal
                .iter_mut()
                .find(|(k, m, _)| *k == kind && m.starts_with(&path))
            {
                Some(entry) => entry.2.push(origin),
                None => maximal.push((kind, path, vec![origin])),
            }
        }
        let start = reverse_rays.len();
        for (kind, path, origins) in maximal {
            let ray = Ray::from_cells(&path).ok_or_else(|| non_monotone(target))?;
            let origins = CellSet::from_cells(origins);
            match reverse_rays[start..]
                .iter_mut()
                .find(|r: &&mut ReverseRay<W>| r.ray == ray && r.origins == origins)
            {
                Some(r) => r.kinds |= 1 << kind,
                None => reverse_rays.push(ReverseRay {
                    ray,
                    kinds: 1 << kind,
                    origins,
                }),
            }
        }
        reverse_ray_spans.push(Span {
            start: start as u32,
            len: (reverse_rays.len() - start) as u32,
        });
    }

    let mut leap_origins = vec![CellSet::<W>::EMPTY; players * cells];
    for (index, &origins) in reverse_leaps.iter().enumerate() {
        let (player, target) = (index / (kinds.len() * cells), index % cells);
        leap_origins[player * cells + target] |= origins;
    }

    Ok((
        moves,
        AttackTables {
            cells,
            kinds: kinds.len(),
            reverse_rays,
            reverse_ray_spans,
            reverse_leaps,
            leap_origins,
            leap_kinds,
            slow_kinds,
        },
    ))
}

/// What attack tests need to see of a position.
pub trait PieceBoard<const W: usize> {
    /// The piece on a cell.
    fn piece_at(&self, cell: Cell) -> Piece;
    /// Cells holding pieces of `kind` (both players).
    fn cells_of_kind(&self, kind: Kind) -> CellSet<W>;
    /// Cells holding `player`'s pieces.
    fn cells_of_player(&self, player: Player) -> CellSet<W>;
}

/// Whether `cell` is attacked by `by` on `board` with the given occupancy: reverse rays and
/// leaps first, then the slow kinds by generating their captures.
#[inline]
pub fn attacked<const W: usize, B: PieceBoard<W>>(
    moves: &MoveTables<W>,
    attacks: &AttackTables<W>,
    board: &B,
    cell: Cell,
    by: Player,
    occupied: CellSet<W>,
) -> bool {
    for r in attacks.rays(by, cell) {
        if let Some(b) = r.ray.nearest(r.ray.cells & occupied) {
            let p = board.piece_at(b);
            if p.player() == by && r.kinds & (1 << p.kind()) != 0 && r.origins.contains(b) {
                return true;
            }
        }
    }
    let theirs = board.cells_of_player(by) & occupied;
    // Few of a player's men stand a leap away from any one cell: asking each of them is
    // cheaper than asking every leaping kind for its men (thirty kinds and more in chu shogi).
    for from in attacks.leap_origins(by, cell) & theirs {
        if attacks
            .leaps_of(by, board.piece_at(from).kind(), cell)
            .contains(from)
        {
            return true;
        }
    }
    for &k in &attacks.slow_kinds[by as usize] {
        for from in board.cells_of_kind(k) & theirs {
            if moves.capture_reach(by, k, from, occupied).contains(cell) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::betza::{self, Betza};
    use crate::standard::TWO_PLAYER_ORIENTATIONS;
    use chaturanga_geometry::GeometryBuilder;

    fn board(files: i32, ranks: i32) -> Geometry {
        GeometryBuilder::rectangle(files, ranks).build().unwrap()
    }

    fn cells(g: &Geometry, labels: &str) -> Vec<Cell> {
        labels
            .split_whitespace()
            .map(|l| g.cell_by_label(l).unwrap())
            .collect()
    }

    fn set(g: &Geometry, labels: &str) -> CellSet<1> {
        CellSet::from_cells(cells(g, labels))
    }

    /// The labels of a set, in cell order.
    fn labels(g: &Geometry, s: CellSet<1>) -> String {
        s.iter().map(|c| g.label(c)).collect::<Vec<_>>().join(" ")
    }

    fn source(moves: &Betza) -> KindSource<'_> {
        KindSource {
            moves,
            zone_moves: Vec::new(),
            bent: &[],
            initial_cells: vec![Vec::new(); 2],
            confine: None,
            check_only: None,
            initial_only_unmoved: false,
        }
    }

    fn tables(g: &Geometry, sources: &[KindSource<'_>]) -> (MoveTables<1>, AttackTables<1>) {
        build_tables(g, sources, &TWO_PLAYER_ORIENTATIONS).unwrap()
    }

    /// Men on cells, for `attacked`.
    struct Men(Vec<(Cell, Piece)>);

    impl Men {
        /// The cells of the men `keep` selects.
        fn cells(&self, keep: impl Fn(Piece) -> bool) -> CellSet<1> {
            CellSet::from_cells(self.0.iter().filter(|(_, p)| keep(*p)).map(|&(c, _)| c))
        }
    }

    impl PieceBoard<1> for Men {
        fn piece_at(&self, cell: Cell) -> Piece {
            self.0
                .iter()
                .find(|(c, _)| *c == cell)
                .map_or(Piece::NONE, |&(_, p)| p)
        }
        fn cells_of_kind(&self, kind: Kind) -> CellSet<1> {
            self.cells(|p| p.kind() == kind)
        }
        fn cells_of_player(&self, player: Player) -> CellSet<1> {
            self.cells(|p| p.player() == player)
        }
    }

    #[test]
    fn a_ray_scans_outward_whichever_way_its_indices_run() {
        let g = board(5, 5);
        let north = Ray::<1>::from_cells(&cells(&g, "c2 c3 c4 c5")).unwrap();
        let south = Ray::<1>::from_cells(&cells(&g, "c4 c3 c2 c1")).unwrap();
        assert!(north.ascending && !south.ascending);
        let c = |l: &str| g.cell_by_label(l).unwrap();
        assert_eq!(north.nearest(set(&g, "c3 c5")), Some(c("c3")));
        assert_eq!(south.nearest(set(&g, "c1 c3")), Some(c("c3")));
        assert_eq!(north.nearest(CellSet::EMPTY), None);
        assert_eq!(labels(&g, north.up_to(c("c4"))), "c2 c3 c4");
        assert_eq!(labels(&g, south.up_to(c("c2"))), "c2 c3 c4");
        assert_eq!(labels(&g, north.beyond(c("c3"))), "c4 c5");
        assert_eq!(labels(&g, south.beyond(c("c3"))), "c1 c2");
        // A rider reaches up to and including the first man; men off the line do not count.
        assert_eq!(labels(&g, north.attacks(set(&g, "c3 c5 e5"))), "c2 c3");
        assert_eq!(labels(&g, south.attacks(set(&g, "c1 c3"))), "c3 c4");
        assert_eq!(north.attacks(CellSet::EMPTY), north.cells);
        // Cells listed out of index order cannot make a ray.
        assert_eq!(Ray::<1>::from_cells(&cells(&g, "c2 a1 c4")), None);
        assert!(Ray::<1>::from_cells(&cells(&g, "c2")).is_some());
    }

    #[test]
    fn hoppers_need_a_screen_and_land_as_cannons_or_grasshoppers() {
        let g = board(8, 1);
        let east = Ray::<1>::from_cells(&cells(&g, "b1 c1 d1 e1 f1 g1 h1")).unwrap();
        let west = Ray::<1>::from_cells(&cells(&g, "g1 f1 e1 d1 c1 b1 a1")).unwrap();
        let hop = |ray, grasshopper| HopRay {
            ray,
            quiet: true,
            capture: true,
            grasshopper,
        };
        let show = |(quiet, captures): (CellSet<1>, CellSet<1>)| {
            format!("{} | {}", labels(&g, quiet), labels(&g, captures))
        };
        let cannon = hop(east, false);
        assert_eq!(show(cannon.targets(CellSet::EMPTY)), " | ");
        assert_eq!(show(cannon.targets(set(&g, "c1"))), "d1 e1 f1 g1 h1 | ");
        assert_eq!(show(cannon.targets(set(&g, "c1 f1 h1"))), "d1 e1 | f1");
        assert_eq!(
            show(hop(west, false).targets(set(&g, "b1 e1"))),
            "c1 d1 | b1"
        );
        let grasshopper = hop(east, true);
        assert_eq!(show(grasshopper.targets(set(&g, "c1"))), "d1 | ");
        assert_eq!(show(grasshopper.targets(set(&g, "c1 d1"))), " | d1");
        // A hurdle on the last cell leaves nowhere to land.
        assert_eq!(show(grasshopper.targets(set(&g, "h1"))), " | ");
    }

    /// Kinds of the agreement tests: riders (full, short, one-way), leapers (one of them a
    /// pawn turned per player), and the slow ones (lame, hopping).
    const KINDS: [&str; 9] = ["K", "R", "B", "W2", "fR", "N", "fmWfcF", "nN", "mRcpR"];

    /// The tables of `KINDS` on a 6x6 board.
    fn mixed() -> (Geometry, MoveTables<1>, AttackTables<1>) {
        let g = board(6, 6);
        let parsed: Vec<Betza> = KINDS.iter().map(|b| betza::parse(b).unwrap()).collect();
        let sources: Vec<KindSource<'_>> = parsed.iter().map(source).collect();
        let (moves, attacks) = tables(&g, &sources);
        (g, moves, attacks)
    }

    #[test]
    fn reverse_rays_and_leaps_agree_with_the_forward_tables() {
        let (g, moves, attacks) = mixed();
        let mut reverse_leaps = 0;
        for player in 0..2u8 {
            for kind in 0..KINDS.len() as Kind {
                for from in g.cells() {
                    let m = moves.get(player, kind, from);
                    for to in m.leap_both | m.leap_capture {
                        assert!(attacks.leaps(player, kind, to).contains(from));
                        reverse_leaps += 1;
                    }
                    for r in moves.rays[m.rays.range()].iter().filter(|r| r.capture) {
                        for to in r.ray.cells {
                            let back = attacks.rays(player, to).iter().any(|b| {
                                b.kinds & (1 << kind) != 0
                                    && b.origins.contains(from)
                                    && b.ray.cells.contains(from)
                            });
                            assert!(
                                back,
                                "{} {kind} {} -> {}",
                                player,
                                g.label(from),
                                g.label(to)
                            );
                        }
                    }
                }
                for to in g.cells() {
                    // Every origin a reverse ray names reaches the target by a forward ride.
                    for b in attacks.rays(player, to) {
                        if b.kinds & (1 << kind) == 0 {
                            continue;
                        }
                        for from in b.origins {
                            let m = moves.get(player, kind, from);
                            let rides = &moves.rays[m.rays.range()];
                            assert!(rides.iter().any(|r| r.capture && r.ray.cells.contains(to)));
                        }
                    }
                    reverse_leaps -= attacks.leaps(player, kind, to).count() as i32;
                }
            }
        }
        assert_eq!(
            reverse_leaps, 0,
            "reverse leaps that no forward leap explains"
        );
        // Up the file from a3, the rook's reverse ray names every cell, the short rook's only
        // the two nearest.
        let a3 = g.cell_by_label("a3").unwrap();
        let up = |kind: Kind| {
            let a5 = g.cell_by_label("a5").unwrap();
            let rays = attacks.rays(0, a3).iter();
            let mut rays = rays.filter(|r| r.kinds & (1 << kind) != 0 && r.ray.cells.contains(a5));
            let r = rays.next().unwrap();
            (labels(&g, r.ray.cells), labels(&g, r.origins))
        };
        assert_eq!(up(1), ("a4 a5 a6".into(), "a4 a5 a6".into()));
        assert_eq!(up(3), ("a4 a5".into(), "a4 a5".into()));
        // The pawn captures forward for each player.
        let c3 = g.cell_by_label("c3").unwrap();
        assert_eq!(labels(&g, attacks.leaps(0, 6, c3)), "b2 d2");
        assert_eq!(labels(&g, attacks.leaps(1, 6, c3)), "b4 d4");
        assert_eq!(attacks.slow_kinds[0], vec![7, 8]);
        assert!(!attacks.all_lines_and_leaps(1));
    }

    #[test]
    fn attacked_agrees_with_every_piece_s_own_reach_on_random_boards() {
        let (g, moves, attacks) = mixed();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut yes, mut no) = (0, 0);
        for _ in 0..300 {
            let mut men = Vec::new();
            for cell in g.cells() {
                if next(3) == 0 {
                    let piece = Piece::new(next(2) as Player, next(KINDS.len() as u64) as Kind);
                    men.push((cell, piece));
                }
            }
            let men = Men(men);
            let occupied = men.cells_of_player(0) | men.cells_of_player(1);
            for by in 0..2u8 {
                for target in g.cells() {
                    let expected = men.0.iter().any(|&(from, p)| {
                        p.player() == by
                            && moves
                                .capture_reach(by, p.kind(), from, occupied)
                                .contains(target)
                    });
                    let found = attacked(&moves, &attacks, &men, target, by, occupied);
                    assert_eq!(found, expected, "{} attacked by {by}", g.label(target));
                    if found {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                }
            }
        }
        assert!(yes > 1000 && no > 1000, "{yes} attacked, {no} not");
    }

    #[test]
    fn attacks_follow_blockers_legs_and_screens() {
        let (g, moves, attacks) = mixed();
        let at = |l: &str| g.cell_by_label(l).unwrap();
        let attacked_on = |men: &[(&str, Player, Kind)], target: &str, by: Player| {
            let men = Men(men
                .iter()
                .map(|&(l, p, k)| (at(l), Piece::new(p, k)))
                .collect());
            let occupied = men.cells_of_player(0) | men.cells_of_player(1);
            attacked(&moves, &attacks, &men, at(target), by, occupied)
        };
        // A rook along its file, up to the first man of either side.
        assert!(attacked_on(&[("a1", 0, 1)], "a6", 0));
        assert!(!attacked_on(&[("a1", 0, 1), ("a3", 1, 0)], "a6", 0));
        assert!(!attacked_on(&[("a1", 0, 1)], "a6", 1));
        // The one-way rook only forward: White's up, Black's down.
        assert!(attacked_on(&[("c1", 0, 4)], "c5", 0));
        assert!(!attacked_on(&[("c5", 0, 4)], "c1", 0));
        assert!(attacked_on(&[("c5", 1, 4)], "c1", 1));
        // The lame horse is stopped by a man on its leg.
        assert!(attacked_on(&[("b1", 0, 7)], "c3", 0));
        assert!(!attacked_on(&[("b1", 0, 7), ("b2", 1, 0)], "c3", 0));
        // The cannon captures only over exactly one screen.
        assert!(!attacked_on(&[("a1", 0, 8)], "a5", 0));
        assert!(attacked_on(&[("a1", 0, 8), ("a3", 1, 0)], "a5", 0));
        assert!(!attacked_on(
            &[("a1", 0, 8), ("a2", 0, 0), ("a3", 1, 0)],
            "a5",
            0
        ));
    }

    #[test]
    fn reach_splits_quiet_moves_from_captures() {
        let g = board(5, 5);
        let rook = betza::parse("R").unwrap();
        let (moves, _) = tables(&g, &[source(&rook)]);
        let (own, enemy) = (set(&g, "a3"), set(&g, "c1"));
        let occupied = own | enemy | set(&g, "a1");
        let empty = CellSet::from_cells(g.cells()).without(occupied);
        let a1 = g.cell_by_label("a1").unwrap();
        let (quiet, captures) = moves.reach(0, 0, a1, occupied, empty, enemy);
        assert_eq!(labels(&g, quiet), "b1 a2");
        assert_eq!(labels(&g, captures), "c1");
    }

    #[test]
    fn a_confined_piece_never_leaves_its_region() {
        let g = GeometryBuilder::rectangle(5, 5)
            .region(
                "palace",
                vec![
                    vec![(1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1)],
                    vec![(1, 4), (2, 4), (3, 4), (1, 3), (2, 3), (3, 3)],
                ],
            )
            .build()
            .unwrap();
        let palace = g.region("palace").unwrap().cells.clone();
        let kinds = [betza::parse("R").unwrap(), betza::parse("N").unwrap()];
        let sources: Vec<KindSource<'_>> = kinds
            .iter()
            .map(|b| KindSource {
                confine: Some(palace.clone()),
                ..source(b)
            })
            .collect();
        let (moves, attacks) = tables(&g, &sources);
        let (c1, b1) = (
            g.cell_by_label("c1").unwrap(),
            g.cell_by_label("b1").unwrap(),
        );
        let all = CellSet::from_cells(g.cells());
        let reach = |p, k, from| {
            moves
                .reach(p, k, from, CellSet::EMPTY, all, CellSet::EMPTY)
                .0
        };
        // Rides stop at the region's edge; leaps out of it are gone.
        assert_eq!(labels(&g, reach(0, 0, c1)), "b1 d1 c2");
        assert_eq!(labels(&g, reach(0, 1, b1)), "d2");
        let d5 = g.cell_by_label("d5").unwrap();
        assert_eq!(labels(&g, reach(1, 1, d5)), "b4");
        // And the attack tables know it: the rook on c2 does not attack c3.
        let men = Men(vec![(g.cell_by_label("c2").unwrap(), Piece::new(0, 0))]);
        let occupied = men.cells_of_player(0);
        let c3 = g.cell_by_label("c3").unwrap();
        assert!(!attacked(&moves, &attacks, &men, c3, 0, occupied));
        assert!(attacked(&moves, &attacks, &men, c1, 0, occupied));
    }

    #[test]
    fn initial_moves_that_need_an_unmoved_piece_are_cut_for_a_moved_one() {
        let g = GeometryBuilder::rectangle(5, 5)
            .region("start", vec![vec![(2, 1)], vec![(2, 3)]])
            .build()
            .unwrap();
        let start = g.region("start").unwrap().cells.clone();
        let pawn = betza::parse("fmWifmnD").unwrap();
        let (moves, _) = tables(
            &g,
            &[KindSource {
                initial_cells: start.clone(),
                initial_only_unmoved: true,
                ..source(&pawn)
            }],
        );
        assert!(moves.tracks_unmoved());
        let c2 = g.cell_by_label("c2").unwrap();
        let all = CellSet::from_cells(g.cells());
        let none = CellSet::EMPTY;
        assert_eq!(
            labels(&g, moves.reach(0, 0, c2, none, all, none).0),
            "c3 c4"
        );
        assert_eq!(
            labels(&g, moves.reach_moved(0, 0, c2, none, all, none).0),
            "c3"
        );
        // Such initial moves may not capture: the attack tables know no history.
        let capturing = betza::parse("fmWifcF").unwrap();
        let refused = build_tables::<1>(
            &g,
            &[KindSource {
                initial_cells: start,
                initial_only_unmoved: true,
                ..source(&capturing)
            }],
            &TWO_PLAYER_ORIENTATIONS,
        );
        assert!(matches!(
            refused,
            Err(TableError::UnmovedInitialCapture { .. })
        ));
    }

    #[test]
    fn at_most_62_kinds() {
        let g = board(3, 3);
        let king = betza::parse("K").unwrap();
        let sources: Vec<KindSource<'_>> = (0..63).map(|_| source(&king)).collect();
        let refused = build_tables::<1>(&g, &sources, &TWO_PLAYER_ORIENTATIONS);
        assert_eq!(refused.err(), Some(TableError::TooManyKinds(63)));
        assert!(build_tables::<1>(&g, &sources[..62], &TWO_PLAYER_ORIENTATIONS).is_ok());
    }
}
