//! Random operations on a hosted Reversi room or on the online lobby (reversi-room): never a
//! panic, a refused operation leaves the state as it was, and the state serialises back to
//! itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::clock::{Millis, Span};
use reversi::room::{Lobby, LobbySettings, PlayerId, RoomActionLimit, RoomSettings};
use reversi::room_adapters::{hosted_room, reversi_lobby, ReversiGame, REVERSI};
use reversi_fuzz::{drive_lobby, drive_room, Bytes};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let mut now = u64::from(input.u16());
    match input.below(4) {
        0 | 1 => {
            let limit = RoomActionLimit::ALL[input.below(3)];
            let mut room = hosted_room(Millis(now), PlayerId(1), limit);
            drive_room(&mut room, &mut input, &mut now);
        }
        _ => {
            let mut lobby = reversi_lobby([input.byte(); 32]);
            if input.below(2) == 0 {
                // Short durations, so that deadlines come often.
                let room = RoomSettings::ONLINE
                    .with_action_limit(Span(1_000))
                    .with_disconnect_grace(Span(500));
                let settings = LobbySettings::default()
                    .with_queue_wait(Span(2_000))
                    .with_invite_ttl(Span(3_000))
                    .with_reconnect_grace(Span(1_000))
                    .with_room(room);
                lobby = Lobby::with_settings(
                    settings,
                    [(REVERSI.to_owned(), ReversiGame::new())],
                    [input.byte(); 32],
                );
            }
            drive_lobby(&mut lobby, &mut input, &mut now);
        }
    }
});
