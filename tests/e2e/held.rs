//! A secret is held by the field it was filled into (issue 35, findings 3, 4, 7 and 14): a long
//! one in a plain text field is shown by its length by every reading tool, keys that would edit
//! it in place are refused, no selector tests its value, a screenshot draws it veiled, and a form
//! holding it submits only to the secret's origins.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::browser::image_of;
use crate::fill_by_name::add;
use crate::harness::{Env, Mcp, text};
use crate::snapshot::ref_of;

/// A value of `len` letters and digits, different for every run.
fn random_value(len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut x = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    (0..len)
        .map(|_| {
            // xorshift64: spread enough that no six-character run is ordinary text.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % ALPHABET.len() as u64) as usize] as char
        })
        .collect()
}

/// The first run of six or more characters of `secret` that `said` holds.
fn run_of(secret: &str, said: &str) -> Option<String> {
    let chars: Vec<char> = secret.chars().collect();
    chars
        .windows(6)
        .map(|w| w.iter().collect::<String>())
        .find(|run| said.contains(run.as_str()))
}

/// A tool's whole answer as text: what it says and its structured content.
fn all_of(r: &Value) -> String {
    format!("{}\n{}", text(r), r["structuredContent"])
}

#[test]
fn a_long_secret_in_a_text_field_stays_masked_through_edits_and_every_read() {
    let env = Env::fresh("held");
    let fixtures = crate::fixtures::serve(env.first_port);
    let secret = random_value(160);
    add(&env, "api-key", &fixtures.a, Some(&secret), &[]);
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);
    let url = format!("{}/held.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let key = ref_of(&snap, "textbox", "API key");

    // The same value typed in clear, as the field draws it.
    agent.ok("browser_type", json!({"ref": key, "text": secret}));
    let clear = agent.call("browser_screenshot", json!({"ref": key}));
    assert_ne!(clear["isError"], true, "{}", text(&clear));
    let clear = image_of(&clear).to_rgba8();

    // Filled by name, then edited as finding 4 did: each key is refused, the value stays whole.
    agent.ok("browser_type", json!({"ref": key, "secret": "api-key"}));
    for key in ["Backspace", "ArrowLeft", "x"] {
        let (code, r) = agent.fails("browser_press_key", json!({ "key": key }));
        assert_eq!(code, "BAD_ARGS", "{}", text(&r));
        assert!(
            text(&r).contains("holds the secret api-key"),
            "{}",
            text(&r)
        );
    }
    let (length, _) = agent.ok(
        "browser_eval",
        json!({"expression": "document.getElementById('key').value.length"}),
    );
    assert!(length.contains("160"), "the field was edited: {length}");

    // The page keeps the value attribute in step, as React does: no selector tests it.
    for selector in [
        format!("#key[value^=\"{}\"]", &secret[..1]),
        format!("form:has(#key[value^=\"{}\"])", &secret[..6]),
    ] {
        let (_, data) = agent.ok("browser_find", json!({ "selector": selector }));
        assert_eq!(data["total"], 0, "{selector} tests the value: {data}");
    }

    // Every read: no run of six of its characters, whatever cuts or slices the value. Each
    // problem is kept, so one run names them all.
    let mut problems = Vec::new();
    let mut answers = Vec::new();
    for (tool, args) in [
        ("browser_snapshot", json!({})),
        ("browser_snapshot", json!({"verbose": true})),
        ("browser_find", json!({"role": "textbox"})),
        ("browser_find", json!({"text": "You typed"})),
        ("browser_get_html", json!({})),
        ("browser_get_html", json!({"ref": key})),
        ("browser_read_page", json!({})),
        (
            "browser_eval",
            json!({"expression": "document.getElementById('key').value"}),
        ),
        (
            "browser_eval",
            json!({"expression": "document.getElementById('key').value.slice(3, 150)"}),
        ),
        (
            "browser_eval",
            json!({"expression": "({v: document.getElementById('key').value})", "maxChars": 100}),
        ),
        ("browser_screenshot", json!({"ref": key})),
    ] {
        let r = agent.call(tool, args.clone());
        assert_ne!(r["isError"], true, "{tool} {args}: {}", text(&r));
        let said = all_of(&r);
        if let Some(run) = run_of(&secret, &said) {
            problems.push(format!(
                "{tool} {args} shows {run:?} of the secret:\n{said}"
            ));
        }
        answers.push((tool, r));
    }
    let snapshot = text(&answers[0].1);
    if !snapshot.contains("••• (160 chars, hidden)") {
        problems.push(format!("the field is not shown by its length:\n{snapshot}"));
    }

    // The capture draws the field veiled: not the pixels of the same value in clear.
    let veiled = image_of(&answers[answers.len() - 1].1).to_rgba8();
    assert_eq!(veiled.dimensions(), clear.dimensions());
    if veiled.as_raw() == clear.as_raw() {
        problems.push("the screenshot shows the secret as typed in clear".into());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));

    // Replaced whole by a plain value, the field is the agent's again.
    agent.ok("browser_type", json!({"ref": key, "text": "plain words"}));
    agent.ok("browser_press_key", json!({"key": "Backspace"}));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("\"plain word\""), "{snap}");
}

