//! Behaviour of the engines, the solver and the hints, checked against naive implementations
//! written here.

use reversi_ai::{
    engine_from_name, hints, solve, AiError, Engine, Level, Limits, Scoring, SearchEngine,
    SearchHandle, SolveOptions, Solver, TimeSource, SQUARE_TABLE,
};
use reversi_core::{Color, Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random position reached by random play, with at most `empties` empty squares, not over.
fn random_position(rng: &mut XorShift, empties: u32) -> Position {
    loop {
        let mut pos = Position::initial();
        while !pos.is_game_over() && pos.empty().count() > empties {
            let moves = pos.legal_move_list();
            pos = pos.play(moves[rng.below(moves.len())]).unwrap();
        }
        if !pos.is_game_over() {
            return pos;
        }
    }
}

/// Final score by brute-force minimax over `Position::play`, for the side to move.
fn brute(pos: &Position, wof: bool) -> i32 {
    if pos.is_game_over() {
        let me = pos.player().count() as i32;
        let them = pos.opponent().count() as i32;
        if wof {
            let (b, w) = pos.wof_tournament_counts();
            let (b, w) = (b as i32, w as i32);
            return if pos.side_to_move() == Color::Black {
                b - w
            } else {
                w - b
            };
        }
        return me - them;
    }
    pos.legal_move_list()
        .into_iter()
        .map(|m| -brute(&pos.play(m).unwrap(), wof))
        .max()
        .unwrap()
}

fn stop() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn solver_agrees_with_brute_force_in_both_conventions() {
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    let mut solver = Solver::with_table_bits(14);
    for i in 0..160 {
        let empties = if i < 24 { 10 } else { 1 + (i % 9) as u32 };
        let pos = random_position(&mut rng, empties);
        for (scoring, wof) in [(Scoring::DiscDifference, false), (Scoring::Wof, true)] {
            let want = brute(&pos, wof);
            let opts = SolveOptions::exact(scoring);
            let s = solver.solve(&pos, &opts).unwrap();
            assert_eq!(s.score, want, "{pos:?} {scoring:?}");
            // The best move achieves the score, and so does the whole PV.
            let after = pos.play(s.best_move).unwrap();
            let child = brute(&after, wof);
            assert_eq!(-child, want, "best move {} of {pos:?}", s.best_move);
            let mut cur = pos;
            for m in &s.pv {
                cur = cur.play(*m).unwrap();
            }
            assert!(cur.is_game_over(), "PV does not reach the end");
            let end = brute(&cur, wof);
            let sign = if s.pv.len().is_multiple_of(2) { 1 } else { -1 };
            assert_eq!(sign * end, want, "PV of {pos:?} does not give the score");
            let wld = solver.solve(&pos, &SolveOptions::wld(scoring)).unwrap();
            assert_eq!(wld.score, want.signum());
            // The convenience function too.
            assert_eq!(solve(&pos, &opts).unwrap().score, want);
        }
    }
}

#[test]
fn hints_are_exact_in_the_endgame() {
    let mut rng = XorShift(77);
    for _ in 0..20 {
        let pos = random_position(&mut rng, 8);
        let h = hints(&pos, &Limits::NONE, Scoring::DiscDifference, &stop()).unwrap();
        assert_eq!(h.len(), pos.legal_move_list().len());
        for hint in &h {
            assert!(hint.exact);
            let child = pos.play(hint.mv).unwrap();
            assert_eq!(
                hint.score,
                -brute(&child, false),
                "hint {hint:?} of {pos:?}"
            );
        }
        assert!(h.windows(2).all(|w| w[0].score >= w[1].score));
    }
    // Midgame hints to a depth score every move.
    let h = hints(
        &Position::initial(),
        &Limits::depth(4),
        Scoring::Wof,
        &stop(),
    )
    .unwrap();
    assert_eq!(h.len(), 4);
    assert!(h.iter().all(|m| m.depth == 4 && !m.exact));
}

fn naive_table(pos: &Position) -> i32 {
    let mut s = 0;
    for sq in Square::ALL {
        let v = SQUARE_TABLE[sq.index() as usize];
        if pos.player().contains(sq) {
            s += v;
        } else if pos.opponent().contains(sq) {
            s -= v;
        }
    }
    s
}

/// Plain minimax on the square table; finished games score ±10000 + disc difference.
fn naive_minimax(pos: &Position, depth: u32) -> i32 {
    if pos.is_game_over() {
        let d = pos.player().count() as i32 - pos.opponent().count() as i32;
        return d.signum() * 10000 + d;
    }
    if depth == 0 {
        return naive_table(pos);
    }
    pos.legal_move_list()
        .into_iter()
        .map(|m| -naive_minimax(&pos.play(m).unwrap(), depth - 1))
        .max()
        .unwrap()
}

#[test]
fn normal_plays_a_best_move_of_a_three_ply_minimax() {
    let mut rng = XorShift(99);
    for i in 0..60 {
        let pos = random_position(&mut rng, 56 - (i % 50));
        let mut normal = Level::Normal.engine(i as u64);
        let r = normal.choose(&pos, &Limits::NONE, &stop()).unwrap();
        if pos.must_pass() {
            assert_eq!(r.best_move, Move::Pass);
            continue;
        }
        let best = pos
            .legal_move_list()
            .into_iter()
            .map(|m| -naive_minimax(&pos.play(m).unwrap(), 2))
            .max()
            .unwrap();
        let got = -naive_minimax(&pos.play(r.best_move).unwrap(), 2);
        assert_eq!(got, best, "Normal chose {} in {pos:?}", r.best_move);
        assert_eq!(r.score, best);
    }
}

#[test]
fn easy_picks_the_most_flipping_move_about_a_third_of_the_time() {
    // In this position one move flips far more than the others.
    let mut rng = XorShift(5);
    let mut pos;
    loop {
        pos = random_position(&mut rng, 40);
        let counts: Vec<u32> = pos
            .legal_moves()
            .iter()
            .map(|s| pos.flips(s).count())
            .collect();
        let max = *counts.iter().max().unwrap_or(&0);
        if counts.len() >= 6 && counts.iter().filter(|&&c| c == max).count() == 1 {
            break;
        }
    }
    let n = pos.legal_moves().count() as f64;
    let max = pos
        .legal_moves()
        .iter()
        .map(|s| pos.flips(s).count())
        .max()
        .unwrap();
    let mut hits = 0;
    let trials = 3000;
    let mut easy = Level::Easy.engine(11);
    for _ in 0..trials {
        let m = easy.choose(&pos, &Limits::NONE, &stop()).unwrap().best_move;
        if pos.flips(m.square().unwrap()).count() == max {
            hits += 1;
        }
    }
    // Expected: 1/3 + 2/3 * 1/n.
    let expected = trials as f64 * (1.0 / 3.0 + 2.0 / 3.0 / n);
    assert!(
        (hits as f64 - expected).abs() < 0.2 * expected,
        "{hits} vs {expected}"
    );
}

fn engines_for_games(seed: u64) -> Vec<Box<dyn Engine>> {
    vec![
        Level::Easy.engine(seed),
        Level::Normal.engine(seed),
        engine_from_name("nodes:3000", seed).unwrap(),
        engine_from_name("depth:2", seed).unwrap(),
    ]
}

#[test]
fn every_engine_move_is_legal_over_many_random_games() {
    let mut rng = XorShift(2024);
    let mut plies = 0;
    for game in 0..40u64 {
        let mut engines = engines_for_games(game);
        let a = rng.below(engines.len());
        let b = rng.below(engines.len());
        let mut pos = Position::initial();
        // A few random opening moves for variety.
        for _ in 0..rng.below(8) {
            let moves = pos.legal_move_list();
            pos = pos.play(moves[rng.below(moves.len())]).unwrap();
        }
        let mut turn = 0;
        while !pos.is_game_over() {
            let idx = if turn % 2 == 0 { a } else { b };
            let r = engines[idx].choose(&pos, &Limits::NONE, &stop()).unwrap();
            assert_eq!(
                r.best_move == Move::Pass,
                pos.must_pass(),
                "pass when not forced"
            );
            pos = pos
                .play(r.best_move)
                .expect("an engine played an illegal move");
            turn += 1;
            plies += 1;
        }
        for e in &mut engines {
            assert_eq!(
                e.choose(&pos, &Limits::NONE, &stop()).unwrap_err(),
                AiError::GameOver
            );
        }
    }
    assert!(plies > 1000);
}

#[test]
fn hard_plays_a_perfect_move_at_fourteen_empties_or_fewer() {
    let mut rng = XorShift(31337);
    let mut hard = Level::Hard.engine(0);
    for _ in 0..8 {
        let pos = random_position(&mut rng, 12);
        if pos.must_pass() {
            continue;
        }
        let r = hard.choose(&pos, &Limits::NONE, &stop()).unwrap();
        let best = solve(&pos, &SolveOptions::default()).unwrap().score;
        assert!(r.exact);
        assert_eq!(r.score, best);
        let child = solve(&pos.play(r.best_move).unwrap(), &SolveOptions::default());
        // The child may be a finished game; then its score is the board difference.
        let child_score = match child {
            Ok(s) => s.score,
            Err(AiError::GameOver) => {
                let after = pos.play(r.best_move).unwrap();
                after.player().count() as i32 - after.opponent().count() as i32
            }
            Err(e) => panic!("{e}"),
        };
        assert_eq!(-child_score, best);
    }
}

#[test]
fn a_node_limit_gives_the_same_move() {
    let mut rng = XorShift(8);
    for i in 0..6 {
        let pos = random_position(&mut rng, 50 - 4 * i);
        for name in ["hard", "nodes:20000"] {
            // A clock that stands still: Hard's own 0.85 s never ends the search, so only the
            // node limit does, however loaded the machine.
            let limits = Limits::nodes(20_000).with_time_source(TimeSource::new(|| Duration::ZERO));
            let mut e1 = engine_from_name(name, 3).unwrap();
            let r1 = e1.choose(&pos, &limits, &stop()).unwrap();
            // A reused engine and a fresh one agree.
            let r1b = e1.choose(&pos, &limits, &stop()).unwrap();
            let r2 = engine_from_name(name, 3)
                .unwrap()
                .choose(&pos, &limits, &stop())
                .unwrap();
            assert_eq!(r1, r2);
            assert_eq!(r1, r1b);
            assert!(r1.nodes <= 20_000 + 64 * 64);
        }
        let a = Level::Easy
            .engine(9)
            .choose(&pos, &Limits::NONE, &stop())
            .unwrap();
        let b = Level::Easy
            .engine(9)
            .choose(&pos, &Limits::NONE, &stop())
            .unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn stopping_a_search_returns_a_legal_move_promptly() {
    let mut rng = XorShift(4);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let pos = random_position(&mut rng, 40);
        // No limit of its own: it would think for a very long time.
        let engine = SearchEngine::new("unbounded".into(), Limits::NONE, 14);
        let handle = SearchHandle::spawn(engine, pos, Limits::NONE);
        std::thread::sleep(Duration::from_millis(100));
        assert!(!handle.is_finished());
        let t = Instant::now();
        handle.stop();
        let (engine, r) = handle.join();
        let dt = t.elapsed();
        assert!(engine.is_some());
        let m = r.unwrap().best_move;
        assert!(pos.play(m).is_ok());
        // Generous per-trial bound (a loaded machine may deschedule us); the best of three
        // trials must meet the promise.
        assert!(dt < Duration::from_secs(1), "{dt:?}");
        best = best.min(dt);
    }
    assert!(best < Duration::from_millis(50), "stop took {best:?}");
    // Stopped before it starts: still a legal move.
    let flag = AtomicBool::new(true);
    let r = Level::Hard
        .engine(0)
        .choose(&Position::initial(), &Limits::NONE, &flag)
        .unwrap();
    assert!(Position::initial().play(r.best_move).is_ok());
}

#[test]
fn passes_and_finished_games_never_panic() {
    // Search positions from random play for a forced pass.
    let mut rng = XorShift(123);
    let mut found = 0;
    while found < 5 {
        let mut p = Position::initial();
        while !p.is_game_over() && !p.must_pass() {
            let moves = p.legal_move_list();
            p = p.play(moves[rng.below(moves.len())]).unwrap();
        }
        if !p.must_pass() {
            continue;
        }
        found += 1;
        for mut e in engines_for_games(found) {
            assert_eq!(
                e.choose(&p, &Limits::NONE, &stop()).unwrap().best_move,
                Move::Pass
            );
        }
        let h = hints(&p, &Limits::depth(2), Scoring::DiscDifference, &stop()).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].mv, Move::Pass);
        if p.empty().count() <= 12 {
            let s = solve(&p, &SolveOptions::default()).unwrap();
            assert_eq!(s.best_move, Move::Pass);
            assert_eq!(s.score, brute(&p, false));
        }
    }
    let over: Position = format!("{} O", "X".repeat(60) + "----").parse().unwrap();
    assert!(over.is_game_over());
    assert_eq!(
        solve(&over, &SolveOptions::default()).unwrap_err(),
        AiError::GameOver
    );
    assert_eq!(
        hints(&over, &Limits::NONE, Scoring::Wof, &stop()).unwrap_err(),
        AiError::GameOver
    );
    assert!(engine_from_name("depth:x", 0).is_err());
    assert!(engine_from_name("depth:0", 0).is_err());
    assert!(matches!(
        engine_from_name("chess", 0),
        Err(AiError::EngineName(_))
    ));
}

