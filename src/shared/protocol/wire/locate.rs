//! Locators: what a recording keeps of each element an agent acts on, computed in its page at
//! that moment (extension/page/locate.js), and the way back to a ref for a replay.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One way to find an element, in Playwright's vocabulary: exactly one of role (with its exact
/// accessible name), label, placeholder, test id, text, or a css path (`>>>` enters a shadow
/// root), the last resort.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Locator {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub css: Option<String>,
}

/// One element as a recording keeps it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Target {
    /// Best first, each found to match this element alone in its frame.
    pub locators: Vec<Locator>,
    /// From the top: the locators of each frame's element in its parent.
    #[serde(default)]
    pub frames: Vec<Vec<Locator>>,
    /// text, check, select or other.
    pub kind: String,
    /// What goes into it is a secret (a password, a one-time code, a card's).
    #[serde(default)]
    pub secret: bool,
}

/// The element the first of `locators` that finds exactly one finds, in the frame `frames`
/// lead to; waited for up to `timeout` ms.
#[derive(Serialize, JsonSchema)]
pub struct ResolveLocator {
    pub frames: Vec<Vec<Locator>>,
    pub locators: Vec<Locator>,
    pub timeout: u64,
}

/// A ref for the element found.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Resolved {
    #[serde(rename = "ref")]
    pub reference: String,
}
