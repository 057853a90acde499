//! Pairing a browser that tabpilot did not launch: the extension loaded by hand, `tabpilot pair`'s
//! code typed into the extension's popup, and the attacks on pairing the security probe found
//! (findings 2 and 3). The popup is driven the way a person would (tests/e2e/person.rs).

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::cdp::{Cdp, browser_url};
use crate::harness::{Env, Mcp, runtime, shared};
use crate::peers::EXTENSION_ORIGIN;
use crate::person::{
    DEVTOOLS_WITHIN, browser_loading, browsers, code_in, hand_loaded_browser, pair, paired_browser,
};

/// A raw HTTP request to a loopback port; returns the status code and the body.
fn http(port: u16, method: &str, path: &str, origin: Option<&str>, body: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{origin}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn a_hand_loaded_extension_pairs_only_with_the_code_typed_in_its_popup() {
    let env = Env::fresh("pairing");
    let mut mcp = Mcp::start(&env, &[]);
    assert!(browsers(&mut mcp).is_empty());
    let (code, url) = pair(&env);
    assert!(
        !url.contains(&code[..4]),
        "the code is in the page's address"
    );
    assert!(
        !url.contains(&String::from_utf8(env.secret()).unwrap()),
        "the secret is in the URL"
    );
    let (_browser, profile) = hand_loaded_browser(&env, "hand-profile");
    let rt = runtime();
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));
    // The pairing page alone pairs nothing.
    rt.block_on(cdp.open(&url, false)).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        browsers(&mut mcp).is_empty(),
        "the page paired the browser by itself"
    );

    let said = rt.block_on(cdp.pair_in_popup(env.first_port, "ZZZZ-ZZZZ"));
    assert!(said.starts_with("Not paired"), "{said}");
    let said = rt.block_on(cdp.pair_in_popup(env.first_port, &code));
    assert_eq!(said, "Paired.");
    let deadline = Instant::now() + Duration::from_secs(15);
    while browsers(&mut mcp).is_empty() {
        assert!(Instant::now() < deadline, "the paired browser never joined");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The code worked once.
    let claim = json!({ "code": code }).to_string();
    let (status, _) = http(
        env.first_port,
        "POST",
        "/pair/claim",
        Some(EXTENSION_ORIGIN),
        &claim,
    );
    assert_eq!(status, 403, "the code works more than once");

    // relay.log says which browser joined, and that it left when it closed.
    let id = browsers(&mut mcp)[0]["browserId"]
        .as_str()
        .unwrap()
        .to_string();
    let log = || std::fs::read_to_string(env.state_dir.join("relay.log")).unwrap_or_default();
    let joined = log();
    assert!(
        joined
            .lines()
            .any(|l| l.contains("a browser joined") && l.contains(&id)),
        "{joined}"
    );
    drop(_browser);
    let deadline = Instant::now() + Duration::from_secs(15);
    while !log()
        .lines()
        .any(|l| l.contains("a browser left") && l.contains(&id))
    {
        assert!(
            Instant::now() < deadline,
            "no word of it leaving:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Issue 26: a copy of the extension with another ID (the Chrome Web Store's, or one loaded
/// unpacked without the manifest's key) is kept out until it pairs with a code, and from then on
/// joins and is driven like ours.
#[test]
fn an_extension_with_another_id_pairs_by_code_and_drives_a_page() {
    let env = Env::fresh("pairing-other-id");
    let mut mcp = Mcp::start(&env, &[]);
    let (ok, out, err) = env.cli(&["extension", "path"]);
    assert!(ok, "{err}");
    let copy = env.state_dir.join("keyless-extension");
    copy_dir(std::path::Path::new(out.trim()), &copy);
    let manifest = copy.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("key");
    std::fs::write(&manifest, m.to_string()).unwrap();

    let (_browser, profile) = browser_loading(&env, "keyless-profile", &copy);
    let rt = runtime();
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));
    let origin = rt.block_on(extension_origin(&mut cdp));
    assert_ne!(origin, EXTENSION_ORIGIN, "the copy kept our ID");
    let refused = rt.block_on(crate::peers::open(
        env.first_port,
        "/browser",
        Some(&origin),
    ));
    assert!(refused.is_err(), "an unpaired extension joined the relay");

    let (code, _) = pair(&env);
    let said = rt.block_on(cdp.pair_in_popup_of(&origin, env.first_port, &code));
    assert_eq!(said, "Paired.");
    let deadline = Instant::now() + Duration::from_secs(15);
    while browsers(&mut mcp).is_empty() {
        assert!(Instant::now() < deadline, "the paired copy never joined");
        std::thread::sleep(Duration::from_millis(100));
    }
    mcp.ok("browser_navigate", json!({"url": shared().a("basic.html")}));
    let (snap, _) = mcp.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Basic page"), "{snap}");
    let pinned = std::fs::read_to_string(env.state_dir.join("paired-extensions")).unwrap();
    assert!(origin.ends_with(pinned.trim()), "{pinned}");
}

/// The origin of the one extension the browser at `cdp` runs, once its service worker is up.
async fn extension_origin(cdp: &mut Cdp) -> String {
    let deadline = Instant::now() + DEVTOOLS_WITHIN;
    loop {
        let targets = cdp.targets().await.unwrap();
        let worker = targets.iter().find_map(|t| {
            let url = t["url"].as_str()?;
            let rest = url.strip_prefix("chrome-extension://")?;
            Some(format!("chrome-extension://{}", rest.split('/').next()?))
        });
        if let Some(origin) = worker {
            return origin;
        }
        assert!(
            Instant::now() < deadline,
            "no extension target: {targets:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Finding 2's rogue server: serves a pairing page (at the address the extension used to trust,
/// and at today's) and a claim endpoint that hands out its own secret, recording every request.
fn rogue_server() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buf = [0u8; 4096];
            let n = stream.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]).to_string();
            let first = request.lines().next().unwrap_or("").to_string();
            record.lock().unwrap().push(first.clone());
            let body = if first.starts_with("POST") {
                json!({"secret": "f".repeat(64), "ports": [port, port]}).to_string()
            } else {
                r#"<!doctype html><meta name="tabpilot-pairing" content="1"><title>Pair</title><p id="status">pair</p>"#
                    .to_string()
            };
            let kind = if first.starts_with("POST") {
                "application/json"
            } else {
                "text/html"
            };
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nAccess-Control-Allow-Origin: *\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (port, seen)
}

#[test]
fn a_rogue_pairing_page_pairs_nothing_and_drops_no_link() {
    let (rogue, seen) = rogue_server();
    let pages = [
        format!("http://127.0.0.1:{rogue}/pair/0123456789abcdef"),
        format!("http://127.0.0.1:{rogue}/pair"),
    ];
    // An unpaired, hand-loaded extension shown the rogue pages.
    let env = Env::fresh("pairing-rogue");
    let (_browser, profile) = hand_loaded_browser(&env, "rogue-profile");
    let rt = runtime();
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));
    for page in &pages {
        rt.block_on(cdp.open(page, false)).unwrap();
    }
    // An already paired managed browser, in the middle of an agent's work.
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let mut other = s.agent();
    for page in &pages {
        other.ok("browser_navigate", json!({"url": page}));
    }
    std::thread::sleep(Duration::from_secs(2));
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    assert_eq!(
        data["url"],
        json!(s.a("basic.html")),
        "the agent's link or tab was lost"
    );
    let requests = seen.lock().unwrap().clone();
    assert!(
        requests.iter().all(|r| r.starts_with("GET")),
        "the extension claimed from a rogue page: {requests:?}"
    );
    assert!(
        requests.len() >= 2,
        "the rogue pages were never loaded: {requests:?}"
    );
}

