//! Notation: transcripts and OBF lines.
//!
//! Square names, moves and board strings parse with `FromStr` on [`crate::Square`],
//! [`crate::Move`] and [`crate::Position`]; transcripts with [`crate::Game::from_transcript`].

use crate::{Move, ObfError, ObfLineError, ParseMoveError, Position};

/// Splits a transcript into tokens, each with its parse result. White space separates nothing
/// and is skipped; a token is `pass`, `ps` or two characters meant as a square.
pub(crate) fn tokenize(
    s: &str,
) -> impl Iterator<Item = (String, Result<Move, ParseMoveError>)> + '_ {
    let mut rest = s;
    core::iter::from_fn(move || {
        rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        let lower4: String = rest
            .chars()
            .take(4)
            .collect::<String>()
            .to_ascii_lowercase();
        let len = if lower4 == "pass" {
            4
        } else if lower4.starts_with("ps") {
            2
        } else {
            rest.chars().take(2).map(char::len_utf8).sum()
        };
        let (token, tail) = rest.split_at(len);
        rest = tail;
        let parsed = token.parse::<Move>();
        Some((token.to_string(), parsed))
    })
}

/// One position of an OBF file: the position, and the exact scores of listed moves (the final
/// disc difference for the side to move after each, best first), when the file gives them.
///
/// # Examples
///
/// ```
/// use reversi_core::notation::ObfLine;
/// use reversi_core::{Move, Square};
/// let line = format!("{} X; F5:+0; D3:-2;", "-".repeat(27) + "OX------XO" + &"-".repeat(27));
/// let obf: ObfLine = line.parse().unwrap();
/// assert_eq!(obf.scores, [(Move::Place(Square::F5), 0), (Move::Place(Square::D3), -2)]);
/// assert_eq!(obf.best_score(), Some(0));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ObfLine {
    /// The position.
    pub position: Position,
    /// Listed moves with their exact scores, in file order.
    pub scores: Vec<(Move, i32)>,
}

impl ObfLine {
    /// The best listed score, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_core::notation::ObfLine;
    /// let line: ObfLine = format!("{} O", "-".repeat(64)).parse().unwrap();
    /// assert_eq!(line.best_score(), None);
    /// ```
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }
}

impl core::str::FromStr for ObfLine {
    type Err = ObfLineError;

    /// Parses `BOARD SIDE; MOVE:SCORE; ...`.
    ///
    /// # Errors
    ///
    /// [`ObfLineError::Board`] with the error of [`Position::from_board_string`], or the
    /// [`ObfLineError`] of a bad `MOVE:SCORE` pair.
    fn from_str(line: &str) -> Result<Self, ObfLineError> {
        let mut parts = line.split(';');
        let board = parts.next().unwrap_or_default();
        let position = Position::from_board_string(board)?;
        let mut scores = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (mv, score) = part
                .split_once(':')
                .ok_or_else(|| ObfLineError::Pair(part.to_string()))?;
            let mv: Move = mv.parse()?;
            let score: i32 = score
                .trim()
                .parse()
                .map_err(|_| ObfLineError::Score(score.to_string()))?;
            if !(-64..=64).contains(&score) {
                return Err(ObfLineError::ScoreRange(score));
            }
            scores.push((mv, score));
        }
        Ok(ObfLine { position, scores })
    }
}

/// Parses the text of an OBF file: one position a line; blank lines and lines starting with `%`
/// or `#` are skipped.
///
/// # Errors
///
/// [`ObfError`] with the 1-based line number and the cause of the first bad line.
///
/// # Examples
///
/// ```
/// use reversi_core::notation::parse_obf;
/// let text = format!("% comment\n{} X\n", "-".repeat(64));
/// assert_eq!(parse_obf(&text).unwrap().len(), 1);
/// assert_eq!(parse_obf("\nXO X\n").unwrap_err().line, 2);
/// ```
pub fn parse_obf(text: &str) -> Result<Vec<ObfLine>, ObfError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') || t.starts_with('#') {
            continue;
        }
        out.push(t.parse().map_err(|cause| ObfError { line: i + 1, cause })?);
    }
    Ok(out)
}
