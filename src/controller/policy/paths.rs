//! The path sandbox: files tabpilot writes (`filePath`) and files it reads to upload must sit
//! under one of an explicit list of roots, with symlinks and `..` resolved before the check:
//!
//! - each folder `TABPILOT_WORKSPACE` names (a list, separated as `PATH` is);
//! - each root the MCP client gives (`roots/list`, client_roots.rs), under the working
//!   directory's rule;
//! - the working directory, unless it is `/`, the home directory or a folder above it;
//! - tabpilot's own temp folder, `<temp>/tabpilot-<uid>`: created 0700, and used only while it
//!   is a real directory owned by this user (never the whole temp directory, where other users
//!   and tabpilot's state may live).
//!
//! Some places are never inside, whatever the roots: tabpilot's state directory (the relay
//! secret), `/proc`, `/sys`, `/dev` and `/etc`. A refusal names the roots.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Component, Path, PathBuf};

use crate::shared::error::{Code, ToolError};
use crate::shared::platform::private::{self, OwnerOnly};
use crate::shared::settings::Setting;

/// Places never inside the sandbox, whatever the roots (the state dir joins them at run time).
const NEVER: [&str; 4] = ["/proc", "/sys", "/dev", "/etc"];

/// A directory and what it is, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub path: PathBuf,
    pub what: &'static str,
}

impl Place {
    fn new(path: impl Into<PathBuf>, what: &'static str) -> Place {
        Place {
            path: path.into(),
            what,
        }
    }
}

/// Where files may be written and read: the roots, the places never inside them, and notes on
/// would-be roots that were left out (for the refusal's text).
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Vec<Place>,
    never: Vec<Place>,
    notes: Vec<String>,
}

impl Sandbox {
    /// The sandbox of this process: `TABPILOT_WORKSPACE`, the working directory (unless it is
    /// `/`, the home directory or above it) and tabpilot's temp folder; never the state dir,
    /// `/proc`, `/sys`, `/dev` or `/etc`.
    pub fn from_process() -> Sandbox {
        let mut roots = Vec::new();
        let mut notes = Vec::new();
        for ws in Setting::Workspace.paths() {
            match ws.canonicalize() {
                Ok(path) => roots.push(Place::new(path, "TABPILOT_WORKSPACE")),
                Err(e) => notes.push(format!(
                    "TABPILOT_WORKSPACE {} cannot be used: {e}",
                    ws.display()
                )),
            }
        }
        if let Ok(cwd) = std::env::current_dir().and_then(|d| d.canonicalize()) {
            if cwd_is_a_root(&cwd, home().as_deref()) {
                roots.push(Place::new(cwd, "the working directory"));
            } else {
                notes.push(format!(
                    "the working directory {} is not a root: it is / or holds the home directory",
                    cwd.display()
                ));
            }
        }
        match temp_folder() {
            Ok(path) => roots.push(Place::new(path, "tabpilot's temp folder")),
            Err(why) => notes.push(why),
        }
        let state = crate::shared::state::state_dir();
        let state = std::env::current_dir()
            .map(|d| d.join(&state))
            .unwrap_or(state);
        let mut never = vec![Place::new(resolved(&state), "tabpilot's state directory")];
        if lexical(&state) != resolved(&state) {
            never.push(Place::new(lexical(&state), "tabpilot's state directory"));
        }
        for dir in NEVER {
            never.push(Place::new(dir, "never in the sandbox"));
            if let Ok(real) = Path::new(dir).canonicalize()
                && real != Path::new(dir)
            {
                never.push(Place::new(real, "never in the sandbox"));
            }
        }
        Sandbox {
            roots,
            never,
            notes,
        }
    }

    /// A sandbox with these roots and, besides `extra_never`, the fixed places never inside.
    pub fn new(roots: Vec<Place>, extra_never: Vec<Place>) -> Sandbox {
        let mut never = extra_never;
        never.extend(NEVER.map(|d| Place::new(d, "never in the sandbox")));
        Sandbox {
            roots,
            never,
            notes: Vec::new(),
        }
    }

