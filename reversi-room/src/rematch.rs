//! The rematch rule: after a finished game of two people, either may offer to play again; the
//! offer goes to the other, and when the other offers too, the new game starts.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::{PlayerId, RoomError, RoomId};

/// The rematch of one finished game between two people, as a pure rule with no clock and no IO:
/// who may offer, what an offer does, and when the offer is spent.
///
/// - The first offer, by either player, goes to the other ([`RematchStep::Offered`]).
/// - An offer by the other player accepts it ([`RematchStep::Accepted`]): the host starts the
///   new game, and the offer is spent.
/// - Offering twice ([`RoomError::RematchOffered`]), offering a game one did not play
///   ([`RoomError::NotRematchPlayer`]) and offering a spent rematch
///   ([`RoomError::RematchSpent`]) are refused, and leave the offer as it was.
///
/// [`Lobby`](crate::Lobby) keeps one for each finished game of two guests
/// ([`Lobby::rematch`](crate::Lobby::rematch)); a host that keeps its games elsewhere (a cluster
/// on a shared store, say) stores its serialised form and applies [`RematchOffer::offer`] to it.
///
/// # Examples
///
/// ```
/// use reversi_room::{PlayerId, RematchOffer, RematchStep, RoomError, RoomId};
/// let (alice, bob) = (PlayerId(1), PlayerId(2));
/// let mut offer = RematchOffer::new(RoomId(7), [alice, bob])?;
/// assert_eq!(offer.offer(bob)?, RematchStep::Offered { to: alice });
/// assert_eq!(offer.offer(bob), Err(RoomError::RematchOffered { player: bob, room: RoomId(7) }));
/// assert_eq!(offer.offer(alice)?, RematchStep::Accepted { offerer: bob });
/// assert_eq!(offer.offer(alice), Err(RoomError::RematchSpent { room: RoomId(7) }));
/// # Ok::<(), RoomError>(())
/// ```
///
/// It serialises (the `serde` feature), and a serialised offer that does not hold together (a
/// player named twice, an offer by a stranger) is refused when read:
///
/// ```
/// use reversi_room::{PlayerId, RematchOffer, RoomId};
/// let mut offer = RematchOffer::new(RoomId(3), [PlayerId(1), PlayerId(2)])?;
/// offer.offer(PlayerId(2))?;
/// let text = serde_json::to_string(&offer).unwrap();
/// assert_eq!(text, r#"{"room":3,"players":[1,2],"state":{"offered":{"by":2}}}"#);
/// assert_eq!(serde_json::from_str::<RematchOffer>(&text).unwrap(), offer);
/// let bad = r#"{"room":3,"players":[1,2],"state":{"offered":{"by":9}}}"#;
/// assert!(serde_json::from_str::<RematchOffer>(bad).is_err());
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RematchOfferData"))]
pub struct RematchOffer {
    room: RoomId,
    players: [PlayerId; 2],
    state: RematchState,
}

/// Where a [`RematchOffer`] is in its life.
///
/// # Examples
///
/// ```
/// use reversi_room::{PlayerId, RematchOffer, RematchState, RoomId};
/// let mut offer = RematchOffer::new(RoomId(1), [PlayerId(1), PlayerId(2)])?;
/// assert_eq!(offer.state(), RematchState::Open);
/// offer.offer(PlayerId(1))?;
/// assert_eq!(offer.state(), RematchState::Offered { by: PlayerId(1) });
/// offer.offer(PlayerId(2))?;
/// assert_eq!(offer.state(), RematchState::Spent);
/// # Ok::<(), reversi_room::RoomError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RematchState {
    /// Nobody offered yet.
    Open,
    /// One player offered; it is up to the other.
    Offered {
        /// Who offered.
        by: PlayerId,
    },
    /// Both offered: the new game was started (or is being started), and the offer is used up.
    Spent,
}

/// What an accepted [`RematchOffer::offer`] did.
///
/// # Examples
///
/// See [`RematchOffer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "step", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RematchStep {
    /// The first offer: the host tells the other player, `to`.
    Offered {
        /// The player the offer goes to.
        to: PlayerId,
    },
    /// The other player had offered: the offer is spent, and the host starts the new game
    /// between the two.
    Accepted {
        /// Who offered first.
        offerer: PlayerId,
    },
}

/// The serialised shape of a [`RematchOffer`], checked when read.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct RematchOfferData {
    room: RoomId,
    players: [PlayerId; 2],
    state: RematchState,
}

#[cfg(feature = "serde")]
impl TryFrom<RematchOfferData> for RematchOffer {
    type Error = String;

