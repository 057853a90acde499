//! Acting on the page in a real Chromium: actionability, fill_form across frames and shadow
//! roots, React-controlled inputs, and the rest of the interaction set.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, sandbox_dir, shared, text};
use crate::snapshot::ref_of;

/// The page's text as browser_read_page gives it.
fn page_text(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_read_page", json!({"format": "text"}));
    data["content"].as_str().unwrap().to_string()
}

fn snapshot(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    data["snapshot"].as_str().unwrap().to_string()
}

/// Reads the page until `needle` shows, for effects that land just after a call returns.
fn wait_text(agent: &mut Mcp, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let t = page_text(agent);
        if t.contains(needle) || Instant::now() > deadline {
            return t;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn open(agent: &mut Mcp, url: &str) -> String {
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    snap
}

#[test]
fn a_covered_click_is_refused_within_about_a_second_naming_the_cover_and_nothing_is_clicked() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("checkout.html"));
    let pay = ref_of(&snap, "button", "Pay");
    // The required fields filled, so that a click on Pay submits (and the page says so).
    agent.ok(
        "browser_fill_form",
        json!({"fields": [
            {"ref": ref_of(&snap, "textbox", "Full name"), "value": "Ada"},
            {"ref": ref_of(&snap, "textbox", "Email"), "value": "ada@example.com"},
        ]}),
    );
    let t0 = Instant::now();
    let (code, r) = agent.fails("browser_click", json!({"ref": pay}));
    let elapsed = t0.elapsed();
    assert_eq!(code, "NOT_ACTIONABLE", "{}", text_of(&r));
    assert!(
        text_of(&r).contains("covered by <div#cookie-banner> \"We use cookies"),
        "{}",
        text_of(&r)
    );
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    // The form was not submitted: its submit handler writes a verdict.
    let page = page_text(&mut agent);
    assert!(!page.contains("Payment refused"), "{page}");
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Accept cookies")}),
    );
    agent.ok("browser_click", json!({"ref": pay}));
    let page = wait_text(&mut agent, "Payment refused");
    assert!(page.contains("Payment refused"), "{page}");
}

#[test]
fn the_whole_checkout_takes_six_tool_calls() {
    let s = shared();
    let mut agent = s.agent();
    let mut calls = 0;
    let mut call = |agent: &mut Mcp, tool: &str, args: Value| {
        calls += 1;
        agent.ok(tool, args)
    };
    let (snap, _) = call(
        &mut agent,
        "browser_navigate",
        json!({"url": s.a("checkout.html")}),
    );
    call(
        &mut agent,
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Accept cookies")}),
    );
    // The state select shows only once a country with states is chosen, and a snapshot lists
    // only what shows: choose the country and take the fresh snapshot in the same call.
    let (snap2, _) = call(
        &mut agent,
        "browser_select_option",
        json!({"ref": ref_of(&snap, "combobox", "Country"), "values": ["United States"], "include": "snapshot"}),
    );
    let r = |role: &str, name: &str| ref_of(&snap2, role, name);
    let fields = json!([
        {"ref": r("textbox", "Full name"), "value": "Ada Lovelace"},
        {"ref": r("textbox", "Email"), "value": "ada@example.com"},
        {"ref": r("combobox", "Country"), "value": "United States"},
        {"ref": r("combobox", "State"), "value": "New York"},
        {"ref": r("radio", "Express"), "value": true},
        {"ref": r("checkbox", "I accept the terms"), "value": "yes"},
        {"ref": r("checkbox", "Send me news"), "value": false},
        {"ref": r("textbox", "Card number"), "value": "4242424242424242", "element": "card number"},
        {"ref": r("textbox", "Expiry"), "value": "12/29"},
        {"ref": r("textbox", "Promo code"), "value": "SAVE10"},
    ]);
    let (text, data) = call(&mut agent, "browser_fill_form", json!({"fields": fields}));
    assert_eq!(data["outcome"], "done", "{text}");
    assert_eq!(
        (data["filled"].clone(), data["total"].clone()),
        (json!(10), json!(10))
    );
    assert!(
        text.starts_with("Filled 10 of 10 fields (1 already had that value)"),
        "{text}"
    );
    call(
        &mut agent,
        "browser_click",
        json!({"ref": r("button", "Pay")}),
    );
    let (page, _) = call(&mut agent, "browser_read_page", json!({"format": "text"}));
    assert!(
        page.contains(
            "Paid: Ada Lovelace ada@example.com us/ny express news=false promo=SAVE10 card=…4242 exp=12/29"
        ),
        "{page}"
    );
    assert!(calls <= 8, "{calls} calls");
}

