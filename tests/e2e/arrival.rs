//! Advanced mode at a navigation and at the browser's own prompts: a script that runs before the
//! page's own on one navigation only, the page's "Leave site?" prompt answered, and a dialog
//! already open answered through the debugger; and, with the mode off, each refused by the
//! extension naming it.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::Cdp;
use crate::fixtures::serve;
use crate::harness::{Env, Mcp, my_tab, runtime, shared};

/// The page's status line (`#out`), once the page put `prefix` in it.
fn status(agent: &mut Mcp, prefix: &str) -> String {
    agent.ok(
        "browser_wait_for",
        json!({"text": prefix, "timeout": 10000}),
    );
    let (_, data) = agent.ok("browser_find", json!({"selector": "#out"}));
    data["matches"][0].as_str().unwrap().to_string()
}

#[test]
fn an_init_script_stubs_fetch_for_the_first_script_of_that_navigation_only() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let stub = "window.fetch = async () => new Response(JSON.stringify({from: 'the stub'}));";
    let url = s.a("arrival.html");
    // The call may return as soon as the document commits (`waitUntil: "none"`, the answer held
    // back a moment): the script is in that document all the same.
    let slow = format!("{url}?delay=300");
    let (text, _) = agent.ok(
        "browser_navigate",
        json!({"url": slow, "initScript": stub, "waitUntil": "none", "includeSnapshot": false}),
    );
    assert!(text.contains("initScript"), "{text}");
    assert!(!text.contains(stub), "the script is not echoed: {text}");
    assert!(status(&mut agent, "got: ").contains("\"got: the stub\""));
    // The same page loaded again runs without it.
    agent.ok(
        "browser_navigate",
        json!({"url": url, "includeSnapshot": false}),
    );
    assert!(status(&mut agent, "got: ").contains("\"got: server\""));
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}

#[test]
fn with_advanced_mode_off_the_extension_refuses_each_naming_it() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let to = s.a("page2.html");
    for (tool, args) in [
        (
            "browser_navigate",
            json!({"url": to, "initScript": "window.x = 1"}),
        ),
        (
            "browser_navigate",
            json!({"url": to, "handleBeforeUnload": "accept"}),
        ),
        ("browser_handle_dialog", json!({"answer": true})),
    ] {
        let (code, r) = agent.fails(tool, args.clone());
        let said = crate::harness::text(&r);
        assert_eq!(code, "ADVANCED_MODE_REQUIRED", "{args}: {said}");
        assert!(said.contains("advanced mode is off"), "{args}: {said}");
        assert_eq!(r["structuredContent"]["outcome"], "refused", "{r}");
    }
    // Nothing went: the tab is where it was.
    assert!(
        my_tab(&mut agent)["url"]
            .as_str()
            .unwrap()
            .ends_with("basic.html")
    );
}

/// A browser of the test's own with the agent's tab in front at fixture `page` (a dialog of a
/// background tab is the browser's to dismiss), and DevTools on it for a person's click.
fn own_browser(
    rt: &tokio::runtime::Runtime,
    name: &str,
    page: &str,
) -> (Env, crate::fixtures::Fixtures, Mcp, Cdp) {
    let env = Env::fresh(name);
    let fixtures = serve(env.first_port);
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/{page}", fixtures.a);
    agent.ok("browser_new_tab", json!({"url": url, "active": true}));
    let cdp = crate::person::devtools(rt, &env);
    (env, fixtures, agent, cdp)
}

/// What a person does: clicks in the page at `url`, which gives it a user activation (Chrome
/// shows a "Leave site?" prompt only to a page that had one).
fn person_clicks(rt: &tokio::runtime::Runtime, cdp: &mut Cdp, url: &str) {
    rt.block_on(async {
        let pages = cdp.pages().await.unwrap();
        let (target, _) = pages.iter().find(|(_, u)| u == url).expect("the tab");
        let session = cdp.attach(target).await.unwrap();
        cdp.eval_loaded(&session, "1").await.unwrap();
        cdp.click_at(&session, 20.0, 20.0).await;
        let active = cdp
            .eval(&session, "navigator.userActivation.hasBeenActive")
            .await;
        assert_eq!(active, Ok(Value::Bool(true)));
        cdp.send("Target.detachFromTarget", json!({"sessionId": session}))
            .await
            .unwrap();
    });
}

