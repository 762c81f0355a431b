//! The store's records: stable, versioned forms of what a restart needs, independent of the room
//! crate's private structs and of the database that keeps them (SQLite here; the functions take
//! and give text, so any store can keep them).
//!
//! - a **room** ([`RoomRecord`]): settings, host, members (connected or since when not), seats,
//!   reservation, bot leaving, games started, the game in it, closing, version, last instant seen;
//! - a **game** ([`GameRec`]): its number, start position and moves (passes included, written
//!   `pass`), start, game-length limit, turn version, pause, result, and its clock;
//! - a **clock** ([`ClockRecord`]): its control, every side's remaining time at an instant, and
//!   whose turn it is there (running, paused, flagged, stopped);
//! - the **lobby** ([`LobbyRecord`]): settings, guests (token, activity, disconnection), queues,
//!   invites, online rooms, the next numbers, and its generator;
//! - a **lobby command** ([`LobbyOp`]), as the lobby's log keeps it.
//!
//! Every record is JSON with its version in `v` ([`RECORD_VERSION`]). Records are written from,
//! and read into, the room crate's public snapshots ([`Room::snapshot`], [`Lobby::snapshot`],
//! [`Room::from_snapshot`], [`Lobby::from_snapshot`]): plain data with a format version of their
//! own, so nothing here depends on the room crate's private structs, and the records keep their
//! shape whatever the snapshots become. Reading checks what it reads (the moves replay here; the
//! room crate checks the seats, members, clocks, guests, tokens, queues and invites) and says what
//! is wrong in a [`RecordError`].
//!
use std::collections::BTreeMap;

use reversi::clock::{Millis, Span, TimeControl};
use reversi::core::{Move, Position, Square};
use reversi::room::{
    Activity, ClockPhase, ClockSnapshot, CloseReason, EndReason, GameResult, GameSnapshot,
    GeneratorSnapshot, GuestSnapshot, InviteCode, InviteSnapshot, InviteState, Lobby,
    LobbyRoomSnapshot, LobbySettings, LobbySnapshot, MemberSnapshot, Occupant, PlayerId,
    RematchOffer, RematchSnapshot, RematchState, Room, RoomId, RoomSettings, RoomSnapshot,
    SeatOutcome, SnapshotError, Token, SNAPSHOT_FORMAT,
};
use reversi::room_adapters::ReversiGame;
use serde::{Deserialize, Serialize};
// What the tests below take from this module.
#[cfg(test)]
use {reversi::room::PauseCause, serde_json::Value};

/// The version of the records this server writes, and the newest it reads.
pub const RECORD_VERSION: u32 = 3;

/// Why a record cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    /// Not JSON, or not the shape of the record.
    #[error("not a record of this kind: {0}")]
    Shape(String),
    /// Written by a newer server.
    #[error(
        "record version {found}, written by a newer server (this one reads up to {RECORD_VERSION})"
    )]
    Newer {
        /// The version found.
        found: u32,
    },
    /// Of a version this code does not read (older records are migrated by the store).
    #[error("record version {found}: not a version this server reads (3 to {RECORD_VERSION})")]
    Older {
        /// The version found.
        found: u32,
    },
    /// Well formed but inconsistent (an illegal move, a seat that does not exist…).
    #[error("{0}")]
    Invalid(String),
}

fn check_version(v: u32) -> Result<(), RecordError> {
    match v {
        RECORD_VERSION => Ok(()),
        v if v > RECORD_VERSION => Err(RecordError::Newer { found: v }),
        v => Err(RecordError::Older { found: v }),
    }
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, RecordError> {
    // The version first, so that a newer record is named as such and not as a wrong shape.
    #[derive(Deserialize)]
    struct Versioned {
        v: u32,
    }
    let v = serde_json::from_str::<Versioned>(text)
        .map_err(|e| RecordError::Shape(e.to_string()))?
        .v;
    check_version(v)?;
    serde_json::from_str(text).map_err(|e| RecordError::Shape(e.to_string()))
}

// ---- the records ----

/// A room's settings (durations in milliseconds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsRecord {
    /// The time for each action.
    pub action_ms: u64,
    /// How long a disconnected person keeps their place.
    pub disconnect_grace_ms: u64,
    /// Pause and close after this long with no person connected (hosted rooms).
    pub close_when_empty_ms: Option<u64>,
    /// The longest a game may last.
    pub game_limit_ms: Option<u64>,
    /// Whether the room closes after its one game.
    pub single_game: bool,
}

/// A person in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberRecord {
    /// Who.
    pub player: u64,
    /// Since when they are disconnected (`None`: connected).
    pub disconnected_at: Option<u64>,
    /// When their grace ends, if disconnected.
    pub grace_until: Option<u64>,
}

/// A seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatRecord {
    /// Nobody.
    Empty,
    /// A person.
    Person {
        /// Who.
        player: u64,
    },
    /// The room's bot.
    Bot {
        /// Its level.
        level: String,
    },
}

/// Whose turn it is on a clock, at the record's instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum TurnRecord {
    /// Not started.
    NotStarted,
    /// `side`'s time runs from the record's instant.
    Running {
        /// Whose turn.
        side: usize,
    },
    /// `side`'s turn, every time frozen.
    Paused {
        /// Whose turn.
        side: usize,
    },
    /// `side` lost on time at `at`.
    Flagged {
        /// Who.
        side: usize,
        /// When.
        at: u64,
    },
    /// Stopped (the game ended) on `side`'s turn.
    Stopped {
        /// Whose turn it was.
        side: Option<usize>,
    },
}

/// A clock's public state: its control, every side's remaining time at instant `at`, and whose
/// turn it is then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRecord {
    /// The time control (the clock crate's plain-data form, e.g.
    /// `{"kind":"per_move","limit":30000}`).
    pub control: TimeControl,
    /// The instant of the times below (wall-clock milliseconds).
    pub at: u64,
    /// Every side's remaining time at `at` (`None` when unlimited).
    pub remaining_ms: Vec<Option<u64>>,
    /// Whose turn.
    pub turn: TurnRecord,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// The winning seat; `None` with `draw` false is no result.
    pub winner: Option<usize>,
    /// Whether a draw.
    pub draw: bool,
    /// Why: `board`, `timeout`, `resigned`, `abandoned`, `disconnected`, `time_limit`,
    /// `ended_by_host`, `room_closed`.
    pub reason: String,
    /// The seat the reason names (who timed out, resigned…), if any.
    pub seat: Option<usize>,
    /// When.
    pub at: u64,
}

