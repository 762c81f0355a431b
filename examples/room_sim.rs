//! Drives the room flows on a virtual clock and prints the event log with timestamps:
//!
//! 1. a hosted room where a person plays the Normal bot, pauses, another person reserves the
//!    bot's seat, and the game finishes (the reservation takes effect at the result);
//! 2. online: a random match where one player disconnects and comes back with its token (after a
//!    wrong token is refused) and the other leaves; then an invite by link played to the end,
//!    and an invite that expires.
//!
//! Run with `cargo run --example room_sim`. Nothing sleeps: time jumps from deadline to deadline.

use reversi::clock::{Millis, Span};
use reversi::core::Square;
use reversi::room::{
    Bot, Event, EventKind, InviteCode, Lobby, LobbyEvent, LobbyEventKind, PlayerId, QueueOutcome,
    Room, RoomActionLimit, RoomCommand, RoomError, Token,
};
use reversi::room_adapters::{hosted_room, reversi_lobby, EngineBot, ReversiGame, REVERSI};

/// Formats an instant as the time since the start of the simulation.
fn stamp(at: Millis) -> String {
    let s = Span(at.0);
    format!("{:>9}", s.to_string())
}

fn describe(kind: &EventKind<Square>) -> String {
    match kind {
        EventKind::Acted { seat, action } => format!("seat {seat} plays {action}"),
        EventKind::ActionDue {
            seat,
            deadline,
            bot,
        } => format!(
            "seat {seat} to act by {}{}",
            stamp(*deadline).trim(),
            if *bot { " (bot)" } else { "" }
        ),
        EventKind::GameEnded { result } => format!(
            "game {} ended: {:?}, by {}",
            result.game, result.outcome, result.reason
        ),
        other => format!("{other:?}"),
    }
}

fn print_room_event(label: &str, e: &Event<Square>) {
    println!(
        "[{}] {label:<8} v{:<3} {}",
        stamp(e.at),
        e.version,
        describe(&e.kind)
    );
}

fn drain_room(room: &mut Room<ReversiGame>) {
    while let Some(e) = room.poll_event() {
        print_room_event("room", &e);
    }
}

fn print_lobby_event(e: &LobbyEvent<Square>) {
    match &e.kind {
        LobbyEventKind::Room { room, event } => print_room_event(&room.to_string(), event),
        other => println!("[{}] lobby         {other:?}", stamp(e.at)),
    }
}

fn drain_lobby(lobby: &mut Lobby<ReversiGame>) {
    while let Some(e) = lobby.poll_event() {
        print_lobby_event(&e);
    }
}

fn note(now: Millis, text: &str) {
    println!("[{}] --       {text}", stamp(now));
}

/// Runs the room's deadlines up to `until`, one at a time, as a host's timer would.
fn room_wait(room: &mut Room<ReversiGame>, until: Millis) {
    while let Some(t) = room.poll_timeout().filter(|&t| t <= until) {
        room.handle_timeout(t);
        drain_room(room);
    }
    room.handle_timeout(until);
    drain_room(room);
}

fn lobby_wait(lobby: &mut Lobby<ReversiGame>, until: Millis) {
    while let Some(t) = lobby.poll_timeout().filter(|&t| t <= until) {
        lobby.handle_timeout(t);
        drain_lobby(lobby);
    }
    lobby.handle_timeout(until);
    drain_lobby(lobby);
}

fn hosted_flow() -> Result<(), Box<dyn std::error::Error>> {
    println!("== A hosted room: Alice against the Normal bot; Bob reserves the bot's seat ==");
    let alice = PlayerId(1);
    let bob = PlayerId(2);
    let mut now = Millis(0);
    note(
        now,
        "Alice (p1) hosts a room with 60 s per action; Bob (p2) looks on",
    );
    let mut room = hosted_room(now, alice, RoomActionLimit::Secs60);
    room.handle(now, alice, RoomCommand::Sit { seat: 0 })?;
    room.handle(
        now,
        alice,
        RoomCommand::AddBot {
            seat: 1,
            level: "normal".into(),
        },
    )?;
    room.handle(now + Span(500), bob, RoomCommand::Join)?;
    now = now + Span::from_secs(2);
    room.handle(now, alice, RoomCommand::Start)?;
    drain_room(&mut room);

    let mut alice_hand = EngineBot::for_level("easy", 11)?;
    let mut bot = EngineBot::for_level("normal", 12)?;
    let mut moves = 0;
    while room.in_game() {
        if let Some(turn) = room.bot_to_act() {
            // The application asks the bot off-thread; here it answers after 1.5 s.
            let square = bot.choose(room.game().expect("a game")).expect("a move");
            now = now + Span(1_500);
            room.bot_act(now, turn.seat, turn.version, square)?;
        } else {
            let square = alice_hand
                .choose(room.game().expect("a game"))
                .expect("a move");
            now = now + Span::from_secs(4);
            let version = room.version();
            room.handle(
                now,
                alice,
                RoomCommand::Act {
                    seat: 0,
                    version,
                    action: square,
                },
            )?;
        }
        drain_room(&mut room);
        moves += 1;
        if moves == 12 {
            now = now + Span::from_secs(1);
            room.handle(now, alice, RoomCommand::Pause)?;
            drain_room(&mut room);
            now = now + Span::from_secs(10);
            note(
                now,
                "Bob reserves the bot's seat; the bot keeps it until the result",
            );
            room.handle(now, bob, RoomCommand::ReserveBotSeat)?;
            drain_room(&mut room);
            note(now, "three minutes pass: the pause holds every clock");
            room_wait(&mut room, now + Span::from_mins(3));
            now = now + Span::from_mins(3);
            room.handle(now, alice, RoomCommand::Resume)?;
            drain_room(&mut room);
        }
    }
    let game = room.game().expect("a game");
    note(
        now,
        &format!(
            "final board: black {} white {}; transcript {}",
            game.record().position().count(reversi::core::Color::Black),
            game.record().position().count(reversi::core::Color::White),
            game.record().transcript()
        ),
    );
    note(now, &format!("seats now: {:?}", room.seats()));
    Ok(())
}

