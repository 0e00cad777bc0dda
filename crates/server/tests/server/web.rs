//! The web client's files and pages, and the positions a client steps through.

use crate::common::Server;
use serde_json::json;

#[test]
fn pages_answer_with_the_client_and_files_are_embedded() {
    let server = Server::start("web-pages");
    for page in ["/", "/archive", "/rules", "/rules/chess", "/games/anything"] {
        let (status, body) = server.get(page, None);
        assert_eq!(status, 200, "{page}");
        let html = body.as_str().expect("HTML, not JSON");
        assert!(
            html.contains("/static/js/main.js"),
            "{page} loads the client"
        );
    }
    for file in [
        "/static/js/main.js",
        "/static/js/board.js",
        "/static/js/pieces.js",
        "/static/css/main.css",
        "/static/rules/xiangqi.html",
    ] {
        let (status, body) = server.get(file, None);
        assert_eq!(status, 200, "{file}");
        assert!(
            !body.as_str().unwrap_or("").is_empty(),
            "{file} has content"
        );
    }
    // Every ruleset has its rules page.
    let (_, variants) = server.get("/api/variants", None);
    for v in variants["variants"].as_array().expect("variants") {
        let id = v["id"].as_str().expect("id");
        let (status, body) = server.get(&format!("/static/rules/{id}.html"), None);
        assert_eq!(status, 200, "rules of {id}");
        let english = body.as_str().unwrap_or("").to_string();
        assert!(english.contains("class=\"summary\""), "{id}'s summary");
        // And in Hungarian, with the same sections in the same order.
        let (status, body) = server.get(&format!("/static/rules/hu/{id}.html"), None);
        assert_eq!(status, 200, "Hungarian rules of {id}");
        let hungarian = body.as_str().unwrap_or("").to_string();
        assert!(
            hungarian.contains("class=\"summary\""),
            "{id}'s Hungarian summary"
        );
        let sections = |html: &str| -> Vec<String> {
            html.split("<h2")
                .skip(1)
                .map(|h| h.split('>').next().unwrap_or("").to_string())
                .collect()
        };
        assert!(sections(&english).contains(&" data-section=\"End of game\"".to_string()));
        assert_eq!(sections(&hungarian), sections(&english), "{id}: sections");
        assert_ne!(hungarian, english, "{id}: translated");
    }
    let (status, body) = server.get("/static/../Cargo.toml", None);
    assert_eq!(status, 404, "{body}");
    let (status, _) = server.get("/static/js/nothing.js", None);
    assert_eq!(status, 404);
}

#[test]
fn games_for_a_friend_are_not_listed() {
    let server = Server::start("web-listed");
    let mut ids = Vec::new();
    for listed in [true, false] {
        let (status, made) = server.post(
            "/api/games",
            &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}],
                    "me": 0, "listed": listed}),
            None,
        );
        assert_eq!(status, 201, "{made}");
        ids.push(made["id"].as_str().expect("id").to_string());
    }
    for status in ["open", "live"] {
        let (_, listing) = server.get(&format!("/api/games?status={status}"), None);
        let shown: Vec<&str> = listing["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["id"].as_str())
            .collect();
        assert_eq!(shown, vec![ids[0].as_str()], "{status}");
    }
    // The link still works: the friend joins the unlisted game.
    let (status, joined) = server.post(
        &format!("/api/games/{}/seats/1/join", ids[1]),
        &json!({}),
        None,
    );
    assert_eq!(status, 200, "{joined}");
}

#[test]
fn positions_step_through_a_game_as_the_viewer_saw_it() {
    let server = Server::start("web-positions");
    let (id, tokens) = server.game_with_seats(
        "darkchess",
        json!([{"kind": "human"}, {"kind": "human"}]),
        &[],
    );
    let white = tokens[0].as_deref();
    let black = tokens[1].as_deref();
    for (n, (text, token)) in [("e2e4", white), ("e7e5", black), ("g1f3", white)]
        .into_iter()
        .enumerate()
    {
        let (status, body) = server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": n}),
            token,
        );
        assert_eq!(status, 200, "{body}");
    }
    // Ply 1 as white saw it: the pawn on e4, the move's shape.
    let (status, past) = server.get(&format!("/api/games/{id}/positions/1"), white);
    assert_eq!(status, 200, "{past}");
    assert_eq!(past["ply"], 1);
    let men = past["boards"][0]["men"].as_array().expect("men");
    assert!(men.iter().any(|m| m["cell"] == "e4" && m["piece"] == "P"));
    assert_eq!(past["last_move"]["from"], "e2");
    assert!(
        past["boards"][0]["fog"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
    );
    // Ply 2 as white: black's move is not shown, and black's men in the fog are not sent.
    let (_, past) = server.get(&format!("/api/games/{id}/positions/2"), white);
    assert!(past["last_move"].is_null(), "{past}");
    let fog: Vec<&str> = past["boards"][0]["fog"]
        .as_array()
        .expect("fog")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    for man in past["boards"][0]["men"].as_array().expect("men") {
        assert!(
            !fog.contains(&man["cell"].as_str().unwrap_or("")),
            "{man} in the fog"
        );
    }
    // A spectator sees no man while the game goes on.
    let (_, watched) = server.get(&format!("/api/games/{id}/positions/3"), None);
    assert_eq!(
        watched["boards"][0]["men"].as_array().map(Vec::len),
        Some(0)
    );
    // Past the end, and not a number: clear errors.
    let (status, body) = server.get(&format!("/api/games/{id}/positions/4"), white);
    assert_eq!(status, 404, "{body}");
    assert!(body["error"].as_str().unwrap_or("").contains("3"), "{body}");
    let (status, body) = server.get(&format!("/api/games/{id}/positions/x"), white);
    assert_eq!(status, 400, "{body}");
}

#[test]
fn moves_come_as_people_read_them_too() {
    let server = Server::start("web-notation");
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    let (id, tokens) = server.game_with_seats("chess", seats.clone(), &[]);
    for (n, text) in ["f2f3", "e7e5", "g2g4", "d8h4"].into_iter().enumerate() {
        let (status, body) = server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": n}),
            tokens[n % 2].as_deref(),
        );
        assert_eq!(status, 200, "{body}");
    }
    let (_, state) = server.get(&format!("/api/games/{id}"), None);
    assert_eq!(state["moves"], json!(["f2f3", "e7e5", "g2g4", "d8h4"]));
    assert_eq!(state["notation"], json!(["f3", "e5", "g4", "Qh4#"]));
    // Shogi reads as SAN does in western shogi notation.
    let (id, tokens) = server.game_with_seats("shogi", seats.clone(), &[]);
    let (_, state) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "7g7f", "ply": 0}),
        tokens[0].as_deref(),
    );
    assert_eq!(state["notation"], json!(["P7f"]));
    // Dark chess keeps its coordinate texts, and hidden moves stay hidden.
    let (id, tokens) = server.game_with_seats("darkchess", seats, &[]);
    for (n, text) in ["e2e4", "d7d5", "e4d5"].into_iter().enumerate() {
        server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": n}),
            tokens[n % 2].as_deref(),
        );
    }
    let (_, state) = server.get(&format!("/api/games/{id}"), tokens[0].as_deref());
    assert_eq!(state["notation"], json!(["e2e4", null, "e4d5"]));
}
