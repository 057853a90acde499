//! browser_get_cookies and browser_set_cookie in a real browser: a login's HttpOnly session
//! cookie shown with its attributes and its value hidden, then revealed where the person allows
//! credentials; a cookie set by the agent reaching the server with the next request, and gone
//! once deleted; read-only mode, a sensitive page and a denied origin refusing what they must;
//! and the audit trail holding cookie names, never values. The shared browser's jar is every
//! test's (and cookies ignore ports), so each cookie here has a name of its own.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};

/// The value login.html's Set-Cookie gives the HttpOnly `tp_login` cookie.
const LOGIN: &str = "L0GIN-SESSION-c41e";
const ADDED: &str = "added-by-the-agent-93b1";

/// The Cookie header the fixture server got with a request from the agent's tab.
fn server_saw(agent: &mut Mcp) -> String {
    server_saw_at(agent, &shared().a("echo/cookies"))
}

fn server_saw_at(agent: &mut Mcp, url: &str) -> String {
    agent.ok("browser_navigate", json!({"url": url}));
    let (text, _) = agent.ok("browser_read_page", json!({}));
    text
}

fn the_one(data: &Value) -> &Value {
    let cookies = data["cookies"].as_array().expect("a cookie list");
    assert_eq!(cookies.len(), 1, "{data}");
    &cookies[0]
}

fn audit_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("audit.jsonl")
}

#[test]
fn a_logins_http_only_cookie_is_shown_hidden_then_revealed_and_a_set_cookie_reaches_the_server() {
    let s = shared();
    let file = audit_file("cookies");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_REVEAL_CREDENTIALS", "1")
            .env("TABPILOT_AUDIT_FILE", &file);
    });
    agent.ok("browser_navigate", json!({"url": s.a("login.html")}));

    // Its attributes, always; its value by its length.
    let (text, data) = agent.ok("browser_get_cookies", json!({"name": "tp_login"}));
    let c = the_one(&data);
    assert_eq!(c["httpOnly"], true, "{text}");
    assert_eq!(c["sameSite"], "lax", "{text}");
    assert_eq!(
        (&c["path"], &c["domain"]),
        (&json!("/"), &json!("127.0.0.1"))
    );
    assert!(c.get("expires").is_none(), "a session cookie: {text}");
    assert_eq!(c["len"], LOGIN.len());
    assert!(c.get("value").is_none() && !text.contains(LOGIN), "{text}");
    assert!(
        text.contains("HttpOnly") && text.contains("hidden"),
        "{text}"
    );
    assert_eq!(data["store"], "0", "the profile's own jar: {data}");

    // Revealed on request, where the person allows it.
    let (text, data) = agent.ok(
        "browser_get_cookies",
        json!({"name": "tp_login", "revealValues": true}),
    );
    assert_eq!(the_one(&data)["value"], LOGIN, "{text}");
    assert!(text.contains(LOGIN), "{text}");

    // A cookie the agent sets goes with the next request; deleted, it does not.
    let (text, data) = agent.ok(
        "browser_set_cookie",
        json!({"name": "tp_added", "value": ADDED, "sameSite": "strict"}),
    );
    assert_eq!(data["cookie"]["sameSite"], "strict", "{text}");
    assert!(!text.contains(ADDED), "{text}");
    let saw = server_saw(&mut agent);
    assert!(saw.contains(&format!("tp_added={ADDED}")), "{saw}");
    assert!(saw.contains(&format!("tp_login={LOGIN}")), "{saw}");
    let (text, data) = agent.ok(
        "browser_set_cookie",
        json!({"name": "tp_added", "delete": true}),
    );
    assert_eq!(data["deleted"], true, "{text}");
    let saw = server_saw(&mut agent);
    assert!(
        !saw.contains("tp_added") && saw.contains("tp_login"),
        "{saw}"
    );
    let (text, data) = agent.ok(
        "browser_set_cookie",
        json!({"name": "tp_added", "delete": true}),
    );
    assert!(
        data.get("deleted").is_none() && text.contains("nothing to delete"),
        "{text}"
    );

    // The trail names the cookies and never holds a value, revealed or set.
    let raw = std::fs::read_to_string(&file).unwrap();
    assert!(
        raw.contains("\"tp_login\"") && raw.contains("\"tp_added\""),
        "{raw}"
    );
    assert!(!raw.contains(LOGIN) && !raw.contains(ADDED), "{raw}");
}

#[test]
fn cookie_values_stay_hidden_without_the_persons_setting() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("login.html")}));
    let (text, data) = agent.ok(
        "browser_get_cookies",
        json!({"name": "tp_login", "revealValues": true}),
    );
    assert!(the_one(&data).get("value").is_none(), "{text}");
    assert!(!text.contains(LOGIN), "{text}");
    assert!(text.contains("TABPILOT_REVEAL_CREDENTIALS=1"), "{text}");
}

