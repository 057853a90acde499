//! The browser and its tabs: the relay's view of who is connected, and the tabs this agent
//! lists, opens, works in and closes.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::{NoArgs, moves, read_only};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::ToolError;
use crate::link::LinkState;
use crate::policy::PolicyView;
use crate::protocol::{Op, RelayOp, RelayStatus};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewTabArgs {
    /// Open this URL (http, https or about:blank, the default).
    url: Option<String>,
    /// Bring the tab to the front (default false: it opens in the background).
    active: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CloseTabArgs {
    /// Tab to close (default: this agent's tab).
    tab_id: Option<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectTabArgs {
    /// The tab to work in (from browser_list_tabs).
    tab_id: i64,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_status",
                description: "Relay link state, connected browsers and agents.",
                hints: read_only(),
                cli: Cli::default(),
            },
            |cx, _: NoArgs| status(cx).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_list_tabs",
                description: "All tabs of the browser, marking this agent's.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["tabs"],
                    ..Cli::default()
                },
            },
            |cx, _: NoArgs| list_tabs(cx).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_new_tab",
                description: "Open a tab for this agent (in the background unless active) and work in it.",
                hints: moves(),
                cli: Cli {
                    aliases: &["new-tab"],
                    positional: &["url"],
                    ..Cli::default()
                },
            },
            |cx, a| new_tab(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_select_tab",
                description: "Work in this tab from now on (a tab handed to this agent); refused while another agent holds it.",
                hints: Hints {
                    idempotent: true,
                    ..moves()
                },
                cli: Cli {
                    positional: &["tabId"],
                    ..Cli::default()
                },
            },
            |cx, a| select_tab(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_close_tab",
                description: "Close this agent's tab, or the tab given.",
                hints: Hints {
                    destructive: true,
                    ..moves()
                },
                cli: Cli {
                    aliases: &["close-tab"],
                    positional: &["tabId"],
                    ..Cli::default()
                },
            },
            |cx, a| close_tab(cx, a).boxed(),
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
    policy: PolicyView,
    #[serde(flatten)]
    relay: RelayStatus,
}

async fn status(cx: &Ctx) -> Result<Out<StatusOut>, ToolError> {
    // Only a link that is up (or not started) is asked: one that is reconnecting is reported as
    // it stands, so polling the status never makes an attempt; the link's own task makes them.
    let asked = match cx.link_state() {
        LinkState::Idle | LinkState::Connected => Some(cx.ask(RelayOp::Status).await),
        _ => None,
    };
    let status: RelayStatus = match asked {
        Some(Ok(status)) => status,
        failed => {
            let (link, text) = match cx.link_state() {
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
                    let why = failed.and_then(Result::err).map(|e| e.message);
                    (
                        Link::Retrying,
                        format!("RETRYING: {}", why.unwrap_or_default()),
                    )
                }
            };
            let text = format!("{text}\n{}", cx.policy().view());
            let relay = RelayStatus::default();
            let policy = cx.policy().view();
            return Ok(Out::new(
                text,
                StatusOut {
                    link,
                    policy,
                    relay,
                },
            ));
        }
    };
    let link = if status.browsers.is_empty() {
        Link::Waiting
    } else {
        Link::Connected
    };
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
    for b in &status.browsers {
        let label = b.label.as_deref().or(b.profile.as_deref()).unwrap_or("");
        text.push_str(&format!(
            "\n- browser {} {} {label}",
            b.browser_id,
            b.browser.as_deref().unwrap_or("")
        ));
    }
    for a in &status.agents {
        text.push_str(&format!("\n- agent {} (pid {})", a.name, a.pid));
    }
    let policy = cx.policy().view();
    text.push_str(&format!("\n{policy}"));
    Ok(Out::new(
        text,
        StatusOut {
            link,
            policy,
            relay: status,
        },
    ))
}

/// A tab as the extension lists it.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TabInfo {
    tab_id: i64,
    window_id: i64,
    active: bool,
    url: String,
    title: String,
}

