//! Reading the page: its snapshot.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The page's outline within a budget, or one region of it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub verbose: bool,
    /// The budget in tokens; none: all of it.
    pub max_tokens: Option<u64>,
    /// The region to show (a summary line's ref), from `offset`.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
}

/// What the extension answers a snapshot with.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotReply {
    pub text: String,
    pub refs: u64,
    pub capped: bool,
    #[serde(default)]
    pub collapsed: u64,
    #[serde(default)]
    pub frames: u64,
    #[serde(default)]
    pub frames_capped: bool,
    pub url: String,
    pub title: String,
}
