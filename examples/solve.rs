//! Exact endgame solver over an OBF file:
//! `cargo run --release --example solve -- FILE.obf [--threads N] [--jobs N] [--wld] [--disc] [--first N] [--range A-B]
//! [--hash-bits B] [--no-weights]`.
//!
//! For each position it prints `#N empties=E score=+S move=M nodes=N time_s=T`, then
//! `total nodes=.. time_s=.. nodes_per_s=..`. Scores follow the WOF rule (empty squares
//! to the winner), as FFO files do, unless `--disc` asks for the plain disc difference.
//!
//! - `--first N`: the number of the first position of the file (default 1; a file whose name
//!   contains `ffo-40` starts at 40, so `ffo-40-59.obf` numbers its lines #40 to #59).
//! - `--range A-B`: solve only positions #A to #B (by that numbering).
//! - `--threads N`: each solve on N threads (`Limits::with_threads`; default 1).
//! - `--jobs N`: solve N positions at a time (each on `--threads` threads; with more than one
//!   job the total time is the wall time of the whole run).
//! - `--wld`: win/loss/draw only (score -1, 0 or +1).
//! - `--hash-bits B`: an endgame table of 2^B entries per thread (default 22, that is 128 MiB;
//!   clamped to 4..=30).
//! - `--no-weights`: order the moves without the trained evaluation, as a build without the
//!   feature `embedded-weights` does (the scores are the same; the solve takes longer).
//!
//! When the file lists exact scores, each result is checked against the best listed score (its
//! sign in WLD mode); a wrong one makes the program exit with status 1. A line that does not
//! parse is reported with its line number (status 2).

use reversi_ai::{Limits, Scoring, SolveOptions, Solver};
use reversi_core::notation::parse_obf;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

fn usage() -> ExitCode {
    eprintln!("usage: solve FILE.obf [--threads N] [--jobs N] [--wld] [--disc] [--first N] [--range A-B] [--hash-bits B] [--no-weights]");
    ExitCode::from(2)
}

/// Reports an option without a valid value, then the usage.
fn bad_value(option: &str, expected: &str) -> ExitCode {
    eprintln!("solve: {option} needs {expected}");
    usage()
}

fn main() -> ExitCode {
    let mut file = None;
    let mut threads = 1u32;
    let mut jobs_at_once = 1usize;
    let mut wld = false;
    let mut scoring = Scoring::Wof;
    let mut first: Option<usize> = None;
    let mut range: Option<(usize, usize)> = None;
    let mut hash_bits = 22u32;
    let mut no_weights = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n >= 1 => threads = n,
                _ => return bad_value("--threads", "a number of threads, at least 1"),
            },
            "--jobs" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n >= 1 => jobs_at_once = n,
                _ => return bad_value("--jobs", "a number of positions at a time, at least 1"),
            },
            "--wld" => wld = true,
            "--no-weights" => no_weights = true,
            "--hash-bits" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => hash_bits = n,
                None => return bad_value("--hash-bits", "a number of bits (4 to 30)"),
            },
            "--disc" => scoring = Scoring::DiscDifference,
            "--first" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => first = Some(n),
                None => return bad_value("--first", "the number of the first position"),
            },
            "--range" => {
                let r = args.next().and_then(|r| {
                    let (a, b) = r.split_once('-')?;
                    Some((a.parse().ok()?, b.parse().ok()?))
                });
                match r {
                    Some(r) => range = Some(r),
                    None => return bad_value("--range", "two position numbers, as in 40-49"),
                }
            }
            "-h" | "--help" => return usage(),
            f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
            other => {
                eprintln!("solve: unexpected argument {other:?}");
                return usage();
            }
        }
    }
    let Some(file) = file else {
        eprintln!("solve: no OBF file given");
        return usage();
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("solve: cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let lines = match parse_obf(&text) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("solve: {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let first = first.unwrap_or(if file.contains("ffo-40") { 40 } else { 1 });
    let jobs: Vec<(usize, _)> = lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| (i + first, l))
        .filter(|(n, _)| range.is_none_or(|(a, b)| (a..=b).contains(n)))
        .collect();
    let options = SolveOptions::exact(scoring).with_wld(wld);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs_at_once.min(jobs.len()).max(1) {
            scope.spawn(|| {
                let mut solver = Solver::with_table_bits(hash_bits);
                if no_weights {
                    solver = solver.without_weights();
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((n, line)) = jobs.get(i) else { break };
                    let t = Instant::now();
                    let r = solver.solve_with(
                        &line.position,
                        &options,
                        &Limits::NONE.with_threads(threads),
                        &AtomicBool::new(false),
                    );
                    let dt = t.elapsed().as_secs_f64();
                    let out = match &r {
                        Ok(s) => format!(
                            "#{n} empties={} score={:+} move={} nodes={} time_s={dt:.3}",
                            line.position.empty().count(),
                            s.score,
                            s.best_move.to_string().to_uppercase(),
                            s.nodes
                        ),
                        Err(e) => format!("#{n} error: {e}"),
                    };
                    // A closed standard output (`solve ... | head -1`) is no reason to stop.
                    let _ = writeln!(std::io::stdout().lock(), "{out}");
                    results.lock().expect("results lock").push((*n, r, dt));
                }
            });
        }
    });
    let wall = start.elapsed().as_secs_f64();
    let results = results.into_inner().expect("results lock");
    let mut wrong = 0;
    let mut total_nodes = 0u64;
    let mut cpu = 0.0;
    for (n, r, dt) in &results {
        cpu += dt;
        let line = &jobs.iter().find(|(k, _)| k == n).expect("job").1;
        match r {
            Ok(s) => {
                total_nodes += s.nodes;
                if let Some(best) = line.best_score() {
                    let ok = if wld {
                        s.score == best.signum()
                    } else {
                        scoring == Scoring::DiscDifference || s.score == best
                    };
                    if !ok {
                        eprintln!("#{n}: wrong score {:+}, the file says {best:+}", s.score);
                        wrong += 1;
                    }
                }
            }
            Err(_) => wrong += 1,
        }
    }
    let time = if jobs_at_once == 1 { cpu } else { wall };
    let _ = writeln!(
        std::io::stdout().lock(),
        "total nodes={total_nodes} time_s={time:.3} nodes_per_s={:.0}",
        total_nodes as f64 / time.max(1e-9)
    );
    if wrong > 0 {
        eprintln!("solve: {wrong} wrong or failed result(s)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
