//! Board geometry: cells on a lattice, labels, colours, regions and rays.

use std::collections::HashMap;
use std::fmt;

/// A cell of a board: a dense index in `0..geometry.len()`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Cell(pub u16);

impl Cell {
    /// The index as `usize`, for table lookups.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A lattice displacement: `dx` towards higher files (the first player's right), `dy` towards
/// higher ranks (away from the first player).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Vector {
    /// File displacement.
    pub dx: i16,
    /// Rank displacement.
    pub dy: i16,
}

impl Vector {
    /// A vector from its components.
    pub const fn new(dx: i16, dy: i16) -> Self {
        Vector { dx, dy }
    }

    /// The opposite vector.
    pub const fn reversed(self) -> Self {
        Vector::new(-self.dx, -self.dy)
    }
}

/// How cells are laid out, which decides what a lattice vector means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lattice {
    /// Square cells, `(file, rank)` coordinates; the chess-family boards.
    Square,
    /// Hexagonal cells with an edge facing each player, so that files are straight columns
    /// (Gliński's board), in *doubled* coordinates: `x` is the file (column) and `y` the
    /// height of the cell's centre in half cells. A cell and the one above it in its file
    /// differ by `(0, 2)`; neighbours in the next file sit half a cell up or down, `(±1, ±1)`.
    /// Only points with one parity of `x + y` are cells.
    ///
    /// Doubled coordinates keep the meaning of a [`Vector`] that the square boards give it
    /// (`dx` towards the first player's right, `dy` away from him), so "forward" and
    /// "sideways" filters and the 180° turn of the second player (negation) work unchanged,
    /// and every line is still a constant step, hence monotone in cell numbering. The six
    /// orthogonal directions are [`HEX_ORTHOGONAL`], the six diagonal ones [`HEX_DIAGONAL`].
    Hex,
    /// No common lattice: charts of square cells glued along seams, with a corner where more
    /// than four cells meet (three-player chess, [`GeometryBuilder::three_player`]). A vector
    /// at a cell is read in the frame of the cell's chart; lines go on across seams in the
    /// next chart's frame and diagonal lines fork where more than four cells meet. The lattice
    /// coordinates only identify cells.
    Linked,
}

/// The six orthogonal directions of the hex lattice (to the cells sharing an edge), in
/// doubled coordinates, counter-clockwise from straight up the file.
pub const HEX_ORTHOGONAL: [Vector; 6] = [
    Vector::new(0, 2),
    Vector::new(-1, 1),
    Vector::new(-1, -1),
    Vector::new(0, -2),
    Vector::new(1, -1),
    Vector::new(1, 1),
];

/// The six diagonal directions of the hex lattice (to the nearest cells of the same colour,
/// across the corner between two orthogonal neighbours), in doubled coordinates,
/// counter-clockwise from up-left.
pub const HEX_DIAGONAL: [Vector; 6] = [
    Vector::new(-1, 3),
    Vector::new(-2, 0),
    Vector::new(-1, -3),
    Vector::new(1, -3),
    Vector::new(2, 0),
    Vector::new(1, 3),
];

/// The eight unit directions of square-board lines (ranks, files, diagonals).
const SQUARE_LINES: [Vector; 8] = [
    Vector::new(1, 0),
    Vector::new(1, 1),
    Vector::new(0, 1),
    Vector::new(-1, 1),
    Vector::new(-1, 0),
    Vector::new(-1, -1),
    Vector::new(0, -1),
    Vector::new(1, -1),
];

/// The twelve unit directions of hex-board lines: orthogonal ones, then diagonal ones.
const HEX_LINES: [Vector; 12] = [
    HEX_ORTHOGONAL[0],
    HEX_ORTHOGONAL[1],
    HEX_ORTHOGONAL[2],
    HEX_ORTHOGONAL[3],
    HEX_ORTHOGONAL[4],
    HEX_ORTHOGONAL[5],
    HEX_DIAGONAL[0],
    HEX_DIAGONAL[1],
    HEX_DIAGONAL[2],
    HEX_DIAGONAL[3],
    HEX_DIAGONAL[4],
    HEX_DIAGONAL[5],
];

/// A named set of cells per player, e.g. a promotion zone or a palace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Region name as the rules refer to it (`"promotion"`, `"palace"`).
    pub name: String,
    /// The cells for each player, indexed by player number.
    pub cells: Vec<Vec<Cell>>,
}

