//! The NBoard engine's clock: a GGF game's time control and its moves' times, and the time a
//! `go` may take on it.

use proptest::prelude::*;
use reversi_ai::nboard::{parse_ggf, parse_ggf_clock, Command, Driver, NBoardError};
use reversi_ai::time::think_time;
use reversi_ai::EXPERT_TIME;
use reversi_core::{Color, Position};
use std::time::Duration;

const START: &str = "---------------------------O*------*O--------------------------- *";

fn game(props: &str, moves: &str) -> String {
    format!("(;GM[Othello]PC[NBoard]{props}BO[8 {START}]{moves};)")
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_games_time_control_and_its_moves_times_make_its_clock() {
    // Hours, minutes and seconds; an increment; the extension not counted on.
    let c = parse_ggf_clock(&game(
        "TI[1:00:00/0:05/2:00]",
        "B[F5/0.1/30]W[F6//12.5]B[E6]",
    ))
    .unwrap();
    assert_eq!(
        c.left(Color::Black),
        Some(ms(3_600_000 + 2 * 5_000 - 30_000))
    );
    assert_eq!(c.left(Color::White), Some(ms(3_600_000 + 5_000 - 12_500)));
    assert_eq!(c.increment(Color::White), ms(5_000));
    // One colour's control replaces the common one; options after a comma are ignored.
    let c = parse_ggf_clock(&game("TI[10:00]TW[2:00,L]", "B[F5//1]")).unwrap();
    assert_eq!(c.left(Color::Black), Some(ms(599_000)));
    assert_eq!(c.left(Color::White), Some(ms(120_000)));
    // No control, or a control of no time: no clock.
    for props in ["", "TI[0:00]", "TI[]"] {
        let c = parse_ggf_clock(&game(props, "B[F5//3]")).unwrap();
        assert_eq!(c.left(Color::Black), None, "{props}");
        assert_eq!(c.left(Color::White), None, "{props}");
    }
    // Times too long for any clock: the most a clock holds, not an overflow.
    let huge = "TI[5124095576030431:00:00/5124095576030431:00:00]";
    let moves = "B[F5//1]W[F6//1]B[E6//1]";
    let c = parse_ggf_clock(&game(huge, moves)).unwrap();
    assert_eq!(
        c.left(Color::Black),
        Some(Duration::MAX - Duration::from_secs(2))
    );
    assert!(parse_ggf_clock(&game("TI[5124095576030431:00:00:00]", "")).is_err());
    assert!(parse_ggf_clock(&game("TI[99999999999999999999:00]", "")).is_err());
    // More used than given: nothing left, not a wrap-around.
    let c = parse_ggf_clock(&game("TI[0:10]", "B[F5//25]")).unwrap();
    assert_eq!(c.left(Color::Black), Some(Duration::ZERO));
}

#[test]
fn a_time_that_is_not_a_time_is_refused_by_name() {
    for (props, moves) in [
        ("TI[five minutes]", ""),
        ("TI[1:2:3:4]", ""),
        ("TI[1:00/2/3/4]", ""),
        ("TI[-1:00]", ""),
        ("TB[1:x0]", ""),
        ("TI[1:00]", "B[F5//soon]"),
        ("TI[1:00]", "B[F5//-3]"),
        ("", "B[F5//NaN]"),
        ("", "B[F5//inf]"),
    ] {
        let g = game(props, moves);
        match parse_ggf_clock(&g) {
            Err(NBoardError::Ggf(msg)) => assert!(msg.contains("time"), "{g}: {msg}"),
            other => panic!("{g}: {other:?}"),
        }
        assert!(matches!(parse_ggf(&g), Err(NBoardError::Ggf(_))), "{g}");
    }
}

#[test]
fn a_refused_line_leaves_the_session_as_it_was() {
    let mut d = Driver::new();
    d.handle(&format!("set game {}", game("TI[1:00]", "B[F5//4]")))
        .unwrap();
    let (pos, clock, time) = (*d.position(), *d.clock(), d.think_time());
    for line in [
        format!("set game {}", game("TI[1:00/x]", "")),
        format!("set game {}", game("TI[1:00]", "B[F5//x]")),
        "move F6/0/later".to_string(),
        "move F6/0/-1".to_string(),
        "move A1//1".to_string(),
    ] {
        assert!(d.handle(&line).is_err(), "{line}");
        assert_eq!(*d.position(), pos, "{line}");
        assert_eq!(*d.clock(), clock, "{line}");
        assert_eq!(d.think_time(), time, "{line}");
    }
}

#[test]
fn a_move_line_with_a_time_that_is_not_one_does_not_parse() {
    for line in [
        "move F5/0/soon",
        "move F5/0/-2",
        "move F5//1:2:3:4",
        "move PA/1/NaN",
    ] {
        assert!(
            matches!(line.parse::<Command>(), Err(NBoardError::BadArgument(_))),
            "{line}"
        );
    }
    // Seconds or a clock value.
    let mut d = Driver::new();
    d.handle(&format!("set game {}", game("TI[1:00]", "")))
        .unwrap();
    d.handle("move F5/0/0:03").unwrap();
    d.handle("move F6/0/1.5").unwrap();
    assert_eq!(d.clock().left(Color::Black), Some(ms(57_000)));
    assert_eq!(d.clock().left(Color::White), Some(ms(58_500)));
}

#[test]
fn go_shares_out_the_movers_time_left() {
    let mut d = Driver::new();
    assert_eq!(d.think_time(), EXPERT_TIME);
    // A minute each: 30 moves at the start.
    d.handle(&format!("set game {}", game("TI[1:00]", "")))
        .unwrap();
    assert_eq!(d.think_time(), ms((60_000 - 250) / 30));
    // Black took 20 s; White, to move at 59 empties, has its whole minute for 29 moves.
    d.handle("move F5/0/20").unwrap();
    assert_eq!(d.think_time(), ms((60_000 - 250) / 29));
    d.handle("move F6/0/50").unwrap();
    // Black: 40 s for 29 moves.
    assert_eq!(d.think_time(), ms((40_000 - 250) / 29));
    // With an increment, three quarters of it are spent as well: White, to move, has 30 s
    // (Black has 22: 30, 2 back, 10 used).
    d.handle(&format!("set game {}", game("TI[0:30/2]", "B[F5//10]")))
        .unwrap();
    assert_eq!(d.think_time(), ms((30_000 - 250) / 29 + 1_500));
    d.handle("move F6//1").unwrap();
    assert_eq!(d.think_time(), ms((22_000 - 250) / 29 + 1_500));
    // Under a depth, the clock's share is the most the search may take...
    d.handle("set depth 20").unwrap();
    assert_eq!(d.think_time(), ms((22_000 - 250) / 29 + 1_500));
    // ...and without a clock, ten times Expert's time.
    d.handle(&format!("set game {}", game("", "B[F5//10]")))
        .unwrap();
    assert_eq!(d.think_time(), EXPERT_TIME * 10);
}

#[test]
fn a_move_of_the_engine_sent_back_without_its_time_is_charged_what_go_took() {
    let mut d = Driver::new();
    d.handle("set depth 2").unwrap();
    d.handle(&format!("set game {}", game("TI[1:00]", "")))
        .unwrap();
    let out = d.handle("go").unwrap();
    let answer = out.iter().find_map(|l| l.strip_prefix("=== ")).unwrap();
    let mv = answer.split('/').next().unwrap().to_string();
    // Another move than the engine's is not charged.
    let mut other = Driver::new();
    other
        .handle(&format!("set game {}", game("TI[1:00]", "")))
        .unwrap();
    let another = ["F5", "E6", "D3", "C4"]
        .into_iter()
        .find(|m| *m != mv)
        .unwrap();
    other.handle(&format!("move {another}")).unwrap();
    assert_eq!(other.clock().left(Color::Black), Some(ms(60_000)));
    // The engine's own move is.
    d.handle(&format!("move {mv}")).unwrap();
    let left = d.clock().left(Color::Black).unwrap();
    assert!(left < ms(60_000) && left > Duration::ZERO, "{left:?}");
    assert_eq!(d.clock().left(Color::White), Some(ms(60_000)));
    assert_ne!(*d.position(), Position::initial());
}

proptest! {
    /// Moves that each take the whole share never run a clock out, down to the last of the
    /// moves it was shared over, whatever the control.
    #[test]
    fn a_clock_shared_out_move_by_move_is_never_run_out(
        bank_ms in 1_000u64..3_600_000,
        inc_ms in prop_oneof![Just(0u64), 0u64..30_000],
        empties in 2u32..=60,
    ) {
        let (bank, inc) = (ms(bank_ms), ms(inc_ms));
        let mut left = bank;
        let mut e = empties;
        while e >= 2 {
            let t = think_time(left, Some(left), inc, e);
            prop_assert!(t < left, "took {:?} of {:?} at {} empties", t, left, e);
            left = left - t + inc;
            e -= 2;
        }
        // Each move on its own limit: all of it but a margin.
        let t = think_time(bank, None, Duration::ZERO, empties);
        prop_assert!(t < bank && t >= bank.saturating_sub(ms(250)));
    }
}
