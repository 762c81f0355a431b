//! Time controls as plain data, and the per-move presets of local games.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::Span;

/// How much time each side gets. Plain data: it serialises with serde (internally tagged by
/// `"kind"`, e.g. `{"kind":"per_move","limit":30000}`).
///
/// Every side gets the same control, but each side has its own bank.
///
/// # Examples
///
/// ```
/// use reversi_clock::{Span, TimeControl};
///
/// let blitz = TimeControl::Fischer {
///     bank: Span::from_mins(3),
///     increment: Span::from_secs(2),
///     cap: None,
/// };
/// let json = serde_json::to_string(&blitz).unwrap();
/// assert_eq!(json, r#"{"kind":"fischer","bank":180000,"increment":2000,"cap":null}"#);
/// assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), blitz);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum TimeControl {
    /// No one ever loses on time. [`Clock::remaining`](crate::Clock::remaining) is `None`.
    Unlimited,
    /// Each turn starts a fresh `limit`; a turn that runs over it loses.
    PerMove {
        /// The time allowed for each turn (each action).
        limit: Span,
    },
    /// Each side has its own `bank`, which runs only on that side's turn.
    Total {
        /// The time each side has for the whole game.
        bank: Span,
    },
    /// Per move and total together: a side loses on whichever runs out first. Time a move
    /// leaves unused is neither added to the bank nor carried to the next move.
    Combined {
        /// The time allowed for each turn.
        per_move: Span,
        /// The time each side has for the whole game.
        bank: Span,
    },
    /// Fischer increment: after each of its moves a side gets `increment` added to its bank.
    ///
    /// With a `cap`, the increment never takes the bank above the cap (a bank that is already
    /// above it, say the starting bank, is not cut down).
    Fischer {
        /// The starting time of each side.
        bank: Span,
        /// The time added after each move.
        increment: Span,
        /// The most the increment can bring the bank to, if any.
        cap: Option<Span>,
    },
    /// Simple (Bronstein) delay: the bank runs as usual, and after the move the time used, up
    /// to `delay`, is given back. The bank therefore never grows.
    Delay {
        /// The starting time of each side.
        bank: Span,
        /// The most time given back after each move.
        delay: Span,
    },
    /// Byo-yomi: a `main` time, then `periods` periods of `period` each. A move made within a
    /// period keeps that period (it starts full on the next move); each period that runs out is
    /// used up, and the side flags when the last one runs out.
    ByoYomi {
        /// The main time of each side.
        main: Span,
        /// The number of overtime periods.
        periods: u32,
        /// The length of one overtime period.
        period: Span,
    },
}

impl TimeControl {
    /// The online games' fixed control: 30 seconds per move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Span, TimeControl};
    /// assert_eq!(TimeControl::ONLINE, TimeControl::PerMove { limit: Span::from_secs(30) });
    /// ```
    pub const ONLINE: TimeControl = TimeControl::PerMove {
        limit: Span::from_secs(30),
    };

    /// A per-move control with the given limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Span, TimeControl};
    /// assert_eq!(
    ///     TimeControl::per_move(Span::from_secs(5)),
    ///     TimeControl::PerMove { limit: Span::from_secs(5) },
    /// );
    /// ```
    #[must_use]
    pub const fn per_move(limit: Span) -> TimeControl {
        TimeControl::PerMove { limit }
    }

    /// A total-time control with the given bank for each side.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Span, TimeControl};
    /// assert_eq!(
    ///     TimeControl::total(Span::from_mins(10)),
    ///     TimeControl::Total { bank: Span::from_mins(10) },
    /// );
    /// ```
    #[must_use]
    pub const fn total(bank: Span) -> TimeControl {
        TimeControl::Total { bank }
    }

    /// A combined control: `per_move` for each turn and `bank` for the whole game.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Span, TimeControl};
    /// let c = TimeControl::combined(Span::from_secs(30), Span::from_mins(5));
    /// assert_eq!(
    ///     c,
    ///     TimeControl::Combined { per_move: Span::from_secs(30), bank: Span::from_mins(5) },
    /// );
    /// ```
    #[must_use]
    pub const fn combined(per_move: Span, bank: Span) -> TimeControl {
        TimeControl::Combined { per_move, bank }
    }

    /// The per-move control of a local-game preset.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{PerMovePreset, Span, TimeControl};
    /// assert_eq!(
    ///     TimeControl::preset(PerMovePreset::Fast),
    ///     TimeControl::PerMove { limit: Span::from_secs(15) },
    /// );
    /// ```
    #[must_use]
    pub const fn preset(preset: PerMovePreset) -> TimeControl {
        TimeControl::PerMove {
            limit: preset.limit(),
        }
    }

    /// Whether a side can ever lose on time under this control.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::TimeControl;
    /// assert!(!TimeControl::Unlimited.is_timed());
    /// assert!(TimeControl::ONLINE.is_timed());
    /// ```
    #[must_use]
    pub const fn is_timed(&self) -> bool {
        !matches!(self, TimeControl::Unlimited)
    }
}

/// The per-move presets of local games: fast 15 s, normal 30 s, long 60 s.
///
/// # Examples
///
/// ```
/// use reversi_clock::{PerMovePreset, Span};
/// assert_eq!(PerMovePreset::Normal.limit(), Span::from_secs(30));
/// assert_eq!(PerMovePreset::ALL.len(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PerMovePreset {
    /// 15 seconds per move.
    Fast,
    /// 30 seconds per move.
    Normal,
    /// 60 seconds per move.
    Long,
}

impl PerMovePreset {
    /// Every preset, fastest first.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::PerMovePreset;
    /// assert_eq!(PerMovePreset::ALL[0], PerMovePreset::Fast);
    /// ```
    pub const ALL: [PerMovePreset; 3] = [
        PerMovePreset::Fast,
        PerMovePreset::Normal,
        PerMovePreset::Long,
    ];

    /// The time allowed for each move.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{PerMovePreset, Span};
    /// assert_eq!(PerMovePreset::Long.limit(), Span::from_secs(60));
    /// ```
    #[must_use]
    pub const fn limit(self) -> Span {
        match self {
            PerMovePreset::Fast => Span::from_secs(15),
            PerMovePreset::Normal => Span::from_secs(30),
            PerMovePreset::Long => Span::from_secs(60),
        }
    }

    /// The control of this preset, same as [`TimeControl::preset`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{PerMovePreset, TimeControl};
    /// assert_eq!(PerMovePreset::Fast.control(), TimeControl::preset(PerMovePreset::Fast));
    /// ```
    #[must_use]
    pub const fn control(self) -> TimeControl {
        TimeControl::preset(self)
    }
}
