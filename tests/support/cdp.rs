//! A minimal DevTools protocol client, for what only the DevTools protocol can do to a browser
//! launched with `--remote-debugging-port=0` (stop its service workers, read a page's storage as
//! the page holds it, act in it as a person does): connect to the browser's socket, send a
//! command, await its result, and wait for an event. Commands run one at a time; events that
//! come meanwhile are kept (the newest `KEPT_EVENTS`) for `event` and `take_events` to find.

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

/// The bound on one command's answer: a browser that stops answering fails the run by name
/// rather than hanging it. Generous, as an evaluation may wait on its page (a popup's form).
const ANSWER_WITHIN: Duration = Duration::from_secs(60);
/// The bound on a new tab's page loading, for `eval_loaded`.
const LOAD_WITHIN: Duration = Duration::from_secs(20);
/// Events kept while nobody waits for them.
const KEPT_EVENTS: usize = 1000;

pub(crate) struct Cdp {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    events: VecDeque<Value>,
    /// Events dropped for want of room since the last `take_events`, which then cannot vouch
    /// for what it takes.
    dropped: usize,
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
            dropped: 0,
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

    /// The kept events `wanted` picks (all that came before the latest answer), oldest first;
    /// the others are dropped. An error if any came unkept, for want of room, since the last
    /// take (one of them could have been wanted).
    pub(crate) fn take_events(
        &mut self,
        wanted: impl Fn(&Value) -> bool,
    ) -> Result<Vec<Value>, String> {
        let events = std::mem::take(&mut self.events);
        let dropped = std::mem::take(&mut self.dropped);
        if dropped > 0 {
            return Err(format!(
                "{dropped} DevTools events went unkept (more than {KEPT_EVENTS} waiting)"
            ));
        }
        Ok(events.into_iter().filter(|e| wanted(e)).collect())
    }

    fn keep(&mut self, msg: Value) {
        if msg.get("method").is_some() {
            if self.events.len() == KEPT_EVENTS {
                self.events.pop_front();
                self.dropped += 1;
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

    /// The pages the browser shows, windows of its own included: (target id, address).
    pub(crate) async fn pages(&mut self) -> Result<Vec<(String, String)>, String> {
        Ok(self
            .targets()
            .await?
            .iter()
            .filter(|t| t["type"] == "page")
            .map(|t| {
                let field = |k: &str| t[k].as_str().unwrap_or_default().to_string();
                (field("targetId"), field("url"))
            })
            .collect())
    }

    /// Opens `url` in a new tab, in front or in the `background`; returns its target id and a
    /// session attached to it.
    pub(crate) async fn open(
        &mut self,
        url: &str,
        background: bool,
    ) -> Result<(String, String), String> {
        let r = self
            .send(
                "Target.createTarget",
                json!({"url": url, "background": background}),
            )
            .await?;
        let target = r["targetId"]
            .as_str()
            .ok_or_else(|| format!("Target.createTarget answered no target: {r}"))?
            .to_string();
        let session = self.attach(&target).await?;
        Ok((target, session))
    }

    /// `eval`, once the page in the tab of `session` has loaded: a new tab starts on
    /// about:blank, and a context it leaves is destroyed under an evaluation.
    pub(crate) async fn eval_loaded(
        &mut self,
        session: &str,
        expression: &str,
    ) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + LOAD_WITHIN;
        loop {
            let ready = self
                .eval(
                    session,
                    "location.href !== 'about:blank' && document.readyState === 'complete'",
                )
                .await;
            if ready == Ok(Value::Bool(true)) {
                break;
            }
            if tokio::time::Instant::now() > deadline {
                return Err(format!(
                    "the tab never loaded within {LOAD_WITHIN:?}: {ready:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.eval(session, expression).await
    }
}

/// What a person does in an extension's own pages.
impl Cdp {
    /// What a person does in the popup of the extension at `origin`, opened at `popup.html` +
    /// `hash`: waits there until `ready` (a JS expression) holds, then runs `then` (JS statements
    /// ending in `return ...`); returns what they returned.
    pub(crate) async fn in_popup_of(
        &mut self,
        origin: &str,
        hash: &str,
        ready: &str,
        then: &str,
    ) -> Value {
        let url = format!("{origin}/ui/popup.html{hash}");
        let (_, popup) = self.open(&url, false).await.unwrap();
        let script = format!(
            "(async () => {{
              const wait = async (f) => {{ for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 50)); }};
              await wait(() => {ready});
              {then}
            }})()"
        );
        self.eval_loaded(&popup, &script).await.unwrap()
    }
}
