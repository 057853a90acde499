//! The site policy and read-only mode end to end: the origin lists held in the browser's network
//! (a denied origin's server hears nothing at all) and at the moment of an action, agents with
//! different lists on one browser, read-only mode with and without a browser, and a malformed
//! pattern stopping the server.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::cdp::Cdp;
use crate::harness::{Env, Mcp, all_tabs, in_project, run, runtime, shared, text};
use crate::person::paired_browser;
use crate::snapshot::ref_of;

/// A loopback server of the test's own that keeps every request it gets, by the host name the
/// browser asked for: `127.0.0.1` serves the pages under test, and `localhost` and `b.localhost`
/// (names Chromium resolves to loopback by itself) are the other origins, so a test can tell that
/// a denied origin received no request at all.
struct Watched {
    port: u16,
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// (host name, path and query, whether it is the browser's fetch of a service worker's
    /// script: `Service-Worker: script`) of every request, in order.
    seen: Mutex<Vec<(String, String, bool)>>,
    /// Holds `/hold` until the test lets it answer.
    hold: Notify,
}

impl Watched {
    fn start() -> Watched {
        let inner = Arc::new(Inner::default());
        let (tx, rx) = std::sync::mpsc::channel();
        let state = inner.clone();
        std::thread::spawn(move || {
            runtime().block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap().port()).unwrap();
                let app = axum::Router::new().fallback(serve).with_state(state);
                axum::serve(listener, app).await.unwrap();
            });
        });
        Watched {
            port: rx.recv().unwrap(),
            inner,
        }
    }

    fn url(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.port)
    }

    /// How many requests asked for `host`.
    fn heard(&self, host: &str) -> usize {
        let seen = self.inner.seen.lock().unwrap();
        seen.iter().filter(|(h, ..)| h == host).count()
    }

    /// How many requests asked for `host`, besides the browser's own fetches of the script of the
    /// service worker registered there (`/sw.js`, which it checks for updates by itself).
    fn heard_besides_worker_updates(&self, host: &str) -> usize {
        let seen = self.inner.seen.lock().unwrap();
        seen.iter()
            .filter(|(h, p, script)| h == host && !(*script && p == "/sw.js"))
            .count()
    }

    /// How many requests of run `run` asked for `host`.
    fn heard_in(&self, host: &str, run: u32) -> usize {
        let tag = format!("run={run}");
        let seen = self.inner.seen.lock().unwrap();
        seen.iter()
            .filter(|(h, p, _)| h == host && p.split(['?', '&']).any(|part| part == tag))
            .count()
    }

    fn release_hold(&self) {
        self.inner.hold.notify_one();
    }
}

