//! Two agents never trade tabs, in the configuration users run: every agent here is a `tabpilot
//! mcp` this test process starts, as one MCP client starts its servers (one client name, one
//! working directory, no `TABPILOT_INSTANCE`). Eight of them keep their own tabs through two
//! relay kills, each page counting what it received; a server its client restarts after a crash
//! finds its tab, one whose session the client ended gives its tabs up at once, and a new session
//! after the browser closed works on its first call.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::cdp::{Cdp, browser_url};
use crate::harness::{BIN, Env, Mcp, kill, my_tab, my_tab_id, runtime, sandbox_dir};
use crate::snapshot::ref_of;

const AGENTS: usize = 8;
const ROUNDS: usize = 9;
/// Long enough for a killed relay's successor to start and the browser to rejoin it.
const RECOVERY: Duration = Duration::from_secs(60);

/// `tabpilot mcp --launch --headless` as a client starts it in `dir`, its browser with a
/// DevTools port so the test can read the pages without tabpilot.
fn server(env: &Env, dir: &Path) -> Mcp {
    Mcp::start_with(env, &["--launch", "--headless"], |c| {
        c.current_dir(dir)
            .env("TABPILOT_CHROMIUM_ARGS", "--remote-debugging-port=0")
            .env("TABPILOT_CONNECT_WAIT_MS", RECOVERY.as_millis().to_string());
    })
}

/// What one agent was told of its clicks.
#[derive(Default, Debug)]
struct Told {
    done: usize,
    unknown: usize,
    other: BTreeMap<String, usize>,
}

impl Told {
    fn note(&mut self, result: &Value) {
        let data = &result["structuredContent"];
        match data["outcome"].as_str() {
            Some("done") if result["isError"] != true => self.done += 1,
            Some("unknown") => self.unknown += 1,
            outcome => {
                let code = data["error"]["code"].as_str().unwrap_or("none");
                *self.other.entry(format!("{outcome:?} {code}")).or_default() += 1;
            }
        }
    }
}

/// The clicks each agent's page received, as the pages keep them (tests/fixtures/load.html:
/// localStorage `load:AGENT:TAB`, counted in whichever tab a click landed, by that tab's first
/// owner).
fn clicks_received(env: &Env, origin: &str) -> BTreeMap<String, u64> {
    let data_dir = env.state_dir.join("profiles/managed/data");
    runtime().block_on(async {
        let mut cdp = Cdp::connect(&browser_url(&data_dir, Duration::from_secs(15))).await;
        let pages = cdp.pages().await.unwrap();
        let (target, _) = pages
            .iter()
            .find(|(_, url)| url.starts_with(origin))
            .expect("a page of the fixtures' origin");
        let session = cdp.attach(target).await.unwrap();
        let counts = cdp
            .eval(
                &session,
                "JSON.stringify(Object.keys(localStorage)\
                 .filter((k) => k.startsWith('load:'))\
                 .reduce((by, k) => { const owner = k.split(':')[1]; \
                   by[owner] = (by[owner] || 0) + JSON.parse(localStorage[k]).clicks; \
                   return by; }, {}))",
            )
            .await
            .unwrap();
        serde_json::from_str(counts.as_str().unwrap()).unwrap()
    })
}

#[test]
fn eight_agents_of_one_client_in_one_directory_keep_their_tabs_through_two_relay_kills() {
    let env = Env::fresh("identity-eight");
    let fixtures = crate::fixtures::serve(env.first_port);
    let dir = sandbox_dir("identity-eight");
    let mut agents: Vec<(Mcp, String, i64, Told)> = (0..AGENTS)
        .map(|n| {
            let mut agent = server(&env, &dir);
            let url = format!("{}/load.html?agent=a{n}", fixtures.a);
            let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
            let press = ref_of(&snap, "button", "Count me");
            let tab = my_tab_id(&mut agent);
            (agent, press, tab, Told::default())
        })
        .collect();

    for round in 0..ROUNDS {
        if round == ROUNDS / 3 || round == 2 * ROUNDS / 3 {
            let relay = env.relay_pid();
            kill(relay);
            env.new_relay(relay, RECOVERY);
        }
        for (agent, press, _, told) in &mut agents {
            told.note(&agent.call("browser_click", json!({"ref": press})));
        }
    }

    let received = clicks_received(&env, &fixtures.a);
    for (n, (agent, _, tab, told)) in agents.iter_mut().enumerate() {
        let mine = my_tab(agent);
        let (now, url) = (
            mine["tabId"].as_i64().unwrap(),
            mine["url"].as_str().unwrap(),
        );
        assert_eq!(now, *tab, "agent {n} moved off its tab: {told:?}");
        assert!(
            url.ends_with(&format!("agent=a{n}")),
            "agent {n} is on {url}"
        );
        let got = received.get(&format!("a{n}")).copied().unwrap_or(0) as usize;
        assert!(
            got >= told.done && got <= told.done + told.unknown,
            "agent {n}'s page counted {got} clicks; it was told {told:?}: {received:?}"
        );
        assert!(
            told.done > 0,
            "agent {n} never got a click through: {told:?}"
        );
    }
    eprintln!(
        "identity: {AGENTS} agents, 2 relay kills: {:?}",
        agents.iter().map(|a| &a.3).collect::<Vec<_>>()
    );
}

