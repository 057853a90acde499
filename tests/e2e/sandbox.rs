//! The path sandbox in a real browser, replaying issue 8's findings: files written with
//! `filePath` and files uploaded stay inside the roots (the workspace, a working directory that
//! is not `/` or home, tabpilot's temp folder), never in /etc, /proc or tabpilot's state.

use std::path::Path;

use serde_json::json;

use crate::harness::{Mcp, sandbox_dir, shared, text};
use crate::snapshot::ref_of;

/// The page's text as browser_read_page gives it.
fn page_text(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_read_page", json!({"format": "text"}));
    data["content"].as_str().unwrap().to_string()
}

/// Asserts a call was refused as outside the sandbox, naming the roots, with nothing sent.
fn refused_outside(agent: &mut Mcp, tool: &str, args: &serde_json::Value) -> String {
    let (code, r) = agent.fails(tool, args.clone());
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX", "{tool} {args}: {}", text(&r));
    assert_eq!(
        r["structuredContent"]["outcome"], "refused",
        "{tool} {args}"
    );
    let said = text(&r);
    assert!(
        said.contains("the roots are") || said.contains("there are no roots"),
        "the refusal names no roots: {said}"
    );
    said
}

/// Issue 8, finding 5, as found: started from `/`, a snapshot `filePath` wrote into /etc, and
/// `browser_upload_file` put /etc/shadow and /proc/self/environ on a page. `/` is no root now,
/// and /etc, /proc, /sys and /dev are never inside, not even under a workspace of `/`.
#[test]
fn from_a_working_directory_of_slash_etc_and_proc_are_out_of_reach() {
    let s = shared();
    let planted = format!("/etc/tabpilot-e2e-{}.txt", std::process::id());
    for workspace in [None, Some("/")] {
        let mut agent = s.agent_with(|cmd| {
            cmd.current_dir("/");
            match workspace {
                Some(w) => cmd.env("TABPILOT_WORKSPACE", w),
                None => cmd.env_remove("TABPILOT_WORKSPACE"),
            };
        });
        let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("upload.html")}));
        let avatar = ref_of(&snap, "button", "Avatar");
        // Absolute, and relative to the working directory `/`.
        for path in [planted.as_str(), &planted[1..]] {
            let said = refused_outside(&mut agent, "browser_snapshot", &json!({"filePath": path}));
            assert!(said.contains("never in the sandbox"), "{said}");
            assert!(
                !Path::new(&planted).exists(),
                "a snapshot was written to /etc"
            );
        }
        for path in [
            "/etc/shadow",
            "/etc/passwd",
            "etc/passwd",
            "/proc/self/environ",
            "/dev/null",
        ] {
            refused_outside(
                &mut agent,
                "browser_upload_file",
                &json!({"ref": avatar, "paths": [path]}),
            );
        }
        let page = page_text(&mut agent);
        assert!(!page.contains("avatar:"), "a file reached the page: {page}");
        if workspace.is_none() {
            let said = refused_outside(
                &mut agent,
                "browser_screenshot",
                &json!({"filePath": "/etc/tabpilot-shot.png"}),
            );
            assert!(
                said.contains("the working directory / is not a root"),
                "{said}"
            );
        }
    }
    let _ = std::fs::remove_file(&planted);
}

