//! Games in every ruleset between separate clients, one per seat, each moving only from the
//! `legal` list it was sent; every state is checked against the rules computed here from the
//! same move list.

use crate::common::{Rng, Server};
use chaturanga_rules::scene::Viewer;
use chaturanga_session::open_table;
use serde_json::{Value, json};

const MAX_PLIES: usize = 150;

/// The stored options (the secret ones included): the test is the arbiter.
fn stored_options(server: &Server, id: &str) -> Vec<String> {
    server.stored(id).options
}

fn men_of(state: &Value) -> Vec<Vec<(String, String, u64)>> {
    state["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            let mut men: Vec<(String, String, u64)> = b["men"]
                .as_array()
                .expect("men")
                .iter()
                .map(|m| {
                    (
                        m["cell"].as_str().unwrap().to_string(),
                        m["piece"].as_str().unwrap().to_string(),
                        m["owner"].as_u64().unwrap(),
                    )
                })
                .collect();
            men.sort();
            men
        })
        .collect()
}

fn play_out(variant: &str) {
    let server = Server::start(variant);
    let (_, listing) = server.get("/api/variants", None);
    let info = listing["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == variant)
        .expect("listed")
        .clone();
    let players = info["players"].as_u64().unwrap() as usize;
    let seats: Vec<Value> = (0..players).map(|_| json!({"kind": "human"})).collect();
    let (id, tokens) = server.game_with_seats(variant, json!(seats), &[]);
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.unwrap()).collect();
    let options = stored_options(&server, &id);
    let mut reference = open_table(variant, &options, None).expect("reference");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (variant.len() as u64 * 7919));
    let mut played = 0;
    loop {
        // Every seat's view matches the reference's view for that seat.
        let mut movers = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let (status, state) = server.get(&format!("/api/games/{id}"), Some(token));
            assert_eq!(status, 200, "{state}");
            assert_eq!(state["ply"], json!(reference.ply()), "{variant}");
            let finished = reference.finished();
            let viewer = if finished.is_some() {
                Viewer::Arbiter
            } else {
                Viewer::Player(seat)
            };
            let scene = reference.scene(viewer);
            if scene.complete {
                assert_eq!(
                    state["fen"],
                    json!(reference.fen()),
                    "{variant} ply {played}"
                );
            } else {
                assert!(
                    state.get("fen").is_none(),
                    "{variant}: a FEN for a partial view"
                );
            }
            let expected: Vec<Vec<(String, String, u64)>> = scene
                .boards
                .iter()
                .map(|b| {
                    let mut men: Vec<_> = b
                        .men
                        .iter()
                        .map(|m| (m.cell.clone(), m.piece.clone(), m.owner as u64))
                        .collect();
                    men.sort();
                    men
                })
                .collect();
            assert_eq!(
                men_of(&state),
                expected,
                "{variant} seat {seat} ply {played}"
            );
            let seen: Vec<Value> = reference
                .moves_seen(viewer)
                .into_iter()
                .map(|m| json!(m.text))
                .collect();
            assert_eq!(state["moves"], json!(seen), "{variant} seat {seat}");
            match &finished {
                Some(f) => {
                    assert_eq!(state["status"], "finished");
                    assert_eq!(state["result"], json!(f.result));
                    assert_eq!(state["reason"], json!(f.reason.as_str()));
                    assert!(state.get("legal").is_none());
                }
                None => {
                    assert_eq!(state["status"], "ongoing");
                    let to_move = reference.movers();
                    assert_eq!(state["to_move"], json!(to_move));
                    if to_move.contains(&seat) {
                        let mut legal: Vec<String> = state["legal"]
                            .as_array()
                            .expect("legal for the seat to move")
                            .iter()
                            .map(|m| m["text"].as_str().unwrap().to_string())
                            .collect();
                        legal.sort();
                        let mut expected: Vec<String> = reference
                            .legal_for(seat)
                            .into_iter()
                            .map(|m| m.text)
                            .collect();
                        expected.sort();
                        assert_eq!(legal, expected, "{variant} ply {played}");
                        if !legal.is_empty() {
                            movers.push((seat, state));
                        }
                    } else {
                        assert!(
                            state.get("legal").is_none(),
                            "legal moves for a waiting seat"
                        );
                    }
                }
            }
        }
        // Where several may move (real-time bughouse), any of them moves next.
        if movers.is_empty() {
            break;
        }
        let (seat, state) = movers.swap_remove(rng.below(movers.len()));
        if played >= MAX_PLIES {
            break;
        }
        let legal = state["legal"].as_array().unwrap();
        let choice = &legal[rng.below(legal.len())];
        let text = choice["text"].as_str().unwrap();
        // Every move carries the cells a click needs.
        assert!(
            choice.get("to").is_some() || choice.get("part").is_some(),
            "{variant}: {choice}"
        );
        let (status, after) = server.post(
            &format!("/api/games/{id}/moves"),
            &json!({ "move": text, "ply": played }),
            Some(&tokens[seat]),
        );
        assert_eq!(status, 200, "{variant} {text}: {after}");
        reference
            .play_for(seat, text)
            .expect("the reference takes the move");
        played += 1;
    }
    assert!(played > 0, "{variant}: no move was played");
    // The record is there for every ruleset, in its default format.
    let (status, record) = server.get(&format!("/api/games/{id}/record"), Some(&tokens[0]));
    if reference.scene(Viewer::Player(0)).complete || reference.finished().is_some() {
        assert_eq!(status, 200, "{variant}: {record}");
        // Every seat is named (a person `Anonymous`), BPGN's under its roster, and the game
        // is the server's: its address.
        let text = record.as_str().unwrap();
        assert!(!text.contains("\"?\"]\n[Result"), "{variant}: {text}");
        assert!(text.contains("Anonymous"), "{variant}: {text}");
        assert!(
            text.contains(&format!("http://{}/games/{id}", server.addr)),
            "{variant}: {text}"
        );
        if text.contains("[WhiteA ") {
            for tag in ["WhiteA", "WhiteB", "BlackA", "BlackB"] {
                let line = format!("[{tag} \"Anonymous\"]");
                assert!(text.contains(&line), "{variant}: {line} in {text}");
            }
        }
    } else {
        assert_eq!(
            status, 403,
            "{variant}: the record of a hidden game in progress"
        );
    }
}

