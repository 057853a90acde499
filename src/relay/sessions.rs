//! Whose books a controller's connection keeps: the key the relay files an agent's tabs under.
//! A named session (the CLI's) is keyed by its name and the key the controller holds for it
//! (from the owner-only state dir), so naming it is not enough to join it. An agent with an
//! instance identity (`TABPILOT_INSTANCE`, or its MCP client and project) is keyed by it, so one
//! that restarts within the grace period finds its tabs again; while an agent with that identity
//! is connected, another is keyed by its link's own key instead (two agents never share books by
//! accident). An agent that names neither is keyed by its link's own key, kept for its
//! reconnections; without a key, by one nobody can guess.

use std::time::Duration;

use sha2::Digest;

use crate::protocol::{PeerInfo, auth};

/// How long an agent's tabs wait for it after its last connection drops: long enough for an MCP
/// client to restart its server.
pub(super) const GRACE: Duration = Duration::from_secs(10);

/// The books of a named session are kept under this prefix; they outlive connections.
const NAMED: &str = "named:";

pub(super) fn key_of(info: &PeerInfo) -> String {
    match (&info.session, &info.session_key, &info.instance) {
        (Some(name), Some(key), _) => {
            let digest = sha2::Sha256::digest(format!("{name}\0{key}"));
            format!("{NAMED}{}", hex::encode(digest))
        }
        (None, _, Some(instance)) => {
            let digest = sha2::Sha256::digest(format!("instance\0{instance}"));
            format!("agent:{}", hex::encode(digest))
        }
        _ => own_key(info),
    }
}

/// The key of the link alone: what an agent is filed under when its identity is taken.
pub(super) fn own_key(info: &PeerInfo) -> String {
    match &info.session_key {
        Some(key) => format!("agent:{}", hex::encode(sha2::Sha256::digest(key))),
        None => format!("agent:{}", auth::nonce()),
    }
}

/// How others see an agent: a short digest of its books' key (the key lets a process join them,
/// so it is never shown).
pub(super) fn short_id(session: &str) -> String {
    hex::encode(&sha2::Sha256::digest(session)[..4])
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
    fn an_instance_is_found_again_by_its_identity_from_any_link() {
        let with = |instance: &str, key: &str| PeerInfo {
            instance: Some(instance.into()),
            ..info(None, Some(key))
        };
        assert_eq!(
            key_of(&with("claude-code /p", "k1")),
            key_of(&with("claude-code /p", "k2"))
        );
        assert_ne!(
            key_of(&with("claude-code /p", "k1")),
            key_of(&with("cursor /p", "k1"))
        );
        assert_eq!(
            own_key(&with("claude-code /p", "k1")),
            key_of(&info(None, Some("k1")))
        );
        assert!(!is_named(&key_of(&with("x", "k"))));
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
