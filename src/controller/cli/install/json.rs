//! The JSON clients' files (Claude Code, Cursor, VS Code, Gemini): tabpilot's entry in each
//! client's shape, written into the client's list of servers with every other value carried
//! over as its own text. The two objects rebuilt (the file's top level and its list of servers)
//! are read member by member, and a key given twice in either is refused: read into a map, one
//! of the two values would silently replace the other, and the servers or settings it held would
//! be gone from the file written back.

use std::fmt;

use anyhow::Context;
use indexmap::IndexMap;
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{Client, Entry, NAME, http};

/// The entry as the JSON clients write it.
pub(super) fn json_entry(client: Client, entry: &Entry) -> Value {
    match entry {
        Entry::Stdio { command, args, env } => {
            let mut e = json!({"command": command, "args": args});
            if !env.is_empty() {
                e["env"] = env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            }
            if matches!(client, Client::Claude | Client::Vscode) {
                e["type"] = json!("stdio");
            }
            e
        }
        Entry::Http { url, token } => {
            let token = token.clone().unwrap_or_else(|| http::env_reference(client));
            let headers = json!({"Authorization": format!("Bearer {token}")});
            match client {
                Client::Gemini => json!({"httpUrl": url, "headers": headers}),
                Client::Cursor => json!({"url": url, "headers": headers}),
                _ => json!({"type": "http", "url": url, "headers": headers}),
            }
        }
    }
}

/// A JSON document as written back: the values we do not touch carried over as their own text.
#[derive(Serialize)]
#[serde(untagged)]
enum Node {
    Raw(Box<RawValue>),
    Map(IndexMap<String, Node>),
    List(Vec<Node>),
}

impl Node {
    /// A value of ours, its objects and arrays taken apart so that it is laid out like the rest.
    fn of(v: &Value) -> anyhow::Result<Node> {
        Ok(match v {
            Value::Object(o) => Node::Map(
                o.iter()
                    .map(|(k, v)| Ok((k.clone(), Node::of(v)?)))
                    .collect::<anyhow::Result<_>>()?,
            ),
            Value::Array(a) => Node::List(a.iter().map(Node::of).collect::<anyhow::Result<_>>()?),
            _ => Node::Raw(serde_json::value::to_raw_value(v)?),
        })
    }
}

pub(super) fn edited_json(old: &str, key: &str, entry: Option<&Value>) -> anyhow::Result<String> {
    let top = if old.trim().is_empty() {
        IndexMap::new()
    } else {
        let members: Members =
            serde_json::from_str(old).context("the file is not a JSON object")?;
        members.unique(old, "the file")?
    };
    let mut servers: IndexMap<String, Node> = match top.get(key) {
        Some(raw) => serde_json::from_str::<Members>(raw.get())
            .with_context(|| format!("\"{key}\" is not an object"))?
            .unique(old, &quoted(key))?
            .into_iter()
            .map(|(k, v)| (k, Node::Raw(v.to_owned())))
            .collect(),
        None => IndexMap::new(),
    };
    match entry {
        Some(e) => {
            servers.insert(NAME.to_string(), Node::of(e)?);
        }
        None => {
            if servers.shift_remove(NAME).is_none() {
                return Ok(old.to_string());
            }
        }
    }
    let mut out: IndexMap<String, Node> = top
        .into_iter()
        .map(|(k, v)| (k, Node::Raw(v.to_owned())))
        .collect();
    if servers.is_empty() {
        out.shift_remove(key);
    } else {
        out.insert(key.to_string(), Node::Map(servers));
    }
    if out.is_empty() {
        return Ok(String::new());
    }
    let mut text = serde_json::to_string_pretty(&out)?;
    if old.is_empty() || old.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// A JSON object's members in their order, a key given twice kept twice, each value as its own
/// text in the document read.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Each;
        impl<'de> Visitor<'de> for Each {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    members.push((key, map.next_value::<&RawValue>()?));
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Each)
    }
}

/// A key given twice in one object of a client's config.
#[derive(Debug, thiserror::Error)]
#[error(
    "{within} gives the key {key} twice (lines {first} and {second}): the client reads one of \
     them and tabpilot would keep only one, losing what the other holds, so nothing was written. \
     Merge the two into one, then run this again"
)]
pub(super) struct Twice {
    /// The key, quoted as JSON.
    key: String,
    /// `the file`, or the quoted key of the object it is in.
    within: String,
    first: usize,
    second: usize,
}

impl<'a> Members<'a> {
    /// The members by key, or the first key given twice, with the lines of both in `doc` (the
    /// whole file, which every value's text lies in).
    fn unique(self, doc: &str, within: &str) -> Result<IndexMap<String, &'a RawValue>, Twice> {
        let mut map: IndexMap<String, &'a RawValue> = IndexMap::new();
        for (key, value) in self.0 {
            if let Some(before) = map.get(&key) {
                return Err(Twice {
                    key: quoted(&key),
                    within: within.to_string(),
                    first: line_of_key(doc, before),
                    second: line_of_key(doc, value),
                });
            }
            map.insert(key, value);
        }
        Ok(map)
    }
}

/// The line in `doc` of the key whose value is `value` (0 if the value is not in `doc`).
fn line_of_key(doc: &str, value: &RawValue) -> usize {
    let Some(at) = (value.get().as_ptr() as usize).checked_sub(doc.as_ptr() as usize) else {
        return 0;
    };
    let Some(before) = doc.get(..at) else {
        return 0;
    };
    // Back over the colon and the space around it, to the key's closing quote.
    let key_end = before
        .trim_end()
        .strip_suffix(':')
        .unwrap_or(before)
        .trim_end();
    key_end.matches('\n').count() + 1
}

/// `key` as JSON writes it, quoted and escaped.
fn quoted(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_else(|_| format!("{key:?}"))
}
