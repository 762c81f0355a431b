//! Shared by the perft tests: the reference counts of `tests/data/perft.tsv`.

/// The reference table of `tests/data/perft.tsv`: `(depth, [oeis, edax, no_pass])`, a blank cell
/// as `None`.
pub fn table() -> Vec<(u32, [Option<u64>; 3])> {
    include_str!("../data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).and_then(|s| s.trim().parse().ok());
            (f[0].parse().unwrap(), [get(1), get(2), get(3)])
        })
        .collect()
}
