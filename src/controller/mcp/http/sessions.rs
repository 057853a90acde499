//! Bounds on what a client holding the token can make the server keep. rmcp's session manager
//! keeps every session until its client ends it (DELETE) or it is 5 minutes idle, and opens any
//! number of standalone streams beside a session's own ("shadow" streams, 32 kept): 2,000
//! sessions took 113 MB in under a second. Here at most [`MOST`] sessions live at once (a new
//! one past that is 503, saying what ends one), and a session has one standalone stream (a
//! second GET is 409 while the first is open).
//!
//! A middleware in front of rmcp's service, so a refusal is an answer of its own status rather
//! than rmcp's 500 and error line. A new session is a POST without a session id; each one in
//! flight holds a reservation until it has its place in rmcp's map, so sessions made at once
//! never pass the bound together.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// Sessions at most, each an agent with its own link to the relay.
pub(super) const MOST: usize = 64;

const SESSION_ID: &str = "mcp-session-id";
const LAST_EVENT_ID: &str = "last-event-id";

pub(super) struct Sessions {
    manager: Arc<LocalSessionManager>,
    /// Taken to weigh a new session against the bound, so two cannot take the last place.
    weighing: tokio::sync::Mutex<()>,
    /// New sessions admitted and not yet in rmcp's map (or requests without a session that
    /// turn out to make none).
    coming: Arc<AtomicUsize>,
    /// The sessions with their standalone stream open.
    streaming: Arc<Mutex<HashSet<String>>>,
    refused: AtomicU64,
}

impl Sessions {
    pub(super) fn new(manager: Arc<LocalSessionManager>) -> Sessions {
        Sessions {
            manager,
            weighing: tokio::sync::Mutex::new(()),
            coming: Arc::default(),
            streaming: Arc::default(),
            refused: AtomicU64::new(0),
        }
    }

    /// Lets a request through to rmcp, or refuses a session past the bound or a second
    /// standalone stream.
    pub(super) async fn admit(&self, req: Request, next: Next) -> Response {
        let session = req
            .headers()
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        match (req.method(), session) {
            (&Method::POST, None) => self.new_session(req, next).await,
            (&Method::GET, Some(id)) if standalone(&req) => self.stream(id, req, next).await,
            _ => next.run(req).await,
        }
    }

    async fn new_session(&self, req: Request, next: Next) -> Response {
        let weighing = self.weighing.lock().await;
        // Those coming first, then those in: one that moves from the first to the second
        // meanwhile is counted once or twice, never missed.
        let coming = self.coming.load(Ordering::SeqCst);
        let live = self.manager.sessions.read().await.len();
        if live + coming >= MOST {
            drop(weighing);
            return self.full();
        }
        let _reserved = Reserved::take(&self.coming);
        drop(weighing);
        next.run(req).await
    }

    fn full(&self) -> Response {
        let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        // One line per hundred, so a client that keeps asking does not grow the log.
        if n % 100 == 1 {
            tracing::warn!(
                refused = n,
                "{MOST} MCP sessions are open; refused a new one"
            );
        }
        (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "60")],
            format!(
                "tabpilot mcp --http serves at most {MOST} MCP sessions at once, and that many \
                 are open. A session ends when its client ends it (DELETE) or after 5 minutes \
                 without a request: try again then, or stop the client that opened them."
            ),
        )
            .into_response()
    }

    /// A standalone stream, if the session has none open; held until its body ends.
    async fn stream(&self, id: String, req: Request, next: Next) -> Response {
        let Some(open) = Stream::open(&self.streaming, id) else {
            return (
                StatusCode::CONFLICT,
                "tabpilot: this MCP session already has its stream open (GET); one per session",
            )
                .into_response();
        };
        let response = next.run(req).await;
        if !response.status().is_success() {
            return response;
        }
        let (parts, body) = response.into_parts();
        let body = body.into_data_stream().map(move |chunk| {
            let _open = &open;
            chunk
        });
        Response::from_parts(parts, Body::from_stream(body))
    }
}

/// Whether a GET asks for the session's standalone stream: a fresh one, or one resumed from
/// an event of it (rmcp names those `INDEX`, and a request's own stream's `INDEX/REQUEST`).
fn standalone(req: &Request) -> bool {
    req.headers()
        .get(LAST_EVENT_ID)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|last| !last.contains('/'))
}

/// A new session's reservation, until its request has been answered.
struct Reserved(Arc<AtomicUsize>);

impl Reserved {
    fn take(coming: &Arc<AtomicUsize>) -> Reserved {
        coming.fetch_add(1, Ordering::SeqCst);
        Reserved(coming.clone())
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A session's open standalone stream.
struct Stream {
    streaming: Arc<Mutex<HashSet<String>>>,
    id: String,
}

impl Stream {
    fn open(streaming: &Arc<Mutex<HashSet<String>>>, id: String) -> Option<Stream> {
        let mut open = streaming.lock().unwrap_or_else(PoisonError::into_inner);
        open.insert(id.clone()).then(|| Stream {
            streaming: streaming.clone(),
            id,
        })
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut open = self
            .streaming
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_has_one_stream_until_it_ends() {
        let streaming = Arc::default();
        let first = Stream::open(&streaming, "s".into()).expect("the first");
        assert!(Stream::open(&streaming, "s".into()).is_none(), "a second");
        assert!(
            Stream::open(&streaming, "t".into()).is_some(),
            "another session's"
        );
        drop(first);
        assert!(
            Stream::open(&streaming, "s".into()).is_some(),
            "after the first ended"
        );
    }

    #[test]
    fn a_request_s_own_stream_resumed_is_not_the_standalone_one() {
        let get = |last: Option<&str>| {
            let mut req = Request::new(Body::empty());
            if let Some(last) = last {
                req.headers_mut()
                    .insert(LAST_EVENT_ID, last.parse().unwrap());
            }
            standalone(&req)
        };
        assert!(get(None) && get(Some("3")));
        assert!(!get(Some("3/7")));
    }
}
