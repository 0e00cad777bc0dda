//! The shared evaluation of standard positions: material and placement from the spec's
//! [`EvalTables`](crate::eval::EvalTables), pieces in hand, mobility against each piece's
//! average, and royal safety where the ruleset has a single royal piece to attack.

use super::{Move, Rules, Spec, Special, StandardPosition};
use crate::eval::{MoveValue, Tapered};
use crate::piece::{Kind, Player};
use crate::tables::PieceBoard;
use chaturanga_geometry::CellSet;

/// Centipawns per cell of mobility above the piece's average, in the opening.
const MOBILITY_OPENING: i32 = 3;
/// Centipawns per cell of mobility above the piece's average, in the endgame.
const MOBILITY_ENDGAME: i32 = 4;
/// Opening bonus per own piece next to the royal piece.
const SHELTER: i32 = 8;
/// Opening penalty by the number of enemy pieces reaching the royal piece's neighbourhood.
const ROYAL_DANGER: [i32; 8] = [0, 0, 20, 60, 120, 200, 280, 360];
/// Bonus for having the move (keeps odd and even search depths comparable).
const TEMPO: i32 = 10;

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// The shared evaluation from `player`'s point of view, in centipawns.
    pub fn standard_evaluation(&self, player: Player) -> i32 {
        let spec = self.spec();
        let tables = &spec.eval;
        let occupied = self.occupied();
        let empty = spec.cells.without(occupied);
        let mut score = [Tapered::default(); 2];
        let mut phase = 0;
        let mut attackers = [0usize; 2];
        let zones = [self.royal_zone(0), self.royal_zone(1)];
        for side in 0..2u8 {
            let s = side as usize;
            let enemy = self.pieces_of(1 - side);
            for kind in 0..K {
                let k = kind as Kind;
                let pieces = self.pieces_of_kind(k) & self.pieces_of(side);
                if pieces.is_empty() {
                    continue;
                }
                let movable = !spec.pieces[kind].pawn && !spec.is_royal(k);
                let average = tables.average_mobility(side, k);
                for cell in pieces {
                    score[s] += tables.square(side, k, cell);
                    phase += tables.phase_weights[kind];
                    if movable {
                        let (quiet, captures) =
                            spec.moves.reach(side, k, cell, occupied, empty, enemy);
                        let reach = quiet | captures;
                        let above = reach.count() as i32 * 16 - average;
                        score[s].opening += above * MOBILITY_OPENING / 16;
                        score[s].endgame += above * MOBILITY_ENDGAME / 16;
                        if let Some(zone) = zones[1 - s]
                            && reach.intersects(zone)
                        {
                            attackers[s] += 1;
                        }
                    }
                }
                let in_hand = self.in_hand(side, k) as i32;
                if in_hand > 0 {
                    score[s] += Tapered::flat(in_hand * tables.hand_values[kind]);
                }
            }
            if let Some(zone) = zones[s] {
                let shelter = (zone & self.pieces_of(side)).count() as i32;
                score[s].opening += shelter * SHELTER;
            }
        }
        for s in 0..2 {
            let danger = ROYAL_DANGER[attackers[s].min(ROYAL_DANGER.len() - 1)];
            score[1 - s].opening -= danger;
        }
        let mut total = score[player as usize];
        total -= score[1 - player as usize];
        let tempo = if self.turn() == player { TEMPO } else { -TEMPO };
        total.blend(phase, tables.full_phase) + tempo
    }

    /// The cells next to `player`'s royal piece, when it has exactly one.
    fn royal_zone(&self, player: Player) -> Option<CellSet<W>> {
        let royals = self.royals(player);
        if royals.is_empty() || royals.more_than_one() {
            return None;
        }
        let cell = royals.first()?;
        let kind = self.piece_at(cell).kind();
        let m = self.spec().moves.get(player, kind, cell);
        Some(m.leap_both | m.leap_quiet | m.leap_capture)
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
/// (own position types such as Congo's or the large shogi boards'): material and placement,
/// mobility against each piece's average, and the tempo, from `player`'s point of view.
pub fn board_evaluation<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    player: Player,
    to_move: Player,
) -> i32 {
    let tables = &spec.eval;
    let occupied = board.cells_of_player(0) | board.cells_of_player(1);
    let empty = spec.cells.without(occupied);
    let mut score = [Tapered::default(); 2];
    let mut phase = 0;
    for side in 0..2u8 {
        let s = side as usize;
        let enemy = board.cells_of_player(1 - side);
        for kind in 0..spec.pieces.len() {
            let k = kind as Kind;
            let pieces = board.cells_of_kind(k) & board.cells_of_player(side);
            if pieces.is_empty() {
                continue;
            }
            let movable = !spec.pieces[kind].pawn && !spec.is_royal(k);
            let average = tables.average_mobility(side, k);
            for cell in pieces {
                score[s] += tables.square(side, k, cell);
                phase += tables.phase_weights[kind];
                if movable {
                    let (quiet, captures) = spec.moves.reach(side, k, cell, occupied, empty, enemy);
                    let above = (quiet | captures).count() as i32 * 16 - average;
                    score[s].opening += above * MOBILITY_OPENING / 16;
                    score[s].endgame += above * MOBILITY_ENDGAME / 16;
                }
            }
        }
    }
    let mut total = score[player as usize];
    total -= score[1 - player as usize];
    let tempo = if to_move == player { TEMPO } else { -TEMPO };
    total.blend(phase, tables.full_phase) + tempo
}
