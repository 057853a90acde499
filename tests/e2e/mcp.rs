//! `tabpilot mcp` as an MCP server, and the CLI as a controller of the same browser.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp, run, shared, text};
use crate::snapshot::ref_of;

#[test]
fn tools_list_has_schemas_and_annotations_for_every_tool() {
    let env = Env::fresh("toolslist");
    let mut mcp = Mcp::start(&env, &[]);
    let r = mcp.request("tools/list", json!({}));
    let tools = r["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for expected in [
        "browser_status",
        "browser_navigate",
        "browser_snapshot",
        "browser_click",
        "browser_type",
        "browser_read_page",
        "browser_screenshot",
        "browser_list_tabs",
        "browser_new_tab",
        "browser_close_tab",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    // Annotations are written where they differ from MCP's defaults; a client reads the rest
    // as the defaults say.
    let hint = |t: &Value, name: &str, default: bool| {
        let h = &t["annotations"][name];
        assert!(
            h.is_null() || h.is_boolean(),
            "{}: {name} is {h}",
            t["name"]
        );
        h.as_bool().unwrap_or(default)
    };
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        // Output schemas are optional in MCP and cost more tokens than every description
        // together: the list leaves them out (results still carry structuredContent).
        assert!(
            t.get("outputSchema").is_none(),
            "{} lists an output schema",
            t["name"]
        );
    }
    let by_name = |n: &str| tools.iter().find(|t| t["name"] == n).unwrap();
    assert!(hint(by_name("browser_snapshot"), "readOnlyHint", false));
    assert!(!hint(by_name("browser_snapshot"), "openWorldHint", true));
    assert!(!hint(by_name("browser_click"), "readOnlyHint", false));
    // Anything that acts on a page or the browser may destroy (a click can delete an account);
    // moving the agent's own tab between pages changes no page.
    for acting in [
        "browser_click",
        "browser_type",
        "browser_eval",
        "browser_fill_form",
        "browser_handle_dialog",
        "browser_close_tab",
    ] {
        assert!(hint(by_name(acting), "destructiveHint", true), "{acting}");
    }
    assert!(!hint(by_name("browser_navigate"), "destructiveHint", true));
    assert!(!hint(by_name("browser_new_tab"), "destructiveHint", true));
    assert!(hint(by_name("browser_navigate"), "idempotentHint", false));
    let nav = &by_name("browser_navigate")["inputSchema"]["properties"];
    for arg in [
        "url",
        "reload",
        "waitUntil",
        "settleMs",
        "include",
        "timeout",
    ] {
        assert!(nav[arg].is_object(), "browser_navigate lacks {arg}: {nav}");
    }
    assert!(!mcp.instructions.is_empty());
}