/// Problems found while building a geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// The board has no cells.
    Empty,
    /// More cells than the 65535 a [`Cell`] can address.
    TooManyCells(usize),
    /// Two cells share a label.
    DuplicateLabel(String),
    /// Two cells share lattice coordinates.
    DuplicateCoordinates(i32, i32),
    /// A region names coordinates that are not a cell.
    RegionOutsideBoard(String, i32, i32),
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::Empty => write!(f, "board has no cells"),
            GeometryError::TooManyCells(n) => write!(f, "board has {n} cells, more than 65535"),
            GeometryError::DuplicateLabel(l) => write!(f, "two cells are labelled {l:?}"),
            GeometryError::DuplicateCoordinates(x, y) => {
                write!(f, "two cells at lattice point ({x}, {y})")
            }
            GeometryError::RegionOutsideBoard(name, x, y) => {
                write!(f, "region {name:?} names ({x}, {y}), which is not a cell")
            }
        }
    }
}

impl std::error::Error for GeometryError {}

#[derive(Clone, Debug)]
struct CellInfo {
    x: i32,
    y: i32,
    label: String,
    colour: u8,
}

/// A board: cells with lattice coordinates, labels, colours and regions.
///
/// Geometries are built once per variant and then only read, mostly while piece tables are
/// compiled; nothing on the hot path of move generation calls into it.
#[derive(Clone, Debug)]
pub struct Geometry {
    lattice: Lattice,
    cells: Vec<CellInfo>,
    min_x: i32,
    min_y: i32,
    width: i32,
    height: i32,
    grid: Vec<Option<Cell>>,
    by_label: HashMap<String, Cell>,
    regions: Vec<Region>,
    players: usize,
    rows: Vec<Vec<Option<Cell>>>,
    /// The steps of a [`Lattice::Linked`] board.
    pub(crate) links: Option<Box<crate::linked::Links>>,
    markings: Markings,
}

/// A line between two lattice points (cell centres).
pub type Segment = ((i32, i32), (i32, i32));

/// What a board's picture shows besides its cells, as the game's own players know the board:
/// xiangqi's lines, river and palace diagonals, Congo's river, shogi's star points. Only the
/// picture ([`Geometry::to_json`]) reads it; no rule does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markings {
    /// Men stand on the points where lines cross (xiangqi), not inside cells: the picture
    /// draws lines between the centres of neighbouring cells.
    pub on_points: bool,
    /// Rivers between two ranks of a board on points: `(y, words)`, the river between ranks
    /// `y` and `y + 1`, which only the edge files' lines cross, with the words written on it.
    pub rivers: Vec<(i32, Vec<String>)>,
    /// Lines drawn between two cells' centres besides the grid (the palace diagonals), as
    /// lattice points.
    pub lines: Vec<Segment>,
    /// Cells drawn as water (Congo's river), as lattice points.
    pub water: Vec<(i32, i32)>,
    /// Star points: dots on the corner shared by cell `(x, y)` and cell `(x + 1, y + 1)`
    /// (shogi's marks of the promotion zones).
    pub stars: Vec<(i32, i32)>,
}

