//! Finding elements, their HTML, and waiting: for a condition in the page, or a fixed time.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{read_only, ref_arg, timeout};
use super::ctx::Ctx;
use super::spec::{Keeps, Out, Replayed, Tier};
use super::tool::{About, Tool};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::page::{Find, Html, HtmlOut, Visibility, WaitFor};

const MAX_MATCHES: usize = 200;
const HTML_MAX_CHARS: usize = 20_000;
const MAX_WAIT_MS: u64 = 30_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FindArgs {
    /// In visible text or accessible name (any case).
    text: Option<String>,
    /// ARIA role (button, link, ...).
    role: Option<String>,
    /// CSS selector.
    selector: Option<String>,
    /// Default 20.
    max: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HtmlArgs {
    /// Just this element (default: the whole document).
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// Cap on returned characters (default 20000).
    max_chars: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WaitForArgs {
    /// Text to appear.
    text: Option<String>,
    /// Text to disappear.
    text_gone: Option<String>,
    /// To show (or hide, with state).
    selector: Option<String>,
    /// To show (or hide, with state).
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// Default visible; for selector and ref.
    state: Option<Visibility>,
    /// URL substring, pattern with *, or /regex/.
    url: Option<String>,
    // Milliseconds, 30000 by default: said once, in the server's instructions.
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WaitArgs {
    /// Milliseconds to wait (at most 30000).
    time: u64,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_find",
                description: "Find elements by text, role and/or CSS selector, in every frame; returns them with refs.",
                hints: read_only(),
                keeps: Keeps::args(&["text"]),
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a| find(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_get_html",
                description: "HTML of the document or of one element, capped.",
                hints: read_only(),
                ..About::default()
            },
            |cx, a| html(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_wait_for",
                description: "Wait until text appears or disappears, an element shows or hides, or the URL matches.",
                hints: read_only(),
                keeps: Keeps::args(&["text", "textGone"]),
                recorded: Some(Replayed::WaitFor),
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a| wait_for(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_wait",
                description: "Wait a fixed time.",
                hints: read_only(),
                ..About::default()
            },
            |_, a| wait(a).boxed(),
        ),
    ]
}

#[derive(Serialize, JsonSchema)]
struct FindOut {
    /// Each match as a snapshot line, with its ref.
    matches: Vec<String>,
    total: u64,
}

async fn find(cx: &Ctx, a: FindArgs) -> Result<Out<FindOut>, ToolError> {
    if a.text.is_none() && a.role.is_none() && a.selector.is_none() {
        return Err(ToolError::bad_args(
            "give text, role or selector (or several)",
        ));
    }
    let max = a.max.unwrap_or(20);
    if max == 0 || max > MAX_MATCHES {
        return Err(ToolError::bad_args(format!("max is 1 to {MAX_MATCHES}")));
    }
    let call = Find {
        text: a.text,
        role: a.role,
        selector: a.selector,
        max,
    };
    let r = cx.run(call).await?;
    let head = match (r.lines.len() as u64, r.total) {
        (0, _) => "No element matches".to_string(),
        (n, t) if n < t => format!("{n} of {t} matches (raise max for more)"),
        (n, _) => format!("{n} match{}", if n == 1 { "" } else { "es" }),
    };
    let text = std::iter::once(head)
        .chain(r.lines.iter().cloned())
        .collect::<Vec<_>>()
        .join("\n");
    let data = FindOut {
        matches: r.lines,
        total: r.total,
    };
    Ok(Out::new(text, data))
}

async fn html(cx: &Ctx, a: HtmlArgs) -> Result<Out<HtmlOut>, ToolError> {
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    let max = a.max_chars.unwrap_or(HTML_MAX_CHARS);
    if max == 0 || max > 2_000_000 {
        return Err(ToolError::bad_args("maxChars is 1 to 2000000"));
    }
    let r = cx
        .run(Html {
            reference: a.reference,
            max_chars: max,
        })
        .await?;
    let mut text = r.html.clone();
    if r.truncated {
        text.push_str(&format!(
            "\n[cut at {max} of {} characters; raise maxChars to read more]",
            r.total_chars
        ));
    }
    Ok(Out::new(text, r))
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct WaitedOut {
    waited_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
}

async fn wait_for(cx: &Ctx, a: WaitForArgs) -> Result<Out<WaitedOut>, ToolError> {
    let wait = timeout(a.timeout)?;
    let set = [
        a.text.is_some(),
        a.text_gone.is_some(),
        a.selector.is_some(),
        a.reference.is_some(),
        a.url.is_some(),
    ];
    if set.iter().filter(|x| **x).count() != 1 {
        return Err(ToolError::bad_args(
            "give exactly one of text, textGone, selector, ref, url",
        ));
    }
    if a.state.is_some() && a.selector.is_none() && a.reference.is_none() {
        return Err(ToolError::bad_args("state goes with selector or ref"));
    }
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    let visibility = match (&a.text_gone, a.state) {
        (Some(_), _) => Visibility::Hidden,
        (None, state) => state.unwrap_or(Visibility::Visible),
    };
    let (hidden, state) = (visibility == Visibility::Hidden, visibility.word());
    let what = match (&a.text, &a.text_gone, &a.selector, &a.reference, &a.url) {
        (Some(t), ..) | (_, Some(t), ..) => format!(
            "text {t:?} {}",
            if hidden { "to disappear" } else { "to appear" }
        ),
        (_, _, Some(s), ..) => format!("{s} to be {state}"),
        (_, _, _, Some(r), _) => format!("{r} to be {state}"),
        (.., Some(u)) => format!("the URL to match {u:?}"),
        _ => unreachable!("exactly one condition was checked above"),
    };
    let call = WaitFor {
        text: a.text.or(a.text_gone),
        selector: a.selector,
        reference: a.reference,
        url: a.url,
        state: visibility,
        timeout_ms: cx.stretched(wait, None).as_millis() as u64,
    };
    let r = cx.run(call).within(wait).await?;
    let ms = r.waited_ms;
    if !r.met {
        return Err(ToolError::failed(
            Code::Timeout,
            format!("waited {ms} ms for {what}; it did not happen"),
        ));
    }
    let data = WaitedOut {
        waited_ms: ms,
        url: r.url,
    };
    Ok(Out::new(format!("Waited {ms} ms for {what}"), data))
}

async fn wait(a: WaitArgs) -> Result<Out<WaitedOut>, ToolError> {
    if a.time > MAX_WAIT_MS {
        return Err(ToolError::bad_args(format!(
            "time is at most {MAX_WAIT_MS} ms; use browser_wait_for for a condition"
        )));
    }
    tokio::time::sleep(Duration::from_millis(a.time)).await;
    let data = WaitedOut {
        waited_ms: a.time,
        url: None,
    };
    Ok(Out::new(format!("Waited {} ms", a.time), data))
}
