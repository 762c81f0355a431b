//! The requests of `scripts/wasm-speed.mjs` on the native build, to compare the page's module
//! under node with native code in the same minute. From the repository's root:
//! `cargo run --release -p reversi-web --example speed -- [NODES]` (default 1000000 search
//! nodes per `eval` request, on the positions of `scripts/speed-positions.txt`). Then the same
//! searches (a new Expert for each position under the same node budget, as an `eval` request
//! makes) on each move generation kernel of the CPU, the page's portable and SIMD code having
//! their native counterparts here.

use reversi_ai::{Engine, Expert, Limits};
use reversi_core::movegen::Kernel;
use reversi_core::Position;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() -> Result<(), String> {
    let nodes: u64 = match std::env::args().nth(1) {
        Some(a) => a.parse().map_err(|e| format!("NODES {a:?}: {e}"))?,
        None => 1_000_000,
    };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let weights = std::fs::read(format!("{root}/reversi-ai/weights/expert.bin"))
        .map_err(|e| format!("reversi-ai/weights/expert.bin: {e}"))?;
    let installed = reversi_web::install_weights(&weights);
    if !installed.contains("\"installed\":true") {
        return Err(format!("weights refused: {installed}"));
    }
    let boards = std::fs::read_to_string(format!("{root}/scripts/speed-positions.txt"))
        .map_err(|e| format!("scripts/speed-positions.txt: {e}"))?;
    let timed = |request: serde_json::Value| -> Result<(serde_json::Value, f64), String> {
        let t = Instant::now();
        let answer = reversi_web::call(&request.to_string());
        let secs = t.elapsed().as_secs_f64();
        let v: serde_json::Value = serde_json::from_str(&answer).map_err(|e| e.to_string())?;
        if v["type"] == "error" {
            return Err(answer);
        }
        Ok((v, secs))
    };
    for depth in [9, 11] {
        let (a, s) = timed(serde_json::json!({"type": "perft", "depth": depth}))?;
        let count = a["count"].as_u64().unwrap_or(0);
        println!(
            "perft {depth}: count={count} time_s={s:.3} leaves_per_s={}",
            (count as f64 / s).round()
        );
    }
    let boards: Vec<&str> = boards
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let mut total = 0.0;
    for board in &boards {
        total += timed(serde_json::json!({"type": "eval", "board": board, "nodes": nodes}))?.1;
    }
    let n = boards.len() as u64;
    println!(
        "eval: {n} positions x {nodes} nodes time_s={total:.3} nodes_per_s={}",
        ((n * nodes) as f64 / total).round()
    );
    let positions = boards
        .iter()
        .map(|b| b.parse::<Position>().map_err(|e| format!("{b:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    for kernel in Kernel::available() {
        let (mut searched, t) = (0u64, Instant::now());
        for p in &positions {
            // A new Expert (and table) for each position, as each `eval` request makes.
            let r = Expert::new()
                .with_limits(Limits::nodes(nodes))
                .with_kernel(kernel)
                .map_err(|e| e.to_string())?
                .choose(p, &Limits::NONE, &AtomicBool::new(false))
                .map_err(|e| e.to_string())?;
            searched += r.nodes;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "expert on {kernel}: {n} positions, {searched} nodes time_s={secs:.3} nodes_per_s={}",
            (searched as f64 / secs).round()
        );
    }
    Ok(())
}
