//! One socket's life at the relay: the challenge, the frame checks, and handing frames to the hub.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use super::hub::{Door, Hub, Outgoing};
use crate::shared::protocol::seal::{End, Keys, Opener, Sealer};
use crate::shared::protocol::{self, Frame, Role, auth, close, handshake};
use crate::shared::serve::door::Unproven;

/// A token bucket over frames: `MAX_FRAMES_PER_SEC` sustained, the same as a burst.
struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new() -> Self {
        RateLimit {
            tokens: protocol::MAX_FRAMES_PER_SEC as f64,
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let rate = protocol::MAX_FRAMES_PER_SEC as f64;
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * rate).min(rate);
        self.last = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

/// A frame as it goes on the socket: in clear during the handshake, sealed after it.
fn encode(frame: &Frame, sealer: Option<&mut Sealer>) -> Message {
    let text = serde_json::to_string(frame).expect("frames serialize");
    match sealer {
        Some(sealer) => Message::Binary(sealer.seal(text.as_bytes()).into()),
        None => Message::Text(text.into()),
    }
}

/// Time for an upgraded socket to prove it holds the secret.
const PROVE_WITHIN: Duration = Duration::from_secs(3);

/// Refused handshakes so far; one log line for each hundred, so a flood does not grow the log.
static REFUSED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn refused(role: Role, why: &str) {
    let n = REFUSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    if n % 100 == 1 {
        tracing::warn!(role = role.as_str(), refused = n, "refused a peer: {why}");
    }
}

pub(super) async fn serve(
    hub: Arc<Hub>,
    socket: WebSocket,
    role: Role,
    unproven: Unproven,
    door: Door,
) {
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Outgoing>(256);
    let writer = tokio::spawn(write(sink, rx));
    // Either the peer proves itself and joins, or the socket closes with the reason.
    let ending = match handshake(&hub, role, door, &unproven, &tx, &mut stream).await {
        Err(reason) => Some(reason),
        Ok((peer_id, mut opener)) => {
            let ending = serve_frames(&hub, role, peer_id, &mut opener, &mut stream).await;
            hub.leave(role, peer_id);
            ending
        }
    };
    if let Some((code, reason)) = ending {
        let _ = tx.send(Outgoing::Close(code, reason)).await;
    }
    drop(tx);
    let _ = writer.await;
    // Read (and drop) what the peer still has in flight until it answers the close: a socket
    // closed with unread data is reset by the kernel, and the reset would swallow our close
    // frame, so a flooding peer would never learn why it was cut off.
    let drain = async {
        while let Some(Ok(msg)) = stream.next().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}

/// Empties a peer's outbox into its socket, until a close or a failed send.
async fn write(
    mut sink: futures::stream::SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Outgoing>,
) {
    let mut sealer = None;
    while let Some(out) = rx.recv().await {
        match out {
            Outgoing::Frame(frame) => {
                if sink.send(encode(&frame, sealer.as_mut())).await.is_err() {
                    break;
                }
            }
            Outgoing::Seal(keys) => sealer = Some(*keys),
            Outgoing::Close(code, reason) => {
                let frame = CloseFrame {
                    code,
                    reason: reason.into(),
                };
                let _ = sink.send(Message::Close(Some(frame))).await;
                break;
            }
        }
    }
}

/// The challenge, and the peer's hello in answer: its id and the key its frames open with once
/// it proved itself and joined, or the close code and reason. From the proof on, both ways are
/// sealed, the welcome included: the outbox is told before the peer joins, so no frame the hub
/// pushes to it can go out in clear.
async fn handshake(
    hub: &Arc<Hub>,
    role: Role,
    door: Door,
    unproven: &Unproven,
    tx: &mpsc::Sender<Outgoing>,
    stream: &mut futures::stream::SplitStream<WebSocket>,
) -> Result<(u64, Opener), (u16, &'static str)> {
    let Some(gate) = hub.gate(door) else {
        return Err((close::AUTH_FAILED, "auth failed"));
    };
    let nonce = auth::nonce();
    let challenge = Frame::Challenge {
        nonce: nonce.clone(),
        version: protocol::VERSION.into(),
        key: gate.key.cloned(),
    };
    let _ = tx.send(Outgoing::frame(challenge)).await;
    // A socket closed to make room for a newer one, before it proved itself, is as silent.
    let first = tokio::select! {
        first = tokio::time::timeout(PROVE_WITHIN, stream.next()) => first,
        _ = unproven.turned_away() => Ok(None),
    };
    let text = match first {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Err(e))) if is_too_big(&e) => return Err((close::TOO_BIG, "frame too big")),
        _ => return Err((close::AUTH_FAILED, "no hello")),
    };
    let (proof, cnonce) = match serde_json::from_str::<Frame>(&text) {
        Ok(Frame::Hello {
            role: r,
            proof,
            cnonce,
        }) if r == role => (proof, cnonce),
        Ok(_) => {
            return Err((
                close::WRONG_ENVELOPE,
                "expected a hello for this endpoint's role",
            ));
        }
        Err(_) => return Err((close::MALFORMED, "malformed frame")),
    };
    if !auth::verify(gate.secret, role.as_str(), gate.port, &nonce, &proof) {
        refused(role, "a wrong proof");
        return Err((close::AUTH_FAILED, "auth failed"));
    }
    unproven.proven();
    let mut keys = Keys::derive(gate.secret, role, gate.port, &nonce, &cnonce, End::Relay);
    let (info, held) = about(role, &mut keys.open, stream).await?;
    let _ = tx.send(Outgoing::Seal(Box::new(keys.seal))).await;
    if role == Role::Browser {
        // Who came, for the person reading relay.log: the browser's id, label and brand and how
        // many agents' tabs it brought back (never a session's key).
        let browser = info.browser_id.as_ref().map_or("", |b| b.0.as_str());
        let (label, brand) = (info.label.as_deref(), info.browser.as_deref());
        let (label, brand, tabs) = (label.unwrap_or(""), brand.unwrap_or(""), held.len());
        tracing::info!(browser, label, brand, tabs, "a browser joined");
    }
    let id = hub.join(role, info.bounded(), &held, tx.clone());
    let welcome = Frame::Welcome {
        proof: auth::proof(gate.secret, handshake::RELAY, gate.port, &cnonce),
        peer_id: id,
        version: protocol::VERSION.into(),
        port: gate.port,
    };
    let _ = tx.send(Outgoing::frame(welcome)).await;
    hub.push_roster();
    Ok((id, keys.open))
}

