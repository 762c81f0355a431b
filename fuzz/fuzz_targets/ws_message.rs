//! The server's WebSocket messages (`examples/server/src/protocol.rs`): `parse` never panics,
//! refuses with one of its codes, and a message it reads serialises to text it reads back the
//! same. The server's own messages (`ServerMsg`, which clients read) round-trip too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_fuzz::server::protocol::{parse, ServerMsg, CLIENT_TYPES, MAX_MESSAGE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match parse(s) {
        Ok(msg) => {
            assert!(CLIENT_TYPES.contains(&msg.kind()));
            let text = serde_json::to_string(&msg).unwrap();
            if text.len() <= MAX_MESSAGE_BYTES {
                let back = parse(&text).map_err(|e| e.0);
                assert_eq!(back.as_ref(), Ok(&msg), "{text}");
            }
        }
        Err((refusal, kind, _rid)) => {
            let codes = [
                "too_large",
                "bad_json",
                "not_an_object",
                "missing_type",
                "unknown_type",
                "bad_message",
            ];
            assert!(codes.contains(&&*refusal.code), "{refusal:?}");
            if let Some(kind) = kind {
                assert!(CLIENT_TYPES.contains(&kind.as_str()));
            }
            let _ = refusal.to_json(Some("x"), None);
        }
    }
    if let Ok(msg) = serde_json::from_str::<ServerMsg>(s) {
        let text = serde_json::to_string(&msg).unwrap();
        let back: ServerMsg = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
    }
});
