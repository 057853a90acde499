//! Where a secret's value is kept: the OS keyring (service `tabpilot`, user = the secret's name),
//! or an owner-only JSON file in the state directory (`secret-values.json`, name to value).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, Zeroizing};

use super::SecretError;
use crate::shared::settings::Setting;
use crate::shared::state;

/// The file of values, when the keyring is not where they go.
pub const VALUES_FILE: &str = "secret-values.json";

/// A backend that holds values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    Keyring,
    File,
}

/// Which backend new values go to, as `TABPILOT_SECRET_BACKEND` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// The keyring when one answers, else the file.
    Auto,
    Keyring,
    File,
}

impl Choice {
    pub(crate) fn from_env() -> Result<Choice, SecretError> {
        let Some(text) = Setting::SecretBackend.get() else {
            return Ok(Choice::Auto);
        };
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(Choice::Auto),
            "keyring" => Ok(Choice::Keyring),
            "file" => Ok(Choice::File),
            _ => Err(SecretError::Setting(format!(
                "{}={text:?} is not `keyring`, `file` or `auto`",
                Setting::SecretBackend
            ))),
        }
    }
}

/// The OS's keyring, by the name its users know it by.
pub const KEYRING_NAME: &str = if cfg!(target_os = "macos") {
    "the macOS Keychain"
} else if cfg!(windows) {
    "the Windows Credential Manager"
} else {
    "the Secret Service keyring"
};

/// The owner-only file of values in `dir`: read whole, written whole (atomically).
pub(crate) struct ValueFile {
    path: PathBuf,
}

/// The file's contents; the strings are wiped when it is dropped.
#[derive(Default, Serialize, Deserialize)]
struct Values(BTreeMap<String, String>);

impl Drop for Values {
    fn drop(&mut self) {
        for value in self.0.values_mut() {
            value.zeroize();
        }
    }
}

impl ValueFile {
    pub(crate) fn in_dir(dir: &Path) -> ValueFile {
        ValueFile {
            path: dir.join(VALUES_FILE),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn read(&self) -> Result<Values, SecretError> {
        let mut bytes = match std::fs::read(&self.path) {
            Ok(bytes) => Zeroizing::new(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Values::default()),
            Err(e) => return Err(SecretError::io(&self.path, &e)),
        };
        let values = serde_json::from_slice(&bytes).map_err(|e| SecretError::Corrupt {
            path: self.path.clone(),
            // Where it went wrong, not serde's message: that can quote the text there, a value.
            why: format!(
                "{:?} error at line {}, column {}",
                e.classify(),
                e.line(),
                e.column()
            ),
        });
        bytes.zeroize();
        values
    }

    fn write(&self, values: &Values) -> Result<(), SecretError> {
        let bytes = Zeroizing::new(serde_json::to_vec_pretty(values).expect("strings serialize"));
        if let Some(dir) = self.path.parent() {
            state::ensure_private_dir(dir).map_err(|e| SecretError::io(dir, &e))?;
        }
        state::write_private(&self.path, &bytes).map_err(|e| SecretError::io(&self.path, &e))
    }

    pub(crate) fn get(&self, name: &str) -> Result<Option<Zeroizing<String>>, SecretError> {
        Ok(self.read()?.0.get(name).map(|v| Zeroizing::new(v.clone())))
    }

    pub(crate) fn set(&self, name: &str, value: &str) -> Result<(), SecretError> {
        let mut values = self.read()?;
        if let Some(mut old) = values.0.insert(name.to_string(), value.to_string()) {
            old.zeroize();
        }
        self.write(&values)
    }

    /// Removes `name`'s value, if the file has one.
    pub(crate) fn remove(&self, name: &str) -> Result<(), SecretError> {
        let mut values = self.read()?;
        match values.0.remove(name) {
            Some(mut old) => {
                old.zeroize();
                self.write(&values)
            }
            None => Ok(()),
        }
    }
}

/// The OS keyring, where this build has one.
#[cfg(any(target_os = "linux", target_os = "macos", windows))]
pub(crate) mod keyring {
    use zeroize::Zeroizing;

    const SERVICE: &str = "tabpilot";

    fn entry(name: &str) -> Result<keyring::Entry, String> {
        keyring::Entry::new(SERVICE, name).map_err(|e| e.to_string())
    }

    /// Whether a keyring answers: a look for an entry no one made, which changes nothing.
    pub(crate) fn probe() -> Result<(), String> {
        match entry(".tabpilot-probe")?.get_password() {
            Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    pub(crate) fn get(name: &str) -> Result<Option<Zeroizing<String>>, String> {
        match entry(name)?.get_password() {
            Ok(value) => Ok(Some(Zeroizing::new(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    pub(crate) fn set(name: &str, value: &str) -> Result<(), String> {
        entry(name)?.set_password(value).map_err(|e| e.to_string())
    }

    /// Removes `name`'s entry, if the keyring has one.
    pub(crate) fn remove(name: &str) -> Result<(), String> {
        match entry(name)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// No keyring on this system: every call says so, and values go to the file.
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
pub(crate) mod keyring {
    use zeroize::Zeroizing;

    const NONE: &str = "tabpilot has no keyring on this system";

    pub(crate) fn probe() -> Result<(), String> {
        Err(NONE.into())
    }

    pub(crate) fn get(_: &str) -> Result<Option<Zeroizing<String>>, String> {
        Err(NONE.into())
    }

    pub(crate) fn set(_: &str, _: &str) -> Result<(), String> {
        Err(NONE.into())
    }

    pub(crate) fn remove(_: &str) -> Result<(), String> {
        Err(NONE.into())
    }
}
