//! The rematch of a finished online game: the rule ([`RematchOffer`]) and the lobby's use of it
//! ([`Lobby::rematch`]), its events, its end, and its place in the lobby's snapshots.

#[allow(dead_code)]
#[path = "common/nim.rs"]
mod nim;

use nim::Nim;
use reversi_clock::Millis;
use reversi_room::{
    Activity, Lobby, LobbyEventKind, LobbySnapshot, PlayerId, QueueOutcome, RematchOffer,
    RematchOutcome, RematchSnapshot, RematchState, RematchStep, RoomError, RoomId, SnapshotError,
};
use serde_json::Value;

fn t(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

fn lobby() -> Lobby<Nim> {
    Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [3; 32])
}

/// Two guests who played a game in `room`, ended by `a`'s resignation, events drained.
fn finished(lobby: &mut Lobby<Nim>) -> (PlayerId, PlayerId, RoomId) {
    let (a, _) = lobby.add_guest(t(0));
    let (b, _) = lobby.add_guest(t(0));
    lobby.queue(t(0), a, "nim").unwrap();
    let QueueOutcome::Matched { room } = lobby.queue(t(0), b, "nim").unwrap() else {
        panic!("no match")
    };
    lobby.resign(t(1), a).unwrap();
    drain(lobby);
    (a, b, room)
}

fn drain(lobby: &mut Lobby<Nim>) -> Vec<LobbyEventKind<u32>> {
    std::iter::from_fn(|| lobby.poll_event())
        .map(|e| e.kind)
        .collect()
}

/// Refused with `want`, and the lobby unchanged.
#[track_caller]
fn refused(lobby: &mut Lobby<Nim>, now: Millis, p: PlayerId, room: RoomId, want: RoomError) {
    lobby.handle_timeout(now);
    let before = lobby.clone();
    assert_eq!(lobby.rematch(now, p, room), Err(want));
    assert_eq!(*lobby, before, "a refused rematch changed the lobby");
}

#[test]
fn the_rule_offers_accepts_and_is_spent() {
    let (a, b, room) = (PlayerId(1), PlayerId(2), RoomId(9));
    let mut offer = RematchOffer::new(room, [a, b]).unwrap();
    assert_eq!(offer.state(), RematchState::Open);
    assert_eq!(
        offer.offer(PlayerId(3)),
        Err(RoomError::NotRematchPlayer {
            player: PlayerId(3),
            room
        })
    );
    assert_eq!(
        offer.state(),
        RematchState::Open,
        "a refusal changes nothing"
    );
    assert_eq!(offer.offer(a), Ok(RematchStep::Offered { to: b }));
    assert_eq!(
        offer.offer(a),
        Err(RoomError::RematchOffered { player: a, room })
    );
    assert_eq!(offer.state(), RematchState::Offered { by: a });
    assert_eq!(offer.offer(b), Ok(RematchStep::Accepted { offerer: a }));
    assert_eq!(offer.state(), RematchState::Spent);
    for p in [a, b] {
        assert_eq!(offer.offer(p), Err(RoomError::RematchSpent { room }));
    }
    // Either player may offer first.
    let mut other = RematchOffer::new(room, [a, b]).unwrap();
    assert_eq!(other.offer(b), Ok(RematchStep::Offered { to: a }));
    assert_eq!(other.offer(a), Ok(RematchStep::Accepted { offerer: b }));
    assert_eq!(
        RematchOffer::new(room, [a, a]),
        Err(RoomError::WrongPlayerCount {
            seats: 2,
            players: 1
        })
    );
}

#[test]
fn the_rule_serialises_and_refuses_what_does_not_hold_together() {
    let mut offer = RematchOffer::new(RoomId(4), [PlayerId(1), PlayerId(2)]).unwrap();
    for _ in 0..3 {
        let text = serde_json::to_string(&offer).unwrap();
        assert_eq!(serde_json::from_str::<RematchOffer>(&text).unwrap(), offer);
        let _ = offer
            .offer(PlayerId(1))
            .or_else(|_| offer.offer(PlayerId(2)));
    }
    assert_eq!(offer.state(), RematchState::Spent);
    for bad in [
        r#"{"room":4,"players":[1,1],"state":"open"}"#,
        r#"{"room":4,"players":[1,2],"state":{"offered":{"by":3}}}"#,
        r#"{"room":4,"players":[1,2],"state":"gone"}"#,
    ] {
        assert!(serde_json::from_str::<RematchOffer>(bad).is_err(), "{bad}");
    }
}

