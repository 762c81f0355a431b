//! The Reversi server: online play (random matching, invites, hosted rooms with a bot) over one
//! WebSocket endpoint, with an embedded SQLite database, serving the web page from files embedded
//! in the binary. Local games (against the computer, two players on one device) run in the page
//! and never reach the server.
//!
//! ```text
//! cargo run --release -p reversi-server -- [--addr 127.0.0.1:8080] [--db ./reversi.db] [--test-endpoints]
//! ```
//!
//! The library holds the server ([`Server::start`] with a [`Config`]) and, in [`protocol`], the
//! wire protocol's message types (the `reversi-protocol` package's, re-exported; a Rust client
//! needs only that package); the binary `server` parses the command line and runs it, the binary
//! `load` is a load tester built on [`protocol`].
//!
//! - `GET /` serves the page, with its local games' Web Worker (`/worker.js`, `/engine.js`,
//!   `/reversi.wasm`, and `/weights/expert.bin`: the Expert level's trained weights built into
//!   the server, which the worker hands to the module); `GET /ws` is the WebSocket endpoint, whose JSON protocol is written in
//!   `PROTOCOL.md` at the repository root.
//! - One task drives the lobby and the hosted rooms: commands arrive on its mailbox and a tokio
//!   timer sleeps until the earliest `poll_timeout`; the wall clock is read only when a command is
//!   applied or a timer fires. Bot moves are computed on the blocking pool.
//! - Every accepted change is committed to SQLite before anyone is told of it, so after a
//!   SIGKILL the server restores every room, and clocks go on by wall time.
//! - Logs go through `tracing` (`RUST_LOG=debug` for more).

mod cluster;
mod common;
mod conn;
mod db;
mod finished;
mod hub;
mod online;
pub mod protocol;
mod records;
mod rooms;
#[cfg(test)]
mod view;

#[cfg(test)]
mod contract_tests;
#[cfg(test)]
mod store_tests;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use tokio::net::TcpListener;

pub use crate::cluster::{ClusterConfig, ClusterError};
pub use crate::db::{StoreError, WriteError};
use crate::hub::Hub;
pub use crate::online::Durations;

/// The server's settings. Durations are injectable so that tests can use short ones.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where the SQLite database lives.
    pub db_path: PathBuf,
    /// Marks the server as started for tests (`test_endpoints` in `welcome`); no command depends
    /// on it since local games left the server.
    pub test_endpoints: bool,
    /// Messages a connection may send per second, sustained.
    pub rate_per_sec: u32,
    /// Messages a connection may send in a burst.
    pub rate_burst: u32,
    /// Outgoing messages buffered per connection before it is considered stuck.
    pub out_queue: usize,
    /// The least time a bot takes to answer (so that a person sees the move).
    pub computer_delay: Duration,
    /// The online rules' durations.
    pub online: online::Durations,
    /// With `--redis`: the cluster this node is a member of (see the `cluster` module).
    pub cluster: Option<ClusterConfig>,
}

impl Config {
    /// The defaults, with the database at `db_path`.
    pub fn new(db_path: PathBuf) -> Config {
        Config {
            db_path,
            test_endpoints: false,
            rate_per_sec: 20,
            rate_burst: 40,
            out_queue: 1024,
            computer_delay: Duration::from_millis(300),
            online: online::Durations::default(),
            cluster: None,
        }
    }
}

/// A running server.
///
/// ```
/// use reversi_server::{Config, Server};
///
/// let db = std::env::temp_dir().join(format!("reversi-doc-{}.db", std::process::id()));
/// let rt = tokio::runtime::Runtime::new().unwrap();
/// rt.block_on(async {
///     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
///     let server = Server::start(Config::new(db.clone()), listener).await.unwrap();
///     assert!(server.addr.ip().is_loopback());
///     server.task.abort();
/// });
/// # let _ = std::fs::remove_file(&db);
/// ```
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The shared state.
    pub hub: Arc<Hub>,
    /// The accept loop.
    pub task: tokio::task::JoinHandle<()>,
}

/// Why a server did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated, or holds a record the server cannot make
    /// a room or a lobby of again (the error names it).
    #[error("cannot use the database {}: {source}", path.display())]
    Store {
        /// The database file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: db::StoreError,
    },
    /// The records of the games that ended while the server was down (their deadlines run at
    /// the start) could not be written: the server does not serve. The failed transaction
    /// left the database as it was, and the next start runs those deadlines again.
    #[error("cannot record the games that ended while the server was down: {0}")]
    Restart(db::WriteError),
    /// The node could not join its cluster.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// The listener has no local address.
    #[error("no local address: {0}")]
    Address(std::io::Error),
}