#[test]
fn read_only_a_sensitive_page_and_a_denied_origin_refuse_what_they_must() {
    let s = shared();
    // Read-only: cookies are read, never set or deleted.
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_READ_ONLY", "1");
    });
    agent.ok("browser_navigate", json!({"url": s.a("login.html")}));
    agent.ok("browser_get_cookies", json!({"name": "tp_login"}));
    for args in [
        json!({"name": "tp_ro", "value": "x"}),
        json!({"name": "tp_login", "delete": true}),
    ] {
        let (code, r) = agent.fails("browser_set_cookie", args);
        assert_eq!(code, "READ_ONLY", "{r}");
    }
    assert_eq!(
        agent
            .ok("browser_get_cookies", json!({"name": "tp_login"}))
            .1["cookies"][0]["name"],
        "tp_login",
        "the login cookie is still there"
    );

    // A sensitive page: its cookies are read, not changed, also when named by url.
    let origin_a = s.fixtures.a.clone();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_SENSITIVE_ORIGINS", &origin_a);
    });
    agent.ok("browser_navigate", json!({"url": s.a("login.html")}));
    agent.ok("browser_get_cookies", json!({"name": "tp_login"}));
    let (code, r) = agent.fails("browser_set_cookie", json!({"name": "tp_s", "value": "x"}));
    assert_eq!(code, "ORIGIN_BLOCKED", "{r}");
    let (code, r) = agent.fails(
        "browser_set_cookie",
        json!({"name": "tp_s", "value": "x", "url": s.a("login.html")}),
    );
    assert_eq!(code, "ORIGIN_BLOCKED", "{r}");

    // A denied origin's cookies are never read.
    let origin_b = s.fixtures.b.clone();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_DENY_ORIGINS", &origin_b);
    });
    agent.ok("browser_navigate", json!({"url": s.a("login.html")}));
    let (code, r) = agent.fails("browser_get_cookies", json!({"url": s.b("login.html")}));
    assert_eq!(code, "ORIGIN_BLOCKED", "{r}");
}

/// Issue 35, finding 8: cookies ignore ports, so the app on a denied port of 127.0.0.1 and the
/// agent's allowed one share a jar. From the allowed port the agent neither reads the denied
/// app's HttpOnly session cookie (revealed, where the person allows credentials), by the cookie
/// tools or in its own requests' `Cookie` header, nor plants or deletes a cookie the denied app
/// would then get.
#[test]
fn a_cookie_the_browser_sends_to_a_denied_port_is_neither_shown_nor_set_from_an_allowed_one() {
    let s = shared();
    const PLANTED: &str = "planted-by-the-agent-5d20";
    // The person logs in to the app on B.
    let mut person = s.agent();
    person.ok("browser_navigate", json!({"url": s.b("login.html")}));

    let denied = s.fixtures.b.clone();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_REVEAL_CREDENTIALS", "1")
            .env("TABPILOT_DENY_ORIGINS", &denied);
    });
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (text, data) = agent.ok(
        "browser_get_cookies",
        json!({"name": "tp_login", "revealValues": true}),
    );
    assert_eq!(data["cookies"], json!([]), "{text}");
    assert!(
        !text.contains(LOGIN) && !data.to_string().contains(LOGIN),
        "{text}"
    );
    assert!(
        text.contains("1 cookie(s) left out") && text.contains(&denied),
        "{text}"
    );

    // Neither set nor deleted: by the page, by url, or for the whole domain.
    for args in [
        json!({"name": "tp_planted", "value": PLANTED}),
        json!({"name": "tp_planted", "value": PLANTED, "url": s.a("basic.html")}),
        json!({"name": "tp_planted", "value": PLANTED, "domain": "127.0.0.1"}),
        json!({"name": "tp_login", "delete": true}),
    ] {
        let (code, r) = agent.fails("browser_set_cookie", args.clone());
        assert_eq!(code, "ORIGIN_BLOCKED", "{args}: {r}");
        assert!(r.to_string().contains(&denied), "{r}");
    }
    let saw = server_saw_at(&mut person, &s.b("echo/cookies"));
    assert!(
        !saw.contains("tp_planted") && saw.contains(&format!("tp_login={LOGIN}")),
        "{saw}"
    );

    // Nor through the network log: the allowed port's requests carry the host's cookies.
    agent.ok("browser_navigate", json!({"url": s.a("echo/cookies")}));
    let (text, data) = agent.ok(
        "browser_get_network_request",
        json!({"url": "echo/cookies", "revealValues": true}),
    );
    assert!(
        !text.contains(LOGIN) && !data.to_string().contains(LOGIN),
        "{text}"
    );
    assert!(
        text.contains("shared with an origin kept from agents"),
        "{text}"
    );
}
