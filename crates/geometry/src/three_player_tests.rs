//! Three-player chess's board (`docs/rules/threeplayer.md`, section Board) against the
//! geometry: lines, neighbours, colours and the centre are recomputed here from the rules
//! file's own tables (local coordinates, file and rank lines, half-boards and strips), not
//! from the geometry's seams.

use crate::{Cell, Geometry, GeometryBuilder, Lattice, Vector};
use std::collections::BTreeSet;

/// The rules file's local coordinates: per player (White, Red, Black) the global files of
/// local a..h and the global ranks of local ranks 1..4.
const LOCAL: [(&str, [u32; 4]); 3] = [
    ("ABCDEFGH", [1, 2, 3, 4]),
    ("HGFEIJKL", [12, 11, 10, 9]),
    ("LKJIDCBA", [8, 7, 6, 5]),
];

fn board() -> Geometry {
    GeometryBuilder::three_player().build().unwrap()
}

fn label(file: char, rank: u32) -> String {
    format!("{file}{rank}")
}

/// Every cell's label, from the local tables.
fn all_labels() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (files, ranks) in LOCAL {
        for f in files.chars() {
            for &r in &ranks {
                out.insert(label(f, r));
            }
        }
    }
    out
}

/// The rules file's file lines (12) and rank lines (12), in order.
fn lines() -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let mut files = Vec::new();
    for f in "ABCD".chars() {
        files.push((1..=8).map(|r| label(f, r)).collect());
    }
    for f in "EFGH".chars() {
        files.push(
            [1, 2, 3, 4, 9, 10, 11, 12]
                .iter()
                .map(|&r| label(f, r))
                .collect(),
        );
    }
    for f in "IJKL".chars() {
        files.push(
            [8, 7, 6, 5, 9, 10, 11, 12]
                .iter()
                .map(|&r| label(f, r))
                .collect(),
        );
    }
    let mut ranks = Vec::new();
    for r in 1..=12 {
        let order = match r {
            1..=4 => "ABCDEFGH",
            5..=8 => "LKJIDCBA",
            _ => "HGFEIJKL",
        };
        ranks.push(order.chars().map(|f| label(f, r)).collect());
    }
    (files, ranks)
}

/// Orthogonal neighbours: consecutive on a file line or a rank line.
fn spec_orthogonal(of: &str) -> BTreeSet<String> {
    let (files, ranks) = lines();
    let mut out = BTreeSet::new();
    for line in files.iter().chain(&ranks) {
        if let Some(i) = line.iter().position(|c| c == of) {
            if i > 0 {
                out.insert(line[i - 1].clone());
            }
            if i + 1 < line.len() {
                out.insert(line[i + 1].clone());
            }
        }
    }
    out
}

/// The ordinary chessboards of the rules file: the three half-boards (columns in local file
/// order, rows local ranks) and the three strips (files A-D with ranks 1-8, E-H with 1-4 then
/// 9-12, I-L with 8-5 then 9-12), each as a grid of labels `grid[row][column]`.
fn chessboards() -> Vec<Vec<Vec<String>>> {
    let mut boards = Vec::new();
    for (files, ranks) in LOCAL {
        boards.push(
            ranks
                .iter()
                .map(|&r| files.chars().map(|f| label(f, r)).collect())
                .collect(),
        );
    }
    let strips: [(&str, [u32; 8]); 3] = [
        ("ABCD", [1, 2, 3, 4, 5, 6, 7, 8]),
        ("EFGH", [1, 2, 3, 4, 9, 10, 11, 12]),
        ("IJKL", [8, 7, 6, 5, 9, 10, 11, 12]),
    ];
    for (files, ranks) in strips {
        boards.push(
            ranks
                .iter()
                .map(|&r| files.chars().map(|f| label(f, r)).collect())
                .collect(),
        );
    }
    boards
}

/// Position of a label in a grid.
fn find(grid: &[Vec<String>], of: &str) -> Option<(i32, i32)> {
    grid.iter().enumerate().find_map(|(r, row)| {
        row.iter()
            .position(|c| c == of)
            .map(|c| (r as i32, c as i32))
    })
}

