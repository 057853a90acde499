//! Pairing a user's own browser. `tabpilot pair` asks the relay for a one-time code and prints
//! it in the person's terminal; the person types it into the extension's popup, which shows the
//! relay's port; the extension trades it for the secret, once. The code never appears in a URL,
//! a process's arguments or a log, and a pairing page only points the person at the popup: no
//! page can make the extension pair by itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Hub;

const CODE_LIFETIME: Duration = Duration::from_secs(600);
const MAX_OPEN_CODES: usize = 16;
/// Wrong claims before every open code is revoked: 40-bit codes and five guesses.
const MAX_WRONG_CLAIMS: u32 = 5;
/// The letters a code is written in: no 0/O or 1/I to misread.
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Codes handed out and not yet claimed, and the wrong claims made against them.
#[derive(Default)]
pub(super) struct Codes(Mutex<(HashMap<String, Instant>, u32)>);

impl Codes {
    /// A fresh one-time code, `XXXX-XXXX`; the oldest goes when too many are open.
    pub(super) fn issue(&self) -> String {
        let code: String = rand::random::<[u8; 8]>()
            .iter()
            .map(|b| ALPHABET[usize::from(b % 32)] as char)
            .collect();
        let mut guard = self.0.lock().unwrap();
        let (codes, _) = &mut *guard;
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
        format!("{}-{}", &code[..4], &code[4..])
    }

    /// Takes a code once. Too many wrong ones revoke them all: a guesser gets five tries
    /// against all the codes together, then nothing.
    pub(super) fn claim(&self, typed: &str) -> bool {
        let code: String = typed
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let mut guard = self.0.lock().unwrap();
        let (codes, wrong) = &mut *guard;
        match codes.remove(&code) {
            Some(at) if at.elapsed() < CODE_LIFETIME => true,
            _ => {
                *wrong += 1;
                if *wrong >= MAX_WRONG_CLAIMS {
                    codes.clear();
                    *wrong = 0;
                    tracing::warn!("too many wrong pairing codes; every open code is revoked");
                }
                false
            }
        }
    }
}

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="tabpilot-pairing" content="1">
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
    let page = PAGE.replace("PORT", &hub.port().to_string());
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
    // Not the boundary (any local process can write this header), but no web page gets past it.
    let expected = format!("chrome-extension://{}", crate::extension::id());
    if headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return (
            StatusCode::FORBIDDEN,
            "only the tabpilot extension may pair",
        )
            .into_response();
    }
    if !hub.codes().claim(&claim.code) {
        tracing::warn!("a pairing claim with a wrong or used code");
        return (
            StatusCode::FORBIDDEN,
            "that is not an open pairing code; run tabpilot pair again",
        )
            .into_response();
    }
    tracing::info!("a browser paired with the relay");
    let (first, last) = hub.ports();
    let body = json!({"secret": String::from_utf8_lossy(hub.secret()), "ports": [first, last]});
    ([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once_in_any_case_and_with_or_without_its_dash() {
        let codes = Codes::default();
        let code = codes.issue();
        assert_eq!(code.len(), 9);
        assert!(codes.claim(&code.to_lowercase().replace('-', " ")));
        assert!(!codes.claim(&code), "a code works once");
    }

    #[test]
    fn five_wrong_claims_revoke_every_open_code() {
        let codes = Codes::default();
        let code = codes.issue();
        for _ in 0..MAX_WRONG_CLAIMS {
            assert!(!codes.claim("AAAA-AAAA"));
        }
        assert!(
            !codes.claim(&code),
            "a guesser's fifth miss leaves nothing open"
        );
        let next = codes.issue();
        assert!(codes.claim(&next), "a new code works after the revocation");
    }
}
