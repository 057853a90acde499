//! Temporary directory trees for the unit tests, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::ContextEnv;

pub(super) struct Tree {
    pub root: PathBuf,
}

impl Tree {
    pub(super) fn new(tag: &str) -> Tree {
        // Project files are trusted only when group and others cannot write to them, so trees
        // are made without those bits, whatever the umask.
        // SAFETY: umask(2) only sets the process's file mode mask; narrowing it is harmless.
        unsafe {
            let old = libc::umask(0o022);
            libc::umask(old | 0o022);
        }
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "tabpilot-ctx-{tag}-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        // Canonical, so that comparisons hold where the temp dir sits behind a symlink.
        let root = std::fs::canonicalize(&dir).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        Tree { root }
    }

    pub(super) fn path(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    pub(super) fn write(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }

    pub(super) fn mkdir(&self, rel: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// A symlink at `link` (relative to the tree) pointing at `target` as given.
    pub(super) fn symlink(&self, target: impl AsRef<Path>, link: &str) {
        let path = self.path(link);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    /// A skill directory with a well-formed SKILL.md.
    pub(super) fn skill(&self, dir: &str, name: &str, description: &str) -> PathBuf {
        self.write(
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nBody of {name}.\n"),
        )
    }

    /// An environment over a fake home inside the tree, working in `cwd`.
    pub(super) fn env(&self, cwd: &str) -> ContextEnv {
        ContextEnv {
            home: self.path("home"),
            codex_home: None,
            workspaces: Vec::new(),
            cwd: self.path(cwd),
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