#[test]
fn a_tool_profile_lists_its_tools_and_refuses_the_others() {
    let env = Env::fresh("profile");
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_TOOLS", "slim,dialog");
    let mut mcp = Mcp::started(cmd);
    let r = mcp.request("tools/list", json!({}));
    let names: Vec<&str> = r["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "browser_status",
            "browser_select_browser",
            "browser_navigate",
            "browser_snapshot",
            "browser_click",
            "browser_fill_form",
            "browser_handle_dialog"
        ]
    );
    // Built on slim, the list leaves the tuning arguments out; the tools still take them.
    let click = &r["result"]["tools"][4]["inputSchema"]["properties"];
    assert!(
        click["ref"].is_object() && click["waitUntil"].is_object(),
        "{click}"
    );
    assert!(
        click["settleMs"].is_null() && click["timeout"].is_null(),
        "{click}"
    );
    let (code, r) = mcp.fails("browser_click", json!({"ref": "e1abc", "settleMs": 100}));
    assert_ne!(code, "BAD_ARGS", "{r}");
    let (code, r) = mcp.fails("browser_drag", json!({}));
    assert_eq!(code, "BAD_ARGS");
    assert!(text(&r).contains("TABPILOT_TOOLS=slim,dialog"), "{r}");

    // A name that is none of them stops the server, naming the valid ones.
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_TOOLS", "core,browser_teleport");
    let (ok, _, stderr) = run(cmd);
    assert!(!ok);
    assert!(
        stderr.contains("\"browser_teleport\"") && stderr.contains("profiles: full, core, slim"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_refused_with_a_code_and_the_recovering_tool() {
    let env = Env::fresh("badargs");
    let mut mcp = Mcp::start(&env, &[]);
    let (code, r) = mcp.fails("browser_click", json!({"ref": "e1abc", "unknown": true}));
    assert_eq!(code, "BAD_ARGS");
    let t = text(&r);
    assert!(t.starts_with("BAD_ARGS: ") && t.contains("unknown"), "{t}");
    assert!(t.lines().nth(1).unwrap().starts_with("Recover: "), "{t}");
    assert_eq!(
        r["structuredContent"]["error"]["recover"],
        "the same tool with corrected arguments"
    );
    let (code, _) = mcp.fails("browser_navigate", json!({}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = mcp.fails("browser_nope", json!({}));
    assert_eq!(code, "BAD_ARGS");
}

// Finding 14 of the security probe: a line that is not JSON, or JSON nested past any sane
// depth, got no answer at all, so the client waited forever.
#[test]
fn a_line_that_is_not_json_is_answered_with_a_parse_error() {
    let env = Env::fresh("mcp-parse-error");
    let mut mcp = Mcp::start(&env, &[]);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for line in [
        "{not json",
        deep.as_str(),
        "{\"jsonrpc\": \"2.0\", \"id\": 7,",
    ] {
        mcp.send_line(line);
        let answer = mcp.response_to(&Value::Null);
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
    }
    // The server is still there for the next request.
    let list = mcp.request("tools/list", json!({}));
    assert!(list["result"]["tools"].is_array(), "{list}");
}

/// A line over the 16 MiB the server reads is skipped to its end and answered with a JSON-RPC
/// error; the session goes on (it was closed).
#[test]
fn a_line_too_long_is_refused_and_the_session_goes_on() {
    let env = Env::fresh("mcp-too-long");
    let mut mcp = Mcp::start(&env, &[]);
    let big = "x".repeat(17 << 20);
    let args = json!({"name": "browser_type", "arguments": {"ref": "e1abc", "text": big}});
    mcp.send(&json!({"jsonrpc": "2.0", "id": 900, "method": "tools/call", "params": args}));
    let answer = mcp.response_to(&Value::Null);
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(answer.to_string().contains("16 MiB"), "{answer}");
    let list = mcp.request("tools/list", json!({}));
    assert!(list["result"]["tools"].is_array(), "{list}");
}

// Finding 13 of the security probe: TABPILOT_LOG=trace wrote whole frames (typed text, page
// content) to stderr and to relay.log, which was readable by others and never rotated.
#[test]
fn trace_logging_carries_no_arguments_and_the_relay_log_is_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::fresh("mcp-trace-log");
    std::fs::create_dir_all(&env.state_dir).unwrap();
    // A log left big by an earlier relay is rotated, not grown.
    let old = env.state_dir.join("relay.log");
    std::fs::write(&old, vec![b'.'; 2 << 20]).unwrap();
    let stderr_path = env.state_dir.join("mcp-stderr.log");
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_LOG", "trace")
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    let mut mcp = Mcp::spawn(cmd);
    mcp.initialize("trace-test");
    let marker = "typed-secret-8d1f3a";
    let (code, _) = mcp.fails(
        "browser_type",
        json!({"ref": "e1abc", "text": marker, "element": marker}),
    );
    assert_eq!(code, "NO_BROWSER");
    drop(mcp);
    let stderr = std::fs::read_to_string(&stderr_path).unwrap();
    let relay_log = std::fs::read_to_string(env.state_dir.join("relay.log")).unwrap();
    assert!(
        stderr.contains("TRACE") || stderr.contains("DEBUG"),
        "trace logging was on: {stderr}"
    );
    assert!(
        !stderr.contains(marker),
        "stderr carried an argument:\n{stderr}"
    );
    assert!(!relay_log.contains(marker), "relay.log carried an argument");
    let mode = std::fs::metadata(env.state_dir.join("relay.log"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "relay.log is readable by others");
    assert!(relay_log.len() < 1 << 20, "the old log was not rotated");
    assert!(env.state_dir.join("relay.log.1").exists());
}

#[test]
fn status_says_waiting_when_no_browser_is_connected() {
    let env = Env::fresh("status");
    let mut mcp = Mcp::start(&env, &[]);
    let (text, data) = mcp.ok("browser_status", json!({}));
    assert_eq!(data["link"], "WAITING", "{text}");
    assert_eq!(data["relay"]["port"], env.first_port);
    assert_eq!(data["agents"].as_array().unwrap().len(), 1);
    let (code, r) = mcp.fails("browser_snapshot", json!({}));
    assert_eq!(code, "NO_BROWSER");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    // The status, the refusal and the server's instructions each tell the agent what to ask the
    // person for, both ways: pairing their browser, or a browser tabpilot launches.
    for said in [&text, &self::text(&r), &mcp.instructions] {
        assert!(
            said.contains("tabpilot pair") && said.contains("--launch") && said.contains("person"),
            "{said}"
        );
    }
}

#[test]
fn status_on_the_shared_browser_is_connected() {
    let s = shared();
    let mut agent = s.agent();
    let (text, data) = agent.ok("browser_status", json!({}));
    assert_eq!(data["link"], "CONNECTED", "{text}");
    assert_eq!(data["browsers"].as_array().unwrap().len(), 1);
    assert!(data["agents"].as_array().unwrap().len() >= 2, "{data}");
}

#[test]
fn calls_from_one_client_run_in_the_order_they_were_issued() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let press = ref_of(&snap, "button", "Press me");
    // Five requests written back to back, before any answer is read.
    let mut ids = Vec::new();
    for i in 0..5u64 {
        let id = 1000 + i;
        ids.push(id);
        let (name, args) = if i < 4 {
            ("browser_click", json!({"ref": press}))
        } else {
            ("browser_snapshot", json!({}))
        };
        agent.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}}));
    }
    let answers: Vec<_> = ids.iter().map(|id| agent.response(*id)).collect();
    for a in &answers[..4] {
        assert_ne!(a["result"]["isError"], true, "{a}");
    }
    let last = &answers[4]["result"]["structuredContent"]["snapshot"];
    assert!(
        last.as_str().unwrap().contains("Pressed 4 time(s)"),
        "the snapshot ran before the clicks: {last}"
    );
}

