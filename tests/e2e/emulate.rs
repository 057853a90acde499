//! browser_emulate: a faked position that a page asking after the call gets (in the document
//! then and the next one), and a header that reaches the server from the agent's tab only, and
//! only at the origin it was set on, until another agent takes the tab; the audit trail names the
//! header, never its value; read-only mode refuses setting either.

use serde_json::json;

use crate::harness::{my_tab_id, shared};
use crate::recorder::{Recorder, Reply};
use crate::snapshot::ref_of;

const WHERE: &str = r#"<title>Where</title><main><button id="where">Where am I</button>
<p id="out">unknown</p></main><script>
document.getElementById('where').onclick = () => navigator.geolocation.getCurrentPosition(
  (p) => { document.getElementById('out').textContent = `at ${p.coords.latitude},${p.coords.longitude}`; },
  (e) => { document.getElementById('out').textContent = `error ${e.code}`; });
</script>"#;

// A page whose first script, in <head>, asks for its position as the page loads.
const ASKS_AT_LOAD: &str = r#"<!doctype html><title>Where at load</title><script>
const show = (t) => {
  const write = () => { document.getElementById('out').textContent = t; };
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', write); else write();
};
navigator.geolocation.getCurrentPosition(
  (p) => show(`at ${p.coords.latitude},${p.coords.longitude}`), (e) => show(`error ${e.code}`));
</script><main><p id="out">unknown</p></main>"#;

/// What the page wrote once it has an answer.
fn answer_at_load(agent: &mut crate::harness::Mcp) -> String {
    agent.ok(
        "browser_wait_for",
        json!({"textGone": "unknown", "timeout": 10000}),
    );
    let (_, data) = agent.ok("browser_find", json!({"selector": "#out"}));
    data["matches"][0].as_str().unwrap_or("").to_string()
}

fn asked_position(agent: &mut crate::harness::Mcp, url: &str) -> String {
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Where am I")}),
    );
    let (_, data) = agent.ok("browser_find", json!({"selector": "#out"}));
    data["matches"][0].as_str().unwrap().to_string()
}

#[test]
fn a_page_that_asks_after_the_call_gets_the_faked_position_in_this_document_and_the_next() {
    let s = shared();
    let server = Recorder::start(|_| Reply::html(WHERE));
    let mut agent = s.agent();
    let page = format!("{}/where", server.origin);
    agent.ok("browser_navigate", json!({"url": page}));
    let (text, data) = agent.ok(
        "browser_emulate",
        json!({"geolocation": {"latitude": 48.8584, "longitude": 2.2945}}),
    );
    assert!(text.contains("already has its answer"), "{text}");
    assert_eq!(data["geolocation"]["latitude"], 48.8584);
    // The document open at the call.
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Where am I")}),
    );
    let (_, found) = agent.ok("browser_find", json!({"selector": "#out"}));
    let now = found["matches"][0].as_str().unwrap_or("");
    assert!(now.contains("at 48.8584,2.2945"), "{found}");
    // A document the tab loads later.
    let again = asked_position(&mut agent, &format!("{page}?again"));
    assert!(again.contains("at 48.8584,2.2945"), "{again}");

    let (_, data) = agent.ok("browser_emulate", json!({"clear": ["geolocation"]}));
    assert!(data.get("geolocation").is_none(), "{data}");
    let cleared = asked_position(&mut agent, &format!("{page}?cleared"));
    assert!(
        !cleared.contains("48.8584"),
        "the position was cleared: {cleared}"
    );
}

