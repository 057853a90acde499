//! Files in the repository that the code writes: the extension's contract
//! (extension/sw/contract.js and extension/page/contract.js), the tool pages (docs/tools.md, skill/references/tools.md) and the
//! settings page (docs/settings.md). A test holds each to what the code makes now: a run that finds
//! one stale writes it anew and fails, so the next run passes once the new file is there to commit.

use std::path::Path;

/// Holds the repository's file at `relative` to `made`: writes it anew and fails when it differs,
/// `then` saying what else to do (after "commit it").
pub fn keep_current(relative: &str, made: &str, then: &str) {
    keep_all_current(&[(relative, made)], then);
}

/// As [`keep_current`] for several files made together: every stale one is written before the
/// test fails, so one more run passes.
pub fn keep_all_current(files: &[(&str, &str)], then: &str) {
    let mut stale = Vec::new();
    for (relative, made) in files {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*made) {
            std::fs::write(&path, made).unwrap_or_else(|e| panic!("writing {relative}: {e}"));
            stale.push(*relative);
        }
    }
    assert!(
        stale.is_empty(),
        "{} stale: written anew; commit it{then}",
        stale.join(", ")
    );
}
