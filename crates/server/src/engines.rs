//! The engine pool: engine seats think on blocking threads, at most as many at once as the
//! machine has cores, never on the async runtime.
//!
//! Levels (the limits of one move; a clock may shorten them, to a twentieth of the time left):
//!
//! | level | limit            |
//! |-------|------------------|
//! | 1     | 1 ply            |
//! | 2     | 200 nodes        |
//! | 3     | 1,000 nodes      |
//! | 4     | 5,000 nodes      |
//! | 5     | 25,000 nodes     |
//! | 6     | 0.5 s            |
//! | 7     | 1.5 s            |
//! | 8     | 4 s              |

use chaturanga_engine::Limits;
use chaturanga_session::SearchTask;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Transposition table of one engine move, in MiB.
pub const HASH_MB: usize = 8;

/// The limits of one move at `level` (1-8; out-of-range levels are clamped).
pub fn level_limits(level: u8) -> Limits {
    let mut limits = Limits::default();
    match level.clamp(1, 8) {
        1 => limits.depth = Some(1),
        2 => limits.nodes = Some(200),
        3 => limits.nodes = Some(1_000),
        4 => limits.nodes = Some(5_000),
        5 => limits.nodes = Some(25_000),
        6 => limits.move_time = Some(Duration::from_millis(500)),
        7 => limits.move_time = Some(Duration::from_millis(1_500)),
        _ => limits.move_time = Some(Duration::from_secs(4)),
    }
    limits
}

/// Runs searches with bounded concurrency.
#[derive(Clone)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
}

impl EnginePool {
    /// A pool running at most `concurrent` searches at once.
    pub fn new(concurrent: usize) -> Self {
        EnginePool {
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
        }
    }

    /// Runs `task` when a thread is free and hands its move to `done`. A task whose stop
    /// flag is set before it starts answers at once with its best move so far (none).
    pub fn run(&self, task: SearchTask, done: impl FnOnce(Option<String>) + Send + 'static) {
        let permits = self.permits.clone();
        tokio::spawn(async move {
            let Ok(_permit) = permits.acquire_owned().await else {
                return;
            };
            if task.stop.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            if let Ok(best) = tokio::task::spawn_blocking(task.run).await {
                done(best);
            }
        });
    }
}
