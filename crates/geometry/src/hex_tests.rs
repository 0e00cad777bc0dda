//! Gliński's board (`docs/rules/hexchess.md`, section Board) against the geometry: every
//! fact is recomputed here from the rules file's own formulas, cell by cell.

use crate::{Cell, Geometry, GeometryBuilder, HEX_DIAGONAL, HEX_ORTHOGONAL, Lattice, Vector};

const FILES: &str = "abcdefghikl";
const GREY: u8 = 2;
const DARK: u8 = 0;
const LIGHT: u8 = 1;

fn board() -> Geometry {
    GeometryBuilder::hexagon(6).build().unwrap()
}

/// The rules file's (q, r, h) of a label: file index, 1-based rank, h = 2r + |q − 5|.
fn qrh(label: &str) -> (i32, i32, i32) {
    let q = FILES.find(&label[..1]).unwrap() as i32;
    let r: i32 = label[1..].parse().unwrap();
    (q, r, 2 * r + (q - 5).abs())
}

/// The label of (q, h) by the rules file's formula, if that cell exists.
fn label_at(q: i32, h: i32) -> Option<String> {
    if !(0..11).contains(&q) || (h - (q - 5).abs()) % 2 != 0 {
        return None;
    }
    let r = (h - (q - 5).abs()) / 2;
    (1..=11 - (q - 5).abs())
        .contains(&r)
        .then(|| format!("{}{r}", &FILES[q as usize..q as usize + 1]))
}

/// The rules file's colour: h mod 3 = 0 grey, 1 dark, 2 light.
fn colour_of(label: &str) -> u8 {
    match qrh(label).2 % 3 {
        0 => GREY,
        1 => DARK,
        _ => LIGHT,
    }
}

fn cell(g: &Geometry, label: &str) -> Cell {
    g.cell_by_label(label)
        .unwrap_or_else(|| panic!("no cell {label}"))
}

fn labels(g: &Geometry, cells: &[Cell]) -> Vec<String> {
    cells.iter().map(|&c| g.label(c).to_string()).collect()
}

#[test]
fn ninety_one_cells_in_three_colours() {
    let g = board();
    assert_eq!(g.lattice(), Lattice::Hex);
    assert_eq!(g.len(), 91);
    let count = |colour| g.cells().filter(|&c| g.colour(c) == colour).count();
    assert_eq!((count(DARK), count(LIGHT), count(GREY)), (30, 30, 31));
    assert_eq!(g.colour(cell(&g, "f6")), GREY, "the centre");
    for corner in ["a1", "f11", "l1"] {
        assert_eq!(g.colour(cell(&g, corner)), DARK, "{corner}");
    }
    for corner in ["a6", "f1", "l6"] {
        assert_eq!(g.colour(cell(&g, corner)), LIGHT, "{corner}");
    }
    // White's bishops: f1 light, f2 dark, f3 grey.
    let bishops: Vec<u8> = ["f1", "f2", "f3"]
        .iter()
        .map(|l| g.colour(cell(&g, l)))
        .collect();
    assert_eq!(bishops, [LIGHT, DARK, GREY]);
    assert_eq!(g.colour_names(), ["dark", "light", "grey"]);
}

#[test]
fn files_ranks_and_labels_are_glinskis() {
    let g = board();
    let lengths: Vec<usize> = FILES
        .chars()
        .map(|f| g.cells().filter(|&c| g.label(c).starts_with(f)).count())
        .collect();
    assert_eq!(lengths, [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]);
    assert!(g.cells().all(|c| !g.label(c).contains('j')));
    // Every label of the rules file's formula exists, and only those.
    let mut expected = Vec::new();
    for (q, f) in FILES.chars().enumerate() {
        for r in 1..=11 - (q as i32 - 5).abs() {
            expected.push(format!("{f}{r}"));
        }
    }
    let mut got: Vec<String> = g.cells().map(|c| g.label(c).to_string()).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    // Lattice coordinates are (q, h − 2).
    for c in g.cells() {
        let (q, _, h) = qrh(g.label(c));
        assert_eq!(g.coords(c), (q, h - 2), "{}", g.label(c));
    }
    // Rows for FEN: ranks 11 down to 1, each in file order.
    let rows = g.rows_from_top();
    let widths: Vec<usize> = rows.iter().map(Vec::len).collect();
    assert_eq!(widths, [1, 3, 5, 7, 9, 11, 11, 11, 11, 11, 11]);
    let rank = |i: usize| -> Vec<String> {
        rows[i]
            .iter()
            .map(|c| g.label(c.expect("no walls on the hexagon")).to_string())
            .collect()
    };
    assert_eq!(rank(0), ["f11"]);
    assert_eq!(rank(1), ["e10", "f10", "g10"]);
    assert_eq!(
        rank(4),
        ["b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"]
    );
    assert_eq!(
        rank(10),
        [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "k1", "l1"
        ]
    );
    // Numbering follows (height, file), so f1 is the first cell and f11 the last.
    assert_eq!(g.label(Cell(0)), "f1");
    assert_eq!(g.label(Cell(90)), "f11");
}

