//! Finding elements, their HTML, waiting for conditions, and verbose or written-out snapshots.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::{sandbox_dir, shared, text};
use crate::snapshot::ref_of;

#[test]
fn find_matches_by_text_role_and_selector_in_every_frame_with_working_refs() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("checkout.html")}));
    let held = ref_of(&snap, "textbox", "Email");
    let (text, data) = agent.ok("browser_find", json!({"role": "textbox"}));
    let matches = data["matches"].as_array().unwrap();
    assert!(
        text.contains("textbox \"Card number\" [ref=f"),
        "a frame's field is missing: {text}"
    );
    assert!(
        matches
            .iter()
            .any(|m| m.as_str().unwrap().contains("Promo code")),
        "{text}"
    );
    assert_eq!(data["total"].as_u64().unwrap() as usize, matches.len());
    let (_, data) = agent.ok("browser_find", json!({"text": "accept cookies"}));
    assert_eq!(data["matches"].as_array().unwrap().len(), 1, "{data}");
    let (_, data) = agent.ok("browser_find", json!({"selector": "#pay", "max": 1}));
    let pay = data["matches"][0].as_str().unwrap().to_string();
    assert!(pay.contains("button \"Pay\""), "{pay}");
    // Finding did not invalidate a ref taken earlier.
    agent.ok("browser_type", json!({"ref": held, "text": "a@b.c"}));
    let (code, _) = agent.fails("browser_find", json!({"selector": "##"}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails("browser_find", json!({}));
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn a_found_plain_element_gets_a_ref_that_other_tools_use() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("delayed.html"), "includeSnapshot": false}),
    );
    let (_, data) = agent.ok("browser_find", json!({"text": "plain paragraph"}));
    let line = data["matches"][0].as_str().unwrap();
    let r = &line[line.find("[ref=").unwrap() + 5..line.rfind(']').unwrap()];
    let (html, _) = agent.ok("browser_get_html", json!({"ref": r}));
    assert_eq!(html, "<p>A plain paragraph to find.</p>");
}

#[test]
fn get_html_gives_the_document_or_one_element_and_says_when_cut() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (html, _) = agent.ok(
        "browser_get_html",
        json!({"ref": ref_of(&snap, "button", "Press me")}),
    );
    assert_eq!(html, "<button id=\"press\">Press me</button>");
    let (html, data) = agent.ok("browser_get_html", json!({"maxChars": 100}));
    assert!(html.starts_with("<html lang=\"en\"><head>"), "{html}");
    assert_eq!(data["truncated"], true);
    assert!(html.contains("[cut at 100 of"), "{html}");
}

#[test]
fn a_wait_for_text_goes_on_in_the_page_a_cross_origin_navigation_brings() {
    let s = shared();
    let mut agent = s.agent();
    // It goes 1.5 s after its load: the wait below starts before that even on a busy machine
    // (at 300 ms the navigate's reply came after it there, and the wait found the text at once).
    let away = format!(
        "{}?after=1500&to={}",
        s.a("goes-away.html"),
        s.b("page2.html")
    );
    agent.ok(
        "browser_navigate",
        json!({"url": away, "includeSnapshot": false}),
    );
    // The text is on the page the first one moves to, on another origin (another process).
    let (waited, data) = agent.ok(
        "browser_wait_for",
        json!({"text": "Page two", "timeout": 5000}),
    );
    assert!(waited.starts_with("Waited "), "{waited}");
    assert!(data["waitedMs"].as_u64().unwrap() >= 100, "{data}");
}

