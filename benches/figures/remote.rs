//! A browser on another computer against one on loopback: click and type medians through
//! `tabpilot mcp`, the same page and the same calls, in alternating rounds. The other computer is
//! a network namespace joined to the relay's by a veth pair (tests/support/netns.rs), the browser
//! paired through its popup as a person pairs it; needs root and `ip`, and says so when it cannot.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::mcp_client::McpClient;
use crate::netns::Netns;
use crate::remote_browser::{RemoteBrowser, code_and_fingerprint, serve_page};
use crate::snapshot::ref_of;
use crate::{BenchEnv, ms, quantile};

const PAGE: &str = "<!doctype html><title>Bench</title>\
    <label>Query <input id=q></label><button onclick=\"this.dataset.n=(+this.dataset.n||0)+1\">Press me</button>";
const ROUNDS: usize = 6;
const PER_ROUND: usize = 10;

fn ok(mcp: &mut McpClient, tool: &str, args: Value) -> Value {
    let r = mcp.call_tool(tool, args);
    assert_ne!(r["isError"], true, "{tool} failed: {r}");
    r["structuredContent"].clone()
}

/// An agent on `url`, with the refs of its button and its text box.
struct Agent {
    mcp: McpClient,
    press: String,
    query: String,
}

impl Agent {
    fn on(mut mcp: McpClient, url: &str) -> Agent {
        mcp.initialize("tabpilot-figures");
        ok(&mut mcp, "browser_navigate", json!({ "url": url }));
        let snap = ok(&mut mcp, "browser_snapshot", json!({}))["snapshot"]
            .as_str()
            .unwrap()
            .to_string();
        let press = ref_of(&snap, "button", "Press me");
        let query = ref_of(&snap, "textbox", "Query");
        Agent { mcp, press, query }
    }

    /// One round: PER_ROUND clicks and PER_ROUND types, each timed.
    fn round(&mut self, clicks: &mut Vec<Duration>, types: &mut Vec<Duration>) {
        for _ in 0..PER_ROUND {
            let t = Instant::now();
            ok(&mut self.mcp, "browser_click", json!({ "ref": self.press }));
            clicks.push(t.elapsed());
            let t = Instant::now();
            let typed = json!({ "ref": self.query, "text": "hello" });
            ok(&mut self.mcp, "browser_type", typed);
            types.push(t.elapsed());
        }
    }
}

fn can_make_namespaces() -> bool {
    // SAFETY: asks this process's effective user id.
    let root = unsafe { libc::geteuid() } == 0;
    root && Command::new("ip")
        .arg("-V")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

pub(crate) fn remote_figures() {
    println!("a browser on another computer (a network namespace, veth) against one on loopback");
    if !can_make_namespaces() {
        println!("  skipped: network namespaces need root and `ip` (iproute2)");
        return;
    }
    // On loopback: a managed headless browser, the page on this computer's loopback.
    let local_env = BenchEnv::new("remote-loopback");
    let local_page = serve_page(TcpListener::bind("127.0.0.1:0").unwrap(), PAGE);
    let mut local = Agent::on(
        local_env.mcp(&["mcp", "--launch", "--headless"]),
        &local_page,
    );

    // Past loopback: the relay and the agent in one namespace, the browser and its page in another.
    let env = BenchEnv::new("remote");
    let (relay_ns, browser_ns) = (Netns::new("relay"), Netns::new("browser"));
    relay_ns.link(&browser_ns, "10.215.0.1", "10.215.0.2");
    let on_agents = |args: &[&str]| {
        let mut cmd = env.command(args);
        cmd.env("TABPILOT_RELAY_LISTEN", "0.0.0.0:47400");
        relay_ns.inside(&cmd)
    };
    let mut mcp_cmd = on_agents(&["mcp"]);
    mcp_cmd.stderr(Stdio::null());
    let mut mcp = McpClient::spawn(mcp_cmd);
    mcp.strict = false;
    mcp.exit_grace = Duration::from_secs(5);
    let said = on_agents(&["pair", "--remote"]).output().unwrap();
    let (code, _) = code_and_fingerprint(&String::from_utf8_lossy(&said.stdout));
    let ext = env.command(&["extension", "path"]).output().unwrap();
    let ext = PathBuf::from(String::from_utf8_lossy(&ext.stdout).trim());
    let browser = RemoteBrowser::start(&browser_ns, &ext, env.state_dir.join("profile"));
    let paired = browser.pair(&browser_ns, "10.215.0.1:47400", &code);
    assert!(paired.starts_with("Paired"), "{paired}");
    let page = browser_ns.within(|| TcpListener::bind("127.0.0.1:0").unwrap());
    let page = serve_page(page, PAGE);
    let mut remote = Agent::on(mcp, &page);

    let (mut local_clicks, mut local_types) = (Vec::new(), Vec::new());
    let (mut remote_clicks, mut remote_types) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        local.round(&mut local_clicks, &mut local_types);
        remote.round(&mut remote_clicks, &mut remote_types);
    }
    let n = ROUNDS * PER_ROUND;
    for (label, samples) in [
        ("browser_click, loopback", &mut local_clicks),
        ("browser_click, another computer", &mut remote_clicks),
        ("browser_type, loopback", &mut local_types),
        ("browser_type, another computer", &mut remote_types),
    ] {
        samples.sort();
        println!(
            "  {label:<44} median {:>9}  p95 {:>9}  ({n} calls, alternating rounds)",
            ms(quantile(samples, 0.5)),
            ms(quantile(samples, 0.95))
        );
    }
    drop(remote);
    drop(browser);
}
