//! Who an MCP server on stdio is across its own restarts.
//!
//! An agent is its link key: unguessable, made by the server process and kept across that
//! process's relay connections, so a relay that restarts files every agent's tabs back under the
//! key that opened them, whatever the agents are called. A server its client restarts is a new
//! process with no key of its own; it takes its predecessor's key only on evidence that two
//! unrelated agents cannot share by accident:
//!
//! - `TABPILOT_INSTANCE`, when set: the person's explicit word;
//! - else the client process that started the server (its pid and its start time, so a reused
//!   pid is another client) and the working directory.
//!
//! The keys for that evidence live in owner-only slot files of the state dir, each locked by the
//! server that uses it: one live server per key. A client running several servers in one project
//! has one slot each (the first free one, in order); a server started after another ended takes
//! the first free slot, and with its key, within the relay's grace period, the tabs still open.
//! Two sessions of different client processes never share evidence; servers of one client
//! process, one after the other, are that client's restarts.
//!
//! An orphan has no such evidence: a server whose starter is already gone has init (pid 1) or a
//! subreaper (`systemd --user`, a container's init) for its parent, which every detached process
//! of the user shares. It takes a fresh key (unless `TABPILOT_INSTANCE` is set), so it resumes
//! no earlier server's tabs; `browser_status` says which.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, SystemTime};

use sha2::Digest;

use crate::shared::platform::private;
use crate::shared::protocol::auth;
use crate::shared::settings::Setting;
use crate::shared::state;

/// Slot files nobody has locked for this long are swept: the relay forgot their books long ago.
const STALE: Duration = Duration::from_secs(24 * 60 * 60);
/// Servers of one client in one directory that can each find their tabs after a restart; more,
/// at once, are agents all the same, with keys of their own.
const SLOTS: usize = 16;

/// A link key this process holds for its evidence, while it lives.
pub struct Resumable {
    key: String,
    /// Held open, and so locked, for as long as the server runs.
    _lock: File,
}

impl Resumable {
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// How a server on stdio knows itself across its restarts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// By `TABPILOT_INSTANCE`.
    Instance,
    /// By the client process that started it and the working directory.
    Client,
    /// Started by no live process (its parent is init or a subreaper): a fresh key each time.
    Orphan,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Instance => "resumable (TABPILOT_INSTANCE)",
            Kind::Client => "resumable (its client process and directory)",
            Kind::Orphan => "fresh (orphan: its starter is gone, so it resumes no earlier server)",
        })
    }
}

static KIND: std::sync::OnceLock<Kind> = std::sync::OnceLock::new();

/// This process's kind, once its MCP server on stdio has judged it (none for other commands).
pub fn kind() -> Option<Kind> {
    KIND.get().copied()
}

/// What a server on stdio started by `parent` has to show for itself: `TABPILOT_INSTANCE`, else
/// the parent process (pid and start time) and the working directory; an orphan has nothing
/// (None). The kind is kept for `browser_status`.
pub fn evidence(parent: i32) -> (Kind, Option<String>) {
    let dir = std::env::current_dir().unwrap_or_default();
    let judged = evidence_from(Setting::Instance.get(), orphan(parent), parent, &dir);
    let _ = KIND.set(judged.0);
    judged
}

fn evidence_from(
    instance: Option<String>,
    orphan: bool,
    parent: i32,
    dir: &Path,
) -> (Kind, Option<String>) {
    if let Some(instance) = instance.filter(|i| !i.is_empty()) {
        return (Kind::Instance, Some(format!("instance\0{instance}")));
    }
    if orphan {
        return (Kind::Orphan, None);
    }
    let started = crate::shared::platform::me::start_time(parent as u32).unwrap_or_default();
    let evidence = format!("client\0{parent}\0{started}\0{}", dir.display());
    (Kind::Client, Some(evidence))
}

/// Processes that adopt orphans: init systems and subreapers (a process cannot ask whether
/// another is a subreaper, so they are known by name).
const REAPERS: &[&str] = &[
    "systemd",
    "init",
    "tini",
    "dumb-init",
    "catatonit",
    "docker-init",
    "s6-svscan",
    "runsvdir",
    "launchd",
];

