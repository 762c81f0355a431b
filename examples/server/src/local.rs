//! Games of one connection: against the computer, or two players sharing a screen. A pure state
//! machine in the sans-IO style of the crates: every call that changes state takes `now`, and
//! [`LocalGame::poll_timeout`] says when [`LocalGame::tick`] must be called next.

use reversi::clock::{parse_total_time, Clock, ClockEvent, Millis, Span, TimeControl};
use reversi::core::{Color, Error as CoreError, Game, Move, Position, Square};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::protocol::{color_name, Level, LocalMode, Refusal, TimeSpec};
use crate::view::{board_json, clock_json, side_of};

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Neither side can move: decided by the discs.
    Board,
    /// A side ran out of time.
    Timeout,
    /// A side resigned.
    Resignation,
    /// The connection closed the game, or it was left unattended too long.
    Abandoned,
}

impl EndReason {
    /// The name on the wire and in the database.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Board => "board",
            EndReason::Timeout => "timeout",
            EndReason::Resignation => "resignation",
            EndReason::Abandoned => "abandoned",
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, `None` for a draw or no result.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: EndReason,
    /// When it ended.
    pub at: Millis,
}

/// A game of one connection, whole: what is saved in the database after every accepted command.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocalGame {
    /// Its id, `L…`.
    pub id: String,
    /// The secret that re-attaches a connection (after a refresh or a restart).
    pub token: String,
    /// Against the computer, or two players.
    pub mode: LocalMode,
    /// The human's colour against the computer.
    pub human: Color,
    /// The computer's level.
    pub level: Level,
    /// The time control as asked for.
    pub time: TimeSpec,
    /// The game record.
    pub game: Game,
    /// The clock; side 0 is black.
    pub clock: Clock,
    /// The state version: bumped by every change.
    pub version: u64,
    /// Set once the game is over.
    pub result: Option<GameResult>,
    /// When it was created.
    pub created: Millis,
}

/// The control of a requested time spec.
pub fn control_of(spec: &TimeSpec, test_endpoints: bool) -> Result<TimeControl, Refusal> {
    let per_move = |secs: u64| {
        if matches!(secs, 15 | 30 | 60) {
            Ok(Span::from_secs(secs))
        } else {
            Err(Refusal::new(
                "bad_time",
                format!("time per move must be 15, 30 or 60 seconds, not {secs}"),
            ))
        }
    };
    let total = |input: &str| {
        parse_total_time(input)
            .map_err(|e| Refusal::new("bad_time", format!("total time {input:?}: {e}")))
    };
    Ok(match spec {
        TimeSpec::Unlimited => TimeControl::Unlimited,
        TimeSpec::PerMove { secs } => TimeControl::per_move(per_move(*secs)?),
        TimeSpec::Total { input } => TimeControl::total(total(input)?),
        TimeSpec::Combined { secs, input } => {
            TimeControl::combined(per_move(*secs)?, total(input)?)
        }
        TimeSpec::PerMoveMs { ms } => {
            if !test_endpoints {
                return Err(Refusal::new(
                    "test_endpoints_disabled",
                    "per_move_ms needs a server started with --test-endpoints",
                ));
            }
            if *ms == 0 {
                return Err(Refusal::new("bad_time", "per_move_ms must be positive"));
            }
            TimeControl::per_move(Span::from_millis(*ms))
        }
    })
}

fn core_refusal(e: CoreError) -> Refusal {
    match e {
        CoreError::GameOver => Refusal::new("game_over", "the game is over"),
        CoreError::NothingToUndo => Refusal::new("nothing_to_undo", "there is no move to undo"),
        other => Refusal::new("illegal_move", other.to_string()),
    }
}

/// Who sends a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// The connection.
    Person,
    /// The computer, with its answer for this state version.
    Computer,
}

