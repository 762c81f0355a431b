//! Saved local matches from before the game-and-clock machine moved into the room crate
//! (`tests/data/local/*.json`, written by `LocalMatch::save_json(true)` then): they load, save
//! back byte for byte, and go on as they did.

use reversi::ai::Limits;
use reversi::clock::{Millis, Span};
use reversi::core::{Color, Square};
use reversi::local::{EndReason, LocalError, LocalMatch, Opponent};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/data/local/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// Loads a fixture at the last instant its clock saw, and checks that it saves back the same.
fn load(name: &str, now: Millis) -> LocalMatch {
    let text = fixture(name);
    let m = LocalMatch::load_json(&text, now).unwrap();
    assert_eq!(
        m.save_json(true) + "\n",
        text,
        "{name} saves back differently"
    );
    m
}

#[test]
fn a_match_lost_on_time_loads_finished() {
    let mut m = load("timeout", Millis(1_700_000_030_000));
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::Black),
            EndReason::Timeout { seat: 1 },
            Millis(1_700_000_027_500)
        )
    );
    assert_eq!(m.game().transcript(), "f5f6e6");
    assert_eq!(m.version(), 5);
    assert_eq!(m.to_move(), None);
    let before = m.clone();
    let now = Millis(1_700_000_040_000);
    assert_eq!(m.play(sq("f4"), now), Err(LocalError::GameOver));
    assert_eq!(m.undo(now), Err(LocalError::GameOver));
    assert_eq!(m.resign(now), Err(LocalError::GameOver));
    assert_eq!(m, before);
}

#[test]
fn a_resigned_match_loads_finished() {
    let mut m = load("resigned", Millis(1_700_000_120_000));
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::Black),
            EndReason::Resigned { seat: 1 },
            Millis(1_700_000_120_000)
        )
    );
    assert_eq!(m.settings().human, Color::White);
    assert_eq!(m.game().transcript(), "d3c3e6");
    assert_eq!(m.version(), 5);
    let before = m.clone();
    assert_eq!(
        m.computer_move(&Limits::none(), Millis(1_700_000_130_000)),
        Err(LocalError::GameOver)
    );
    assert_eq!(m, before);
    // Loaded much later, it is the same finished match.
    let later = LocalMatch::load_json(&fixture("resigned"), Millis(1_800_000_000_000)).unwrap();
    assert_eq!(later, m);
}

#[test]
fn a_match_in_progress_against_the_computer_goes_on_the_same_way() {
    let mut m = load("in-progress", Millis(1_700_000_224_000));
    assert_eq!(
        m.settings().opponent.level(),
        Some(reversi::ai::Level::Easy)
    );
    assert_eq!(m.game().transcript(), "d3e3f2c2d2e2f6g1");
    assert_eq!(m.version(), 12);
    assert_eq!(m.to_move(), Some(Color::Black));
    let now = Millis(1_700_000_224_000);
    assert_eq!(m.remaining(Color::Black, now), Some(Span::from_secs(30)));
    assert_eq!(m.remaining(Color::White, now), Some(Span::from_secs(30)));

    // The undo history came along: two pairs can be taken back, then no more.
    assert!(m.can_undo());
    assert_eq!(m.undo(Millis(1_700_000_226_000)), Ok(2));
    assert_eq!(m.game().transcript(), "d3e3f2c2d2e2");
    assert_eq!(m.version(), 13);

    // The person plays, and the computer answers as it did when the fixture was made.
    let square = m
        .game()
        .position()
        .legal_moves()
        .into_iter()
        .next()
        .unwrap();
    m.play(square, Millis(1_700_000_229_000)).unwrap();
    m.computer_move(&Limits::none(), Millis(1_700_000_230_000))
        .unwrap();
    assert_eq!(m.game().transcript(), "d3e3f2c2d2e2b1g1");
    assert_eq!(m.version(), 15);
    let now = Millis(1_700_000_230_000);
    assert_eq!(m.remaining(Color::Black, now), Some(Span::from_secs(30)));
    assert_eq!(m.remaining(Color::White, now), Some(Span::from_secs(30)));

    // Then black's turn runs out: 30 s a move.
    assert_eq!(m.poll_timeout(), Some(Millis(1_700_000_260_000)));
    assert!(m.handle_timeout(Millis(1_700_000_260_000)));
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::White),
            EndReason::Timeout { seat: 0 },
            Millis(1_700_000_260_000)
        )
    );
    assert_eq!(m.version(), 16);
}

