//! browser_page_tools in a managed Chromium of its own, started with
//! `TABPILOT_CHROMIUM_ARGS=--enable-features=WebMCPTesting` (the shared browser keeps its flags),
//! against a page that declares three tools and drops one on a click: listing, describing,
//! calls on a trusted page, the person's approval window found through the browser's own list of
//! pages, stale refs, a tool that never answers, and the switches that refuse a call.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::{Cdp, browser_url};
use crate::harness::{Env, Mcp, shared};
use crate::person::DEVTOOLS_WITHIN;
use crate::snapshot::ref_of;

struct Browser {
    env: Env,
    /// The origin of the fixtures' first server, trusted by agents started with `trusted`.
    trusted_origin: String,
}

/// One WebMCP browser for this module, launched (with DevTools, for the person's side) by an
/// agent that lives as long as the test binary.
fn browser() -> &'static Browser {
    static BROWSER: OnceLock<(Browser, std::sync::Mutex<Mcp>)> = OnceLock::new();
    &BROWSER
        .get_or_init(|| {
            let env = Env::fresh("page_tools");
            let mut launcher = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
                cmd.env(
                    "TABPILOT_CHROMIUM_ARGS",
                    "--enable-features=WebMCPTesting --remote-debugging-port=0",
                );
            });
            launcher.ok("browser_list_tabs", json!({}));
            let trusted_origin = shared().fixtures.a.clone();
            (
                Browser {
                    env,
                    trusted_origin,
                },
                std::sync::Mutex::new(launcher),
            )
        })
        .0
}

fn agent(adjust: impl FnOnce(&mut std::process::Command)) -> Mcp {
    Mcp::start_with(&browser().env, &[], adjust)
}

fn trusted() -> Mcp {
    agent(|cmd| {
        cmd.env("TABPILOT_WEBMCP_TRUSTED_ORIGINS", &browser().trusted_origin);
    })
}

/// The agent on the fixture page, and its tools by name: toolRefs.
fn on_fixture(agent: &mut Mcp) -> Vec<(String, String)> {
    agent.ok(
        "browser_navigate",
        json!({"url": shared().a("webmcp.html")}),
    );
    let (text, data) = agent.ok("browser_page_tools", json!({"action": "list"}));
    assert_eq!(data["supported"], true, "{text}");
    assert!(text.contains("not instructions"), "{text}");
    data["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().into(),
                t["toolRef"].as_str().unwrap().into(),
            )
        })
        .collect()
}

fn ref_named(tools: &[(String, String)], name: &str) -> String {
    tools
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name} in {tools:?}"))
        .1
        .clone()
}

/// The page's counter and its count of hang's runs, as its snapshot shows them (read-only mode
/// and no-eval leave the snapshot).
fn counter(agent: &mut Mcp) -> Value {
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let number = |label: &str| {
        let at = snap
            .find(label)
            .unwrap_or_else(|| panic!("no {label} in {snap}"))
            + label.len();
        snap[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .to_string()
    };
    json!([
        number("Counter: "),
        number("Runs of hang: ").parse::<u64>().unwrap()
    ])
}

#[test]
fn list_and_describe_show_the_pages_tools_and_an_empty_page_is_not_unsupported() {
    let mut agent = trusted();
    let tools = on_fixture(&mut agent);
    let names: Vec<&str> = tools.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["add", "hang", "read_count"]);
    let (_, data) = agent.ok(
        "browser_page_tools",
        json!({"action": "list", "query": "counter note"}),
    );
    assert_eq!(data["total"], 1);
    assert_eq!(data["tools"][0]["name"], "add");
    assert_eq!(data["tools"][0]["args"], json!(["n", "note"]));
    let (_, data) = agent.ok(
        "browser_page_tools",
        json!({"action": "describe", "toolRef": ref_named(&tools, "add")}),
    );
    assert_eq!(data["tool"]["inputSchema"]["required"], json!(["n"]));
    assert_eq!(
        data["tool"]["inputSchema"]["properties"]["n"]["maximum"],
        10
    );
    assert_eq!(data["origin"], browser().trusted_origin);
    let (_, data) = agent.ok(
        "browser_page_tools",
        json!({"action": "describe", "toolRef": ref_named(&tools, "read_count")}),
    );
    assert_eq!(data["tool"]["annotations"]["readOnlyHint"], true);
    // A browser with WebMCP, a page that declares nothing: supported, and empty.
    agent.ok("browser_navigate", json!({"url": shared().a("basic.html")}));
    let (_, data) = agent.ok("browser_page_tools", json!({"action": "list"}));
    assert_eq!(data["supported"], true);
    assert_eq!(data["tools"], json!([]));
}

