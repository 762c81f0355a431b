//! The exact endgame solver.

use crate::search::Search;
use crate::tt::{TransTable, NO_MOVE};
use crate::{AiError, Limits};
use reversi_core::{Move, Position, Square};
use std::sync::atomic::AtomicBool;

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
    /// [`AiError::Core`] with [`reversi_core::Error::Obf`] describing the bad name.
    fn from_str(s: &str) -> Result<Self, AiError> {
        match s.to_ascii_lowercase().as_str() {
            "disc" | "board" | "disc-difference" => Ok(Scoring::DiscDifference),
            "wof" => Ok(Scoring::Wof),
            _ => Err(AiError::Core(reversi_core::Error::Obf(format!(
                "{s:?} is not a scoring rule (expected disc or wof)"
            )))),
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
    /// let _solver = reversi_ai::Solver::new();
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
    /// let _small = reversi_ai::Solver::with_table_bits(12);
    /// ```
    #[must_use]
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver {
            mid_tt: TransTable::new(bits.clamp(4, 30).min(18)),
            end_tt: TransTable::new(bits),
            wof: None,
        }
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
        let mut s = Search::new(
            &mut self.mid_tt,
            &mut self.end_tt,
            stop,
            limits.nodes,
            deadline,
        );
        s.wof = wof;
        let (p, o) = (pos.player().0, pos.opponent().0);
        let (alpha, beta) = if options.wld { (-1, 1) } else { (-64, 64) };
        let (score, mv) = s.end_root(p, o, alpha, beta);
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
            let first = s.end_tt.probe(p, o).map(|e| e.mv);
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
