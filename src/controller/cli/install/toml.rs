//! Codex's TOML file, edited through `toml_edit` so that its comments, order and layout stay.
//! A file that does not parse is refused with where and why, a key given twice included: TOML
//! forbids it and `toml_edit` refuses it at every level, so no value is silently dropped.

use anyhow::Context;

use super::{Entry, NAME};
use crate::shared::settings::Setting;

pub(super) fn edited_toml(old: &str, entry: Option<&Entry>) -> anyhow::Result<String> {
    use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};
    let mut doc: DocumentMut = old.parse().map_err(|e| NotToml::new(old, &e))?;
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

/// A Codex config that is not TOML, with where and why.
#[derive(Debug, thiserror::Error)]
#[error(
    "the file is not valid TOML at line {line}, column {column}: {message}{at}, so nothing was \
     written. Fix the file (Codex cannot read it either), then run this again"
)]
pub(super) struct NotToml {
    line: usize,
    column: usize,
    message: String,
    /// ` (KEY)`: the text the parser stopped at, a key given twice say.
    at: String,
}

impl NotToml {
    fn new(text: &str, e: &toml_edit::TomlError) -> NotToml {
        let span = e.span().unwrap_or(0..0);
        let before = text.get(..span.start).unwrap_or_default();
        let at = text
            .get(span)
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.contains('\n'))
            .map_or(String::new(), |t| {
                format!(" ({})", crate::shared::terminal::line(t))
            });
        NotToml {
            line: before.matches('\n').count() + 1,
            column: before
                .rsplit('\n')
                .next()
                .unwrap_or_default()
                .chars()
                .count()
                + 1,
            message: e.message().trim().to_string(),
            at,
        }
    }
}