/// The centre's diagonal pairs (rules file, "Diagonal neighbours").
const CENTRE_DIAGONALS: [(&str, &str); 6] = [
    ("D4", "E9"),
    ("D4", "I5"),
    ("E9", "I5"),
    ("E4", "I9"),
    ("E4", "D5"),
    ("I9", "D5"),
];

/// Diagonal neighbours: on a half-board or a strip, or through the centre.
fn spec_diagonal(of: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for grid in chessboards() {
        if let Some((r, c)) = find(&grid, of) {
            for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let (nr, nc) = (r + dr, c + dc);
                if nr >= 0 && nc >= 0 && (nr as usize) < grid.len() && (nc as usize) < grid[0].len()
                {
                    out.insert(grid[nr as usize][nc as usize].clone());
                }
            }
        }
    }
    for (a, b) in CENTRE_DIAGONALS {
        if of == a {
            out.insert(b.to_string());
        }
        if of == b {
            out.insert(a.to_string());
        }
    }
    out
}

fn cell(g: &Geometry, l: &str) -> Cell {
    g.cell_by_label(l).unwrap_or_else(|| panic!("no cell {l}"))
}

fn names(g: &Geometry, cells: impl IntoIterator<Item = Cell>) -> BTreeSet<String> {
    cells.into_iter().map(|c| g.label(c).to_string()).collect()
}

const ORTHOGONAL: [Vector; 4] = [
    Vector::new(1, 0),
    Vector::new(0, 1),
    Vector::new(-1, 0),
    Vector::new(0, -1),
];
const DIAGONAL: [Vector; 4] = [
    Vector::new(1, 1),
    Vector::new(-1, 1),
    Vector::new(-1, -1),
    Vector::new(1, -1),
];

/// The cells one step along `dirs` from `c`, every branch.
fn steps(g: &Geometry, c: Cell, dirs: &[Vector]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for &v in dirs {
        for ray in g.rays(c, v, Some(1)) {
            out.extend(names(g, ray));
        }
    }
    out
}

#[test]
fn ninety_six_cells_with_the_rules_files_labels_and_colours() {
    let g = board();
    assert_eq!(g.lattice(), Lattice::Linked);
    assert_eq!(g.len(), 96);
    assert_eq!(g.players(), 3);
    assert_eq!(names(&g, g.cells()), all_labels());
    // Dark (colour 0) when local file number + local rank is even.
    for (files, ranks) in LOCAL {
        for (fi, f) in files.chars().enumerate() {
            for (ri, &r) in ranks.iter().enumerate() {
                let dark = (fi + 1 + ri + 1) % 2 == 0;
                let c = cell(&g, &label(f, r));
                assert_eq!(g.colour(c) == 0, dark, "{f}{r}");
            }
        }
    }
    let dark = |l: &str| g.colour(cell(&g, l)) == 0;
    // Local a1 dark, local d1 light, for every player.
    for l in ["A1", "H12", "L8"] {
        assert!(dark(l), "{l}");
    }
    for l in ["D1", "E12", "I8"] {
        assert!(!dark(l), "{l}");
    }
    // The rosette alternates.
    for l in ["D4", "E9", "I5"] {
        assert!(dark(l), "{l}");
    }
    for l in ["E4", "I9", "D5"] {
        assert!(!dark(l), "{l}");
    }
    assert_eq!(g.cells().filter(|&c| g.colour(c) == 0).count(), 48);
    assert_eq!(g.colour_names(), ["dark", "light"]);
}

