//! Typed total times (`10`, `5:30`, `1:30:00`, `0:09.5`): never a panic, a positive span or a
//! `ParseTimeError`, and every nonzero span's `Display` parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::clock::{parse_total_time, Span, TimeControl};

fuzz_target!(|data: &[u8]| {
    if data.len() >= 8 {
        let span = Span(u64::from_le_bytes(data[..8].try_into().unwrap()));
        let back = parse_total_time(&span.to_string());
        if span.is_zero() {
            assert!(back.is_err());
        } else {
            assert_eq!(back, Ok(span), "{span}");
        }
    }
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(span) = parse_total_time(s) {
        assert!(!span.is_zero());
        assert_eq!(parse_total_time(&span.to_string()), Ok(span), "{s:?}");
        let json = serde_json::to_string(&span).unwrap();
        assert_eq!(serde_json::from_str::<Span>(&json).unwrap(), span);
    }
    // A time control as the store and the wire write it.
    if let Ok(control) = serde_json::from_str::<TimeControl>(s) {
        let json = serde_json::to_string(&control).unwrap();
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), control);
    }
});
