//! The exact endgame solver.

use crate::pattern::Weights;
use crate::search::Search;
use crate::tt::{TransTable, NO_MOVE};
use crate::{AiError, Limits};
use reversi_core::{Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How a final score is counted.
///
/// # Examples
///
/// ```
/// use reversi_ai::Scoring;
/// assert_eq!(Scoring::default(), Scoring::DiscDifference);
/// assert_eq!("wof".parse::<Scoring>().unwrap(), Scoring::Wof);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The disc difference on the board at the end: what the game shows, and what the levels
    /// play for.
    #[default]
    DiscDifference,
    /// The World Othello Federation rule: empty squares left at the end go to the winner (shared
    /// on a draw). FFO files and most engines report this one.
    Wof,
}

impl core::str::FromStr for Scoring {
    type Err = AiError;

    /// Parses `disc`/`board`/`disc-difference` or `wof`.
    ///
    /// # Errors
    ///
    /// [`AiError::ScoringName`] with the bad name.
    fn from_str(s: &str) -> Result<Self, AiError> {
        match s.to_ascii_lowercase().as_str() {
            "disc" | "board" | "disc-difference" => Ok(Scoring::DiscDifference),
            "wof" => Ok(Scoring::Wof),
            _ => Err(AiError::ScoringName(s.to_string())),
        }
    }
}

/// Options of an exact solve.
///
/// The struct may gain fields: build it with [`SolveOptions::exact`], [`SolveOptions::wld`] or
/// [`SolveOptions::default`] (an exact score in [`Scoring::DiscDifference`]) and the `with_*`
/// methods.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Scoring, SolveOptions};
/// let o = SolveOptions::wld(Scoring::Wof);
/// assert_eq!(o, SolveOptions::default().with_scoring(Scoring::Wof).with_wld(true));
/// assert_ne!(o, SolveOptions::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SolveOptions {
    /// How the final score is counted.
    pub scoring: Scoring,
    /// Win/loss/draw only: the score is then -1, 0 or +1 (faster than an exact score).
    pub wld: bool,
}

impl SolveOptions {
    /// An exact score in `scoring`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Scoring, SolveOptions};
    /// let o = SolveOptions::exact(Scoring::Wof);
    /// assert!(!o.wld);
    /// assert_eq!(o.scoring, Scoring::Wof);
    /// ```
    #[must_use]
    pub const fn exact(scoring: Scoring) -> SolveOptions {
        SolveOptions {
            scoring,
            wld: false,
        }
    }

    /// Win/loss/draw only (both conventions give the same sign).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Scoring, SolveOptions};
    /// assert!(SolveOptions::wld(Scoring::DiscDifference).wld);
    /// ```
    #[must_use]
    pub const fn wld(scoring: Scoring) -> SolveOptions {
        SolveOptions { scoring, wld: true }
    }

    /// These options with another way of counting the score.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Scoring, SolveOptions};
    /// let o = SolveOptions::default().with_scoring(Scoring::Wof);
    /// assert_eq!(o, SolveOptions::exact(Scoring::Wof));
    /// ```
    #[must_use]
    pub const fn with_scoring(mut self, scoring: Scoring) -> SolveOptions {
        self.scoring = scoring;
        self
    }

    /// These options with win/loss/draw only on or off.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::SolveOptions;
    /// assert!(SolveOptions::default().with_wld(true).wld);
    /// ```
    #[must_use]
    pub const fn with_wld(mut self, wld: bool) -> SolveOptions {
        self.wld = wld;
        self
    }
}

/// The result of an exact solve.
///
/// # Examples
///
/// ```
/// use reversi_ai::{solve, SolveOptions};
/// use reversi_core::Position;
/// // 11 empties.
/// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
/// let s = solve(&pos, &SolveOptions::default()).unwrap();
/// assert!(pos.play(s.best_move).is_ok());
/// assert_eq!(s.pv[0], s.best_move);
/// assert!(s.nodes > 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solution {
    /// The final score for the side to move with perfect play (-1/0/+1 in WLD mode).
    pub score: i32,
    /// A best move (a pass when the side to move must pass).
    pub best_move: Move,
    /// A principal variation from the position to the end (passes included).
    pub pv: Vec<Move>,
    /// Nodes searched, including those spent finding the principal variation.
    pub nodes: u64,
}

