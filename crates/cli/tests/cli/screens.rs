//! `play`'s screens in every ruleset, through the binary with a pipe: the board drawn from
//! the scene with coordinates in the ruleset's notation, the side to move named right, the
//! last move marked, the legend, the board turned for the person playing, and one move
//! reader whose errors say what is wrong.
//!
//! Each ruleset's screen (the start, a move, the legend) is also compared with its snapshot
//! in `tests/cli/screens/<id>.txt`, which a person has read; after a change to the
//! drawing, `CHATURANGA_UPDATE_SCREENS=1` rewrites them for review (`git diff`).

use chaturanga_session::open_table;
use chaturanga_variants::implemented;
use std::path::PathBuf;

/// Runs `play` with `args` and `script` as input; returns its output.
fn play(args: &[&str], script: &str) -> String {
    crate::engine_cli::play(args, script.as_bytes())
}

/// What the test needs to know of a ruleset, from the library (the session's referee,
/// compiled once there): the names of the players to move before and after its first legal
/// move, that move, and the legend.
struct Facts {
    id: &'static str,
    first_mover: String,
    first_move: String,
    next_mover: String,
    legend: Vec<(String, String, String)>,
}

fn facts(id: &'static str) -> Facts {
    let mut table = open_table(id, &[], None).expect("an implemented ruleset");
    let first_mover = table.player_name(table.side_to_move()).to_string();
    let first_move = table.legal()[0].text.clone();
    table.play(&first_move).expect("a legal move");
    Facts {
        id,
        first_mover,
        first_move,
        next_mover: table.player_name(table.side_to_move()).to_string(),
        legend: table
            .legend()
            .kinds
            .into_iter()
            .map(|k| (k.symbol, k.name, k.moves))
            .collect(),
    }
}

/// The lines of a screen's first board: from the first line of coordinates to the next.
fn first_board(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("   ") || l.starts_with("board "))
        .expect("a board");
    let header = lines[start];
    let end = lines[start + 1..]
        .iter()
        .position(|l| *l == header)
        .map_or(lines.len(), |i| start + 2 + i);
    lines[start..end].to_vec()
}

/// A line diff of `expected` and `actual` (longest common subsequence), for a failure.
fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut common = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if a[i] == b[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = String::new();
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || common[i][j + 1] >= common[i + 1][j]) {
            out.push_str(&format!("+ {}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("- {}\n", a[i]));
            i += 1;
        }
    }
    out
}

fn snapshot_path(id: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cli/screens")
        .join(format!("{id}.txt"))
}

/// Compares a screen with its snapshot (or writes it, when asked to).
fn check_snapshot(id: &str, actual: &str) -> Result<(), String> {
    let path = snapshot_path(id);
    if std::env::var_os("CHATURANGA_UPDATE_SCREENS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (CHATURANGA_UPDATE_SCREENS=1 writes it)",
            path.display()
        )
    })?;
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{id}: the screen differs from {} (- snapshot, + now):\n{}",
            path.display(),
            diff(&expected, actual)
        ))
    }
}