impl Geometry {
    /// The lattice the cells sit on.
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// What the picture shows besides the cells.
    pub fn markings(&self) -> &Markings {
        &self.markings
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the board has no cells (never true for a built geometry).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Number of players the regions are given for.
    pub fn players(&self) -> usize {
        self.players
    }

    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cells.len() as u16).map(Cell)
    }

    /// Lattice coordinates of a cell.
    pub fn coords(&self, cell: Cell) -> (i32, i32) {
        let c = &self.cells[cell.index()];
        (c.x, c.y)
    }

    /// The cell at lattice coordinates, if there is one.
    pub fn at(&self, x: i32, y: i32) -> Option<Cell> {
        let gx = x - self.min_x;
        let gy = y - self.min_y;
        if gx < 0 || gy < 0 || gx >= self.width || gy >= self.height {
            return None;
        }
        self.grid[(gy * self.width + gx) as usize]
    }

    /// The cell reached from `cell` by one displacement `v`, if it exists.
    ///
    /// On a [`Lattice::Linked`] board only unit steps are offsets, and a diagonal step that
    /// forks has none: use [`Geometry::linked_leaps`] there.
    pub fn offset(&self, cell: Cell, v: Vector) -> Option<Cell> {
        if let Some(links) = self.linked() {
            let mut steps = links.unit_steps(cell, (v.dx, v.dy), false);
            if v.dx.abs() > 1 || v.dy.abs() > 1 || steps.len() != 1 {
                return None;
            }
            return steps.pop().map(|(c, _)| c);
        }
        let (x, y) = self.coords(cell);
        self.at(x + v.dx as i32, y + v.dy as i32)
    }

    /// The rays from `cell` repeating displacement `v`, at most `max` steps (`None`: unbounded).
    ///
    /// A ray stops before the first lattice point that is not a cell. On lattice boards there
    /// is exactly one ray (possibly empty). On [`Lattice::Linked`] boards `v` must be a unit
    /// step (in `cell`'s frame); lines carry their direction across seams, and a diagonal
    /// line through a corner where more than four cells meet forks: each branch is one ray
    /// (sharing the cells before the fork), and every ray is listed once.
    pub fn rays(&self, cell: Cell, v: Vector, max: Option<usize>) -> Vec<Vec<Cell>> {
        if let Some(links) = self.linked() {
            if v.dx.abs() > 1 || v.dy.abs() > 1 || v == Vector::new(0, 0) {
                return vec![Vec::new()];
            }
            return links.rays(cell, (v.dx, v.dy), max);
        }
        let mut ray = Vec::new();
        let mut cur = cell;
        while max.is_none_or(|m| ray.len() < m) {
            match self.offset(cur, v) {
                Some(next) => {
                    ray.push(next);
                    cur = next;
                }
                None => break,
            }
        }
        vec![ray]
    }

    /// The notation label of a cell (`e4`, `a10`, `w1`).
    pub fn label(&self, cell: Cell) -> &str {
        &self.cells[cell.index()].label
    }

    /// The cell with this exact label.
    pub fn cell_by_label(&self, label: &str) -> Option<Cell> {
        self.by_label.get(label).copied()
    }

    /// Every way to read a cell label at the start of `text`, with the rest of the text.
    ///
    /// `a10a9` starts with both `a1` and `a10`; callers try each split.
    pub fn label_prefixes<'t>(&self, text: &'t str) -> Vec<(Cell, &'t str)> {
        let mut out = Vec::new();
        for end in 1..=text.len().min(8) {
            if !text.is_char_boundary(end) {
                continue;
            }
            if let Some(&c) = self.by_label.get(&text[..end]) {
                out.push((c, &text[end..]));
            }
        }
        out
    }

    /// The two cells of a move written as two labels and nothing else (`c18c16`, `a10a9`),
    /// trying every split of the first label.
    pub fn cell_pair(&self, text: &str) -> Option<(Cell, Cell)> {
        self.label_prefixes(text)
            .into_iter()
            .find_map(|(from, rest)| self.cell_by_label(rest).map(|to| (from, to)))
    }

    /// Colour of a cell (0 = dark, 1 = light on two-coloured boards; hex boards use 0..3).
    pub fn colour(&self, cell: Cell) -> u8 {
        self.cells[cell.index()].colour
    }

    /// The named region, if the board has it.
    pub fn region(&self, name: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.name == name)
    }

    /// All regions.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The rows a FEN board field lists, from the top down: the shape FEN reading and writing
    /// walk.
    ///
    /// By default these are the rows of the bounding box from the highest rank down, `None`
    /// where a lattice point is not a cell (written `*`). A board built with
    /// [`GeometryBuilder::rows_by`] (the hexagon) lists its own rows instead, each holding only
    /// cells, in file order: Gliński's V-shaped ranks from 11 (one cell) down to 1 (eleven).
    pub fn rows_from_top(&self) -> Vec<Vec<Option<Cell>>> {
        self.rows.clone()
    }

    /// The unit steps of the board's straight lines: 8 on square boards (ranks, files,
    /// diagonals), 12 on hexagonal ones ([`HEX_ORTHOGONAL`] then [`HEX_DIAGONAL`]).
    pub fn line_directions(&self) -> &'static [Vector] {
        match self.lattice {
            Lattice::Square | Lattice::Linked => &SQUARE_LINES,
            Lattice::Hex => &HEX_LINES,
        }
    }

    /// The unit step of the line from `(0, 0)` to `(dx, dy)`, if that displacement is a whole
    /// number of steps along one of [`Geometry::line_directions`].
    fn line_step(&self, dx: i32, dy: i32) -> Option<(i32, i32)> {
        self.line_directions().iter().find_map(|v| {
            let (sx, sy) = (v.dx as i32, v.dy as i32);
            let n = if sx != 0 { dx / sx } else { dy / sy };
            (n >= 1 && (n * sx, n * sy) == (dx, dy)).then_some((sx, sy))
        })
    }

    /// Width and height of the bounding box of the lattice coordinates.
    pub fn bounding_box(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    /// The cells strictly between `a` and `b` when they lie on one lattice line (same rank, file
    /// or diagonal on square boards; one of the twelve directions on hexagonal ones), walking
    /// unit steps; `None` otherwise, or when the line leaves the board between them.
    pub fn between(&self, a: Cell, b: Cell) -> Option<Vec<Cell>> {
        if self.linked().is_some() {
            // Walk every line from `a`; lines cross seams and fork, so coordinates cannot tell.
            return SQUARE_LINES.iter().find_map(|&v| {
                self.rays(a, v, None).into_iter().find_map(|ray| {
                    let at = ray.iter().position(|&c| c == b)?;
                    Some(ray[..at].to_vec())
                })
            });
        }
        let (ax, ay) = self.coords(a);
        let (bx, by) = self.coords(b);
        let (sx, sy) = self.line_step(bx - ax, by - ay)?;
        let mut out = Vec::new();
        let (mut x, mut y) = (ax + sx, ay + sy);
        while (x, y) != (bx, by) {
            out.push(self.at(x, y)?);
            x += sx;
            y += sy;
        }
        Some(out)
    }
}

