//! Finding our relay on the port range and proving ourselves to it: the relay must prove it
//! holds our secret for the port we dialled, and run our version.

use std::sync::PoisonError;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use super::{Failure, Mismatch, Shared, Socket};
use crate::shared::protocol::seal::{End, Keys, Opener};
use crate::shared::protocol::{self, Frame, PeerInfo, Role, auth, handshake};
use crate::shared::state;

/// A relay on loopback answers its challenge in milliseconds; whatever else holds a port in the
/// range is given up on after this.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(1);

impl Shared {
    /// Tries the port the relay recorded first, then the rest of the range in order. A port
    /// held by anything but our relay fails the handshake and is passed over; our relay of
    /// another version ends the search (no relay of ours can start beside it).
    pub(super) async fn try_ports(
        &self,
        ports: std::ops::RangeInclusive<u16>,
    ) -> Option<Result<(Socket, Keys, u16), Failure>> {
        let recorded = state::recorded_relay_port(&ports);
        for port in recorded
            .into_iter()
            .chain(ports.clone().filter(|p| Some(*p) != recorded))
        {
            match tokio::time::timeout(HANDSHAKE_TIMEOUT, self.handshake(port)).await {
                Ok(Ok((socket, keys))) => return Some(Ok((socket, keys, port))),
                Ok(Err(Refused::Version(theirs))) => {
                    let pid = state::recorded_relay_pid(&ports)
                        .filter(|_| state::recorded_relay_port(&ports) == Some(port));
                    return Some(Err(Failure::Version(Mismatch { port, pid, theirs })));
                }
                Ok(Err(Refused::Other(e))) => tracing::debug!(port, "no relay: {e}"),
                Err(_) => tracing::debug!(port, "no relay: timed out"),
            }
        }
        None
    }

    /// Who this link says it is at its handshake.
    fn hello_info(&self) -> PeerInfo {
        let mut info = self.info.clone();
        if let Some(name) = self
            .agent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        {
            info.name = name;
        }
        info
    }

    /// The socket, proven both ways, and its keys: from our hello on, every frame is sealed (the
    /// welcome included).
    async fn handshake(&self, port: u16) -> Result<(Socket, Keys), Refused> {
        let url = format!("ws://127.0.0.1:{port}{}", handshake::CONTROLLER_PATH);
        let (mut ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .map_err(|e| Refused::Other(e.to_string()))?;
        let nonce = match next_frame(&mut ws).await? {
            Frame::Challenge { nonce, .. } => nonce,
            _ => return Err(Refused::Other("expected a challenge".into())),
        };
        let cnonce = auth::nonce();
        let hello = Frame::Hello {
            role: Role::Controller,
            proof: auth::proof(&self.secret, Role::Controller.as_str(), port, &nonce),
            cnonce: cnonce.clone(),
        };
        let mut keys = Keys::derive(
            &self.secret,
            Role::Controller,
            port,
            &nonce,
            &cnonce,
            End::Peer,
        );
        // Who we are goes sealed, right after the hello.
        let about = Frame::About {
            info: self.hello_info(),
            held: Vec::new(),
        };
        let about = serde_json::to_string(&about).expect("frames serialize");
        let text = serde_json::to_string(&hello).expect("frames serialize");
        for msg in [
            Message::Text(text.into()),
            Message::Binary(keys.seal.seal(about.as_bytes()).into()),
        ] {
            ws.send(msg)
                .await
                .map_err(|e| Refused::Other(e.to_string()))?;
        }
        let (welcome, sealed) = welcome(&mut ws, &mut keys.open).await?;
        match welcome {
            // The relay's proof names the port we dialled: one passed on from another port is
            // a relay's proof for that port, and fails here. Its version is believed only once
            // it has proved itself: anything squatting on the range could claim one.
            Frame::Welcome {
                proof,
                port: said,
                version,
                ..
            } if said == port
                && auth::verify(&self.secret, handshake::RELAY, port, &cnonce, &proof) =>
            {
                if version != protocol::VERSION || !sealed {
                    let _ = ws.close(None).await;
                    // One of our version that welcomes in clear is a build from before sealed
                    // links: the version alone would not tell the person why.
                    let old = if sealed || version != protocol::VERSION {
                        ""
                    } else {
                        ", from before sealed links,"
                    };
                    return Err(Refused::Version(format!("{version}{old}")));
                }
                Ok((ws, keys))
            }
            Frame::Welcome { .. } => Err(Refused::Other(
                "the relay could not prove it holds our secret".into(),
            )),
            _ => Err(Refused::Other(format!(
                "the relay refused our proof (is {} the relay's?)",
                crate::shared::settings::Setting::StateDir
            ))),
        }
    }
}

/// Why one port's handshake failed.
enum Refused {
    /// Our relay, proven, of this other version.
    Version(String),
    Other(String),
}

impl From<String> for Refused {
    fn from(e: String) -> Self {
        Refused::Other(e)
    }
}

/// The relay's answer to our hello, and whether it came sealed. A relay from before sealed
/// links welcomes in clear: its proof is checked as any, so that a proven one is named as a
/// relay of another version to stop, not passed over as a stranger.
async fn welcome<S>(stream: &mut S, opener: &mut Opener) -> Result<(Frame, bool), String>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match next_data(stream).await? {
        Message::Text(text) => Ok((parse(&text)?, false)),
        Message::Binary(sealed) => Ok((open(opener, &sealed)?, true)),
        _ => unreachable!("next_data returns text or binary"),
    }
}

/// The next frame sent in clear (the challenge).
pub(super) async fn next_frame<S>(stream: &mut S) -> Result<Frame, String>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match next_data(stream).await? {
        Message::Text(text) => parse(&text),
        _ => Err("expected a frame in clear".into()),
    }
}

/// The next frame after our hello, which must open with the link's key: one that does not (or
/// comes in clear) was not sent by the relay, and ends the link.
pub(super) async fn next_sealed<S>(stream: &mut S, opener: &mut Opener) -> Result<Frame, String>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match next_data(stream).await? {
        Message::Binary(sealed) => open(opener, &sealed),
        _ => Err(unsealed(protocol::seal::Unsealed)),
    }
}

fn open(opener: &mut Opener, sealed: &[u8]) -> Result<Frame, String> {
    let text = opener.open(sealed).map_err(unsealed)?;
    parse(&String::from_utf8(text).map_err(|e| format!("malformed frame: {e}"))?)
}

fn unsealed(e: protocol::seal::Unsealed) -> String {
    tracing::warn!("closing the link to the relay: {e}");
    e.to_string()
}

fn parse(text: &str) -> Result<Frame, String> {
    serde_json::from_str(text).map_err(|e| format!("malformed frame: {e}"))
}

/// The next text or binary message, or why the socket ended.
async fn next_data<S>(stream: &mut S) -> Result<Message, String>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match stream.next().await {
            Some(Ok(msg @ (Message::Text(_) | Message::Binary(_)))) => return Ok(msg),
            Some(Ok(Message::Close(frame))) => {
                return Err(frame
                    .map(|f| format!("closed: {} {}", f.code, f.reason))
                    .unwrap_or("closed".into()));
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("closed".into()),
        }
    }
}
