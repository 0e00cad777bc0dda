//! Every scenario of `docs/rules/hexchess.md`, in its order, as a named test, and the
//! rules around them (options, draws, the FEN format).

use crate::common;

use chaturanga_rules::geometry::{Cell, HEX_DIAGONAL, HEX_ORTHOGONAL};
use chaturanga_rules::{Position, Reason, RuleOptions, Ruleset, Status};
use chaturanga_variants::hexchess::{HexChessPosition, START_FEN};
use common::{game_after, legal_texts, options, position};

/// A FEN from men written as letter + cell (`Rf6 Kb1 kk7`), side to move `side`.
fn fen(men: &str, side: &str) -> String {
    let start = HexChessPosition::start(&RuleOptions::default()).unwrap();
    let g = &start.spec().geometry;
    let placed: Vec<(char, &str)> = men
        .split_whitespace()
        .map(|m| (m.chars().next().unwrap(), &m[1..]))
        .collect();
    for (_, label) in &placed {
        assert!(g.cell_by_label(label).is_some(), "no cell {label}");
    }
    let mut rows = Vec::new();
    for row in g.rows_from_top() {
        let (mut text, mut run) = (String::new(), 0);
        for cell in row.into_iter().flatten() {
            match placed.iter().find(|(_, l)| *l == g.label(cell)) {
                Some((letter, _)) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(*letter);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        rows.push(text);
    }
    format!("{} {side} - 0 1", rows.join("/"))
}

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<HexChessPosition>(fen))
}

/// The destinations of the moves starting on `from`, sorted.
fn from_cell(moves: &[String], from: &str) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .filter_map(|m| m.strip_prefix(from))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

