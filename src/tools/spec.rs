//! What every tool is to a client: its name, schema and hints, and the shape of a result.

use serde_json::Value;

use crate::error::Outcome;

/// The MCP annotations of a tool.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// A tool as the MCP catalog and the CLI list it.
#[derive(Clone, Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// A JSON Schema object for the arguments.
    pub input_schema: Value,
    /// A JSON Schema object for `structuredContent`, where the tool returns data.
    pub output_schema: Option<Value>,
    pub hints: Hints,
}

/// An image in a result (MCP image content).
#[derive(Clone, Debug)]
pub struct Image {
    /// Base64 of the encoded bytes.
    pub data: String,
    pub mime_type: String,
}

/// A successful tool result: one text for the reader, the same facts as data.
#[derive(Clone, Debug)]
pub struct ToolOutput {
    pub text: String,
    pub structured: Option<Value>,
    pub images: Vec<Image>,
    pub outcome: Outcome,
}

impl ToolOutput {
    pub fn new(text: impl Into<String>, structured: Value) -> Self {
        ToolOutput {
            text: text.into(),
            structured: Some(structured),
            images: Vec::new(),
            outcome: Outcome::Done,
        }
    }
}
