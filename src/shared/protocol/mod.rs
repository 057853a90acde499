//! Wire types and constants shared by the relay, controllers and (as JSON) the extension.
//!
//! Every frame is one JSON object with a `t` field naming its kind. Version 1.

pub mod ask;
pub mod auth;
pub mod contract;
pub mod handshake;
pub mod ids;
pub mod kinds;
mod op;
pub mod refs;
pub mod remote;
pub mod replies;
pub mod seal;
pub mod wire;

pub use ask::RelayAsk;
pub use ids::{AgentId, AgentKey, BrowserId, TabId};
pub use op::{Effect, Op, RelayOp, TabEvent, Timeout, WireOp};

use std::ops::RangeInclusive;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::shared::error::{Code, Outcome, ToolError};
use crate::shared::settings::Setting;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const DEFAULT_PORTS: RangeInclusive<u16> = 47311..=47315;

/// Largest frame a controller may send; calls are small.
pub const CONTROLLER_MAX_FRAME: usize = 1 << 20;
/// Largest frame a browser may send. A bigger answer (a screenshot, a big page) comes in
/// `part` frames of at most this size.
pub const BROWSER_MAX_FRAME: usize = 1 << 20;
/// Largest answer a browser may send in parts.
pub const MAX_ANSWER: usize = 48 << 20;
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
    /// A frame after the handshake that did not open with the link's key.
    pub const UNSEALED: u16 = 4010;
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
    /// Controllers: the key that makes a named session this controller's to join (kept
    /// owner-only in the state dir). A name without it gets books of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// Controllers: how long this agent's leases hold while it is idle (`TABPILOT_LEASE_TTL_MS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_ttl_ms: Option<u64>,
    /// Browsers: a stable identity the extension stores, surviving reconnects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<BrowserId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Browsers: the version of the extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension: Option<String>,
}

/// Longest name of an agent others are shown (an MCP client's `clientInfo.name`).
pub const MAX_NAME: usize = 64;

impl PeerInfo {
    /// The info with its name as others may read it: one line, bounded, visible characters.
    pub fn bounded(mut self) -> PeerInfo {
        self.name = crate::shared::terminal::name(&self.name, MAX_NAME);
        self
    }
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
    /// The browser by its id or its label, as an agent names it (the relay picks it, and
    /// answers with its id); a label is not a `BrowserId`, so this is the name as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<TabId>,
}

/// What the relay says of itself: its version and port, the browsers and the agents connected.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct RelayStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relay: Option<RelayInfo>,
    #[serde(default)]
    pub browsers: Vec<BrowserEntry>,
    #[serde(default)]
    pub agents: Vec<AgentEntry>,
    /// The asking agent's id among `agents`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<AgentId>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct RelayInfo {
    pub version: String,
    pub port: u16,
}

/// Whether tabpilot launched a browser or it is the person's own.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum BrowserKind {
    Managed,
    User,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BrowserEntry {
    pub browser_id: BrowserId,
    pub kind: BrowserKind,
    /// Agents with a tab in it, and the agents' tabs in it.
    pub agents: usize,
    pub tabs: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The extension's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension: Option<String>,
}

/// An agent the relay keeps books for: connected now, or within its grace period.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AgentEntry {
    /// Short, stable while the agent lives (a digest of its books' key, never the key).
    pub id: AgentId,
    /// The MCP client's name (`cli` for the command line).
    pub name: String,
    pub pid: u32,
    pub connected: bool,
    pub tabs: Vec<LeaseEntry>,
}

/// A tab an agent holds.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LeaseEntry {
    pub browser_id: BrowserId,
    pub tab: TabId,
    /// Since the agent's last call in it; past the agent's lease time another may take it.
    pub idle_ms: u64,
    pub lapsed: bool,
    /// The agent opened it (a release closes it), rather than being handed it.
    pub opened: bool,
    /// The tab its page calls run in.
    pub current: bool,
    /// In a private window. The relay's books do not know a window's profile: browser_status
    /// marks it from the browser's own list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// In advanced mode (the debugger attached), marked the same way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advanced: bool,
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
            recovery: None,
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

/// A browser operation on its way: from the controller to the relay, which renumbers it, picks
/// the browser and tab, and passes it on. One struct on every hop.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    pub id: u64,
    pub op: Op,
    /// What the operation needs, as the extension reads it. The relay sets it from `op`; what a
    /// controller sends here is ignored.
    #[serde(default)]
    pub scope: Scope,
    #[serde(default)]
    pub target: Target,
    #[serde(default)]
    pub args: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// relay → browser: the session the call is for. A tab the call opens goes into its books
    /// (the extension keeps that, so a relay that restarts can have its books back); the network
    /// rules of its guard are this session's, dropped when the relay says it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<AgentKey>,
    /// controller → browser: the site policy this call is held to, where the agent has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    /// controller → browser: the call is a recorded action; its page script describes each
    /// element it names before acting, and the answer carries them (`described`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub describe: bool,
}

/// The site policy as the browser holds to it: each list's patterns as regular expressions (with
/// the pattern as written, for messages), and whether the call acts on the page, so the browser
/// judges the tab's URL at that moment. The deny list (and the allow list, for documents) is
/// also enforced in the browser's network for this agent's tabs.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Guard {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<GuardRule>>,
    #[serde(default)]
    pub deny: Vec<GuardRule>,
    #[serde(default)]
    pub sensitive: Vec<GuardRule>,
    #[serde(default)]
    pub acts: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct GuardRule {
    pub pattern: String,
    pub regex: String,
}

