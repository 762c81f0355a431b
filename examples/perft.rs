//! Perft of the start position:
//! `cargo run --release --example perft -- DEPTH [--mode oeis|edax|no-pass] [--threads N]
//! [--hash] [--hash-mb MB] [--depth-only] [--kernel portable|avx2|avx512]`.
//!
//! Prints one line per depth from 1 to DEPTH (only DEPTH with `--depth-only`), such as
//! `depth=12 count=1939886636 time_s=1.337 leaves_per_s=1450652168` (one thread on the AVX-512
//! kernel of a shared two-core x86-64 machine). Runs longer than a second show their progress on
//! stderr (subtrees done out of total, elapsed time, leaves/s).

use reversi::core::perft::{perft_with, Convention, Kernel, PerftHash, PerftOptions, Progress};
use reversi::core::Position;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn usage() -> ExitCode {
    eprintln!(
        "usage: perft DEPTH [--mode oeis|edax|no-pass] [--threads N] [--hash] [--hash-mb MB] \
         [--depth-only] [--kernel K]\n  \
         --threads N   worker threads (default 1)\n  \
         --hash        a transposition table keyed on the position up to symmetry\n  \
         --hash-mb MB  its size in MiB (implies --hash; default: what DEPTH needs, at most {} here)\n  \
         --depth-only  print only DEPTH, not 1..DEPTH\n  \
         --kernel K    portable, avx2 or avx512 (default: the best this CPU has, {:?})",
        PerftHash::default_mb(),
        Kernel::best()
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut depth = None;
    let mut mode = Convention::Oeis;
    let mut threads = 1usize;
    let mut hash = false;
    let mut hash_mb = None;
    let mut depth_only = false;
    let mut kernel = Kernel::best();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mode" => match args.next().map(|m| m.parse::<Convention>()) {
                Some(Ok(m)) => mode = m,
                Some(Err(e)) => {
                    eprintln!("perft: {e}");
                    return usage();
                }
                None => return usage(),
            },
            "--threads" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n >= 1 => threads = n,
                _ => {
                    eprintln!("perft: --threads needs a number of at least 1");
                    return usage();
                }
            },
            "--hash" => hash = true,
            "--hash-mb" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n >= 1 => hash_mb = Some(n),
                _ => {
                    eprintln!("perft: --hash-mb needs a size in MiB of at least 1");
                    return usage();
                }
            },
            "--depth-only" => depth_only = true,
            "--kernel" => match args.next().map(|k| k.parse::<Kernel>()) {
                Some(Ok(k)) => kernel = k,
                _ => {
                    eprintln!("perft: --kernel needs portable, avx2 or avx512");
                    return usage();
                }
            },
            "-h" | "--help" => return usage(),
            d => match d.parse::<u32>() {
                Ok(d) if (1..=30).contains(&d) => depth = Some(d),
                _ => {
                    eprintln!("perft: {d:?} is not a depth from 1 to 30");
                    return usage();
                }
            },
        }
    }
    let Some(depth) = depth else { return usage() };
    if !kernel.is_available() {
        eprintln!("perft: this CPU cannot run the {kernel:?} kernel");
        return ExitCode::from(2);
    }
    if hash {
        hash_mb.get_or_insert_with(|| PerftHash::mb_for_depth(depth));
    }
    let hash = match hash_mb.map(PerftHash::try_new).transpose() {
        Ok(h) => h,
        Err(e) => {
            eprintln!("perft: --hash-mb: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = PerftOptions::new()
        .with_threads(threads)
        .with_hash_opt(hash.as_ref())
        .with_kernel(kernel);
    let start = Position::initial();
    let first = if depth_only { depth } else { 1 };
    for d in first..=depth {
        let shown = Mutex::new(None::<Duration>);
        let report = |p: &Progress| {
            if p.elapsed < Duration::from_secs(1) {
                return;
            }
            let mut last = shown.lock().unwrap_or_else(|e| e.into_inner());
            if last.is_some_and(|t| p.elapsed < t + Duration::from_millis(500)) && p.done < p.total
            {
                return;
            }
            *last = Some(p.elapsed);
            let secs = p.elapsed.as_secs_f64();
            eprint!(
                "\rdepth {d}: {}/{} subtrees, {secs:.1} s, {:.0} M leaves/s   ",
                p.done,
                p.total,
                p.leaves as f64 / secs / 1e6
            );
            let _ = std::io::stderr().flush();
        };
        let t = Instant::now();
        let count = perft_with(&start, d, mode, &opts, &report);
        let secs = t.elapsed().as_secs_f64();
        if shown
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
        {
            eprintln!();
        }
        let rate = if secs > 0.0 {
            (count as f64 / secs) as u64
        } else {
            0
        };
        println!("depth={d} count={count} time_s={secs:.3} leaves_per_s={rate}");
    }
    ExitCode::SUCCESS
}
