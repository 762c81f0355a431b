//! Training of the pattern evaluation ([`crate::pattern`]), reproducible from a seed.
//!
//! A tool for whoever makes weights, not for a program that plays: it is built only with the
//! feature `train` (off by default).
//!
//! 1. **Games.** Each game starts with a random number of random moves, then both sides play
//!    a two-ply search on the Hard evaluation ([`train_played_by`]: on trained weights), with
//!    an occasional random move. Every position of every game is kept; one game in
//!    [`TrainConfig::validation_every`] is held back.
//! 2. **Labels, from the end backwards.** Stage by stage, from the last empties to the first:
//!    positions with at most [`TrainConfig::solve_empties`] empties are labelled by an exact
//!    solve (final disc difference for the side to move); earlier ones by the search core's
//!    trained search (full width, a pass not counted as a ply) [`TrainConfig::label_depth`]
//!    plies deep, whose leaves are evaluated with the stages already trained (the leaves have
//!    fewer empties, so they are in an earlier stage).
//! 3. **Fit.** Each stage is a ridge regression of the labels on the pattern features and the
//!    mobility difference, pulled towards the weights of the stage trained before it (so rare
//!    patterns inherit them), solved by preconditioned conjugate gradients. The weights that
//!    the board's symmetries tie together ([`pattern::tied_index`]) are fitted as one, so the
//!    evaluation gives the same score to the eight symmetries of a position.
//!
//! The validation error (mean absolute error in discs) is reported per stage, next to the
//! error of the zero evaluation; [`check_weights`] measures weights against exact scores of
//! held-back positions up to 24 empties and deeper searches above.

use crate::bits::{flips, legal};
use crate::eval;
use crate::pattern::{self, Weights, INSTANCES, PER_STAGE, STAGES, UNITS_PER_DISC};
use crate::probcut::ProbCut;
use crate::rng::Rng;
use crate::search::Search;
use crate::solver::exact_root;
use crate::tt::TransTable;
use std::sync::atomic::AtomicBool;

/// The settings of a training run.
///
/// # Examples
///
/// ```
/// let c = reversi_ai::train::TrainConfig::new(1).with_games(100);
/// assert_eq!(c.games, 100);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TrainConfig {
    /// Seed of every random choice: the same configuration gives the same weights.
    pub seed: u64,
    /// Games played to collect positions.
    pub games: usize,
    /// Random moves at the start of a game: a number drawn uniformly from `0..=random_moves`.
    pub random_moves: u32,
    /// Positions with at most this many empties are labelled by an exact solve.
    pub solve_empties: u32,
    /// Depth (in moves placed: a pass is not a ply) of the labelling search of earlier
    /// positions; at least 4, so that the leaves are in a stage already trained.
    pub label_depth: u32,
    /// One game in this many is held back for validation.
    pub validation_every: usize,
    /// Ridge strength (pull towards the previous stage's weights), in samples.
    pub lambda: f64,
    /// Conjugate gradient iterations per stage.
    pub iterations: usize,
    /// Threads used to label positions.
    pub threads: usize,
    /// Multi-ProbCut parameters of the labelling search: `None` (the default) searches full
    /// width; with cuts the search is selective at the confidence [`crate::probcut::DEFAULT_T`],
    /// as Expert's. Deeper labels still cost more: 8-ply selective ones took four times as long
    /// as 6-ply full-width ones at 20 to 23 empties (`docs/engine.md`, Training).
    pub label_cuts: Option<ProbCut>,
    /// Trained weights that order the moves of the exact solves (and, with endgame cuts, run
    /// their selective presearch first, as [`crate::solve`] does): the labels are the same
    /// with or without, they come sooner. `None` (the default): the hand-made evaluation
    /// orders them. Not part of what decides a run's result (its checkpoint).
    pub solve_weights: Option<Weights>,
    /// Positions labelled at a time within a stage, after each batch of which [`train_from`]
    /// reports the labels so far ([`Progress::Labelled`]), to be saved: a stage of many hours
    /// (exact labels up to 20 empties) can then be stopped and resumed within. Each batch starts
    /// with fresh search tables, so the batch size is part of what decides the labels (and the
    /// run's checkpoint). 0 (the default): the whole stage at once.
    pub label_batch: usize,
}

impl TrainConfig {
    /// The defaults with a seed: 2000 games, up to 20 random moves, exact at 14 empties,
    /// labelling search 4 moves deep, one game in 10 held back, λ = 4, 60 iterations, one
    /// thread.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(7).seed, 7);
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> TrainConfig {
        TrainConfig {
            seed,
            games: 2000,
            random_moves: 20,
            solve_empties: 14,
            label_depth: 4,
            validation_every: 10,
            lambda: 4.0,
            iterations: 60,
            threads: 1,
            label_cuts: None,
            solve_weights: None,
            label_batch: 0,
        }
    }

    /// Sets the number of games.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(1).with_games(5).games, 5);
    /// ```
    #[must_use]
    pub fn with_games(mut self, games: usize) -> TrainConfig {
        self.games = games;
        self
    }

    /// Sets the exact-solve threshold (clamped to 0..=20).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(1).with_solve_empties(10).solve_empties, 10);
    /// ```
    #[must_use]
    pub fn with_solve_empties(mut self, e: u32) -> TrainConfig {
        self.solve_empties = e.min(20);
        self
    }

    /// Sets the labelling depth (at least 4, at most 10).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(1).with_label_depth(2).label_depth, 4);
    /// ```
    #[must_use]
    pub fn with_label_depth(mut self, d: u32) -> TrainConfig {
        self.label_depth = d.clamp(4, 10);
        self
    }

    /// Sets the number of labelling threads (at least 1).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(1).with_threads(0).threads, 1);
    /// ```
    #[must_use]
    pub fn with_threads(mut self, t: usize) -> TrainConfig {
        self.threads = t.max(1);
        self
    }

    /// Sets the Multi-ProbCut parameters of the labelling search (`None`: full width). The
    /// weights being trained have no cuts of their own yet: take those of an earlier weights
    /// file ([`Weights::probcut`]), fitted for a similar evaluation.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::probcut::{Cut, ProbCut};
    /// use reversi_ai::train::TrainConfig;
    /// let pc = ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 });
    /// let c = TrainConfig::new(1).with_label_cuts(Some(pc.clone()));
    /// assert_eq!(c.label_cuts, Some(pc));
    /// ```
    #[must_use]
    pub fn with_label_cuts(mut self, cuts: Option<ProbCut>) -> TrainConfig {
        self.label_cuts = cuts;
        self
    }

    /// Sets the weights that order the exact solves' moves ([`TrainConfig::solve_weights`]):
    /// an earlier weights file, for speed alone.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::pattern::Weights;
    /// use reversi_ai::train::TrainConfig;
    /// let c = TrainConfig::new(1).with_solve_weights(Some(Weights::zero()));
    /// assert_eq!(c.solve_weights, Some(Weights::zero()));
    /// ```
    #[must_use]
    pub fn with_solve_weights(mut self, weights: Option<Weights>) -> TrainConfig {
        self.solve_weights = weights;
        self
    }

    /// Sets the positions labelled at a time within a stage ([`TrainConfig::label_batch`]; 0
    /// for the whole stage at once).
    ///
    /// # Examples
    ///
    /// ```
    /// let c = reversi_ai::train::TrainConfig::new(1).with_label_batch(50_000);
    /// assert_eq!(c.label_batch, 50_000);
    /// ```
    #[must_use]
    pub fn with_label_batch(mut self, positions: usize) -> TrainConfig {
        self.label_batch = positions;
        self
    }

    /// Sets the conjugate gradient iterations per stage (at least 1).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::TrainConfig::new(1).with_iterations(9).iterations, 9);
    /// ```
    #[must_use]
    pub fn with_iterations(mut self, n: usize) -> TrainConfig {
        self.iterations = n.max(1);
        self
    }
}

/// The outcome of one stage.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, TrainConfig};
/// let out = train(&TrainConfig::new(1).with_games(4).with_solve_empties(6), |_| {});
/// assert_eq!(out.stages.len(), reversi_ai::pattern::STAGES);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StageReport {
    /// The stage (empties `4*stage..=4*stage+3`).
    pub stage: usize,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub validation: usize,
    /// Of them, labelled by an exact solve.
    pub exact: usize,
    /// Validation mean absolute error of the zero evaluation, in discs.
    pub mae_zero: f64,
    /// Validation mean absolute error of the trained weights, in discs.
    pub mae: f64,
}

