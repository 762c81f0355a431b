//! A plain, deliberately untuned perft to measure the fast one against:
//! `cargo run --release --example baseline_perft -- DEPTH`.
//!
//! Machines drift, and shared ones drift a lot, so this repository states perft speed as a
//! multiple of this program run right before and after (for example `baseline_perft 11`, then
//! `perft 12 --depth-only`, then `baseline_perft 11` again). It uses none of the library's move
//! generation: legal moves by shifting the mover's discs through the opponent's in each of the
//! eight directions, flips by walking from the square, the last ply counted in bulk, OEIS A124004
//! counting (a pass is a ply, a finished game counts once at every deeper ply). Keep it untuned:
//! the ratio is only stable if this program does not change.
//!
//! Prints `depth=D count=C time_s=T leaves_per_s=R`.

use std::process::ExitCode;
use std::time::Instant;

const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// One step of every disc of `b` in direction `d` (0..8), dropping what leaves the board.
fn step(b: u64, d: usize) -> u64 {
    match d {
        0 => (b << 1) & NOT_A,
        1 => (b >> 1) & NOT_H,
        2 => b << 8,
        3 => b >> 8,
        4 => (b << 9) & NOT_A,
        5 => (b << 7) & NOT_H,
        6 => (b >> 7) & NOT_A,
        _ => (b >> 9) & NOT_H,
    }
}

/// The squares where the mover `p` can play against `o`.
fn moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let mut out = 0;
    for d in 0..8 {
        let mut run = step(p, d) & o;
        for _ in 0..5 {
            run |= step(run, d) & o;
        }
        out |= step(run, d) & empty;
    }
    out
}

/// The discs that `p` playing the single square `m` flips.
fn flips(p: u64, o: u64, m: u64) -> u64 {
    let mut out = 0;
    for d in 0..8 {
        let mut line = 0;
        let mut s = step(m, d);
        while s & o != 0 {
            line |= s;
            s = step(s, d);
        }
        if s & p != 0 {
            out |= line;
        }
    }
    out
}

/// Perft of the mover `p` against `o`, `passed` when the previous ply was a pass.
fn perft(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    let mut ms = moves(p, o);
    if ms == 0 {
        if passed {
            return 1; // neither side can move: the finished game counts once
        }
        return if depth == 1 {
            1
        } else {
            perft(o, p, depth - 1, true)
        };
    }
    if depth == 1 {
        return u64::from(ms.count_ones());
    }
    let mut total = 0;
    while ms != 0 {
        let m = ms & ms.wrapping_neg();
        ms ^= m;
        let f = flips(p, o, m);
        total += perft(o ^ f, p | f | m, depth - 1, false);
    }
    total
}

fn main() -> ExitCode {
    let depth = match std::env::args().nth(1).map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if (1..=20).contains(&d) => d,
        _ => {
            eprintln!("usage: baseline_perft DEPTH (1 to 20)");
            return ExitCode::from(2);
        }
    };
    // Black to move with discs on e4 and d5, white on d4 and e5 (bit 0 is a1).
    let black = (1u64 << 28) | (1 << 35);
    let white = (1u64 << 27) | (1 << 36);
    let start = Instant::now();
    let count = perft(black, white, depth, false);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "depth={depth} count={count} time_s={secs:.3} leaves_per_s={:.0}",
        count as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
