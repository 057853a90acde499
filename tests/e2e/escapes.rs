//! Issue 28, finding 9, replayed: page text with a screen clear, a title (OSC 0), a clipboard
//! write (OSC 52), a C1 control and a bidi override reaches the person's terminal through
//! `tabpilot navigate` and `tabpilot read` (and an MCP client's, through a snapshot) as visible
//! escapes, never as the bytes a terminal acts on.

use serde_json::json;

use crate::harness::{run, shared};

fn raw(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}' | '\u{202e}'))
}

#[test]
fn page_text_reaches_a_terminal_escaped() {
    let s = shared();
    let url = s.a("escapes.html");
    let cli = |args: &[&str]| {
        let mut cmd = s.env.command(args);
        cmd.env("TABPILOT_SESSION", "escapes");
        let (ok, out, err) = run(cmd);
        assert!(ok, "{err}");
        out
    };
    let arrived = cli(&["navigate", &url]);
    for out in [
        arrived,
        cli(&["browser_snapshot"]),
        cli(&["browser_read_page"]),
    ] {
        assert!(!raw(&out), "{out:?}");
    }
    let read = cli(&["browser_read_page"]);
    assert!(
        read.contains("Before\\u{1b}[2J\\u{1b}]0;pwned\\u{7}"),
        "{read}"
    );
    assert!(read.contains("\\u{1b}]52;c;ZWNobyBwd25lZA==") && read.contains("\\u{202e}after"));

    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": url}));
    let (snapshot, _) = agent.ok("browser_snapshot", json!({}));
    assert!(!raw(&snapshot), "{snapshot:?}");
}
