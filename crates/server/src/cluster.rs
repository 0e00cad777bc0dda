//! Several server nodes on one PostgreSQL store: which node runs each live game.
//!
//! Exactly one node runs a live game at a time: the one holding its lease (a row renewed
//! every [`RENEW_EVERY`], lapsing after [`LEASE`]). It runs the clocks and engines and
//! writes the moves; its commits are fenced by the lease (see [`crate::store::postgres`]).
//! Every other node that serves the game follows it: it answers reads from its own replica,
//! sends the writes its clients make to the running node over the bus ([`crate::bus`]), and
//! catches its replica up when a notice says the game changed, relaying the new events to its
//! sockets. When a node dies, its leases lapse, and the first node to see a live game without
//! a lease takes it over, resuming its clocks from what was stored.

use crate::api::error::ApiError;
use crate::app::AppState;
use crate::bus::{NOTICE_VERSION, Notice, RemoteError, blocking, cluster_of};
use crate::live::{LiveError, Request};
pub use crate::store::postgres::LEASE;
use std::time::Duration;

/// How often a node renews its leases and looks for games whose nodes died.
pub const RENEW_EVERY: Duration = Duration::from_millis(1500);
/// Orphaned games one node takes over per round (the others take the rest).
const TAKEOVERS_PER_ROUND: usize = 50;

/// Runs this node's part of the cluster until the process ends: relays notices to the games,
/// answers commands for the games it runs, renews its leases and takes over games whose
/// nodes died.
pub async fn run(state: AppState) {
    let Some(cluster) = state.store().cluster() else {
        return;
    };
    let Some(notices) = cluster.listen() else {
        return;
    };
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    std::thread::Builder::new()
        .name("cluster-notices".into())
        .spawn(move || {
            while let Ok(notice) = notices.recv() {
                if sender.send(notice).is_err() {
                    return;
                }
            }
        })
        .ok();
    let leases = tokio::spawn(keep_leases(state.clone()));
    while let Some(notice) = receiver.recv().await {
        match notice {
            // The listener's heartbeat.
            Some(text) if text.is_empty() => {}
            Some(text) => on_notice(&state, &text).await,
            // Notices were lost while the listener reconnected: catch every game up.
            None => {
                for handle in state.running_games() {
                    let _ = handle.try_send(Request::Refresh);
                }
            }
        }
    }
    leases.abort();
}

async fn on_notice(state: &AppState, text: &str) {
    let Ok(notice) = serde_json::from_str::<Notice>(text) else {
        tracing::warn!(
            "a notice that does not parse: {}",
            text.chars().take(200).collect::<String>()
        );
        return;
    };
    if notice.v != NOTICE_VERSION {
        tracing::warn!(
            "a notice of format {} (this node reads {NOTICE_VERSION})",
            notice.v
        );
        return;
    }
    match notice.kind.as_deref() {
        None => {
            // A game changed: the node following it catches up.
            if let Some(id) = &notice.game
                && let Some(handle) = state.running_game(id)
            {
                let _ = handle.try_send(Request::Refresh);
            }
        }
        Some("command") => {
            let state = state.clone();
            tokio::spawn(async move { answer_command(&state, notice).await });
        }
        Some("reply") => {
            if let Some(req) = notice.req {
                let result = match notice.error {
                    None => Ok(()),
                    Some(e) => Err(e),
                };
                state.nodes().answered(req, result);
            }
        }
        Some(other) => tracing::warn!("a notice of unknown kind {other:?}"),
    }
}

/// Runs a command another node forwarded, if this node runs the game, and answers it.
async fn answer_command(state: &AppState, notice: Notice) {
    let (Some(from), Some(req), Some(id), Some(command)) =
        (notice.from, notice.req, notice.game, notice.command)
    else {
        return;
    };
    let seat = notice.seat;
    tracing::debug!(game = %id, from = %from, "command {req} from another node");
    let result: Result<(), LiveError> = match state.game(&id).await {
        Ok(handle) => {
            handle
                .ask(|reply| Request::Remote {
                    seat,
                    command,
                    reply,
                })
                .await
        }
        Err(e) => Err(e),
    };
    let mut reply = Notice::new("reply");
    reply.req = Some(req);
    reply.error = result.err().map(|e| {
        let e = ApiError::from(e);
        RemoteError {
            status: e.status.as_u16(),
            code: Some(e.code.to_string()),
            message: e.message,
        }
    });
    let payload = serde_json::to_string(&reply).unwrap_or_default();
    let store = state.store().clone();
    if let Err(e) = blocking(move || cluster_of(&store)?.notify(Some(&from), &payload)).await {
        tracing::warn!(game = %id, "reply not sent: {e}");
    }
}

/// Renews this node's leases, hands back the games whose leases it lost, and takes over live
/// games whose nodes died.
async fn keep_leases(state: AppState) {
    let mut every = tokio::time::interval(RENEW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let store = state.store().clone();
        let held = match blocking(move || cluster_of(&store)?.renew()).await {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!("leases not renewed: {e}");
                continue;
            }
        };
        for (id, handle) in state.games_snapshot() {
            if !held.contains(&id) {
                let _ = handle.try_send(Request::LeaseLost);
            }
        }
        let store = state.store().clone();
        let orphans = match blocking(move || cluster_of(&store)?.orphans(TAKEOVERS_PER_ROUND)).await
        {
            Ok(orphans) => orphans,
            Err(e) => {
                tracing::warn!("no look for orphaned games: {e}");
                continue;
            }
        };
        for id in orphans {
            let store = state.store().clone();
            let key = id.clone();
            if let Ok(Ok(())) = blocking(move || cluster_of(&store)?.acquire(&key)).await {
                tracing::info!(game = %id, node = %cluster_of(state.store()).map(|c| c.node().to_string()).unwrap_or_default(), "taken over");
                match state.running_game(&id) {
                    Some(handle) => {
                        let _ = handle.try_send(Request::LeaseTaken);
                    }
                    None => {
                        if let Err(e) = state.game(&id).await {
                            tracing::warn!(game = %id, "not taken over: {e}");
                        }
                    }
                }
            }
        }
    }
}
