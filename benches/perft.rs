#![allow(missing_docs)]
//! Move generation and perft benchmarks: `cargo bench --bench perft`.
//!
//! `legal_moves`, `flips` and `play` on a fixed set of midgame positions, and perft(8) from the
//! start and from four of those positions, each on the portable code and on the AVX2 kernel when the CPU
//! has it.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use reversi::core::movegen;
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

fn movegen_benches(c: &mut Criterion) {
    let positions = midgame_positions();
    let boards: Vec<(u64, u64)> = positions
        .iter()
        .map(|p| (p.player().0, p.opponent().0))
        .collect();
    let mut g = c.benchmark_group("legal_moves");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("portable", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&(p, o)| movegen::legal_moves(black_box(p), black_box(o)))
                .fold(0, |a, m| a ^ m)
        })
    });
    #[cfg(target_arch = "x86_64")]
    if movegen::avx2::available() {
        g.bench_function("avx2", |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|&(p, o)| movegen::avx2::legal_moves(black_box(p), black_box(o)))
                    .fold(0, |a, m| a ^ m)
            })
        });
    }
    #[cfg(target_arch = "x86_64")]
    if movegen::avx512::available() {
        g.bench_function("avx512", |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|&(p, o)| movegen::avx512::legal_moves(black_box(p), black_box(o)))
                    .fold(0, |a, m| a ^ m)
            })
        });
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
    g.bench_function("portable", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|&(p, o, sq)| movegen::flips(black_box(p), black_box(o), sq))
                .fold(0, |a, m| a ^ m)
        })
    });
    #[cfg(target_arch = "x86_64")]
    if movegen::avx2::available() {
        g.bench_function("avx2", |b| {
            b.iter(|| {
                moves
                    .iter()
                    .map(|&(p, o, sq)| movegen::avx2::flips(black_box(p), black_box(o), sq))
                    .fold(0, |a, m| a ^ m)
            })
        });
    }
    #[cfg(target_arch = "x86_64")]
    if movegen::avx512::available() {
        g.bench_function("avx512", |b| {
            b.iter(|| {
                moves
                    .iter()
                    .map(|&(p, o, sq)| movegen::avx512::flips(black_box(p), black_box(o), sq))
                    .fold(0, |a, m| a ^ m)
            })
        });
    }
    g.finish();

    let plays: Vec<(Position, Move)> = positions
        .iter()
        .flat_map(|p| p.legal_moves().iter().map(|sq| (*p, Move::Place(sq))))
        .collect();
    let mut g = c.benchmark_group("play");
    g.throughput(Throughput::Elements(plays.len() as u64));
    g.bench_function("play_unchecked", |b| {
        b.iter(|| {
            plays
                .iter()
                .map(|(p, m)| black_box(p).play_unchecked(*m).player().0)
                .fold(0, |a, m| a ^ m)
        })
    });
    g.bench_function("play", |b| {
        b.iter(|| {
            plays
                .iter()
                .map(|(p, m)| black_box(p).play(*m).map_or(0, |q| q.player().0))
                .fold(0, |a, m| a ^ m)
        })
    });
    g.finish();
}

fn perft_benches(c: &mut Criterion) {
    let start = Position::initial();
    // Four of the midgame positions: perft(8) of each is about 300 M leaves.
    let mids = &midgame_positions()[..4];
    for kernel in Kernel::available() {
        let name = format!("{kernel:?}").to_lowercase();
        let mut g = c.benchmark_group("perft8_start");
        g.sample_size(10);
        g.throughput(Throughput::Elements(390_216));
        g.bench_function(&name, |b| {
            b.iter(|| {
                perft_raw(
                    black_box(start.player().0),
                    black_box(start.opponent().0),
                    8,
                    Convention::Oeis,
                    kernel,
                    None,
                )
            })
        });
        g.finish();

        let leaves: u64 = mids
            .iter()
            .map(|p| {
                perft_raw(
                    p.player().0,
                    p.opponent().0,
                    8,
                    Convention::Oeis,
                    kernel,
                    None,
                )
            })
            .sum();
        let mut g = c.benchmark_group("perft8_midgame");
        g.sample_size(10);
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(&name, |b| {
            b.iter(|| {
                mids.iter()
                    .map(|p| {
                        perft_raw(
                            black_box(p.player().0),
                            black_box(p.opponent().0),
                            8,
                            Convention::Oeis,
                            kernel,
                            None,
                        )
                    })
                    .sum::<u64>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, movegen_benches, perft_benches);
criterion_main!(benches);
