//! The CLI contract, through the real binary: output formats and error behaviour.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail with a one-line error and no panic or backtrace.
fn error(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    assert!(
        !err.contains("panicked") && !err.contains("internal error") && !err.contains("backtrace"),
        "{err:?}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout on error");
    err
}

#[test]
fn variants_lists_ids_one_per_line() {
    let text = stdout(&["variants"]);
    assert!(text.lines().any(|l| l == "chess"));
    assert!(text.lines().all(|l| !l.contains(' ')));
    let all = stdout(&["variants", "--all"]);
    assert_eq!(all.lines().count(), 29);
}

#[test]
fn perft_prints_nodes_last() {
    assert_eq!(stdout(&["perft", "chess", "3"]), "nodes 8902\n");
    assert_eq!(stdout(&["perft", "chess", "0"]), "nodes 1\n");
    let divide = stdout(&["perft", "chess", "2", "--divide", "--moves", "e2e4"]);
    let lines: Vec<&str> = divide.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines.last(), Some(&"nodes 600"));
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 600);
    let mut sorted = lines[..20].to_vec();
    sorted.sort();
    assert_eq!(sorted, lines[..20]);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        stdout(&["perft", "chess", "2", "--fen", kiwipete]),
        "nodes 2039\n"
    );
}

#[test]
fn moves_fen_status() {
    let moves = stdout(&["moves", "chess"]);
    assert_eq!(moves.lines().count(), 20);
    assert_eq!(moves.lines().next(), Some("a2a3"));
    let san = stdout(&["moves", "chess", "--san"]);
    assert!(san.lines().any(|l| l == "Nf3"));
    assert_eq!(
        stdout(&["fen", "chess", "--moves", "e2e4", "c7c5", "g1f3"]),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"
    );
    // SAN is accepted too.
    assert_eq!(
        stdout(&["fen", "chess", "--moves", "e4", "c5", "Nf3"]),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"
    );
    assert_eq!(stdout(&["status", "chess"]), "ongoing\n");
    assert_eq!(
        stdout(&["status", "chess", "--moves", "f2f3", "e7e5", "g2g4", "d8h4"]),
        "0-1 checkmate\n"
    );
    assert_eq!(
        stdout(&["status", "chess", "--fen", "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"]),
        "1/2-1/2 stalemate\n"
    );
    let reps = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let mut args = vec!["status", "chess", "--moves"];
    args.extend(reps);
    assert_eq!(stdout(&args), "1/2-1/2 threefold-repetition\n");
    args.extend(["--option", "fide-claims=on"]);
    assert_eq!(stdout(&args), "ongoing\n");
    assert_eq!(
        stdout(&["moves", "chess", "--moves", "f2f3", "e7e5", "g2g4", "d8h4"]),
        ""
    );
}

#[test]
fn own_notations() {
    assert_eq!(
        stdout(&["moves", "xiangqi", "--notation", "wxf"])
            .lines()
            .count(),
        44
    );
    assert_eq!(
        stdout(&["fen", "xiangqi", "--moves", "C2=5", "h10g8"]),
        stdout(&["fen", "xiangqi", "--moves", "h3e3", "H8+7"])
    );
    assert!(error(&["moves", "chess", "--notation", "wxf"]).contains("unknown notation"));
}

