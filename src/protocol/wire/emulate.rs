//! What the agent's tab is told that is not so: its position, and extra request headers
//! (sw/emulate.js), without the debugger.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
pub struct Position {
    pub latitude: f64,
    pub longitude: f64,
    // Metres, 10 when not given (a comment: the tool's schema carries no more words than needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
}

/// What to clear: named headers, or (`true`) everything.
#[derive(Deserialize, Serialize, JsonSchema, Clone, PartialEq, Eq, Debug)]
#[serde(untagged)]
pub enum Clear {
    All(bool),
    Headers(Vec<String>),
}

/// Sets or clears the tab's emulation: a position, headers set (by name, lower case) or
/// cleared. `geolocation` replaces the position; headers are merged into those in force.
#[derive(Serialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct Emulate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<Position>,
    pub headers: BTreeMap<String, String>,
    /// Headers to drop (by lower-case name), or every emulation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clear: Option<Clear>,
    /// Drop the position (clear: true, or clear naming "geolocation").
    pub clear_geolocation: bool,
}

/// The tab's emulation, unchanged.
#[derive(Serialize, JsonSchema, Default)]
pub struct ReadEmulation {}

/// What is in force in the tab: the position and the names of the headers set (their values
/// are the agent's own, and stay out of answers).
#[derive(Deserialize, Serialize, JsonSchema, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct Emulation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<Position>,
    pub headers: Vec<String>,
}

// The browser's proxy, which every tab uses: the person's as well as agents' (a comment: the
// tool's description says so once).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ProxyMode {
    Direct,
    Fixed,
    Pac,
    System,
}

/// A proxy server, parsed: `scheme://host:port`.
#[derive(Deserialize, Serialize, JsonSchema, Clone, PartialEq, Eq, Debug)]
pub struct Server {
    pub scheme: String,
    pub host: String,
    pub port: u16,
}

/// Sets the browser's proxy, or (`clear`) takes tabpilot's setting away, which gives the browser
/// back what it had before.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetProxy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<ProxyMode>,
    /// The server, with `fixed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<Server>,
    /// The PAC script's URL, with `pac`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pac_url: Option<String>,
    pub bypass: Vec<String>,
    pub clear: bool,
}

/// The browser's proxy, unchanged.
#[derive(Serialize, JsonSchema, Default)]
pub struct ReadProxy {}

/// The browser's proxy as Chrome reports it, and who controls it.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct ProxyState {
    /// Chrome's mode: direct, fixed_servers, pac_script, system, auto_detect.
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bypass: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pac_url: Option<String>,
    /// Chrome's levelOfControl: whether tabpilot set it, may set it, or cannot (another
    /// extension's or the person's policy).
    pub control: String,
}