#[test]
fn the_pairing_code_stays_in_the_terminal_and_guessing_it_is_bounded() {
    let env = Env::fresh("pairing-leak");
    // Finding 3: `tabpilot pair` handed the code to xdg-open, whose arguments every local user
    // can read in /proc. A stand-in xdg-open records what it was given.
    let bin = env.state_dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let argv_file = env.state_dir.join("xdg-open.argv");
    let script = bin.join("xdg-open");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$@\" >> {}\n", argv_file.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env.command(&["pair"]).env("PATH", path).output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    let code = code_in(&printed);
    let argv = std::fs::read_to_string(&argv_file).expect("xdg-open was run");
    assert!(
        !argv.contains(&code),
        "the code went into xdg-open's arguments: {argv}"
    );
    // What leaked, the page's address, yields no secret however it is asked.
    let leaked = argv
        .trim()
        .trim_start_matches(&format!("http://127.0.0.1:{}", env.first_port));
    for origin in [None, Some(EXTENSION_ORIGIN)] {
        let (status, body) = http(env.first_port, "POST", leaked, origin, "{}");
        assert_ne!(status, 200, "{leaked}: {body}");
        assert!(!body.contains("secret"));
    }
    // A local process forging the extension's Origin gets five guesses at every open code
    // together; then none is open, the right one included.
    for _ in 0..5 {
        let (status, _) = http(
            env.first_port,
            "POST",
            "/pair/claim",
            Some(EXTENSION_ORIGIN),
            &json!({"code": "ABCD-EFGH"}).to_string(),
        );
        assert_eq!(status, 403);
    }
    let claim = json!({ "code": code }).to_string();
    let (status, body) = http(
        env.first_port,
        "POST",
        "/pair/claim",
        Some(EXTENSION_ORIGIN),
        &claim,
    );
    assert_eq!(status, 403, "the code survived five wrong guesses: {body}");
}