fn sorted(cells: &str) -> Vec<String> {
    let mut v: Vec<String> = cells.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn scenario_01_board_facts() {
    let start = position::<HexChessPosition>(START_FEN);
    let g = &start.spec().geometry;
    assert_eq!(g.len(), 91);
    let names = g.colour_names();
    let colour = |label: &str| names[g.colour(g.cell_by_label(label).unwrap()) as usize];
    let count = |name: &str| {
        g.cells()
            .filter(|&c| names[g.colour(c) as usize] == name)
            .count()
    };
    assert_eq!((count("dark"), count("light"), count("grey")), (30, 30, 31));
    assert_eq!(colour("f6"), "grey");
    for corner in ["a1", "f11", "l1"] {
        assert_eq!(colour(corner), "dark", "{corner}");
    }
    for corner in ["a6", "f1", "l6"] {
        assert_eq!(colour(corner), "light", "{corner}");
    }
    // White's three bishops, one per colour.
    let bishop = start.spec().kind_by_symbol("B").unwrap();
    let mut white_bishops: Vec<(String, &str)> = (start.pieces_of(0)
        & start.pieces_of_kind(bishop))
    .iter()
    .map(|c: Cell| (g.label(c).to_string(), colour(g.label(c))))
    .collect();
    white_bishops.sort();
    assert_eq!(
        white_bishops,
        [
            ("f1".to_string(), "light"),
            ("f2".to_string(), "dark"),
            ("f3".to_string(), "grey")
        ]
    );
}

#[test]
fn scenario_02_start_position() {
    let moves = legal(START_FEN);
    assert_eq!(moves.len(), 51);
    let black = START_FEN.replace(" w ", " b ");
    assert_eq!(legal(&black).len(), 51, "Black would also have 51");
    assert_eq!(from_cell(&moves, "f5"), ["f6"]);
    assert_eq!(from_cell(&moves, "g1"), ["g2", "h2"]);
}

#[test]
fn scenario_03_rook_lines() {
    let moves = legal(&fen("Rf6 Kb1 kk7", "w"));
    let rook = from_cell(&moves, "f6");
    assert_eq!(rook.len(), 30);
    assert_eq!(
        rook,
        sorted(
            "f7 f8 f9 f10 f11 f5 f4 f3 f2 f1 g6 h6 i6 k6 l6 e6 d6 c6 b6 a6 \
             g5 h4 i3 k2 l1 e5 d4 c3 b2 a1"
        )
    );
}

#[test]
fn scenario_04_bishop_lines() {
    let p = position::<HexChessPosition>(&fen("Bf6 Kb1 kk7", "w"));
    let bishop = from_cell(&legal_texts(&p), "f6");
    assert_eq!(bishop, sorted("h5 k4 d5 b4 g7 h8 e7 d8 g4 h2 e4 d2"));
    let g = &p.spec().geometry;
    for cell in &bishop {
        assert_eq!(
            g.colour(g.cell_by_label(cell).unwrap()),
            2,
            "{cell} is grey"
        );
    }
}

#[test]
fn scenario_05_knight() {
    let p = position::<HexChessPosition>(&fen("Nf6 Kb1 kk7", "w"));
    let knight = from_cell(&legal_texts(&p), "f6");
    assert_eq!(knight, sorted("c4 c5 d3 d7 e3 e8 g3 g8 h3 h7 i4 i5"));
    // The target is never the colour of the start cell.
    let g = &p.spec().geometry;
    let f6 = g.cell_by_label("f6").unwrap();
    for cell in &knight {
        assert_ne!(g.colour(g.cell_by_label(cell).unwrap()), g.colour(f6));
    }
}

#[test]
fn scenario_06_king() {
    let p = position::<HexChessPosition>(&fen("Ke4 kg10 pl6", "w"));
    let king = from_cell(&legal_texts(&p), "e4");
    assert_eq!(king, sorted("e5 e3 f5 f4 d4 d3 g4 c3 f6 f3 d5 d2"));
    // Six orthogonal and six diagonal steps.
    let g = &p.spec().geometry;
    let e4 = g.cell_by_label("e4").unwrap();
    let steps = |dirs: &[chaturanga_rules::geometry::Vector]| -> Vec<String> {
        let mut v: Vec<String> = dirs
            .iter()
            .filter_map(|&d| g.offset(e4, d))
            .map(|c| g.label(c).to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(steps(&HEX_ORTHOGONAL), sorted("e5 e3 f5 f4 d4 d3"));
    assert_eq!(steps(&HEX_DIAGONAL), sorted("g4 c3 f6 f3 d5 d2"));
    let corner = legal(&fen("Ka1 kg10 pl6", "w"));
    assert_eq!(from_cell(&corner, "a1"), sorted("a2 b1 b2 b3 c2"));
}

#[test]
fn scenario_07_pawn_moves_and_captures() {
    // Alone, the unmoved e4 pawn advances one or two cells.
    let alone = legal(&fen("Pe4 Ka1 kk7", "w"));
    assert_eq!(from_cell(&alone, "e4"), ["e5", "e6"]);
    // With black men on every neighbour but the cell ahead, it captures only on d4 and f5.
    let crowd = "Pe4 Ka1 kk7 pd4 pf5 pe3 pd3 pf4 pg4 pc3 pf6 pf3 pd5 pd2";
    assert_eq!(
        from_cell(&legal(&fen(crowd, "w")), "e4"),
        ["d4", "e5", "e6", "f5"]
    );
    // The black c7 pawn: c6 or c5, captures only on b6 and d7.
    let alone = legal(&fen("pc7 Ka1 kk7", "b"));
    assert_eq!(from_cell(&alone, "c7"), ["c5", "c6"]);
    let crowd = "pc7 Ka1 kk7 Nb6 Nd7 Nb7 Nd8 Nc8 Ne8 Na6 Nd9 Nd6 Nb5";
    assert_eq!(
        from_cell(&legal(&fen(crowd, "b")), "c7"),
        ["b6", "c5", "c6", "d7"]
    );
}

#[test]
fn scenario_08_double_step_after_an_inward_capture() {
    let start = fen("Pe4 nf5 Kg1 kg10", "w");
    let pawn_after = |opts: &[&str]| {
        let game = game_after::<HexChessPosition>(Some(&start), opts, &["e4f5", "g10g9"]);
        from_cell(&legal_texts(game.position()), "f5")
    };
    // By default the pawn on White's starting cell f5 has moved: one step only.
    assert_eq!(pawn_after(&[]), ["f6"]);
    assert_eq!(pawn_after(&["double-step=own-start"]), ["f6"]);
    // Gliński's rule: any starting cell of its side allows the double step.
    assert_eq!(pawn_after(&["double-step=any-start-cell"]), ["f6", "f7"]);
    // Outward, onto d4 (no starting cell): one step in both settings.
    let outward = fen("Pe4 nd4 Kg1 kg10", "w");
    for opts in [&[][..], &["double-step=any-start-cell"][..]] {
        let game = game_after::<HexChessPosition>(Some(&outward), opts, &["e4d4", "g10g9"]);
        assert_eq!(from_cell(&legal_texts(game.position()), "d4"), ["d5"]);
    }
    // Decision 7: the FEN cannot say the pawn has moved, so read back it may double-step.
    let game = game_after::<HexChessPosition>(Some(&start), &[], &["e4f5", "g10g9"]);
    let reread = position::<HexChessPosition>(&game.position().fen());
    assert_eq!(from_cell(&legal_texts(&reread), "f5"), ["f6", "f7"]);
    // During the game the knowledge survives other moves.
    let later =
        game_after::<HexChessPosition>(Some(&start), &[], &["e4f5", "g10g9", "g1g2", "g9g10"]);
    assert_eq!(from_cell(&legal_texts(later.position()), "f5"), ["f6"]);
}

#[test]
fn scenario_09_en_passant() {
    let start = "1/2k/5/7/1p7/3P7/11/11/11/11/6K4 b - 0 1";
    let game = game_after::<HexChessPosition>(Some(start), &[], &["c7c5"]);
    assert_eq!(
        game.position().fen(),
        "1/2k/5/7/9/3P7/2p8/11/11/11/6K4 w c6 0 2"
    );
    assert!(legal_texts(game.position()).contains(&"d6c6".to_string()));
    let taken = game_after::<HexChessPosition>(Some(start), &[], &["c7c5", "d6c6"]);
    assert_eq!(
        taken.position().fen(),
        "1/2k/5/7/9/2P8/11/11/11/11/6K4 b - 0 2"
    );
    // A white pawn on b5 could do the same.
    let b5 = "1/2k/5/7/1p7/11/1P9/11/11/11/6K4 b - 0 1";
    let game = game_after::<HexChessPosition>(Some(b5), &[], &["c7c5", "b5c6"]);
    assert_eq!(
        game.position().fen(),
        "1/2k/5/7/9/2P8/11/11/11/11/6K4 b - 0 2"
    );
    // Only on the very next move.
    let late = game_after::<HexChessPosition>(Some(start), &[], &["c7c5", "g1g2", "g10g9"]);
    assert!(!legal_texts(late.position()).contains(&"d6c6".to_string()));
    // A single step creates no target.
    let single = game_after::<HexChessPosition>(Some(start), &[], &["c7c6"]);
    assert_eq!(single.position().en_passant_targets().count(), 0);
}

#[test]
fn scenario_10_promotion() {
    let moves = legal(&fen("Pc7 Kg1 kg10", "w"));
    assert_eq!(from_cell(&moves, "c7"), ["c8b", "c8n", "c8q", "c8r"]);
    let p = position::<HexChessPosition>(&fen("Pc7 Kg1 kg10", "w"));
    assert!(p.parse_move("c7c8").is_err(), "promotion is compulsory");
    let game = game_after::<HexChessPosition>(Some(&fen("Pc7 Kg1 kg10", "w")), &[], &["c7c8n"]);
    assert_eq!(game.position().fen(), fen("Nc8 Kg1 kg10", "b"));
    // b6 promotes on b7, the last cell of the b-file.
    assert_eq!(
        from_cell(&legal(&fen("Pb6 Kg1 kg10", "w")), "b6"),
        ["b7b", "b7n", "b7q", "b7r"]
    );
    // Black promotes on rank 1: e2-e1.
    assert_eq!(
        from_cell(&legal(&fen("pe2 Ka6 kg10", "b")), "e2"),
        ["e1b", "e1n", "e1q", "e1r"]
    );
    // There is no limit: a fourth bishop, a second one on the dark c8, is fine.
    let many = fen("Pc7 Bf1 Bf2 Bf3 Kg1 kg10", "w");
    let game = game_after::<HexChessPosition>(Some(&many), &[], &["c7c8b"]);
    assert_eq!(game.status(), Status::Ongoing { claimable: vec![] });
    // A pawn already on its last cell is an impossible setup.
    assert!(
        HexChessPosition::from_fen_with(
            &options::<HexChessPosition>(&[]),
            &fen("Pc8 Kg1 kg10", "w")
        )
        .is_err()
    );
}

#[test]
fn scenario_11_no_castling() {
    let home = fen("Kg1 Rc1 Ri1 Pb1 Pk1 kg10", "w");
    let p = position::<HexChessPosition>(&home);
    let moves = legal_texts(&p);
    let king = from_cell(&moves, "g1");
    // Every king move is a single step to one of its (at most twelve) neighbours.
    let g = &p.spec().geometry;
    let g1 = g.cell_by_label("g1").unwrap();
    let neighbours: Vec<String> = HEX_ORTHOGONAL
        .iter()
        .chain(&HEX_DIAGONAL)
        .filter_map(|&d| g.offset(g1, d))
        .map(|c| g.label(c).to_string())
        .collect();
    assert!(king.iter().all(|to| neighbours.contains(to)), "{king:?}");
    // g1e1 (diagonal, (-2, 0)) and g1h1 (orthogonal) are ordinary king steps.
    assert!(king.contains(&"e1".to_string()) && king.contains(&"h1".to_string()));
    // Only the king moves; the rooks stay at home.
    let after = game_after::<HexChessPosition>(Some(&home), &[], &["g1e1"]);
    assert_eq!(
        after.position().fen(),
        "1/2k/5/7/9/11/11/11/11/11/1PR1K3RP1 b - 1 1"
    );
    // No castling field in the FEN: a chess-style FEN is refused with a typed error.
    let chess_style = START_FEN.replace(" w - 0 1", " w - - 0 1");
    let error = HexChessPosition::from_fen_with(&options::<HexChessPosition>(&[]), &chess_style)
        .unwrap_err();
    assert!(error.to_string().contains("counter"), "{error}");
}

#[test]
fn scenario_12_stalemate_scoring() {
    let black = fen("kf11 Kf9 Qe1", "b");
    let game = game_after::<HexChessPosition>(Some(&black), &[], &[]);
    assert!(!game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
    let glinski = game_after::<HexChessPosition>(Some(&black), &["stalemate=glinski"], &[]);
    assert_eq!(glinski.status().to_string(), "3/4-1/4 stalemate");
    match glinski.status() {
        Status::Over(o) => assert_eq!((o.quarters, o.reason), (vec![3, 1], Reason::Stalemate)),
        other => panic!("{other:?}"),
    }
    // All five neighbours of f11 are covered by the king on f9.
    let p = game.position();
    let g = &p.spec().geometry;
    let f11 = g.cell_by_label("f11").unwrap();
    let mut around: Vec<String> = HEX_ORTHOGONAL
        .iter()
        .chain(&HEX_DIAGONAL)
        .filter_map(|&d| g.offset(f11, d))
        .map(|c| g.label(c).to_string())
        .collect();
    around.sort();
    assert_eq!(around, sorted("f10 e10 g10 e9 g9"));
    for cell in &around {
        let attacked = p.attacked(g.cell_by_label(cell).unwrap(), 0, p.occupied());
        assert!(attacked, "{cell}");
    }
    // Mirrored top to bottom, White is stalemated and scores 1/4.
    let white = fen("Kf1 kf3 qe10", "w");
    let game = game_after::<HexChessPosition>(Some(&white), &["stalemate=glinski"], &[]);
    assert_eq!(game.status().to_string(), "1/4-3/4 stalemate");
    let game = game_after::<HexChessPosition>(Some(&white), &[], &[]);
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}

#[test]
fn scenario_13_king_against_king() {
    let start = fen("Ke4 pe5 kg10", "w");
    let game = game_after::<HexChessPosition>(Some(&start), &[], &["e4e5"]);
    assert_eq!(game.status().to_string(), "1/2-1/2 insufficient-material");
    // Anything more is played on: even a lone knight, since in this geometry small forces
    // can mate (Decision 6).
    let knight = game_after::<HexChessPosition>(Some(&fen("Ke4 Nb1 kg10", "w")), &[], &[]);
    assert_eq!(knight.status().to_string(), "ongoing");
    let bishop = game_after::<HexChessPosition>(Some(&fen("Ke4 Bc1 kg10", "w")), &[], &[]);
    assert_eq!(bishop.status().to_string(), "ongoing");
}

#[test]
fn draws_are_automatic_by_default_and_claims_under_fide_claims() {
    let moves = [
        "h1i3", "h9i6", "i3h1", "i6h9", "h1i3", "h9i6", "i3h1", "i6h9",
    ];
    let game = game_after::<HexChessPosition>(None, &[], &moves);
    assert_eq!(game.status().to_string(), "1/2-1/2 threefold-repetition");
    let claims = game_after::<HexChessPosition>(None, &["fide-claims=on"], &moves);
    assert_eq!(
        claims.status(),
        Status::Ongoing {
            claimable: vec![Reason::ThreefoldRepetition]
        }
    );
    let fifty = fen("Ke4 Nb1 kg10", "w").replace(" 0 1", " 99 80");
    let game = game_after::<HexChessPosition>(Some(&fifty), &[], &["b1c4"]);
    assert_eq!(game.status().to_string(), "1/2-1/2 fifty-move-rule");
    let claim = game_after::<HexChessPosition>(Some(&fifty), &["fide-claims=on"], &["b1c4"]);
    assert_eq!(
        claim.status(),
        Status::Ongoing {
            claimable: vec![Reason::FiftyMoveRule]
        }
    );
}

#[test]
fn checks_pins_and_mate_follow_the_twelve_lines() {
    // A black rook on f11 pins the white knight on f4 to the king on f1.
    let pinned = legal(&fen("Kf1 Nf4 rf11 ka6", "w"));
    assert!(from_cell(&pinned, "f4").is_empty(), "{pinned:?}");
    assert!(!from_cell(&pinned, "f1").is_empty());
    // A bishop checks along a diagonal (f3-h2 is (2, 0)), not along a file.
    let diagonal = position::<HexChessPosition>(&fen("Kf3 bh2 kk7", "w"));
    assert!(diagonal.is_check());
    let file = position::<HexChessPosition>(&fen("Kf1 bf7 kk7", "w"));
    assert!(!file.is_check());
    // A knight's check jumps over the men between.
    let knight = position::<HexChessPosition>(&fen("Kf6 nc4 kk7 Pe5 Pd5 Pe6", "w"));
    assert!(knight.is_check());
    // Mate in the corner: the queen on b2 covers a1's four other neighbours, the rook on b6
    // guards it.
    let mate = game_after::<HexChessPosition>(Some(&fen("Ka1 qb2 rb6 kk7", "w")), &[], &[]);
    assert!(mate.position().is_check());
    assert_eq!(mate.status().to_string(), "0-1 checkmate");
    // Without the rook the king takes the queen.
    let escape = legal(&fen("Ka1 qb2 kk7", "w"));
    assert_eq!(escape, ["a1b2"]);
}
