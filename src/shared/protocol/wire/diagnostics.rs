//! What the agent's page says about itself: its console, its accessibility audit (axe-core),
//! and its performance (web vitals, heap samples, a DevTools trace).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An accessibility audit (axe-core) of every frame of the tab.
#[derive(Serialize, JsonSchema, Default)]
pub struct A11y {}

/// The tab's console: every frame's log of the current document, and the earlier ones kept.
#[derive(Serialize, JsonSchema)]
pub struct ConsoleLogs {
    /// Also the earlier documents' entries.
    pub preserved: bool,
}

#[derive(
    Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Debug,
    Log,
    Info,
    Warn,
    Error,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Console,
    Exception,
    Rejection,
    /// The page's service-worker lifecycle, as the page sees it.
    Worker,
}

/// One entry as the extension answers it.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub kind: Kind,
    pub level: Level,
    pub text: String,
    /// The caller's url:line:col.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// The frame's address (top frame: omitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// From an earlier page of the tab.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub earlier: bool,
}

/// The extension's entry on the wire, before it is shaped for the reader.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    #[serde(flatten)]
    pub entry: Entry,
    pub frame_id: Option<i64>,
    pub url: Option<String>,
    pub current: bool,
}

/// The tab's console as the extension answers it.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Log {
    pub entries: Vec<LogEntry>,
    pub dropped: u64,
    pub captured: bool,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Impact {
    Critical,
    Serious,
    Moderate,
    Minor,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Example {
    /// The element's ref, as browser_snapshot gives it (none when it is gone).
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub html: String,
    /// What to fix.
    pub why: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    pub id: String,
    pub impact: Impact,
    pub help: String,
    pub help_url: String,
    /// Elements that break the rule (in every frame).
    pub count: usize,
    pub examples: Vec<Example>,
}

/// One frame's audit.
#[derive(Deserialize, JsonSchema)]
pub struct AuditFrame {
    pub violations: Vec<Violation>,
}

/// What the extension answers an audit with: each frame's violations.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditReply {
    pub version: String,
    pub frames: Vec<AuditFrame>,
    pub not_audited: usize,
}

/// The page's web vitals, from its own performance buffers, after `settleMs`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Vitals {
    pub settle_ms: u64,
}

/// The page's JS heap, sampled every `everyMs` for `durationMs`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    pub duration_ms: u64,
    pub every_ms: u64,
}

/// A DevTools trace of the tab for `durationMs` (the debugger attached for it).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub duration_ms: u64,
}

/// The trace as DevTools writes it: JSON text.
#[derive(Deserialize, JsonSchema)]
pub struct TraceReply {
    pub trace: String,
}

/// The heap samples: [ms since the first, bytes used].
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemoryReply {
    pub supported: bool,
    #[serde(default)]
    pub samples: Vec<(f64, f64)>,
}

/// An element as the page named it: the ref a snapshot gives, and a short description.
#[derive(Serialize, Deserialize, JsonSchema, Clone)]
pub struct Named {
    #[serde(rename = "ref")]
    pub reference: String,
    pub element: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Breakdown {
    pub ttfb_ms: f64,
    pub load_delay_ms: f64,
    pub load_time_ms: f64,
    pub render_delay_ms: f64,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lcp {
    #[serde(skip_serializing)]
    pub ms: f64,
    #[serde(flatten)]
    pub element: Option<Named>,
    /// The image's address, for an image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<Breakdown>,
    /// Resource Timing's `initiatorType` of the image's request: `img`, `css` (a background),
    /// `link` (a preload), ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiator: Option<String>,
    /// The element's `loading` attribute (`lazy`), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loading: Option<String>,
    /// The element's `fetchpriority` attribute, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch_priority: Option<String>,
}

/// A resource that held the page's first render (Resource Timing's `renderBlockingStatus`).
#[derive(Serialize, Deserialize, JsonSchema, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Blocking {
    pub url: String,
    /// stylesheet, script, or Resource Timing's `initiatorType` for anything else.
    pub kind: String,
    /// Its request's start and its response's end, ms from the page's start.
    pub start_ms: f64,
    pub end_ms: f64,
}

/// The render-blocking resources: how many, and the last to finish first (bounded).
#[derive(Serialize, Deserialize, JsonSchema, Clone)]
#[serde(rename_all = "camelCase")]
pub struct RenderBlocking {
    pub count: usize,
    pub resources: Vec<Blocking>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Cls {
    pub value: f64,
    pub shifts: usize,
    pub shifted: Vec<Named>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Inp {
    pub ms: f64,
    pub event: String,
    pub interactions: usize,
    #[serde(flatten)]
    pub target: Option<Named>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Script {
    pub invoker: String,
    pub source: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub function: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LongFrame {
    pub start_ms: f64,
    pub duration_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking_ms: Option<f64>,
    pub scripts: Vec<Script>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Supported {
    pub lcp: bool,
    pub cls: bool,
    pub inp: bool,
}

/// What page/vitals.js reads from the page's buffers.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VitalsReply {
    pub url: String,
    /// When the page was first hidden (ms from its start), if it was.
    pub hidden_at: Option<f64>,
    pub supported: Supported,
    pub ttfb: Option<f64>,
    pub fcp: Option<f64>,
    pub lcp: Option<Lcp>,
    pub cls: Option<Cls>,
    pub inp: Option<Inp>,
    pub long_frames: Vec<LongFrame>,
    pub long_frames_kind: Option<String>,
    /// None where this browser does not say what blocks rendering.
    #[serde(default)]
    pub render_blocking: Option<RenderBlocking>,
}