#[test]
fn a_match_in_progress_loaded_late_is_lost_on_time() {
    let m = LocalMatch::load_json(&fixture("in-progress"), Millis(1_700_000_300_000)).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason, r.at),
        (
            Some(Color::White),
            EndReason::Timeout { seat: 0 },
            Millis(1_700_000_254_000)
        )
    );
    assert_eq!(m.version(), 13);
}

#[test]
fn a_match_between_people_goes_on_the_same_way() {
    let mut m = load("people-undo", Millis(1_700_000_330_000));
    assert_eq!(m.settings().opponent, Opponent::Person);
    assert_eq!(m.game().transcript(), "f5d6c5");
    assert_eq!(m.version(), 6);
    assert_eq!(m.to_move(), Some(Color::White));
    let now = Millis(1_700_000_330_000);
    // Black used 5 s for f5 and 8 s for c5 (c3's 9 s were undone), white 6 s.
    assert_eq!(m.remaining(Color::Black, now), Some(Span::from_secs(587)));
    assert_eq!(m.remaining(Color::White, now), Some(Span::from_secs(594)));
    m.play(sq("f4"), Millis(1_700_000_340_000)).unwrap();
    assert_eq!(m.undo(Millis(1_700_000_341_000)), Ok(1));
    assert_eq!(m.undo(Millis(1_700_000_342_000)), Ok(1));
    assert_eq!(m.game().transcript(), "f5d6");
    assert_eq!(m.to_move(), Some(Color::Black));
    assert_eq!(m.version(), 9);
    m.resign(Millis(1_700_000_350_000)).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.winner, r.reason),
        (Some(Color::White), EndReason::Resigned { seat: 0 })
    );
}

#[test]
fn a_result_reads_in_the_old_form_and_the_rooms() {
    let text = fixture("timeout");
    let now = Millis(1_700_000_030_000);
    let want = LocalMatch::load_json(&text, now).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The rooms' form of the same reason.
    v["result"]["reason"] = serde_json::json!({"reason": "timeout", "seat": 1});
    let m = LocalMatch::load_value(v.clone(), now).unwrap();
    assert_eq!(m, want);
    // Saved again, it is in the old form.
    assert_eq!(m.save_json(true) + "\n", text);
    // The seat must be the loser's.
    v["result"]["reason"] = serde_json::json!({"reason": "timeout", "seat": 0});
    assert!(matches!(
        LocalMatch::load_value(v.clone(), now),
        Err(reversi::local::LoadError::Inconsistent(_))
    ));
    // A reason no local match ends by.
    v["result"]["reason"] = serde_json::json!({"reason": "time_limit"});
    assert!(matches!(
        LocalMatch::load_value(v.clone(), now),
        Err(reversi::local::LoadError::Inconsistent(_))
    ));
    // The old names need a winner to name the loser's seat, and no other name is read.
    v["result"] = serde_json::json!({"winner": null, "reason": "timeout", "at": 1});
    assert!(matches!(
        LocalMatch::load_value(v.clone(), now),
        Err(reversi::local::LoadError::Format(_))
    ));
    v["result"] = serde_json::json!({"winner": "black", "reason": "forfeit", "at": 1});
    assert!(matches!(
        LocalMatch::load_value(v, now),
        Err(reversi::local::LoadError::Format(_))
    ));
}
