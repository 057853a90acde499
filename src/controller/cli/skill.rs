//! `tabpilot skill install`: puts the skill that teaches agents tabpilot's tools (skill/SKILL.md
//! and its reference pages, skill/references/, built into the binary; the tool reference made
//! from the registry) where agents and tabpilot's own context tools look for the user's skills,
//! `~/.agents/skills/tabpilot`, and prints where.
//!
//! It never writes or changes modes through a symbolic link: an agent that can write in the home
//! directory could otherwise plant a link there and have the person's next install overwrite, or
//! open up, the file it points to. A linked file is replaced by the skill's (its target stays as
//! it was); a linked `tabpilot` or `references` folder is refused.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};

use super::reference::tool_reference;

pub(super) const SKILL: &str = include_str!("../../../skill/SKILL.md");

/// The reference pages SKILL.md links, by their path in the skill's folder.
const REFERENCES: [(&str, &str); 6] = [
    (
        "references/interaction.md",
        include_str!("../../../skill/references/interaction.md"),
    ),
    (
        "references/reading.md",
        include_str!("../../../skill/references/reading.md"),
    ),
    (
        "references/tabs.md",
        include_str!("../../../skill/references/tabs.md"),
    ),
    (
        "references/sessions.md",
        include_str!("../../../skill/references/sessions.md"),
    ),
    (
        "references/diagnostics.md",
        include_str!("../../../skill/references/diagnostics.md"),
    ),
    (
        "references/troubleshooting.md",
        include_str!("../../../skill/references/troubleshooting.md"),
    ),
];

/// Where the tool reference goes in the skill's folder (made from the registry at install; the
/// copy in skill/ is held to it by a test).
const TOOLS_PAGE: &str = "references/tools.md";

pub(super) fn install() -> anyhow::Result<ExitCode> {
    let file = path()?;
    install_at(&file)?;
    println!("{}", file.display());
    Ok(ExitCode::SUCCESS)
}

/// Writes SKILL.md at `file`, and the reference pages beside it.
fn install_at(file: &Path) -> anyhow::Result<()> {
    let dir = file.parent().expect("the skill's file is in a folder");
    let references = dir.join("references");
    for folder in [dir, references.as_path()] {
        make_folder(folder)?;
    }
    write_file(file, SKILL)?;
    for (name, text) in REFERENCES {
        write_file(&dir.join(name), text)?;
    }
    write_file(&dir.join(TOOLS_PAGE), &tool_reference())
}

/// Makes a folder of the skill (0755), refusing one that is a symbolic link.
fn make_folder(dir: &Path) -> anyhow::Result<()> {
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
    readable_not_writable(dir)
}

/// Writes one file of the skill (0644): a new file renamed into place, so a link at its name is
/// replaced, not followed.
fn write_file(file: &Path, text: &str) -> anyhow::Result<()> {
    let dir = file.parent().expect("a skill file is in a folder");
    let name = file.file_name().expect("a skill file has a name");
    let tmp = dir.join(format!(
        ".{}.{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let _ = fs::remove_file(&tmp);
    let mut out: File = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .with_context(|| format!("writing {}", tmp.display()))?;
    out.write_all(text.as_bytes())?;
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
    let home = crate::shared::platform::dirs::home()
        .context("HOME is not set: there is no ~/.agents/skills")?;
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
    use crate::shared::state::test_support::{mode, temp_dir};

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

    /// The skill is SKILL.md and the reference pages it links, the tool reference among them,
    /// each readable by all and written by its owner only.
    #[test]
    fn the_skill_installs_with_every_page_it_links() {
        let home = temp_dir("skill-pages");
        let file = home.join(".agents/skills/tabpilot/SKILL.md");
        install_at(&file).unwrap();
        let dir = file.parent().unwrap();
        for linked in SKILL.split("](").skip(1) {
            let page = dir.join(&linked[..linked.find(')').unwrap()]);
            assert!(
                page.is_file(),
                "{} is linked and not installed",
                page.display()
            );
            assert_eq!(mode(&page), 0o644);
        }
        let tools = fs::read_to_string(dir.join(TOOLS_PAGE)).unwrap();
        for tool in crate::controller::tools::registry::all() {
            assert!(
                tools.contains(&format!("- `{}`: ", tool.spec.name)),
                "{}",
                tool.spec.name
            );
        }
    }
}