/// A game in a room: settings come from the room; this is its moves, times and state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRec {
    /// Its number in the room (1 for the first).
    pub number: u64,
    /// The start position (64 squares `-XO` and the side to move, as the core writes it).
    pub start: String,
    /// The moves, passes included (`pass`).
    pub moves: Vec<String>,
    /// When it started.
    pub started_at: u64,
    /// When the game-length limit falls (while it is played).
    pub limit_at: Option<u64>,
    /// The version a move must name (while it is played).
    pub turn_version: u64,
    /// `host` or `nobody_connected` when paused (while it is played).
    pub paused: Option<String>,
    /// How it ended, once it has.
    pub result: Option<ResultRecord>,
    /// Its clock.
    pub clock: ClockRecord,
}

/// A room: everything a restart needs to go on with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomRecord {
    /// The record version.
    pub v: u32,
    /// Its settings.
    pub settings: SettingsRecord,
    /// The host (hosted rooms).
    pub host: Option<u64>,
    /// The people in it.
    pub members: Vec<MemberRecord>,
    /// The seats, in order (seat 0 is black).
    pub seats: Vec<SeatRecord>,
    /// Who holds the reservation of the bot's seat.
    pub reservation: Option<u64>,
    /// Whether the bot leaves after this game.
    pub bot_leaving: bool,
    /// Games started in it.
    pub games_started: u64,
    /// The game being played or just finished.
    pub game: Option<GameRec>,
    /// When it closes unless someone comes back.
    pub closes_at: Option<u64>,
    /// `empty` or `game_over` once closed.
    pub closed: Option<String>,
    /// Its version (every change counts).
    pub version: u64,
    /// The latest instant it has seen.
    pub last_seen: u64,
}

/// What a guest of the lobby is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "activity", rename_all = "snake_case")]
pub enum ActivityRecord {
    /// Nothing.
    Idle,
    /// Waiting for a random match of `kind` until `until`.
    Waiting {
        /// The game kind.
        kind: String,
        /// When the wait ends.
        until: u64,
    },
    /// Waiting for someone to join its invite.
    Inviting {
        /// The code.
        code: String,
    },
    /// Playing in online room `room`.
    Playing {
        /// The room number.
        room: u64,
    },
}

/// A guest of the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuestRecord {
    /// Its number.
    pub player: u64,
    /// Its reconnection token.
    pub token: String,
    /// What it does.
    pub activity: ActivityRecord,
    /// Since when it is disconnected, if it is.
    pub disconnected_at: Option<u64>,
}

/// An invite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteRecord {
    /// Its code.
    pub code: String,
    /// Its game kind.
    pub kind: String,
    /// Who created it.
    pub creator: u64,
    /// When it expires without an opponent.
    pub expires_at: u64,
    /// `open`, `expired`, `cancelled` or `used`.
    pub status: String,
    /// The room it made, when used.
    pub room: Option<u64>,
}

/// An online room of the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineRoomRecord {
    /// Its number (`R<n>` on the wire).
    pub id: u64,
    /// Its game kind.
    pub kind: String,
    /// The room.
    pub room: RoomRecord,
}

/// The lobby's generator: a ChaCha20 seed (hex) and position, so that replaying the log after
/// the record draws the tokens, codes and colours the live lobby drew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratorRecord {
    /// The seed, 64 hex digits.
    pub seed: String,
    /// The stream.
    pub stream: u64,
    /// The position in the stream (in 32-bit words).
    pub word_pos: u64,
}

/// The rematch of a finished online game ([`Lobby::rematch`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchRecord {
    /// The finished game's room number.
    pub room: u64,
    /// Its game kind.
    pub kind: String,
    /// Its two players.
    pub players: [u64; 2],
    /// Who of them offered the rematch, if one did.
    pub offered_by: Option<u64>,
}

/// The lobby: guests, queues, invites, online rooms, rematches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyRecord {
    /// The record version.
    pub v: u32,
    /// How long a wait for a match lasts.
    pub queue_wait_ms: u64,
    /// How long an invite stays open.
    pub invite_ttl_ms: u64,
    /// How long a disconnected guest who is not playing keeps its token.
    pub reconnect_grace_ms: u64,
    /// The settings of the rooms it creates.
    pub room_settings: SettingsRecord,
    /// Its game kinds.
    pub kinds: Vec<String>,
    /// Its guests.
    pub guests: Vec<GuestRecord>,
    /// The queue of each game kind, first come first.
    pub queues: BTreeMap<String, Vec<u64>>,
    /// Its invites.
    pub invites: Vec<InviteRecord>,
    /// Its online rooms.
    pub rooms: Vec<OnlineRoomRecord>,
    /// The next guest number.
    pub next_player: u64,
    /// The next room number.
    pub next_room: u64,
    /// The latest instant it has seen.
    pub last_seen: u64,
    /// Its generator.
    pub generator: GeneratorRecord,
    /// The rematches of its finished games. Records written before the lobby kept them have
    /// none (and a lobby with none writes none, as they did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rematches: Vec<RematchRecord>,
}

/// A lobby command as the log keeps it: replaying the log on a [`LobbyRecord`] rebuilds the
/// lobby. (Its JSON is tagged by `op`; players, rooms and squares are numbers and names.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LobbyOp {
    /// A new guest (its token comes from the lobby's generator).
    AddGuest,
    /// Wait for a random match.
    Queue {
        /// Who.
        player: PlayerId,
    },
    /// Stop waiting.
    CancelQueue {
        /// Who.
        player: PlayerId,
    },
    /// Create an invite.
    CreateInvite {
        /// Who.
        player: PlayerId,
    },
    /// Cancel one's invite.
    CancelInvite {
        /// Who.
        player: PlayerId,
    },
    /// Join an invite.
    JoinInvite {
        /// Who.
        player: PlayerId,
        /// The invite.
        code: InviteCode,
    },
    /// A move.
    Act {
        /// Who.
        player: PlayerId,
        /// The version it names.
        version: u64,
        /// Where.
        square: Square,
    },
    /// Resign.
    Resign {
        /// Who.
        player: PlayerId,
    },
    /// The connection was lost.
    Disconnect {
        /// Who.
        player: PlayerId,
    },
    /// Back with the token.
    Reconnect {
        /// The token.
        token: Token,
    },
    /// Leave for good.
    Leave {
        /// Who.
        player: PlayerId,
    },
    /// A closed room is forgotten.
    RemoveRoom {
        /// Which.
        room: RoomId,
    },
    /// Offer the rematch of a finished game, or accept the opponent's offer.
    Rematch {
        /// Who.
        player: PlayerId,
        /// The finished game's room.
        room: RoomId,
    },
}

// ---- encoding ----

