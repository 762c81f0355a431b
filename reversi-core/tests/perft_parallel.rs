//! Threaded and hashed perft (`perft_with`) against the reference counts of
//! `tests/data/perft.tsv`, in all three conventions and on every kernel of this CPU.

use reversi_core::perft::{perft_with, Convention, Kernel, PerftHash, PerftOptions, Progress};
use reversi_core::Position;
use std::sync::Mutex;

mod common;
use common::table;

const CONVENTIONS: [Convention; 3] = [Convention::Oeis, Convention::Edax, Convention::NoPass];

/// Checks the depths `min..=max` with `threads` threads, a table of `hash_mb` MiB (0: none), and
/// that the progress reports end at all subtrees and all leaves.
fn check(min: u32, max: u32, threads: usize, hash_mb: usize, kernel: Kernel) {
    let rows = table();
    assert!(rows.len() >= 16, "the reference table lost rows");
    for conv_i in 0..3 {
        // One table per convention, reused over the depths as the perft example does.
        let hash = (hash_mb > 0).then(|| PerftHash::new(hash_mb));
        let opts = PerftOptions::new()
            .with_threads(threads)
            .with_hash_opt(hash.as_ref())
            .with_kernel(kernel);
        for &(depth, counts) in &rows {
            let Some(expected) = counts[conv_i] else {
                continue;
            };
            if depth < min || depth > max {
                continue;
            }
            let last = Mutex::new(None::<Progress>);
            let n = perft_with(
                &Position::initial(),
                depth,
                CONVENTIONS[conv_i],
                &opts,
                &|p| {
                    let mut l = last.lock().unwrap();
                    if l.is_none_or(|l| p.done > l.done) {
                        *l = Some(*p);
                    }
                },
            );
            assert_eq!(
                n, expected,
                "depth {depth} {} {kernel:?}",
                CONVENTIONS[conv_i]
            );
            let l = last.into_inner().unwrap().expect("progress was reported");
            assert_eq!((l.done, l.leaves), (l.total, n));
        }
    }
}

#[test]
fn threads_depths_1_to_10() {
    for kernel in Kernel::available() {
        check(1, 10, 2, 0, kernel);
        check(1, 9, 3, 0, kernel);
    }
}

#[test]
fn hash_depths_1_to_11() {
    for kernel in Kernel::available() {
        check(1, 11, 1, 16, kernel);
    }
}

#[test]
fn hash_and_threads_depths_1_to_11() {
    check(1, 11, 2, 16, Kernel::best());
}

#[test]
fn tiny_hash_still_counts_right() {
    // A table of one MiB thrashes at depth 11: replacement must never corrupt a count.
    check(11, 11, 2, 1, Kernel::best());
}

#[test]
#[ignore = "a minute of computing; run with --ignored"]
fn hash_and_threads_depths_12_to_14() {
    check(12, 14, 2, 1024, Kernel::best());
}

#[test]
#[ignore = "minutes of computing; run with --ignored"]
fn hash_and_threads_depths_15_to_16() {
    check(15, 16, 2, 4096, Kernel::best());
}

#[test]
fn reports_come_one_at_a_time_in_order() {
    // A callback that dawdles before it records every other report lets another worker finish
    // a subtree meanwhile; that one's report must still come after, with every leaf before it.
    let reports = Mutex::new(Vec::<Progress>::new());
    let opts = PerftOptions::new().with_threads(2);
    let n = perft_with(&Position::initial(), 8, Convention::Oeis, &opts, &|p| {
        if p.done % 2 == 1 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        reports.lock().unwrap().push(*p);
    });
    let reports = reports.into_inner().unwrap();
    let total = reports[0].total;
    assert!(total > 1, "the count was split into {total} subtree");
    assert_eq!(reports.len(), total);
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r.done, i + 1, "report {i} out of order");
        if i > 0 {
            assert!(r.leaves > reports[i - 1].leaves, "report {i} lost leaves");
        }
    }
    assert_eq!(reports[total - 1].leaves, n);
}
