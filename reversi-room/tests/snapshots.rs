//! Snapshots: random rooms and lobbies saved and restored at a random step go on exactly as the
//! originals (same results, same events, same snapshots), every snapshot reads back as itself,
//! and damaged snapshots are refused with a reason, never with a panic.

#[allow(dead_code)]
#[path = "common/nim.rs"]
mod nim;

use nim::Nim;

use proptest::prelude::*;
use reversi_clock::{Millis, Span};
use reversi_room::{
    ClockPhase, Event, InviteCode, Lobby, LobbyEvent, LobbySnapshot, MemberSnapshot, Occupant,
    PlayerId, Room, RoomActionLimit, RoomCommand, RoomError, RoomId, RoomSettings, RoomSnapshot,
    SnapshotError, Token, SNAPSHOT_FORMAT,
};
use serde_json::Value;

// ---- rooms ----

#[derive(Debug, Clone)]
enum Step {
    /// A person's command: `what` picks it, `seat` a seat where one is named.
    Person {
        p: u64,
        what: u8,
        seat: usize,
    },
    /// The bot to act plays a legal take.
    BotPlays,
    /// The person to act plays a legal take (on a version `back` behind, to be refused too).
    PersonPlays {
        back: u64,
    },
    /// The host seats itself, fills the other seats and starts.
    Setup {
        bot: bool,
    },
    Wait(u64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        10 => (1..5u64, 0..14u8, 0..3usize).prop_map(|(p, what, seat)| Step::Person { p, what, seat }),
        3 => Just(Step::BotPlays),
        6 => prop_oneof![4 => Just(0u64), 1 => 1..3u64].prop_map(|back| Step::PersonPlays { back }),
        2 => any::<bool>().prop_map(|bot| Step::Setup { bot }),
        4 => prop_oneof![0..2_000u64, 0..40_000u64, 0..200_000u64].prop_map(Step::Wait),
    ]
}

fn command(what: u8, seat: usize) -> RoomCommand<u32> {
    match what {
        0 => RoomCommand::Join,
        1 => RoomCommand::Leave,
        2 => RoomCommand::Sit { seat },
        3 => RoomCommand::Stand,
        4 => RoomCommand::AddBot {
            seat,
            level: "bot".into(),
        },
        5 => RoomCommand::RemoveBot,
        6 => RoomCommand::ReserveBotSeat,
        7 => RoomCommand::Start,
        8 => RoomCommand::Pause,
        9 => RoomCommand::Resume,
        10 => RoomCommand::End,
        11 => RoomCommand::Resign,
        12 => RoomCommand::Disconnect,
        _ => RoomCommand::Reconnect,
    }
}

/// Runs one step; what it does depends only on what the room shows.
fn apply(room: &mut Room<Nim>, s: &Step, now: &mut Millis) -> Vec<Result<(), RoomError>> {
    match *s {
        Step::Person { p, what, seat } => vec![room.handle(*now, PlayerId(p), command(what, seat))],
        Step::BotPlays => match room.bot_to_act() {
            Some(turn) => {
                let pile = room.game().unwrap().pile();
                vec![room.bot_act(*now, turn.seat, turn.version, pile.min(2))]
            }
            None => vec![],
        },
        Step::PersonPlays { back } => {
            let person = room
                .to_act()
                .and_then(|seat| Some((seat, room.seats()[seat].as_ref()?.person()?)));
            match person {
                Some((seat, p)) => {
                    let pile = room.game().unwrap().pile();
                    let command = RoomCommand::Act {
                        seat,
                        version: room.version().saturating_sub(back),
                        action: pile.min(1 + (now.0 % 3) as u32),
                    };
                    vec![room.handle(*now, p, command)]
                }
                None => vec![],
            }
        }
        Step::Setup { bot } => {
            let host = PlayerId(1);
            let mut out = vec![room.handle(*now, host, RoomCommand::Sit { seat: 0 })];
            for seat in 1..room.seats().len() {
                if bot && seat == 1 {
                    let level = "bot".to_owned();
                    out.push(room.handle(*now, host, RoomCommand::AddBot { seat, level }));
                } else {
                    let p = PlayerId(seat as u64 + 1);
                    out.push(room.handle(*now, p, RoomCommand::Join));
                    out.push(room.handle(*now, p, RoomCommand::Sit { seat }));
                }
            }
            out.push(room.handle(*now, host, RoomCommand::Start));
            out
        }
        Step::Wait(ms) => {
            *now = *now + Span(ms);
            room.handle_timeout(*now);
            vec![]
        }
    }
}

