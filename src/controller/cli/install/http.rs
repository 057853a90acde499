//! `tabpilot install CLIENT --http`: which URL the client is given, and how it gets the token.
//!
//! The URL is that of a server that is running, found from its record in the state directory
//! and its proof that it holds the token, else the default address; an address held by a
//! program that cannot prove it holds the token is refused, since the client would send the
//! token there. The token stays out of the config: each client's file refers to
//! `TABPILOT_TOKEN` in its environment, in the client's own syntax. `--token-in-config`
//! writes the token itself, and the file is then made owner-only (0600).

use std::path::Path;

use super::Client;
use crate::controller::mcp::http::proof::{self, Found};
use crate::shared::settings::Setting;

/// A URL the token must not go to.
#[derive(Debug, thiserror::Error)]
#[error(
    "{url} is held by {holder}, which cannot prove it holds tabpilot's token: a client \
     configured for it would send the token there, so nothing was written. Stop that program, \
     or serve elsewhere: `tabpilot mcp --http 127.0.0.1:PORT`, then `tabpilot install {client} \
     --http http://127.0.0.1:PORT/mcp`"
)]
pub(in crate::controller::cli) struct TokenWouldLeak {
    pub url: String,
    pub holder: String,
    pub client: &'static str,
}

/// What answers at `url`, or the refusal when it is not ours.
pub(in crate::controller::cli) fn judge(
    url: &str,
    token: &str,
    client: Client,
) -> Result<Found, TokenWouldLeak> {
    judge_cert(url, token, client).map(|(found, _)| found)
}

/// [`judge`], with the fingerprint of the certificate an `https://` server proved it serves with.
fn judge_cert(
    url: &str,
    token: &str,
    client: Client,
) -> Result<(Found, Option<String>), TokenWouldLeak> {
    match proof::probe_cert(url, token) {
        (Found::Other(holder), _) => Err(TokenWouldLeak {
            url: url.to_string(),
            holder: holder.map_or_else(
                || "a program the system does not name".to_string(),
                |h| h.to_string(),
            ),
            client: client.name(),
        }),
        found => Ok(found),
    }
}

/// The URL to write: the one given (checked), else a running server's, else the default.
pub(super) fn url_for(given: &str, token: &str, client: Client) -> anyhow::Result<String> {
    let default = format!(
        "http://{}/mcp",
        crate::controller::mcp::http::default_addr()?
    );
    let running = crate::controller::mcp::http::recorded_url()
        .filter(|url| given.is_empty() && proof::probe(url, token) == Found::Ours);
    let url = match (given, running) {
        ("", Some(url)) => url,
        ("", None) => default.clone(),
        (url, _) => url.to_string(),
    };
    match judge_cert(&url, token, client)? {
        (Found::Ours, None) => {
            println!("{url}: a tabpilot mcp --http answers there with this token")
        }
        (Found::Ours, Some(cert)) => println!(
            "{url}: a tabpilot mcp --http --tls answers there with this token, serving the \
             certificate with the SHA-256 fingerprint {cert} (the one it printed at start)"
        ),
        _ => println!(
            "{url}: nothing answers there yet; `tabpilot mcp --http{}` serves it (and refuses to \
             start, naming who holds the port, if another program does)",
            if url == default {
                String::new()
            } else {
                proof::host_port(&url).map_or(String::new(), |(h, p)| format!(" {h}:{p}"))
            }
        ),
    }
    Ok(url)
}

/// How the client's config refers to `TABPILOT_TOKEN` in its environment, in the client's own
/// syntax (Codex names the variable in a field of its own).
pub(super) fn env_reference(client: Client) -> String {
    let name = Setting::Token;
    match client {
        Client::Cursor | Client::Vscode => format!("${{env:{name}}}"),
        // Claude Desktop is never given a URL (install refuses --http for it).
        Client::Claude | Client::ClaudeDesktop | Client::Gemini | Client::Codex => {
            format!("${{{name}}}")
        }
    }
}

/// What the person does next so that the client has the token.
pub(super) fn after(client: Client, in_config: bool) {
    if in_config {
        return;
    }
    let name = Setting::Token;
    println!(
        "{} reads the token from {name} in its environment: the config refers to it and holds \
         no token.",
        client.name()
    );
    if Setting::Token.get().is_some() {
        println!("{name} is set here: give the client the same value the server sees.");
        return;
    }
    let file = crate::shared::state::state_dir().join("http-token");
    println!(
        "Set it where the client starts without writing the token into a file others can read, \
         e.g. in your shell's startup file:\n  {}\n(or `--token-in-config` \
         to write the token into the config, made owner-only)",
        crate::shared::platform::shell::set_from_file(&name.to_string(), &quoted(&file))
    );
}

fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_refers_to_the_variable_in_its_own_syntax() {
        assert_eq!(env_reference(Client::Cursor), "${env:TABPILOT_TOKEN}");
        assert_eq!(env_reference(Client::Vscode), "${env:TABPILOT_TOKEN}");
        assert_eq!(env_reference(Client::Claude), "${TABPILOT_TOKEN}");
        assert_eq!(env_reference(Client::Gemini), "${TABPILOT_TOKEN}");
    }
}
