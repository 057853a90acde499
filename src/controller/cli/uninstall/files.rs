//! What in the state dir is tabpilot's, and removing it without ever following a link.
//!
//! Only names tabpilot makes are taken, so a state dir pointed at a folder of the person's
//! (`TABPILOT_STATE_DIR=~`) loses nothing else. The dir itself is refused when it is a link (to
//! anywhere: removing what a link leads to is how a planted link turns an uninstall against the
//! person), another user's, or open to others' writes (then anyone could have put anything
//! there). An entry that is a link is removed as a link, never what it leads to; an entry of
//! another user is left. Folders are removed by `remove_dir_all`, which does not follow links
//! inside them either.

use std::io;
use std::path::{Path, PathBuf};

/// An entry of the state dir that is tabpilot's.
pub(super) struct Found {
    pub path: PathBuf,
    /// What it is, in words.
    pub what: &'static str,
    /// Part of the secret store: removed only when the person said so a second time.
    pub secret: bool,
    /// A symbolic link: the link goes, never what it leads to.
    pub link: bool,
}

/// The state dir as found.
pub(super) struct StateDir {
    pub dir: PathBuf,
    pub ours: Vec<Found>,
    /// Entries tabpilot does not make, or another user's: left where they are, said why.
    pub left: Vec<(PathBuf, String)>,
}

/// Each name tabpilot keeps in its state dir, and what it is.
const NAMES: &[(&str, &str)] = &[
    (
        "secret",
        "the relay's key (browsers' pairings and agents' links rest on it)",
    ),
    ("paired-extensions", "the browsers' pairings"),
    (
        "remote-secret",
        "the secret of browsers paired from another computer (`relay --listen`)",
    ),
    (
        "relay-key",
        "the relay's key that browsers on other computers pin",
    ),
    ("http-token", "the token of `tabpilot mcp --http`"),
    ("http-server", "the running `mcp --http` server's address"),
    ("sessions", "the CLI sessions' keys"),
    ("agents", "agents' records, for taking their tabs up again"),
    ("profiles", "the managed browsers' profiles"),
    ("extension", "the extension as written out for your browser"),
    ("relay.log", "the relay's log"),
    ("relay.log.1", "the relay's log"),
    ("service.log", "the service's log"),
    ("service.xml", "the Windows task's definition"),
    (
        "remotes.json",
        "the remote MCP servers `tabpilot remote add` keeps, with their tokens",
    ),
    (
        "remote-sessions",
        "the MCP sessions of the remotes' last calls",
    ),
];

/// Names of files rotated or locked beside them (`NAME.1`, `NAME.lock`).
const ROTATED: &[(&str, &str)] = &[
    ("audit.jsonl", "the audit trail"),
    ("recording.jsonl", "recordings of agents' page actions"),
];

/// The secret store's files.
const SECRETS: &[(&str, &str)] = &[
    ("secrets.json", "the secrets' index: names and origins"),
    ("secret-values.json", "the secrets' values kept in a file"),
];

/// What `name` is, and whether it belongs to the secret store; none when tabpilot does not make
/// it.
pub(super) fn what(name: &str) -> Option<(&'static str, bool)> {
    if let Some((_, what)) = NAMES.iter().find(|(n, _)| *n == name) {
        return Some((what, false));
    }
    if let Some((_, what)) = SECRETS.iter().find(|(n, _)| *n == name) {
        return Some((what, true));
    }
    if let Some((_, what)) = ROTATED.iter().find(|(n, _)| {
        name.strip_prefix(n).is_some_and(|rest| {
            rest.is_empty() || rest == ".lock" || rest.strip_prefix('.').is_some_and(digits)
        })
    }) {
        return Some((what, false));
    }
    let lock = name
        .strip_prefix("relay-")
        .and_then(|r| r.strip_suffix(".lock"))
        .and_then(|r| r.split_once('-'));
    if lock.is_some_and(|(a, b)| digits(a) && digits(b)) {
        return Some(("a relay's lock", false));
    }
    // A write that stopped halfway (`NAME.tmpPID`, src/shared/state.rs).
    let (stem, tmp) = name.rsplit_once(".tmp")?;
    if !digits(tmp) {
        return None;
    }
    let stem_of = |n: &str| Path::new(n).with_extension("").display().to_string() == stem;
    if SECRETS.iter().any(|(n, _)| stem_of(n)) {
        return Some(("an unfinished write of the secret store", true));
    }
    NAMES
        .iter()
        .any(|(n, _)| *n == stem || (n.ends_with(".json") && stem_of(n)))
        .then_some(("an unfinished write", false))
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The state dir's entries, sorted into tabpilot's and the rest; none when there is no dir. An
/// error names why nothing in it may be touched.
pub(super) fn look(dir: &Path) -> anyhow::Result<Option<StateDir>> {
    if std::fs::symlink_metadata(dir).is_err_and(|e| e.kind() == io::ErrorKind::NotFound) {
        return Ok(None);
    }
    if let Some(why) = crate::shared::state::unsafe_dir(dir)? {
        anyhow::bail!(
            "the state dir {} {why}: tabpilot removes nothing from it (nothing through a link, \
             nothing another user could have put there). Look through it yourself",
            dir.display()
        );
    }
    let mut found = StateDir {
        dir: dir.to_path_buf(),
        ours: Vec::new(),
        left: Vec::new(),
    };
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path)?;
        let name = entry.file_name();
        match (name.to_str().and_then(what), foreign(&meta)) {
            (_, Some(owner)) => found.left.push((path, format!("belongs to uid {owner}"))),
            (None, None) => found.left.push((path, "not a name tabpilot makes".into())),
            (Some((what, secret)), None) => found.ours.push(Found {
                path,
                what,
                secret,
                link: meta.file_type().is_symlink(),
            }),
        }
    }
    found.ours.sort_by(|a, b| a.path.cmp(&b.path));
    found.left.sort();
    Ok(Some(found))
}

