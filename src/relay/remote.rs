//! The relay past loopback (`tabpilot relay --listen HOST:PORT`): a second door, for browsers on
//! other computers only. It serves a browser's link (`/browser`, proven and sealed as on
//! loopback, under a secret of its own) and the pairing exchange (`protocol::remote`). Controllers
//! never come in by it: agents stay on this computer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use serde::Deserialize;
use serde_json::json;

use super::Hub;
use super::codes::Codes;
use super::extensions::Extensions;
use super::hub::Door;
use crate::shared::protocol::handshake;
use crate::shared::protocol::remote::{self, transcript};
use crate::shared::protocol::seal::End;
use crate::shared::serve::door;
use crate::shared::state;

/// What a browser's claim says, sealed: nothing but that it holds the keys.
const CLAIM: &[u8] = br#"{"t":"claim"}"#;
/// Time for each step of the exchange: the browser sends as soon as the person clicks Pair.
const STEP_WITHIN: Duration = Duration::from_secs(10);

/// The relay's door past loopback: where it listens, its lasting key, the secret of the links
/// through it, and the codes `tabpilot pair --remote` hands out.
pub(super) struct Remote {
    pub(super) addr: SocketAddr,
    key: SecretKey,
    /// The key's public half, SEC1 uncompressed, hex: what the browser pins.
    public: String,
    pub(super) fingerprint: String,
    secret: Vec<u8>,
    pub(super) codes: Codes,
}

impl Remote {
    /// The door at `addr` (the address listened on), with the key and secret kept owner-only in
    /// the state dir, made on first use and the same after a restart, so paired browsers come
    /// back.
    pub(super) fn load(addr: SocketAddr) -> anyhow::Result<Remote> {
        let scalar = hex::decode(state::relay_key()?)?;
        let key = SecretKey::from_slice(&scalar).map_err(|_| {
            anyhow::anyhow!("the relay's key in the state dir is not a P-256 key; delete `relay-key` to make another (browsers paired past loopback then pair again)")
        })?;
        let public = key.public_key().to_encoded_point(false);
        Ok(Remote {
            addr,
            public: hex::encode(public.as_bytes()),
            fingerprint: remote::fingerprint(public.as_bytes()),
            key,
            secret: state::remote_secret()?,
            codes: Codes::remote(),
        })
    }

    pub(super) fn secret(&self) -> &[u8] {
        &self.secret
    }
}

/// The routes of the door past loopback.
pub(super) fn routes(hub: Arc<Hub>) -> Router {
    Router::new()
        .route(handshake::BROWSER_PATH, get(browser_endpoint))
        .route(handshake::REMOTE_PAIR_PATH, get(pair_endpoint))
        .with_state(hub)
}

async fn browser_endpoint(
    State(hub): State<Arc<Hub>>,
    axum::extract::ConnectInfo(addr): door::Peer,
    Extension(unproven): Extension<door::Unproven>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    super::browser_at(Door::Remote, hub, addr, unproven, &headers, ws)
}

async fn pair_endpoint(
    State(hub): State<Arc<Hub>>,
    axum::extract::ConnectInfo(addr): door::Peer,
    Extension(unproven): Extension<door::Unproven>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let Some(id) = Extensions::id_of(origin).map(str::to_owned) else {
        return (StatusCode::FORBIDDEN, "only a browser extension may pair").into_response();
    };
    ws.max_message_size(4096)
        .max_frame_size(4096)
        .on_upgrade(move |mut socket| async move {
            // The exchange is bounded by its steps' clocks; its place goes to the next comer.
            unproven.proven();
            match exchange(&hub, &mut socket).await {
                Ok(()) => {
                    if let Err(e) = hub.pairing().extensions.pin(&id) {
                        tracing::warn!("could not keep the paired extension's ID: {e}");
                    }
                    tracing::info!(%addr, "a browser on another computer paired with the relay");
                }
                Err(why) => {
                    tracing::warn!(%addr, "a remote pairing failed: {why}");
                    let refusal = json!({ "error": why }).to_string();
                    let _ = socket.send(Message::Text(refusal.into())).await;
                }
            }
            let _ = socket.send(Message::Close(None)).await;
        })
}

#[derive(Deserialize)]
struct Offer {
    eph: String,
}

