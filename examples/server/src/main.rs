//! `server`: runs the Reversi server (see the library's documentation and `PROTOCOL.md`).
//!
//! ```text
//! cargo run --release -p reversi-server -- [--addr 127.0.0.1:8080] [--db ./reversi.db] [--test-endpoints] [--snapshot-secs 30]
//!     [--redis redis://127.0.0.1:6379/ [--lease-ms 10000] [--redis-prefix reversi]]
//! ```
//!
//! `--redis` makes the node a member of a cluster (see `PROTOCOL.md`, "Several nodes").
//! `--queue-wait-secs N` (default 120) and `--invite-secs N` (default 600) set how long a wait for
//! a random match and an invite last, `--reconnect-secs N` (default 60) how long a disconnected
//! guest who is not playing keeps its place (and its open invite).

use std::net::SocketAddr;
use std::path::PathBuf;

use reversi::clock::Span;
use reversi_server::{Config, Server};
use tokio::net::TcpListener;

struct Args {
    addr: SocketAddr,
    cfg: Config,
}

/// What was wrong with the command line.
#[derive(Debug, thiserror::Error)]
enum ArgsError {
    #[error("{0} needs a value")]
    Missing(&'static str),
    #[error("{flag} {value}: {why}")]
    Bad {
        flag: &'static str,
        value: String,
        why: String,
    },
    #[error("--lease-ms and --redis-prefix go with --redis")]
    WithoutRedis,
    #[error("unknown argument {0:?}\n{USAGE}")]
    Unknown(String),
    #[error("{USAGE}")]
    Help,
}

fn bad(flag: &'static str, value: &str, why: impl std::fmt::Display) -> ArgsError {
    ArgsError::Bad {
        flag,
        value: value.to_owned(),
        why: why.to_string(),
    }
}

const USAGE: &str = "usage: server [--addr 127.0.0.1:8080] [--db ./reversi.db] [--test-endpoints] [--snapshot-secs 30] [--queue-wait-secs 120] [--invite-secs 600] [--reconnect-secs 60] [--redis URL [--lease-ms 10000] [--redis-prefix reversi]]";

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, ArgsError> {
    let mut addr: SocketAddr = "127.0.0.1:8080".parse().expect("a valid address");
    let mut db = PathBuf::from("reversi.db");
    let mut test_endpoints = false;
    let mut snapshot_secs = None;
    let mut redis = None;
    let mut lease_ms = None;
    let mut prefix = None;
    let mut queue_wait = None;
    let mut invite_secs = None;
    let mut reconnect_secs = None;
    let secs = |flag: &'static str, v: Option<String>| -> Result<u64, ArgsError> {
        let v = v.ok_or(ArgsError::Missing(flag))?;
        let n: u64 = v.parse().map_err(|e| bad(flag, &v, e))?;
        if !(1..=86_400).contains(&n) {
            return Err(bad(flag, &v, "from 1 to 86400"));
        }
        Ok(n)
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--addr" => {
                let v = args.next().ok_or(ArgsError::Missing("--addr"))?;
                addr = v.parse().map_err(|e| bad("--addr", &v, e))?;
            }
            "--db" => db = PathBuf::from(args.next().ok_or(ArgsError::Missing("--db"))?),
            "--test-endpoints" => test_endpoints = true,
            "--snapshot-secs" => {
                let v = args.next().ok_or(ArgsError::Missing("--snapshot-secs"))?;
                let secs: u64 = v.parse().map_err(|e| bad("--snapshot-secs", &v, e))?;
                if !(1..=86_400).contains(&secs) {
                    return Err(bad("--snapshot-secs", &v, "from 1 to 86400"));
                }
                snapshot_secs = Some(secs);
            }
            "--redis" => {
                let v = args.next().ok_or(ArgsError::Missing("--redis"))?;
                if !(v.starts_with("redis://")
                    || v.starts_with("rediss://")
                    || v.starts_with("unix://"))
                {
                    return Err(bad("--redis", &v, "a redis:// URL"));
                }
                redis = Some(v);
            }
            "--lease-ms" => {
                let v = args.next().ok_or(ArgsError::Missing("--lease-ms"))?;
                let ms: u64 = v.parse().map_err(|e| bad("--lease-ms", &v, e))?;
                if !(200..=600_000).contains(&ms) {
                    return Err(bad("--lease-ms", &v, "from 200 to 600000"));
                }
                lease_ms = Some(ms);
            }
            "--queue-wait-secs" => queue_wait = Some(secs("--queue-wait-secs", args.next())?),
            "--invite-secs" => invite_secs = Some(secs("--invite-secs", args.next())?),
            "--reconnect-secs" => reconnect_secs = Some(secs("--reconnect-secs", args.next())?),
            "--redis-prefix" => {
                let v = args.next().ok_or(ArgsError::Missing("--redis-prefix"))?;
                if v.is_empty()
                    || v.len() > 64
                    || !v
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    return Err(bad("--redis-prefix", &v, "1 to 64 letters, digits, - or _"));
                }
                prefix = Some(v);
            }
            "-h" | "--help" => return Err(ArgsError::Help),
            other => return Err(ArgsError::Unknown(other.to_owned())),
        }
    }
    let mut cfg = Config::new(db);
    cfg.test_endpoints = test_endpoints;
    if let Some(secs) = snapshot_secs {
        cfg.online.snapshot_every = std::time::Duration::from_secs(secs);
    }
    if let Some(s) = queue_wait {
        cfg.online.lobby = cfg.online.lobby.with_queue_wait(Span::from_secs(s));
    }
    if let Some(s) = invite_secs {
        cfg.online.lobby = cfg.online.lobby.with_invite_ttl(Span::from_secs(s));
    }
    if let Some(s) = reconnect_secs {
        cfg.online.lobby = cfg.online.lobby.with_reconnect_grace(Span::from_secs(s));
    }
    match (redis, lease_ms.is_some() || prefix.is_some()) {
        (Some(url), _) => {
            let mut c = reversi_server::ClusterConfig::new(url);
            if let Some(ms) = lease_ms {
                c.lease = std::time::Duration::from_millis(ms);
            }
            if let Some(p) = prefix {
                c.prefix = p;
            }
            cfg.cluster = Some(c);
        }
        (None, true) => return Err(ArgsError::WithoutRedis),
        (None, false) => {}
    }
    Ok(Args { addr, cfg })
}

