//! Legal move generation for [`StandardPosition`].
//!
//! When every attack of the opponent runs along lines or is a plain leap, legality is decided
//! up front from the checkers and pins of the royal piece (so whole target sets can be counted
//! at once, which makes bulk perft fast). Otherwise — hoppers, lame leapers — each candidate is
//! tried on a copy. Rulesets without a royal piece get all moves.

use super::{Move, Rules, Special, StandardPosition};
use crate::piece::{Kind, Piece, Player};
use chaturanga_geometry::{Cell, CellSet};

/// Receives generated moves: a list, or a counter for bulk perft.
pub(super) trait Sink<const W: usize> {
    /// Ordinary moves of one piece to each cell of `quiet` and `captures`.
    fn targets<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        quiet: CellSet<W>,
        captures: CellSet<W>,
    );
    /// Promotions of one piece to each cell of `targets`, one move per choice.
    fn promotions<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        targets: CellSet<W>,
        choices: &[Kind],
    );
    /// Drops of `kind` on every cell of `cells`.
    fn drops(&mut self, kind: Kind, cells: CellSet<W>);
    /// One move.
    fn push(&mut self, mv: Move);
    /// Moves received so far.
    fn len(&self) -> u64;
}

/// Collects moves.
pub(super) struct ListSink<'a>(pub &'a mut Vec<Move>);

impl<const W: usize> Sink<W> for ListSink<'_> {
    #[inline]
    fn targets<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        quiet: CellSet<W>,
        captures: CellSet<W>,
    ) {
        for to in quiet {
            self.0.push(Move {
                from,
                to,
                kind,
                promotion: None,
                captured: Piece::NONE,
                special: Special::Normal,
            });
        }
        for to in captures {
            self.0.push(Move {
                from,
                to,
                kind,
                promotion: None,
                captured: position.piece_at(to),
                special: Special::Normal,
            });
        }
    }

    #[inline]
    fn promotions<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        targets: CellSet<W>,
        choices: &[Kind],
    ) {
        for to in targets {
            for &k in choices {
                self.0.push(Move {
                    from,
                    to,
                    kind,
                    promotion: Some(k),
                    captured: position.piece_at(to),
                    special: Special::Normal,
                });
            }
        }
    }

    fn drops(&mut self, kind: Kind, cells: CellSet<W>) {
        for to in cells {
            self.0.push(Move {
                from: to,
                to,
                kind,
                promotion: None,
                captured: Piece::NONE,
                special: Special::Drop,
            });
        }
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    fn len(&self) -> u64 {
        self.0.len() as u64
    }
}

/// Collects only the moves that capture or promote (quiescence search wants nothing else):
/// the quiet targets computed for legality are never turned into moves.
pub(super) struct TacticalSink<'a>(pub &'a mut Vec<Move>);

impl<const W: usize> Sink<W> for TacticalSink<'_> {
    #[inline]
    fn targets<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        _quiet: CellSet<W>,
        captures: CellSet<W>,
    ) {
        ListSink(self.0).targets(position, from, kind, CellSet::EMPTY, captures);
    }

    #[inline]
    fn promotions<const K: usize, R: Rules<W, K>>(
        &mut self,
        position: &StandardPosition<W, K, R>,
        from: Cell,
        kind: Kind,
        targets: CellSet<W>,
        choices: &[Kind],
    ) {
        ListSink(self.0).promotions(position, from, kind, targets, choices);
    }

    fn drops(&mut self, _kind: Kind, _cells: CellSet<W>) {}

    #[inline]
    fn push(&mut self, mv: Move) {
        if mv.is_capture() || mv.promotion.is_some() {
            self.0.push(mv);
        }
    }

    fn len(&self) -> u64 {
        self.0.len() as u64
    }
}

/// Counts moves without listing them.
pub(super) struct CountSink(pub u64);

impl<const W: usize> Sink<W> for CountSink {
    #[inline(always)]
    fn targets<const K: usize, R: Rules<W, K>>(
        &mut self,
        _: &StandardPosition<W, K, R>,
        _: Cell,
        _: Kind,
        quiet: CellSet<W>,
        captures: CellSet<W>,
    ) {
        self.0 += (quiet.count() + captures.count()) as u64;
    }

