//! A small DevTools protocol client for tests and benchmarks that must do to a real Chromium
//! what no tabpilot tool does (stop the extension's service worker, say). The browser must have
//! been started with `--remote-debugging-port=0` (for a managed launch: through
//! `TABPILOT_CHROMIUM_ARGS`, never by default); it writes the port it took into its profile.
//!
//! Each includer uses part of it.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A connection to a browser's DevTools endpoint.
pub(crate) struct Cdp {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Cdp {
    /// Connects to the browser whose user-data-dir is `data_dir`, waiting up to `within` for it
    /// to write `DevToolsActivePort` (its port, then the browser endpoint's path).
    pub(crate) async fn connect(data_dir: &Path, within: Duration) -> Cdp {
        let file = data_dir.join("DevToolsActivePort");
        let deadline = Instant::now() + within;
        let text = loop {
            match std::fs::read_to_string(&file) {
                Ok(text) if text.lines().count() >= 2 => break text,
                _ if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => panic!("no DevTools endpoint in {}: {other:?}", file.display()),
            }
        };
        let mut lines = text.lines();
        let (port, path) = (lines.next().unwrap().trim(), lines.next().unwrap().trim());
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}{path}"))
            .await
            .expect("the DevTools endpoint takes a socket");
        Cdp { ws, next_id: 1 }
    }

    /// Sends `method` to the browser and returns its result (or its error).
    pub(crate) async fn call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.call_in(None, method, params).await
    }

    /// Sends `method` in an attached target's session (`Target.attachToTarget` with
    /// `flatten: true`), or to the browser with none. Events met on the way are dropped.
    pub(crate) async fn call_in(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            msg["sessionId"] = json!(session);
        }
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .expect("the DevTools socket is open");
        let reply = tokio::time::timeout(Duration::from_secs(15), async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Text(text))) => {
                        let v: Value = serde_json::from_str(&text).expect("DevTools speaks JSON");
                        if v["id"] == id {
                            return v;
                        }
                    }
                    Some(Ok(_)) => {}
                    other => panic!("the DevTools socket ended: {other:?}"),
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("no answer to {method} within 15 s"));
        match reply.get("error") {
            Some(e) => Err(e.clone()),
            None => Ok(reply["result"].clone()),
        }
    }
}
