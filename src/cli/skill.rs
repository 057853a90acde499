//! `tabpilot skill install`: puts the skill that teaches agents tabpilot's tools (skill/SKILL.md,
//! built into the binary) where agents and tabpilot's own context tools look for the user's
//! skills, `~/.agents/skills/tabpilot`, and prints where.
//!
//! It never writes or changes modes through a symbolic link: an agent that can write in the home
//! directory could otherwise plant a link there and have the person's next install overwrite, or
//! open up, the file it points to. A linked `SKILL.md` is replaced by the skill (its target stays
//! as it was); a linked `tabpilot` folder is refused.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};

pub(super) const SKILL: &str = include_str!("../../skill/SKILL.md");

pub(super) fn install() -> anyhow::Result<ExitCode> {
    let file = path()?;
    install_at(&file)?;
    println!("{}", file.display());
    Ok(ExitCode::SUCCESS)
}

fn install_at(file: &Path) -> anyhow::Result<()> {
    let dir = file.parent().expect("the skill's file is in a folder");
    if fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        bail!(
            "{} is a symbolic link; tabpilot writes no file through one: remove the link and \
             run `tabpilot skill install` again",
            dir.display()
        );
    }
    let mut folders = fs::DirBuilder::new();
    folders.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut folders, 0o755);
    folders
        .create(dir)
        .with_context(|| format!("making {}", dir.display()))?;
    readable_not_writable(dir)?;
    // A new file renamed into place: a link at the skill's name is replaced, not followed.
    let tmp = dir.join(format!(".SKILL.md.{}", std::process::id()));
    let _ = fs::remove_file(&tmp);
    let mut out: File = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .with_context(|| format!("writing {}", tmp.display()))?;
    out.write_all(SKILL.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        out.set_permissions(fs::Permissions::from_mode(0o644))?;
    }
    out.sync_all()?;
    fs::rename(&tmp, file).with_context(|| format!("writing {}", file.display()))?;
    Ok(())
}

/// Makes the skill's folder 0755 whatever the umask: a skill others may write to is one the
/// context tools do not trust. Changed on the folder opened as itself, never on what a link in
/// its place points to. (On Windows the folder keeps the profile's ACL, which others may not
/// write.)
fn readable_not_writable(dir: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let folder = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(dir)
            .with_context(|| format!("opening {} (a folder, not a link)", dir.display()))?;
        folder.set_permissions(fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(windows)]
    let _ = dir;
    Ok(())
}

/// Where the skill goes: `~/.agents/skills/tabpilot/SKILL.md`.
pub(super) fn path() -> anyhow::Result<PathBuf> {
    let home =
        crate::platform::dirs::home().context("HOME is not set: there is no ~/.agents/skills")?;
    Ok(home
        .join(".agents")
        .join("skills")
        .join("tabpilot")
        .join("SKILL.md"))
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::fs::symlink;

    use super::*;
    use crate::state::test_support::{mode, temp_dir};

    /// Issue 28, finding 12: a linked SKILL.md overwrote its target and made it 0644.
    #[test]
    fn a_linked_skill_file_is_replaced_and_its_target_left_as_it_was() {
        let home = temp_dir("skill-linked-file");
        let target = home.join("secrets.txt");
        fs::write(&target, "mine").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let file = home.join(".agents/skills/tabpilot/SKILL.md");
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        symlink(&target, &file).unwrap();

        install_at(&file).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
        assert_eq!(mode(&target), 0o600);
        assert!(
            !fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), SKILL);
        assert_eq!(mode(&file), 0o644);
    }

    /// Issue 28, finding 12: a linked folder became 0755.
    #[test]
    fn a_linked_skill_folder_is_refused_and_its_target_left_as_it_was() {
        let home = temp_dir("skill-linked-folder");
        let target = home.join("private");
        fs::create_dir(&target).unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o700)).unwrap();
        let skills = home.join(".agents/skills");
        fs::create_dir_all(&skills).unwrap();
        symlink(&target, skills.join("tabpilot")).unwrap();

        let e = install_at(&skills.join("tabpilot/SKILL.md")).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        assert_eq!(mode(&target), 0o700);
        assert!(!target.join("SKILL.md").exists());
    }
}
