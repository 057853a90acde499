//! The HMAC-SHA256 challenge-response both ends of a relay socket run. The secret never
//! crosses the wire: each side proves it holds the secret by signing the other's nonce.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// A fresh random nonce, hex.
pub fn nonce() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

fn mac(secret: &[u8], who: &str, nonce: &str) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"tabpilot/1 ");
    mac.update(who.as_bytes());
    mac.update(b" ");
    mac.update(nonce.as_bytes());
    mac
}

/// The proof that `who` ("controller", "browser" or "relay") holds `secret`, over `nonce`.
pub fn proof(secret: &[u8], who: &str, nonce: &str) -> String {
    hex::encode(mac(secret, who, nonce).finalize().into_bytes())
}

/// Checks a proof in constant time.
pub fn verify(secret: &[u8], who: &str, nonce: &str, proof: &str) -> bool {
    match hex::decode(proof) {
        Ok(bytes) => mac(secret, who, nonce).verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_verifies_only_for_its_secret_role_and_nonce() {
        let n = nonce();
        let p = proof(b"secret", "browser", &n);
        assert!(verify(b"secret", "browser", &n, &p));
        assert!(!verify(b"other", "browser", &n, &p));
        assert!(!verify(b"secret", "controller", &n, &p));
        assert!(!verify(b"secret", "browser", &nonce(), &p));
        assert!(!verify(b"secret", "browser", &n, "zz"));
    }
}
