//! `GET /api/lobby/socket`: the lobby pushed as it changes (the `lobby` module builds it).
//! The socket only listens to the server; a client that talks to it anyway is cut off.

use crate::app::AppState;
use crate::connections::{Client, Held};
use crate::quota::Slot;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use std::sync::Arc;
use tokio::sync::watch;

use super::error::ApiError;

/// Frames a lobby socket reads: it takes none but closes and pongs.
const MAX_FRAME: usize = 1024;
/// Messages a client may send on a lobby socket before it is closed.
const MESSAGES_IGNORED: usize = 20;

pub(super) async fn upgrade(
    State(state): State<AppState>,
    client: Client,
    held: Option<axum::Extension<Held>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // A lobby socket counts among its client's sockets, as a game's does.
    let slots: (Slot<_>, Option<Held>) = (
        state
            .quotas()
            .sockets_per_client
            .take(client.0, "sockets")?,
        held.map(|axum::Extension(h)| h),
    );
    let feed = state.lobby().subscribe();
    Ok(ws
        .read_buffer_size(MAX_FRAME)
        .write_buffer_size(0)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let _slots = slots;
            run(socket, feed).await;
        }))
}

async fn run(mut socket: WebSocket, mut feed: watch::Receiver<Arc<str>>) {
    // The lobby as it is now, then every change.
    feed.mark_changed();
    let mut heard = 0;
    loop {
        tokio::select! {
            changed = feed.changed() => {
                if changed.is_err() {
                    break;
                }
                let lobby = feed.borrow_and_update().clone();
                // Not built yet: the first build comes within a second.
                if lobby.is_empty() {
                    continue;
                }
                if socket.send(Message::Text(lobby.as_ref().into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(Message::Pong(_) | Message::Ping(_))) => {}
                Some(Ok(_)) => {
                    heard += 1;
                    if heard > MESSAGES_IGNORED {
                        let close = CloseFrame {
                            code: close_code::POLICY,
                            reason: "the lobby socket takes no messages".into(),
                        };
                        let _ = socket.send(Message::Close(Some(close))).await;
                        break;
                    }
                }
            },
        }
    }
}
