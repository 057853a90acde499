//! A controller's connection to the relay: find it (or spawn one), prove we hold the secret,
//! check the relay does too and runs our version, and carry calls.
//!
//! Once the first call starts it, one task per link keeps the link up: it owns the socket, and
//! when the socket drops (the relay was killed or restarted) it connects again at once, then
//! with backoff, starting a relay when none answers. The controller is what brings a dead relay
//! back, so browsers can rejoin with no call made, and `browser_status` reads the link's state
//! without waiting for one.

mod ask;
mod handshake;
pub mod identity;
mod socket;
mod spawn;
mod status;

pub use status::{Failure, LinkState, Mismatch};

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;

use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{self, Call, Frame, PeerInfo, Target, auth};
use crate::shared::state;

/// The answer to a call: the browser's value, where the call ran, the address of its tab, and
/// the elements a recorded action described.
#[derive(Clone, Debug)]
pub struct Reply {
    pub value: Value,
    pub target: Option<Target>,
    pub url: Option<String>,
    pub described: Vec<protocol::wire::locate::Target>,
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
    /// Frames' JSON text, sealed as they go out.
    tx: mpsc::Sender<(u64, String)>,
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
    /// The agent's name, once its client said who it is: it goes with the next handshake.
    agent: Mutex<Option<String>>,
    spawn_relay: bool,
    secret: Vec<u8>,
    ports: Result<std::ops::RangeInclusive<u16>, String>,
    phase: watch::Sender<Phase>,
    /// Ends the wait between two attempts: a call wants one now.
    kick: Notify,
}

/// How long a cancelled call's answer is awaited: the browser answers it at once, saying what
/// it had done by then.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// What ends the calls made within `cancellable`, and whether one that changes the page had
/// been sent by then.
type Stop = (CancellationToken, Arc<std::sync::atomic::AtomicBool>);

tokio::task_local! {
    static STOP: Stop;
}

/// The refusal of a call about to be sent (`what`) when its `stop` was cancelled.
fn stopped(stop: Option<&Stop>, what: &str) -> Option<ToolError> {
    stop.filter(|(token, _)| token.is_cancelled())
        .map(|(_, acted)| not_sent(what, acted.load(Ordering::Relaxed)))
}

/// Runs `work` so that the browser calls it makes end when `stop` is cancelled: one not sent by
/// then never is (a `CANCELLED` refusal), and one under way is cancelled in the browser too,
/// whose answer then says what it had done (`CANCELLED`, with the outcome it had come to).
pub async fn cancellable<F: std::future::Future>(stop: CancellationToken, work: F) -> F::Output {
    STOP.scope((stop, Arc::default()), work).await
}

/// The call in hand was cancelled before it was sent: nothing of it was done, though an earlier
/// call of the same tool may have changed the page.
fn not_sent(what: &str, acted: bool) -> ToolError {
    if acted {
        return ToolError {
            outcome: crate::shared::error::Outcome::Partial,
            ..ToolError::refused(
                Code::Cancelled,
                format!("an earlier step had reached the page; {what} was not sent"),
            )
        };
    }
    ToolError::refused(
        Code::Cancelled,
        format!("{what} was never sent; nothing was done"),
    )
}

pub struct Link {
    shared: Arc<Shared>,
    next_id: AtomicU64,
    /// The task that keeps the link up, once started.
    task: Mutex<Option<tokio::task::AbortHandle>>,
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

    /// Who this link says it is to the relay.
    pub fn info(&self) -> &PeerInfo {
        &self.shared.info
    }

