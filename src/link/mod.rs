//! A controller's connection to the relay: find it (or spawn one), prove we hold the secret,
//! check the relay does too and runs our version, and carry calls.
//!
//! Once the first call starts it, one task per link keeps the link up: it owns the socket, and
//! when the socket drops (the relay was killed or restarted) it connects again at once, then
//! with backoff, starting a relay when none answers. The controller is what brings a dead relay
//! back, so browsers can rejoin with no call made, and `browser_status` reads the link's state
//! without waiting for one.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::Message;

use crate::error::{Code, ToolError};
use crate::protocol::{self, Call, Frame, PeerInfo, RelayOp, Role, Target, auth};
use crate::state;

/// The link as `browser_status` reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// Not started: the first call connects.
    Idle,
    /// Up: calls go straight to the relay (which may have no browser: see the status call).
    Connected,
    /// An attempt to reach the relay (starting one if none answers) is in progress.
    Connecting,
    /// The last `failures` attempts failed, the last for `reason`; the next is due in `next`.
    Retrying {
        next: Duration,
        reason: Failure,
        failures: u32,
    },
    Stopped,
}

/// Why an attempt to reach the relay failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No relay of ours answered, and none could be started.
    Unreachable(String),
    /// Our relay answered, proved itself, and runs another version of tabpilot.
    Version(Mismatch),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(why) => f.write_str(why),
            Failure::Version(m) => write!(f, "{m}; {}", m.fix()),
        }
    }
}

/// A relay of this state dir and port range that runs another version than this controller.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub port: u16,
    /// As the relay recorded it beside its port (older relays record only the port).
    pub pid: Option<u32>,
    pub theirs: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pid = self.pid.map(|p| format!(" (pid {p})")).unwrap_or_default();
        write!(
            f,
            "the relay on port {}{pid} runs tabpilot {}, and this is tabpilot {}: the two do not \
             mix",
            self.port,
            self.theirs,
            protocol::VERSION
        )
    }
}

impl Mismatch {
    /// What to do: the older side gives way.
    pub fn fix(&self) -> String {
        if newer(&self.theirs, protocol::VERSION) {
            return format!(
                "this program is the older one: restart it (or the MCP client that started it) \
                 so it runs tabpilot {}",
                self.theirs
            );
        }
        let stop = match self.pid {
            Some(pid) => format!("`kill {pid}`"),
            None => format!("stop the `tabpilot relay` process on port {}", self.port),
        };
        format!(
            "stop the old relay ({stop}), and tabpilot {} starts its own at its next attempt \
             (left alone, the old one exits only once every browser and agent has left it for {})",
            protocol::VERSION,
            crate::settings::Setting::RelayIdleMs
        )
    }
}

/// Whether dotted version `a` is later than `b` (numbers compared as numbers).
fn newer(a: &str, b: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> {
        v.split(|c: char| !c.is_ascii_digit())
            .filter_map(|p| p.parse().ok())
            .collect()
    };
    parts(a) > parts(b)
}

/// The answer to a call: the browser's value, where the call ran, and the address of its tab.
#[derive(Clone, Debug)]
pub struct Reply {
    pub value: Value,
    pub target: Option<Target>,
    pub url: Option<String>,
}

/// A waiter for one answer: whether a lost reply may have changed the page, and its sender.
/// `None` says the frame never left: the socket dropped with it still queued.
type Waiter = (bool, oneshot::Sender<Option<Result<Reply, ToolError>>>);

type Waiters = Arc<Mutex<HashMap<u64, Waiter>>>;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An open connection as callers use it: the socket task's outbox, and the calls awaiting answers.
#[derive(Clone)]
struct Conn {
    tx: mpsc::Sender<(u64, Message)>,
    waiters: Waiters,
    port: u16,
}

/// Where the link is; `attempt` numbers the attempts to connect, so a call knows whether the
/// one it waited for has ended.
#[derive(Clone)]
enum Phase {
    Idle,
    Connecting {
        attempt: u64,
    },
    Up(Conn),
    Retrying {
        at: Instant,
        reason: Failure,
        attempt: u64,
        failures: u32,
    },
    Stopped,
}

