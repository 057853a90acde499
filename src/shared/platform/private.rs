//! Owner-only folders and files: what the state directory, its secrets and a config holding a
//! token are. On Unix that is mode 0700 for a folder and 0600 for a file. On Windows it is a
//! protected ACL (nothing inherited from the folders above) with one entry, full control for
//! this user, set on the folder so that every file made in it inherits it, and on a file that
//! may live elsewhere. docs/security.md says what each means.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::Path;

#[cfg(unix)]
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};

/// Made owner-only from the start, where the platform lets a file or folder be born so.
pub trait OwnerOnly {
    fn owner_only(&mut self) -> &mut Self;
}

impl OwnerOnly for OpenOptions {
    /// Mode 0600 on Unix. On Windows a new file takes its folder's ACL, which
    /// [`create_dir`] made owner-only; [`restrict_file`] covers a file elsewhere.
    fn owner_only(&mut self) -> &mut Self {
        #[cfg(unix)]
        self.mode(0o600);
        self
    }
}

impl OwnerOnly for DirBuilder {
    /// Mode 0700 on Unix; on Windows [`restrict_dir`] sets the ACL once the folder is there.
    fn owner_only(&mut self) -> &mut Self {
        #[cfg(unix)]
        self.mode(0o700);
        self
    }
}

/// Opens `path` as `opts` say, owner-only: born 0600 on Unix; on Windows given the owner-only
/// ACL itself once open, rather than trusting its folder to pass it on (a folder made by an
/// older tabpilot does not, nor does Wine).
pub fn open(opts: &mut OpenOptions, path: &Path) -> io::Result<File> {
    let file = opts.owner_only().open(path)?;
    #[cfg(windows)]
    restrict_file(path)?;
    Ok(file)
}

/// Creates `dir` (and parents) and makes it owner-only, whatever it was.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    DirBuilder::new().recursive(true).owner_only().create(dir)?;
    restrict_dir(dir)
}

/// Makes the folder `dir` owner-only (0700; on Windows the owner-only ACL, inherited by what
/// is made in it).
pub fn restrict_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    return std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    #[cfg(windows)]
    return super::win::owner_only(dir, true);
}

/// Makes the file `path` owner-only (0600; on Windows the owner-only ACL).
pub fn restrict_file(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    return std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    #[cfg(windows)]
    return super::win::owner_only(path, false);
}

/// Who may open a file or folder, as `tabpilot doctor` says it.
pub struct Access {
    /// Someone besides this user may.
    pub open: bool,
    /// In words: `mode 644`, or on Windows the ACL's other holders or `an owner-only ACL`.
    pub said: String,
}

/// Who may open `path`.
pub fn access(path: &Path) -> io::Result<Access> {
    #[cfg(unix)]
    {
        let bits = std::fs::metadata(path)?.permissions().mode() & 0o777;
        Ok(Access {
            open: bits & 0o077 != 0,
            said: format!("mode {bits:o}"),
        })
    }
    #[cfg(windows)]
    {
        let others = super::win::others_in_acl(path, super::win::Grant::Any)?;
        Ok(Access {
            open: !others.is_empty(),
            said: if others.is_empty() {
                "an owner-only ACL".into()
            } else {
                format!("its ACL also grants {}", others.join(", "))
            },
        })
    }
}

/// What others may do with `path`, in words, or none when it is owner-only.
pub fn open_to_others(path: &Path) -> io::Result<Option<String>> {
    access(path).map(|a| a.open.then_some(a.said))
}

/// Who besides this user (and, on Windows, the system and the administrators) may change
/// `path`, in words; none when nobody may. Unix: group or other write, with the mode. Windows:
/// the ACL's entries granting a write.
pub fn others_may_write(path: &Path) -> io::Result<Option<String>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mode = std::fs::metadata(path)?.mode();
        Ok(match (mode & 0o020 != 0, mode & 0o002 != 0) {
            (_, true) => Some(format!("writable by others (mode {:o})", mode & 0o7777)),
            (true, false) => Some(format!("writable by its group (mode {:o})", mode & 0o7777)),
            (false, false) => None,
        })
    }
    #[cfg(windows)]
    {
        let others = super::win::others_in_acl(path, super::win::Grant::Write)?;
        Ok((!others.is_empty()).then(|| format!("writable by {} (its ACL)", others.join(", "))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;

    #[test]
    fn a_folder_and_the_files_made_in_it_are_owner_only() {
        let dir = temp_dir("private").join("inner");
        create_dir(&dir).unwrap();
        let file = dir.join("f");
        open(OpenOptions::new().write(true).create_new(true), &file).unwrap();
        assert_eq!(open_to_others(&dir).unwrap(), None);
        assert_eq!(open_to_others(&file).unwrap(), None);
    }

    #[test]
    fn a_file_made_elsewhere_is_restricted_in_place() {
        let file = temp_dir("private-file").join("f");
        std::fs::write(&file, b"x").unwrap();
        restrict_file(&file).unwrap();
        assert_eq!(open_to_others(&file).unwrap(), None);
    }
}
