//! Pages as they really are: cross-origin frames and shadow roots, in the snapshot and in every
//! tool that takes a ref.

use serde_json::json;

use crate::harness::shared;
use crate::snapshot::ref_of;

#[test]
fn the_snapshot_covers_a_cross_origin_frame_and_an_open_shadow_root() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("checkout.html")}));
    let frame_line = snap
        .lines()
        .find(|l| l.trim_start().starts_with("- frame "))
        .unwrap_or_else(|| panic!("no frame block:\n{snap}"));
    assert!(frame_line.ends_with(&s.b("card.html")), "{frame_line}");
    let card = ref_of(&snap, "textbox", "Card number");
    assert!(card.starts_with('f') && card.contains(":e"), "{card}");
    // The frame block sits where the iframe is, inside the form after the Card heading, and its
    // lines are indented under it.
    let lines: Vec<&str> = snap.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
    assert_eq!(at("- frame "), at("heading \"Card\"") + 1, "{snap}");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let card_line = lines[at(&format!("[ref={card}]"))];
    assert_eq!(indent(card_line), indent(frame_line) + 2);
    assert_eq!(indent(frame_line), indent(lines[at("heading \"Card\"")]));
    // The state select is hidden until a country that has states is chosen.
    assert!(!snap.contains("combobox \"State\""), "{snap}");
    assert!(snap.contains("combobox \"Country\""), "{snap}");
    let promo = ref_of(&snap, "textbox", "Promo code");
    assert!(
        snap.contains("- gift-note: shadow root (closed, not walked)"),
        "{snap}"
    );
    assert!(!snap.contains("Gift note"), "{snap}");
    assert!(
        !promo.contains(':'),
        "a shadow root is in its host's document: {promo}"
    );
    // A ref into the frame works in every tool: type there, and the frame's own script sees it.
    let (text, _) = agent.ok(
        "browser_type",
        json!({"ref": card, "text": "4242424242424242"}),
    );
    assert!(text.contains("Typed 16 characters"), "{text}");
    // A card number field shows its value by its length only (docs/security.md).
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(
        snap.contains(&format!("[ref={card}]: ••• (16 chars, hidden)")),
        "{snap}"
    );
    agent.ok("browser_type", json!({"ref": promo, "text": "SAVE10"}));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(
        snap.contains(&format!("[ref={promo}]: \"SAVE10\"")),
        "{snap}"
    );
}

#[test]
fn a_frame_prefix_that_names_no_frame_is_stale_and_a_malformed_one_is_refused() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("checkout.html")}));
    let card = ref_of(&snap, "textbox", "Card number");
    let local = card.split_once(':').unwrap().1;
    let (code, _) = agent.fails("browser_click", json!({"ref": format!("f999999:{local}")}));
    assert_eq!(code, "STALE_REF");
    let (code, r) = agent.fails("browser_click", json!({"ref": format!("frame1:{local}")}));
    assert_eq!(code, "BAD_ARGS");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
}

#[test]
fn a_click_that_navigates_only_its_frame_sees_the_frame_commit() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("frame-nav.html")}));
    let link = ref_of(&snap, "link", "Next page in the frame");
    // The wait for the navigation is the frame's: it ends as that load does, well inside the
    // timeout (waiting for the top page, which never navigates, it ran the whole timeout out
    // and said the page was still loading).
    let (text, data) = agent.ok("browser_click", json!({"ref": link, "timeout": 20000}));
    assert_eq!(
        text.lines().next().unwrap(),
        format!(
            "Clicked <a> \"Next page in the frame\"; the frame navigated to {}",
            s.b("page2.html")
        ),
        "{text}"
    );
    assert_eq!(data["url"], s.b("page2.html"));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("heading \"Page two\""), "{snap}");
}

#[test]
fn a_wait_sees_a_frame_navigate_by_its_ref_going_and_by_its_url() {
    let s = shared();
    let mut agent = s.agent();
    // The frame goes to page two by itself, a few seconds after it loaded.
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("frame-nav.html?leave")}),
    );
    let link = ref_of(&snap, "link", "Next page in the frame");
    // The element goes with its frame's document: a wait for it to hide is met (it answered
    // INTERNAL: the page script returned nothing).
    let (text, _) = agent.ok(
        "browser_wait_for",
        json!({"ref": link, "state": "hidden", "timeout": 20000}),
    );
    assert!(text.starts_with("Waited "), "{text}");
    agent.ok(
        "browser_navigate",
        json!({"url": s.a("frame-nav.html?leave")}),
    );
    // A wait for the URL sees the frame commit there (it watched the tab's URL alone, which
    // never changes, and ran the whole timeout out).
    let (text, data) = agent.ok(
        "browser_wait_for",
        json!({"url": "*page2.html?delay=3000&left", "timeout": 20000}),
    );
    assert!(text.starts_with("Waited "), "{text}");
    assert_eq!(data["url"], s.b("page2.html?delay=3000&left"), "{text}");
}

#[test]
fn a_click_whose_frame_commits_before_its_answer_leaves_is_done_with_the_frame_navigation() {
    let s = shared();
    let mut agent = s.agent();
    // The link's handler navigates its frame and holds the frame's thread until the new document
    // is ready, so the frame commits before the click's answer leaves: the answer is lost.
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("frame-nav.html?busy")}),
    );
    let link = ref_of(&snap, "link", "Next page in the frame");
    // The click was dispatched: it is done, with the frame's navigation named (it said
    // STALE_REF: the page navigated during the call).
    let (text, data) = agent.ok("browser_click", json!({"ref": link, "timeout": 20000}));
    assert_eq!(
        text.lines().next().unwrap(),
        format!(
            "Clicked <a> \"Next page in the frame\"; the frame navigated to {}",
            s.b("page2.html")
        ),
        "{text}"
    );
    assert_eq!(data["url"], s.b("page2.html"));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("heading \"Page two\""), "{snap}");
}

#[test]
fn a_click_whose_page_left_before_it_was_dispatched_is_stale() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("leaves-when-looked-at.html")}),
    );
    let button = ref_of(&snap, "button", "Never reached");
    // The page leaves while the click still waits for its button: nothing was clicked, and the
    // page's navigation is not the click's (the call waited its whole time out: the browser
    // never answered a script whose document went).
    let (code, r) = agent.fails("browser_click", json!({"ref": button, "timeout": 20000}));
    assert_eq!(code, "STALE_REF", "{r}");
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("heading \"Page two\""), "{snap}");
}
