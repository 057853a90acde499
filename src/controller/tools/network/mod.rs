//! The agent's tab's requests, from the browser's webRequest view (no debugger): the list
//! (`browser_network_requests`) and one in full (`browser_get_network_request`: the body of text
//! the page's own script fetched from the page's copy, any other body with the debugger for that
//! one call). Credential header values reach the agent only as reveal.rs
//! says.

pub(super) mod reveal;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::args::{acts, read_only};
use super::ctx::Ctx;
use super::paging::{PAGE_SIZE, footer, page_arg};
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::act::NetworkSince;
use crate::shared::protocol::wire::network::{
    ListOut, NetworkReload, NetworkRequest, NetworkRequests, OneOut, Request,
};

const LIST: &str = "browser_network_requests";
const ONE: &str = "browser_get_network_request";

/// The browser's resource types (webRequest's names), and `fetch` for its `xmlhttprequest`.
const TYPES: &[&str] = &[
    "main_frame",
    "sub_frame",
    "stylesheet",
    "script",
    "image",
    "font",
    "object",
    "xmlhttprequest",
    "ping",
    "csp_report",
    "media",
    "websocket",
    "other",
];

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListArgs {
    /// From 1.
    page: Option<u64>,
    /// Per page: 1 to 100 (20).
    limit: Option<u64>,
    /// URL contains.
    url: Option<String>,
    /// script, fetch, image, main_frame...
    r#type: Option<String>,
    /// 2xx, 3xx, 4xx, 5xx or failed.
    status: Option<String>,
    /// Also the 2 pages before.
    include_preserved: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct OneArgs {
    /// Part of its URL (newest match).
    url: String,
    /// Or the nth newest match, from 1.
    nth: Option<u32>,
    /// Show cookie/authorization values, where the person allows it.
    reveal_values: Option<bool>,
    /// Reload, debugger on, for the body.
    reload: Option<bool>,
}

impl Request {
    /// One line: method, status or failure, type, URL, then what else is known.
    pub(super) fn line(&self) -> String {
        let outcome = match (&self.status, &self.reason) {
            _ if self.duplicate => "duplicate (loaded by its twin)".to_string(),
            (_, Some(reason)) => {
                format!("failed ({reason}: {})", self.error.as_deref().unwrap_or(""))
            }
            (Some(status), None) => status.to_string(),
            (None, None) => "pending".to_string(),
        };
        let mut line = format!("{} {outcome} {} {}", self.method, self.r#type, self.url);
        if let Some(to) = &self.redirect {
            line.push_str(&format!(" → {to}"));
        }
        let mut extra = Vec::new();
        if let Some(ms) = self.ms {
            extra.push(format!("{ms} ms"));
        }
        if let Some(size) = self.size {
            extra.push(format!("{size} B"));
        }
        if self.cached == Some(true) {
            extra.push("cached".into());
        }
        if self.frame_id != 0 {
            extra.push(format!("frame f{}", self.frame_id));
        }
        if let Some(n) = self.earlier {
            extra.push(format!("{n} page(s) back"));
        }
        if !extra.is_empty() {
            line.push_str(&format!(" ({})", extra.join(", ")));
        }
        line
    }
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: LIST,
                description: "Requests of this tab's page, newest first, with status or failure reason.",
                hints: read_only(),
                ..About::default()
            },
            |cx, a| list(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: ONE,
                description: "One logged request: status, headers (secrets hidden), a body the page fetched; other bodies with reload (debugger).",
                hints: Hints {
                    mixed: true,
                    idempotent: true,
                    open_world: false,
                    ..acts()
                },
                cli: Cli {
                    positional: &["url"],
                    ..Cli::default()
                },
                ..About::default()
            },
            |cx, a| one(cx, a).boxed(),
        ),
    ]
}

/// A status class as the extension filters by it: `4xx` and the like, or `failed`.
fn status_class(status: &str) -> Result<String, ToolError> {
    let s = status.to_ascii_lowercase();
    let ok = s == "failed"
        || (s.len() == 3 && s.ends_with("xx") && (b'1'..=b'5').contains(&s.as_bytes()[0]));
    if ok {
        Ok(s)
    } else {
        Err(ToolError::bad_args(format!(
            "status {status:?} is not a class: 1xx to 5xx, or failed"
        )))
    }
}

