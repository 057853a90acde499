//! An MCP client speaking newline-delimited JSON-RPC to `tabpilot mcp` over stdio: used by the
//! end-to-end tests (tests/e2e/harness.rs adds their environments and assertions) and the
//! benchmark (which times requests and reads the server's resident memory).

// Each user calls a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take before the client gives up.
const ANSWER_WITHIN: Duration = Duration::from_secs(90);

pub(crate) struct McpClient {
    pub child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of the server's stdout: a JSON message, or the text of a line that is not JSON.
    lines: Receiver<Result<Value, String>>,
    next_id: u64,
    /// Answers read while waiting for another one.
    pub early: Vec<Value>,
    /// The server's instructions, from `initialize`.
    pub instructions: String,
    /// Panic on a line of stdout that is not JSON (the tests); else report it and skip it.
    pub strict: bool,
    /// How long drop waits for the server to exit once its stdin is closed, before killing it.
    pub exit_grace: Duration,
    /// The server's notifications (progress, say) seen while waiting for answers, oldest first.
    pub notifications: Vec<Value>,
    /// The server's requests (`roots/list`) seen while waiting for answers, not yet answered.
    pub requests: Vec<Value>,
    /// Every line written to the server and read from it, as it crossed the pipe.
    pub wire: Arc<Mutex<Vec<String>>>,
}

impl McpClient {
    /// Spawns `cmd` (a `tabpilot mcp` command) with piped stdin and stdout; stderr is as `cmd`
    /// has it. Does not initialize, so that a caller can time the handshake.
    pub(crate) fn spawn(mut cmd: Command) -> McpClient {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("tabpilot mcp starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        let wire = Arc::new(Mutex::new(Vec::new()));
        let heard = wire.clone();
        // A reader thread, so that a wait for an answer can have a deadline.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                heard.lock().unwrap().push(line.clone());
                let msg =
                    serde_json::from_str::<Value>(&line).map_err(|e| format!("{line:?} ({e})"));
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        McpClient {
            child,
            stdin,
            lines,
            next_id: 1,
            early: Vec::new(),
            instructions: String::new(),
            strict: true,
            exit_grace: Duration::from_secs(1),
            notifications: Vec::new(),
            requests: Vec::new(),
            wire,
        }
    }

    /// The MCP handshake as `client_name`: initialize (keeping the instructions), then the
    /// initialized notification. Returns the initialize response.
    pub(crate) fn initialize(&mut self, client_name: &str) -> Value {
        let init = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": client_name, "version": "1"}
            }),
        );
        self.instructions = init["result"]["instructions"]
            .as_str()
            .unwrap_or("")
            .to_string();
        self.notify("notifications/initialized", &json!({}));
        init
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one message, in one write as MCP clients do: the line arrives whole.
    pub(crate) fn send(&mut self, msg: &Value) {
        self.send_line(&msg.to_string());
    }

    /// Writes one line as it is, JSON or not.
    pub(crate) fn send_line(&mut self, text: &str) {
        self.wire.lock().unwrap().push(text.to_string());
        let line = format!("{text}\n");
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(line.as_bytes())
            .expect("write to tabpilot mcp");
        stdin.flush().expect("flush to tabpilot mcp");
    }

    pub(crate) fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns the whole response (with `result` or `error`).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method});
        msg["params"] = params;
        self.send(&msg);
        self.response(id)
    }

    /// The response to request `id`, which may have arrived while waiting for another.
    pub(crate) fn response(&mut self, id: u64) -> Value {
        self.response_to(&json!(id))
    }

    /// The response whose id is `id` (null for an answer to a line that was not JSON).
    pub(crate) fn response_to(&mut self, id: &Value) -> Value {
        if let Some(i) = self.early.iter().position(|m| m["id"] == *id) {
            return self.early.remove(i);
        }
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = match self.lines.recv_timeout(left) {
                Ok(Ok(msg)) => msg,
                Ok(Err(line)) if self.strict => {
                    panic!("tabpilot mcp wrote a non-JSON line to stdout: {line}")
                }
                Ok(Err(line)) => {
                    eprintln!("tabpilot mcp wrote a non-JSON line: {line}");
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("tabpilot mcp did not answer request {id} within {ANSWER_WITHIN:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("tabpilot mcp closed its stdout before answering request {id}")
                }
            };
            // Server-initiated notifications and requests are not answers.
            if msg.get("method").is_some() {
                if msg.get("id").is_none() {
                    self.notifications.push(msg);
                } else {
                    self.requests.push(msg);
                }
                continue;
            }
            if msg["id"] == *id {
                return msg;
            }
            if msg.get("id").is_some() {
                self.early.push(msg);
            }
        }
    }

    /// The server's next request of `method`, which may have come while waiting for an answer.
    pub(crate) fn server_request(&mut self, method: &str) -> Value {
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            if let Some(i) = self.requests.iter().position(|m| m["method"] == method) {
                return self.requests.remove(i);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(msg)) if msg.get("method").is_some() && msg.get("id").is_some() => {
                    self.requests.push(msg)
                }
                Ok(Ok(msg)) if msg.get("method").is_some() => self.notifications.push(msg),
                Ok(Ok(msg)) => self.early.push(msg),
                Ok(Err(line)) => panic!("tabpilot mcp wrote a non-JSON line to stdout: {line}"),
                Err(_) => panic!("tabpilot mcp sent no {method} request within {ANSWER_WITHIN:?}"),
            }
        }
    }

    /// Calls a tool; returns the CallToolResult (or the JSON-RPC error response).
    pub(crate) fn call_tool(&mut self, name: &str, args: Value) -> Value {
        let mut params = json!({ "name": name });
        params["arguments"] = args;
        let r = self.request("tools/call", params);
        r.get("result").cloned().unwrap_or(r)
    }

    pub(crate) fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// The server's resident memory in KiB (VmRSS from /proc), if it is still running.
    pub(crate) fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        // Closing stdin is how an MCP client ends a stdio server; kill it only if it lingers.
        self.stdin.take();
        let deadline = Instant::now() + self.exit_grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