/// A room's record, as JSON text.
pub fn encode_room(room: &Room<ReversiGame>) -> String {
    serde_json::to_string(&room_record(room)).expect("a record serialises")
}

/// Reads a room's record.
///
/// # Errors
///
/// [`RecordError`] saying what is wrong.
pub fn decode_room(text: &str) -> Result<Room<ReversiGame>, RecordError> {
    room_from_record(&parse::<RoomRecord>(text)?)
}

/// The lobby's record, as JSON text (megabytes with thousands of rooms: build it off the hot
/// path).
pub fn encode_lobby(lobby: &Lobby<ReversiGame>) -> String {
    serde_json::to_string(&lobby_record(lobby)).expect("a record serialises")
}

/// Reads the lobby's record.
///
/// # Errors
///
/// [`RecordError`] saying what is wrong (naming the online room or guest).
pub fn decode_lobby(text: &str) -> Result<Lobby<ReversiGame>, RecordError> {
    lobby_from_record(&parse::<LobbyRecord>(text)?)
}

/// A lobby command's log entry, as JSON text.
pub fn encode_op(op: &LobbyOp) -> String {
    serde_json::to_string(op).expect("an op serialises")
}

/// Reads a lobby command's log entry.
///
/// # Errors
///
/// [`RecordError::Shape`] when it is not one.
pub fn decode_op(text: &str) -> Result<LobbyOp, RecordError> {
    serde_json::from_str(text).map_err(|e| RecordError::Shape(e.to_string()))
}

fn settings_record(s: &RoomSettings) -> SettingsRecord {
    SettingsRecord {
        action_ms: s.action_limit.as_millis(),
        disconnect_grace_ms: s.disconnect_grace.as_millis(),
        close_when_empty_ms: s.close_when_empty.map(Span::as_millis),
        game_limit_ms: s.game_limit.map(Span::as_millis),
        single_game: s.single_game,
    }
}

/// A room's clock (per move, `limit` a turn) as its record: every side's remaining time.
fn clock_record(c: &ClockSnapshot, limit: Span, sides: usize) -> ClockRecord {
    let (side, left) = match c.phase {
        ClockPhase::Running { side, used }
        | ClockPhase::Paused { side, used }
        | ClockPhase::Stopped {
            side: Some(side),
            used,
        } => (Some(side), limit.saturating_sub(used)),
        ClockPhase::Flagged { side, .. } => (Some(side), Span::ZERO),
        ClockPhase::Stopped { side: None, .. } => (None, limit),
    };
    ClockRecord {
        control: TimeControl::per_move(limit),
        at: c.seen.0,
        remaining_ms: (0..sides)
            .map(|s| Some(if Some(s) == side { left } else { limit }.as_millis()))
            .collect(),
        turn: match c.phase {
            ClockPhase::Running { side, .. } => TurnRecord::Running { side },
            ClockPhase::Paused { side, .. } => TurnRecord::Paused { side },
            ClockPhase::Flagged { side, at } => TurnRecord::Flagged { side, at: at.0 },
            ClockPhase::Stopped { side, .. } => TurnRecord::Stopped { side },
        },
    }
}

fn reason_parts(r: &EndReason) -> (&'static str, Option<usize>) {
    (r.name(), r.seat())
}

fn game_record(g: &GameSnapshot<ReversiGame>, s: &RoomSnapshot<ReversiGame>) -> GameRec {
    let record = g.state.record();
    // The limit and the turn's version matter while the game is played; the record has them
    // then only.
    let live = g.result.is_none();
    GameRec {
        number: g.number,
        start: record.start().to_board_string(),
        moves: record.plies().iter().map(|p| p.mv.to_string()).collect(),
        started_at: g.started_at.0,
        limit_at: g.limit_at.filter(|_| live).map(|t| t.0),
        turn_version: if live { g.turn_version } else { 0 },
        paused: if g.paused_by_host {
            Some("host".to_owned())
        } else if g.paused_nobody_connected {
            Some("nobody_connected".to_owned())
        } else {
            None
        },
        result: g.result.map(|r| {
            let (reason, seat) = reason_parts(&r.reason);
            ResultRecord {
                winner: r.outcome.winner(),
                draw: r.outcome == SeatOutcome::Draw,
                reason: reason.to_owned(),
                seat,
                at: r.at.0,
            }
        }),
        clock: clock_record(&g.clock, s.settings.action_limit, s.seats.len()),
    }
}

/// A room's record, from its snapshot ([`Room::snapshot`]).
pub fn room_record(room: &Room<ReversiGame>) -> RoomRecord {
    room_record_of(&room.snapshot())
}

fn room_record_of(s: &RoomSnapshot<ReversiGame>) -> RoomRecord {
    RoomRecord {
        v: RECORD_VERSION,
        settings: settings_record(&s.settings),
        host: s.host.map(|p| p.0),
        members: s
            .members
            .iter()
            .map(|m| MemberRecord {
                player: m.player.0,
                disconnected_at: m.disconnected_at.map(|t| t.0),
                grace_until: m.grace_until.map(|t| t.0),
            })
            .collect(),
        seats: s
            .seats
            .iter()
            .map(|o| match o {
                None => SeatRecord::Empty,
                Some(Occupant::Person { player }) => SeatRecord::Person { player: player.0 },
                Some(Occupant::Bot { level }) => SeatRecord::Bot {
                    level: level.clone(),
                },
            })
            .collect(),
        reservation: s.reservation.map(|p| p.0),
        bot_leaving: s.bot_leaving,
        games_started: s.games_started,
        game: s.game.as_ref().map(|g| game_record(g, s)),
        closes_at: s.closes_at.map(|t| t.0),
        closed: s.closed.map(|c| {
            match c {
                CloseReason::Empty => "empty",
                _ => "game_over",
            }
            .to_owned()
        }),
        version: s.version,
        last_seen: s.last_seen.0,
    }
}

