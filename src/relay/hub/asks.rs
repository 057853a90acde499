//! What the relay answers itself (`RelayOp`): its status, pairing codes, an agent's tab, the
//! browser a label names, a forced claim, and a release.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::super::route::{Browsers, named};
use super::{Hub, kind_of};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::ask::{self, Claimed, Paired, RemotePaired};
use crate::shared::protocol::wire::tabs::{Released, TabInfo};
use crate::shared::protocol::{
    self, AgentEntry, AgentKey, BrowserEntry, Call, RelayInfo, RelayOp, RelayStatus, Target,
    handshake,
};

/// Who asks the relay: an agent, by the key to its books, or a person in a browser's popup, who
/// has no books (and may ask only what needs none, `RelayOp::for_browsers`).
#[derive(Clone, Copy)]
pub(super) enum Asker<'a> {
    Agent(&'a AgentKey),
    Popup,
}

impl<'a> Asker<'a> {
    /// The asking agent's books: an ask about "this agent" from a popup is refused.
    fn agent(self) -> Result<&'a AgentKey, ToolError> {
        match self {
            Asker::Agent(session) => Ok(session),
            Asker::Popup => Err(ToolError::refused(
                Code::BadArgs,
                "a browser's popup has no tabs of its own",
            )),
        }
    }
}

/// An answer as it goes on the wire. The relay's own answers are plain data (no map with
/// other keys than strings, no number JSON lacks), so this never fails; were one to, the ask
/// gets INTERNAL, and the relay goes on.
fn reply(answer: impl serde::Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(answer)
        .map_err(|e| ToolError::failed(Code::Internal, format!("the relay's answer: {e}")))
}

impl Hub {
    /// The operations the relay answers itself, for the agent or the popup that asks.
    pub(super) async fn relay_op(
        self: &Arc<Self>,
        asker: Asker<'_>,
        op: RelayOp,
    ) -> Result<Value, ToolError> {
        match op {
            RelayOp::Pair => reply(Paired {
                url: format!("http://127.0.0.1:{}{}", self.port, handshake::PAIR_PATH),
                code: self.pairing.codes.issue(),
                port: self.port,
            }),
            RelayOp::PairRemote => self.pair_remote(),
            RelayOp::MyTab => {
                let current = self.router.books().current(asker.agent()?).cloned();
                let target = current.map(|(browser, tab)| Target {
                    browser: Some(browser.to_string()),
                    tab: Some(tab),
                });
                reply(target)
            }
            RelayOp::Status => {
                let status = RelayStatus {
                    you: asker.agent().ok().map(AgentKey::short_id),
                    ..self.status()
                };
                reply(status)
            }
            RelayOp::Browser(ask::Browser { name }) => {
                let id = named(&self.connected(), &name)?.id.clone();
                let entry = self
                    .status()
                    .browsers
                    .into_iter()
                    .find(|b| b.browser_id == id);
                reply(entry)
            }
            RelayOp::ForceClaim(ask::ForceClaim {
                browser,
                tab,
                reason,
            }) => {
                let call = Call::of(&TabInfo {}, Duration::ZERO)
                    .in_browser(browser)
                    .on_tab(Some(tab));
                let session = asker.agent()?;
                let browser = self.router.pick_browser(&**self, session, &call)?;
                let from = self.router.books().force(session, &browser, tab, &reason);
                let claimed = Claimed {
                    browser_id: browser,
                    tab,
                    from,
                };
                reply(claimed)
            }
            RelayOp::Release(ask::Release {
                agent,
                close_opened,
            }) => {
                let (session, by) = match &agent {
                    None => (asker.agent()?.clone(), None),
                    Some(id) => match self.router.books().session_by_id(id) {
                        Some(s) => (s, Some("a person, from the popup or the dashboard")),
                        None => {
                            return Err(ToolError::bad_args(format!(
                                "no agent {id:?} (browser_status lists them)"
                            )));
                        }
                    },
                };
                let closed = self
                    .router
                    .release(&**self, &session, close_opened, by)
                    .await;
                reply(Released { closed })
            }
        }
    }

    /// The relay, its browsers, and every agent it keeps books for.
    fn status(&self) -> RelayStatus {
        // The roster before the books, the order `join` takes them in.
        let r = self.roster();
        let books = self.router.books();
        let view = books.view();
        let browsers = r
            .browsers
            .iter()
            .map(|(id, b)| {
                let here = |t: &&protocol::LeaseEntry| &t.browser_id == id;
                BrowserEntry {
                    browser_id: id.clone(),
                    kind: kind_of(&b.info),
                    agents: view
                        .iter()
                        .filter(|a| a.tabs.iter().any(|t| here(&t)))
                        .count(),
                    tabs: view
                        .iter()
                        .map(|a| a.tabs.iter().filter(here).count())
                        .sum(),
                    browser: b.info.browser.clone(),
                    profile: b.info.profile.clone(),
                    label: b.info.label.clone(),
                    extension: b.info.extension.clone(),
                }
            })
            .collect();
        let agents = view
            .into_iter()
            .map(|a| AgentEntry {
                id: a.session.short_id(),
                name: a.info.name.clone(),
                pid: a.info.pid,
                connected: r.controllers.values().any(|c| c.session == *a.session),
                tabs: a.tabs,
            })
            .collect();
        RelayStatus {
            relay: Some(RelayInfo {
                version: protocol::VERSION.into(),
                port: self.port,
            }),
            browsers,
            agents,
            you: None,
        }
    }
}

impl Hub {
    /// A code for a browser on another computer, where the relay listens past loopback.
    fn pair_remote(&self) -> Result<Value, ToolError> {
        let Some(remote) = self.pairing().remote.as_ref() else {
            return Err(ToolError::refused(
                Code::BadArgs,
                format!(
                    "the relay listens on loopback only; start it with `tabpilot relay \
                     --listen HOST:PORT` (or set {}) on this computer, then pair again",
                    crate::shared::settings::Setting::RelayListen
                ),
            ));
        };
        reply(RemotePaired {
            address: remote.addr.to_string(),
            code: remote.codes.issue(),
            fingerprint: remote.fingerprint.clone(),
        })
    }
}