#[test]
fn fill_form_checks_every_field_before_writing_any() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("checkout.html"));
    let name = ref_of(&snap, "textbox", "Full name");
    let country = ref_of(&snap, "combobox", "Country");
    let card = ref_of(&snap, "textbox", "Card number");
    // An unknown option, a frame that is not there, a boolean for a text field: each refuses the
    // whole call, and the fields before it stay empty.
    let (code, r) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": name, "value": "Ada"}, {"ref": card, "value": "4242"}, {"ref": country, "value": "Germany"}]}),
    );
    assert_eq!(code, "BAD_ARGS");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    let msg = text_of(&r);
    assert!(msg.contains("nothing was filled"), "{msg}");
    assert!(
        msg.contains("\"France\" (\"fr\"), \"United States\" (\"us\")"),
        "{msg}"
    );
    let local = card.split_once(':').unwrap().1;
    let (code, _) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": name, "value": "Ada"}, {"ref": format!("f99999:{local}"), "value": "1"}]}),
    );
    assert_eq!(code, "STALE_REF");
    let (code, _) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": name, "value": "Ada"}, {"ref": card, "value": true}]}),
    );
    assert_eq!(code, "BAD_ARGS");
    let snap = snapshot(&mut agent);
    assert!(!snap.contains("\"Ada\""), "{snap}");
    assert!(!snap.contains("\"4242\""), "{snap}");
}

#[test]
fn a_hidden_field_is_allowed_only_after_a_field_that_can_reveal_it() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("checkout.html"));
    let country = ref_of(&snap, "combobox", "Country");
    // Learn the state's ref while it shows, then hide it again.
    let (snap2, _) = agent.ok(
        "browser_select_option",
        json!({"ref": country, "values": ["us"], "include": "snapshot"}),
    );
    let state = ref_of(&snap2, "combobox", "State");
    agent.ok(
        "browser_select_option",
        json!({"ref": country, "values": ["fr"]}),
    );
    let (code, r) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": state, "value": "ca"}]}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
    assert!(
        text_of(&r).contains("hidden or disabled"),
        "{}",
        text_of(&r)
    );
    let (text, data) = agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": country, "value": "us"}, {"ref": state, "value": "California"}]}),
    );
    assert_eq!(data["outcome"], "done", "{text}");
    let snap = snapshot(&mut agent);
    assert!(
        snap.contains(&format!("[ref={state}]: \"California\"")),
        "{snap}"
    );
    // Still hidden at its turn (the earlier field did not reveal it): that field fails alone.
    let (_, data) = agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": country, "value": "fr"}, {"ref": state, "value": "ny"}]}),
    );
    assert_eq!(data["outcome"], "partial");
    assert_eq!(data["errors"][0]["code"], "NOT_ACTIONABLE");
    assert_eq!(data["errors"][0]["ref"], json!(state));
}

