//! Reading this agent's page: the lean snapshot with refs, and the main content as text.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::read_only;
use super::ctx::Ctx;
use super::spec::{Cli, Out};
use super::tool::{About, Tool};
use crate::error::ToolError;
use crate::policy::paths::Sandbox;
use crate::protocol::Op;

const READ_MAX_CHARS: usize = 20_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SnapshotArgs {
    /// All text and structure, not just what is interactive; same refs.
    verbose: Option<bool>,
    /// Write the snapshot to this file and answer with a summary.
    file_path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReadArgs {
    /// markdown (default) or text.
    format: Option<ReadFormat>,
    /// Cap on returned characters (default 20000).
    max_chars: Option<usize>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ReadFormat {
    Markdown,
    Text,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_snapshot",
                description: "Lean outline of the page and its frames: interactive elements with refs, headings, landmarks, short text.",
                hints: read_only(),
                cli: Cli::default(),
            },
            |cx, a| snapshot(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_read_page",
                description: "The page's main content as Markdown or text, capped.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["read"],
                    ..Cli::default()
                },
            },
            |cx, a| read(cx, a).boxed(),
        ),
    ]
}

/// What the extension answers a snapshot with.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotReply {
    text: String,
    refs: u64,
    capped: bool,
    #[serde(default)]
    frames: u64,
    #[serde(default)]
    frames_capped: bool,
    url: String,
    title: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SnapshotOut {
    url: String,
    title: String,
    refs: u64,
    capped: bool,
    frames_capped: bool,
    /// The snapshot, unless it went to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_path: Option<String>,
}

async fn snapshot(cx: &Ctx, a: SnapshotArgs) -> Result<Out<SnapshotOut>, ToolError> {
    // The file is checked and opened before the page is asked, so a bad path acts on nothing.
    let file = a
        .file_path
        .as_deref()
        .map(|p| Sandbox::from_process().output(p))
        .transpose()?;
    let verbose = a.verbose.unwrap_or(false);
    let snap: SnapshotReply = cx
        .page(
            Op::Snapshot,
            json!({"verbose": verbose}),
            Duration::from_secs(30),
        )
        .await?;
    let (url, title) = (&snap.url, &snap.title);
    let mut notes = Vec::new();
    if snap.capped {
        notes.push("(cut at the node limit; read the rest with browser_read_page)".to_string());
    }
    if snap.frames_capped {
        notes.push(format!(
            "(only the first 10 of {} frames were walked)",
            snap.frames
        ));
    }
    let mut data = SnapshotOut {
        url: url.clone(),
        title: title.clone(),
        refs: snap.refs,
        capped: snap.capped,
        frames_capped: snap.frames_capped,
        snapshot: None,
        file_path: None,
    };
    if let Some(file) = file {
        let path = file.write(format!("Page: {url} \"{title}\"\n{}\n", snap.text).as_bytes())?;
        let text = format!(
            "Wrote the {} snapshot of {url} ({} lines, {} refs) to {} {}",
            if verbose { "verbose" } else { "lean" },
            snap.text.lines().count(),
            snap.refs,
            path.display(),
            notes.join(" ")
        );
        data.file_path = Some(path.display().to_string());
        return Ok(Out::new(text.trim_end().to_string(), data));
    }
    let mut text = format!("Page: {url} \"{title}\"\n{}", snap.text);
    for note in &notes {
        text.push('\n');
        text.push_str(note);
    }
    data.snapshot = Some(snap.text);
    Ok(Out::new(text, data))
}

/// What the extension answers a read with.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadReply {
    content: String,
    truncated: bool,
    total_chars: u64,
    url: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ReadOut {
    content: String,
    truncated: bool,
    total_chars: u64,
    url: String,
    format: ReadFormat,
}

async fn read(cx: &Ctx, a: ReadArgs) -> Result<Out<ReadOut>, ToolError> {
    let max = a.max_chars.unwrap_or(READ_MAX_CHARS);
    if max == 0 || max > 500_000 {
        return Err(ToolError::bad_args("maxChars must be between 1 and 500000"));
    }
    let format = a.format.unwrap_or(ReadFormat::Markdown);
    let r: ReadReply = cx
        .page(
            Op::Read,
            json!({"format": format, "maxChars": max}),
            Duration::from_secs(15),
        )
        .await?;
    let mut text = r.content.clone();
    if r.truncated {
        text.push_str(&format!(
            "\n\n[cut at {max} of {} characters; raise maxChars to read more]",
            r.total_chars
        ));
    }
    let data = ReadOut {
        content: r.content,
        truncated: r.truncated,
        total_chars: r.total_chars,
        url: r.url,
        format,
    };
    Ok(Out::new(text, data))
}
