//! The relay with fake peers written in Rust: origins, the challenge, envelope checks, size and
//! rate ceilings, routing between a fake controller and a fake browser, ports, the single
//! instance, owner-only state and idling out. Each test drives a real `tabpilot relay` process.

use std::net::TcpStream as StdTcpStream;
use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabpilot::shared::protocol::{
    self, Answer, BrowserId, Frame, Op, PeerInfo, RelayOp, Role, Scope, TabEvent, TabId, Target,
    auth, close,
};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::harness::{Env, Mcp};
use crate::peers::{
    DEADLINE, EXTENSION_ORIGIN, Ws, answer, browser_call, call, challenge, closed, connect,
    connect_holding, handshake, hello, next_message, open, opened, recv, relay_call, result, send,
    send_text, tab_call,
};

/// Long enough that a relay never idles out under a test that is busy elsewhere, short enough
/// that one orphaned by a killed test binary goes away by itself.
const TEST_IDLE_MS: &str = "60000";

/// A `tabpilot relay` child process, killed when dropped.
struct Relay {
    child: Child,
    env: Env,
    port: u16,
}

impl Relay {
    /// Starts a relay on `env` and waits until its first port accepts.
    fn start(env: Env) -> Relay {
        let child = spawn_relay(&env, TEST_IDLE_MS);
        let port = env.first_port;
        let mut relay = Relay { child, env, port };
        wait_listening(&mut relay.child, port);
        relay
    }

    fn secret(&self) -> Vec<u8> {
        self.env.secret()
    }

    async fn controller(&self, session: Option<&str>, name: &str) -> Ws {
        let info = PeerInfo {
            name: name.into(),
            pid: 4242,
            session: session.map(String::from),
            session_key: session.map(|s| format!("the key of {s}")),
            ..Default::default()
        };
        connect(self.port, Role::Controller, &self.secret(), info).await
    }

    /// An agent (no session name) with its own key, as `tabpilot mcp`'s link has.
    async fn agent_with_key(&self, key: &str) -> Ws {
        let info = PeerInfo {
            name: "keyed agent".into(),
            session_key: Some(key.into()),
            ..Default::default()
        };
        connect(self.port, Role::Controller, &self.secret(), info).await
    }

    /// A controller naming a session, with or without its key.
    async fn naming(&self, session: &str, key: Option<&str>) -> Ws {
        let info = PeerInfo {
            name: "sweeper".into(),
            session: Some(session.into()),
            session_key: key.map(String::from),
            ..Default::default()
        };
        connect(self.port, Role::Controller, &self.secret(), info).await
    }

    async fn browser(&self, browser_id: &str) -> Ws {
        self.browser_holding(browser_id, Vec::new()).await
    }