/// The lobby's record, from its snapshot ([`Lobby::snapshot`]).
pub fn lobby_record(lobby: &Lobby<ReversiGame>) -> LobbyRecord {
    let s = lobby.snapshot();
    let g = &s.generator;
    LobbyRecord {
        v: RECORD_VERSION,
        queue_wait_ms: s.settings.queue_wait.as_millis(),
        invite_ttl_ms: s.settings.invite_ttl.as_millis(),
        reconnect_grace_ms: s.settings.reconnect_grace.as_millis(),
        room_settings: settings_record(&s.settings.room),
        kinds: s.kinds.iter().map(|(k, _)| k.clone()).collect(),
        guests: s
            .guests
            .iter()
            .map(|g| GuestRecord {
                player: g.player.0,
                token: g.token.as_str().to_owned(),
                activity: match &g.activity {
                    Activity::Waiting { kind, until } => ActivityRecord::Waiting {
                        kind: kind.clone(),
                        until: until.0,
                    },
                    Activity::Inviting { code } => ActivityRecord::Inviting {
                        code: code.as_str().to_owned(),
                    },
                    Activity::Playing { room } => ActivityRecord::Playing { room: room.0 },
                    _ => ActivityRecord::Idle,
                },
                disconnected_at: g.disconnected_at.map(|t| t.0),
            })
            .collect(),
        queues: s
            .queues
            .iter()
            .map(|(k, q)| (k.clone(), q.iter().map(|p| p.0).collect()))
            .collect(),
        invites: s
            .invites
            .iter()
            .map(|i| {
                let (status, room) = match i.state {
                    InviteState::Open => ("open", None),
                    InviteState::Expired => ("expired", None),
                    InviteState::Cancelled => ("cancelled", None),
                    InviteState::Used { room } => ("used", Some(room.0)),
                };
                InviteRecord {
                    code: i.code.as_str().to_owned(),
                    kind: i.kind.clone(),
                    creator: i.creator.0,
                    expires_at: i.expires_at.0,
                    status: status.to_owned(),
                    room,
                }
            })
            .collect(),
        rooms: s
            .rooms
            .iter()
            .map(|o| OnlineRoomRecord {
                id: o.id.0,
                kind: o.kind.clone(),
                room: room_record_of(&o.room),
            })
            .collect(),
        next_player: s.next_player,
        next_room: s.next_room,
        last_seen: s.last_seen.0,
        generator: GeneratorRecord {
            seed: g.seed.iter().map(|b| format!("{b:02x}")).collect(),
            stream: g.stream,
            // ChaCha's positions have 68 bits, but 2^64 words are never drawn.
            word_pos: u64::try_from(g.word_pos).unwrap_or(u64::MAX),
        },
        rematches: s
            .rematches
            .iter()
            .map(|r| RematchRecord {
                room: r.offer.room().0,
                kind: r.kind.clone(),
                players: r.offer.players().map(|p| p.0),
                offered_by: match r.offer.state() {
                    RematchState::Offered { by } => Some(by.0),
                    _ => None,
                },
            })
            .collect(),
    }
}

// ---- decoding ----

fn settings_of(s: &SettingsRecord) -> RoomSettings {
    RoomSettings::ONLINE
        .with_action_limit(Span::from_millis(s.action_ms))
        .with_disconnect_grace(Span::from_millis(s.disconnect_grace_ms))
        .with_close_when_empty(s.close_when_empty_ms.map(Span::from_millis))
        .with_game_limit(s.game_limit_ms.map(Span::from_millis))
        .with_single_game(s.single_game)
}

fn invalid<T>(what: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError::Invalid(what.into()))
}

/// A room's clock from its record: the time the turn used, from the time it has left.
fn clock_of(c: &ClockRecord, limit: Span, sides: usize) -> Result<ClockSnapshot, RecordError> {
    if c.remaining_ms.len() != sides {
        return invalid(format!(
            "the clock has {} sides, the room {sides} seats",
            c.remaining_ms.len()
        ));
    }
    if c.control != TimeControl::per_move(limit) {
        return invalid(format!(
            "the clock's control is {:?}, and the room's is {limit} per move",
            c.control
        ));
    }
    let side_ok = |side: usize| {
        if side < sides {
            Ok(side)
        } else {
            invalid(format!("the clock names side {side} of {sides}"))
        }
    };
    let used = |side: usize| match c.remaining_ms[side] {
        Some(left) => limit.saturating_sub(Span::from_millis(left)),
        None => Span::ZERO,
    };
    let phase = match c.turn {
        TurnRecord::NotStarted => return invalid("a game's clock that never started"),
        TurnRecord::Running { side } => {
            let side = side_ok(side)?;
            ClockPhase::Running {
                side,
                used: used(side),
            }
        }
        TurnRecord::Paused { side } => {
            let side = side_ok(side)?;
            ClockPhase::Paused {
                side,
                used: used(side),
            }
        }
        TurnRecord::Flagged { side, at } => ClockPhase::Flagged {
            side: side_ok(side)?,
            at: Millis(at),
        },
        TurnRecord::Stopped { side } => {
            let side = side.map(side_ok).transpose()?;
            ClockPhase::Stopped {
                side,
                used: side.map_or(Span::ZERO, used),
            }
        }
    };
    Ok(ClockSnapshot {
        seen: Millis(c.at),
        phase,
    })
}

fn result_of(r: &ResultRecord, number: u64) -> Result<GameResult, RecordError> {
    let outcome = match (r.winner, r.draw) {
        (Some(seat), false) => SeatOutcome::Winner(seat),
        (None, true) => SeatOutcome::Draw,
        (None, false) => SeatOutcome::NoResult,
        (Some(_), true) => return invalid("a result with both a winner and a draw"),
    };
    let reason = EndReason::from_parts(&r.reason, r.seat)
        .map_err(|e| RecordError::Invalid(format!("the end reason: {e}")))?;
    Ok(GameResult::new(number, outcome, reason, Millis(r.at)))
}

fn game_of(
    g: &GameRec,
    settings: &RoomSettings,
    nobody_connected: bool,
) -> Result<GameSnapshot<ReversiGame>, RecordError> {
    let start = Position::from_board_string(&g.start)
        .map_err(|e| RecordError::Invalid(format!("the start position: {e}")))?;
    let moves = g
        .moves
        .iter()
        .map(|m| m.parse::<Move>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| RecordError::Invalid(format!("the moves: {e}")))?;
    // The moves must replay from the start.
    let state = reversi::core::Game::replay(start, moves)
        .map_err(|e| RecordError::Invalid(format!("the moves do not replay: {e}")))?;
    let (paused_by_host, paused_nobody_connected) = match g.paused.as_deref() {
        None => (false, false),
        // The record names the host's pause only; under it, the game is also paused for want
        // of a connected person when the room pauses for that and nobody is connected.
        Some("host") => (
            true,
            settings.close_when_empty.is_some() && nobody_connected,
        ),
        Some("nobody_connected") => (false, true),
        Some(other) => return invalid(format!("unknown pause cause {other:?}")),
    };
    Ok(GameSnapshot {
        number: g.number,
        state: ReversiGame::from(state),
        started_at: Millis(g.started_at),
        limit_at: g.limit_at.map(Millis),
        turn_version: g.turn_version,
        paused_by_host,
        paused_nobody_connected,
        result: g
            .result
            .as_ref()
            .map(|r| result_of(r, g.number))
            .transpose()?,
        clock: clock_of(&g.clock, settings.action_limit, 2)?,
    })
}

