//! Multi-ProbCut, the selective part of the Expert level's midgame search.
//!
//! A search `d` plies deep and one [`shallow_depth`]`(d)` plies deep (of the same parity) of the
//! same position give related scores: over many positions, `deep ≈ a · shallow + b`, with an
//! error of standard deviation `σ`. At a node of depth `d`, when the shallow search says that
//! the deep one would land at or above `beta` (at or below `alpha`) with `t · σ` to spare, the
//! node is cut without the deep search. The parameters `a`, `b` and `σ` depend on the depth and
//! on the game's stage (the number of empty squares); they are fitted from the scores of real
//! searches ([`ProbCut::fit`]) by the `train` example, and stored with the trained weights
//! ([`crate::pattern::Weights::probcut`]).

/// The shallowest node that is tested for a cut.
pub const MIN_DEPTH: u32 = 3;
/// The deepest node with its own parameters (deeper nodes use this depth's).
pub const MAX_DEPTH: u32 = 30;
/// Stages of the parameters: by tens of empty squares (1-10, 11-20, ..., 51-60).
pub const STAGES: usize = 6;
/// Rows of the endgame's cuts: empty squares `0..=60`.
const END_ROWS: usize = 61;
/// The fewest empty squares at which a selective endgame search tries a cut.
pub const END_MIN_EMPTIES: u32 = 12;

/// The depth of the shallow search that predicts the exact score of a position with `empties`
/// empty squares in a selective endgame search: a third of the empties above 8, from 1 to 6.
///
/// # Examples
///
/// ```
/// use reversi_ai::probcut::end_shallow_depth;
/// assert_eq!(end_shallow_depth(12), 1);
/// assert_eq!(end_shallow_depth(20), 4);
/// assert_eq!(end_shallow_depth(40), 6);
/// ```
#[must_use]
pub const fn end_shallow_depth(empties: u32) -> u32 {
    let d = empties.saturating_sub(8) / 3;
    if d < 1 {
        1
    } else if d > 6 {
        6
    } else {
        d
    }
}

/// One measurement for the endgame's fit: a position's exact score and its
/// [`end_shallow_depth`]-ply search, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndSample {
    /// Empty squares of the position.
    pub empties: u32,
    /// The shallow search's score.
    pub shallow: f32,
    /// The exact score (the final disc difference with perfect play).
    pub exact: f32,
}

/// The default selectivity: a cut needs the prediction to clear the bound by this many
/// standard deviations.
pub const DEFAULT_T: f32 = 1.5;

/// The depth of the shallow search that predicts a search `depth` plies deep, as
/// [`ProbCut::fit`] pairs them: the deepest of the same parity as `depth` at most half of it
/// (rounded up), and at least 1. Both searches then end on the same side's ply: a search that
/// ends on the mover's ply scores higher than one that ends on the opponent's, and a pair of
/// mixed parities predicts worse (a larger `σ`).
///
/// Weights files of format version 2 were fitted with the pairing [`legacy_shallow_depth`];
/// each [`ProbCut`] knows its own ([`ProbCut::shallow`]).
///
/// # Examples
///
/// ```
/// use reversi_ai::probcut::shallow_depth;
/// assert_eq!(shallow_depth(3), 1);
/// assert_eq!(shallow_depth(4), 2);
/// assert_eq!(shallow_depth(7), 3);
/// assert_eq!(shallow_depth(10), 4);
/// assert_eq!(shallow_depth(12), 6);
/// ```
#[must_use]
pub const fn shallow_depth(depth: u32) -> u32 {
    let half = depth.div_ceil(2);
    let s = if (half ^ depth) & 1 == 0 {
        half
    } else {
        half - 1
    };
    if s == 0 {
        1
    } else {
        s
    }
}

/// The pairing of depths of the parameters stored in weights files of format version 2:
/// `(depth - 1) / 2`, at least 1 (of mixed parities for half of the depths).
///
/// # Examples
///
/// ```
/// use reversi_ai::probcut::legacy_shallow_depth;
/// assert_eq!(legacy_shallow_depth(3), 1);
/// assert_eq!(legacy_shallow_depth(8), 3);
/// assert_eq!(legacy_shallow_depth(12), 5);
/// ```
#[must_use]
pub const fn legacy_shallow_depth(depth: u32) -> u32 {
    let s = depth.saturating_sub(1) / 2;
    if s == 0 {
        1
    } else {
        s
    }
}

