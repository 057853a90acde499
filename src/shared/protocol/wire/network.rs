//! What the agent's tab met on the network, from the browser's webRequest view: its requests,
//! one in full (its body with the debugger, on a reload), and the browser issues of its page.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A page of the tab's logged requests, newest first, filtered.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkRequests {
    /// URL contains.
    pub url: Option<String>,
    /// A webRequest resource type.
    pub r#type: Option<&'static str>,
    /// 1xx to 5xx, or failed.
    pub status: Option<String>,
    /// Also the two pages before.
    pub preserved: bool,
    pub page: u64,
    pub page_size: u64,
}

/// One request as the log has it.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub method: String,
    pub url: String,
    pub r#type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Bytes, from content-length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    #[serde(default, skip_serializing_if = "is_top")]
    pub frame_id: i64,
    /// The origin that made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiator: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why it failed: dns, refused, connection, tls, cors, blocked, aborted, failed...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached: Option<bool>,
    /// The browser's second request of a URL another request of the page loads (a font both
    /// preloaded and asked for by CSS), which it cancelled: no failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    /// Pages back, for one of an earlier page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<u32>,
}

fn is_top(frame: &i64) -> bool {
    *frame == 0
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct ListOut {
    pub total: u64,
    /// Older requests the log let go (it keeps 300 a page).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
    pub requests: Vec<Request>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The newest logged request whose URL contains `url`, or the `nth` newest (from 1).
#[derive(Serialize, JsonSchema)]
pub struct NetworkRequest {
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
}

/// The first request of a fresh load whose URL contains `url`, with its body: the tab reloaded
/// with the debugger attached.
#[derive(Serialize, JsonSchema)]
pub struct NetworkReload {
    pub url: String,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Header {
    pub name: String,
    pub value: String,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Binary {
    pub mime_type: String,
    pub bytes: u64,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct OneOut {
    pub request: Request,
    #[serde(default)]
    pub request_headers: Vec<Header>,
    #[serde(default)]
    pub response_headers: Vec<Header>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The whole body's length in characters, when `body` is cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_chars: Option<u64>,
    /// `body` is cut, its whole length unknown (the page's own copy stops at the cap).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub body_cut: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary: Option<Binary>,
    /// Whether the debugger was attached (for this call only).
    pub debugger: bool,
    /// Whether credential values are shown, and why not, when the request carries any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
}

/// A page of the tab's browser issues: its frames' notes, then its failed requests.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Issues {
    pub page: u64,
    pub page_size: u64,
}

/// One issue: its code, and what it concerns.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    pub code: String,
    /// The URL (or `inline`, `eval`) blocked, or the request's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The CSP directive that blocked it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directive: Option<String>,
    /// A report-only policy: reported, not blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Where in the page's source: file:line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The element's ref, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct IssuesOut {
    pub total: u64,
    pub issues: Vec<Issue>,
}
