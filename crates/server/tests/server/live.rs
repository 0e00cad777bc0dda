//! Live games end to end over real HTTP and websockets: engine seats, reconnecting with a
//! version, takebacks, draws, resignation, a flag falling on the server's clock, rematches,
//! and what a hidden-information seat receives. The rules themselves (clocks, windows,
//! offers, abandonment) are the referee's unit tests, with made-up instants.

use crate::common::{Rng, Server};
use chaturanga_rules::Reason;
use chaturanga_rules::scene::Viewer;
use chaturanga_server::clock::MAX_GRACE;
use chaturanga_server::store::GameStatus;
use chaturanga_session::open_table;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn state(server: &Server, id: &str, token: Option<&str>) -> Value {
    let (status, state) = server.get(&format!("/api/games/{id}"), token);
    assert_eq!(status, 200, "{state}");
    state
}

/// Waits until `token`'s seat is to move or the game is over; returns the state.
fn wait_for_turn(server: &Server, id: &str, token: &str, seat: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(server, id, Some(token));
        // In real-time bughouse the seat may be one of two to move, and may wait for a piece.
        let moving = s["to_move"]
            .as_array()
            .is_some_and(|m| m.contains(&json!(seat)))
            && s["legal"].as_array().is_some_and(|l| !l.is_empty());
        if s["status"] != "ongoing" || moving {
            return s;
        }
        assert!(Instant::now() < deadline, "the engine did not move: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn play_against_engines(variant: &str, seats: Value, me: usize, plies: usize) {
    let server = Server::start(&format!("engine-{variant}"));
    let (id, tokens) = server.game_with_seats(variant, seats, &[]);
    let token = tokens[me].clone().expect("my seat");
    let mut rng = Rng(17);
    let mut mine = 0;
    loop {
        let s = wait_for_turn(&server, &id, &token, me);
        if s["status"] != "ongoing" || s["ply"].as_u64().unwrap() as usize >= plies {
            break;
        }
        let legal = s["legal"].as_array().expect("legal");
        let text = legal[rng.below(legal.len())]["text"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, after) = server.post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": s["ply"]}),
            Some(&token),
        );
        assert_eq!(status, 200, "{after}");
        mine += 1;
    }
    let s = state(&server, &id, Some(&token));
    assert!(mine > 0);
    let moves = s["moves"].as_array().unwrap();
    // The engine moved too: some moves are not the human's.
    assert!(moves.len() > mine, "{variant}: {s}");
}

#[test]
fn engine_seats_play_chess_shogi_xiangqi_and_dark_chess() {
    for variant in ["chess", "shogi", "xiangqi", "darkchess", "congo"] {
        play_against_engines(
            variant,
            json!([{"kind": "human"}, {"kind": "engine", "level": 2}]),
            0,
            16,
        );
    }
}

#[test]
fn engine_seats_play_three_player_chess_and_bughouse() {
    play_against_engines(
        "threeplayer",
        json!([{"kind": "engine", "level": 1}, {"kind": "human"}, {"kind": "engine", "level": 2}]),
        1,
        12,
    );
    play_against_engines(
        "bughouse",
        json!([{"kind": "human"}, {"kind": "engine", "level": 1}, {"kind": "engine", "level": 1}, {"kind": "engine", "level": 1}]),
        0,
        16,
    );
}

fn two_humans(server: &Server, variant: &str, clock: Option<Value>) -> (String, String, String) {
    let mut body =
        json!({"variant": variant, "seats": [{"kind": "human"}, {"kind": "human"}], "me": 0});
    if let Some(clock) = clock {
        body["clock"] = clock;
    }
    let (status, created) = server.post("/api/games", &body, None);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let (status, joined) = server.post(&format!("/api/games/{id}/seats/1/join"), &json!({}), None);
    assert_eq!(status, 200);
    let black = joined["token"].as_str().unwrap().to_string();
    // A seat is claimed once.
    let (status, again) = server.post(&format!("/api/games/{id}/seats/1/join"), &json!({}), None);
    assert_eq!(status, 409, "{again}");
    (id, white, black)
}

