//! Reading the page: its snapshot, its text, its elements and HTML, waiting on it, its image.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The page's outline within a budget, or one region of it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub verbose: bool,
    /// The budget in tokens; none: all of it.
    pub max_tokens: Option<u64>,
    /// The region to show (a summary line's ref), from `offset`.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
}

/// What the extension answers a snapshot with.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotReply {
    pub text: String,
    pub refs: u64,
    pub capped: bool,
    #[serde(default)]
    pub collapsed: u64,
    #[serde(default)]
    pub frames: u64,
    #[serde(default)]
    pub frames_capped: bool,
    pub url: String,
    pub title: String,
}

/// The page's main content as text.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Read {
    pub format: ReadFormat,
    pub max_chars: usize,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ReadFormat {
    Markdown,
    Text,
}

/// What the extension answers a read with.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ReadReply {
    pub content: String,
    pub truncated: bool,
    pub total_chars: u64,
    pub url: String,
}

/// Elements by text, role and/or CSS selector, in every frame.
#[derive(Serialize, JsonSchema)]
pub struct Find {
    pub text: Option<String>,
    pub role: Option<String>,
    pub selector: Option<String>,
    pub max: usize,
}

/// What the extension answers a search with: one snapshot line per match.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct FindReply {
    pub lines: Vec<String>,
    pub total: u64,
}

/// The HTML of the element a ref names, else of the top frame's document, capped.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Html {
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub max_chars: usize,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct HtmlOut {
    pub html: String,
    pub truncated: bool,
    pub total_chars: u64,
}

/// Waits for text to appear (or go, `state: hidden`), an element to show or hide, or the
/// tab's URL to match.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitFor {
    pub text: Option<String>,
    pub selector: Option<String>,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub url: Option<String>,
    pub state: Visibility,
    pub timeout_ms: u64,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Visible,
    Hidden,
    // In the document, shown or not.
    Attached,
    // In the document no more (or never).
    Detached,
}

impl Visibility {
    /// The word the tools say it with.
    pub fn word(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::Attached => "attached",
            Visibility::Detached => "detached",
        }
    }
}

/// What the extension answers a wait with.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct WaitReply {
    pub met: bool,
    pub waited_ms: u64,
    #[serde(default)]
    pub url: Option<String>,
}

/// An image of the viewport, an element or the full page.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Screenshot {
    /// png, jpeg or webp.
    pub format: &'static str,
    pub quality: Option<u8>,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub full_page: bool,
}

/// What the extension answers a capture with.
#[derive(Deserialize, JsonSchema, Debug)]
pub struct CaptureReply {
    /// Base64 of the image.
    pub data: String,
    /// The element's box in CSS pixels, for an element capture.
    #[serde(default)]
    pub rect: Option<CssRect>,
    #[serde(default)]
    pub viewport: Option<Value>,
    #[serde(default)]
    pub debugger: bool,
    /// A full page cut at its height limit.
    #[serde(default)]
    pub cut: bool,
}

/// A box in CSS pixels of the viewport.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
pub struct CssRect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}