/// Whether `parent` (read when this process started) says its starter is gone: no parent in
/// sight (0, or one outside our pid namespace), init, or a process that adopts orphans.
fn orphan(parent: i32) -> bool {
    if parent <= 1 {
        return true;
    }
    let comm = std::fs::read_to_string(format!("/proc/{parent}/comm")).unwrap_or_default();
    REAPERS.contains(&comm.trim())
}

/// A key for `evidence` no live server holds: the first free slot's, the one its last holder
/// used, else a new one. `None` while live servers hold every slot (this one is then an agent of
/// its own).
pub fn take(evidence: &str) -> io::Result<Option<Resumable>> {
    take_in(&state::state_dir().join("agents"), evidence)
}

pub(crate) fn take_in(dir: &Path, evidence: &str) -> io::Result<Option<Resumable>> {
    state::ensure_private_dir(dir)?;
    sweep(dir);
    let name = hex::encode(sha2::Sha256::digest(evidence.as_bytes()));
    for slot in 0..SLOTS {
        let file = private::open(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
            &dir.join(format!("{name}-{slot}")),
        )?;
        if state::try_lock(&file) {
            return resume(file).map(Some);
        }
    }
    Ok(None)
}

/// The key a locked slot file holds, or a new one written into it.
fn resume(mut file: File) -> io::Result<Resumable> {
    let mut key = String::new();
    file.read_to_string(&mut key)?;
    if key.len() != auth::nonce().len() || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        key = auth::nonce();
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(key.as_bytes())?;
    }
    // Its time is when a server last took it: the sweep keeps it while it may matter.
    file.set_modified(SystemTime::now())?;
    Ok(Resumable { key, _lock: file })
}

/// Removes slot files no server has taken for a day and none holds now.
fn sweep(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE));
        if old && File::open(entry.path()).is_ok_and(|f| state::try_lock(&f)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;

    #[test]
    fn one_live_server_per_key_and_the_next_one_takes_a_freed_key_over() {
        let dir = temp_dir("identity-slot");
        let first = take_in(&dir, "client one").unwrap().expect("a free slot");
        let second = take_in(&dir, "client one").unwrap().expect("a second slot");
        assert_ne!(second.key(), first.key(), "two live servers shared a key");
        let rest: Vec<Resumable> = (2..SLOTS)
            .map(|_| take_in(&dir, "client one").unwrap().unwrap())
            .collect();
        assert!(
            take_in(&dir, "client one").unwrap().is_none(),
            "a slot past the last"
        );
        drop(rest);
        let other = take_in(&dir, "client two")
            .unwrap()
            .expect("other evidence");
        assert_ne!(other.key(), first.key());
        let key = first.key().to_string();
        drop(first);
        let next = take_in(&dir, "client one").unwrap().expect("freed");
        assert_eq!(next.key(), key, "a restarted server did not find its key");
    }

    #[test]
    fn the_evidence_names_the_client_process_and_the_directory_or_the_instance() {
        let me = std::process::id();
        let dir = Path::new("/work/project");
        let me = me as i32;
        let of = |instance: Option<&str>, parent: i32, dir: &Path| {
            evidence_from(instance.map(String::from), false, parent, dir)
        };
        let mine = of(None, me, dir);
        let started =
            crate::shared::platform::me::start_time(me as u32).expect("our own start time");
        let text = format!("client\0{me}\0{started}\0{}", dir.display());
        assert_eq!(mine, (Kind::Client, Some(text)));
        assert_ne!(mine, of(None, 2, dir), "two clients gave the same evidence");
        assert_ne!(mine, of(None, me, Path::new("/elsewhere")));
        let ci = (Kind::Instance, Some("instance\0ci-7".to_string()));
        assert_eq!(of(Some("ci-7"), me, dir), ci);
        assert_eq!(of(Some(""), me, dir), mine);
    }

    #[test]
    fn an_orphan_has_no_evidence_unless_the_instance_is_named() {
        let dir = Path::new("/work/project");
        assert!(orphan(1) && orphan(0), "init, or no parent in sight");
        assert!(
            !orphan(std::process::id() as i32),
            "a test runner adopts no orphans"
        );
        assert_eq!(evidence_from(None, true, 1, dir), (Kind::Orphan, None));
        let named = evidence_from(Some("ci-7".into()), true, 1, dir);
        assert_eq!(named.0, Kind::Instance);
    }
}