    pub fn roots(&self) -> &[Place] {
        &self.roots
    }

    /// With the MCP client's roots added: each a directory, under the working directory's rule
    /// (a client that offers `/` or the home directory opens no more than a working directory
    /// there would); the places never inside stay outside.
    pub fn with_client_roots(mut self, roots: &[PathBuf]) -> Sandbox {
        let home = home();
        for root in roots {
            match root.canonicalize() {
                Ok(path) if !path.is_dir() => self.notes.push(format!(
                    "the client's root {} is not a directory",
                    root.display()
                )),
                Ok(path) if cwd_is_a_root(&path, home.as_deref()) => {
                    self.roots.push(Place::new(path, "the client's root"))
                }
                Ok(path) => self.notes.push(format!(
                    "the client's root {} is not a root: it is / or holds the home directory",
                    path.display()
                )),
                Err(e) => self.notes.push(format!(
                    "the client's root {} cannot be used: {e}",
                    root.display()
                )),
            }
        }
        self
    }

    /// Checks a file to write (relative to the working directory) and opens it, before anything
    /// is sent: inside a root, not a symlink, not a directory or other non-file, and writable.
    /// A folder of it that does not exist is made, once where it would be is found inside a
    /// root. A file created here is removed again unless it is written.
    pub fn output(&self, path: &str) -> Result<OutputFile, ToolError> {
        let raw = Path::new(path);
        if path.is_empty() || raw.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(ToolError::refused(
                Code::PathOutsideSandbox,
                format!("{path:?} is empty or uses `..`"),
            ));
        }
        let abs = absolute(raw);
        let (parent, file) = match (abs.parent(), abs.file_name()) {
            (Some(p), Some(f)) => (p, f),
            _ => {
                return Err(ToolError::bad_args(format!(
                    "{path:?} does not name a file"
                )));
            }
        };
        let parent = match parent.canonicalize() {
            Ok(p) => p,
            Err(e) if e.kind() == ErrorKind::NotFound => self.make_folder(parent, path)?,
            Err(e) => {
                self.admit(&lexical(&abs), &lexical(&abs))?;
                return Err(ToolError::bad_args(format!(
                    "the folder of {path:?} does not exist: {e}"
                )));
            }
        };
        let target = parent.join(file);
        self.admit(&lexical(&abs), &target)?;
        let created = match fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(ToolError::refused(
                    Code::PathOutsideSandbox,
                    format!("{} is a symlink", target.display()),
                ));
            }
            Ok(m) if m.is_dir() => {
                return Err(ToolError::bad_args(format!(
                    "{} is a directory; filePath names the file to write, such as {}",
                    target.display(),
                    target.join("out.txt").display()
                )));
            }
            Ok(m) if !m.is_file() => {
                return Err(ToolError::bad_args(format!(
                    "{} is not a regular file",
                    target.display()
                )));
            }
            Ok(_) => false,
            Err(e) if e.kind() == ErrorKind::NotFound => true,
            Err(e) => {
                return Err(ToolError::bad_args(format!(
                    "cannot use {}: {e}",
                    target.display()
                )));
            }
        };
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(created).owner_only();
        // Never through a link, and never blocked on a named pipe put in the file's place.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut opts,
            libc::O_NOFOLLOW | libc::O_NONBLOCK,
        );
        let file = opts
            .open(&target)
            .map_err(|e| ToolError::bad_args(format!("cannot write {}: {e}", target.display())))?;
        Ok(OutputFile {
            path: target,
            file,
            created,
            written: false,
        })
    }

    /// Makes the missing folders of `folder` (the file `path`'s), where they would be once the
    /// folder that exists above them is resolved: only inside a root, so a link on the way that
    /// leads out of the roots makes nothing there.
    fn make_folder(&self, folder: &Path, path: &str) -> Result<PathBuf, ToolError> {
        let cannot = |e: std::io::Error| {
            ToolError::bad_args(format!("cannot make the folder of {path:?}: {e}"))
        };
        let mut base = folder;
        while !base.exists() {
            base = base.parent().unwrap_or(Path::new("/"));
        }
        let rest = folder.strip_prefix(base).unwrap_or(Path::new(""));
        let target = base.canonicalize().map_err(cannot)?.join(rest);
        self.admit(&lexical(folder), &target)?;
        private::create_dir(&target).map_err(cannot)?;
        target.canonicalize().map_err(cannot)
    }

    /// Resolves an existing file to read (relative to the working directory), symlinks and `..`
    /// included, and checks that it is a regular file inside a root and under the ceiling.
    /// Returns the resolved path and its size.
    pub fn input(&self, path: &str) -> Result<(PathBuf, u64), ToolError> {
        if path.is_empty() {
            return Err(ToolError::bad_args("a path is empty"));
        }
        let asked = lexical(&absolute(Path::new(path)));
        let resolved = match Path::new(path).canonicalize() {
            Ok(r) => r,
            Err(e) => {
                // Say "outside" rather than whether a file outside the sandbox exists.
                self.admit(&asked, &asked)?;
                return Err(ToolError::bad_args(format!("cannot open {path:?}: {e}")));
            }
        };
        self.admit(&asked, &resolved)?;
        let meta = fs::metadata(&resolved)
            .map_err(|e| ToolError::bad_args(format!("cannot open {path:?}: {e}")))?;
        if !meta.is_file() {
            return Err(ToolError::bad_args(format!(
                "{} is not a regular file",
                resolved.display()
            )));
        }
        if meta.len() > MAX_INPUT_BYTES {
            return Err(ToolError::bad_args(format!(
                "{} is {} bytes; the ceiling is {} MiB",
                resolved.display(),
                meta.len(),
                MAX_INPUT_BYTES >> 20
            )));
        }
        Ok((resolved, meta.len()))
    }

    /// Refuses a path (as asked, and as resolved) that is in a place never inside, or under no
    /// root.
    fn admit(&self, asked: &Path, resolved: &Path) -> Result<(), ToolError> {
        if let Some(never) = self
            .never
            .iter()
            .find(|n| asked.starts_with(&n.path) || resolved.starts_with(&n.path))
        {
            let what = if never.what == "never in the sandbox" {
                never.path.display().to_string()
            } else {
                format!("{} ({})", never.path.display(), never.what)
            };
            return Err(ToolError::refused(
                Code::PathOutsideSandbox,
                format!(
                    "{} is inside {what}, which is never in the sandbox whatever the roots \
                     (tabpilot's state directory, /proc, /sys, /dev and /etc are not); {}",
                    resolved.display(),
                    self.roots_text()
                ),
            ));
        }
        if self.roots.iter().any(|r| resolved.starts_with(&r.path)) {
            return Ok(());
        }
        Err(ToolError::refused(
            Code::PathOutsideSandbox,
            format!(
                "{} is outside the sandbox; {}",
                resolved.display(),
                self.roots_text()
            ),
        ))
    }

    /// The roots in words, with the would-be roots that were left out and why.
    fn roots_text(&self) -> String {
        let mut text = if self.roots.is_empty() {
            "there are no roots: set TABPILOT_WORKSPACE or start tabpilot in a project directory"
                .to_string()
        } else {
            let listed: Vec<String> = self
                .roots
                .iter()
                .map(|r| format!("{} ({})", r.path.display(), r.what))
                .collect();
            format!("the roots are {}", listed.join(", "))
        };
        for note in &self.notes {
            text.push_str("; ");
            text.push_str(note);
        }
        text
    }
}

