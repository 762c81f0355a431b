//! The local match state machine: undo and the clock, time-outs, resignation, the computer's
//! moves and passes, and saved games.

use reversi::ai::{Level, Limits};
use reversi::clock::{Millis, Span, TimeControl};
use reversi::core::{Color, Position, Square};
use reversi::local::{EndReason, LoadError, LocalError, LocalMatch, Opponent, Settings};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn settings(opponent: Opponent, human: Color, time: TimeControl) -> Settings {
    Settings::new(opponent, human, time, 11)
}

#[test]
fn undo_of_a_pair_restores_the_clock() {
    let s = settings(
        Opponent::Computer(Level::Easy),
        Color::Black,
        TimeControl::total(Span::from_secs(60)),
    );
    let mut m = LocalMatch::new(s, Millis(1_000_000));
    m.play(sq("f5"), Millis(1_010_000)).unwrap();
    assert_eq!(
        m.play(sq("f6"), Millis(1_011_000)),
        Err(LocalError::NotYourTurn)
    );
    m.computer_move(&Limits::none(), Millis(1_012_000)).unwrap();
    assert_eq!(
        m.remaining(Color::Black, Millis(1_012_000)),
        Some(Span::from_secs(50))
    );
    assert_eq!(
        m.remaining(Color::White, Millis(1_012_000)),
        Some(Span::from_secs(58))
    );
    let version = m.version();
    assert_eq!(m.undo(Millis(1_020_000)), Ok(2));
    assert_eq!(m.version(), version + 1);
    assert_eq!(*m.game().position(), Position::initial());
    for color in [Color::Black, Color::White] {
        assert_eq!(
            m.remaining(color, Millis(1_020_000)),
            Some(Span::from_secs(60))
        );
    }
    assert_eq!(m.clock().running_side(), Some(0));
    let before = m.clone();
    assert_eq!(m.undo(Millis(1_020_000)), Err(LocalError::NothingToUndo));
    assert_eq!(m, before);
}

#[test]
fn undo_while_the_computer_is_to_move_takes_back_the_persons_move() {
    let s = settings(
        Opponent::Computer(Level::Normal),
        Color::Black,
        TimeControl::Unlimited,
    );
    let mut m = LocalMatch::new(s, Millis(0));
    m.play(sq("f5"), Millis(1)).unwrap();
    assert!(m.computer_to_move() && m.can_undo());
    assert_eq!(m.undo(Millis(2)), Ok(1));
    assert_eq!(m.to_move(), Some(Color::Black));
    // The computer playing black moved first: white has nothing to undo yet.
    let s = settings(
        Opponent::Computer(Level::Easy),
        Color::White,
        TimeControl::Unlimited,
    );
    let mut m = LocalMatch::new(s, Millis(0));
    m.computer_move(&Limits::none(), Millis(1)).unwrap();
    assert!(!m.can_undo());
    assert_eq!(m.undo(Millis(2)), Err(LocalError::NothingToUndo));
}

#[test]
fn a_time_out_ends_the_game() {
    let s = settings(
        Opponent::Person,
        Color::Black,
        TimeControl::per_move(Span::from_secs(15)),
    );
    let mut m = LocalMatch::new(s, Millis(0));
    m.play(sq("f5"), Millis(1_000)).unwrap();
    assert_eq!(m.poll_timeout(), Some(Millis(16_000)));
    assert!(!m.handle_timeout(Millis(15_999)));
    // A move after the deadline finds the game lost on time.
    assert_eq!(m.play(sq("f6"), Millis(20_000)), Err(LocalError::GameOver));
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::Black),
            EndReason::Timeout { seat: 1 },
            Millis(16_000)
        )
    );
    assert_eq!(m.poll_timeout(), None);
    assert!(!m.handle_timeout(Millis(30_000)));
    assert_eq!(m.undo(Millis(30_000)), Err(LocalError::GameOver));
    assert_eq!(m.resign(Millis(30_000)), Err(LocalError::GameOver));
}

#[test]
fn resignation_against_the_computer_is_the_persons() {
    let s = settings(
        Opponent::Computer(Level::Easy),
        Color::White,
        TimeControl::Unlimited,
    );
    let mut m = LocalMatch::new(s, Millis(0));
    // The computer (black) is to move; the person resigns all the same.
    m.resign(Millis(5)).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason),
        (Some(Color::Black), EndReason::Resigned { seat: 1 })
    );
    assert_eq!(m.to_move(), None);
    assert_eq!(
        m.computer_move(&Limits::none(), Millis(6)),
        Err(LocalError::GameOver)
    );
}

#[test]
fn illegal_moves_leave_the_match_unchanged() {
    let s = settings(Opponent::Person, Color::Black, TimeControl::Unlimited);
    let mut m = LocalMatch::new(s, Millis(0));
    let before = m.clone();
    assert!(matches!(
        m.play(sq("a1"), Millis(0)),
        Err(LocalError::IllegalMove(_))
    ));
    assert_eq!(m, before);
    assert_eq!(
        m.computer_move(&Limits::none(), Millis(0)),
        Err(LocalError::NotComputersTurn)
    );
}

