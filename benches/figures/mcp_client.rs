//! A small MCP client speaking newline-delimited JSON-RPC to `tabpilot mcp` over stdio, for the
//! figures: it times requests and reads the server's resident memory.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take before the bench gives up on the run.
const ANSWER_WITHIN: Duration = Duration::from_secs(90);

pub struct McpClient {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    next_id: u64,
}

impl McpClient {
    /// Spawns `cmd` (a `tabpilot mcp` command) with piped stdio. Does not initialize, so that a
    /// caller can time the handshake.
    pub fn spawn(mut cmd: Command) -> McpClient {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tabpilot mcp starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        // A reader thread, so that a wait for an answer can have a deadline.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let Ok(msg) = serde_json::from_str::<Value>(&line) else {
                    eprintln!("tabpilot mcp wrote a non-JSON line: {line:?}");
                    continue;
                };
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
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, msg: &Value) {
        // One write per message, as MCP clients do: the line arrives whole.
        let line = format!("{msg}\n");
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(line.as_bytes())
            .expect("write to tabpilot mcp");
        stdin.flush().expect("flush to tabpilot mcp");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (with `result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("tabpilot mcp did not answer {method} within {ANSWER_WITHIN:?}")
            });
            // Server-initiated notifications and requests are not ours to answer here.
            if msg["id"] == json!(id) && msg.get("method").is_none() {
                return msg;
            }
        }
    }

    /// The MCP handshake: initialize, then the initialized notification.
    pub fn initialize(&mut self) -> Value {
        let init = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "tabpilot-figures", "version": "1"}
            }),
        );
        self.notify("notifications/initialized", json!({}));
        init
    }

    /// Calls a tool; returns the CallToolResult (or the JSON-RPC error response).
    #[allow(dead_code)] // for the browser round-trip section
    pub fn call_tool(&mut self, name: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": name, "arguments": args}));
        r.get("result").cloned().unwrap_or(r)
    }

    /// The server's resident memory in KiB (VmRSS from /proc), if it is still running.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        // Closing stdin is how an MCP client ends a stdio server; kill it only if it lingers.
        self.stdin.take();
        let deadline = Instant::now() + Duration::from_secs(5);
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