fn mv(server: &Server, id: &str, token: &str, text: &str) -> Value {
    let (status, s) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": text}),
        Some(token),
    );
    assert_eq!(status, 200, "{text}: {s}");
    s
}

fn act(server: &Server, id: &str, token: &str, action: &str) -> (u16, Value) {
    server.post(
        &format!("/api/games/{id}/actions"),
        &json!({"action": action}),
        Some(token),
    )
}

#[test]
fn a_reconnect_with_a_version_replays_exactly_the_missed_events() {
    let server = Server::start("reconnect");
    let (id, white, black) = two_humans(&server, "chess", None);
    mv(&server, &id, &white, "e4");
    let mut socket = server.socket(&id, Some(&black), None);
    let first = socket.recv();
    assert_eq!(first["t"], "state");
    let version = first["v"].as_u64().unwrap();
    drop(socket);
    mv(&server, &id, &black, "e5");
    mv(&server, &id, &white, "Nf3");
    mv(&server, &id, &black, "Nc6");
    let mut socket = server.socket(&id, Some(&black), Some(version));
    let messages = socket.recv_until(|m| m["t"] == "state");
    let events: Vec<&Value> = messages.iter().filter(|m| m["t"] != "state").collect();
    assert_eq!(events.len(), 3, "{messages:?}");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["v"], json!(version + 1 + i as u64));
        assert_eq!(e["t"], "move");
    }
    assert_eq!(events[1]["d"]["move"], "g1f3");
    let last = messages.last().unwrap();
    assert_eq!(last["v"], json!(version + 3));
    assert_eq!(last["d"]["moves"], json!(["e2e4", "e7e5", "g1f3", "b8c6"]));
    // A move over the socket is acknowledged once stored, then broadcast.
    let mut white_socket = server.socket(&id, Some(&white), None);
    white_socket.recv();
    white_socket.send(&json!({"t": "move", "d": {"move": "Bb5", "ply": 4, "ack": 7}}));
    let replies = white_socket.recv_until(|m| m["t"] == "ack");
    assert_eq!(replies.last().unwrap()["d"], 7);
    let seen = socket.recv_until(|m| m["t"] == "state");
    assert_eq!(seen[0]["t"], "move");
    assert_eq!(seen[0]["v"], json!(version + 4));
    assert_eq!(state(&server, &id, None)["ply"], 5);
    // A stale resend is refused and changes nothing.
    white_socket.send(&json!({"t": "move", "d": {"move": "Bb5", "ply": 4, "ack": 8}}));
    let refused = white_socket.recv_until(|m| m["t"] == "error");
    assert_eq!(refused.last().unwrap()["ack"], 8);
    assert_eq!(state(&server, &id, None)["ply"], 5);
}

#[test]
fn a_takeback_that_cannot_be_stored_changes_nothing() {
    let server = Server::start("takeback-locked");
    let (id, white, black) = two_humans(
        &server,
        "chess",
        Some(json!({"kind": "fischer", "base": 600})),
    );
    mv(&server, &id, &white, "e4");
    mv(&server, &id, &black, "e5");
    mv(&server, &id, &white, "Nf3");
    assert_eq!(act(&server, &id, &white, "takeback-offer").0, 200);
    let before = state(&server, &id, None);
    // Another writer holds the database: the server's commit times out.
    let lock = server.lock_writes();
    let (status, e) = act(&server, &id, &black, "takeback-accept");
    assert!(status >= 500, "{status} {e}");
    drop(lock);
    let after = state(&server, &id, None);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["version"], before["version"]);
    assert_eq!(
        after["offers"]["takeback"], 0,
        "the offer still stands: {after}"
    );
    assert_eq!(after["to_move"], json!([1]));
    assert_eq!(after["clocks"]["seats"][1]["running"], true, "{after}");
    assert_eq!(after["clocks"]["seats"][0]["running"], false, "{after}");
    // Once the database is free, the same answer is taken.
    let (status, s) = act(&server, &id, &black, "takeback-accept");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"], json!(["e2e4", "e7e5"]));
}

