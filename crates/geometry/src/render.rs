//! Pictures of a board for people and programs: a text drawing for terminals and a JSON
//! description (cell polygons, colours, labels) for graphical front ends.

use crate::geometry::{Cell, Geometry, Lattice};
use std::fmt::Write;

/// Width of a cell's content in a text drawing.
const CONTENT_WIDTH: usize = 3;

/// `text` fitted into [`CONTENT_WIDTH`] columns: longer text is cut, a single character is
/// centred, anything else is left-aligned.
fn fit(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_control()).take(3).collect();
    let mut out = vec![' '; CONTENT_WIDTH];
    let start = usize::from(chars.len() == 1);
    for (i, c) in chars.into_iter().enumerate() {
        out[start + i] = c;
    }
    out
}

/// The letters at the start of a label (`f` of `f11`): the file name in both notations.
fn file_part(label: &str) -> &str {
    let end = label
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(label.len());
    &label[..end]
}

/// The rest of a label after its letters (`11` of `f11`).
fn rank_part(label: &str) -> &str {
    &label[file_part(label).len()..]
}

/// A number for JSON: at most four decimals, no trailing zeros.
fn number(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// √3 / 2: the height of a flat-topped hexagon of side 1 is √3, and the doubled `y`
/// coordinate counts half cells.
const HALF_SQRT3: f64 = 0.866_025_403_784_438_6;

impl Geometry {
    /// The smallest and largest lattice coordinates of the cells: `(min_x, max_x, min_y,
    /// max_y)`.
    fn extent(&self) -> (i32, i32, i32, i32) {
        let mut e = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for cell in self.cells() {
            let (x, y) = self.coords(cell);
            e = (e.0.min(x), e.1.max(x), e.2.min(y), e.3.max(y));
        }
        e
    }

    /// Names of the colours, indexed by [`Geometry::colour`].
    pub fn colour_names(&self) -> &'static [&'static str] {
        match self.lattice() {
            Lattice::Square | Lattice::Linked => &["dark", "light"],
            Lattice::Hex => &["dark", "light", "grey"],
        }
    }

    /// A text drawing of the board for a terminal, the first player at the bottom, with
    /// `content(cell)` (up to three characters: a piece letter, a label) inside each cell and
    /// the file letters underneath.
    ///
    /// Hexagonal boards are drawn as flat-topped hexagons, so files are columns and the
    /// neighbouring files sit half a cell up or down:
    ///
    /// ```text
    ///  ___     ___
    /// / b \___/ d \
    /// \___/ c \___/
    ///     \___/
    /// ```
    ///
    /// Each cell spans three lines (top edge, content, bottom edge, the bottom edge shared
    /// with the cell below) and five columns (the slanted sides shared with the next file), so
    /// a board `2n + 1` half cells high and `m` files wide takes `2n + 3` lines plus the
    /// letters, `4m + 1` columns. Square boards are a grid of three-column cells with the
    /// rank numbers on the left.
    ///
    /// Linked boards (three-player chess) cannot be flattened without tearing a seam, so they
    /// are drawn as a chart of their labels: one line per FEN row (rank), each cell in the
    /// column of its file letter, the rank number on the left and on the right, the file
    /// letters underneath, and a blank line where the rows pass from one half-board to the
    /// next. Read with the coordinates, every cell is where its label says.
    pub fn drawing(&self, content: impl Fn(Cell) -> String) -> String {
        match self.lattice() {
            Lattice::Hex => self.hex_drawing(content),
            Lattice::Square => self.square_drawing(content),
            Lattice::Linked => self.chart_drawing(content),
        }
    }

    fn hex_drawing(&self, content: impl Fn(Cell) -> String) -> String {
        let (min_x, max_x, min_y, max_y) = self.extent();
        let width = 4 * (max_x - min_x) as usize + 5;
        let height = (max_y - min_y) as usize + 3;
        let mut canvas = vec![vec![' '; width]; height + 1];
        let mut paint = |line: usize, column: usize, text: &[char]| {
            for (i, &c) in text.iter().enumerate() {
                canvas[line][column + i] = c;
            }
        };
        let mut files: Vec<(usize, String)> = Vec::new();
        for cell in self.cells() {
            let (x, y) = self.coords(cell);
            let column = 4 * (x - min_x) as usize;
            let top = (max_y - y) as usize;
            let inside = fit(&content(cell));
            paint(top, column + 1, &['_'; 3]);
            paint(top + 1, column, &['/']);
            paint(top + 1, column + 1, &inside);
            paint(top + 1, column + 4, &['\\']);
            paint(top + 2, column, &['\\', '_', '_', '_', '/']);
            if !files.iter().any(|(c, _)| *c == column) {
                files.push((column, file_part(self.label(cell)).to_string()));
            }
        }
        for (column, name) in files {
            let name: Vec<char> = name.chars().collect();
            let at = (column + 2).saturating_sub((name.len().saturating_sub(1)) / 2);
            for (i, c) in name.into_iter().enumerate() {
                if let Some(slot) = canvas[height].get_mut(at + i) {
                    *slot = c;
                }
            }
        }
        let mut out = String::new();
        for line in canvas {
            let text: String = line.into_iter().collect();
            out.push_str(text.trim_end());
            out.push('\n');
        }
        out
    }

    fn chart_drawing(&self, content: impl Fn(Cell) -> String) -> String {
        let mut files: Vec<String> = self
            .cells()
            .map(|c| file_part(self.label(c)).to_string())
            .collect();
        files.sort();
        files.dedup();
        let rank_width = self
            .cells()
            .map(|c| rank_part(self.label(c)).len())
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        let mut last_files: Option<Vec<usize>> = None;
        for row in self.rows_from_top() {
            let cells: Vec<Cell> = row.into_iter().flatten().collect();
            let Some(&first) = cells.first() else {
                continue;
            };
            let columns: Vec<usize> = cells
                .iter()
                .filter_map(|&c| files.iter().position(|f| f == file_part(self.label(c))))
                .collect();
            // A new set of files: the rows have passed into another half-board.
            if last_files.as_ref().is_some_and(|l| *l != columns) {
                out.push('\n');
            }
            let mut line = vec![' '; 4 * files.len()];
            for (&cell, &column) in cells.iter().zip(&columns) {
                let fitted = fit(&content(cell));
                for (i, ch) in fitted.into_iter().enumerate() {
                    line[4 * column + i] = ch;
                }
            }
            let rank = rank_part(self.label(first));
            let body: String = line.into_iter().collect();
            out.push_str(&format!("{rank:>rank_width$} {body}{rank}\n"));
            last_files = Some(columns);
        }
        let mut letters = " ".repeat(rank_width + 1);
        for f in &files {
            letters.push_str(&format!("{:<4}", format!(" {f}")));
        }
        out.push_str(letters.trim_end());
        out.push('\n');
        out
    }

    fn square_drawing(&self, content: impl Fn(Cell) -> String) -> String {
        let rows = self.rows_from_top();
        let rank_width = self
            .cells()
            .map(|c| rank_part(self.label(c)).len())
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        let mut files: Vec<String> = Vec::new();
        for row in &rows {
            let rank = row
                .iter()
                .flatten()
                .next()
                .map_or("", |&c| rank_part(self.label(c)));
            let mut line = format!("{rank:>rank_width$} ");
            for (i, point) in row.iter().enumerate() {
                let text: String = match point {
                    Some(cell) => {
                        if files.len() <= i {
                            files.resize(i + 1, String::new());
                        }
                        if files[i].is_empty() {
                            files[i] = file_part(self.label(*cell)).to_string();
                        }
                        fit(&content(*cell)).into_iter().collect()
                    }
                    None => "   ".to_string(),
                };
                line.push_str(&text);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let mut letters = " ".repeat(rank_width + 1);
        for name in files {
            letters.push_str(&fit(&name).into_iter().collect::<String>());
        }
        out.push_str(letters.trim_end());
        out.push('\n');
        out
    }

    /// The board as JSON for graphical front ends: the lattice, the size of the picture, the
    /// colour names, every cell in index order with its label, lattice coordinates, colour
    /// name, centre and polygon corners, and the regions by player as lists of labels.
    ///
    /// Picture coordinates have `x` to the right and `y` downwards (as in SVG and canvas), the
    /// first player at the bottom; a square cell is 1 wide, a hexagonal cell has sides of 1
    /// (flat-topped, 2 wide and √3 high). Corners go round the cell, starting at the right
    /// (hexagons) or top-left (squares). A linked board (`"lattice":"linked"`, three-player
    /// chess) is a regular hexagon 16 wide whose cells are quadrilaterals, corners from the
    /// cell's local back-left corner round by its back-right one; its `x`, `y` only identify
    /// cells.
    pub fn to_json(&self) -> String {
        let (min_x, max_x, min_y, max_y) = self.extent();
        let hex = self.lattice() == Lattice::Hex;
        let links = self.linked();
        let (width, height) = if let Some(l) = links {
            l.picture
        } else if hex {
            (
                1.5 * f64::from(max_x - min_x) + 2.0,
                HALF_SQRT3 * f64::from(max_y - min_y + 2),
            )
        } else {
            (f64::from(max_x - min_x + 1), f64::from(max_y - min_y + 1))
        };
        let names = self.colour_names();
        let mut out = String::new();
        let _ = write!(
            out,
            "{{\"lattice\":{},\"width\":{},\"height\":{},\"colours\":[{}],\"cells\":[",
            json_string(match self.lattice() {
                Lattice::Hex => "hex",
                Lattice::Square => "square",
                Lattice::Linked => "linked",
            }),
            number(width),
            number(height),
            names
                .iter()
                .map(|n| json_string(n))
                .collect::<Vec<_>>()
                .join(",")
        );
        for (i, cell) in self.cells().enumerate() {
            let (x, y) = self.coords(cell);
            let (centre, corners): ((f64, f64), Vec<(f64, f64)>) = if let Some(l) = links {
                // The average of the corners: inside, since every cell is convex.
                let corners = l.polygons[cell.index()].clone();
                let n = corners.len() as f64;
                let cx = corners.iter().map(|p| p.0).sum::<f64>() / n;
                let cy = corners.iter().map(|p| p.1).sum::<f64>() / n;
                ((cx, cy), corners)
            } else if hex {
                let cx = 1.5 * f64::from(x - min_x) + 1.0;
                let cy = HALF_SQRT3 * f64::from(max_y - y + 1);
                let h = HALF_SQRT3;
                (
                    (cx, cy),
                    vec![
                        (cx + 1.0, cy),
                        (cx + 0.5, cy + h),
                        (cx - 0.5, cy + h),
                        (cx - 1.0, cy),
                        (cx - 0.5, cy - h),
                        (cx + 0.5, cy - h),
                    ],
                )
            } else {
                let left = f64::from(x - min_x);
                let top = f64::from(max_y - y);
                (
                    (left + 0.5, top + 0.5),
                    vec![
                        (left, top),
                        (left + 1.0, top),
                        (left + 1.0, top + 1.0),
                        (left, top + 1.0),
                    ],
                )
            };
            let colour = names
                .get(self.colour(cell) as usize)
                .map_or_else(|| self.colour(cell).to_string(), |n| n.to_string());
            let polygon: Vec<String> = corners
                .iter()
                .map(|&(px, py)| format!("[{},{}]", number(px), number(py)))
                .collect();
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"index\":{},\"label\":{},\"x\":{x},\"y\":{y},\"colour\":{},\"centre\":[{},{}],\"polygon\":[{}]}}",
                cell.0,
                json_string(self.label(cell)),
                json_string(&colour),
                number(centre.0),
                number(centre.1),
                polygon.join(",")
            );
        }
        out.push_str("],\"regions\":[");
        for (i, region) in self.regions().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let players: Vec<String> = region
                .cells
                .iter()
                .map(|cells| {
                    let labels: Vec<String> =
                        cells.iter().map(|&c| json_string(self.label(c))).collect();
                    format!("[{}]", labels.join(","))
                })
                .collect();
            let _ = write!(
                out,
                "{{\"name\":{},\"cells\":[{}]}}",
                json_string(&region.name),
                players.join(",")
            );
        }
        out.push(']');
        if self.lattice() == Lattice::Square {
            self.markings_json(&mut out, min_x, max_y);
        }
        out.push('}');
        out
    }

    /// The [`Markings`](crate::Markings) of a square board in picture coordinates, as the
    /// fields `points`, `lines` (`[x1, y1, x2, y2]` each), `rivers` (`box` `[x, y, width,
    /// height]` and `words`), `water` (labels) and `stars` (`[x, y]`), each only when there
    /// is something to draw.
    fn markings_json(&self, out: &mut String, min_x: i32, max_y: i32) {
        let marks = self.markings();
        let centre = |(x, y): (i32, i32)| (f64::from(x - min_x) + 0.5, f64::from(max_y - y) + 0.5);
        let mut lines: Vec<[f64; 4]> = Vec::new();
        let mut line = |a: (i32, i32), b: (i32, i32)| {
            let (p, q) = (centre(a), centre(b));
            lines.push([p.0, p.1, q.0, q.1]);
        };
        if marks.on_points {
            let (_, max_x, min_y, _) = self.extent();
            let river = |y: i32| marks.rivers.iter().any(|(r, _)| *r == y);
            // Each line as long as it runs, broken where the board or a river breaks it.
            for y in min_y..=max_y {
                let mut start = None;
                for x in min_x..=max_x + 1 {
                    match (self.at(x, y).is_some(), start) {
                        (true, None) => start = Some(x),
                        (false, Some(s)) => {
                            if x - 1 > s {
                                line((s, y), (x - 1, y));
                            }
                            start = None;
                        }
                        _ => {}
                    }
                }
            }
            for x in min_x..=max_x {
                let edge = x == min_x || x == max_x;
                let mut start = None;
                for y in min_y..=max_y + 1 {
                    let here = self.at(x, y).is_some();
                    match (here, start) {
                        (true, None) => start = Some(y),
                        (true, Some(s)) if !edge && river(y - 1) => {
                            if y - 1 > s {
                                line((x, s), (x, y - 1));
                            }
                            start = Some(y);
                        }
                        (false, Some(s)) => {
                            if y - 1 > s {
                                line((x, s), (x, y - 1));
                            }
                            start = None;
                        }
                        _ => {}
                    }
                }
            }
        }
        for &(a, b) in &marks.lines {
            line(a, b);
        }
        if marks.on_points {
            out.push_str(",\"points\":true");
        }
        if !lines.is_empty() {
            let items: Vec<String> = lines
                .iter()
                .map(|l| {
                    let n: Vec<String> = l.iter().map(|&v| number(v)).collect();
                    format!("[{}]", n.join(","))
                })
                .collect();
            let _ = write!(out, ",\"lines\":[{}]", items.join(","));
        }
        if !marks.rivers.is_empty() {
            let (_, max_x, ..) = self.extent();
            let items: Vec<String> = marks
                .rivers
                .iter()
                .map(|(y, words)| {
                    let (left, top) = centre((min_x, y + 1));
                    let words: Vec<String> = words.iter().map(|w| json_string(w)).collect();
                    format!(
                        "{{\"box\":[{},{},{},1],\"words\":[{}]}}",
                        number(left),
                        number(top),
                        max_x - min_x,
                        words.join(",")
                    )
                })
                .collect();
            let _ = write!(out, ",\"rivers\":[{}]", items.join(","));
        }
        let water: Vec<String> = marks
            .water
            .iter()
            .filter_map(|&(x, y)| self.at(x, y))
            .map(|c| json_string(self.label(c)))
            .collect();
        if !water.is_empty() {
            let _ = write!(out, ",\"water\":[{}]", water.join(","));
        }
        if !marks.stars.is_empty() {
            let items: Vec<String> = marks
                .stars
                .iter()
                .map(|&(x, y)| {
                    let (cx, cy) = centre((x, y));
                    format!("[{},{}]", number(cx + 0.5), number(cy - 0.5))
                })
                .collect();
            let _ = write!(out, ",\"stars\":[{}]", items.join(","));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::GeometryBuilder;

    /// The value of JSON field `name` (an array or a word), as text.
    fn field<'a>(json: &'a str, name: &str) -> Option<&'a str> {
        let key = format!("\"{name}\":");
        let rest = &json[json.find(&key)? + key.len()..];
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '[' | '{' => depth += 1,
                ']' | '}' if depth == 0 => return Some(&rest[..i]),
                ']' | '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&rest[..=i]);
                    }
                }
                ',' if depth == 0 => return Some(&rest[..i]),
                _ => {}
            }
        }
        Some(rest)
    }

    #[test]
    fn a_board_on_points_draws_its_lines_broken_by_the_river() {
        let g = GeometryBuilder::rectangle(9, 10)
            .on_points()
            .river_between(4, &["left", "right"])
            .lines(&[((3, 0), (5, 2)), ((5, 0), (3, 2))])
            .build()
            .unwrap();
        let json = g.to_json();
        assert_eq!(field(&json, "points"), Some("true"));
        // 10 ranks, the 2 edge files whole, 7 inner files in two halves, 2 diagonals.
        let lines = field(&json, "lines").unwrap();
        assert_eq!(lines.matches('[').count() - 1, 10 + 2 + 14 + 2, "{lines}");
        // The a-file runs from the bottom point (y 9.5) to the top one (0.5) unbroken.
        assert!(lines.contains("[0.5,9.5,0.5,0.5]"), "{lines}");
        // The e-file stops at the river's banks: ranks 1-5 and 6-10.
        assert!(lines.contains("[4.5,9.5,4.5,5.5]"), "{lines}");
        assert!(lines.contains("[4.5,4.5,4.5,0.5]"), "{lines}");
        assert!(
            lines.contains("[3.5,9.5,5.5,7.5]"),
            "a palace diagonal: {lines}"
        );
        let rivers = field(&json, "rivers").unwrap();
        assert!(rivers.contains("\"box\":[0.5,4.5,8,1]"), "{rivers}");
        assert!(rivers.contains("[\"left\",\"right\"]"), "{rivers}");
    }

    #[test]
    fn water_and_stars_are_drawn_where_they_are_given_and_plain_boards_have_neither() {
        let g = GeometryBuilder::rectangle(7, 7)
            .water(&[(0, 3), (6, 3)])
            .stars(&[(2, 2)])
            .build()
            .unwrap();
        let json = g.to_json();
        assert_eq!(field(&json, "water"), Some("[\"a4\",\"g4\"]"));
        assert_eq!(field(&json, "stars"), Some("[[3,4]]"));
        assert!(field(&json, "points").is_none() && field(&json, "lines").is_none());
        let plain = GeometryBuilder::rectangle(8, 8).build().unwrap().to_json();
        for name in ["points", "lines", "rivers", "water", "stars"] {
            assert!(field(&plain, name).is_none(), "{name} in a plain board");
        }
    }

    #[test]
    fn markings_off_the_board_are_refused() {
        let built = GeometryBuilder::rectangle(3, 3).water(&[(5, 5)]).build();
        assert!(built.is_err());
    }
}
