//! `PROTOCOL.md` against the types: every ```json block of it is a message that parses into
//! [`ServerMsg`] or [`ClientMsg`] and serialises back to the same JSON (compared as values, so
//! key order does not matter); its tables name exactly the client types, server types and error
//! codes of the crate. The document is read at compile time, so an example added there is tested
//! without touching this file.

use std::collections::BTreeSet;

use reversi_protocol::{
    parse_client, ClientMsg, ErrorCode, Level, ServerMsg, Square, CLIENT_TYPES,
};
use serde_json::{json, Value};

const PROTOCOL_MD: &str = include_str!("../../PROTOCOL.md");

/// ```json blocks that are deliberately not messages (none today), by their first line. Each one
/// listed must be in the document and must fail to parse.
const DELIBERATELY_INVALID: &[&str] = &[];

/// The ```json blocks of a Markdown text, with the line each starts on.
fn json_blocks(md: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in md.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut current, fence) {
            (None, Some(info)) if info.trim() == "json" => current = Some((i + 2, String::new())),
            (Some(_), Some(_)) => blocks.extend(current.take()),
            (Some((_, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "PROTOCOL.md ends inside a ```json block");
    blocks
}

/// The JSON of an example: the document's illustrations are taken out, outside strings only:
/// `// comments` to the end of the line, and the elisions `…` of list items, each with its comma.
fn strip_illustrations(block: &str) -> String {
    let mut out = String::with_capacity(block.len());
    let mut chars = block.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            '…' => {
                let kept = out.trim_end().len();
                out.truncate(kept);
                if out.ends_with(',') {
                    out.pop();
                } else {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                    if chars.peek() == Some(&',') {
                        chars.next();
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// How one example reads: the typed message it parsed into, or why it did not.
fn round_trip(text: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let server = serde_json::from_value::<ServerMsg>(value.clone());
    if let Ok(msg) = &server {
        let back = serde_json::to_value(msg).map_err(|e| e.to_string())?;
        if back == value {
            return Ok(format!("server {}", msg.kind()));
        }
    }
    let client = parse_client(text);
    if let Ok(msg) = &client {
        let back = serde_json::to_value(msg).map_err(|e| e.to_string())?;
        if back == value {
            return Ok(format!("client {}", msg.kind()));
        }
    }
    Err(format!(
        "neither a server message that serialises back to it ({}) nor a client message ({})",
        match server {
            Ok(m) => format!("reads as {m:?} but writes {}", m.to_text()),
            Err(e) => e.to_string(),
        },
        match client {
            Ok(m) => format!("reads as {m:?} but writes {}", m.to_text()),
            Err(e) => e.to_string(),
        }
    ))
}

#[test]
fn every_json_example_of_protocol_md_round_trips() {
    let blocks = json_blocks(PROTOCOL_MD);
    let mut kinds = BTreeSet::new();
    let mut failures = Vec::new();
    for (line, block) in &blocks {
        let first = block.lines().next().unwrap_or_default().trim();
        let listed = DELIBERATELY_INVALID.iter().any(|l| first.starts_with(l));
        match (round_trip(&strip_illustrations(block)), listed) {
            (Ok(kind), false) => {
                kinds.insert(kind);
            }
            (Err(_), true) => {}
            (Ok(kind), true) => failures.push(format!(
                "PROTOCOL.md line {line}: listed as invalid but reads as {kind}"
            )),
            (Err(e), false) => failures.push(format!("PROTOCOL.md line {line}: {e}\n{block}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for l in DELIBERATELY_INVALID {
        assert!(
            blocks.iter().any(|(_, b)| b.trim_start().starts_with(l)),
            "{l:?} is listed as invalid but is not in PROTOCOL.md"
        );
    }
    // The document's examples today; a new one only adds to them.
    for kind in [
        "server welcome",
        "server error",
        "server state",
        "server record",
    ] {
        assert!(kinds.contains(kind), "no {kind} example read: {kinds:?}");
    }
}

#[test]
fn illustrations_are_taken_out_outside_strings_only() {
    let text = "{\"a\":[1, …, 2, …], // a comment\n \"b\":\"x…y // z\"}";
    let json: Value = serde_json::from_str(&strip_illustrations(text)).unwrap();
    assert_eq!(json, json!({"a": [1, 2], "b": "x…y // z"}));
}

/// The backticked words of the first column of the Markdown tables of a section (from its
/// heading to the next heading of the same level or above).
fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    let start = md
        .find(heading)
        .unwrap_or_else(|| panic!("PROTOCOL.md has no {heading:?}"));
    let level = heading.chars().take_while(|&c| c == '#').count();
    let rest = &md[start + heading.len()..];
    let end = rest
        .match_indices("\n#")
        .find(|(i, _)| rest[i + 1..].chars().take_while(|&c| c == '#').count() <= level)
        .map_or(rest.len(), |(i, _)| i);
    &rest[..end]
}

/// The `code`s written in a text, outside parentheses.
fn backticked(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut depth = 0usize;
    let mut it = text.split('`');
    // Even pieces are outside backticks, odd pieces inside.
    let mut outside = true;
    for piece in it.by_ref() {
        if outside {
            for c in piece.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        } else if depth == 0 {
            words.push(piece.to_owned());
        }
        outside = !outside;
    }
    words
}

/// The first cell of each body row of the tables of a text.
fn first_cells(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" | ").next())
        .filter(|c| !c.starts_with("---") && !c.starts_with("type") && !c.starts_with("code"))
        .collect()
}

#[test]
fn the_client_tables_name_exactly_the_client_types() {
    let documented: BTreeSet<String> = first_cells(section(PROTOCOL_MD, "## Client → server"))
        .into_iter()
        .flat_map(backticked)
        .collect();
    let typed: BTreeSet<String> = CLIENT_TYPES.iter().map(|t| (*t).to_owned()).collect();
    assert_eq!(documented, typed);
}

#[test]
fn the_error_table_names_exactly_the_error_codes() {
    let table = section(PROTOCOL_MD, "## Error codes");
    let mut documented = BTreeSet::new();
    for line in table.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        if line.starts_with("| room errors") {
            // "from `reversi-room`, by their snake-case name: `not_in_room`, …"
            let cell = cells.get(1).copied().unwrap_or_default();
            let names = cell.split_once(':').map_or(cell, |(_, names)| names);
            documented.extend(backticked(names));
        } else if !line.starts_with("| code") && !line.starts_with("| ---") {
            documented.extend(backticked(cells[0]));
        }
    }
    let typed: BTreeSet<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    assert_eq!(documented, typed);
}

/// One sample of every server message, as the server writes it.
fn every_server_message() -> Vec<Value> {
    let record = json!({"game":"R3","game_no":1,"kind":"invite","black":"guest:1",
        "white":"bot:easy","winner":null,"reason":"board","count":{"black":33,"white":31},
        "moves":[{"color":"black","move":"f5"},{"color":"white","move":"pass"}],
        "transcript":"f5pass","started_at":1,"ended_at":2,"black_ms":null,"white_ms":1000});
    let mut record_msg = record.clone();
    record_msg["type"] = json!("record");
    record_msg["rid"] = json!({"any": ["json"]});
    vec![
        json!({"type":"welcome","protocol":3,"connection":1,"max_message_bytes":4096,
            "rate":{"per_second":20,"burst":40},"test_endpoints":true}),
        json!({"type":"pong","rid":null}),
        json!({"type":"pong","rid":"p"}),
        json!({"type":"error","code":"bad_json","message":"not valid JSON"}),
        json!({"type":"state","kind":"hosted","room":"H2","game":"H2","version":3,
            "turn_version":null,"status":"waiting","host":7,
            "seats":[{"kind":"empty","color":"black"},
                     {"kind":"bot","level":"hard","color":"white"}],
            "members":[{"player":7,"connected":false,"grace_until":1000}],
            "reservation":null,"bot_leaving":false,"paused":null,"game_no":0,
            "action_limit_ms":60000,"deadline":null,"game_limit_at":null,"server_time":5,
            "result":null,"clock":null,"board":null,"legal":[],"rid":2}),
        json!({"type":"guest","player":4,"token":"t0k3n"}),
        json!({"type":"guest","player":4,"token":"t0k3n","rid":1}),
        json!({"type":"queued","until":120000}),
        json!({"type":"queue_expired"}),
        json!({"type":"queue_cancelled","rid":[1]}),
        json!({"type":"invite","code":"ABCD2345","link":"/join/ABCD2345","expires_at":600000}),
        json!({"type":"invite_expired","code":"ABCD2345"}),
        json!({"type":"invite_cancelled","code":"ABCD2345"}),
        json!({"type":"matched","room":"R9","seat":1,"color":"white"}),
        record_msg,
        json!({"type":"games","player":1,"games":[record]}),
        json!({"type":"room_created","room":"H2","rid":0}),
        json!({"type":"rematch_waiting","room":"R9"}),
        json!({"type":"rematch_offered","room":"R9"}),
    ]
}

#[test]
fn every_server_message_round_trips_and_is_documented() {
    let mut kinds = BTreeSet::new();
    for value in every_server_message() {
        let msg: ServerMsg =
            serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"));
        assert_eq!(serde_json::to_value(&msg).unwrap(), value);
        let text: Value = serde_json::from_str(&msg.to_text()).unwrap();
        assert_eq!(text, value);
        assert_eq!(value["type"], msg.kind());
        assert_eq!(msg.rid(), value.get("rid").filter(|r| !r.is_null()));
        assert!(
            PROTOCOL_MD.contains(&format!("`{}`", msg.kind())),
            "{} is not in PROTOCOL.md",
            msg.kind()
        );
        kinds.insert(msg.kind());
    }
    assert_eq!(kinds.len(), 17, "one sample of every server message type");
}

/// One sample of every client message.
fn every_client_message() -> Vec<ClientMsg> {
    let room = || "H1".to_owned();
    vec![
        ClientMsg::Ping { rid: None },
        ClientMsg::Move {
            rid: Some(json!(1)),
            game: "R1".into(),
            square: Square::D3,
            version: 4,
        },
        ClientMsg::Undo {
            rid: None,
            game: "R1".into(),
            version: 4,
        },
        ClientMsg::Resign {
            rid: None,
            game: "R1".into(),
        },
        ClientMsg::Sync {
            rid: None,
            game: "H1".into(),
        },
        ClientMsg::Queue { rid: None },
        ClientMsg::CancelQueue { rid: None },
        ClientMsg::InviteCreate { rid: None },
        ClientMsg::InviteCancel { rid: None },
        ClientMsg::InviteJoin {
            rid: None,
            code: "/join/ABCD2345".into(),
        },
        ClientMsg::Reconnect {
            rid: None,
            token: "t".into(),
        },
        ClientMsg::RoomCreate {
            rid: None,
            action_secs: Some(60),
        },
        ClientMsg::RoomJoin {
            rid: None,
            room: room(),
        },
        ClientMsg::Sit {
            rid: None,
            room: room(),
            seat: 0,
        },
        ClientMsg::Stand {
            rid: None,
            room: room(),
        },
        ClientMsg::AddBot {
            rid: None,
            room: room(),
            seat: 1,
            level: Level::Normal,
        },
        ClientMsg::RemoveBot {
            rid: None,
            room: room(),
        },
        ClientMsg::Reserve {
            rid: None,
            room: room(),
        },
        ClientMsg::Start {
            rid: None,
            room: room(),
        },
        ClientMsg::Pause {
            rid: None,
            room: room(),
        },
        ClientMsg::Resume {
            rid: None,
            room: room(),
        },
        ClientMsg::End {
            rid: None,
            room: room(),
        },
        ClientMsg::Rematch {
            rid: None,
            room: "R1".into(),
        },
        ClientMsg::Leave {
            rid: None,
            room: room(),
        },
        ClientMsg::Record {
            rid: None,
            game: "R1".into(),
            token: "t".into(),
            game_no: None,
        },
        ClientMsg::Games {
            rid: Some(json!("g")),
            token: "t".into(),
            limit: Some(5),
        },
    ]
}

#[test]
fn every_client_message_round_trips_through_the_parser() {
    let all = every_client_message();
    let kinds: BTreeSet<&str> = all.iter().map(ClientMsg::kind).collect();
    let expected: BTreeSet<&str> = CLIENT_TYPES.iter().copied().collect();
    assert_eq!(kinds, expected, "one sample of every client message type");
    for msg in all {
        let text = msg.to_text();
        assert_eq!(parse_client(&text).as_ref(), Ok(&msg), "{text}");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["type"], msg.kind());
        // Absent optional fields are left out, never written as null.
        assert!(!text.contains("null"), "{text}");
    }
}

#[test]
fn refusals_carry_the_type_and_rid_they_could_read() {
    let cases = [
        ("", ErrorCode::BadJson, None, None),
        ("7", ErrorCode::NotAnObject, None, None),
        (r#"{"rid":1}"#, ErrorCode::MissingType, None, Some(json!(1))),
        (r#"{"type":3}"#, ErrorCode::MissingType, None, None),
        (
            r#"{"type":"local_new","rid":"r"}"#,
            ErrorCode::UnknownType,
            None,
            Some(json!("r")),
        ),
        (
            r#"{"type":"sit","room":"H1","seat":-1}"#,
            ErrorCode::BadMessage,
            Some("sit"),
            None,
        ),
        (
            r#"{"type":"ping","extra":0}"#,
            ErrorCode::BadMessage,
            Some("ping"),
            None,
        ),
    ];
    for (text, code, request, rid) in cases {
        let e = parse_client(text).unwrap_err();
        assert_eq!(
            (e.code, e.request.as_deref(), e.rid.clone()),
            (code, request, rid.clone()),
            "{text}"
        );
        let ServerMsg::Error {
            code: c, rid: r, ..
        } = e.to_msg()
        else {
            panic!("an error message")
        };
        assert_eq!((c.as_str(), r), (code.as_str(), rid));
    }
    // Whatever the bytes, the parser answers (no panic): a few hostile ones.
    for text in [
        "\u{0}",
        "{\"type\":\"move\",\"square\":\"z9\"}",
        &"[".repeat(4000),
    ] {
        assert!(parse_client(text).is_err());
    }
}