#[test]
fn fill_form_sets_each_kind_fires_events_only_on_change_and_reports_per_field() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("fields.html"));
    let r = |role: &str, name: &str| ref_of(&snap, role, name);
    let fields = json!([
        {"ref": r("textbox", "Name"), "value": "Ada"},
        {"ref": r("textbox", "Notes"), "value": "two\nlines"},
        {"ref": r("checkbox", "Agree"), "value": "on"},
        {"ref": r("radio", "Blue"), "value": false},
        {"ref": r("listbox", "Toppings"), "value": "Olives"},
        {"ref": r("spinbutton", "Age"), "value": "36"},
        {"ref": r("textbox", "Editor"), "value": "new text"},
    ]);
    let (text, data) = agent.ok("browser_fill_form", json!({"fields": fields}));
    assert_eq!(data["outcome"], "done", "{text}");
    let log = page_text(&mut agent);
    for fired in [
        "name.change=1 name.input=1",
        "notes.change=1 notes.input=1",
        "agree.change=1 agree.input=1",
        "color.change=1 color.input=1",
        "toppings.change=1 toppings.input=1",
        "age.change=1 age.input=1",
        // An editable element takes the text as keys, an input event for each (typing.js).
        "Editor.input=8",
    ] {
        assert!(log.contains(fired), "{fired} in {log}");
    }
    let snap2 = snapshot(&mut agent);
    assert!(snap2.contains("\"Ada\""), "{snap2}");
    assert!(snap2.contains("- radio \"Blue\" [ref="), "{snap2}");
    // The same values again change nothing and fire nothing. (An editable element's ref
    // includes its text, so the editor's is taken afresh.)
    let mut fields = fields;
    fields[6]["ref"] = json!(ref_of(&snap2, "textbox", "Editor"));
    let (text, _) = agent.ok("browser_fill_form", json!({"fields": fields}));
    assert!(text.contains("(7 already had that value)"), "{text}");
    assert_eq!(page_text(&mut agent), log);
    // A checkbox takes a boolean or a synonym; anything else fails that field alone.
    let (text, data) = agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": r("textbox", "Name"), "value": "Grace"}, {"ref": r("checkbox", "Agree"), "value": "maybe", "element": "Agree box"}]}),
    );
    assert_eq!(data["outcome"], "partial", "{text}");
    assert_eq!(
        (data["filled"].clone(), data["total"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(data["errors"][0]["ref"], json!(r("checkbox", "Agree")));
    assert!(
        text.contains("Agree box") && text.contains("give true or false"),
        "{text}"
    );
    assert!(!text.contains('\n'), "{text}");
    // Read-only and letters for a number are refused before anything is written.
    for (field, value) in [(r("textbox", "Code"), "x"), (r("spinbutton", "Age"), "old")] {
        let (code, _) = agent.fails(
            "browser_fill_form",
            json!({"fields": [{"ref": r("textbox", "Name"), "value": "Nobody"}, {"ref": field, "value": value}]}),
        );
        assert!(code == "NOT_ACTIONABLE" || code == "BAD_ARGS", "{code}");
    }
    assert!(snapshot(&mut agent).contains("\"Grace\""));
}

#[test]
fn react_sees_what_fill_form_and_type_write() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("react-form.html"));
    let r = |role: &str, name: &str| ref_of(&snap, role, name);
    let (text, data) = agent.ok(
        "browser_fill_form",
        json!({"fields": [
            {"ref": r("textbox", "Name"), "value": "Ada"},
            {"ref": r("combobox", "Plan"), "value": "Team"},
            {"ref": r("radio", "Large"), "value": true},
            {"ref": r("checkbox", "I agree"), "value": true},
            {"ref": r("textbox", "Bio"), "value": "Analyst"},
        ]}),
    );
    assert_eq!(data["outcome"], "done", "{text}");
    agent.ok(
        "browser_type",
        json!({"ref": r("textbox", "Email"), "text": "ada@example.com"}),
    );
    // The live line is rendered from React state, not read from the inputs.
    let page = wait_text(&mut agent, "Live: Ada <ada@example.com>");
    assert!(page.contains("Live: Ada <ada@example.com>"), "{page}");
    agent.ok("browser_click", json!({"ref": r("button", "Send")}));
    let page = wait_text(&mut agent, "Sent:");
    assert!(
        page.contains(r#"Sent: {"name":"Ada","email":"ada@example.com","plan":"team","size":"l","agree":true,"bio":"Analyst"}"#),
        "{page}"
    );
}

#[test]
fn click_by_point_double_right_and_with_modifiers() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("canvas.html"));
    let (text, _) = agent.ok("browser_click", json!({"x": 50, "y": 60}));
    assert!(
        text.starts_with("Clicked at (50, 60), which hit <canvas#map>"),
        "{text}"
    );
    agent.ok(
        "browser_click",
        json!({"x": 10, "y": 20, "doubleClick": true, "modifiers": ["Shift", "Control"]}),
    );
    let (text, _) = agent.ok("browser_click", json!({"x": 5, "y": 5, "button": "right"}));
    assert!(text.starts_with("Right-clicked"), "{text}");
    let log = page_text(&mut agent);
    for seen in [
        "click@50,60/b0/d1",
        "click@10,20/b0/d1/ctrl+shift click@10,20/b0/d2/ctrl+shift dblclick@10,20/b0/d2/ctrl+shift",
        "contextmenu@5,5/b2/d1",
    ] {
        assert!(log.contains(seen), "{seen} in {log}");
    }
    let (code, _) = agent.fails("browser_click", json!({"x": 5}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails("browser_click", json!({"x": 5, "y": 5, "ref": "e12345"}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails("browser_click", json!({"x": 50000, "y": 5}));
    assert_eq!(code, "NOT_ACTIONABLE");
}

#[test]
fn press_key_types_edits_moves_focus_and_submits() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("keys.html"));
    let first = ref_of(&snap, "textbox", "First");
    agent.ok("browser_click", json!({"ref": first}));
    for k in ["a", "b", "c", "Backspace"] {
        agent.ok("browser_press_key", json!({"key": k}));
    }
    let (text, _) = agent.ok("browser_press_key", json!({"key": "Control+A"}));
    assert!(text.contains("selected all text"), "{text}");
    agent.ok("browser_press_key", json!({"key": "X"}));
    let (text, data) = agent.ok("browser_press_key", json!({"key": "Tab"}));
    assert!(text.contains("focus moved to <input#second>"), "{text}");
    assert_eq!(data["focused"], "<input#second>");
    agent.ok("browser_press_key", json!({"key": "z"}));
    agent.ok("browser_press_key", json!({"key": "Shift+Tab"}));
    agent.ok("browser_press_key", json!({"key": "Tab"}));
    agent.ok("browser_press_key", json!({"key": "Tab"}));
    let (text, _) = agent.ok("browser_press_key", json!({"key": "ArrowDown"}));
    assert!(text.contains("selected \"Medium\""), "{text}");
    agent.ok("browser_press_key", json!({"key": "Shift+Tab"}));
    let (text, _) = agent.ok("browser_press_key", json!({"key": "Enter"}));
    assert!(text.contains("submitted the form"), "{text}");
    let log = wait_text(&mut agent, "submitted");
    for seen in [
        "a/KeyA@first b/KeyB@first c/KeyC@first Backspace/Backspace@first a/KeyA/ctrl@first X/KeyX@first",
        "Tab/Tab@first z/KeyZ@second Tab/Tab/shift@second Tab/Tab@first Tab/Tab@second ArrowDown/ArrowDown@size",
        "Tab/Tab/shift@size Enter/Enter@second",
        "submitted first=X second=z size=Medium",
    ] {
        assert!(log.contains(seen), "{seen} in {log}");
    }
    let (code, _) = agent.fails("browser_press_key", json!({"key": "Hyper+Q"}));
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn focus_sends_the_keys_that_follow_to_an_element_and_refuses_one_that_takes_none() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("keys.html"));
    let second = ref_of(&snap, "textbox", "Second");
    let (text, _) = agent.ok("browser_focus", json!({"ref": second}));
    assert!(text.starts_with("Focused <input#second>"), "{text}");
    agent.ok("browser_press_key", json!({"key": "q"}));
    let log = wait_text(&mut agent, "focused second");
    assert!(log.contains("keys: q/KeyQ@second"), "{log}");
    let fake = ref_of(&snap, "button", "Fake");
    let (code, r) = agent.fails("browser_focus", json!({"ref": fake}));
    assert_eq!(code, "NOT_ACTIONABLE");
    assert!(
        text_of(&r).contains("<div#fake> \"Fake\" does not take focus"),
        "{}",
        text_of(&r)
    );
}

