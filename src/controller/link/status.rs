//! What the link says of itself: its state as `browser_status` reports it, and why an attempt
//! to reach the relay failed (none answered, or ours of another version, and what to do).

use std::time::Duration;

use crate::shared::protocol;

/// The link as `browser_status` reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// Not started: the first call connects.
    Idle,
    /// Up: calls go straight to the relay (which may have no browser: see the status call).
    Connected,
    /// An attempt to reach the relay (starting one if none answers) is in progress.
    Connecting,
    /// The last `failures` attempts failed, the last for `reason`; the next is due in `next`.
    Retrying {
        next: Duration,
        reason: Failure,
        failures: u32,
    },
    Stopped,
}

/// Why an attempt to reach the relay failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No relay of ours answered, and none could be started.
    Unreachable(String),
    /// Our relay answered, proved itself, and runs another version of tabpilot.
    Version(Mismatch),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(why) => f.write_str(why),
            Failure::Version(m) => write!(f, "{m}; {}", m.fix()),
        }
    }
}

/// A relay of this state dir and port range that runs another version than this controller.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub port: u16,
    /// As the relay recorded it beside its port (older relays record only the port).
    pub pid: Option<u32>,
    pub theirs: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pid = self.pid.map(|p| format!(" (pid {p})")).unwrap_or_default();
        write!(
            f,
            "the relay on port {}{pid} runs tabpilot {}, and this is tabpilot {}: the two do not \
             mix",
            self.port,
            self.theirs,
            protocol::VERSION
        )
    }
}

impl Mismatch {
    /// What to do: the older side gives way.
    pub fn fix(&self) -> String {
        if newer(&self.theirs, protocol::VERSION) {
            return format!(
                "this program is the older one: restart it (or the MCP client that started it) \
                 so it runs tabpilot {}",
                self.theirs
            );
        }
        let stop = match self.pid {
            Some(pid) => format!("`kill {pid}`"),
            None => format!("stop the `tabpilot relay` process on port {}", self.port),
        };
        format!(
            "stop the old relay ({stop}), and tabpilot {} starts its own at its next attempt \
             (left alone, the old one exits only once every browser and agent has left it for {})",
            protocol::VERSION,
            crate::shared::settings::Setting::RelayIdleMs
        )
    }
}

/// Whether dotted version `a` is later than `b` (numbers compared as numbers).
fn newer(a: &str, b: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> {
        v.split(|c: char| !c.is_ascii_digit())
            .filter_map(|p| p.parse().ok())
            .collect()
    };
    parts(a) > parts(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_older_side_is_told_to_give_way() {
        let relay = |theirs: &str| Mismatch {
            port: 47311,
            pid: Some(42),
            theirs: theirs.into(),
        };
        assert!(relay("0.0.1").fix().contains("`kill 42`"));
        assert!(relay("999.0.0").fix().contains("restart it"));
        assert!(newer("0.10.0", "0.9.3"));
        assert!(!newer("0.9.3", "0.10.0"));
        assert!(!newer("1.2.3", "1.2.3"));
    }
}