    fn try_from(d: RematchOfferData) -> Result<RematchOffer, String> {
        let mut offer = RematchOffer::new(d.room, d.players).map_err(|e| e.to_string())?;
        if let RematchState::Offered { by } = d.state {
            if !offer.players.contains(&by) {
                return Err(format!(
                    "the rematch of {} is offered by {by}, who did not play it",
                    d.room
                ));
            }
        }
        offer.state = d.state;
        Ok(offer)
    }
}

impl RematchOffer {
    /// The rematch of the finished game in `room` between `players`, nobody having offered yet.
    ///
    /// # Errors
    ///
    /// [`RoomError::WrongPlayerCount`] if the two are the same player.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{PlayerId, RematchOffer, RoomError, RoomId};
    /// let offer = RematchOffer::new(RoomId(2), [PlayerId(4), PlayerId(5)])?;
    /// assert_eq!(offer.room(), RoomId(2));
    /// assert_eq!(offer.players(), [PlayerId(4), PlayerId(5)]);
    /// assert_eq!(
    ///     RematchOffer::new(RoomId(2), [PlayerId(4), PlayerId(4)]),
    ///     Err(RoomError::WrongPlayerCount { seats: 2, players: 1 }),
    /// );
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn new(room: RoomId, players: [PlayerId; 2]) -> Result<RematchOffer, RoomError> {
        if players[0] == players[1] {
            return Err(RoomError::WrongPlayerCount {
                seats: 2,
                players: 1,
            });
        }
        Ok(RematchOffer {
            room,
            players,
            state: RematchState::Open,
        })
    }

    /// The room of the finished game.
    ///
    /// # Examples
    ///
    /// See [`RematchOffer::new`].
    #[must_use]
    pub fn room(&self) -> RoomId {
        self.room
    }

    /// The two players of the finished game, as given to [`RematchOffer::new`].
    ///
    /// # Examples
    ///
    /// See [`RematchOffer::new`].
    #[must_use]
    pub fn players(&self) -> [PlayerId; 2] {
        self.players
    }

    /// Where the offer is in its life.
    ///
    /// # Examples
    ///
    /// See [`RematchState`].
    #[must_use]
    pub fn state(&self) -> RematchState {
        self.state
    }

    /// The other player of the game; `None` for someone who did not play it.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{PlayerId, RematchOffer, RoomId};
    /// let offer = RematchOffer::new(RoomId(1), [PlayerId(1), PlayerId(2)])?;
    /// assert_eq!(offer.opponent_of(PlayerId(1)), Some(PlayerId(2)));
    /// assert_eq!(offer.opponent_of(PlayerId(3)), None);
    /// # Ok::<(), reversi_room::RoomError>(())
    /// ```
    #[must_use]
    pub fn opponent_of(&self, player: PlayerId) -> Option<PlayerId> {
        match self.players {
            [a, b] if a == player => Some(b),
            [a, b] if b == player => Some(a),
            _ => None,
        }
    }

    /// An offer by `player`: the first one goes to the other player; the other player's accepts
    /// it and spends the offer. A refused offer leaves it as it was.
    ///
    /// # Errors
    ///
    /// [`RoomError::NotRematchPlayer`] for someone who did not play the game;
    /// [`RoomError::RematchSpent`] once accepted; [`RoomError::RematchOffered`] for a second
    /// offer by the same player.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::{PlayerId, RematchOffer, RematchStep, RoomError, RoomId};
    /// let mut offer = RematchOffer::new(RoomId(1), [PlayerId(1), PlayerId(2)])?;
    /// let stranger = PlayerId(3);
    /// assert_eq!(
    ///     offer.offer(stranger),
    ///     Err(RoomError::NotRematchPlayer { player: stranger, room: RoomId(1) }),
    /// );
    /// assert_eq!(offer.offer(PlayerId(1))?, RematchStep::Offered { to: PlayerId(2) });
    /// # Ok::<(), RoomError>(())
    /// ```
    pub fn offer(&mut self, player: PlayerId) -> Result<RematchStep, RoomError> {
        let room = self.room;
        let other = self
            .opponent_of(player)
            .ok_or(RoomError::NotRematchPlayer { player, room })?;
        match self.state {
            RematchState::Spent => Err(RoomError::RematchSpent { room }),
            RematchState::Open => {
                self.state = RematchState::Offered { by: player };
                Ok(RematchStep::Offered { to: other })
            }
            RematchState::Offered { by } if by == player => {
                Err(RoomError::RematchOffered { player, room })
            }
            RematchState::Offered { by } => {
                self.state = RematchState::Spent;
                Ok(RematchStep::Accepted { offerer: by })
            }
        }
    }
}
