//! Scenario tests on virtual time, one or more per rule of hosted rooms.

#[allow(dead_code)]
#[path = "common/nim.rs"]
mod nim;

use nim::{Nim, NimBot};
use reversi_clock::{Millis, Span};
use reversi_room::{
    Bot, CloseReason, EndReason, EventKind, Occupant, PauseCause, PlayerId, Room, RoomActionLimit,
    RoomCommand as C, RoomError, RoomSettings, SeatOutcome,
};

const HOST: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);
const CAROL: PlayerId = PlayerId(3);

fn t(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

fn room(limit: RoomActionLimit) -> Room<Nim> {
    Room::hosted(
        Millis(0),
        HOST,
        RoomSettings::hosted(limit),
        Nim::new(21, 2),
    )
}

fn drain(room: &mut Room<Nim>) -> Vec<EventKind<u32>> {
    std::iter::from_fn(|| room.poll_event())
        .map(|e| e.kind)
        .collect()
}

/// A refused command: the error, and the state unchanged.
#[track_caller]
fn refused(room: &mut Room<Nim>, now: Millis, by: PlayerId, cmd: C<u32>, want: RoomError) {
    room.handle_timeout(now);
    let before = room.clone();
    assert_eq!(room.handle(now, by, cmd), Err(want));
    assert_eq!(*room, before, "a refused command changed the state");
}

/// Host in seat 0 against the bot in seat 1, started at `at`.
fn host_vs_bot(at: Millis) -> Room<Nim> {
    let mut r = room(RoomActionLimit::Secs30);
    r.handle(at, HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(
        at,
        HOST,
        C::AddBot {
            seat: 1,
            level: "perfect".into(),
        },
    )
    .unwrap();
    r.handle(at, HOST, C::Start).unwrap();
    r
}

/// Host in seat 0 against Bob in seat 1, started at `at`.
fn host_vs_bob(at: Millis) -> Room<Nim> {
    host_vs_bob_with(RoomActionLimit::Secs30, at)
}

/// [`host_vs_bob`] with `limit` per action.
fn host_vs_bob_with(limit: RoomActionLimit, at: Millis) -> Room<Nim> {
    let mut r = room(limit);
    r.handle(at, BOB, C::Join).unwrap();
    r.handle(at, HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(at, BOB, C::Sit { seat: 1 }).unwrap();
    r.handle(at, HOST, C::Start).unwrap();
    r
}

fn act(r: &mut Room<Nim>, now: Millis, by: PlayerId, take: u32) -> Result<(), RoomError> {
    let seat = r.seat_of(by).expect("seated");
    let version = r.version();
    r.handle(
        now,
        by,
        C::Act {
            seat,
            version,
            action: take,
        },
    )
}

fn play_bot(r: &mut Room<Nim>, now: Millis) {
    let turn = r.bot_to_act().expect("the bot is to act");
    let take = NimBot.choose(r.game().unwrap()).unwrap();
    r.bot_act(now, turn.seat, turn.version, take).unwrap();
}

#[test]
fn creation_has_no_one_seated_and_the_chosen_time_per_action() {
    for limit in RoomActionLimit::ALL {
        let mut r = room(limit);
        assert_eq!(r.seats(), &[None, None]);
        assert_eq!(r.host(), Some(HOST));
        assert!(r.member(HOST).unwrap().connected());
        assert_eq!(drain(&mut r), [EventKind::Joined { player: HOST }]);
        r.handle(t(1), HOST, C::Sit { seat: 0 }).unwrap();
        r.handle(
            t(1),
            HOST,
            C::AddBot {
                seat: 1,
                level: "x".into(),
            },
        )
        .unwrap();
        r.handle(t(1), HOST, C::Start).unwrap();
        assert_eq!(r.action_deadline(), Some(t(1) + limit.limit()));
    }
    assert!(RoomActionLimit::from_secs(45)
        .map(RoomSettings::hosted)
        .is_err());
}

#[test]
fn seats_come_from_the_game_and_people_sit_and_stand() {
    let mut r = Room::hosted(
        Millis(0),
        HOST,
        RoomSettings::hosted(RoomActionLimit::Secs30),
        Nim::new(9, 3),
    );
    assert_eq!(r.seats().len(), 3);
    let mut r2 = room(RoomActionLimit::Secs30);
    r2.handle(t(0), BOB, C::Join).unwrap();
    r2.handle(t(0), BOB, C::Sit { seat: 1 }).unwrap();
    refused(
        &mut r2,
        t(0),
        HOST,
        C::Sit { seat: 1 },
        RoomError::SeatTaken { seat: 1 },
    );
    refused(
        &mut r2,
        t(0),
        BOB,
        C::Sit { seat: 0 },
        RoomError::AlreadySeated {
            player: BOB,
            seat: 1,
        },
    );
    refused(
        &mut r2,
        t(0),
        HOST,
        C::Sit { seat: 2 },
        RoomError::NoSuchSeat { seat: 2, seats: 2 },
    );
    refused(
        &mut r2,
        t(0),
        HOST,
        C::Stand,
        RoomError::NotSeated { player: HOST },
    );
    r2.handle(t(0), BOB, C::Stand).unwrap();
    assert_eq!(r2.seats(), &[None, None]);
    r.handle(t(0), HOST, C::Sit { seat: 2 }).unwrap();
    assert_eq!(r.seat_of(HOST), Some(2));
}

#[test]
fn at_most_one_bot_seated_by_the_host_in_a_free_seat() {
    let mut r = Room::hosted(
        Millis(0),
        HOST,
        RoomSettings::hosted(RoomActionLimit::Secs30),
        Nim::new(9, 3),
    );
    r.handle(t(0), BOB, C::Join).unwrap();
    refused(
        &mut r,
        t(0),
        BOB,
        C::AddBot {
            seat: 0,
            level: "easy".into(),
        },
        RoomError::NotHost { player: BOB },
    );
    r.handle(
        t(0),
        HOST,
        C::AddBot {
            seat: 0,
            level: "easy".into(),
        },
    )
    .unwrap();
    refused(
        &mut r,
        t(0),
        HOST,
        C::AddBot {
            seat: 1,
            level: "hard".into(),
        },
        RoomError::SecondBot { seat: 0 },
    );
    refused(
        &mut r,
        t(0),
        BOB,
        C::Sit { seat: 0 },
        RoomError::SeatTaken { seat: 0 },
    );
    r.handle(t(0), HOST, C::RemoveBot).unwrap();
    assert_eq!(r.bot_seat(), None);
    refused(&mut r, t(0), HOST, C::RemoveBot, RoomError::NoBot);
    r.handle(t(0), BOB, C::Sit { seat: 1 }).unwrap();
    refused(
        &mut r,
        t(0),
        HOST,
        C::AddBot {
            seat: 1,
            level: "easy".into(),
        },
        RoomError::SeatTaken { seat: 1 },
    );
}

#[test]
fn only_the_seated_host_starts_with_every_seat_occupied_by_at_least_one_person() {
    let mut r = room(RoomActionLimit::Secs30);
    r.handle(t(0), BOB, C::Join).unwrap();
    r.handle(t(0), BOB, C::Sit { seat: 0 }).unwrap();
    r.handle(
        t(0),
        HOST,
        C::AddBot {
            seat: 1,
            level: "easy".into(),
        },
    )
    .unwrap();
    // Bob and the bot are seated, but only the host starts, and only while seated.
    refused(
        &mut r,
        t(0),
        BOB,
        C::Start,
        RoomError::NotHost { player: BOB },
    );
    refused(
        &mut r,
        t(0),
        HOST,
        C::Start,
        RoomError::HostNotSeated { player: HOST },
    );
    r.handle(t(0), BOB, C::Stand).unwrap();
    r.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(t(0), HOST, C::RemoveBot).unwrap();
    refused(
        &mut r,
        t(0),
        HOST,
        C::Start,
        RoomError::EmptySeat { seat: 1 },
    );
    // The bot alone cannot play: a seat without a person is refused before anything starts.
    r.handle(t(0), HOST, C::Stand).unwrap();
    r.handle(
        t(0),
        HOST,
        C::AddBot {
            seat: 1,
            level: "easy".into(),
        },
    )
    .unwrap();
    refused(
        &mut r,
        t(0),
        HOST,
        C::Start,
        RoomError::HostNotSeated { player: HOST },
    );
    r.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(t(0), HOST, C::Start).unwrap();
    let events = drain(&mut r);
    let started = events
        .iter()
        .find_map(|e| match e {
            EventKind::GameStarted { game, seats } => Some((*game, seats.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(started.0, 1);
    assert_eq!(started.1[0], Occupant::Person { player: HOST });
    refused(&mut r, t(1), HOST, C::Start, RoomError::GameInProgress);
}

#[test]
fn pause_stops_the_clock_and_the_bot_and_resume_gives_the_time_back() {
    let mut r = host_vs_bot(t(0));
    act(&mut r, t(10), HOST, 1).unwrap();
    assert!(r.bot_to_act().is_some());
    r.handle(t(15), HOST, C::Pause).unwrap();
    assert_eq!(r.paused(), Some(PauseCause::Host));
    assert_eq!(r.bot_to_act(), None);
    assert_eq!(r.poll_timeout(), None);
    assert_eq!(r.clock().unwrap().running_side(), None);
    // A bot answer computed before the pause is refused while paused.
    let v = r.version();
    refused_bot(&mut r, t(16), 1, v, 1, RoomError::Paused);
    refused(&mut r, t(16), HOST, C::Pause, RoomError::Paused);
    // An hour later nothing has happened.
    r.handle_timeout(t(3_600));
    assert!(r.in_game());
    r.handle(t(3_600), HOST, C::Resume).unwrap();
    // The bot had used 5 s of its 30 s.
    assert_eq!(r.action_deadline(), Some(t(3_625)));
    assert!(drain(&mut r).contains(&EventKind::ActionDue {
        seat: 1,
        deadline: t(3_625),
        bot: true
    }));
    refused(&mut r, t(3_601), HOST, C::Resume, RoomError::NotPaused);
    play_bot(&mut r, t(3_610));
}

#[track_caller]
fn refused_bot(
    r: &mut Room<Nim>,
    now: Millis,
    seat: usize,
    version: u64,
    take: u32,
    want: RoomError,
) {
    r.handle_timeout(now);
    let before = r.clone();
    assert_eq!(r.bot_act(now, seat, version, take), Err(want));
    assert_eq!(*r, before);
}

#[test]
fn host_powers_need_the_seated_host() {
    let mut r = host_vs_bob(t(0));
    r.handle(t(0), CAROL, C::Join).unwrap();
    for cmd in [C::Pause, C::Resume, C::End] {
        refused(
            &mut r,
            t(1),
            BOB,
            cmd.clone(),
            RoomError::NotHost { player: BOB },
        );
        refused(
            &mut r,
            t(1),
            CAROL,
            cmd,
            RoomError::NotHost { player: CAROL },
        );
    }
    refused(
        &mut r,
        t(1),
        PlayerId(9),
        C::Pause,
        RoomError::NotInRoom {
            player: PlayerId(9),
        },
    );
}

#[test]
fn a_game_ended_by_the_host_has_no_winner() {
    let mut r = host_vs_bob(t(0));
    r.handle(t(5), HOST, C::End).unwrap();
    let result = r.result().unwrap();
    assert_eq!(result.outcome, SeatOutcome::NoResult);
    assert_eq!(result.reason, EndReason::EndedByHost);
    assert_eq!(result.at, t(5));
    refused(&mut r, t(6), HOST, C::End, RoomError::NoGameInProgress);
    // A finished game takes no action, and the room can start another.
    let v = r.version();
    refused(
        &mut r,
        t(6),
        HOST,
        C::Act {
            seat: 0,
            version: v,
            action: 1,
        },
        RoomError::NoGameInProgress,
    );
    r.handle(t(7), HOST, C::Start).unwrap();
    assert_eq!(r.games_started(), 2);
}

#[test]
fn a_reserved_bot_seat_is_taken_over_at_the_result() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(0), BOB, C::Join).unwrap();
    r.handle(t(0), CAROL, C::Join).unwrap();
    refused(
        &mut r,
        t(1),
        HOST,
        C::ReserveBotSeat,
        RoomError::AlreadySeated {
            player: HOST,
            seat: 0,
        },
    );
    r.handle(t(1), BOB, C::ReserveBotSeat).unwrap();
    refused(
        &mut r,
        t(1),
        CAROL,
        C::ReserveBotSeat,
        RoomError::AlreadyReserved { player: BOB },
    );
    assert_eq!(r.reservation(), Some(BOB));
    // The bot keeps playing until the result.
    act(&mut r, t(2), HOST, 1).unwrap();
    assert_eq!(r.bot_seat(), Some(1));
    play_bot(&mut r, t(3));
    r.handle(t(4), HOST, C::Resign).unwrap();
    let events = drain(&mut r);
    let end = events
        .iter()
        .position(|e| matches!(e, EventKind::GameEnded { .. }))
        .unwrap();
    assert_eq!(
        events[end + 1..],
        [
            EventKind::BotRemoved { seat: 1 },
            EventKind::Sat {
                player: BOB,
                seat: 1
            }
        ]
    );
    assert_eq!(r.seat_of(BOB), Some(1));
    assert_eq!(r.bot_seat(), None);
    assert_eq!(r.reservation(), None);
    // Outside a game there is nothing to reserve.
    refused(
        &mut r,
        t(5),
        CAROL,
        C::ReserveBotSeat,
        RoomError::NoGameInProgress,
    );
    // The next game is host against Bob.
    r.handle(t(5), HOST, C::Start).unwrap();
    act(&mut r, t(6), HOST, 2).unwrap();
    act(&mut r, t(7), BOB, 2).unwrap();
}

#[test]
fn a_reservation_is_dropped_when_its_holder_leaves() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(0), BOB, C::Join).unwrap();
    r.handle(t(1), BOB, C::ReserveBotSeat).unwrap();
    r.handle(t(2), BOB, C::Leave).unwrap();
    assert_eq!(r.reservation(), None);
    r.handle(t(3), HOST, C::End).unwrap();
    assert_eq!(r.bot_seat(), Some(1));
}

#[test]
fn removing_the_bot_mid_game_takes_effect_at_the_end() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(1), HOST, C::RemoveBot).unwrap();
    assert!(r.bot_leaving());
    assert_eq!(r.bot_seat(), Some(1));
    refused(
        &mut r,
        t(1),
        HOST,
        C::RemoveBot,
        RoomError::BotAlreadyLeaving,
    );
    act(&mut r, t(2), HOST, 1).unwrap();
    play_bot(&mut r, t(3)); // it still plays
    r.handle(t(4), HOST, C::End).unwrap();
    assert_eq!(r.bot_seat(), None);
    assert_eq!(r.seats(), &[Some(Occupant::Person { player: HOST }), None]);
    assert!(!r.bot_leaving());
}

#[test]
fn bots_act_through_the_checked_path() {
    let mut r = host_vs_bot(t(0));
    let v = r.version();
    // Not the bot's seat, not its turn, an illegal take.
    refused_bot(&mut r, t(1), 0, v, 1, RoomError::NotABot { seat: 0 });
    refused_bot(
        &mut r,
        t(1),
        1,
        v,
        1,
        RoomError::NotYourTurn { seat: 1, to_act: 0 },
    );
    refused_bot(
        &mut r,
        t(1),
        5,
        v,
        1,
        RoomError::NoSuchSeat { seat: 5, seats: 2 },
    );
    act(&mut r, t(2), HOST, 1).unwrap();
    let turn = r.bot_to_act().unwrap();
    refused_bot(
        &mut r,
        t(3),
        1,
        turn.version,
        4,
        RoomError::IllegalAction {
            seat: 1,
            reason: "cannot take 4 pebbles".into(),
        },
    );
    // A person cannot act for the bot's seat.
    refused(
        &mut r,
        t(3),
        HOST,
        C::Act {
            seat: 1,
            version: turn.version,
            action: 1,
        },
        RoomError::NotYourSeat {
            player: HOST,
            seat: 1,
        },
    );
    r.bot_act(t(3), 1, turn.version, 3).unwrap();
    assert_eq!(r.game().unwrap().pile(), 17);
}

#[test]
fn moves_out_of_turn_illegal_or_for_another_seat_are_refused() {
    let mut r = host_vs_bob(t(0));
    let v = r.version();
    refused(
        &mut r,
        t(1),
        BOB,
        C::Act {
            seat: 1,
            version: v,
            action: 1,
        },
        RoomError::NotYourTurn { seat: 1, to_act: 0 },
    );
    refused(
        &mut r,
        t(1),
        BOB,
        C::Act {
            seat: 0,
            version: v,
            action: 1,
        },
        RoomError::NotYourSeat {
            player: BOB,
            seat: 0,
        },
    );
    refused(
        &mut r,
        t(1),
        HOST,
        C::Act {
            seat: 0,
            version: v,
            action: 0,
        },
        RoomError::IllegalAction {
            seat: 0,
            reason: "cannot take 0 pebbles".into(),
        },
    );
}

#[test]
fn every_action_has_the_room_deadline_and_missing_it_loses() {
    for limit in RoomActionLimit::ALL {
        let mut r = host_vs_bob_with(limit, t(0));
        let l = limit.secs();
        act(&mut r, t(l - 1), HOST, 1).unwrap();
        // Bob's action has its own full limit from the host's move.
        assert_eq!(r.action_deadline(), Some(t(2 * l - 1)));
        // Bob's move arrives one millisecond late: he has lost, and the move is refused.
        let late = t(2 * l - 1) + Span(1);
        let v = r.version();
        assert_eq!(
            r.handle(
                late,
                BOB,
                C::Act {
                    seat: 1,
                    version: v,
                    action: 1
                }
            ),
            Err(RoomError::NoGameInProgress)
        );
        let result = r.result().unwrap();
        assert_eq!(result.reason, EndReason::Timeout { seat: 1 });
        assert_eq!(result.outcome, SeatOutcome::Winner(0));
        assert_eq!(result.at, t(2 * l - 1));
    }
}

#[test]
fn a_bot_that_does_not_answer_loses_on_time_too() {
    let mut r = host_vs_bot(t(0));
    act(&mut r, t(1), HOST, 1).unwrap();
    assert_eq!(r.poll_timeout(), Some(t(31)));
    r.handle_timeout(t(31));
    assert_eq!(r.result().unwrap().reason, EndReason::Timeout { seat: 1 });
    assert_eq!(r.result().unwrap().outcome, SeatOutcome::Winner(0));
}

#[test]
fn leaving_a_seat_during_a_game_is_abandonment() {
    let mut r = host_vs_bob(t(0));
    r.handle(t(3), BOB, C::Stand).unwrap();
    let result = r.result().unwrap();
    assert_eq!(
        (result.outcome, result.reason),
        (SeatOutcome::Winner(0), EndReason::Abandoned { seat: 1 })
    );
    let mut r = host_vs_bob(t(0));
    r.handle(t(3), HOST, C::Leave).unwrap();
    let result = r.result().unwrap();
    assert_eq!(
        (result.outcome, result.reason),
        (SeatOutcome::Winner(1), EndReason::Abandoned { seat: 0 })
    );
    assert_eq!(r.seats(), &[None, Some(Occupant::Person { player: BOB })]);
    assert!(r.member(HOST).is_none());
}

#[test]
fn a_disconnected_person_can_still_lose_on_time_during_the_grace() {
    let mut r = host_vs_bob(t(0));
    r.handle(t(10), HOST, C::Disconnect).unwrap();
    assert_eq!(r.member(HOST).unwrap().grace_until(), Some(t(130)));
    // Bob is connected, so nothing pauses; the host's deadline keeps running.
    assert_eq!(r.paused(), None);
    assert_eq!(r.poll_timeout(), Some(t(30)));
    r.handle_timeout(t(200));
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::Timeout { seat: 0 });
    assert_eq!(result.at, t(30));
    // The grace still runs out later: the host is dropped from the room.
    assert!(r.member(HOST).is_none());
    assert_eq!(r.seats()[0], None);
}

