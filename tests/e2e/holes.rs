//! The security probe's findings, each replayed as it was found (issue "Close the holes").
//! "Another local user" is a process without the state dir's secret.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::json;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};

use crate::harness::{Env, Kill, Mcp, runtime};
use crate::peers;

/// A relay of this environment, started by hand, listening on `port`.
fn relay_on(env: &Env, port: u16) -> Kill {
    relay_with(env, port, None)
}

/// A relay, with at most `files` descriptors when given (as a small ulimit would leave it).
fn relay_with(env: &Env, port: u16, files: Option<u64>) -> Kill {
    let mut cmd = env.command(&["relay"]);
    if let Some(n) = files {
        crate::harness::limit_files(&mut cmd, n);
    }
    let mut child = cmd
        .env("TABPILOT_RELAY_IDLE_MS", "30000")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabpilot relay starts");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(child.try_wait().unwrap().is_none(), "the relay exited");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no relay on {port}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Kill(child)
}

/// What a squatter saw pass through it: each text message, and which way it went.
type Seen = Arc<Mutex<Vec<(&'static str, String)>>>;

/// Finding 1 as it was found: a process squatting on the first port of the range that passes
/// every socket on to the real relay (same path, same Origin) and both ways back, reading it
/// all. Runs on its own thread until the test ends.
// The accept callback's error type is tungstenite's own HTTP response, large by its design.
#[allow(clippy::result_large_err)]
fn squatter(port: u16, relay: u16) -> Seen {
    let seen: Seen = Arc::default();
    let record = seen.clone();
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port is free");
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async move {
            let listener = TcpListener::from_std(listener).unwrap();
            while let Ok((tcp, _)) = listener.accept().await {
                let record = record.clone();
                tokio::spawn(async move {
                    let asked = Arc::new(Mutex::new((String::new(), None::<String>)));
                    let keep = asked.clone();
                    let callback = move |req: &Request, resp: Response| {
                        let origin = req
                            .headers()
                            .get("origin")
                            .map(|o| o.to_str().unwrap().to_string());
                        *keep.lock().unwrap() = (req.uri().path().to_string(), origin);
                        Ok(resp)
                    };
                    let Ok(client) = tokio_tungstenite::accept_hdr_async(tcp, callback).await
                    else {
                        return;
                    };
                    let (path, origin) = asked.lock().unwrap().clone();
                    let Ok(upstream) = peers::open(relay, &path, origin.as_deref()).await else {
                        return;
                    };
                    let (mut c_tx, mut c_rx) = client.split();
                    let (mut u_tx, mut u_rx) = upstream.inner.split();
                    let up = record.clone();
                    let to_relay = async move {
                        while let Some(Ok(msg)) = c_rx.next().await {
                            if let Message::Text(t) = &msg {
                                up.lock().unwrap().push(("to relay", t.to_string()));
                            }
                            if u_tx.send(msg).await.is_err() {
                                break;
                            }
                        }
                    };
                    let down = record.clone();
                    let to_client = async move {
                        while let Some(Ok(msg)) = u_rx.next().await {
                            if let Message::Text(t) = &msg {
                                down.lock().unwrap().push(("to peer", t.to_string()));
                            }
                            if c_tx.send(msg).await.is_err() {
                                break;
                            }
                        }
                    };
                    tokio::join!(to_relay, to_client);
                });
            }
        });
    });
    seen
}

/// The kinds of frame (`t`) that went `way` through the squatter.
fn kinds(seen: &Seen, way: &str) -> Vec<String> {
    seen.lock()
        .unwrap()
        .iter()
        .filter(|(w, _)| *w == way)
        .map(|(_, text)| {
            serde_json::from_str::<serde_json::Value>(text).unwrap()["t"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

#[test]
fn a_port_squatter_cannot_pass_a_controllers_handshake_on_to_the_relay() {
    let env = Env::fresh("holes-squat-controller");
    let relay_port = env.first_port + 1;
    let seen = squatter(env.first_port, relay_port);
    let _relay = relay_on(&env, relay_port);
    // The relay recorded its port, so a controller goes there first and never meets the squatter.
    let (ok, out, err) = env.cli(&["status"]);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("port {relay_port}")), "{out}");
    assert!(seen.lock().unwrap().is_empty(), "the squatter saw {seen:?}");

    // Without the record (an older relay's, say), the controller dials the squatter first: the
    // handshake it passes on fails at the relay, and the controller moves on to the real one.
    let lock = env
        .state_dir
        .join(format!("relay-{}-{}.lock", env.first_port, relay_port));
    std::fs::write(&lock, "").unwrap();
    let (ok, out, err) = env.cli(&["status"]);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("port {relay_port}")), "{out}");
    let to_peer = kinds(&seen, "to peer");
    let to_relay = kinds(&seen, "to relay");
    assert_eq!(to_relay, ["hello"], "{seen:?}");
    assert!(
        !to_peer.contains(&"welcome".to_string()),
        "the relay welcomed a handshake passed on from another port: {seen:?}"
    );
}

#[test]
fn a_port_squatter_sees_no_frame_of_a_browser_and_injects_nothing() {
    let env = Env::fresh("holes-squat-browser");
    let relay_port = env.first_port + 1;
    let seen = squatter(env.first_port, relay_port);
    let _relay = relay_on(&env, relay_port);
    // A managed browser knows the range, not the port: it dials the squatter first.
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);
    let (_, data) = agent.ok("browser_status", json!({}));
    assert_eq!(data["relay"]["port"], relay_port);
    agent.ok("browser_navigate", json!({"url": "about:blank"}));
    agent.ok("browser_list_tabs", json!({}));
    let to_relay = kinds(&seen, "to relay");
    let to_peer = kinds(&seen, "to peer");
    assert!(
        to_relay.contains(&"hello".to_string()),
        "the browser never dialled the squatter: {seen:?}"
    );
    assert!(
        to_relay.iter().all(|t| t == "hello"),
        "the browser sent more than a hello through the squatter: {seen:?}"
    );
    assert!(
        to_peer.iter().all(|t| t == "challenge"),
        "frames reached the browser through the squatter: {seen:?}"
    );
}