fn drain(room: &mut Room<Nim>) -> Vec<Event<u32>> {
    std::iter::from_fn(|| room.poll_event()).collect()
}

/// The snapshot reads back as a room that gives the same snapshot, and through JSON too.
fn reads_back(room: &Room<Nim>) -> Result<Room<Nim>, TestCaseError> {
    let snapshot = room.snapshot();
    let back = Room::from_snapshot(snapshot.clone());
    prop_assert!(back.is_ok(), "{:?} refused: {:?}", snapshot, back);
    let back = back.unwrap();
    prop_assert_eq!(&back.snapshot(), &snapshot);
    let text = serde_json::to_string(&snapshot).unwrap();
    let parsed: RoomSnapshot<Nim> = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&parsed, &snapshot);
    Ok(back)
}

fn run_room(seats: usize, steps: Vec<Step>, cut: usize) -> Result<Reached, TestCaseError> {
    let mut reached = Reached::default();
    let settings = RoomSettings::hosted(RoomActionLimit::Secs30);
    let mut room = Room::hosted(Millis(0), PlayerId(1), settings, Nim::new(15, seats));
    let mut now = Millis(0);
    drain(&mut room);
    let mut twin: Option<(Room<Nim>, Millis)> = None;
    for (i, s) in steps.iter().enumerate() {
        if i == cut {
            twin = Some((reads_back(&room)?, now));
        }
        let results = apply(&mut room, s, &mut now);
        let events = drain(&mut room);
        reads_back(&room)?;
        reached.note(&room);
        if let Some((t, t_now)) = &mut twin {
            let t_results = apply(t, s, t_now);
            prop_assert_eq!(&t_results, &results, "step {} {:?}", i, s);
            prop_assert_eq!(&drain(t), &events, "step {} {:?}", i, s);
            prop_assert_eq!(&t.snapshot(), &room.snapshot());
            prop_assert_eq!(t.poll_timeout(), room.poll_timeout());
            prop_assert_eq!(t.bot_to_act(), room.bot_to_act());
        }
    }
    Ok(reached)
}

/// What the random runs reached, so that the snapshots were taken in every kind of state.
#[derive(Debug, Default)]
struct Reached {
    paused_by_host: bool,
    paused_nobody: bool,
    both_paused: bool,
    reserved: bool,
    bot_leaving: bool,
    flagged: bool,
    finished: bool,
    closed: bool,
    disconnected: bool,
}

impl Reached {
    fn note(&mut self, room: &Room<Nim>) {
        let s = room.snapshot();
        if let Some(g) = &s.game {
            self.paused_by_host |= g.paused_by_host;
            self.paused_nobody |= g.paused_nobody_connected;
            self.both_paused |= g.paused_by_host && g.paused_nobody_connected;
            self.flagged |= matches!(g.clock.phase, ClockPhase::Flagged { .. });
            self.finished |= g.result.is_some();
        }
        self.reserved |= s.reservation.is_some();
        self.bot_leaving |= s.bot_leaving;
        self.closed |= s.closed.is_some();
        self.disconnected |= s.members.iter().any(|m| m.disconnected_at.is_some());
    }

    fn add(&mut self, o: Reached) {
        self.paused_by_host |= o.paused_by_host;
        self.paused_nobody |= o.paused_nobody;
        self.both_paused |= o.both_paused;
        self.reserved |= o.reserved;
        self.bot_leaving |= o.bot_leaving;
        self.flagged |= o.flagged;
        self.finished |= o.finished;
        self.closed |= o.closed;
        self.disconnected |= o.disconnected;
    }
}

