//! Trusting one certificate: the one whose SHA-256 the person compared with what the server
//! printed (`tabpilot mcp --http --tls`), and nothing else, not even a certificate the system
//! trusts. The server's made certificate is self-signed, so a name or a chain would prove nothing;
//! its fingerprint does. The handshake's signatures are still verified, so only the holder of
//! that certificate's key gets through.

use std::sync::{Arc, Mutex, PoisonError};

use super::error::RemoteError;
use crate::controller::mcp::http::tls;

/// A fingerprint as the person may type it (`ab:cd:...`, `ABCD...`) in the form the server
/// prints: upper-case hex in colon-separated pairs.
pub(super) fn normalize(text: &str) -> Result<String, RemoteError> {
    let hex: String = text.trim().chars().filter(|c| *c != ':').collect();
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(RemoteError::BadFingerprint(
            crate::shared::terminal::line(text).into_owned(),
        ));
    }
    let pairs: Vec<String> = hex
        .to_ascii_uppercase()
        .as_bytes()
        .chunks(2)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    Ok(pairs.join(":"))
}

/// A client configuration trusting only the certificate pinned, and where the fingerprint of the
/// one the server showed is recorded.
pub(super) fn client_config(
    fingerprint: &str,
) -> (Arc<rustls::ClientConfig>, Arc<Mutex<Option<String>>>) {
    let (mut config, seen) = tls::client_config(Some(fingerprint));
    // The server speaks HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    (Arc::new(config), seen)
}

/// The fingerprint the server showed in the last handshake, if it got that far.
pub(super) fn seen(seen: &Mutex<Option<String>>) -> Option<String> {
    seen.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_taken_with_or_without_colons_in_either_case() {
        let printed = tls::fingerprint(b"a certificate");
        assert_eq!(normalize(&printed).unwrap(), printed);
        assert_eq!(normalize(&printed.to_lowercase()).unwrap(), printed);
        assert_eq!(normalize(&printed.replace(':', "")).unwrap(), printed);
        for bad in ["", "AB:CD", &printed[3..], &printed.replace('A', "G")] {
            assert!(normalize(bad).is_err(), "{bad}");
        }
    }
}