/// The home directory, resolved.
fn home() -> Option<PathBuf> {
    crate::shared::platform::dirs::home().and_then(|h| h.canonicalize().ok())
}

/// Whether the working directory may be a root: not `/`, and not the home directory or a
/// folder that holds it.
fn cwd_is_a_root(cwd: &Path, home: Option<&Path>) -> bool {
    cwd.parent().is_some() && !home.is_some_and(|h| h.starts_with(cwd))
}

/// tabpilot's temp folder, `<temp>/tabpilot-<uid>`: created 0700 if missing; refused unless it
/// is a real directory owned by this user (its mode is brought back to 0700 if it was wider).
pub fn temp_folder() -> Result<PathBuf, String> {
    temp_folder_in(&std::env::temp_dir())
}

fn temp_folder_in(temp: &Path) -> Result<PathBuf, String> {
    // Unix shares one temp folder among its users: the uid in the name keeps each its own.
    // Windows gives each user a temp folder of their own.
    let name = if cfg!(unix) {
        format!("tabpilot-{}", crate::shared::platform::me::uid())
    } else {
        "tabpilot".to_string()
    };
    let dir = temp.join(name);
    let unusable = |why: String| format!("tabpilot's temp folder {} {why}", dir.display());
    match fs::DirBuilder::new().owner_only().create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(unusable(format!("cannot be created: {e}"))),
    }
    let meta = fs::symlink_metadata(&dir).map_err(|e| unusable(format!("cannot be used: {e}")))?;
    if !meta.file_type().is_dir() {
        return Err(unusable("is not a directory (a symlink?); not used".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != crate::shared::platform::me::uid() {
            return Err(unusable(format!(
                "belongs to uid {}, not to this user; not used",
                meta.uid()
            )));
        }
    }
    if private::open_to_others(&dir).map_or(true, |others| others.is_some()) {
        private::restrict_dir(&dir)
            .map_err(|e| unusable(format!("cannot be made private: {e}")))?;
    }
    dir.canonicalize()
        .map_err(|e| unusable(format!("cannot be used: {e}")))
}

/// A file to write, checked and opened before the page is asked for its content.
#[derive(Debug)]
pub struct OutputFile {
    path: PathBuf,
    file: File,
    /// Created by the check, so removed again if nothing is written.
    created: bool,
    written: bool,
}

impl OutputFile {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the file's content with `bytes`; returns its path.
    pub fn write(mut self, bytes: &[u8]) -> Result<PathBuf, ToolError> {
        self.file
            .set_len(0)
            .and_then(|()| self.file.write_all(bytes))
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                ToolError::failed(
                    Code::Internal,
                    format!("cannot write {}: {e}", self.path.display()),
                )
            })?;
        self.written = true;
        Ok(self.path.clone())
    }

    /// `write`, off the async runtime's workers: a file of tens of megabytes (a trace) would hold
    /// one of its two workers for as long as it takes.
    pub async fn write_off_runtime(self, bytes: Vec<u8>) -> Result<PathBuf, ToolError> {
        crate::shared::blocking::run("writing the file", move || self.write(&bytes)).await
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.created && !self.written {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The most bytes one call may read from local files (an upload's files together).
pub const MAX_INPUT_BYTES: u64 = 10 << 20;

/// `path` from the working directory when relative.
fn absolute(path: &Path) -> PathBuf {
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// `path` with `.` and `..` folded away, without asking the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `path` with symlinks resolved as far as it exists, and the rest appended.
fn resolved(path: &Path) -> PathBuf {
    let path = lexical(path);
    let mut rest = Vec::new();
    let mut head = path.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return rest.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return path,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn sandbox(root: &Path) -> Sandbox {
        Sandbox::new(vec![Place::new(root, "test root")], Vec::new())
    }

    fn out_err(s: &Sandbox, p: &Path) -> ToolError {
        s.output(p.to_str().unwrap()).unwrap_err()
    }

    #[test]
    fn paths_inside_a_root_pass_and_escapes_are_refused() {
        let root = temp_dir("sandbox").canonicalize().unwrap();
        let outside = temp_dir("outside").canonicalize().unwrap();
        let s = sandbox(&root);
        let ok = s.output(root.join("shot.png").to_str().unwrap()).unwrap();
        assert_eq!(ok.path(), root.join("shot.png"));
        let e = out_err(&s, &outside.join("x.png"));
        assert_eq!(e.code, Code::PathOutsideSandbox);
        assert!(e.message.contains("the roots are"), "{}", e.message);
        assert!(
            e.message
                .contains(&format!("{} (test root)", root.display())),
            "{}",
            e.message
        );
        let dots = format!("{}/../x.png", root.display());
        assert_eq!(s.output(&dots).unwrap_err().code, Code::PathOutsideSandbox);
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        let through = out_err(&s, &root.join("link/x.png"));
        assert_eq!(through.code, Code::PathOutsideSandbox);
    }

    #[test]
    fn a_missing_folder_inside_a_root_is_made_and_one_through_a_link_out_is_not() {
        let root = temp_dir("mkfolder").canonicalize().unwrap();
        let outside = temp_dir("mkfolder-out").canonicalize().unwrap();
        let s = sandbox(&root);
        let file = root.join("shots/today/page.png");
        let out = s.output(file.to_str().unwrap()).unwrap();
        assert_eq!(out.path(), file);
        assert!(root.join("shots/today").is_dir());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, root.join("away")).unwrap();
            let e = out_err(&s, &root.join("away/new/page.png"));
            assert_eq!(e.code, Code::PathOutsideSandbox, "{}", e.message);
            assert!(
                !outside.join("new").exists(),
                "a folder was made outside the roots"
            );
        }
        let e = out_err(&s, &outside.join("new/page.png"));
        assert_eq!(e.code, Code::PathOutsideSandbox);
        assert!(!outside.join("new").exists());
    }

    #[test]
    fn a_directory_or_a_special_file_is_refused_before_anything_is_written() {
        let root = temp_dir("outdir").canonicalize().unwrap();
        let s = sandbox(&root);
        std::fs::create_dir(root.join("sub")).unwrap();
        let e = out_err(&s, &root.join("sub"));
        assert_eq!(
            (e.code, e.outcome),
            (Code::BadArgs, crate::shared::error::Outcome::Refused)
        );
        assert!(e.message.contains("is a directory"), "{}", e.message);
        let e = s.output(&format!("{}/sub/", root.display())).unwrap_err();
        assert_eq!(e.code, Code::BadArgs);
    }

    #[test]
    fn an_output_file_is_removed_unless_written_and_an_old_one_is_replaced() {
        let root = temp_dir("outfile").canonicalize().unwrap();
        let s = sandbox(&root);
        let fresh = root.join("fresh.txt");
        drop(s.output(fresh.to_str().unwrap()).unwrap());
        assert!(!fresh.exists(), "an unwritten new file stays behind");
        let written = s
            .output(fresh.to_str().unwrap())
            .unwrap()
            .write(b"hi")
            .unwrap();
        assert_eq!(std::fs::read(&written).unwrap(), b"hi");
        assert_eq!(
            std::fs::metadata(&written).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let old = root.join("old.txt");
        std::fs::write(&old, "a much longer old content").unwrap();
        drop(s.output(old.to_str().unwrap()).unwrap());
        assert_eq!(std::fs::read(&old).unwrap(), b"a much longer old content");
        s.output(old.to_str().unwrap())
            .unwrap()
            .write(b"new")
            .unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"new");
    }

    #[test]
    fn etc_proc_and_the_state_dir_are_never_inside_whatever_the_roots() {
        let state = temp_dir("state-never").canonicalize().unwrap();
        std::fs::write(state.join("secret"), "s3cret").unwrap();
        let everything = Sandbox::new(
            vec![Place::new("/", "TABPILOT_WORKSPACE")],
            vec![Place::new(&state, "tabpilot's state directory")],
        );
        for path in ["/etc/passwd", "/proc/self/environ", "/sys/kernel/notes"] {
            let e = everything.input(path).unwrap_err();
            assert_eq!(e.code, Code::PathOutsideSandbox, "{path}");
            assert!(e.message.contains("never in the sandbox"), "{}", e.message);
            assert!(
                e.message.contains("/ (TABPILOT_WORKSPACE)"),
                "{}",
                e.message
            );
        }
        let secret = state.join("secret");
        let e = everything.input(secret.to_str().unwrap()).unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        assert!(e.message.contains("state directory"), "{}", e.message);
        assert_eq!(out_err(&everything, &secret).code, Code::PathOutsideSandbox);
        assert_eq!(std::fs::read(&secret).unwrap(), b"s3cret");
        assert_eq!(
            everything.output("/etc/tabpilot.txt").unwrap_err().code,
            Code::PathOutsideSandbox
        );
        assert_eq!(
            everything.output("/dev/shm/tabpilot.txt").unwrap_err().code,
            Code::PathOutsideSandbox
        );
        // A symlink from a root into /etc is resolved first.
        let root = temp_dir("never-link").canonicalize().unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("passwd")).unwrap();
        let e = sandbox(&root)
            .input(root.join("passwd").to_str().unwrap())
            .unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        // A missing file outside the roots is "outside", not "missing".
        let e = sandbox(&root).input("/etc/no-such-file").unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
    }

    #[test]
    fn the_working_directory_is_a_root_unless_it_is_slash_or_holds_home() {
        let home = Path::new("/home/ann");
        assert!(!cwd_is_a_root(Path::new("/"), Some(home)));
        assert!(!cwd_is_a_root(home, Some(home)));
        assert!(!cwd_is_a_root(Path::new("/home"), Some(home)));
        assert!(cwd_is_a_root(Path::new("/home/ann/project"), Some(home)));
        assert!(cwd_is_a_root(Path::new("/srv/app"), Some(home)));
        assert!(cwd_is_a_root(Path::new("/srv/app"), None));
    }

    #[test]
    fn the_temp_folder_is_private_and_ours_or_not_used() {
        let temp = temp_dir("tempfolder").canonicalize().unwrap();
        let dir = temp_folder_in(&temp).unwrap();
        let meta = std::fs::symlink_metadata(&dir).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o700);
        // SAFETY: geteuid(2) cannot fail.
        assert_eq!(meta.uid(), unsafe { libc::geteuid() });
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(temp_folder_in(&temp).unwrap(), dir);
        let mode = std::fs::metadata(&dir).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700, "a widened folder is made private again");
        // Someone else's folder in its place is not used (needs root to stage).
        if std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).is_ok() {
            let why = temp_folder_in(&temp).unwrap_err();
            assert!(why.contains("belongs to uid 65534"), "{why}");
        }
        // Nor is a symlink to a folder elsewhere.
        let other = temp_dir("tempfolder-other").canonicalize().unwrap();
        std::fs::remove_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&other, &dir).unwrap();
        let why = temp_folder_in(&temp).unwrap_err();
        assert!(why.contains("not a directory"), "{why}");
    }

    #[test]
    fn input_files_must_be_regular_files_inside_a_root_and_small_enough() {
        let root = temp_dir("inputs").canonicalize().unwrap();
        let outside = temp_dir("inputs-outside").canonicalize().unwrap();
        let s = sandbox(&root);
        std::fs::write(root.join("a.txt"), b"hello").unwrap();
        std::fs::write(outside.join("secret.txt"), b"no").unwrap();
        let (p, size) = s.input(root.join("a.txt").to_str().unwrap()).unwrap();
        assert_eq!((p, size), (root.join("a.txt"), 5));
        let out = outside.join("secret.txt");
        let e = s.input(out.to_str().unwrap()).unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        // `..` and symlinks are resolved before the check, so neither leads out.
        let dots = format!(
            "{}/../{}/secret.txt",
            root.display(),
            outside.file_name().unwrap().to_str().unwrap()
        );
        assert_eq!(s.input(&dots).unwrap_err().code, Code::PathOutsideSandbox);
        std::os::unix::fs::symlink(&out, root.join("link.txt")).unwrap();
        let e = s
            .input(root.join("link.txt").to_str().unwrap())
            .unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        let e = s.input(root.to_str().unwrap()).unwrap_err();
        assert!(e.message.contains("not a regular file"), "{}", e.message);
        assert_eq!(
            s.input(root.join("none").to_str().unwrap())
                .unwrap_err()
                .code,
            Code::BadArgs
        );
        let big = std::fs::File::create(root.join("big.bin")).unwrap();
        big.set_len(MAX_INPUT_BYTES + 1).unwrap();
        let e = s.input(root.join("big.bin").to_str().unwrap()).unwrap_err();
        assert!(e.message.contains("ceiling"), "{}", e.message);
    }
}
