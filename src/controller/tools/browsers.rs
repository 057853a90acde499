//! The relay's view, and this agent's place in it: the link, the browsers and the agents with
//! their leases; which browser this agent works in; taking a tab another agent holds; giving up
//! this agent's tabs.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{NoArgs, moves, read_only};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, Tier};
use super::tool::{About, Tool};
use crate::controller::link::LinkState;
use crate::controller::policy::PolicyView;
use crate::controller::secrets;
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::tabs::TabList;
use crate::shared::protocol::{BrowserEntry, BrowserId, BrowserKind, RelayStatus, TabId, ask};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectBrowserArgs {
    /// Label or id (from browser_status).
    browser: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ForceClaimArgs {
    tab_id: TabId,
    /// Why: the agent that held it is told.
    reason: String,
    /// Label or id (default: yours).
    browser: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReleaseArgs {
    /// Close tabs you opened (default true); handed ones stay.
    close_opened: Option<bool>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_status",
                description: "Relay link state, connected browsers, and agents with their tabs.",
                hints: read_only(),
                // Slim too: without it an agent cannot see why no browser answers.
                tier: Tier::Slim,
                ..About::default()
            },
            |cx, _: NoArgs| status(cx).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_select_browser",
                description: "Work in this browser from now on; you are never moved to another.",
                hints: Hints {
                    idempotent: true,
                    ..read_only()
                },
                cli: Cli {
                    positional: &["browser"],
                    ..Cli::default()
                },
                // Slim too: the way out of AMBIGUOUS_BROWSER.
                tier: Tier::Slim,
                ..About::default()
            },
            |cx, a| select_browser(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_force_claim",
                description: "Take a tab another agent holds and work in it; it is told who and why.",
                hints: moves(),
                cli: Cli {
                    positional: &["tabId", "reason"],
                    ..Cli::default()
                },
                ..About::default()
            },
            |cx, a| force_claim(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_release",
                description: "Give up your tabs; the next page call opens a fresh one.",
                hints: Hints {
                    destructive: true,
                    ..moves()
                },
                ..About::default()
            },
            |cx, a| release(cx, a).boxed(),
        ),
    ]
}

/// The link as `browser_status` names it.
#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "UPPERCASE")]
enum Link {
    Connected,
    Waiting,
    Connecting,
    Retrying,
    Stopped,
}

#[derive(Serialize, JsonSchema)]
struct StatusOut {
    link: Link,
    policy: PolicyShown,
    /// The browser this agent is pinned to, by label or id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pinned: Option<String>,
    #[serde(flatten)]
    relay: RelayStatus,
    /// The secrets a person registered, to fill by name (browser_type's `secret`): names, kinds
    /// and origins, never values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    secrets: Vec<secrets::Listed>,
    /// The proxies tabpilot set (browser_proxy), which every tab of their browser uses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    proxies: Vec<super::proxy::BrowserProxy>,
    /// How this MCP server knows itself across restarts: `orphan` takes a fresh key each time
    /// (src/controller/link/identity.rs).
    #[serde(skip_serializing_if = "Option::is_none")]
    identity: Option<crate::controller::link::identity::Kind>,
}

/// The policy in effect and, beside it, where calls are recorded.
#[derive(Serialize, JsonSchema)]
struct PolicyShown {
    #[serde(flatten)]
    rules: PolicyView,
    /// The audit trail's file, or `off`.
    audit: String,
}

impl std::fmt::Display for PolicyShown {
    /// One line: only what is set, and the audit trail.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = self.rules.parts();
        parts.push(format!("audit {}", self.audit));
        write!(f, "policy: {}", parts.join("; "))
    }
}

/// The identity line of the status text (none outside an MCP server on stdio).
fn identity_line() -> String {
    crate::controller::link::identity::kind()
        .map(|k| format!("\nIdentity: {k}"))
        .unwrap_or_default()
}

