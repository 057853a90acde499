//! The browser tools: schemas, argument checks, the call through the relay, result shaping.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::{AfterAction, NoArgs, acts, check_url, read_only, timeout};
use super::ctx::Ctx;
use super::registry::{About, Tool};
use super::spec::{Cli, Hints, Out};
use crate::error::{Code, Outcome, ToolError};
use crate::link::LinkState;
use crate::policy::paths;
use crate::protocol::{Op, RelayOp, RelayStatus};

const READ_MAX_CHARS: usize = 20_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NavigateArgs {
    /// http, https or about URL (omit with reload).
    url: Option<String>,
    /// Reload the current page instead.
    reload: Option<bool>,
    /// With reload: bypass the cache.
    ignore_cache: Option<bool>,
    /// Return the lean snapshot of the new page (default true).
    include_snapshot: Option<bool>,
    /// Milliseconds to wait for the page to load (default 30000).
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SnapshotArgs {
    /// All text and structure, not just what is interactive; same refs.
    verbose: Option<bool>,
    /// Write the snapshot to this file and answer with a summary.
    file_path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HistoryArgs {
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReadArgs {
    /// markdown (default) or text.
    format: Option<ReadFormat>,
    /// Cap on returned characters (default 20000).
    max_chars: Option<usize>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ReadFormat {
    Markdown,
    Text,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewTabArgs {
    /// Open this URL (http, https or about; default about:blank).
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
        Tool::acting(
            About {
                name: "browser_navigate",
                description: "Load a URL in this agent's tab and wait for it; returns the lean snapshot.",
                hints: Hints {
                    idempotent: true,
                    ..acts()
                },
                cli: Cli {
                    positional: &["url"],
                    ..Cli::default()
                },
            },
            |cx, a, after| navigate(cx, a, after).boxed(),
        ),
        Tool::acting(
            About {
                name: "browser_go_back",
                description: "Go back in this agent's tab's history.",
                hints: acts(),
                cli: Cli::default(),
            },
            |cx, a, after| history(cx, Direction::Back, a, after).boxed(),
        ),
        Tool::acting(
            About {
                name: "browser_go_forward",
                description: "Go forward in this agent's tab's history.",
                hints: acts(),
                cli: Cli::default(),
            },
            |cx, a, after| history(cx, Direction::Forward, a, after).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_snapshot",
                description: "Lean outline of the page and its frames: interactive elements with refs, headings, landmarks, short text.",
                hints: read_only(),
                cli: Cli::default(),
            },
            |cx, a| snapshot(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_read_page",
                description: "The page's main content as Markdown or text, capped.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["read"],
                    ..Cli::default()
                },
            },
            |cx, a| read(cx, a).boxed(),
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
                hints: acts(),
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
                    ..acts()
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
                    ..acts()
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
    Retrying,
    Stopped,
}

#[derive(Serialize, JsonSchema)]
struct StatusOut {
    link: Link,
    #[serde(flatten)]
    relay: RelayStatus,
}

async fn status(cx: &Ctx) -> Result<Out<StatusOut>, ToolError> {
    let status: RelayStatus = match cx.ask(RelayOp::Status).await {
        Ok(status) => status,
        Err(e) => {
            let (link, text) = match cx.link_state() {
                LinkState::Retrying { next, reason } => (
                    Link::Retrying,
                    format!(
                        "RETRYING: {reason}; next attempt in {} ms",
                        next.as_millis()
                    ),
                ),
                LinkState::Stopped => (
                    Link::Stopped,
                    "STOPPED: tabpilot is shutting down".to_string(),
                ),
                LinkState::Connected => (Link::Retrying, format!("RETRYING: {}", e.message)),
            };
            let relay = RelayStatus::default();
            return Ok(Out::new(text, StatusOut { link, relay }));
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
    Ok(Out::new(
        text,
        StatusOut {
            link,
            relay: status,
        },
    ))
}

/// What the extension answers a navigation with.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NavReply {
    settled: bool,
    elapsed_ms: u64,
    url: String,
    title: String,
    what: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct NavOut {
    settled: bool,
    elapsed_ms: u64,
    url: String,
    title: String,
}

async fn navigate(
    cx: &Ctx,
    a: NavigateArgs,
    after: &AfterAction,
) -> Result<Out<NavOut>, ToolError> {
    let reload = a.reload.unwrap_or(false);
    let call = match (&a.url, reload) {
        (Some(url), false) => {
            check_url(url)?;
            json!({"url": url, "after": after.wire()})
        }
        (None, true) => {
            json!({"reload": true, "ignoreCache": a.ignore_cache.unwrap_or(false), "after": after.wire()})
        }
        _ => return Err(ToolError::bad_args("give url, or reload: true, not both")),
    };
    if a.ignore_cache.is_some() && !reload {
        return Err(ToolError::bad_args("ignoreCache goes with reload: true"));
    }
    let nav = cx.page(Op::Navigate, call, timeout(a.timeout)?).await?;
    let requested = a.url.as_deref().unwrap_or("the reload");
    let snapshot = a.include_snapshot.unwrap_or(true) || after.wants_snapshot();
    Ok(navigation_output(cx, nav, requested, snapshot).await)
}

#[derive(Clone, Copy)]
enum Direction {
    Back,
    Forward,
}

async fn history(
    cx: &Ctx,
    direction: Direction,
    a: HistoryArgs,
    after: &AfterAction,
) -> Result<Out<NavOut>, ToolError> {
    let word = match direction {
        Direction::Back => "back",
        Direction::Forward => "forward",
    };
    let call = json!({"direction": word, "after": after.wire()});
    let nav = cx.page(Op::History, call, timeout(a.timeout)?).await?;
    Ok(navigation_output(cx, nav, &format!("going {word}"), after.wants_snapshot()).await)
}

/// One line on where the tab went and whether it settled, then the snapshot when asked.
async fn navigation_output(
    cx: &Ctx,
    nav: NavReply,
    requested: &str,
    snapshot: bool,
) -> Out<NavOut> {
    let verb = match nav.what.as_str() {
        "reload" => "Reloaded",
        "back" => "Went back to",
        "forward" => "Went forward to",
        _ => "Navigated to",
    };
    let (url, title, ms) = (&nav.url, &nav.title, nav.elapsed_ms);
    let (text, outcome) = if nav.settled {
        (
            format!("{verb} {url} \"{title}\" (settled in {ms} ms)"),
            Outcome::Done,
        )
    } else {
        (
            format!("{requested} had not settled after {ms} ms; the tab shows {url}"),
            Outcome::Partial,
        )
    };
    let data = NavOut {
        settled: nav.settled,
        elapsed_ms: ms,
        url: nav.url,
        title: nav.title,
    };
    let mut out = Out::new(text, data).with_outcome(outcome);
    if snapshot && out.data.settled {
        cx.attach_snapshot(&mut out).await;
    }
    out
}

/// What the extension answers a snapshot with.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotReply {
    text: String,
    refs: u64,
    capped: bool,
    #[serde(default)]
    frames: u64,
    #[serde(default)]
    frames_capped: bool,
    url: String,
    title: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SnapshotOut {
    url: String,
    title: String,
    refs: u64,
    capped: bool,
    frames_capped: bool,
    /// The snapshot, unless it went to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_path: Option<String>,
}

async fn snapshot(cx: &Ctx, a: SnapshotArgs) -> Result<Out<SnapshotOut>, ToolError> {
    let file = a
        .file_path
        .as_deref()
        .map(|p| paths::checked_output(p, &paths::roots()))
        .transpose()?;
    let verbose = a.verbose.unwrap_or(false);
    let snap: SnapshotReply = cx
        .page(
            Op::Snapshot,
            json!({"verbose": verbose}),
            Duration::from_secs(30),
        )
        .await?;
    let (url, title) = (&snap.url, &snap.title);
    let mut notes = Vec::new();
    if snap.capped {
        notes.push("(cut at the node limit; read the rest with browser_read_page)".to_string());
    }
    if snap.frames_capped {
        notes.push(format!(
            "(only the first 10 of {} frames were walked)",
            snap.frames
        ));
    }
    let mut data = SnapshotOut {
        url: url.clone(),
        title: title.clone(),
        refs: snap.refs,
        capped: snap.capped,
        frames_capped: snap.frames_capped,
        snapshot: None,
        file_path: None,
    };
    if let Some(path) = file {
        std::fs::write(&path, format!("Page: {url} \"{title}\"\n{}\n", snap.text)).map_err(
            |e| {
                ToolError::failed(
                    Code::Internal,
                    format!("cannot write {}: {e}", path.display()),
                )
            },
        )?;
        let text = format!(
            "Wrote the {} snapshot of {url} ({} lines, {} refs) to {} {}",
            if verbose { "verbose" } else { "lean" },
            snap.text.lines().count(),
            snap.refs,
            path.display(),
            notes.join(" ")
        );
        data.file_path = Some(path.display().to_string());
        return Ok(Out::new(text.trim_end().to_string(), data));
    }
    let mut text = format!("Page: {url} \"{title}\"\n{}", snap.text);
    for note in &notes {
        text.push('\n');
        text.push_str(note);
    }
    data.snapshot = Some(snap.text);
    Ok(Out::new(text, data))
}

/// What the extension answers a read with.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadReply {
    content: String,
    truncated: bool,
    total_chars: u64,
    url: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ReadOut {
    content: String,
    truncated: bool,
    total_chars: u64,
    url: String,
    format: ReadFormat,
}

async fn read(cx: &Ctx, a: ReadArgs) -> Result<Out<ReadOut>, ToolError> {
    let max = a.max_chars.unwrap_or(READ_MAX_CHARS);
    if max == 0 || max > 500_000 {
        return Err(ToolError::bad_args("maxChars must be between 1 and 500000"));
    }
    let format = a.format.unwrap_or(ReadFormat::Markdown);
    let r: ReadReply = cx
        .page(
            Op::Read,
            json!({"format": format, "maxChars": max}),
            Duration::from_secs(15),
        )
        .await?;
    let mut text = r.content.clone();
    if r.truncated {
        text.push_str(&format!(
            "\n\n[cut at {max} of {} characters; raise maxChars to read more]",
            r.total_chars
        ));
    }
    let data = ReadOut {
        content: r.content,
        truncated: r.truncated,
        total_chars: r.total_chars,
        url: r.url,
        format,
    };
    Ok(Out::new(text, data))
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
        .map(|tab| ListedTab {
            mine: Some(tab.tab_id) == mine,
            tab,
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

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TabOut {
    tab_id: i64,
    url: String,
    active: bool,
}

async fn new_tab(cx: &Ctx, a: NewTabArgs) -> Result<Out<TabOut>, ToolError> {
    if let Some(url) = &a.url {
        check_url(url)?;
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
