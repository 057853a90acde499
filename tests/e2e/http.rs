//! `tabpilot mcp --http`: a browser task over Streamable HTTP with the token, each MCP session its
//! own agent, and the requests a hostile neighbour would send refused: no token, a wrong one, a
//! foreign `Origin` (a page in the browser), a foreign `Host` (DNS rebinding).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::harness::{Env, shared};

/// A `tabpilot mcp --http` on a port the system picks, and the token in its state directory.
pub(crate) struct HttpServer {
    child: Child,
    pub addr: String,
    pub token: String,
    /// What it printed at start.
    pub said: String,
    /// Its output, kept open: a server that prints into a closed pipe dies of it.
    _out: BufReader<ChildStdout>,
}

impl HttpServer {
    /// On the shared browser's relay.
    pub(crate) fn start() -> HttpServer {
        HttpServer::start_in(&shared().env, |_| {})
    }

    /// In `env`, its command adjusted first (limits, environment).
    pub(crate) fn start_in(env: &Env, adjust: impl FnOnce(&mut Command)) -> HttpServer {
        let mut cmd = env.command(&["mcp", "--http", "127.0.0.1:0"]);
        cmd.env_remove("TABPILOT_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::piped());
        adjust(&mut cmd);
        let mut child = cmd.spawn().expect("tabpilot mcp --http starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (mut first, mut second) = (String::new(), String::new());
        out.read_line(&mut first).unwrap();
        out.read_line(&mut second).unwrap();
        let addr = first
            .trim()
            .strip_prefix("tabpilot mcp: MCP over Streamable HTTP at http://")
            .and_then(|rest| rest.strip_suffix("/mcp"))
            .unwrap_or_else(|| panic!("the server prints its address: {first}"))
            .to_string();
        // The token is where the person finds it: the owner-only file in the state directory.
        let token = std::fs::read_to_string(env.state_dir.join("http-token"))
            .expect("the server made its token")
            .trim()
            .to_string();
        HttpServer {
            child,
            addr,
            token,
            said: first + &second,
            _out: out,
        }
    }

    /// One HTTP/1.0 POST to /mcp (so the answer ends when the connection does); returns the
    /// status, the session id header if any, and the body.
    pub(crate) fn post(
        &self,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> (u16, Option<String>, String) {
        self.request("POST", headers, &body.to_string())
    }

    pub(crate) fn request(
        &self,
        method: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, Option<String>, String) {
        let mut req = format!(
            "{method} /mcp HTTP/1.0\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        for (name, value) in headers {
            req.push_str(&format!("{name}: {value}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.write_all(req.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("an HTTP answer: {head}"));
        let session = head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        });
        (status, session, body.to_string())
    }

    pub(crate) fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON-RPC answer to request `id` in an SSE (or JSON) body.
pub(crate) fn answer(body: &str, id: u64) -> Value {
    body.lines()
        .map(|l| l.strip_prefix("data:").unwrap_or(l).trim())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("no answer to request {id} in: {body}"))
}

pub(crate) fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "http-e2e", "version": "1"}}})
}

/// An MCP session over HTTP: initialized, ready for tool calls.
pub(crate) struct Client<'a> {
    server: &'a HttpServer,
    pub session: String,
    next: u64,
}

impl<'a> Client<'a> {
    pub(crate) fn open(server: &'a HttpServer) -> Client<'a> {
        let auth = server.bearer();
        let (status, session, body) = server.post(&[("Authorization", &auth)], &initialize(1));
        assert_eq!(status, 200, "{body}");
        assert_eq!(answer(&body, 1)["result"]["serverInfo"]["name"], "tabpilot");
        let session = session.expect("a session id");
        let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (status, _, _) = server.post(
            &[("Authorization", &auth), ("Mcp-Session-Id", &session)],
            &done,
        );
        assert!(status == 202 || status == 200, "{status}");
        Client {
            server,
            session,
            next: 2,
        }
    }

    /// A request in this session; returns the whole answer (with `result` or `error`).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let mut call = json!({"jsonrpc": "2.0", "id": id, "method": method});
        call["params"] = params;
        let auth = self.server.bearer();
        let (status, _, body) = self.server.post(
            &[("Authorization", &auth), ("Mcp-Session-Id", &self.session)],
            &call,
        );
        assert_eq!(status, 200, "{body}");
        answer(&body, id)
    }

    /// A tool call that must succeed; returns (text, structuredContent).
    pub(crate) fn ok(&mut self, tool: &str, args: Value) -> (String, Value) {
        let mut params = json!({ "name": tool });
        params["arguments"] = args;
        let answer = self.request("tools/call", params);
        let result = &answer["result"];
        assert_ne!(result["isError"], true, "{tool} failed: {result}");
        (
            result["content"][0]["text"].as_str().unwrap().to_string(),
            result["structuredContent"].clone(),
        )
    }
}