/// The peer's first sealed frame, right after its hello: who it is, and (a browser) the agents'
/// tabs it still has open.
async fn about<S>(
    role: Role,
    opener: &mut Opener,
    stream: &mut S,
) -> Result<(protocol::PeerInfo, Vec<protocol::HeldTab>), (u16, &'static str)>
where
    S: futures::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let sealed = match tokio::time::timeout(PROVE_WITHIN, stream.next()).await {
        Ok(Some(Ok(Message::Binary(sealed)))) => sealed,
        Ok(Some(Ok(Message::Text(_)))) => return Err(unsealed(role, 0, &protocol::seal::Unsealed)),
        _ => return Err((close::AUTH_FAILED, "no hello")),
    };
    let text = opener.open(&sealed).map_err(|e| unsealed(role, 0, &e))?;
    match serde_json::from_slice::<Frame>(&text) {
        Ok(Frame::About { info, held }) => Ok((info, held)),
        Ok(_) => Err((
            close::WRONG_ENVELOPE,
            "expected who the peer is after its hello",
        )),
        Err(_) => Err((close::MALFORMED, "malformed frame")),
    }
}

/// Takes an authenticated peer's frames until it leaves (`None`) or must be closed (the code and
/// reason why).
async fn serve_frames<S>(
    hub: &Arc<Hub>,
    role: Role,
    peer_id: u64,
    opener: &mut Opener,
    stream: &mut S,
) -> Option<(u16, &'static str)>
where
    S: futures::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let mut limit = RateLimit::new();
    // A browser's answer too big for one frame, as its parts arrive.
    let mut parts = String::new();
    loop {
        let msg = match stream.next().await {
            Some(Ok(Message::Close(Some(frame)))) if frame.code == close::UNSEALED => {
                tracing::warn!(
                    role = role.as_str(),
                    peer_id,
                    "the peer closed the link: a frame reached it that the relay did not seal \
                     (something on the path between them sent or altered it)"
                );
                return None;
            }
            None | Some(Ok(Message::Close(_))) => return None,
            Some(Err(e)) => {
                return is_too_big(&e).then_some((close::TOO_BIG, "frame too big"));
            }
            Some(Ok(msg)) => msg,
        };
        if !limit.allow() {
            tracing::warn!(peer_id, "peer over the frame-rate ceiling; disconnecting");
            return Some((close::FLOOD, "too many frames"));
        }
        let text = match msg {
            Message::Binary(sealed) => match opener.open(&sealed).map(String::from_utf8) {
                Ok(Ok(text)) => text,
                Ok(Err(_)) => return Some((close::MALFORMED, "malformed frame")),
                Err(e) => return Some(unsealed(role, peer_id, &e)),
            },
            Message::Text(_) => {
                return Some(unsealed(role, peer_id, &protocol::seal::Unsealed));
            }
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => return None,
        };
        let frame = match serde_json::from_str::<Frame>(&text) {
            Ok(Frame::Part { data, last }) if role == Role::Browser => {
                if parts.len() + data.len() > protocol::MAX_ANSWER {
                    return Some((close::TOO_BIG, "answer too big"));
                }
                parts.push_str(&data);
                if !last {
                    continue;
                }
                match serde_json::from_str::<Frame>(&std::mem::take(&mut parts)) {
                    Ok(Frame::Part { .. }) | Err(_) => {
                        return Some((close::MALFORMED, "malformed frame"));
                    }
                    Ok(frame) => frame,
                }
            }
            Ok(frame) => frame,
            Err(_) => return Some((close::MALFORMED, "malformed frame")),
        };
        if let Err(reason) = hub.receive(role, peer_id, frame) {
            return Some((close::WRONG_ENVELOPE, reason));
        }
    }
}

/// A frame that is not the peer's next sealed one ends the link, with a warning: the peer holds
/// the key, so something on the path sent or altered it.
fn unsealed(role: Role, peer_id: u64, e: &protocol::seal::Unsealed) -> (u16, &'static str) {
    tracing::warn!(role = role.as_str(), peer_id, "closing the link: {e}");
    (
        close::UNSEALED,
        "a frame was not sealed with this link's key",
    )
}

/// Whether a socket failed on a frame past its ceiling (rather than dropping).
fn is_too_big(e: &axum::Error) -> bool {
    use std::error::Error;
    matches!(
        e.source()
            .and_then(|s| s.downcast_ref::<tungstenite_error::Error>()),
        Some(tungstenite_error::Error::Capacity(_))
    )
}

/// axum wraps tungstenite's error; this names it to tell a size breach from a dropped socket.
mod tungstenite_error {
    pub(super) use tokio_tungstenite::tungstenite::Error;
}
