//! browser_emulate's device in advanced mode (sw/devices.js), in the real Chromium: the colour
//! scheme and reduced motion the page's media queries see, a phone viewport with touch after a
//! reload, a user agent the server and the page both see, a throttled download measurably
//! slower; each cleared by name, all gone when the mode ends, and each refused by the extension
//! with the mode off.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp, runtime, shared};
use crate::recorder::{Recorder, Reply};
use crate::snapshot::ref_of;

// Laid out at the device's width, as a phone would (without it, a mobile viewport lays the page
// out 980 px wide).
const PAGE: &str = r#"<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Device</title><main><p>device</p></main>"#;

/// A page whose button starts a request the server answers only after 20 s.
const HANGS: &str = r#"<title>Hangs</title><main><button id="go">Go</button></main><script>
document.getElementById('go').onclick = () => { fetch('/stall?' + Math.random()); };
</script>"#;

fn served() -> Recorder {
    Recorder::start(|target| {
        if target.starts_with("/stall") {
            std::thread::sleep(Duration::from_secs(20));
        }
        if target.starts_with("/hangs") {
            return Reply::html(HANGS);
        }
        if target.starts_with("/body") {
            return Reply {
                headers: vec![("Cache-Control", "no-store".into())],
                body: vec![b'x'; 200_000],
                gate: None,
            };
        }
        Reply::html(PAGE)
    })
}

fn eval(agent: &mut Mcp, expression: &str) -> Value {
    let (_, data) = agent.ok("browser_eval", json!({"expression": expression}));
    data["value"].clone()
}

/// An agent on the server's page with advanced mode on.
fn advanced_agent(server: &Recorder, path: &str) -> Mcp {
    let mut agent = shared().agent();
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}{path}", server.origin)}),
    );
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    agent
}

const DARK: &str = "matchMedia('(prefers-color-scheme: dark)').matches";
const LIGHT: &str = "matchMedia('(prefers-color-scheme: light)').matches";
const REDUCE: &str = "matchMedia('(prefers-reduced-motion: reduce)').matches";

#[test]
fn the_page_sees_the_colour_scheme_and_reduced_motion_until_each_is_cleared_by_name() {
    let server = served();
    let mut agent = advanced_agent(&server, "/media");
    let (text, data) = agent.ok(
        "browser_emulate",
        json!({"colorScheme": "dark", "reducedMotion": "reduce"}),
    );
    assert_eq!(data["device"]["colorScheme"], "dark", "{data}");
    assert!(text.contains("dark colour scheme"), "{text}");
    assert_eq!(eval(&mut agent, DARK), true);
    assert_eq!(eval(&mut agent, REDUCE), true);

    agent.ok("browser_emulate", json!({"colorScheme": "light"}));
    assert_eq!(
        (eval(&mut agent, DARK), eval(&mut agent, LIGHT)),
        (json!(false), json!(true))
    );

    let (_, data) = agent.ok("browser_emulate", json!({"clear": ["reducedMotion"]}));
    assert_eq!(data["device"], json!({"colorScheme": "light"}));
    assert_eq!(eval(&mut agent, REDUCE), false);
    assert_eq!(eval(&mut agent, LIGHT), true, "the other setting stays");

    // The mode's end takes the rest, and a later read claims none of it.
    agent.ok("browser_emulate", json!({"colorScheme": "dark"}));
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
    let (_, data) = agent.ok("browser_emulate", json!({}));
    assert_eq!(
        (data["device"].clone(), data["slowdown"].clone()),
        (json!({}), json!(1.0))
    );
    agent.ok("browser_navigate", json!({"reload": true}));
    assert_eq!(eval(&mut agent, DARK), false);
}

const SCREEN: &str =
    "[innerWidth, innerHeight, 'ontouchstart' in window, navigator.maxTouchPoints > 0]";

