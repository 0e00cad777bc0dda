//! The game state, boards and move shapes as the wire carries them.
//!
//! Every change sends each viewer class its state, so this is the server's hottest path: the
//! types here serialize the rules crate's scenes and shapes straight into the output, without
//! building a JSON tree first (which cost more than the move and its commit together).

use crate::clock::ClockSpec;
use chaturanga_rules::scene::{BoardShape, MoveShape, SceneBoard, SceneHand, SceneMan};
use chaturanga_rules::{OptionSpec, OptionValues};
use chaturanga_session::{LegalMove, SeenMove};
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// Writes a shape's fields into a map already begun (a legal move adds its text).
fn shape_entries<M: SerializeMap>(map: &mut M, shape: &MoveShape) -> Result<(), M::Error> {
    if shape.board != 0 {
        map.serialize_entry("board", &shape.board)?;
    }
    if let Some(from) = &shape.from {
        map.serialize_entry("from", from)?;
    }
    if let Some(to) = &shape.to {
        map.serialize_entry("to", to)?;
    }
    if !shape.via.is_empty() {
        map.serialize_entry("via", &shape.via)?;
    }
    if let Some(drop) = &shape.drop {
        map.serialize_entry("drop", drop)?;
    }
    if let Some(promotion) = &shape.promotion {
        map.serialize_entry("promotion", promotion)?;
    }
    if let Some(part) = shape.part {
        map.serialize_entry("part", part)?;
    }
    if let Some(split) = shape.split {
        map.serialize_entry("split", &split)?;
    }
    if !shape.area.is_empty() {
        map.serialize_entry("area", &shape.area)?;
    }
    if !shape.routes.is_empty() {
        map.serialize_entry("routes", &shape.routes)?;
    }
    Ok(())
}

/// A move's shape: `board` (when not the first), `from`, `to`, `via`, `drop`, `promotion`,
/// `part`, `split`, `area`, `routes`, each only where it applies.
pub struct Shape<'a>(pub &'a MoveShape);

impl Serialize for Shape<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        shape_entries(&mut map, self.0)?;
        map.end()
    }
}

/// A legal move: its shape and its `text`.
struct Legal<'a>(&'a LegalMove);

impl Serialize for Legal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        shape_entries(&mut map, &self.0.shape)?;
        map.serialize_entry("text", &self.0.text)?;
        map.end()
    }
}

/// Serializes a slice through a wrapper of each element.
struct Each<'a, T, W>(&'a [T], fn(&'a T) -> W);

impl<'a, T, W: Serialize> Serialize for Each<'a, T, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&(self.1)(item))?;
        }
        seq.end()
    }
}

struct Man<'a>(&'a SceneMan);

impl Serialize for Man<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("cell", &self.0.cell)?;
        map.serialize_entry("piece", &self.0.piece)?;
        map.serialize_entry("owner", &self.0.owner)?;
        if let Some(height) = self.0.height {
            map.serialize_entry("height", &height)?;
        }
        map.end()
    }
}

struct Hand<'a>(&'a SceneHand);

impl Serialize for Hand<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("owner", &self.0.owner)?;
        map.serialize_entry("piece", &self.0.piece)?;
        map.serialize_entry("count", &self.0.count)?;
        map.end()
    }
}

struct Board<'a>(&'a SceneBoard);

impl Serialize for Board<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let board = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("men", &Each(&board.men, Man))?;
        map.serialize_entry("hands", &Each(&board.hands, Hand))?;
        if !board.fog.is_empty() {
            map.serialize_entry("fog", &board.fog)?;
        }
        map.serialize_entry("check", &board.check)?;
        if let Some(bottom) = board.bottom {
            map.serialize_entry("bottom", &bottom)?;
        }
        if board.has_hands {
            map.serialize_entry("has_hands", &true)?;
        }
        if let BoardShape::Built(geometry) = &board.shape {
            // Only a board that grows (Chex) is drawn anew with its scene.
            let drawing: Value = serde_json::from_str(&geometry.to_json()).unwrap_or(Value::Null);
            map.serialize_entry("drawing", &drawing)?;
        }
        map.end()
    }
}

/// A scene's boards (each with its men, hands, fog, check cells, the player at the drawing's
/// bottom where it is not the board's first, and, where it is built with the scene, its
/// drawing).
pub struct Boards<'a>(pub &'a [SceneBoard]);

impl Serialize for Boards<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Each(self.0, Board).serialize(serializer)
    }
}

/// The cells in check on every board of a scene.
pub fn check_cells(boards: &[SceneBoard]) -> Vec<&str> {
    boards
        .iter()
        .flat_map(|b| b.check.iter().map(String::as_str))
        .collect()
}

/// Each seat's clock as sent.
#[derive(Serialize)]
pub struct SeatClock {
    /// Everything left before the flag falls, in milliseconds (the running one counting down).
    pub ms: u64,
    /// Main time left, in milliseconds.
    pub main_ms: u64,
    /// Byo-yomi periods left, the one in progress included.
    pub periods: u32,
    /// Under byo-yomi: what is left of the current period, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_ms: Option<u64>,
    /// Whether this seat's clock runs.
    pub running: bool,
}

/// The clocks: the control asked for and each seat's time.
#[derive(Serialize)]
pub struct Clocks<'a> {
    /// The time control.
    pub control: &'a ClockSpec,
    /// Each seat's clock.
    pub seats: Vec<SeatClock>,
}

/// A seat as the state lists it.
#[derive(Serialize)]
pub struct SeatView {
    /// Its index.
    pub seat: usize,
    /// `human` or `engine`.
    pub kind: &'static str,
    /// An engine seat's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Whether someone holds it (engine seats always do).
    pub joined: bool,
    /// Whether its player has come to the game (engine seats always have).
    pub arrived: bool,
    /// Whether its player left the game in progress long enough for the others to claim it.
    pub gone: bool,
}

