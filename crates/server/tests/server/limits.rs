//! What one client may spend, tried against a real server with tight limits: each test fails
//! without its limit (issue 43's attacks, each cut down to what shows the limit).

use crate::common::Server;
use chaturanga_server::quota::{Limits, Rate};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn chess_against_a_person() -> Value {
    json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}], "me": 0})
}

/// The status line's code and the JSON body of a raw HTTP answer.
fn parse(answer: &str) -> (u16, Value) {
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

fn live_games(server: &Server) -> usize {
    let (_, open) = server.get("/api/games?status=open", None);
    open["games"].as_array().map_or(0, Vec::len)
}

#[test]
fn game_creations_are_limited_per_client_with_a_retry_after_and_nothing_stored() {
    let server = Server::start_with(
        "limit-games",
        Limits {
            games: Rate::new(3, Duration::from_secs(60)),
            ..Limits::generous()
        },
    );
    for _ in 0..3 {
        let (status, created) = server.post("/api/games", &chess_against_a_person(), None);
        assert_eq!(status, 201, "{created}");
    }
    let body = chess_against_a_person().to_string();
    let request = format!(
        "POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let (answer, _) = server.raw(request.as_bytes(), Duration::from_secs(5));
    let (status, refusal) = parse(&answer);
    assert_eq!(status, 429, "{answer}");
    assert_eq!(refusal["code"], "rate-limited", "{refusal}");
    let wait: u64 = header(&answer, "retry-after")
        .expect("a Retry-After header")
        .parse()
        .unwrap();
    assert!((50..=60).contains(&wait), "{wait}");
    assert_eq!(live_games(&server), 3, "a refused game was stored");
}

#[test]
fn joins_and_actions_are_limited_per_client() {
    let server = Server::start_with(
        "limit-joins",
        Limits {
            joins: Rate::new(2, Duration::from_secs(60)),
            actions: Rate::new(3, Duration::from_secs(60)),
            ..Limits::generous()
        },
    );
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (_, created) = server.post(
            "/api/games",
            &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]}),
            None,
        );
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    let mut tokens = Vec::new();
    for id in &ids[..2] {
        let (status, joined) =
            server.post(&format!("/api/games/{id}/seats/0/join"), &json!({}), None);
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_string());
    }
    // One client cannot take every open seat of the lobby.
    let (status, refusal) = server.post(
        &format!("/api/games/{}/seats/0/join", ids[2]),
        &json!({}),
        None,
    );
    assert_eq!(status, 429, "{refusal}");
    assert!(
        server.stored(&ids[2]).seats[0].token_hash.is_none(),
        "the refused seat was claimed"
    );
    let action = |token: &str| {
        server.post(
            &format!("/api/games/{}/actions", ids[0]),
            &json!({"action": "resign"}),
            Some(token),
        )
    };
    // Refused by the game (its other seat is open) but counted: three actions, then none.
    for _ in 0..3 {
        assert_ne!(action(&tokens[0]).0, 429);
    }
    let (status, refusal) = action(&tokens[0]);
    assert_eq!(status, 429, "{refusal}");
}

#[test]
fn socket_messages_are_limited_per_client_across_reconnects() {
    let server = Server::start_with(
        "limit-socket",
        Limits {
            socket_messages: Rate::new(20, Duration::from_secs(60)),
            ..Limits::generous()
        },
    );
    let (_, created) = server.post("/api/games", &chess_against_a_person(), None);
    let id = created["id"].as_str().unwrap();
    let pongs = |server: &Server| {
        let mut socket = server.socket(id, None, None);
        socket.recv();
        for _ in 0..15 {
            socket.send(&json!({"t": "ping"}));
        }
        (0..15).filter(|_| socket.recv()["t"] == "pong").count()
    };
    assert_eq!(pongs(&server), 15);
    // A new socket starts with what the last one left: five.
    assert_eq!(pongs(&server), 5);
}

