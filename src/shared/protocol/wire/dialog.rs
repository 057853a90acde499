//! The tab's dialogs: the policy for the next alert, confirm or prompt, and what was shown.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Accept,
    Dismiss,
    Leave,
}

/// Sets the policy for the tab's next dialog (or every one, `once: false`), or answers the one
/// open now through the debugger (`answer`, advanced mode).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetDialogs {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// The answer to a prompt, with accept or answer: true.
    pub prompt_text: Option<String>,
    pub once: bool,
    /// Accept (true) or dismiss the dialog open now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<bool>,
}

/// The policy for the tab's next dialog, the one open now and the recent ones.
#[derive(Serialize, JsonSchema, Default)]
pub struct ReadDialogs {}

/// The policy for the tab's next dialog.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once: Option<bool>,
}

/// A dialog the page showed, or shows now.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Dialog {
    pub kind: String,
    pub message: String,
    /// What happened to it (a recent one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// What the page got back: a confirm's true or false, a prompt's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct DialogsOut {
    pub policy: Policy,
    /// The dialog open now, in front of the person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Dialog>,
    pub recent: Vec<Dialog>,
    /// The dialog `answer` answered, with what the page got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered: Option<Dialog>,
}