#[test]
fn past_the_two_minute_grace_a_disconnection_is_abandonment() {
    // A 90 s room: Bob moves, the host waits; Bob disconnects at 10 s and the host keeps moving
    // so Bob's turns come and go... simplest: Bob is not to act when his grace runs out.
    let mut r = Room::hosted(
        Millis(0),
        HOST,
        RoomSettings::hosted(RoomActionLimit::Secs90),
        Nim::new(100, 2),
    );
    r.handle(t(0), BOB, C::Join).unwrap();
    r.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(t(0), BOB, C::Sit { seat: 1 }).unwrap();
    r.handle(t(0), HOST, C::Start).unwrap();
    act(&mut r, t(1), HOST, 1).unwrap();
    act(&mut r, t(2), BOB, 1).unwrap();
    r.handle(t(3), BOB, C::Disconnect).unwrap();
    // Commands from a disconnected person are refused until they come back.
    refused(
        &mut r,
        t(4),
        BOB,
        C::Stand,
        RoomError::Disconnected { player: BOB },
    );
    refused(
        &mut r,
        t(4),
        BOB,
        C::Disconnect,
        RoomError::Disconnected { player: BOB },
    );
    act(&mut r, t(80), HOST, 1).unwrap(); // Bob's turn now, deadline 170 s > grace end 123 s
    assert_eq!(r.poll_timeout(), Some(t(123)));
    r.handle_timeout(t(123));
    let result = r.result().unwrap();
    assert_eq!(
        (result.outcome, result.reason, result.at),
        (
            SeatOutcome::Winner(0),
            EndReason::Disconnected { seat: 1 },
            t(123)
        )
    );
    assert!(r.member(BOB).is_none());
}

