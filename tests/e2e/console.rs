//! The console, captured in the page from each document's start without the debugger: every
//! level (a script at the top of head and a frame's included), uncaught errors and rejections with
//! their stacks, the page's service-worker lifecycle, paging, the level filter, the earlier pages
//! of a tab, and the line an action's reply ends with when it made a console error.

use serde_json::{Value, json};

use crate::harness::{Mcp, shared, text as text_of};
use crate::snapshot::ref_of;

/// Every entry of the tab's log, newest first, page by page as the footers name them; checks
/// each page's size and that the next call is the one its footer names.
fn all_pages(agent: &mut Mcp, args: Value) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut args = args;
    loop {
        let (text, data) = agent.ok("browser_get_console_logs", args.clone());
        let page = data["entries"].as_array().unwrap().clone();
        let (n, of) = (
            data["page"].as_u64().unwrap(),
            data["pages"].as_u64().unwrap(),
        );
        assert_eq!(data.get("debugger"), None, "{text}");
        assert!(!text.contains("debugger"), "{text}");
        entries.extend(page.iter().cloned());
        if n == of {
            assert!(!text.contains("; next:"), "{text}");
            assert!(page.len() <= 25);
            return entries;
        }
        assert_eq!(page.len(), 25, "a page before the last is full");
        args["page"] = json!(n + 1);
        let next = format!("; next: browser_get_console_logs {args}");
        assert!(text.ends_with(&next), "{text}\nwanted: {next}");
    }
}

/// The newest entry whose text contains `text`.
fn position(entries: &[Value], text: &str) -> usize {
    entries
        .iter()
        .position(|e| e["text"].as_str().unwrap_or("").contains(text))
        .unwrap_or_else(|| panic!("no entry {text:?} in {entries:#?}"))
}

/// The newest entry whose text is `text`.
fn exactly(entries: &[Value], text: &str) -> usize {
    entries
        .iter()
        .position(|e| e["text"] == text)
        .unwrap_or_else(|| panic!("no entry {text:?} in {entries:#?}"))
}

#[test]
fn every_level_errors_with_stacks_and_the_worker_lifecycle_come_in_order_past_one_page() {
    let s = shared();
    let mut agent = s.agent();
    let url = s.a("console/page.html?worker&run=order");
    agent.ok("browser_navigate", json!({"url": url}));
    agent.ok(
        "browser_wait_for",
        json!({"text": "worker said hello", "timeout": 15000}),
    );
    agent.ok(
        "browser_wait_for",
        json!({"text": "missing worker refused", "timeout": 15000}),
    );
    let entries = all_pages(&mut agent, json!({}));
    assert!(entries.len() > 25, "{}", entries.len());
    // Newest first: read backwards, the page's own order.
    let order = [
        "head script runs first 1 {a: 1}",
        "debug line",
        "info line",
        "warn line",
        "error line",
        "numbered line 1",
        "numbered line 20",
    ];
    let mut at: Vec<usize> = order.iter().map(|t| exactly(&entries, t)).collect();
    at.push(position(&entries, "registered sw.js"));
    assert!(at.windows(2).all(|w| w[0] > w[1]), "{order:?} at {at:?}");
    // Nothing of the page came before the first script in its head.
    let top: Vec<&Value> = entries
        .iter()
        .filter(|e| e.get("frame").is_none())
        .collect();
    assert_eq!(
        top.last().unwrap()["text"],
        "head script runs first 1 {a: 1}"
    );
    let head = &entries[at[0]];
    assert_eq!(head["kind"], "console");
    assert_eq!(head["level"], "log");
    assert!(
        head["at"]
            .as_str()
            .unwrap()
            .contains("console/page.html?worker&run=order:4:"),
        "{head}"
    );
    for (text, level) in [
        ("debug line", "debug"),
        ("info line", "info"),
        ("warn line", "warn"),
        ("error line", "error"),
    ] {
        assert_eq!(entries[exactly(&entries, text)]["level"], level);
    }
    // The uncaught error, with the stack naming its function; the rejection with its own.
    let thrown = &entries[position(&entries, "boom from explode")];
    assert_eq!(thrown["kind"], "exception");
    assert!(
        thrown["stack"].as_str().unwrap().contains("at explode ("),
        "{thrown}"
    );
    let rejected = &entries[position(&entries, "rejected on purpose")];
    assert_eq!(rejected["kind"], "rejection");
    assert!(
        rejected["stack"]
            .as_str()
            .unwrap()
            .contains("console/page.html"),
        "{rejected}"
    );
    // The frame's message, from the other origin.
    let framed = &entries[position(&entries, "from the frame")];
    assert_eq!(framed["frame"], s.b("console/frame.html"));
    assert_eq!(framed["level"], "warn");
    // The worker's lifecycle, tagged as such, in its order.
    let worker: Vec<usize> = ["registered sw.js", "is installed", "is activated"]
        .iter()
        .map(|t| position(&entries, t))
        .collect();
    assert!(worker.windows(2).all(|w| w[0] > w[1]), "{worker:?}");
    for t in [
        "registered sw.js",
        "is activated",
        "controllerchange",
        "message from the service worker: \"hello\"",
    ] {
        assert_eq!(entries[position(&entries, t)]["kind"], "worker", "{t}");
    }
    // A registration that failed, said as such; the page caught it, so it is no rejection.
    let failed = &entries[position(&entries, "registering missing-sw.js failed: ")];
    assert_eq!(
        (&failed["kind"], &failed["level"]),
        (&json!("worker"), &json!("error"))
    );
    let rejections = entries.iter().filter(|e| e["kind"] == "rejection").count();
    assert_eq!(rejections, 1, "{entries:#?}");
    // The text shows the uncaught ones apart, with their stacks.
    let (text, _) = agent.ok("browser_get_console_logs", json!({"level": "error"}));
    let errors = text.split("Messages:").next().unwrap();
    assert!(errors.contains("Uncaught errors and rejections:"), "{text}");
    assert!(
        errors.contains("- Uncaught Error: boom from explode"),
        "{text}"
    );
    assert!(errors.contains("    at explode ("), "{text}");
    assert!(
        errors.contains("- Unhandled rejection: rejected on purpose"),
        "{text}"
    );
}

