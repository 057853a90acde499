//! Pairing a browser that was not launched by tabpilot: the extension loaded by hand, and
//! `tabpilot pair`'s one-time loopback page.

use std::io::{Read, Write};
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp};

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A raw HTTP request to the relay; returns the status code.
fn http(port: u16, method: &str, path: &str, origin: Option<&str>) -> u16 {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{origin}Content-Length: 0\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn pair_url(env: &Env) -> String {
    let mut cmd = env.command(&["pair"]);
    let out = cmd.env("TABPILOT_NO_OPEN", "1").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .expect("a pairing URL")
        .to_string()
}

fn browsers(mcp: &mut Mcp) -> Vec<Value> {
    let (_, data) = mcp.ok("browser_status", json!({}));
    data["browsers"].as_array().unwrap().clone()
}

#[test]
fn a_hand_loaded_extension_pairs_by_itself_once_and_a_repairing_needs_a_click() {
    let env = Env::fresh("pairing");
    let mut mcp = Mcp::start(&env, &[]);
    assert!(browsers(&mut mcp).is_empty());
    let url = pair_url(&env);
    let path = url
        .trim_start_matches(&format!("http://127.0.0.1:{}", env.first_port))
        .to_string();
    assert!(
        !url.contains(&String::from_utf8(env.secret()).unwrap()),
        "the secret is in the URL"
    );
    // A web page (any other origin) cannot claim the code.
    assert_eq!(
        http(env.first_port, "POST", &path, Some("http://127.0.0.1:1")),
        403
    );
    assert_eq!(http(env.first_port, "GET", &path, None), 200);

    // The extension as a user loads it: written out by `tabpilot extension path`, no pairing inside.
    let (ok, out, err) = env.cli(&["extension", "path"]);
    assert!(ok, "{err}");
    let ext = std::path::PathBuf::from(out.trim());
    assert!(!ext.join("managed.json").exists());
    let exe = tabpilot::launch::find_chromium().expect("a Chromium for the tests");
    // Headless Chromium now and then never loads the page it is started with (the relay sees no
    // request for it at all); that is the browser's start-up, not pairing, so such a start is
    // retried on a fresh profile. Each start gets 10 s.
    let mut _browser = None;
    let mut paired = false;
    for attempt in 0..3 {
        let data = env.state_dir.join(format!("hand-profile-{attempt}"));
        _browser = Some(Kill(
            tabpilot::launch::chromium_command(&exe, &data, &ext, true, &url)
                .spawn()
                .unwrap(),
        ));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && !paired {
            paired = !browsers(&mut mcp).is_empty();
            std::thread::sleep(Duration::from_millis(100));
        }
        if paired {
            break;
        }
    }
    let log = std::fs::read_to_string(env.state_dir.join("relay.log")).unwrap_or_default();
    assert!(
        paired,
        "the hand-loaded extension never paired; relay log:\n{log}"
    );

    assert_eq!(
        http(env.first_port, "GET", &path, None),
        404,
        "the code works more than once"
    );

    // A second pairing page does not re-pair an already paired browser by itself.
    let second = pair_url(&env);
    let second_path = second
        .trim_start_matches(&format!("http://127.0.0.1:{}", env.first_port))
        .to_string();
    mcp.ok(
        "browser_navigate",
        json!({"url": second, "includeSnapshot": false}),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (snap, _) = mcp.ok("browser_read_page", json!({}));
        if snap.contains("already paired") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the page never said the browser was already paired: {snap}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        http(env.first_port, "GET", &second_path, None),
        200,
        "the second code was claimed without a click"
    );
}
