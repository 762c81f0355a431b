//! NBoard protocol lines, moves and GGF game records: never a panic. Every line goes through
//! the command parser, a `Driver` (one per process, its position reset for every input; `go`
//! and `hint`, which search, are parsed but not run) and a `Client` waiting for a move; the
//! whole input also through `parse_ggf`, whose positions `write_ggf` writes back.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use reversi::ai::nboard::{
    move_name, parse_ggf, parse_move, write_ggf, Client, Command, Driver, NBoardError, Reply,
};
use reversi::core::{Move, Position};

thread_local! {
    // An engine's tables are megabytes: one driver for the whole run.
    static DRIVER: RefCell<Driver> = RefCell::new(Driver::new());
}

fn check_ggf(s: &str) {
    match parse_ggf(s) {
        Ok(pos) => assert_eq!(parse_ggf(&write_ggf(&pos)), Ok(pos)),
        Err(e) => assert!(matches!(e, NBoardError::Ggf(_)), "{e:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    check_ggf(s);
    DRIVER.with(|d| {
        let mut driver = d.borrow_mut();
        driver
            .handle(&format!("set game {}", write_ggf(&Position::initial())))
            .unwrap();
        let mut client = Client::new(None);
        let mut asked = client.ask(driver.position()).unwrap();
        assert_eq!(asked.pop().as_deref(), Some("go"));
        for line in s.lines() {
            if let Ok(m) = parse_move(line) {
                assert_eq!(parse_move(&move_name(m)), Ok(m));
            }
            let before = *driver.position();
            match line.parse::<Command>() {
                Ok(Command::Go | Command::Hint(_)) => {}
                Ok(Command::SetGame(p)) => {
                    assert_eq!(parse_ggf(&write_ggf(&p)), Ok(p));
                    assert_eq!(driver.handle(line), Ok(Vec::new()));
                    assert_eq!(*driver.position(), p);
                }
                Ok(Command::Move(m)) => match driver.handle(line) {
                    Ok(out) => {
                        assert!(out.is_empty());
                        let cur = if m != Move::Pass && before.must_pass() {
                            before.pass()
                        } else {
                            before
                        };
                        assert_eq!(cur.play(m), Ok(*driver.position()));
                    }
                    Err(e) => {
                        assert!(matches!(e, NBoardError::IllegalMove { .. }), "{e:?}");
                        assert_eq!(*driver.position(), before);
                    }
                },
                Ok(_) => {
                    driver.handle(line).unwrap();
                }
                Err(e) => {
                    assert!(
                        matches!(
                            e,
                            NBoardError::UnknownCommand(_)
                                | NBoardError::BadArgument(_)
                                | NBoardError::Ggf(_)
                        ),
                        "{e:?}"
                    );
                    let r = driver.handle(line);
                    assert!(line.trim().is_empty() || r.is_err());
                    assert_eq!(*driver.position(), before);
                }
            }
            // The same line as an engine's answer to a client.
            let waiting = client.is_waiting();
            match client.read(line) {
                Ok(Reply::Move(m)) => {
                    assert!(waiting);
                    assert!(Position::initial().play(m).is_ok());
                }
                Ok(_) => {}
                Err(e) => assert!(
                    matches!(
                        e,
                        NBoardError::BadArgument(_)
                            | NBoardError::IllegalMove { .. }
                            | NBoardError::Unexpected(_)
                    ),
                    "{e:?}"
                ),
            }
        }
    });
});
