//! Tabs: open, describe, bring to front, list, close; and an agent's release of its own.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::shared::protocol::TabId;

/// Opens a tab (in the background unless `active`), at `url` or blank.
#[derive(Serialize, JsonSchema)]
pub struct TabOpen {
    pub url: Option<String>,
    pub active: bool,
    /// In a new private window, with its own cookie jar.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incognito: bool,
}

/// The tab the call names.
#[derive(Serialize, JsonSchema, Default)]
pub struct TabInfo {}

/// Brings the tab the call names to the front.
#[derive(Serialize, JsonSchema, Default)]
pub struct TabFocus {}

/// Every tab of the browser.
#[derive(Serialize, JsonSchema, Default)]
pub struct TabList {}

/// Closes the tab the call names.
#[derive(Serialize, JsonSchema, Default)]
pub struct TabClose {}

/// A tab as the extension describes it.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Tab {
    pub tab_id: TabId,
    pub window_id: i64,
    pub active: bool,
    pub url: String,
    pub title: String,
    /// The person's, not shared with agents: shown by its origin alone, no title.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unshared: bool,
    /// In a private window: its own cookie jar and storage.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// In advanced mode: the debugger is attached, and the browser shows its banner.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advanced: bool,
}

#[derive(Deserialize, JsonSchema, Debug)]
pub struct Tabs {
    pub tabs: Vec<Tab>,
}

/// The tab a close took away.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Closed {
    pub closed: TabId,
}

/// Lets an agent's tabs go in a browser (the relay alone sends it): closes the ones it opened
/// when `closeOpened`, frees the ones it was handed, drops its network rules. The agent is the
/// call's owner.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Release {
    pub close_opened: bool,
}

/// The tabs a release closed.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Default)]
pub struct Released {
    pub closed: Vec<TabId>,
}
