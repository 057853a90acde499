//! The audit file on disk: owner-only, one line appended in one write (so lines from several
//! servers never interleave), rotated past a size with a few old files kept.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::shared::platform::files::{self, NoFollow};
use crate::shared::platform::private::OwnerOnly;

/// Past this, the file is rotated. A line is about 400 bytes, so this is some 25,000 calls, a
/// long day of an agent's work; `tabpilot audit` reads all of it in well under a second.
pub const MAX_BYTES: u64 = 10 << 20;
/// Rotated files kept beside the live one (`audit.jsonl.1` the newest), so the trail holds at
/// most 40 MiB.
pub const KEEP: usize = 3;

/// Appends `line` (one JSON text ending in a newline) to the file at `path`, rotating it first
/// when the line would take it past `max` bytes.
pub fn append(path: &Path, line: &[u8], max: u64) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Made owner-only when we make it; a folder the person chose is left as it is.
        fs::DirBuilder::new()
            .recursive(true)
            .owner_only()
            .create(dir)?;
    }
    rotate_if_full(path, line.len() as u64, max)?;
    // Opened afresh for each line: a file another server rotated away is not written to again.
    // Never through a symbolic link (O_NOFOLLOW): one put where the trail goes, in a folder
    // others may write, would have it appended to (and made 0600) whatever file it names.
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .owner_only()
        .no_follow()
        .open(path)
        .map_err(|e| linked(path, e))?;
    mine_alone(path, &file)?;
    // O_APPEND and one write: the kernel puts the whole line at the end, whoever else appends.
    let written = file.write(line)?;
    if written != line.len() {
        return Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("wrote {written} of {} bytes", line.len()),
        ));
    }
    Ok(())
}

/// Refuses a trail's file another user owns, and makes it owner-only (0600) if it was not.
#[cfg(unix)]
fn mine_alone(path: &Path, file: &File) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = file.metadata()?;
    if meta.uid() != crate::shared::platform::me::uid() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} belongs to another user (uid {}); the audit trail goes only to a file of \
                 yours",
                path.display(),
                meta.uid()
            ),
        ));
    }
    if meta.permissions().mode() & 0o777 != 0o600 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Makes the trail's file owner-only (its ACL) if others could read it. A file this user may
/// open for appending but does not own keeps its owner: the ACL is what decides who reads it.
#[cfg(windows)]
fn mine_alone(path: &Path, _file: &File) -> io::Result<()> {
    use crate::shared::platform::private;
    if private::open_to_others(path)?.is_some() {
        private::restrict_file(path)?;
    }
    Ok(())
}

/// Refuses a trail's file that is a symbolic link, before anything is written (a server checks
/// at start, so a setting that cannot work stops it).
pub fn not_a_link(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link(path)),
        _ => Ok(()),
    }
}

fn link(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a symbolic link; tabpilot writes the audit trail only to a file itself, never \
             through a link: set {} to the file, or remove the link",
            path.display(),
            crate::shared::settings::Setting::AuditFile
        ),
    )
}

/// The error of an open that met a symbolic link (ELOOP under O_NOFOLLOW), said as such.
fn linked(path: &Path, e: io::Error) -> io::Error {
    if files::met_a_link(&e) { link(path) } else { e }
}

/// The `n`th rotated file: `audit.jsonl.1` is the newest.
fn rotated(path: &Path, n: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{n}"));
    PathBuf::from(name)
}

