//! The engine pool: engine seats think on blocking threads, at most as many at once as the
//! machine has cores, never on the async runtime, and clients take turns ([`EnginePool`]).
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
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Transposition table of one engine move, in MiB.
pub const HASH_MB: usize = 8;

/// A search limited to this much time or more is long (levels 6-8; node limits are short).
pub const LONG_SEARCH: Duration = Duration::from_millis(200);

fn is_long(limits: &Limits) -> bool {
    limits.move_time.is_some_and(|t| t >= LONG_SEARCH)
}

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

/// Runs searches on at most as many threads as it was given, fairly between clients: each
/// client's games (its *lane*) wait in their own line, the lines take turns for a free
/// thread, and no lane runs more than its share at once, so one client's many games never
/// hold back another's engine. Long searches (a time limit of [`LONG_SEARCH`] or more) never
/// take the last thread: a search is never preempted, so without it a short reply would wait
/// for whole seconds behind others' long ones. The waiting lines hold at most one search per
/// live engine game (a game stops its search before it starts another).
#[derive(Clone)]
pub struct EnginePool {
    inner: Arc<Mutex<Lines>>,
}

type Done = Box<dyn FnOnce(Option<String>) + Send>;

struct Waiting {
    task: SearchTask,
    long: bool,
    done: Done,
}

struct Lines {
    threads: usize,
    per_lane: usize,
    running: usize,
    /// Long searches among those running.
    running_long: usize,
    running_per_lane: HashMap<String, usize>,
    waiting: HashMap<String, VecDeque<Waiting>>,
    /// Lanes with searches waiting, in the order they get their next turn.
    turns: VecDeque<String>,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once, at most `per_lane` of one lane.
    pub fn new(threads: usize, per_lane: usize) -> Self {
        EnginePool {
            inner: Arc::new(Mutex::new(Lines {
                threads: threads.max(1),
                per_lane: per_lane.max(1),
                running: 0,
                running_long: 0,
                running_per_lane: HashMap::new(),
                waiting: HashMap::new(),
                turns: VecDeque::new(),
            })),
        }
    }

    /// Runs `task` (searching within `limits`) for `lane` when its turn comes and hands its
    /// move to `done`. A task whose stop flag is set before it starts is dropped without an
    /// answer (its game moved on).
    pub fn run(
        &self,
        lane: &str,
        task: SearchTask,
        limits: &Limits,
        done: impl FnOnce(Option<String>) + Send + 'static,
    ) {
        {
            let mut lines = self.lock();
            let line = lines.waiting.entry(lane.to_string()).or_default();
            line.push_back(Waiting {
                task,
                long: is_long(limits),
                done: Box::new(done),
            });
            if line.len() == 1 {
                lines.turns.push_back(lane.to_string());
            }
        }
        self.dispatch();
    }

    /// Searches waiting, in all (for tests and figures).
    pub fn waiting(&self) -> usize {
        self.lock().waiting.values().map(VecDeque::len).sum()
    }

    /// Starts waiting searches while threads are free, lanes taking turns.
    fn dispatch(&self) {
        loop {
            let (lane, job) = {
                let mut lines = self.lock();
                match lines.next() {
                    Some(next) => next,
                    None => return,
                }
            };
            let running = Running {
                pool: self.clone(),
                lane,
                long: job.long,
            };
            tokio::task::spawn_blocking(move || {
                let best = (job.task.run)();
                // The thread is free before the move is handed on (and if the search panics).
                drop(running);
                (job.done)(best);
            });
        }
    }