/// The stage of the parameters for a position with `empties` empty squares.
///
/// # Examples
///
/// ```
/// use reversi_ai::probcut::{stage, STAGES};
/// assert_eq!(stage(10), 0);
/// assert_eq!(stage(11), 1);
/// assert_eq!(stage(60), STAGES - 1);
/// ```
#[must_use]
pub const fn stage(empties: u32) -> usize {
    let s = (empties.saturating_sub(1) / 10) as usize;
    if s >= STAGES {
        STAGES - 1
    } else {
        s
    }
}

/// The prediction of a deep search by a shallow one, in discs: `deep ≈ a · shallow + b`, with
/// an error of standard deviation `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Slope.
    pub a: f32,
    /// Offset, in discs.
    pub b: f32,
    /// Standard deviation of the error, in discs.
    pub sigma: f32,
}

/// One measurement for the fit: a position's scores at two depths, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Empty squares of the position.
    pub empties: u32,
    /// The deep search's depth (the shallow one's is [`shallow_depth`] of it, the pairing of
    /// [`ProbCut::fit`]).
    pub depth: u32,
    /// The shallow search's score.
    pub shallow: f32,
    /// The deep search's score.
    pub deep: f32,
}

/// The cut parameters of every stage and depth.
///
/// # Examples
///
/// ```
/// use reversi_ai::probcut::{ProbCut, Sample};
/// // Deep scores that are the shallow ones plus one disc, give or take a half.
/// let samples: Vec<Sample> = (0..400)
///     .map(|i| {
///         let x = (i % 40) as f32 - 20.0;
///         let noise = if i % 2 == 0 { 0.5 } else { -0.5 };
///         Sample { empties: 35, depth: 6, shallow: x, deep: x + 1.0 + noise }
///     })
///     .collect();
/// let pc = ProbCut::fit(&samples).unwrap();
/// let c = pc.cut(35, 6);
/// assert!((c.a - 1.0).abs() < 0.01 && (c.b - 1.0).abs() < 0.01);
/// assert!((c.sigma - 0.5).abs() < 0.01);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCut {
    cuts: Vec<Cut>,
    /// The shallow depth paired with each depth `0..=MAX_DEPTH`.
    shallow: [u8; ROWS],
    /// The endgame's cuts by empty squares `0..=60` ([`ProbCut::end`]), if fitted.
    end: Option<Vec<Cut>>,
}

// Every value is finite (`from_bytes` and `fit` make no NaN), so equality is an equivalence.
impl Eq for ProbCut {}

/// Rows of the table per stage: depths `0..=MAX_DEPTH`.
const ROWS: usize = MAX_DEPTH as usize + 1;
/// Fewest samples for a stage and depth to be fitted from its own data.
const MIN_SAMPLES: usize = 30;

