//! Reads of finished games on a cluster node (`record`, `games`).

use std::sync::Arc;

use super::io::*;
use super::keys::*;
use super::link::Link;
use crate::db::{GameRecord, Reader};
use crate::finished;
use crate::protocol::{ClientMsg, ErrorCode, Refusal, ServerMsg};

/// Reads of finished games on a cluster node: its own database, then Redis.
pub(super) struct Reads {
    pub(super) link: Link,
    pub(super) keys: Arc<Keys>,
}

impl Reads {
    pub(super) async fn answer(&self, reader: Arc<Reader>, msg: &ClientMsg) -> Res<ServerMsg> {
        let (token, game, game_no, limit) = match msg {
            ClientMsg::Record {
                game,
                token,
                game_no,
                ..
            } => (token.clone(), Some(game.clone()), *game_no, 1),
            ClientMsg::Games { token, limit, .. } => {
                (token.clone(), None, None, finished::games_limit(*limit)?)
            }
            _ => {
                return Err(Refusal::new(
                    ErrorCode::Internal,
                    "not a read of finished games",
                ))
            }
        };
        let t = token.clone();
        let r = reader.clone();
        let local_player = tokio::task::spawn_blocking(move || r.player_of(&t))
            .await
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("the read failed: {e}")))?
            .map_err(finished::db_err)?;
        let player = match local_player {
            Some(p) => p,
            None => self
                .link
                .query::<Option<String>>(redis::cmd("GET").arg(self.keys.token(&token)))
                .await
                .map_err(|e| store_err(&e))?
                .and_then(|s| s.parse().ok())
                .ok_or_else(finished::wrong_token)?,
        };
        let g = game.clone();
        let local = tokio::task::spawn_blocking(move || {
            reader
                .games_of(player, g.as_deref(), game_no, limit)
                .map_err(finished::db_err)
        })
        .await
        .map_err(|e| Refusal::new(ErrorCode::Internal, format!("the read failed: {e}")))??;
        if let Some(game) = &game {
            if let Some(row) = local.first() {
                return finished::record_msg(row);
            }
            let remote = self.remote(player, Some((game, game_no)), 1).await?;
            let row = remote.first().ok_or_else(|| finished::no_record(game))?;
            return finished::record_msg(row);
        }
        // A node that cannot reach Redis still answers with the games it recorded itself.
        let remote = match self.remote(player, None, limit).await {
            Ok(r) => r,
            Err(e) if local.is_empty() => return Err(e),
            Err(e) => {
                tracing::warn!(error = %e.message, "games: only this node's own records");
                Vec::new()
            }
        };
        finished::games_msg(player, &finished::merge(local, remote, limit))
    }

    /// The player's finished games kept in Redis, newest first: all (up to `limit`), or those
    /// of one room (and one game of it).
    pub(super) async fn remote(
        &self,
        player: u64,
        only: Option<(&str, Option<u64>)>,
        limit: u32,
    ) -> Res<Vec<GameRecord>> {
        let ids: Vec<String> = self
            .link
            .query(
                redis::cmd("LRANGE")
                    .arg(self.keys.played(player))
                    .arg(0)
                    .arg(PLAYED_MAX),
            )
            .await
            .map_err(|e| store_err(&e))?;
        let mut keys = Vec::new();
        for id in &ids {
            let Some((room, no)) = id.rsplit_once(':') else {
                continue;
            };
            let Ok(no) = no.parse::<u64>() else {
                continue;
            };
            let wanted = match only {
                Some((g, n)) => g == room && n.is_none_or(|n| n == no),
                None => true,
            };
            if wanted {
                keys.push(self.keys.game(room, no));
            }
            if keys.len() >= usize::try_from(limit).unwrap_or(usize::MAX) {
                break;
            }
        }
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut c = redis::cmd("MGET");
        for k in &keys {
            c.arg(k);
        }
        let texts: Vec<Option<String>> = self.link.query(&c).await.map_err(|e| store_err(&e))?;
        let me = format!("guest:{player}");
        Ok(texts
            .into_iter()
            .flatten()
            .filter_map(|t| match serde_json::from_str::<GameRecord>(&t) {
                Ok(r) => Some(r),
                Err(e) => {
                    tracing::warn!(error = %e, "an unreadable finished game in Redis");
                    None
                }
            })
            .filter(|r| r.black == me || r.white == me)
            .collect())
    }
}
