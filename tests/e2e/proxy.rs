//! browser_proxy through a loopback proxy the test runs: the agent's request goes through it,
//! browser_status shows it, and `clear` gives the browser back its direct connections. The
//! proxy is the whole shared browser's: the test's host is one no other test uses
//! (`tabpilot-proxy.test`), and loopback stays outside the proxy (Chromium's own rule), so the
//! other tests and the extension's link to the relay are never sent through it.

use serde_json::json;

use crate::harness::shared;
use crate::recorder::{Recorder, Reply};

const HOST: &str = "http://tabpilot-proxy.test";

/// Takes tabpilot's proxy away again however the test ends.
struct Cleared<'a>(&'a mut crate::harness::Mcp);

impl Drop for Cleared<'_> {
    fn drop(&mut self) {
        let _ = self.0.call("browser_proxy", json!({"clear": true}));
    }
}

#[test]
fn the_agents_request_goes_through_the_proxy_until_clear_restores_direct_connections() {
    let s = shared();
    let proxy = Recorder::start(|_| Reply::html("<title>Proxied</title><p>through the proxy</p>"));
    let mut agent = s.agent();
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
