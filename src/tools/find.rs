//! Finding elements, their HTML, and waiting: for a condition in the page, or a fixed time.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Session;
use super::args::{parse, read_only, ref_arg, schema, timeout};
use super::spec::{Hints, ToolOutput, ToolSpec};
use crate::error::{Code, ToolError};
use crate::protocol::Op;

const MAX_MATCHES: usize = 200;
const HTML_MAX_CHARS: usize = 20_000;
const MAX_WAIT_MS: u64 = 30_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FindArgs {
    /// Visible text or accessible name contains this (case-insensitive).
    text: Option<String>,
    /// ARIA role, e.g. button, link, textbox, heading.
    role: Option<String>,
    /// CSS selector.
    selector: Option<String>,
    /// At most this many matches (default 20).
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

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum State {
    Visible,
    Hidden,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WaitForArgs {
    /// Text to appear.
    text: Option<String>,
    /// Text to disappear.
    text_gone: Option<String>,
    /// CSS selector to become visible (or hidden, with state).
    selector: Option<String>,
    /// Element to become visible (or hidden, with state).
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// visible (default) or hidden, for selector and ref.
    state: Option<State>,
    /// The tab's URL to match: a substring, or a pattern with * wildcards.
    url: Option<String>,
    /// Milliseconds (default 30000).
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WaitArgs {
    /// Milliseconds to wait (at most 30000).
    time: u64,
}

pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "browser_find",
            description: "Find elements by text, role and/or CSS selector, in every frame; returns them with refs.",
            input_schema: schema::<FindArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "matches": {"type": "array", "items": {"type": "string"}}, "total": {"type": "integer"}},
                "required": ["matches", "total"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_get_html",
            description: "HTML of the document or of one element, capped.",
            input_schema: schema::<HtmlArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "html": {"type": "string"}, "truncated": {"type": "boolean"}, "totalChars": {"type": "integer"}},
                "required": ["html", "truncated"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_wait_for",
            description: "Wait until text appears or disappears, an element shows or hides, or the URL matches.",
            input_schema: schema::<WaitForArgs>(),
            output_schema: Some(
                json!({"type": "object", "properties": {"waitedMs": {"type": "integer"}}, "required": ["waitedMs"]}),
            ),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_wait",
            description: "Wait a fixed time.",
            input_schema: schema::<WaitArgs>(),
            output_schema: None,
            hints: Hints {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false,
            },
        },
    ]
}

impl Session {
    /// Runs one of this file's tools (`Session::call` routes only those here).
    pub(super) async fn find_tool(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        match name {
            "browser_find" => self.find(args).await,
            "browser_get_html" => self.html(args).await,
            "browser_wait_for" => self.wait_for(args).await,
            "browser_wait" => wait(args).await,
            _ => Err(super::unknown_tool(name)),
        }
    }

    async fn find(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: FindArgs = parse("browser_find", args)?;
        if a.text.is_none() && a.role.is_none() && a.selector.is_none() {
            return Err(ToolError::bad_args(
                "give text, role or selector (or several)",
            ));
        }
        let max = a.max.unwrap_or(20);
        if max == 0 || max > MAX_MATCHES {
            return Err(ToolError::bad_args(format!("max is 1 to {MAX_MATCHES}")));
        }
        let call = json!({"text": a.text, "role": a.role, "selector": a.selector, "max": max});
        let r = self.page(Op::Find, call, Duration::from_secs(15)).await?;
        let matches: Vec<String> = serde_json::from_value(r["lines"].clone()).unwrap_or_default();
        let total = r["total"].as_u64().unwrap_or(0);
        let head = match (matches.len() as u64, total) {
            (0, _) => "No element matches".to_string(),
            (n, t) if n < t => format!("{n} of {t} matches (raise max for more)"),
            (n, _) => format!("{n} match{}", if n == 1 { "" } else { "es" }),
        };
        let text = std::iter::once(head)
            .chain(matches.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        Ok(ToolOutput::new(
            text,
            json!({"matches": matches, "total": total}),
        ))
    }

    async fn html(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: HtmlArgs = parse("browser_get_html", args)?;
        if let Some(r) = &a.reference {
            ref_arg(r)?;
        }
        let max = a.max_chars.unwrap_or(HTML_MAX_CHARS);
        if max == 0 || max > 2_000_000 {
            return Err(ToolError::bad_args("maxChars is 1 to 2000000"));
        }
        let r = self
            .page(
                Op::Html,
                json!({"ref": a.reference, "maxChars": max}),
                Duration::from_secs(15),
            )
            .await?;
        let html = r["html"].as_str().unwrap_or("");
        let truncated = r["truncated"].as_bool().unwrap_or(false);
        let mut text = html.to_string();
        if truncated {
            text.push_str(&format!(
                "\n[cut at {max} of {} characters; raise maxChars to read more]",
                r["totalChars"]
            ));
        }
        Ok(ToolOutput::new(
            text,
            json!({"html": html, "truncated": truncated, "totalChars": r["totalChars"]}),
        ))
    }

    async fn wait_for(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: WaitForArgs = parse("browser_wait_for", args)?;
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
        let hidden = a.text_gone.is_some() || a.state == Some(State::Hidden);
        let state = if hidden { "hidden" } else { "visible" };
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
        let call = json!({"text": a.text.or(a.text_gone), "selector": a.selector, "ref": a.reference,
            "url": a.url, "state": state, "timeoutMs": wait.as_millis() as u64});
        let r = self.page(Op::WaitFor, call, wait).await?;
        let ms = r["waitedMs"].as_u64().unwrap_or(0);
        if r["met"] != true {
            return Err(ToolError::failed(
                Code::Timeout,
                format!("waited {ms} ms for {what}; it did not happen"),
            ));
        }
        Ok(ToolOutput::new(
            format!("Waited {ms} ms for {what}"),
            json!({"waitedMs": ms, "url": r["url"]}),
        ))
    }
}

async fn wait(args: Value) -> Result<ToolOutput, ToolError> {
    let a: WaitArgs = parse("browser_wait", args)?;
    if a.time > MAX_WAIT_MS {
        return Err(ToolError::bad_args(format!(
            "time is at most {MAX_WAIT_MS} ms; use browser_wait_for for a condition"
        )));
    }
    tokio::time::sleep(Duration::from_millis(a.time)).await;
    Ok(ToolOutput::new(format!("Waited {} ms", a.time), json!({})))
}