#[test]
fn a_bad_obf_line_is_reported_with_its_line_number() {
    let good = format!(
        "{} X; A1:+2;",
        "-".repeat(27) + "OX------XO" + &"-".repeat(27)
    );
    let text = format!("{good}\n% comment\n{good}\nXXO-- X\n");
    match reversi_core::notation::parse_obf(&text) {
        Err(reversi_core::ObfError { line, .. }) => assert_eq!(line, 4),
        other => panic!("{other:?}"),
    }
}

/// Plays a whole game between two engines without limits; returns the moves and the nodes.
fn play_out(engines: &mut [Box<dyn Engine>; 2]) -> (String, u64) {
    let (mut pos, mut moves, mut nodes, mut turn) = (Position::initial(), String::new(), 0, 0);
    while !pos.is_game_over() {
        let r = engines[turn % 2]
            .choose(&pos, &Limits::NONE, &stop())
            .unwrap();
        nodes += r.nodes;
        moves.push_str(&r.best_move.to_string());
        pos = pos.play(r.best_move).unwrap();
        turn += 1;
    }
    (moves, nodes)
}

#[test]
fn easy_and_normal_play_at_no_limit_as_they_always_did() {
    // Games recorded before Easy and Normal obeyed limits and the stop flag: for each seed, Easy
    // against Normal, then Normal against Normal; the moves, and the nodes Normal counted. The
    // moves are the promise; the node counts were recorded again when Normal moved onto the
    // search core (its transposition table saves nodes; not one move changed).
    let recorded: [(u64, u64, &str); 6] = [
        (1, 8771, "e6f4g3f6f3d6c7e3c4h3g6f7f8c3b2d3d2b3a2c6c2c5h2h1b4a1e2c1b7a8f5h6b1e1f2f1g7c8b6h8g4g5g1a4h5d1e7a6g8d8b5a5h7g2e8d7h4a3a7b8"),
        (1, 14961, "d3c5c6c7b6f3f6a6f4f5f2e3b5e6c8g6f7d6d7f8h6e7e8g5g8d8e2h8h4b8g3a4a5d2c3b4b3f1g4h3h2h5g1h1a3a2h7d1e1c1g2c2b2g7b1c4a7a8b7a1"),
        (2, 6652, "c4e3f3g3f5c6e6e7g2h1d6c5b5f6f7g6f4f8g4c3d7b6h7a6e8h4d3h6h3h8b7a8b3a3b4h2b8d8c8h5a2a1d2c2d1c1e2g5c7a4f2f1g8e1b2g7g1a5b1a7"),
        (2, 14809, "d3c5c6c7b6f3f6a6f4f5f2e3b5e6c8g6f7d6d7f8h6e7e8g5g8d8e2h8h4b8g3a4a5d2c3b4b3f1g4h3h2h5c1h1a3a2e1h7g1g2g7c4a7a8b7d1c2b1b2a1"),
        (3, 9044, "c4e3f6c6d6e6f7c5e2g6g7h8b7b3a2f4g4d3c3a8b6a6c7f2f3c8b5c2a7a3h6a1b4f5d2f1b2f8g2d7b8h1g8e7e8e1a4a5g3d8d1g1h2h7g5c1b1h5h4h3"),
        (3, 13663, "e6f4f3f2g3c6c3h3c5c4c7d6g4f5f6g6f7f8h6b3d7c8f1e3a3g5h4h5h2e7d3e2d1c2d2a4a5e1c1g2h1g1b4b2b6b1a1b7a8b5a6a2b8a7d8e8g8h7g7h8"),
    ];
    for (i, &(seed, nodes, moves)) in recorded.iter().enumerate() {
        let mut engines = if i % 2 == 0 {
            [Level::Easy.engine(seed), Level::Normal.engine(seed)]
        } else {
            [Level::Normal.engine(seed ^ 9), Level::Normal.engine(seed)]
        };
        assert_eq!(
            play_out(&mut engines),
            (moves.to_owned(), nodes),
            "seed {seed}"
        );
    }
}

