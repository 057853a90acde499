//! What differs between Linux, macOS and Windows, each behind one small module that uses the
//! platform's own mechanism, so the rest of the crate is the same code everywhere.

pub mod child; // a child detached from us, one tied to us, asking one to end
pub mod dirs; // where the state directory, the clients' configs and the person's home are
pub mod files; // opening a file never through a symbolic link
pub mod me; // this process: its user, its parent, its descriptor limit, whether a pid lives
pub mod open; // opening a page in the person's default browser
pub mod private; // owner-only folders and files (modes on Unix, an owner-only ACL on Windows)
pub mod shell; // commands shown to the person, in their platform's shell
pub mod tree; // a command's whole process tree, killed together
#[cfg(windows)]
mod win; // the Win32 calls the modules above make: ACLs, Job objects
