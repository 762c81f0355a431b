//! Identifiers: players, rooms, reconnection tokens and invite codes.

use std::fmt;
use std::str::FromStr;

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::RoomError;

/// A person, as the application identifies them (a connection, a guest, an account).
///
/// # Examples
///
/// ```
/// use reversi_room::PlayerId;
/// assert_eq!(PlayerId(7).to_string(), "p7");
/// assert_eq!(serde_json::to_string(&PlayerId(7)).unwrap(), "7");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0)
    }
}

/// An online room of a [`Lobby`](crate::Lobby).
///
/// # Examples
///
/// ```
/// use reversi_room::RoomId;
/// assert_eq!(RoomId(3).to_string(), "r3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct RoomId(pub u64);

impl fmt::Display for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

/// The secret a guest gets when it joins a [`Lobby`](crate::Lobby) and shows again to reconnect
/// (what a browser tab keeps in its session storage): 128 random bits from the lobby's generator,
/// as 32 lowercase hex digits.
///
/// Its `Debug` form hides the secret, so that it never ends up in a log by accident.
///
/// # Examples
///
/// ```
/// # mod nim { include!("../tests/common/nim.rs"); } use nim::*;
/// use reversi_clock::Millis;
/// use reversi_room::{Lobby, Token};
///
/// let mut lobby = Lobby::new([("nim".to_owned(), Nim::new(5, 2))], [1; 32]);
/// let (_, token) = lobby.add_guest(Millis(0));
/// assert_eq!(token.as_str().len(), 32);
/// assert_eq!(format!("{token:?}"), "Token(…)");
/// assert_eq!(Token::from(token.as_str().to_owned()), token);
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Token(String);

impl Token {
    /// A fresh token of 128 bits, from two draws of a random source (a host that keeps its
    /// guests elsewhere makes its tokens the way a [`Lobby`](crate::Lobby) does): 32 lowercase
    /// hexadecimal digits, the bytes of each draw in little-endian order.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::Token;
    /// let mut draws = [0x0123_4567_89ab_cdef_u64, 0xff].into_iter();
    /// let t = Token::from_random(|| draws.next().unwrap());
    /// assert_eq!(t.as_str(), "efcdab8967452301ff00000000000000");
    /// ```
    pub fn from_random(mut next: impl FnMut() -> u64) -> Token {
        let (a, b) = (next(), next());
        let mut text = String::with_capacity(32);
        for byte in a.to_le_bytes().into_iter().chain(b.to_le_bytes()) {
            text.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
            text.push(char::from_digit(u32::from(byte & 15), 16).unwrap_or('0'));
        }
        Token(text)
    }