    /// Names the agent for the relay (the MCP client's name), for others to read: who the agent
    /// is, its books, is its key alone. Said at the next handshake.
    pub fn name_agent(&self, name: &str) {
        *self
            .shared
            .agent
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(name.to_string());
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
        if let Some(task) = self
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
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

    async fn send(
        &self,
        what: &str,
        mutates: bool,
        timeout: Duration,
        mut frame: Frame,
    ) -> Result<Reply, ToolError> {
        // Only a call is cancelled: the relay's own asks answer at once.
        let stop = matches!(frame, Frame::Call(_))
            .then(|| STOP.try_with(Clone::clone).ok())
            .flatten();
        // A frame still queued when the socket dropped never left: it goes again, once, on the
        // next connection.
        for _ in 0..2 {
            if let Some(refused) = stopped(stop.as_ref(), what) {
                return Err(refused);
            }
            let conn = self.connected().await?;
            let id = self.next_id.fetch_add(1, Ordering::Relaxed);
            let text = numbered(&mut frame, id)?;
            let (reply, answer) = oneshot::channel();
            conn.waiters
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(id, (mutates, reply));
            if conn.tx.send((id, text)).await.is_err() {
                conn.forget(id);
                continue;
            }
            if let Some((_, acted)) = stop.as_ref().filter(|_| mutates) {
                acted.store(true, Ordering::Relaxed);
            }
            // The relay has its own backstop past the call's timeout; this one is past the
            // relay's.
            let started = Instant::now();
            let waited = tokio::time::timeout(
                timeout + Duration::from_secs(5),
                answer_or_cancel(&conn, id, answer, stop.as_ref().map(|(t, _)| t)),
            );
            let answer = match waited.await {
                Ok(Waited::Answer(Some(answer))) => answer,
                Ok(Waited::Answer(None)) => match stopped(stop.as_ref(), what) {
                    Some(refused) => return Err(refused),
                    None => continue,
                },
                Ok(Waited::Unsaid) => {
                    conn.forget(id);
                    let why = format!("the browser did not say how far {what} had got");
                    Err(ToolError::lost(Code::Cancelled, why, mutates))
                }
                Ok(Waited::Lost) | Err(_) => {
                    conn.forget(id);
                    let why = format!("no reply to {what} came in its time limit");
                    Err(ToolError::lost(Code::Timeout, why, mutates))
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
        let mut task = self.task.lock().unwrap_or_else(PoisonError::into_inner);
        if task.is_none() && !matches!(*self.shared.phase.borrow(), Phase::Stopped) {
            let shared = self.shared.clone();
            *task = Some(tokio::spawn(shared.keep_up()).abort_handle());
        }
    }
}

/// The frame's text as call (or ask) number `id`. The relay cuts a controller off for a frame
/// past its ceiling, and the cut would read as a lost reply; an argument that big is refused
/// here, with nothing sent.
fn numbered(frame: &mut Frame, id: u64) -> Result<String, ToolError> {
    match frame {
        Frame::Call(Call { id: at, .. }) | Frame::Ask { id: at, .. } => *at = id,
        _ => unreachable!("a link sends calls and asks"),
    }
    let text = serde_json::to_string(&frame).expect("frames serialize");
    if text.len() > protocol::CONTROLLER_MAX_FRAME {
        return Err(ToolError::bad_args(format!(
            "the call's arguments come to {} KiB, over the {} KiB one call may carry; nothing was sent",
            text.len() >> 10,
            protocol::CONTROLLER_MAX_FRAME >> 10
        )));
    }
    Ok(text)
}

/// How the wait for one answer ended.
enum Waited {
    /// The answer (`None`: the frame never left).
    Answer(Option<Result<Reply, ToolError>>),
    /// The waiter went with its connection.
    Lost,
    /// The call was cancelled, and no answer came within CANCEL_GRACE.
    Unsaid,
}

/// Waits for the answer to call `id`; once `stop` is cancelled, tells the relay (which tells the
/// browser) and waits a little longer for the answer, which then says what the call had done.
async fn answer_or_cancel(
    conn: &Conn,
    id: u64,
    mut answer: oneshot::Receiver<Option<Result<Reply, ToolError>>>,
    stop: Option<&CancellationToken>,
) -> Waited {
    let read = |got: Result<_, oneshot::error::RecvError>| got.map_or(Waited::Lost, Waited::Answer);
    let Some(stop) = stop else {
        return read(answer.await);
    };
    tokio::select! {
        got = &mut answer => return read(got),
        () = stop.cancelled() => {}
    }
    let cancel = serde_json::to_string(&Frame::Cancel { id }).expect("frames serialize");
    // A full outbox means the socket is stuck: the grace below ends the wait all the same.
    let _ = conn.tx.try_send((0, cancel));
    match tokio::time::timeout(CANCEL_GRACE, answer).await {
        Ok(got) => read(got),
        Err(_) => Waited::Unsaid,
    }
}

impl Conn {
    /// No answer to call `id` is awaited any more.
    fn forget(&self, id: u64) {
        self.waiters
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(task) = self
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::handshake::{next_frame, next_sealed};
    use super::socket::FIRST_DELAY;
    use super::*;
    use crate::shared::protocol::seal::{End, Keys, Sealer};
    use crate::shared::protocol::{RelayOp, Role};
    use futures::SinkExt;
    use tokio_tungstenite::tungstenite::Message;

    impl Link {
        /// A link to the relay on `ports`, whatever `TABPILOT_PORTS` says.
        fn on_ports(mut self, ports: std::ops::RangeInclusive<u16>) -> Self {
            Arc::get_mut(&mut self.shared).expect("not started").ports = Ok(ports);
            self
        }
    }
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
                    if let Some(mut keys) = welcome(&mut ws, port, version).await {
                        tokio::select! {
                            _ = answer_asks(&mut ws, &mut keys) => {}
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

    /// Sends `frame` in clear, or sealed with `sealer`.
    async fn send<S: futures::Sink<Message> + Unpin>(
        ws: &mut S,
        frame: &Frame,
        sealer: Option<&mut Sealer>,
    ) {
        let text = serde_json::to_string(frame).unwrap();
        let msg = match sealer {
            Some(sealer) => Message::Binary(sealer.seal(text.as_bytes()).into()),
            None => Message::Text(text.into()),
        };
        let _ = ws.send(msg).await;
    }

    /// The relay's side of the handshake; the socket's keys once the controller proved itself.
    async fn welcome(
        ws: &mut WebSocketStream<tokio::net::TcpStream>,
        port: u16,
        version: &str,
    ) -> Option<Keys> {
        let nonce = auth::nonce();
        let challenge = Frame::Challenge {
            nonce: nonce.clone(),
            version: version.into(),
            key: None,
        };
        send(ws, &challenge, None).await;
        let Ok(Frame::Hello { proof, cnonce, .. }) = next_frame(ws).await else {
            return None;
        };
        assert!(auth::verify(SECRET, "controller", port, &nonce, &proof));
        let mut keys = Keys::derive(SECRET, Role::Controller, port, &nonce, &cnonce, End::Relay);
        let welcome = Frame::Welcome {
            proof: auth::proof(SECRET, "relay", port, &cnonce),
            peer_id: 1,
            version: version.into(),
            port,
        };
        send(ws, &welcome, Some(&mut keys.seal)).await;
        Some(keys)
    }

    async fn answer_asks(ws: &mut WebSocketStream<tokio::net::TcpStream>, keys: &mut Keys) {
        while let Ok(frame) = next_sealed(ws, &mut keys.open).await {
            if let Frame::Ask { id, .. } = frame {
                let answer = protocol::Answer {
                    id,
                    value: Some(serde_json::json!({})),
                    ..Default::default()
                };
                send(ws, &Frame::Result(answer), Some(&mut keys.seal)).await;
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
        let e = link.ask_op(RelayOp::Status).await.unwrap_err();
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
        assert!(link.ask_op(RelayOp::Status).await.is_ok());

        // Its socket drops, and the link is back on its own, on a new socket.
        relay.drop_socket.notify_one();
        until(&link, "a second socket", |_| relay.accepted() >= 2).await;
        until(&link, "connected again", |s| *s == LinkState::Connected).await;
        assert!(link.ask_op(RelayOp::Status).await.is_ok());

        link.stop();
        assert_eq!(link.state(), LinkState::Stopped);
        let e = link.ask_op(RelayOp::Status).await.unwrap_err();
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
                tokio::spawn(async move { link.ask_op(RelayOp::Status).await })
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
        link.ask_op(RelayOp::Status).await.unwrap();
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
        let e = link.ask_op(RelayOp::Status).await.unwrap_err();
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
}