#[test]
fn normal_obeys_node_depth_and_time_limits_and_the_stop_flag() {
    let mut rng = XorShift(21);
    for i in 0..40 {
        let pos = random_position(&mut rng, 20 + (i % 30));
        let legal = |r: &reversi_ai::SearchResult| pos.play(r.best_move).is_ok();
        let full = Level::Normal
            .engine(i.into())
            .choose(&pos, &Limits::NONE, &stop())
            .unwrap();
        // A node budget is never overspent.
        for budget in [0, 1, 5, 50, 200] {
            let r = Level::Normal
                .engine(i.into())
                .choose(&pos, &Limits::nodes(budget), &stop())
                .unwrap();
            assert!(
                r.nodes <= budget,
                "{} nodes for a budget of {budget}",
                r.nodes
            );
            assert!(legal(&r));
        }
        // A budget the full search fits in changes nothing.
        let roomy = Level::Normal
            .engine(i.into())
            .choose(&pos, &Limits::nodes(full.nodes), &stop())
            .unwrap();
        assert_eq!(roomy, full);
        // A shallower depth is searched, never a deeper one.
        let r = Level::Normal
            .engine(i.into())
            .choose(&pos, &Limits::depth(1), &stop())
            .unwrap();
        assert_eq!(r.depth, 1);
        assert!(r.nodes <= full.nodes && legal(&r));
        assert_eq!(
            Level::Normal
                .engine(0)
                .choose(&pos, &Limits::depth(9), &stop())
                .unwrap()
                .depth,
            3
        );
        // No time at all, or a stop already set: an answer without a node searched.
        let r = Level::Normal
            .engine(i.into())
            .choose(&pos, &Limits::time(Duration::ZERO), &stop())
            .unwrap();
        assert_eq!(r.nodes, 0);
        assert!(legal(&r));
        let r = Level::Normal
            .engine(i.into())
            .choose(&pos, &Limits::NONE, &AtomicBool::new(true))
            .unwrap();
        assert_eq!((r.nodes, r.depth), (0, 0));
        assert!(legal(&r));
    }
}

