//! One scenario per rule of the issue: each fails if its rule is broken.

use reversi_core::notation::{parse_obf, ObfLine};
use reversi_core::{
    position, Bitboard, Color, Disc, Game, Move, Outcome, ParseBoardError, ParseColorError,
    ParseMoveError, ParseSquareError, PlayError, Position, Square, Symmetry, TranscriptCause,
    TranscriptError, UndoError,
};

#[test]
fn start_position_and_square_names() {
    let p = Position::initial();
    assert_eq!(p.side_to_move(), Color::Black, "black moves first");
    assert_eq!(p.white(), Bitboard::EMPTY.with(Square::D4).with(Square::E5));
    assert_eq!(p.black(), Bitboard::EMPTY.with(Square::E4).with(Square::D5));
    // a1 is the top left (bit 0), columns run left to right, rows top to bottom.
    assert_eq!(Square::A1.index(), 0);
    assert_eq!(Square::H1.index(), 7);
    assert_eq!(Square::A2.index(), 8);
    assert_eq!(Square::H8.index(), 63);
    assert_eq!(
        "d3".parse::<Square>().unwrap(),
        Square::from_coords(3, 2).unwrap()
    );
    for (i, sq) in Square::ALL.iter().enumerate() {
        assert_eq!(sq.index() as usize, i);
        assert_eq!(sq.to_string().parse::<Square>().unwrap(), *sq);
        assert_eq!(Square::try_from(i as u8).unwrap(), *sq);
    }
    let drawn = p.to_string();
    assert!(drawn.contains("4 . . . O X . . ."), "{drawn}");
    assert!(drawn.contains("5 . . . X O . . ."), "{drawn}");
}

#[test]
fn start_moves() {
    let moves: Vec<Square> = Position::initial().legal_moves().iter().collect();
    assert_eq!(moves, [Square::D3, Square::C4, Square::F5, Square::E6]);
}

/// Black plays d4: the north and east lines are bracketed; the west line runs to the edge,
/// the south line is broken by an empty square, the disc beyond black's g4 stays white, and c3
/// (bracketed only after the flip, by b3 and the new d3) does not flip: no chain reaction.
fn flip_lab() -> Position {
    position!(Black;
        - - - X - - - -
        - - - O - - - -
        - X O O - - - -
        O O O - O O X O
        - - - O - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
    )
}

#[test]
fn bracketed_lines_flip_at_once_and_nothing_else() {
    let p = flip_lab();
    let flips = p.flips(Square::D4);
    let expected: Bitboard = [Square::D3, Square::D2, Square::E4, Square::F4]
        .into_iter()
        .collect();
    assert_eq!(flips, expected);
    let q = p.play(Move::Place(Square::D4)).unwrap();
    for sq in [Square::D4, Square::D3, Square::D2, Square::E4, Square::F4] {
        assert_eq!(q.color_at(sq), Some(Color::Black), "{sq}");
    }
    for sq in [
        Square::A4,
        Square::B4,
        Square::C4,
        Square::D5,
        Square::H4,
        Square::C3,
    ] {
        assert_eq!(q.color_at(sq), Some(Color::White), "{sq} must not flip");
    }
    // Discs never move: every disc of before is still on its square.
    assert_eq!(
        q.black() | q.white(),
        p.black() | p.white() | Square::D4.bitboard()
    );
    assert_eq!(q.count(Color::Black), p.count(Color::Black) + 5);
    assert_eq!(q.count(Color::White), p.count(Color::White) - 4);
}

#[test]
fn flips_come_in_animation_order() {
    let p = flip_lab();
    assert_eq!(
        p.flips_in_order(Square::D4),
        [Square::D3, Square::E4, Square::D2, Square::F4]
    );
    assert!(p.flips_in_order(Square::A1).is_empty());
}

#[test]
fn a_move_must_flip_and_be_on_an_empty_square() {
    let p = Position::initial();
    assert_eq!(
        p.play(Move::Place(Square::D4)),
        Err(PlayError::Occupied(Square::D4))
    );
    assert_eq!(
        p.play(Move::Place(Square::C3)),
        Err(PlayError::NoFlips(Square::C3))
    );
    for sq in Square::ALL {
        assert_eq!(
            p.play(Move::Place(sq)).is_ok(),
            p.legal_moves().contains(sq)
        );
    }
}