#[test]
fn takeback_draw_and_resignation() {
    let server = Server::start("actions");
    let (id, white, black) = two_humans(&server, "chess", None);
    mv(&server, &id, &white, "e4");
    mv(&server, &id, &black, "e5");
    mv(&server, &id, &white, "Qh5");
    let (status, s) = act(&server, &id, &white, "takeback-offer");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["offers"]["takeback"], 0);
    // The one who asked cannot accept.
    assert_eq!(act(&server, &id, &white, "takeback-accept").0, 409);
    let (status, s) = act(&server, &id, &black, "takeback-accept");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"], json!(["e2e4", "e7e5"]));
    assert_eq!(s["to_move"], json!([0]));
    // Draw by agreement.
    assert_eq!(act(&server, &id, &black, "draw-accept").0, 409);
    assert_eq!(act(&server, &id, &white, "draw-offer").0, 200);
    let (status, s) = act(&server, &id, &black, "draw-accept");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "finished");
    assert_eq!(s["result"], "1/2-1/2");
    assert_eq!(s["reason"], "agreement");
    // Nothing more once it is over.
    let (status, e) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "Nf3"}),
        Some(&white),
    );
    assert_eq!(status, 409, "{e}");

    let (id, white, black) = two_humans(&server, "shogi", None);
    mv(&server, &id, &white, "7g7f");
    let (status, s) = act(&server, &id, &black, "resign");
    assert_eq!(status, 200);
    assert_eq!(s["result"], "1-0");
    assert_eq!(s["reason"], "resignation");
    let (status, record) = server.get(&format!("/api/games/{id}/record"), None);
    assert_eq!(status, 200);
    assert!(
        record.as_str().unwrap().contains("投了") || record.as_str().unwrap().contains("7六歩"),
        "{record}"
    );
    // Sente, the first mover, is the first seat.
    assert!(
        record
            .as_str()
            .unwrap()
            .contains("先手：Anonymous\n後手：Anonymous\n"),
        "{record}"
    );
    let (status, csa) = server.get(&format!("/api/games/{id}/record?format=csa"), None);
    assert_eq!(status, 200);
    assert!(csa.as_str().unwrap().contains("+7776FU"), "{csa}");

    // Abort before both have moved; not after.
    let (aborted, white, black) = two_humans(&server, "chess", None);
    mv(&server, &aborted, &white, "d4");
    let (status, s) = act(&server, &aborted, &black, "abort");
    assert_eq!(status, 200);
    assert_eq!(s["status"], "aborted");
    let (id, white, black) = two_humans(&server, "chess", None);
    mv(&server, &id, &white, "d4");
    mv(&server, &id, &black, "d5");
    assert_eq!(act(&server, &id, &white, "abort").0, 409);
    // The games that ended with a result are in the archive; the aborted one is not.
    let (_, finished) = server.get("/api/games?status=finished", None);
    let reasons: Vec<&str> = finished["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["resignation", "agreement"], "{finished}");
}

