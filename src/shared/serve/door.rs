//! The door of every server tabpilot runs (the relay, `mcp --http`, `dashboard`): what a
//! connection gets before it has proved anything. A bounded number of places, a few seconds for
//! a TLS handshake (`mcp --http --tls`) and to send each request's head (an idle keep-alive
//! connection waits for its next head under the same clock, so it is closed as soon), and (for
//! the relay, once upgraded) a few seconds and one small frame to prove it holds the secret.
//! Nothing a process without the secret does can hold a server's memory or descriptors for long.
//!
//! When every place is taken, the connection that has waited longest without proving anything
//! is closed to make room: a newcomer is always let in. Refusing newcomers instead would let
//! anyone who holds the places (another local user, a few dozen silent sockets, opened again as
//! they time out) keep the person's own client out for good; evicting the oldest makes them
//! open connections faster than the person's client sends its request, on loopback a matter of
//! microseconds.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// Places for connections that have not proved themselves, at most; and at least this few.
const MOST_PLACES: usize = 256;
const LEAST_PLACES: usize = 16;
/// Time for a connection to send a request's line and headers, the first or the next.
pub const REQUEST_WITHIN: Duration = Duration::from_secs(5);

/// The places: a quarter of the descriptors this process may open, within
/// [`LEAST_PLACES`]..=[`MOST_PLACES`], so the unproven never take a server's last descriptor.
fn places() -> usize {
    let files = crate::shared::platform::me::open_files_limit().unwrap_or(1024);
    (files / 4).clamp(LEAST_PLACES, MOST_PLACES)
}

/// The connections waiting to prove themselves, in the order they came.
struct Hall {
    most: usize,
    waiting: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    next: u64,
    order: BTreeMap<u64, CancellationToken>,
    turned_away: u64,
}

impl Hall {
    /// A place for a new connection, closing the one that waited longest when all are taken.
    fn enter(self: &Arc<Self>) -> Unproven {
        let gone = CancellationToken::new();
        let mut w = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        let id = w.next;
        w.next += 1;
        w.order.insert(id, gone.clone());
        if w.order.len() > self.most {
            if let Some((_, oldest)) = w.order.pop_first() {
                oldest.cancel();
            }
            w.turned_away += 1;
            // One line per hundred, so a flood does not grow the log with it.
            if w.turned_away % 100 == 1 {
                tracing::warn!(
                    turned_away = w.turned_away,
                    "too many connections that have not proved themselves; closing the oldest"
                );
            }
        }
        Unproven(Arc::new(Place {
            hall: self.clone(),
            id,
            gone,
        }))
    }

    fn leave(&self, id: u64) {
        let mut w = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        w.order.remove(&id);
    }
}

struct Place {
    hall: Arc<Hall>,
    id: u64,
    gone: CancellationToken,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.hall.leave(self.id);
    }
}

/// A connection's place among the unproven ones, in each of its requests' extensions. It is
/// given up when the peer proves itself, or when the connection (and whatever took it over,
/// an upgraded socket) ends.
#[derive(Clone)]
pub struct Unproven(Arc<Place>);

impl Unproven {
    /// The peer proved itself: its place goes to the next connection, and it is never closed
    /// to make room.
    pub fn proven(&self) {
        self.0.hall.leave(self.0.id);
    }

    /// Resolves when the connection is closed to make room for a newer one (never, once it
    /// proved itself).
    pub async fn turned_away(&self) {
        self.0.gone.cancelled().await
    }
}

/// Marks the connection a request came on as proven, if it came through a door.
pub fn proven(req: &axum::extract::Request) {
    if let Some(unproven) = req.extensions().get::<Unproven>() {
        unproven.proven();
    }
}

/// Serves `app` on `listener` until the listener fails, each connection behind the door. A
/// request carries its peer's address (`ConnectInfo<SocketAddr>`) and its place ([`Unproven`]).
pub async fn serve(listener: TcpListener, app: Router) -> std::io::Result<()> {
    serve_with(listener, app, None).await
}

/// [`serve`] over TLS: each connection's handshake is done behind the door too, within
/// [`REQUEST_WITHIN`], before its first request's head.
pub async fn serve_tls(
    listener: TcpListener,
    app: Router,
    tls: tokio_rustls::TlsAcceptor,
) -> std::io::Result<()> {
    serve_with(listener, app, Some(tls)).await
}

async fn serve_with(
    listener: TcpListener,
    app: Router,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> std::io::Result<()> {
    let hall = Arc::new(Hall {
        most: places(),
        waiting: Mutex::default(),
    });
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors, say: wait a moment rather than spin.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let unproven = hall.enter();
        tokio::spawn(connection(stream, addr, app.clone(), unproven, tls.clone()));
    }
}

async fn connection(
    stream: TcpStream,
    addr: SocketAddr,
    app: Router,
    unproven: Unproven,
    tls: Option<tokio_rustls::TlsAcceptor>,
) {
    let place = unproven.clone();
    let Some(tls) = tls else {
        return http(stream, addr, app, unproven).await;
    };
    let handshake = tokio::time::timeout(REQUEST_WITHIN, tls.accept(stream));
    tokio::select! {
        done = handshake => match done {
            Ok(Ok(stream)) => http(stream, addr, app, unproven).await,
            Ok(Err(e)) => tracing::debug!("a TLS handshake failed: {e}"),
            Err(_) => tracing::debug!("a TLS handshake took too long"),
        },
        _ = place.turned_away() => {}
    }
}

/// HTTP/1.1 on a connection (plain, or TLS once shaken hands) until it ends or is turned away.
async fn http<S>(stream: S, addr: SocketAddr, app: Router, unproven: Unproven)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let place = unproven.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(addr));
        req.extensions_mut().insert(unproven.clone());
        app.clone().oneshot(req)
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(REQUEST_WITHIN);
    let connection = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::select! {
        ended = connection => {
            if let Err(e) = ended {
                tracing::debug!("a connection ended: {e}");
            }
        }
        _ = place.turned_away() => {}
    }
}

/// The address a request came from, for handlers that log it.
pub type Peer = ConnectInfo<SocketAddr>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newcomer_is_let_in_and_the_oldest_unproven_is_closed() {
        let hall = Arc::new(Hall {
            most: 2,
            waiting: Mutex::default(),
        });
        let first = hall.enter();
        let proven = hall.enter();
        proven.proven();
        let third = hall.enter();
        assert!(!first.0.gone.is_cancelled() && !third.0.gone.is_cancelled());
        // Full: the next one in closes the one that waited longest, never a proven one.
        let fourth = hall.enter();
        assert!(first.0.gone.is_cancelled());
        assert!(!proven.0.gone.is_cancelled() && !third.0.gone.is_cancelled());
        // A connection that ends gives its place up.
        drop(third);
        let _fifth = hall.enter();
        assert!(!fourth.0.gone.is_cancelled());
    }
}
