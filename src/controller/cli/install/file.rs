//! The client's config file on disk: read, then written in one step, never through a path the
//! person did not mean.
//!
//! A config that is a symbolic link (a dotfiles setup: `~/.claude.json -> dotfiles/claude.json`)
//! is followed on purpose: tabpilot reads and writes the regular file the link leads to, and the
//! link stays. A link that leads nowhere, or to something that is not a regular file (a folder, a
//! pipe, a device), is refused before anything is read. The new text goes into a temporary file
//! beside that file, with its mode and owner, and is renamed over it, so the client never reads
//! half a file.
//!
//! Just before the rename (or the removal), the file is read again: if it no longer holds what
//! was read (Claude Code rewrites ~/.claude.json as it runs), nothing is written, and the person
//! is asked to run the command again. Not re-read and re-applied: the diff printed is then the
//! change written, never one the person did not see, and with no pause between the read and the
//! write a second run almost always goes through (a retry would still need this refusal when the
//! client writes again). Content is compared, not mtime and size: a write within the mtime's
//! granularity that keeps the size is still seen, and a file written back as it was loses
//! nothing. Between that last read and the rename there is still a window of microseconds, as
//! between any two programs that write one file without a lock; clients take none tabpilot
//! could share.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::shared::platform::files::NoFollow;

/// A config path that tabpilot will not write through.
#[derive(Debug, thiserror::Error)]
pub(super) enum Refused {
    #[error(
        "{link} is a symbolic link to {target}, which does not exist: nothing was written. \
         Create the file it should lead to (`{{}}` will do for JSON, an empty file for TOML), \
         or remove the link, then run this again"
    )]
    Dangling { link: PathBuf, target: PathBuf },
    #[error(
        "{path} is {kind}, not a regular file{via}: nothing was written. Point the client's \
         config at a regular file, then run this again"
    )]
    NotAFile {
        path: PathBuf,
        kind: &'static str,
        /// ` (the symbolic link LINK leads there)`, or nothing.
        via: String,
    },
    #[error(
        "{path} changed while tabpilot was editing it (the client, or another program, wrote it \
         after tabpilot read it): nothing was written, so what it wrote is kept. Run the same \
         command again; if this keeps happening, quit the client first"
    )]
    Changed { path: PathBuf },
    /// Unix only: on Windows a file's owner is whoever wrote it.
    #[cfg(unix)]
    #[error(
        "{path} belongs to user {uid} (group {gid}), and tabpilot, running as user {me}, cannot \
         give the new file that owner: nothing was written. Run this as the file's owner"
    )]
    Owner {
        path: PathBuf,
        uid: u32,
        gid: u32,
        me: u32,
    },
}

/// A client's config as read.
pub(super) struct Config {
    /// The path the client reads, maybe a symbolic link.
    pub path: PathBuf,
    /// The regular file behind it: `path` itself, or where its link leads.
    target: PathBuf,
    /// The file's text (empty when there is no file yet).
    pub text: String,
    /// The file's metadata when it was read; none when there was no file.
    meta: Option<fs::Metadata>,
}

impl Config {
    /// Reads the config at `path`, following a symbolic link to the regular file it leads to.
    pub(super) fn read(path: &Path) -> anyhow::Result<Config> {
        let target = resolve(path)?;
        let meta = match fs::metadata(&target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {}", target.display())),
        };
        let text = match &meta {
            Some(_) => fs::read_to_string(&target)
                .with_context(|| format!("reading {}", target.display()))?,
            None => String::new(),
        };
        Ok(Config {
            path: path.to_path_buf(),
            target,
            text,
            meta,
        })
    }

    /// Whether the client's path is a symbolic link (whose target is what is read and written).
    pub(super) fn is_link(&self) -> bool {
        self.target != self.path
    }

    /// The file written: the link's target, or the path itself.
    pub(super) fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `text` in place of the file (keeping its mode and owner, or owner-only when
    /// `private`, when it holds a token) and returns the mode it had; a new file is owner-only.
    pub(super) fn write(&self, text: &str, private: bool) -> anyhow::Result<u32> {
        let was = self.meta.as_ref().map_or(0o600, mode_of);
        let mode = if private { 0o600 } else { was };
        let dir = match self.target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
        let tmp = Temp::new(dir, &self.target, mode)?;
        self.same_owner(&tmp.file)?;
        // The mode asked for, whatever the umask took from it (after a chown, which may clear
        // bits).
        set_mode(&tmp, mode)?;
        (&tmp.file).write_all(text.as_bytes())?;
        tmp.file.sync_all()?;
        self.still_as_read()?;
        tmp.put(&self.target)?;
        Ok(was)
    }

    /// Removes the file (tabpilot's entry was all it held).
    pub(super) fn remove(&self) -> anyhow::Result<()> {
        self.still_as_read()?;
        fs::remove_file(&self.target).with_context(|| format!("removing {}", self.target.display()))
    }

    /// Refuses when the file is no longer as it was read: written, made, removed or replaced
    /// since, or its link now leading elsewhere.
    fn still_as_read(&self) -> Result<(), Refused> {
        let same = resolve(&self.path).is_ok_and(|t| t == self.target)
            && match fs::symlink_metadata(&self.target) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.meta.is_none(),
                Ok(now) if now.is_file() && self.meta.is_some() => {
                    now.len() == self.text.len() as u64
                        && fs::read(&self.target).is_ok_and(|t| t == self.text.as_bytes())
                }
                _ => false,
            };
        if same {
            Ok(())
        } else {
            Err(Refused::Changed {
                path: self.target.clone(),
            })
        }
    }

