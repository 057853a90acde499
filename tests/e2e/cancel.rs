//! A call the client cancels (`notifications/cancelled`) is cancelled in the browser too: an
//! action not yet dispatched never is, a wait stops, and the audit trail says what the call had
//! done. Each page here waits on a gate this test holds and opens, so no timing is guessed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::watch;

use crate::harness::{Mcp, runtime, serve_app, shared};
use crate::peers::{connect, send};
use crate::snapshot::ref_of;
use tabpilot::shared::protocol::{Frame, PeerInfo, Role};

/// Pages whose scripts wait on `/gate` (and a link to `/slow`, which waits on it too), served
/// on a port of their own; the test opens the gate.
struct Gated {
    origin: String,
    gate: Arc<watch::Sender<bool>>,
}

impl Gated {
    fn new() -> Gated {
        let gate = Arc::new(watch::Sender::new(false));
        let held = gate.clone();
        let opened = move || {
            let mut open = held.subscribe();
            async move {
                let _ = open.wait_for(|o| *o).await;
            }
        };
        let (at_gate, at_slow) = (opened.clone(), opened);
        let app = axum::Router::new()
            .route(
                "/page",
                axum::routing::get(|| async { axum::response::Html(PAGE) }),
            )
            .route(
                "/gate",
                axum::routing::get(move || {
                    let open = at_gate();
                    async move {
                        open.await;
                        "open"
                    }
                }),
            )
            .route(
                "/slow",
                axum::routing::get(move || {
                    let open = at_slow();
                    async move {
                        open.await;
                        axum::response::Html("<h1>Arrived</h1>")
                    }
                }),
            );
        Gated {
            origin: serve_app(app),
            gate,
        }
    }

    fn open(&self) {
        self.gate.send_replace(true);
    }
}

/// A button the page enables once the gate opens (a click waits for it, up to a second), text
/// shown then too, and a link to a page the server holds until then.
const PAGE: &str = r#"<!doctype html><title>Gated</title>
<button id="go" disabled onclick="this.textContent = 'Clicked'">Go</button>
<a href="/slow">Onward</a>
<p id="note">Waiting</p>
<script>
fetch('/gate').then(() => {
  document.getElementById('go').disabled = false;
  document.getElementById('note').textContent = 'Ready now';
});
</script>"#;

/// An agent whose audit trail is its own file.
fn audited(name: &str) -> (Mcp, std::path::PathBuf) {
    let trail = std::env::temp_dir().join(format!(
        "tabpilot-e2e-{}-{name}-audit.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&trail);
    let agent = shared().agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &trail);
    });
    (agent, trail)
}

/// The trail's line for the cancelled call of `tool`, once it is written.
fn cancelled_line(trail: &std::path::Path, tool: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let text = std::fs::read_to_string(trail).unwrap_or_default();
        let line = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["tool"] == tool && l["code"] == "CANCELLED");
        if let Some(line) = line {
            return line;
        }
        assert!(Instant::now() < deadline, "no cancelled {tool} in {text}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A tools/call request, written without waiting for its answer.
fn request(agent: &mut Mcp, id: u64, tool: &str, args: Value) {
    let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool}});
    msg["params"]["arguments"] = args;
    agent.send(&msg);
}