#[test]
fn every_cell_has_the_rules_files_orthogonal_and_diagonal_neighbours() {
    let g = board();
    for c in g.cells() {
        let l = g.label(c).to_string();
        assert_eq!(
            steps(&g, c, &ORTHOGONAL),
            spec_orthogonal(&l),
            "orthogonal of {l}"
        );
        assert_eq!(
            steps(&g, c, &DIAGONAL),
            spec_diagonal(&l),
            "diagonal of {l}"
        );
        // Orthogonal neighbours never share a colour; diagonal ones always do.
        for n in spec_orthogonal(&l) {
            assert_ne!(g.colour(c), g.colour(cell(&g, &n)), "{l}-{n}");
        }
        for n in spec_diagonal(&l) {
            assert_eq!(g.colour(c), g.colour(cell(&g, &n)), "{l}-{n}");
        }
    }
    // The rules file's example.
    let d4 = cell(&g, "D4");
    let mut all = steps(&g, d4, &ORTHOGONAL);
    all.extend(steps(&g, d4, &DIAGONAL));
    let expected: BTreeSet<String> = "C3 C4 C5 D3 D5 E3 E4 E9 I5"
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!(all, expected);
}

#[test]
fn file_and_rank_lines_are_the_rules_files_and_run_both_ways() {
    let g = board();
    let (files, ranks) = lines();
    // Each cell lies on exactly one file line and one rank line.
    for l in all_labels() {
        assert_eq!(files.iter().filter(|f| f.contains(&l)).count(), 1, "{l}");
        assert_eq!(ranks.iter().filter(|r| r.contains(&l)).count(), 1, "{l}");
    }
    // From every cell of a line, the rays along it reach the rest of the line in order, in
    // both directions.
    for line in files.iter().chain(&ranks) {
        assert_eq!(line.len(), 8);
        for i in 0..line.len() {
            let from = cell(&g, &line[i]);
            let rays: Vec<Vec<String>> = ORTHOGONAL
                .iter()
                .flat_map(|&v| g.rays(from, v, None))
                .map(|r| r.iter().map(|&c| g.label(c).to_string()).collect())
                .collect();
            let ahead: Vec<String> = line[i + 1..].to_vec();
            let behind: Vec<String> = line[..i].iter().rev().cloned().collect();
            for part in [ahead, behind] {
                if !part.is_empty() {
                    assert!(
                        rays.contains(&part),
                        "{} towards {part:?}: {rays:?}",
                        line[i]
                    );
                }
            }
        }
    }
}

/// The long diagonals through the centre, each running into the centre.
const FAMILIES: [[[&str; 4]; 3]; 2] = [
    [
        ["A1", "B2", "C3", "D4"],
        ["H12", "G11", "F10", "E9"],
        ["L8", "K7", "J6", "I5"],
    ],
    [
        ["H1", "G2", "F3", "E4"],
        ["L12", "K11", "J10", "I9"],
        ["A8", "B7", "C6", "D5"],
    ],
];

#[test]
fn diagonals_fork_at_the_centre_exactly_as_specified() {
    let g = board();
    for family in FAMILIES {
        for (i, into) in family.iter().enumerate() {
            let start = cell(&g, into[0]);
            let mut rays: Vec<Vec<String>> = DIAGONAL
                .iter()
                .flat_map(|&v| g.rays(start, v, None))
                .map(|r| r.iter().map(|&c| g.label(c).to_string()).collect())
                .filter(|r: &Vec<String>| r.first().map(String::as_str) == Some(into[1]))
                .collect();
            rays.sort();
            // The line goes in, then on into either of the other two half-lines.
            let mut expected: Vec<Vec<String>> = (0..3)
                .filter(|&j| j != i)
                .map(|j| {
                    into[1..]
                        .iter()
                        .chain(family[j].iter().rev())
                        .map(|s| s.to_string())
                        .collect()
                })
                .collect();
            expected.sort();
            assert_eq!(rays, expected, "from {}", into[0]);
        }
    }
    // No diagonal passes between opposite rosette cells.
    for (a, b) in [("D4", "I9"), ("E4", "I5"), ("E9", "D5")] {
        for (x, y) in [(a, b), (b, a)] {
            let from = cell(&g, x);
            for &v in &DIAGONAL {
                for ray in g.rays(from, v, None) {
                    assert!(
                        !ray.contains(&cell(&g, y)),
                        "{x} reaches {y} diagonally: {:?}",
                        names(&g, ray)
                    );
                }
            }
        }
    }
}

