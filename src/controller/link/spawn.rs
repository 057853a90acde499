//! Starting a relay when none answers.

use std::process::Stdio;

use crate::shared::state;

/// Past this, the relay's log is rotated when the next relay starts.
const MAX_LOG_BYTES: u64 = 1 << 20;

/// Starts `tabpilot relay` detached (its own session; on Windows a detached process), so it
/// outlives this process and its terminal. Its log goes to `relay.log` in the state dir. Tokio reaps it once dropped, so a relay
/// that dies while this process lives (and restarts relays) is not left a zombie.
pub(super) fn spawn_relay() -> std::io::Result<tokio::process::Child> {
    use crate::shared::platform::private::{self, OwnerOnly};
    let dir = state::state_dir();
    state::ensure_private_dir(&dir)?;
    let path = dir.join("relay.log");
    // One relay's log at a time, and the one before it: the file never grows past two lives.
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > MAX_LOG_BYTES) {
        std::fs::rename(&path, dir.join("relay.log.1"))?;
    }
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .owner_only()
        .open(&path)?;
    private::restrict_file(&path)?;
    let mut cmd = tokio::process::Command::new(std::env::current_exe()?);
    cmd.arg("relay")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log);
    crate::shared::platform::child::detach(cmd.as_std_mut());
    cmd.spawn()
}