/// Lattice points of a region, per player.
type PointsPerPlayer = Vec<Vec<(i32, i32)>>;

/// Builds a [`Geometry`] from lattice points.
pub struct GeometryBuilder {
    lattice: Lattice,
    points: Vec<(i32, i32)>,
    label: Box<dyn Fn(i32, i32) -> String>,
    colour: Box<dyn Fn(i32, i32) -> u8>,
    row_key: Option<Box<dyn Fn(i32, i32) -> i32>>,
    regions: Vec<(String, PointsPerPlayer)>,
    players: usize,
    /// Numbering order of the cells, when not (rank, file).
    order_key: Option<Box<dyn Fn(i32, i32) -> i32>>,
    /// Builds the steps of a [`Lattice::Linked`] board once the cells are numbered.
    linker: Option<fn(&Geometry) -> crate::linked::Links>,
    markings: Markings,
}

/// Algebraic label: file letter(s) from `a`, rank number from 1.
fn algebraic(x: i32, y: i32) -> String {
    let mut file = String::new();
    let mut n = x;
    loop {
        file.insert(0, (b'a' + (n % 26) as u8) as char);
        n = n / 26 - 1;
        if n < 0 {
            break;
        }
    }
    format!("{file}{}", y + 1)
}

/// File letters of hexagonal boards in Gliński's notation: the alphabet without `j`.
const HEX_FILE_LETTERS: &[u8] = b"abcdefghiklmnopqrstuvwxyz";

/// The letter(s) of hex file `x` (0 = `a`); past `z`, two letters (`aa`, `ab`, ...).
fn hex_file_name(x: i32) -> String {
    let n = HEX_FILE_LETTERS.len() as i32;
    if x < n {
        (HEX_FILE_LETTERS[x as usize] as char).to_string()
    } else {
        format!("{}{}", hex_file_name(x / n - 1), hex_file_name(x % n))
    }
}

/// The rank (0-based) of hex cell `(x, y)` on a hexagon whose centre file is `centre`: ranks
/// are bent into a "V" with its tip on the centre file, so the height of rank `r` in file `x`
/// is `2r + |x - centre|`.
fn hex_rank(x: i32, y: i32, centre: i32) -> i32 {
    (y - (x - centre).abs()) / 2
}

