//! Trusting one certificate: the one whose SHA-256 the person compared with what the server
//! printed (`tabpilot mcp --http --tls`), and nothing else, not even a certificate the system
//! trusts. The server's made certificate is self-signed, so a name or a chain would prove nothing;
//! its fingerprint does. The handshake's signatures are still verified, so only the holder of
//! that certificate's key gets through.

use std::sync::{Arc, Mutex, PoisonError};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};

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

/// Trusts the certificate whose SHA-256 is `fingerprint`, and records the one the server showed
/// (`seen`), so that a refusal can name both.
#[derive(Debug)]
pub(super) struct Pinned {
    fingerprint: String,
    seen: Arc<Mutex<Option<String>>>,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

/// A client configuration trusting only the certificate pinned, and where the fingerprint of the
/// one the server showed is recorded.
pub(super) fn client_config(
    fingerprint: &str,
) -> (Arc<rustls::ClientConfig>, Arc<Mutex<Option<String>>>) {
    let provider = tls::provider();
    let seen = Arc::new(Mutex::new(None));
    let pinned = Pinned {
        fingerprint: fingerprint.to_string(),
        seen: seen.clone(),
        provider: provider.clone(),
    };
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring's provider offers the safe defaults")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(pinned))
        .with_no_client_auth();
    // The server speaks HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    (Arc::new(config), seen)
}

/// The fingerprint the server showed in the last handshake, if it got that far.
pub(super) fn seen(seen: &Mutex<Option<String>>) -> Option<String> {
    seen.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let served = tls::fingerprint(end_entity);
        let pinned = served == self.fingerprint;
        *self.seen.lock().unwrap_or_else(PoisonError::into_inner) = Some(served);
        if pinned {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algs = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algs)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algs = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algs)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
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

    #[test]
    fn only_the_pinned_certificate_passes_and_the_one_seen_is_recorded() {
        let (pinned_der, other_der) = (b"pinned".as_slice(), b"other".as_slice());
        let seen = Arc::new(Mutex::new(None));
        let verifier = Pinned {
            fingerprint: tls::fingerprint(pinned_der),
            seen: seen.clone(),
            provider: tls::provider(),
        };
        let name = ServerName::try_from("lab.example").unwrap();
        let check = |der: &[u8]| {
            verifier.verify_server_cert(
                &CertificateDer::from(der.to_vec()),
                &[],
                &name,
                &[],
                UnixTime::now(),
            )
        };
        assert!(check(pinned_der).is_ok());
        assert!(check(other_der).is_err());
        assert_eq!(self::seen(&seen), Some(tls::fingerprint(other_der)));
    }
}
