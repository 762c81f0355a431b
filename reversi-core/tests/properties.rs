//! Properties over random legal games, checked against a naive 2-D array implementation of the
//! rules written here, independently of the bitboards.

use proptest::prelude::*;
use reversi_core::notation::{parse_obf, ObfLine};
use reversi_core::perft::Convention;
use reversi_core::{Bitboard, Color, Game, Move, Position, Square, Symmetry};

mod naive;
use naive::{sq, Naive};

/// Plays a random legal game through [`Game`], choosing with `choices`, and returns it; the game
/// may stop before its end when the choices run out.
fn random_game(choices: &[u16]) -> Game {
    let mut game = Game::new();
    for &c in choices {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves
            .iter()
            .nth(c as usize % moves.count() as usize)
            .unwrap();
        game.play(m).unwrap();
    }
    game
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..70)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn legal_moves_agree_with_play(ch in choices()) {
        let game = random_game(&ch);
        for pos in game.positions() {
            let moves = pos.legal_moves();
            for sq in Square::ALL {
                prop_assert_eq!(pos.play(Move::Place(sq)).is_ok(), moves.contains(sq));
                prop_assert_eq!(pos.is_legal(sq), moves.contains(sq));
            }
            prop_assert_eq!(pos.play(Move::Pass).is_ok(), pos.must_pass());
        }
    }

    #[test]
    fn naive_implementation_agrees(ch in choices()) {
        let game = random_game(&ch);
        for pos in game.positions() {
            let naive = Naive::from(pos);
            let who = naive.to_move;
            let naive_moves: Bitboard = naive.moves(who).into_iter().map(|(r, c)| sq(r, c)).collect();
            prop_assert_eq!(pos.legal_moves(), naive_moves);
            for m in naive_moves {
                let f: Bitboard = naive
                    .flips(who, m.row() as i32, m.column() as i32)
                    .into_iter()
                    .map(|(r, c)| sq(r, c))
                    .collect();
                prop_assert_eq!(pos.flips(m), f);
                // Animation order: the same set, by non-decreasing distance.
                let order = pos.flips_in_order(m);
                prop_assert_eq!(order.iter().copied().collect::<Bitboard>(), f);
                prop_assert_eq!(order.len() as u32, f.count());
                let dist = |s: &Square| (s.row() as i32 - m.row() as i32).abs().max((s.column() as i32 - m.column() as i32).abs());
                prop_assert!(order.windows(2).all(|w| dist(&w[0]) <= dist(&w[1])));
            }
            let opp_moves = naive.moves(3 - who);
            prop_assert_eq!(pos.must_pass(), naive_moves.is_empty() && !opp_moves.is_empty());
            prop_assert_eq!(pos.is_game_over(), naive_moves.is_empty() && opp_moves.is_empty());
        }
        // The record's passes are exactly the positions where the side to move had no move.
        for (i, ply) in game.plies().iter().enumerate() {
            let before = &game.positions()[i];
            prop_assert_eq!(ply.color, before.side_to_move());
            prop_assert_eq!(ply.mv == Move::Pass, before.legal_moves().is_empty());
        }
    }

    #[test]
    fn discs_never_overlap_and_moves_add_flips_plus_one(ch in choices()) {
        let game = random_game(&ch);
        for (i, ply) in game.plies().iter().enumerate() {
            let (a, b) = (&game.positions()[i], &game.positions()[i + 1]);
            prop_assert!((b.black() & b.white()).is_empty());
            let mover = ply.color;
            match ply.mv {
                Move::Place(_) => {
                    prop_assert_eq!(b.count(mover), a.count(mover) + ply.flips.count() + 1);
                    prop_assert_eq!(b.count(!mover), a.count(!mover) - ply.flips.count());
                    // Discs never move: occupied squares stay occupied.
                    prop_assert_eq!(a.empty() | b.empty(), a.empty());
                }
                Move::Pass => {
                    prop_assert_eq!(a.black(), b.black());
                    prop_assert_eq!(a.white(), b.white());
                }
            }
            prop_assert_ne!(a.side_to_move(), b.side_to_move());
        }
    }

    #[test]
    fn symmetries_commute_with_move_generation(ch in choices()) {
        let game = random_game(&ch);
        let pos = game.position();
        for s in Symmetry::ALL {
            let img = s.position(pos);
            prop_assert_eq!(img.legal_moves(), s.bitboard(pos.legal_moves()));
            for m in pos.legal_moves() {
                prop_assert_eq!(img.flips(s.square(m)), s.bitboard(pos.flips(m)));
                prop_assert_eq!(img.play(Move::Place(s.square(m))).unwrap(), s.position(&pos.play(Move::Place(m)).unwrap()));
            }
            prop_assert_eq!(s.inverse().position(&img), *pos);
            prop_assert_eq!(
                reversi_core::perft::perft(&img, 2, Convention::Oeis),
                reversi_core::perft::perft(pos, 2, Convention::Oeis)
            );
        }
    }

    #[test]
    fn notation_and_serde_round_trip(ch in choices()) {
        let game = random_game(&ch);
        prop_assert_eq!(&Game::from_transcript(&game.transcript()).unwrap(), &game);
        prop_assert_eq!(&Game::from_transcript(&game.transcript().to_uppercase()).unwrap(), &game);
        prop_assert_eq!(&Game::from_transcript(&game.transcript_with_passes()).unwrap(), &game);
        let pos = *game.position();
        prop_assert_eq!(pos.to_board_string().parse::<Position>().unwrap(), pos);
        let json = serde_json::to_string(&game).unwrap();
        prop_assert_eq!(&serde_json::from_str::<Game>(&json).unwrap(), &game);
        let json = serde_json::to_string(&pos).unwrap();
        prop_assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
        for ply in game.plies() {
            let json = serde_json::to_string(&ply.mv).unwrap();
            prop_assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), ply.mv);
        }
    }

    #[test]
    fn undo_restores_every_earlier_position(ch in choices()) {
        let game = random_game(&ch);
        let mut g = game.clone();
        while g.undo().is_ok() {
            let n = g.plies().len();
            prop_assert_eq!(g.position(), &game.positions()[n]);
            prop_assert!(!g.position().must_pass());
        }
        prop_assert_eq!(g.plies().iter().filter(|p| p.mv != Move::Pass).count(), 0);
    }

    #[test]
    fn parsers_never_panic(s in ".{0,80}") {
        let _ = s.parse::<Square>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Color>();
        let _ = s.parse::<Position>();
        let _ = s.parse::<Convention>();
        let _ = s.parse::<ObfLine>();
        let _ = parse_obf(&s);
        let _ = Bitboard::from_picture(&s);
        let _ = Game::from_transcript(&s);
        let _ = serde_json::from_str::<Game>(&s);
    }

    #[test]
    fn transcript_parser_never_panics_on_near_misses(s in "([a-jA-J][0-9]|pass|PS|ps| ){0,40}") {
        match Game::from_transcript(&s) {
            Ok(g) => prop_assert!(g.plies().len() <= 80),
            Err(e) => prop_assert!(e.ply >= 1 && e.ply <= 61, "ply {} of {e:?}", e.ply),
        }
    }

    #[test]
    fn board_string_parser_on_near_misses(s in "[XO.\\-Z]{60,68} [XOQ]") {
        match s.parse::<Position>() {
            Ok(p) => prop_assert_eq!(p.to_board_string().replace('.', "-"), s.replace('.', "-")),
            Err(e) => {
                let expected = matches!(
                    e,
                    reversi_core::ParseBoardError::Length(_)
                        | reversi_core::ParseBoardError::Char { index: _, found: _ }
                        | reversi_core::ParseBoardError::SideToMove(_)
                );
                prop_assert!(expected, "unexpected error kind {:?}", e);
            }
        }
    }
}
