//! Why the LCP took as long as it did: the subparts of its breakdown that stand out, each with a
//! cause and a fix read from this page's own numbers (the element's attributes, how its image
//! was requested, the render-blocking resources, the long frames); and the line on the resources
//! that held the first render. Nothing stands out, nothing is said.

use schemars::JsonSchema;
use serde::Serialize;

use crate::shared::protocol::wire::diagnostics::{Blocking, Lcp, LongFrame, RenderBlocking};

/// A subpart stands out when it runs this far past its share of the LCP. The shares are
/// web.dev's guide to the LCP breakdown: about 40% each for the first byte and the image's load,
/// under 10% each for the two delays; text has no load, so what is not first byte may be 60%.
const STANDS_OUT_MS: f64 = 100.0;
const IMAGE_SHARES: [(Part, f64); 4] = [
    (Part::Ttfb, 0.4),
    (Part::LoadDelay, 0.1),
    (Part::LoadTime, 0.4),
    (Part::RenderDelay, 0.1),
];
const TEXT_SHARES: [(Part, f64); 2] = [(Part::Ttfb, 0.4), (Part::RenderDelay, 0.6)];
/// Cause lines at most, the subpart furthest past its share first.
const MAX_CAUSES: usize = 2;
/// Render-blocking resources named in a line; the rest are counted.
const MAX_NAMED: usize = 5;
/// Characters of an address in a line.
const URL_CHARS: usize = 80;

#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) enum Part {
    Ttfb,
    LoadDelay,
    LoadTime,
    RenderDelay,
}

impl Part {
    fn words(self) -> &'static str {
        match self {
            Part::Ttfb => "first byte",
            Part::LoadDelay => "load delay",
            Part::LoadTime => "load time",
            Part::RenderDelay => "render delay",
        }
    }
}

/// One subpart of the LCP that stands out: how long, its share, why, and what to do.
#[derive(Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) struct Cause {
    part: Part,
    ms: f64,
    /// Of the LCP, in percent.
    percent: f64,
    cause: String,
    fix: String,
}

impl Cause {
    pub(super) fn line(&self) -> String {
        format!(
            "LCP cause: {} {:.0} ms ({:.0}% of LCP): {}; fix: {}",
            self.part.words(),
            self.ms,
            self.percent,
            self.cause,
            self.fix
        )
    }
}

/// What the page measured besides the LCP itself, for the causes.
pub(super) struct Evidence<'a> {
    pub blocking: Option<&'a RenderBlocking>,
    pub frames: &'a [LongFrame],
    pub page: &'a str,
}

/// The subparts of the LCP's breakdown that run past their share by `STANDS_OUT_MS`, furthest
/// first, each with its cause and fix.
pub(super) fn lcp_causes(lcp: &Lcp, ev: &Evidence) -> Vec<Cause> {
    let Some(b) = &lcp.breakdown else {
        return Vec::new();
    };
    let total = b.ttfb_ms + b.load_delay_ms + b.load_time_ms + b.render_delay_ms;
    if total <= 0.0 {
        return Vec::new();
    }
    let ms = |p: Part| match p {
        Part::Ttfb => b.ttfb_ms,
        Part::LoadDelay => b.load_delay_ms,
        Part::LoadTime => b.load_time_ms,
        Part::RenderDelay => b.render_delay_ms,
    };
    let shares: &[(Part, f64)] = if lcp.url.is_some() {
        &IMAGE_SHARES
    } else {
        &TEXT_SHARES
    };
    let mut over: Vec<(f64, Part)> = shares
        .iter()
        .map(|&(p, share)| (ms(p) - share * total, p))
        .filter(|&(past, _)| past >= STANDS_OUT_MS)
        .collect();
    over.sort_by(|x, y| y.0.total_cmp(&x.0));
    over.into_iter()
        .take(MAX_CAUSES)
        .map(|(_, part)| {
            let (cause, fix) = match part {
                Part::Ttfb => (
                    "the page's first byte came late (redirects, the connection, the server's work)".into(),
                    "answer sooner: cache the page, serve it from nearer (a CDN), do less before the first byte".into(),
                ),
                Part::LoadDelay => load_delay(lcp),
                Part::LoadTime => (
                    "the LCP image is slow to download".into(),
                    "send fewer bytes (compress it, AVIF or WebP, a size that fits) or serve it from nearer".into(),
                ),
                Part::RenderDelay => render_delay(lcp, ev),
            };
            Cause {
                part,
                ms: ms(part),
                percent: (ms(part) / total * 100.0).round(),
                cause,
                fix,
            }
        })
        .collect()
}

