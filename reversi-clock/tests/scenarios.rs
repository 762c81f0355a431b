//! Scenarios on virtual time for every time control, the presets, pause and resume, undo and
//! restore-after-restart. Time only ever comes from the test: nothing here is timed.

use reversi_clock::{
    Clock, ClockError, ClockEvent, ClockStatus, Millis, PerMovePreset, Span, TimeControl,
};

fn s(secs: u64) -> Span {
    Span::from_secs(secs)
}

fn at(secs: u64) -> Millis {
    Millis(secs * 1_000)
}

/// One step of a scripted game, at a virtual instant in seconds.
#[derive(Debug, Clone)]
enum Step {
    Start(u64, usize),
    Switch(u64, usize),
    Pause(u64),
    Resume(u64),
    Undo(u64, usize),
    Stop(u64),
    Timeout(u64),
    /// Expect `remaining(side, t) == Some(Span(ms))`: milliseconds, to allow fractions.
    Left(u64, usize, u64),
    /// Expect the next deadline.
    Deadline(Option<u64>),
    /// Expect exactly this flag event (side, at seconds) and no other.
    Flag(usize, u64),
    /// Expect no event.
    NoEvent,
    /// Expect the next operation's error.
    Fails(ClockError),
}

fn run(control: TimeControl, steps: &[Step]) -> Clock {
    let mut clock = Clock::new(control, 2);
    let mut expect_err: Option<ClockError> = None;
    for (i, step) in steps.iter().enumerate() {
        let result = match *step {
            Step::Start(t, side) => clock.start(at(t), side),
            Step::Switch(t, side) => clock.switch(at(t), side),
            Step::Pause(t) => clock.pause(at(t)),
            Step::Resume(t) => clock.resume(at(t)),
            Step::Undo(t, n) => clock.undo(at(t), n),
            Step::Stop(t) => clock.stop(at(t)),
            Step::Timeout(t) => {
                clock.handle_timeout(at(t));
                Ok(())
            }
            Step::Left(t, side, ms) => {
                assert_eq!(
                    clock.remaining(side, at(t)),
                    Some(Span(ms)),
                    "step {i}: {step:?}"
                );
                continue;
            }
            Step::Deadline(d) => {
                assert_eq!(clock.poll_timeout(), d.map(at), "step {i}: {step:?}");
                continue;
            }
            Step::Flag(side, t) => {
                assert_eq!(
                    clock.poll_event(),
                    Some(ClockEvent::Flagged { side, at: at(t) }),
                    "step {i}"
                );
                assert_eq!(clock.poll_event(), None, "step {i}: a second event");
                continue;
            }
            Step::NoEvent => {
                assert_eq!(clock.poll_event(), None, "step {i}");
                continue;
            }
            Step::Fails(ref e) => {
                expect_err = Some(e.clone());
                continue;
            }
        };
        match expect_err.take() {
            Some(e) => assert_eq!(result, Err(e), "step {i}: {step:?}"),
            None => assert_eq!(result, Ok(()), "step {i}: {step:?}"),
        }
    }
    clock
}

use Step::*;

#[test]
fn unlimited_never_flags() {
    let clock = run(
        TimeControl::Unlimited,
        &[
            Start(0, 0),
            Deadline(None),
            Switch(1_000_000, 1),
            Timeout(9_000_000),
            NoEvent,
            Switch(9_000_001, 0),
        ],
    );
    assert_eq!(clock.remaining(0, at(10_000_000)), None);
    assert_eq!(clock.status(), ClockStatus::Running { side: 0 });
}

#[test]
fn per_move_fresh_limit_each_turn_and_flag_at_deadline() {
    run(
        TimeControl::per_move(s(10)),
        &[
            Start(100, 0),
            Deadline(Some(110)),
            Left(105, 0, 5_000),
            Left(105, 1, 10_000),
            Switch(109, 1),
            // Unused time is not carried over.
            Left(109, 0, 10_000),
            Deadline(Some(119)),
            Timeout(118),
            NoEvent,
            Timeout(119),
            Flag(1, 119),
            Left(119, 1, 0),
            Left(200, 1, 0),
            Left(200, 0, 10_000),
            Deadline(None),
            Fails(ClockError::Flagged {
                side: 1,
                at: at(119),
            }),
            Switch(120, 0),
        ],
    );
}