#[test]
fn the_random_rooms_are_snapshotted_in_every_kind_of_state() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(Config::default().rng_algorithm),
    );
    let strategy = (
        2..4usize,
        prop::collection::vec(step(), 1..120),
        0..120usize,
    );
    let mut all = Reached::default();
    for _ in 0..300 {
        let (seats, steps, cut) = strategy.new_tree(&mut runner).unwrap().current();
        all.add(run_room(seats, steps, cut).unwrap());
    }
    let r = &all;
    assert!(
        r.paused_by_host && r.paused_nobody && r.both_paused && r.reserved && r.bot_leaving,
        "{r:?}"
    );
    assert!(
        r.flagged && r.finished && r.closed && r.disconnected,
        "{r:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_restored_room_goes_on_as_the_original(
        seats in 2..4usize,
        steps in prop::collection::vec(step(), 1..120),
        cut in 0..120usize,
    ) {
        run_room(seats, steps, cut)?;
    }
}

// ---- lobbies ----

#[derive(Debug, Clone)]
enum LobbyStep {
    AddGuest,
    Queue(usize, bool),
    CancelQueue(usize),
    CreateInvite(usize),
    CancelInvite(usize),
    JoinInvite(usize, usize),
    Plays(usize),
    Resign(usize),
    Disconnect(usize),
    Reconnect(usize),
    Leave(usize),
    RemoveRooms,
    Rematch(usize, bool),
    Wait(u64),
}

fn lobby_step() -> impl Strategy<Value = LobbyStep> {
    prop_oneof![
        3 => Just(LobbyStep::AddGuest),
        3 => (0..6usize, any::<bool>()).prop_map(|(p, k)| LobbyStep::Queue(p, k)),
        1 => (0..6usize).prop_map(LobbyStep::CancelQueue),
        2 => (0..6usize).prop_map(LobbyStep::CreateInvite),
        1 => (0..6usize).prop_map(LobbyStep::CancelInvite),
        2 => (0..6usize, 0..4usize).prop_map(|(p, i)| LobbyStep::JoinInvite(p, i)),
        6 => (0..6usize).prop_map(LobbyStep::Plays),
        1 => (0..6usize).prop_map(LobbyStep::Resign),
        1 => (0..6usize).prop_map(LobbyStep::Disconnect),
        2 => (0..6usize).prop_map(LobbyStep::Reconnect),
        1 => (0..6usize).prop_map(LobbyStep::Leave),
        1 => Just(LobbyStep::RemoveRooms),
        3 => (0..6usize, any::<bool>()).prop_map(|(p, own)| LobbyStep::Rematch(p, own)),
        3 => prop_oneof![0..5_000u64, 0..70_000u64, 0..700_000u64].prop_map(LobbyStep::Wait),
    ]
}

/// What the test remembers of the guests and invites, as a client would.
#[derive(Debug, Clone, Default)]
struct Memory {
    guests: Vec<(PlayerId, Token)>,
    codes: Vec<InviteCode>,
}

impl Memory {
    fn pick(&self, i: usize) -> PlayerId {
        self.guests.get(i).map_or(PlayerId(999), |g| g.0)
    }
}

