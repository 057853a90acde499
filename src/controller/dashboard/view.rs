//! What the page shows, gathered afresh for each poll: the relay's browsers and agents (its
//! status), each agent's tabs with their page's title and address (each browser's tab list, an
//! operation that reads and holds no tab), the proxy an agent set in each browser (the whole
//! browser's, so the person sees it), and the last calls in the audit trail.

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;

use crate::controller::audit::Record;
use crate::controller::link::Link;
use crate::shared::error::Outcome;
use crate::shared::protocol::wire::emulate::{ProxyState, ReadProxy};
use crate::shared::protocol::wire::tabs::{self, TabList};
use crate::shared::protocol::{
    AgentId, BrowserEntry, BrowserId, Call, LeaseEntry, RelayInfo, RelayStatus, TabId, WireOp, ask,
};

/// The calls the timeline shows.
const CALLS: usize = 50;
/// A title or address is cut to this many characters: the page writes its own title.
const MAX_TEXT: usize = 200;
const LIST_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct View {
    #[serde(skip_serializing_if = "Option::is_none")]
    relay: Option<RelayInfo>,
    /// Why the relay could not be asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    browsers: Vec<Browser>,
    agents: Vec<Agent>,
    calls: Vec<CallLine>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Browser {
    #[serde(flatten)]
    entry: BrowserEntry,
    /// The proxy an agent set for the whole browser (its server, PAC script or mode), while
    /// tabpilot holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Agent {
    id: AgentId,
    name: String,
    pid: u32,
    connected: bool,
    tabs: Vec<Tab>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tab {
    #[serde(flatten)]
    lease: LeaseEntry,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
}

/// One call of the timeline: who, what, where, how it ended, how long it took.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallLine {
    time: String,
    agent: String,
    tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    tab: Option<TabId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    ms: u64,
}

/// The view now. A dashboard's link is an agent to the relay too, one that never holds a tab;
/// those are left out.
pub(super) async fn gather(link: &Link, audit: &std::path::Path) -> View {
    let calls = recent_calls(audit);
    let status: RelayStatus = match link.ask(ask::Status).await {
        Ok(status) => status,
        Err(e) => {
            return View {
                relay: None,
                error: Some(e.message),
                browsers: Vec::new(),
                agents: Vec::new(),
                calls,
            };
        }
    };
    let mut pages: HashMap<(BrowserId, TabId), tabs::Tab> = HashMap::new();
    for b in status.browsers.iter().filter(|b| b.tabs > 0) {
        for tab in tab_list(link, &b.browser_id).await {
            pages.insert((b.browser_id.clone(), tab.tab_id), tab);
        }
    }
    let mut agents: Vec<Agent> = status
        .agents
        .into_iter()
        .filter(|a| !(a.name == super::NAME && a.tabs.is_empty()))
        .map(|a| Agent {
            tabs: a
                .tabs
                .into_iter()
                .map(|lease| {
                    let page = pages.get(&(lease.browser_id.clone(), lease.tab));
                    Tab {
                        title: page.map(|p| cut(&p.title)),
                        url: page.map(|p| cut(&p.url)),
                        lease: LeaseEntry {
                            private: page.is_some_and(|p| p.private),
                            advanced: page.is_some_and(|p| p.advanced),
                            ..lease
                        },
                    }
                })
                .collect(),
            id: a.id,
            name: a.name,
            pid: a.pid,
            connected: a.connected,
        })
        .collect();
    // In one order, so the cards stay put from one poll to the next.
    agents.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
    let mut browsers = Vec::new();
    for entry in status.browsers {
        let proxy = held_proxy(link, &entry.browser_id).await;
        browsers.push(Browser { entry, proxy });
    }
    View {
        relay: status.relay,
        error: None,
        browsers,
        agents,
        calls,
    }
}

/// The proxy tabpilot holds in a browser, in a few words; none when it holds none or the browser
/// does not answer.
async fn held_proxy(link: &Link, browser: &BrowserId) -> Option<String> {
    let call = Call::of(&ReadProxy {}, LIST_TIMEOUT).in_browser(Some(browser.to_string()));
    let reply = link.call(call).await.ok()?;
    let proxy: ProxyState = serde_json::from_value(reply.value).ok()?;
    proxy
        .is_tabpilots()
        .then(|| cut(&proxy.server.or(proxy.pac_url).unwrap_or(proxy.mode)))
}

/// A browser's tabs; none when it does not answer (the view goes without titles).
async fn tab_list(link: &Link, browser: &BrowserId) -> Vec<tabs::Tab> {
    let call = Call::of(&TabList {}, LIST_TIMEOUT).in_browser(Some(browser.to_string()));
    let Ok(reply) = link.call(call).await else {
        return Vec::new();
    };
    serde_json::from_value::<<TabList as WireOp>::Reply>(reply.value)
        .map(|list| list.tabs)
        .unwrap_or_default()
}

fn recent_calls(audit: &std::path::Path) -> Vec<CallLine> {
    crate::controller::audit::read::recent(audit, CALLS)
        .into_iter()
        .map(|r: Record| CallLine {
            time: r.time,
            agent: r.agent.client,
            tool: r.tool,
            tab: r.tab,
            origin: r.origin,
            outcome: r.outcome,
            code: r.code,
            ms: r.ms,
        })
        .collect()
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_TEXT).collect()
}
