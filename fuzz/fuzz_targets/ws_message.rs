//! The WebSocket messages (the `reversi-protocol` package): `parse_client` never panics, refuses
//! with one of its codes, and a message it reads serialises to text it reads back the same. The
//! server's own messages (`ServerMsg`, which clients read) round-trip too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_protocol::{parse_client, ErrorCode, ServerMsg, CLIENT_TYPES, MAX_MESSAGE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match parse_client(s) {
        Ok(msg) => {
            assert!(CLIENT_TYPES.contains(&msg.kind()));
            let text = msg.to_text();
            if text.len() <= MAX_MESSAGE_BYTES {
                let back = parse_client(&text);
                assert_eq!(back.as_ref(), Ok(&msg), "{text}");
            }
        }
        Err(e) => {
            let codes = [
                ErrorCode::TooLarge,
                ErrorCode::BadJson,
                ErrorCode::NotAnObject,
                ErrorCode::MissingType,
                ErrorCode::UnknownType,
                ErrorCode::BadMessage,
            ];
            assert!(codes.contains(&e.code), "{e:?}");
            if let Some(kind) = &e.request {
                assert!(CLIENT_TYPES.contains(&kind.as_str()));
            }
            let _ = e.to_msg().to_text();
        }
    }
    if let Ok(msg) = serde_json::from_str::<ServerMsg>(s) {
        let text = msg.to_text();
        let back: ServerMsg = serde_json::from_str(&text).unwrap();
        assert_eq!(back.to_text(), text);
    }
});
