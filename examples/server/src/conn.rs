//! One WebSocket connection: reads frames, checks their size and rate, parses them, and hands
//! each command to the online part (matching, invites, online and hosted rooms). Bad input gets an `error` message and
//! the connection goes on.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use crate::hub::{send, Hub, Out};
use crate::protocol::{self, ClientMsg, Refusal};
use crate::records;

/// How often the rate limiter refills.
const REFILL: Duration = Duration::from_millis(100);

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

    // A token bucket refilled by a timer tick: `rate` messages a second, bursts of `burst`.
    let mut tokens = burst;
    let mut warned = false;
    let per_tick = (rate / 10).max(1);
    let mut refill = tokio::time::interval(REFILL);
    refill.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        tokio::select! {
            frame = stream.next() => {
                let frame = match frame {
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
                            let _ = tx.send(CloseFrame { code, reason: reason.into() });
                        }
                        break;
                    }
                    None => break,
                };
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
    drop(close_tx);
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
        ClientMsg::Record { .. } | ClientMsg::Games { .. } => {
            // Reads of finished games go to the database on the blocking pool, not through the
            // online task.
            let kind = msg.kind();
            let rid = msg.rid().cloned();
            let reader = hub.reader.clone();
            let answer = tokio::task::spawn_blocking(move || records::answer(&reader, &msg))
                .await
                .unwrap_or_else(|e| Err(Refusal::new("internal", format!("the read failed: {e}"))));
            match answer {
                Ok(mut v) => {
                    if let Some(rid) = rid {
                        v["rid"] = rid;
                    }
                    send(out, &v);
                }
                Err(r) => {
                    send(out, &r.to_json(Some(kind), rid.as_ref()));
                }
            }
        }
        _ => hub.online.command(conn, out, msg).await,
    }
}
