//! Finished games, read with a player's token: `record` (one game) and `games` (the player's
//! recent games). The games table keeps every finished game and the guests table every token, so
//! a player who was away when a game ended learns its result with the token, long after the room
//! and the lobby's guest are gone.

use reversi::core::{Color, Game, Position};

use crate::db::{GameRecord, Reader};
use crate::protocol::{
    ClientMsg, Count, ErrorCode, GameRecordView, HistoryPly, Refusal, ServerMsg,
};

/// How many games `games` returns by default, and at most.
const DEFAULT_LIMIT: u32 = 20;
const MAX_LIMIT: u32 = 50;

/// The answer to a `record` or `games` request (blocking: run it on the blocking pool).
pub fn answer(reader: &Reader, msg: &ClientMsg) -> Result<ServerMsg, Refusal> {
    let player_of = |token: &str| -> Result<u64, Refusal> {
        reader
            .player_of(token)
            .map_err(db_err)?
            .ok_or_else(wrong_token)
    };
    match msg {
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
            let row = rows.into_iter().next().ok_or_else(|| no_record(game))?;
            record_msg(&row)
        }
        ClientMsg::Games { token, limit, .. } => {
            let limit = games_limit(*limit)?;
            let player = player_of(token)?;
            let rows = reader.games_of(player, None, None, limit).map_err(db_err)?;
            games_msg(player, &rows)
        }
        _ => Err(Refusal::new(
            ErrorCode::Internal,
            "not a read of finished games",
        )),
    }
}

/// A database error as a refusal.
pub(crate) fn db_err(e: rusqlite::Error) -> Refusal {
    Refusal::new(ErrorCode::Internal, format!("the database: {e}"))
}

/// The refusal for a token no guest was given.
pub(crate) fn wrong_token() -> Refusal {
    Refusal::new(ErrorCode::WrongToken, "no guest was ever given this token")
}

/// The refusal for a game the token's player has no record of.
pub(crate) fn no_record(game: &str) -> Refusal {
    let shown: String = game.chars().take(40).collect();
    Refusal::new(
        ErrorCode::NoSuchGame,
        format!("no finished game {shown:?} of this token's player"),
    )
}

/// The number of games a `games` request asks for, checked.
pub(crate) fn games_limit(limit: Option<u32>) -> Result<u32, Refusal> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Refusal::new(
            ErrorCode::BadMessage,
            format!("limit must be from 1 to {MAX_LIMIT}, not {limit}"),
        ));
    }
    Ok(limit)
}

/// The `record` message of one game.
pub(crate) fn record_msg(row: &GameRecord) -> Result<ServerMsg, Refusal> {
    Ok(ServerMsg::Record(Box::new(view(row))))
}

/// The `games` message of a player's games (newest first).
pub(crate) fn games_msg(player: u64, rows: &[GameRecord]) -> Result<ServerMsg, Refusal> {
    Ok(ServerMsg::Games {
        player,
        games: rows.iter().map(view).collect(),
        rid: None,
    })
}

/// Two lists of games (each newest first) as one: each game once, newest first, at most `limit`.
pub(crate) fn merge(a: Vec<GameRecord>, b: Vec<GameRecord>, limit: u32) -> Vec<GameRecord> {
    let mut all = a;
    for r in b {
        if !all
            .iter()
            .any(|x| x.game == r.game && x.game_no == r.game_no)
        {
            all.push(r);
        }
    }
    // Stable: games that ended at the same instant keep their order.
    all.sort_by_key(|r| std::cmp::Reverse(r.ended_ms));
    all.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    all
}

/// A recorded game as the protocol shows it; its moves are replayed from the transcript.
pub fn view(r: &GameRecord) -> GameRecordView {
    let start = Position::from_board_string(&r.start_board).unwrap_or_else(|_| Position::initial());
    // A transcript the server wrote always replays; were one not to, the moves stay empty and
    // the transcript is still given as recorded.
    let moves = Game::transcript_from(start, &r.transcript)
        .map(|g| {
            g.plies()
                .iter()
                .map(|p| HistoryPly {
                    color: p.color,
                    mv: p.mv,
                })
                .collect()
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(game: &str, no: u64, ended: u64) -> GameRecord {
        GameRecord {
            game: game.to_owned(),
            game_no: no,
            kind: "random".to_owned(),
            black: "guest:1".to_owned(),
            white: "guest:2".to_owned(),
            start_board: Position::initial().to_board_string(),
            transcript: String::new(),
            reason: "resign".to_owned(),
            winner: None,
            black_discs: 2,
            white_discs: 2,
            started_ms: 0,
            ended_ms: ended,
            black_clock_ms: None,
            white_clock_ms: None,
        }
    }

    #[test]
    fn merged_games_are_each_once_newest_first_and_limited() {
        let local = vec![rec("O3", 1, 30), rec("O1", 1, 10)];
        let remote = vec![rec("O4", 1, 40), rec("O3", 1, 30), rec("O2", 1, 20)];
        let m = merge(local, remote, 3);
        let ids: Vec<&str> = m.iter().map(|r| r.game.as_str()).collect();
        assert_eq!(ids, ["O4", "O3", "O2"]);
        assert_eq!(merge(Vec::new(), vec![rec("O1", 1, 1)], 5).len(), 1);
    }

    #[test]
    fn a_bad_limit_is_refused() {
        assert_eq!(games_limit(None).ok(), Some(DEFAULT_LIMIT));
        assert_eq!(
            games_limit(Some(0)).map_err(|r| r.code).err().as_deref(),
            Some("bad_message")
        );
        assert!(games_limit(Some(MAX_LIMIT + 1)).is_err());
    }
}
