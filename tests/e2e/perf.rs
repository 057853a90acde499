//! browser_perf_trace in a real page: web vitals of a page loaded in front (its LCP image by
//! ref with the breakdown, the elements a late shift moved), what a background tab cannot
//! produce said as missing, the LCP's cause read off its breakdown (a render-blocking stylesheet
//! the server holds back, an image a script adds late), heap samples with a trend, and a DevTools
//! trace written to a file through the debugger. Only the trace attaches it, as DevTools' own
//! view of the page shows.

use serde_json::{Value, json};

use crate::fixtures::serve;
use crate::harness::{Env, Mcp, runtime, sandbox_dir, shared};
use crate::person::{agent_with_devtools, devtools};
use crate::snapshot::ref_of;

fn metric<'a>(data: &'a Value, name: &str) -> &'a Value {
    data["vitals"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {data}"))
}

/// The `id` of the element a ref names, read back through the page.
fn id_of(agent: &mut Mcp, reference: &str) -> String {
    let (html, _) = agent.ok("browser_get_html", json!({"ref": reference}));
    let start = html.find(" id=\"").expect("the element has an id") + 5;
    html[start..].split('"').next().unwrap().to_string()
}

#[test]
fn vitals_of_a_page_in_front_name_its_lcp_image_and_what_a_late_shift_moved() {
    // A browser of its own: in the shared one another test may bring its tab to front while
    // this page loads, and a page hidden while it loads draws nothing.
    let env = Env::fresh("perf-front");
    let fixtures = serve(env.first_port);
    // DevTools on it too, for a person's trusted click.
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/vitals.html", fixtures.a);
    agent.ok("browser_new_tab", json!({"url": url, "active": true}));
    // DevTools' own view: each client (a debugger) that attaches to a page from now on.
    let rt = runtime();
    let mut cdp = crate::person::devtools(&rt, &env);
    rt.block_on(cdp.watch_attaching());
    let (text, data) = agent.ok("browser_perf_trace", json!({"reload": true}));
    assert_eq!(data["debugger"], false, "{text}");
    assert_eq!(data["vitals"]["reloaded"], true);

    let lcp = metric(&data, "LCP");
    assert!(lcp["value"].is_number(), "{text}");
    assert!(lcp["rating"].is_string(), "{text}");
    let detail = &data["vitals"]["lcp"];
    assert!(
        detail["url"].as_str().unwrap().contains("hero.svg"),
        "{text}"
    );
    let hero = detail["ref"].as_str().expect("the LCP element's ref");
    assert_eq!(id_of(&mut agent, hero), "hero");
    // The server held the image back 400 ms: that is the load time of the breakdown.
    let b = &detail["breakdown"];
    assert!(b["loadTimeMs"].as_f64().unwrap() >= 400.0, "{text}");
    for part in ["ttfbMs", "loadDelayMs", "renderDelayMs"] {
        assert!(b[part].as_f64().unwrap() >= 0.0, "{part}: {text}");
    }
    assert!(text.contains(&format!("[ref={hero}]")), "{text}");
    assert!(text.contains("load time"), "{text}");

    let cls = metric(&data, "CLS");
    assert!(cls["value"].as_f64().unwrap() > 0.0, "{text}");
    let shifted = data["vitals"]["shifted"].as_array().unwrap();
    assert!(
        shifted.iter().any(|s| s["ref"] == hero),
        "the banner moved the picture down: {text}"
    );
    assert!(metric(&data, "FCP")["value"].is_number(), "{text}");
    assert!(metric(&data, "TTFB")["value"].is_number(), "{text}");
    // The agent made no trusted input: no INP, and no zero in its place.
    let inp = metric(&data, "INP");
    assert!(inp.get("value").is_none(), "{text}");
    assert!(inp["missing"].as_str().unwrap().contains("synthetic"));
    // The page's own busy work, by name.
    let frames = data["vitals"]["longFrames"].as_array().unwrap();
    assert!(
        frames
            .iter()
            .flat_map(|f| f["scripts"].as_array().unwrap())
            .any(|s| s["function"] == "lateBanner"),
        "{text}"
    );

    // After the agent's click the page, long loaded, still answers from its buffers; the click
    // was a synthetic event, which Event Timing leaves out, so there is still no INP.
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let go = ref_of(&snap, "button", "Go");
    agent.ok("browser_click", json!({"ref": go}));
    let (text, data) = agent.ok("browser_perf_trace", json!({}));
    assert_eq!(data["vitals"]["lcp"]["ref"], hero, "{text}");
    assert!(metric(&data, "INP").get("value").is_none(), "{text}");

    // Neither the vitals, nor the heap, nor the accessibility audit attached a debugger to the
    // page; a trace does, and DevTools' view shows it.
    agent.ok(
        "browser_perf_trace",
        json!({"action": "memory", "durationMs": 1000}),
    );
    agent.ok("browser_issues", json!({"audit": "a11y"}));
    assert!(!rt.block_on(cdp.attached_since()).contains(&url));
    let dir = sandbox_dir("front-trace");
    let file = dir.join("trace.json");
    let trace = json!({"action": "trace", "durationMs": 500, "filePath": file.to_str().unwrap()});
    agent.ok("browser_perf_trace", trace);
    assert!(rt.block_on(cdp.attached_since()).contains(&url));
    let _ = std::fs::remove_dir_all(dir);

    // A person's click (trusted input, through DevTools) on a button whose handler holds the
    // page 250 ms: that interaction is the INP, on that button.
    let slow = ref_of(&snap, "button", "Slow");
    rt.block_on(async {
        let pages = cdp.pages().await.unwrap();
        let (target, _) = pages.iter().find(|(_, u)| *u == url).expect("the tab");
        let session = cdp.attach(target).await.unwrap();
        let at = "slow.scrollIntoView(); const r = slow.getBoundingClientRect(); \
                  [r.x + r.width / 2, r.y + r.height / 2]";
        let at = cdp.eval_loaded(&session, at).await.unwrap();
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        cdp.click_at(&session, x, y).await;
    });
    let (text, data) = agent.ok("browser_perf_trace", json!({}));
    let inp = metric(&data, "INP");
    assert!(inp["value"].is_number(), "{text}");
    assert!(inp["rating"].is_string(), "{text}");
    assert!(text.contains(&format!("[ref={slow}]")), "{text}");
}