/// Issue 8, finding 5, as found: with the state directory under the temp directory, the relay
/// secret could be uploaded to a page and overwritten by a snapshot file. The temp directory is
/// no root now (only tabpilot's own folder in it is), and the state directory is never inside,
/// not even under a workspace that holds it.
#[test]
fn the_relay_secret_cannot_be_uploaded_or_overwritten() {
    let s = shared();
    let state = &s.env.state_dir;
    assert!(
        state.starts_with(std::env::temp_dir()),
        "the test wants the state dir under the temp dir: {}",
        state.display()
    );
    let secret = state.join("secret");
    let before = std::fs::read(&secret).expect("the relay made a secret");
    let temp = std::env::temp_dir().display().to_string();
    for workspace in [None, Some(temp.as_str())] {
        let mut agent = s.agent_with(|cmd| {
            match workspace {
                Some(w) => cmd.env("TABPILOT_WORKSPACE", w),
                None => cmd.env_remove("TABPILOT_WORKSPACE"),
            };
        });
        let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("upload.html")}));
        let avatar = ref_of(&snap, "button", "Avatar");
        let said = refused_outside(
            &mut agent,
            "browser_upload_file",
            &json!({"ref": avatar, "paths": [secret.display().to_string()]}),
        );
        if workspace.is_some() {
            assert!(said.contains("state directory"), "{said}");
        }
        let page = page_text(&mut agent);
        assert!(
            !page.contains("avatar:"),
            "the secret reached the page: {page}"
        );
        for tool in ["browser_snapshot", "browser_screenshot"] {
            refused_outside(
                &mut agent,
                tool,
                &json!({"filePath": secret.display().to_string()}),
            );
        }
        assert_eq!(
            std::fs::read(&secret).unwrap(),
            before,
            "the relay secret was overwritten"
        );
    }
}

/// Issue 8, finding 15: a `filePath` naming a directory failed only after the page call ran. It
/// is refused now before anything is sent: the agent, which has no tab yet, still has none (its
/// first page call would have opened one), and no snapshot or capture was taken.
#[test]
fn a_file_path_naming_a_directory_is_refused_before_the_page_is_touched() {
    let s = shared();
    let dir = sandbox_dir("file-path-dir");
    let mut agent = s.agent();
    for tool in ["browser_snapshot", "browser_screenshot"] {
        for path in [dir.display().to_string(), format!("{}/", dir.display())] {
            let (code, r) = agent.fails(tool, json!({"filePath": path}));
            assert_eq!(code, "BAD_ARGS", "{tool}: {}", text(&r));
            assert_eq!(r["structuredContent"]["outcome"], "refused", "{tool}");
            assert!(text(&r).contains("is a directory"), "{}", text(&r));
        }
    }
    assert!(agent.holds_no_tab(), "the page was touched");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `TABPILOT_WORKSPACE` names several folders (separated as `PATH` is): each is a root, and a
/// write into a folder of one that does not exist yet makes it; a folder outside them is refused
/// and nothing is made there. (The working directory is `/`, no root.)
#[test]
fn each_workspace_of_a_list_is_a_root_and_a_missing_folder_in_one_is_made() {
    let s = shared();
    // Outside tabpilot's temp folder (a root of its own): in the temp directory, which is none.
    let dir = |name: &str| {
        let d = std::env::temp_dir().join(format!("tabpilot-e2e-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    let (one, two, out) = (dir("ws-one"), dir("ws-two"), dir("ws-out"));
    let list = std::env::join_paths([&one, &two]).unwrap();
    let mut agent = s.agent_with(|cmd| {
        cmd.current_dir("/").env("TABPILOT_WORKSPACE", &list);
    });
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    for dir in [&one, &two] {
        let file = dir.join("shots/new/page.txt");
        let (said, _) = agent.ok(
            "browser_snapshot",
            json!({"filePath": file.to_str().unwrap()}),
        );
        assert!(
            std::fs::read_to_string(&file).unwrap().contains("Press me"),
            "{said}"
        );
    }
    let outside = out.join("new/page.txt");
    let said = refused_outside(
        &mut agent,
        "browser_snapshot",
        &json!({"filePath": outside.to_str().unwrap()}),
    );
    for root in [&one, &two] {
        let root = root.canonicalize().unwrap();
        assert!(
            said.contains(&format!("{} (TABPILOT_WORKSPACE)", root.display())),
            "{said}"
        );
    }
    assert!(
        !out.join("new").exists(),
        "a folder was made outside the roots"
    );
    for d in [one, two, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}
