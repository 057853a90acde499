//! Trusted input (issue 24): in advanced mode a click, a typing and a key press are the browser's
//! own (`isTrusted`), which a page that ignores synthetic events accepts, in the top page and in
//! a cross-origin frame; the same replies as without it; refused in a tab the browser is not
//! showing. A click at a point says what it hit, and an element in a cross-origin frame is
//! captured. Each test runs a browser of its own: the agent's tab must stay in front.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::browser::image_of;
use crate::fixtures::serve;
use crate::harness::{Env, Mcp, runtime, text};
use crate::person::{agent_with_devtools, devtools};
use crate::snapshot::ref_of;

/// The agent in a browser of its own, on the trusted page, its tab in front; and the page's URL.
fn in_front(name: &str) -> (Mcp, String, String) {
    let env = Env::fresh(name);
    let fixtures = serve(env.first_port);
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |_| {});
    let url = format!("{}/trusted.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    agent.ok("browser_switch_tab", json!({}));
    (agent, url, snap)
}

fn shown(agent: &mut Mcp, selector: &str) -> String {
    let (_, data) = agent.ok("browser_find", json!({"selector": selector}));
    data["matches"][0].as_str().unwrap_or("").to_string()
}

fn keys(data: &Value) -> BTreeSet<String> {
    data.as_object().unwrap().keys().cloned().collect()
}

/// What the page shows of what it accepted: the click, the typing, the submit.
fn accepted(agent: &mut Mcp) -> [String; 3] {
    ["#out", "#typed", "#submitted"].map(|s| shown(agent, s))
}

#[test]
fn a_page_that_ignores_synthetic_events_takes_real_input_in_advanced_mode_with_the_same_replies() {
    let (mut agent, _, snap) = in_front("trusted-input");
    let go = ref_of(&snap, "button", "Go");
    let name = ref_of(&snap, "textbox", "Name");

    // Synthetic input: the page ignores every event.
    let (_, synthetic_click) = agent.ok("browser_click", json!({"ref": go}));
    let (_, synthetic_type) = agent.ok("browser_type", json!({"ref": name, "text": "Ada"}));
    let (_, synthetic_key) = agent.ok("browser_press_key", json!({"key": "Enter"}));
    let [out, typed, submitted] = accepted(&mut agent);
    assert!(out.contains("untouched"), "{out}");
    assert!(typed.contains("nothing typed"), "{typed}");
    assert!(submitted.contains("not submitted"), "{submitted}");

    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let (said, real_click) = agent.ok("browser_click", json!({"ref": go}));
    assert!(said.starts_with("Clicked <button#go>"), "{said}");
    assert_eq!(keys(&real_click), keys(&synthetic_click), "{real_click}");
    assert!(shown(&mut agent, "#out").contains("clicked for real"));

    // Typing clears what the synthetic typing left, then types key by key.
    let (said, real_type) = agent.ok("browser_type", json!({"ref": name, "text": "Grace"}));
    assert!(said.contains("Typed 5 characters"), "{said}");
    assert_eq!(keys(&real_type), keys(&synthetic_type), "{real_type}");
    let typed = shown(&mut agent, "#typed");
    assert!(typed.contains("typed for real: Grace"), "{typed}");

    let (said, real_key) = agent.ok("browser_press_key", json!({"key": "Enter"}));
    assert_eq!(keys(&real_key), keys(&synthetic_key), "{real_key}");
    assert_eq!(real_key["effect"], "submitted the form", "{said}");
    assert!(shown(&mut agent, "#submitted").contains("submitted for real"));
}

#[test]
fn real_input_in_a_background_tab_is_refused_and_changes_nothing() {
    let env = Env::fresh("trusted-background");
    let fixtures = serve(env.first_port);
    let mut agent = agent_with_devtools(&env);
    let url = format!("{}/trusted.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    // The page opens a tab, which comes in front of the agent's in its window.
    let rt = runtime();
    let mut cdp = devtools(&rt, &env);
    rt.block_on(cdp.open_over(&url));
    let go = ref_of(&snap, "button", "Go");
    let name = ref_of(&snap, "textbox", "Name");
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let calls = [
        ("browser_click", json!({"ref": go})),
        ("browser_click", json!({"x": 80, "y": 120})),
        ("browser_type", json!({"ref": name, "text": "Ada"})),
        ("browser_press_key", json!({"key": "Enter"})),
    ];
    for (tool, args) in calls {
        let (code, r) = agent.fails(tool, args);
        assert_eq!(code, "TAB_IN_BACKGROUND", "{tool}: {}", text(&r));
        assert!(text(&r).contains("browser_switch_tab"), "{}", text(&r));
    }
    let [out, typed, submitted] = accepted(&mut agent);
    assert!(out.contains("untouched"), "{out}");
    assert!(typed.contains("nothing typed"), "{typed}");
    assert!(submitted.contains("not submitted"), "{submitted}");
    let (_, data) = agent.ok("browser_find", json!({"selector": "#name"}));
    assert!(!data.to_string().contains("Ada"), "{data}");
}

#[test]
fn in_a_cross_origin_frame_a_real_click_lands_a_point_says_what_it_hit_and_an_element_is_captured()
{
    let (mut agent, _, snap) = in_front("trusted-frames");
    let frame_go = ref_of(&snap, "button", "Frame go");
    let green = ref_of(&snap, "button", "Green box");

    // An element screenshot in a cross-origin frame needs no advanced mode: the box, whole.
    let r = agent.call("browser_screenshot", json!({"ref": green}));
    assert_ne!(r["isError"], true, "{}", text(&r));
    let img = image_of(&r);
    let dpr = r["structuredContent"]["viewport"]["dpr"].as_f64().unwrap();
    let near = |got: u32, css: f64| (got as f64 - css * dpr).abs() <= 1.0;
    assert!(
        near(img.width(), 150.0) && near(img.height(), 90.0),
        "{}x{}",
        img.width(),
        img.height()
    );
    let rgb = img.to_rgb8();
    let [red, g, blue] = rgb.get_pixel(img.width() / 2, img.height() / 2).0;
    assert_eq!([red, g, blue], [0, 128, 0], "the crop is of the green box");

    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    agent.ok("browser_click", json!({"ref": frame_go}));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("frame clicked for real"), "{snap}");
    // Keys go to the field focused in the frame.
    let field = ref_of(&snap, "textbox", "Frame field");
    agent.ok("browser_type", json!({"ref": field, "text": "Lin"}));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("frame typed: Lin"), "{snap}");

    // At a point of the top page, and over the frame: the browser routes it there.
    let (said, data) = agent.ok("browser_click", json!({"x": 80, "y": 120}));
    assert!(
        data["hit"].as_str().unwrap().contains("button#go"),
        "{data}"
    );
    assert!(said.contains("which hit <button#go>"), "{said}");
    assert!(shown(&mut agent, "#out").contains("clicked for real"));
    // The iframe's content starts at (40, 260); the box is at (200, 20) in it, 150x90.
    let (said, data) = agent.ok("browser_click", json!({"x": 315, "y": 325}));
    let hit = data["hit"].as_str().unwrap();
    assert!(
        hit.contains("iframe#inner") && hit.contains("button#box"),
        "{said}"
    );
}

