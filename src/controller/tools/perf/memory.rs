//! The heap of browser_perf_trace's `memory`: samples taken on the service worker's clock and
//! their least-squares trend.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::PerfOut;
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::Out;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::diagnostics as wire;

/// Samples a memory call aims at; never more often than every MIN_EVERY_MS.
const SAMPLES: u64 = 100;
const MIN_EVERY_MS: u64 = 250;

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Memory {
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

pub(super) async fn memory(cx: &Ctx, duration_ms: u64) -> Result<Out<PerfOut>, ToolError> {
    let every = (duration_ms / SAMPLES).max(MIN_EVERY_MS);
    let call = wire::Memory {
        duration_ms,
        every_ms: every,
    };
    let wait = Duration::from_millis(duration_ms) + Duration::from_secs(15);
    let r = cx.run(call).within(wait).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trend_is_the_least_squares_slope() {
        let rising = [(0.0, 1.0), (1000.0, 3.0), (2000.0, 5.0)];
        assert!((slope(&rising).unwrap() - 0.002).abs() < 1e-12);
        assert_eq!(slope(&[(0.0, 1.0)]), None);
        assert_eq!(slope(&[(0.0, 1.0), (1000.0, 1.0)]), Some(0.0));
    }
}