/// One held-back position: its empties, its label and the trained prediction (discs).
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, TrainConfig};
/// let out = train(&TrainConfig::new(1).with_games(10).with_solve_empties(6), |_| {});
/// assert!(out.validation.iter().all(|v| v.empties <= 60));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Validation {
    /// Empty squares.
    pub empties: u32,
    /// The label (exact score when `exact`).
    pub label: f32,
    /// What the trained evaluation says.
    pub predicted: f32,
    /// Whether the label is an exact solve.
    pub exact: bool,
}

impl Validation {
    /// A held-back position's record, as [`TrainOutput::validation`] lists them (for a plot
    /// drawn again from a saved file).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::train::Validation;
    /// let v = Validation::new(20, 4.0, 3.5, false);
    /// assert_eq!((v.empties, v.label, v.predicted, v.exact), (20, 4.0, 3.5, false));
    /// ```
    #[must_use]
    pub fn new(empties: u32, label: f32, predicted: f32, exact: bool) -> Validation {
        Validation {
            empties,
            label,
            predicted,
            exact,
        }
    }
}

/// What a training run gives.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, TrainConfig};
/// let out = train(&TrainConfig::new(3).with_games(4).with_solve_empties(6), |_| {});
/// let bytes = out.weights.to_bytes();
/// assert!(reversi_ai::pattern::Weights::from_bytes(&bytes).is_ok());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TrainOutput {
    /// The trained weights.
    pub weights: Weights,
    /// One report per stage, stage 0 first.
    pub stages: Vec<StageReport>,
    /// The held-back positions with their predictions.
    pub validation: Vec<Validation>,
}

/// Where a training run stands after a stage: what [`train_from`] needs to go on with the next
/// stage, in another process if need be ([`TrainState::to_bytes`], [`TrainState::from_bytes`]).
/// A run of many hours can so be stopped after any stage and resumed, with the same result.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train_from, TrainConfig, TrainState};
/// let cfg = TrainConfig::new(2).with_games(4).with_solve_empties(6);
/// let mut saved = Vec::new();
/// train_from(&cfg, None, None, |_, state: &TrainState| {
///     if state.stages.len() == 3 {
///         saved = state.to_bytes();
///     }
/// })
/// .unwrap();
/// assert_eq!(TrainState::from_bytes(&saved).unwrap().stages.len(), 3);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TrainState {
    /// A hash of what decides the result (the configuration but its threads, and the
    /// player's weights): a run resumes only a state of the same.
    pub fingerprint: u64,
    /// The weights of the stages done (the others zero).
    pub weights: Weights,
    /// The last stage's fitted weights before rounding, the prior of the next stage's fit.
    prior: Vec<f64>,
    /// One report per stage done, stage 0 first.
    pub stages: Vec<StageReport>,
    /// The held-back positions of the stages done, with their predictions.
    pub validation: Vec<Validation>,
    /// The labels of the next stage's first positions, when the run stopped within it
    /// ([`TrainConfig::label_batch`]): (label in discs, exact).
    labelled: Vec<(f32, bool)>,
}

/// Why bytes are not a [`TrainState`], or not one that a run can resume.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{TrainState, TrainStateError};
/// assert!(matches!(TrainState::from_bytes(b"RVTS"), Err(TrainStateError::Truncated)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrainStateError {
    /// The bytes end before the state does.
    #[error("the training state is truncated")]
    Truncated,
    /// The bytes go on after the state's end.
    #[error("the training state has {extra} bytes after its end")]
    TrailingBytes {
        /// Bytes in excess.
        extra: usize,
    },
    /// The bytes do not start with the magic `RVTS`.
    #[error("not a training state (magic {found:?}, expected \"RVTS\")")]
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A format version this library does not read.
    #[error("training state version {found} (this library reads versions 1 to {expected})")]
    Version {
        /// Version found.
        found: u32,
        /// The newest version this library reads (it reads every one from 1).
        expected: u32,
    },
    /// The weights inside are not a valid weights file.
    #[error("the training state's weights: {0}")]
    Weights(#[from] crate::pattern::WeightsError),
    /// Counts that do not fit together (more stages than there are, a prior of the wrong
    /// length, a report out of order).
    #[error("the training state is inconsistent: {0}")]
    Inconsistent(&'static str),
    /// The state was made by another configuration or player than the run's.
    #[error(
        "the training state was made with other settings (fingerprint {found:#018x}, \
         this run's is {expected:#018x})"
    )]
    Fingerprint {
        /// The state's fingerprint.
        found: u64,
        /// The run's.
        expected: u64,
    },
}

const STATE_MAGIC: &[u8; 4] = b"RVTS";
/// Version 2 adds the labels of a stage begun ([`TrainState::labelled`]); version 1 is still
/// read.
const STATE_VERSION: u32 = 2;

/// Reads little-endian values off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], TrainStateError> {
        if self.0.len() < n {
            return Err(TrainStateError::Truncated);
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, TrainStateError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, TrainStateError> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn f64(&mut self) -> Result<f64, TrainStateError> {
        self.u64().map(f64::from_bits)
    }
    fn f32(&mut self) -> Result<f32, TrainStateError> {
        self.u32().map(f32::from_bits)
    }
    /// A count of items of `size` bytes each, checked against the bytes left (so that a
    /// corrupt count cannot ask for a huge allocation).
    fn count(&mut self, size: usize) -> Result<usize, TrainStateError> {
        let n = self.u64()?;
        match usize::try_from(n) {
            Ok(n) if n.checked_mul(size).is_some_and(|b| b <= self.0.len()) => Ok(n),
            _ => Err(TrainStateError::Truncated),
        }
    }
}

impl TrainState {
    /// The state before the first stage.
    fn start(fingerprint: u64) -> TrainState {
        TrainState {
            fingerprint,
            weights: Weights::zero(),
            prior: vec![0.0; PER_STAGE],
            stages: Vec::new(),
            validation: Vec::new(),
            labelled: Vec::new(),
        }
    }

    /// How many of the next stage's positions are labelled already (a run stopped within a
    /// stage, [`TrainConfig::label_batch`]); 0 at a stage's start.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::train::{train_from, Progress, TrainConfig};
    /// let cfg = TrainConfig::new(3).with_games(4).with_solve_empties(6).with_label_batch(10);
    /// let mut within = Vec::new();
    /// train_from(&cfg, None, None, |p, s| {
    ///     if let Progress::Labelled { done, .. } = p {
    ///         within.push((done, s.labelled()));
    ///     }
    /// })
    /// .unwrap();
    /// assert!(!within.is_empty());
    /// assert!(within.iter().all(|&(done, labelled)| done == labelled && done % 10 == 0));
    /// ```
    #[must_use]
    pub fn labelled(&self) -> usize {
        self.labelled.len()
    }

    /// The state as bytes (magic `RVTS`, version, fingerprint, the weights file, the prior,
    /// the reports, the held-back positions, the labels of the stage begun; little-endian).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::train::{train_from, TrainConfig, TrainState};
    /// let cfg = TrainConfig::new(2).with_games(3).with_solve_empties(6);
    /// let mut last = None;
    /// train_from(&cfg, None, None, |_, s: &TrainState| last = Some(s.clone())).unwrap();
    /// let state = last.unwrap();
    /// assert_eq!(TrainState::from_bytes(&state.to_bytes()), Ok(state));
    /// ```
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(STATE_MAGIC);
        out.extend_from_slice(&STATE_VERSION.to_le_bytes());
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        let w = self.weights.to_bytes();
        out.extend_from_slice(&(w.len() as u64).to_le_bytes());
        out.extend_from_slice(&w);
        out.extend_from_slice(&(self.prior.len() as u64).to_le_bytes());
        for x in &self.prior {
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        out.extend_from_slice(&(self.stages.len() as u64).to_le_bytes());
        for r in &self.stages {
            for n in [r.stage, r.train, r.validation, r.exact] {
                out.extend_from_slice(&(n as u64).to_le_bytes());
            }
            out.extend_from_slice(&r.mae_zero.to_bits().to_le_bytes());
            out.extend_from_slice(&r.mae.to_bits().to_le_bytes());
        }
        out.extend_from_slice(&(self.validation.len() as u64).to_le_bytes());
        for v in &self.validation {
            out.extend_from_slice(&v.empties.to_le_bytes());
            out.extend_from_slice(&v.label.to_bits().to_le_bytes());
            out.extend_from_slice(&v.predicted.to_bits().to_le_bytes());
            out.push(u8::from(v.exact));
        }
        out.extend_from_slice(&(self.labelled.len() as u64).to_le_bytes());
        for &(y, exact) in &self.labelled {
            out.extend_from_slice(&y.to_bits().to_le_bytes());
            out.push(u8::from(exact));
        }
        out
    }