#[test]
fn the_computer_plays_legal_moves_to_the_end() {
    for (level, seed) in [(Level::Easy, 1), (Level::Normal, 2), (Level::Easy, 3)] {
        for human in [Color::Black, Color::White] {
            let s = Settings::new(
                Opponent::Computer(level),
                human,
                TimeControl::Unlimited,
                seed,
            );
            let mut m = LocalMatch::new(s, Millis(0));
            let mut t = 0;
            while !m.is_over() {
                t += 10;
                let pos = *m.game().position();
                if m.computer_to_move() {
                    let turn = m.computer_move(&Limits::none(), Millis(t)).unwrap();
                    assert!(pos.is_legal(turn.square));
                    assert_eq!(turn.color, !human);
                } else {
                    // The person plays its first legal move.
                    let square = pos.legal_moves().iter().next().unwrap();
                    m.play(square, Millis(t)).unwrap();
                }
            }
            let r = m.result().unwrap();
            assert_eq!(r.reason, EndReason::Board);
            assert_eq!(Some(r.winner), m.game().outcome().map(|o| o.winner()));
        }
    }
}

/// Black has no move at the start, white has: black's pass is made at once.
const BLACK_PASSES: &str = "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX- X";

#[test]
fn passes_are_handled() {
    let start: Position = BLACK_PASSES.parse().unwrap();
    assert!(start.must_pass());
    // Against the computer playing white: after black's pass, the computer is to move.
    let s = settings(
        Opponent::Computer(Level::Easy),
        Color::Black,
        TimeControl::per_move(Span::from_secs(15)),
    );
    let mut m = LocalMatch::from_position(s, start, Millis(0));
    assert_eq!(m.to_move(), Some(Color::White));
    assert_eq!(m.clock().running_side(), Some(1));
    assert!(m.computer_to_move());
    assert!(!m.can_undo());
    let turn = m.computer_move(&Limits::none(), Millis(100)).unwrap();
    assert_eq!(turn.square, sq("h8"));
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(Color::White), EndReason::Board));
}

#[test]
fn save_and_load_round_trip() {
    let s = settings(
        Opponent::Computer(Level::Normal),
        Color::White,
        TimeControl::combined(Span::from_secs(30), Span::from_mins(5)),
    );
    let mut m = LocalMatch::new(s, Millis(1_000));
    m.computer_move(&Limits::none(), Millis(2_000)).unwrap();
    let square = m.game().position().legal_moves().iter().next().unwrap();
    m.play(square, Millis(5_000)).unwrap();
    let json = m.save_json(true);
    let back = LocalMatch::load_json(&json, Millis(5_000)).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.save_json(true), json);

    // Time away counts: 40 s later the computer (white... black here) has lost on time.
    let later = LocalMatch::load_json(&json, Millis(45_000)).unwrap();
    let r = later.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::White),
            EndReason::Timeout { seat: 0 },
            Millis(35_000)
        )
    );

    // A finished match loads finished.
    let mut over = m.clone();
    over.resign(Millis(6_000)).unwrap();
    let back = LocalMatch::load_json(&over.save_json(false), Millis(9_000)).unwrap();
    assert_eq!(back.result(), over.result());
}

#[test]
fn bad_saved_games_are_refused() {
    let s = settings(
        Opponent::Person,
        Color::Black,
        TimeControl::total(Span::from_mins(5)),
    );
    let mut m = LocalMatch::new(s, Millis(0));
    m.play(sq("f5"), Millis(1_000)).unwrap();
    let good: serde_json::Value = serde_json::from_str(&m.save_json(false)).unwrap();
    let load = |v: &serde_json::Value| LocalMatch::load_json(&v.to_string(), Millis(2_000));
    assert!(load(&good).is_ok());

    assert!(matches!(
        LocalMatch::load_json("not json", Millis(0)),
        Err(LoadError::Format(_))
    ));
    assert!(matches!(
        LocalMatch::load_json("[1,2]", Millis(0)),
        Err(LoadError::Format(_))
    ));
    let mut v = good.clone();
    v["version"] = 3.into();
    assert_eq!(load(&v), Err(LoadError::Version(3)));

    let mut v = good.clone();
    v["game"]["moves"] = serde_json::json!(["f5", "a1"]);
    assert!(
        matches!(load(&v), Err(LoadError::Format(_))),
        "{:?}",
        load(&v)
    );

    // A record one move longer than the clock.
    let mut v = good.clone();
    v["game"]["moves"] = serde_json::json!(["f5", "f6"]);
    assert!(matches!(load(&v), Err(LoadError::Inconsistent(_))));

    // The settings' time control differs from the clock's.
    let mut v = good.clone();
    v["settings"]["time"] = serde_json::to_value(TimeControl::Unlimited).unwrap();
    assert!(matches!(load(&v), Err(LoadError::Inconsistent(_))));

    // A result by the board on a game in progress.
    let mut v = good.clone();
    v["result"] = serde_json::json!({"winner": "black", "reason": "board", "at": 5});
    assert!(matches!(load(&v), Err(LoadError::Inconsistent(_))));

    let mut v = good.clone();
    v["settings"]["opponent"] = serde_json::json!({"computer": "grandmaster"});
    assert!(matches!(load(&v), Err(LoadError::Format(_))));

    let mut v = good;
    v["extra"] = 1.into();
    assert!(matches!(load(&v), Err(LoadError::Format(_))));
}