#[test]
fn fill_form_submits_with_enter_in_the_last_field_and_not_when_a_field_is_refused() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("keys.html"));
    let (first, second) = (
        ref_of(&snap, "textbox", "First"),
        ref_of(&snap, "textbox", "Second"),
    );
    let size = ref_of(&snap, "combobox", "Size");
    let (text, data) = agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": first, "value": "Ada"}, {"ref": second, "value": "Lovelace"}], "submit": true}),
    );
    assert!(
        text.contains("then Enter in <input#second>: submitted the form"),
        "{text}"
    );
    assert_eq!(data["submitted"]["effect"], "submitted the form", "{data}");
    let page = wait_text(&mut agent, "submitted first");
    assert!(
        page.contains("submitted first=Ada second=Lovelace size=Small"),
        "{page}"
    );

    // A field refused: nothing is filled, and nothing is sent.
    let (code, _) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": first, "value": "Bea"}, {"ref": size, "value": "Huge"}], "submit": true}),
    );
    assert_eq!(code, "BAD_ARGS");
    assert!(!page_text(&mut agent).contains("first=Bea"));
}

#[test]
fn hover_drag_html5_and_pointer_and_refuse_a_drag_across_frames() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("drag.html"));
    let card = ref_of(&snap, "button", "Task card");
    let done = ref_of(&snap, "button", "Done");
    let (text, data) = agent.ok("browser_drag", json!({"startRef": card, "endRef": done}));
    assert!(text.contains("(HTML5 drag and drop)"), "{text}");
    assert_eq!(data["dropped"], true);
    let knob = ref_of(&snap, "slider", "Volume");
    let (text, _) = agent.ok("browser_drag", json!({"startRef": knob, "endRef": done}));
    assert!(text.contains("(pointer drag)"), "{text}");
    let page = wait_text(&mut agent, "knob moved");
    assert!(page.contains("dropped task-42 in done dragend"), "{page}");
    assert!(page.contains("knob moved"), "{page}");
    let (text, _) = agent.ok("browser_hover", json!({"ref": done}));
    assert!(text.starts_with("Hovered over <div#done>"), "{text}");
    let snap = open(&mut agent, &s.a("checkout.html"));
    let (code, r) = agent.fails(
        "browser_drag",
        json!({"startRef": ref_of(&snap, "textbox", "Card number"), "endRef": ref_of(&snap, "textbox", "Email")}),
    );
    assert_eq!(code, "BAD_ARGS");
    assert!(text_of(&r).contains("different frames"), "{}", text_of(&r));
}