/// What the page sees of its screen once the view has kept one size for 300 ms (within 5 s).
fn steady(agent: &mut Mcp) -> Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut last = eval(agent, SCREEN);
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = eval(agent, SCREEN);
        if now == last || Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

#[test]
fn a_phone_viewport_with_touch_is_what_the_page_sees_after_a_reload() {
    let server = served();
    let mut agent = advanced_agent(&server, "/phone");
    // The debugger's banner takes its height from the view of a tab in front, sliding in: the
    // browser's own screen is measured once it is there and the view stays one size.
    let before = steady(&mut agent);
    assert_eq!(
        (before[2].clone(), before[3].clone()),
        (json!(false), json!(false)),
        "{before}"
    );
    let (text, data) = agent.ok(
        "browser_emulate",
        json!({"viewport": {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true, "touch": true}}),
    );
    assert!(text.contains("reloaded to feature-detect"), "{text}");
    assert_eq!(data["device"]["viewport"]["width"], 390, "{data}");
    agent.ok("browser_navigate", json!({"reload": true}));
    assert_eq!(eval(&mut agent, SCREEN), json!([390, 844, true, true]));
    // A full-page capture sizes the view for itself, then gives the phone back.
    agent.ok("browser_screenshot", json!({"fullPage": true}));
    assert_eq!(eval(&mut agent, SCREEN), json!([390, 844, true, true]));

    let (text, _) = agent.ok("browser_emulate", json!({"clear": ["viewport"]}));
    assert!(!text.contains("feature-detect"), "{text}");
    agent.ok("browser_navigate", json!({"reload": true}));
    let after = steady(&mut agent);
    assert_eq!(after, before, "the browser's own screen again");
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}

#[test]
fn the_server_and_the_page_see_the_user_agent_until_it_is_cleared() {
    let server = served();
    let mut agent = advanced_agent(&server, "/ua-before");
    let own = server.seen("/ua-before")[0].headers["user-agent"].clone();
    let phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) TabpilotTest/1.0";
    agent.ok("browser_emulate", json!({"userAgent": phone}));
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/ua-during", server.origin)}),
    );
    assert_eq!(server.seen("/ua-during")[0].headers["user-agent"], phone);
    assert_eq!(eval(&mut agent, "navigator.userAgent"), phone);

    agent.ok("browser_emulate", json!({"clear": ["userAgent"]}));
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/ua-after", server.origin)}),
    );
    assert_eq!(server.seen("/ua-after")[0].headers["user-agent"], own);
    assert_eq!(eval(&mut agent, "navigator.userAgent"), own);
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}

/// How long the page took to fetch the 200 KB body, as it measured.
fn download_ms(agent: &mut Mcp, n: u32) -> f64 {
    let expression = format!(
        "(async () => {{ const t = performance.now(); await (await fetch('/body?{n}')).arrayBuffer(); \
         return performance.now() - t; }})()"
    );
    eval(agent, &expression).as_f64().unwrap()
}

/// How long a click that starts a request the server does not answer in time keeps waiting for
/// it (the default settle cap).
fn click_wait(agent: &mut Mcp) -> Duration {
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let t0 = Instant::now();
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Go")}),
    );
    t0.elapsed()
}

#[test]
fn a_throttled_tab_s_default_settle_wait_is_stretched_and_a_given_one_is_not() {
    // A browser of its own, the tab in front: in advanced mode a click is the browser's own
    // input, which a tab the browser is not drawing cannot take.
    let env = Env::fresh("devices-settle");
    let server = served();
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |_| {});
    let url = format!("{}/hangs", server.origin);
    agent.ok("browser_new_tab", json!({"url": url, "active": true}));
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let plain = click_wait(&mut agent);
    let (_, data) = agent.ok("browser_emulate", json!({"cpu": 4}));
    assert_eq!(data["slowdown"], 4.0, "{data}");
    let throttled = click_wait(&mut agent);
    assert!(
        throttled > plain * 2,
        "throttled {throttled:?}, plain {plain:?}"
    );
    // The caller's own settleMs stays the caller's.
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let t0 = Instant::now();
    let go = ref_of(&snap, "button", "Go");
    agent.ok("browser_click", json!({"ref": go, "settleMs": 500}));
    assert!(
        t0.elapsed() * 2 < throttled,
        "{:?} with settleMs 500",
        t0.elapsed()
    );
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}

