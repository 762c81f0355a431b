//! How rooms are shown and named, shared by the single-node lobby (`online.rs`) and the
//! cluster (`cluster/`): room ids, refusals, `state` messages, finished-game records and
//! transcripts. It depends on nothing above the protocol and the store's records, so both
//! layers can use it without depending on each other.

use axum::extract::ws::Utf8Bytes;
use reversi::clock::Millis;
use reversi::core::Color;
use reversi::room::{self, CloseReason, EndReason, Occupant, Room, RoomError, RoomId};
use reversi::room_adapters::ReversiGame;
use reversi::view::{self, BoardView, ClockView};
use serde_json::Value;

use crate::db::GameRecord;
use crate::protocol::{
    self, color_name, Count, ErrorCode, HistoryPly, LegalMove, Level, MemberView, Placement,
    Refusal, ResultView, SeatView, ServerMsg, State as StateMsg, StateKind,
};

pub(crate) fn seat_color(seat: usize) -> Color {
    if seat == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// The refusal for a room error: its serde tag is the code.
pub(crate) fn room_refusal(e: &RoomError) -> Refusal {
    let code = serde_json::to_value(e)
        .ok()
        .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| "refused".to_owned());
    Refusal::new(code, e.to_string())
}

/// The refusal of a `rematch` naming something that is not an online game.
pub(crate) fn not_online_for_rematch(room: &str) -> Refusal {
    Refusal::new(
        ErrorCode::NoRematch,
        format!("{room:?} is not an online game (a rematch is for online games)"),
    )
}

/// The refusal of a `rematch` of the online game `room` that the rematch rule
/// ([`reversi::room::RematchOffer`]) or the lobby refused: `no_rematch` when there is no rematch
/// of that game for the player to offer or accept now, `rematch_offered` for a second offer.
pub(crate) fn rematch_refusal(room: &str, e: &RoomError) -> Refusal {
    let no = |m: String| Refusal::new(ErrorCode::NoRematch, m);
    match e {
        RoomError::NoRematch { .. } => no(format!("no finished online game {room} to play again")),
        RoomError::NotRematchPlayer { .. } => no(format!("you did not play in {room}")),
        RoomError::RematchSpent { .. } => no(format!("the rematch of {room} was played already")),
        RoomError::RematchOpponentBusy { .. } => {
            no("your opponent is not connected, or busy with another game".to_owned())
        }
        RoomError::RematchOffered { .. } => Refusal::new(
            ErrorCode::RematchOffered,
            "you offered a rematch already: it is up to your opponent",
        ),
        e => room_refusal(e),
    }
}

pub(crate) fn online_id(r: RoomId) -> String {
    format!("R{}", r.0)
}

pub(crate) fn parse_online_id(s: &str) -> Option<RoomId> {
    s.strip_prefix('R')?.parse().ok().map(RoomId)
}

/// The refusal of a command in a game that is over.
pub(crate) fn game_over(game: &str) -> Refusal {
    let shown: String = game.chars().take(40).collect();
    Refusal::new(
        ErrorCode::GameOver,
        format!("the game {shown} is over: read its result with `record` and your token"),
    )
}

pub(crate) fn log_end(id: &str, result: &room::GameResult) {
    tracing::info!(
        room = %id,
        game = result.game,
        reason = %result.reason,
        winner = ?result.outcome.winner().map(|s| color_name(seat_color(s))),
        "game over"
    );
}

pub(crate) fn occupant_name(o: &Option<Occupant>) -> String {
    match o {
        Some(Occupant::Person { player }) => format!("guest:{}", player.0),
        Some(Occupant::Bot { level }) => format!("bot:{level}"),
        None => "empty".into(),
        #[allow(unreachable_patterns)]
        Some(_) => "other".into(),
    }
}

fn reason_json(reason: &EndReason) -> Value {
    serde_json::to_value(reason).unwrap_or(Value::Null)
}

/// The wire name of an end reason: the room crate's snake-case name, except `resignation` (the
/// name local games use too) for the room crate's `resigned`.
fn reason_name(reason: &EndReason) -> String {
    match reason_json(reason)["reason"].as_str().unwrap_or("unknown") {
        "resigned" => "resignation".to_owned(),
        other => other.to_owned(),
    }
}

/// A game's moves as the games table keeps them: squares, and `pass` for each pass (the name the
/// protocol's history uses).
pub fn transcript(game: &reversi::core::Game) -> String {
    // Squares are written in lower case: an upper-case `PS` can only be a pass.
    game.transcript_with_passes().replace("PS", "pass")
}

pub(crate) fn record(
    id: &str,
    kind: &str,
    room: &Room<ReversiGame>,
    result: &room::GameResult,
) -> GameRecord {
    let game = room.game().map(|g| g.record().clone()).unwrap_or_default();
    let pos = game.position();
    let seats = room.seats();
    GameRecord {
        game: id.to_owned(),
        game_no: result.game,
        kind: kind.to_owned(),
        black: occupant_name(seats.first().unwrap_or(&None)),
        white: occupant_name(seats.get(1).unwrap_or(&None)),
        start_board: game.start().to_board_string(),
        transcript: transcript(&game),
        reason: reason_name(&result.reason),
        winner: result
            .outcome
            .winner()
            .map(|s| color_name(seat_color(s)).to_owned()),
        black_discs: pos.count(Color::Black),
        white_discs: pos.count(Color::White),
        started_ms: room.game_started_at().map_or(result.at.0, |t| t.0),
        ended_ms: result.at.0,
        black_clock_ms: room
            .clock()
            .and_then(|c| c.remaining(0, result.at))
            .map(|s| s.as_millis()),
        white_clock_ms: room
            .clock()
            .and_then(|c| c.remaining(1, result.at))
            .map(|s| s.as_millis()),
    }
}