    /// Reads a state written by [`TrainState::to_bytes`], checking every part.
    ///
    /// # Errors
    ///
    /// [`TrainStateError`] saying what is wrong; no bytes make it panic.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::train::{TrainState, TrainStateError};
    /// let e = TrainState::from_bytes(b"RVPW\x01\0\0\0").unwrap_err();
    /// assert_eq!(e, TrainStateError::BadMagic { found: *b"RVPW" });
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<TrainState, TrainStateError> {
        let mut r = Reader(bytes);
        let magic = r.take(4)?;
        if magic != STATE_MAGIC {
            return Err(TrainStateError::BadMagic {
                found: [magic[0], magic[1], magic[2], magic[3]],
            });
        }
        let version = r.u32()?;
        if version != STATE_VERSION && version != 1 {
            return Err(TrainStateError::Version {
                found: version,
                expected: STATE_VERSION,
            });
        }
        let fingerprint = r.u64()?;
        let n = r.count(1)?;
        let weights = Weights::from_bytes(r.take(n)?)?;
        let n = r.count(8)?;
        if n != PER_STAGE {
            return Err(TrainStateError::Inconsistent("the prior's length"));
        }
        let prior = (0..n).map(|_| r.f64()).collect::<Result<Vec<_>, _>>()?;
        let n = r.count(48)?;
        if n > STAGES {
            return Err(TrainStateError::Inconsistent("more stages than there are"));
        }
        let mut stages = Vec::with_capacity(n);
        for i in 0..n {
            let mut field = || -> Result<usize, TrainStateError> {
                usize::try_from(r.u64()?).map_err(|_| TrainStateError::Inconsistent("a count"))
            };
            let (stage, train, validation, exact) = (field()?, field()?, field()?, field()?);
            if stage != i || exact > train + validation {
                return Err(TrainStateError::Inconsistent("a stage's report"));
            }
            stages.push(StageReport {
                stage,
                train,
                validation,
                exact,
                mae_zero: r.f64()?,
                mae: r.f64()?,
            });
        }
        let n = r.count(13)?;
        let mut validation = Vec::with_capacity(n);
        for _ in 0..n {
            let empties = r.u32()?;
            let (label, predicted) = (r.f32()?, r.f32()?);
            let exact = match r.take(1)?[0] {
                0 => false,
                1 => true,
                _ => return Err(TrainStateError::Inconsistent("a held-back position's flag")),
            };
            if empties > 60 {
                return Err(TrainStateError::Inconsistent(
                    "a held-back position's empties",
                ));
            }
            validation.push(Validation::new(empties, label, predicted, exact));
        }
        let mut labelled = Vec::new();
        if version >= 2 {
            let n = r.count(5)?;
            if n > 0 && stages.len() == STAGES {
                return Err(TrainStateError::Inconsistent("labels after the last stage"));
            }
            labelled.reserve(n);
            for _ in 0..n {
                let y = r.f32()?;
                let exact = match r.take(1)?[0] {
                    0 => false,
                    1 => true,
                    _ => return Err(TrainStateError::Inconsistent("a label's flag")),
                };
                if !y.is_finite() {
                    return Err(TrainStateError::Inconsistent(
                        "a label that is not a number",
                    ));
                }
                labelled.push((y, exact));
            }
        }
        if !r.0.is_empty() {
            return Err(TrainStateError::TrailingBytes { extra: r.0.len() });
        }
        Ok(TrainState {
            fingerprint,
            weights,
            prior,
            stages,
            validation,
            labelled,
        })
    }
}

/// The fingerprint of a run: everything that decides its result.
fn fingerprint(cfg: &TrainConfig, player: Option<&Weights>) -> u64 {
    let mut b = Vec::new();
    for n in [
        cfg.seed,
        cfg.games as u64,
        u64::from(cfg.random_moves),
        u64::from(cfg.solve_empties),
        u64::from(cfg.label_depth),
        cfg.validation_every as u64,
        cfg.lambda.to_bits(),
        cfg.iterations as u64,
    ] {
        b.extend_from_slice(&n.to_le_bytes());
    }
    // Batches change the labels (fresh tables for each); a run without them keeps the
    // fingerprint that it had before they existed.
    if cfg.label_batch > 0 {
        b.extend_from_slice(b"batch");
        b.extend_from_slice(&(cfg.label_batch as u64).to_le_bytes());
    }
    if let Some(cuts) = &cfg.label_cuts {
        b.extend_from_slice(b"cuts");
        b.extend_from_slice(&cuts.to_bytes());
    }
    if let Some(w) = player {
        b.extend_from_slice(b"player");
        b.extend_from_slice(&w.to_bytes());
    }
    pattern::fnv1a(&b)
}

/// A position of a game, with where it comes from.
#[derive(Clone, Copy)]
struct Pos {
    p: u64,
    o: u64,
    valid: bool,
}

