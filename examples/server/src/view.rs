//! What clients see of a Reversi game: the facade's views ([`reversi::view`]) as JSON values.
//! The board, the legal moves with the discs each would flip in animation order, the squares'
//! accessible descriptions, the last move and any pass, and the history all come from
//! `reversi-core`, so the page holds no rules.

use reversi::clock::{Clock, Millis};
use reversi::core::Game;
use reversi::view::{BoardView, ClockView};
use serde_json::Value;

/// The board part of every state message.
pub fn board_json(game: &Game) -> Value {
    serde_json::to_value(BoardView::of(game)).expect("a board view serialises")
}

/// The clock part of a state message: each side's remaining time at `now` (null when
/// unlimited), who is running, and the server's time so a client can count down.
pub fn clock_json(clock: &Clock, now: Millis) -> Value {
    serde_json::to_value(ClockView::of(clock, now)).expect("a clock view serialises")
}
