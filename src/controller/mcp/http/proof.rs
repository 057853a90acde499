//! A server's proof that it holds the token, asked before the token is sent anywhere. MCP
//! clients can only send a fixed `Authorization` header to a URL, so whoever listens there gets
//! the token: `tabpilot install --http` and `tabpilot doctor` first ask what answers at the URL
//! to prove it holds the token, without sending it (`GET /tabpilot/proof?nonce=N`, answered
//! with HMAC-SHA256 under the token of `tabpilot-http-proof PORT NONCE`, as the relay's
//! handshake is bound to the port dialled). A squatter on the port cannot answer.
//!
//! Over TLS the proof is bound to the certificate too (its SHA-256 in the proven text): the
//! server proves that it holds the token and serves with this certificate, whose key the
//! handshake proved it holds, so a program between the two that relays the proof cannot pass
//! it off under a certificate of its own. The probe checks no certificate otherwise (it sends
//! nothing secret); the fingerprint it saw proven is for the person to compare.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::shared::serve::holder::Holder;

/// Where the proof is asked for; outside `/mcp`, and without the token.
pub const PATH: &str = "/tabpilot/proof";

/// The proof for `nonce` by a server on `port` holding `token`, hex; over TLS, by the server
/// whose certificate has the SHA-256 fingerprint `cert`.
pub fn proof(token: &str, port: u16, nonce: &str, cert: Option<&str>) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(token.as_bytes()).expect("any key length");
    match cert {
        None => mac.update(format!("tabpilot-http-proof {port} {nonce}").as_bytes()),
        Some(cert) => mac.update(format!("tabpilot-https-proof {port} {nonce} {cert}").as_bytes()),
    }
    hex::encode(mac.finalize().into_bytes())
}

/// Whether a nonce is one a prover answers: 32 to 128 hex digits.
pub fn fair_nonce(nonce: &str) -> bool {
    (32..=128).contains(&nonce.len()) && nonce.bytes().all(|b| b.is_ascii_hexdigit())
}

/// What answers at a URL.
#[derive(Debug, PartialEq)]
pub enum Found {
    /// A `tabpilot mcp --http` that proved it holds the token.
    Ours,
    /// Nothing listens there.
    Nothing,
    /// Something that did not prove it: it would receive the token. Its holder, where the
    /// system says (a loopback port).
    Other(Option<Holder>),
}

/// Asks what answers at `url` (`http://` or `https://HOST:PORT/...`) to prove it holds
/// `token`, sending only a fresh nonce. A URL that names no host is `Nothing`.
pub fn probe(url: &str, token: &str) -> Found {
    probe_cert(url, token).0
}

