//! `tabpilot doctor`: looks at what tabpilot needs (Chromium, the state dir, the relay, the
//! browsers on it, the MCP clients' configs, the skill, where secrets' values are kept), changes
//! nothing, and prints one line per check with the command that fixes a problem. It exits non-zero
//! when a check fails.

use std::fmt;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use crate::controller::link::{Failure, Link, LinkState};
use crate::shared::protocol::{self, PeerInfo, RelayStatus, ask};
use crate::shared::state;

mod clients;
use clients::clients;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Ok,
    /// Worth knowing, and not in the way.
    Note,
    Fail,
}

#[derive(Debug)]
struct Check {
    verdict: Verdict,
    name: String,
    text: String,
    fix: Option<String>,
}

impl Check {
    fn ok(name: impl Into<String>, text: impl Into<String>) -> Check {
        Check::new(Verdict::Ok, name, text, None)
    }

    fn note(name: impl Into<String>, text: impl Into<String>, fix: Option<String>) -> Check {
        Check::new(Verdict::Note, name, text, fix)
    }

    fn fail(name: impl Into<String>, text: impl Into<String>, fix: Option<String>) -> Check {
        Check::new(Verdict::Fail, name, text, fix)
    }

    fn new(
        verdict: Verdict,
        name: impl Into<String>,
        text: impl Into<String>,
        fix: Option<String>,
    ) -> Check {
        Check {
            verdict,
            name: name.into(),
            text: text.into(),
            fix,
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.verdict {
            Verdict::Ok => "ok",
            Verdict::Note => "--",
            Verdict::Fail => "FAIL",
        };
        write!(f, "{word:<5} {}: {}", self.name, self.text)?;
        match (&self.fix, self.verdict) {
            (Some(fix), Verdict::Fail) => write!(f, "; fix: {fix}"),
            (Some(hint), _) => write!(f, "; {hint}"),
            (None, _) => Ok(()),
        }
    }
}

pub(super) async fn run() -> anyhow::Result<ExitCode> {
    let uid = crate::shared::platform::me::uid();
    let home = crate::shared::platform::dirs::home();
    let mut checks = vec![chromium().await];
    // The state dir is looked at before anything reads from it; nothing here makes or mends it.
    checks.extend(state_dir(&state::state_dir(), uid));
    let (relay, status) = relay(uid).await;
    checks.extend(relay);
    checks.extend(browsers(status.as_ref()));
    match &home {
        Some(home) => checks.extend(clients(home)),
        None => checks.push(Check::fail(
            "mcp clients",
            "HOME is not set: no client config to look at",
            None,
        )),
    }
    checks.push(skill());
    // Asking the keyring whether it answers is a D-Bus (or OS) call that blocks.
    let secrets =
        crate::shared::blocking::call("asking the keyring", crate::controller::secrets::status)
            .await;
    checks.push(match secrets {
        Ok(status) => secrets_check(status),
        Err(e) => Check::fail("secrets", format!("the look stopped unfinished: {e}"), None),
    });
    let failed = checks.iter().any(|c| c.verdict == Verdict::Fail);
    for check in &checks {
        println!("{check}");
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

async fn chromium() -> Check {
    let path = match crate::controller::launch::find_chromium() {
        Ok(path) => path,
        Err(e) => return Check::fail("chromium", e.message, None),
    };
    let mut cmd = tokio::process::Command::new(&path);
    cmd.arg("--version")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    match tokio::time::timeout(Duration::from_secs(10), cmd.output()).await {
        Ok(Ok(out)) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            Check::ok("chromium", format!("{} ({version})", path.display()))
        }
        _ => Check::fail(
            "chromium",
            format!("{} does not answer --version", path.display()),
            Some(format!(
                "point {} at a working Chromium",
                crate::shared::settings::Setting::Browser
            )),
        ),
    }
}

/// The state dir and the owner-only things in it: this user's, and closed to group and others.
fn state_dir(dir: &Path, uid: u32) -> Vec<Check> {
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return vec![Check::ok(
                "state dir",
                format!(
                    "{} not made yet (made owner-only on first use)",
                    dir.display()
                ),
            )];
        }
        Err(e) => {
            return vec![Check::fail(
                "state dir",
                format!("{}: {e}", dir.display()),
                None,
            )];
        }
    };
    let mut checks = vec![private("state dir", dir, &meta, uid, 0o700)];
    let files = [
        ("relay secret", "secret"),
        ("http token", "http-token"),
        ("secret index", crate::controller::secrets::INDEX_FILE),
        ("secret values", crate::controller::secrets::VALUES_FILE),
    ];
    for (name, file) in files {
        let path = dir.join(file);
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            checks.push(private(name, &path, &meta, uid, 0o600));
        }
    }
    checks
}