#[test]
fn easy_answers_a_legal_move_under_any_limit_or_stop() {
    let mut rng = XorShift(22);
    for i in 0..40 {
        let pos = random_position(&mut rng, 10 + (i % 50));
        let free = Level::Easy
            .engine(i.into())
            .choose(&pos, &Limits::NONE, &stop())
            .unwrap();
        for (limits, flag) in [
            (Limits::nodes(0), false),
            (Limits::time(Duration::ZERO), false),
            (Limits::depth(1), false),
            (Limits::NONE, true),
        ] {
            let r = Level::Easy
                .engine(i.into())
                .choose(&pos, &limits, &AtomicBool::new(flag))
                .unwrap();
            assert_eq!(r, free);
            assert_eq!(r.nodes, 0);
        }
    }
}

/// A virtual clock for the time-source test: each read moves it on 50 ms.
static VIRTUAL_READS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn virtual_clock() -> Duration {
    let reads = VIRTUAL_READS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Duration::from_millis(50 * reads)
}

#[test]
fn searches_read_the_time_from_the_source_they_are_handed() {
    let source = TimeSource::new(virtual_clock);
    let pos = Position::initial();
    // Hard's own 0.85 s pass after 17 reads of the virtual clock, whatever the real time: the
    // search stops after a few iterations, where a frozen clock lets it reach the depth limit.
    let limits = Limits::depth(12).with_time_source(source);
    let r = Level::Hard
        .engine(1)
        .choose(&pos, &limits, &stop())
        .unwrap();
    assert!(pos.play(r.best_move).is_ok());
    assert!(VIRTUAL_READS.load(std::sync::atomic::Ordering::Relaxed) > 0);
    assert!(r.depth < 12, "reached depth {}", r.depth);
    fn frozen() -> Duration {
        Duration::ZERO
    }
    let frozen = Limits::depth(6).with_time_source(TimeSource::new(frozen));
    let r = Level::Hard
        .engine(1)
        .choose(&pos, &frozen, &stop())
        .unwrap();
    assert_eq!(r.depth, 6);
    // Normal and the hints obey the source too.
    let before = VIRTUAL_READS.load(std::sync::atomic::Ordering::Relaxed);
    let timed = Limits::time(Duration::from_millis(100)).with_time_source(source);
    let r = Level::Normal
        .engine(1)
        .choose(&pos, &timed, &stop())
        .unwrap();
    assert!(pos.play(r.best_move).is_ok());
    assert!(VIRTUAL_READS.load(std::sync::atomic::Ordering::Relaxed) > before);
}
