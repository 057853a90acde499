//! Every tool's `structuredContent`, from a real call in a real browser, validates against the
//! output schema derived from the tool's output type. The tour calls every tool the server lists,
//! so a new tool joins it or fails this test.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::harness::{Mcp, sandbox_dir, shared};
use crate::snapshot::ref_of;

/// A project with a skill and a registered command, for the context tools, in a folder named
/// for the test (its repository and its home directory).
pub(crate) fn project(name: &str) -> (PathBuf, PathBuf) {
    crate::harness::no_group_write();
    let root = std::env::temp_dir().join(format!("tabpilot-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (repo, home) = (root.join("repo"), root.join("home"));
    for dir in [
        repo.join(".git"),
        repo.join(".agents/skills/notes"),
        home.clone(),
    ] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(repo.join("AGENTS.md"), "Run the tests before pushing.").unwrap();
    std::fs::write(
        repo.join(".agents/skills/notes/SKILL.md"),
        "---\nname: release-notes\ndescription: Write the release notes for a version\n---\nSteps.",
    )
    .unwrap();
    std::fs::create_dir_all(repo.join(".tabpilot")).unwrap();
    std::fs::write(
        repo.join(".tabpilot/agent.json"),
        r#"{"version": 1, "commands": {"hello": {"description": "say hello", "argv": ["echo", "hello"]}}}"#,
    )
    .unwrap();
    (repo, home)
}

/// Calls tools and checks each answer against the schemas.
struct Tour {
    agent: Mcp,
    listed: Vec<String>,
    called: BTreeSet<String>,
}

impl Tour {
    fn call(&mut self, tool: &str, args: Value) -> (String, Value) {
        let (said, data) = self.agent.ok(tool, args);
        assert!(
            self.listed.iter().any(|name| name == tool),
            "{tool} is not in tools/list"
        );
        let schema = &tabpilot::controller::tools::registry::get(tool)
            .expect("the library has the tool")
            .spec
            .output_schema;
        let validator = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{tool}'s output schema does not compile: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(&data)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{tool}'s structuredContent breaks its output schema: {errors:?}\n{data}\n{schema}"
        );
        self.called.insert(tool.to_string());
        (said, data)
    }
}

#[test]
fn every_tools_structured_content_validates_against_its_output_schema() {
    let s = shared();
    let (repo, home) = project("schemas");
    let mut agent = Mcp::start_in(&s.env, &repo, &home);
    let list = agent.request("tools/list", json!({}));
    let listed: Vec<String> = list["result"]["tools"]
        .as_array()
        .expect("tools/list lists tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    let mut tour = Tour {
        agent,
        listed,
        called: BTreeSet::new(),
    };

    tour.call("browser_status", json!({}));
    let (snap, _) = tour.call("browser_navigate", json!({"url": s.a("basic.html")}));
    let (_, data) = tour.call("browser_snapshot", json!({}));
    assert!(data["snapshot"].is_string());
    tour.call("browser_read_page", json!({}));
    tour.call("browser_find", json!({"role": "button", "max": 3}));
    tour.call("browser_get_html", json!({"maxChars": 300}));
    let press = ref_of(&snap, "button", "Press me");
    tour.call("browser_hover", json!({"ref": press}));
    tour.call(
        "browser_click",
        json!({"ref": press, "include": "snapshot"}),
    );
    tour.call("browser_wait_for", json!({"text": "Pressed 1"}));
    tour.call("browser_wait", json!({"time": 1}));
    let search = ref_of(&snap, "textbox", "Search");
    tour.call("browser_type", json!({"ref": search, "text": "tabpilot"}));
    tour.call("browser_clear", json!({"ref": search}));
    tour.call("browser_focus", json!({"ref": search}));
    tour.call("browser_press_key", json!({"key": "a"}));
    tour.call("browser_export", json!({"format": "playwright"}));
    tour.call("browser_scroll", json!({"direction": "down"}));
    tour.call("browser_screenshot", json!({}));
    tour.call("browser_click", json!({"ref": press, "include": "console"}));
    tour.call(
        "browser_eval",
        json!({"expression": "console.log('tour'); 1"}),
    );
    let (_, logs) = tour.call("browser_get_console_logs", json!({}));
    assert!(!logs["entries"].as_array().unwrap().is_empty());
    tour.call("browser_eval", json!({"expression": "document.title"}));
    tour.call(
        "browser_eval",
        json!({"function": "(el) => el.textContent", "ref": press, "element": "the button"}),
    );
    let (_, cut) = tour.call(
        "browser_eval",
        json!({"expression": "'x'.repeat(50)", "maxChars": 10}),
    );
    assert_eq!(cut["cut"], "$");
    tour.call("browser_handle_dialog", json!({"action": "dismiss"}));
    tour.call("browser_handle_dialog", json!({}));
    // The shared browser runs without WebMCP: the page declares nothing, and that is no error.
    let (_, listed) = tour.call("browser_page_tools", json!({"action": "list"}));
    assert_eq!(listed["supported"], false);
    tour.call("browser_perf_trace", json!({}));
    tour.call(
        "browser_perf_trace",
        json!({"action": "memory", "durationMs": 1000}),
    );
    tour.call("browser_issues", json!({"audit": "a11y"}));

    let (snap, _) = tour.call("browser_navigate", json!({"url": s.a("fields.html")}));
    let name = ref_of(&snap, "textbox", "Name");
    tour.call(
        "browser_fill_form",
        json!({"fields": [{"ref": name, "value": "Ada"}]}),
    );
    let toppings = ref_of(&snap, "listbox", "Toppings");
    tour.call(
        "browser_select_option",
        json!({"ref": toppings, "values": ["Egg"]}),
    );

    let (snap, _) = tour.call("browser_navigate", json!({"url": s.a("drag.html")}));
    let (card, done) = (
        ref_of(&snap, "button", "Task card"),
        ref_of(&snap, "button", "Done"),
    );
    tour.call("browser_drag", json!({"startRef": card, "endRef": done}));

    let (snap, _) = tour.call("browser_navigate", json!({"url": s.a("upload.html")}));
    let file = sandbox_dir("schemas").join("hello.txt");
    std::fs::write(&file, "hello").unwrap();
    let avatar = ref_of(&snap, "button", "Avatar");
    tour.call(
        "browser_upload_file",
        json!({"ref": avatar, "paths": [file.display().to_string()]}),
    );
    tour.call("browser_go_back", json!({}));
    tour.call("browser_go_forward", json!({}));

    tour.call("browser_navigate", json!({"url": s.a("net.html")}));
    tour.call("browser_wait_for", json!({"text": "Loaded:"}));
    tour.call("browser_network_requests", json!({}));
    tour.call("browser_get_network_request", json!({"url": "err500"}));
    tour.call("browser_issues", json!({}));
    tour.call("browser_downloads", json!({}));
    tour.call(
        "browser_emulate",
        json!({"headers": {"x-tour": "1"}, "geolocation": {"latitude": 1, "longitude": 2}}),
    );
    tour.call("browser_emulate", json!({}));
    tour.call("browser_emulate", json!({"clear": true}));
    tour.call("browser_advanced_mode", json!({"mode": "on"}));
    tour.call("browser_advanced_mode", json!({"mode": "off"}));
    // Only read: the proxy is the whole shared browser's (proxy.rs sets one, on a host of its own).
    tour.call("browser_proxy", json!({}));
    tour.call("browser_set_cookie", json!({"name": "tour", "value": "1"}));
    tour.call("browser_get_cookies", json!({}));
    tour.call(
        "browser_set_cookie",
        json!({"name": "tour", "delete": true}),
    );
    tour.call(
        "browser_storage",
        json!({"action": "set", "key": "tour", "value": "1"}),
    );
    tour.call("browser_storage", json!({"action": "get"}));

    let (_, opened) = tour.call("browser_new_tab", json!({"url": "about:blank"}));
    let tab = opened["tabId"].clone();
    tour.call("browser_list_tabs", json!({}));
    tour.call("browser_select_tab", json!({"tabId": tab}));
    tour.call("browser_select_browser", json!({"browser": "managed"}));
    tour.call(
        "browser_force_claim",
        json!({"tabId": tab, "reason": "the schema tour"}),
    );
    tour.call("browser_close_tab", json!({"tabId": tab}));

    let (_, boot) = tour.call("session_bootstrap", json!({}));
    tour.call("agent_context", json!({}));
    tour.call(
        "resolve_task_capabilities",
        json!({"task": "write the release notes for version 2", "knownRefreshFingerprint": boot["refresh_fingerprint"]}),
    );
    tour.call("list_local_skills", json!({"query": "release"}));
    tour.call("load_local_skill", json!({"skill": "release-notes"}));
    tour.call("list_local_commands", json!({}));
    let (said, _) = tour.call("run_local_command", json!({"name": "hello"}));
    assert!(said.contains("hello"), "{said}");

    tour.call("browser_release", json!({}));

    // Bringing a tab to the front of the shared browser would change the focus other tests
    // check: browser_switch_tab is held to its schema (by the harness, as every call is) in
    // browsers::the_tab_list_comes_in_pages_and_a_tab_is_picked_by_its_place, in a browser of its own.
    tour.called.insert("browser_switch_tab".into());
    // The local-application tools are listed only when the person turns them on, and want a
    // desktop (Xvfb, a session bus, AT-SPI): apps:: calls each of them on one of its own, every
    // answer held to its schema by the harness.
    for tool in [
        "list_local_applications",
        "open_local_application",
        "inspect_local_application",
        "operate_local_application",
    ] {
        tour.called.insert(tool.into());
    }
    // Every tool the library has, listed here or not.
    let every: BTreeSet<String> = tabpilot::controller::tools::registry::all()
        .iter()
        .map(|t| t.spec.name.to_string())
        .collect();
    let missed: Vec<&String> = every.difference(&tour.called).collect();
    assert!(missed.is_empty(), "the tour never called {missed:?}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}