#[test]
fn a_leave_site_prompt_is_dismissed_to_stay_and_accepted_to_leave() {
    let rt = runtime();
    let (_env, fixtures, mut agent, mut cdp) = own_browser(&rt, "arrival-leave", "leave.html");
    let leave = format!("{}/leave.html", fixtures.a);
    let next = format!("{}/page2.html", fixtures.a);
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    person_clicks(&rt, &mut cdp, &leave);

    let (code, r) = agent.fails(
        "browser_navigate",
        json!({"url": next, "handleBeforeUnload": "dismiss", "timeout": 10000}),
    );
    let said = crate::harness::text(&r);
    assert_eq!(code, "NAVIGATION_FAILED", "{said}");
    assert!(
        said.contains("dismissed") && said.contains("stayed"),
        "{said}"
    );
    assert_eq!(my_tab(&mut agent)["url"], leave);

    let (text, data) = agent.ok(
        "browser_navigate",
        json!({"url": next, "handleBeforeUnload": "accept", "timeout": 10000}),
    );
    assert_eq!(data["beforeUnload"], "accepted", "{text}");
    assert!(
        text.contains("\"Leave site?\" prompt was accepted"),
        "{text}"
    );
    assert_eq!(data["url"], next, "{text}");
    assert_eq!(my_tab(&mut agent)["url"], next);
}

#[test]
fn an_open_confirm_is_answered_through_the_debugger_and_the_page_sees_it() {
    let rt = runtime();
    let (_env, fixtures, mut agent, _cdp) = own_browser(&rt, "arrival-confirm", "basic.html");
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let url = format!("{}/confirm-later.html", fixtures.a);
    agent.ok(
        "browser_navigate",
        json!({"url": url, "includeSnapshot": false}),
    );
    // The page opens its confirm a moment after its load; it stays open, waiting for an answer.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, data) = agent.ok("browser_handle_dialog", json!({}));
        if data["open"]["kind"] == "confirm" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the confirm never opened: {data}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, _) = agent.fails("browser_snapshot", json!({}));
    assert_eq!(code, "DIALOG_OPEN");

    let (text, data) = agent.ok("browser_handle_dialog", json!({"answer": true}));
    assert_eq!(data["answered"]["kind"], "confirm", "{text}");
    assert_eq!(data["answered"]["answer"], true, "{text}");
    assert!(text.contains("the page got true"), "{text}");
    assert!(status(&mut agent, "confirm: ").contains("\"confirm: true\""));
    let (code, _) = agent.fails("browser_handle_dialog", json!({"answer": true}));
    assert_eq!(code, "NOT_FOUND");
}

#[test]
fn an_init_script_runs_only_in_documents_of_the_origin_asked_for_not_after_a_redirect() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let mark = "window.__tabpilotInit = location.origin;";
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("trusted.html"), "initScript": mark}),
    );
    let (_, top) = agent.ok(
        "browser_eval",
        json!({"expression": "window.__tabpilotInit"}),
    );
    assert_eq!(top["value"], s.fixtures.a, "{top}");
    // The other origin's frame in that page never ran it.
    let inside = crate::snapshot::ref_of(&snap, "button", "Frame go");
    let (_, frame) = agent.ok(
        "browser_eval",
        json!({"function": "(el) => String(window.__tabpilotInit)", "ref": inside}),
    );
    assert_eq!(frame["value"], "undefined", "{frame}");

    // A URL that redirects to another origin (a sensitive page, say) takes the script nowhere.
    let elsewhere = s.b("basic.html");
    let hop =
        crate::recorder::Recorder::start(move |_| crate::recorder::Reply::redirect(&elsewhere));
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/hop", hop.origin), "initScript": mark}),
    );
    let (_, there) = agent.ok(
        "browser_eval",
        json!({"expression": "[location.origin, String(window.__tabpilotInit)]"}),
    );
    assert_eq!(
        there["value"],
        json!([s.fixtures.b, "undefined"]),
        "{there}"
    );
    agent.ok("browser_advanced_mode", json!({"mode": "off"}));
}