/// Plays one move for whoever is to move in the room of `players`.
fn online_move(
    lobby: &mut Lobby<ReversiGame>,
    now: Millis,
    players: [PlayerId; 2],
    engines: &mut [EngineBot<Box<dyn reversi::ai::Engine>>; 2],
) -> Result<(), RoomError> {
    let room_id = lobby
        .room_of(players[0])
        .or_else(|| lobby.room_of(players[1]))
        .ok_or(RoomError::NoGameInProgress)?;
    let room = lobby.room(room_id).expect("the room");
    let seat = room.to_act().ok_or(RoomError::NoGameInProgress)?;
    let i = usize::from(room.seat_of(players[0]) != Some(seat));
    let square = engines[i]
        .choose(room.game().expect("a game"))
        .expect("a move");
    let version = room.version();
    lobby.act(now, players[i], version, square)
}

fn online_flow() -> Result<(), Box<dyn std::error::Error>> {
    println!();
    println!("== Online: a random match with a disconnection and a departure ==");
    // A fixed seed, so that the run prints the same every time (a server seeds from the OS).
    let mut lobby = reversi_lobby([24; 32]);
    let mut now = Millis(0);
    let (carol, _carol_token) = lobby.add_guest(now);
    let (dave, dave_token) = lobby.add_guest(now);
    drain_lobby(&mut lobby);
    note(
        now,
        &format!("Carol is {carol}, Dave is {dave}; Carol waits for a match"),
    );
    lobby.queue(now, carol, REVERSI)?;
    now = now + Span::from_secs(7);
    let QueueOutcome::Matched { .. } = lobby.queue(now, dave, REVERSI)? else {
        unreachable!("Carol was waiting")
    };
    drain_lobby(&mut lobby);
    let mut engines = [
        EngineBot::for_level("easy", 21)?,
        EngineBot::for_level("easy", 22)?,
    ];
    for _ in 0..6 {
        now = now + Span::from_secs(3);
        online_move(&mut lobby, now, [carol, dave], &mut engines)?;
    }
    drain_lobby(&mut lobby);
    now = now + Span::from_secs(2);
    note(now, "Dave's connection drops; his clock keeps running");
    lobby.disconnect(now, dave)?;
    drain_lobby(&mut lobby);
    lobby_wait(&mut lobby, now + Span::from_secs(8));
    now = now + Span::from_secs(8);
    let wrong = Token::from("0000000000000000ffffffffffffffff".to_owned());
    note(
        now,
        &format!(
            "a reconnection with a wrong token: {}",
            lobby.reconnect(now, &wrong).unwrap_err()
        ),
    );
    now = now + Span::from_secs(4);
    let back = lobby.reconnect(now, &dave_token)?;
    note(now, &format!("{back} is back with his token"));
    drain_lobby(&mut lobby);
    for _ in 0..4 {
        now = now + Span::from_secs(5);
        online_move(&mut lobby, now, [carol, dave], &mut engines)?;
    }
    drain_lobby(&mut lobby);
    now = now + Span::from_secs(6);
    note(now, "Carol closes her tab for good: she leaves");
    lobby.leave(now, carol)?;
    drain_lobby(&mut lobby);

    println!();
    println!("== Online: an invite by link, played to the end; and one that expires ==");
    let (erin, _) = lobby.add_guest(now);
    let (frank, _) = lobby.add_guest(now);
    let code = lobby.create_invite(now, erin, REVERSI)?;
    let link = code.link("http://127.0.0.1:8080");
    drain_lobby(&mut lobby);
    note(
        now,
        &format!("Erin ({erin}) shares {link} with Frank ({frank})"),
    );
    now = now + Span::from_secs(40);
    let typed = InviteCode::from_link(&link)?;
    lobby.join_invite(now, frank, &typed)?;
    drain_lobby(&mut lobby);
    let mut engines = [
        EngineBot::for_level("normal", 31)?,
        EngineBot::for_level("easy", 32)?,
    ];
    while lobby.room_of(erin).is_some() {
        now = now + Span::from_secs(2);
        online_move(&mut lobby, now, [erin, frank], &mut engines)?;
    }
    drain_lobby(&mut lobby);

    let (gina, _) = lobby.add_guest(now);
    let code = lobby.create_invite(now, gina, REVERSI)?;
    drain_lobby(&mut lobby);
    note(now, &format!("Gina's invite {code}: no one comes"));
    lobby_wait(&mut lobby, now + Span::from_mins(11));
    now = now + Span::from_mins(11);
    let (hank, _) = lobby.add_guest(now);
    drain_lobby(&mut lobby);
    note(
        now,
        &format!(
            "Hank tries it: {}",
            lobby.join_invite(now, hank, &code).unwrap_err()
        ),
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    hosted_flow()?;
    online_flow()?;
    Ok(())
}
