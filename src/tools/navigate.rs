//! Moving this agent's tab: to a URL, a reload, back and forward; each waits for the navigation
//! it started and says whether it settled.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{AfterAction, SNAPSHOT_TOKENS, moves, timeout};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::{Outcome, ToolError};
use crate::protocol::wire::nav::{History, HistoryDirection as Direction, NavReply, Navigate};

/// The budget of the snapshot a navigation answers with unless asked otherwise: half a
/// snapshot's. A navigation is often a step on the way to another page; the result may carry
/// the snapshot twice (as text and in `structuredContent`); and the rest is one
/// `browser_snapshot` away.
const ARRIVAL_TOKENS: u64 = 2_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NavigateArgs {
    /// http, https or about:blank URL (omit with reload).
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
struct HistoryArgs {
    timeout: Option<u64>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        super::after::acting(
            About {
                name: "browser_navigate",
                description: "Load a URL in this agent's tab and wait for it; returns the lean snapshot.",
                hints: Hints {
                    idempotent: true,
                    ..moves()
                },
                cli: Cli {
                    positional: &["url"],
                    ..Cli::default()
                },
            },
            |cx, a, after| navigate(cx, a, after).boxed(),
        ),
        super::after::acting(
            About {
                name: "browser_go_back",
                description: "Go back in this agent's tab's history.",
                hints: moves(),
                cli: Cli::default(),
            },
            |cx, a, after| history(cx, Direction::Back, a, after).boxed(),
        ),
        super::after::acting(
            About {
                name: "browser_go_forward",
                description: "Go forward in this agent's tab's history.",
                hints: moves(),
                cli: Cli::default(),
            },
            |cx, a, after| history(cx, Direction::Forward, a, after).boxed(),
        ),
    ]
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
            cx.may_visit(url)?;
            Navigate::To {
                url: url.clone(),
                after: after.wire(),
            }
        }
        (None, true) => Navigate::Reload {
            reload: true,
            ignore_cache: a.ignore_cache.unwrap_or(false),
            after: after.wire(),
        },
        _ => return Err(ToolError::bad_args("give url, or reload: true, not both")),
    };
    if a.ignore_cache.is_some() && !reload {
        return Err(ToolError::bad_args("ignoreCache goes with reload: true"));
    }
    let nav = cx.run(call).within(timeout(a.timeout)?).await?;
    let requested = a.url.as_deref().unwrap_or("the reload");
    let snapshot = if after.wants_snapshot() {
        Some(SNAPSHOT_TOKENS)
    } else {
        (a.include_snapshot.unwrap_or(true) && !after.wants_diff()).then_some(ARRIVAL_TOKENS)
    };
    Ok(navigation_output(cx, nav, requested, snapshot).await)
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
    let call = History {
        direction,
        after: after.wire(),
    };
    let nav = cx.run(call).within(timeout(a.timeout)?).await?;
    let snapshot = after.wants_snapshot().then_some(SNAPSHOT_TOKENS);
    Ok(navigation_output(cx, nav, &format!("going {word}"), snapshot).await)
}

/// One line on where the tab went and whether it settled, then the snapshot within the budget
/// given, if one is.
async fn navigation_output(
    cx: &Ctx,
    nav: NavReply,
    requested: &str,
    snapshot: Option<u64>,
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
    out.findings = nav.findings;
    if let (Some(budget), true) = (snapshot, out.data.settled) {
        cx.attach_snapshot(&mut out, budget).await;
    }
    out
}
