//! Each man's moves as a small picture: the cells he reaches from a centre cell of an empty
//! board, each marked with how he gets there ([`MoveDiagram`]).
//!
//! Betza is for developers; a player reads the picture. A front end draws a diagram from its
//! data alone: the lattice, how many cells round the centre to show, and the marks. Diagrams
//! of table pieces are computed from their moves ([`MoveDiagram::of_piece`]); pieces whose
//! movement is code (lions, Congo's monkey) are given theirs by their ruleset
//! ([`PieceType::with_diagram`]).
//!
//! What a diagram leaves to the legend's words: confinement (the xiangqi palace), the moves'
//! exact reach where a ride is longer than the picture (`continues`), en passant, promotion,
//! and everything that depends on the men around (a cannon's screen, a monkey's chains).

use crate::betza::{self, Betza, BetzaError, Hop, Range};
use crate::piece::PieceType;
use chaturanga_geometry::{HEX_DIAGONAL, HEX_ORTHOGONAL};
use std::cmp::Reverse;

/// The smallest radius: a king's steps with one ring of room round them.
const MIN_RADIUS: u32 = 2;

/// Rides of at most this many steps are drawn whole; longer ones as far as the radius.
const WHOLE_RIDE: u32 = 4;

/// The lattice a diagram is drawn on, which says what `dx` and `dy` mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagramLattice {
    /// Square cells: `dx` files towards the owner's right, `dy` ranks forward (away from the
    /// owner).
    Square,
    /// Flat-topped hexagons with the files as columns, as Gliński's board is drawn (the
    /// board pictures of `chaturanga_geometry::render`), in the board's *doubled*
    /// coordinates (`chaturanga_geometry::Lattice::Hex`): `dx` files towards the owner's
    /// right, `dy` half cells forward. The neighbour straight ahead is `(0, 2)`, the two
    /// ahead in the next files `(±1, 1)`, the diagonal neighbours across a corner `(±2, 0)`
    /// and `(±1, ±3)`; only points with `dx + dy` even are cells.
    Hex,
}

impl DiagramLattice {
    /// The lattice's name in data: `square`, `hex`.
    pub fn name(self) -> &'static str {
        match self {
            DiagramLattice::Square => "square",
            DiagramLattice::Hex => "hex",
        }
    }

    /// How many cells `(dx, dy)` is from the centre, which is what the radius counts: king
    /// steps on the square lattice (a knight's leap is 2 away, a camel's 3), steps to an
    /// edge neighbour on the hex lattice (a diagonal neighbour across a corner is 2 away).
    pub fn distance(self, dx: i32, dy: i32) -> u32 {
        let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
        match self {
            DiagramLattice::Square => x.max(y),
            // Each file crossed also climbs half a cell; what height is left takes a whole
            // step (two half cells) per cell.
            DiagramLattice::Hex => x + y.saturating_sub(x) / 2,
        }
    }

    /// Whether a move to `(dx, dy)` passes no cell on its way, so that nothing can stand in
    /// it: a neighbour on the square lattice, an edge or corner neighbour on the hex lattice.
    pub fn is_step(self, dx: i32, dy: i32) -> bool {
        match self {
            DiagramLattice::Square => self.distance(dx, dy) == 1,
            DiagramLattice::Hex => HEX_ORTHOGONAL
                .iter()
                .chain(&HEX_DIAGONAL)
                .any(|v| (i32::from(v.dx), i32::from(v.dy)) == (dx, dy)),
        }
    }
}