#[test]
fn forced_pass_is_automatic_and_recorded() {
    // Black plays c1; white then has no move but black has e8, so white passes.
    let start = position!(Black;
        X O - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - O O X
    );
    let mut game = Game::from_position(start);
    let turn = game.play(Square::C1).unwrap();
    assert_eq!(turn.passed, Some(Color::White));
    assert_eq!(game.plies().len(), 2);
    assert_eq!(game.plies()[1].mv, Move::Pass);
    assert_eq!(game.plies()[1].color, Color::White);
    assert_eq!(game.passes().collect::<Vec<_>>(), [(1, Color::White)]);
    assert_eq!(game.position().side_to_move(), Color::Black);
    // Passing by choice while a move exists is an error, and changes nothing.
    let before = game.clone();
    assert_eq!(
        game.play(Move::Pass),
        Err(PlayError::PassWithMoves(Color::Black))
    );
    assert_eq!(game, before);
    assert_eq!(
        game.position().play(Move::Pass),
        Err(PlayError::PassWithMoves(Color::Black))
    );
    // The position itself knows white had to pass.
    let after_c1 = start.play(Move::Place(Square::C1)).unwrap();
    assert!(after_c1.must_pass());
    assert_eq!(after_c1.legal_move_list(), [Move::Pass]);
    assert_eq!(
        after_c1.play(Move::Pass).unwrap().side_to_move(),
        Color::Black
    );
    // Undo takes back the move and its automatic pass.
    game.undo().unwrap();
    assert_eq!(*game.position(), start);
    // A transcript may write the pass or leave it out.
    let implicit = Game::transcript_from(start, "c1e8").unwrap();
    let explicit = Game::transcript_from(start, "c1 PS e8").unwrap();
    let word = Game::transcript_from(start, "C1passE8").unwrap();
    assert_eq!(implicit, explicit);
    assert_eq!(implicit, word);
    assert_eq!(implicit.transcript_with_passes(), "c1PSe8");
    // But not twice for one pass.
    assert!(matches!(
        Game::transcript_from(start, "c1 ps ps e8"),
        Err(TranscriptError { ply: 3, .. })
    ));
}

#[test]
fn a_game_that_starts_with_a_forced_pass_records_it() {
    let start = position!(Black;
        O X - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
    );
    assert!(start.must_pass());
    let game = Game::from_position(start);
    assert_eq!(game.plies()[0].mv, Move::Pass);
    assert_eq!(game.position().side_to_move(), Color::White);
    let mut g2 = game.clone();
    assert_eq!(g2.undo(), Err(UndoError::NothingToUndo));
    assert_eq!(g2, game);
}

#[test]
fn the_game_ends_when_neither_side_can_move() {
    // Empty squares remain, but neither side can bracket anything.
    let p = position!(White;
        X X X - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - O
    );
    assert!(p.is_game_over());
    assert!(!p.must_pass());
    assert!(p.legal_move_list().is_empty());
    assert_eq!(p.play(Move::Pass), Err(PlayError::GameOver));
    assert_eq!(p.play(Move::Place(Square::D1)), Err(PlayError::GameOver));
    // More discs on the board wins; empties give no bonus.
    assert_eq!(p.outcome(), Some(Outcome::Win(Color::Black)));
    assert_eq!((p.count(Color::Black), p.count(Color::White)), (3, 1));
    // The WOF tournament score gives the 60 empties to the winner.
    assert_eq!(p.wof_tournament_counts(), (63, 1));
    let mut game = Game::from_position(p);
    assert!(game.is_over());
    assert_eq!(game.play(Square::D1), Err(PlayError::GameOver));
}

#[test]
fn equal_counts_draw_and_wof_splits_the_empties() {
    let p = position!(Black;
        X - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - -
        - - - - - - - O
    );
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(p.wof_tournament_counts(), (32, 32));
    assert_eq!(Position::initial().outcome(), None, "the start is not over");
}

#[test]
fn a_wipe_out_ends_the_game() {
    let mut game = Game::from_transcript("e6f4e3f6g5d6e7f5").unwrap();
    let turn = game.play(Square::C5).unwrap();
    assert_eq!(turn.outcome, Some(Outcome::Win(Color::Black)));
    assert_eq!(game.position().count(Color::White), 0);
    assert_eq!(game.position().count(Color::Black), 13);
    assert_eq!(game.play(Square::A1), Err(PlayError::GameOver));
}

