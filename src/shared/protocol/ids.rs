//! The ids the relay, the controllers and the extension pass around, each its own type so one
//! cannot go where another belongs (a tab's id where a browser's goes, an agent's public id where
//! the key to its books goes). Each is `#[serde(transparent)]`, so the JSON on the wire and the
//! tools' schemas are those of the bare value.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::{PeerInfo, auth};

/// A tab, by the id its browser gives it (Chrome's `tabs.Tab.id`); unique within one browser.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TabId(pub i64);

/// A connected browser, by the stable id its extension stores (or the relay gives one that has
/// none). Not its label: a call may name a browser by either (`Target::browser`).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BrowserId(pub String);

/// The key the relay files an agent's books under (src/relay/books.rs): it lets a process
/// join those books, so it goes only to the browsers (as a call's owner), never to other agents.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentKey(pub String);

/// An agent as others see it: a short digest of its `AgentKey`, stable while the agent lives.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentId(pub String);

/// The books of a named session are kept under this prefix; they outlive connections.
const NAMED: &str = "named:";

impl AgentKey {
    /// Whose books a controller's connection keeps: the key the relay files an agent's tabs
    /// under. A named session (the CLI's) is keyed by its name and the key the controller holds
    /// for it (from the owner-only state dir), so naming it is not enough to join it. Any other
    /// agent is keyed by a digest of its link's key, which it proves by holding it: the same on
    /// every reconnection of its process and after a relay restart, and never a name two agents
    /// could share (a server its client restarts takes its predecessor's key only on evidence of
    /// its own, src/controller/link/identity.rs). Without a key, by one nobody can guess.
    pub fn of(info: &PeerInfo) -> AgentKey {
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

    /// How others see the agent: a short digest of its key (the key lets a process join its
    /// books, so it is never shown).
    pub fn short_id(&self) -> AgentId {
        AgentId(hex::encode(&sha2::Sha256::digest(self.as_str())[..4]))
    }

    /// A named session's books, which outlive its connections.
    pub fn is_named(&self) -> bool {
        self.as_str().starts_with(NAMED)
    }
}

impl AgentId {
    /// How the relay and the dashboard name the agent a link's peer info makes.
    pub fn of(info: &PeerInfo) -> AgentId {
        AgentKey::of(info).short_id()
    }
}

/// Gives each id the schema of its bare value, inline: a derived one would be a `$defs` entry of
/// its own, with its doc comment, and change every tool's schema that holds one.
macro_rules! transparent_schema {
    ($($id:ty => $bare:ty),*) => {
        $(impl JsonSchema for $id {
            fn inline_schema() -> bool {
                <$bare>::inline_schema()
            }

            fn schema_name() -> Cow<'static, str> {
                <$bare>::schema_name()
            }

            fn schema_id() -> Cow<'static, str> {
                <$bare>::schema_id()
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                <$bare>::json_schema(generator)
            }
        })*
    };
}

transparent_schema!(TabId => i64, BrowserId => String, AgentId => String);

/// Writes each id as its bare value, so a message or an assertion reads as it did with the bare
/// type (`tab 7`, `"b1"`), never `TabId(7)`.
macro_rules! fmt_as_bare {
    ($trait:ident => $($id:ty),*) => {
        $(impl fmt::$trait for $id {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::$trait::fmt(&self.0, f)
            }
        })*
    };
}

fmt_as_bare!(Debug => TabId, BrowserId, AgentKey, AgentId);
// Not the key: it lets a process join an agent's books, and is shown to nobody.
fmt_as_bare!(Display => TabId, BrowserId, AgentId);

impl BrowserId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AgentKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The ids are their bare values on the wire and in the schemas.
    #[test]
    fn ids_are_transparent() {
        assert_eq!(serde_json::to_value(TabId(7)).unwrap(), json!(7));
        let b: BrowserId = serde_json::from_value(json!("b1")).unwrap();
        assert_eq!(b, BrowserId("b1".into()));
        let schema = |s: schemars::Schema| serde_json::to_value(s).unwrap();
        assert_eq!(
            schema(schemars::schema_for!(TabId)),
            schema(schemars::schema_for!(i64))
        );
        assert_eq!(
            schema(schemars::schema_for!(Option<TabId>)),
            schema(schemars::schema_for!(Option<i64>))
        );
        assert_eq!(
            schema(schemars::schema_for!(Vec<BrowserId>)),
            schema(schemars::schema_for!(Vec<String>))
        );
    }

    fn info(session: Option<&str>, key: Option<&str>) -> PeerInfo {
        PeerInfo {
            session: session.map(String::from),
            session_key: key.map(String::from),
            ..PeerInfo::default()
        }
    }

    #[test]
    fn a_name_is_joined_only_with_its_key() {
        let cli = AgentKey::of(&info(Some("cli"), Some("k")));
        assert!(cli.is_named());
        assert_eq!(cli, AgentKey::of(&info(Some("cli"), Some("k"))));
        assert_ne!(cli, AgentKey::of(&info(Some("cli"), Some("other"))));
        assert_ne!(cli, AgentKey::of(&info(Some("cli"), None)));
        assert!(!AgentKey::of(&info(Some("cli"), None)).is_named());
    }

    #[test]
    fn an_agent_is_found_again_by_its_own_key_only() {
        let a = AgentKey::of(&info(None, Some("k1")));
        let named_alike = PeerInfo {
            name: "claude-code".into(),
            ..info(None, Some("k2"))
        };
        assert_ne!(
            AgentKey::of(&PeerInfo {
                name: "claude-code".into(),
                ..info(None, Some("k1"))
            }),
            AgentKey::of(&named_alike),
            "two agents of one name shared books"
        );
        assert_eq!(a, AgentKey::of(&info(None, Some("k1"))));
        assert_ne!(a, AgentKey::of(&info(None, Some("k2"))));
        assert_ne!(
            AgentKey::of(&info(None, None)),
            AgentKey::of(&info(None, None))
        );
        assert!(!a.is_named());
    }
}
