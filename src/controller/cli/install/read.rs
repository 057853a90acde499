//! What a client's config says of tabpilot, read back for `tabpilot doctor`: how it starts or
//! reaches tabpilot, and whether it holds the HTTP token itself.

use serde_json::Value;

use super::{Client, NAME};

/// How a client's config starts tabpilot.
#[derive(Debug, PartialEq)]
pub(in crate::controller::cli) enum Listed {
    /// A command to run (empty when the entry names none).
    Command(String),
    Url(String),
}

/// tabpilot's entry in a client's config text, if it has one.
pub(in crate::controller::cli) fn listed(
    client: Client,
    text: &str,
) -> anyhow::Result<Option<Listed>> {
    let field = |f: Option<&str>| f.map(str::to_string);
    let (command, url) = match client.servers_key() {
        Some(key) => {
            let config: Value = serde_json::from_str(text)?;
            let Some(e) = config.get(key).and_then(|s| s.get(NAME)) else {
                return Ok(None);
            };
            let url = e.get("url").or_else(|| e.get("httpUrl"));
            (
                field(e["command"].as_str()),
                field(url.and_then(Value::as_str)),
            )
        }
        None => {
            let doc: toml_edit::DocumentMut = text.parse()?;
            let Some(e) = doc.get("mcp_servers").and_then(|s| s.get(NAME)) else {
                return Ok(None);
            };
            let get = |f: &str| e.get(f).and_then(toml_edit::Item::as_str);
            (field(get("command")), field(get("url")))
        }
    };
    Ok(Some(match (command, url) {
        (Some(c), _) => Listed::Command(c),
        (None, Some(u)) => Listed::Url(u),
        (None, None) => Listed::Command(String::new()),
    }))
}

/// The token tabpilot's entry in a client's config holds itself (a literal `Authorization`
/// header), if it holds one rather than a reference to a variable.
pub(in crate::controller::cli) fn literal_token(client: Client, text: &str) -> Option<String> {
    let header = match client.servers_key() {
        Some(key) => {
            let config: Value = serde_json::from_str(text).ok()?;
            let e = config.get(key)?.get(NAME)?;
            e.get("headers")?
                .get("Authorization")?
                .as_str()?
                .to_string()
        }
        None => {
            let doc: toml_edit::DocumentMut = text.parse().ok()?;
            let e = doc.get("mcp_servers")?.get(NAME)?;
            e.get("http_headers")?
                .get("Authorization")?
                .as_str()?
                .to_string()
        }
    };
    let token = header.strip_prefix("Bearer ").unwrap_or(&header).trim();
    (!token.is_empty() && !token.contains('$')).then(|| token.to_string())
}
