//! Perft against the reference counts of `../shared/data/perft.tsv`, in all three conventions.

use reversi_core::perft::{perft, Convention};
use reversi_core::Position;

/// The reference table, parsed from the shared data file when present, else the copy below
/// (identical values, so a clean clone without `shared/` still checks every count).
fn table() -> Vec<(u32, [Option<u64>; 3])> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/perft.tsv"
    ))
    .unwrap_or_else(|_| include_str!("data/perft.tsv").to_string());
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).and_then(|s| s.trim().parse().ok());
            (f[0].parse().unwrap(), [get(1), get(2), get(3)])
        })
        .collect()
}

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
