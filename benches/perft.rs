#![allow(missing_docs)]
//! Move generation and perft benchmarks: `cargo bench --bench perft`.
//!
//! `legal_moves`, `flips` and `play` on a fixed set of midgame positions, and perft(8) from the
//! start and from four of those positions, each on the portable code and on the AVX2 and AVX-512
//! kernels when the CPU has them; a kernel this CPU lacks is skipped with a line saying so (the
//! WebAssembly kernel, `simd128`, runs only in the page's module: `scripts/build-wasm.sh`).

use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput,
};
use reversi::core::movegen::{self, MoveGen};
use reversi::core::perft::{perft_raw, Convention, Kernel};
use reversi::core::{Move, Position, Square};

/// Twelve midgame positions: 20 plies of a fixed pseudo-random game each.
fn midgame_positions() -> Vec<Position> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    while out.len() < 12 {
        let mut pos = Position::initial();
        for _ in 0..20 {
            let moves: Vec<Square> = pos.legal_moves().iter().collect();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = pos.play_unchecked(Move::Place(moves[(seed % moves.len() as u64) as usize]));
        }
        if pos.can_move() {
            out.push(pos);
        }
    }
    out
}

/// Benchmarks `f` on every item as `name`, folding the results so that none is optimised away.
fn bench_each<T: Copy>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    items: &[T],
    f: impl Fn(T) -> u64,
) {
    g.bench_function(name, |b| {
        b.iter(|| items.iter().map(|&i| f(black_box(i))).fold(0, |a, m| a ^ m))
    });
}

fn movegen_benches(c: &mut Criterion) {
    let positions = midgame_positions();
    let boards: Vec<(u64, u64)> = positions
        .iter()
        .map(|p| (p.player().0, p.opponent().0))
        .collect();
    let mut g = c.benchmark_group("legal_moves");
    g.throughput(Throughput::Elements(boards.len() as u64));
    bench_each(&mut g, "portable", &boards, |(p, o)| {
        movegen::legal_moves(p, o)
    });
    if let Some(k) = movegen::Avx2::detect() {
        bench_each(&mut g, "avx2", &boards, |(p, o)| k.legal_moves(p, o));
    }
    if let Some(k) = movegen::Avx512::detect() {
        bench_each(&mut g, "avx512", &boards, |(p, o)| k.legal_moves(p, o));
    }
    g.finish();

    // Every legal move of every position.
    let moves: Vec<(u64, u64, u8)> = boards
        .iter()
        .flat_map(|&(p, o)| {
            let mut m = movegen::legal_moves(p, o);
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let sq = m.trailing_zeros() as u8;
                    m &= m - 1;
                    (p, o, sq)
                })
            })
        })
        .collect();
    let mut g = c.benchmark_group("flips");
    g.throughput(Throughput::Elements(moves.len() as u64));
    bench_each(&mut g, "portable", &moves, |(p, o, sq)| {
        movegen::flips(p, o, sq)
    });
    if let Some(k) = movegen::Avx2::detect() {
        bench_each(&mut g, "avx2", &moves, |(p, o, sq)| k.flips(p, o, sq));
    }
    if let Some(k) = movegen::Avx512::detect() {
        bench_each(&mut g, "avx512", &moves, |(p, o, sq)| k.flips(p, o, sq));
    }
    g.finish();

    let plays: Vec<(Position, Move)> = positions
        .iter()
        .flat_map(|p| p.legal_moves().iter().map(|sq| (*p, Move::Place(sq))))
        .collect();
    let mut g = c.benchmark_group("play");
    g.throughput(Throughput::Elements(plays.len() as u64));
    bench_each(&mut g, "play_unchecked", &plays, |(p, m)| {
        p.play_unchecked(m).player().0
    });
    bench_each(&mut g, "play", &plays, |(p, m)| {
        p.play(m).map_or(0, |q| q.player().0)
    });
    g.finish();
}

/// Prints a line for each kernel that this CPU cannot run, once.
fn report_skipped() {
    for kernel in [Kernel::Avx2, Kernel::Avx512, Kernel::Simd128] {
        if !kernel.is_available() {
            println!("perft bench: kernel {kernel} skipped: not available on this CPU or target");
        }
    }
}

fn perft_benches(c: &mut Criterion) {
    report_skipped();
    let start = Position::initial();
    // Four of the midgame positions: perft(8) of these is 71 M to 928 M leaves, 1.44 G in all.
    let mids = &midgame_positions()[..4];
    for kernel in Kernel::available() {
        let name = format!("{kernel:?}").to_lowercase();
        let perft8 = |p: &Position| {
            perft_raw(
                p.player().0,
                p.opponent().0,
                8,
                Convention::Oeis,
                kernel,
                None,
            )
        };
        let mut g = c.benchmark_group("perft8_start");
        g.sample_size(10);
        g.throughput(Throughput::Elements(390_216));
        g.bench_function(&name, |b| b.iter(|| perft8(black_box(&start))));
        g.finish();

        let leaves: u64 = mids.iter().map(perft8).sum();
        let mut g = c.benchmark_group("perft8_midgame");
        g.sample_size(10);
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(&name, |b| {
            b.iter(|| mids.iter().map(|p| perft8(black_box(p))).sum::<u64>())
        });
        g.finish();
    }
}

criterion_group!(benches, movegen_benches, perft_benches);
criterion_main!(benches);
