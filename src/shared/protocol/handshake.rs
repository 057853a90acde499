//! The words a link's two ends say as they connect and pair, declared once: the relay and the
//! controller use them here, and the extension reads them from its generated contract
//! (`extension/sw/contract.js`, `HANDSHAKE`; the pairing page's content script from
//! `extension/page/contract.js`).
//!
//! Connecting: the peer opens `ws://127.0.0.1:PORT/browser` (or `/controller`); each end proves
//! it holds the relay's secret with an HMAC over `tabpilot/2 WHO PORT NONCE` (`auth`), and the
//! frames after the hello are sealed with keys derived over `tabpilot/3 FROM TO PORT NONCE
//! CNONCE` under the salt `tabpilot/3 seal` (`seal`). Pairing: the relay's page at `/pair`
//! carries `<meta name="tabpilot-pairing">`, and the extension trades the person's code for the
//! secret at `/pair/claim`.

/// What a proof's text begins with: the scheme, versioned.
pub const PROOF: &str = "tabpilot/2";
/// What a link key's HKDF info begins with.
pub const SEAL: &str = "tabpilot/3";
/// The HKDF salt of the link keys: names the scheme, so these keys can be nothing else's.
pub const SEAL_SALT: &str = "tabpilot/3 seal";
/// Who the relay is in proofs and link keys (a peer is its `Role`).
pub const RELAY: &str = "relay";
/// Where a browser's extension connects.
pub const BROWSER_PATH: &str = "/browser";
/// Where a controller connects.
pub const CONTROLLER_PATH: &str = "/controller";
/// The relay's pairing page, which `tabpilot pair` opens.
pub const PAIR_PATH: &str = "/pair";
/// Where the extension trades the person's pairing code for the secret.
pub const CLAIM_PATH: &str = "/pair/claim";
/// Where a browser on another computer pairs with a relay listening past loopback: a WebSocket
/// carrying the exchange of `protocol::remote`.
pub const REMOTE_PAIR_PATH: &str = "/pair/remote";
/// What a remote pairing's key texts begin with (its HKDF salt and info).
pub const PAIR_KEYS: &str = "tabpilot/3 pair";
/// The `<meta name>` that marks the relay's pairing page.
pub const PAIRING_MARK: &str = "tabpilot-pairing";

/// The text `who` signs to prove it holds the secret, on a socket to `port`, over `nonce`.
pub fn proof_text(who: &str, port: u16, nonce: &str) -> String {
    format!("{PROOF} {who} {port} {nonce}")
}

/// The HKDF info of the link key from `from` to `to`.
pub fn key_info(from: &str, to: &str, port: u16, nonce: &str, cnonce: &str) -> String {
    format!("{SEAL} {from} {to} {port} {nonce} {cnonce}")
}

/// The HKDF salt of a remote pairing's keys: the scheme and the code, so only a side that knows
/// the code derives them.
pub fn pair_salt(code: &str) -> String {
    format!("{PAIR_KEYS} {code}")
}

/// The HKDF info of a remote pairing's key from `from` to `to`, over the exchange's public keys.
pub fn pair_info(from: &str, to: &str, transcript: &str) -> String {
    format!("{PAIR_KEYS} {from} {to} {transcript}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_are_the_scheme_then_the_parts() {
        assert_eq!(
            proof_text(RELAY, 47312, "abc"),
            "tabpilot/2 relay 47312 abc"
        );
        assert_eq!(
            key_info("browser", RELAY, 47311, "n", "c"),
            "tabpilot/3 browser relay 47311 n c"
        );
        assert!(SEAL_SALT.starts_with(SEAL));
        assert!(CLAIM_PATH.starts_with(PAIR_PATH));
    }
}