impl GeometryBuilder {
    /// A full `files` x `ranks` rectangle of square cells labelled `a1`.., with `a1` dark.
    pub fn rectangle(files: i32, ranks: i32) -> Self {
        let points = (0..ranks)
            .flat_map(|y| (0..files).map(move |x| (x, y)))
            .collect();
        GeometryBuilder {
            lattice: Lattice::Square,
            points,
            label: Box::new(algebraic),
            colour: Box::new(|x, y| ((x + y) & 1) as u8),
            row_key: None,
            regions: Vec::new(),
            players: 2,
            order_key: None,
            linker: None,
            markings: Markings::default(),
        }
    }

    /// A [`Lattice::Linked`] board: cells at `points` (keys only), labelled, coloured and put
    /// into FEN rows by the given functions, numbered by `order`, its steps built by `linker`.
    pub(crate) fn new_linked(
        points: Vec<(i32, i32)>,
        label: Box<dyn Fn(i32, i32) -> String>,
        colour: Box<dyn Fn(i32, i32) -> u8>,
        row_key: Box<dyn Fn(i32, i32) -> i32>,
        order: Box<dyn Fn(i32, i32) -> i32>,
        linker: fn(&Geometry) -> crate::linked::Links,
    ) -> Self {
        GeometryBuilder {
            lattice: Lattice::Linked,
            points,
            label,
            colour,
            row_key: Some(row_key),
            regions: Vec::new(),
            players: 2,
            order_key: Some(order),
            linker: Some(linker),
            markings: Markings::default(),
        }
    }

    /// A regular hexagon of hexagonal cells with `side` cells along each edge
    /// (`3·side·(side − 1) + 1` cells; 91 for Gliński's board, `side` 6), one edge of each
    /// cell facing each player so that the `2·side − 1` files are straight columns.
    ///
    /// Coordinates are the doubled ones of [`Lattice::Hex`]: file `x` from 0 (`a`, the first
    /// player's left) and height `y = 2·rank + |x − c|`, where `c = side − 1` is the centre
    /// file and `rank` counts from 0 at the first player's edge; a cell exists for
    /// `0 ≤ rank ≤ 2c − |x − c|`. (Gliński's rules state the same with 1-based ranks, so
    /// their height `h` is `y + 2`.)
    ///
    /// - **Labels**: Gliński's notation, file letters `a b c d e f g h i k l` (no `j`) and rank
    ///   numbers from 1, so the corners are `a1`, `f1`, `l1`, `l6`, `f11`, `a6`.
    /// - **Ranks** are bent into a "V" with the tip on the centre file; they are the rows
    ///   of [`Geometry::rows_from_top`] (rank 11 = `f11` first, then `e10 f10 g10`, ...).
    /// - **Colours**: three, by `(y − y_centre) mod 3`: 0 is grey (colour 2, the centre's),
    ///   1 dark (colour 0), 2 light (colour 1). Orthogonal neighbours never share a colour,
    ///   diagonal ones always do. On Gliński's board `a1`, `f11`, `l1` are dark and `a6`,
    ///   `f1`, `l6` light, 30 dark, 30 light and 31 grey cells.
    pub fn hexagon(side: i32) -> Self {
        let c = (side - 1).max(0);
        let points = (0..=2 * c)
            .flat_map(|x| {
                let length = 2 * c - (x - c).abs();
                (0..=length).map(move |rank| (x, 2 * rank + (x - c).abs()))
            })
            .collect();
        let centre_y = 2 * c;
        GeometryBuilder {
            lattice: Lattice::Hex,
            points,
            label: Box::new(move |x, y| format!("{}{}", hex_file_name(x), hex_rank(x, y, c) + 1)),
            colour: Box::new(move |_, y| match (y - centre_y).rem_euclid(3) {
                0 => 2,
                1 => 0,
                _ => 1,
            }),
            row_key: Some(Box::new(move |x, y| hex_rank(x, y, c))),
            regions: Vec::new(),
            players: 2,
            order_key: None,
            linker: None,
            markings: Markings::default(),
        }
    }

    /// Sets the rows FEN lists ([`Geometry::rows_from_top`]): cells with the same key form a
    /// row, in file (`x`) order, rows from the highest key down. Without it, the rows are
    /// those of the bounding box.
    pub fn rows_by(mut self, key: impl Fn(i32, i32) -> i32 + 'static) -> Self {
        self.row_key = Some(Box::new(key));
        self
    }

