//! The web vitals of browser_perf_trace: what page/vitals.js read, rated, and said in words,
//! a metric the page did not produce named as missing with the reason.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::PerfOut;
use super::causes::{Cause, Evidence, blocking_line, lcp_causes};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::Out;
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::act::After;
use crate::shared::protocol::wire::diagnostics::{
    self as wire, Cls, Inp, Lcp, LongFrame, Named, RenderBlocking, VitalsReply,
};
use crate::shared::protocol::wire::nav::Navigate;

/// After a reload's load, for what a page does just after it (a late shift, a late image).
const SETTLE_MS: u64 = 1_000;

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
    /// What the page says caused the value (its element, its interaction), read from the same
    /// entry as the value: `: ...` after it in the line, or nothing.
    #[serde(skip)]
    cause: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Vitals {
    url: String,
    reloaded: bool,
    /// LCP, CLS, INP, FCP, TTFB (ms; CLS unitless).
    metrics: Vec<Metric>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lcp: Option<Lcp>,
    /// The subparts of the LCP that stand out, with their cause and fix.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lcp_causes: Vec<Cause>,
    /// The resources that held the first render (none where the browser does not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    render_blocking: Option<RenderBlocking>,
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
        // A value comes with its cause, from one entry: there is no value without it.
        let rated = |name, measured: Option<(f64, String)>, limits, missing: String| {
            let (value, cause) = measured.unzip();
            Metric {
                name,
                value,
                rating: value.map(|v| Rating::of(v, limits)),
                missing: value.is_none().then_some(missing),
                cause: cause.unwrap_or_default(),
            }
        };
        let plain = |value: Option<f64>| value.map(|v| (v, String::new()));
        let hidden_from_start = self.hidden_at.is_some_and(|t| t <= 0.0);
        let cls = match (&self.cls, hidden_from_start) {
            (None, _) => None,
            (Some(c), false) => Some((c.value, cls_cause(c))),
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
                self.lcp.as_ref().map(|l| (l.ms, lcp_cause(l))),
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
                self.inp.as_ref().map(|i| (i.ms, inp_cause(i))),
                (200.0, 500.0),
                why(self.supported.inp, NO_INPUT.to_string()),
            ),
            rated("FCP", plain(self.fcp), (1800.0, 3000.0), self.unpainted()),
            rated(
                "TTFB",
                plain(self.ttfb),
                (800.0, 1800.0),
                "no navigation timing for this document".to_string(),
            ),
        ]
    }
}

/// The lines of a vitals result after its first: one per metric, the LCP's causes after its
/// own, then the long frames and the render-blocking resources.
fn vitals_lines(r: &VitalsReply, metrics: &[Metric], causes: &[Cause]) -> Vec<String> {
    let mut lines = Vec::new();
    for m in metrics {
        lines.push(metric_line(m));
        if m.name == "LCP" {
            lines.extend(causes.iter().map(Cause::line));
        }
    }
    lines.push(long_frames_line(r));
    if let Some(rb) = &r.render_blocking {
        lines.push(blocking_line(rb, &r.url, r.ttfb, r.fcp));
    }
    lines
}

fn named(n: &Named) -> String {
    format!("{} [ref={}]", n.element, n.reference)
}

/// One metric: its value and rating, and what the page says caused it.
fn metric_line(m: &Metric) -> String {
    let (Some(v), Some(rating)) = (m.value, m.rating) else {
        let why = m.missing.as_deref().unwrap_or_default();
        return format!("{} missing: {why}", m.name);
    };
    let value = if m.name == "CLS" {
        format!("{v:.4}")
    } else {
        format!("{v:.0} ms")
    };
    format!("{} {value} {}{}", m.name, rating.word(), m.cause)
}

/// The largest contentful paint's element, image and phases.
fn lcp_cause(lcp: &Lcp) -> String {
    let what = lcp
        .element
        .as_ref()
        .map_or("an element since removed".into(), named);
    let mut cause = format!(": {what}");
    if let Some(url) = &lcp.url {
        cause.push_str(&format!(" ({url})"));
    }
    if let Some(b) = &lcp.breakdown {
        cause.push_str(&format!(
            "; first byte {:.0} ms, load delay {:.0} ms, load time {:.0} ms, render delay {:.0} ms",
            b.ttfb_ms, b.load_delay_ms, b.load_time_ms, b.render_delay_ms
        ));
    }
    cause
}

/// The layout shifts and what they moved.
fn cls_cause(c: &Cls) -> String {
    if c.shifts == 0 {
        return ": no layout shift".into();
    }
    let moved: Vec<String> = c.shifted.iter().map(named).collect();
    let moved = if moved.is_empty() {
        "elements since removed".to_string()
    } else {
        moved.join(", ")
    };
    format!(": {} shift(s) moved {moved}", c.shifts)
}

/// The interaction that took longest, and on what.
fn inp_cause(i: &Inp) -> String {
    let on = i.target.as_ref().map(named).unwrap_or_default();
    format!(
        ": {} {on}, worst of {} interaction(s) the browser kept (over 104 ms, and the first)",
        i.event, i.interactions
    )
}

/// The long frames (or tasks): how many, and the longest with the scripts that ran in it.
fn long_frames_line(r: &VitalsReply) -> String {
    let kind = match r.long_frames_kind.as_deref() {
        Some("longtask") => "long task(s)",
        _ => "long animation frame(s)",
    };
    let Some(f) = r.long_frames.first() else {
        return match r.long_frames_kind {
            None => "Long frames: this browser does not report them".into(),
            Some(_) => format!("No {kind} over 50 ms"),
        };
    };
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
            if s.source.is_empty() || s.source == *name {
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
        line.push_str(
            " (a timer's source is hidden: tabpilot's wait observer wraps the page's timers)",
        );
    }
    line
}

pub(super) async fn vitals(cx: &Ctx, reload: bool) -> Result<Out<PerfOut>, ToolError> {
    let mut settle = 0;
    if reload {
        let call = Navigate::Reload {
            reload: true,
            ignore_cache: false,
            after: After::default(),
        };
        cx.run(call).within(Duration::from_secs(30)).await?;
        settle = SETTLE_MS;
    }
    let r = cx.run(wire::Vitals { settle_ms: settle }).await?;
    let metrics = r.metrics();
    let evidence = Evidence {
        blocking: r.render_blocking.as_ref(),
        frames: &r.long_frames,
        page: &r.url,
    };
    let causes = r
        .lcp
        .as_ref()
        .map(|l| lcp_causes(l, &evidence))
        .unwrap_or_default();
    let fresh = if reload { " after a reload" } else { "" };
    let mut text = format!(
        "Web vitals of {}{fresh}, from the page's own performance buffers (no debugger):",
        r.url
    );
    for line in vitals_lines(&r, &metrics, &causes) {
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
        lcp_causes: causes,
        render_blocking: r.render_blocking,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn a_page_never_drawn_has_no_paint_metrics_and_no_cls_of_zero() {
        let r: VitalsReply = serde_json::from_value(json!({
            "url": "http://x/", "hiddenAt": 0,
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