/// The corners (indices into `b`'s polygon) that cells `a` and `b` share in the picture.
fn shared_corners(polys: &[(String, Vec<(f64, f64)>)], a: &str, b: &str) -> Vec<usize> {
    let poly = |l: &str| &polys.iter().find(|(n, _)| n == l).unwrap().1;
    let (pa, pb) = (poly(a), poly(b));
    (0..pb.len())
        .filter(|&i| {
            pa.iter()
                .any(|q| (pb[i].0 - q.0).abs() < 1e-3 && (pb[i].1 - q.1).abs() < 1e-3)
        })
        .collect()
}

/// The rules file's straightness, on the picture: a line enters `b` from `a` through an edge
/// (orthogonal) or a corner point (diagonal) and leaves into `c` through the opposite edge or
/// the opposite corner point.
fn straight(polys: &[(String, Vec<(f64, f64)>)], a: &str, b: &str, c: &str) -> bool {
    let (enter, leave) = (shared_corners(polys, a, b), shared_corners(polys, c, b));
    match (enter.as_slice(), leave.as_slice()) {
        ([i], [j]) => (i + 2) % 4 == *j,
        ([_, _], [_, _]) => enter.iter().all(|i| !leave.contains(i)),
        _ => false,
    }
}

#[test]
fn every_line_is_straight_and_reversible() {
    let g = board();
    let polys = polygons(&g.to_json());
    let mut rays_seen = 0;
    for from in g.cells() {
        for &v in ORTHOGONAL.iter().chain(&DIAGONAL) {
            for ray in g.rays(from, v, None) {
                rays_seen += 1;
                let mut path = vec![from];
                path.extend(&ray);
                let labels: Vec<&str> = path.iter().map(|&c| g.label(c)).collect();
                for w in labels.windows(2) {
                    let kind = if v.dx == 0 || v.dy == 0 {
                        spec_orthogonal(w[0])
                    } else {
                        spec_diagonal(w[0])
                    };
                    assert!(
                        kind.contains(w[1]),
                        "{w:?} are no neighbours (ray {labels:?})"
                    );
                }
                for w in labels.windows(3) {
                    assert!(
                        straight(&polys, w[0], w[1], w[2]),
                        "{w:?} bends (ray {labels:?})"
                    );
                }
                // Walking back from any cell of the ray retraces it to the start.
                for k in 1..path.len() {
                    let back: Vec<Cell> = path[..k].iter().rev().copied().collect();
                    let found = ORTHOGONAL.iter().chain(&DIAGONAL).any(|&w| {
                        g.rays(path[k], w, None)
                            .iter()
                            .any(|r| r.len() >= back.len() && r[..back.len()] == back[..])
                    });
                    assert!(found, "no way back from {} along {labels:?}", labels[k]);
                }
            }
        }
    }
    assert!(rays_seen > 96 * 4);
    // A line also never stops while it could go straight on: from the last cell of every
    // ray no neighbour continues it.
    for from in g.cells() {
        for &v in ORTHOGONAL.iter().chain(&DIAGONAL) {
            for ray in g.rays(from, v, None) {
                let mut path = vec![from];
                path.extend(&ray);
                if path.len() < 2 {
                    continue;
                }
                let (a, b) = (g.label(path[path.len() - 2]), g.label(path[path.len() - 1]));
                let kind = if v.dx == 0 || v.dy == 0 {
                    spec_orthogonal(b)
                } else {
                    spec_diagonal(b)
                };
                for c in kind {
                    assert!(!straight(&polys, a, b, &c), "{a} {b} could go on to {c}");
                }
            }
        }
    }
}

/// The knight of the rules file: a diagonal neighbour of an orthogonal neighbour (or the
/// reverse), neither the start nor one of its neighbours.
fn spec_knight(of: &str) -> BTreeSet<String> {
    let mut reach = BTreeSet::new();
    for o in spec_orthogonal(of) {
        reach.extend(spec_diagonal(&o));
    }
    for d in spec_diagonal(of) {
        reach.extend(spec_orthogonal(&d));
    }
    reach.remove(of);
    for n in spec_orthogonal(of).iter().chain(&spec_diagonal(of)) {
        reach.remove(n);
    }
    reach
}

