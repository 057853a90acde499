//! The frames after a handshake, sealed: encrypted and authenticated with AES-256-GCM under keys
//! derived from that handshake, one per direction, each frame's nonce its sender's count of the
//! frames it sealed before. Whatever sits on the path (a proxy the browser was told to use, a
//! tunnel, another local process) sees ciphertext, and cannot add, change, drop, reorder or
//! replay a frame: the receiver counts too, and a frame that does not open under the next count
//! ends the link. The keys come from the relay's secret and both nonces of the handshake (HKDF
//! over SHA-256), so each socket has its own, and neither end sends a key.
//!
//! The extension does the same with WebCrypto (`extension/sw/seal.js`) over the same texts.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use hkdf::Hkdf;
use sha2::Sha256;

use super::Role;
use super::handshake::{self, RELAY};
/// What AES-GCM's tag adds to each frame.
pub const OVERHEAD: usize = 16;

/// One socket's two directions, as one end holds them.
pub struct Keys {
    pub seal: Sealer,
    pub open: Opener,
}

/// Which end of the socket derives its keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Relay,
    Peer,
}

impl Keys {
    /// The keys of the socket to the relay's `port` whose handshake had the relay's `nonce` and
    /// the peer's `cnonce`, for the peer of `role` (a controller or a browser), as `end` holds
    /// them.
    pub fn derive(
        secret: &[u8],
        role: Role,
        port: u16,
        nonce: &str,
        cnonce: &str,
        end: End,
    ) -> Keys {
        let up = key(
            secret,
            &handshake::key_info(role.as_str(), RELAY, port, nonce, cnonce),
        );
        let down = key(
            secret,
            &handshake::key_info(RELAY, role.as_str(), port, nonce, cnonce),
        );
        match end {
            End::Peer => Keys::from_raw(&up, &down),
            End::Relay => Keys::from_raw(&down, &up),
        }
    }

    /// The keys of one end from the two directions' keys as they are: what it seals with, and
    /// what it opens with.
    pub(super) fn from_raw(seal: &[u8; 32], open: &[u8; 32]) -> Keys {
        Keys {
            seal: Sealer(Counted::new(seal)),
            open: Opener(Counted::new(open)),
        }
    }
}

/// The key of one direction, `info` naming it (`handshake::key_info`).
fn key(secret: &[u8], info: &str) -> [u8; 32] {
    hkdf_key(handshake::SEAL_SALT, secret, info)
}

/// A 256-bit key by HKDF over SHA-256.
pub(super) fn hkdf_key(salt: &str, ikm: &[u8], info: &str) -> [u8; 32] {
    let mut key = [0; 32];
    Hkdf::<Sha256>::new(Some(salt.as_bytes()), ikm)
        .expand(info.as_bytes(), &mut key)
        .expect("32 bytes is a valid HKDF length");
    key
}

struct Counted {
    cipher: Aes256Gcm,
    count: u64,
}

impl Counted {
    fn new(key: &[u8; 32]) -> Self {
        Counted {
            cipher: Aes256Gcm::new(key.into()),
            count: 0,
        }
    }

    /// The next frame's nonce: four zero bytes, then the count, big-endian.
    fn next(&mut self) -> Nonce<aes_gcm::aead::consts::U12> {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&self.count.to_be_bytes());
        // 2^64 frames would take millennia at the relay's rate ceiling; wrapping would reuse a
        // nonce, so the count stops there and every later frame fails to open.
        self.count = self.count.saturating_add(1);
        nonce.into()
    }
}

/// Seals the frames one end sends, in order.
pub struct Sealer(Counted);

impl Sealer {
    pub fn seal(&mut self, frame: &[u8]) -> Vec<u8> {
        let nonce = self.0.next();
        self.0
            .cipher
            .encrypt(&nonce, frame)
            .expect("AES-GCM seals any frame under 64 GiB")
    }
}

/// Opens the frames one end receives, in order.
pub struct Opener(Counted);

/// A frame that did not open under the next count: altered, forged, replayed, reordered, or one
/// went missing before it. The link cannot go on after it.
#[derive(Clone, Copy, Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "a frame did not open with this link's key: something on the path altered, added, dropped or replayed one"
)]
pub struct Unsealed;