impl Server {
    /// Opens the database, restores every room, and serves on `listener`.
    ///
    /// # Errors
    ///
    /// [`StartError::Store`] when the database cannot be opened or migrated, or holds a record
    /// this server cannot read (the message names it): nothing is dropped, the server does not
    /// start. [`StartError::Restart`] when the games that ended while the server was down
    /// cannot be recorded (they are recorded before anyone is served). [`StartError::Cluster`]
    /// when the node cannot join its cluster, [`StartError::Address`] when the listener has no
    /// address.
    pub async fn start(cfg: Config, listener: TcpListener) -> Result<Server, StartError> {
        let path = || cfg.db_path.clone();
        let (db, loaded) = db::Db::open(&cfg.db_path).map_err(|source| StartError::Store {
            path: path(),
            source,
        })?;
        let reader = db::Reader::open(&cfg.db_path).map_err(|source| StartError::Store {
            path: path(),
            source: source.into(),
        })?;
        let online =
            online::Online::restore(&cfg, &loaded).map_err(|source| StartError::Store {
                path: path(),
                source,
            })?;
        let hub = Arc::new(Hub::new(cfg, db, reader, online));
        // The games that ended while the server was down are recorded before anyone asks.
        hub.online.start(&hub).await.map_err(StartError::Restart)?;
        if let Some(cc) = hub.cfg.cluster.clone() {
            let parts = cluster::Parts {
                lobby: hub.cfg.online.lobby,
                db: hub.db.clone(),
                reader: hub.reader.clone(),
                hosted: hub.clone(),
            };
            let c = cluster::Cluster::start(&cc, parts).await?;
            hub.online.join_cluster(c);
        }
        let addr = listener.local_addr().map_err(StartError::Address)?;
        let app = Router::new()
            .route("/ws", get(ws_handler))
            .fallback(static_file)
            .layer(axum::middleware::map_response(security_headers))
            .with_state(hub.clone());
        // Small writes (a move, a state) go out at once: without `TCP_NODELAY`, Nagle's
        // algorithm holds a write back while the previous one is unacknowledged, and the peer's
        // delayed acknowledgement makes back-to-back moves wait about 40 ms each.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!(error = %e, "TCP_NODELAY not set on a connection");
            }
        });
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!(error = %e, "server stopped");
            }
        });
        Ok(Server { addr, hub, task })
    }
}

/// The Content-Security-Policy of every answer: the page's own scripts, its Web Worker and
/// WebAssembly module, its own styles and images, and the WebSocket to its own origin; nothing
/// inline, no other origin, no framing.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     worker-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; \
     manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Adds the security headers to every HTTP answer (the page, its files, errors and the
/// WebSocket upgrade alike).
async fn security_headers(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    h.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::HeaderName::from_static("cross-origin-opener-policy"),
        header::HeaderValue::from_static("same-origin"),
    );
    res
}

async fn ws_handler(ws: WebSocketUpgrade, State(hub): State<Arc<Hub>>) -> Response {
    // Small buffers: the WebSocket layer's default 128 KiB per connection, allocated and zeroed,
    // is most of a connection's memory and of the time spent reading; client messages are at
    // most 4 KiB (a buffer grows for the rare bigger frame, up to the hard limit).
    ws.max_message_size(protocol::HARD_MESSAGE_BYTES)
        .max_frame_size(protocol::HARD_MESSAGE_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .on_upgrade(move |socket| conn::run(socket, hub))
}

/// The WebSocket read buffer of a connection (it is zeroed at every read: client messages are
/// small).
const READ_BUFFER_BYTES: usize = 2 * 1024;
/// The WebSocket write buffer of a connection (states are a few KiB).
const WRITE_BUFFER_BYTES: usize = 8 * 1024;

/// The page's files, embedded in the binary: path, content type, content.
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("../static/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("../static/style.css"),
    ),
    (
        "/worker.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/worker.js"),
    ),
    (
        "/engine.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/engine.js"),
    ),
    (
        "/reversi.wasm",
        "application/wasm",
        include_bytes!("../static/reversi.wasm"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_bytes!("../static/favicon.svg"),
    ),
    // The service worker (offline play after one visit) and what makes the page installable.
    (
        "/sw.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/sw.js"),
    ),
    (
        "/manifest.webmanifest",
        "application/manifest+json",
        include_bytes!("../static/manifest.webmanifest"),
    ),
    (
        "/icon-192.png",
        "image/png",
        include_bytes!("../static/icon-192.png"),
    ),
    (
        "/icon-512.png",
        "image/png",
        include_bytes!("../static/icon-512.png"),
    ),
];

/// Where the page's worker fetches the Expert level's weights.
const WEIGHTS_PATH: &str = "/weights/expert.bin";

/// The Expert level's weights file (the bytes built into `reversi-ai`, never a copy on disk):
/// binary, cached by browsers for a day and revalidated by its checksum (the file's last eight
/// bytes) as entity tag.
fn weights_file(headers: &HeaderMap) -> Response {
    let Ok(bytes) = reversi::ai::pattern::Weights::embedded_bytes() else {
        return (StatusCode::NOT_FOUND, "this server has no Expert weights").into_response();
    };
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&bytes[bytes.len().saturating_sub(8)..]);
    let etag = format!("\"{:016x}\"", u64::from_le_bytes(sum));
    let cache = [
        (header::CACHE_CONTROL, "public, max-age=86400".to_string()),
        (header::ETAG, etag.clone()),
    ];
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if matches {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        [(header::CONTENT_TYPE, "application/octet-stream".to_string())],
        cache,
        bytes,
    )
        .into_response()
}

async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    if uri.path() == WEIGHTS_PATH {
        return weights_file(&headers);
    }
    let path = match uri.path() {
        "/index.html" => "/",
        // Browsers that ignore the page's icon link ask for this name.
        "/favicon.ico" => "/favicon.svg",
        p if p.starts_with("/join/") => "/",
        p => p,
    };
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, ctype, body)) => (
            [
                (header::CONTENT_TYPE, *ctype),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