#[test]
fn sockets_are_capped_per_client_and_per_game() {
    let server = Server::start_with(
        "limit-sockets",
        Limits {
            sockets_per_client: 3,
            sockets_per_game: 2,
            ..Limits::generous()
        },
    );
    let (_, a) = server.post("/api/games", &chess_against_a_person(), None);
    let (_, b) = server.post("/api/games", &chess_against_a_person(), None);
    let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let upgrade = |id: &str| {
        format!(
            "GET /api/games/{id}/socket HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\n\
             upgrade: websocket\r\nsec-websocket-version: 13\r\n\
             sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
    };
    let _first = server.socket(a, None, None);
    let _second = server.socket(a, None, None);
    let (answer, _) = server.raw(upgrade(a).as_bytes(), Duration::from_secs(2));
    // The game's cap is everyone's: the site's answer, not the client's.
    let (status, refusal) = parse(&answer);
    assert_eq!(status, 503, "{answer}");
    assert_eq!(refusal["code"], "server-busy", "{refusal}");
    let _third = server.socket(b, None, None);
    let (answer, _) = server.raw(upgrade(b).as_bytes(), Duration::from_secs(2));
    assert_eq!(parse(&answer).0, 429, "{answer}");
    // A socket closed gives its place back.
    drop(_first);
    std::thread::sleep(Duration::from_millis(300));
    let _again = server.socket(a, None, None);
}

#[test]
fn a_crowd_of_spectators_never_keeps_a_player_out_and_a_socket_counts_as_a_connection() {
    let server = Server::start_with(
        "limit-crowd",
        Limits {
            sockets_per_game: 2,
            connections_per_client: 4,
            ..Limits::generous()
        },
    );
    let (_, created) = server.post("/api/games", &chess_against_a_person(), None);
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["token"].as_str().unwrap(),
    );
    let _crowd = [server.socket(id, None, None), server.socket(id, None, None)];
    let mut player = server.socket(id, Some(token), None);
    assert_eq!(player.recv()["t"], "state");
    // Three sockets and their three connections: one connection is left, then none.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.get("/api/games", None).0, 200);
    let _idle = std::net::TcpStream::connect(server.addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (answer, _) = server.raw(
        b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n",
        Duration::from_secs(5),
    );
    assert_eq!(parse(&answer).0, 429, "{answer}");
}

#[test]
fn connections_are_capped_and_the_refused_get_json() {
    let server = Server::start_with(
        "limit-connections",
        Limits {
            connections_per_client: 4,
            ..Limits::generous()
        },
    );
    let held: Vec<_> = (0..4)
        .map(|_| std::net::TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let (answer, closed) = server.raw(
        b"GET /api/variants HTTP/1.1\r\nhost: x\r\n\r\n",
        Duration::from_secs(5),
    );
    let (status, refusal) = parse(&answer);
    assert_eq!(status, 429, "{answer}");
    assert_eq!(refusal["code"], "too-many");
    assert!(closed);
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.get("/api/games", None).0, 200);
}

#[test]
fn silent_half_sent_and_idle_connections_are_closed() {
    let server = Server::start_with(
        "limit-timeouts",
        Limits {
            header_timeout: Duration::from_secs(1),
            ..Limits::generous()
        },
    );
    for request in [
        &b""[..],
        b"GET /api/variants HTTP/1.1\r\nhost: x\r\n",
        // Answered, then left idle.
        b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n",
    ] {
        let started = Instant::now();
        let (answer, closed) = server.raw(request, Duration::from_secs(10));
        assert!(closed, "still open after 10 s: {answer}");
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "closed after {took:?}");
    }
}