impl ProbCut {
    /// The parameters of a node of `depth` plies in a position with `empties` empty squares.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 });
    /// assert_eq!(pc.cut(40, 99).sigma, 3.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn cut(&self, empties: u32, depth: u32) -> Cut {
        self.cuts[stage(empties) * ROWS + depth.min(MAX_DEPTH) as usize]
    }

    /// The depth of the shallow search that these parameters pair with a search `depth` plies
    /// deep: [`shallow_depth`] for parameters fitted or built by this version, and
    /// [`legacy_shallow_depth`] for those read from a weights file of format version 2.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{shallow_depth, Cut, ProbCut};
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 });
    /// assert_eq!(pc.shallow(8), shallow_depth(8));
    /// ```
    #[must_use]
    #[inline]
    pub fn shallow(&self, depth: u32) -> u32 {
        u32::from(self.shallow[depth.min(MAX_DEPTH) as usize])
    }

    /// The endgame's cut at `empties` empty squares: how the exact score follows the
    /// [`end_shallow_depth`]`(empties)`-ply search; `None` when these parameters have no
    /// endgame cuts (fitted by [`ProbCut::with_end_fit`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// assert!(ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 }).end(20).is_none());
    /// ```
    #[must_use]
    #[inline]
    pub fn end(&self, empties: u32) -> Option<Cut> {
        let end = self.end.as_deref()?;
        end.get(empties as usize).copied()
    }

    /// These parameters with endgame cuts fitted on `samples`: for each number of empties with
    /// enough samples, `a` and `b` by least squares and `σ` as the error's standard deviation;
    /// the other numbers of empties take `a` and `b` from the nearest measured one, and `σ`
    /// from there along a line through the measured ones (not decreasing with the empties).
    /// `None` without a number of empties of enough samples.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, EndSample, ProbCut};
    /// // Exact scores that are the shallow ones, give or take two discs.
    /// let samples: Vec<EndSample> = (0..400)
    ///     .map(|i| {
    ///         let x = (i % 40) as f32 - 20.0;
    ///         let noise = if i % 2 == 0 { 2.0 } else { -2.0 };
    ///         EndSample { empties: 16 + (i / 2 % 2) * 2, shallow: x, exact: x + noise }
    ///     })
    ///     .collect();
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 }).with_end_fit(&samples).unwrap();
    /// assert!((pc.end(16).unwrap().sigma - 2.0).abs() < 0.1);
    /// assert!(pc.end(24).unwrap().sigma >= pc.end(18).unwrap().sigma);
    /// ```
    #[must_use]
    pub fn with_end_fit(mut self, samples: &[EndSample]) -> Option<ProbCut> {
        let measured: Vec<Option<Cut>> = (0..END_ROWS)
            .map(|e| {
                let xs: Vec<(f64, f64)> = samples
                    .iter()
                    .filter(|x| x.empties as usize == e)
                    .map(|x| (f64::from(x.shallow), f64::from(x.exact)))
                    .collect();
                (xs.len() >= MIN_SAMPLES).then(|| regress(&xs))
            })
            .collect();
        let (pts, slope) = sigma_line(&measured)?;
        let end = (0..END_ROWS)
            .map(|e| match measured[e] {
                Some(c) => c,
                None => {
                    let near = pts
                        .iter()
                        .min_by_key(|p| (p.0.abs_diff(e), p.0))
                        .map_or(pts[0], |p| *p);
                    let sigma = near.1.sigma + (slope * (e as f64 - near.0 as f64)) as f32;
                    Cut {
                        sigma: sigma.max(0.0),
                        ..near.1
                    }
                }
            })
            .collect();
        self.end = Some(end);
        Some(self)
    }

    /// Whether these parameters have endgame cuts ([`ProbCut::end`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// assert!(!ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 }).has_end());
    /// ```
    #[must_use]
    pub fn has_end(&self) -> bool {
        self.end.is_some()
    }

    /// The same parameters at every stage and depth.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// let c = Cut { a: 1.0, b: 0.0, sigma: 2.0 };
    /// assert_eq!(ProbCut::uniform(c).cut(20, 5), c);
    /// ```
    #[must_use]
    pub fn uniform(cut: Cut) -> ProbCut {
        ProbCut {
            cuts: vec![cut; STAGES * ROWS],
            shallow: pairing(shallow_depth),
            end: None,
        }
    }

    /// Fits the parameters: for each stage and depth with enough samples, `a` and `b` by least
    /// squares and `σ` as the error's standard deviation; per stage, `σ` of the depths without
    /// enough samples from a straight line fitted through the measured depths (never below
    /// the deepest measured one), `a` and `b` from the nearest measured depth; a stage without
    /// any measured depth takes the nearest stage's parameters. `None` without any stage and
    /// depth of enough samples.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::ProbCut;
    /// assert!(ProbCut::fit(&[]).is_none());
    /// ```
    #[must_use]
    pub fn fit(samples: &[Sample]) -> Option<ProbCut> {
        let mut measured: Vec<Option<Cut>> = vec![None; STAGES * ROWS];
        for s in 0..STAGES {
            for d in MIN_DEPTH..=MAX_DEPTH {
                let xs: Vec<(f64, f64)> = samples
                    .iter()
                    .filter(|x| stage(x.empties) == s && x.depth == d)
                    .map(|x| (f64::from(x.shallow), f64::from(x.deep)))
                    .collect();
                if xs.len() >= MIN_SAMPLES {
                    measured[s * ROWS + d as usize] = Some(regress(&xs));
                }
            }
        }
        let stages: Vec<Option<Vec<Cut>>> = (0..STAGES)
            .map(|s| fill_depths(&measured[s * ROWS..(s + 1) * ROWS]))
            .collect();
        let any = stages.iter().position(Option::is_some)?;
        let mut cuts = Vec::with_capacity(STAGES * ROWS);
        for s in 0..STAGES {
            // The nearest stage with measurements (the lower one on a tie).
            let near = (0..STAGES)
                .filter(|&t| stages[t].is_some())
                .min_by_key(|&t| (t.abs_diff(s), t))
                .unwrap_or(any);
            cuts.extend_from_slice(stages[near].as_deref().unwrap_or_default());
        }
        Some(ProbCut {
            cuts,
            shallow: pairing(shallow_depth),
            end: None,
        })
    }

    /// The parameters as bytes (little-endian `f32` triples, stage after stage, depth after
    /// depth, then the shallow depth paired with each depth as one byte), as stored in a
    /// weights file of format version 3; with endgame cuts, their triples by empty squares
    /// follow (format version 4).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.5, sigma: 2.0 });
    /// assert_eq!(ProbCut::from_bytes(&pc.to_bytes()), Some(pc));
    /// ```
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::BYTES);
        for c in &self.cuts {
            for x in [c.a, c.b, c.sigma] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.shallow);
        for c in self.end.as_deref().unwrap_or_default() {
            for x in [c.a, c.b, c.sigma] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// The length of [`ProbCut::to_bytes`] without endgame cuts (weights format version 3).
    pub const BYTES: usize = Self::LEGACY_BYTES + ROWS;

    /// The length of [`ProbCut::to_bytes`] with endgame cuts (weights format version 4): the
    /// endgame's triples, by empty squares, after [`ProbCut::BYTES`].
    pub const END_BYTES: usize = Self::BYTES + END_ROWS * 12;

    /// The length of the parameters in a weights file of format version 2: the triples alone,
    /// paired by [`legacy_shallow_depth`].
    pub const LEGACY_BYTES: usize = STAGES * ROWS * 12;

    /// Reads [`ProbCut::to_bytes`] ([`ProbCut::BYTES`] long, or [`ProbCut::END_BYTES`] with
    /// endgame cuts), or the parameters of a weights
    /// file of format version 2 ([`ProbCut::LEGACY_BYTES`] long, paired by
    /// [`legacy_shallow_depth`]); `None` for another length, a value that is not finite, a
    /// slope not positive, a deviation negative, or a shallow depth that is 0 or not below
    /// its depth (from [`MIN_DEPTH`] on).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{legacy_shallow_depth, Cut, ProbCut};
    /// assert!(ProbCut::from_bytes(&[0; 12]).is_none());
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 2.0 });
    /// let legacy = &pc.to_bytes()[..ProbCut::LEGACY_BYTES];
    /// assert_eq!(ProbCut::from_bytes(legacy).unwrap().shallow(8), legacy_shallow_depth(8));
    /// ```
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<ProbCut> {
        let (shallow, end) = match bytes.len() {
            Self::BYTES | Self::END_BYTES => {
                let mut s = [0; ROWS];
                s.copy_from_slice(&bytes[Self::LEGACY_BYTES..Self::BYTES]);
                (
                    s,
                    (bytes.len() == Self::END_BYTES).then(|| &bytes[Self::BYTES..]),
                )
            }
            Self::LEGACY_BYTES => (pairing(legacy_shallow_depth), None),
            _ => return None,
        };
        let paired = shallow
            .iter()
            .enumerate()
            .all(|(d, &s)| s >= 1 && (d < MIN_DEPTH as usize || usize::from(s) < d));
        if !paired {
            return None;
        }
        let cuts: Vec<Cut> = bytes[..Self::LEGACY_BYTES]
            .chunks_exact(12)
            .map(cut_of)
            .collect();
        let ok = cuts.iter().all(valid);
        let end = end.map(|b| b.chunks_exact(12).map(cut_of).collect::<Vec<Cut>>());
        let ok = ok && end.as_deref().unwrap_or_default().iter().all(valid);
        ok.then_some(ProbCut { cuts, shallow, end })
    }
}

