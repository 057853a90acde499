//! browser_perf_trace: the page's Core Web Vitals and long frames, and its JS heap over time,
//! read from the page itself without the debugger; or a full DevTools trace to a file, the one
//! action that attaches the debugger.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod causes;
mod memory;
mod vitals;

use memory::{Memory, memory};
use vitals::{Vitals, vitals};

use super::args::read_only;
use super::ctx::Ctx;
use super::spec::{Cli, Out};
use super::tool::{About, Tool};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::diagnostics::Trace;

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
enum Action {
    #[default]
    Vitals,
    Memory,
    Trace,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PerfArgs {
    /// vitals (default), memory, or trace (uses the debugger).
    action: Option<Action>,
    /// vitals: reload first, measure the fresh load.
    reload: Option<bool>,
    /// memory, trace: how long (ms).
    duration_ms: Option<u64>,
    /// trace: the file to write.
    file_path: Option<String>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_perf_trace",
            description: "Web vitals (LCP, CLS, INP, FCP, TTFB, long frames) of your page; memory: heap trend; trace: DevTools trace file.",
            hints: read_only(),
            cli: Cli {
                positional: &["action"],
                ..Cli::default()
            },
            ..About::default()
        },
        |cx, a| perf(cx, a).boxed(),
    )]
}

/// Bounds of `durationMs`: (default, least, most).
const MEMORY_MS: (u64, u64, u64) = (5_000, 1_000, 60_000);
const TRACE_MS: (u64, u64, u64) = (3_000, 500, 15_000);

#[derive(Serialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
struct PerfOut {
    /// The debugger was attached (trace only; Chrome showed its banner).
    debugger: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    vitals: Option<Vitals>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory: Option<Memory>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<TraceOut>,
}

fn duration(a: &PerfArgs, (default, least, most): (u64, u64, u64)) -> Result<u64, ToolError> {
    match a.duration_ms.unwrap_or(default) {
        ms if (least..=most).contains(&ms) => Ok(ms),
        _ => Err(ToolError::bad_args(format!(
            "durationMs is {least}-{most} for this action"
        ))),
    }
}

async fn perf(cx: &Ctx, a: PerfArgs) -> Result<Out<PerfOut>, ToolError> {
    let action = a.action.unwrap_or_default();
    let misplaced = match action {
        Action::Vitals => a.duration_ms.is_some() || a.file_path.is_some(),
        Action::Memory => a.reload.is_some() || a.file_path.is_some(),
        Action::Trace => a.reload.is_some() || a.file_path.is_none(),
    };
    if misplaced {
        return Err(ToolError::bad_args(
            "reload goes with vitals, durationMs with memory or trace, filePath (required) with trace",
        ));
    }
    match action {
        Action::Vitals => vitals(cx, a.reload.unwrap_or(false)).await,
        Action::Memory => memory(cx, duration(&a, MEMORY_MS)?).await,
        Action::Trace => {
            let ms = duration(&a, TRACE_MS)?;
            let file = cx
                .sandbox()
                .await
                .output(a.file_path.as_deref().unwrap_or(""))?;
            trace(cx, ms, file).await
        }
    }
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TraceOut {
    file_path: String,
    events: usize,
    duration_ms: u64,
}

async fn trace(
    cx: &Ctx,
    duration_ms: u64,
    file: crate::controller::policy::paths::OutputFile,
) -> Result<Out<PerfOut>, ToolError> {
    let wait = Duration::from_millis(duration_ms) + Duration::from_secs(60);
    let r = cx.run(Trace { duration_ms }).within(wait).await?;
    let events = serde_json::from_str::<Value>(&r.trace)
        .ok()
        .and_then(|t| t["traceEvents"].as_array().map(Vec::len))
        .ok_or_else(|| {
            ToolError::failed(
                Code::Internal,
                "the browser's trace is not DevTools JSON with traceEvents",
            )
        })?;
    let path = file.write(r.trace.as_bytes())?.display().to_string();
    let text = format!(
        "Saved a {:.1} s trace ({events} events) to {path}; open it in DevTools' Performance panel. \
         The debugger was attached for the trace (Chrome showed its banner), and detached after.",
        duration_ms as f64 / 1000.0
    );
    let trace = TraceOut {
        file_path: path,
        events,
        duration_ms,
    };
    Ok(Out::new(
        text,
        PerfOut {
            debugger: true,
            trace: Some(trace),
            ..PerfOut::default()
        },
    ))
}
