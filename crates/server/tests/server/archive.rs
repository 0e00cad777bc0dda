//! The archive: finished games paged by a cursor, newest first, filtered by ruleset and
//! opponent, each with its players and result; bad queries refused with their codes.

use crate::common::Server;
use chaturanga_rules::Reason;
use chaturanga_server::store::{
    Change, Ending, EventRow, GameRow, GameStatus, Pending, SeatKind, SeatRow, Store,
};
use serde_json::{Value, json};

/// A listed game of `variant` with `seats` (people's seats claimed), `plies` moves played by
/// the people's seats in turn from the first (each its first legal move), then given up by
/// the seat to move: its id.
fn resigned_game(server: &Server, variant: &str, seats: Value, plies: usize) -> String {
    let (id, tokens) = server.game_with_seats(variant, seats, &[]);
    for ply in 0..plies {
        let token = tokens[ply % 2].as_deref().expect("a person's seat");
        let (_, state) = server.get(&format!("/api/games/{id}"), Some(token));
        let text = &state["legal"][0]["text"];
        let (status, state) = server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": ply}),
            Some(token),
        );
        assert_eq!(status, 200, "{state}");
    }
    let token = tokens[plies % 2].as_deref().expect("a person's seat");
    let (status, state) = server.post(
        &format!("/api/games/{id}/actions"),
        &json!({"action": "resign"}),
        Some(token),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["status"], "finished", "{state}");
    id
}

fn people() -> Value {
    json!([{"kind": "human"}, {"kind": "human"}])
}

fn against_engine(level: u8) -> Value {
    json!([{"kind": "human"}, {"kind": "engine", "level": level}])
}

/// A page of the archive: `GET /api/games?status=finished&{query}`, which must answer.
fn archive(server: &Server, query: &str) -> Value {
    let (status, page) = server.get(&format!("/api/games?status=finished&{query}"), None);
    assert_eq!(status, 200, "{query}: {page}");
    page
}

fn ids(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["id"].as_str().expect("id").to_string())
        .collect()
}

/// Every game of the archive under `query`, read `limit` at a time from `before` on.
fn every_page(server: &Server, query: &str, limit: usize, before: Option<&str>) -> Vec<String> {
    let mut all = Vec::new();
    let mut before = before.map(str::to_string);
    for _ in 0..100 {
        let cursor = before
            .as_deref()
            .map_or(String::new(), |b| format!("&before={b}"));
        let page = archive(server, &format!("{query}&limit={limit}{cursor}"));
        let shown = ids(&page);
        assert!(shown.len() <= limit, "{page}");
        all.extend(shown);
        match page["next"].as_str() {
            Some(next) => before = Some(next.to_string()),
            None => {
                assert!(page["next"].is_null(), "{page}");
                return all;
            }
        }
    }
    panic!("the pages never end");
}

