//! Leases with a lifecycle, in the shared browser: a lease that lapses, a tab taken by force, a
//! release that closes only what the agent opened, an agent that comes back within the grace
//! period, and tabs picked by address or title. (By place, and the list in pages, need a browser
//! no other test opens tabs in: tests/e2e/browsers.rs.)

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, all_tabs, my_tab_id, shared, text};

/// This agent's leases, as browser_status lists them.
fn my_leases(agent: &mut Mcp) -> Vec<Value> {
    let (_, status) = agent.ok("browser_status", json!({}));
    let you = status["you"].clone();
    let agents = status["agents"].as_array().unwrap();
    let me = agents.iter().find(|a| a["id"] == you);
    let me = me.unwrap_or_else(|| panic!("status lists the asking agent: {status}"));
    me["tabs"].as_array().unwrap().clone()
}

/// The server dies (killed), as a crash does: its client's restart has the grace period.
fn crash(mut agent: Mcp) {
    agent.child.kill().unwrap();
    agent.child.wait().unwrap();
}

fn open(agent: &mut Mcp, url: &str) -> i64 {
    agent.ok(
        "browser_navigate",
        json!({"url": url, "includeSnapshot": false}),
    );
    my_tab_id(agent)
}

#[test]
fn an_idle_lease_lapses_and_the_agent_that_lost_the_tab_hears_so_on_every_call() {
    let s = shared();
    let mut idle = s.agent_with(|c| {
        c.env("TABPILOT_LEASE_TTL_MS", "3000");
    });
    let mut taker = s.agent();
    let tab = open(&mut idle, &s.a("basic.html?lease=lapse"));

    // Held: refused, naming the holder and the ways to take it.
    let (code, r) = taker.fails("browser_select_tab", json!({"tabId": tab}));
    assert_eq!(code, "TAB_CLAIMED");
    let said = text(&r);
    assert!(
        said.contains("tabpilot-e2e") && said.contains("browser_force_claim"),
        "{said}"
    );

    // Idle past its lease time, the lease lapses: the tab stays open, and another may take it.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !my_leases(&mut idle)
        .iter()
        .any(|t| t["tab"] == tab && t["lapsed"] == true)
    {
        assert!(Instant::now() < deadline, "the lease never lapsed");
        std::thread::sleep(Duration::from_millis(250));
    }
    taker.ok("browser_select_tab", json!({"tabId": tab}));
    let (snap, _) = taker.ok("browser_snapshot", json!({}));
    assert!(
        snap.contains("Press me"),
        "the taker works in the page the idle agent left: {snap}"
    );

    // Every page call of the agent that lost it says so, and none lands anywhere else.
    for _ in 0..2 {
        let (code, r) = idle.fails("browser_click", json!({"ref": "e1234"}));
        assert_eq!(code, "LEASE_LOST");
        let said = text(&r);
        assert!(
            said.contains("lapsed") && said.contains(&format!("tab {tab}")),
            "{said}"
        );
    }
    assert!(idle.holds_no_tab(), "the agent was moved to another tab");
    // Picking a tab ends it.
    idle.ok("browser_new_tab", json!({}));
    idle.ok("browser_snapshot", json!({}));
    taker.ok("browser_close_tab", json!({}));
}

#[test]
fn a_forced_claim_takes_a_held_tab_and_tells_its_holder_who_took_it_and_why() {
    let s = shared();
    let mut holder = s.agent();
    let mut taker = s.agent();
    let tab = open(&mut holder, &s.a("basic.html?lease=force"));

    let (code, _) = taker.fails("browser_force_claim", json!({"tabId": tab, "reason": "  "}));
    assert_eq!(
        code, "BAD_ARGS",
        "a reason is required: the holder is told it"
    );
    let reason = "the person asked me to finish the form";
    let (said, data) = taker.ok(
        "browser_force_claim",
        json!({"tabId": tab, "reason": reason}),
    );
    assert_eq!(data["from"], "tabpilot-e2e", "{said}");
    assert_eq!(my_tab_id(&mut taker), tab);
    let (snap, _) = taker.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Press me"), "{snap}");

    let (code, r) = holder.fails("browser_snapshot", json!({}));
    assert_eq!(code, "LEASE_LOST");
    let said = text(&r);
    assert!(
        said.contains(reason) && said.contains("tabpilot-e2e"),
        "{said}"
    );
    // The list says who holds it now.
    let listed = all_tabs(&mut holder);
    let entry = listed.iter().find(|t| t["tabId"] == tab).unwrap();
    assert!(
        entry["holder"]
            .as_str()
            .unwrap()
            .starts_with("tabpilot-e2e ("),
        "{entry}"
    );
    taker.ok("browser_close_tab", json!({}));
}

