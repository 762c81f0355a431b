//! Board strings, square names, moves, colours and bitboard pictures: never a panic, a typed
//! error that points at the input, and the printers' output parses back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::core::{Bitboard, Color, Move, ParseBoardError, ParseSquareError, Position, Square};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match Position::from_board_string(s) {
        Ok(p) => {
            assert_eq!(p.black().0 & p.white().0, 0);
            assert_eq!(p.to_board_string().parse::<Position>(), Ok(p));
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), p);
        }
        Err(ParseBoardError::Char { index, found }) => {
            // The offset counts characters of the input as given.
            assert_eq!(s.chars().nth(index), Some(found), "{s:?}");
        }
        Err(ParseBoardError::Length(_) | ParseBoardError::SideToMove(_)) => {}
        Err(e) => panic!("unexpected error {e:?} for a board string"),
    }
    match s.parse::<Square>() {
        Ok(sq) => {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_index(sq.index()), Some(sq));
        }
        Err(e) => assert!(
            matches!(e, ParseSquareError::Name(ref n) if n == s),
            "{e:?}"
        ),
    }
    match s.parse::<Move>() {
        Ok(m) => assert_eq!(m.to_string().parse::<Move>(), Ok(m)),
        Err(e) => assert_eq!(e.input, s, "{e:?}"),
    }
    match s.parse::<Color>() {
        Ok(c) => assert_eq!(c.to_string().parse::<Color>(), Ok(c)),
        Err(e) => assert_eq!(e.input, s, "{e:?}"),
    }
    match Bitboard::from_picture(s) {
        Ok(b) => {
            let picture: String = (0..64)
                .map(|i| if b.0 >> i & 1 == 1 { 'X' } else { '-' })
                .collect();
            assert_eq!(Bitboard::from_picture(&picture), Ok(b));
        }
        Err(ParseBoardError::Char { index, found }) => {
            assert_eq!(s.chars().nth(index), Some(found), "{s:?}");
        }
        Err(e) => assert!(matches!(e, ParseBoardError::Length(_)), "{e:?}"),
    }
});
