//! Issue 28, finding 1, replayed: an agent asks `browser_get_network_request {revealValues:
//! true}` for the requests of a page whose response set an HttpOnly session cookie and whose
//! script sends a bearer token. The cookie's value (in the request's `Cookie` header and the
//! document's `Set-Cookie`) and the token reach the agent only where the person set
//! `TABPILOT_REVEAL_CREDENTIALS=1`, and not even then under read-only, no-eval, or for a
//! sensitive, denied or not-allowed origin; the audit trail records the reveal as such.

use std::process::Command;

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};

const COOKIE: &str = "HTTPONLY-SESSION-7f3a9c";
const BEARER: &str = "BEARER-TOKEN-51d0e8";

/// Loads the signed-in page and waits until its requests have ended; checks the cookie is
/// HttpOnly indeed (the page's own script cannot read it).
fn sign_in(agent: &mut Mcp) {
    agent.ok(
        "browser_navigate",
        json!({"url": shared().a("session/app.html")}),
    );
    agent.ok(
        "browser_wait_for",
        json!({"text": "Fetched:", "timeout": 10000}),
    );
    let (seen, _) = agent.ok("browser_snapshot", json!({}));
    assert!(
        seen.contains("script sees the session cookie: false"),
        "{seen}"
    );
}

/// Asks for a request with its credential values; returns its text and data.
fn reveal(agent: &mut Mcp, url: &str) -> (String, Value) {
    agent.ok(
        "browser_get_network_request",
        json!({"url": url, "revealValues": true}),
    )
}

fn leaks(text: &str, data: &Value) -> bool {
    let all = format!("{text}{data}");
    all.contains(COOKIE) || all.contains(BEARER)
}

/// An agent on the shared browser whose server runs with `env` besides the person's switch.
fn agent_with(env: &[(&str, String)]) -> Mcp {
    let env = env.to_vec();
    shared().agent_with(move |cmd: &mut Command| {
        cmd.env("TABPILOT_REVEAL_CREDENTIALS", "1");
        for (k, v) in env {
            cmd.env(k, v);
        }
    })
}

#[test]
fn an_http_only_cookie_reaches_an_agent_only_by_the_person_s_own_setting() {
    let s = shared();
    let origin_a = s.fixtures.a.clone();
    let origin_b = s.fixtures.b.clone();

    // No setting: neither the cookie (request and Set-Cookie) nor the bearer, by any tool.
    let mut agent = s.agent();
    sign_in(&mut agent);
    for url in ["api.txt?own", "session/app.html"] {
        let (text, data) = reveal(&mut agent, url);
        assert!(!leaks(&text, &data), "{text}");
        assert!(text.contains("TABPILOT_REVEAL_CREDENTIALS=1"), "{text}");
        assert!(text.contains(" chars, hidden)"), "{text}");
    }
    let (text, data) = agent.ok("browser_eval", json!({"expression": "document.cookie"}));
    assert!(!leaks(&text, &data), "{text}");
    drop(agent);

    // The person's setting, held back by each of the switches and lists.
    let holds = [
        ("TABPILOT_READ_ONLY", "1".to_string(), "api.txt?own"),
        ("TABPILOT_NO_EVAL", "1".to_string(), "api.txt?own"),
        (
            "TABPILOT_SENSITIVE_ORIGINS",
            origin_a.clone(),
            "api.txt?own",
        ),
        ("TABPILOT_ALLOW_ORIGINS", origin_a.clone(), "api.txt?cross"),
        ("TABPILOT_DENY_ORIGINS", origin_b.clone(), "api.txt?cross"),
    ];
    for (setting, value, url) in holds {
        let mut agent = agent_with(&[(setting, value)]);
        sign_in(&mut agent);
        let (text, data) = reveal(&mut agent, url);
        assert!(!leaks(&text, &data), "{setting}: {text}");
        // A denied origin's request never left the browser: it carries nothing to hide.
        if setting != "TABPILOT_DENY_ORIGINS" {
            assert!(text.contains(setting), "{setting}: {text}");
        }
    }

    // The person's setting alone: the values, and an audit line that says they were revealed.
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-reveal", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let trail = dir.join("audit.jsonl");
    let mut agent = agent_with(&[("TABPILOT_AUDIT_FILE", trail.display().to_string())]);
    sign_in(&mut agent);
    let (text, data) = reveal(&mut agent, "api.txt?own");
    assert!(text.contains(COOKIE) && text.contains(BEARER), "{text}");
    assert!(
        data["credentials"].as_str().unwrap().contains("shown"),
        "{data}"
    );
    let (text, _) = reveal(&mut agent, "api.txt?cross");
    assert!(text.contains(COOKIE), "the other origin is allowed: {text}");
    drop(agent);
    let lines = std::fs::read_to_string(&trail).unwrap();
    let asked: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["tool"] == "browser_get_network_request")
        .collect();
    assert_eq!(asked.len(), 2, "{lines}");
    for record in &asked {
        assert_eq!(record["revealed"], "credentials", "{record}");
        assert_eq!(record["args"]["revealValues"], true, "{record}");
    }
    assert!(
        !lines.contains(COOKIE) && !lines.contains(BEARER),
        "{lines}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
