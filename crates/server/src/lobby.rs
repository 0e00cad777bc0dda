//! The lobby as it changes: the open seeks, the games being played and just finished, and
//! how many play and watch, pushed to every lobby socket (`/api/lobby/socket`) when it
//! changes, so seeks appear and vanish without a reload.
//!
//! One task builds the lobby from the store while anyone watches it and sends a new
//! snapshot only when it differs from the last: a thousand lobby sockets cost one query
//! round a second, not a thousand. The store is shared by the nodes, so every node's lobby
//! lists every node's games; the counts of players and spectators are of the sockets this
//! node holds.

use crate::app::AppState;
use crate::referee::lifecycle;
use crate::store::{Filter, Listing, Summary, now_ms};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How often the lobby is built again while someone watches it.
pub const LOBBY_EVERY: Duration = Duration::from_secs(1);
/// Games in each list of the lobby.
const LISTED: usize = 20;
/// Finished games in the lobby (the archive has the rest).
const FINISHED_LISTED: usize = 8;

/// The latest lobby, as the message its sockets receive.
pub struct LobbyFeed {
    sender: watch::Sender<Arc<str>>,
}

impl Default for LobbyFeed {
    fn default() -> Self {
        LobbyFeed {
            sender: watch::Sender::new(Arc::from("")),
        }
    }
}

impl LobbyFeed {
    /// A receiver of every new lobby (the current one first, once built).
    pub fn subscribe(&self) -> watch::Receiver<Arc<str>> {
        self.sender.subscribe()
    }

    /// Whether any socket watches the lobby.
    pub fn watched(&self) -> bool {
        self.sender.receiver_count() > 0
    }

    /// Makes `message` the lobby, telling the sockets only if it changed; answers whether
    /// it did.
    pub fn publish(&self, message: String) -> bool {
        self.sender.send_if_modified(|old| {
            if **old == *message {
                return false;
            }
            *old = Arc::from(message);
            true
        })
    }
}

/// How many play and watch on this node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games being played.
    pub games: usize,
    /// Seats whose players are here.
    pub players: usize,
    /// Spectators' sockets.
    pub spectators: usize,
}

/// The lobby message: `{"t": "lobby", "d": {open, live, finished, counts}}`, each game as
/// `GET /api/games` lists it, the games open for a seat left out of the live list.
pub fn lobby_message(open: &[Value], live: &[Value], finished: &[Value], counts: Counts) -> String {
    let open_ids: Vec<&Value> = open.iter().filter_map(|g| g.get("id")).collect();
    let playing: Vec<&Value> = live
        .iter()
        .filter(|g| g.get("id").is_none_or(|id| !open_ids.contains(&id)))
        .collect();
    json!({
        "t": "lobby",
        "d": {
            "open": open,
            "live": playing,
            "finished": finished,
            "counts": {
                "games": counts.games,
                "players": counts.players,
                "spectators": counts.spectators,
            },
        }
    })
    .to_string()
}

/// Builds the lobby every [`LOBBY_EVERY`] while anyone watches it, and publishes it.
pub async fn run(state: AppState, summary: fn(&Summary) -> Value) {
    let mut every = tokio::time::interval(LOBBY_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if !state.lobby().watched() {
            continue;
        }
        let store = state.store().clone();
        let lists = tokio::task::spawn_blocking(move || {
            let live = Listing::Live {
                active_since_ms: now_ms() - lifecycle::ADJOURN_AFTER.as_millis() as i64,
            };
            let all = Filter::default();
            let finished = Listing::Finished { before: None };
            Ok::<_, crate::store::StoreError>((
                store.list(&Listing::Open, &all, LISTED)?.games,
                store.list(&live, &all, LISTED)?.games,
                store.list(&finished, &all, FINISHED_LISTED)?.games,
            ))
        })
        .await;
        // A store that does not answer now leaves the last lobby standing.
        let Ok(Ok((open, live, finished))) = lists else {
            continue;
        };
        let each = |games: Vec<Summary>| games.iter().map(summary).collect::<Vec<_>>();
        let counts = state.counts();
        state.lobby().publish(lobby_message(
            &each(open),
            &each(live),
            &each(finished),
            counts,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lobby_is_sent_again_only_when_it_changes() {
        let feed = LobbyFeed::default();
        let mut socket = feed.subscribe();
        let counts = Counts {
            games: 1,
            players: 2,
            spectators: 0,
        };
        let seek = json!({"id": "a", "variant": "chess"});
        let both = std::slice::from_ref(&seek);
        let first = lobby_message(both, both, &[], counts);
        assert!(feed.publish(first.clone()));
        assert!(socket.has_changed().unwrap());
        assert_eq!(&**socket.borrow_and_update(), first.as_str());
        assert!(!feed.publish(first), "the same lobby is not sent twice");
        assert!(!socket.has_changed().unwrap());
        let taken = lobby_message(&[], &[seek], &[], counts);
        assert!(feed.publish(taken));
        assert!(socket.has_changed().unwrap());
    }

    #[test]
    fn a_game_open_for_a_seat_is_listed_once() {
        let live = [json!({"id": "a"}), json!({"id": "b"})];
        let message: Value =
            serde_json::from_str(&lobby_message(&live[..1], &live, &[], Counts::default()))
                .unwrap();
        assert_eq!(message["d"]["open"].as_array().unwrap().len(), 1);
        assert_eq!(message["d"]["live"], json!([{"id": "b"}]));
        assert_eq!(message["d"]["counts"]["games"], 0);
    }
}
