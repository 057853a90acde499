//! The relay's switchboard: who is connected, the frames they send, and the calls in flight to
//! browsers. Which tabs each agent holds, and how a call finds its browser and tab, are the
//! router's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{Notify, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

mod asks;
mod calls;

use super::books::{AgentInfo, GRACE, LEASE_TTL};
use super::pairing::Pairing;
use super::remote::Remote;

/// Which door a peer came in by: the relay's port on loopback, or its listener past loopback
/// (`relay --listen`), which takes browsers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Door {
    Loopback,
    Remote,
}

/// What a peer proves itself against at its door.
pub(super) struct Gate<'a> {
    pub(super) secret: &'a [u8],
    pub(super) port: u16,
    pub(super) key: Option<&'a String>,
}
use super::route::Router;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{
    self, AgentKey, Answer, BrowserId, BrowserKind, Frame, HeldTab, PeerInfo, Role, WireError,
};
use asks::Asker;

/// What goes into a peer's outbox, which its socket's writer empties: a frame, the key that
/// seals every frame after it (once the peer has proved itself), or a close with a reason.
pub enum Outgoing {
    Frame(Box<Frame>),
    Seal(Box<crate::shared::protocol::seal::Sealer>),
    Close(u16, &'static str),
}

impl Outgoing {
    /// A frame for the outbox (boxed: frames are large next to a close).
    pub(super) fn frame(frame: Frame) -> Self {
        Outgoing::Frame(Box::new(frame))
    }
}

/// A peer's outbox.
pub(super) type Sender = mpsc::Sender<Outgoing>;

struct Controller {
    info: PeerInfo,
    session: AgentKey,
    tx: Sender,
    pending: usize,
    /// Its calls in flight, by its own numbers: what its `cancel` frames can reach, and all
    /// they can.
    calls: HashMap<u64, CancellationToken>,
}

struct Browser {
    peer_id: u64,
    info: PeerInfo,
    tx: Sender,
}

struct PendingCall {
    browser: BrowserId,
    mutates: bool,
    reply: oneshot::Sender<Result<Answer, ToolError>>,
}

#[derive(Default)]
struct Roster {
    controllers: HashMap<u64, Controller>,
    browsers: HashMap<BrowserId, Browser>,
    pending: HashMap<u64, PendingCall>,
}

pub struct Hub {
    secret: Vec<u8>,
    port: u16,
    /// The range this relay serves, handed to browsers that pair.
    ports: (u16, u16),
    pairing: Pairing,
    next_id: AtomicU64,
    roster: Mutex<Roster>,
    router: Router,
    changed: Notify,
}

impl Hub {
    pub fn new(secret: Vec<u8>, port: u16, ports: (u16, u16)) -> Self {
        Hub {
            secret,
            port,
            ports,
            pairing: Pairing::load(),
            next_id: AtomicU64::new(1),
            roster: Mutex::new(Roster::default()),
            router: Router::default(),
            changed: Notify::new(),
        }
    }