async fn status(cx: &Ctx) -> Result<Out<StatusOut>, ToolError> {
    // A store that cannot be read leaves the list out, not the status.
    let secrets = crate::shared::blocking::run("listing the secrets", || {
        Ok(secrets::list().unwrap_or_else(|e| {
            tracing::warn!("the secret store cannot be read: {e}");
            Vec::new()
        }))
    })
    .await?;
    let policy = PolicyShown {
        rules: cx.policy().view(),
        audit: crate::controller::audit::shown(),
    };
    let pinned = cx.pinned_browser();
    // Only a link that is up (or not started) is asked: one that is reconnecting is reported as
    // it stands, so polling the status never makes an attempt; the link's own task makes them.
    let asked = match cx.link_state() {
        LinkState::Idle | LinkState::Connected => Some(cx.ask(ask::Status).await),
        _ => None,
    };
    let status: RelayStatus = match asked {
        Some(Ok(status)) => status,
        failed => {
            let (link, text) = link_down(cx.link_state(), failed.and_then(Result::err));
            let text = format!(
                "{text}\n{policy}{}{}",
                secrets_line(&secrets),
                identity_line()
            );
            let relay = RelayStatus::default();
            let data = StatusOut {
                link,
                policy,
                pinned,
                relay,
                secrets,
                proxies: Vec::new(),
                identity: crate::controller::link::identity::kind(),
            };
            return Ok(Out::new(text, data));
        }
    };
    let link = if status.browsers.is_empty() {
        Link::Waiting
    } else {
        Link::Connected
    };
    let mut status = status;
    mark_pages(cx, &mut status).await;
    let mut text = roster_text(link, &status);
    if let Some(pin) = &pinned {
        text.push_str(&format!("\nThis agent works in browser {pin:?}."));
    }
    text.push_str(&format!("\n{policy}{}", secrets_line(&secrets)));
    let ids: Vec<BrowserId> = status
        .browsers
        .iter()
        .map(|b| b.browser_id.clone())
        .collect();
    let (proxies, proxy_lines) = super::proxy::held(cx, &ids).await;
    text.push_str(&proxy_lines);
    text.push_str(&identity_line());
    let data = StatusOut {
        link,
        policy,
        pinned,
        relay: status,
        secrets,
        proxies,
        identity: crate::controller::link::identity::kind(),
    };
    Ok(Out::new(text, data))
}

/// The secrets an agent may fill by name, on one line (none: nothing).
fn secrets_line(list: &[secrets::Listed]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let each: Vec<String> = list
        .iter()
        .map(|s| format!("{} ({}, {})", s.name, s.kind, s.origins.join(" ")))
        .collect();
    format!("\nSecrets to fill by name: {}", each.join("; "))
}

/// What the status says of a link the relay could not be asked through: its word and a line.
fn link_down(state: LinkState, failed: Option<ToolError>) -> (Link, String) {
    match state {
        LinkState::Retrying {
            next,
            reason,
            failures,
        } => (
            Link::Retrying,
            format!(
                "RETRYING: {reason}; next attempt in {} ms ({failures} failed in a row)",
                next.as_millis()
            ),
        ),
        LinkState::Stopped => (
            Link::Stopped,
            "STOPPED: tabpilot is shutting down".to_string(),
        ),
        LinkState::Idle | LinkState::Connecting => (
            Link::Connecting,
            "CONNECTING: reaching the relay (starting one if none answers)".to_string(),
        ),
        LinkState::Connected => {
            let why = failed.map(|e| e.message);
            (
                Link::Retrying,
                format!("RETRYING: {}", why.unwrap_or_default()),
            )
        }
    }
}

/// Marks the private tabs and those in advanced mode among those agents hold, from the list of
/// each connected browser holding some; one that does not answer marks none (the status stands
/// without it).
async fn mark_pages(cx: &Ctx, status: &mut RelayStatus) {
    let connected: Vec<&BrowserId> = status.browsers.iter().map(|b| &b.browser_id).collect();
    let mut held: Vec<BrowserId> = status
        .agents
        .iter()
        .flat_map(|a| a.tabs.iter().map(|t| t.browser_id.clone()))
        .filter(|b| connected.contains(&b))
        .collect();
    held.sort();
    held.dedup();
    for browser in held {
        let run = cx.run(TabList {}).in_browser(Some(browser.to_string()));
        let Ok(list) = run.await else { continue };
        let tabs = status.agents.iter_mut().flat_map(|a| a.tabs.iter_mut());
        for t in tabs.filter(|t| t.browser_id == browser) {
            let page = list.tabs.iter().find(|p| p.tab_id == t.tab);
            t.private = page.is_some_and(|p| p.private);
            t.advanced = page.is_some_and(|p| p.advanced);
        }
    }
}

