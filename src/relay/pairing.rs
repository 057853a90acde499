//! Pairing a user's own browser. `tabpilot pair` asks the relay for a one-time code and prints
//! it in the person's terminal; the person types it into the extension's popup, which shows the
//! relay's port; the extension trades it for the secret, once. The code never appears in a URL,
//! a process's arguments or a log, and a pairing page only points the person at the popup: no
//! page can make the extension pair by itself.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Hub;
use super::codes::Codes;
use super::extensions::Extensions;
use super::remote::Remote;
use crate::shared::protocol::handshake;

/// What pairing keeps: the open codes, the extensions that paired, and the door past loopback
/// when the relay listens there.
pub(super) struct Pairing {
    pub(super) codes: Codes,
    pub(super) extensions: Extensions,
    pub(super) remote: Option<Remote>,
}

impl Pairing {
    pub(super) fn load() -> Self {
        Pairing {
            codes: Codes::local(),
            extensions: Extensions::load(
                crate::shared::state::state_dir().join("paired-extensions"),
            ),
            remote: None,
        }
    }
}

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="MARK" content="1">
<title>Pair with tabpilot</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto}</style></head>
<body><h1>Pair this browser with tabpilot</h1>
<p id="status">Click the tabpilot icon in this browser's toolbar and type the code that
<code>tabpilot pair</code> printed in your terminal. The popup shows this relay's port,
<b>PORT</b>: pair only if it is the one your terminal named.</p>
<p>No extension yet? Run <code>tabpilot extension path</code> and load that folder with
Load unpacked in chrome://extensions.</p>
</body></html>"#;

/// The page `tabpilot pair` opens: what to do, and the port to check. It carries no secret.
pub(super) async fn page(State(hub): State<Arc<Hub>>) -> Response {
    let page = PAGE
        .replace("PORT", &hub.port().to_string())
        .replace("MARK", handshake::PAIRING_MARK);
    ([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response()
}

#[derive(Deserialize)]
pub(super) struct Claim {
    code: String,
}

/// The extension's claim: the code the person typed into its popup, for the secret.
pub(super) async fn claim(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Json(claim): Json<Claim>,
) -> Response {
    // Not the boundary (any local process can write this header, and any extension's is
    // accepted here): the code is. No web page gets past it.
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let Some(id) = Extensions::id_of(origin) else {
        return (StatusCode::FORBIDDEN, "only a browser extension may pair").into_response();
    };
    if !hub.pairing().codes.claim(&claim.code) {
        tracing::warn!("a pairing claim with a wrong or used code");
        return (
            StatusCode::FORBIDDEN,
            "that is not an open pairing code; run tabpilot pair again",
        )
            .into_response();
    }
    if let Err(e) = hub.pairing().extensions.pin(id) {
        // It is let in until the relay restarts; the next pairing tries the file again.
        tracing::warn!("could not keep the paired extension's ID: {e}");
    }
    tracing::info!("a browser paired with the relay");
    let (first, last) = hub.ports();
    let body = json!({"secret": String::from_utf8_lossy(hub.secret()), "ports": [first, last]});
    ([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response()
}
