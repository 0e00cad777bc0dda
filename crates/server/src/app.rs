//! What every request handler shares: the store, the engine pool, and the task of each game
//! in memory, started from the store on first use.

use crate::bus::Nodes;
use crate::engines::EnginePool;
use crate::live::{self, GameHandle, LiveError, Role};
use crate::lobby::{Counts, LobbyFeed};
use crate::quota::Quotas;
use crate::store::{GameStatus, Store, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    store: Store,
    engines: EnginePool,
    games: Arc<Mutex<HashMap<String, GameHandle>>>,
    /// The writes sent to other nodes, where the store has several (PostgreSQL).
    nodes: Option<Arc<Nodes>>,
    /// What each client may spend.
    quotas: Arc<Quotas>,
    /// The lobby its sockets are sent.
    lobby: Arc<LobbyFeed>,
}

impl AppState {
    /// State over an opened store, within `quotas`.
    pub fn new(store: Store, engines: EnginePool, quotas: Arc<Quotas>) -> Self {
        let nodes = store.cluster().map(|_| Arc::new(Nodes::default()));
        AppState {
            store,
            engines,
            games: Arc::new(Mutex::new(HashMap::new())),
            nodes,
            quotas,
            lobby: Arc::new(LobbyFeed::default()),
        }
    }

    /// The lobby its sockets are sent.
    pub fn lobby(&self) -> &LobbyFeed {
        &self.lobby
    }

    /// How many games this node runs and how many play and watch them here.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for handle in self.running_games().iter().filter(|h| h.is_live()) {
            let (players, spectators) = handle.watchers();
            counts.games += 1;
            counts.players += players;
            counts.spectators += spectators;
        }
        counts
    }

    /// What each client may spend.
    pub fn quotas(&self) -> &Quotas {
        &self.quotas
    }

    /// The quotas, shared.
    pub fn quotas_shared(&self) -> Arc<Quotas> {
        self.quotas.clone()
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
    pub async fn game(&self, id: &str) -> Result<GameHandle, LiveError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(LiveError::NoGame(id.chars().take(64).collect()));
        }
        if let Some(handle) = self.running_game(id) {
            return Ok(handle);
        }
        let store = self.store.clone();
        let key = id.to_string();
        // With several nodes, the game runs here only if no other node runs it.
        let (row, role) = tokio::task::spawn_blocking(move || {
            let Some(row) = store.load(&key)? else {
                return Ok((None, Role::Runs));
            };
            let role = match store.cluster() {
                Some(cluster) if row.status == GameStatus::Live => match cluster.acquire(&key)? {
                    Ok(()) => Role::Runs,
                    Err(_) => Role::Follows,
                },
                _ => Role::Runs,
            };
            Ok::<_, StoreError>((Some(row), role))
        })
        .await
        .map_err(|_| LiveError::Stopped)??;
        let row = row.ok_or_else(|| LiveError::NoGame(id.to_string()))?;
        let mut games = self.lock();
        // Another request may have started it meanwhile.
        if let Some(handle) = games.get(id).filter(|h| !h.is_closed()) {
            return Ok(handle.clone());
        }
        let handle = live::start(
            row,
            self.store.clone(),
            self.engines.clone(),
            self.nodes.clone().map(|nodes| (nodes, role)),
        )?;
        games.insert(id.to_string(), handle.clone());
        Ok(handle)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, GameHandle>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }
}
