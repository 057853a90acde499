//! What a connection gets before it has proved anything: a bounded number of places, a few
//! seconds to send each request's head, and (once upgraded) a few seconds and one small
//! frame to prove it holds the secret. Nothing a process without the secret does can hold the
//! relay's memory or descriptors for long.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// Connections that have not yet proved themselves, at most: past this, new ones are closed
/// as they arrive.
pub(super) const MAX_UNPROVEN: usize = 32;
/// Time for a connection to send its whole request line and headers.
pub(super) const REQUEST_WITHIN: Duration = Duration::from_secs(5);

/// A connection's place among the unproven ones. It is given up when the peer proves itself,
/// or when its connection ends.
#[derive(Clone)]
pub(super) struct Unproven(Arc<std::sync::Mutex<Option<OwnedSemaphorePermit>>>);

impl Unproven {
    /// The peer proved itself: its place goes to the next connection.
    pub(super) fn proven(&self) {
        self.0.lock().unwrap().take();
    }
}

/// Serves `app` on `listener` until the listener fails.
pub(super) async fn serve(listener: TcpListener, app: Router) -> std::io::Result<()> {
    let places = Arc::new(Semaphore::new(MAX_UNPROVEN));
    let mut turned_away = 0u64;
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
        let Ok(place) = places.clone().try_acquire_owned() else {
            turned_away += 1;
            // One line per hundred, so a flood does not grow the log with it.
            if turned_away % 100 == 1 {
                tracing::warn!(
                    turned_away,
                    "too many unproven connections; closing new ones"
                );
            }
            continue;
        };
        let unproven = Unproven(Arc::new(std::sync::Mutex::new(Some(place))));
        let app = app.clone();
        tokio::spawn(async move {
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
            if let Err(e) = connection.await {
                tracing::debug!("a connection ended: {e}");
            }
        });
    }
}

/// The address a request came from, for handlers that log it.
pub(super) type Peer = ConnectInfo<SocketAddr>;
