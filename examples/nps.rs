//! Search speed of Hard and Expert: nodes per second over the same midgame positions.
//!
//! `cargo run --release --example nps -- [POSITIONS] [MILLISECONDS] [THREADS] [DEPTH]` (default
//! 20 positions at 24 to 43 empties, 500 ms each, one thread). With THREADS above one, Expert
//! also runs on that many threads. With DEPTH, every search goes to that depth instead of a time
//! (the time it takes is the figure to compare). Expert runs once per move generation kernel of
//! the CPU (the fastest first, as by default; the moves are the same on every kernel, only the
//! speed differs). Speed on a shared machine varies: compare the engines from the same run.

use reversi::ai::{Engine, Expert, Level, Limits};
use reversi::core::movegen::Kernel;
use reversi::core::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let threads: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let depth_limit: Option<u32> = args.next().and_then(|a| a.parse().ok());
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut positions = Vec::new();
    while positions.len() < n as usize {
        let target = 24 + (positions.len() as u32 % 20);
        let mut pos = Position::initial();
        while !pos.is_game_over() && pos.empty().count() > target {
            let moves = pos.legal_move_list();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos
                .play(moves[(x % moves.len() as u64) as usize])
                .expect("legal");
        }
        if pos.legal_moves().count() >= 2 {
            positions.push(pos);
        }
    }
    let stop = AtomicBool::new(false);
    let limits = match depth_limit {
        Some(d) => Limits::depth(d),
        None => Limits::time(Duration::from_millis(ms)),
    };
    let mut engines: Vec<(String, Box<dyn Engine>, Limits)> = vec![
        ("hard".into(), Level::Hard.engine(0), limits),
        (
            format!("expert on {}", Kernel::best()),
            Box::new(Expert::new()),
            limits,
        ),
    ];
    for k in Kernel::available().into_iter().rev().skip(1) {
        let e = Expert::new().with_kernel(k).expect("an available kernel");
        engines.push((format!("expert on {k}"), Box::new(e), limits));
    }
    if threads > 1 {
        engines.push((
            format!("expert, {threads} threads"),
            Box::new(Expert::new()),
            limits.with_threads(threads),
        ));
    }
    for (name, mut e, limits) in engines {
        let (mut nodes, mut depth) = (0u64, 0u32);
        let start = Instant::now();
        for p in &positions {
            let r = e.choose(p, &limits, &stop).expect("a move");
            nodes += r.nodes;
            depth += r.depth;
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{name}: {nodes} nodes in {s:.2} s = {:.2} M nodes/s, mean depth {:.1}",
            nodes as f64 / s / 1e6,
            f64::from(depth) / n as f64
        );
    }
}
