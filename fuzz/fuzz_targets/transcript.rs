//! Transcripts (`f5d6c3…`, passes implicit or written `pass`/`PS`): never a panic, an error is
//! a `TranscriptError` naming a token of the input, and a game's transcripts replay to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::core::{Game, Position, TranscriptError};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    // An optional start position: a first line that is a board string.
    let (start, text) = match s.split_once('\n') {
        Some((first, rest)) => match first.parse::<Position>() {
            Ok(p) => (p, rest),
            Err(_) => (Position::initial(), s),
        },
        None => (Position::initial(), s),
    };
    match Game::transcript_from(start, text) {
        Ok(game) => {
            assert_eq!(*game.start(), start);
            assert_eq!(game.positions().len(), game.plies().len() + 1);
            let again = Game::transcript_from(start, &game.transcript_with_passes());
            assert_eq!(again.as_ref(), Ok(&game));
            let implicit = Game::transcript_from(start, &game.transcript());
            assert_eq!(implicit.as_ref(), Ok(&game));
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
        }
        Err(TranscriptError { ply, token, .. }) => {
            assert!(ply >= 1);
            assert!(text.contains(token.as_str()), "{token:?} not in {text:?}");
        }
    }
});