fn apply_lobby(
    lobby: &mut Lobby<Nim>,
    s: &LobbyStep,
    now: &mut Millis,
    m: &mut Memory,
) -> Result<String, RoomError> {
    let out = match *s {
        LobbyStep::AddGuest => {
            let (p, t) = lobby.add_guest(*now);
            m.guests.push((p, t));
            format!("{p}")
        }
        LobbyStep::Queue(p, k) => format!(
            "{:?}",
            lobby.queue(*now, m.pick(p), if k { "a" } else { "b" })?
        ),
        LobbyStep::CancelQueue(p) => format!("{:?}", lobby.cancel_queue(*now, m.pick(p))?),
        LobbyStep::CreateInvite(p) => {
            let code = lobby.create_invite(*now, m.pick(p), "a")?;
            m.codes.push(code.clone());
            code.to_string()
        }
        LobbyStep::CancelInvite(p) => format!("{:?}", lobby.cancel_invite(*now, m.pick(p))?),
        LobbyStep::JoinInvite(p, i) => match m.codes.get(i % m.codes.len().max(1)).cloned() {
            Some(code) => format!("{}", lobby.join_invite(*now, m.pick(p), &code)?),
            None => String::new(),
        },
        LobbyStep::Plays(who) => {
            let p = m.pick(who);
            let turn = lobby.room_of(p).and_then(|id| {
                let r = lobby.room(id)?;
                Some((r.version(), r.game()?.pile()))
            });
            match turn {
                Some((v, pile)) => format!("{:?}", lobby.act(*now, p, v, pile.clamp(1, 2))?),
                None => String::new(),
            }
        }
        LobbyStep::Resign(p) => format!("{:?}", lobby.resign(*now, m.pick(p))?),
        LobbyStep::Disconnect(p) => format!("{:?}", lobby.disconnect(*now, m.pick(p))?),
        LobbyStep::Reconnect(p) => {
            let token = m
                .guests
                .get(p)
                .map_or_else(|| Token::from("wrong".to_owned()), |g| g.1.clone());
            format!("{}", lobby.reconnect(*now, &token)?)
        }
        LobbyStep::Leave(p) => format!("{:?}", lobby.leave(*now, m.pick(p))?),
        LobbyStep::RemoveRooms => {
            let closed: Vec<RoomId> = lobby
                .rooms()
                .filter(|(_, r)| r.closed().is_some())
                .map(|(id, _)| id)
                .collect();
            for id in &closed {
                lobby.remove_room(*id)?;
            }
            format!("{closed:?}")
        }
        LobbyStep::Rematch(who, own) => {
            // The rematch of one of the player's games, or of the first game there is.
            let p = m.pick(who);
            let room = lobby
                .rematch_offers()
                .find(|o| !own || o.opponent_of(p).is_some())
                .map_or(RoomId(1), |o| o.room());
            format!("{:?}", lobby.rematch(*now, p, room)?)
        }
        LobbyStep::Wait(ms) => {
            *now = *now + Span(ms);
            lobby.handle_timeout(*now);
            String::new()
        }
    };
    Ok(out)
}

fn drain_lobby(lobby: &mut Lobby<Nim>) -> Vec<LobbyEvent<u32>> {
    std::iter::from_fn(|| lobby.poll_event()).collect()
}

fn lobby_reads_back(lobby: &Lobby<Nim>) -> Result<Lobby<Nim>, TestCaseError> {
    let snapshot = lobby.snapshot();
    let back = Lobby::from_snapshot(snapshot.clone());
    prop_assert!(back.is_ok(), "{:?} refused: {:?}", snapshot, back);
    let back = back.unwrap();
    prop_assert_eq!(&back.snapshot(), &snapshot);
    let text = serde_json::to_string(&snapshot).unwrap();
    let parsed: LobbySnapshot<Nim> = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&parsed, &snapshot);
    Ok(back)
}

fn new_lobby(seed: u8) -> Lobby<Nim> {
    Lobby::new(
        [
            ("a".to_owned(), Nim::new(12, 2)),
            ("b".to_owned(), Nim::new(7, 2)),
        ],
        [seed; 32],
    )
}

