//! The node's Redis I/O: the I/O task (saves, finished-game records, messages out), the
//! subscription to the node's channel, and the watch on Redis's links.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use reversi::room::{PlayerId, Room};
use reversi::room_adapters::ReversiGame;
use tokio::sync::mpsc;

use super::keys::*;
use super::link::{next_backoff, Link, BACKOFF_MIN};
use super::wire::*;
use super::{scripts, Input};
use crate::common::Out;
use crate::db::GameRecord;
use crate::protocol::{ErrorCode, Refusal};

/// A save that must succeed before a job's messages go out.
pub(super) enum Save {
    Put {
        room: String,
        state: String,
        kind: String,
        version: u64,
        players: Vec<u64>,
    },
    Delete {
        room: String,
        players: Vec<u64>,
    },
}

/// A message out: to a connection of this node, or published to another node.
pub(super) enum Out2 {
    Local(Out, Utf8Bytes),
    Publish {
        node: String,
        payload: String,
        forward: Option<Forward>,
    },
}

/// What the I/O task does in order: the save, then the finished games' records, then the
/// messages.
#[derive(Default)]
pub(super) struct Job {
    pub(super) save: Option<Save>,
    pub(super) finished: Vec<GameRecord>,
    pub(super) sends: Vec<Out2>,
    /// Sent instead of `sends` when the save finds the room is another node's now (the command
    /// that made the change was not kept: its sender is told to send it again).
    pub(super) on_lost: Vec<Out2>,
    /// The room before the command that made this change, to go back to when the save surely
    /// did not happen (Redis out of reach): its sender is told `unavailable` then.
    pub(super) revert: Option<Box<Revert>>,
}

/// How to undo a command whose change could not be saved.
pub(super) struct Revert {
    pub(super) before: Room<ReversiGame>,
    /// The room's version after the command (undone only while nothing came after it).
    pub(super) after: u64,
    /// The refusal to its sender (by [`Node::to_player`]).
    pub(super) refusal: (PlayerId, Utf8Bytes),
}

/// How often a node asks Redis whether it answers, so that a request that needs Redis while
/// it is out of reach is refused at once (`unavailable`) rather than waiting on it.
pub(super) const WATCH: Duration = Duration::from_millis(500);

/// Keeps [`Link::is_down`] current: each link is asked every [`WATCH`]. When Redis answers
/// again after it was out of reach, the node is told at once (it looks whether Redis lost its
/// data and renews its leases then, rather than at its next heartbeat).
pub(super) async fn watch(links: Vec<Link>, back: mpsc::UnboundedSender<Input>) {
    let mut tick = tokio::time::interval(WATCH);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut was_up = true;
    while !back.is_closed() {
        tick.tick().await;
        let mut up = true;
        for l in &links {
            up &= l.check().await;
        }
        if up && !was_up {
            let _ = back.send(Input::RedisBack);
        }
        was_up = up;
    }
}

pub(super) async fn subscribe(
    client: &redis::Client,
    channel: &str,
) -> redis::RedisResult<redis::aio::PubSub> {
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(channel).await?;
    Ok(pubsub)
}

/// Hands the node the messages of its channel. When the subscription drops (Redis restarted,
/// the connection was killed) the node is told, and the subscription is made again with a
/// backoff; the node is told again when it is back. The node never stops for it.
pub(super) async fn listen(
    client: redis::Client,
    channel: String,
    first: redis::aio::PubSub,
    back: mpsc::UnboundedSender<Input>,
) {
    let mut next = Some(first);
    let mut backoff = BACKOFF_MIN;
    while !back.is_closed() {
        let pubsub = match next.take() {
            Some(p) => p,
            None => match subscribe(&client, &channel).await {
                Ok(p) => {
                    tracing::info!("subscribed again to the node's channel");
                    backoff = BACKOFF_MIN;
                    let _ = back.send(Input::Listening(true));
                    p
                }
                Err(e) => {
                    tracing::warn!(error = %e, retry_ms = backoff.as_millis(), "cannot subscribe to the node's channel");
                    tokio::time::sleep(backoff).await;
                    backoff = next_backoff(backoff);
                    continue;
                }
            },
        };
        let mut stream = pubsub.into_on_message();
        while let Some(m) = stream.next().await {
            let Ok(text) = m.get_payload::<String>() else {
                continue;
            };
            match serde_json::from_str::<Wire>(&text) {
                Ok(w) => {
                    let _ = back.send(Input::Wire(w));
                }
                Err(e) => tracing::warn!(error = %e, "an unreadable cluster message"),
            }
        }
        tracing::warn!("the Redis subscription dropped: subscribing again");
        let _ = back.send(Input::Listening(false));
    }
}

pub(super) fn save_cmd(keys: &Keys, me: &str, lease_ms: u64, s: &Save) -> redis::Cmd {
    let mut c = redis::cmd("EVAL");
    match s {
        Save::Put {
            room,
            state,
            kind,
            version,
            players,
        } => {
            c.arg(scripts::SAVE)
                .arg(4 + players.len())
                .arg(keys.lease(room))
                .arg(keys.room(room))
                .arg(keys.k("rooms"))
                .arg(keys.tomb(room));
            for p in players {
                c.arg(keys.proom(*p));
            }
            c.arg(me)
                .arg(state)
                .arg(kind)
                .arg(lease_ms)
                .arg(LIVE_TTL_MS)
                .arg(*version)
                .arg(room);
        }
        Save::Delete { room, players } => {
            c.arg(scripts::DELETE)
                .arg(4 + players.len())
                .arg(keys.lease(room))
                .arg(keys.room(room))
                .arg(keys.k("rooms"))
                .arg(keys.tomb(room));
            for p in players {
                c.arg(keys.proom(*p));
            }
            c.arg(me).arg(room).arg(RECORD_TTL_MS);
        }
    }
    c
}

