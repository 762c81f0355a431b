//! The NBoard client (`nboard::Client`, what `arena --b nboard:COMMAND` drives an external
//! engine with) against this library's NBoard engine (`nboard::Driver`), in-process: whole games
//! where every line goes through both sides, and engines that answer wrongly.

use reversi_ai::nboard::{Client, Driver, NBoardError, Reply};
use reversi_ai::{Engine, Level, Limits};
use reversi_core::{Game, Move, Position};
use std::sync::atomic::AtomicBool;

/// Hands `lines` to the engine and every answer to the client; returns the replies that are not
/// `Pending`, and the lines the engine wrote.
fn exchange(
    client: &mut Client,
    engine: &mut Driver,
    lines: Vec<String>,
) -> (Vec<Reply>, Vec<String>) {
    let mut replies = Vec::new();
    let mut written = Vec::new();
    for line in lines {
        for answer in engine
            .handle(&line)
            .expect("the engine understands the client")
        {
            let r = client
                .read(&answer)
                .expect("the client understands the engine");
            if r != Reply::Pending {
                replies.push(r);
            }
            written.push(answer);
        }
    }
    (replies, written)
}

#[test]
fn a_whole_game_through_the_protocol_against_normal() {
    let mut client = Client::new(Some(2));
    let mut engine = Driver::new();
    let start = client.start();
    assert_eq!(start, ["nboard 2", "set depth 2", "ping 1"]);
    let (replies, written) = exchange(&mut client, &mut engine, start);
    assert_eq!(replies, [Reply::Ready]);
    assert_eq!(written, ["set myname reversi-expert", "pong 1"]);
    assert!(!client.is_waiting());

    // The external engine plays black, Normal white; every move goes through the protocol.
    let mut normal = Level::Normal.engine(5);
    let mut game = Game::new();
    let (mut asked, mut passes) = (0, 0);
    while !game.is_over() {
        let pos = *game.position();
        let mv = if pos.side_to_move() == reversi_core::Color::Black {
            let lines = client.ask(&pos).unwrap();
            assert!(client.is_waiting());
            let (replies, written) = exchange(&mut client, &mut engine, lines);
            assert_eq!(
                engine.position(),
                &pos,
                "set game gave the engine the position"
            );
            assert!(written.iter().any(|l| l.starts_with("=== ")), "{written:?}");
            assert_eq!(replies.len(), 1, "{replies:?}");
            let Reply::Move(mv) = replies[0] else {
                panic!("not a move: {replies:?}")
            };
            asked += 1;
            passes += usize::from(mv == Move::Pass);
            mv
        } else {
            normal
                .choose(&pos, &Limits::NONE, &AtomicBool::new(false))
                .unwrap()
                .best_move
        };
        game.play(mv).expect("every move is legal");
    }
    assert!(asked >= 20, "{asked} moves asked");
    assert!(passes <= 2);
    // The finished game: nothing more to ask.
    assert!(matches!(
        client.ask(game.position()),
        Err(NBoardError::Engine(_))
    ));
}

#[test]
fn a_position_where_the_engine_must_pass() {
    // Black, to move, has no move here (white has h8): the engine passes.
    let pos: Position = format!("{}X- X", "O".repeat(62)).parse().unwrap();
    assert!(pos.must_pass());
    let mut client = Client::new(Some(2));
    let mut engine = Driver::new();
    let start = client.start();
    exchange(&mut client, &mut engine, start);
    let lines = client.ask(&pos).unwrap();
    let (replies, _) = exchange(&mut client, &mut engine, lines);
    assert_eq!(replies, [Reply::Move(Move::Pass)]);
}

#[test]
fn wrong_answers_from_an_engine_are_typed_errors() {
    let pos = Position::initial();
    let mut c = Client::new(None);
    // An occupied square, a pass while moves exist, a word that is no move.
    for (line, illegal) in [("=== D4", true), ("=== PA/0/0", true), ("=== Z9", false)] {
        c.ask(&pos).unwrap();
        let e = c.read(line).unwrap_err();
        if illegal {
            assert!(matches!(e, NBoardError::IllegalMove { .. }), "{line}: {e}");
        } else {
            assert!(matches!(e, NBoardError::BadArgument(_)), "{line}: {e}");
        }
        assert!(!c.is_waiting());
    }
    // A move nobody asked for.
    assert!(matches!(c.read("=== F5"), Err(NBoardError::Unexpected(_))));
    // A pong of another ping does not open the session.
    let _ = c.start();
    assert_eq!(c.read("pong 0").unwrap(), Reply::Pending);
    assert_eq!(c.read("pong 1").unwrap(), Reply::Ready);
}
