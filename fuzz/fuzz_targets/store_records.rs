//! The server's store records (`examples/server/src/records.rs`: rooms, the lobby and the
//! lobby's log entries, as JSON text): reading never panics and says what is wrong in a
//! `RecordError`; what reads writes back to text that reads to the same record; a room or lobby
//! read from a record then takes random operations without a panic.
//!
//! The first byte chooses: text read as a room, a lobby or a log entry; or a room or lobby
//! built by random operations, written, read back and compared.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::clock::Millis;
use reversi::room::{PlayerId, RoomActionLimit};
use reversi::room_adapters::{hosted_room, reversi_lobby};
use reversi_fuzz::server::records::{
    decode_lobby, decode_op, decode_room, encode_lobby, encode_op, encode_room,
};
use reversi_fuzz::{check_lobby, check_room, drive_lobby, drive_room, Bytes};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let mode = input.below(8);
    let mut now = 0;
    match mode {
        0..=2 => {
            // Text: everything up to the first NUL; the bytes after it drive what was read.
            let rest = data.get(1..).unwrap_or_default();
            let (text, ops) = match rest.iter().position(|&b| b == 0) {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &[][..]),
            };
            let Ok(text) = std::str::from_utf8(text) else {
                return;
            };
            let mut ops = Bytes::new(ops);
            match mode {
                0 => {
                    if let Ok(mut room) = decode_room(text) {
                        let written = encode_room(&room);
                        let again = decode_room(&written).expect("a written room reads");
                        assert_eq!(encode_room(&again), written);
                        check_room(&room, true);
                        now = room.last_seen().0;
                        drive_room(&mut room, &mut ops, &mut now);
                    }
                }
                1 => {
                    if let Ok(mut lobby) = decode_lobby(text) {
                        let written = encode_lobby(&lobby);
                        let again = decode_lobby(&written).expect("a written lobby reads");
                        assert_eq!(encode_lobby(&again), written);
                        check_lobby(&lobby, true);
                        now = lobby.last_seen().0;
                        drive_lobby(&mut lobby, &mut ops, &mut now);
                    }
                }
                _ => {
                    if let Ok(op) = decode_op(text) {
                        assert_eq!(decode_op(&encode_op(&op)), Ok(op));
                    }
                }
            }
        }
        3..=5 => {
            now = u64::from(input.u16());
            let mut room = hosted_room(Millis(now), PlayerId(1), RoomActionLimit::ALL[mode - 3]);
            drive_room(&mut room, &mut input, &mut now);
            let written = encode_room(&room);
            let back = decode_room(&written).unwrap_or_else(|e| panic!("{e}: {written}"));
            assert_eq!(encode_room(&back), written);
        }
        _ => {
            let mut lobby = reversi_lobby([input.byte(); 32]);
            drive_lobby(&mut lobby, &mut input, &mut now);
            let written = encode_lobby(&lobby);
            let back = decode_lobby(&written).unwrap_or_else(|e| panic!("{e}: {written}"));
            assert_eq!(encode_lobby(&back), written);
        }
    }
});
