//! Moving the agent's tab between pages: to a URL, a reload, back and forward.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::act::{After, Findings};

/// Loads a URL in the tab, or reloads it.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Navigate {
    #[serde(rename_all = "camelCase")]
    To {
        url: String,
        after: After,
        /// Runs before any page script, in this navigation's document only (advanced mode).
        #[serde(skip_serializing_if = "Option::is_none")]
        init_script: Option<String>,
        /// Answers the page's "Leave site?" prompt (advanced mode).
        #[serde(skip_serializing_if = "Option::is_none")]
        handle_before_unload: Option<BeforeUnload>,
    },
    #[serde(rename_all = "camelCase")]
    Reload {
        /// Always true.
        reload: bool,
        ignore_cache: bool,
        after: After,
    },
}

/// The answer to a page's "Leave site?" prompt.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum BeforeUnload {
    Accept,
    Dismiss,
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
    /// The tab's address as the call began.
    #[serde(default)]
    pub url_before: String,
    /// Whether the tab went anywhere: a new document in its top frame (a reload's too), or its
    /// address changing.
    #[serde(default)]
    pub navigated: bool,
    /// How the page's "Leave site?" prompt was answered, when it showed one.
    #[serde(default)]
    pub before_unload: Option<String>,
    /// What shows the loaded page still drawing itself (a splash screen, a progress bar),
    /// when something still did at the end of the wait.
    #[serde(default)]
    pub drawing: Option<String>,
    #[serde(flatten)]
    pub findings: Findings,
}