fn run_lobby(seed: u8, steps: Vec<LobbyStep>, cut: usize) -> Result<(), TestCaseError> {
    let mut lobby = new_lobby(seed);
    let mut now = Millis(0);
    let mut memory = Memory::default();
    let mut twin: Option<(Lobby<Nim>, Millis, Memory)> = None;
    for (i, s) in steps.iter().enumerate() {
        if i == cut {
            twin = Some((lobby_reads_back(&lobby)?, now, memory.clone()));
        }
        let result = apply_lobby(&mut lobby, s, &mut now, &mut memory);
        let events = drain_lobby(&mut lobby);
        lobby_reads_back(&lobby)?;
        if let Some((t, t_now, t_memory)) = &mut twin {
            let t_result = apply_lobby(t, s, t_now, t_memory);
            prop_assert_eq!(&t_result, &result, "step {} {:?}", i, s);
            prop_assert_eq!(&drain_lobby(t), &events, "step {} {:?}", i, s);
            prop_assert_eq!(&t.snapshot(), &lobby.snapshot());
            prop_assert_eq!(t.poll_timeout(), lobby.poll_timeout());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_restored_lobby_goes_on_as_the_original(
        seed in any::<u8>(),
        steps in prop::collection::vec(lobby_step(), 1..150),
        cut in 0..150usize,
    ) {
        run_lobby(seed, steps, cut)?;
    }
}

// ---- damaged snapshots ----

/// Replaces the `n`-th leaf of `v` (counted in a fixed order, the games' states left alone)
/// with `with`; returns whether there was one.
fn replace_leaf(v: &mut Value, n: &mut usize, with: &Value) -> bool {
    match v {
        Value::Object(map) => map
            .iter_mut()
            .filter(|(k, _)| !matches!(k.as_str(), "state" | "initial" | "kinds"))
            .any(|(_, x)| replace_leaf(x, n, with)),
        Value::Array(items) => items.iter_mut().any(|x| replace_leaf(x, n, with)),
        _ => {
            if *n == 0 {
                *v = with.clone();
                true
            } else {
                *n -= 1;
                false
            }
        }
    }
}

fn leaf_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0..5u64).prop_map(Value::from),
        (0..200_000u64).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        Just(Value::from("")),
        Just(Value::from("ABCDEFGH")),
    ]
}

/// A room or lobby that was accepted works: time, commands and a new snapshot.
fn exercise_room(mut room: Room<Nim>) {
    let now = room.last_seen();
    for p in 0..4 {
        for what in 0..14 {
            let _ = room.handle(now, PlayerId(p), command(what, (p % 3) as usize));
        }
    }
    room.handle_timeout(now + Span::from_mins(24 * 60));
    drain(&mut room);
    let _ = room.snapshot();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn damaged_room_snapshots_are_refused_without_panic(
        seats in 2..4usize,
        steps in prop::collection::vec(step(), 1..60),
        damages in prop::collection::vec((0..400usize, leaf_value()), 1..3),
    ) {
        let mut room = Room::hosted(Millis(0), PlayerId(1), RoomSettings::hosted(RoomActionLimit::Secs30), Nim::new(15, seats));
        let mut now = Millis(0);
        for s in &steps {
            apply(&mut room, s, &mut now);
        }
        let mut v = serde_json::to_value(room.snapshot()).unwrap();
        for (n, with) in &damages {
            replace_leaf(&mut v, &mut n.clone(), with);
        }
        if let Ok(snapshot) = serde_json::from_value::<RoomSnapshot<Nim>>(v) {
            if let Ok(back) = Room::from_snapshot(snapshot) {
                // Accepted in any order, given back in the canonical one, and read as itself.
                let again = back.snapshot();
                prop_assert_eq!(Room::from_snapshot(again.clone()).map(|r| r.snapshot()), Ok(again));
                exercise_room(back);
            }
        }
    }

    #[test]
    fn damaged_lobby_snapshots_are_refused_without_panic(
        steps in prop::collection::vec(lobby_step(), 1..80),
        damages in prop::collection::vec((0..600usize, leaf_value()), 1..3),
    ) {
        let mut lobby = new_lobby(5);
        let mut now = Millis(0);
        let mut memory = Memory::default();
        for s in &steps {
            let _ = apply_lobby(&mut lobby, s, &mut now, &mut memory);
        }
        let mut v = serde_json::to_value(lobby.snapshot()).unwrap();
        for (n, with) in &damages {
            replace_leaf(&mut v, &mut n.clone(), with);
        }
        if let Ok(snapshot) = serde_json::from_value::<LobbySnapshot<Nim>>(v) {
            if let Ok(mut back) = Lobby::from_snapshot(snapshot.clone()) {
                let again = back.snapshot();
                prop_assert_eq!(Lobby::from_snapshot(again.clone()).map(|l| l.snapshot()), Ok(again));
                // Everyone does everything, then a day passes.
                let mut memory = Memory {
                    guests: snapshot.guests.iter().map(|g| (g.player, g.token.clone())).collect(),
                    codes: snapshot.invites.iter().map(|i| i.code.clone()).collect(),
                };
                let mut now = back.last_seen();
                for p in 0..memory.guests.len().min(6) {
                    for s in [
                        LobbyStep::Plays(p), LobbyStep::Queue(p, true), LobbyStep::Queue(p, false),
                        LobbyStep::CreateInvite(p), LobbyStep::JoinInvite(p, 0), LobbyStep::Resign(p),
                        LobbyStep::Disconnect(p), LobbyStep::Reconnect(p), LobbyStep::Leave(p),
                        LobbyStep::AddGuest, LobbyStep::RemoveRooms,
                    ] {
                        let _ = apply_lobby(&mut back, &s, &mut now, &mut memory);
                    }
                }
                back.handle_timeout(now + Span::from_mins(24 * 60));
                drain_lobby(&mut back);
            }
        }
    }
}

