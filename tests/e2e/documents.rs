//! A call reaches the document its tab shows, on the port the service worker keeps to each
//! document it called before (sw/documents.js): not one the tab left, even one the browser keeps
//! in its back/forward cache; and the address the audit trail records is the tab's as the call
//! answered, not one a call before it answered from.

use std::path::Path;

use serde_json::json;

use crate::audit::lines_of;
use crate::harness::shared;
use crate::snapshot::ref_of;

/// The status line of basic.html, as the page's main world reads it: another way into the
/// document than the page scripts' port.
fn status_by_eval(agent: &mut crate::harness::Mcp) -> String {
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "document.getElementById('msg').textContent"}),
    );
    data["value"].as_str().unwrap_or_default().to_string()
}

#[test]
fn each_call_reaches_the_document_the_tab_shows_after_a_load_and_a_back() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let press = ref_of(&snap, "button", "Press me");
    // The first call opened the port to this document; this one goes on it.
    agent.ok("browser_click", json!({"ref": press}));
    assert_eq!(status_by_eval(&mut agent), "Pressed 1 time(s)");

    // Another document: the ref is looked for there, and is in nothing it shows.
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("page2.html")}));
    assert!(snap.contains("Page two"), "{snap}");
    let (code, r) = agent.fails("browser_click", json!({"ref": press}));
    assert_eq!(code, "STALE_REF", "{r}");

    // Back: the first page again, restored or loaded anew; the click goes to it, and the
    // snapshot reads what its main world reads.
    agent.ok("browser_go_back", json!({}));
    agent.ok("browser_click", json!({"ref": press}));
    let shown = status_by_eval(&mut agent);
    assert!(shown.starts_with("Pressed "), "{shown}");
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains(&shown), "{shown}: {snap}");
}

/// Each record of the trail as (tool, url).
fn urls_in(file: &Path) -> Vec<(String, String)> {
    lines_of(file)
        .iter()
        .map(|l| {
            let url = l["url"].as_str().unwrap_or_default().to_string();
            (l["tool"].as_str().unwrap().to_string(), url)
        })
        .collect()
}

#[test]
fn the_trail_records_the_address_the_tab_had_as_each_call_answered() {
    let s = shared();
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-documents", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("audit.jsonl");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &file);
    });
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let press = ref_of(&snap, "button", "Press me");
    // The page moves its address within the document when the button is pressed.
    agent.ok(
        "browser_eval",
        json!({"expression": "document.getElementById('press').addEventListener('click', () => history.pushState({}, '', 'moved.html')); 1"}),
    );
    agent.ok("browser_click", json!({"ref": press}));
    // Moved again by a call that does not go through the page scripts: the address the click
    // answered from is not this call's.
    agent.ok(
        "browser_eval",
        json!({"expression": "history.pushState({}, '', 'again.html'); 1"}),
    );
    agent.ok("browser_click", json!({"ref": press}));
    let lines = urls_in(&file);
    let tail: Vec<(&str, &str)> = lines[lines.len() - 3..]
        .iter()
        .map(|(t, u)| (t.as_str(), u.as_str()))
        .collect();
    let (moved, again) = (s.a("moved.html"), s.a("again.html"));
    assert_eq!(
        tail,
        [
            ("browser_click", moved.as_str()),
            ("browser_eval", again.as_str()),
            ("browser_click", moved.as_str()),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
