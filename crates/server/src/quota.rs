//! What one client may spend, and what all of them together may: rates of requests, game
//! creations, joins, actions and socket messages (the generic cell rate algorithm of
//! `governor`, as lichess's rate limiters count), and counts of what a client holds open at
//! once (connections, sockets). Pure bookkeeping over an injected clock: the HTTP layer and
//! the sockets only carry its answers.
//!
//! A client is its address (an IPv6 address by its /64 network, which one subscriber
//! usually has whole); accounts will add their own key.

use governor::clock::{Clock, MonotonicClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::HashMapStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Who spends: a client's address, an IPv6 one cut to its /64 network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of a client connecting from `address`.
    pub fn of(address: IpAddr) -> ClientKey {
        match address {
            IpAddr::V4(_) => ClientKey(address),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    ClientKey(IpAddr::V6(bits.into()))
                }
            },
        }
    }

    /// A short digest of the key, stored with what the client created (its engine's lane),
    /// so that the address itself is not kept.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(format!("chaturanga-client {}", self.0).as_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A rate: a burst, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many at once after a quiet spell.
    pub burst: u32,
    /// How often one more comes back.
    pub every: Duration,
}

impl Rate {
    /// `burst` at once, then one per `every`.
    pub const fn new(burst: u32, every: Duration) -> Rate {
        Rate { burst, every }
    }

    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every.max(Duration::from_nanos(1)))
            .unwrap_or_else(|| Quota::per_second(burst))
            .allow_burst(burst)
    }
}

/// Every limit the server keeps. [`Limits::default`] is the public site's;
/// [`Limits::generous`] lets tests and benchmarks of other things play many games from one
/// address without meeting them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// HTTP requests of one client, pages and files included.
    pub requests: Rate,
    /// Games one client creates.
    pub games: Rate,
    /// Games created by everyone together.
    pub games_total: Rate,
    /// Games with an engine seat one client creates (counted besides `games`).
    pub engine_games: Rate,
    /// Engine-only games (every seat an engine) running at once in all; 0 refuses them.
    pub engine_only_games: usize,
    /// Seats one client claims in others' games.
    pub joins: Rate,
    /// Actions (offers, answers, resignations) of one client, over HTTP and sockets.
    pub actions: Rate,
    /// Socket messages of one client over all its sockets, reconnections included.
    pub socket_messages: Rate,
    /// Sockets one client holds open at once.
    pub sockets_per_client: usize,
    /// Sockets open on one game at once.
    pub sockets_per_game: usize,
    /// Connections open at once in all (lowered at start to what the open-files limit
    /// allows).
    pub connections: usize,
    /// Connections one client holds open at once.
    pub connections_per_client: usize,
    /// Engine searches of one client's games running at once (the others wait in its own
    /// line); 0 means half the engine threads, at least one.
    pub searches_per_client: usize,
    /// Time a connection has to send a request's headers, and the longest a kept-alive
    /// connection may sit idle.
    pub header_timeout: Duration,
    /// Time a request has to send its body.
    pub body_timeout: Duration,
    /// Time a request has to be answered.
    pub answer_timeout: Duration,
    /// The longest a connection may leave what is written to it unread (an answer, a
    /// socket's frames) before it is closed.
    pub write_timeout: Duration,
}

const SECOND: Duration = Duration::from_secs(1);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // A page load is about twenty requests; a person playing over HTTP a few a second.
            requests: Rate::new(120, SECOND / 20),
            // Six games a minute after the first ten (lichess allows a similar pace of seeks).
            games: Rate::new(10, SECOND * 10),
            games_total: Rate::new(200, SECOND / 100),
            engine_games: Rate::new(4, SECOND * 60),
            engine_only_games: 0,
            joins: Rate::new(10, SECOND * 6),
            actions: Rate::new(20, SECOND / 2),
            socket_messages: Rate::new(60, SECOND / 20),
            sockets_per_client: 40,
            sockets_per_game: 500,
            connections: 4096,
            connections_per_client: 64,
            searches_per_client: 0,
            header_timeout: SECOND * 15,
            body_timeout: SECOND * 15,
            answer_timeout: SECOND * 30,
            write_timeout: SECOND * 30,
        }
    }
}