#[test]
fn pgn_export() {
    let pgn = stdout(&["pgn", "chess", "--moves", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(pgn.contains("[Variant \"Standard\"]"), "{pgn}");
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"));
}

#[test]
fn shogi_records() {
    let moves = ["--moves", "7g7f", "3c3d", "8h2b", "3a2b"];
    let kif = stdout(&[&["record", "shogi", "--format", "kif"], &moves[..]].concat());
    assert!(kif.contains("手合割：平手\n"), "{kif}");
    assert!(
        kif.contains("   3 ２二角不成(88)\n   4 同　銀(31)\n"),
        "{kif}"
    );
    let csa = stdout(&[&["record", "shogi", "--format", "csa"], &moves[..]].concat());
    // The rule options in words are comments before the position.
    assert!(csa.starts_with("V2.2\n'Impasse: "), "{csa}");
    assert!(
        csa.contains("\nPI\n+\n+7776FU\n-3334FU\n+8822KA\n-3122GI\n"),
        "{csa}"
    );
    // Moves may be given in those notations too.
    assert_eq!(
        stdout(&["fen", "shogi", "--moves", "+7776FU", "３四歩(33)"]),
        stdout(&["fen", "shogi", "--moves", "7g7f", "3c3d"])
    );
    assert!(stdout(&["record", "shogi"]).contains("[Variant \"Shogi\"]"));
    assert!(error(&["record", "chess", "--format", "kif"]).contains("no KIF records"));
    assert!(error(&["record", "xiangqi", "--format", "csa"]).contains("no CSA records"));
}

#[test]
fn bughouse_records_are_bpgn() {
    let moves = ["--moves", "e2e4", "d2d4", "d7d5", "e7e5", "e4d5", "d4e5"];
    let bpgn = stdout(&[&["record", "bughouse", "--format", "bpgn"], &moves[..]].concat());
    assert!(bpgn.contains("[WhiteB \"?\"]"), "{bpgn}");
    assert!(
        bpgn.contains("1A. e4 1B. d4 1a. d5 1b. e5 2A. exd5 2B. dxe5 *"),
        "{bpgn}"
    );
    assert_eq!(stdout(&[&["pgn", "bughouse"], &moves[..]].concat()), bpgn);
    assert!(error(&["record", "chess", "--format", "bpgn"]).contains("no BPGN records"));
    assert!(error(&["record", "chess", "--format", "bpg"]).contains("bpgn"));
    assert!(stdout(&["rules", "bughouse"]).contains("clock=M+S"));
}

#[test]
fn bad_input_is_a_one_line_error() {
    assert!(error(&["perft", "nochess", "1"]).contains("unknown variant"));
    let catalogue = stdout(&["variants", "--all"]);
    if let Some(line) = catalogue.lines().find(|l| l.ends_with("not implemented")) {
        let id = line.split_whitespace().next().unwrap();
        assert!(error(&["perft", id, "1"]).contains("not implemented"));
    }
    assert!(
        error(&[
            "fen",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"
        ])
        .contains("rows")
    );
    assert!(
        error(&[
            "fen",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ])
        .contains("row 3")
    );
    assert!(
        error(&[
            "fen",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"
        ])
        .contains("unknown piece")
    );
    assert!(error(&["fen", "chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]).contains("no king"));
    assert!(
        error(&["fen", "chess", "--fen", "4k3/8/8/8/8/8/8/4K2R x - - 0 1"])
            .contains("side to move")
    );
    assert!(
        error(&["fen", "chess", "--fen", "4k3/8/8/8/8/8/8/4K2R w - - abc 1"]).contains("counter")
    );
    assert!(error(&["fen", "chess", "--fen", ""]).contains("FEN"));
    assert!(error(&["fen", "chess", "--moves", "e2e5"]).contains("illegal move"));
    assert!(error(&["fen", "chess", "--moves", "e2e4", "zz"]).contains("move 2"));
    assert!(error(&["fen", "chess", "--option", "fide-claims=maybe"]).contains("fide-claims"));
    assert!(error(&["fen", "chess", "--option", "speed=fast"]).contains("unknown option"));
    assert!(error(&["perft", "chess"]).contains("perft <variant> <depth>"));
    assert!(error(&["perft", "chess", "-1"]).contains("depth"));
    assert!(error(&["frobnicate"]).contains("unknown command"));
    assert!(error(&[]).contains("no command"));
    let long = "x".repeat(100_000);
    assert!(error(&["fen", "chess", "--fen", &long]).contains("too long"));
    assert!(error(&["fen", "chess", "--moves", &long]).contains("move 1"));
}

#[test]
fn avalanche_lists_counts_and_reads_whole_turns() {
    assert_eq!(stdout(&["perft", "avalanche", "1"]), "nodes 320\n");
    let turns = stdout(&[
        "moves",
        "avalanche",
        "--fen",
        "4k3/8/8/8/8/3p4/3N4/4K3 w - - 0 1",
    ]);
    assert!(turns.lines().any(|l| l == "e1f1;-"), "{turns}");
    assert!(turns.lines().any(|l| l == "d2b3;d3d2"), "{turns}");
    assert_eq!(
        stdout(&["fen", "avalanche", "--moves", "e2e4;d7d5", "d5e4;g2g3"]),
        "rnbqkbnr/ppp1pppp/8/8/4p3/6P1/PPPP1P1P/RNBQKBNR w KQkq - 0 2\n"
    );
    // Parts one by one: the position between them has its own FEN field.
    assert!(stdout(&["fen", "avalanche", "--moves", "e2e4"]).ends_with(" push\n"));
    error(&["fen", "avalanche", "--moves", "e2e4;-"]);
    error(&["fen", "avalanche", "--moves", "e2e4;d7d4"]);
}

#[test]
fn darkchess_view_shows_only_what_the_player_may_know() {
    assert_eq!(
        stdout(&["view", "darkchess", "white", "--moves", "e2e4"]),
        "********/********/1*******/*1**1**1/4P3/4*3/PPPP1PPP/RNBQKBNR b KQ - 0 1\nenemy-men kqrrbbnnpppppppp\nopponent-moved no\nlost -\n"
    );
    let told = stdout(&[
        "view",
        "darkchess",
        "white",
        "--fen",
        "4k3/8/2b5/1N6/8/8/8/4K3 b - - 0 1",
        "--moves",
        "c6b5",
    ]);
    assert!(told.ends_with("opponent-moved yes\nlost b5 N\n"), "{told}");
    // The bishop that took stands where no white man can move: unseen.
    let fog = told.lines().next().unwrap();
    assert!(!fog.split(' ').next().unwrap().contains('b'), "{fog}");
    error(&["view", "chess", "white"]);
    error(&["view", "darkchess", "3"]);
    error(&["view", "darkchess", "purple"]);
}

/// A GUI given only the executable: no arguments, a pipe, and its first line names the
/// protocol.
#[test]
fn without_a_command_the_first_line_chooses_the_protocol() {
    use std::io::Write;
    for (input, answer) in [
        ("usi\nisready\nquit\n", "usiok"),
        ("uci\nisready\nquit\n", "uciok"),
        ("xboard\nprotover 2\nquit\n", "feature done=1"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("written");
        let out = child.wait_with_output().expect("it ends");
        assert!(out.status.success(), "{input:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.lines().any(|l| l == answer), "{input:?}: {text}");
    }
}

/// The tuner end to end: self-play positions, then a fit that prints the family's weights
/// file with what it did; bad positions files and rulesets without a family are errors.
#[test]
fn tune_generates_positions_and_fits_a_weights_file() {
    let dir = std::env::temp_dir().join(format!("chaturanga-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let positions = dir.join("chess.txt");
    let path = positions.to_str().unwrap();
    let report = stdout(&[
        "tune", "generate", "chess", "--games", "6", "--nodes", "300", "--out", path,
    ]);
    assert!(report.starts_with("6 games, "), "{report}");
    let text = std::fs::read_to_string(&positions).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 150, "{} positions", lines.len());
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(["1", "0.5", "0"].contains(&fields[0]), "{line}");
    }
    // The same seed plays the same games.
    let again = dir.join("again.txt");
    stdout(&[
        "tune",
        "generate",
        "chess",
        "--games",
        "6",
        "--nodes",
        "300",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let weights = stdout(&["tune", "fit", "chess", path, "--iterations", "20"]);
    assert!(
        weights.starts_with("# Evaluation weights of the chess family"),
        "{weights}"
    );
    assert!(weights.contains("K = "), "{weights}");
    for name in [
        "mobility_opening",
        "royal_danger",
        "tempo",
        "value N",
        "value P",
    ] {
        assert!(
            weights.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing: {weights}"
        );
    }
    // A kept value stays; a royal piece has no value to keep.
    let kept = stdout(&[
        "tune",
        "fit",
        "chess",
        path,
        "--iterations",
        "20",
        "--keep-value",
        "P",
    ]);
    assert!(kept.lines().any(|l| l == "value P 100"), "{kept}");
    assert!(kept.contains("--keep-value P"), "{kept}");
    assert!(error(&["tune", "fit", "chess", path, "--keep-value", "K"]).contains("no piece"));
    // Rulesets evaluated with the defaults have no family to write, and a bad line is named.
    assert!(error(&["tune", "fit", "omega", path]).contains("default weights"));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "1\tnot a fen\te2e4\n").unwrap();
    assert!(error(&["tune", "fit", "chess", bad.to_str().unwrap()]).contains("line 1"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Time odds: each side its own clock, written into the PGN as cutechess-cli does; clocks of
/// two kinds are refused.
#[test]
fn a_match_gives_each_side_its_own_clock() {
    let dir = std::env::temp_dir().join(format!("chaturanga-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("odds.pgn");
    let report = stdout(&[
        "match",
        "chess",
        "--first",
        "chaturanga:depth=1",
        "--second",
        "chaturanga:depth=1",
        "--games",
        "2",
        "--first-tc",
        "20+0.2",
        "--tc",
        "10+0.1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(
        report.contains("time control 20+0.2 for Chaturanga, 10+0.1 for"),
        "{report}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    // The first player of the match is White in the first game and Black in the second.
    assert!(games.contains("[WhiteTimeControl \"20+0.2\"]"), "{games}");
    assert!(games.contains("[BlackTimeControl \"20+0.2\"]"), "{games}");
    assert!(!games.contains("[TimeControl "), "{games}");
    let mixed = error(&[
        "match",
        "chess",
        "--first",
        "chaturanga",
        "--second",
        "chaturanga",
        "--first-tc",
        "st=1",
    ]);
    assert!(mixed.contains("of one kind"), "{mixed}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A three-player match seats each engine alone at every side in turn, against copies of
/// the other at the rest, and scores every game as pairs of seats; team games are refused.
#[test]
fn a_three_player_match_rotates_the_seats() {
    let dir = std::env::temp_dir().join(format!("chaturanga-three-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("three.pgn");
    let report = stdout(&[
        "match",
        "threeplayer",
        "--first",
        "chaturanga:depth=1",
        "--second",
        "chaturanga:depth=2",
        "--games",
        "6",
        "--max-plies",
        "90",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(report.contains("12 pairs of seats (2 per game"), "{report}");
    let tally = report
        .lines()
        .find_map(|l| l.strip_prefix("W-D-L "))
        .and_then(|l| l.split_whitespace().next())
        .expect("a W-D-L line");
    let counts: Vec<u32> = tally.split('-').map(|n| n.parse().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u32>(), 12, "{report}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    let seats: Vec<[String; 3]> = games
        .split("[Event ")
        .skip(1)
        .map(|game| {
            ["White", "Red", "Black"].map(|tag| {
                let start = format!("[{tag} \"");
                let at = game.find(&start).unwrap_or_else(|| panic!("{tag}: {game}"));
                let rest = &game[at + start.len()..];
                rest[..rest.find('"').unwrap()].to_string()
            })
        })
        .collect();
    assert_eq!(seats.len(), 6, "{games}");
    let first = "Chaturanga";
    let second = "Chaturanga (2)";
    for (game, sides) in seats.iter().enumerate() {
        // Games 1-3: the first engine alone at White, Red, Black; games 4-6: the second.
        let (alone, rest) = if game < 3 {
            (first, second)
        } else {
            (second, first)
        };
        for (side, name) in sides.iter().enumerate() {
            let expected = if side == game % 3 { alone } else { rest };
            assert_eq!(name, expected, "game {}: {sides:?}", game + 1);
        }
    }
    let teams = error(&[
        "match",
        "bughouse",
        "--first",
        "chaturanga",
        "--second",
        "chaturanga",
    ]);
    assert!(teams.contains("play in teams"), "{teams}");
    std::fs::remove_dir_all(&dir).ok();
}
