//! The error type of the crate.

/// Everything that can go wrong in `reversi-ai`.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Engine, AiError, Level, Limits};
/// use reversi_core::Position;
/// use std::sync::atomic::AtomicBool;
/// // A finished game: nobody can move.
/// let over: Position = format!("{} X", "X".repeat(64)).parse().unwrap();
/// let mut engine = Level::Easy.engine(1);
/// let err = engine.choose(&over, &Limits::NONE, &AtomicBool::new(false)).unwrap_err();
/// assert_eq!(err, AiError::GameOver);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AiError {
    /// A move or a solve was asked for a finished game (neither side can move).
    #[error("the game is over: there is no move to choose")]
    GameOver,
    /// An exact solve was stopped (stop flag, node or time limit) before it finished.
    #[error("the search was stopped before it finished, after {nodes} nodes")]
    Interrupted {
        /// Nodes searched before the stop.
        nodes: u64,
    },
    /// An engine name that is not `easy`, `normal`, `hard`, `expert`, `depth:N` or `nodes:N`.
    #[error("{0:?} is not an engine (expected easy, normal, hard, expert, depth:N or nodes:N)")]
    EngineName(String),
    /// A scoring rule name that is not `disc` (`board`, `disc-difference`) or `wof`.
    #[error("{0:?} is not a scoring rule (expected disc or wof)")]
    ScoringName(String),
    /// The Expert level was asked for a move without trained weights: the library was built
    /// without `embedded-weights` and none were installed ([`crate::pattern::Weights::install`])
    /// or given ([`crate::Expert::with_weights`]).
    #[error("the Expert level has no trained weights (none built in, none installed)")]
    NoWeights,
    /// A move generation kernel that this CPU (or this build) does not have was asked for
    /// ([`crate::Expert::with_kernel`]).
    #[error("the {0:?} kernel is not available on this CPU")]
    KernelUnavailable(reversi_core::movegen::Kernel),
    /// A search thread panicked (a bug).
    #[error("the search thread panicked")]
    ThreadPanicked,
    /// A move that the rules refuse (a bug: the engines play only legal moves).
    #[error(transparent)]
    Play(#[from] reversi_core::PlayError),
}