#[test]
fn per_move_same_side_twice_gets_fresh_limits() {
    // Backgammon: a dice roll and a move are each an action of the same side.
    run(
        TimeControl::per_move(Span::from_secs(30)),
        &[
            Start(0, 0),
            Switch(20, 0), // roll
            Left(20, 0, 30_000),
            Deadline(Some(50)),
            Switch(45, 1), // move
            Left(45, 0, 30_000),
            Deadline(Some(75)),
        ],
    );
}

#[test]
fn late_switch_is_refused_and_flag_is_at_the_deadline() {
    run(
        TimeControl::per_move(s(5)),
        &[
            Start(0, 0),
            Fails(ClockError::Flagged { side: 0, at: at(5) }),
            Switch(7, 1),
            Flag(0, 5),
            Fails(ClockError::Flagged { side: 0, at: at(5) }),
            Pause(8),
            Fails(ClockError::Flagged { side: 0, at: at(5) }),
            Stop(8),
            NoEvent,
        ],
    );
}

#[test]
fn total_bank_runs_only_on_own_turn() {
    run(
        TimeControl::total(s(60)),
        &[
            Start(0, 0),
            Switch(10, 1),
            Left(10, 0, 50_000),
            Left(40, 0, 50_000),
            Left(40, 1, 30_000),
            Switch(40, 0),
            Left(40, 1, 30_000),
            Deadline(Some(90)),
            Switch(89, 1),
            Left(89, 0, 1_000),
            Deadline(Some(119)),
            Switch(100, 0),
            Deadline(Some(101)),
            Timeout(101),
            Flag(0, 101),
        ],
    );
}

#[test]
fn combined_flags_on_whichever_runs_out_first() {
    run(
        TimeControl::combined(s(30), s(50)),
        &[
            Start(0, 0),
            // Move limit first: 30 s of a 50 s bank.
            Deadline(Some(30)),
            Switch(29, 1),
            // 21 s of bank left: less than the move limit.
            Left(29, 0, 21_000),
            Switch(30, 0),
            // Side 1 used 1 s: the 29 s it left unused are not banked.
            Left(30, 1, 30_000),
            Deadline(Some(51)),
            Timeout(51),
            Flag(0, 51),
            Left(51, 0, 0),
            Left(51, 1, 30_000),
        ],
    );
    // The per-move limit flags even with plenty of bank.
    run(
        TimeControl::combined(s(10), s(600)),
        &[Start(0, 1), Deadline(Some(10)), Timeout(10), Flag(1, 10)],
    );
}

#[test]
fn fischer_adds_increment_after_each_move() {
    run(
        TimeControl::Fischer {
            bank: s(60),
            increment: s(5),
            cap: None,
        },
        &[
            Start(0, 0),
            Switch(1, 1),
            Left(1, 0, 64_000),
            Switch(2, 0),
            Left(2, 1, 64_000),
            Deadline(Some(66)),
            Switch(66 - 1, 1),
            Left(65, 0, 6_000),
        ],
    );
}

#[test]
fn fischer_cap_limits_the_increment_but_never_cuts_the_bank() {
    run(
        TimeControl::Fischer {
            bank: s(60),
            increment: s(10),
            cap: Some(s(62)),
        },
        &[
            Start(0, 0),
            Switch(5, 1), // 55 + 10 = 65, capped to 62
            Left(5, 0, 62_000),
            Switch(6, 0), // 59 + 10 = 69, capped to 62
            Left(6, 1, 62_000),
            Switch(36, 1), // 32 + 10 = 42, under the cap
            Left(36, 0, 42_000),
        ],
    );
    // A starting bank above the cap is not cut down by a move.
    run(
        TimeControl::Fischer {
            bank: s(100),
            increment: s(10),
            cap: Some(s(50)),
        },
        &[Start(0, 0), Switch(2, 1), Left(2, 0, 98_000)],
    );
}

#[test]
fn bronstein_delay_gives_back_the_time_used_up_to_the_delay() {
    run(
        TimeControl::Delay {
            bank: s(60),
            delay: s(5),
        },
        &[
            Start(0, 0),
            // While thinking, the bank runs down as usual.
            Left(3, 0, 57_000),
            Switch(3, 1),
            // 3 s used, all of it given back.
            Left(3, 0, 60_000),
            Switch(23, 0),
            // 20 s used, 5 s given back.
            Left(23, 1, 45_000),
            Deadline(Some(83)),
            Timeout(83),
            Flag(0, 83),
        ],
    );
}