#[test]
fn colours_and_neighbours_of_every_cell_follow_the_rules_file() {
    let g = board();
    let orthogonal = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    let diagonal = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)];
    for c in g.cells() {
        let label = g.label(c).to_string();
        assert_eq!(g.colour(c), colour_of(&label), "colour of {label}");
        let (q, _, h) = qrh(&label);
        for (dq, dh) in orthogonal.into_iter().chain(diagonal) {
            let expected = label_at(q + dq, h + dh);
            let got = g
                .offset(c, Vector::new(dq as i16, dh as i16))
                .map(|n| g.label(n).to_string());
            assert_eq!(got, expected, "{label} + ({dq}, {dh})");
        }
        // Around a cell the orthogonal neighbours alternate between the other two colours
        // (wherever two consecutive ones exist), the diagonal ones share its colour, and
        // between a cell and a diagonal neighbour lie one cell of each other colour.
        let ring: Vec<Option<Cell>> = HEX_ORTHOGONAL.iter().map(|&v| g.offset(c, v)).collect();
        for i in 0..6 {
            let (a, b) = (ring[i], ring[(i + 1) % 6]);
            for n in [a, b].into_iter().flatten() {
                assert_ne!(g.colour(n), g.colour(c), "{label}");
            }
            if let (Some(a), Some(b)) = (a, b) {
                assert_ne!(g.colour(a), g.colour(b), "{label}: neighbours alternate");
            }
        }
        for (i, &d) in HEX_DIAGONAL.iter().enumerate() {
            let Some(n) = g.offset(c, d) else { continue };
            assert_eq!(g.colour(n), g.colour(c), "{label} diagonal");
            // Diagonal i lies between orthogonal directions i and i + 1.
            let (o1, o2) = (HEX_ORTHOGONAL[i], HEX_ORTHOGONAL[(i + 1) % 6]);
            assert_eq!(Vector::new(o1.dx + o2.dx, o1.dy + o2.dy), d);
            let between: Vec<u8> = [o1, o2]
                .iter()
                .map(|&o| g.colour(g.offset(c, o).expect("both cells of a diagonal exist")))
                .collect();
            assert!(
                between.contains(&((g.colour(c) + 1) % 3))
                    && between.contains(&((g.colour(c) + 2) % 3)),
                "{label}: the two cells passed by a diagonal step"
            );
        }
    }
    // Each edge, read from its dark corner, repeats dark, grey, light.
    let edges = [
        "a1 a2 a3 a4 a5 a6",
        "f11 e10 d9 c8 b7 a6",
        "f11 g10 h9 i8 k7 l6",
        "l1 l2 l3 l4 l5 l6",
        "l1 k1 i1 h1 g1 f1",
        "a1 b1 c1 d1 e1 f1",
    ];
    for edge in edges {
        let colours: Vec<u8> = edge.split(' ').map(|l| g.colour(cell(&g, l))).collect();
        assert_eq!(colours, [DARK, GREY, LIGHT, DARK, GREY, LIGHT], "{edge}");
    }
    // A king's step from a1 reaches 5 cells.
    let a1 = cell(&g, "a1");
    let mut around: Vec<String> = HEX_ORTHOGONAL
        .iter()
        .chain(&HEX_DIAGONAL)
        .filter_map(|&v| g.offset(a1, v))
        .map(|n| g.label(n).to_string())
        .collect();
    around.sort();
    assert_eq!(around, ["a2", "b1", "b2", "b3", "c2"]);
}