#[test]
fn wait_for_text_to_appear_and_go_and_for_the_url() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("delayed.html"), "includeSnapshot": false}),
    );
    let (waited, data) = agent.ok(
        "browser_wait_for",
        json!({"text": "Ready now", "timeout": 5000}),
    );
    assert!(waited.starts_with("Waited "), "{waited}");
    assert!(data["waitedMs"].as_u64().unwrap() > 0);
    agent.ok(
        "browser_wait_for",
        json!({"textGone": "Loading", "timeout": 5000}),
    );
    agent.ok(
        "browser_wait_for",
        json!({"url": "*step=2", "timeout": 5000}),
    );
    agent.ok(
        "browser_wait_for",
        json!({"selector": "#spinner", "state": "hidden", "timeout": 1000}),
    );
    let start = Instant::now();
    let (code, r) = agent.fails(
        "browser_wait_for",
        json!({"text": "Never shown", "timeout": 300}),
    );
    assert_eq!(code, "TIMEOUT", "{}", text(&r));
    assert!(start.elapsed() < Duration::from_secs(5));
    let (code, _) = agent.fails("browser_wait_for", json!({"text": "a", "url": "b"}));
    assert_eq!(code, "BAD_ARGS");
    let (t, _) = agent.ok("browser_wait", json!({"time": 50}));
    assert_eq!(t, "Waited 50 ms");
    let (code, _) = agent.fails("browser_wait", json!({"time": 60_000}));
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn a_verbose_snapshot_has_all_text_with_the_same_refs_and_file_path_writes_it_out() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("big.html"), "includeSnapshot": false}),
    );
    let (lean, _) = agent.ok("browser_snapshot", json!({}));
    let (verbose, _) = agent.ok("browser_snapshot", json!({"verbose": true}));
    assert!(
        !lean.contains("Paragraph 399"),
        "lean snapshots leave long text out"
    );
    assert!(
        verbose.contains("Paragraph 399 with some words"),
        "verbose has all text"
    );
    let mut agent2 = s.agent();
    let (snap, _) = agent2.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (verbose, _) = agent2.ok("browser_snapshot", json!({"verbose": true}));
    let press = ref_of(&snap, "button", "Press me");
    assert_eq!(
        ref_of(&verbose, "button", "Press me"),
        press,
        "verbose changed the refs"
    );
    let path = sandbox_dir("snapshot-file").join("snap.txt");
    let (text, data) = agent2.ok(
        "browser_snapshot",
        json!({"filePath": path.display().to_string()}),
    );
    assert!(text.starts_with("Wrote the lean snapshot"), "{text}");
    assert!(
        !text.contains("[ref="),
        "the snapshot itself went into the reply: {text}"
    );
    assert!(data.get("snapshot").is_none());
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains(&format!("[ref={press}]")), "{written}");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    let (code, _) = agent2.fails("browser_snapshot", json!({"filePath": "/etc/tabpilot.txt"}));
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX");
}

#[test]
fn find_ranks_exact_names_first_and_a_role_finds_its_own_elements_by_their_words() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("lists.html"), "includeSnapshot": false}),
    );
    // "Edit" is in a paragraph before the button; the button named exactly that comes first.
    let (_, data) = agent.ok("browser_find", json!({"text": "edit", "max": 1}));
    assert_eq!(data["total"], 2, "{data}");
    assert!(
        data["matches"][0]
            .as_str()
            .unwrap()
            .starts_with("- button \"Edit\" [ref="),
        "{data}"
    );
    // The words are an option's; asked for a listbox, the listbox holding them is found.
    let (_, data) = agent.ok("browser_find", json!({"text": "Medium", "role": "listbox"}));
    assert_eq!(data["total"], 1, "{data}");
    assert!(
        data["matches"][0]
            .as_str()
            .unwrap()
            .starts_with("- listbox \"Size\" [ref="),
        "{data}"
    );
}

/// `attached` and `detached` wait for an element to be in the document or out of it, shown or
/// not (a hidden one is attached and never visible); a URL written `/…/` with a regular
/// expression's characters is one, and an invalid one is refused.
#[test]
fn a_wait_for_an_element_attached_or_detached_and_for_a_url_by_regular_expression() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("attach.html"), "includeSnapshot": false}),
    );
    let (said, _) = agent.ok(
        "browser_wait_for",
        json!({"selector": "#later", "state": "attached", "timeout": 5000}),
    );
    assert!(said.contains("#later to be attached"), "{said}");
    agent.ok(
        "browser_wait_for",
        json!({"selector": "#gone", "state": "detached", "timeout": 5000}),
    );
    let (code, _) = agent.fails(
        "browser_wait_for",
        json!({"selector": "#later", "timeout": 300}),
    );
    assert_eq!(code, "TIMEOUT", "a hidden element is never visible");
    let (_, data) = agent.ok(
        "browser_wait_for",
        json!({"url": "/attach\\.html\\?step=\\d+$/", "timeout": 5000}),
    );
    assert!(
        data["url"].as_str().unwrap().ends_with("?step=42"),
        "{data}"
    );
    let (code, _) = agent.fails("browser_wait_for", json!({"url": "/step=(/"}));
    assert_eq!(code, "BAD_ARGS");
}