#[test]
fn the_flag_falls_on_the_server_without_any_client() {
    // The one test that waits on the wall clock: the game's task arms the timer the referee
    // asks for, and the flag falls with nobody asking (the rules of flags are the referee's
    // unit tests, with made-up instants).
    let server = Server::start("flag");
    let (id, white, black) = two_humans(
        &server,
        "chess",
        Some(json!({"kind": "move", "seconds": 1})),
    );
    // The first moves are free; White's clock runs from Black's first move.
    mv(&server, &id, &white, "e4");
    let s = mv(&server, &id, &black, "e5");
    assert_eq!(s["clocks"]["seats"][0]["running"], true, "{s}");
    assert_eq!(s["clocks"]["seats"][1]["running"], false, "{s}");
    // The time is up after a second; the flag waits at most two more for a move in flight.
    std::thread::sleep(Duration::from_millis(1000) + MAX_GRACE + Duration::from_millis(400));
    // The game ended at the deadline, with nobody asking, and the clock shows zero.
    let stored = server.stored(&id);
    assert_eq!(stored.status, GameStatus::Finished);
    assert_eq!(stored.ending.map(|e| e.reason), Some(Reason::TimeForfeit));
    assert_eq!(stored.clock_state.expect("clocks").main_ms[0], 0);
    let (code, e) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "Nf3"}),
        Some(&white),
    );
    assert_eq!(code, 409, "{e}");
    assert_eq!(e["code"], "game-over");
    let s = state(&server, &id, None);
    assert_eq!(s["result"], "0-1");
    assert_eq!(s["moves"], json!(["e2e4", "e7e5"]));
    assert_eq!(s["clocks"]["seats"][0]["ms"], 0, "{s}");
}

#[test]
fn a_dark_chess_seat_receives_nothing_it_may_not_see() {
    let server = Server::start("dark");
    let (id, white, black) = two_humans(&server, "darkchess", None);
    // Both have come before the sockets open: what follows are the moves' frames alone.
    state(&server, &id, Some(&white));
    state(&server, &id, Some(&black));
    let mut black_socket = server.socket(&id, Some(&black), None);
    let mut spectator = server.socket(&id, None, None);
    let mut received: Vec<String> = vec![black_socket.recv().to_string()];
    let mut watched: Vec<String> = vec![spectator.recv().to_string()];
    let mut reference = open_table("darkchess", &[], None).unwrap();
    let mut rng = Rng(99);
    for ply in 0..12 {
        let (token, seat) = if ply % 2 == 0 {
            (&white, 0)
        } else {
            (&black, 1)
        };
        let s = state(&server, &id, Some(token));
        if s["status"] != "ongoing" {
            break;
        }
        let legal = s["legal"].as_array().unwrap();
        let text = legal[rng.below(legal.len())]["text"]
            .as_str()
            .unwrap()
            .to_string();
        mv(&server, &id, token, &text);
        reference.play(&text).unwrap();
        if reference.finished().is_some() {
            break;
        }
        // What arrived for this move, checked against the views after it.
        let fresh: Vec<String> = black_socket
            .recv_until(|m| m["t"] == "state")
            .iter()
            .map(Value::to_string)
            .chain([state(&server, &id, Some(&black)).to_string()])
            .collect();
        let fresh_watched: Vec<String> = spectator
            .recv_until(|m| m["t"] == "state")
            .iter()
            .map(Value::to_string)
            .collect();
        // Every white man Black cannot see is absent from every byte Black got.
        let visible = reference.scene(Viewer::Player(1));
        let all = reference.scene(Viewer::Arbiter);
        let arbiter_fen = reference.fen();
        let board_field = arbiter_fen.split_whitespace().next().unwrap();
        for man in &all.boards[0].men {
            let text =
                json!({"cell": man.cell, "owner": man.owner, "piece": man.piece}).to_string();
            if !visible.boards[0].men.contains(man) {
                for frame in &fresh {
                    assert!(!frame.contains(&text), "{text} leaked to Black: {frame}");
                }
            }
            for frame in &fresh_watched {
                assert!(!frame.contains(&text), "{text} leaked to a spectator");
            }
        }
        for frame in fresh.iter().chain(&fresh_watched) {
            assert!(
                !frame.contains(board_field),
                "the arbiter's board leaked: {frame}"
            );
        }
        received.extend(fresh);
        watched.extend(fresh_watched);
        // White's moves reach Black only as a version number.
        if seat == 0 {
            let event: Value = serde_json::from_str(&received[received.len() - 3]).unwrap();
            assert_ne!(event["t"], "state");
            assert_eq!(event.as_object().unwrap().len(), 1, "{event}");
            assert!(event["v"].is_u64());
        }
    }
    let s = state(&server, &id, Some(&black));
    let moves = s["moves"].as_array().unwrap();
    assert!(moves.iter().step_by(2).all(Value::is_null), "{s}");
    assert!(moves.iter().skip(1).step_by(2).all(Value::is_string));
}