/// How a man gets to a marked cell: what a front end draws the mark as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkKind {
    /// One step to a neighbouring cell; nothing can be in the way (`step`).
    Step,
    /// A leap over whatever stands between (a knight's move) (`leap`).
    Leap,
    /// A leap that a man on its way blocks: the xiangqi horse's leg, the elephant's eye, a
    /// pawn's double step (`lame`).
    Lame,
    /// A cell of a slide along a straight line from the centre through empty cells
    /// (`slide`); the farthest drawn cell says whether the slide goes on.
    Slide,
    /// A cell of a bent slide: one step, then a slide outward, or the slide then the step
    /// (Renaissance's duke and cavalier) (`bent`); not on a straight line from the centre.
    Bent,
    /// Reached only by hopping over one man on the way, the screen (`hop`): a cannon lands
    /// anywhere beyond it, a grasshopper right behind it, Congo's monkey captures the man it
    /// hops over. The marks show where it may land if a screen stands between.
    Hop,
    /// Reached by lion power (`lion`): two king steps in one move, capturing on either or
    /// both (a capture on the first and a step back is igui), or a leap there.
    Lion,
}

impl MarkKind {
    /// The kind's name in data: `step`, `leap`, `lame`, `slide`, `bent`, `hop`, `lion`.
    pub fn name(self) -> &'static str {
        match self {
            MarkKind::Step => "step",
            MarkKind::Leap => "leap",
            MarkKind::Lame => "lame",
            MarkKind::Slide => "slide",
            MarkKind::Bent => "bent",
            MarkKind::Hop => "hop",
            MarkKind::Lion => "lion",
        }
    }
}

/// Whether a mark's move may go to an empty cell, capture, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkMode {
    /// To an empty cell or capturing (`move-or-capture`).
    #[default]
    MoveOrCapture,
    /// Only to an empty cell (`move`): a pawn's advance, a cannon's slide.
    Move,
    /// Only capturing (`capture`): a pawn's diagonal, a cannon's hop.
    Capture,
}

impl MarkMode {
    /// The mode's name in data: `move-or-capture`, `move`, `capture`.
    pub fn name(self) -> &'static str {
        match self {
            MarkMode::MoveOrCapture => "move-or-capture",
            MarkMode::Move => "move",
            MarkMode::Capture => "capture",
        }
    }

    /// The mode of a move that may go to empty cells (`quiet`), capture, or both.
    fn of(quiet: bool, capture: bool) -> MarkMode {
        match (quiet, capture) {
            (true, false) => MarkMode::Move,
            (false, true) => MarkMode::Capture,
            _ => MarkMode::MoveOrCapture,
        }
    }

    /// Whether a move of this mode may do everything one of `other` may.
    fn covers(self, other: MarkMode) -> bool {
        self == MarkMode::MoveOrCapture || self == other
    }
}

/// One cell of a diagram and how the man gets there. A cell may carry several marks (a
/// cannon slides to a cell and may also capture on it by hopping).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mark {
    /// Cells towards the owner's right (see [`DiagramLattice`]).
    pub dx: i8,
    /// Cells forward, away from the owner (see [`DiagramLattice`]).
    pub dy: i8,
    /// How it gets there.
    pub what: MarkKind,
    /// Moving, capturing or both.
    pub mode: MarkMode,
    /// Only from the man's initial cells (a pawn's double step); drawn only where no other
    /// move of the man reaches the cell.
    pub initial: bool,
    /// The slide goes on beyond this, the farthest cell drawn of its line.
    pub continues: bool,
    /// Only from the cells of this region (the xiangqi soldier's sideways steps across the
    /// river: `across-river`); `None` from everywhere.
    pub zone: Option<String>,
}

impl Mark {
    /// A mark of `what` at `(dx, dy)`, moving or capturing, from every cell.
    pub fn new(dx: i8, dy: i8, what: MarkKind) -> Mark {
        Mark {
            dx,
            dy,
            what,
            mode: MarkMode::MoveOrCapture,
            initial: false,
            continues: false,
            zone: None,
        }
    }

    /// Only moving, or only capturing.
    pub fn only(self, mode: MarkMode) -> Mark {
        Mark { mode, ..self }
    }

    /// Only from the man's initial cells.
    pub fn initial(self) -> Mark {
        Mark {
            initial: true,
            ..self
        }
    }

    /// The slide goes on beyond this cell.
    pub fn continuing(self) -> Mark {
        Mark {
            continues: true,
            ..self
        }
    }

