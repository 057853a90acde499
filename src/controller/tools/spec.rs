//! What every tool is to a client: its name, schemas, hints and command-line forms, and the
//! shape of a result.

use crate::shared::protocol::wire::act::Findings;
use serde::Serialize;
use serde_json::{Value, json};

use crate::controller::audit::Ending;
pub use crate::controller::audit::Keeps;
pub use crate::controller::record::Replayed;
use crate::shared::error::{Code, Outcome, ToolError};

/// The MCP annotations of a tool.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// It only moves the agent's own tab between pages (or opens or closes one); it changes no
    /// page. Read-only mode lets it run; the origin lists judge where it goes. Not an MCP
    /// annotation.
    pub navigates: bool,
    /// It has actions that read and actions that act, and refuses the acting ones in read-only
    /// mode itself. Not an MCP annotation.
    pub mixed: bool,
}

/// How the terminal reaches a tool besides its name (`tabpilot <tool>` and `tabpilot <short>`,
/// the `browser_` prefix left off).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cli {
    /// Other words for the tool: `tabs` for `browser_list_tabs`.
    pub aliases: &'static [&'static str],
    /// The arguments the words after the tool fill, in order.
    pub positional: &'static [&'static str],
    /// The argument that takes every word after the positional ones, verbatim, as a list.
    pub rest: Option<&'static str>,
}

/// The smallest profile (`TABPILOT_TOOLS`) that lists a tool; each profile lists the ones of
/// its tier and below, in the registry's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// The fewest tools an agent can still complete a form task with.
    Slim,
    /// The tools that do most of the work: open a page, read it, act on it, wait, see it.
    Core,
    /// Every other tool.
    #[default]
    Full,
}

impl Tier {
    /// Every tier, largest first, as `TABPILOT_TOOLS` names them.
    pub const ALL: [Tier; 3] = [Tier::Full, Tier::Core, Tier::Slim];

    /// The profile's name in `TABPILOT_TOOLS` and the docs.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Slim => "slim",
            Tier::Core => "core",
            Tier::Full => "full",
        }
    }
}

/// A tool as the MCP catalog and the CLI list it.
#[derive(Clone, Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    /// The registry's group it belongs to (its module): `tabs`, `act`, `context`, ...
    pub group: &'static str,
    pub description: &'static str,
    /// A JSON Schema object for the arguments, derived from the tool's input type.
    pub input_schema: Value,
    /// A JSON Schema object for `structuredContent`, derived from the tool's output type.
    pub output_schema: Value,
    pub hints: Hints,
    pub cli: Cli,
    /// What the audit trail keeps of its arguments beyond what every tool's keeps.
    pub keeps: Keeps,
    /// What a recording keeps of it: its kind of step, or none (not recorded).
    pub recorded: Option<Replayed>,
    /// The smallest profile that lists it.
    pub tier: Tier,
}

/// An image in a result (MCP image content).
#[derive(Clone, Debug)]
pub struct Image {
    /// Base64 of the encoded bytes.
    pub data: String,
    pub mime_type: String,
}

/// What a tool's function answers: one text for the reader, the same facts as typed data, and
/// the outcome, each said once. `snapshot` is the page's fresh snapshot where the caller asked
/// for it (or a navigation gives it by default).
#[derive(Debug)]
pub struct Out<T> {
    pub text: String,
    pub data: T,
    pub outcome: Outcome,
    pub images: Vec<Image>,
    pub snapshot: Option<String>,
    /// What changed in the snapshot since the agent's last one, where the caller asked for it.
    pub diff: Option<String>,
    /// More the caller asked an action to include (`include: "console"`, `"network"`): each
    /// section's name, its text, and its data in `structuredContent`.
    pub sections: Vec<(&'static str, String, Value)>,
    /// One line each, last: what went wrong in the page since the action began (footer.rs).
    pub notices: Vec<String>,
    /// What the action's own call found in the page meanwhile, for the after-action layer.
    pub findings: Findings,
    /// What the result discloses that the person let through on purpose (`credentials`), for
    /// the audit trail.
    pub revealed: Option<&'static str>,
}

impl<T> Out<T> {
    pub fn new(text: impl Into<String>, data: T) -> Self {
        Out {
            text: text.into(),
            data,
            outcome: Outcome::Done,
            images: Vec::new(),
            snapshot: None,
            diff: None,
            sections: Vec::new(),
            notices: Vec::new(),
            findings: Findings::default(),
            revealed: None,
        }
    }

    /// Marks the result as disclosing `what` (the audit trail says so).
    pub fn revealing(mut self, what: &'static str) -> Self {
        self.revealed = Some(what);
        self
    }

    pub fn with_outcome(mut self, outcome: Outcome) -> Self {
        self.outcome = outcome;
        self
    }
}

impl<T: Serialize> Out<T> {
    /// The result as it leaves the tool layer: the data serialised once, with the outcome and
    /// the snapshot beside it.
    pub fn finish(self) -> Result<ToolOutput, ToolError> {
        let mut structured = serde_json::to_value(&self.data)
            .map_err(|e| ToolError::failed(Code::Internal, format!("shaping the result: {e}")))?;
        let fields = structured
            .as_object_mut()
            .ok_or_else(|| ToolError::failed(Code::Internal, "a tool's data is not an object"))?;
        fields.insert("outcome".into(), json!(self.outcome));
        let mut text = self.text;
        if let Some(snapshot) = self.snapshot {
            text.push_str("\n\n");
            text.push_str(&snapshot);
            fields.insert("snapshot".into(), json!(snapshot));
        }
        if let Some(diff) = self.diff {
            text.push_str("\n\n");
            text.push_str(&diff);
            fields.insert("diff".into(), json!(diff));
        }
        for (name, section, data) in self.sections {
            text.push_str("\n\n");
            text.push_str(&section);
            fields.insert(name.into(), data);
        }
        if !self.notices.is_empty() {
            for line in &self.notices {
                text.push('\n');
                text.push_str(line);
            }
            fields.insert("notices".into(), json!(self.notices));
        }
        Ok(ToolOutput {
            text,
            structured,
            images: self.images,
            outcome: self.outcome,
            revealed: self.revealed,
        })
    }
}

/// A successful tool result as the MCP server and the CLI show it.
#[derive(Clone, Debug)]
pub struct ToolOutput {
    pub text: String,
    /// `structuredContent`: the tool's data with its outcome.
    pub structured: Value,
    pub images: Vec<Image>,
    pub outcome: Outcome,
    /// What it discloses on the person's say-so (`credentials`), recorded as such.
    pub revealed: Option<&'static str>,
}

/// What came of a call, as the audit trail and the recording keep it.
pub fn ending(result: &Result<ToolOutput, ToolError>) -> Ending {
    match result {
        Ok(out) => Ending {
            revealed: out.revealed,
            ..Ending::of(out.outcome)
        },
        Err(e) => Ending::failed(e),
    }
}
