//! What every layer uses: the wall clock, deadlines for tokio timers, a connection's outgoing
//! queue and sending to it, and the refusal for an unknown game. It depends on nothing of the
//! server's own but the protocol.

use std::time::{Duration, SystemTime};

use axum::extract::ws::Utf8Bytes;
use reversi::clock::Millis;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::protocol::{ErrorCode, Refusal, ServerMsg};

/// A connection's outgoing queue.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// The wall-clock time, read only where a command is applied or a timer fires.
pub fn wall_now() -> Millis {
    Millis::from_system_time(SystemTime::now())
}

/// A tokio deadline for a wall-clock instant (a year away at most: a deadline too far for the
/// clock type to add is as good as never).
fn instant_of(deadline: Millis, now: Millis) -> Instant {
    const FAR: Duration = Duration::from_secs(365 * 24 * 3600);
    let wait = Duration::from(deadline.saturating_since(now)).min(FAR);
    Instant::now() + wait
}

/// Sleeps until a `poll_timeout` deadline, or forever when there is none.
pub async fn sleep_until_deadline(deadline: Option<Millis>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(instant_of(d, wall_now())).await,
        None => std::future::pending().await,
    }
}

/// Sends `msg` to a connection, without waiting. Returns false when the connection is gone or
/// too far behind to keep up.
pub fn send(out: &Out, msg: &ServerMsg) -> bool {
    out.try_send(Utf8Bytes::from(msg.to_text())).is_ok()
}

/// The refusal for an unknown game id.
pub fn no_such_game(id: &str) -> Refusal {
    let shown: String = id.chars().take(40).collect();
    Refusal::new(ErrorCode::NoSuchGame, format!("no game {shown:?}"))
}
