//! The remote destinations the person added: `remotes.json` in the state directory, owner-only
//! (it holds each server's token), written whole under another name and renamed into place; and,
//! per remote, the MCP session the last call used (`remote-sessions/NAME`), so that successive
//! commands drive one tab there as the local CLI's named session does here.

use std::collections::BTreeMap;
use std::io;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::RemoteError;
use crate::shared::platform::private;
use crate::shared::state;

/// The store's file in the state directory.
pub(super) const FILE: &str = "remotes.json";
/// The folder of the sessions' files in the state directory.
const SESSIONS: &str = "remote-sessions";
/// The longest name taken.
const NAME_MAX: usize = 64;

/// One destination: an MCP server's URL, the certificate pinned for it (`https://`), and the
/// token it asks for. Its `Debug` leaves the token out, so no log can carry it.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub(super) struct Remote {
    pub(super) url: String,
    /// SHA-256 of the server's certificate, as `AB:CD:...`; none for `http://` on loopback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) fingerprint: Option<String>,
    pub(super) token: String,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote")
            .field("url", &self.url)
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

pub(super) type Remotes = BTreeMap<String, Remote>;

/// A name is letters, digits, `-` and `_`, at most 64: it names a file and is typed on a
/// command line.
pub(super) fn check_name(name: &str) -> Result<(), RemoteError> {
    let fair = !name.is_empty()
        && name.len() <= NAME_MAX
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fair {
        Ok(())
    } else {
        Err(RemoteError::BadName(
            crate::shared::terminal::line(name).into_owned(),
        ))
    }
}

/// An MCP server's URL as the store keeps it: `https://` anywhere, `http://` on loopback only
/// (past it the token and all the agent reads would cross the network in clear: the rule the
/// server keeps without `--allow-plain-http`), no user or password in it, and no `token=` in
/// its query (the token is read from stdin, never from a command line others can list).
pub(super) fn check_url(text: &str) -> Result<url::Url, RemoteError> {
    let bad = |why: &str| RemoteError::BadUrl {
        url: crate::shared::terminal::line(text).into_owned(),
        why: why.to_string(),
    };
    let url = url::Url::parse(text).map_err(|e| bad(&e.to_string()))?;
    if url.host().is_none() {
        return Err(bad("it names no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "it carries a user or password; the token is read from stdin",
        ));
    }
    if url.query_pairs().any(|(k, _)| k == "token") {
        return Err(bad(
            "it carries a token; the token is read from stdin, never from argv",
        ));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(RemoteError::PlainPastLoopback {
            url: url.to_string(),
        }),
        _ => Err(bad("it is neither https:// nor http://")),
    }
}

/// Whether the URL's host is this machine: `localhost` or a loopback address.
fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(a)) => IpAddr::V4(a).is_loopback(),
        Some(url::Host::Ipv6(a)) => IpAddr::V6(a).is_loopback(),
        None => false,
    }
}

/// The store in `dir`; empty when there is none yet. A store others may read is refused, not
/// used: its tokens may have been read, and whoever could write it could point a name elsewhere.
pub(super) fn load(dir: &Path) -> Result<Remotes, RemoteError> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Remotes::new()),
        Err(e) => return Err(RemoteError::store(&path, e)),
    };
    if let Some(said) = private::open_to_others(&path).map_err(|e| RemoteError::store(&path, e))? {
        return Err(RemoteError::OpenStore {
            path: path.display().to_string(),
            said,
        });
    }
    serde_json::from_str(&text).map_err(|e| RemoteError::store(&path, io::Error::other(e)))
}

/// Writes the store in `dir`, owner-only, whole.
pub(super) fn save(dir: &Path, remotes: &Remotes) -> Result<(), RemoteError> {
    let path = dir.join(FILE);
    state::ensure_private_dir(dir).map_err(|e| RemoteError::store(dir, e))?;
    let text = serde_json::to_string_pretty(remotes).expect("remotes serialize");
    state::write_private(&path, text.as_bytes()).map_err(|e| RemoteError::store(&path, e))
}

/// The remote named `name` in `dir`'s store.
pub(super) fn get(dir: &Path, name: &str) -> Result<Remote, RemoteError> {
    let mut remotes = load(dir)?;
    remotes.remove(name).ok_or_else(|| RemoteError::Unknown {
        name: crate::shared::terminal::line(name).into_owned(),
        known: remotes.keys().cloned().collect(),
    })
}

/// Adds (or replaces) a remote; whether one of that name was there.
pub(super) fn add(dir: &Path, name: &str, remote: Remote) -> Result<bool, RemoteError> {
    let mut remotes = load(dir)?;
    let replaced = remotes.insert(name.to_string(), remote).is_some();
    save(dir, &remotes)?;
    forget_session(dir, name);
    Ok(replaced)
}

/// Removes a remote and its session; unknown is an error naming the ones there are.
pub(super) fn remove(dir: &Path, name: &str) -> Result<(), RemoteError> {
    let mut remotes = load(dir)?;
    if remotes.remove(name).is_none() {
        return Err(RemoteError::Unknown {
            name: crate::shared::terminal::line(name).into_owned(),
            known: remotes.keys().cloned().collect(),
        });
    }
    save(dir, &remotes)?;
    forget_session(dir, name);
    Ok(())
}