/// The commands that keep a finished game in Redis for [`RECORD_TTL_MS`].
pub(super) fn finished_cmds(pipe: &mut redis::Pipeline, keys: &Keys, r: &GameRecord) {
    let json = serde_json::to_string(r).expect("a record serialises");
    pipe.cmd("SET")
        .arg(keys.game(&r.game, r.game_no))
        .arg(json)
        .arg("PX")
        .arg(RECORD_TTL_MS)
        .ignore();
    let id = format!("{}:{}", r.game, r.game_no);
    for name in [&r.black, &r.white] {
        let Some(p) = name
            .strip_prefix("guest:")
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        let list = keys.played(p);
        pipe.cmd("LPUSH")
            .arg(&list)
            .arg(&id)
            .ignore()
            .cmd("LTRIM")
            .arg(&list)
            .arg(0)
            .arg(PLAYED_MAX - 1)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&list)
            .arg(RECORD_TTL_MS)
            .ignore();
    }
}

/// Runs the jobs in order, in batches: the batch's saves in one pipeline, then the records of
/// the games that ended, then the messages of the jobs whose save went through. A job whose
/// save failed for want of Redis goes back to the node, which tries it again.
pub(super) async fn io_task(
    link: Link,
    keys: Arc<Keys>,
    me: String,
    lease_ms: u64,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    back: mpsc::UnboundedSender<Input>,
) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match jobs.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let mut ok = vec![true; batch.len()];
        let mut pipe = redis::pipe();
        let mut saved = Vec::new();
        for (i, j) in batch.iter().enumerate() {
            if let Some(s) = &j.save {
                pipe.add_command(save_cmd(&keys, &me, lease_ms, s));
                saved.push(i);
            }
        }
        let mut unsaved = Vec::new();
        let mut lost_sends = Vec::new();
        let mut down = false;
        if !saved.is_empty() {
            match link.pipe::<Vec<i64>>(&pipe).await {
                Ok(rs) => {
                    for (&i, r) in saved.iter().zip(rs) {
                        if r != 1 {
                            ok[i] = false;
                            lost_sends.push(i);
                            if let Some(Save::Put { room, .. } | Save::Delete { room, .. }) =
                                &batch[i].save
                            {
                                tracing::warn!(room = %room, "the room's lease is not ours: not saved, not told");
                                let _ = back.send(Input::Lost(room.clone()));
                            }
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, "rooms not saved: saved and told at the next sweep");
                    down = link.is_down();
                    for &i in &saved {
                        ok[i] = false;
                        unsaved.push(i);
                    }
                }
            }
        }
        let mut pipe = redis::pipe();
        let mut any = false;
        for (j, ok) in batch.iter().zip(&ok) {
            if *ok {
                for r in &j.finished {
                    finished_cmds(&mut pipe, &keys, r);
                    any = true;
                }
            }
        }
        if any {
            if let Err(e) = link.pipe::<()>(&pipe).await {
                // The owner's own database has them: its node answers for them.
                tracing::error!(error = %e, "finished games not kept in Redis");
            }
        }
        let mut pipe = redis::pipe();
        let mut forwards: Vec<Option<Forward>> = Vec::new();
        let mut batch: Vec<Option<Job>> = batch.into_iter().map(Some).collect();
        for i in unsaved {
            if let Some(j) = batch[i].take() {
                let _ = back.send(Input::Unsaved(j, down));
            }
        }
        let mut dispatch = |s: Out2| match s {
            Out2::Local(out, text) => {
                let _ = out.try_send(text);
            }
            Out2::Publish {
                node,
                payload,
                forward,
            } => {
                pipe.cmd("PUBLISH").arg(keys.channel(&node)).arg(payload);
                forwards.push(forward);
            }
        };
        for i in lost_sends {
            if let Some(j) = batch[i].take() {
                j.on_lost.into_iter().for_each(&mut dispatch);
            }
        }
        for (j, ok) in batch.into_iter().zip(ok) {
            if let (Some(j), true) = (j, ok) {
                j.sends.into_iter().for_each(&mut dispatch);
            }
        }
        if !forwards.is_empty() {
            match link.pipe::<Vec<i64>>(&pipe).await {
                Ok(ns) => {
                    for (n, f) in ns.into_iter().zip(forwards) {
                        if let (0, Some(f)) = (n, f) {
                            let _ = back.send(Input::Undelivered(f));
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, "cluster messages not published");
                    // Redis out of reach: the commands surely did not go out, and their
                    // senders are told so. Otherwise (a time-out: they may have gone out) they
                    // wait for the next sweep and go again (the owner applies a command once).
                    // The states are sent again when their rooms next change (or the players
                    // sync).
                    let down = link.is_down();
                    for f in forwards.into_iter().flatten() {
                        let _ = back.send(if down {
                            Input::Unsent(f)
                        } else {
                            Input::Undelivered(f)
                        });
                    }
                }
            }
        }
    }
}

pub(super) type Res<T> = Result<T, Refusal>;

pub(super) fn store_err(e: impl std::fmt::Display) -> Refusal {
    Refusal::new(ErrorCode::Unavailable, format!("the cluster's store: {e}"))
}
