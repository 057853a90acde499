//! The index of secrets (`secrets.json` in the state directory, owner-only: names, kinds, origin
//! patterns as written, which backend holds each value, a file's path) and the operations on it,
//! which keep the index and the backends in step.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::backend::{Backend, Choice, KEYRING_NAME, ValueFile, keyring};
use super::totp::Totp;
use super::{Added, Content, Counts, Kind, Listed, New, NewValues, Revealed, SecretError, Status};
use crate::controller::policy::origins::OriginPattern;
use crate::shared::state;

/// The index's file in the state directory.
pub const INDEX_FILE: &str = "secrets.json";

#[derive(Default, Serialize, Deserialize)]
struct Index {
    secrets: Vec<Record>,
}

/// One secret as the index keeps it: never its value.
#[derive(Clone, Serialize, Deserialize)]
struct Record {
    name: String,
    kind: Kind,
    origins: Vec<String>,
    /// Where the value is (a file secret has none: its path is all it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    backend: Option<Backend>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    path: Option<String>,
}

/// The secrets of one state directory, with new values going where `choice` says.
pub(crate) struct Store {
    dir: PathBuf,
    choice: Choice,
}

impl Store {
    pub(crate) fn new(dir: &Path, choice: Choice) -> Store {
        Store {
            dir: dir.to_path_buf(),
            choice,
        }
    }

    /// The state directory's store, as the settings say.
    pub(crate) fn from_env() -> Result<Store, SecretError> {
        Ok(Store::new(&state::state_dir(), Choice::from_env()?))
    }

    fn index_path(&self) -> PathBuf {
        self.dir.join(INDEX_FILE)
    }

    fn values(&self) -> ValueFile {
        ValueFile::in_dir(&self.dir)
    }

