//! The wait after an action (`waitUntil: "auto"`): what the page's own observer saw the action
//! start is waited for, and nothing else. The extension's answer says how the wait went
//! (`waited: {observed, graceMs, ms}`); the tools keep that to themselves, so one test reads it
//! through a controller of its own on the shared browser's relay.

use serde_json::{Value, json};
use tabpilot::shared::protocol::{Op, PeerInfo, Role};

use crate::harness::{runtime, shared};
use crate::peers::{Ws, connect, result, send, tab_call};
use crate::snapshot::ref_of;

/// A controller that talks to the relay itself, so it reads the extension's answers whole.
struct Direct {
    rt: tokio::runtime::Runtime,
    ws: Ws,
    next: u64,
}

impl Direct {
    fn new() -> Direct {
        let s = shared();
        let rt = runtime();
        let info = PeerInfo {
            name: "settle test".into(),
            ..Default::default()
        };
        let ws = rt.block_on(connect(
            s.env.first_port,
            Role::Controller,
            &s.env.secret(),
            info,
        ));
        Direct { rt, ws, next: 0 }
    }

    /// Runs one operation on this controller's tab; its answer, which must not be an error.
    fn call(&mut self, op: Op, args: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let (got, value, _) = self.rt.block_on(async {
            send(&mut self.ws, &tab_call(id, op, args)).await;
            result(&mut self.ws).await
        });
        assert_eq!(got, id);
        value.unwrap_or_else(|e| panic!("{op:?} failed: {e:?}"))
    }

    /// The tab's lean snapshot.
    fn snapshot(&mut self) -> String {
        let snap = self.call(Op::Snapshot, json!({}));
        snap["text"]
            .as_str()
            .expect("a snapshot's text")
            .to_string()
    }

    /// Loads `url` in this controller's tab; its snapshot.
    fn open(&mut self, url: &str) -> String {
        self.call(Op::Navigate, json!({ "url": url }));
        self.snapshot()
    }
}

#[test]
fn an_action_that_starts_nothing_waits_for_nothing() {
    let s = shared();
    let mut direct = Direct::new();
    let snap = direct.open(&s.a("activity.html"));
    let click = direct.call(
        Op::Click,
        json!({"ref": ref_of(&snap, "button", "Nothing")}),
    );
    // The page's observer answered for the page: no time went on the browser's late reports of
    // requests, and the long poll the page opened before the click did not hold the wait up
    // (it would have, to settleMs, and answered unsettled).
    assert_eq!(click["waited"]["observed"], true, "{click}");
    assert_eq!(click["waited"]["graceMs"], 0, "{click}");
    assert_eq!(click["settled"], true, "{click}");
    assert_eq!(click["navigated"], false, "{click}");
    let snap = direct.snapshot();
    assert!(snap.contains("Nothing started"), "{snap}");
}

#[test]
fn requests_started_in_a_zero_or_30_ms_timer_and_by_xhr_are_waited_for() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("activity.html")}));
    for (button, shows) in [
        ("Zero", "Zero fetched"),
        ("Thirty", "Thirty fetched"),
        ("Request", "Request loaded"),
    ] {
        // settleMs well past the request's 200 ms: a background tab may hold the page's
        // 30 ms timer back for up to a second.
        let (text, data) = agent.ok(
            "browser_click",
            json!({"ref": ref_of(&snap, "button", button), "include": "snapshot", "settleMs": 5000}),
        );
        assert!(
            data["snapshot"].as_str().unwrap().contains(shows),
            "the click on {button} came back before what it started had shown: {text}"
        );
    }
}

#[test]
fn a_navigation_a_click_handler_schedules_is_waited_for_and_reported() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("activity.html")}));
    let (text, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Leave"), "settleMs": 5000}),
    );
    assert_eq!(data["navigated"], true, "{text}");
    assert_eq!(data["url"], s.a("page2.html"), "{text}");
}

#[test]
fn the_page_sees_its_timers_and_requests_as_before_and_a_cancelled_timer_holds_nothing() {
    let s = shared();
    let mut direct = Direct::new();
    let snap = direct.open(&s.a("activity.html"));
    // A failed request is waited for like any, and its rejection reaches the page alone.
    let click = direct.call(Op::Click, json!({"ref": ref_of(&snap, "button", "Checks")}));
    assert_eq!(click["settled"], true, "{click}");
    let text = direct.snapshot();
    assert!(
        text.contains("promise ok; args ok; this ok; rejected ok; unhandled 0"),
        "{text}"
    );
    // A timer the page set and cleared is not waited for (until settleMs, unsettled).
    let click = direct.call(Op::Click, json!({"ref": ref_of(&snap, "button", "Cancel")}));
    assert_eq!(click["settled"], true, "{click}");
    assert_eq!(click["waited"]["observed"], true, "{click}");
}

#[test]
fn without_an_answer_from_the_page_the_browsers_reports_are_waited_for() {
    let s = shared();
    let mut direct = Direct::new();
    let snap = direct.open(&s.a("unobserved.html"));
    let click = direct.call(Op::Click, json!({"ref": ref_of(&snap, "button", "Fetch")}));
    // The wait fell back to the browser's reports of requests, and they caught the fetch.
    assert_eq!(click["waited"]["observed"], false, "{click}");
    let text = direct.snapshot();
    assert!(text.contains("Fetched unobserved"), "{text}");
}