fn text_of(r: &Value) -> String {
    text(r)
}

#[test]
fn select_option_by_value_or_label_and_refuses_unknown_options_naming_them() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("fields.html"));
    let toppings = ref_of(&snap, "listbox", "Toppings");
    let (text, data) = agent.ok(
        "browser_select_option",
        json!({"ref": toppings, "values": ["ham", "Olives"]}),
    );
    assert!(text.starts_with("Selected \"Ham\", \"Olives\""), "{text}");
    assert_eq!(data["selected"], json!(["Ham", "Olives"]));
    let (text, _) = agent.ok(
        "browser_select_option",
        json!({"ref": toppings, "values": ["Olives", "ham"]}),
    );
    assert!(text.contains("already selected; no events fired"), "{text}");
    assert!(page_text(&mut agent).contains("toppings.change=1 toppings.input=1"));
    let (code, r) = agent.fails(
        "browser_select_option",
        json!({"ref": toppings, "values": ["Pineapple"]}),
    );
    assert_eq!(code, "BAD_ARGS");
    assert!(
        text_of(&r).contains("\"Ham\" (\"ham\"), \"Egg\" (\"egg\"), \"Olives\" (\"olive\")"),
        "{}",
        text_of(&r)
    );
    let snap = open(&mut agent, &s.a("checkout.html"));
    let country = ref_of(&snap, "combobox", "Country");
    let (code, _) = agent.fails(
        "browser_select_option",
        json!({"ref": country, "values": ["fr", "us"]}),
    );
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn clear_empties_a_field_and_an_editor_with_events() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("fields.html"));
    let name = ref_of(&snap, "textbox", "Name");
    agent.ok("browser_type", json!({"ref": name, "text": "Ada"}));
    let (text, _) = agent.ok("browser_clear", json!({"ref": name}));
    assert!(text.starts_with("Cleared <input>"), "{text}");
    let (text, _) = agent.ok("browser_clear", json!({"ref": name}));
    assert!(text.contains("was already empty"), "{text}");
    agent.ok(
        "browser_clear",
        json!({"ref": ref_of(&snap, "textbox", "Editor")}),
    );
    let snap = snapshot(&mut agent);
    assert!(!snap.contains("\"Ada\""), "{snap}");
    let log = page_text(&mut agent);
    assert!(!log.contains("old text"), "{log}");
    assert!(log.contains("Editor.input=1"), "{log}");
    let (code, _) = agent.fails(
        "browser_clear",
        json!({"ref": ref_of(&snap, "checkbox", "Agree")}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
}

#[test]
fn scroll_finds_the_one_dominant_panel_and_refuses_to_guess_between_two() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("scroll-panel.html"));
    let (text, data) = agent.ok("browser_scroll", json!({"direction": "down"}));
    assert!(text.starts_with("Scrolled <div#feed>"), "{text}");
    let first = data["to"].as_u64().unwrap();
    assert!(first > 0, "{data}");
    let (_, data) = agent.ok(
        "browser_scroll",
        json!({"direction": "down", "amount": 100}),
    );
    assert_eq!(data["from"].as_u64().unwrap(), first);
    assert_eq!(data["to"].as_u64().unwrap(), first + 100);
    let (_, data) = agent.ok(
        "browser_scroll",
        json!({"direction": "up", "amount": 100000}),
    );
    assert_eq!(data["to"], 0);
    open(&mut agent, &s.a("two-panels.html"));
    let (code, r) = agent.fails("browser_scroll", json!({"direction": "down"}));
    assert_eq!(code, "ELEMENT_AMBIGUOUS");
    let msg = text_of(&r);
    assert!(
        msg.contains("<div#inbox>") && msg.contains("<div#reader>"),
        "{msg}"
    );
    // The candidates come with refs; one of them scrolls its panel, which had not moved.
    let at = msg.find("<div#reader>").unwrap();
    let reader: String = msg[at..]
        .split("ref=")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == ':')
        .collect();
    let (text, data) = agent.ok(
        "browser_scroll",
        json!({"ref": reader, "direction": "down"}),
    );
    assert!(text.starts_with("Scrolled <div#reader>"), "{text}");
    assert_eq!(data["from"], 0);
}

