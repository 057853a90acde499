//! JavaScript dialogs: the policy for the next one, an open one blocking the page, and answering it.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::{Env, Mcp, shared, text};
use crate::snapshot::ref_of;

fn status(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_find", json!({"selector": "#out"}));
    data["matches"][0].as_str().unwrap().to_string()
}

#[test]
fn a_policy_answers_the_next_dialog_or_every_one_and_the_report_lists_them() {
    let s = shared();
    let mut agent = s.agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("dialogs.html")}));
    let confirm = ref_of(&snap, "button", "Confirm");
    let prompt = ref_of(&snap, "button", "Prompt");

    agent.ok(
        "browser_handle_dialog",
        json!({"action": "accept", "promptText": "Ada"}),
    );
    agent.ok("browser_click", json!({"ref": prompt}));
    assert!(
        status(&mut agent).contains("prompt: Ada"),
        "{}",
        status(&mut agent)
    );
    // It was for the next dialog only: this one is left to the browser, which (headless, with
    // no one to show it to) dismisses it, and the report says what it answered.
    agent.ok("browser_click", json!({"ref": confirm}));
    assert!(status(&mut agent).contains("confirm: false"));
    agent.ok(
        "browser_handle_dialog",
        json!({"action": "accept", "once": false}),
    );
    agent.ok("browser_click", json!({"ref": confirm}));
    agent.ok("browser_click", json!({"ref": confirm}));
    assert!(
        status(&mut agent).contains("confirm: false; confirm: true; confirm: true"),
        "{}",
        status(&mut agent)
    );

    let (report, data) = agent.ok("browser_handle_dialog", json!({}));
    assert!(
        report.starts_with("The every dialog will be accepted"),
        "{report}"
    );
    let recent = data["recent"].as_array().unwrap();
    assert_eq!(recent.len(), 4, "{data}");
    assert_eq!(recent[0]["kind"], "prompt");
    assert_eq!(recent[0]["action"], "accepted");
    assert_eq!(recent[1]["action"], "left to the person");
    assert_eq!(recent[1]["answer"], false);
    assert_eq!(recent[3]["action"], "accepted");
    agent.ok("browser_handle_dialog", json!({"action": "leave"}));
    let (code, _) = agent.fails("browser_handle_dialog", json!({"promptText": "x"}));
    assert_eq!(code, "BAD_ARGS");
}

/// Stops a child with SIGTERM, so Xvfb removes its display's lock file on the way out.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        // SAFETY: signalling a child this test started.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// A native dialog blocks only where someone could see it: a tab in front, in a headed browser
/// (here on a virtual X display); Chrome dismisses one from a background tab itself. The click
/// that opens it says DIALOG_OPEN instead of hanging, and later calls are refused, not hung.
#[test]
fn an_open_dialog_in_a_tab_in_front_says_dialog_open_instead_of_hanging() {
    let s = shared();
    // A display no other X server (or a stale lock of one) holds.
    let free = (90 + std::process::id() % 400..)
        .find(|n| !std::path::Path::new(&format!("/tmp/.X{n}-lock")).exists())
        .unwrap();
    let display = format!(":{free}");
    let xvfb = Command::new("Xvfb")
        .args([
            display.as_str(),
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb (Debian's xvfb) for the headed-browser test; .ci/run installs it");
    let _xvfb = Kill(xvfb);
    let env = Env::fresh("dialogs-headed");
    let mut launch = env.command(&["launch", "--isolated"]);
    let out = launch.env("DISPLAY", &display).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let pid: i32 = stdout
        .split("(pid ")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .unwrap()
        .parse()
        .unwrap();
    struct KillPid(i32);
    impl Drop for KillPid {
        fn drop(&mut self) {
            // SAFETY: signalling the browser this test started.
            unsafe { libc::kill(self.0, libc::SIGTERM) };
        }
    }
    let _browser = KillPid(pid);

    let mut agent = Mcp::start(&env, &[]);
    agent.ok("browser_new_tab", json!({"active": true}));
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("dialogs.html")}));
    let confirm = ref_of(&snap, "button", "Confirm");
    let start = Instant::now();
    let (code, r) = agent.fails("browser_click", json!({"ref": confirm}));
    assert_eq!(code, "DIALOG_OPEN", "{}", text(&r));
    assert!(text(&r).contains("Delete everything?"), "{}", text(&r));
    assert!(text(&r).contains("Recover: call browser_handle_dialog"));
    assert!(start.elapsed() < Duration::from_secs(10));
    let (code, r) = agent.fails("browser_snapshot", json!({}));
    assert_eq!(code, "DIALOG_OPEN");
    assert_eq!(r["structuredContent"]["outcome"], "refused");

    // The open one is Chrome's to show and the person's to answer; the call says so, and the
    // policy still applies to the next dialog.
    let (t, data) = agent.ok("browser_handle_dialog", json!({"action": "accept"}));
    assert!(
        t.contains("is open now") && t.contains("answered in the browser"),
        "{t}"
    );
    assert_eq!(data["outcome"], "partial");
    assert_eq!(data["open"]["kind"], "confirm");
}