/// What the link's task and its callers share.
struct Shared {
    info: PeerInfo,
    /// The agent's name and identity across restarts, once its client said who it is: they go
    /// with the next handshake.
    agent: Mutex<Option<(String, Option<String>)>>,
    spawn_relay: bool,
    secret: Vec<u8>,
    ports: Result<std::ops::RangeInclusive<u16>, String>,
    phase: watch::Sender<Phase>,
    /// Ends the wait between two attempts: a call wants one now.
    kick: Notify,
}

pub struct Link {
    shared: Arc<Shared>,
    next_id: AtomicU64,
    /// The task that keeps the link up, once started.
    task: Mutex<Option<tokio::task::AbortHandle>>,
}

const FIRST_DELAY: Duration = Duration::from_millis(500);
/// A relay on loopback answers its challenge in milliseconds; whatever else holds a port in the
/// range is given up on after this.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(1);
const MAX_DELAY: Duration = Duration::from_secs(8);
/// A connection that lived this long dropped, rather than was refused. A drop, however soon, is
/// followed by an attempt at once (the relay may just have been killed); a second drop soon after
/// opening, with no failed attempt between, counts as a failed attempt itself, so a relay that
/// accepts and closes at once is not dialled in a loop.
const STEADY: Duration = Duration::from_secs(1);