// A click still waiting for its button to be enabled, cancelled, never clicks: the page's
// check stops, so once the gate enables the button (within the second the check would have
// waited), nothing presses it. The trail says it was never dispatched.
#[test]
fn a_cancelled_click_waiting_for_its_element_never_clicks() {
    let page = Gated::new();
    let (mut agent, trail) = audited("cancel-click");
    let (nav, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/page", page.origin)}),
    );
    let go = ref_of(&nav, "button", "Go");
    request(&mut agent, 2001, "browser_click", json!({ "ref": go }));
    std::thread::sleep(Duration::from_millis(150));
    agent.notify("notifications/cancelled", &json!({"requestId": 2001}));
    let line = cancelled_line(&trail, "browser_click");
    page.open();
    agent.ok("browser_wait_for", json!({"text": "Ready now"}));
    // Past the second the click's check would have gone on for.
    std::thread::sleep(Duration::from_millis(1200));
    let (_, read) = agent.ok("browser_snapshot", json!({}));
    let shown = read["snapshot"].as_str().unwrap();
    assert!(
        !shown.contains("Clicked"),
        "the cancelled click ran: {shown}"
    );
    assert_eq!(line["outcome"], "refused", "{line}");
    let said = line["cancelled"].as_str().unwrap_or_default();
    assert!(
        said.contains("the click was never dispatched; nothing was done"),
        "{line}"
    );
    assert!(
        agent.early.iter().all(|m| m["id"] != 2001),
        "{:?}",
        agent.early
    );
}

// A click whose navigation is still loading, cancelled: the click had gone and is not undone,
// and the trail says so, while the page it goes to is still held (the extension stopped
// waiting for it rather than answering when it came).
#[test]
fn a_cancelled_click_says_it_was_dispatched_and_its_navigation_not_waited_for() {
    let page = Gated::new();
    let (mut agent, trail) = audited("cancel-navigation");
    let (nav, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/page", page.origin)}),
    );
    let onward = ref_of(&nav, "link", "Onward");
    request(&mut agent, 2101, "browser_click", json!({ "ref": onward }));
    std::thread::sleep(Duration::from_millis(400));
    agent.notify("notifications/cancelled", &json!({"requestId": 2101}));
    let line = cancelled_line(&trail, "browser_click");
    assert_eq!(line["outcome"], "partial", "{line}");
    let said = line["cancelled"].as_str().unwrap_or_default();
    assert!(
        said.contains("the click was dispatched and cannot be undone")
            && said.contains("the page's navigation was not waited for"),
        "{line}"
    );
    page.open();
    agent.ok("browser_wait_for", json!({"text": "Arrived"}));
}

// Threat (docs/security.md): another agent on the relay sends cancels for the numbers this
// agent's calls go under; its wait runs on and is met. Its own cancel stops its next wait, and
// the trail says how long it had waited.
#[test]
fn another_agent_cannot_cancel_a_wait_and_its_own_cancel_stops_it() {
    let s = shared();
    let page = Gated::new();
    let (mut agent, trail) = audited("cancel-wait");
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/page", page.origin)}),
    );
    request(
        &mut agent,
        2201,
        "browser_wait_for",
        json!({"text": "Ready now", "timeout": 20000}),
    );
    std::thread::sleep(Duration::from_millis(300));
    let lock = std::fs::read_to_string(s.env.relay_lock()).unwrap();
    let port: u16 = lock.split_whitespace().next().unwrap().parse().unwrap();
    runtime().block_on(async {
        let info = PeerInfo {
            name: "neighbour".into(),
            session_key: Some("a hostile neighbour's key".into()),
            ..Default::default()
        };
        let mut neighbour = connect(port, Role::Controller, &s.env.secret(), info).await;
        for id in 1..=64 {
            send(&mut neighbour, &Frame::Cancel { id }).await;
        }
    });
    std::thread::sleep(Duration::from_millis(300));
    page.open();
    let r = agent.response(2201);
    assert_ne!(r["result"]["isError"], true, "{r}");

    request(
        &mut agent,
        2202,
        "browser_wait_for",
        json!({"text": "never on this page", "timeout": 20000}),
    );
    std::thread::sleep(Duration::from_millis(300));
    agent.notify("notifications/cancelled", &json!({"requestId": 2202}));
    let line = cancelled_line(&trail, "browser_wait_for");
    assert_eq!(line["outcome"], "failed", "{line}");
    let said = line["cancelled"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("the wait stopped after ") && said.ends_with(" ms, not met"),
        "{line}"
    );
    assert!(line["ms"].as_u64().unwrap() < 5000, "{line}");
}
