//! Whose books a controller's connection keeps: the key the relay files an agent's tabs under.
//! A named session (the CLI's) is keyed by its name and the key the controller holds for it
//! (from the owner-only state dir), so naming it is not enough to join it. Any other agent is
//! keyed by a digest of its link's key, which it proves by holding it: the same on every
//! reconnection of its process and after a relay restart, and never a name two agents could share
//! (a server its client restarts takes its predecessor's key only on evidence of its own,
//! src/link/identity.rs). Without a key, by one nobody can guess.

use std::time::Duration;

use sha2::Digest;

use crate::protocol::{AgentId, AgentKey, PeerInfo, auth};

/// How long an agent's tabs wait for it after its last connection drops: long enough for an MCP
/// client to restart its server.
pub(super) const GRACE: Duration = Duration::from_secs(10);

/// The books of a named session are kept under this prefix; they outlive connections.
const NAMED: &str = "named:";

pub(super) fn key_of(info: &PeerInfo) -> AgentKey {
    let key = match (&info.session, &info.session_key) {
        (Some(name), Some(key)) => {
            let digest = sha2::Sha256::digest(format!("{name}\0{key}"));
            format!("{NAMED}{}", hex::encode(digest))
        }
        (_, Some(key)) => format!("agent:{}", hex::encode(sha2::Sha256::digest(key))),
        (_, None) => format!("agent:{}", auth::nonce()),
    };
    AgentKey(key)
}

/// How others see an agent: a short digest of its books' key (the key lets a process join them,
/// so it is never shown).
pub(super) fn short_id(session: &AgentKey) -> AgentId {
    AgentId(hex::encode(&sha2::Sha256::digest(session.as_str())[..4]))
}

pub(super) fn is_named(key: &AgentKey) -> bool {
    key.as_str().starts_with(NAMED)
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
        let named_alike = PeerInfo {
            name: "claude-code".into(),
            ..info(None, Some("k2"))
        };
        assert_ne!(
            key_of(&PeerInfo {
                name: "claude-code".into(),
                ..info(None, Some("k1"))
            }),
            key_of(&named_alike),
            "two agents of one name shared books"
        );
        assert_eq!(a, key_of(&info(None, Some("k1"))));
        assert_ne!(a, key_of(&info(None, Some("k2"))));
        assert_ne!(key_of(&info(None, None)), key_of(&info(None, None)));
        assert!(!is_named(&a));
    }
}
