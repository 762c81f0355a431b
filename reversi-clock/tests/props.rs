//! Property tests: random sequences of switch, pause, resume, undo, stop, timeouts and serde
//! round trips on non-decreasing virtual time, checked against what the controls promise.

use proptest::prelude::*;
use reversi_clock::{Clock, ClockError, ClockEvent, ClockStatus, Millis, Span, TimeControl};

fn span(max: u64) -> impl Strategy<Value = Span> {
    prop_oneof![1 => Just(Span::ZERO), 8 => (1..=max).prop_map(Span)]
}

fn control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::Unlimited),
        span(20_000).prop_map(|limit| TimeControl::PerMove { limit }),
        span(60_000).prop_map(|bank| TimeControl::Total { bank }),
        (span(20_000), span(60_000))
            .prop_map(|(per_move, bank)| TimeControl::Combined { per_move, bank }),
        (
            span(60_000),
            span(10_000),
            proptest::option::of(span(80_000))
        )
            .prop_map(|(bank, increment, cap)| TimeControl::Fischer {
                bank,
                increment,
                cap
            }),
        (span(60_000), span(10_000)).prop_map(|(bank, delay)| TimeControl::Delay { bank, delay }),
        (span(30_000), 0u32..4, span(10_000)).prop_map(|(main, periods, period)| {
            TimeControl::ByoYomi {
                main,
                periods,
                period,
            }
        }),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Wait(u64),
    Switch(usize),
    Pause,
    Resume,
    Undo(usize),
    Stop,
    Timeout,
    RoundTrip,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => prop_oneof![0u64..50, 0u64..5_000, 0u64..30_000].prop_map(Op::Wait),
        10 => (0usize..3).prop_map(Op::Switch),
        2 => Just(Op::Pause),
        2 => Just(Op::Resume),
        2 => (0usize..4).prop_map(Op::Undo),
        1 => Just(Op::Stop),
        3 => Just(Op::Timeout),
        3 => Just(Op::RoundTrip),
    ]
}

fn round_trip(clock: &Clock) -> Clock {
    let json = serde_json::to_string(clock).expect("a clock serialises");
    serde_json::from_str(&json).expect("a serialised clock loads again")
}

fn remaining_all(clock: &Clock, now: Millis) -> Vec<Option<Span>> {
    (0..clock.sides())
        .map(|i| clock.remaining(i, now))
        .collect()
}

fn drain(clock: &mut Clock) -> Vec<ClockEvent> {
    std::iter::from_fn(|| clock.poll_event()).collect()
}

/// The most time a side may ever show under `control` after `switches` switches.
fn upper_bound(control: TimeControl, switches: u64) -> Option<Span> {
    match control {
        TimeControl::Unlimited => None,
        TimeControl::PerMove { limit } => Some(limit),
        TimeControl::Total { bank } | TimeControl::Delay { bank, .. } => Some(bank),
        TimeControl::Combined { per_move, bank } => Some(per_move.min(bank)),
        TimeControl::Fischer {
            bank,
            increment,
            cap,
        } => Some(match cap {
            Some(cap) => bank.max(cap),
            None => bank + increment.saturating_mul(switches),
        }),
        TimeControl::ByoYomi {
            main,
            periods,
            period,
        } => Some(main + period.saturating_mul(u64::from(periods))),
        _ => unreachable!("a control the test does not know"),
    }
}

