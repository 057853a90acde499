//! browser_eval in a real page: the page's own world, a ref's element in a cross-origin frame
//! and in an open shadow root, promises, the timeout, values JSON cannot hold, the cap, a page
//! that replaced the built-ins, and the switches that refuse it.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::shared;
use crate::snapshot::ref_of;

#[test]
fn eval_answers_with_the_pages_own_values_and_awaits_promises() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let (text, data) = agent.ok("browser_eval", json!({"expression": "document.title"}));
    assert_eq!(data["value"], "Eval fixture");
    assert_eq!(data["url"], s.a("eval.html"));
    assert_eq!(data["world"], "main");
    assert!(
        text.starts_with(&format!("Ran in the main world of {}", s.a("eval.html"))),
        "{text}"
    );
    // A global of the page's own scripts: the isolated world where tabpilot's page scripts run
    // would not see it.
    let (_, data) = agent.ok("browser_eval", json!({"expression": "appState"}));
    assert_eq!(data["value"], json!({"user": "ada", "items": [1, 2, 3]}));
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "(await fetch(location.href)).status + 1"}),
    );
    assert_eq!(data["value"], 201);
    // Statements, not one expression: the last one's value.
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "const n = appState.items.length; n * 2"}),
    );
    assert_eq!(data["value"], 6);
}

/// A large value goes to a file in the sandbox instead of the reply; a path outside the sandbox
/// is refused before the script runs.
#[test]
fn eval_writes_its_value_to_a_file_in_the_sandbox_and_runs_nothing_for_a_path_outside() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let dir = crate::harness::sandbox_dir("eval-file");
    let path = dir.join("state.json");
    let expression = "({state: appState, rows: Array.from({length: 3000}, (_, i) => 'row ' + i)})";
    let (text, data) = agent.ok(
        "browser_eval",
        json!({"expression": expression, "filePath": path.to_str().unwrap()}),
    );
    assert!(text.contains(&format!("to {}", path.display())), "{text}");
    assert!(
        !text.contains("row 2999") && data["value"].is_null(),
        "{text}"
    );
    assert_eq!(data["filePath"], path.to_str().unwrap());
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(written["state"], json!({"user": "ada", "items": [1, 2, 3]}));
    assert_eq!(
        written["rows"][2999], "row 2999",
        "past the inline cap of 20,000"
    );
    let (code, _) = agent.fails(
        "browser_eval",
        json!({"expression": "window.ranAnyway = 1", "filePath": "/etc/tabpilot-eval.json"}),
    );
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX");
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "typeof window.ranAnyway"}),
    );
    assert_eq!(
        data["value"], "undefined",
        "the refused call ran its script"
    );
}

#[test]
fn eval_calls_a_function_with_a_refs_element_in_a_cross_origin_frame_and_a_shadow_root() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("checkout.html")}));
    let card = ref_of(&snap, "textbox", "Card number");
    let (text, data) = agent.ok(
        "browser_eval",
        json!({"function": "(el) => [el.name, location.origin]", "ref": card, "element": "card number"}),
    );
    assert_eq!(data["value"], json!(["cardnumber", s.fixtures.b]));
    assert_eq!(data["url"], s.b("card.html"));
    assert!(text.contains("on card number (<input"), "{text}");
    let promo = ref_of(&snap, "textbox", "Promo code");
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"function": "(el) => [el.name, el.getRootNode().host.localName]", "ref": promo}),
    );
    assert_eq!(data["value"], json!(["promo", "promo-code"]));
    assert_eq!(data["url"], s.a("checkout.html"));
    // Without a ref, the function is called with nothing, in the top frame.
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"function": "(el) => [typeof el, document.title]"}),
    );
    assert_eq!(data["value"], json!(["undefined", "Checkout"]));
}

#[test]
fn handing_the_element_over_leaves_nothing_in_the_dom_for_the_page_to_see() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let query = ref_of(&snap, "textbox", "Query");
    let (_, before) = agent.ok("browser_eval", json!({"expression": "mutations"}));
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"function": "(el) => [el.value, mutations]", "ref": query}),
    );
    assert_eq!(data["value"], json!(["hello", before["value"]]));
    let (_, after) = agent.ok("browser_eval", json!({"expression": "mutations"}));
    assert_eq!(after["value"], before["value"]);
}