/// A triple of little-endian `f32` as a cut.
fn cut_of(c: &[u8]) -> Cut {
    let f = |c: &[u8]| f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    Cut {
        a: f(&c[0..4]),
        b: f(&c[4..8]),
        sigma: f(&c[8..12]),
    }
}

/// Whether a cut read from bytes can be used: finite, a positive slope, a deviation not
/// negative.
fn valid(c: &Cut) -> bool {
    c.a.is_finite() && c.b.is_finite() && c.sigma.is_finite() && c.a > 0.0 && c.sigma >= 0.0
}

/// The shallow depth of each depth `0..=MAX_DEPTH` by a pairing rule.
fn pairing(rule: fn(u32) -> u32) -> [u8; ROWS] {
    std::array::from_fn(|d| rule(d as u32) as u8)
}

/// Least squares `y = a x + b` and the residual's standard deviation.
fn regress(xs: &[(f64, f64)]) -> Cut {
    let n = xs.len() as f64;
    let (mx, my) = (
        xs.iter().map(|p| p.0).sum::<f64>() / n,
        xs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = xs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = xs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    // A slope far from 1 (or undefined) says the data is too narrow: keep 1.
    let a = if sxx > 1e-9 {
        (sxy / sxx).clamp(0.5, 2.0)
    } else {
        1.0
    };
    let b = my - a * mx;
    let var = xs
        .iter()
        .map(|p| (p.1 - a * p.0 - b) * (p.1 - a * p.0 - b))
        .sum::<f64>()
        / (n - 2.0).max(1.0);
    Cut {
        a: a as f32,
        b: b as f32,
        sigma: var.sqrt() as f32,
    }
}

/// The measured rows of a table (row index, cut) and the slope of a line through their `σ`
/// by row, not negative; `None` without any measured row.
fn sigma_line(measured: &[Option<Cut>]) -> Option<(Vec<(usize, Cut)>, f64)> {
    let pts: Vec<(usize, Cut)> = measured
        .iter()
        .enumerate()
        .filter_map(|(d, c)| c.map(|c| (d, c)))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0 as f64).sum::<f64>() / n;
    let my = pts.iter().map(|p| f64::from(p.1.sigma)).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 as f64 - mx).powi(2)).sum();
    let sxy: f64 = pts
        .iter()
        .map(|p| (p.0 as f64 - mx) * (f64::from(p.1.sigma) - my))
        .sum();
    let slope = if sxx > 0.0 { (sxy / sxx).max(0.0) } else { 0.0 };
    Some((pts, slope))
}