    #[inline(always)]
    fn promotions<const K: usize, R: Rules<W, K>>(
        &mut self,
        _: &StandardPosition<W, K, R>,
        _: Cell,
        _: Kind,
        targets: CellSet<W>,
        choices: &[Kind],
    ) {
        self.0 += targets.count() as u64 * choices.len() as u64;
    }

    #[inline(always)]
    fn drops(&mut self, _: Kind, cells: CellSet<W>) {
        self.0 += cells.count() as u64;
    }

    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    fn len(&self) -> u64 {
        self.0
    }
}

/// Which moves a generation pass produces (compulsory capture generates captures first).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    All,
    Captures,
    Quiet,
}

/// How candidate moves are checked for legality.
enum Legality<const W: usize> {
    /// No royal piece: every move is legal.
    Free,
    /// Exact masks from checkers and pins.
    Masks(Masks<W>),
    /// Try each move on a copy.
    Probe,
}

const MAX_PINS: usize = 16;

/// Above this many candidate moves of the royal piece, legality uses a full attack map.
const ROYAL_TARGETS_FOR_MAP: u32 = 12;

/// Checkers and pins of the royal piece, all lines and leaps.
struct Masks<const W: usize> {
    royal: Cell,
    double_check: bool,
    /// Cells a non-royal move must go to (all cells when not in check).
    evasion: CellSet<W>,
    pinned: CellSet<W>,
    pins: [(Cell, CellSet<W>); MAX_PINS],
    pin_count: usize,
    /// Cells on the paths of the opponent's lame leapers, hoppers and bent riders towards the
    /// royal: a move from or to one of them may open or close such an attack, so it is tried
    /// on a copy instead of being decided by the masks.
    slow_zone: CellSet<W>,
}