/// From this many empties, a solve with trained weights that have endgame cuts
/// ([`crate::probcut::ProbCut::end`]) searches selectively before its exact search.
const PRESEARCH_MIN: u32 = 16;
/// The selectivity of that search (a cut at 2.4 standard deviations).
const PRESEARCH_LEVEL: u8 = 1;

/// The exact score of `p` to move against `o` within `alpha..beta`, and its move, as every
/// exact solve runs it (the solver, the training's labels and checks): with trained weights that
/// have endgame cuts, from [`PRESEARCH_MIN`] empties a selective search first, whose score
/// centres the exact search's first window, whose move goes first and whose table entries order
/// the exact search's moves; then the exact search. When `s` is stopped, `s.aborted` is set
/// and the answer means nothing.
pub(crate) fn exact_root(s: &mut Search<'_>, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
    let empties = (!(p | o)).count_ones();
    let end_cuts = s
        .weights
        .and_then(Weights::probcut)
        .is_some_and(crate::probcut::ProbCut::has_end);
    if end_cuts && empties >= PRESEARCH_MIN {
        s.end_level = PRESEARCH_LEVEL;
        s.root_hint = Some(s.end_root(p, o, alpha, beta));
        s.end_level = crate::search::EXACT;
        if s.aborted {
            return (0, NO_MOVE);
        }
    }
    s.end_root(p, o, alpha, beta)
}

/// An exact solver with its transposition tables, to reuse between positions.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Scoring, SolveOptions, Solver};
/// use reversi_core::Position;
/// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
/// let mut solver = Solver::new();
/// let exact = solver.solve(&pos, &SolveOptions::default()).unwrap();
/// let wld = solver.solve(&pos, &SolveOptions::default().with_wld(true)).unwrap();
/// assert_eq!(wld.score, exact.score.signum());
/// ```
pub struct Solver {
    mid_tt: TransTable,
    end_tt: TransTable,
    wof: Option<bool>,
    weights: Option<OrderingWeights>,
}

/// The trained weights that order the solver's moves.
#[derive(Clone)]
enum OrderingWeights {
    Embedded(&'static Weights),
    Owned(Arc<Weights>),
}

impl OrderingWeights {
    fn get(&self) -> &Weights {
        match self {
            OrderingWeights::Embedded(w) => w,
            OrderingWeights::Owned(w) => w,
        }
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").finish_non_exhaustive()
    }
}

impl Solver {
    /// A solver with a 2^21-entry endgame table (64 MiB) and a 2^18-entry midgame table.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{SolveOptions, Solver};
    /// use reversi_core::Position;
    /// // Black to move fills the last empty square, a1, and wins 64-0.
    /// let pos: Position = format!("-O{} X", "X".repeat(62)).parse().unwrap();
    /// let s = Solver::new().solve(&pos, &SolveOptions::default()).unwrap();
    /// assert_eq!(s.score, 64);
    /// ```
    #[must_use]
    pub fn new() -> Solver {
        Solver::with_table_bits(21)
    }

    /// A solver with a 2^`bits` entry endgame table (32 bytes an entry; `bits` is clamped to
    /// 4..=30).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{solve, SolveOptions, Solver};
    /// use reversi_core::Position;
    /// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
    /// let small = Solver::with_table_bits(12).solve(&pos, &SolveOptions::default()).unwrap();
    /// // A smaller table searches more nodes, never to another score.
    /// assert_eq!(small.score, solve(&pos, &SolveOptions::default()).unwrap().score);
    /// ```
    #[must_use]
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver {
            mid_tt: TransTable::new(bits.clamp(4, 30).min(18)),
            end_tt: TransTable::new(bits),
            wof: None,
            weights: Weights::active().ok().map(OrderingWeights::Embedded),
        }
    }

