//! `tabpilot install CLIENT` and `tabpilot uninstall CLIENT`: tabpilot's entry in an MCP client's
//! own config file, for the running binary. The change is shown as a diff before it is written
//! (`--dry-run` stops there). Only the `tabpilot` entry is touched: the client's other servers and
//! settings keep their order and text (JSON values are carried over verbatim, TOML through
//! `toml_edit`), so an uninstall gives back what an install found. An entry for `tabpilot mcp
//! --http` refers to the token rather than holding it (http.rs).

mod file;
mod http;
mod json;
mod read;
mod toml;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::shared::settings::Setting;
use file::Config;

pub(super) use http::judge as judge_url;
pub(super) use read::{Listed, listed, literal_token};

/// The entry's name in every client's list of servers.
const NAME: &str = "tabpilot";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Client {
    /// Claude Code (~/.claude.json)
    Claude,
    /// Claude Desktop (Claude/claude_desktop_config.json in the settings folder: ~/Library/Application
    /// Support on macOS, %APPDATA% on Windows, ~/.config on Linux)
    ClaudeDesktop,
    /// Cursor (~/.cursor/mcp.json)
    Cursor,
    /// VS Code, user settings (Code/User/mcp.json in the settings folder)
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
    /// running, else 127.0.0.1:47320 or TABPILOT_HTTP_PORT's port); the client sends the token from TABPILOT_TOKEN in its
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
    #[arg(required_unless_present = "all")]
    client: Option<Client>,
    /// Everything tabpilot put here: every client's entry, the service, the state dir's files
    /// (pairings, tokens, the audit trail, recordings, logs, profiles). Lists it and asks first;
    /// secrets only after a second question (or --secrets).
    #[arg(long, conflicts_with = "client")]
    pub(super) all: bool,
    /// With --all: do not ask (for scripts); secrets stay unless --secrets is given too.
    #[arg(long, requires = "all")]
    pub(super) yes: bool,
    /// With --all --yes: remove the secrets too, their values in the keyring included.
    #[arg(long, requires = "yes")]
    pub(super) secrets: bool,
    /// Show the change without writing it (with --all: list what would go, remove nothing).
    #[arg(long)]
    pub(super) dry_run: bool,
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
    let client = a.client.context("name the client, or pass --all")?;
    remove_entry(client, a.dry_run)?;
    Ok(ExitCode::SUCCESS)
}

/// Removes tabpilot's entry from `client`'s config, showing the diff (`uninstall CLIENT`, and
/// each client of `uninstall --all`).
pub(super) fn remove_entry(client: Client, dry_run: bool) -> anyhow::Result<()> {
    let path = config_path(client, &home()?);
    change(client, &path, None, dry_run, None)
}

/// The config of `client` when it holds a tabpilot entry (what [`remove_entry`] would remove).
pub(super) fn entry_in(client: Client) -> anyhow::Result<Option<PathBuf>> {
    let path = config_path(client, &home()?);
    let file = Config::read(&path)?;
    let without = edited(client, &file.text, None).with_context(|| path.display().to_string())?;
    Ok((without != file.text).then_some(path))
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
        if a.client == Client::ClaudeDesktop {
            bail!(
                "Claude Desktop starts the servers in its config as commands and reaches no URL \
                 from it: install it without --http (it then runs `tabpilot mcp`), or add the \
                 URL as a custom connector in Claude Desktop's settings"
            );
        }
        if !env.is_empty() || a.launch || a.headless {
            bail!(
                "with --http the client reaches a server already running: give --launch, --headless, \
                 the profile and the policy to `tabpilot mcp --http` instead"
            );
        }
        let token = crate::controller::mcp::http_token()?;
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
    crate::shared::platform::dirs::home()
        .context("HOME is not set: cannot find the client's config")
}

/// The client's config file under `home`.
pub(super) fn config_path(client: Client, home: &Path) -> PathBuf {
    let codex = std::env::var_os("CODEX_HOME")
        .filter(|d| !d.is_empty())
        .map_or_else(|| home.join(".codex"), PathBuf::from);
    match client {
        Client::Claude => home.join(".claude.json"),
        Client::ClaudeDesktop => crate::shared::platform::dirs::config_home(home)
            .join("Claude")
            .join("claude_desktop_config.json"),
        Client::Cursor => home.join(".cursor").join("mcp.json"),
        // The user's settings folder: ~/.config on Linux, ~/Library/Application Support on
        // macOS, %APPDATA% on Windows (src/shared/platform/dirs.rs).
        Client::Vscode => crate::shared::platform::dirs::config_home(home)
            .join("Code")
            .join("User")
            .join("mcp.json"),
        Client::Codex => codex.join("config.toml"),
        Client::Gemini => home.join(".gemini").join("settings.json"),
    }
}

impl Client {
    pub(super) const ALL: [Client; 6] = [
        Client::Claude,
        Client::ClaudeDesktop,
        Client::Cursor,
        Client::Vscode,
        Client::Codex,
        Client::Gemini,
    ];

    /// Its name on the command line.
    pub(super) fn name(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::ClaudeDesktop => "claude-desktop",
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
/// A symbolic link is followed to the file it leads to, which is what is written (file.rs).
fn change(
    client: Client,
    path: &Path,
    entry: Option<&Entry>,
    dry_run: bool,
    secret: Option<&str>,
) -> anyhow::Result<()> {
    let file = Config::read(path)?;
    let old = &file.text;
    let mut new = edited(client, old, entry).with_context(|| format!("in {}", path.display()))?;
    // A file the person linked stays theirs: emptied, it is kept as an empty document.
    let remove = new.is_empty() && !file.is_link();
    if new.is_empty() && file.is_link() && client.servers_key().is_some() {
        new = "{}\n".to_string();
    }
    if new == *old {
        println!("{}: nothing to change", path.display());
        return Ok(());
    }
    let shown = file.target().display().to_string();
    if file.is_link() {
        println!("{} is a symbolic link to {shown}", path.display());
    }
    let diff = similar::TextDiff::from_lines(old, &new)
        .unified_diff()
        .header(&shown, &shown)
        .to_string();
    print!(
        "{}",
        secret.map_or(diff.clone(), |s| diff.replace(s, "<token>"))
    );
    if dry_run {
        println!("(dry run: {shown} not written)");
        return Ok(());
    }
    if remove {
        file.remove()?;
        println!("removed {shown}: tabpilot's entry was all it held");
        return Ok(());
    }
    match file.write(&new, secret.is_some())? {
        was if secret.is_some() && was != 0o600 => println!(
            "wrote {shown} and made it owner-only (0600, it was {was:o}): it holds the token"
        ),
        _ if secret.is_some() => println!("wrote {shown} (owner-only: it holds the token)"),
        _ => println!("wrote {shown}"),
    }
    Ok(())
}

/// The file's new text (empty: the file goes).
fn edited(client: Client, old: &str, entry: Option<&Entry>) -> anyhow::Result<String> {
    match client.servers_key() {
        Some(key) => json::edited_json(
            old,
            key,
            entry.map(|e| json::json_entry(client, e)).as_ref(),
        ),
        None => toml::edited_toml(old, entry),
    }
}

#[cfg(test)]
mod tests;