#[test]
fn the_level_filter_keeps_that_level_and_worse() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/page.html?run=level")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Console fixture"}));
    let warn = all_pages(&mut agent, json!({"level": "warn"}));
    let mut texts: Vec<&str> = warn.iter().map(|e| e["text"].as_str().unwrap()).collect();
    texts.sort();
    assert_eq!(
        texts,
        [
            "Error: boom from explode",
            "error line",
            "from the frame",
            "rejected on purpose",
            "warn line"
        ]
        .map(|t| t.to_string())
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>(),
        "{warn:#?}"
    );
    let (bad, _) = agent.fails("browser_get_console_logs", json!({"page": 0}));
    assert_eq!(bad, "BAD_ARGS");
    let (code, _) = agent.fails("browser_get_console_logs", json!({"page": 9}));
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn an_earlier_pages_entries_are_kept_for_include_preserved() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/page.html?run=kept")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Console fixture"}));
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let now = all_pages(&mut agent, json!({}));
    assert!(now.iter().all(|e| e["earlier"] != true), "{now:#?}");
    assert!(!now.iter().any(|e| e["text"] == "warn line"), "{now:#?}");
    let kept = all_pages(&mut agent, json!({"includePreserved": true}));
    let warn = &kept[exactly(&kept, "warn line")];
    assert_eq!(warn["earlier"], true);
    let thrown = &kept[position(&kept, "boom from explode")];
    assert!(thrown["stack"].as_str().unwrap().contains("at explode ("));
    position(&kept, "from the frame");
}

/// In a page of one document the action's own page call reads the console (page/kit.js), with no
/// second call into the tab: the same findings, the settle's included.
#[test]
fn in_a_page_of_one_document_the_action_brings_its_console_findings_itself() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("console/solo.html")}));
    let (text, _) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Calm")}),
    );
    assert!(!text.contains("console"), "{text}");
    let (text, _) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Throw")}),
    );
    assert!(
        text.ends_with(
            "1 new console error since the action began: browser_get_console_logs shows it."
        ),
        "{text}"
    );
    let (text, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Late"), "include": "console"}),
    );
    assert!(text.contains("late error after the fetch"), "{text}");
    assert!(!text.contains("before any action"), "{text}");
    assert!(
        data["console"].as_str().unwrap().contains("late error"),
        "{data}"
    );
}