impl Limits {
    /// Limits for tests and benchmarks of other things: everything from one address, far
    /// beyond what they spend, but every limit still there.
    pub fn generous() -> Limits {
        let plenty = Rate::new(1_000_000, Duration::from_micros(1));
        Limits {
            requests: plenty,
            games: plenty,
            games_total: plenty,
            engine_games: plenty,
            engine_only_games: 1_000,
            joins: plenty,
            actions: plenty,
            socket_messages: plenty,
            sockets_per_client: 100_000,
            sockets_per_game: 100_000,
            connections: 100_000,
            connections_per_client: 100_000,
            ..Limits::default()
        }
    }
}

/// What a client spends at a rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spend {
    /// An HTTP request.
    Request,
    /// A game created.
    Game,
    /// A game with an engine seat created.
    EngineGame,
    /// A seat claimed.
    Join,
    /// An action taken.
    Action,
    /// A socket message.
    SocketMessage,
}

impl Spend {
    /// What the refusal names.
    pub fn noun(self) -> &'static str {
        match self {
            Spend::Request => "requests",
            Spend::Game => "new games",
            Spend::EngineGame => "new games against the engine",
            Spend::Join => "seats claimed",
            Spend::Action => "actions",
            Spend::SocketMessage => "socket messages",
        }
    }
}

/// A refusal: too much too soon, or too much held at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Too many of these too soon: the next is allowed after `retry_after`.
    TooFast {
        /// What was spent.
        spend: Spend,
        /// Whether the limit is the site's in total rather than the client's own.
        total: bool,
        /// When one more is allowed.
        retry_after: Duration,
    },
    /// Too many of these held at once.
    TooMany {
        /// What is held (`sockets on this game`).
        what: &'static str,
        /// The cap.
        cap: usize,
        /// Whether the cap is the site's in total rather than the client's own.
        total: bool,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooFast {
                spend,
                total: false,
                retry_after,
            } => write!(
                f,
                "too many {} from your address; try again in {} s",
                spend.noun(),
                retry_after.as_secs_f64().ceil().max(1.0)
            ),
            Refusal::TooFast {
                spend,
                total: true,
                retry_after,
            } => write!(
                f,
                "the server takes no more {} just now; try again in {} s",
                spend.noun(),
                retry_after.as_secs_f64().ceil().max(1.0)
            ),
            Refusal::TooMany {
                what,
                cap,
                total: false,
            } => write!(f, "at most {cap} {what} at once from your address"),
            Refusal::TooMany {
                what,
                cap,
                total: true,
            } => write!(f, "the server has its {cap} {what} open; try again soon"),
        }
    }
}

type Keyed<C> =
    RateLimiter<ClientKey, HashMapStateStore<ClientKey>, C, NoOpMiddleware<<C as Clock>::Instant>>;
type Direct<C> = RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// The rates every client spends, over a clock (`MonotonicClock` serving, a fake one in
/// tests).
pub struct Quotas<C: Clock + Clone = MonotonicClock> {
    limits: Limits,
    clock: C,
    per_client: HashMap<Spend, Keyed<C>>,
    games_total: Direct<C>,
    /// Connections open, per client and in all.
    pub connections: Gauge<ClientKey>,
    /// Sockets open per client.
    pub sockets_per_client: Gauge<ClientKey>,
    /// Sockets open per game.
    pub sockets_per_game: Gauge<String>,
}

impl Quotas<MonotonicClock> {
    /// The quotas of `limits` on the monotonic clock.
    pub fn new(limits: Limits) -> Self {
        Self::with_clock(limits, MonotonicClock)
    }
}

impl<C: Clock + Clone> Quotas<C> {
    /// The quotas of `limits` on `clock`.
    pub fn with_clock(limits: Limits, clock: C) -> Self {
        let keyed = |rate: Rate| -> Keyed<C> {
            RateLimiter::new(rate.quota(), HashMapStateStore::default(), clock.clone())
        };
        let per_client = [
            (Spend::Request, keyed(limits.requests)),
            (Spend::Game, keyed(limits.games)),
            (Spend::EngineGame, keyed(limits.engine_games)),
            (Spend::Join, keyed(limits.joins)),
            (Spend::Action, keyed(limits.actions)),
            (Spend::SocketMessage, keyed(limits.socket_messages)),
        ]
        .into_iter()
        .collect();
        Quotas {
            games_total: RateLimiter::direct_with_clock(limits.games_total.quota(), clock.clone()),
            connections: Gauge::new(limits.connections_per_client, limits.connections),
            sockets_per_client: Gauge::new(limits.sockets_per_client, usize::MAX),
            sockets_per_game: Gauge::new(limits.sockets_per_game, usize::MAX),
            per_client,
            limits,
            clock,
        }
    }