/// Why the LCP image's request began late: how the page had it requested.
fn load_delay(lcp: &Lcp) -> (String, String) {
    let (cause, fix) = if lcp.loading.as_deref() == Some("lazy") {
        (
            "the LCP image has loading=lazy, so it is requested only after layout",
            "remove loading=lazy from it",
        )
    } else if lcp.initiator.as_deref() == Some("css") {
        (
            "the LCP image is a CSS background, requested only once its style applies",
            "preload it (<link rel=preload as=image fetchpriority=high>) or make it an <img> in the HTML",
        )
    } else if lcp.initiator.as_deref() == Some("link") {
        (
            "the LCP image is preloaded, but its request began that long after the first byte",
            "move its preload up the <head>, with fetchpriority=high",
        )
    } else {
        (
            "the LCP image is found late (added by script, or queued behind other requests)",
            "put it in the HTML as an <img> with fetchpriority=high, or preload it",
        )
    };
    (cause.into(), fix.into())
}

/// What held the LCP's paint once its content was there: the render-blocking resources that
/// finished later, or the long frames that ran meanwhile, whichever took longer.
fn render_delay(lcp: &Lcp, ev: &Evidence) -> (String, String) {
    let b = lcp
        .breakdown
        .as_ref()
        .expect("a render delay comes with a breakdown");
    // When the content was there to draw: the image loaded, or (text) the first byte.
    let ready = b.ttfb_ms + b.load_delay_ms + b.load_time_ms;
    let since = if lcp.url.is_some() {
        "the image loaded"
    } else {
        "the first byte"
    };
    let late: Vec<&Blocking> = ev
        .blocking
        .map(|rb| rb.resources.iter().filter(|r| r.end_ms > ready).collect())
        .unwrap_or_default();
    let held = late.first().map_or(0.0, |r| r.end_ms - ready);
    let shown = ready + b.render_delay_ms;
    // A long animation frame counts for its blocking time at most: one that only waited to be
    // drawn (on a stylesheet, say) blocked nothing. A long task has no such figure.
    let overlap = |f: &LongFrame| {
        let span = (f.start_ms + f.duration_ms).min(shown) - f.start_ms.max(ready);
        f.blocking_ms.map_or(span, |b| span.min(b))
    };
    let framed: Vec<(&LongFrame, f64)> = ev
        .frames
        .iter()
        .map(|f| (f, overlap(f)))
        .filter(|&(_, o)| o > 0.0)
        .collect();
    let in_frames: f64 = framed.iter().map(|(_, o)| o).sum();
    if held > 0.0 && held >= in_frames {
        blocked(&late, held, since, ev.page)
    } else if in_frames > 0.0 {
        busy(&framed, in_frames, ev.page)
    } else {
        (
            "the element was added, shown or restyled late (script, animation, a font)".into(),
            "have it in the HTML, visible, from the start".into(),
        )
    }
}

/// The render-blocking resources that finished after the LCP's content was there, last first.
fn blocked(late: &[&Blocking], held: f64, since: &str, page: &str) -> (String, String) {
    let names: Vec<String> = late
        .iter()
        .take(3)
        .map(|r| short_url(&r.url, page))
        .collect();
    let more = match late.len().saturating_sub(3) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let cause = format!(
        "render-blocking resources held the paint until {:.0} ms, {held:.0} ms after {since}: {}{more}",
        late[0].end_ms,
        names.join(", ")
    );
    let scripts = late.iter().any(|r| r.kind == "script");
    let styles = late.iter().any(|r| r.kind.starts_with("stylesheet"));
    let fix = match (styles, scripts) {
        (true, true) => {
            "inline the critical CSS and load the rest later; give the scripts defer or async"
        }
        (false, true) => "give the scripts defer or async, or inline what the first paint needs",
        _ => "inline the critical CSS and load the rest later (media, or preload then apply)",
    };
    (cause, fix.into())
}

