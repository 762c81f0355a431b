//! The one error type of the crate.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{InviteCode, PlayerId, RoomId};

/// Why a room or lobby command was refused. A refused command leaves the state exactly as it was
/// (time that passed before it, as [`Room::handle_timeout`](crate::Room::handle_timeout) would
/// have seen it, is still taken into account first).
///
/// It serialises (tagged by `"error"`), so a server can send it as it is.
///
/// # Examples
///
/// ```
/// use reversi_room::{PlayerId, RoomError};
/// let err = RoomError::NotHost { player: PlayerId(2) };
/// assert_eq!(err.to_string(), "p2 is not the host");
/// assert_eq!(serde_json::to_string(&err).unwrap(), r#"{"error":"not_host","player":2}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "error", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RoomError {
    /// The sender is not in the room (or not a guest of the lobby).
    #[error("{player} is not in the room")]
    NotInRoom {
        /// The sender.
        player: PlayerId,
    },
    /// [`RoomCommand::Join`](crate::RoomCommand) by someone already in the room.
    #[error("{player} is already in the room")]
    AlreadyInRoom {
        /// The sender.
        player: PlayerId,
    },
    /// A host command from someone who is not the host.
    #[error("{player} is not the host")]
    NotHost {
        /// The sender.
        player: PlayerId,
    },
    /// A host command from the host while not seated.
    #[error("the host {player} must be seated to do this")]
    HostNotSeated {
        /// The host.
        player: PlayerId,
    },
    /// A seat number out of range.
    #[error("seat {seat} does not exist (the game has {seats} seats)")]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// How many seats there are.
        seats: usize,
    },
    /// The seat is occupied.
    #[error("seat {seat} is taken")]
    SeatTaken {
        /// The seat asked for.
        seat: usize,
    },
    /// The sender already holds a seat.
    #[error("{player} already sits in seat {seat}")]
    AlreadySeated {
        /// The sender.
        player: PlayerId,
        /// The seat they hold.
        seat: usize,
    },
    /// The sender holds no seat.
    #[error("{player} is not seated")]
    NotSeated {
        /// The sender.
        player: PlayerId,
    },
    /// The room already has its one bot.
    #[error("the room already has a bot, in seat {seat}")]
    SecondBot {
        /// The seat of the bot already there.
        seat: usize,
    },
    /// The room has no bot.
    #[error("the room has no bot")]
    NoBot,
    /// [`Room::bot_act`](crate::Room::bot_act) for a seat that no bot holds.
    #[error("no bot sits in seat {seat}")]
    NotABot {
        /// The seat named.
        seat: usize,
    },
    /// The bot's removal is already scheduled for the end of the game.
    #[error("the bot is already leaving at the end of the game")]
    BotAlreadyLeaving,
    /// The bot's seat is already reserved.
    #[error("the bot's seat is already reserved by {player}")]
    AlreadyReserved {
        /// Who reserved it.
        player: PlayerId,
    },
    /// A start with a free seat.
    #[error("seat {seat} is empty")]
    EmptySeat {
        /// The first free seat.
        seat: usize,
    },
    /// A start with no person seated (bots only). A [`Room`](crate::Room) never returns it: only
    /// the seated host starts, so a person is always seated. It stays for the wire protocol.
    #[error("a game needs at least one person seated")]
    NoPerson,
    /// A start while a game is in progress.
    #[error("a game is in progress")]
    GameInProgress,
    /// A game command with no game in progress (none started, or it is over).
    #[error("no game is in progress")]
    NoGameInProgress,
    /// An action or a pause while the game is paused.
    #[error("the game is paused")]
    Paused,
    /// A [`TimedGame::undo`](crate::TimedGame::undo) with no such turns to take back (rooms
    /// never take actions back).
    #[error("nothing to undo")]
    NothingToUndo,
    /// A resume while the host has not paused the game.
    #[error("the game is not paused by the host")]
    NotPaused,
    /// An action from a seat that the sender does not hold.
    #[error("{player} does not hold seat {seat}")]
    NotYourSeat {
        /// The sender.
        player: PlayerId,
        /// The seat named.
        seat: usize,
    },
    /// An action from a seat whose turn it is not.
    #[error("it is seat {to_act}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// The seat named.
        seat: usize,
        /// The seat whose action is due.
        to_act: usize,
    },
    /// An action the game refused.
    #[error("illegal action from seat {seat}: {reason}")]
    IllegalAction {
        /// The seat that acted.
        seat: usize,
        /// The game's reason.
        reason: String,
    },
    /// An action made on a state version older than the current turn (stale, or a duplicate of
    /// an action already applied), or newer than any state.
    #[error("action made on state version {got}; the turn began at version {turn} and the room is at {current}")]
    StaleVersion {
        /// The version the action named.
        got: u64,
        /// The version at which the current turn began.
        turn: u64,
        /// The room's current version.
        current: u64,
    },
    /// [`Disconnect`](crate::RoomCommand::Disconnect) of someone already disconnected, or a
    /// command from a disconnected person (who must reconnect first).
    #[error("{player} is disconnected")]
    Disconnected {
        /// The sender.
        player: PlayerId,
    },
    /// [`Reconnect`](crate::RoomCommand::Reconnect) of someone connected.
    #[error("{player} is connected")]
    AlreadyConnected {
        /// The sender.
        player: PlayerId,
    },
    /// Anything sent to a closed room.
    #[error("the room is closed")]
    RoomClosed,
    /// A room created with a number of players that is not the game's number of seats, or with
    /// someone named twice.
    #[error("the game needs {seats} players, not {players}")]
    WrongPlayerCount {
        /// The game's seats.
        seats: usize,
        /// The players given; when there are as many as seats but someone is named twice, the
        /// distinct ones.
        players: usize,
    },
    /// A lobby game kind that was not registered.
    #[error("unknown game kind {kind:?}")]
    UnknownGameKind {
        /// The kind asked for.
        kind: String,
    },
    /// A lobby command that needs the player to resign the game it is playing first.
    #[error("{player} must resign the game in {room} first")]
    MustResignFirst {
        /// The sender.
        player: PlayerId,
        /// The room of the game in progress.
        room: RoomId,
    },
    /// A lobby command while the player waits in the queue (cancel the wait first).
    #[error("{player} is waiting for a match")]
    AlreadyWaiting {
        /// The sender.
        player: PlayerId,
    },
    /// A lobby command while the player's invite is open (cancel it first).
    #[error("{player} has an open invite {code}")]
    InviteOpen {
        /// The sender.
        player: PlayerId,
        /// The open invite.
        code: InviteCode,
    },
    /// A cancel of a wait that is not there.
    #[error("{player} is not waiting for a match")]
    NotWaiting {
        /// The sender.
        player: PlayerId,
    },
    /// A cancel of an invite by someone who has none open.
    #[error("{player} has no open invite")]
    NoOpenInvite {
        /// The sender.
        player: PlayerId,
    },
    /// A hosted room's time per action must be 30, 60 or 90 seconds
    /// ([`RoomActionLimit`](crate::RoomActionLimit)).
    #[error("a room's time per action must be 30, 60 or 90 seconds, not {secs}")]
    UnsupportedActionLimit {
        /// The seconds asked for.
        secs: u64,
    },
    /// Text that is not an invite code.
    #[error("{input:?} is not an invite code")]
    BadInviteCode {
        /// The text given.
        input: String,
    },
    /// An invite code that was never issued.
    #[error("no invite has the code {code}")]
    UnknownInvite {
        /// The code given.
        code: InviteCode,
    },
    /// An invite code whose 10 minutes ran out without an opponent.
    #[error("the invite {code} has expired")]
    InviteExpired {
        /// The code given.
        code: InviteCode,
    },
    /// An invite code that was cancelled by its creator.
    #[error("the invite {code} was cancelled")]
    InviteCancelled {
        /// The code given.
        code: InviteCode,
    },
    /// An invite code whose game already has its opponent.
    #[error("the invite {code} is full")]
    InviteFull {
        /// The code given.
        code: InviteCode,
    },
    /// Joining one's own invite. [`Lobby::join_invite`](crate::Lobby::join_invite) finds the
    /// creator of an open invite busy first ([`RoomError::InviteOpen`]), so this guards a lobby
    /// whose state was loaded inconsistent.
    #[error("{player} cannot join their own invite")]
    OwnInvite {
        /// The sender.
        player: PlayerId,
    },
    /// A reconnection with a token that matches no guest.
    #[error("wrong reconnection token")]
    WrongToken,
    /// A lobby room that does not exist (any more).
    #[error("no room {room}")]
    NoSuchRoom {
        /// The room asked for.
        room: RoomId,
    },
    /// [`Lobby::rematch`](crate::Lobby::rematch) of a room that has no rematch to offer: its
    /// game is not over, it was not a game of two guests, one of them left, its rematch was
    /// played, or a later finished game of one of them replaced it (a guest has at most one
    /// offer: of the last game).
    #[error("no rematch of {room} to offer")]
    NoRematch {
        /// The room named.
        room: RoomId,
    },
    /// A rematch offer by someone who did not play the game.
    #[error("{player} did not play the game in {room}")]
    NotRematchPlayer {
        /// The sender.
        player: PlayerId,
        /// The room of the game.
        room: RoomId,
    },
    /// A second rematch offer by the same player: it is up to the opponent.
    #[error("{player} offered the rematch of {room} already: it is up to the opponent")]
    RematchOffered {
        /// The sender.
        player: PlayerId,
        /// The room of the game.
        room: RoomId,
    },
    /// A rematch offer after both players offered: the rematch was played.
    #[error("the rematch of {room} was played already")]
    RematchSpent {
        /// The room of the game.
        room: RoomId,
    },
    /// A rematch accepted while the player who offered it cannot play: disconnected, or busy
    /// (waiting for a match, inviting, playing). The offer stays.
    #[error("{opponent} cannot play the rematch of {room} now (disconnected, or busy)")]
    RematchOpponentBusy {
        /// The room of the game.
        room: RoomId,
        /// The player who offered.
        opponent: PlayerId,
    },
}
