//! Opening a page in the person's default browser, the way each desktop does it: `xdg-open` on
//! Linux, `open` on macOS, ShellExecute on Windows (what `start` calls, without a shell to
//! parse the address).

use std::io;

/// Opens `url` in the default browser; an error when the desktop could not be asked.
#[cfg(unix)]
pub fn url(url: &str) -> io::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let status = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!("{opener} failed ({status})")))
    }
}

#[cfg(windows)]
pub fn url(url: &str) -> io::Result<()> {
    super::win::shell_open(url)
}