#[test]
fn coming_back_within_the_grace_goes_on() {
    let mut r = host_vs_bob(t(0));
    r.handle(t(1), BOB, C::Disconnect).unwrap();
    refused(
        &mut r,
        t(2),
        HOST,
        C::Reconnect,
        RoomError::AlreadyConnected { player: HOST },
    );
    r.handle(t(20), BOB, C::Reconnect).unwrap();
    assert!(r.member(BOB).unwrap().connected());
    act(&mut r, t(21), HOST, 1).unwrap();
    act(&mut r, t(40), BOB, 1).unwrap();
    r.handle_timeout(t(45));
    assert!(r.in_game());
}

#[test]
fn with_no_person_connected_the_room_pauses_then_closes_after_two_minutes() {
    let mut r = host_vs_bot(t(0));
    act(&mut r, t(5), HOST, 1).unwrap();
    play_bot(&mut r, t(6));
    r.handle(t(10), HOST, C::Disconnect).unwrap();
    assert_eq!(r.paused(), Some(PauseCause::NobodyConnected));
    assert_eq!(r.closes_at(), Some(t(130)));
    assert_eq!(r.clock().unwrap().running_side(), None);
    // Nothing moves for the host to save them: but the pause stops their clock too.
    r.handle_timeout(t(129));
    assert!(r.in_game());
    r.handle_timeout(t(130));
    // The host's grace and the closing fall together: the abandonment first, then the close.
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::Disconnected { seat: 0 });
    assert_eq!(result.outcome, SeatOutcome::Winner(1));
    assert_eq!(r.closed(), Some(CloseReason::Empty));
    let events = drain(&mut r);
    assert!(matches!(
        events.last(),
        Some(EventKind::Closed {
            reason: CloseReason::Empty
        })
    ));
}