#[test]
fn mcp_exits_soon_after_stdin_closes() {
    let env = Env::fresh("stdin");
    let mut mcp = Mcp::start(&env, &[]);
    mcp.ok("browser_status", json!({}));
    mcp.close_stdin();
    let start = Instant::now();
    loop {
        if mcp.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "tabpilot mcp outlived its stdin by 5 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_cli_drives_the_same_tab_across_commands() {
    let s = shared();
    let env = &s.env;
    let (ok, out, err) = env.cli(&["navigate", &s.a("basic.html")]);
    assert!(ok, "{err}");
    assert!(out.starts_with("Navigated to "), "{out}");
    let press = ref_of(&out, "button", "Press me");
    let (ok, out, err) = env.cli(&["click", &press]);
    assert!(ok, "{err}");
    assert!(out.contains("Press me"), "{out}");
    let (ok, out, err) = env.cli(&["eval", "document.querySelector('#msg').textContent"]);
    assert!(ok, "{err}");
    assert!(out.ends_with("\n\"Pressed 1 time(s)\"\n"), "{out}");
    let (ok, out, _) = env.cli(&["browser_snapshot", "--json"]);
    assert!(ok);
    let result: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        result["structuredContent"]["snapshot"]
            .as_str()
            .unwrap()
            .contains("Pressed 1 time(s)"),
        "{out}"
    );
    let (ok, out, err) = env.cli(&["click", "ezzzz"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(
        err.starts_with("STALE_REF: ") && err.contains("\nRecover: call browser_snapshot"),
        "{err}"
    );
    let (ok, _, err) = env.cli(&["navigate", "file:///etc/passwd"]);
    assert!(!ok && err.starts_with("BAD_ARGS: file:"), "{err}");
}

/// The pids of running processes whose command line contains `needle`.
fn pids_with(needle: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains(needle))
                .unwrap_or(false)
        })
        .collect()
}

