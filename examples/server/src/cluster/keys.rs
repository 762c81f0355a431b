//! The names of the cluster's Redis keys and channels, and how long the keys last.

use std::time::Duration;

/// The names of the keys and channels.
pub(super) struct Keys(pub(super) String);

impl Keys {
    pub(super) fn k(&self, what: &str) -> String {
        format!("{}:{what}", self.0)
    }
    pub(super) fn lease(&self, room: &str) -> String {
        format!("{}:lease:{room}", self.0)
    }
    pub(super) fn room(&self, room: &str) -> String {
        format!("{}:room:{room}", self.0)
    }
    pub(super) fn token(&self, token: &str) -> String {
        format!("{}:token:{token}", self.0)
    }
    pub(super) fn at(&self, p: u64) -> String {
        format!("{}:at:{p}", self.0)
    }
    pub(super) fn proom(&self, p: u64) -> String {
        format!("{}:proom:{p}", self.0)
    }
    /// When a disconnected guest's reconnection grace ends (ms), set when its connection drops.
    pub(super) fn away(&self, p: u64) -> String {
        format!("{}:away:{p}", self.0)
    }
    pub(super) fn invite(&self, code: &str) -> String {
        format!("{}:invite:{code}", self.0)
    }
    pub(super) fn alive(&self, node: &str) -> String {
        format!("{}:alive:{node}", self.0)
    }
    pub(super) fn channel(&self, node: &str) -> String {
        format!("{}:node:{node}", self.0)
    }
    /// A finished game's record (JSON of [`GameRecord`]).
    pub(super) fn game(&self, room: &str, game_no: u64) -> String {
        format!("{}:game:{room}:{game_no}", self.0)
    }
    /// A player's finished games (`room:game_no`, newest first).
    pub(super) fn played(&self, p: u64) -> String {
        format!("{}:played:{p}", self.0)
    }
    /// The rematch offer after a finished game: the room crate's `RematchOffer` as JSON.
    pub(super) fn rematch(&self, room: &str) -> String {
        format!("{}:rematch:{room}", self.0)
    }
    /// Left by a room that ended, so that no node saves it again.
    pub(super) fn tomb(&self, room: &str) -> String {
        format!("{}:ended:{room}", self.0)
    }
    /// The generation of the cluster's Redis data: a random value set once, with no expiry,
    /// so that a node sees when Redis lost its data (the key is gone or another value).
    pub(super) fn gen(&self) -> String {
        format!("{}:gen", self.0)
    }
}

/// How long a player's `at` and `proom` keys and a live room's record last without being
/// refreshed: longer than the longest online game (2 h) and its reconnection grace (60 s).
pub(super) const LIVE_TTL_MS: u64 = 3 * 3600 * 1000;
/// How long a token lasts without being used: as long as the finished games it reads.
pub(super) const TOKEN_TTL_MS: u64 = 25 * 3600 * 1000;
/// How long a finished game's record (and a player's list of them) stays in Redis: a day at
/// least (each node's own database keeps its games for good).
pub(super) const RECORD_TTL_MS: u64 = 25 * 3600 * 1000;
/// How often a node refreshes the keys of its connected players.
pub(super) const REFRESH: Duration = Duration::from_secs(600);
/// The most finished games kept per player in Redis.
pub(super) const PLAYED_MAX: i64 = 50;
/// The tokens a node puts back in Redis after Redis lost its data: those it handed out within
/// this time (a token is valid 25 h from its last use, which only Redis knew).
pub(super) const GUESTS_KEPT_MS: u64 = 7 * 24 * 3600 * 1000;