#[test]
fn a_body_announced_too_long_is_refused_before_it_is_read() {
    let server = Server::start("limit-body");
    let started = Instant::now();
    let (answer, _) = server.raw(
        b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
          content-length: 99999999999\r\n\r\n{",
        Duration::from_secs(10),
    );
    let (status, refusal) = parse(&answer);
    assert_eq!(status, 413, "{answer}");
    assert_eq!(refusal["code"], "body-too-large");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Also on a route that reads no body.
    let (answer, _) = server.raw(
        b"GET /api/games HTTP/1.1\r\nhost: x\r\ncontent-length: 99999999999\r\n\r\n",
        Duration::from_secs(10),
    );
    assert_eq!(parse(&answer).0, 413, "{answer}");
}

#[test]
fn requests_too_malformed_to_reach_the_api_get_its_json_errors() {
    let server = Server::start("limit-malformed");
    let huge_header = format!(
        "GET /api/games HTTP/1.1\r\nhost: x\r\nx-pad: {}\r\n\r\n",
        "y".repeat(40 * 1024)
    );
    let long_uri = format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(70_000));
    for (request, status, code) in [
        (huge_header.as_bytes(), 431, "head-too-large"),
        (long_uri.as_bytes(), 431, "head-too-large"),
        (&b"GARBAGE\r\n\r\n"[..], 400, "bad-request"),
        (
            &b"GET / HTTP/9.9\r\nhost: x\r\n\r\n"[..],
            400,
            "bad-request",
        ),
    ] {
        let (answer, closed) = server.raw(request, Duration::from_secs(10));
        let (got, error) = parse(&answer);
        assert_eq!(got, status, "{answer}");
        assert_eq!(error["code"], code, "{answer}");
        assert!(error["error"].as_str().is_some_and(|e| !e.is_empty()));
        assert_eq!(header(&answer, "content-type"), Some("application/json"));
        assert!(closed);
    }
    // The API's own answers are untouched: a 400 of its own keeps its message.
    let (status, error) = server.post("/api/games", &json!({"variant": 5}), None);
    assert_eq!(status, 400, "{error}");
    assert_ne!(error["code"], "bad-request", "{error}");
}