/// Whether `path` is this user's and closed to group and others; the fix sets `mode`.
fn private(name: &str, path: &Path, meta: &std::fs::Metadata, uid: u32, mode: u32) -> Check {
    let shown = path.display();
    #[cfg(unix)]
    if std::os::unix::fs::MetadataExt::uid(meta) != uid {
        let owner = std::os::unix::fs::MetadataExt::uid(meta);
        return Check::fail(
            name,
            format!("{shown} belongs to uid {owner}, not you (uid {uid})"),
            Some(format!(
                "use a state dir of your own: {}=DIR",
                crate::shared::settings::Setting::StateDir
            )),
        );
    }
    if meta.file_type().is_symlink() {
        return Check::fail(
            name,
            format!("{shown} is a symbolic link"),
            Some(format!("rm {}", quoted(path))),
        );
    }
    #[cfg(windows)]
    let _ = uid;
    let access = match crate::shared::platform::private::access(path) {
        Ok(access) => access,
        Err(e) => return Check::fail(name, format!("{shown} cannot be looked at: {e}"), None),
    };
    let how = access.said;
    if access.open {
        let fix = if cfg!(unix) {
            format!("chmod {mode:o} {}", quoted(path))
        } else {
            format!("delete {} and let tabpilot make it again", quoted(path))
        };
        return Check::fail(
            name,
            format!("{shown} is open to group or others ({how})"),
            Some(fix),
        );
    }
    Check::ok(name, format!("{shown} is yours alone ({how})"))
}

/// The relay of this state dir and port range: one answering with our secret, its version; and
/// whatever else listens in the range, with its owner where the system says.
async fn relay(uid: u32) -> (Vec<Check>, Option<RelayStatus>) {
    let ports = match protocol::port_range() {
        Ok(ports) => ports,
        Err(e) => return (vec![Check::fail("relay", e, None)], None),
    };
    // A relay of ours that runs another version is refused by the link: the doctor says which,
    // and what to do, in the link's words.
    let mut mismatch = None;
    let status = match state::existing_secret() {
        Ok(Some(secret)) => {
            let info = PeerInfo {
                name: "tabpilot doctor".into(),
                pid: std::process::id(),
                ..Default::default()
            };
            // No relay is started: the doctor reports the one there is.
            let link = Link::with_secret(info, false, secret);
            let answer = link.ask(ask::Status).await;
            if let LinkState::Retrying {
                reason: Failure::Version(m),
                ..
            } = link.state()
            {
                mismatch = Some(m);
            }
            link.stop();
            answer.ok()
        }
        Ok(None) => None,
        Err(e) => {
            return (vec![Check::fail("relay secret", e.to_string(), None)], None);
        }
    };
    let ours = status.as_ref().and_then(|s| s.relay.clone());
    let mut checks = Vec::new();
    match (&ours, &mismatch) {
        (Some(relay), _) => checks.push(Check::ok(
            "relay",
            format!(
                "tabpilot {} on port {} answers with our secret",
                relay.version, relay.port
            ),
        )),
        (None, Some(m)) => checks.push(Check::fail("relay", m.to_string(), Some(m.fix()))),
        (None, None) => checks.push(Check::note(
            "relay",
            format!("none running on ports {}-{}", ports.start(), ports.end()),
            Some("it starts when an agent calls a tool (or run `tabpilot relay`)".into()),
        )),
    }
    let ours = ours
        .as_ref()
        .map(|r| r.port)
        .or(mismatch.as_ref().map(|m| m.port));
    checks.extend(strangers(&ports, ours, uid));
    (checks, status)
}

/// Whatever else listens in the relay's range, with its owner where the system says.
fn strangers(ports: &std::ops::RangeInclusive<u16>, ours: Option<u16>, uid: u32) -> Vec<Check> {
    let table = crate::shared::serve::holder::tables();
    let mut checks = Vec::new();
    for port in ports.clone() {
        if ours == Some(port) || !listening(port) {
            continue;
        }
        let owner = crate::shared::serve::holder::listener(&table, port).map(|(uid, _)| uid);
        let name = format!("port {port}");
        let what = "answers but is not this state dir's relay (it fails the handshake)";
        checks.push(match owner {
            Some(owner) if owner != uid => Check::fail(
                name,
                format!("{what}: held by another user (uid {owner}); tabpilot passes it over"),
                Some(format!(
                    "keep clear of it with another range, e.g. {}=47400-47404, in every client's \
                     config, then `tabpilot pair` again",
                    crate::shared::settings::Setting::Ports
                )),
            ),
            Some(_) => Check::note(
                name,
                format!("{what}: one of your programs (a relay of another state dir?)"),
                None,
            ),
            None => Check::note(name, format!("{what}: its owner is not known"), None),
        });
    }
    checks
}

fn listening(port: u16) -> bool {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(300)).is_ok()
}