#[test]
fn knight_leaps_are_the_rules_files_knight_everywhere() {
    let g = board();
    let shapes = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    for c in g.cells() {
        let mut ours = BTreeSet::new();
        for (dx, dy) in shapes {
            for (to, path) in g.linked_leaps(c, Vector::new(dx, dy), false) {
                assert!(path.is_empty());
                ours.insert(g.label(to).to_string());
            }
        }
        assert_eq!(ours, spec_knight(g.label(c)), "knight from {}", g.label(c));
        // Never the start cell's colour.
        for n in &ours {
            assert_ne!(g.colour(cell(&g, n)), g.colour(c));
        }
    }
    let d4: BTreeSet<String> = "B3 B5 C2 C6 E2 F3 E10 F9 I6 J5 I9"
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!(spec_knight("D4"), d4);
    // Symmetric.
    for a in all_labels() {
        for b in spec_knight(&a) {
            assert!(spec_knight(&b).contains(&a), "{a} -> {b}");
        }
    }
}

#[test]
fn pawn_steps_beside_the_cell_ahead() {
    let g = board();
    // White's frame at D4 and E4: forward (0, 1). The capture is the diagonal neighbour that
    // is an orthogonal neighbour of the forward cell (rules file, "Pawn captures near the
    // centre"): the rank-first way round the corner.
    let capture = |from: &str, forward: i16| -> BTreeSet<String> {
        let c = cell(&g, from);
        [-1, 1]
            .iter()
            .flat_map(|&dx| g.linked_leaps(c, Vector::new(dx, forward), true))
            .map(|(to, _)| g.label(to).to_string())
            .collect()
    };
    let set = |s: &str| -> BTreeSet<String> { s.split(' ').map(str::to_string).collect() };
    assert_eq!(capture("D4", 1), set("C5 I5"));
    assert_eq!(capture("E4", 1), set("F9 I9"));
    // Black's pawn on D5 (Black's own half, his frame): forward D4, captures C4 or E4.
    assert_eq!(capture("D5", 1), set("C4 E4"));
    // Red's pawn on I9: forward I5, captures J5 or D5.
    assert_eq!(capture("I9", 1), set("J5 D5"));
    // Everywhere, the rank-first diagonal is an orthogonal neighbour of the cell ahead.
    for c in g.cells() {
        for forward in [1, -1] {
            let ahead: Vec<Cell> = g.rays(c, Vector::new(0, forward), Some(1)).concat();
            for dx in [-1, 1] {
                for (to, _) in g.linked_leaps(c, Vector::new(dx, forward), true) {
                    let l = g.label(to).to_string();
                    assert!(spec_diagonal(g.label(c)).contains(&l));
                    assert!(
                        ahead
                            .iter()
                            .any(|&a| spec_orthogonal(g.label(a)).contains(&l))
                    );
                }
            }
        }
    }
    // The double step passes the middle cell.
    let e2 = cell(&g, "E2");
    assert_eq!(
        g.linked_leaps(e2, Vector::new(0, 2), false),
        vec![(cell(&g, "E4"), vec![cell(&g, "E3")])]
    );
}

#[test]
fn between_follows_lines_across_seams_and_the_centre() {
    let g = board();
    let c = |l| cell(&g, l);
    assert_eq!(g.between(c("E1"), c("E12")).unwrap().len(), 6);
    assert_eq!(
        g.between(c("A1"), c("F10")).unwrap(),
        vec![c("B2"), c("C3"), c("D4"), c("E9")]
    );
    assert_eq!(g.between(c("D4"), c("I9")), None);
    assert_eq!(g.between(c("E1"), c("H1")).unwrap(), vec![c("F1"), c("G1")]);
}