    /// A browser that says, as it joins, which agents' tabs it still has open.
    async fn browser_holding(&self, browser_id: &str, held: Vec<protocol::HeldTab>) -> Ws {
        let info = PeerInfo {
            name: "fake extension".into(),
            browser_id: Some(BrowserId(browser_id.into())),
            browser: Some("FakeChrome".into()),
            profile: Some("Default".into()),
            label: Some("test browser".into()),
            ..Default::default()
        };
        connect_holding(self.port, Role::Browser, &self.secret(), info, held).await
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_relay(env: &Env, idle_ms: &str) -> Child {
    env.command(&["relay"])
        .env("TABPILOT_RELAY_IDLE_MS", idle_ms)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabpilot relay starts")
}

/// Waits until `port` accepts a connection, failing early if the relay exits.
fn wait_listening(child: &mut Child, port: u16) {
    let start = Instant::now();
    while StdTcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the relay exited before listening on {port}: {status}");
        }
        assert!(
            start.elapsed() < DEADLINE,
            "the relay did not listen on {port} within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until the child exits; returns its exit code.
fn wait_exit(child: &mut Child, within: Duration) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status.code();
        }
        assert!(
            start.elapsed() < within,
            "the relay still runs after {within:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One relay shared by the tests that only open their own sockets to it (origins, handshake,
/// envelopes, ceilings): it saves test environments, of which a test binary has few. It lives as
/// long as the test binary (a relay stopped by one test while another started a new one on the
/// same ports raced: the old one still held the lock, so the new one left), and once the tests
/// are gone it idles out by itself.
fn shared_relay() -> Arc<Relay> {
    static SHARED: OnceLock<Arc<Relay>> = OnceLock::new();
    SHARED
        .get_or_init(|| Arc::new(Relay::start(Env::fresh("relay-shared"))))
        .clone()
}

/// The HTTP status of a refused upgrade.
async fn refused_status(port: u16, path: &str, origin: Option<&str>) -> u16 {
    match open(port, path, origin).await {
        Err(WsError::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{path} with origin {origin:?}: expected an HTTP refusal, got {e}"),
        Ok(_) => panic!("{path} with origin {origin:?} was upgraded; it should be refused"),
    }
}

/// A status ask padded to exactly `len` bytes of JSON (a field the relay does not read).
fn status_ask_of_len(len: usize) -> String {
    let padded = |pad: usize| {
        let mut frame = serde_json::to_value(relay_call(1, RelayOp::Status)).unwrap();
        frame["pad"] = json!("x".repeat(pad));
        serde_json::to_string(&frame).unwrap()
    };
    let text = padded(len - padded(0).len());
    assert_eq!(text.len(), len);
    text
}

fn outcome(e: &protocol::WireError) -> String {
    serde_json::to_value(e.outcome)
        .unwrap()
        .as_str()
        .unwrap_or("")
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Origins

#[tokio::test]
async fn browser_endpoint_takes_only_the_extension_origin() {
    let relay = shared_relay();
    assert_eq!(
        refused_status(relay.port, "/browser", Some("https://evil.example")).await,
        403
    );
    assert_eq!(
        refused_status(relay.port, "/browser", Some("http://127.0.0.1:8000")).await,
        403
    );
    // Another extension is foreign too.
    let other = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    assert_eq!(
        refused_status(relay.port, "/browser", Some(other)).await,
        403
    );
    assert_eq!(refused_status(relay.port, "/browser", None).await, 403);
    // The control: our extension's origin upgrades and is challenged.
    let mut ws = open(relay.port, "/browser", Some(EXTENSION_ORIGIN))
        .await
        .expect("upgrades");
    challenge(&mut ws).await;
}

#[tokio::test]
async fn controller_endpoint_refuses_any_origin() {
    let relay = shared_relay();
    for origin in [
        "https://evil.example",
        "null",
        EXTENSION_ORIGIN,
        "http://127.0.0.1",
    ] {
        assert_eq!(
            refused_status(relay.port, "/controller", Some(origin)).await,
            403,
            "origin {origin}"
        );
    }
    let mut ws = open(relay.port, "/controller", None)
        .await
        .expect("upgrades");
    challenge(&mut ws).await;
}

// ---------------------------------------------------------------------------------------------
// The challenge

/// Makes a proof from the nonce the relay sent.
type MakeProof<'a> = Box<dyn Fn(&str) -> String + 'a>;

#[tokio::test]
async fn a_wrong_proof_is_closed_with_auth_failed() {
    let relay = shared_relay();
    let secret = relay.secret();
    for (path, origin, role) in [
        ("/controller", None, Role::Controller),
        ("/browser", Some(EXTENSION_ORIGIN), Role::Browser),
    ] {
        // Each wrong proof, made from the nonce the relay sent.
        let wrong_proofs: [(&str, MakeProof); 3] = [
            (
                "signed with another secret",
                Box::new(|n| auth::proof(b"not the secret", role.as_str(), relay.port, n)),
            ),
            (
                "the right secret and nonce, signed as the relay",
                Box::new(|n| auth::proof(&secret, "relay", relay.port, n)),
            ),
            (
                "over a nonce the relay did not send",
                Box::new(|_| auth::proof(&secret, role.as_str(), relay.port, &auth::nonce())),
            ),
        ];
        for (what, make) in wrong_proofs {
            let mut ws = open(relay.port, path, origin).await.unwrap();
            let nonce = challenge(&mut ws).await;
            send(&mut ws, &hello(role, make(&nonce), &auth::nonce())).await;
            assert_eq!(
                closed(&mut ws).await,
                (close::AUTH_FAILED, "auth failed".into()),
                "{path}: {what}"
            );
        }
    }
}

#[tokio::test]
async fn a_hello_for_the_other_role_is_a_wrong_envelope() {
    let relay = shared_relay();
    let secret = relay.secret();
    // A valid browser proof presented at /controller: the endpoint decides the role.
    let mut ws = open(relay.port, "/controller", None).await.unwrap();
    let nonce = challenge(&mut ws).await;
    let proof = auth::proof(&secret, "browser", relay.port, &nonce);
    send(&mut ws, &hello(Role::Browser, proof, &auth::nonce())).await;
    assert_eq!(
        closed(&mut ws).await,
        (
            close::WRONG_ENVELOPE,
            "expected a hello for this endpoint's role".into()
        )
    );

    let mut ws = open(relay.port, "/browser", Some(EXTENSION_ORIGIN))
        .await
        .unwrap();
    let nonce = challenge(&mut ws).await;
    let proof = auth::proof(&secret, "controller", relay.port, &nonce);
    send(&mut ws, &hello(Role::Controller, proof, &auth::nonce())).await;
    assert_eq!(
        closed(&mut ws).await,
        (
            close::WRONG_ENVELOPE,
            "expected a hello for this endpoint's role".into()
        )
    );
}

#[tokio::test]
async fn anything_but_a_hello_first_is_refused() {
    let relay = shared_relay();
    let mut ws = open(relay.port, "/controller", None).await.unwrap();
    challenge(&mut ws).await;
    send(&mut ws, &Frame::Ping).await;
    assert_eq!(
        closed(&mut ws).await,
        (
            close::WRONG_ENVELOPE,
            "expected a hello for this endpoint's role".into()
        )
    );

    let mut ws = open(relay.port, "/controller", None).await.unwrap();
    challenge(&mut ws).await;
    send_text(&mut ws, "{not json").await;
    assert_eq!(
        closed(&mut ws).await,
        (close::MALFORMED, "malformed frame".into())
    );
}

#[tokio::test]
async fn no_hello_in_time_is_closed() {
    let relay = shared_relay();
    let mut ws = open(relay.port, "/controller", None).await.unwrap();
    challenge(&mut ws).await;
    // The relay waits 3 s for the hello (a peer that cannot prove itself holds nothing for
    // long); `closed` allows DEADLINE (15 s).
    let start = Instant::now();
    assert_eq!(
        closed(&mut ws).await,
        (close::AUTH_FAILED, "no hello".into())
    );
    assert!(
        start.elapsed() >= Duration::from_secs(2),
        "closed before giving the peer time: {:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn the_relay_proves_it_holds_the_secret() {
    let relay = shared_relay();
    let secret = relay.secret();
    let mut ws = open(relay.port, "/controller", None).await.unwrap();
    let nonce = challenge(&mut ws).await;
    let cnonce = auth::nonce();
    send(
        &mut ws,
        &hello(
            Role::Controller,
            auth::proof(&secret, "controller", relay.port, &nonce),
            &cnonce,
        ),
    )
    .await;
    // Who we are goes sealed with this handshake's keys, and so does the welcome.
    ws.seal(&secret, Role::Controller, relay.port, &nonce, &cnonce);
    let about = Frame::About {
        info: PeerInfo::default(),
        held: Vec::new(),
    };
    send(&mut ws, &about).await;
    match recv(&mut ws).await {
        Frame::Welcome {
            proof,
            peer_id,
            version,
            port,
        } => {
            assert!(
                auth::verify(&secret, "relay", relay.port, &cnonce, &proof),
                "the relay's proof is over our cnonce"
            );
            // The proof is bound to the cnonce and the role: it is not ours replayed.
            assert!(!auth::verify(&secret, "relay", relay.port, &nonce, &proof));
            assert!(!auth::verify(
                &secret,
                "controller",
                relay.port,
                &cnonce,
                &proof
            ));
            assert!(!auth::verify(
                &secret,
                "relay",
                relay.port + 1,
                &cnonce,
                &proof
            ));
            assert!(peer_id > 0);
            assert_eq!(version, protocol::VERSION);
            assert_eq!(port, relay.port);
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Envelopes and ceilings after the handshake

#[tokio::test]
async fn a_malformed_frame_after_auth_closes_with_4000() {
    let relay = shared_relay();
    let mut ws = relay.controller(None, "malformed").await;
    send_text(&mut ws, "this is not json").await;
    assert_eq!(
        closed(&mut ws).await,
        (close::MALFORMED, "malformed frame".into())
    );

    // A kind of frame the protocol does not have is malformed too (it does not parse).
    let mut ws = relay.controller(None, "unknown kind").await;
    send_text(&mut ws, r#"{"t":"launchMissiles","id":1}"#).await;
    assert_eq!(
        closed(&mut ws).await,
        (close::MALFORMED, "malformed frame".into())
    );

    // JSON without a tag.
    let mut ws = relay.controller(None, "untagged").await;
    send_text(&mut ws, r#"{"id":1,"tool":"status"}"#).await;
    assert_eq!(
        closed(&mut ws).await,
        (close::MALFORMED, "malformed frame".into())
    );

    // Sealed, but not text.
    let mut ws = relay.controller(None, "binary").await;
    let sealed = ws.keys.as_mut().unwrap().seal.seal(&[0xff, 0xfe]);
    ws.send(Message::Binary(sealed.into())).await.unwrap();
    assert_eq!(
        closed(&mut ws).await,
        (close::MALFORMED, "malformed frame".into())
    );
}

/// What a process on the path (a proxy the browser was told to use, a tunnel) could try once the
/// handshake has passed: a frame of its own in clear, a sealed frame with a bit flipped, a
/// frame replayed, a frame dropped. Each ends the link, at either endpoint, before anything
/// reaches the hub: the call that would have followed is never answered.
#[tokio::test]
async fn a_frame_injected_altered_replayed_or_dropped_after_the_handshake_ends_the_link() {
    let relay = shared_relay();
    let unsealed = (
        close::UNSEALED,
        "a frame was not sealed with this link's key".to_string(),
    );
    let status = serde_json::to_string(&relay_call(1, RelayOp::Status)).unwrap();
    for role in [Role::Controller, Role::Browser] {
        let connect = || async {
            match role {
                Role::Controller => relay.controller(None, "path").await,
                Role::Browser => relay.browser("path-browser").await,
            }
        };
        // The control: the same frame, sealed, is served.
        let mut ws = connect().await;
        send_text(&mut ws, &status).await;
        assert!(
            result(&mut ws).await.1.is_ok(),
            "{role:?}: a sealed ask is served"
        );

        // Injected in clear.
        let mut ws = connect().await;
        ws.send(Message::Text(status.clone().into())).await.unwrap();
        assert_eq!(closed(&mut ws).await, unsealed, "{role:?}: in clear");

        // Altered: one bit of a sealed frame flipped.
        let mut ws = connect().await;
        let mut sealed = ws.keys.as_mut().unwrap().seal.seal(status.as_bytes());
        sealed[5] ^= 1;
        ws.send(Message::Binary(sealed.into())).await.unwrap();
        assert_eq!(closed(&mut ws).await, unsealed, "{role:?}: altered");

        // Replayed: a frame the relay served, sent again.
        let mut ws = connect().await;
        let sealed = ws.keys.as_mut().unwrap().seal.seal(status.as_bytes());
        ws.send(Message::Binary(sealed.clone().into()))
            .await
            .unwrap();
        assert!(
            result(&mut ws).await.1.is_ok(),
            "{role:?}: the original is served"
        );
        ws.send(Message::Binary(sealed.into())).await.unwrap();
        assert_eq!(closed(&mut ws).await, unsealed, "{role:?}: replayed");

        // Dropped: the first of two frames never arrives.
        let mut ws = connect().await;
        let _dropped = ws.keys.as_mut().unwrap().seal.seal(status.as_bytes());
        send_text(&mut ws, &status).await;
        assert_eq!(
            closed(&mut ws).await,
            unsealed,
            "{role:?}: one dropped before it"
        );
    }
}

#[tokio::test]
async fn a_frame_not_valid_from_its_sender_closes_with_4002() {
    let relay = shared_relay();
    let wrong = (
        close::WRONG_ENVELOPE,
        "frame not valid from this peer".to_string(),
    );

    // A controller may not answer calls, push rosters or say hello twice.
    let controller_frames = [
        Frame::Result(Answer {
            id: 1,
            value: Some(json!(1)),
            ..Answer::default()
        }),
        Frame::Roster {
            controllers: vec![],
        },
        Frame::Tab(TabEvent::Closed { tab: TabId(1) }),
        hello(Role::Controller, "00".into(), "n"),
    ];
    for frame in controller_frames {
        let mut ws = relay.controller(None, "wrong envelope").await;
        send(&mut ws, &frame).await;
        assert_eq!(closed(&mut ws).await, wrong, "controller sent {frame:?}");
    }

    // A browser may not make calls, nor ask the relay anything but what its popup shows.
    let mut ws = relay.browser("wrong-envelope-browser").await;
    send(&mut ws, &tab_call(1, Op::Click, json!({"ref": "e1"}))).await;
    assert_eq!(closed(&mut ws).await, wrong, "browser sent a call");
    let mut ws = relay.browser("wrong-envelope-browser-2").await;
    send(&mut ws, &relay_call(1, RelayOp::Pair)).await;
    assert_eq!(
        closed(&mut ws).await,
        wrong,
        "browser asked for a pairing code"
    );
}

#[tokio::test]
async fn a_controller_frame_over_one_mib_closes_with_1009() {
    let relay = shared_relay();
    let mut ws = relay.controller(None, "big frames").await;
    // The control: a call just under the ceiling is answered.
    let under = status_ask_of_len(protocol::CONTROLLER_MAX_FRAME - 16);
    assert!(under.len() <= protocol::CONTROLLER_MAX_FRAME);
    send_text(&mut ws, &under).await;
    let (id, value, _) = result(&mut ws).await;
    assert_eq!(id, 1);
    assert!(
        value.is_ok(),
        "a frame under the ceiling is served: {value:?}"
    );

    let over = status_ask_of_len(protocol::CONTROLLER_MAX_FRAME + 16);
    assert!(over.len() > protocol::CONTROLLER_MAX_FRAME);
    send_text(&mut ws, &over).await;
    assert_eq!(
        closed(&mut ws).await,
        (close::TOO_BIG, "frame too big".into())
    );
}

// A flooding peer must learn why it was cut off: the relay reads out what is in flight after
// queueing its close, so the kernel does not reset the connection and swallow the close frame.
#[tokio::test]
async fn a_flood_of_frames_closes_with_4008() {
    let relay = shared_relay();
    let ws = relay.controller(None, "flood").await;
    let mut keys = ws.keys.expect("sealed after the handshake");
    let (mut sink, mut stream) = ws.inner.split();
    // Send as fast as we can while reading, so the relay's pongs never back up on us.
    let flood = tokio::spawn(async move {
        let ping = serde_json::to_string(&Frame::Ping).unwrap();
        for _ in 0..10_000 {
            let sealed = keys.seal.seal(ping.as_bytes());
            if sink.feed(Message::Binary(sealed.into())).await.is_err() {
                return;
            }
        }
        let _ = sink.flush().await;
        // Keep the sink (and so the socket) open until the relay has spoken.
        std::future::pending::<()>().await;
    });
    let code = tokio::time::timeout(DEADLINE, async {
        loop {
            match stream.next().await {
                Some(Ok(Message::Close(frame))) => {
                    let frame = frame.expect("the close frame carries a code");
                    return (u16::from(frame.code), frame.reason.to_string());
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("the socket failed instead of closing with a code: {e}"),
                None => panic!("the socket ended without a close frame"),
            }
        }
    })
    .await
    .expect("the relay cut the flood off in time");
    flood.abort();
    assert_eq!(code, (close::FLOOD, "too many frames".into()));
}

#[tokio::test]
async fn a_steady_rate_under_the_ceiling_is_served() {
    // The control for the flood: 500 pings, each waiting for its pong, stay connected.
    let relay = shared_relay();
    let mut ws = relay.controller(None, "steady").await;
    for _ in 0..500 {
        send(&mut ws, &Frame::Ping).await;
        loop {
            match next_message(&mut ws).await {
                Message::Text(t) if serde_json::from_str::<Frame>(&t).ok() == Some(Frame::Pong) => {
                    break;
                }
                Message::Close(c) => panic!("closed under the ceiling: {c:?}"),
                _ => {}
            }
        }
    }
}

#[tokio::test]
async fn more_calls_in_flight_than_the_ceiling_close_the_controller() {
    let relay = shared_relay();
    // A browser that never answers holds every call in flight. It is named by its id, as the
    // shared relay may have other browsers connected.
    let browser_id = "pending-ceiling-browser";
    let mut browser = relay.browser(browser_id).await;
    let mut ws = relay.controller(None, "pending").await;
    let target = Target {
        browser: Some(browser_id.into()),
        tab: Some(TabId(1)),
    };
    for id in 0..protocol::MAX_PENDING_CALLS as u64 {
        send(&mut ws, &call(id, Op::TabList, target.clone(), Value::Null)).await;
    }
    // All of them reach the browser before the one too many is sent.
    for _ in 0..protocol::MAX_PENDING_CALLS {
        browser_call(&mut browser).await;
    }
    send(&mut ws, &call(999, Op::TabList, target, Value::Null)).await;
    assert_eq!(
        closed(&mut ws).await,
        (close::WRONG_ENVELOPE, "too many calls in flight".into())
    );
}

// ---------------------------------------------------------------------------------------------
// Routing

#[tokio::test]
async fn a_tab_call_opens_the_agents_tab_and_routes_the_reply_back() {
    let relay = Relay::start(Env::fresh("relay-route"));
    let mut browser = relay.browser("fake-b1").await;
    let mut agent = relay.controller(Some("alpha"), "agent alpha").await;

    // The first page call: the relay opens the agent's tab first.
    let our_id = 9_000_001;
    send(
        &mut agent,
        &tab_call(our_id, Op::Snapshot, json!({"lean": true})),
    )
    .await;
    let open = browser_call(&mut browser).await;
    assert_eq!(open.op, Op::TabOpen);
    assert_eq!(open.tab, None);
    opened(&mut browser, open.id, 42).await;

    let snap = browser_call(&mut browser).await;
    assert_eq!((snap.op, snap.scope), (Op::Snapshot, Scope::Tab));
    assert_eq!(
        snap.tab,
        Some(TabId(42)),
        "the call runs in the tab just opened"
    );
    assert_eq!(snap.args, json!({"lean": true}));
    assert_ne!(snap.id, our_id, "the relay renumbers calls");
    assert_ne!(snap.id, open.id);
    answer(&mut browser, snap.id, json!({"text": "- heading \"Hi\""})).await;

    let (id, value, target) = result(&mut agent).await;
    assert_eq!(id, our_id, "the reply carries the controller's own id");
    assert_eq!(value.unwrap(), json!({"text": "- heading \"Hi\""}));
    assert_eq!(
        target,
        Some(Target {
            browser: Some("fake-b1".into()),
            tab: Some(TabId(42))
        })
    );

    // The second page call goes straight to the same tab: no second tab.open.
    send(
        &mut agent,
        &tab_call(our_id + 1, Op::Click, json!({"ref": "e1"})),
    )
    .await;
    let click = browser_call(&mut browser).await;
    assert_eq!(
        (click.op, click.tab, click.scope),
        (Op::Click, Some(TabId(42)), Scope::Tab)
    );
    answer(&mut browser, click.id, json!({"navigated": false})).await;
    let (id, value, _) = result(&mut agent).await;
    assert_eq!(
        (id, value.unwrap()),
        (our_id + 1, json!({"navigated": false}))
    );

    // The relay knows the agent's tab.
    send(&mut agent, &relay_call(5, RelayOp::MyTab)).await;
    let (_, value, _) = result(&mut agent).await;
    assert_eq!(value.unwrap(), json!({"browser": "fake-b1", "tab": 42}));

    // A browser's error reaches the controller with its code and outcome.
    send(&mut agent, &tab_call(6, Op::Click, json!({"ref": "gone"}))).await;
    let failing = browser_call(&mut browser).await;
    let error = protocol::WireError {
        code: "STALE_REF".into(),
        message: "no element e9 on the page".into(),
        outcome: Some(tabpilot::shared::error::Outcome::Refused),
    };
    send(
        &mut browser,
        &Frame::Result(Answer {
            id: failing.id,
            error: Some(error.clone()),
            ..Answer::default()
        }),
    )
    .await;
    let (id, value, _) = result(&mut agent).await;
    assert_eq!((id, value), (6, Err(error)));
}

#[tokio::test]
async fn another_session_naming_a_held_tab_gets_tab_claimed_and_status_lists_peers() {
    let relay = Relay::start(Env::fresh("relay-claim"));
    let mut browser = relay.browser("fake-b2").await;
    let mut alpha = relay.controller(Some("alpha"), "agent alpha").await;
    let mut beta = relay.controller(Some("beta"), "agent beta").await;

    send(&mut alpha, &tab_call(1, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    assert_eq!(open.op, Op::TabOpen);
    opened(&mut browser, open.id, 7).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut alpha).await.0, 1);

    // Beta names alpha's tab, page-scoped and browser-scoped: refused, nothing sent.
    for op in [Op::Click, Op::TabClose] {
        let target = Target {
            browser: None,
            tab: Some(TabId(7)),
        };
        send(&mut beta, &call(2, op, target, json!({"ref": "e1"}))).await;
        let (id, value, _) = result(&mut beta).await;
        assert_eq!(id, 2);
        let e = value.expect_err("beta may not touch alpha's tab");
        assert_eq!(e.code, "TAB_CLAIMED", "{op:?}: {e:?}");
        assert_eq!(outcome(&e), "refused");
    }
    // The refused calls never reached the browser: the next thing it gets is alpha's call.
    send(&mut alpha, &tab_call(3, Op::Read, Value::Null)).await;
    let next = browser_call(&mut browser).await;
    assert_eq!((next.op, next.tab), (Op::Read, Some(TabId(7))));
    answer(&mut browser, next.id, json!("text")).await;
    assert_eq!(result(&mut alpha).await.0, 3);

    // Status lists the browser with its identity, and both agents.
    send(&mut beta, &relay_call(4, RelayOp::Status)).await;
    let (_, value, _) = result(&mut beta).await;
    let status = value.unwrap();
    assert_eq!(status["relay"]["port"], json!(relay.port));
    assert_eq!(status["relay"]["version"], json!(protocol::VERSION));
    assert_eq!(
        status["browsers"],
        json!([{"browserId": "fake-b2", "kind": "user", "agents": 1, "tabs": 1,
                "browser": "FakeChrome", "profile": "Default", "label": "test browser"}])
    );
    let alpha_tabs = status["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "agent alpha")
        .map(|a| a["tabs"].clone())
        .unwrap();
    assert_eq!(alpha_tabs[0]["tab"], 7);
    assert_eq!(alpha_tabs[0]["current"], true);
    assert_eq!(alpha_tabs[0]["opened"], true, "alpha opened tab 7");
    let mut agents: Vec<String> = status["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{} {}", a["name"].as_str().unwrap(), a["pid"]))
        .collect();
    agents.sort();
    assert_eq!(agents, ["agent alpha 4242", "agent beta 4242"]);
}

// Finding 4 of the security probe: MCP sessions were named peer-<n> with small numbers, and any
// controller could name the session it joined; a sweep of names found another agent's tab.
#[tokio::test]
async fn a_session_sweep_reaches_no_other_agents_tab() {
    let relay = Relay::start(Env::fresh("relay-sweep"));
    let mut browser = relay.browser("fake-sweep").await;
    // Agent A (an MCP server: it names no session) and the CLI's named session, each with a tab.
    let mut agent = relay.controller(None, "agent A").await;
    send(&mut agent, &tab_call(1, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    opened(&mut browser, open.id, 11).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut agent).await.0, 1);
    let mut cli = relay.naming("cli", Some("the cli's key")).await;
    send(&mut cli, &tab_call(2, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    opened(&mut browser, open.id, 12).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut cli).await.0, 2);

    // The sweep: every small peer name, and the CLI's name without its key or with another.
    let mut names: Vec<(String, Option<&str>)> =
        (0..200).map(|n| (format!("peer-{n}"), None)).collect();
    names.push(("cli".into(), None));
    names.push(("cli".into(), Some("a guessed key")));
    for (name, key) in names {
        let mut ws = relay.naming(&name, key).await;
        send(&mut ws, &relay_call(9, RelayOp::MyTab)).await;
        let (_, value, _) = result(&mut ws).await;
        assert_eq!(value.unwrap(), Value::Null, "{name} {key:?} reached a tab");
    }
    // The CLI's own key still finds its tab: a named session outlives its connections.
    let mut again = relay.naming("cli", Some("the cli's key")).await;
    send(&mut again, &relay_call(9, RelayOp::MyTab)).await;
    let (_, value, _) = result(&mut again).await;
    assert_eq!(value.unwrap()["tab"], 12);
}

// Findings 7 and 15 of the security probe: a dropped socket cost an agent its tab, and a dead
// agent's tabs stayed open, owned by nobody.
#[tokio::test]
async fn an_agent_comes_back_to_its_tab_and_a_gone_agents_tab_is_closed() {
    let relay = Relay::start(Env::fresh("relay-grace"));
    let mut browser = relay.browser("fake-grace").await;
    let mut agent = relay.agent_with_key("k-4711").await;
    send(&mut agent, &tab_call(1, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    opened(&mut browser, open.id, 21).await;
    let snap = browser_call(&mut browser).await;
    assert_eq!(snap.owner, open.owner, "every call names its session");
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut agent).await.0, 1);
    // Releasing for the browsers is the relay's word, not a controller's.
    send(
        &mut agent,
        &call(2, Op::Release, Target::default(), Value::Null),
    )
    .await;
    let (_, value, _) = result(&mut agent).await;
    let e = value.expect_err("a controller cannot end its session by a call");
    assert_eq!(
        (e.code.as_str(), outcome(&e).as_str()),
        ("BAD_ARGS", "refused")
    );
    drop(agent);

    // Back at once, with its key: the same tab.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut agent = relay.agent_with_key("k-4711").await;
    send(&mut agent, &relay_call(2, RelayOp::MyTab)).await;
    let (_, value, _) = result(&mut agent).await;
    assert_eq!(value.unwrap()["tab"], 21);
    drop(agent);

    // Gone for good: after the grace, the relay tells the browser the session ended, naming it
    // as the books its tab was opened into; the browser closes that tab.
    let end = tokio::time::timeout(Duration::from_secs(20), browser_call(&mut browser))
        .await
        .expect("the browser never heard that the agent's session ended");
    assert_eq!((end.op, end.tab), (Op::Release, None));
    assert_eq!(end.owner, open.owner);
    let closing = Answer {
        id: end.id,
        value: Some(json!({"closed": [21]})),
        tabs: vec![TabEvent::Closed { tab: TabId(21) }],
        ..Answer::default()
    };
    send(&mut browser, &Frame::Result(closing)).await;
    let mut later = relay.agent_with_key("k-4711").await;
    send(&mut later, &relay_call(3, RelayOp::MyTab)).await;
    let (_, value, _) = result(&mut later).await;
    assert_eq!(value.unwrap(), Value::Null);
}

// Finding 7 of the security probe: after a relay restart the books were empty, so an agent's next
// call landed in a new blank tab and its old tab was orphaned.
#[tokio::test]
async fn after_a_relay_restart_the_browser_gives_the_books_back() {
    let env = Env::fresh("relay-restart");
    let relay = Relay::start(env.clone());
    let mut browser = relay.browser("fake-restart").await;
    let mut agent = relay.agent_with_key("k-77").await;
    send(&mut agent, &tab_call(1, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    let owner = open
        .owner
        .clone()
        .expect("a tab opened for an agent names its owner");
    opened(&mut browser, open.id, 41).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut agent).await.0, 1);
    drop((agent, browser));
    drop(relay);

    // A new relay; the browser joins it saying which agents' tabs it still has open, and the
    // agent's very next call finds its tab (the books are back before the browser is routable).
    let relay = Relay::start(env);
    let held = vec![protocol::HeldTab {
        tab: TabId(41),
        owner,
        opened: true,
    }];
    let mut browser = relay.browser_holding("fake-restart", held).await;
    let mut agent = relay.agent_with_key("k-77").await;
    send(&mut agent, &tab_call(2, Op::Read, Value::Null)).await;
    let next = browser_call(&mut browser).await;
    assert_eq!(
        (next.op, next.tab),
        (Op::Read, Some(TabId(41))),
        "the agent's call went to a new tab"
    );
    answer(&mut browser, next.id, json!("text")).await;
    assert_eq!(result(&mut agent).await.0, 2);
    // Another agent cannot claim it through the restart.
    let mut other = relay.agent_with_key("k-88").await;
    let target = Target {
        browser: None,
        tab: Some(TabId(41)),
    };
    send(&mut other, &call(3, Op::TabInfo, target, Value::Null)).await;
    let (_, value, _) = result(&mut other).await;
    assert_eq!(value.unwrap_err().code, "TAB_CLAIMED");
}

#[tokio::test]
async fn a_browser_leaving_mid_call_gives_no_browser_and_unknown_for_a_mutating_call() {
    let relay = Relay::start(Env::fresh("relay-drop"));
    let mut browser = relay.browser("fake-b3").await;
    let mut agent = relay.controller(None, "agent").await;

    send(&mut agent, &tab_call(1, Op::Snapshot, Value::Null)).await;
    let open = browser_call(&mut browser).await;
    opened(&mut browser, open.id, 3).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!("ok")).await;
    assert_eq!(result(&mut agent).await.0, 1);

    // Two calls in flight, one that changes the page and one that does not.
    send(&mut agent, &tab_call(10, Op::Click, json!({"ref": "e1"}))).await;
    send(&mut agent, &tab_call(11, Op::Read, Value::Null)).await;
    browser_call(&mut browser).await;
    browser_call(&mut browser).await;
    browser.close(None).await.unwrap();
    drop(browser);

    let mut errors = std::collections::HashMap::new();
    for _ in 0..2 {
        let (id, value, _) = result(&mut agent).await;
        errors.insert(id, value.expect_err("the browser left before answering"));
    }
    let click = &errors[&10];
    assert_eq!(click.code, "NO_BROWSER");
    assert_eq!(
        outcome(click),
        "unknown",
        "a lost reply to a page-changing call: {click:?}"
    );
    assert!(
        click.message.contains("may have taken effect"),
        "{}",
        click.message
    );
    let read = &errors[&11];
    assert_eq!(read.code, "NO_BROWSER");
    assert_eq!(outcome(read), "failed", "{read:?}");
}

// ---------------------------------------------------------------------------------------------
// Process: ports, single instance, state, idling out

#[tokio::test]
async fn the_relay_binds_the_first_free_port_of_its_range() {
    let env = Env::fresh("relay-port");
    // Something else holds the first port.
    let _squatter =
        std::net::TcpListener::bind(("127.0.0.1", env.first_port)).expect("first port is free");
    let second = env.first_port + 1;
    let mut child = spawn_relay(&env, TEST_IDLE_MS);
    wait_listening(&mut child, second);
    let relay = Relay {
        child,
        env,
        port: second,
    };
    let mut ws = open(second, "/controller", None)
        .await
        .expect("the relay is on the second port");
    let (_, port) = handshake(
        &mut ws,
        second,
        Role::Controller,
        &relay.secret(),
        PeerInfo::default(),
    )
    .await;
    assert_eq!(port, second, "the welcome names the port the relay bound");
}

#[tokio::test]
async fn two_relays_started_at_once_leave_one_running() {
    let env = Env::fresh("relay-race");
    let mut a = spawn_relay(&env, TEST_IDLE_MS);
    let mut b = spawn_relay(&env, TEST_IDLE_MS);
    // One of them finds the other holding the range and exits successfully.
    let start = Instant::now();
    let (loser_code, winner) = loop {
        if let Some(status) = a.try_wait().unwrap() {
            break (status.code(), b);
        }
        if let Some(status) = b.try_wait().unwrap() {
            break (status.code(), a);
        }
        assert!(
            start.elapsed() < DEADLINE,
            "neither relay stepped aside within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(loser_code, Some(0), "the relay that steps aside exits 0");
    let mut relay = Relay {
        child: winner,
        env: env.clone(),
        port: env.first_port,
    };
    wait_listening(&mut relay.child, relay.port);
    let mut ws = relay.controller(None, "after the race").await;
    send(&mut ws, &relay_call(1, RelayOp::Status)).await;
    let (_, value, _) = result(&mut ws).await;
    assert_eq!(value.unwrap()["relay"]["port"], json!(env.first_port));
    assert!(
        relay.child.try_wait().unwrap().is_none(),
        "the winner still runs"
    );
    // Nothing took the second port: only one relay serves the range.
    assert!(StdTcpStream::connect(("127.0.0.1", env.first_port + 1)).is_err());
}

#[tokio::test]
async fn the_secret_and_state_dir_are_owner_only() {
    let env = Env::fresh("relay-modes");
    // A state dir that already exists with loose permissions is tightened.
    std::fs::create_dir_all(&env.state_dir).unwrap();
    std::fs::set_permissions(&env.state_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let relay = Relay::start(env.clone());
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&env.state_dir), 0o700, "state dir");
    let secret_path = env.state_dir.join("secret");
    assert_eq!(mode(&secret_path), 0o600, "secret file");
    let secret = relay.secret();
    assert_eq!(secret.len(), 64);
    assert!(
        secret.iter().all(u8::is_ascii_hexdigit),
        "the secret is hex text"
    );
    // The relay uses that file's text as its key: a controller proving with it is welcomed.
    relay.controller(None, "modes").await;
}

#[tokio::test]
async fn the_relay_idles_out_after_its_last_peer_leaves() {
    let env = Env::fresh("relay-idle");
    let idle = Duration::from_millis(1500);
    let child = spawn_relay(&env, &idle.as_millis().to_string());
    let mut relay = Relay {
        child,
        env: env.clone(),
        port: env.first_port,
    };
    wait_listening(&mut relay.child, relay.port);
    let mut ws = relay.controller(None, "idle").await;

    // While a peer is connected the relay stays, well past its idle time.
    let held = Instant::now();
    while held.elapsed() < idle * 2 {
        send(&mut ws, &relay_call(1, RelayOp::Status)).await;
        assert!(result(&mut ws).await.1.is_ok());
        assert!(
            relay.child.try_wait().unwrap().is_none(),
            "the relay left while a peer was connected"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    ws.close(None).await.unwrap();
    drop(ws);
    let left = Instant::now();
    let code = wait_exit(&mut relay.child, idle + DEADLINE);
    assert_eq!(code, Some(0), "an idle relay exits cleanly");
    assert!(
        left.elapsed() >= idle / 2,
        "the relay exited before its idle time: {:?}",
        left.elapsed()
    );
}

/// Recording costs an action no call: a real MCP server, recording as it does by default, sends a
/// recorded click to the browser as one call asking for its element (`describe`), and the
/// recording keeps the element the answer described. (That the extension describes elements as it
/// acts, through frames and navigations, is the export test's, in a real browser.)
#[tokio::test]
async fn a_recorded_action_sends_the_browser_one_call_and_keeps_the_element_its_answer_describes() {
    let relay = Relay::start(Env::fresh("record-cost"));
    let mut browser = relay.browser("b1").await;
    let env = relay.env.clone();
    let agent = tokio::task::spawn_blocking(move || {
        let mut mcp = Mcp::start(&env, &[]);
        mcp.ok("browser_click", json!({"ref": "e1abc"}));
        let (_, exported) = mcp.ok("browser_export", json!({"format": "tabpilot"}));
        std::fs::read_to_string(exported["path"].as_str().unwrap()).unwrap()
    });
    let mut seen = Vec::new();
    while !agent.is_finished() {
        let Ok(frame) = tokio::time::timeout(Duration::from_millis(200), recv(&mut browser)).await
        else {
            continue;
        };
        let Frame::Call(call) = frame else { continue };
        seen.push((call.op, call.describe));
        let mut answer = Answer {
            id: call.id,
            value: Some(
                json!({"element": "<button> \"Buy\"", "navigated": false, "settled": true}),
            ),
            ..Answer::default()
        };
        match call.op {
            Op::TabOpen => {
                answer.value = Some(json!({"tabId": 7}));
                answer.tabs = vec![TabEvent::Opened { tab: TabId(7) }];
            }
            Op::Click if call.describe => {
                answer.described = vec![serde_json::from_value(json!({
                    "locators": [{"role": "button", "name": "Buy"}], "frames": [], "kind": "other"
                }))
                .unwrap()];
            }
            _ => {}
        }
        send(&mut browser, &Frame::Result(answer)).await;
    }
    let exported = agent.await.unwrap();
    // Besides the agent's tab opened at its first call and released as it ends.
    let pages: Vec<_> = seen
        .iter()
        .filter(|(op, _)| !matches!(op, Op::TabOpen | Op::Release))
        .collect();
    assert_eq!(pages, [&(Op::Click, true)], "the browser saw {seen:?}");
    assert!(
        exported.contains(r#""locators":[{"role":"button","name":"Buy"}]"#),
        "{exported}"
    );
}

// Threat (docs/security.md): a hostile neighbour cancels another agent's call. A controller's
// `cancel` reaches only its own calls, by its own numbers: another agent replaying the victim's
// number, or guessing the browser's, reaches nothing, and the victim's call runs on. The caller's
// own cancel reaches the browser under the browser's number; a cancel for a call that has
// answered is ignored; and a call cancelled before the relay passed it on never reaches it.
#[tokio::test]
async fn only_the_caller_cancels_its_call_and_a_cancel_after_the_answer_is_ignored() {
    let relay = Relay::start(Env::fresh("relay-cancel"));
    let mut browser = relay.browser("fake-cancel").await;
    let mut victim = relay.agent_with_key("the victim's key").await;
    let mut neighbour = relay.agent_with_key("the neighbour's key").await;

    send(&mut victim, &tab_call(7, Op::WaitFor, json!({"text": "x"}))).await;
    let open = browser_call(&mut browser).await;
    opened(&mut browser, open.id, 61).await;
    let wait = browser_call(&mut browser).await;
    assert_eq!(wait.op, Op::WaitFor);
    // The neighbour replays the victim's number, and tries the browser's.
    for id in [7, wait.id, open.id] {
        send(&mut neighbour, &Frame::Cancel { id }).await;
    }
    // Its socket stays up (a cancel is a controller's frame): its own call is served.
    send(&mut neighbour, &relay_call(8, RelayOp::Status)).await;
    let (id, status, _) = result(&mut neighbour).await;
    assert!(id == 8 && status.is_ok(), "{status:?}");
    // The victim cancels its own: the browser hears of it under its own number.
    send(&mut victim, &Frame::Cancel { id: 7 }).await;
    match recv(&mut browser).await {
        Frame::Cancel { id } => assert_eq!(id, wait.id, "the neighbour's cancels reached it"),
        other => panic!("the browser expected the victim's cancel, got {other:?}"),
    }
    let said = protocol::WireError {
        code: "CANCELLED".into(),
        message: "the wait stopped after 40 ms, not met".into(),
        outcome: Some(tabpilot::shared::error::Outcome::Failed),
    };
    let cancelled = Answer {
        id: wait.id,
        error: Some(said.clone()),
        ..Answer::default()
    };
    send(&mut browser, &Frame::Result(cancelled)).await;
    assert_eq!(result(&mut victim).await.1, Err(said));

    // A cancel after the answer is ignored: the next frame the browser gets is the next call.
    send(&mut victim, &tab_call(9, Op::Snapshot, Value::Null)).await;
    let snap = browser_call(&mut browser).await;
    answer(&mut browser, snap.id, json!({"text": ""})).await;
    assert_eq!(result(&mut victim).await.0, 9);
    send(&mut victim, &Frame::Cancel { id: 9 }).await;
    send(&mut victim, &tab_call(10, Op::Read, Value::Null)).await;
    let read = browser_call(&mut browser).await;
    assert_eq!(read.op, Op::Read);
    answer(&mut browser, read.id, json!({})).await;
    assert_eq!(result(&mut victim).await.0, 10);
}
