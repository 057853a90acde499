//! The MCP clients' configs: whether each lists tabpilot, whether what it starts is there, whether
//! the HTTP server it reaches is ours (it proves it holds the token) and not another program
//! that would receive the token, and whether a config holding the token is the person's alone.

use std::path::{Path, PathBuf};

use super::{Check, quoted};
use crate::controller::cli::install::{
    Client, Listed, config_path, judge_url, listed, literal_token,
};
use crate::controller::mcp::http::proof::Found;
use crate::shared::settings::Setting;

pub(super) fn clients(home: &Path) -> Vec<Check> {
    let token = Setting::Token
        .get()
        .map(|t| t.trim().to_string())
        .or_else(crate::shared::state::existing_http_token);
    let mut checks = Vec::new();
    let mut any = false;
    for client in Client::ALL {
        let (found, listed) = one(client, home, token.as_deref());
        checks.extend(found);
        any |= listed;
    }
    if !any {
        checks.push(Check::fail(
            "mcp clients",
            "none of them lists tabpilot",
            Some("`tabpilot install <claude|claude-desktop|cursor|vscode|codex|gemini>`".into()),
        ));
    }
    checks
}

/// One client's checks, and whether its config lists tabpilot.
fn one(client: Client, home: &Path, token: Option<&str>) -> (Vec<Check>, bool) {
    let path = config_path(client, home);
    let name = client.name();
    let shown = path.display().to_string();
    let install = format!("`tabpilot install {name}`");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let hint = Some(format!("if you use it, {install}"));
            return (vec![Check::note(name, format!("no {shown}"), hint)], false);
        }
        Err(e) => {
            return (
                vec![Check::fail(name, format!("{shown}: {e}"), None)],
                false,
            );
        }
    };
    let found = listed(client, &text);
    let is_listed = matches!(found, Ok(Some(_)));
    let check = match found {
        Err(e) => Check::fail(
            name,
            format!("{shown} does not parse ({e}): the client cannot read it either"),
            None,
        ),
        Ok(None) => Check::note(name, format!("{shown} lists no tabpilot"), Some(install)),
        Ok(Some(Listed::Url(url))) => served(client, &url, token),
        Ok(Some(Listed::Command(cmd))) => match executable(&cmd) {
            Some(path) => Check::ok(name, runs(&path)),
            None => Check::fail(
                name,
                format!("{shown} starts tabpilot as {cmd}, which is not an executable"),
                Some(install),
            ),
        },
    };
    let mut checks = vec![check];
    checks.extend(exposed(client, &path, &text, token));
    (checks, is_listed)
}

/// What answers at the URL a client sends its token to: our server (it proves it holds the
/// token), nothing for now, or another program, which would receive the token.
fn served(client: Client, url: &str, token: Option<&str>) -> Check {
    let name = client.name();
    match judge_url(url, token.unwrap_or(""), client) {
        Ok(Found::Ours) => Check::ok(
            name,
            format!("tabpilot over HTTP at {url}, which proves it holds the token"),
        ),
        Ok(_) => Check::note(
            name,
            format!("tabpilot over HTTP at {url}: nothing answers there now"),
            Some("`tabpilot mcp --http` serves it".into()),
        ),
        Err(e) => Check::fail(
            name,
            format!(
                "tabpilot over HTTP at {url}, held by {}, which cannot prove it holds the \
                 token: the client sends it the token",
                e.holder
            ),
            Some(
                "stop that program, or serve elsewhere: `tabpilot mcp --http 127.0.0.1:PORT` \
                 and `tabpilot install CLIENT --http http://127.0.0.1:PORT/mcp`"
                    .into(),
            ),
        ),
    }
}

/// A config that holds the HTTP token (tabpilot's entry, or the token's text anywhere in it)
/// must be the person's alone: another local user who reads it drives their browser.
fn exposed(client: Client, path: &Path, text: &str, token: Option<&str>) -> Option<Check> {
    let holds = literal_token(client, text).is_some()
        || token.is_some_and(|t| !t.is_empty() && text.contains(t));
    if !holds {
        return None;
    }
    let name = format!("{} token", client.name());
    let access = crate::shared::platform::private::access(path).ok()?;
    let (how, shown) = (&access.said, path.display());
    Some(if access.open {
        let fix = if cfg!(unix) {
            format!("chmod 600 {}", quoted(path))
        } else {
            format!(
                "`tabpilot install {} --http --token-in-config` again",
                client.name()
            )
        };
        Check::fail(
            name,
            format!(
                "{shown} holds the HTTP token and is open to group or others ({how}): \
                 another local user can read it and drive your browser"
            ),
            Some(format!(
                "{fix}, or `tabpilot install {} --http` for a config that refers to {} \
                 instead",
                client.name(),
                Setting::Token
            )),
        )
    } else {
        Check::ok(
            name,
            format!("{shown} holds the HTTP token and is yours alone ({how})"),
        )
    })
}

fn runs(path: &Path) -> String {
    let this = std::env::current_exe().ok();
    let same = this
        .as_deref()
        .is_some_and(|this| std::fs::canonicalize(path).ok().as_deref() == Some(this));
    if same {
        format!("starts this tabpilot, {}", path.display())
    } else {
        format!("starts {} (not this binary)", path.display())
    }
}

/// `cmd` as the client runs it: a path, or a name looked up on PATH; if it is an executable file.
fn executable(cmd: &str) -> Option<PathBuf> {
    if cmd.contains(std::path::MAIN_SEPARATOR) || cmd.contains('/') {
        let path = PathBuf::from(cmd);
        return is_exec(&path).then_some(path);
    }
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&dirs)
        .flat_map(|d| {
            EXTENSIONS
                .iter()
                .map(move |ext| d.join(format!("{cmd}{ext}")))
        })
        .find(|p| is_exec(p))
}

/// What a command's name may lack on PATH: nothing on Unix; on Windows `.exe` (a client
/// starting `tabpilot` runs `tabpilot.exe`).
const EXTENSIONS: &[&str] = if cfg!(windows) { &["", ".exe"] } else { &[""] };

/// Whether `p` is a file the system would run: one with an execute bit on Unix, any file on
/// Windows (where running is up to its type, not a bit).
fn is_exec(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    return meta.is_file()
        && std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o111 != 0;
    #[cfg(windows)]
    return meta.is_file();
}
