//! The link repairs itself: after the relay is killed, or the extension's service worker is
//! stopped, an agent's next call works with no action from anyone, in the tab it had, as it left
//! it. Each test has its own environment and browser, so the shared one is not disturbed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::{Cdp, browser_url};
use crate::harness::{Env, Fixtures, Mcp, kill, my_tab, my_tab_id, runtime};
use crate::snapshot::ref_of;

/// Bound on a recovery: the relay's restart and the browser's rejoining (the extension retries
/// at most 2 s apart) take seconds; a stopped service worker waits for its alarm (30 s).
const RECOVERY: Duration = Duration::from_secs(60);

/// An agent in its own managed headless browser, on a fixture page with a typed value in it.
struct Agent {
    env: Env,
    mcp: Mcp,
    _fixtures: Fixtures,
    tab: i64,
    url: String,
}

impl Agent {
    fn start(name: &str, chromium_args: &str) -> Agent {
        let env = Env::fresh(name);
        let fixtures = crate::fixtures::serve(env.first_port);
        let mut mcp = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
            cmd.env("TABPILOT_CHROMIUM_ARGS", chromium_args)
                // Longer than a stopped service worker takes to come back (its 30 s alarm).
                .env("TABPILOT_CONNECT_WAIT_MS", RECOVERY.as_millis().to_string());
        });
        let url = format!("{}/fields.html", fixtures.a);
        let (snap, _) = mcp.ok("browser_navigate", json!({"url": url}));
        let name = ref_of(&snap, "textbox", "Name");
        mcp.ok("browser_type", json!({"ref": name, "text": "Ada Lovelace"}));
        let tab = my_tab_id(&mut mcp);
        Agent {
            env,
            mcp,
            _fixtures: fixtures,
            tab,
            url,
        }
    }

    /// The link's word and the browsers the relay has, polling the status only.
    fn status(&mut self) -> (String, usize, String) {
        let (text, data) = self.mcp.ok("browser_status", json!({}));
        let browsers = data["browsers"].as_array().map_or(0, Vec::len);
        (
            data["link"].as_str().unwrap_or("").to_string(),
            browsers,
            text,
        )
    }

    /// Checks the agent is in the tab it had, on its page, with what it typed still there.
    fn still_in_its_tab(&mut self) {
        let (_, data) = self.mcp.ok("browser_snapshot", json!({}));
        let snap = data["snapshot"].as_str().unwrap();
        let name = ref_of(snap, "textbox", "Name");
        assert!(
            snap.contains(&format!("[ref={name}]: \"Ada Lovelace\"")),
            "the typed value is gone:\n{snap}"
        );
        let mine = my_tab(&mut self.mcp);
        assert_eq!(mine["tabId"], self.tab, "the agent is in another tab");
        assert_eq!(mine["url"], self.url.as_str());
    }
}

/// A browser tabpilot launched is tied to the thread that started it (it dies with its parent):
/// started from a blocking-pool thread, it died once that thread had idled 10 s and exited.
#[test]
fn a_launched_browser_outlives_the_thread_that_started_it() {
    let mut agent = Agent::start("outlives", "");
    // Past the blocking pool's keep-alive (10 s) with nothing else to run.
    std::thread::sleep(Duration::from_secs(13));
    agent.still_in_its_tab();
    let (link, browsers, text) = agent.status();
    assert_eq!((link.as_str(), browsers), ("CONNECTED", 1), "{text}");
}

