//! A browser on another computer (issue 39): the relay listens past loopback in one network
//! namespace, the person's browser runs in a second, a stranger in a third, joined by veth pairs
//! (tests/e2e/netns.rs). The browser pairs by the code `tabpilot pair --remote` printed, typed
//! into its popup, and the agent drives it with a client's defaults; the relay restarts mid-run
//! and the agent is still in its tab; the bytes between the namespaces, captured, hold no page
//! text, typed text, code or secret. A stranger without a pairing, one with a used code, and a
//! relay with another key at the paired address are each refused, and say why; the person
//! forgets the relay in the popup.

use std::net::TcpListener;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use tabpilot::shared::protocol::{Frame, Role, close};

use crate::harness::{Env, Kill, Mcp, kill, run, runtime};
use crate::netns::Netns;
use crate::peers::{self, EXTENSION_ORIGIN};
use crate::person::browsers;
use crate::remote_browser::{RemoteBrowser, code_and_fingerprint, serve_page};
use crate::snapshot::ref_of;

/// Where the relay listens, inside its own namespace: no other process can hold this port there.
const LISTEN: &str = "0.0.0.0:47400";
/// The relay's address as the browser's namespace reaches it, and as the stranger's does.
const FOR_BROWSER: &str = "10.213.0.1:47400";
const FOR_STRANGER: &str = "10.213.1.1:47400";
const PAGE_TEXT: &str = "Quarterly figures ZQX7741";
const CLICKED: &str = "Approved ZQX3318";
const TYPED: &str = "typed words ZQX5092";

const PAGE: &str = "<!doctype html><title>Ledger ZQX2210</title><h1>Quarterly figures ZQX7741</h1>\
    <label>Query <input id=q></label>\
    <button onclick=\"document.querySelector('h1').textContent='Approved ZQX3318'\">Approve</button>";

/// A browser with the extension loaded by hand (written out by `tabpilot extension path`),
/// inside `ns`.
fn browser_in(env: &Env, ns: &Netns, name: &str) -> RemoteBrowser {
    let (ok, out, err) = env.cli(&["extension", "path"]);
    assert!(ok, "{err}");
    RemoteBrowser::start(ns, &PathBuf::from(out.trim()), env.state_dir.join(name))
}

/// A snapshot once the agent's call goes through again (the relay and the browser coming back).
fn snapshot_when_back(agent: &mut Mcp) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let result = agent.call("browser_snapshot", json!({}));
        if result["isError"] != true {
            return crate::harness::text(&result);
        }
        assert!(
            Instant::now() < deadline,
            "the agent never got back: {result}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_browser_on_another_computer_pairs_by_code_and_is_driven_over_the_sealed_link() {
    let env = Env::fresh("remote");
    std::fs::create_dir_all(&env.state_dir).unwrap();
    let (relay_ns, browser_ns, stranger_ns) = (
        Netns::new("relay"),
        Netns::new("browser"),
        Netns::new("stranger"),
    );
    let wire = relay_ns.link(&browser_ns, "10.213.0.1", "10.213.0.2");
    relay_ns.link(&stranger_ns, "10.213.1.1", "10.213.1.2");
    let pcap = env.state_dir.join("wire.pcap");
    let capture = relay_ns.capture(&wire, &pcap);

    // The agent's computer: its client starts tabpilot as any client does, with the relay told
    // to listen past loopback too.
    let on_agents = |args: &[&str]| {
        let mut cmd = env.command(args);
        cmd.env("TABPILOT_RELAY_LISTEN", LISTEN);
        relay_ns.inside(&cmd)
    };
    let mut agent = Mcp::started(on_agents(&["mcp"]));
    let (ok, said, err) = run(on_agents(&["pair", "--remote"]));
    assert!(ok, "{err}");
    assert!(said.contains("port 47400"), "{said}");
    let (code, fingerprint) = code_and_fingerprint(&said);

    // The person's computer: a browser with the extension loaded by hand, and a page there.
    let browser = browser_in(&env, &browser_ns, "remote-profile");
    let page = browser_ns.within(|| TcpListener::bind("127.0.0.1:0").unwrap());
    let page_url = serve_page(page, PAGE);
    let said = browser.pair(&browser_ns, FOR_BROWSER, &code);
    assert_eq!(
        said,
        format!(
            "Paired with {FOR_BROWSER}. Key fingerprint {fingerprint}: it must be the one your terminal printed."
        )
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    while browsers(&mut agent).is_empty() {
        assert!(Instant::now() < deadline, "the paired browser never joined");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        browser.remote_state(&browser_ns).ends_with(": connected."),
        "the popup does not say it is connected"
    );

    // The agent drives it as a local one.
    agent.ok("browser_navigate", json!({ "url": page_url }));
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains(PAGE_TEXT), "{snap}");
    let query = ref_of(&snap, "textbox", "Query");
    agent.ok("browser_type", json!({ "ref": query, "text": TYPED }));
    agent.ok(
        "browser_click",
        json!({ "ref": ref_of(&snap, "button", "Approve") }),
    );
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains(CLICKED) && snap.contains(TYPED), "{snap}");
    // A screenshot comes back as from a browser on this computer.
    let shot = agent.call("browser_screenshot", json!({}));
    assert_ne!(shot["isError"], true, "{shot}");
    let blocks = shot["content"].as_array().unwrap();
    let image = blocks.iter().find(|b| b["type"] == "image");
    let image = image.expect("an image");
    use base64::Engine;
    let png = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    assert!(image::load_from_memory(&png).unwrap().width() > 100);

    // The relay restarts: the agent's client starts another, the browser dials it again, and
    // the agent is still in its tab.
    let old = env.relay_pid();
    kill(old);
    let snap = snapshot_when_back(&mut agent);
    assert!(snap.contains(CLICKED), "not the agent's tab: {snap}");
    assert_ne!(env.relay_pid(), old, "the relay did not restart");

    stranger_is_refused(&env, &stranger_ns, &code, &fingerprint);

    // What crossed between the namespaces: the upgrades in clear, nothing else readable.
    capture.stop();
    let wire = std::fs::read(&pcap).unwrap();
    let has = |needle: &[u8]| wire.windows(needle.len()).any(|w| w == needle);
    for upgrade in [&b"GET /pair/remote"[..], b"GET /browser"] {
        let upgrade = String::from_utf8_lossy(upgrade);
        assert!(has(upgrade.as_bytes()), "the capture missed {upgrade}");
    }
    let secret = |name: &str| std::fs::read(env.state_dir.join(name)).unwrap();
    assert_ne!(
        secret("remote-secret"),
        secret("secret"),
        "one secret for both doors"
    );
    let code_letters = code.replace('-', "");
    let never: [(&str, &[u8]); 10] = [
        ("the page's text", PAGE_TEXT.as_bytes()),
        ("the page's title", b"ZQX2210"),
        ("the clicked text", CLICKED.as_bytes()),
        ("the typed text", TYPED.as_bytes()),
        ("the page's address", page_url.as_bytes()),
        ("the code", code.as_bytes()),
        ("the code's letters", code_letters.as_bytes()),
        ("the link's secret", &secret("remote-secret")),
        ("the loopback secret", &secret("secret")),
        ("the relay's key", &secret("relay-key")),
    ];
    for (what, bytes) in never {
        assert!(!has(bytes), "{what} crossed the wire readable");
    }

    another_relay_at_the_address_is_refused(&env, agent, &relay_ns, &browser_ns, &browser);
}

