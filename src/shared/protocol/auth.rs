//! The HMAC-SHA256 challenge-response both ends of a relay socket run. The secret never
//! crosses the wire: each side proves it holds the secret by signing the other's nonce, and the
//! port the socket is on. A process squatting on another port of the range cannot pass a
//! handshake on to the real relay: the proofs it would carry name its port, not the relay's.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::handshake;

type HmacSha256 = Hmac<Sha256>;

/// A fresh random nonce, hex.
pub fn nonce() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

fn mac(secret: &[u8], who: &str, port: u16, nonce: &str) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(handshake::proof_text(who, port, nonce).as_bytes());
    mac
}

/// The proof that `who` ("controller", "browser" or `handshake::RELAY`) holds `secret`, over `nonce`, on a
/// socket to the relay's `port`.
pub fn proof(secret: &[u8], who: &str, port: u16, nonce: &str) -> String {
    hex::encode(mac(secret, who, port, nonce).finalize().into_bytes())
}

/// Checks a proof in constant time.
pub fn verify(secret: &[u8], who: &str, port: u16, nonce: &str, proof: &str) -> bool {
    match hex::decode(proof) {
        Ok(bytes) => mac(secret, who, port, nonce).verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_verifies_only_for_its_secret_role_port_and_nonce() {
        let n = nonce();
        let p = proof(b"secret", "browser", 47311, &n);
        assert!(verify(b"secret", "browser", 47311, &n, &p));
        assert!(!verify(b"other", "browser", 47311, &n, &p));
        assert!(!verify(b"secret", "controller", 47311, &n, &p));
        assert!(!verify(b"secret", "browser", 47312, &n, &p));
        assert!(!verify(b"secret", "browser", 47311, &nonce(), &p));
        assert!(!verify(b"secret", "browser", 47311, &n, "zz"));
    }

    /// The extension computes the same proof with WebCrypto over the same text: its test
    /// (tests/extension/handshake.test.js) holds it to this same vector.
    #[test]
    fn the_proof_is_an_hmac_of_a_fixed_text() {
        use hmac::Mac;
        let mut mac = HmacSha256::new_from_slice(b"s").unwrap();
        mac.update(b"tabpilot/2 relay 47312 abc");
        let expected = hex::encode(mac.finalize().into_bytes());
        assert_eq!(proof(b"s", "relay", 47312, "abc"), expected);
        assert_eq!(
            expected,
            "e18e95d58fdb5139aa64ce112f0afc2d7a4826ee1ddf4065a86e906e7f6f7230"
        );
    }
}