#[test]
fn undo_and_undo_turn() {
    let mut game = Game::from_transcript("f5d6c3d3c4").unwrap();
    let before = game.clone();
    assert_eq!(game.last_move(), Some((Color::Black, Square::C4)));
    game.undo().unwrap();
    assert_eq!(game.transcript(), "f5d6c3d3");
    assert_eq!(game.position(), &before.positions()[4]);
    // Black to move now. undo_turn(White) goes back to the last position where white was to
    // move: before white's d3.
    assert_eq!(game.undo_turn(Color::White), Ok(1));
    assert_eq!(game.transcript(), "f5d6c3");
    // White to move: undo_turn(White) takes back black's c3 and white's d6 as a pair.
    assert_eq!(game.undo_turn(Color::White), Ok(2));
    assert_eq!(game.transcript(), "f5");
    assert_eq!(game.undo_turn(Color::Black), Ok(1));
    assert_eq!(game.transcript(), "");
    assert_eq!(
        game.undo_turn(Color::Black),
        Err(UndoError::NoPlacementBy(Color::Black))
    );
    assert_eq!(game.undo(), Err(UndoError::NothingToUndo));
    assert_eq!(*game.position(), Position::initial());
}

#[test]
fn bad_square_names() {
    for bad in ["i9", "a0", "", "a9", "d", "d33", " d3", "3d", "é1"] {
        assert!(
            matches!(bad.parse::<Square>(), Err(ParseSquareError::Name(ref s)) if s == bad),
            "{bad:?}"
        );
    }
    assert_eq!("D3".parse::<Square>().unwrap(), Square::D3);
    assert!(Square::try_from(64u8).is_err());
}

#[test]
fn bad_transcripts_name_the_ply_and_token_and_change_nothing() {
    let err = Game::from_transcript("f5d6i9").unwrap_err();
    assert!(
        matches!(&err, TranscriptError { ply: 3, token, cause: TranscriptCause::Parse(e), .. }
        if token == "i9" && e.input == "i9"),
        "{err}"
    );
    let err = Game::from_transcript("f5 d6 a1").unwrap_err();
    assert!(
        matches!(&err, TranscriptError { ply: 3, token, cause, .. }
        if token == "a1" && *cause == TranscriptCause::Play(PlayError::NoFlips(Square::A1))),
        "{err}"
    );
    let err = Game::from_transcript("f5f5").unwrap_err();
    assert!(matches!(
        &err,
        TranscriptError {
            ply: 2,
            cause: TranscriptCause::Play(PlayError::Occupied(Square::F5)),
            ..
        }
    ));
    let err = Game::from_transcript("pass").unwrap_err();
    assert!(matches!(
        &err,
        TranscriptError {
            ply: 1,
            cause: TranscriptCause::Play(PlayError::PassWithMoves(Color::Black)),
            ..
        }
    ));
    let err = Game::from_transcript("e6f4e3f6g5d6e7f5c5a1").unwrap_err();
    assert!(matches!(
        &err,
        TranscriptError {
            ply: 10,
            cause: TranscriptCause::Play(PlayError::GameOver),
            ..
        }
    ));
    assert!(err.to_string().contains("ply 10"), "{err}");
    assert!(Game::from_transcript("").unwrap().plies().is_empty());
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::from_transcript("f5d6").unwrap();
    let before = game.clone();
    assert!(game.play(Square::A1).is_err());
    assert!(game.play(Square::F5).is_err());
    assert!(game.play(Move::Pass).is_err());
    assert_eq!(game, before);
}

#[test]
fn board_strings() {
    let s = Position::initial().to_board_string();
    assert_eq!(s.len(), 66);
    assert_eq!(s.parse::<Position>().unwrap(), Position::initial());
    assert_eq!("".parse::<Position>(), Err(ParseBoardError::Length(0)));
    assert_eq!(
        format!("{} X", "-".repeat(63)).parse::<Position>(),
        Err(ParseBoardError::Length(63))
    );
    assert_eq!(
        format!("{} X", "-".repeat(65)).parse::<Position>(),
        Err(ParseBoardError::Length(65))
    );
    assert_eq!(
        format!("{}Z{} X", "-".repeat(10), "-".repeat(53)).parse::<Position>(),
        Err(ParseBoardError::Char {
            index: 10,
            found: 'Z'
        })
    );
    // The index counts characters of the input, leading white space included.
    assert_eq!(
        format!(" \u{3000}{}Z{} X", "-".repeat(10), "-".repeat(53)).parse::<Position>(),
        Err(ParseBoardError::Char {
            index: 12,
            found: 'Z'
        })
    );
    assert_eq!(
        format!("  {}Z X", "-".repeat(64)).parse::<Position>(),
        Err(ParseBoardError::Char {
            index: 66,
            found: 'Z'
        })
    );
    assert_eq!(
        format!("{} Q", "-".repeat(64)).parse::<Position>(),
        Err(ParseBoardError::SideToMove("Q".into()))
    );
    assert!(matches!(
        "-".repeat(64).parse::<Position>(),
        Err(ParseBoardError::SideToMove(_))
    ));
    let white = format!("{} O", "-".repeat(64)).parse::<Position>().unwrap();
    assert_eq!(white.side_to_move(), Color::White);
}