    /// The limits kept.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Spends one `spend` of `client`, or says when it may come again. A game created
    /// spends from the site's total too, after the client's own.
    pub fn spend(&self, client: ClientKey, spend: Spend) -> Result<(), Refusal> {
        if let Some(limiter) = self.per_client.get(&spend) {
            limiter
                .check_key(&client)
                .map_err(|not_until| Refusal::TooFast {
                    spend,
                    total: false,
                    retry_after: not_until.wait_time_from(self.clock.now()),
                })?;
        }
        if spend == Spend::Game {
            self.games_total
                .check()
                .map_err(|not_until| Refusal::TooFast {
                    spend,
                    total: true,
                    retry_after: not_until.wait_time_from(self.clock.now()),
                })?;
        }
        Ok(())
    }

    /// Forgets clients whose every rate is back to its full burst (their state says no more
    /// than a fresh one): the memory kept is that of recent clients only.
    pub fn forget_quiet_clients(&self) {
        for limiter in self.per_client.values() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// Clients remembered by the busiest rate (for tests and figures).
    pub fn clients_remembered(&self) -> usize {
        self.per_client.values().map(|l| l.len()).max().unwrap_or(0)
    }
}

/// Counts of what is held open, per key and in all, with caps; a [`Slot`] gives its place
/// back when dropped.
pub struct Gauge<K: Eq + Hash> {
    inner: Arc<Mutex<GaugeState<K>>>,
    per_key: usize,
    total: usize,
}

struct GaugeState<K> {
    held: HashMap<K, usize>,
    total: usize,
}

impl<K: Eq + Hash + Clone> Gauge<K> {
    /// A gauge allowing `per_key` for each key and `total` in all.
    pub fn new(per_key: usize, total: usize) -> Self {
        Gauge {
            inner: Arc::new(Mutex::new(GaugeState {
                held: HashMap::new(),
                total: 0,
            })),
            per_key,
            total,
        }
    }

    /// Takes a place for `key`, or says which cap is reached.
    pub fn take(&self, key: K, what: &'static str) -> Result<Slot<K>, Refusal> {
        self.take_capped(key, what, self.per_key)
    }

    /// Takes a place for `key` within the total alone (behind a proxy, whose connections are
    /// everyone's).
    pub fn take_within_total(&self, key: K, what: &'static str) -> Result<Slot<K>, Refusal> {
        self.take_capped(key, what, usize::MAX)
    }

    fn take_capped(&self, key: K, what: &'static str, per_key: usize) -> Result<Slot<K>, Refusal> {
        let mut state = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if state.total >= self.total {
            return Err(Refusal::TooMany {
                what,
                cap: self.total,
                total: true,
            });
        }
        let held = state.held.entry(key.clone()).or_insert(0);
        if *held >= per_key {
            return Err(Refusal::TooMany {
                what,
                cap: per_key,
                total: false,
            });
        }
        *held += 1;
        state.total += 1;
        Ok(Slot {
            gauge: self.inner.clone(),
            key: Some(key),
        })
    }

    /// Places held by `key`.
    pub fn held(&self, key: &K) -> usize {
        let state = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        state.held.get(key).copied().unwrap_or(0)
    }

