//! Boards whose cells do not sit on one lattice: charts of square cells glued along seams,
//! where a line that crosses a seam goes on in the next chart's own frame, and where a corner
//! shared by more than four cells makes diagonal lines fork.
//!
//! Every cell has a *frame*: the local (file, rank) directions of the chart it lies in. A
//! [`Vector`] given at a cell is read in that cell's frame. A step links a cell and a unit
//! orthogonal direction to the next cell and to the map that turns directions of the old frame
//! into the new one (turned round across the three-player board's seams), so lines carry their
//! direction across seams.
//!
//! A diagonal step is defined from the orthogonal ones: the two ways round the corner it
//! crosses, file step first or rank step first. At an ordinary corner (four cells) both reach
//! the same cell; at the three-player board's centre (six cells) they reach the two cells two
//! places round the ring, so the line forks, and the cell opposite is no diagonal neighbour.
//!
//! The only such board is three-player chess's ([`GeometryBuilder::three_player`]): three
//! half-boards of 8 files by 4 ranks, each joined to the other two along half of its inner
//! edge (`docs/rules/threeplayer.md`, Board).

use crate::geometry::{Cell, Geometry, GeometryBuilder, Vector};

/// A linear map of directions from one cell's frame to another's: `(a, b, c, d)` sends
/// `(x, y)` to `(a·x + b·y, c·x + d·y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameMap(i8, i8, i8, i8);

impl FrameMap {
    /// Directions keep their meaning (inside one chart).
    pub(crate) const SAME: FrameMap = FrameMap(1, 0, 0, 1);
    /// Directions turn round (across a seam where two charts meet head on).
    pub(crate) const TURNED: FrameMap = FrameMap(-1, 0, 0, -1);

    fn apply(self, v: (i16, i16)) -> (i16, i16) {
        let (a, b, c, d) = (self.0 as i16, self.1 as i16, self.2 as i16, self.3 as i16);
        (a * v.0 + b * v.1, c * v.0 + d * v.1)
    }

    /// `self` after `first`.
    fn after(self, first: FrameMap) -> FrameMap {
        let (a, b, c, d) = (self.0, self.1, self.2, self.3);
        let (e, f, g, h) = (first.0, first.1, first.2, first.3);
        FrameMap(a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)
    }
}

