//! Scenario tests on virtual time for online play: matching, invites, colours, the online game's
//! rules, reconnection and stale moves.

#[allow(dead_code)]
#[path = "common/nim.rs"]
mod nim;

use nim::Nim;
use reversi_clock::{Millis, Span};
use reversi_room::{
    Activity, EndReason, EventKind, InviteCode, Lobby, LobbyEventKind, PlayerId, QueueOutcome,
    RoomError, RoomId, SeatOutcome, Token,
};

fn t(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

/// A lobby seed from a number.
fn seed(n: u64) -> [u8; 32] {
    let mut seed = [0; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    seed
}

struct World {
    lobby: Lobby<Nim>,
}

impl World {
    fn new(seed: u64) -> World {
        World {
            lobby: Lobby::new(
                [
                    ("nim".to_owned(), Nim::new(1_000_000, 2)),
                    ("nim-small".to_owned(), Nim::new(5, 2)),
                ],
                self::seed(seed),
            ),
        }
    }

    fn guest(&mut self) -> (PlayerId, Token) {
        self.lobby.add_guest(Millis(0))
    }

    fn queue(&mut self, now: Millis, p: PlayerId, kind: &str) -> Result<QueueOutcome, RoomError> {
        self.lobby.queue(now, p, kind)
    }

    fn matched(&mut self, now: Millis) -> (PlayerId, PlayerId, RoomId) {
        let (a, _) = self.guest();
        let (b, _) = self.guest();
        self.queue(now, a, "nim").unwrap();
        let QueueOutcome::Matched { room } = self.queue(now, b, "nim").unwrap() else {
            panic!("no match")
        };
        let r = self.lobby.room(room).unwrap();
        let first = if r.seat_of(a) == Some(0) { a } else { b };
        let second = if first == a { b } else { a };
        (first, second, room)
    }

    fn act(&mut self, now: Millis, p: PlayerId, take: u32) -> Result<(), RoomError> {
        let room = self.lobby.room_of(p).ok_or(RoomError::NoGameInProgress)?;
        let v = self.lobby.room(room).unwrap().version();
        self.lobby.act(now, p, v, take)
    }

    /// Refused, and the lobby unchanged.
    #[track_caller]
    fn refused<T: std::fmt::Debug>(
        &mut self,
        now: Millis,
        f: impl FnOnce(&mut Lobby<Nim>) -> Result<T, RoomError>,
        want: RoomError,
    ) {
        self.lobby.handle_timeout(now);
        let before = self.lobby.clone();
        assert_eq!(f(&mut self.lobby).unwrap_err(), want);
        assert_eq!(self.lobby, before, "a refused call changed the lobby");
    }

    fn events(&mut self) -> Vec<LobbyEventKind<u32>> {
        std::iter::from_fn(|| self.lobby.poll_event())
            .map(|e| e.kind)
            .collect()
    }
}

#[test]
fn random_matching_pairs_two_guests_waiting_for_the_same_game() {
    let mut w = World::new(1);
    let (a, _) = w.guest();
    let (b, _) = w.guest();
    let (c, _) = w.guest();
    assert_eq!(
        w.queue(t(0), a, "nim").unwrap(),
        QueueOutcome::Waiting { until: t(120) }
    );
    // A different game does not match.
    assert!(matches!(
        w.queue(t(1), b, "nim-small").unwrap(),
        QueueOutcome::Waiting { .. }
    ));
    let QueueOutcome::Matched { room } = w.queue(t(2), c, "nim").unwrap() else {
        panic!()
    };
    assert_eq!(w.lobby.room_of(a), Some(room));
    assert_eq!(w.lobby.room_of(c), Some(room));
    assert_eq!(w.lobby.room_kind(room), Some("nim"));
    assert!(matches!(
        w.lobby.activity(b),
        Some(Activity::Waiting { .. })
    ));
    let r = w.lobby.room(room).unwrap();
    assert!(r.in_game());
    assert_eq!(r.host(), None);
    w.refused(
        t(3),
        |l| l.queue(t(3), a, "chess"),
        RoomError::MustResignFirst { player: a, room },
    );
    let (d, _) = w.guest();
    w.refused(
        t(3),
        |l| l.queue(t(3), d, "chess"),
        RoomError::UnknownGameKind {
            kind: "chess".into(),
        },
    );
    w.refused(
        t(3),
        |l| l.queue(t(3), b, "nim"),
        RoomError::AlreadyWaiting { player: b },
    );
}

#[test]
fn a_wait_expires_after_two_minutes_and_can_be_cancelled() {
    let mut w = World::new(2);
    let (a, _) = w.guest();
    let (b, _) = w.guest();
    w.queue(t(10), a, "nim").unwrap();
    assert_eq!(w.lobby.poll_timeout(), Some(t(130)));
    w.lobby.handle_timeout(t(129));
    assert!(matches!(
        w.lobby.activity(a),
        Some(Activity::Waiting { .. })
    ));
    w.lobby.handle_timeout(t(130));
    assert_eq!(w.lobby.activity(a), Some(&Activity::Idle));
    assert!(w
        .events()
        .contains(&LobbyEventKind::WaitExpired { player: a }));
    // An expired wait matches no one.
    assert!(matches!(
        w.queue(t(131), b, "nim").unwrap(),
        QueueOutcome::Waiting { .. }
    ));
    w.lobby.cancel_queue(t(132), b).unwrap();
    assert_eq!(w.lobby.activity(b), Some(&Activity::Idle));
    w.refused(
        t(133),
        |l| l.cancel_queue(t(133), b),
        RoomError::NotWaiting { player: b },
    );
    // A cancelled wait matches no one either.
    assert!(matches!(
        w.queue(t(134), a, "nim").unwrap(),
        QueueOutcome::Waiting { .. }
    ));
}

#[test]
fn invite_codes_are_short_unambiguous_and_have_a_link_form() {
    // 1,000 guests each open an invite.
    let codes = |n: u64| {
        let mut w = World::new(n);
        (0..1_000)
            .map(|_| {
                let (p, _) = w.guest();
                w.lobby.create_invite(t(0), p, "nim").unwrap()
            })
            .collect::<Vec<_>>()
    };
    let mut seen = std::collections::BTreeSet::new();
    for code in codes(3) {
        assert_eq!(code.as_str().len(), 8);
        assert!(code
            .as_str()
            .chars()
            .all(|c| !"0O1ILU".contains(c) && c.is_ascii_alphanumeric()));
        assert_eq!(
            InviteCode::from_link(&code.link("https://example.invalid")).unwrap(),
            code
        );
        seen.insert(code);
    }
    assert_eq!(seen.len(), 1_000);
    // The same seed gives the same codes; another seed, others.
    assert_eq!(codes(4), codes(4));
    assert_ne!(codes(4)[..4], codes(5)[..4]);
    assert_eq!(
        "ABC".parse::<InviteCode>(),
        Err(RoomError::BadInviteCode {
            input: "ABC".into()
        })
    );
}

#[test]
fn an_invite_is_joined_once_and_unknown_expired_cancelled_or_full_codes_get_typed_errors() {
    let mut w = World::new(5);
    let (a, _) = w.guest();
    let (b, _) = w.guest();
    let (c, _) = w.guest();
    let code = w.lobby.create_invite(t(0), a, "nim").unwrap();
    assert_eq!(
        w.lobby.activity(a),
        Some(&Activity::Inviting { code: code.clone() })
    );
    w.refused(
        t(1),
        |l| l.join_invite(t(1), a, &code),
        RoomError::InviteOpen {
            player: a,
            code: code.clone(),
        },
    );
    let unknown: InviteCode = "22222222".parse().unwrap();
    w.refused(
        t(1),
        |l| l.join_invite(t(1), b, &unknown),
        RoomError::UnknownInvite {
            code: unknown.clone(),
        },
    );
    let room = w.lobby.join_invite(t(2), b, &code).unwrap();
    assert_eq!(w.lobby.room_of(a), Some(room));
    assert!(w.events().iter().any(|e| matches!(
        e,
        LobbyEventKind::Matched { invite: Some(i), .. } if *i == code
    )));
    w.refused(
        t(3),
        |l| l.join_invite(t(3), c, &code),
        RoomError::InviteFull { code: code.clone() },
    );

    // Expiry after 10 minutes without an opponent.
    let (d, _) = w.guest();
    let code2 = w.lobby.create_invite(t(10), d, "nim").unwrap();
    w.lobby.handle_timeout(t(609));
    assert!(w
        .lobby
        .activity(d)
        .is_some_and(|a| matches!(a, Activity::Inviting { .. })));
    w.lobby.handle_timeout(t(610));
    assert_eq!(w.lobby.activity(d), Some(&Activity::Idle));
    w.refused(
        t(611),
        |l| l.join_invite(t(611), c, &code2),
        RoomError::InviteExpired {
            code: code2.clone(),
        },
    );

    // Cancel.
    let code3 = w.lobby.create_invite(t(700), d, "nim").unwrap();
    w.refused(
        t(701),
        |l| l.cancel_invite(t(701), c),
        RoomError::NoOpenInvite { player: c },
    );
    w.lobby.cancel_invite(t(701), d).unwrap();
    w.refused(
        t(702),
        |l| l.join_invite(t(702), c, &code3),
        RoomError::InviteCancelled {
            code: code3.clone(),
        },
    );
    // Joining one's own invite: while it is open its creator is busy inviting (InviteOpen, as
    // for `a` above); once cancelled, it is refused as cancelled like anyone else's.
    let code4 = w.lobby.create_invite(t(800), d, "nim").unwrap();
    w.lobby.cancel_invite(t(800), d).unwrap();
    w.refused(
        t(800),
        |l| l.join_invite(t(800), d, &code4),
        RoomError::InviteCancelled {
            code: code4.clone(),
        },
    );
    // Fresh codes differ.
    let code5 = w.lobby.create_invite(t(801), c, "nim").unwrap();
    assert_ne!(code4, code5);
    w.lobby.cancel_invite(t(801), c).unwrap();
}

#[test]
fn a_closed_invite_is_forgotten_one_lifetime_after_its_expiry() {
    let mut w = World::new(6);
    let (a, _) = w.guest();
    let (b, _) = w.guest();
    let (c, _) = w.guest();
    // Used at 1 s; it would have expired at 601 s; forgotten at 1 201 s.
    let code = w.lobby.create_invite(t(1), a, "nim").unwrap();
    w.lobby.join_invite(t(1), b, &code).unwrap();
    w.refused(
        t(1_200),
        |l| l.join_invite(t(1_200), c, &code),
        RoomError::InviteFull { code: code.clone() },
    );
    w.lobby.handle_timeout(t(1_201));
    w.refused(
        t(1_201),
        |l| l.join_invite(t(1_201), c, &code),
        RoomError::UnknownInvite { code: code.clone() },
    );
    assert!(w.lobby.snapshot().invites.is_empty());
}

#[test]
fn own_invite_is_refused() {
    let mut w = World::new(6);
    let (a, _) = w.guest();
    let code = w.lobby.create_invite(t(0), a, "nim").unwrap();
    w.lobby.cancel_invite(t(0), a).unwrap();
    let code2 = w.lobby.create_invite(t(0), a, "nim").unwrap();
    assert_ne!(code, code2);
    // `a` is inviting, so it is refused as busy before the code is looked at; the rule that
    // matters is that nobody plays themselves, checked for an idle guest holding a code it
    // created earlier.
    w.refused(
        t(1),
        |l| l.join_invite(t(1), a, &code2),
        RoomError::InviteOpen {
            player: a,
            code: code2.clone(),
        },
    );
}

#[test]
fn colours_are_drawn_from_the_injected_source() {
    let mut first_seats = std::collections::BTreeSet::new();
    for seed in 0..32 {
        let mut w = World::new(seed);
        let (a, _) = w.guest();
        let (b, _) = w.guest();
        w.queue(t(0), a, "nim").unwrap();
        let QueueOutcome::Matched { room } = w.queue(t(0), b, "nim").unwrap() else {
            panic!()
        };
        let seat = w.lobby.room(room).unwrap().seat_of(a).unwrap();
        first_seats.insert(seat);
        // Deterministic for a seed.
        let mut w2 = World::new(seed);
        let (a2, _) = w2.guest();
        let (b2, _) = w2.guest();
        w2.queue(t(0), a2, "nim").unwrap();
        let QueueOutcome::Matched { room: room2 } = w2.queue(t(0), b2, "nim").unwrap() else {
            panic!()
        };
        assert_eq!(w2.lobby.room(room2).unwrap().seat_of(a2), Some(seat));
    }
    assert_eq!(first_seats.len(), 2, "both colours occur");
}

#[test]
fn an_online_game_gives_30_s_a_move_and_a_late_move_loses() {
    let mut w = World::new(7);
    let (first, second, room) = w.matched(t(0));
    w.act(t(29), first, 1).unwrap();
    assert_eq!(w.lobby.room(room).unwrap().action_deadline(), Some(t(59)));
    // The move arrives 1 ms after the deadline: the server judges it late.
    let late = t(59) + Span(1);
    let v = w.lobby.room(room).unwrap().version();
    assert_eq!(
        w.lobby.act(late, second, v, 1),
        Err(RoomError::NoGameInProgress)
    );
    let r = w.lobby.room(room).unwrap();
    let result = r.result().unwrap();
    assert_eq!(result.reason, EndReason::Timeout { seat: 1 });
    assert_eq!(result.outcome, SeatOutcome::Winner(0));
    assert_eq!(result.at, t(59));
    assert!(r.closed().is_some());
    // Both are free again.
    assert_eq!(w.lobby.activity(first), Some(&Activity::Idle));
    assert_eq!(w.lobby.activity(second), Some(&Activity::Idle));
}

#[test]
fn an_online_game_ends_by_count_at_two_hours() {
    let mut w = World::new(8);
    let (first, second, room) = w.matched(t(0));
    let mut now = t(0);
    let mut turn = 0;
    // Every 25 s a move; the first player takes 2, the second 1.
    while w.lobby.room_of(first).is_some() {
        now = now + Span::from_secs(25);
        let (p, take) = if turn % 2 == 0 {
            (first, 2)
        } else {
            (second, 1)
        };
        match w.act(now, p, take) {
            Ok(()) => {}
            Err(RoomError::NoGameInProgress) => break,
            Err(e) => panic!("{e}"),
        }
        turn += 1;
    }
    let result = w.lobby.room(room).unwrap().result().unwrap();
    assert_eq!(result.reason, EndReason::TimeLimit);
    assert_eq!(result.outcome, SeatOutcome::Winner(0)); // took more "discs"
    assert_eq!(result.at, t(7_200));
    assert_eq!(result.reason.to_string(), "time limit");
}

#[test]
fn resign_is_allowed_and_needed_before_another_game() {
    let mut w = World::new(9);
    let (first, second, room) = w.matched(t(0));
    w.refused(
        t(1),
        |l| l.create_invite(t(1), first, "nim"),
        RoomError::MustResignFirst {
            player: first,
            room,
        },
    );
    w.lobby.resign(t(2), second).unwrap();
    let result = w.lobby.room(room).unwrap().result().unwrap();
    assert_eq!(
        (result.outcome, result.reason),
        (SeatOutcome::Winner(0), EndReason::Resigned { seat: 1 })
    );
    w.refused(
        t(3),
        |l| l.resign(t(3), second),
        RoomError::NoGameInProgress,
    );
    assert!(w.lobby.create_invite(t(3), first, "nim").is_ok());
    assert!(w.queue(t(3), second, "nim").is_ok());
}

#[test]
fn reconnection_within_60_s_with_the_token_goes_on() {
    let mut w = World::new(10);
    let (a, ta) = w.guest();
    let (b, _) = w.guest();
    w.queue(t(0), a, "nim").unwrap();
    let QueueOutcome::Matched { room } = w.queue(t(0), b, "nim").unwrap() else {
        panic!()
    };
    // `a` disconnects while the opponent is to move, and comes back with its token at 50 s.
    let first = if w.lobby.room(room).unwrap().seat_of(a) == Some(0) {
        a
    } else {
        b
    };
    if first == a {
        w.act(t(1), a, 1).unwrap();
    }
    w.lobby.disconnect(t(2), a).unwrap();
    w.refused(
        t(3),
        |l| l.disconnect(t(3), a),
        RoomError::Disconnected { player: a },
    );
    w.refused(
        t(3),
        |l| l.reconnect(t(3), &Token::from("0123".to_owned())),
        RoomError::WrongToken,
    );
    // The opponent moves meanwhile; `a`'s clock runs while it is away.
    w.act(t(20), b, 1).unwrap();
    assert_eq!(w.lobby.room(room).unwrap().action_deadline(), Some(t(50)));
    assert_eq!(w.lobby.reconnect(t(45), &ta), Ok(a));
    w.refused(
        t(46),
        |l| l.reconnect(t(46), &ta),
        RoomError::AlreadyConnected { player: a },
    );
    w.act(t(49), a, 1).unwrap();
    assert!(w.lobby.room(room).unwrap().in_game());
}

#[test]
fn past_60_s_away_the_game_is_lost_by_disconnection() {
    let mut w = World::new(11);
    let (first, second, room) = w.matched(t(0));
    // `second` disconnects right after moving... first moves at 1 s, second at 2 s.
    w.act(t(1), first, 1).unwrap();
    w.act(t(2), second, 1).unwrap();
    w.lobby.disconnect(t(3), second).unwrap();
    // First keeps moving within 30 s; second's turns... it is second's turn at 4 s with a
    // deadline of 34 s, before its 63 s grace: the 30 s ran out first.
    w.act(t(4), first, 1).unwrap();
    w.lobby.handle_timeout(t(100));
    let result = w.lobby.room(room).unwrap().result().unwrap();
    assert_eq!(result.reason, EndReason::Timeout { seat: 1 });

    // Now one who is away while the opponent thinks: the opponent does not move either, so the
    // opponent's own deadline falls first. To see the disconnection rule, the opponent moves
    // just in time, twice, and the away player's turn would end after its grace.
    let mut w = World::new(12);
    let (first, second, room) = w.matched(t(0));
    w.lobby.disconnect(t(0), second).unwrap();
    w.act(t(29), first, 1).unwrap(); // second to move by 59 s; grace ends at 60 s
    w.lobby.handle_timeout(t(100));
    let result = w.lobby.room(room).unwrap().result().unwrap();
    assert_eq!(result.reason, EndReason::Timeout { seat: 1 });

    let mut w = World::new(13);
    let (first, second, room) = w.matched(t(0));
    w.act(t(1), first, 1).unwrap();
    w.act(t(30), second, 1).unwrap(); // first to move by 60 s
    w.lobby.disconnect(t(30), second).unwrap(); // grace ends at 90 s
    w.act(t(59), first, 1).unwrap(); // second to move by 89 s, before 90 s
    w.lobby.handle_timeout(t(200));
    assert_eq!(
        w.lobby.room(room).unwrap().result().unwrap().reason,
        EndReason::Timeout { seat: 1 }
    );
}

#[test]
fn loss_by_disconnection_when_the_grace_ends_during_the_opponents_turn() {
    // A lobby whose games give 90 s an action, so that a 60 s grace can end within one turn.
    let settings = reversi_room::LobbySettings::default()
        .with_room(reversi_room::RoomSettings::ONLINE.with_action_limit(Span::from_secs(90)));
    let mut lobby =
        Lobby::with_settings(settings, [("nim".to_owned(), Nim::new(100, 2))], seed(15));
    let (a, _) = lobby.add_guest(t(0));
    let (b, tb) = lobby.add_guest(t(0));
    lobby.queue(t(0), a, "nim").unwrap();
    let QueueOutcome::Matched { room } = lobby.queue(t(0), b, "nim").unwrap() else {
        panic!()
    };
    let b_seat = lobby.room(room).unwrap().seat_of(b).unwrap();
    if b_seat == 0 {
        let v = lobby.room(room).unwrap().version();
        lobby.act(t(1), b, v, 1).unwrap();
    }
    lobby.disconnect(t(2), b).unwrap(); // a to move by 91 s at the latest; b's grace ends at 62 s
    lobby.handle_timeout(t(62));
    let result = lobby.room(room).unwrap().result().unwrap();
    assert_eq!(
        (result.reason, result.outcome, result.at),
        (
            EndReason::Disconnected { seat: b_seat },
            SeatOutcome::Winner(1 - b_seat),
            t(62)
        )
    );
    // The token no longer brings b back into that game.
    lobby.handle_timeout(t(200));
    assert_eq!(lobby.reconnect(t(200), &tb), Err(RoomError::WrongToken));
}

#[test]
fn an_idle_disconnected_guest_is_forgotten_after_60_s_and_a_wait_is_cancelled() {
    let mut w = World::new(16);
    let (a, ta) = w.guest();
    w.queue(t(0), a, "nim").unwrap();
    w.lobby.disconnect(t(1), a).unwrap();
    assert_eq!(w.lobby.activity(a), Some(&Activity::Idle));
    assert_eq!(w.lobby.reconnect(t(30), &ta), Ok(a));
    w.lobby.disconnect(t(40), a).unwrap();
    w.lobby.handle_timeout(t(100));
    assert_eq!(w.lobby.activity(a), None);
    assert_eq!(w.lobby.reconnect(t(101), &ta), Err(RoomError::WrongToken));
}

#[test]
fn stale_or_duplicate_online_moves_are_rejected() {
    let mut w = World::new(17);
    let (first, second, room) = w.matched(t(0));
    let v = w.lobby.room(room).unwrap().version();
    w.lobby.act(t(1), first, v, 1).unwrap();
    let v2 = w.lobby.room(room).unwrap().version();
    w.lobby.act(t(2), second, v2, 1).unwrap();
    // The first player's first move arrives again, on its old version.
    let turn = w.lobby.room(room).unwrap().turn_version().unwrap();
    let current = w.lobby.room(room).unwrap().version();
    w.refused(
        t(3),
        |l| l.act(t(3), first, v, 1),
        RoomError::StaleVersion {
            got: v,
            turn,
            current,
        },
    );
    assert_eq!(
        w.lobby.room(room).unwrap().game().unwrap().pile(),
        1_000_000 - 2
    );
}

#[test]
fn leaving_mid_game_loses_and_events_name_the_room() {
    let mut w = World::new(18);
    let (first, second, room) = w.matched(t(0));
    w.events();
    w.lobby.leave(t(5), first).unwrap();
    let events = w.events();
    assert!(events.iter().any(|e| matches!(
        e,
        LobbyEventKind::Room { room: r, event } if *r == room && matches!(
            event.kind,
            EventKind::GameEnded { result } if result.reason == EndReason::Abandoned { seat: 0 }
                && result.outcome == SeatOutcome::Winner(1)
        )
    )));
    assert_eq!(
        events.last(),
        Some(&LobbyEventKind::GuestLeft { player: first })
    );
    assert_eq!(w.lobby.activity(second), Some(&Activity::Idle));
    assert_eq!(w.lobby.activity(first), None);
    w.refused(
        t(6),
        |l| l.leave(t(6), first),
        RoomError::NotInRoom { player: first },
    );
    // The closed room can be forgotten once recorded.
    assert!(w.lobby.remove_room(room).is_ok());
    assert_eq!(
        w.lobby.remove_room(room).unwrap_err(),
        RoomError::NoSuchRoom { room }
    );
}

#[test]
fn the_lobby_round_trips_through_serde() {
    let mut w = World::new(19);
    let (first, _second, room) = w.matched(t(0));
    w.act(t(1), first, 3).unwrap();
    let (c, _) = w.guest();
    w.lobby.create_invite(t(2), c, "nim").unwrap();
    let json = serde_json::to_string(&w.lobby).unwrap();
    let back: Lobby<Nim> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, w.lobby);
    assert_eq!(back.room(room).unwrap().game().unwrap().pile(), 999_997);
}

#[test]
#[should_panic(expected = "two-seat")]
fn a_lobby_refuses_a_game_kind_without_two_seats_when_it_is_made() {
    // Matching pairs two guests: a three-seat kind could never be filled, and must not wait
    // for a guest's queue command to be found out.
    let _ = Lobby::new(
        [
            ("nim".to_owned(), Nim::new(5, 2)),
            ("nim-3".to_owned(), Nim::new(5, 3)),
        ],
        seed(0),
    );
}

#[test]
fn a_saved_lobby_with_a_game_kind_without_two_seats_does_not_load() {
    let lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], seed(0));
    let mut json = serde_json::to_value(&lobby).unwrap();
    json["kinds"]["nim"]["taken"] = serde_json::json!([0, 0, 0]);
    let err = serde_json::from_value::<Lobby<Nim>>(json).unwrap_err();
    assert!(err.to_string().contains("two-seat"), "{err}");
}

