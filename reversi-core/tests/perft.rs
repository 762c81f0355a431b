//! Perft against the reference counts of `tests/data/perft.tsv`, in all three conventions.

use reversi_core::perft::{perft, Convention};
use reversi_core::Position;

mod common;
use common::table;

fn check(max_depth: u32, min_depth: u32) {
    let conventions = [Convention::Oeis, Convention::Edax, Convention::NoPass];
    let rows = table();
    assert!(rows.len() >= 14, "the reference table lost rows");
    for (depth, counts) in rows {
        if depth < min_depth || depth > max_depth {
            continue;
        }
        for (i, conv) in conventions.iter().enumerate() {
            if let Some(expected) = counts[i] {
                assert_eq!(
                    perft(&Position::initial(), depth, *conv),
                    expected,
                    "depth {depth} {conv}"
                );
            }
        }
    }
}

#[test]
fn perft_depths_1_to_11_in_all_conventions() {
    check(11, 1);
}

#[test]
#[ignore = "minutes of computing; run with --ignored"]
fn perft_depths_12_to_13() {
    check(13, 12);
}
