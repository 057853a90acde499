//! browser_issues {audit: "a11y"} in a real page whose CSP forbids every script: axe-core runs in
//! the isolated world of each frame all the same, and each barrier comes back with the ref the
//! snapshot gives, a cross-origin frame's included.

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};

/// The violation of a rule, and its example refs.
fn rule<'a>(data: &'a Value, id: &str) -> (&'a Value, Vec<String>) {
    let v = data["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {data}"));
    let refs = v["examples"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["ref"].as_str().map(String::from))
        .collect();
    (v, refs)
}

fn html_of(agent: &mut Mcp, reference: &str) -> String {
    agent.ok("browser_get_html", json!({"ref": reference})).0
}

#[test]
fn a11y_audit_maps_each_barrier_to_its_snapshot_ref_on_a_page_that_forbids_script() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("a11y.html")}));
    // The page's CSP is in force: its own inline script never ran.
    assert!(snap.contains("\"A11y fixture\""), "{snap}");
    let (text, data) = agent.ok("browser_issues", json!({"audit": "a11y"}));
    assert!(
        text.contains("Automated rules catch only part of real barriers"),
        "{text}"
    );
    assert!(data["engine"].as_str().unwrap().starts_with("axe-core "));

    // The nameless button, by the very ref the snapshot gave it.
    let (button, refs) = rule(&data, "button-name");
    assert_eq!(button["impact"], "critical");
    let nameless = snap
        .lines()
        .find(|l| l.trim_start().starts_with("- button [ref="))
        .unwrap_or_else(|| panic!("no nameless button in the snapshot:\n{snap}"));
    assert!(
        nameless.contains(&format!("[ref={}]", refs[0])),
        "{nameless} / {text}"
    );
    assert!(html_of(&mut agent, &refs[0]).contains("id=\"nameless\""));

    let (_, refs) = rule(&data, "image-alt");
    assert!(
        html_of(&mut agent, &refs[0]).contains("id=\"photo\""),
        "{text}"
    );
    let (_, refs) = rule(&data, "color-contrast");
    assert!(
        html_of(&mut agent, &refs[0]).contains("Faint words"),
        "{text}"
    );
    for r in ["button-name", "image-alt", "color-contrast"] {
        assert!(text.contains(r), "{text}");
    }

    // In the cross-origin frame, by the frame's ref; the frame alone is not held to rules about
    // the whole page (it has no main landmark of its own, the page does).
    let (_, refs) = rule(&data, "label");
    assert!(refs[0].starts_with('f'), "{text}");
    assert!(html_of(&mut agent, &refs[0]).contains("id=\"unlabeled\""));
    assert!(snap.contains(&format!("[ref={}]", refs[0])), "{snap}");
    for whole in ["landmark-one-main", "page-has-heading-one", "region"] {
        assert!(!text.contains(whole), "{text}");
    }

    // Worst first.
    let order = ["critical", "serious", "moderate", "minor"];
    let ranks: Vec<usize> = data["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| order.iter().position(|o| v["impact"] == *o).unwrap())
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{text}");
    assert_eq!(data["page"], 1);
    let (code, _) = agent.fails("browser_issues", json!({"audit": "a11y", "page": 9}));
    assert_eq!(code, "BAD_ARGS");
}
