//! `.tabpilot/agent.json` manifests and the user's `~/.config/tabpilot/agent.json`.
//!
//! Unknown fields are errors: a misspelt setting that was silently ignored would change what an
//! agent is told without anyone noticing.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::fs;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::shared::error::{Code, ToolError};

/// A directory's manifest, relative to that directory.
pub const MANIFEST_FILE: &str = ".tabpilot/agent.json";
/// The user's own settings, relative to the home directory.
pub const USER_CONFIG_FILE: &str = ".config/tabpilot/agent.json";
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;
pub(super) const MIN_INSTRUCTION_BYTES: usize = 1024;
pub(super) const MAX_INSTRUCTION_BYTES: usize = 2 * 1024 * 1024;
pub(super) const DEFAULT_TIMEOUT_SECONDS: u64 = 120;
pub(super) const MAX_TIMEOUT_SECONDS: u64 = 3600;
const MAX_LIST: usize = 16;
const MAX_COMMANDS: usize = 100;
const MAX_ARGV: usize = 256;
const MAX_NAME: usize = 64;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub version: u32,
    /// Candidate instruction files in priority order, relative to the manifest's directory.
    #[serde(default)]
    pub instruction_files: Option<Vec<String>>,
    #[serde(default)]
    pub instruction_max_bytes: Option<usize>,
    /// Skill roots relative to the manifest's directory; they replace the default roots.
    #[serde(default)]
    pub skill_roots: Option<Vec<String>>,
    /// `null` deletes a command inherited from a shallower manifest.
    #[serde(default)]
    pub commands: BTreeMap<String, Option<CommandDef>>,
}

/// A registered command as a manifest declares it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CommandDef {
    #[serde(default)]
    pub description: String,
    pub argv: Vec<String>,
    /// Relative to the manifest's directory; must resolve inside the scope root.
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub timeout_seconds: Option<u64>,
    #[serde(default)]
    pub allow_extra_args: bool,
}

/// One directory of the chain from the scope root to the target.
#[derive(Debug)]
pub(super) struct Level {
    pub dir: PathBuf,
    pub manifest: Option<Manifest>,
    pub manifest_sha256: Option<String>,
}

impl Level {
    pub(super) fn read(dir: PathBuf) -> Result<Level, ToolError> {
        let path = dir.join(MANIFEST_FILE);
        let Some(raw) = read_small(&path)? else {
            return Ok(Level {
                dir,
                manifest: None,
                manifest_sha256: None,
            });
        };
        let manifest: Manifest = parse(&path, &raw)?;
        manifest.validate().map_err(|why| invalid(&path, why))?;
        Ok(Level {
            dir,
            manifest: Some(manifest),
            manifest_sha256: Some(sha256_hex(&raw)),
        })
    }
}

impl Manifest {
    fn validate(&self) -> Result<(), String> {
        if self.version != 1 {
            return Err(format!("version must be 1, not {}", self.version));
        }
        if let Some(files) = &self.instruction_files {
            if files.is_empty() || files.len() > MAX_LIST {
                return Err(format!("instruction_files must list 1 to {MAX_LIST} names"));
            }
            // The real path is checked again when read; this refuses the obvious escapes early.
            if let Some(bad) = files.iter().find(|f| !plain_relative(f)) {
                return Err(format!(
                    "instruction file {bad:?} must be a relative path inside the manifest's directory"
                ));
            }
        }
        if let Some(n) = self.instruction_max_bytes
            && !(MIN_INSTRUCTION_BYTES..=MAX_INSTRUCTION_BYTES).contains(&n)
        {
            return Err(format!(
                "instruction_max_bytes must be {MIN_INSTRUCTION_BYTES} to {MAX_INSTRUCTION_BYTES}, not {n}"
            ));
        }
        if let Some(roots) = &self.skill_roots {
            if roots.len() > MAX_LIST {
                return Err(format!("skill_roots lists more than {MAX_LIST} roots"));
            }
            if let Some(bad) = roots
                .iter()
                .find(|r| r.is_empty() || Path::new(r).is_absolute())
            {
                return Err(format!("skill root {bad:?} must be a relative path"));
            }
        }
        if self.commands.len() > MAX_COMMANDS {
            return Err(format!("more than {MAX_COMMANDS} commands"));
        }
        for (name, def) in &self.commands {
            let ok_name = !name.is_empty()
                && name.len() <= MAX_NAME
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c));
            if !ok_name {
                return Err(format!(
                    "command name {name:?} must be 1 to {MAX_NAME} of A-Z a-z 0-9 - _ . :"
                ));
            }
            if let Some(def) = def {
                def.validate()
                    .map_err(|why| format!("command {name:?}: {why}"))?;
            }
        }
        Ok(())
    }
}