/// Plays the games of the configuration: every position reached, mover-relative. The moves
/// that are not random are a two-ply search on `player`'s evaluation, on Hard's without one.
fn play_games(cfg: &TrainConfig, player: Option<&Weights>) -> Vec<Pos> {
    let mut rng = Rng::new(cfg.seed);
    let mut out = Vec::new();
    for g in 0..cfg.games {
        let valid = cfg.validation_every > 0 && g % cfg.validation_every == 0;
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let randoms = rng.below(u64::from(cfg.random_moves) + 1) as u32;
        let mut ply = 0;
        loop {
            let moves = legal(p, o);
            if moves == 0 {
                if legal(o, p) == 0 {
                    break;
                }
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            out.push(Pos { p, o, valid });
            let sq = if ply < randoms || rng.below(10) == 0 {
                nth_bit(moves, rng.below(u64::from(moves.count_ones())) as u32)
            } else {
                match player {
                    Some(w) => best_two_ply(p, o, moves, &mut rng, |a, b| w.eval(a, b)),
                    None => best_two_ply(p, o, moves, &mut rng, eval::hard),
                }
            };
            let f = flips(p, o, sq);
            let np = o ^ f;
            o = p ^ f ^ (1 << sq);
            p = np;
            ply += 1;
        }
    }
    out
}

fn nth_bit(mut b: u64, n: u32) -> u32 {
    for _ in 0..n {
        b &= b - 1;
    }
    b.trailing_zeros()
}

/// The move with the best two-ply value on `eval` (the mover's score; ties at random).
fn best_two_ply(p: u64, o: u64, moves: u64, rng: &mut Rng, eval: impl Fn(u64, u64) -> i32) -> u32 {
    let mut best = i32::MIN;
    let mut ties = Vec::new();
    let mut mm = moves;
    while mm != 0 {
        let s = mm.trailing_zeros();
        mm &= mm - 1;
        let f = flips(p, o, s);
        let (np, no) = (o ^ f, p ^ f ^ (1 << s));
        // The reply that is best for the opponent.
        let mut worst = i32::MAX;
        let mut rm = legal(np, no);
        if rm == 0 {
            worst = eval(no, np);
        }
        while rm != 0 {
            let r = rm.trailing_zeros();
            rm &= rm - 1;
            let g = flips(np, no, r);
            worst = worst.min(eval(no ^ g, np ^ g ^ (1 << r)));
        }
        if worst > best {
            best = worst;
            ties.clear();
        }
        if worst == best {
            ties.push(s);
        }
    }
    ties[rng.below(ties.len() as u64) as usize]
}

/// Final disc difference of a finished game, in evaluation units.
fn terminal(p: u64, o: u64) -> i32 {
    (p.count_ones() as i32 - o.count_ones() as i32) * UNITS_PER_DISC
}

/// Labels of `pos` in discs (and whether exact), using the stages of `w` already trained.
fn label_all(cfg: &TrainConfig, w: &Weights, pos: &[Pos]) -> Vec<(f32, bool)> {
    par_map(
        pos,
        cfg.threads,
        || search_state(16, 18),
        |(mid, end, stop), x| {
            let empties = (!(x.p | x.o)).count_ones();
            if legal(x.p, x.o) == 0 && legal(x.o, x.p) == 0 {
                (terminal(x.p, x.o) as f32 / UNITS_PER_DISC as f32, true)
            } else if empties <= cfg.solve_empties {
                end.new_search();
                let mut s = Search::new(mid, end, stop, None, None);
                // Ordered by the solve weights when given: the same score, sooner.
                s.weights = cfg.solve_weights.as_ref();
                let (score, _) = exact_root(&mut s, x.p, x.o, -64, 64);
                (score as f32, true)
            } else {
                let mut s = Search::new(mid, end, stop, None, None);
                s.weights = Some(w);
                s.probcut = cfg.label_cuts.as_ref();
                let v = s.trained_score(x.p, x.o, cfg.label_depth);
                (v as f32 / UNITS_PER_DISC as f32, false)
            }
        },
    )
}

/// One training sample: feature indices, mobility difference and label.
struct Row {
    f: [u32; INSTANCES],
    mob: f32,
    y: f64,
}

/// A training row: the position's features as the indices of their tied weights
/// ([`pattern::tied_index`]), so that the fit has one weight for each tied pair.
fn row(p: u64, o: u64, y: f64) -> Row {
    let d = pattern::dense(p, o);
    Row {
        f: pattern::features(p, o).map(|i| pattern::tied_index(i as usize) as u32),
        mob: d[0].1,
        y,
    }
}

const MOB: usize = PER_STAGE - 2;
const BIAS: usize = PER_STAGE - 1;

fn predict(r: &Row, w: &[f64]) -> f64 {
    let mut s = w[BIAS] + w[MOB] * f64::from(r.mob);
    for &i in &r.f {
        s += w[i as usize];
    }
    s
}

/// `out = Xᵀ X v + λ v`.
fn normal_mul(rows: &[Row], v: &[f64], lambda: f64, out: &mut [f64]) {
    for (o, &x) in out.iter_mut().zip(v) {
        *o = lambda * x;
    }
    for r in rows {
        let s = predict(r, v);
        out[BIAS] += s;
        out[MOB] += s * f64::from(r.mob);
        for &i in &r.f {
            out[i as usize] += s;
        }
    }
}

/// Ridge fit of `delta` (weights minus `prior`) by preconditioned conjugate gradients.
fn fit(rows: &[Row], prior: &[f64], lambda: f64, iterations: usize) -> Vec<f64> {
    let n = PER_STAGE;
    // Right-hand side: Xᵀ (y - X prior); diagonal preconditioner.
    let mut b = vec![0.0; n];
    let mut diag = vec![lambda; n];
    for r in rows {
        let res = r.y - predict(r, prior);
        b[BIAS] += res;
        b[MOB] += res * f64::from(r.mob);
        diag[BIAS] += 1.0;
        diag[MOB] += f64::from(r.mob) * f64::from(r.mob);
        for &i in &r.f {
            b[i as usize] += res;
            diag[i as usize] += 1.0;
        }
    }
    let mut x = vec![0.0; n];
    let mut res = b;
    let mut z: Vec<f64> = res.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut dir = z.clone();
    let mut rz: f64 = res.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut ad = vec![0.0; n];
    for _ in 0..iterations {
        if rz <= 1e-12 {
            break;
        }
        normal_mul(rows, &dir, lambda, &mut ad);
        let dad: f64 = dir.iter().zip(&ad).map(|(a, b)| a * b).sum();
        if dad <= 0.0 {
            break;
        }
        let alpha = rz / dad;
        for i in 0..n {
            x[i] += alpha * dir[i];
            res[i] -= alpha * ad[i];
        }
        for i in 0..n {
            z[i] = res[i] / diag[i];
        }
        let rz_new: f64 = res.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..n {
            dir[i] = z[i] + beta * dir[i];
        }
    }
    x.iter().zip(prior).map(|(d, p)| d + p).collect()
}

/// What [`train_from`] reports as it goes, with the state to save.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train_from, Progress, TrainConfig};
/// let cfg = TrainConfig::new(1).with_games(4).with_solve_empties(6);
/// let mut stages = 0;
/// train_from(&cfg, None, None, |p, _| {
///     if let Progress::Stage(r) = p {
///         stages = r.stage + 1;
///     }
/// })
/// .unwrap();
/// assert_eq!(stages, reversi_ai::pattern::STAGES);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// A stage is fitted.
    Stage(&'a StageReport),
    /// A batch of a stage's positions is labelled ([`TrainConfig::label_batch`]) and more
    /// remain.
    Labelled {
        /// The stage being labelled.
        stage: usize,
        /// Its positions labelled so far.
        done: usize,
        /// Its positions.
        positions: usize,
    },
}

/// Runs a training: plays the games, labels and fits stage after stage from the end, and
/// calls `progress` after each stage.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, TrainConfig};
/// let mut seen = 0;
/// let out = train(&TrainConfig::new(1).with_games(6).with_solve_empties(8), |r| seen = r.stage + 1);
/// assert_eq!(seen, reversi_ai::pattern::STAGES);
/// assert_eq!(out.stages[0].stage, 0);
/// ```
pub fn train(cfg: &TrainConfig, progress: impl FnMut(&StageReport)) -> TrainOutput {
    train_played_by(cfg, None, progress)
}

/// [`train`] on games whose moves (those not random) are a two-ply search on `player`'s
/// evaluation instead of Hard's: the positions of a bootstrapped round are those that a
/// trained evaluation reaches. `player` of `None` is [`train`].
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, train_played_by, TrainConfig};
/// let cfg = TrainConfig::new(1).with_games(4).with_solve_empties(6);
/// let first = train(&cfg, |_| {});
/// let second = train_played_by(&cfg, Some(&first.weights), |_| {});
/// assert_eq!(second.stages.len(), reversi_ai::pattern::STAGES);
/// ```
pub fn train_played_by(
    cfg: &TrainConfig,
    player: Option<&Weights>,
    mut progress: impl FnMut(&StageReport),
) -> TrainOutput {
    let report = |p: Progress<'_>, _: &TrainState| {
        if let Progress::Stage(r) = p {
            progress(r);
        }
    };
    match train_from(cfg, player, None, report) {
        Ok(out) => out,
        // A run from the start has no state to disagree with.
        Err(e) => unreachable!("a run from the start failed: {e}"),
    }
}

/// [`train_played_by`], going on from `state` (the state after some stages of a run with the
/// same configuration and player, maybe some batches into the next,
/// [`TrainConfig::label_batch`]) or from the start, and giving `progress` the state after each
/// stage and each batch of labels, to be saved ([`TrainState::to_bytes`]). The games are played
/// again (they depend only on the configuration); the stages and batches done are not. A run
/// resumed after any of them ends with the same weights, reports and held-back positions as one
/// not stopped.
///
/// # Errors
///
/// [`TrainStateError::Fingerprint`] when `state` comes from another configuration or player;
/// [`TrainStateError::Inconsistent`] when it holds more labels than its next stage has
/// positions.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::{train, train_from, TrainConfig, TrainState};
/// let cfg = TrainConfig::new(4).with_games(4).with_solve_empties(6);
/// let mut after_five = None;
/// let whole = train_from(&cfg, None, None, |_, s: &TrainState| {
///     if s.stages.len() == 5 {
///         after_five = Some(s.clone());
///     }
/// })
/// .unwrap();
/// let resumed = train_from(&cfg, None, after_five.clone(), |_, _| {}).unwrap();
/// assert_eq!(resumed.weights, whole.weights);
/// assert_eq!(resumed.validation, whole.validation);
/// // A run with another seed does not take that state.
/// let other = TrainConfig::new(5).with_games(4).with_solve_empties(6);
/// assert!(train_from(&other, None, after_five, |_, _| {}).is_err());
/// ```
pub fn train_from(
    cfg: &TrainConfig,
    player: Option<&Weights>,
    state: Option<TrainState>,
    mut progress: impl FnMut(Progress<'_>, &TrainState),
) -> Result<TrainOutput, TrainStateError> {
    let expected = fingerprint(cfg, player);
    let mut st = match state {
        Some(s) if s.fingerprint != expected => {
            return Err(TrainStateError::Fingerprint {
                found: s.fingerprint,
                expected,
            })
        }
        Some(s) => s,
        None => TrainState::start(expected),
    };
    let positions = play_games(cfg, player);
    let mut by_stage: Vec<Vec<Pos>> = vec![Vec::new(); STAGES];
    for x in positions {
        by_stage[pattern::stage((!(x.p | x.o)).count_ones())].push(x);
    }
    for (s, pos) in by_stage.iter().enumerate().skip(st.stages.len()) {
        if st.labelled.len() > pos.len() {
            return Err(TrainStateError::Inconsistent(
                "more labels than the stage has positions",
            ));
        }
        let batch = if cfg.label_batch == 0 {
            pos.len()
        } else {
            cfg.label_batch
        };
        while st.labelled.len() < pos.len() {
            let from = st.labelled.len();
            let to = (from + batch).min(pos.len());
            let more = label_all(cfg, &st.weights, &pos[from..to]);
            st.labelled.extend(more);
            if to < pos.len() {
                let at = Progress::Labelled {
                    stage: s,
                    done: to,
                    positions: pos.len(),
                };
                progress(at, &st);
            }
        }
        let labels = std::mem::take(&mut st.labelled);
        let mut train_rows = Vec::new();
        let mut valid = Vec::new();
        let mut exact = 0;
        for (x, &(y, ex)) in pos.iter().zip(&labels) {
            exact += usize::from(ex);
            if x.valid {
                valid.push((x, y, ex));
            } else {
                train_rows.push(row(x.p, x.o, f64::from(y)));
            }
        }
        let mut fitted = if train_rows.is_empty() {
            st.prior.clone()
        } else {
            fit(&train_rows, &st.prior, cfg.lambda, cfg.iterations)
        };
        // The fit saw only the first index of each tied pair; its twin gets the same weight.
        for i in 0..PER_STAGE {
            fitted[i] = fitted[pattern::tied_index(i)];
        }
        let discs: Vec<f32> = fitted.iter().map(|&v| v as f32).collect();
        st.weights.set_stage(s, &discs);
        st.prior = fitted;
        let (mut e0, mut e1) = (0.0, 0.0);
        for &(x, y, ex) in &valid {
            let pred = st.weights.eval(x.p, x.o) as f32 / UNITS_PER_DISC as f32;
            e0 += f64::from(y.abs());
            e1 += f64::from((pred - y).abs());
            st.validation.push(Validation {
                empties: (!(x.p | x.o)).count_ones(),
                label: y,
                predicted: pred,
                exact: ex,
            });
        }
        let nv = valid.len().max(1) as f64;
        let report = StageReport {
            stage: s,
            train: train_rows.len(),
            validation: valid.len(),
            exact,
            mae_zero: e0 / nv,
            mae: e1 / nv,
        };
        st.stages.push(report);
        progress(Progress::Stage(&st.stages[s]), &st);
    }
    Ok(TrainOutput {
        weights: st.weights,
        stages: st.stages,
        validation: st.validation,
    })
}

/// What a row of [`check_weights`] measures the evaluation against.
///
/// # Examples
///
/// ```
/// use reversi_ai::train::Reference;
/// assert_ne!(Reference::Exact, Reference::Search(10));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The exact final disc difference (a solve).
    Exact,
    /// A full-width search this many plies deep on the weights themselves.
    Search(u32),
}

