//! The tabs this agent lists, opens, works in, brings to the front and closes.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{moves, read_only};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, Tier};
use super::tab_list::{Indexed, all_tabs, list_tabs, private_mark};
use super::tool::{About, Tool};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::TabId;
use crate::shared::protocol::wire::tabs::{self as wire, Tab};

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
struct CloseTabArgs {
    /// Tab to close (default: this agent's tab).
    tab_id: Option<TabId>,
    /// Or its place in browser_list_tabs.
    index: Option<usize>,
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

/// A tool that makes a tab the agent's: asked twice, the same tab.
fn picks() -> Hints {
    Hints {
        idempotent: true,
        ..moves()
    }
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
                tier: Tier::Core,
                ..About::default()
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
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a| new_tab(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_select_tab",
                description: "Work in this tab from now on, by id, url, title or index; refused while another agent holds it.",
                hints: picks(),
                cli: Cli {
                    positional: &["tabId"],
                    ..Cli::default()
                },
                ..About::default()
            },
            |cx, a| select_tab(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_switch_tab",
                description: "Bring a tab to the front and work in it: the one tool that takes the person's focus.",
                hints: picks(),
                cli: Cli {
                    positional: &["tabId"],
                    ..Cli::default()
                },
                ..About::default()
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
                ..About::default()
            },
            |cx, a| close_tab(cx, a).boxed(),
        ),
    ]
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
    crate::controller::policy::glob(pattern).map_err(|e| ToolError::bad_args(format!("url: {e}")))
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
    let named = match (a.tab_id, a.index) {
        (Some(_), Some(_)) => return Err(ToolError::bad_args("give tabId or index, not both")),
        (Some(tab), None) => Some(tab),
        (None, Some(index)) => Some(tab_at(cx, index).await?),
        (None, None) => None,
    };
    let tab = match named.or(cx.current_tab().await) {
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

/// The tab at `index` in browser_list_tabs (its order: this agent's own first).
async fn tab_at(cx: &Ctx, index: usize) -> Result<TabId, ToolError> {
    let all = all_tabs(cx, None).await?;
    all.iter()
        .find(|t| t.index == index)
        .map(|t| t.listed.tab.tab_id)
        .ok_or_else(|| {
            ToolError::refused(
                Code::NotFound,
                format!(
                    "no tab at {index}, of {}; browser_list_tabs lists them",
                    all.len()
                ),
            )
            .recovered_by("browser_list_tabs")
        })
}

#[cfg(test)]
mod tests {
    use super::glob;

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
}