#[test]
fn a_client_that_never_reads_its_answers_is_cut_off() {
    use std::io::{Read, Write};
    let server = Server::start_with(
        "limit-unread",
        Limits {
            write_timeout: Duration::from_secs(1),
            ..Limits::generous()
        },
    );
    // Two hundred requests for the variants (hundreds of KiB each, uncompressed) at once,
    // and nothing read: the answers fill both sides' buffers, then the server waits.
    let mut stream = std::net::TcpStream::connect(server.addr).expect("connect");
    let request = b"GET /api/variants HTTP/1.1\r\nhost: x\r\n\r\n";
    const REQUESTS: usize = 200;
    stream.write_all(&request.repeat(REQUESTS)).expect("send");
    std::thread::sleep(Duration::from_secs(4));
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answers = 0;
    let mut buffer = vec![0u8; 1 << 16];
    let mut tail = Vec::new();
    let ended = loop {
        match stream.read(&mut buffer) {
            Ok(0) => break true,
            Ok(n) => {
                tail.extend_from_slice(&buffer[..n]);
                answers += tail
                    .windows(17)
                    .filter(|w| w == b"HTTP/1.1 200 OK\r\n")
                    .count();
                let keep = tail.len().saturating_sub(16);
                tail.drain(..keep);
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
            Err(_) => break false,
        }
    };
    assert!(
        ended,
        "the connection was still open after {answers} answers"
    );
    assert!(answers < REQUESTS, "every answer came: nothing was cut off");
    // The server serves others all along.
    assert_eq!(server.get("/api/games", None).0, 200);
}

#[test]
fn a_body_sent_too_slowly_is_refused() {
    let server = Server::start_with(
        "limit-slow-body",
        Limits {
            body_timeout: Duration::from_secs(1),
            ..Limits::generous()
        },
    );
    let started = Instant::now();
    let (answer, _) = server.raw(
        b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
          content-length: 100\r\n\r\n{\"variant\"",
        Duration::from_secs(10),
    );
    let (status, refusal) = parse(&answer);
    assert_eq!(status, 408, "{answer}");
    assert_eq!(refusal["code"], "timeout");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn json_endpoints_take_only_json_and_every_answer_forbids_sniffing() {
    let server = Server::start("limit-json");
    let body = chess_against_a_person().to_string();
    for content_type in ["text/plain", "application/x-www-form-urlencoded", ""] {
        let type_line = if content_type.is_empty() {
            String::new()
        } else {
            format!("content-type: {content_type}\r\n")
        };
        let request = format!(
            "POST /api/games HTTP/1.1\r\nhost: x\r\n{type_line}content-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        );
        let (answer, _) = server.raw(request.as_bytes(), Duration::from_secs(5));
        let (status, refusal) = parse(&answer);
        assert_eq!(status, 415, "{content_type}: {answer}");
        assert_eq!(refusal["code"], "unsupported-media-type");
    }
    assert_eq!(live_games(&server), 0);
    for path in [
        "/api/variants",
        "/api/games",
        "/",
        "/static/js/main.js",
        "/nothing",
    ] {
        let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
        let (answer, _) = server.raw(request.as_bytes(), Duration::from_secs(30));
        assert_eq!(
            header(&answer, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            header(&answer, "referrer-policy"),
            Some("same-origin"),
            "{path}"
        );
    }
}

#[test]
fn games_of_engines_only_are_capped_and_whoever_created_one_can_stop_it() {
    let engines = json!({"variant": "chess", "seats": [{"kind": "engine", "level": 1}, {"kind": "engine", "level": 1}]});
    // Off on the public site's defaults.
    let off = Server::start_with(
        "limit-engines-off",
        Limits {
            engine_only_games: 0,
            engine_games: Rate::new(2, Duration::from_secs(60)),
            ..Limits::generous()
        },
    );
    // Refused, and spending nothing: a game against the engine can be made after.
    for _ in 0..3 {
        let (status, refusal) = off.post("/api/games", &engines, None);
        assert_eq!(status, 403, "{refusal}");
        assert_eq!(refusal["code"], "engines-only-off");
    }
    let (status, created) = off.post(
        "/api/games",
        &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "level": 1}], "me": 0}),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let server = Server::start_with(
        "limit-engines",
        Limits {
            engine_only_games: 1,
            ..Limits::generous()
        },
    );
    let (status, created) = server.post("/api/games", &engines, None);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let owner = created["token"]
        .as_str()
        .expect("an owner's token")
        .to_string();
    let (status, refusal) = server.post("/api/games", &engines, None);
    assert_eq!(status, 503, "{refusal}");
    // Nobody else stops it.
    let stop = |token: &str| {
        server.post(
            &format!("/api/games/{id}/actions"),
            &json!({"action": "stop"}),
            Some(token),
        )
    };
    assert_eq!(stop("0123456789abcdef").0, 401);
    let (status, stopped) = stop(&owner);
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["status"], "aborted", "{stopped}");
    assert_eq!(server.stored(id).status.as_str(), "aborted");
    // Its place is free again.
    let (status, created) = server.post("/api/games", &engines, None);
    assert_eq!(status, 201, "{created}");
}

#[test]
fn a_second_server_on_one_sqlite_file_refuses_to_start() {
    // SQLite whichever backend the other tests use: the lock is SQLite's.
    let dir = std::env::temp_dir().join(format!("chaturanga-one-writer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.db");
    let server = Server::with_limits(
        chaturanga_server::store::Database::Sqlite(path.clone()),
        Limits::generous(),
    );
    let config = chaturanga_server::Config {
        listen: ([127, 0, 0, 1], 0).into(),
        db: server.db.clone(),
        engine_threads: 1,
        limits: Limits::generous(),
        peers: Default::default(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let refused = runtime
        .block_on(chaturanga_server::serve(config, |_| {
            panic!("a second server started on {}", path.display())
        }))
        .expect_err("a second server started");
    let message = refused.to_string();
    assert!(message.contains("another server is using"), "{message}");
    assert!(message.contains("PostgreSQL"), "{message}");
    // The first goes on.
    assert_eq!(server.get("/api/games", None).0, 200);
}

#[test]
fn a_rematch_is_a_new_game_and_spends_from_the_same_quota() {
    let server = Server::start_with(
        "limit-rematch",
        Limits {
            games: Rate::new(2, Duration::from_secs(60)),
            ..Limits::generous()
        },
    );
    let (status, created) = server.post(
        "/api/games",
        &json!({"variant": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "level": 1}], "me": 0}),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let token = created["token"].as_str().unwrap().to_string();
    let act = |id: &str, action: &str| {
        server.post(
            &format!("/api/games/{id}/actions"),
            &json!({ "action": action }),
            Some(&token),
        )
    };
    let first = created["id"].as_str().unwrap().to_string();
    assert_eq!(act(&first, "resign").0, 200);
    // Against the engine a rematch is made at once: the second game of two.
    let (status, state) = act(&first, "rematch-offer");
    assert_eq!(status, 200, "{state}");
    let second = server.stored(&first).rematch.expect("a rematch");
    assert_eq!(act(&second, "resign").0, 200);
    let (status, refusal) = act(&second, "rematch-offer");
    assert_eq!(status, 429, "{refusal}");
    assert!(
        server.stored(&second).rematch.is_none(),
        "the refused rematch was made"
    );
}