#[test]
fn an_offer_goes_to_the_opponent_and_its_acceptance_starts_a_new_game() {
    let mut lobby = lobby();
    let (a, b, room) = finished(&mut lobby);
    assert_eq!(lobby.activity(a), Some(&Activity::Idle));
    let offer = lobby.rematch_offer(room).copied().unwrap();
    assert_eq!(offer.state(), RematchState::Open);
    assert!(offer.players().contains(&a) && offer.players().contains(&b));
    // The finished room may be removed: the rematch stays.
    lobby.remove_room(room).unwrap();
    assert_eq!(
        lobby.rematch(t(2), b, room),
        Ok(RematchOutcome::Offered { to: a })
    );
    assert_eq!(
        drain(&mut lobby),
        [LobbyEventKind::RematchOffered { room, by: b, to: a }]
    );
    let Ok(RematchOutcome::Started { room: again }) = lobby.rematch(t(3), a, room) else {
        panic!("not started")
    };
    assert_ne!(again, room);
    assert_eq!(lobby.room_of(a), Some(again));
    assert_eq!(lobby.room_of(b), Some(again));
    let events = drain(&mut lobby);
    let LobbyEventKind::Matched {
        room: r,
        kind,
        seats,
        invite,
        rematch_of,
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!((*r, kind.as_str()), (again, "nim"));
    assert_eq!(*invite, None);
    assert_eq!(*rematch_of, Some(room));
    let mut players = seats.clone();
    players.sort();
    assert_eq!(players, [a, b]);
    assert!(lobby.room(again).unwrap().in_game());
    // Used up: the lobby forgets it.
    assert_eq!(lobby.rematch_offer(room), None);
    refused(&mut lobby, t(4), b, room, RoomError::NoRematch { room });
}

#[test]
fn colours_of_rematches_are_drawn() {
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..16u8 {
        let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [seed; 32]);
        let (a, b, room) = finished(&mut lobby);
        lobby.rematch(t(2), a, room).unwrap();
        let Ok(RematchOutcome::Started { room: again }) = lobby.rematch(t(3), b, room) else {
            panic!("not started")
        };
        firsts.insert(lobby.room(again).unwrap().seat_of(a) == Some(0));
    }
    assert_eq!(
        firsts.len(),
        2,
        "the offerer is not always first, nor always second"
    );
}

#[test]
fn double_offers_strangers_games_on_and_unknown_rooms_are_refused() {
    let mut lobby = lobby();
    let (a, b, room) = finished(&mut lobby);
    let (c, _) = lobby.add_guest(t(1));
    refused(
        &mut lobby,
        t(2),
        c,
        room,
        RoomError::NotRematchPlayer { player: c, room },
    );
    refused(
        &mut lobby,
        t(2),
        a,
        RoomId(77),
        RoomError::NoRematch { room: RoomId(77) },
    );
    lobby.rematch(t(2), a, room).unwrap();
    refused(
        &mut lobby,
        t(3),
        a,
        room,
        RoomError::RematchOffered { player: a, room },
    );
    // A game still going has no rematch.
    let (d, _) = lobby.add_guest(t(3));
    lobby.queue(t(3), c, "nim").unwrap();
    lobby.queue(t(3), d, "nim").unwrap();
    let going = lobby.room_of(c).unwrap();
    refused(
        &mut lobby,
        t(4),
        c,
        going,
        RoomError::NoRematch { room: going },
    );
    // b is refused while busy, and the offer stays.
    lobby.queue(t(4), b, "nim").unwrap();
    refused(
        &mut lobby,
        t(5),
        b,
        room,
        RoomError::AlreadyWaiting { player: b },
    );
    lobby.cancel_queue(t(5), b).unwrap();
    assert_eq!(
        lobby.rematch_offer(room).unwrap().state(),
        RematchState::Offered { by: a }
    );
}

