//! `tabpilot skill install`: puts the skill that teaches agents tabpilot's tools (skill/SKILL.md,
//! built into the binary) where agents and tabpilot's own context tools look for the user's
//! skills, `~/.agents/skills/tabpilot`, and prints where.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

pub(super) const SKILL: &str = include_str!("../../skill/SKILL.md");

pub(super) fn install() -> anyhow::Result<ExitCode> {
    let file = path()?;
    let dir = file.parent().expect("the skill's file is in a folder");
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(dir)
        .with_context(|| format!("making {}", dir.display()))?;
    fs::write(&file, SKILL).with_context(|| format!("writing {}", file.display()))?;
    // Whatever the umask: a skill others may write to is one the context tools do not trust.
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    fs::set_permissions(&file, fs::Permissions::from_mode(0o644))?;
    println!("{}", file.display());
    Ok(ExitCode::SUCCESS)
}

/// Where the skill goes: `~/.agents/skills/tabpilot/SKILL.md`.
pub(super) fn path() -> anyhow::Result<PathBuf> {
    let home = std::env::var_os("HOME").context("HOME is not set: there is no ~/.agents/skills")?;
    Ok(PathBuf::from(home).join(".agents/skills/tabpilot/SKILL.md"))
}