    /// Gives `file` the owner and group the config had, when it had others than a new file's.
    #[cfg(unix)]
    fn same_owner(&self, file: &fs::File) -> anyhow::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let Some(meta) = &self.meta else {
            return Ok(());
        };
        let made = file.metadata()?;
        if (made.uid(), made.gid()) == (meta.uid(), meta.gid()) {
            return Ok(());
        }
        std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).map_err(|_| {
            Refused::Owner {
                path: self.target.clone(),
                uid: meta.uid(),
                gid: meta.gid(),
                me: made.uid(),
            }
        })?;
        Ok(())
    }

    /// Windows: a file's owner is whoever made it, and only an administrator may give it
    /// another; its ACL, kept by the folder, is what decides who reads it.
    #[cfg(windows)]
    fn same_owner(&self, _file: &fs::File) -> anyhow::Result<()> {
        Ok(())
    }
}

/// The regular file (or the place for a new one) that `path` names, a symbolic link followed.
fn resolve(path: &Path) -> Result<PathBuf, anyhow::Error> {
    let not_a_file = |path: &Path, meta: &fs::Metadata, link: Option<&Path>| Refused::NotAFile {
        path: path.to_path_buf(),
        kind: kind(meta),
        via: link.map_or(String::new(), |l| {
            format!(" (the symbolic link {} leads there)", l.display())
        }),
    };
    let meta = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        other => other.with_context(|| format!("reading {}", path.display()))?,
    };
    if !meta.file_type().is_symlink() {
        if !meta.is_file() {
            return Err(not_a_file(path, &meta, None).into());
        }
        return Ok(path.to_path_buf());
    }
    let target = match fs::canonicalize(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let to = fs::read_link(path).unwrap_or_default();
            let target = path.parent().map_or(to.clone(), |d| d.join(&to));
            return Err(Refused::Dangling {
                link: path.to_path_buf(),
                target,
            }
            .into());
        }
        Err(e) => {
            return Err(e)
                .with_context(|| format!("following the symbolic link {}", path.display()));
        }
    };
    let meta = fs::metadata(&target).with_context(|| format!("reading {}", target.display()))?;
    if !meta.is_file() {
        return Err(not_a_file(&target, &meta, Some(path)).into());
    }
    Ok(target)
}

/// A file's mode bits; Windows has none, so what it shows there is what a file that is
/// owner-only would.
fn mode_of(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    return std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777;
    #[cfg(windows)]
    return {
        let _ = meta;
        0o600
    };
}

/// Gives the file being written `mode` (0600 for a config with a token: on Windows its
/// owner-only ACL; other modes are Unix's alone, and a new file there takes its folder's ACL).
fn set_mode(tmp: &Temp, mode: u32) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.file.set_permissions(fs::Permissions::from_mode(mode))?;
    }
    #[cfg(windows)]
    if mode == 0o600 {
        crate::shared::platform::private::restrict_file(&tmp.path)?;
    }
    Ok(())
}

/// What a file that is not regular is, in words.
#[cfg(windows)]
fn kind(meta: &fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a folder"
    } else {
        "not a plain file"
    }
}

/// What a file that is not regular is, in words.
#[cfg(unix)]
fn kind(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a plain file"
    }
}

/// A temporary file beside the config, removed unless it is put in the config's place.
struct Temp {
    path: PathBuf,
    file: fs::File,
    put: bool,
}

