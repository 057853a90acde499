//! Codex's TOML file, edited through `toml_edit` so that its comments, order and layout stay.

use anyhow::Context;

use super::{Entry, NAME};
use crate::settings::Setting;

pub(super) fn edited_toml(old: &str, entry: Option<&Entry>) -> anyhow::Result<String> {
    use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};
    let mut doc: DocumentMut = old.parse().context("the file is not TOML")?;
    let Some(entry) = entry else {
        let Some(servers) = doc.get_mut("mcp_servers").and_then(Item::as_table_like_mut) else {
            return Ok(old.to_string());
        };
        if servers.remove(NAME).is_none() {
            return Ok(old.to_string());
        }
        if servers.is_empty() {
            doc.remove("mcp_servers");
        }
        return Ok(doc.to_string());
    };
    let mut t = Table::new();
    match entry {
        Entry::Stdio { command, args, env } => {
            t["command"] = value(command.as_str());
            t["args"] = value(args.iter().map(String::as_str).collect::<Array>());
            if !env.is_empty() {
                let mut e = InlineTable::new();
                for (k, v) in env {
                    e.insert(k, v.as_str().into());
                }
                t["env"] = value(e);
            }
        }
        // Codex names the variable holding the token in a field of its own.
        Entry::Http { url, token } => {
            t["url"] = value(url.as_str());
            match token {
                None => t["bearer_token_env_var"] = value(Setting::Token.to_string()),
                Some(token) => {
                    let mut h = InlineTable::new();
                    h.insert("Authorization", format!("Bearer {token}").into());
                    t["http_headers"] = value(h);
                }
            }
        }
    }
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut s = Table::new();
            s.set_implicit(true);
            Item::Table(s)
        })
        .as_table_like_mut()
        .context("mcp_servers is not a table")?;
    servers.insert(NAME, Item::Table(t));
    Ok(doc.to_string())
}