impl LocalGame {
    /// A new game from `start`, its clock started at `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: String,
        token: String,
        mode: LocalMode,
        human: Color,
        level: Level,
        time: TimeSpec,
        control: TimeControl,
        start: Position,
        now: Millis,
    ) -> LocalGame {
        let game = Game::from_position(start);
        let mut clock = Clock::new(control, 2);
        let mut result = None;
        if game.is_over() {
            let _ = clock.stop(now);
            result = Some(GameResult {
                winner: game.outcome().and_then(|o| o.winner()),
                reason: EndReason::Board,
                at: now,
            });
        } else {
            let _ = clock.start(now, side_of(game.position().side_to_move()));
        }
        LocalGame {
            id,
            token,
            mode,
            human,
            level,
            time,
            game,
            clock,
            version: 1,
            result,
            created: now,
        }
    }

    /// Notices a flag that fell at or before `now`. Returns whether the state changed.
    pub fn tick(&mut self, now: Millis) -> bool {
        self.clock.handle_timeout(now);
        let mut changed = false;
        while let Some(ev) = self.clock.poll_event() {
            if let ClockEvent::Flagged { side, at } = ev {
                if self.result.is_none() {
                    let loser = if side == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    self.result = Some(GameResult {
                        winner: Some(!loser),
                        reason: EndReason::Timeout,
                        at,
                    });
                    self.version += 1;
                    changed = true;
                }
            }
        }
        changed
    }

    /// When [`tick`](Self::tick) must be called next.
    pub fn poll_timeout(&self) -> Option<Millis> {
        if self.result.is_some() {
            None
        } else {
            self.clock.poll_timeout()
        }
    }

    fn check_version(&self, version: u64) -> Result<(), Refusal> {
        if version != self.version {
            return Err(Refusal::new(
                "stale_version",
                format!(
                    "the move was made on version {version}, the game is at version {}: ask for the state with sync",
                    self.version
                ),
            ));
        }
        Ok(())
    }

    fn check_playing(&self) -> Result<(), Refusal> {
        if self.result.is_some() {
            return Err(Refusal::new("game_over", "the game is over"));
        }
        Ok(())
    }

    /// The computer's turn, if it is one: the position to think about and the level.
    pub fn computer_to_move(&self) -> Option<(Position, Level)> {
        if self.mode != LocalMode::Computer || self.result.is_some() {
            return None;
        }
        let pos = *self.game.position();
        (pos.side_to_move() != self.human && !pos.is_game_over()).then_some((pos, self.level))
    }

    /// Plays `square` for the side to move. Call [`tick`](Self::tick) first.
    ///
    /// # Errors
    ///
    /// `stale_version`, `game_over`, `not_your_turn` (the computer is to move),
    /// `illegal_move`; the game is then unchanged.
    pub fn play(
        &mut self,
        actor: Actor,
        square: Square,
        version: u64,
        now: Millis,
    ) -> Result<(), Refusal> {
        self.check_playing()?;
        self.check_version(version)?;
        let side = self.game.position().side_to_move();
        if self.mode == LocalMode::Computer {
            let computer_turn = side != self.human;
            if computer_turn && actor == Actor::Person {
                return Err(Refusal::new(
                    "not_your_turn",
                    format!("it is the computer's turn ({})", color_name(side)),
                ));
            }
            if !computer_turn && actor == Actor::Computer {
                return Err(Refusal::new("not_your_turn", "it is the person's turn"));
            }
        }
        self.game.play(square).map_err(core_refusal)?;
        let next = self.game.position().side_to_move();
        if self.clock.switch(now, side_of(next)).is_err() {
            // The flag fell at `now` exactly: tick() saw it first, so this cannot happen; the
            // move stands either way and the clock is settled below.
        }
        if self.game.is_over() {
            let _ = self.clock.stop(now);
            self.result = Some(GameResult {
                winner: self.game.outcome().and_then(|o| o.winner()),
                reason: EndReason::Board,
                at: now,
            });
        }
        self.version += 1;
        Ok(())
    }

    /// Takes back the person's last move and the computer's reply (against the computer), or
    /// the last move (two players), with the clock balances of that moment.
    ///
    /// # Errors
    ///
    /// `stale_version`, `game_over`, `nothing_to_undo`; the game is then unchanged.
    pub fn undo(&mut self, version: u64, now: Millis) -> Result<(), Refusal> {
        self.check_playing()?;
        self.check_version(version)?;
        let before = count_placements(&self.game);
        let mut game = self.game.clone();
        match self.mode {
            LocalMode::Computer => game.undo_turn(self.human).map(|_| ()),
            LocalMode::TwoPlayers => game.undo(),
        }
        .map_err(core_refusal)?;
        let undone = before - count_placements(&game);
        self.clock
            .undo(now, undone)
            .map_err(|e| Refusal::new("nothing_to_undo", e.to_string()))?;
        self.game = game;
        self.version += 1;
        Ok(())
    }

    /// The side to move resigns (against the computer: the person).
    ///
    /// # Errors
    ///
    /// `game_over`.
    pub fn resign(&mut self, now: Millis) -> Result<(), Refusal> {
        self.check_playing()?;
        let loser = match self.mode {
            LocalMode::Computer => self.human,
            LocalMode::TwoPlayers => self.game.position().side_to_move(),
        };
        let _ = self.clock.stop(now);
        self.result = Some(GameResult {
            winner: Some(!loser),
            reason: EndReason::Resignation,
            at: now,
        });
        self.version += 1;
        Ok(())
    }

    /// Ends an unfinished game without a result.
    pub fn abandon(&mut self, now: Millis) -> bool {
        if self.result.is_some() {
            return false;
        }
        let _ = self.clock.stop(now);
        self.result = Some(GameResult {
            winner: None,
            reason: EndReason::Abandoned,
            at: now,
        });
        self.version += 1;
        true
    }

    /// Whether an undo would be accepted now.
    pub fn can_undo(&self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let mut g = self.game.clone();
        match self.mode {
            LocalMode::Computer => g.undo_turn(self.human).is_ok(),
            LocalMode::TwoPlayers => g.undo().is_ok(),
        }
    }

    /// The full state message.
    pub fn state_json(&self, now: Millis, thinking: bool) -> Value {
        let mut v = json!({
            "type": "state",
            "kind": "local",
            "game": self.id,
            "version": self.version,
            "mode": self.mode,
            "human": (self.mode == LocalMode::Computer).then(|| color_name(self.human)),
            "level": (self.mode == LocalMode::Computer).then(|| self.level.name()),
            "time": self.time,
            "status": if self.result.is_some() { "over" } else { "playing" },
            "result": self.result.map(|r| json!({
                "winner": r.winner.map(color_name),
                "reason": r.reason.name(),
            })),
            "clock": clock_json(&self.clock, now),
            "can_undo": self.can_undo(),
            "thinking": thinking,
        });
        if let (Value::Object(dst), Value::Object(src)) = (&mut v, board_json(&self.game)) {
            dst.extend(src);
        }
        v
    }

    /// The players' names for the record.
    pub fn seat_names(&self) -> (String, String) {
        match self.mode {
            LocalMode::TwoPlayers => ("local".into(), "local".into()),
            LocalMode::Computer => {
                let cpu = format!("computer:{}", self.level.name());
                if self.human == Color::Black {
                    ("person".into(), cpu)
                } else {
                    (cpu, "person".into())
                }
            }
        }
    }
}