/// [`probe`], and for an `https://` URL the SHA-256 fingerprint of the certificate the server
/// proved it serves with.
pub fn probe_cert(url: &str, token: &str) -> (Found, Option<String>) {
    let Some((host, port)) = host_port(url) else {
        return (Found::Nothing, None);
    };
    let Some(addr) = (host.as_str(), port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
    else {
        return (Found::Nothing, None);
    };
    let Ok(stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(2)) else {
        return (Found::Nothing, None);
    };
    let nonce = crate::shared::serve::random() + &crate::shared::serve::random();
    let request = request(&host, port, &nonce);
    let (answer, cert) = if url.starts_with("https:") {
        ask_tls(stream, &host, &request).unwrap_or_default()
    } else {
        (ask(stream, &request).unwrap_or_default(), None)
    };
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").trim();
    if answer.starts_with("HTTP/1.") && body == proof(token, port, &nonce, cert.as_deref()) {
        return (Found::Ours, cert);
    }
    (Found::Other(holder_of(&addr)), None)
}

fn request(host: &str, port: u16, nonce: &str) -> String {
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    format!("GET {PATH}?nonce={nonce} HTTP/1.0\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n")
}

fn ask(mut stream: TcpStream, request: &str) -> std::io::Result<String> {
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.set_write_timeout(Some(Duration::from_secs(2)))?;
    stream.write_all(request.as_bytes())?;
    let mut bytes = Vec::new();
    stream.take(4096).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// [`ask`] over TLS; the answer and the fingerprint of the certificate the server showed.
fn ask_tls(
    stream: TcpStream,
    host: &str,
    request: &str,
) -> std::io::Result<(String, Option<String>)> {
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.set_write_timeout(Some(Duration::from_secs(2)))?;
    // Any certificate, so long as the server proves it holds its key: the proof, bound to the
    // certificate, says whether the server is ours.
    let (config, _) = super::tls::client_config(None);
    let name =
        rustls::pki_types::ServerName::try_from(host.to_string()).map_err(std::io::Error::other)?;
    let conn =
        rustls::ClientConnection::new(Arc::new(config), name).map_err(std::io::Error::other)?;
    let mut tls = rustls::StreamOwned::new(conn, stream);
    tls.write_all(request.as_bytes())?;
    let mut bytes = Vec::new();
    // The answer ends when the server closes; an end without TLS's own goodbye is an end too.
    let mut chunk = [0u8; 1024];
    while bytes.len() < 4096 {
        match tls.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
    let cert = tls
        .conn
        .peer_certificates()
        .and_then(|c| c.first())
        .map(|c| super::tls::fingerprint(c));
    Ok((String::from_utf8_lossy(&bytes).into_owned(), cert))
}

fn holder_of(addr: &SocketAddr) -> Option<Holder> {
    addr.ip()
        .is_loopback()
        .then(|| crate::shared::serve::holder::of_port(addr.port()))
        .flatten()
}

/// The host and port of an `http://` URL (the port defaulting to 80).
pub fn host_port(url: &str) -> Option<(String, u16)> {
    let url = url::Url::parse(url).ok()?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return None;
    }
    let host = match url.host()? {
        url::Host::Ipv6(a) => a.to_string(),
        other => other.to_string(),
    };
    Some((host, url.port_or_known_default()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_is_bound_to_the_token_the_port_and_the_nonce() {
        let n = "0123456789abcdef0123456789abcdef";
        let p = proof("token-a", 47320, n, None);
        assert_eq!(p.len(), 64);
        assert_ne!(p, proof("token-b", 47320, n, None));
        assert_ne!(p, proof("token-a", 47321, n, None));
        assert_ne!(p, proof("token-a", 47320, &n.replace('0', "1"), None));
        let tls = proof("token-a", 47320, n, Some("AB:CD"));
        assert!(tls != p && tls != proof("token-a", 47320, n, Some("AB:CE")));
        assert!(fair_nonce(n) && !fair_nonce("abc") && !fair_nonce(&"g".repeat(32)));
    }

    // The holder of a port and its user come from Linux's /proc tables (src/shared/serve/holder.rs).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_listener_that_cannot_prove_is_another_and_a_free_port_is_nothing() {
        let squatter = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = squatter.local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        let serve = std::thread::spawn(move || {
            let (mut s, _) = squatter.accept().unwrap();
            let mut buf = [0u8; 512];
            let n = s.read(&mut buf).unwrap();
            let _ = s.write_all(b"HTTP/1.0 200 OK\r\n\r\nnot a proof");
            // The listener outlives the answer: the holder is looked up after it.
            (String::from_utf8_lossy(&buf[..n]).into_owned(), squatter)
        });
        let found = probe(&url, "the-token-0123456789");
        let (asked, squatter) = serve.join().unwrap();
        drop(squatter);
        assert!(
            matches!(&found, Found::Other(Some(h)) if h.is_me()),
            "{found:?}"
        );
        assert!(asked.starts_with("GET /tabpilot/proof?nonce="), "{asked}");
        assert!(!asked.contains("the-token"), "{asked}");
        assert_eq!(probe(&url, "the-token-0123456789"), Found::Nothing);
        assert_eq!(
            host_port("http://[::1]:9/mcp"),
            Some(("::1".to_string(), 9))
        );
    }
}