#[test]
fn obf_lines() {
    let text = include_str!("data/ffo-40-59.obf");
    let lines = parse_obf(text).unwrap();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0].position.empty().count(), 20);
    assert_eq!(lines[0].best_score(), Some(38));
    assert_eq!(lines[0].scores[0].0, Move::Place(Square::A2));
    assert_eq!(lines[19].position.empty().count(), 34);
    let bad = format!("{}\nxx X\n", text.lines().next().unwrap());
    assert!(matches!(
        parse_obf(&bad),
        Err(reversi_core::ObfError { line: 2, .. })
    ));
    assert!(format!("{} X; Z9:+2;", "-".repeat(64))
        .parse::<ObfLine>()
        .is_err());
    assert!(format!("{} X; A1:two;", "-".repeat(64))
        .parse::<ObfLine>()
        .is_err());
}

#[test]
fn square_descriptions() {
    let p = flip_lab();
    let all = p.describe_squares();
    assert_eq!(all.len(), 64);
    let d4 = all[Square::D4.index() as usize];
    assert_eq!(
        (d4.square, d4.disc, d4.legal, d4.flips),
        (Square::D4, Disc::None, true, 4)
    );
    let d1 = all[Square::D1.index() as usize];
    assert_eq!((d1.disc, d1.legal, d1.flips), (Disc::Black, false, 0));
    assert_eq!(all[Square::D2.index() as usize].disc, Disc::White);
    assert_eq!(d4.to_string(), "d4, empty, legal, flips 4");
    assert_eq!(
        all[Square::H8.index() as usize].to_string(),
        "h8, empty, not legal"
    );
    assert_eq!(d1.to_string(), "d1, black");
    for info in all {
        assert_eq!(info.legal, p.is_legal(info.square));
        assert_eq!(u32::from(info.flips), p.flips(info.square).count());
    }
}

#[test]
fn symmetries_map_squares_like_bitboards() {
    for s in Symmetry::ALL {
        for sq in Square::ALL {
            assert_eq!(
                s.bitboard(sq.bitboard()),
                s.square(sq).bitboard(),
                "{s:?} {sq}"
            );
            assert_eq!(s.inverse().square(s.square(sq)), sq);
        }
    }
    let images: std::collections::HashSet<Square> =
        Symmetry::ALL.iter().map(|s| s.square(Square::B3)).collect();
    assert_eq!(images.len(), 8, "the eight symmetries are distinct");
}

#[test]
fn colors_and_moves_parse() {
    assert_eq!("BLACK".parse::<Color>().unwrap(), Color::Black);
    assert!(matches!(
        "red".parse::<Color>(),
        Err(ParseColorError { .. })
    ));
    assert_eq!("pass".parse::<Move>().unwrap(), Move::Pass);
    assert!(matches!("pas".parse::<Move>(), Err(ParseMoveError { .. })));
}

#[cfg(feature = "serde")]
#[test]
fn serde_forms() {
    let game = Game::from_transcript("f5d6c3").unwrap();
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(
        json,
        format!(
            r#"{{"start":"{}","moves":["f5","d6","c3"]}}"#,
            Position::initial().to_board_string()
        )
    );
    assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
    // An illegal record is refused.
    let bad = json.replace("c3", "a1");
    assert!(serde_json::from_str::<Game>(&bad).is_err());
    assert_eq!(serde_json::to_string(&Square::D3).unwrap(), r#""d3""#);
    assert!(serde_json::from_str::<Square>(r#""z9""#).is_err());
    assert_eq!(serde_json::to_string(&Move::Pass).unwrap(), r#""pass""#);
}
