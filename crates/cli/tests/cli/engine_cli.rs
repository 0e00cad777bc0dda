//! The engine's commands through the real binary: `search`, `play` driven through stdin, and
//! the search benchmark.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `play` with `script` as its input and returns its output.
pub(crate) fn play(args: &[&str], script: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script)
        .expect("input written");
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "play {args:?} failed: {stderr}");
    assert!(!stderr.contains("internal error"), "{stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn search_reports_iterations_then_the_best_move() {
    let out = run(&["search", "chess", "--depth", "4"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    for (i, line) in lines[..4].iter().enumerate() {
        assert!(
            line.starts_with(&format!("info depth {} ", i + 1)),
            "{line}"
        );
        assert!(
            line.contains(" score cp ") && line.contains(" pv "),
            "{line}"
        );
    }
    assert!(lines[4].starts_with("bestmove "));
    // The best move is the first move of the last line.
    let best = lines[4].strip_prefix("bestmove ").unwrap();
    assert!(lines[3].contains(&format!(" pv {best}")), "{text}");
}

#[test]
fn search_finds_a_mate_and_says_so() {
    let text = String::from_utf8(
        run(&[
            "search",
            "chess",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "--depth",
            "3",
        ])
        .stdout,
    )
    .unwrap();
    assert!(text.contains("score mate 1"), "{text}");
    assert!(text.ends_with("bestmove a1a8\n"), "{text}");
}

#[test]
fn search_refuses_a_finished_game_and_bad_limits() {
    let over = run(&["search", "chess", "--moves", "f3", "e5", "g4", "Qh4"]);
    assert_eq!(over.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&over.stderr).contains("the game is over"));
    for bad in [
        &["search", "chess", "--time", "0"][..],
        &["search", "chess", "--time", "soon"],
        &["search", "chess", "--depth", "99"],
        &["search", "chess", "--nodes", "-5"],
        &["play", "chess", "--engine-plays", "purple"],
    ] {
        let out = run(bad);
        assert!(!out.status.success(), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn play_between_people_takes_moves_undo_and_reports_the_end() {
    let text = play(
        &["chess", "--engine-plays", "none"],
        b"f3\ne5\nundo\ne6\ng4\nQh4\nQh5\nsave /nonexistent-dir/x.pgn\nquit\n",
    );
    // After the undo, e6 is played instead of e5; the fool's mate still works.
    assert!(text.contains("game over: 0-1 checkmate"), "{text}");
    assert!(text.contains("error: the game is over"), "{text}");
    assert!(
        text.contains("error: cannot write /nonexistent-dir/x.pgn"),
        "{text}"
    );
}

#[test]
fn play_rejects_bad_input_and_keeps_the_game() {
    let mut script = b"e5\nzz9\n".to_vec();
    script.extend(vec![b'x'; 5_000]);
    script.extend(b"\n\xff\xfe\nfen\nquit\n");
    let text = play(&["chess", "--engine-plays", "none"], &script);
    assert!(text.contains("error: "), "{text}");
    assert!(text.contains("line longer than"), "{text}");
    assert!(text.contains("not UTF-8"), "{text}");
    // Nothing was played: the FEN is still the start.
    assert!(
        text.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{text}"
    );
}

#[test]
fn play_against_the_engine_shows_its_thinking_and_its_move() {
    let text = play(&["chess", "--depth", "3"], b"e4\nfen\nundo\nfen\nquit\n");
    assert!(text.contains("  depth  3  score "), "{text}");
    assert!(text.contains("black plays "), "{text}");
    // The prompt (`white> `) precedes what a command prints.
    let fens: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("white> "))
        .filter(|l| l.contains(" KQkq "))
        .collect();
    // After e4 and the reply White is to move again; undo goes back to the start.
    assert!(
        fens[0].contains(" w KQkq - 0 2") || fens[0].contains(" w KQkq - 1 2"),
        "{fens:?}"
    );
    assert_eq!(
        fens[1],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn play_saves_the_game_in_the_format_the_file_names() {
    let dir = std::env::temp_dir().join(format!("chaturanga-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    let kif = dir.join("game.kif");
    let script = format!("e4\ne5\nresign\nsave {}\n", pgn.display());
    let text = play(&["chess", "--engine-plays", "none"], script.as_bytes());
    assert!(text.contains("game over: 0-1 resignation"), "{text}");
    let saved = std::fs::read_to_string(&pgn).unwrap();
    assert!(saved.contains("1. e4 e5 0-1"), "{saved}");
    let script = format!("7g7f\n3c3d\nsave {}\nquit\n", kif.display());
    play(&["shogi", "--engine-plays", "none"], script.as_bytes());
    // A `.kif` file is in Shift_JIS, as the format expects: not UTF-8, and read back as KIF.
    let bytes = std::fs::read(&kif).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err());
    let (format, saved) = chaturanga_notation::files::read(Some("game.kif"), &bytes).unwrap();
    assert_eq!(format.name(), "kif");
    assert!(saved.contains("７六歩(77)"), "{saved}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rulesets without SAN write their records in their own move text (this failed with "this
/// ruleset has no SAN" for chu shogi, Chex and the other rulesets without SAN).
#[test]
fn records_of_rulesets_without_san_use_their_move_text() {
    let text = play(
        &["chushogi", "--engine-plays", "none"],
        b"7i7h\n6d6e\npgn\nquit\n",
    );
    assert!(text.contains("1. 7i7h 6d6e *"), "{text}");
    let text = play(&["chex", "--engine-plays", "none"], b"K@b2\npgn\nquit\n");
    assert!(text.contains("1. K@b2 *"), "{text}");
    let out = run(&["pgn", "congo", "--moves", "a2a3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1. a2a3 *"), "{text}");
}

#[test]
fn engine_against_itself_plays_a_game_to_the_end() {
    // Shogi's side names are black and white; both seats by name.
    let text = play(
        &[
            "minishogi",
            "--engine-plays",
            "black,white",
            "--nodes",
            "200",
        ],
        b"",
    );
    assert!(text.contains("game over: "), "{text}");
}

#[test]
fn bench_search_prints_a_line_per_ruleset_and_a_total() {
    let out = run(&["bench", "--search", "--depth", "2", "chess", "xiangqi"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("search"));
    assert!(lines[1].starts_with("chess") && lines[2].starts_with("xiangqi"));
    assert!(lines[3].starts_with("total"));
    // Deterministic: the same node counts twice.
    let again =
        String::from_utf8(run(&["bench", "--search", "--depth", "2", "chess", "xiangqi"]).stdout)
            .unwrap();
    let nodes = |t: &str| -> Vec<String> {
        t.lines()
            .skip(1)
            .take(2)
            .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
            .collect()
    };
    assert_eq!(nodes(&text), nodes(&again));
}

#[test]
fn play_with_hidden_information_shows_only_the_players_view() {
    let text = play(&["darkchess", "--depth", "2"], b"e2e4\nfen\npgn\nquit\n");
    // The engine's reply is announced without naming it, the FEN has unseen cells, and the
    // record (which would show the engine's move) is refused while the game is on.
    assert!(text.contains("black has moved"), "{text}");
    assert!(!text.contains("black plays"), "{text}");
    let fen = text
        .lines()
        .filter_map(|l| l.strip_prefix("white> "))
        .find(|l| l.contains(" w "))
        .expect("a FEN line");
    assert!(fen.contains('*'), "{fen}");
    assert!(
        text.contains("error: the record shows hidden moves"),
        "{text}"
    );
}

#[test]
fn search_with_hidden_information_goes_through_the_view() {
    // The rook sees the black king up the open file: the samples all take it. One info line
    // per sample, its line the voted move alone.
    let out = run(&[
        "search",
        "darkchess",
        "--fen",
        "4k3/pppp1ppp/8/8/8/8/8/4RK2 w - - 0 1",
        "--nodes",
        "4000",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"bestmove e1e8"), "{text}");
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[7].ends_with(" pv e1e8"), "{text}");
}

/// Two live Chex seeds whose first white and first black tiles are the same, so that the
/// same opening moves are legal in both, and the placements that open the game.
fn chex_seeds_with_one_view() -> (u32, u32, Vec<String>) {
    use chaturanga_rules::{Game, Position};
    use chaturanga_variants::chex::ChexPosition;
    let tops = |seed: u32| {
        let p = ChexPosition::live(seed);
        let top = |player| p.undrawn(player).unwrap().chars().next().unwrap();
        (top(0), top(1))
    };
    let first = 1;
    let second = (2..)
        .find(|&s| tops(s) == tops(first))
        .expect("two seeds agree");
    let order = |seed: u32, player| ChexPosition::live(seed).undrawn(player);
    assert!(order(first, 0) != order(second, 0) || order(first, 1) != order(second, 1));
    let mut game = Game::new(ChexPosition::live(first));
    let mut moves = Vec::new();
    for _ in 0..2 {
        for text in ["draw".to_string(), String::new()] {
            let text = if text.is_empty() {
                let legal = game.legal_moves();
                game.position().move_text(legal[legal.len() / 2])
            } else {
                text
            };
            game.play_text(&text).unwrap();
            moves.push(text);
        }
    }
    (first, second, moves)
}

#[test]
fn search_of_a_live_chex_game_reads_the_view_not_the_draw_order() {
    // Two seeds dealt the same first men and then different orders: the same view, so
    // the same samples, votes, move and node count.
    let (a, b, moves) = chex_seeds_with_one_view();
    let search = |seed: u32| {
        let option = format!("draw-seed={seed}");
        let mut args = vec!["search", "chex", "--option", &option, "--nodes", "4000"];
        args.push("--moves");
        args.extend(moves.iter().map(String::as_str));
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        // One line per sample (8 by default), each with the voted move alone.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9, "{text}");
        let last = lines[7];
        let field = |name: &str| {
            let words: Vec<&str> = last.split_whitespace().collect();
            let i = words.iter().position(|w| *w == name).unwrap();
            words[i + 1].to_string()
        };
        assert_eq!(
            last.split(" pv ").nth(1).map(|pv| pv.split(' ').count()),
            Some(1)
        );
        (
            field("score"),
            field("cp"),
            field("nodes"),
            lines[8].to_string(),
        )
    };
    assert_eq!(search(a), search(b));
}

#[test]
fn play_of_a_live_chex_game_shows_the_public_board_and_moves() {
    // The drawn man is face up and the draw order hidden from both: the board, the engine's
    // moves and the record are public.
    let (seed, _, moves) = chex_seeds_with_one_view();
    let option = format!("draw-seed={seed}");
    let script = format!("{}\n{}\npgn\nquit\n", moves[0], moves[1]);
    let text = play(
        &[
            "chex",
            "--option",
            &option,
            "--engine-plays",
            "black",
            "--nodes",
            "2000",
        ],
        script.as_bytes(),
    );
    assert!(text.contains("\ndrawn "), "{text}");
    assert!(text.contains("black plays draw"), "{text}");
    assert!(text.contains("white's reserve: "), "{text}");
    assert!(!text.contains("illegal"), "{text}");
    // The record is not withheld (its moves are all public).
    assert!(!text.contains("hidden moves"), "{text}");
}

#[test]
fn play_with_three_players_resigns_in_favour_of_a_player_the_third_confirms() {
    // Three people: a resignation must name its beneficiary; the third player refuses
    // (the resigning player then moves on) or confirms (the game ends: 0, 1, 1/2).
    let text = play(
        &["threeplayer", "--engine-plays", "none"],
        b"resign\nresign red\nmaybe\nno\nE2E4\nresign white\nyes\nquit\n",
    );
    assert!(
        text.contains("error: name the player you resign in favour of: resign red, resign black"),
        "{text}"
    );
    assert!(
        text.contains("white asks black to agree to `resign red` (yes or no)"),
        "{text}"
    );
    assert!(text.contains("error: answer yes or no"), "{text}");
    assert!(
        text.contains("black does not agree to `resign red`: the game goes on, white to move"),
        "{text}"
    );
    // Red, to move after E2E4, resigns in favour of White; Black confirms.
    assert!(
        text.contains("red asks black to agree to `resign white`"),
        "{text}"
    );
    assert!(text.contains("game over: 1-0-1/2 resignation"), "{text}");
    // The engine as the third player: it agrees at the start, a queen ahead it plays on.
    let text = play(
        &["threeplayer", "--engine-plays", "black", "--nodes", "300"],
        b"resign red\nquit\n",
    );
    assert!(text.contains("black agrees to `resign red`"), "{text}");
    assert!(text.contains("game over: 0-1-1/2 resignation"), "{text}");
    let queens_off = "1rBrNrRrKrBrNrR/rPrPrPrPrPrPrPrP/8/8/bRbNbBbKbQbBbNbR/bPbPbPbPbPbPbPbP/\
                      8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwB1wKwBwNwR w wKQ,rKQ,bKQ - 0 1";
    let text = play(
        &[
            "threeplayer",
            "--fen",
            queens_off,
            "--engine-plays",
            "black",
            "--nodes",
            "300",
        ],
        b"resign red\nquit\n",
    );
    assert!(
        text.contains("black does not agree to `resign red`: the game goes on"),
        "{text}"
    );
    assert!(!text.contains("game over"), "{text}");
    // Two players resign as before.
    let text = play(&["chess", "--engine-plays", "none"], b"resign\nquit\n");
    assert!(text.contains("game over: 0-1 resignation"), "{text}");
}
