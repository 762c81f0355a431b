//! The Reversi adapters of the rooms, with real `reversi-ai` bots playing whole games in rooms
//! and in the online lobby, on virtual time.

use reversi::ai::{Limits, SearchEngine};
use reversi::clock::{Millis, Span};
use reversi::core::{Color, Square};
use reversi::room::{
    Activity, Bot, EndReason, Lobby, LobbySettings, Occupant, PauseCause, PlayerId, QueueOutcome,
    Room, RoomActionLimit, RoomCommand as C, RoomError, RoomSettings, SeatOutcome,
};
use reversi::room_adapters::{
    color_of, hosted_room, reversi_lobby, seat_of, EngineBot, ReversiGame, REVERSI,
};

const HOST: PlayerId = PlayerId(1);
const GUEST: PlayerId = PlayerId(2);

/// A lobby seed from a number.
fn seed(n: u8) -> [u8; 32] {
    [n; 32]
}

fn t(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

/// The outcome the core gives for the final position, in seats.
fn board_outcome(game: &ReversiGame) -> SeatOutcome {
    match game.record().outcome().expect("the game is over") {
        reversi::core::Outcome::Win(c) => SeatOutcome::Winner(seat_of(c)),
        reversi::core::Outcome::Draw => SeatOutcome::Draw,
    }
}

/// Plays the game in `room` to its end: `person` (driven by an engine, standing in for clicks)
/// sends its moves as `who`; the room's bot answers through `bot_to_act`/`bot_act`. Each move
/// takes `think` of virtual time. Returns the time at the end.
fn play_out(
    room: &mut Room<ReversiGame>,
    who: PlayerId,
    person: &mut impl Bot<ReversiGame>,
    bot: &mut impl Bot<ReversiGame>,
    mut now: Millis,
    think: Span,
) -> Millis {
    let mut moves = 0;
    while room.in_game() {
        now = now + think;
        if let Some(turn) = room.bot_to_act() {
            let square = bot.choose(room.game().unwrap()).expect("a move");
            room.bot_act(now, turn.seat, turn.version, square).unwrap();
        } else {
            let seat = room.to_act().unwrap();
            assert_eq!(room.seat_of(who), Some(seat));
            let square = person.choose(room.game().unwrap()).expect("a move");
            let version = room.version();
            room.handle(
                now,
                who,
                C::Act {
                    seat,
                    version,
                    action: square,
                },
            )
            .unwrap();
        }
        moves += 1;
        assert!(moves <= 60, "a Reversi game has at most 60 moves");
    }
    now
}

#[test]
fn a_person_plays_the_easy_bot_to_the_end_in_a_hosted_room() {
    for seed in 0..4 {
        let mut room = hosted_room(t(0), HOST, RoomActionLimit::Secs30);
        room.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
        room.handle(
            t(0),
            HOST,
            C::AddBot {
                seat: 1,
                level: "easy".into(),
            },
        )
        .unwrap();
        room.handle(t(0), HOST, C::Start).unwrap();
        let mut bot = EngineBot::for_level("easy", seed).unwrap();
        let mut person = EngineBot::for_level("normal", seed).unwrap();
        play_out(
            &mut room,
            HOST,
            &mut person,
            &mut bot,
            t(0),
            Span::from_secs(5),
        );
        let result = room.result().unwrap();
        assert_eq!(result.reason, EndReason::Board);
        assert_eq!(result.outcome, board_outcome(room.game().unwrap()));
        assert!(room.game().unwrap().record().is_over());
    }
}

#[test]
fn the_normal_bot_plays_black_against_a_person_with_a_pause_and_a_reservation() {
    let mut room = hosted_room(t(0), HOST, RoomActionLimit::Secs60);
    room.handle(t(0), GUEST, C::Join).unwrap();
    room.handle(t(0), HOST, C::Sit { seat: 1 }).unwrap();
    room.handle(
        t(0),
        HOST,
        C::AddBot {
            seat: 0,
            level: "normal".into(),
        },
    )
    .unwrap();
    room.handle(t(0), HOST, C::Start).unwrap();
    let mut bot = EngineBot::for_level("normal", 7).unwrap();
    let mut person = EngineBot::for_level("easy", 7).unwrap();
    // The bot opens as black.
    let turn = room.bot_to_act().unwrap();
    assert_eq!(color_of(turn.seat), Some(Color::Black));
    let square = bot.choose(room.game().unwrap()).unwrap();
    room.bot_act(t(1), turn.seat, turn.version, square).unwrap();
    // The host pauses; the bot is stopped, the clock too.
    room.handle(t(2), HOST, C::Pause).unwrap();
    assert_eq!(room.paused(), Some(PauseCause::Host));
    room.handle(t(3), GUEST, C::ReserveBotSeat).unwrap();
    room.handle(t(500), HOST, C::Resume).unwrap();
    play_out(
        &mut room,
        HOST,
        &mut person,
        &mut bot,
        t(500),
        Span::from_secs(10),
    );
    assert_eq!(room.result().unwrap().reason, EndReason::Board);
    // The guest took the bot's seat at the result.
    assert_eq!(room.seats()[0], Some(Occupant::Person { player: GUEST }));
    assert_eq!(room.bot_seat(), None);
}

#[test]
fn illegal_and_out_of_turn_squares_are_refused_with_the_rules_reason() {
    let mut room = hosted_room(t(0), HOST, RoomActionLimit::Secs30);
    room.handle(t(0), GUEST, C::Join).unwrap();
    room.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
    room.handle(t(0), GUEST, C::Sit { seat: 1 }).unwrap();
    room.handle(t(0), HOST, C::Start).unwrap();
    let v = room.version();
    let before = room.clone();
    assert_eq!(
        room.handle(
            t(1),
            HOST,
            C::Act {
                seat: 0,
                version: v,
                action: Square::A1
            }
        ),
        Err(RoomError::IllegalAction {
            seat: 0,
            reason: "a1 flips no disc, so it is not a legal move".into()
        })
    );
    assert_eq!(
        room.handle(
            t(1),
            HOST,
            C::Act {
                seat: 0,
                version: v,
                action: Square::D4
            }
        ),
        Err(RoomError::IllegalAction {
            seat: 0,
            reason: "square d4 is occupied".into()
        })
    );
    assert_eq!(
        room.handle(
            t(1),
            GUEST,
            C::Act {
                seat: 1,
                version: v,
                action: Square::D3
            }
        ),
        Err(RoomError::NotYourTurn { seat: 1, to_act: 0 })
    );
    room.handle_timeout(t(1));
    assert_eq!(
        room.game(),
        before.game(),
        "refusals leave the game unchanged"
    );
    // A person who never moves loses on time, black's 30 s.
    room.handle_timeout(t(100));
    let result = room.result().unwrap();
    assert_eq!(result.reason, EndReason::Timeout { seat: 0 });
    assert_eq!(result.outcome, SeatOutcome::Winner(1));
}

/// Plays a whole online game between two guests driven by engines; returns the room.
fn online_game(
    lobby: &mut Lobby<ReversiGame>,
    engines: [&mut dyn Bot<ReversiGame>; 2],
    think: Span,
) -> reversi::room::RoomId {
    let (a, _) = lobby.add_guest(t(0));
    let (b, _) = lobby.add_guest(t(0));
    assert!(matches!(
        lobby.queue(t(0), a, REVERSI).unwrap(),
        QueueOutcome::Waiting { .. }
    ));
    let QueueOutcome::Matched { room } = lobby.queue(t(1), b, REVERSI).unwrap() else {
        panic!("no match")
    };
    let [ea, eb] = engines;
    let mut now = t(1);
    while lobby.room_of(a).is_some() {
        now = now + think;
        let r = lobby.room(room).unwrap();
        let seat = r.to_act().unwrap();
        let (who, engine) = if r.seat_of(a) == Some(seat) {
            (a, &mut *ea)
        } else {
            (b, &mut *eb)
        };
        let square = engine.choose(r.game().unwrap()).unwrap();
        let version = r.version();
        match lobby.act(now, who, version, square) {
            Ok(()) => {}
            Err(RoomError::NoGameInProgress) => break, // the game limit fell first
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(lobby.activity(a), Some(&Activity::Idle));
    room
}

#[test]
fn two_guests_matched_online_play_easy_against_normal_to_the_end() {
    let mut lobby = reversi_lobby(seed(42));
    let mut easy = EngineBot::for_level("easy", 1).unwrap();
    let mut normal = EngineBot::for_level("normal", 1).unwrap();
    let room = online_game(&mut lobby, [&mut easy, &mut normal], Span::from_secs(29));
    let r = lobby.room(room).unwrap();
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::Board);
    assert_eq!(result.outcome, board_outcome(r.game().unwrap()));
    assert!(r.closed().is_some());
}

#[test]
fn the_hard_engine_with_a_node_limit_plays_a_whole_online_game() {
    let mut lobby = reversi_lobby(seed(3));
    let mut hard = EngineBot::new(SearchEngine::hard(), Limits::nodes(4_000));
    let mut easy = EngineBot::for_level("easy", 3).unwrap();
    let room = online_game(&mut lobby, [&mut hard, &mut easy], Span::from_secs(1));
    let r = lobby.room(room).unwrap();
    assert_eq!(r.result().unwrap().reason, EndReason::Board);
}

#[test]
fn at_the_game_limit_an_online_game_ends_by_the_disc_count() {
    let settings = LobbySettings::default()
        .with_room(RoomSettings::ONLINE.with_game_limit(Some(Span::from_mins(5))));
    let mut lobby = Lobby::with_settings(
        settings,
        [(REVERSI.to_owned(), ReversiGame::new())],
        seed(9),
    );
    let mut a = EngineBot::for_level("easy", 4).unwrap();
    let mut b = EngineBot::for_level("easy", 5).unwrap();
    let room = online_game(&mut lobby, [&mut a, &mut b], Span::from_secs(25));
    let r = lobby.room(room).unwrap();
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::TimeLimit);
    assert_eq!(result.at, t(0) + Span::from_secs(1) + Span::from_mins(5));
    let by_count = match r.game().unwrap().record().position().outcome_by_count() {
        reversi::core::Outcome::Win(c) => SeatOutcome::Winner(seat_of(c)),
        reversi::core::Outcome::Draw => SeatOutcome::Draw,
    };
    assert_eq!(result.outcome, by_count);
    assert!(!r.game().unwrap().record().is_over());
}

#[test]
fn the_bot_levels_of_a_room_map_to_engines() {
    for level in ["easy", "normal", "hard"] {
        assert_eq!(EngineBot::for_level(level, 0).unwrap().name(), level);
    }
    assert!(EngineBot::for_level("nope", 0).is_err());
    let mut easy = EngineBot::for_level("easy", 0).unwrap();
    // No move once the game is over.
    let over =
        ReversiGame::from(reversi::core::Game::from_transcript("e6f4e3f6g5d6e7f5c5").unwrap());
    assert_eq!(easy.choose(&over), None);
}

/// A game record where black is to move, and some black move makes white pass while the game
/// goes on, and black then still has a move that does not end the game.
fn black_move_that_makes_white_pass() -> (ReversiGame, Square, Square) {
    for seed in 0..500 {
        let mut a = EngineBot::for_level("easy", seed).unwrap();
        let mut b = EngineBot::for_level("easy", seed + 1_000).unwrap();
        let mut game = ReversiGame::new();
        while let Some(seat) = reversi::room::TurnGame::to_act(&game) {
            if seat == 0 {
                let pos = *game.record().position();
                for m1 in pos.legal_moves() {
                    let mut g1 = game.record().clone();
                    let turn = g1.play(m1).unwrap();
                    if turn.passed != Some(Color::White) || g1.is_over() {
                        continue;
                    }
                    for m2 in g1.position().legal_moves() {
                        let mut g2 = g1.clone();
                        g2.play(m2).unwrap();
                        if !g2.is_over() {
                            return (game, m1, m2);
                        }
                    }
                }
            }
            let engine = if seat == 0 { &mut a } else { &mut b };
            let square = engine.choose(&game).unwrap();
            reversi::room::TurnGame::apply(&mut game, seat, &square).unwrap();
        }
    }
    panic!("no position with a pass found");
}

#[test]
fn online_a_disconnected_player_loses_by_disconnection_when_a_pass_outlasts_the_grace() {
    // With 30 s a move and 60 s of grace, the grace can only end first when the opponent moves
    // twice in a row: across a pass.
    let (start, m1, m2) = black_move_that_makes_white_pass();
    let mut lobby = Lobby::new([("prepared".to_owned(), start)], seed(77));
    let (a, _) = lobby.add_guest(t(0));
    let (b, b_token) = lobby.add_guest(t(0));
    lobby.queue(t(0), a, "prepared").unwrap();
    let QueueOutcome::Matched { room } = lobby.queue(t(0), b, "prepared").unwrap() else {
        panic!()
    };
    let r = lobby.room(room).unwrap();
    let (black, white) = if r.seat_of(a) == Some(0) {
        (a, b)
    } else {
        (b, a)
    };
    let white_token_ok = white == b;
    lobby.disconnect(t(1), white).unwrap(); // grace to 61 s
    let v = lobby.room(room).unwrap().version();
    lobby.act(t(29), black, v, m1).unwrap(); // white must pass: black again, by 59 s
    assert_eq!(lobby.room(room).unwrap().to_act(), Some(0));
    let v = lobby.room(room).unwrap().version();
    lobby.act(t(58), black, v, m2).unwrap(); // white to move by 88 s, but away since 1 s
    lobby.handle_timeout(t(61));
    let result = lobby.room(room).unwrap().result().unwrap();
    assert_eq!(
        (result.reason, result.outcome, result.at),
        (
            EndReason::Disconnected { seat: 1 },
            SeatOutcome::Winner(0),
            t(61)
        )
    );
    // Too late to come back (the token was a's or b's; either way the guest is forgotten).
    lobby.handle_timeout(t(200));
    if white_token_ok {
        assert_eq!(
            lobby.reconnect(t(200), &b_token),
            Err(RoomError::WrongToken)
        );
    }
}
