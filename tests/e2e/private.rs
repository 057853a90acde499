//! A clean session in a real browser: `browser_new_tab {incognito: true}` answers
//! INCOGNITO_BLOCKED until the person allows the extension in private windows (done here as the
//! person does, in chrome://extensions, over DevTools); then it opens a private window whose tab
//! does not see the profile's cookies, is marked `(private)`, and whose cookie tools address its
//! own jar, while the profile's tabs never see its cookies; the tab lists, the status and the
//! dashboard mark it. A browser of its own: allowing the extension there reloads it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::cdp::{Cdp, browser_url};
use crate::fixtures::serve;
use crate::harness::{Env, Mcp, runtime};
use crate::person::DEVTOOLS_WITHIN;

/// The Cookie header the fixture server got with the agent's tab's request of `echo`.
fn server_saw(agent: &mut Mcp, echo: &str) -> String {
    agent.ok("browser_navigate", json!({"url": echo}));
    agent.ok("browser_read_page", json!({})).0
}

fn names(data: &Value) -> Vec<String> {
    let cookies = data["cookies"].as_array().expect("a cookie list");
    cookies
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

/// Allows the extension in private windows as the person does on its Details page.
fn allow_incognito(env: &Env) {
    let rt = runtime();
    rt.block_on(async {
        let data_dir = env.state_dir.join("profiles/managed/data");
        let mut cdp = Cdp::connect(&browser_url(&data_dir, DEVTOOLS_WITHIN)).await;
        let (_, page) = cdp.open("chrome://extensions", true).await.unwrap();
        let id = tabpilot::shared::extension::id();
        // Chromium reloads the extension to apply it, and keeps a reloaded unpacked extension
        // only in developer mode, which the person has on to have loaded it at all.
        let allow = format!(
            "chrome.developerPrivate.updateProfileConfiguration({{inDeveloperMode: true}}).then(() => \
             chrome.developerPrivate.updateExtensionConfiguration({{extensionId: '{id}', incognitoAccess: true}})).then(() => true)"
        );
        assert_eq!(cdp.eval_loaded(&page, &allow).await, Ok(json!(true)));
    });
}

/// Opens a tab, again while the reloaded extension has not joined the relay yet.
fn new_tab_once_back(agent: &mut Mcp, args: &Value) -> (String, Value) {
    for _ in 0..20 {
        let r = agent.call("browser_new_tab", args.clone());
        if r["isError"] != true {
            return (crate::harness::text(&r), r["structuredContent"].clone());
        }
        let code = r["structuredContent"]["error"]["code"].clone();
        assert!(
            ["NO_BROWSER", "INCOGNITO_BLOCKED"].contains(&code.as_str().unwrap_or("")),
            "{r}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the browser never came back with private windows allowed");
}

#[test]
fn a_private_tab_has_its_own_jar_once_the_person_allows_it_and_is_blocked_before() {
    let env = Env::fresh("private");
    let fixtures = serve(env.first_port);
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_CHROMIUM_ARGS", "--remote-debugging-port=0");
    });
    let echo = format!("{}/echo/cookies", fixtures.a);
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/login.html", fixtures.a)}),
    );

    // Not allowed: refused, saying where the person switches it on, and no tab opened.
    let (code, r) = agent.fails("browser_new_tab", json!({"incognito": true, "url": echo}));
    assert_eq!(code, "INCOGNITO_BLOCKED", "{r}");
    assert!(
        crate::harness::text(&r).contains("Allow in Incognito"),
        "{r}"
    );

    allow_incognito(&env);
    let (text, data) = new_tab_once_back(&mut agent, &json!({"incognito": true, "url": echo}));
    assert_eq!(data["private"], true, "{text}");
    assert!(text.contains("(private)"), "{text}");
    let private_tab = data["tabId"].clone();

    // The private tab's requests carry none of the profile's cookies, and its jar is its own.
    let saw = server_saw(&mut agent, &echo);
    assert!(saw.contains("Cookie header: none"), "{saw}");
    let (text, data) = agent.ok("browser_get_cookies", json!({}));
    assert_eq!(
        (&data["store"], &data["private"]),
        (&json!("1"), &json!(true)),
        "{text}"
    );
    assert!(names(&data).is_empty(), "{text}");
    agent.ok(
        "browser_set_cookie",
        json!({"name": "tp_private", "value": "p"}),
    );
    let saw = server_saw(&mut agent, &echo);
    assert!(
        saw.contains("tp_private=p") && !saw.contains("tp_login"),
        "{saw}"
    );
    let (text, _) = agent.ok("browser_list_tabs", json!({}));
    let line = text
        .lines()
        .find(|l| l.contains(&format!("tab {private_tab} ")))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("(private)"), "{text}");
    let (text, _) = agent.ok("browser_status", json!({}));
    assert!(
        text.contains(&format!("tab {private_tab}* (private)")),
        "{text}"
    );

    // A tab in the profile sees its login and never the private cookie.
    let (_, data) = new_tab_once_back(&mut agent, &json!({"url": echo}));
    assert!(data.get("private").is_none(), "{data}");
    let saw = server_saw(&mut agent, &echo);
    assert!(
        saw.contains("tp_login=") && !saw.contains("tp_private"),
        "{saw}"
    );
    let (text, data) = agent.ok("browser_get_cookies", json!({}));
    assert_eq!(data["store"], "0", "{text}");
    assert!(names(&data).contains(&"tp_login".to_string()), "{text}");
    assert!(!names(&data).contains(&"tp_private".to_string()), "{text}");

    // The dashboard marks it as well, seen by another agent.
    let board = crate::dashboard::Dashboard::start_with(&env, |_| {});
    let mut viewer = Mcp::start(&env, &[]);
    viewer.ok("browser_navigate", json!({"url": board.link}));
    let shown = format!("tab {private_tab} (private) (not current)");
    viewer.ok("browser_wait_for", json!({"text": shown, "timeout": 10000}));
}
