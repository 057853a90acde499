//! A controller's connection to the relay: find it (or spawn one), prove we hold the secret,
//! check the relay does too, and carry calls.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use crate::error::{Code, ToolError};
use crate::protocol::{self, Call, Frame, PeerInfo, RelayOp, Role, Target, auth};
use crate::state;

/// The link as `browser_status` reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// Not tried yet, or the relay is up with no browser: see the status call.
    Connected,
    /// The last attempt failed; the next waits this long.
    Retrying {
        next: Duration,
        reason: String,
    },
    Stopped,
}

/// The answer to a call: the browser's value, where the call ran, and the address of its tab.
#[derive(Clone, Debug)]
pub struct Reply {
    pub value: Value,
    pub target: Option<Target>,
    pub url: Option<String>,
}

/// A waiter for one answer: whether a lost reply may have changed the page, and its sender.
type Waiter = (bool, oneshot::Sender<Result<Reply, ToolError>>);

type Waiters = Arc<Mutex<HashMap<u64, Waiter>>>;

struct Conn {
    tx: mpsc::Sender<Message>,
    waiters: Waiters,
    port: u16,
    alive: Arc<std::sync::atomic::AtomicBool>,
}

pub struct Link {
    info: PeerInfo,
    /// The agent's name and identity across restarts, once its client said who it is: they go
    /// with the next handshake.
    agent: Mutex<Option<(String, Option<String>)>>,
    spawn_relay: bool,
    secret: Vec<u8>,
    conn: tokio::sync::Mutex<Option<Conn>>,
    next_id: std::sync::atomic::AtomicU64,
    /// The link's state and the failures in a row that set the next delay.
    state: Mutex<(LinkState, u32)>,
}

const FIRST_DELAY: Duration = Duration::from_millis(500);
/// A relay on loopback answers its challenge in milliseconds; whatever else holds a port in the
/// range is given up on after this.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(1);
const MAX_DELAY: Duration = Duration::from_secs(8);

impl Link {
    /// `spawn_relay`: start a relay when none answers (every front end does; tests of the
    /// link alone do not).
    pub fn new(info: PeerInfo, spawn_relay: bool) -> Result<Self, ToolError> {
        let secret = state::secret().map_err(|e| {
            ToolError::refused(
                Code::Internal,
                format!("cannot read or create the relay secret: {e}"),
            )
        })?;
        Ok(Link::with_secret(info, spawn_relay, secret))
    }

    /// A link that proves itself with `secret`.
    pub fn with_secret(mut info: PeerInfo, spawn_relay: bool, secret: Vec<u8>) -> Self {
        // An agent's own key for its books: unguessable, and the same on every reconnection of
        // this process, so a dropped socket does not cost the agent its tab.
        info.session_key.get_or_insert_with(auth::nonce);
        Link {
            info,
            agent: Mutex::new(None),
            spawn_relay,
            secret,
            conn: tokio::sync::Mutex::new(None),
            next_id: std::sync::atomic::AtomicU64::new(1),
            state: Mutex::new((LinkState::Connected, 0)),
        }
    }

    /// Who this link says it is to the relay.
    pub fn info(&self) -> &PeerInfo {
        &self.info
    }

    /// Names the agent for the relay: the MCP client's name, and who it is across restarts
    /// (`PeerInfo::instance`). Said at the next handshake.
    pub fn name_agent(&self, name: &str, instance: Option<String>) {
        *self.agent.lock().unwrap() = Some((name.to_string(), instance));
    }

    /// Who this link says it is at its handshake.
    fn hello_info(&self) -> PeerInfo {
        let mut info = self.info.clone();
        if let Some((name, instance)) = self.agent.lock().unwrap().clone() {
            info.name = name;
            info.instance = instance;
        }
        info
    }

    pub fn state(&self) -> LinkState {
        self.state.lock().unwrap().0.clone()
    }

    pub fn stop(&self) {
        self.state.lock().unwrap().0 = LinkState::Stopped;
    }

    /// The port of the relay we are connected to, if any.
    pub async fn port(&self) -> Option<u16> {
        self.conn
            .lock()
            .await
            .as_ref()
            .filter(|c| c.is_alive())
            .map(|c| c.port)
    }

    /// Sends one browser operation and waits for its answer. A call that never left is
    /// `refused`; one whose reply was lost is `unknown` when it could have changed the page.
    pub async fn call(&self, mut call: Call) -> Result<Reply, ToolError> {
        let (op, mutates) = (call.op.name(), call.op.mutates());
        let timeout = call.timeout().unwrap_or(Duration::from_secs(30));
        self.send(op, mutates, timeout, |id| {
            call.id = id;
            Frame::Call(call)
        })
        .await
    }