/// Checks the mover's time right after its switch against what the control allows.
fn check_settled(control: TimeControl, before: Option<Span>, after: Option<Span>) {
    let (Some(b), Some(a)) = (before, after) else {
        assert_eq!(control, TimeControl::Unlimited);
        assert_eq!((before, after), (None, None));
        return;
    };
    match control {
        TimeControl::PerMove { limit } => assert_eq!(a, limit),
        TimeControl::Total { .. } => assert_eq!(a, b),
        TimeControl::Combined { per_move, .. } => {
            assert!(a >= b && a <= per_move, "combined: {b:?} -> {a:?}");
        }
        TimeControl::Fischer { increment, cap, .. } => {
            assert!(a >= b && a <= b + increment, "fischer: {b:?} -> {a:?}");
            if let Some(cap) = cap {
                assert!(a <= cap.max(b), "fischer cap {cap:?}: {b:?} -> {a:?}");
            }
        }
        TimeControl::Delay { delay, .. } => {
            assert!(a >= b && a <= b + delay, "delay: {b:?} -> {a:?}");
        }
        TimeControl::ByoYomi { period, .. } => {
            assert!(a >= b, "byo-yomi: {b:?} -> {a:?}");
            assert!(
                a.as_millis() - b.as_millis() < period.as_millis().max(1),
                "byo-yomi period {period:?}: {b:?} -> {a:?}"
            );
        }
        other => panic!("unexpected control {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn clock_keeps_its_promises(
        control in control(),
        sides in 1usize..=3,
        first in 0usize..3,
        t0 in prop_oneof![Just(0u64), 0u64..2_000_000_000_000],
        ops in proptest::collection::vec(op(), 0..80),
    ) {
        let first = first % sides;
        let mut t = Millis(t0);
        // `a` is never serialised; `b` goes through serde at every RoundTrip. They must agree.
        let mut a = Clock::new(control, sides);
        a.start(t, first).unwrap();
        let mut b = a.clone();
        // The model of undo: (mover, every side's time at the start of its turn).
        let mut turn_start = remaining_all(&a, t);
        let mut stack: Vec<(usize, Vec<Option<Span>>)> = Vec::new();
        let mut switches = 0u64;

        for op in ops {
            let before = remaining_all(&a, t);
            let status = a.status();
            let deadline = a.poll_timeout();
            // A deadline must agree with the running side's time left.
            if let ClockStatus::Running { side } = status {
                match (deadline, before[side]) {
                    (None, None) => {}
                    (Some(d), Some(r)) if r > Span::ZERO => prop_assert_eq!(d, t + r),
                    (Some(d), Some(_)) => prop_assert!(d <= t),
                    other => prop_assert!(false, "deadline and remaining disagree: {:?}", other),
                }
            } else {
                prop_assert_eq!(deadline, None);
            }
            // The flag the next state-changing call must notice, if any.
            let due = match (status, deadline) {
                (ClockStatus::Running { side }, Some(d)) if d <= t => Some((side, d)),
                _ => None,
            };
            let probe = a.clone();

            let (ra, rb) = match op {
                Op::Wait(dt) => {
                    let t2 = Millis(t.0 + dt);
                    for (i, rem) in before.iter().enumerate() {
                        let now = a.remaining(i, t2);
                        let expected = match status {
                            ClockStatus::Running { side } if side == i => {
                                rem.map(|r| r - Span(dt))
                            }
                            _ => *rem,
                        };
                        prop_assert_eq!(now, expected, "side {} over a wait of {}", i, dt);
                    }
                    t = t2;
                    continue;
                }
                Op::Switch(next) => (a.switch(t, next % sides), b.switch(t, next % sides)),
                Op::Pause => (a.pause(t), b.pause(t)),
                Op::Resume => (a.resume(t), b.resume(t)),
                Op::Undo(n) => (a.undo(t, n), b.undo(t, n)),
                Op::Stop => (a.stop(t), b.stop(t)),
                Op::Timeout => {
                    a.handle_timeout(t);
                    b.handle_timeout(t);
                    (Ok(()), Ok(()))
                }
                Op::RoundTrip => {
                    b = round_trip(&b);
                    (Ok(()), Ok(()))
                }
            };
            prop_assert_eq!(&ra, &rb);
            prop_assert_eq!(&a, &b);
            let events = drain(&mut a);
            prop_assert_eq!(&events, &drain(&mut b));
            let after = remaining_all(&a, t);

            // Flags: exactly when due, of the running side, at its deadline, and not before.
            // Undo takes the turn back without a flag; resume, round trips never flag.
            let notices = matches!(op, Op::Switch(_) | Op::Pause | Op::Stop | Op::Timeout);
            match due {
                Some((side, at)) if notices => {
                    prop_assert_eq!(&events, &vec![ClockEvent::Flagged { side, at }]);
                    prop_assert_eq!(a.flagged(), Some((side, at)));
                    prop_assert_eq!(probe.remaining(side, at), Some(Span::ZERO));
                    if at > probe.last_seen() {
                        prop_assert_eq!(probe.remaining(side, Millis(at.0 - 1)), Some(Span(1)));
                    }
                    if matches!(op, Op::Timeout) {
                        // Extra calls are harmless.
                        a.handle_timeout(t);
                        prop_assert_eq!(a.poll_event(), None);
                        b.handle_timeout(t);
                    }
                }
                _ => prop_assert!(events.is_empty(), "unexpected events {:?}", events),
            }

            // What each operation promises.
            match op {
                Op::Switch(next) => {
                    let next = next % sides;
                    match (&ra, status) {
                        (Ok(()), ClockStatus::Running { side: mover }) => {
                            prop_assert!(due.is_none());
                            switches += 1;
                            prop_assert_eq!(a.running_side(), Some(next));
                            for i in 0..sides {
                                if i == mover {
                                    check_settled(control, before[i], after[i]);
                                } else {
                                    prop_assert_eq!(after[i], before[i], "side {} moved", i);
                                }
                            }
                            stack.push((mover, std::mem::replace(&mut turn_start, after.clone())));
                        }
                        (Err(ClockError::Paused), ClockStatus::Paused { .. }) => {}
                        (Err(ClockError::Stopped), ClockStatus::Stopped { .. }) => {}
                        (Err(ClockError::Flagged { side, at }), ClockStatus::Flagged { .. }) => {
                            prop_assert_eq!(Some((*side, *at)), probe.flagged());
                        }
                        (Err(ClockError::Flagged { side, at }), ClockStatus::Running { .. }) => {
                            prop_assert!(due.is_some());
                            prop_assert_eq!(Some((*side, *at)), due);
                        }
                        other => prop_assert!(false, "switch: {:?}", other),
                    }
                }
                Op::Pause => match (&ra, status) {
                    (Ok(()), ClockStatus::Running { side }) => {
                        prop_assert!(due.is_none());
                        prop_assert_eq!(a.status(), ClockStatus::Paused { side });
                        prop_assert_eq!(&after, &before);
                        prop_assert_eq!(a.poll_timeout(), None);
                    }
                    (Err(ClockError::Paused), ClockStatus::Paused { .. })
                    | (Err(ClockError::Stopped), ClockStatus::Stopped { .. })
                    | (Err(ClockError::Flagged { .. }), _) => {}
                    other => prop_assert!(false, "pause: {:?}", other),
                },
                Op::Resume => {
                    match (&ra, status) {
                        (Ok(()), ClockStatus::Paused { side }) => {
                            prop_assert_eq!(a.running_side(), Some(side));
                        }
                        (Err(ClockError::NotPaused), ClockStatus::Running { .. })
                        | (Err(ClockError::Stopped), ClockStatus::Stopped { .. })
                        | (Err(ClockError::Flagged { .. }), ClockStatus::Flagged { .. }) => {}
                        other => prop_assert!(false, "resume: {:?}", other),
                    }
                    prop_assert_eq!(&after, &before);
                }
                Op::Undo(n) => {
                    if n > stack.len() {
                        prop_assert_eq!(
                            &ra,
                            &Err(ClockError::NotEnoughHistory { requested: n, available: stack.len() })
                        );
                        prop_assert_eq!(&after, &before);
                    } else {
                        prop_assert_eq!(&ra, &Ok(()));
                        if n > 0 {
                            let mut restored = None;
                            for _ in 0..n {
                                restored = stack.pop();
                            }
                            let (side, times) = restored.unwrap();
                            prop_assert_eq!(a.side_to_move(), Some(side));
                            prop_assert_eq!(
                                a.is_paused(),
                                matches!(status, ClockStatus::Paused { .. })
                            );
                            prop_assert_eq!(&after, &times);
                            turn_start = times;
                        } else {
                            prop_assert_eq!(&after, &before);
                        }
                    }
                }
                Op::Stop => {
                    match (&ra, status) {
                        (Ok(()), ClockStatus::Running { .. } | ClockStatus::Paused { .. } | ClockStatus::Stopped { .. }) => {
                            prop_assert!(due.is_none());
                            let stopped = matches!(a.status(), ClockStatus::Stopped { .. });
                            prop_assert!(stopped);
                            prop_assert_eq!(&after, &before);
                        }
                        (Err(ClockError::Flagged { .. }), _) => {}
                        other => prop_assert!(false, "stop: {:?}", other),
                    }
                }
                Op::Timeout | Op::RoundTrip => prop_assert_eq!(&after, &before),
                Op::Wait(_) => unreachable!(),
            }
            prop_assert_eq!(stack.len(), a.switches());

            // Never more than the control can give; zero for a flagged side.
            let bound = upper_bound(control, switches);
            for (i, rem) in after.iter().enumerate() {
                match (rem, bound) {
                    (Some(r), Some(b)) => prop_assert!(*r <= b, "side {} has {:?} > {:?}", i, r, b),
                    (None, None) => {}
                    other => prop_assert!(false, "bound and remaining disagree: {:?}", other),
                }
            }
            if let Some((side, _)) = a.flagged() {
                prop_assert_eq!(after[side], bound.map(|_| Span::ZERO));
            }
        }
        // The twin that went through serde agrees to the end, even about the future.
        let later = Millis(t.0 + 123_456);
        prop_assert_eq!(remaining_all(&a, later), remaining_all(&b, later));
    }

    /// A `now` earlier than the latest one is treated as the latest: a clock fed times that go
    /// backwards behaves exactly like one fed their running maximum.
    #[test]
    fn time_going_backwards_saturates(
        control in control(),
        steps in proptest::collection::vec((-20_000i64..20_000, op()), 0..60),
    ) {
        let mut raw = Clock::new(control, 2);
        let mut fixed = raw.clone();
        let mut t: i64 = 10_000_000;
        let mut max = t;
        raw.start(Millis(t as u64), 0).unwrap();
        fixed.start(Millis(t as u64), 0).unwrap();
        for (dt, op) in steps {
            t += dt;
            max = max.max(t);
            let (tr, tf) = (Millis(t as u64), Millis(max as u64));
            // Refused calls leave the state as it was, `now` included: make both clocks see
            // this instant, so that `max` is the latest instant each has seen.
            raw.handle_timeout(tr);
            fixed.handle_timeout(tf);
            let (rr, rf) = match op {
                Op::Wait(_) | Op::RoundTrip => continue,
                Op::Switch(s) => (raw.switch(tr, s % 2), fixed.switch(tf, s % 2)),
                Op::Pause => (raw.pause(tr), fixed.pause(tf)),
                Op::Resume => (raw.resume(tr), fixed.resume(tf)),
                Op::Undo(n) => (raw.undo(tr, n), fixed.undo(tf, n)),
                Op::Stop => (raw.stop(tr), fixed.stop(tf)),
                Op::Timeout => {
                    raw.handle_timeout(tr);
                    fixed.handle_timeout(tf);
                    (Ok(()), Ok(()))
                }
            };
            prop_assert_eq!(rr, rf);
            for i in 0..2 {
                prop_assert_eq!(raw.remaining(i, tr), fixed.remaining(i, tf));
            }
            prop_assert_eq!(&raw, &fixed);
        }
    }
}