#[test]
fn byo_yomi_main_time_then_periods() {
    let control = TimeControl::ByoYomi {
        main: s(10),
        periods: 3,
        period: s(5),
    };
    let mut clock = run(
        control,
        &[
            Start(0, 0),
            Left(0, 0, 25_000),
            Deadline(Some(25)),
            // Into overtime by 2 s: the move is made within the first period, which is kept.
            Switch(12, 1),
            Left(12, 0, 15_000),
            Switch(13, 0),
            Left(13, 1, 24_000),
            // Side 0 is in byo-yomi: 3 periods of 5 s. It uses 7 s: one period runs out.
            Switch(20, 1),
            Left(20, 0, 10_000),
            Switch(21, 0),
            // Two periods left; a move within a period keeps it, again and again.
            Switch(25, 1),
            Switch(25, 0),
            Switch(29, 1),
            Switch(29, 0),
            Left(29, 0, 10_000),
            Deadline(Some(39)),
            Timeout(39),
            Flag(0, 39),
        ],
    );
    assert_eq!(clock.periods_left(0, at(39)), Some(0));
    assert_eq!(clock.periods_left(1, at(39)), Some(3));
    assert_eq!(clock.poll_event(), None);
}

#[test]
fn byo_yomi_periods_left_counts_down_while_running() {
    let control = TimeControl::ByoYomi {
        main: Span::ZERO,
        periods: 2,
        period: s(30),
    };
    let mut clock = Clock::new(control, 2);
    clock.start(at(0), 0).unwrap();
    assert_eq!(clock.periods_left(0, at(0)), Some(2));
    assert_eq!(clock.periods_left(0, at(29)), Some(2));
    assert_eq!(clock.periods_left(0, at(30)), Some(1));
    assert_eq!(clock.periods_left(0, at(59)), Some(1));
    clock.switch(at(59), 1).unwrap();
    assert_eq!(clock.periods_left(0, at(59)), Some(1));
    assert_eq!(clock.remaining(0, at(59)), Some(s(30)));
    assert_eq!(
        Clock::new(TimeControl::ONLINE, 2).periods_left(0, at(0)),
        None
    );
}

#[test]
fn presets_have_the_promised_limits() {
    let limits: Vec<u64> = PerMovePreset::ALL
        .iter()
        .map(|p| p.limit().as_secs())
        .collect();
    assert_eq!(limits, [15, 30, 60]);
    for p in PerMovePreset::ALL {
        let mut clock = Clock::new(p.control(), 2);
        clock.start(at(0), 0).unwrap();
        assert_eq!(clock.poll_timeout(), Some(Millis(p.limit().as_millis())));
    }
    assert_eq!(TimeControl::ONLINE, TimeControl::per_move(s(30)));
}

#[test]
fn pause_freezes_every_side() {
    run(
        TimeControl::total(s(60)),
        &[
            Start(0, 0),
            Switch(10, 1),
            Pause(20),
            Deadline(None),
            Left(1_000, 0, 50_000),
            Left(1_000, 1, 50_000),
            Timeout(900),
            NoEvent,
            Fails(ClockError::Paused),
            Switch(1_000, 0),
            Fails(ClockError::Paused),
            Pause(1_000),
            Resume(1_000),
            Fails(ClockError::NotPaused),
            Resume(1_001),
            Deadline(Some(1_050)),
            Left(1_040, 1, 10_000),
            Switch(1_040, 0),
            Left(1_040, 1, 10_000),
        ],
    );
}

#[test]
fn pause_resume_repeatedly_loses_no_millisecond() {
    let mut clock = Clock::new(TimeControl::per_move(s(10)), 2);
    clock.start(Millis(0), 0).unwrap();
    let mut t = 0;
    for _ in 0..9 {
        t += 999; // runs 999 ms
        clock.pause(Millis(t)).unwrap();
        t += 12_345; // paused
        clock.resume(Millis(t)).unwrap();
    }
    assert_eq!(clock.remaining(0, Millis(t)), Some(Span(10_000 - 9 * 999)));
    assert_eq!(clock.poll_timeout(), Some(Millis(t + 10_000 - 9 * 999)));
}

#[test]
fn state_errors_leave_the_clock_unchanged() {
    let mut clock = Clock::new(TimeControl::total(s(60)), 2);
    let fresh = clock.clone();
    assert_eq!(clock.switch(at(1), 0), Err(ClockError::NotStarted));
    assert_eq!(clock.pause(at(1)), Err(ClockError::NotStarted));
    assert_eq!(clock.resume(at(1)), Err(ClockError::NotStarted));
    assert_eq!(
        clock.start(at(1), 5),
        Err(ClockError::NoSuchSide { side: 5, sides: 2 })
    );
    assert_eq!(clock, fresh);
    clock.start(at(1), 0).unwrap();
    let started = clock.clone();
    assert_eq!(
        clock.switch(at(2), 2),
        Err(ClockError::NoSuchSide { side: 2, sides: 2 })
    );
    assert_eq!(clock.start(at(2), 1), Err(ClockError::AlreadyStarted));
    assert_eq!(
        clock.undo(at(2), 1),
        Err(ClockError::NotEnoughHistory {
            requested: 1,
            available: 0
        })
    );
    assert_eq!(clock, started);
}

