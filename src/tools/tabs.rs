//! The tabs this agent lists, opens, works in, brings to the front and closes.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{moves, read_only};
use super::ctx::Ctx;
use super::paging::{PAGE_SIZE, footer, page_arg, page_of};
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::{Code, ToolError};
use crate::protocol::wire::tabs::{self as wire, Tab};
use crate::protocol::{RelayStatus, TabId, ask};
use serde_json::json;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewTabArgs {
    /// http, https or about:blank (default).
    url: Option<String>,
    /// In front (default: background).
    active: Option<bool>,
    /// Label or id (default: yours).
    browser: Option<String>,
    /// Private window, none of the person's cookies.
    incognito: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListTabsArgs {
    /// Label or id (default: yours).
    browser: Option<String>,
    /// From 1 (default).
    page: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CloseTabArgs {
    /// Tab to close (default: this agent's tab).
    tab_id: Option<TabId>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectTabArgs {
    /// From browser_list_tabs; or by one of:
    tab_id: Option<TabId>,
    /// Address glob, `*` for any characters.
    url: Option<String>,
    /// Part of the title.
    title: Option<String>,
    /// Place in browser_list_tabs, from 0.
    index: Option<usize>,
    /// Label or id (default: yours).
    browser: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SwitchTabArgs {
    /// Default: this agent's tab.
    tab_id: Option<TabId>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_list_tabs",
                description: "The browser's tabs, yours first, with who holds each.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["tabs"],
                    ..Cli::default()
                },
            },
            |cx, a| list_tabs(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_new_tab",
                description: "Open a tab and work in it.",
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
                description: "Work in this tab from now on, by id, url, title or index; refused while another agent holds it.",
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
                name: "browser_switch_tab",
                description: "Bring a tab to the front and work in it: the one tool that takes the person's focus.",
                hints: Hints {
                    idempotent: true,
                    ..moves()
                },
                cli: Cli {
                    positional: &["tabId"],
                    ..Cli::default()
                },
            },
            |cx, a| switch_tab(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_close_tab",
                description: "Close your tab, or the one given.",
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

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListedTab {
    #[serde(flatten)]
    tab: Tab,
    /// The tab this agent works in.
    mine: bool,
    /// The agent holding it, by name and id ("you": another tab this agent holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    holder: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct TabsOut {
    tabs: Vec<ListedTab>,
    total: usize,
}

/// Tabs listed in one page: enough for a person's browser, few enough to stay cheap.
const TABS_PAGE: u64 = PAGE_SIZE;

async fn list_tabs(cx: &Ctx, a: ListTabsArgs) -> Result<Out<TabsOut>, ToolError> {
    let page = page_arg(a.page)?;
    let all = all_tabs(cx, a.browser.clone()).await?;
    let total = all.len();
    let tabs = page_of(all, page, TABS_PAGE)?;
    let mut lines = vec![format!("{total} tab(s)")];
    lines.extend(tabs.iter().map(|t| {
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
    }));
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

/// A tab with its place in the whole list.
struct Indexed {
    index: usize,
    listed: ListedTab,
}

/// Every tab of the browser, this agent's first, with who holds each. Another agent's or the
/// person's tab's address can carry a token or a session id: its origin is enough to tell the
/// tabs apart.
async fn all_tabs(cx: &Ctx, browser: Option<String>) -> Result<Vec<Indexed>, ToolError> {
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
            listed: ListedTab { mine, holder, tab },
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

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct TabOut {
    tab_id: TabId,
    url: String,
    active: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    private: bool,
}

impl From<Tab> for TabOut {
    fn from(t: Tab) -> Self {
        TabOut {
            tab_id: t.tab_id,
            url: t.url,
            active: t.active,
            private: t.private,
        }
    }
}

async fn new_tab(cx: &Ctx, a: NewTabArgs) -> Result<Out<TabOut>, ToolError> {
    if let Some(url) = &a.url {
        cx.may_visit(url)?;
    }
    let r = cx
        .run(wire::TabOpen {
            url: a.url,
            active: a.active.unwrap_or(false),
            incognito: a.incognito.unwrap_or(false),
        })
        .in_browser(a.browser)
        .await?;
    cx.set_current_tab(Some(r.tab_id));
    let text = format!(
        "Opened tab {}{} ({}); this agent now works in it",
        r.tab_id,
        private_mark(r.private),
        if r.active {
            "in front"
        } else {
            "in the background"
        }
    );
    Ok(Out::new(text, TabOut::from(r)))
}

async fn select_tab(cx: &Ctx, a: SelectTabArgs) -> Result<Out<TabOut>, ToolError> {
    let pickers = [
        a.tab_id.is_some(),
        a.url.is_some(),
        a.title.is_some(),
        a.index.is_some(),
    ];
    let tab = match pickers.iter().filter(|p| **p).count() {
        0 => return Err(ToolError::bad_args("give tabId, url, title or index")),
        1 => match a.tab_id {
            Some(tab) => tab,
            None => pick(cx, &a).await?,
        },
        _ => {
            return Err(ToolError::bad_args(
                "give one of tabId, url, title and index",
            ));
        }
    };
    let (title, data) = work_in(cx, tab, a.browser).await?;
    let text = format!(
        "This agent now works in tab {}{} ({} \"{title}\")",
        data.tab_id,
        private_mark(data.private),
        data.url
    );
    Ok(Out::new(text, data))
}

/// The one tab of the list that `url`, `title` or `index` picks: NOT_FOUND for none,
/// ELEMENT_AMBIGUOUS listing them for several.
async fn pick(cx: &Ctx, a: &SelectTabArgs) -> Result<TabId, ToolError> {
    let url = a.url.as_deref().map(glob).transpose()?;
    let all = all_tabs(cx, a.browser.clone()).await?;
    let matching: Vec<&Indexed> = all
        .iter()
        .filter(|t| {
            let tab = &t.listed.tab;
            // Only this agent's own tabs show their whole address; the others, their origins.
            url.as_ref().is_none_or(|re| re.is_match(&tab.url))
                && a.title
                    .as_ref()
                    .is_none_or(|part| tab.title.contains(part.as_str()))
                && a.index.is_none_or(|i| i == t.index)
        })
        .collect();
    match matching.as_slice() {
        [one] => Ok(one.listed.tab.tab_id),
        [] => Err(ToolError::refused(
            Code::NotFound,
            format!(
                "no tab matches, of {}; browser_list_tabs lists them",
                all.len()
            ),
        )
        .recovered_by("browser_list_tabs")),
        several => {
            let list: Vec<String> = several
                .iter()
                .map(|t| {
                    format!(
                        "tab {} {} \"{}\"",
                        t.listed.tab.tab_id, t.listed.tab.url, t.listed.tab.title
                    )
                })
                .collect();
            Err(ToolError::refused(
                Code::ElementAmbiguous,
                format!(
                    "{} tabs match: {}; give tabId",
                    several.len(),
                    list.join("; ")
                ),
            )
            .recovered_by("browser_select_tab with the tabId of the one meant"))
        }
    }
}

/// A URL glob as a whole-address pattern.
fn glob(pattern: &str) -> Result<regex::Regex, ToolError> {
    crate::policy::glob(pattern).map_err(|e| ToolError::bad_args(format!("url: {e}")))
}

/// Makes `tab` this agent's tab: the relay's books hand it over unless another agent holds it,
/// and the browser learns who holds it now. Returns the tab's title beside it.
pub(super) async fn work_in(
    cx: &Ctx,
    tab: TabId,
    browser: Option<String>,
) -> Result<(String, TabOut), ToolError> {
    let info = cx
        .run(wire::TabInfo {})
        .in_browser(browser)
        .on_tab(Some(tab))
        .await?;
    Ok((info.title.clone(), TabOut::from(info)))
}

async fn switch_tab(cx: &Ctx, a: SwitchTabArgs) -> Result<Out<TabOut>, ToolError> {
    let r = cx.run(wire::TabFocus {}).on_tab(a.tab_id).await?;
    let text = format!(
        "Tab {}{} is in front; this agent works in it",
        r.tab_id,
        private_mark(r.private)
    );
    Ok(Out::new(text, TabOut::from(r)))
}

#[derive(Serialize, JsonSchema)]
struct ClosedOut {
    closed: TabId,
}

async fn close_tab(cx: &Ctx, a: CloseTabArgs) -> Result<Out<ClosedOut>, ToolError> {
    let tab = match a.tab_id.or(cx.current_tab().await) {
        Some(tab) => tab,
        None => return Err(ToolError::bad_args("this agent has no tab; give tabId")),
    };
    cx.run(wire::TabClose {}).on_tab(Some(tab)).await?;
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
    use super::{glob, origin_of};

    #[test]
    fn a_url_glob_matches_whole_addresses_with_star_for_anything() {
        let g = glob("http://127.0.0.1:*/page?x=1").unwrap();
        assert!(g.is_match("http://127.0.0.1:9000/page?x=1"));
        assert!(
            !g.is_match("http://127.0.0.1:9000/page?x=12"),
            "whole address"
        );
        assert!(!g.is_match("http://127.0.0.1:9000/pageQx=1"), "? is itself");
        assert!(glob("*docs*").unwrap().is_match("https://a.test/docs/x"));
    }

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