#[test]
fn scroll_goes_to_a_position_or_brings_a_selectors_element_into_view() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("long-article.html"));
    let (text, data) = agent.ok("browser_scroll", json!({"y": 600}));
    assert_eq!(data["to"], 600, "{text}");
    assert!(
        text.starts_with("Scrolled the page to x 0, y 600"),
        "{text}"
    );
    let (text, data) = agent.ok("browser_scroll", json!({"y": 10_000_000}));
    assert!(text.contains("as far as it goes"), "{text}");
    assert_eq!(data["to"], data["max"], "{data}");
    let (_, data) = agent.ok("browser_scroll", json!({"y": 0}));
    assert_eq!(data["to"], 0);
    let (text, _) = agent.ok("browser_scroll", json!({"selector": "footer a"}));
    assert!(
        text.starts_with("Scrolled <a") && text.contains("into view"),
        "{text}"
    );
    assert!(!text.contains("still not visible"), "{text}");
    let (code, _) = agent.fails("browser_scroll", json!({"selector": "#nope"}));
    assert_eq!(code, "NOT_FOUND");
    let (code, _) = agent.fails("browser_scroll", json!({"selector": "[[["}));
    assert_eq!(code, "BAD_ARGS");
    for bad in [
        json!({"selector": "footer", "direction": "down"}),
        json!({"y": 10, "direction": "down"}),
        json!({"x": 10, "amount": 5}),
    ] {
        let (code, _) = agent.fails("browser_scroll", bad.clone());
        assert_eq!(code, "BAD_ARGS", "{bad}");
    }
    // A page that does not scroll: the position goes to its one dominant panel.
    open(&mut agent, &s.a("scroll-panel.html"));
    let (text, data) = agent.ok("browser_scroll", json!({"y": 50}));
    assert!(
        text.starts_with("Scrolled <div#feed>") && text.ends_with("to x 0, y 50"),
        "{text}"
    );
    assert_eq!(data["to"], 50);
}

