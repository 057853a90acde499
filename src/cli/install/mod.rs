//! `tabpilot install CLIENT` and `tabpilot uninstall CLIENT`: tabpilot's entry in an MCP client's
//! own config file, for the running binary. The change is shown as a diff before it is written
//! (`--dry-run` stops there). Only the `tabpilot` entry is touched: the client's other servers and
//! settings keep their order and text (JSON values are carried over verbatim, TOML through
//! `toml_edit`), so an uninstall gives back what an install found. An entry for `tabpilot mcp
//! --http` refers to the token rather than holding it (http.rs).

mod http;
mod read;

use std::fs;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::settings::Setting;

pub(super) use http::judge as judge_url;
pub(super) use read::{Listed, listed, literal_token};

/// The entry's name in every client's list of servers.
const NAME: &str = "tabpilot";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Client {
    /// Claude Code (~/.claude.json)
    Claude,
    /// Cursor (~/.cursor/mcp.json)
    Cursor,
    /// VS Code, user settings (~/.config/Code/User/mcp.json)
    Vscode,
    /// Codex (~/.codex/config.toml, or $CODEX_HOME)
    Codex,
    /// Gemini CLI (~/.gemini/settings.json)
    Gemini,
}

#[derive(Args)]
pub(super) struct InstallArgs {
    client: Client,
    /// The server launches a managed Chromium when no browser is connected.
    #[arg(long)]
    launch: bool,
    /// With --launch: headless.
    #[arg(long)]
    headless: bool,
    /// Connect to `tabpilot mcp --http` at URL instead of starting a server (default: the one
    /// running, else 127.0.0.1:47320); the client sends the token from TABPILOT_TOKEN in its
    /// environment, and a URL held by another program is refused.
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = "")]
    http: Option<String>,
    /// With --http: write the token itself into the config, which is then made owner-only
    /// (0600), for a client that cannot read it from its environment.
    #[arg(long, requires = "http")]
    token_in_config: bool,
    /// The tool profile (TABPILOT_TOOLS): full, core, slim, or a list.
    #[arg(long, value_name = "PROFILE")]
    tools: Option<String>,
    /// Refuse every tool that changes a page (TABPILOT_READ_ONLY).
    #[arg(long)]
    read_only: bool,
    /// Refuse the agent's own scripts (TABPILOT_NO_EVAL).
    #[arg(long)]
    no_eval: bool,
    /// The only origins agents may drive (TABPILOT_ALLOW_ORIGINS).
    #[arg(long, value_name = "PATTERNS")]
    allow_origins: Option<String>,
    /// Origins agents never drive (TABPILOT_DENY_ORIGINS).
    #[arg(long, value_name = "PATTERNS")]
    deny_origins: Option<String>,
    /// Show the change without writing it.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub(super) struct UninstallArgs {
    client: Client,
    /// Show the change without writing it.
    #[arg(long)]
    dry_run: bool,
}

/// What the client is told to run or reach.
#[derive(Debug, PartialEq)]
enum Entry {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
    /// The token itself (`--token-in-config`), or none: the config refers to
    /// `TABPILOT_TOKEN` in the client's environment.
    Http { url: String, token: Option<String> },
}

