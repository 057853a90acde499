//! Opening a file never through a symbolic link put in its place. Unix has the flag for it
//! (`O_NOFOLLOW`: the open fails with `ELOOP`). Windows has none that refuses: there, the
//! callers' own look at the path before opening it (`symlink_metadata`) is the guard, and
//! creating a link takes a privilege (or Developer Mode) an ordinary process lacks.

use std::fs::OpenOptions;
use std::io;

pub trait NoFollow {
    /// Refuses a symbolic link at the last component.
    fn no_follow(&mut self) -> &mut Self;
}

impl NoFollow for OpenOptions {
    fn no_follow(&mut self) -> &mut Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            self.custom_flags(libc::O_NOFOLLOW);
        }
        self
    }
}

/// Whether `e` is an open refused for meeting a symbolic link.
pub fn met_a_link(e: &io::Error) -> bool {
    #[cfg(unix)]
    return e.raw_os_error() == Some(libc::ELOOP);
    #[cfg(windows)]
    return {
        let _ = e;
        false
    };
}
