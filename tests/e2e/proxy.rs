//! browser_proxy through a loopback proxy the test runs: the agent's request goes through it,
//! browser_status shows it, and `clear` gives the browser back its direct connections. The
//! proxy is the whole shared browser's: the test's host is one no other test uses
//! (`tabpilot-proxy.test`), and loopback stays outside the proxy (Chromium's own rule), so the
//! other tests and the extension's link to the relay are never sent through it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;

use crate::harness::{shared, text};
use crate::recorder::{Recorder, Reply};

const HOST: &str = "http://tabpilot-proxy.test";

/// Takes tabpilot's proxy away again however the test ends.
struct Cleared<'a>(&'a mut crate::harness::Mcp);

impl Drop for Cleared<'_> {
    fn drop(&mut self) {
        let _ = self.0.call("browser_proxy", json!({"clear": true}));
    }
}

/// The tests that set the shared browser's proxy, one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// An agent the person lets set the browser's proxy.
fn allowed(adjust: impl FnOnce(&mut std::process::Command)) -> crate::harness::Mcp {
    shared().agent_with(|cmd| {
        cmd.env("TABPILOT_ALLOW_PROXY", "1");
        adjust(cmd);
    })
}

fn held_by_tabpilot(agent: &mut crate::harness::Mcp) -> bool {
    let (_, now) = agent.ok("browser_proxy", json!({}));
    now["control"] == "controlled_by_this_extension"
}

