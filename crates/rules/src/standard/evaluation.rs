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
/// Danger units per enemy piece on the board that reaches the royal piece's neighbourhood.
const BOARD_ATTACKER_UNITS: usize = 2;
/// Danger units per enemy piece in hand other than pawns: a drop joins an attack in one move.
const HAND_ATTACKER_UNITS: usize = 1;
/// Opening penalty by the danger units against the royal piece (two per attacker on the
/// board, one per piece in the attacker's hand).
const ROYAL_DANGER: [i32; 16] = [
    0, 0, 0, 10, 20, 40, 60, 90, 120, 160, 200, 240, 280, 320, 360, 400,
];
/// Bonus for having the move (keeps odd and even search depths comparable).
const TEMPO: i32 = 10;

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// The shared evaluation from `player`'s point of view, in centipawns.
    pub fn standard_evaluation(&self, player: Player) -> i32 {
        evaluate(self.spec(), self, player, self.turn(), |side, kind| {
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

/// Material and placement, mobility against each piece's average, pieces in hand (`in_hand`
/// counts them), royal safety where a side has a single royal piece, and the tempo.
///
/// Pieces in hand count towards the game phase: in drop games material never leaves the
/// game, so the king must not walk out as if the board were emptying.
fn evaluate<const W: usize, B: PieceBoard<W>>(
    spec: &Spec<W>,
    board: &B,
    player: Player,
    to_move: Player,
    in_hand: impl Fn(Player, Kind) -> u8,
) -> i32 {
    let tables = &spec.eval;
    let occupied = board.cells_of_player(0) | board.cells_of_player(1);
    let empty = spec.cells.without(occupied);
    let mut score = [Tapered::default(); 2];
    let mut phase = 0;
    let mut danger_units = [0usize; 2];
    let zones = [royal_zone(spec, board, 0), royal_zone(spec, board, 1)];
    for side in 0..2u8 {
        let s = side as usize;
        let enemy = board.cells_of_player(1 - side);
        for kind in 0..spec.pieces.len() {
            let k = kind as Kind;
            let pawn = spec.pieces[kind].pawn;
            let hand = in_hand(side, k) as i32;
            if hand > 0 {
                score[s] += Tapered::flat(hand * tables.hand_values[kind]);
                phase += hand * tables.phase_weights[kind];
                if !pawn {
                    danger_units[s] += hand as usize * HAND_ATTACKER_UNITS;
                }
            }
            let pieces = board.cells_of_kind(k) & board.cells_of_player(side);
            if pieces.is_empty() {
                continue;
            }
            let movable = !pawn && !spec.is_royal(k);
            let average = tables.average_mobility(side, k);
            for cell in pieces {
                score[s] += tables.square(side, k, cell);
                phase += tables.phase_weights[kind];
                if movable {
                    let (quiet, captures) = spec.moves.reach(side, k, cell, occupied, empty, enemy);
                    let reach = quiet | captures;
                    let above = reach.count() as i32 * 16 - average;
                    score[s].opening += above * MOBILITY_OPENING / 16;
                    score[s].endgame += above * MOBILITY_ENDGAME / 16;
                    if let Some(zone) = zones[1 - s]
                        && reach.intersects(zone)
                    {
                        danger_units[s] += BOARD_ATTACKER_UNITS;
                    }
                }
            }
        }
        if let Some(zone) = zones[s] {
            let shelter = (zone & board.cells_of_player(side)).count() as i32;
            score[s].opening += shelter * SHELTER;
        }
    }
    for s in 0..2 {
        // Pieces in hand threaten only a royal piece there is to attack.
        if zones[1 - s].is_some() {
            let danger = ROYAL_DANGER[danger_units[s].min(ROYAL_DANGER.len() - 1)];
            score[1 - s].opening -= danger;
        }
    }
    let mut total = score[player as usize];
    total -= score[1 - player as usize];
    let tempo = if to_move == player { TEMPO } else { -TEMPO };
    total.blend(phase, tables.full_phase) + tempo
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
