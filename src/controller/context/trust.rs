//! Which project directories and files are trusted, the way git's `safe.directory` and sshd's
//! `StrictModes` decide it: owned by this user (or root) and not writable by group or others.
//!
//! A directory another user owns, or one anyone may write to (`/tmp`, a share), can hold a
//! manifest or an AGENTS.md that someone else wrote; its registered commands would run as this
//! user and its instructions would reach the agent. Such paths are refused, naming why.

use std::path::Path;

use crate::shared::error::{Code, ToolError};

/// Why `path` (followed through symlinks) is not trusted, or `None` when it is: another
/// user's (Unix: not this user's nor root's), or others may write to it
/// (`platform::private::others_may_write`: group or other write bits, a write in its ACL).
pub(super) fn doubt(path: &Path) -> Option<String> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => return Some(format!("cannot be checked: {e}")),
    };
    let kind = if meta.is_dir() { "directory" } else { "file" };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = crate::shared::platform::me::uid();
        if meta.uid() != me && meta.uid() != 0 {
            return Some(format!(
                "the {kind} belongs to uid {}, not to this user (uid {me})",
                meta.uid()
            ));
        }
    }
    match crate::shared::platform::private::others_may_write(path) {
        Ok(writers) => writers.map(|w| format!("the {kind} is {w}")),
        Err(e) => Some(format!("cannot be checked: {e}")),
    }
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

#[cfg(all(test, unix))]
mod tests {
    use super::super::testutil::Tree;
    use super::*;
    use std::fs;
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