/// The exchange of `protocol::remote`, relay side: the secret goes out sealed to a browser whose
/// claim opened under an open code's keys; what goes wrong is said in words the person can act
/// on.
async fn exchange(hub: &Hub, socket: &mut WebSocket) -> Result<(), &'static str> {
    let Some(remote) = hub.pairing().remote.as_ref() else {
        return Err("this relay does not pair browsers on other computers");
    };
    let offer = match next(socket).await? {
        Message::Text(text) => serde_json::from_str::<Offer>(&text).ok(),
        _ => None,
    };
    let offer = offer.ok_or("the browser's first message is not a key")?;
    let theirs = hex::decode(&offer.eph)
        .ok()
        .and_then(|bytes| PublicKey::from_sec1_bytes(&bytes).ok())
        .ok_or("the browser's key is not a P-256 point")?;
    let fresh = fresh_key();
    let fresh_public = hex::encode(fresh.public_key().to_encoded_point(false).as_bytes());
    let answer = json!({ "key": remote.public, "eph": fresh_public }).to_string();
    socket
        .send(Message::Text(answer.into()))
        .await
        .map_err(|_| "the browser left")?;
    let Message::Binary(sealed) = next(socket).await? else {
        return Err("the browser's claim is not sealed");
    };
    let mut ikm = agree(&remote.key, &theirs);
    ikm.extend(agree(&fresh, &theirs));
    let said = transcript(&offer.eph, &remote.public, &fresh_public);
    // The keys of the open code the claim opened under, taken once; none: a wrong code.
    let mut granted = None;
    remote.codes.claim_by(|code| {
        let mut keys = remote::keys(&ikm, code, &said, End::Relay);
        let opens = keys.open.open(&sealed).is_ok_and(|claim| claim == CLAIM);
        if opens {
            granted = Some(keys);
        }
        opens
    });
    let Some(mut keys) = granted else {
        return Err("that is not an open pairing code; run tabpilot pair --remote again");
    };
    let secret = String::from_utf8_lossy(remote.secret()).into_owned();
    let grant = json!({ "secret": secret, "port": remote.addr.port() }).to_string();
    socket
        .send(Message::Binary(keys.seal.seal(grant.as_bytes()).into()))
        .await
        .map_err(|_| "the browser left before it had the secret")
}

/// The browser's next message, within a step's time.
async fn next(socket: &mut WebSocket) -> Result<Message, &'static str> {
    match tokio::time::timeout(STEP_WITHIN, socket.recv()).await {
        Ok(Some(Ok(msg))) => Ok(msg),
        Ok(_) => Err("the browser left"),
        Err(_) => Err("the browser took too long"),
    }
}

/// A fresh P-256 key from the system's randomness (a draw past the group's order, which
/// practically never happens, is drawn again).
fn fresh_key() -> SecretKey {
    loop {
        if let Ok(key) = SecretKey::from_slice(&rand::random::<[u8; 32]>()) {
            return key;
        }
    }
}

/// ECDH: the shared point's x coordinate, as WebCrypto's `deriveBits` gives it.
fn agree(ours: &SecretKey, theirs: &PublicKey) -> Vec<u8> {
    p256::ecdh::diffie_hellman(ours.to_nonzero_scalar(), theirs.as_affine())
        .raw_secret_bytes()
        .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both sides of the exchange, the browser's written here as the extension does it: the
    /// keys agree only when the code and every public key are the same on both sides.
    #[test]
    fn both_sides_of_the_exchange_agree_on_the_keys() {
        let (relay, fresh, browser) = (fresh_key(), fresh_key(), fresh_key());
        let public = |k: &SecretKey| hex::encode(k.public_key().to_encoded_point(false).as_bytes());
        let said = transcript(&public(&browser), &public(&relay), &public(&fresh));
        let mut relay_ikm = agree(&relay, &browser.public_key());
        relay_ikm.extend(agree(&fresh, &browser.public_key()));
        let mut browser_ikm = agree(&browser, &relay.public_key());
        browser_ikm.extend(agree(&browser, &fresh.public_key()));
        assert_eq!(relay_ikm, browser_ikm);
        let sealed = remote::keys(&browser_ikm, "CODE", &said, End::Peer)
            .seal
            .seal(CLAIM);
        let mut opened = remote::keys(&relay_ikm, "CODE", &said, End::Relay);
        assert_eq!(opened.open.open(&sealed).unwrap(), CLAIM);
        let stranger = fresh_key();
        let mut theirs = agree(&relay, &stranger.public_key());
        theirs.extend(agree(&fresh, &stranger.public_key()));
        let mut wrong = remote::keys(&theirs, "CODE", &said, End::Relay);
        assert!(wrong.open.open(&sealed).is_err());
    }
}