impl Opener {
    pub fn open(&mut self, sealed: &[u8]) -> Result<Vec<u8>, Unsealed> {
        let nonce = self.0.next();
        self.0.cipher.decrypt(&nonce, sealed).map_err(|_| Unsealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(role: Role) -> (Keys, Keys) {
        let (n, c) = ("n0nce", "cn0nce");
        (
            Keys::derive(b"secret", role, 47311, n, c, End::Peer),
            Keys::derive(b"secret", role, 47311, n, c, End::Relay),
        )
    }

    /// Both directions of both kinds of peer: what one end seals the other opens, in order.
    #[test]
    fn each_direction_opens_what_the_other_end_sealed_in_order() {
        for role in [Role::Controller, Role::Browser] {
            let (mut peer, mut relay) = pair(role);
            for i in 0..3 {
                let up = format!("up {i}");
                let sealed = peer.seal.seal(up.as_bytes());
                assert_eq!(sealed.len(), up.len() + OVERHEAD);
                assert!(
                    !sealed.windows(2).any(|w| w == b"up"),
                    "sealed text is not readable"
                );
                assert_eq!(relay.open.open(&sealed).unwrap(), up.as_bytes());
                let down = format!("down {i}");
                let sealed = relay.seal.seal(down.as_bytes());
                assert_eq!(peer.open.open(&sealed).unwrap(), down.as_bytes());
            }
        }
    }

    #[test]
    fn a_flipped_bit_is_refused_in_either_direction() {
        let (mut peer, mut relay) = pair(Role::Browser);
        let mut sealed = peer.seal.seal(b"{\"t\":\"pong\"}");
        sealed[3] ^= 1;
        assert_eq!(relay.open.open(&sealed), Err(Unsealed));
        let mut sealed = relay.seal.seal(b"{\"t\":\"ping\"}");
        *sealed.last_mut().unwrap() ^= 0x80;
        assert_eq!(peer.open.open(&sealed), Err(Unsealed));
    }

    #[test]
    fn a_replayed_frame_is_refused_in_either_direction() {
        let (mut peer, mut relay) = pair(Role::Controller);
        let sealed = peer.seal.seal(b"call");
        assert!(relay.open.open(&sealed).is_ok());
        assert_eq!(relay.open.open(&sealed), Err(Unsealed));
        let sealed = relay.seal.seal(b"result");
        assert!(peer.open.open(&sealed).is_ok());
        assert_eq!(peer.open.open(&sealed), Err(Unsealed));
    }

    #[test]
    fn a_dropped_frame_is_noticed_at_the_next_in_either_direction() {
        let (mut peer, mut relay) = pair(Role::Browser);
        let _dropped = peer.seal.seal(b"first");
        assert_eq!(relay.open.open(&peer.seal.seal(b"second")), Err(Unsealed));
        let _dropped = relay.seal.seal(b"first");
        assert_eq!(peer.open.open(&relay.seal.seal(b"second")), Err(Unsealed));
    }

    /// The extension seals with WebCrypto (`extension/sw/seal.js`); its test holds it to this
    /// same frame, so the two ends cannot drift apart unnoticed.
    #[test]
    fn the_extension_and_this_end_seal_alike() {
        let mut peer = Keys::derive(
            b"s3cret",
            Role::Browser,
            47311,
            "n0nce",
            "cn0nce",
            End::Peer,
        );
        let sealed = peer.seal.seal(br#"{"t":"pong"}"#);
        assert_eq!(
            hex::encode(sealed),
            "b307f355a9203e5835d817853b1d1eef04a36dd3c9ec2da4f925b099"
        );
    }

    /// A frame of one direction sent back the other way, or one from another socket (another
    /// nonce, port or role), does not open.
    #[test]
    fn keys_are_apart_per_direction_socket_port_and_role() {
        let (mut peer, _) = pair(Role::Browser);
        let sealed = peer.seal.seal(b"x");
        let mut reflected = Keys::derive(
            b"secret",
            Role::Browser,
            47311,
            "n0nce",
            "cn0nce",
            End::Peer,
        );
        assert_eq!(reflected.open.open(&sealed), Err(Unsealed));
        for (role, port, nonce) in [
            (Role::Controller, 47311, "n0nce"),
            (Role::Browser, 47312, "n0nce"),
            (Role::Browser, 47311, "other"),
        ] {
            let mut other = Keys::derive(b"secret", role, port, nonce, "cn0nce", End::Relay);
            assert_eq!(other.open.open(&sealed), Err(Unsealed));
        }
        let mut wrong = Keys::derive(
            b"guess",
            Role::Browser,
            47311,
            "n0nce",
            "cn0nce",
            End::Relay,
        );
        assert_eq!(wrong.open.open(&sealed), Err(Unsealed));
    }
}