// Finding 8: before authentication /browser took 48 MiB frames (eight sockets took the relay from
// 8 to 478 MiB), and TCP connections that never sent a request were never closed.
#[test]
fn before_it_proves_itself_a_peer_gets_one_small_frame_and_a_few_seconds() {
    let env = Env::fresh("holes-preauth");
    let port = env.first_port;
    let _relay = relay_on(&env, port);
    let rt = runtime();
    rt.block_on(async {
        let mut ws = peers::open(port, "/browser", Some(peers::EXTENSION_ORIGIN))
            .await
            .unwrap();
        peers::challenge(&mut ws).await;
        let big = format!("{{\"t\":\"hello\",\"pad\":\"{}\"}}", "x".repeat(2 << 20));
        let _ = ws.send(Message::Text(big.into())).await;
        let (code, _) = peers::closed(&mut ws).await;
        assert_eq!(code, 1009, "a 2 MiB frame before the proof was read");
        // A socket that says nothing after the upgrade is closed within seconds.
        let mut quiet = peers::open(port, "/controller", None).await.unwrap();
        peers::challenge(&mut quiet).await;
        let started = Instant::now();
        let (code, reason) = peers::closed(&mut quiet).await;
        assert_eq!((code, reason.as_str()), (4001, "no hello"));
        assert!(started.elapsed() < Duration::from_secs(6));
    });
    // A connection that never sends its request is closed within seconds.
    let mut silent = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    silent
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 16];
    let n = std::io::Read::read(&mut silent, &mut buf).unwrap_or(0);
    assert_eq!(n, 0, "the relay answered a connection that sent nothing");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "a silent connection stayed open {:?}",
        started.elapsed()
    );
}

#[test]
fn silent_connections_do_not_lock_a_client_out() {
    let env = Env::fresh("holes-silent");
    let port = env.first_port;
    // As the probe found it: a relay with 128 descriptors, and more connections than that saying nothing.
    let _relay = relay_with(&env, port, Some(128));
    let silent: Vec<std::net::TcpStream> = (0..200)
        .filter_map(|_| std::net::TcpStream::connect(("127.0.0.1", port)).ok())
        .collect();
    assert!(silent.len() > 100);
    let started = Instant::now();
    let (ok, out, err) = env.cli(&["status"]);
    assert!(ok, "a client was locked out: {err}");
    assert!(out.contains(&format!("port {port}")), "{out}");
    assert!(started.elapsed() < Duration::from_secs(10));
    drop(silent);
}

// Finding 10: browser_list_tabs showed every tab's full address, tokens in query strings too.
#[test]
fn another_agents_tab_is_listed_by_its_origin_only() {
    let s = crate::harness::shared();
    let mut alpha = s.agent();
    let secret_url = format!("{}?token=s3cret-4711", s.a("basic.html"));
    alpha.ok(
        "browser_navigate",
        json!({"url": secret_url, "includeSnapshot": false}),
    );
    let mut beta = s.agent();
    beta.ok(
        "browser_navigate",
        json!({"url": "about:blank", "includeSnapshot": false}),
    );
    // Every page of the list, as text and as data.
    let listed = |agent: &mut crate::harness::Mcp| {
        let mut all = String::new();
        for page in 1.. {
            let r = agent.call("browser_list_tabs", json!({ "page": page }));
            let said = crate::harness::text(&r);
            all.push_str(&format!("{said}\n{}\n", r["structuredContent"]));
            // The last page, or one past it (other tests close tabs meanwhile).
            if r["isError"] == true || !said.contains("next: browser_list_tabs") {
                return all;
            }
        }
        unreachable!("pages end")
    };
    let said = listed(&mut beta);
    assert!(!said.contains("s3cret-4711"), "{said}");
    assert!(
        said.contains(&s.fixtures.a),
        "the origin is still there: {said}"
    );
    // Its own tab it sees whole.
    let said = listed(&mut alpha);
    assert!(said.contains("s3cret-4711"), "{said}");
}

/// The relay processes of this environment (found by their port range).
fn relays_of(env: &Env) -> Vec<i32> {
    let needle = format!("TABPILOT_PORTS={}", env.ports);
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains("relay")
                && String::from_utf8_lossy(&environ).contains(&needle)
        })
        .collect()
}

// Finding 7, end to end: the relay dies under an agent working in a real browser; the next relay
// gets its books back from the extension, and the agent goes on in its own tab.
#[test]
fn an_agent_keeps_its_tab_through_a_relay_restart() {
    let env = Env::fresh("holes-restart");
    let s = crate::harness::shared();
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);
    let page = s.a("basic.html");
    agent.ok(
        "browser_navigate",
        json!({"url": page, "includeSnapshot": false}),
    );
    let relays = relays_of(&env);
    assert_eq!(relays.len(), 1, "{relays:?}");
    // SAFETY: signalling a process this test's environment started.
    unsafe { libc::kill(relays[0], libc::SIGKILL) };
    let deadline = Instant::now() + Duration::from_secs(30);
    let data = loop {
        let r = agent.call("browser_snapshot", json!({}));
        if r["isError"] != true {
            break r["structuredContent"].clone();
        }
        assert!(Instant::now() < deadline, "no browser came back: {r}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(data["url"], json!(page), "the agent lost its tab: {data}");
}
