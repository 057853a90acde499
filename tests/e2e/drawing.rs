//! The agent's page draws as a page in front does, in the managed browser and in the person's:
//! visible to itself, its animation frames run and its transitions end, while the person's
//! focus and the tab they look at stay where they were. An app that waits for these (JupyterLab
//! leaves its splash screen on an animation frame) would otherwise never start.

use std::time::Duration;

use serde_json::json;

use crate::cdp::{Cdp, browser_url};
use crate::desktop::Desktop;
use crate::fixtures::serve;
use crate::harness::{Env, Kill, Mcp, runtime, shared};
use crate::jupyter::notebook_task;
use crate::person::{DEVTOOLS_WITHIN, browsers, pair};
use crate::streamlit::streamlit_task;

/// What a page tells of itself: whether it is visible, and whether it has the focus.
pub(crate) const SEEN: &str = "`${document.visibilityState} ${document.hasFocus()}`";

/// What the render page shows once it has drawn as a page in front.
const DRAWN: [&str; 3] = ["Visibility: visible", "Frames: ten", "Transition: ended"];

/// The agent's page at `url` has drawn: it waits for the transition's end and the tenth frame,
/// then reads the page. (The transition's 150 ms hold about ten frames at 60 a second: on a busy
/// machine fewer are drawn in that time, and the tenth comes after the end; it failed so once.)
fn drew(agent: &mut Mcp, url: &str) {
    agent.ok("browser_navigate", json!({"url": url}));
    for drawn in ["Transition: ended", "Frames: ten"] {
        agent.ok("browser_wait_for", json!({"text": drawn, "timeout": 5000}));
    }
    let (snap, _) = agent.ok("browser_snapshot", json!({"verbose": true}));
    for drawn in DRAWN {
        assert!(snap.contains(drawn), "{drawn:?} not in:\n{snap}");
    }
}

#[test]
fn the_agents_tab_in_the_managed_browser_is_visible_and_draws() {
    let s = shared();
    drew(&mut s.agent(), &s.a("render.html"));
}

/// The person's own browser, headed on `desktop`, the extension loaded by hand (not launched by
/// tabpilot, none of its flags but what any Chromium here needs) and paired through its popup
/// with the code `tabpilot pair` printed, once `agent` sees it; and DevTools on it.
pub(crate) fn headed_persons_browser(
    rt: &tokio::runtime::Runtime,
    env: &Env,
    desktop: &Desktop,
    agent: &mut Mcp,
) -> (Kill, Cdp) {
    let (code, _) = pair(env);
    let (ok, out, err) = env.cli(&["extension", "path"]);
    assert!(ok, "{err}");
    let exe = tabpilot::controller::launch::find_chromium().expect("a Chromium for the tests");
    let profile = env.state_dir.join("persons-browser");
    let mut cmd = tabpilot::controller::launch::chromium_command(
        &exe,
        &profile,
        std::path::Path::new(out.trim()),
        false,
        "about:blank",
    );
    cmd.arg("--remote-debugging-port=0");
    desktop.apply(&mut cmd);
    let browser = Kill(cmd.spawn().unwrap());
    let mut cdp = rt.block_on(Cdp::connect(&browser_url(&profile, DEVTOOLS_WITHIN)));
    assert_eq!(
        rt.block_on(cdp.pair_in_popup(env.first_port, &code)),
        "Paired."
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while browsers(agent).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the browser never joined"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (browser, cdp)
}

/// The person's own headed browser on a desktop (Xvfb), the extension loaded by hand and paired:
/// the agent's page draws, and the person's tab is still the one in front of the window with
/// focus, visible, with the focus, throughout.
#[test]
fn in_the_persons_browser_the_agents_page_draws_and_the_persons_tab_keeps_the_focus() {
    let Some(desktop) = Desktop::start("person-draws") else {
        return;
    };
    let env = Env::fresh("person-draws");
    let fixtures = serve(env.first_port);
    let mut agent = Mcp::start(&env, &[]);
    let rt = runtime();
    let (_browser, mut cdp) = headed_persons_browser(&rt, &env, &desktop, &mut agent);
    // The person reads a page of their own, in front.
    let persons = format!("{}/basic.html", fixtures.b);
    let (_, session) = rt.block_on(cdp.open(&persons, false)).unwrap();
    let seen = |cdp: &mut Cdp| rt.block_on(cdp.eval_loaded(&session, SEEN)).unwrap();
    assert_eq!(seen(&mut cdp), "visible true", "the person's page before");

    drew(&mut agent, &format!("{}/render.html", fixtures.a));
    assert_eq!(seen(&mut cdp), "visible true", "the person's page after");
    let (_, data) = agent.ok("browser_list_tabs", json!({}));
    let mine = data["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["mine"] == true)
        .cloned()
        .expect("the agent's tab");
    assert_eq!(mine["active"], false, "the agent's tab took the focus");
}

/// A navigation to an app that shows a splash screen or loading skeletons after its load waits
/// for the app to start, and when it never does, says the page is still drawing, not settled.
#[test]
fn a_navigation_waits_out_a_splash_screen_and_says_when_one_stays() {
    let s = shared();
    let mut agent = s.agent();
    for page in ["splash.html", "splash.html?skeleton"] {
        let (text, _) = agent.ok("browser_navigate", json!({"url": s.a(page)}));
        assert!(text.contains("settled in"), "{text}");
        assert!(text.contains("button \"New notebook\""), "{text}");
    }
    let (text, data) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("splash.html?forever")}),
    );
    assert!(
        text.contains("still drawing") && text.contains("a splash screen covers it"),
        "{text}"
    );
    assert!(!text.contains("settled in"), "{text}");
    assert_eq!(data["drawing"], "a splash screen covers it", "{data}");
}

/// The real apps' tasks in the person's own headed browser, not launched by tabpilot: the
/// Streamlit app and JupyterLab's notebook pass with no browser_switch_tab and no advanced mode,
/// and the person's tab stays in front, visible, with the focus, before, between and after.
#[test]
fn in_the_persons_browser_the_real_apps_tasks_pass_and_the_persons_tab_keeps_the_focus() {
    let Some(desktop) = Desktop::start("person-apps") else {
        return;
    };
    let env = Env::fresh("person-apps");
    let fixtures = serve(env.first_port);
    let mut agent = Mcp::start(&env, &[]);
    let rt = runtime();
    let (_browser, mut cdp) = headed_persons_browser(&rt, &env, &desktop, &mut agent);
    let persons = format!("{}/basic.html", fixtures.b);
    let (_, session) = rt.block_on(cdp.open(&persons, false)).unwrap();
    let mut seen = |when: &str| {
        let said = rt.block_on(cdp.eval_loaded(&session, SEEN)).unwrap();
        assert_eq!(said, "visible true", "the person's page {when}");
    };
    seen("before");
    streamlit_task(&mut agent, "person");
    seen("after the Streamlit task");
    notebook_task(&mut agent, "persons.ipynb");
    seen("after the notebook task");
    let (_, data) = agent.ok("browser_status", json!({}));
    assert!(!data.to_string().contains("\"advanced\":true"), "{data}");
}