/// The MCP session a remote's last call used: its id and the protocol version agreed.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Session {
    pub(super) id: String,
    pub(super) version: String,
}

fn session_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(SESSIONS).join(name)
}

/// The session kept for `name`, if any (a file that is not one is no session).
pub(super) fn session(dir: &Path, name: &str) -> Option<Session> {
    let text = std::fs::read_to_string(session_file(dir, name)).ok()?;
    let mut words = text.split_whitespace();
    let (id, version) = (words.next()?, words.next()?);
    // The id goes back out in a header: visible ASCII only.
    let fair = |w: &str| w.bytes().all(|b| b.is_ascii_graphic());
    (fair(id) && fair(version)).then(|| Session {
        id: id.to_string(),
        version: version.to_string(),
    })
}

/// Keeps the session for the next call, owner-only. A failure only costs the next call a new
/// session (and a new tab), so it is not an error.
pub(super) fn keep_session(dir: &Path, name: &str, session: &Session) {
    let folder = dir.join(SESSIONS);
    let kept = state::ensure_private_dir(&folder).and_then(|()| {
        let text = format!("{} {}\n", session.id, session.version);
        state::write_private(&session_file(dir, name), text.as_bytes())
    });
    if let Err(e) = kept {
        tracing::warn!("cannot keep the session of remote {name}: {e}");
    }
}

pub(super) fn forget_session(dir: &Path, name: &str) {
    let _ = std::fs::remove_file(session_file(dir, name));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;

    fn remote(url: &str) -> Remote {
        Remote {
            url: url.into(),
            fingerprint: Some("AB:CD".into()),
            token: "t".repeat(64),
        }
    }

    #[test]
    fn names_are_letters_digits_dashes_and_underscores_up_to_64() {
        for good in ["a", "lab-box_2", &"x".repeat(64)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "a b",
            "../up",
            "a/b",
            "é",
            "a.b",
            &"x".repeat(65),
            "a\u{1b}[2J",
        ] {
            assert!(
                matches!(check_name(bad), Err(RemoteError::BadName(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn plain_http_is_taken_on_loopback_only_and_tokens_stay_out_of_urls() {
        for good in [
            "https://lab.example:47320/mcp",
            "https://10.0.0.5:47320/mcp",
            "http://127.0.0.1:47320/mcp",
            "http://127.1.2.3:47320/mcp",
            "http://localhost:47320/mcp",
            "http://[::1]:47320/mcp",
        ] {
            assert!(check_url(good).is_ok(), "{good}");
        }
        for past in ["http://10.0.0.5:47320/mcp", "http://lab.example/mcp"] {
            let err = check_url(past).unwrap_err();
            assert!(
                matches!(err, RemoteError::PlainPastLoopback { .. }),
                "{past}"
            );
            assert!(err.to_string().contains("in clear"), "{err}");
        }
        for bad in [
            "ftp://h/mcp",
            "lab.example:47320",
            "https://user:pw@h/mcp",
            "https://h/mcp?token=abc",
        ] {
            assert!(
                matches!(check_url(bad), Err(RemoteError::BadUrl { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_store_round_trips_owner_only_and_unknown_names_are_errors() {
        let dir = temp_dir("remotes").join("state");
        assert!(load(&dir).unwrap().is_empty());
        assert!(!add(&dir, "lab", remote("https://lab.example/mcp")).unwrap());
        assert!(add(&dir, "lab", remote("https://lab.example:1/mcp")).unwrap());
        add(&dir, "other", remote("http://127.0.0.1:9/mcp")).unwrap();
        assert_eq!(
            get(&dir, "lab").unwrap(),
            remote("https://lab.example:1/mcp")
        );
        assert_eq!(load(&dir).unwrap().len(), 2);
        #[cfg(unix)]
        {
            use crate::shared::state::test_support::mode;
            assert_eq!(mode(&dir.join(FILE)), 0o600);
            assert_eq!(mode(&dir), 0o700);
        }
        let kept = Session {
            id: "abc".into(),
            version: "2025-06-18".into(),
        };
        keep_session(&dir, "lab", &kept);
        assert_eq!(session(&dir, "lab"), Some(kept));
        remove(&dir, "lab").unwrap();
        assert_eq!(session(&dir, "lab"), None);
        match get(&dir, "lab").unwrap_err() {
            RemoteError::Unknown { known, .. } => assert_eq!(known, ["other"]),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            remove(&dir, "lab"),
            Err(RemoteError::Unknown { .. })
        ));
        // The token never shows in a Debug (a log line).
        let shown = format!("{:?}", remote("https://h/mcp"));
        assert!(!shown.contains("tttt"), "{shown}");
    }

    #[cfg(unix)]
    #[test]
    fn a_store_others_may_read_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("remotes-open");
        add(&dir, "lab", remote("https://lab.example/mcp")).unwrap();
        let file = dir.join(FILE);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = load(&dir).unwrap_err();
        assert!(err.to_string().contains("mode 644"), "{err}");
    }
}
