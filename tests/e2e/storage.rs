//! browser_storage in a real browser: a key set, read (hidden, then revealed), seen by the page
//! after a reload, removed, and an area cleared; a frame's own origin storage by one of its refs;
//! the bounds said; read-only mode refusing the writes; no-eval leaving it working; and the audit
//! trail holding key names, never values.

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};
use crate::snapshot::ref_of;

const CART: &str = "3 apples 9f2c";

/// What the page shows in its cart, read from the page after loading it again.
fn page_says(agent: &mut Mcp) -> String {
    agent.ok(
        "browser_navigate",
        json!({"url": shared().a("storage.html")}),
    );
    agent.ok("browser_read_page", json!({})).0
}

fn items(data: &Value) -> &Vec<Value> {
    data["items"].as_array().expect("an item list")
}

#[test]
fn a_key_is_set_read_hidden_then_revealed_seen_by_the_page_removed_and_an_area_cleared() {
    let s = shared();
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-storage", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("audit.jsonl");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_REVEAL_CREDENTIALS", "1")
            .env("TABPILOT_AUDIT_FILE", &file);
    });
    assert!(page_says(&mut agent).contains("In the cart: nothing"));

    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "set", "key": "cart", "value": CART}),
    );
    assert_eq!(data["origin"], s.fixtures.a, "{text}");
    assert!(!text.contains(CART), "{text}");
    let (text, data) = agent.ok("browser_storage", json!({"action": "get", "key": "cart"}));
    let item = &items(&data)[0];
    assert_eq!(
        (&item["key"], &item["len"]),
        (&json!("cart"), &json!(CART.len()))
    );
    assert!(
        item.get("value").is_none() && !text.contains(CART),
        "{text}"
    );
    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "key": "cart", "revealValues": true}),
    );
    assert_eq!(items(&data)[0]["value"], CART, "{text}");
    assert!(page_says(&mut agent).contains(&format!("In the cart: {CART}")));

    agent.ok(
        "browser_storage",
        json!({"action": "remove", "key": "cart"}),
    );
    let (_, data) = agent.ok("browser_storage", json!({"action": "get", "key": "cart"}));
    assert!(items(&data).is_empty(), "{data}");
    assert!(page_says(&mut agent).contains("In the cart: nothing"));

    // sessionStorage is the tab's own: cleared, it holds nothing.
    agent.ok(
        "browser_storage",
        json!({"action": "set", "area": "session", "key": "step", "value": "2"}),
    );
    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "clear", "area": "session"}),
    );
    assert_eq!(data["total"], 0, "{text}");

    let raw = std::fs::read_to_string(&file).unwrap();
    assert!(
        raw.contains("\"cart\"") && raw.contains("\"step\""),
        "{raw}"
    );
    assert!(!raw.contains(CART), "{raw}");
}

#[test]
fn a_frames_storage_is_its_own_origins_by_one_of_its_refs() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("storage.html")}));
    let button = ref_of(&snap, "button", "Frame button");
    assert!(button.starts_with('f'), "a ref in the frame: {button}");
    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "set", "key": "in-frame", "value": "x", "ref": button}),
    );
    assert_eq!(data["origin"], s.fixtures.b, "{text}");
    let (_, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "key": "in-frame", "ref": button}),
    );
    assert_eq!(items(&data).len(), 1, "{data}");
    let (_, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "key": "in-frame"}),
    );
    assert!(
        items(&data).is_empty(),
        "the top page's origin is another: {data}"
    );
    agent.ok(
        "browser_storage",
        json!({"action": "remove", "key": "in-frame", "ref": button}),
    );
}

#[test]
fn the_bounds_say_what_they_left_out() {
    let s = shared();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_REVEAL_CREDENTIALS", "1");
    });
    let url = format!("{}?many", s.a("storage.html"));
    agent.ok("browser_navigate", json!({"url": url}));
    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "area": "session"}),
    );
    assert_eq!(
        (items(&data).len(), &data["total"]),
        (100, &json!(150)),
        "{text}"
    );
    assert!(text.contains("50 more keys"), "{text}");
    let long = "y".repeat(5000);
    agent.ok(
        "browser_storage",
        json!({"action": "set", "area": "session", "key": "long", "value": long}),
    );
    let (text, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "area": "session", "key": "long", "revealValues": true}),
    );
    let item = &items(&data)[0];
    assert_eq!(
        (&item["len"], &item["cut"]),
        (&json!(5000), &json!(true)),
        "{text}"
    );
    assert!(item["value"].as_str().unwrap().len() < 5000);
    assert!(text.contains("1 values cut short"), "{text}");
}

#[test]
fn read_only_refuses_the_writes_and_no_eval_leaves_storage_working() {
    let s = shared();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_READ_ONLY", "1");
    });
    agent.ok("browser_navigate", json!({"url": s.a("storage.html")}));
    agent.ok("browser_storage", json!({"action": "get"}));
    for args in [
        json!({"action": "set", "key": "k", "value": "v"}),
        json!({"action": "remove", "key": "k"}),
        json!({"action": "clear"}),
    ] {
        let (code, r) = agent.fails("browser_storage", args);
        assert_eq!(code, "READ_ONLY", "{r}");
    }

    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_NO_EVAL", "1");
    });
    agent.ok("browser_navigate", json!({"url": s.a("storage.html")}));
    agent.ok(
        "browser_storage",
        json!({"action": "set", "area": "session", "key": "ne", "value": "1"}),
    );
    let (_, data) = agent.ok(
        "browser_storage",
        json!({"action": "get", "area": "session", "key": "ne"}),
    );
    assert_eq!(items(&data)[0]["len"], 1, "{data}");
}
