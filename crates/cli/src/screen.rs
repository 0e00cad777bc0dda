//! The terminal's picture of a position, drawn from the same data as the browser's: the
//! [`Scene`] a viewer sees (boards, men, heights, reserves, fog, check), the last move's
//! [`MoveShape`] and the [`Legend`]. Nothing here asks which ruleset it draws.
//!
//! - **Men.** On a board of two players the first's symbols are upper case and the
//!   other's lower case, as FENs write them; with three players on a board each symbol has
//!   its owner's initial in front (`wK`, `rK`, `bK`); stones (Gess) are `X` for a black
//!   owner and `O` for a white one. A tower's height follows its letter (`R3`); a symbol's
//!   height in braces (`P{2}`) is written the same way.
//! - **Marks.** `[x]` the cells of the last move, `(x)` a royal man in check, `?` a cell the
//!   viewer cannot see into, `.` an empty cell.
//! - **Coordinates** on every edge: on square boards the part of the labels that stays the
//!   same along each file and rank (`a`..`h` and `1`..`8`; shogi's `9`..`1` across and
//!   `a`..`i` down), and where a row or column has no common part (Omega's wizard cells)
//!   the labels of its end cells beside them; on hexagonal boards the files above and below
//!   and each rank beside its outermost cells; three-player chess as a chart of its halves,
//!   one line per rank, files above and below.
//! - **Orientation.** A drawing has the board's bottom player ([`SceneBoard::bottom`], the
//!   first player unless the scene says otherwise) at the bottom; it is turned half round
//!   when the player it is drawn for sits elsewhere, and once more when the person asks to
//!   flip it. On a board the viewer does not play (bughouse) his partner sits at the bottom.

use chaturanga_rules::Legend;
use chaturanga_rules::PieceStyle;
use chaturanga_rules::geometry::{Cell, Geometry, Lattice};
use chaturanga_rules::scene::{MoveShape, Scene, SceneBoard};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Widest screen, in columns, on which several boards are drawn side by side.
const SIDE_BY_SIDE_WIDTH: usize = 110;

/// What the drawing needs to know about the players and pieces.
pub struct Look<'a> {
    /// The legend of the position's men.
    pub legend: &'a Legend,
    /// Every player's name (`white`, `black`, `A-white`).
    pub names: Vec<&'static str>,
    /// Every player's team.
    pub teams: Vec<usize>,
}

/// For whom a board is drawn, and how.
#[derive(Clone, Copy, Debug)]
pub struct Seat {
    /// The player whose side is at the bottom (a viewer, or the person playing).
    pub player: usize,
    /// Turned half round once more.
    pub flip: bool,
}

/// How a board writes whose a man is.
enum Owners {
    /// The first owner upper case, the second lower case.
    Case { first: usize },
    /// The owner's initial (or number) before the symbol.
    Prefix(HashMap<usize, String>),
    /// A glyph per owner in place of the symbol (stones).
    Glyph(HashMap<usize, char>),
}

/// The symbol without a height in braces, and that height (`P{2}` -> `P`, 2).
fn split_height(symbol: &str) -> (&str, Option<u32>) {
    if let Some((letter, rest)) = symbol.split_once('{')
        && let Some(height) = rest.strip_suffix('}').and_then(|h| h.parse().ok())
    {
        return (letter, Some(height));
    }
    (symbol, None)
}

/// One board's owners and how each is written.
struct BoardLook {
    owners: Vec<usize>,
    style: Owners,
    /// The player at the bottom of the drawing as made.
    drawn_bottom: usize,
}