    /// Only from the cells of `region`.
    pub fn in_zone(self, region: &str) -> Mark {
        Mark {
            zone: Some(region.to_string()),
            ..self
        }
    }

    /// The order marks are listed in: the farthest forward row first, left to right, as a
    /// diagram is read.
    fn order(&self) -> impl Ord + '_ {
        (
            Reverse(self.dy),
            self.dx,
            self.what,
            self.mode,
            self.initial,
            &self.zone,
            self.continues,
        )
    }
}

/// A man's moves as a picture: the cells he reaches from the centre of an empty board, as far
/// as `radius` cells from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveDiagram {
    /// What `dx` and `dy` mean.
    pub lattice: DiagramLattice,
    /// How many cells round the centre the picture shows, in [`DiagramLattice::distance`]:
    /// 2 for kings and golds, 3 for sliders and the knight's longer cousins, 4 for the
    /// longest leaps. Every mark lies within it.
    pub radius: u8,
    /// The marks, the farthest forward row first, left to right in a row.
    pub marks: Vec<Mark>,
}

impl MoveDiagram {
    /// A diagram with no marks yet, of the smallest radius (to add hand-made marks to with
    /// [`MoveDiagram::with_marks`]).
    pub fn new(lattice: DiagramLattice) -> MoveDiagram {
        MoveDiagram {
            lattice,
            radius: MIN_RADIUS as u8,
            marks: Vec::new(),
        }
    }

    /// The diagram of a Betza string on the square lattice; `None` where it has no moves.
    pub fn of_betza(text: &str) -> Result<Option<MoveDiagram>, BetzaError> {
        Ok(MoveDiagram::of_moves(
            DiagramLattice::Square,
            &betza::parse(text)?,
        ))
    }

    /// The diagram of parsed moves on `lattice` (hexagonal pieces' moves resolve to the same
    /// form, see [`crate::hex`]); `None` where there are no moves.
    pub fn of_moves(lattice: DiagramLattice, moves: &Betza) -> Option<MoveDiagram> {
        let mut sketch = Sketch::new(lattice);
        sketch.add_moves(moves, None);
        sketch.draw()
    }

    /// The diagram of a table piece on the square lattice, from its moves: its Betza, its
    /// zone moves (marked with their region where they reach cells the others do not) and
    /// its bent rides. Confinement and check-only moves are not drawn: the legend's words
    /// say them. `None` where the piece does not move (Taktika's frozen men, Gess's stone,
    /// whose moves are all code). A diagram given by hand
    /// ([`PieceType::with_diagram`]) is not consulted: this is what it replaces.
    pub fn of_piece(piece: &PieceType) -> Option<MoveDiagram> {
        let mut sketch = Sketch::new(DiagramLattice::Square);
        sketch.add_moves(&piece.moves, None);
        for (region, moves) in &piece.zone_moves {
            sketch.add_moves(moves, Some(region));
        }
        for rider in &piece.bent {
            sketch.add_bent(rider.step, rider.slide);
        }
        sketch.draw()
    }

    /// Adds hand-made marks (lion power, a monkey's hops), growing the radius to hold them.
    pub fn with_marks(mut self, marks: impl IntoIterator<Item = Mark>) -> MoveDiagram {
        for mark in marks {
            let far = self
                .lattice
                .distance(i32::from(mark.dx), i32::from(mark.dy));
            self.radius = self.radius.max(u8::try_from(far).unwrap_or(u8::MAX));
            self.marks.push(mark);
        }
        self.tidy();
        self
    }