    fn load(&self) -> Result<Index, SecretError> {
        let path = self.index_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Index::default()),
            Err(e) => return Err(SecretError::io(&path, &e)),
        };
        serde_json::from_str(&text).map_err(|e| SecretError::Corrupt {
            path,
            why: e.to_string(),
        })
    }

    fn save(&self, index: &Index) -> Result<(), SecretError> {
        let path = self.index_path();
        state::ensure_private_dir(&self.dir).map_err(|e| SecretError::io(&self.dir, &e))?;
        let text = serde_json::to_vec_pretty(index).expect("the index serializes");
        state::write_private(&path, &text).map_err(|e| SecretError::io(&path, &e))
    }

    fn find(&self, name: &str) -> Result<Record, SecretError> {
        self.load()?
            .secrets
            .into_iter()
            .find(|r| r.name == name)
            .ok_or_else(|| SecretError::NotFound { name: name.into() })
    }

    pub(crate) fn list(&self) -> Result<Vec<Listed>, SecretError> {
        Ok(self
            .load()?
            .secrets
            .into_iter()
            .map(|r| Listed {
                name: r.name,
                kind: r.kind,
                origins: r.origins,
            })
            .collect())
    }

    pub(crate) fn reveal(&self, name: &str) -> Result<Revealed, SecretError> {
        super::check_name(name)?;
        let record = self.find(name)?;
        let origins = record
            .origins
            .iter()
            .map(|o| OriginPattern::parse(o))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|why| SecretError::Corrupt {
                path: self.index_path(),
                why,
            })?;
        let value = match record.kind {
            Kind::Value => self.value_of(&record)?,
            Kind::Totp => Totp::parse(&self.value_of(&record)?)
                .map_err(SecretError::BadTotp)?
                .code_now(),
            Kind::File => {
                Zeroizing::new(record.path.clone().ok_or_else(|| SecretError::Corrupt {
                    path: self.index_path(),
                    why: format!("the file secret {name:?} has no path"),
                })?)
            }
        };
        Ok(Revealed {
            name: record.name,
            kind: record.kind,
            origins,
            value,
        })
    }

    /// The value `record` points at, from its backend.
    fn value_of(&self, record: &Record) -> Result<Zeroizing<String>, SecretError> {
        let name = &record.name;
        let found = match record.backend {
            Some(Backend::Keyring) => keyring::get(name).map_err(|why| SecretError::Keyring {
                name: name.clone(),
                why,
            })?,
            Some(Backend::File) | None => self.values().get(name)?,
        };
        found.ok_or_else(|| SecretError::ValueGone {
            name: name.clone(),
            place: match record.backend {
                Some(Backend::Keyring) => KEYRING_NAME.to_string(),
                _ => self.values().path().display().to_string(),
            },
        })
    }

    /// Adds `new`, or replaces the secret of its name; checked whole before anything is kept.
    pub(crate) fn add(&self, new: New) -> Result<Added, SecretError> {
        super::check_new(&new.name, &new.origins)?;
        let mut index = self.load()?;
        let old = index.secrets.iter().position(|r| r.name == new.name);
        let (kind, path, value) = match new.content {
            Content::Value(value) => (Kind::Value, None, Some(value)),
            Content::Totp(seed) => {
                Totp::parse(&seed).map_err(SecretError::BadTotp)?;
                (Kind::Totp, None, Some(seed))
            }
            Content::File(path) => (Kind::File, Some(super::checked_file(&path)?), None),
        };
        if value.as_ref().is_some_and(|v| v.is_empty()) {
            return Err(SecretError::Empty);
        }
        let (backend, note) = match &value {
            Some(value) => {
                let (backend, note) = self.put_value(&new.name, value)?;
                (Some(backend), note)
            }
            None => (None, None),
        };
        let record = Record {
            name: new.name,
            kind,
            origins: new.origins,
            backend,
            path,
        };
        let replaced = old.map(|i| std::mem::replace(&mut index.secrets[i], record.clone()));
        if replaced.is_none() {
            index.secrets.push(record);
        }
        self.save(&index)?;
        // The old value goes from a backend the new one is not in (the same one was overwritten).
        if let Some(old) = replaced
            .as_ref()
            .filter(|o| o.backend.is_some_and(|b| Some(b) != backend))
        {
            self.drop_value(old)?;
        }
        Ok(Added {
            replaced: replaced.is_some(),
            backend,
            note,
        })
    }

    /// Keeps `value` where the choice says; with no choice made, in the keyring when one
    /// answers, else in the file, with a note saying why.
    fn put_value(&self, name: &str, value: &str) -> Result<(Backend, Option<String>), SecretError> {
        let to_keyring = match self.choice {
            Choice::File => None,
            Choice::Keyring => {
                keyring::set(name, value).map_err(|why| SecretError::Keyring {
                    name: name.into(),
                    why,
                })?;
                return Ok((Backend::Keyring, None));
            }
            Choice::Auto => Some(keyring::set(name, value)),
        };
        let note = match to_keyring {
            Some(Ok(())) => return Ok((Backend::Keyring, None)),
            Some(Err(why)) => Some(format!(
                "no keyring answers ({why}); the value goes to the owner-only file {}",
                self.values().path().display()
            )),
            None => None,
        };
        self.values().set(name, value)?;
        Ok((Backend::File, note))
    }

    /// Takes `record`'s value out of its backend.
    fn drop_value(&self, record: &Record) -> Result<(), SecretError> {
        match record.backend {
            Some(Backend::Keyring) => {
                keyring::remove(&record.name).map_err(|why| SecretError::Keyring {
                    name: record.name.clone(),
                    why,
                })
            }
            Some(Backend::File) => self.values().remove(&record.name),
            None => Ok(()),
        }
    }

    /// Removes the secret `name`: its value from its backend, then its line in the index.
    pub(crate) fn remove(&self, name: &str) -> Result<(), SecretError> {
        super::check_name(name)?;
        let mut index = self.load()?;
        let at = index
            .secrets
            .iter()
            .position(|r| r.name == name)
            .ok_or_else(|| SecretError::NotFound { name: name.into() })?;
        self.drop_value(&index.secrets[at])?;
        index.secrets.remove(at);
        self.save(&index)
    }

    /// How many secrets there are, where their values are, and where a new one would go.
    pub(crate) fn status(&self) -> Status {
        let counts = self.load().map(|index| {
            let held = |b| {
                index
                    .secrets
                    .iter()
                    .filter(|r| r.backend == Some(b))
                    .count()
            };
            Counts {
                total: index.secrets.len(),
                keyring: held(Backend::Keyring),
                file: held(Backend::File),
            }
        });
        let file = self.values().path().display().to_string();
        let new_values = match self.choice {
            Choice::File => NewValues::File {
                path: file,
                why: format!("{}=file", crate::shared::settings::Setting::SecretBackend),
            },
            Choice::Keyring => match keyring::probe() {
                Ok(()) => NewValues::Keyring,
                Err(why) => NewValues::Broken(format!(
                    "{}=keyring and no keyring answers: {why}",
                    crate::shared::settings::Setting::SecretBackend
                )),
            },
            Choice::Auto => match keyring::probe() {
                Ok(()) => NewValues::Keyring,
                Err(why) => NewValues::File {
                    path: file,
                    why: format!("no keyring answers: {why}"),
                },
            },
        };
        Status { counts, new_values }
    }
}
