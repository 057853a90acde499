//! Advanced mode: the debugger attached to the agent's tab from `on` until `off`
//! (sw/debugger.js), for what nothing else can do.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Attaches the debugger to the tab the call names (`on`), or detaches it.
#[derive(Serialize, JsonSchema)]
pub struct Advanced {
    pub on: bool,
}

/// The tab's advanced mode after the call.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AdvancedState {
    pub on: bool,
    /// When it was switched on (ISO time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// It was already as asked.
    pub unchanged: bool,
}