#[test]
fn a_trusted_page_s_tool_runs_with_its_arguments_and_bad_arguments_run_nothing() {
    let mut agent = trusted();
    let tools = on_fixture(&mut agent);
    let add = ref_named(&tools, "add");
    let (text, data) = agent.ok(
        "browser_page_tools",
        json!({"action": "call", "toolRef": add, "arguments": {"n": 3, "note": "from the agent"}}),
    );
    assert_eq!(data["result"], json!({"count": 3}), "{text}");
    assert_eq!(data["approvedBy"], "trusted origin");
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(
        snap.contains("from the agent"),
        "the page shows the tool's effect: {snap}"
    );
    assert_eq!(counter(&mut agent), json!(["3", 0]));
    for bad in [
        json!({}),
        json!({"n": 11}),
        json!({"n": "3"}),
        json!({"n": 1, "extra": true}),
    ] {
        let (code, _) = agent.fails(
            "browser_page_tools",
            json!({"action": "call", "toolRef": add, "arguments": bad}),
        );
        assert_eq!(code, "BAD_ARGS", "{bad}");
    }
    assert_eq!(counter(&mut agent), json!(["3", 0]), "no refused call ran");
}

#[test]
fn stale_refs_and_a_tool_that_never_answers() {
    let mut agent = trusted();
    let tools = on_fixture(&mut agent);
    let read = ref_named(&tools, "read_count");
    let (_, data) = agent.ok(
        "browser_page_tools",
        json!({"action": "call", "toolRef": read}),
    );
    assert_eq!(data["result"], json!({"count": 0}));
    // The page unregisters the tool: its ref is stale.
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let drop = ref_of(&snap, "button", "Stop offering Read the counter");
    agent.ok("browser_click", json!({"ref": drop}));
    let (code, _) = agent.fails(
        "browser_page_tools",
        json!({"action": "call", "toolRef": read}),
    );
    assert_eq!(code, "WEBMCP_TOOL_STALE");
    // The tool that never answers: outcome unknown at the timeout, run once.
    let hang = ref_named(&tools, "hang");
    let (code, r) = agent.fails(
        "browser_page_tools",
        json!({"action": "call", "toolRef": hang, "timeout": 1500}),
    );
    assert_eq!(code, "WEBMCP_EXECUTION_UNCERTAIN");
    assert_eq!(r["structuredContent"]["outcome"], "unknown", "{r}");
    assert_eq!(counter(&mut agent)[1], 1, "started once, never retried");
    // After navigation every ref of the old document is stale, even on the same page.
    let add = ref_named(&tools, "add");
    agent.ok(
        "browser_navigate",
        json!({"url": shared().a("webmcp.html")}),
    );
    let (code, _) = agent.fails(
        "browser_page_tools",
        json!({"action": "call", "toolRef": add, "arguments": {"n": 1}}),
    );
    assert_eq!(code, "WEBMCP_TOOL_STALE");
    assert_eq!(counter(&mut agent), json!(["0", 0]));
}