/// The causes given for a page's LCP, by the subpart they explain.
fn cause<'a>(data: &'a Value, part: &str) -> &'a Value {
    data["vitals"]["lcpCauses"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["part"] == part))
        .unwrap_or_else(|| panic!("no {part} cause in {data}"))
}

#[test]
fn lcp_causes_name_a_render_blocking_stylesheet_and_an_image_found_late() {
    // A browser of its own, the page in front: a page hidden while it loads draws nothing.
    let env = Env::fresh("perf-causes");
    let fixtures = serve(env.first_port);
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);

    // The server holds the stylesheet in the page's head back 800 ms: nothing is drawn until it
    // arrives, so the LCP (text) waits on it.
    let url = format!("{}/lcp-blocking.html", fixtures.a);
    agent.ok("browser_new_tab", json!({"url": url, "active": true}));
    let (text, data) = agent.ok("browser_perf_trace", json!({"reload": true}));
    let rb = &data["vitals"]["renderBlocking"];
    assert_eq!(rb["count"], 1, "{text}");
    let css = &rb["resources"][0];
    assert!(
        css["url"]
            .as_str()
            .unwrap()
            .ends_with("/lcp-blocking.css?delay=800"),
        "{text}"
    );
    assert_eq!(css["kind"], "stylesheet", "{text}");
    let took = css["endMs"].as_f64().unwrap() - css["startMs"].as_f64().unwrap();
    assert!(took >= 800.0, "{text}");
    assert!(
        text.contains("\n- Render-blocking: 1, the last done at "),
        "{text}"
    );
    assert!(
        text.contains("/lcp-blocking.css?delay=800 (stylesheet, "),
        "{text}"
    );
    let delay = cause(&data, "renderDelay");
    assert!(delay["ms"].as_f64().unwrap() >= 700.0, "{text}");
    assert!(text.contains("\n- LCP cause: render delay "), "{text}");
    assert!(
        text.contains("render-blocking resources held the paint until ")
            && text.contains("after the first byte: /lcp-blocking.css?delay=800"),
        "{text}"
    );

    // The hero image is added by script 600 ms in: its request begins late, a load delay, and
    // nothing blocked this page's render.
    let url = format!("{}/lcp-late.html", fixtures.a);
    agent.ok("browser_navigate", json!({"url": url}));
    let (text, data) = agent.ok("browser_perf_trace", json!({"reload": true}));
    let lcp = &data["vitals"]["lcp"];
    assert!(lcp["url"].as_str().unwrap().contains("hero.svg"), "{text}");
    let delay = cause(&data, "loadDelay");
    assert!(delay["ms"].as_f64().unwrap() >= 600.0, "{text}");
    assert!(text.contains("\n- LCP cause: load delay "), "{text}");
    assert!(text.contains("the LCP image is found late"), "{text}");
    assert!(text.contains("fetchpriority=high"), "{text}");
    assert_eq!(data["vitals"]["renderBlocking"]["count"], 0, "{text}");
    assert!(text.contains("\n- No render-blocking resources"), "{text}");
}

