//! An agent giving up its tabs: by `browser_release`, by a person in the popup or the dashboard,
//! or because its session ended. Its leases leave the books, and every connected browser is
//! told, so that it closes the tabs the agent opened and still holds (when asked to; a session
//! that ends always does), frees the ones it was handed (a tab the person shared stays open,
//! theirs again), and drops the network rules the agent's site policy put on the tabs it drove.
//! Each browser knows all of that from the session the relay stamped on the agent's calls, so
//! what one agent's release takes away is that agent's alone.

use std::time::Duration;

use super::route::{Browsers, Router};
use crate::shared::protocol::wire::tabs::Release;
use crate::shared::protocol::{AgentKey, Call, TabId, WireOp};

/// How long a browser has to close a released agent's tabs.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(10);

impl Router {
    /// Releases `session`'s tabs in the books and in every connected browser (`by`: who, when
    /// not the agent itself); returns the tabs the browsers closed.
    pub(super) async fn release(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        close_opened: bool,
        by: Option<&str>,
    ) -> Vec<TabId> {
        self.books().release(session, by);
        self.announce_release(browsers, session, close_opened).await
    }

    /// Tells every connected browser that `session` gave up its tabs (its books already did).
    pub(super) async fn announce_release(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        close_opened: bool,
    ) -> Vec<TabId> {
        let told = browsers.connected().into_iter().map(|browser| async move {
            let release = Release { close_opened };
            let release = Call::of(&release, RELEASE_TIMEOUT);
            // A browser not connected now is not told: what it keeps for the agent stays until
            // the tabs close or the browser's session ends (docs/security.md, known gaps).
            let answer = self
                .ask(browsers, session, &browser.id, release, None)
                .await;
            let released = answer.ok().and_then(|routed| {
                serde_json::from_value::<<Release as WireOp>::Reply>(routed.value).ok()
            });
            released.unwrap_or_default().closed
        });
        futures::future::join_all(told).await.concat()
    }
}