#[test]
fn the_archive_pages_filters_and_shows_players_and_results() {
    let server = Server::start("archive");
    let opening = resigned_game(&server, "chess", people(), 1);
    let engine_chess = resigned_game(&server, "chess", against_engine(3), 0);
    let engine_shogi = resigned_game(&server, "shogi", against_engine(2), 0);
    let xiangqi = resigned_game(&server, "xiangqi", people(), 2);
    let shogi = resigned_game(&server, "shogi", people(), 0);
    // Drawn by agreement.
    let (drawn, tokens) = server.game_with_seats("chess", people(), &[]);
    for (seat, action) in [(0, "draw-offer"), (1, "draw-accept")] {
        let (status, state) = server.post(
            &format!("/api/games/{drawn}/actions"),
            &json!({ "action": action }),
            tokens[seat].as_deref(),
        );
        assert_eq!(status, 200, "{state}");
    }
    // Not in the archive: an aborted game, one for a friend, one going on.
    let (aborted, tokens) = server.game_with_seats("chess", people(), &[]);
    let (status, state) = server.post(
        &format!("/api/games/{aborted}/actions"),
        &json!({"action": "abort"}),
        tokens[0].as_deref(),
    );
    assert_eq!(
        (status, &state["status"]),
        (200, &json!("aborted")),
        "{state}"
    );
    let (status, made) = server.post(
        "/api/games",
        &json!({"variant": "chess", "seats": people(), "me": 0, "listed": false}),
        None,
    );
    assert_eq!(status, 201, "{made}");
    let unlisted = made["id"].as_str().expect("id").to_string();
    let (status, state) = server.post(
        &format!("/api/games/{unlisted}/seats/1/join"),
        &json!({}),
        None,
    );
    assert_eq!(status, 200, "{state}");
    let (status, state) = server.post(
        &format!("/api/games/{unlisted}/actions"),
        &json!({"action": "resign"}),
        made["token"].as_str(),
    );
    assert_eq!(status, 200, "{state}");
    let (live, _) = server.game_with_seats("chess", people(), &[]);

    let all = archive(&server, "limit=100");
    let games = all["games"].as_array().expect("games");
    let shown = ids(&all);
    let mut finished = vec![
        &opening,
        &engine_chess,
        &engine_shogi,
        &xiangqi,
        &shogi,
        &drawn,
    ];
    finished.sort();
    let mut sorted = shown.iter().collect::<Vec<_>>();
    sorted.sort();
    assert_eq!(sorted, finished, "{all}");
    for other in [&aborted, &unlisted, &live] {
        assert!(!shown.contains(other), "{other}: {all}");
    }
    assert!(all["next"].is_null(), "{all}");
    // The last to end first; the id orders games that ended in the same millisecond.
    let key = |g: &Value| {
        (
            g["finished_ms"].as_i64().expect("finished_ms"),
            g["id"].to_string(),
        )
    };
    for pair in games.windows(2) {
        assert!(key(&pair[0]) > key(&pair[1]), "{all}");
    }

    // The players by seat, the result and the moves.
    let summary = |id: &str| {
        games
            .iter()
            .find(|g| g["id"] == id)
            .expect("listed")
            .clone()
    };
    let g = summary(&engine_shogi);
    assert_eq!(g["variant"], "shogi");
    assert_eq!(g["player_names"], json!(["black", "white"]));
    assert_eq!(
        g["seats"],
        json!([
            {"seat": 0, "player": "black", "kind": "human", "level": null, "joined": true},
            {"seat": 1, "player": "white", "kind": "engine", "level": 2, "joined": true},
        ])
    );
    assert_eq!(
        (
            &g["status"],
            &g["result"],
            &g["reason"],
            &g["scores"],
            &g["ply"]
        ),
        (
            &json!("finished"),
            &json!("0-1"),
            &json!("resignation"),
            &json!([0, 4]),
            &json!(0)
        ),
        "{g}"
    );
    assert!(g["finished_ms"].as_i64() >= g["created_ms"].as_i64(), "{g}");
    let g = summary(&opening);
    assert_eq!(
        (&g["ply"], &g["scores"]),
        (&json!(1), &json!([4, 0])),
        "{g}"
    );
    let g = summary(&drawn);
    assert_eq!(
        (&g["result"], &g["reason"], &g["scores"]),
        (&json!("1/2-1/2"), &json!("agreement"), &json!([2, 2])),
        "{g}"
    );
    assert_eq!(summary(&xiangqi)["player_names"], json!(["red", "black"]));

    // Page by page, every game once, in the same order, whatever the page's size.
    for limit in [1, 2, 4, 5, 6] {
        assert_eq!(every_page(&server, "", limit, None), shown, "by {limit}");
    }
    // Filtered, on the server: the same order, only the games asked for.
    let only = |keep: &[&String]| -> Vec<String> {
        shown
            .iter()
            .filter(|id| keep.contains(id))
            .cloned()
            .collect()
    };
    let cases = [
        ("variant=shogi", only(&[&engine_shogi, &shogi])),
        ("opponent=engine", only(&[&engine_chess, &engine_shogi])),
        (
            "opponent=people",
            only(&[&opening, &xiangqi, &shogi, &drawn]),
        ),
        ("variant=chess&opponent=people", only(&[&opening, &drawn])),
        ("variant=chess&opponent=engine", only(&[&engine_chess])),
        ("variant=capablanca", Vec::new()),
        // An empty value is no filter (a form's "any").
        ("variant=&opponent=", shown.clone()),
    ];
    for (query, want) in cases {
        for limit in [1, 3, 100] {
            assert_eq!(
                every_page(&server, query, limit, None),
                want,
                "{query} by {limit}"
            );
        }
    }

    // A game that ends while someone pages comes before the first page, not into the next.
    let first = archive(&server, "limit=2");
    let later = resigned_game(&server, "chess", people(), 1);
    let mut paged = ids(&first);
    paged.extend(every_page(&server, "", 2, first["next"].as_str()));
    assert_eq!(paged, shown);
    assert_eq!(ids(&archive(&server, "limit=1")), [later]);
}