    /// This solver with its moves ordered by shallow searches on the trained evaluation
    /// `weights` (for instance read with [`Weights::from_bytes`]). A solver orders its moves
    /// with the active weights ([`Weights::active`]: those installed at run time with
    /// [`Weights::install`], else the ones built into the library with the feature
    /// `embedded-weights`, on by default) when there are some, else with a hand-made
    /// evaluation (mobility, stability, parity) until it is given weights. The scores are exact either way; good weights make the
    /// solve faster.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{pattern::Weights, SolveOptions, Solver};
    /// use reversi_core::Position;
    /// use std::sync::Arc;
    /// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
    /// let mut solver = Solver::with_table_bits(16).with_weights(Arc::new(Weights::zero()));
    /// let s = solver.solve(&pos, &SolveOptions::default()).unwrap();
    /// assert_eq!(s.score, Solver::new().without_weights().solve(&pos, &SolveOptions::default()).unwrap().score);
    /// ```
    #[must_use]
    pub fn with_weights(mut self, weights: Arc<Weights>) -> Solver {
        self.weights = Some(OrderingWeights::Owned(weights));
        self.mid_tt.clear();
        self
    }

    /// This solver with its moves ordered without trained weights (mobility, stability,
    /// parity and shallow searches on a hand-made evaluation), as in a build without the
    /// feature `embedded-weights`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{SolveOptions, Solver};
    /// use reversi_core::Position;
    /// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
    /// let s = Solver::new().without_weights().solve(&pos, &SolveOptions::default()).unwrap();
    /// assert!((-64..=64).contains(&s.score));
    /// ```
    #[must_use]
    pub fn without_weights(mut self) -> Solver {
        self.weights = None;
        self.mid_tt.clear();
        self
    }

    /// Whether this solver orders its moves with trained weights (see [`Solver::with_weights`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let s = reversi_ai::Solver::new();
    /// assert_eq!(s.has_weights(), cfg!(feature = "embedded-weights"));
    /// assert!(!s.without_weights().has_weights());
    /// ```
    #[must_use]
    pub fn has_weights(&self) -> bool {
        self.weights.is_some()
    }

    /// Solves a position exactly, without limits.
    ///
    /// # Errors
    ///
    /// [`AiError::GameOver`] when neither side can move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{SolveOptions, Solver};
    /// use reversi_core::Position;
    /// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
    /// let s = Solver::new().solve(&pos, &SolveOptions::default()).unwrap();
    /// assert!((-64..=64).contains(&s.score));
    /// ```
    pub fn solve(&mut self, pos: &Position, options: &SolveOptions) -> Result<Solution, AiError> {
        self.solve_with(pos, options, &Limits::NONE, &AtomicBool::new(false))
    }

