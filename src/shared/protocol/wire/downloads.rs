//! The downloads agents' tabs started, as the extension attributes them (sw/downloads.js).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which download to wait for: its id, or (`true`) this agent's newest, or the next it starts.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(untagged)]
pub enum WaitFor {
    Id(u64),
    Newest(bool),
}

/// Lists the recent downloads of agents' tabs; with `wait`, first waits for one to end.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Downloads {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<WaitFor>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum State {
    InProgress,
    Interrupted,
    Complete,
}

/// One download. Another agent's shows only its URL's origin, and not its file.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Download {
    pub id: u64,
    /// Started by this agent's tab.
    pub mine: bool,
    pub url: String,
    /// The file on disk (final once complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_bytes: Option<u64>,
    pub state: State,
    /// Chrome's verdict: safe, accepted, or what it suspects (file, url, content, ...).
    pub danger: String,
    /// Why it was interrupted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct DownloadsOut {
    /// Newest first.
    pub downloads: Vec<Download>,
    /// The download waited for, ended now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited: Option<u64>,
}

/// A download an action's tab started while the action ran (its file's name, as far as known).
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Started {
    pub id: u64,
    pub name: String,
}