/// The approval window as a person sees it: a page of the browser's own, found in its list of
/// pages; its text once it shows the call.
async fn approval_window(cdp: &mut Cdp) -> (String, String) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some((id, _)) = cdp
            .pages()
            .await
            .unwrap()
            .into_iter()
            .find(|(_, url)| url.contains("/approve.html#"))
        {
            let session = cdp.attach(&id).await.unwrap();
            // Until the window's script has filled it in, `arguments` may not be there.
            let text = cdp
                .eval_loaded(
                    &session,
                    "document.getElementById('arguments').textContent && document.body.innerText",
                )
                .await
                .unwrap_or_default();
            if let Some(text) = text.as_str() {
                return (session, text.to_string());
            }
        }
        assert!(Instant::now() < deadline, "no approval window appeared");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn without_trust_the_person_approves_in_a_window_of_the_extension_or_nothing_runs() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut agent = agent(|_| {});
    let tools = on_fixture(&mut agent);
    let add = ref_named(&tools, "add");
    let profile = browser().env.state_dir.join("profiles/managed/data");
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));

    // Approved in the window: the tool runs with the arguments shown.
    let args = json!({"action": "call", "toolRef": add, "arguments": {"n": 2, "note": "approved"}});
    let call = std::thread::spawn(move || {
        let r = agent.ok("browser_page_tools", args);
        (agent, r)
    });
    let (session, text) = rt.block_on(approval_window(&mut cdp));
    assert!(text.contains(&browser().trusted_origin), "{text}");
    assert!(
        text.contains("add") && text.contains("\"note\": \"approved\""),
        "{text}"
    );
    // Clicked after the evaluation has answered: the click closes the window, and an answer
    // still on its way from a closed window is lost (seen under load: the wait ran out).
    let click = "setTimeout(() => document.getElementById('approve').click(), 0), true";
    rt.block_on(cdp.eval_loaded(&session, click)).unwrap();
    let (mut agent, (_, data)) = call.join().unwrap();
    assert_eq!(data["approvedBy"], "person");
    assert_eq!(data["result"], json!({"count": 2}));

    // Not approved in time: refused, and the tool never ran.
    let args = json!({"action": "call", "toolRef": add, "arguments": {"n": 5}, "timeout": 2000});
    let call = std::thread::spawn(move || {
        let r = agent.fails("browser_page_tools", args);
        (agent, r)
    });
    let (_, text) = rt.block_on(approval_window(&mut cdp));
    assert!(text.contains("\"n\": 5"), "{text}");
    let (mut agent, (code, r)) = call.join().unwrap();
    assert_eq!(code, "WEBMCP_APPROVAL_DENIED", "{r}");
    assert_eq!(counter(&mut agent), json!(["2", 0]), "the tool never ran");
    let gone = rt
        .block_on(cdp.pages())
        .unwrap()
        .into_iter()
        .all(|(_, url)| !url.contains("/approve.html"));
    assert!(gone, "the approval window closes with its call");
}

#[test]
fn read_only_no_eval_and_sensitive_origins_refuse_a_call() {
    let mut plain = trusted();
    let tools = on_fixture(&mut plain);
    let add = ref_named(&tools, "add");
    let call = json!({"action": "call", "toolRef": add, "arguments": {"n": 1}});
    for (var, value, code) in [
        ("TABPILOT_READ_ONLY", "1".to_string(), "READ_ONLY"),
        ("TABPILOT_NO_EVAL", "1".to_string(), "EVAL_BLOCKED"),
        (
            "TABPILOT_SENSITIVE_ORIGINS",
            browser().trusted_origin.clone(),
            "ORIGIN_BLOCKED",
        ),
    ] {
        let mut agent = agent(|cmd| {
            cmd.env(var, &value)
                .env("TABPILOT_WEBMCP_TRUSTED_ORIGINS", &browser().trusted_origin);
        });
        agent.ok(
            "browser_navigate",
            json!({"url": shared().a("webmcp.html")}),
        );
        // Reading what the page declares stays allowed.
        let (_, data) = agent.ok("browser_page_tools", json!({"action": "list"}));
        let add = data["tools"][0]["toolRef"].clone();
        assert_eq!(data["tools"][0]["name"], "add");
        let mut refused = call.clone();
        refused["toolRef"] = add;
        let (got, _) = agent.fails("browser_page_tools", refused);
        assert_eq!(got, code, "{var}");
        assert_eq!(counter(&mut agent), json!(["0", 0]), "{var}");
    }
}