/// The browsers the relay has: each paired (it proved the secret to connect) with its extension.
fn browsers(status: Option<&RelayStatus>) -> Vec<Check> {
    let how = "`tabpilot launch` (a managed Chromium), or load the extension into yours with \
               `tabpilot extension path` and then `tabpilot pair`";
    let Some(status) = status else {
        return vec![Check::note(
            "browsers",
            "not known while no relay runs",
            Some("`tabpilot browser_status` starts the relay and lists them".into()),
        )];
    };
    if status.browsers.is_empty() {
        return vec![Check::fail(
            "browsers",
            "none connected to the relay",
            Some(how.into()),
        )];
    }
    let reload = "`tabpilot extension path`, then Reload in chrome://extensions (a managed \
                  browser: close it, then `tabpilot launch`)";
    status
        .browsers
        .iter()
        .map(|b| {
            let name = format!("browser {}", b.browser_id);
            let what = [
                b.browser.as_deref(),
                b.label.as_deref().or(b.profile.as_deref()),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
            match b.extension.as_deref() {
                Some(v) if v == protocol::VERSION => {
                    Check::ok(name, format!("{what}: paired and connected, extension {v}"))
                }
                Some(v) => Check::fail(
                    name,
                    format!(
                        "{what}: extension {v}, this tabpilot is {}",
                        protocol::VERSION
                    ),
                    Some(reload.into()),
                ),
                None => Check::fail(
                    name,
                    format!("{what}: its extension is older than this tabpilot (no version)"),
                    Some(reload.into()),
                ),
            }
        })
        .collect()
}

fn skill() -> Check {
    let fix = Some("`tabpilot skill install`".to_string());
    let path = match super::skill::path() {
        Ok(path) => path,
        Err(e) => return Check::note("skill", e.to_string(), None),
    };
    let shown = path.display();
    match std::fs::read_to_string(&path) {
        Ok(text) if text == super::skill::SKILL => {
            Check::ok("skill", format!("{shown} is this tabpilot's"))
        }
        Ok(_) => Check::note(
            "skill",
            format!("{shown} differs from this tabpilot's (older, or edited)"),
            fix,
        ),
        Err(_) => Check::note("skill", format!("no {shown}"), fix),
    }
}

/// How many secrets are registered and where their values are kept: the keyring, or the
/// owner-only file and why.
fn secrets_check(status: crate::controller::secrets::Status) -> Check {
    use crate::controller::secrets::{KEYRING_NAME, NewValues};
    let counts = match status.counts {
        Ok(c) if c.total == 0 => "none registered".to_string(),
        Ok(c) => {
            let parts = [
                (c.keyring, "in the keyring"),
                (c.file, "in the owner-only file"),
                (c.total - c.keyring - c.file, "a file for uploads"),
            ];
            let parts: Vec<String> = parts
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
            format!("{} registered ({})", c.total, parts.join(", "))
        }
        Err(e) => return Check::fail("secrets", e.to_string(), None),
    };
    match status.new_values {
        NewValues::Keyring => Check::ok(
            "secrets",
            format!("{counts}; values are kept in {KEYRING_NAME}"),
        ),
        NewValues::File { path, why } => Check::note(
            "secrets",
            format!("{counts}; values are kept in the owner-only file {path} ({why})"),
            Some("docs/security.md says what each place protects against".into()),
        ),
        NewValues::Broken(why) => Check::fail(
            "secrets",
            format!("{counts}; {why}"),
            Some(format!(
                "start or unlock the keyring, or set {}=file",
                crate::shared::settings::Setting::SecretBackend
            )),
        ),
    }
}

/// `path` as a shell word.
fn quoted(path: &Path) -> String {
    let s = path.display().to_string();
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@".contains(c))
    {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_private_path_open_to_others_is_reported_with_its_chmod() {
        let dir = state::test_support::temp_dir("doctor").join("my state");
        std::fs::create_dir_all(&dir).unwrap();
        // SAFETY: getuid has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o750)).unwrap();
        let found = state_dir(&dir, uid);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].verdict, Verdict::Fail);
        let fix = format!("chmod 700 '{}'", dir.display());
        assert_eq!(found[0].fix.as_deref(), Some(fix.as_str()));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(dir.join("secret"), "x").unwrap();
        std::fs::set_permissions(dir.join("secret"), std::fs::Permissions::from_mode(0o640))
            .unwrap();
        let found = state_dir(&dir, uid);
        assert_eq!(found[0].verdict, Verdict::Ok);
        assert_eq!(found[1].verdict, Verdict::Fail);
        assert!(found[1].fix.as_deref().unwrap().starts_with("chmod 600 "));
        assert_eq!(state_dir(&dir, uid + 1)[0].verdict, Verdict::Fail);
        std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }
}
