//! Records people file: what a front end knows of a game (players, event, site, start, clock)
//! under each format's headers and the rule options in words, read back by our readers
//! (`chaturanga_session::load`) and by other programs': python-chess reads PGN, cshogi KIF and
//! CSA.
//!
//! `tests/oracles/record_headers.py` drives the Python programs. The test needs `python3` (or
//! `CHATURANGA_PYTHON`) with the packages of `tests/oracles/requirements.txt`; it fails, with
//! instructions, when they are missing: it never skips.

use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::{OptionValues, Reason};
use chaturanga_session::load::read_games;
use chaturanga_session::{
    Occasion, RecordFormat, Table, TimeLimit, UtcTime, open_table, option_specs,
};
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt`, or set CHATURANGA_PYTHON to a Python that has them";

/// 2026-12-07 17:03:00 UTC.
const STARTED_MS: i64 = 1_796_662_980_000;
const SITE: &str = "https://example.org/games/AbC123";

/// What the server knows of a game: started at [`STARTED_MS`] on [`SITE`].
fn known(event: &str, players: &[&str], clock: TimeLimit) -> Occasion {
    Occasion {
        event: Some(event.to_string()),
        site: Some(SITE.to_string()),
        started: UtcTime::from_unix_millis(STARTED_MS),
        players: players.iter().map(|p| p.to_string()).collect(),
        clock,
        tags: Vec::new(),
    }
}

fn fischer(base: u64, increment: u64) -> TimeLimit {
    TimeLimit::Limited(TimeControl::fischer(
        Duration::from_secs(base),
        Duration::from_secs(increment),
    ))
}

fn byo_yomi(base: u64, period: u64, periods: u32) -> TimeLimit {
    TimeLimit::Limited(TimeControl::byo_yomi(
        Duration::from_secs(base),
        Duration::from_secs(period),
        periods,
    ))
}

/// A game of `variant` under `options` after `moves`.
fn game(variant: &str, options: &[&str], moves: &[&str]) -> Box<dyn Table> {
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    let mut table = open_table(variant, &options, None).expect("the ruleset");
    for m in moves {
        table
            .play(m)
            .unwrap_or_else(|e| panic!("{variant} {m}: {e}"));
    }
    table
}

/// Every option of `variant` in force in `table`, in words, as the records write them.
fn options_in_words(variant: &str, table: &dyn Table) -> Vec<String> {
    let listed = table.options();
    option_specs(variant)
        .unwrap()
        .iter()
        .filter(|spec| !matches!(spec.values, OptionValues::Seed))
        .map(|spec| {
            let value = listed
                .iter()
                .find_map(|o| o.strip_prefix(&format!("{}=", spec.name)))
                .unwrap_or(spec.default);
            let words = spec.explain(value).expect("every option value has words");
            format!("{}: {words} ({}={value})", spec.label, spec.name)
        })
        .collect()
}

/// The record in `format`, read back with our readers: one game, the same moves, position,
/// result and options; its tags.
fn written_and_read(
    table: &dyn Table,
    format: RecordFormat,
    occasion: &Occasion,
) -> (String, Vec<(String, String)>) {
    let text = table.record(format, occasion).expect("a record");
    let name = format!("game.{}", format.extension());
    let games = read_games(Some(&name), text.as_bytes()).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    let again = &games[0].table;
    assert_eq!(again.move_texts(), table.move_texts(), "{text}");
    assert_eq!(again.fen(), table.fen(), "{text}");
    assert_eq!(again.options(), table.options(), "{text}");
    assert_eq!(
        again.finished().map(|f| f.result),
        table.finished().map(|f| f.result),
        "{text}"
    );
    (text, games[0].tags.clone())
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The comments of a PGN text's movetext before its first move, each whole.
fn pgn_comments(text: &str) -> Vec<String> {
    let movetext = &text[text.find("\n\n").expect("a header") + 2..];
    let mut comments = Vec::new();
    let mut rest = movetext;
    while let Some(body) = rest.trim_start().strip_prefix('{') {
        let end = body.find('}').expect("a closed comment");
        comments.push(body[..end].split_whitespace().collect::<Vec<_>>().join(" "));
        rest = &body[end + 1..];
    }
    comments
}

#[test]
fn pgn_carries_the_occasion_and_the_options_in_words() {
    let mut chess = game("chess", &["fide-claims=on"], &["e2e4", "e7e5", "g1f3"]);
    chess.end(Some(1), Reason::Resignation);
    let occasion = known(
        "Casual Chess game against the engine",
        &["Anonymous", "Chaturanga level 3"],
        fischer(300, 3),
    );
    let (text, tags) = written_and_read(chess.as_ref(), RecordFormat::Pgn, &occasion);
    assert!(
        text.starts_with(
            "[Event \"Casual Chess game against the engine\"]\n\
             [Site \"https://example.org/games/AbC123\"]\n\
             [Date \"2026.12.07\"]\n\
             [Round \"-\"]\n\
             [White \"Anonymous\"]\n\
             [Black \"Chaturanga level 3\"]\n\
             [Result \"1-0\"]\n\
             [UTCDate \"2026.12.07\"]\n\
             [UTCTime \"17:03:00\"]\n\
             [Variant \"Standard\"]\n\
             [TimeControl \"300+3\"]\n\
             [Termination \"resignation\"]\n\
             [RuleOptions \"fide-claims=on\"]\n\n{Draw claims: Threefold repetition "
        ),
        "{text}"
    );
    assert_eq!(
        pgn_comments(&text),
        options_in_words("chess", chess.as_ref())
    );
    assert!(text.ends_with("1. e4 e5 2. Nf3 1-0\n"), "{text}");
    assert_eq!(tag(&tags, "White"), Some("Anonymous"));
    assert_eq!(tag(&tags, "TimeControl"), Some("300+3"));

    // Xiangqi's clock of a fixed time per move; three-player chess's third seat.
    let xiangqi = game("xiangqi", &[], &["h3e3"]);
    let (text, _) = written_and_read(
        xiangqi.as_ref(),
        RecordFormat::Pgn,
        &known(
            "Casual Xiangqi game",
            &["Anonymous", "Anonymous"],
            byo_yomi(0, 30, 1),
        ),
    );
    for line in [
        "[Event \"Casual Xiangqi game\"]\n",
        "[Black \"Anonymous\"]\n[Result \"*\"]\n",
        "[Variant \"Xiangqi\"]\n[TimeControl \"0+0|30\"]\n",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert_eq!(
        pgn_comments(&text),
        options_in_words("xiangqi", xiangqi.as_ref())
    );
    let three = game("threeplayer", &[], &[]);
    let (text, tags) = written_and_read(
        three.as_ref(),
        RecordFormat::Pgn,
        &known(
            "Casual Three-Player Chess game",
            &["A", "B", "C"],
            TimeLimit::Unlimited,
        ),
    );
    assert!(
        text.contains("[White \"A\"]\n[Black \"C\"]\n[Result \"*\"]\n[Red \"B\"]\n"),
        "{text}"
    );
    assert_eq!(tag(&tags, "TimeControl"), Some("-"));
}

#[test]
fn kif_and_csa_carry_the_occasion_and_the_options_in_words() {
    // Sente, to move, resigns: KIF's 投了 is the move of the player to move.
    let mut shogi = game("shogi", &["impasse=declare27"], &["7g7f", "3c3d"]);
    shogi.end(Some(0), Reason::Resignation);
    let occasion = known(
        "Casual Shogi game against the engine",
        &["Anonymous", "Chaturanga level 3"],
        byo_yomi(600, 30, 1),
    );
    let words = options_in_words("shogi", shogi.as_ref());
    let (kif, tags) = written_and_read(shogi.as_ref(), RecordFormat::Kif, &occasion);
    let comments: String = words.iter().map(|w| format!("*{w}\n")).collect();
    assert!(
        kif.starts_with(&format!(
            "開始日時：2026/12/07 17:03:00\n\
             棋戦：Casual Shogi game against the engine\n\
             場所：https://example.org/games/AbC123\n\
             持ち時間：10分+30秒\n\
             RuleOptions：impasse=declare27\n\
             手合割：平手\n\
             先手：Anonymous\n\
             後手：Chaturanga level 3\n\
             {comments}手数----指手---------消費時間--\n"
        )),
        "{kif}"
    );
    assert_eq!(tag(&tags, "Date"), Some("2026/12/07 17:03:00"));
    assert_eq!(tag(&tags, "持ち時間"), Some("10分+30秒"));
    let (csa, tags) = written_and_read(shogi.as_ref(), RecordFormat::Csa, &occasion);
    let comments: String = words.iter().map(|w| format!("'{w}\n")).collect();
    assert!(
        csa.starts_with(&format!(
            "V2.2\n\
             N+Anonymous\n\
             N-Chaturanga level 3\n\
             $EVENT:Casual Shogi game against the engine\n\
             $SITE:https://example.org/games/AbC123\n\
             $START_TIME:2026/12/07 17:03:00\n\
             $TIME_LIMIT:00:10+30\n\
             'RuleOptions:impasse=declare27\n\
             {comments}PI\n+\n+7776FU\n-3334FU\n%TORYO\n"
        )),
        "{csa}"
    );
    assert_eq!(tag(&tags, "White"), Some("Chaturanga level 3"));
    assert_eq!(tag(&tags, "TIME_LIMIT"), Some("00:10+30"));
}

#[test]
fn bpgn_carries_the_occasion_and_the_options_in_words() {
    let bughouse = game("bughouse", &[], &["e2e4", "d2d4"]);
    let occasion = known(
        "Casual Bughouse game",
        &["P1", "P2", "P3", "P4"],
        fischer(180, 0),
    );
    let (text, tags) = written_and_read(bughouse.as_ref(), RecordFormat::Bpgn, &occasion);
    assert!(
        text.starts_with(
            "[Event \"Casual Bughouse game\"]\n\
             [Site \"https://example.org/games/AbC123\"]\n\
             [Date \"2026.12.07\"]\n\
             [Round \"-\"]\n\
             [WhiteA \"P1\"]\n\
             [BlackA \"P3\"]\n\
             [WhiteB \"P2\"]\n\
             [BlackB \"P4\"]\n\
             [Result \"*\"]\n"
        ),
        "{text}"
    );
    let after = "[UTCDate \"2026.12.07\"]\n[UTCTime \"17:03:00\"]\n[TimeControl \"180+0\"]\n";
    assert!(text.contains(after), "{after} in {text}");
    assert_eq!(
        pgn_comments(&text),
        options_in_words("bughouse", bughouse.as_ref())
    );
    assert_eq!(tag(&tags, "BlackB"), Some("P4"));
    // Turn-based bughouse's clock is a deadline per slot, which BPGN's `TimeControl` cannot
    // say: its options (in words too) do.
    let turns = game("bughouse", &["timing=turn-based"], &[]);
    let (text, _) = written_and_read(
        turns.as_ref(),
        RecordFormat::Bpgn,
        &known("Casual Bughouse game", &[], byo_yomi(0, 86_400, 1)),
    );
    assert!(!text.contains("[TimeControl "), "{text}");
    assert!(
        text.contains("{Timing: Turns come in a fixed cycle"),
        "{text}"
    );
}

fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Runs the oracle over `(id, reader, record)`; returns what each reader read, by id and key.
fn oracle(records: &[(&str, &str, &str)]) -> HashMap<(String, String), String> {
    let python = std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/record_headers.py"
    );
    let mut child = Command::new(&python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; install Python 3 and {INSTALL}"));
    let input: String = records
        .iter()
        .map(|(id, reader, text)| format!("{id}\t{reader}\t{}\n", hex(text)))
        .collect();
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the oracle runs");
    assert!(
        output.status.success(),
        "the record readers failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    writer
        .join()
        .expect("the writer")
        .expect("the oracle reads its input");
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| {
            let mut fields = line.splitn(3, '\t');
            let mut next = || fields.next().expect("id, key and value").to_string();
            let (id, key, value) = (next(), next(), next());
            ((id, key), unescape(&value))
        })
        .collect()
}

#[test]
fn other_programs_read_the_headers() {
    let mut chess = game("chess", &[], &["e2e4", "e7e5", "g1f3", "b8c6"]);
    chess.end(Some(0), Reason::Resignation);
    let chess_occasion = known(
        "Casual Chess game against the engine",
        &["Chaturanga level 3", "Anonymous"],
        fischer(300, 3),
    );
    let pgn = chess.record(RecordFormat::Pgn, &chess_occasion).unwrap();
    let mut shogi = game("shogi", &[], &["7g7f", "3c3d", "8h2b+", "3a2b"]);
    shogi.end(Some(0), Reason::Resignation);
    let shogi_occasion = known(
        "Casual Shogi game",
        &["Anonymous", "Sente's friend"],
        byo_yomi(600, 30, 1),
    );
    let kif = shogi.record(RecordFormat::Kif, &shogi_occasion).unwrap();
    let csa = shogi.record(RecordFormat::Csa, &shogi_occasion).unwrap();
    let read = oracle(&[
        ("chess", "python-chess", &pgn),
        ("kif", "cshogi-kif", &kif),
        ("csa", "cshogi-csa", &csa),
    ]);
    let get = |id: &str, key: &str| {
        read.get(&(id.to_string(), key.to_string()))
            .map(String::as_str)
            .unwrap_or_else(|| panic!("{id}: nothing read for {key}; read {read:?}"))
    };
    // python-chess: the roster and the tags after it, the options in words as the game's
    // comment, the moves, and the time control as a standard one.
    for (name, value) in [
        ("Event", "Casual Chess game against the engine"),
        ("Site", SITE),
        ("Date", "2026.12.07"),
        ("Round", "-"),
        ("White", "Chaturanga level 3"),
        ("Black", "Anonymous"),
        ("Result", "0-1"),
        ("UTCDate", "2026.12.07"),
        ("UTCTime", "17:03:00"),
        ("TimeControl", "300+3"),
        ("Termination", "resignation"),
    ] {
        assert_eq!(
            get("chess", &format!("header:{name}")),
            value,
            "{name}: {pgn}"
        );
    }
    let comment: Vec<&str> = get("chess", "comment").split_whitespace().collect();
    let words = options_in_words("chess", chess.as_ref()).join(" ");
    assert_eq!(
        comment,
        words.split_whitespace().collect::<Vec<_>>(),
        "{pgn}"
    );
    assert_eq!(get("chess", "moves"), "e2e4 e7e5 g1f3 b8c6");
    assert_eq!(get("chess", "time_control"), "BLITZ 0/300+3");
    // cshogi: the players, the start time, the header items and the comments.
    for id in ["kif", "csa"] {
        assert_eq!(get(id, "name:0"), "Anonymous");
        assert_eq!(get(id, "name:1"), "Sente's friend");
        assert_eq!(get(id, "moves"), "7g7f 3c3d 8h2b+ 3a2b");
        assert_eq!(
            get(id, "sfen"),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
        let comment = get(id, "comment");
        for words in options_in_words("shogi", shogi.as_ref()) {
            assert!(comment.contains(&words), "{id}: {words} in {comment:?}");
        }
    }
    assert_eq!(get("kif", "starttime"), "2026/12/07 17:03:00");
    for (key, value) in [
        ("開始日時", "2026/12/07 17:03:00"),
        ("棋戦", "Casual Shogi game"),
        ("場所", SITE),
        ("持ち時間", "10分+30秒"),
    ] {
        assert_eq!(get("kif", &format!("var:{key}")), value, "{kif}");
    }
    for (key, value) in [
        ("EVENT", "Casual Shogi game"),
        ("SITE", SITE),
        ("START_TIME", "2026/12/07 17:03:00"),
        ("TIME_LIMIT", "00:10+30"),
    ] {
        assert_eq!(get("csa", &format!("var:{key}")), value, "{csa}");
    }
}
