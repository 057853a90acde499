//! `tabpilot dashboard`, driven by tabpilot itself in a real Chromium: an agent opens the
//! one-time link and reads the other agent's tab and its calls off the page, then releases it
//! with the page's button; and the requests a neighbour could send (no cookie, a spent key, a
//! foreign Origin or Host, a POST from elsewhere) are refused.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp};
use crate::snapshot::ref_of;

/// A `tabpilot dashboard` on a port the system picks, and the link it printed.
pub(crate) struct Dashboard {
    child: Child,
    pub port: u16,
    pub link: String,
}

/// The value of a header in an answer's head, as the tests' client lowered it (`name` with its
/// `: `).
pub(crate) fn field(head: &str, name: &str) -> String {
    head.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {head}"))
        .to_string()
}

impl Dashboard {
    fn start(env: &Env) -> Dashboard {
        Dashboard::start_with(env, |_| {})
    }

    /// Its command adjusted first (limits, environment).
    pub(crate) fn start_with(env: &Env, adjust: impl FnOnce(&mut Command)) -> Dashboard {
        let mut cmd = env.command(&["dashboard", "--port", "0"]);
        cmd.stdin(Stdio::null()).stdout(Stdio::piped());
        adjust(&mut cmd);
        let mut child = cmd.spawn().expect("tabpilot dashboard starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let link = line
            .trim()
            .strip_prefix("tabpilot dashboard: open ")
            .unwrap_or_else(|| panic!("the dashboard prints its link: {line}"))
            .to_string();
        let port = link
            .strip_prefix("http://127.0.0.1:")
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("a port in {link}"));
        Dashboard { child, port, link }
    }

    /// The link's path and query: `/?key=...`.
    pub(crate) fn key_path(&self) -> String {
        self.link
            .strip_prefix(&format!("http://127.0.0.1:{}", self.port))
            .unwrap()
            .to_string()
    }