#[test]
fn a_form_holding_a_secret_submits_only_to_the_secrets_origins() {
    let env = Env::fresh("held-submit");
    let fixtures = crate::fixtures::serve(env.first_port);
    let secret = random_value(24);
    add(&env, "api-key", &fixtures.a, Some(&secret), &[]);
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);
    let url = format!("{}/held.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let key = ref_of(&snap, "textbox", "API key");
    let token = ref_of(&snap, "textbox", "Token");
    let stays = |agent: &mut Mcp, what: &str| {
        let (at, _) = agent.ok("browser_eval", json!({"expression": "location.href"}));
        assert!(at.contains(&url), "{what} left the page: {at}");
    };

    // Typed with submit into the form that posts to the other origin: refused before the fill.
    let (code, r) = agent.fails(
        "browser_type",
        json!({"ref": token, "secret": "api-key", "submit": true}),
    );
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{}", text(&r));
    assert!(text(&r).contains(&fixtures.b), "{}", text(&r));
    let (length, _) = agent.ok(
        "browser_eval",
        json!({"expression": "document.getElementById('token').value.length"}),
    );
    assert!(length.contains('0'), "the field was filled: {length}");

    // Filled (the field's own origin is the secret's), then each way of submitting it is refused.
    agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": token, "secret": "api-key"}]}),
    );
    let (code, r) = agent.fails("browser_press_key", json!({"key": "Enter"}));
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{}", text(&r));
    stays(&mut agent, "Enter");
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Send")}),
    );
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{}", text(&r));
    stays(&mut agent, "a click on Send");

    // A form of the secret's own origin: its button with a formaction elsewhere is refused, its
    // own button submits.
    agent.ok("browser_type", json!({"ref": key, "secret": "api-key"}));
    let (code, r) = agent.fails(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Save elsewhere")}),
    );
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{}", text(&r));
    stays(&mut agent, "a click on Save elsewhere");
    let (said, _) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Save")}),
    );
    let (at, _) = agent.ok("browser_eval", json!({"expression": "location.pathname"}));
    assert!(at.contains("/result.html"), "{said}\n{at}");
}

/// Finding 4 as it was found: eval switched off, a secret shorter than any cut in a plain text
/// field, edited in place and read back from snapshots.
#[test]
fn without_eval_a_filled_secret_cannot_be_edited_into_a_readable_value() {
    let env = Env::fresh("held-no-eval");
    let fixtures = crate::fixtures::serve(env.first_port);
    let secret = random_value(24);
    add(&env, "api-key", &fixtures.a, Some(&secret), &[]);
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_NO_EVAL", "1");
    });
    let url = format!("{}/held.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let key = ref_of(&snap, "textbox", "API key");
    agent.ok("browser_type", json!({"ref": key, "secret": "api-key"}));
    let mut said = Vec::new();
    for key in ["Backspace", "ArrowLeft", "x"] {
        let (code, r) = agent.fails("browser_press_key", json!({ "key": key }));
        assert_eq!(code, "BAD_ARGS", "{}", text(&r));
        said.push(all_of(&r));
        let r = agent.call("browser_snapshot", json!({}));
        assert!(text(&r).contains("••• (24 chars, hidden)"), "{}", text(&r));
        said.push(all_of(&r));
    }
    for s in said {
        assert_eq!(run_of(&secret, &s), None, "{s}");
    }
}
