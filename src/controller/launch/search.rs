//! Where a Chromium is looked for when `TABPILOT_BROWSER` names none: Chromium first (it loads
//! the extension from the command line), then Chrome for Testing, then branded Chrome, Edge and
//! Brave, at each platform's usual places.

use std::path::PathBuf;

/// Program names looked up on PATH (Linux).
#[cfg(target_os = "linux")]
const NAMES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome-for-testing",
    "google-chrome",
    "google-chrome-stable",
    "microsoft-edge",
    "microsoft-edge-stable",
    "brave-browser",
];

/// Every place a browser is looked for, in order.
#[cfg(target_os = "linux")]
pub(super) fn candidates() -> Vec<PathBuf> {
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    NAMES
        .iter()
        .flat_map(|name| std::env::split_paths(&dirs).map(move |d| d.join(name)))
        .collect()
}

/// Application bundles, in /Applications and then ~/Applications (macOS).
#[cfg(target_os = "macos")]
const BUNDLES: &[&str] = &[
    "Chromium.app/Contents/MacOS/Chromium",
    "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "Google Chrome.app/Contents/MacOS/Google Chrome",
    "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    "Brave Browser.app/Contents/MacOS/Brave Browser",
];

#[cfg(target_os = "macos")]
pub(super) fn candidates() -> Vec<PathBuf> {
    let mut roots = vec![PathBuf::from("/Applications")];
    roots.extend(crate::shared::platform::dirs::home().map(|h| h.join("Applications")));
    BUNDLES
        .iter()
        .flat_map(|b| roots.iter().map(move |r| r.join(b)))
        .collect()
}

/// Installs under the per-user and the machine-wide program folders (Windows).
#[cfg(windows)]
const INSTALLS: &[&str] = &[
    r"Chromium\Application\chrome.exe",
    r"Google\Chrome for Testing\Application\chrome.exe",
    r"Google\Chrome\Application\chrome.exe",
    r"Microsoft\Edge\Application\msedge.exe",
    r"BraveSoftware\Brave-Browser\Application\brave.exe",
];

#[cfg(windows)]
pub(super) fn candidates() -> Vec<PathBuf> {
    let roots: Vec<PathBuf> = ["LOCALAPPDATA", "PROGRAMFILES", "PROGRAMFILES(X86)"]
        .iter()
        .filter_map(|v| std::env::var_os(v).filter(|d| !d.is_empty()))
        .map(PathBuf::from)
        .collect();
    INSTALLS
        .iter()
        .flat_map(|i| roots.iter().map(move |r| r.join(i)))
        .collect()
}

#[cfg(all(test, any(windows, target_os = "linux")))]
mod tests {
    use super::*;

    #[cfg(windows)]
    #[test]
    fn windows_looks_in_the_program_folders_chromium_first() {
        let found = candidates();
        let at = |tail: &str| {
            found
                .iter()
                .position(|p| p.ends_with(tail))
                .unwrap_or_else(|| panic!("{tail} not among {found:?}"))
        };
        let chromium = at(r"Chromium\Application\chrome.exe");
        let chrome = at(r"Google\Chrome\Application\chrome.exe");
        let edge = at(r"Microsoft\Edge\Application\msedge.exe");
        let brave = at(r"BraveSoftware\Brave-Browser\Application\brave.exe");
        assert!(
            chromium < chrome && chrome < edge && edge < brave,
            "{found:?}"
        );
        let program_files = std::env::var_os("PROGRAMFILES").unwrap();
        assert!(
            found.iter().any(|p| p.starts_with(&program_files)),
            "{found:?}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_looks_on_path_chromium_first() {
        let found = candidates();
        let first = |name: &str| found.iter().position(|p| p.ends_with(name));
        assert!(first("chromium") < first("google-chrome"));
        assert!(first("google-chrome") < first("microsoft-edge"));
        assert!(first("microsoft-edge") < first("brave-browser"));
    }
}