/// The relay, its browsers and its agents, a line each.
fn roster_text(link: Link, status: &RelayStatus) -> String {
    let word = serde_json::to_value(link).expect("a link state serializes");
    let relay = status.relay.as_ref();
    let mut text = format!(
        "{}: relay {} on port {}; {} browser(s), {} agent(s)",
        word.as_str().unwrap_or_default(),
        relay.map_or("", |r| r.version.as_str()),
        relay.map_or(0, |r| r.port),
        status.browsers.len(),
        status.agents.len()
    );
    if status.browsers.is_empty() {
        text.push_str(&format!("\n{}", crate::shared::error::CONNECT_A_BROWSER));
    }
    for b in &status.browsers {
        text.push_str(&format!("\n- browser {}", browser_line(b)));
    }
    for a in &status.agents {
        let tabs: Vec<String> = a
            .tabs
            .iter()
            .map(|t| {
                format!(
                    "tab {}{}{}{} idle {} s{}",
                    t.tab,
                    if t.current { "*" } else { "" },
                    super::tab_list::private_mark(t.private),
                    super::tab_list::advanced_mark(t.advanced),
                    t.idle_ms / 1000,
                    if t.lapsed { " (lapsed)" } else { "" }
                )
            })
            .collect();
        let you = status.you.as_ref() == Some(&a.id);
        text.push_str(&format!(
            "\n- agent {} {:?}{}{}: {}",
            a.id,
            a.name,
            if you { " (you)" } else { "" },
            if a.connected {
                ""
            } else {
                " (gone; grace period)"
            },
            if tabs.is_empty() {
                "no tabs".to_string()
            } else {
                tabs.join(", ")
            }
        ));
    }
    text
}

/// `"work" (user, id 3f2a..., Chrome, extension 0.4.0): 2 agent(s), 3 tab(s)`
fn browser_line(b: &BrowserEntry) -> String {
    let kind = match b.kind {
        BrowserKind::Managed => "managed",
        BrowserKind::User => "user",
    };
    format!(
        "{} ({kind}, id {}, {}, extension {}): {} agent(s), {} tab(s)",
        b.label
            .as_deref()
            .map_or("(no label)".into(), |l| format!("{l:?}")),
        b.browser_id,
        b.browser.as_deref().unwrap_or("Chromium"),
        b.extension.as_deref().unwrap_or("?"),
        b.agents,
        b.tabs
    )
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SelectedOut {
    browser_id: BrowserId,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
}

/// Pins the browser by its id (stable across its restarts), once the relay has it connected:
/// a label that names none, or several, is refused there and changes nothing.
async fn select_browser(cx: &Ctx, a: SelectBrowserArgs) -> Result<Out<SelectedOut>, ToolError> {
    let name = a.browser.trim().to_string();
    if name.is_empty() {
        return Err(ToolError::bad_args(
            "browser is empty; browser_status lists them",
        ));
    }
    let chosen = cx.ask(ask::Browser { name }).await?;
    cx.pin_browser(chosen.browser_id.to_string());
    Ok(Out::new(
        format!(
            "This agent works in browser {} from now on",
            browser_line(&chosen)
        ),
        SelectedOut {
            browser_id: chosen.browser_id,
            label: chosen.label,
        },
    ))
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ClaimedOut {
    browser_id: BrowserId,
    tab: TabId,
    /// The agent it was taken from.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
}

async fn force_claim(cx: &Ctx, a: ForceClaimArgs) -> Result<Out<ClaimedOut>, ToolError> {
    let reason = a.reason.trim();
    if reason.is_empty() {
        return Err(ToolError::bad_args(
            "reason is empty: the agent that held the tab is told it",
        ));
    }
    let browser = a.browser.or_else(|| cx.pinned_browser());
    let claimed = cx
        .ask(ask::ForceClaim {
            browser,
            tab: a.tab_id,
            reason: reason.to_string(),
        })
        .await?;
    let claimed = ClaimedOut {
        browser_id: claimed.browser_id,
        tab: claimed.tab,
        from: claimed.from,
    };
    // The tab is this agent's in the books now; its first call in it makes it current here, and
    // tells the browser who holds it.
    super::tabs::work_in(cx, a.tab_id, Some(claimed.browser_id.to_string())).await?;
    let text = match &claimed.from {
        Some(from) => format!(
            "Took tab {} from {from}; this agent now works in it",
            claimed.tab
        ),
        None => format!(
            "Tab {} was held by nobody; this agent now works in it",
            claimed.tab
        ),
    };
    Ok(Out::new(text, claimed))
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct ReleasedOut {
    closed: Vec<TabId>,
}

async fn release(cx: &Ctx, a: ReleaseArgs) -> Result<Out<ReleasedOut>, ToolError> {
    let released = cx
        .ask(ask::Release {
            agent: None,
            close_opened: a.close_opened.unwrap_or(true),
        })
        .await?;
    let released = ReleasedOut {
        closed: released.closed,
    };
    cx.set_current_tab(None);
    let text = if released.closed.is_empty() {
        "Released this agent's tabs; none closed".to_string()
    } else {
        let closed: Vec<String> = released.closed.iter().map(TabId::to_string).collect();
        format!("Released this agent's tabs; closed {}", closed.join(", "))
    };
    Ok(Out::new(text, released))
}