/// The state message of an online or hosted room (the message is built for every change of
/// every room: the board's parts are moved out of the facade's view, not copied).
pub fn state_msg(kind: StateKind, id: &str, room: &Room<ReversiGame>, now: Millis) -> StateMsg {
    let seats = room
        .seats()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let color = seat_color(i);
            match s {
                Some(Occupant::Person { player }) => SeatView::Person {
                    player: player.0,
                    connected: room.member(*player).is_some_and(|m| m.connected()),
                    color,
                },
                // A bot is only ever seated by `add_bot`, with one of the protocol's levels.
                Some(Occupant::Bot { level }) => SeatView::Bot {
                    level: Level::from_name(level).unwrap_or(Level::Easy),
                    color,
                },
                None => SeatView::Empty { color },
            }
        })
        .collect();
    let members = room
        .members()
        .map(|(p, m)| MemberView {
            player: p.0,
            connected: m.connected(),
            grace_until: m.grace_until().map(|t| t.0),
        })
        .collect();
    // An online room closes as soon as its one game ends: it shows as `over` (its result is
    // final); `closed` is a hosted room that closed (nobody came back in time).
    let status = if room.closed() == Some(CloseReason::GameOver) {
        "over"
    } else if room.closed().is_some() {
        "closed"
    } else if room.paused().is_some() {
        "paused"
    } else if room.in_game() {
        "playing"
    } else if room.result().is_some() {
        "over"
    } else {
        "waiting"
    };
    let mut state = StateMsg {
        kind,
        room: Some(id.to_owned()),
        game: id.to_owned(),
        version: room.version(),
        turn_version: room.turn_version(),
        status: status.to_owned(),
        host: room.host().map(|p| p.0),
        seats,
        members,
        reservation: room.reservation().map(|p| p.0),
        bot_leaving: Some(room.bot_leaving()),
        paused: room.paused().and_then(|c| {
            serde_json::to_value(c)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
        }),
        game_no: Some(room.games_started()),
        action_limit_ms: Some(room.settings().action_limit.as_millis()),
        deadline: room.action_deadline().map(|t| t.0),
        game_limit_at: room.game_limit_at().map(|t| t.0),
        server_time: Some(now.0),
        result: room.result().map(|r| ResultView {
            game: Some(r.game),
            winner: r.outcome.winner().map(seat_color),
            reason: reason_name(&r.reason),
            seat: reason_json(&r.reason)
                .get("seat")
                .and_then(Value::as_u64)
                .and_then(|s| usize::try_from(s).ok()),
        }),
        clock: room.clock().map(|c| clock_view(ClockView::of(c, now))),
        board: None,
        to_move: None,
        count: None,
        legal: Vec::new(),
        squares: Vec::new(),
        last: None,
        passed: None,
        history: Vec::new(),
        rid: None,
    };
    if let Some(g) = room.game() {
        let BoardView {
            board,
            to_move,
            count,
            legal,
            squares,
            last,
            passed,
            history,
            ..
        } = BoardView::of(g.record());
        state.board = Some(board);
        // The game is over (on the board, on time, by resignation…): nobody is to move.
        state.to_move = to_move.filter(|_| room.in_game());
        state.count = Some(Count {
            black: count.black,
            white: count.white,
        });
        if room.in_game() && room.paused().is_none() {
            state.legal = legal
                .into_iter()
                .map(|m| {
                    let view::LegalMove { square, flips, .. } = m;
                    LegalMove { square, flips }
                })
                .collect();
        }
        state.squares = squares;
        state.last = last.map(|p| {
            let view::Placement {
                color,
                square,
                flips,
                ..
            } = p;
            Placement {
                color,
                square,
                flips,
            }
        });
        state.passed = passed;
        state.history = history
            .into_iter()
            .map(|p| {
                let view::HistoryPly { color, mv, .. } = p;
                HistoryPly { color, mv }
            })
            .collect();
    }
    state
}

/// A clock's readings as the protocol shows them.
fn clock_view(c: ClockView) -> protocol::ClockView {
    let ClockView {
        control,
        black_ms,
        white_ms,
        running,
        paused,
        server_time,
        ..
    } = c;
    protocol::ClockView {
        control,
        black_ms,
        white_ms,
        running,
        paused,
        server_time,
    }
}

/// A state message as the text of a frame.
pub(crate) fn state_text(state: &StateMsg) -> Utf8Bytes {
    Utf8Bytes::from(state.to_text())
}

/// The `matched` message of the player in `seat` of the online room `room`.
pub(crate) fn matched(room: String, seat: usize) -> ServerMsg {
    ServerMsg::Matched {
        room,
        seat,
        color: seat_color(seat),
        rid: None,
    }
}

/// The state message of an online or hosted room, as a JSON value.
#[cfg(test)]
pub fn room_json(kind: &str, id: &str, room: &Room<ReversiGame>, now: Millis) -> Value {
    let kind = if kind == "hosted" {
        StateKind::Hosted
    } else {
        StateKind::Online
    };
    let msg = ServerMsg::State(Box::new(state_msg(kind, id, room, now)));
    serde_json::to_value(msg).expect("a state serialises")
}