/// The long frames that ran while the LCP's content waited to be drawn: how long in all, and the
/// longest with its scripts and how long they ran; when they ran under half of it, the rest was
/// the browser's own work (parsing, style, layout), and the fix is a cheaper page, not a script.
fn busy(framed: &[(&LongFrame, f64)], in_frames: f64, page: &str) -> (String, String) {
    let (longest, _) = framed
        .iter()
        .max_by(|x, y| x.0.duration_ms.total_cmp(&y.0.duration_ms))
        .expect("a frame ran meanwhile");
    let by: Vec<String> = longest
        .scripts
        .iter()
        .take(2)
        .map(|s| {
            let name = if s.function.is_empty() {
                short_url(&s.invoker, page)
            } else {
                s.function.clone()
            };
            match s.duration_ms {
                Some(ms) => format!("{name} {ms:.0} ms"),
                None => name,
            }
        })
        .collect();
    let by = if by.is_empty() {
        String::new()
    } else {
        format!(": {}", by.join(", "))
    };
    let timed: f64 = longest.scripts.iter().filter_map(|s| s.duration_ms).sum();
    // A long animation frame times its scripts; a long task does not.
    let own = longest.blocking_ms.is_some() && timed < longest.duration_ms / 2.0;
    let whose = if own {
        ", the browser's own work more than scripts"
    } else {
        ""
    };
    let cause = format!(
        "long frames ran {in_frames:.0} ms of it{whose}; the longest {:.0} ms at {:.0} ms{by}",
        longest.duration_ms, longest.start_ms
    );
    let fix = if own {
        "make the page cheaper to build: a smaller DOM, simpler CSS, less layout"
    } else {
        "split up or put off that script work"
    };
    (cause, fix.into())
}

/// The line on the resources that held the first render: how many, when the last was done, and
/// the last to finish, each with its kind, its time and when it was done.
pub(super) fn blocking_line(
    rb: &RenderBlocking,
    page: &str,
    ttfb: Option<f64>,
    fcp: Option<f64>,
) -> String {
    let Some(last) = rb.resources.first() else {
        return "No render-blocking resources".into();
    };
    let after = ttfb
        .map(|t| format!(", {:.0} ms after the first byte", last.end_ms - t))
        .unwrap_or_default();
    let fcp = fcp.map(|f| format!(" (FCP {f:.0} ms)")).unwrap_or_default();
    let named: Vec<String> = rb
        .resources
        .iter()
        .take(MAX_NAMED)
        .map(|r| {
            format!(
                "{} ({}, {:.0} ms, done at {:.0} ms)",
                short_url(&r.url, page),
                r.kind,
                r.end_ms - r.start_ms,
                r.end_ms
            )
        })
        .collect();
    let more = match rb.count.saturating_sub(named.len()) {
        0 => String::new(),
        n => format!(", and {n} more"),
    };
    format!(
        "Render-blocking: {}, the last done at {:.0} ms{after}{fcp}: {}{more}",
        rb.count,
        last.end_ms,
        named.join(", ")
    )
}

/// The origin of an address: its scheme and host, up to the path.
fn origin(url: &str) -> &str {
    let host = url.find("://").map_or(0, |i| i + 3);
    url[host..].find('/').map_or(url, |i| &url[..host + i])
}