#[test]
fn a_throttled_download_is_far_slower_until_the_throttling_is_cleared() {
    let server = served();
    let mut agent = advanced_agent(&server, "/net");
    let fast = download_ms(&mut agent, 1);
    // 200 KB at 800 kbit/s: 2 s.
    let network = json!({"latencyMs": 0, "downloadKbps": 800, "uploadKbps": 800});
    let (_, data) = agent.ok("browser_emulate", json!({"network": network}));
    assert_eq!(data["slowdown"], 10.0, "{data}");
    let slow = download_ms(&mut agent, 2);
    assert!(
        slow > 10.0 * fast.max(20.0),
        "throttled {slow} ms, not {fast} ms"
    );

    let (_, data) = agent.ok("browser_emulate", json!({"clear": ["network"], "cpu": 4}));
    assert_eq!(
        (data["slowdown"].clone(), data["device"]["cpu"].clone()),
        (json!(4.0), json!(4.0))
    );
    let again = download_ms(&mut agent, 3);
    assert!(
        again * 5.0 < slow,
        "cleared: {again} ms, throttled {slow} ms"
    );
    println!(
        "200 KB fetch: {fast:.0} ms plain, {slow:.0} ms at 800 kbit/s, {again:.0} ms cleared (cpu 4)"
    );
    let (_, data) = agent.ok("browser_emulate", json!({"clear": ["cpu"]}));
    assert_eq!(data["slowdown"], 1.0, "{data}");
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}

/// With the mode off the extension refuses each option, and nothing of browser_emulate (the
/// refusals, a clear, a read, a position and a header) attaches a debugger to the page, as
/// DevTools' own view of it shows; advanced mode does.
#[test]
fn with_the_mode_off_each_option_is_refused_and_no_debugger_attaches() {
    // A browser of its own with DevTools on it, to see whether anything attaches to the page.
    let env = Env::fresh("devices-off");
    let server = served();
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/off", server.origin);
    agent.ok("browser_new_tab", json!({}));
    agent.ok("browser_navigate", json!({"url": url}));
    let rt = runtime();
    let mut cdp = crate::person::devtools(&rt, &env);
    rt.block_on(cdp.watch_attaching());
    for (name, value) in [
        ("viewport", json!({"width": 390, "height": 844})),
        ("userAgent", json!("Phone/1.0")),
        ("colorScheme", json!("dark")),
        ("reducedMotion", json!("reduce")),
        ("network", json!("slow3g")),
        ("cpu", json!(2)),
    ] {
        let (code, r) = agent.fails("browser_emulate", json!({ name: value }));
        assert_eq!(code, "ADVANCED_MODE_REQUIRED", "{name}: {r}");
        let message = r["structuredContent"]["error"]["message"]
            .as_str()
            .unwrap_or_default();
        assert!(message.contains(name), "{name}: {r}");
    }
    let (_, data) = agent.ok("browser_emulate", json!({"clear": true}));
    assert_eq!(data["device"], json!({}));
    agent.ok(
        "browser_emulate",
        json!({"geolocation": {"latitude": 1, "longitude": 2}, "headers": {"x-a": "1"}}),
    );
    agent.ok("browser_emulate", json!({}));
    assert!(!rt.block_on(cdp.attached_since()).contains(&url));

    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    agent.ok("browser_emulate", json!({"colorScheme": "dark"}));
    assert!(rt.block_on(cdp.attached_since()).contains(&url));
}
