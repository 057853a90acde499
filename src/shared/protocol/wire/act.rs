//! Acting on the page: what every action takes and answers, and each action's own fields.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::diagnostics::LogEntry;
use super::network::Request;
use crate::shared::protocol::GuardRule;

/// What an action caused in its page, as the probes riding on the action's own call found it
/// (extension/sw/ops.js `probe`): carried on the tool's `Out` to the after-action layer
/// (tools/after.rs). Each call's findings travel with that call alone, so two calls running at
/// once in one session never read each other's.
#[derive(Deserialize, JsonSchema, Default, Debug)]
pub struct Findings {
    /// What the tab's console gained since the action began (none: the probe did not answer).
    #[serde(default)]
    pub console: Option<ConsoleSince>,
    /// What the tab met since.
    #[serde(default)]
    pub network: Option<NetworkSince>,
    /// Downloads the tab started since.
    #[serde(default)]
    pub downloads: Option<Vec<super::downloads::Started>>,
}

/// The console probe's answer: the new errors, and with `entries`, every new entry.
#[derive(Deserialize, JsonSchema, Default, Debug)]
pub struct ConsoleSince {
    pub errors: u64,
    #[serde(default)]
    pub entries: Option<Vec<LogEntry>>,
}

/// The network probe's answer: requests that failed or were answered 4xx/5xx, problems the page
/// noted (blocked content, deprecations), and with `requests`, every new request.
#[derive(Deserialize, JsonSchema, Default, Debug)]
pub struct NetworkSince {
    pub failed: u64,
    pub noted: u64,
    #[serde(default)]
    pub requests: Option<Vec<Request>>,
}

// What "finished" means after a page-changing call: said once, in the server's instructions
// (a comment, not a doc comment: it would go into every page-changing tool's schema).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum WaitUntil {
    None,
    Auto,
    Load,
    Networkidle,
}

/// What the console probe riding on an action brings back: its new errors, or every new entry.
#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ConsoleProbe {
    Errors,
    Entries,
}

/// What the network probe riding on an action brings back: what failed or was noted, or every
/// request.
#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum NetworkProbe {
    Issues,
    Requests,
}

/// How long a page-changing call waits after it, and the probes riding on it: only the wait
/// the caller set, so the extension's defaults (auto for actions, load for navigations) hold
/// for the rest. No probe rides on a call that names none.
#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct After {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_until: Option<WaitUntil>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub console: Option<ConsoleProbe>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkProbe>,
}

/// What the extension answers an action with: the operation's own fields, what every action
/// reports, and what the probes riding on it found.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct ActReply<T> {
    #[serde(flatten)]
    pub own: T,
    #[serde(flatten)]
    pub act: Acted,
    #[serde(flatten)]
    pub findings: Findings,
}

/// The element an action acted on, and whether it navigated.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Acted {
    pub element: Option<String>,
    #[serde(default)]
    pub navigated: bool,
    pub url: Option<String>,
    pub settled: Option<bool>,
    pub navigation_error: Option<String>,
    #[serde(default)]
    pub retagged: bool,
    /// The navigation was of the frame the action ran in, and `url` is the frame's.
    #[serde(default)]
    pub in_frame: bool,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Modifier {
    Alt,
    Control,
    Meta,
    Shift,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    Left,
    Right,
    Middle,
}

/// A click on a ref, or at a point of the viewport.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Click {
    #[serde(flatten)]
    pub at: ClickAt,
    pub modifiers: Vec<Modifier>,
    pub button: MouseButton,
    pub double_click: bool,
    /// How long to wait after it, and the probes riding on it.
    pub after: After,
}

/// What a click at a point hit, in advanced mode (the browser's own click, routed into a frame
/// there too): the element, or the frame and what was at the point inside it.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Clicked {
    /// What was under the point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ClickAt {
    Ref {
        #[serde(rename = "ref")]
        reference: String,
    },
    Point {
        x: f64,
        y: f64,
    },
}

#[derive(Serialize, JsonSchema)]
pub struct Hover {
    #[serde(rename = "ref")]
    pub reference: String,
    pub after: After,
}

#[derive(Serialize, JsonSchema)]
pub struct Focus {
    #[serde(rename = "ref")]
    pub reference: String,
    pub after: After,
}

