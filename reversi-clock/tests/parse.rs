//! The typed-time parser: a table of cases, and properties over arbitrary and generated input.

use proptest::prelude::*;
use reversi_clock::{parse_total_time, ParseTimeError, Span};

fn ms(input: &str) -> Result<u64, ParseTimeError> {
    parse_total_time(input).map(Span::as_millis)
}

fn non_numeric(part: &str) -> Result<u64, ParseTimeError> {
    Err(ParseTimeError::NonNumeric {
        part: part.to_owned(),
    })
}

#[test]
fn table() {
    use ParseTimeError::*;
    let cases: &[(&str, Result<u64, ParseTimeError>)] = &[
        ("10", Ok(600_000)),
        ("10:00", Ok(600_000)),
        ("5:30", Ok(330_000)),
        ("5.5", Ok(330_000)),
        ("  5:30\t", Ok(330_000)),
        ("\n10\n", Ok(600_000)),
        ("1:00:00", Ok(3_600_000)),
        ("1:30:05", Ok(5_405_000)),
        ("0:30", Ok(30_000)),
        ("0:09.5", Ok(9_500)),
        ("0.25", Ok(15_000)),
        ("0.001", Ok(60)),
        ("0.00001", Err(NotPositive)), // 0.6 ms rounds down to zero
        // 1.000014 ms: digits past the ninth can carry the result over a whole millisecond.
        ("0.0000166669", Ok(1)),
        ("1.0000166669", Ok(60_001)),
        ("90", Ok(5_400_000)),
        ("007", Ok(420_000)),
        ("5:3", Ok(303_000)),
        ("", Err(Empty)),
        ("   ", Err(Empty)),
        ("0", Err(NotPositive)),
        ("0:00", Err(NotPositive)),
        ("0:00:00", Err(NotPositive)),
        ("0.0", Err(NotPositive)),
        ("-5", Err(NotPositive)),
        ("-5:30", Err(NotPositive)),
        ("- 5", Err(NotPositive)),
        ("-0", Err(NotPositive)),
        ("5:60", Err(SecondsOutOfRange { seconds: 60 })),
        ("5:99", Err(SecondsOutOfRange { seconds: 99 })),
        ("5:60.5", Err(SecondsOutOfRange { seconds: 60 })),
        ("1:00:60", Err(SecondsOutOfRange { seconds: 60 })),
        ("1:60:00", Err(MinutesOutOfRange { minutes: 60 })),
        ("1:75:10", Err(MinutesOutOfRange { minutes: 75 })),
        ("ten", non_numeric("ten")),
        ("5:", non_numeric("")),
        (":30", non_numeric("")),
        ("5.", non_numeric("5.")),
        (".5", non_numeric(".5")),
        ("1.2.3", non_numeric("1.2.3")),
        ("5 30", non_numeric("5 30")),
        ("+5", non_numeric("+5")),
        ("-", non_numeric("-")),
        ("-x", non_numeric("x")),
        ("1:2.5:00", non_numeric("2.5")),
        // The whole part is named, as for minutes, wherever the fault is in it.
        ("5:3x.5", non_numeric("3x.5")),
        ("5:30.x", non_numeric("30.x")),
        ("3x.5", non_numeric("3x.5")),
        ("٥", non_numeric("٥")),
        ("1:2:3:4", Err(TooManyParts { parts: 4 })),
        ("::::", Err(TooManyParts { parts: 5 })),
        ("99999999999999999999", Err(Overflow)),
        ("307445734561826", Err(Overflow)), // u64::MAX / 60_000 + 1 minutes
        ("5124095576030431:00:00", Err(Overflow)),
    ];
    for (input, expected) in cases {
        assert_eq!(&ms(input), expected, "{input:?}");
    }
}

#[test]
fn errors_read_well() {
    assert_eq!(
        parse_total_time("abc").unwrap_err().to_string(),
        "\"abc\" is not a number"
    );
    assert_eq!(
        parse_total_time("1:2:3:4").unwrap_err().to_string(),
        "too many parts: 4 (at most h:mm:ss)"
    );
}