/// Finding 2 of the third probe: a confined agent set a proxy for the whole browser, and it
/// outlived the agent's session. The person's word comes first, the site policy judges the
/// server, loopback is never proxied, and the agent's session takes its proxy with it.
#[test]
fn the_whole_browsers_proxy_needs_the_persons_word_and_ends_with_the_session() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = shared();
    let set = json!({"mode": "fixed", "server": "127.0.0.1:9"});
    let mut agent = s.agent();
    let (code, r) = agent.fails("browser_proxy", set.clone());
    assert_eq!(code, "PERSON_REQUIRED", "{r}");
    assert!(text(&r).contains("TABPILOT_ALLOW_PROXY=1"), "{r}");
    assert!(!held_by_tabpilot(&mut agent), "nothing was changed");

    let mut confined = allowed(|cmd| {
        cmd.env("TABPILOT_ALLOW_ORIGINS", s.a(""));
    });
    let (code, text) = confined.fails("browser_proxy", set.clone());
    assert_eq!(code, "ORIGIN_BLOCKED", "{text}");
    let (code, text) = confined.fails(
        "browser_proxy",
        json!({"mode": "pac", "server": format!("{}/proxy.pac", s.a(""))}),
    );
    assert_eq!(code, "ORIGIN_BLOCKED", "{text}");
    assert!(!held_by_tabpilot(&mut agent));

    let mut setter = allowed(|_| {});
    let (code, text) = setter.fails(
        "browser_proxy",
        json!({"mode": "fixed", "server": "127.0.0.1:9", "bypass": ["<-loopback>"]}),
    );
    assert_eq!(code, "BAD_ARGS", "{text}");
    setter.ok("browser_proxy", set.clone());
    assert!(
        held_by_tabpilot(&mut agent),
        "the allowed agent's proxy holds"
    );
    // Its session ends with its connection (after the grace period a restarted agent has):
    // the browser has its earlier proxy back.
    drop(setter);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while held_by_tabpilot(&mut agent) {
        assert!(
            std::time::Instant::now() < deadline,
            "the proxy outlived the session that set it"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

#[test]
fn the_agents_request_goes_through_the_proxy_until_clear_restores_direct_connections() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = shared();
    let proxy = Recorder::start(|_| Reply::html("<title>Proxied</title><p>through the proxy</p>"));
    let mut agent = allowed(|_| {});
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (before, _) = agent.ok("browser_proxy", json!({}));
    assert!(!before.contains("set by tabpilot"), "{before}");

    let agent = Cleared(&mut agent);
    let (text, data) = agent.0.ok(
        "browser_proxy",
        json!({"mode": "fixed", "server": format!("127.0.0.1:{}", proxy.port)}),
    );
    assert!(text.contains("the person's tabs use it too"), "{text}");
    assert_eq!(data["mode"], "fixed_servers", "{data}");
    assert_eq!(data["control"], "controlled_by_this_extension");

    let (snap, _) = agent
        .0
        .ok("browser_navigate", json!({"url": format!("{HOST}/via")}));
    assert!(snap.contains("through the proxy"), "{snap}");
    let seen = proxy.seen("/via");
    assert_eq!(seen[0].target, format!("{HOST}/via"), "{seen:?}");

    let (status, data) = agent.0.ok("browser_status", json!({}));
    assert!(
        status.contains(&format!("127.0.0.1:{}", proxy.port)),
        "{status}"
    );
    assert_eq!(data["proxies"][0]["mode"], "fixed_servers", "{data}");

    let (text, data) = agent.0.ok("browser_proxy", json!({"clear": true}));
    assert_ne!(data["control"], "controlled_by_this_extension", "{text}");
    let (code, _) = agent
        .0
        .fails("browser_navigate", json!({"url": format!("{HOST}/after")}));
    assert_eq!(
        code, "NAVIGATION_FAILED",
        "the test's host resolves nowhere without the proxy"
    );
    assert!(proxy.seen("/after").is_empty());
    let (status, data) = agent.0.ok("browser_status", json!({}));
    assert!(
        data.get("proxies").is_none() && !status.contains("Proxy"),
        "{status}"
    );
}

// ---------------------------------------------------------------------------------------------
// The relay's link through a proxy (finding 1 of the third probe)

/// An HTTP proxy of another local user's, as the probe ran one: it tunnels CONNECT, keeps every
/// byte that passes either way, and into each tunnel to the relay's port writes, between two of
/// the relay's frames once the handshake is past, a frame of its own: a call that opens a tab at
/// `bait`.
struct Mitm {
    port: u16,
    /// Every byte both ways, and the targets of the CONNECTs.
    log: Arc<Mutex<Vec<u8>>>,
    connects: Arc<Mutex<Vec<String>>>,
    injected: Arc<AtomicUsize>,
}

impl Mitm {
    fn start(relay_port: u16, bait: String) -> Mitm {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mitm = Mitm {
            port,
            log: Arc::default(),
            connects: Arc::default(),
            injected: Arc::default(),
        };
        let (log, connects, injected) = (
            mitm.log.clone(),
            mitm.connects.clone(),
            mitm.injected.clone(),
        );
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (log, connects, injected) = (log.clone(), connects.clone(), injected.clone());
                let bait = bait.clone();
                std::thread::spawn(move || {
                    tunnel(client, relay_port, &bait, &log, &connects, &injected)
                });
            }
        });
        mitm
    }

    fn log_text(&self) -> String {
        String::from_utf8_lossy(&self.log.lock().unwrap()).into_owned()
    }
}

/// Reads up to the blank line that ends an HTTP head.
fn head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::new();
    let mut byte = [0u8];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    Some(head)
}

