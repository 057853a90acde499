//! `browser_more_tools` (issue 38): a profile that leaves groups out lists it, and an agent asks
//! for a group at run time. Its session's list grows (that session's only), the client is told,
//! and the group's calls run, each still held to every setting of the person's. No browser:
//! nothing here reaches one.

use std::io::Read;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp, text};
use crate::http::{Client, HttpServer};

fn names(list: &Value) -> Vec<String> {
    list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("a tool list: {list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn listed(agent: &mut Mcp) -> Vec<String> {
    names(&agent.request("tools/list", json!({})))
}

/// How many times the server said the tool list changed.
fn told(agent: &Mcp) -> usize {
    agent
        .notifications
        .iter()
        .filter(|n| n["method"] == "notifications/tools/list_changed")
        .count()
}

/// `tabpilot mcp` on `core`, with the person's settings `env` (and none of theirs besides).
fn on_core(env: &Env, settings: &[(&str, &str)]) -> Mcp {
    Mcp::start_with(env, &[], |cmd| {
        cmd.env("TABPILOT_TOOLS", "core")
            .env_remove("TABPILOT_APPS");
        cmd.envs(settings.iter().copied());
    })
}

#[test]
fn on_core_a_group_asked_for_is_listed_the_client_told_and_its_tools_run() {
    let env = Env::fresh("more-tools");
    let trail = env.state_dir.join("trail.jsonl");
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_TOOLS", "core")
        .env("TABPILOT_AUDIT_FILE", &trail)
        .env_remove("TABPILOT_APPS");
    let mut agent = Mcp::spawn(cmd);
    let init = agent.initialize("more-tools-e2e");
    assert_eq!(
        init["result"]["capabilities"]["tools"]["listChanged"], true,
        "{init}"
    );
    let before = listed(&mut agent);
    assert!(
        before.iter().any(|n| n == "browser_more_tools"),
        "{before:?}"
    );
    assert!(
        !before
            .iter()
            .any(|n| n == "browser_get_cookies" || n == "list_local_skills")
    );

    // Before it is asked for, a tool of the group is refused, saying what lists it.
    let (code, r) = agent.fails("list_local_skills", json!({}));
    assert_eq!(code, "BAD_ARGS");
    assert!(
        text(&r).contains(r#"browser_more_tools {"group": "context"}"#),
        "{}",
        text(&r)
    );
    let (groups, _) = agent.ok("browser_more_tools", json!({}));
    assert!(
        groups
            .lines()
            .any(|l| l.starts_with("context: ") && l.contains("list_local_skills")),
        "{groups}"
    );
    assert!(!groups.contains("apps:"), "{groups}");
    assert_eq!(told(&agent), 0);

    let (added, _) = agent.ok("browser_more_tools", json!({"group": "context,state"}));
    assert!(
        added.starts_with("Added context: session_bootstrap"),
        "{added}"
    );
    // Told before the answer, so a client lists again as soon as it reads it.
    assert_eq!(told(&agent), 1);
    let after = listed(&mut agent);
    for tool in [
        "list_local_skills",
        "browser_get_cookies",
        "browser_more_tools",
    ] {
        assert!(after.iter().any(|n| n == tool), "{tool}: {after:?}");
    }
    assert_eq!(after.len(), before.len() + 14, "{after:?}");

    // Its tools run: one that needs no browser answers, one that does is held to its own
    // arguments now, not refused as unlisted.
    agent.ok("list_local_skills", json!({}));
    let (code, r) = agent.fails("browser_set_cookie", json!({}));
    assert_eq!(code, "BAD_ARGS");
    assert!(!text(&r).contains("not listed"), "{}", text(&r));

    // Asked again, it says so, and the list has not changed.
    let (again, _) = agent.ok("browser_more_tools", json!({"group": "state"}));
    assert_eq!(again, "state is listed already.");
    assert_eq!(told(&agent), 1);

    // The person reads in the trail which groups the agent asked for.
    let records = crate::audit::lines_of(&trail);
    let asked: Vec<&Value> = records
        .iter()
        .filter(|l| l["tool"] == "browser_more_tools")
        .collect();
    assert_eq!(asked.len(), 3, "{records:?}");
    assert_eq!(asked[1]["args"]["group"], "context,state", "{records:?}");
}

/// Asking lists tools, and does no more: each setting of the person's holds for a group's tools
/// as it does in full (docs/security.md, "Tools listed on request").
#[test]
fn a_group_asked_for_lifts_none_of_the_persons_settings() {
    let env = Env::fresh("more-tools-gates");
    let mut agent = on_core(
        &env,
        &[("TABPILOT_NO_EVAL", "1"), ("TABPILOT_NO_ADVANCED", "1")],
    );
    // The local-application tools are the person's to turn on, not the agent's to ask for.
    let (groups, _) = agent.ok("browser_more_tools", json!({}));
    assert!(!groups.contains("apps:"), "{groups}");
    let (code, r) = agent.fails("browser_more_tools", json!({"group": "apps"}));
    assert_eq!(code, "BAD_ARGS");
    assert!(text(&r).contains("TABPILOT_APPS=1"), "{}", text(&r));
    let (code, r) = agent.fails("open_local_application", json!({"app": "x"}));
    assert_eq!(code, "BAD_ARGS");
    assert!(
        text(&r).contains("TABPILOT_APPS=1") && !text(&r).contains("browser_more_tools"),
        "{}",
        text(&r)
    );
    assert_eq!(told(&agent), 0);

    agent.ok("browser_more_tools", json!({"group": "eval,state"}));
    let (code, _) = agent.fails("browser_eval", json!({"expression": "1"}));
    assert_eq!(code, "EVAL_BLOCKED");
    let (code, _) = agent.fails("browser_advanced_mode", json!({"mode": "on"}));
    assert_eq!(code, "ADVANCED_MODE_REQUIRED");
    let proxy = json!({"mode": "fixed", "server": "127.0.0.1:8080"});
    let (code, _) = agent.fails("browser_proxy", proxy);
    assert_eq!(code, "PERSON_REQUIRED");

    let mut reader = on_core(&env, &[("TABPILOT_READ_ONLY", "1")]);
    reader.ok("browser_more_tools", json!({"group": "act"}));
    let (code, _) = reader.fails("browser_drag", json!({}));
    assert_eq!(code, "READ_ONLY");

    // With the person's word, the group is one to ask for like any other.
    let mut apps = on_core(&env, &[("TABPILOT_APPS", "1")]);
    let (groups, _) = apps.ok("browser_more_tools", json!({}));
    assert!(groups.contains("apps: list_local_applications"), "{groups}");
    apps.ok("browser_more_tools", json!({"group": "apps"}));
    assert!(
        listed(&mut apps)
            .iter()
            .any(|n| n == "open_local_application")
    );
}

/// Reads the session's standalone stream until `what` comes, or a few seconds pass.
fn heard(stream: &mut std::net::TcpStream, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    let mut chunk = [0u8; 4096];
    while Instant::now() < deadline && !String::from_utf8_lossy(&seen).contains(what) {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => seen.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("reading the stream: {e}"),
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn over_http_a_group_asked_for_is_listed_in_its_own_session_only() {
    let env = Env::fresh("more-tools-http");
    let server = HttpServer::start_in(&env, |cmd| {
        cmd.env("TABPILOT_TOOLS", "core");
    });
    let mut one = Client::open(&server);
    let mut two = Client::open(&server);
    let (status, stream) = crate::http_sessions::stream(&server, &one.session);
    assert_eq!(status, 200);
    let mut stream = stream.unwrap();

    let (added, _) = one.ok("browser_more_tools", json!({"group": "state"}));
    assert!(
        added.starts_with("Added state: browser_get_cookies"),
        "{added}"
    );
    let said = heard(&mut stream, "notifications/tools/list_changed");
    assert!(said.contains("notifications/tools/list_changed"), "{said}");

    let mine = names(&one.request("tools/list", json!({})));
    let theirs = names(&two.request("tools/list", json!({})));
    assert!(mine.iter().any(|n| n == "browser_get_cookies"), "{mine:?}");
    assert!(
        !theirs.iter().any(|n| n == "browser_get_cookies"),
        "{theirs:?}"
    );
    let call = json!({"name": "browser_get_cookies", "arguments": {}});
    let refused = &two.request("tools/call", call)["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused.to_string().contains("browser_more_tools"),
        "{refused}"
    );

    // Another local user, without the token, asks for nothing: the request reaches no session.
    let ask = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "browser_more_tools", "arguments": {"group": "perf"}}});
    let (status, _, _) = server.post(&[("Mcp-Session-Id", &two.session)], &ask);
    assert_eq!(status, 401);
    let theirs = names(&two.request("tools/list", json!({})));
    assert!(
        !theirs.iter().any(|n| n == "browser_perf_trace"),
        "{theirs:?}"
    );
}
