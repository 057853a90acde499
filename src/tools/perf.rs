//! browser_perf_trace: the page's Core Web Vitals and long frames, and its JS heap over time,
//! read from the page itself without the debugger; or a full DevTools trace to a file, the one
//! action that attaches the debugger.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::args::read_only;
use super::ctx::Ctx;
use super::spec::{Cli, Out};
use super::tool::{About, Tool};
use crate::error::{Code, ToolError};
use crate::policy::paths::Sandbox;
use crate::protocol::Op;

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
            description: "Web vitals (LCP, CLS, INP, FCP, TTFB, long frames) of this agent's page; memory: heap trend; trace: DevTools trace file (debugger).",
            hints: read_only(),
            cli: Cli {
                positional: &["action"],
                ..Cli::default()
            },
        },
        |cx, a| perf(cx, a).boxed(),
    )]
}

/// Bounds of `durationMs`: (default, least, most).
const MEMORY_MS: (u64, u64, u64) = (5_000, 1_000, 60_000);
const TRACE_MS: (u64, u64, u64) = (3_000, 500, 15_000);
/// After a reload's load, for what a page does just after it (a late shift, a late image).
const SETTLE_MS: u64 = 1_000;
/// Samples a memory call aims at; never more often than every MIN_EVERY_MS.
const SAMPLES: u64 = 100;
const MIN_EVERY_MS: u64 = 250;

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
            let file = Sandbox::from_process().output(a.file_path.as_deref().unwrap_or(""))?;
            trace(cx, ms, file).await
        }
    }
}

// ---- vitals

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(rename_all = "kebab-case")]
enum Rating {
    Good,
    NeedsImprovement,
    Poor,
}

impl Rating {
    /// The standard thresholds: good up to `good`, poor above `poor`.
    fn of(value: f64, (good, poor): (f64, f64)) -> Rating {
        if value <= good {
            Rating::Good
        } else if value <= poor {
            Rating::NeedsImprovement
        } else {
            Rating::Poor
        }
    }

    fn word(self) -> &'static str {
        match self {
            Rating::Good => "good",
            Rating::NeedsImprovement => "needs improvement",
            Rating::Poor => "poor",
        }
    }
}