#[test]
fn accepting_while_the_offerer_is_busy_is_refused_and_the_offer_stays() {
    let mut lobby = lobby();
    let (a, b, room) = finished(&mut lobby);
    lobby.rematch(t(2), a, room).unwrap();
    lobby.create_invite(t(3), a, "nim").unwrap();
    refused(
        &mut lobby,
        t(4),
        b,
        room,
        RoomError::RematchOpponentBusy { room, opponent: a },
    );
    lobby.cancel_invite(t(5), a).unwrap();
    lobby.disconnect(t(5), a).unwrap();
    refused(
        &mut lobby,
        t(6),
        b,
        room,
        RoomError::RematchOpponentBusy { room, opponent: a },
    );
    let token = lobby.snapshot().guests[0].token.clone();
    assert_eq!(lobby.reconnect(t(7), &token), Ok(a));
    assert!(matches!(
        lobby.rematch(t(8), b, room),
        Ok(RematchOutcome::Started { .. })
    ));
}

#[test]
fn a_rematch_ends_when_a_player_leaves_or_is_forgotten() {
    let mut lobby = lobby();
    let (a, b, room) = finished(&mut lobby);
    lobby.rematch(t(2), a, room).unwrap();
    lobby.leave(t(3), b).unwrap();
    assert_eq!(lobby.rematch_offer(room), None);
    refused(&mut lobby, t(4), a, room, RoomError::NoRematch { room });

    // Forgotten after the grace of a disconnected guest.
    let (c, d, room) = finished(&mut lobby);
    assert!(lobby.rematch_offer(room).is_some());
    lobby.disconnect(t(10), c).unwrap();
    lobby.handle_timeout(t(10 + 61));
    assert_eq!(lobby.activity(c), None);
    assert_eq!(lobby.rematch_offer(room), None);
    assert_eq!(lobby.rematch_offers().count(), 0);
    refused(&mut lobby, t(80), d, room, RoomError::NoRematch { room });
}

#[test]
fn a_game_abandoned_by_leaving_has_no_rematch() {
    let mut lobby = lobby();
    let (a, _) = lobby.add_guest(t(0));
    let (b, _) = lobby.add_guest(t(0));
    lobby.queue(t(0), a, "nim").unwrap();
    lobby.queue(t(0), b, "nim").unwrap();
    let room = lobby.room_of(a).unwrap();
    lobby.leave(t(1), a).unwrap();
    assert!(lobby.room(room).unwrap().result().is_some());
    assert_eq!(lobby.rematch_offers().count(), 0);
    refused(&mut lobby, t(2), b, room, RoomError::NoRematch { room });
}

#[test]
fn rematches_are_in_the_snapshot_and_the_serde_form() {
    let mut lobby = lobby();
    let (a, _b, room) = finished(&mut lobby);
    let (_c, _d, room2) = finished(&mut lobby);
    lobby.rematch(t(2), a, room).unwrap();
    drain(&mut lobby);
    let snapshot = lobby.snapshot();
    assert_eq!(snapshot.rematches.len(), 2);
    assert_eq!(snapshot.rematches[0].offer.room(), room);
    assert_eq!(snapshot.rematches[1].offer.room(), room2);
    let back = Lobby::from_snapshot(snapshot.clone()).unwrap();
    assert_eq!(back.snapshot(), snapshot);
    assert_eq!(back.rematch_offer(room), lobby.rematch_offer(room));
    // Through JSON, the snapshot and the lobby's own serde form.
    let text = serde_json::to_string(&snapshot).unwrap();
    let read: LobbySnapshot<Nim> = serde_json::from_str(&text).unwrap();
    assert_eq!(read, snapshot);
    let text = serde_json::to_string(&lobby).unwrap();
    assert_eq!(serde_json::from_str::<Lobby<Nim>>(&text).unwrap(), lobby);
    // The loaded lobby goes on: the offer is accepted there.
    let mut back = back;
    let other = back.rematch_offer(room).unwrap().opponent_of(a).unwrap();
    assert!(matches!(
        back.rematch(t(3), other, room),
        Ok(RematchOutcome::Started { .. })
    ));
}