/// Another user's uid, when the entry is not this user's (Unix; Windows has no uid).
fn foreign(meta: &std::fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        let owner = std::os::unix::fs::MetadataExt::uid(meta);
        (owner != crate::shared::platform::me::uid()).then_some(owner)
    }
    #[cfg(windows)]
    {
        let _ = meta;
        None
    }
}

/// Removes one entry: a link or a file by unlinking it, a folder with all it holds (its own links
/// unlinked, never followed).
pub(super) fn remove(found: &Found) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(&found.path)?;
    if meta.is_dir() {
        std::fs::remove_dir_all(&found.path)
    } else {
        std::fs::remove_file(&found.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use crate::shared::state::test_support::temp_dir;

    #[test]
    fn only_names_tabpilot_makes_are_its_own() {
        for name in [
            "secret",
            "relay-47311-47315.lock",
            "audit.jsonl",
            "audit.jsonl.3",
            "audit.jsonl.lock",
            "recording.jsonl.1",
            "http-token.tmp4242",
            "profiles",
            "remotes.json",
            "remotes.tmp77",
            "remote-secret",
            "relay-key",
            "remote-sessions",
        ] {
            assert_eq!(what(name).map(|w| w.1), Some(false), "{name}");
        }
        for name in ["secrets.json", "secret-values.json", "secrets.tmp77"] {
            assert_eq!(what(name).map(|w| w.1), Some(true), "{name}");
        }
        for name in [
            "notes.txt",
            "audit.jsonl.bak",
            "relay-a-b.lock",
            "secret.old",
            "x.tmp1",
            ".bashrc",
        ] {
            assert!(what(name).is_none(), "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_state_dir_is_removed_as_a_link_and_what_it_leads_to_stays() {
        use std::os::unix::fs::symlink;
        let outside = temp_dir("uninstall-outside");
        std::fs::write(outside.join("keep.txt"), "theirs").unwrap();
        let dir = temp_dir("uninstall-state");
        crate::shared::state::ensure_private_dir(&dir).unwrap();
        symlink(&outside, dir.join("profiles")).unwrap();
        symlink(outside.join("keep.txt"), dir.join("audit.jsonl")).unwrap();
        std::fs::create_dir(dir.join("agents")).unwrap();
        symlink(&outside, dir.join("agents").join("inner")).unwrap();
        std::fs::write(dir.join("mine.txt"), "person's").unwrap();

        let found = look(&dir).unwrap().unwrap();
        let links: Vec<bool> = found.ours.iter().map(|f| f.link).collect();
        assert_eq!(links, [false, true, true], "agents, audit.jsonl, profiles");
        for f in &found.ours {
            remove(f).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(outside.join("keep.txt")).unwrap(),
            "theirs"
        );
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["mine.txt"]);
        assert_eq!(found.left.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn another_users_entry_in_the_state_dir_is_left() {
        if !crate::shared::platform::me::is_root() {
            eprintln!("skipped: giving a file to another user takes root");
            return;
        }
        let dir = temp_dir("uninstall-foreign");
        crate::shared::state::ensure_private_dir(&dir).unwrap();
        std::fs::write(dir.join("secret"), "theirs").unwrap();
        std::os::unix::fs::chown(dir.join("secret"), Some(4242), None).unwrap();
        let found = look(&dir).unwrap().unwrap();
        assert!(found.ours.is_empty());
        assert_eq!(
            found.left,
            [(dir.join("secret"), "belongs to uid 4242".into())]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_state_dir_that_is_a_link_or_open_to_others_is_refused() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let outside = temp_dir("uninstall-target");
        std::fs::write(outside.join("secret"), "x").unwrap();
        let link = temp_dir("uninstall-link").join("state");
        symlink(&outside, &link).unwrap();
        let e = look(&link).err().unwrap().to_string();
        assert!(e.contains("is a symbolic link"), "{e}");

        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = look(&outside).err().unwrap().to_string();
        assert!(e.contains("writable by others"), "{e}");
        assert!(outside.join("secret").exists());
        assert!(look(&outside.join("none")).unwrap().is_none());
    }
}