// Finding 10 of the security probe: any agent could adopt, navigate or close the person's own
// tabs, the one in front included. Now a tab the person did not share (from the popup) is not an
// agent's to use; once shared, it is handed to one agent at a time.
#[test]
fn the_persons_tab_is_an_agents_only_once_they_share_it() {
    let env = Env::fresh("pairing-share");
    let mut agent = Mcp::start(&env, &[]);
    let rt = runtime();
    let (_browser, mut cdp) = paired_browser(&rt, &env, "share-profile", &mut agent);
    let deadline = Instant::now() + Duration::from_secs(15);
    // The person opens a page of their own.
    let page = shared().a("basic.html");
    rt.block_on(cdp.open(&page, false)).unwrap();
    let listed = || {
        let (text, data) = Mcp::start(&env, &[]).ok("browser_list_tabs", json!({}));
        let tab = data["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["url"] == json!(shared().fixtures.a))
            .cloned();
        (text, tab)
    };
    let persons = || listed().1.map(|t| t["tabId"].as_i64().unwrap());
    let mut tab = None;
    while tab.is_none() {
        assert!(
            Instant::now() < deadline + Duration::from_secs(5),
            "the page never showed"
        );
        std::thread::sleep(Duration::from_millis(100));
        tab = persons();
    }
    let tab = tab.unwrap();
    // Not shared: its origin, and nothing of what the person is doing there.
    let (text, entry) = listed();
    let entry = entry.unwrap();
    assert_eq!(
        (&entry["title"], &entry["active"], &entry["unshared"]),
        (&json!(""), &json!(false), &json!(true)),
        "{entry}"
    );
    assert!(!text.contains("Basic fixture"), "{text}");

    // Not shared: not the agent's to read, drive or close.
    for (tool, args) in [
        ("browser_select_tab", json!({"tabId": tab})),
        ("browser_close_tab", json!({"tabId": tab})),
    ] {
        let (code, r) = agent.fails(tool, args);
        assert_eq!(code, "TAB_NOT_SHARED", "{tool}: {r}");
        assert_eq!(r["structuredContent"]["outcome"], "refused");
    }
    assert_eq!(persons(), Some(tab), "the person's tab was closed");

    // Shared from the popup: handed to one agent, refused to a second.
    assert!(rt.block_on(cdp.share_in_popup(tab)).starts_with("Shared"));
    let (said, _) = agent.ok("browser_select_tab", json!({"tabId": tab}));
    assert!(
        said.starts_with(&format!("This agent now works in tab {tab}")),
        "{said}"
    );
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Basic page"), "{snap}");
    let (_, entry) = listed();
    assert_eq!(
        entry.unwrap()["title"],
        "Basic fixture",
        "shared, its title shows"
    );
    let mut other = Mcp::start(&env, &[]);
    let (code, _) = other.fails("browser_select_tab", json!({"tabId": tab}));
    assert_eq!(code, "TAB_CLAIMED");
    let (code, _) = other.fails("browser_select_tab", json!({"tabId": 999_999_999}));
    assert_eq!(code, "TAB_GONE");
}