/// The four unit orthogonal directions, in the order of [`Links::orthogonal`].
const ORTHOGONAL: [(i16, i16); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

fn orthogonal_index(v: (i16, i16)) -> Option<usize> {
    ORTHOGONAL.iter().position(|&o| o == v)
}

/// A cell's corners in picture coordinates.
type Polygon = Vec<(f64, f64)>;

/// The connections of a linked board.
#[derive(Clone, Debug)]
pub(crate) struct Links {
    /// Per cell and orthogonal direction ([`ORTHOGONAL`] order, in the cell's frame): the next
    /// cell and the frame map into it.
    orthogonal: Vec<[Option<(Cell, FrameMap)>; 4]>,
    /// Per cell: the polygon of the cell in picture coordinates (x right, y down).
    pub(crate) polygons: Vec<Polygon>,
    /// Width and height of the picture.
    pub(crate) picture: (f64, f64),
}

/// One way a walk may go on: the cell reached and the map from the start cell's frame.
type Step = (Cell, FrameMap);

impl Links {
    /// The orthogonal step from `cell` along `v` (a unit orthogonal vector in the frame of
    /// `cell`).
    fn orthogonal_step(&self, cell: Cell, v: (i16, i16)) -> Option<Step> {
        self.orthogonal[cell.index()][orthogonal_index(v)?]
    }

    /// The cells one unit step `v` (in `cell`'s frame) away, with the frame maps into them:
    /// one for an orthogonal step; for a diagonal one the ways round the corner (file step
    /// first, then rank step first), one cell where they agree. `rank_first_only` keeps only
    /// the way through the orthogonal neighbour along the rank direction (a pawn capturing
    /// beside the cell ahead of it).
    pub(crate) fn unit_steps(&self, cell: Cell, v: (i16, i16), rank_first_only: bool) -> Vec<Step> {
        if v.0 == 0 || v.1 == 0 {
            return self.orthogonal_step(cell, v).into_iter().collect();
        }
        let two_legs = |first: (i16, i16), second: (i16, i16)| -> Option<Step> {
            let (middle, m1) = self.orthogonal_step(cell, first)?;
            let (end, m2) = self.orthogonal_step(middle, m1.apply(second))?;
            Some((end, m2.after(m1)))
        };
        let rank_first = two_legs((0, v.1), (v.0, 0));
        if rank_first_only {
            return rank_first.into_iter().collect();
        }
        let file_first = two_legs((v.0, 0), (0, v.1));
        let mut out: Vec<Step> = file_first.into_iter().collect();
        if let Some(s) = rank_first
            && !out.iter().any(|&(c, _)| c == s.0)
        {
            out.push(s);
        }
        out
    }

    /// The rays from `cell` along the unit vector `v`, at most `max` steps: one per branch
    /// where diagonal lines fork, each carrying its direction from frame to frame.
    pub(crate) fn rays(&self, cell: Cell, v: (i16, i16), max: Option<usize>) -> Vec<Vec<Cell>> {
        let mut done = Vec::new();
        // (cells so far, last cell, direction in its frame)
        let mut open = vec![(Vec::new(), cell, v)];
        while let Some((ray, at, dir)) = open.pop() {
            let next = if max.is_some_and(|m| ray.len() >= m) {
                Vec::new()
            } else {
                self.unit_steps(at, dir, false)
            };
            if next.is_empty() {
                done.push(ray);
                continue;
            }
            for (to, map) in next {
                if ray.contains(&to) || to == cell {
                    continue;
                }
                let mut longer = ray.clone();
                longer.push(to);
                open.push((longer, to, map.apply(dir)));
            }
        }
        done.sort();
        done
    }

    /// All cells one orthogonal or diagonal step away.
    fn neighbours(&self, cell: Cell) -> Vec<Cell> {
        let mut out: Vec<Cell> = KING
            .iter()
            .flat_map(|&v| self.unit_steps(cell, v, false))
            .map(|(c, _)| c)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The leaps of `v` from `cell`, each with the cells it passes (for lame moves):
    ///
    /// - unit steps as [`Links::unit_steps`];
    /// - two equal unit steps (`(0, 2)`, `(2, 2)`) along the line, passing the middle cell;
    /// - the knight's shape (an orthogonal plus a diagonal step): the rules file's knight, a
    ///   cell reached by an orthogonal and a diagonal step in either order that is neither
    ///   the start nor one of its neighbours. The walks whose steps add up to `v` give its
    ///   cells; a cell that only a walk of another sum reaches (the rosette cell opposite,
    ///   across the three-player centre, where six cells meet) belongs to every direction of
    ///   the shape, so the full knight has it and no direction is favoured.
    ///
    /// Other displacements have no meaning on these boards and give nothing.
    pub(crate) fn leaps(
        &self,
        cell: Cell,
        v: (i16, i16),
        rank_first_only: bool,
    ) -> Vec<(Cell, Vec<Cell>)> {
        let (ax, ay) = (v.0.abs(), v.1.abs());
        if ax <= 1 && ay <= 1 {
            return self
                .unit_steps(cell, v, rank_first_only)
                .into_iter()
                .map(|(c, _)| (c, Vec::new()))
                .collect();
        }
        if (ax == 0 || ay == 0 || ax == ay) && ax.max(ay) == 2 {
            let unit = (v.0.signum(), v.1.signum());
            let mut out = Vec::new();
            for (middle, m) in self.unit_steps(cell, unit, false) {
                for (end, _) in self.unit_steps(middle, m.apply(unit), false) {
                    if end != cell {
                        out.push((end, vec![middle]));
                    }
                }
            }
            return out;
        }
        if (ax, ay) == (1, 2) || (ax, ay) == (2, 1) {
            let excluded = |c: Cell| c == cell || self.neighbours(cell).contains(&c);
            let mut own: Vec<Cell> = self
                .knight_walks(cell, |sum| sum == v)
                .into_iter()
                .filter(|&c| !excluded(c))
                .collect();
            let shaped = |s: (i16, i16)| {
                let (x, y) = (s.0.abs(), s.1.abs());
                (x, y) == (1, 2) || (x, y) == (2, 1)
            };
            let by_shape = self.knight_walks(cell, shaped);
            for c in self.knight_walks(cell, |_| true) {
                if !excluded(c) && !by_shape.contains(&c) {
                    own.push(c);
                }
            }
            own.sort();
            own.dedup();
            return own.into_iter().map(|c| (c, Vec::new())).collect();
        }
        Vec::new()
    }

    /// Cells reached from `cell` by an orthogonal and a diagonal unit step in either order,
    /// over walks whose two steps (in the start cell's frame) add up to a sum `keep` accepts.
    fn knight_walks(&self, cell: Cell, keep: impl Fn((i16, i16)) -> bool) -> Vec<Cell> {
        let mut out = Vec::new();
        for o in ORTHOGONAL {
            for d in DIAGONAL {
                if !keep((o.0 + d.0, o.1 + d.1)) {
                    continue;
                }
                for (first, second) in [(o, d), (d, o)] {
                    for (middle, m) in self.unit_steps(cell, first, false) {
                        for (end, _) in self.unit_steps(middle, m.apply(second), false) {
                            out.push(end);
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The four unit diagonal directions.
const DIAGONAL: [(i16, i16); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The eight king directions.
const KING: [(i16, i16); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

/// Files of a half-board, ranks of a half-board.
const HALF_FILES: i32 = 8;
const HALF_RANKS: i32 = 4;

/// The three halves in turn order: White, Red, Black. Each is drawn on the hexagon side
/// `2·half` (White's at the bottom, counter-clockwise from there), and lists its local files
/// a..h as global file letters and its local ranks 1..4 as global rank numbers.
const HALVES: [(&str, [i32; 4]); 3] = [
    ("ABCDEFGH", [1, 2, 3, 4]),
    ("HGFEIJKL", [12, 11, 10, 9]),
    ("LKJIDCBA", [8, 7, 6, 5]),
];

/// Lattice points of the three-player board: half `h` occupies `x` in `8h .. 8h + 7` (its
/// local files a..h), `y` in `0..3` (its local ranks 1..4).
fn half_of(x: i32) -> usize {
    (x / HALF_FILES) as usize
}

/// The global label of a lattice point (`E2`, `I12`).
pub(crate) fn three_player_label(x: i32, y: i32) -> String {
    let (files, ranks) = HALVES[half_of(x)];
    let file = files.as_bytes()[(x % HALF_FILES) as usize] as char;
    format!("{file}{}", ranks[y as usize])
}

/// Numbering order of the three-player cells. Every line must be monotone in cell order for
/// the tables' one-bit-scan rays wherever that is possible: White's half first, then
/// Black's, then Red's, so that every file line runs upwards across its seam (White to Black,
/// White to Red, Black to Red); inside a half, files first (local file times ten), so that
/// ranks and diagonals are monotone, and within a file the rank in the direction its line
/// runs. The diagonals through the centre cannot all be monotone (three half-lines meet there
/// pairwise); the tables handle the rest (see `chaturanga_rules::tables`).
fn three_player_order(x: i32, y: i32) -> i32 {
    let (lx, h) = (x % HALF_FILES, half_of(x));
    match h {
        // White: every file runs up to a seam.
        0 => lx * 10 + y,
        // Black after White: files d..a (I..L) run up to the seam with Red, e..h (D..A) come
        // down from the seam with White.
        2 => 100 + lx * 10 + if lx < 4 { y } else { -y },
        // Red last: every file comes down from a seam.
        _ => 200 + lx * 10 - y,
    }
}

/// Which half joins half `h` across the inner edge of its local files a-d (`left`) or e-h:
/// White's a-d meet Black, e-h Red; Red's a-d meet White, e-h Black; Black's a-d meet Red,
/// e-h White.
fn across(h: usize, left: bool) -> usize {
    if left { (h + 2) % 3 } else { (h + 1) % 3 }
}

/// The orthogonal links of the three-player board.
fn three_player_orthogonal(g: &Geometry, cell: Cell) -> [Option<Step>; 4] {
    let (x, y) = g.coords(cell);
    let (h, lx) = (half_of(x), x % HALF_FILES);
    let base = h as i32 * HALF_FILES;
    ORTHOGONAL.map(|(dx, dy)| {
        let (nx, ny) = (lx + dx as i32, y + dy as i32);
        if !(0..HALF_FILES).contains(&nx) || ny < 0 {
            return None;
        }
        if ny < HALF_RANKS {
            return g.at(base + nx, ny).map(|c| (c, FrameMap::SAME));
        }
        // Across the inner edge: the half met there, turned round, so local file f of one
        // faces local file 7 − f of the other.
        let other = across(h, nx < 4) as i32;
        g.at(other * HALF_FILES + (HALF_FILES - 1 - nx), HALF_RANKS - 1)
            .map(|c| (c, FrameMap::TURNED))
    })
}

/// The polygon of each cell: the board is a regular hexagon cut into six quarters by the
/// lines from its centre to the middles of its sides; half `h` is the two quarters along side
/// `2h` (White's at the bottom, counter-clockwise), each a 4x4 grid stretched over its
/// quadrilateral.
fn three_player_polygons(g: &Geometry) -> (Vec<Polygon>, (f64, f64)) {
    let radius = HALF_FILES as f64;
    let height = radius * 3f64.sqrt();
    // Picture coordinates of hexagon vertex k (k = 0 bottom left, counter-clockwise).
    let vertex = |k: i32| {
        let angle = (240.0 + 60.0 * k.rem_euclid(6) as f64).to_radians();
        (
            radius + radius * angle.cos(),
            height / 2.0 - radius * angle.sin(),
        )
    };
    let middle = |k: i32| {
        let (a, b) = (vertex(k), vertex(k + 1));
        ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
    };
    let centre = (radius, height / 2.0);
    let polygons = g
        .cells()
        .map(|cell| {
            let (x, y) = g.coords(cell);
            let (h, lx) = (half_of(x) as i32, x % HALF_FILES);
            let side = 2 * h;
            // Corners (u, v) = (0,0), (4,0), (4,4), (0,4) of the quarter holding the cell.
            let (quad, u0) = if lx < 4 {
                ([vertex(side), middle(side), centre, middle(side - 1)], lx)
            } else {
                (
                    [middle(side), vertex(side + 1), middle(side + 1), centre],
                    lx - 4,
                )
            };
            let point = |u: i32, v: i32| {
                let (s, t) = (u as f64 / 4.0, v as f64 / 4.0);
                let w = [(1.0 - s) * (1.0 - t), s * (1.0 - t), s * t, (1.0 - s) * t];
                (
                    (0..4).map(|i| w[i] * quad[i].0).sum::<f64>(),
                    (0..4).map(|i| w[i] * quad[i].1).sum::<f64>(),
                )
            };
            vec![
                point(u0, y),
                point(u0 + 1, y),
                point(u0 + 1, y + 1),
                point(u0, y + 1),
            ]
        })
        .collect();
    (polygons, (2.0 * radius, height))
}

/// Builds the links of a geometry built with [`GeometryBuilder::three_player`].
pub(crate) fn three_player_links(g: &Geometry) -> Links {
    let orthogonal = g.cells().map(|c| three_player_orthogonal(g, c)).collect();
    let (polygons, picture) = three_player_polygons(g);
    Links {
        orthogonal,
        polygons,
        picture,
    }
}

impl GeometryBuilder {
    /// Three-player chess's board (`docs/rules/threeplayer.md`): 96 square cells in three
    /// half-boards of 8 files by 4 ranks around a centre where six cells meet, labelled with
    /// the rules file's global coordinates (White `A1`-`H4`, Black `A5`-`D8` and `I5`-`L8`, Red
    /// `E9`-`L12`), two colours (a cell is dark, colour 0, when its local file number plus
    /// local rank is even), FEN rows from rank 12 down to rank 1 with the cells of each rank
    /// in alphabetical file order.
    ///
    /// The board is [`Lattice::Linked`](crate::Lattice::Linked): a vector at a cell is read in the frame of its half
    /// (the local files and ranks of its owner), lines cross the seams between halves
    /// straight on, and diagonals fork at the centre. Lattice coordinates are
    /// `(8·half + local file, local rank)` with the halves in turn order White, Red, Black
    /// (0-based), which serve only as keys; [`Geometry::to_json`] gives the picture.
    pub fn three_player() -> Self {
        let points = (0..3 * HALF_FILES)
            .flat_map(|x| (0..HALF_RANKS).map(move |y| (x, y)))
            .collect();
        GeometryBuilder::new_linked(
            points,
            Box::new(three_player_label),
            Box::new(|x, y| (((x % HALF_FILES) + 1 + y + 1) % 2) as u8),
            Box::new(|x, y| HALVES[half_of(x)].1[y as usize]),
            Box::new(three_player_order),
            three_player_links,
        )
        .players(3)
    }
}

impl Geometry {
    /// The frame-relative unit steps of a linked board; `None` on lattice boards.
    pub(crate) fn linked(&self) -> Option<&Links> {
        self.links.as_deref()
    }

    /// The leaps of `v` from `cell` on a linked board ([`crate::Lattice::Linked`]), each with the
    /// cells it passes (what a lame move needs empty): unit steps (a diagonal one forks where
    /// more than four cells meet at its corner; `rank_first_only` keeps the way through the
    /// neighbour along the rank direction, i.e. beside the cell straight ahead), two equal
    /// unit steps along a line, and the knight's shape as the rules file defines the knight
    /// (see the module documentation of `linked`). Empty on lattice boards, which use
    /// [`Geometry::offset`].
    pub fn linked_leaps(
        &self,
        cell: Cell,
        v: Vector,
        rank_first_only: bool,
    ) -> Vec<(Cell, Vec<Cell>)> {
        self.linked()
            .map(|l| l.leaps(cell, (v.dx, v.dy), rank_first_only))
            .unwrap_or_default()
    }
}