    /// Solves a position exactly within limits (the depth limit is ignored) and a stop flag.
    ///
    /// # Errors
    ///
    /// [`AiError::GameOver`] when neither side can move; [`AiError::Interrupted`] when the node or
    /// time limit is reached or `stop` is set before the solve ends.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{AiError, Limits, SolveOptions, Solver};
    /// use reversi_core::Position;
    /// use std::sync::atomic::AtomicBool;
    /// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
    /// let r = Solver::new().solve_with(&pos, &SolveOptions::default(), &Limits::nodes(10), &AtomicBool::new(false));
    /// assert!(matches!(r, Err(AiError::Interrupted { .. })));
    /// ```
    pub fn solve_with(
        &mut self,
        pos: &Position,
        options: &SolveOptions,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Solution, AiError> {
        if pos.is_game_over() {
            return Err(AiError::GameOver);
        }
        let wof = options.scoring == Scoring::Wof;
        if self.wof != Some(wof) {
            self.end_tt.clear();
            self.wof = Some(wof);
        }
        self.end_tt.new_search();
        self.mid_tt.new_search();
        let deadline = limits.deadline();
        let mut s = Search::new(&self.mid_tt, &self.end_tt, stop, limits.nodes, deadline);
        let threads = limits.threads.unwrap_or(1).max(1);
        let helpers = std::sync::atomic::AtomicIsize::new(threads as isize - 1);
        s.helpers = (threads > 1).then_some(&helpers);
        s.wof = wof;
        s.weights = self.weights.as_ref().map(OrderingWeights::get);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let (alpha, beta) = if options.wld { (-1, 1) } else { (-64, 64) };
        let (score, mv) = exact_root(&mut s, p, o, alpha, beta);
        if s.aborted {
            return Err(AiError::Interrupted { nodes: s.nodes });
        }
        let score = if options.wld { score.signum() } else { score };
        let best_move = if mv == NO_MOVE {
            Move::Pass
        } else {
            Move::Place(Square::from_index(mv).expect("square index"))
        };
        // Principal variation: follow moves whose child score proves the root score.
        let mut pv = vec![best_move];
        let mut cur = pos.play(best_move)?;
        let mut need = -score;
        while !cur.is_game_over() {
            let (p, o) = (cur.player().0, cur.opponent().0);
            if cur.must_pass() {
                pv.push(Move::Pass);
                cur = cur.pass();
                need = -need;
                continue;
            }
            let mut found = None;
            let empties = (!(p | o)).count_ones();
            let first = s
                .end_tt
                .probe_slot(s.end_tt.end_slot(p, o, empties, 0), p, o)
                .map(|e| e.mv);
            let mut cands: Vec<Square> = cur.legal_moves().iter().collect();
            if let Some(f) = first {
                cands.sort_by_key(|sq| sq.index() != f);
            }
            for sq in cands {
                let next = cur.make_move(sq, cur.flips(sq));
                let (np, no) = (next.player().0, next.opponent().0);
                let ok = if options.wld {
                    // need is -1/0/+1: the child (from its mover's view) must have sign -need.
                    let c = s.exact(np, no, -1, 1).signum();
                    -c == need
                } else {
                    let c = s.exact(np, no, -need - 1, -need + 1);
                    -c == need
                };
                if s.aborted {
                    return Err(AiError::Interrupted { nodes: s.nodes });
                }
                if ok {
                    found = Some((sq, next));
                    break;
                }
            }
            let Some((sq, next)) = found else { break };
            pv.push(Move::Place(sq));
            cur = next;
            need = -need;
        }
        Ok(Solution {
            score,
            best_move,
            pv,
            nodes: s.nodes,
        })
    }
}

/// Solves a position exactly with a fresh solver (its table sized to the number of empties).
///
/// # Errors
///
/// [`AiError::GameOver`] when neither side can move.
///
/// # Examples
///
/// ```
/// use reversi_ai::{solve, Scoring, SolveOptions};
/// use reversi_core::{Move, Position};
/// // Two empty squares, white to move.
/// let pos: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--OX O".parse().unwrap();
/// let s = solve(&pos, &SolveOptions::exact(Scoring::Wof)).unwrap();
/// assert!(pos.play(s.best_move).is_ok());
/// ```
pub fn solve(pos: &Position, options: &SolveOptions) -> Result<Solution, AiError> {
    let empties = pos.empty().count();
    Solver::with_table_bits((empties + 2).clamp(10, 21)).solve(pos, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{flips, legal};

    /// Plain alpha-beta without tables or ordering: the disc difference with perfect play.
    fn reference(p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        let moves = legal(p, o);
        if moves == 0 {
            if passed {
                return p.count_ones() as i32 - o.count_ones() as i32;
            }
            return -reference(o, p, -beta, -alpha, true);
        }
        let mut best = -65;
        let mut mm = moves;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, sq);
            let s = -reference(o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, false);
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Random positions with `empties` empty squares reached by random play, the mover able to
    /// move.
    fn random_positions(n: usize, empties: u32, mut x: u64) -> Vec<Position> {
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::initial();
            while !pos.is_game_over() && pos.empty().count() > empties {
                let moves = pos.legal_move_list();
                crate::bits::tests::xorshift(&mut x);
                pos = pos.play(moves[(x % moves.len() as u64) as usize]).unwrap();
            }
            if !pos.is_game_over() && !pos.must_pass() {
                out.push(pos);
            }
        }
        out
    }

    /// The ordering searches (on trained weights, on all-zero weights, or on the hand-made
    /// evaluation) change the order of the moves, never the score: each solver agrees with
    /// plain alpha-beta at 14 to 16 empties, where those searches run at the first nodes (one
    /// ply from 15 empties, two from 16, with the children's evaluations updated from their
    /// parent's pattern indices).
    #[test]
    fn every_ordering_gives_the_exact_score() {
        let mut solvers = vec![
            Solver::with_table_bits(16).without_weights(),
            Solver::with_table_bits(16).with_weights(Arc::new(Weights::zero())),
        ];
        if let Ok(w) = Weights::embedded() {
            solvers.push(Solver::with_table_bits(16));
            assert!(solvers[2].has_weights());
            solvers.push(Solver::with_table_bits(16).with_weights(Arc::new(w.clone())));
        }
        for (i, pos) in [(14, 3), (15, 3), (16, 2)]
            .iter()
            .flat_map(|&(e, n)| random_positions(n, e, 0x5DEE_CE66 + u64::from(e)))
            .enumerate()
        {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let want = reference(p, o, -65, 65, false);
            for s in &mut solvers {
                let r = s.solve(&pos, &SolveOptions::default()).unwrap();
                assert_eq!(r.score, want, "position {i}: {pos:?}");
                let child = pos.play(r.best_move).unwrap();
                let (cp, co) = (child.player().0, child.opponent().0);
                assert_eq!(-reference(cp, co, -65, 65, false), want, "move of {i}");
                let wof = s.solve(&pos, &SolveOptions::exact(Scoring::Wof)).unwrap();
                assert_eq!(wof.score.signum(), want.signum());
                let wld = s.solve(&pos, &SolveOptions::wld(Scoring::Wof)).unwrap();
                assert_eq!(wld.score, want.signum());
            }
        }
    }

    /// The exact search split among threads gives the one-thread score (and a move that
    /// proves it) at 15 and 16 empties, where the splits happen; a node limit still
    /// interrupts it.
    #[test]
    fn solves_on_several_threads_give_the_exact_score() {
        let stop = AtomicBool::new(false);
        for (i, pos) in [(15, 2), (16, 3)]
            .iter()
            .flat_map(|&(e, n)| random_positions(n, e, 0xC0FF_EE00 + u64::from(e)))
            .enumerate()
        {
            let one = Solver::with_table_bits(18)
                .solve(&pos, &SolveOptions::default())
                .unwrap();
            for threads in [2, 3] {
                for options in [SolveOptions::default(), SolveOptions::wld(Scoring::Wof)] {
                    let r = Solver::with_table_bits(18)
                        .solve_with(&pos, &options, &Limits::NONE.with_threads(threads), &stop)
                        .unwrap();
                    let want = if options.wld {
                        one.score.signum()
                    } else {
                        one.score
                    };
                    assert_eq!(r.score, want, "position {i}, {threads} threads: {pos:?}");
                }
                let r = Solver::with_table_bits(18)
                    .solve_with(
                        &pos,
                        &SolveOptions::default(),
                        &Limits::NONE.with_threads(threads),
                        &stop,
                    )
                    .unwrap();
                let child = pos.play(r.best_move).unwrap();
                let check = Solver::with_table_bits(18)
                    .solve(&child, &SolveOptions::default())
                    .unwrap();
                assert_eq!(-check.score, one.score, "move of {i}, {threads} threads");
            }
        }
        let pos = &random_positions(1, 20, 7)[0];
        let r = Solver::with_table_bits(16).solve_with(
            pos,
            &SolveOptions::default(),
            &Limits::nodes(20_000).with_threads(2),
            &stop,
        );
        assert!(matches!(r, Err(AiError::Interrupted { .. })), "{r:?}");
    }
}
