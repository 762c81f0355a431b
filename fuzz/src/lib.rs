//! Helpers shared by the fuzz targets, and the server's parsers compiled from its sources.
//!
//! The server package (`examples/server`) builds tokio, axum, SQLite and a Redis client; its store
//! records (`records.rs`) need only the facade, serde and serde_json, so they are compiled here
//! from the same file. Its wire protocol is a package of its own, `reversi-protocol`.

/// The server's sources that read outside input (their unit tests need the whole server).
#[cfg(not(test))]
#[path = "../../examples/server/src"]
pub mod server {
    #![allow(missing_docs, clippy::all)]
    pub mod records;
}

/// Reads fuzz bytes as a stream of small numbers; zeros once exhausted.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte (0 once exhausted).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// The rest, as bytes.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }

    /// The rest, as text (lossy).
    pub fn rest_str(&mut self) -> String {
        let s = String::from_utf8_lossy(self.data).into_owned();
        self.data = &[];
        s
    }
}

use reversi::clock::Millis;
use reversi::core::{Game, Square};
use reversi::room::{Lobby, PlayerId, Room, RoomCommand, RoomError, RoomId, Token};
use reversi::room_adapters::{ReversiGame, REVERSI};

/// Checks a Reversi game record's own invariants.
pub fn check_game(game: &Game) {
    assert_eq!(game.positions().len(), game.plies().len() + 1);
    for p in game.positions() {
        assert_eq!(p.black().0 & p.white().0, 0);
    }
    let pos = game.position();
    // The game passes for the side that must: it is over, or the side to move can move.
    assert!(pos.is_game_over() || pos.can_move());
}

/// A time step: mostly small, sometimes a jump past a deadline, now and then backwards.
fn advance(input: &mut Bytes, now: &mut u64, deadline: Option<Millis>) {
    match input.below(8) {
        0 => {
            if let Some(d) = deadline {
                *now = (*now).max(d.0);
            }
        }
        1 => *now = now.saturating_sub(u64::from(input.byte()) * 1_000),
        2 => *now = now.saturating_add(u64::from(input.u16()) * 1_000),
        _ => *now = now.saturating_add(u64::from(input.byte())),
    }
}

/// A square for `game`: one of its legal moves most of the time, else any.
fn square(input: &mut Bytes, game: Option<&ReversiGame>) -> Square {
    let any = Square::ALL[input.below(64)];
    if input.below(4) == 0 {
        return any;
    }
    let Some(game) = game else { return any };
    let moves: Vec<Square> = game.record().position().legal_moves().iter().collect();
    if moves.is_empty() {
        any
    } else {
        moves[input.below(moves.len())]
    }
}

/// The version a command names: the turn's, the room's, or another.
fn version(input: &mut Bytes, room: &Room<ReversiGame>) -> u64 {
    match input.below(4) {
        0 => room.version(),
        1 => u64::from(input.byte()),
        _ => room.turn_version().unwrap_or_else(|| room.version()),
    }
}

/// Checks a room's invariants, and every few steps that it serialises back to itself.
pub fn check_room(room: &Room<ReversiGame>, serde_too: bool) {
    if let Some(g) = room.game() {
        check_game(g.record());
    }
    if let Some(seat) = room.to_act() {
        assert!(seat < room.seats().len());
    }
    if let Some(b) = room.bot_to_act() {
        assert!(room.seats()[b.seat].as_ref().is_some_and(|o| o.is_bot()));
    }
    if serde_too {
        let json = serde_json::to_value(room).unwrap();
        let back: Room<ReversiGame> = serde_json::from_value(json).unwrap();
        assert_eq!(&back, room);
    }
}

/// Applies random commands, bot moves and timeouts to a hosted Reversi room until the bytes run
/// out: never a panic, and a refused command changes nothing but what the time did.
pub fn drive_room(room: &mut Room<ReversiGame>, input: &mut Bytes, now: &mut u64) {
    let mut steps = 0;
    while !input.is_empty() && steps < 400 {
        steps += 1;
        advance(input, now, room.poll_timeout());
        let at = Millis(*now);
        let player = PlayerId(1 + input.below(4) as u64);
        let command: RoomCommand<Square> = match input.below(18) {
            0 => RoomCommand::Join,
            1 => RoomCommand::Leave,
            2 => RoomCommand::Sit {
                seat: input.below(3),
            },
            3 => RoomCommand::Stand,
            4 => RoomCommand::AddBot {
                seat: input.below(3),
                level: ["easy", "normal", "x"][input.below(3)].to_owned(),
            },
            5 => RoomCommand::RemoveBot,
            6 => RoomCommand::ReserveBotSeat,
            7 => RoomCommand::Start,
            8 => RoomCommand::Pause,
            9 => RoomCommand::Resume,
            10 => RoomCommand::End,
            11 => RoomCommand::Resign,
            12 => RoomCommand::Disconnect,
            13 => RoomCommand::Reconnect,
            14 => {
                room.handle_timeout(at);
                while room.poll_event().is_some() {}
                check_room(room, false);
                continue;
            }
            15 => {
                // The bot's move, when it owes one (or a bot move out of turn).
                let (seat, v) = match room.bot_to_act() {
                    Some(b) => (b.seat, b.version),
                    None => (input.below(3), version(input, room)),
                };
                let sq = square(input, room.game());
                let mut expected = room.clone();
                expected.handle_timeout(at);
                if room.bot_act(at, seat, v, sq).is_err() {
                    assert_eq!(*room, expected, "a refused bot move changed the room");
                }
                check_room(room, false);
                continue;
            }
            _ => RoomCommand::Act {
                seat: input.below(3),
                version: version(input, room),
                action: square(input, room.game()),
            },
        };
        let mut expected = room.clone();
        expected.handle_timeout(at);
        match room.handle(at, player, command) {
            Ok(()) => {}
            Err(e) => {
                let _ = e.to_string();
                assert_eq!(*room, expected, "a refused command changed the room: {e:?}");
            }
        }
        check_room(room, steps % 16 == 0);
    }
    while room.poll_event().is_some() {}
    check_room(room, true);
}

