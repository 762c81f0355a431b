//! What nodes publish to each other: the wire messages and the forwarded commands.

use reversi::core::Square;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What nodes publish to each other, as JSON on a node's channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "w", rename_all = "snake_case")]
pub enum Wire {
    /// A player's command for a room the receiving node owns.
    Cmd(Forward),
    /// A message for a player connected to the receiving node (`matched`: the player's wait or
    /// invite is over).
    Deliver {
        player: u64,
        text: String,
        #[serde(default)]
        matched: bool,
        /// Whether it was passed on already by a node where the player no longer was (it is
        /// passed on once, to the node Redis names).
        #[serde(default)]
        hop: bool,
    },
    /// The player reconnected on `node`: the receiving node lets its connection go, and hands
    /// the player's wait or invite to that node.
    Drop {
        player: u64,
        #[serde(default)]
        node: Option<String>,
    },
    /// A player's wait or open invite, handed over from the node it left.
    Adopt { player: u64, act: Act },
    /// The room was taken over by the sending node: the receiving node's players in it sync.
    Moved { room: String, players: Vec<u64> },
    /// `accepter` (on `node`) accepted the rematch `offerer` (on the receiving node) offered
    /// after game `room`: the receiving node makes the new game.
    Rematch {
        room: String,
        offerer: u64,
        accepter: u64,
        node: String,
        rid: Option<Value>,
    },
}

/// A player's command for a room, from the player's node to the room's owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Forward {
    pub(super) room: String,
    pub(super) player: u64,
    /// The player's node.
    pub(super) node: String,
    /// The request's type, for a refusal.
    pub(super) kind: String,
    pub(super) rid: Option<Value>,
    pub(super) op: Op,
    /// When it was first sent (ms): a command that finds no owner for too long is refused.
    pub(super) since: u64,
    /// A random id: a command published again (its first publication timed out, and may have
    /// arrived after all) is applied once.
    #[serde(default)]
    pub(super) id: u64,
}

/// The room commands a player's node forwards.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(super) enum Op {
    Move { version: u64, square: Square },
    Resign,
    Disconnect,
    Reconnect,
    Leave,
}

/// What a player connected to this node is doing (waits and invites are the node's business).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    Idle,
    Waiting { until: u64 },
    Inviting { code: String, until: u64 },
}
