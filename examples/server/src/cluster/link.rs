//! A Redis connection that comes back: when a request finds the connection dropped (Redis
//! restarted, the connection was killed, the network failed), the connection is let go and the
//! next request opens a new one, no sooner than a backoff (100 ms, doubling up to 5 s) after the
//! last failed attempt. Meanwhile requests fail at once with a message saying so.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, FromRedisValue};
use tokio::time::Instant;

/// Why a request to Redis failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LinkError {
    /// The connection dropped and the backoff has not yet allowed another attempt.
    #[error("the connection to Redis is down; reconnecting")]
    Down,
    /// A new connection could not be opened.
    #[error("cannot reconnect to Redis: {0}")]
    Reconnect(Arc<redis::RedisError>),
    /// Redis answered with an error, or the request failed on the way.
    #[error("{0}")]
    Redis(Arc<redis::RedisError>),
}

/// The first wait before another connection attempt, and the longest.
pub(super) const BACKOFF_MIN: Duration = Duration::from_millis(100);
pub(super) const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The next wait after `d` failed: doubled, at most [`BACKOFF_MAX`].
pub(super) fn next_backoff(d: Duration) -> Duration {
    (d * 2).clamp(BACKOFF_MIN, BACKOFF_MAX)
}

struct State {
    con: Option<MultiplexedConnection>,
    /// No attempt before this instant.
    retry_at: Instant,
    backoff: Duration,
}

/// A shared, reconnecting connection to one Redis.
#[derive(Clone)]
pub(super) struct Link {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Whether the last attempt to reach Redis failed for want of a connection (set when a
    /// connection drops or cannot be opened, cleared by the next answer).
    down: Arc<AtomicBool>,
}

impl Link {
    /// Opens the first connection (an error here stops the node's start).
    pub(super) async fn open(client: Client) -> redis::RedisResult<Link> {
        let con = connect(&client).await?;
        Ok(Link {
            client,
            state: Arc::new(Mutex::new(State {
                con: Some(con),
                retry_at: Instant::now(),
                backoff: BACKOFF_MIN,
            })),
            down: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Whether Redis is known to be out of reach now: the connection dropped or could not be
    /// opened, and no request has been answered since. (A Redis that stalls without dropping
    /// the connection is not "down": its requests time out one by one.)
    pub(super) fn is_down(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    /// Asks Redis whether it answers (`PING`), opening the connection again when it dropped
    /// (whatever the backoff: the watch asks only every 500 ms), so that [`Link::is_down`]
    /// stays current between requests and a Redis that is back is seen at once. Returns
    /// whether Redis answered.
    pub(super) async fn check(&self) -> bool {
        self.lock().retry_at = Instant::now();
        self.query::<String>(&redis::cmd("PING")).await.is_ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The connection, opened again if it was dropped and the backoff allows.
    async fn con(&self) -> Result<MultiplexedConnection, LinkError> {
        {
            let s = self.lock();
            if let Some(c) = &s.con {
                return Ok(c.clone());
            }
            if Instant::now() < s.retry_at {
                self.down.store(true, Ordering::Relaxed);
                return Err(LinkError::Down);
            }
        }
        match connect(&self.client).await {
            Ok(c) => {
                let mut s = self.lock();
                s.backoff = BACKOFF_MIN;
                s.con = Some(c.clone());
                tracing::info!("reconnected to Redis");
                Ok(c)
            }
            Err(e) => {
                self.down.store(true, Ordering::Relaxed);
                let mut s = self.lock();
                s.retry_at = Instant::now() + s.backoff;
                s.backoff = next_backoff(s.backoff);
                Err(LinkError::Reconnect(Arc::new(e)))
            }
        }
    }

    /// Lets the connection go when `e` says it is dead.
    fn failed(&self, e: redis::RedisError) -> LinkError {
        if e.is_unrecoverable_error() || e.is_connection_dropped() {
            let mut s = self.lock();
            self.down.store(true, Ordering::Relaxed);
            if s.con.take().is_some() {
                tracing::warn!(error = %e, "the connection to Redis dropped");
            }
        }
        LinkError::Redis(Arc::new(e))
    }

    /// Runs one command. A command that found the connection dropped is sent once more on a
    /// new connection (a connection that died under it, rather than before it, may have run it:
    /// the commands the nodes send are written to bear that).
    pub(super) async fn query<T: FromRedisValue>(&self, c: &redis::Cmd) -> Result<T, LinkError> {
        let mut con = self.con().await?;
        match c.query_async(&mut con).await {
            Ok(v) => {
                self.down.store(false, Ordering::Relaxed);
                Ok(v)
            }
            Err(e) if e.is_connection_dropped() => {
                self.failed(e);
                let mut con = self.con().await?;
                let v = c.query_async(&mut con).await.map_err(|e| self.failed(e))?;
                self.down.store(false, Ordering::Relaxed);
                Ok(v)
            }
            Err(e) => Err(self.failed(e)),
        }
    }

    /// Runs a pipeline (sent once more on a new connection, as [`Link::query`]).
    pub(super) async fn pipe<T: FromRedisValue>(
        &self,
        p: &redis::Pipeline,
    ) -> Result<T, LinkError> {
        let mut con = self.con().await?;
        match p.query_async(&mut con).await {
            Ok(v) => {
                self.down.store(false, Ordering::Relaxed);
                Ok(v)
            }
            Err(e) if e.is_connection_dropped() => {
                self.failed(e);
                let mut con = self.con().await?;
                let v = p.query_async(&mut con).await.map_err(|e| self.failed(e))?;
                self.down.store(false, Ordering::Relaxed);
                Ok(v)
            }
            Err(e) => Err(self.failed(e)),
        }
    }
}

async fn connect(client: &Client) -> redis::RedisResult<MultiplexedConnection> {
    let cfg = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(2)));
    client
        .get_multiplexed_async_connection_with_config(&cfg)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_five_seconds() {
        let mut d = BACKOFF_MIN;
        let mut seen = vec![d];
        for _ in 0..8 {
            d = next_backoff(d);
            seen.push(d);
        }
        assert_eq!(seen[1], Duration::from_millis(200));
        assert_eq!(seen[5], Duration::from_millis(3200));
        assert_eq!(seen[6], BACKOFF_MAX);
        assert_eq!(seen[8], BACKOFF_MAX);
    }
}
