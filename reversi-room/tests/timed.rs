//! The game-and-clock machine on its own, on virtual time: refusals that change nothing, the
//! deadline before an action, resignation, the end by the rules, undo, and its serde form inside
//! a room's.

#[allow(dead_code)]
#[path = "common/nim.rs"]
mod nim;

use nim::Nim;
use reversi_clock::{Clock, Millis, Span, TimeControl};
use reversi_room::{
    EndReason, PlayerId, Room, RoomError, RoomSettings, SeatOutcome, SnapshotError, TimedGame,
};

fn t(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

fn ten_a_move(pebbles: u32, seats: usize) -> TimedGame<Nim> {
    TimedGame::new(
        1,
        Nim::new(pebbles, seats),
        TimeControl::per_move(Span::from_secs(10)),
        t(0),
    )
}

#[test]
fn refused_calls_change_nothing_not_even_the_clocks_latest_instant() {
    let mut g = ten_a_move(9, 2);
    g.act(t(2), 0, &1).unwrap();
    let before = g.clone();
    assert_eq!(
        g.act(t(5), 0, &1),
        Err(RoomError::NotYourTurn { seat: 0, to_act: 1 })
    );
    assert!(matches!(
        g.act(t(5), 1, &4),
        Err(RoomError::IllegalAction { seat: 1, .. })
    ));
    assert_eq!(
        g.resign(t(5), 2),
        Err(RoomError::NoSuchSeat { seat: 2, seats: 2 })
    );
    assert_eq!(
        g.undo(t(5), Nim::new(9, 2), 3),
        Err(RoomError::NothingToUndo)
    );
    assert_eq!(g, before);
    let mut g = before.clone();
    assert_eq!(g.pause(t(5)), Ok(()));
    assert_eq!(g.pause(t(6)), Err(RoomError::Paused));
    assert_eq!(g.act(t(6), 1, &1), Err(RoomError::Paused));
    g.resume(t(7)).unwrap();
    assert_eq!(g.resume(t(8)), Err(RoomError::NotPaused));
    assert_eq!(g.clock().last_seen(), t(7));
}

#[test]
fn a_deadline_that_fell_ends_the_game_before_the_action() {
    let mut g = ten_a_move(9, 2);
    assert_eq!(g.poll_timeout(), Some(t(10)));
    assert!(!g.handle_timeout(t(9)));
    // The action comes a second late: seat 0 lost at the deadline, and the action is refused.
    assert_eq!(g.act(t(11), 0, &1), Err(RoomError::NoGameInProgress));
    let r = g.result().unwrap();
    assert_eq!(
        (r.game, r.outcome, r.reason, r.at),
        (
            1,
            SeatOutcome::Winner(1),
            EndReason::Timeout { seat: 0 },
            t(10)
        )
    );
    assert_eq!(g.poll_timeout(), None);
    assert_eq!(g.to_act(), None);
    assert!(!g.handle_timeout(t(20)));
    // Resigning, ending or undoing a finished game is refused.
    let over = g.clone();
    assert_eq!(g.resign(t(12), 1), Err(RoomError::NoGameInProgress));
    assert_eq!(
        g.end(t(12), SeatOutcome::Draw, EndReason::EndedByHost),
        Err(RoomError::NoGameInProgress)
    );
    assert_eq!(
        g.undo(t(12), Nim::new(9, 2), 0),
        Err(RoomError::NoGameInProgress)
    );
    assert_eq!(g, over);
}

#[test]
fn a_resignation_at_the_deadline_is_a_time_out() {
    let mut g = ten_a_move(9, 2);
    g.act(t(1), 0, &2).unwrap();
    assert_eq!(g.resign(t(11), 1), Err(RoomError::NoGameInProgress));
    assert_eq!(g.result().unwrap().reason, EndReason::Timeout { seat: 1 });
    let mut g = ten_a_move(9, 2);
    let r = g.resign(t(3), 0).unwrap();
    assert_eq!(
        (r.outcome, r.reason, r.at),
        (
            SeatOutcome::Winner(1),
            EndReason::Resigned { seat: 0 },
            t(3)
        )
    );
    assert!(g.clock().is_over());
}

#[test]
fn three_seats_play_in_turn_to_the_end_by_the_rules() {
    let mut g = ten_a_move(7, 3);
    for (seat, take, now) in [(0, 3, 1), (1, 3, 2), (2, 1, 3)] {
        assert_eq!(g.to_act(), Some(seat));
        g.act(t(now), seat, &take).unwrap();
    }
    let r = g.result().unwrap();
    assert_eq!(
        (r.outcome, r.reason, r.at),
        (SeatOutcome::Winner(2), EndReason::Board, t(3))
    );
    assert_eq!(g.clock().switches(), 3);
    // With three seats, a forfeit has no winner.
    let mut g = ten_a_move(7, 3);
    assert!(g.handle_timeout(t(10)));
    assert_eq!(g.result().unwrap().outcome, SeatOutcome::NoResult);
}

#[test]
fn undo_takes_the_clock_back_with_the_state() {
    let mut g = TimedGame::new(
        1,
        Nim::new(9, 2),
        TimeControl::total(Span::from_secs(60)),
        t(0),
    );
    let start = g.state().clone();
    g.act(t(5), 0, &1).unwrap();
    let one = g.state().clone();
    g.act(t(9), 1, &1).unwrap();
    // Back one action: seat 1 to act again, its 4 s given back, running from now.
    g.undo(t(20), one.clone(), 1).unwrap();
    assert_eq!(g.state(), &one);
    assert_eq!(g.clock().remaining(1, t(20)), Some(Span::from_secs(60)));
    assert_eq!(g.clock().remaining(0, t(20)), Some(Span::from_secs(55)));
    // A state whose seat to act is not the clock's is refused.
    let before = g.clone();
    assert_eq!(g.undo(t(21), one, 1), Err(RoomError::NothingToUndo));
    assert_eq!(g, before);
    g.undo(t(22), start.clone(), 1).unwrap();
    assert_eq!(g.state(), &start);
    assert_eq!(g.clock().remaining(0, t(22)), Some(Span::from_secs(60)));
}

#[test]
fn parts_with_the_wrong_clock_are_refused() {
    let g = ten_a_move(9, 2);
    let back = TimedGame::from_parts(
        1,
        g.state().clone(),
        g.clock().clone(),
        g.turn_version(),
        g.result(),
    )
    .unwrap();
    assert_eq!(back, g);
    assert_eq!(
        TimedGame::from_parts(
            1,
            Nim::new(9, 2),
            Clock::new(TimeControl::Unlimited, 1),
            0,
            None
        ),
        Err(SnapshotError::SeatCount {
            what: "the clock",
            found: 1,
            seats: 2
        })
    );
}

#[test]
fn a_rooms_serde_form_keeps_the_games_fields_at_the_table() {
    let room = Room::online(
        t(0),
        &[PlayerId(1), PlayerId(2)],
        RoomSettings::ONLINE,
        Nim::new(9, 2),
    )
    .unwrap();
    let json = serde_json::to_value(&room).unwrap();
    let table = json["table"].as_object().unwrap();
    let mut keys: Vec<&str> = table.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "auto_paused",
            "clock",
            "host_paused",
            "limit_at",
            "number",
            "result",
            "started_at",
            "state",
            "turn_version"
        ]
    );
    let back: Room<Nim> = serde_json::from_value(json).unwrap();
    assert_eq!(back, room);
}
