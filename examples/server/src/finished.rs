//! Finished games, read with a player's token: `record` (one game) and `games` (the player's
//! recent games). The games table keeps every finished game and the guests table every token, so
//! a player who was away when a game ended learns its result with the token, long after the room
//! and the lobby's guest are gone.

use reversi::core::{Color, Game, Position};
use reversi::view::BoardView;
use serde_json::Value;

use crate::db::{GameRecord, Reader};
use crate::protocol::{ClientMsg, Count, GameRecordView, Refusal, ServerMsg};

/// How many games `games` returns by default, and at most.
const DEFAULT_LIMIT: u32 = 20;
const MAX_LIMIT: u32 = 50;

/// The answer to a `record` or `games` request (blocking: run it on the blocking pool).
pub fn answer(reader: &Reader, msg: &ClientMsg) -> Result<Value, Refusal> {
    let db_err = |e: rusqlite::Error| Refusal::new("internal", format!("the database: {e}"));
    let player_of = |token: &str| -> Result<u64, Refusal> {
        reader
            .player_of(token)
            .map_err(db_err)?
            .ok_or_else(|| Refusal::new("wrong_token", "no guest was ever given this token"))
    };
    let msg = match msg {
        ClientMsg::Record {
            game,
            token,
            game_no,
            ..
        } => {
            let player = player_of(token)?;
            let rows = reader
                .games_of(player, Some(game), *game_no, 1)
                .map_err(db_err)?;
            let row = rows.into_iter().next().ok_or_else(|| {
                let shown: String = game.chars().take(40).collect();
                Refusal::new(
                    "no_such_game",
                    format!("no finished game {shown:?} of this token's player"),
                )
            })?;
            ServerMsg::Record(Box::new(view(&row)))
        }
        ClientMsg::Games { token, limit, .. } => {
            let limit = limit.unwrap_or(DEFAULT_LIMIT);
            if !(1..=MAX_LIMIT).contains(&limit) {
                return Err(Refusal::new(
                    "bad_message",
                    format!("limit must be from 1 to {MAX_LIMIT}, not {limit}"),
                ));
            }
            let player = player_of(token)?;
            let rows = reader.games_of(player, None, None, limit).map_err(db_err)?;
            ServerMsg::Games {
                player,
                games: rows.iter().map(view).collect(),
                rid: None,
            }
        }
        _ => return Err(Refusal::new("internal", "not a read of finished games")),
    };
    serde_json::to_value(msg).map_err(|e| Refusal::new("internal", e.to_string()))
}

/// A recorded game as the protocol shows it; its moves are replayed from the transcript.
pub fn view(r: &GameRecord) -> GameRecordView {
    let start = Position::from_board_string(&r.start_board).unwrap_or_else(|_| Position::initial());
    // A transcript the server wrote always replays; were one not to, the moves stay empty and
    // the transcript is still given as recorded.
    let moves = Game::transcript_from(start, &r.transcript)
        .map(|g| BoardView::of(&g).history)
        .unwrap_or_default();
    let color = |c: &Option<String>| match c.as_deref() {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        _ => None,
    };
    GameRecordView {
        game: r.game.clone(),
        game_no: r.game_no,
        kind: r.kind.clone(),
        black: r.black.clone(),
        white: r.white.clone(),
        winner: color(&r.winner),
        reason: r.reason.clone(),
        count: Count {
            black: r.black_discs,
            white: r.white_discs,
        },
        moves,
        transcript: r.transcript.clone(),
        started_at: r.started_ms,
        ended_at: r.ended_ms,
        black_ms: r.black_clock_ms,
        white_ms: r.white_clock_ms,
        rid: None,
    }
}