    /// One HTTP/1.0 request; `Host` is ours unless `headers` names one. Returns the status, the
    /// head and the body.
    pub(crate) fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (u16, String, String) {
        let body = if method == "POST" {
            r#"{"agent":"00000000"}"#
        } else {
            ""
        };
        let mut req = format!("{method} {path} HTTP/1.0\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            req.push_str(&format!("Host: 127.0.0.1:{}\r\n", self.port));
        }
        for (name, value) in headers {
            req.push_str(&format!("{name}: {value}\r\n"));
        }
        if method == "POST" {
            req.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        req.push_str("\r\n");
        req.push_str(body);
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.write_all(req.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
        (status, head.to_lowercase(), body.to_string())
    }
}

impl Drop for Dashboard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The agents holding tabs, as an agent's browser_status lists them.
pub(crate) fn holding(agent: &mut Mcp) -> Vec<Value> {
    let (_, status) = agent.ok("browser_status", json!({}));
    status["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["tabs"].as_array().unwrap().is_empty())
        .cloned()
        .collect()
}

#[test]
fn the_dashboard_shows_an_agents_tab_and_calls_and_releases_it() {
    let env = Env::fresh("dashboard");
    let fixtures = crate::fixtures::serve(env.first_port);
    let mut worker = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_ALLOW_PROXY", "1");
    });
    worker.ok(
        "browser_navigate",
        json!({"url": format!("{}/basic.html", fixtures.a)}),
    );
    worker.ok("browser_snapshot", json!({}));
    worker.ok("browser_advanced_mode", json!({"mode": "on"}));
    // A proxy for this test's own browser (loopback, where the fixtures are, stays direct).
    worker.ok(
        "browser_proxy",
        json!({"mode": "fixed", "server": "127.0.0.1:9"}),
    );
    let agents = holding(&mut worker);
    assert_eq!(agents.len(), 1, "{agents:?}");
    let id = agents[0]["id"].as_str().unwrap().to_string();
    let tab = agents[0]["tabs"][0]["tab"].as_i64().unwrap();
    let dashboard = Dashboard::start(&env);

    let mut viewer = Mcp::start(&env, &[]);
    viewer.ok("browser_navigate", json!({"url": dashboard.link}));
    viewer.ok(
        "browser_wait_for",
        json!({"text": "Basic fixture", "timeout": 10000}),
    );
    let (page, _) = viewer.ok("browser_snapshot", json!({"verbose": true}));
    for shown in [
        "tabpilot-e2e".to_string(),
        id.clone(),
        format!("tab {tab}"),
        "Basic fixture".into(),
        format!("{}/basic.html", fixtures.a),
        "browser_navigate".into(),
        "browser_snapshot".into(),
        "done".into(),
        // The person sees which tab has the debugger attached, and the proxy an agent set.
        format!("tab {tab} (advanced mode)"),
        "set by an agent: http://127.0.0.1:9".into(),
        // The card links the agent's recording as a Playwright test (export.rs reads it there).
        "link \"Export test\"".into(),
        format!("url=api/export/{id}"),
    ] {
        assert!(
            page.contains(&shown),
            "{shown:?} not on the dashboard:\n{page}"
        );
    }
    // The viewer's own address lost the key: the link was traded for a cookie.
    let (found, _) = viewer.ok("browser_find", json!({"text": "Recent calls"}));
    assert!(found.contains("Recent calls"), "{found}");
    let (tabs, _) = viewer.ok("browser_list_tabs", json!({}));
    assert!(!tabs.contains("key="), "{tabs}");

    let release = ref_of(&page, "button", &format!("Release tabpilot-e2e {id}"));
    viewer.ok("browser_click", json!({"ref": release}));
    viewer.ok(
        "browser_wait_for",
        json!({"text": format!("Released tabpilot-e2e ({id}); closed 1 tab(s)."), "timeout": 10000}),
    );
    let (code, result) = worker.fails("browser_snapshot", json!({}));
    assert_eq!(code, "LEASE_LOST", "{result}");
    let message = result["structuredContent"]["error"]["message"].to_string();
    assert!(
        message.contains(&format!("tab {tab} was released by a person")),
        "{message}"
    );
}

#[test]
fn the_dashboard_answers_only_its_own_page() {
    let env = Env::fresh("dashboard-access");
    let d = Dashboard::start(&env);
    let ours = format!("http://127.0.0.1:{}", d.port);
    let key = d.key_path();

    let (status, head, _) = d.request("GET", "/", &[]);
    assert_eq!(status, 401, "no cookie: {head}");
    for (name, header) in [
        ("a wrong key", ("X-Nothing", "1")),
        ("a foreign Host", ("Host", "rebound.example:80")),
        ("a foreign Origin", ("Origin", "http://127.0.0.1:1")),
    ] {
        let path = if name == "a wrong key" {
            "/?key=0123"
        } else {
            &key
        };
        let (status, head, _) = d.request("GET", path, &[header]);
        assert_eq!(status, 403, "{name}: {head}");
    }
    // None of those spent the key; the first good load does, once.
    let (status, head, _) = d.request("GET", &key, &[]);
    assert_eq!(status, 303, "{head}");
    let field = |name: &str| field(&head, name);
    // The page lives under a path of its own, and the cookie goes to that path only: a browser
    // sends a cookie to every port of 127.0.0.1.
    let base = field("location: ");
    assert!(base.starts_with("/d/") && base.ends_with('/'), "{base}");
    let cookie = field("set-cookie: ");
    assert!(
        cookie.contains("; httponly")
            && cookie.contains("; samesite=strict")
            && cookie.ends_with(&format!("; path={base}")),
        "{cookie}"
    );
    let (status, _, _) = d.request("GET", &key, &[]);
    assert_eq!(status, 403, "the key was spent");

    // The cookie as the browser would send it (the head was lowered; the value is hex).
    let cookie = cookie.split(';').next().unwrap().to_string();
    fn with<'a>(cookie: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        [&[("Cookie", cookie)], extra].concat()
    }
    let state_path = format!("{base}api/state");
    let release_path = format!("{base}api/release");
    let (status, _, _) = d.request("GET", &state_path, &[]);
    assert_eq!(status, 401, "no cookie on the page's own path");
    let (status, head, body) = d.request("GET", &state_path, &with(&cookie, &[]));
    assert_eq!(status, 200, "{head}");
    let state: Value = serde_json::from_str(&body).unwrap();
    assert!(
        state["agents"].is_array() && state["calls"].is_array(),
        "{state}"
    );
    for frame in ["x-frame-options: deny", "frame-ancestors 'none'"] {
        assert!(head.contains(frame), "{head}");
    }
    assert!(!head.contains("access-control-"), "{head}");
    let localhost = format!("localhost:{}", d.port);
    let (status, _, _) = d.request("GET", &base, &with(&cookie, &[("Host", &localhost)]));
    assert_eq!(status, 200);

    let other = format!("127.0.0.1:{}", d.port + 1);
    for (name, header) in [
        ("another local page", ("Origin", "http://127.0.0.1:8080")),
        ("a rebound name", ("Origin", "http://rebound.example")),
        ("another port", ("Host", other.as_str())),
    ] {
        let (status, head, _) = d.request("GET", &state_path, &with(&cookie, &[header]));
        assert_eq!(status, 403, "{name}: {head}");
    }
    // A release needs the page's own Origin: a form posted from elsewhere sends its own.
    let (status, _, _) = d.request("POST", &release_path, &with(&cookie, &[]));
    assert_eq!(status, 403, "a POST without an Origin");
    let (status, _, _) = d.request(
        "POST",
        &release_path,
        &with(&cookie, &[("Origin", "http://127.0.0.1:8080")]),
    );
    assert_eq!(status, 403, "a POST from another local page");
    let (status, _, body) = d.request("POST", &release_path, &with(&cookie, &[("Origin", &ours)]));
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("no agent \\\"00000000\\\""), "{body}");
}
