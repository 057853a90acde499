//! Whose books a controller's connection keeps: the key the relay files an agent's tabs under.
//! A named session (the CLI's) is keyed by its name and the key the controller holds for it
//! (from the owner-only state dir), so naming it is not enough to join it. An agent that names
//! none is keyed by its link's own key, kept for its reconnections; without a key, by one nobody
//! can guess.

use std::time::Duration;

use sha2::Digest;

use crate::protocol::{PeerInfo, auth};

/// How long an agent's tabs wait for it after its last connection drops.
pub(super) const GRACE: Duration = Duration::from_secs(5);

/// The books of a named session are kept under this prefix; they outlive connections.
const NAMED: &str = "named:";

pub(super) fn key_of(info: &PeerInfo) -> String {
    match (&info.session, &info.session_key) {
        (Some(name), Some(key)) => {
            let digest = sha2::Sha256::digest(format!("{name}\0{key}"));
            format!("{NAMED}{}", hex::encode(digest))
        }
        (None, Some(key)) => format!("agent:{}", hex::encode(sha2::Sha256::digest(key))),
        _ => format!("agent:{}", auth::nonce()),
    }
}

pub(super) fn is_named(key: &str) -> bool {
    key.starts_with(NAMED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(session: Option<&str>, key: Option<&str>) -> PeerInfo {
        PeerInfo {
            session: session.map(String::from),
            session_key: key.map(String::from),
            ..PeerInfo::default()
        }
    }

    #[test]
    fn a_name_is_joined_only_with_its_key() {
        let cli = key_of(&info(Some("cli"), Some("k")));
        assert!(is_named(&cli));
        assert_eq!(cli, key_of(&info(Some("cli"), Some("k"))));
        assert_ne!(cli, key_of(&info(Some("cli"), Some("other"))));
        assert_ne!(cli, key_of(&info(Some("cli"), None)));
        assert!(!is_named(&key_of(&info(Some("cli"), None))));
    }

    #[test]
    fn an_agent_is_found_again_by_its_own_key_only() {
        let a = key_of(&info(None, Some("k1")));
        assert_eq!(a, key_of(&info(None, Some("k1"))));
        assert_ne!(a, key_of(&info(None, Some("k2"))));
        assert_ne!(key_of(&info(None, None)), key_of(&info(None, None)));
        assert!(!is_named(&a));
    }
}