    /// Sorts the marks and drops those that say nothing more than another mark on their
    /// cell: repeated marks; initial or zone marks where a move from everywhere reaches the
    /// cell in the same mode (the pawn's initial slide passing its single step, the
    /// matriarch's shorter slides in the inner zone); steps where a slide from everywhere
    /// passes in the same mode (Tori shogi's eagle's king step under its bishop slides).
    fn tidy(&mut self) {
        self.marks.sort_by(|a, b| a.order().cmp(&b.order()));
        self.marks.dedup();
        let always: Vec<Mark> = self
            .marks
            .iter()
            .filter(|m| !m.initial && m.zone.is_none())
            .cloned()
            .collect();
        self.marks.retain(|m| {
            let conditional = m.initial || m.zone.is_some();
            !always.iter().any(|o| {
                (o.dx, o.dy) == (m.dx, m.dy)
                    && o.mode.covers(m.mode)
                    && (conditional || (m.what == MarkKind::Step && o.what == MarkKind::Slide))
            })
        });
    }
}

/// Where a move family goes, before the radius is known.
enum Path {
    /// One cell.
    Cell { at: (i32, i32), what: MarkKind },
    /// The cells `first..` steps of `step` along a line, up to `max` steps.
    Line {
        step: (i32, i32),
        first: u32,
        max: Option<u32>,
        what: MarkKind,
    },
    /// The cells `step + n * slide` for `n >= 1` (a bent ride).
    Bent { step: (i32, i32), slide: (i32, i32) },
}

/// A move family to draw.
struct Stroke {
    path: Path,
    mode: MarkMode,
    initial: bool,
    zone: Option<String>,
}

/// The move families of a man, collected before the radius is chosen to fit them all.
struct Sketch {
    lattice: DiagramLattice,
    strokes: Vec<Stroke>,
}

impl Sketch {
    fn new(lattice: DiagramLattice) -> Sketch {
        Sketch {
            lattice,
            strokes: Vec::new(),
        }
    }

    fn add_moves(&mut self, moves: &Betza, zone: Option<&str>) {
        for m in &moves.moves {
            for &(dx, dy) in &m.vectors {
                let v = (i32::from(dx), i32::from(dy));
                let path = match (m.range, m.hop) {
                    // A ride of one step is a step: there is no line to draw.
                    (Range::Leap, _) | (Range::Ride { max: Some(1) }, Hop::None) => {
                        let what = if self.lattice.is_step(v.0, v.1) {
                            MarkKind::Step
                        } else if m.lame {
                            MarkKind::Lame
                        } else {
                            MarkKind::Leap
                        };
                        Path::Cell { at: v, what }
                    }
                    (Range::Ride { max }, hop) => Path::Line {
                        step: v,
                        // A hopper needs its screen on a cell before the landing one.
                        first: if hop == Hop::None { 1 } else { 2 },
                        max: max.map(u32::from),
                        what: if hop == Hop::None {
                            MarkKind::Slide
                        } else {
                            MarkKind::Hop
                        },
                    },
                };
                self.strokes.push(Stroke {
                    path,
                    mode: MarkMode::of(m.quiet, m.capture),
                    initial: m.initial,
                    zone: zone.map(str::to_string),
                });
            }
        }
    }

    /// A bent rider of a `step` atom and a `slide` atom: the slide goes outward, sharing a
    /// component with the step (as [`crate::piece::compile_bent`] compiles it).
    fn add_bent(&mut self, step: char, slide: char) {
        let images = |letter: char| -> Vec<(i32, i32)> {
            betza::parse(&letter.to_string())
                .unwrap_or_default()
                .moves
                .iter()
                .flat_map(|m| m.vectors.iter())
                .map(|&(dx, dy)| (i32::from(dx), i32::from(dy)))
                .collect()
        };
        for a in images(step) {
            for b in images(slide) {
                if a.0 * b.0 + a.1 * b.1 > 0 {
                    self.strokes.push(Stroke {
                        path: Path::Bent { step: a, slide: b },
                        mode: MarkMode::MoveOrCapture,
                        initial: false,
                        zone: None,
                    });
                }
            }
        }
    }