    /// Removes lattice points (holes in the board).
    pub fn without(mut self, holes: &[(i32, i32)]) -> Self {
        self.points.retain(|p| !holes.contains(p));
        self
    }

    /// Adds cells outside the rectangle (Omega's wizard cells, Big Outer Chess's corners).
    pub fn with_cells(mut self, extra: &[(i32, i32)]) -> Self {
        self.points.extend_from_slice(extra);
        self
    }

    /// Sets how cells are labelled from their coordinates.
    pub fn labels(mut self, f: impl Fn(i32, i32) -> String + 'static) -> Self {
        self.label = Box::new(f);
        self
    }

    /// Sets how cells are coloured from their coordinates.
    pub fn colours(mut self, f: impl Fn(i32, i32) -> u8 + 'static) -> Self {
        self.colour = Box::new(f);
        self
    }

    /// Sets the number of players regions are given for (2 by default).
    pub fn players(mut self, n: usize) -> Self {
        self.players = n;
        self
    }

    /// Adds a named region, listing its lattice points for each player.
    pub fn region(mut self, name: &str, per_player: PointsPerPlayer) -> Self {
        self.regions.push((name.to_string(), per_player));
        self
    }

    /// Men stand on the points where lines cross, not inside cells (xiangqi).
    pub fn on_points(mut self) -> Self {
        self.markings.on_points = true;
        self
    }

    /// A river between ranks `y` and `y + 1` of a board on points, with `words` written on
    /// it (one entry per half of the river, from the first player's left).
    pub fn river_between(mut self, y: i32, words: &[&str]) -> Self {
        let words = words.iter().map(|w| w.to_string()).collect();
        self.markings.rivers.push((y, words));
        self
    }

    /// Lines drawn between the centres of two cells (the palace diagonals).
    pub fn lines(mut self, lines: &[Segment]) -> Self {
        self.markings.lines.extend_from_slice(lines);
        self
    }

    /// Cells drawn as water.
    pub fn water(mut self, cells: &[(i32, i32)]) -> Self {
        self.markings.water.extend_from_slice(cells);
        self
    }

    /// Star points on the corners shared by cells `(x, y)` and `(x + 1, y + 1)`.
    pub fn stars(mut self, corners: &[(i32, i32)]) -> Self {
        self.markings.stars.extend_from_slice(corners);
        self
    }

