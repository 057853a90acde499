//! A fake relay peer written in Rust, used by the relay's tests and the benchmark: it opens a
//! socket (with an Origin or none), runs the HMAC challenge as a controller or a browser, sends
//! and reads frames, and answers calls as the extension would.
//!
//! Each includer uses part of it.
#![allow(dead_code)]

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabpilot::shared::protocol::seal::{End, Keys};
use tabpilot::shared::protocol::{
    self, AgentKey, Answer, Call, Frame, Op, PeerInfo, RelayOp, Role, Scope, TabEvent, TabId,
    Target, WireError, auth,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub(crate) type Raw = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A socket to the relay and, once its handshake has passed, the keys that seal every frame
/// after the hello both ways. `send`, `send_text`, `next_message` and `recv` seal and open; the
/// socket itself (`*ws`) sends and reads what is on the wire.
pub(crate) struct Ws {
    pub inner: Raw,
    pub keys: Option<Keys>,
}

impl std::ops::Deref for Ws {
    type Target = Raw;
    fn deref(&self) -> &Raw {
        &self.inner
    }
}

impl std::ops::DerefMut for Ws {
    fn deref_mut(&mut self) -> &mut Raw {
        &mut self.inner
    }
}

impl Ws {
    /// From here on, frames are sealed with the keys of this handshake, as `role` holds them.
    pub(crate) fn seal(&mut self, secret: &[u8], role: Role, port: u16, nonce: &str, cnonce: &str) {
        self.keys = Some(Keys::derive(secret, role, port, nonce, cnonce, End::Peer));
    }
}

/// The Origin the packaged extension's socket carries (its id is fixed by the manifest's key).
pub(crate) const EXTENSION_ORIGIN: &str = "chrome-extension://cgfgpocccpkmlomijbladnekndgfclkg";
/// The bound on every wait for something the relay should do promptly.
pub(crate) const DEADLINE: Duration = Duration::from_secs(15);

// ---------------------------------------------------------------------------------------------
// The socket and the challenge

/// Opens a socket to the relay's `path`, with `origin` as its Origin header if given.
pub(crate) async fn open(port: u16, path: &str, origin: Option<&str>) -> Result<Ws, WsError> {
    open_at(&format!("127.0.0.1:{port}"), path, origin).await
}

/// `open`, to the relay at `addr` (`HOST:PORT`).
pub(crate) async fn open_at(addr: &str, path: &str, origin: Option<&str>) -> Result<Ws, WsError> {
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", HeaderValue::from_str(origin).unwrap());
    }
    tokio::time::timeout(DEADLINE, tokio_tungstenite::connect_async(request))
        .await
        .expect("the relay answered the upgrade in time")
        .map(|(inner, _)| Ws { inner, keys: None })
}

/// A peer of `role`, authenticated: its endpoint (a browser with the extension's Origin), and
/// the challenge.
pub(crate) async fn connect(port: u16, role: Role, secret: &[u8], info: PeerInfo) -> Ws {
    connect_holding(port, role, secret, info, Vec::new()).await
}

/// Connects as a browser that says, in its hello, which agents' tabs it still has open.
pub(crate) async fn connect_holding(
    port: u16,
    role: Role,
    secret: &[u8],
    info: PeerInfo,
    held: Vec<protocol::HeldTab>,
) -> Ws {
    let (path, origin) = match role {
        Role::Controller => ("/controller", None),
        Role::Browser => ("/browser", Some(EXTENSION_ORIGIN)),
    };
    let mut ws = open(port, path, origin).await.expect("the relay upgrades");
    handshake_holding(&mut ws, port, role, secret, info, held).await;
    ws
}

/// The next message, a sealed frame opened (as text).
pub(crate) async fn next_message(ws: &mut Ws) -> Message {
    let msg = match tokio::time::timeout(DEADLINE, ws.inner.next()).await {
        Err(_) => panic!("the relay sent nothing within {DEADLINE:?}"),
        Ok(None) => panic!("the socket ended without a close frame"),
        Ok(Some(Err(e))) => panic!("the socket failed instead of closing with a code: {e}"),
        Ok(Some(Ok(msg))) => msg,
    };
    unseal(ws, msg)
}

/// A message as it was sent: a sealed frame opened (as text).
fn unseal(ws: &mut Ws, msg: Message) -> Message {
    match (msg, ws.keys.as_mut()) {
        (Message::Binary(sealed), Some(keys)) => {
            let text = keys.open.open(&sealed).expect("the relay's frame opens");
            Message::Text(String::from_utf8(text).unwrap().into())
        }
        (Message::Text(t), Some(_)) => {
            panic!("the relay sent a frame in clear after the hello: {t}")
        }
        (msg, _) => msg,
    }
}

/// The next frame, skipping the roster pushes and pongs a peer gets unasked.
pub(crate) async fn recv(ws: &mut Ws) -> Frame {
    loop {
        match next_message(ws).await {
            Message::Text(text) => {
                let frame: Frame = serde_json::from_str(&text).unwrap_or_else(|e| {
                    panic!("the relay sent a frame we cannot read: {text} ({e})")
                });
                if !matches!(frame, Frame::Roster { .. } | Frame::Pong) {
                    return frame;
                }
            }
            Message::Close(c) => panic!("the relay closed the socket: {c:?}"),
            _ => {}
        }
    }
}

/// Reads until the relay's close frame; returns its code and reason.
pub(crate) async fn closed(ws: &mut Ws) -> (u16, String) {
    loop {
        if let Message::Close(frame) = next_message(ws).await {
            let frame = frame.expect("the close frame carries a code");
            return (u16::from(frame.code), frame.reason.to_string());
        }
    }
}