fn gone_within(pids: &[u32], limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        let alive = pids.iter().any(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|s| !s.contains(") Z "))
                .unwrap_or(false)
        });
        if !alive {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn mcp_exits_soon_after_the_process_that_started_it_is_gone() {
    let env = Env::fresh("orphan");
    // A shell starts the server in the background and exits a second later; the server's stdin stays
    // open (this test holds it), so only the lost parent can tell it to go.
    let with_env = env.command(&[]);
    let mut sh = std::process::Command::new("sh")
        .arg("-c")
        // A background job's stdin is /dev/null; fd 3 keeps it on the pipe.
        .arg(format!(
            "exec 3<&0; {} mcp <&3 & echo $!; sleep 1",
            crate::harness::BIN
        ))
        .envs(
            with_env
                .get_envs()
                .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _stdin = sh.stdin.take();
    let mut stdout = std::io::BufReader::new(sh.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    let pid: u32 = line.trim().parse().unwrap();
    sh.wait().unwrap();
    assert!(
        std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "it should still be running now"
    );
    assert!(
        gone_within(&[pid], Duration::from_secs(5)),
        "tabpilot mcp outlived its parent by 5 s"
    );
}

#[test]
fn a_browser_that_mcp_launch_started_closes_when_the_server_exits() {
    let env = Env::fresh("launch-close");
    let mut mcp = Mcp::start(&env, &["--launch", "--headless"]);
    let (_, data) = mcp.ok("browser_status", json!({}));
    assert_eq!(data["link"], "WAITING");
    mcp.ok("browser_list_tabs", json!({}));
    let profiles = env.state_dir.join("profiles").display().to_string();
    let browser = pids_with(&profiles);
    assert!(
        !browser.is_empty(),
        "no Chromium runs with a profile under {profiles}"
    );
    mcp.close_stdin();
    assert!(
        gone_within(&browser, Duration::from_secs(8)),
        "the launched Chromium outlived tabpilot mcp"
    );
}

#[test]
fn the_demo_runs_its_session_and_leaves_a_screenshot() {
    let env = Env::fresh("demo");
    let (ok, out, err) = env.cli(&["demo"]);
    assert!(ok, "{out}\n{err}");
    for step in [
        "[1] browser_navigate",
        "[2] browser_snapshot",
        "[3] browser_type",
        "[4] browser_click",
        "[5] browser_read_page",
        "[6] browser_screenshot",
    ] {
        assert!(out.contains(step), "{step} missing:\n{out}");
    }
    assert!(
        out.contains("Hello, Ada!"),
        "the typed name did not reach the page:\n{out}"
    );
    let path = out
        .lines()
        .find_map(|l| l.strip_prefix("The screenshot is at "))
        .expect("the screenshot's path");
    let img = image::open(path).expect("a PNG at that path");
    assert!(img.width() > 100);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_missing_chromium_is_a_clear_error_that_says_how_to_get_one() {
    let env = Env::fresh("nochromium");
    let out = env
        .command(&["launch", "--headless"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no Chromium found") && err.contains("apt-get install chromium"),
        "{err}"
    );
    let out = env
        .command(&["launch"])
        .env("TABPILOT_BROWSER", "/nonexistent/chrome")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("TABPILOT_BROWSER=/nonexistent/chrome is not a file"),
        "{err}"
    );
}

#[test]
fn status_says_retrying_with_the_next_delay_when_no_relay_can_be_reached() {
    let env = Env::fresh("retrying");
    // Something else holds both ports of the range, so no relay can start or answer there.
    let _a = std::net::TcpListener::bind(("127.0.0.1", env.first_port)).unwrap();
    let _b = std::net::TcpListener::bind(("127.0.0.1", env.first_port + 1)).unwrap();
    // One call, one attempt: no waiting for the relay to come.
    let mut mcp = Mcp::start_with(&env, &[], |c| {
        c.env("TABPILOT_CONNECT_WAIT_MS", "0");
    });
    let (text, data) = mcp.ok("browser_status", json!({}));
    assert_eq!(data["link"], "RETRYING", "{text}");
    let first = retrying(&text);
    let (code, r) = mcp.fails("browser_snapshot", json!({}));
    assert_eq!(code, "NO_BROWSER");
    assert_eq!(r["structuredContent"]["outcome"], "refused");
    // The call waited for an attempt of its own (the status makes none), and it failed too.
    let (text, _) = mcp.ok("browser_status", json!({}));
    assert!(retrying(&text) > first, "no attempt failed since: {text}");
}

/// The failures in a row a RETRYING status counts, checking the wait it names is within the
/// backoff: 500 ms after the first, doubling, at most 8 s.
fn retrying(text: &str) -> u32 {
    let number = |after: &str| -> u64 {
        let at = text
            .find(after)
            .unwrap_or_else(|| panic!("no {after:?} in {text}"))
            + after.len();
        text[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (next, failures) = (number("next attempt in "), number(" ms ("));
    assert!(failures >= 1, "{text}");
    let most = (500u64 << (failures - 1).min(4)).min(8000);
    assert!(
        next <= most,
        "a wait of {next} ms after {failures} failures: {text}"
    );
    failures as u32
}

/// A tools/call request with a progress token, written without waiting for its answer.
fn call_with_progress(agent: &mut Mcp, id: u64, tool: &str, args: Value) {
    let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "_meta": {"progressToken": format!("p-{id}")}}});
    msg["params"]["arguments"] = args;
    agent.send(&msg);
}

// A long call tells a client that asked how long it has run, and one the client cancels stops
// waiting: it is not answered (the spec's SHOULD), the next call runs at once, not after the
// cancelled one's own timeout, and the audit trail records it as cancelled.
#[test]
fn a_long_call_reports_progress_when_asked_and_a_cancelled_one_stops_waiting() {
    let s = shared();
    let trail = std::env::temp_dir().join(format!(
        "tabpilot-e2e-{}-cancel-audit.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&trail);
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &trail);
    });
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let never = json!({"text": "never on this page", "timeout": 2500});
    call_with_progress(&mut agent, 900, "browser_wait_for", never);
    let r = agent.response(900);
    assert_eq!(
        r["result"]["structuredContent"]["error"]["code"], "TIMEOUT",
        "{r}"
    );
    let progress: Vec<&Value> = agent
        .notifications
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .collect();
    assert!(
        !progress.is_empty(),
        "no progress: {:?}",
        agent.notifications
    );
    for p in &progress {
        assert_eq!(p["params"]["progressToken"], "p-900", "{p}");
    }
    assert!(
        progress[0]["params"]["message"]
            .as_str()
            .unwrap()
            .starts_with("browser_wait_for has run 1 s"),
        "{}",
        progress[0]
    );

    let long = json!({"text": "never on this page", "timeout": 30000});
    call_with_progress(&mut agent, 901, "browser_wait_for", long);
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    agent.notify("notifications/cancelled", &json!({"requestId": 901}));
    agent.ok("browser_snapshot", json!({}));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        agent.early.iter().all(|m| m["id"] != 901),
        "{:?}",
        agent.early
    );
    // The cancelled call's line is written once the browser has said how far it got, which may
    // come after the next call's answer (on a busy machine it did): wait for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let lines: Vec<Value> = loop {
        let lines: Vec<Value> = std::fs::read_to_string(&trail)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if lines.iter().any(|l| l["code"] == "CANCELLED") || Instant::now() > deadline {
            break lines;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let cancelled: Vec<&Value> = lines.iter().filter(|l| l["code"] == "CANCELLED").collect();
    assert_eq!(cancelled.len(), 1, "{lines:?}");
    assert_eq!(cancelled[0]["tool"], "browser_wait_for");
    // Waiting changes no page: safe to call again.
    assert_eq!(cancelled[0]["outcome"], "failed");
}

// A call the client cancels while it waits behind another never reaches the page.
#[test]
fn a_call_cancelled_before_it_started_never_acts() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html"), "include": "snapshot"}),
    );
    let press = ref_of(&snap, "button", "Press me");
    let wait = json!({"text": "never on this page", "timeout": 1500});
    call_with_progress(&mut agent, 910, "browser_wait_for", wait);
    call_with_progress(&mut agent, 911, "browser_click", json!({ "ref": press }));
    agent.notify("notifications/cancelled", &json!({"requestId": 911}));
    agent.response(910);
    let (_, read) = agent.ok("browser_snapshot", json!({}));
    let page = read["snapshot"].as_str().unwrap();
    assert!(
        page.contains("Not pressed"),
        "the cancelled click ran: {page}"
    );
    assert!(
        agent.early.iter().all(|m| m["id"] != 911),
        "a cancelled call that never ran is not answered"
    );
}