#[test]
fn a_click_whose_handler_throws_ends_its_reply_with_the_new_console_error() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/page.html?run=click")}),
    );
    let boom = ref_of(&snap, "button", "Throw");
    let calm = ref_of(&snap, "button", "Calm");
    // The page's own errors came before the action: they are not the click's.
    let (text, data) = agent.ok("browser_click", json!({"ref": calm}));
    assert!(!text.contains("console"), "{text}");
    assert_eq!(data.get("notices"), None);
    let (text, data) = agent.ok("browser_click", json!({"ref": boom}));
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        "1 new console error since the action began: browser_get_console_logs shows it."
    );
    assert_eq!(data["notices"][0], last);
    // Asked for, the entries come in the same reply; a log is no error.
    let (text, data) = agent.ok("browser_click", json!({"ref": calm, "include": "console"}));
    assert!(
        text.contains("Console since the action, newest first:\n- [log] calm click ("),
        "{text}"
    );
    assert!(data["console"].as_str().unwrap().contains("calm click"));
    assert_eq!(data.get("notices"), None);
    let (text, _) = agent.ok("browser_click", json!({"ref": boom, "include": "console"}));
    assert!(
        text.contains("- Uncaught Error: click handler failed"),
        "{text}"
    );
    assert!(text.contains("    at HTMLButtonElement.onBoom ("), "{text}");
    assert!(
        text.ends_with("browser_get_console_logs shows it."),
        "{text}"
    );
    // Several sections in one reply, comma-separated or listed: the console, the requests and
    // the snapshot, within one budget.
    for include in [
        json!("console, network, snapshot"),
        json!(["snapshot", "console", "network"]),
    ] {
        let (text, data) = agent.ok("browser_click", json!({"ref": calm, "include": include}));
        assert!(
            data["console"].as_str().unwrap().contains("calm click"),
            "{text}"
        );
        assert!(data.get("network").is_some(), "{data}");
        assert!(
            data["snapshot"]
                .as_str()
                .unwrap()
                .contains("- button \"Calm\""),
            "{text}"
        );
    }
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": calm, "include": "console,logs"}),
    );
    assert_eq!(code, "BAD_ARGS");
    assert!(
        text_of(&r).contains("\"logs\" is no section"),
        "{}",
        text_of(&r)
    );
}

#[test]
fn a_page_that_breaks_the_built_ins_after_the_capture_started_is_still_read_right() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/hostile.html")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Hostile console"}));
    let entries = all_pages(&mut agent, json!({}));
    let seen = &entries[exactly(&entries, "still seen under hostile built-ins {kept: true}")];
    assert_eq!(seen["level"], "info");
    assert!(
        seen["at"]
            .as_str()
            .unwrap()
            .contains("console/hostile.html:"),
        "{seen}"
    );
    let thrown = &entries[exactly(&entries, "TypeError: thrown under hostile built-ins")];
    assert!(
        thrown["stack"]
            .as_str()
            .unwrap()
            .contains("at hostileThrow ("),
        "{thrown}"
    );
}

#[test]
fn the_capture_leaves_what_the_page_sees_of_the_console_as_it_was() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "[console.log.name, console.log.length, console.error.name, \
            navigator.serviceWorker.register.name, navigator.serviceWorker.register.length, \
            Object.getOwnPropertyNames(window).filter((n) => /tabpilot/i.test(n)).length, \
            console.log('from eval') === undefined]"}),
    );
    assert_eq!(
        data["value"],
        json!(["log", 0, "error", "register", 1, 0, true])
    );
}

#[test]
fn page_one_leads_with_warnings_and_errors_logged_before_a_flood_of_logs() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/flood.html")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Console flood"}));
    let (text, data) = agent.ok("browser_get_console_logs", json!({}));
    let wrong = [
        ("early error 2", "error"),
        ("early error 1", "error"),
        ("early warning 3", "warn"),
        ("early warning 2", "warn"),
        ("early warning 1", "warn"),
    ];
    let lead = text.split("Warnings and errors:").nth(1).unwrap_or("");
    let mut at = 0;
    for (t, l) in wrong {
        let found = lead[at..].find(&format!("- [{l}] {t} ("));
        at += found.unwrap_or_else(|| panic!("no {t} in order, newest first, in {text}"));
    }
    assert!(
        lead.contains("\nMessages:\n- [log] ordinary line 70 ("),
        "{text}"
    );
    let texts: Vec<&str> = data["lead"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, wrong.map(|(t, _)| t), "{data}");
    assert_eq!(data["entries"].as_array().unwrap().len(), 25);
    assert_eq!(data["total"], 75);
    let warn = all_pages(&mut agent, json!({"level": "warn"}));
    let texts: Vec<&str> = warn.iter().map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(texts, wrong.map(|(t, _)| t), "{warn:#?}");

    // Past the capture's bound of messages, the oldest logs go, and the warnings and errors,
    // kept apart, stay.
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("console/flood.html?logs=400")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Console flood"}));
    let (text, data) = agent.ok("browser_get_console_logs", json!({}));
    let texts: Vec<&str> = data["lead"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, wrong.map(|(t, _)| t), "{text}");
    assert!(
        text.contains("older entries were dropped at the bounds"),
        "{text}"
    );
}
