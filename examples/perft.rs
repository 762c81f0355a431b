//! Perft of the start position: `cargo run --release --example perft -- DEPTH [--mode oeis|edax|no-pass]`.
//!
//! Prints one line per depth from 1 to DEPTH:
//! `depth=12 count=1939886636 time_s=4.812 leaves_per_s=403100000`.

use reversi::core::perft::{perft, Convention};
use reversi::core::Position;
use std::process::ExitCode;
use std::time::Instant;

fn usage() -> ExitCode {
    eprintln!("usage: perft DEPTH [--mode oeis|edax|no-pass]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut depth = None;
    let mut mode = Convention::Oeis;
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
    let start = Position::initial();
    for d in 1..=depth {
        let t = Instant::now();
        let count = perft(&start, d, mode);
        let secs = t.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            (count as f64 / secs) as u64
        } else {
            0
        };
        println!("depth={d} count={count} time_s={secs:.3} leaves_per_s={rate}");
    }
    ExitCode::SUCCESS
}