#[test]
fn every_ruleset_shows_its_board_side_last_move_and_legend() {
    let mut failures = Vec::new();
    for info in implemented() {
        let f = facts(info.id);
        let script = format!("{}\nlegend\nquit\n", f.first_move);
        let text = play(&[f.id, "--engine-plays", "none"], &script);
        let id = f.id;
        // The side to move, named as the ruleset names him, before and after the move.
        assert!(
            text.contains(&format!("\n{} to move\n{}> ", f.first_mover, f.first_mover)),
            "{id}: {}\n{text}",
            f.first_mover
        );
        let after = text
            .split_once("\nlast move: ")
            .unwrap_or_else(|| panic!("{id}: no last move\n{text}"))
            .1;
        assert!(
            after.contains(&format!("{} to move", f.next_mover)),
            "{id}: {}\n{text}",
            f.next_mover
        );
        // The move is marked on the board (a placement or a drop marks its cell only);
        // a move the next player may not see (dark chess) is not, nor any of its cells.
        let board_after: String = text
            .rsplit_once("\nlast move: ")
            .unwrap()
            .0
            .rsplit_once(&format!("{}> ", f.first_mover))
            .unwrap()
            .1
            .to_string();
        let unseen = after
            .lines()
            .next()
            .is_some_and(|l| l.ends_with("(unseen)"));
        assert_eq!(
            board_after.contains('[') && board_after.contains(']'),
            !unseen,
            "{id}: the last move is {}marked\n{board_after}",
            if unseen { "unseen but " } else { "not " }
        );
        // Every piece of the legend, with its name and moves.
        let legend = text.split_once("pieces (").expect("the legend").1;
        for (symbol, name, moves) in &f.legend {
            assert!(
                legend.contains(name.as_str()) && legend.contains(moves.as_str()),
                "{id}: {symbol} {name} is not in the legend\n{legend}"
            );
        }
        // Nothing but the board, the status and the legend: no error.
        assert!(!text.contains("error"), "{id}\n{text}");
        if let Err(e) = check_snapshot(id, &text) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn help_gives_an_example_move_of_the_ruleset_that_is_legal() {
    for info in implemented() {
        let f = facts(info.id);
        let text = play(&[f.id, "--engine-plays", "none"], "help\nquit\n");
        let examples = text
            .split_once(&format!("moves {} could type now", f.first_mover))
            .unwrap_or_else(|| panic!("{}: no examples\n{text}", f.id))
            .1;
        let first = examples.lines().nth(1).expect("an example");
        let example = first.split_whitespace().next().unwrap();
        // The example, typed, is played: the next prompt is the next mover's.
        let played = play(
            &[f.id, "--engine-plays", "none"],
            &format!("{example}\nquit\n"),
        );
        assert!(
            played.contains("last move: ") && !played.contains("error"),
            "{}: {example}\n{played}",
            f.id
        );
    }
}

#[test]
fn coordinates_are_the_rulesets_own_on_every_edge() {
    // Shogi: files 9..1 across the top and bottom, ranks a..i down both sides.
    let text = play(&["shogi", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert_eq!(board[0], "    9   8   7   6   5   4   3   2   1", "{text}");
    assert_eq!(board.last(), Some(&board[0]));
    for (line, rank) in board[1..10].iter().zip('a'..='i') {
        assert!(line.starts_with(rank), "{line}");
        assert!(line.ends_with(&format!("  {rank}")), "{line}");
    }
    assert!(board[1].starts_with("a   l   n   s   g   k"), "{text}");
    // Chu shogi: twelve files, from 12.
    let text = play(&["chushogi", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert!(
        board[0].trim_start().starts_with("12  11  10   9"),
        "{text}"
    );
    assert!(
        board[0].ends_with(" 1") && board[12].starts_with("l "),
        "{text}"
    );
    // Xiangqi: files a..i, ranks 1..10 with red at the bottom.
    let text = play(&["xiangqi", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert_eq!(board[0], "    a  b  c  d  e  f  g  h  i", "{text}");
    assert!(board[1].starts_with("10  r  n  b  a  k"), "{text}");
    assert!(board[10].starts_with(" 1  R  N  B  A  K"), "{text}");
    // Omega: the wizard cells outside the files and ranks have their labels beside them.
    let text = play(&["omega", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert!(
        board[1].starts_with("w4  w") && board[1].ends_with("w  w3"),
        "{text}"
    );
    assert!(
        board[12].starts_with("w1  W") && board[12].ends_with("W  w2"),
        "{text}"
    );
    assert!(board[11].starts_with(" 0     C  R  N"), "{text}");
    // Gliński's board: the files above and below, every rank beside the edge.
    let text = play(&["hexchess", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert_eq!(
        board[0].split_whitespace().collect::<String>(),
        "abcdefghikl"
    );
    for rank in 1..=11 {
        assert!(
            board.iter().any(|l| l
                .split(|c: char| !c.is_ascii_digit())
                .any(|w| w == rank.to_string())),
            "rank {rank}\n{text}"
        );
    }
    // Three-player chess: the chart's files and ranks, each half's men where they stand.
    let text = play(&["threeplayer", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert_eq!(
        board[0].split_whitespace().collect::<String>(),
        "ABCDEFGHIJKL"
    );
    assert!(
        board
            .iter()
            .any(|l| l.starts_with(" 1  wR  wN  wB  wQ  wK")),
        "{text}"
    );
    assert!(
        board
            .iter()
            .any(|l| l.starts_with("12") && l.contains("rK")),
        "{text}"
    );
}

#[test]
fn the_board_faces_the_person_and_flips_when_asked() {
    let ranks = |text: &str| -> Vec<String> {
        first_board(text)[1..]
            .iter()
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    };
    // White at the bottom by default; --flip turns it; a person playing Black sees Black at
    // the bottom (the engine plays White's first move).
    let text = play(&["chess", "--engine-plays", "none"], "quit\n");
    assert_eq!(ranks(&text)[0], "8", "{text}");
    let text = play(&["chess", "--engine-plays", "none", "--flip"], "quit\n");
    assert_eq!(ranks(&text)[0], "1", "{text}");
    assert!(
        first_board(&text)[0].trim_start().starts_with("h  g  f"),
        "{text}"
    );
    let text = play(
        &["chess", "--engine-plays", "white", "--depth", "1"],
        "quit\n",
    );
    let after = text.split_once("white plays").expect("the engine moved").1;
    assert_eq!(ranks(after)[0], "1", "{text}");
    // The `flip` command turns it back.
    let text = play(
        &["chess", "--engine-plays", "none", "--flip"],
        "flip\nquit\n",
    );
    let after = text.split_once("white> ").unwrap().1;
    assert_eq!(ranks(after)[0], "8", "{text}");
    // Shogi: the second player (white, gote) playing sees rank i at the top.
    let text = play(
        &["shogi", "--engine-plays", "black", "--depth", "1"],
        "quit\n",
    );
    let after = text.split_once("black plays").expect("the engine moved").1;
    assert!(first_board(after)[1].starts_with("i "), "{text}");
    assert!(
        first_board(after)[0].trim_start().starts_with("1   2   3"),
        "{text}"
    );
    // Gess: Black moves first and his stones start at the top of the drawing: he sees them
    // at the bottom.
    let text = play(&["gess", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    assert!(board[1].starts_with(" 1 "), "{text}");
    assert!(
        board[18].contains("X  X  X") && !board[18].contains('O'),
        "{text}"
    );
    assert!(text.contains("men: X black, O white"), "{text}");
    // Bughouse: the person playing A-white sees his partner B-black at the bottom of B.
    let text = play(&["bughouse", "--engine-plays", "none"], "quit\n");
    let top = first_board(&text)[0];
    assert!(top.contains("board A") && top.contains("board B"), "{text}");
    let header = text
        .lines()
        .find(|l| l.trim_start().starts_with("a "))
        .unwrap();
    assert!(
        header.trim_end().ends_with("h   g   f   e   d   c   b   a"),
        "{text}"
    );
}

#[test]
fn gess_names_black_first_and_the_engine_moves_white() {
    let text = play(&["gess", "--nodes", "300"], "b13c14\nquit\n");
    assert!(text.contains("\nblack to move\nblack> "), "{text}");
    assert!(text.contains("white plays "), "{text}");
    assert!(!text.contains("black plays"), "{text}");
}

#[test]
fn dark_chess_shows_the_view_and_never_a_hidden_man() {
    let text = play(&["darkchess", "--engine-plays", "none"], "quit\n");
    let board = first_board(&text);
    for line in &board[1..5] {
        assert!(
            line[2..line.len() - 2]
                .chars()
                .all(|c| c == '?' || c == ' '),
            "{line}"
        );
    }
    assert!(
        board[1..9]
            .iter()
            .all(|l| !l[2..l.len() - 2].chars().any(|c| c.is_ascii_lowercase())),
        "{text}"
    );
}

#[test]
fn one_reader_for_every_ruleset_says_illegal_malformed_and_what_is_missing() {
    let none = ["--engine-plays", "none"];
    let with = |variant: &str, extra: &[&str]| -> Vec<String> {
        let mut args = vec![variant.to_string()];
        args.extend(none.iter().map(|s| s.to_string()));
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run = |args: Vec<String>, script: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        play(&args, script)
    };
    // Any case, hyphens and `x`; SAN; errors: illegal with where the man can go, the other
    // side's man, an empty cell; malformed with how to write a move.
    let text = run(
        with("chess", &[]),
        "E2-E4\nNf3\nB8C6\nd7xd5\ne3e4\ng1g3\nzz9\nNf3\n",
    );
    assert!(text.contains("last move: e4 (white)"), "{text}");
    assert!(
        text.contains("error: illegal move \"Nf3\": no knight of black's can go to f3"),
        "{text}"
    );
    assert!(text.contains("last move: Nc6 (black)"), "{text}");
    assert!(
        text.contains(
            "error: illegal move \"d7xd5\": the pawn on d7 is black's, and white is to move"
        ),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"e3e4\": e3 is empty"),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"g1g3\": the knight on g1 goes to e2, f3 or h3 here"),
        "{text}"
    );
    assert!(
        text.contains("error: malformed move \"zz9\": write a move as cells, e.g. "),
        "{text}"
    );
    assert!(text.contains("last move: Nf3 (white)"), "{text}");
    // A promotion without its piece.
    let text = run(
        with("chess", &["--fen", "8/P6k/8/8/8/8/8/K7 w - - 0 1"]),
        "a7a8\na7a8=Q\n",
    );
    assert!(
        text.contains(
            "error: illegal move \"a7a8\": a promotion: add the piece, a7a8q, a7a8r, a7a8b or a7a8n"
        ),
        "{text}"
    );
    assert!(text.contains("last move: a8=Q"), "{text}");
    // Makarenko: a split the move does not take, a split to name.
    let text = run(with("makarenko", &[]), "b1c3/2\na1b2\n");
    assert!(
        text.contains("error: illegal move \"b1c3/2\": not with \"/2\": from b1 to c3 is b1c3;"),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"a1b2\": the whole tower cannot go to b2; say how many men move: a1b2/1 or a1b2/2;"),
        "{text}"
    );
    // Three-player chess takes its capital labels in lower case.
    let text = run(with("threeplayer", &[]), "e2e4\n");
    assert!(text.contains("last move: E2E4 (white)"), "{text}");
    // Bughouse reads the SAN of its records.
    let text = run(with("bughouse", &[]), "Nf3\nd4\nQh4\n");
    assert!(text.contains("last move: g1f3 (A-white)"), "{text}");
    assert!(text.contains("last move: d2d4 (B-white)"), "{text}");
    assert!(
        text.contains("error: illegal move \"Qh4\": no queen of A-black's can go to h4"),
        "{text}"
    );
    // Shogi: drops with * or @ (a pawn in hand, the 7th file free of black's pawns), the
    // piece not in hand, a promotion to choose or not.
    let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PP1PPPPPP/1B5R1/LNSGKGSNL b P 1";
    let text = run(
        with("shogi", &["--fen", fen]),
        "N*5e
P*5e
P@7e
",
    );
    assert!(
        text.contains("error: illegal move \"N*5e\": black has no N to drop (holds P)"),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"P*5e\": P cannot be dropped on 5e; it may go to 7"),
        "{text}"
    );
    assert!(text.contains("last move: P*7e (black)"), "{text}");
    let fen = "lnsgkgsnl/1r5P1/pppppp1p1/9/9/9/PP1PPPP1P/1B5R1/LNSGKGSNL b P 1";
    let text = run(
        with("shogi", &["--fen", fen]),
        "2b3a
2b2a
",
    );
    assert!(
        text.contains("error: illegal move \"2b3a\": the pawn on 2b goes to 2a here"),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"2b2a\": a promotion: add the piece, 2b2a+"),
        "{text}"
    );
    // A compound turn's parts at once, or one by one with the part due named; the first
    // turn of double-move chess is one move.
    let text = run(
        with("doublemove", &[]),
        "e2e4 d2d4
e2e4
e7e5 d7d5
",
    );
    assert!(
        text.contains("error: illegal move \"d2d4\": the turn is over after \"e2e4\""),
        "{text}"
    );
    assert!(
        text.contains("last move: d5 (black)\nwhite to move"),
        "{text}"
    );
    let text = run(
        with("doublemove", &[]),
        "e2e4
e7e5
",
    );
    assert!(
        text.contains("black to move (part 2 of the turn)"),
        "{text}"
    );
    let text = run(
        with("avalanche", &[]),
        "e2e4
d2d4
xx
",
    );
    assert!(
        text.contains("white to move (part 2 of the turn: the push)"),
        "{text}"
    );
    assert!(
        text.contains("error: illegal move \"d2d4\": ") && text.contains("the push, e.g. "),
        "{text}"
    );
    assert!(text.contains("error: malformed move \"xx\""), "{text}");
}

#[test]
fn a_growing_board_marks_the_man_where_he_now_stands() {
    // Chex names a placement in the frame before it; the frame then grows past a1 and the
    // labels move: the mark follows the man, not the old label.
    let text = play(&["chex", "--engine-plays", "none"], "K@b2\nP@a1\nquit\n");
    let after = text
        .rsplit_once("\nlast move: P@a1 (black)")
        .expect("played")
        .0;
    let board = first_board(after.rsplit_once("black> ").expect("black's turn").1);
    assert!(board.iter().any(|l| l.contains("[p]")), "{text}");
    assert!(!board.iter().any(|l| l.contains("[.]")), "{text}");
}