// ---- what is refused, and why ----

fn online_room() -> Room<Nim> {
    Room::online(
        Millis(1_000),
        &[PlayerId(1), PlayerId(2)],
        RoomSettings::ONLINE,
        Nim::new(9, 2),
    )
    .unwrap()
}

#[test]
fn room_snapshots_that_do_not_hold_together_say_why() {
    let good = online_room().snapshot();
    let refused = |edit: &dyn Fn(&mut RoomSnapshot<Nim>)| {
        let mut s = good.clone();
        edit(&mut s);
        Room::from_snapshot(s).unwrap_err()
    };
    assert_eq!(
        refused(&|s| s.format = SNAPSHOT_FORMAT + 1),
        SnapshotError::UnsupportedFormat {
            found: SNAPSHOT_FORMAT + 1
        }
    );
    assert_eq!(
        refused(&|s| s.seats.push(None)),
        SnapshotError::SeatCount {
            what: "the room",
            found: 3,
            seats: 2
        }
    );
    assert_eq!(
        refused(&|s| s.members.push(s.members[0])),
        SnapshotError::DuplicatePlayer {
            player: PlayerId(1),
            list: "the members"
        }
    );
    let e = refused(&|s| {
        s.seats[0] = Some(Occupant::Person {
            player: PlayerId(7),
        })
    });
    assert!(e.to_string().contains("p7 sits in seat 0"), "{e}");
    let e = refused(&|s| {
        s.members.push(MemberSnapshot {
            player: PlayerId(3),
            disconnected_at: Some(Millis(1)),
            grace_until: None,
        })
    });
    assert!(e.to_string().contains("p3 has a disconnection"), "{e}");
    let e = refused(&|s| s.game.as_mut().unwrap().number = 2);
    assert!(e.to_string().contains("number 2"), "{e}");
    let e = refused(&|s| s.game.as_mut().unwrap().state = Nim::new(9, 3));
    assert_eq!(
        e,
        SnapshotError::SeatCount {
            what: "the game",
            found: 3,
            seats: 2
        }
    );
    let e = refused(&|s| {
        s.game.as_mut().unwrap().clock.phase = ClockPhase::Running {
            side: 1,
            used: Span::ZERO,
        }
    });
    assert!(e.to_string().contains("the game has Some(0) to act"), "{e}");
    let e = refused(&|s| {
        s.game.as_mut().unwrap().clock.phase = ClockPhase::Running {
            side: 5,
            used: Span::ZERO,
        }
    });
    assert!(e.to_string().contains("side 5"), "{e}");
    let e = refused(&|s| {
        s.game.as_mut().unwrap().clock.phase = ClockPhase::Running {
            side: 0,
            used: Span::from_secs(30),
        }
    });
    assert!(e.to_string().contains("without a flag"), "{e}");
    let e = refused(&|s| s.game.as_mut().unwrap().paused_by_host = true);
    assert!(e.to_string().contains("pause"), "{e}");
    let e = refused(&|s| s.reservation = Some(PlayerId(2)));
    assert!(e.to_string().contains("reserved"), "{e}");
    let e = refused(&|s| s.closed = Some(reversi_room::CloseReason::GameOver));
    assert!(e.to_string().contains("closed"), "{e}");
    assert_eq!(
        refused(&|s| s.version = u64::MAX),
        SnapshotError::CounterTooLarge {
            what: "version",
            value: u64::MAX
        }
    );
    let e = refused(&|s| s.game.as_mut().unwrap().turn_version = s.version + 1);
    assert!(e.to_string().contains("after the room's version"), "{e}");
}

