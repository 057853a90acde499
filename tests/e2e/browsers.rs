//! Two real browsers on one relay: each picked by its label, an agent that picked none refused
//! with the list, a browser that leaves never replaced by the other; and, in a browser no other
//! test opens tabs in, the tab list in pages and a tab picked by its place.

use serde_json::{Value, json};

use crate::fixtures::serve;
use crate::harness::{Env, Mcp, all_tabs, my_tab_id, text};

/// A headless Chromium that `tabpilot launch --label` started, closed when dropped.
struct Browser {
    pid: i32,
}

impl Browser {
    fn launch(env: &Env, label: &str) -> Browser {
        let (ok, out, err) = env.cli(&["launch", "--headless", "--isolated", "--label", label]);
        assert!(ok, "launch {label}: {out}{err}");
        assert!(out.contains(&format!("{label:?}")), "{out}");
        let pid = out
            .split("(pid ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .and_then(|pid| pid.parse().ok())
            .unwrap_or_else(|| panic!("no pid in {out:?}"));
        Browser { pid }
    }

    fn close(&self) {
        // SAFETY: signalling a browser this test started.
        unsafe { libc::kill(self.pid, libc::SIGTERM) };
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.close();
    }
}

fn agent(env: &Env, adjust: impl FnOnce(&mut std::process::Command)) -> Mcp {
    Mcp::start_with(env, &[], |c| {
        // A refusal for a browser not connected comes at once here.
        c.env("TABPILOT_CONNECT_WAIT_MS", "0");
        adjust(c);
    })
}

/// The browsers browser_status lists, by label.
fn browsers(agent: &mut Mcp) -> Vec<Value> {
    let (_, status) = agent.ok("browser_status", json!({}));
    status["browsers"].as_array().unwrap().clone()
}

fn by_label<'a>(browsers: &'a [Value], label: &str) -> &'a Value {
    browsers.iter().find(|b| b["label"] == label).unwrap()
}