#[test]
fn someone_returning_stops_the_countdown_and_resumes() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(0), BOB, C::Join).unwrap();
    r.handle(t(10), BOB, C::Leave).unwrap();
    r.handle(t(10), HOST, C::Disconnect).unwrap();
    assert_eq!(r.closes_at(), Some(t(130)));
    drain(&mut r);
    r.handle(t(60), HOST, C::Reconnect).unwrap();
    assert_eq!(r.closes_at(), None);
    assert_eq!(r.paused(), None);
    // The host had used 10 s of the first action.
    assert_eq!(r.action_deadline(), Some(t(80)));
    assert_eq!(
        drain(&mut r),
        [
            EventKind::Reconnected { player: HOST },
            EventKind::Resumed {
                cause: PauseCause::NobodyConnected
            },
            EventKind::ActionDue {
                seat: 0,
                deadline: t(80),
                bot: false
            },
        ]
    );
    // A newcomer also counts as a person returning.
    let mut r = room(RoomActionLimit::Secs30);
    r.handle(t(0), HOST, C::Leave).unwrap();
    r.handle(t(100), BOB, C::Join).unwrap();
    r.handle_timeout(t(1_000));
    assert_eq!(r.closed(), None);
}

#[test]
fn a_host_pause_outlasts_a_return() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(1), HOST, C::Pause).unwrap();
    r.handle(t(2), HOST, C::Disconnect).unwrap();
    r.handle(t(3), HOST, C::Reconnect).unwrap();
    assert_eq!(r.paused(), Some(PauseCause::Host));
    r.handle(t(4), HOST, C::Resume).unwrap();
    assert_eq!(r.action_deadline(), Some(t(33)));
}

