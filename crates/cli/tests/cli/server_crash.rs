//! The real `chaturanga serve` binary killed with SIGKILL at random moments while moves are
//! played, 20 times, and restarted on the same database: every acknowledged move is there,
//! and the clocks go on from what was stored.

use crate::serve::serve;
use serde_json::{Value, json};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into()
}

fn call(
    agent: &ureq::Agent,
    url: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Option<(u16, Value)> {
    let mut response = match body {
        Some(body) => {
            let mut request = agent.post(url).header("Content-Type", "application/json");
            if let Some(token) = token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            request.send(body.to_string()).ok()?
        }
        None => {
            let mut request = agent.get(url);
            if let Some(token) = token {
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            request.call().ok()?
        }
    };
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().ok()?;
    Some((status, serde_json::from_str(&text).ok()?))
}

/// A chess game between two people with a clock; its id and the seats' tokens.
fn new_game(http: &ureq::Agent, url: &str) -> (String, [String; 2]) {
    let (status, created) = call(
        http,
        &format!("{url}/api/games"),
        Some(&json!({
            "variant": "chess",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"kind": "fischer", "base": 3600, "increment": 0},
            "me": 0
        })),
        None,
    )
    .expect("created");
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let (_, joined) = call(
        http,
        &format!("{url}/api/games/{id}/seats/1/join"),
        Some(&json!({})),
        None,
    )
    .unwrap();
    let black = joined["token"].as_str().unwrap().to_string();
    (id, [white, black])
}

/// A server process that is killed when the test ends, passing or failing.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn acknowledged_moves_and_clocks_survive_sigkill() {
    let dir = std::env::temp_dir().join(format!("chaturanga-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let (child, url) = serve(&db);
    let mut child = Killed(child);
    let http = agent();
    let (mut id, mut tokens) = new_game(&http, &url);
    let mut rng = Rng(2026);
    // Every acknowledged move with the state it was answered with.
    let acknowledged: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let mut url = url;
    let mut kills = 0;
    let mut previous_unanswered = 0;
    let mut previous_acked = 0;
    let mut clocks_checked = 0;
    let mut total_acknowledged = 0;
    while kills < 20 {
        let mover = {
            let acknowledged = acknowledged.clone();
            let tokens = tokens.clone();
            let url = url.clone();
            let id = id.clone();
            let seed = rng.below(1 << 30);
            std::thread::spawn(move || {
                let http = agent();
                let mut rng = Rng(seed);
                loop {
                    let Some((200, state)) =
                        call(&http, &format!("{url}/api/games/{id}"), None, None)
                    else {
                        return;
                    };
                    if state["status"] != "ongoing" {
                        return;
                    }
                    let seat = state["to_move"][0].as_u64().unwrap() as usize;
                    let Some((200, mine)) = call(
                        &http,
                        &format!("{url}/api/games/{id}"),
                        None,
                        Some(&tokens[seat]),
                    ) else {
                        return;
                    };
                    let legal = mine["legal"].as_array().unwrap();
                    let text = legal[rng.below(legal.len() as u64) as usize]["text"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    match call(
                        &http,
                        &format!("{url}/api/games/{id}/moves"),
                        Some(&json!({"move": text, "ply": mine["ply"]})),
                        Some(&tokens[seat]),
                    ) {
                        Some((200, after)) => acknowledged.lock().unwrap().push((text, after)),
                        _ => return,
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        // The kill comes after a random number of acknowledged moves and a random moment
        // more, so every round plays, however slow the machine (a fixed window played too
        // few moves on a loaded CI runner).
        let wanted = acknowledged.lock().unwrap().len() + 1 + rng.below(16) as usize;
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while acknowledged.lock().unwrap().len() < wanted
            && !mover.is_finished()
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(rng.below(15)));
        child.0.kill().expect("SIGKILL");
        child.0.wait().unwrap();
        mover.join().unwrap();
        kills += 1;
        let (next, next_url) = serve(&db);
        child = Killed(next);
        url = next_url;
        let (status, state) =
            call(&http, &format!("{url}/api/games/{id}"), None, None).expect("state");
        assert_eq!(status, 200, "{state}");
        let stored: Vec<String> = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let acked = acknowledged.lock().unwrap();
        // Games that ended count with all their moves; the one going on with those so far.
        let in_this_game = acked.len();
        // Every acknowledged move is stored, in order; a move whose answer was cut off by
        // the kill may be stored too (at most one per kill).
        let mut at = 0;
        for (text, _) in acked.iter() {
            match stored[at..].iter().position(|s| s == text) {
                Some(i) => at += i + 1,
                None => panic!("after kill {kills}: acknowledged {text} is not stored: {stored:?}"),
            }
        }
        let unanswered = stored.len() - acked.len();
        assert!(
            unanswered <= kills,
            "after kill {kills}: {unanswered} moves nobody played"
        );
        if state["status"] != "ongoing" {
            // The game ended: go on with a new one.
            total_acknowledged += in_this_game;
            drop(acked);
            acknowledged.lock().unwrap().clear();
            (id, tokens) = new_game(&http, &url);
            previous_unanswered = 0;
            previous_acked = 0;
            continue;
        }
        if let Some((_, last)) = acked.last()
            && unanswered == previous_unanswered
            && acked.len() > previous_acked
        {
            // The last move stored was acknowledged: the seat that is not to move shows the
            // time it had then. The seat to move starts its turn again from the time stored
            // with that move (the downtime is charged to nobody), which is what the answer
            // showed plus the moment between the commit and the answer: never a second more.
            let waiting = 1 - state["to_move"][0].as_u64().unwrap() as usize;
            let running = 1 - waiting;
            let then = &last["clocks"]["seats"];
            let now = &state["clocks"]["seats"];
            assert_eq!(
                now[waiting]["ms"], then[waiting]["ms"],
                "after kill {kills}"
            );
            let (now_ms, then_ms) = (
                now[running]["ms"].as_u64().unwrap(),
                then[running]["ms"].as_u64().unwrap(),
            );
            assert!(
                now_ms <= then_ms + 1_000,
                "after kill {kills}: the seat to move has {now_ms} ms, it had {then_ms}"
            );
            assert!(now[running]["ms"].as_u64().unwrap() > 3_000_000);
            clocks_checked += 1;
        }
        previous_unanswered = unanswered;
        previous_acked = acked.len();
    }
    total_acknowledged += acknowledged.lock().unwrap().len();
    assert!(
        clocks_checked > 0,
        "no restart came right after an acknowledged move"
    );
    assert_eq!(kills, 20);
    assert!(total_acknowledged > 100, "too few moves were played");
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}
