//! Keeping the socket to the relay up: connect (starting a relay when none answers), carry
//! frames both ways until it drops, back off between failed attempts, and hand every waiting
//! call its answer or its loss.

use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::handshake::next_sealed;
use super::spawn::spawn_relay;
use super::{Conn, Failure, Phase, Reply, Shared, Socket};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::seal::Keys;
use crate::shared::protocol::{self, Frame};

pub(super) const FIRST_DELAY: Duration = Duration::from_millis(500);
pub(super) const MAX_DELAY: Duration = Duration::from_secs(8);
/// A connection that lived this long dropped, rather than was refused. A drop, however soon, is
/// followed by an attempt at once (the relay may just have been killed); a second drop soon after
/// opening, with no failed attempt between, counts as a failed attempt itself, so a relay that
/// accepts and closes at once is not dialled in a loop.
pub(super) const STEADY: Duration = Duration::from_secs(1);

/// The wait before the next attempt after `failures` in a row.
pub(super) fn backoff(failures: u32) -> Duration {
    (FIRST_DELAY * 2u32.pow(failures.clamp(1, 5) - 1)).min(MAX_DELAY)
}

impl Shared {
    /// Connects, serves the socket until it drops, and connects again, with backoff between
    /// failed attempts; runs until the link is stopped (which aborts it).
    pub(super) async fn keep_up(self: Arc<Self>) {
        let mut failures = 0;
        let mut attempt = 0;
        // Drops in a row, each soon after its socket opened, with no failed attempt between.
        let mut quick_drops = 0;
        loop {
            attempt += 1;
            self.phase.send_replace(Phase::Connecting { attempt });
            let reason = match self.connect().await {
                Ok((socket, keys, port)) => {
                    let since = Instant::now();
                    self.serve(socket, keys, port).await;
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
    async fn serve(&self, socket: Socket, mut keys: Keys, port: u16) {
        let (mut sink, mut stream) = socket.split();
        let (tx, mut rx) = mpsc::channel::<(u64, String)>(64);
        let conn = Conn {
            tx,
            waiters: Arc::default(),
            port,
        };
        self.phase.send_replace(Phase::Up(conn.clone()));
        loop {
            tokio::select! {
                out = rx.recv() => {
                    let Some((_, text)) = out else { break };
                    let sealed = keys.seal.seal(text.as_bytes());
                    if sink.send(Message::Binary(sealed.into())).await.is_err() {
                        break;
                    }
                }
                frame = next_sealed(&mut stream, &mut keys.open) => match frame {
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
            if let Some((_, reply)) = conn
                .waiters
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&id)
            {
                let _ = reply.send(None);
            }
        }
        conn.fail_waiting();
    }

    async fn connect(&self) -> Result<(Socket, Keys, u16), Failure> {
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
}

impl Conn {
    /// Hands an answer to the call awaiting it.
    fn deliver(&self, mut answer: protocol::Answer) {
        let Some((_, reply)) = self
            .waiters
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&answer.id)
        else {
            return;
        };
        let (target, url) = (answer.target.clone(), answer.url.clone());
        let described = std::mem::take(&mut answer.described);
        let answer = answer.into_result().map(|value| Reply {
            value,
            target,
            url,
            described,
        });
        let _ = reply.send(Some(answer));
    }

    /// The socket is gone: every call still awaiting an answer has lost it.
    pub(super) fn fail_waiting(&self) {
        for (_, (mutates, reply)) in self
            .waiters
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
        {
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