/// The room's snapshot from its record.
fn room_snapshot(r: &RoomRecord) -> Result<RoomSnapshot<ReversiGame>, RecordError> {
    check_version(r.v)?;
    let sides = r.seats.len();
    if sides != 2 {
        return invalid(format!("{sides} seats: a Reversi room has 2"));
    }
    let members: Vec<MemberSnapshot> = r
        .members
        .iter()
        .map(|m| MemberSnapshot {
            player: PlayerId(m.player),
            disconnected_at: m.disconnected_at.map(Millis),
            grace_until: m.grace_until.map(Millis),
        })
        .collect();
    let seats = r
        .seats
        .iter()
        .map(|s| match s {
            SeatRecord::Empty => Ok(None),
            SeatRecord::Person { player } => {
                if r.members.iter().any(|m| m.player == *player) {
                    Ok(Some(Occupant::Person {
                        player: PlayerId(*player),
                    }))
                } else {
                    invalid(format!("guest {player} is seated but not in the room"))
                }
            }
            SeatRecord::Bot { level } => Ok(Some(Occupant::Bot {
                level: level.clone(),
            })),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let closed = match r.closed.as_deref() {
        None => None,
        Some("empty") => Some(CloseReason::Empty),
        Some("game_over") => Some(CloseReason::GameOver),
        Some(other) => return invalid(format!("unknown close reason {other:?}")),
    };
    let settings = settings_of(&r.settings);
    let nobody_connected = r.members.iter().all(|m| m.disconnected_at.is_some());
    Ok(RoomSnapshot {
        format: SNAPSHOT_FORMAT,
        settings,
        host: r.host.map(PlayerId),
        initial: ReversiGame::new(),
        members,
        seats,
        reservation: r.reservation.map(PlayerId),
        bot_leaving: r.bot_leaving,
        games_started: r.games_started,
        game: r
            .game
            .as_ref()
            .map(|g| game_of(g, &settings, nobody_connected))
            .transpose()?,
        closes_at: r.closes_at.map(Millis),
        closed,
        version: r.version,
        last_seen: Millis(r.last_seen),
    })
}

/// A room from its record.
///
/// # Errors
///
/// [`RecordError::Invalid`] saying what is inconsistent.
pub fn room_from_record(r: &RoomRecord) -> Result<Room<ReversiGame>, RecordError> {
    Room::from_snapshot(room_snapshot(r)?).map_err(|e| RecordError::Invalid(e.to_string()))
}

/// The lobby from its record.
///
/// # Errors
///
/// [`RecordError::Invalid`] naming the guest, invite or online room that is wrong.
pub fn lobby_from_record(r: &LobbyRecord) -> Result<Lobby<ReversiGame>, RecordError> {
    check_version(r.v)?;
    let mut guests = Vec::with_capacity(r.guests.len());
    for g in &r.guests {
        let activity = match &g.activity {
            ActivityRecord::Idle => Activity::Idle,
            ActivityRecord::Waiting { kind, until } => Activity::Waiting {
                kind: kind.clone(),
                until: Millis(*until),
            },
            ActivityRecord::Inviting { code } => Activity::Inviting {
                code: code.parse().map_err(|e| {
                    RecordError::Invalid(format!("guest {}: invite code: {e}", g.player))
                })?,
            },
            ActivityRecord::Playing { room } => Activity::Playing {
                room: RoomId(*room),
            },
        };
        if g.token.is_empty() {
            return invalid(format!("guest {} has no token", g.player));
        }
        guests.push(GuestSnapshot {
            player: PlayerId(g.player),
            token: Token::from(g.token.clone()),
            activity,
            disconnected_at: g.disconnected_at.map(Millis),
        });
    }
    let mut invites = Vec::with_capacity(r.invites.len());
    for i in &r.invites {
        let code: InviteCode = i
            .code
            .parse()
            .map_err(|e| RecordError::Invalid(format!("invite {:?}: {e}", i.code)))?;
        let state = match (i.status.as_str(), i.room) {
            ("used", Some(room)) => InviteState::Used { room: RoomId(room) },
            ("open", None) => InviteState::Open,
            ("expired", None) => InviteState::Expired,
            ("cancelled", None) => InviteState::Cancelled,
            (s, _) => {
                return invalid(format!(
                    "invite {:?}: status {s:?} with room {:?}",
                    i.code, i.room
                ))
            }
        };
        invites.push(InviteSnapshot {
            code,
            kind: i.kind.clone(),
            creator: PlayerId(i.creator),
            expires_at: Millis(i.expires_at),
            state,
        });
    }
    let rooms = r
        .rooms
        .iter()
        .map(|o| {
            Ok(LobbyRoomSnapshot {
                id: RoomId(o.id),
                kind: o.kind.clone(),
                room: room_snapshot(&o.room)
                    .map_err(|e| RecordError::Invalid(format!("online room R{}: {e}", o.id)))?,
            })
        })
        .collect::<Result<Vec<_>, RecordError>>()?;
    let mut rematches = Vec::with_capacity(r.rematches.len());
    for m in &r.rematches {
        let bad = |e: &dyn std::fmt::Display| {
            RecordError::Invalid(format!("the rematch of R{}: {e}", m.room))
        };
        let mut offer =
            RematchOffer::new(RoomId(m.room), m.players.map(PlayerId)).map_err(|e| bad(&e))?;
        if let Some(by) = m.offered_by {
            // The rule itself puts the offer where it was.
            offer.offer(PlayerId(by)).map_err(|e| bad(&e))?;
        }
        rematches.push(RematchSnapshot {
            kind: m.kind.clone(),
            offer,
        });
    }
    let seed: Vec<u8> = (0..r.generator.seed.len() / 2)
        .map(|i| u8::from_str_radix(r.generator.seed.get(2 * i..2 * i + 2).unwrap_or("x"), 16))
        .collect::<Result<_, _>>()
        .map_err(|_| RecordError::Invalid("the generator's seed is not hex".into()))?;
    let seed: [u8; 32] = seed
        .try_into()
        .map_err(|_| RecordError::Invalid("the generator's seed is not 256 bits".into()))?;
    let settings = LobbySettings::default()
        .with_queue_wait(Span::from_millis(r.queue_wait_ms))
        .with_invite_ttl(Span::from_millis(r.invite_ttl_ms))
        .with_reconnect_grace(Span::from_millis(r.reconnect_grace_ms))
        .with_room(settings_of(&r.room_settings));
    let snapshot = LobbySnapshot {
        format: SNAPSHOT_FORMAT,
        settings,
        kinds: r
            .kinds
            .iter()
            .map(|k| (k.clone(), ReversiGame::new()))
            .collect(),
        guests,
        queues: r
            .queues
            .iter()
            .map(|(k, q)| (k.clone(), q.iter().copied().map(PlayerId).collect()))
            .collect(),
        invites,
        rooms,
        next_player: r.next_player,
        next_room: r.next_room,
        generator: GeneratorSnapshot {
            seed,
            stream: r.generator.stream,
            word_pos: u128::from(r.generator.word_pos),
        },
        last_seen: Millis(r.last_seen),
        rematches,
    };
    Lobby::from_snapshot(snapshot).map_err(|e| match e {
        // Name the online room at fault as the server does.
        SnapshotError::InRoom { room, error } => {
            RecordError::Invalid(format!("online room R{}: {error}", room.0))
        }
        e => RecordError::Invalid(e.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi::clock::Millis;
    use reversi::room::{LobbySettings, RoomActionLimit, RoomCommand, RoomSettings};
    use reversi::room_adapters::REVERSI;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/store_v2.db");

    /// The v2 fixture's hosted rooms and lobby snapshot, in the room crate's serialised form.
    fn fixture_v2() -> (Vec<(String, Room<ReversiGame>)>, Lobby<ReversiGame>) {
        let conn = rusqlite::Connection::open_with_flags(
            FIXTURE,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let mut stmt = conn
            .prepare("SELECT id, state FROM live WHERE kind = 'hosted' ORDER BY id")
            .unwrap();
        let rooms = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap()
            .map(|r| {
                let (id, s) = r.unwrap();
                (id, serde_json::from_str(&s).unwrap())
            })
            .collect();
        let snap: String = conn
            .query_row("SELECT state FROM lobby_snapshot", [], |r| r.get(0))
            .unwrap();
        (rooms, serde_json::from_str(&snap).unwrap())
    }

    /// What a client sees of a room at `now`, and when it next needs the timer.
    fn seen(room: &Room<ReversiGame>, now: Millis) -> (Value, Option<Millis>) {
        (
            crate::rooms::room_json("hosted", "H", room, now),
            room.poll_timeout(),
        )
    }

    /// Encodes and decodes `room`, and checks that nothing a client or the timer sees changed,
    /// now and after the same command on both.
    fn round_trip(room: &Room<ReversiGame>) -> Room<ReversiGame> {
        let text = encode_room(room);
        let back = decode_room(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(encode_room(&back), text, "the record is read as written");
        let now = room.last_seen();
        for dt in [0, 1_000, 40_000] {
            assert_eq!(
                seen(&back, Millis(now.0 + dt)),
                seen(room, Millis(now.0 + dt))
            );
        }
        // Time goes on the same way in both: a deadline far ahead fires in both.
        let (mut a, mut b) = (room.clone(), back.clone());
        let later = Millis(now.0 + 10 * 60_000);
        a.handle_timeout(later);
        b.handle_timeout(later);
        assert_eq!(seen(&a, later), seen(&b, later));
        back
    }

    #[test]
    fn the_hosted_rooms_of_the_v2_fixture_come_back_as_they_were() {
        let (rooms, _) = fixture_v2();
        assert_eq!(rooms.len(), 2);
        let mut paused = 0;
        for (id, room) in &rooms {
            let back = round_trip(room);
            let rec = room_record(&back);
            let g = rec
                .game
                .as_ref()
                .unwrap_or_else(|| panic!("{id} has a game"));
            assert!(g.moves.len() >= 2, "{id}: {g:?}");
            assert_eq!(
                rec.seats[1],
                SeatRecord::Bot {
                    level: "easy".into()
                }
            );
            if g.paused.as_deref() == Some("host") {
                paused += 1;
                assert_eq!(rec.games_started, 2);
                assert_eq!(back.paused(), Some(PauseCause::Host));
            }
        }
        assert_eq!(paused, 1, "the fixture has a paused room");
    }

    #[test]
    fn the_lobby_of_the_v2_fixture_comes_back_with_its_tokens_and_rooms() {
        let (_, lobby) = fixture_v2();
        let text = encode_lobby(&lobby);
        let back = decode_lobby(&text).unwrap();
        assert_eq!(encode_lobby(&back), text);
        let rec: LobbyRecord = serde_json::from_str(&text).unwrap();
        assert!(rec.guests.iter().all(|g| g.token.len() == 32), "{rec:?}");
        assert_eq!(rec.rooms.len(), 1);
        assert!(rec.rooms[0].room.game.as_ref().unwrap().moves.len() == 4);
        // The generator goes on where it was: the next guest and its token are the same.
        let (mut a, mut b) = (lobby.clone(), back);
        assert_eq!(a.add_guest(Millis(0)), b.add_guest(Millis(0)));
        let ra = a
            .rooms()
            .map(|(i, r)| (i, room_record(r)))
            .collect::<Vec<_>>();
        let rb = b
            .rooms()
            .map(|(i, r)| (i, room_record(r)))
            .collect::<Vec<_>>();
        assert_eq!(ra, rb);
    }

    /// A hosted room through its life: waiting, in a game, paused, a game over, closing.
    #[test]
    fn hosted_rooms_in_every_state_come_back() {
        let host = PlayerId(7);
        let guest = PlayerId(9);
        let t = |s: u64| Millis(1_000_000 + s * 1_000);
        let mut room = Room::hosted(
            t(0),
            host,
            RoomSettings::hosted(RoomActionLimit::Secs30),
            ReversiGame::new(),
        );
        round_trip(&room);
        room.handle(t(1), host, RoomCommand::Sit { seat: 0 })
            .unwrap();
        room.handle(t(1), guest, RoomCommand::Join).unwrap();
        room.handle(t(2), guest, RoomCommand::Sit { seat: 1 })
            .unwrap();
        room.handle(t(3), host, RoomCommand::Start).unwrap();
        round_trip(&room);
        let v = room.version();
        room.handle(
            t(5),
            host,
            RoomCommand::Act {
                seat: 0,
                version: v,
                action: Square::D3,
            },
        )
        .unwrap();
        round_trip(&room);
        room.handle(t(8), host, RoomCommand::Pause).unwrap();
        round_trip(&room);
        room.handle(t(20), host, RoomCommand::Resume).unwrap();
        round_trip(&room);
        room.handle(t(21), guest, RoomCommand::Disconnect).unwrap();
        round_trip(&room);
        room.handle(t(22), host, RoomCommand::Resign).unwrap();
        let back = round_trip(&room);
        assert!(back.result().is_some());
        room.handle(t(23), host, RoomCommand::Disconnect).unwrap();
        round_trip(&room);
        room.handle_timeout(t(1_000));
        assert!(room.closed().is_some());
        round_trip(&room);
    }

    #[test]
    fn a_lobby_with_a_queue_an_invite_and_a_game_comes_back() {
        let mut lobby: Lobby<ReversiGame> = Lobby::with_settings(
            LobbySettings::default(),
            [(REVERSI.to_owned(), ReversiGame::new())],
            [3; 32],
        );
        let t = Millis(5_000_000);
        let (a, _) = lobby.add_guest(t);
        let (b, _) = lobby.add_guest(t);
        let (c, _) = lobby.add_guest(t);
        let (d, _) = lobby.add_guest(t);
        lobby.queue(t, a, REVERSI).unwrap();
        lobby.queue(t, b, REVERSI).unwrap();
        lobby.queue(t, c, REVERSI).unwrap();
        lobby.create_invite(t, d, REVERSI).unwrap();
        lobby.disconnect(Millis(t.0 + 10), d).unwrap();
        let room = lobby.room_of(a).unwrap();
        let version = lobby.room(room).unwrap().version();
        let first = lobby.room(room).unwrap().seats()[0]
            .clone()
            .unwrap()
            .person()
            .unwrap();
        lobby
            .act(Millis(t.0 + 20), first, version, Square::D3)
            .unwrap();
        while lobby.poll_event().is_some() {}
        let text = encode_lobby(&lobby);
        let mut back = decode_lobby(&text).unwrap();
        assert_eq!(encode_lobby(&back), text);
        assert_eq!(back.activity(c), lobby.activity(c));
        assert_eq!(back.activity(d), lobby.activity(d));
        assert_eq!(back.is_connected(d), Some(false));
        assert_eq!(back.poll_timeout(), lobby.poll_timeout());
        // Both go on alike: the waits, the invite and the game's deadline fall at the same times.
        let later = Millis(t.0 + 3_600_000);
        lobby.handle_timeout(later);
        back.handle_timeout(later);
        let drain = |l: &mut Lobby<ReversiGame>| {
            std::iter::from_fn(|| l.poll_event())
                .map(|e| format!("{e:?}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(drain(&mut back), drain(&mut lobby));
    }

    #[test]
    fn a_lobby_with_rematches_comes_back_and_the_log_replays_them() {
        let mut lobby: Lobby<ReversiGame> = Lobby::with_settings(
            LobbySettings::default(),
            [(REVERSI.to_owned(), ReversiGame::new())],
            [5; 32],
        );
        let t = Millis(1_000);
        let mut games = Vec::new();
        for _ in 0..2 {
            let (a, _) = lobby.add_guest(t);
            let (b, _) = lobby.add_guest(t);
            lobby.queue(t, a, REVERSI).unwrap();
            lobby.queue(t, b, REVERSI).unwrap();
            let room = lobby.room_of(a).unwrap();
            lobby.resign(t, a).unwrap();
            games.push((a, b, room));
        }
        let op = LobbyOp::Rematch {
            player: games[0].0,
            room: games[0].2,
        };
        let op = decode_op(&encode_op(&op)).unwrap();
        let LobbyOp::Rematch { player, room } = op else {
            panic!("{op:?}")
        };
        lobby.rematch(Millis(2_000), player, room).unwrap();
        while lobby.poll_event().is_some() {}
        let text = encode_lobby(&lobby);
        let record: LobbyRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(record.rematches.len(), 2);
        assert_eq!(record.rematches[0].offered_by, Some(games[0].0 .0));
        assert_eq!(record.rematches[1].offered_by, None);
        let mut back = decode_lobby(&text).unwrap();
        assert_eq!(encode_lobby(&back), text);
        assert_eq!(back.snapshot().rematches, lobby.snapshot().rematches);
        // The offer is accepted in the restored lobby as in the live one.
        let (a, b, room) = games[0];
        assert_eq!(
            back.rematch(Millis(3_000), b, room),
            lobby.rematch(Millis(3_000), b, room)
        );
        assert!(back.room_of(a).is_some());
        // A record whose rematch does not hold together is refused, naming it.
        let mut bad = record.clone();
        bad.rematches[1].offered_by = Some(99);
        let e = lobby_from_record(&bad).unwrap_err();
        assert!(e.to_string().contains("rematch of R2"), "{e}");
    }

    #[test]
    fn records_that_cannot_be_read_say_why() {
        let room = Room::hosted(
            Millis(0),
            PlayerId(1),
            RoomSettings::hosted(RoomActionLimit::Secs30),
            ReversiGame::new(),
        );
        let mut rec = room_record(&room);
        assert!(matches!(
            decode_room("not json"),
            Err(RecordError::Shape(_))
        ));
        rec.v = 4;
        let newer = serde_json::to_string(&rec).unwrap();
        assert_eq!(
            decode_room(&newer).err(),
            Some(RecordError::Newer { found: 4 })
        );
        rec.v = RECORD_VERSION;
        rec.seats.push(SeatRecord::Empty);
        let e = room_from_record(&rec).unwrap_err();
        assert!(e.to_string().contains("3 seats"), "{e}");
        rec.seats.pop();
        rec.seats[0] = SeatRecord::Person { player: 99 };
        let e = room_from_record(&rec).unwrap_err();
        assert!(e.to_string().contains("guest 99 is seated"), "{e}");
    }

    #[test]
    fn a_game_whose_moves_do_not_replay_is_refused() {
        let mut room = Room::online(
            Millis(0),
            &[PlayerId(1), PlayerId(2)],
            RoomSettings::ONLINE,
            ReversiGame::new(),
        )
        .unwrap();
        let v = room.version();
        room.handle(
            Millis(10),
            PlayerId(1),
            RoomCommand::Act {
                seat: 0,
                version: v,
                action: Square::D3,
            },
        )
        .unwrap();
        let mut rec = room_record(&room);
        rec.game.as_mut().unwrap().moves.push("a1".into());
        let e = room_from_record(&rec).unwrap_err();
        assert!(e.to_string().contains("do not replay"), "{e}");
        let mut rec = room_record(&room);
        rec.game.as_mut().unwrap().clock.turn = TurnRecord::Running { side: 5 };
        let e = room_from_record(&rec).unwrap_err();
        assert!(e.to_string().contains("side 5"), "{e}");
    }
}

/// Records written by the server before the room crate had snapshots read and write the same.
#[cfg(test)]
mod v3_records {
    use super::*;

    const GOLDEN: &str = include_str!("../tests/fixtures/records_v3.json");

    /// Rooms and a lobby in the states a record must carry, built with the public interface only
    /// (the same code wrote `tests/fixtures/records_v3.json` with the server of commit 84d818c,
    /// before the room crate had snapshots).
    fn golden_scenarios() -> Vec<(String, String)> {
        use reversi::clock::{Millis, Span};
        use reversi::core::Square;
        use reversi::room::{
            Lobby, LobbySettings, PlayerId, Room, RoomActionLimit, RoomCommand, RoomSettings,
        };
        use reversi::room_adapters::{ReversiGame, REVERSI};
        let mut out = Vec::new();
        let t = |s: u64| Millis(1_000_000 + s * 1_000);
        let (host, guest) = (PlayerId(7), PlayerId(9));
        let mut room = Room::hosted(
            t(0),
            host,
            RoomSettings::hosted(RoomActionLimit::Secs60),
            ReversiGame::new(),
        );
        let mut save = |name: &str, room: &mut Room<ReversiGame>| {
            while room.poll_event().is_some() {}
            out.push((name.to_owned(), encode_room(room)));
        };
        save("hosted_new", &mut room);
        room.handle(t(1), host, RoomCommand::Sit { seat: 0 })
            .unwrap();
        room.handle(
            t(1),
            host,
            RoomCommand::AddBot {
                seat: 1,
                level: "easy".into(),
            },
        )
        .unwrap();
        room.handle(t(2), host, RoomCommand::Start).unwrap();
        let v = room.version();
        room.handle(
            t(4),
            host,
            RoomCommand::Act {
                seat: 0,
                version: v,
                action: Square::D3,
            },
        )
        .unwrap();
        let turn = room.bot_to_act().unwrap();
        room.bot_act(t(5), turn.seat, turn.version, Square::C5)
            .unwrap();
        room.handle(t(6), guest, RoomCommand::Join).unwrap();
        room.handle(t(6), guest, RoomCommand::ReserveBotSeat)
            .unwrap();
        room.handle(t(7), host, RoomCommand::RemoveBot).unwrap();
        save("hosted_reserved_bot_leaving", &mut room);
        room.handle(t(9), host, RoomCommand::Pause).unwrap();
        save("hosted_paused", &mut room);
        room.handle(t(10), guest, RoomCommand::Disconnect).unwrap();
        room.handle(t(11), host, RoomCommand::Disconnect).unwrap();
        save("hosted_paused_and_empty", &mut room);
        room.handle(t(12), host, RoomCommand::Reconnect).unwrap();
        room.handle(t(13), host, RoomCommand::Resume).unwrap();
        save("hosted_resumed", &mut room);
        room.handle(t(20), host, RoomCommand::End).unwrap();
        save("hosted_ended", &mut room);
        room.handle(t(21), host, RoomCommand::Leave).unwrap();
        save("hosted_closing", &mut room);
        room.handle_timeout(t(10_000));
        save("hosted_closed", &mut room);
        let mut online = Room::online(
            t(0),
            &[PlayerId(1), PlayerId(2)],
            RoomSettings::ONLINE,
            ReversiGame::new(),
        )
        .unwrap();
        let v = online.version();
        online
            .handle(
                t(3),
                PlayerId(1),
                RoomCommand::Act {
                    seat: 0,
                    version: v,
                    action: Square::F5,
                },
            )
            .unwrap();
        online
            .handle(t(4), PlayerId(1), RoomCommand::Disconnect)
            .unwrap();
        save("online_disconnected", &mut online);
        online.handle_timeout(t(100));
        save("online_flagged", &mut online);
        let mut lobby: Lobby<ReversiGame> = Lobby::with_settings(
            LobbySettings::default().with_queue_wait(Span::from_secs(90)),
            [(REVERSI.to_owned(), ReversiGame::new())],
            [11; 32],
        );
        let now = t(0);
        let (a, _) = lobby.add_guest(now);
        let (b, _) = lobby.add_guest(now);
        let (c, _) = lobby.add_guest(now);
        let (d, _) = lobby.add_guest(now);
        let (e, _) = lobby.add_guest(now);
        lobby.queue(now, a, REVERSI).unwrap();
        lobby.queue(now, b, REVERSI).unwrap();
        lobby.queue(t(1), c, REVERSI).unwrap();
        let code = lobby.create_invite(t(2), d, REVERSI).unwrap();
        lobby.join_invite(t(3), e, &code).unwrap();
        let (f, _) = lobby.add_guest(t(4));
        lobby.create_invite(t(4), f, REVERSI).unwrap();
        lobby.cancel_invite(t(5), f).unwrap();
        lobby.disconnect(t(6), a).unwrap();
        let r = lobby.room_of(d).unwrap();
        lobby.resign(t(7), d).unwrap();
        let _ = r;
        while lobby.poll_event().is_some() {}
        out.push(("lobby".to_owned(), encode_lobby(&lobby)));
        out
    }

    #[test]
    fn records_written_before_snapshots_read_back_and_are_written_the_same() {
        let golden: Vec<(String, String)> = serde_json::from_str(GOLDEN).unwrap();
        assert_eq!(golden.len(), 11);
        for (name, text) in &golden {
            let again = if name == "lobby" {
                encode_lobby(&decode_lobby(text).unwrap_or_else(|e| panic!("{name}: {e}")))
            } else {
                encode_room(&decode_room(text).unwrap_or_else(|e| panic!("{name}: {e}")))
            };
            assert_eq!(&again, text, "{name}");
        }
        // The same states, written now, are the same records; the lobby's now also holds the
        // rematch of its finished game (R2, between guests 4 and 5), which the lobby did not keep
        // when the records were written: without it, the record is the same.
        let mut now = golden_scenarios();
        let lobby = &mut now.iter_mut().find(|(name, _)| name == "lobby").unwrap().1;
        let mut record: LobbyRecord = serde_json::from_str(lobby).unwrap();
        assert_eq!(
            record.rematches,
            [RematchRecord {
                room: 2,
                kind: "reversi".into(),
                players: [4, 5],
                offered_by: None
            }]
        );
        record.rematches.clear();
        *lobby = serde_json::to_string(&record).unwrap();
        assert_eq!(now, golden);
    }

    #[test]
    fn a_game_paused_by_the_host_with_nobody_connected_comes_back_with_both_pauses() {
        let golden: Vec<(String, String)> = serde_json::from_str(GOLDEN).unwrap();
        let (_, text) = golden
            .iter()
            .find(|(name, _)| name == "hosted_paused_and_empty")
            .unwrap();
        let room = decode_room(text).unwrap();
        let game = room.snapshot().game.unwrap();
        assert!(game.paused_by_host && game.paused_nobody_connected);
    }
}
