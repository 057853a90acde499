//! The relay's books: who is connected, which tabs each agent holds, and the calls in flight.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc, oneshot};

use super::books::Books;
use super::pairing::Codes;
use crate::error::{Code, ToolError};
use crate::protocol::{
    self, Answer, Call, Frame, Op, PeerInfo, RelayOp, Role, Scope, TabEvent, Target, WireError,
};

/// Longest a call may wait on a browser when the caller names no timeout.
const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// What goes into a peer's outbox, which its socket's writer empties: a frame, or a close with
/// a reason.
pub enum Outgoing {
    Frame(Frame),
    Close(u16, &'static str),
}

/// A peer's outbox.
pub type Sender = mpsc::Sender<Outgoing>;

struct Controller {
    info: PeerInfo,
    session: String,
    tx: Sender,
    pending: usize,
}

struct Browser {
    peer_id: u64,
    info: PeerInfo,
    tx: Sender,
}

struct PendingCall {
    browser: String,
    mutates: bool,
    reply: oneshot::Sender<Result<Answer, ToolError>>,
}

#[derive(Default)]
struct Roster {
    controllers: HashMap<u64, Controller>,
    browsers: HashMap<String, Browser>,
    books: Books,
    pending: HashMap<u64, PendingCall>,
}

pub struct Hub {
    secret: Vec<u8>,
    port: u16,
    /// The range this relay serves, handed to browsers that pair.
    ports: (u16, u16),
    codes: Codes,
    next_id: AtomicU64,
    roster: Mutex<Roster>,
    /// Serialises opening an agent's first tab, so two racing calls open one.
    opening: tokio::sync::Mutex<()>,
    changed: Notify,
}

impl Hub {
    pub fn new(secret: Vec<u8>, port: u16, ports: (u16, u16)) -> Self {
        Hub {
            secret,
            port,
            ports,
            codes: Codes::default(),
            next_id: AtomicU64::new(1),
            roster: Mutex::new(Roster::default()),
            opening: tokio::sync::Mutex::new(()),
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

    pub fn codes(&self) -> &Codes {
        &self.codes
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn roster(&self) -> std::sync::MutexGuard<'_, Roster> {
        self.roster.lock().unwrap_or_else(|p| p.into_inner())
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

    /// Adds an authenticated peer to the roster. A browser that reconnects under its stored
    /// identity replaces its old socket, keeping its tabs' books.
    pub fn join(&self, role: Role, info: PeerInfo, tx: Sender) -> u64 {
        let id = self.id();
        let mut r = self.roster();
        match role {
            Role::Controller => {
                let session = info.session.clone().unwrap_or_else(|| format!("peer-{id}"));
                r.controllers.insert(
                    id,
                    Controller {
                        info,
                        session,
                        tx,
                        pending: 0,
                    },
                );
            }
            Role::Browser => {
                let key = info
                    .browser_id
                    .clone()
                    .unwrap_or_else(|| format!("browser-{id}"));
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

    pub fn leave(&self, role: Role, id: u64) {
        let mut r = self.roster();
        match role {
            Role::Controller => {
                if let Some(c) = r.controllers.remove(&id) {
                    let named = c.info.session.is_some();
                    let still_here = r.controllers.values().any(|o| o.session == c.session);
                    r.books.leave(&c.session, named, still_here);
                }
            }
            Role::Browser => {
                let key = r
                    .browsers
                    .iter()
                    .find(|(_, b)| b.peer_id == id)
                    .map(|(k, _)| k.clone());
                if let Some(key) = key {
                    r.browsers.remove(&key);
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
            let _ = b.tx.try_send(Outgoing::Frame(Frame::Roster {
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
                self.answer_later(peer, id, |hub| async move { hub.route(peer, call).await })
            }
            (Role::Controller, Frame::Ask { id, op }) => {
                self.answer_later(peer, id, move |hub| async move {
                    let session = hub.session_of(peer)?;
                    Ok((hub.relay_op(&session, op)?, None))
                })
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
                    self.tab_event(None, &browser, event);
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

    /// Runs a controller's request on its own task and sends the answer back under `id`, counting
    /// it against the controller's calls in flight.
    fn answer_later<F, Fut>(
        self: &Arc<Self>,
        peer: u64,
        id: u64,
        work: F,
    ) -> Result<(), &'static str>
    where
        F: FnOnce(Arc<Hub>) -> Fut,
        Fut: std::future::Future<Output = Result<(Value, Option<Target>), ToolError>>
            + Send
            + 'static,
    {
        let tx = {
            let mut r = self.roster();
            let c = r.controllers.get_mut(&peer).ok_or("unknown peer")?;
            if c.pending >= protocol::MAX_PENDING_CALLS {
                return Err("too many calls in flight");
            }
            c.pending += 1;
            c.tx.clone()
        };
        let hub = self.clone();
        let work = work(self.clone());
        tokio::spawn(async move {
            let answer = work.await;
            if let Some(c) = hub.roster().controllers.get_mut(&peer) {
                c.pending -= 1;
            }
            let answer = match answer {
                Ok((value, target)) => Answer {
                    id,
                    value: Some(value),
                    target,
                    ..Answer::default()
                },
                Err(e) => Answer {
                    id,
                    error: Some(WireError::from(&e)),
                    ..Answer::default()
                },
            };
            let _ = tx.send(Outgoing::Frame(Frame::Result(answer))).await;
        });
        Ok(())
    }

    fn session_of(&self, peer: u64) -> Result<String, ToolError> {
        self.roster()
            .controllers
            .get(&peer)
            .map(|c| c.session.clone())
            .ok_or_else(|| ToolError::refused(Code::Internal, "controller left"))
    }

    fn browser_key(&self, peer: u64) -> Option<String> {
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
            let _ = tx.try_send(Outgoing::Frame(frame));
        }
    }

    /// Keeps the books from what the browser says happened to a tab.
    fn tab_event(&self, caller: Option<&str>, browser: &str, event: TabEvent) {
        self.roster().books.record(caller, browser, event);
    }

    async fn route(&self, peer: u64, mut call: Call) -> Result<(Value, Option<Target>), ToolError> {
        let session = self.session_of(peer)?;
        // The operation says what it needs; a controller's own claim is not trusted.
        call.scope = call.op.scope();
        let browser = self.pick_browser(&session, &call.target)?;
        let tab = match (call.scope, call.target.tab) {
            (Scope::Tab, named) => Some(self.resolve_tab(&session, &browser, named).await?),
            (_, Some(tab)) => {
                self.roster().books.may_touch(&session, &browser, tab)?;
                Some(tab)
            }
            (_, None) => None,
        };
        call.target = Target { browser: None, tab };
        let value = self
            .ask_browser(&session, &browser, call)
            .await
            .inspect_err(|e| {
                // A tab the browser says is gone leaves the books, so the agent's next page
                // call opens a fresh one instead of failing on it again.
                if let (Code::TabGone, Some(tab)) = (e.code, tab) {
                    self.tab_event(Some(&session), &browser, TabEvent::Closed { tab });
                }
            })?;
        Ok((
            value,
            Some(Target {
                browser: Some(browser),
                tab,
            }),
        ))
    }

    /// The operations the relay answers itself.
    fn relay_op(&self, session: &str, op: RelayOp) -> Result<Value, ToolError> {
        let r = self.roster();
        match op {
            RelayOp::Pair => {
                let url = format!("http://127.0.0.1:{}/pair/{}", self.port, self.codes.issue());
                Ok(json!({ "url": url }))
            }
            RelayOp::MyTab => {
                let current = r.books.current(session).cloned();
                Ok(current.map_or(
                    Value::Null,
                    |(browser, tab)| json!({"browser": browser, "tab": tab}),
                ))
            }
            RelayOp::Status => {
                let browsers: Vec<Value> = r
                    .browsers
                    .iter()
                    .map(|(id, b)| {
                        json!({"browserId": id, "browser": b.info.browser, "profile": b.info.profile, "label": b.info.label})
                    })
                    .collect();
                let controllers: Vec<Value> = r
                    .controllers
                    .values()
                    .map(|c| json!({"name": c.info.name, "pid": c.info.pid}))
                    .collect();
                Ok(json!({
                    "relay": {"version": protocol::VERSION, "port": self.port},
                    "browsers": browsers,
                    "agents": controllers,
                }))
            }
        }
    }

    /// The browser a call goes to: the one named, else the one holding the agent's current tab,
    /// else the only one connected. A retry never changes browser.
    fn pick_browser(&self, session: &str, target: &Target) -> Result<String, ToolError> {
        let r = self.roster();
        if let Some(name) = &target.browser {
            return if r.browsers.contains_key(name) {
                Ok(name.clone())
            } else {
                Err(ToolError::refused(
                    Code::NoBrowser,
                    format!("no browser {name:?} is connected"),
                ))
            };
        }
        if let Some((browser, _)) = r.books.current(session) {
            return if r.browsers.contains_key(browser) {
                Ok(browser.clone())
            } else {
                Err(ToolError::refused(
                    Code::NoBrowser,
                    "the browser holding this agent's tab is not connected",
                ))
            };
        }
        match r.browsers.len() {
            0 => Err(ToolError::refused(
                Code::NoBrowser,
                "no browser is connected to the relay",
            )),
            1 => Ok(r.browsers.keys().next().expect("one").clone()),
            n => Err(ToolError::refused(
                Code::AmbiguousBrowser,
                format!("{n} browsers are connected; name one (browserId from browser_status)"),
            )),
        }
    }

    /// The tab a page call acts on. A tab named by the caller is handed to this agent unless
    /// another agent holds it; with none named it is the agent's current tab, opened in the
    /// background on first use.
    async fn resolve_tab(
        &self,
        session: &str,
        browser: &str,
        named: Option<i64>,
    ) -> Result<i64, ToolError> {
        if let Some(tab) = named {
            self.roster().books.claim(session, browser, tab)?;
            return Ok(tab);
        }
        let _opening = self.opening.lock().await;
        let current = self.roster().books.page_tab(session, browser)?;
        match current {
            Some(tab) => Ok(tab),
            _ => {
                let open = Call::new(Op::TabOpen, json!({}), Duration::from_secs(15));
                self.ask_browser(session, browser, open).await?;
                let r = self.roster();
                r.books
                    .current(session)
                    .filter(|(b, _)| b == browser)
                    .map(|(_, tab)| *tab)
                    .ok_or_else(|| ToolError::failed(Code::Internal, "the browser opened no tab"))
            }
        }
    }

    /// Passes a call to a browser and waits for its answer; the tab events the answer carries
    /// go into `session`'s books.
    async fn ask_browser(
        &self,
        session: &str,
        browser: &str,
        mut call: Call,
    ) -> Result<Value, ToolError> {
        let id = self.id();
        call.id = id;
        let (op, mutates) = (call.op, call.op.mutates());
        let timeout = call.timeout().unwrap_or(DEFAULT_CALL_TIMEOUT);
        call.timeout_ms = Some(timeout.as_millis() as u64);
        let (reply, answer) = oneshot::channel();
        let tx = {
            let mut r = self.roster();
            let b = r
                .browsers
                .get(browser)
                .ok_or_else(|| ToolError::refused(Code::NoBrowser, "the browser disconnected"))?;
            let tx = b.tx.clone();
            r.pending.insert(
                id,
                PendingCall {
                    browser: browser.to_string(),
                    mutates,
                    reply,
                },
            );
            tx
        };
        if tx.send(Outgoing::Frame(Frame::Call(call))).await.is_err() {
            self.roster().pending.remove(&id);
            return Err(ToolError::refused(
                Code::NoBrowser,
                "the browser disconnected",
            ));
        }
        // The browser enforces the call's own timeout; this is the backstop for a lost reply.
        let answer = match tokio::time::timeout(timeout + Duration::from_secs(2), answer).await {
            Ok(Ok(answer)) => answer?,
            Ok(Err(_)) => return Err(ToolError::failed(Code::Internal, "the call was dropped")),
            Err(_) => {
                self.roster().pending.remove(&id);
                return Err(ToolError::lost(
                    Code::Timeout,
                    format!("the browser did not answer {} in {timeout:?}", op.name()),
                    mutates,
                ));
            }
        };
        for event in &answer.tabs {
            self.tab_event(Some(session), browser, *event);
        }
        answer.into_result()
    }
}