/// An element as the page named it: the ref a snapshot gives, and a short description.
#[derive(Serialize, Deserialize, JsonSchema, Clone)]
struct Named {
    #[serde(rename = "ref")]
    reference: String,
    element: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Breakdown {
    ttfb_ms: f64,
    load_delay_ms: f64,
    load_time_ms: f64,
    render_delay_ms: f64,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Lcp {
    #[serde(skip_serializing)]
    ms: f64,
    #[serde(flatten)]
    element: Option<Named>,
    /// The image's address, for an image.
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    breakdown: Option<Breakdown>,
}

#[derive(Deserialize)]
struct Cls {
    value: f64,
    shifts: usize,
    shifted: Vec<Named>,
}

#[derive(Deserialize)]
struct Inp {
    ms: f64,
    event: String,
    interactions: usize,
    #[serde(flatten)]
    target: Option<Named>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Script {
    invoker: String,
    source: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    function: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    duration_ms: Option<f64>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct LongFrame {
    start_ms: f64,
    duration_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blocking_ms: Option<f64>,
    scripts: Vec<Script>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Supported {
    lcp: bool,
    cls: bool,
    inp: bool,
}

/// What page/vitals.js reads from the page's buffers.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VitalsReply {
    url: String,
    /// When the page was first hidden (ms from its start), if it was.
    hidden_at: Option<f64>,
    supported: Supported,
    ttfb: Option<f64>,
    fcp: Option<f64>,
    lcp: Option<Lcp>,
    cls: Option<Cls>,
    inp: Option<Inp>,
    long_frames: Vec<LongFrame>,
    long_frames_kind: Option<String>,
}

/// One metric: its value and rating, or why the page did not produce it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Metric {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<Rating>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Vitals {
    url: String,
    reloaded: bool,
    /// LCP, CLS, INP, FCP, TTFB (ms; CLS unitless).
    metrics: Vec<Metric>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lcp: Option<Lcp>,
    /// The elements the layout shifts that make up CLS moved.
    shifted: Vec<Named>,
    /// Frames (or tasks) over 50 ms, longest first.
    long_frames: Vec<LongFrame>,
}

const HIDDEN: &str = "the tab was in the background when this page loaded, and Chromium draws no hidden page; \
     bring it to front (browser_new_tab {url, active: true}) and call browser_perf_trace {reload: true}";
const UNSUPPORTED: &str = "this browser does not report it";
const NO_INPUT: &str = "no interaction the browser measured: the agent's clicks and keys are synthetic events, \
     which Event Timing leaves out; only a person's input counts";

impl VitalsReply {
    /// Why a painted metric (FCP, LCP) is missing.
    fn unpainted(&self) -> String {
        match self.hidden_at {
            Some(t) if t <= 0.0 => HIDDEN.to_string(),
            Some(t) => format!("the page went to the background at {t:.0} ms, before it drew it"),
            None => "the page has drawn no text or image yet".to_string(),
        }
    }

    fn metrics(&self) -> Vec<Metric> {
        let rated = |name, value: Option<f64>, limits, missing: String| Metric {
            name,
            value,
            rating: value.map(|v| Rating::of(v, limits)),
            missing: value.is_none().then_some(missing),
        };
        let hidden_from_start = self.hidden_at.is_some_and(|t| t <= 0.0);
        let cls = match (&self.cls, hidden_from_start) {
            (None, _) => None,
            (Some(c), false) => Some(c.value),
            // No shift is measured in a page never drawn: that is not a CLS of 0.
            (Some(_), true) => None,
        };
        let why = |supported: bool, reason: String| {
            if supported {
                reason
            } else {
                UNSUPPORTED.to_string()
            }
        };
        vec![
            rated(
                "LCP",
                self.lcp.as_ref().map(|l| l.ms),
                (2500.0, 4000.0),
                why(self.supported.lcp, self.unpainted()),
            ),
            rated(
                "CLS",
                cls,
                (0.1, 0.25),
                why(self.supported.cls, HIDDEN.to_string()),
            ),
            rated(
                "INP",
                self.inp.as_ref().map(|i| i.ms),
                (200.0, 500.0),
                why(self.supported.inp, NO_INPUT.to_string()),
            ),
            rated("FCP", self.fcp, (1800.0, 3000.0), self.unpainted()),
            rated(
                "TTFB",
                self.ttfb,
                (800.0, 1800.0),
                "no navigation timing for this document".to_string(),
            ),
        ]
    }
}

/// The lines of a vitals result after its first.
fn vitals_lines(r: &VitalsReply, metrics: &[Metric]) -> Vec<String> {
    let refd = |n: &Named| format!("{} [ref={}]", n.element, n.reference);
    let mut lines = Vec::new();
    for m in metrics {
        let (Some(v), Some(rating)) = (m.value, m.rating) else {
            let why = m.missing.as_deref().unwrap_or_default();
            lines.push(format!("{} missing: {why}", m.name));
            continue;
        };
        let value = if m.name == "CLS" {
            format!("{v:.4}")
        } else {
            format!("{v:.0} ms")
        };
        let mut line = format!("{} {value} {}", m.name, rating.word());
        match m.name {
            "LCP" => {
                let lcp = r.lcp.as_ref().expect("an LCP value comes with its entry");
                let what = lcp
                    .element
                    .as_ref()
                    .map_or("an element since removed".into(), refd);
                line.push_str(&format!(": {what}"));
                if let Some(url) = &lcp.url {
                    line.push_str(&format!(" ({url})"));
                }
                if let Some(b) = &lcp.breakdown {
                    line.push_str(&format!(
                        "; first byte {:.0} ms, load delay {:.0} ms, load time {:.0} ms, render delay {:.0} ms",
                        b.ttfb_ms, b.load_delay_ms, b.load_time_ms, b.render_delay_ms
                    ));
                }
            }
            "CLS" => {
                let c = r.cls.as_ref().expect("a CLS value comes with its shifts");
                if c.shifts == 0 {
                    line.push_str(": no layout shift");
                } else {
                    let moved: Vec<String> = c.shifted.iter().map(refd).collect();
                    let moved = if moved.is_empty() {
                        "elements since removed".to_string()
                    } else {
                        moved.join(", ")
                    };
                    line.push_str(&format!(": {} shift(s) moved {moved}", c.shifts));
                }
            }
            "INP" => {
                let i = r
                    .inp
                    .as_ref()
                    .expect("an INP value comes with its interaction");
                let on = i.target.as_ref().map(refd).unwrap_or_default();
                line.push_str(&format!(
                    ": {} {on}, worst of {} interaction(s) the browser kept (over 104 ms, and the first)",
                    i.event, i.interactions
                ));
            }
            _ => {}
        }
        lines.push(line);
    }
    let kind = match r.long_frames_kind.as_deref() {
        Some("longtask") => "long task(s)",
        _ => "long animation frame(s)",
    };
    match r.long_frames.first() {
        None if r.long_frames_kind.is_none() => {
            lines.push("Long frames: this browser does not report them".into())
        }
        None => lines.push(format!("No {kind} over 50 ms")),
        Some(f) => {
            let blocking = f
                .blocking_ms
                .map(|b| format!(", blocking {b:.0} ms"))
                .unwrap_or_default();
            let mut line = format!(
                "{} {kind} over 50 ms; the longest {:.0} ms at {:.0} ms{blocking}",
                r.long_frames.len(),
                f.duration_ms,
                f.start_ms
            );
            let scripts: Vec<String> = f
                .scripts
                .iter()
                .map(|s| {
                    let name = if s.function.is_empty() {
                        &s.invoker
                    } else {
                        &s.function
                    };
                    if s.source.is_empty() {
                        name.clone()
                    } else {
                        format!("{name} ({})", s.source)
                    }
                })
                .collect();
            if !scripts.is_empty() {
                line.push_str(&format!(": {}", scripts.join(", ")));
            }
            if f.scripts
                .iter()
                .any(|s| s.source.is_empty() && s.invoker.starts_with("TimerHandler"))
            {
                line.push_str(" (a timer's source is hidden: tabpilot's wait observer wraps the page's timers)");
            }
            lines.push(line);
        }
    }
    lines
}

async fn vitals(cx: &Ctx, reload: bool) -> Result<Out<PerfOut>, ToolError> {
    let mut settle = 0;
    if reload {
        let call = json!({"reload": true, "after": {}});
        let _: Value = cx.page(Op::Navigate, call, Duration::from_secs(30)).await?;
        settle = SETTLE_MS;
    }
    let r: VitalsReply = cx
        .page(
            Op::Vitals,
            json!({"settleMs": settle}),
            Duration::from_secs(30),
        )
        .await?;
    let metrics = r.metrics();
    let fresh = if reload { " after a reload" } else { "" };
    let mut text = format!(
        "Web vitals of {}{fresh}, from the page's own performance buffers (no debugger):",
        r.url
    );
    for line in vitals_lines(&r, &metrics) {
        text.push_str("\n- ");
        text.push_str(&line);
    }
    let shifted = r
        .cls
        .as_ref()
        .map(|c| c.shifted.clone())
        .unwrap_or_default();
    let vitals = Vitals {
        url: r.url,
        reloaded: reload,
        metrics,
        lcp: r.lcp,
        shifted,
        long_frames: r.long_frames,
    };
    Ok(Out::new(
        text,
        PerfOut {
            vitals: Some(vitals),
            ..PerfOut::default()
        },
    ))
}

// ---- memory

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MemoryReply {
    supported: bool,
    #[serde(default)]
    samples: Vec<(f64, f64)>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Memory {
    /// [ms since the first sample, used JS heap in MB].
    samples: Vec<(f64, f64)>,
    /// Least-squares slope of the heap over time.
    trend_mb_per_s: Option<f64>,
    asked_every_ms: u64,
    /// The mean time between samples actually achieved.
    every_ms: Option<f64>,
}

/// The least-squares slope of y over x; None for fewer than two distinct x.
fn slope(points: &[(f64, f64)]) -> Option<f64> {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let (num, den) = points.iter().fold((0.0, 0.0), |(num, den), (x, y)| {
        (num + (x - mx) * (y - my), den + (x - mx) * (x - mx))
    });
    (den > 0.0).then(|| num / den)
}

async fn memory(cx: &Ctx, duration_ms: u64) -> Result<Out<PerfOut>, ToolError> {
    let every = (duration_ms / SAMPLES).max(MIN_EVERY_MS);
    let call = json!({"durationMs": duration_ms, "everyMs": every});
    let wait = Duration::from_millis(duration_ms) + Duration::from_secs(15);
    let r: MemoryReply = cx.page(Op::Memory, call, wait).await?;
    if !r.supported {
        return Err(ToolError::refused(
            Code::AdvancedModeRequired,
            "this browser gives pages no heap figure (performance.memory)",
        ));
    }
    let samples: Vec<(f64, f64)> = r
        .samples
        .iter()
        .map(|&(ms, bytes)| (ms, (bytes / 1e4).round() / 100.0))
        .collect();
    let mb_per_ms = slope(
        &r.samples
            .iter()
            .map(|&(t, b)| (t, b / 1e6))
            .collect::<Vec<_>>(),
    );
    let trend = mb_per_ms.map(|s| (s * 1e6).round() / 1e3);
    let span = samples.last().map_or(0.0, |s| s.0);
    let achieved = (samples.len() > 1).then(|| (span / (samples.len() - 1) as f64).round());
    let (first, last) = (
        samples.first().map_or(0.0, |s| s.1),
        samples.last().map_or(0.0, |s| s.1),
    );
    let mut text = format!(
        "JS heap: {} samples over {:.1} s, one every {} ms (asked {every} ms; a background tab is throttled); \
         {first:.2} -> {last:.2} MB",
        samples.len(),
        span / 1000.0,
        achieved.map_or("-".into(), |a| format!("{a:.0}")),
    );
    match trend {
        Some(t) => text.push_str(&format!(", trend {t:+.3} MB/s")),
        None => text.push_str(", too few samples for a trend"),
    }
    if samples.windows(2).all(|w| w[0].1 == w[1].1) {
        text.push_str(
            ". The figure never moved: Chromium rounds performance.memory and refreshes it rarely unless started \
             with --enable-precise-memory-info",
        );
    }
    text.push_str(
        ". A rising heap is not proof of a leak (the collector runs when it likes): repeat the action and compare.",
    );
    let memory = Memory {
        samples,
        trend_mb_per_s: trend,
        asked_every_ms: every,
        every_ms: achieved,
    };
    Ok(Out::new(
        text,
        PerfOut {
            memory: Some(memory),
            ..PerfOut::default()
        },
    ))
}

// ---- trace

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TraceOut {
    file_path: String,
    events: usize,
    duration_ms: u64,
}

#[derive(Deserialize)]
struct TraceReply {
    trace: String,
}

async fn trace(
    cx: &Ctx,
    duration_ms: u64,
    file: crate::policy::paths::OutputFile,
) -> Result<Out<PerfOut>, ToolError> {
    let wait = Duration::from_millis(duration_ms) + Duration::from_secs(60);
    let r: TraceReply = cx
        .page(Op::Trace, json!({"durationMs": duration_ms}), wait)
        .await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_follow_the_standard_thresholds() {
        let lcp = (2500.0, 4000.0);
        assert_eq!(Rating::of(2500.0, lcp), Rating::Good);
        assert_eq!(Rating::of(2501.0, lcp), Rating::NeedsImprovement);
        assert_eq!(Rating::of(4001.0, lcp), Rating::Poor);
        assert_eq!(Rating::of(0.1, (0.1, 0.25)), Rating::Good);
        assert_eq!(Rating::of(0.3, (0.1, 0.25)), Rating::Poor);
    }

    #[test]
    fn the_trend_is_the_least_squares_slope() {
        let rising = [(0.0, 1.0), (1000.0, 3.0), (2000.0, 5.0)];
        assert!((slope(&rising).unwrap() - 0.002).abs() < 1e-12);
        assert_eq!(slope(&[(0.0, 1.0)]), None);
        assert_eq!(slope(&[(0.0, 1.0), (1000.0, 1.0)]), Some(0.0));
    }

    #[test]
    fn a_page_never_drawn_has_no_paint_metrics_and_no_cls_of_zero() {
        let r: VitalsReply = serde_json::from_value(json!({
            "url": "http://x/", "hiddenAt": 0, "hiddenNow": true,
            "supported": {"lcp": true, "cls": true, "inp": true},
            "ttfb": 4.0, "fcp": null, "cls": {"value": 0, "shifts": 0, "shifted": []},
            "longFrames": [], "longFramesKind": "long-animation-frame"
        }))
        .unwrap();
        let m = r.metrics();
        let by = |n: &str| m.iter().find(|x| x.name == n).unwrap();
        for name in ["LCP", "CLS", "FCP"] {
            assert_eq!(by(name).value, None, "{name}");
            assert!(by(name).missing.as_deref().unwrap().contains("background"));
        }
        assert!(by("INP").missing.as_deref().unwrap().contains("synthetic"));
        assert_eq!(by("TTFB").rating, Some(Rating::Good));
    }
}