/// One row of [`check_weights`]: held-back positions with `empties.0..=empties.1` empty
/// squares, and how far the evaluation is from the reference scores, in discs.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_ai::train::{check_weights, TrainConfig};
/// let rows = check_weights(&Weights::zero(), &TrainConfig::new(1).with_games(20), 2, 17, 2);
/// assert_eq!(rows[0].empties, (16, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CheckRow {
    /// The empties of the row's positions (lowest, highest).
    pub empties: (u32, u32),
    /// Positions measured.
    pub positions: usize,
    /// What the evaluation is compared with.
    pub reference: Reference,
    /// Mean absolute error of the evaluation against the reference, in discs.
    pub mae: f64,
    /// Mean absolute reference score, in discs (the error of an evaluation that says 0).
    pub mae_zero: f64,
}

/// A search's tables (midgame and endgame, `2^mid` and `2^end` entries) and stop flag, one
/// set for each thread of [`par_map`].
fn search_state(mid: u32, end: u32) -> (TransTable, TransTable, AtomicBool) {
    (
        TransTable::new(mid),
        TransTable::new(end),
        AtomicBool::new(false),
    )
}

/// Runs `f` on every item on `threads` threads (each with its own state from `init`), the
/// results in the items' order.
fn par_map<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let (init, f) = (&init, &f);
                scope.spawn(move || {
                    let mut state = init();
                    part.iter().map(|x| f(&mut state, x)).collect::<Vec<R>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// Measures weights on the held-back games of a training configuration (the games that
/// [`train`] with `cfg` plays and keeps out of the fit: the same seed, games and
/// `validation_every`): up to `per_row` positions of each number of empties from 16 to
/// `exact_max` (at most 30) against their exact scores, then of each group of four empties
/// above against a full-width search `depth` plies deep on the weights. Positions are taken
/// evenly over the held-back games; `cfg.threads` threads.
///
/// This is the validation that the training's own report cannot give above
/// [`TrainConfig::solve_empties`], where its labels are searches: it says how far the
/// evaluation is from the true score.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_ai::train::{check_weights, Reference, TrainConfig};
/// let rows = check_weights(&Weights::zero(), &TrainConfig::new(1).with_games(20), 3, 18, 2);
/// assert_eq!(rows[..3].iter().map(|r| r.empties.0).collect::<Vec<_>>(), [16, 17, 18]);
/// assert!(rows[..3].iter().all(|r| r.reference == Reference::Exact));
/// assert_eq!(rows[3].reference, Reference::Search(2));
/// // The zero evaluation's error is the mean absolute score.
/// assert!(rows.iter().all(|r| (r.mae - r.mae_zero).abs() < 1e-9));
/// ```
#[must_use]
pub fn check_weights(
    w: &Weights,
    cfg: &TrainConfig,
    per_row: usize,
    exact_max: u32,
    depth: u32,
) -> Vec<CheckRow> {
    let exact_max = exact_max.min(30);
    let held: Vec<Pos> = play_games(cfg, None)
        .into_iter()
        .filter(|x| x.valid)
        .collect();
    let mut rows: Vec<((u32, u32), Reference)> = (16..=exact_max)
        .map(|e| ((e, e), Reference::Exact))
        .collect();
    let mut e = exact_max.max(15) + 1;
    while e <= 60 {
        rows.push(((e, (e + 3).min(60)), Reference::Search(depth)));
        e += 4;
    }
    let mut jobs: Vec<(usize, Pos)> = Vec::new();
    for (i, &((lo, hi), _)) in rows.iter().enumerate() {
        let live = |x: &&Pos| legal(x.p, x.o) != 0 || legal(x.o, x.p) != 0;
        let of_row: Vec<Pos> = held
            .iter()
            .filter(|x| (lo..=hi).contains(&(!(x.p | x.o)).count_ones()))
            .filter(live)
            .copied()
            .collect();
        let step = (of_row.len() / per_row.max(1)).max(1);
        jobs.extend(
            of_row
                .into_iter()
                .step_by(step)
                .take(per_row)
                .map(|x| (i, x)),
        );
    }
    let scores = par_map(
        &jobs,
        cfg.threads,
        || search_state(16, 20),
        |(mid, end, stop), &(i, x)| {
            mid.clear();
            end.new_search();
            let mut s = Search::new(mid, end, stop, None, None);
            s.weights = Some(w);
            let reference = match rows[i].1 {
                Reference::Exact => exact_root(&mut s, x.p, x.o, -64, 64).0 as f64,
                Reference::Search(d) => {
                    f64::from(s.trained_score(x.p, x.o, d)) / f64::from(UNITS_PER_DISC)
                }
            };
            (
                reference,
                f64::from(w.eval(x.p, x.o)) / f64::from(UNITS_PER_DISC),
            )
        },
    );
    rows.iter()
        .enumerate()
        .map(|(i, &(empties, reference))| {
            let mine: Vec<(f64, f64)> = jobs
                .iter()
                .zip(&scores)
                .filter(|((r, _), _)| *r == i)
                .map(|(_, &s)| s)
                .collect();
            let n = mine.len().max(1) as f64;
            CheckRow {
                empties,
                positions: mine.len(),
                reference,
                mae: mine.iter().map(|(r, e)| (r - e).abs()).sum::<f64>() / n,
                mae_zero: mine.iter().map(|(r, _)| r.abs()).sum::<f64>() / n,
            }
        })
        .collect()
}

/// The settings of [`fit_probcut`].
///
/// # Examples
///
/// ```
/// let c = reversi_ai::train::ProbCutConfig::new(3);
/// assert_eq!(c.seed, 3);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ProbCutConfig {
    /// Seed of the games the positions come from.
    pub seed: u64,
    /// Positions measured.
    pub positions: usize,
    /// The deepest search measured (every depth from 0 up is searched).
    pub max_depth: u32,
    /// Positions have at least this many empty squares.
    pub min_empties: u32,
    /// Threads.
    pub threads: usize,
}

impl ProbCutConfig {
    /// The defaults with a seed: 2000 positions of 14 to 60 empties, searched up to 10 plies,
    /// one thread.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::ProbCutConfig::new(1).max_depth, 10);
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> ProbCutConfig {
        ProbCutConfig {
            seed,
            positions: 2000,
            max_depth: 10,
            min_empties: 14,
            threads: 1,
        }
    }
}

/// Measures the trained search (full width) on positions of games played as for training
/// (see the module's documentation), every depth from 0 to [`ProbCutConfig::max_depth`], and
/// fits the Multi-ProbCut parameters on the pairs (deep, shallow) ([`ProbCut::fit`]). Returns
/// them with the samples, or `None` when too few positions were measured.
///
/// [`ProbCut::fit`]: crate::probcut::ProbCut::fit
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_ai::train::{fit_probcut, ProbCutConfig};
/// let mut c = ProbCutConfig::new(1);
/// c.positions = 200; // spread over the stages: at least 30 a stage for a fit
/// c.max_depth = 4;
/// let (pc, samples) = fit_probcut(&Weights::zero(), &c).unwrap();
/// assert_eq!(samples.len(), 200 * 2);
/// assert!(pc.cut(40, 4).sigma >= 0.0);
/// ```
#[must_use]
pub fn fit_probcut(
    w: &Weights,
    cfg: &ProbCutConfig,
) -> Option<(crate::probcut::ProbCut, Vec<crate::probcut::Sample>)> {
    use crate::probcut::{shallow_depth, Sample, MIN_DEPTH};
    let mut tc = TrainConfig::new(cfg.seed);
    tc.validation_every = 0;
    let mut positions: Vec<(u64, u64)> = Vec::new();
    let mut games = 64;
    while positions.len() < cfg.positions && games <= 1 << 20 {
        tc.games = games;
        positions = play_games(&tc, None)
            .into_iter()
            .filter(|x| (!(x.p | x.o)).count_ones() >= cfg.min_empties)
            .map(|x| (x.p, x.o))
            .collect();
        games *= 2;
    }
    // Evenly spread over the games (consecutive positions of a game are alike).
    let step = (positions.len() / cfg.positions.max(1)).max(1);
    let chosen: Vec<(u64, u64)> = positions
        .into_iter()
        .step_by(step)
        .take(cfg.positions)
        .collect();
    let samples: Vec<Sample> = par_map(
        &chosen,
        cfg.threads,
        || search_state(18, 4),
        |(tt, end, stop), &(p, o)| {
            tt.clear();
            let mut s = Search::new(tt, end, stop, None, None);
            s.weights = Some(w);
            let v: Vec<f32> = (0..=cfg.max_depth)
                .map(|d| s.trained_score(p, o, d) as f32 / UNITS_PER_DISC as f32)
                .collect();
            let empties = (!(p | o)).count_ones();
            (MIN_DEPTH..=cfg.max_depth)
                .map(|d| Sample {
                    empties,
                    depth: d,
                    shallow: v[shallow_depth(d) as usize],
                    deep: v[d as usize],
                })
                .collect::<Vec<_>>()
        },
    )
    .into_iter()
    .flatten()
    .collect();
    ProbCut::fit(&samples).map(|pc| (pc, samples))
}

/// The settings of the endgame cuts' fit ([`fit_end_probcut`]).
///
/// # Examples
///
/// ```
/// let c = reversi_ai::train::EndCutConfig::new(1);
/// assert_eq!((c.min_empties, c.max_empties), (12, 22));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EndCutConfig {
    /// Seed of the games the positions come from.
    pub seed: u64,
    /// Positions measured at each number of empty squares.
    pub per_empties: usize,
    /// The fewest empty squares measured.
    pub min_empties: u32,
    /// The most empty squares measured (each position is solved exactly).
    pub max_empties: u32,
    /// Threads.
    pub threads: usize,
}