/// The seats whose first move the game waits for, and how long they have before it is
/// aborted.
#[derive(Serialize)]
pub struct FirstMove {
    /// The seats.
    pub seats: Vec<usize>,
    /// Milliseconds left.
    pub ms: u64,
}

/// A ruleset action waiting for a seat's consent.
#[derive(Serialize)]
pub struct ActionOffer<'a> {
    /// Who asked.
    pub by: usize,
    /// The action.
    pub action: &'a str,
    /// Who must consent.
    pub consent: usize,
}

/// Offers waiting for an answer.
#[derive(Serialize)]
pub struct OffersView<'a> {
    /// Seats that offered or accepted a draw.
    pub draw: Vec<usize>,
    /// The seat that asked for a takeback.
    pub takeback: Option<usize>,
    /// A ruleset action waiting for consent.
    pub action: Option<ActionOffer<'a>>,
    /// Seats that asked for a rematch of the finished game.
    pub rematch: Vec<usize>,
}

/// A rule option of a game as players read it.
#[derive(Serialize)]
pub struct OptionInWords {
    /// The option's name in `options` (`fide-claims`).
    pub name: &'static str,
    /// Its name for players (`Draw claims`).
    pub label: &'static str,
    /// Its value (`off`).
    pub value: String,
    /// What the value means (`Draws by threefold repetition … are automatic`).
    pub words: String,
}

/// Every rule option of a game in words: the value it was made with (`options`, `name=value`
/// each), else the default. Secret options (a draw seed) are not rules a player reads.
pub fn options_in_words(specs: &'static [OptionSpec], options: &[&str]) -> Vec<OptionInWords> {
    specs
        .iter()
        .filter(|spec| !matches!(spec.values, OptionValues::Seed))
        .filter_map(|spec| {
            let value = options
                .iter()
                .filter_map(|o| o.split_once('='))
                .find(|(name, _)| *name == spec.name)
                .map_or(spec.default, |(_, value)| value);
            Some(OptionInWords {
                name: spec.name,
                label: spec.label,
                value: value.to_string(),
                words: spec.explain(value)?,
            })
        })
        .collect()
}

/// The moves played as texts (`null` where the viewer may not know one).
pub struct MoveTexts<'a>(pub &'a [SeenMove]);

impl Serialize for MoveTexts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Each(self.0, |m: &SeenMove| &m.text).serialize(serializer)
    }
}

/// The moves played as people read them (SAN where the ruleset has it).
pub struct MoveNotation<'a>(pub &'a [SeenMove]);

impl Serialize for MoveNotation<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Each(self.0, |m: &SeenMove| &m.shown).serialize(serializer)
    }
}

/// The moves played in each of the ruleset's own notations: `{"western": ["P-7f", …]}`,
/// `null` where the viewer may not know a move.
pub struct MoveNotations<'a> {
    /// The notations' names, in the order of [`SeenMove::notations`].
    pub names: &'static [&'static str],
    /// The moves.
    pub moves: &'a [SeenMove],
}

impl Serialize for MoveNotations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.names.len()))?;
        for (i, name) in self.names.iter().enumerate() {
            let texts: Vec<Option<&str>> = self
                .moves
                .iter()
                .map(|m| m.notations.get(i).map(String::as_str))
                .collect();
            map.serialize_entry(name, &texts)?;
        }
        map.end()
    }
}

/// Who made each move played (a compound turn is several moves by one player).
pub struct MoveMovers<'a>(pub &'a [SeenMove]);

impl Serialize for MoveMovers<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Each(self.0, |m: &SeenMove| m.mover).serialize(serializer)
    }
}

/// Legal moves with their shapes.
pub struct LegalMoves<'a>(pub &'a [LegalMove]);

impl Serialize for LegalMoves<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Each(self.0, Legal).serialize(serializer)
    }
}

/// The state of a game as one viewer may see it (`GET /api/games/{id}` and the `state`
/// message; docs/server.md lists the fields).
#[derive(Serialize)]
pub struct StateView<'a> {
    pub id: &'a str,
    pub variant: &'static str,
    pub options: Vec<&'a str>,
    /// The rule options for players: each option's label and what its value means.
    pub options_in_words: Vec<OptionInWords>,
    pub version: u64,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<&'a [u8]>,
    pub started: bool,
    pub ply: usize,
    pub players: usize,
    pub player_names: Vec<&'static str>,
    pub teams: Vec<usize>,
    pub side_to_move: usize,
    pub to_move: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    pub boards: Boards<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'a str>,
    pub check: Vec<&'a str>,
    pub last_move: Option<Shape<'a>>,
    pub moves: MoveTexts<'a>,
    pub notation: MoveNotation<'a>,
    pub notations: MoveNotations<'a>,
    pub movers: MoveMovers<'a>,
    pub clocks: Option<Clocks<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move: Option<FirstMove>,
    pub seats: Vec<SeatView>,
    pub offers: OffersView<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<&'a str>,
    pub you: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<LegalMoves<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claims: Option<Vec<&'static str>>,
}

/// The state message: `{"t": "state", "v": version, "d": state}`.
pub fn state_message(version: u64, state: &StateView<'_>) -> String {
    #[derive(Serialize)]
    struct Message<'a, 'b> {
        t: &'static str,
        v: u64,
        d: &'a StateView<'b>,
    }
    serde_json::to_string(&Message {
        t: "state",
        v: version,
        d: state,
    })
    .unwrap_or_default()
}