fn resource_type(t: &str) -> Result<&'static str, ToolError> {
    if t == "fetch" || t == "xhr" {
        return Ok("xmlhttprequest");
    }
    TYPES.iter().copied().find(|x| *x == t).ok_or_else(|| {
        ToolError::bad_args(format!(
            "type {t:?} is not a resource type: {}, or fetch",
            TYPES.join(", ")
        ))
    })
}

/// The most requests one page of the list holds.
const MAX_LIMIT: u64 = 100;

async fn list(cx: &Ctx, a: ListArgs) -> Result<Out<ListOut>, ToolError> {
    let page = page_arg(a.page)?;
    let size = a.limit.unwrap_or(PAGE_SIZE);
    if !(1..=MAX_LIMIT).contains(&size) {
        return Err(ToolError::bad_args(format!("limit is 1 to {MAX_LIMIT}")));
    }
    let status = a.status.as_deref().map(status_class).transpose()?;
    let kind = a.r#type.as_deref().map(resource_type).transpose()?;
    let preserved = a.include_preserved.unwrap_or(false);
    let call = NetworkRequests {
        url: a.url.clone(),
        r#type: kind,
        status,
        preserved,
        page,
        page_size: size,
    };
    let r = cx.run(call).await?;
    let mut lines: Vec<String> = r.requests.iter().map(Request::line).collect();
    if lines.is_empty() {
        lines.push(if r.total == 0 {
            "No requests logged on this page that fit.".into()
        } else {
            "No requests on this page of the list.".into()
        });
    }
    let mut again = json!({});
    for (key, value) in [
        ("url", json!(a.url)),
        ("type", json!(a.r#type)),
        ("status", json!(a.status)),
        ("includePreserved", json!(a.include_preserved)),
        ("limit", json!(a.limit)),
    ] {
        if !value.is_null() {
            again[key] = value;
        }
    }
    lines.push(footer(LIST, page, r.total, size, again));
    if r.dropped > 0 {
        lines.push(format!("({} older requests were let go.)", r.dropped));
    }
    Ok(Out::new(lines.join("\n"), r))
}

async fn one(cx: &Ctx, a: OneArgs) -> Result<Out<OneOut>, ToolError> {
    if a.url.is_empty() {
        return Err(ToolError::bad_args(
            "url is part of a request's URL; it is empty",
        ));
    }
    let reload = a.reload.unwrap_or(false);
    match a.nth {
        Some(0) => return Err(ToolError::bad_args("nth counts from 1, the newest match")),
        Some(_) if reload => {
            return Err(ToolError::bad_args(
                "nth picks among logged requests; with reload the first of the fresh load is taken",
            ));
        }
        _ => {}
    }
    let url = a.url.clone();
    let mut r = if reload {
        cx.policy().check_read_only(&format!("{ONE} with reload"))?;
        cx.run(NetworkReload { url }).await?
    } else {
        cx.run(NetworkRequest { url, nth: a.nth }).await?
    };
    let place = cx.place().url;
    let credentials = reveal::Credentials::decide(
        cx.policy(),
        a.reveal_values.unwrap_or(false),
        &[
            Some(&r.request.url),
            r.request.initiator.as_deref(),
            r.request.redirect.as_deref(),
            place.as_deref(),
        ],
    )
    .sharing_cookies(cx.policy(), &r.request.url);
    let carried = r
        .request_headers
        .iter()
        .chain(&r.response_headers)
        .any(|h| reveal::is_credential(&h.name));
    for headers in [&mut r.request_headers, &mut r.response_headers] {
        *headers = headers.drain(..).map(|h| credentials.shown(h)).collect();
    }
    if carried {
        r.credentials = Some(credentials.line());
    }
    let text = describe(&r, &a.url);
    let out = Out::new(text, r);
    Ok(if carried && credentials == reveal::Credentials::Shown {
        out.revealing("credentials")
    } else {
        out
    })
}

fn describe(r: &OneOut, url: &str) -> String {
    let mut out = vec![r.request.line()];
    for (title, headers) in [
        ("Request headers", &r.request_headers),
        ("Response headers", &r.response_headers),
    ] {
        if !headers.is_empty() {
            out.push(format!("{title}:"));
            out.extend(headers.iter().map(|h| format!("  {}: {}", h.name, h.value)));
        }
    }
    if let Some(line) = &r.credentials {
        out.push(line.clone());
    }
    let used = if r.debugger {
        " (the debugger was attached for this call, and is detached)"
    } else {
        " (the page's own copy, as its script fetched it)"
    };
    match (&r.body, &r.binary) {
        (Some(body), _) => {
            out.push(format!("Body{used}:"));
            out.push(body.clone());
            if let Some(n) = r.body_chars {
                out.push(format!("(body cut: {} of {n} characters shown)", body.chars().count()));
            } else if r.body_cut {
                out.push(format!("(body cut: its first {} characters shown)", body.chars().count()));
            }
        }
        (None, Some(b)) => out.push(format!("Body{used}: binary, {}, {} bytes", b.mime_type, b.bytes)),
        (None, None) if r.request.reason.is_some() => out.push("No body: the request failed.".into()),
        (None, None) => out.push(format!(
            "No body: the browser gives one only to the debugger, for a request made while it is attached. \
             To capture it: {ONE} {} (reloads the page with the debugger attached, for that call only); \
             a request a click made is not made again by a reload.",
            json!({"url": url, "reload": true})
        )),
    }
    out.join("\n")
}

/// The requests begun since an action, as `include: "network"` adds them to its reply.
/// `include: "network"`: the requests since the action (the `network` probe that rode on the
/// action's call), as text and as data.
pub(super) fn since_action(probe: Option<NetworkSince>) -> (String, Value) {
    match probe.and_then(|p| p.requests) {
        Some(list) => (since_section(&list), json!(list)),
        None => (
            "Requests since the action: not readable in this tab.".to_string(),
            Value::Null,
        ),
    }
}

fn since_section(requests: &[Request]) -> String {
    const SHOWN: usize = 20;
    let mut lines = vec![format!("Requests since the action ({}):", requests.len())];
    lines.extend(requests.iter().take(SHOWN).map(Request::line));
    if requests.len() > SHOWN {
        lines.push(format!("… {} more: {LIST}", requests.len() - SHOWN));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn request(v: Value) -> Request {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn filters_are_checked_before_anything_is_sent() {
        assert_eq!(status_class("4XX").unwrap(), "4xx");
        assert_eq!(status_class("failed").unwrap(), "failed");
        for bad in ["404", "6xx", "xx", "error"] {
            assert!(status_class(bad).is_err(), "{bad}");
        }
        assert_eq!(resource_type("fetch").unwrap(), "xmlhttprequest");
        assert_eq!(resource_type("script").unwrap(), "script");
        assert!(resource_type("js").is_err());
    }

    #[test]
    fn a_line_says_status_or_why_it_failed() {
        let ok = request(
            json!({"method": "GET", "url": "http://a/x", "type": "script",
            "status": 404, "ms": 3, "size": 12, "frameId": 5}),
        );
        assert_eq!(
            ok.line(),
            "GET 404 script http://a/x (3 ms, 12 B, frame f5)"
        );
        let failed = request(
            json!({"method": "POST", "url": "http://a/y", "type": "xmlhttprequest",
            "error": "net::ERR_CONNECTION_REFUSED", "reason": "refused", "earlier": 1}),
        );
        assert_eq!(
            failed.line(),
            "POST failed (refused: net::ERR_CONNECTION_REFUSED) xmlhttprequest http://a/y (1 page(s) back)"
        );
        let twin = request(
            json!({"method": "GET", "url": "http://a/f.woff2", "type": "font", "duplicate": true, "ms": 2}),
        );
        assert_eq!(
            twin.line(),
            "GET duplicate (loaded by its twin) font http://a/f.woff2 (2 ms)"
        );
    }
}