#[derive(Deserialize)]
struct TabList {
    tabs: Vec<TabInfo>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListedTab {
    #[serde(flatten)]
    tab: TabInfo,
    /// This agent's tab.
    mine: bool,
}

#[derive(Serialize, JsonSchema)]
struct TabsOut {
    tabs: Vec<ListedTab>,
}

async fn list_tabs(cx: &Ctx) -> Result<Out<TabsOut>, ToolError> {
    let r: TabList = cx.on_tab(Op::TabList, None, json!({})).await?;
    let mine = cx.current_tab().await;
    let tabs: Vec<ListedTab> = r
        .tabs
        .into_iter()
        .map(|mut tab| {
            let is_mine = Some(tab.tab_id) == mine;
            // Another tab's address can carry a token or a session id: its origin is enough to
            // tell the tabs apart.
            if !is_mine {
                tab.url = origin_of(&tab.url);
            }
            ListedTab { mine: is_mine, tab }
        })
        .collect();
    let lines: Vec<String> = tabs
        .iter()
        .map(|t| {
            format!(
                "- tab {}{}{} {} \"{}\"",
                t.tab.tab_id,
                if t.mine { " (yours)" } else { "" },
                if t.tab.active { " (active)" } else { "" },
                t.tab.url,
                t.tab.title
            )
        })
        .collect();
    Ok(Out::new(
        format!("{} tab(s)\n{}", tabs.len(), lines.join("\n")),
        TabsOut { tabs },
    ))
}

/// `scheme://host[:port]` of an http(s) address; a page of another kind by its scheme alone.
fn origin_of(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return match url.split_once(':') {
            Some(("about", _)) if url == "about:blank" => url.to_string(),
            Some((scheme, _)) => format!("{scheme}:"),
            None => String::new(),
        };
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    // Credentials in the address go too.
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    format!("{scheme}://{host}")
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TabOut {
    tab_id: i64,
    url: String,
    active: bool,
}

async fn new_tab(cx: &Ctx, a: NewTabArgs) -> Result<Out<TabOut>, ToolError> {
    if let Some(url) = &a.url {
        cx.may_visit(url)?;
    }
    let r: TabInfo = cx
        .on_tab(
            Op::TabOpen,
            None,
            json!({"url": a.url, "active": a.active.unwrap_or(false)}),
        )
        .await?;
    cx.set_current_tab(Some(r.tab_id));
    let text = format!(
        "Opened tab {} ({}); this agent now works in it",
        r.tab_id,
        if r.active {
            "in front"
        } else {
            "in the background"
        }
    );
    let data = TabOut {
        tab_id: r.tab_id,
        url: r.url,
        active: r.active,
    };
    Ok(Out::new(text, data))
}

async fn select_tab(cx: &Ctx, a: SelectTabArgs) -> Result<Out<TabOut>, ToolError> {
    let tab: TabInfo = cx.on_tab(Op::TabInfo, Some(a.tab_id), json!({})).await?;
    let text = format!(
        "This agent now works in tab {} ({} \"{}\")",
        a.tab_id, tab.url, tab.title
    );
    let data = TabOut {
        tab_id: a.tab_id,
        url: tab.url,
        active: tab.active,
    };
    Ok(Out::new(text, data))
}

#[derive(Serialize, JsonSchema)]
struct ClosedOut {
    closed: i64,
}

async fn close_tab(cx: &Ctx, a: CloseTabArgs) -> Result<Out<ClosedOut>, ToolError> {
    let tab = match a.tab_id.or(cx.current_tab().await) {
        Some(tab) => tab,
        None => return Err(ToolError::bad_args("this agent has no tab; give tabId")),
    };
    let _: serde_json::Value = cx.on_tab(Op::TabClose, Some(tab), json!({})).await?;
    if cx.current_tab().await == Some(tab) {
        cx.set_current_tab(None);
    }
    Ok(Out::new(
        format!("Closed tab {tab}"),
        ClosedOut { closed: tab },
    ))
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn another_tabs_address_is_cut_to_its_origin() {
        assert_eq!(
            origin_of("https://user:pw@mail.example.com:8443/inbox?token=s3cret#x"),
            "https://mail.example.com:8443"
        );
        assert_eq!(origin_of("http://127.0.0.1:9/a?b"), "http://127.0.0.1:9");
        assert_eq!(origin_of("about:blank"), "about:blank");
        assert_eq!(
            origin_of("chrome://settings/passwords"),
            "chrome://settings"
        );
        assert_eq!(origin_of("data:text/html,secret"), "data:");
    }
}
