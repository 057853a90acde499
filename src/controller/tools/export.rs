//! `browser_export`: the agent's own recording, as a Playwright test or a replay file, written
//! inside the path sandbox, so a task can end with "and here is the test for it".

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::read_only;
use super::ctx::Ctx;
use super::spec::Out;
use super::tool::{About, Tool};
use crate::controller::policy::paths::temp_folder;
use crate::controller::record::{self, Format};
use crate::shared::error::{Code, ToolError};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ExportArgs {
    /// playwright (a test) or tabpilot (for `tabpilot replay`).
    format: Format,
    /// Default: a temp file.
    file_path: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct Exported {
    path: String,
    steps: usize,
    /// Steps the recording in memory let go of past its bounds (the oldest, and any too big to
    /// keep), so the file lacks them.
    dropped: usize,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_export",
            description: "Write your page actions so far as a Playwright test or a replay file.",
            hints: read_only(),
            ..About::default()
        },
        |cx, a| export(cx, a).boxed(),
    )]
}

/// Where the file goes when the agent names none: tabpilot's own temp folder, in the sandbox.
fn default_path(format: Format) -> Result<String, ToolError> {
    let dir = temp_folder().map_err(|e| ToolError::refused(Code::PathOutsideSandbox, e))?;
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S%.3f");
    let name = match format {
        Format::Playwright => format!("recorded-{stamp}.spec.ts"),
        Format::Tabpilot => format!("recorded-{stamp}.jsonl"),
    };
    Ok(dir.join(name).to_string_lossy().into_owned())
}

async fn export(cx: &Ctx, a: ExportArgs) -> Result<Out<Exported>, ToolError> {
    let path = match a.file_path {
        Some(p) => p,
        None => default_path(a.format)?,
    };
    let file = cx.sandbox().await.output(&path)?;
    let (steps, dropped) = cx.recorder().recording();
    if steps.is_empty() {
        return Err(ToolError::refused(
            Code::NotFound,
            "nothing recorded yet: no page action in this session (or TABPILOT_RECORD=off)",
        ));
    }
    let mut text = record::render(&steps, a.format, &super::registry::recordable());
    let note = dropped.note();
    if let (Some(note), Format::Playwright) = (&note, a.format) {
        text.insert_str(0, &format!("// Not all here: {note}.\n"));
    }
    let path = file.write_off_runtime(text.into_bytes()).await?;
    let shown = path.display().to_string();
    let n = steps.len();
    let said = note.map(|n| format!(" (not all: {n})")).unwrap_or_default();
    Ok(Out::new(
        format!("Wrote {n} steps to {shown}{said}"),
        Exported {
            path: shown,
            steps: n,
            dropped: dropped.oldest + dropped.too_big,
        },
    ))
}