#[test]
fn a_chex_game_draws_from_a_fresh_key_that_nobody_sees_before_the_end() {
    let server = Server::start("chex-key");
    let (id, white, black) = two_humans(&server, "chex", None);
    let (other, _, _) = two_humans(&server, "chex", None);
    let key_of = |id: &str| {
        let stored = server.stored(id).options;
        assert_eq!(stored.len(), 1, "{stored:?}");
        let key = stored[0]
            .strip_prefix("draw-seed=")
            .expect("the draw seed")
            .to_string();
        // 256 bits, never the 32-bit numbers of old games.
        assert_eq!(key.len(), 64, "{key}");
        assert!(
            key.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{key}"
        );
        key
    };
    let key = key_of(&id);
    assert_ne!(key, key_of(&other));
    // The draws are the key's: the rules opened with it draw the same men.
    let option = format!("draw-seed={key}");
    let mut reference = open_table("chex", std::slice::from_ref(&option), None).unwrap();
    let mut socket = server.socket(&id, Some(&black), None);
    let mut seen: Vec<String> = socket
        .recv_until(|m| m["t"] == "state")
        .iter()
        .map(Value::to_string)
        .collect();
    for (token, seat) in [(&white, 0), (&black, 1), (&white, 0)] {
        let s = mv(&server, &id, token, "draw");
        reference.play_for(seat, "draw").unwrap();
        let drawn = reference
            .scene(Viewer::Player(seat))
            .note
            .expect("a drawn man");
        assert_eq!(s["note"], json!(drawn), "{s}");
        let place = s["legal"][0]["text"].as_str().unwrap().to_string();
        mv(&server, &id, token, &place);
        reference.play_for(seat, &place).unwrap();
    }
    seen.extend(
        socket
            .recv_until(|m| m["t"] == "state" && m["d"]["ply"] == json!(reference.ply()))
            .iter()
            .map(Value::to_string),
    );
    // While it goes on, no seat, spectator, socket message or record shows the key.
    for token in [Some(white.as_str()), Some(black.as_str()), None] {
        let s = state(&server, &id, token);
        assert!(s["options"].as_array().unwrap().is_empty(), "{s}");
        seen.push(s.to_string());
        let (status, record) = server.get(&format!("/api/games/{id}/record"), token);
        assert!(status == 200 || status == 403, "{status} {record}");
        seen.push(record.to_string());
    }
    for text in &seen {
        assert!(!text.contains(&key), "the key leaked: {text}");
    }
    // Once it is over everyone may check the draws.
    let (status, s) = act(&server, &id, &black, "resign");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["options"], json!([option]));
    assert_eq!(state(&server, &id, None)["options"], json!([option]));
    let (status, record) = server.get(&format!("/api/games/{id}/record"), None);
    assert_eq!(status, 200, "{record}");
    assert!(record.as_str().unwrap().contains(&option), "{record}");
}

#[test]
fn a_whole_turn_is_one_request_and_replays_part_by_part() {
    let server = Server::start("turn");
    let (id, white, black) = two_humans(&server, "avalanche", None);
    let s = mv(&server, &id, &white, "e2e4;d7d6");
    assert_eq!(s["ply"], 2);
    assert_eq!(s["moves"], json!(["e2e4", "d7d6"]));
    assert_eq!(s["to_move"], json!([1]));
    // A part alone is a move too.
    let part = state(&server, &id, Some(&black))["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let s = mv(&server, &id, &black, &part);
    assert_eq!(s["ply"], 3);
    assert_eq!(s["to_move"], json!([1]));
    // An incomplete turn is refused whole.
    let (status, e) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "a2a3;"}),
        Some(&black),
    );
    assert!(status == 422 || status == 400, "{status} {e}");
    assert_eq!(state(&server, &id, None)["ply"], 3);
    // The stored game replays in a new server on the same database.
    let again = server.restart();
    let s = state(&again, &id, None);
    assert_eq!(s["moves"], json!(["e2e4", "d7d6", part]));
}