#[test]
fn a_closed_room_accepts_nothing() {
    let mut r = host_vs_bot(t(0));
    r.handle(t(0), HOST, C::Leave).unwrap();
    r.handle_timeout(t(120));
    assert_eq!(r.closed(), Some(CloseReason::Empty));
    assert_eq!(r.result().unwrap().reason, EndReason::Abandoned { seat: 0 });
    let cmds: Vec<C<u32>> = vec![
        C::Join,
        C::Leave,
        C::Sit { seat: 1 },
        C::Stand,
        C::AddBot {
            seat: 0,
            level: "x".into(),
        },
        C::RemoveBot,
        C::ReserveBotSeat,
        C::Start,
        C::Pause,
        C::Resume,
        C::End,
        C::Act {
            seat: 0,
            version: r.version(),
            action: 1,
        },
        C::Resign,
        C::Disconnect,
        C::Reconnect,
    ];
    for cmd in cmds {
        for who in [HOST, BOB] {
            refused(&mut r, t(200), who, cmd.clone(), RoomError::RoomClosed);
        }
    }
    let v = r.version();
    refused_bot(&mut r, t(300), 1, v, 1, RoomError::RoomClosed);
    assert_eq!(r.poll_timeout(), None);
}

#[test]
fn a_game_in_a_closing_room_ends_without_result() {
    // Host pauses, then everyone leaves... the host is seated: leaving is abandonment. A game
    // only survives to the close if its people are disconnected for less than the grace, which
    // the same two minutes prevent; so use a longer grace.
    let settings =
        RoomSettings::hosted(RoomActionLimit::Secs30).with_disconnect_grace(Span::from_mins(5));
    let mut r = Room::hosted(t(0), HOST, settings, Nim::new(9, 2));
    r.handle(t(0), HOST, C::Sit { seat: 0 }).unwrap();
    r.handle(
        t(0),
        HOST,
        C::AddBot {
            seat: 1,
            level: "x".into(),
        },
    )
    .unwrap();
    r.handle(t(0), HOST, C::Start).unwrap();
    r.handle(t(1), HOST, C::Disconnect).unwrap();
    r.handle_timeout(t(500));
    let result = r.result().unwrap();
    assert_eq!(
        (result.outcome, result.reason, result.at),
        (SeatOutcome::NoResult, EndReason::RoomClosed, t(121))
    );
}