/// The wait before the next attempt after `failures` in a row.
fn backoff(failures: u32) -> Duration {
    (FIRST_DELAY * 2u32.pow(failures.clamp(1, 5) - 1)).min(MAX_DELAY)
}

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
            shared: Arc::new(Shared {
                info,
                agent: Mutex::new(None),
                spawn_relay,
                secret,
                ports: protocol::port_range(),
                phase: watch::Sender::new(Phase::Idle),
                kick: Notify::new(),
            }),
            next_id: AtomicU64::new(1),
            task: Mutex::new(None),
        }
    }

    /// A link to the relay on `ports`, whatever `TABPILOT_PORTS` says.
    #[cfg(test)]
    fn on_ports(mut self, ports: std::ops::RangeInclusive<u16>) -> Self {
        Arc::get_mut(&mut self.shared).expect("not started").ports = Ok(ports);
        self
    }

    /// Who this link says it is to the relay.
    pub fn info(&self) -> &PeerInfo {
        &self.shared.info
    }

    /// Names the agent for the relay: the MCP client's name, and who it is across restarts
    /// (`PeerInfo::instance`). Said at the next handshake.
    pub fn name_agent(&self, name: &str, instance: Option<String>) {
        *self.shared.agent.lock().unwrap() = Some((name.to_string(), instance));
    }

    pub fn state(&self) -> LinkState {
        match &*self.shared.phase.borrow() {
            Phase::Idle => LinkState::Idle,
            Phase::Connecting { .. } => LinkState::Connecting,
            Phase::Up(conn) if !conn.tx.is_closed() => LinkState::Connected,
            Phase::Up(_) => LinkState::Connecting,
            Phase::Retrying {
                at,
                reason,
                failures,
                ..
            } => LinkState::Retrying {
                next: at.saturating_duration_since(Instant::now()),
                reason: reason.clone(),
                failures: *failures,
            },
            Phase::Stopped => LinkState::Stopped,
        }
    }

    /// Whether the last attempt found our relay running another version.
    pub fn refuses_relay(&self) -> bool {
        matches!(
            &*self.shared.phase.borrow(),
            Phase::Retrying {
                reason: Failure::Version(_),
                ..
            }
        )
    }

    /// Ends the link: its task, its socket, and any call still waiting (as lost).
    pub fn stop(&self) {
        if let Some(task) = self.task.lock().unwrap().take() {
            task.abort();
        }
        let was = self.shared.phase.send_replace(Phase::Stopped);
        if let Phase::Up(conn) = was {
            conn.fail_waiting();
        }
    }

    /// The port of the relay we are connected to, if any.
    pub async fn port(&self) -> Option<u16> {
        match &*self.shared.phase.borrow() {
            Phase::Up(c) => Some(c.port),
            _ => None,
        }
    }

    /// Sends one browser operation and waits for its answer. A call that never left is
    /// `refused`; one whose reply was lost is `unknown` when it could have changed the page.
    pub async fn call(&self, call: Call) -> Result<Reply, ToolError> {
        let (op, mutates) = (call.op.name(), call.op.mutates());
        let timeout = call.timeout().unwrap_or(Duration::from_secs(30));
        self.send(op, mutates, timeout, Frame::Call(call)).await
    }

    /// Asks the relay itself (status, pairing, this agent's tab).
    pub async fn ask(&self, op: RelayOp) -> Result<Reply, ToolError> {
        let ask = Frame::Ask { id: 0, op };
        self.send("the relay", false, Duration::from_secs(5), ask)
            .await
    }

    async fn send(
        &self,
        what: &str,
        mutates: bool,
        timeout: Duration,
        mut frame: Frame,
    ) -> Result<Reply, ToolError> {
        // A frame still queued when the socket dropped never left: it goes again, once, on the
        // next connection.
        for _ in 0..2 {
            let conn = self.connected().await?;
            let id = self.next_id.fetch_add(1, Ordering::Relaxed);
            match &mut frame {
                Frame::Call(Call { id: at, .. }) | Frame::Ask { id: at, .. } => *at = id,
                _ => unreachable!("a link sends calls and asks"),
            }
            let text = serde_json::to_string(&frame).expect("frames serialize");
            // The relay cuts a controller off for a frame past its ceiling, and the cut would
            // read as a lost reply; an argument that big is refused here, with nothing sent.
            if text.len() > protocol::CONTROLLER_MAX_FRAME {
                return Err(ToolError::bad_args(format!(
                    "the call's arguments come to {} KiB, over the {} KiB one call may carry; nothing was sent",
                    text.len() >> 10,
                    protocol::CONTROLLER_MAX_FRAME >> 10
                )));
            }
            let (reply, answer) = oneshot::channel();
            conn.waiters.lock().unwrap().insert(id, (mutates, reply));
            if conn
                .tx
                .send((id, Message::Text(text.into())))
                .await
                .is_err()
            {
                conn.waiters.lock().unwrap().remove(&id);
                continue;
            }
            // The relay has its own backstop past the call's timeout; this one is past the
            // relay's.
            let started = Instant::now();
            let answer = match tokio::time::timeout(timeout + Duration::from_secs(5), answer).await
            {
                Ok(Ok(Some(answer))) => answer,
                Ok(Ok(None)) => continue,
                Ok(Err(_)) | Err(_) => {
                    conn.waiters.lock().unwrap().remove(&id);
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
            return answer;
        }
        Err(ToolError::refused(
            Code::NoBrowser,
            "the relay connection dropped twice before the call could leave; nothing was sent",
        ))
    }

    /// The open connection, once there is one: a call waits for the attempt in progress (or
    /// asks for one now, rather than at the end of the backoff), never starting its own.
    async fn connected(&self) -> Result<Conn, ToolError> {
        let mut phase = self.shared.phase.subscribe();
        // The attempt this call waits for: it fails when that one has.
        let mut awaited = None;
        loop {
            let now = phase.borrow_and_update().clone();
            match now {
                Phase::Up(conn) if !conn.tx.is_closed() => return Ok(conn),
                // It just dropped: the task is moving on.
                Phase::Up(_) => {}
                Phase::Stopped => {
                    return Err(ToolError::refused(
                        Code::Internal,
                        "tabpilot is shutting down",
                    ));
                }
                Phase::Idle => {
                    self.start();
                    awaited = Some(1);
                }
                Phase::Connecting { attempt } => {
                    awaited.get_or_insert(attempt);
                }
                Phase::Retrying {
                    reason, attempt, ..
                } => {
                    if awaited.is_some_and(|a| attempt >= a) {
                        return Err(ToolError::refused(
                            Code::NoBrowser,
                            format!("cannot reach the tabpilot relay: {reason}"),
                        ));
                    }
                    awaited = Some(attempt + 1);
                    self.shared.kick.notify_one();
                }
            }
            if phase.changed().await.is_err() {
                return Err(ToolError::refused(
                    Code::Internal,
                    "tabpilot is shutting down",
                ));
            }
        }
    }

    /// Starts the task that keeps the link up, once.
    fn start(&self) {
        let mut task = self.task.lock().unwrap();
        if task.is_none() && !matches!(*self.shared.phase.borrow(), Phase::Stopped) {
            let shared = self.shared.clone();
            *task = Some(tokio::spawn(shared.keep_up()).abort_handle());
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(task) = self.task.lock().unwrap().take() {
            task.abort();
        }
    }
}

impl Shared {
    /// Connects, serves the socket until it drops, and connects again, with backoff between
    /// failed attempts; runs until the link is stopped (which aborts it).
    async fn keep_up(self: Arc<Self>) {
        let mut failures = 0;
        let mut attempt = 0;
        // Drops in a row, each soon after its socket opened, with no failed attempt between.
        let mut quick_drops = 0;
        loop {
            attempt += 1;
            self.phase.send_replace(Phase::Connecting { attempt });
            let reason = match self.connect().await {
                Ok((socket, port)) => {
                    let since = Instant::now();
                    self.serve(socket, port).await;
                    tracing::debug!(port, "relay link: the socket dropped");
                    quick_drops = if since.elapsed() < STEADY {
                        quick_drops + 1
                    } else {
                        0
                    };
                    if quick_drops <= 1 {
                        failures = 0;
                        continue;
                    }
                    Failure::Unreachable(format!(
                        "the relay on port {port} closed the connection just after it opened"
                    ))
                }
                Err(reason) => {
                    quick_drops = 0;
                    reason
                }
            };
            failures += 1;
            let next = backoff(failures);
            tracing::debug!(attempt, ?next, "relay link: {reason}");
            self.phase.send_replace(Phase::Retrying {
                at: Instant::now() + next,
                reason,
                attempt,
                failures,
            });
            tokio::select! {
                _ = tokio::time::sleep(next) => {}
                _ = self.kick.notified() => {}
            }
        }
    }

    /// Carries calls over an open socket until it drops: frames out from the callers, answers
    /// back to them. Then the calls still queued are sent back unsent, and those in flight lost.
    async fn serve(&self, socket: Socket, port: u16) {
        let (mut sink, mut stream) = socket.split();
        let (tx, mut rx) = mpsc::channel::<(u64, Message)>(64);
        let conn = Conn {
            tx,
            waiters: Arc::default(),
            port,
        };
        self.phase.send_replace(Phase::Up(conn.clone()));
        loop {
            tokio::select! {
                out = rx.recv() => {
                    let Some((_, msg)) = out else { break };
                    if sink.send(msg).await.is_err() {
                        break;
                    }
                }
                frame = next_frame(&mut stream) => match frame {
                    Ok(Frame::Result(answer)) => conn.deliver(answer),
                    Ok(_) => {}
                    Err(_) => break,
                },
            }
        }
        // Closed, the outbox turns callers away (they wait for the next phase) and keeps what
        // was queued, to be handed back unsent.
        rx.close();
        while let Ok((id, _)) = rx.try_recv() {
            if let Some((_, reply)) = conn.waiters.lock().unwrap().remove(&id) {
                let _ = reply.send(None);
            }
        }
        conn.fail_waiting();
    }

    async fn connect(&self) -> Result<(Socket, u16), Failure> {
        let ports = self.ports.clone().map_err(Failure::Unreachable)?;
        if let Some(found) = self.try_ports(ports.clone()).await {
            return found;
        }
        if !self.spawn_relay {
            return Err(Failure::Unreachable(format!(
                "no relay answers on ports {ports:?}"
            )));
        }
        let mut relay = spawn_relay()
            .map_err(|e| Failure::Unreachable(format!("cannot start a relay: {e}")))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
            // A relay that failed (no free port, say) says so at once; one that left because
            // another relay holds the range exits 0, and that other relay is waited for.
            if let Ok(Some(status)) = relay.try_wait()
                && !status.success()
            {
                return Err(Failure::Unreachable(format!(
                    "the relay could not start ({status}); its log is relay.log in the state dir"
                )));
            }
            if let Some(found) = self.try_ports(ports.clone()).await {
                return found;
            }
        }
        Err(Failure::Unreachable(format!(
            "a relay was started but did not answer on ports {ports:?}"
        )))
    }

    /// Tries the port the relay recorded first, then the rest of the range in order. A port
    /// held by anything but our relay fails the handshake and is passed over; our relay of
    /// another version ends the search (no relay of ours can start beside it).
    async fn try_ports(
        &self,
        ports: std::ops::RangeInclusive<u16>,
    ) -> Option<Result<(Socket, u16), Failure>> {
        let recorded = state::recorded_relay_port(&ports);
        for port in recorded
            .into_iter()
            .chain(ports.clone().filter(|p| Some(*p) != recorded))
        {
            match tokio::time::timeout(HANDSHAKE_TIMEOUT, self.handshake(port)).await {
                Ok(Ok(socket)) => return Some(Ok((socket, port))),
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
        if let Some((name, instance)) = self.agent.lock().unwrap().clone() {
            info.name = name;
            info.instance = instance;
        }
        info
    }

    async fn handshake(&self, port: u16) -> Result<Socket, Refused> {
        let url = format!("ws://127.0.0.1:{port}/controller");
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
            info: self.hello_info(),
            held: Vec::new(),
        };
        let text = serde_json::to_string(&hello).expect("frames serialize");
        ws.send(Message::Text(text.into()))
            .await
            .map_err(|e| Refused::Other(e.to_string()))?;
        match next_frame(&mut ws).await? {
            // The relay's proof names the port we dialled: one passed on from another port is
            // a relay's proof for that port, and fails here. Its version is believed only once
            // it has proved itself: anything squatting on the range could claim one.
            Frame::Welcome {
                proof,
                port: said,
                version,
                ..
            } if said == port && auth::verify(&self.secret, "relay", port, &cnonce, &proof) => {
                if version != protocol::VERSION {
                    let _ = ws.close(None).await;
                    return Err(Refused::Version(version));
                }
                Ok(ws)
            }
            Frame::Welcome { .. } => Err(Refused::Other(
                "the relay could not prove it holds our secret".into(),
            )),
            _ => Err(Refused::Other(format!(
                "the relay refused our proof (is {} the relay's?)",
                crate::settings::Setting::StateDir
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

impl Conn {
    /// Hands an answer to the call awaiting it.
    fn deliver(&self, answer: protocol::Answer) {
        let Some((_, reply)) = self.waiters.lock().unwrap().remove(&answer.id) else {
            return;
        };
        let (target, url) = (answer.target.clone(), answer.url.clone());
        let answer = answer
            .into_result()
            .map(|value| Reply { value, target, url });
        let _ = reply.send(Some(answer));
    }

    /// The socket is gone: every call still awaiting an answer has lost it.
    fn fail_waiting(&self) {
        for (_, (mutates, reply)) in self.waiters.lock().unwrap().drain() {
            let gone = ToolError::lost(
                Code::NoBrowser,
                "the connection to the relay dropped before the call was answered (the relay \
                 stopped or restarted; the link reconnects by itself)",
                mutates,
            );
            let _ = reply.send(Some(Err(gone)));
        }
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
/// terminal. Its log goes to `relay.log` in the state dir. Tokio reaps it once dropped, so a relay
/// that dies while this process lives (and restarts relays) is not left a zombie.
fn spawn_relay() -> std::io::Result<tokio::process::Child> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
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
    let mut cmd = tokio::process::Command::new(std::env::current_exe()?);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use tokio::net::TcpListener;
    use tokio_tungstenite::WebSocketStream;

    const SECRET: &[u8] = b"link-test-secret";
    const DEADLINE: Duration = Duration::from_secs(15);

    /// A relay that runs the handshake as the real one does, says it is `version`, answers
    /// every ask with `{}`, and counts the sockets it accepted.
    struct FakeRelay {
        port: u16,
        accepted: Arc<AtomicUsize>,
        /// Ends the socket being served (as a killed relay's does).
        drop_socket: Arc<Notify>,
        task: tokio::task::JoinHandle<()>,
    }

    impl FakeRelay {
        async fn on(port: u16, version: &'static str) -> FakeRelay {
            FakeRelay::slow(port, version, Duration::ZERO).await
        }

        /// One that waits `delay` before it challenges a new socket.
        async fn slow(port: u16, version: &'static str, delay: Duration) -> FakeRelay {
            let listener = TcpListener::bind(("127.0.0.1", port)).await.unwrap();
            let port = listener.local_addr().unwrap().port();
            let accepted = Arc::new(AtomicUsize::new(0));
            let drop_socket = Arc::new(Notify::new());
            let (n, d) = (accepted.clone(), drop_socket.clone());
            let task = tokio::spawn(async move {
                loop {
                    let (tcp, _) = listener.accept().await.unwrap();
                    n.fetch_add(1, Ordering::SeqCst);
                    let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
                    tokio::time::sleep(delay).await;
                    if welcome(&mut ws, port, version).await {
                        tokio::select! {
                            _ = answer_asks(&mut ws) => {}
                            _ = d.notified() => {}
                        }
                    }
                }
            });
            FakeRelay {
                port,
                accepted,
                drop_socket,
                task,
            }
        }

        fn accepted(&self) -> usize {
            self.accepted.load(Ordering::SeqCst)
        }
    }

    impl Drop for FakeRelay {
        fn drop(&mut self) {
            self.task.abort();
        }
    }

    async fn send<S: futures::Sink<Message> + Unpin>(ws: &mut S, frame: &Frame) {
        let text = serde_json::to_string(frame).unwrap();
        let _ = ws.send(Message::Text(text.into())).await;
    }

    async fn welcome(
        ws: &mut WebSocketStream<tokio::net::TcpStream>,
        port: u16,
        version: &str,
    ) -> bool {
        let nonce = auth::nonce();
        let challenge = Frame::Challenge {
            nonce: nonce.clone(),
            version: version.into(),
        };
        send(ws, &challenge).await;
        let Ok(Frame::Hello { proof, cnonce, .. }) = next_frame(ws).await else {
            return false;
        };
        assert!(auth::verify(SECRET, "controller", port, &nonce, &proof));
        let welcome = Frame::Welcome {
            proof: auth::proof(SECRET, "relay", port, &cnonce),
            peer_id: 1,
            version: version.into(),
            port,
        };
        send(ws, &welcome).await;
        true
    }

    async fn answer_asks(ws: &mut WebSocketStream<tokio::net::TcpStream>) {
        while let Ok(frame) = next_frame(ws).await {
            if let Frame::Ask { id, .. } = frame {
                let answer = protocol::Answer {
                    id,
                    value: Some(serde_json::json!({})),
                    ..Default::default()
                };
                send(ws, &Frame::Result(answer)).await;
            }
        }
    }

    /// A port nothing listens on (for now).
    async fn free_port() -> u16 {
        let l = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        l.local_addr().unwrap().port()
    }

    fn link(port: u16) -> Link {
        Link::with_secret(PeerInfo::default(), false, SECRET.to_vec()).on_ports(port..=port)
    }

    async fn until(link: &Link, what: &str, ok: impl Fn(&LinkState) -> bool) {
        let deadline = Instant::now() + DEADLINE;
        while !ok(&link.state()) {
            assert!(
                Instant::now() < deadline,
                "the link never got {what}: {:?}",
                link.state()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn a_link_reconnects_by_itself_when_a_relay_appears_and_after_it_drops() {
        let port = free_port().await;
        let link = link(port);
        assert_eq!(link.state(), LinkState::Idle);
        let e = link.ask(RelayOp::Status).await.unwrap_err();
        assert_eq!(e.code, Code::NoBrowser, "{e:?}");
        assert!(e.message.contains("no relay answers"), "{}", e.message);
        let LinkState::Retrying { next, reason, .. } = link.state() else {
            panic!("not retrying: {:?}", link.state());
        };
        assert!(next <= FIRST_DELAY, "{next:?}");
        assert!(matches!(reason, Failure::Unreachable(_)), "{reason:?}");

        // A relay appears: the link finds it with no call made.
        let relay = FakeRelay::on(port, protocol::VERSION).await;
        until(&link, "connected", |s| *s == LinkState::Connected).await;
        assert_eq!(link.port().await, Some(port));
        assert!(link.ask(RelayOp::Status).await.is_ok());

        // Its socket drops, and the link is back on its own, on a new socket.
        relay.drop_socket.notify_one();
        until(&link, "a second socket", |_| relay.accepted() >= 2).await;
        until(&link, "connected again", |s| *s == LinkState::Connected).await;
        assert!(link.ask(RelayOp::Status).await.is_ok());

        link.stop();
        assert_eq!(link.state(), LinkState::Stopped);
        let e = link.ask(RelayOp::Status).await.unwrap_err();
        assert!(e.message.contains("shutting down"), "{}", e.message);
    }

    #[tokio::test]
    async fn calls_during_an_attempt_wait_for_it_and_make_no_other() {
        // A relay slow to challenge: the first call's attempt is in progress while the others
        // come.
        let relay = FakeRelay::slow(0, protocol::VERSION, Duration::from_millis(300)).await;
        let link = Arc::new(link(relay.port));
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let link = link.clone();
                tokio::spawn(async move { link.ask(RelayOp::Status).await })
            })
            .collect();
        for call in calls {
            call.await
                .unwrap()
                .expect("each call rides the one attempt");
        }
        assert_eq!(relay.accepted(), 1, "one attempt reached the relay");
        link.stop();
    }

    #[tokio::test]
    async fn reconnecting_leaves_no_task_behind_and_stop_ends_the_link() {
        let relay = FakeRelay::on(0, protocol::VERSION).await;
        let link = link(relay.port);
        link.ask(RelayOp::Status).await.unwrap();
        let metrics = tokio::runtime::Handle::current().metrics();
        let tasks = metrics.num_alive_tasks();
        for n in 2..=5 {
            relay.drop_socket.notify_one();
            until(&link, "a new socket", |_| relay.accepted() >= n).await;
            until(&link, "connected", |s| *s == LinkState::Connected).await;
        }
        assert_eq!(metrics.num_alive_tasks(), tasks, "a task per reconnection");
        link.stop();
        tokio::task::yield_now().await;
        until(&link, "its task ended", |_| {
            metrics.num_alive_tasks() < tasks
        })
        .await;
    }

    #[tokio::test]
    async fn a_relay_of_another_version_is_refused_with_what_to_do() {
        let relay = FakeRelay::on(0, "0.0.1").await;
        let link = link(relay.port);
        let e = link.ask(RelayOp::Status).await.unwrap_err();
        assert_eq!(e.code, Code::NoBrowser);
        let port = relay.port;
        for said in [
            format!("the relay on port {port}"),
            "runs tabpilot 0.0.1".into(),
            format!("this is tabpilot {}", protocol::VERSION),
            "stop the old relay".into(),
        ] {
            assert!(e.message.contains(&said), "{said:?} not in {}", e.message);
        }
        let LinkState::Retrying {
            reason: Failure::Version(m),
            ..
        } = link.state()
        else {
            panic!("not a version refusal: {:?}", link.state());
        };
        assert_eq!((m.port, m.theirs.as_str()), (port, "0.0.1"));
        link.stop();
    }

    #[test]
    fn the_older_side_is_told_to_give_way() {
        let relay = |theirs: &str| Mismatch {
            port: 47311,
            pid: Some(42),
            theirs: theirs.into(),
        };
        assert!(relay("0.0.1").fix().contains("`kill 42`"));
        assert!(relay("999.0.0").fix().contains("restart it"));
        assert!(newer("0.10.0", "0.9.3"));
        assert!(!newer("0.9.3", "0.10.0"));
        assert!(!newer("1.2.3", "1.2.3"));
    }
}
