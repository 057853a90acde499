//! Wire types and constants shared by the relay, controllers and (as JSON) the extension.
//!
//! Every frame is one JSON object with a `t` field naming its kind. Version 1.

pub mod auth;

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Code, Outcome, ToolError};
use crate::settings::Setting;

pub const PROTOCOL_VERSION: u32 = 1;
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const DEFAULT_PORTS: RangeInclusive<u16> = 47311..=47315;

/// Largest frame a controller may send; calls are small.
pub const CONTROLLER_MAX_FRAME: usize = 1 << 20;
/// Largest frame a browser may send; screenshots are big.
pub const BROWSER_MAX_FRAME: usize = 48 << 20;
/// Frames per second a peer may sustain (with an equal burst) before it is cut off.
pub const MAX_FRAMES_PER_SEC: u32 = 2000;
/// Calls one controller may have in flight at the relay.
pub const MAX_PENDING_CALLS: usize = 64;

/// Close codes the relay uses, each saying why.
pub mod close {
    pub const MALFORMED: u16 = 4000;
    pub const AUTH_FAILED: u16 = 4001;
    pub const WRONG_ENVELOPE: u16 = 4002;
    pub const TOO_BIG: u16 = 1009;
    pub const FLOOD: u16 = 4008;
    pub const REPLACED: u16 = 4009;
    pub const SHUTDOWN: u16 = 1001;
}

/// The relay's port range: `TABPILOT_PORTS` ("47311-47315" or one port), else the default.
pub fn port_range() -> Result<RangeInclusive<u16>, String> {
    match Setting::Ports.get() {
        Some(text) => parse_ports(&text),
        None => Ok(DEFAULT_PORTS),
    }
}

fn parse_ports(text: &str) -> Result<RangeInclusive<u16>, String> {
    let bad = || {
        format!(
            "{}={text:?} is not a port or a range like 47311-47315",
            Setting::Ports
        )
    };
    let (a, b) = match text.trim().split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let (a, b): (u16, u16) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a == 0 || b < a || b - a > 64 {
        return Err(bad());
    }
    Ok(a..=b)
}

/// Who a peer is, sent in its `hello`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PeerInfo {
    /// Controllers: what they are (`tabpilot mcp`, `tabpilot cli`), and the MCP client's name.
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub pid: u32,
    /// Controllers: the key under which the relay keeps this agent's books of tabs. Several
    /// connections with one key (the one-shot CLI calls) are one agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Browsers: a stable identity the extension stores, surviving reconnects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Controller,
    Browser,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Controller => "controller",
            Role::Browser => "browser",
        }
    }
}

/// What a call needs from the relay before it can run.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The relay answers it (status).
    Relay,
    /// A browser, no particular tab (list tabs, open a tab).
    Browser,
    /// The agent's tab (opened in the background on first use).
    #[default]
    Tab,
}

/// Which browser and tab a call is for; empty means the agent's own.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<i64>,
}

/// A failure as it crosses the wire.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WireError {
    pub code: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

impl WireError {
    pub fn into_tool_error(self) -> ToolError {
        let code = Code::parse(&self.code).unwrap_or(Code::Internal);
        ToolError {
            code,
            message: self.message,
            outcome: self.outcome.unwrap_or(Outcome::Failed),
        }
    }
}

impl From<&ToolError> for WireError {
    fn from(e: &ToolError) -> Self {
        WireError {
            code: e.code.as_str().to_string(),
            message: e.message.clone(),
            outcome: Some(e.outcome),
        }
    }
}

/// Frames a controller or browser sends to the relay, and the relay to them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "t", rename_all = "camelCase")]
pub enum Frame {
    /// relay → peer: prove you hold the secret.
    Challenge {
        nonce: String,
        version: String,
    },
    /// peer → relay: the proof, the peer's own nonce for the relay to answer, and who it is.
    #[serde(rename_all = "camelCase")]
    Hello {
        role: Role,
        proof: String,
        cnonce: String,
        #[serde(default)]
        info: PeerInfo,
    },
    /// relay → peer: accepted, with the relay's proof over `cnonce`.
    #[serde(rename_all = "camelCase")]
    Welcome {
        proof: String,
        peer_id: u64,
        version: String,
        port: u16,
    },
    /// controller → relay → browser: run a tool. `id` is the sender's; the relay renumbers.
    #[serde(rename_all = "camelCase")]
    Call {
        id: u64,
        tool: String,
        #[serde(default)]
        scope: Scope,
        #[serde(default)]
        target: Target,
        /// Whether the call can change the page (a lost reply is then `unknown`).
        #[serde(default)]
        mutates: bool,
        #[serde(default)]
        args: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
    },
    /// The answer to a call, routed back to whoever made it.
    Result {
        id: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<WireError>,
        /// The browser and tab the call ran in.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
    },
    /// browser → relay: something happened to a tab.
    #[serde(rename_all = "camelCase")]
    Event {
        kind: String,
        tab: Option<i64>,
    },
    /// relay → browser: who is connected, for the popup.
    Roster {
        controllers: Vec<PeerInfo>,
    },
    Ping,
    Pong,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_parse_ranges_and_refuse_nonsense() {
        assert_eq!(parse_ports("47400-47402"), Ok(47400..=47402));
        assert_eq!(parse_ports("47400"), Ok(47400..=47400));
        assert!(parse_ports("x").is_err());
        assert!(parse_ports("47402-47400").is_err());
        assert!(parse_ports("1000-9000").is_err());
    }

    #[test]
    fn frames_use_a_tag_field() {
        let f: Frame = serde_json::from_str(r#"{"t":"call","id":3,"tool":"snapshot"}"#).unwrap();
        assert!(matches!(
            f,
            Frame::Call {
                id: 3,
                scope: Scope::Tab,
                ..
            }
        ));
        assert!(serde_json::from_str::<Frame>(r#"{"t":"nope"}"#).is_err());
    }
}
