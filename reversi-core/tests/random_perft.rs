//! Perft of thousands of random positions, passes and finished games included, against
//! `tests/data/random.perft`, whose counts were made by two independent implementations: the
//! bitboard perft of this crate and the naive array implementation of `tests/naive`.
//!
//! The file is made again, from its seed, by
//! `cargo test -p reversi-core --release --test random_perft -- --ignored --nocapture regenerate`,
//! which refuses to write it unless both implementations agree on every count.

use reversi_core::perft::{perft_with, Convention, Kernel, PerftOptions};
use reversi_core::{Game, Position};

mod naive;
use naive::Naive;

/// The data file, one position a line: the board string (`a1`..`h8`, `X` black, `O` white, `-`
/// empty, then the side to move), a tab, and the counts at depths 1, 2, ... separated by spaces.
const DATA: &str = include_str!("data/random.perft");
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/random.perft");

/// Positions taken from random plies of random games, then at least this many positions where
/// the side to move must pass and finished games (2937 positions in all), each counted to `DEPTH`.
const RANDOM_PLIES: usize = 2650;
const DEPTH: u32 = 6;
const PASSES: usize = 300;
const FINISHED: usize = 50;
const SEED: u64 = 0x005E_ED0F_2026;

struct Case {
    line: usize,
    position: Position,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    DATA.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let (board, counts) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("line {}: no tab", i + 1));
            Case {
                line: i + 1,
                position: board
                    .parse()
                    .unwrap_or_else(|e| panic!("line {}: {e}", i + 1)),
                counts: counts
                    .split(' ')
                    .map(|c| c.parse().unwrap_or_else(|e| panic!("line {}: {e}", i + 1)))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn file_has_the_promised_mix() {
    let cases = cases();
    // The file holds exactly the positions its seed makes, in order.
    let made = positions();
    assert_eq!(cases.len(), made.len());
    for (case, p) in cases.iter().zip(&made) {
        assert_eq!(case.position, *p, "line {}", case.line);
    }
    assert!(cases.iter().all(|c| c.counts.len() == DEPTH as usize));
    let passes = cases.iter().filter(|c| c.position.must_pass()).count();
    let over = cases.iter().filter(|c| c.position.is_game_over()).count();
    assert!(passes >= PASSES, "{passes} positions with a pass");
    assert!(over >= FINISHED, "{over} finished games");
    // Positions from every stage of the game.
    for empties in [4u32, 20, 40, 56] {
        assert!(
            cases
                .iter()
                .any(|c| c.position.empty().count().abs_diff(empties) <= 3),
            "no position near {empties} empties"
        );
    }
}

#[test]
fn every_kernel_agrees_with_the_file() {
    for kernel in Kernel::available() {
        for case in cases() {
            for (d, &want) in case.counts.iter().enumerate() {
                let d = d as u32 + 1;
                let options = PerftOptions::new().with_kernel(kernel);
                let got = perft_with(&case.position, d, Convention::Oeis, &options, &|_| ());
                assert_eq!(
                    got, want,
                    "line {} depth {d} kernel {kernel:?}: {}",
                    case.line, case.position
                );
            }
        }
    }
}

#[test]
fn naive_implementation_agrees_with_the_file() {
    // The whole file to depth 3, and every 100th position to its full depth (the naive code is
    // about a thousand times slower than the bitboards; all of it was checked when the file was
    // made).
    for (i, case) in cases().iter().enumerate() {
        let naive = Naive::from(&case.position);
        let full = if i % 100 == 0 { DEPTH } else { 3 };
        for d in 1..=full {
            assert_eq!(
                naive.perft(d),
                case.counts[d as usize - 1],
                "line {} depth {d}",
                case.line
            );
        }
    }
}

/// A small deterministic generator (SplitMix64), so the file depends on nothing but the seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The positions of a random game, played to its end with uniformly random moves.
fn random_game(rng: &mut SplitMix) -> Vec<Position> {
    let mut game = Game::new();
    while !game.is_over() {
        let moves = game.position().legal_moves();
        let m = moves
            .iter()
            .nth(rng.below(u64::from(moves.count())) as usize)
            .expect("a game not over has a move after its passes");
        game.play(m).expect("a legal move");
    }
    game.positions().to_vec()
}

/// The positions of the file: random plies of random games, then positions with a pass to make
/// and finished games until their quotas are met.
fn positions() -> Vec<Position> {
    let mut rng = SplitMix(SEED);
    let mut out = Vec::new();
    let (mut passes, mut over) = (0, 0);
    while out.len() < RANDOM_PLIES {
        let game = random_game(&mut rng);
        let p = game[rng.below(game.len() as u64) as usize];
        passes += usize::from(p.must_pass());
        over += usize::from(p.is_game_over());
        out.push(p);
    }
    while passes < PASSES || over < FINISHED {
        let game = random_game(&mut rng);
        if passes < PASSES {
            let with_pass: Vec<&Position> = game.iter().filter(|p| p.must_pass()).collect();
            if !with_pass.is_empty() {
                out.push(*with_pass[rng.below(with_pass.len() as u64) as usize]);
                passes += 1;
            }
        }
        if over < FINISHED {
            out.push(*game.last().expect("a game has positions"));
            over += 1;
        }
    }
    out
}

#[test]
#[ignore = "writes tests/data/random.perft; run by hand to make the file again"]
fn regenerate() {
    let mut text = String::from(
        "# Perft of random positions in the OEIS A124004 convention (a forced pass is a ply, a\n\
         # finished game counts as one leaf at every deeper ply). A line: the board a1..h8 (X black,\n\
         # O white, - empty) and the side to move, a tab, the counts at depths 1, 2, ...\n\
         # Made by tests/random_perft.rs `regenerate` from its seed; every count agreed between the\n\
         # bitboard perft and the naive array implementation of tests/naive.\n",
    );
    for (i, p) in positions().iter().enumerate() {
        let naive = Naive::from(p);
        let counts: Vec<u64> = (1..=DEPTH)
            .map(|d| {
                let fast = reversi_core::perft::perft(p, d, Convention::Oeis);
                let slow = naive.perft(d);
                assert_eq!(fast, slow, "position {i} depth {d}: {p}");
                fast
            })
            .collect();
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        text.push_str(&format!("{}\t{}\n", p.to_board_string(), counts.join(" ")));
        if i % 100 == 0 {
            eprintln!("{i} positions");
        }
    }
    std::fs::write(PATH, text).expect("write tests/data/random.perft");
}