/// One stage's depths from its measured ones (see [`ProbCut::fit`]); `None` without any.
///
/// The offset `b` depends on the parities of the two depths (a search that ends on the
/// mover's ply scores higher than one that ends on the opponent's), so a depth without its own
/// measurement takes `a` and `b` from the nearest measured depth of the same parities, and `σ`
/// from there along the slope of a line through all the measured depths (not decreasing).
fn fill_depths(measured: &[Option<Cut>]) -> Option<Vec<Cut>> {
    let (pts, slope) = sigma_line(measured)?;
    let class = |d: usize| (d % 2, shallow_depth(d as u32) % 2);
    Some(
        (0..measured.len())
            .map(|d| match measured[d] {
                Some(c) => c,
                None => {
                    let same: Vec<&(usize, Cut)> =
                        pts.iter().filter(|p| class(p.0) == class(d)).collect();
                    let pool = if same.is_empty() {
                        pts.iter().collect()
                    } else {
                        same
                    };
                    let near = pool
                        .iter()
                        .min_by_key(|p| (p.0.abs_diff(d), p.0))
                        .map_or(pts[0], |p| **p);
                    let sigma = if d > near.0 {
                        near.1.sigma + (slope * (d - near.0) as f64) as f32
                    } else {
                        near.1.sigma
                    };
                    Cut { sigma, ..near.1 }
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn unmeasured_depths_take_the_offset_of_their_parities() {
        // Measured depths 3 to 12 with an offset that depends on the parities only, and a
        // deviation growing by 0.1 a ply.
        let offset = |d: usize| match class_of(d) {
            (0, 0) => 5.0,
            (1, 1) => -5.0,
            _ => 0.0,
        };
        let mut m = vec![None; ROWS];
        for d in 3..=12usize {
            m[d] = Some(Cut {
                a: 1.0,
                b: offset(d),
                sigma: 2.0 + 0.1 * d as f32,
            });
        }
        let f = fill_depths(&m).unwrap();
        for d in 13..=20usize {
            assert_eq!(f[d].b, offset(d), "depth {d}");
            assert!(
                (f[d].sigma - (2.0 + 0.1 * d as f32)).abs() < 1e-3,
                "depth {d}"
            );
        }
        // Below the measured depths: depth 2 pairs with 1 (at least one ply), mixed parities
        // that no measured depth has, so it takes the nearest depth's parameters.
        assert_eq!(class_of(2), (0, 1));
        assert_eq!(f[2], m[3].unwrap());
    }

    fn class_of(d: usize) -> (usize, u32) {
        (d % 2, shallow_depth(d as u32) % 2)
    }
}
