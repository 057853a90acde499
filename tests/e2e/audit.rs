//! The audit trail end to end: one owner-only line per call of a scripted session (refused calls
//! included), with the page's address and what the agent typed as lengths, and `tabpilot audit`
//! printing it.

use std::path::Path;

use serde_json::{Value, json};

use crate::harness::{mode, run, shared, text};
use crate::snapshot::ref_of;

/// The trail's records, one per line (documents.rs and more_tools.rs read it too).
pub(crate) fn lines_of(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON record"))
        .collect()
}

#[test]
fn every_call_is_one_owner_only_line_with_what_was_typed_as_lengths() {
    let s = shared();
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-audit", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("trail").join("audit.jsonl");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &file);
    });
    let typed = "typed-in-the-name-field";
    let notes = "filled notes";

    // The scripted session: five calls, the last one refused.
    let (status, _) = agent.ok("browser_status", json!({}));
    assert!(
        status.contains(&format!("audit {}", file.display())),
        "{status}"
    );
    let url = s.a("fields.html");
    let (snap, _) = agent.ok("browser_navigate", json!({"url": url}));
    let name = ref_of(&snap, "textbox", "Name");
    agent.ok(
        "browser_type",
        json!({"ref": name, "element": "Name field", "text": typed}),
    );
    agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": ref_of(&snap, "textbox", "Notes"), "value": notes}]}),
    );
    let (code, _) = agent.fails("browser_click", json!({"ref": "not a ref"}));
    assert_eq!(code, "BAD_ARGS");

    // One line per call, in order, in an owner-only file in a folder made owner-only.
    assert_eq!((mode(&file), mode(file.parent().unwrap())), (0o600, 0o700));
    let raw = std::fs::read_to_string(&file).unwrap();
    assert!(!raw.contains(typed) && !raw.contains(notes), "{raw}");
    let lines = lines_of(&file);
    let tools: Vec<&str> = lines.iter().map(|l| l["tool"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        [
            "browser_status",
            "browser_navigate",
            "browser_type",
            "browser_fill_form",
            "browser_click"
        ]
    );
    for line in &lines {
        assert_eq!(line["agent"]["client"], "tabpilot-e2e", "{line}");
        assert!(
            line["agent"]["session"]
                .as_str()
                .unwrap()
                .starts_with("agent:")
        );
    }
    let (status, navigate, typed_line, filled, refused) =
        (&lines[0], &lines[1], &lines[2], &lines[3], &lines[4]);
    // Before any page there is none; after, each line says where the call ran.
    assert!(
        status.get("url").is_none() && status.get("tab").is_none(),
        "{status}"
    );
    assert_eq!(navigate["args"]["url"], json!(url));
    assert_eq!(typed_line["url"], json!(url));
    assert_eq!(typed_line["origin"], json!(s.fixtures.a));
    assert!(typed_line["tab"].is_i64() && typed_line["browser"].is_string());
    assert_eq!(
        typed_line["target"],
        json!({"ref": name, "element": "Name field"})
    );
    assert_eq!(typed_line["args"]["text"], json!({"len": typed.len()}));
    assert_eq!(typed_line["outcome"], "done");
    assert_eq!(
        filled["args"]["fields"][0]["value"],
        json!({"len": notes.len()})
    );
    assert_eq!(
        (&refused["outcome"], &refused["code"]),
        (&json!("refused"), &json!("BAD_ARGS"))
    );
    assert_eq!(refused["target"]["ref"], "not a ref");
    assert!(
        lines
            .iter()
            .all(|l| l["ms"].is_u64() && l["time"].is_string())
    );

    // The command line's calls go in too, under its session.
    let cli = |args: &[&str]| {
        let mut cmd = s.env.command(args);
        cmd.env("TABPILOT_AUDIT_FILE", &file);
        let (ok, out, err) = run(cmd);
        assert!(ok, "{err}");
        out
    };
    cli(&["browser_status"]);
    let audit = |args: &[&str]| cli(&[&["audit"], args].concat());
    let tail = audit(&["--tail", "5"]);
    let shown: Vec<&str> = tail.lines().collect();
    assert_eq!(shown.len(), 5, "{tail}");
    assert!(shown[0].contains("browser_navigate"), "{tail}");
    assert!(shown[1].contains("browser_type done"), "{tail}");
    assert!(
        shown[1].contains(&format!("text=({} chars)", typed.len())),
        "{tail}"
    );
    assert!(
        shown[1].contains(&url) && shown[1].contains("\"Name field\""),
        "{tail}"
    );
    assert!(
        shown[3].contains("browser_click refused BAD_ARGS"),
        "{tail}"
    );
    assert!(shown[4].contains("cli cli browser_status done"), "{tail}");
    assert!(!tail.contains(typed) && !tail.contains(notes));

    // --json: the lines as stored; --agent and --since pick them.
    let json_lines = audit(&["--json"]);
    assert_eq!(json_lines, std::fs::read_to_string(&file).unwrap());
    assert_eq!(audit(&["--agent", "cli"]).lines().count(), 1);
    assert_eq!(audit(&["--agent", "tabpilot-e2e"]).lines().count(), 5);
    assert_eq!(audit(&["--agent", "nobody"]).lines().count(), 0);
    assert_eq!(audit(&["--since", "10m"]).lines().count(), 6);
    assert_eq!(
        audit(&["--since", "2999-01-01T00:00:00Z"]).lines().count(),
        0
    );
}

#[test]
fn audit_off_records_nothing_and_says_so() {
    let s = shared();
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-audit-off", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("audit.jsonl");
    let mut agent = s.agent_with(|cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &file)
            .env("TABPILOT_AUDIT", "off");
    });
    let (status, data) = agent.ok("browser_status", json!({}));
    assert!(status.contains("audit off"), "{status}");
    assert_eq!(data["policy"]["audit"], "off");
    let r = agent.call("browser_click", json!({"ref": "not a ref"}));
    assert_eq!(r["isError"], true, "{}", text(&r));
    assert!(!file.exists() && !dir.exists());
}

/// Issue 28, findings 6 and 7, replayed: an agent's argument is recorded before it is checked,
/// so a one-key object that is not a length, and keys that carry terminal escapes and bidi
/// characters, reach the trail. `tabpilot audit` prints every line after it, escaped, and ends
/// well.
#[test]
fn any_argument_an_agent_sends_leaves_the_person_s_view_of_the_trail_whole_and_escaped() {
    let env = crate::harness::Env::fresh("audit-shapes");
    let file = env.state_dir.join("trail.jsonl");
    let mut agent = crate::harness::Mcp::start_with(&env, &[], |cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &file);
    });
    let forged = "\u{1b}[2J\u{1b}]0;pwned\u{7}\u{1b}]52;c;aGk=\u{7}\n2099-01-01 person ok";
    agent.fails("browser_click", json!({"ref": {"x": 1}}));
    agent.fails(
        "browser_click",
        json!({"ref": {forged: {"len": "no"}, "b\u{202e}": 1}}),
    );
    agent.fails("browser_click", json!({"ref": "not a ref"}));
    drop(agent);
    let mut cmd = env.command(&["audit"]);
    cmd.env("TABPILOT_AUDIT_FILE", &file);
    let (ok, out, err) = run(cmd);
    assert!(ok, "tabpilot audit failed: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[2].contains("not a ref"), "{out}");
    assert!(lines[0].contains("ref={x=1}"), "{out}");
    assert!(
        !out.chars()
            .any(|c| c != '\n' && tabpilot::shared::terminal::is_unsafe(c)),
        "{out:?}"
    );
}