/// The pages. `/embed?to=HOSTS&run=N` embeds a frame, an image and a fetch from each host (on
/// this server's port) and says when all are done, loaded or not; `/redirect?to=HOST` answers 302 to
/// that host; `/link?to=HOST` links there; `/button` is a page with a button that marks it;
/// `/mover?to=HOST` has the same button and moves itself to HOST's `/button` once `/hold`
/// answers; `/worker?to=HOST` reaches HOST from a dedicated worker and from the service worker
/// it registers (`/sw.js`, which reaches what it is told and passes on every request of the
/// pages it controls). Anything
/// else is a small page.
async fn serve(State(w): State<Arc<Inner>>, headers: HeaderMap, uri: Uri) -> Response {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .rsplit_once(':')
        .map_or(String::new(), |(name, _)| name.to_string());
    let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    let script = headers
        .get("service-worker")
        .is_some_and(|v| v.as_bytes() == b"script");
    w.seen.lock().unwrap().push((host, path, script));
    let q: HashMap<String, String> = uri
        .query()
        .map(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default();
    let to = q.get("to").cloned().unwrap_or_default();
    let run = q.get("run").cloned().unwrap_or_default();
    let page = |body: String| ([(header::CONTENT_TYPE, "text/html")], body).into_response();
    const BUTTON: &str = r#"<button id="press" onclick="document.getElementById('out').textContent = 'clicked'">Press</button>
        <p id="out">untouched</p>"#;
    match uri.path() {
        "/embed" => page(format!(
            r#"<!doctype html><title>Embed</title><h1>Embed</h1><p id="done">fetches pending</p>
            <script>
              const fetches = [];
              for (const host of {to:?}.split(',')) {{
                const base = `http://${{host}}:${{location.port}}`;
                const frame = document.createElement('iframe');
                frame.src = `${{base}}/frame?run={run}`;
                const img = document.createElement('img');
                img.src = `${{base}}/img?run={run}`;
                document.body.append(frame, img);
                const data = fetch(`${{base}}/data?run={run}`, {{ mode: 'no-cors' }});
                fetches.push(data.then(() => `${{host}} reached`, () => `${{host}} failed`));
              }}
              const loaded = new Promise((r) => addEventListener('load', r));
              Promise.all([...fetches, loaded]).then((said) => {{
                said.pop();
                document.getElementById('done').textContent = `fetches done: ${{said.join(', ')}}`;
                document.title = 'settled {run}';
              }});
            </script>"#
        )),
        "/redirect" => (
            StatusCode::FOUND,
            [(
                header::LOCATION,
                format!("http://{to}:{}/landed?run={run}", port_of(&headers)),
            )],
        )
            .into_response(),
        "/link" => page(format!(
            r#"<!doctype html><title>Link</title>
            <a href="http://{to}:{port}/landed?run={run}">Leave</a>
            <a target="_blank" href="http://{to}:{port}/landed?run={run}&new=1">Elsewhere</a>"#,
            port = port_of(&headers)
        )),
        "/button" => page(format!(
            "<!doctype html><title>Button</title><h1>Button page</h1>{BUTTON}"
        )),
        "/mover" => page(format!(
            r#"<!doctype html><title>Mover</title><h1>Mover</h1>{BUTTON}
            <script>
              fetch('/hold').then(() => {{ location.href = `http://{to}:${{location.port}}/button`; }});
            </script>"#
        )),
        "/worker" => page(format!(
            r#"<!doctype html><title>Workers</title><p id="done">workers pending</p>
            <script>
              const reach = (from) =>
                `fetch('http://{to}:${{location.port}}/${{from}}?run={run}', {{ mode: 'no-cors' }})
                   .then(() => 'reached', () => 'failed')`;
              const worker = new Worker(URL.createObjectURL(
                new Blob([`${{reach('from-worker')}}.then(postMessage)`], {{ type: 'text/javascript' }})));
              const dedicated = new Promise((r) => {{ worker.onmessage = (e) => r(e.data); }});
              const service = navigator.serviceWorker.register('/sw.js')
                .then(() => navigator.serviceWorker.ready)
                .then((reg) => new Promise((r) => {{
                  const channel = new MessageChannel();
                  channel.port1.onmessage = (e) => r(e.data);
                  reg.active.postMessage(`http://{to}:${{location.port}}/from-service-worker?run={run}`, [channel.port2]);
                }}));
              Promise.all([dedicated, service]).then(([d, s]) => {{
                document.getElementById('done').textContent = `workers done: dedicated ${{d}}, service ${{s}}`;
                document.title = 'settled {run}';
              }});
            </script>"#
        )),
        // A service worker that passes every request on, and reaches `to` when asked.
        "/sw.js" => (
            [(header::CONTENT_TYPE, "text/javascript")],
            r#"self.addEventListener('install', () => self.skipWaiting());
            self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
            self.addEventListener('fetch', (e) => e.respondWith(fetch(e.request)));
            self.addEventListener('message', (e) => {
              fetch(e.data, { mode: 'no-cors' }).then(() => 'reached', () => 'failed')
                .then((said) => e.ports[0].postMessage(said));
            });"#,
        )
            .into_response(),
        "/hold" => {
            w.hold.notified().await;
            "go".into_response()
        }
        _ => page("<!doctype html><title>Here</title><p>here</p>".into()),
    }
}

fn port_of(headers: &HeaderMap) -> String {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    host.and_then(|h| h.rsplit_once(':'))
        .map_or(String::new(), |(_, port)| port.to_string())
}

/// An agent on the shared browser with these settings.
fn agent_with(vars: &[(&str, &str)]) -> Mcp {
    shared().agent_with(|cmd| {
        for (k, v) in vars {
            cmd.env(k, v);
        }
    })
}

/// Loads `/embed` for `hosts` in the agent's tab, and waits until its fetches are done.
fn embed(agent: &mut Mcp, w: &Watched, hosts: &str, run: u32) -> String {
    let url = w.url("127.0.0.1", &format!("/embed?to={hosts}&run={run}"));
    agent.ok("browser_navigate", json!({ "url": url }));
    let (said, _) = agent.ok("browser_wait_for", json!({"text": "fetches done"}));
    said
}

/// Clicks the link `name` that opens a new tab (one the page opened: not the agent's), and waits
/// until that tab, at `origin`, shows what it got; returns its title (the host's name for a load
/// that was blocked).
fn open_elsewhere(agent: &mut Mcp, snap: &str, name: &str, origin: &str) -> String {
    let before = all_tabs(agent);
    agent.ok("browser_click", json!({"ref": ref_of(snap, "link", name)}));
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let tabs = all_tabs(agent);
        let new = tabs.iter().find(|t| {
            t["url"] == json!(origin)
                && !before.contains(t)
                && t["title"]
                    .as_str()
                    .is_some_and(|title| !title.is_empty() && !title.contains('/'))
        });
        if let Some(tab) = new {
            return tab["title"].as_str().unwrap().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "no new tab at {origin}: {tabs:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn snapshot(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    data["snapshot"].as_str().unwrap().to_string()
}

fn refused(agent: &mut Mcp, tool: &str, args: Value, code: &str) -> String {
    let (got, r) = agent.fails(tool, args);
    assert_eq!(got, code, "{tool}: {}", text(&r));
    assert_eq!(r["structuredContent"]["outcome"], "refused", "{tool}");
    text(&r)
}

#[test]
fn a_denied_origin_hears_nothing_from_an_agents_tab() {
    let w = Watched::start();
    // Without a policy the page does reach localhost: its frame, image and fetch.
    let mut free = shared().agent();
    embed(&mut free, &w, "localhost", 0);
    assert_eq!(w.heard_in("localhost", 0), 3, "the page's own requests");

    let before = w.heard("localhost");
    let mut agent = agent_with(&[("TABPILOT_DENY_ORIGINS", "http://localhost:*")]);
    // The agent's first call loads the page: its tab is covered before the first request.
    embed(&mut agent, &w, "localhost", 1);
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("fetches done: localhost failed"), "{snap}");
    // A redirect from an allowed page to the denied origin stops at the hop: in a tab opened on
    // it (the hop comes a moment after the first request), and in the agent's tab.
    let url = w.url("127.0.0.1", "/redirect?to=localhost&run=2");
    agent.ok("browser_new_tab", json!({ "url": url }));
    assert_eq!(
        w.heard_in("127.0.0.1", 2),
        1,
        "the redirect itself was asked"
    );
    let url = w.url("127.0.0.1", "/redirect?to=localhost&run=3");
    let (code, r) = agent.fails("browser_navigate", json!({ "url": url }));
    assert_eq!(code, "NAVIGATION_FAILED", "{}", text(&r));
    assert!(text(&r).contains("/landed?run=3"), "{}", text(&r));
    assert_eq!(
        w.heard_in("127.0.0.1", 3),
        1,
        "the redirect itself was asked"
    );
    // A link that opens a new tab: the page's tab, not the agent's, held as soon as it exists.
    let url = w.url("127.0.0.1", "/link?to=localhost&run=4");
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let title = open_elsewhere(&mut agent, &snap, "Elsewhere", &w.url("localhost", ""));
    assert_eq!(title, "localhost", "the new tab loaded the denied page");
    // Going there is refused before anything is sent.
    let said = refused(
        &mut agent,
        "browser_navigate",
        json!({"url": w.url("localhost", "/landed?run=5")}),
        "ORIGIN_BLOCKED",
    );
    assert!(
        said.contains("http://localhost:* in TABPILOT_DENY_ORIGINS"),
        "{said}"
    );
    assert_eq!(
        w.heard("localhost"),
        before,
        "localhost heard from the agent's tabs: {:?}",
        w.inner.seen.lock().unwrap()
    );
    // The person's tabs (here: an agent with no policy) still reach it.
    embed(&mut free, &w, "localhost", 6);
    assert_eq!(w.heard_in("localhost", 6), 3);
}

#[test]
fn a_pages_workers_reach_no_denied_origin_either() {
    let w = Watched::start();
    // The person's visit to localhost leaves a service worker there that passes requests on.
    let mut person = shared().agent();
    let url = w.url("localhost", "/worker?to=localhost&run=0");
    person.ok("browser_navigate", json!({ "url": url }));
    person.ok("browser_wait_for", json!({"text": "workers done"}));
    let reached = "dedicated reached, service reached";
    assert!(snapshot(&mut person).contains(reached));

    // The browser checks the person's worker there for updates by itself (its script, fetched
    // with no tab, a second or so after a navigation into its scope: even the agent's, which the
    // rules block). That request is the browser's, for the person's registration, and carries
    // nothing of the agent's page; blocking it would stop the person's own site updating its
    // worker (docs/security.md). Everything else is counted.
    let before = w.heard_besides_worker_updates("localhost");
    let mut agent = agent_with(&[("TABPILOT_DENY_ORIGINS", "http://localhost:*")]);
    // A page in the agent's tab reaches out from its own workers, then from pages its service
    // worker controls (which pass every request on, with no tab).
    let url = w.url("127.0.0.1", "/worker?to=localhost&run=1");
    agent.ok("browser_navigate", json!({ "url": url }));
    agent.ok("browser_wait_for", json!({"text": "workers done"}));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("dedicated failed, service failed"), "{snap}");
    embed(&mut agent, &w, "localhost", 2);
    assert!(snapshot(&mut agent).contains("fetches done: localhost failed"));
    // A link to localhost, whose own service worker would pass the page load on.
    let url = w.url("127.0.0.1", "/link?to=localhost&run=3");
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "link", "Leave")}),
    );
    assert_eq!(
        w.heard_besides_worker_updates("localhost"),
        before,
        "{:?}",
        w.inner.seen.lock().unwrap()
    );
    // The denied site's own workers still serve the person.
    let url = w.url("localhost", "/worker?to=localhost&run=4");
    person.ok("browser_navigate", json!({ "url": url }));
    person.ok("browser_wait_for", json!({"text": "workers done"}));
    assert!(snapshot(&mut person).contains(reached));
}