impl CommandDef {
    fn validate(&self) -> Result<(), String> {
        match self.argv.first() {
            None => return Err("argv must name a program".into()),
            Some(p) if p.is_empty() => return Err("argv[0] is empty".into()),
            _ => {}
        }
        if self.argv.len() > MAX_ARGV {
            return Err(format!("argv has more than {MAX_ARGV} entries"));
        }
        if self.argv.iter().any(|a| a.contains('\0')) {
            return Err("argv contains a NUL byte".into());
        }
        if let Some(t) = self.timeout_seconds
            && !(1..=MAX_TIMEOUT_SECONDS).contains(&t)
        {
            return Err(format!(
                "timeout_seconds must be 1 to {MAX_TIMEOUT_SECONDS}, not {t}"
            ));
        }
        if self.cwd.as_deref() == Some("") {
            return Err("cwd is empty".into());
        }
        Ok(())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UserConfigFile {
    version: u32,
    #[serde(default)]
    model_instructions_file: Option<String>,
}

/// The user's settings. Only the user sets `model_instructions_file`: no project manifest can.
#[derive(Clone, Debug, Default)]
pub(super) struct UserConfig {
    pub model_instructions_file: Option<PathBuf>,
    pub sha256: Option<String>,
}

impl UserConfig {
    pub(super) fn read(home: &Path) -> Result<UserConfig, ToolError> {
        let path = home.join(USER_CONFIG_FILE);
        let Some(raw) = read_small(&path)? else {
            return Ok(UserConfig::default());
        };
        let file: UserConfigFile = parse(&path, &raw)?;
        if file.version != 1 {
            return Err(invalid(
                &path,
                format!("version must be 1, not {}", file.version),
            ));
        }
        let model_instructions_file = match file.model_instructions_file.as_deref() {
            Some("") => return Err(invalid(&path, "model_instructions_file is empty")),
            Some(name) => Some(expand_home(home, name)),
            None => None,
        };
        Ok(UserConfig {
            model_instructions_file,
            sha256: Some(sha256_hex(&raw)),
        })
    }
}

/// `~` and `~/x` name the home directory; other relative paths are taken from it too.
fn expand_home(home: &Path, name: &str) -> PathBuf {
    match name.strip_prefix('~') {
        Some("") => home.to_path_buf(),
        Some(rest) if rest.starts_with('/') => home.join(&rest[1..]),
        _ => home.join(name),
    }
}

/// Only normal components: no root, no `..`.
fn plain_relative(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// A manifest's bytes, when it exists. The file and its folder must be trusted (owned by this
/// user, not writable by others), else its commands could be someone else's.
fn read_small(path: &Path) -> Result<Option<Vec<u8>>, ToolError> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(None);
        }
        Err(e) => return Err(invalid(path, format!("cannot be read: {e}"))),
    };
    if !meta.is_file() {
        return Err(invalid(path, "is not a regular file"));
    }
    if let Some(folder) = path.parent() {
        super::trust::require(folder)?;
    }
    super::trust::require(path)?;
    if meta.len() > MAX_MANIFEST_BYTES {
        return Err(invalid(
            path,
            format!("is larger than {MAX_MANIFEST_BYTES} bytes"),
        ));
    }
    fs::read(path)
        .map(Some)
        .map_err(|e| invalid(path, format!("cannot be read: {e}")))
}

fn parse<T: DeserializeOwned>(path: &Path, raw: &[u8]) -> Result<T, ToolError> {
    serde_json::from_slice(raw).map_err(|e| invalid(path, e))
}