/// Checks the lobby's invariants, and that it serialises back to itself.
pub fn check_lobby(lobby: &Lobby<ReversiGame>, serde_too: bool) {
    for (id, room) in lobby.rooms() {
        check_room(room, false);
        assert!(lobby.room_kind(id).is_some());
    }
    for p in lobby.guests() {
        if let Some(r) = lobby.room_of(p) {
            assert!(lobby.room(r).is_some(), "{p} plays in a room that is gone");
        }
    }
    if serde_too {
        let json = serde_json::to_value(lobby).unwrap();
        let back: Lobby<ReversiGame> = serde_json::from_value(json).unwrap();
        assert_eq!(&back, lobby);
    }
}

/// Applies random lobby operations until the bytes run out: never a panic, and a refused
/// operation changes nothing but what the time did.
pub fn drive_lobby(lobby: &mut Lobby<ReversiGame>, input: &mut Bytes, now: &mut u64) {
    let mut guests: Vec<(PlayerId, Token)> = Vec::new();
    let mut codes = Vec::new();
    let mut steps = 0;
    while !input.is_empty() && steps < 400 {
        steps += 1;
        advance(input, now, lobby.poll_timeout());
        let at = Millis(*now);
        let player = if guests.is_empty() || input.below(16) == 0 {
            lobby
                .guests()
                .nth(input.below(4))
                .unwrap_or(PlayerId(u64::from(input.byte())))
        } else {
            guests[input.below(guests.len())].0
        };
        let mut expected = lobby.clone();
        expected.handle_timeout(at);
        let result: Result<(), RoomError> = match input.below(14) {
            0 => {
                guests.push(lobby.add_guest(at));
                Ok(())
            }
            1 => lobby
                .queue(at, player, if input.below(8) == 0 { "x" } else { REVERSI })
                .map(|_| ()),
            2 => lobby.cancel_queue(at, player),
            3 => lobby
                .create_invite(at, player, REVERSI)
                .map(|code| codes.push(code)),
            4 => lobby.cancel_invite(at, player),
            5 => match codes.get(input.below(codes.len() + 1)) {
                Some(code) => lobby.join_invite(at, player, &code.clone()).map(|_| ()),
                None => match "23456789".parse() {
                    Ok(code) => lobby.join_invite(at, player, &code).map(|_| ()),
                    Err(_) => Ok(()),
                },
            },
            6..=8 => {
                let room = lobby.room_of(player).and_then(|r| lobby.room(r));
                let v = room.map_or(0, |r| version(input, r));
                let sq = square(input, room.and_then(|r| r.game()));
                lobby.act(at, player, v, sq)
            }
            9 => lobby.resign(at, player),
            10 => lobby.disconnect(at, player),
            11 => {
                let token = match guests.get(input.below(guests.len() + 1)) {
                    Some((_, t)) => t.clone(),
                    None => continue,
                };
                lobby.reconnect(at, &token).map(|_| ())
            }
            12 => lobby.leave(at, player),
            _ => {
                let ids: Vec<RoomId> = lobby.rooms().map(|(id, _)| id).collect();
                let id = ids
                    .get(input.below(ids.len() + 1))
                    .copied()
                    .unwrap_or(RoomId(u64::from(input.byte())));
                lobby.handle_timeout(at);
                expected = lobby.clone();
                lobby.remove_room(id).map(|_| ())
            }
        };
        if let Err(e) = result {
            let _ = e.to_string();
            assert_eq!(
                *lobby, expected,
                "a refused operation changed the lobby: {e:?}"
            );
        }
        while lobby.poll_event().is_some() {}
        check_lobby(lobby, steps % 16 == 0);
    }
    check_lobby(lobby, true);
}