#[test]
fn with_an_allow_list_a_link_out_of_it_never_reaches_the_other_server() {
    let w = Watched::start();
    let mut agent = agent_with(&[("TABPILOT_ALLOW_ORIGINS", "http://127.0.0.1:*")]);
    // Sub-resources from elsewhere (a CDN's, say) still load.
    embed(&mut agent, &w, "localhost", 1);
    assert_eq!(w.heard_in("localhost", 1), 3, "the page's sub-resources");
    let url = w.url("127.0.0.1", "/link?to=localhost&run=2");
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let leave = ref_of(&snap, "link", "Leave");
    let before = w.heard("localhost");
    // The click is judged on the page it is on (allowed); the page it leads to never loads.
    let (said, data) = agent.ok("browser_click", json!({ "ref": leave }));
    assert_eq!(data["navigated"], false, "{said}");
    assert!(said.contains("ERR_BLOCKED_BY_CLIENT"), "{said}");
    assert_eq!(
        w.heard("localhost"),
        before,
        "{:?}",
        w.inner.seen.lock().unwrap()
    );
    // The tab comes to show the browser's error page for the blocked load (Chrome commits it a
    // moment after it reports the error): reading it then says so.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let r = loop {
        let r = agent.call("browser_snapshot", json!({}));
        if r["isError"] == true || std::time::Instant::now() > deadline {
            break r;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(
        r["structuredContent"]["error"]["code"], "NAVIGATION_FAILED",
        "{r}"
    );
    assert!(text(&r).contains("error page"), "{r}");
    // Going there is refused before anything is sent, naming the list.
    let said = refused(
        &mut agent,
        "browser_navigate",
        json!({"url": w.url("localhost", "/landed")}),
        "ORIGIN_BLOCKED",
    );
    assert!(
        said.contains("matches nothing in TABPILOT_ALLOW_ORIGINS"),
        "{said}"
    );

    // An origin both allowed and denied is denied, in the network too.
    let mut both = agent_with(&[
        (
            "TABPILOT_ALLOW_ORIGINS",
            "http://127.0.0.1:*,http://localhost:*",
        ),
        ("TABPILOT_DENY_ORIGINS", "http://localhost:*"),
    ]);
    let (snap, _) = both.ok("browser_navigate", json!({ "url": url }));
    let (said, _) = both.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "link", "Leave")}),
    );
    assert!(said.contains("ERR_BLOCKED_BY_CLIENT"), "{said}");
    assert_eq!(w.heard("localhost"), before);
}

