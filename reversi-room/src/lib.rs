//! Game rooms that know no game: seats, a host, at most one bot, reservations, per-action
//! deadlines, disconnections, and the online side (guests, random matching, invite codes,
//! reconnection tokens), as sans-IO state machines.
//!
//! The crate defines what it needs from a game, the turn-based [`TurnGame`] trait, and from a
//! computer player, the [`Bot`] trait; the `reversi` facade implements both for Reversi and its
//! engines.
//!
//! Nothing here reads the system clock, sleeps, spawns or does IO. Commands and `now` (a
//! wall-clock [`Millis`](reversi_clock::Millis)) go in; [`Event`]s come out of `poll_event`;
//! `poll_timeout` says when to call `handle_timeout`. Every deadline is counted with
//! [`reversi_clock`]. The states serialise with serde (the `serde` feature, on by default), carry
//! a version that every change bumps, and a refused command (a typed [`RoomError`]) leaves them
//! exactly as they were.
//!
//! - [`TimedGame`] is one game with its clock: the actions of the seat to act, deadlines,
//!   resignation, the end by the rules, undo, and the one [`EndReason`]. A room plays its games
//!   in it, and so does the `reversi` facade's local match.
//! - [`Room`] is one table: hosted (a host, settings, seats, a bot) or online (two guests, 30 s
//!   a move, a 2-hour limit).
//! - [`Lobby`] is the online service: guests with reconnection [`Token`]s, a random-matching
//!   queue per game kind, [`InviteCode`]s, the online [`Room`]s it fills, and the rematches of
//!   their finished games ([`Lobby::rematch`], whose rule is [`RematchOffer`]).
//! - [`RoomSnapshot`] and [`LobbySnapshot`] are the two as public, versioned plain data
//!   ([`SNAPSHOT_FORMAT`]), for a host to store and restore: [`Room::snapshot`],
//!   [`Room::from_snapshot`] (which checks everything and says what is wrong in a
//!   [`SnapshotError`]), and the same on [`Lobby`]. Their shape changes only with the format
//!   version, unlike the states' own serde form, which follows their private fields.
//!
//! # Examples
//!
//! The examples play `Nim`, a game of the crate's tests (not of its API): players in turn take 1
//! to 3 pebbles from a pile (`Nim::new(pebbles, seats)`, an action is the number taken), and
//! whoever takes the last one wins; at a game-length limit the one who took the most wins.
//! `NimBot` plays it perfectly. Each example includes its definition, `tests/common/nim.rs` in
//! the crate's sources, on a hidden first line.
//!
//! A hosted room where the host plays the bot, and pauses:
//!
//! ```
//! # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
//! use reversi_clock::{Millis, Span};
//! use reversi_room::{EndReason, EventKind, PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings, SeatOutcome};
//!
//! let host = PlayerId(1);
//! let mut room = Room::hosted(Millis(0), host, RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(10, 2));
//! room.handle(Millis(0), host, RoomCommand::Sit { seat: 0 })?;
//! room.handle(Millis(0), host, RoomCommand::AddBot { seat: 1, level: "easy".into() })?;
//! room.handle(Millis(0), host, RoomCommand::Start)?;
//! assert_eq!(room.poll_timeout(), Some(Millis(30_000))); // the host's first action
//! room.handle(Millis(10_000), host, RoomCommand::Pause)?;
//! assert_eq!(room.poll_timeout(), None); // a pause stops the clock
//! room.handle(Millis(500_000), host, RoomCommand::Resume)?;
//! assert_eq!(room.poll_timeout(), Some(Millis(520_000))); // 20 s were left
//! room.handle_timeout(Millis(520_000));
//! let result = room.result().unwrap();
//! assert_eq!(result.reason, EndReason::Timeout { seat: 0 });
//! assert_eq!(result.outcome, SeatOutcome::Winner(1));
//! # Ok::<(), reversi_room::RoomError>(())
//! ```
//!
//! A random match in the [`Lobby`]:
//!
//! ```
//! # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
//! use reversi_clock::Millis;
//! use reversi_room::{Lobby, QueueOutcome};
//!
//! let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(10, 2))], [7; 32]);
//! let (alice, _alice_token) = lobby.add_guest(Millis(0));
//! let (bob, _bob_token) = lobby.add_guest(Millis(0));
//! assert!(matches!(lobby.queue(Millis(0), alice, "nim")?, QueueOutcome::Waiting { .. }));
//! let QueueOutcome::Matched { room } = lobby.queue(Millis(1_000), bob, "nim")? else { panic!() };
//! assert_eq!(lobby.room_of(alice), Some(room));
//! # Ok::<(), reversi_room::RoomError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
mod game;
mod ids;
mod limit;
mod lobby;
mod matching;
mod rematch;
mod room;
mod snapshot;
mod timed;

pub use error::RoomError;
pub use game::{Bot, SeatOutcome, TurnGame};
pub use ids::{InviteCode, PlayerId, RoomId, Token};
pub use limit::RoomActionLimit;
pub use lobby::{
    Activity, Lobby, LobbyEvent, LobbyEventKind, LobbySettings, QueueOutcome, RematchOutcome,
};
pub use matching::{draw_seats, Invite, InviteStatus, MatchQueue, QueueEntry, QueueOffer};
pub use rematch::{RematchOffer, RematchState, RematchStep};
pub use room::{
    BotTurn, CloseReason, EndReason, EndReasonError, Event, EventKind, GameResult, Member,
    Occupant, PauseCause, Room, RoomCommand, RoomSettings,
};
pub use snapshot::{
    ClockPhase, ClockSnapshot, GameSnapshot, GeneratorSnapshot, GuestSnapshot, InviteSnapshot,
    InviteState, LobbyRoomSnapshot, LobbySnapshot, MemberSnapshot, RematchSnapshot, RoomSnapshot,
    SnapshotError, SNAPSHOT_FORMAT,
};
pub use timed::TimedGame;