/// A finished game of chess straight into the store, `n` in its id.
fn stored_game(n: usize) -> (GameRow, Change) {
    let seat = SeatRow {
        kind: SeatKind::Human,
        token_hash: None,
        arrived: true,
    };
    let game = GameRow {
        id: format!("stored{n:03}"),
        variant: "chess".into(),
        options: Vec::new(),
        fen: None,
        clock: None,
        status: GameStatus::Live,
        ending: None,
        version: 1,
        clock_state: None,
        pending: Pending::default(),
        created_ms: 1_000,
        active_ms: 1_000,
        listed: true,
        rematch: None,
        creator: None,
        owner_hash: None,
        seats: vec![seat.clone(), seat],
        moves: Vec::new(),
    };
    let event = |v| EventRow {
        v,
        t: "x".into(),
        data: "{}".into(),
        only_seat: None,
    };
    let end = Change {
        status: Some(GameStatus::Finished),
        ending: Some(Ending {
            result: "1-0".into(),
            quarters: vec![4, 0],
            reason: Reason::Resignation,
        }),
        events: vec![event(2)],
        ..Change::default()
    };
    (game, end)
}

#[test]
fn bad_archive_queries_are_refused_with_their_codes_and_pages_are_capped() {
    let server = Server::start("archive-bad");
    let long = "a".repeat(5_000);
    let cases = [
        ("status=finished&before=yesterday", "bad-cursor"),
        ("status=finished&before=-1.abc", "bad-cursor"),
        ("status=finished&before=1.a%27b", "bad-cursor"),
        ("status=finished&before=1.", "bad-cursor"),
        (&format!("status=finished&before=1.{long}"), "bad-cursor"),
        ("status=live&before=1.abc", "bad-cursor"),
        ("status=open&before=1.abc", "bad-cursor"),
        ("status=finished&variant=tictactoe", "unknown-variant"),
        (
            &format!("status=finished&variant={long}"),
            "unknown-variant",
        ),
        ("status=live&variant=CHESS", "unknown-variant"),
        ("status=finished&opponent=robots", "bad-opponent"),
        ("status=finished&opponent=Engine", "bad-opponent"),
        ("status=finished&limit=many", "bad-limit"),
        ("status=finished&limit=-5", "bad-limit"),
        ("status=finished&limit=1.5", "bad-limit"),
        ("status=everything", "bad-status"),
    ];
    for (query, code) in cases {
        let (status, error) = server.get(&format!("/api/games?{query}"), None);
        let shown = query.chars().take(60).collect::<String>();
        assert_eq!(status, 400, "{shown}: {error}");
        assert_eq!(error["code"], code, "{shown}: {error}");
        let message = error["error"].as_str().expect("a message");
        assert!(
            !message.is_empty() && message.len() < 150,
            "{shown}: {message}"
        );
    }

    // More games than a page may hold: at most 100, then the rest.
    let store = Store::open(&server.db).expect("the store");
    for n in 0..105 {
        let (game, end) = stored_game(n);
        store.create(&game, &[]).expect("create");
        store.commit(&game.id, 1, &end).expect("finish");
    }
    let page = archive(&server, "limit=1000");
    assert_eq!(page["games"].as_array().map(Vec::len), Some(100));
    let next = page["next"].as_str().expect("more");
    let rest = archive(&server, &format!("before={next}&limit=1000"));
    assert_eq!(rest["games"].as_array().map(Vec::len), Some(5));
    assert!(rest["next"].is_null());
    assert_eq!(
        archive(&server, "")
            .get("games")
            .map(|g| g.as_array().map(Vec::len)),
        Some(Some(50))
    );
    assert_eq!(ids(&archive(&server, "limit=0")).len(), 1);
    // Live games filter by ruleset and opponent too.
    let (status, live) = server.get("/api/games?status=live&variant=chess&opponent=people", None);
    assert_eq!(status, 200, "{live}");
    assert!(live["next"].is_null());
}