#[test]
fn upload_sets_files_in_the_page_a_frame_and_a_shadow_root_and_keeps_to_the_sandbox() {
    let s = shared();
    let mut agent = s.agent();
    let dir = sandbox_dir("upload");
    let hello = dir.join("hello.txt");
    let notes = dir.join("notes.csv");
    std::fs::write(&hello, "hello, upload").unwrap();
    std::fs::write(&notes, "a,b\n1,2\n").unwrap();
    let (hello, notes) = (hello.to_str().unwrap(), notes.to_str().unwrap());
    let snap = open(&mut agent, &s.a("upload.html"));
    let (text, data) = agent.ok(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Avatar"), "paths": [hello]}),
    );
    assert!(text.starts_with("Set hello.txt (13 bytes) on"), "{text}");
    assert_eq!(data["files"][0]["size"], 13);
    agent.ok(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Attachments"), "paths": [hello, notes]}),
    );
    agent.ok(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Shadow file"), "paths": [notes]}),
    );
    agent.ok(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Frame file"), "paths": [hello]}),
    );
    let page = wait_text(&mut agent, "frame:");
    for seen in [
        "avatar:hello.txt:13:text/plain:hello, uploa",
        "docs:hello.txt:13:text/plain:hello, uploa",
        "docs:notes.csv:8:text/csv:a,b",
        "shadow:notes.csv:8:text/csv:a,b",
        "frame:hello.txt:13:hello, uploa",
    ] {
        assert!(page.contains(seen), "{seen} in {page}");
    }
    // 3 MiB: more than one controller frame holds, so it goes in parts.
    let big = dir.join("big.txt");
    std::fs::write(&big, "x".repeat(3 << 20)).unwrap();
    let avatar = ref_of(&snap, "button", "Avatar");
    let (text, _) = agent.ok(
        "browser_upload_file",
        json!({"ref": avatar, "paths": [big]}),
    );
    assert!(text.starts_with("Set big.txt (3145728 bytes)"), "{text}");
    let page = wait_text(&mut agent, "avatar:big.txt");
    assert!(
        page.contains("avatar:big.txt:3145728:text/plain:xxxxxxxxxxxx"),
        "{page}"
    );
    let (code, _) = agent.fails(
        "browser_upload_file",
        json!({"ref": avatar, "paths": [hello, notes]}),
    );
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "textbox", "Name"), "paths": [hello]}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
    let (code, r) = agent.fails(
        "browser_upload_file",
        json!({"ref": avatar, "paths": ["/etc/hostname"]}),
    );
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_check_is_waited_out_and_each_refusal_names_its_check() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("actionable.html"));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Arm")}),
    );
    // Disabled at the call, enabled 400 ms later: the click waits for it.
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Later")}),
    );
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Never")}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
    assert!(
        text_of(&r).contains("<button#never> \"Never\" is disabled (checked for"),
        "{}",
        text_of(&r)
    );
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Runner")}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
    assert!(
        text_of(&r).contains("is not stable (moving)"),
        "{}",
        text_of(&r)
    );
    let log = page_text(&mut agent);
    assert!(log.contains("log: later-clicked"), "{log}");
    assert!(
        !log.contains("never-clicked") && !log.contains("runner-clicked"),
        "{log}"
    );
}

// The agent's tab is in front, so the page's animation frames run: an element moved on them is
// not stable, though the page runs nothing else (no timer, no message loop, no CSS animation)
// and a still one beside it takes its click.
#[test]
fn an_element_moved_on_animation_frames_is_not_stable() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("glider.html"));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Still")}),
    );
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Glider")}),
    );
    assert_eq!(code, "NOT_ACTIONABLE");
    assert!(
        text_of(&r).contains("is not stable (moving)"),
        "{}",
        text_of(&r)
    );
    let log = page_text(&mut agent);
    assert!(
        log.contains("still-clicked") && !log.contains("glider-clicked"),
        "{log}"
    );
}

// Typing writes to the field itself, wherever its box is, so it does not wait for the box to
// stand still (the frame a click's stability look costs): a moving field takes the text, where
// a moving button is refused (above).
#[test]
fn a_moving_field_takes_typing() {
    let s = shared();
    let mut agent = s.agent();
    let snap = open(&mut agent, &s.a("actionable.html"));
    let drifter = ref_of(&snap, "textbox", "Drifter");
    agent.ok("browser_type", json!({"ref": drifter, "text": "still"}));
    assert!(
        snapshot(&mut agent).contains(&format!("[ref={drifter}]: \"still\"")),
        "the moving field did not take the text"
    );
}
