//! A person's own browser: a Chromium with the extension loaded by hand, paired through the code
//! `tabpilot pair` prints, and driven the way a person would, through Chrome's DevTools protocol
//! on the test's own Chromium (the popup, tabs the person opens and shares).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::{Cdp, browser_url};
use crate::harness::{Env, Kill, Mcp, run};
use crate::peers::EXTENSION_ORIGIN;

/// How long a browser we started has to open its DevTools socket.
pub(crate) const DEVTOOLS_WITHIN: Duration = Duration::from_secs(20);

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
    browser_loading(env, name, &ext)
}

/// A Chromium loading the extension in `ext` by hand, with DevTools on a port of its choosing.
pub(crate) fn browser_loading(env: &Env, name: &str, ext: &std::path::Path) -> (Kill, PathBuf) {
    let exe = tabpilot::controller::launch::find_chromium().expect("a Chromium for the tests");
    let profile = env.state_dir.join(name);
    let child =
        tabpilot::controller::launch::chromium_command(&exe, &profile, ext, true, "about:blank")
            .arg("--remote-debugging-port=0")
            .spawn()
            .unwrap();
    (Kill(child), profile)
}

/// An agent that launches a managed headless browser of its own with DevTools on it (the
/// browser starts at the agent's first call that needs one).
pub(crate) fn agent_with_devtools(env: &Env) -> Mcp {
    Mcp::start_with(env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_CHROMIUM_ARGS", "--remote-debugging-port=0");
    })
}

/// DevTools on the managed browser `agent_with_devtools` launched, once it is up.
pub(crate) fn devtools(rt: &tokio::runtime::Runtime, env: &Env) -> Cdp {
    let profile = env.state_dir.join("profiles/managed/data");
    rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)))
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
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));
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

/// What the person tests do through DevTools, on top of the shared client.
impl Cdp {
    /// From now on, has the browser tell each page a client (a debugger) attaches to.
    pub(crate) async fn watch_attaching(&mut self) {
        self.send("Target.setDiscoverTargets", json!({"discover": true}))
            .await
            .unwrap();
    }

    /// The pages a client attached to since `watch_attaching`, as far as the browser has told
    /// (what it told before an answer to a call made now); each told once.
    pub(crate) async fn attached_since(&mut self) -> Vec<String> {
        self.targets().await.unwrap();
        let attached = |e: &Value| {
            e["method"] == "Target.targetInfoChanged"
                && e["params"]["targetInfo"]["attached"] == true
        };
        self.take_events(attached)
            .unwrap()
            .iter()
            .map(|e| {
                let url = &e["params"]["targetInfo"]["url"];
                url.as_str().unwrap_or_default().to_string()
            })
            .collect()
    }

    /// What a person does: clicks at a point of the tab's viewport, with trusted input.
    pub(crate) async fn click_at(&mut self, session: &str, x: f64, y: f64) {
        for kind in ["mousePressed", "mouseReleased"] {
            let at = json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
            self.send_to(session, "Input.dispatchMouseEvent", at)
                .await
                .unwrap();
        }
    }

    /// What a page does with a person's gesture: the page at `url` opens a new tab, which comes
    /// in front of it in its window; the page's tab is in the background from then on.
    pub(crate) async fn open_over(&mut self, url: &str) {
        let pages = self.pages().await.unwrap();
        let (target, _) = pages.iter().find(|(_, u)| u == url).expect("the page");
        let session = self.attach(target).await.unwrap();
        let open = json!({"expression": "void window.open('about:blank')", "userGesture": true});
        self.send_to(&session, "Runtime.evaluate", open)
            .await
            .unwrap();
    }

    /// What a person does: goes to `url` in the tab of `session`.
    pub(crate) async fn go(&mut self, session: &str, url: &str) {
        self.send_to(session, "Page.navigate", json!({ "url": url }))
            .await
            .unwrap();
    }

    /// The title of the page in the tab of `session`, or None while it has no page to ask.
    pub(crate) async fn title(&mut self, session: &str) -> Option<String> {
        let title = self.eval(session, "document.title").await.ok()?;
        title.as_str().map(String::from)
    }

    /// What a person does in the extension's popup, opened at `popup.html` + `hash`: waits there
    /// until `ready` (a JS expression) holds, then runs `then` (JS statements ending in
    /// `return ...`); returns what they returned.
    pub(crate) async fn in_popup(&mut self, hash: &str, ready: &str, then: &str) -> Value {
        self.in_popup_of(EXTENSION_ORIGIN, hash, ready, then).await
    }

    /// What a person does: opens the popup for tab `tab`, clicks Share; returns what it says.
    pub(crate) async fn share_in_popup(&mut self, tab: i64) -> String {
        let said = self
            .in_popup(
                &format!("#tab={tab}"),
                "document.getElementById('sharing') && !document.getElementById('sharing').hidden",
                "document.getElementById('share').click();
                 await wait(() => document.getElementById('share-result').textContent);
                 return document.getElementById('share-result').textContent;",
            )
            .await;
        said.as_str().unwrap_or("").to_string()
    }

    /// What a person does: opens the extension's popup, types the port and the code, clicks
    /// Pair; returns what the popup then says.
    pub(crate) async fn pair_in_popup(&mut self, port: u16, code: &str) -> String {
        self.pair_in_popup_of(EXTENSION_ORIGIN, port, code).await
    }

    /// `pair_in_popup`, in the popup of the extension at `origin`.
    pub(crate) async fn pair_in_popup_of(&mut self, origin: &str, port: u16, code: &str) -> String {
        let said = self
            .in_popup_of(
                origin,
                "",
                "document.getElementById('pair') && !document.getElementById('pair').hidden",
                &format!(
                    "document.getElementById('port').value = '{port}';
                     document.getElementById('code').value = '{code}';
                     document.getElementById('pair-button').click();
                     await wait(() => document.getElementById('pair-result').textContent);
                     return document.getElementById('pair-result').textContent;"
                ),
            )
            .await;
        said.as_str().unwrap_or("").to_string()
    }
}
