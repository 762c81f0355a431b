//! Perft: counting the games of a given length, in the three conventions in public use.

use crate::movegen::{flips, legal_moves};
use crate::{Error, Position};
use core::fmt;
use core::str::FromStr;

/// How passes and finished games are counted by [`perft`].
///
/// # Examples
///
/// ```
/// use reversi_core::perft::Convention;
/// assert_eq!("no-pass".parse::<Convention>().unwrap(), Convention::NoPass);
/// assert_eq!(Convention::Oeis.to_string(), "oeis");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Convention {
    /// OEIS A124004: a forced pass is a ply, and a finished game counts as one leaf at every
    /// deeper ply.
    #[default]
    Oeis,
    /// Edax's `perft`: a forced pass is a ply, and a finished game counts at the ply where it ends
    /// and 0 at every deeper ply.
    Edax,
    /// A forced pass is not a ply: the side to move after the pass plays within the same ply. A
    /// finished game counts as one leaf at every deeper ply.
    NoPass,
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Convention::Oeis => "oeis",
            Convention::Edax => "edax",
            Convention::NoPass => "no-pass",
        })
    }
}

impl FromStr for Convention {
    type Err = Error;
    /// Parses `oeis`, `edax` or `no-pass` (also `no_pass`, `nopass`).
    ///
    /// # Errors
    ///
    /// [`Error::Convention`] for anything else.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "oeis" => Ok(Convention::Oeis),
            "edax" => Ok(Convention::Edax),
            "no-pass" | "no_pass" | "nopass" => Ok(Convention::NoPass),
            _ => Err(Error::Convention(s.to_string())),
        }
    }
}

/// The number of leaves `depth` plies below `pos` under `convention` (1 at depth 0).
///
/// # Examples
///
/// ```
/// use reversi_core::perft::{perft, Convention};
/// use reversi_core::Position;
/// assert_eq!(perft(&Position::initial(), 6, Convention::Oeis), 8200);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32, convention: Convention) -> u64 {
    let (p, o) = (pos.player().0, pos.opponent().0);
    match convention {
        Convention::Oeis => perft_pass_ply::<true>(p, o, depth),
        Convention::Edax => perft_pass_ply::<false>(p, o, depth),
        Convention::NoPass => perft_no_pass(p, o, depth),
    }
}

/// Perft where a pass is a ply; `FINISHED_COUNTS` says whether a finished game counts as a
/// leaf below the ply where it ended (OEIS) or not (Edax).
fn perft_pass_ply<const FINISHED_COUNTS: bool>(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        return if legal_moves(o, p) != 0 {
            perft_pass_ply::<FINISHED_COUNTS>(o, p, depth - 1)
        } else {
            u64::from(FINISHED_COUNTS)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += perft_pass_ply::<FINISHED_COUNTS>(o ^ f, p ^ f ^ (1 << sq), depth - 1);
    }
    n
}

fn perft_no_pass(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        return if legal_moves(o, p) != 0 {
            perft_no_pass(o, p, depth)
        } else {
            1
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += perft_no_pass(o ^ f, p ^ f ^ (1 << sq), depth - 1);
    }
    n
}
