//! What an action caused in its page, as the probes riding on the action's own call found it
//! (extension/ops.js `probe`): read from the action's reply and carried on its `Out` to the
//! after-action layer (after.rs). Each call's findings travel with that call alone, so two calls
//! running at once in one session never read each other's.

use serde::Deserialize;
use serde_json::Value;

/// The probes an action asked for (`after.console`, `after.network`), each absent when it was not
/// asked for or did not answer (the action stands either way).
#[derive(Deserialize, Default, Debug, Clone, PartialEq)]
pub struct Findings {
    /// What the tab's console gained since the action began: `{errors, entries?}`.
    #[serde(default)]
    pub console: Option<Value>,
    /// What the tab met since: `{issues, requests?}`.
    #[serde(default)]
    pub network: Option<Value>,
}
