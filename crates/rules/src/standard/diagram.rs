//! A text picture of a standard position for terminals.

use super::{Rules, Spec, StandardPosition};
use crate::piece::Piece;
use crate::position::Position;
use chaturanga_geometry::{Cell, Geometry, Lattice};

/// The board as rows of cells from the top, each cell showing `content` (`.` when empty),
/// with rank labels on the left and file labels below (hexagonal boards: drawn as hexagons).
pub fn board_text(geometry: &Geometry, content: impl Fn(Cell) -> Option<String>) -> String {
    if geometry.lattice() == Lattice::Hex {
        // Rows of a hex board are staggered: the geometry draws the cells themselves.
        return geometry.drawing(|cell| content(cell).unwrap_or_default());
    }
    let rows = geometry.rows_from_top();
    let width = geometry
        .cells()
        .filter_map(&content)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let label_parts = |cell: Cell| {
        let label = geometry.label(cell);
        let split = label
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(label.len());
        (label[..split].to_string(), label[split..].to_string())
    };
    let rank_width = geometry
        .cells()
        .map(|c| label_parts(c).1.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for row in &rows {
        let rank = row
            .iter()
            .flatten()
            .next()
            .map(|&c| label_parts(c).1)
            .unwrap_or_default();
        out.push_str(&format!("{rank:>rank_width$} "));
        for point in row {
            let text = match point {
                None => " ".to_string(),
                Some(c) => content(*c).unwrap_or_else(|| ".".to_string()),
            };
            out.push_str(&format!(" {text:>width$}"));
        }
        out.push('\n');
    }
    // File labels under the bottom-most cell of each column.
    out.push_str(&" ".repeat(rank_width + 1));
    let columns = rows.first().map_or(0, Vec::len);
    for x in 0..columns {
        let file = rows
            .iter()
            .rev()
            .find_map(|row| row[x])
            .map(|c| label_parts(c).0)
            .unwrap_or_default();
        out.push_str(&format!(" {file:>width$}"));
    }
    out.push('\n');
    out
}

/// The board of a position using `spec`'s pieces: first player's symbols as written, the
/// others' in lower case.
pub fn pieces_text<const W: usize>(spec: &Spec<W>, piece_at: impl Fn(Cell) -> Piece) -> String {
    board_text(&spec.geometry, |cell| {
        let piece = piece_at(cell);
        piece.is_some().then(|| {
            let symbol = &spec.pieces[piece.kind() as usize].symbol;
            if piece.player() == 0 {
                symbol.clone()
            } else {
                symbol.to_ascii_lowercase()
            }
        })
    })
}

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// The board, the hands and the player to move, for a terminal.
    pub fn standard_diagram(&self) -> String {
        let spec = self.spec();
        let mut out = pieces_text(spec, |cell| self.piece_at(cell));
        let has_hands =
            spec.captures_to_hand || (0..2).any(|p| (0..K).any(|k| self.in_hand(p, k as u8) > 0));
        if has_hands {
            for player in 0..2u8 {
                let held: Vec<String> = (0..K)
                    .filter(|&k| self.in_hand(player, k as u8) > 0)
                    .map(|k| {
                        let n = self.in_hand(player, k as u8);
                        let symbol = &spec.pieces[k].symbol;
                        if n > 1 {
                            format!("{symbol}{n}")
                        } else {
                            symbol.clone()
                        }
                    })
                    .collect();
                let name = self.player_name(player as usize);
                let held = if held.is_empty() {
                    "-".to_string()
                } else {
                    held.join(" ")
                };
                out.push_str(&format!("in hand, {name}: {held}\n"));
            }
        }
        out.push_str(&format!(
            "{} to move\n",
            self.player_name(self.side_to_move())
        ));
        out
    }
}

/// The men of a board of `spec`'s pieces as scene men.
pub fn scene_men<const W: usize>(
    spec: &'static Spec<W>,
    piece_at: impl Fn(Cell) -> Piece,
) -> crate::scene::SceneBoard {
    crate::scene::board_scene(
        &spec.geometry,
        spec.geometry.cells().filter_map(|cell| {
            let piece = piece_at(cell);
            piece.is_some().then(|| {
                (
                    cell,
                    spec.pieces[piece.kind() as usize].symbol.clone(),
                    piece.player() as usize,
                )
            })
        }),
    )
}

impl<const W: usize, const K: usize, R: Rules<W, K>> StandardPosition<W, K, R> {
    /// Everything on the board and in hand, with the royal piece of the player to move
    /// marked when it is in check.
    pub fn standard_scene(&self) -> crate::scene::SceneBoard {
        let spec = self.spec();
        let mut board = scene_men(spec, |cell| self.piece_at(cell));
        board.has_hands = spec.captures_to_hand || spec.hands_always_shown;
        for player in 0..2u8 {
            for kind in 0..K {
                let count = self.in_hand(player, kind as u8);
                if count > 0 {
                    board.hands.push(crate::scene::SceneHand {
                        owner: player as usize,
                        piece: spec.pieces[kind].symbol.clone(),
                        count: u32::from(count),
                    });
                }
            }
        }
        if self.is_check() {
            board.check.extend(
                self.royals(self.turn())
                    .iter()
                    .map(|c| spec.geometry.label(c).to_string()),
            );
        }
        board
    }

    /// The cells of a move: start and destination, the piece of a drop, the promotion.
    pub fn standard_move_shape(&self, mv: super::Move) -> crate::scene::MoveShape {
        let spec = self.spec();
        let label = |cell: Cell| spec.geometry.label(cell).to_string();
        let drop = mv.special == super::Special::Drop;
        crate::scene::MoveShape {
            from: (!drop).then(|| label(mv.from)),
            to: Some(label(mv.to)),
            drop: drop.then(|| spec.pieces[mv.kind as usize].symbol.clone()),
            promotion: mv.promotion.map(|k| spec.pieces[k as usize].symbol.clone()),
            ..Default::default()
        }
    }
}
