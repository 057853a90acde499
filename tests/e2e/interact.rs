//! Acting on the page in a real Chromium: actionability, fill_form across frames and shadow
//! roots, React-controlled inputs, and the rest of the interaction set.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, ref_of, shared, text};

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
    assert_eq!(code, "NOT_ACTIONABLE", "{}", text(&r));
    assert!(
        text(&r).contains("covered by <div#cookie-banner> \"We use cookies"),
        "{}",
        text(&r)
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
    let msg = text(&r);
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
    assert!(text(&r).contains("hidden or disabled"), "{}", text(&r));
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
        "Editor.input=1",
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
