//! One WebSocket connection: reads frames, checks their size and rate, parses them, and hands
//! each command to the online part (matching, invites, online and hosted rooms). Bad input gets an `error` message and
//! the connection goes on.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};

use crate::finished;
use crate::hub::{send, Hub, Out};
use crate::protocol::{self, ClientMsg, ErrorCode, Refusal, ServerMsg};

/// A token bucket: `rate` messages a second, bursts of `burst`. It is refilled from the time
/// that passed when a message arrives, so an idle connection costs no timer.
#[derive(Debug, Clone)]
pub struct Bucket {
    /// Thousandths of a message.
    milli: u64,
    rate: u64,
    burst: u64,
    last: Instant,
    /// Whether this flood was already told about.
    warned: bool,
}

/// What the bucket says about one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Within the rate.
    Allowed,
    /// Over the rate: dropped; `first` for the first one of a flood (the one to warn about).
    Dropped {
        /// The first dropped message since the bucket was last full.
        first: bool,
    },
}

impl Bucket {
    /// A full bucket at `now`.
    pub fn new(rate: u32, burst: u32, now: Instant) -> Bucket {
        Bucket {
            milli: u64::from(burst) * 1000,
            rate: u64::from(rate),
            burst: u64::from(burst),
            last: now,
            warned: false,
        }
    }

    /// Takes a token for a message that arrived at `now`.
    pub fn take(&mut self, now: Instant) -> Take {
        let elapsed = now.saturating_duration_since(self.last);
        self.last = self.last.max(now);
        let refill = u64::try_from(elapsed.as_millis())
            .unwrap_or(u64::MAX)
            .saturating_mul(self.rate);
        self.milli = self.milli.saturating_add(refill).min(self.burst * 1000);
        if self.milli == self.burst * 1000 {
            self.warned = false;
        }
        if self.milli >= 1000 {
            self.milli -= 1000;
            Take::Allowed
        } else {
            let first = !self.warned;
            self.warned = true;
            Take::Dropped { first }
        }
    }
}

/// Serves one connection until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>) {
    let conn = hub.conn_id();
    let (mut sink, mut stream) = socket.split();
    let (out, mut outq) = mpsc::channel(hub.cfg.out_queue);
    // A close code for the writer to send when the reading side ends on a protocol violation.
    let (close_tx, mut close_rx) = oneshot::channel::<CloseFrame>();
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                frame = &mut close_rx => {
                    match frame {
                        Ok(frame) => {
                            let _ = sink.send(Message::Close(Some(frame))).await;
                        }
                        Err(_) => {
                            // The connection ended without a violation: send what is left.
                            while let Ok(text) = outq.try_recv() {
                                if sink.send(Message::Text(text)).await.is_err() {
                                    break;
                                }
                            }
                            let _ = sink.close().await;
                        }
                    }
                    return;
                }
                text = outq.recv() => {
                    let Some(text) = text else { break };
                    if sink.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    });
    let mut close_tx = Some(close_tx);
    let rate = hub.cfg.rate_per_sec;
    let burst = hub.cfg.rate_burst;
    send(
        &out,
        &protocol::welcome(conn, hub.cfg.test_endpoints, rate, burst),
    );
    tracing::debug!(conn, "connected");

    let mut bucket = Bucket::new(rate, burst, Instant::now());

    loop {
        let frame = match stream.next().await {
            Some(Ok(frame)) => frame,
            Some(Err(e)) => {
                // A frame or message over the hard limit is "message too big" (1009);
                // anything else the WebSocket layer refuses is a protocol error (1002).
                let text = e.to_string();
                let too_big = text.contains("Space limit exceeded")
                    || text.contains("too long")
                    || text.contains("too big");
                tracing::debug!(conn, error = %text, "connection closed on a bad frame");
                if let Some(tx) = close_tx.take() {
                    let (code, reason) = if too_big {
                        (1009, "message too big")
                    } else {
                        (1002, "protocol error")
                    };
                    let _ = tx.send(CloseFrame {
                        code,
                        reason: reason.into(),
                    });
                }
                break;
            }
            None => break,
        };
        let text = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                if take(&mut bucket, &out) {
                    send(
                        &out,
                        &Refusal::new(
                            ErrorCode::BinaryFrame,
                            "only text frames carrying JSON are understood",
                        )
                        .to_msg(None, None),
                    );
                }
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !take(&mut bucket, &out) {
            continue;
        }
        match protocol::parse(text.as_str()) {
            Err(e) => {
                send(&out, &e.to_msg());
            }
            Ok(msg) => dispatch(&hub, conn, &out, msg).await,
        }
    }
    hub.online.disconnected(conn).await;
    drop(close_tx);
    drop(out);
    let _ = writer.await;
    tracing::debug!(conn, "disconnected");
}

/// Takes a token; when none is left, warns once per flood and returns false.
fn take(bucket: &mut Bucket, out: &Out) -> bool {
    let Take::Dropped { first } = bucket.take(Instant::now()) else {
        return true;
    };
    if first {
        send(
            out,
            &Refusal::new(
                ErrorCode::RateLimited,
                "too many messages: this one and the next ones are dropped until the rate falls",
            )
            .to_msg(None, None),
        );
    }
    false
}

async fn dispatch(hub: &Arc<Hub>, conn: u64, out: &Out, msg: ClientMsg) {
    match &msg {
        ClientMsg::Ping { rid } => {
            send(out, &ServerMsg::Pong { rid: rid.clone() });
        }
        ClientMsg::Record { .. } | ClientMsg::Games { .. } => {
            // Reads of finished games go to the database on the blocking pool, not through the
            // online task.
            let kind = msg.kind();
            let rid = msg.rid().cloned();
            let reader = hub.reader.clone();
            let answer = match hub.online.cluster() {
                // A cluster node also finds the games other nodes recorded.
                Some(c) => c.finished(reader, &msg).await,
                None => tokio::task::spawn_blocking(move || finished::answer(&reader, &msg))
                    .await
                    .unwrap_or_else(|e| {
                        Err(Refusal::new(
                            ErrorCode::Internal,
                            format!("the read failed: {e}"),
                        ))
                    }),
            };
            match answer {
                Ok(msg) => {
                    send(out, &msg.with_rid(rid));
                }
                Err(r) => {
                    send(out, &r.to_msg(Some(kind), rid.as_ref()));
                }
            }
        }
        _ => hub.online.command(conn, out, msg).await,
    }
}

#[cfg(test)]
mod bucket_tests {
    use std::time::Duration;

    use super::{Bucket, Instant, Take};

    #[test]
    fn a_burst_then_the_rate_and_one_warning_per_flood() {
        let t0 = Instant::now();
        let mut b = Bucket::new(20, 40, t0);
        for _ in 0..40 {
            assert_eq!(b.take(t0), Take::Allowed);
        }
        assert_eq!(b.take(t0), Take::Dropped { first: true });
        assert_eq!(b.take(t0), Take::Dropped { first: false });
        // 50 ms at 20 a second refill one message.
        let t1 = t0 + Duration::from_millis(50);
        assert_eq!(b.take(t1), Take::Allowed);
        assert_eq!(b.take(t1), Take::Dropped { first: false });
        // Once full again (2 s), a new flood is warned about again.
        let t2 = t1 + Duration::from_secs(3);
        for _ in 0..40 {
            assert_eq!(b.take(t2), Take::Allowed);
        }
        assert_eq!(b.take(t2), Take::Dropped { first: true });
        // Time going backwards refills nothing.
        assert_eq!(b.take(t0), Take::Dropped { first: false });
    }
}