fn invalid(path: &Path, why: impl Display) -> ToolError {
    ToolError::refused(Code::ManifestInvalid, format!("{}: {why}", path.display()))
}

pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::testutil::Tree;
    use super::*;

    fn level(json: &str) -> Result<Level, ToolError> {
        let t = Tree::new("manifest");
        t.write(&format!("d/{MANIFEST_FILE}"), json);
        Level::read(t.path("d"))
    }

    #[test]
    fn a_full_manifest_parses() {
        let l = level(
            r#"{"version": 1, "instruction_files": ["GUIDE.md"], "instruction_max_bytes": 4096,
                "skill_roots": ["skills"], "commands": {"test": {"description": "unit tests",
                "argv": ["cargo", "test"], "cwd": ".", "timeout_seconds": 30,
                "allow_extra_args": true}, "gone": null}}"#,
        )
        .unwrap();
        let m = l.manifest.unwrap();
        assert_eq!(m.commands["test"].as_ref().unwrap().argv, ["cargo", "test"]);
        assert_eq!(m.commands["gone"], None);
        assert!(l.manifest_sha256.is_some());
    }

    #[test]
    fn unknown_fields_are_rejected_at_every_level() {
        for json in [
            r#"{"version": 1, "instructions_files": ["A.md"]}"#,
            r#"{"version": 1, "commands": {"t": {"argv": ["x"], "shell": true}}}"#,
            r#"{"version": 1, "model_instructions_file": "x.md"}"#,
        ] {
            let err = level(json).unwrap_err();
            assert_eq!(err.code, Code::ManifestInvalid, "{json}");
            assert!(err.message.contains("unknown field"), "{}", err.message);
        }
    }

    #[test]
    fn bad_values_are_rejected() {
        for json in [
            r#"{"version": 2}"#,
            r#"{"version": 1, "instruction_files": ["../outside.md"]}"#,
            r#"{"version": 1, "instruction_files": ["/etc/passwd"]}"#,
            r#"{"version": 1, "instruction_max_bytes": 100}"#,
            r#"{"version": 1, "instruction_max_bytes": 3000000}"#,
            r#"{"version": 1, "skill_roots": ["/abs"]}"#,
            r#"{"version": 1, "commands": {"t": {"argv": []}}}"#,
            r#"{"version": 1, "commands": {"t": {"argv": ["x"], "timeout_seconds": 0}}}"#,
            r#"{"version": 1, "commands": {"bad name": {"argv": ["x"]}}}"#,
            r#"not json"#,
        ] {
            assert_eq!(
                level(json).unwrap_err().code,
                Code::ManifestInvalid,
                "{json}"
            );
        }
    }

    #[test]
    fn no_manifest_is_fine_and_a_directory_in_its_place_is_not() {
        let t = Tree::new("nomanifest");
        t.mkdir("d");
        assert!(Level::read(t.path("d")).unwrap().manifest.is_none());
        t.mkdir(&format!("e/{MANIFEST_FILE}"));
        assert_eq!(
            Level::read(t.path("e")).unwrap_err().code,
            Code::ManifestInvalid
        );
    }

    #[test]
    fn user_config_names_the_model_file_from_home() {
        let t = Tree::new("userconfig");
        let home = t.path("home");
        assert!(
            UserConfig::read(&home)
                .unwrap()
                .model_instructions_file
                .is_none()
        );
        t.write(
            &format!("home/{USER_CONFIG_FILE}"),
            r#"{"version": 1, "model_instructions_file": "~/.config/tabpilot/MODEL.md"}"#,
        );
        let c = UserConfig::read(&home).unwrap();
        assert_eq!(
            c.model_instructions_file,
            Some(home.join(".config/tabpilot/MODEL.md"))
        );
        assert_eq!(expand_home(&home, "notes/M.md"), home.join("notes/M.md"));
        assert_eq!(expand_home(&home, "/abs/M.md"), PathBuf::from("/abs/M.md"));
        t.write(
            &format!("home/{USER_CONFIG_FILE}"),
            r#"{"version": 1, "extra": 1}"#,
        );
        assert_eq!(
            UserConfig::read(&home).unwrap_err().code,
            Code::ManifestInvalid
        );
    }
}