    pub fn secret(&self) -> &[u8] {
        &self.secret
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn ports(&self) -> (u16, u16) {
        self.ports
    }

    pub(super) fn pairing(&self) -> &Pairing {
        &self.pairing
    }

    /// The relay with its door past loopback open too.
    pub(super) fn listening_past_loopback(mut self, remote: Remote) -> Self {
        self.pairing.remote = Some(remote);
        self
    }

    /// What a peer that came in by `door` proves itself with: the secret, the port it dialled,
    /// and (past loopback) the key the relay's challenge names. None: that door is not open.
    pub(super) fn gate(&self, door: Door) -> Option<Gate<'_>> {
        match (door, &self.pairing.remote) {
            (Door::Loopback, _) => Some(Gate {
                secret: &self.secret,
                port: self.port,
                key: None,
            }),
            (Door::Remote, Some(remote)) => Some(Gate {
                secret: remote.secret(),
                port: remote.addr.port(),
                key: Some(&remote.fingerprint),
            }),
            (Door::Remote, None) => None,
        }
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn roster(&self) -> std::sync::MutexGuard<'_, Roster> {
        self.roster.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Resolves when no peer has been connected for `idle`.
    pub async fn idled_out(&self, idle: Duration) {
        loop {
            // Listen before looking, so a peer leaving between the look and the wait still wakes us.
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let empty = {
                let r = self.roster();
                r.controllers.is_empty() && r.browsers.is_empty()
            };
            if empty {
                tokio::select! {
                    _ = tokio::time::sleep(idle) => return,
                    _ = changed => {}
                }
            } else {
                changed.await;
            }
        }
    }

    /// A proven peer joins the roster; a browser that reconnects under its stored identity
    /// replaces its old socket. Its held tabs go back into the books before it is in the roster,
    /// so no agent's call reaches it while its books are still empty (it would open a new tab).
    pub fn join(self: &Arc<Self>, role: Role, info: PeerInfo, held: &[HeldTab], tx: Sender) -> u64 {
        let id = self.id();
        let key = info
            .browser_id
            .clone()
            .unwrap_or_else(|| BrowserId(format!("browser-{id}")));
        if role == Role::Browser {
            self.router.books().rejoin(&key, held);
            // An owner the browser names that does not come back (its server ended while the
            // relay was down) has the grace period to, as if it had just left.
            let owners: std::collections::BTreeSet<&AgentKey> =
                held.iter().map(|h| &h.owner).collect();
            for owner in owners {
                self.end_after_grace(owner.clone());
            }
        }
        let mut r = self.roster();
        match role {
            Role::Controller => {
                let session = AgentKey::of(&info);
                let ttl = info.lease_ttl_ms.map_or(LEASE_TTL, Duration::from_millis);
                self.router.books().enter(
                    &session,
                    AgentInfo {
                        name: info.name.clone(),
                        pid: info.pid,
                        ttl,
                    },
                );
                r.controllers.insert(
                    id,
                    Controller {
                        info,
                        session,
                        tx,
                        pending: 0,
                        calls: HashMap::new(),
                    },
                );
            }
            Role::Browser => {
                if let Some(old) = r.browsers.insert(
                    key,
                    Browser {
                        peer_id: id,
                        info,
                        tx,
                    },
                ) {
                    let _ = old
                        .tx
                        .try_send(Outgoing::Close(protocol::close::REPLACED, "replaced"));
                }
            }
        }
        drop(r);
        self.changed.notify_waiters();
        id
    }

    pub fn leave(self: &Arc<Self>, role: Role, id: u64) {
        let mut r = self.roster();
        match role {
            Role::Controller => {
                if let Some(c) = r.controllers.remove(&id) {
                    // An agent whose socket dropped has a moment to come back to its tabs;
                    // after that they are closed, not left open and unowned.
                    self.end_after_grace(c.session);
                }
            }
            Role::Browser => {
                let key = r
                    .browsers
                    .iter()
                    .find(|(_, b)| b.peer_id == id)
                    .map(|(k, _)| k.clone());
                if let Some(key) = key {
                    let gone = r.browsers.remove(&key);
                    tracing::info!(browser = %key.0, "a browser left");
                    if gone.is_some_and(|b| b.info.profile.as_deref() == Some("isolated")) {
                        // Its throwaway profile holds a copy of the secret: once the browser is
                        // closed, the profile goes.
                        tokio::spawn(async {
                            tokio::time::sleep(crate::shared::profiles::SWEEP_AFTER).await;
                            let sweep = crate::shared::profiles::sweep_throwaway;
                            let _ = crate::shared::blocking::call("sweeping profiles", sweep).await;
                        });
                    }
                    let lost: Vec<u64> = r
                        .pending
                        .iter()
                        .filter(|(_, p)| p.browser == key)
                        .map(|(id, _)| *id)
                        .collect();
                    for call in lost {
                        let p = r.pending.remove(&call).expect("listed above");
                        let _ = p.reply.send(Err(ToolError::lost(
                            Code::NoBrowser,
                            "the browser disconnected before it answered",
                            p.mutates,
                        )));
                    }
                }
            }
        }
        drop(r);
        self.changed.notify_waiters();
        self.push_roster();
    }

    fn end_after_grace(self: &Arc<Self>, session: AgentKey) {
        let hub = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(GRACE).await;
            hub.end_session(&session);
        });
    }

    /// Ends an agent's session if no connection has it any more and it is not a named one: its
    /// tabs leave the books, and the browsers are told (src/relay/release.rs).
    fn end_session(self: &Arc<Self>, session: &AgentKey) {
        let still_here = self
            .roster()
            .controllers
            .values()
            .any(|c| c.session == *session);
        let named = session.is_named();
        if !self.router.books().leave(session, named, still_here) {
            return;
        }
        let (hub, session) = (self.clone(), session.clone());
        tokio::spawn(async move { hub.router.announce_release(&*hub, &session, true).await });
    }

