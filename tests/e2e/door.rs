//! Issue 28, finding 4: `mcp --http` and `dashboard` had no clock on a request's head and no
//! bound on connections that had not proved anything. Another local user holding about 1,100
//! half-open connections (saying nothing, or half a request's head) took every descriptor a
//! server with the system's usual limit (1,024) has, and the person's own requests went
//! unanswered. Behind the relay's door (src/shared/serve/door.rs) a request with the token is answered
//! within a second all the same.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::dashboard::{Dashboard, field};
use crate::harness::{Env, limit_files, raise_own_files};
use crate::http::{HttpServer, initialize};

/// As the probe held them.
const HELD: usize = 1_100;
/// The descriptors a server gets by default on most systems (a shell here may allow more).
const USUAL_FILES: u64 = 1_024;
/// How soon the person's request must be answered.
const WITHIN: Duration = Duration::from_secs(1);

/// Connections that never finish a request: every other one says nothing, the rest send half
/// a request's head.
fn hold(addr: SocketAddr) -> Vec<TcpStream> {
    raise_own_files(HELD as u64 * 2 + 512);
    let held: Vec<TcpStream> = (0..HELD)
        .filter_map(|i| {
            let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
            if i % 2 == 1 {
                let half = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: app");
                let _ = s.write_all(half.as_bytes());
            }
            Some(s)
        })
        .collect();
    assert!(
        held.len() > HELD - 50,
        "only {} connections held",
        held.len()
    );
    held
}

/// Sends `request` to `addr`; the answer's status line, or why there was none, and how long
/// it took.
fn ask(addr: SocketAddr, request: &str) -> (Result<String, String>, Duration) {
    let started = Instant::now();
    let answer = (|| {
        let mut s =
            TcpStream::connect_timeout(&addr, WITHIN).map_err(|e| format!("connect: {e}"))?;
        s.set_read_timeout(Some(WITHIN * 3)).unwrap();
        s.write_all(request.as_bytes())
            .map_err(|e| format!("send: {e}"))?;
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n") {
            match s.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                Ok(_) => return Err("closed without an answer".to_string()),
                Err(e) => return Err(format!("no answer: {e}")),
            }
        }
        Ok(String::from_utf8_lossy(&head).trim().to_string())
    })();
    (answer, started.elapsed())
}

fn answered_in_time(what: &str, (answer, took): (Result<String, String>, Duration)) {
    let status = answer.unwrap_or_else(|e| panic!("{what}: {e} after {took:?}"));
    assert!(status.starts_with("HTTP/1.1 200"), "{what}: {status}");
    assert!(took < WITHIN, "{what} took {took:?}");
}

#[test]
fn mcp_http_answers_the_token_under_a_thousand_half_open_connections() {
    let env = Env::fresh("door-http");
    let server = HttpServer::start_in(&env, |cmd| limit_files(cmd, USUAL_FILES));
    let addr: SocketAddr = server.addr.parse().unwrap();
    let body = initialize(1).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.bearer(),
        body.len()
    );
    let held = hold(addr);
    answered_in_time("initialize with the token", ask(addr, &request));
    answered_in_time("and again", ask(addr, &request));
    drop(held);
}

#[test]
fn the_dashboard_answers_its_cookie_under_a_thousand_half_open_connections() {
    let env = Env::fresh("door-dashboard");
    let dashboard = Dashboard::start_with(&env, |cmd| limit_files(cmd, USUAL_FILES));
    let addr: SocketAddr = ([127, 0, 0, 1], dashboard.port).into();
    // The person opened the link: the key is traded for the cookie.
    let (status, head, _) = dashboard.request("GET", &dashboard.key_path(), &[]);
    assert_eq!(status, 303, "{head}");
    let base = field(&head, "location: ");
    let cookie = field(&head, "set-cookie: ");
    let cookie = cookie.split(';').next().unwrap();
    let request = format!(
        "GET {base} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    );
    let held = hold(addr);
    answered_in_time("the page with the cookie", ask(addr, &request));
    answered_in_time("and again", ask(addr, &request));
    drop(held);
}
