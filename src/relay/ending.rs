//! An agent's session ending: its leases leave the books, and every connected browser is told,
//! so that it closes the tabs it opened for the agent (a tab the person shared stays open, theirs
//! again) and drops the network rules the agent's site policy put on the tabs it drove. Each
//! browser knows both from the session the relay stamped on the agent's calls, so what one
//! agent's end takes away is that agent's alone.

use std::time::Duration;

use serde_json::Value;

use super::route::{Browsers, Router};
use crate::protocol::{Call, Op};

/// How long a browser has to close an ended session's tabs.
const END_TIMEOUT: Duration = Duration::from_secs(10);

impl Router {
    /// Tells every connected browser that `session` ended (its books already closed).
    pub(super) async fn announce_end(&self, browsers: &impl Browsers, session: &str) {
        let ends = browsers.connected().into_iter().map(|browser| async move {
            let end = Call::new(Op::SessionEnd, Value::Null, END_TIMEOUT);
            // A browser not connected now is not told: what it keeps for the agent stays until
            // the tabs close or the browser's session ends (docs/security.md, known gaps).
            let _ = self.ask(browsers, session, &browser, end).await;
        });
        futures::future::join_all(ends).await;
    }
}