#[test]
fn a_header_reaches_the_server_from_the_agents_tab_only_and_the_trail_names_it_without_its_value() {
    let s = shared();
    let server = Recorder::start(|_| Reply::html("<title>Seen</title><p>seen</p>"));
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-emulate", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let trail = dir.join("audit.jsonl");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &trail);
    });
    let value = "value-only-the-server-sees-7f3a";
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/set-here", server.origin)}),
    );
    let (text, data) = agent.ok(
        "browser_emulate",
        json!({"headers": {"X-Tabpilot-Test": value}}),
    );
    assert_eq!(data["headers"], json!(["x-tabpilot-test"]));
    assert!(!text.contains(value), "{text}");

    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/from-agent", server.origin)}),
    );
    let seen = server.seen("/from-agent");
    assert_eq!(
        seen[0].headers.get("x-tabpilot-test").map(String::as_str),
        Some(value),
        "{seen:?}"
    );

    // Another tab (another agent's) goes without it.
    let mut other = s.agent();
    other.ok(
        "browser_navigate",
        json!({"url": format!("{}/from-other", server.origin)}),
    );
    let seen = server.seen("/from-other");
    assert!(
        !seen.is_empty()
            && seen
                .iter()
                .all(|r| !r.headers.contains_key("x-tabpilot-test")),
        "{seen:?}"
    );

    let (text, _) = agent.ok("browser_emulate", json!({}));
    assert!(
        text.contains("x-tabpilot-test") && !text.contains(value),
        "{text}"
    );
    agent.ok("browser_emulate", json!({"clear": true}));
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/cleared", server.origin)}),
    );
    assert!(
        !server.seen("/cleared")[0]
            .headers
            .contains_key("x-tabpilot-test")
    );

    let written = std::fs::read_to_string(&trail).unwrap();
    assert!(written.contains("X-Tabpilot-Test"), "{written}");
    assert!(
        !written.contains(value),
        "the trail holds the header's value: {written}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn read_only_mode_and_a_sensitive_page_refuse_emulation_and_read_only_the_proxy_but_both_show_them()
{
    let s = shared();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_READ_ONLY", "1");
    });
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    for (tool, args) in [
        ("browser_emulate", json!({"headers": {"x-a": "1"}})),
        (
            "browser_emulate",
            json!({"geolocation": {"latitude": 1, "longitude": 2}}),
        ),
        ("browser_proxy", json!({"mode": "direct"})),
        ("browser_proxy", json!({"clear": true})),
    ] {
        let (code, r) = agent.fails(tool, args);
        assert_eq!(code, "READ_ONLY", "{r}");
        assert_eq!(r["structuredContent"]["outcome"], "refused");
    }
    let (_, data) = agent.ok("browser_emulate", json!({}));
    assert_eq!(data["headers"], json!([]));
    agent.ok("browser_proxy", json!({}));

    // On a sensitive page, emulation is acting on the page: refused, and reading still works.
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_SENSITIVE_ORIGINS", s.fixtures.a.as_str());
    });
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (code, r) = agent.fails("browser_emulate", json!({"headers": {"x-a": "1"}}));
    assert_eq!(code, "ORIGIN_BLOCKED", "{r}");
    agent.ok("browser_emulate", json!({}));
}

/// A tab handed to an agent and let go again keeps none of its emulation: the next request from
/// it, whoever makes it, goes without the header.
#[test]
fn a_tab_the_agent_lets_go_keeps_none_of_its_headers() {
    let s = shared();
    let server = Recorder::start(|_| Reply::html("<title>Seen</title><p>seen</p>"));
    let mut holder = s.agent();
    holder.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html?emulate=handed")}),
    );
    let tab = my_tab_id(&mut holder);
    let mut taker = s.agent();
    taker.ok(
        "browser_force_claim",
        json!({"tabId": tab, "reason": "the emulation test"}),
    );
    taker.ok(
        "browser_navigate",
        json!({"url": format!("{}/set-here", server.origin)}),
    );
    taker.ok("browser_emulate", json!({"headers": {"x-handed": "1"}}));
    taker.ok(
        "browser_navigate",
        json!({"url": format!("{}/while-held", server.origin)}),
    );
    assert!(
        server.seen("/while-held")[0]
            .headers
            .contains_key("x-handed")
    );
    taker.ok("browser_release", json!({}));

    holder.ok(
        "browser_force_claim",
        json!({"tabId": tab, "reason": "taking it back"}),
    );
    let (_, data) = holder.ok("browser_emulate", json!({}));
    assert_eq!(data["headers"], json!([]), "{data}");
    holder.ok(
        "browser_navigate",
        json!({"url": format!("{}/after-release", server.origin)}),
    );
    let seen = server.seen("/after-release");
    assert!(!seen[0].headers.contains_key("x-handed"), "{seen:?}");
}