    /// How far from the centre a stroke needs the picture to reach: a leap's cell; a short
    /// ride whole; a long one three steps (two of a longer atom, such as a hex diagonal or a
    /// nightrider's leap), enough to see it is a line.
    fn reach(&self, path: &Path) -> u32 {
        let distance = |(dx, dy): (i32, i32)| self.lattice.distance(dx, dy);
        match *path {
            Path::Cell { at, .. } => distance(at),
            Path::Line {
                step, first, max, ..
            } => {
                let shown = match max {
                    Some(max) if max <= WHOLE_RIDE => max,
                    _ if distance(step) == 1 => 3,
                    _ => 2,
                };
                distance(step) * shown.max(first)
            }
            Path::Bent { step, slide } => distance((step.0 + 2 * slide.0, step.1 + 2 * slide.1)),
        }
    }

    fn draw(self) -> Option<MoveDiagram> {
        if self.strokes.is_empty() {
            return None;
        }
        let radius = self
            .strokes
            .iter()
            .map(|s| self.reach(&s.path))
            .fold(MIN_RADIUS, u32::max);
        let within = |(dx, dy): (i32, i32)| self.lattice.distance(dx, dy) <= radius;
        let mut marks = Vec::new();
        for stroke in &self.strokes {
            let mark = |at: (i32, i32), what: MarkKind| -> Option<Mark> {
                Some(Mark {
                    dx: i8::try_from(at.0).ok()?,
                    dy: i8::try_from(at.1).ok()?,
                    what,
                    mode: stroke.mode,
                    initial: stroke.initial,
                    continues: false,
                    zone: stroke.zone.clone(),
                })
            };
            // The cells of a line, nearest first, and whether it goes on beyond the last.
            let (cells, what, goes_on): (Vec<(i32, i32)>, MarkKind, bool) = match stroke.path {
                Path::Cell { at, what } => (vec![at], what, false),
                Path::Line {
                    step,
                    first,
                    max,
                    what,
                } => {
                    let last = max.unwrap_or(u32::MAX);
                    let steps = |n: u32| (step.0 * n as i32, step.1 * n as i32);
                    let cells: Vec<_> = (first..=last)
                        .map(steps)
                        .take_while(|&c| within(c))
                        .collect();
                    let next = first + cells.len() as u32;
                    (cells, what, next <= last)
                }
                Path::Bent { step, slide } => {
                    let slid = |n: i32| (step.0 + n * slide.0, step.1 + n * slide.1);
                    let cells: Vec<_> = (1..).map(slid).take_while(|&c| within(c)).collect();
                    (cells, MarkKind::Bent, true)
                }
            };
            let count = cells.len();
            for (i, at) in cells.into_iter().enumerate() {
                if let Some(m) = mark(at, what) {
                    marks.push(if goes_on && i + 1 == count {
                        m.continuing()
                    } else {
                        m
                    });
                }
            }
        }
        if marks.is_empty() {
            return None;
        }
        let mut diagram = MoveDiagram {
            lattice: self.lattice,
            radius: u8::try_from(radius).unwrap_or(u8::MAX),
            marks,
        };
        diagram.tidy();
        Some(diagram)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{HexAtom, HexDirections, HexMove};

    /// The marks as `dx,dy what` with `/move` or `/capture`, ` initial`, ` in <zone>` and
    /// ` ->` (continues) where they apply, in the diagram's order.
    fn marks(diagram: &MoveDiagram) -> Vec<String> {
        diagram
            .marks
            .iter()
            .map(|m| {
                let mut text = format!("{},{} {}", m.dx, m.dy, m.what.name());
                if m.mode != MarkMode::MoveOrCapture {
                    text += &format!("/{}", m.mode.name());
                }
                if m.initial {
                    text += " initial";
                }
                if let Some(zone) = &m.zone {
                    text += &format!(" in {zone}");
                }
                if m.continues {
                    text += " ->";
                }
                text
            })
            .collect()
    }

    fn square(betza: &str) -> MoveDiagram {
        MoveDiagram::of_betza(betza).unwrap().unwrap()
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    fn expected(items: &[&str]) -> Vec<String> {
        sorted(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn distances_and_steps_on_both_lattices() {
        let sq = DiagramLattice::Square;
        assert_eq!(sq.distance(1, 2), 2);
        assert_eq!(sq.distance(-3, 1), 3);
        assert!(sq.is_step(-1, 1) && !sq.is_step(0, 2));
        let hex = DiagramLattice::Hex;
        // Edge neighbours are one away, corner (diagonal) neighbours two, and both steps.
        assert_eq!(hex.distance(0, 2), 1);
        assert_eq!(hex.distance(-1, -1), 1);
        assert_eq!(hex.distance(2, 0), 2);
        assert_eq!(hex.distance(1, -3), 2);
        assert_eq!(hex.distance(0, 6), 3);
        assert_eq!(hex.distance(-3, 1), 3);
        assert!(hex.is_step(2, 0) && hex.is_step(-1, 3) && hex.is_step(1, 1));
        assert!(!hex.is_step(0, 4) && !hex.is_step(3, 1));
        assert_eq!((sq.name(), hex.name()), ("square", "hex"));
    }

    #[test]
    fn the_rook_slides_four_ways_and_goes_on() {
        let rook = square("R");
        assert_eq!(rook.radius, 3);
        assert_eq!(
            sorted(marks(&rook)),
            expected(&[
                "0,1 slide",
                "0,2 slide",
                "0,3 slide ->",
                "0,-1 slide",
                "0,-2 slide",
                "0,-3 slide ->",
                "1,0 slide",
                "2,0 slide",
                "3,0 slide ->",
                "-1,0 slide",
                "-2,0 slide",
                "-3,0 slide ->",
            ])
        );
        // Listed as read: the forward row first.
        assert_eq!(marks(&rook)[0], "0,3 slide ->");
        // A short ride is drawn whole and does not go on.
        assert_eq!(marks(&square("fW2")), ["0,2 slide", "0,1 slide"]);
        // A long limited ride goes on past the picture.
        assert!(marks(&square("fR6")).contains(&"0,3 slide ->".to_string()));
    }

    #[test]
    fn leapers_leap_and_the_radius_fits_the_longest() {
        let knight = square("N");
        assert_eq!(knight.radius, 2);
        assert_eq!(knight.marks.len(), 8);
        assert!(knight.marks.iter().all(|m| m.what == MarkKind::Leap
            && m.mode == MarkMode::MoveOrCapture
            && (m.dx.abs(), m.dy.abs()) != (0, 0)
            && m.dx.abs() + m.dy.abs() == 3));
        let camel = square("C");
        assert_eq!((camel.radius, camel.marks.len()), (3, 8));
        let giraffe = square("(4,1)");
        assert_eq!((giraffe.radius, giraffe.marks.len()), (4, 8));
        // The shogi knight: the two forward leaps only.
        assert_eq!(marks(&square("fN")), ["-1,2 leap", "1,2 leap"]);
        // The king and the gold stay in the smallest picture.
        let gold = square("WfF");
        assert_eq!(gold.radius, 2);
        assert_eq!(
            marks(&gold),
            [
                "-1,1 step",
                "0,1 step",
                "1,1 step",
                "-1,0 step",
                "1,0 step",
                "0,-1 step"
            ]
        );
        assert_eq!(square("K").marks.len(), 8);
        // A step where a slide passes anyway is not drawn twice; a capture-only step under
        // a move-only slide is.
        let eagle = square("KfBbRbF2");
        assert_eq!(
            eagle
                .marks
                .iter()
                .filter(|m| m.what == MarkKind::Step)
                .count(),
            3
        );
        assert_eq!(
            marks(&square("mRcW"))
                .iter()
                .filter(|m| m.starts_with("0,1 "))
                .collect::<Vec<_>>(),
            ["0,1 step/capture", "0,1 slide/move"]
        );
    }

    #[test]
    fn the_pawn_moves_ahead_captures_diagonally_and_double_steps_at_first() {
        let pawn = square("fmWfceFifmnD");
        assert_eq!(pawn.radius, 2);
        assert_eq!(
            marks(&pawn),
            [
                "0,2 lame/move initial",
                "-1,1 step/capture",
                "0,1 step/move",
                "1,1 step/capture"
            ]
        );
    }

    #[test]
    fn xiangqi_horse_elephant_and_cannon() {
        let horse = square("nN");
        assert_eq!(horse.marks.len(), 8);
        assert!(horse.marks.iter().all(|m| m.what == MarkKind::Lame));
        assert_eq!(
            marks(&square("nA")),
            ["-2,2 lame", "2,2 lame", "-2,-2 lame", "2,-2 lame"]
        );
        let cannon = square("mRcpR");
        assert_eq!(cannon.radius, 3);
        let forward: Vec<String> = marks(&cannon)
            .into_iter()
            .filter(|m| m.starts_with("0,") && !m.starts_with("0,-"))
            .collect();
        // It slides to empty cells and captures by hopping a screen, so the first cell is a
        // slide only and the farther ones both.
        assert_eq!(
            forward,
            [
                "0,3 slide/move ->",
                "0,3 hop/capture ->",
                "0,2 slide/move",
                "0,2 hop/capture",
                "0,1 slide/move"
            ]
        );
        assert_eq!(cannon.marks.len(), 4 * 5);
        // The grasshopper lands behind its screen: from the second cell on.
        let hopper = square("gQ");
        assert_eq!(hopper.marks.len(), 8 * 2);
        assert!(hopper.marks.iter().all(|m| m.what == MarkKind::Hop));
    }

    #[test]
    fn zone_moves_are_marked_with_their_region_where_they_add_cells() {
        let soldier = PieceType::new("P", "soldier", "fW")
            .unwrap()
            .in_zone("across-river", "fsW")
            .unwrap();
        assert_eq!(
            marks(&MoveDiagram::of_piece(&soldier).unwrap()),
            [
                "0,1 step",
                "-1,0 step in across-river",
                "1,0 step in across-river"
            ]
        );
        // Big Outer's matriarch: the zones only shorten the queen, which draws the same.
        let matriarch = PieceType::new("M", "matriarch", "Q")
            .unwrap()
            .in_zone("inner", "Q3")
            .unwrap()
            .in_zone("middle", "Q6")
            .unwrap();
        let drawn = MoveDiagram::of_piece(&matriarch).unwrap();
        assert_eq!(drawn, square("Q"));
        // Its pawn advances up to four cells from the start zone: the picture grows to show
        // them.
        let pawn = PieceType::new("P", "pawn", "fmR2fceF")
            .unwrap()
            .in_zone("pawn-start", "fmR4fceF")
            .unwrap();
        let drawn = MoveDiagram::of_piece(&pawn).unwrap();
        assert_eq!(drawn.radius, 4);
        assert_eq!(
            marks(&drawn)[..4],
            [
                "0,4 slide/move in pawn-start",
                "0,3 slide/move in pawn-start",
                "0,2 slide/move",
                "-1,1 step/capture"
            ]
        );
    }

    #[test]
    fn bent_riders_draw_their_bent_lines_and_confinement_is_left_to_the_words() {
        let duke = PieceType::new("D", "duke", "").unwrap().with_bent('W', 'F');
        let drawn = MoveDiagram::of_piece(&duke).unwrap();
        assert_eq!(drawn.radius, 3);
        // Two lines off each of the four steps, two cells each within the picture.
        assert_eq!(drawn.marks.len(), 16);
        assert!(drawn.marks.iter().all(|m| m.what == MarkKind::Bent));
        let ahead_right = MoveDiagram {
            marks: drawn
                .marks
                .iter()
                .filter(|m| m.dx > 0 && m.dy > 0)
                .cloned()
                .collect(),
            ..drawn.clone()
        };
        assert_eq!(
            marks(&ahead_right),
            ["2,3 bent ->", "1,2 bent", "3,2 bent ->", "2,1 bent"]
        );
        let advisor = PieceType::new("A", "advisor", "F")
            .unwrap()
            .confined("palace");
        assert_eq!(MoveDiagram::of_piece(&advisor), Some(square("F")));
    }

    #[test]
    fn men_that_do_not_move_have_no_diagram_and_hand_marks_grow_the_picture() {
        assert_eq!(MoveDiagram::of_betza("").unwrap(), None);
        assert!(MoveDiagram::of_betza("X").is_err());
        let frozen = PieceType::new("-R", "frozen rook", "").unwrap();
        assert_eq!(MoveDiagram::of_piece(&frozen), None);
        let falcon = square("BsRbR").with_marks([
            Mark::new(0, 1, MarkKind::Lion),
            Mark::new(0, 2, MarkKind::Lion),
        ]);
        assert_eq!(falcon.radius, 3);
        assert_eq!(
            marks(&falcon)[..5],
            [
                "-3,3 slide ->",
                "3,3 slide ->",
                "-2,2 slide",
                "0,2 lion",
                "2,2 slide"
            ]
        );
        let far =
            MoveDiagram::new(DiagramLattice::Square)
                .with_marks([Mark::new(0, 5, MarkKind::Leap).only(MarkMode::Capture)]);
        assert_eq!(
            (far.radius, marks(&far)),
            (5, vec!["0,5 leap/capture".into()])
        );
        // A hand-made diagram given to a piece wins over the computed one in the legend.
        let lion = PieceType::new("N", "lion", "KNAD")
            .unwrap()
            .with_diagram(far.clone());
        let legend = crate::legend::Legend::of_pieces(Default::default(), &[lion]);
        assert_eq!(legend.kinds[0].diagram, Some(far));
    }

    fn hex(moves: &[HexMove]) -> MoveDiagram {
        PieceType::hex("X", "x", moves).diagram.unwrap()
    }

    #[test]
    fn hexagonal_men_are_drawn_on_the_hex_lattice() {
        use HexAtom::{Diagonal, Knight, Orthogonal};
        let rook = hex(&[HexMove::ride(Orthogonal)]);
        assert_eq!((rook.lattice, rook.radius), (DiagramLattice::Hex, 3));
        assert_eq!(rook.marks.len(), 6 * 3);
        let ends: Vec<(i8, i8)> = rook
            .marks
            .iter()
            .filter(|m| m.continues)
            .map(|m| (m.dx, m.dy))
            .collect();
        assert_eq!(ends, [(0, 6), (-3, 3), (3, 3), (-3, -3), (3, -3), (0, -6)]);
        let knight = hex(&[HexMove::step(Knight)]);
        assert_eq!((knight.radius, knight.marks.len()), (3, 12));
        assert!(knight.marks.iter().all(|m| m.what == MarkKind::Leap));
        // A diagonal step is two cells away, so the bishop shows two per line.
        let bishop = hex(&[HexMove::ride(Diagonal)]);
        assert_eq!((bishop.radius, bishop.marks.len()), (4, 6 * 2));
        let king = hex(&[HexMove::step(Orthogonal), HexMove::step(Diagonal)]);
        assert_eq!((king.radius, king.marks.len()), (2, 12));
        assert!(king.marks.iter().all(|m| m.what == MarkKind::Step));
        let pawn = hex(&[
            HexMove::step(Orthogonal)
                .only(HexDirections::Ahead)
                .move_only(),
            HexMove::ride_up_to(Orthogonal, 2)
                .only(HexDirections::Ahead)
                .move_only()
                .initial(),
            HexMove::step(Orthogonal)
                .only(HexDirections::ForwardSideways)
                .capture_only(),
        ]);
        assert_eq!(
            marks(&pawn),
            [
                "0,4 slide/move initial",
                "0,2 step/move",
                "-1,1 step/capture",
                "1,1 step/capture"
            ]
        );
    }
}