macro_rules! rulesets {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                play_out(stringify!($name));
            }
        )*
    };
}

rulesets!(
    avalanche,
    bughouse,
    capablanca,
    chess,
    chex,
    chushogi,
    congo,
    daishogi,
    darkchess,
    doublechess,
    doublemove,
    gess,
    grand,
    hexchess,
    losing,
    maharajah,
    makarenko,
    minishogi,
    omega,
    outer,
    progressive,
    renaissance,
    shogi,
    speed,
    taktika,
    threeplayer,
    torishogi,
    xiangqi,
    yarishogi,
);

#[test]
fn the_listing_has_every_ruleset_with_a_drawing() {
    let server = Server::start("listing");
    let (status, listing) = server.get("/api/variants", None);
    assert_eq!(status, 200);
    let variants = listing["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 29);
    for v in variants {
        let boards = v["boards"].as_array().unwrap();
        assert!(!boards.is_empty(), "{}", v["id"]);
        for b in boards {
            let cells = b["cells"].as_array().unwrap();
            assert!(!cells.is_empty(), "{}", v["id"]);
            assert!(cells[0]["polygon"].as_array().unwrap().len() >= 3);
            assert!(cells[0]["label"].is_string());
        }
        // Secret options are never listed.
        assert!(
            v["options"]
                .as_array()
                .unwrap()
                .iter()
                .all(|o| o["name"] != "draw-seed")
        );
    }
    let bughouse = variants.iter().find(|v| v["id"] == "bughouse").unwrap();
    assert_eq!(bughouse["boards"].as_array().unwrap().len(), 2);
    assert_eq!(bughouse["players"], 4);
}
