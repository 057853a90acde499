//! Issue 28, finding 14: a client holding the token made 2,000 MCP sessions (113 MB in under a
//! second) and a second standalone stream on a session, and the server logged each session's id
//! at info. Now: at most 64 sessions, a new one past that refused saying what ends one; one
//! standalone stream per session; no session id in the log, at trace level either.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::Env;
use crate::http::{HttpServer, initialize};

/// The server's bound (src/controller/mcp/http/sessions.rs).
const MOST: usize = 64;

/// Opens the session's standalone stream (GET); returns its status and, when it is open, the
/// connection holding it.
pub(crate) fn stream(server: &HttpServer, session: &str) -> (u16, Option<TcpStream>) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        s,
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {}\r\nMcp-Session-Id: {session}\r\n\
         Accept: text/event-stream\r\n\r\n",
        server.addr,
        server.bearer()
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n") && s.read(&mut byte).unwrap() == 1 {
        head.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&head).to_string();
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("an HTTP answer: {line:?}"));
    (status, (status == 200).then_some(s))
}

#[test]
fn sessions_are_bounded_with_one_stream_each_and_their_ids_stay_out_of_the_log() {
    let env = Env::fresh("http-sessions");
    let log = std::env::temp_dir().join(format!(
        "tabpilot-e2e-{}-http-sessions.log",
        std::process::id()
    ));
    let server = HttpServer::start_in(&env, |cmd| {
        let file = std::fs::File::create(&log).unwrap();
        cmd.env("TABPILOT_LOG", "trace").stderr(Stdio::from(file));
    });
    let auth = server.bearer();
    let with_auth = [("Authorization", auth.as_str())];
    let mut ids: Vec<String> = (0..MOST as u64)
        .map(|n| {
            let (status, session, body) = server.post(&with_auth, &initialize(n));
            assert_eq!(status, 200, "session {n}: {body}");
            session.expect("a session id")
        })
        .collect();

    // One more is refused, saying why and what ends a session.
    let (status, session, body) = server.post(&with_auth, &initialize(99));
    assert_eq!((status, session), (503, None), "{body}");
    assert!(body.contains("at most 64 MCP sessions"), "{body}");
    assert!(body.contains("(DELETE)"), "{body}");

    // A session that ends makes room for one.
    let ended = ids.remove(0);
    let (status, _, body) = server.request(
        "DELETE",
        &[("Authorization", &auth), ("Mcp-Session-Id", &ended)],
        "",
    );
    assert!(matches!(status, 200 | 202 | 204), "{status} {body}");
    let (status, session, body) = server.post(&with_auth, &initialize(100));
    assert_eq!(status, 200, "{body}");
    ids.push(session.unwrap());

    // One standalone stream per session: a second is refused while the first is open.
    let id = ids[0].clone();
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    server.post(&[("Authorization", &auth), ("Mcp-Session-Id", &id)], &done);
    let (status, first) = stream(&server, &id);
    assert_eq!(status, 200, "the first stream");
    let (status, _) = stream(&server, &id);
    assert_eq!(status, 409, "a second stream on the session");
    let (status, _other) = stream(&server, &ids[1]);
    assert_eq!(status, 200, "another session's stream");
    // Once the first is closed, the session may open its stream again.
    drop(first);
    let started = Instant::now();
    loop {
        let (status, _again) = stream(&server, &id);
        if status == 200 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the closed stream still counts: {status}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    drop(server);
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    for id in ids.iter().chain([&ended]) {
        assert!(
            !text.contains(id.as_str()),
            "a session id in the log:\n{text}"
        );
    }
}
