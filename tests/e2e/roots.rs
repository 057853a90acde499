//! The MCP client's roots: asked for where the client offers them, added to the path sandbox of
//! that client's session, asked for again when the client says they changed, and held to the
//! working directory's rule (neither `/` nor the home directory).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::harness::{Env, Mcp, in_project, text};

/// Answers the server's next `roots/list` with these folders.
fn answer_roots(mcp: &mut Mcp, folders: &[&Path]) {
    let asked = mcp.server_request("roots/list");
    let roots: Vec<Value> = folders
        .iter()
        .map(|f| json!({"uri": url::Url::from_directory_path(f).unwrap().as_str(), "name": "project"}))
        .collect();
    mcp.send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": roots}}));
}

/// browser_export to `path` with nothing recorded: refused by the sandbox (PATH_OUTSIDE_SANDBOX),
/// or past it, by the empty recording (NOT_FOUND). No browser is needed for either.
fn export_to(mcp: &mut Mcp, path: &Path) -> (String, String) {
    let (code, r) = mcp.fails(
        "browser_export",
        json!({"format": "playwright", "filePath": path}),
    );
    (code, text(&r))
}

fn folder(base: &Path, name: &str) -> PathBuf {
    let dir = base.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

#[test]
fn the_client_s_roots_join_the_sandbox_and_follow_its_changes() {
    let env = Env::fresh("roots");
    let base = std::env::temp_dir().join(format!("tabpilot-e2e-roots-{}", std::process::id()));
    let (home, a, b) = (
        folder(&base, "home"),
        folder(&base, "a"),
        folder(&base, "b"),
    );
    // Started in the home directory, which is no root: only the client's roots and the temp
    // folder are.
    let mut cmd = env.command(&["mcp"]);
    in_project(&mut cmd, &home, &home);
    let mut mcp = Mcp::spawn(cmd);
    mcp.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": true}},
            "clientInfo": {"name": "roots-client", "version": "1"}
        }),
    );
    mcp.notify("notifications/initialized", &json!({}));
    answer_roots(&mut mcp, &[&a]);

    let (code, why) = export_to(&mut mcp, &a.join("made/test.spec.ts"));
    assert_eq!(code, "NOT_FOUND", "{why}");
    let (code, why) = export_to(&mut mcp, &b.join("test.spec.ts"));
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX", "{why}");
    assert!(
        why.contains(&format!("{} (the client's root)", a.display())),
        "{why}"
    );

    // The client's roots change: the server asks again, and the new list is the one in force.
    // The home directory is refused as a root, as a working directory there would be.
    mcp.notify("notifications/roots/list_changed", &json!({}));
    answer_roots(&mut mcp, &[&b, &home]);
    let (code, why) = export_to(&mut mcp, &b.join("test.spec.ts"));
    assert_eq!(code, "NOT_FOUND", "{why}");
    let (code, why) = export_to(&mut mcp, &a.join("test.spec.ts"));
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX", "{why}");
    assert!(
        why.contains(&format!(
            "the client's root {} is not a root",
            home.display()
        )),
        "{why}"
    );
    let (code, _) = export_to(&mut mcp, &home.join("test.spec.ts"));
    assert_eq!(code, "PATH_OUTSIDE_SANDBOX");
    drop(mcp);
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_client_that_offers_no_roots_is_not_asked() {
    let env = Env::fresh("no-roots");
    let mut mcp = Mcp::started(env.command(&["mcp"]));
    mcp.request("tools/list", json!({}));
    assert!(mcp.requests.is_empty(), "{:?}", mcp.requests);
}
