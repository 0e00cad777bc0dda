//! Static exchange evaluation: what a move wins or loses on its destination cell if both
//! sides then capture there, each with its least valuable piece, and stop when capturing no
//! longer pays.
//!
//! Attackers come from the same reverse tables as check detection, with the pieces already
//! exchanged taken off the occupancy, so a rider behind another (a battery, a cannon's new
//! screen) joins in when the piece in front has gone. Pins, drops and promotions of the
//! recapturing pieces are not considered: it is an estimate for ordering and pruning.

use super::{Move, Rules, Special, StandardPosition};
use crate::piece::{Kind, Player};
use crate::tables::PieceBoard;
use chaturanga_geometry::{Cell, CellSet};

/// Most captures followed on one cell (every piece of both sides at most).
const MAX_EXCHANGES: usize = 64;

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// What a captured piece of `kind` is worth to the captor: its value, and where captures
    /// go to hand the value of the piece he gains.
    fn capture_value(&self, kind: Kind) -> i32 {
        let eval = &self.spec().eval;
        let mut value = eval.values[kind as usize];
        if self.spec().captures_to_hand {
            value += eval.hand_values[self.spec().demoted[kind as usize] as usize];
        }
        value
    }

    /// `by`'s least valuable piece that captures on `cell` when only `occupied` is occupied
    /// (pieces already exchanged are off it), with its cell and kind.
    fn least_valuable_attacker(
        &self,
        cell: Cell,
        by: Player,
        occupied: CellSet<W>,
    ) -> Option<(Cell, Kind)> {
        let spec = self.spec();
        let values = &spec.eval.values;
        let theirs = self.pieces_of(by) & occupied;
        let mut best: Option<(Cell, Kind, i32)> = None;
        let mut target = CellSet::EMPTY;
        target.insert(cell);
        let mut consider = |from: Cell, kind: Kind| {
            // A royal piece's attacks may include moves it never plays (xiangqi's flying
            // general "attacks" along its file): only a move it may make counts here.
            if spec.is_royal(kind)
                && !spec
                    .moves
                    .reach(by, kind, from, occupied, CellSet::EMPTY, target)
                    .1
                    .contains(cell)
            {
                return;
            }
            let value = values[kind as usize];
            if best.is_none_or(|(_, _, v)| value < v) {
                best = Some((from, kind, value));
            }
        };
        for r in spec.attacks.rays(by, cell) {
            if let Some(b) = r.ray.nearest(r.ray.cells & occupied) {
                let p = self.piece_at(b);
                if theirs.contains(b) && r.kinds & (1 << p.kind()) != 0 && r.origins.contains(b) {
                    consider(b, p.kind());
                }
            }
        }
        for &k in &spec.attacks.leap_kinds[by as usize] {
            let from = spec.attacks.leaps(by, k, cell) & self.cells_of_kind(k) & theirs;
            if let Some(from) = from.first() {
                consider(from, k);
            }
        }
        for &k in &spec.attacks.slow_kinds[by as usize] {
            for from in self.cells_of_kind(k) & theirs {
                if spec
                    .moves
                    .capture_reach(by, k, from, occupied)
                    .contains(cell)
                {
                    consider(from, k);
                    break;
                }
            }
        }
        best.map(|(from, kind, _)| (from, kind))
    }

    /// The material `mv` wins (negative: loses) once the exchange on its destination has run
    /// its course, in centipawns, for the player to move. Where captures are compulsory
    /// (Losing chess) no side may stop an exchange, so the immediate gain is returned.
    pub fn static_exchange(&self, mv: Move) -> i32 {
        let spec = self.spec();
        let values = &spec.eval.values;
        let mut first = match mv.captured.is_some() {
            true => self.capture_value(mv.captured.kind()),
            false => 0,
        };
        let standing = mv.promotion.unwrap_or(mv.kind);
        if let Some(p) = mv.promotion
            && mv.special != Special::Drop
        {
            first += (values[p as usize] - values[mv.kind as usize]).max(0);
        }
        if spec.compulsory_capture || matches!(mv.special, Special::Castle(_)) {
            return first;
        }
        let mut occupied = self.occupied();
        if mv.special != Special::Drop {
            occupied.remove(mv.from);
        }
        if mv.special == Special::EnPassant {
            occupied.remove(self.ep_victim);
        }
        let to = mv.to;
        occupied.insert(to);
        let mut gains = [0i32; MAX_EXCHANGES];
        gains[0] = first;
        let mut at_risk = self.capture_value(standing);
        let mut side = 1 - self.turn();
        let mut depth = 0;
        while depth + 1 < MAX_EXCHANGES {
            let Some((from, kind)) = self.least_valuable_attacker(to, side, occupied) else {
                break;
            };
            let mut after = occupied;
            after.remove(from);
            // A royal piece may only take the last man: it cannot step into a recapture.
            if spec.is_royal(kind) && self.least_valuable_attacker(to, 1 - side, after).is_some() {
                break;
            }
            depth += 1;
            gains[depth] = at_risk - gains[depth - 1];
            at_risk = self.capture_value(kind);
            occupied = after;
            side = 1 - side;
        }
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }
}