#[test]
fn fen_rows_run_from_rank_twelve_in_alphabetical_file_order() {
    let g = board();
    let rows = g.rows_from_top();
    assert_eq!(rows.len(), 12);
    let row = |i: usize| -> Vec<String> {
        rows[i]
            .iter()
            .map(|c| g.label(c.expect("only cells")).to_string())
            .collect()
    };
    assert_eq!(
        row(0),
        ["E12", "F12", "G12", "H12", "I12", "J12", "K12", "L12"]
    );
    assert_eq!(row(4), ["A8", "B8", "C8", "D8", "I8", "J8", "K8", "L8"]);
    assert_eq!(row(11), ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]);
}

/// The corners of each cell's polygon in the JSON export, by label.
fn polygons(json: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut out = Vec::new();
    for part in json.split("{\"index\":").skip(1) {
        let l = part.split("\"label\":\"").nth(1).unwrap();
        let l = l[..l.find('"').unwrap()].to_string();
        let poly = part.split("\"polygon\":[").nth(1).unwrap();
        let poly = &poly[..poly.find("]]").unwrap() + 1];
        let corners = poly
            .split("],[")
            .map(|p| {
                let p = p.trim_matches(|c| c == '[' || c == ']');
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        out.push((l, corners));
    }
    out
}

#[test]
fn json_export_draws_the_hexagon_with_neighbours_sharing_edges() {
    let g = board();
    let json = g.to_json();
    assert!(
        json.starts_with("{\"lattice\":\"linked\",\"width\":16,"),
        "{}",
        &json[..60]
    );
    let cells = polygons(&json);
    assert_eq!(cells.len(), 96);
    let poly = |l: &str| &cells.iter().find(|(n, _)| n == l).unwrap().1;
    let shared = |a: &str, b: &str| {
        poly(a)
            .iter()
            .filter(|p| {
                poly(b)
                    .iter()
                    .any(|q| (p.0 - q.0).abs() < 1e-3 && (p.1 - q.1).abs() < 1e-3)
            })
            .count()
    };
    for (l, corners) in &cells {
        assert_eq!(corners.len(), 4);
        for n in spec_orthogonal(l) {
            assert_eq!(shared(l, &n), 2, "{l} and {n} share an edge");
        }
        for n in spec_diagonal(l) {
            assert_eq!(shared(l, &n), 1, "{l} and {n} share a corner");
        }
    }
    // The six rosette cells meet at the centre of the picture, (8, 4√3).
    let centre = (8.0, 4.0 * 3f64.sqrt());
    for l in ["D4", "E4", "E9", "I9", "I5", "D5"] {
        assert!(
            poly(l)
                .iter()
                .any(|p| (p.0 - centre.0).abs() < 1e-3 && (p.1 - centre.1).abs() < 1e-3),
            "{l}"
        );
    }
    // White's back rank along the bottom, Red's upper right, Black's upper left.
    let middle = |l: &str| {
        let p = poly(l);
        (
            p.iter().map(|c| c.0).sum::<f64>() / 4.0,
            p.iter().map(|c| c.1).sum::<f64>() / 4.0,
        )
    };
    assert!(middle("E1").1 > 12.0);
    assert!(middle("I12").0 > 8.0 && middle("I12").1 < 6.0);
    assert!(middle("D8").0 < 8.0 && middle("D8").1 < 6.0);
}

#[test]
fn chart_drawing_puts_every_cell_under_its_file_letter() {
    let g = board();
    let text = g.drawing(|c| g.label(c).to_string());
    let lines: Vec<&str> = text.lines().collect();
    // 12 ranks, two blank lines between the halves, the file letters.
    assert_eq!(lines.len(), 15, "{text}");
    let letters = lines[14];
    for l in all_labels() {
        let file = &l[..1];
        let column = letters.find(file).unwrap();
        let rank = &l[1..];
        let line = lines
            .iter()
            .find(|line| line.trim_start().starts_with(&format!("{rank} ")))
            .unwrap();
        assert_eq!(
            line.get(column - 1..column - 1 + l.len()),
            Some(l.as_str()),
            "{l} in {line:?}"
        );
    }
}