/// An address as short as it reads: the path of one on the page's own origin, the host and path
/// of another, its middle cut past `URL_CHARS`.
fn short_url(url: &str, page: &str) -> String {
    let same = origin(url) == origin(page) && url.len() > origin(url).len();
    let short = if same {
        &url[origin(url).len()..]
    } else {
        url.split_once("://").map_or(url, |(_, rest)| rest)
    };
    let chars: Vec<char> = short.chars().collect();
    if chars.len() <= URL_CHARS {
        return short.to_string();
    }
    let head: String = chars[..URL_CHARS / 2].iter().collect();
    let tail: String = chars[chars.len() - (URL_CHARS / 2 - 1)..].iter().collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lcp(v: serde_json::Value) -> Lcp {
        serde_json::from_value(v).unwrap()
    }

    fn blocking(v: serde_json::Value) -> RenderBlocking {
        serde_json::from_value(v).unwrap()
    }

    const PAGE: &str = "http://127.0.0.1:8000/index.html";

    fn none() -> Evidence<'static> {
        Evidence {
            blocking: None,
            frames: &[],
            page: PAGE,
        }
    }

    fn image(ttfb: f64, delay: f64, load: f64, render: f64) -> serde_json::Value {
        json!({
            "ms": ttfb + delay + load + render, "url": "http://127.0.0.1:8000/hero.jpg",
            "initiator": "img",
            "breakdown": {"ttfbMs": ttfb, "loadDelayMs": delay, "loadTimeMs": load, "renderDelayMs": render}
        })
    }

    #[test]
    fn nothing_is_said_when_no_subpart_runs_past_its_share() {
        // web.dev's ideal: 40/10/40/10.
        assert!(lcp_causes(&lcp(image(400.0, 100.0, 400.0, 100.0)), &none()).is_empty());
        // Past its share, but by less than 100 ms: a fast page has nothing that stands out.
        assert!(lcp_causes(&lcp(image(10.0, 60.0, 20.0, 90.0)), &none()).is_empty());
        // No breakdown, nothing to go on.
        let mut no = lcp(image(10.0, 900.0, 20.0, 90.0));
        no.breakdown = None;
        assert!(lcp_causes(&no, &none()).is_empty());
    }

    #[test]
    fn a_late_found_image_is_a_load_delay_with_the_fix_its_attributes_call_for() {
        let c = lcp_causes(&lcp(image(20.0, 900.0, 50.0, 30.0)), &none());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].part, Part::LoadDelay);
        assert_eq!(c[0].percent, 90.0);
        let line = c[0].line();
        assert!(
            line.starts_with("LCP cause: load delay 900 ms (90% of LCP): "),
            "{line}"
        );
        assert!(line.contains("found late"), "{line}");
        assert!(line.contains("fetchpriority=high"), "{line}");

        let mut lazy = image(20.0, 900.0, 50.0, 30.0);
        lazy["loading"] = json!("lazy");
        let line = lcp_causes(&lcp(lazy), &none())[0].line();
        assert!(line.contains("remove loading=lazy"), "{line}");

        let mut background = image(20.0, 900.0, 50.0, 30.0);
        background["initiator"] = json!("css");
        let line = lcp_causes(&lcp(background), &none())[0].line();
        assert!(line.contains("CSS background"), "{line}");
        assert!(line.contains("rel=preload"), "{line}");
    }

    #[test]
    fn a_slow_server_and_a_slow_image_are_named_furthest_past_first() {
        let c = lcp_causes(&lcp(image(2000.0, 0.0, 1500.0, 0.0)), &none());
        // 3500 ms: first byte 600 ms past its 40%, load time 100 ms past.
        let parts: Vec<Part> = c.iter().map(|c| c.part).collect();
        assert_eq!(parts, [Part::Ttfb, Part::LoadTime]);
        assert!(c[0].line().contains("first byte 2000 ms (57% of LCP)"));
        assert!(c[1].line().contains("slow to download"));
    }

    #[test]
    fn a_render_delay_names_the_render_blocking_resources_that_finished_after_the_content() {
        let text = lcp(json!({
            "ms": 820.0,
            "breakdown": {"ttfbMs": 10.0, "loadDelayMs": 0.0, "loadTimeMs": 0.0, "renderDelayMs": 810.0}
        }));
        let rb = blocking(json!({"count": 2, "resources": [
            {"url": "http://127.0.0.1:8000/slow.css?delay=800", "kind": "stylesheet", "startMs": 12.0, "endMs": 815.0},
            {"url": "https://cdn.example/app.js", "kind": "script", "startMs": 12.0, "endMs": 40.0},
        ]}));
        let ev = Evidence {
            blocking: Some(&rb),
            frames: &[],
            page: PAGE,
        };
        let c = lcp_causes(&text, &ev);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].part, Part::RenderDelay);
        let line = c[0].line();
        assert!(
            line.contains("held the paint until 815 ms, 805 ms after the first byte: /slow.css?delay=800, cdn.example/app.js"),
            "{line}"
        );
        assert!(line.contains("give the scripts defer or async"), "{line}");
        // A text LCP of 820 ms whose render delay is 60%: nothing stands out.
        let quick = lcp(json!({
            "ms": 820.0,
            "breakdown": {"ttfbMs": 330.0, "loadDelayMs": 0.0, "loadTimeMs": 0.0, "renderDelayMs": 490.0}
        }));
        assert!(lcp_causes(&quick, &ev).is_empty());
    }

    #[test]
    fn a_render_delay_with_no_blocking_resource_names_the_long_frames_or_a_late_element() {
        let img = lcp(image(10.0, 10.0, 100.0, 500.0));
        let frames: Vec<LongFrame> = serde_json::from_value(json!([
            {"startMs": 150.0, "durationMs": 300.0, "scripts": [{"invoker": "TimerHandler", "source": "", "function": "busy"}]},
            {"startMs": 5.0, "durationMs": 60.0, "scripts": []},
        ]))
        .unwrap();
        let ev = Evidence {
            blocking: Some(&blocking(json!({"count": 0, "resources": []}))),
            frames: &frames,
            page: PAGE,
        };
        let line = lcp_causes(&img, &ev)[0].line();
        assert!(
            line.starts_with("LCP cause: render delay 500 ms (81% of LCP)"),
            "{line}"
        );
        assert!(
            line.contains("long frames ran 300 ms of it; the longest 300 ms at 150 ms: busy"),
            "{line}"
        );
        assert!(
            line.ends_with("fix: split up or put off that script work"),
            "{line}"
        );
        let line = lcp_causes(&img, &none())[0].line();
        assert!(line.contains("added, shown or restyled late"), "{line}");
        // A frame whose scripts ran a little of it: the browser's own work, named by its script.
        let parsing: Vec<LongFrame> = serde_json::from_value(json!([
            {"startMs": 130.0, "durationMs": 400.0, "blockingMs": 350.0, "scripts": [
                {"invoker": "http://127.0.0.1:8000/s/storage.js", "source": "", "durationMs": 3.0}]},
        ]))
        .unwrap();
        let ev = Evidence {
            blocking: None,
            frames: &parsing,
            page: PAGE,
        };
        let line = lcp_causes(&img, &ev)[0].line();
        let own = "long frames ran 350 ms of it, the browser's own work more than scripts; \
                   the longest 400 ms at 130 ms: /s/storage.js 3 ms; \
                   fix: make the page cheaper to build: a smaller DOM, simpler CSS, less layout";
        assert!(line.ends_with(own), "{line}");
        // A long animation frame that blocked nothing (it waited on a stylesheet) is no cause.
        let idle: Vec<LongFrame> = serde_json::from_value(json!([
            {"startMs": 130.0, "durationMs": 480.0, "blockingMs": 0.0, "scripts": []},
        ]))
        .unwrap();
        let ev = Evidence {
            blocking: None,
            frames: &idle,
            page: PAGE,
        };
        let line = lcp_causes(&img, &ev)[0].line();
        assert!(line.contains("added, shown or restyled late"), "{line}");
    }

    #[test]
    fn the_blocking_line_is_bounded_and_says_when_the_last_was_done() {
        let many: Vec<_> = (0..7)
            .map(|i| json!({"url": format!("{PAGE}/s{i}.css"), "kind": "stylesheet", "startMs": 10.0, "endMs": 100.0 - i as f64}))
            .collect();
        let rb = blocking(json!({"count": 9, "resources": many}));
        let line = blocking_line(&rb, PAGE, Some(10.0), Some(120.0));
        assert!(
            line.starts_with("Render-blocking: 9, the last done at 100 ms, 90 ms after the first byte (FCP 120 ms): /index.html/s0.css (stylesheet, 90 ms, done at 100 ms), "),
            "{line}"
        );
        assert!(
            line.ends_with("/index.html/s4.css (stylesheet, 86 ms, done at 96 ms), and 4 more"),
            "{line}"
        );
        let none = blocking(json!({"count": 0, "resources": []}));
        assert_eq!(
            blocking_line(&none, PAGE, Some(1.0), None),
            "No render-blocking resources"
        );
    }

    #[test]
    fn addresses_are_shortened_to_what_tells_them_apart() {
        assert_eq!(short_url("http://127.0.0.1:8000/a.css", PAGE), "/a.css");
        assert_eq!(
            short_url("https://cdn.example/x/a.css", PAGE),
            "cdn.example/x/a.css"
        );
        let long = format!("https://cdn.example/{}", "p".repeat(200));
        let short = short_url(&long, PAGE);
        assert_eq!(short.chars().count(), URL_CHARS);
        assert!(short.starts_with("cdn.example/") && short.contains('…'));
    }
}