#[test]
fn a_browser_task_over_http_with_the_token_each_session_its_own_agent() {
    let s = shared();
    let server = HttpServer::start();
    let mut one = Client::open(&server);
    let (text, _) = one.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html"), "include": "snapshot"}),
    );
    let press = crate::snapshot::ref_of(&text, "button", "Press me");
    let (_, clicked) = one.ok("browser_click", json!({ "ref": press }));
    assert_eq!(clicked["outcome"], "done", "{clicked}");
    let (_, mine) = one.ok("browser_status", json!({}));

    // A second session is a second agent: it gets a tab of its own, not the first one's.
    let mut two = Client::open(&server);
    two.ok("browser_navigate", json!({"url": s.a("page2.html")}));
    let (_, theirs) = two.ok("browser_status", json!({}));
    // The tabs the asking agent holds, as the relay's books say.
    let held = |status: &Value| -> Vec<Value> {
        let agents = status["agents"].as_array().unwrap();
        let me = agents.iter().find(|a| a["id"] == status["you"]).unwrap();
        me["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["tab"].clone())
            .collect()
    };
    let (mine, theirs) = (held(&mine), held(&theirs));
    assert_eq!((mine.len(), theirs.len()), (1, 1), "{mine:?} {theirs:?}");
    assert_ne!(mine, theirs, "two sessions, two agents, two tabs");
}

impl Client<'_> {
    /// The one tab this agent holds, from the tab list.
    fn my_tab(&mut self) -> Value {
        let (_, listed) = self.ok("browser_list_tabs", json!({}));
        let tabs = listed["tabs"].as_array().unwrap();
        let mine: Vec<&Value> = tabs.iter().filter(|t| t["mine"] == true).collect();
        assert_eq!(mine.len(), 1, "{tabs:?}");
        mine[0].clone()
    }

    /// Ends the session, as a client that is done sends it.
    fn end(self) {
        let auth = self.server.bearer();
        let headers = [
            ("Authorization", auth.as_str()),
            ("Mcp-Session-Id", &self.session),
        ];
        let (status, _, body) = self.server.request("DELETE", &headers, "");
        assert!(
            status == 200 || status == 202 || status == 204,
            "{status} {body}"
        );
    }
}

#[test]
fn a_session_that_starts_after_another_ended_is_a_new_agent_and_works_on_its_first_call() {
    let s = shared();
    let server = HttpServer::start();
    let mut one = Client::open(&server);
    let marker = format!("http-ended-{}", std::process::id());
    one.ok(
        "browser_navigate",
        json!({"url": s.a(&format!("basic.html?{marker}=one"))}),
    );
    let first_tab = one.my_tab()["tabId"].clone();
    one.end();

    // Same client name, same server, a moment later: none of the first one's tab, page or
    // history is its own.
    let mut two = Client::open(&server);
    let (_, nav) = two.ok(
        "browser_navigate",
        json!({"url": s.a(&format!("page2.html?{marker}=two")), "includeSnapshot": false}),
    );
    assert_eq!(nav["outcome"], "done", "{nav}");
    let mine = two.my_tab();
    assert_ne!(
        mine["tabId"], first_tab,
        "it took over the first session's tab"
    );
    assert!(
        mine["url"]
            .as_str()
            .unwrap()
            .contains(&format!("{marker}=two")),
        "{mine}"
    );
}

/// Issue 21: what an action caused comes back on its own reply. Two clicks run at once in one
/// session, each asking for the console since it began: each reply has its own click's error.
#[test]
fn two_actions_at_once_in_one_session_each_carry_their_own_findings() {
    let s = shared();
    let server = HttpServer::start();
    let mut one = Client::open(&server);
    let (text, _) = one.ok(
        "browser_navigate",
        json!({"url": s.a("two-errors.html"), "include": "snapshot"}),
    );
    let refs = [
        crate::snapshot::ref_of(&text, "button", "Fail A"),
        crate::snapshot::ref_of(&text, "button", "Fail B"),
    ];
    let session = one.session.clone();
    std::thread::scope(|scope| {
        for (n, (id, button)) in ["a", "b"].iter().zip(refs).enumerate() {
            let mut client = Client {
                server: &server,
                session: session.clone(),
                next: 1000 * (n as u64 + 1),
            };
            scope.spawn(move || {
                for _ in 0..8 {
                    let (text, _) = client.ok(
                        "browser_click",
                        json!({"ref": button, "include": "console"}),
                    );
                    assert!(
                        text.contains(&format!("fail-{id}-")),
                        "a click on Fail {id} lost its own error: {text}"
                    );
                }
            });
        }
    });
    one.ok("browser_close_tab", json!({}));
}

#[test]
fn requests_without_the_token_or_from_a_foreign_origin_or_host_are_refused() {
    let server = HttpServer::start();
    let (status, _, _) = server.post(&[], &initialize(1));
    assert_eq!(status, 401, "no token");
    let (status, _, _) = server.post(
        &[("Authorization", "Bearer 0123456789abcdef")],
        &initialize(1),
    );
    assert_eq!(status, 401, "a wrong token");

    // A page in the browser (any site) posting to the port, token or not: its Origin gives it
    // away. A loopback page's Origin is a local web client's, and passes with the token.
    let auth = server.bearer();
    let evil = [
        ("Authorization", auth.as_str()),
        ("Origin", "http://evil.example"),
    ];
    let (status, _, body) = server.post(&evil, &initialize(1));
    assert_eq!(status, 403, "a foreign Origin: {body}");
    let local = format!("http://{}", server.addr);
    let ok = [("Authorization", auth.as_str()), ("Origin", local.as_str())];
    let (status, _, body) = server.post(&ok, &initialize(1));
    assert_eq!(status, 200, "a loopback Origin: {body}");

    // DNS rebinding: a name that resolves to us, sent as Host.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    let body = initialize(1).to_string();
    write!(
        stream,
        "POST /mcp HTTP/1.0\r\nHost: evil.example:80\r\nAuthorization: {auth}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.0 403") || answer.starts_with("HTTP/1.1 403"),
        "a foreign Host: {answer}"
    );
}