fn main() {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(ArgsError::Help) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async move {
        let listener = match TcpListener::bind(args.addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("cannot listen on {}: {e}", args.addr);
                std::process::exit(1);
            }
        };
        let server = match Server::start(args.cfg, listener).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        tracing::info!(addr = %server.addr, "listening: open http://{}/", server.addr);
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("stopping");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, ArgsError> {
        parse_args(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn each_wrong_command_line_gets_its_own_error() {
        assert!(matches!(parse(&["--db"]), Err(ArgsError::Missing("--db"))));
        assert!(matches!(
            parse(&["--lease-ms", "5"]),
            Err(ArgsError::Bad { flag: "--lease-ms", ref value, .. }) if value == "5"
        ));
        assert!(matches!(
            parse(&["--redis", "http://x"]),
            Err(ArgsError::Bad {
                flag: "--redis",
                ..
            })
        ));
        assert!(matches!(
            parse(&["--redis-prefix", "a b"]),
            Err(ArgsError::Bad {
                flag: "--redis-prefix",
                ..
            })
        ));
        assert!(matches!(
            parse(&["--lease-ms", "1000"]),
            Err(ArgsError::WithoutRedis)
        ));
        assert!(matches!(
            parse(&["--queue-wait-secs", "0"]),
            Err(ArgsError::Bad {
                flag: "--queue-wait-secs",
                ..
            })
        ));
        assert!(matches!(
            parse(&["--invite-secs"]),
            Err(ArgsError::Missing("--invite-secs"))
        ));
        let a = parse(&[
            "--queue-wait-secs",
            "5",
            "--invite-secs",
            "7",
            "--reconnect-secs",
            "9",
        ])
        .unwrap();
        assert_eq!(a.cfg.online.lobby.reconnect_grace, Span::from_secs(9));
        assert_eq!(a.cfg.online.lobby.queue_wait, Span::from_secs(5));
        assert_eq!(a.cfg.online.lobby.invite_ttl, Span::from_secs(7));
        assert!(matches!(parse(&["--what"]), Err(ArgsError::Unknown(a)) if a == "--what"));
        assert!(matches!(parse(&["--help"]), Err(ArgsError::Help)));
        let ok = parse(&["--redis", "redis://127.0.0.1/", "--lease-ms", "1000"]).unwrap();
        let cluster = ok.cfg.cluster.expect("a cluster member");
        assert_eq!(cluster.lease, std::time::Duration::from_millis(1000));
    }
}
