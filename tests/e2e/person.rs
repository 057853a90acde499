//! A person's own browser: a Chromium with the extension loaded by hand, paired through the code
//! `tabpilot pair` prints, and driven the way a person would, through Chrome's DevTools protocol
//! on the test's own Chromium (the popup, tabs the person opens and shares).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::harness::{Env, Kill, Mcp, run};
use crate::peers::EXTENSION_ORIGIN;

/// The one-time code (`XXXX-XXXX`) in what `tabpilot pair` printed.
pub(crate) fn code_in(text: &str) -> String {
    text.split_whitespace()
        .find(|w| w.len() == 9 && w.as_bytes()[4] == b'-')
        .unwrap_or_else(|| panic!("no code in {text}"))
        .to_string()
}

/// `tabpilot pair`'s output: the code it printed and the page's address.
pub(crate) fn pair(env: &Env) -> (String, String) {
    let mut cmd = env.command(&["pair"]);
    cmd.env("TABPILOT_NO_OPEN", "1");
    let (ok, text, err) = run(cmd);
    assert!(ok, "{err}");
    let code = code_in(&text);
    let url = text
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .expect("a pairing page")
        .to_string();
    (code, url)
}

pub(crate) fn browsers(mcp: &mut Mcp) -> Vec<Value> {
    let (_, data) = mcp.ok("browser_status", json!({}));
    data["browsers"].as_array().unwrap().clone()
}

/// A Chromium with the extension loaded by hand (written out by `tabpilot extension path`, no
/// pairing inside), with DevTools on a port of its choosing.
pub(crate) fn hand_loaded_browser(env: &Env, name: &str) -> (Kill, PathBuf) {
    let (ok, out, err) = env.cli(&["extension", "path"]);
    assert!(ok, "{err}");
    let ext = PathBuf::from(out.trim());
    assert!(!ext.join("managed.json").exists());
    let exe = tabpilot::launch::find_chromium().expect("a Chromium for the tests");
    let profile = env.state_dir.join(name);
    let child = tabpilot::launch::chromium_command(&exe, &profile, &ext, true, "about:blank")
        .arg("--remote-debugging-port=0")
        .spawn()
        .unwrap();
    (Kill(child), profile)
}