#[test]
fn snapshots_and_saved_lobbies_from_before_rematches_still_load() {
    let mut lobby = lobby();
    let (_a, _b, _room) = finished(&mut lobby);
    // As written before: no `rematches` field.
    let mut old: Value = serde_json::to_value(lobby.snapshot()).unwrap();
    old.as_object_mut().unwrap().remove("rematches").unwrap();
    let read: LobbySnapshot<Nim> = serde_json::from_value(old).unwrap();
    assert!(read.rematches.is_empty());
    let loaded = Lobby::from_snapshot(read).unwrap();
    assert_eq!(loaded.rematch_offers().count(), 0);
    let mut old: Value = serde_json::to_value(&lobby).unwrap();
    old.as_object_mut().unwrap().remove("rematches").unwrap();
    let loaded: Lobby<Nim> = serde_json::from_value(old).unwrap();
    assert_eq!(loaded.rematch_offers().count(), 0);
    // An old `matched` event, without `rematch_of`, reads as no rematch; a new one without a
    // rematch is written as before.
    let old = r#"{"type":"matched","room":1,"kind":"nim","seats":[1,2],"invite":null}"#;
    let e: LobbyEventKind<u32> = serde_json::from_str(old).unwrap();
    assert!(matches!(
        e,
        LobbyEventKind::Matched {
            rematch_of: None,
            ..
        }
    ));
    assert_eq!(
        serde_json::from_str::<Value>(&serde_json::to_string(&e).unwrap()).unwrap(),
        serde_json::from_str::<Value>(old).unwrap()
    );
}

#[test]
fn snapshots_with_rematches_that_do_not_hold_together_are_refused() {
    let mut lobby = lobby();
    let (a, b, room) = finished(&mut lobby);
    let good = lobby.snapshot();
    let refused = |edit: &dyn Fn(&mut LobbySnapshot<Nim>)| {
        let mut s = good.clone();
        edit(&mut s);
        Lobby::from_snapshot(s).unwrap_err()
    };
    let stranger = PlayerId(99);
    let e = refused(&|s| {
        s.rematches[0].offer = RematchOffer::new(room, [a, stranger]).unwrap();
    });
    assert!(e.to_string().contains("not a guest"), "{e}");
    let e = refused(&|s| {
        let mut offer = RematchOffer::new(room, [a, b]).unwrap();
        offer.offer(a).unwrap();
        offer.offer(b).unwrap();
        s.rematches[0].offer = offer;
    });
    assert!(e.to_string().contains("spent"), "{e}");
    let e = refused(&|s| s.rematches.push(s.rematches[0].clone()));
    assert!(e.to_string().contains("two rematches"), "{e}");
    assert_eq!(
        refused(&|s| {
            s.rematches[0].offer = RematchOffer::new(RoomId(50), [a, b]).unwrap();
        }),
        SnapshotError::NumberAhead {
            what: "rematch's room",
            id: 50,
            next: room.0 + 1
        }
    );
    assert!(matches!(
        refused(&|s| s.rematches[0] = RematchSnapshot {
            kind: "chess".into(),
            offer: s.rematches[0].offer
        }),
        SnapshotError::BadKind { .. }
    ));
}

#[test]
fn a_players_next_finished_game_replaces_the_older_offer() {
    let mut lobby = lobby();
    let (a, b, first) = finished(&mut lobby);
    // `a` plays another game against a third guest, which ends too.
    let (c, _) = lobby.add_guest(t(2));
    lobby.queue(t(2), a, "nim").unwrap();
    let QueueOutcome::Matched { room: second } = lobby.queue(t(2), c, "nim").unwrap() else {
        panic!("no match")
    };
    lobby.resign(t(3), c).unwrap();
    drain(&mut lobby);
    assert!(
        lobby.rematch_offer(first).is_none(),
        "the older offer stayed"
    );
    assert!(lobby.rematch_offer(second).is_some());
    assert_eq!(lobby.rematch_offers().count(), 1);
    refused(
        &mut lobby,
        t(4),
        b,
        first,
        RoomError::NoRematch { room: first },
    );
    assert!(matches!(
        lobby.rematch(t(4), c, second),
        Ok(RematchOutcome::Offered { to }) if to == a
    ));
}