#[test]
fn the_terminal_games_old_saves_still_load() {
    let old = r#"{"version":1,"settings":{"opponent":"human","human":"black",
        "time":"Unlimited","seed":4},"game":GAME,"clock":CLOCK}"#;
    let s = settings(Opponent::Person, Color::Black, TimeControl::Unlimited);
    let mut m = LocalMatch::new(s, Millis(0));
    m.play(sq("f5"), Millis(10)).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&m.save_json(false)).unwrap();
    let old = old
        .replace("\"Unlimited\"", &saved["settings"]["time"].to_string())
        .replace("GAME", &saved["game"].to_string())
        .replace("CLOCK", &saved["clock"].to_string());
    let back = LocalMatch::load_json(&old, Millis(20)).unwrap();
    assert_eq!(back.settings().opponent, Opponent::Person);
    assert_eq!(back.game().transcript(), "f5");
    assert_eq!(back.to_move(), Some(Color::White));
}

#[test]
fn the_computer_thinks_as_long_as_each_time_control_allows() {
    // The computer (black) to move at the start: 60 empties, about 30 of its moves to come,
    // and a quarter of a second kept back.
    let s = Span::from_secs;
    let budget = |time: TimeControl| {
        let m = LocalMatch::new(
            settings(Opponent::Computer(Level::Hard), Color::White, time),
            Millis(0),
        );
        m.think_budget(Millis(0)).map(|d| d.as_millis())
    };
    assert_eq!(budget(TimeControl::Unlimited), None);
    assert_eq!(budget(TimeControl::per_move(s(15))), Some(14_750));
    // A bank: its share.
    assert_eq!(budget(TimeControl::total(s(300))), Some(299_750 / 30));
    // Per move and a bank: the bank's share within the move's limit.
    assert_eq!(budget(TimeControl::combined(s(10), s(300))), Some(9_750));
    assert_eq!(
        budget(TimeControl::combined(s(30), s(60))),
        Some(59_750 / 30)
    );
    // An increment, a delay, a byo-yomi period: three quarters of it on top of the share.
    let fischer = TimeControl::Fischer {
        bank: s(180),
        increment: s(2),
        cap: None,
    };
    assert_eq!(budget(fischer), Some(179_750 / 30 + 1_500));
    let delay = TimeControl::Delay {
        bank: s(60),
        delay: s(5),
    };
    assert_eq!(budget(delay), Some(59_750 / 30 + 3_750));
    let byo = TimeControl::ByoYomi {
        main: s(10),
        periods: 3,
        period: s(5),
    };
    assert_eq!(budget(byo), Some(9_750 / 30 + 3_750));
    // Never more than the time to the flag less the margin: a tiny Fischer bank.
    let tight = TimeControl::Fischer {
        bank: Span::from_millis(600),
        increment: s(10),
        cap: None,
    };
    assert_eq!(budget(tight), Some(450));
}

#[test]
fn in_byo_yomi_overtime_the_computer_uses_most_of_a_period() {
    let byo = TimeControl::ByoYomi {
        main: Span::from_secs(1),
        periods: 2,
        period: Span::from_secs(8),
    };
    let mut m = LocalMatch::new(
        settings(Opponent::Computer(Level::Hard), Color::Black, byo),
        Millis(0),
    );
    m.play(sq("d3"), Millis(500)).unwrap();
    // The computer's main time is whole: its share of 0.75 s over 29 moves, and 6 s of a period.
    let budget = |m: &LocalMatch, now| m.think_budget(Millis(now)).map(|d| d.as_millis());
    assert_eq!(budget(&m, 500), Some(750 / 29 + 6_000));
    // It takes 2 s: its main time is gone, and the move keeps its first period.
    let reply = m.game().position().legal_move_list()[0];
    m.play_computer(reply.square().unwrap(), Millis(2_500))
        .unwrap();
    let next = m.game().position().legal_move_list()[0];
    m.play(next.square().unwrap(), Millis(3_000)).unwrap();
    // In overtime: three quarters of the period.
    assert_eq!(budget(&m, 3_000), Some(6_000));
}