impl EndCutConfig {
    /// The defaults with a seed: 150 positions at each number of empties from 12 to 22, one
    /// thread.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::EndCutConfig::new(1).per_empties, 150);
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> EndCutConfig {
        EndCutConfig {
            seed,
            per_empties: 150,
            min_empties: 12,
            max_empties: 22,
            threads: 1,
        }
    }
}

/// Measures the endgame's cuts for the weights `w`: positions of games played as for training
/// (see the module's documentation), at each number of empties of the configuration, each
/// solved exactly and searched [`end_shallow_depth`] plies deep by the trained search (full
/// width); returns `w`'s Multi-ProbCut parameters with the endgame cuts fitted on those pairs
/// ([`ProbCut::with_end_fit`]) and the samples, or `None` when `w` has no Multi-ProbCut
/// parameters or too few positions were measured.
///
/// [`end_shallow_depth`]: crate::probcut::end_shallow_depth
/// [`ProbCut::with_end_fit`]: crate::probcut::ProbCut::with_end_fit
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_ai::probcut::{Cut, ProbCut};
/// use reversi_ai::train::{fit_end_probcut, EndCutConfig};
/// let w = Weights::zero().with_probcut(Some(ProbCut::uniform(Cut { a: 1.0, b: 0.0, sigma: 3.0 })));
/// let mut c = EndCutConfig::new(1);
/// c.per_empties = 30;
/// c.min_empties = 8;
/// c.max_empties = 9;
/// let (pc, samples) = fit_end_probcut(&w, &c).unwrap();
/// assert_eq!(samples.len(), 60);
/// assert!(pc.end(9).is_some());
/// ```
#[must_use]
pub fn fit_end_probcut(
    w: &Weights,
    cfg: &EndCutConfig,
) -> Option<(crate::probcut::ProbCut, Vec<crate::probcut::EndSample>)> {
    use crate::probcut::{end_shallow_depth, EndSample};
    let pc = w.probcut()?.clone();
    let mut tc = TrainConfig::new(cfg.seed);
    tc.validation_every = 0;
    let range = cfg.min_empties..=cfg.max_empties;
    let mut chosen: Vec<(u64, u64)> = Vec::new();
    let mut games = 64;
    while games <= 1 << 20 {
        tc.games = games;
        let positions = play_games(&tc, None);
        // Positions whose mover has a move (a pass has no search of its own); at most one a
        // game and number of empties is kept, since consecutive positions of a game are alike.
        chosen = range
            .clone()
            .flat_map(|e| {
                positions
                    .iter()
                    .filter(move |x| (!(x.p | x.o)).count_ones() == e && legal(x.p, x.o) != 0)
                    .map(|x| (x.p, x.o))
                    .take(cfg.per_empties)
            })
            .collect();
        if chosen.len() >= cfg.per_empties * range.clone().count() {
            break;
        }
        games *= 2;
    }
    let samples: Vec<EndSample> = par_map(
        &chosen,
        cfg.threads,
        || search_state(18, 20),
        |(tt, end, stop), &(p, o)| {
            tt.clear();
            let empties = (!(p | o)).count_ones();
            let mut s = Search::new(tt, end, stop, None, None);
            s.weights = Some(w);
            let exact = s.exact(p, o, -64, 64);
            let shallow = s.trained_score(p, o, end_shallow_depth(empties));
            EndSample {
                empties,
                shallow: shallow as f32 / UNITS_PER_DISC as f32,
                exact: exact as f32,
            }
        },
    );
    pc.with_end_fit(&samples).map(|pc| (pc, samples))
}

/// The settings of [`calibrate`].
///
/// # Examples
///
/// ```
/// let c = reversi_ai::train::CalibrateConfig::new(3);
/// assert_eq!((c.seed, c.depth), (3, 8));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CalibrateConfig {
    /// Seed of the games the positions come from.
    pub seed: u64,
    /// Positions measured in each stage.
    pub positions: usize,
    /// A stage whose positions all have at most this many empty squares is measured against
    /// exact scores.
    pub exact_max: u32,
    /// Each stage above is measured against the mean of two searches on the weights, `depth`
    /// and `depth - 1` plies deep (at least 6, so that the leaves of both are in stages already
    /// calibrated: the last stage holds five numbers of empties, 56 to 60).
    pub depth: u32,
    /// Threads.
    pub threads: usize,
}

impl CalibrateConfig {
    /// The defaults with a seed: 200 positions a stage, exact scores up to 23 empties, searches
    /// of 8 and 7 plies above, one thread.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_ai::train::CalibrateConfig::new(1).positions, 200);
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> CalibrateConfig {
        CalibrateConfig {
            seed,
            positions: 200,
            exact_max: 23,
            depth: 8,
            threads: 1,
        }
    }
}

