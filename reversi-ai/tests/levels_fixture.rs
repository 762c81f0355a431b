//! The moves of Easy, Normal and Hard are a promise to the players: the same position, seed and
//! limits give the same move, whatever the search underneath becomes. `data/levels.txt` holds
//! the moves they chose when this test was written (positions from random games, each level under
//! node and depth limits, and whole games between the levels); this test replays them.
//!
//! To record the fixture again (only when a level's play is meant to change, which it is not):
//! `REVERSI_RECORD_LEVELS=1 cargo test -p reversi-ai --release --test levels_fixture`.

use reversi_ai::{Easy, Engine, Limits, Normal, SearchEngine};
use reversi_core::{Move, Position};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

const FIXTURE: &str = include_str!("data/levels.txt");

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions of random games, two per number of empties from 58 down to 4 (step 3).
fn positions() -> Vec<Position> {
    let mut rng = XorShift(0x5EED_1E7E_15F1_0001);
    let mut out = Vec::new();
    for target in (4..=58).rev().step_by(3) {
        let mut found = 0;
        while found < 2 {
            let mut pos = Position::initial();
            while !pos.is_game_over() && pos.empty().count() > target {
                let moves = pos.legal_move_list();
                pos = pos
                    .play(moves[(rng.next() % moves.len() as u64) as usize])
                    .unwrap();
            }
            if !pos.is_game_over() && !pos.must_pass() {
                out.push(pos);
                found += 1;
            }
        }
    }
    out
}

/// Hard's search without its 0.85 s clock, so that a slow or loaded machine gives the same moves
/// under node and depth limits (`SearchEngine::hard` is this with `Limits::time(HARD_TIME)`).
fn hard() -> SearchEngine {
    SearchEngine::new("hard".into(), Limits::NONE, 14)
}

fn mv(m: Move) -> String {
    m.to_string()
}

/// One line per (position, engine, limits): the chosen move, and for the searching level its
/// score and depth.
fn record() -> String {
    let stop = AtomicBool::new(false);
    let mut out = String::new();
    for (i, pos) in positions().iter().enumerate() {
        let board = pos.to_board_string().replace('\n', "/");
        for seed in [1u64, 7] {
            let seed = seed + i as u64;
            let e = Easy::new(seed).choose(pos, &Limits::NONE, &stop).unwrap();
            writeln!(out, "{board} easy:{seed} {}", mv(e.best_move)).unwrap();
            let n = Normal::new(seed).choose(pos, &Limits::NONE, &stop).unwrap();
            writeln!(out, "{board} normal:{seed} {} {}", mv(n.best_move), n.score).unwrap();
        }
        for nodes in [3_000u64, 40_000, 250_000] {
            let r = hard().choose(pos, &Limits::nodes(nodes), &stop).unwrap();
            writeln!(
                out,
                "{board} hard-nodes:{nodes} {} {} {} {}",
                mv(r.best_move),
                r.score,
                r.depth,
                r.nodes
            )
            .unwrap();
        }
        for depth in [1u32, 4] {
            let r = hard().choose(pos, &Limits::depth(depth), &stop).unwrap();
            writeln!(
                out,
                "{board} hard-depth:{depth} {} {} {}",
                mv(r.best_move),
                r.score,
                r.depth
            )
            .unwrap();
        }
    }
    // Whole games: an engine's state (its random generator) carries from move to move.
    for seed in 0..4u64 {
        let mut a: Box<dyn Engine> = Box::new(Easy::new(seed));
        let mut b: Box<dyn Engine> = Box::new(Normal::new(seed + 100));
        let mut c = hard();
        let mut pos = Position::initial();
        let mut moves = String::new();
        let mut turn = 0;
        while !pos.is_game_over() {
            let lim = Limits::nodes(20_000);
            let r = match (seed + turn) % 3 {
                0 => a.choose(&pos, &lim, &stop),
                1 => b.choose(&pos, &lim, &stop),
                _ => c.choose(&pos, &lim, &stop),
            }
            .unwrap();
            moves.push_str(&mv(r.best_move));
            pos = pos.play(r.best_move).unwrap();
            turn += 1;
        }
        writeln!(out, "game:{seed} {moves}").unwrap();
    }
    out
}

#[test]
fn easy_normal_and_hard_keep_their_moves() {
    let now = record();
    if std::env::var_os("REVERSI_RECORD_LEVELS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/levels.txt");
        std::fs::write(path, &now).unwrap();
        return;
    }
    assert!(FIXTURE.lines().count() > 300, "the fixture is missing");
    let mut differ = Vec::new();
    for (i, (want, got)) in FIXTURE.lines().zip(now.lines()).enumerate() {
        if want != got {
            differ.push(format!(
                "line {}:\n  recorded {want}\n  now      {got}",
                i + 1
            ));
        }
    }
    assert_eq!(FIXTURE.lines().count(), now.lines().count(), "line count");
    assert!(
        differ.is_empty(),
        "{} lines differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
