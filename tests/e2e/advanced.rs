//! Advanced mode: no debugger attaches for any default tool; `browser_advanced_mode` attaches it
//! to the agent's tab until off, release or close, as DevTools' own view of the page shows; other
//! debugger users share the attachment; status and the tab list mark the tab; the person's
//! TABPILOT_NO_ADVANCED refuses it before anything is sent.

use serde_json::json;

use crate::cdp::Cdp;
use crate::fixtures::serve;
use crate::harness::{Env, Mcp, my_tab_id, runtime, sandbox_dir, shared};
use crate::snapshot::ref_of;

/// Whether any client (a debugger) is attached to the page at `url`, as the browser says.
fn debugged(rt: &tokio::runtime::Runtime, cdp: &mut Cdp, url: &str) -> bool {
    let targets = rt.block_on(cdp.targets()).unwrap();
    let page = targets
        .iter()
        .find(|t| t["type"] == "page" && t["url"] == url)
        .unwrap_or_else(|| panic!("no page at {url}: {targets:?}"));
    page["attached"] == true
}

/// The default tools, each on its default path (no advanced option), in the agent's tab at `url`.
fn every_default_tool(agent: &mut Mcp, url: &str) {
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Press me")}),
    );
    let search = ref_of(&snap, "textbox", "Search");
    agent.ok("browser_type", json!({"ref": search, "text": "kittens"}));
    agent.ok("browser_press_key", json!({"key": "Tab"}));
    agent.ok("browser_click", json!({"x": 5, "y": 5}));
    agent.ok("browser_handle_dialog", json!({"action": "dismiss"}));
    agent.ok("browser_handle_dialog", json!({}));
    agent.ok(
        "browser_emulate",
        json!({"geolocation": {"latitude": 1.0, "longitude": 2.0}}),
    );
    agent.ok("browser_emulate", json!({"clear": true}));
    agent.ok("browser_set_cookie", json!({"name": "plain", "value": "1"}));
    agent.ok("browser_get_cookies", json!({}));
    agent.ok(
        "browser_storage",
        json!({"action": "set", "key": "plain", "value": "1"}),
    );
    agent.ok("browser_storage", json!({"action": "get"}));
    agent.ok("browser_proxy", json!({}));
    agent.ok("browser_export", json!({"format": "tabpilot"}));
    agent.ok("browser_downloads", json!({}));
    agent.ok("browser_screenshot", json!({}));
    agent.ok("browser_list_tabs", json!({}));
    agent.ok("browser_status", json!({}));
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
    agent.ok("browser_navigate", json!({"url": url}));
}

fn status_text(agent: &mut Mcp) -> String {
    agent.ok("browser_status", json!({})).0
}

#[test]
fn only_advanced_mode_attaches_the_debugger_and_it_holds_it_until_off_or_release() {
    let env = Env::fresh("advanced");
    let fixtures = serve(env.first_port);
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/basic.html", fixtures.a);
    agent.ok("browser_new_tab", json!({"url": url, "active": true}));
    let rt = runtime();
    let mut cdp = crate::person::devtools(&rt, &env);
    rt.block_on(cdp.watch_attaching());

    every_default_tool(&mut agent, &url);
    assert!(
        !rt.block_on(cdp.attached_since()).contains(&url),
        "a default tool attached the debugger"
    );
    assert!(!debugged(&rt, &mut cdp, &url));

    let (said, data) = agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    assert!(said.contains("banner"), "{said}");
    assert_eq!(
        (data["on"].clone(), data["unchanged"].clone()),
        (json!(true), json!(false))
    );
    assert!(rt.block_on(cdp.attached_since()).contains(&url));
    assert!(debugged(&rt, &mut cdp, &url));
    let (said, _) = agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    assert!(said.contains("already on"), "{said}");
    let tab = my_tab_id(&mut agent);
    assert!(
        status_text(&mut agent).contains(&format!("tab {tab}* (advanced mode)")),
        "{}",
        status_text(&mut agent)
    );
    let (list, _) = agent.ok("browser_list_tabs", json!({}));
    assert!(list.contains("(advanced mode)"), "{list}");

    // A trace needs the debugger too: it shares the attachment (no "another debugger is
    // attached"), and leaves it attached for advanced mode.
    let dir = sandbox_dir("advanced-trace");
    let file = dir.join("trace.json");
    let trace = json!({"action": "trace", "durationMs": 500, "filePath": file.to_str().unwrap()});
    let (said, data) = agent.ok("browser_perf_trace", trace);
    assert_eq!(data["debugger"], true, "{said}");
    let _ = std::fs::remove_dir_all(dir);
    assert!(
        debugged(&rt, &mut cdp, &url),
        "the trace took advanced mode's debugger away"
    );
    assert!(status_text(&mut agent).contains("(advanced mode)"));

    let (said, data) = agent.ok("browser_advanced_mode", json!({"mode": "off"}));
    assert_eq!(data["on"], false, "{said}");
    assert!(
        !debugged(&rt, &mut cdp, &url),
        "off left the debugger attached"
    );
    assert!(!status_text(&mut agent).contains("(advanced mode)"));

    // Letting the tab go ends it too: the tab stays open, with no debugger.
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    assert!(debugged(&rt, &mut cdp, &url));
    agent.ok("browser_release", json!({"closeOpened": false}));
    assert!(
        !debugged(&rt, &mut cdp, &url),
        "release left the debugger attached"
    );
}

#[test]
fn another_agent_taking_the_tab_ends_its_holder_s_advanced_mode() {
    let s = shared();
    let mut holder = s.agent();
    let mut taker = s.agent();
    holder.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html?advanced=taken")}),
    );
    holder.ok("browser_advanced_mode", json!({"mode": "on"}));
    let tab = my_tab_id(&mut holder);
    let (list, _) = holder.ok("browser_list_tabs", json!({}));
    assert!(list.contains("(advanced mode)"), "{list}");
    let reason = "the person asked me to take over";
    taker.ok(
        "browser_force_claim",
        json!({"tabId": tab, "reason": reason}),
    );
    // The taker's first call in the tab ends the holder's mode: nothing of it carries over.
    let (said, data) = taker.ok("browser_advanced_mode", json!({"mode": "off"}));
    assert_eq!(data["unchanged"], true, "{said}");
    let (list, _) = taker.ok("browser_list_tabs", json!({}));
    let line = list
        .lines()
        .find(|l| l.contains(&format!("tab {tab}")))
        .unwrap();
    assert!(!line.contains("advanced mode"), "{list}");
}

#[test]
fn the_person_s_no_advanced_refuses_the_mode_before_anything_is_sent() {
    let s = shared();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_NO_ADVANCED", "1");
    });
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html?advanced=forbidden")}),
    );
    let (code, r) = agent.fails("browser_advanced_mode", json!({"mode": "on"}));
    assert_eq!(code, "ADVANCED_MODE_REQUIRED");
    assert_eq!(r["structuredContent"]["outcome"], "refused", "{r}");
    assert!(status_text(&mut agent).contains("no-advanced"));
    let (list, _) = agent.ok("browser_list_tabs", json!({}));
    assert!(!list.contains("advanced mode"), "{list}");
}