fn count_placements(g: &Game) -> usize {
    g.plies().iter().filter(|p| p.mv != Move::Pass).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(mode: LocalMode, time: TimeSpec) -> LocalGame {
        let control = control_of(&time, true).unwrap();
        LocalGame::new(
            "L1".into(),
            "t".into(),
            mode,
            Color::Black,
            Level::Easy,
            time,
            control,
            Position::initial(),
            Millis(1_000_000),
        )
    }

    #[test]
    fn undo_restores_the_clock_of_a_pair() {
        let mut g = game(
            LocalMode::Computer,
            TimeSpec::Total {
                input: "1".to_string(),
            },
        );
        let sq = |s: &str| s.parse::<Square>().unwrap();
        g.play(Actor::Person, sq("f5"), 1, Millis(1_010_000))
            .unwrap();
        assert_eq!(
            g.play(Actor::Person, sq("f6"), 2, Millis(1_011_000))
                .unwrap_err()
                .code,
            "not_your_turn"
        );
        g.play(Actor::Computer, sq("f6"), 2, Millis(1_012_000))
            .unwrap();
        assert_eq!(
            g.clock.remaining(0, Millis(1_012_000)),
            Some(Span::from_secs(50))
        );
        g.undo(3, Millis(1_020_000)).unwrap();
        assert_eq!(*g.game.position(), Position::initial());
        assert_eq!(
            g.clock.remaining(0, Millis(1_020_000)),
            Some(Span::from_secs(60))
        );
        assert_eq!(
            g.clock.remaining(1, Millis(1_020_000)),
            Some(Span::from_secs(60))
        );
        assert_eq!(
            g.undo(4, Millis(1_020_000)).unwrap_err().code,
            "nothing_to_undo"
        );
    }

    #[test]
    fn two_players_undo_one_move_and_time_out() {
        let mut g = game(LocalMode::TwoPlayers, TimeSpec::PerMove { secs: 15 });
        let sq = |s: &str| s.parse::<Square>().unwrap();
        g.play(Actor::Person, sq("f5"), 1, Millis(1_001_000))
            .unwrap();
        g.play(Actor::Person, sq("f6"), 2, Millis(1_002_000))
            .unwrap();
        g.undo(3, Millis(1_003_000)).unwrap();
        assert_eq!(g.game.transcript(), "f5");
        assert_eq!(g.poll_timeout(), Some(Millis(1_018_000)));
        assert!(!g.tick(Millis(1_017_999)));
        assert!(g.tick(Millis(1_018_000)));
        let r = g.result.unwrap();
        assert_eq!(
            (r.winner, r.reason),
            (Some(Color::Black), EndReason::Timeout)
        );
        assert_eq!(
            g.play(Actor::Person, sq("f6"), g.version, Millis(1_019_000))
                .unwrap_err()
                .code,
            "game_over"
        );
    }

    #[test]
    fn bad_time_specs_are_refused() {
        assert_eq!(
            control_of(&TimeSpec::PerMove { secs: 20 }, false)
                .unwrap_err()
                .code,
            "bad_time"
        );
        assert_eq!(
            control_of(
                &TimeSpec::Total {
                    input: "ten".into()
                },
                false
            )
            .unwrap_err()
            .code,
            "bad_time"
        );
        assert_eq!(
            control_of(&TimeSpec::PerMoveMs { ms: 100 }, false)
                .unwrap_err()
                .code,
            "test_endpoints_disabled"
        );
        assert_eq!(
            control_of(
                &TimeSpec::Combined {
                    secs: 30,
                    input: "5:30".into()
                },
                false
            )
            .unwrap(),
            TimeControl::combined(Span::from_secs(30), Span::from_secs(330))
        );
    }
}
