//! The game server: people play every ruleset with each other and with the engine over HTTP
//! and websockets, and every game is stored.
//!
//! Layout: startup here; the rules of a hosted game in [`referee`] (no I/O); one task per live
//! game around it in [`live`]; what each viewer is sent in [`render`]; the HTTP and websocket
//! API, the pages, and the one mapping of errors to answers, in [`api`]; the games in memory in
//! [`app`]; the store in [`store`]; clocks in [`clock`]; the engine pool in [`engines`];
//! several nodes on one PostgreSQL store in [`cluster`], talking over [`bus`]. Nothing here
//! knows a ruleset: a game is a `chaturanga_session::Table`, which speaks data (legal moves
//! with their cells, scenes per viewer).

pub mod api;
pub mod app;
pub mod bus;
pub mod clock;
pub mod cluster;
pub mod connections;
pub mod engines;
pub mod live;
pub mod lobby;
pub mod quota;
pub mod referee;
pub mod render;
pub mod store;
mod wire;

pub use crate::app::AppState;
use crate::engines::EnginePool;
use crate::quota::{Limits, Quotas};
use crate::store::{Database, Store};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

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
    /// What each client, and all of them together, may spend.
    pub limits: Limits,
    /// Whether clients connect directly or through a reverse proxy.
    pub peers: connections::Peers,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: Database::Sqlite("chaturanga.db".into()),
            engine_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: Limits::default(),
            peers: connections::Peers::Direct,
        }
    }
}

/// How often clients whose rates are back to full are forgotten.
const FORGET_QUIET_CLIENTS_EVERY: Duration = Duration::from_secs(60);

/// Opens the store, starts serving (`ready` gets the bound address first, for tests binding
/// port 0), then resumes the live games' clocks and engines, and serves until the process
/// ends.
pub async fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), Box<dyn std::error::Error>> {
    serve_until(config, ready, std::future::pending()).await
}

/// Like [`serve`], until `stop` completes; the SQLite file's lock is let go on return (the
/// games' tasks end with the runtime).
pub async fn serve_until(
    config: Config,
    ready: impl FnOnce(SocketAddr),
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), Box<dyn std::error::Error>> {
    // One server writes an SQLite file: a second one would run the same games beside the
    // first and disagree with it.
    let _writer_lock = match &config.db {
        Database::Sqlite(path) => Some(store::sqlite::lock_for_writing(path)?),
        Database::Postgres(_) => None,
    };
    let database = config.db.clone();
    let store = tokio::task::spawn_blocking(move || Store::open(&database)).await??;
    let mut limits = config.limits;
    limits.connections = connections::connections_that_fit(limits.connections);
    if limits.searches_per_client == 0 {
        limits.searches_per_client = (config.engine_threads / 2).max(1);
    }
    let engines = EnginePool::new(config.engine_threads, limits.searches_per_client);
    let quotas = Arc::new(Quotas::new(limits));
    let state = AppState::new(store.clone(), engines, quotas.clone());
    let listener = connections::listen(config.listen)?;
    ready(listener.local_addr()?);
    tokio::spawn(api::warm_variants());
    tokio::spawn(lobby::run(state.clone(), api::summary_json));
    if store.cluster().is_some() {
        // The nodes share the live games: this one takes over those whose nodes died, and
        // follows the others when asked for them.
        tokio::spawn(cluster::run(state.clone()));
    } else {
        tokio::spawn(resume(state.clone()));
    }
    {
        let quotas = quotas.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(FORGET_QUIET_CLIENTS_EVERY);
            loop {
                every.tick().await;
                quotas.forget_quiet_clients();
            }
        });
    }
    tokio::select! {
        () = connections::serve(listener, api::router(state), quotas, config.peers) => {}
        () = stop => {}
    }
    Ok(())
}

/// Starts the tasks of the live games that run without a visitor (clocks, engines), while
/// the site already serves: a restart with many games answers at once. Games without a
/// clock left alone are adjourned: they start when someone comes.
async fn resume(state: AppState) {
    let since = store::now_ms() - referee::lifecycle::ADJOURN_AFTER.as_millis() as i64;
    let store = state.store().clone();
    let ids = match tokio::task::spawn_blocking(move || store.live_ids(since)).await {
        Ok(Ok(ids)) => ids,
        Ok(Err(e)) => {
            tracing::warn!("live games not resumed: {e}");
            return;
        }
        Err(_) => return,
    };
    for id in ids {
        if let Err(e) = state.game(&id).await {
            tracing::warn!(game = %id, "not resumed: {e:?}");
        }
    }
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