    /// Asks the relay itself (status, pairing, this agent's tab).
    pub async fn ask(&self, op: RelayOp) -> Result<Reply, ToolError> {
        self.send("the relay", false, Duration::from_secs(5), |id| {
            Frame::Ask { id, op }
        })
        .await
    }

    async fn send(
        &self,
        what: &str,
        mutates: bool,
        timeout: Duration,
        frame: impl FnOnce(u64) -> Frame,
    ) -> Result<Reply, ToolError> {
        let (tx, waiters) = self.connected().await?;
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let text = serde_json::to_string(&frame(id)).expect("frames serialize");
        // The relay cuts a controller off for a frame past its ceiling, and the cut would read as
        // a lost reply; an argument that big is refused here, with nothing sent.
        if text.len() > protocol::CONTROLLER_MAX_FRAME {
            return Err(ToolError::bad_args(format!(
                "the call's arguments come to {} KiB, over the {} KiB one call may carry; nothing was sent",
                text.len() >> 10,
                protocol::CONTROLLER_MAX_FRAME >> 10
            )));
        }
        let (reply, answer) = oneshot::channel();
        waiters.lock().unwrap().insert(id, (mutates, reply));
        if tx.send(Message::Text(text.into())).await.is_err() {
            waiters.lock().unwrap().remove(&id);
            return Err(ToolError::refused(
                Code::Internal,
                "the relay connection closed; try again",
            ));
        }
        // The relay has its own backstop past the call's timeout; this one is past the relay's.
        let started = Instant::now();
        let answer = match tokio::time::timeout(timeout + Duration::from_secs(5), answer).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) | Err(_) => {
                waiters.lock().unwrap().remove(&id);
                Err(lost(mutates, what))
            }
        };
        let failure = answer.as_ref().err().map(|e| e.code.as_str());
        tracing::debug!(
            op = what,
            ms = started.elapsed().as_millis() as u64,
            ?failure,
            "relay call"
        );
        answer
    }

    async fn connected(&self) -> Result<(mpsc::Sender<Message>, Waiters), ToolError> {
        if self.state() == LinkState::Stopped {
            return Err(ToolError::refused(
                Code::Internal,
                "tabpilot is shutting down",
            ));
        }
        let mut conn = self.conn.lock().await;
        if let Some(c) = conn.as_ref().filter(|c| c.is_alive()) {
            return Ok((c.tx.clone(), c.waiters.clone()));
        }
        match self.connect().await {
            Ok(c) => {
                *self.state.lock().unwrap() = (LinkState::Connected, 0);
                let out = (c.tx.clone(), c.waiters.clone());
                *conn = Some(c);
                Ok(out)
            }
            Err(reason) => {
                let mut s = self.state.lock().unwrap();
                let failures = s.1 + 1;
                let next = (FIRST_DELAY * 2u32.pow(failures.min(5) - 1)).min(MAX_DELAY);
                *s = (
                    LinkState::Retrying {
                        next,
                        reason: reason.clone(),
                    },
                    failures,
                );
                Err(ToolError::refused(
                    Code::NoBrowser,
                    format!("cannot reach the tabpilot relay: {reason}"),
                ))
            }
        }
    }

    async fn connect(&self) -> Result<Conn, String> {
        let ports = protocol::port_range()?;
        if let Some(c) = self.try_ports(ports.clone()).await {
            return Ok(c);
        }
        if !self.spawn_relay {
            return Err(format!("no relay answers on ports {ports:?}"));
        }
        let mut relay = spawn_relay().map_err(|e| format!("cannot start a relay: {e}"))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
            // A relay that failed (no free port, say) says so at once; one that left because
            // another relay holds the range exits 0, and that other relay is waited for.
            if let Ok(Some(status)) = relay.try_wait()
                && !status.success()
            {
                return Err(format!(
                    "the relay could not start ({status}); its log is relay.log in the state dir"
                ));
            }
            if let Some(c) = self.try_ports(ports.clone()).await {
                return Ok(c);
            }
        }
        Err(format!(
            "a relay was started but did not answer on ports {ports:?}"
        ))
    }

    /// Tries the port the relay recorded first, then the rest of the range in order. A port
    /// held by anything but our relay fails the handshake and is passed over.
    async fn try_ports(&self, ports: std::ops::RangeInclusive<u16>) -> Option<Conn> {
        let recorded = state::recorded_relay_port(&ports);
        for port in recorded
            .into_iter()
            .chain(ports.filter(|p| Some(*p) != recorded))
        {
            match tokio::time::timeout(HANDSHAKE_TIMEOUT, self.handshake(port)).await {
                Ok(Ok(conn)) => return Some(conn),
                Ok(Err(e)) => tracing::debug!(port, "no relay: {e}"),
                Err(_) => tracing::debug!(port, "no relay: timed out"),
            }
        }
        None
    }

    async fn handshake(&self, port: u16) -> Result<Conn, String> {
        let url = format!("ws://127.0.0.1:{port}/controller");
        let (ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .map_err(|e| e.to_string())?;
        let (mut sink, mut stream) = ws.split();
        let nonce = match next_frame(&mut stream).await? {
            Frame::Challenge { nonce, .. } => nonce,
            _ => return Err("expected a challenge".into()),
        };
        let cnonce = auth::nonce();
        let hello = Frame::Hello {
            role: Role::Controller,
            proof: auth::proof(&self.secret, Role::Controller.as_str(), port, &nonce),
            cnonce: cnonce.clone(),
            info: self.hello_info(),
            held: Vec::new(),
        };
        let text = serde_json::to_string(&hello).expect("frames serialize");
        sink.send(Message::Text(text.into()))
            .await
            .map_err(|e| e.to_string())?;
        match next_frame(&mut stream).await? {
            // The relay's proof names the port we dialled: one passed on from another port is
            // a relay's proof for that port, and fails here.
            Frame::Welcome {
                proof, port: said, ..
            } if said == port && auth::verify(&self.secret, "relay", port, &cnonce, &proof) => {}
            Frame::Welcome { .. } => {
                return Err("the relay could not prove it holds our secret".into());
            }
            _ => {
                return Err(format!(
                    "the relay refused our proof (is {} the relay's?)",
                    crate::settings::Setting::StateDir
                ));
            }
        }
        let (tx, mut rx) = mpsc::channel::<Message>(64);
        let waiters: Waiters = Arc::default();
        let alive = Arc::new(std::sync::atomic::AtomicBool::new(true));
        tokio::spawn(async move {
            while let Some(msg) = rx.recv().await {
                if sink.send(msg).await.is_err() {
                    break;
                }
            }
        });
        let (w, a) = (waiters.clone(), alive.clone());
        tokio::spawn(async move {
            while let Ok(frame) = next_frame(&mut stream).await {
                if let Frame::Result(answer) = frame
                    && let Some((_, reply)) = w.lock().unwrap().remove(&answer.id)
                {
                    let (target, url) = (answer.target.clone(), answer.url.clone());
                    let answer = answer
                        .into_result()
                        .map(|value| Reply { value, target, url });
                    let _ = reply.send(answer);
                }
            }
            a.store(false, std::sync::atomic::Ordering::SeqCst);
            for (_, (mutates, reply)) in w.lock().unwrap().drain() {
                let _ = reply.send(Err(lost(mutates, "the call")));
            }
        });
        Ok(Conn {
            tx,
            waiters,
            port,
            alive,
        })
    }
}