impl<const W: usize> Legality<W> {
    fn in_check(&self) -> bool {
        match self {
            Legality::Masks(m) => m.evasion != CellSet::ALL,
            _ => false,
        }
    }
}

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// Computes checkers and pins of `us`'s royal on `royal` from the opponent's lines and
    /// leaps; `None` when there are more pins than the fixed table holds.
    fn masks(&self, us: Player, royal: Cell) -> Option<Masks<W>> {
        let them = 1 - us;
        let occupied = self.occupied();
        let attacks = &self.spec().attacks;
        let mut checkers = CellSet::EMPTY;
        let mut block = CellSet::EMPTY;
        let mut pinned = CellSet::EMPTY;
        let mut pins = [(Cell(0), CellSet::EMPTY); MAX_PINS];
        let mut pin_count = 0;
        for r in attacks.rays(them, royal) {
            let blockers = r.ray.cells & occupied;
            let Some(first) = r.ray.nearest(blockers) else {
                continue;
            };
            let p = self.piece_at(first);
            if p.player() == them {
                if r.kinds & (1 << p.kind()) != 0 && r.origins.contains(first) {
                    checkers.insert(first);
                    block |= r.ray.up_to(first);
                }
                continue;
            }
            let rest = blockers.without(CellSet::from_cell(first));
            let Some(second) = r.ray.nearest(rest) else {
                continue;
            };
            let q = self.piece_at(second);
            if q.player() == them && r.kinds & (1 << q.kind()) != 0 && r.origins.contains(second) {
                if pin_count == MAX_PINS {
                    return None;
                }
                pinned.insert(first);
                pins[pin_count] = (first, r.ray.up_to(second));
                pin_count += 1;
            }
        }
        let theirs = self.pieces_of(them);
        for &k in &attacks.leap_kinds[them as usize] {
            checkers |= attacks.leaps(them, k, royal) & self.pieces_of_kind(k) & theirs;
        }
        let double_check = checkers.more_than_one();
        // A check is answered by capturing the checker or, on a line, blocking it; `block`
        // holds the checking lines up to and including the checker.
        let evasion = if checkers.is_empty() {
            CellSet::ALL
        } else {
            checkers | block
        };
        Some(Masks {
            royal,
            double_check,
            evasion,
            pinned,
            pins,
            pin_count,
            slow_zone: CellSet::EMPTY,
        })
    }

    fn legality(&self) -> Legality<W> {
        let us = self.turn();
        let Some(royal) = self.royal_cell(us) else {
            return Legality::Free;
        };
        let slow_zone = if self.spec().attacks.all_lines_and_leaps(1 - us) {
            CellSet::EMPTY
        } else {
            match self.slow_zone(1 - us, royal) {
                Some(zone) => zone,
                // A check by such a piece: try everything.
                None => return Legality::Probe,
            }
        };
        match self.masks(us, royal) {
            Some(mut m) => {
                m.slow_zone = slow_zone;
                Legality::Masks(m)
            }
            None => Legality::Probe,
        }
    }

    /// The cells on the capture paths of `by`'s lame leapers, hoppers and bent riders towards
    /// `royal`; `None` when one of them attacks it now.
    fn slow_zone(&self, by: Player, royal: Cell) -> Option<CellSet<W>> {
        let tables = &self.spec().moves;
        let occupied = self.occupied();
        let mut zone = CellSet::EMPTY;
        for &k in &self.spec().attacks.slow_kinds[by as usize] {
            for from in self.pieces_of_kind(k) & self.pieces_of(by) {
                let m = tables.get(by, k, from);
                for l in &tables.lame[m.lame.range()] {
                    if l.capture && l.to == royal {
                        if !l.path.intersects(occupied) {
                            return None;
                        }
                        zone |= l.path;
                    }
                }
                for b in &tables.bent[m.bent.range()] {
                    if b.capture && b.to == royal {
                        if b.open(occupied) {
                            return None;
                        }
                        zone |= b.paths[0] | b.paths[1];
                    }
                }
                for h in &tables.hops[m.hops.range()] {
                    if h.capture && h.ray.cells.contains(royal) {
                        if h.targets(occupied).1.contains(royal) {
                            return None;
                        }
                        zone |= h.ray.up_to(royal).without(CellSet::from_cell(royal));
                    }
                }
            }
        }
        Some(zone)
    }

    /// Where the piece on `from` may go: (quiet, captures), ignoring legality.
    #[inline(always)]
    fn reach(
        &self,
        us: Player,
        kind: Kind,
        from: Cell,
        occupied: CellSet<W>,
        empty: CellSet<W>,
        enemy: CellSet<W>,
    ) -> (CellSet<W>, CellSet<W>) {
        let tables = &self.spec().moves;
        if self.moved().contains(from) {
            tables.reach_moved(us, kind, from, occupied, empty, enemy)
        } else {
            tables.reach(us, kind, from, occupied, empty, enemy)
        }
    }

    /// The cells of `targets` to which the piece on `from` may move without exposing its royal
    /// piece, each tried on a copy.
    fn probed(&self, kind: Kind, from: Cell, targets: CellSet<W>, capture: bool) -> CellSet<W> {
        let mut safe = CellSet::EMPTY;
        for to in targets {
            let mv = Move {
                from,
                to,
                kind,
                promotion: None,
                captured: if capture {
                    self.piece_at(to)
                } else {
                    Piece::NONE
                },
                special: Special::Normal,
            };
            if self.royal_safe_after(mv) {
                safe.insert(to);
            }
        }
        safe
    }

    /// The kinds among `choices` that `player` may still promote to under the ruleset's
    /// piece-count limits, written into `buffer`; returns how many.
    fn available_choices(
        &self,
        player: Player,
        choices: &[Kind],
        buffer: &mut [Kind; 64],
    ) -> usize {
        let spec = self.spec();
        let mut n = 0;
        for &k in choices {
            let on_board = (self.pieces_of_kind(k) & self.pieces_of(player)).count();
            if on_board < spec.promotion_limits[k as usize] as u32 && n < buffer.len() {
                buffer[n] = k;
                n += 1;
            }
        }
        n
    }

    /// Emits moves of one piece to `quiet` and `captures`, splitting off promotions.
    #[inline(always)]
    fn emit<S: Sink<W>>(
        &self,
        sink: &mut S,
        us: Player,
        kind: Kind,
        from: Cell,
        quiet: CellSet<W>,
        captures: CellSet<W>,
    ) {
        match self.spec().promotion(us, kind) {
            None => sink.targets(self, from, kind, quiet, captures),
            Some(p) => {
                let all = quiet | captures;
                let mut forced = all & p.forced;
                if p.compulsory {
                    for zone in &p.zones {
                        forced |= if zone.from_zone && zone.zone.contains(from) {
                            all
                        } else {
                            all & zone.zone
                        };
                    }
                }
                sink.targets(
                    self,
                    from,
                    kind,
                    quiet.without(forced),
                    captures.without(forced),
                );
                for zone in &p.zones {
                    let eligible = if zone.from_zone && zone.zone.contains(from) {
                        all
                    } else {
                        all & zone.zone
                    };
                    if eligible.is_empty() {
                        continue;
                    }
                    if zone.limited {
                        let mut buffer = [0; 64];
                        let n = self.available_choices(us, &zone.choices, &mut buffer);
                        sink.promotions(self, from, kind, eligible, &buffer[..n]);
                    } else {
                        sink.promotions(self, from, kind, eligible, &zone.choices);
                    }
                }
            }
        }
    }

    /// Generates every legal move into `sink`.
    pub(super) fn generate<S: Sink<W>>(&self, sink: &mut S) {
        self.generate_checked(sink, self.legality());
    }

    /// Generates every legal move by trying each candidate (royal moves included) on a copy:
    /// the slow reference the fast generator is tested against.
    pub(super) fn generate_by_probing<S: Sink<W>>(&self, sink: &mut S) {
        let legality = match self.royal_cell(self.turn()) {
            Some(_) => Legality::Probe,
            None => Legality::Free,
        };
        self.generate_checked(sink, legality);
    }

    fn generate_checked<S: Sink<W>>(&self, sink: &mut S, legality: Legality<W>) {
        if self.spec().compulsory_capture {
            let before = sink.len();
            self.generate_with(sink, &legality, Phase::Captures);
            if sink.len() == before {
                self.generate_with(sink, &legality, Phase::Quiet);
            }
        } else {
            self.generate_with(sink, &legality, Phase::All);
        }
    }

    fn generate_with<S: Sink<W>>(&self, sink: &mut S, legality: &Legality<W>, phase: Phase) {
        let us = self.turn();
        let them = 1 - us;
        let occupied = self.occupied();
        let own = self.pieces_of(us);
        let enemy = if phase == Phase::Quiet {
            CellSet::EMPTY
        } else {
            self.pieces_of(them)
        };
        let empty = if phase == Phase::Captures {
            CellSet::EMPTY
        } else {
            self.spec().cells.without(occupied)
        };

        for kind in 0..K as Kind {
            let mine = self.pieces_of_kind(kind) & own;
            if mine.is_empty() {
                continue;
            }
            let kind_is_royal = self.spec().is_royal(kind);
            for from in mine {
                let (quiet, captures) = self.reach(us, kind, from, occupied, empty, enemy);
                match legality {
                    Legality::Free => self.emit(sink, us, kind, from, quiet, captures),
                    Legality::Masks(m) if kind_is_royal && from == m.royal => {
                        let without_royal = occupied.without(CellSet::from_cell(from));
                        let targets = quiet | captures;
                        // A far-reaching royal (the Maharajah) has many targets: then one map of
                        // every attacked cell is cheaper than asking cell by cell.
                        let unsafe_cells = if targets.count() > ROYAL_TARGETS_FOR_MAP {
                            self.attack_map(them, without_royal) & targets
                        } else {
                            targets
                                .iter()
                                .filter(|&to| self.attacked(to, them, without_royal))
                                .collect()
                        };
                        self.emit(
                            sink,
                            us,
                            kind,
                            from,
                            quiet.without(unsafe_cells),
                            captures.without(unsafe_cells),
                        );
                    }
                    Legality::Masks(m) => {
                        if m.double_check {
                            continue;
                        }
                        let mut allowed = m.evasion;
                        if m.pinned.contains(from) {
                            for &(cell, line) in &m.pins[..m.pin_count] {
                                if cell == from {
                                    allowed &= line;
                                }
                            }
                        }
                        let (mut quiet, mut captures) = (quiet & allowed, captures & allowed);
                        if m.slow_zone.any() {
                            let doubtful = if m.slow_zone.contains(from) {
                                CellSet::ALL
                            } else {
                                m.slow_zone
                            };
                            quiet = quiet.without(doubtful)
                                | self.probed(kind, from, quiet & doubtful, false);
                            captures = captures.without(doubtful)
                                | self.probed(kind, from, captures & doubtful, true);
                        }
                        self.emit(sink, us, kind, from, quiet, captures);
                    }
                    Legality::Probe => {
                        let safe_quiet = self.probed(kind, from, quiet, false);
                        let safe_captures = self.probed(kind, from, captures, true);
                        self.emit(sink, us, kind, from, safe_quiet, safe_captures);
                    }
                }
            }
        }

        let free = matches!(legality, Legality::Free);
        if phase != Phase::Quiet && self.en_passant_targets().any() {
            self.generate_en_passant(sink, us, free);
        }
        if phase != Phase::Captures {
            if self.castling_rights() != 0 && !legality.in_check() {
                self.generate_castling(sink, us, free);
            }
            self.generate_drops(sink, us, legality, empty);
        }
    }

    fn generate_drops<S: Sink<W>>(
        &self,
        sink: &mut S,
        us: Player,
        legality: &Legality<W>,
        empty: CellSet<W>,
    ) {
        for kind in 0..K as Kind {
            if self.in_hand(us, kind) == 0 {
                continue;
            }
            let mut cells = match self.spec().drop_zone(us, kind) {
                Some(zone) => empty & zone,
                None => empty,
            };
            cells = R::drop_cells(self, kind, cells);
            let mut doubtful = CellSet::EMPTY;
            match legality {
                Legality::Free => {}
                Legality::Masks(m) if m.double_check => cells = CellSet::EMPTY,
                Legality::Masks(m) => {
                    cells &= m.evasion;
                    doubtful = m.slow_zone;
                }
                Legality::Probe => doubtful = CellSet::ALL,
            }
            sink.drops(kind, cells.without(doubtful));
            for to in cells & doubtful {
                let mv = Move {
                    from: to,
                    to,
                    kind,
                    promotion: None,
                    captured: Piece::NONE,
                    special: Special::Drop,
                };
                if self.royal_safe_after(mv) {
                    sink.push(mv);
                }
            }
        }
    }

    fn generate_en_passant<S: Sink<W>>(&self, sink: &mut S, us: Player, free: bool) {
        let victim = self.ep_victim;
        for &k in &self.spec().en_passant_capturers {
            for from in self.pieces_of_kind(k) & self.pieces_of(us) {
                let targets =
                    self.spec().moves.get(us, k, from).ep_capture & self.en_passant_targets();
                for to in targets {
                    let mv = Move {
                        from,
                        to,
                        kind: k,
                        promotion: None,
                        captured: self.piece_at(victim),
                        special: Special::EnPassant,
                    };
                    if free || self.royal_safe_after(mv) {
                        sink.push(mv);
                    }
                }
            }
        }
    }

    fn generate_castling<S: Sink<W>>(&self, sink: &mut S, us: Player, free: bool) {
        let occupied = self.occupied();
        for (i, c) in self.castlings().iter().enumerate() {
            if c.player != us || self.castling_rights() & (1 << i) == 0 {
                continue;
            }
            if c.must_be_empty.intersects(occupied) {
                continue;
            }
            let without_king = occupied.without(CellSet::from_cell(c.king_from));
            if !free
                && c.king_path
                    .iter()
                    .any(|cell| self.attacked(cell, 1 - us, without_king))
            {
                continue;
            }
            let mv = Move {
                from: c.king_from,
                to: c.move_to,
                kind: self.piece_at(c.king_from).kind(),
                promotion: None,
                captured: Piece::NONE,
                special: Special::Castle(i as u8),
            };
            if free || self.royal_safe_after(mv) {
                sink.push(mv);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::fixtures::{
        GiveawayPosition, HousePosition, TinyPosition, legal, position,
    };
    use super::*;
    use crate::position::Position;

    fn house(fen: &str) -> HousePosition {
        position(fen)
    }

    /// The legal moves of the chess-like ruleset in a position.
    fn moves(fen: &str) -> Vec<String> {
        legal(&house(fen))
    }

    fn list(texts: &str) -> Vec<String> {
        let mut v: Vec<String> = texts.split_whitespace().map(str::to_string).collect();
        v.sort();
        v
    }

    /// Plays seeded random games; at every position the fast generator (checkers, pins,
    /// slow zones) must list exactly what trying every move on a copy lists, and the counter
    /// must count as many. Returns the positions seen and how many were in check.
    fn agree_in_random_games<P: Position>(start: &P, games: usize, plies: usize) -> (u32, u32) {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let (mut positions, mut checks) = (0, 0);
        for _ in 0..games {
            let mut p = start.clone();
            for _ in 0..plies {
                let (mut fast, mut probed) = (Vec::new(), Vec::new());
                p.legal_moves(&mut fast);
                p.reference_legal_moves(&mut probed);
                let texts = |moves: &[P::Move]| {
                    let mut t: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
                    t.sort();
                    t
                };
                assert_eq!(texts(&fast), texts(&probed), "{}", p.fen());
                assert_eq!(p.count_legal_moves(), fast.len() as u64, "{}", p.fen());
                positions += 1;
                checks += u32::from(p.is_check());
                if fast.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                p.play_unchecked(fast[(seed >> 33) as usize % fast.len()]);
            }
        }
        (positions, checks)
    }

    #[test]
    fn fast_generation_agrees_with_trying_every_move() {
        let start = house("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let (positions, checks) = agree_in_random_games(&start, 40, 120);
        assert!(
            positions > 2000 && checks > 50,
            "{positions} positions, {checks} checks"
        );
        // Cannons and lame horses attack the slow way.
        let start: TinyPosition = position("rchnk/5/5/5/RCHNK w - - 0 1");
        let (positions, checks) = agree_in_random_games(&start, 60, 80);
        assert!(
            positions > 1000 && checks > 50,
            "{positions} positions, {checks} checks"
        );
    }

    #[test]
    fn a_double_check_leaves_only_king_moves() {
        // The rook e8 and the bishop b4 both check; Ra1 could take neither anyway.
        let fen = "4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1";
        let p = house(fen);
        let masks = p.masks(0, p.royal_cell(0).unwrap()).unwrap();
        assert!(masks.double_check);
        assert_eq!(moves(fen), list("e1d1 e1f1 e1f2"));
    }

    #[test]
    fn a_single_check_is_met_by_capture_block_or_king_move() {
        // Re8 checks along the file: the knight blocks, the bishop blocks or takes.
        assert_eq!(
            moves("4r1k1/8/8/7B/8/2N5/8/4K3 w - - 0 1"),
            list("c3e2 c3e4 h5e2 h5e8 e1d1 e1d2 e1f1 e1f2")
        );
        // A knight's check cannot be blocked.
        assert_eq!(
            moves("6k1/3R4/8/8/8/3n4/8/4K3 w - - 0 1"),
            list("d7d3 e1d1 e1d2 e1e2 e1f1")
        );
    }

    #[test]
    fn a_pinned_man_moves_only_along_its_pin() {
        let rook = house("4r1k1/8/8/8/4R3/8/8/4K3 w - - 0 1");
        let masks = rook.masks(0, rook.royal_cell(0).unwrap()).unwrap();
        assert_eq!(masks.pin_count, 1);
        let from_e4: Vec<String> = legal(&rook)
            .into_iter()
            .filter(|m| m.starts_with("e4"))
            .collect();
        assert_eq!(from_e4, list("e4e2 e4e3 e4e5 e4e6 e4e7 e4e8"));
        // A pinned knight cannot move at all; a pinned bishop slides along the diagonal.
        let knight = moves("4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1");
        assert!(knight.iter().all(|m| m.starts_with("e1")), "{knight:?}");
        let bishop: Vec<String> = moves("6k1/8/8/b7/8/2B5/8/4K3 w - - 0 1")
            .into_iter()
            .filter(|m| m.starts_with("c3"))
            .collect();
        assert_eq!(bishop, list("c3a5 c3b4 c3d2"));
    }

    #[test]
    fn en_passant_that_would_expose_the_king_is_not_offered() {
        // After c7c5 the b5 pawn could take on c6, but the capture would open the fifth
        // rank to the rook on h5: no target is recorded, no capture listed.
        let before = "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1";
        let mut p = house(before);
        p.play_unchecked(p.parse_move("c7c5").unwrap());
        assert!(p.en_passant_targets().is_empty());
        assert!(!legal(&p).contains(&"b5c6".to_string()));
        // Without the rook it is legal.
        let mut p = house("8/2p5/8/KP6/8/8/8/4k3 b - - 0 1");
        p.play_unchecked(p.parse_move("c7c5").unwrap());
        assert_eq!(p.fen(), "8/8/8/KPp5/8/8/8/4k3 w - c6 0 2");
        assert!(legal(&p).contains(&"b5c6".to_string()));
        // Taking en passant answers the double step's check.
        let mut p = house("8/3p4/8/4P3/4K3/8/8/k7 b - - 0 1");
        p.play_unchecked(p.parse_move("d7d5").unwrap());
        assert!(p.is_check());
        assert!(legal(&p).contains(&"e5d6".to_string()));
    }

    #[test]
    fn castling_needs_an_empty_way_and_an_unattacked_king_path() {
        let castlings = |fen: &str| -> Vec<String> {
            moves(fen)
                .into_iter()
                .filter(|m| m == "e1g1" || m == "e1c1")
                .collect()
        };
        assert_eq!(
            castlings("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
            ["e1c1", "e1g1"]
        );
        // f1 attacked: no short castling; b1 attacked is not on the king's path.
        assert_eq!(castlings("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"), ["e1c1"]);
        assert_eq!(
            castlings("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
            ["e1c1", "e1g1"]
        );
        // d1 or the landing cell g1 attacked, the king in check, or b1 occupied.
        assert_eq!(castlings("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), ["e1g1"]);
        assert_eq!(castlings("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), ["e1c1"]);
        assert!(castlings("4k3/8/8/4q3/8/8/8/R3K2R w KQ - 0 1").is_empty());
        assert_eq!(castlings("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1"), ["e1g1"]);
    }

    #[test]
    fn promotions_offer_every_choice_and_no_plain_move() {
        assert_eq!(
            moves("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
                .into_iter()
                .filter(|m| m.starts_with("a7"))
                .collect::<Vec<_>>(),
            list("a7a8b a7a8n a7a8q a7a8r")
        );
    }

    #[test]
    fn drops_go_to_empty_cells_of_their_zone_and_answer_checks() {
        let drops = |fen: &str, letter: &str| -> Vec<String> {
            moves(fen)
                .into_iter()
                .filter(|m| m.starts_with(letter))
                .collect()
        };
        // Pawns on ranks 2-7 only; a knight anywhere empty.
        let pawns = drops("4k3/8/8/8/8/8/8/4K3[PN] w - - 0 1", "P@");
        assert_eq!(pawns.len(), 48);
        assert!(pawns.iter().all(|m| !m.ends_with('1') && !m.ends_with('8')));
        assert_eq!(drops("4k3/8/8/8/8/8/8/4K3[PN] w - - 0 1", "N@").len(), 62);
        // Black's men in hand are not White's to drop.
        assert!(drops("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", "N@").is_empty());
        // In check a drop must block; in double check nothing can be dropped.
        assert_eq!(
            drops("4k3/4r3/8/8/8/8/8/4K3[N] w - - 0 1", "N@"),
            list("N@e2 N@e3 N@e4 N@e5 N@e6")
        );
        assert!(drops("4r1k1/8/8/8/1b6/8/8/4K3[N] w - - 0 1", "N@").is_empty());
    }

    #[test]
    fn a_check_by_a_cannon_is_answered_by_moving_or_adding_a_screen() {
        // The cannon c5 checks over the rook c3: the rook may leave the file or take the
        // cannon, but not stay between; the king may not step behind its screen.
        let p: TinyPosition = position("2c1k/5/2R2/5/2K2 w - - 0 1");
        assert!(p.is_check());
        assert!(matches!(p.legality(), Legality::Probe));
        assert_eq!(
            legal(&p),
            list("c3a3 c3b3 c3d3 c3e3 c3c5 c1b1 c1b2 c1d1 c1d2")
        );
    }

    #[test]
    fn without_a_royal_man_every_move_is_legal_and_captures_come_first() {
        // The `K` is an ordinary man: it may step next to the enemy rook.
        let p: GiveawayPosition = position("2k2/5/5/r4/4K w - - 0 1");
        assert!(matches!(p.legality(), Legality::Free));
        assert_eq!(legal(&p), list("e1d1 e1d2 e1e2"));
        // When a capture exists, only captures are legal.
        let p: GiveawayPosition = position("r1k2/5/5/5/R3K w - - 0 1");
        assert_eq!(legal(&p), list("a1a5"));
    }
}
