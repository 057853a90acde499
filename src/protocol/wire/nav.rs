//! Moving the agent's tab between pages: to a URL, a reload, back and forward.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::act::{After, Findings};

/// Loads a URL in the tab, or reloads it.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Navigate {
    To {
        url: String,
        after: After,
    },
    #[serde(rename_all = "camelCase")]
    Reload {
        /// Always true.
        reload: bool,
        ignore_cache: bool,
        after: After,
    },
}

/// Back or forward in the tab's history.
#[derive(Serialize, JsonSchema)]
pub struct History {
    pub direction: HistoryDirection,
    pub after: After,
}

#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum HistoryDirection {
    Back,
    Forward,
}

/// What the extension answers a navigation with.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NavReply {
    pub settled: bool,
    pub elapsed_ms: u64,
    pub url: String,
    pub title: String,
    /// navigate, reload, back or forward.
    pub what: String,
    #[serde(flatten)]
    pub findings: Findings,
}