#[test]
fn a_release_closes_the_tabs_the_agent_opened_and_leaves_the_ones_it_was_handed() {
    let s = shared();
    // A tab another agent opened and let go of without closing: free, still open.
    let mut giver = s.agent();
    let handed = open(&mut giver, &s.a("page2.html?lease=handed"));
    let (_, data) = giver.ok("browser_release", json!({"closeOpened": false}));
    assert_eq!(data["closed"], json!([]));

    let mut agent = s.agent();
    let opened = open(&mut agent, &s.a("basic.html?lease=opened"));
    agent.ok("browser_select_tab", json!({"tabId": handed}));
    let leases = my_leases(&mut agent);
    let lease = |tab: i64| leases.iter().find(|t| t["tab"] == tab).cloned().unwrap();
    assert_eq!(lease(opened)["opened"], true);
    assert_eq!(
        (
            lease(handed)["opened"].clone(),
            lease(handed)["current"].clone()
        ),
        (json!(false), json!(true))
    );

    let (_, data) = agent.ok("browser_release", json!({}));
    assert_eq!(data["closed"], json!([opened]));
    let open_now: Vec<Value> = s.tabs().iter().map(|t| t["tabId"].clone()).collect();
    assert!(
        open_now.contains(&json!(handed)),
        "the handed tab was closed"
    );
    assert!(
        !open_now.contains(&json!(opened)),
        "the opened tab is still open"
    );
    assert!(my_leases(&mut agent).is_empty());
    // Its next page call opens a fresh tab: released is not lost.
    agent.ok("browser_snapshot", json!({}));
    let fresh = my_tab_id(&mut agent);
    assert!(fresh != handed && fresh != opened);
    agent.ok("browser_close_tab", json!({}));
    let mut closer = s.agent();
    closer.ok("browser_close_tab", json!({"tabId": handed}));
}

#[test]
fn an_agent_that_comes_back_within_the_grace_period_finds_its_tab() {
    let s = shared();
    let instance = format!("grace-{}", std::process::id());
    let with_instance = |c: &mut std::process::Command| {
        c.env("TABPILOT_INSTANCE", &instance);
    };
    let mut first = s.agent_with(with_instance);
    let tab = open(&mut first, &s.a("basic.html?lease=grace"));
    crash(first);

    let mut again = s.agent_with(with_instance);
    assert_eq!(my_tab_id(&mut again), tab, "it came back to another tab");
    let (snap, _) = again.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Press me"), "{snap}");
    again.ok("browser_close_tab", json!({}));
}

#[test]
fn agents_of_one_client_in_one_directory_never_share_tabs_and_one_that_restarts_finds_its_own() {
    let s = shared();
    let dir = crate::harness::sandbox_dir("same-client");
    // The identity by default: the client process (this one) and the working directory.
    let default_identity = |c: &mut std::process::Command| {
        c.current_dir(&dir);
    };
    let mut one = s.agent_with(default_identity);
    let mut two = s.agent_with(default_identity);
    let tab_one = open(&mut one, &s.a("basic.html?lease=one"));
    let tab_two = open(&mut two, &s.a("page2.html?lease=two"));
    assert_ne!(tab_one, tab_two, "two live agents shared books");

    crash(one);
    let mut back = s.agent_with(default_identity);
    assert_eq!(
        my_tab_id(&mut back),
        tab_one,
        "the restarted agent did not find its tab"
    );
    assert_eq!(my_tab_id(&mut two), tab_two);
    back.ok("browser_close_tab", json!({}));

    // A session its client ends gives its tabs up at once: the next server of this client in
    // this directory starts with none, and the tab it opened is closed.
    drop(two);
    let mut after = s.agent_with(default_identity);
    assert!(after.holds_no_tab(), "it took up the ended session's tab");
    let open_now: Vec<Value> = s.tabs().iter().map(|t| t["tabId"].clone()).collect();
    assert!(
        !open_now.contains(&json!(tab_two)),
        "the ended session's tab is open"
    );
}

#[test]
fn a_tab_is_picked_by_address_or_title_and_several_matches_are_listed() {
    let s = shared();
    let mut agent = s.agent();
    let marker = format!("pick-{}", std::process::id());
    let mut opened = Vec::new();
    for n in 1..=3 {
        let url = s.a(&format!("basic.html?{marker}={n}"));
        let (_, data) = agent.ok("browser_new_tab", json!({"url": url}));
        opened.push(data["tabId"].as_i64().unwrap());
    }
    let title = format!("{marker} title");
    agent.ok(
        "browser_eval",
        json!({"expression": format!("document.title = {title:?}")}),
    );

    let (code, r) = agent.fails("browser_select_tab", json!({"url": format!("*{marker}=*")}));
    assert_eq!(code, "ELEMENT_AMBIGUOUS");
    let said = text(&r);
    assert!(
        opened.iter().all(|t| said.contains(&format!("tab {t} "))),
        "{said}"
    );
    // The code also serves elements, whose recovery (a snapshot) would not pick a tab.
    let recover = &r["structuredContent"]["error"]["recover"];
    assert!(
        recover.as_str().unwrap().starts_with("browser_select_tab"),
        "{recover}"
    );

    agent.ok("browser_select_tab", json!({"url": format!("*{marker}=1")}));
    assert_eq!(my_tab_id(&mut agent), opened[0]);
    agent.ok("browser_select_tab", json!({"title": title}));
    assert_eq!(my_tab_id(&mut agent), opened[2]);

    let (code, r) = agent.fails("browser_select_tab", json!({"url": "*no-tab-has-this*"}));
    assert_eq!(code, "NOT_FOUND");
    assert!(text(&r).ends_with("Recover: call browser_list_tabs"), "{r}");
    let (code, _) = agent.fails("browser_select_tab", json!({}));
    assert_eq!(code, "BAD_ARGS");
    let (code, _) = agent.fails(
        "browser_select_tab",
        json!({"tabId": opened[0], "title": title}),
    );
    assert_eq!(code, "BAD_ARGS");
    let (_, data) = agent.ok("browser_release", json!({}));
    let mut closed: Vec<i64> = serde_json::from_value(data["closed"].clone()).unwrap();
    closed.sort();
    assert_eq!(closed, opened);
}