    /// Places held in all.
    pub fn total(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

/// A place held in a [`Gauge`], given back when dropped.
pub struct Slot<K: Eq + Hash> {
    gauge: Arc<Mutex<GaugeState<K>>>,
    key: Option<K>,
}

impl<K: Eq + Hash> Drop for Slot<K> {
    fn drop(&mut self) {
        let Some(key) = self.key.take() else {
            return;
        };
        let mut state = self.gauge.lock().unwrap_or_else(|p| p.into_inner());
        state.total = state.total.saturating_sub(1);
        if let Some(held) = state.held.get_mut(&key) {
            *held -= 1;
            if *held == 0 {
                // Keys of clients gone leave nothing behind.
                state.held.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn client(n: u8) -> ClientKey {
        ClientKey::of(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    fn tight() -> Limits {
        Limits {
            games: Rate::new(3, Duration::from_secs(10)),
            games_total: Rate::new(5, Duration::from_secs(1)),
            actions: Rate::new(2, Duration::from_millis(500)),
            ..Limits::default()
        }
    }

    #[test]
    fn a_client_gets_its_burst_then_one_per_period_and_is_told_when() {
        let clock = FakeRelativeClock::default();
        let quotas = Quotas::with_clock(tight(), clock.clone());
        for _ in 0..3 {
            quotas.spend(client(1), Spend::Game).unwrap();
        }
        let refusal = quotas.spend(client(1), Spend::Game).unwrap_err();
        let Refusal::TooFast {
            spend: Spend::Game,
            total: false,
            retry_after,
        } = refusal
        else {
            panic!("{refusal:?}");
        };
        assert!(retry_after > Duration::from_secs(9) && retry_after <= Duration::from_secs(10));
        assert!(
            refusal.to_string().contains("try again in 10 s"),
            "{refusal}"
        );
        // Another client is not held back by the first.
        quotas.spend(client(2), Spend::Game).unwrap();
        clock.advance(Duration::from_secs(10));
        quotas.spend(client(1), Spend::Game).unwrap();
        assert!(quotas.spend(client(1), Spend::Game).is_err());
    }

    #[test]
    fn game_creations_have_a_total_beside_each_client_s_own() {
        let clock = FakeRelativeClock::default();
        let quotas = Quotas::with_clock(tight(), clock.clone());
        for n in 0..5 {
            quotas.spend(client(n), Spend::Game).unwrap();
        }
        let refusal = quotas.spend(client(9), Spend::Game).unwrap_err();
        assert!(
            matches!(refusal, Refusal::TooFast { total: true, .. }),
            "{refusal:?}"
        );
        clock.advance(Duration::from_secs(1));
        quotas.spend(client(9), Spend::Game).unwrap();
    }

    #[test]
    fn rates_of_different_spends_are_separate() {
        let quotas = Quotas::with_clock(tight(), FakeRelativeClock::default());
        quotas.spend(client(1), Spend::Action).unwrap();
        quotas.spend(client(1), Spend::Action).unwrap();
        assert!(quotas.spend(client(1), Spend::Action).is_err());
        quotas.spend(client(1), Spend::Join).unwrap();
    }

    #[test]
    fn quiet_clients_are_forgotten() {
        let clock = FakeRelativeClock::default();
        let quotas = Quotas::with_clock(tight(), clock.clone());
        for n in 0..50 {
            quotas.spend(client(n), Spend::Action).unwrap();
        }
        assert_eq!(quotas.clients_remembered(), 50);
        clock.advance(Duration::from_secs(5));
        quotas.forget_quiet_clients();
        assert_eq!(quotas.clients_remembered(), 0);
    }

    #[test]
    fn an_ipv6_client_is_its_network_and_a_mapped_ipv4_is_the_ipv4() {
        let a: Ipv6Addr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: Ipv6Addr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: Ipv6Addr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ClientKey::of(a.into()), ClientKey::of(b.into()));
        assert_ne!(ClientKey::of(a.into()), ClientKey::of(c.into()));
        let mapped: Ipv6Addr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(ClientKey::of(mapped.into()), client(1));
        assert_ne!(client(1).digest(), client(2).digest());
        assert_eq!(client(1).digest().len(), 16);
    }

    #[test]
    fn a_gauge_caps_each_key_and_the_total_and_gives_places_back() {
        let gauge: Gauge<ClientKey> = Gauge::new(2, 3);
        let a1 = gauge.take(client(1), "connections").unwrap();
        let _a2 = gauge.take(client(1), "connections").unwrap();
        assert_eq!(
            gauge.take(client(1), "connections").err(),
            Some(Refusal::TooMany {
                what: "connections",
                cap: 2,
                total: false
            })
        );
        let _b1 = gauge.take(client(2), "connections").unwrap();
        assert_eq!(
            gauge.take(client(3), "connections").err(),
            Some(Refusal::TooMany {
                what: "connections",
                cap: 3,
                total: true
            })
        );
        drop(a1);
        assert_eq!(gauge.held(&client(1)), 1);
        // Within the total alone, a key may hold more than its own cap.
        let _a3 = gauge.take_within_total(client(1), "connections").unwrap();
        assert!(gauge.take_within_total(client(1), "connections").is_err());
        drop(_a3);
        assert_eq!(gauge.total(), 2);
        gauge.take(client(3), "connections").unwrap();
    }
}