/// Issue 35, finding 11: in advanced mode a chord is real input, and a paste chord pastes the
/// person's clipboard (what they copied in a tab of their own) into the agent's page, where the
/// agent reads it; a copy or a cut writes into it. A middle click in a text field pastes what
/// they last selected (Linux's primary selection). Each is refused before anything is sent, and
/// the field holds nothing of either; keys that are no clipboard chord still go.
#[test]
fn real_input_never_presses_a_clipboard_chord_so_the_persons_clipboard_stays_theirs() {
    const COPIED: &str = "copied-by-the-person-7c1e";
    const SELECTED: &str = "selectedbytheperson";
    let rt = crate::harness::runtime();
    let env = Env::fresh("trusted-clipboard");
    let fixtures = serve(env.first_port);
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/trusted.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    agent.ok("browser_switch_tab", json!({}));
    let mut cdp = crate::person::devtools(&rt, &env);

    // The person copies a line in a tab of their own, in front while they do, then selects a word
    // there (a double click).
    rt.block_on(async {
        let page = format!("data:text/html,<p style='font-size:40px;margin:0'>{SELECTED}</p>");
        let (_, session) = cdp.open(&page, false).await.unwrap();
        cdp.eval_loaded(&session, "1").await.unwrap();
        let copy = format!(
            "(() => {{ const t = document.createElement('textarea'); t.value = '{COPIED}'; \
             document.body.append(t); t.select(); const copied = document.execCommand('copy'); t.remove(); return copied; }})()"
        );
        let r = cdp
            .send_to(
                &session,
                "Runtime.evaluate",
                json!({"expression": copy, "userGesture": true, "returnByValue": true}),
            )
            .await
            .unwrap();
        assert_eq!(r["result"]["value"], true, "the person's copy: {r}");
        for kind in ["mousePressed", "mouseReleased"].repeat(2) {
            let at = json!({"type": kind, "x": 60, "y": 20, "button": "left", "clickCount": 2});
            cdp.send_to(&session, "Input.dispatchMouseEvent", at)
                .await
                .unwrap();
        }
        let selected = cdp.eval(&session, "String(getSelection())").await;
        assert_eq!(selected, Ok(Value::String(SELECTED.into())));
    });
    // The agent's tab in front again, for real input.
    agent.ok("browser_switch_tab", json!({}));

    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let name = ref_of(&snap, "textbox", "Name");
    agent.ok("browser_click", json!({"ref": name}));
    for chord in [
        "Control+V",
        "Control+Shift+V",
        "Meta+V",
        "Shift+Insert",
        "Control+C",
        "Control+X",
        "Control+Insert",
        "Shift+Delete",
    ] {
        let (code, r) = agent.fails("browser_press_key", json!({"key": chord}));
        let said = text(&r);
        assert_eq!(code, "BAD_ARGS", "{chord}: {said}");
        assert_eq!(r["structuredContent"]["outcome"], "refused", "{said}");
        assert!(
            said.contains("clipboard") && said.contains(chord),
            "{chord}: {said}"
        );
    }
    let (code, r) = agent.fails("browser_click", json!({"ref": name, "button": "middle"}));
    assert_eq!(code, "BAD_ARGS", "{}", text(&r));
    assert!(text(&r).contains("selection"), "{}", text(&r));
    let (_, data) = agent.ok("browser_find", json!({"selector": "#name"}));
    assert!(!data.to_string().contains(COPIED), "{data}");
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(!snap.contains(COPIED) && !snap.contains(SELECTED), "{snap}");
    // A key that is no clipboard chord is still real input.
    agent.ok("browser_type", json!({"ref": name, "text": "Ada"}));
    agent.ok("browser_press_key", json!({"key": "Control+A"}));
    assert!(shown(&mut agent, "#typed").contains("typed for real: Ada"));
}
