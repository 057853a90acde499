//! Reading this agent's page: the lean snapshot with refs, and the main content as text.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{SNAPSHOT_TOKENS, read_only, ref_arg};
use super::ctx::Ctx;
use super::spec::{Cli, Out, Tier};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::page::{Read, ReadFormat, Snapshot, SnapshotReply};

const READ_MAX_CHARS: usize = 20_000;

const MIN_TOKENS: u64 = 200;
const MAX_TOKENS: u64 = 1_000_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SnapshotArgs {
    /// All text and structure; same refs.
    verbose: Option<bool>,
    /// Write it here; answer with a summary.
    file_path: Option<String>,
    /// Token budget (default 4000).
    max_tokens: Option<u64>,
    /// A "…" line's ref (and offset) expands it.
    #[serde(rename = "ref")]
    reference: Option<String>,
    offset: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReadArgs {
    /// markdown (default) or text.
    format: Option<ReadFormat>,
    /// Cap on returned characters (default 20000).
    max_chars: Option<usize>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_snapshot",
                description: "Lean outline of the page and its frames: interactive elements with refs, headings, landmarks, short text.",
                hints: read_only(),
                tier: Tier::Slim,
                ..About::default()
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
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a| read(cx, a).boxed(),
        ),
    ]
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SnapshotOut {
    url: String,
    title: String,
    refs: u64,
    capped: bool,
    /// Summary ("…") lines standing for what did not fit.
    collapsed: u64,
    frames_capped: bool,
    /// The snapshot, unless it went to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_path: Option<String>,
}

async fn snapshot(cx: &Ctx, a: SnapshotArgs) -> Result<Out<SnapshotOut>, ToolError> {
    // The file is checked and opened before the page is asked, so a bad path acts on nothing.
    let file = match a.file_path.as_deref() {
        Some(p) => Some(cx.sandbox().await.output(p)?),
        None => None,
    };
    let verbose = a.verbose.unwrap_or(false);
    let budget = budget(&a, file.is_some())?;
    let call = Snapshot {
        verbose,
        max_tokens: budget,
        reference: a.reference.clone(),
        offset: a.offset,
    };
    let snap = cx.run(call).await?;
    // The page's whole lean snapshot is what a later `include: "diff"` compares with.
    if let (Some(budget), false, None, None) = (budget, verbose, &a.reference, &file) {
        cx.remember_snapshot(budget, &snap.text);
    }
    let (url, title) = (&snap.url, &snap.title);
    let notes = notes(&snap, budget, a.reference.is_some());
    let mut data = SnapshotOut {
        url: url.clone(),
        title: title.clone(),
        refs: snap.refs,
        capped: snap.capped,
        collapsed: snap.collapsed,
        frames_capped: snap.frames_capped,
        snapshot: None,
        file_path: None,
    };
    if let Some(file) = file {
        let whole = format!("Page: {url} \"{title}\"\n{}\n", snap.text);
        let path = file.write_off_runtime(whole.into_bytes()).await?;
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

/// The budget a snapshot is held to: the caller's, checked; none when the caller asked for all
/// the text or for a file; else the default. A region's ref is checked here too.
fn budget(a: &SnapshotArgs, to_file: bool) -> Result<Option<u64>, ToolError> {
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    } else if a.offset.is_some() {
        return Err(ToolError::bad_args(
            "offset goes with ref: the ref and offset of a \"…\" line",
        ));
    }
    match a.max_tokens {
        Some(n) if !(MIN_TOKENS..=MAX_TOKENS).contains(&n) => Err(ToolError::bad_args(format!(
            "maxTokens must be between {MIN_TOKENS} and {MAX_TOKENS}"
        ))),
        Some(n) => Ok(Some(n)),
        None if a.verbose == Some(true) || to_file => Ok(None),
        None => Ok(Some(SNAPSHOT_TOKENS)),
    }
}

/// What a snapshot's reader should know besides its lines: what was summed up, cut or left out.
fn notes(snap: &SnapshotReply, budget: Option<u64>, region: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if snap.collapsed > 0 {
        notes.push(format!(
            "(Past {} tokens, \"…\" lines sum up the rest: browser_snapshot {{ref, offset}} \
             expands one; browser_find finds any element.)",
            budget.unwrap_or_default()
        ));
    }
    if region && snap.text.is_empty() {
        notes.push("(nothing of that region is shown on the page now)".to_string());
    }
    if snap.capped {
        notes.push("(cut at the node limit; read the rest with browser_read_page)".to_string());
    }
    if snap.frames_capped {
        notes.push(format!(
            "(only the first 10 of {} frames were walked)",
            snap.frames
        ));
    }
    notes
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
    let r = cx
        .run(Read {
            format,
            max_chars: max,
        })
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