#[test]
fn a_promise_that_never_settles_ends_at_the_timeout() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let start = Instant::now();
    let (code, r) = agent.fails(
        "browser_eval",
        json!({"expression": "new Promise(() => {})", "timeout": 500}),
    );
    assert_eq!(code, "TIMEOUT");
    assert_eq!(r["structuredContent"]["outcome"], "unknown");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_script_that_takes_its_page_away_ends_when_the_page_goes() {
    let s = shared();
    let mut agent = s.agent();
    for expression in [
        // The old document goes into the back/forward cache, where its promise never settles.
        "location.href = 'basic.html'; new Promise(() => {})",
        // The old document is unloaded.
        "setTimeout(() => location.reload(), 0); new Promise(() => {})",
    ] {
        agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
        let start = Instant::now();
        let (code, r) = agent.fails(
            "browser_eval",
            json!({"expression": expression, "timeout": 20000}),
        );
        assert_eq!(code, "SCRIPT_ERROR", "{expression}: {r}");
        assert_eq!(r["structuredContent"]["outcome"], "failed");
        let message = r["structuredContent"]["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("the frame went to "), "{message}");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{expression}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn values_json_cannot_hold_are_described_and_a_big_one_is_cut() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let odd = "(() => { const loop = { name: 'loop' }; loop.self = loop; \
        return [document.querySelector('#q'), loop, function hello() {}, undefined, NaN, 10n, \
        new Map([['k', 1]]), new Set(['s', 2]), new TypeError('bad')]; })()";
    let (_, data) = agent.ok("browser_eval", json!({"expression": odd}));
    assert_eq!(
        data["value"],
        json!([
            "<input#q.search.big type=text name=query>",
            {"name": "loop", "self": "[cycle: $[1]]"},
            "[function hello]",
            "[undefined]",
            "[NaN]",
            "[bigint 10]",
            {"[Map]": [["k", 1]]},
            {"[Set]": ["s", 2]},
            "[TypeError: bad]"
        ])
    );
    assert!(data.get("cut").is_none(), "{data}");

    let (text, data) = agent.ok(
        "browser_eval",
        json!({"expression": "({ rows: Array.from({length: 100000}, (_, i) => i) })", "maxChars": 1000}),
    );
    let rows = data["value"]["rows"].as_array().unwrap();
    assert!(rows.len() > 100 && rows.len() < 1000, "{}", rows.len());
    assert_eq!(rows.last().unwrap(), "[cut]");
    let at = data["cut"].as_str().unwrap();
    assert!(at.starts_with("$.rows["), "{at}");
    assert!(
        text.contains(&format!("[cut at 1000 characters, at {at};")),
        "{text}"
    );
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "'x'.repeat(100000)", "maxChars": 500}),
    );
    let cut = data["value"].as_str().unwrap();
    assert!(cut.len() < 520 && cut.ends_with('…'), "{}", cut.len());
    assert_eq!(data["cut"], "$");
}

#[test]
fn a_page_that_replaced_promise_json_and_then_still_gets_its_values() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("hostile.html")}));
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "({ title: document.title, list: [1, 2], n: await (async () => 7)() })"}),
    );
    assert_eq!(
        data["value"],
        json!({"title": "Hostile fixture", "list": [1, 2], "n": 7})
    );
    // A script that replaces the built-ins as it runs does not reach the writer, taken before.
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "Object.keys = () => []; Array.isArray = () => false; ({ a: [1, 2] })"}),
    );
    assert_eq!(data["value"], json!({"a": [1, 2]}));
}

#[test]
fn a_throw_is_a_failed_script_error_and_what_ran_before_it_stays_done() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let (code, r) = agent.fails(
        "browser_eval",
        json!({"expression": "document.title = 'half'; throw new RangeError('out of range')"}),
    );
    assert_eq!(code, "SCRIPT_ERROR");
    assert_eq!(r["structuredContent"]["outcome"], "failed");
    let message = r["structuredContent"]["error"]["message"].as_str().unwrap();
    assert_eq!(message, "RangeError: out of range");
    let (_, data) = agent.ok("browser_eval", json!({"expression": "document.title"}));
    assert_eq!(data["value"], "half");
    let (code, r) = agent.fails("browser_eval", json!({"function": "(el) => {"}));
    assert_eq!(code, "SCRIPT_ERROR");
    let message = r["structuredContent"]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("did not compile: SyntaxError"),
        "{message}"
    );
}

#[test]
fn a_page_whose_policy_forbids_eval_refuses_it_by_name() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("csp.html")}));
    let (code, r) = agent.fails("browser_eval", json!({"expression": "1 + 1"}));
    assert_eq!(code, "CSP_BLOCKED", "{r}");
}

#[test]
fn no_eval_and_read_only_refuse_eval_before_anything_is_sent() {
    let s = shared();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_NO_EVAL", "1");
    });
    agent.ok("browser_navigate", json!({"url": s.a("eval.html")}));
    let (code, r) = agent.fails(
        "browser_eval",
        json!({"expression": "document.title = 'evaluated'"}),
    );
    assert_eq!(code, "EVAL_BLOCKED");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    let (_, snap) = agent.ok("browser_snapshot", json!({}));
    assert_eq!(snap["title"], "Eval fixture");

    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_READ_ONLY", "1");
    });
    let (code, r) = agent.fails("browser_eval", json!({"expression": "document.title"}));
    assert_eq!(code, "READ_ONLY");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
}
