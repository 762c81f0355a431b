//! The fast paths (AVX2/BMI2 and AVX-512 move generation and the perft kernels built on them)
//! against the portable ones, on random positions: random disjoint boards (dense ones, with many
//! passes and finished games) and positions of random legal games.

use proptest::prelude::*;
use reversi_core::movegen::{self, Avx2, Avx512, MoveGen, Portable};
use reversi_core::perft::{perft_raw, Convention, Kernel, PerftHash};

/// A random pair of disjoint boards, with an occupancy between sparse and full.
fn boards() -> impl Strategy<Value = (u64, u64)> {
    (any::<u64>(), any::<u64>(), any::<u64>(), 0u32..4).prop_map(|(a, b, c, density)| {
        // More random words AND-ed together make sparser boards; OR-ed, denser.
        let occupied = match density {
            0 => a & b,
            1 => a,
            2 => a | b,
            _ => a | b | c,
        };
        let p = occupied & c.rotate_left(17);
        (p, occupied & !p)
    })
}

/// A position after up to 60 random legal plies from the start (passes included).
fn game_position() -> impl Strategy<Value = (u64, u64)> {
    proptest::collection::vec(any::<u16>(), 0..60).prop_map(|choices| {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        for c in choices {
            let moves = movegen::legal_moves(p, o);
            if moves == 0 {
                if movegen::legal_moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            let n = moves.count_ones();
            let mut m = moves;
            for _ in 0..(u32::from(c) % n) {
                m &= m - 1;
            }
            let sq = m.trailing_zeros() as u8;
            let f = movegen::flips(p, o, sq);
            (p, o) = (o ^ f, p ^ f ^ (1 << sq));
        }
        (p, o)
    })
}

const CONVENTIONS: [Convention; 3] = [Convention::Oeis, Convention::Edax, Convention::NoPass];

/// The `legal_moves` and `flips` of kernel `g` against the portable functions, on every empty
/// square.
fn check_kernel<G: MoveGen>(g: G, p: u64, o: u64) -> Result<(), TestCaseError> {
    prop_assert_eq!(g.legal_moves(p, o), movegen::legal_moves(p, o), "{:?}", g);
    prop_assert_eq!(
        g.run(|g| g.legal_moves(p, o)),
        movegen::legal_moves(p, o),
        "{:?}",
        g
    );
    let mut empty = !(p | o);
    while empty != 0 {
        let sq = empty.trailing_zeros() as u8;
        empty &= empty - 1;
        prop_assert_eq!(
            g.flips(p, o, sq),
            movegen::flips(p, o, sq),
            "{:?} square {}",
            g,
            sq
        );
    }
    Ok(())
}

/// Every kernel this CPU can run against the portable functions.
fn check_movegen(p: u64, o: u64) -> Result<(), TestCaseError> {
    check_kernel(Portable, p, o)?;
    if let Some(g) = Avx2::detect() {
        check_kernel(g, p, o)?;
    }
    if let Some(g) = Avx512::detect() {
        check_kernel(g, p, o)?;
    }
    Ok(())
}

fn check_perft(p: u64, o: u64, depth: u32) -> Result<(), TestCaseError> {
    for conv in CONVENTIONS {
        let expected = perft_raw(p, o, depth, conv, Kernel::Portable, None);
        for kernel in Kernel::available() {
            prop_assert_eq!(perft_raw(p, o, depth, conv, kernel, None), expected);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fast_movegen_agrees_on_random_boards((p, o) in boards()) {
        check_movegen(p, o)?;
    }

    #[test]
    fn fast_movegen_agrees_on_game_positions((p, o) in game_position()) {
        check_movegen(p, o)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fast_perft_agrees_on_random_boards((p, o) in boards(), depth in 0u32..4) {
        check_perft(p, o, depth)?;
    }

    #[test]
    fn fast_perft_agrees_on_game_positions((p, o) in game_position(), depth in 0u32..5) {
        check_perft(p, o, depth)?;
    }

    #[test]
    fn hashed_perft_agrees_on_game_positions((p, o) in game_position(), depth in 4u32..7) {
        for conv in CONVENTIONS {
            let expected = perft_raw(p, o, depth, conv, Kernel::Portable, None);
            for kernel in Kernel::available() {
                let hash = PerftHash::new(1);
                prop_assert_eq!(perft_raw(p, o, depth, conv, kernel, Some(&hash)), expected);
                // Again, now answered from the table.
                prop_assert_eq!(perft_raw(p, o, depth, conv, kernel, Some(&hash)), expected);
            }
        }
    }
}