#[test]
fn lobby_snapshots_that_do_not_hold_together_say_why() {
    let mut lobby = new_lobby(1);
    let now = Millis(0);
    let (a, _) = lobby.add_guest(now);
    let (b, _) = lobby.add_guest(now);
    let (c, _) = lobby.add_guest(now);
    let (d, _) = lobby.add_guest(now);
    lobby.queue(now, a, "a").unwrap();
    lobby.queue(now, b, "a").unwrap();
    lobby.queue(now, c, "b").unwrap();
    lobby.create_invite(now, d, "a").unwrap();
    let room = lobby.room_of(a).unwrap();
    let good = lobby.snapshot();
    assert_eq!(good.rooms.len(), 1);
    let refused = |edit: &dyn Fn(&mut LobbySnapshot<Nim>)| {
        let mut s = good.clone();
        edit(&mut s);
        Lobby::from_snapshot(s).unwrap_err()
    };
    assert_eq!(
        refused(&|s| s.format = 0),
        SnapshotError::UnsupportedFormat { found: 0 }
    );
    assert_eq!(
        refused(&|s| s.guests.push(s.guests[0].clone())),
        SnapshotError::BadToken {
            player: a,
            problem: "another guest's"
        }
    );
    assert_eq!(
        refused(&|s| s.guests[1].token = Token::from(String::new())),
        SnapshotError::BadToken {
            player: b,
            problem: "empty"
        }
    );
    assert_eq!(
        refused(&|s| s.next_player = 2),
        SnapshotError::NumberAhead {
            what: "guest",
            id: 2,
            next: 2
        }
    );
    assert_eq!(
        refused(&|s| s.rooms.push(s.rooms[0].clone())),
        SnapshotError::DuplicateRoom { room }
    );
    assert_eq!(
        refused(&|s| s.kinds.push(s.kinds[0].clone())),
        SnapshotError::DuplicateKind { kind: "a".into() }
    );
    assert!(matches!(
        refused(&|s| s.kinds[0].1 = Nim::new(3, 3)),
        SnapshotError::BadKind { .. }
    ));
    assert!(matches!(
        refused(&|s| s.rooms[0].room.seats.pop().map(drop).unwrap_or(())),
        SnapshotError::InRoom { room: r, .. } if r == room
    ));
    let e = refused(&|s| s.queues.get_mut("b").unwrap().push(a));
    assert!(e.to_string().contains("queue"), "{e}");
    let e = refused(&|s| {
        s.queues.remove("b");
    });
    assert!(e.to_string().contains("not in its queue"), "{e}");
    let e = refused(&|s| s.invites.clear());
    assert!(e.to_string().contains("not an open invite"), "{e}");
    let e = refused(&|s| s.rooms.clear());
    assert!(e.to_string().contains("plays in"), "{e}");
    assert_eq!(
        refused(&|s| s.next_room = u64::MAX),
        SnapshotError::CounterTooLarge {
            what: "next room",
            value: u64::MAX
        }
    );
    assert_eq!(
        refused(&|s| s.generator.word_pos = u128::MAX),
        SnapshotError::BadGenerator {
            word_pos: u128::MAX
        }
    );
}
