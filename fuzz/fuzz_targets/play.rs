//! Random games by the rules: the fuzz bytes choose among the legal moves, an illegal placement,
//! a pass, an undo and an undo of a colour's turn, and the rules' invariants are checked at every
//! position: the discs never overlap and count 64 with the empties; a legal move flips at least
//! one disc and exactly what `flips` says; an illegal one is refused with the game unchanged;
//! undo gives back exactly the game before the move; the game is over exactly when neither
//! side can move; the eight symmetry images agree on legal moves and flips; every move
//! generation kernel agrees; the record replays and prints back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::core::movegen;
use reversi::core::perft::{perft_raw, Convention, Kernel};
use reversi::core::{Color, Game, Move, Outcome, PlayError, Position, Square, Symmetry, UndoError};
use reversi_fuzz::{check_game, Bytes};

fn check_square(pos: &Position, sq: Square) {
    let legal = pos.legal_moves();
    let f = pos.flips(sq);
    if pos.empty().contains(sq) {
        // `movegen::flips` assumes an empty square.
        assert_eq!(
            f.0,
            movegen::flips(pos.player().0, pos.opponent().0, sq.index())
        );
    } else {
        assert!(f.is_empty());
    }
    assert!((f & !pos.opponent()).is_empty());
    let mut in_order = pos.flips_in_order(sq);
    in_order.sort();
    assert_eq!(in_order, f.iter().collect::<Vec<_>>());
    assert_eq!(pos.is_legal(sq), legal.contains(sq));
    if legal.contains(sq) {
        assert!(f.count() >= 1);
        let next = pos.play(Move::Place(sq)).unwrap();
        assert_eq!(next.side_to_move(), !pos.side_to_move());
        assert_eq!(
            next.opponent().count(),
            pos.player().count() + f.count() + 1
        );
        assert_eq!(next.player().count(), pos.opponent().count() - f.count());
        assert_eq!(next, pos.make_move(sq, f));
    } else {
        assert!(pos.play(Move::Place(sq)).is_err());
    }
}

fn check_position(pos: &Position, deep: bool) {
    let (b, w) = (pos.black(), pos.white());
    assert!((b & w).is_empty());
    assert_eq!(b.count() + w.count() + pos.empty().count(), 64);
    assert_eq!(Position::new(b, w, pos.side_to_move()), Ok(*pos));
    assert_eq!(pos.to_board_string().parse::<Position>(), Ok(*pos));
    let legal = pos.legal_moves();
    assert!((legal & !pos.empty()).is_empty());
    assert_eq!(
        legal.0,
        movegen::legal_moves(pos.player().0, pos.opponent().0)
    );
    assert_eq!(pos.can_move(), !legal.is_empty());
    assert_eq!(pos.legal_move_list().len(), legal.count() as usize);
    let over = !pos.can_move() && !pos.pass().can_move();
    assert_eq!(pos.is_game_over(), over);
    assert_eq!(pos.outcome().is_some(), over);
    assert_eq!(pos.must_pass(), !pos.can_move() && !over);
    if let Some(o) = pos.outcome() {
        let expected = match b.count().cmp(&w.count()) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::Black),
            std::cmp::Ordering::Less => Outcome::Win(Color::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(o, expected);
        assert_eq!(pos.play(Move::Pass), Err(PlayError::GameOver));
    }
    // The legal moves every time, every square at a deep check.
    for sq in legal.iter() {
        check_square(pos, sq);
    }
    if !deep {
        return;
    }
    for sq in Square::ALL {
        check_square(pos, sq);
    }
    for s in Symmetry::ALL {
        let image = s.position(pos);
        assert_eq!(s.inverse().position(&image), *pos);
        assert_eq!(image.legal_moves(), s.bitboard(legal));
        assert_eq!(image.count(Color::Black), b.count());
        assert_eq!(image.is_game_over(), over);
        for sq in legal.iter() {
            assert_eq!(image.flips(s.square(sq)), s.bitboard(pos.flips(sq)));
        }
    }
    let (p, o) = (pos.player().0, pos.opponent().0);
    let reference = perft_raw(p, o, 2, Convention::Edax, Kernel::Portable, None);
    for k in Kernel::available() {
        assert_eq!(
            perft_raw(p, o, 2, Convention::Edax, k, None),
            reference,
            "{k}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let mut game = Game::new();
    // The games before each placement, and who placed.
    let mut history: Vec<(Game, Color)> = Vec::new();
    let mut step = 0;
    while !input.is_empty() && step < 300 {
        step += 1;
        let pos = *game.position();
        check_game(&game);
        check_position(&pos, step % 32 == 1);
        assert_eq!(game.is_over(), pos.is_game_over());
        match input.below(16) {
            0 => {
                // Any square: legal or refused with the game unchanged.
                let sq = Square::ALL[input.below(64)];
                let before = game.clone();
                match game.play(sq) {
                    Ok(turn) => {
                        assert!(pos.is_legal(sq));
                        assert_eq!(turn.flips.len() as u32, pos.flips(sq).count());
                        history.push((before, pos.side_to_move()));
                    }
                    Err(_) => {
                        assert!(!pos.is_legal(sq));
                        assert_eq!(game, before);
                    }
                }
            }
            1 => {
                let before = game.clone();
                let r = pos.play(Move::Pass);
                assert_eq!(r.is_ok(), pos.must_pass());
                // The record passes by itself: a pass is never the side to move's here.
                assert!(r.is_err());
                assert_eq!(game, before);
            }
            2 | 3 => {
                let r = game.undo();
                match history.pop() {
                    Some((before, _)) => {
                        assert_eq!(r, Ok(()));
                        assert_eq!(game, before, "undo did not restore the game");
                    }
                    None => {
                        assert_eq!(r, Err(UndoError::NothingToUndo));
                        assert_eq!(game, Game::new());
                    }
                }
            }
            4 => {
                let color = if input.below(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let plies = game.plies().len();
                let r = game.undo_turn(color);
                match history.iter().rposition(|&(_, c)| c == color) {
                    Some(i) => {
                        let (before, _) = history[i].clone();
                        history.truncate(i);
                        assert_eq!(r, Ok(plies - before.plies().len()));
                        assert_eq!(game, before, "undo_turn did not restore the game");
                    }
                    None => assert_eq!(r, Err(UndoError::NoPlacementBy(color))),
                }
            }
            _ => {
                let moves: Vec<Square> = pos.legal_moves().iter().collect();
                if moves.is_empty() {
                    assert!(game.is_over());
                    assert!(game.play(Square::ALL[input.below(64)]).is_err());
                    continue;
                }
                let sq = moves[input.below(moves.len())];
                let before = game.clone();
                let turn = game.play(sq).unwrap();
                assert_eq!(turn.color, pos.side_to_move());
                assert_eq!(turn.square, sq);
                assert_eq!(turn.outcome.is_some(), game.is_over());
                assert_eq!(turn.outcome, game.outcome());
                if let Some(c) = turn.passed {
                    assert_eq!(
                        game.plies().last().map(|p| (p.color, p.mv)),
                        Some((c, Move::Pass))
                    );
                }
                history.push((before, pos.side_to_move()));
            }
        }
    }
    check_game(&game);
    check_position(game.position(), true);
    // The record replays, prints and reads back.
    let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
    assert_eq!(Game::replay(Position::initial(), moves).as_ref(), Ok(&game));
    assert_eq!(
        Game::from_transcript(&game.transcript()).as_ref(),
        Ok(&game)
    );
    assert_eq!(
        Game::from_transcript(&game.transcript_with_passes()).as_ref(),
        Ok(&game)
    );
});