pub(crate) async fn send(ws: &mut Ws, frame: &Frame) {
    send_text(ws, &serde_json::to_string(frame).unwrap()).await;
}

/// Sends `text`, sealed once the handshake has passed.
pub(crate) async fn send_text(ws: &mut Ws, text: &str) {
    let msg = match ws.keys.as_mut() {
        Some(keys) => Message::Binary(keys.seal.seal(text.as_bytes()).into()),
        None => Message::Text(text.to_string().into()),
    };
    ws.inner.send(msg).await.expect("send");
}

/// Reads the relay's challenge; returns its nonce.
pub(crate) async fn challenge(ws: &mut Ws) -> String {
    match recv(ws).await {
        Frame::Challenge {
            nonce,
            version,
            key,
        } => {
            assert_eq!(version, protocol::VERSION);
            assert_eq!(key, None, "a loopback challenge names no key");
            assert_eq!(nonce.len(), 64, "a 32-byte hex nonce");
            nonce
        }
        other => panic!("expected a challenge first, got {other:?}"),
    }
}

pub(crate) fn hello(role: Role, proof: String, cnonce: &str) -> Frame {
    Frame::Hello {
        role,
        proof,
        cnonce: cnonce.into(),
    }
}

/// Runs the challenge as `role` and checks that the relay proves it holds the secret too;
/// returns the welcome's peer id and port.
pub(crate) async fn handshake(
    ws: &mut Ws,
    dialled: u16,
    role: Role,
    secret: &[u8],
    info: PeerInfo,
) -> (u64, u16) {
    handshake_holding(ws, dialled, role, secret, info, Vec::new()).await
}

async fn handshake_holding(
    ws: &mut Ws,
    dialled: u16,
    role: Role,
    secret: &[u8],
    info: PeerInfo,
    held: Vec<protocol::HeldTab>,
) -> (u64, u16) {
    let nonce = challenge(ws).await;
    let cnonce = auth::nonce();
    let proof = auth::proof(secret, role.as_str(), dialled, &nonce);
    send(ws, &hello(role, proof, &cnonce)).await;
    ws.seal(secret, role, dialled, &nonce, &cnonce);
    send(ws, &Frame::About { info, held }).await;
    match recv(ws).await {
        Frame::Welcome {
            proof,
            peer_id,
            version,
            port,
        } => {
            assert!(
                auth::verify(secret, "relay", dialled, &cnonce, &proof),
                "the welcome's proof does not verify over our cnonce"
            );
            assert_eq!(version, protocol::VERSION);
            (peer_id, port)
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// A controller's frames

pub(crate) fn call(id: u64, op: Op, target: Target, args: Value) -> Frame {
    Frame::Call(Call {
        id,
        target,
        ..Call::new(op, args, Duration::from_secs(10))
    })
}

/// A call the relay answers itself (status, myTab).
pub(crate) fn relay_call(id: u64, op: RelayOp) -> Frame {
    Frame::Ask { id, op }
}

/// A page call on the agent's own tab.
pub(crate) fn tab_call(id: u64, op: Op, args: Value) -> Frame {
    call(id, op, Target::default(), args)
}

/// A controller's result: (id, value or error, target).
pub(crate) async fn result(ws: &mut Ws) -> (u64, Result<Value, WireError>, Option<Target>) {
    match recv(ws).await {
        Frame::Result(a) => match a.error {
            Some(e) => (a.id, Err(e), a.target),
            None => (a.id, Ok(a.value.unwrap_or(Value::Null)), a.target),
        },
        other => panic!("the controller expected a result, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// A browser's side

/// What a fake browser received: the relay's call id, operation, tab and args.
pub(crate) struct BrowserCall {
    pub(crate) id: u64,
    pub(crate) op: Op,
    pub(crate) scope: Scope,
    pub(crate) tab: Option<TabId>,
    pub(crate) args: Value,
    /// The session the call is for (the books a tab it opens goes into).
    pub(crate) owner: Option<AgentKey>,
}

pub(crate) async fn browser_call(ws: &mut Ws) -> BrowserCall {
    match recv(ws).await {
        Frame::Call(c) => BrowserCall {
            id: c.id,
            op: c.op,
            scope: c.scope,
            tab: c.target.tab,
            args: c.args,
            owner: c.owner,
        },
        other => panic!("the browser expected a call, got {other:?}"),
    }
}

pub(crate) async fn answer(ws: &mut Ws, id: u64, value: Value) {
    let answer = Answer {
        id,
        value: Some(value),
        ..Answer::default()
    };
    send(ws, &Frame::Result(answer)).await;
}

/// The fake browser's answer to `tabOpen`: the tab it opened, as an event of the call.
pub(crate) async fn opened(ws: &mut Ws, id: u64, tab: i64) {
    let answer = Answer {
        id,
        value: Some(json!({ "tabId": tab })),
        tabs: vec![TabEvent::Opened { tab: TabId(tab) }],
        ..Answer::default()
    };
    send(ws, &Frame::Result(answer)).await;
}

/// Answers every call at once until the socket ends: `tabOpen` with a fresh tab, anything
/// else with a small value.
pub(crate) async fn answer_calls(mut ws: Ws) {
    let mut next_tab = 1;
    while let Some(Ok(msg)) = ws.inner.next().await {
        let Message::Text(text) = unseal(&mut ws, msg) else {
            continue;
        };
        let Ok(Frame::Call(call)) = serde_json::from_str::<Frame>(&text) else {
            continue;
        };
        if call.op == Op::TabOpen {
            next_tab += 1;
            opened(&mut ws, call.id, next_tab).await;
        } else {
            answer(&mut ws, call.id, json!({"ok": true})).await;
        }
    }
}
