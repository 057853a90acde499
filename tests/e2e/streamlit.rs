//! A real Streamlit app (tests/fixtures/pyapps/streamlit_app.py, served by `streamlit run` from
//! the venv `.ci/run` installs) driven through the MCP tools only, with a client's defaults, as an
//! agent would: its text input (applied on blur), its button and its selectbox, each checked
//! against what the app itself received (the lines it appends to its output file).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};
use crate::pyapps::{AppServer, streamlit};
use crate::snapshot::ref_of;

/// The runs the app recorded since `from` lines, once one of them satisfies `wanted`; fails
/// with all of them when none does within 20 s (the app runs its script after the page's
/// message reaches it over its WebSocket).
fn runs_until(app: &AppServer, from: usize, wanted: impl Fn(&Value) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(app.dir.join("out.jsonl")).unwrap_or_default();
        let runs: Vec<Value> = text
            .lines()
            .skip(from)
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        if runs.iter().any(&wanted) {
            return runs;
        }
        assert!(
            Instant::now() < deadline,
            "the app never received it; its runs: {runs:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// How many runs the app has recorded so far.
fn runs_so_far(app: &AppServer) -> usize {
    let text = std::fs::read_to_string(app.dir.join("out.jsonl")).unwrap_or_default();
    text.lines().count()
}

fn snapshot(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    data["snapshot"].as_str().unwrap().to_string()
}

#[test]
fn a_streamlit_app_gets_the_typed_text_on_the_buttons_click_and_the_option_chosen() {
    streamlit_task(&mut shared().agent(), "managed");
}

/// The Streamlit task, by `agent` in its browser, typing a text that ends with `word`: the text
/// input applied on the button's click, an option chosen, each as the app received it.
pub(crate) fn streamlit_task(agent: &mut Mcp, word: &str) {
    let app = streamlit();
    let started = Instant::now();
    let from = runs_so_far(app);
    agent.ok("browser_navigate", json!({"url": app.origin}));
    // Streamlit draws each widget once its WebSocket is up and the widget's code has loaded
    // (until then it is a skeleton): an agent waits for the ones it needs.
    for label in ["Text to reverse", "Reverse it", "Colour"] {
        agent.ok("browser_wait_for", json!({"text": label}));
    }
    let snap = snapshot(agent);

    let typed = format!("tabpilot {} {word}", std::process::id());
    let reversed: String = typed.chars().rev().collect();
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Text to reverse"), "text": typed}),
    );
    // No Enter: Streamlit applies the input's value when it loses focus, which the click does.
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Reverse it")}),
    );
    let runs = runs_until(app, from, |r| r["reverse"] == true);
    let clicked = runs.iter().find(|r| r["reverse"] == true).unwrap();
    assert_eq!(clicked["text"], typed, "the click's run: {runs:?}");
    agent.ok(
        "browser_wait_for",
        json!({"text": format!("Reversed: {reversed}")}),
    );

    // The selectbox: opened, its options are in the default snapshot, one is chosen.
    let snap = snapshot(agent);
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "combobox", "Colour")}),
    );
    let open = snapshot(agent);
    for colour in ["Red", "Green", "Blue"] {
        ref_of(&open, "option", colour);
    }
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&open, "option", "Blue")}),
    );
    let runs = runs_until(app, from, |r| r["colour"] == "Blue");
    let chosen = runs.iter().find(|r| r["colour"] == "Blue").unwrap();
    assert_eq!(chosen["text"], typed, "the choice's run: {runs:?}");
    agent.ok("browser_wait_for", json!({"text": "Picked: Blue"}));
    eprintln!("the Streamlit task took {:?}", started.elapsed());
}
