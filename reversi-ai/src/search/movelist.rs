//! The move list of a node: its moves with their flips and ordering scores, on the stack.

use super::*;

/// A move in a [`MoveList`]. Its 16 bytes hold no padding (`_pad` fills them), so that a new
/// list's zeroing is a plain fill with wide stores: with 3 bytes of padding the compiler wrote
/// each field of the 36 moves separately, 72 stores for every node (about 7 % of the solver's
/// time on FFO #40-#49).
#[derive(Clone, Copy, Default)]
pub(super) struct Mv {
    pub(super) sq: u8,
    pub(super) _pad: [u8; 3],
    pub(super) score: i32,
    pub(super) flips: u64,
}

const _: () = assert!(core::mem::size_of::<Mv>() == 16);

/// A move list on the stack.
pub(super) struct MoveList {
    pub(super) n: usize,
    pub(super) m: [Mv; 36],
}

impl MoveList {
    /// Moves the best-scored move from `i..` to `i` (the first best wins). The search loop
    /// starts picking at the second move: the orderings score through
    /// [`MoveList::score_best_first`], and most nodes of the exact search stop at their first
    /// move.
    #[inline(always)]
    pub(super) fn pick(&mut self, i: usize) {
        // Selects without branches (the comparisons are unpredictable): the first best wins.
        let (mut b, mut best) = (i, self.m[i].score);
        for (j, m) in self.m[..self.n].iter().enumerate().skip(i + 1) {
            let better = m.score > best;
            b = if better { j } else { b };
            best = if better { m.score } else { best };
        }
        self.m.swap(i, b);
    }

    /// Scores every move with `score` and puts the best first (the first best, as
    /// [`MoveList::pick`] chooses), found while scoring: the search loop then picks only from
    /// the second move on.
    #[inline(always)]
    pub(super) fn score_best_first(&mut self, mut score: impl FnMut(&Mv) -> i32) {
        let mut top = (0, i32::MIN);
        for (i, m) in self.m[..self.n].iter_mut().enumerate() {
            m.score = score(m);
            top = if m.score > top.1 { (i, m.score) } else { top };
        }
        self.m.swap(0, top.0);
    }

    pub(super) fn sort(&mut self) {
        self.m[..self.n].sort_by_key(|m| std::cmp::Reverse(m.score));
    }
}

#[inline(always)]
pub(super) fn move_list<G: SearchGen>(g: G, p: u64, o: u64, mut moves: u64) -> MoveList {
    let mut l = MoveList {
        n: 0,
        m: [Mv::default(); 36],
    };
    while moves != 0 && l.n < 36 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        l.m[l.n] = Mv {
            sq: sq as u8,
            flips: flips(g, p, o, sq),
            ..Mv::default()
        };
        l.n += 1;
    }
    l
}
