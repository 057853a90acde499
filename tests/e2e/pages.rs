//! Whole pages: a long article's lean snapshot fits its budget with every link addressable, and
//! a 1000-row table keeps its refs when a filter re-renders every row.

use serde_json::json;

use crate::budget::row_ref;
use crate::harness::shared;
use crate::snapshot::ref_of;

#[test]
fn a_long_articles_lean_snapshot_fits_its_budget_and_every_link_has_a_ref() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("long-article.html"), "includeSnapshot": false}),
    );
    let (_, found) = agent.ok("browser_find", json!({"role": "link", "max": 200}));
    let total_links = found["total"].as_u64().unwrap();
    assert_eq!(
        total_links, 254,
        "the fixture's links: 250 in the text, 4 around it"
    );
    // The whole outline has every link with its ref...
    let (_, data) = agent.ok("browser_snapshot", json!({"maxTokens": 1_000_000}));
    let whole = data["snapshot"].as_str().unwrap();
    let with_refs = whole
        .lines()
        .filter(|l| l.trim_start().starts_with("- link ") && l.contains("[ref=e"))
        .count();
    assert_eq!(
        with_refs as u64, total_links,
        "a link is missing from the whole outline"
    );
    // ...and the default one holds to its budget, summing up what it leaves out (every link
    // is still within two calls: tests/e2e/budget.rs).
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    let snap = data["snapshot"].as_str().unwrap();
    assert!(
        snap.contains("- searchbox \"Search the site\" [ref="),
        "{snap}"
    );
    assert!(snap.contains("- … "), "{snap}");
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let tokens = bpe.encode_with_special_tokens(snap).len();
    assert!(
        tokens <= 4000,
        "the lean snapshot of the article is {tokens} o200k tokens"
    );
    // The article's long paragraphs are left out of the lean snapshot, and in the verbose one.
    assert!(
        !snap.contains("(see"),
        "a long paragraph is in the lean snapshot"
    );
    let (_, data) = agent.ok("browser_snapshot", json!({"verbose": true}));
    assert!(data["snapshot"].as_str().unwrap().contains("(see"));
}

#[test]
fn refs_in_a_thousand_row_table_survive_a_filter_that_re_renders_every_row() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("table.html")}));
    assert!(snap.contains("1000 items"));
    // A row is one line, its button's ref at its end.
    let edit_17 = row_ref(&snap, "Widget 17");
    let filter = ref_of(&snap, "textbox", "Filter items");
    agent.ok("browser_type", json!({"ref": filter, "text": "Widget 17"}));
    // The row's node was replaced since the ref was taken: it is re-resolved once, and says so.
    let (text, data) = agent.ok("browser_click", json!({"ref": edit_17}));
    assert!(text.contains("Edit"), "{text}");
    assert_eq!(data["retagged"], true, "{text}");
    assert!(text.contains("re-resolved"), "{text}");
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("11 items"), "{snap}");
    assert_eq!(
        row_ref(&snap, "Widget 17"),
        edit_17,
        "the re-render changed the ref"
    );
    assert_eq!(ref_of(&snap, "textbox", "Filter items"), filter);
}

/// Children of a wrapper with no box of its own (`display: contents`) are shown as a person sees
/// them: a selectbox's options, a note; what CSS hides inside one (or around it) is not.
#[test]
fn what_a_layout_less_wrapper_holds_is_in_the_default_snapshot() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("contents.html")}));
    for shown in [
        "option \"Crimson\"",
        "option \"Teal\"",
        "option \"Ochre\"",
        "A note in a wrapper of its own",
    ] {
        assert!(snap.contains(shown), "{shown:?} not in:\n{snap}");
    }
    for hidden in ["Hidden inside a wrapper", "Gone with its parent"] {
        assert!(!snap.contains(hidden), "{hidden:?} in:\n{snap}");
    }
    // And each option is addressable from there.
    let teal = ref_of(&snap, "option", "Teal");
    agent.ok("browser_click", json!({"ref": teal}));
}

/// In the agent's tab, which is in the background, a click on another element takes focus from
/// the field as it would in front: the field hears `blur` and `focusout` once each (and `focus`
/// and `focusin` once each when it took focus), so a value applied on blur is applied before the
/// click's own handler runs.
#[test]
fn a_click_elsewhere_blurs_the_field_so_a_value_applied_on_blur_is_applied() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("blur.html")}));
    let word = ref_of(&snap, "textbox", "Word");
    agent.ok("browser_type", json!({"ref": word, "text": "stressed"}));
    let reverse = ref_of(&snap, "button", "Reverse");
    agent.ok("browser_click", json!({"ref": reverse}));
    let (snap, _) = agent.ok("browser_snapshot", json!({"verbose": true}));
    assert!(snap.contains("Applied: stressed"), "{snap}");
    assert!(snap.contains("Result: desserts"), "{snap}");
    assert!(
        snap.contains("focus 1, blur 1, focusin 1, focusout 1"),
        "{snap}"
    );
    // Clicking the field again gives it focus once more, and only once.
    agent.ok("browser_click", json!({"ref": word}));
    let (snap, _) = agent.ok("browser_snapshot", json!({"verbose": true}));
    assert!(
        snap.contains("focus 2, blur 1, focusin 2, focusout 1"),
        "{snap}"
    );
}

/// A field the page focused itself, in the agent's window, which has no focus: the browser told
/// the page nothing, so its focus tracker (JupyterLab's, which enables a notebook's commands)
/// never heard of it. Typing into that field announces the focus once.
#[test]
fn typing_into_a_field_the_page_focused_itself_lets_the_page_hear_the_focus_once() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("self-focus.html")}));
    let note = ref_of(&snap, "textbox", "Note");
    agent.ok("browser_type", json!({"ref": note, "text": "one"}));
    agent.ok("browser_type", json!({"ref": note, "text": "two"}));
    let (snap, _) = agent.ok("browser_snapshot", json!({"verbose": true}));
    assert!(snap.contains("Panel heard focus 1 times"), "{snap}");
}

/// An open list rendered in a layer at the end of the body (a portal), away from its combobox
/// and outside the main content: its options are in the default snapshot, each addressable.
#[test]
fn options_rendered_in_a_portal_at_the_end_of_the_body_are_in_the_default_snapshot() {
    let s = shared();
    let mut agent = s.agent();
    // Also on a page over the snapshot's budget, where what stands beside the main content is
    // the first to collapse: an open list is what the person looks at.
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("portal.html?big")}));
    assert!(snap.contains("more"), "not over its budget:\n{snap}");
    for shown in ["option \"Small\"", "option \"Medium\"", "option \"Large\""] {
        assert!(snap.contains(shown), "{shown:?} not in:\n{snap}");
    }
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("portal.html")}));
    for shown in ["option \"Small\"", "option \"Medium\"", "option \"Large\""] {
        assert!(snap.contains(shown), "{shown:?} not in:\n{snap}");
    }
    let medium = ref_of(&snap, "option", "Medium");
    agent.ok("browser_click", json!({"ref": medium}));
    let (_, data) = agent.ok("browser_find", json!({"selector": "#size"}));
    assert!(data.to_string().contains("Medium"), "{data}");
}
