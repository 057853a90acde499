//! Secrets the model never sees: values (a password), TOTP seeds and files for upload, each bound
//! to origin patterns, which a person registers with `tabpilot secret add` and a tool fills into a
//! field without the value ever reaching the agent.
//!
//! The index (`store.rs`) names each secret, its kind, its origins and where its value is; values
//! are in the OS keyring when one answers, else in an owner-only file (`backend.rs`); a TOTP seed
//! gives the code of the moment (`totp.rs`). Nothing here logs or prints a value, and no MCP tool
//! adds, changes or reads one: a tool gets a value only through [`reveal`], to fill it.
//!
//! Every call is blocking (files, and the keyring over D-Bus or the OS's API): async code calls
//! it on the blocking pool (`crate::shared::blocking::run`).

mod backend;
mod store;
mod totp;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

#[cfg(test)]
use backend::Choice;
pub use backend::VALUES_FILE;
pub use backend::{Backend, KEYRING_NAME};
pub use store::INDEX_FILE;
use store::Store;

use crate::controller::policy::origins::OriginPattern;

/// What a secret is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A value typed into a field as it is (a password, an API key).
    Value,
    /// A TOTP seed: the field gets the code of the moment.
    Totp,
    /// A file on this machine, for an upload.
    File,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Value => "value",
            Kind::Totp => "totp",
            Kind::File => "file",
        })
    }
}

/// A secret as anyone may see it: never its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub name: String,
    pub kind: Kind,
    /// The origin patterns as the person wrote them.
    pub origins: Vec<String>,
}

/// What a fill needs, read at the moment of the fill: for `Value` the value, for `Totp` the code
/// for the current 30 s window (generated now), for `File` the registered path.
pub struct Revealed {
    pub name: String,
    pub kind: Kind,
    pub origins: Vec<OriginPattern>,
    pub value: Zeroizing<String>,
}

impl std::fmt::Debug for Revealed {
    // Written by hand so that no `{:?}` (a test's unwrap, a log line) ever shows the value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let origins: Vec<&str> = self.origins.iter().map(OriginPattern::text).collect();
        f.debug_struct("Revealed")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("origins", &origins)
            .field(
                "value",
                &format_args!("<{} characters>", self.value.chars().count()),
            )
            .finish()
    }
}

/// Why a secret could not be listed, revealed, added or removed, in words a person can act on.
/// No message carries a value.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error(
        "no secret named {name:?}: `tabpilot secret list` shows the names; a person adds one with \
         `tabpilot secret add {name} --origin PATTERN`"
    )]
    NotFound { name: String },
    #[error(
        "{name:?} is not a secret name: 1 to 64 letters, digits, `_`, `-` or `.`, the first a \
         letter, a digit or `_`"
    )]
    BadName { name: String },
    #[error(
        "secret {name:?} needs at least one --origin PATTERN (like https://example.com or \
         https://*.example.com): it fills fields only in frames at those origins"
    )]
    NoOrigin { name: String },
    /// An origin pattern that does not parse; the message names it and says why.
    #[error("{0}")]
    BadOrigin(String),
    #[error("the TOTP seed is not usable: {0}")]
    BadTotp(String),
    #[error("{}: {why}", .path.display())]
    BadFile { path: PathBuf, why: String },
    #[error("the value is empty; a secret needs one")]
    Empty,
    /// `TABPILOT_SECRET_BACKEND` set to something it cannot be.
    #[error("{0}")]
    Setting(String),
    #[error(
        "the keyring did not answer for secret {name:?}: {why} (unlock it, or start one; \
         TABPILOT_SECRET_BACKEND=file keeps new values in an owner-only file instead)"
    )]
    Keyring { name: String, why: String },
    #[error(
        "the value of secret {name:?} is gone from {place}: a person adds it again with \
         `tabpilot secret add {name} --origin PATTERN`"
    )]
    ValueGone { name: String, place: String },
    #[error("{}: {why}", .path.display())]
    Io { path: PathBuf, why: String },
    #[error(
        "{} is not a secrets file tabpilot can read ({why}); mend it, or move it away and add the \
         secrets again",
        .path.display()
    )]
    Corrupt { path: PathBuf, why: String },
}