#[test]
fn every_line_is_straight_monotone_and_reversible() {
    let g = board();
    assert_eq!(g.line_directions().len(), 12);
    let mut walked = 0;
    for c in g.cells() {
        for &v in g.line_directions() {
            let rays = g.rays(c, v, None);
            assert_eq!(rays.len(), 1, "one ray per direction on a hexagon");
            let ray = &rays[0];
            // Straight: each cell one step of v from the previous one.
            let mut previous = c;
            for &next in ray {
                let (x0, y0) = g.coords(previous);
                let (x1, y1) = g.coords(next);
                assert_eq!((x1 - x0, y1 - y0), (v.dx as i32, v.dy as i32));
                previous = next;
            }
            // Maximal: the next step leaves the board.
            assert_eq!(g.offset(previous, v), None);
            // Monotone in cell numbering (one bit scan finds the nearest blocker).
            let mut indices: Vec<u16> = std::iter::once(c)
                .chain(ray.iter().copied())
                .map(|c| c.0)
                .collect();
            let ascending = indices.windows(2).all(|w| w[0] < w[1]);
            indices.reverse();
            let descending_ok = indices.windows(2).all(|w| w[0] < w[1]);
            assert!(ascending || descending_ok, "{} along {v:?}", g.label(c));
            // Reversible: walking back from the far end retraces the line to the start.
            if let Some(&end) = ray.last() {
                let back = &g.rays(end, v.reversed(), None)[0];
                let mut expected: Vec<Cell> = ray[..ray.len() - 1].iter().rev().copied().collect();
                expected.push(c);
                assert_eq!(back[..expected.len()], expected[..]);
                assert_eq!(g.between(c, end).unwrap(), ray[..ray.len() - 1]);
                walked += 1;
            }
            // A ray of at most 2 steps is its prefix.
            let short = &g.rays(c, v, Some(2))[0];
            assert_eq!(short[..], ray[..ray.len().min(2)]);
        }
    }
    assert!(walked > 800);
    let f1 = cell(&g, "f1");
    let f11 = cell(&g, "f11");
    assert_eq!(labels(&g, &g.between(f1, f11).unwrap()).len(), 9);
    // The (2, 0) diagonal from a1 runs straight across at the same height.
    let a1 = cell(&g, "a1");
    let across = labels(&g, &g.rays(a1, Vector::new(2, 0), None)[0]);
    assert_eq!(across, ["c2", "e3", "g3", "i2", "l1"]);
    // Not on a line: a knight's leap apart.
    assert_eq!(g.between(cell(&g, "f6"), cell(&g, "g8")), None);
}

#[test]
fn rook_and_bishop_lines_from_the_centre() {
    let g = board();
    let f6 = cell(&g, "f6");
    let mut rook: Vec<String> = HEX_ORTHOGONAL
        .iter()
        .flat_map(|&v| labels(&g, &g.rays(f6, v, None)[0]))
        .collect();
    rook.sort();
    let mut expected: Vec<&str> = "f7 f8 f9 f10 f11 f5 f4 f3 f2 f1 g6 h6 i6 k6 l6 e6 d6 c6 b6 a6 g5 h4 i3 k2 l1 e5 d4 c3 b2 a1"
        .split(' ')
        .collect();
    expected.sort();
    assert_eq!(rook, expected);
    let mut bishop: Vec<String> = HEX_DIAGONAL
        .iter()
        .flat_map(|&v| labels(&g, &g.rays(f6, v, None)[0]))
        .collect();
    bishop.sort();
    let mut expected: Vec<&str> = "h5 k4 d5 b4 g7 h8 e7 d8 g4 h2 e4 d2".split(' ').collect();
    expected.sort();
    assert_eq!(bishop, expected);
}

#[test]
fn hex_drawing_has_the_shape_of_the_board() {
    let g = board();
    let text = g.drawing(|c| g.label(c).to_string());
    let lines: Vec<&str> = text.lines().collect();
    // 21 half-cell heights (y = 0..=20) take 23 lines, then the file letters.
    assert_eq!(lines.len(), 24);
    assert!(lines.iter().all(|l| l.chars().count() <= 45));
    // The top: f11's upper edge alone, centred over file f (columns 21-23).
    assert_eq!(lines[0], format!("{}___", " ".repeat(21)));
    assert_eq!(lines[1], format!("{}___/f11\\___", " ".repeat(17)));
    // The bottom: only f1's lower edge is on the last board line.
    assert_eq!(lines[22], format!("{}\\___/", " ".repeat(20)));
    assert_eq!(lines[23], "  a   b   c   d   e   f   g   h   i   k   l");
    // Every cell's content once, in its own place: column 4·file + 1, line 21 − y.
    for c in g.cells() {
        let label = g.label(c);
        assert_eq!(
            text.matches(&format!("/{label:<3}\\")).count(),
            1,
            "{label}"
        );
        let (x, y) = g.coords(c);
        let line: Vec<char> = lines[(21 - y) as usize].chars().collect();
        let at: String = line[4 * x as usize..4 * x as usize + 5].iter().collect();
        assert_eq!(at, format!("/{label:<3}\\"));
    }
    // Blank cells: the outline is left-right symmetric, as the board is.
    let blank = g.drawing(|_| String::new());
    for line in blank.lines().take(23) {
        let padded: Vec<char> = format!("{line:<45}").chars().collect();
        let mirrored: String = padded
            .iter()
            .rev()
            .map(|&c| match c {
                '/' => '\\',
                '\\' => '/',
                c => c,
            })
            .collect();
        assert_eq!(mirrored.trim_end(), line, "not symmetric");
    }
    // A single character is centred.
    let pieces = g.drawing(|c| {
        if g.label(c) == "g1" {
            "K".into()
        } else {
            String::new()
        }
    });
    assert!(pieces.contains("/ K \\"));
}