    /// The secret, to hand to the client.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::Token;
    /// assert_eq!(Token::from("abc".to_owned()).as_str(), "abc");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for Token {
    /// A token as a client sent it back (checked only when used).
    fn from(s: String) -> Token {
        Token(s)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

/// A short invite code: 8 characters from an alphabet without the look-alikes `0 O 1 I L U`
/// (30 symbols, about 39 bits), drawn from the lobby's generator.
///
/// Parsing is forgiving: lowercase is accepted, and spaces and dashes are ignored. A link form is
/// made by [`link`](InviteCode::link) and read back by [`from_link`](InviteCode::from_link).
///
/// # Examples
///
/// ```
/// use reversi_room::InviteCode;
///
/// let code: InviteCode = "k7mq-29xb".parse().unwrap();
/// assert_eq!(code.as_str(), "K7MQ29XB");
/// assert_eq!(code.as_str().len(), InviteCode::LEN);
/// assert!("0O1IL-U00".parse::<InviteCode>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct InviteCode(String);

impl InviteCode {
    /// The symbols of a code: digits and capitals without `0 O 1 I L U`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::InviteCode;
    /// assert_eq!(InviteCode::ALPHABET.len(), 30);
    /// assert!(!InviteCode::ALPHABET.contains(&b'O'));
    /// ```
    pub const ALPHABET: &'static [u8; 30] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";

    /// The number of symbols in a code.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversi_room::InviteCode::LEN, 8);
    /// ```
    pub const LEN: usize = 8;

    /// A fresh code from the lobby's generator (uniform over the alphabet).
    pub(crate) fn generate(rng: &mut LobbyRng) -> InviteCode {
        InviteCode::from_random(|| rng.0.next_u64())
    }

    /// A code drawn from `next`, a source of uniformly random 64-bit numbers: each of its
    /// [`InviteCode::LEN`] symbols uniform over [`InviteCode::ALPHABET`] (rejection sampling).
    /// The lobby draws its codes so; a host that keeps invites elsewhere (the server's cluster
    /// in Redis) draws them here too. A number among the top `2^64 mod 30` values is drawn
    /// again, so a source stuck on such a value (say `u64::MAX` forever) never returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::InviteCode;
    /// let mut x = 0x9E37_79B9_7F4A_7C15u64;
    /// let code = InviteCode::from_random(|| {
    ///     x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ///     x
    /// });
    /// assert_eq!(code.as_str().len(), InviteCode::LEN);
    /// assert_eq!(code.as_str().parse::<InviteCode>(), Ok(code.clone()));
    /// ```
    pub fn from_random(mut next: impl FnMut() -> u64) -> InviteCode {
        let n = Self::ALPHABET.len() as u64;
        // Rejection sampling keeps every symbol equally likely.
        let zone = u64::MAX - u64::MAX % n;
        let mut code = String::with_capacity(Self::LEN);
        while code.len() < Self::LEN {
            let x = next();
            if x < zone {
                let i = usize::try_from(x % n).expect("below 30");
                code.push(char::from(Self::ALPHABET[i]));
            }
        }
        InviteCode(code)
    }

    /// The code as text.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::InviteCode;
    /// let code: InviteCode = "abcd-efgh".parse().unwrap();
    /// assert_eq!(code.as_str(), "ABCDEFGH");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The link form of the code under `base` (a page address): `{base}/join/{code}`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::InviteCode;
    /// let code: InviteCode = "ABCDEFGH".parse().unwrap();
    /// assert_eq!(code.link("http://127.0.0.1:8080/"), "http://127.0.0.1:8080/join/ABCDEFGH");
    /// ```
    #[must_use]
    pub fn link(&self, base: &str) -> String {
        format!("{}/join/{}", base.trim_end_matches('/'), self.0)
    }

    /// Reads a code back from its link form (or from a bare code): the text after the last `/`,
    /// `=` or `#`.
    ///
    /// # Errors
    ///
    /// [`RoomError::BadInviteCode`] if that text is not a code.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_room::InviteCode;
    /// let code = InviteCode::from_link("https://example.invalid/join/ABCDEFGH").unwrap();
    /// assert_eq!(code.as_str(), "ABCDEFGH");
    /// assert_eq!(InviteCode::from_link("https://x/?invite=abcdefgh").unwrap(), code);
    /// ```
    pub fn from_link(link: &str) -> Result<InviteCode, RoomError> {
        let tail = link
            .trim_end_matches('/')
            .rsplit(['/', '=', '#'])
            .next()
            .unwrap_or(link);
        tail.parse()
    }
}

impl FromStr for InviteCode {
    type Err = RoomError;

    fn from_str(s: &str) -> Result<InviteCode, RoomError> {
        let code: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | ' '))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let ok = code.len() == Self::LEN && code.bytes().all(|b| Self::ALPHABET.contains(&b));
        if ok {
            Ok(InviteCode(code))
        } else {
            Err(RoomError::BadInviteCode {
                input: s.to_owned(),
            })
        }
    }
}

impl TryFrom<String> for InviteCode {
    type Error = RoomError;
    fn try_from(s: String) -> Result<InviteCode, RoomError> {
        s.parse()
    }
}

impl From<InviteCode> for String {
    fn from(c: InviteCode) -> String {
        c.0
    }
}

impl fmt::Display for InviteCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The generator of a [`Lobby`](crate::Lobby): ChaCha20 from a 256-bit seed. It serialises as
/// its seed and position, and its `Debug` form hides them.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub(crate) struct LobbyRng(ChaCha20Rng);

impl LobbyRng {
    pub(crate) fn from_seed(seed: [u8; 32]) -> LobbyRng {
        LobbyRng(ChaCha20Rng::from_seed(seed))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// The seed, the stream and the position in it (in 32-bit words).
    pub(crate) fn parts(&self) -> ([u8; 32], u64, u128) {
        (
            self.0.get_seed(),
            self.0.get_stream(),
            self.0.get_word_pos(),
        )
    }

    /// The generator at a position; `None` for a position the generator cannot take (ChaCha's
    /// positions have 68 bits).
    pub(crate) fn from_parts(seed: [u8; 32], stream: u64, word_pos: u128) -> Option<LobbyRng> {
        let mut rng = ChaCha20Rng::from_seed(seed);
        rng.set_stream(stream);
        rng.set_word_pos(word_pos);
        (rng.get_word_pos() == word_pos).then_some(LobbyRng(rng))
    }
}

impl fmt::Debug for LobbyRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LobbyRng(…)")
    }
}
