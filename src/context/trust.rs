//! Which project directories and files are trusted, the way git's `safe.directory` and sshd's
//! `StrictModes` decide it: owned by this user (or root) and not writable by group or others.
//!
//! A directory another user owns, or one anyone may write to (`/tmp`, a share), can hold a
//! manifest or an AGENTS.md that someone else wrote; its registered commands would run as this
//! user and its instructions would reach the agent. Such paths are refused, naming why.

use std::fs::{self, Metadata};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::error::{Code, ToolError};

/// Why `path` (followed through symlinks) is not trusted, or `None` when it is.
pub(super) fn doubt(path: &Path) -> Option<String> {
    match fs::metadata(path) {
        Ok(meta) => doubt_meta(&meta),
        Err(e) => Some(format!("cannot be checked: {e}")),
    }
}

fn doubt_meta(meta: &Metadata) -> Option<String> {
    // SAFETY: geteuid(2) cannot fail and touches no memory.
    let me = unsafe { libc::geteuid() };
    let kind = if meta.is_dir() { "directory" } else { "file" };
    if meta.uid() != me && meta.uid() != 0 {
        return Some(format!(
            "the {kind} belongs to uid {}, not to this user (uid {me})",
            meta.uid()
        ));
    }
    let mode = meta.mode();
    if mode & 0o002 != 0 {
        return Some(format!(
            "the {kind} is writable by others (mode {:o})",
            mode & 0o7777
        ));
    }
    if mode & 0o020 != 0 {
        return Some(format!(
            "the {kind} is writable by its group (mode {:o})",
            mode & 0o7777
        ));
    }
    None
}

/// Refuses `path` unless it is trusted; the message names the path and why.
pub(super) fn require(path: &Path) -> Result<(), ToolError> {
    match doubt(path) {
        None => Ok(()),
        Some(why) => Err(refusal(path, &why)),
    }
}

/// The refusal for an untrusted path.
pub(super) fn refusal(path: &Path, why: &str) -> ToolError {
    ToolError::refused(
        Code::UntrustedPath,
        format!(
            "{}: {why}. tabpilot reads project context and runs registered commands only from \
             directories and files owned by you (or root) and not writable by group or others; \
             fix it with chown or chmod go-w if it is yours",
            path.display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::super::testutil::Tree;
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn owned_and_not_writable_by_others_is_trusted() {
        let t = Tree::new("trust");
        let dir = t.mkdir("d");
        let file = t.write("d/f", "x");
        chmod(&dir, 0o755);
        chmod(&file, 0o644);
        assert_eq!(doubt(&dir), None);
        assert_eq!(doubt(&file), None);
        chmod(&dir, 0o777);
        assert!(doubt(&dir).unwrap().contains("writable by others"));
        chmod(&dir, 0o775);
        assert!(doubt(&dir).unwrap().contains("writable by its group"));
        chmod(&file, 0o646);
        let e = require(&file).unwrap_err();
        assert_eq!(e.code, Code::UntrustedPath);
        assert!(e.message.starts_with(&file.display().to_string()));
        assert!(e.message.contains("writable by others"), "{}", e.message);
        // Someone else's (needs root to stage).
        chmod(&file, 0o644);
        if std::os::unix::fs::chown(&file, Some(65534), None).is_ok() {
            assert!(doubt(&file).unwrap().contains("belongs to uid 65534"));
        }
    }
}