/// Strings that are bad in exactly one way, with the error they must get.
fn bad_input() -> impl Strategy<Value = (String, ParseTimeError)> {
    let ws = "[ \t\n]{0,3}";
    prop_oneof![
        "[ \t\r\n]{0,8}".prop_map(|s| (s, ParseTimeError::Empty)),
        // Negative times, or zero.
        (1u64..10_000, 0u64..60)
            .prop_map(|(m, s)| (format!("-{m}:{s:02}"), ParseTimeError::NotPositive)),
        (0u64..100_000).prop_map(|m| (format!("-{m}"), ParseTimeError::NotPositive)),
        prop_oneof![
            Just("0"),
            Just("000"),
            Just("0:00"),
            Just("0.000"),
            Just("0:0:0")
        ]
        .prop_map(|s| (s.to_owned(), ParseTimeError::NotPositive)),
        // Seconds of 60 or more.
        (0u64..10_000, prop_oneof![Just(60u64), 60u64..1_000_000]).prop_map(|(m, s)| (
            format!("{m}:{s}"),
            ParseTimeError::SecondsOutOfRange { seconds: s }
        )),
        (0u64..100, 0u64..60, prop_oneof![Just(60u64), 60u64..1_000]).prop_map(|(h, m, s)| (
            format!("{h}:{m:02}:{s}"),
            ParseTimeError::SecondsOutOfRange { seconds: s }
        )),
        // Minutes of 60 or more in h:mm:ss.
        (
            0u64..100,
            prop_oneof![Just(60u64), 60u64..100_000],
            0u64..60
        )
            .prop_map(|(h, m, s)| (
                format!("{h}:{m}:{s:02}"),
                ParseTimeError::MinutesOutOfRange { minutes: m }
            )),
        // A foreign character inside one part of a good time.
        (
            1u64..1_000,
            0u64..60,
            "[a-zA-Z+*/,_#é ]",
            0usize..8,
            0usize..2
        )
            .prop_map(|(m, s, junk, at, which)| {
                let mut parts = [m.to_string(), format!("{s:02}")];
                let part = &mut parts[which];
                let at = at.min(part.len());
                part.insert_str(at, &junk);
                // A space at the very edge would be trimmed away: keep it inside.
                if junk == " " && ((which == 0 && at == 0) || (which == 1 && at == part.len() - 1))
                {
                    part.insert(0, '1');
                    part.push('1');
                }
                let bad = part.clone();
                (parts.join(":"), ParseTimeError::NonNumeric { part: bad })
            }),
        // Too many parts, whatever they hold.
        (4usize..9, "[0-9a-z]{0,3}").prop_map(|(n, p)| {
            let parts = vec![p; n];
            (parts.join(":"), ParseTimeError::TooManyParts { parts: n })
        }),
        // Overflow: too many digits, or minutes that fit u64 but not as milliseconds.
        "[1-9][0-9]{20,30}".prop_map(|s| (s, ParseTimeError::Overflow)),
        (u64::MAX / 60_000 + 1..=u64::MAX).prop_map(|m| (m.to_string(), ParseTimeError::Overflow)),
    ]
    .prop_flat_map(move |(s, e)| (ws, Just(s), ws, Just(e)))
    .prop_map(|(l, s, r, e)| (format!("{l}{s}{r}"), e))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_ok_means_positive(s in any::<String>()) {
        if let Ok(t) = parse_total_time(&s) {
            prop_assert!(t > Span::ZERO);
        }
    }

    #[test]
    fn never_panics_on_time_like_strings(s in "[ 0-9:.\\-]{0,24}") {
        if let Ok(t) = parse_total_time(&s) {
            prop_assert!(t > Span::ZERO);
        }
    }

    #[test]
    fn bad_input_gets_the_right_error((input, expected) in bad_input()) {
        prop_assert_eq!(parse_total_time(&input), Err(expected), "{:?}", input);
    }

    #[test]
    fn minutes_and_seconds(m in 0u64..1_000_000, s in 0u64..60, pad in "[ \t]{0,3}") {
        let expected = m * 60_000 + s * 1_000;
        let got = parse_total_time(&format!("{pad}{m}:{s:02}{pad}"));
        if expected == 0 {
            prop_assert_eq!(got, Err(ParseTimeError::NotPositive));
        } else {
            prop_assert_eq!(got, Ok(Span(expected)));
        }
        if m > 0 {
            prop_assert_eq!(parse_total_time(&m.to_string()), Ok(Span::from_mins(m)));
        }
    }

    #[test]
    fn hours_minutes_seconds(h in 0u64..10_000, m in 0u64..60, s in 0u64..60) {
        let expected = h * 3_600_000 + m * 60_000 + s * 1_000;
        let got = parse_total_time(&format!("{h}:{m:02}:{s:02}"));
        if expected == 0 {
            prop_assert_eq!(got, Err(ParseTimeError::NotPositive));
        } else {
            prop_assert_eq!(got, Ok(Span(expected)));
        }
    }

    /// Decimal minutes agree with exact arithmetic on the whole fraction, rounded down.
    #[test]
    fn decimal_minutes_round_down_exactly(int in 0u64..100_000, frac in "[0-9]{1,30}") {
        let scale = 10u128.pow(frac.len() as u32);
        let f: u128 = frac.parse().unwrap();
        let expected = u128::from(int) * 60_000 + f * 60_000 / scale;
        let got = parse_total_time(&format!("{int}.{frac}"));
        if expected == 0 {
            prop_assert_eq!(got, Err(ParseTimeError::NotPositive));
        } else {
            prop_assert_eq!(got, Ok(Span(expected as u64)));
        }
    }

    /// Every nonzero span's clock-face display parses back to it.
    #[test]
    fn display_parses_back(t in 1u64..1_000_000_000_000) {
        let span = Span(t);
        prop_assert_eq!(parse_total_time(&span.to_string()), Ok(span), "{}", span);
    }
}
