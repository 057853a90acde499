//! Planted secrets stay out: a password typed, a card number filled, the relay secret and a
//! pairing code. No tool result of the session, no file under its state dir (the audit trail and
//! the relay's log included) and nothing the server, the relay and the browser write on stderr,
//! all at trace level, holds any of them; the reading tools show a secret field's value by its
//! length. This test runs in an environment of its own (relay, browser, state dir), so that the
//! relay it checks logs at trace level too.

use std::fs::File;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp, holding};
use crate::snapshot::ref_of;

/// Calls a tool that must succeed, keeping its text and data for the leak check.
fn ok(agent: &mut Mcp, seen: &mut Vec<String>, tool: &str, args: Value) -> (String, Value) {
    let (text, data) = agent.ok(tool, args);
    seen.push(format!("{tool}: {text}\n{data}"));
    (text, data)
}

/// The line of a snapshot (or find) naming this element.
fn line_of<'a>(text: &'a str, role: &str, name: &str) -> &'a str {
    let needle = format!("{role} \"{name}\"");
    text.lines()
        .find(|l| l.contains(&needle))
        .unwrap_or_else(|| panic!("no {needle} in:\n{text}"))
}

#[test]
fn planted_secrets_stay_out_of_results_files_and_logs() {
    let env = Env::fresh("secrets");
    let fixtures = crate::fixtures::serve(env.first_port);
    let stderr_path = env.state_dir.with_extension("stderr");
    let stderr = File::create(&stderr_path).unwrap();
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_LOG", "trace").stderr(stderr);
    });
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let password = format!("pw-{unique}-hunter2");
    let card = format!("4{:015}", unique % 1_000_000_000_000_000);
    let mut seen = Vec::new();
    let seen = &mut seen;

    let url = format!("{}/secrets.html", fixtures.a);
    let (snap, _) = ok(&mut agent, seen, "browser_navigate", json!({ "url": url }));
    let field = |name: &str| ref_of(&snap, "textbox", name);
    ok(
        &mut agent,
        seen,
        "browser_type",
        json!({"ref": field("Password"), "text": password, "include": "snapshot"}),
    );
    ok(
        &mut agent,
        seen,
        "browser_fill_form",
        json!({"fields": [
            {"ref": field("Name on card"), "value": "Ada Lovelace"},
            {"ref": field("Card number"), "value": card},
            {"ref": field("Security code"), "value": "737"},
        ]}),
    );
    let (code, _) = crate::person::pair(&env);
    let relay_secret = String::from_utf8(env.secret()).unwrap();

    // The reading tools show each secret field by its length, and take a value the page
    // reflects (the value attributes, the card number shown back) out of what they return.
    let hidden = |s: &str| format!("••• ({} chars, hidden)", s.chars().count());
    let (_, data) = ok(&mut agent, seen, "browser_snapshot", json!({}));
    let snap = data["snapshot"].as_str().unwrap();
    assert!(
        line_of(snap, "textbox", "Password").ends_with(&hidden(&password)),
        "{snap}"
    );
    assert!(
        line_of(snap, "textbox", "Card number").ends_with(&hidden(&card)),
        "{snap}"
    );
    assert!(
        line_of(snap, "textbox", "Security code").ends_with(&hidden("737")),
        "{snap}"
    );
    assert!(
        line_of(snap, "textbox", "Name on card").ends_with("\"Ada Lovelace\""),
        "{snap}"
    );
    for format in ["markdown", "text"] {
        let (_, data) = ok(
            &mut agent,
            seen,
            "browser_read_page",
            json!({ "format": format }),
        );
        let content = data["content"].as_str().unwrap();
        assert!(
            content.contains(&format!("Card: {}", hidden(&card))),
            "{content}"
        );
    }
    let (_, data) = ok(&mut agent, seen, "browser_get_html", json!({}));
    let html = data["html"].as_str().unwrap();
    assert!(
        html.contains(&format!("value=\"{}\"", hidden(&password))),
        "{html}"
    );
    assert!(html.contains("value=\"Ada Lovelace\""), "{html}");
    assert!(html.contains(&hidden("draft note")), "{html}");
    ok(
        &mut agent,
        seen,
        "browser_get_html",
        json!({"ref": field("Card number")}),
    );
    let (found, _) = ok(&mut agent, seen, "browser_find", json!({"role": "textbox"}));
    assert!(
        line_of(&found, "textbox", "Card number").ends_with(&hidden(&card)),
        "{found}"
    );
    ok(&mut agent, seen, "browser_find", json!({"text": "Card"}));
    ok(&mut agent, seen, "browser_status", json!({}));
    drop(agent);

    let markers = [
        password.as_str(),
        card.as_str(),
        relay_secret.as_str(),
        code.as_str(),
        "draft note",
    ];
    for result in seen.iter() {
        for (i, m) in markers.iter().enumerate() {
            assert!(!result.contains(m), "secret #{i} is in a result:\n{result}");
        }
    }
    // The files are there to look in: the trail of these calls, the relay's log, the stderr of
    // the server (with the browser's) at trace level.
    let trail = std::fs::read_to_string(env.state_dir.join("audit.jsonl")).unwrap();
    assert!(trail.contains("browser_type") && trail.contains("browser_fill_form"));
    let relay_log = std::fs::read_to_string(env.state_dir.join("relay.log")).unwrap();
    assert!(relay_log.contains("relay listening"), "{relay_log}");
    let stderr = std::fs::read(&stderr_path).unwrap();
    assert!(
        String::from_utf8_lossy(&stderr).contains("started a managed Chromium"),
        "{}",
        String::from_utf8_lossy(&stderr)
    );
    let mut leaks = holding(&env.state_dir, &markers);
    for (i, m) in markers.iter().enumerate() {
        if stderr.windows(m.len()).any(|w| w == m.as_bytes()) {
            leaks.push(format!("the server's stderr holds secret #{i}"));
        }
    }
    assert!(leaks.is_empty(), "{leaks:#?}");
}