#[test]
fn stop_freezes_and_ends_the_game() {
    run(
        TimeControl::total(s(60)),
        &[
            Start(0, 0),
            Switch(10, 1),
            Stop(25),
            Deadline(None),
            Left(500, 0, 50_000),
            Left(500, 1, 45_000),
            Stop(600), // harmless
            Fails(ClockError::Stopped),
            Switch(600, 0),
            Fails(ClockError::Stopped),
            Resume(600),
            NoEvent,
        ],
    );
    let mut clock = Clock::new(TimeControl::ONLINE, 2);
    clock.stop(at(0)).unwrap();
    assert_eq!(clock.status(), ClockStatus::Stopped { side: None });
    assert_eq!(clock.start(at(1), 0), Err(ClockError::Stopped));
}

#[test]
fn time_going_backwards_saturates() {
    let mut clock = run(
        TimeControl::total(s(60)),
        &[
            Start(100, 0),
            // Earlier than the start: treated as the start, so no time was used.
            Switch(50, 1),
            Left(0, 0, 60_000),
            Left(0, 1, 60_000),
            Deadline(Some(160)),
            Pause(10),
            Resume(5),
            Deadline(Some(160)),
            Switch(130, 0),
            Switch(120, 1), // side 0 used nothing
            Left(0, 0, 60_000),
            Left(0, 1, 30_000),
        ],
    );
    assert_eq!(clock.last_seen(), at(130));
    clock.handle_timeout(Millis(0));
    assert_eq!(clock.last_seen(), at(130));
}

#[test]
fn undo_restores_every_side_as_before_the_undone_move() {
    run(
        TimeControl::Fischer {
            bank: s(60),
            increment: s(2),
            cap: None,
        },
        &[
            Start(0, 0),
            Switch(10, 1), // 0: 60 -> 52
            Switch(30, 0), // 1: 60 -> 42
            Switch(35, 1), // 0: 52 -> 49
            Left(40, 0, 49_000),
            Left(40, 1, 37_000),
            // Take back side 0's last move: its turn starts again with 52 s; side 1's
            // thinking since is not charged, it has 42 s again.
            Undo(40, 1),
            Left(40, 0, 52_000),
            Left(40, 1, 42_000),
            Deadline(Some(92)),
            // And a pair: back to the start of side 0's first turn... side 1's move and side
            // 0's first move are taken back.
            Undo(50, 2),
            Left(50, 0, 60_000),
            Left(50, 1, 60_000),
            Deadline(Some(110)),
            Fails(ClockError::NotEnoughHistory {
                requested: 1,
                available: 0,
            }),
            Undo(50, 1),
        ],
    );
}

#[test]
fn undo_while_paused_stays_paused_and_after_flag_runs_again() {
    let mut clock = run(
        TimeControl::total(s(60)),
        &[
            Start(0, 0),
            Switch(10, 1),
            Pause(15),
            Undo(20, 1),
            Left(100, 0, 60_000),
            Deadline(None),
            Resume(100),
            Deadline(Some(160)),
            Switch(110, 1),
            Timeout(500),
            Flag(1, 170),
            Undo(600, 1),
            Left(600, 0, 60_000),
            Left(600, 1, 60_000),
            Deadline(Some(660)),
        ],
    );
    assert_eq!(clock.status(), ClockStatus::Running { side: 0 });
    assert_eq!(clock.switches(), 0);
    assert_eq!(clock.undo(at(600), 0), Ok(()));
}