#[test]
fn two_browsers_each_picked_by_label_and_one_that_leaves_is_never_replaced() {
    let env = Env::fresh("two-browsers");
    let fixtures = serve(env.first_port);
    let left = Browser::launch(&env, "left");
    let _right = Browser::launch(&env, "right");
    let page = |name: &str| format!("{}/{name}", fixtures.a);

    // Picking none: refused with both, by label, and the tool that picks one; nothing opened.
    let mut one = agent(&env, |_| {});
    let (code, r) = one.fails("browser_navigate", json!({"url": page("basic.html")}));
    assert_eq!(code, "AMBIGUOUS_BROWSER");
    let said = text(&r);
    for needle in ["\"left\"", "\"right\"", "browser_select_browser"] {
        assert!(said.contains(needle), "{needle} in {said}");
    }
    let listed = browsers(&mut one);
    assert_eq!(listed.len(), 2);
    for label in ["left", "right"] {
        let b = by_label(&listed, label);
        assert_eq!(
            (b["kind"].clone(), b["tabs"].clone()),
            (json!("managed"), json!(0))
        );
    }

    // One agent picks `left` with the tool, another `right` from its configuration.
    let (code, _) = one.fails("browser_select_browser", json!({"browser": "middle"}));
    assert_eq!(code, "NO_BROWSER", "no browser is labelled so");
    one.ok("browser_select_browser", json!({"browser": "left"}));
    one.ok(
        "browser_navigate",
        json!({"url": page("basic.html?side=left")}),
    );
    let mut two = agent(&env, |c| {
        c.env("TABPILOT_BROWSER_LABEL", "right");
    });
    two.ok(
        "browser_navigate",
        json!({"url": page("page2.html?side=right")}),
    );
    let listed = browsers(&mut one);
    for label in ["left", "right"] {
        let b = by_label(&listed, label);
        assert_eq!(
            (b["agents"].clone(), b["tabs"].clone()),
            (json!(1), json!(1)),
            "{b}"
        );
    }
    let left_id = by_label(&listed, "left")["browserId"].clone();
    let right_id = by_label(&listed, "right")["browserId"].clone();

    // An agent that picked none lists every browser's tabs under its name (it was
    // AMBIGUOUS_BROWSER), each agent's tab in its own browser: what it needs to pick one.
    let mut three = agent(&env, |_| {});
    let (said, data) = three.ok("browser_list_tabs", json!({}));
    assert!(said.starts_with("2 browsers; pick one"), "{said}");
    for label in ["left", "right"] {
        assert!(said.contains(&format!("browser {label:?}: ")), "{said}");
        let tabs = data["tabs"].as_array().unwrap();
        assert!(
            tabs.iter()
                .any(|t| t["browser"] == label && t["holder"].is_string()),
            "no agent's tab listed in {label}: {data}"
        );
    }
    let total: usize = listed
        .iter()
        .map(|b| b["tabs"].as_u64().unwrap() as usize)
        .sum();
    assert!(data["total"].as_u64().unwrap() as usize >= total, "{data}");
    assert!(three.holds_no_tab(), "listing opened a tab");

    // One agent works in both, and comes back to its tab in the first.
    let left_tab = my_tab_id(&mut one);
    one.ok("browser_select_browser", json!({"browser": right_id}));
    let (snap, _) = one.ok("browser_navigate", json!({"url": page("page2.html?one")}));
    assert!(snap.contains("Page two"), "{snap}");
    one.ok("browser_select_browser", json!({"browser": "left"}));
    let (snap, _) = one.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Press me"), "back in its left tab: {snap}");
    assert_eq!(my_tab_id(&mut one), left_tab);
    let (_, status) = one.ok("browser_status", json!({}));
    assert_eq!(status["pinned"], left_id);

    // `left` leaves: its agents get NO_BROWSER naming it, and nothing goes to `right`.
    let right_tabs = all_tabs(&mut two).len();
    left.close();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let r = one.call("browser_snapshot", json!({}));
        if r["isError"] == true {
            assert_eq!(r["structuredContent"]["error"]["code"], "NO_BROWSER", "{r}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "left never left");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    for tool in ["browser_snapshot", "browser_new_tab"] {
        let (code, r) = one.fails(tool, json!({}));
        assert_eq!(code, "NO_BROWSER");
        assert!(
            text(&r).contains(&left_id.as_str().unwrap()[..8]),
            "{}",
            text(&r)
        );
    }
    assert_eq!(
        all_tabs(&mut two).len(),
        right_tabs,
        "a call fell back to right"
    );
}

#[test]
fn the_tab_list_comes_in_pages_and_a_tab_is_picked_by_its_place() {
    let env = Env::fresh("paged-tabs");
    let _browser = Browser::launch(&env, "only");
    let mut agent = agent(&env, |_| {});
    let mut opened = Vec::new();
    for _ in 0..21 {
        let (_, data) = agent.ok("browser_new_tab", json!({}));
        opened.push(data["tabId"].as_i64().unwrap());
    }
    let (said, first) = agent.ok("browser_list_tabs", json!({}));
    assert_eq!(first["tabs"].as_array().unwrap().len(), 20);
    let total = first["total"].as_u64().unwrap();
    assert_eq!(total, 22, "the launch's own tab and the agent's 21");
    assert!(
        said.contains(r#"next: browser_list_tabs {"page":2}"#),
        "{said}"
    );
    let (said, second) = agent.ok("browser_list_tabs", json!({"page": 2}));
    assert_eq!(second["tabs"].as_array().unwrap().len(), 2);
    assert!(said.contains("Page 2 of 2"), "{said}");
    let mut ids: Vec<i64> = [first, second]
        .iter()
        .flat_map(|p| p["tabs"].as_array().unwrap().clone())
        .map(|t| t["tabId"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 22, "every tab once");
    let (code, _) = agent.fails("browser_list_tabs", json!({"page": 3}));
    assert_eq!(code, "BAD_ARGS");

    let place = all_tabs(&mut agent)
        .iter()
        .position(|t| t["tabId"] == opened[4])
        .unwrap();
    agent.ok("browser_select_tab", json!({"index": place}));
    assert_eq!(my_tab_id(&mut agent), opened[4]);

    // Every tab opened in the background; switching brings one to the front, and works in it.
    let active = |agent: &mut Mcp| -> Vec<i64> {
        let tabs = all_tabs(agent);
        tabs.iter()
            .filter(|t| t["active"] == true)
            .map(|t| t["tabId"].as_i64().unwrap())
            .collect()
    };
    assert!(opened.iter().all(|t| !active(&mut agent).contains(t)));
    let (_, data) = agent.ok("browser_switch_tab", json!({"tabId": opened[7]}));
    assert_eq!(data["active"], true);
    assert_eq!(active(&mut agent), [opened[7]]);
    assert_eq!(my_tab_id(&mut agent), opened[7]);
    let (_, data) = agent.ok("browser_release", json!({}));
    assert_eq!(data["closed"].as_array().unwrap().len(), 21);
}
