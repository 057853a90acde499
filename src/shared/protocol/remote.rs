//! Pairing a browser on another computer with a relay that listens past loopback
//! (`tabpilot relay --listen`), across a network where anyone may watch or sit in the middle.
//! The exchange, on a WebSocket at `handshake::REMOTE_PAIR_PATH`:
//!
//! 1. browser → relay, text: `{"eph": HEX}`, a fresh P-256 public key.
//! 2. relay → browser, text: `{"key": HEX, "eph": HEX}`: the relay's lasting key and a fresh one.
//! 3. Each side takes ECDH(browser's fresh, relay's lasting) ‖ ECDH(browser's fresh, relay's
//!    fresh) and derives one AES-256-GCM key per direction with HKDF, salted with the code the
//!    person typed, over the three public keys ([`keys`]).
//! 4. browser → relay, sealed: `{"t":"claim"}`. It opens only under an open code's keys: the
//!    relay tries each, and none opening counts as a wrong code (`relay::codes`).
//! 5. relay → browser, sealed: the link's secret; or, for a wrong code, a text `{"error"}`.
//!
//! The code never crosses the wire, even sealed. Someone watching learns nothing (ECDH). Someone
//! in the middle without the code cannot seal a claim the relay opens, nor open the relay's
//! answer; what they can take away is one sealed claim to guess the code against offline, and a
//! remote code is 60 bits that live 10 minutes, out of reach of such a search. The browser keeps
//! the relay's lasting key and shows its [`fingerprint`], which `tabpilot pair --remote` printed
//! beside the code: a person who compares them has a check that does not rest on the code. From
//! then on every connection's challenge names the key, so a relay with another key at that
//! address is refused before the browser proves anything, and the link is sealed as on loopback
//! (`seal`) under the secret the pairing handed over.
//!
//! The extension does the same with WebCrypto (`extension/sw/remote.js`) over the same texts.

use sha2::{Digest, Sha256};

use super::handshake::{self, RELAY};
use super::seal::{End, Keys, hkdf_key};

/// Who the browser is in a pairing's key texts.
const BROWSER: &str = "browser";

/// A code as it is compared and keyed: letters and digits only, upper case. What the person
/// types may have dashes, spaces or lower case.
pub fn code_text(typed: &str) -> String {
    typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// What both sides key the exchange over: the three public keys, hex, in the order they were
/// sent.
pub fn transcript(browser_eph: &str, relay_key: &str, relay_eph: &str) -> String {
    format!("{browser_eph} {relay_key} {relay_eph}")
}

/// The exchange's keys as `end` holds them, from the two ECDH results `ikm`, the `code` (as
/// [`code_text`] writes it) and the [`transcript`].
pub fn keys(ikm: &[u8], code: &str, transcript: &str, end: End) -> Keys {
    let salt = handshake::pair_salt(code);
    let up = hkdf_key(
        &salt,
        ikm,
        &handshake::pair_info(BROWSER, RELAY, transcript),
    );
    let down = hkdf_key(
        &salt,
        ikm,
        &handshake::pair_info(RELAY, BROWSER, transcript),
    );
    match end {
        End::Peer => Keys::from_raw(&up, &down),
        End::Relay => Keys::from_raw(&down, &up),
    }
}

/// The short form of a relay's public key (SEC1 bytes) a person compares: the first 64 bits of
/// its SHA-256, as four groups of four hex digits.
pub fn fingerprint(public: &[u8]) -> String {
    let digest = Sha256::digest(public);
    let hex = hex::encode_upper(&digest[..8]);
    let groups: Vec<&str> = (0..4).map(|i| &hex[i * 4..i * 4 + 4]).collect();
    groups.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_keyed_as_letters_and_digits_in_upper_case() {
        assert_eq!(code_text("ab2c-d3ef 45gh"), "AB2CD3EF45GH");
    }

    #[test]
    fn only_the_same_code_and_transcript_open_what_the_other_side_sealed() {
        let ikm = [7u8; 64];
        let t = transcript("aa", "bb", "cc");
        let mut browser = keys(&ikm, "CODE", &t, End::Peer);
        let sealed = browser.seal.seal(b"claim");
        assert_eq!(
            keys(&ikm, "CODE", &t, End::Relay)
                .open
                .open(&sealed)
                .unwrap(),
            b"claim"
        );
        assert!(
            keys(&ikm, "CODF", &t, End::Relay)
                .open
                .open(&sealed)
                .is_err()
        );
        let other = transcript("aa", "bd", "cc");
        assert!(
            keys(&ikm, "CODE", &other, End::Relay)
                .open
                .open(&sealed)
                .is_err()
        );
        let mut relay = keys(&ikm, "CODE", &t, End::Relay);
        let answer = relay.seal.seal(b"secret");
        assert_eq!(browser.open.open(&answer).unwrap(), b"secret");
    }

    /// The extension derives the same keys and fingerprint with WebCrypto: its test
    /// (tests/extension/remote.test.js) holds it to these same vectors.
    #[test]
    fn the_keys_and_the_fingerprint_match_the_extension_s() {
        let ikm: Vec<u8> = (0..64).collect();
        let mut browser = keys(
            &ikm,
            "ABCD2345WXYZ",
            &transcript("01", "02", "03"),
            End::Peer,
        );
        assert_eq!(
            hex::encode(browser.seal.seal(b"{\"t\":\"claim\"}")),
            "119ecefe98a1e12fd6549a05f5d1179ebf32139c2d307bbf582f5fc532"
        );
        assert_eq!(fingerprint(&[4, 1, 2, 3]), "3CCB 7EA5 A2AA 7BD4");
    }
}