#[derive(Serialize, JsonSchema)]
pub struct Clear {
    #[serde(rename = "ref")]
    pub reference: String,
    pub after: After,
}

/// Whether clearing changed the field.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Cleared {
    pub changed: bool,
}

#[derive(Serialize, JsonSchema)]
pub struct Type {
    #[serde(rename = "ref")]
    pub reference: String,
    pub text: String,
    pub submit: bool,
    pub after: After,
    /// When `text` is a secret's value: its name and origins, judged in the field's frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretFill>,
}

/// A secret filled by name: the extension writes it only into a field whose own frame's origin
/// matches one of `origins`, judged at the moment of the fill, and takes its value out of every
/// later answer as `[secret NAME]`.
#[derive(Serialize, JsonSchema)]
pub struct SecretFill {
    pub name: String,
    pub origins: Vec<GuardRule>,
}

/// What the page counts of a typing.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Typed {
    pub chars: u64,
}

#[derive(Serialize, JsonSchema)]
pub struct Select {
    #[serde(rename = "ref")]
    pub reference: String,
    pub values: Vec<String>,
    pub after: After,
}

/// The options now selected, and whether that changed anything.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Selected {
    pub selected: Vec<String>,
    pub changed: bool,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Drag {
    pub start_ref: String,
    pub end_ref: String,
    pub after: After,
}

/// How a drag went.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Dragged {
    /// The element it was dropped on.
    pub target: String,
    /// `html5` (drag-and-drop events) or `pointer`.
    pub mode: String,
    pub dropped: bool,
}

#[derive(Serialize, JsonSchema)]
pub struct Press {
    pub key: String,
    pub modifiers: Vec<Modifier>,
    pub after: After,
}

/// What a key press did.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Pressed {
    /// The key's default action, when it had one (focus moved, form submitted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The element focused afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focused: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// A scroll: of the page or a container in a direction or to a position, or an element (by ref
/// or by a CSS selector in the top frame) into view.
#[derive(Serialize, JsonSchema)]
pub struct Scroll {
    pub direction: Option<Direction>,
    pub amount: Option<u32>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
}

/// What the extension answers a scroll with.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct ScrollReply {
    pub summary: String,
    #[serde(flatten)]
    pub data: Scrolled,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Scrolled {
    pub scrolled: bool,
    /// What scrolled: the page, a panel, or the element brought into view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

#[derive(Serialize, JsonSchema)]
pub struct FillForm {
    pub fields: Vec<FillField>,
    pub after: After,
}

#[derive(Serialize, JsonSchema)]
pub struct FillField {
    #[serde(rename = "ref")]
    pub reference: String,
    pub value: FieldValue,
    /// When `value` is a secret's: as for `Type`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretFill>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Debug)]
#[serde(untagged)]
pub enum FieldValue {
    Bool(bool),
    Text(String),
}

#[derive(Deserialize, JsonSchema, Debug)]
pub struct FillReply {
    pub fields: Vec<FieldResult>,
}

/// One field's outcome, as the page reports it.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct FieldResult {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// filled, unchanged or failed.
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<FieldError>,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct FieldError {
    pub code: String,
    pub message: String,
}

/// A piece of a file too big for one call, held by the page until the `Upload` that names it.
#[derive(Serialize, JsonSchema)]
pub struct UploadPart {
    #[serde(rename = "ref")]
    pub reference: String,
    pub upload: String,
    pub file: usize,
    pub data: String,
}

/// Sets the files on a file input: each with its bytes (base64), or sent ahead in parts.
#[derive(Serialize, JsonSchema)]
pub struct Upload {
    #[serde(rename = "ref")]
    pub reference: String,
    pub upload: String,
    pub files: Vec<UploadFile>,
    pub after: After,
    /// The registered files among them: each set only where it belongs, as for `Type`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<SecretFill>,
}

#[derive(Serialize, JsonSchema)]
pub struct UploadFile {
    pub name: String,
    pub mime: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
}

/// The files now on the input.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Uploaded {
    pub files: Vec<FileOnInput>,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct FileOnInput {
    pub name: String,
    pub size: u64,
}

/// How much of an upload the page holds so far.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct Staged {
    pub staged: u64,
}