    /// Tells browsers who is connected (for the popup).
    pub fn push_roster(&self) {
        let r = self.roster();
        let controllers: Vec<PeerInfo> = r
            .controllers
            .values()
            .map(|c| PeerInfo {
                name: c.info.name.clone(),
                pid: c.info.pid,
                ..Default::default()
            })
            .collect();
        for b in r.browsers.values() {
            let _ = b.tx.try_send(Outgoing::frame(Frame::Roster {
                controllers: controllers.clone(),
            }));
        }
    }

    /// Takes one frame from an authenticated peer. An `Err` names a wrong envelope, and the
    /// socket is closed with it.
    pub fn receive(
        self: &Arc<Self>,
        role: Role,
        peer: u64,
        frame: Frame,
    ) -> Result<(), &'static str> {
        match (role, frame) {
            (Role::Controller, Frame::Call(call)) => {
                let id = call.id;
                let stop = CancellationToken::new();
                let until = stop.clone();
                self.answer_later(peer, id, Some(stop), |hub| async move {
                    let session = hub.session_of(peer)?;
                    let routed = hub
                        .router
                        .route_until(&*hub, &session, call, &until)
                        .await?;
                    Ok(Answer {
                        value: Some(routed.value),
                        target: Some(routed.target),
                        url: routed.url,
                        described: routed.described,
                        ..Answer::default()
                    })
                })
            }
            // A controller cancels its own calls, named by its own numbers: another's are not in
            // its book, whatever number it sends. A call that has answered is no longer there.
            (Role::Controller, Frame::Cancel { id }) => {
                self.cancel_own(peer, id);
                Ok(())
            }
            (Role::Controller, Frame::Ask { id, op }) => {
                self.answer_later(peer, id, None, move |hub| async move {
                    let session = hub.session_of(peer)?;
                    Ok(Answer {
                        value: Some(hub.relay_op(Asker::Agent(&session), op).await?),
                        ..Answer::default()
                    })
                })
            }
            // A browser's popup: the agents, and a person releasing one.
            (Role::Browser, Frame::Ask { id, op }) if op.for_browsers() => {
                let hub = self.clone();
                tokio::spawn(async move {
                    let answer = hub.relay_op(Asker::Popup, op).await.map(|value| Answer {
                        value: Some(value),
                        ..Answer::default()
                    });
                    hub.send_to(Role::Browser, peer, Frame::Result(answer_to(id, answer)));
                });
                Ok(())
            }
            (Role::Browser, Frame::Result(answer)) => {
                let pending = self.roster().pending.remove(&answer.id);
                if let Some(p) = pending {
                    let _ = p.reply.send(Ok(answer));
                }
                Ok(())
            }
            (Role::Browser, Frame::Tab(event)) => {
                if let Some(browser) = self.browser_key(peer) {
                    self.router.books().record(None, &browser, event);
                }
                Ok(())
            }
            (_, Frame::Ping) => {
                self.send_to(role, peer, Frame::Pong);
                Ok(())
            }
            (_, Frame::Pong) => Ok(()),
            _ => Err("frame not valid from this peer"),
        }
    }

    fn session_of(&self, peer: u64) -> Result<AgentKey, ToolError> {
        self.roster()
            .controllers
            .get(&peer)
            .map(|c| c.session.clone())
            .ok_or_else(|| ToolError::refused(Code::Internal, "controller left"))
    }

    fn browser_key(&self, peer: u64) -> Option<BrowserId> {
        self.roster()
            .browsers
            .iter()
            .find(|(_, b)| b.peer_id == peer)
            .map(|(k, _)| k.clone())
    }

    fn send_to(&self, role: Role, peer: u64, frame: Frame) {
        let r = self.roster();
        let tx = match role {
            Role::Controller => r.controllers.get(&peer).map(|c| &c.tx),
            Role::Browser => r
                .browsers
                .values()
                .find(|b| b.peer_id == peer)
                .map(|b| &b.tx),
        };
        if let Some(tx) = tx {
            let _ = tx.try_send(Outgoing::frame(frame));
        }
    }
}

/// Managed: a browser tabpilot launched (its pairing says which profile it runs).
fn kind_of(info: &PeerInfo) -> BrowserKind {
    match info.profile.as_deref() {
        Some("managed" | "isolated") => BrowserKind::Managed,
        _ => BrowserKind::User,
    }
}

/// The answer frame to request `id`: its value, or its error as it crosses the wire.
fn answer_to(id: u64, answer: Result<Answer, ToolError>) -> Answer {
    match answer {
        Ok(answer) => Answer { id, ..answer },
        Err(e) => Answer {
            id,
            error: Some(WireError::from(&e)),
            ..Answer::default()
        },
    }
}
