//! Each platform's service manager as tabpilot uses it: where the definition goes, and the
//! commands that ask whether the manager answers, load and start the service, and stop and unload
//! it. A pure function of the platform and the folders, so each platform's is tested everywhere.

use std::path::{Path, PathBuf};

use super::text::{self, Spec, Unsayable};

/// The service's name in every manager.
pub(super) const NAME: &str = "tabpilot";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Os {
    Linux,
    Mac,
    Windows,
}

impl Os {
    pub(super) fn current() -> Os {
        if cfg!(windows) {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::Mac
        } else {
            Os::Linux
        }
    }
}

/// A command, word by word.
pub(super) type Argv = Vec<String>;

pub(super) struct Manager {
    pub os: Os,
    /// Where the definition goes.
    pub file: PathBuf,
    /// Succeeds when the manager answers for this user.
    pub probe: Argv,
    /// Loads the definition written and starts the service (again, when it ran).
    pub start: Vec<Argv>,
    /// Stops the service and unloads it, before its definition goes.
    pub stop: Vec<Argv>,
    /// Run once the definition is gone.
    pub after_removal: Vec<Argv>,
    /// Says whether it runs.
    pub status: Argv,
}

fn argv(words: &[&str]) -> Argv {
    words.iter().map(|w| w.to_string()).collect()
}

/// The manager of `os`: `config` is the folder of the person's settings (`$XDG_CONFIG_HOME`),
/// `home` their home, `state` tabpilot's state dir, `uid` this user's id (macOS's domain).
pub(super) fn manager(os: Os, config: &Path, home: &Path, state: &Path, uid: u32) -> Manager {
    let unit = format!("{NAME}.service");
    match os {
        Os::Linux => {
            let ctl = |words: &[&str]| argv(&[&["systemctl", "--user"], words].concat());
            Manager {
                os,
                file: config.join("systemd").join("user").join(&unit),
                probe: ctl(&["show-environment"]),
                start: vec![
                    ctl(&["daemon-reload"]),
                    ctl(&["enable", &unit]),
                    ctl(&["restart", &unit]),
                ],
                stop: vec![ctl(&["disable", "--now", &unit])],
                after_removal: vec![ctl(&["daemon-reload"])],
                status: ctl(&["status", "--no-pager", &unit]),
            }
        }
        Os::Mac => {
            let file = home
                .join("Library/LaunchAgents")
                .join(format!("{NAME}.plist"));
            let domain = format!("gui/{uid}");
            let shown = file.display().to_string();
            Manager {
                os,
                probe: argv(&["launchctl", "print", &domain]),
                start: vec![argv(&["launchctl", "bootstrap", &domain, &shown])],
                stop: vec![argv(&["launchctl", "bootout", &domain, &shown])],
                after_removal: Vec::new(),
                status: argv(&["launchctl", "print", &format!("{domain}/{NAME}")]),
                file,
            }
        }
        Os::Windows => {
            let file = state.join("service.xml");
            let shown = file.display().to_string();
            Manager {
                os,
                probe: argv(&["schtasks", "/Query", "/TN", "\\"]),
                start: vec![
                    argv(&["schtasks", "/Create", "/TN", NAME, "/XML", &shown, "/F"]),
                    argv(&["schtasks", "/Run", "/TN", NAME]),
                ],
                stop: vec![
                    argv(&["schtasks", "/End", "/TN", NAME]),
                    argv(&["schtasks", "/Delete", "/TN", NAME, "/F"]),
                ],
                after_removal: Vec::new(),
                status: argv(&["schtasks", "/Query", "/TN", NAME, "/V", "/FO", "LIST"]),
                file,
            }
        }
    }
}

