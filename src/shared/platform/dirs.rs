//! Where things live on each platform: the state directory when `TABPILOT_STATE_DIR` names
//! none, the person's home, and the folder desktop applications keep their settings in (where
//! Claude Desktop and VS Code keep their MCP configs).

use std::path::{Path, PathBuf};

/// The state directory by the platform's convention. Linux keeps XDG as it always did:
/// `$XDG_STATE_HOME/tabpilot`, else `~/.local/state/tabpilot`. macOS has no state folder:
/// `~/Library/Application Support/tabpilot`. Windows: `%LOCALAPPDATA%\tabpilot\data`, local
/// rather than roaming, since a secret and a lock have no business on another machine.
pub fn state_dir() -> PathBuf {
    #[cfg(target_os = "linux")]
    {
        if let Some(dir) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir).join("tabpilot");
        }
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
        PathBuf::from(home).join(".local/state/tabpilot")
    }
    #[cfg(not(target_os = "linux"))]
    {
        directories::ProjectDirs::from("", "", "tabpilot")
            .map(|d| d.data_local_dir().to_path_buf())
            .unwrap_or_else(|| std::env::temp_dir().join("tabpilot-state"))
    }
}

/// The person's home: `HOME` on Unix (as every tool there reads it), the profile folder on
/// Windows (`C:\Users\NAME`, where Claude Code, Cursor, Codex and Gemini keep their dot-files).
pub fn home() -> Option<PathBuf> {
    #[cfg(unix)]
    {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    }
    #[cfg(windows)]
    {
        directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf())
    }
}

/// Where desktop applications keep per-user settings: `$XDG_CONFIG_HOME`, else `~/.config` on
/// Linux; `~/Library/Application Support` on macOS; the roaming AppData folder on Windows.
pub fn config_home(home: &Path) -> PathBuf {
    #[cfg(target_os = "linux")]
    {
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|d| !d.is_empty())
            .map_or_else(|| home.join(".config"), PathBuf::from)
    }
    #[cfg(target_os = "macos")]
    {
        home.join("Library/Application Support")
    }
    #[cfg(windows)]
    {
        directories::BaseDirs::new().map_or_else(
            || home.join(r"AppData\Roaming"),
            |d| d.config_dir().to_path_buf(),
        )
    }
}

#[cfg(all(test, any(windows, target_os = "linux")))]
mod tests {
    use super::*;

    #[cfg(windows)]
    #[test]
    fn windows_keeps_state_in_local_app_data_and_settings_in_roaming() {
        let state = state_dir();
        assert!(
            state.ends_with(r"AppData\Local\tabpilot\data"),
            "{}",
            state.display()
        );
        let home = home().expect("a profile folder");
        assert!(home.is_absolute(), "{}", home.display());
        let config = config_home(&home);
        assert!(config.ends_with(r"AppData\Roaming"), "{}", config.display());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_settings_follow_xdg() {
        let config = config_home(Path::new("/home/u"));
        match std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
            Some(dir) => assert_eq!(config, PathBuf::from(dir)),
            None => assert_eq!(config, PathBuf::from("/home/u/.config")),
        }
    }
}
