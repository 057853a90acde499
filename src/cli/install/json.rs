//! The JSON clients' files (Claude Code, Cursor, VS Code, Gemini): tabpilot's entry in each
//! client's shape, written into the client's list of servers with every other value carried
//! over as its own text.

use anyhow::Context;
use indexmap::IndexMap;
use serde::Serialize;
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
    let top: IndexMap<String, Box<RawValue>> = if old.trim().is_empty() {
        IndexMap::new()
    } else {
        serde_json::from_str(old).context("the file is not a JSON object")?
    };
    let mut servers: IndexMap<String, Node> = match top.get(key) {
        Some(raw) => serde_json::from_str::<IndexMap<String, Box<RawValue>>>(raw.get())
            .with_context(|| format!("\"{key}\" is not an object"))?
            .into_iter()
            .map(|(k, v)| (k, Node::Raw(v)))
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
    let mut out: IndexMap<String, Node> = top.into_iter().map(|(k, v)| (k, Node::Raw(v))).collect();
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