/// Shifts the files along when `incoming` bytes would take the live one past `max`. Servers
/// that race to rotate take turns on a lock file, and the one that comes second finds the
/// work done.
fn rotate_if_full(path: &Path, incoming: u64, max: u64) -> io::Result<()> {
    let full = |p: &Path| match fs::metadata(p) {
        Ok(m) => Ok(m.len() > 0 && m.len() + incoming > max),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    };
    if !full(path)? {
        return Ok(());
    }
    let lock = lock(&rotated_lock(path))?;
    if !full(path)? {
        return Ok(());
    }
    for n in (1..KEEP).rev() {
        match fs::rename(rotated(path, n), rotated(path, n + 1)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    fs::rename(path, rotated(path, 1))?;
    drop(lock);
    Ok(())
}

fn rotated_lock(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// An exclusive lock on `path`, held until the file is dropped.
fn lock(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .owner_only()
        .no_follow()
        .open(path)
        .map_err(|e| linked(path, e))?;
    // flock on Unix, LockFileEx on Windows; released when the file closes.
    file.lock()?;
    Ok(file)
}

/// The trail's files that exist, oldest first: the rotated ones, then the live one.
pub fn in_order(path: &Path) -> Vec<PathBuf> {
    (1..=KEEP)
        .rev()
        .map(|n| rotated(path, n))
        .chain([path.to_path_buf()])
        .filter(|p| p.is_file())
        .collect()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::shared::state::test_support::{mode, temp_dir};
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_file_and_the_folder_it_makes_are_owner_only() {
        let dir = temp_dir("audit-mode").join("made");
        let path = dir.join("audit.jsonl");
        append(&path, b"{}\n", MAX_BYTES).unwrap();
        assert_eq!((mode(&dir), mode(&path)), (0o700, 0o600));
        // A file someone else made wider is narrowed on the next line.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        append(&path, b"{}\n", MAX_BYTES).unwrap();
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn a_symbolic_link_where_the_trail_goes_is_refused_and_its_target_untouched() {
        let dir = temp_dir("audit-link");
        let target = dir.join("the-persons-file");
        fs::write(&target, "mine\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o644)).unwrap();
        let path = dir.join("audit.jsonl");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let e = append(&path, b"{}\n", MAX_BYTES).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        assert!(not_a_link(&path).is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine\n");
        assert_eq!(mode(&target), 0o644);
        // The rotation's lock file is not followed either.
        let lock_path = rotated_lock(&dir.join("other.jsonl"));
        std::os::unix::fs::symlink(&target, &lock_path).unwrap();
        assert!(lock(&lock_path).is_err());
        assert!(not_a_link(&dir.join("absent.jsonl")).is_ok());
    }

    #[test]
    fn a_full_file_rotates_and_only_a_few_old_ones_are_kept() {
        let path = temp_dir("audit-rotate").join("audit.jsonl");
        // Lines of 10 bytes, at most 30 bytes a file: three lines each.
        for n in 0..20 {
            append(&path, format!("line {n:03}\n").as_bytes(), 30).unwrap();
        }
        let files = in_order(&path);
        assert_eq!(files.len(), KEEP + 1, "{files:?}");
        let text: String = files
            .iter()
            .map(|f| fs::read_to_string(f).unwrap())
            .collect();
        let lines: Vec<&str> = text.lines().collect();
        // The newest lines survive, in order, none cut; the oldest went with the oldest file.
        let expected: Vec<String> = (20 - lines.len()..20)
            .map(|n| format!("line {n:03}"))
            .collect();
        assert_eq!(lines, expected);
        assert_eq!(lines.len(), 3 * KEEP + 2);
        for f in &files {
            assert!(fs::metadata(f).unwrap().len() <= 30);
        }
    }

    #[test]
    fn lines_appended_at_once_from_many_writers_never_interleave() {
        let path = temp_dir("audit-race").join("audit.jsonl");
        let writers: Vec<_> = (0..8)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for n in 0..200 {
                        let line =
                            format!("{{\"w\":{w},\"n\":{n},\"pad\":\"{}\"}}\n", "x".repeat(300));
                        append(&path, line.as_bytes(), 64 << 10).unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let mut seen = 0;
        for f in in_order(&path) {
            for line in fs::read_to_string(f).unwrap().lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("a whole line");
                assert_eq!(v["pad"].as_str().unwrap().len(), 300);
                seen += 1;
            }
        }
        // Rotation dropped the oldest files, never part of a line.
        assert!(seen > 0 && seen <= 8 * 200);
    }
}