#[test]
fn reported_thinking_time_reaches_the_clock() {
    let server = Server::start("lag");
    let (id, white, black) = two_humans(
        &server,
        "chess",
        Some(json!({"kind": "fischer", "base": 600})),
    );
    mv(&server, &id, &white, "e4");
    mv(&server, &id, &black, "e5");
    // White's clock runs now (from before the answer to Black's move came back). He says he
    // thought no time at all: the turn was lag by his word, but a request of its own has no
    // lag the server measured, so only the margin (100 ms) is forgiven of his 300 ms.
    let turn_seen = std::time::Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    let (status, s) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"move": "Nf3", "think_ms": 0}),
        Some(&white),
    );
    assert_eq!(status, 200, "{s}");
    let white_ms = s["clocks"]["seats"][0]["ms"].as_u64().unwrap();
    assert!(white_ms <= 599_800, "more than the margin forgiven: {s}");
    // The server's turn ended before the answer came back: the margin was forgiven.
    let white_charged = 600_000 - white_ms;
    let at_most = turn_seen.elapsed().as_millis() as u64;
    assert!(
        white_charged + 90 <= at_most + 30,
        "{white_charged} of {at_most}"
    );
    // Black reports nothing: his whole turn is charged.
    std::thread::sleep(Duration::from_millis(300));
    let s = mv(&server, &id, &black, "Nc6");
    let black_ms = s["clocks"]["seats"][1]["ms"].as_u64().unwrap();
    assert!(black_ms <= 599_700, "{s}");
}

#[test]
fn a_rematch_moves_both_players_to_a_new_game_with_the_colours_turned() {
    let server = Server::start("rematch");
    let (status, created) = server.post(
        "/api/games",
        &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}], "me": 0,
                "listed": false, "clock": {"kind": "fischer", "base": 300, "increment": 3}}),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let (_, joined) = server.post(&format!("/api/games/{id}/seats/1/join"), &json!({}), None);
    let black = joined["token"].as_str().unwrap().to_string();
    let (status, e) = act(&server, &id, &white, "rematch-offer");
    assert_eq!((status, e["code"].as_str()), (409, Some("not-over")), "{e}");
    mv(&server, &id, &white, "e4");
    assert_eq!(act(&server, &id, &black, "resign").0, 200);
    let mut black_socket = server.socket(&id, Some(&black), None);
    black_socket.recv();
    let (status, s) = act(&server, &id, &white, "rematch-offer");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["offers"]["rematch"], json!([0]));
    // The other side is told, and may accept.
    let offered = black_socket.recv_until(|m| m["t"] == "state");
    assert_eq!(offered[0]["t"], "rematch-offer");
    let (status, s) = act(&server, &id, &black, "rematch-accept");
    assert_eq!(status, 200, "{s}");
    let made = black_socket.recv_until(|m| m["t"] == "state");
    assert_eq!(made[0]["t"], "rematch");
    let next = made[0]["d"]["game"].as_str().unwrap().to_string();
    assert_eq!(made[0]["d"]["seats"], json!([1, 0]));
    assert_eq!(made.last().unwrap()["d"]["rematch"], next.as_str());
    // The same tokens play the new game, on the other colours, with the same clock.
    let s = state(&server, &next, Some(&black));
    assert_eq!(s["you"], 0, "{s}");
    assert_eq!(
        s["clocks"]["control"],
        json!({"kind": "fischer", "base": 300, "increment": 3})
    );
    let s = mv(&server, &next, &black, "d4");
    assert_eq!(s["moves"], json!(["d2d4"]));
    assert_eq!(state(&server, &next, Some(&white))["you"], 1);
    // Unlisted stays unlisted: neither game is in the lobby or the archive.
    let (_, live) = server.get("/api/games?status=live", None);
    let (_, archive) = server.get("/api/games?status=finished", None);
    for listing in [live, archive] {
        assert!(
            !listing.to_string().contains(&id) && !listing.to_string().contains(&next),
            "{listing}"
        );
    }
}