/// One stage of [`calibrate`].
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::Weights;
/// use reversi_ai::train::{calibrate, CalibrateConfig};
/// let mut c = CalibrateConfig::new(1);
/// c.positions = 3;
/// c.depth = 6;
/// let (_, rows) = calibrate(&Weights::zero(), &c);
/// assert!(rows[0].exact && !rows[14].exact);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CalibrationRow {
    /// The stage (empties `4*stage..=4*stage+3`).
    pub stage: usize,
    /// Positions measured.
    pub positions: usize,
    /// Whether the reference is the exact score (else the mean of the two searches).
    pub exact: bool,
    /// The mean of the evaluation minus the reference before calibration, in discs: the
    /// amount taken off the stage's constant.
    pub shift: f64,
    /// The mean absolute error of the evaluation against the reference after calibration.
    pub mae: f64,
}

/// Calibrates the constant of every stage of `w`, from the end of the game to the start, so
/// that the evaluation's mean over the stage's positions (of games played as for training)
/// is the mean of a reference: the exact score in the stages up to
/// [`CalibrateConfig::exact_max`] empties, above them the mean of a search `depth` plies deep
/// and one `depth - 1` plies deep (full width) on the weights as calibrated so far. Only the
/// constants change; the result carries no Multi-ProbCut parameters, since those of `w` were
/// fitted on the evaluation before (fit them again: [`fit_probcut`], [`fit_end_probcut`]).
///
/// Why: a stage trained on labels of searches of an even depth inherits the offset of the
/// stages at its leaves, whose mover is the same, and adds the search's own (a maximum over
/// noisy values is too high), so the offsets add up towards the opening: weights trained on
/// 8-ply labels say +5.7 discs for the mover at the start. At an odd depth the leaves' mover
/// is the other side and their offset changes sign; the mean of both cancels the inherited
/// part, so offsets no longer add up.
///
/// # Examples
///
/// ```
/// use reversi_ai::pattern::{Weights, PER_STAGE};
/// use reversi_ai::train::{calibrate, CalibrateConfig};
/// // Weights that say +3 discs for the mover everywhere.
/// let mut w = Weights::zero();
/// let mut discs = vec![0.0; PER_STAGE];
/// discs[PER_STAGE - 1] = 3.0;
/// for s in 0..reversi_ai::pattern::STAGES {
///     w.set_stage(s, &discs);
/// }
/// let mut c = CalibrateConfig::new(1);
/// c.positions = 20;
/// c.exact_max = 11;
/// c.depth = 6;
/// let (fixed, rows) = calibrate(&w, &c);
/// // The endgame stages were 3 discs too high on average against exact scores (their mean
/// // score is not 0, so not exactly 3).
/// assert!(rows[0].shift > 0.0 && rows[0].exact);
/// assert_ne!(fixed.stage(0)[PER_STAGE - 1], w.stage(0)[PER_STAGE - 1]);
/// ```
#[must_use]
pub fn calibrate(w: &Weights, cfg: &CalibrateConfig) -> (Weights, Vec<CalibrationRow>) {
    let depth = cfg.depth.max(6);
    let per = cfg.positions.max(1);
    let mut tc = TrainConfig::new(cfg.seed);
    tc.validation_every = 0;
    // Positions whose mover has a move, spread evenly over the games, enough in every stage.
    let mut by_stage: Vec<Vec<Pos>> = vec![Vec::new(); STAGES];
    let mut games = 64;
    while games <= 1 << 20 {
        tc.games = games;
        by_stage = vec![Vec::new(); STAGES];
        for x in play_games(&tc, None) {
            if legal(x.p, x.o) != 0 {
                by_stage[pattern::stage((!(x.p | x.o)).count_ones())].push(x);
            }
        }
        if by_stage.iter().all(|v| v.len() >= per) {
            break;
        }
        games *= 2;
    }
    let mut out = w.clone().with_probcut(None);
    let mut rows = Vec::new();
    for (s, pos) in by_stage.iter().enumerate() {
        let step = (pos.len() / per).max(1);
        let chosen: Vec<Pos> = pos.iter().step_by(step).take(per).copied().collect();
        let exact = 4 * s as u32 + 3 <= cfg.exact_max;
        let current = &out;
        let pairs: Vec<(f64, f64)> = par_map(
            &chosen,
            cfg.threads,
            || search_state(18, 20),
            |(mid, end, stop), x| {
                let mut s = Search::new(mid, end, stop, None, None);
                s.weights = Some(current);
                let reference = if exact {
                    s.exact(x.p, x.o, -64, 64) as f64
                } else {
                    let a = s.trained_score(x.p, x.o, depth);
                    mid.clear();
                    let mut s = Search::new(mid, end, stop, None, None);
                    s.weights = Some(current);
                    let b = s.trained_score(x.p, x.o, depth - 1);
                    mid.clear();
                    f64::from(a + b) / 2.0 / f64::from(UNITS_PER_DISC)
                };
                let e = f64::from(current.eval(x.p, x.o)) / f64::from(UNITS_PER_DISC);
                (e, reference)
            },
        );
        let n = pairs.len().max(1) as f64;
        let shift = pairs.iter().map(|(e, r)| e - r).sum::<f64>() / n;
        let mut discs: Vec<f32> = out
            .stage(s)
            .iter()
            .map(|&v| f32::from(v) / UNITS_PER_DISC as f32)
            .collect();
        discs[BIAS] -= shift as f32;
        out.set_stage(s, &discs);
        let mae = pairs
            .iter()
            .map(|(e, r)| (e - shift - r).abs())
            .sum::<f64>()
            / n;
        rows.push(CalibrationRow {
            stage: s,
            positions: pairs.len(),
            exact,
            shift,
            mae,
        });
    }
    (out, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probcut::Cut;

    /// Positions of 30 or more empties from a few games, and weights trained on them.
    fn setup() -> (Weights, Vec<Pos>) {
        let cfg = TrainConfig::new(5).with_games(40).with_solve_empties(8);
        let w = train(&cfg, |_| {}).weights;
        let pos: Vec<Pos> = play_games(&cfg, None)
            .into_iter()
            .filter(|x| (!(x.p | x.o)).count_ones() >= 30)
            .take(60)
            .collect();
        (w, pos)
    }

    #[test]
    fn a_run_resumed_within_a_stage_ends_as_one_not_stopped() {
        // Batches of 7 positions: most stages stop several times within.
        let cfg = TrainConfig::new(9)
            .with_games(6)
            .with_solve_empties(8)
            .with_label_batch(7);
        let mut states = Vec::new();
        let mut events = Vec::new();
        let whole = train_from(&cfg, None, None, |p, s| {
            if let Progress::Labelled {
                stage,
                done,
                positions,
            } = p
            {
                assert_eq!(stage, s.stages.len());
                assert_eq!(done, s.labelled());
                assert!(done < positions && done % 7 == 0);
                states.push(s.to_bytes());
            }
            events.push(matches!(p, Progress::Stage(_)));
        })
        .unwrap();
        assert!(
            states.len() > STAGES,
            "{} saves within stages",
            states.len()
        );
        assert_eq!(events.iter().filter(|&&k| k).count(), STAGES);
        for bytes in &states {
            let st = TrainState::from_bytes(bytes).unwrap();
            let (k, done) = (st.stages.len(), st.labelled());
            let mut first = None;
            let resumed = train_from(&cfg, None, Some(st), |p, _| {
                first.get_or_insert(match p {
                    Progress::Stage(r) => (r.stage, usize::MAX),
                    Progress::Labelled { stage, done, .. } => (stage, done),
                });
            })
            .unwrap();
            // It goes on from the next batch of the same stage.
            let (stage, next) = first.unwrap();
            assert_eq!(stage, k);
            assert!(next > done, "resumed at {done}, next report at {next}");
            assert_eq!(resumed.weights, whole.weights);
            assert_eq!(resumed.stages, whole.stages);
            assert_eq!(resumed.validation, whole.validation);
        }
        // Another batch size labels otherwise: it does not take the state.
        let st = TrainState::from_bytes(&states[3]).unwrap();
        let other = cfg.clone().with_label_batch(8);
        assert!(matches!(
            train_from(&other, None, Some(st.clone()), |_, _| {}),
            Err(TrainStateError::Fingerprint { .. })
        ));
        // More labels than the stage has positions: refused, not read past.
        let mut bad = st;
        bad.labelled = vec![(0.0, true); 100_000];
        assert_eq!(
            train_from(&cfg, None, Some(bad), |_, _| {}).unwrap_err(),
            TrainStateError::Inconsistent("more labels than the stage has positions")
        );
    }

    #[test]
    fn a_state_of_version_1_is_still_read() {
        let cfg = TrainConfig::new(2).with_games(3).with_solve_empties(6);
        let mut third = None;
        train_from(&cfg, None, None, |_, s| {
            if s.stages.len() == 3 {
                third = Some(s.clone());
            }
        })
        .unwrap();
        let state = third.unwrap();
        let mut v1 = state.to_bytes();
        // Version 1 ends with the held-back positions: no count of labels after them.
        v1.truncate(v1.len() - 8);
        v1[4..8].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(TrainState::from_bytes(&v1), Ok(state.clone()));
        // In version 2 that count is needed.
        let mut v2 = v1;
        v2[4..8].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(TrainState::from_bytes(&v2), Err(TrainStateError::Truncated));
        // A version after 2 is not read, and the error says which ones are.
        let mut v3 = state.to_bytes();
        v3[4..8].copy_from_slice(&3u32.to_le_bytes());
        let e = TrainState::from_bytes(&v3).unwrap_err();
        assert_eq!(
            e,
            TrainStateError::Version {
                found: 3,
                expected: 2
            }
        );
        assert!(e.to_string().contains("versions 1 to 2"), "{e}");
        // A label that is not a number is refused.
        let mut bytes = state.to_bytes();
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&1u64.to_le_bytes());
        let mut one = bytes.clone();
        one.extend_from_slice(&2.5f32.to_bits().to_le_bytes());
        one.push(1);
        assert_eq!(TrainState::from_bytes(&one).unwrap().labelled(), 1);
        let mut nan = bytes;
        nan.extend_from_slice(&f32::NAN.to_bits().to_le_bytes());
        nan.push(1);
        assert_eq!(
            TrainState::from_bytes(&nan),
            Err(TrainStateError::Inconsistent(
                "a label that is not a number"
            ))
        );
    }

    #[test]
    fn a_run_resumed_after_any_stage_ends_as_one_not_stopped() {
        let cfg = TrainConfig::new(6).with_games(6).with_solve_empties(8);
        let mut states = Vec::new();
        let whole = train_from(&cfg, None, None, |_, s| states.push(s.to_bytes())).unwrap();
        assert_eq!(states.len(), STAGES);
        // Without batches the labels of a stage are never saved halfway.
        assert!(states
            .iter()
            .all(|b| TrainState::from_bytes(b).unwrap().labelled() == 0));
        for bytes in &states {
            let st = TrainState::from_bytes(bytes).unwrap();
            let k = st.stages.len();
            let mut seen = Vec::new();
            // Other threads decide nothing: the state is taken.
            let more = cfg.clone().with_threads(3);
            let resumed = train_from(&more, None, Some(st), |p, _| {
                if let Progress::Stage(r) = p {
                    seen.push(r.stage);
                }
            })
            .unwrap();
            assert_eq!(seen, (k..STAGES).collect::<Vec<_>>());
            assert_eq!(resumed.weights, whole.weights);
            assert_eq!(resumed.stages, whole.stages);
            assert_eq!(resumed.validation, whole.validation);
        }
        // Settings that change the result do not take it.
        let st = TrainState::from_bytes(&states[4]).unwrap();
        let mut other = cfg.clone();
        other.lambda = 8.0;
        assert!(matches!(
            train_from(&other, None, Some(st.clone()), |_, _| {}),
            Err(TrainStateError::Fingerprint { .. })
        ));
        let cuts = ProbCut::uniform(Cut {
            a: 1.0,
            b: 0.0,
            sigma: 3.0,
        });
        let cut = cfg.clone().with_label_cuts(Some(cuts));
        assert!(train_from(&cut, None, Some(st.clone()), |_, _| {}).is_err());
        let player = Weights::zero();
        assert!(train_from(&cfg, Some(&player), Some(st), |_, _| {}).is_err());
    }

    #[test]
    fn a_damaged_state_is_an_error_never_a_panic() {
        let cfg = TrainConfig::new(6).with_games(3).with_solve_empties(6);
        let mut bytes = Vec::new();
        train_from(&cfg, None, None, |_, s| {
            if s.stages.len() == 2 {
                bytes = s.to_bytes();
            }
        })
        .unwrap();
        assert!(TrainState::from_bytes(&bytes).is_ok());
        // Cut anywhere (200 lengths spread over the state, and each of the last 300).
        let n = bytes.len();
        for len in (0..n).step_by(n / 200).chain(n - 300..n) {
            assert!(
                TrainState::from_bytes(&bytes[..len]).is_err(),
                "cut at {len}"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            TrainState::from_bytes(&long),
            Err(TrainStateError::TrailingBytes { extra: 1 })
        );
        // Any byte changed: read or refused, without a panic; inside the weights, refused.
        for i in (0..n)
            .step_by(n / 300)
            .chain((24..1024).step_by(7))
            .chain(n - 300..n)
        {
            let mut bad = bytes.clone();
            bad[i] ^= 0xA5;
            let r = TrainState::from_bytes(&bad);
            if (24..24 + 1000).contains(&i) {
                assert!(r.is_err(), "byte {i}");
            }
        }
    }

    #[test]
    fn calibration_undoes_any_offset_of_the_stages() {
        let (w, _) = setup();
        // The same weights with a different constant added to every stage.
        let mut shifted = w.clone();
        for s in 0..STAGES {
            let mut discs: Vec<f32> = w
                .stage(s)
                .iter()
                .map(|&v| f32::from(v) / UNITS_PER_DISC as f32)
                .collect();
            discs[BIAS] += s as f32 * 0.75 - 4.0;
            shifted.set_stage(s, &discs);
        }
        let mut c = CalibrateConfig::new(9);
        c.positions = 20;
        c.exact_max = 11;
        c.depth = 6;
        let (a, rows_a) = calibrate(&w, &c);
        let (b, rows_b) = calibrate(&shifted, &c);
        for s in 0..STAGES {
            // Everything but the constant is untouched...
            assert_eq!(a.stage(s)[..BIAS], w.stage(s)[..BIAS]);
            assert_eq!(b.stage(s)[..BIAS], shifted.stage(s)[..BIAS]);
            // ...and both end with the same constant (up to rounding), each stage's shift
            // being the offset added to it.
            let gap = i32::from(a.stage(s)[BIAS]) - i32::from(b.stage(s)[BIAS]);
            assert!(gap.abs() <= 2, "stage {s}: constants {gap} units apart");
            let moved = rows_b[s].shift - rows_a[s].shift;
            assert!(
                (moved - (s as f64 * 0.75 - 4.0)).abs() < 0.02,
                "stage {s}: {moved}"
            );
        }
        assert!(rows_a[2].exact && !rows_a[3].exact);
    }

    #[test]
    fn label_cuts_select_and_a_wide_margin_changes_nothing() {
        let (w, pos) = setup();
        let cfg = TrainConfig::new(5)
            .with_solve_empties(8)
            .with_label_depth(7);
        let full = label_all(&cfg, &w, &pos);
        assert!(full.iter().all(|&(_, exact)| !exact));
        // Cuts that never fire: the same labels.
        let wide = ProbCut::uniform(Cut {
            a: 1.0,
            b: 0.0,
            sigma: 1.0e6,
        });
        let same = label_all(&cfg.clone().with_label_cuts(Some(wide)), &w, &pos);
        assert_eq!(full, same);
        // Cuts that always fire at the window: some labels move.
        let tight = ProbCut::uniform(Cut {
            a: 1.0,
            b: 0.0,
            sigma: 0.0,
        });
        let cut = label_all(&cfg.with_label_cuts(Some(tight)), &w, &pos);
        assert_eq!(cut.len(), full.len());
        assert!(full.iter().zip(&cut).any(|(a, b)| a != b));
    }

    #[test]
    fn solve_weights_order_the_exact_labels_without_changing_one() {
        let cfg = TrainConfig::new(8).with_games(12).with_solve_empties(17);
        // Exact labels from 12 to 17 empties, the presearch's range included.
        let pos: Vec<Pos> = play_games(&cfg, None)
            .into_iter()
            .filter(|x| (12..=17).contains(&(!(x.p | x.o)).count_ones()))
            .collect();
        assert!(pos.len() >= 40, "{} positions", pos.len());
        let w = Weights::zero();
        let plain = label_all(&cfg, &w, &pos);
        assert!(plain.iter().all(|&(_, exact)| exact));
        let trained = Weights::embedded().expect("the shipped weights").clone();
        assert!(trained.probcut().is_some_and(ProbCut::has_end));
        let ordered = label_all(&cfg.clone().with_solve_weights(Some(trained)), &w, &pos);
        assert_eq!(plain, ordered);
        // And with weights that say nothing (no cuts, every score 0).
        let zero = label_all(&cfg.with_solve_weights(Some(Weights::zero())), &w, &pos);
        assert_eq!(plain, zero);
    }
}