impl Manager {
    /// The definition's bytes: text for systemd and launchd; for Task Scheduler UTF-16 with its
    /// byte-order mark, as its own exports are. `user` is who the Windows task runs as.
    pub(super) fn definition(&self, spec: &Spec, user: &str) -> Result<Vec<u8>, Unsayable> {
        text::check(spec)?;
        Ok(match self.os {
            Os::Linux => text::systemd_unit(spec).into_bytes(),
            Os::Mac => text::launchd_plist(spec, NAME).into_bytes(),
            Os::Windows => {
                let task = text::windows_task(spec, user)?;
                let units = std::iter::once(0xFEFF).chain(task.encode_utf16());
                units.flat_map(u16::to_le_bytes).collect()
            }
        })
    }
}

/// A definition's bytes read back as text (UTF-16 when they start with its byte-order mark).
pub(super) fn text_of(bytes: &[u8]) -> String {
    match bytes {
        [0xFF, 0xFE, rest @ ..] => {
            let units: Vec<u16> = rest
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Whether a definition's bytes are one tabpilot wrote.
pub(super) fn is_ours(bytes: &[u8]) -> bool {
    text_of(bytes).contains(text::MARK)
}

/// A command as the person would type it.
pub(super) fn shown(argv: &Argv) -> String {
    let word = |w: &String| {
        if w.is_empty() || w.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
            format!("'{}'", w.replace('\'', r"'\''"))
        } else {
            w.clone()
        }
    };
    argv.iter().map(word).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(os: Os) -> Manager {
        manager(
            os,
            Path::new("/h/.config"),
            Path::new("/h"),
            Path::new("/h/state"),
            501,
        )
    }

    #[test]
    fn linux_writes_a_user_unit_and_enables_it_with_systemctl_user() {
        let m = of(Os::Linux);
        assert_eq!(
            m.file,
            Path::new("/h/.config/systemd/user/tabpilot.service")
        );
        let start: Vec<String> = m.start.iter().map(shown).collect();
        assert_eq!(
            start,
            [
                "systemctl --user daemon-reload",
                "systemctl --user enable tabpilot.service",
                "systemctl --user restart tabpilot.service"
            ]
        );
        assert_eq!(
            shown(&m.stop[0]),
            "systemctl --user disable --now tabpilot.service"
        );
    }

    #[test]
    fn macos_writes_a_launch_agent_and_bootstraps_it_in_the_users_gui_domain() {
        let m = of(Os::Mac);
        assert_eq!(m.file, Path::new("/h/Library/LaunchAgents/tabpilot.plist"));
        // The path as this host writes it (the tests run on Windows too).
        let file = m.file.display().to_string();
        assert_eq!(m.start[0], ["launchctl", "bootstrap", "gui/501", &file]);
        assert_eq!(m.stop[0], ["launchctl", "bootout", "gui/501", &file]);
    }

    #[test]
    fn windows_keeps_the_task_in_the_state_dir_as_utf16_and_registers_it_with_schtasks() {
        let m = of(Os::Windows);
        assert_eq!(m.file, Path::new("/h/state/service.xml"));
        let file = m.file.display().to_string();
        assert_eq!(
            m.start[0],
            [
                "schtasks", "/Create", "/TN", "tabpilot", "/XML", &file, "/F"
            ]
        );
        let args = vec!["mcp".to_string(), "--http".to_string()];
        let spec = Spec {
            exe: Path::new("C:/t/tabpilot.exe"),
            args: &args,
            env: &[],
            log: Path::new("C:/s/service.log"),
        };
        let bytes = m.definition(&spec, "PC\\ada").unwrap();
        assert_eq!(&bytes[..4], &[0xFF, 0xFE, b'<', 0]);
        assert!(text_of(&bytes).contains("encoding=\"UTF-16\""));
        assert!(is_ours(&bytes));
        assert!(!is_ours(b"[Service]\nExecStart=/bin/true\n"));
    }

    #[test]
    fn a_command_is_shown_quoted_where_a_shell_needs_it() {
        let argv = argv(&["launchctl", "bootstrap", "gui/1", "/a b/it's"]);
        assert_eq!(shown(&argv), r"launchctl bootstrap gui/1 '/a b/it'\''s'");
    }
}
