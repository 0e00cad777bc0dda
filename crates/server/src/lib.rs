//! The game server: people play every ruleset with each other and with the engine over HTTP
//! and websockets, and every game is stored.
//!
//! Layout: startup and routing here; the HTTP and websocket API in [`api`]; the store with
//! its migrations in [`store`]; one task per live game in [`live`]; clocks in [`clock`]; the
//! engine pool in [`engines`]; one error type in [`error`]. Nothing here knows a ruleset: a
//! game is a `chaturanga_session::Table`, which speaks data (legal moves with their cells,
//! scenes per viewer).

pub mod api;
pub mod clock;
pub mod engines;
pub mod error;
pub mod live;
pub mod store;
pub mod web;
mod wire;

use crate::engines::EnginePool;
use crate::error::ApiError;
use crate::live::GameHandle;
use crate::store::Store;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The SQLite database file (created and migrated on first start).
    pub db: PathBuf,
    /// Engine searches run at once (default: the machine's cores).
    pub engine_threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("chaturanga.db"),
            engine_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    store: Store,
    engines: EnginePool,
    games: Arc<Mutex<HashMap<String, GameHandle>>>,
}

impl AppState {
    /// State over an opened store.
    pub fn new(store: Store, engines: EnginePool) -> Self {
        AppState {
            store,
            engines,
            games: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The task of game `id`, started from the store if it is not running.
    pub async fn game(&self, id: &str) -> Result<GameHandle, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!(
                "no game {:?}",
                id.chars().take(64).collect::<String>()
            )));
        }
        if let Some(handle) = self.lock().get(id).filter(|h| !h.is_closed()) {
            return Ok(handle.clone());
        }
        let store = self.store.clone();
        let key = id.to_string();
        let row = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(|e| ApiError::internal(format!("store task: {e}")))??
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let secret = api::secret_option_names(&row.variant);
        let mut games = self.lock();
        // Another request may have started it meanwhile.
        if let Some(handle) = games.get(id).filter(|h| !h.is_closed()) {
            return Ok(handle.clone());
        }
        let handle = live::start(row, self.store.clone(), self.engines.clone(), &secret)?;
        games.insert(id.to_string(), handle.clone());
        Ok(handle)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, GameHandle>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Opens the store, resumes the live games' clocks and engines, and serves until the process
/// ends; `ready` gets the bound address first (for tests binding port 0).
pub async fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(&config.db)?;
    let state = AppState::new(store.clone(), EnginePool::new(config.engine_threads));
    // Live games run their clocks and engines without waiting for a visitor.
    for id in store.live_ids()? {
        if let Err(e) = state.game(&id).await {
            tracing::warn!(game = %id, "not resumed: {e}");
        }
    }
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, api::router(state)).await?;
    Ok(())
}

/// Runs [`serve`] on a multi-threaded runtime of its own, printing the URL it serves.
pub fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(config, |address| {
        println!("serving http://{address}/");
    }))
}
