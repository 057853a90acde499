//! What tabpilot's local HTTP servers (`mcp --http`, `dashboard`) share: a secret a request
//! presents, compared in constant time, a port of their own on loopback, and serving until
//! interrupted.

pub mod door; // what a connection to our servers gets before it proves itself
pub mod guesses; // what a wrong token costs its sender: a wait, doubling, on its user
pub mod holder; // who holds a loopback port: its owner, process and command, from /proc

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// A secret (a token, a one-time key, a cookie), held as a MAC key so that comparing what a
/// request presents takes the same time whatever it shares with ours.
pub struct Secret {
    mac: Hmac<Sha256>,
    expected: Vec<u8>,
}

impl Secret {
    pub fn new(secret: &str) -> Secret {
        let mac = Hmac::<Sha256>::new_from_slice(&rand::random::<[u8; 32]>())
            .expect("HMAC takes any key length");
        let mut m = mac.clone();
        m.update(secret.as_bytes());
        let expected = m.finalize().into_bytes().to_vec();
        Secret { mac, expected }
    }

    pub fn matches(&self, given: &str) -> bool {
        let mut m = self.mac.clone();
        m.update(given.as_bytes());
        m.verify_slice(&self.expected).is_ok()
    }
}

/// A fresh random secret, hex (128 bits).
pub fn random() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// The value of `name` in a request's query, if it has one.
pub fn query_value(uri: &axum::http::Uri, name: &str) -> Option<String> {
    let query = uri.query()?;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// A listener on the first free port of `ports` on 127.0.0.1; `instead` says what the person
/// gives when all are taken (`--port PORT`).
pub async fn first_free(
    ports: std::ops::RangeInclusive<u16>,
    instead: &str,
) -> anyhow::Result<tokio::net::TcpListener> {
    for port in ports.clone() {
        let addr = (std::net::Ipv4Addr::LOCALHOST, port);
        if let Ok(l) = tokio::net::TcpListener::bind(addr).await {
            return Ok(l);
        }
    }
    anyhow::bail!(
        "ports {}-{} on 127.0.0.1 are all taken; give {instead}",
        ports.start(),
        ports.end()
    )
}

/// Resolves on Ctrl-C or SIGTERM.
#[cfg(unix)]
pub async fn interrupted() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM handler installs");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// Resolves on Ctrl-C (or Ctrl-Break, or the console closing): Windows has no SIGTERM.
#[cfg(windows)]
pub async fn interrupted() {
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_secret_itself_matches() {
        let key = Secret::new("0123456789abcdef0123");
        assert!(key.matches("0123456789abcdef0123"));
        assert!(!key.matches("0123456789abcdef012"));
        assert!(!key.matches("0123456789abcdef01234"));
        assert!(!key.matches(""));
    }
}
