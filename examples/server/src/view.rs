//! What clients see of a Reversi game: the facade's views ([`reversi::view`]) as JSON values
//! (for tests: the server moves the views into `reversi-protocol`'s `State` in `online::state_msg`).
//! The board, the legal moves with the discs each would flip in animation order, the squares'
//! accessible descriptions, the last move and any pass, and the history all come from
//! `reversi-core`, so the page holds no rules.

use reversi::core::Game;
use reversi::view::BoardView;
use serde_json::Value;

/// The board part of every state message (the server serialises the view itself, straight to
/// text; tests read it as a value).
pub fn board_json(game: &Game) -> Value {
    serde_json::to_value(BoardView::of(game)).expect("a board view serialises")
}
