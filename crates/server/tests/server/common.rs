//! A real server on a loopback port with its own database, and real HTTP and websocket
//! clients for it.

use chaturanga_server::store::{Database, GameRow, Store};
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A server running in a thread of the test process, stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    pub db: Database,
    agent: ureq::Agent,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The tests run on SQLite, or with `CHATURANGA_TEST_BACKEND=postgres` on PostgreSQL: a new
/// database per server on the server `CHATURANGA_TEST_POSTGRES` names (`scripts/test` runs
/// them both ways).
fn temp_db(name: &str) -> Database {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    match std::env::var("CHATURANGA_TEST_BACKEND").as_deref() {
        Ok("postgres") => {
            let admin = std::env::var("CHATURANGA_TEST_POSTGRES").expect(
                "CHATURANGA_TEST_POSTGRES must name a PostgreSQL server (scripts/postgres prints one)",
            );
            let name = format!("chaturanga_test_{}_{n}", std::process::id());
            Database::Postgres(
                chaturanga_server::store::postgres::create_database(&admin, &name)
                    .expect("a test database"),
            )
        }
        Ok("sqlite") | Err(_) => {
            let dir = std::env::temp_dir()
                .join(format!("chaturanga-test-{}-{name}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("temp dir");
            Database::Sqlite(dir.join("games.db"))
        }
        Ok(other) => panic!("CHATURANGA_TEST_BACKEND is sqlite or postgres, not {other:?}"),
    }
}

/// Holds the database's write lock while it lives (a writer of another process).
pub enum WriteLock {
    /// SQLite: an exclusive transaction.
    Sqlite(rusqlite::Connection),
    /// PostgreSQL: a transaction holding the games table.
    Postgres(postgres::Client),
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        match self {
            WriteLock::Sqlite(c) => c.execute_batch("ROLLBACK").expect("unlock"),
            WriteLock::Postgres(c) => c.batch_execute("ROLLBACK").expect("unlock"),
        }
    }
}

impl Server {
    /// Starts a server on a fresh database.
    pub fn start(name: &str) -> Server {
        Self::on(temp_db(name))
    }

    /// Starts a server on a fresh database within `limits`.
    pub fn start_with(name: &str, limits: chaturanga_server::quota::Limits) -> Server {
        Self::with_limits(temp_db(name), limits)
    }

    /// Sends `request` as it is over a new connection and reads the answer until the server
    /// closes the connection or `wait` passes: the answer's text, and whether it closed.
    pub fn raw(&self, request: &[u8], wait: Duration) -> (String, bool) {
        use std::io::{Read, Write};
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        stream.set_read_timeout(Some(wait)).expect("timeout");
        stream.write_all(request).expect("send");
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        let closed = loop {
            match stream.read(&mut buffer) {
                Ok(0) => break true,
                Ok(n) => answer.extend_from_slice(&buffer[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
                Err(_) => break false,
            }
        };
        (String::from_utf8_lossy(&answer).into_owned(), closed)
    }

    /// The stored game `id`, read from the database itself (the test is the arbiter).
    pub fn stored(&self, id: &str) -> GameRow {
        let store = Store::open(&self.db).expect("open the store");
        store.load(id).expect("load").expect("the game is stored")
    }

    /// Takes the database's write lock, as another writer would.
    pub fn lock_writes(&self) -> WriteLock {
        match &self.db {
            Database::Sqlite(path) => {
                let lock = rusqlite::Connection::open(path).expect("open the database");
                lock.execute_batch("BEGIN EXCLUSIVE").expect("lock");
                WriteLock::Sqlite(lock)
            }
            Database::Postgres(url) => {
                let mut lock = postgres::Client::connect(url, postgres::NoTls).expect("connect");
                lock.batch_execute("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
                    .expect("lock");
                WriteLock::Postgres(lock)
            }
        }
    }

    /// Starts a server on `db` (an existing one is reopened).
    pub fn on(db: Database) -> Server {
        Self::with_limits(db, chaturanga_server::quota::Limits::generous())
    }

    /// Stops this server and starts another on its database.
    pub fn restart(self) -> Server {
        let db = self.db.clone();
        drop(self);
        Self::on(db)
    }

    /// Starts a server on `db` within `limits`.
    pub fn with_limits(db: Database, limits: chaturanga_server::quota::Limits) -> Server {
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let config = chaturanga_server::Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            db: db.clone(),
            engine_threads: 2,
            limits,
            peers: Default::default(),
        };
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            let served = runtime.block_on(chaturanga_server::serve_until(
                config,
                move |addr| {
                    tx.send(addr).expect("address");
                },
                async {
                    let _ = stopped.await;
                },
            ));
            if let Err(e) = served {
                eprintln!("server: {e}");
            }
            // The games' tasks and the engines' threads end with the runtime.
            runtime.shutdown_timeout(Duration::from_secs(5));
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("server started");
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        Server {
            addr,
            db,
            agent,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// GET: the status and the body as JSON (or as a JSON string when it is not JSON).
    pub fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.agent.get(&self.url(path));
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut response = request.call().expect("GET");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// GET with request headers: the status and the body as text.
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
        let mut request = self.agent.get(&self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let mut response = request.call().expect("GET");
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().expect("body"))
    }

    /// POST of raw bytes.
    pub fn post_raw(&self, path: &str, body: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self
            .agent
            .post(&self.url(path))
            .header("Content-Type", "application/json");
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut response = request.send(body).expect("POST");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// POST of JSON.
    pub fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        self.post_raw(path, &body.to_string(), token)
    }

    /// Creates a game; returns its id and the tokens of every human seat (joined).
    pub fn game_with_seats(
        &self,
        variant: &str,
        seats: Value,
        options: &[&str],
    ) -> (String, Vec<Option<String>>) {
        let (status, created) = self.post(
            "/api/games",
            &json!({ "variant": variant, "seats": seats, "options": options }),
            None,
        );
        assert_eq!(status, 201, "{variant}: {created}");
        let id = created["id"].as_str().expect("id").to_string();
        let tokens = seats
            .as_array()
            .expect("seats")
            .iter()
            .enumerate()
            .map(|(n, seat)| {
                (seat["kind"] == "human").then(|| {
                    let (status, joined) =
                        self.post(&format!("/api/games/{id}/seats/{n}/join"), &json!({}), None);
                    assert_eq!(status, 200, "{joined}");
                    joined["token"].as_str().expect("token").to_string()
                })
            })
            .collect();
        (id, tokens)
    }

    /// Opens the game's socket.
    pub fn socket(&self, id: &str, token: Option<&str>, since: Option<u64>) -> Socket {
        let mut url = format!("ws://{}/api/games/{id}/socket?", self.addr);
        if let Some(token) = token {
            url.push_str(&format!("token={token}&"));
        }
        if let Some(v) = since {
            url.push_str(&format!("v={v}"));
        }
        let (socket, _) = tungstenite::connect(url).expect("websocket");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_secs(20)))
                .expect("timeout");
        }
        Socket { socket }
    }
}

/// A websocket client.
pub struct Socket {
    pub socket: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// The next text message as JSON.
    pub fn recv(&mut self) -> Value {
        loop {
            match self.socket.read().expect("websocket read") {
                Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
                Message::Close(_) => panic!("socket closed"),
                _ => {}
            }
        }
    }

    /// Messages until one satisfies `done` (that one included).
    pub fn recv_until(&mut self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let message = self.recv();
            let stop = done(&message);
            out.push(message);
            if stop {
                return out;
            }
        }
    }

    /// Sends JSON.
    pub fn send(&mut self, value: &Value) {
        self.socket
            .send(Message::Text(value.to_string().into()))
            .expect("websocket send");
    }
}

/// A small deterministic random number generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}