fn carried(server: &Recorder, path: &str, header: &str) -> bool {
    let seen = server.seen(path);
    assert!(!seen.is_empty(), "{path} was never asked for");
    seen.iter().any(|r| r.headers.contains_key(header))
}

/// Issue 35, finding 12: a header set on an allowed page rides only on requests to that page's
/// origin: not on the tab's later requests to a sensitive origin, and not on another agent's
/// once it takes the tab.
#[test]
fn a_header_goes_only_to_the_origin_it_was_set_on_and_ends_when_another_agent_takes_the_tab() {
    let s = shared();
    let page = || Reply::html("<title>Seen</title><p>seen</p>");
    let allowed = Recorder::start(move |_| page());
    let sensitive = Recorder::start(move |_| page());
    let sensitive_origin = sensitive.origin.clone();
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_SENSITIVE_ORIGINS", &sensitive_origin);
    });
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/set-here", allowed.origin)}),
    );
    let (text, _) = agent.ok("browser_emulate", json!({"headers": {"x-scoped": "1"}}));
    assert!(text.contains("only with requests to the origin"), "{text}");
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/same-origin", allowed.origin)}),
    );
    assert!(carried(&allowed, "/same-origin", "x-scoped"));

    // The sensitive origin is the agent's to read: it goes there without the header.
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/read-only-here", sensitive.origin)}),
    );
    assert!(!carried(&sensitive, "/read-only-here", "x-scoped"));

    // Another agent takes the tab: its requests go without the first agent's header.
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/before-taken", allowed.origin)}),
    );
    assert!(carried(&allowed, "/before-taken", "x-scoped"));
    let tab = my_tab_id(&mut agent);
    let mut taker = s.agent();
    taker.ok(
        "browser_force_claim",
        json!({"tabId": tab, "reason": "the emulation scope test"}),
    );
    taker.ok(
        "browser_navigate",
        json!({"url": format!("{}/after-take", allowed.origin)}),
    );
    assert!(!carried(&allowed, "/after-take", "x-scoped"));
    let (_, data) = taker.ok("browser_emulate", json!({}));
    assert_eq!(data["headers"], json!([]), "{data}");
}

#[test]
fn a_page_that_asks_in_its_first_script_gets_the_faked_position_and_a_tab_without_one_does_not() {
    let s = shared();
    let server = Recorder::start(|_| Reply::html(ASKS_AT_LOAD));
    let mut agent = s.agent();
    let page = format!("{}/at-load", server.origin);
    agent.ok("browser_navigate", json!({"url": page}));
    agent.ok(
        "browser_emulate",
        json!({"geolocation": {"latitude": 51.5007, "longitude": -0.1246}}),
    );
    // Reloaded, and a new document of the same site: the first script asks before the document
    // could be reached at its commit (it got the browser's own answer).
    agent.ok("browser_navigate", json!({"reload": true}));
    let reloaded = answer_at_load(&mut agent);
    assert!(reloaded.contains("at 51.5007,-0.1246"), "{reloaded}");
    agent.ok("browser_navigate", json!({"url": format!("{page}?next")}));
    let next = answer_at_load(&mut agent);
    assert!(next.contains("at 51.5007,-0.1246"), "{next}");

    // Another tab on the same site (the override is registered by address), with no position
    // of its own: its call went on to the browser's own method, which a headless browser
    // answers with no permission (error 1), and the browser's own methods are back.
    let mut other = s.agent();
    other.ok("browser_navigate", json!({"url": format!("{page}?other")}));
    let (_, data) = other.ok(
        "browser_eval",
        json!({"expression": "String(Geolocation.prototype.getCurrentPosition).includes('[native code]')"}),
    );
    assert_eq!(data["value"], true, "{data}");
    let theirs = answer_at_load(&mut other);
    assert!(theirs.contains("error 1"), "{theirs}");
}