#[test]
fn a_server_its_client_restarts_finds_its_tab_and_a_new_one_after_the_browser_closed_starts_clean()
{
    let env = Env::fresh("identity-restart");
    let fixtures = crate::fixtures::serve(env.first_port);
    let dir = sandbox_dir("identity-restart");
    let page = |n: &str| format!("{}/load.html?agent={n}", fixtures.a);
    // Another client's agent, connected throughout: the relay, and its books, stay up.
    let mut watcher = Mcp::start(&env, &[]);
    watcher.ok("browser_status", json!({}));

    // The client's first server launches the browser; its second works beside it.
    let mut keeper = server(&env, &dir);
    keeper.ok("browser_navigate", json!({"url": page("keeper")}));
    let kept = my_tab_id(&mut keeper);
    let mut first = server(&env, &dir);
    first.ok("browser_navigate", json!({"url": page("first")}));
    let tab = my_tab_id(&mut first);

    // The second crashes (SIGKILL) and its client starts it again: back in its tab.
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    let mut again = server(&env, &dir);
    let found = my_tab(&mut again);
    assert_eq!(
        (&found["tabId"], &found["url"]),
        (&json!(tab), &json!(page("first")))
    );
    assert_eq!(
        my_tab_id(&mut keeper),
        kept,
        "the agent beside it lost its tab"
    );

    // One ends its session (its client closes its input): its tabs are given up at once. The
    // other crashes, and its browser dies with it. The client's next session in this directory
    // (the crashed one's key, its books still in the relay, their browser gone) navigates on its
    // very first call, in a browser launched anew.
    drop(again);
    let listed = watcher.ok("browser_list_tabs", json!({})).1;
    let open: Vec<&Value> = listed["tabs"].as_array().unwrap().iter().collect();
    assert!(
        open.iter().all(|t| t["tabId"] != tab),
        "the ended session's tab is still open: {open:?}"
    );
    keeper.child.kill().unwrap();
    keeper.child.wait().unwrap();
    let deadline = std::time::Instant::now() + RECOVERY;
    while !watcher.ok("browser_status", json!({})).1["browsers"]
        .as_array()
        .is_some_and(Vec::is_empty)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the browser never closed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut next = server(&env, &dir);
    let r = next.call(
        "browser_navigate",
        json!({"url": page("next"), "includeSnapshot": false}),
    );
    assert_ne!(r["isError"], true, "the first call failed: {r}");
    assert_eq!(r["structuredContent"]["outcome"], "done", "{r}");
    assert_eq!(my_tab(&mut next)["url"], page("next"));
    watcher.ok("browser_status", json!({}));
}

/// `tabpilot mcp --launch --headless` in `dir` as a detached job starts it: the shell that
/// starts it exits first, so it begins life adopted (its parent pid 1, or a subreaper), with
/// nothing of its starter to show. Its pid is written to `pid_file`.
fn orphan(env: &Env, dir: &Path, pid_file: &Path) -> Mcp {
    let model = env.command(&[]);
    let mut cmd = std::process::Command::new("sh");
    // The job waits for its starter to be gone (reaped below) before it runs tabpilot, on the
    // starter's input (a shell gives a background job /dev/null otherwise).
    cmd.arg("-c")
        .arg(
            "exec 3<&0; starter=$$; (while kill -0 $starter 2>/dev/null; do sleep 0.01; \
             done; exec \"$0\" mcp --launch --headless <&3 3<&-) & echo $! > \"$PID_FILE\"",
        )
        .arg(BIN)
        .current_dir(dir)
        .env("PID_FILE", pid_file)
        .env("TABPILOT_CONNECT_WAIT_MS", RECOVERY.as_millis().to_string());
    for (k, v) in model.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let mut mcp = Mcp::spawn(cmd);
    mcp.child.wait().expect("the starter exits");
    mcp.initialize("tabpilot-e2e");
    mcp
}

/// Finding 13 of issue 35: two unrelated orphaned servers in one directory share all a server
/// can show (parent pid 1, the directory); the second must not take the first's key, and with
/// it its tab and its page, when the first dies.
#[test]
fn an_orphaned_server_resumes_nothing_of_another_orphan() {
    let env = Env::fresh("identity-orphan");
    let fixtures = crate::fixtures::serve(env.first_port);
    let dir = sandbox_dir("identity-orphan");
    // The browser and the relay's books outlive the first orphan: another agent launched them.
    let mut keeper = server(&env, &dir);
    keeper.ok(
        "browser_navigate",
        json!({"url": format!("{}/load.html?agent=keeper", fixtures.a)}),
    );
    let (status, data) = keeper.ok("browser_status", json!({}));
    assert_eq!(data["identity"], "client", "{status}");

    let pid_file = dir.join("first.pid");
    let mut first = orphan(&env, &dir, &pid_file);
    let (said, status) = first.ok("browser_status", json!({}));
    let page = format!("{}/load.html?agent=first", fixtures.a);
    first.ok("browser_navigate", json!({ "url": page }));
    let tab = my_tab_id(&mut first);
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    kill(pid);

    let mut second = orphan(&env, &dir, &dir.join("second.pid"));
    let tabs = crate::harness::all_tabs(&mut second);
    assert!(
        tabs.iter().all(|t| t["mine"] != true),
        "the second orphan took the first's tab {tab}: {tabs:?}"
    );
    // Each says so.
    assert_eq!(status["identity"], "orphan", "{said}");
    assert!(said.contains("Identity: fresh (orphan"), "{said}");
    let (said, status) = second.ok("browser_status", json!({}));
    assert_eq!(status["identity"], "orphan", "{said}");
}