    fn finished(&self, lane: &str, long: bool) {
        {
            let mut lines = self.lock();
            lines.running -= 1;
            lines.running_long -= usize::from(long);
            if let Some(n) = lines.running_per_lane.get_mut(lane) {
                *n -= 1;
                if *n == 0 {
                    lines.running_per_lane.remove(lane);
                }
            }
        }
        self.dispatch();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lines> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A search running for `lane`: its thread is counted free again when this is dropped.
struct Running {
    pool: EnginePool,
    lane: String,
    long: bool,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.pool.finished(&self.lane, self.long);
    }
}

impl Lines {
    /// The next search to start, counted as running, if a thread is free and a lane may run.
    fn next(&mut self) -> Option<(String, Waiting)> {
        if self.running >= self.threads {
            return None;
        }
        // Each lane with searches waiting once, in turn order, until one may run.
        for _ in 0..self.turns.len() {
            let lane = self.turns.pop_front()?;
            let running = self.running_per_lane.get(&lane).copied().unwrap_or(0);
            let line = self.waiting.entry(lane.clone()).or_default();
            // Searches stopped while waiting are dropped: their games moved on.
            while line
                .front()
                .is_some_and(|w| w.task.stop.load(Ordering::Relaxed))
            {
                line.pop_front();
            }
            if line.is_empty() {
                self.waiting.remove(&lane);
                continue;
            }
            let long_full = self.threads > 1 && self.running_long + 1 >= self.threads;
            if running >= self.per_lane || (long_full && line.front().is_some_and(|w| w.long)) {
                self.turns.push_back(lane);
                continue;
            }
            let job = line.pop_front()?;
            self.running_long += usize::from(job.long);
            if line.is_empty() {
                self.waiting.remove(&lane);
            } else {
                self.turns.push_back(lane.clone());
            }
            self.running += 1;
            *self.running_per_lane.entry(lane.clone()).or_insert(0) += 1;
            return Some((lane, job));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    const SHORT: Limits = Limits {
        depth: Some(1),
        nodes: None,
        move_time: None,
        clock: None,
        infinite: false,
        overhead: Duration::ZERO,
    };

    /// A search that records when it started and how many of its lane ran with it.
    fn search(
        lane: &'static str,
        log: Arc<Mutex<Vec<(&'static str, usize)>>>,
        running: Arc<AtomicUsize>,
    ) -> SearchTask {
        SearchTask {
            run: Box::new(move || {
                let together = running.fetch_add(1, Ordering::SeqCst) + 1;
                log.lock().unwrap().push((lane, together));
                std::thread::sleep(Duration::from_millis(40));
                running.fetch_sub(1, Ordering::SeqCst);
                Some(lane.to_string())
            }),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    #[test]
    fn clients_take_turns_and_none_runs_more_than_its_share() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let pool = EnginePool::new(2, 1);
            let log = Arc::new(Mutex::new(Vec::new()));
            let (a, b) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
            let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
            // One client asks for six searches, then another for one.
            for _ in 0..6 {
                let done = done.clone();
                pool.run("a", search("a", log.clone(), a.clone()), &SHORT, move |m| {
                    let _ = done.send(m);
                });
            }
            let done_b = done.clone();
            pool.run("b", search("b", log.clone(), b.clone()), &SHORT, move |m| {
                let _ = done_b.send(m);
            });
            let mut order = Vec::new();
            for _ in 0..7 {
                order.push(finished.recv().await.unwrap().unwrap());
            }
            let log = log.lock().unwrap();
            // Client a never ran two at once, though two threads were there.
            assert!(log.iter().all(|&(_, together)| together == 1), "{log:?}");
            // Client b's one search started at once, on the thread a could not take, beside
            // a's first (the two in either order on their threads), and did not wait behind
            // a's six: it ended among the first two.
            assert!(log[..2].iter().any(|&(lane, _)| lane == "b"), "{log:?}");
            assert!(order[..2].iter().any(|lane| lane == "b"), "{order:?}");
            assert_eq!(pool.waiting(), 0);
        });
    }

    #[test]
    fn a_search_stopped_while_waiting_is_dropped() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let pool = EnginePool::new(1, 1);
            let log = Arc::new(Mutex::new(Vec::new()));
            let running = Arc::new(AtomicUsize::new(0));
            let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
            let first = done.clone();
            pool.run(
                "a",
                search("a", log.clone(), running.clone()),
                &SHORT,
                move |m| {
                    let _ = first.send(m);
                },
            );
            let stopped = search("x", log.clone(), running.clone());
            stopped.stop.store(true, Ordering::Relaxed);
            pool.run("x", stopped, &SHORT, |_| {
                panic!("a stopped search answered")
            });
            let last = done.clone();
            pool.run("b", search("b", log.clone(), running), &SHORT, move |m| {
                let _ = last.send(m);
            });
            finished.recv().await.unwrap();
            finished.recv().await.unwrap();
            let lanes: Vec<_> = log.lock().unwrap().iter().map(|&(l, _)| l).collect();
            assert_eq!(lanes, ["a", "b"]);
        });
    }

    #[test]
    fn long_searches_leave_the_last_thread_to_short_ones() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let pool = EnginePool::new(2, 2);
            let log = Arc::new(Mutex::new(Vec::new()));
            // How many long searches run together, and how many short.
            let (long_running, short_running) = (Arc::default(), Arc::default());
            let long = Limits {
                move_time: Some(LONG_SEARCH),
                ..SHORT
            };
            let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
            // Three clients' long searches, then a fourth's short one.
            for lane in ["a", "b", "c"] {
                let done = done.clone();
                let task = search(lane, log.clone(), Arc::clone(&long_running));
                pool.run(lane, task, &long, move |m| {
                    let _ = done.send(m);
                });
            }
            let short = done.clone();
            pool.run(
                "d",
                search("d", log.clone(), short_running),
                &SHORT,
                move |m| {
                    let _ = short.send(m);
                },
            );
            for _ in 0..4 {
                finished.recv().await.unwrap();
            }
            let log = log.lock().unwrap();
            // One long search at a time, though two threads were there; the short one
            // started on the other at once, beside the first long one.
            assert!(log.iter().all(|&(_, together)| together == 1), "{log:?}");
            let mut started: Vec<_> = log.iter().map(|&(lane, _)| lane).collect();
            started[..2].sort_unstable();
            assert_eq!(started, ["a", "d", "b", "c"], "{log:?}");
        });
    }
}
