//! Shared by the perft tests: the reference counts of `../shared/data/perft.tsv`.

/// The reference table: `(depth, [oeis, edax, no_pass])`, a blank cell as `None`. Read from the
/// shared data file when present, else from the identical copy in `tests/data/`, so that a clone
/// without `shared/` still checks every count.
pub fn table() -> Vec<(u32, [Option<u64>; 3])> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/perft.tsv"
    ))
    .unwrap_or_else(|_| include_str!("../data/perft.tsv").to_string());
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).and_then(|s| s.trim().parse().ok());
            (f[0].parse().unwrap(), [get(1), get(2), get(3)])
        })
        .collect()
}
