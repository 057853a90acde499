//! What the agent's tab is told that is not so: its position, and extra request headers
//! (sw/emulate.js), without the debugger; its device (sw/devices.js), with it, in advanced mode.

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
/// cleared, the device's settings set or cleared (by name). `geolocation` replaces the
/// position; headers and the device's settings are merged into those in force. Clearing comes
/// before setting.
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
    /// The device's settings to put in force, through the debugger (advanced mode).
    pub device: Device,
    /// The device's settings to drop (clear: true drops them all).
    pub clear_device: Vec<DeviceSetting>,
}

// The viewport (a comment: the tool's schema carries no more words than needed).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_scale_factor: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touch: Option<bool>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ColorScheme {
    Light,
    Dark,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum ReducedMotion {
    Reduce,
    NoPreference,
}

// Network conditions: no connection, or a round trip and speeds (a comment: the tool's schema).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Network {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
    pub latency_ms: u32,
    pub download_kbps: u32,
    pub upload_kbps: u32,
}

/// The device the tab plays, set through the debugger; what is not named is the browser's own.
#[derive(Deserialize, Serialize, JsonSchema, Clone, PartialEq, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewport: Option<Viewport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_scheme: Option<ColorScheme>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced_motion: Option<ReducedMotion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
    /// The CPU's slowdown rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
}

/// One of the device's settings, by its name in `clear`.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "camelCase")]
pub enum DeviceSetting {
    Viewport,
    UserAgent,
    ColorScheme,
    ReducedMotion,
    Network,
    Cpu,
}

impl DeviceSetting {
    pub const ALL: [DeviceSetting; 6] = [
        DeviceSetting::Viewport,
        DeviceSetting::UserAgent,
        DeviceSetting::ColorScheme,
        DeviceSetting::ReducedMotion,
        DeviceSetting::Network,
        DeviceSetting::Cpu,
    ];

    /// Its name in `clear` and in the reply.
    pub fn name(self) -> &'static str {
        match self {
            DeviceSetting::Viewport => "viewport",
            DeviceSetting::UserAgent => "userAgent",
            DeviceSetting::ColorScheme => "colorScheme",
            DeviceSetting::ReducedMotion => "reducedMotion",
            DeviceSetting::Network => "network",
            DeviceSetting::Cpu => "cpu",
        }
    }

    pub fn named(name: &str) -> Option<DeviceSetting> {
        DeviceSetting::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The tab's emulation, unchanged.
#[derive(Serialize, JsonSchema, Default)]
pub struct ReadEmulation {}

/// What is in force in the tab: the position, the names of the headers set (their values
/// are the agent's own, and stay out of answers), the device, and how many times slower the
/// throttling makes the tab (1: none), by which tabpilot's own waits for it are stretched.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Emulation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<Position>,
    pub headers: Vec<String>,
    #[serde(default)]
    pub device: Device,
    #[serde(default = "no_slowdown")]
    pub slowdown: f64,
}

fn no_slowdown() -> f64 {
    1.0
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

impl ProxyState {
    /// Whether the proxy in force is the one tabpilot set.
    pub fn is_tabpilots(&self) -> bool {
        self.control == "controlled_by_this_extension"
    }
}
