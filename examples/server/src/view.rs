//! What clients see of a Reversi game: the board, the legal moves with the discs each would flip
//! in animation order, the squares' accessible descriptions, the last move and any pass, and the
//! history. All of it comes from `reversi-core`, so the page holds no rules.

use reversi::clock::{Clock, Millis};
use reversi::core::{Color, Game, Move};
use serde_json::{json, Value};

use crate::protocol::color_name;

/// The board part of every state message.
pub fn board_json(game: &Game) -> Value {
    let pos = game.position();
    let over = game.is_over();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|sq| json!({"square": sq, "flips": pos.flips_in_order(sq)}))
            .collect()
    };
    let squares: Vec<String> = pos
        .describe_squares()
        .iter()
        .map(ToString::to_string)
        .collect();
    let board: String = pos.to_board_string().chars().take(64).collect();
    let history: Vec<Value> = game
        .plies()
        .iter()
        .map(|p| json!({"color": color_name(p.color), "move": p.mv}))
        .collect();
    // The last placement, with its flips in animation order from the position before it.
    let last = game
        .plies()
        .iter()
        .rposition(|p| p.mv != Move::Pass)
        .and_then(|i| {
            let ply = game.plies()[i];
            let before = game.positions()[i];
            ply.mv.square().map(|sq| {
                json!({"color": color_name(ply.color), "square": sq, "flips": before.flips_in_order(sq)})
            })
        });
    // The automatic pass that followed the last placement (or opened a prepared position).
    let passed = game
        .plies()
        .last()
        .filter(|p| p.mv == Move::Pass)
        .map(|p| color_name(p.color));
    json!({
        "board": board,
        "to_move": if over { Value::Null } else { json!(color_name(pos.side_to_move())) },
        "count": {"black": pos.count(Color::Black), "white": pos.count(Color::White)},
        "legal": legal,
        "squares": squares,
        "last": last,
        "passed": passed,
        "history": history,
    })
}

/// The clock part of a state message: each side's remaining time at `now` (null when
/// unlimited), who is running, and the server's time so a client can count down.
pub fn clock_json(clock: &Clock, now: Millis) -> Value {
    let side = |i: usize| clock.remaining(i, now).map(|s| s.as_millis());
    json!({
        "control": clock.control(),
        "black_ms": side(0),
        "white_ms": side(1),
        "running": clock.running_side().map(|s| if s == 0 { "black" } else { "white" }),
        "paused": clock.is_paused(),
        "server_time": now.0,
    })
}
