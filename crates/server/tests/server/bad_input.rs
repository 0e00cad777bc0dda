//! Bad input: each case gets its status, a one-line error and a code of the server's list,
//! and the stored game is unchanged.

use crate::common::Server;
use serde_json::{Value, json};
use tungstenite::protocol::frame::coding::CloseCode;

fn snapshot(server: &Server, id: &str) -> (Value, Value) {
    let (_, s) = server.get(&format!("/api/games/{id}"), None);
    (s["version"].clone(), s["moves"].clone())
}

fn assert_error(case: &str, got: (u16, Value), status: u16) {
    assert_eq!(got.0, status, "{case}: {}", got.1);
    let message = got.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{case}: {}", got.1));
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "{case}: {message}"
    );
    assert_known_code(case, &got.1["code"]);
}

/// A refusal's `code` is one of the server's, which docs/server.md explains.
fn assert_known_code(case: &str, code: &Value) {
    let code = code
        .as_str()
        .unwrap_or_else(|| panic!("{case}: no code: {code}"));
    assert!(
        chaturanga_server::api::error::codes().any(|c| c == code),
        "{case}: {code} is no code of the server's list"
    );
}

#[test]
fn every_bad_request_is_refused_and_changes_nothing() {
    let server = Server::start("bad");
    let (status, created) = server.post(
        "/api/games",
        &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}], "me": 0}),
        None,
    );
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    // Before the second seat is claimed nobody moves.
    assert_error(
        "waiting for a seat",
        server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "e4"}),
            Some(&white),
        ),
        409,
    );
    let (_, joined) = server.post(&format!("/api/games/{id}/seats/1/join"), &json!({}), None);
    let black = joined["token"].as_str().unwrap().to_string();
    let (status, _) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "e4", "ply": 0}),
        Some(&white),
    );
    assert_eq!(status, 200);
    let before = snapshot(&server, &id);
    let moves = format!("/api/games/{id}/moves");
    let cases: Vec<(&str, (u16, Value), u16)> = vec![
        (
            "malformed JSON",
            server.post_raw(&moves, "{\"move\": ", Some(&black)),
            400,
        ),
        (
            "not an object",
            server.post_raw(&moves, "[1,2]", Some(&black)),
            400,
        ),
        (
            "unknown field",
            server.post(&moves, &json!({"move": "e5", "evil": 1}), Some(&black)),
            400,
        ),
        (
            "no token",
            server.post(&moves, &json!({"move": "e5"}), None),
            401,
        ),
        (
            "wrong token",
            server.post(
                &moves,
                &json!({"move": "e5"}),
                Some("0123456789abcdef0123456789abcdef"),
            ),
            401,
        ),
        (
            "out of turn",
            server.post(&moves, &json!({"move": "d4"}), Some(&white)),
            409,
        ),
        (
            "stale ply",
            server.post(&moves, &json!({"move": "e5", "ply": 0}), Some(&black)),
            409,
        ),
        (
            "illegal move",
            server.post(&moves, &json!({"move": "e4e5"}), Some(&black)),
            422,
        ),
        (
            "malformed move",
            server.post(&moves, &json!({"move": "zz9"}), Some(&black)),
            422,
        ),
        (
            "huge move",
            server.post(&moves, &json!({"move": "e".repeat(5000)}), Some(&black)),
            413,
        ),
        (
            "oversized body",
            server.post_raw(
                &moves,
                &format!("{{\"move\":\"{}\"}}", "x".repeat(40_000)),
                Some(&black),
            ),
            413,
        ),
        (
            "unknown action",
            server.post(
                &format!("/api/games/{id}/actions"),
                &json!({"action": "explode"}),
                Some(&black),
            ),
            400,
        ),
        (
            "unknown game",
            server.post(
                "/api/games/nosuchgame/moves",
                &json!({"move": "e5"}),
                Some(&black),
            ),
            404,
        ),
        ("odd game id", server.get("/api/games/..%2F..", None), 404),
        (
            "unknown record format",
            server.get(&format!("/api/games/{id}/record?format=doc"), None),
            400,
        ),
        (
            "bad listing",
            server.get("/api/games?status=everything", None),
            400,
        ),
        (
            "seat taken",
            server.post(&format!("/api/games/{id}/seats/1/join"), &json!({}), None),
            409,
        ),
        (
            "no such seat",
            server.post(&format!("/api/games/{id}/seats/7/join"), &json!({}), None),
            404,
        ),
        ("unknown page", server.get("/api/nothing", None), 404),
        // axum's own refusals, JSON like ours.
        (
            "wrong method",
            server.get(&format!("/api/games/{id}/moves"), Some(&black)),
            405,
        ),
        (
            "listing limit not a number",
            server.get("/api/games?limit=many", None),
            400,
        ),
    ];
    for (case, got, status) in cases {
        assert_error(case, got, status);
        assert_eq!(snapshot(&server, &id), before, "{case} changed the game");
    }
    let create_cases: Vec<(&str, Value, u16)> = vec![
        (
            "unknown variant",
            json!({"variant": "tictactoe", "seats": []}),
            404,
        ),
        (
            "seat count",
            json!({"variant": "chess", "seats": [{"kind": "human"}]}),
            400,
        ),
        (
            "engine level",
            json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "level": 9}]}),
            400,
        ),
        (
            "bad option",
            json!({"variant": "chess", "options": ["fide-claims=maybe"], "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
        ),
        (
            "bad FEN",
            json!({"variant": "chess", "fen": "8/8/8 w", "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
        ),
        (
            "secret option",
            json!({"variant": "chex", "options": ["draw-seed=5"], "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
        ),
        (
            "bad clock",
            json!({"variant": "chess", "clock": {"kind": "fischer", "base": 0}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
        ),
        (
            "too many options",
            json!({"variant": "chess", "options": vec!["fide-claims=on"; 17], "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
        ),
        (
            "me an engine",
            json!({"variant": "chess", "me": 1, "seats": [{"kind": "human"}, {"kind": "engine", "level": 1}]}),
            400,
        ),
    ];
    for (case, body, status) in create_cases {
        assert_error(case, server.post("/api/games", &body, None), status);
    }
    let (_, live) = server.get("/api/games?status=live", None);
    assert_eq!(
        live["games"].as_array().unwrap().len(),
        1,
        "a refused game was stored"
    );
}

#[test]
fn the_socket_refuses_bad_frames_and_floods() {
    let server = Server::start_with(
        "bad-socket",
        chaturanga_server::quota::Limits {
            socket_messages: chaturanga_server::quota::Rate::new(
                30,
                std::time::Duration::from_millis(100),
            ),
            ..chaturanga_server::quota::Limits::generous()
        },
    );
    let (id, tokens) =
        server.game_with_seats("chess", json!([{"kind": "human"}, {"kind": "human"}]), &[]);
    let white = tokens[0].clone().unwrap();
    let mut socket = server.socket(&id, Some(&white), None);
    socket.recv();
    socket.send(&json!({"t": "move", "d": {"move": "e9e10", "ply": 0, "ack": 1}}));
    let reply = socket.recv();
    assert_eq!(
        (&reply["t"], &reply["code"]),
        (&"error".into(), &"illegal".into()),
        "{reply}"
    );
    assert_eq!(reply["ack"], 1, "{reply}");
    socket
        .socket
        .send(tungstenite::Message::Text("not json".into()))
        .unwrap();
    let reply = socket.recv();
    assert_eq!(
        (&reply["t"], &reply["code"]),
        (&"error".into(), &"bad-message".into()),
        "{reply}"
    );
    // A flood is slowed down, then cut off.
    for _ in 0..200 {
        if socket
            .socket
            .send(tungstenite::Message::Text("{\"t\":\"ping\"}".into()))
            .is_err()
        {
            break;
        }
    }
    let (mut limited, mut closed_for_flooding) = (false, false);
    while let Ok(message) = socket.socket.read() {
        match message {
            tungstenite::Message::Text(text) => {
                let frame: Value = serde_json::from_str(&text).unwrap();
                if frame["code"] == "rate-limited" {
                    assert!(
                        frame["d"]
                            .as_str()
                            .unwrap()
                            .contains("too many socket messages")
                    );
                    assert!(frame["retry_after_ms"].as_u64().is_some(), "{frame}");
                    limited = true;
                }
            }
            tungstenite::Message::Close(Some(close)) => {
                closed_for_flooding = close.code == CloseCode::Policy;
            }
            _ => {}
        }
    }
    assert!(limited, "no rate limit");
    assert!(closed_for_flooding, "the flood was not cut off");
    // A frame over the cap closes the connection.
    let mut socket = server.socket(&id, Some(&white), None);
    socket.recv();
    let big = format!("{{\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(10_000));
    let _ = socket.socket.send(tungstenite::Message::Text(big.into()));
    let mut closed = false;
    for _ in 0..5 {
        match socket.socket.read() {
            Ok(tungstenite::Message::Close(_)) | Err(_) => {
                closed = true;
                break;
            }
            _ => {}
        }
    }
    assert!(closed, "an oversized frame was taken");
    let (_, s) = server.get(&format!("/api/games/{id}"), None);
    assert_eq!(s["ply"], 0);
    // A wrong socket token is refused before the upgrade.
    let url = format!("ws://{}/api/games/{id}/socket?token=bad", server.addr);
    assert!(tungstenite::connect(url).is_err());
}

/// A status and a body.
type Answer = (u16, Value);
/// A status and a code.
type Refusal = (u16, &'static str);

#[test]
fn every_refusal_carries_the_code_that_names_it() {
    let server = Server::start("codes");
    let (id, tokens) =
        server.game_with_seats("chess", json!([{"kind": "human"}, {"kind": "human"}]), &[]);
    let white = tokens[0].clone().unwrap();
    let game = |path: &str| format!("/api/games/{id}{path}");
    let code = |(status, body): (u16, Value)| -> (u16, String) {
        assert!(body["error"].is_string(), "{body}");
        (
            status,
            body["code"].as_str().unwrap_or("(none)").to_string(),
        )
    };
    let human = json!([{"kind": "human"}, {"kind": "human"}]);
    let cases: Vec<(&str, Answer, Refusal)> = vec![
        (
            "malformed JSON",
            server.post_raw(&game("/moves"), "{", Some(&white)),
            (400, "bad-json"),
        ),
        (
            "no such game",
            server.get("/api/games/nosuchgame", None),
            (404, "no-such-game"),
        ),
        (
            "a ply that is no number",
            server.get(&game("/positions/first"), None),
            (400, "bad-ply"),
        ),
        (
            "a position not reached",
            server.get(&game("/positions/5"), None),
            (404, "no-such-position"),
        ),
        (
            "a record format",
            server.get(&game("/record?format=doc"), None),
            (400, "record-format"),
        ),
        (
            "a seat that is no number",
            server.post(&game("/seats/x/join"), &json!({}), None),
            (404, "no-such-seat"),
        ),
        (
            "a page under /api",
            server.get("/api/nothing", None),
            (404, "no-such-page"),
        ),
        (
            "an unknown ruleset",
            server.post("/api/games", &json!({"variant": "tictactoe", "seats": human}), None),
            (404, "unknown-variant"),
        ),
        (
            "an engine level",
            server.post(
                "/api/games",
                &json!({"variant": "chess", "seats": [{"kind": "engine", "level": 9}, {"kind": "human"}]}),
                None,
            ),
            (400, "bad-level"),
        ),
        (
            "too many options",
            server.post(
                "/api/games",
                &json!({"variant": "chess", "options": vec!["fide-claims=on"; 17], "seats": human}),
                None,
            ),
            (400, "too-many-options"),
        ),
        (
            "a bad option",
            server.post(
                "/api/games",
                &json!({"variant": "chess", "options": ["fide-claims=maybe"], "seats": human}),
                None,
            ),
            (400, "bad-setup"),
        ),
        (
            "a bad listing",
            server.get("/api/games?status=everything", None),
            (400, "bad-status"),
        ),
        (
            "no seat's token",
            server.post(&game("/moves"), &json!({"move": "e4"}), None),
            (401, "needs-seat"),
        ),
        (
            "an illegal move",
            server.post(&game("/moves"), &json!({"move": "e2e5"}), Some(&white)),
            (422, "illegal"),
        ),
        // axum's own refusals get the code of their status.
        (
            "a method the route does not take",
            server.get(&game("/moves"), None),
            (405, "method-not-allowed"),
        ),
        (
            "a query string that does not parse",
            server.get(&game("/socket?v=soon"), None),
            (400, "bad-request"),
        ),
    ];
    for (case, got, expected) in cases {
        let got = code(got);
        assert_eq!((got.0, got.1.as_str()), expected, "{case}");
        assert_known_code(case, &Value::from(got.1));
    }
    // A body that is not JSON, and an Authorization header that is not a bearer's.
    let (status, text) = server.get_with(&game(""), &[("Authorization", "Basic x")]);
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!((status, &body["code"]), (401, &"bad-authorization".into()));
}