/// The third namespace, with the right address: a browser with no pairing fails the relay's
/// challenge (which names the relay's key), and one with a used code is refused in its popup.
fn stranger_is_refused(env: &Env, stranger_ns: &Netns, used_code: &str, fingerprint: &str) {
    let (code, reason) = stranger_ns.within(|| {
        runtime().block_on(async {
            let mut ws = peers::open_at(FOR_STRANGER, "/browser", Some(EXTENSION_ORIGIN))
                .await
                .expect("the relay's door past loopback");
            let (nonce, key) = match peers::recv(&mut ws).await {
                Frame::Challenge { nonce, key, .. } => (nonce, key),
                other => panic!("expected a challenge, got {other:?}"),
            };
            let proof = tabpilot::shared::protocol::auth::proof(b"guess", "browser", 47400, &nonce);
            let hello = peers::hello(Role::Browser, proof, "cafe");
            peers::send(&mut ws, &hello).await;
            let (code, reason) = peers::closed(&mut ws).await;
            (code, format!("{reason} (key {key:?})"))
        })
    });
    assert_eq!(code, close::AUTH_FAILED, "{reason}");
    assert!(
        reason.contains(fingerprint),
        "the challenge named no key: {reason}"
    );

    let stranger = browser_in(env, stranger_ns, "stranger-profile");
    let said = stranger.pair(stranger_ns, FOR_STRANGER, used_code);
    assert_eq!(
        said,
        "Not paired: the relay refused: that is not an open pairing code; run tabpilot pair --remote again"
    );
}

/// Another relay (another key) answers at the paired address: the browser gives it no proof,
/// and its popup says why.
fn another_relay_at_the_address_is_refused(
    env: &Env,
    agent: Mcp,
    relay_ns: &Netns,
    browser_ns: &Netns,
    browser: &RemoteBrowser,
) {
    drop(agent);
    let relay = env.relay_pid();
    kill(relay);
    // Gone, its port with it, before the other takes the address.
    // SAFETY: signal 0 only asks whether the pid is still there.
    while unsafe { libc::kill(relay, 0) } == 0 {
        std::thread::sleep(Duration::from_millis(20));
    }
    let other = Env::fresh("remote-other-relay");
    std::fs::create_dir_all(&other.state_dir).unwrap();
    let log = std::fs::File::create(other.state_dir.join("foreground.log")).unwrap();
    let rogue = other.command(&["relay", "--listen", LISTEN]);
    let mut rogue = relay_ns.inside(&rogue);
    let _rogue = Kill(rogue.stderr(log).spawn().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let said = browser.remote_state(browser_ns);
        if said.contains("another relay answers at 10.213.0.1:47400: its key is") {
            assert!(said.contains("not connected"), "{said}");
            break;
        }
        let log = std::fs::read_to_string(other.state_dir.join("foreground.log"));
        assert!(
            Instant::now() < deadline,
            "the popup never said why: {said}\nthe other relay said: {log:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    // The person forgets it: the popup no longer names it.
    let said = browser.forget(browser_ns);
    assert!(said.starts_with("Forgotten"), "{said}");
    assert_eq!(
        browser.remote_state(browser_ns),
        "",
        "the popup still names the relay"
    );
}
