//! The time per action a hosted room may choose: a product rule of the rooms, not of the clock.

use reversi_clock::{Span, TimeControl};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::RoomError;

/// The time per action a room may choose when it is created: 30, 60 or 90 seconds, and nothing
/// else.
///
/// An action is any timed step of a game: in Backgammon a dice roll and a move are each an action.
///
/// # Examples
///
/// ```
/// use reversi_clock::Span;
/// use reversi_room::{RoomActionLimit, RoomError};
///
/// assert_eq!(RoomActionLimit::from_secs(60), Ok(RoomActionLimit::Secs60));
/// assert_eq!(
///     RoomActionLimit::from_secs(45),
///     Err(RoomError::UnsupportedActionLimit { secs: 45 }),
/// );
/// assert_eq!(RoomActionLimit::Secs30.limit(), Span::from_secs(30));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u64", into = "u64"))]
pub enum RoomActionLimit {
    /// 30 seconds per action (the default).
    #[default]
    Secs30,
    /// 60 seconds per action.
    Secs60,
    /// 90 seconds per action.
    Secs90,
}

impl RoomActionLimit {
    /// Every allowed limit, shortest first.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::RoomActionLimit;
    /// assert_eq!(RoomActionLimit::ALL[2], RoomActionLimit::Secs90);
    /// ```
    pub const ALL: [RoomActionLimit; 3] = [
        RoomActionLimit::Secs30,
        RoomActionLimit::Secs60,
        RoomActionLimit::Secs90,
    ];

    /// The limit with the given number of seconds.
    ///
    /// # Errors
    ///
    /// [`RoomError::UnsupportedActionLimit`] unless `secs` is 30, 60 or 90.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::RoomActionLimit;
    /// assert_eq!(RoomActionLimit::from_secs(90), Ok(RoomActionLimit::Secs90));
    /// assert!(RoomActionLimit::from_secs(0).is_err());
    /// ```
    pub const fn from_secs(secs: u64) -> Result<RoomActionLimit, RoomError> {
        match secs {
            30 => Ok(RoomActionLimit::Secs30),
            60 => Ok(RoomActionLimit::Secs60),
            90 => Ok(RoomActionLimit::Secs90),
            _ => Err(RoomError::UnsupportedActionLimit { secs }),
        }
    }

    /// The number of seconds per action.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::RoomActionLimit;
    /// assert_eq!(RoomActionLimit::Secs60.secs(), 60);
    /// ```
    #[must_use]
    pub const fn secs(self) -> u64 {
        match self {
            RoomActionLimit::Secs30 => 30,
            RoomActionLimit::Secs60 => 60,
            RoomActionLimit::Secs90 => 90,
        }
    }

    /// The time allowed for each action.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::Span;
    /// use reversi_room::RoomActionLimit;
    /// assert_eq!(RoomActionLimit::Secs90.limit(), Span::from_secs(90));
    /// ```
    #[must_use]
    pub const fn limit(self) -> Span {
        Span::from_secs(self.secs())
    }

    /// The clock control of a room with this limit: a fresh limit for every action.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_clock::{Span, TimeControl};
    /// use reversi_room::RoomActionLimit;
    /// assert_eq!(RoomActionLimit::Secs60.control(), TimeControl::per_move(Span::from_secs(60)));
    /// ```
    #[must_use]
    pub const fn control(self) -> TimeControl {
        TimeControl::per_move(self.limit())
    }
}

impl TryFrom<u64> for RoomActionLimit {
    type Error = RoomError;
    /// Same as [`RoomActionLimit::from_secs`].
    fn try_from(secs: u64) -> Result<Self, RoomError> {
        RoomActionLimit::from_secs(secs)
    }
}

impl From<RoomActionLimit> for u64 {
    /// The number of seconds.
    fn from(l: RoomActionLimit) -> u64 {
        l.secs()
    }
}