#[test]
fn a_sensitive_page_is_read_not_acted_on_even_one_the_page_moved_to() {
    let w = Watched::start();
    let mut agent = agent_with(&[("TABPILOT_SENSITIVE_ORIGINS", "http://localhost:*")]);
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": w.url("localhost", "/button")}),
    );
    let press = ref_of(&snap, "button", "Press");
    assert!(snapshot(&mut agent).contains("untouched"));
    let said = refused(
        &mut agent,
        "browser_click",
        json!({ "ref": press }),
        "ORIGIN_BLOCKED",
    );
    assert!(
        said.contains("http://localhost:* in TABPILOT_SENSITIVE_ORIGINS"),
        "{said}"
    );
    assert!(
        snapshot(&mut agent).contains("untouched"),
        "the page changed"
    );

    // A page on an origin that is not sensitive, with the same button, moves itself to the
    // sensitive one after the agent's last call saw it where it was.
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": w.url("127.0.0.1", "/mover?to=localhost")}),
    );
    assert_eq!(ref_of(&snap, "button", "Press"), press, "the same button");
    w.release_hold();
    agent.ok(
        "browser_wait_for",
        json!({"url": w.url("localhost", "/button")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Button page"}));
    refused(
        &mut agent,
        "browser_click",
        json!({ "ref": press }),
        "ORIGIN_BLOCKED",
    );
    assert!(
        snapshot(&mut agent).contains("untouched"),
        "the page changed"
    );
}

/// The person's tab, through DevTools: waits until the page in it has done its fetches (its
/// title then says `settled RUN`).
fn person_waits(rt: &tokio::runtime::Runtime, cdp: &mut Cdp, tab: &str, run: u32) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let want = format!("settled {run}");
    while rt.block_on(cdp.title(tab)).as_deref() != Some(want.as_str()) {
        assert!(Instant::now() < deadline, "the person's page never settled");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn agents_with_different_deny_lists_keep_each_others_blocks_and_take_away_only_their_own() {
    let w = Watched::start();
    let env = Env::fresh("policy-two");
    let agent = |deny: &str| {
        let mut cmd = env.command(&["mcp"]);
        cmd.env("TABPILOT_DENY_ORIGINS", deny);
        Mcp::started(cmd)
    };
    let mut a = agent("http://localhost:*");
    let mut b = agent("http://b.localhost:*");
    let rt = runtime();
    let (_browser, mut cdp) = paired_browser(&rt, &env, "policy-two-profile", &mut a);
    let both = "localhost,b.localhost";

    // The person's own tab, shared with agents: it reaches both.
    let page = w.url("127.0.0.1", &format!("/embed?to={both}&run=0"));
    let (_, persons) = rt.block_on(cdp.open(&page, false)).unwrap();
    person_waits(&rt, &mut cdp, &persons, 0);
    assert_eq!(
        (w.heard_in("localhost", 0), w.heard_in("b.localhost", 0)),
        (3, 3)
    );
    let (_, data) = b.ok("browser_list_tabs", json!({}));
    let tab = data["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["url"] == json!(w.url("127.0.0.1", "")))
        .expect("the person's tab is listed (by its origin)")["tabId"]
        .clone();
    assert!(
        rt.block_on(cdp.share_in_popup(tab.as_i64().unwrap()))
            .starts_with("Shared")
    );

    // A opens a tab of its own, then works in the person's; B works in a tab of its own.
    let (_, opened) = a.ok("browser_new_tab", json!({}));
    let a_tab = opened["tabId"].clone();
    a.ok("browser_select_tab", json!({ "tabId": tab }));
    embed(&mut a, &w, both, 1);
    embed(&mut b, &w, both, 2);
    let heard = |run| (w.heard_in("localhost", run), w.heard_in("b.localhost", run));
    assert_eq!(heard(1), (0, 3), "A's list alone holds in the tab A drives");
    assert_eq!(heard(2), (3, 0), "B's list alone holds in B's tab");
    // The page in the tab A drives loads again, with no call of A's since B's.
    let page = w.url("127.0.0.1", &format!("/embed?to={both}&run=3"));
    rt.block_on(cdp.go(&persons, &page));
    person_waits(&rt, &mut cdp, &persons, 3);
    assert_eq!(heard(3), (0, 3), "B's rules took A's away");

    // A exits. Once its session has ended (its own tab closed), the person's tab is open and
    // theirs again, without A's block; B's still holds in B's tab.
    drop(a);
    let deadline = Instant::now() + Duration::from_secs(20);
    let tabs = |b: &mut Mcp| {
        let (_, data) = b.ok("browser_list_tabs", json!({}));
        let ids: Vec<Value> = data["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["tabId"].clone())
            .collect();
        ids
    };
    while tabs(&mut b).contains(&a_tab) {
        assert!(Instant::now() < deadline, "A's tab outlived A");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        tabs(&mut b).contains(&tab),
        "the person's shared tab was closed"
    );
    let page = w.url("127.0.0.1", &format!("/embed?to={both}&run=4"));
    rt.block_on(cdp.go(&persons, &page));
    person_waits(&rt, &mut cdp, &persons, 4);
    assert_eq!(heard(4), (3, 3), "A's block outlived A");
    embed(&mut b, &w, both, 5);
    assert_eq!(heard(5), (3, 0), "B's block went with A");
}

/// Arguments that would change the basic page if the tool ran (and `{}` for the rest: read-only
/// mode refuses before it reads them).
fn acting_args(tool: &str, press: &str, search: &str) -> Value {
    match tool {
        "browser_click" | "browser_hover" => json!({ "ref": press }),
        "browser_type" => json!({ "ref": search, "text": "typed" }),
        "browser_fill_form" => json!({"fields": [{ "ref": search, "value": "filled" }]}),
        "browser_press_key" => json!({"key": "a"}),
        // Its list and describe read; a call acts, and read-only mode refuses it in the tool.
        "browser_page_tools" => {
            json!({"action": "call", "toolRef": "wt0123456789ab", "arguments": {}})
        }
        // It reads the log; a reload to capture a body acts.
        "browser_get_network_request" => json!({"url": "basic", "reload": true}),
        "browser_clear" => json!({ "ref": search }),
        "browser_handle_dialog" => json!({"action": "accept"}),
        // Without arguments, each shows what is in force; setting one changes the browser.
        "browser_emulate" => json!({"headers": {"x-read-only": "1"}}),
        "browser_proxy" => json!({"mode": "direct"}),
        // Its get reads; set, remove and clear act.
        "browser_storage" => json!({"action": "set", "key": "k", "value": "v"}),
        "run_local_command" => json!({"name": "hello"}),
        _ => json!({}),
    }
}

/// Arguments for the read-only tools that need some.
fn reading_args(tool: &str) -> Value {
    match tool {
        "browser_wait_for" => json!({"text": "Basic page"}),
        "browser_wait" => json!({"time": 1}),
        "browser_export" => json!({"format": "tabpilot"}),
        "browser_find" => json!({"role": "button"}),
        "browser_scroll" => json!({"direction": "down"}),
        "browser_issues" => json!({"audit": "a11y"}),
        "browser_select_browser" => json!({"browser": "managed"}),
        "load_local_skill" => json!({"skill": "release-notes"}),
        "resolve_task_capabilities" => json!({"task": "write the release notes"}),
        _ => json!({}),
    }
}

/// Each tool tools/list gives, with whether it is annotated read-only and whether it only moves
/// the tab between pages (which read-only mode lets run; not an MCP annotation).
fn catalog(agent: &mut Mcp) -> Vec<(String, bool, bool)> {
    let list = agent.request("tools/list", json!({}));
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap().to_string();
            let navigates = tabpilot::controller::tools::registry::get(&name)
                .expect("the library has the tool")
                .spec
                .hints
                .navigates;
            (name, t["annotations"]["readOnlyHint"] == true, navigates)
        })
        .collect()
}

#[test]
fn read_only_refuses_every_page_changing_tool_and_serves_the_rest() {
    let s = shared();
    let (repo, home) = crate::schemas::project("policy-read-only");
    let mut agent = s.agent_with(|cmd| {
        in_project(cmd, &repo, &home);
        cmd.env("TABPILOT_READ_ONLY", "1");
    });
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (press, search) = (
        ref_of(&snap, "button", "Press me"),
        ref_of(&snap, "textbox", "Search"),
    );
    let before = snapshot(&mut agent);
    let tools = catalog(&mut agent);
    let changing: Vec<&String> = tools
        .iter()
        .filter(|(_, read_only, navigates)| !read_only && !navigates)
        .map(|(name, ..)| name)
        .collect();
    assert!(changing.len() >= 10, "{changing:?}");
    for tool in changing {
        let said = refused(
            &mut agent,
            tool,
            acting_args(tool, &press, &search),
            "READ_ONLY",
        );
        assert!(said.contains("TABPILOT_READ_ONLY"), "{said}");
    }
    assert_eq!(snapshot(&mut agent), before, "the page changed");
    for (tool, ..) in tools.iter().filter(|(_, read_only, _)| *read_only) {
        agent.ok(tool, reading_args(tool));
    }
}

#[test]
fn read_only_holds_with_no_browser_to_reach() {
    let env = Env::fresh("policy-read-only-alone");
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_READ_ONLY", "1");
    let mut agent = Mcp::started(cmd);
    let (code, _) = agent.fails("browser_snapshot", json!({}));
    assert_eq!(code, "NO_BROWSER", "no browser is there");
    let tools = catalog(&mut agent);
    for (tool, ..) in tools.iter().filter(|(_, ro, nav)| !ro && !nav) {
        // Decided before the arguments are read, but for a tool whose actions differ.
        let mixed = tabpilot::controller::tools::registry::get(tool)
            .unwrap()
            .spec
            .hints
            .mixed;
        let args = if mixed {
            acting_args(tool, "e1", "e2")
        } else {
            json!({})
        };
        refused(&mut agent, tool, args, "READ_ONLY");
    }
}

#[test]
fn a_malformed_pattern_stops_the_server_at_start() {
    let env = Env::fresh("policy-malformed");
    let mut cmd = env.command(&["mcp"]);
    cmd.env("TABPILOT_DENY_ORIGINS", "http://127.0.0.1:*, localhost");
    let (ok, _, err) = run(cmd);
    assert!(!ok, "it started: {err}");
    assert!(
        err.contains("TABPILOT_DENY_ORIGINS") && err.contains("\"localhost\""),
        "{err}"
    );
}