#[test]
fn stale_and_duplicate_actions_are_refused() {
    let mut r = host_vs_bob(t(0));
    let v0 = r.version();
    act(&mut r, t(1), HOST, 1).unwrap();
    let v1 = r.version();
    // Bob moves on the state he saw; then the same message arrives again.
    r.handle(
        t(2),
        BOB,
        C::Act {
            seat: 1,
            version: v1,
            action: 2,
        },
    )
    .unwrap();
    refused(
        &mut r,
        t(3),
        BOB,
        C::Act {
            seat: 1,
            version: v1,
            action: 2,
        },
        RoomError::NotYourTurn { seat: 1, to_act: 0 },
    );
    // The host replays an old move made on version v0.
    let turn = r.turn_version().unwrap();
    let now_v = r.version();
    refused(
        &mut r,
        t(3),
        HOST,
        C::Act {
            seat: 0,
            version: v0,
            action: 1,
        },
        RoomError::StaleVersion {
            got: v0,
            turn,
            current: now_v,
        },
    );
    // A version from the future is refused too.
    let current = r.version();
    refused(
        &mut r,
        t(3),
        HOST,
        C::Act {
            seat: 0,
            version: current + 1,
            action: 1,
        },
        RoomError::StaleVersion {
            got: current + 1,
            turn,
            current,
        },
    );
    // A change that is not a turn (someone joins) does not make the move stale.
    r.handle(t(4), CAROL, C::Join).unwrap();
    r.handle(
        t(5),
        HOST,
        C::Act {
            seat: 0,
            version: turn,
            action: 1,
        },
    )
    .unwrap();
    assert_eq!(r.game().unwrap().pile(), 17);
}