#[test]
fn square_drawing_is_a_grid() {
    let g = GeometryBuilder::rectangle(8, 8).build().unwrap();
    let text = g.drawing(|c| {
        if g.label(c) == "e1" {
            "K".into()
        } else {
            ".".into()
        }
    });
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0], "8  .  .  .  .  .  .  .  .");
    assert_eq!(lines[7], "1  .  .  .  .  K  .  .  .");
    assert_eq!(lines[8], "   a  b  c  d  e  f  g  h");
}

/// The numbers of one cell's `"polygon":[[x,y],...]` in a JSON export.
fn polygon(json: &str, label: &str) -> Vec<(f64, f64)> {
    let start = json
        .find(&format!("\"label\":\"{label}\""))
        .unwrap_or_else(|| panic!("{label} missing"));
    let rest = &json[start..];
    let p = rest.find("\"polygon\":[").unwrap() + "\"polygon\":[".len();
    let end = rest[p..].find("]]").unwrap();
    rest[p..p + end]
        .split("],[")
        .map(|pair| {
            let pair = pair.trim_matches(['[', ']']);
            let (x, y) = pair.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn json_export_lists_cells_with_polygons_colours_and_labels() {
    let g = GeometryBuilder::hexagon(6)
        .region("promotion", vec![vec![(0, 15)], vec![(0, 5)]])
        .build()
        .unwrap();
    let json = g.to_json();
    assert!(json.starts_with("{\"lattice\":\"hex\","));
    assert!(json.contains("\"colours\":[\"dark\",\"light\",\"grey\"]"));
    assert_eq!(json.matches("\"label\":").count(), 91);
    assert_eq!(json.matches("\"polygon\":").count(), 91);
    assert!(json.contains("{\"index\":0,\"label\":\"f1\",\"x\":5,\"y\":0,\"colour\":\"light\","));
    assert!(json.contains("\"regions\":[{\"name\":\"promotion\",\"cells\":[[\"a6\"],[\"a1\"]]}]"));
    assert_eq!(json.matches('{').count(), json.matches('}').count());
    assert_eq!(json.matches('[').count(), json.matches(']').count());
    // Hexagons of side 1: six corners at distance 1 from the centre; neighbours share an
    // edge (two corners), diagonal neighbours only touch nothing.
    let shared = |a: &str, b: &str| {
        let (pa, pb) = (polygon(&json, a), polygon(&json, b));
        pa.iter()
            .filter(|p| {
                pb.iter()
                    .any(|q| (p.0 - q.0).abs() < 1e-3 && (p.1 - q.1).abs() < 1e-3)
            })
            .count()
    };
    for (a, b) in [("f6", "f7"), ("f6", "g6"), ("f6", "e5"), ("a1", "b1")] {
        assert_eq!(shared(a, b), 2, "{a} {b}");
    }
    assert_eq!(
        shared("f6", "g7"),
        0,
        "diagonal neighbours only meet at a distance"
    );
    let f11 = polygon(&json, "f11");
    assert_eq!(f11.len(), 6);
    // f11 is at the top: its upper corners at y = 0.
    assert!(f11.iter().any(|p| p.1.abs() < 1e-9));
    let square = GeometryBuilder::rectangle(2, 2).build().unwrap().to_json();
    assert!(square.contains(
        "{\"index\":0,\"label\":\"a1\",\"x\":0,\"y\":0,\"colour\":\"dark\",\"centre\":[0.5,1.5],\"polygon\":[[0,1],[1,1],[1,2],[0,2]]}"
    ));
}