#[test]
fn tokens_are_128_random_bits_from_the_lobby_generator() {
    let tokens = |n: u64| {
        let mut w = World::new(n);
        (0..500).map(|_| w.guest().1).collect::<Vec<_>>()
    };
    let a = tokens(1);
    for t in &a {
        assert_eq!(t.as_str().len(), 32);
        assert!(t
            .as_str()
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    }
    assert_eq!(
        a.iter().collect::<std::collections::BTreeSet<_>>().len(),
        500
    );
    // Every one of the 128 bits varies from token to token.
    let bits = |t: &Token| u128::from_str_radix(t.as_str(), 16).unwrap();
    let (mut ones, mut zeros) = (0u128, 0u128);
    for t in &a {
        ones |= bits(t);
        zeros |= !bits(t);
    }
    assert_eq!((ones, zeros), (u128::MAX, u128::MAX));
    // A seed decides them all: the same seed, the same tokens; another, others.
    assert_eq!(tokens(1), a);
    assert!(tokens(2).iter().all(|t| !a.contains(t)));
}

#[test]
fn a_saved_and_loaded_lobby_draws_what_the_original_would_have() {
    let mut w = World::new(8);
    let (a, _) = w.guest();
    w.lobby.create_invite(t(1), a, "nim").unwrap();
    let json = serde_json::to_string(&w.lobby).unwrap();
    let mut loaded: Lobby<Nim> = serde_json::from_str(&json).unwrap();
    assert_eq!(loaded, w.lobby);
    // The generator's state was saved with the rest: the same tokens, codes and colours follow.
    for i in 0..20 {
        let (p, token) = w.lobby.add_guest(t(2));
        assert_eq!(loaded.add_guest(t(2)), (p, token));
        if i % 2 == 0 {
            let code = w.lobby.create_invite(t(3), p, "nim").unwrap();
            assert_eq!(loaded.create_invite(t(3), p, "nim").unwrap(), code);
        }
    }
    let (b, _) = w.lobby.add_guest(t(4));
    loaded.add_guest(t(4));
    w.lobby.queue(t(5), b, "nim-small").unwrap();
    loaded.queue(t(5), b, "nim-small").unwrap();
    assert_eq!(loaded, w.lobby);
    // Its Debug form shows neither the generator nor the tokens.
    let debug = format!("{:?}", w.lobby);
    assert!(debug.contains("LobbyRng(…)"));
    assert!(!debug.contains(w.guest().1.as_str()));
}