#[test]
fn every_event_bumps_the_version_by_one() {
    let mut r = host_vs_bot(t(0));
    act(&mut r, t(1), HOST, 1).unwrap();
    play_bot(&mut r, t(2));
    r.handle(t(3), HOST, C::Pause).unwrap();
    r.handle(t(4), HOST, C::End).unwrap();
    let versions: Vec<u64> = std::iter::from_fn(|| r.poll_event())
        .map(|e| e.version)
        .collect();
    assert_eq!(versions, (1..=r.version()).collect::<Vec<_>>());
}

#[test]
fn the_state_round_trips_through_serde_mid_game() {
    let mut r = host_vs_bot(t(0));
    act(&mut r, t(1), HOST, 1).unwrap();
    r.handle(t(2), HOST, C::Pause).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    let mut back: Room<Nim> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    back.handle(t(50), HOST, C::Resume).unwrap();
    assert_eq!(back.action_deadline(), Some(t(79)));
}

#[test]
fn time_that_goes_backwards_saturates() {
    let mut r = host_vs_bob(t(100));
    act(&mut r, t(50), HOST, 1).unwrap(); // treated as t(100)
    assert_eq!(r.action_deadline(), Some(t(130)));
    r.handle_timeout(t(0));
    assert_eq!(r.last_seen(), t(100));
}