impl Conn {
    fn is_alive(&self) -> bool {
        self.alive.load(std::sync::atomic::Ordering::SeqCst) && !self.tx.is_closed()
    }
}

fn lost(mutates: bool, what: &str) -> ToolError {
    ToolError::lost(
        Code::Timeout,
        format!("the reply to {what} was lost"),
        mutates,
    )
}

async fn next_frame<S>(stream: &mut S) -> Result<Frame, String>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match stream.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(&text).map_err(|e| format!("malformed frame: {e}"));
            }
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

/// Past this, the relay's log is rotated when the next relay starts.
const MAX_LOG_BYTES: u64 = 1 << 20;

/// Starts `tabpilot relay` detached in its own session, so it outlives this process and its
/// terminal. Its log goes to `relay.log` in the state dir.
fn spawn_relay() -> std::io::Result<std::process::Child> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    let dir = state::state_dir();
    state::ensure_private_dir(&dir)?;
    let path = dir.join("relay.log");
    // One relay's log at a time, and the one before it: the file never grows past two lives.
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > MAX_LOG_BYTES) {
        std::fs::rename(&path, dir.join("relay.log.1"))?;
    }
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path)?;
    log.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    cmd.arg("relay")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log);
    // SAFETY: setsid is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    cmd.spawn()
}