pub(super) fn install(a: &InstallArgs) -> anyhow::Result<ExitCode> {
    let entry = entry(a)?;
    let path = config_path(a.client, &home()?);
    let secret = match &entry {
        Entry::Http { token, .. } => token.as_deref(),
        Entry::Stdio { .. } => None,
    };
    change(a.client, &path, Some(&entry), a.dry_run, secret)?;
    if let Entry::Http { token, .. } = &entry {
        http::after(a.client, token.is_some());
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn uninstall(a: &UninstallArgs) -> anyhow::Result<ExitCode> {
    let path = config_path(a.client, &home()?);
    change(a.client, &path, None, a.dry_run, None)?;
    Ok(ExitCode::SUCCESS)
}

fn entry(a: &InstallArgs) -> anyhow::Result<Entry> {
    let mut env = Vec::new();
    let mut set = |setting: Setting, value: Option<&str>| {
        if let Some(v) = value {
            env.push((setting.to_string(), v.to_string()));
        }
    };
    set(Setting::Tools, a.tools.as_deref());
    set(Setting::ReadOnly, a.read_only.then_some("1"));
    set(Setting::NoEval, a.no_eval.then_some("1"));
    set(Setting::AllowOrigins, a.allow_origins.as_deref());
    set(Setting::DenyOrigins, a.deny_origins.as_deref());
    if let Some(url) = &a.http {
        if !env.is_empty() || a.launch || a.headless {
            bail!(
                "with --http the client reaches a server already running: give --launch, --headless, \
                 the profile and the policy to `tabpilot mcp --http` instead"
            );
        }
        let token = crate::mcp::http_token()?;
        return Ok(Entry::Http {
            url: http::url_for(url, &token, a.client)?,
            token: a.token_in_config.then_some(token),
        });
    }
    let exe = std::env::current_exe().context("finding this tabpilot binary")?;
    let mut args = vec!["mcp".to_string()];
    if a.launch {
        args.push("--launch".into());
    }
    if a.headless {
        args.push("--headless".into());
    }
    Ok(Entry::Stdio {
        command: exe.display().to_string(),
        args,
        env,
    })
}

fn home() -> anyhow::Result<PathBuf> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .context("HOME is not set: cannot find the client's config")
}

/// The client's config file under `home`.
pub(super) fn config_path(client: Client, home: &Path) -> PathBuf {
    let from = |var: &str, default: &str| {
        std::env::var_os(var)
            .filter(|d| !d.is_empty())
            .map_or_else(|| home.join(default), PathBuf::from)
    };
    match client {
        Client::Claude => home.join(".claude.json"),
        Client::Cursor => home.join(".cursor/mcp.json"),
        Client::Vscode => from("XDG_CONFIG_HOME", ".config").join("Code/User/mcp.json"),
        Client::Codex => from("CODEX_HOME", ".codex").join("config.toml"),
        Client::Gemini => home.join(".gemini/settings.json"),
    }
}

impl Client {
    pub(super) const ALL: [Client; 5] = [
        Client::Claude,
        Client::Cursor,
        Client::Vscode,
        Client::Codex,
        Client::Gemini,
    ];

    /// Its name on the command line.
    pub(super) fn name(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Cursor => "cursor",
            Client::Vscode => "vscode",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
        }
    }

    /// The key of its JSON config's servers; none for Codex's TOML.
    fn servers_key(self) -> Option<&'static str> {
        match self {
            Client::Vscode => Some("servers"),
            Client::Codex => None,
            _ => Some("mcpServers"),
        }
    }
}

/// Shows the change to `path` as a diff (with `secret` written as `<token>`), and writes it
/// unless `dry_run`: owner-only when it holds `secret`. `entry` none removes tabpilot's entry.
fn change(
    client: Client,
    path: &Path,
    entry: Option<&Entry>,
    dry_run: bool,
    secret: Option<&str>,
) -> anyhow::Result<()> {
    let old = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let new = edited(client, &old, entry).with_context(|| format!("in {}", path.display()))?;
    if new == old {
        println!("{}: nothing to change", path.display());
        return Ok(());
    }
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .header(&shown, &shown)
        .to_string();
    print!(
        "{}",
        secret.map_or(diff.clone(), |s| diff.replace(s, "<token>"))
    );
    if dry_run {
        println!("(dry run: {} not written)", path.display());
        return Ok(());
    }
    match write(path, &new, secret.is_some())? {
        Some(was) if was != 0o600 => println!(
            "wrote {} and made it owner-only (0600, it was {was:o}): it holds the token",
            path.display()
        ),
        Some(_) => println!("wrote {} (owner-only: it holds the token)", path.display()),
        None => println!("wrote {}", path.display()),
    }
    Ok(())
}

/// The file's new text (empty: the file goes).
fn edited(client: Client, old: &str, entry: Option<&Entry>) -> anyhow::Result<String> {
    match client.servers_key() {
        Some(key) => edited_json(old, key, entry.map(|e| json_entry(client, e)).as_ref()),
        None => edited_toml(old, entry),
    }
}

/// The entry as the JSON clients write it.
fn json_entry(client: Client, entry: &Entry) -> Value {
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

fn edited_json(old: &str, key: &str, entry: Option<&Value>) -> anyhow::Result<String> {
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

fn edited_toml(old: &str, entry: Option<&Entry>) -> anyhow::Result<String> {
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

/// Writes `text` in place of `path` (or removes it when empty), keeping the file's mode, or
/// owner-only (0600) when it is `private` (it holds a token; then the mode it had is returned);
/// a new file is owner-only.
fn write(path: &Path, text: &str, private: bool) -> anyhow::Result<Option<u32>> {
    if text.is_empty() {
        fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
        return Ok(None);
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    }
    let was = fs::metadata(path).map_or(0o600, |m| m.permissions().mode() & 0o777);
    let mode = if private { 0o600 } else { was };
    let tmp = path.with_extension(format!("tabpilot-{}", std::process::id()));
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&tmp)
        .with_context(|| format!("writing {}", tmp.display()))?;
    // The mode asked for, whatever the umask took from it.
    file.set_permissions(fs::Permissions::from_mode(mode))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(private.then_some(was))
}

#[cfg(test)]
mod tests;