fn tunnel(
    mut client: TcpStream,
    relay_port: u16,
    bait: &str,
    log: &Mutex<Vec<u8>>,
    connects: &Mutex<Vec<String>>,
    injected: &AtomicUsize,
) {
    let Some(request) = head(&mut client) else {
        return;
    };
    let request = String::from_utf8_lossy(&request).into_owned();
    let Some(target) = request
        .strip_prefix("CONNECT ")
        .and_then(|r| r.split(' ').next())
    else {
        return;
    };
    connects.lock().unwrap().push(target.to_string());
    let Ok(mut upstream) = TcpStream::connect(target) else {
        return;
    };
    client
        .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        .unwrap();
    let to_relay = {
        let (mut from, mut to) = (client.try_clone().unwrap(), upstream.try_clone().unwrap());
        let log = Arc::new(Mutex::new(Vec::new()));
        let kept = log.clone();
        let pump = std::thread::spawn(move || {
            let mut buf = [0u8; 16384];
            while let Ok(n @ 1..) = from.read(&mut buf) {
                kept.lock().unwrap().extend_from_slice(&buf[..n]);
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = to.shutdown(std::net::Shutdown::Write);
        });
        (pump, log)
    };
    // Towards the browser, frame by frame, so that a frame of the proxy's own lands whole.
    let is_relay = target.ends_with(&format!(":{relay_port}"));
    if let Some(response) = head(&mut upstream) {
        log.lock().unwrap().extend_from_slice(&response);
        let _ = client.write_all(&response);
        let mut frames = 0;
        while let Some(frame) = ws_frame(&mut upstream) {
            log.lock().unwrap().extend_from_slice(&frame);
            if client.write_all(&frame).is_err() {
                break;
            }
            frames += 1;
            // The challenge, then the welcome: from the third frame on the link is up. Once:
            // the link it ends comes back, and the test goes on on that one.
            if is_relay && frames == 3 && injected.load(Ordering::SeqCst) == 0 {
                let call = crate::peers::call(
                    9_999,
                    tabpilot::shared::protocol::Op::TabOpen,
                    tabpilot::shared::protocol::Target::default(),
                    json!({"url": bait, "active": false}),
                );
                let text = serde_json::to_string(&call).unwrap();
                let _ = client.write_all(&unmasked_text_frame(&text));
                injected.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
    let _ = client.shutdown(std::net::Shutdown::Write);
    let (pump, kept) = to_relay;
    let _ = pump.join();
    log.lock().unwrap().extend_from_slice(&kept.lock().unwrap());
}

/// One whole WebSocket frame as a server sends it (unmasked), header included.
fn ws_frame(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut frame = vec![0u8; 2];
    stream.read_exact(&mut frame).ok()?;
    let len = match frame[1] & 0x7f {
        126 => {
            let mut ext = [0u8; 2];
            stream.read_exact(&mut ext).ok()?;
            frame.extend_from_slice(&ext);
            u16::from_be_bytes(ext) as usize
        }
        127 => {
            let mut ext = [0u8; 8];
            stream.read_exact(&mut ext).ok()?;
            frame.extend_from_slice(&ext);
            u64::from_be_bytes(ext) as usize
        }
        n => n as usize,
    };
    let at = frame.len();
    frame.resize(at + len, 0);
    stream.read_exact(&mut frame[at..]).ok()?;
    Some(frame)
}

fn unmasked_text_frame(text: &str) -> Vec<u8> {
    let mut frame = vec![0x81];
    match text.len() {
        n if n < 126 => frame.push(n as u8),
        n => {
            frame.push(126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    frame.extend_from_slice(text.as_bytes());
    frame
}

/// The person's browser proxies loopback too (its own flags, which the extension cannot
/// change), through a proxy another local user runs. The link to the relay goes through it, and
/// that user reads no frame past the handshake (the agent's page text, what it typed, the calls)
/// and gets no frame of its own run: its call to open a tab is refused, the relay's log says the
/// browser closed the link over it, and the link comes back by itself.
#[test]
fn a_proxy_on_the_relays_link_reads_no_frame_and_runs_none_of_its_own() {
    let bait = Recorder::start(|_| Reply::html("<title>bait</title>"));
    let page = Recorder::start(|_| {
        Reply::html("<title>Quarterly numbers</title><input id=q aria-label=Query>")
    });
    let env = crate::harness::Env::fresh("proxy-mitm");
    let mitm = Mitm::start(env.first_port, format!("{}/injected", bait.origin));
    let mut agent = crate::harness::Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env(
            "TABPILOT_CHROMIUM_ARGS",
            // Loopback proxied, but for the test's two pages (this proxy tunnels only).
            format!(
                "--proxy-server=http://127.0.0.1:{} \
                 --proxy-bypass-list=<-loopback>;127.0.0.1:{};127.0.0.1:{}",
                mitm.port, page.port, bait.port
            ),
        );
    });
    // The first call launches the browser; the proxy's frame may cut the link under it.
    let _ = agent.call("browser_list_tabs", json!({}));
    let until = |what: &str, done: &mut dyn FnMut() -> bool| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "{what}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    until("the proxy wrote no frame of its own", &mut || {
        mitm.injected.load(Ordering::SeqCst) > 0
    });
    until("the link did not come back", &mut || {
        agent.call("browser_list_tabs", json!({}))["isError"] != json!(true)
    });
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/q", page.origin)}),
    );
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let query = crate::snapshot::ref_of(&snap, "textbox", "Query");
    agent.ok(
        "browser_type",
        json!({"ref": query, "text": "margin-of-safety-7731"}),
    );
    let connects = mitm.connects.lock().unwrap().clone();
    assert!(
        connects.contains(&format!("127.0.0.1:{}", env.first_port)),
        "the link did not go through the proxy, so this test shows nothing: {connects:?}"
    );
    let log = mitm.log_text();
    for frame_text in [
        "Quarterly numbers",
        "margin-of-safety-7731",
        "\"t\":\"call\"",
        "\"t\":\"result\"",
        "\"t\":\"roster\"",
        "\"t\":\"welcome\"",
        // Who the browser is, and whose tabs it holds, go sealed after the hello.
        "\"t\":\"about\"",
        "browserId",
    ] {
        assert!(
            !log.contains(frame_text),
            "the proxy read {frame_text:?} on the link"
        );
    }
    assert!(
        bait.seen("/injected").is_empty(),
        "the browser ran the proxy's call"
    );
    let relay_log = std::fs::read_to_string(env.state_dir.join("relay.log")).unwrap();
    assert!(
        relay_log.contains("a frame reached it that the relay did not seal"),
        "{relay_log}"
    );
}

/// The probe's own path to the link: an agent the person lets set the proxy points the browser
/// at another user's proxy, asking for loopback too, and the relay restarts (the extension dials
/// it again). Loopback is never proxied, so the new link never reaches that proxy; the page's
/// own traffic does, which shows the proxy was in force.
#[test]
fn a_proxy_an_agent_sets_never_carries_the_relays_link() {
    let env = crate::harness::Env::fresh("proxy-agent-mitm");
    let mitm = Mitm::start(env.first_port, "http://bait.invalid/".into());
    let mut agent = crate::harness::Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_ALLOW_PROXY", "1");
    });
    agent.ok("browser_list_tabs", json!({}));
    let server = format!("127.0.0.1:{}", mitm.port);
    let (code, r) = agent.fails(
        "browser_proxy",
        json!({"mode": "fixed", "server": server, "bypass": ["<-loopback>"]}),
    );
    assert_eq!(code, "BAD_ARGS", "{r}");
    agent.ok("browser_proxy", json!({"mode": "fixed", "server": server}));
    // The relay restarts; the extension's next connection is made with the proxy in force.
    let old = env.relay_pid();
    crate::harness::kill(old);
    env.new_relay(old, std::time::Duration::from_secs(30));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while agent.call("browser_list_tabs", json!({}))["isError"] == json!(true) {
        assert!(
            std::time::Instant::now() < deadline,
            "the link did not come back"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // A page elsewhere goes through the proxy: it is in force.
    let _ = agent.call(
        "browser_navigate",
        json!({"url": "https://tabpilot-proxy.test/", "timeout": 5000}),
    );
    let connects = mitm.connects.lock().unwrap().clone();
    assert!(
        connects
            .iter()
            .any(|c| c.starts_with("tabpilot-proxy.test:")),
        "the proxy was not in force: {connects:?}"
    );
    assert!(
        !connects
            .iter()
            .any(|c| c.ends_with(&format!(":{}", env.first_port))
                || c.ends_with(&format!(":{}", env.first_port + 1))),
        "the relay's link went through the agent's proxy: {connects:?}"
    );
    agent.ok("browser_proxy", json!({"clear": true}));
}