    /// Numbers the cells in (rank, file) order and checks the board.
    pub fn build(self) -> Result<Geometry, GeometryError> {
        let mut points = self.points;
        match &self.order_key {
            Some(key) => points.sort_by_key(|&(x, y)| (key(x, y), y, x)),
            None => points.sort_by_key(|&(x, y)| (y, x)),
        }
        if points.is_empty() {
            return Err(GeometryError::Empty);
        }
        if points.len() > u16::MAX as usize {
            return Err(GeometryError::TooManyCells(points.len()));
        }
        let mut sorted = points.clone();
        sorted.sort();
        for w in sorted.windows(2) {
            if w[0] == w[1] {
                return Err(GeometryError::DuplicateCoordinates(w[0].0, w[0].1));
            }
        }
        let min_x = points.iter().map(|p| p.0).min().unwrap_or(0);
        let max_x = points.iter().map(|p| p.0).max().unwrap_or(0);
        let min_y = points.iter().map(|p| p.1).min().unwrap_or(0);
        let max_y = points.iter().map(|p| p.1).max().unwrap_or(0);
        let (width, height) = (max_x - min_x + 1, max_y - min_y + 1);
        let mut grid = vec![None; (width * height) as usize];
        let mut cells = Vec::with_capacity(points.len());
        let mut by_label = HashMap::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            let label = (self.label)(x, y);
            if by_label.insert(label.clone(), Cell(i as u16)).is_some() {
                return Err(GeometryError::DuplicateLabel(label));
            }
            grid[((y - min_y) * width + (x - min_x)) as usize] = Some(Cell(i as u16));
            cells.push(CellInfo {
                x,
                y,
                label,
                colour: (self.colour)(x, y),
            });
        }
        let rows = match &self.row_key {
            None => (0..height)
                .rev()
                .map(|gy| {
                    (0..width)
                        .map(|gx| grid[(gy * width + gx) as usize])
                        .collect()
                })
                .collect(),
            Some(key) => {
                // Within a row, cells go in file order: by `x` on lattices; on linked boards,
                // whose keys do not follow the files, by the file letters of the labels.
                let linked = self.linker.is_some();
                let mut keyed: Vec<(i32, i32, Cell)> = points
                    .iter()
                    .enumerate()
                    .map(|(i, &(x, y))| (key(x, y), x, Cell(i as u16)))
                    .collect();
                keyed.sort_by_key(|&(k, x, cell)| {
                    let file = if linked {
                        cells[cell.index()].label.clone()
                    } else {
                        String::new()
                    };
                    (std::cmp::Reverse(k), file, x)
                });
                let mut rows: Vec<Vec<Option<Cell>>> = Vec::new();
                let mut last = None;
                for (k, _, cell) in keyed {
                    if last != Some(k) {
                        rows.push(Vec::new());
                        last = Some(k);
                    }
                    if let Some(row) = rows.last_mut() {
                        row.push(Some(cell));
                    }
                }
                rows
            }
        };
        let mut geometry = Geometry {
            lattice: self.lattice,
            cells,
            min_x,
            min_y,
            width,
            height,
            grid,
            by_label,
            regions: Vec::new(),
            players: self.players,
            rows,
            links: None,
            markings: Markings::default(),
        };
        if let Some(linker) = self.linker {
            geometry.links = Some(Box::new(linker(&geometry)));
        }
        let marked = self.markings.lines.iter().flat_map(|&(a, b)| [a, b]);
        for (x, y) in marked.chain(self.markings.water.iter().copied()) {
            if geometry.at(x, y).is_none() {
                return Err(GeometryError::RegionOutsideBoard("markings".into(), x, y));
            }
        }
        geometry.markings = self.markings;
        for (name, per_player) in self.regions {
            let mut cells = Vec::new();
            for pts in per_player {
                let mut list = Vec::new();
                for (x, y) in pts {
                    let c = geometry
                        .at(x, y)
                        .ok_or_else(|| GeometryError::RegionOutsideBoard(name.clone(), x, y))?;
                    list.push(c);
                }
                list.sort();
                cells.push(list);
            }
            geometry.regions.push(Region { name, cells });
        }
        Ok(geometry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chessboard_labels_colours_and_numbering() {
        let g = GeometryBuilder::rectangle(8, 8).build().unwrap();
        assert_eq!(g.len(), 64);
        let a1 = g.cell_by_label("a1").unwrap();
        let h8 = g.cell_by_label("h8").unwrap();
        assert_eq!((a1.0, h8.0), (0, 63));
        assert_eq!(g.label(Cell(12)), "e2");
        assert_eq!(g.colour(a1), 0, "a1 is dark");
        assert_eq!(g.colour(g.cell_by_label("h1").unwrap()), 1, "h1 is light");
        let e4 = g.cell_by_label("e4").unwrap();
        assert_eq!(g.offset(e4, Vector::new(1, 2)), g.cell_by_label("f6"));
        assert_eq!(g.offset(h8, Vector::new(1, 0)), None);
        let ray = &g.rays(e4, Vector::new(-1, -1), None)[0];
        let labels: Vec<_> = ray.iter().map(|&c| g.label(c)).collect();
        assert_eq!(labels, ["d3", "c2", "b1"]);
        assert_eq!(g.rays(e4, Vector::new(0, 1), Some(2))[0].len(), 2);
    }

    #[test]
    fn twenty_by_twenty_with_multi_digit_ranks() {
        let g = GeometryBuilder::rectangle(20, 20).build().unwrap();
        assert_eq!(g.len(), 400);
        let t20 = g.cell_by_label("t20").unwrap();
        assert_eq!(t20.0, 399);
        // "a10a9" can start with a1 or a10; both readings are offered.
        let reads = g.label_prefixes("a10a9");
        let labels: Vec<_> = reads.iter().map(|(c, rest)| (g.label(*c), *rest)).collect();
        assert_eq!(labels, [("a1", "0a9"), ("a10", "a9")]);
        let pair = |text| g.cell_pair(text).map(|(a, b)| (g.label(a), g.label(b)));
        assert_eq!(pair("a10a9"), Some(("a10", "a9")));
        assert_eq!(pair("t20a1"), Some(("t20", "a1")));
        assert_eq!(pair("a10a9x"), None);
        assert_eq!(pair("a10"), None);
    }

    /// An Omega-style board: 10x10 with four wizard cells diagonally beyond the corners.
    fn omega_like() -> Geometry {
        GeometryBuilder::rectangle(10, 10)
            .with_cells(&[(-1, -1), (10, -1), (10, 10), (-1, 10)])
            .labels(|x, y| match (x, y) {
                (-1, -1) => "w1".into(),
                (10, -1) => "w2".into(),
                (10, 10) => "w3".into(),
                (-1, 10) => "w4".into(),
                _ => format!("{}{}", (b'a' + x as u8) as char, y),
            })
            .region("promotion", vec![vec![(0, 9), (9, 9)], vec![(0, 0)]])
            .build()
            .unwrap()
    }

    #[test]
    fn extra_cells_outside_the_rectangle() {
        let g = omega_like();
        assert_eq!(g.len(), 104);
        let w1 = g.cell_by_label("w1").unwrap();
        let a0 = g.cell_by_label("a0").unwrap();
        let j9 = g.cell_by_label("j9").unwrap();
        // Numbering stays (rank, file) ordered, so w1 and w2 come before a0.
        assert_eq!(w1.0, 0);
        assert_eq!(a0.0, 2);
        // The wizard cell lies on the long diagonal and has no orthogonal neighbour.
        let diag = &g.rays(w1, Vector::new(1, 1), None)[0];
        assert_eq!(diag.len(), 11);
        assert_eq!(diag.last().map(|&c| g.label(c)), Some("w3"));
        assert_eq!(diag[9], j9);
        for v in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            assert_eq!(g.offset(w1, Vector::new(v.0, v.1)), None);
        }
        // Rook rays stop at the missing border points: a0 cannot slide to w1's row.
        assert!(g.rays(a0, Vector::new(-1, 0), None)[0].is_empty());
        // Leaps may land on an extra cell: a (3,3) leap from c2 reaches w1.
        let c2 = g.cell_by_label("c2").unwrap();
        assert_eq!(g.offset(c2, Vector::new(-3, -3)), Some(w1));
        let rows = g.rows_from_top();
        assert_eq!(rows.len(), 12);
        assert_eq!(rows[0].len(), 12);
        assert_eq!(rows[0].iter().filter(|c| c.is_some()).count(), 2);
        let promo = g.region("promotion").unwrap();
        assert_eq!(promo.cells[0].len(), 2);
    }

