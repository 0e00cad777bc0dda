//! The game server: people play every ruleset with each other and with the engine over HTTP
//! and websockets, and every game is stored.
//!
//! Layout: startup and routing here; the HTTP and websocket API in [`api`]; the store with
//! its migrations in [`store`]; one task per live game in [`live`]; clocks in [`clock`]; the
//! engine pool in [`engines`]; one error type in [`error`]; several nodes on one PostgreSQL
//! store in [`cluster`]. Nothing here knows a ruleset: a
//! game is a `chaturanga_session::Table`, which speaks data (legal moves with their cells,
//! scenes per viewer).

pub mod api;
pub mod clock;
pub mod cluster;
pub mod engines;
pub mod error;
pub mod live;
pub mod store;
pub mod web;
mod wire;

use crate::cluster::Nodes;
use crate::engines::EnginePool;
use crate::error::ApiError;
use crate::live::{GameHandle, Role};
use crate::store::{Database, Store};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The database: an SQLite file (created and migrated on first start), or a PostgreSQL
    /// server that several nodes may share.
    pub db: Database,
    /// Engine searches run at once (default: the machine's cores).
    pub engine_threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: Database::Sqlite("chaturanga.db".into()),
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
    /// The writes sent to other nodes, where the store has several (PostgreSQL).
    nodes: Option<Arc<Nodes>>,
}

impl AppState {
    /// State over an opened store.
    pub fn new(store: Store, engines: EnginePool) -> Self {
        let nodes = store.cluster().map(|_| Arc::new(Nodes::default()));
        AppState {
            store,
            engines,
            games: Arc::new(Mutex::new(HashMap::new())),
            nodes,
        }
    }

    /// The writes this node sent to others (only with a store of several nodes).
    pub fn nodes(&self) -> &Nodes {
        static NONE: std::sync::OnceLock<Nodes> = std::sync::OnceLock::new();
        self.nodes
            .as_deref()
            .unwrap_or_else(|| NONE.get_or_init(Nodes::default))
    }

    /// The task of game `id` if it is in memory.
    pub fn running_game(&self, id: &str) -> Option<GameHandle> {
        self.lock().get(id).filter(|h| !h.is_closed()).cloned()
    }

    /// Every game task in memory, with its id.
    pub fn games_snapshot(&self) -> Vec<(String, GameHandle)> {
        self.lock()
            .iter()
            .filter(|(_, h)| !h.is_closed())
            .map(|(id, h)| (id.clone(), h.clone()))
            .collect()
    }

    /// Every game task in memory.
    pub fn running_games(&self) -> Vec<GameHandle> {
        self.games_snapshot().into_iter().map(|(_, h)| h).collect()
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
        // With several nodes, the game runs here only if no other node runs it.
        let (row, role) = tokio::task::spawn_blocking(move || {
            let Some(row) = store.load(&key)? else {
                return Ok((None, Role::Runs));
            };
            let role = match store.cluster() {
                Some(cluster) if row.status == "live" => match cluster.acquire(&key)? {
                    Ok(()) => Role::Runs,
                    Err(_) => Role::Follows,
                },
                _ => Role::Runs,
            };
            Ok::<_, crate::store::StoreError>((Some(row), role))
        })
        .await
        .map_err(|e| ApiError::internal(format!("store task: {e}")))??;
        let row = row.ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let secret = api::secret_option_names(&row.variant);
        let mut games = self.lock();
        // Another request may have started it meanwhile.
        if let Some(handle) = games.get(id).filter(|h| !h.is_closed()) {
            return Ok(handle.clone());
        }
        let handle = live::start(
            row,
            self.store.clone(),
            self.engines.clone(),
            &secret,
            self.nodes.clone().map(|nodes| (nodes, role)),
        )?;
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
    let database = config.db.clone();
    let store = tokio::task::spawn_blocking(move || Store::open(&database)).await??;
    let state = AppState::new(store.clone(), EnginePool::new(config.engine_threads));
    if store.cluster().is_some() {
        // The nodes share the live games: this one takes over those whose nodes died, and
        // follows the others when asked for them.
        tokio::spawn(cluster::run(state.clone()));
    } else {
        // Live games run their clocks and engines without waiting for a visitor.
        let ids = {
            let store = store.clone();
            tokio::task::spawn_blocking(move || store.live_ids()).await??
        };
        for id in ids {
            if let Err(e) = state.game(&id).await {
                tracing::warn!(game = %id, "not resumed: {e}");
            }
        }
    }
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, api::router(state)).await?;
    Ok(())
}

/// Runs [`serve`] on a multi-threaded runtime of its own, printing the URL it serves and
/// logging warnings and notable events (takeovers, lost leases) to standard error.
pub fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(config, |address| {
        println!("serving http://{address}/");
    }))
}
