//! Pairing a user's own browser: `tabpilot pair` asks the relay for a one-time code; the relay
//! serves a loopback page carrying it; the extension, and only the extension (by its Origin),
//! trades the code for the secret, once. The secret never appears in a URL or a log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;

use super::Hub;
use crate::protocol::auth;

const CODE_LIFETIME: Duration = Duration::from_secs(600);
const MAX_OPEN_CODES: usize = 16;

/// Codes handed out and not yet claimed.
#[derive(Default)]
pub struct Codes(Mutex<HashMap<String, Instant>>);

impl Codes {
    /// A fresh one-time code; the oldest goes when too many are open.
    pub fn issue(&self) -> String {
        let code = auth::nonce()[..32].to_string();
        let mut codes = self.0.lock().unwrap();
        codes.retain(|_, at| at.elapsed() < CODE_LIFETIME);
        if codes.len() >= MAX_OPEN_CODES
            && let Some(oldest) = codes
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(c, _)| c.clone())
        {
            codes.remove(&oldest);
        }
        codes.insert(code.clone(), Instant::now());
        code
    }

    fn is_open(&self, code: &str) -> bool {
        self.0
            .lock()
            .unwrap()
            .get(code)
            .is_some_and(|at| at.elapsed() < CODE_LIFETIME)
    }

    fn claim(&self, code: &str) -> bool {
        self.0
            .lock()
            .unwrap()
            .remove(code)
            .is_some_and(|at| at.elapsed() < CODE_LIFETIME)
    }
}

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="tabpilot-pairing" content="1">
<title>Pair with tabpilot</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto}</style></head>
<body><h1>Pair this browser with tabpilot</h1>
<p id="status">Waiting for the tabpilot extension… If nothing happens, load it first
(<code>tabpilot extension path</code>, then Load unpacked in chrome://extensions).</p>
</body></html>"#;

pub(super) async fn page(State(hub): State<Arc<Hub>>, Path(code): Path<String>) -> Response {
    tracing::info!("pairing page requested");
    if hub.codes().is_open(&code) {
        ([(header::CACHE_CONTROL, "no-store")], Html(PAGE)).into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            "This pairing page has expired or was used; run tabpilot pair again.",
        )
            .into_response()
    }
}

pub(super) async fn claim(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(code): Path<String>,
) -> Response {
    let expected = format!("chrome-extension://{}", crate::extension::id());
    if headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return (
            StatusCode::FORBIDDEN,
            "only the tabpilot extension may pair",
        )
            .into_response();
    }
    if !hub.codes().claim(&code) {
        return (StatusCode::NOT_FOUND, "unknown or used pairing code").into_response();
    }
    tracing::info!("a browser paired with the relay");
    let (first, last) = hub.ports();
    let body = json!({"secret": String::from_utf8_lossy(hub.secret()), "ports": [first, last]});
    ([(header::CACHE_CONTROL, "no-store")], axum::Json(body)).into_response()
}