    #[test]
    fn holes_are_not_cells_and_stop_rays() {
        let g = GeometryBuilder::rectangle(5, 5)
            .without(&[(2, 2)])
            .build()
            .unwrap();
        assert_eq!(g.len(), 24);
        assert_eq!(g.cell_by_label("c3"), None);
        let c1 = g.cell_by_label("c1").unwrap();
        assert_eq!(g.rays(c1, Vector::new(0, 1), None)[0].len(), 1);
        // A leaper jumps over the hole.
        assert_eq!(g.offset(c1, Vector::new(0, 4)), g.cell_by_label("c5"));
    }

    #[test]
    fn bad_boards_are_errors() {
        assert_eq!(
            GeometryBuilder::rectangle(0, 0).build().unwrap_err(),
            GeometryError::Empty
        );
        let dup = GeometryBuilder::rectangle(2, 2)
            .labels(|_, _| "x".into())
            .build();
        assert!(matches!(dup, Err(GeometryError::DuplicateLabel(_))));
        let outside = GeometryBuilder::rectangle(2, 2)
            .region("zone", vec![vec![(5, 5)]])
            .build();
        assert!(matches!(
            outside,
            Err(GeometryError::RegionOutsideBoard(..))
        ));
    }

    #[test]
    fn between_walks_lines_only() {
        let g = GeometryBuilder::rectangle(8, 8).build().unwrap();
        let c = |l| g.cell_by_label(l).unwrap();
        let b = g.between(c("a1"), c("d4")).unwrap();
        assert_eq!(b, vec![c("b2"), c("c3")]);
        assert_eq!(g.between(c("a1"), c("b3")), None);
        assert_eq!(g.between(c("e2"), c("e3")).unwrap(), vec![]);
    }
}