impl Call {
    /// A call on this agent's tab or browser, as `op` needs; `target` names another.
    pub fn new(op: Op, args: Value, timeout: std::time::Duration) -> Self {
        Call {
            id: 0,
            op,
            scope: op.scope(),
            target: Target::default(),
            args,
            timeout_ms: Some(timeout.as_millis() as u64),
            owner: None,
            guard: None,
            describe: false,
        }
    }

    /// A call of a declared operation (`WireOp`): its arguments written as the declaration
    /// says, within `timeout`. Its answer reads as `A::Reply`.
    pub fn of<A: WireOp>(args: &A, timeout: std::time::Duration) -> Self {
        let args = serde_json::to_value(args).expect("declared arguments are JSON");
        Call::new(A::OP, args, timeout)
    }

    /// In the browser named by id or label (none: as the relay picks).
    pub fn in_browser(mut self, browser: Option<String>) -> Self {
        self.target.browser = browser;
        self
    }

    pub fn on_tab(mut self, tab: Option<TabId>) -> Self {
        self.target.tab = tab;
        self
    }

    pub fn timeout(&self) -> Option<std::time::Duration> {
        self.timeout_ms.map(std::time::Duration::from_millis)
    }
}

/// A tab a browser opened for an agent, and the books it belongs in.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct HeldTab {
    pub tab: TabId,
    /// The books of the agent that holds it now.
    pub owner: AgentKey,
    /// Whether that agent opened it (an older extension says nothing: it holds only those).
    #[serde(default = "opened_by_default")]
    pub opened: bool,
}

fn opened_by_default() -> bool {
    true
}

/// The answer to a call or an ask, routed back to whoever made it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Answer {
    pub id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<WireError>,
    /// The browser and tab the call ran in (relay → controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// The address of the tab a call ran in, as the call answered (browser → relay →
    /// controller; the audit trail's page). Absent for a call on no tab, and on a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// What the call did to tabs (browser → relay).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<TabEvent>,
    /// The elements a recorded action (`describe`) acted on, in the order of its refs; none
    /// when any could not be described (browser → relay → controller).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub described: Vec<wire::locate::Target>,
}

impl Answer {
    /// The value, or the error as the tool layer reports it.
    pub fn into_result(self) -> Result<Value, ToolError> {
        match self.error {
            Some(e) => Err(e.into_tool_error()),
            None => Ok(self.value.unwrap_or(Value::Null)),
        }
    }
}

/// Frames a controller or browser sends to the relay, and the relay to them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "t", rename_all = "camelCase")]
pub enum Frame {
    /// relay → peer: prove you hold the secret. On a socket past loopback, `key` is the relay's
    /// key fingerprint, which the browser compares with the one it paired with before it proves
    /// anything (`protocol::remote`).
    Challenge {
        nonce: String,
        version: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// peer → relay: the proof and the peer's own nonce for the relay to answer. Everything
    /// after it is sealed (`seal`), who the peer is included.
    Hello {
        role: Role,
        proof: String,
        cnonce: String,
    },
    /// peer → relay, the first sealed frame, right after the hello: who the peer is.
    About {
        #[serde(default)]
        info: PeerInfo,
        /// browser only: the tabs it opened for agents and whose each is, so a relay that
        /// restarted has its books back before any agent's call can reach the browser.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held: Vec<HeldTab>,
    },
    /// relay → peer: accepted, with the relay's proof over `cnonce`.
    #[serde(rename_all = "camelCase")]
    Welcome {
        proof: String,
        peer_id: u64,
        version: String,
        port: u16,
    },
    /// controller → relay → browser: run an operation. `id` is the sender's; the relay renumbers.
    Call(Call),
    /// controller → relay: an operation the relay answers itself (a browser may ask those
    /// `RelayOp::for_browsers` allows, for its popup).
    Ask {
        id: u64,
        op: RelayOp,
    },
    /// The answer to a call or an ask.
    Result(Answer),
    /// controller → relay → browser: the call numbered `id` is no longer wanted (the client
    /// cancelled it). `id` is the sender's number for it, as in its `call`: a controller names
    /// only its own calls, and the relay passes it on under the number it gave the browser. The
    /// call still answers, saying what it had done; a cancel for a call that has answered, or
    /// that the sender never made, is ignored.
    Cancel {
        id: u64,
    },
    /// browser → relay: something happened to a tab that no call caused.
    Tab(TabEvent),
    /// browser → relay: a piece of a frame too big for one (its JSON text, cut in order); the
    /// `last` piece completes it.
    Part {
        data: String,
        last: bool,
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
        let f: Frame = serde_json::from_str(r#"{"t":"call","id":3,"op":"snapshot"}"#).unwrap();
        assert!(matches!(
            f,
            Frame::Call(Call {
                id: 3,
                op: Op::Snapshot,
                ..
            })
        ));
        let tab: Frame = serde_json::from_str(r#"{"t":"tab","kind":"closed","tab":4}"#).unwrap();
        assert_eq!(tab, Frame::Tab(TabEvent::Closed { tab: TabId(4) }));
        assert_eq!(
            serde_json::to_value(&tab).unwrap(),
            serde_json::json!({"t": "tab", "kind": "closed", "tab": 4})
        );
        assert!(serde_json::from_str::<Frame>(r#"{"t":"nope"}"#).is_err());
    }
}
