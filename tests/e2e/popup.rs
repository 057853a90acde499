//! The extension's popup, as a person uses it: the agents working in this browser, each with its
//! tab and how long it has idled, a Release button per agent, and this browser's label.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::Cdp;
use crate::harness::{Env, Mcp, runtime};
use crate::person::{browsers, paired_browser};

impl Cdp {
    /// What a person does: opens the popup, reads the entry of agent `id`, clicks its Release;
    /// returns (the entry as shown, what the popup said, the agent list after).
    async fn release_in_popup(&mut self, id: &str) -> Value {
        self.in_popup(
            "",
            &format!("document.querySelector('li.agent[data-agent=\"{id}\"]')"),
            &format!(
                "const item = document.querySelector('li.agent[data-agent=\"{id}\"]');
                 const shown = item ? item.textContent : document.getElementById('agents').textContent;
                 item?.querySelector('button').click();
                 await wait(() => document.getElementById('release-result').textContent);
                 await wait(() => !document.querySelector('li.agent[data-agent=\"{id}\"]'));
                 return {{ shown, said: document.getElementById('release-result').textContent,
                          after: document.getElementById('agents').textContent }};"
            ),
        )
        .await
    }

    /// What a person does: types a label for this browser in the popup and saves it.
    async fn label_in_popup(&mut self, label: &str) -> String {
        // Its script has run once it says how the link is.
        let said = self
            .in_popup(
                "",
                "document.getElementById('state').textContent !== '…'",
                &format!(
                    "document.getElementById('label').value = {label:?};
                     document.getElementById('label-button').click();
                     await wait(() => document.getElementById('label-result').textContent);
                     return document.getElementById('label-result').textContent;"
                ),
            )
            .await;
        said.as_str().unwrap_or("").to_string()
    }
}

#[test]
fn the_popup_shows_an_agents_tab_and_a_person_releases_it() {
    let env = Env::fresh("popup-release");
    let fixtures = crate::fixtures::serve(env.first_port);
    let mut agent = Mcp::start(&env, &[]);
    let rt = runtime();
    let (_browser, mut cdp) = paired_browser(&rt, &env, "popup-profile", &mut agent);
    agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/basic.html", fixtures.a)}),
    );
    agent.ok("browser_advanced_mode", json!({"mode": "on"}));
    let (_, status) = agent.ok("browser_status", json!({}));
    let holding: Vec<&Value> = status["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["tabs"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(holding.len(), 1, "{status}");
    let (id, tab) = (
        holding[0]["id"].as_str().unwrap().to_string(),
        holding[0]["tabs"][0]["tab"].as_i64().unwrap(),
    );

    let r = rt.block_on(cdp.release_in_popup(&id));
    let shown = r["shown"].as_str().unwrap_or_default();
    for part in [
        format!("tabpilot-e2e ({id})"),
        format!("tab {tab}: Basic fixture, idle "),
        // The person sees the debugger the agent attached.
        " s, debugger attached (advanced mode)".into(),
    ] {
        assert!(shown.contains(&part), "{part:?} not in the popup: {r}");
    }
    assert!(
        r["said"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("Released tabpilot-e2e ({id}); closed 1 tab(s)")),
        "{r}"
    );
    assert_eq!(r["after"], "No agent holds a tab in this browser.", "{r}");

    // The agent is told, and not moved to another tab.
    let (code, result) = agent.fails("browser_snapshot", json!({}));
    assert_eq!(code, "LEASE_LOST", "{result}");
    let message = result["structuredContent"]["error"]["message"].to_string();
    assert!(
        message.contains(&format!("tab {tab} was released by a person")),
        "{message}"
    );
    let pages = rt.block_on(cdp.pages()).unwrap();
    assert!(
        pages.iter().all(|(_, url)| !url.contains("basic.html")),
        "the tab the agent opened is still open: {pages:?}"
    );
}

#[test]
fn a_label_set_in_the_popup_is_the_one_agents_see() {
    let env = Env::fresh("popup-label");
    let mut agent = Mcp::start(&env, &[]);
    let rt = runtime();
    let (_browser, mut cdp) = paired_browser(&rt, &env, "label-profile", &mut agent);
    let said = rt.block_on(cdp.label_in_popup("  attic desk  "));
    assert_eq!(said, "Saved: agents now see \"attic desk\".");
    // The popup opens from the keyboard too: the browser took the extension's suggested key.
    let key = rt.block_on(cdp.in_popup(
        "",
        "true",
        "const all = await chrome.commands.getAll();
         return all.find((c) => c.name === '_execute_action')?.shortcut || '';",
    ));
    assert_eq!(key, "Ctrl+Shift+Y");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let labels: Vec<Value> = browsers(&mut agent)
            .iter()
            .map(|b| b["label"].clone())
            .collect();
        if labels == [json!("attic desk")] {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the relay never saw the label: {labels:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    agent.ok("browser_select_browser", json!({"browser": "attic desk"}));
}
