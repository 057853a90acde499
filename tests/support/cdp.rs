//! A minimal DevTools protocol client, for what only the DevTools protocol can do to a browser
//! we launched with `--remote-debugging-port=0` (stop its service workers, read a page's storage
//! as the page holds it): connect to the browser's socket, send a command, await its result, and
//! wait for an event. Commands run one at a time; events that come meanwhile are kept (the newest
//! `KEPT_EVENTS`) for `event` to find.

// Each user calls a part of it.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The bound on one command's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(15);
/// Events kept while nobody waits for them.
const KEPT_EVENTS: usize = 1000;

pub(crate) struct Cdp {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    events: VecDeque<Value>,
}

/// The browser's DevTools socket, from the `DevToolsActivePort` file Chromium writes into its
/// user data dir once it listens (the port on the first line, the socket's path on the second).
/// Waits up to `within` for the file.
pub(crate) fn browser_url(data_dir: &Path, within: Duration) -> String {
    let file = data_dir.join("DevToolsActivePort");
    let deadline = Instant::now() + within;
    loop {
        if let Ok(text) = std::fs::read_to_string(&file)
            && let Some((port, path)) = text.split_once('\n')
            && !path.trim().is_empty()
        {
            return format!("ws://127.0.0.1:{}{}", port.trim(), path.trim());
        }
        assert!(
            Instant::now() < deadline,
            "Chromium wrote no {} within {within:?}",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Cdp {
    pub(crate) async fn connect(url: &str) -> Cdp {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .unwrap_or_else(|e| panic!("no DevTools socket at {url}: {e}"));
        Cdp {
            ws,
            next_id: 0,
            events: VecDeque::new(),
        }
    }

    /// Sends `method` to the browser itself; returns its result, or the protocol's error message.
    pub(crate) async fn send(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.command(None, method, params).await
    }

    /// Sends `method` to the target attached as `session` (`Target.attachToTarget` with
    /// `flatten: true`).
    pub(crate) async fn send_to(
        &mut self,
        session: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.command(Some(session), method, params).await
    }

    async fn command(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .map_err(|e| format!("{method}: the DevTools socket failed: {e}"))?;
        let deadline = tokio::time::Instant::now() + ANSWER_WITHIN;
        loop {
            let reply = self
                .next_message(deadline)
                .await
                .map_err(|e| format!("{method}: {e}"))?;
            if reply["id"] != id {
                self.keep(reply);
                continue;
            }
            return match reply.get("error") {
                Some(e) => Err(format!(
                    "{method}: {}",
                    e["message"].as_str().unwrap_or("?")
                )),
                None => Ok(reply["result"].clone()),
            };
        }
    }

    /// The first event `wanted` picks, among those kept and those that come within `within`;
    /// the events before it are dropped. None when none came.
    pub(crate) async fn event(
        &mut self,
        within: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        while let Some(e) = self.events.pop_front() {
            if wanted(&e) {
                return Some(e);
            }
        }
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let msg = self.next_message(deadline).await.ok()?;
            if msg.get("method").is_some() && wanted(&msg) {
                return Some(msg);
            }
        }
    }

    fn keep(&mut self, msg: Value) {
        if msg.get("method").is_some() {
            if self.events.len() == KEPT_EVENTS {
                self.events.pop_front();
            }
            self.events.push_back(msg);
        }
    }

    async fn next_message(&mut self, deadline: tokio::time::Instant) -> Result<Value, String> {
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| "no message in time".to_string())?;
            let text = match next {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(format!("the DevTools socket failed: {e}")),
                None => return Err("the DevTools socket closed".into()),
            };
            return serde_json::from_str(&text)
                .map_err(|e| format!("a message that is not JSON: {e}"));
        }
    }

    /// The browser's targets (`Target.getTargets`' `targetInfos`).
    pub(crate) async fn targets(&mut self) -> Result<Vec<Value>, String> {
        let r = self.send("Target.getTargets", json!({})).await?;
        Ok(r["targetInfos"].as_array().cloned().unwrap_or_default())
    }

    /// Attaches to a target; returns the session to send its commands to.
    pub(crate) async fn attach(&mut self, target_id: &str) -> Result<String, String> {
        let r = self
            .send(
                "Target.attachToTarget",
                json!({"targetId": target_id, "flatten": true}),
            )
            .await?;
        r["sessionId"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| format!("Target.attachToTarget answered no session: {r}"))
    }

    /// Evaluates `expression` in the attached page `session`; returns its value (by value).
    pub(crate) async fn eval(&mut self, session: &str, expression: &str) -> Result<Value, String> {
        let r = self
            .send_to(
                session,
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("{expression:?} threw: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }
}
