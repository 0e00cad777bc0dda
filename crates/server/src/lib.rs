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
pub mod engines;
pub mod live;
pub mod referee;
pub mod render;
pub mod store;
mod wire;

pub use crate::app::AppState;
use crate::engines::EnginePool;
use crate::store::{Database, Store};
use std::net::SocketAddr;

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
        // Live games run their clocks and engines without waiting for a visitor (games
        // without a clock left alone are adjourned: they start when someone comes).
        let since = store::now_ms() - referee::lifecycle::ADJOURN_AFTER.as_millis() as i64;
        let ids = {
            let store = store.clone();
            tokio::task::spawn_blocking(move || store.live_ids(since)).await??
        };
        for id in ids {
            if let Err(e) = state.game(&id).await {
                tracing::warn!(game = %id, "not resumed: {e:?}");
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