#[test]
fn vitals_of_a_background_tab_say_what_it_never_drew_rather_than_zero() {
    let env = Env::fresh("vitals-background");
    let fixtures = serve(env.first_port);
    let mut agent = agent_with_devtools(&env);
    let first = format!("{}/basic.html", fixtures.a);
    agent.ok("browser_navigate", json!({"url": first}));
    // The page opens a tab in front of the agent's, which loads the vitals page behind it.
    let rt = runtime();
    let mut cdp = devtools(&rt, &env);
    rt.block_on(cdp.open_over(&first));
    let url = format!("{}/vitals.html", fixtures.a);
    agent.ok("browser_navigate", json!({"url": url}));
    let (text, data) = agent.ok("browser_perf_trace", json!({}));
    assert_eq!(data["debugger"], false);
    for name in ["LCP", "CLS", "FCP"] {
        let m = metric(&data, name);
        assert!(m.get("value").is_none(), "{name}: {text}");
        assert!(
            m["missing"].as_str().unwrap().contains("background"),
            "{text}"
        );
        assert!(text.contains(&format!("{name} missing: ")), "{text}");
    }
    assert!(data["vitals"].get("lcp").is_none(), "{text}");
    // What does not need drawing is there.
    assert!(metric(&data, "TTFB")["value"].is_number(), "{text}");
}

#[test]
fn memory_samples_the_heap_and_gives_a_trend() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("vitals.html")}));
    let (text, data) = agent.ok(
        "browser_perf_trace",
        json!({"action": "memory", "durationMs": 1500}),
    );
    assert_eq!(data["debugger"], false);
    let m = &data["memory"];
    let samples = m["samples"].as_array().unwrap();
    assert!(samples.len() >= 3, "{text}");
    assert!(samples.iter().all(|s| s[1].as_f64().unwrap() > 0.0));
    assert!(m["trendMbPerS"].is_number(), "{text}");
    assert!(m["everyMs"].is_number(), "{text}");
    assert!(text.contains("not proof of a leak"), "{text}");
    let (code, _) = agent.fails(
        "browser_perf_trace",
        json!({"action": "memory", "durationMs": 3_600_000}),
    );
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn trace_writes_a_devtools_trace_through_the_debugger_and_says_so() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("vitals.html")}));
    let (code, _) = agent.fails("browser_perf_trace", json!({"action": "trace"}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails(
        "browser_perf_trace",
        json!({"action": "trace", "filePath": "/etc/trace.json"}),
    );
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX");
    let dir = sandbox_dir("trace");
    let file = dir.join("trace.json");
    let (text, data) = agent.ok(
        "browser_perf_trace",
        json!({"action": "trace", "durationMs": 1000, "filePath": file.to_str().unwrap()}),
    );
    assert_eq!(data["debugger"], true);
    assert!(text.contains("debugger"), "{text}");
    let trace: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    assert!(!events.is_empty());
    assert_eq!(data["trace"]["events"], events.len());
    let _ = std::fs::remove_dir_all(dir);
}