impl SecretError {
    fn io(path: &Path, e: &std::io::Error) -> SecretError {
        SecretError::Io {
            path: path.to_path_buf(),
            why: e.to_string(),
        }
    }
}

/// Every secret's name, kind and origins; never a value.
pub fn list() -> Result<Vec<Listed>, SecretError> {
    Store::from_env()?.list()
}

/// The secret `name` with what a fill needs, read now (see [`Revealed`]). Blocking.
pub fn reveal(name: &str) -> Result<Revealed, SecretError> {
    Store::from_env()?.reveal(name)
}

/// A secret to add (`tabpilot secret add`; never an MCP tool).
pub struct New {
    pub name: String,
    /// Origin patterns as written; at least one.
    pub origins: Vec<String>,
    pub content: Content,
}

/// What a new secret holds.
pub enum Content {
    Value(Zeroizing<String>),
    /// A TOTP seed: an `otpauth://totp/` URI or a base32 key.
    Totp(Zeroizing<String>),
    File(PathBuf),
}

/// What adding did.
#[derive(Debug)]
pub struct Added {
    /// A secret of that name was there before, and is no more.
    pub replaced: bool,
    /// Where the value went (none for a file secret).
    pub backend: Option<Backend>,
    /// Why the value went to the file when a keyring was asked first.
    pub note: Option<String>,
}

/// Adds a secret, or replaces the one of its name.
pub fn add(new: New) -> Result<Added, SecretError> {
    Store::from_env()?.add(new)
}

/// Removes a secret, its value from its backend too.
pub fn remove(name: &str) -> Result<(), SecretError> {
    Store::from_env()?.remove(name)
}

/// How many secrets there are and where their values are, for `tabpilot doctor`.
pub struct Counts {
    pub total: usize,
    pub keyring: usize,
    pub file: usize,
}

/// Where a new value would go.
pub enum NewValues {
    Keyring,
    File {
        path: String,
        why: String,
    },
    /// Nowhere: a setting that cannot be met, said why.
    Broken(String),
}

/// The secrets' state, looked at without changing anything.
pub struct Status {
    pub counts: Result<Counts, SecretError>,
    pub new_values: NewValues,
}

/// The secrets' state (this asks the keyring whether it answers). Blocking.
pub fn status() -> Status {
    match Store::from_env() {
        Ok(store) => store.status(),
        Err(e) => Status {
            counts: Err(SecretError::Setting(e.to_string())),
            new_values: NewValues::Broken(e.to_string()),
        },
    }
}

/// Whether a secret of this name and these origins may be added: checked before its value is
/// asked for, and again when it is added.
pub fn check_new(name: &str, origins: &[String]) -> Result<(), SecretError> {
    check_name(name)?;
    if origins.is_empty() {
        return Err(SecretError::NoOrigin { name: name.into() });
    }
    for origin in origins {
        OriginPattern::parse(origin).map_err(SecretError::BadOrigin)?;
    }
    Ok(())
}

/// A name tabpilot keeps secrets under: short, and plain enough for a keyring, a command line and
/// a tool's arguments alike.
fn check_name(name: &str) -> Result<(), SecretError> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    let ok = (1..=64).contains(&name.len())
        && name.chars().all(plain)
        && name.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SecretError::BadName {
            name: crate::shared::terminal::name(name, 80),
        })
    }
}

/// A file to register for uploads: one that is there, as its absolute path.
fn checked_file(path: &Path) -> Result<String, SecretError> {
    let bad = |why: String| SecretError::BadFile {
        path: path.to_path_buf(),
        why,
    };
    let full = std::fs::canonicalize(path).map_err(|e| bad(e.to_string()))?;
    if !full.is_file() {
        return Err(bad("not a file".into()));
    }
    full.into_os_string()
        .into_string()
        .map_err(|_| bad("its path is not UTF-8, which a page's upload needs".into()))
}

#[cfg(test)]
mod tests;
