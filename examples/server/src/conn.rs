//! One WebSocket connection: reads frames, checks their size and rate, parses them, and hands
//! each command to the online part (matching, invites, online and hosted rooms). Bad input gets an `error` message and
//! the connection goes on.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::mpsc;

use crate::hub::{send, Hub, Out};
use crate::protocol::{self, ClientMsg, Refusal};

/// How often the rate limiter refills.
const REFILL: Duration = Duration::from_millis(100);

/// Serves one connection until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>) {
    let conn = hub.conn_id();
    let (mut sink, mut stream) = socket.split();
    let (out, mut outq) = mpsc::channel(hub.cfg.out_queue);
    let writer = tokio::spawn(async move {
        while let Some(text) = outq.recv().await {
            if sink.send(Message::Text(text)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let rate = hub.cfg.rate_per_sec;
    let burst = hub.cfg.rate_burst;
    send(
        &out,
        &protocol::welcome(conn, hub.cfg.test_endpoints, rate, burst),
    );
    tracing::debug!(conn, "connected");

    // A token bucket refilled by a timer tick: `rate` messages a second, bursts of `burst`.
    let mut tokens = burst;
    let mut warned = false;
    let per_tick = (rate / 10).max(1);
    let mut refill = tokio::time::interval(REFILL);
    refill.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break };
                let text = match frame {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        if take(&mut tokens, &mut warned, &out) {
                            send(&out, &Refusal::new("binary_frame", "only text frames carrying JSON are understood").to_json(None, None));
                        }
                        continue;
                    }
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => continue,
                };
                if !take(&mut tokens, &mut warned, &out) {
                    continue;
                }
                match protocol::parse(text.as_str()) {
                    Err((r, kind, rid)) => {
                        send(&out, &r.to_json(kind.as_deref(), rid.as_ref()));
                    }
                    Ok(msg) => dispatch(&hub, conn, &out, msg).await,
                }
            }
            _ = refill.tick() => {
                tokens = (tokens + per_tick).min(burst);
                if tokens == burst {
                    warned = false;
                }
            }
        }
    }
    hub.online.disconnected(conn).await;
    drop(out);
    let _ = writer.await;
    tracing::debug!(conn, "disconnected");
}

/// Takes a token; when none is left, warns once per flood and returns false.
fn take(tokens: &mut u32, warned: &mut bool, out: &Out) -> bool {
    if *tokens > 0 {
        *tokens -= 1;
        return true;
    }
    if !*warned {
        *warned = true;
        send(
            out,
            &Refusal::new(
                "rate_limited",
                "too many messages: this one and the next ones are dropped until the rate falls",
            )
            .to_json(None, None),
        );
    }
    false
}

async fn dispatch(hub: &Arc<Hub>, conn: u64, out: &Out, msg: ClientMsg) {
    match &msg {
        ClientMsg::Ping { rid } => {
            send(out, &json!({"type": "pong", "rid": rid}));
        }
        _ => hub.online.command(conn, out, msg).await,
    }
}
