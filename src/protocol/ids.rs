//! The ids the relay, the controllers and the extension pass around, each its own type so one
//! cannot go where another belongs (a tab's id where a browser's goes, an agent's public id where
//! the key to its books goes). Each is `#[serde(transparent)]`, so the JSON on the wire and the
//! tools' schemas are those of the bare value.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

/// A tab, by the id its browser gives it (Chrome's `tabs.Tab.id`); unique within one browser.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TabId(pub i64);

/// A connected browser, by the stable id its extension stores (or the relay gives one that has
/// none). Not its label: a call may name a browser by either (`Target::browser`).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BrowserId(pub String);

/// The key the relay files an agent's books under (src/relay/sessions.rs): it lets a process
/// join those books, so it goes only to the browsers (as a call's owner), never to other agents.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentKey(pub String);

/// An agent as others see it: a short digest of its `AgentKey`, stable while the agent lives.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentId(pub String);

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
}