#[test]
fn real_time_bughouse_runs_both_boards_and_their_clocks_at_once() {
    let server = Server::start("bughouse-real-time");
    let seats = json!([{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]);
    let (status, created) = server.post(
        "/api/games",
        &json!({"variant": "bughouse", "seats": seats,
                "clock": {"kind": "fischer", "base": 180}}),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = (0..4)
        .map(|n| {
            let (status, joined) =
                server.post(&format!("/api/games/{id}/seats/{n}/join"), &json!({}), None);
            assert_eq!(status, 200, "{joined}");
            joined["token"].as_str().unwrap().to_string()
        })
        .collect();
    let running = |s: &Value| -> Vec<usize> {
        (0..4)
            .filter(|&n| s["clocks"]["seats"][n]["running"] == true)
            .collect()
    };
    // The clocks wait until every player has come.
    let s = state(&server, &id, Some(&tokens[1]));
    assert_eq!(running(&s), Vec::<usize>::new(), "{s}");
    for token in &tokens {
        state(&server, &id, Some(token));
    }
    // Both White players may move, and both their clocks run.
    let s = state(&server, &id, Some(&tokens[1]));
    assert_eq!(s["to_move"], json!([0, 1]), "{s}");
    assert_eq!(running(&s), vec![0, 1]);
    assert_eq!(s["legal"].as_array().unwrap().len(), 20);
    assert!(
        s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["board"] == 1),
        "{s}"
    );
    // B-White moves first, without waiting for board A.
    let moves = format!("/api/games/{id}/moves");
    let (status, s) = server.post(&moves, &json!({"move": "e2e4", "ply": 0}), Some(&tokens[1]));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["to_move"], json!([0, 3]));
    assert_eq!(running(&s), vec![0, 3]);
    // A-White's move sent while board B moved still counts; its resend does not.
    let (status, s) = server.post(&moves, &json!({"move": "d2d4", "ply": 0}), Some(&tokens[0]));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["to_move"], json!([2, 3]));
    let (status, e) = server.post(&moves, &json!({"move": "d2d4", "ply": 0}), Some(&tokens[0]));
    assert_eq!(status, 409, "{e}");
    // A seat whose board waits for its opponent may not move.
    let (status, e) = server.post(&moves, &json!({"move": "e7e5"}), Some(&tokens[1]));
    assert_eq!(status, 409, "{e}");
    let s = state(&server, &id, None);
    assert_eq!(s["moves"], json!(["e2e4", "d2d4"]));
    assert_eq!(s["ply"], 2);
    // A restarted server replays each stored move on its own board: `e2e4` was B-White's,
    // though A-White was the side to move and `e2e4` is legal on board A too.
    let fen = s["fen"].as_str().unwrap().to_string();
    let (a, b) = fen.split_once(" | B:").unwrap();
    assert!(a.contains("3P4"), "board A has d4: {fen}");
    assert!(b.contains("4P3"), "board B has e4: {fen}");
    assert_a_restart_shows(server, &id, &s);
}

/// Opens a second server on `server`'s database and checks that it shows game `id` as
/// `running` shows it (clocks aside, which run on).
fn assert_a_restart_shows(server: Server, id: &str, running: &Value) {
    let again = server.restart();
    let restored = state(&again, id, None);
    for key in ["fen", "boards", "moves", "to_move", "ply", "last_move"] {
        assert_eq!(restored[key], running[key], "{key} after a restart");
    }
}
