//! Hints: a score for every legal move.

use crate::pattern::Weights;
use crate::search::Search;
use crate::tt::TransTable;
use crate::{AiError, Limits, Scoring};
use reversi_core::{Move, Position};
use std::sync::atomic::AtomicBool;

/// The score of one legal move.
///
/// # Examples
///
/// ```
/// use reversi_ai::{hints, Scoring, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// let h = hints(&Position::initial(), &Limits::depth(3), Scoring::DiscDifference, &AtomicBool::new(false)).unwrap();
/// assert_eq!(h.len(), 4);
/// assert!(h.iter().all(|m| !m.exact && m.depth == 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hint {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move: the exact final score when `exact`, else the evaluation
    /// of a search `depth` plies deep: in discs on the trained evaluation of the Expert level
    /// (feature `embedded-weights`, on by default), or in the Hard evaluation's units without
    /// it (see [`crate::SearchResult::score`]).
    pub score: i32,
    /// Whether the score is exact (perfect play to the end).
    pub exact: bool,
    /// The depth of the search that scored the move, in plies including the move itself.
    pub depth: u32,
}

/// Whether [`hints`] give midgame (not exact) scores in discs by construction: `true` when the
/// library has the trained evaluation of the Expert level built in (feature `embedded-weights`,
/// on by default), `false` when midgame scores are in the Hard evaluation's own units unless
/// weights are installed at run time ([`Weights::install`]): [`midgame_hints_in_discs`] says
/// which applies now. Exact scores are always final disc margins.
///
/// # Examples
///
/// ```
/// // The default features build the weights in.
/// assert_eq!(reversi_ai::MIDGAME_HINTS_IN_DISCS, cfg!(feature = "embedded-weights"));
/// // Built in or not, hints are in discs whenever the constant says so.
/// assert!(!reversi_ai::MIDGAME_HINTS_IN_DISCS || reversi_ai::midgame_hints_in_discs());
/// ```
pub const MIDGAME_HINTS_IN_DISCS: bool = cfg!(feature = "embedded-weights");

/// Whether [`hints`] give midgame (not exact) scores in discs now: when the trained weights
/// are available ([`Weights::active`]: installed at run time, or built in). Otherwise midgame
/// scores are in the Hard evaluation's own units.
///
/// # Examples
///
/// ```
/// assert_eq!(reversi_ai::midgame_hints_in_discs(), reversi_ai::MIDGAME_HINTS_IN_DISCS);
/// ```
#[must_use]
pub fn midgame_hints_in_discs() -> bool {
    Weights::active().is_ok()
}

/// Scores every legal move (multi-PV), best first.
///
/// A midgame search deepens one ply at a time up to `limits.depth` (default: no limit) within
/// the node and time limits, scoring each move with a full window. When the depth limit is
/// absent or reaches the number of empties, every move is then solved exactly in `scoring`;
/// if that does not finish within the limits, the deepest midgame scores are returned. Without
/// any limit the result is always exact, which can take long with many empties.
///
/// When the side to move must pass, the result is the single move [`Move::Pass`], scored by
/// the same method from the opponent's side.
///
/// # Errors
///
/// [`AiError::GameOver`] when neither side can move.
///
/// # Examples
///
/// ```
/// use reversi_ai::{hints, Scoring, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// let pos: Position = "OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X".parse().unwrap();
/// let h = hints(&pos, &Limits::NONE, Scoring::DiscDifference, &AtomicBool::new(false)).unwrap();
/// assert!(h.iter().all(|m| m.exact));
/// assert!(h.windows(2).all(|w| w[0].score >= w[1].score));
/// ```
pub fn hints(
    pos: &Position,
    limits: &Limits,
    scoring: Scoring,
    stop: &AtomicBool,
) -> Result<Vec<Hint>, AiError> {
    if pos.is_game_over() {
        return Err(AiError::GameOver);
    }
    if pos.must_pass() {
        let h = hints(&pos.pass(), limits, scoring, stop)?;
        let best = h[0];
        return Ok(vec![Hint {
            mv: Move::Pass,
            score: -best.score,
            exact: best.exact,
            depth: best.depth + 1,
        }]);
    }
    let empties = pos.empty().count();
    let bits = (empties + 2).clamp(10, 21);
    let mid_tt = TransTable::new(bits.min(18));
    let end_tt = TransTable::new(bits);
    let deadline = limits.deadline();
    // The trained evaluation, when the library has it: midgame scores in discs.
    let weights = Weights::active().ok();
    let mut expert_tt = TransTable::new(if weights.is_some() { bits.min(18) } else { 4 });
    let mut expert_nodes = 0u64;
    let mut s = Search::new(&mid_tt, &end_tt, stop, limits.nodes, deadline);
    s.wof = scoring == Scoring::Wof;
    let (p, o) = (pos.player().0, pos.opponent().0);
    let mut order: Vec<u8> = pos.legal_moves().iter().map(|q| q.index()).collect();
    let exact_wanted = limits.depth.is_none_or(|d| d >= empties);
    let mid_max = match limits.depth {
        Some(d) => d.min(empties),
        None if limits.time.is_none() && limits.nodes.is_none() => {
            empties.saturating_sub(12).clamp(1, 8)
        }
        None => empties,
    }
    .max(1);
    let to_hint = |v: &[(u8, i32)], exact: bool, depth: u32| -> Vec<Hint> {
        v.iter()
            .map(|&(q, score)| Hint {
                mv: Move::Place(reversi_core::Square::from_index(q).expect("square")),
                score,
                exact,
                depth,
            })
            .collect()
    };
    let mut out: Vec<Hint> = to_hint(&order.iter().map(|&q| (q, 0)).collect::<Vec<_>>(), false, 0);
    let mut done_mid = false;
    for depth in 1..=mid_max {
        if exact_wanted && depth + 10 > empties && done_mid {
            break; // the exact phase will do better
        }
        let r = match weights {
            Some(w) => crate::expert::mid_scores(
                w,
                &mut expert_tt,
                p,
                o,
                depth,
                &order,
                limits.nodes,
                deadline,
                stop,
                &mut expert_nodes,
            ),
            None => s.mid_root(p, o, depth, &order, true),
        };
        let Some(r) = r else {
            break;
        };
        order = r.iter().map(|m| m.0).collect();
        out = to_hint(&r, false, depth);
        done_mid = true;
    }
    if weights.is_some() {
        // The exact phase gets the nodes the midgame phase left.
        if let Some(n) = limits.nodes {
            if expert_nodes >= n {
                return Ok(out);
            }
            s = Search::new(&mid_tt, &end_tt, stop, Some(n - expert_nodes), deadline);
            s.wof = scoring == Scoring::Wof;
        }
        if deadline.is_some_and(|d| d.passed()) || stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(out);
        }
    }
    if exact_wanted && !s.aborted {
        let mut r = Vec::with_capacity(order.len());
        for &q in &order {
            let f = crate::bits::flips(p, o, u32::from(q));
            let v = -s.exact(o ^ f, p ^ f ^ (1 << q), -64, 64);
            if s.aborted {
                break;
            }
            r.push((q, v));
        }
        if !s.aborted {
            r.sort_by_key(|m| std::cmp::Reverse(m.1));
            out = to_hint(&r, true, empties);
        }
    }
    Ok(out)
}