impl BoardLook {
    fn new(board: &SceneBoard, boards: usize, look: &Look) -> Self {
        let mut owners: Vec<usize> = board
            .men
            .iter()
            .map(|m| m.owner)
            .chain(board.hands.iter().map(|h| h.owner))
            .collect();
        if boards == 1 {
            // Every player plays on the one board, men or none.
            owners.extend(0..look.names.len());
        }
        owners.sort_unstable();
        owners.dedup();
        if owners.is_empty() {
            owners.push(0);
        }
        let style = if look.legend.style == PieceStyle::Stones {
            let glyph = |p: usize| {
                let name = look.names.get(p).copied().unwrap_or("");
                if name.contains("black") {
                    'X'
                } else if name.contains("white") {
                    'O'
                } else {
                    char::from_digit((p as u32 + 1) % 10, 10).unwrap_or('?')
                }
            };
            Owners::Glyph(owners.iter().map(|&p| (p, glyph(p))).collect())
        } else if owners.len() <= 2 {
            Owners::Case { first: owners[0] }
        } else {
            let firsts: Vec<String> = owners
                .iter()
                .map(|&p| {
                    let name = look.names.get(p).copied().unwrap_or("");
                    name.chars()
                        .next()
                        .map(|c| c.to_string())
                        .unwrap_or_default()
                })
                .collect();
            let distinct: HashSet<&String> = firsts.iter().collect();
            let prefix: HashMap<usize, String> = if distinct.len() == owners.len() {
                owners.iter().copied().zip(firsts).collect()
            } else {
                owners
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, (i + 1).to_string()))
                    .collect()
            };
            Owners::Prefix(prefix)
        };
        let drawn_bottom = board
            .bottom
            .filter(|b| owners.contains(b))
            .unwrap_or(owners[0]);
        BoardLook {
            owners,
            style,
            drawn_bottom,
        }
    }

    /// A man's text: symbol in its owner's case, prefix or glyph, and a tower's height.
    fn man(&self, piece: &str, owner: usize, height: Option<u32>) -> String {
        let (letters, braced) = split_height(piece);
        let height = height.or(braced).filter(|&h| h > 1);
        let mut text = match &self.style {
            Owners::Case { first } if owner == *first => letters.to_string(),
            Owners::Case { .. } => letters.to_lowercase(),
            Owners::Prefix(prefix) => {
                format!("{}{letters}", prefix.get(&owner).map_or("", String::as_str))
            }
            Owners::Glyph(glyph) => glyph.get(&owner).copied().unwrap_or('?').to_string(),
        };
        if let Some(h) = height {
            text.push_str(&h.to_string());
        }
        text
    }

    /// What tells the owners apart, in words (`white upper case, black lower case`).
    fn key(&self, look: &Look) -> String {
        let name = |p: usize| look.names.get(p).copied().unwrap_or("player");
        match &self.style {
            Owners::Case { first } => {
                let others: Vec<&str> = self
                    .owners
                    .iter()
                    .filter(|&&p| p != *first)
                    .map(|&p| name(p))
                    .collect();
                if others.is_empty() {
                    format!("{} upper case", name(*first))
                } else {
                    format!(
                        "{} upper case, {} lower case",
                        name(*first),
                        others.join(", ")
                    )
                }
            }
            Owners::Prefix(prefix) => format!(
                "{} before the letter",
                self.owners
                    .iter()
                    .map(|p| format!("{} {}", prefix[p], name(*p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Owners::Glyph(glyph) => self
                .owners
                .iter()
                .map(|p| format!("{} {}", glyph[p], name(*p)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The player a viewer sitting as `seat` has at the bottom of this board: himself, else
    /// his partner, else the drawing's bottom player.
    fn bottom_for(&self, seat: Seat, look: &Look) -> usize {
        if self.owners.contains(&seat.player) {
            return seat.player;
        }
        let team = look.teams.get(seat.player).copied();
        self.owners
            .iter()
            .copied()
            .find(|&p| team.is_some() && look.teams.get(p).copied() == team)
            .unwrap_or(self.drawn_bottom)
    }

    /// Whether the drawing is turned half round for `seat`.
    fn turned(&self, seat: Seat, look: &Look) -> bool {
        (self.bottom_for(seat, look) != self.drawn_bottom) ^ seat.flip
    }

    /// The owner shown at the bottom when the drawing is turned or not.
    fn shown_bottom(&self, turned: bool) -> usize {
        if !turned {
            return self.drawn_bottom;
        }
        self.owners
            .iter()
            .copied()
            .find(|&p| p != self.drawn_bottom)
            .unwrap_or(self.drawn_bottom)
    }
}

/// A label's parts: runs of letters, of digits, and of anything else (`9`, `a` of `9a`).
fn parts(label: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_ascii_alphabetic() {
            0
        } else if c.is_ascii_digit() {
            1
        } else {
            2
        }
    };
    let mut out: Vec<String> = Vec::new();
    let mut last = None;
    for c in label.chars() {
        let k = class(c);
        match out.last_mut() {
            Some(part) if last == Some(k) => part.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(k);
    }
    out
}

/// Names for the files (or ranks) of a board: a line is named by what its labels share, if it
/// is about as long as the longest line.
fn line_names<'g>(
    lines: std::ops::RangeInclusive<i32>,
    labels: impl Fn(i32) -> Vec<&'g str>,
) -> HashMap<i32, String> {
    let longest = lines.clone().map(|i| labels(i).len()).max().unwrap_or(0);
    lines
        .filter_map(|i| {
            let line = labels(i);
            (line.len() >= longest.min(3))
                .then(|| common_part(&line))
                .flatten()
                .map(|name| (i, name))
        })
        .collect()
}

/// The parts every label of a line shares, in order (`1` of `a1 b1 c1`), if any.
fn common_part(labels: &[&str]) -> Option<String> {
    let split: Vec<Vec<String>> = labels.iter().map(|l| parts(l)).collect();
    let first = split.first()?;
    if split.iter().any(|p| p.len() != first.len()) {
        return None;
    }
    let shared: Vec<&str> = (0..first.len())
        .filter(|&k| split.iter().all(|p| p[k] == first[k]))
        .map(|k| first[k].as_str())
        .collect();
    (!shared.is_empty() && shared.len() < first.len()).then(|| shared.concat())
}

/// The marks around a cell's content: last move, check, or none.
fn marks(label: &str, last: &HashSet<String>, check: &HashSet<&str>) -> (char, char) {
    if last.contains(label) {
        ('[', ']')
    } else if check.contains(label) {
        ('(', ')')
    } else {
        (' ', ' ')
    }
}

/// The cells of the last move on board `index`: its start, path and destination, and
/// where the men that moved with the picked one now stand (Gess's footprint, which moves as
/// far as its centre does), so every man the move brought is marked.
fn last_cells(last: Option<&MoveShape>, index: usize, geometry: &Geometry) -> HashSet<String> {
    let Some(shape) = last.filter(|s| s.board == index) else {
        return HashSet::new();
    };
    let mut cells: HashSet<String> = shape
        .from
        .iter()
        .chain(&shape.via)
        .chain(&shape.to)
        .cloned()
        .collect();
    let coords = |label: &str| geometry.cell_by_label(label).map(|c| geometry.coords(c));
    if let (Some((fx, fy)), Some((tx, ty))) = (
        shape.from.as_deref().and_then(coords),
        shape.to.as_deref().and_then(coords),
    ) {
        for (x, y) in shape.area.iter().filter_map(|a| coords(a)) {
            if let Some(cell) = geometry.at(x + tx - fx, y + ty - fy) {
                cells.insert(geometry.label(cell).to_string());
            }
        }
    }
    cells
}

/// The last move's shape in the labels of the board after it. A move is named in the board
/// before it; where the board is built anew for each position and grows (Chex's frame), its
/// labels move with the edge: the shift is the one that carries the most men of the board
/// before onto the same men after (none on a board that keeps its cells).
pub fn carry_shape(shape: MoveShape, before: &Scene, after: &Scene) -> MoveShape {
    let (Some(old), Some(new)) = (
        before.boards.get(shape.board),
        after.boards.get(shape.board),
    ) else {
        return shape;
    };
    let (was, is) = (old.shape.geometry(), new.shape.geometry());
    if std::ptr::eq(was, is) {
        return shape;
    }
    let coords = |label: &str| was.cell_by_label(label).map(|c| was.coords(c));
    let now: HashMap<(i32, i32), (&str, usize)> = new
        .men
        .iter()
        .filter_map(|m| {
            is.cell_by_label(&m.cell)
                .map(|c| (is.coords(c), (m.piece.as_str(), m.owner)))
        })
        .collect();
    let carried = |(dx, dy): (i32, i32)| {
        old.men
            .iter()
            .filter(|m| {
                coords(&m.cell).is_some_and(|(x, y)| {
                    now.get(&(x + dx, y + dy)) == Some(&(m.piece.as_str(), m.owner))
                })
            })
            .count()
    };
    // No shift unless another carries more men (a board that has not grown).
    let mut best = ((0, 0), carried((0, 0)));
    for dx in -2..=2 {
        for dy in -2..=2 {
            let count = carried((dx, dy));
            if count > best.1 {
                best = ((dx, dy), count);
            }
        }
    }
    let (dx, dy) = best.0;
    let carry = |label: &String| -> Option<String> {
        let (x, y) = coords(label)?;
        is.at(x + dx, y + dy).map(|c| is.label(c).to_string())
    };
    MoveShape {
        from: shape.from.as_ref().and_then(carry),
        to: shape.to.as_ref().and_then(carry),
        via: shape.via.iter().filter_map(carry).collect(),
        area: shape.area.iter().filter_map(carry).collect(),
        ..shape
    }
}

/// What a board shows in each cell, before marks: a man, `?` for fog, `.` for empty.
struct Contents {
    by_label: HashMap<String, String>,
    fog: HashSet<String>,
    width: usize,
}

impl Contents {
    fn new(board: &SceneBoard, look: &BoardLook, legend: &Legend) -> Self {
        let by_label: HashMap<String, String> = board
            .men
            .iter()
            .map(|m| (m.cell.clone(), look.man(&m.piece, m.owner, m.height)))
            .collect();
        // Wide enough for every man shown now and every symbol of the legend.
        let legend_width = legend
            .kinds
            .iter()
            .map(|k| look.man(&k.symbol, look.owners[0], None).chars().count())
            .max()
            .unwrap_or(1);
        let width = by_label
            .values()
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(1)
            .max(legend_width)
            .max(1);
        Contents {
            by_label,
            fog: board.fog.iter().cloned().collect(),
            width,
        }
    }

    /// The cell with its marks around its content, right-aligned to the width.
    fn cell(&self, label: &str, last: &HashSet<String>, check: &HashSet<&str>) -> String {
        let inner = match self.by_label.get(label) {
            Some(man) => man.as_str(),
            None if self.fog.contains(label) => "?",
            None => ".",
        };
        let (open, close) = marks(label, last, check);
        format!(
            "{:>width$}",
            format!("{open}{inner}{close}"),
            width = self.width + 2
        )
    }
}

/// Draws a square board: one line per rank, coordinates on every edge.
fn square_board(
    geometry: &Geometry,
    contents: &Contents,
    turned: bool,
    last: &HashSet<String>,
    check: &HashSet<&str>,
) -> Vec<String> {
    let cells: Vec<Cell> = geometry.cells().collect();
    let at: HashMap<(i32, i32), Cell> = cells.iter().map(|&c| (geometry.coords(c), c)).collect();
    let (min_x, max_x) = cells
        .iter()
        .map(|&c| geometry.coords(c).0)
        .fold((i32::MAX, i32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (min_y, max_y) = cells
        .iter()
        .map(|&c| geometry.coords(c).1)
        .fold((i32::MAX, i32::MIN), |(a, b), y| (a.min(y), b.max(y)));
    // Names of files and ranks: what the labels of a full line share.
    let column = |x: i32| -> Vec<&str> {
        (min_y..=max_y)
            .filter_map(|y| at.get(&(x, y)).map(|&c| geometry.label(c)))
            .collect()
    };
    let row = |y: i32| -> Vec<&str> {
        (min_x..=max_x)
            .filter_map(|x| at.get(&(x, y)).map(|&c| geometry.label(c)))
            .collect()
    };
    let file = line_names(min_x..=max_x, column);
    let rank = line_names(min_y..=max_y, row);
    // A cell its file and rank do not name (Omega's wizard cells) has its label beside it.
    let named = |x: i32, y: i32, label: &str| match (file.get(&x), rank.get(&y)) {
        (Some(f), Some(r)) => format!("{f}{r}") == label || format!("{r}{f}") == label,
        _ => false,
    };
    let xs: Vec<i32> = if turned {
        (min_x..=max_x).rev().collect()
    } else {
        (min_x..=max_x).collect()
    };
    let ys: Vec<i32> = if turned {
        (min_y..=max_y).collect()
    } else {
        (min_y..=max_y).rev().collect()
    };
    let mut sides: Vec<(String, String)> = Vec::new();
    for &y in &ys {
        let in_row: Vec<(i32, Cell)> = xs
            .iter()
            .filter_map(|&x| at.get(&(x, y)).map(|&c| (x, c)))
            .collect();
        let end_label = |end: Option<&(i32, Cell)>| {
            end.filter(|(x, c)| !named(*x, y, geometry.label(*c)))
                .map(|(_, c)| geometry.label(*c).to_string())
        };
        let left = end_label(in_row.first())
            .or_else(|| rank.get(&y).cloned())
            .unwrap_or_default();
        let right = end_label(in_row.last())
            .or_else(|| rank.get(&y).cloned())
            .unwrap_or_default();
        sides.push((left, right));
    }
    let left_width = sides.iter().map(|s| s.0.len()).max().unwrap_or(0);
    let cell_width = contents.width + 2;
    let files_line = {
        let mut line = " ".repeat(left_width + 1);
        for x in &xs {
            let name = file.get(x).map_or("", String::as_str);
            // Under the content, which is right-aligned after the opening mark.
            line.push_str(&format!("{name:>w$} ", w = cell_width - 1));
        }
        line.trim_end().to_string()
    };
    let mut lines = vec![files_line.clone()];
    for (&y, (left, right)) in ys.iter().zip(&sides) {
        let mut line = format!("{left:>left_width$} ");
        for &x in &xs {
            match at.get(&(x, y)) {
                Some(&c) => line.push_str(&contents.cell(geometry.label(c), last, check)),
                None => line.push_str(&" ".repeat(cell_width)),
            }
        }
        line.push(' ');
        line.push_str(right);
        lines.push(line.trim_end().to_string());
    }
    lines.push(files_line);
    lines
}

/// Draws a hexagonal board as flat-topped hexagons, files as columns: the files above and
/// below, each rank's number beside its outermost cells.
fn hex_board(
    geometry: &Geometry,
    contents: &Contents,
    turned: bool,
    last: &HashSet<String>,
    check: &HashSet<&str>,
) -> Vec<String> {
    let cells: Vec<Cell> = geometry.cells().collect();
    let coords: Vec<(i32, i32)> = cells.iter().map(|&c| geometry.coords(c)).collect();
    let min_x = coords.iter().map(|c| c.0).min().unwrap_or(0);
    let max_x = coords.iter().map(|c| c.0).max().unwrap_or(0);
    let min_y = coords.iter().map(|c| c.1).min().unwrap_or(0);
    let max_y = coords.iter().map(|c| c.1).max().unwrap_or(0);
    // Turned half round: the lattice point reflected through the centre.
    let place = |(x, y): (i32, i32)| {
        if turned {
            (max_x + min_x - x, max_y + min_y - y)
        } else {
            (x, y)
        }
    };
    // Files: what the labels of a column share; ranks: the rest of each label.
    let mut by_column: BTreeMap<i32, Vec<&str>> = BTreeMap::new();
    for (&c, &xy) in cells.iter().zip(&coords) {
        by_column.entry(xy.0).or_default().push(geometry.label(c));
    }
    let file: HashMap<i32, String> = by_column
        .iter()
        .filter_map(|(&x, labels)| common_part(labels).map(|f| (x, f)))
        .collect();
    let rank_of = |c: Cell, x: i32| -> String {
        let label = geometry.label(c);
        match file.get(&x) {
            Some(f) => label.replacen(f.as_str(), "", 1),
            None => label.to_string(),
        }
    };
    let content_width = contents.width + 2;
    let rank_width = cells
        .iter()
        .zip(&coords)
        .map(|(&c, &(x, _))| rank_of(c, x).len())
        .max()
        .unwrap_or(0);
    let margin = rank_width + 1;
    let step = content_width + 1;
    let width = margin + step * (max_x - min_x) as usize + content_width + 2 + margin;
    let height = (max_y - min_y) as usize + 3;
    // One line for the files above, then the cells, then the files below.
    let mut canvas = vec![vec![' '; width]; height + 2];
    let paint = |canvas: &mut Vec<Vec<char>>, line: usize, column: usize, text: &str| {
        for (i, ch) in text.chars().enumerate() {
            if let Some(slot) = canvas.get_mut(line).and_then(|l| l.get_mut(column + i)) {
                *slot = ch;
            }
        }
    };
    let mut spots: Vec<(Cell, usize, usize, i32)> = Vec::new();
    for (&c, &xy) in cells.iter().zip(&coords) {
        let (x, y) = place(xy);
        let column = margin + step * (x - min_x) as usize;
        let top = 1 + (max_y - y) as usize;
        paint(&mut canvas, top, column + 1, &"_".repeat(content_width));
        paint(&mut canvas, top + 1, column, "/");
        paint(
            &mut canvas,
            top + 1,
            column + 1,
            &contents.cell(geometry.label(c), last, check),
        );
        paint(&mut canvas, top + 1, column + content_width + 1, "\\");
        paint(
            &mut canvas,
            top + 2,
            column,
            &format!("\\{}/", "_".repeat(content_width)),
        );
        spots.push((c, column, top + 1, xy.0));
    }
    // Ranks beside the outermost cells of each rank, where the space is free.
    let mut ranks: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for &(c, column, line, x) in &spots {
        ranks.entry(rank_of(c, x)).or_default().push((column, line));
    }
    // Beside the cell's side, or where a neighbour's edge is in the way, beside its top
    // edge (so the ranks that start on a slanted edge of the board run along it).
    let free = |canvas: &Vec<Vec<char>>, line: usize, from: usize, to: usize| {
        to <= width && canvas[line][from..to].iter().all(|&ch| ch == ' ')
    };
    for (name, spots) in &ranks {
        let n = name.len();
        if let Some(&(column, line)) = spots.iter().min() {
            let places = [
                (line, column.checked_sub(n + 1)),
                (line - 1, column.checked_sub(n)),
            ];
            if let Some((line, Some(start))) = places
                .into_iter()
                .find(|&(l, s)| s.is_some_and(|s| free(&canvas, l, s.saturating_sub(1), s + n + 1)))
            {
                paint(&mut canvas, line, start, name);
            }
        }
        if let Some(&(column, line)) = spots.iter().max() {
            let beside = column + content_width + 3;
            let above = column + content_width + 2;
            let places = [(line, beside), (line - 1, above)];
            if let Some((line, start)) = places
                .into_iter()
                .find(|&(l, s)| free(&canvas, l, s - 1, s + n + 1))
            {
                paint(&mut canvas, line, start, name);
            }
        }
    }
    // Files above the highest and below the lowest cell of each column.
    for (&x, name) in &file {
        let shown_x = if turned { max_x + min_x - x } else { x };
        let column = margin + step * (shown_x - min_x) as usize + 1;
        let at = column + (content_width.saturating_sub(name.len())) / 2;
        paint(&mut canvas, 0, at, name);
        paint(&mut canvas, height + 1, at, name);
    }
    canvas
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}

/// Draws a board of linked charts (three-player chess) as a chart: one line per rank in
/// the FEN's order, each cell under its file letter, ranks on both sides, a blank line where
/// the rows pass into another chart; turned half round, the rows and files run backwards.
fn chart_board(
    geometry: &Geometry,
    contents: &Contents,
    turned: bool,
    last: &HashSet<String>,
    check: &HashSet<&str>,
) -> Vec<String> {
    let split = |label: &str| -> (String, String) {
        let p = parts(label);
        let file: String = p
            .iter()
            .filter(|s| s.chars().all(|c| c.is_ascii_alphabetic()))
            .cloned()
            .collect();
        let rank: String = p
            .iter()
            .filter(|s| !s.chars().all(|c| c.is_ascii_alphabetic()))
            .cloned()
            .collect();
        (file, rank)
    };
    let mut files: Vec<String> = geometry
        .cells()
        .map(|c| split(geometry.label(c)).0)
        .collect();
    files.sort();
    files.dedup();
    if turned {
        files.reverse();
    }
    let mut rows = geometry.rows_from_top();
    if turned {
        rows.reverse();
    }
    let rank_width = geometry
        .cells()
        .map(|c| split(geometry.label(c)).1.len())
        .max()
        .unwrap_or(0);
    let cell_width = contents.width + 2;
    let files_line = {
        let mut line = " ".repeat(rank_width + 1);
        for f in &files {
            line.push_str(&format!("{f:>w$} ", w = cell_width - 1));
        }
        line.trim_end().to_string()
    };
    let mut lines = vec![files_line.clone()];
    let mut last_columns: Option<Vec<usize>> = None;
    for row in rows {
        let row: Vec<Cell> = row.into_iter().flatten().collect();
        let Some(&first) = row.first() else {
            continue;
        };
        let placed: Vec<(usize, Cell)> = row
            .iter()
            .filter_map(|&c| {
                let (f, _) = split(geometry.label(c));
                files.iter().position(|x| *x == f).map(|i| (i, c))
            })
            .collect();
        let mut columns: Vec<usize> = placed.iter().map(|p| p.0).collect();
        columns.sort_unstable();
        if last_columns.as_ref().is_some_and(|l| *l != columns) {
            lines.push(String::new());
        }
        let mut body = vec![" ".repeat(cell_width); files.len()];
        for &(i, c) in &placed {
            body[i] = contents.cell(geometry.label(c), last, check);
        }
        let rank = split(geometry.label(first)).1;
        lines.push(format!("{rank:>rank_width$} {} {rank}", body.concat()));
        last_columns = Some(columns);
    }
    lines.push(files_line);
    lines
}

/// A player's reserve: hands, pockets, stacks (`Px2 N`), `-` when empty.
fn reserve_line(board: &SceneBoard, look: &BoardLook, names: &Look, player: usize) -> String {
    let men: Vec<String> = board
        .hands
        .iter()
        .filter(|h| h.owner == player && h.count > 0)
        .map(|h| {
            let man = look.man(&h.piece, h.owner, None);
            if h.count > 1 {
                format!("{man}x{}", h.count)
            } else {
                man
            }
        })
        .collect();
    let name = names.names.get(player).copied().unwrap_or("player");
    format!(
        "{name}'s reserve: {}",
        if men.is_empty() {
            "-".to_string()
        } else {
            men.join(" ")
        }
    )
}

/// One board as lines: the reserves of the players above it, the board, the bottom
/// player's reserve.
fn board_lines(
    index: usize,
    board: &SceneBoard,
    boards: usize,
    look: &Look,
    seat: Seat,
    last: Option<&MoveShape>,
) -> Vec<String> {
    let board_look = BoardLook::new(board, boards, look);
    let turned = board_look.turned(seat, look);
    let contents = Contents::new(board, &board_look, look.legend);
    let geometry = board.shape.geometry();
    let last = last_cells(last, index, geometry);
    let check: HashSet<&str> = board.check.iter().map(String::as_str).collect();
    let drawing = match geometry.lattice() {
        Lattice::Square => square_board(geometry, &contents, turned, &last, &check),
        Lattice::Hex => hex_board(geometry, &contents, turned, &last, &check),
        Lattice::Linked => chart_board(geometry, &contents, turned, &last, &check),
    };
    let mut lines = Vec::new();
    if boards > 1 {
        lines.push(format!("board {}", board_name(index)));
    }
    let bottom = board_look.shown_bottom(turned);
    let has_reserves = !board.hands.is_empty();
    if has_reserves {
        for &p in board_look.owners.iter().filter(|&&p| p != bottom) {
            lines.push(reserve_line(board, &board_look, look, p));
        }
    }
    lines.extend(drawing);
    if has_reserves {
        lines.push(reserve_line(board, &board_look, look, bottom));
    }
    lines
}

/// A board's name when there are several (bughouse's `A` and `B`).
pub fn board_name(index: usize) -> char {
    char::from(b'A' + (index % 26) as u8)
}

/// Puts blocks of lines side by side.
fn side_by_side(blocks: &[Vec<String>]) -> Vec<String> {
    let widths: Vec<usize> = blocks
        .iter()
        .map(|b| b.iter().map(|l| l.chars().count()).max().unwrap_or(0))
        .collect();
    let height = blocks.iter().map(Vec::len).max().unwrap_or(0);
    (0..height)
        .map(|i| {
            let mut line = String::new();
            for (b, block) in blocks.iter().enumerate() {
                let text = block.get(i).map_or("", String::as_str);
                if b + 1 < blocks.len() {
                    line.push_str(&format!("{text:<w$}     ", w = widths[b]));
                } else {
                    line.push_str(text);
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The scene's boards as text for `seat`, the last move marked.
pub fn draw(scene: &Scene, look: &Look, seat: Seat, last: Option<&MoveShape>) -> String {
    let blocks: Vec<Vec<String>> = scene
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| board_lines(i, b, scene.boards.len(), look, seat, last))
        .collect();
    let width: usize = blocks
        .iter()
        .map(|b| b.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 5)
        .sum();
    let lines = if blocks.len() > 1 && width <= SIDE_BY_SIDE_WIDTH {
        side_by_side(&blocks)
    } else {
        blocks.join(&String::new())
    };
    let mut out = lines.join("\n");
    out.push('\n');
    if let Some(note) = &scene.note {
        out.push_str(note);
        out.push('\n');
    }
    out
}

/// What tells the owners' men apart on the scene's boards, in words (each board's once).
pub fn owners_key(scene: &Scene, look: &Look) -> String {
    let mut keys: Vec<String> = Vec::new();
    for board in &scene.boards {
        let key = BoardLook::new(board, scene.boards.len(), look).key(look);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.join("; ")
}

/// The legend as text: each symbol as every owner's men show it, its name and moves.
pub fn legend_text(scene: &Scene, look: &Look) -> String {
    let Some(board) = scene.boards.first() else {
        return String::new();
    };
    let board_look = BoardLook::new(board, scene.boards.len(), look);
    let rows: Vec<(String, &str, &str)> = look
        .legend
        .kinds
        .iter()
        .map(|k| {
            let mut shown: Vec<String> = board_look
                .owners
                .iter()
                .map(|&p| board_look.man(&k.symbol, p, None))
                .collect();
            shown.dedup();
            (shown.join(" "), k.name.as_str(), k.moves.as_str())
        })
        .collect();
    let symbol_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let name_width = rows
        .iter()
        .map(|r| r.1.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    let mut out = format!(
        "pieces ({} style; {}):\n",
        look.legend.style.name(),
        owners_key(scene, look)
    );
    for (symbols, name, moves) in rows {
        out.push_str(&format!(
            "  {symbols:<symbol_width$}  {name:<name_width$}  {moves}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_parts_and_their_common_part() {
        assert_eq!(parts("a10"), ["a", "10"]);
        assert_eq!(parts("9a"), ["9", "a"]);
        assert_eq!(parts("+A'"), ["+", "A", "'"]);
        assert_eq!(common_part(&["a1", "b1", "c1"]).as_deref(), Some("1"));
        assert_eq!(common_part(&["9i", "9h", "9g"]).as_deref(), Some("9"));
        assert_eq!(common_part(&["a1", "b2"]), None);
        // A line of one label names nothing.
        assert_eq!(common_part(&["a1"]), None);
    }

    #[test]
    fn heights_in_braces_are_written_after_the_letter() {
        assert_eq!(split_height("P{2}"), ("P", Some(2)));
        assert_eq!(split_height("K{10}"), ("K", Some(10)));
        assert_eq!(split_height("R"), ("R", None));
    }
}
