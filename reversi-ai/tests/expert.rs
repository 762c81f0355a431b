//! The Expert level, hints in discs and the NBoard driver.

use reversi_ai::nboard::{parse_ggf, Command, Driver, NBoardError};
use reversi_ai::{solve, Engine, Expert, Level, Limits, SolveOptions};
use reversi_core::{Move, Position};
use std::sync::atomic::AtomicBool;

fn random_position(seed: u64, empties: u32) -> Position {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        let mut pos = Position::initial();
        while !pos.is_game_over() && pos.empty().count() > empties {
            let moves = pos.legal_move_list();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play(moves[(x % moves.len() as u64) as usize]).unwrap();
        }
        if !pos.is_game_over() {
            return pos;
        }
    }
}

#[test]
fn expert_is_a_level_by_name() {
    assert_eq!("expert".parse::<Level>().unwrap(), Level::Expert);
    assert_eq!(Level::Expert.to_string(), "expert");
    assert_eq!(Level::Expert.engine(0).name(), "expert");
}

#[test]
fn expert_plays_perfectly_at_sixteen_empties_and_legally_before() {
    let stop = AtomicBool::new(false);
    let mut e = Expert::new();
    for seed in 0..4 {
        let pos = random_position(seed, 12);
        let r = e.choose(&pos, &Limits::NONE, &stop).unwrap();
        let best = solve(&pos, &SolveOptions::default()).unwrap().score;
        assert!(r.exact);
        assert_eq!(r.score, best);
        let after = pos.play(r.best_move).unwrap();
        let got = if after.is_game_over() {
            after.player().count() as i32 - after.opponent().count() as i32
        } else {
            solve(&after, &SolveOptions::default()).unwrap().score
        };
        assert_eq!(-got, best, "the move keeps the best result");
    }
    for seed in 10..14 {
        let pos = random_position(seed, 40);
        let r = e.choose(&pos, &Limits::depth(3), &stop).unwrap();
        assert_eq!(r.depth, 3);
        assert!(pos.play(r.best_move).is_ok());
    }
}

#[test]
fn expert_respects_a_node_limit_and_is_reproducible() {
    let stop = AtomicBool::new(false);
    let pos = random_position(3, 44);
    let a = Expert::new()
        .choose(&pos, &Limits::nodes(20_000), &stop)
        .unwrap();
    let b = Expert::new()
        .choose(&pos, &Limits::nodes(20_000), &stop)
        .unwrap();
    assert_eq!(a, b);
    assert!(a.nodes <= 20_000 + 64);
    // A set stop flag still gives a legal move.
    let r = Expert::new()
        .choose(&pos, &Limits::NONE, &AtomicBool::new(true))
        .unwrap();
    assert!(pos.play(r.best_move).is_ok());
}

#[cfg(feature = "embedded-weights")]
#[test]
fn midgame_hints_are_in_discs() {
    use reversi_ai::{hints, Scoring};
    let stop = AtomicBool::new(false);
    let h = hints(
        &Position::initial(),
        &Limits::depth(4),
        Scoring::DiscDifference,
        &stop,
    )
    .unwrap();
    assert_eq!(h.len(), 4);
    // The four first moves are equivalent: the same small score in discs.
    assert!(h
        .iter()
        .all(|x| x.score == h[0].score && x.score.abs() <= 16 && !x.exact));
}

#[cfg(feature = "embedded-weights")]
#[test]
fn the_trained_evaluation_is_the_same_on_the_eight_symmetries() {
    use reversi_ai::pattern::Weights;
    use reversi_core::Symmetry;
    let w = Weights::embedded().unwrap();
    for seed in 0..200 {
        let pos = random_position(seed, 8 + (seed % 50) as u32);
        let e = w.eval(pos.player().0, pos.opponent().0);
        for sym in Symmetry::ALL {
            let s = sym.position(&pos);
            assert_eq!(w.eval(s.player().0, s.opponent().0), e, "{pos} {sym:?}");
        }
    }
}

const START: &str = "---------------------------O*------*O--------------------------- *";

#[test]
fn ggf_games_are_parsed_and_bad_ones_rejected() {
    let g = format!("(;GM[Othello]PC[NBoard]DT[x]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {START}]B[F5]W[F6]B[D3//1.5]W[C5];)");
    let pos = parse_ggf(&g).unwrap();
    let mut expected = Position::initial();
    for m in ["f5", "f6", "d3", "c5"] {
        expected = expected.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(pos, expected);
    for bad in [
        "",
        "(;GM[Othello];)",
        "(;GM[Othello]BO[8 ---];)",
        &format!("(;GM[Othello]BO[10 {START}];)"),
        &format!("(;GM[Othello]BO[8 {START}]W[F5];)"),
        &format!("(;GM[Othello]BO[8 {START}]B[A1];)"),
        &format!("(;GM[Othello]BO[8 {START}]B[F5"),
        &format!("(;GM[Othello]BO[8 {START}]B[Q9];)"),
    ] {
        assert!(
            matches!(parse_ggf(bad), Err(NBoardError::Ggf(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn the_driver_answers_a_session_and_keeps_its_state_on_errors() {
    let mut d = Driver::new();
    assert_eq!(d.handle("nboard 2").unwrap(), ["set myname reversi-expert"]);
    d.handle("set depth 3").unwrap();
    d.handle(&format!("set game (;GM[Othello]BO[8 {START}]B[F5];)"))
        .unwrap();
    assert_eq!(d.position().empty().count(), 59);
    assert!(d.handle("move A1").is_err());
    assert!(d.handle("fly away").is_err());
    assert_eq!(d.position().empty().count(), 59);
    d.handle("move F6/0.5/1.0").unwrap();
    let out = d.handle("go").unwrap();
    let go = out.iter().find(|l| l.starts_with("=== ")).unwrap();
    let mv = reversi_ai::nboard::parse_move(go[4..].split_whitespace().next().unwrap()).unwrap();
    assert!(d.position().play(mv).is_ok());
    let h = d.handle("hint 2").unwrap();
    assert_eq!(h.iter().filter(|l| l.starts_with("search ")).count(), 2);
    assert_eq!(d.handle("ping 5").unwrap(), ["pong 5"]);
    assert_eq!(d.handle("learn").unwrap(), ["learned"]);
    assert_eq!(
        "move PA".parse::<Command>().unwrap(),
        Command::Move(Move::Pass)
    );
}