/// A hand-loaded browser, paired through its popup with the code `tabpilot pair` printed, once
/// it has joined the relay (as `agent` sees it); and DevTools on it.
pub(crate) fn paired_browser(
    rt: &tokio::runtime::Runtime,
    env: &Env,
    name: &str,
    agent: &mut Mcp,
) -> (Kill, Cdp) {
    let (code, _) = pair(env);
    let (browser, profile) = hand_loaded_browser(env, name);
    let mut cdp = rt.block_on(Cdp::connect(&profile));
    assert_eq!(
        rt.block_on(cdp.pair_in_popup(env.first_port, &code)),
        "Paired."
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    while browsers(agent).is_empty() {
        assert!(Instant::now() < deadline, "the paired browser never joined");
        std::thread::sleep(Duration::from_millis(100));
    }
    (browser, cdp)
}

/// Chrome's DevTools protocol on the browser's own socket.
pub(crate) struct Cdp {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next: u64,
    /// Whether a page target has had a client attached since `watch_attaching` (the URLs).
    attached: Vec<String>,
}

impl Cdp {
    pub(crate) async fn connect(profile: &Path) -> Cdp {
        let file = profile.join("DevToolsActivePort");
        let deadline = Instant::now() + Duration::from_secs(20);
        let text = loop {
            if let Ok(text) = std::fs::read_to_string(&file)
                && text.lines().count() >= 2
            {
                break text;
            }
            assert!(
                Instant::now() < deadline,
                "Chromium wrote no DevToolsActivePort"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let mut lines = text.lines();
        let (port, path) = (lines.next().unwrap(), lines.next().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}{path}"))
            .await
            .expect("DevTools answers");
        Cdp {
            ws,
            next: 1,
            attached: Vec::new(),
        }
    }

    async fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        let reply = self.try_send(session, method, params).await;
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        reply["result"].clone()
    }

    /// The whole reply, an error included.
    async fn try_send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        // A browser that stops answering fails the test by name rather than hanging it.
        let answer = async {
            loop {
                let Some(Ok(Message::Text(text))) = self.ws.next().await else {
                    panic!("DevTools closed");
                };
                let reply: Value = serde_json::from_str(&text).unwrap();
                if reply["id"] == id {
                    return reply;
                }
                let info = &reply["params"]["targetInfo"];
                if reply["method"] == "Target.targetInfoChanged" && info["attached"] == true {
                    self.attached
                        .push(info["url"].as_str().unwrap_or_default().into());
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(60), answer)
            .await
            .unwrap_or_else(|_| panic!("DevTools did not answer {method} within 60 s"))
    }

    /// The pages the browser shows, windows of its own included, as a person's window list
    /// does: (target id, address).
    pub(crate) async fn pages(&mut self) -> Vec<(String, String)> {
        let r = self.send(None, "Target.getTargets", json!({})).await;
        r["targetInfos"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "page")
            .map(|t| {
                (
                    t["targetId"].as_str().unwrap().into(),
                    t["url"].as_str().unwrap().into(),
                )
            })
            .collect()
    }

    /// A session on a page the browser already shows.
    pub(crate) async fn attach(&mut self, target_id: &str) -> String {
        let attached = self
            .send(
                None,
                "Target.attachToTarget",
                json!({"targetId": target_id, "flatten": true}),
            )
            .await;
        attached["sessionId"].as_str().unwrap().to_string()
    }

    /// Opens `url` in a new tab; returns a session attached to it.
    pub(crate) async fn open(&mut self, url: &str) -> String {
        let target = self
            .send(None, "Target.createTarget", json!({"url": url}))
            .await;
        let attached = self
            .send(
                None,
                "Target.attachToTarget",
                json!({"targetId": target["targetId"], "flatten": true}),
            )
            .await;
        attached["sessionId"].as_str().unwrap().to_string()
    }

    /// Evaluates in the tab's page once it has loaded (a new tab starts on about:blank, and a
    /// context it leaves is destroyed under an evaluation).
    pub(crate) async fn eval(&mut self, session: &str, expression: &str) -> Value {
        let params =
            |e: &str| json!({"expression": e, "awaitPromise": true, "returnByValue": true});
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = self
                .try_send(
                    Some(session),
                    "Runtime.evaluate",
                    params("location.href !== 'about:blank' && document.readyState === 'complete'"),
                )
                .await;
            if ready["result"]["result"]["value"] == true {
                break;
            }
            assert!(Instant::now() < deadline, "the tab never loaded: {ready}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let r = self
            .send(Some(session), "Runtime.evaluate", params(expression))
            .await;
        r["result"]["value"].clone()
    }

    /// From now on, notes each page a client (a debugger) attaches to.
    pub(crate) async fn watch_attaching(&mut self) {
        self.send(None, "Target.setDiscoverTargets", json!({"discover": true}))
            .await;
    }

    /// The pages a client attached to since `watch_attaching`, as far as the browser has told
    /// (what it told before an answer to a call made now).
    pub(crate) async fn attached_since(&mut self) -> Vec<String> {
        self.send(None, "Target.getTargets", json!({})).await;
        std::mem::take(&mut self.attached)
    }

    /// What a person does: clicks at a point of the tab's viewport, with trusted input.
    pub(crate) async fn click_at(&mut self, session: &str, x: f64, y: f64) {
        for kind in ["mousePressed", "mouseReleased"] {
            let at = json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
            self.send(Some(session), "Input.dispatchMouseEvent", at)
                .await;
        }
    }

    /// What a person does: goes to `url` in the tab of `session`.
    pub(crate) async fn go(&mut self, session: &str, url: &str) {
        self.send(Some(session), "Page.navigate", json!({ "url": url }))
            .await;
    }

    /// The title of the page in the tab of `session`, or None while it has no page to ask.
    pub(crate) async fn title(&mut self, session: &str) -> Option<String> {
        let params = json!({"expression": "document.title", "returnByValue": true});
        let reply = self
            .try_send(Some(session), "Runtime.evaluate", params)
            .await;
        reply["result"]["result"]["value"]
            .as_str()
            .map(String::from)
    }

    /// What a person does: opens the popup for tab `tab`, clicks Share; returns what it says.
    pub(crate) async fn share_in_popup(&mut self, tab: i64) -> String {
        let popup = self
            .open(&format!("{EXTENSION_ORIGIN}/popup.html#tab={tab}"))
            .await;
        let script = "(async () => {
              const wait = async (f) => { for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 50)); };
              await wait(() => document.getElementById('sharing') && !document.getElementById('sharing').hidden);
              document.getElementById('share').click();
              await wait(() => document.getElementById('share-result').textContent);
              return document.getElementById('share-result').textContent;
            })()";
        self.eval(&popup, script)
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// What a person does: opens the extension's popup, types the port and the code, clicks
    /// Pair; returns what the popup then says.
    pub(crate) async fn pair_in_popup(&mut self, port: u16, code: &str) -> String {
        let popup = self.open(&format!("{EXTENSION_ORIGIN}/popup.html")).await;
        let script = format!(
            "(async () => {{
              const wait = async (f) => {{ for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 50)); }};
              await wait(() => document.getElementById('pair') && !document.getElementById('pair').hidden);
              document.getElementById('port').value = '{port}';
              document.getElementById('code').value = '{code}';
              document.getElementById('pair-button').click();
              await wait(() => document.getElementById('pair-result').textContent);
              return document.getElementById('pair-result').textContent;
            }})()"
        );
        self.eval(&popup, &script)
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}