#[test]
fn a_whole_game_against_the_bot_ends_by_the_board() {
    let mut r = host_vs_bot(t(0));
    let mut now = t(0);
    while r.in_game() {
        now = now + Span::from_secs(3);
        if r.bot_to_act().is_some() {
            play_bot(&mut r, now);
        } else {
            act(&mut r, now, HOST, 1).unwrap();
        }
    }
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::Board);
    // The perfect bot wins from 21 pebbles when the host always takes one... 21 % 4 == 1, so
    // the host's 1 leaves 20, a multiple of 4: the bot wins.
    assert_eq!(result.outcome, SeatOutcome::Winner(1));
}

#[test]
fn an_online_room_needs_one_distinct_player_per_seat_and_says_how_many_it_got() {
    let online = |players: &[PlayerId]| {
        Room::online(t(0), players, RoomSettings::ONLINE, Nim::new(9, 2)).map(drop)
    };
    assert_eq!(
        online(&[HOST]),
        Err(RoomError::WrongPlayerCount {
            seats: 2,
            players: 1
        })
    );
    assert_eq!(
        online(&[HOST, BOB, CAROL]),
        Err(RoomError::WrongPlayerCount {
            seats: 2,
            players: 3
        })
    );
    // Someone twice: one player, not two.
    let twice = online(&[HOST, HOST]).unwrap_err();
    assert_eq!(
        twice,
        RoomError::WrongPlayerCount {
            seats: 2,
            players: 1
        }
    );
    assert_eq!(twice.to_string(), "the game needs 2 players, not 1");
    assert!(online(&[HOST, BOB]).is_ok());
}

#[test]
fn action_limits_are_30_60_or_90_seconds_and_serialise_as_seconds() {
    let secs: Vec<u64> = RoomActionLimit::ALL.iter().map(|l| l.secs()).collect();
    assert_eq!(secs, [30, 60, 90]);
    for secs in 0..200 {
        let ok = RoomActionLimit::from_secs(secs).is_ok();
        assert_eq!(ok, [30, 60, 90].contains(&secs), "{secs}");
    }
    assert_eq!(
        RoomActionLimit::from_secs(45),
        Err(reversi_room::RoomError::UnsupportedActionLimit { secs: 45 })
    );
    assert_eq!(
        RoomActionLimit::Secs60.control(),
        reversi_clock::TimeControl::per_move(Span::from_secs(60))
    );
    // Serialised as seconds, and only the three values come back.
    assert_eq!(
        serde_json::to_string(&RoomActionLimit::Secs60).unwrap(),
        "60"
    );
    assert!(serde_json::from_str::<RoomActionLimit>("45").is_err());
    assert_eq!(
        serde_json::from_str::<RoomActionLimit>("90").unwrap(),
        RoomActionLimit::Secs90
    );
}
