//! What a person sees of a position, as data: the boards with their men, hands and fog, and
//! the shape of every move (cells a click picks), for front ends that know no rules.
//!
//! A server or a browser draws a [`Scene`] and builds moves from [`MoveShape`]s; neither
//! asks which ruleset it shows. Every position type implements
//! [`Position::scene`](crate::Position::scene) and
//! [`Position::move_shape`](crate::Position::move_shape); the hidden-information rulesets
//! put into a player's scene only what that player may see.

use chaturanga_geometry::Geometry;
use std::sync::Arc;

/// Who looks at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Sees everything: the arbiter, or anyone once the game is over.
    Arbiter,
    /// One player (0 = the first), who sees what the rules let him see.
    Player(usize),
    /// Someone watching a game in progress: in a game with hidden men, none of them.
    Spectator,
}

/// A board's cells: a fixed geometry, or one built for this position (Chex's board grows).
#[derive(Clone, Debug)]
pub enum BoardShape {
    /// The ruleset's geometry.
    Fixed(&'static Geometry),
    /// A geometry built for this position.
    Built(Arc<Geometry>),
}

impl BoardShape {
    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        match self {
            BoardShape::Fixed(g) => g,
            BoardShape::Built(g) => g,
        }
    }
}

/// One man (or tower, or stone) on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneMan {
    /// The cell's label, as moves write it.
    pub cell: String,
    /// The piece's symbol (`N`, `+R`, `Q~`), as the FEN writes it for the first player.
    pub piece: String,
    /// The owner (0 = the first player).
    pub owner: usize,
    /// A tower's height (Makarenko), where men stack.
    pub height: Option<u32>,
}

/// Men of one kind in a player's hand or pocket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneHand {
    /// The owner.
    pub owner: usize,
    /// The piece's symbol.
    pub piece: String,
    /// How many.
    pub count: u32,
}

/// One board as a viewer sees it.
#[derive(Clone, Debug)]
pub struct SceneBoard {
    /// Its cells.
    pub shape: BoardShape,
    /// The men the viewer sees.
    pub men: Vec<SceneMan>,
    /// Hands or pockets the viewer sees.
    pub hands: Vec<SceneHand>,
    /// Labels of cells the viewer cannot see into.
    pub fog: Vec<String>,
    /// Labels of royal men in check.
    pub check: Vec<String>,
    /// The player who sits at the bottom of the board's drawing (on the side of its lowest
    /// rank), where that is not the board's first player: Gess's White, whose stones start on
    /// the low ranks while Black moves first. `None`: the board's first player, as the
    /// drawing is made ([`chaturanga_geometry::Geometry::to_json`]). Front ends turn the
    /// board from there to put a viewer's side at the bottom.
    pub bottom: Option<usize>,
    /// Whether the board has hands (pockets, reserves) though they may be empty now (shogi
    /// before its first capture): a front end keeps their room, so the board does not move
    /// when the first piece arrives.
    pub has_hands: bool,
}

impl SceneBoard {
    /// A board with nothing on it yet.
    pub fn new(shape: BoardShape) -> Self {
        SceneBoard {
            shape,
            men: Vec::new(),
            hands: Vec::new(),
            fog: Vec::new(),
            check: Vec::new(),
            bottom: None,
            has_hands: false,
        }
    }
}

/// Everything a viewer sees of a position.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The boards (two for bughouse).
    pub boards: Vec<SceneBoard>,
    /// Whether the viewer sees the whole position (so its FEN may be shown).
    pub complete: bool,
    /// Pieces waiting to be placed that every player sees (Chex's drawn man), if any.
    pub note: Option<String>,
}

impl Scene {
    /// A scene of one fully visible board.
    pub fn single(board: SceneBoard) -> Self {
        Scene {
            boards: vec![board],
            complete: true,
            note: None,
        }
    }
}

/// The cells and pieces a person picks to make a move: enough to build any move by clicks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveShape {
    /// Which board (bughouse: 0 = A, 1 = B).
    pub board: usize,
    /// The start cell; `None` for a drop or a move that picks no cell.
    pub from: Option<String>,
    /// The destination; `None` for a move that picks no cell (a Chex draw).
    pub to: Option<String>,
    /// Cells passed through on the way, in order (a lion's first step, a monkey's landings).
    pub via: Vec<String>,
    /// The piece dropped or placed from a hand, pocket or stack.
    pub drop: Option<String>,
    /// The piece promoted to, or `+` where the ruleset writes promotion so.
    pub promotion: Option<String>,
    /// The part of the turn the move belongs to (`move`, `push`, `draw`, `place`), where a
    /// turn has parts of different kinds.
    pub part: Option<&'static str>,
    /// How many men of a tower move (Makarenko's split), where only some of them do.
    pub split: Option<u32>,
    /// The cells that move with the picked one (Gess's 3x3 footprint around its centre),
    /// for a client to highlight; empty where only the picked man moves.
    pub area: Vec<String>,
    /// Other cells a person may click through, in order, before `to`, to make this same move
    /// (a lion's leap or step taken as two steps through an empty cell, its pass through any
    /// empty neighbour); empty where `via` is the only way.
    pub routes: Vec<Vec<String>>,
}

/// The standard scene of a position on one board: every occupied cell, then the hands.
pub fn board_scene(
    geometry: &'static Geometry,
    men: impl IntoIterator<Item = (chaturanga_geometry::Cell, String, usize)>,
) -> SceneBoard {
    let mut board = SceneBoard::new(BoardShape::Fixed(geometry));
    board.men = men
        .into_iter()
        .map(|(cell, piece, owner)| SceneMan {
            cell: geometry.label(cell).to_string(),
            piece,
            owner,
            height: None,
        })
        .collect();
    board
}
