//! The tabs an agent sees: every tab of a browser (or of each, when it has picked none), this
//! agent's first, with who holds each; other agents' and the person's by their origin only.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::ctx::Ctx;
use super::paging::{PAGE_SIZE, footer, page_arg, page_of};
use super::spec::Out;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::tabs::{self as wire, Tab};
use crate::shared::protocol::{RelayStatus, TabId, ask};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ListTabsArgs {
    /// Label or id (default: yours).
    browser: Option<String>,
    /// From 1 (default).
    page: Option<u64>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ListedTab {
    #[serde(flatten)]
    pub(super) tab: Tab,
    /// The tab this agent works in.
    mine: bool,
    /// The agent holding it, by name and id ("you": another tab this agent holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    holder: Option<String>,
    /// The browser it is in, by label or id: in a list of every browser's tabs only.
    #[serde(skip_serializing_if = "Option::is_none")]
    browser: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub(super) struct TabsOut {
    tabs: Vec<ListedTab>,
    total: usize,
}

/// Tabs listed in one page: enough for a person's browser, few enough to stay cheap.
const TABS_PAGE: u64 = PAGE_SIZE;

pub(super) async fn list_tabs(cx: &Ctx, a: ListTabsArgs) -> Result<Out<TabsOut>, ToolError> {
    let page = page_arg(a.page)?;
    let all = match all_tabs(cx, a.browser.clone()).await {
        // Several browsers and none of them this agent's: each one's tabs, under its name.
        Err(e) if e.code == Code::AmbiguousBrowser && a.browser.is_none() => {
            return every_browsers_tabs(cx, page).await;
        }
        all => all?,
    };
    let total = all.len();
    let tabs = page_of(all, page, TABS_PAGE)?;
    let mut lines = vec![format!("{total} tab(s)")];
    lines.extend(tabs.iter().map(tab_line));
    if total as u64 > TABS_PAGE {
        let args = match &a.browser {
            Some(browser) => json!({ "browser": browser }),
            None => json!({}),
        };
        lines.push(footer(
            "browser_list_tabs",
            page,
            total as u64,
            TABS_PAGE,
            args,
        ));
    }
    let tabs = tabs.into_iter().map(|t| t.listed).collect();
    Ok(Out::new(lines.join("\n"), TabsOut { tabs, total }))
}

/// Every connected browser's tabs (that page of each), grouped under the browser's name, for an
/// agent that has not picked one: what it needs to pick one.
async fn every_browsers_tabs(cx: &Ctx, page: u64) -> Result<Out<TabsOut>, ToolError> {
    let status: RelayStatus = cx.ask(ask::Status).await?;
    let mut lines = vec![format!(
        "{} browsers; pick one (browser_select_browser, or `browser` on a call) to work in",
        status.browsers.len()
    )];
    let (mut listed, mut total) = (Vec::new(), 0);
    for b in &status.browsers {
        let name = b.label.clone().unwrap_or_else(|| b.browser_id.0.clone());
        let all = all_tabs(cx, Some(b.browser_id.0.clone())).await?;
        let count = all.len();
        total += count;
        lines.push(format!("browser {name:?}: {count} tab(s)"));
        let tabs = page_of(all, page, TABS_PAGE).unwrap_or_default();
        lines.extend(tabs.iter().map(|t| format!("  {}", tab_line(t))));
        if count as u64 > TABS_PAGE {
            let args = json!({ "browser": name });
            let more = footer("browser_list_tabs", page, count as u64, TABS_PAGE, args);
            lines.push(format!("  {more}"));
        }
        listed.extend(tabs.into_iter().map(|mut t| {
            t.listed.browser = Some(name.clone());
            t.listed
        }));
    }
    Ok(Out::new(
        lines.join("\n"),
        TabsOut {
            tabs: listed,
            total,
        },
    ))
}

/// One tab's line: its place, id, marks, holder and address.
fn tab_line(t: &Indexed) -> String {
    let tab = &t.listed.tab;
    let title = match tab.unshared {
        true => "(the person's, not shared)".to_string(),
        false => format!("\"{}\"", tab.title),
    };
    format!(
        "- [{}] tab {}{}{}{}{}{} {} {title}",
        t.index,
        tab.tab_id,
        private_mark(tab.private),
        advanced_mark(tab.advanced),
        if t.listed.mine { " (yours)" } else { "" },
        if tab.active { " (active)" } else { "" },
        t.listed
            .holder
            .as_ref()
            .map_or(String::new(), |h| format!(" (held by {h:?})")),
        tab.url,
    )
}

/// A tab with its place in the whole list.
pub(super) struct Indexed {
    pub(super) index: usize,
    pub(super) listed: ListedTab,
}

/// Every tab of the browser, this agent's first, with who holds each. Another agent's or the
/// person's tab's address can carry a token or a session id: its origin is enough to tell the
/// tabs apart.
pub(super) async fn all_tabs(cx: &Ctx, browser: Option<String>) -> Result<Vec<Indexed>, ToolError> {
    let r = cx.run(wire::TabList {}).in_browser(browser).await?;
    let browser_id = cx.place().browser;
    let status: RelayStatus = cx.ask(ask::Status).await?;
    // Who holds each tab of this browser (its agent, and the lease), from the relay's books.
    let held = |tab: TabId| {
        status.agents.iter().find_map(|agent| {
            let lease = agent
                .tabs
                .iter()
                .find(|t| t.tab == tab && Some(t.browser_id.as_str()) == browser_id.as_deref())?;
            Some((agent, lease.current))
        })
    };
    // Each tab with its place in the order: this agent's own first (the one it works in, then
    // the others it holds), then the rest in the browser's order, so what an agent looks for is
    // on the first page.
    let mut tabs: Vec<(u8, Tab, bool, Option<String>)> = r
        .tabs
        .into_iter()
        .map(|mut tab| {
            let (ours, mine, holder) = match held(tab.tab_id) {
                Some((agent, current)) if status.you.as_ref() == Some(&agent.id) => {
                    (true, current, (!current).then(|| "you".to_string()))
                }
                Some((agent, _)) => (false, false, Some(format!("{} ({})", agent.name, agent.id))),
                None => (false, false, None),
            };
            // Only this agent's own tabs show their whole address.
            if !ours {
                tab.url = origin_of(&tab.url);
            }
            let rank = match (mine, ours) {
                (true, _) => 0,
                (false, true) => 1,
                _ => 2,
            };
            (rank, tab, mine, holder)
        })
        .collect();
    tabs.sort_by_key(|(rank, ..)| *rank);
    Ok(tabs
        .into_iter()
        .enumerate()
        .map(|(index, (_, tab, mine, holder))| Indexed {
            index,
            listed: ListedTab {
                mine,
                holder,
                tab,
                browser: None,
            },
        })
        .collect())
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

/// How every line naming a tab marks a private one.
pub(super) fn private_mark(private: bool) -> &'static str {
    if private { " (private)" } else { "" }
}

/// How a line naming a tab marks one in advanced mode (the debugger attached, its banner shown).
pub(super) fn advanced_mark(advanced: bool) -> &'static str {
    if advanced { " (advanced mode)" } else { "" }
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