#[test]
fn restore_after_restart_spends_the_time_away() {
    let mut clock = Clock::new(TimeControl::combined(s(30), s(120)), 2);
    clock.start(at(1_000), 0).unwrap();
    clock.switch(at(1_020), 1).unwrap();
    clock.switch(at(1_025), 0).unwrap();
    let saved = serde_json::to_string(&clock).unwrap();
    drop(clock);

    // The page comes back 12 s later: side 0 has been thinking all along.
    let mut clock: Clock = serde_json::from_str(&saved).unwrap();
    assert_eq!(clock.remaining(0, at(1_037)), Some(s(18)));
    assert_eq!(clock.remaining(1, at(1_037)), Some(s(30)));
    assert_eq!(clock.poll_timeout(), Some(at(1_055)));
    // It comes back after the deadline: the flag falls at the deadline, not at the reload.
    clock.handle_timeout(at(2_000));
    assert_eq!(
        clock.poll_event(),
        Some(ClockEvent::Flagged {
            side: 0,
            at: at(1_055)
        })
    );

    // A paused clock saved and loaded much later is still paused with its time.
    let mut clock = Clock::new(TimeControl::total(s(60)), 2);
    clock.start(at(0), 0).unwrap();
    clock.pause(at(7)).unwrap();
    let clock: Clock = serde_json::from_str(&serde_json::to_string(&clock).unwrap()).unwrap();
    assert_eq!(clock.remaining(0, at(99_999)), Some(s(53)));
    assert!(clock.is_paused());
}

#[test]
fn pending_events_survive_a_restart() {
    let mut clock = Clock::new(TimeControl::per_move(s(1)), 2);
    clock.start(at(0), 0).unwrap();
    clock.handle_timeout(at(5));
    let mut clock: Clock = serde_json::from_str(&serde_json::to_string(&clock).unwrap()).unwrap();
    assert_eq!(
        clock.poll_event(),
        Some(ClockEvent::Flagged { side: 0, at: at(1) })
    );
    assert_eq!(clock.flagged(), Some((0, at(1))));
}

#[test]
fn inconsistent_saved_state_is_refused() {
    let mut clock = Clock::new(TimeControl::total(s(60)), 2);
    clock.start(at(0), 1).unwrap();
    clock.switch(at(1), 0).unwrap();
    let good = serde_json::to_value(&clock).unwrap();

    let refusal = |bad: serde_json::Value| match serde_json::from_value::<Clock>(bad) {
        Ok(clock) => panic!("an inconsistent state was loaded: {clock:?}"),
        Err(e) => e.to_string(),
    };

    let mut bad = good.clone();
    bad["phase"]["side"] = 2.into();
    assert_eq!(
        refusal(bad),
        "invalid clock state: the phase names side 2 on a clock of 2 sides"
    );

    let mut bad = good.clone();
    bad["sides"] = serde_json::json!([]);
    assert_eq!(
        refusal(bad),
        "invalid clock state: a clock needs at least one side"
    );

    let mut bad = good.clone();
    bad["history"][0]["side"] = 7.into();
    assert_eq!(
        refusal(bad),
        "invalid clock state: switch 0 of the history names side 7 with the times of 2 sides, \
         on a clock of 2 sides"
    );

    let mut bad = good.clone();
    let times = bad["history"][0]["sides"][0].clone();
    bad["history"][0]["sides"]
        .as_array_mut()
        .unwrap()
        .push(times);
    assert_eq!(
        refusal(bad),
        "invalid clock state: switch 0 of the history names side 1 with the times of 3 sides, \
         on a clock of 2 sides"
    );

    assert_eq!(serde_json::from_value::<Clock>(good).unwrap(), clock);
}

#[test]
fn more_than_two_sides_keep_separate_banks() {
    let mut clock = Clock::new(TimeControl::total(s(100)), 3);
    clock.start(at(0), 0).unwrap();
    clock.switch(at(10), 1).unwrap();
    clock.switch(at(30), 2).unwrap();
    clock.switch(at(60), 0).unwrap();
    let left: Vec<_> = (0..3)
        .map(|i| clock.remaining(i, at(60)).unwrap())
        .collect();
    assert_eq!(left, [s(90), s(80), s(70)]);
    assert_eq!(clock.poll_timeout(), Some(at(150)));
}

#[test]
fn time_control_serde_round_trips() {
    let controls = [
        TimeControl::Unlimited,
        TimeControl::ONLINE,
        TimeControl::total(s(600)),
        TimeControl::combined(s(30), s(600)),
        TimeControl::Fischer {
            bank: s(180),
            increment: s(2),
            cap: Some(s(300)),
        },
        TimeControl::Delay {
            bank: s(300),
            delay: s(3),
        },
        TimeControl::ByoYomi {
            main: s(600),
            periods: 5,
            period: s(30),
        },
    ];
    for c in controls {
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            serde_json::from_str::<TimeControl>(&json).unwrap(),
            c,
            "{json}"
        );
    }
    assert_eq!(
        serde_json::to_string(&TimeControl::Unlimited).unwrap(),
        r#"{"kind":"unlimited"}"#
    );
}