impl Temp {
    fn new(dir: &Path, target: &Path, mode: u32) -> anyhow::Result<Temp> {
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let path = dir.join(format!(
            ".{name}.tabpilot-{}-{:08x}",
            std::process::id(),
            rand::random::<u32>()
        ));
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true).no_follow();
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, mode);
        #[cfg(windows)]
        let _ = mode;
        let file = opts
            .open(&path)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Temp {
            path,
            file,
            put: false,
        })
    }

    /// Renames the file over `target`.
    fn put(mut self, target: &Path) -> anyhow::Result<()> {
        fs::rename(&self.path, target)
            .with_context(|| format!("replacing {}", target.display()))?;
        self.put = true;
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.put {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tabpilot-file-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_link_is_written_through_and_a_pipe_or_a_link_to_one_is_never_opened() {
        let d = dir("pipe");
        let pipe = d.join("pipe");
        let made = std::ffi::CString::new(pipe.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid C string naming a path in our own temporary folder.
        assert_eq!(unsafe { libc::mkfifo(made.as_ptr(), 0o600) }, 0);
        let link = d.join("link.json");
        symlink(&pipe, &link).unwrap();
        for path in [&pipe, &link] {
            let (tx, rx) = std::sync::mpsc::channel();
            let p = path.clone();
            std::thread::spawn(move || tx.send(Config::read(&p).err().map(|e| e.to_string())));
            let Ok(err) = rx.recv_timeout(std::time::Duration::from_secs(5)) else {
                // Free the reader blocked on the pipe, then fail.
                drop(fs::OpenOptions::new().write(true).open(&pipe));
                panic!("{} was opened and read: it blocks", path.display());
            };
            let err = err.expect("a pipe is refused");
            assert!(err.contains("a named pipe, not a regular file"), "{err}");
        }

        let file = d.join("file.json");
        fs::write(&file, "{}").unwrap();
        let linked = d.join("linked.json");
        symlink("file.json", &linked).unwrap();
        let config = Config::read(&linked).unwrap();
        assert!(config.is_link());
        assert_eq!(config.target(), fs::canonicalize(&file).unwrap());
        config.write("{\"a\": 1}", false).unwrap();
        assert!(
            fs::symlink_metadata(&linked)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "{\"a\": 1}");
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn the_new_file_keeps_the_old_ones_owner_and_mode() {
        // SAFETY: getuid has no preconditions.
        if unsafe { libc::getuid() } != 0 {
            eprintln!("skipped: giving a file another owner needs root");
            return;
        }
        // As `sudo tabpilot install` would: root edits a file of another user's.
        let d = dir("owner");
        let file = d.join("settings.json");
        fs::write(&file, "{}").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
        let owner = |f: &Path| {
            let m = fs::metadata(f).unwrap();
            (m.uid(), m.gid(), m.mode() & 0o777)
        };
        Config::read(&file)
            .unwrap()
            .write("{\"a\": 1}", false)
            .unwrap();
        assert_eq!(owner(&file), (65534, 65534, 0o640));
        Config::read(&file)
            .unwrap()
            .write("{\"t\": 1}", true)
            .unwrap();
        assert_eq!(owner(&file), (65534, 65534, 0o600));
        let _ = fs::remove_dir_all(&d);
    }

    fn changed(result: anyhow::Result<impl std::fmt::Debug>) -> bool {
        let err = result.expect_err("written over the client's text");
        matches!(err.downcast_ref(), Some(Refused::Changed { .. }))
    }

    #[test]
    fn a_file_the_client_wrote_after_it_was_read_is_left_as_the_client_wrote_it() {
        let d = dir("changed");
        let file = d.join("claude.json");
        // Rewritten in place, the same size (an mtime within its granularity would not tell).
        fs::write(&file, "{\"numStartups\": 3}\n").unwrap();
        let config = Config::read(&file).unwrap();
        fs::write(&file, "{\"numStartups\": 4}\n").unwrap();
        assert!(changed(config.write("{\"mcpServers\": {}}\n", false)));
        assert_eq!(fs::read_to_string(&file).unwrap(), "{\"numStartups\": 4}\n");
        assert_eq!(
            fs::read_dir(&d).unwrap().count(),
            1,
            "a temporary file was left"
        );

        // Replaced by a rename, as clients save.
        let config = Config::read(&file).unwrap();
        fs::write(d.join("new"), "{\"numStartups\": 5, \"projects\": {}}\n").unwrap();
        fs::rename(d.join("new"), &file).unwrap();
        assert!(changed(config.remove()));
        assert!(changed(config.write("{}\n", false)));
        assert!(fs::read_to_string(&file).unwrap().contains("projects"));

        // Made after tabpilot found none; a link repointed to another file.
        let gone = d.join("mcp.json");
        let config = Config::read(&gone).unwrap();
        fs::write(&gone, "{\"mcpServers\": {\"notes\": {}}}").unwrap();
        assert!(changed(config.write("{}\n", false)));
        assert!(fs::read_to_string(&gone).unwrap().contains("notes"));
        let link = d.join("link.json");
        symlink(&file, &link).unwrap();
        let config = Config::read(&link).unwrap();
        fs::remove_file(&link).unwrap();
        symlink(&gone, &link).unwrap();
        assert!(changed(config.write("{}\n", false)));
        assert!(fs::read_to_string(&gone).unwrap().contains("notes"));

        // Unchanged, it is written.
        let config = Config::read(&file).unwrap();
        config.write("{}\n", false).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "{}\n");
        let _ = fs::remove_dir_all(&d);
    }
}
