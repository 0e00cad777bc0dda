//! `GET /api/games/{id}/record`: what only the server knows of a game goes into its records
//! (the players, the event, the game's address, the day it started, the clock), in each
//! format's own headers.

use crate::common::Server;
use chaturanga_session::UtcTime;
use serde_json::{Value, json};
use std::time::{SystemTime, UNIX_EPOCH};

fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    i64::try_from(since.as_millis()).expect("in range")
}

/// Creates a game; returns its id.
fn create(server: &Server, body: Value) -> String {
    let (status, created) = server.post("/api/games", &body, None);
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().expect("id").to_string()
}

fn record(server: &Server, id: &str, format: &str) -> String {
    let (status, text) = server.get_with(&format!("/api/games/{id}/record?format={format}"), &[]);
    assert_eq!(status, 200, "{text}");
    text
}

/// The day (UTC) a game created between `before` and `after` started, in `format`.
fn days(before: i64, after: i64, format: fn(&UtcTime) -> String) -> [String; 2] {
    [before, after].map(|ms| format(&UtcTime::from_unix_millis(ms).expect("a date")))
}

#[test]
fn records_name_the_players_the_event_the_day_and_the_clock() {
    let server = Server::start("records");
    let before = now_ms();
    let chess = create(
        &server,
        json!({"variant": "chess", "me": 0,
               "seats": [{"kind": "human"}, {"kind": "engine", "level": 2}],
               "clock": {"kind": "fischer", "base": 300, "increment": 3}}),
    );
    let shogi = create(
        &server,
        json!({"variant": "shogi", "me": 0, "seats": [{"kind": "human"}, {"kind": "human"}],
               "clock": {"kind": "byoyomi", "base": 600, "period": 30}}),
    );
    let xiangqi = create(
        &server,
        json!({"variant": "xiangqi", "me": 0, "seats": [{"kind": "human"}, {"kind": "human"}]}),
    );
    let after = now_ms();
    let base = format!("http://{}", server.addr);

    let pgn = record(&server, &chess, "pgn");
    let dates = days(before, after, UtcTime::pgn_date);
    let date = dates
        .iter()
        .find(|d| pgn.contains(&format!("[Date \"{d}\"]\n")))
        .unwrap_or_else(|| panic!("a Date of {dates:?} in {pgn}"));
    let roster = format!(
        "[Event \"Casual Chess game against the engine\"]\n\
         [Site \"{base}/games/{chess}\"]\n\
         [Date \"{date}\"]\n\
         [Round \"-\"]\n\
         [White \"Anonymous\"]\n\
         [Black \"Chaturanga level 2\"]\n\
         [Result \"*\"]\n\
         [UTCDate \"{date}\"]\n\
         [UTCTime \""
    );
    assert!(pgn.starts_with(&roster), "{pgn}");
    assert!(
        pgn.contains("[Variant \"Standard\"]\n[TimeControl \"300+3\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.contains("\n\n{Draw claims: Draws by threefold"),
        "{pgn}"
    );

    // Behind a proxy that ends TLS, the game's address is the one the player used.
    let (status, proxied) = server.get_with(
        &format!("/api/games/{chess}/record"),
        &[
            ("Host", "Chess.Example.org"),
            ("X-Forwarded-Proto", "https"),
        ],
    );
    assert_eq!(status, 200, "{proxied}");
    assert!(
        proxied.contains(&format!(
            "[Site \"https://chess.example.org/games/{chess}\"]\n"
        )),
        "{proxied}"
    );

    let kif = record(&server, &shogi, "kif");
    let starts = days(before, after, UtcTime::slashed);
    assert!(
        starts
            .iter()
            .any(|s| kif.starts_with(&format!("開始日時：{}", &s[..11]))),
        "a start of {starts:?} in {kif}"
    );
    for line in [
        "\n棋戦：Casual Shogi game\n".to_string(),
        format!("\n場所：{base}/games/{shogi}\n"),
        "\n持ち時間：10分+30秒\n".to_string(),
        "\n手合割：平手\n先手：Anonymous\n後手：Anonymous\n".to_string(),
    ] {
        assert!(kif.contains(&line), "{line} in {kif}");
    }
    let csa = record(&server, &shogi, "csa");
    for line in [
        "V2.2\nN+Anonymous\nN-Anonymous\n$EVENT:Casual Shogi game\n".to_string(),
        format!("\n$SITE:{base}/games/{shogi}\n$START_TIME:"),
        "\n$TIME_LIMIT:00:10+30\n".to_string(),
    ] {
        assert!(csa.contains(&line), "{line} in {csa}");
    }

    // The event in Hungarian, with the ruleset's Hungarian name; any other language is
    // English.
    for (id, format, event) in [
        (
            &xiangqi,
            "pgn",
            "[Event \"Hsziangcsi – barátságos játszma\"]\n",
        ),
        (
            &chess,
            "pgn",
            "[Event \"Sakk – barátságos játszma a gép ellen\"]\n",
        ),
        (&shogi, "kif", "\n棋戦：Sógi – barátságos játszma\n"),
    ] {
        let text = record(&server, id, &format!("{format}&lang=hu"));
        assert!(text.contains(event), "{event} in {text}");
    }
    let odd = record(&server, &xiangqi, "pgn&lang=xx-YY");
    assert!(odd.contains("[Event \"Casual Xiangqi game\"]\n"), "{odd}");

    let untimed = record(&server, &xiangqi, "pgn");
    for line in [
        "[Event \"Casual Xiangqi game\"]\n",
        "[White \"Anonymous\"]\n[Black \"Anonymous\"]\n",
        "[TimeControl \"-\"]\n",
    ] {
        assert!(untimed.contains(line), "{line} in {untimed}");
    }
}