#[test]
fn after_the_relay_is_killed_the_link_comes_back_by_itself_and_the_agent_keeps_its_tab() {
    let mut agent = Agent::start("recovery-relay", "");
    let (link, browsers, text) = agent.status();
    assert_eq!((link.as_str(), browsers), ("CONNECTED", 1), "{text}");

    // While its lock's path is a directory, no relay can start: that holds the link in RETRYING
    // for as long as the test needs to see it, however fast or slow the machine is.
    let lock = agent.env.relay_lock();
    let pid = agent.env.relay_pid();
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    kill(pid);
    let deadline = Instant::now() + RECOVERY;
    loop {
        let (link, _, text) = agent.status();
        if link == "RETRYING" && text.contains("the relay could not start") {
            assert!(text.contains("; next attempt in "), "{text}");
            assert!(text.contains(" failed in a row)"), "{text}");
            break;
        }
        assert!(Instant::now() < deadline, "never RETRYING: {link} {text}");
        std::thread::sleep(Duration::from_millis(50));
    }

    // The way clear, a relay starts with no call made at all: only the agent's link, on its
    // own, could have started it. Then the status (which asks nothing of a link that is not up)
    // sees the browser back.
    std::fs::remove_dir(&lock).unwrap();
    let relay = agent.env.new_relay(pid, RECOVERY);
    let mut seen = vec!["RETRYING".to_string()];
    loop {
        let (link, browsers, text) = agent.status();
        if seen.last() != Some(&link) {
            seen.push(link.clone());
        }
        if link == "CONNECTED" && browsers == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "not back: {seen:?} {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
    agent.still_in_its_tab();

    // Killed again, with nothing in the way: the link restarts it as soon as it sees it go.
    let killed = Instant::now();
    kill(relay);
    agent.env.new_relay(relay, RECOVERY);
    let restarted = killed.elapsed();
    let deadline = Instant::now() + RECOVERY;
    loop {
        let (link, browsers, text) = agent.status();
        if link == "CONNECTED" && browsers == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "not back: {link} {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "recovery: relay killed; a new one up in {} ms, the browser back in it by {} ms",
        restarted.as_millis(),
        killed.elapsed().as_millis()
    );
    agent.still_in_its_tab();
    // The link's process started both relays it saw killed, and reaped them: no zombies.
    for killed in [pid, relay] {
        let proc = PathBuf::from(format!("/proc/{killed}"));
        while proc.exists() {
            assert!(Instant::now() < deadline, "relay {killed} left a zombie");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn a_stopped_service_worker_comes_back_and_the_agent_keeps_its_tab_and_its_network_log() {
    // The one browser here with a DevTools port, through the person's own flags.
    let mut agent = Agent::start("recovery-worker", "--remote-debugging-port=0");
    let data_dir = agent.env.state_dir.join("profiles/managed/data");
    let rt = runtime();
    let origin = format!("chrome-extension://{}/", tabpilot::shared::extension::id());
    let page = agent.url.clone();
    rt.block_on(async {
        let mut cdp = Cdp::connect(&browser_url(&data_dir, Duration::from_secs(15))).await;
        let worker = service_worker(&mut cdp, &origin).await;
        mark(&mut cdp, &worker, "globalThis.tabpilotTestMark = 'before'").await;
        // The network log is in the session store (written a moment after it changes) before
        // the worker is stopped.
        let saved = format!(
            "chrome.storage.session.get('netlog').then((g) => JSON.stringify(g).includes({page:?}))"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        while mark(&mut cdp, &worker, &saved).await != "true" {
            assert!(Instant::now() < deadline, "the network log was never saved");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        cdp.send("Target.closeTarget", json!({"targetId": worker}))
            .await
            .expect("the worker's target closes");
    });

    // The next call works, waiting (TABPILOT_CONNECT_WAIT_MS) for the worker to come back: its
    // alarm wakes it, and it reconnects.
    let stopped = Instant::now();
    agent.mcp.ok("browser_snapshot", json!({}));
    eprintln!(
        "recovery: the stopped service worker back and the call through in {} ms",
        stopped.elapsed().as_millis()
    );
    agent.still_in_its_tab();
    // The new worker lists the requests the old one logged: the page's own, from before.
    let (list, data) = agent.mcp.ok("browser_network_requests", json!({}));
    let urls: Vec<&str> = data["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["url"].as_str())
        .collect();
    assert!(urls.contains(&page.as_str()), "{list}");

    // It is a new worker: the old one's globals went with it.
    rt.block_on(async {
        let mut cdp = Cdp::connect(&browser_url(&data_dir, Duration::from_secs(15))).await;
        let worker = service_worker(&mut cdp, &origin).await;
        let mark = mark(&mut cdp, &worker, "typeof globalThis.tabpilotTestMark").await;
        assert_eq!(mark, "undefined", "the service worker was never stopped");
    });
}

/// The target id of the extension's service worker.
async fn service_worker(cdp: &mut Cdp, origin: &str) -> String {
    let targets = cdp.targets().await.unwrap();
    let workers: Vec<&Value> = targets
        .iter()
        .filter(|t| t["type"] == "service_worker")
        .filter(|t| t["url"].as_str().is_some_and(|u| u.starts_with(origin)))
        .collect();
    assert_eq!(workers.len(), 1, "{targets:?}");
    workers[0]["targetId"].as_str().unwrap().to_string()
}

/// Evaluates `expression` in the worker, detached again after (Chrome keeps a worker a session
/// is attached to); returns its value as text.
async fn mark(cdp: &mut Cdp, worker: &str, expression: &str) -> String {
    let session = cdp.attach(worker).await.unwrap();
    let value = cdp.eval(&session, expression).await.unwrap();
    cdp.send("Target.detachFromTarget", json!({"sessionId": session}))
        .await
        .unwrap();
    match value {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

/// Stands in for a relay of another tabpilot on the environment's first port, as a controller
/// sees one: it proves it holds the secret, says it is tabpilot 0.0.1, and records its port and
/// pid in the lock as a relay does.
fn old_relay(env: &Env) -> u16 {
    use std::os::unix::fs::PermissionsExt;
    let secret = hex_secret();
    std::fs::create_dir_all(&env.state_dir).unwrap();
    std::fs::set_permissions(&env.state_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = env.state_dir.join("secret");
    std::fs::write(&path, &secret).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let port = env.first_port;
    let lock = env
        .state_dir
        .join(format!("relay-{port}-{}.lock", port + 1));
    std::fs::write(lock, format!("{port} {}", std::process::id())).unwrap();
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        runtime().block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let (tcp, _) = listener.accept().await.unwrap();
                let secret = secret.clone();
                tokio::spawn(async move {
                    let Ok(mut ws) = tokio_tungstenite::accept_async(tcp).await else {
                        return;
                    };
                    let _ = old_welcome(&mut ws, port, &secret).await;
                });
            }
        })
    });
    port
}

fn hex_secret() -> Vec<u8> {
    (0..32)
        .map(|i| format!("{:02x}", i * 7 + 3))
        .collect::<String>()
        .into_bytes()
}

async fn old_welcome(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    port: u16,
    secret: &[u8],
) -> Option<()> {
    use futures::{SinkExt, StreamExt};
    use tabpilot::shared::protocol::{Frame, auth};
    use tokio_tungstenite::tungstenite::Message;
    let text = |f: &Frame| Message::Text(serde_json::to_string(f).unwrap().into());
    let nonce = auth::nonce();
    let version = "0.0.1".to_string();
    let challenge = Frame::Challenge {
        nonce: nonce.clone(),
        version: version.clone(),
        key: None,
    };
    ws.send(text(&challenge)).await.ok()?;
    let Message::Text(hello) = ws.next().await?.ok()? else {
        return None;
    };
    let Frame::Hello { proof, cnonce, .. } = serde_json::from_str(&hello).ok()? else {
        return None;
    };
    auth::verify(secret, "controller", port, &nonce, &proof).then_some(())?;
    let welcome = Frame::Welcome {
        proof: auth::proof(secret, "relay", port, &cnonce),
        peer_id: 1,
        version,
        port,
    };
    ws.send(text(&welcome)).await.ok()?;
    while let Some(Ok(_)) = ws.next().await {}
    Some(())
}

#[test]
fn a_relay_of_another_version_is_named_with_what_to_do_by_status_and_doctor() {
    let env = Env::fresh("recovery-version");
    let port = old_relay(&env);
    let pid = std::process::id();
    let said = format!(
        "the relay on port {port} (pid {pid}) runs tabpilot 0.0.1, and this is tabpilot {}",
        env!("CARGO_PKG_VERSION")
    );

    let (_, out, err) = env.cli(&["status"]);
    assert!(out.contains(&format!("RETRYING: {said}")), "{out}{err}");
    assert!(out.contains(&format!("`kill {pid}`")), "{out}");

    let (_, out, _) = env.cli(&["doctor"]);
    let relay = out
        .lines()
        .find(|l| l.contains(" relay: "))
        .unwrap_or_else(|| panic!("no relay line:\n{out}"));
    assert!(relay.starts_with(&format!("FAIL  relay: {said}")), "{out}");
    assert!(
        relay.contains(&format!("; fix: stop the old relay (`kill {pid}`)")),
        "{out}"
    );
    // An agent that launches its browser on demand launches none beside it (the browser would
    // join the relay its link refuses): its call says why at once.
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);
    let (code, r) = agent.fails("browser_snapshot", json!({}));
    assert_eq!(code, "NO_BROWSER");
    assert!(crate::harness::text(&r).contains(&said), "{r}");
    assert!(
        !env.state_dir.join("profiles").exists(),
        "a browser was launched"
    );
    // Beside it, no relay of this version was started (it could not have taken the range).
    assert!(!env.state_dir.join("relay.log").exists());
}
